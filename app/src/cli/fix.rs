//! `mojiscope fix`: repair the mojibake in a file and write the text as
//! UTF-8, to standard output or (whole or not at all) to a file.
//!
//! It streams: the input (a file's mapped pages, or standard input as it
//! comes) is decoded a chunk at a time, the text is repaired a batch of
//! whole lines at a time on every core, and each batch is written as soon
//! as it is repaired. `core::repair` judges each line on its own, so this
//! finds what a repair of the whole text at once would; a line longer than
//! a batch is cut after a space near the batch's end (else anywhere between
//! two characters). Memory is a few batches, whatever the input's size.
//!
//! Before anything is written, a sample of the decode spread over the whole
//! input (over the first 16 MiB of standard input) is checked to be text:
//! random or binary bytes are declined at once, exit status 2.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;
use mojiscope_core::repair::{Chain, Change, NotText, Repair, Source, check_text};
use mojiscope_core::{
    BomHandling, ByteSpan, DecodeErrorKind, DecodeErrorMode, DecodeSink, Decoder, Encoding,
    SkipReason, UTF_8, bom_sniff, detect,
};

use super::args::encoding_for;
use super::error::{CliError, display_name};
use super::input::{Input, fill, open_input};
use super::output::{AtomicOutput, Success, stdout_error};
use super::segments;
use super::transcode::Utf8Text;
use crate::model::document::MAP_THRESHOLD;
use crate::model::repair::manual::{chain_name_terse, family};
use crate::model::repair::run::{check_decode, repair_text, repair_threads};
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

/// Input bytes read and decoded at a time.
const READ_CHUNK: usize = 1024 * 1024;

/// Text repaired at a time (whole lines), split between the threads.
const BATCH_BYTES: usize = 8 * 1024 * 1024;

/// The same with `--explain`, which keeps the offset of every character
/// of a batch (eight bytes each) to say where each change is.
const EXPLAIN_BATCH_BYTES: usize = 1024 * 1024;

/// How far before a batch's end a line without line feeds is cut after a
/// space.
const CUT_REACH: usize = 64 * 1024;

/// Standard input's decode is chosen on its first this many bytes (all of
/// it when it is shorter): files up to that size are read whole anyway.
const STREAM_HEAD: usize = MAP_THRESHOLD as usize;

/// `--explain` lists at most this many changes; a last line says how many
/// more there were.
const MAX_EXPLAINED: usize = 100_000;

/// How an input is decoded before it is repaired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The encoding whose decoder reads it.
    pub encoding: &'static Encoding,
    /// Sniff when it starts with a byte order mark (which decides the
    /// encoding and is not output), else none.
    pub bom_handling: BomHandling,
    /// Whether detection chose the encoding (nothing said which it was and
    /// the bytes are not UTF-8), and whether its evidence was weak.
    pub detected: Option<bool>,
}

