//! The evaluation of encoding detection on real, labelled files: the
//! development set `detect-dev` that sits beside the repository
//! (`../shared/data/detect-dev` from the repository's root, or the directory
//! named by `MOJISCOPE_DETECT_DEV`). Its files come from other projects (web
//! pages, translations, tutorials, word lists), each with its true encoding
//! and the encodings that decode it to the same text (`MANIFEST.tsv`).
//!
//! Three modes, as `core/DETECTION.md` reports them:
//! - whole files, as they are;
//! - whole files with their own declaration blanked out (the label's bytes
//!   overwritten with spaces, same length), so that the bytes alone decide;
//! - the first 64 bytes of each file.
//!
//! An answer is right when decoding with it (the standard's decode, BOM
//! sniffing included) gives the same text as decoding with the true
//! encoding.
//!
//! A second evaluation takes pieces from inside the files, as a window of
//! a file, a paste or a text field would show them: of 24, 48, 96 and 200
//! bytes, each starting at a line that holds a byte beyond ASCII, three per
//! file and size, spread evenly over such lines (UTF-16 files aside: their
//! lines do not start after a line feed byte).
//!
//! `cargo test --release -p mojiscope-core --test detect_dev -- --ignored --nocapture`
//! prints the tables; `MOJISCOPE_EVAL_EXPLAIN=1` adds the evidence behind
//! every wrong answer. Without the data the test says so loudly and passes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use mojiscope_core::{Detection, Encoding, declared};

/// One labelled file.
struct Sample {
    path: String,
    encoding: &'static Encoding,
    language: String,
    bytes: Vec<u8>,
}

fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("MOJISCOPE_DETECT_DEV").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/detect-dev"),
        PathBuf::from,
    );
    dir.join("MANIFEST.tsv").is_file().then_some(dir)
}

fn samples(dir: &Path) -> Vec<Sample> {
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("a readable manifest");
    let mut lines = manifest.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|&h| h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    };
    let (path, encoding, language) = (column("path"), column("encoding"), column("language"));
    lines
        .filter(|line| !line.is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let bytes = std::fs::read(dir.join(fields[path])).expect("a readable file");
            Sample {
                path: fields[path].to_owned(),
                encoding: Encoding::for_label(fields[encoding].as_bytes())
                    .unwrap_or_else(|| panic!("unknown encoding {}", fields[encoding])),
                language: fields[language].to_owned(),
                bytes,
            }
        })
        .collect()
}

/// The three ways a file is shown to detection.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Mode {
    Whole,
    Blanked,
    First64,
}

impl Mode {
    const ALL: [Mode; 3] = [Mode::Whole, Mode::Blanked, Mode::First64];

    fn name(self) -> &'static str {
        match self {
            Mode::Whole => "whole files",
            Mode::Blanked => "declarations blanked",
            Mode::First64 => "first 64 bytes",
        }
    }

    fn input(self, bytes: &[u8]) -> Vec<u8> {
        match self {
            Mode::Whole => bytes.to_vec(),
            Mode::Blanked => blanked(bytes),
            Mode::First64 => bytes[..bytes.len().min(64)].to_vec(),
        }
    }
}

/// The bytes with every declaration the file makes of itself overwritten
/// with spaces, the same length: as long as one is found, blank it and
/// look again (a later `<meta>` may be found once the first is gone).
fn blanked(bytes: &[u8]) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    for _ in 0..16 {
        let Some(declaration) = declared(&bytes) else {
            break;
        };
        let start = usize::try_from(declaration.byte_offset).expect("an offset in the file");
        // A label read from UTF-16 takes two bytes a character.
        let (width, space): (usize, &[u8]) = match declaration.encoding.name() {
            "UTF-16LE" => (2, b" \0"),
            "UTF-16BE" => (2, b"\0 "),
            _ => (1, b" "),
        };
        let end = start + declaration.label.len() * width;
        if declaration.label.is_empty() || end > bytes.len() {
            break;
        }
        for (offset, byte) in bytes[start..end].iter_mut().enumerate() {
            *byte = space[offset % width];
        }
    }
    bytes
}

