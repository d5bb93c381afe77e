//! [Big5](https://encoding.spec.whatwg.org/#big5): the decoder and encoder.

use mojiscope_indexes::big5;

use crate::decoder::{Handler, PairTable, Step, utf8_table};
use crate::encoder::{EncodeHandler, EncodeStep, Encoded};
use crate::provenance::DecodeErrorKind;

/// Not in spec: index Big5 as the driver's pair table wants it: the BMP
/// code points, 0 for none, and a mark for the code points above U+FFFF
/// and for the four pointers of step 3.6, which the handler decodes.
static BMP_CODE_POINTS: [u16; big5::table().len()] = {
    let index = big5::table();
    let mut table = [0; big5::table().len()];
    let mut pointer = 0;
    while pointer < index.len() {
        let code_point = index[pointer];
        table[pointer] = if code_point > 0xFFFF || matches!(pointer, 1133 | 1135 | 1164 | 1166) {
            PairTable::HANDLER_CODE_POINT
        } else {
            code_point as u16
        };
        pointer += 1;
    }
    table
};

/// Not in spec: steps 3-6 as flat tables for the driver: a leading byte in
/// 0x81..=0xFE (step 5) or 0x80 and 0xFF, errors on their own (step 6); a
/// trailing byte in 0x40..=0x7E or 0xA1..=0xFE (skipping 0x7F..=0xA0), any
/// other an error (steps 3.3-3.10); and the code point of their pointer or
/// none (steps 3.7-3.10).
static PAIRS: PairTable = PairTable::new(
    &[(0x81, 0xFE, 0)],
    157,
    &[0x80, 0xFF],
    &[(0x40, 0x7E, 0), (0xA1, 0xFE, 0x7E - 0x40 + 1)],
    &[],
    &BMP_CODE_POINTS,
    &UTF8,
);

/// Not in spec: `BMP_CODE_POINTS` as UTF-8, for the driver's pair table.
static UTF8: [u32; big5::table().len()] = utf8_table(&BMP_CODE_POINTS);

/// The [Big5 decoder](https://encoding.spec.whatwg.org/#big5-decoder).
#[derive(Clone, Debug, Default)]
pub(crate) struct Big5Decoder {
    /// "Big5 leading".
    pub(crate) leading: u8,
}

impl Handler for Big5Decoder {
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        // Step 3: a leading byte is pending; this is its trailing byte.
        if self.leading != 0 {
            // Steps 3.1-3.2.
            let leading = self.leading;
            self.leading = 0;
            return pair(leading, byte);
        }
        match byte {
            // Step 4.
            0x00..=0x7F => Step::Scalar(char::from(byte)),
            // Step 5: a leading byte.
            0x81..=0xFE => {
                self.leading = byte;
                Step::Continue
            }
            // Step 6: 0x80 and 0xFF begin nothing.
            0x80 | 0xFF => Step::error(DecodeErrorKind::InvalidByte),
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

    /// Not in spec: steps 5 and 3.3-3.8 for the common case, as tables.
    #[inline]
    fn pair_table(&self) -> Option<&'static PairTable> {
        Some(&PAIRS)
    }

    /// Not in spec: the fast path. With nothing pending, step 4 for an ASCII
    /// byte, or step 5 (a leading byte) followed by steps 3.1-3.8 for the
    /// next byte when they give one code point, through the same `pair` as
    /// `handle`. Pairs of code points, errors and the rest go to `handle`.
    #[inline]
    fn decode_valid(&mut self, bytes: &[u8]) -> Option<(char, usize)> {
        let (&byte, rest) = bytes.split_first()?;
        if self.leading != 0 {
            return None;
        }
        match byte {
            // Step 4.
            0x00..=0x7F => Some((char::from(byte), 1)),
            // Step 5, then step 3 for the next byte.
            0x81..=0xFE => match pair(byte, *rest.first()?) {
                Step::Scalar(c) => Some((c, 2)),
                _ => None,
            },
            _ => None,
        }
    }
}