/// Chooses how to decode an input before repairing it: as its byte order
/// mark says; else as `requested`; else as UTF-8 when it is valid UTF-8;
/// else as encoding detection ranks first. `bytes` is the whole input when
/// `complete`, else its start (which may end inside a character).
pub fn choose_decode(bytes: &[u8], requested: Option<&'static Encoding>, complete: bool) -> Plan {
    if let Some(encoding) = bom_sniff(bytes) {
        return Plan {
            encoding,
            bom_handling: BomHandling::Sniff,
            detected: None,
        };
    }
    let plan = |encoding, detected| Plan {
        encoding,
        bom_handling: BomHandling::None,
        detected,
    };
    if let Some(encoding) = requested {
        return plan(encoding, None);
    }
    // The standard's UTF-8 decoder accepts exactly what Rust's validation
    // does; a start cut inside a character is still UTF-8.
    let utf8 = match std::str::from_utf8(bytes) {
        Ok(_) => true,
        Err(error) => !complete && error.error_len().is_none(),
    };
    if utf8 {
        return plan(UTF_8, None);
    }
    let detection = detect(bytes);
    plan(detection.best(), Some(detection.is_weak))
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
    let read_error = |source| CliError::Read {
        file: file.clone(),
        source,
    };
    let input = open_input(&args.input, stdin)?;
    // A file in several encodings is decoded part by part (found in a
    // file's bytes; a stream is read in one encoding).
    if let (None, Input::Bytes(bytes)) = (requested, &input)
        && let Some(mixed) = segments::find_mixed(&file, bytes)
    {
        return fix_mixed(args, &file, bytes, &mixed, output, stdout);
    }
    // The plan, and the check that the input is text, from the whole of a
    // file or the start of a stream.
    let (plan, checked, head, mut stream): (Plan, _, Vec<u8>, Box<dyn Read + '_>) = match input {
        Input::Bytes(bytes) => {
            let plan = choose_decode(&bytes, requested, true);
            let checked = check_decode(&bytes, plan.encoding, plan.bom_handling);
            (plan, checked, Vec::new(), Box::new(Mapped { bytes, at: 0 }))
        }
        Input::Stream(mut reader) => {
            let mut head = vec![0; STREAM_HEAD];
            let n = fill(&mut reader, &mut head).map_err(read_error)?;
            head.truncate(n);
            let plan = choose_decode(&head, requested, n < STREAM_HEAD);
            let checked = check_decode(&head, plan.encoding, plan.bom_handling);
            (plan, checked, head, reader)
        }
    };
    if let Err(reason) = checked {
        return Err(CliError::NotText {
            file,
            encoding: plan.encoding,
            reason,
        });
    }
    let mut input: Box<dyn Read + '_> = Box::new((&head[..]).chain(&mut stream));
    let mut fixer = Fixer::new(&file, plan, args.explain);
    let streamed = if let (Some(output), Some(path)) = (output, &args.output) {
        let name = display_name(path);
        let write_error = |source| CliError::Write {
            file: name.clone(),
            source,
        };
        let mut writer = BufWriter::with_capacity(READ_CHUNK, output.file());
        fixer
            .stream(&mut input, &mut writer)
            .map_err(|stop| stop.error(read_error, write_error))?;
        writer.flush().map_err(write_error)?;
        drop(writer);
        output.commit()
    } else {
        let streamed = fixer
            .stream(&mut input, stdout)
            .map_err(|stop| stop.error(read_error, stdout_error));
        stdout.flush().map_err(stdout_error)?;
        streamed
    };
    streamed?;
    Ok(fixer.report())
}

/// `fix` of a file in several encodings ([`segments::find_mixed`]): each
/// part decoded in its own encoding, the text repaired as it comes, in
/// batches as `fix` repairs any file.
fn fix_mixed(
    args: &FixArgs,
    file: &str,
    bytes: &[u8],
    mixed: &segments::Mixed,
    output: Option<AtomicOutput>,
    stdout: &mut dyn Write,
) -> Result<Success, CliError> {
    let first_encoding = mixed.parts.first().map_or(UTF_8, |(_, encoding)| *encoding);
    // The check that the input is text, on the start of its text.
    let mut head = Utf8Text::default();
    let mut taken = 0;
    for (range, encoding) in &mixed.parts {
        if head.bytes.len() >= STREAM_HEAD {
            break;
        }
        let part = bytes.get(range.clone()).unwrap_or_default();
        let part = &part[..part.len().min(STREAM_HEAD)];
        let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
        let _ = decoder.decode(part, true, &mut head);
        taken += 1;
    }
    let head = String::from_utf8_lossy(&head.bytes);
    if let Err(reason) = check_text(&head) {
        let encoding = mixed.parts[..taken]
            .last()
            .map_or(first_encoding, |(_, encoding)| *encoding);
        return Err(CliError::NotText {
            file: file.to_owned(),
            encoding,
            reason,
        });
    }
    let plan = Plan {
        encoding: first_encoding,
        bom_handling: BomHandling::None,
        detected: None,
    };
    let parts = || {
        mixed.parts.iter().map(|(range, encoding)| Part {
            input: Box::new(bytes.get(range.clone()).unwrap_or_default()),
            decoder: Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None),
            base: range.start as u64,
        })
    };
    let mut fixer = Fixer::new(file, plan, args.explain);
    let read_error = |source| CliError::Read {
        file: file.to_owned(),
        source,
    };
    if let (Some(output), Some(path)) = (output, &args.output) {
        let name = display_name(path);
        let write_error = |source| CliError::Write {
            file: name.clone(),
            source,
        };
        let mut writer = BufWriter::with_capacity(READ_CHUNK, output.file());
        fixer
            .stream_parts(parts(), &mut writer)
            .map_err(|stop| stop.error(read_error, write_error))?;
        writer.flush().map_err(write_error)?;
        drop(writer);
        output.commit()?;
    } else {
        let streamed = fixer
            .stream_parts(parts(), stdout)
            .map_err(|stop| stop.error(read_error, stdout_error));
        stdout.flush().map_err(stdout_error)?;
        streamed?;
    }
    let mut report = fixer.report();
    report.details.splice(0..0, mixed.details.iter().cloned());
    Ok(report)
}

