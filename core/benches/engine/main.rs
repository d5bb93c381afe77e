//! Decode and encode speed of mojiscope-core against `encoding_rs`, measured in
//! the same process on the same inputs, with the ratio printed per row, and
//! the speed of the traced decode (with spans) against our plain decode.
//!
//! ```text
//! cargo bench -p mojiscope-core --bench engine                 # every row
//! cargo bench -p mojiscope-core --bench engine -- --quick      # fewer rounds
//! cargo bench -p mojiscope-core --bench engine -- Shift_JIS "UTF-8 | ASCII"
//! ```
//!
//! Arguments that do not start with `--` select the rows whose label
//! (`encoding | input | operation`) contains one of them. The table is
//! Markdown; below it, the issue's targets with the figures that decide them.
//!
//! With `--callgrind` nothing is timed: each selected row runs once on each
//! side, inside the functions `measure_ours` and `measure_baseline`, so that
//! `valgrind --tool=callgrind` counts the instructions of each side
//! (`tools/bench-callgrind.sh` does this and prints the ratio), a figure that
//! does not move with the load of a shared machine.
//!
//! A hand-written harness rather than criterion or divan: the figure that
//! matters is the ratio ours / `encoding_rs`, and on a noisy shared machine it
//! only holds when the two are measured alternately, round by round, and the
//! medians compared; neither framework interleaves two functions that way.

#![expect(clippy::print_stdout, reason = "a benchmark prints its table")]
#![expect(clippy::cast_precision_loss, reason = "byte counts become MB/s")]

mod inputs;
mod samples;

use std::hint::black_box;
use std::time::{Duration, Instant};

use mojiscope_core::{ALL, BomHandling, EncodeErrorMode, Encoder, EncoderResult, Encoding};

use crate::inputs::{Input, InputKind};

/// What a row measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Operation {
    /// Our plain decode (replacement mode, to a `String`) against
    /// `encoding_rs`'s `decode_to_string`.
    Decode,
    /// Our traced decode (text and spans) against our plain decode.
    Traced,
    /// Our encoder (html mode) against `encoding_rs`'s `encode_from_utf8_to_vec`.
    Encode,
}

impl Operation {
    const ALL: [Operation; 3] = [Operation::Decode, Operation::Traced, Operation::Encode];

    fn name(self) -> &'static str {
        match self {
            Operation::Decode => "decode",
            Operation::Traced => "traced decode (vs our plain decode)",
            Operation::Encode => "encode",
        }
    }
}

/// One measured row.
struct Row {
    encoding: &'static Encoding,
    kind: InputKind,
    operation: Operation,
    /// Megabytes of input (bytes to decode, or UTF-8 text to encode).
    megabytes: f64,
    /// Median seconds per call, ours and the baseline.
    ours: f64,
    baseline: f64,
}

impl Row {
    /// Baseline time over ours: above 1 means we are faster.
    fn ratio(&self) -> f64 {
        self.baseline / self.ours
    }
}

struct Options {
    rounds: usize,
    callgrind: bool,
    filters: Vec<String>,
}

impl Options {
    fn from_args() -> Self {
        let args: Vec<String> = std::env::args()
            .skip(1)
            .filter(|arg| arg != "--bench")
            .collect();
        let quick = args.iter().any(|arg| arg == "--quick");
        Self {
            rounds: if quick { 3 } else { 9 },
            callgrind: args.iter().any(|arg| arg == "--callgrind"),
            filters: args
                .iter()
                .filter(|arg| !arg.starts_with("--"))
                .cloned()
                .collect(),
        }
    }

    fn wants(&self, label: &str) -> bool {
        self.filters.is_empty() || self.filters.iter().any(|f| label.contains(f.as_str()))
    }
}

fn label(encoding: &Encoding, kind: InputKind, operation: Operation) -> String {
    format!(
        "{} | {} | {}",
        encoding.name(),
        kind.name(),
        operation.name()
    )
}

fn main() {
    let options = Options::from_args();
    if !options.callgrind {
        println!("| encoding | input | operation | ours MB/s | baseline MB/s | ratio |");
        println!("|---|---|---|---:|---:|---:|");
    }
    let mut rows = Vec::new();
    for &encoding in &ALL {
        for kind in InputKind::ALL {
            let operations: Vec<Operation> = Operation::ALL
                .into_iter()
                .filter(|&operation| {
                    let encodes = encoding.has_encoder() && kind != InputKind::Invalid;
                    (operation != Operation::Encode || encodes)
                        && options.wants(&label(encoding, kind, operation))
                })
                .collect();
            if operations.is_empty() {
                continue;
            }
            let Some(input) = inputs::input(encoding, kind) else {
                continue;
            };
            for operation in operations {
                if options.callgrind {
                    run_once(encoding, &input, operation);
                    continue;
                }
                let row = measure(encoding, kind, operation, &input, options.rounds);
                println!(
                    "| {} | {:.0} | {:.0} | {:.2} |",
                    label(encoding, kind, operation),
                    row.megabytes / row.ours,
                    row.megabytes / row.baseline,
                    row.ratio()
                );
                rows.push(row);
            }
        }
    }
    if !options.callgrind {
        print_targets(&rows);
    }
}

