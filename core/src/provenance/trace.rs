//! The trace: every decoded item with its byte span, kept compactly (runs
//! of characters of one width share a record), for the views that show
//! where each character came from.

use super::{ByteSpan, CharWidths, DecodeErrorKind, DecodeSink, SkipReason};
use crate::decoder::ascii_prefix_len;

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

/// At most this many items share a [`SegmentKind::Chars`] segment, so that
/// finding one by its offset walks at most this many characters.
const CHARS_PER_SEGMENT: u64 = 256;

/// What every item of one [`Trace`] segment is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum SegmentKind {
    /// Scalar values that each cover as many input bytes as their UTF-8
    /// length (ASCII in any ASCII-compatible encoding, all of UTF-8): the
    /// segment's bytes and text line up byte for byte, whatever the mix of
    /// lengths.
    SameWidth,
    /// Scalar values, each covering `ascii_width` input bytes if it is ASCII
    /// and `other_width` otherwise (0 until the segment has one such item):
    /// text in most encodings, where words of one script and the ASCII
    /// spaces and punctuation between them alternate. Spans follow from the
    /// text by walking it, so such a segment holds at most
    /// [`CHARS_PER_SEGMENT`] items.
    Chars { ascii_width: u8, other_width: u8 },
    /// Pairs of scalar values, each covering `item_width` bytes and written
    /// as `text_width` bytes.
    Pair,
    /// Errors of this kind, each covering `item_width` bytes and written as
    /// U+FFFD.
    Error(DecodeErrorKind),
    /// Skipped bytes, `item_width` each, which write nothing.
    Skip(SkipReason),
}

/// A run of consecutive items of a [`Trace`] that are alike, so that the
/// trace stores one record per run instead of one per character and finds
/// the item at a byte offset by binary search. In a
/// [`SegmentKind::SameWidth`] segment input offsets and text offsets differ
/// by a constant; in a [`SegmentKind::Chars`] segment each character's
/// width in the input follows from whether it is ASCII; in the others every
/// item covers `item_width` input bytes and `text_width` bytes of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Segment {
    /// Input offset of the first item's first byte.
    byte_start: u64,
    /// Input bytes of all the items.
    byte_len: u64,
    /// Offset in `Trace::text` of the first item's text.
    text_start: usize,
    /// Text bytes of all the items.
    text_len: usize,
    /// How many items.
    count: u64,
    /// Input bytes per item (pairs, errors and skips).
    item_width: u64,
    /// Text bytes per item (pairs, errors and skips): the UTF-8 length of
    /// the pair, 3 for U+FFFD, 0 for a skip.
    text_width: u8,
    kind: SegmentKind,
}

impl Segment {
    /// Offset one past the last item's bytes.
    fn byte_end(&self) -> u64 {
        self.byte_start + self.byte_len
    }

    /// The segment's text.
    fn text<'a>(&self, text: &'a str) -> &'a str {
        text.get(self.text_start..self.text_start + self.text_len)
            .unwrap_or_default()
    }

    /// The item at position `index` (below `count`) of a pair, error or skip
    /// segment.
    fn fixed_item(&self, index: u64, text: &str) -> TraceItem {
        let start = self.byte_start + self.item_width * index;
        let span = ByteSpan::new(start, start + self.item_width);
        let text_start = self.text_start + usize::from(self.text_width) * index as usize;
        let mut chars = text
            .get(text_start..text_start + usize::from(self.text_width))
            .unwrap_or_default()
            .chars();
        let mut next = || chars.next().unwrap_or(char::REPLACEMENT_CHARACTER);
        let kind = match self.kind {
            SegmentKind::SameWidth | SegmentKind::Chars { .. } => TraceKind::Scalar(next()),
            SegmentKind::Pair => {
                let first = next();
                TraceKind::Pair(first, next())
            }
            SegmentKind::Error(kind) => TraceKind::Error(kind),
            SegmentKind::Skip(reason) => TraceKind::Skip(reason),
        };
        TraceItem { span, kind }
    }

    /// How many input bytes the character `c` of this segment covers.
    fn char_width(&self, c: char) -> u64 {
        match self.kind {
            SegmentKind::Chars {
                ascii_width,
                other_width,
            } => u64::from(if c.is_ascii() {
                ascii_width
            } else {
                other_width
            }),
            _ => c.len_utf8() as u64,
        }
    }

    /// Every item of the segment.
    fn items<'a>(&'a self, text: &'a str) -> SegmentItems<'a> {
        SegmentItems {
            segment: self,
            text,
            chars: self.text(text).chars(),
            byte_offset: self.byte_start,
            index: 0,
        }
    }

    /// The item covering `byte_offset`, which lies in the segment.
    fn item_at_byte(&self, byte_offset: u64, text: &str) -> Option<TraceItem> {
        let relative = byte_offset - self.byte_start;
        match self.kind {
            SegmentKind::SameWidth => {
                let own = self.text(text);
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
            SegmentKind::Chars { .. } => self
                .items(text)
                .find(|item| item.span.contains(byte_offset)),
            _ => Some(self.fixed_item(relative / self.item_width, text)),
        }
    }
}

