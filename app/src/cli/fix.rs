//! `mojiscope fix`: repair the mojibake in a file and write the text as
//! UTF-8, to standard output or (whole or not at all) to a file.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;
use mojiscope_core::repair::{Change, Repair, Source};
use mojiscope_core::{
    BomHandling, Encoding, UTF_8, bom_sniff, detect, utf8_decode_without_bom_or_fail,
};

use super::args::encoding_for;
use super::error::{CliError, display_name};
use super::input::read_input;
use super::output::{AtomicOutput, Success, stdout_error};
use crate::model::analysis::counts::count_errors;
use crate::model::repair::run::{repair_text, repair_threads};
use crate::model::wording::plural;

#[derive(Debug, Args)]
pub struct FixArgs {
    /// The encoding FILE is in (default: its byte order mark's, else UTF-8)
    #[arg(long, value_name = "LABEL")]
    encoding: Option<OsString>,
    /// Print the chains undone and every changed span to standard error
    #[arg(long)]
    explain: bool,
    /// Overwrite OUT if it exists
    #[arg(long)]
    force: bool,
    /// The file to repair ("-" for standard input)
    #[arg(value_name = "FILE")]
    input: PathBuf,
    /// Write the repaired text to OUT instead of standard output
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: Option<PathBuf>,
}

/// The most characters of a span an explanation quotes.
const QUOTE_CHARS: usize = 60;

/// A file's text and how it was decoded.
#[derive(Debug)]
pub struct Decoded {
    /// The text.
    pub text: String,
    /// The encoding whose decoder made it.
    pub encoding: &'static Encoding,
    /// How many leading bytes a byte order mark took.
    pub bom_len: usize,
    /// Whether some bytes did not decode (each is U+FFFD in `text`).
    pub had_errors: bool,
    /// Whether detection chose the encoding (nothing said which it was and
    /// the bytes are not UTF-8), and whether its evidence was weak.
    pub detected: Option<bool>,
}

/// Chooses how to decode a file before repairing it, and decodes it: as its
/// byte order mark says; else as `requested`; else as UTF-8 when it is valid
/// UTF-8; else as encoding detection ranks first.
pub fn decode_for_repair(bytes: &[u8], requested: Option<&'static Encoding>) -> Decoded {
    if let Some(encoding) = bom_sniff(bytes) {
        // UTF-8's byte order mark is three bytes, UTF-16's two.
        let bom_len = if encoding == UTF_8 { 3 } else { 2 };
        let decoded = encoding.decode_with_bom_handling(bytes, BomHandling::Sniff);
        return Decoded {
            text: decoded.text,
            encoding,
            bom_len,
            had_errors: decoded.had_errors,
            detected: None,
        };
    }
    if let Some(encoding) = requested {
        let decoded = encoding.decode_with_bom_handling(bytes, BomHandling::None);
        return Decoded {
            text: decoded.text,
            encoding,
            bom_len: 0,
            had_errors: decoded.had_errors,
            detected: None,
        };
    }
    if let Ok(text) = utf8_decode_without_bom_or_fail(bytes) {
        return Decoded {
            text,
            encoding: UTF_8,
            bom_len: 0,
            had_errors: false,
            detected: None,
        };
    }
    let detection = detect(bytes);
    let encoding = detection.best();
    let decoded = encoding.decode_with_bom_handling(bytes, BomHandling::None);
    Decoded {
        text: decoded.text,
        encoding,
        bom_len: 0,
        had_errors: decoded.had_errors,
        detected: Some(detection.is_weak),
    }
}