struct Outcome {
    mode: Mode,
    path: String,
    language: String,
    encoding: &'static Encoding,
    guess: &'static Encoding,
    right: bool,
    explanation: Option<String>,
}

fn explain(detection: &Detection, encoding: &'static Encoding) -> String {
    let mut out = String::new();
    for note in &detection.notes {
        let _ = writeln!(out, "    note: {note}");
    }
    let right = detection.candidate(encoding);
    for candidate in detection.candidates.iter().take(3).chain(right) {
        let _ = writeln!(
            out,
            "    {} score {:.3} ll {:.1}, {} errors",
            candidate.encoding, candidate.score, candidate.log_likelihood, candidate.errors
        );
        for evidence in &candidate.evidence {
            let _ = writeln!(out, "      {evidence}");
        }
    }
    out
}

fn evaluate(samples: &[Sample]) -> Vec<Outcome> {
    let explain_all = std::env::var_os("MOJISCOPE_EVAL_EXPLAIN").is_some();
    let mut outcomes = Vec::new();
    for mode in Mode::ALL {
        for sample in samples {
            let input = mode.input(&sample.bytes);
            let detection = mojiscope_core::detect(&input);
            let guess = detection.best();
            let right = guess == sample.encoding
                || guess.decode(&input).text == sample.encoding.decode(&input).text;
            outcomes.push(Outcome {
                mode,
                path: sample.path.clone(),
                language: sample.language.clone(),
                encoding: sample.encoding,
                guess,
                right,
                explanation: (!right && explain_all).then(|| explain(&detection, sample.encoding)),
            });
        }
    }
    outcomes
}

fn percent(right: usize, total: usize) -> String {
    (right * 1000 + total / 2).checked_div(total).map_or_else(
        || "-".to_owned(),
        |per_mille| format!("{}.{}", per_mille / 10, per_mille % 10),
    )
}

/// Right and total per key, in each mode.
type Tally = BTreeMap<String, [(usize, usize); 3]>;

fn tally(outcomes: &[Outcome], key: impl Fn(&Outcome) -> String) -> Tally {
    let mut tally = Tally::new();
    for outcome in outcomes {
        let cell = &mut tally.entry(key(outcome)).or_default()[outcome.mode as usize];
        cell.0 += usize::from(outcome.right);
        cell.1 += 1;
    }
    tally
}

fn table(out: &mut String, title: &str, tally: &Tally) {
    let _ = writeln!(
        out,
        "| {title} | files | whole | blanked | first 64 bytes |\n|---|---:|---:|---:|---:|"
    );
    for (key, cells) in tally {
        let _ = writeln!(
            out,
            "| {key} | {} | {} | {} | {} |",
            cells[0].1,
            percent(cells[0].0, cells[0].1),
            percent(cells[1].0, cells[1].1),
            percent(cells[2].0, cells[2].1)
        );
    }
}

fn report(outcomes: &[Outcome]) -> String {
    let mut out = String::new();
    for mode in Mode::ALL {
        let of_mode = outcomes.iter().filter(|o| o.mode == mode);
        let (right, total) = of_mode.fold((0, 0), |(r, t), o| (r + usize::from(o.right), t + 1));
        let _ = writeln!(
            out,
            "{}: {right}/{total} right ({}%)",
            mode.name(),
            percent(right, total)
        );
    }
    let _ = writeln!(out);
    table(
        &mut out,
        "encoding",
        &tally(outcomes, |o| o.encoding.name().to_owned()),
    );
    let _ = writeln!(out);
    table(
        &mut out,
        "language",
        &tally(outcomes, |o| o.language.clone()),
    );
    let _ = writeln!(out, "\nWrong answers:");
    for outcome in outcomes.iter().filter(|o| !o.right) {
        let _ = writeln!(
            out,
            "- {}: {} ({}) detected as {}",
            outcome.mode.name(),
            outcome.path,
            outcome.encoding,
            outcome.guess
        );
        if let Some(explanation) = &outcome.explanation {
            out.push_str(explanation);
        }
    }
    out
}

