//! Byte provenance: where in the input every decoded item came from.
//!
//! A decoder turns its input into a sequence of *items*. Each item covers a
//! half-open [`ByteSpan`] of the input, and the items of one decode cover every
//! input byte exactly once, in order:
//! - a scalar value (or, for Big5, a pair of them) and the bytes that made it;
//! - an error and the bytes it consumed (in replacement mode it becomes U+FFFD);
//! - bytes that produce nothing: a byte order mark, an ISO-2022-JP escape sequence.
//!
//! Bytes the standard *restores* to the input after an error belong to the
//! item that later consumes them, not to the error: in UTF-8, `E3 41` is an
//! error covering `E3` followed by the scalar `A` covering `41`.

use std::fmt;

mod trace;

pub use trace::{Trace, TraceItem, TraceKind};

/// A half-open range of byte offsets into a decoder's input: `start..end`.
///
/// Offsets count from the first byte given to the decoder (a byte order mark
/// included) and are `u64` so that they can name positions in files of any
/// size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ByteSpan {
    /// Offset of the first byte.
    pub start: u64,
    /// Offset one past the last byte.
    pub end: u64,
}

impl ByteSpan {
    /// The span `start..end`.
    pub const fn new(start: u64, end: u64) -> Self {
        debug_assert!(start <= end);
        Self { start, end }
    }

    /// How many bytes the span covers.
    pub const fn len(self) -> u64 {
        self.end - self.start
    }

    /// Whether the span covers no byte.
    pub const fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// Whether `byte_offset` lies inside the span.
    pub const fn contains(self, byte_offset: u64) -> bool {
        self.start <= byte_offset && byte_offset < self.end
    }
}

impl fmt::Display for ByteSpan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// Why a decoder reported an error for a span of bytes.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecodeErrorKind {
    /// A byte that cannot begin a sequence here (0x80 in UTF-8, 0xFF in
    /// Shift_JIS, a byte outside the current ISO-2022-JP state's range).
    InvalidByte,
    /// The bytes of this error began a sequence, but the byte after them cannot
    /// continue it. That byte was restored to the input and decoded afresh, so
    /// it is not part of this error.
    UnexpectedByte,
    /// A leading byte followed by a byte outside the trailing range: the pair
    /// has no pointer, and both bytes were consumed.
    InvalidTrail,
    /// A well-formed sequence whose pointer has no code point in the index.
    /// Where the trailing byte was an ASCII byte it was restored to the input,
    /// and the error covers only the leading byte.
    UnassignedPointer {
        /// The pointer computed from the bytes, as the standard defines it.
        pointer: u32,
    },
    /// The input ended in the middle of a sequence.
    TruncatedSequence,
    /// UTF-16: a surrogate code unit without its partner.
    UnpairedSurrogate,
    /// ISO-2022-JP: an escape byte (0x1B) that does not begin one of the five
    /// recognised escape sequences.
    InvalidEscape,
    /// ISO-2022-JP: an escape sequence directly after another one, with no
    /// text between them. The escape sequence still takes effect.
    EmptySegment,
    /// The replacement encoding: its decoder turns any input into one error.
    ReplacementEncoding,
}

impl DecodeErrorKind {
    /// A short description for people, lowercase, no trailing period.
    pub fn describe(self) -> &'static str {
        match self {
            Self::InvalidByte => "invalid byte",
            Self::UnexpectedByte => "incomplete sequence (the next byte cannot continue it)",
            Self::InvalidTrail => "trailing byte out of range",
            Self::UnassignedPointer { .. } => "pointer not in the index",
            Self::TruncatedSequence => "sequence truncated at end of input",
            Self::UnpairedSurrogate => "unpaired surrogate",
            Self::InvalidEscape => "invalid escape sequence",
            Self::EmptySegment => "escape sequence with no text since the previous one",
            Self::ReplacementEncoding => "the replacement encoding decodes any input as an error",
        }
    }
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnassignedPointer { pointer } => write!(f, "pointer {pointer} not in the index"),
            other => f.write_str(other.describe()),
        }
    }
}

/// Why a span of bytes produced no output and no error.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SkipReason {
    /// A byte order mark, removed by BOM sniffing.
    Bom,
    /// An ISO-2022-JP escape sequence that switched the decoder's state.
    EscapeSequence,
    /// Bytes after the replacement encoding's one error, which its decoder
    /// never reads.
    Unread,
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Bom => "byte order mark",
            Self::EscapeSequence => "escape sequence",
            Self::Unread => "not read (the replacement decoder stops at its error)",
        })
    }
}

