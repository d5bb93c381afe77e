//! [`Shift_JIS`](https://encoding.spec.whatwg.org/#shift_jis): the decoder and encoder.

use mojiscope_indexes::jis0208;

use crate::decoder::{Handler, PairTable, Step, utf8_table};
use crate::encoder::{EncodeHandler, EncodeStep, Encoded};
use crate::provenance::DecodeErrorKind;

/// The pointers the decoder maps to the Private Use Area (Windows' EUDC,
/// "end-user-defined characters"): leading bytes 0xF0..=0xF9.
pub(crate) const USER_DEFINED_POINTERS: std::ops::RangeInclusive<usize> = 8836..=10715;

/// Not in spec: steps 3-7 for two bytes as flat tables for the driver:
/// leading bytes 0x81..=0x9F and 0xE0..=0xFC (step 6; skipping the single
/// bytes 0xA0..=0xDF), and 0xA0 and 0xFD..=0xFF, errors on their own (step
/// 7); trailing bytes 0x40..=0x7E and 0x80..=0xFC (skipping 0x7F), any
/// other an error (step 3.6); and the code point of their pointer in index
/// jis0208 or none (steps 3.8-3.11), but for the user-defined pointers of
/// step 3.7, which go to the handler.
static PAIRS: PairTable = PairTable::new(
    &[(0x81, 0x9F, 0), (0xE0, 0xFC, 0x9F - 0x81 + 1)],
    188,
    &[0xA0, 0xFD, 0xFE, 0xFF],
    &[(0x40, 0x7E, 0), (0x80, 0xFC, 0x7E - 0x40 + 1)],
    &[],
    &CODE_POINTS,
    &UTF8,
);

/// Not in spec: `CODE_POINTS` as UTF-8, for the driver's pair table.
static UTF8: [u32; jis0208::table().len()] = utf8_table(&CODE_POINTS);

/// Not in spec: index jis0208 as the driver's pair table wants it, with the
/// user-defined pointers of step 3.7 marked for the handler.
static CODE_POINTS: [u16; jis0208::table().len()] = {
    let index = jis0208::table();
    let mut table = [0; jis0208::table().len()];
    let mut pointer = 0;
    while pointer < index.len() {
        table[pointer] = if 8836 <= pointer && pointer <= 10715 {
            PairTable::HANDLER_CODE_POINT
        } else {
            index[pointer]
        };
        pointer += 1;
    }
    table
};

/// The [`Shift_JIS` decoder](https://encoding.spec.whatwg.org/#shift_jis-decoder).
#[derive(Clone, Debug, Default)]
pub(crate) struct ShiftJisDecoder {
    /// `Shift_JIS` leading: 0x00 when no sequence is pending.
    pub(crate) leading: u8,
}

impl Handler for ShiftJisDecoder {
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        // Step 3: a leading byte is pending; this byte completes the pair.
        if self.leading != 0 {
            // Steps 3.1-3.2.
            let leading = self.leading;
            self.leading = 0;
            return pair(leading, byte);
        }
        match byte {
            // Step 4: ASCII, and 0x80 (U+0080) which Windows passes through.
            0x00..=0x80 => Step::Scalar(char::from(byte)),
            // Step 5: single-byte halfwidth katakana.
            0xA1..=0xDF => Step::Scalar(halfwidth_katakana(byte)),
            // Step 6.
            0x81..=0x9F | 0xE0..=0xFC => {
                self.leading = byte;
                Step::Continue
            }
            // Step 7: 0xA0 and 0xFD..=0xFF.
            _ => Step::error(DecodeErrorKind::InvalidByte),
        }
    }

    fn handle_end(&mut self) -> Step {
        // Step 1.
        if self.leading != 0 {
            self.leading = 0;
            return Step::error(DecodeErrorKind::TruncatedSequence);
        }
        // Step 2.
        Step::Finished
    }

    #[inline]
    fn is_ascii_ground(&self) -> bool {
        self.leading == 0
    }

    /// Not in spec: steps 6 and 3.4-3.9 for the common case, as tables.
    #[inline]
    fn pair_table(&self) -> Option<&'static PairTable> {
        Some(&PAIRS)
    }

    /// Not in spec: the fast path. With nothing pending, steps 4-5 for a
    /// single byte, or step 6 (a leading byte) followed by steps 3.1-3.9 for
    /// the next byte when they give a code point, through the same `pair`
    /// as `handle`. Everything else goes to `handle`.
    #[inline]
    fn decode_valid(&mut self, bytes: &[u8]) -> Option<(char, usize)> {
        let (&byte, rest) = bytes.split_first()?;
        if self.leading != 0 {
            return None;
        }
        match byte {
            // Step 4.
            0x00..=0x80 => Some((char::from(byte), 1)),
            // Step 5.
            0xA1..=0xDF => Some((halfwidth_katakana(byte), 1)),
            // Step 6, then step 3 for the next byte.
            0x81..=0x9F | 0xE0..=0xFC => match pair(byte, *rest.first()?) {
                Step::Scalar(c) => Some((c, 2)),
                _ => None,
            },
            _ => None,
        }
    }
}

