//! Files in more than one encoding, on the command line: `detect --segments`
//! prints the parts ([`run_detect`]), `inspect` reports them ([`report`]),
//! and `fix` and `convert --from auto` decode each part in its own encoding
//! ([`find_mixed`], [`convert_auto`]). The parts are
//! [`mojiscope_core::segments`]'s.

use std::io::{BufWriter, Read, Write};
use std::path::Path;

use mojiscope_core::{
    BomHandling, ByteSpan, DecodeErrorKind, DecodeErrorMode, DecodeSink, Decoder, EncodeErrorMode,
    Encoder, Encoding, Segmentation, SkipReason, bom_sniff, segments,
};
use serde::Serialize;

use super::args::EncodeErrors;
use super::error::{CliError, display_name};
use super::input::read_file_bytes;
use super::output::{AtomicOutput, Success, stdout_error};
use super::transcode::{CHUNK_SIZE, Pipeline, Stop, Totals, data_stop};
use crate::model::wording::plural;

/// One segment in `inspect --json`: field names are part of the
/// command-line contract.
#[derive(Debug, Serialize)]
pub struct SegmentReport {
    start: u64,
    end: u64,
    encoding: &'static str,
}

/// The segments of `bytes`, for `inspect`: as JSON objects, and as lines
/// for its plain report. `bytes` is the whole input, or the start of a
/// stream of `size` bytes, whose last segment then runs to its end.
pub fn report(bytes: &[u8], size: u64) -> (Vec<SegmentReport>, Vec<String>) {
    let segmentation = segments(bytes);
    let last = segmentation.segments.len().saturating_sub(1);
    let json: Vec<SegmentReport> = segmentation
        .segments
        .iter()
        .enumerate()
        .map(|(index, s)| SegmentReport {
            start: s.byte_span.start,
            end: if index == last {
                size.max(s.byte_span.end)
            } else {
                s.byte_span.end
            },
            encoding: s.encoding.name(),
        })
        .collect();
    let mut text: Vec<String> = json
        .iter()
        .map(|s| format!("  {}..{}  {}", s.start, s.end, s.encoding))
        .collect();
    text.extend(segmentation.notes.iter().map(|n| format!("  ({n})")));
    if size > bytes.len() as u64 {
        text.push(format!(
            "  (from the first {} of the stream)",
            plural(bytes.len(), "byte", "bytes")
        ));
    }
    (json, text)
}

/// Runs `detect --segments`: one `START<TAB>END<TAB>NAME` line per segment
/// on standard output; on standard error, the encodings by lines and how
/// sure each boundary is.
pub fn run_detect(
    input: &Path,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
) -> Result<Success, CliError> {
    let file = display_name(input);
    let bytes = read_file_bytes(input, stdin)?;
    let segmentation = segments(&bytes);
    for segment in &segmentation.segments {
        writeln!(
            stdout,
            "{}\t{}\t{}",
            segment.byte_span.start,
            segment.byte_span.end,
            segment.encoding.name()
        )
        .map_err(stdout_error)?;
    }
    stdout.flush().map_err(stdout_error)?;
    let lines = LineNumbers::new(&bytes, &segmentation);
    let notes: Vec<String> = segmentation.notes.iter().map(ToString::to_string).collect();
    let mut details = Vec::new();
    if segmentation.is_mixed() {
        details.push(format!("{file}: {}", by_encoding(&segmentation, &lines)));
    }
    for (before, segment) in segmentation
        .segments
        .iter()
        .zip(segmentation.segments.iter().skip(1))
    {
        details.push(format!(
            "{file}: boundary at byte {} (line {}): {} -> {}, margin {:.1} nats (confidence {:.3})",
            segment.byte_span.start,
            lines.line_of(segment.byte_span.start),
            before.encoding,
            segment.encoding,
            segment.margin,
            segment.confidence()
        ));
    }
    Ok(Success {
        summary: (!notes.is_empty()).then(|| format!("{file}: {}", notes.join("; "))),
        details,
    })
}

/// The line number (from 1) of each segment's first and last byte.
struct LineNumbers {
    /// For each segment start, and each segment's last byte, in order: the
    /// byte offset and its line.
    known: Vec<(u64, u64)>,
}

impl LineNumbers {
    #[expect(
        clippy::naive_bytecount,
        reason = "one count of line feeds up to the last segment; no crate for it"
    )]
    fn new(bytes: &[u8], segmentation: &Segmentation) -> Self {
        let mut offsets: Vec<u64> = segmentation
            .segments
            .iter()
            .flat_map(|s| [s.byte_span.start, s.byte_span.end.saturating_sub(1)])
            .collect();
        offsets.sort_unstable();
        offsets.dedup();
        let mut known = Vec::with_capacity(offsets.len());
        let (mut line, mut counted) = (1u64, 0usize);
        for offset in offsets {
            let to = usize::try_from(offset)
                .unwrap_or(usize::MAX)
                .min(bytes.len());
            if to > counted {
                line += bytes[counted..to].iter().filter(|&&b| b == b'\n').count() as u64;
                counted = to;
            }
            known.push((offset, line));
        }
        Self { known }
    }

    fn line_of(&self, offset: u64) -> u64 {
        self.known
            .iter()
            .find(|(known, _)| *known == offset)
            .map_or(0, |&(_, line)| line)
    }
}

