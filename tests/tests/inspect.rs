//! `inspect FILE [--json]`: size, byte order mark, and for every override
//! choice the number of errors its decoder reports over every byte (no BOM
//! handling, replacement mode) and the offsets of the first 100. The counts
//! are checked against `encoding_rs`, an independent implementation.

use mojiscope_core::ALL;
use mojiscope_tests::{Xorshift, run};
use serde_json::Value;

/// `encoding_rs`'s errors for `bytes` under `name`: its offsets, every byte
/// read, no BOM handling (as `inspect` defines the count).
fn oracle_errors(name: &str, bytes: &[u8]) -> Vec<u64> {
    let encoding = encoding_rs::Encoding::for_label(name.as_bytes()).expect("a known encoding");
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut offsets = Vec::new();
    let mut read_total = 0usize;
    let mut output = String::with_capacity(bytes.len() * 3 + 16);
    loop {
        output.clear();
        let (result, read) =
            decoder.decode_to_string_without_replacement(&bytes[read_total..], &mut output, true);
        read_total += read;
        match result {
            encoding_rs::DecoderResult::InputEmpty => return offsets,
            encoding_rs::DecoderResult::Malformed(length, consumed_after) => {
                // The malformed bytes end `consumed_after` bytes before the
                // bytes read so far.
                let end = read_total - usize::from(consumed_after);
                offsets.push((end - usize::from(length)) as u64);
            }
            encoding_rs::DecoderResult::OutputFull => {
                output.reserve(bytes.len());
            }
        }
    }
}

fn inspect_json(bytes: &[u8]) -> Value {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("sample.bin");
    std::fs::write(&path, bytes).expect("the sample is written");
    let run = run(
        ["inspect", "--json", path.to_str().expect("a UTF-8 path")],
        b"",
    );
    run.assert_success();
    serde_json::from_str(run.stdout_text()).expect("inspect --json writes JSON")
}

#[test]
fn json_counts_agree_with_encoding_rs_for_every_override_choice() {
    let mut rng = Xorshift::new(2024);
    let mut bytes = "Grüße, 日本語, Ελληνικά\n".as_bytes().to_vec();
    bytes.extend(rng.bytes(3000));
    bytes.extend_from_slice(b"\x1B$B\x30\x21\x1B(B plain ASCII\r\n");
    let report = inspect_json(&bytes);
    assert_eq!(report["size"], bytes.len() as u64);
    assert_eq!(report["bom"], Value::Null);
    let candidates = report["candidates"].as_array().expect("candidates");
    let expected: Vec<&str> = ALL
        .iter()
        .filter(|e| e.is_override_choice())
        .map(|e| e.name())
        .collect();
    let names: Vec<&str> = candidates
        .iter()
        .map(|c| c["encoding"].as_str().unwrap())
        .collect();
    assert_eq!(names, expected);
    for candidate in candidates {
        let name = candidate["encoding"].as_str().unwrap();
        let oracle = oracle_errors(name, &bytes);
        assert_eq!(candidate["errors"], oracle.len() as u64, "{name}");
        let first: Vec<u64> = candidate["first_error_offsets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(first, oracle[..oracle.len().min(100)], "{name}");
    }
}

#[test]
fn a_bom_is_reported_by_name_and_counts_ignore_it() {
    let report = inspect_json(b"\xFF\xFEh\0i\0");
    assert_eq!(report["bom"], "UTF-16LE");
    assert_eq!(report["size"], 6);
    let utf8 = report["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["encoding"] == "UTF-8")
        .unwrap();
    // 0xFF and 0xFE are errors for the UTF-8 decoder, which sees every byte.
    assert_eq!(utf8["errors"], 2);
    assert_eq!(utf8["first_error_offsets"], serde_json::json!([0, 1]));

    let report = inspect_json(b"\xEF\xBB\xBFok");
    assert_eq!(report["bom"], "UTF-8");
    let empty = inspect_json(b"");
    assert_eq!(empty["size"], 0);
}

#[test]
fn the_text_report_names_the_file_and_each_count() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("latin1.txt");
    std::fs::write(&path, b"caf\xE9\n").unwrap();
    let run = run(["inspect", path.to_str().unwrap()], b"");
    run.assert_success();
    let text = run.stdout_text();
    assert!(text.contains("latin1.txt"), "{text}");
    assert!(text.contains("size: 5 bytes"), "{text}");
    assert!(text.contains("byte order mark: none"), "{text}");
    let utf8 = text
        .lines()
        .find(|line| line.trim_start().starts_with("UTF-8 "))
        .expect("a UTF-8 line");
    assert!(
        utf8.contains(" 1 ") && utf8.ends_with("first at 3"),
        "{utf8}"
    );
}

#[test]
fn a_missing_file_or_a_directory_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.txt");
    let run_missing = run(["inspect", missing.to_str().unwrap()], b"");
    run_missing.assert_failure(2, &["missing.txt", "cannot open"]);
    let run_dir = run(["inspect", dir.path().to_str().unwrap()], b"");
    run_dir.assert_failure(2, &["directory"]);
}

