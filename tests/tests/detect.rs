//! `mojiscope detect FILE`: one `NAME<TAB>SCORE` line per candidate, best
//! first, nothing else on standard output; notes on standard error.

use std::collections::HashSet;
use std::fs;

use encoding_rs::{EUC_KR, KOI8_R, SHIFT_JIS, WINDOWS_1250, WINDOWS_1253};
use mojiscope_tests::{Run, run};

/// The ranking a run printed, as (name, score) pairs.
fn ranking(run: &Run) -> Vec<(String, f64)> {
    run.stdout_text()
        .lines()
        .map(|line| {
            let (name, score) = line
                .split_once('\t')
                .unwrap_or_else(|| panic!("not NAME<TAB>SCORE: {line:?}"));
            let score: f64 = score
                .parse()
                .unwrap_or_else(|_| panic!("not a number: {line:?}"));
            (name.to_owned(), score)
        })
        .collect()
}

fn detect_file(bytes: &[u8]) -> Run {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("input.txt");
    fs::write(&path, bytes).expect("the input is written");
    let run = run(["detect", path.to_str().expect("a UTF-8 path")], b"");
    // Notes may go to standard error; the ranking is a success.
    assert_eq!(run.code(), Some(0), "{}", run.stderr);
    run
}

#[test]
fn every_override_choice_once_best_first() {
    let (bytes, _, _) = KOI8_R.encode("Съешь же ещё этих мягких французских булок, да выпей чаю.");
    let run = detect_file(&bytes);
    let ranking = ranking(&run);
    assert_eq!(ranking[0].0, "KOI8-R", "{}", run.stdout_text());
    // The 37 encodings a user may choose: all but replacement, UTF-16BE/LE.
    assert_eq!(ranking.len(), 37);
    let names: HashSet<&str> = ranking.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names.len(), 37);
    for excluded in ["replacement", "UTF-16BE", "UTF-16LE"] {
        assert!(!names.contains(excluded));
    }
    assert!(ranking.windows(2).all(|w| w[0].1 >= w[1].1));
    let total: f64 = ranking.iter().map(|(_, score)| score).sum();
    assert!((total - 1.0).abs() < 0.01, "scores add up to {total}");
    assert!(ranking.iter().all(|(_, score)| (0.0..=1.0).contains(score)));
}

