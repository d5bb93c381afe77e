//! Not in spec: the driver's fast paths. At an item boundary they decode
//! the common valid cases in tight loops (ASCII runs copied in bulk, valid
//! UTF-8 validated and copied in runs, single bytes and pairs looked up in
//! flat tables, UTF-16 code units gathered from whole chunks) and hand
//! them to the sink in batches; whatever needs the handler's full steps (an
//! error in fatal mode, a pending sequence, a change of state) they leave
//! to the handler, which stays the reference. The items they report are
//! exactly those the handler would have produced byte by byte, with the
//! same spans.

use super::{DecodeErrorMode, Handler, Step, text_runs};
use crate::provenance::{ByteSpan, DecodeErrorKind, DecodeSink};
use crate::utf8;

/// Not in spec: a two-byte decoder's common cases as flat tables (see
/// [`Handler::pair_table`]): which bytes lead a pair and which are errors
/// on their own, the pointer of a leading byte and a trailing byte
/// (`leading[lead] + trailing[trail]`), which trailing bytes are out of
/// range, and the code point of each pointer.
#[derive(Debug)]
pub(crate) struct PairTable {
    /// Per byte: the pointer of the sequence it begins with the first
    /// trailing byte, [`PairTable::INVALID_BYTE`], or
    /// [`PairTable::TO_HANDLER`].
    leading: [u16; 256],
    /// Per byte: what it adds to the pointer as a trailing byte,
    /// [`PairTable::INVALID_TRAIL`], or [`PairTable::TRAIL_TO_HANDLER`].
    /// Both marks, like those of `leading`, make a pointer past the end of
    /// every table, so that one bounds check sets all of them apart.
    trailing: [u16; 256],
    /// The code point of each pointer: 0 for none (an error, as past the
    /// end of the table), [`PairTable::HANDLER_CODE_POINT`] where the
    /// handler does something else.
    code_points: &'static [u16],
    /// The same as UTF-8 table entries (see `text_runs::utf8_entry`).
    utf8: &'static [u32],
}

/// What a [`PairTable`] says about a byte and the byte after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PairLookup {
    /// The two bytes decode to this code point.
    Scalar(char),
    /// An error consuming the first `len` bytes (a trailing byte that is
    /// ASCII is restored, and so not consumed).
    Error { kind: DecodeErrorKind, len: u8 },
    /// The handler's steps decide.
    Handler,
}

impl PairTable {
    /// In `leading`: the handler decides (ASCII, single bytes, special
    /// leading bytes).
    pub(crate) const TO_HANDLER: u16 = u16::MAX;
    /// In `leading`: a byte that is an invalid-byte error on its own.
    pub(crate) const INVALID_BYTE: u16 = u16::MAX - 1;
    /// In `trailing`: the handler decides (gb18030's digits).
    pub(crate) const TRAIL_TO_HANDLER: u16 = 0x8001;
    /// In `trailing`: a byte outside the trailing range.
    pub(crate) const INVALID_TRAIL: u16 = 0x8000;
    /// In `code_points`: a surrogate, which no index has, marking pointers
    /// the handler decodes otherwise than by the table.
    pub(crate) const HANDLER_CODE_POINT: u16 = 0xD800;

