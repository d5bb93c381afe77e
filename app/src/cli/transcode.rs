//! The streaming pipeline under `decode`, `encode` and `convert`: read a
//! chunk, decode it, and write its text as UTF-8 bytes or encode it as it is
//! decoded, then write the bytes.
//!
//! Memory stays bounded whatever the input's size: one chunk of input, its
//! UTF-8 or encoded bytes, and the last few input bytes so that an error
//! spanning a chunk boundary can still show all of its bytes. No `String` of
//! the text is made: `decode` writes core's UTF-8 bytes, and the encoder
//! takes the decoder's runs as they are, which keeps the pipeline close to
//! the speed of the library decoding or encoding a whole file in memory.

use std::io::{self, Read, Write};

use mojiscope_core::{
    ByteSpan, DecodeErrorKind, DecodeSink, Decoder, DecoderResult, EncodeErrorMode, Encoder,
    EncoderResult, Encoding, SkipReason,
};

use super::error::CliError;
use super::input::fill;
use super::output::stdout_error;

/// Bytes read and decoded at a time.
pub const CHUNK_SIZE: usize = 64 * 1024;

/// How many of the latest input bytes are kept to name an error's bytes.
/// The standard's longest sequence is four bytes; a pending sequence never
/// exceeds the decoder's carry of eight.
const RECENT_CAPACITY: usize = 16;

/// What the pipeline did, when it got to the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Decoding errors written as U+FFFD (replacement mode).
    pub decoding_errors: u64,
    /// Characters written as `&#N;` (html mode).
    pub references: u64,
}

/// Why the pipeline stopped early.
#[derive(Debug)]
pub enum Stop {
    /// Reading the input failed.
    Read(io::Error),
    /// Writing the output failed.
    Write(io::Error),
    /// The decoder met an error in fatal mode.
    Malformed {
        /// What kind of error.
        kind: DecodeErrorKind,
        /// Offset of its first byte.
        byte_offset: u64,
        /// Its bytes, as far as they are still at hand.
        bytes: Vec<u8>,
        /// The encoding being decoded.
        encoding: &'static Encoding,
    },
    /// The encoder met a character it cannot encode in fatal mode.
    Unencodable {
        /// The character.
        character: char,
        /// Offset in the input of the bytes it was decoded from.
        byte_offset: u64,
        /// How many characters of the text precede it.
        char_index: u64,
        /// The encoding written.
        encoding: &'static Encoding,
    },
}

/// A decoder, and an encoder for its text unless the output is UTF-8 text.
pub struct Pipeline {
    decoder: Decoder,
    encoder: Option<Encoder>,
}

impl Pipeline {
    /// A pipeline writing the decoded text as UTF-8.
    pub fn decoding(decoder: Decoder) -> Self {
        Self {
            decoder,
            encoder: None,
        }
    }

    /// A pipeline writing the decoded text re-encoded by `encoder`.
    pub fn transcoding(decoder: Decoder, encoder: Encoder) -> Self {
        Self {
            decoder,
            encoder: Some(encoder),
        }
    }

    /// Streams `input` through to `output` (which the caller flushes).
    ///
    /// In fatal mode everything before the first error is written before
    /// the error is returned.
    pub fn run(self, input: &mut dyn Read, output: &mut dyn Write) -> Result<Totals, Stop> {
        match self.encoder {
            None => decode_only(self.decoder, input, output),
            Some(encoder) => transcode(self.decoder, encoder, input, output),
        }
    }
}

/// The input, a chunk at a time, with the last few bytes of earlier chunks
/// to name the bytes of an error that began in one.
struct Chunks<'a> {
    input: &'a mut dyn Read,
    buffer: Vec<u8>,
    len: usize,
    /// Offset in the input of `buffer[0]`.
    base: u64,
    recent: RecentBytes,
}

