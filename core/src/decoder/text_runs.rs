//! Not in spec: the fast paths for sinks that keep only the text
//! ([`DecodeSink::TEXT_ONLY`]: the plain decodes) or that take it in
//! stretches with the widths of its characters
//! ([`DecodeSink::TAKES_TEXT_RUNS`]: the traced decode). With no item
//! boundaries to mark, the common valid cases are decoded straight into
//! UTF-8 in a buffer on the stack (ASCII copied a word at a time, the other
//! characters written from tables of their UTF-8 bytes) and handed to the
//! sink a kilobyte at a time, in one loop per family. In each loop every
//! character has the width its family gives it ([`CharWidths`]), so the
//! stretch's input bytes and its text say where each character came from.
//! Each stops before the first byte the handler must see (an error, a
//! sequence the tables leave to the handler, a sequence cut off by the end
//! of the input) and returns its index; the text written is exactly that
//! of the items the handler would have produced byte by byte.

use super::fast::{PairLookup, char_boundary_before};
use super::{Handler, PairTable, Step};
use crate::provenance::{ByteSpan, CharWidths, DecodeErrorKind, DecodeSink};

/// Bytes of text gathered before they go to the sink.
const BUFFER: usize = 1024;

/// Room past [`BUFFER`]: one step writes at most 32 bytes.
const SLACK: usize = 32;

/// An entry of a UTF-8 table: the UTF-8 bytes of a code point from U+0080
/// to U+FFFF in its low three bytes, first byte lowest, and their number
/// (2 or 3) in its high byte; 0 where there is no code point, and
/// [`HANDLER_ENTRY`] where the handler decides.
#[expect(
    clippy::inline_always,
    reason = "the per-character step of the UTF-16 loop"
)]
#[inline(always)]
pub(crate) const fn utf8_entry(code_point: u32) -> u32 {
    let continuation = (0x80 | (code_point & 0x3F)) << 16;
    if code_point < 0x800 {
        (0xC0 | (code_point >> 6)) | (continuation >> 8) | (2 << 24)
    } else {
        (0xE0 | (code_point >> 12))
            | ((0x80 | ((code_point >> 6) & 0x3F)) << 8)
            | continuation
            | (3 << 24)
    }
}

/// In a UTF-8 table: the handler decodes this pointer otherwise.
pub(crate) const HANDLER_ENTRY: u32 = 1;

/// A table's UTF-8 entries from its code points: 0 for none, and
/// [`PairTable::HANDLER_CODE_POINT`] for [`HANDLER_ENTRY`].
pub(crate) const fn utf8_table<const N: usize>(code_points: &[u16]) -> [u32; N] {
    let mut table = [0; N];
    let mut pointer = 0;
    while pointer < N && pointer < code_points.len() {
        let code_point = code_points[pointer];
        table[pointer] = match code_point {
            0 => 0,
            PairTable::HANDLER_CODE_POINT => HANDLER_ENTRY,
            _ => {
                assert!(
                    code_point >= 0x80 && !(code_point >= 0xD800 && code_point <= 0xDFFF),
                    "a table entry is a scalar value that is not ASCII"
                );
                utf8_entry(code_point as u32)
            }
        };
        pointer += 1;
    }
    table
}

/// The text being gathered, and where it goes.
struct Text<'a, S: DecodeSink> {
    buffer: [u8; BUFFER + SLACK],
    len: usize,
    /// Offset of the input byte the gathered text begins with.
    byte_start: u64,
    /// How many input bytes each character covers.
    widths: CharWidths,
    sink: &'a mut S,
}

impl<'a, S: DecodeSink> Text<'a, S> {
    /// Text whose characters, each covering as many bytes as `widths`
    /// says, begin with the input byte at `byte_start`.
    fn new(sink: &'a mut S, byte_start: u64, widths: CharWidths) -> Self {
        Self {
            buffer: [0; BUFFER + SLACK],
            len: 0,
            byte_start,
            widths,
            sink,
        }
    }

    /// Whether the buffer should go to the sink before the next step.
    #[inline]
    fn is_full(&self) -> bool {
        self.len >= BUFFER
    }

