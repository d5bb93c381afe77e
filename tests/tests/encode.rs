//! `mojiscope encode`: exact output, the output encoding, fatal and html
//! modes, input that is not UTF-8, and agreement with `encoding_rs`.

use mojiscope_tests::{Run, SAMPLE_TEXT, encodable_sample, run};

fn encode(args: &[&str], input: &[u8]) -> Run {
    let mut all = vec!["encode"];
    all.extend_from_slice(args);
    run(all, input)
}

#[track_caller]
fn assert_encodes(args: &[&str], input: &str, expected: &[u8]) {
    let run = encode(args, input.as_bytes());
    run.assert_success();
    assert_eq!(run.stdout, expected, "encode {args:?} {input:?}");
}

#[test]
fn encodes_exactly() {
    assert_encodes(
        &["--encoding", "shift_jis"],
        "日本語のテキスト",
        b"\x93\xFA\x96\x7B\x8C\xEA\x82\xCC\x83\x65\x83\x4C\x83\x58\x83\x67",
    );
    assert_encodes(
        &["--encoding", "windows-1252"],
        "café € “quoted”",
        b"caf\xE9 \x80 \x93quoted\x94",
    );
    assert_encodes(
        &["--encoding", "euc-kr"],
        "한국어",
        b"\xC7\xD1\xB1\xB9\xBE\xEE",
    );
    assert_encodes(
        &["--encoding", "gb18030"],
        "中€\u{80}",
        b"\xD6\xD0\xA2\xE3\x81\x30\x81\x30",
    );
    assert_encodes(&["--encoding", "gbk"], "中€", b"\xD6\xD0\x80");
    assert_encodes(
        &["--encoding", "iso-2022-jp"],
        "日本語abc",
        b"\x1B$BF|K\\8l\x1B(Babc",
    );
    // The encoder returns to ASCII at the end of the input.
    assert_encodes(&["--encoding", "iso-2022-jp"], "日", b"\x1B$BF|\x1B(B");
    assert_encodes(&["--encoding", "x-user-defined"], "a\u{F780}", b"a\x80");
}

#[test]
fn utf_8_is_the_default_and_a_bom_is_removed() {
    assert_encodes(&[], "héllo", "héllo".as_bytes());
    assert_encodes(&[], "\u{FEFF}héllo", "héllo".as_bytes());
    // Only one BOM is removed; the second is text.
    assert_encodes(&[], "\u{FEFF}\u{FEFF}x", "\u{FEFF}x".as_bytes());
    assert_encodes(&["--encoding", "latin1"], "\u{FEFF}é", b"\xE9");
}

#[test]
fn utf_16_and_replacement_write_their_output_encoding() {
    // "get an output encoding": UTF-8 for UTF-16BE/LE and replacement.
    for label in [
        "utf-16le",
        "utf-16be",
        "utf-16",
        "iso-2022-kr",
        "replacement",
    ] {
        assert_encodes(&["--encoding", label], "hé☃", "hé☃".as_bytes());
    }
}

#[test]
fn fatal_mode_names_the_unencodable_character() {
    let run = encode(&["--encoding", "windows-1252"], "ab☃c".as_bytes());
    run.assert_failure(
        1,
        &["<stdin>: U+2603 at byte offset 2 (character 2) cannot be encoded in windows-1252"],
    );
    assert_eq!(run.stdout, b"ab", "what came before is written");

    // Offsets count the input's bytes (a BOM included); characters count text.
    let run = encode(
        &["--encoding", "shift_jis", "--errors", "fatal"],
        "\u{FEFF}日本€x".as_bytes(),
    );
    run.assert_failure(1, &["U+20AC at byte offset 9 (character 2)", "Shift_JIS"]);

    // An astral character, and a long way in (past a chunk boundary).
    let mut input = "é".repeat(50_000);
    input.push('😀');
    let run = encode(&["--encoding", "latin1"], input.as_bytes());
    run.assert_failure(1, &["U+1F600 at byte offset 100000 (character 50000)"]);
    assert_eq!(run.stdout, vec![0xE9; 50_000]);
}

