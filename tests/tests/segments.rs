//! Files in more than one encoding: `detect --segments` prints
//! `START<TAB>END<TAB>NAME` lines and says on standard error how sure each
//! boundary is; `inspect --json` reports `"segments"`; `fix` and
//! `convert --from auto` decode each segment in its own encoding. Hostile
//! inputs (random bytes, an ESC flood, 256 MiB without a line feed, a
//! sparse 4 GiB file) get one segment and a note, in bounded time and
//! memory.

use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use encoding_rs::{SHIFT_JIS, WINDOWS_1251, WINDOWS_1252};
use mojiscope_tests::{Run, Xorshift, assert_no_panic, command, run};

const GERMAN: &str = "Grüße aus Köln, schöne Tage am Rhein.\n";
const FRENCH: &str = "Déjà vu : l'été français, c'était très beau.\n";

/// A directory for one test.
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

    fn write(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.path(name);
        std::fs::write(&path, bytes).expect("the scratch directory is writable");
        path_str(&path).to_owned()
    }
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

/// Three lines of German in UTF-8, two of French in windows-1252, three of
/// German in UTF-8 again; the intended text; and the two boundaries.
fn mixed() -> (Vec<u8>, String, [usize; 2]) {
    let utf8 = GERMAN.repeat(3);
    let legacy = FRENCH.repeat(2);
    let mut bytes = utf8.clone().into_bytes();
    let first = bytes.len();
    bytes.extend_from_slice(&WINDOWS_1252.encode(&legacy).0);
    let second = bytes.len();
    bytes.extend_from_slice(utf8.as_bytes());
    (bytes, format!("{utf8}{legacy}{utf8}"), [first, second])
}

/// The segments a run printed, as (start, end, name).
fn printed(run: &Run) -> Vec<(u64, u64, String)> {
    run.stdout_text()
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 3, "START<TAB>END<TAB>NAME: {line:?}");
            (
                fields[0].parse().expect("START is a number"),
                fields[1].parse().expect("END is a number"),
                fields[2].to_owned(),
            )
        })
        .collect()
}

#[test]
fn detect_segments_prints_each_part_and_how_sure_each_boundary_is() {
    let scratch = Scratch::new();
    let (bytes, _, [first, second]) = mixed();
    let input = scratch.write("mixed.txt", &bytes);
    let result = run(["detect", "--segments", &input], b"");
    assert_eq!(result.code(), Some(0), "{}", result.stderr);
    let (first, second, len) = (first as u64, second as u64, bytes.len() as u64);
    assert_eq!(
        printed(&result),
        [
            (0, first, "UTF-8".to_owned()),
            (first, second, "windows-1252".to_owned()),
            (second, len, "UTF-8".to_owned()),
        ]
    );
    assert_no_panic(&result.stderr);
    let stderr: Vec<&str> = result.stderr.lines().collect();
    assert_eq!(stderr.len(), 3, "{}", result.stderr);
    assert!(
        stderr[0]
            .ends_with("mixed.txt: 2 encodings: UTF-8 (lines 1–3, 6–8), windows-1252 (lines 4–5)"),
        "{}",
        stderr[0]
    );
    assert!(
        stderr[1].contains(&format!(
            "mixed.txt: boundary at byte {first} (line 4): UTF-8 -> windows-1252, margin "
        )),
        "{}",
        stderr[1]
    );
    assert!(
        stderr[2].contains(&format!(
            "boundary at byte {second} (line 6): windows-1252 -> UTF-8"
        )),
        "{}",
        stderr[2]
    );
    // Standard input, the same.
    let piped = run(["detect", "--segments", "-"], &bytes);
    assert_eq!(piped.stdout, result.stdout);
}

