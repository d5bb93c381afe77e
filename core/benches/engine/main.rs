//! Decode and encode speed of mojiscope-core against `encoding_rs`, measured in
//! the same process on the same inputs, with the ratio printed per row, and
//! the speed of the traced decode (with spans) against our plain decode.
//!
//! ```text
//! cargo bench -p mojiscope-core --bench engine                 # every row
//! cargo bench -p mojiscope-core --bench engine -- --quick      # fewer rounds
//! cargo bench -p mojiscope-core --bench engine -- Shift_JIS "UTF-8 | ASCII"
//! cargo bench -p mojiscope-core --bench engine -- --write-inputs DIR
//! cargo bench -p mojiscope-core --bench engine -- --list traced
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
//! With `--list` nothing is run: the labels of the selected rows are
//! printed one a line (whether or not the encoding has such an input), for
//! `tools/bench-callgrind.sh --each`.
//!
//! With `--write-inputs DIR` nothing is measured: the real inputs are written
//! to `DIR` for the command-level benchmark (`tools/bench-callgrind.sh
//! --command`), for each encoding `NAME.real` and `NAME.real-invalid` (the
//! bytes to decode) and `NAME.txt` (the text of `NAME.real` as UTF-8, to
//! encode).
//!
//! A hand-written harness rather than criterion or divan: the figure that
//! matters is the ratio ours / `encoding_rs`, and on a noisy shared machine it
//! only holds when the two are measured alternately, round by round, and the
//! medians compared; neither framework interleaves two functions that way.

#![expect(clippy::print_stdout, reason = "a benchmark prints its table")]
#![expect(clippy::print_stderr, reason = "a benchmark says why it cannot run")]
#![expect(clippy::cast_precision_loss, reason = "byte counts become MB/s")]

mod inputs;
mod real;
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
    list: bool,
    write_inputs: Option<std::path::PathBuf>,
    filters: Vec<String>,
}

impl Options {
    fn from_args() -> Self {
        let args: Vec<String> = std::env::args()
            .skip(1)
            .filter(|arg| arg != "--bench")
            .collect();
        let quick = args.iter().any(|arg| arg == "--quick");
        let write_inputs = args
            .iter()
            .position(|arg| arg == "--write-inputs")
            .and_then(|position| args.get(position + 1));
        Self {
            rounds: if quick { 3 } else { 9 },
            callgrind: args.iter().any(|arg| arg == "--callgrind"),
            list: args.iter().any(|arg| arg == "--list"),
            write_inputs: write_inputs.map(Into::into),
            filters: args
                .iter()
                .filter(|&arg| !arg.starts_with("--") && Some(arg) != write_inputs)
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
    if let Some(dir) = &options.write_inputs {
        write_inputs(dir);
        return;
    }
    if !options.callgrind && !options.list {
        println!("| encoding | input | operation | ours MB/s | baseline MB/s | ratio |");
        println!("|---|---|---|---:|---:|---:|");
    }
    let mut rows = Vec::new();
    for &encoding in &ALL {
        for kind in InputKind::ALL {
            let operations: Vec<Operation> = Operation::ALL
                .into_iter()
                .filter(|&operation| {
                    let encodes = encoding.has_encoder() && !kind.has_errors();
                    (operation != Operation::Encode || encodes)
                        && options.wants(&label(encoding, kind, operation))
                })
                .collect();
            if operations.is_empty() {
                continue;
            }
            if options.list {
                for operation in operations {
                    println!("{}", label(encoding, kind, operation));
                }
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
    if !options.callgrind && !options.list {
        print_targets(&rows);
    }
}

/// Writes the real inputs of every encoding to `dir` (see the crate docs).
fn write_inputs(dir: &std::path::Path) {
    if real::files().is_empty() {
        eprintln!(
            "no real text: the development set is not at {}",
            real::data_dir().display()
        );
        std::process::exit(2);
    }
    std::fs::create_dir_all(dir).expect("the inputs' directory can be made");
    for &encoding in &ALL {
        for (kind, extension) in [
            (InputKind::Real, "real"),
            (InputKind::RealInvalid, "real-invalid"),
        ] {
            let Some(input) = inputs::input(encoding, kind) else {
                continue;
            };
            let path = dir.join(format!("{}.{extension}", encoding.name()));
            std::fs::write(&path, &input.bytes).expect("an input can be written");
            if kind == InputKind::Real {
                let path = dir.join(format!("{}.txt", encoding.name()));
                std::fs::write(&path, &input.text).expect("an input can be written");
            }
        }
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

/// Which rows a decode target is about.
type RowFilter = dyn Fn(&Row) -> bool;

/// Which encodings an encode target is about.
type Member = dyn Fn(&Encoding) -> bool;

/// Prints the issue's targets with the figures of this run.
fn print_targets(rows: &[Row]) {
    let of = |operation: Operation| rows.iter().filter(move |row| row.operation == operation);
    println!("\nTargets (ratio ours / encoding_rs, this run):\n");

    let decode: Vec<&Row> = of(Operation::Decode).collect();
    // Text in the encodings' own scripts, with and without errors, apart
    // from pure ASCII, where every decoder copies bytes.
    let native: Vec<&Row> = decode
        .iter()
        .copied()
        .filter(|row| row.kind.is_native())
        .collect();
    let groups: [(&str, &RowFilter); 3] = [
        (
            "native text (generated and real, with and without errors)",
            &|_| true,
        ),
        ("real text (with and without errors)", &|row| {
            matches!(row.kind, InputKind::Real | InputKind::RealInvalid)
        }),
        ("generated text (with and without errors)", &|row| {
            matches!(row.kind, InputKind::Realistic | InputKind::Invalid)
        }),
    ];
    for (name, member) in groups {
        let rows: Vec<&Row> = native.iter().copied().filter(|row| member(row)).collect();
        if rows.is_empty() {
            continue;
        }
        let mean = geometric_mean(rows.iter().map(|row| row.ratio()));
        println!(
            "- plain decode of {name}, geometric mean of {} rows: {mean:.2} (at least 1.0: {})",
            rows.len(),
            verdict(mean >= 1.0)
        );
        if let Some((row, text)) = lowest(rows) {
            println!(
                "- plain decode of {name}, lowest row: {text} (at least 0.9: {})",
                verdict(row.ratio() >= 0.9)
            );
        }
    }
    let ascii: Vec<&Row> = decode
        .iter()
        .copied()
        .filter(|row| !row.kind.is_native())
        .collect();
    if !ascii.is_empty() {
        let mean = geometric_mean(ascii.iter().map(|row| row.ratio()));
        println!(
            "- plain decode of ASCII, geometric mean of {} rows: {mean:.2}",
            ascii.len()
        );
        if let Some((_, text)) = lowest(ascii) {
            println!("- plain decode of ASCII, lowest row: {text}");
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
        let rows = encode
            .iter()
            .copied()
            .filter(|row| member(row.encoding) && (target <= 1.0 || row.kind.is_native()));
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