/// A file's mapped (or read) bytes as a reader: each read copies a piece
/// into the caller's buffer, and only the pages read are touched.
struct Mapped {
    bytes: crate::model::document::FileBytes,
    at: usize,
}

impl Read for Mapped {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let rest = self.bytes.get(self.at..).unwrap_or_default();
        let n = rest.len().min(buffer.len());
        buffer[..n].copy_from_slice(&rest[..n]);
        self.at += n;
        Ok(n)
    }
}

/// A part of the input decoded in one encoding: its bytes, its decoder,
/// and where it starts in the input.
struct Part<'r> {
    input: Box<dyn Read + 'r>,
    decoder: Decoder,
    base: u64,
}

/// Why the stream stopped.
enum Stop {
    Read(io::Error),
    Write(io::Error),
}

impl Stop {
    fn error(
        self,
        read: impl FnOnce(io::Error) -> CliError,
        write: impl FnOnce(io::Error) -> CliError,
    ) -> CliError {
        match self {
            Stop::Read(source) => read(source),
            Stop::Write(source) => write(source),
        }
    }
}

/// Decoded text waiting to be repaired: what the decoder's sink gathers.
trait Pending: DecodeSink {
    /// The text so far, as UTF-8.
    fn utf8(&self) -> &[u8];
    /// Takes the first `len` bytes of the text (whole characters), and the
    /// input offsets of their characters if they are kept.
    fn take(&mut self, len: usize) -> (Vec<u8>, Option<Vec<u64>>);
    /// The decoding errors so far, and the offset of the first (from the
    /// start of the part it is in).
    fn errors(&self) -> (u64, Option<u64>);
    /// Where the part decoded next starts in the input: offsets kept are
    /// counted from there.
    fn set_base(&mut self, _base: u64) {}
}

impl Pending for Utf8Text {
    fn utf8(&self) -> &[u8] {
        &self.bytes
    }

    fn take(&mut self, len: usize) -> (Vec<u8>, Option<Vec<u64>>) {
        let rest = self.bytes.split_off(len);
        (std::mem::replace(&mut self.bytes, rest), None)
    }

    fn errors(&self) -> (u64, Option<u64>) {
        (self.errors, self.first_error)
    }
}

/// Decoded text with the input offset of each character, for `--explain`.
#[derive(Debug, Default)]
struct Located {
    text: Utf8Text,
    offsets: Vec<u64>,
    /// Where the part being decoded starts in the input.
    base: u64,
}

impl Located {
    fn push(&mut self, c: char, offset: u64) {
        self.text
            .bytes
            .extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        self.offsets.push(self.base + offset);
    }
}

impl DecodeSink for Located {
    fn ascii(&mut self, run: &[u8], start: u64) {
        self.text.bytes.extend_from_slice(run);
        let start = self.base + start;
        self.offsets
            .extend((0..run.len() as u64).map(|i| start + i));
    }

    fn utf8_run(&mut self, run: &str, start: u64) {
        self.text.bytes.extend_from_slice(run.as_bytes());
        let start = self.base + start;
        self.offsets
            .extend(run.char_indices().map(|(i, _)| start + i as u64));
    }

    fn ascii_units(&mut self, run: &[u8], start: u64, unit_len: u8) {
        self.text.bytes.extend_from_slice(run);
        let (start, unit_len) = (self.base + start, u64::from(unit_len));
        self.offsets
            .extend((0..run.len() as u64).map(|i| start + i * unit_len));
    }

    fn scalar_units(&mut self, run: &[char], start: u64, unit_len: u8) {
        let mut offset = start;
        for &c in run {
            self.push(c, offset);
            offset += u64::from(unit_len);
        }
    }

    fn scalar(&mut self, c: char, span: ByteSpan) {
        self.push(c, span.start);
    }

    fn scalar_pair(&mut self, first: char, second: char, span: ByteSpan) {
        self.push(first, span.start);
        self.push(second, span.start);
    }

    fn error(&mut self, _kind: DecodeErrorKind, span: ByteSpan) {
        self.text.errors += 1;
        self.text.first_error.get_or_insert(span.start);
        self.push(char::REPLACEMENT_CHARACTER, span.start);
    }

    fn skip(&mut self, _reason: SkipReason, _span: ByteSpan) {}
}

impl Pending for Located {
    fn utf8(&self) -> &[u8] {
        &self.text.bytes
    }