    /// The table for leading bytes in the ranges `leading` (first byte, last
    /// byte, and the row of the first; each row is `row_len` pointers),
    /// bytes that are errors on their own in `invalid`, trailing bytes in
    /// the ranges `trailing` (first byte, last byte, and the column of the
    /// first), bytes after a leading byte that the handler decides in
    /// `trailing_to_handler` (all others are out of range), and code points
    /// `code_points`, also as the UTF-8 table entries `utf8` (built by
    /// `text_runs::utf8_table`).
    pub(crate) const fn new(
        leading: &[(u8, u8, u16)],
        row_len: u16,
        invalid: &[u8],
        trailing: &[(u8, u8, u8)],
        trailing_to_handler: &[(u8, u8)],
        code_points: &'static [u16],
        utf8: &'static [u32],
    ) -> Self {
        assert!(
            code_points.len() == utf8.len() && code_points.len() < Self::INVALID_TRAIL as usize,
            "the marks make pointers past the end of the table"
        );
        let mut table = Self {
            leading: [Self::TO_HANDLER; 256],
            trailing: [Self::INVALID_TRAIL; 256],
            code_points,
            utf8,
        };
        let mut range = 0;
        while range < leading.len() {
            let (first, last, first_row) = leading[range];
            let mut byte = first;
            while byte <= last {
                table.leading[byte as usize] = (first_row + (byte - first) as u16) * row_len;
                if byte == u8::MAX {
                    break;
                }
                byte += 1;
            }
            range += 1;
        }
        let mut position = 0;
        while position < invalid.len() {
            table.leading[invalid[position] as usize] = Self::INVALID_BYTE;
            position += 1;
        }
        let mut range = 0;
        while range < trailing.len() {
            let (first, last, first_column) = trailing[range];
            let mut byte = first;
            while byte <= last {
                table.trailing[byte as usize] = (first_column + (byte - first)) as u16;
                if byte == u8::MAX {
                    break;
                }
                byte += 1;
            }
            range += 1;
        }
        let mut range = 0;
        while range < trailing_to_handler.len() {
            let (first, last) = trailing_to_handler[range];
            let mut byte = first;
            while byte <= last {
                table.trailing[byte as usize] = Self::TRAIL_TO_HANDLER;
                byte += 1;
            }
            range += 1;
        }
        table
    }

    /// The UTF-8 table entry of `leading` followed by `trailing`: 0 or
    /// `text_runs::HANDLER_ENTRY` unless the table decodes them to a code
    /// point.
    #[expect(
        clippy::inline_always,
        reason = "the per-character step of the text-only pair loop"
    )]
    #[inline(always)]
    pub(crate) fn utf8_entry(&self, leading: u8, trailing: u8) -> u32 {
        let pointer = usize::from(self.leading[usize::from(leading)])
            + usize::from(self.trailing[usize::from(trailing)]);
        self.utf8.get(pointer).copied().unwrap_or(0)
    }

    /// What `leading`, followed by `trailing` if the input has a next byte,
    /// decodes to.
    #[inline]
    pub(crate) fn lookup(&self, leading: u8, trailing: Option<u8>) -> PairLookup {
        let row = self.leading[usize::from(leading)];
        if row == Self::INVALID_BYTE {
            return PairLookup::Error {
                kind: DecodeErrorKind::InvalidByte,
                len: 1,
            };
        }
        let Some(trailing) = trailing else {
            return PairLookup::Handler;
        };
        if row == Self::TO_HANDLER {
            return PairLookup::Handler;
        }
        let column = self.trailing[usize::from(trailing)];
        // An ASCII byte after the leading byte is restored by an error.
        let error_len = if trailing.is_ascii() { 1 } else { 2 };
        if column == Self::INVALID_TRAIL {
            return PairLookup::Error {
                kind: DecodeErrorKind::InvalidTrail,
                len: error_len,
            };
        }
        if column == Self::TRAIL_TO_HANDLER {
            return PairLookup::Handler;
        }
        let pointer = usize::from(row) + usize::from(column);
        match self.code_points.get(pointer).copied().unwrap_or(0) {
            0 => PairLookup::Error {
                kind: DecodeErrorKind::UnassignedPointer {
                    pointer: pointer as u32,
                },
                len: error_len,
            },
            code_point => char::from_u32(u32::from(code_point))
                .map_or(PairLookup::Handler, PairLookup::Scalar),
        }
    }
}

