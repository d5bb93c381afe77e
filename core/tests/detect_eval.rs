//! The evaluation of encoding detection on held-out text.
//!
//! The text in `tests/detect/` (sources in `tests/detect/SOURCES.md`) is
//! software messages in 40 languages, none of it seen by the language
//! statistics, which are trained on other text. Samples of it in five length
//! bands, some wrapped as markup, CSV or log lines, are encoded in every
//! encoding that writes the language (from the messages it can encode), and
//! [`detect`] must name an encoding that decodes the bytes to the same text.
//!
//! `cargo test -p mojiscope-core --test detect_eval` runs a quick subset and
//! asserts the targets; the full evaluation, which prints the table recorded
//! in `core/DETECTION.md`, is
//! `cargo test -p mojiscope-core --test detect_eval -- --ignored --nocapture`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use mojiscope_core::{ALL, BomHandling, Detection, Encoding, UTF_8, detect};
use mojiscope_indexes::language::LANGUAGES;

/// The length bands, in encoded bytes: (label, lowest, highest).
const BANDS: [(&str, usize, usize); 5] = [
    ("16-63", 16, 63),
    ("64-255", 64, 255),
    ("256-1023", 256, 1023),
    ("1K-16K", 1024, 16 * 1024 - 1),
    ("16K-100K", 16 * 1024, 100 * 1024),
];

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One language's evaluation text: its messages, and the form legacy
/// encodings write it in where that differs.
struct Text {
    tag: &'static str,
    encodings: Vec<&'static Encoding>,
    lines: Vec<String>,
    legacy_lines: Option<Vec<String>>,
}

fn read_lines(path: &Path) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(
        text.lines()
            .filter(|line| !line.is_empty())
            .map(str::to_owned)
            .collect(),
    )
}

fn texts() -> Vec<Text> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/detect");
    // The languages with message translations (the others are evaluated on
    // sentences: see `detect_sentences.rs`).
    LANGUAGES
        .iter()
        .filter_map(|language| {
            let lines = read_lines(&dir.join(format!("{}.txt", language.tag)))?;
            let legacy_lines = read_lines(&dir.join(format!("{}.legacy.txt", language.tag)));
            let encodings = ALL
                .iter()
                .enumerate()
                .filter(|&(position, encoding)| {
                    encoding.is_override_choice() && language.is_written_in(position)
                })
                .map(|(_, encoding)| *encoding)
                .collect();
            Some(Text {
                tag: language.tag,
                encodings,
                lines,
                legacy_lines,
            })
        })
        .collect()
}

/// Wraps a message the way files hold text: plain lines, HTML, CSV, a log.
fn decorate(line: &str, style: usize, number: usize) -> String {
    match style {
        0 => format!("{line}\n"),
        1 => format!("<p class=\"msg\">{line}</p>\n"),
        2 => format!(
            "{number},\"{}\",{}\n",
            line.replace('"', "\"\""),
            number * 7 % 1000
        ),
        _ => format!(
            "2024-{:02}-{:02} {:02}:{:02}:{:02} INFO [{number}] {line}\n",
            number % 12 + 1,
            number % 28 + 1,
            number % 24,
            number % 60,
            number * 7 % 60
        ),
    }
}

/// A sample of about `target` encoded bytes from `lines`, starting at a
/// random line and going on in order (wrapping around).
fn sample_text(lines: &[String], target: usize, rng: &mut Rng) -> String {
    let style = rng.below(4);
    let mut index = rng.below(lines.len());
    let mut text = String::new();
    let mut number = rng.below(10_000);
    // UTF-8 is at least as long as any legacy encoding of the same text
    // (but for the few characters UTF-8 writes in 3 bytes and others in 2);
    // take enough, then cut by encoded length.
    while text.len() < target * 2 + 64 {
        text.push_str(&decorate(&lines[index % lines.len()], style, number));
        index += 1;
        number += 1;
    }
    text
}

/// The longest prefix of `text` (in characters) whose encoding is at most
/// `target` bytes, and those bytes; `None` if `encoding` cannot encode it.
fn encode_prefix(
    encoding: &'static Encoding,
    text: &str,
    target: usize,
) -> Option<(String, Vec<u8>)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let encode = |count: usize| {
        let end = chars.get(count).map_or(text.len(), |&(offset, _)| offset);
        encoding
            .encode_fatal(&text[..end])
            .ok()
            .map(|bytes| (end, bytes))
    };
    // Binary search the character count.
    let (mut low, mut high) = (0, chars.len());
    while low < high {
        let middle = (low + high).div_ceil(2);
        match encode(middle) {
            Some((_, bytes)) if bytes.len() <= target => low = middle,
            Some(_) => high = middle - 1,
            None => return None,
        }
    }
    let (end, bytes) = encode(low)?;
    Some((text[..end].to_owned(), bytes))
}