fn decode_ours(encoding: &'static Encoding, bytes: &[u8]) -> usize {
    encoding
        .decode_with_bom_handling(black_box(bytes), BomHandling::None)
        .text
        .len()
}

fn decode_traced(encoding: &'static Encoding, bytes: &[u8]) -> usize {
    let (trace, _) = encoding.decode_traced(black_box(bytes), BomHandling::None);
    trace.text.len() + trace.len() as usize
}

fn decode_baseline(theirs: &'static encoding_rs::Encoding, bytes: &[u8]) -> usize {
    let mut decoder = theirs.new_decoder_without_bom_handling();
    let mut text = String::with_capacity(decoder.max_utf8_buffer_length(bytes.len()).unwrap_or(0));
    let _ = decoder.decode_to_string(black_box(bytes), &mut text, true);
    text.len()
}

fn encode_ours(encoding: &'static Encoding, text: &str) -> usize {
    let mut encoder = Encoder::new(encoding, EncodeErrorMode::Html);
    let mut out = Vec::with_capacity(text.len());
    let mut rest = black_box(text);
    loop {
        let (result, read) = encoder.encode(rest, true, &mut out);
        rest = &rest[read..];
        if result == EncoderResult::InputEmpty {
            break;
        }
    }
    out.len()
}

fn encode_baseline(theirs: &'static encoding_rs::Encoding, text: &str) -> usize {
    let mut encoder = theirs.new_encoder();
    let mut out = Vec::with_capacity(text.len());
    let _ = encoder.encode_from_utf8_to_vec(black_box(text), &mut out, true);
    out.len()
}

/// One side of a row: a call that returns a size, to be kept alive.
type Side<'a> = Box<dyn Fn() -> usize + 'a>;

/// The two sides of a row: ours, and what it is compared with.
fn sides<'a>(
    encoding: &'static Encoding,
    input: &'a Input,
    operation: Operation,
) -> (Side<'a>, Side<'a>) {
    let theirs = inputs::baseline(encoding);
    match operation {
        Operation::Decode => (
            Box::new(move || decode_ours(encoding, &input.bytes)),
            Box::new(move || decode_baseline(theirs, &input.bytes)),
        ),
        Operation::Traced => (
            Box::new(move || decode_traced(encoding, &input.bytes)),
            Box::new(move || decode_ours(encoding, &input.bytes)),
        ),
        Operation::Encode => (
            Box::new(move || encode_ours(encoding, &input.text)),
            Box::new(move || encode_baseline(theirs, &input.text)),
        ),
    }
}

fn measure(
    encoding: &'static Encoding,
    kind: InputKind,
    operation: Operation,
    input: &Input,
    rounds: usize,
) -> Row {
    let (ours, baseline) = sides(encoding, input, operation);
    let (ours, baseline) = compare(rounds, &*ours, &*baseline);
    let len = match operation {
        Operation::Decode | Operation::Traced => input.bytes.len(),
        Operation::Encode => input.text.len(),
    };
    Row {
        encoding,
        kind,
        operation,
        megabytes: len as f64 / 1e6,
        ours,
        baseline,
    }
}

/// Runs each side of a row once, for an instruction count.
fn run_once(encoding: &'static Encoding, input: &Input, operation: Operation) {
    let (ours, baseline) = sides(encoding, input, operation);
    black_box(measure_ours(&*ours));
    black_box(measure_baseline(&*baseline));
}

#[inline(never)]
fn measure_ours(f: &dyn Fn() -> usize) -> usize {
    f()
}

/// Not the same body as `measure_ours`, or the two would be merged into one
/// function and their counts with them.
#[inline(never)]
fn measure_baseline(f: &dyn Fn() -> usize) -> usize {
    black_box(f())
}

/// Runs `a` and `b` alternately for `rounds` rounds, each round long enough
/// to be timed, and returns each one's median seconds per call.
fn compare(rounds: usize, a: &dyn Fn() -> usize, b: &dyn Fn() -> usize) -> (f64, f64) {
    // Warm up and size the batch so one round takes about 20 ms.
    let once = time(a, 1).max(Duration::from_micros(1));
    time(b, 1);
    let calls = (Duration::from_millis(20).as_nanos() / once.as_nanos().max(1)).max(1);
    let batch = u32::try_from(calls).unwrap_or(u32::MAX);
    let mut times_a = Vec::with_capacity(rounds);
    let mut times_b = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        times_a.push(time(a, batch).as_secs_f64() / f64::from(batch));
        times_b.push(time(b, batch).as_secs_f64() / f64::from(batch));
    }
    (median(&mut times_a), median(&mut times_b))
}

