//! `mojiscope convert`: round trips through every encoder, every output
//! encoding with and without characters it cannot encode, and the
//! guarantees about OUT: written whole or not at all, never over an existing
//! file without --force, no temporary file left behind, and a process
//! killed while writing leaving the original intact and at most one stray
//! temporary file, which the next save in that directory removes.

use std::fs;
use std::path::{Path, PathBuf};

use mojiscope_tests::{Run, SAMPLE_TEXT, encodable_sample, run};

/// A directory for one test, with its input file.
struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("a temporary directory"),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.path(name);
        fs::write(&path, bytes).expect("the scratch directory is writable");
        path
    }

    /// The names in the directory, sorted.
    fn listing(&self) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(self.dir.path())
            .expect("the scratch directory is readable")
            .map(|entry| {
                entry
                    .expect("a directory entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    }
}

fn convert(from: &str, to: &str, input: &Path, output: &Path, extra: &[&str]) -> Run {
    let mut args = vec![
        "convert",
        "--from",
        from,
        "--to",
        to,
        input.to_str().expect("scratch paths are UTF-8"),
        "-o",
        output.to_str().expect("scratch paths are UTF-8"),
    ];
    args.extend_from_slice(extra);
    run(args, b"")
}

#[test]
fn round_trips_through_every_encoder() {
    let scratch = Scratch::new();
    let mut failures = Vec::new();
    for encoding in mojiscope_core::ALL
        .iter()
        .filter(|encoding| encoding.has_encoder())
    {
        let name = encoding.name();
        let oracle = encoding_rs::Encoding::for_label(name.as_bytes()).unwrap();
        let text = encodable_sample(|c| {
            let mut buffer = [0; 4];
            let (bytes, _, unmappable) = oracle.encode(c.encode_utf8(&mut buffer));
            !unmappable && oracle.decode_without_bom_handling(&bytes).0 == c.to_string()
        });
        let input = scratch.write("text.txt", text.as_bytes());
        let encoded = scratch.path(&format!("{name}.bin"));
        let back = scratch.path(&format!("{name}.txt"));
        let there = convert("utf-8", name, &input, &encoded, &[]);
        let again = convert(name, "utf-8", &encoded, &back, &[]);
        let expected = oracle.encode(&text).0;
        if there.code() != Some(0)
            || !there.stderr.is_empty()
            || fs::read(&encoded).ok().as_deref() != Some(&expected[..])
        {
            failures.push(format!(
                "to {name}: exit {:?} {}",
                there.code(),
                there.stderr.trim()
            ));
        } else if again.code() != Some(0)
            || fs::read_to_string(&back).ok().as_deref() != Some(&text[..])
        {
            failures.push(format!(
                "from {name}: exit {:?} {}",
                again.code(),
                again.stderr.trim()
            ));
        }
        assert!(
            there.stdout.is_empty() && again.stdout.is_empty(),
            "convert writes nothing to stdout"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // 37 encoders, two files each, and the input.
    assert_eq!(
        scratch.listing().len(),
        37 * 2 + 1,
        "no temporary files: {:?}",
        scratch.listing()
    );
}

#[test]
fn exact_output_and_output_encodings() {
    let scratch = Scratch::new();
    let input = scratch.write("in.txt", "日本語 ｶﾀ ¥".as_bytes());
    let output = scratch.path("out.txt");
    convert("utf-8", "euc-jp", &input, &output, &[]).assert_success();
    assert_eq!(
        fs::read(&output).unwrap(),
        b"\xC6\xFC\xCB\xDC\xB8\xEC \x8E\xB6\x8E\xC0 \x5C"
    );
    // UTF-16LE has no encoder: its output encoding, UTF-8, is written.
    convert("utf-8", "utf-16le", &input, &output, &["--force"]).assert_success();
    assert_eq!(fs::read_to_string(&output).unwrap(), "日本語 ｶﾀ ¥");
}

#[test]
fn a_byte_order_mark_overrides_from() {
    let scratch = Scratch::new();
    let mut bytes = b"\xFF\xFE".to_vec();
    bytes.extend("é☃".encode_utf16().flat_map(u16::to_le_bytes));
    let input = scratch.write("in.txt", &bytes);
    let output = scratch.path("out.txt");
    convert("windows-1252", "utf-8", &input, &output, &[]).assert_success();
    assert_eq!(fs::read_to_string(&output).unwrap(), "é☃");
}

#[test]
fn refuses_to_overwrite_without_force() {
    let scratch = Scratch::new();
    let input = scratch.write("in.txt", b"new text");
    let output = scratch.write("out.txt", b"keep me");
    let run = convert("utf-8", "latin1", &input, &output, &[]);
    run.assert_failure(2, &["out.txt: already exists", "--force"]);
    assert_eq!(fs::read(&output).unwrap(), b"keep me");
    assert_eq!(scratch.listing(), ["in.txt", "out.txt"]);

    convert("utf-8", "latin1", &input, &output, &["--force"]).assert_success();
    assert_eq!(fs::read(&output).unwrap(), b"new text");
    assert_eq!(scratch.listing(), ["in.txt", "out.txt"]);
}

#[test]
fn force_can_convert_a_file_in_place() {
    let scratch = Scratch::new();
    let path = scratch.write("notes.txt", "café ☃".as_bytes());
    let run = convert("utf-8", "shift_jis", &path, &path, &[]);
    run.assert_failure(2, &["already exists"]);
    assert_eq!(fs::read(&path).unwrap(), "café ☃".as_bytes());

    let path = scratch.write("notes.txt", "日本".as_bytes());
    convert("utf-8", "shift_jis", &path, &path, &["--force"]).assert_success();
    assert_eq!(fs::read(&path).unwrap(), b"\x93\xFA\x96\x7B");
    assert_eq!(scratch.listing(), ["notes.txt"]);
}

#[test]
fn a_decoding_error_in_fatal_mode_writes_nothing() {
    let scratch = Scratch::new();
    // The error comes after more than one chunk has gone to the temporary file.
    let mut bytes = "é".repeat(100_000).into_bytes();
    bytes.extend_from_slice(b"\xFF tail");
    let input = scratch.write("in.txt", &bytes);
    let output = scratch.path("out.txt");
    let run = convert("utf-8", "latin1", &input, &output, &[]);
    run.assert_failure(
        1,
        &[
            "in.txt: invalid byte at byte offset 200000 (bytes: 0xFF) in UTF-8",
            "out.txt was not written",
        ],
    );
    assert_eq!(
        scratch.listing(),
        ["in.txt"],
        "no OUT and no temporary file"
    );
}

#[test]
fn an_unencodable_character_in_fatal_mode_writes_nothing() {
    let scratch = Scratch::new();
    // Shift_JIS input; the offset named is the input's.
    let input = scratch.write("in.txt", b"\x93\xFA\x96\x7Bab\x82\xA0");
    let output = scratch.path("out.txt");
    let run = convert(
        "shift_jis",
        "windows-1252",
        &input,
        &output,
        &["--errors", "fatal"],
    );
    run.assert_failure(
        1,
        &[
            "in.txt: U+65E5 at byte offset 0 (character 0) cannot be encoded in windows-1252",
            "out.txt was not written",
        ],
    );
    assert_eq!(scratch.listing(), ["in.txt"]);

    let input = scratch.write("in.txt", b"ab\x82\xA0");
    convert("shift_jis", "latin1", &input, &output, &[])
        .assert_failure(1, &["U+3042 at byte offset 2 (character 2)"]);
    assert_eq!(scratch.listing(), ["in.txt"]);
}

#[test]
fn html_mode_replaces_and_references_with_a_summary() {
    let scratch = Scratch::new();
    let input = scratch.write("in.txt", b"a\xFFb\xE2\x98\x83");
    let output = scratch.path("out.txt");
    let run = convert(
        "utf-8",
        "windows-1252",
        &input,
        &output,
        &["--errors", "html"],
    );
    assert_eq!(run.code(), Some(0), "{}", run.stderr);
    // U+FFFD is not in windows-1252 either.
    assert_eq!(fs::read(&output).unwrap(), b"a&#65533;b&#9731;");
    let summary = run.stderr.strip_suffix('\n').unwrap();
    assert!(!summary.contains('\n'), "one line: {summary:?}");
    for part in [
        "out.txt",
        "windows-1252",
        "1 decoding error",
        "2 characters",
    ] {
        assert!(
            summary.contains(part),
            "{summary:?} should contain {part:?}"
        );
    }
}

#[test]
fn a_missing_directory_is_an_error() {
    let scratch = Scratch::new();
    let input = scratch.write("in.txt", b"text");
    let output = scratch.path("no/such/dir/out.txt");
    let run = convert("utf-8", "utf-8", &input, &output, &[]);
    run.assert_failure(2, &["out.txt", "no such directory", "dir"]);
    assert_eq!(scratch.listing(), ["in.txt"]);
    // A file where the directory should be.
    let output = scratch.path("in.txt/out.txt");
    convert("utf-8", "utf-8", &input, &output, &[]).assert_failure(2, &["no such directory"]);
}

#[test]
fn unknown_labels_and_missing_input_exit_2_before_writing() {
    let scratch = Scratch::new();
    let input = scratch.write("in.txt", b"text");
    let output = scratch.path("out.txt");
    convert("utf-9", "utf-8", &input, &output, &[])
        .assert_failure(2, &["unknown encoding label \"utf-9\""]);
    convert("utf-8", "latin-1", &input, &output, &[])
        .assert_failure(2, &["unknown encoding label \"latin-1\""]);
    convert("utf-8", "utf-8", &scratch.path("missing.txt"), &output, &[])
        .assert_failure(2, &["missing.txt: cannot open"]);
    assert_eq!(scratch.listing(), ["in.txt"]);
}

#[cfg(unix)]
#[test]
fn permissions_are_the_usual_ones_or_kept() {
    use std::os::unix::fs::PermissionsExt as _;

    let mode = |path: &Path| fs::metadata(path).unwrap().permissions().mode() & 0o7777;
    let scratch = Scratch::new();
    let input = scratch.write("in.txt", b"text");
    // A new file gets what any new file gets here (0666 less the umask),
    // not the temporary file's private 0600.
    let reference = scratch.write("reference.txt", b"");
    let output = scratch.path("out.txt");
    convert("utf-8", "utf-8", &input, &output, &[]).assert_success();
    assert_eq!(mode(&output), mode(&reference));
    // A replaced file keeps its permissions.
    fs::set_permissions(&output, fs::Permissions::from_mode(0o640)).unwrap();
    convert("utf-8", "latin1", &input, &output, &["--force"]).assert_success();
    assert_eq!(mode(&output), 0o640);
}

/// How many characters of `text` `encoding` cannot encode, by `encoding_rs`.
fn unencodable_count(encoding: &'static encoding_rs::Encoding, text: &str) -> usize {
    text.chars()
        .filter(|&c| {
            let mut buffer = [0; 4];
            encoding.encode(c.encode_utf8(&mut buffer)).2
        })
        .count()
}

#[test]
fn every_output_encoding_with_and_without_unencodable_characters() {
    let scratch = Scratch::new();
    let mut failures = Vec::new();
    // All 40: UTF-16BE, UTF-16LE and replacement write their output
    // encoding, UTF-8.
    for encoding in mojiscope_core::ALL {
        let name = encoding.name();
        let output_name = encoding.output_encoding().name();
        let oracle = encoding_rs::Encoding::for_label(name.as_bytes())
            .unwrap()
            .output_encoding();
        let encodable = encodable_sample(|c| {
            let mut buffer = [0; 4];
            !oracle.encode(c.encode_utf8(&mut buffer)).2
        });
        for (kind, text) in [("encodable", encodable.as_str()), ("sample", SAMPLE_TEXT)] {
            let unencodable = unencodable_count(oracle, text);
            let input = scratch.write("in.txt", text.as_bytes());
            let output = scratch.path("out.bin");
            // Fatal: all or nothing.
            let fatal = convert("utf-8", name, &input, &output, &["--force"]);
            let written = fs::read(&output).ok();
            let fatal_ok = if unencodable == 0 {
                fatal.code() == Some(0) && written.as_deref() == Some(&oracle.encode(text).0[..])
            } else {
                fatal.code() == Some(1)
                    && fatal
                        .stderr
                        .contains(&format!("cannot be encoded in {output_name}"))
                    && fatal.stderr.contains("out.bin was not written")
                    && written.is_none()
            };
            if !fatal_ok {
                failures.push(format!("{name} {kind} fatal: {}", fatal.stderr.trim()));
            }
            fs::remove_file(&output).ok();
            // html: always written, exactly as encoding_rs writes it.
            let html = convert("utf-8", name, &input, &output, &["--errors", "html"]);
            let summary = format!(
                "references (&#N;) for {unencodable} character{} that {output_name} cannot encode",
                if unencodable == 1 { "" } else { "s" }
            );
            if html.code() != Some(0)
                || fs::read(&output).ok().as_deref() != Some(&oracle.encode(text).0[..])
                || !html.stderr.contains(&summary)
            {
                failures.push(format!("{name} {kind} html: {}", html.stderr.trim()));
            }
            fs::remove_file(&output).ok();
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(scratch.listing(), ["in.txt"], "no temporary files");
}

/// The names in `dir` that are temporary files of a save.
#[cfg(unix)]
fn temporary_files(scratch: &Scratch) -> Vec<String> {
    scratch
        .listing()
        .into_iter()
        .filter(|name| {
            name.starts_with(".mojiscope-")
                && Path::new(name).extension().is_some_and(|e| e == "tmp")
        })
        .collect()
}

/// Starts `convert` from standard input to `output`, feeds it `bytes` and
/// returns once they have reached its temporary file, with the process
/// still waiting for more input (and its standard input still open).
#[cfg(unix)]
fn convert_in_progress(
    scratch: &Scratch,
    output: &Path,
    bytes: &[u8],
) -> (std::process::Child, std::process::ChildStdin) {
    use std::io::Write as _;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let before = temporary_files(scratch);
    let mut child = mojiscope_tests::command([
        "convert",
        "--from",
        "utf-8",
        "--to",
        "utf-8",
        "--force",
        "-",
        "-o",
        output.to_str().expect("scratch paths are UTF-8"),
    ])
    .stdin(Stdio::piped())
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .expect("the binary runs");
    let Some(mut stdin) = child.stdin.take() else {
        child.wait().ok();
        panic!("stdin is piped");
    };
    // Returns once convert has read nearly all of it (the pipe holds 64 KiB).
    if let Err(error) = stdin.write_all(bytes) {
        child.kill().ok();
        child.wait().ok();
        panic!("convert does not read its input: {error}");
    }
    let started = Instant::now();
    loop {
        let grown = temporary_files(scratch)
            .into_iter()
            .filter(|name| !before.contains(name))
            .any(|name| fs::metadata(scratch.path(&name)).is_ok_and(|m| m.len() >= 1 << 20));
        if grown {
            return (child, stdin);
        }
        if started.elapsed() > Duration::from_mins(1) {
            child.kill().ok();
            child.wait().ok();
            panic!("no temporary file grew: {:?}", scratch.listing());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[cfg(unix)]
#[test]
fn a_convert_killed_while_writing_leaves_the_original_and_the_next_save_cleans_up() {
    let scratch = Scratch::new();
    let output = scratch.write("out.txt", b"the original");
    let input = scratch.write("in.txt", b"small");
    // Killed (SIGKILL: no cleanup of its own) in the middle of writing 4 MiB.
    let (mut killed, stdin) = convert_in_progress(&scratch, &output, &vec![b'a'; 4 << 20]);
    killed.kill().expect("the process can be killed");
    killed.wait().expect("the process can be waited for");
    drop(stdin);
    assert_eq!(fs::read(&output).unwrap(), b"the original");
    // What a crash inevitably leaves: one temporary file, its lock gone.
    assert_eq!(
        temporary_files(&scratch).len(),
        1,
        "{:?}",
        scratch.listing()
    );

    // A save that is alive while the next one starts keeps its file...
    let live_output = scratch.path("live.txt");
    let (live, live_stdin) = convert_in_progress(&scratch, &live_output, &vec![b'b'; 2 << 20]);
    let next = scratch.path("next.txt");
    convert("utf-8", "utf-8", &input, &next, &[]).assert_success();
    // ... while the dead one's is gone.
    assert_eq!(
        temporary_files(&scratch).len(),
        1,
        "{:?}",
        scratch.listing()
    );
    drop(live_stdin);
    let finished = live.wait_with_output().expect("the live save finishes");
    assert!(finished.status.success());
    assert_eq!(fs::read(&live_output).unwrap(), vec![b'b'; 2 << 20]);
    assert_eq!(fs::read(&output).unwrap(), b"the original");
    assert_eq!(
        scratch.listing(),
        ["in.txt", "live.txt", "next.txt", "out.txt"]
    );
}