impl Segment {
    /// Counts what joined the segment.
    #[inline]
    fn add(&mut self, joined: Joined) {
        self.count += joined.count;
        self.byte_len += joined.byte_len;
        self.text_len += joined.text_len;
    }

    /// Not in spec: joins to this segment the characters at the start of
    /// `text` (the first beginning where the segment ends, each covering as
    /// many input bytes as `widths` says) that [`Trace::push_scalar`] would
    /// join to it one by one, and returns what joined: nothing when the
    /// first would start a segment.
    #[inline]
    fn join_chars(&mut self, text: &str, widths: CharWidths) -> Joined {
        let utf8 = text.as_bytes();
        if self.kind == SegmentKind::SameWidth {
            let joined = same_width_prefix(text, widths);
            if joined.count > 0 {
                self.add(joined);
                return joined;
            }
            // As in `push_scalar`: a short segment of ASCII alone becomes a
            // `Chars` segment when a character that is not ASCII follows,
            // of another width than its UTF-8 length.
            let Some(&lead) = utf8.first() else {
                return Joined::default();
            };
            if lead.is_ascii() || self.byte_len != self.count || self.count >= CHARS_PER_SEGMENT {
                return Joined::default();
            }
            self.kind = SegmentKind::Chars {
                ascii_width: 1,
                other_width: widths.of_utf8_len(utf8_len(lead)),
            };
        }
        let SegmentKind::Chars {
            ascii_width,
            other_width,
        } = &mut self.kind
        else {
            return Joined::default();
        };
        let room = CHARS_PER_SEGMENT.saturating_sub(self.count);
        if room == 0 {
            return Joined::default();
        }
        let ascii = widths.of_utf8_len(1);
        let other = widths.of_utf8_len(2);
        let joined = if other == widths.of_utf8_len(3)
            && (*ascii_width == 0 || *ascii_width == ascii)
            && (*other_width == 0 || *other_width == other)
        {
            // Every character fits (up to one of four UTF-8 bytes, if those
            // have a width of their own): only the room decides.
            let (text_len, ascii_count, other_count) = if widths.of_utf8_len(4) == other {
                count_chars::<false>(utf8, room)
            } else {
                count_chars::<true>(utf8, room)
            };
            if ascii_count > 0 {
                *ascii_width = ascii;
            }
            if other_count > 0 {
                *other_width = other;
            }
            Joined {
                text_len,
                byte_len: ascii_count * u64::from(ascii) + other_count * u64::from(other),
                count: ascii_count + other_count,
            }
        } else {
            // One at a time, as `push_scalar` checks them.
            let mut joined = Joined::default();
            while joined.count < room
                && let Some(&lead) = utf8.get(joined.text_len)
            {
                let len = utf8_len(lead);
                let width = widths.of_utf8_len(len);
                let slot = if lead.is_ascii() {
                    &mut *ascii_width
                } else {
                    &mut *other_width
                };
                if *slot != 0 && *slot != width {
                    break;
                }
                *slot = width;
                joined.text_len += len;
                joined.byte_len += u64::from(width);
                joined.count += 1;
            }
            joined
        };
        self.add(joined);
        joined
    }
}

/// What joined a segment: text bytes, input bytes and items.
#[derive(Clone, Copy, Debug, Default)]
struct Joined {
    text_len: usize,
    byte_len: u64,
    count: u64,
}