fn time(f: &dyn Fn() -> usize, calls: u32) -> Duration {
    let start = Instant::now();
    for _ in 0..calls {
        black_box(f());
    }
    start.elapsed()
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn geometric_mean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, count) = values
        .into_iter()
        .fold((0.0, 0u32), |(sum, count), v| (sum + v.ln(), count + 1));
    (sum / f64::from(count)).exp()
}

/// The row with the lowest ratio among `rows`, with a description.
fn lowest<'a>(rows: impl IntoIterator<Item = &'a Row>) -> Option<(&'a Row, String)> {
    rows.into_iter()
        .min_by(|a, b| a.ratio().total_cmp(&b.ratio()))
        .map(|row| {
            (
                row,
                format!(
                    "{:.2} ({}, {})",
                    row.ratio(),
                    row.encoding.name(),
                    row.kind.name()
                ),
            )
        })
}

fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "MISSED" }
}

/// Which encodings an encode target is about.
type Member = dyn Fn(&Encoding) -> bool;

/// Prints the issue's targets with the figures of this run.
fn print_targets(rows: &[Row]) {
    let of = |operation: Operation| rows.iter().filter(move |row| row.operation == operation);
    println!("\nTargets (ratio ours / encoding_rs, this run):\n");

    let decode: Vec<&Row> = of(Operation::Decode).collect();
    if !decode.is_empty() {
        let mean = geometric_mean(decode.iter().map(|row| row.ratio()));
        println!(
            "- plain decode, geometric mean of all {} rows: {mean:.2} (at least 1.0: {})",
            decode.len(),
            verdict(mean >= 1.0)
        );
        let mut per_encoding: Vec<(&str, f64)> = ALL
            .iter()
            .filter_map(|&encoding| {
                let ratios: Vec<f64> = decode
                    .iter()
                    .filter(|row| row.encoding == encoding)
                    .map(|row| row.ratio())
                    .collect();
                (!ratios.is_empty()).then(|| (encoding.name(), geometric_mean(ratios)))
            })
            .collect();
        per_encoding.sort_by(|a, b| a.1.total_cmp(&b.1));
        if let Some(&(name, ratio)) = per_encoding.first() {
            println!(
                "- plain decode, lowest encoding (geometric mean of its rows): {ratio:.2} ({name}) (at least 0.7: {})",
                verdict(ratio >= 0.7)
            );
        }
        if let Some((row, text)) = lowest(decode.iter().copied()) {
            println!(
                "- plain decode, lowest single row: {text} (at least 0.7: {})",
                verdict(row.ratio() >= 0.7)
            );
        }
        let utf8: Vec<&Row> = decode
            .iter()
            .copied()
            .filter(|row| row.encoding.name() == "UTF-8" && row.kind != InputKind::Invalid)
            .collect();
        if let Some((row, text)) = lowest(utf8) {
            println!(
                "- UTF-8 decode of valid text, lowest: {text} (at least 0.9: {})",
                verdict(row.ratio() >= 0.9)
            );
        }
    }

    let encode: Vec<&Row> = of(Operation::Encode).collect();
    let groups: [(&str, &Member, f64); 3] = [
        ("single-byte encodings", &|e| e.is_single_byte(), 1.0),
        (
            "GBK, gb18030, Big5, Shift_JIS, EUC-JP",
            &|e| {
                matches!(
                    e.name(),
                    "GBK" | "gb18030" | "Big5" | "Shift_JIS" | "EUC-JP"
                )
            },
            5.0,
        ),
        ("EUC-KR", &|e| e.name() == "EUC-KR", 2.0),
    ];
    for (name, member, target) in groups {
        // The multi-byte targets are about their native text, where
        // encoding_rs searches its tables; ASCII is a copy on both sides.
        let rows = encode.iter().copied().filter(|row| {
            member(row.encoding) && (target <= 1.0 || row.kind == InputKind::Realistic)
        });
        if let Some((row, text)) = lowest(rows) {
            println!(
                "- encode, {name}, lowest: {text} (at least {target:.0}: {})",
                verdict(row.ratio() >= target)
            );
        }
    }
    if let Some((_, text)) = lowest(encode.iter().copied()) {
        println!("- encode, lowest of all rows: {text}");
    }

    if let Some((row, text)) = lowest(of(Operation::Traced)) {
        println!(
            "- traced decode against our plain decode, lowest: {text} (at least 0.3: {})",
            verdict(row.ratio() >= 0.3)
        );
    }
}
