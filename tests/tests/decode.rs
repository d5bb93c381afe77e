//! `mojiscope decode`: fixtures with exact output, byte order marks, fatal
//! mode, and agreement with `encoding_rs`.
//!
//! The fixtures are generated here: their bytes were written down from the
//! encodings' tables (and are checked against `encoding_rs` below).

use std::io::Read as _;
use std::process::Stdio;

use mojiscope_tests::{Xorshift, command, run};

/// Decodes `input` given on stdin with these extra arguments.
fn decode(args: &[&str], input: &[u8]) -> mojiscope_tests::Run {
    let mut all = vec!["decode"];
    all.extend_from_slice(args);
    run(all, input)
}

#[track_caller]
fn assert_decodes(args: &[&str], input: &[u8], expected: &str) {
    let run = decode(args, input);
    run.assert_success();
    assert_eq!(run.stdout_text(), expected, "decode {args:?}");
}

/// (label, bytes, text) fixtures in several encodings.
const FIXTURES: [(&str, &[u8], &str); 10] = [
    (
        "shift_jis",
        b"\x93\xFA\x96\x7B\x8C\xEA\x82\xCC\x83\x65\x83\x4C\x83\x58\x83\x67",
        "日本語のテキスト",
    ),
    (
        "euc-kr",
        b"\xC7\xD1\xB1\xB9\xBE\xEE \xC5\xD8\xBD\xBA\xC6\xAE",
        "한국어 텍스트",
    ),
    (
        "windows-1252",
        b"caf\xE9 \x80 \x93quoted\x94 \x81",
        "café € “quoted” \u{81}",
    ),
    ("big5", b"\xC1\x63\xC5\xE9\xA4\xA4\xA4\xE5", "繁體中文"),
    (
        "gb18030",
        b"\xD6\xD0\xCE\xC4\xBC\xF2\xCC\xE5\xA2\xE3\x81\x30\x81\x30",
        "中文简体€\u{80}",
    ),
    ("gbk", b"\x80\xD6\xD0", "€中"),
    ("euc-jp", b"\xC6\xFC\xCB\xDC\xB8\xEC \x8E\xB6", "日本語 ｶ"),
    ("iso-2022-jp", b"\x1B$BF|K\\8l\x1B(Babc", "日本語abc"),
    ("koi8-r", b"\xF0\xD2\xC9\xD7\xC5\xD4", "Привет"),
    ("x-user-defined", b"a\x80\xFF", "a\u{F780}\u{F7FF}"),
];

#[test]
fn decodes_fixtures_exactly() {
    for (label, bytes, text) in FIXTURES {
        let oracle = encoding_rs::Encoding::for_label(label.as_bytes()).expect("a label");
        assert_eq!(
            oracle.decode_without_bom_handling(bytes).0,
            text,
            "the fixture itself ({label})"
        );
        assert_decodes(&["--encoding", label], bytes, text);
    }
}

#[test]
fn utf_16_with_a_byte_order_mark() {
    let mut le = b"\xFF\xFE".to_vec();
    let mut be = b"\xFE\xFF".to_vec();
    for unit in "hé😀".encode_utf16() {
        le.extend_from_slice(&unit.to_le_bytes());
        be.extend_from_slice(&unit.to_be_bytes());
    }
    // The byte order mark picks the encoding, whatever --encoding says.
    assert_decodes(&[], &le, "hé😀");
    assert_decodes(&["--encoding", "shift_jis"], &le, "hé😀");
    assert_decodes(&["--encoding", "utf-16le"], &be, "hé😀");
    // Without BOM sniffing the decoder sees the BOM as U+FEFF.
    assert_decodes(&["--encoding", "utf-16le", "--no-bom"], &le, "\u{FEFF}hé😀");
    assert_decodes(&["--encoding", "utf-16be", "--no-bom"], &be, "\u{FEFF}hé😀");
    // Odd length: the last byte is a truncated code unit.
    let mut odd = le.clone();
    odd.push(b'x');
    assert_decodes(&[], &odd, "hé😀\u{FFFD}");
}

#[test]
fn a_utf_8_bom_overrides_the_encoding_unless_no_bom() {
    let input = b"\xEF\xBB\xBFcaf\xC3\xA9";
    assert_decodes(&[], input, "café");
    assert_decodes(&["--encoding", "windows-1252"], input, "café");
    assert_decodes(
        &["--encoding", "windows-1252", "--no-bom"],
        input,
        "ï»¿cafÃ©",
    );
    assert_decodes(&["--no-bom"], input, "\u{FEFF}café");
    // Only the first BOM is one.
    assert_decodes(&[], b"\xEF\xBB\xBF\xEF\xBB\xBFx", "\u{FEFF}x");
    // A BOM's prefix is not a BOM.
    assert_decodes(&["--encoding", "windows-1252"], b"\xEF\xBB", "ï»");
}

#[test]
fn replacement_mode_is_the_default() {
    assert_decodes(&[], b"a\xFFb\xE3\x81", "a\u{FFFD}b\u{FFFD}");
    // Shift_JIS: 0x82 followed by ASCII restores the ASCII byte.
    assert_decodes(&["--encoding", "sjis"], b"\x82A\x82\xA0", "\u{FFFD}Aあ");
    // The replacement encoding decodes any input as one error.
    assert_decodes(&["--encoding", "iso-2022-kr"], b"anything", "\u{FFFD}");
    assert_decodes(&["--encoding", "iso-2022-kr"], b"", "");
    assert_decodes(&["--errors", "replacement"], b"\xC0", "\u{FFFD}");
}