/// The length of the UTF-8 sequence `lead` begins (1 for a byte that
/// cannot begin one, which the text handed to a sink never has).
#[inline]
fn utf8_len(lead: u8) -> usize {
    (lead.leading_ones() as usize).max(1)
}

/// The characters at the start of `text` that each cover as many input
/// bytes as their UTF-8 length, by `widths`.
#[inline]
fn same_width_prefix(text: &str, widths: CharWidths) -> Joined {
    if widths == CharWidths::UTF_8 {
        return Joined {
            text_len: text.len(),
            byte_len: text.len() as u64,
            count: count_utf8_chars(text),
        };
    }
    let utf8 = text.as_bytes();
    let mut text_len = 0;
    let mut count = 0;
    while let Some(&lead) = utf8.get(text_len) {
        if lead.is_ascii() {
            if widths.of_utf8_len(1) != 1 {
                break;
            }
            let run = ascii_prefix_len(&utf8[text_len..]);
            text_len += run;
            count += run as u64;
            continue;
        }
        let len = utf8_len(lead);
        if usize::from(widths.of_utf8_len(len)) != len {
            break;
        }
        text_len += len;
        count += 1;
    }
    Joined {
        text_len,
        byte_len: text_len as u64,
        count,
    }
}

/// How many characters `text` holds.
#[inline]
fn count_utf8_chars(text: &str) -> u64 {
    // Text between markup is often ASCII alone, which is quicker to tell.
    if text.is_ascii() {
        text.len() as u64
    } else {
        text.chars().count() as u64
    }
}

/// Bit 7 of every byte of a word.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The sum of the eight bytes of `counts` (a sum below 256).
#[inline]
fn bytes_summed(counts: u64) -> u64 {
    counts.wrapping_mul(0x0101_0101_0101_0101) >> 56
}

/// Counts the characters at the start of `utf8` (whole characters), up to
/// `room` of them and, with `STOP_AT_FOUR`, up to the first of four UTF-8
/// bytes. Returns the bytes they take, how many of them are ASCII and how
/// many are not.
#[inline]
fn count_chars<const STOP_AT_FOUR: bool>(utf8: &[u8], room: u64) -> (usize, u64, u64) {
    let mut text_len = 0;
    let mut ascii = 0;
    let mut other = 0;
    // Four words at a time while the characters they begin fit in the
    // room: a test for ASCII alone, else the bytes that are not ASCII and
    // those that begin a sequence of two or more bytes (bits 7 and 6)
    // summed in each byte of a word, then across the word.
    while let Some(block) = utf8.get(text_len..).and_then(<[u8]>::first_chunk::<32>) {
        let (words, _) = block.as_chunks::<8>();
        let words = words.iter().map(|&word| u64::from_le_bytes(word));
        if words.clone().fold(0, |high, word| high | word) & HIGH_BITS == 0 {
            if ascii + other + 32 > room {
                break;
            }
            ascii += 32;
            text_len += 32;
            continue;
        }
        let (mut high, mut leading, mut four) = (0, 0, 0);
        for word in words {
            high += (word & HIGH_BITS) >> 7;
            let word_leading = word & (word << 1) & HIGH_BITS;
            leading += word_leading >> 7;
            if STOP_AT_FOUR {
                four |= word_leading & (word << 2) & (word << 3);
            }
        }
        if four != 0 {
            break;
        }
        let block_other = bytes_summed(leading);
        let block_ascii = 32 - bytes_summed(high);
        if ascii + other + block_ascii + block_other > room {
            break;
        }
        ascii += block_ascii;
        other += block_other;
        text_len += 32;
    }
    // Then a word at a time, and a byte at a time. The first bytes may
    // continue a character the last block or word began.
    while let Some(&word) = utf8.get(text_len..).and_then(<[u8]>::first_chunk::<8>) {
        let word = u64::from_le_bytes(word);
        let word_leading = word & (word << 1) & HIGH_BITS;
        if STOP_AT_FOUR && word_leading & (word << 2) & (word << 3) != 0 {
            break;
        }
        let word_other = bytes_summed(word_leading >> 7);
        let word_ascii = 8 - bytes_summed((word & HIGH_BITS) >> 7);
        if ascii + other + word_ascii + word_other > room {
            break;
        }
        ascii += word_ascii;
        other += word_other;
        text_len += 8;
    }
    while let Some(&byte) = utf8.get(text_len) {
        if byte & 0xC0 != 0x80 {
            if ascii + other == room || (STOP_AT_FOUR && byte >= 0xF0) {
                break;
            }
            if byte.is_ascii() {
                ascii += 1;
            } else {
                other += 1;
            }
        }
        text_len += 1;
    }
    (text_len, ascii, other)
}

