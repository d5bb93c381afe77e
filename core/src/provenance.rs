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

/// What one traced item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceKind {
    /// A decoded scalar value.
    Scalar(char),
    /// Two scalar values decoded from one sequence.
    Pair(char, char),
    /// An error (written as U+FFFD in replacement mode).
    Error(DecodeErrorKind),
    /// Bytes that produced nothing.
    Skip(SkipReason),
}

/// One item of a traced decode and the bytes it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TraceItem {
    /// The bytes of the input this item came from.
    pub span: ByteSpan,
    /// What they became.
    pub kind: TraceKind,
}

impl TraceItem {
    /// The text this item contributes to a replacement-mode decode.
    pub fn push_text(&self, text: &mut String) {
        match self.kind {
            TraceKind::Scalar(c) => text.push(c),
            TraceKind::Pair(a, b) => {
                text.push(a);
                text.push(b);
            }
            TraceKind::Error(_) => text.push(char::REPLACEMENT_CHARACTER),
            TraceKind::Skip(_) => {}
        }
    }
}

/// A decode with provenance: the text, and every item with its bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// The decoded text (errors as U+FFFD).
    pub text: String,
    /// Every item in input order; together their spans cover the input once.
    pub items: Vec<TraceItem>,
    /// How many items are errors.
    pub error_count: u64,
}

impl Trace {
    /// An empty trace.
    pub fn new() -> Self {
        Self::default()
    }

    /// The errors, in input order.
    pub fn errors(&self) -> impl Iterator<Item = (ByteSpan, DecodeErrorKind)> + '_ {
        self.items.iter().filter_map(|item| match item.kind {
            TraceKind::Error(kind) => Some((item.span, kind)),
            _ => None,
        })
    }
}

impl DecodeSink for Trace {
    fn ascii(&mut self, run: &[u8], start: u64) {
        self.text.extend(run.iter().map(|&b| char::from(b)));
        self.items.reserve(run.len());
        for (byte_offset, &b) in (start..).zip(run) {
            self.items.push(TraceItem {
                span: ByteSpan::new(byte_offset, byte_offset + 1),
                kind: TraceKind::Scalar(char::from(b)),
            });
        }
    }

    fn scalar(&mut self, c: char, span: ByteSpan) {
        self.text.push(c);
        self.items.push(TraceItem {
            span,
            kind: TraceKind::Scalar(c),
        });
    }

    fn scalar_pair(&mut self, first: char, second: char, span: ByteSpan) {
        self.text.push(first);
        self.text.push(second);
        self.items.push(TraceItem {
            span,
            kind: TraceKind::Pair(first, second),
        });
    }

    fn error(&mut self, kind: DecodeErrorKind, span: ByteSpan) {
        self.text.push(char::REPLACEMENT_CHARACTER);
        self.error_count += 1;
        self.items.push(TraceItem {
            span,
            kind: TraceKind::Error(kind),
        });
    }

    fn skip(&mut self, reason: SkipReason, span: ByteSpan) {
        self.items.push(TraceItem {
            span,
            kind: TraceKind::Skip(reason),
        });
    }
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