#[test]
fn reads_a_file_or_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    std::fs::write(&path, b"caf\xE9").unwrap();
    let from_file = run(
        ["decode", "--encoding", "latin1", path.to_str().unwrap()],
        b"ignored",
    );
    from_file.assert_success();
    assert_eq!(from_file.stdout_text(), "café");
    assert_decodes(&["--encoding", "latin1", "-"], b"caf\xE9", "café");
}

#[test]
fn fatal_mode_stops_at_the_first_error() {
    let run = decode(&["--errors", "fatal"], b"ok\xFFno");
    run.assert_failure(
        1,
        &["<stdin>: invalid byte at byte offset 2 (bytes: 0xFF) in UTF-8"],
    );
    assert_eq!(run.stdout, b"ok", "what came before the error is written");

    let run = decode(
        &["--errors", "fatal", "--encoding", "shift_jis"],
        b"\x82\xA0\x82",
    );
    run.assert_failure(
        1,
        &[
            "byte offset 2",
            "(bytes: 0x82)",
            "in Shift_JIS",
            "truncated",
        ],
    );
    assert_eq!(run.stdout_text(), "あ");

    // A byte order mark picked the encoding; the error names it.
    let run = decode(
        &["--errors", "fatal", "--encoding", "latin1"],
        b"\xFF\xFEa\x00\x00\xD8b\x00",
    );
    run.assert_failure(
        1,
        &[
            "byte offset 4 (bytes: 0x00 0xD8)",
            "in UTF-16LE",
            "surrogate",
        ],
    );
    assert_eq!(run.stdout_text(), "a");

    let run = decode(
        &["--errors", "fatal", "--encoding", "euc-kr"],
        b"\xC7\xD1\xC7 ",
    );
    run.assert_failure(1, &["byte offset 2 (bytes: 0xC7)", "in EUC-KR"]);
    assert_eq!(run.stdout_text(), "한");

    // Valid input succeeds in fatal mode too.
    assert_decodes(
        &["--errors", "fatal", "--encoding", "gb18030"],
        b"\xD6\xD0",
        "中",
    );
}

#[test]
fn fatal_mode_names_the_file_and_bytes_across_a_chunk_boundary() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    // 64 KiB is the chunk size; put the error's bytes on both sides of it,
    // and then a long way on.
    for prefix_len in [65_535, 65_534, 200_001] {
        let mut input = vec![b'a'; prefix_len];
        input.extend_from_slice(b"\xF0\x9F\x98A rest");
        std::fs::write(&path, &input).unwrap();
        let run = run(["decode", "--errors", "fatal", path.to_str().unwrap()], b"");
        let message = run.assert_failure(
            1,
            &[
                "big.txt: incomplete sequence (the next byte cannot continue it)",
                &format!("at byte offset {prefix_len} (bytes: 0xF0 0x9F 0x98)"),
            ],
        );
        assert!(message.contains(path.to_str().unwrap()), "{message}");
        assert_eq!(
            run.stdout,
            vec![b'a'; prefix_len],
            "the text before the error"
        );
    }
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    std::fs::write(&path, "é".repeat(4 << 20)).unwrap();
    let mut child = command(["decode", path.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut start = [0u8; 100];
    stdout.read_exact(&mut start).unwrap();
    assert_eq!(&start[..4], "éé".as_bytes());
    drop(stdout); // like `| head -c 100`
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr, "", "no message and no panic");
}

/// Inputs that exercise decoders: random bytes, and bytes biased towards
/// multi-byte sequences (ASCII, escapes and high bytes).
fn awkward_inputs() -> Vec<Vec<u8>> {
    let mut random = Xorshift::new(0x6D6F_6A69);
    let uniform = random.bytes(16 * 1024);
    let biased = random
        .bytes(16 * 1024)
        .into_iter()
        .map(|byte| match byte % 8 {
            0 => b'A' + byte % 26,
            1 => 0x1B,
            2 => b"$(BJI@D"[usize::from(byte / 8) % 7],
            _ => 0x80 | byte,
        })
        .collect();
    let mut boms = b"\xFE\xFF\x00a\xD8\x3D\xDE\x00".to_vec();
    boms.extend_from_slice(&random.bytes(1000));
    vec![uniform, biased, boms, Vec::new(), b"\xEF\xBB".to_vec()]
}

#[test]
fn agrees_with_encoding_rs_on_every_encoding() {
    let mut disagreements = Vec::new();
    let inputs = awkward_inputs();
    for encoding in mojiscope_core::ALL {
        let name = encoding.name();
        let oracle = encoding_rs::Encoding::for_label(name.as_bytes())
            .expect("encoding_rs knows every encoding");
        // Text each encoding can represent, encoded by `encoding_rs`.
        let (valid, _, _) = oracle
            .output_encoding()
            .encode(mojiscope_tests::SAMPLE_TEXT);
        for input in inputs.iter().chain([&valid.into_owned()]) {
            for no_bom in [false, true] {
                let mut args = vec!["--encoding", name];
                let expected = if no_bom {
                    args.push("--no-bom");
                    oracle.decode_without_bom_handling(input).0
                } else {
                    oracle.decode(input).0
                };
                let run = decode(&args, input);
                if run.code() != Some(0) || run.stdout != expected.as_bytes() {
                    let actual = String::from_utf8_lossy(&run.stdout);
                    let at = actual
                        .chars()
                        .zip(expected.chars())
                        .take_while(|(a, b)| a == b)
                        .count();
                    disagreements.push(format!(
                        "{name} (no_bom: {no_bom}, {} input bytes): exit {:?}, output differs at character {at}: {:?} vs {:?} {}",
                        input.len(),
                        run.code(),
                        actual.chars().skip(at).take(5).collect::<String>(),
                        expected.chars().skip(at).take(5).collect::<String>(),
                        run.stderr.trim(),
                    ));
                }
            }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