/// Steps 3.3-3.10: the pair of `leading` and `byte`, once leading has been
/// taken and reset.
#[inline]
fn pair(leading: u8, byte: u8) -> Step {
    if !matches!(byte, 0x40..=0x7E | 0xA1..=0xFE) {
        // Steps 3.7-3.10 with a null pointer: a byte outside the
        // trailing range. An ASCII byte is restored and decoded again.
        return Step::Error {
            kind: DecodeErrorKind::InvalidTrail,
            restore: u8::from(byte.is_ascii()),
        };
    }
    // Steps 3.3-3.5.
    let pointer = pointer(leading, byte);
    // Step 3.6.
    if let Some((first, second)) = code_points_pair(pointer) {
        return Step::Pair(first, second);
    }
    // Steps 3.7-3.8.
    if let Some(c) = big5::code_point(pointer) {
        return Step::Scalar(c);
    }
    // Steps 3.9-3.10: a pointer without a code point. An ASCII
    // trailing byte is restored.
    Step::Error {
        kind: DecodeErrorKind::UnassignedPointer {
            pointer: pointer as u32,
        },
        restore: u8::from(byte.is_ascii()),
    }
}

/// Step 3.4: `offset`, for a trailing byte: the trailing bytes skip
/// 0x7F..=0xA0.
#[inline]
pub(crate) fn offset(byte: u8) -> u8 {
    if byte < 0x7F { 0x40 } else { 0x62 }
}

/// Step 3.5: the pointer of `leading` and a trailing `byte` in 0x40..=0x7E
/// or 0xA1..=0xFE.
#[inline]
pub(crate) fn pointer(leading: u8, byte: u8) -> usize {
    usize::from(leading - 0x81) * 157 + usize::from(byte - offset(byte))
}

/// Step 3.6: the four pointers whose characters Unicode has only as a
/// letter and a combining mark, and their two code points.
#[inline]
pub(crate) fn code_points_pair(pointer: usize) -> Option<(char, char)> {
    match pointer {
        1133 => Some(('\u{00CA}', '\u{0304}')),
        1135 => Some(('\u{00CA}', '\u{030C}')),
        1164 => Some(('\u{00EA}', '\u{0304}')),
        1166 => Some(('\u{00EA}', '\u{030C}')),
        _ => None,
    }
}

/// The [Big5 encoder](https://encoding.spec.whatwg.org/#big5-encoder).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Big5Encoder;

impl EncodeHandler for Big5Encoder {
    #[inline]
    fn handle(&mut self, c: char) -> EncodeStep {
        // Step 2.
        if c.is_ascii() {
            return EncodeStep::Bytes(Encoded::one(c as u8));
        }
        // Steps 3-4: "index Big5 pointer" leaves out the HKSCS pointers and
        // takes the last pointer of six duplicates.
        let Some(pointer) = big5::big5_pointer(c) else {
            return EncodeStep::Error(c);
        };
        // Steps 5-8.
        let (leading, trailing) = pointer_bytes(pointer);
        EncodeStep::Bytes(Encoded::two(leading, trailing))
    }
}

/// Steps 5-8 of the encoder: the pointer's leading and trailing byte,
/// skipping 0x7F-0xA0 in the trailing byte. The pointer must be below
/// 126 × 157, so that both fit a byte.
#[inline]
pub(crate) fn pointer_bytes(pointer: u16) -> (u8, u8) {
    let leading = (pointer / 157 + 0x81) as u8;
    let trailing = (pointer % 157) as u8;
    let offset = if trailing < 0x3F { 0x40 } else { 0x62 };
    (leading, trailing + offset)
}

#[cfg(test)]
mod tests {
    use crate::BIG5;
    use crate::provenance::DecodeErrorKind::*;
    use crate::testing::{
        Item::*, check_decode, check_encode, pair_differences, scalar_differences,
    };

    // Decoder.

    #[test]
    fn decodes_single_bytes() {
        // Step 4.
        check_decode(BIG5, b"a\x00\x7F", &[S('a', 1), S('\0', 1), S('\x7F', 1)]);
        // Step 6: 0x80 and 0xFF begin nothing.
        check_decode(BIG5, b"\x80", &[E(InvalidByte, 1)]);
        check_decode(BIG5, b"\xFF", &[E(InvalidByte, 1)]);
        check_decode(
            BIG5,
            b"\x80A\xFF\x80",
            &[
                E(InvalidByte, 1),
                S('A', 1),
                E(InvalidByte, 1),
                E(InvalidByte, 1),
            ],
        );
    }

