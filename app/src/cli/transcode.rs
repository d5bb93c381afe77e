//! The streaming pipeline under `decode`, `encode` and `convert`: read a
//! chunk, decode it, encode the text (or keep it as UTF-8), write the bytes.
//!
//! Memory stays bounded whatever the input's size: one chunk of input, its
//! text and its encoded bytes, and the last few input bytes so that an error
//! spanning a chunk boundary can still show all of its bytes.

use std::io::{self, Read, Write};

use mojiscope_core::{
    ByteSpan, DecodeErrorKind, DecodeSink, Decoder, DecoderResult, EncodeErrorMode, Encoder,
    EncoderResult, Encoding, SkipReason,
};

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
    pub fn run(mut self, input: &mut dyn Read, output: &mut dyn Write) -> Result<Totals, Stop> {
        let mut chunk = vec![0u8; CHUNK_SIZE];
        // Origins are needed only to name the input offset of an unencodable
        // character.
        let mut text = ChunkText::new(self.encoder.is_some());
        let mut encoded = Vec::new();
        let mut recent = RecentBytes::default();
        let mut totals = Totals::default();
        let mut chunk_base = 0u64;
        let mut text_base = 0u64;
        loop {
            let len = fill(input, &mut chunk).map_err(Stop::Read)?;
            // A short read means the end of the input (`fill` reads until
            // the buffer is full or the reader is exhausted).
            let last = len < chunk.len();
            let bytes = &chunk[..len];
            text.clear();
            let (result, _) = self.decoder.decode(bytes, last, &mut text);
            totals.decoding_errors += text.errors;
            let malformed = match result {
                DecoderResult::InputEmpty => None,
                DecoderResult::Malformed { kind, span } => Some((kind, span)),
            };
            // The text decoded before an error is output before reporting it,
            // and an unencodable character in it comes first in the input.
            let finished = last || malformed.is_some();
            self.write_text(
                &text,
                text_base,
                finished,
                &mut encoded,
                &mut totals,
                output,
            )?;
            if let Some((kind, span)) = malformed {
                return Err(Stop::Malformed {
                    kind,
                    byte_offset: span.start,
                    bytes: recent.span_bytes(span, bytes, chunk_base),
                    encoding: self.decoder.encoding(),
                });
            }
            if last {
                return Ok(totals);
            }
            text_base += text.text.len() as u64;
            recent.keep(bytes, chunk_base);
            chunk_base += len as u64;
        }
    }

    /// Encodes (or copies) one chunk's text and writes it.
    fn write_text(
        &mut self,
        text: &ChunkText,
        text_base: u64,
        last: bool,
        encoded: &mut Vec<u8>,
        totals: &mut Totals,
        output: &mut dyn Write,
    ) -> Result<(), Stop> {
        let Some(encoder) = &mut self.encoder else {
            return output.write_all(text.text.as_bytes()).map_err(Stop::Write);
        };
        encoded.clear();
        let mut rest = text.text.as_str();
        loop {
            let (result, read) = encoder.encode(rest, last, encoded);
            rest = &rest[read..];
            match result {
                EncoderResult::InputEmpty => break,
                EncoderResult::Unmappable(unmappable)
                    if encoder.mode() == EncodeErrorMode::Fatal =>
                {
                    output.write_all(encoded).map_err(Stop::Write)?;
                    let text_offset = usize::try_from(unmappable.utf8_offset - text_base)
                        .expect("the character is in this chunk's text");
                    return Err(Stop::Unencodable {
                        character: unmappable.character,
                        byte_offset: text.byte_offset_of(text_offset),
                        char_index: unmappable.char_index,
                        encoding: encoder.encoding(),
                    });
                }
                // html mode: the reference is written; go on, even with
                // nothing left, so that the encoder sees the end of input.
                EncoderResult::Unmappable(_) => totals.references += 1,
            }
        }
        output.write_all(encoded).map_err(Stop::Write)
    }
}

/// Reads until `buffer` is full or the input ends; returns how much was read.
fn fill(reader: &mut dyn Read, buffer: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(filled)
}

/// Where a stretch of a chunk's text came from in the input.
#[derive(Clone, Copy, Debug)]
struct Origin {
    /// Offset in the chunk's text.
    text_offset: usize,
    /// Offset in the input of the first byte it was decoded from.
    byte_offset: u64,
    /// Whether the text is a run that maps byte for byte onto the input (an
    /// ASCII run, or valid UTF-8 decoded as itself).
    is_run: bool,
}

/// One chunk's decoded text, with enough provenance to map a text offset
/// back to an input offset.
#[derive(Debug)]
struct ChunkText {
    text: String,
    track_origins: bool,
    origins: Vec<Origin>,
    errors: u64,
}

impl ChunkText {
    fn new(track_origins: bool) -> Self {
        Self {
            text: String::new(),
            track_origins,
            origins: Vec::new(),
            errors: 0,
        }
    }

    fn clear(&mut self) {
        self.text.clear();
        self.origins.clear();
        self.errors = 0;
    }

    fn origin(&mut self, byte_offset: u64, is_run: bool) {
        if self.track_origins {
            self.origins.push(Origin {
                text_offset: self.text.len(),
                byte_offset,
                is_run,
            });
        }
    }

    /// The input offset of the character at `text_offset` in this chunk's text.
    fn byte_offset_of(&self, text_offset: usize) -> u64 {
        let after = self
            .origins
            .partition_point(|origin| origin.text_offset <= text_offset);
        debug_assert!(after > 0, "every character of the text has an origin");
        let Some(origin) = after
            .checked_sub(1)
            .and_then(|index| self.origins.get(index))
        else {
            return 0;
        };
        if origin.is_run {
            origin.byte_offset + (text_offset - origin.text_offset) as u64
        } else {
            origin.byte_offset
        }
    }
}

impl DecodeSink for ChunkText {
    fn ascii(&mut self, run: &[u8], start: u64) {
        self.origin(start, true);
        self.text.extend(run.iter().map(|&byte| char::from(byte)));
    }

    fn utf8_run(&mut self, run: &str, start: u64) {
        self.origin(start, true);
        self.text.push_str(run);
    }

    fn scalar(&mut self, c: char, span: ByteSpan) {
        self.origin(span.start, false);
        self.text.push(c);
    }

    fn scalar_pair(&mut self, first: char, second: char, span: ByteSpan) {
        self.origin(span.start, false);
        self.text.push(first);
        self.text.push(second);
    }

    fn error(&mut self, _kind: DecodeErrorKind, span: ByteSpan) {
        self.origin(span.start, false);
        self.errors += 1;
        self.text.push(char::REPLACEMENT_CHARACTER);
    }

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