/// Not in spec: the driver's loop over items that lie within this call's
/// input, from `input[index]`, an item boundary: the fast paths of
/// [`fast_items`], and in replacement mode the handler's full steps for an
/// item they leave, reported right there, then the fast paths again. It
/// returns where the pending item begins and where the next byte to hand to
/// the handler is: both at the first byte the driver's general loop must
/// see (an error in fatal mode), or the pending item's start and the end of
/// the input when the input ends inside an item.
///
/// Without this, every error went back through the general loop, which
/// also handles bytes restored from earlier calls, and into `fast_items`
/// anew: most of the time of decoding bytes that are not text.
#[inline]
pub(super) fn items_in_input<H: Handler, S: DecodeSink>(
    handler: &mut H,
    input: &[u8],
    mut index: usize,
    base: u64,
    mode: DecodeErrorMode,
    sink: &mut S,
) -> (usize, usize) {
    loop {
        let report_errors = mode == DecodeErrorMode::Replacement;
        index = fast_items(handler, input, index, base, report_errors, sink);
        if index == input.len() || mode == DecodeErrorMode::Fatal {
            return (index, index);
        }
        // One item by the handler's full steps.
        let start = base + index as u64;
        let mut cursor = index;
        loop {
            let Some(&byte) = input.get(cursor) else {
                return (index, cursor);
            };
            cursor += 1;
            let end = base + cursor as u64;
            match handler.handle(byte) {
                Step::Continue => continue,
                Step::Scalar(c) => sink.scalar(c, ByteSpan::new(start, end)),
                Step::Pair(first, second) => {
                    sink.scalar_pair(first, second, ByteSpan::new(start, end));
                }
                Step::Skip(reason) => sink.skip(reason, ByteSpan::new(start, end)),
                Step::Error { kind, restore } => {
                    cursor -= usize::from(restore);
                    debug_assert!(cursor > index, "an error consumes at least one byte");
                    sink.error(kind, ByteSpan::new(start, base + cursor as u64));
                }
                Step::Finished => unreachable!("only end-of-queue finishes"),
            }
            break;
        }
        index = cursor;
    }
}

/// Not in spec: the driver's fast path. From `input[index..]`, at an item
/// boundary, reports the items that need no bookkeeping: ASCII runs where the
/// handler is in its ASCII ground state, valid UTF-8 runs for the UTF-8
/// decoder, and the complete valid sequences the handler's
/// [`Handler::decode_valid`] recognises. Stops before the first byte that
/// needs the handler's full steps (an error, a pending sequence, a change of
/// state) and returns its index; the items reported are exactly those the
/// handler would have produced byte by byte, with the same spans.
#[inline]
fn fast_items<H: Handler, S: DecodeSink>(
    handler: &mut H,
    input: &[u8],
    mut index: usize,
    base: u64,
    report_errors: bool,
    sink: &mut S,
) -> usize {
    if H::DECODES_VALID_UTF8_AS_ITSELF {
        if handler.is_ascii_ground() {
            index = if S::TEXT_ONLY || S::TAKES_TEXT_RUNS {
                text_runs::utf8(input, index, base, report_errors, sink)
            } else {
                utf8_runs(input, index, base, report_errors, sink)
            };
        }
        return index;
    }
    if S::TEXT_ONLY || S::TAKES_TEXT_RUNS {
        // Straight to UTF-8 where the sink keeps only the text, or takes
        // it with the widths of its characters.
        if let Some(table) = handler.utf8_byte_table() {
            return text_runs::single_bytes(
                handler,
                table,
                input,
                index,
                base,
                report_errors,
                sink,
            );
        }
        if let Some(table) = handler.pair_table() {
            if !handler.is_ascii_ground() {
                return index;
            }
            return text_runs::pairs(table, input, index, base, report_errors, sink);
        }
        if let Some(big_endian) = handler.utf16_big_endian() {
            return if big_endian {
                text_runs::utf16::<true, S>(input, index, base, sink)
            } else {
                text_runs::utf16::<false, S>(input, index, base, sink)
            };
        }
    }
    if let Some(table) = handler.byte_table() {
        return bytewise_items(table, input, index, base, sink);
    }
    if let Some(table) = handler.pair_table() {
        return pair_items(table, handler, input, index, base, report_errors, sink);
    }
    if let Some(big_endian) = handler.utf16_big_endian() {
        return if big_endian {
            utf16_items::<true, H, S>(handler, input, index, base, sink)
        } else {
            utf16_items::<false, H, S>(handler, input, index, base, sink)
        };
    }
    while let Some(&byte) = input.get(index) {
        let start = base + index as u64;
        if byte.is_ascii() {
            let run = handler.ascii_run_len(&input[index..]);
            if run == 1 {
                sink.scalar(char::from(byte), ByteSpan::new(start, start + 1));
            } else if run > 1 {
                sink.ascii(&input[index..index + run], start);
            }
            if run > 0 {
                index += run;
                continue;
            }
        }
        if let Some((c, len)) = handler.decode_valid(&input[index..]) {
            debug_assert!(len > 0 && index + len <= input.len());
            sink.scalar(c, ByteSpan::new(start, start + len as u64));
            index += len;
            continue;
        }
        let errors = if report_errors {
            handler.invalid_run_len(&input[index..])
        } else {
            0
        };
        if errors == 0 {
            break;
        }
        for byte_offset in start..start + errors as u64 {
            sink.error(
                DecodeErrorKind::InvalidByte,
                ByteSpan::new(byte_offset, byte_offset + 1),
            );
        }
        index += errors;
    }
    index
}

