//! Decode and encode speed of mojiscope-core against `encoding_rs`, measured in
//! the same process on the same inputs, with the ratio printed per row.
//!
//! Run with `cargo bench -p mojiscope-core --bench engine` (add `-- --quick`
//! for a short run, or a substring to select rows, e.g. `-- Shift_JIS`).
//!
//! A hand-written harness rather than criterion or divan: the figure that
//! matters is the ratio ours / `encoding_rs`, and on a noisy shared machine it
//! only holds when the two are measured alternately, round by round, and the
//! medians compared; neither framework interleaves two functions that way.

#![expect(clippy::print_stdout, reason = "a benchmark prints its table")]
#![expect(clippy::cast_precision_loss, reason = "byte counts become MB/s")]

mod samples;

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

use mojiscope_core::{ALL, BomHandling, EncodeErrorMode, Encoder, Encoding};

/// Bytes of text each input aims at.
const INPUT_SIZE: usize = 512 * 1024;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| arg != "--bench")
        .collect();
    let quick = args.iter().any(|arg| arg == "--quick");
    let filter: Vec<&String> = args.iter().filter(|arg| !arg.starts_with("--")).collect();
    let rounds = if quick { 3 } else { 9 };
    let wanted = |row: &str| filter.is_empty() || filter.iter().any(|f| row.contains(f.as_str()));

    println!("| encoding | input | operation | ours MB/s | encoding_rs MB/s | ratio |");
    println!("|---|---|---|---:|---:|---:|");
    let mut decode_ratios = Vec::new();
    let mut encode_ratios = Vec::new();
    for &encoding in &ALL {
        let theirs = encoding_rs::Encoding::for_label(encoding.name().as_bytes())
            .expect("encoding_rs knows every encoding");
        for kind in InputKind::ALL {
            let Some(bytes) = input_bytes(encoding, kind) else {
                continue;
            };
            let row = format!("{} | {} | decode", encoding.name(), kind.name());
            if wanted(&row) {
                let ours = || {
                    encoding
                        .decode_with_bom_handling(black_box(&bytes), BomHandling::None)
                        .text
                        .len()
                };
                let rs = || {
                    let mut decoder = theirs.new_decoder_without_bom_handling();
                    let mut text = String::with_capacity(
                        decoder.max_utf8_buffer_length(bytes.len()).unwrap_or(0),
                    );
                    let _ = decoder.decode_to_string(black_box(&bytes), &mut text, true);
                    text.len()
                };
                let (a, b) = compare(rounds, ours, rs);
                decode_ratios.push(b / a);
                print_row(&row, bytes.len(), a, b);
            }
            let row = format!(
                "{} | {} | traced decode (vs our plain decode)",
                encoding.name(),
                kind.name()
            );
            if wanted(&row) && kind != InputKind::Invalid {
                let traced = || {
                    encoding
                        .decode_traced(black_box(&bytes), BomHandling::None)
                        .0
                        .len() as usize
                };
                let plain = || {
                    encoding
                        .decode_with_bom_handling(black_box(&bytes), BomHandling::None)
                        .text
                        .len()
                };
                let (a, b) = compare(rounds, traced, plain);
                print_row(&row, bytes.len(), a, b);
            }
            if !encoding.has_encoder() || kind == InputKind::Invalid {
                continue;
            }
            let row = format!("{} | {} | encode", encoding.name(), kind.name());
            if wanted(&row) {
                let ratio = bench_encode(encoding, theirs, &bytes, rounds, &row);
                encode_ratios.push(ratio);
            }
        }
    }
    if !decode_ratios.is_empty() {
        println!(
            "\nplain decode, geometric mean of ratios: {:.2}",
            geometric_mean(decode_ratios.iter().copied())
        );
    }
    if !encode_ratios.is_empty() {
        println!(
            "encode, geometric mean of ratios: {:.2}",
            geometric_mean(encode_ratios.iter().copied())
        );
    }
}

/// Times our encoder against `encoding_rs`'s on the text `bytes` decode to,
/// prints the row and returns the ratio.
fn bench_encode(
    encoding: &'static Encoding,
    theirs: &'static encoding_rs::Encoding,
    bytes: &[u8],
    rounds: usize,
    row: &str,
) -> f64 {
    let text = theirs.decode_without_bom_handling(bytes).0.into_owned();
    let ours = || {
        let mut encoder = Encoder::new(encoding, EncodeErrorMode::Html);
        let mut out = Vec::with_capacity(text.len());
        let mut rest = black_box(text.as_str());
        loop {
            let (result, read) = encoder.encode(rest, true, &mut out);
            rest = &rest[read..];
            if result == mojiscope_core::EncoderResult::InputEmpty {
                break;
            }
        }
        out.len()
    };
    let rs = || {
        let mut encoder = theirs.new_encoder();
        let mut out = Vec::with_capacity(text.len());
        let _ = encoder.encode_from_utf8_to_vec(black_box(&text), &mut out, true);
        out.len()
    };
    let (a, b) = compare(rounds, ours, rs);
    print_row(row, text.len(), a, b);
    b / a
}

/// Runs `a` and `b` alternately for `rounds` rounds, each round long enough
/// to be timed, and returns each one's median seconds per call.
fn compare(
    rounds: usize,
    mut a: impl FnMut() -> usize,
    mut b: impl FnMut() -> usize,
) -> (f64, f64) {
    // Warm up and size the batch so one round takes about 20 ms.
    let once = time(&mut a, 1).max(Duration::from_micros(1));
    let calls = (Duration::from_millis(20).as_nanos() / once.as_nanos().max(1)).max(1);
    let batch = u32::try_from(calls).unwrap_or(u32::MAX);
    let mut times_a = Vec::with_capacity(rounds);
    let mut times_b = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        times_a.push(time(&mut a, batch).as_secs_f64() / f64::from(batch));
        times_b.push(time(&mut b, batch).as_secs_f64() / f64::from(batch));
    }
    (median(&mut times_a), median(&mut times_b))
}

