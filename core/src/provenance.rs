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

/// What every item of one [`Trace`] segment is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum SegmentKind {
    /// Scalar values that each cover as many input bytes as their UTF-8
    /// length (ASCII in any ASCII-compatible encoding, all of UTF-8): the
    /// segment's bytes and text line up byte for byte, whatever the mix of
    /// lengths.
    SameWidth,
    /// Scalar values, each covering `byte_width` input bytes and written to
    /// the text as `text_width` bytes.
    Scalar,
    /// Pairs of scalar values, each pair written as `text_width` bytes.
    Pair,
    /// Errors of this kind, each written as U+FFFD.
    Error(DecodeErrorKind),
    /// Skipped bytes, which write nothing.
    Skip(SkipReason),
}

/// A run of consecutive items of a [`Trace`] that are alike. Except in a
/// [`SegmentKind::SameWidth`] segment, every item covers `byte_width` input
/// bytes and `text_width` bytes of the text, so the items' spans and text
/// follow from the run's start by multiplication; in a `SameWidth` segment
/// input offsets and text offsets differ by a constant. Either way the trace
/// stores one record per run instead of one per character, and finds the
/// item at a byte offset by binary search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Segment {
    /// Input offset of the first item's first byte.
    byte_start: u64,
    /// Input bytes per item; for `SameWidth`, of the whole segment.
    byte_width: u64,
    /// Offset in `Trace::text` of the first item's text.
    text_start: usize,
    /// How many items.
    count: u64,
    /// Text bytes per item (UTF-8 length of the scalar value, of the pair, 3
    /// for U+FFFD, 0 for a skip); 0 for `SameWidth`.
    text_width: u8,
    kind: SegmentKind,
}

impl Segment {
    /// Offset one past the last item's bytes.
    fn byte_end(&self) -> u64 {
        if self.kind == SegmentKind::SameWidth {
            self.byte_start + self.byte_width
        } else {
            self.byte_start + self.byte_width * self.count
        }
    }

    /// The item at position `index` (below `count`) of a segment other than
    /// `SameWidth`.
    fn item(&self, index: u64, text: &str) -> TraceItem {
        let start = self.byte_start + self.byte_width * index;
        let span = ByteSpan::new(start, start + self.byte_width);
        let text_start = self.text_start + usize::from(self.text_width) * index as usize;
        let mut chars = text
            .get(text_start..text_start + usize::from(self.text_width))
            .unwrap_or_default()
            .chars();
        let mut next = || chars.next().unwrap_or(char::REPLACEMENT_CHARACTER);
        let kind = match self.kind {
            SegmentKind::SameWidth | SegmentKind::Scalar => TraceKind::Scalar(next()),
            SegmentKind::Pair => {
                let first = next();
                TraceKind::Pair(first, next())
            }
            SegmentKind::Error(kind) => TraceKind::Error(kind),
            SegmentKind::Skip(reason) => TraceKind::Skip(reason),
        };
        TraceItem { span, kind }
    }

    /// The text of a `SameWidth` segment.
    fn same_width_text<'a>(&self, text: &'a str) -> &'a str {
        text.get(self.text_start..self.text_start + self.byte_width as usize)
            .unwrap_or_default()
    }

    /// Every item of the segment.
    fn items<'a>(&'a self, text: &'a str) -> impl Iterator<Item = TraceItem> + 'a {
        let same_width = if self.kind == SegmentKind::SameWidth {
            Some(
                self.same_width_text(text)
                    .char_indices()
                    .map(|(position, c)| {
                        let start = self.byte_start + position as u64;
                        TraceItem {
                            span: ByteSpan::new(start, start + c.len_utf8() as u64),
                            kind: TraceKind::Scalar(c),
                        }
                    }),
            )
        } else {
            None
        };
        let fixed = if self.kind == SegmentKind::SameWidth {
            None
        } else {
            Some((0..self.count).map(move |index| self.item(index, text)))
        };
        same_width
            .into_iter()
            .flatten()
            .chain(fixed.into_iter().flatten())
    }

    /// The item covering `byte_offset`, which lies in the segment.
    fn item_at_byte(&self, byte_offset: u64, text: &str) -> Option<TraceItem> {
        let relative = byte_offset - self.byte_start;
        if self.kind != SegmentKind::SameWidth {
            return Some(self.item(relative / self.byte_width, text));
        }
        let own = self.same_width_text(text);
        let mut position = usize::try_from(relative).ok()?;
        while !own.is_char_boundary(position) {
            position -= 1;
        }
        let c = own.get(position..)?.chars().next()?;
        let start = self.byte_start + position as u64;
        Some(TraceItem {
            span: ByteSpan::new(start, start + c.len_utf8() as u64),
            kind: TraceKind::Scalar(c),
        })
    }
}

/// A decode with provenance: the text, and every item with its bytes.
///
/// The items are stored run-length encoded (consecutive items of the same
/// kind and widths share one record); [`items`](Self::items) lists them one
/// by one and [`item_at_byte`](Self::item_at_byte) finds one by offset.
///
/// ```
/// use mojiscope_core::{BomHandling, ByteSpan, TraceItem, TraceKind, SHIFT_JIS};
/// let (trace, _) = SHIFT_JIS.decode_traced(b"ab\x82\xA0\xFF", BomHandling::None);
/// assert_eq!(trace.text, "abあ\u{FFFD}");
/// assert_eq!(trace.len(), 4);
/// assert_eq!(trace.items().nth(2).map(|item| item.span), Some(ByteSpan::new(2, 4)));
/// assert_eq!(
///     trace.item_at_byte(3),
///     Some(TraceItem { span: ByteSpan::new(2, 4), kind: TraceKind::Scalar('あ') })
/// );
/// assert_eq!(trace.error_count(), 1);
/// assert_eq!(trace.item_at_byte(5), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// The decoded text (errors as U+FFFD).
    pub text: String,
    /// The items in input order, run-length encoded. Equal item sequences
    /// give equal segments: an item joins the last segment whenever it can.
    segments: Vec<Segment>,
    /// How many items.
    len: u64,
    /// How many items are errors.
    error_count: u64,
}