/// Not in spec: reports the ASCII bytes from `input[index]`, which is one,
/// at offset `start`, and returns how many there were.
#[expect(
    clippy::inline_always,
    reason = "measured: called, it costs more than it saves"
)]
#[inline(always)]
fn ascii_items<S: DecodeSink>(input: &[u8], index: usize, start: u64, sink: &mut S) -> usize {
    if !input.get(index + 1).is_some_and(u8::is_ascii) {
        // A lone ASCII byte (a space between the words of another script):
        // cheaper as one scalar than as a run.
        sink.scalar(char::from(input[index]), ByteSpan::new(start, start + 1));
        return 1;
    }
    let run = ascii_prefix_len(&input[index..]);
    sink.ascii(&input[index..index + run], start);
    run
}

/// Characters the fast paths gather before handing them to the sink at
/// once ([`DecodeSink::scalar_units`]).
const BATCH: usize = 64;

/// Hands `batch`, characters of `unit_len` bytes each from byte `start`, to
/// `sink`: a lone one as a plain scalar.
#[inline]
fn hand_over<S: DecodeSink>(sink: &mut S, batch: &[char], start: u64, unit_len: u8) {
    if let [c] = batch {
        sink.scalar(*c, ByteSpan::new(start, start + u64::from(unit_len)));
    } else {
        sink.scalar_units(batch, start, unit_len);
    }
}

/// Not in spec: [`fast_items`] for decoders with a [`Handler::byte_table`]:
/// ASCII runs, and other bytes looked up in the table until one is an error.
#[inline]
fn bytewise_items<S: DecodeSink>(
    table: &[Option<char>; 128],
    input: &[u8],
    mut index: usize,
    base: u64,
    sink: &mut S,
) -> usize {
    let mut batch = ['\0'; BATCH];
    while let Some(&byte) = input.get(index) {
        let start = base + index as u64;
        let next_is_ascii = input.get(index + 1).is_some_and(u8::is_ascii);
        if next_is_ascii {
            if byte.is_ascii() {
                index += ascii_items(input, index, start, sink);
                continue;
            }
            // A lone accented letter among ASCII words.
            let Some(c) = table[usize::from(byte & 0x7F)] else {
                break;
            };
            sink.scalar(c, ByteSpan::new(start, start + 1));
            index += 1;
            continue;
        }
        // Up to the next error or run of ASCII: the non-ASCII bytes of a
        // word and the lone spaces and punctuation between words, looked up
        // here and handed over together, so that the sink writes them in
        // one tight loop rather than one call each.
        let mut len = 0;
        while let Some(&byte) = input.get(index + len)
            && len < BATCH
        {
            let c = if byte.is_ascii() {
                if input.get(index + len + 1).is_some_and(u8::is_ascii) {
                    break;
                }
                char::from(byte)
            } else if let Some(c) = table[usize::from(byte & 0x7F)] {
                c
            } else {
                break;
            };
            batch[len] = c;
            len += 1;
        }
        if len == 0 {
            break;
        }
        hand_over(sink, &batch[..len], start, 1);
        index += len;
    }
    index
}

