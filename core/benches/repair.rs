//! How long repairing a 10 MB file takes.
//!
//! Run with `cargo bench -p mojiscope-core --bench repair [-- NAME...]`.
//! Each input is about 10 MB of text built from the sentences of the repair
//! test set: correct text in 25 languages, the same text entirely damaged
//! (UTF-8 read as windows-1252), the same again with a number on every word
//! so that no word repeats, and a file where one line in four is damaged.
//! Each is repaired three times; the table gives the best time. The engine's
//! repair runs on one thread (the app splits long texts across threads: see
//! `repair_file_speed` in the app's tests).

#![expect(clippy::print_stdout, reason = "a benchmark prints its table")]
#![expect(clippy::cast_precision_loss, reason = "byte counts become MB/s")]

use std::hint::black_box;
use std::time::{Duration, Instant};

use mojiscope_core::repair;

const SENTENCES: &str = include_str!("../tests/repair/data/sentences.tsv");
const TARGET_SIZE: usize = 10_000_000;

fn sentences() -> Vec<&'static str> {
    SENTENCES
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| line.split_once('\t').map(|(_, text)| text))
        .collect()
}

/// `text` read as windows-1252: each UTF-8 byte becomes one character.
fn as_windows_1252(text: &str) -> String {
    mojiscope_core::WINDOWS_1252
        .decode_with_bom_handling(text.as_bytes(), mojiscope_core::BomHandling::None)
        .text
}

/// `sentence` with each word made unlike any other word of the file by a
/// number (which counts `line` and the word's place), as in a list of
/// names or product codes, where a repair can reuse nothing it worked out.
fn distinct_words(sentence: &str, line: usize) -> String {
    let words: Vec<String> = sentence
        .split(' ')
        .enumerate()
        .map(|(place, word)| format!("{word}{}", line * 64 + place))
        .collect();
    words.join(" ")
}

/// About [`TARGET_SIZE`] bytes of lines, the `n`th made by `line(n)`.
fn build(line: impl Fn(usize) -> String) -> String {
    let mut text = String::with_capacity(TARGET_SIZE + 1000);
    let mut n = 0;
    while text.len() < TARGET_SIZE {
        text.push_str(&line(n));
        text.push('\n');
        n += 1;
    }
    text
}

fn time(text: &str) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut changes = 0;
    for _ in 0..3 {
        let start = Instant::now();
        let repair = repair::repair(black_box(text));
        let elapsed = start.elapsed();
        changes = repair.changes.len();
        best = best.min(elapsed);
    }
    (best, changes)
}

fn main() {
    let sentences = sentences();
    let pick = |n: usize| sentences[n * 7 % sentences.len()];
    let inputs = [
        ("correct text, 25 languages", build(|n| pick(n).to_owned())),
        (
            "all damaged (UTF-8 read as windows-1252)",
            build(|n| as_windows_1252(pick(n))),
        ),
        (
            "all damaged, every word distinct",
            build(|n| as_windows_1252(&distinct_words(pick(n), n))),
        ),
        (
            "one line in four damaged",
            build(|n| {
                if n % 4 == 0 {
                    as_windows_1252(pick(n))
                } else {
                    pick(n).to_owned()
                }
            }),
        ),
    ];
    // `cargo bench -p mojiscope-core --bench repair -- damaged` times only
    // the inputs whose name holds one of the words given.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with("--"))
        .collect();
    println!("| input | size | time | MB/s | changes |");
    println!("|---|---:|---:|---:|---:|");
    for (name, text) in &inputs {
        if !filters.is_empty() && !filters.iter().any(|filter| name.contains(filter.as_str())) {
            continue;
        }
        let (elapsed, changes) = time(text);
        let megabytes = text.len() as f64 / 1e6;
        println!(
            "| {name} | {megabytes:.1} MB | {:.3} s | {:.1} | {changes} |",
            elapsed.as_secs_f64(),
            megabytes / elapsed.as_secs_f64()
        );
    }
}