#[test]
fn a_file_in_one_encoding_is_one_segment() {
    let scratch = Scratch::new();
    for (name, bytes) in [
        ("utf8.txt", GERMAN.repeat(20).into_bytes()),
        ("cp1251.txt", {
            let text = "Съешь же ещё этих мягких французских булок, да выпей чаю.\n";
            WINDOWS_1251.encode(&text.repeat(20)).0.into_owned()
        }),
        ("sjis.txt", {
            let text = "いろはにほへと、ちりぬるを。日本語の文章です。\n";
            SHIFT_JIS.encode(&text.repeat(20)).0.into_owned()
        }),
        ("empty.txt", Vec::new()),
    ] {
        let input = scratch.write(name, &bytes);
        let result = run(["detect", "--segments", &input], b"");
        result.assert_success();
        let segments = printed(&result);
        assert_eq!(segments.len(), 1, "{name}");
        assert_eq!((segments[0].0, segments[0].1), (0, bytes.len() as u64));
    }
}

#[test]
fn detect_segments_reports_a_missing_file() {
    let scratch = Scratch::new();
    let missing = scratch.path("missing.txt");
    let result = run(["detect", "--segments", path_str(&missing)], b"");
    result.assert_failure(2, &["missing.txt", "cannot open"]);
}

#[test]
fn inspect_json_has_the_segments() {
    let scratch = Scratch::new();
    let (bytes, _, [first, second]) = mixed();
    let input = scratch.write("mixed.txt", &bytes);
    let result = run(["inspect", "--json", &input], b"");
    result.assert_success();
    let report: serde_json::Value =
        serde_json::from_slice(&result.stdout).expect("the report is JSON");
    let segments = report["segments"].as_array().expect("an array of segments");
    let found: Vec<(u64, u64, &str)> = segments
        .iter()
        .map(|s| {
            (
                s["start"].as_u64().expect("start"),
                s["end"].as_u64().expect("end"),
                s["encoding"].as_str().expect("encoding"),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (0, first as u64, "UTF-8"),
            (first as u64, second as u64, "windows-1252"),
            (second as u64, bytes.len() as u64, "UTF-8"),
        ]
    );
    // The plain report lists them too.
    let plain = run(["inspect", &input], b"");
    plain.assert_success();
    assert!(
        plain
            .stdout_text()
            .contains(&format!("  {first}..{second}  windows-1252\n")),
        "{}",
        plain.stdout_text()
    );
}

#[test]
fn fix_decodes_each_segment_in_its_own_encoding() {
    let scratch = Scratch::new();
    let (bytes, text, _) = mixed();
    let input = scratch.write("mixed.txt", &bytes);
    let result = run(["fix", &input], b"");
    assert_eq!(result.code(), Some(0), "{}", result.stderr);
    assert_eq!(result.stdout_text(), text);
    assert_eq!(
        result.stderr.trim_end(),
        format!(
            "mojiscope: {input}: 2 encodings: UTF-8 (lines 1–3, 6–8), windows-1252 (lines 4–5); \
             each part decoded in its own encoding"
        )
    );
    // --encoding says how to read the whole file: no segments then.
    let forced = run(["fix", "--encoding", "utf-8", &input], b"");
    assert_eq!(forced.code(), Some(0), "{}", forced.stderr);
    assert!(forced.stdout_text().contains('\u{FFFD}'));
}

#[test]
fn convert_from_auto_writes_one_encoding() {
    let scratch = Scratch::new();
    let (bytes, text, _) = mixed();
    let input = scratch.write("mixed.txt", &bytes);
    let output = scratch.path("out.txt");
    let result = run(
        [
            "convert",
            "--from",
            "auto",
            "--to",
            "utf-8",
            &input,
            "-o",
            path_str(&output),
        ],
        b"",
    );
    assert_eq!(result.code(), Some(0), "{}", result.stderr);
    assert_eq!(std::fs::read(&output).expect("written"), text.as_bytes());
    assert!(result.stderr.contains("2 encodings"), "{}", result.stderr);
    // Into windows-1252, and not over an existing file without --force.
    let legacy = scratch.path("out-1252.txt");
    let args = |force: bool| {
        let mut args = vec![
            "convert",
            "--from",
            "AUTO",
            "--to",
            "latin1",
            input.as_str(),
            "-o",
            path_str(&legacy),
        ];
        if force {
            args.push("--force");
        }
        args
    };
    run(args(false), b"");
    assert_eq!(
        std::fs::read(&legacy).expect("written"),
        WINDOWS_1252.encode(&text).0.as_ref()
    );
    run(args(false), b"").assert_failure(2, &["out-1252.txt"]);
    assert_eq!(run(args(true), b"").code(), Some(0));
    // Fatal mode stops at a character the target cannot write, naming its
    // place in the whole file.
    let cyrillic = {
        let mut bytes = GERMAN.as_bytes().to_vec();
        bytes.extend_from_slice(
            &WINDOWS_1251
                .encode(&"Съешь же ещё этих булок.\n".repeat(3))
                .0,
        );
        bytes
    };
    let input = scratch.write("cyrillic.txt", &cyrillic);
    let failed = run(
        [
            "convert",
            "--from",
            "auto",
            "--to",
            "windows-1252",
            &input,
            "-o",
            path_str(&scratch.path("never.txt")),
        ],
        b"",
    );
    let offset = format!("byte offset {}", GERMAN.len());
    let character = format!("(character {})", GERMAN.chars().count());
    failed.assert_failure(
        1,
        &[
            offset.as_str(),
            character.as_str(),
            "never.txt was not written",
        ],
    );
    assert!(!scratch.path("never.txt").exists());
}

/// Runs `detect --segments` on a file and checks the run ended well, with
/// one segment covering it and a note; returns standard error.
fn one_segment_with_a_note(path: &Path, len: u64) -> String {
    let child = command(["detect", "--segments", path_str(path)])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let output = child
        .wait_with_output()
        .expect("the binary can be waited for");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_no_panic(&stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    assert!(lines[0].starts_with(&format!("0\t{len}\t")), "{stdout}");
    stderr
}

/// Writes `len` bytes made of `pattern` repeated to `path`.
fn write_repeated(path: &Path, pattern: &[u8], len: u64) {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path).expect("a file"));
    let block: Vec<u8> = pattern.iter().copied().cycle().take(1 << 20).collect();
    let whole = (1 << 20) / pattern.len() * pattern.len();
    let mut written = 0u64;
    while written + whole as u64 <= len {
        out.write_all(&block[..whole]).expect("written");
        written += whole as u64;
    }
    let rest = usize::try_from(len - written).expect("less than a block");
    out.write_all(&block[..rest]).expect("written");
    out.flush().expect("written");
}