/// Not in spec: [`fast_items`] for decoders with a [`Handler::pair_table`]:
/// ASCII runs, pairs found in the table, and the rest of the handler's
/// [`Handler::decode_valid`], until that declines.
#[inline]
fn pair_items<H: Handler, S: DecodeSink>(
    table: &PairTable,
    handler: &mut H,
    input: &[u8],
    mut index: usize,
    base: u64,
    report_errors: bool,
    sink: &mut S,
) -> usize {
    if !handler.is_ascii_ground() {
        return index;
    }
    let mut batch = ['\0'; BATCH];
    while let Some(&byte) = input.get(index) {
        let start = base + index as u64;
        if byte.is_ascii() {
            index += ascii_items(input, index, start, sink);
            continue;
        }
        match table.lookup(byte, input.get(index + 1).copied()) {
            PairLookup::Scalar(c) => {
                // The pairs after it, up to the first byte that is not the
                // start of one, go to the sink together.
                batch[0] = c;
                let mut len = 1;
                while len < BATCH {
                    let at = index + 2 * len;
                    let Some(&leading) = input.get(at) else { break };
                    if leading.is_ascii() {
                        break;
                    }
                    let PairLookup::Scalar(c) = table.lookup(leading, input.get(at + 1).copied())
                    else {
                        break;
                    };
                    batch[len] = c;
                    len += 1;
                }
                hand_over(sink, &batch[..len], start, 2);
                index += 2 * len;
                continue;
            }
            PairLookup::Error { kind, len } if report_errors => {
                sink.error(kind, ByteSpan::new(start, start + u64::from(len)));
                index += usize::from(len);
                continue;
            }
            _ => {}
        }
        let Some((c, len)) = handler.decode_valid(&input[index..]) else {
            break;
        };
        debug_assert!(len > 0 && index + len <= input.len());
        sink.scalar(c, ByteSpan::new(start, start + len as u64));
        index += len;
    }
    index
}

/// Not in spec: [`fast_items`] for the UTF-16 decoders: runs of code units
/// below 0x80 as ASCII, other code units that are not surrogates one by
/// one, and surrogate pairs through the handler's
/// [`Handler::decode_valid`], until that declines.
#[inline]
fn utf16_items<const BIG_ENDIAN: bool, H: Handler, S: DecodeSink>(
    handler: &mut H,
    input: &[u8],
    mut index: usize,
    base: u64,
    sink: &mut S,
) -> usize {
    let unit = |pair: [u8; 2]| {
        if BIG_ENDIAN {
            u16::from_be_bytes(pair)
        } else {
            u16::from_le_bytes(pair)
        }
    };
    let mut batch = ['\0'; BATCH];
    while let Some(&pair) = input.get(index..).and_then(<[u8]>::first_chunk::<2>) {
        let start = base + index as u64;
        let code_unit = unit(pair);
        if code_unit < 0x80 {
            index += utf16_ascii_items::<BIG_ENDIAN, S>(input, index, start, sink);
            continue;
        }
        if !(0xD800..=0xDFFF).contains(&code_unit) {
            // The code units after it that are neither surrogates nor the
            // start of an ASCII run go to the sink together.
            let (units, _) = input[index..].as_chunks::<2>();
            let units = &units[..units.len().min(BATCH)];
            let mut len = 0;
            for (position, &pair) in units.iter().enumerate() {
                let code_unit = unit(pair);
                if code_unit < 0x80
                    && units
                        .get(position + 1)
                        .is_some_and(|&next| unit(next) < 0x80)
                {
                    break;
                }
                let Some(c) = char::from_u32(u32::from(code_unit)) else {
                    break;
                };
                batch[len] = c;
                len += 1;
            }
            hand_over(sink, &batch[..len], start, 2);
            index += 2 * len;
            continue;
        }
        let Some((c, len)) = handler.decode_valid(&input[index..]) else {
            break;
        };
        sink.scalar(c, ByteSpan::new(start, start + len as u64));
        index += len;
    }
    index
}