/// Steps 3.3-3.11: the pair of `leading` and `byte`, once leading has been
/// taken and reset.
#[inline]
fn pair(leading: u8, byte: u8) -> Step {
    // Step 3.6: only 0x40..=0x7E and 0x80..=0xFC can trail; any other
    // byte leaves the pointer null.
    if !matches!(byte, 0x40..=0x7E | 0x80..=0xFC) {
        return trail_error(DecodeErrorKind::InvalidTrail, byte);
    }
    // Steps 3.4-3.6.
    let pointer = pointer(leading, byte);
    // Step 3.7: the user-defined area maps to the Private Use Area.
    if let Some(c) = user_defined_code_point(pointer) {
        return Step::Scalar(c);
    }
    // Steps 3.8-3.9.
    if let Some(c) = jis0208::code_point(pointer) {
        return Step::Scalar(c);
    }
    // Steps 3.10-3.11.
    trail_error(
        DecodeErrorKind::UnassignedPointer {
            pointer: pointer as u32,
        },
        byte,
    )
}

/// Step 3.4: `offset`, for a trailing byte: the trailing bytes skip 0x7F.
#[inline]
pub(crate) fn offset(byte: u8) -> u8 {
    if byte < 0x7F { 0x40 } else { 0x41 }
}

/// Step 3.5: `leadingOffset`: the leading bytes skip the single-byte range
/// 0xA0..=0xDF.
#[inline]
pub(crate) fn leading_offset(leading: u8) -> u8 {
    if leading < 0xA0 { 0x81 } else { 0xC1 }
}

/// Step 3.6: the pointer of `leading` and a trailing `byte` in 0x40..=0x7E
/// or 0x80..=0xFC.
#[inline]
pub(crate) fn pointer(leading: u8, byte: u8) -> usize {
    usize::from(leading - leading_offset(leading)) * 188 + usize::from(byte - offset(byte))
}

/// Step 3.7: U+E000 − 8836 + `pointer` for a pointer in the user-defined area.
#[inline]
pub(crate) fn user_defined_code_point(pointer: usize) -> Option<char> {
    if !USER_DEFINED_POINTERS.contains(&pointer) {
        return None;
    }
    let code_point = 0xE000 - 8836 + pointer as u32;
    Some(char::from_u32(code_point).expect("U+E000..=U+E757 are scalar values"))
}

/// U+FF61 − 0xA1 + `byte`, for `byte` in 0xA1..=0xDF.
#[inline]
pub(crate) fn halfwidth_katakana(byte: u8) -> char {
    char::from_u32(0xFF61 - 0xA1 + u32::from(byte)).expect("U+FF61..=U+FF9F are scalar values")
}

/// Steps 3.10-3.11: the error after a leading byte, with an ASCII `byte`
/// restored to the input (the error then covers the leading byte alone).
#[inline]
fn trail_error(kind: DecodeErrorKind, byte: u8) -> Step {
    if byte.is_ascii() {
        Step::error_restoring_byte(kind)
    } else {
        Step::error(kind)
    }
}

/// The [`Shift_JIS` encoder](https://encoding.spec.whatwg.org/#shift_jis-encoder).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ShiftJisEncoder;

impl EncodeHandler for ShiftJisEncoder {
    #[inline]
    fn handle(&mut self, c: char) -> EncodeStep {
        let code_point = match c {
            // Step 2.
            '\0'..='\u{80}' => return EncodeStep::Bytes(Encoded::one(c as u8)),
            // Step 3.
            '\u{A5}' => return EncodeStep::Bytes(Encoded::one(0x5C)),
            // Step 4.
            '\u{203E}' => return EncodeStep::Bytes(Encoded::one(0x7E)),
            // Step 5: halfwidth katakana are single bytes 0xA1..=0xDF.
            '\u{FF61}'..='\u{FF9F}' => {
                return EncodeStep::Bytes(Encoded::one((u32::from(c) - 0xFF61 + 0xA1) as u8));
            }
            // Step 6: MINUS SIGN encodes as FULLWIDTH HYPHEN-MINUS.
            '\u{2212}' => '\u{FF0D}',
            _ => c,
        };
        // Steps 7-8: the lookup leaves out pointers 8272..=8835 (NEC's copies
        // of the IBM extensions), so those characters take the IBM bytes.
        let Some(pointer) = jis0208::shift_jis_pointer(code_point) else {
            return EncodeStep::Error(code_point);
        };
        // Steps 9-13.
        let (leading, trailing) = pointer_bytes(pointer);
        EncodeStep::Bytes(Encoded::two(leading, trailing))
    }
}