    fn take(&mut self, len: usize) -> (Vec<u8>, Option<Vec<u64>>) {
        let (text, _) = self.text.take(len);
        let chars = text.iter().filter(|&&b| !is_continuation(b)).count();
        let rest = self.offsets.split_off(chars);
        (text, Some(std::mem::replace(&mut self.offsets, rest)))
    }

    fn errors(&self) -> (u64, Option<u64>) {
        self.text.errors()
    }

    fn set_base(&mut self, base: u64) {
        self.base = base;
    }
}

/// Whether `byte` continues a UTF-8 sequence.
fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// Where the first batch of `text` ends: after its last line feed once it
/// holds `batch` bytes (a line longer than that: after a space near the
/// end, else at the end), or at the end of the input. `None` while more
/// text is to come.
fn batch_end(text: &[u8], batch: usize, last: bool) -> Option<usize> {
    if text.is_empty() {
        return None;
    }
    if text.len() < batch {
        return last.then_some(text.len());
    }
    if let Some(line_feed) = text.iter().rposition(|&b| b == b'\n') {
        return Some(line_feed + 1);
    }
    let from = text.len().saturating_sub(CUT_REACH);
    let cut = text[from..]
        .iter()
        .rposition(|&b| b == b' ' || b == b'\t')
        .map_or(text.len(), |space| from + space + 1);
    Some(cut)
}

/// What `fix` found over the whole input.
#[derive(Debug, Default)]
struct Totals {
    changes: usize,
    suggestions: usize,
    lost: usize,
    guesses: usize,
    /// Of the guesses, those that are all a space taken for a lost
    /// no-break space.
    nbsp_guesses: usize,
    /// The chains undone, as a user tells them apart
    /// ([`crate::model::repair::manual::family`]), and how often.
    families: Vec<(Chain, usize)>,
    /// Bytes of text in batches that were not text, left as they were.
    declined: u64,
    declined_reason: Option<NotText>,
    errors: u64,
    /// The first error's offset, and the encoding it did not decode in.
    first_error: Option<(u64, &'static Encoding)>,
}

/// The repair of one input, batch by batch.
struct Fixer<'a> {
    file: &'a str,
    plan: Plan,
    explain: bool,
    totals: Totals,
    /// Lines before the current batch.
    lines_before: u64,
    /// UTF-8 bytes of text before the current batch.
    text_before: u64,
    /// The explanation's lines, one per change or suggestion (at most
    /// [`MAX_EXPLAINED`]), and how many more there were.
    explained: Vec<String>,
    unexplained: usize,
}

impl<'a> Fixer<'a> {
    fn new(file: &'a str, plan: Plan, explain: bool) -> Self {
        Self {
            file,
            plan,
            explain,
            totals: Totals::default(),
            lines_before: 0,
            text_before: 0,
            explained: Vec::new(),
            unexplained: 0,
        }
    }

    /// Decodes, repairs and writes the whole input.
    fn stream(&mut self, input: &mut dyn Read, output: &mut dyn Write) -> Result<(), Stop> {
        let decoder = Decoder::new(
            self.plan.encoding,
            DecodeErrorMode::Replacement,
            self.plan.bom_handling,
        );
        let part = Part {
            input: Box::new(input),
            decoder,
            base: 0,
        };
        self.stream_parts(std::iter::once(part), output)
    }