impl<'a> Chunks<'a> {
    fn new(input: &'a mut dyn Read) -> Self {
        Self {
            input,
            buffer: vec![0; CHUNK_SIZE],
            len: 0,
            base: 0,
            recent: RecentBytes::default(),
        }
    }

    /// Reads the next chunk; returns it and whether it is the last.
    fn next(&mut self) -> Result<(&[u8], bool), Stop> {
        if self.len > 0 {
            self.recent.keep(&self.buffer[..self.len], self.base);
            self.base += self.len as u64;
        }
        self.len = fill(self.input, &mut self.buffer).map_err(Stop::Read)?;
        // A short read means the end of the input (`fill` reads until the
        // buffer is full or the reader is exhausted).
        Ok((&self.buffer[..self.len], self.len < self.buffer.len()))
    }

    /// The error for a decoding error of the current chunk in fatal mode.
    fn malformed(&self, kind: DecodeErrorKind, span: ByteSpan, decoder: &Decoder) -> Stop {
        Stop::Malformed {
            kind,
            byte_offset: span.start,
            bytes: self
                .recent
                .span_bytes(span, &self.buffer[..self.len], self.base),
            encoding: decoder.encoding(),
        }
    }
}

/// The `decode` command's pipeline: the text goes out as UTF-8 bytes.
fn decode_only(
    mut decoder: Decoder,
    input: &mut dyn Read,
    output: &mut dyn Write,
) -> Result<Totals, Stop> {
    let mut chunks = Chunks::new(input);
    let mut text = Utf8Text::default();
    let mut totals = Totals::default();
    loop {
        let (bytes, last) = chunks.next()?;
        text.bytes.clear();
        let (result, _) = decoder.decode(bytes, last, &mut text);
        // What was decoded before an error is output before it is reported.
        output.write_all(&text.bytes).map_err(Stop::Write)?;
        if let DecoderResult::Malformed { kind, span } = result {
            return Err(chunks.malformed(kind, span, &decoder));
        }
        if last {
            totals.decoding_errors = text.errors;
            return Ok(totals);
        }
    }
}

/// The `encode` and `convert` commands' pipeline: the decoder's items go
/// straight to the encoder.
fn transcode(
    mut decoder: Decoder,
    encoder: Encoder,
    input: &mut dyn Read,
    output: &mut dyn Write,
) -> Result<Totals, Stop> {
    let mut chunks = Chunks::new(input);
    let mut sink = EncodingSink::new(encoder);
    loop {
        let (bytes, last) = chunks.next()?;
        sink.bytes.clear();
        let (result, _) = decoder.decode(bytes, last, &mut sink);
        // An unencodable character comes before anything the decoder met
        // after it; the text before either is output first.
        if let Some(stop) = sink.stopped.take() {
            output.write_all(&sink.bytes).map_err(Stop::Write)?;
            return Err(stop);
        }
        let malformed = match result {
            DecoderResult::InputEmpty => None,
            DecoderResult::Malformed { kind, span } => Some(chunks.malformed(kind, span, &decoder)),
        };
        if last || malformed.is_some() {
            sink.finish();
        }
        output.write_all(&sink.bytes).map_err(Stop::Write)?;
        if let Some(stop) = malformed {
            return Err(stop);
        }
        if last {
            return Ok(Totals {
                decoding_errors: sink.errors,
                references: sink.references,
            });
        }
    }
}

/// Decoded text as UTF-8 bytes (core's `Vec<u8>` sink), and the errors so
/// far: `decode` writes a chunk's, `fix` gathers whole lines.
#[derive(Debug, Default)]
pub(super) struct Utf8Text {
    /// The text.
    pub(super) bytes: Vec<u8>,
    /// Decoding errors so far (each is U+FFFD in the text).
    pub(super) errors: u64,
    /// The offset of the first error's first byte.
    pub(super) first_error: Option<u64>,
}

impl DecodeSink for Utf8Text {
    // Only the text and the error count are kept, so the decoders may write
    // UTF-8 straight into the chunk's bytes; errors still come through
    // `error`, in input order.
    const TEXT_ONLY: bool = true;