/// One input of the evaluation and what became of it.
struct Outcome {
    tag: &'static str,
    encoding: &'static Encoding,
    band: usize,
    guess: &'static Encoding,
    right: bool,
    non_ascii_utf8: bool,
    explanation: Option<String>,
}

/// The best candidates and the right one, with their evidence.
fn explain(detection: &Detection, encoding: &'static Encoding, text: &str) -> String {
    let mut out = String::new();
    let right = detection.candidate(encoding);
    for candidate in detection.candidates.iter().take(3).chain(right) {
        let _ = writeln!(
            out,
            "    {} {:.1}, {} errors",
            candidate.encoding, candidate.log_likelihood, candidate.errors
        );
        for evidence in &candidate.evidence {
            let _ = writeln!(out, "      {evidence}");
        }
    }
    let start: String = text.chars().take(160).collect();
    let _ = writeln!(out, "    text: {start:?}");
    out
}

/// The seed of the samples of one language in one encoding: each pair has
/// its own, so that the samples of one do not change when others are added.
fn seed_for(seed: u64, tag: &str, encoding: &Encoding) -> u64 {
    let mut hash = seed ^ 0xCBF2_9CE4_8422_2325;
    for b in tag.bytes().chain([0]).chain(encoding.name().bytes()) {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3);
    }
    hash | 1
}

fn evaluate(samples_per_band: usize, seed: u64) -> Vec<Outcome> {
    let mut outcomes = Vec::new();
    // Tuning aids: MOJISCOPE_EVAL_LANGUAGE=ru evaluates one language (the
    // same samples as in the whole evaluation);
    // MOJISCOPE_EVAL_EXPLAIN=N adds the evidence behind each wrong answer of
    // N bytes or more to the report.
    let only = std::env::var("MOJISCOPE_EVAL_LANGUAGE").ok();
    let explain_from = std::env::var("MOJISCOPE_EVAL_EXPLAIN")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX);
    // MOJISCOPE_EVAL_DUMP=DIR writes each wrong input to DIR.
    let dump = std::env::var_os("MOJISCOPE_EVAL_DUMP").map(std::path::PathBuf::from);
    for text in texts() {
        if only.as_deref().is_some_and(|only| only != text.tag) {
            continue;
        }
        for &encoding in &text.encodings {
            // The messages this encoding can write, each in its modern form
            // or else its legacy one: a real file in the encoding holds no
            // characters the encoding lacks.
            let lines: Vec<String> = text
                .lines
                .iter()
                .enumerate()
                .filter_map(|(index, line)| {
                    let legacy = text.legacy_lines.as_ref().and_then(|l| l.get(index));
                    std::iter::once(line)
                        .chain(legacy)
                        .find(|form| encoding.encode_fatal(form).is_ok())
                        .cloned()
                })
                .collect();
            if lines.is_empty() {
                continue;
            }
            let mut rng = Rng(seed_for(seed, text.tag, encoding));
            for (band, &(_, low, high)) in BANDS.iter().enumerate() {
                for _ in 0..samples_per_band {
                    let target = low + rng.below(high - low + 1);
                    let sample = sample_text(&lines, target, &mut rng);
                    let Some((_, bytes)) = encode_prefix(encoding, &sample, target) else {
                        continue;
                    };
                    if bytes.len() < low {
                        continue;
                    }
                    let detection = detect(&bytes);
                    let guess = detection.best();
                    let truth = encoding.decode_with_bom_handling(&bytes, BomHandling::None);
                    let decoded = guess.decode_with_bom_handling(&bytes, BomHandling::None);
                    let right = guess == encoding || decoded.text == truth.text;
                    let explanation = (!right && bytes.len() >= explain_from)
                        .then(|| explain(&detection, encoding, &truth.text));
                    if let Some(dir) = dump.as_ref().filter(|_| !right) {
                        let name = format!(
                            "{}-{}-{}-as-{}.txt",
                            text.tag,
                            encoding.name(),
                            outcomes.len(),
                            guess.name()
                        );
                        let _ = std::fs::write(dir.join(name), &bytes);
                    }
                    outcomes.push(Outcome {
                        tag: text.tag,
                        encoding,
                        band,
                        guess,
                        right,
                        non_ascii_utf8: encoding == UTF_8 && !bytes.is_ascii(),
                        explanation,
                    });
                }
            }
        }
    }
    outcomes
}

fn accuracy<'a>(outcomes: impl Iterator<Item = &'a Outcome>) -> (usize, usize) {
    outcomes.fold((0, 0), |(right, total), o| {
        (right + usize::from(o.right), total + 1)
    })
}