    /// Decodes, repairs and writes `parts` one after another, as one text.
    fn stream_parts<'r>(
        &mut self,
        parts: impl ExactSizeIterator<Item = Part<'r>>,
        output: &mut dyn Write,
    ) -> Result<(), Stop> {
        if self.explain {
            let sink = Located::default();
            self.stream_with(parts, output, sink, READ_CHUNK, EXPLAIN_BATCH_BYTES)
        } else {
            let sink = Utf8Text::default();
            self.stream_with(parts, output, sink, READ_CHUNK, BATCH_BYTES)
        }
    }

    fn stream_with<'r, S: Pending>(
        &mut self,
        parts: impl ExactSizeIterator<Item = Part<'r>>,
        output: &mut dyn Write,
        mut sink: S,
        chunk_len: usize,
        batch: usize,
    ) -> Result<(), Stop> {
        // A single-byte decode makes a character of each byte: the repair
        // may read the bytes behind the text (no byte order mark is ever
        // single-byte). Parts in several encodings give the repair their
        // text only.
        let count = parts.len();
        let single_byte = self.plan.encoding.is_single_byte() && count == 1;
        let mut source: Vec<u8> = Vec::new();
        let mut chunk = vec![0; chunk_len.max(1)];
        let mut first_error = None;
        for (index, mut part) in parts.enumerate() {
            let final_part = index + 1 == count;
            sink.set_base(part.base);
            let errors_before = sink.errors().0;
            loop {
                let n = fill(&mut part.input, &mut chunk).map_err(Stop::Read)?;
                let last = n < chunk.len();
                // Replacement mode consumes every byte.
                let _ = part.decoder.decode(&chunk[..n], last, &mut sink);
                if single_byte {
                    source.extend_from_slice(&chunk[..n]);
                }
                while let Some(end) = batch_end(sink.utf8(), batch, last && final_part) {
                    let (text, offsets) = sink.take(end);
                    let text = String::from_utf8(text).unwrap_or_else(|error| {
                        String::from_utf8_lossy(error.as_bytes()).into_owned()
                    });
                    let bytes: Option<Vec<u8>> = single_byte.then(|| {
                        let chars = text.chars().count().min(source.len());
                        let rest = source.split_off(chars);
                        std::mem::replace(&mut source, rest)
                    });
                    self.batch(&text, bytes.as_deref(), offsets.as_deref(), output)
                        .map_err(Stop::Write)?;
                }
                if last {
                    break;
                }
            }
            if let (0, (1.., Some(first))) = (errors_before, sink.errors()) {
                first_error = Some((part.base + first, part.decoder.encoding()));
            }
        }
        self.totals.errors = sink.errors().0;
        self.totals.first_error = first_error;
        Ok(())
    }

    /// Repairs one batch of text (decoded from `bytes`, for a single-byte
    /// decode; its characters at `offsets` in the input, with `--explain`)
    /// and writes it.
    fn batch(
        &mut self,
        text: &str,
        bytes: Option<&[u8]>,
        offsets: Option<&[u64]>,
        output: &mut dyn Write,
    ) -> io::Result<()> {
        let source = bytes.map(|bytes| Source {
            bytes,
            encoding: self.plan.encoding,
        });
        let never = AtomicBool::new(false);
        // One piece of whole lines per thread.
        let piece = text.len().div_ceil(repair_threads()).max(1);
        let repair = repair_text(text, source, piece, &never, &mut |_| {})
            .expect("the repair is only cancelled through its flag, which stays unset");
        if let Some(reason) = repair.declined {
            // Binary data inside text: left as it is.
            output.write_all(text.as_bytes())?;
            self.totals.declined += text.len() as u64;
            self.totals.declined_reason.get_or_insert(reason);
            if self.explain {
                self.explain_line(format!(
                    "{}: line {}: {} of text left as they were, {reason}",
                    self.file,
                    self.lines_before + 1,
                    plural(text.len(), "byte", "bytes"),
                ));
            }
        } else {
            output.write_all(repair.apply(text).as_bytes())?;
            self.count(&repair);
            if self.explain {
                self.explain_batch(text, offsets.unwrap_or_default(), &repair);
            }
        }
        self.lines_before += text.matches('\n').count() as u64;
        self.text_before += text.len() as u64;
        Ok(())
    }

    fn count(&mut self, repair: &Repair) {
        let totals = &mut self.totals;
        totals.changes += repair.changes.len();
        totals.suggestions += repair.suggestions.len();
        totals.lost += repair.lost_count();
        totals.guesses += repair.guess_count();
        totals.nbsp_guesses += repair
            .changes
            .iter()
            .filter(|change| {
                change.is_guess()
                    && change
                        .assumptions
                        .iter()
                        .all(|a| a.assumed == '\u{A0}' && a.found == Some(' '))
            })
            .count();
        // The batch's chains, the most used first (as `Repair::families`
        // ranks them), named as the app names them.
        let mut families: Vec<(Chain, usize)> = Vec::new();
        for change in &repair.changes {
            let family = family(change.chain);
            match families.iter_mut().find(|(known, _)| *known == family) {
                Some((_, count)) => *count += 1,
                None => families.push((family, 1)),
            }
        }
        families.sort_by_key(|&(_, count)| std::cmp::Reverse(count));
        for (family, uses) in families {
            match totals
                .families
                .iter_mut()
                .find(|(known, _)| *known == family)
            {
                Some((_, count)) => *count += uses,
                None => totals.families.push((family, uses)),
            }
        }
    }

    fn explain_line(&mut self, line: String) {
        if self.explained.len() < MAX_EXPLAINED {
            self.explained.push(line);
        } else {
            self.unexplained += 1;
        }
    }

    /// One line per change and suggestion of a batch, in text order.
    fn explain_batch(&mut self, text: &str, offsets: &[u64], repair: &Repair) {
        let mut all: Vec<(&Change, bool)> = repair
            .changes
            .iter()
            .map(|change| (change, true))
            .chain(repair.suggestions.iter().map(|change| (change, false)))
            .collect();
        all.sort_by_key(|(change, _)| change.utf8_range.start);
        // Lines counted as the changes go, not from the start each time.
        let (mut counted_to, mut line) = (0, self.lines_before + 1);
        for (change, applied) in all {
            let start = change.utf8_range.start.min(text.len());
            line += text
                .get(counted_to.min(start)..start)
                .unwrap_or_default()
                .matches('\n')
                .count() as u64;
            counted_to = counted_to.max(start);
            let byte_offset = offsets
                .get(change.char_range.start)
                .copied()
                .unwrap_or_default();
            let described = describe(self.file, text, line, byte_offset, change, applied);
            self.explain_line(described);
        }
    }

    /// What to report on standard error.
    fn report(&self) -> Success {
        let file = self.file;
        let totals = &self.totals;
        let mut details = Vec::new();
        if let Some(weak) = self.plan.detected {
            details.push(format!(
                "{file}: not UTF-8; read as {}, which detection ranks first{} (say otherwise with --encoding LABEL)",
                self.plan.encoding,
                if weak { " on weak evidence" } else { "" }
            ));
        }
        if let (errors @ 1.., Some((first, encoding))) = (totals.errors, totals.first_error) {
            details.push(format!(
                "{file}: {} as {encoding} (the first at byte offset {first}); each is U+FFFD in the output, and the bytes are lost",
                plural(
                    errors,
                    "byte sequence did not decode",
                    "byte sequences did not decode"
                ),
            ));
        }
        if self.explain {
            if totals.changes == 0 && totals.suggestions == 0 && totals.declined == 0 {
                details.push(format!("{file}: no mojibake found"));
            } else if totals.changes > 0 {
                details.push(format!(
                    "{file}: {}, undoing {}",
                    plural(totals.changes, "change", "changes"),
                    totals
                        .families
                        .iter()
                        .map(|(family, uses)| format!("{} ({uses})", chain_name_terse(*family)))
                        .collect::<Vec<_>>()
                        .join("; ")
                ));
            }
            details.extend(self.explained.iter().cloned());
            if self.unexplained > 0 {
                details.push(format!(
                    "{file}: … and {} more not listed",
                    plural(self.unexplained, "change", "changes")
                ));
            }
        }
        Success {
            summary: self.summary(),
            details,
        }
    }

    /// A line for standard error when something needs the user's eye: lost
    /// characters, guesses, repairs left undone, text that was not text
    /// (with `--explain`, the last line, after the list).
    fn summary(&self) -> Option<String> {
        let totals = &self.totals;
        let noteworthy =
            totals.lost > 0 || totals.guesses > 0 || totals.suggestions > 0 || totals.declined > 0;
        if !noteworthy {
            return None;
        }
        let mut parts = vec![format!(
            "repaired {}",
            plural(totals.changes, "span", "spans")
        )];
        if totals.guesses > 0 {
            parts.push(format!(
                "{} on a guess ({})",
                plural(totals.guesses, "span", "spans"),
                if totals.nbsp_guesses == totals.guesses {
                    "a space taken for a lost no-break space"
                } else {
                    "a lost no-break space or byte assumed back"
                }
            ));
        }
        if totals.lost > 0 {
            parts.push(format!(
                "{} could not be recovered and {} U+FFFD",
                plural(totals.lost, "character", "characters"),
                if totals.lost == 1 { "is" } else { "are" }
            ));
        }
        if totals.suggestions > 0 {
            parts.push(format!(
                "{} left as {} (not sure)",
                plural(totals.suggestions, "span", "spans"),
                if totals.suggestions == 1 {
                    "it was"
                } else {
                    "they were"
                }
            ));
        }
        if let (declined @ 1.., Some(reason)) = (totals.declined, totals.declined_reason) {
            parts.push(format!(
                "{} left as they were ({reason})",
                plural(declined, "byte of text", "bytes of text")
            ));
        }
        Some(format!(
            "{}: {}{}",
            self.file,
            parts.join(", "),
            if self.explain {
                ""
            } else {
                "; --explain lists them"
            }
        ))
    }
}