/// Not in spec: reports the run of UTF-16 code units below 0x80 from
/// `input[index]`, which is one, at offset `start`, as ASCII; returns how
/// many bytes it covers.
#[inline]
fn utf16_ascii_items<const BIG_ENDIAN: bool, S: DecodeSink>(
    input: &[u8],
    index: usize,
    start: u64,
    sink: &mut S,
) -> usize {
    // A code unit is below 0x80 when none of these bits is set: bit 7 of
    // its low byte and all of its high byte.
    let high_bits: u64 = if BIG_ENDIAN {
        0x80FF_80FF_80FF_80FF
    } else {
        0xFF80_FF80_FF80_FF80
    };
    let low_byte = usize::from(BIG_ENDIAN);
    let mut ascii = [0u8; 64];
    let mut len = 0;
    let mut position = index;
    loop {
        // Four code units at a time, then one at a time.
        let mut filled = 0;
        let (words, _) = input[position..].as_chunks::<8>();
        for (slots, word) in ascii.as_chunks_mut::<4>().0.iter_mut().zip(words) {
            let value = u64::from_le_bytes(*word);
            if value & high_bits != 0 {
                break;
            }
            // The four low bytes, gathered by shifts: with every high byte
            // zero, each step halves the gaps between them.
            let value = if low_byte == 0 { value } else { value >> 8 };
            let value = (value | (value >> 8)) & 0x0000_FFFF_0000_FFFF;
            let value = (value | (value >> 16)) & 0xFFFF_FFFF;
            *slots = (value as u32).to_le_bytes();
            filled += 4;
            position += 8;
        }
        while filled < ascii.len() {
            let Some(&pair) = input.get(position..).and_then(<[u8]>::first_chunk::<2>) else {
                break;
            };
            let code_unit = if BIG_ENDIAN {
                u16::from_be_bytes(pair)
            } else {
                u16::from_le_bytes(pair)
            };
            if code_unit >= 0x80 {
                break;
            }
            ascii[filled] = code_unit as u8;
            filled += 1;
            position += 2;
        }
        if filled == 1 && len == 0 {
            sink.scalar(char::from(ascii[0]), ByteSpan::new(start, start + 2));
        } else if filled > 0 {
            sink.ascii_units(&ascii[..filled], start + 2 * len as u64, 2);
        }
        len += filled;
        if filled < ascii.len() {
            return 2 * len;
        }
    }
}

/// Not in spec: a [`Handler::decode_valid`] for handlers whose states are
/// cheap to copy: feeds up to `max_len` bytes to `handle` on a copy of the
/// handler and keeps the copy only if they decode to one scalar value.
#[inline]
pub(crate) fn decode_valid_by_probe<H: Handler + Clone>(
    handler: &mut H,
    bytes: &[u8],
    max_len: usize,
) -> Option<(char, usize)> {
    let mut probe = handler.clone();
    for (position, &byte) in bytes.iter().enumerate().take(max_len) {
        match probe.handle(byte) {
            Step::Continue => {}
            Step::Scalar(c) => {
                *handler = probe;
                return Some((c, position + 1));
            }
            _ => return None,
        }
    }
    None
}