/// Not in spec: how many input bytes each character of a run of decoded
/// text covers ([`DecodeSink::text_run`]), by the length of its UTF-8
/// encoding.
/// The decoders' fast paths write text of one shape at a time: in the
/// single-byte encodings every character covers one byte, in the two-byte
/// sequences of the CJK encodings an ASCII character one and any other two,
/// in UTF-16 a character of the Basic Multilingual Plane two and any other
/// four, in UTF-8 as many as it writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CharWidths {
    /// Input bytes of a character of one, two, three and four UTF-8 bytes.
    by_utf8_len: [u8; 4],
}

impl CharWidths {
    /// Every character covers one byte.
    pub(crate) const SINGLE_BYTE: Self = Self {
        by_utf8_len: [1, 1, 1, 1],
    };
    /// ASCII covers one byte, every other character two.
    pub(crate) const PAIRS: Self = Self {
        by_utf8_len: [1, 2, 2, 2],
    };
    /// UTF-16: two bytes a code unit.
    pub(crate) const UTF_16: Self = Self {
        by_utf8_len: [2, 2, 2, 4],
    };
    /// UTF-8: every character covers the bytes it is written as.
    pub(crate) const UTF_8: Self = Self {
        by_utf8_len: [1, 2, 3, 4],
    };

    /// How many input bytes a character of `utf8_len` UTF-8 bytes (1 to 4)
    /// covers.
    #[inline]
    pub const fn of_utf8_len(self, utf8_len: usize) -> u8 {
        self.by_utf8_len[utf8_len.wrapping_sub(1) & 3]
    }

    /// How many input bytes `c` covers.
    #[inline]
    pub const fn of(self, c: char) -> u8 {
        self.of_utf8_len(c.len_utf8())
    }
}

/// Receives a decoder's items in input order.
///
/// The decoders are generic over their sink, so one implementation serves the
/// plain decode to a `String` (which ignores spans) and the traced decode
/// (which keeps them). Implement it to count errors, index lines or anything
/// else without materialising the text.
pub trait DecodeSink {
    /// A run of ASCII bytes, each of which decodes to the scalar value of the
    /// same number and covers one byte; `start` is the offset of `run[0]`.
    fn ascii(&mut self, run: &[u8], start: u64);
    /// A run of valid UTF-8 that a UTF-8 decoder decodes to itself, each
    /// character covering its own bytes; `start` is the offset of the run's
    /// first byte.
    fn utf8_run(&mut self, run: &str, start: u64) {
        let mut byte_offset = start;
        for c in run.chars() {
            let end = byte_offset + c.len_utf8() as u64;
            self.scalar(c, ByteSpan::new(byte_offset, end));
            byte_offset = end;
        }
    }
    /// A run of ASCII characters each decoded from a code unit of
    /// `unit_len` bytes (two, in UTF-16): `run[i]` covers the `unit_len`
    /// bytes from `start + i * unit_len`.
    fn ascii_units(&mut self, run: &[u8], start: u64, unit_len: u8) {
        let unit_len = u64::from(unit_len);
        let mut byte_offset = start;
        for &byte in run {
            self.scalar(
                char::from(byte),
                ByteSpan::new(byte_offset, byte_offset + unit_len),
            );
            byte_offset += unit_len;
        }
    }
    /// A run of scalar values each decoded from `unit_len` bytes (one for
    /// the single-byte decoders, two for the two-byte sequences of the CJK
    /// decoders and for UTF-16 code units): `run[i]` covers the `unit_len`
    /// bytes from `start + i * unit_len`. The decoders report the
    /// characters of a word this way, a batch at a time.
    fn scalar_units(&mut self, run: &[char], start: u64, unit_len: u8) {
        let unit_len = u64::from(unit_len);
        let mut byte_offset = start;
        for &c in run {
            self.scalar(c, ByteSpan::new(byte_offset, byte_offset + unit_len));
            byte_offset += unit_len;
        }
    }
    /// Not in spec: `true` for a sink that keeps the decoded text and
    /// nothing else (not where each character came from, nor where one
    /// item ends and the next begins). The decoders' fast paths then write
    /// whole stretches of decoded text as UTF-8 themselves and hand them
    /// over through [`text`](Self::text), rather than item by item, as the
    /// plain decodes to a `String` and to UTF-8 bytes do. Errors and
    /// whatever the fast paths leave still come through the other methods,
    /// in input order.
    const TEXT_ONLY: bool = false;
    /// Decoded text as UTF-8 (whole characters, always valid UTF-8): the
    /// characters of the items that follow the last one reported. Called
    /// only on sinks whose [`TEXT_ONLY`](Self::TEXT_ONLY) is `true`, which
    /// must implement it; the default keeps nothing.
    fn text(&mut self, utf8: &[u8]) {
        debug_assert!(!Self::TEXT_ONLY, "a text-only sink must take text");
        let _ = utf8;
    }
    /// Not in spec: `true` for a sink that keeps where each character came
    /// from, but would rather take the common valid cases as runs of
    /// decoded text with the widths of their characters
    /// ([`text_run`](Self::text_run)) than item by item, as a [`Trace`]
    /// does. The decoders' fast paths then write the text as for a
    /// [`TEXT_ONLY`](Self::TEXT_ONLY) sink.
    const TAKES_TEXT_RUNS: bool = false;
    /// Decoded text as UTF-8 (whole characters, always valid UTF-8): one
    /// scalar value item for each character, the first covering the input
    /// bytes from `start` on, each as many as `widths` says, each beginning
    /// where the one before it ends. Called only on sinks whose
    /// [`TEXT_ONLY`](Self::TEXT_ONLY) or
    /// [`TAKES_TEXT_RUNS`](Self::TAKES_TEXT_RUNS) is `true`. The default
    /// hands the text of a text-only sink to [`text`](Self::text), and any
    /// other sink's characters one by one to [`scalar`](Self::scalar).
    #[inline]
    fn text_run(&mut self, utf8: &[u8], start: u64, widths: CharWidths) {
        if Self::TEXT_ONLY {
            self.text(utf8);
            return;
        }
        let mut byte_offset = start;
        for c in utf8.utf8_chunks().flat_map(|chunk| chunk.valid().chars()) {
            let end = byte_offset + u64::from(widths.of(c));
            self.scalar(c, ByteSpan::new(byte_offset, end));
            byte_offset = end;
        }
    }
    /// One scalar value decoded from `span`.
    fn scalar(&mut self, c: char, span: ByteSpan);
    /// Two scalar values decoded together from `span` (Big5 has four such
    /// sequences).
    fn scalar_pair(&mut self, first: char, second: char, span: ByteSpan);
    /// An error covering `span`. Only replacement mode reports errors here;
    /// fatal mode returns them instead.
    fn error(&mut self, kind: DecodeErrorKind, span: ByteSpan);
    /// Bytes that produced nothing.
    fn skip(&mut self, reason: SkipReason, span: ByteSpan);
}