/// Steps 9-13 of the encoder: the leading and trailing byte of `pointer`,
/// which must be below 60 × 188 (index jis0208 has fewer pointers, so the
/// leading byte is at most 0xFC and the trailing byte at most 0xFC).
#[inline]
pub(crate) fn pointer_bytes(pointer: u16) -> (u8, u8) {
    let leading = (pointer / 188) as u8;
    let leading_offset = if leading < 0x1F { 0x81 } else { 0xC1 };
    let trailing = (pointer % 188) as u8;
    let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
    (leading + leading_offset, trailing + offset)
}

#[cfg(test)]
mod tests {
    use crate::SHIFT_JIS;
    use crate::provenance::DecodeErrorKind::*;
    use crate::testing::{
        Item::*, check_decode, check_encode, pair_differences, scalar_differences,
    };

    #[test]
    fn decodes_single_bytes() {
        check_decode(
            SHIFT_JIS,
            b"a\x00\x5C\x7E\x7F",
            &[S('a', 1), S('\0', 1), S('\\', 1), S('~', 1), S('\u{7F}', 1)],
        );
        // 0x80 decodes to U+0080.
        check_decode(SHIFT_JIS, b"\x80", &[S('\u{80}', 1)]);
        // Halfwidth katakana, both ends of the range.
        check_decode(
            SHIFT_JIS,
            b"\xA1\xB1\xDF",
            &[S('｡', 1), S('ｱ', 1), S('ﾟ', 1)],
        );
    }

    #[test]
    fn bytes_that_cannot_begin_a_sequence() {
        check_decode(
            SHIFT_JIS,
            b"\xA0\xFD\xFE\xFFa",
            &[
                E(InvalidByte, 1),
                E(InvalidByte, 1),
                E(InvalidByte, 1),
                E(InvalidByte, 1),
                S('a', 1),
            ],
        );
    }

    #[test]
    fn decodes_pairs() {
        check_decode(
            SHIFT_JIS,
            b"\x82\xA0\x93\xFA\x96\x7B",
            &[S('あ', 2), S('日', 2), S('本', 2)],
        );
        // Trailing bytes either side of 0x7F, and the first and last of each
        // range of leading bytes.
        check_decode(
            SHIFT_JIS,
            b"\x81\x40\x81\x7E\x81\x80\x81\xFC",
            &[S('\u{3000}', 2), S('×', 2), S('÷', 2), S('◯', 2)],
        );
        check_decode(SHIFT_JIS, b"\x9F\xFC\xE0\x40", &[S('滌', 2), S('漾', 2)]);
        // NEC row 13 and the IBM extensions decode like any pair.
        check_decode(
            SHIFT_JIS,
            b"\x87\x40\xED\x40\xFA\x40\xFC\x4B",
            &[S('①', 2), S('纊', 2), S('ⅰ', 2), S('黑', 2)],
        );
    }

    #[test]
    fn user_defined_area() {
        // Pointers 8836..=10715 (leading bytes 0xF0..=0xF9) are U+E000..=U+E757,
        // whatever the index says.
        check_decode(
            SHIFT_JIS,
            b"\xF0\x40\xF0\x7E\xF0\x80",
            &[S('\u{E000}', 2), S('\u{E03E}', 2), S('\u{E03F}', 2)],
        );
        check_decode(SHIFT_JIS, b"\xF9\xFC", &[S('\u{E757}', 2)]);
        // Just outside it: 0xEF 0xFC is pointer 8835, not in the index.
        check_decode(
            SHIFT_JIS,
            b"\xEF\xFC",
            &[E(UnassignedPointer { pointer: 8835 }, 2)],
        );
        // A user-defined lead with a trailing byte out of range is still an error.
        check_decode(
            SHIFT_JIS,
            b"\xF0\x7F",
            &[E(InvalidTrail, 1), S('\u{7F}', 1)],
        );
    }

    #[test]
    fn trailing_byte_out_of_range() {
        // ASCII bytes are restored, so the error covers the lead only.
        check_decode(SHIFT_JIS, b"\x82\x3F", &[E(InvalidTrail, 1), S('?', 1)]);
        check_decode(
            SHIFT_JIS,
            b"\x82\x7F",
            &[E(InvalidTrail, 1), S('\u{7F}', 1)],
        );
        check_decode(SHIFT_JIS, b"\x82\x0A", &[E(InvalidTrail, 1), S('\n', 1)]);
        // Non-ASCII bytes outside the trailing ranges are consumed with it.
        check_decode(SHIFT_JIS, b"\x82\xFD", &[E(InvalidTrail, 2)]);
        check_decode(SHIFT_JIS, b"\xE0\xFF\xA1", &[E(InvalidTrail, 2), S('｡', 1)]);
    }