/// Not in spec: [`fast_items`] for the UTF-8 decoder: reports the valid
/// UTF-8 from `input[index]` on, in runs, and returns the index of the
/// first byte that is not part of it (an error, or a sequence cut off by the
/// end of `input`).
///
/// The first few bytes are checked by std's scalar validator, which costs
/// little to start and stops at the first error: where errors are close
/// together (bytes that are not UTF-8 at all) that is all each costs. Past
/// them [`utf8::validate`] finds where the valid text ends (it stops at the
/// first error, where a check of validity alone would read on to the end,
/// which would make input with many errors quadratic), and the valid part
/// is validated once more to make a `str` of it.
#[inline]
fn utf8_runs<S: DecodeSink>(
    input: &[u8],
    mut index: usize,
    base: u64,
    report_errors: bool,
    sink: &mut S,
) -> usize {
    /// Bytes checked by the scalar validator first.
    const HEAD: usize = 16;
    /// ASCII looked for before that.
    const ASCII_WINDOW: usize = 32;
    /// Bytes validated at once.
    const CHUNK: usize = 32 * 1024;
    loop {
        // ASCII first, up to a few words of it: it needs no validation to be
        // reported, and where the byte after it cannot begin a sequence
        // (most non-ASCII bytes, in input that is not UTF-8) it is all
        // there is. Longer ASCII goes with the text after it to simdutf8.
        let window = &input[index..input.len().min(index + ASCII_WINDOW)];
        let ascii = ascii_prefix_len(window);
        if ascii < ASCII_WINDOW {
            if ascii > 0 {
                sink.ascii(&input[index..index + ascii], base + index as u64);
                index += ascii;
            }
            match input.get(index) {
                None => return index,
                // The handler's first step makes such a byte an error.
                Some(0x80..=0xC1 | 0xF5..=0xFF) if report_errors => {
                    let start = base + index as u64;
                    sink.error(
                        DecodeErrorKind::InvalidByte,
                        ByteSpan::new(start, start + 1),
                    );
                    index += 1;
                    continue;
                }
                _ => {}
            }
            if !starts_with_valid_sequence(&input[index..]) {
                // A sequence that goes wrong, or is cut off: the handler's
                // steps.
                return index;
            }
        }
        let rest = &input[index..];
        let head = &rest[..char_boundary_before(rest, HEAD)];
        let (valid, complete) = utf8_chunk(head);
        sink.utf8_run(valid, base + index as u64);
        index += valid.len();
        if !complete || index == input.len() {
            continue;
        }
        // A chunk at a time, cut at a character boundary, so that the copy
        // after the validation reads from the first-level cache.
        let rest = &input[index..];
        let rest = &rest[..char_boundary_before(rest, CHUNK)];
        let valid = match utf8::validate(rest) {
            Ok(valid) => valid,
            Err(valid_up_to) => {
                let prefix = &rest[..valid_up_to];
                if prefix.len() < 64 {
                    utf8_chunk(prefix).0
                } else {
                    simdutf8::basic::from_utf8(prefix).expect("a prefix up to valid_up_to is valid")
                }
            }
        };
        if !valid.is_empty() {
            sink.utf8_run(valid, base + index as u64);
            index += valid.len();
        }
    }
}

/// Whether `bytes` begins with a complete, valid multi-byte UTF-8 sequence
/// (the standard's UTF-8 decoder's boundaries, which are Unicode's).
#[inline]
fn starts_with_valid_sequence(bytes: &[u8]) -> bool {
    let continues = |position: usize, range: std::ops::RangeInclusive<u8>| {
        bytes.get(position).is_some_and(|byte| range.contains(byte))
    };
    match bytes.first() {
        Some(0xC2..=0xDF) => continues(1, 0x80..=0xBF),
        Some(0xE0) => continues(1, 0xA0..=0xBF) && continues(2, 0x80..=0xBF),
        Some(0xED) => continues(1, 0x80..=0x9F) && continues(2, 0x80..=0xBF),
        Some(0xE1..=0xEF) => continues(1, 0x80..=0xBF) && continues(2, 0x80..=0xBF),
        Some(0xF0) => {
            continues(1, 0x90..=0xBF) && continues(2, 0x80..=0xBF) && continues(3, 0x80..=0xBF)
        }
        Some(0xF4) => {
            continues(1, 0x80..=0x8F) && continues(2, 0x80..=0xBF) && continues(3, 0x80..=0xBF)
        }
        Some(0xF1..=0xF3) => {
            continues(1, 0x80..=0xBF) && continues(2, 0x80..=0xBF) && continues(3, 0x80..=0xBF)
        }
        _ => false,
    }
}

/// The valid UTF-8 at the start of `part`, and whether that is all of it.
#[inline]
fn utf8_chunk(part: &[u8]) -> (&str, bool) {
    match part.utf8_chunks().next() {
        Some(chunk) => (chunk.valid(), chunk.invalid().is_empty()),
        None => ("", true),
    }
}

/// `len`, or less so as not to cut a character of `bytes` in two; the
/// length of `bytes` if that is less. Never 0 for a non-empty `bytes`.
#[inline]
pub(super) fn char_boundary_before(bytes: &[u8], len: usize) -> usize {
    if len >= bytes.len() {
        return bytes.len();
    }
    // Back over at most three continuation bytes (0x80..=0xBF) to the byte
    // that begins the character; more would be an error anyway.
    (len.saturating_sub(3)..=len)
        .rev()
        .find(|&end| end > 0 && !(0x80..=0xBF).contains(&bytes[end]))
        .unwrap_or(len)
}