#[test]
fn standard_input_is_inspected_with_a_dash() {
    let run = run(["inspect", "--json", "-"], b"\x82\xA0");
    run.assert_success();
    let report: Value = serde_json::from_str(run.stdout_text()).unwrap();
    assert_eq!(report["size"], 2);
}

#[test]
fn what_the_file_declares_is_in_both_reports() {
    let page = b"<!DOCTYPE html><html><head><meta charset=\"ISO-8859-1\"><title>Caf\xE9</title>";
    let report = inspect_json(page);
    assert_eq!(
        report["declared"],
        serde_json::json!({
            "encoding": "windows-1252",
            "label": "ISO-8859-1",
            "source": "html-meta",
            "offset": 42
        })
    );
    let xml = inspect_json(b"<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<a/>\n");
    assert_eq!(xml["declared"]["source"], "xml-declaration");
    assert_eq!(xml["declared"]["encoding"], "Shift_JIS");
    assert_eq!(xml["declared"]["offset"], 30);
    let css = inspect_json(b"@charset \"koi8-r\";\nbody {}\n");
    assert_eq!(css["declared"]["source"], "css-charset");
    assert_eq!(css["declared"]["encoding"], "KOI8-R");
    assert_eq!(inspect_json(b"plain text\n")["declared"], Value::Null);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("page.html");
    std::fs::write(&path, page).unwrap();
    let text = run(["inspect", path.to_str().unwrap()], b"");
    text.assert_success();
    assert!(
        text.stdout_text().contains(
            "\ndeclared encoding: ISO-8859-1 in <meta> at byte 42 (read as windows-1252)\n"
        ),
        "{}",
        text.stdout_text()
    );
    let plain = run(["inspect", "-"], b"plain\n");
    assert!(
        plain.stdout_text().contains("\ndeclared encoding: none\n"),
        "{}",
        plain.stdout_text()
    );
}

#[test]
fn standard_input_is_counted_as_it_comes_like_the_same_file() {
    // 24 MiB: the file is mapped, standard input is counted in pieces, and
    // sequences straddle the pieces' edges.
    let mut rng = Xorshift::new(16);
    let mut bytes = b"<meta charset=\"big5\">".to_vec();
    let text = "Grüße, 日本語, Ελληνικά, \u{1F600}\n".as_bytes();
    while bytes.len() < 24 << 20 {
        bytes.extend_from_slice(text);
        bytes.extend(rng.bytes(3));
    }
    let from_file = inspect_json(&bytes);
    let from_stdin = run(["inspect", "--json", "-"], &bytes);
    from_stdin.assert_success();
    let from_stdin: Value = serde_json::from_str(from_stdin.stdout_text()).unwrap();
    assert_eq!(from_stdin, from_file);
    assert_eq!(from_file["declared"]["encoding"], "Big5");
    assert_eq!(from_file["size"], bytes.len() as u64);
}
