//! The evaluation of encoding detection on real sentences: the sentences
//! Lingua keeps apart from the text its models were learned from
//! (`tests/detect/sentences/`, see `tests/detect/SOURCES.md`), in every
//! language with such sentences, encoded in each encoding that serves the
//! language, as plain text, as an HTML page with and without a `<meta
//! charset>` and as an RSS feed with an XML declaration. The text is real;
//! the files are made here, so this is no figure on real files (that is
//! `detect_dev.rs`).
//!
//! A few of the sentences are themselves damaged in the source (French and
//! Norwegian ones with C1 controls where a quote was, Welsh ones with the
//! UTF-8 of ŵ and â read as windows-1252, Romanian ones with U+FFFD's UTF-8
//! read as windows-1250): in those, another reading than
//! the encoding's own gives the text as it was meant, so they are left out
//! ([`is_damaged`]).
//!
//! `cargo test --release -p mojiscope-core --test detect_sentences -- --ignored --nocapture`

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use mojiscope_core::{ALL, Encoding, WINDOWS_1250, WINDOWS_1251, WINDOWS_1252, detect};
use mojiscope_indexes::language::LANGUAGES;

/// How a sample is wrapped.
const STYLES: [&str; 4] = ["plain", "html", "html+meta", "rss+xml"];

fn wrap(style: &str, encoding: &Encoding, sentences: &[&str]) -> String {
    let body = sentences.join("\n");
    let label = encoding.name();
    match style {
        "plain" => format!("{body}\n"),
        "html" => format!(
            "<!DOCTYPE html>\n<html><head><title>{}</title></head>\n<body><p>{}</p></body></html>\n",
            sentences[0],
            sentences[1..].join("</p>\n<p>")
        ),
        "html+meta" => format!(
            "<!DOCTYPE html>\n<html><head><meta charset=\"{label}\"><title>{}</title></head>\n<body><p>{}</p></body></html>\n",
            sentences[0],
            sentences[1..].join("</p>\n<p>")
        ),
        _ => format!(
            "<?xml version=\"1.0\" encoding=\"{label}\"?>\n<rss version=\"2.0\"><channel><title>{}</title>\n{}</channel></rss>\n",
            sentences[0],
            sentences[1..].iter().fold(String::new(), |mut out, s| {
                let _ = writeln!(out, "<item><description>{s}</description></item>");
                out
            })
        ),
    }
}

/// Whether a sentence was damaged before it reached the source: it holds a
/// C1 control, or its windows-1252, windows-1250 or windows-1251 bytes are
/// valid UTF-8 beyond ASCII (the UTF-8 of its text, or of U+FFFD, was read
/// as that code page once already: "ďż˝" in Romanian).
fn is_damaged(sentence: &str) -> bool {
    if sentence.chars().any(|c| ('\u{80}'..='\u{9f}').contains(&c)) {
        return true;
    }
    [WINDOWS_1252, WINDOWS_1250, WINDOWS_1251]
        .iter()
        .any(|page| {
            page.encode_fatal(sentence)
                .is_ok_and(|bytes| !bytes.is_ascii() && std::str::from_utf8(&bytes).is_ok())
        })
}

/// (language, encoding, style, first 64 bytes only).
type Key = (String, String, &'static str, bool);

#[test]
#[ignore = "cargo test --release -p mojiscope-core --test detect_sentences -- --ignored --nocapture"]
fn evaluation_on_real_sentences() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/detect/sentences");
    let mut tally: BTreeMap<Key, (usize, usize)> = BTreeMap::new();
    // `MOJISCOPE_EVAL_EXPLAIN=1` lists every wrong answer.
    let explain = std::env::var_os("MOJISCOPE_EVAL_EXPLAIN").is_some();
    for language in &LANGUAGES {
        let Ok(text) = std::fs::read_to_string(dir.join(format!("{}.txt", language.tag))) else {
            continue;
        };
        let sentences: Vec<&str> = text
            .lines()
            .filter(|l| !l.is_empty() && !is_damaged(l))
            .collect();
        for (position, encoding) in ALL.iter().enumerate() {
            if !encoding.is_override_choice() || !language.is_written_in(position) {
                continue;
            }
            // The sentences this encoding can write, four to a sample.
            let writable: Vec<&str> = sentences
                .iter()
                .copied()
                .filter(|s| encoding.encode_fatal(s).is_ok())
                .collect();
            for (index, group) in writable.chunks(4).take(24).enumerate() {
                if group.len() < 2 {
                    continue;
                }
                let style = STYLES[index % STYLES.len()];
                let Ok(bytes) = encoding.encode_fatal(&wrap(style, encoding, group)) else {
                    continue;
                };
                for first64 in [false, true] {
                    let input = if first64 {
                        &bytes[..bytes.len().min(64)]
                    } else {
                        &bytes[..]
                    };
                    let guess = detect(input).best();
                    let right = guess == *encoding
                        || guess.decode(input).text == encoding.decode(input).text;
                    if explain && !right {
                        println!(
                            "wrong: {} {} {style}{} sample {index} as {guess}",
                            language.tag,
                            encoding.name(),
                            if first64 { " first 64 bytes" } else { "" }
                        );
                    }
                    let cell = tally
                        .entry((
                            language.tag.to_owned(),
                            encoding.name().to_owned(),
                            style,
                            first64,
                        ))
                        .or_default();
                    cell.0 += usize::from(right);
                    cell.1 += 1;
                }
            }
        }
    }
    let sum = |filter: &dyn Fn(&Key) -> bool| {
        tally
            .iter()
            .filter(|(k, _)| filter(k))
            .fold((0, 0), |(r, t), (_, &(a, b))| (r + a, t + b))
    };
    let percent = |(r, t): (usize, usize)| {
        let per_mille = (r * 1000 + t / 2) / t.max(1);
        format!("{}.{}% of {t}", per_mille / 10, per_mille % 10)
    };
    println!("whole samples: {}", percent(sum(&|k| !k.3)));
    println!("first 64 bytes: {}", percent(sum(&|k| k.3)));
    for style in STYLES {
        println!(
            "{style}: whole {}, first 64 bytes {}",
            percent(sum(&|k| !k.3 && k.2 == style)),
            percent(sum(&|k| k.3 && k.2 == style))
        );
    }
    let mut by_language: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut by_encoding: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for ((language, encoding, _, first64), &(r, t)) in &tally {
        if *first64 {
            continue;
        }
        let l = by_language.entry(language).or_default();
        *l = (l.0 + r, l.1 + t);
        let e = by_encoding.entry(encoding).or_default();
        *e = (e.0 + r, e.1 + t);
    }
    println!("\nPer language (whole samples):");
    for (language, counts) in by_language {
        print!("{language} {}  ", percent(counts));
    }
    println!("\n\nPer encoding (whole samples):");
    for (encoding, counts) in by_encoding {
        print!("{encoding} {}  ", percent(counts));
    }
    println!();
}