    #[test]
    fn decodes_two_bytes() {
        // Pointer 5024 (0xA1 0x40), 5086 (0xA1 0x7E), 5087 (0xA1 0xA1: the
        // trailing byte skips 0x7F-0xA0), 5180 (0xA1 0xFE), 5181 (0xA2 0x40).
        check_decode(
            BIG5,
            b"\xA1\x40\xA1\x7E\xA1\xA1\xA1\xFE\xA2\x40",
            &[
                S('\u{3000}', 2),
                S('\u{FE5A}', 2),
                S('\u{FE5B}', 2),
                S('\u{FF0F}', 2),
                S('\u{FF3C}', 2),
            ],
        );
        check_decode(BIG5, b"\xA4\x40", &[S('一', 2)]);
        // The last pointers, 19780 (plane 2) and 19781.
        check_decode(
            BIG5,
            b"\xFE\xFD\xFE\xFE",
            &[S('\u{2910D}', 2), S('\u{79D4}', 2)],
        );
    }

    #[test]
    fn decodes_the_pairs() {
        // Step 3.6: four pointers give two code points each.
        check_decode(BIG5, b"\x88\x62", &[P('\u{CA}', '\u{304}', 2)]);
        check_decode(BIG5, b"\x88\x64", &[P('\u{CA}', '\u{30C}', 2)]);
        check_decode(BIG5, b"\x88\xA3", &[P('\u{EA}', '\u{304}', 2)]);
        check_decode(BIG5, b"\x88\xA5", &[P('\u{EA}', '\u{30C}', 2)]);
        // Their neighbours are single code points.
        check_decode(
            BIG5,
            b"\x88\x61\x88\x63\x88\x65",
            &[S('\u{D2}', 2), S('\u{1EBE}', 2), S('\u{1EC0}', 2)],
        );
        check_decode(
            BIG5,
            b"\x88\xA2\x88\xA4\x88\xA6",
            &[S('\u{FC}', 2), S('\u{1EBF}', 2), S('\u{1EC1}', 2)],
        );
        // With text around them.
        check_decode(
            BIG5,
            b"a\x88\x62\x88\xA5b",
            &[
                S('a', 1),
                P('\u{CA}', '\u{304}', 2),
                P('\u{EA}', '\u{30C}', 2),
                S('b', 1),
            ],
        );
    }

    #[test]
    fn decodes_hkscs() {
        // Pointers below (0xA1 - 0x81) × 157 decode (the encoder never
        // produces them), in the BMP and in plane 2.
        check_decode(
            BIG5,
            b"\x87\x40\x87\x45\x8E\x69",
            &[S('\u{43F0}', 2), S('\u{27267}', 2), S('\u{7BB8}', 2)],
        );
    }

    #[test]
    fn rejects_bytes_outside_the_trailing_range() {
        // Steps 3.5, 3.9-3.10 with a null pointer: an ASCII byte is restored
        // and decoded again, so the error covers the lead alone.
        check_decode(BIG5, b"\xA4\x7F", &[E(InvalidTrail, 1), S('\x7F', 1)]);
        check_decode(BIG5, b"\xA4\x3F", &[E(InvalidTrail, 1), S('?', 1)]);
        check_decode(BIG5, b"\xA4\x30", &[E(InvalidTrail, 1), S('0', 1)]);
        check_decode(BIG5, b"\xFE\x00", &[E(InvalidTrail, 1), S('\0', 1)]);
        check_decode(
            BIG5,
            b"\xA4\x20\xA4\x40",
            &[E(InvalidTrail, 1), S(' ', 1), S('一', 2)],
        );
        // A non-ASCII byte outside the range is consumed with the lead, even
        // one that could lead (0x81-0xA0).
        check_decode(BIG5, b"\xA4\x80", &[E(InvalidTrail, 2)]);
        check_decode(BIG5, b"\xA4\xA0", &[E(InvalidTrail, 2)]);
        check_decode(BIG5, b"\xA4\x81\x40", &[E(InvalidTrail, 2), S('@', 1)]);
        check_decode(BIG5, b"\xA4\xFFA", &[E(InvalidTrail, 2), S('A', 1)]);
    }