/// "2 encodings: UTF-8 (lines 1–30, 43–62), windows-1252 (lines 31–42)".
fn by_encoding(segmentation: &Segmentation, lines: &LineNumbers) -> String {
    let mut encodings: Vec<(&'static Encoding, Vec<String>)> = Vec::new();
    for segment in &segmentation.segments {
        let first = lines.line_of(segment.byte_span.start);
        let last = lines.line_of(segment.byte_span.end.saturating_sub(1));
        let range = if first == last {
            first.to_string()
        } else {
            format!("{first}–{last}")
        };
        match encodings.iter_mut().find(|(e, _)| *e == segment.encoding) {
            Some((_, ranges)) => ranges.push(range),
            None => encodings.push((segment.encoding, vec![range])),
        }
    }
    let parts: Vec<String> = encodings
        .iter()
        .map(|(encoding, ranges)| {
            let word = if ranges.len() == 1 && !ranges[0].contains('–') {
                "line"
            } else {
                "lines"
            };
            format!("{encoding} ({word} {})", ranges.join(", "))
        })
        .collect();
    format!("{} encodings: {}", encodings.len(), parts.join(", "))
}

/// A file in several encodings, for `fix`: what to decode each part in.
pub struct Mixed {
    /// The parts: each one's bytes and encoding, in order.
    pub parts: Vec<(std::ops::Range<usize>, &'static Encoding)>,
    /// What to say of it on standard error.
    pub details: Vec<String>,
}

/// The parts of `bytes` when it is in more than one encoding (no byte
/// order mark, not valid UTF-8, and [`segments`] finds several); `None`
/// otherwise. Nothing is decoded here: `fix` decodes each part as it
/// streams.
pub fn find_mixed(file: &str, bytes: &[u8]) -> Option<Mixed> {
    if bom_sniff(bytes).is_some() || std::str::from_utf8(bytes).is_ok() {
        return None;
    }
    let segmentation = segments(bytes);
    if !segmentation.is_mixed() {
        return None;
    }
    let parts = segmentation
        .segments
        .iter()
        .map(|segment| (span_of(segment.byte_span, bytes.len()), segment.encoding))
        .collect();
    let lines = LineNumbers::new(bytes, &segmentation);
    let details = vec![format!(
        "{file}: {}; each part decoded in its own encoding",
        by_encoding(&segmentation, &lines)
    )];
    Some(Mixed { parts, details })
}

/// The byte range of a span, within `len`.
fn span_of(span: ByteSpan, len: usize) -> std::ops::Range<usize> {
    let start = usize::try_from(span.start).unwrap_or(len).min(len);
    let end = usize::try_from(span.end).unwrap_or(len).min(len);
    start..end
}

/// Runs `convert --from auto`: each segment decoded in its own encoding (a
/// byte order mark decides for the whole file, as the standard's decode
/// does), the text encoded in `to`, written to `output` whole or not at all.
pub fn convert_auto(
    input: &Path,
    to: &'static Encoding,
    errors: EncodeErrors,
    output_path: &Path,
    force: bool,
    stdin: &mut dyn Read,
) -> Result<Success, CliError> {
    let file = display_name(input);
    let output_name = display_name(output_path);
    // Checked before reading anything, and again when renaming.
    let output = AtomicOutput::create(output_path, force)?;
    let bytes = read_file_bytes(input, stdin)?;
    let segmentation = segments(&bytes);
    let (decode_mode, encode_mode) = match errors {
        EncodeErrors::Fatal => (DecodeErrorMode::Fatal, EncodeErrorMode::Fatal),
        EncodeErrors::Html => (DecodeErrorMode::Replacement, EncodeErrorMode::Html),
    };
    let bom = bom_sniff(&bytes).is_some();
    let mut writer = BufWriter::with_capacity(CHUNK_SIZE, output.file());
    let write_error = |source| CliError::Write {
        file: output_name.clone(),
        source,
    };
    let mut totals = Totals::default();
    let output_encoding = Encoder::new(to, encode_mode).encoding();
    for (index, segment) in segmentation.segments.iter().enumerate() {
        let span = span_of(segment.byte_span, bytes.len());
        let handling = if bom && index == 0 {
            BomHandling::Sniff
        } else {
            BomHandling::None
        };
        let decoder = Decoder::new(segment.encoding, decode_mode, handling);
        let encoder = Encoder::new(to, encode_mode);
        let done = Pipeline::transcoding(decoder, encoder)
            .run(&mut &bytes[span.clone()], &mut writer)
            .map_err(|stop| {
                let stop = shifted(stop, &bytes, &segmentation, index);
                match stop {
                    Stop::Write(source) => write_error(source),
                    stop => CliError::NotWritten {
                        output: output_name.clone(),
                        error: Box::new(data_stop(stop, &file)),
                    },
                }
            })?;
        totals.decoding_errors += done.decoding_errors;
        totals.references += done.references;
    }
    writer.flush().map_err(write_error)?;
    drop(writer);
    output.commit()?;
    let mut parts = Vec::new();
    if segmentation.is_mixed() {
        let lines = LineNumbers::new(&bytes, &segmentation);
        parts.push(format!(
            "{file}: {}; each part decoded in its own encoding",
            by_encoding(&segmentation, &lines)
        ));
    } else if let Some(segment) = segmentation.segments.first() {
        parts.push(format!("{file}: read as {}", segment.encoding));
    }
    if errors == EncodeErrors::Html {
        parts.push(format!(
            "{output_name}: written in {output_encoding}, with U+FFFD for {} and numeric character \
             references (&#N;) for {} that {output_encoding} cannot encode",
            plural(totals.decoding_errors, "decoding error", "decoding errors"),
            plural(totals.references, "character", "characters"),
        ));
    }
    Ok(Success {
        summary: Some(parts.join("; ")),
        details: Vec::new(),
    })
}

/// A segment's stop with its offsets moved from the segment's start to the
/// file's.
fn shifted(stop: Stop, bytes: &[u8], segmentation: &Segmentation, index: usize) -> Stop {
    let base = segmentation.segments[index].byte_span.start;
    match stop {
        Stop::Malformed {
            kind,
            byte_offset,
            bytes: error_bytes,
            encoding,
        } => Stop::Malformed {
            kind,
            byte_offset: byte_offset + base,
            bytes: error_bytes,
            encoding,
        },
        Stop::Unencodable {
            character,
            byte_offset,
            char_index,
            encoding,
        } => {
            // The characters of the segments before it.
            let before: u64 = segmentation.segments[..index]
                .iter()
                .map(|s| {
                    let mut counter = CharCounter::default();
                    let mut decoder =
                        Decoder::new(s.encoding, DecodeErrorMode::Replacement, BomHandling::None);
                    let _ = decoder.decode(
                        &bytes[span_of(s.byte_span, bytes.len())],
                        true,
                        &mut counter,
                    );
                    counter.chars
                })
                .sum();
            Stop::Unencodable {
                character,
                byte_offset: byte_offset + base,
                char_index: char_index + before,
                encoding,
            }
        }
        other => other,
    }
}

/// Counts the characters a decode gives (an error is one U+FFFD).
#[derive(Default)]
struct CharCounter {
    chars: u64,
}

impl DecodeSink for CharCounter {
    fn ascii(&mut self, run: &[u8], _start: u64) {
        self.chars += run.len() as u64;
    }
    fn scalar(&mut self, _c: char, _span: ByteSpan) {
        self.chars += 1;
    }
    fn scalar_pair(&mut self, _first: char, _second: char, _span: ByteSpan) {
        self.chars += 2;
    }
    fn error(&mut self, _kind: DecodeErrorKind, _span: ByteSpan) {
        self.chars += 1;
    }
    fn skip(&mut self, _reason: SkipReason, _span: ByteSpan) {}
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{UTF_8, WINDOWS_1252};

    use super::*;

    fn mixed() -> (Vec<u8>, String) {
        let utf8 = "Grüße aus Köln, schöne Tage am Rhein.\n".repeat(3);
        let legacy = "Déjà vu: l'été français, c'était très beau.\n".repeat(2);
        let mut bytes = utf8.clone().into_bytes();
        bytes.extend(WINDOWS_1252.encode_fatal(&legacy).expect("encodable"));
        bytes.extend(utf8.as_bytes());
        (bytes, format!("{utf8}{legacy}{utf8}"))
    }

    #[test]
    fn a_mixed_file_is_found_in_parts() {
        let (bytes, text) = mixed();
        let mixed = find_mixed("a.txt", &bytes).expect("mixed");
        assert_eq!(mixed.details.len(), 1);
        let encodings: Vec<_> = mixed.parts.iter().map(|(_, e)| *e).collect();
        assert_eq!(encodings, [UTF_8, WINDOWS_1252, UTF_8]);
        assert_eq!(mixed.parts[0].0.start, 0);
        assert_eq!(mixed.parts[2].0.end, bytes.len());
        assert_eq!(
            mixed.details[0],
            "a.txt: 2 encodings: UTF-8 (lines 1–3, 6–8), windows-1252 (lines 4–5); each part decoded in its own encoding"
        );
        // One encoding: nothing to do here.
        assert!(find_mixed("b.txt", text.as_bytes()).is_none());
        let legacy = WINDOWS_1252.encode_fatal(&text).expect("encodable");
        assert!(find_mixed("c.txt", &legacy).is_none());
    }

    #[test]
    fn inspect_reports_the_segments() {
        let (bytes, _) = mixed();
        let (json, text) = report(&bytes, bytes.len() as u64);
        assert_eq!(json.len(), 3);
        assert_eq!(json[1].encoding, "windows-1252");
        assert_eq!(json[0].end, json[1].start);
        assert_eq!(json[2].end, bytes.len() as u64);
        assert_eq!(text.len(), 3);
    }
}