/// Runs `fix`.
pub fn run(
    args: &FixArgs,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
) -> Result<Success, CliError> {
    let requested = args.encoding.as_deref().map(encoding_for).transpose()?;
    let file = display_name(&args.input);
    // Checked before reading anything, and again when renaming.
    let output = args
        .output
        .as_deref()
        .map(|path| AtomicOutput::create(path, args.force))
        .transpose()?;
    let bytes = read_input(&args.input, stdin)?;
    // A file in several encodings is decoded part by part.
    let mixed = requested
        .is_none()
        .then(|| super::segments::decode_mixed(&file, &bytes))
        .flatten();
    let (decoded, mixed_details) = match mixed {
        Some(mixed) => (mixed.decoded, Some(mixed.details)),
        None => (decode_for_repair(&bytes, requested), None),
    };
    // Bytes a single-byte decoder read one for one: the repair can use them.
    let whole = mixed_details.is_none();
    let source = (whole && decoded.encoding.is_single_byte()).then_some(Source {
        bytes: &bytes,
        encoding: decoded.encoding,
    });
    let never = AtomicBool::new(false);
    // One piece per thread: nothing to report on the way, and each piece
    // reuses what it learnt of the words it met longest.
    let piece = decoded.text.len().div_ceil(repair_threads());
    let repair = repair_text(&decoded.text, source, piece, &never, &mut |_| {})
        .expect("the repair is only cancelled through its flag, which stays unset");
    let repaired = repair.apply(&decoded.text);
    if let (Some(output), Some(path)) = (output, &args.output) {
        let name = display_name(path);
        let write_error = |source| CliError::Write {
            file: name.clone(),
            source,
        };
        output
            .file()
            .write_all(repaired.as_bytes())
            .map_err(write_error)?;
        output.commit()?;
    } else {
        stdout
            .write_all(repaired.as_bytes())
            .map_err(stdout_error)?;
        stdout.flush().map_err(stdout_error)?;
    }
    let mut details = mixed_details.unwrap_or_default();
    if let Some(weak) = decoded.detected {
        details.push(format!(
            "{file}: not UTF-8; read as {}, which detection ranks first{} (say otherwise with --encoding LABEL)",
            decoded.encoding,
            if weak { " on weak evidence" } else { "" }
        ));
    }
    if let Some(line) = decoding_errors(&file, &decoded, &bytes).filter(|_| whole) {
        details.push(line);
    }
    if args.explain {
        details.extend(explain(&file, &decoded, &bytes, &repair));
    }
    Ok(Success {
        summary: summary(&file, &repair, args.explain),
        details,
    })
}

/// A line for standard error when the bytes did not all decode: each error
/// is U+FFFD in the text written, and the bytes it stood for are lost.
fn decoding_errors(file: &str, decoded: &Decoded, bytes: &[u8]) -> Option<String> {
    if !decoded.had_errors {
        return None;
    }
    // How many, and where the first is: the decoder's errors counted over
    // the bytes after the byte order mark.
    let body = bytes.get(decoded.bom_len..).unwrap_or_default();
    let never = AtomicBool::new(false);
    let counted = count_errors(body, &[decoded.encoding], &never)?;
    let counted = counted.first()?;
    let first = *counted.first_error_offsets.first()? + decoded.bom_len as u64;
    Some(format!(
        "{file}: {} as {} (the first at byte offset {first}); each is U+FFFD in the output, and the bytes are lost",
        plural(
            counted.errors,
            "byte sequence did not decode",
            "byte sequences did not decode"
        ),
        decoded.encoding
    ))
}

/// A line for standard error when something needs the user's eye: lost
/// characters or repairs left undone.
fn summary(file: &str, repair: &Repair, explain: bool) -> Option<String> {
    let lost: usize = repair.changes.iter().map(|change| change.lost.len()).sum();
    if explain || (lost == 0 && repair.suggestions.is_empty()) {
        return None;
    }
    let mut parts = vec![format!(
        "repaired {}",
        plural(repair.changes.len(), "span", "spans")
    )];
    if lost > 0 {
        parts.push(format!(
            "{} could not be recovered and {} U+FFFD",
            plural(lost, "character", "characters"),
            if lost == 1 { "is" } else { "are" }
        ));
    }
    if !repair.suggestions.is_empty() {
        parts.push(format!(
            "{} left as {} (not sure)",
            plural(repair.suggestions.len(), "span", "spans"),
            if repair.suggestions.len() == 1 {
                "it was"
            } else {
                "they were"
            }
        ));
    }
    Some(format!(
        "{file}: {}; --explain lists them",
        parts.join(", ")
    ))
}

/// The explanation: the chains, then each change and each suggestion with
/// where it is in the file.
fn explain(file: &str, decoded: &Decoded, bytes: &[u8], repair: &Repair) -> Vec<String> {
    let mut lines = Vec::new();
    if repair.changes.is_empty() && repair.suggestions.is_empty() {
        lines.push(format!("{file}: no mojibake found"));
        return lines;
    }
    let chains = repair.chains();
    lines.push(format!(
        "{file}: {} by {}",
        plural(repair.changes.len(), "change", "changes"),
        chains
            .iter()
            .map(|(chain, uses)| format!("{chain} ({uses})"))
            .collect::<Vec<_>>()
            .join("; ")
    ));
    let locator = Locator::new(decoded, bytes);
    for (change, applied) in repair
        .changes
        .iter()
        .map(|change| (change, true))
        .chain(repair.suggestions.iter().map(|change| (change, false)))
    {
        lines.push(describe(file, &decoded.text, &locator, change, applied));
    }
    lines
}