/// The items of one segment, in order.
struct SegmentItems<'a> {
    segment: &'a Segment,
    text: &'a str,
    /// The segment's characters not yet reported (`SameWidth`, `Chars`).
    chars: std::str::Chars<'a>,
    /// Offset of the next item's first byte.
    byte_offset: u64,
    /// Position of the next item (pairs, errors and skips).
    index: u64,
}

impl Iterator for SegmentItems<'_> {
    type Item = TraceItem;

    fn next(&mut self) -> Option<TraceItem> {
        match self.segment.kind {
            SegmentKind::SameWidth | SegmentKind::Chars { .. } => {
                let c = self.chars.next()?;
                let start = self.byte_offset;
                self.byte_offset += self.segment.char_width(c);
                Some(TraceItem {
                    span: ByteSpan::new(start, self.byte_offset),
                    kind: TraceKind::Scalar(c),
                })
            }
            _ => {
                if self.index == self.segment.count {
                    return None;
                }
                let item = self.segment.fixed_item(self.index, self.text);
                self.index += 1;
                Some(item)
            }
        }
    }
}

/// A decode with provenance: the text, and every item with its bytes.
///
/// The items are stored run-length encoded (consecutive items of the same
/// kind share one record); [`items`](Self::items) lists them one by one and
/// [`item_at_byte`](Self::item_at_byte) finds one by offset.
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
    /// give equal segments: an item joins the last segment whenever it can,
    /// however the input was split into calls.
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

    /// An empty trace with room for `capacity` bytes of text.
    pub fn with_text_capacity(capacity: usize) -> Self {
        Self {
            text: String::with_capacity(capacity),
            segments: Vec::with_capacity(capacity / 256),
            ..Self::default()
        }
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
                    let start = segment.byte_start + segment.item_width * index;
                    (ByteSpan::new(start, start + segment.item_width), kind)
                })
            })
    }

    /// The last segment, if the item at `byte_start` may join it.
    #[inline]
    fn last_before(&mut self, byte_start: u64) -> Option<&mut Segment> {
        self.segments
            .last_mut()
            .filter(|last| last.byte_end() == byte_start)
    }

    /// Records `count` pairs, errors or skips of `kind`, each covering
    /// `item_width` bytes from `byte_start` on and `text_width` bytes of
    /// text (already appended) from `text_start` on.
    fn push_fixed(
        &mut self,
        kind: SegmentKind,
        byte_start: u64,
        item_width: u64,
        text_start: usize,
        text_width: u8,
    ) {
        self.len += 1;
        if let Some(last) = self.last_before(byte_start)
            && last.kind == kind
            && last.item_width == item_width
            && last.text_width == text_width
        {
            last.count += 1;
            last.byte_len += item_width;
            last.text_len += usize::from(text_width);
            return;
        }
        self.push_segment(Segment {
            byte_start,
            byte_len: item_width,
            text_start,
            text_len: usize::from(text_width),
            count: 1,
            item_width,
            text_width,
            kind,
        });
    }

    /// Records one scalar value (ASCII or not, as `is_ascii` says) covering
    /// `span` and `text_width` bytes of text (already appended, from
    /// `text_start` on).
    #[inline]
    fn push_scalar(
        &mut self,
        is_ascii: bool,
        span: ByteSpan,
        text_start: usize,
        text_width: usize,
    ) {
        self.len += 1;
        let byte_width = span.len();
        if let Some(last) = self.last_before(span.start) {
            match &mut last.kind {
                SegmentKind::SameWidth if byte_width == text_width as u64 => {
                    last.byte_len += byte_width;
                    last.text_len += text_width;
                    last.count += 1;
                    return;
                }
                // A short segment of ASCII alone is a Chars segment whose
                // ASCII is one byte each, whatever it was started as.
                SegmentKind::SameWidth
                    if last.byte_len == last.count
                        && last.count < CHARS_PER_SEGMENT
                        && !is_ascii =>
                {
                    // Scalars span at most four bytes.
                    last.kind = SegmentKind::Chars {
                        ascii_width: 1,
                        other_width: byte_width as u8,
                    };
                    last.byte_len += byte_width;
                    last.text_len += text_width;
                    last.count += 1;
                    return;
                }
                SegmentKind::Chars {
                    ascii_width,
                    other_width,
                } if last.count < CHARS_PER_SEGMENT => {
                    let width = if is_ascii { ascii_width } else { other_width };
                    if *width == 0 || u64::from(*width) == byte_width {
                        // Scalars span at most four bytes.
                        *width = byte_width as u8;
                        last.byte_len += byte_width;
                        last.text_len += text_width;
                        last.count += 1;
                        return;
                    }
                }
                _ => {}
            }
        }
        self.new_scalar_segment(is_ascii, span, text_start, text_width);
    }

    /// Starts a segment with a scalar value (ASCII or not, as `is_ascii`
    /// says).
    #[cold]
    #[inline(never)]
    fn new_scalar_segment(
        &mut self,
        is_ascii: bool,
        span: ByteSpan,
        text_start: usize,
        text_width: usize,
    ) {
        let byte_width = span.len();
        let kind = if byte_width == text_width as u64 {
            SegmentKind::SameWidth
        } else if is_ascii {
            SegmentKind::Chars {
                ascii_width: byte_width as u8,
                other_width: 0,
            }
        } else {
            SegmentKind::Chars {
                ascii_width: 0,
                other_width: byte_width as u8,
            }
        };
        self.push_segment(Segment {
            byte_start: span.start,
            byte_len: byte_width,
            text_start,
            text_len: text_width,
            count: 1,
            item_width: 0,
            text_width: 0,
            kind,
        });
    }

    /// Records the characters of `text` (already appended to the trace's
    /// text, from `text_start` on), the first covering the input bytes from
    /// `byte_start` on and each as many as `widths` says: what
    /// [`push_scalar`](Self::push_scalar) records for each, most of them
    /// joining the last segment in bulk.
    fn push_chars(&mut self, text: &str, byte_start: u64, text_start: usize, widths: CharWidths) {
        let mut text_offset = 0;
        let mut byte_offset = byte_start;
        while let Some(rest) = text.get(text_offset..).filter(|rest| !rest.is_empty()) {
            if let Some(last) = self.last_before(byte_offset) {
                let joined = last.join_chars(rest, widths);
                if joined.count > 0 {
                    self.len += joined.count;
                    text_offset += joined.text_len;
                    byte_offset += joined.byte_len;
                    continue;
                }
            }
            // A character the segment cannot take as a run: most often
            // the first of a segment.
            let lead = rest.as_bytes()[0];
            let len = utf8_len(lead);
            let width = u64::from(widths.of_utf8_len(len));
            let span = ByteSpan::new(byte_offset, byte_offset + width);
            self.push_scalar(lead.is_ascii(), span, text_start + text_offset, len);
            text_offset += len;
            byte_offset += width;
        }
    }

    /// Records `count` ASCII characters, each covering `unit_len` bytes from
    /// `byte_start` on and one byte of text (already appended) from
    /// `text_start` on: what [`push_scalar`](Self::push_scalar) would record
    /// for each, in fewer steps.
    #[inline]
    fn push_ascii(&mut self, byte_start: u64, text_start: usize, count: usize, unit_len: u8) {
        let mut byte_offset = byte_start;
        let mut text_offset = text_start;
        let mut left = count as u64;
        let unit = u64::from(unit_len);
        while left > 0 {
            if let Some(last) = self.last_before(byte_offset) {
                let joined = match &mut last.kind {
                    SegmentKind::SameWidth if unit_len == 1 => left,
                    SegmentKind::Chars { ascii_width, .. }
                        if (*ascii_width == 0 || *ascii_width == unit_len)
                            && last.count < CHARS_PER_SEGMENT =>
                    {
                        *ascii_width = unit_len;
                        left.min(CHARS_PER_SEGMENT - last.count)
                    }
                    _ => 0,
                };
                if joined > 0 {
                    last.count += joined;
                    last.byte_len += joined * unit;
                    last.text_len += joined as usize;
                    self.len += joined;
                    left -= joined;
                    byte_offset += joined * unit;
                    text_offset += joined as usize;
                    continue;
                }
            }
            self.len += 1;
            let first = ByteSpan::new(byte_offset, byte_offset + unit);
            self.new_scalar_segment(true, first, text_offset, 1);
            left -= 1;
            byte_offset += unit;
            text_offset += 1;
        }
    }

    #[cold]
    #[inline(never)]
    fn push_segment(&mut self, segment: Segment) {
        self.segments.push(segment);
    }

    /// What [`DecodeSink::text_run`] records for text that is not UTF-8,
    /// which the decoders never write: its valid characters one by one, as
    /// the trait's default does.
    #[cold]
    #[inline(never)]
    fn broken_text_run(&mut self, utf8: &[u8], start: u64, widths: CharWidths) {
        let mut byte_offset = start;
        for c in utf8.utf8_chunks().flat_map(|chunk| chunk.valid().chars()) {
            let end = byte_offset + u64::from(widths.of(c));
            self.scalar(c, ByteSpan::new(byte_offset, end));
            byte_offset = end;
        }
    }
}