/// The plain decode: text only, each error written as U+FFFD.
impl DecodeSink for String {
    #[inline]
    fn ascii(&mut self, run: &[u8], _start: u64) {
        // The driver hands over ASCII bytes only, which are always valid
        // UTF-8; validating them again is a fast word-at-a-time check.
        self.push_str(std::str::from_utf8(run).expect("an ASCII run is UTF-8"));
    }

    #[inline]
    fn utf8_run(&mut self, run: &str, _start: u64) {
        self.push_str(run);
    }

    #[inline]
    fn scalar(&mut self, c: char, _span: ByteSpan) {
        self.push(c);
    }

    #[inline]
    fn scalar_pair(&mut self, first: char, second: char, _span: ByteSpan) {
        self.push(first);
        self.push(second);
    }

    #[inline]
    fn error(&mut self, _kind: DecodeErrorKind, _span: ByteSpan) {
        self.push(char::REPLACEMENT_CHARACTER);
    }

    #[inline]
    fn skip(&mut self, _reason: SkipReason, _span: ByteSpan) {}
}

/// Counts errors without keeping any text: the cheapest useful sink.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ErrorCounter {
    /// Errors seen so far.
    pub errors: u64,
    /// Offset of the first error, if any.
    pub first_error: Option<u64>,
}