impl Trace {
    /// An empty trace.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many items the trace holds.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the trace holds no item.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many items are errors.
    pub fn error_count(&self) -> u64 {
        self.error_count
    }

    /// Every item in input order; together their spans cover the input once.
    pub fn items(&self) -> impl Iterator<Item = TraceItem> + '_ {
        self.segments
            .iter()
            .flat_map(move |segment| segment.items(&self.text))
    }

    /// The item whose span contains `byte_offset`, if any (a binary search).
    pub fn item_at_byte(&self, byte_offset: u64) -> Option<TraceItem> {
        let after = self
            .segments
            .partition_point(|segment| segment.byte_start <= byte_offset);
        let segment = self.segments.get(after.checked_sub(1)?)?;
        if byte_offset >= segment.byte_end() {
            return None;
        }
        segment.item_at_byte(byte_offset, &self.text)
    }

    /// The errors, in input order.
    pub fn errors(&self) -> impl Iterator<Item = (ByteSpan, DecodeErrorKind)> + '_ {
        self.segments
            .iter()
            .filter_map(|segment| match segment.kind {
                SegmentKind::Error(kind) => Some((segment, kind)),
                _ => None,
            })
            .flat_map(|(segment, kind)| {
                (0..segment.count).map(move |index| {
                    let start = segment.byte_start + segment.byte_width * index;
                    (ByteSpan::new(start, start + segment.byte_width), kind)
                })
            })
    }

    /// Records `count` items of a kind other than `SameWidth`, each covering
    /// `byte_width` bytes from `byte_start` on and `text_width` bytes of text
    /// (already appended) from `text_start` on.
    #[inline]
    fn push_items(
        &mut self,
        kind: SegmentKind,
        byte_start: u64,
        byte_width: u64,
        text_start: usize,
        text_width: u8,
        count: u64,
    ) {
        self.len += count;
        if let Some(last) = self.segments.last_mut()
            && last.kind == kind
            && last.byte_width == byte_width
            && last.text_width == text_width
            && last.byte_end() == byte_start
        {
            last.count += count;
            return;
        }
        self.push_segment(Segment {
            byte_start,
            byte_width,
            text_start,
            count,
            text_width,
            kind,
        });
    }

    /// Records `count` scalar values that cover `text_len` bytes of input from
    /// `byte_start` on and the same number of bytes of text (already
    /// appended) from `text_start` on, each as many as its UTF-8 length.
    #[inline]
    fn push_same_width(&mut self, byte_start: u64, text_start: usize, text_len: usize, count: u64) {
        self.len += count;
        if let Some(last) = self.segments.last_mut()
            && last.kind == SegmentKind::SameWidth
            && last.byte_end() == byte_start
        {
            last.byte_width += text_len as u64;
            last.count += count;
            return;
        }
        self.push_segment(Segment {
            byte_start,
            byte_width: text_len as u64,
            text_start,
            count,
            text_width: 0,
            kind: SegmentKind::SameWidth,
        });
    }

    #[cold]
    #[inline(never)]
    fn push_segment(&mut self, segment: Segment) {
        self.segments.push(segment);
    }
}

impl DecodeSink for Trace {
    #[inline]
    fn ascii(&mut self, run: &[u8], start: u64) {
        let text_start = self.text.len();
        self.text
            .push_str(std::str::from_utf8(run).expect("an ASCII run is UTF-8"));
        self.push_same_width(start, text_start, run.len(), run.len() as u64);
    }

    #[inline]
    fn utf8_run(&mut self, run: &str, start: u64) {
        let text_start = self.text.len();
        self.text.push_str(run);
        self.push_same_width(start, text_start, run.len(), run.chars().count() as u64);
    }

    #[inline]
    fn scalar(&mut self, c: char, span: ByteSpan) {
        let text_start = self.text.len();
        self.text.push(c);
        let text_width = c.len_utf8();
        if span.len() == text_width as u64 {
            self.push_same_width(span.start, text_start, text_width, 1);
        } else {
            self.push_items(
                SegmentKind::Scalar,
                span.start,
                span.len(),
                text_start,
                text_width as u8,
                1,
            );
        }
    }

    fn scalar_pair(&mut self, first: char, second: char, span: ByteSpan) {
        let text_start = self.text.len();
        self.text.push(first);
        self.text.push(second);
        let text_width = (first.len_utf8() + second.len_utf8()) as u8;
        self.push_items(
            SegmentKind::Pair,
            span.start,
            span.len(),
            text_start,
            text_width,
            1,
        );
    }

    fn error(&mut self, kind: DecodeErrorKind, span: ByteSpan) {
        let text_start = self.text.len();
        self.text.push(char::REPLACEMENT_CHARACTER);
        self.error_count += 1;
        let text_width = char::REPLACEMENT_CHARACTER.len_utf8() as u8;
        self.push_items(
            SegmentKind::Error(kind),
            span.start,
            span.len(),
            text_start,
            text_width,
            1,
        );
    }

    fn skip(&mut self, reason: SkipReason, span: ByteSpan) {
        let text_start = self.text.len();
        self.push_items(
            SegmentKind::Skip(reason),
            span.start,
            span.len(),
            text_start,
            0,
            1,
        );
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