/// Appends the ASCII bytes `run` to `text`: short runs (between the words
/// of other scripts) a character at a time, which costs less than proving
/// them UTF-8 and calling `memcpy`; longer ones validated with SIMD.
#[inline]
fn push_ascii_text(text: &mut String, run: &[u8]) {
    if run.len() <= 16 {
        text.reserve(run.len());
        for &byte in run {
            text.push(char::from(byte));
        }
    } else {
        text.push_str(simdutf8::basic::from_utf8(run).expect("an ASCII run is UTF-8"));
    }
}

impl DecodeSink for Trace {
    const TAKES_TEXT_RUNS: bool = true;

    #[inline]
    fn text_run(&mut self, utf8: &[u8], start: u64, widths: CharWidths) {
        let Ok(text) = simdutf8::basic::from_utf8(utf8) else {
            self.broken_text_run(utf8, start, widths);
            return;
        };
        let text_start = self.text.len();
        self.text.push_str(text);
        self.push_chars(text, start, text_start, widths);
    }

    #[inline]
    fn ascii(&mut self, run: &[u8], start: u64) {
        push_ascii_text(&mut self.text, run);
        // Not in spec: the common case first, a few words of ASCII joining
        // the segment of the characters before them: what `push_ascii`
        // records, in one step.
        let count = run.len() as u64;
        if let Some(last) = self
            .segments
            .last_mut()
            .filter(|last| last.byte_end() == start)
            && let SegmentKind::Chars { ascii_width, .. } = &mut last.kind
            && *ascii_width <= 1
            && last.count + count <= CHARS_PER_SEGMENT
        {
            *ascii_width = 1;
            last.count += count;
            last.byte_len += count;
            last.text_len += run.len();
            self.len += count;
            return;
        }
        self.push_ascii(start, self.text.len() - run.len(), run.len(), 1);
    }

