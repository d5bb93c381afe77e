//! `mojiscope explain`: the decoder's steps for bytes given in hex, one
//! line per step, grouped per decoded item; bad hex is a usage error.

use mojiscope_tests::{Run, run};

fn explain(args: &[&str]) -> Run {
    let mut all = vec!["explain"];
    all.extend_from_slice(args);
    run(all, b"")
}

#[test]
fn shift_jis_pointer_arithmetic() {
    let run = explain(&["--encoding", "sjis", "82", "A0"]);
    run.assert_success();
    assert_eq!(
        run.stdout_text(),
        "Shift_JIS decoder (https://encoding.spec.whatwg.org/#shift_jis-decoder)
82 A0 (bytes 0..2) → U+3042 (あ)
  [6] 0x82 is in 0x81 to 0x9F or 0xE0 to 0xFC: set Shift_JIS leading to 0x82 and continue
  [3.1-3.2] Shift_JIS leading is 0x82: let leading be 0x82 and set Shift_JIS leading to 0x00
  [3.4] offset = 0x41, as 0xA0 is not less than 0x7F
  [3.5] leadingOffset = 0x81, as 0x82 is less than 0xA0
  [3.6] 0xA0 is in 0x40 to 0x7E or 0x80 to 0xFC, so the pair has a pointer
  [3.6] pointer = (0x82 − 0x81) × 188 + 0xA0 − 0x41 = 283
  [3.8] index jis0208 at pointer 283 is U+3042 (あ)
  [3.9] return code point U+3042 (あ)
"
    );
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

#[test]
fn every_hex_form_gives_the_same_steps() {
    let expected = explain(&["--encoding", "shift_jis", "82", "A0"]).stdout;
    for forms in [
        &["82A0"][..],
        &["0x82", "0xA0"],
        &["0x82A0"],
        &["82 a0"],
        &["\\x82\\xA0"],
        &["%82%a0"],
        &["82:A0"],
        &["82,", "A0"],
    ] {
        let mut args = vec!["--encoding", "Shift_JIS"];
        args.extend_from_slice(forms);
        let run = explain(&args);
        run.assert_success();
        assert_eq!(run.stdout, expected, "{forms:?}");
    }
}

#[test]
fn a_masked_ascii_byte_is_restored() {
    let run = explain(&["--encoding", "shift_jis", "82 22"]);
    run.assert_success();
    let text = run.stdout_text();
    assert!(
        text.contains("82 (bytes 0..1) → error: trailing byte out of range"),
        "{text}"
    );
    assert!(
        text.contains(
            "  [3.10] 0x22 is an ASCII byte, so it is restored to the input and cannot be masked: it is decoded again on its own (Security background)\n"
        ),
        "{text}"
    );
    assert!(text.contains("22 (bytes 1..2) → U+0022 (\")"), "{text}");
}

#[test]
fn each_item_then_its_steps() {
    // UTF-8: the bits of a three-byte sequence, then an error and the byte
    // restored after it. No byte order mark handling: EF BB BF is U+FEFF.
    let run = explain(&["--encoding", "utf8", "E3 81 81", "E3 41", "EF BB BF"]);
    run.assert_success();
    let text = run.stdout_text();
    let headings: Vec<&str> = text
        .lines()
        .filter(|line| !line.starts_with("  "))
        .collect();
    assert_eq!(
        headings,
        [
            "UTF-8 decoder (https://encoding.spec.whatwg.org/#utf-8-decoder)",
            "E3 81 81 (bytes 0..3) → U+3041 (ぁ)",
            "E3 (bytes 3..4) → error: incomplete sequence (the next byte cannot continue it) (U+FFFD in replacement mode)",
            "41 (bytes 4..5) → U+0041 (A)",
            "EF BB BF (bytes 5..8) → U+FEFF",
        ]
    );
    assert!(
        text.contains("1110.0011 10.000001 10.000001 carries 0011 000001 000001 = U+3041 (ぁ)")
    );
    // gb18030's four bytes and index gb18030 ranges.
    let run = explain(&["--encoding", "gb18030", "0x81308130"]);
    run.assert_success();
    assert!(run.stdout_text().contains(
        "  [3.2] in index gb18030 ranges, the last pointer at or below 0 is 0 (U+0080): code point = 0x80 + 0 − 0 = U+0080\n"
    ));
    // The end of the bytes is the end of the input.
    let run = explain(&["--encoding", "big5", "A4"]);
    run.assert_success();
    assert!(
        run.stdout_text()
            .contains("A4 (bytes 0..1) → error: sequence truncated at end of input")
    );
}

#[test]
fn usage_errors() {
    let run = explain(&["--encoding", "sjis", "82", "G0"]);
    run.assert_failure(2, &["invalid bytes \"G0\": 'G' is not a hex digit"]);
    assert!(run.stdout.is_empty());
    explain(&["--encoding", "sjis", "82A"]).assert_failure(2, &["odd number of hex digits"]);
    explain(&["--encoding", "sjis", "0x"]).assert_failure(2, &["no bytes"]);
    explain(&["--encoding", "latin-1", "41"])
        .assert_failure(2, &["unknown encoding label \"latin-1\""]);
    assert_eq!(explain(&["--encoding", "sjis"]).code(), Some(2));
    assert_eq!(explain(&["82"]).code(), Some(2));
}

#[test]
fn help_lists_explain() {
    let run = run(["--help"], b"");
    run.assert_success();
    assert!(
        run.stdout_text()
            .lines()
            .any(|line| line.trim_start().starts_with("explain ")
                && line.contains("decoder's steps")),
        "{}",
        run.stdout_text()
    );
}