fn time(f: &mut impl FnMut() -> usize, calls: u32) -> Duration {
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

fn geometric_mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, count) = values.fold((0.0, 0u32), |(sum, count), v| (sum + v.ln(), count + 1));
    (sum / f64::from(count)).exp()
}

fn print_row(row: &str, len: usize, seconds_a: f64, seconds_b: f64) {
    let mb = len as f64 / 1e6;
    println!(
        "| {row} | {:.0} | {:.0} | {:.2} |",
        mb / seconds_a,
        mb / seconds_b,
        seconds_b / seconds_a
    );
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum InputKind {
    /// Native text in markup with digits and punctuation.
    Realistic,
    /// Markup and English only.
    Ascii,
    /// Realistic, with about 1% of the bytes replaced by bytes that are errors.
    Invalid,
}

impl InputKind {
    const ALL: [InputKind; 3] = [InputKind::Realistic, InputKind::Ascii, InputKind::Invalid];

    fn name(self) -> &'static str {
        match self {
            InputKind::Realistic => "realistic",
            InputKind::Ascii => "ASCII",
            InputKind::Invalid => "1% invalid",
        }
    }
}

/// The languages whose text an encoding is used for.
fn languages(encoding: &Encoding) -> &'static [&'static str] {
    match encoding.name() {
        "UTF-8" | "UTF-16BE" | "UTF-16LE" => &[
            "English",
            "French",
            "Russian",
            "Greek",
            "Chinese (simplified)",
            "Japanese",
            "Korean",
            "Arabic",
            "Thai",
        ],
        "IBM866" | "ISO-8859-5" | "KOI8-R" | "windows-1251" | "x-mac-cyrillic" => &["Russian"],
        "KOI8-U" => &["Ukrainian"],
        "ISO-8859-2" | "windows-1250" => &["Polish", "Czech"],
        "ISO-8859-3" => &["Maltese"],
        "ISO-8859-4" | "ISO-8859-13" | "windows-1257" => &["Lithuanian", "Latvian", "Estonian"],
        "ISO-8859-6" | "windows-1256" => &["Arabic"],
        "ISO-8859-7" | "windows-1253" => &["Greek"],
        "ISO-8859-8" | "ISO-8859-8-I" | "windows-1255" => &["Hebrew"],
        "ISO-8859-10" => &["Icelandic"],
        "ISO-8859-14" => &["Welsh"],
        "ISO-8859-16" => &["Romanian"],
        "windows-1254" => &["Turkish"],
        "windows-1258" => &["Vietnamese"],
        "windows-874" => &["Thai"],
        "GBK" | "gb18030" => &["Chinese (simplified)"],
        "Big5" => &["Chinese (traditional)"],
        "EUC-JP" | "ISO-2022-JP" | "Shift_JIS" => &["Japanese"],
        "EUC-KR" => &["Korean"],
        // windows-1252, ISO-8859-15, macintosh, x-user-defined.
        _ => &["French", "German", "Spanish"],
    }
}

/// Realistic text for `encoding`: its languages' paragraphs in HTML-like
/// markup with numbers, keeping only characters the encoding can encode.
fn realistic_text(encoding: &Encoding, ascii_only: bool) -> String {
    let theirs = encoding_rs::Encoding::for_label(encoding.name().as_bytes())
        .expect("known encoding")
        .output_encoding();
    let languages: &[&str] = if ascii_only {
        &["English"]
    } else {
        languages(encoding)
    };
    let mut text = String::with_capacity(INPUT_SIZE + 4096);
    let mut n = 0u32;
    while text.len() < INPUT_SIZE {
        for &language in languages {
            let (_, paragraph) = samples::SAMPLES
                .iter()
                .find(|(name, _)| *name == language)
                .expect("sample exists");
            n += 1;
            let _ = write!(text, "<p class=\"item-{n}\" data-id=\"{}\">", n * 37 % 1000);
            for c in paragraph.chars() {
                let mut buffer = [0; 4];
                let (_, _, _, unmappable) = theirs.new_encoder().encode_from_utf8(
                    c.encode_utf8(&mut buffer),
                    &mut [0; 16],
                    true,
                );
                if !unmappable {
                    text.push(c);
                }
            }
            let _ = writeln!(
                text,
                " ({}.{:02}, 2026-11-{:02})</p>",
                n % 97,
                n % 100,
                n % 28 + 1
            );
        }
    }
    text
}

fn input_bytes(encoding: &'static Encoding, kind: InputKind) -> Option<Vec<u8>> {
    if encoding.name() == "replacement" {
        return None;
    }
    let text = realistic_text(encoding, kind == InputKind::Ascii);
    let theirs =
        encoding_rs::Encoding::for_label(encoding.name().as_bytes()).expect("known encoding");
    let mut bytes = match encoding.name() {
        "UTF-16BE" => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
        "UTF-16LE" => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
        _ => theirs.output_encoding().encode(&text).0.into_owned(),
    };
    if kind == InputKind::Invalid {
        // Every 100th byte becomes 0xFF, or 0x80 where 0xFF is valid on its own.
        let bad = if theirs
            .decode_without_bom_handling_and_without_replacement(&[0xFF])
            .is_some()
        {
            0x80
        } else {
            0xFF
        };
        for byte in bytes.iter_mut().step_by(100) {
            *byte = bad;
        }
    }
    Some(bytes)
}