    #[inline]
    fn ascii_units(&mut self, run: &[u8], start: u64, unit_len: u8) {
        let text_start = self.text.len();
        push_ascii_text(&mut self.text, run);
        self.push_ascii(start, text_start, run.len(), unit_len);
    }

    #[inline]
    fn utf8_run(&mut self, run: &str, start: u64) {
        let joins_chars = self.last_before(start).is_some_and(|last| {
            matches!(last.kind, SegmentKind::Chars { .. }) && last.count < CHARS_PER_SEGMENT
        });
        if joins_chars {
            // Rare (a UTF-8 run after items of another shape): one by one.
            let mut byte_offset = start;
            for c in run.chars() {
                let end = byte_offset + c.len_utf8() as u64;
                self.scalar(c, ByteSpan::new(byte_offset, end));
                byte_offset = end;
            }
            return;
        }
        let text_start = self.text.len();
        self.text.push_str(run);
        let count = count_utf8_chars(run);
        self.len += count;
        if let Some(last) = self.last_before(start)
            && last.kind == SegmentKind::SameWidth
        {
            last.byte_len += run.len() as u64;
            last.text_len += run.len();
            last.count += count;
            return;
        }
        if count > 0 {
            self.push_segment(Segment {
                byte_start: start,
                byte_len: run.len() as u64,
                text_start,
                text_len: run.len(),
                count,
                item_width: 0,
                text_width: 0,
                kind: SegmentKind::SameWidth,
            });
        }
    }