    #[inline]
    fn text(&mut self, utf8: &[u8]) {
        self.bytes.text(utf8);
    }

    #[inline]
    fn ascii(&mut self, run: &[u8], start: u64) {
        self.bytes.ascii(run, start);
    }

    #[inline]
    fn utf8_run(&mut self, run: &str, start: u64) {
        self.bytes.utf8_run(run, start);
    }

    #[inline]
    fn ascii_units(&mut self, run: &[u8], start: u64, unit_len: u8) {
        self.bytes.ascii_units(run, start, unit_len);
    }

    #[inline]
    fn scalar_units(&mut self, run: &[char], start: u64, unit_len: u8) {
        self.bytes.scalar_units(run, start, unit_len);
    }

    #[inline]
    fn scalar(&mut self, c: char, span: ByteSpan) {
        self.bytes.scalar(c, span);
    }

    #[inline]
    fn scalar_pair(&mut self, first: char, second: char, span: ByteSpan) {
        self.bytes.scalar_pair(first, second, span);
    }

    #[inline]
    fn error(&mut self, kind: DecodeErrorKind, span: ByteSpan) {
        self.errors += 1;
        self.first_error.get_or_insert(span.start);
        self.bytes.error(kind, span);
    }

    #[inline]
    fn skip(&mut self, _reason: SkipReason, _span: ByteSpan) {}
}

/// Encodes a decoder's items as they come, into one chunk's bytes at a
/// time: no copy of the text is made. After a character the encoder cannot
/// encode in fatal mode it keeps the error and ignores what follows.
struct EncodingSink {
    encoder: Encoder,
    /// The bytes encoded from the current chunk.
    bytes: Vec<u8>,
    /// Decoding errors written as U+FFFD (replacement mode).
    errors: u64,
    /// Characters written as `&#N;` (html mode).
    references: u64,
    /// UTF-8 bytes handed to the encoder so far.
    text_len: u64,
    /// The unencodable character that stopped it, in fatal mode.
    stopped: Option<Stop>,
}

impl EncodingSink {
    fn new(encoder: Encoder) -> Self {
        Self {
            encoder,
            bytes: Vec::with_capacity(CHUNK_SIZE),
            errors: 0,
            references: 0,
            text_len: 0,
            stopped: None,
        }
    }

    /// Encodes `text`, decoded from the input bytes at `byte_offset` on:
    /// byte for byte if `is_run` (ASCII, or UTF-8 decoded as itself), or
    /// all from that one item.
    #[inline]
    fn encode(&mut self, text: &str, byte_offset: u64, is_run: bool) {
        if self.stopped.is_some() {
            return;
        }
        let text_start = self.text_len;
        self.text_len += text.len() as u64;
        let mut rest = text;
        loop {
            let (result, read) = self.encoder.encode(rest, false, &mut self.bytes);
            let EncoderResult::Unmappable(unmappable) = result else {
                return;
            };
            rest = &rest[read..];
            if self.encoder.mode() == EncodeErrorMode::Html {
                // The reference is written; go on.
                self.references += 1;
                continue;
            }
            let within = if is_run {
                unmappable.utf8_offset - text_start
            } else {
                0
            };
            self.stopped = Some(Stop::Unencodable {
                character: unmappable.character,
                byte_offset: byte_offset + within,
                char_index: unmappable.char_index,
                encoding: self.encoder.encoding(),
            });
            return;
        }
    }

    /// Encodes one character decoded from the bytes at `byte_offset`.
    #[inline]
    fn encode_char(&mut self, c: char, byte_offset: u64) {
        self.encode(c.encode_utf8(&mut [0; 4]), byte_offset, false);
    }

    /// The end of the input: the encoder's last bytes (ISO-2022-JP's return
    /// to ASCII).
    fn finish(&mut self) {
        if self.stopped.is_none() {
            let (result, _) = self.encoder.encode("", true, &mut self.bytes);
            debug_assert_eq!(result, EncoderResult::InputEmpty);
        }
    }
}