    #[test]
    fn rejects_pointers_without_a_code_point() {
        // Steps 3.9-3.10: leads 0x81-0x86 have no code points (the index
        // starts at 942). An ASCII trailing byte is restored.
        check_decode(
            BIG5,
            b"\x81\x40",
            &[E(UnassignedPointer { pointer: 0 }, 1), S('@', 1)],
        );
        check_decode(
            BIG5,
            b"\x86\x7E",
            &[
                E(
                    UnassignedPointer {
                        pointer: 5 * 157 + 62,
                    },
                    1,
                ),
                S('~', 1),
            ],
        );
        check_decode(
            BIG5,
            b"\x81\xA1",
            &[E(UnassignedPointer { pointer: 63 }, 2)],
        );
        check_decode(
            BIG5,
            b"\x86\xFEa",
            &[E(UnassignedPointer { pointer: 941 }, 2), S('a', 1)],
        );
        // Gaps inside the index: after the euro sign (0xA3 0xE1, pointer
        // 5465), and in the HKSCS rows.
        check_decode(
            BIG5,
            b"\xA3\xE1\xA3\xE2",
            &[S('€', 2), E(UnassignedPointer { pointer: 5466 }, 2)],
        );
        check_decode(
            BIG5,
            b"\x87\x66",
            &[E(UnassignedPointer { pointer: 980 }, 1), S('f', 1)],
        );
    }

    #[test]
    fn truncated_at_the_end() {
        // Step 1.
        check_decode(BIG5, b"\xA4", &[E(TruncatedSequence, 1)]);
        check_decode(BIG5, b"a\x81", &[S('a', 1), E(TruncatedSequence, 1)]);
        check_decode(
            BIG5,
            b"\xA4\x40\xFE",
            &[S('一', 2), E(TruncatedSequence, 1)],
        );
        // Step 2.
        check_decode(BIG5, b"", &[]);
    }

    // Encoder.

    #[test]
    fn encodes_ascii_and_two_bytes() {
        check_encode(BIG5, "a\0\x7F", b"a\0\x7F", &[]);
        // Steps 5-8, with the offset switching between trailing 0x3E and 0x3F.
        check_encode(
            BIG5,
            "\u{3000}\u{FE5A}\u{FE5B}\u{FF0F}\u{FF3C}一",
            b"\xA1\x40\xA1\x7E\xA1\xA1\xA1\xFE\xA2\x40\xA4\x40",
            &[],
        );
        // Plane 2, and the last pointers.
        check_encode(
            BIG5,
            "\u{200CC}\u{2910D}\u{79D4}",
            b"\xC8\x7A\xFE\xFD\xFE\xFE",
            &[],
        );
    }

    #[test]
    fn never_encodes_hkscs_pointers() {
        // Step 3: pointers below (0xA1 - 0x81) × 157 are left out, so code
        // points found only there cannot be encoded...
        check_encode(
            BIG5,
            "\u{43F0}\u{27267}",
            b"&#17392;&#160359;",
            &['\u{43F0}', '\u{27267}'],
        );
        // ...nor the pairs' letters (Ê is pointer 1137 only) ...
        check_encode(
            BIG5,
            "\u{CA}\u{304}",
            b"&#202;&#772;",
            &['\u{CA}', '\u{304}'],
        );
        // ...and code points also found later take the later pointer.
        check_encode(BIG5, "\u{7BB8}", b"\xBA\xE6", &[]);
    }

    #[test]
    fn encodes_duplicates() {
        // Step 3: these six take their last pointer.
        check_encode(
            BIG5,
            "\u{2550}\u{255E}\u{2561}\u{256A}",
            b"\xF9\xF9\xF9\xE9\xF9\xEB\xF9\xEA",
            &[],
        );
        check_encode(BIG5, "\u{5341}\u{5345}", b"\xA4\x51\xA4\xCA", &[]);
        // Their first pointers still decode to them.
        check_decode(
            BIG5,
            b"\xA2\xA4\xA2\xA5\xA2\xA7\xA2\xA6\xA2\xCC\xA2\xCE",
            &[
                S('\u{2550}', 2),
                S('\u{255E}', 2),
                S('\u{2561}', 2),
                S('\u{256A}', 2),
                S('\u{5341}', 2),
                S('\u{5345}', 2),
            ],
        );
        // Other duplicates take their first pointer, such as U+256D next to
        // them and U+3003.
        check_encode(BIG5, "\u{256D}\u{3003}", b"\xA2\x7E\xA1\xB2", &[]);
    }

    #[test]
    fn rejects_what_big5_lacks() {
        // Step 4.
        check_encode(BIG5, "a€é😀b", b"a\xA3\xE1&#233;&#128512;b", &['é', '😀']);
    }

    // Differential tests against encoding_rs.

    #[test]
    fn every_byte_pair_matches_encoding_rs() {
        pair_differences(BIG5, encoding_rs::BIG5, b"").assert_none();
    }

    #[test]
    fn every_scalar_value_matches_encoding_rs() {
        scalar_differences(BIG5, encoding_rs::BIG5).assert_none();
    }
}
