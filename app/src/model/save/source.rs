//! The text a save writes: where it comes from, read a chunk at a time with
//! the source position of every character.

use std::sync::Arc;

use mojiscope_core::{BomHandling, ByteSpan, DecodeErrorKind, DecodeSink, Encoding, SkipReason};

use crate::model::analysis::mixed::{Parts, Reader};
use crate::model::document::FileBytes;

/// Source bytes (or text bytes) read at a time.
pub const CHUNK_BYTES: usize = 64 * 1024;

/// The text to save.
///
/// Every variant yields its text in chunks ([`TextSource::reader`]) with,
/// for each character, its *source offset*: where it is in what the text
/// came from (a byte offset in the file for a decode).
#[derive(Clone, Debug)]
pub enum TextSource {
    /// A pane's whole-file decode: `bytes` decoded with `encoding`'s decoder
    /// in replacement mode, with `bom_handling` (the pane's). Source offsets
    /// are offsets in `bytes`.
    Decode {
        /// The document's bytes.
        bytes: FileBytes,
        /// The encoding asked for (a byte order mark may pick another).
        encoding: &'static Encoding,
        /// The pane's byte order mark handling.
        bom_handling: BomHandling,
    },
    /// The Mixed reading of a file in several encodings: each part decoded
    /// with its own encoding in replacement mode. Source offsets are
    /// offsets in `bytes`.
    Mixed {
        /// The document's bytes.
        bytes: FileBytes,
        /// The parts, covering the file.
        parts: Parts,
        /// The first part's byte order mark handling (the pane's).
        bom_handling: BomHandling,
    },
    /// Text already in memory. Source offsets are its UTF-8 offsets.
    Text(Arc<str>),
    /// The repaired text of the Repair window: a decode with the changes
    /// the user accepted applied. Source offsets are its UTF-8 offsets.
    Repaired {
        /// The text.
        text: Arc<str>,
        /// The encoding whose decode was repaired.
        decoded_as: &'static Encoding,
        /// Where the text holds a U+FFFD for lost bytes (UTF-8 offsets, in
        /// order): decoding errors left as they were, and characters a
        /// repair could not recover. They count as decoding errors.
        errors: Arc<[usize]>,
    },
}

impl TextSource {
    /// The size of the source (bytes), which progress counts up to.
    pub fn len(&self) -> u64 {
        match self {
            TextSource::Decode { bytes, .. } | TextSource::Mixed { bytes, .. } => {
                bytes.len() as u64
            }
            TextSource::Text(text) | TextSource::Repaired { text, .. } => text.len() as u64,
        }
    }

    /// Whether the source is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A reader from the start of the text.
    pub fn reader(&self) -> SourceReader<'_> {
        let decoder = match self {
            TextSource::Decode {
                encoding,
                bom_handling,
                ..
            } => Some(Reader::new(encoding, *bom_handling, None)),
            TextSource::Mixed {
                parts,
                bom_handling,
                ..
            } => Some(Reader::new(
                mojiscope_core::UTF_8,
                *bom_handling,
                Some(parts),
            )),
            TextSource::Text(_) | TextSource::Repaired { .. } => None,
        };
        SourceReader {
            source: self,
            decoder,
            position: 0,
        }
    }
}

/// Where a stretch of a chunk's text came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    /// Offset in the chunk's text.
    pub text_offset: usize,
    /// Source offset of its first character.
    pub source_offset: u64,
    /// Whether the stretch maps byte for byte onto the source (an ASCII run,
    /// or UTF-8 decoded as itself), so that later characters are at the
    /// same distance in both; else it is one item (its characters all have
    /// the item's source offset).
    pub is_run: bool,
}

/// One chunk of the text.
#[derive(Clone, Debug, Default)]
pub struct Chunk {
    /// The text.
    pub text: String,
    /// Where its stretches came from, by increasing `text_offset`; the first
    /// is at 0 unless the text is empty.
    pub origins: Vec<Origin>,
    /// Offsets in `text` of each U+FFFD that a decoding error produced.
    pub error_offsets: Vec<usize>,
}

impl Chunk {
    fn clear(&mut self) {
        self.text.clear();
        self.origins.clear();
        self.error_offsets.clear();
    }

    fn origin(&mut self, source_offset: u64, is_run: bool) {
        self.origins.push(Origin {
            text_offset: self.text.len(),
            source_offset,
            is_run,
        });
    }
}

impl DecodeSink for Chunk {
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
        self.error_offsets.push(self.text.len());
        self.text.push(char::REPLACEMENT_CHARACTER);
    }

    fn skip(&mut self, _reason: SkipReason, _span: ByteSpan) {}
}

/// Reads a [`TextSource`] a chunk at a time.
pub struct SourceReader<'a> {
    source: &'a TextSource,
    decoder: Option<Reader>,
    /// Source bytes read so far.
    position: usize,
}