impl DecodeSink for EncodingSink {
    #[inline]
    fn ascii(&mut self, run: &[u8], start: u64) {
        // ASCII bytes are always UTF-8; proving it is a fast check.
        let text = std::str::from_utf8(run).expect("an ASCII run is UTF-8");
        self.encode(text, start, true);
    }

    #[inline]
    fn utf8_run(&mut self, run: &str, start: u64) {
        self.encode(run, start, true);
    }

    #[inline]
    fn scalar(&mut self, c: char, span: ByteSpan) {
        self.encode_char(c, span.start);
    }

    #[inline]
    fn scalar_pair(&mut self, first: char, second: char, span: ByteSpan) {
        self.encode_char(first, span.start);
        self.encode_char(second, span.start);
    }

    #[inline]
    fn error(&mut self, _kind: DecodeErrorKind, span: ByteSpan) {
        self.errors += 1;
        self.encode_char(char::REPLACEMENT_CHARACTER, span.start);
    }

    #[inline]
    fn skip(&mut self, _reason: SkipReason, _span: ByteSpan) {}
}

/// The last few bytes of the input before the current chunk.
#[derive(Debug, Default)]
struct RecentBytes {
    bytes: Vec<u8>,
    /// Offset of `bytes[0]` in the input.
    base: u64,
}

impl RecentBytes {
    /// Remembers the end of `chunk`, which starts at `chunk_base`.
    fn keep(&mut self, chunk: &[u8], chunk_base: u64) {
        self.bytes
            .extend_from_slice(&chunk[chunk.len().saturating_sub(RECENT_CAPACITY)..]);
        let end = chunk_base + chunk.len() as u64;
        let excess = self.bytes.len().saturating_sub(RECENT_CAPACITY);
        self.bytes.drain(..excess);
        self.base = end - self.bytes.len() as u64;
    }

    /// The bytes of `span`, from the current chunk or the remembered ones.
    fn span_bytes(&self, span: ByteSpan, chunk: &[u8], chunk_base: u64) -> Vec<u8> {
        (span.start..span.end)
            .take(RECENT_CAPACITY)
            .filter_map(|byte_offset| {
                if byte_offset >= chunk_base {
                    chunk
                        .get(usize::try_from(byte_offset - chunk_base).ok()?)
                        .copied()
                } else {
                    self.bytes
                        .get(usize::try_from(byte_offset.checked_sub(self.base)?).ok()?)
                        .copied()
                }
            })
            .collect()
    }
}

/// Flushes standard output after the pipeline, whether it finished or
/// stopped at an error (what came before the error is output).
pub fn finish_stdout(result: Result<Totals, Stop>, stdout: &mut dyn Write) -> Result<Totals, Stop> {
    let flushed = stdout.flush();
    let totals = result?;
    flushed.map_err(Stop::Write)?;
    Ok(totals)
}

/// The error for a pipeline writing to standard output that stopped.
pub fn stdout_stop(stop: Stop, file: &str) -> CliError {
    match stop {
        Stop::Write(source) => stdout_error(source),
        stop => data_stop(stop, file),
    }
}