#[test]
fn html_mode_writes_references_and_a_summary() {
    let run = encode(
        &["--encoding", "windows-1252", "--errors", "html"],
        "a☃b😀é".as_bytes(),
    );
    assert_eq!(run.code(), Some(0));
    assert_eq!(run.stdout, b"a&#9731;b&#128512;\xE9");
    let summary = run.stderr.strip_suffix('\n').unwrap();
    assert!(!summary.contains('\n'), "one line: {summary:?}");
    assert!(
        summary.starts_with("mojiscope: <stdin>: ") && summary.contains("for 2 characters that"),
        "{summary}"
    );
    assert!(summary.contains("windows-1252"), "{summary}");

    // ISO-2022-JP writes the reference in its ASCII state.
    let run = encode(
        &["--encoding", "iso-2022-jp", "--errors", "html"],
        "日☃".as_bytes(),
    );
    assert_eq!(run.stdout, b"\x1B$BF|\x1B(B&#9731;");
    assert!(
        run.stderr
            .contains("for 1 character that ISO-2022-JP cannot encode"),
        "{}",
        run.stderr
    );
}

#[test]
fn html_mode_ends_iso_2022_jp_in_ascii_after_a_final_reference() {
    // The last character is unencodable while the encoder is in its Roman
    // state: the reference is written there, then the end of input returns
    // to ASCII with ESC ( B.
    let run = encode(
        &["--encoding", "iso-2022-jp", "--errors", "html"],
        "¥☃".as_bytes(),
    );
    assert_eq!(run.code(), Some(0));
    assert_eq!(run.stdout, b"\x1B(J\\&#9731;\x1B(B");
    assert_eq!(
        encoding_rs::ISO_2022_JP.encode("¥☃").0.as_ref(),
        run.stdout.as_slice()
    );
}

#[test]
fn input_that_is_not_utf_8_is_a_usage_error() {
    let run = encode(&["--encoding", "latin1"], b"ok\xFFno");
    run.assert_failure(2, &["<stdin>: input is not UTF-8", "byte offset 2", "0xFF"]);
    assert!(!run.stdout.ends_with(b"no"), "nothing after the bad offset");

    // A truncated sequence at the end, and a surrogate's encoding.
    encode(&[], b"abc\xE2\x98").assert_failure(2, &["byte offset 3", "(bytes: 0xE2 0x98)"]);
    encode(&[], b"\xED\xA0\x80").assert_failure(2, &["byte offset 0"]);

    // Past the first chunk, split across the chunk boundary.
    let mut input = vec![b'x'; 65_535];
    input.extend_from_slice(b"\xE2\x98x");
    let run = encode(&[], &input);
    run.assert_failure(2, &["byte offset 65535", "(bytes: 0xE2 0x98)"]);
    assert!(run.stdout.len() <= 65_535);
}

#[test]
fn agrees_with_encoding_rs_on_every_encoder() {
    let mut disagreements = Vec::new();
    for encoding in mojiscope_core::ALL {
        let name = encoding.name();
        let oracle = encoding_rs::Encoding::for_label(name.as_bytes())
            .expect("encoding_rs knows every encoding");
        // Text it can encode, in fatal mode; everything, in html mode.
        let encodable = encodable_sample(|c| {
            let mut buffer = [0; 4];
            let (bytes, _, unmappable) = oracle.encode(c.encode_utf8(&mut buffer));
            !unmappable
                && oracle
                    .output_encoding()
                    .decode_without_bom_handling(&bytes)
                    .0
                    == c.to_string()
        });
        for (mode, text) in [("fatal", encodable.as_str()), ("html", SAMPLE_TEXT)] {
            let (expected, _, _) = oracle.encode(text);
            let run = encode(&["--encoding", name, "--errors", mode], text.as_bytes());
            if run.code() != Some(0) || run.stdout != expected.as_ref() {
                let at = run
                    .stdout
                    .iter()
                    .zip(expected.iter())
                    .take_while(|(a, b)| a == b)
                    .count();
                disagreements.push(format!(
                    "{name} ({mode}): exit {:?}, output differs at byte {at}: {:02X?} vs {:02X?} {}",
                    run.code(),
                    &run.stdout[at..run.stdout.len().min(at + 8)],
                    &expected[at..expected.len().min(at + 8)],
                    run.stderr.trim(),
                ));
            }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