    /// Hands what was gathered, decoded from the input bytes before
    /// `byte_end`, to the sink: from the loops, where the buffer is full
    /// or the fast path ends.
    #[inline]
    fn flush(&mut self, byte_end: u64) {
        if self.len > 0 {
            let text = &self.buffer[..self.len];
            debug_assert_eq!(
                covered(text, self.widths),
                byte_end - self.byte_start,
                "the text covers the bytes it came from"
            );
            hand_over(self.sink, text, self.byte_start, self.widths);
            self.len = 0;
        }
        self.byte_start = byte_end;
    }

    /// Reports an error after the text before it.
    #[cold]
    fn error(&mut self, kind: DecodeErrorKind, span: ByteSpan) {
        if self.len > 0 {
            let text = &self.buffer[..self.len];
            debug_assert_eq!(
                covered(text, self.widths),
                span.start - self.byte_start,
                "the text covers the bytes it came from"
            );
            self.sink.text_run(text, self.byte_start, self.widths);
            self.len = 0;
        }
        self.sink.error(kind, span);
        self.byte_start = span.end;
    }

    /// Writes the character of a UTF-8 table entry (not 0 nor
    /// [`HANDLER_ENTRY`]).
    #[expect(
        clippy::inline_always,
        reason = "the per-character step of every loop here"
    )]
    #[inline(always)]
    fn push_entry(&mut self, entry: u32) {
        let len = self.len;
        let slot: &mut [u8; 4] = (&mut self.buffer[len..len + 4])
            .try_into()
            .expect("four bytes");
        *slot = entry.to_le_bytes();
        self.len = len + (entry >> 24) as usize;
    }

    /// Writes the first `len` bytes of `word`.
    #[expect(
        clippy::inline_always,
        reason = "the per-character step of every loop here"
    )]
    #[inline(always)]
    fn push_word(&mut self, word: [u8; 8], len: usize) {
        let start = self.len;
        let slot: &mut [u8; 8] = (&mut self.buffer[start..start + 8])
            .try_into()
            .expect("eight bytes");
        *slot = word;
        self.len = start + len;
    }

    /// Copies the ASCII bytes from `input[index]`, which is one, up to the
    /// first byte that is not ASCII or until the buffer is full; returns
    /// the index after them.
    #[inline]
    fn ascii(&mut self, input: &[u8], mut index: usize) -> usize {
        const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
        let word_of = |bytes: &[u8; 32], at: usize| {
            u64::from_le_bytes(*bytes[at..].first_chunk::<8>().expect("in the block"))
        };
        // The spaces and punctuation between the words of another script
        // end in the first word; a word of ASCII goes on four words at a
        // time, then a word at a time, up to the first byte that is not
        // ASCII.
        let mut blocks_done = false;
        while !self.is_full() {
            let Some(&word) = input.get(index..).and_then(<[u8]>::first_chunk::<8>) else {
                // The last few bytes of the input, one at a time.
                while let Some(&byte) = input.get(index)
                    && byte.is_ascii()
                    && !self.is_full()
                {
                    self.push_word([byte, 0, 0, 0, 0, 0, 0, 0], 1);
                    index += 1;
                }
                return index;
            };
            let high = u64::from_le_bytes(word) & HIGH_BITS;
            if high != 0 {
                let len = (high.trailing_zeros() / 8) as usize;
                self.push_word(word, len);
                return index + len;
            }
            self.push_word(word, 8);
            index += 8;
            if blocks_done {
                continue;
            }
            blocks_done = true;
            // Prose between the letters of another script, markup.
            while self.len < BUFFER
                && let Some(block) = input.get(index..).and_then(<[u8]>::first_chunk::<32>)
                && (word_of(block, 0) | word_of(block, 8) | word_of(block, 16) | word_of(block, 24))
                    & HIGH_BITS
                    == 0
            {
                let start = self.len;
                let slot: &mut [u8; 32] = (&mut self.buffer[start..start + 32])
                    .try_into()
                    .expect("thirty-two bytes");
                *slot = *block;
                self.len = start + 32;
                index += 32;
            }
        }
        index
    }
}