/// The length of the longest prefix of `bytes` that is ASCII.
#[inline]
pub(crate) fn ascii_prefix_len(bytes: &[u8]) -> usize {
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    let (words, tail) = bytes.as_chunks::<8>();
    let mut len = 0;
    // Runs between the letters of most scripts are short: look at one word
    // first, then at four at a time.
    let mut blocks = words.chunks_exact(4);
    if let Some(&first) = words.first() {
        let high = u64::from_le_bytes(first) & HIGH_BITS;
        if high != 0 {
            return (high.trailing_zeros() / 8) as usize;
        }
        blocks = words[1..].chunks_exact(4);
        len = 8;
    }
    for block in blocks.by_ref() {
        let any_high = block
            .iter()
            .fold(0, |high, &word| high | u64::from_le_bytes(word))
            & HIGH_BITS;
        if any_high != 0 {
            for &word in block {
                let high = u64::from_le_bytes(word) & HIGH_BITS;
                if high != 0 {
                    return len + (high.trailing_zeros() / 8) as usize;
                }
                len += 8;
            }
        }
        len += 32;
    }
    for &word in blocks.remainder() {
        let high = u64::from_le_bytes(word) & HIGH_BITS;
        if high != 0 {
            return len + (high.trailing_zeros() / 8) as usize;
        }
        len += 8;
    }
    len + tail.iter().take_while(|byte| byte.is_ascii()).count()
}

#[cfg(test)]
mod tests {
    use super::ascii_prefix_len;
    use crate::{BIG5, BomHandling, DecodeErrorMode, Decoder, EUC_KR, GBK, KOI8_R, Trace};
    use crate::{SHIFT_JIS, UTF_16BE, UTF_16LE, WINDOWS_1251, WINDOWS_1252};

    /// The fast paths hand words over in batches; fed one byte at a time
    /// the decoder never batches. Both must give the same items.
    #[test]
    fn batched_words_have_the_spans_of_single_bytes() {
        let text = "Слово, «слово» и éte; 中文 字符; 한국어 텍스트 — 日本語の文。x\u{1F600}yz ab\n";
        let text = text.repeat(40);
        for encoding in [
            KOI8_R,
            WINDOWS_1251,
            WINDOWS_1252,
            GBK,
            BIG5,
            EUC_KR,
            SHIFT_JIS,
            UTF_16BE,
            UTF_16LE,
        ] {
            let (mut bytes, _, _) = encoding.encode(&text);
            if encoding == UTF_16BE || encoding == UTF_16LE {
                bytes = text
                    .encode_utf16()
                    .flat_map(|unit| {
                        if encoding == UTF_16BE {
                            unit.to_be_bytes()
                        } else {
                            unit.to_le_bytes()
                        }
                    })
                    .collect();
            }
            // An error or two among them.
            bytes.insert(bytes.len() / 3, 0xFF);
            bytes.insert(bytes.len() / 2, 0x80);
            let (whole, _) = encoding.decode_traced(&bytes, BomHandling::None);
            let mut single = Trace::new();
            let mut decoder =
                Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
            for byte in &bytes {
                let _ = decoder.decode(std::slice::from_ref(byte), false, &mut single);
            }
            let _ = decoder.decode(b"", true, &mut single);
            assert_eq!(whole.text, single.text, "{encoding}");
            assert!(whole.items().eq(single.items()), "{encoding}: items differ");
        }
    }

    #[test]
    fn ascii_prefix_len_finds_the_first_high_byte_anywhere() {
        for len in 0..80 {
            let ascii = vec![b'a'; len];
            assert_eq!(ascii_prefix_len(&ascii), len);
            for position in 0..len {
                let mut bytes = ascii.clone();
                bytes[position] = 0x80 | (position as u8);
                assert_eq!(ascii_prefix_len(&bytes), position, "{len} {position}");
                // A later high byte does not matter.
                if position + 1 < len {
                    bytes[position + 1] = 0xFF;
                    assert_eq!(ascii_prefix_len(&bytes), position);
                }
            }
        }
    }
}