    #[inline]
    fn scalar(&mut self, c: char, span: ByteSpan) {
        // Not in spec: the common case first, a character joining the
        // segment of the characters before it (a space between words, a
        // letter among ASCII ones): what `push_scalar` records, without its
        // other cases.
        if let Some(last) = self
            .segments
            .last_mut()
            .filter(|last| last.byte_end() == span.start)
            && let SegmentKind::Chars {
                ascii_width,
                other_width,
            } = &mut last.kind
            && last.count < CHARS_PER_SEGMENT
        {
            let width = if c.is_ascii() {
                ascii_width
            } else {
                other_width
            };
            if *width == 0 || u64::from(*width) == span.len() {
                // Scalars span at most four bytes.
                *width = span.len() as u8;
                self.text.push(c);
                last.count += 1;
                last.byte_len += span.len();
                last.text_len += c.len_utf8();
                self.len += 1;
                return;
            }
        }
        let text_start = self.text.len();
        self.text.push(c);
        self.push_scalar(c.is_ascii(), span, text_start, c.len_utf8());
    }

    /// What [`scalar`](Self::scalar) records for each character, with the
    /// last segment looked up once for all those that join it (a word's
    /// letters and the spaces between words, in most encodings) rather
    /// than once for each.
    fn scalar_units(&mut self, run: &[char], start: u64, unit_len: u8) {
        let unit = u64::from(unit_len);
        let mut byte_offset = start;
        let mut rest = run;
        while let Some((&first, after)) = rest.split_first() {
            if let Some(last) = self
                .segments
                .last_mut()
                .filter(|last| last.byte_end() == byte_offset)
                && let SegmentKind::Chars {
                    ascii_width,
                    other_width,
                } = &mut last.kind
            {
                // The same steps as `push_scalar` takes for a character that
                // joins a `Chars` segment.
                let mut joined = 0;
                for &c in rest {
                    if last.count >= CHARS_PER_SEGMENT {
                        break;
                    }
                    let width = if c.is_ascii() {
                        &mut *ascii_width
                    } else {
                        &mut *other_width
                    };
                    if *width != 0 && *width != unit_len {
                        break;
                    }
                    *width = unit_len;
                    self.text.push(c);
                    last.count += 1;
                    last.byte_len += unit;
                    last.text_len += c.len_utf8();
                    joined += 1;
                }
                if joined > 0 {
                    self.len += joined as u64;
                    byte_offset += joined as u64 * unit;
                    rest = &rest[joined..];
                    continue;
                }
            }
            let text_start = self.text.len();
            self.text.push(first);
            let span = ByteSpan::new(byte_offset, byte_offset + unit);
            self.push_scalar(first.is_ascii(), span, text_start, first.len_utf8());
            byte_offset += unit;
            rest = after;
        }
    }

    fn scalar_pair(&mut self, first: char, second: char, span: ByteSpan) {
        let text_start = self.text.len();
        self.text.push(first);
        self.text.push(second);
        let text_width = (first.len_utf8() + second.len_utf8()) as u8;
        self.push_fixed(
            SegmentKind::Pair,
            span.start,
            span.len(),
            text_start,
            text_width,
        );
    }

    fn error(&mut self, kind: DecodeErrorKind, span: ByteSpan) {
        let text_start = self.text.len();
        self.text.push(char::REPLACEMENT_CHARACTER);
        self.error_count += 1;
        let text_width = char::REPLACEMENT_CHARACTER.len_utf8() as u8;
        self.push_fixed(
            SegmentKind::Error(kind),
            span.start,
            span.len(),
            text_start,
            text_width,
        );
    }

    fn skip(&mut self, reason: SkipReason, span: ByteSpan) {
        let text_start = self.text.len();
        self.push_fixed(
            SegmentKind::Skip(reason),
            span.start,
            span.len(),
            text_start,
            0,
        );
    }
}
