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
//!
//! Then hostile input, repaired once each, with the time and whether it
//! was declined as not text: 50 MB of random bytes read as windows-1250 and
//! as UTF-8, 1 GB of text without a line feed, 100 MB of ESC and 30 MB of
//! 0xFF read as windows-1252 (one "word"). Name `hostile` to run only these,
//! or any other word of an input's name.

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

/// `len` bytes from a small deterministic generator (xorshift).
fn random_bytes(len: usize) -> Vec<u8> {
    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

/// The hostile inputs, each built when it is timed (they are large).
fn hostile(sentences: &[&str], name: &str) -> String {
    match name {
        "hostile: 50 MB of random bytes read as windows-1250" => {
            mojiscope_core::WINDOWS_1250
                .decode(&random_bytes(50_000_000))
                .text
        }
        "hostile: 50 MB of random bytes read as UTF-8" => {
            mojiscope_core::UTF_8.decode(&random_bytes(50_000_000)).text
        }
        "hostile: 1 GB without a line feed" => {
            let line = sentences.join(" ");
            line.repeat(1_000_000_000 / line.len())
        }
        "hostile: 100 MB of ESC" => "\x1b".repeat(100_000_000),
        _ => as_windows_1252_bytes(&vec![0xFF; 30_000_000]),
    }
}

/// Bytes read as windows-1252.
fn as_windows_1252_bytes(bytes: &[u8]) -> String {
    mojiscope_core::WINDOWS_1252
        .decode_with_bom_handling(bytes, mojiscope_core::BomHandling::None)
        .text
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
    let wanted = |name: &str| {
        filters.is_empty() || filters.iter().any(|filter| name.contains(filter.as_str()))
    };
    println!("| input | size | time | MB/s | changes |");
    println!("|---|---:|---:|---:|---:|");
    for (name, text) in &inputs {
        if !wanted(name) {
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
    println!("\n| hostile input | size | time | declined |");
    println!("|---|---:|---:|---|");
    for name in [
        "hostile: 50 MB of random bytes read as windows-1250",
        "hostile: 50 MB of random bytes read as UTF-8",
        "hostile: 1 GB without a line feed",
        "hostile: 100 MB of ESC",
        "hostile: 30 MB of 0xFF read as windows-1252",
    ] {
        if !wanted(name) {
            continue;
        }
        let text = hostile(&sentences, name);
        let start = Instant::now();
        let found = repair::repair(black_box(&text));
        let elapsed = start.elapsed();
        println!(
            "| {name} | {:.1} MB | {:.3} s | {} |",
            text.len() as f64 / 1e6,
            elapsed.as_secs_f64(),
            found.declined.map_or_else(
                || format!("no ({} changes)", found.changes.len()),
                |reason| reason.to_string()
            )
        );
    }
}