    #[test]
    fn unassigned_pointers() {
        // An ASCII trailing byte is restored: 0x82 0x41 is pointer 189.
        check_decode(
            SHIFT_JIS,
            b"\x82A",
            &[E(UnassignedPointer { pointer: 189 }, 1), S('A', 1)],
        );
        check_decode(
            SHIFT_JIS,
            b"\x85\x40",
            &[E(UnassignedPointer { pointer: 752 }, 1), S('@', 1)],
        );
        check_decode(
            SHIFT_JIS,
            b"\x85\x41",
            &[E(UnassignedPointer { pointer: 753 }, 1), S('A', 1)],
        );
        // A non-ASCII one (0x80..=0xFC) is consumed, even one that could
        // begin a sequence of its own.
        check_decode(
            SHIFT_JIS,
            b"\x81\xAD",
            &[E(UnassignedPointer { pointer: 108 }, 2)],
        );
        check_decode(
            SHIFT_JIS,
            b"\xEA\xA5\x82\xA0",
            &[E(UnassignedPointer { pointer: 7808 }, 2), S('あ', 2)],
        );
        // Past the end of the index.
        check_decode(
            SHIFT_JIS,
            b"\xFC\x4C\xFC\xFC",
            &[
                E(UnassignedPointer { pointer: 11104 }, 1),
                S('L', 1),
                E(UnassignedPointer { pointer: 11279 }, 2),
            ],
        );
    }

    #[test]
    fn end_of_queue() {
        check_decode(SHIFT_JIS, b"\x82", &[E(TruncatedSequence, 1)]);
        check_decode(
            SHIFT_JIS,
            b"\x82\xA0\xFC",
            &[S('あ', 2), E(TruncatedSequence, 1)],
        );
        check_decode(SHIFT_JIS, b"", &[]);
    }

    #[test]
    fn encodes_single_bytes() {
        check_encode(SHIFT_JIS, "a\u{7F}\u{80}\\~", b"a\x7F\x80\\~", &[]);
        check_encode(SHIFT_JIS, "¥‾", b"\x5C\x7E", &[]);
        check_encode(SHIFT_JIS, "｡ｱﾟ", b"\xA1\xB1\xDF", &[]);
    }

    #[test]
    fn encodes_pairs() {
        check_encode(
            SHIFT_JIS,
            "\u{3000}×÷◯あ日本漾",
            b"\x81\x40\x81\x7E\x81\x80\x81\xFC\x82\xA0\x93\xFA\x96\x7B\xE0\x40",
            &[],
        );
        // MINUS SIGN becomes FULLWIDTH HYPHEN-MINUS (pointer 60).
        check_encode(SHIFT_JIS, "\u{2212}\u{FF0D}", b"\x81\x7C\x81\x7C", &[]);
    }

    #[test]
    fn index_shift_jis_pointer() {
        // The first pointer wins: ≒ is at 159 and 1207 (NEC row 13), ∵ at 165,
        // 1217 and 10743, Ⅰ at 1148 and 10726.
        check_encode(SHIFT_JIS, "≒∵Ⅰ", b"\x81\xE0\x81\xE6\x87\x54", &[]);
        // Pointers 8272..=8835 are left out: 纊 (8272, 10744), ⅰ (8634,
        // 10716) and 黑 (8631, 11103) take their IBM extension bytes.
        check_encode(SHIFT_JIS, "纊ⅰ黑", b"\xFA\x5C\xFA\x40\xFC\x4B", &[]);
        // ￢ is at 137, 8644 and 10736: the first.
        check_encode(SHIFT_JIS, "￢", b"\x81\xCA", &[]);
    }

    #[test]
    fn unencodable() {
        // The Private Use Area is decoded but never encoded.
        check_encode(
            SHIFT_JIS,
            "\u{E000}a☃\u{81}😀",
            b"&#57344;a&#9731;&#129;&#128512;",
            &['\u{E000}', '☃', '\u{81}', '😀'],
        );
    }

    #[test]
    fn every_byte_pair_matches_encoding_rs() {
        pair_differences(SHIFT_JIS, encoding_rs::SHIFT_JIS, b"").assert_none();
    }

    #[test]
    fn every_scalar_value_matches_encoding_rs() {
        scalar_differences(SHIFT_JIS, encoding_rs::SHIFT_JIS).assert_none();
    }
}