#[test]
fn names_the_encoding_of_real_text() {
    let cases: [(&'static encoding_rs::Encoding, &str, &str); 5] = [
        (SHIFT_JIS, "Shift_JIS", "日本語の文章です。いろはにほへと。"),
        (
            EUC_KR,
            "EUC-KR",
            "다람쥐 헌 쳇바퀴에 타고파. 한국어 문장입니다.",
        ),
        (
            WINDOWS_1250,
            "windows-1250",
            "Příliš žluťoučký kůň úpěl ďábelské ódy.",
        ),
        (
            WINDOWS_1253,
            "windows-1253",
            "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.",
        ),
        (
            encoding_rs::UTF_8,
            "UTF-8",
            "Grüße aus Köln – naïve café, 日本語",
        ),
    ];
    for (encoding, name, text) in cases {
        let (bytes, _, unmappable) = encoding.encode(text);
        assert!(!unmappable);
        let run = detect_file(&bytes);
        assert_eq!(ranking(&run)[0].0, name, "{text}");
    }
}

#[test]
fn notes_go_to_standard_error() {
    let text = "A line of text in UTF-16LE without a byte order mark.\n";
    for (bytes, name) in [
        (
            text.encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect::<Vec<u8>>(),
            "UTF-16LE",
        ),
        (
            text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
            "UTF-16BE",
        ),
    ] {
        let run = detect_file(&bytes);
        let ranking = ranking(&run);
        // `detect` is no encoding chooser: it names UTF-16 first when the
        // bytes are UTF-16, and says so on standard error.
        assert_eq!(ranking[0].0, name, "{}", run.stdout_text());
        assert!(
            run.stderr.contains(&format!(
                "looks like {name} without a byte order mark (named first; not offered as a choice)"
            )),
            "{}",
            run.stderr
        );
        // The other byte order is not named; every override choice still is.
        assert_eq!(ranking.len(), 38);
        assert_eq!(
            ranking
                .iter()
                .filter(|(name, _)| name.starts_with("UTF-16"))
                .count(),
            1
        );
    }
    // Text that is not UTF-16 gets no UTF-16 candidate.
    let run = detect_file("plain text, été\n".as_bytes());
    assert!(
        ranking(&run)
            .iter()
            .all(|(name, _)| !name.starts_with("UTF-16"))
    );
    assert!(!run.stderr.contains("UTF-16"), "{}", run.stderr);
}

#[test]
fn what_a_file_declares_is_reported_with_whether_the_bytes_agree() {
    // A page that declares ISO-8859-1 (windows-1252) and whose bytes are
    // UTF-8: the bytes win.
    let page = "<!DOCTYPE html><html><head><meta charset=\"ISO-8859-1\"><title>Café</title>\
                </head><body><p>Déjà vu, naïve façade, crème brûlée.</p></body></html>\n";
    let run = detect_file(page.as_bytes());
    assert_eq!(ranking(&run)[0].0, "UTF-8");
    assert!(
        run.stderr.contains(
            "declared ISO-8859-1 in <meta> at byte 42 (read as windows-1252); the bytes are UTF-8"
        ),
        "{}",
        run.stderr
    );
    // The same page in windows-1252: the bytes agree.
    let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(page);
    let run = detect_file(&bytes);
    assert_eq!(ranking(&run)[0].0, "windows-1252");
    assert!(
        run.stderr.contains(
            "declared ISO-8859-1 in <meta> at byte 42 (read as windows-1252); the bytes agree"
        ),
        "{}",
        run.stderr
    );
    // An XML declaration and a CSS @charset are read too.
    let xml = "<?xml version=\"1.0\" encoding=\"windows-1251\"?>\n<p>Привет, мир</p>\n";
    let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(xml);
    let run = detect_file(&bytes);
    assert_eq!(ranking(&run)[0].0, "windows-1251");
    assert!(
        run.stderr
            .contains("declared windows-1251 in the XML declaration at byte 30; the bytes agree"),
        "{}",
        run.stderr
    );
    let css = "@charset \"utf-8\";\nbody { font-family: \"Fira Sans\"; }\n";
    let run = detect_file(css.as_bytes());
    assert!(
        run.stderr
            .contains("declared utf-8 in @charset at byte 10; the bytes agree"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_long_stream_is_sampled_as_a_file_is() {
    // 3 MB of Shift_JIS lines: a file is sampled in four windows, and so is
    // the same bytes through standard input, read to its end.
    let line = "日本語の文章です。いろはにほへと、ちりぬるを。東京都と大阪府。\n";
    let text = line.repeat(3_000_000 / line.len());
    let (bytes, _, _) = SHIFT_JIS.encode(&text);
    let from_file = detect_file(&bytes);
    let from_stdin = run(["detect", "-"], &bytes);
    assert_eq!(from_stdin.code(), Some(0), "{}", from_stdin.stderr);
    for run in [&from_file, &from_stdin] {
        assert_eq!(ranking(run)[0].0, "Shift_JIS", "{}", run.stderr);
        let note = format!(" of {} bytes examined", bytes.len());
        assert!(
            run.stderr.contains("sampled: 4 windows, ") && run.stderr.contains(&note),
            "{}",
            run.stderr
        );
    }
    // A short stream is examined whole, as a short file is.
    let short = &bytes[..10_000];
    let from_stdin = run(["detect", "-"], short);
    assert_eq!(from_stdin.stdout, detect_file(short).stdout);
    assert!(
        !from_stdin.stderr.contains("sampled"),
        "{}",
        from_stdin.stderr
    );
}

#[test]
fn a_bom_decides() {
    let run = detect_file(b"\xEF\xBB\xBFplain");
    let ranking = ranking(&run);
    assert_eq!(ranking[0].0, "UTF-8");
    assert!((ranking[0].1 - 1.0).abs() < 1e-9);
    assert!(ranking[1..].iter().all(|(_, score)| score.abs() < 1e-9));
}

#[test]
fn standard_input_and_errors() {
    let from_stdin = run(["detect", "-"], "€ and ✓".as_bytes());
    assert_eq!(from_stdin.code(), Some(0), "{}", from_stdin.stderr);
    assert_eq!(ranking(&from_stdin)[0].0, "UTF-8");
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.txt");
    let missing = missing.to_str().unwrap();
    let missing_file = run(["detect", missing], b"");
    missing_file.assert_failure(2, &[&format!("{missing}: cannot open: ")]);
    assert!(missing_file.stdout.is_empty());
    let no_file = run(["detect"], b"");
    assert_eq!(no_file.code(), Some(2));
    assert!(no_file.stderr.contains("<FILE>"), "{}", no_file.stderr);
}