/// Hands `utf8` to `sink` ([`DecodeSink::text_run`]) out of line: called a
/// kilobyte at a time from the loops, it leaves them their registers
/// (measured: 8% fewer instructions in a two-byte decoder than with the
/// sink's code inlined there).
#[inline(never)]
fn hand_over<S: DecodeSink>(sink: &mut S, utf8: &[u8], start: u64, widths: CharWidths) {
    sink.text_run(utf8, start, widths);
}

/// The text-only fast path of the decoders with a
/// [`Handler::byte_table`]: ASCII, and the
/// other bytes by their entry in `utf8` (the table's UTF-8 entries, 0 for
/// an error), up to the first error; in replacement mode
/// (`report_errors`) errors too, as the handler's step for the byte says.
#[inline]
pub(super) fn single_bytes<H: Handler, S: DecodeSink>(
    handler: &mut H,
    utf8: &[u32; 128],
    input: &[u8],
    mut index: usize,
    base: u64,
    report_errors: bool,
    sink: &mut S,
) -> usize {
    let mut text = Text::new(sink, base + index as u64, CharWidths::SINGLE_BYTE);
    while let Some(&byte) = input.get(index) {
        if text.is_full() {
            text.flush(base + index as u64);
        }
        if byte.is_ascii() {
            index = text.ascii(input, index);
            continue;
        }
        let entry = utf8[usize::from(byte & 0x7F)];
        if entry == 0 {
            // The byte alone is the item: the handler says which error.
            if !report_errors {
                break;
            }
            let Step::Error { kind, restore: 0 } = handler.handle(byte) else {
                unreachable!("a byte without a code point is an error");
            };
            let start = base + index as u64;
            text.error(kind, ByteSpan::new(start, start + 1));
            index += 1;
            continue;
        }
        text.push_entry(entry);
        index += 1;
    }
    text.flush(base + index as u64);
    index
}

/// The text-only fast path of the two-byte decoders with a
/// [`Handler::pair_table`]: ASCII, the pairs
/// the table decodes, and in replacement mode (`report_errors`) the errors
/// it finds, up to the first byte it leaves to the handler (a sequence the
/// handler decodes, a leading byte at the end of the input).
#[inline]
pub(super) fn pairs<S: DecodeSink>(
    table: &PairTable,
    input: &[u8],
    mut index: usize,
    base: u64,
    report_errors: bool,
    sink: &mut S,
) -> usize {
    let mut text = Text::new(sink, base + index as u64, CharWidths::PAIRS);
    while let Some(&leading) = input.get(index) {
        if text.is_full() {
            text.flush(base + index as u64);
        }
        if leading.is_ascii() {
            index = text.ascii(input, index);
            continue;
        }
        let Some(&trailing) = input.get(index + 1) else {
            break;
        };
        let entry = table.utf8_entry(leading, trailing);
        if entry <= HANDLER_ENTRY {
            match table.lookup(leading, Some(trailing)) {
                PairLookup::Error { kind, len } if report_errors => {
                    let start = base + index as u64;
                    text.error(kind, ByteSpan::new(start, start + u64::from(len)));
                    index += usize::from(len);
                    continue;
                }
                _ => break,
            }
        }
        text.push_entry(entry);
        index += 2;
    }
    text.flush(base + index as u64);
    index
}

