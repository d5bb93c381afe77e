//! Hostile and odd inputs on the command line: empty and one-byte files,
//! 100 MB of one byte, 100 MB of ISO-2022-JP escape sequences, 1 GiB with no
//! line feed, files where every byte is an error, random binary, a sparse
//! 4 GiB file, a broken symbolic link. Each ends with the right output or a
//! clear message, in bounded memory, without a panic.
//!
//! The inputs of 100 MB and more come through standard input, written as the
//! command reads them: `decode` streams a file and standard input through the
//! same reader, and a test machine's disk may not hold a gibibyte more
//! (`bounded.rs`, run by hand, has them as files on disk).

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::Path;
use std::process::Stdio;

use mojiscope_tests::{Xorshift, assert_no_panic, command, run};

/// What a streamed run did.
struct Streamed {
    code: Option<i32>,
    stderr: String,
    /// How many bytes it wrote to standard output.
    output_len: u64,
    /// The peak resident memory seen while it ran, if the system says.
    peak_kib: Option<u64>,
}

/// What a streamed run reads on standard input: `len` bytes of `pattern`
/// repeated, made as the command reads them.
struct Repeated {
    pattern: &'static [u8],
    len: u64,
}

/// Runs the binary with `args`, reading its output as it comes and handing
/// each piece to `check` (nothing is kept).
fn streamed(args: &[&str], check: impl FnMut(&[u8])) -> Streamed {
    streamed_with_input(args, None, check)
}

/// As `streamed`, with `input` written to the command's standard input from
/// another thread (so that neither side waits for the other).
fn streamed_with_input(
    args: &[&str],
    input: Option<Repeated>,
    mut check: impl FnMut(&[u8]),
) -> Streamed {
    let mut child = command(args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let writer = input.map(|input| {
        let stdin = child.stdin.take().expect("stdin is piped");
        std::thread::Builder::new()
            .name("stdin".into())
            .spawn(move || {
                // A command that stops reading early closes the pipe: what
                // was written by then is the answer, not a failure of the
                // test.
                let _ = write_repeated(stdin, input.pattern, input.len);
            })
            .expect("a thread")
    });
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let mut buffer = vec![0; 1 << 20];
    let mut output_len = 0u64;
    let mut peak_kib = None;
    let mut next_sample = 0u64;
    loop {
        let n = stdout.read(&mut buffer).expect("stdout can be read");
        if n == 0 {
            break;
        }
        check(&buffer[..n]);
        output_len += n as u64;
        if output_len >= next_sample {
            next_sample += 16 << 20;
            peak_kib = peak_resident_kib(child.id()).max(peak_kib);
        }
    }
    let result = child
        .wait_with_output()
        .expect("the binary can be waited for");
    if let Some(writer) = writer {
        writer.join().expect("the writer does not panic");
    }
    let stderr = String::from_utf8_lossy(&result.stderr).into_owned();
    assert_no_panic(&stderr);
    Streamed {
        code: result.status.code(),
        stderr,
        output_len,
        peak_kib,
    }
}

#[cfg(target_os = "linux")]
fn peak_resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(not(target_os = "linux"))]
fn peak_resident_kib(_pid: u32) -> Option<u64> {
    None
}

/// Streaming runs need a few MiB whatever the input's size.
#[track_caller]
fn assert_bounded(run: &Streamed) {
    if let Some(peak_kib) = run.peak_kib {
        assert!(peak_kib < 32 * 1024, "peak memory {peak_kib} KiB");
    }
}

/// Writes `len` bytes made of `pattern` repeated to `out`.
fn write_repeated(out: impl Write, pattern: &[u8], len: u64) -> std::io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 20, out);
    let block: Vec<u8> = pattern.iter().copied().cycle().take(1 << 20).collect();
    let whole = (1 << 20) / pattern.len() * pattern.len();
    let mut written = 0u64;
    while written + whole as u64 <= len {
        out.write_all(&block[..whole])?;
        written += whole as u64;
    }
    let rest = usize::try_from(len - written).expect("less than a block");
    out.write_all(&block[..rest])?;
    out.flush()
}

/// Writes `len` bytes made of `pattern` repeated to a new file at `path`.
fn write_repeated_file(path: &Path, pattern: &[u8], len: u64) {
    write_repeated(File::create(path).expect("a file"), pattern, len).expect("written");
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

#[test]
fn an_empty_file() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, b"").unwrap();
    let empty = path_str(&empty);
    for args in [
        &["decode", empty][..],
        &[
            "decode",
            "--encoding",
            "iso-2022-jp",
            "--errors",
            "fatal",
            empty,
        ],
        &["encode", "--encoding", "gbk", empty],
    ] {
        let run = run(args, b"");
        run.assert_success();
        assert!(run.stdout.is_empty(), "{args:?}");
    }
    let out = dir.path().join("out.txt");
    run(
        [
            "convert",
            "--from",
            "sjis",
            "--to",
            "big5",
            empty,
            "-o",
            path_str(&out),
        ],
        b"",
    )
    .assert_success();
    assert_eq!(std::fs::read(&out).unwrap(), b"");
    let report = run(["inspect", "--json", empty], b"");
    report.assert_success();
    assert!(report.stdout_text().contains("\"size\": 0"));
}