#[test]
fn hostile_inputs_get_one_segment_and_a_note() {
    let scratch = Scratch::new();
    // Random bytes and a binary: not text.
    let random = scratch.path("random.bin");
    std::fs::write(&random, Xorshift::new(21).bytes(3 << 20)).expect("written");
    let stderr = one_segment_with_a_note(&random, 3 << 20);
    assert!(stderr.contains("not text"), "{stderr}");
    // An ESC flood.
    let escapes = scratch.path("escapes.txt");
    write_repeated(&escapes, b"\x1b", 100 << 20);
    let stderr = one_segment_with_a_note(&escapes, 100 << 20);
    assert!(stderr.contains("not text"), "{stderr}");
    // A sparse 4 GiB file: a hole that reads as zeros.
    let sparse = scratch.path("sparse.bin");
    File::create(&sparse)
        .expect("a file")
        .set_len(4 << 30)
        .expect("a hole");
    let stderr = one_segment_with_a_note(&sparse, 4 << 30);
    assert!(stderr.contains("not text"), "{stderr}");
    assert!(stderr.contains("sampled"), "{stderr}");
    // 256 MiB of Greek without a line feed: text, in one encoding. Beyond
    // 256 KiB every file is sampled alike, so a gibibyte would test nothing
    // more, and the test machine's disk may not hold one (the slow suite,
    // bounded.rs, has files of a gibibyte).
    let one_line = scratch.path("one-line.txt");
    write_repeated(&one_line, "κόσμε abcde".as_bytes(), 256 << 20);
    let stderr = one_segment_with_a_note(&one_line, 256 << 20);
    assert!(stderr.contains("sampled"), "{stderr}");
}