fn percent((right, total): (usize, usize)) -> String {
    (right * 1000 + total / 2).checked_div(total).map_or_else(
        || "-".to_owned(),
        |per_mille| format!("{}.{}", per_mille / 10, per_mille % 10),
    )
}

/// The report: accuracy per encoding and band, the targets, the confusions.
fn report(outcomes: &[Outcome]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| Encoding | {} | all | inputs |",
        BANDS.map(|(label, _, _)| label).join(" | ")
    );
    let _ = writeln!(out, "|---|{}---|---|", "---|".repeat(BANDS.len()));
    for encoding in ALL.iter().filter(|e| e.is_override_choice()) {
        let of_encoding: Vec<&Outcome> = outcomes
            .iter()
            .filter(|o| o.encoding == *encoding)
            .collect();
        if of_encoding.is_empty() {
            continue;
        }
        let cells: Vec<String> = (0..BANDS.len())
            .map(|band| {
                percent(accuracy(
                    of_encoding.iter().copied().filter(|o| o.band == band),
                ))
            })
            .collect();
        let _ = writeln!(
            out,
            "| {encoding} | {} | {} | {} |",
            cells.join(" | "),
            percent(accuracy(of_encoding.iter().copied())),
            of_encoding.len()
        );
    }
    let cells: Vec<String> = (0..BANDS.len())
        .map(|band| percent(accuracy(outcomes.iter().filter(|o| o.band == band))))
        .collect();
    let _ = writeln!(
        out,
        "| **all** | {} | {} | {} |",
        cells.join(" | "),
        percent(accuracy(outcomes.iter())),
        outcomes.len()
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "Inputs of 1 KB or more: {}% right; of 64 bytes or more: {}%; \
         valid UTF-8 with non-ASCII content: {}% ({} languages, {} inputs).",
        percent(accuracy(outcomes.iter().filter(|o| o.band >= 3))),
        percent(accuracy(outcomes.iter().filter(|o| o.band >= 1))),
        percent(accuracy(outcomes.iter().filter(|o| o.non_ascii_utf8))),
        outcomes
            .iter()
            .map(|o| o.tag)
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        outcomes.len()
    );
    let mut confusions: BTreeMap<(String, &str, &str), usize> = BTreeMap::new();
    for o in outcomes.iter().filter(|o| !o.right) {
        *confusions
            .entry((
                BANDS[o.band].0.to_owned(),
                o.encoding.name(),
                o.guess.name(),
            ))
            .or_default() += 1;
    }
    if !confusions.is_empty() {
        let _ = writeln!(out, "\nWrong answers (band: right → detected ×count):");
        for ((band, truth, guess), n) in &confusions {
            let _ = writeln!(out, "- {band}: {truth} → {guess} ×{n}");
        }
    }
    for o in outcomes {
        if let Some(explanation) = &o.explanation {
            let _ = writeln!(
                out,
                "\n{} in {} detected as {}:\n{explanation}",
                o.tag, o.encoding, o.guess
            );
        }
    }
    let mut by_language: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for o in outcomes {
        let entry = by_language.entry(o.tag).or_default();
        entry.0 += usize::from(o.right);
        entry.1 += 1;
    }
    let _ = writeln!(out, "\nPer language:");
    for (tag, counts) in by_language {
        let _ = write!(out, "{tag} {}%  ", percent(counts));
    }
    let _ = writeln!(out);
    out
}

fn check_targets(outcomes: &[Outcome]) {
    let long = accuracy(outcomes.iter().filter(|o| o.band >= 3));
    let medium = accuracy(outcomes.iter().filter(|o| o.band >= 1));
    let utf8 = accuracy(outcomes.iter().filter(|o| o.non_ascii_utf8));
    let report = report(outcomes);
    assert!(
        long.1 > 0 && medium.1 > 0 && utf8.1 > 0,
        "nothing evaluated"
    );
    assert!(
        long.0 * 100 >= 99 * long.1,
        "below 99% on inputs of 1 KB or more\n{report}"
    );
    assert!(
        medium.0 * 100 >= 95 * medium.1,
        "below 95% on inputs of 64 bytes or more\n{report}"
    );
    assert_eq!(utf8.0, utf8.1, "valid UTF-8 mistaken\n{report}");
}

#[test]
fn detection_meets_its_targets_on_held_out_text() {
    let outcomes = evaluate(2, 0x5EED_0001);
    check_targets(&outcomes);
}

#[test]
#[ignore = "the full evaluation: cargo test -p mojiscope-core --test detect_eval -- --ignored --nocapture"]
fn full_evaluation() {
    let outcomes = evaluate(12, 0x5EED_0002);
    println!("{}", report(&outcomes));
    check_targets(&outcomes);
}