#[test]
fn a_single_byte() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.bin");
    std::fs::write(&one, b"\x80").unwrap();
    let one = path_str(&one);
    let decoded = run(["decode", one], b"");
    decoded.assert_success();
    assert_eq!(decoded.stdout_text(), "\u{FFFD}");
    let fatal = run(["decode", "--errors", "fatal", one], b"");
    fatal.assert_failure(1, &["byte offset 0", "0x80"]);
    let latin1 = run(["decode", "--encoding", "latin1", one], b"");
    assert_eq!(latin1.stdout_text(), "€");
}

#[test]
fn every_byte_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("errors.bin");
    // 0xFF is an error for UTF-8, and in Shift_JIS and EUC-KR too.
    write_repeated_file(&path, b"\xFF", 4 << 20);
    for encoding in ["utf-8", "shift_jis", "euc-kr"] {
        let run = streamed(
            &["decode", "--encoding", encoding, path_str(&path)],
            |piece| {
                assert!(
                    piece.iter().all(|b| matches!(b, 0xEF | 0xBF | 0xBD)),
                    "only U+FFFD"
                );
            },
        );
        assert_eq!(run.code, Some(0), "{encoding}: {}", run.stderr);
        assert_eq!(run.output_len, 3 * (4 << 20), "{encoding}");
        assert_bounded(&run);
    }
    let fatal = run(["decode", "--errors", "fatal", path_str(&path)], b"");
    fatal.assert_failure(1, &["byte offset 0", "0xFF"]);
}

#[test]
fn a_hundred_megabytes_of_one_byte() {
    let input = Repeated {
        pattern: b"a",
        len: 100_000_000,
    };
    let run = streamed_with_input(
        &["decode", "--encoding", "gb18030", "-"],
        Some(input),
        |piece| {
            assert!(piece.iter().all(|&b| b == b'a'));
        },
    );
    assert_eq!(
        (run.code, run.output_len),
        (Some(0), 100_000_000),
        "{}",
        run.stderr
    );
    assert_bounded(&run);
}

#[test]
fn a_hundred_megabytes_of_iso_2022_jp_escapes() {
    // ESC $ B, ESC ( B, over and over: state changes with nothing between.
    let input = || Repeated {
        pattern: b"\x1B$B\x1B(B",
        len: 99_999_996, // whole escape sequences only
    };
    let len = input().len;
    let run = streamed_with_input(
        &["decode", "--encoding", "iso-2022-jp", "-"],
        Some(input()),
        |piece| {
            assert!(piece.iter().all(|b| matches!(b, 0xEF | 0xBF | 0xBD)));
        },
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // The first escape sequence is fine; each later one follows another
    // with no text between, which is an error (the standard's "output flag").
    let escapes = len / 3;
    assert_eq!(run.output_len, 3 * (escapes - 1));
    assert_bounded(&run);
    let fatal = streamed_with_input(
        &[
            "decode",
            "--errors",
            "fatal",
            "--encoding",
            "iso-2022-jp",
            "-",
        ],
        Some(input()),
        |_| {},
    );
    assert_eq!(fatal.code, Some(1));
    assert!(fatal.stderr.contains("byte offset 3"), "{}", fatal.stderr);
}

#[test]
fn a_gibibyte_without_a_line_feed() {
    // 16 bytes, so that the input ends on a whole pattern.
    let input = Repeated {
        pattern: "κόσμε abcde".as_bytes(),
        len: 1 << 30,
    };
    let run = streamed_with_input(&["decode", "-"], Some(input), |piece| {
        assert!(!piece.contains(&b'\n'));
    });
    assert_eq!(
        (run.code, run.output_len),
        (Some(0), 1 << 30),
        "{}",
        run.stderr
    );
    assert_bounded(&run);
}

#[test]
fn random_binary() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("image.bin");
    let mut rng = Xorshift::new(77);
    std::fs::write(&path, rng.bytes(3 << 20)).unwrap();
    for encoding in [
        "utf-8",
        "utf-16le",
        "iso-2022-jp",
        "gb18030",
        "big5",
        "replacement",
    ] {
        let run = streamed(
            &[
                "decode",
                "--no-bom",
                "--encoding",
                encoding,
                path_str(&path),
            ],
            |_| {},
        );
        assert_eq!(run.code, Some(0), "{encoding}: {}", run.stderr);
        assert!(run.output_len > 0, "{encoding}");
    }
    let report = run(["inspect", "--json", path_str(&path)], b"");
    report.assert_success();
}

#[test]
fn a_sparse_four_gibibyte_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sparse.bin");
    let file = File::create(&path).unwrap();
    // A hole: no disk used, reads as zeros.
    file.set_len(4 << 30).unwrap();
    let run = streamed(&["decode", path_str(&path)], |piece| {
        assert!(piece.iter().all(|&b| b == 0));
    });
    assert_eq!(
        (run.code, run.output_len),
        (Some(0), 4 << 30),
        "{}",
        run.stderr
    );
    assert_bounded(&run);
}

#[cfg(unix)]
#[test]
fn a_broken_symbolic_link() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("dangling.txt");
    std::os::unix::fs::symlink(dir.path().join("gone.txt"), &link).unwrap();
    for command in ["decode", "inspect"] {
        let run = run([command, path_str(&link)], b"");
        run.assert_failure(2, &["dangling.txt", "cannot open"]);
    }
}