impl DecodeSink for ErrorCounter {
    #[inline]
    fn ascii(&mut self, _run: &[u8], _start: u64) {}
    #[inline]
    fn utf8_run(&mut self, _run: &str, _start: u64) {}
    #[inline]
    fn scalar(&mut self, _c: char, _span: ByteSpan) {}
    #[inline]
    fn scalar_pair(&mut self, _first: char, _second: char, _span: ByteSpan) {}
    #[inline]
    fn error(&mut self, _kind: DecodeErrorKind, span: ByteSpan) {
        self.errors += 1;
        self.first_error.get_or_insert(span.start);
    }
    #[inline]
    fn skip(&mut self, _reason: SkipReason, _span: ByteSpan) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        BIG5, BomHandling, DecodeErrorMode, Decoder, EUC_KR, Encoding, UTF_8, UTF_16LE,
        WINDOWS_1251, WINDOWS_1252,
    };

    /// Every item, one record each: what a trace must give back.
    #[derive(Default)]
    struct Recorder(Vec<TraceItem>);

    impl DecodeSink for Recorder {
        fn ascii(&mut self, run: &[u8], start: u64) {
            for (position, &byte) in run.iter().enumerate() {
                let byte_offset = start + position as u64;
                self.scalar(
                    char::from(byte),
                    ByteSpan::new(byte_offset, byte_offset + 1),
                );
            }
        }
        fn scalar(&mut self, c: char, span: ByteSpan) {
            self.0.push(TraceItem {
                span,
                kind: TraceKind::Scalar(c),
            });
        }
        fn scalar_pair(&mut self, first: char, second: char, span: ByteSpan) {
            self.0.push(TraceItem {
                span,
                kind: TraceKind::Pair(first, second),
            });
        }
        fn error(&mut self, kind: DecodeErrorKind, span: ByteSpan) {
            self.0.push(TraceItem {
                span,
                kind: TraceKind::Error(kind),
            });
        }
        fn skip(&mut self, reason: SkipReason, span: ByteSpan) {
            self.0.push(TraceItem {
                span,
                kind: TraceKind::Skip(reason),
            });
        }
    }

    fn decode_in_chunks<S: DecodeSink>(
        encoding: &'static Encoding,
        bytes: &[u8],
        chunk: usize,
        sink: &mut S,
    ) {
        let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
        let mut chunks = bytes.chunks(chunk).peekable();
        while let Some(piece) = chunks.next() {
            let _ = decoder.decode(piece, chunks.peek().is_none(), sink);
        }
    }

    /// The trace of `bytes` holds exactly the recorded items, finds each by
    /// every one of its offsets, and is the same however the input is split.
    fn check_trace(encoding: &'static Encoding, bytes: &[u8]) {
        let mut recorder = Recorder::default();
        decode_in_chunks(encoding, bytes, bytes.len().max(1), &mut recorder);
        let (trace, _) = encoding.decode_traced(bytes, BomHandling::None);
        let items: Vec<TraceItem> = trace.items().collect();
        assert!(items == recorder.0, "{encoding}: the items differ");
        assert_eq!(trace.len(), items.len() as u64);
        let mut text = String::new();
        for item in &items {
            item.push_text(&mut text);
            for byte_offset in item.span.start..item.span.end {
                assert_eq!(
                    trace.item_at_byte(byte_offset),
                    Some(*item),
                    "{encoding} {byte_offset}"
                );
            }
        }
        assert_eq!(trace.text, text);
        assert_eq!(trace.item_at_byte(bytes.len() as u64), None);
        for chunk in [1, 3, 64, 1000] {
            let mut split = Trace::new();
            decode_in_chunks(encoding, bytes, chunk, &mut split);
            assert!(split == trace, "{encoding}: chunks of {chunk}");
        }
    }

    #[test]
    fn traces_of_long_texts_in_every_shape_of_segment() {
        let words = "съешь же ещё этих мягких французских булок, да выпей чаю. ";
        check_trace(
            WINDOWS_1251,
            &encoding_rs::WINDOWS_1251.encode(&words.repeat(30)).0,
        );
        let latin = "Le marché du samedi était plein de légumes frais, à côté. ";
        check_trace(
            WINDOWS_1252,
            &encoding_rs::WINDOWS_1252.encode(&latin.repeat(30)).0,
        );
        let korean = "아침 일찍 시장에 갔더니 상인들이 신선한 채소를 진열하고 있었습니다. ";
        check_trace(EUC_KR, &encoding_rs::EUC_KR.encode(&korean.repeat(30)).0);
        // Big5's pairs of code points among ordinary pairs and ASCII.
        check_trace(BIG5, &b"\x88\x62\x88\x64ab\xA4\x40".repeat(100));
        let mixed = "ASCII only for a long while, then: это, 日本語, and 😀 too. ";
        let utf16: Vec<u8> = mixed
            .repeat(20)
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        check_trace(UTF_16LE, &utf16);
        // Errors between the runs.
        let mut broken = mixed.repeat(20).into_bytes();
        for byte in broken.iter_mut().step_by(37) {
            *byte = 0xFF;
        }
        check_trace(UTF_8, &broken);
        check_trace(WINDOWS_1251, &broken);
        check_trace(EUC_KR, &broken);
    }

    /// A trace fed one item at a time: every run is split into its
    /// characters, and the stretches of text the decoders hand a trace in
    /// bulk reach it as scalars.
    #[derive(Default)]
    struct OneByOne(Trace);

    impl DecodeSink for OneByOne {
        fn ascii(&mut self, run: &[u8], start: u64) {
            for (position, &byte) in run.iter().enumerate() {
                let byte_offset = start + position as u64;
                self.0.scalar(
                    char::from(byte),
                    ByteSpan::new(byte_offset, byte_offset + 1),
                );
            }
        }
        fn scalar(&mut self, c: char, span: ByteSpan) {
            self.0.scalar(c, span);
        }
        fn scalar_pair(&mut self, first: char, second: char, span: ByteSpan) {
            self.0.scalar_pair(first, second, span);
        }
        fn error(&mut self, kind: DecodeErrorKind, span: ByteSpan) {
            self.0.error(kind, span);
        }
        fn skip(&mut self, reason: SkipReason, span: ByteSpan) {
            self.0.skip(reason, span);
        }
    }

    /// Text in pieces of every shape a segment may take, chosen by a fixed
    /// pseudo-random sequence: words of several scripts, runs of ASCII
    /// longer than a segment, letters of two UTF-8 bytes among those of
    /// three, characters past U+FFFF, half-width katakana.
    fn mixed_text(seed: u64, pieces: usize) -> String {
        const PIECES: [&str; 12] = [
            "съешь же ещё этих мягких булок ",
            "Le marché était plein, à côté. ",
            "中文字符和標點符號，",
            "日本語の文章です。",
            "ｶﾀｶﾅ ",
            "한국어 텍스트 ",
            "Ελληνικά γράμματα ",
            "αβγ中δε文ζη ",
            "😀x🎉",
            "ä",
            " ",
            "<p class=\"item\">",
        ];
        let mut state = seed;
        let mut text = String::new();
        for _ in 0..pieces {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let choice = (state >> 32) as usize;
            if choice.is_multiple_of(29) {
                // ASCII alone, longer than a segment of characters.
                text.push_str(&"plain ascii words ".repeat(1 + choice % 30));
            } else {
                text.push_str(&PIECES[choice % PIECES.len()].repeat(1 + choice % 7));
            }
        }
        text
    }

    #[test]
    fn text_handed_over_in_bulk_makes_the_segments_of_items_one_by_one() {
        use crate::{ALL, X_USER_DEFINED};
        for &encoding in &ALL {
            for seed in 1..4_u64 {
                let text = mixed_text(seed, 400);
                let mut bytes = if encoding == X_USER_DEFINED {
                    // Bytes of every value: half of them ASCII.
                    text.bytes()
                        .map(|byte| byte.wrapping_mul(seed as u8 | 1))
                        .collect()
                } else if encoding.name().starts_with("UTF-16") {
                    let big_endian = encoding.name() == "UTF-16BE";
                    text.encode_utf16()
                        .flat_map(|unit| {
                            if big_endian {
                                unit.to_be_bytes()
                            } else {
                                unit.to_le_bytes()
                            }
                        })
                        .collect()
                } else {
                    let theirs = encoding_rs::Encoding::for_label(encoding.name().as_bytes())
                        .expect("encoding_rs knows every encoding by its name");
                    theirs.encode(&text).0.into_owned()
                };
                if seed == 3 {
                    // Errors between the runs.
                    for byte in bytes.iter_mut().step_by(97) {
                        *byte = 0xFF;
                    }
                }
                let (trace, _) = encoding.decode_traced(&bytes, BomHandling::None);
                for chunk in [bytes.len().max(1), 1000, 7] {
                    let mut one_by_one = OneByOne::default();
                    decode_in_chunks(encoding, &bytes, chunk, &mut one_by_one);
                    assert!(
                        one_by_one.0 == trace,
                        "{encoding}, seed {seed}, chunks of {chunk}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_run_of_text_that_is_not_utf8_keeps_its_valid_characters() {
        let mut trace = Trace::new();
        trace.text_run(b"a\xFF\xC3\xA9", 10, CharWidths::PAIRS);
        assert_eq!(trace.text, "a\u{e9}");
        let items: Vec<TraceItem> = trace.items().collect();
        assert_eq!(
            items,
            [
                TraceItem {
                    span: ByteSpan::new(10, 11),
                    kind: TraceKind::Scalar('a'),
                },
                TraceItem {
                    span: ByteSpan::new(11, 13),
                    kind: TraceKind::Scalar('\u{e9}'),
                },
            ]
        );
    }
}
