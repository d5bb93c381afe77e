//! 20 MiB (and, ignored by default, 512 MiB) through `decode` and `encode`:
//! the output is exact, the work is streamed (output arrives before the
//! input ends) and memory stays small.

use std::io::{Read as _, Write as _};
use std::process::Stdio;
use std::sync::mpsc;
use std::thread;

use mojiscope_tests::{Xorshift, command};

const SIZE: usize = 20 << 20;

/// Text of about `len` UTF-8 bytes mixing 1- to 4-byte characters in an
/// irregular order, so that sequences straddle every chunk boundary.
fn mixed_text(len: usize) -> String {
    let pieces = ["a", "é", "日", "😀", "line\n", "ß", "€", "𠀋", "z"];
    let mut random = Xorshift::new(20);
    let mut text = String::with_capacity(len + 8);
    while text.len() < len {
        text.push_str(pieces[(random.next_u64() % pieces.len() as u64) as usize]);
    }
    text
}

/// What a streaming run saw.
struct Streamed {
    output: Vec<u8>,
    stderr: String,
    code: Option<i32>,
    /// Output that arrived while standard input was still open.
    output_before_eof: usize,
    /// The process's peak resident memory in KiB, read while it was waiting
    /// for the end of its input (Linux only).
    peak_kib: Option<u64>,
}

/// Runs the binary with `input` on stdin, keeping stdin open until all but
/// the last 1 MiB of `expected_len` output bytes have arrived.
fn stream(args: &[&str], input: Vec<u8>, expected_len: usize) -> Streamed {
    let mut child = command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let (close, closed) = mpsc::channel::<()>();
    let feeder = thread::Builder::new()
        .name("stdin-feeder".to_owned())
        .spawn(move || {
            stdin
                .write_all(&input)
                .expect("the binary reads all its input");
            // Keep stdin open until told, then close it by dropping it.
            closed.recv().ok();
        })
        .expect("a thread can be spawned");
    let mut output = Vec::with_capacity(expected_len);
    let mut buffer = vec![0; 1 << 16];
    while output.len() + (1 << 20) < expected_len {
        let n = stdout.read(&mut buffer).expect("stdout can be read");
        if n == 0 {
            break;
        }
        output.extend_from_slice(&buffer[..n]);
    }
    let output_before_eof = output.len();
    let peak_kib = peak_resident_kib(child.id());
    close.send(()).expect("the feeder waits for this");
    stdout.read_to_end(&mut output).expect("stdout can be read");
    feeder.join().expect("the feeder finished");
    let result = child
        .wait_with_output()
        .expect("the binary can be waited for");
    Streamed {
        output,
        stderr: String::from_utf8_lossy(&result.stderr).into_owned(),
        code: result.status.code(),
        output_before_eof,
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

#[track_caller]
fn assert_streamed(run: &Streamed, expected: &[u8]) {
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stderr, "");
    assert_eq!(run.output.len(), expected.len());
    assert!(
        run.output == expected,
        "output differs from byte {}",
        first_difference(&run.output, expected)
    );
    assert!(
        run.output_before_eof + (1 << 20) >= expected.len(),
        "output arrived before the input ended ({} of {} bytes)",
        run.output_before_eof,
        expected.len()
    );
    if let Some(peak_kib) = run.peak_kib {
        // The input alone is 20 MiB; a streaming run needs a few.
        assert!(peak_kib < 16 * 1024, "peak memory {peak_kib} KiB");
    }
}

fn first_difference(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

#[test]
fn decode_20_mib_of_utf_16le() {
    let text = mixed_text(SIZE * 5 / 6);
    let mut input = b"\xFF\xFE".to_vec();
    input.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    assert!(input.len() >= SIZE);
    let run = stream(&["decode", "--errors", "fatal"], input, text.len());
    assert_streamed(&run, text.as_bytes());
}

#[test]
fn decode_20_mib_of_gb18030() {
    let text = mixed_text(SIZE);
    let (input, _, _) = encoding_rs::GB18030.encode(&text);
    let run = stream(
        &["decode", "--encoding", "gb18030"],
        input.into_owned(),
        text.len(),
    );
    assert_streamed(&run, text.as_bytes());
}

#[test]
fn encode_20_mib_to_gb18030_and_shift_jis() {
    let text = mixed_text(SIZE);
    let (expected, _, _) = encoding_rs::GB18030.encode(&text);
    let run = stream(
        &["encode", "--encoding", "gb18030"],
        text.clone().into_bytes(),
        expected.len(),
    );
    assert_streamed(&run, &expected);

    // Shift_JIS cannot encode "é", "😀", "ß", "€" or "𠀋": html mode.
    let expected = encoding_rs::SHIFT_JIS.encode(&text).0.into_owned();
    let run = stream(
        &["encode", "--encoding", "shift_jis", "--errors", "html"],
        text.into_bytes(),
        expected.len(),
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("characters that Shift_JIS cannot encode"),
        "{}",
        run.stderr
    );
    assert!(
        run.output == expected,
        "output differs from byte {}",
        first_difference(&run.output, &expected)
    );
}

/// Half a gibibyte through `decode` and `encode`: the peak memory of the
/// binary stays the few MiB of the 20 MiB tests, so a file of any size
/// streams through in them. A check of memory, not of time; it takes a
/// few seconds and 2 GiB of memory in the test itself, so it is not run by
/// default:
/// `cargo test -p mojiscope-tests --test large -- --ignored`
/// (after `cargo test -p mojiscope --no-run` has built the binary).
#[test]
#[ignore = "512 MiB through the binary: cargo test -p mojiscope-tests --test large -- --ignored"]
fn half_a_gibibyte_streams_in_a_few_mib() {
    let text = mixed_text(512 << 20);
    let (input, _, _) = encoding_rs::GB18030.encode(&text);
    let input = input.into_owned();
    let run = stream(
        &["decode", "--encoding", "gb18030"],
        input.clone(),
        text.len(),
    );
    assert_streamed(&run, text.as_bytes());
    drop(run);
    let run = stream(
        &["encode", "--encoding", "gb18030"],
        text.into_bytes(),
        input.len(),
    );
    assert_streamed(&run, &input);
}