/// The text-only fast path of the UTF-16 decoders with nothing pending:
/// code units that are not surrogates and valid surrogate pairs, up to the
/// first unpaired surrogate or a code unit cut off by the end of the input.
#[inline]
pub(super) fn utf16<const BIG_ENDIAN: bool, S: DecodeSink>(
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
    // A code unit is below 0x80 when none of these bits is set: bit 7 of
    // its low byte and all of its high byte.
    let high_bits: u64 = if BIG_ENDIAN {
        0x80FF_80FF_80FF_80FF
    } else {
        0xFF80_FF80_FF80_FF80
    };
    let mut text = Text::new(sink, base + index as u64, CharWidths::UTF_16);
    while let Some(&pair) = input.get(index..).and_then(<[u8]>::first_chunk::<2>) {
        if text.is_full() {
            text.flush(base + index as u64);
        }
        let code_unit = u32::from(unit(pair));
        if code_unit < 0x80 {
            // Four code units at a time while they are all below 0x80.
            while !text.is_full()
                && let Some(&word) = input.get(index..).and_then(<[u8]>::first_chunk::<8>)
            {
                let value = u64::from_le_bytes(word);
                if value & high_bits != 0 {
                    break;
                }
                // The four low bytes, gathered by shifts: with every high
                // byte zero, each step halves the gaps between them.
                let value = if BIG_ENDIAN { value >> 8 } else { value };
                let value = (value | (value >> 8)) & 0x0000_FFFF_0000_FFFF;
                let value = (value | (value >> 16)) & 0xFFFF_FFFF;
                text.push_word(value.to_le_bytes(), 4);
                index += 8;
            }
            let Some(&pair) = input.get(index..).and_then(<[u8]>::first_chunk::<2>) else {
                break;
            };
            let code_unit = unit(pair);
            if code_unit < 0x80 {
                text.push_word([code_unit as u8, 0, 0, 0, 0, 0, 0, 0], 1);
                index += 2;
            }
            continue;
        }
        if !(0xD800..=0xDFFF).contains(&code_unit) {
            text.push_entry(utf8_entry(code_unit));
            index += 2;
            continue;
        }
        // A leading surrogate and a trailing one.
        let Some(&next) = input.get(index + 2..).and_then(<[u8]>::first_chunk::<2>) else {
            break;
        };
        let trailing = u32::from(unit(next));
        if code_unit >= 0xDC00 || !(0xDC00..=0xDFFF).contains(&trailing) {
            break;
        }
        let scalar = 0x10000 + ((code_unit - 0xD800) << 10) + (trailing - 0xDC00);
        let continuation = |shift: u32| (0x80 | ((scalar >> shift) & 0x3F)) as u8;
        let bytes = [
            (0xF0 | (scalar >> 18)) as u8,
            continuation(12),
            continuation(6),
            continuation(0),
            0,
            0,
            0,
            0,
        ];
        text.push_word(bytes, 4);
        index += 4;
    }
    text.flush(base + index as u64);
    index
}

/// The text-only fast path of the UTF-8 decoder in its ground state: the
/// valid UTF-8 from `input[index]` on, validated once and handed over as it
/// is, a couple of kilobytes at a time; in replacement mode (`report_errors`)
/// also the bytes that cannot begin a sequence, each an error. Stops at the
/// first sequence that goes wrong or is cut off by the end of the input.
#[inline]
pub(super) fn utf8<S: DecodeSink>(
    input: &[u8],
    mut index: usize,
    base: u64,
    report_errors: bool,
    sink: &mut S,
) -> usize {
    /// Bytes validated at once: few enough that handing them over is
    /// copied by vector instructions.
    const CHUNK: usize = 2048;
    loop {
        let rest = &input[index..];
        match rest.first() {
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
        let chunk = &rest[..char_boundary_before(rest, CHUNK)];
        match simdutf8::compat::from_utf8(chunk) {
            Ok(text) => {
                sink.utf8_run(text, base + index as u64);
                index += chunk.len();
            }
            Err(error) => {
                let valid = error.valid_up_to();
                if valid > 0 {
                    sink.text_run(&chunk[..valid], base + index as u64, CharWidths::UTF_8);
                }
                index += valid;
                // A sequence that goes wrong, or is cut off: the handler's
                // steps, unless it is a byte the loop reports itself.
                if !report_errors || !matches!(chunk.get(valid), Some(0x80..=0xC1 | 0xF5..=0xFF)) {
                    return index;
                }
            }
        }
    }
}

/// How many input bytes the characters of `utf8` cover, by `widths`.
fn covered(utf8: &[u8], widths: CharWidths) -> u64 {
    String::from_utf8_lossy(utf8)
        .chars()
        .map(|c| u64::from(widths.of(c)))
        .sum()
}