fn describe(file: &str, text: &str, locator: &Locator, change: &Change, applied: bool) -> String {
    let (line, byte_offset) = locator.locate(text, change);
    let original = quote(&text[change.utf8_range.clone()]);
    let replacement = quote(&change.replacement);
    let mut described = format!(
        "{file}: {}line {line}, byte offset {byte_offset}: {original} -> {replacement} ({}; confidence {:.2})",
        if applied {
            ""
        } else {
            "not changed (unsure): "
        },
        change.chain,
        change.confidence
    );
    for lost in &change.lost {
        let alternatives: String = lost
            .alternatives
            .iter()
            .take(8)
            .map(char::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        let _ = write!(
            described,
            "; a character lost at replacement byte {}, one of: {alternatives}",
            lost.utf8_offset
        );
    }
    described
}

/// A span of text in quotes, escaped, shortened if long.
fn quote(text: &str) -> String {
    let count = text.chars().count();
    if count <= QUOTE_CHARS {
        format!("{text:?}")
    } else {
        let head: String = text.chars().take(QUOTE_CHARS).collect();
        format!("{head:?}… ({count} characters)")
    }
}

/// Finds where a change's span is in the file: its line, and the offset of
/// its first byte.
struct Locator {
    /// For each character of the text, the offset of its first byte, when
    /// the encoding is not UTF-8 (then characters and bytes differ).
    char_offsets: Option<Vec<u64>>,
    bom_len: usize,
}

impl Locator {
    fn new(decoded: &Decoded, bytes: &[u8]) -> Self {
        let char_offsets = (decoded.encoding != UTF_8).then(|| {
            let (trace, _) = decoded.encoding.decode_traced(bytes, BomHandling::Sniff);
            let mut offsets = Vec::with_capacity(decoded.text.len());
            for item in trace.items() {
                let mut produced = String::new();
                item.push_text(&mut produced);
                offsets.extend(std::iter::repeat_n(
                    item.span.start,
                    produced.chars().count(),
                ));
            }
            offsets
        });
        Self {
            char_offsets,
            bom_len: decoded.bom_len,
        }
    }

    fn locate(&self, text: &str, change: &Change) -> (usize, u64) {
        let start = change.utf8_range.start;
        let line = text[..start].matches('\n').count() + 1;
        let byte_offset = match &self.char_offsets {
            Some(offsets) => offsets
                .get(change.char_range.start)
                .copied()
                .unwrap_or_default(),
            None => (self.bom_len + start) as u64,
        };
        (line, byte_offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_decode_follows_the_bom_then_the_label_then_utf8_then_detection() {
        let decoded = decode_for_repair(b"\xEF\xBB\xBFcaf\xC3\xA9", None);
        assert_eq!((decoded.text.as_str(), decoded.bom_len), ("café", 3));
        assert_eq!(decoded.detected, None);
        let latin1 = Encoding::for_label(b"latin1");
        let decoded = decode_for_repair(b"caf\xE9", latin1);
        assert_eq!((decoded.text.as_str(), decoded.detected), ("café", None));
        let decoded = decode_for_repair("日本語のテキスト".as_bytes(), None);
        assert_eq!((decoded.encoding, decoded.detected), (UTF_8, None));
        // Shift_JIS: not UTF-8, so detection decides.
        let decoded = decode_for_repair(
            b"\x93\xFA\x96\x7B\x8C\xEA\x82\xCC\x83e\x83L\x83X\x83g",
            None,
        );
        assert_eq!(decoded.text, "日本語のテキスト");
        assert_eq!(decoded.encoding, mojiscope_core::SHIFT_JIS);
        assert!(decoded.detected.is_some());
    }

    #[test]
    fn quotes_are_escaped_and_short() {
        assert_eq!(quote("a\tb"), "\"a\\tb\"");
        let long = "é".repeat(100);
        assert!(quote(&long).ends_with("… (100 characters)"));
    }
}