/// The error for a pipeline that stopped at its input.
pub fn data_stop(stop: Stop, file: &str) -> CliError {
    let file = file.to_owned();
    match stop {
        Stop::Read(source) => CliError::Read { file, source },
        Stop::Write(source) => CliError::Write { file, source },
        Stop::Malformed {
            kind,
            byte_offset,
            bytes,
            encoding,
        } => CliError::Malformed {
            file,
            kind,
            byte_offset,
            bytes,
            encoding,
        },
        Stop::Unencodable {
            character,
            byte_offset,
            char_index,
            encoding,
        } => CliError::Unencodable {
            file,
            character,
            byte_offset,
            char_index,
            encoding,
        },
    }
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{BomHandling, DecodeErrorMode, ISO_8859_5, UTF_8, WINDOWS_1252};

    use super::*;

    /// A reader that hands out at most `step` bytes per call.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buffer.len()).min(self.bytes.len());
            buffer[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    fn fatal_utf8() -> Decoder {
        Decoder::new(UTF_8, DecodeErrorMode::Fatal, BomHandling::Sniff)
    }

    #[test]
    fn an_error_across_a_chunk_boundary_names_all_its_bytes() {
        let mut input = vec![b'a'; CHUNK_SIZE - 1];
        input.extend_from_slice(b"\xE3\x81z");
        let mut output = Vec::new();
        let stop = Pipeline::decoding(fatal_utf8())
            .run(
                &mut Trickle {
                    bytes: &input,
                    step: 1000,
                },
                &mut output,
            )
            .unwrap_err();
        let Stop::Malformed {
            kind,
            byte_offset,
            bytes,
            ..
        } = stop
        else {
            panic!("expected a decoding error, got {stop:?}");
        };
        assert_eq!(kind, DecodeErrorKind::UnexpectedByte);
        assert_eq!(byte_offset, CHUNK_SIZE as u64 - 1);
        assert_eq!(bytes, b"\xE3\x81");
        assert_eq!(
            output.len(),
            CHUNK_SIZE - 1,
            "the text before the error is written"
        );
    }

    #[test]
    fn unencodable_characters_are_located_in_the_input() {
        // "é" is two bytes of UTF-8 input, "☃" is at byte 3 after a BOM.
        let input = "\u{FEFF}aé☃".as_bytes();
        let decoder = Decoder::new(UTF_8, DecodeErrorMode::Fatal, BomHandling::RemoveUtf8);
        let encoder = Encoder::new(WINDOWS_1252, EncodeErrorMode::Fatal);
        let mut output = Vec::new();
        let stop = Pipeline::transcoding(decoder, encoder)
            .run(
                &mut Trickle {
                    bytes: input,
                    step: 2,
                },
                &mut output,
            )
            .unwrap_err();
        let Stop::Unencodable {
            character,
            byte_offset,
            char_index,
            ..
        } = stop
        else {
            panic!("expected an unencodable character, got {stop:?}");
        };
        assert_eq!((character, byte_offset, char_index), ('☃', 6, 2));
        assert_eq!(output, b"a\xE9");
    }

    #[test]
    fn html_mode_counts_references_and_replacement_mode_counts_errors() {
        let decoder = Decoder::new(
            WINDOWS_1252,
            DecodeErrorMode::Replacement,
            BomHandling::Sniff,
        );
        let encoder = Encoder::new(ISO_8859_5, EncodeErrorMode::Html);
        let mut output = Vec::new();
        let totals = Pipeline::transcoding(decoder, encoder)
            .run(&mut &b"a\xE9b\xFF"[..], &mut output)
            .unwrap();
        assert_eq!(totals.references, 2);
        assert_eq!(output, b"a&#233;b&#255;");
        let decoder = Decoder::new(UTF_8, DecodeErrorMode::Replacement, BomHandling::Sniff);
        let mut output = Vec::new();
        let totals = Pipeline::decoding(decoder)
            .run(&mut &b"\xFFa\xC3"[..], &mut output)
            .unwrap();
        assert_eq!(totals.decoding_errors, 2);
        assert_eq!(output, "\u{FFFD}a\u{FFFD}".as_bytes());
    }

    #[test]
    fn recent_bytes_keep_the_end_of_the_input() {
        let mut recent = RecentBytes::default();
        recent.keep(b"0123456789", 0);
        recent.keep(b"abcdefghij", 10);
        assert_eq!(recent.base, 4);
        assert_eq!(recent.span_bytes(ByteSpan::new(8, 12), b"XY", 20), b"89ab");
        assert_eq!(recent.span_bytes(ByteSpan::new(19, 22), b"XY", 20), b"jXY");
    }
}