#[test]
#[ignore = "the evaluation on real files: cargo test --release -p mojiscope-core --test detect_dev -- --ignored --nocapture"]
fn evaluation_on_real_files() {
    let Some(dir) = data_dir() else {
        eprintln!(
            "\n*** SKIPPED: no detect-dev data (../shared/data/detect-dev from the \
             repository's root, or MOJISCOPE_DETECT_DEV) ***\n"
        );
        return;
    };
    let samples = samples(&dir);
    assert!(!samples.is_empty(), "no files in {}", dir.display());
    let outcomes = evaluate(&samples);
    println!("{}", report(&outcomes));
}

/// The sizes of the pieces taken from inside the files.
const PIECE_SIZES: [usize; 4] = [24, 48, 96, 200];

/// How many pieces of each size a file gives.
const PIECES: usize = 3;

/// The pieces of `bytes` at each size: starting at lines that hold a byte
/// beyond ASCII within the piece, spread evenly over them.
fn pieces(bytes: &[u8]) -> Vec<&[u8]> {
    let lines: Vec<usize> = std::iter::once(0).chain(line_starts(bytes)).collect();
    let mut out = Vec::new();
    for size in PIECE_SIZES {
        let starts: Vec<usize> = lines
            .iter()
            .copied()
            .filter(|&start| !bytes[start..(start + size).min(bytes.len())].is_ascii())
            .collect();
        if starts.is_empty() {
            continue;
        }
        let count = PIECES.min(starts.len());
        for k in 0..count {
            let start = starts[(2 * k + 1) * starts.len() / (2 * count)];
            out.push(&bytes[start..(start + size).min(bytes.len())]);
        }
    }
    out
}

/// Where each line after the first starts.
fn line_starts(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    bytes
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .map(|(at, _)| at + 1)
        .filter(move |&start| start < bytes.len())
}

#[test]
#[ignore = "the evaluation on pieces of real files: cargo test --release -p mojiscope-core --test detect_dev -- --ignored --nocapture"]
fn evaluation_on_pieces_of_real_files() {
    let Some(dir) = data_dir() else {
        eprintln!("\n*** SKIPPED: no detect-dev data ***\n");
        return;
    };
    let explain_all = std::env::var_os("MOJISCOPE_EVAL_EXPLAIN").is_some();
    // Right and total, by size and by encoding; and the wrong answers.
    let mut by_size: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
    let mut by_encoding: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut wrong = String::new();
    for sample in samples(&dir) {
        if sample.encoding.name().starts_with("UTF-16") {
            continue;
        }
        for piece in pieces(&sample.bytes) {
            let detection = mojiscope_core::detect(piece);
            let guess = detection.best();
            let right = guess == sample.encoding
                || guess.decode(piece).text == sample.encoding.decode(piece).text;
            for cell in [
                by_size.entry(piece.len()).or_default(),
                by_encoding.entry(sample.encoding.name()).or_default(),
            ] {
                cell.0 += usize::from(right);
                cell.1 += 1;
            }
            if !right {
                let _ = writeln!(
                    wrong,
                    "- {} bytes of {} ({}) detected as {guess}",
                    piece.len(),
                    sample.path,
                    sample.encoding
                );
                if explain_all {
                    wrong.push_str(&explain(&detection, sample.encoding));
                }
            }
        }
    }
    let (right, total) = by_encoding
        .values()
        .fold((0, 0), |(r, t), &(cr, ct)| (r + cr, t + ct));
    println!(
        "pieces from inside the files: {right}/{total} right ({}%)",
        percent(right, total)
    );
    let sizes: Vec<String> = by_size
        .iter()
        .filter(|(size, _)| PIECE_SIZES.contains(size))
        .map(|(size, &(r, t))| format!("{size} bytes {}% of {t}", percent(r, t)))
        .collect();
    println!(
        "by size (pieces cut short by a file's end aside): {}",
        sizes.join(", ")
    );
    let encodings: Vec<String> = by_encoding
        .iter()
        .map(|(name, &(r, t))| format!("{name} {}% of {t}", percent(r, t)))
        .collect();
    println!("by encoding: {}", encodings.join(", "));
    println!("\nWrong answers:\n{wrong}");
}