impl SourceReader<'_> {
    /// Replaces `chunk` with the next part of the text (which may be empty)
    /// and returns whether it is the last.
    pub fn next_chunk(&mut self, chunk: &mut Chunk) -> bool {
        chunk.clear();
        match (self.source, &mut self.decoder) {
            (TextSource::Decode { bytes, .. } | TextSource::Mixed { bytes, .. }, Some(decoder)) => {
                let end = bytes.len().min(self.position + CHUNK_BYTES);
                let last = end == bytes.len();
                let piece = bytes.get(self.position..end).unwrap_or_default();
                decoder.decode(piece, last, chunk);
                self.position = end;
                last
            }
            (TextSource::Text(text) | TextSource::Repaired { text, .. }, _) => {
                let mut end = text.len().min(self.position + CHUNK_BYTES);
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                let piece = text.get(self.position..end).unwrap_or_default();
                if !piece.is_empty() {
                    chunk.origin(self.position as u64, true);
                    chunk.text.push_str(piece);
                }
                if let TextSource::Repaired { errors, .. } = self.source {
                    let first = errors.partition_point(|&offset| offset < self.position);
                    let last = errors.partition_point(|&offset| offset < end);
                    chunk.error_offsets.extend(
                        errors[first..last]
                            .iter()
                            .map(|&offset| offset - self.position),
                    );
                }
                self.position = end;
                end == text.len()
            }
            (TextSource::Decode { .. } | TextSource::Mixed { .. }, None) => true,
        }
    }

    /// Source bytes read so far.
    pub fn done(&self) -> u64 {
        self.position as u64
    }

    /// The encoding decoded, for a decode: the one asked for, or the one a
    /// byte order mark picked (known once the first chunk is read); `None`
    /// for the Mixed reading, which has one per part.
    pub fn decoded_encoding(&self) -> Option<&'static Encoding> {
        match &self.decoder {
            Some(Reader::Plain(decoder)) => Some(decoder.encoding()),
            Some(Reader::Parts(_)) | None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{SHIFT_JIS, UTF_8, UTF_16LE};

    use super::*;

    fn read_all(source: &TextSource) -> (String, Vec<usize>, usize) {
        let mut reader = source.reader();
        let mut chunk = Chunk::default();
        let (mut text, mut errors, mut chunks) = (String::new(), Vec::new(), 0);
        loop {
            let last = reader.next_chunk(&mut chunk);
            errors.extend(chunk.error_offsets.iter().map(|&o| o + text.len()));
            text.push_str(&chunk.text);
            chunks += 1;
            if last {
                return (text, errors, chunks);
            }
        }
    }

    #[test]
    fn a_decode_yields_the_whole_file_decode_in_chunks() {
        let mut bytes = b"\xFF\xFE".to_vec();
        for _ in 0..50_000 {
            bytes.extend("é\n".encode_utf16().flat_map(u16::to_le_bytes));
        }
        let source = TextSource::Decode {
            bytes: FileBytes::from(bytes.clone()),
            encoding: UTF_8,
            bom_handling: BomHandling::Sniff,
        };
        let (text, errors, chunks) = read_all(&source);
        assert_eq!(text, "é\n".repeat(50_000));
        assert!(errors.is_empty());
        assert_eq!(chunks, bytes.len().div_ceil(CHUNK_BYTES));
        let mut reader = source.reader();
        reader.next_chunk(&mut Chunk::default());
        assert_eq!(reader.decoded_encoding(), Some(UTF_16LE));
    }

    #[test]
    fn origins_and_errors_point_into_the_source() {
        let source = TextSource::Decode {
            bytes: FileBytes::from(b"ab\x82\xA0\xFFc".to_vec()),
            encoding: SHIFT_JIS,
            bom_handling: BomHandling::None,
        };
        let mut chunk = Chunk::default();
        assert!(source.reader().next_chunk(&mut chunk));
        assert_eq!(chunk.text, "abあ\u{FFFD}c");
        assert_eq!(chunk.error_offsets, [5]);
        let starts: Vec<(usize, u64, bool)> = chunk
            .origins
            .iter()
            .map(|o| (o.text_offset, o.source_offset, o.is_run))
            .collect();
        assert_eq!(
            starts,
            [(0, 0, true), (2, 2, false), (5, 4, false), (8, 5, false)]
        );
    }

    #[test]
    fn text_is_cut_at_character_boundaries() {
        let text: Arc<str> = Arc::from("日本".repeat(30_000));
        let (read, errors, chunks) = read_all(&TextSource::Text(Arc::clone(&text)));
        assert_eq!(read, *text);
        assert!(errors.is_empty());
        assert_eq!(chunks, 3);
        let (read, _, chunks) = read_all(&TextSource::Text(Arc::from("")));
        assert_eq!((read.as_str(), chunks), ("", 1));
    }

    #[test]
    fn repaired_text_is_read_as_it_is_with_its_lost_bytes() {
        let line = "été \u{FFFD}\n";
        let text: Arc<str> = Arc::from(line.repeat(20_000));
        // Every other U+FFFD stands for lost bytes; the rest were in the file.
        let lost: Vec<usize> = (0..20_000)
            .step_by(2)
            .map(|n| n * line.len() + "été ".len())
            .collect();
        let source = TextSource::Repaired {
            text: Arc::clone(&text),
            decoded_as: UTF_8,
            errors: Arc::from(lost.clone()),
        };
        assert_eq!(source.len(), text.len() as u64);
        let (read, errors, chunks) = read_all(&source);
        assert_eq!(read, *text);
        assert_eq!(errors, lost, "each in its chunk, across chunk edges");
        assert_eq!(chunks, text.len().div_ceil(CHUNK_BYTES));
        assert_eq!(source.reader().decoded_encoding(), None);
    }
}