fn describe(
    file: &str,
    text: &str,
    line: u64,
    byte_offset: u64,
    change: &Change,
    applied: bool,
) -> String {
    let original = quote(text.get(change.utf8_range.clone()).unwrap_or_default());
    let replacement = quote(&change.replacement);
    let mut described = format!(
        "{file}: {}line {line}, byte offset {byte_offset}: {original} -> {replacement} ({}; confidence {:.2})",
        if applied {
            ""
        } else {
            "not changed (unsure): "
        },
        chain_name_terse(change.chain),
        change.confidence
    );
    for assumption in &change.assumptions {
        // "a guess: …", or "a lost byte restored: …, making 'ρ'".
        let _ = write!(described, "; {assumption}");
    }
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

#[cfg(test)]
mod tests {
    use mojiscope_core::SHIFT_JIS;

    use super::*;

    /// Runs the streaming repair over `bytes`, reading and repairing
    /// `batch` bytes at a time: the output and what it found.
    fn fix_in_batches(
        bytes: &[u8],
        plan: Plan,
        explain: bool,
        batch: usize,
    ) -> (String, Fixer<'static>) {
        let decoder = Decoder::new(
            plan.encoding,
            DecodeErrorMode::Replacement,
            plan.bom_handling,
        );
        let mut fixer = Fixer::new("in.txt", plan, explain);
        let mut output = Vec::new();
        let part = || {
            std::iter::once(Part {
                input: Box::new(bytes),
                decoder,
                base: 0,
            })
        };
        let result = if explain {
            let sink = Located::default();
            fixer.stream_with(part(), &mut output, sink, batch, batch)
        } else {
            let sink = Utf8Text::default();
            fixer.stream_with(part(), &mut output, sink, batch, batch)
        };
        assert!(result.is_ok());
        (String::from_utf8(output).unwrap(), fixer)
    }

    #[test]
    fn the_decode_follows_the_bom_then_the_label_then_utf8_then_detection() {
        let plan = choose_decode(b"\xEF\xBB\xBFcaf\xC3\xA9", None, true);
        assert_eq!(
            (plan.encoding, plan.bom_handling, plan.detected),
            (UTF_8, BomHandling::Sniff, None)
        );
        let latin1 = Encoding::for_label(b"latin1");
        let plan = choose_decode(b"caf\xE9", latin1, true);
        assert_eq!(
            (plan.encoding.name(), plan.detected),
            ("windows-1252", None)
        );
        let plan = choose_decode("日本語のテキスト".as_bytes(), None, true);
        assert_eq!((plan.encoding, plan.detected), (UTF_8, None));
        // The start of a stream may end inside a character.
        let plan = choose_decode(&"日本語".as_bytes()[..7], None, false);
        assert_eq!(plan.encoding, UTF_8);
        // Shift_JIS: not UTF-8, so detection decides.
        let plan = choose_decode(
            b"\x93\xFA\x96\x7B\x8C\xEA\x82\xCC\x83e\x83L\x83X\x83g",
            None,
            true,
        );
        assert_eq!(plan.encoding, mojiscope_core::SHIFT_JIS);
        assert!(plan.detected.is_some());
    }

    #[test]
    fn the_chains_are_named_as_the_app_names_them() {
        // windows-1252 text read by a decoder that keeps the C1 controls
        // (ISO-8859-1 taken byte for code point) and saved as UTF-8, and
        // UTF-8 text read so.
        let text = "Il a dit \u{93}bonjour\u{94} \u{96} puis il est parti.\n\
                    Le cafÃ\u{a9} de la gare est fermÃ\u{a9}.\n";
        let plan = choose_decode(text.as_bytes(), None, true);
        let (output, fixer) = fix_in_batches(text.as_bytes(), plan, true, 1 << 20);
        assert_eq!(
            output,
            "Il a dit “bonjour” – puis il est parti.\nLe café de la gare est fermé.\n"
        );
        let report = fixer.report().details.join("\n");
        assert!(
            report.contains("windows-1252 read as ISO-8859-1 (1)"),
            "{report}"
        );
        assert!(
            report.contains("UTF-8 read as windows-1252 (2)"),
            "{report}"
        );
        assert!(!report.contains("code points"), "{report}");
    }

    #[test]
    fn batches_find_what_one_repair_finds() {
        let mut text = String::new();
        for line in 0..3000 {
            match line % 4 {
                0 => text.push_str("Un Ã©tÃ© Ã  Paris, cafÃ© crÃ¨me\n"),
                1 => text.push_str("Москва и РњРѕСЃРєРІР°\n"),
                2 => text.push_str("BogotÃ¡, Ã?ndice, pÃºblico\n"),
                _ => text.push_str("naïve café\n"),
            }
        }
        let whole = mojiscope_core::repair::repair(&text);
        let expected = whole.apply(&text);
        let plan = choose_decode(text.as_bytes(), None, true);
        for batch in [100, 4096, 1 << 20] {
            let (output, fixer) = fix_in_batches(text.as_bytes(), plan, false, batch);
            assert_eq!(output, expected, "batches of {batch}");
            assert_eq!(fixer.totals.changes, whole.changes.len());
            assert_eq!(fixer.totals.lost, whole.lost_count());
            assert_eq!(fixer.totals.suggestions, whole.suggestions.len());
        }
        // With the explanation: every change once, where it is.
        let (output, fixer) = fix_in_batches(text.as_bytes(), plan, true, 1000);
        assert_eq!(output, expected);
        assert_eq!(
            fixer.explained.len(),
            whole.changes.len() + whole.suggestions.len()
        );
        let located = format!(
            "in.txt: line 5, byte offset {}: \"Ã©tÃ©",
            text.match_indices('\n').nth(3).unwrap().0 + 4
        );
        assert!(
            fixer
                .explained
                .iter()
                .any(|line| line.starts_with(&located)),
            "{located}: {:?}",
            &fixer.explained[..4]
        );
    }

    #[test]
    fn long_lines_are_cut_after_a_space_and_single_byte_sources_follow() {
        // UTF-8 read as windows-1252 and saved so: the repair reads the
        // windows-1252 bytes behind each batch.
        let line = "caf\u{c3}\u{a9} cr\u{c3}\u{a8}me ".repeat(2000);
        let bytes = mojiscope_core::WINDOWS_1252.encode_fatal(&line).unwrap();
        let plan = choose_decode(&bytes, mojiscope_core::Encoding::for_label(b"cp1252"), true);
        let (output, fixer) = fix_in_batches(&bytes, plan, false, 1000);
        assert_eq!(output, "café crème ".repeat(2000));
        assert!(fixer.totals.changes > 0);
        assert_eq!(batch_end(b"abc def", 4, false), Some(4));
        assert_eq!(batch_end(b"abcdefg", 4, false), Some(7));
        assert_eq!(batch_end(b"ab\ncd e", 4, false), Some(3));
        assert_eq!(batch_end(b"abc", 4, false), None);
        assert_eq!(batch_end(b"abc", 4, true), Some(3));
        assert_eq!(batch_end(b"", 4, true), None);
    }

    #[test]
    fn parts_in_several_encodings_stream_as_one_text() {
        let utf8 = "Grüße aus Köln\n".as_bytes();
        let shift_jis = b"\x82\xA0\x82\n";
        let plan = Plan {
            encoding: UTF_8,
            bom_handling: BomHandling::None,
            detected: None,
        };
        for explain in [false, true] {
            let mut fixer = Fixer::new("in.txt", plan, explain);
            let parts = [(utf8, UTF_8, 0), (&shift_jis[..], SHIFT_JIS, utf8.len())].map(
                |(bytes, encoding, base)| Part {
                    input: Box::new(bytes),
                    decoder: Decoder::new(
                        encoding,
                        DecodeErrorMode::Replacement,
                        BomHandling::None,
                    ),
                    base: base as u64,
                },
            );
            let mut output = Vec::new();
            assert!(fixer.stream_parts(parts.into_iter(), &mut output).is_ok());
            assert_eq!(
                String::from_utf8(output).unwrap(),
                "Grüße aus Köln\nあ\u{FFFD}\n"
            );
            // The error is counted where it is in the file, in its part's
            // encoding.
            let at = utf8.len() as u64 + 2;
            assert_eq!(
                (fixer.totals.errors, fixer.totals.first_error),
                (1, Some((at, SHIFT_JIS)))
            );
        }
    }

    #[test]
    fn errors_and_their_offsets_are_counted_past_a_bom() {
        let bytes = b"\xEF\xBB\xBFok \xFF and \xE3\x81\n";
        let plan = choose_decode(bytes, None, true);
        for explain in [false, true] {
            let (output, fixer) = fix_in_batches(bytes, plan, explain, 4);
            assert_eq!(output, "ok \u{FFFD} and \u{FFFD}\n");
            assert_eq!(
                (fixer.totals.errors, fixer.totals.first_error),
                (2, Some((6, UTF_8)))
            );
        }
    }

    #[test]
    fn quotes_are_escaped_and_short() {
        assert_eq!(quote("a\tb"), "\"a\\tb\"");
        let long = "é".repeat(100);
        assert!(quote(&long).ends_with("… (100 characters)"));
    }
}
