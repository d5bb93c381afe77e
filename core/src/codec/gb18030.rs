//! [gb18030](https://encoding.spec.whatwg.org/#gb18030): the decoder, and the
//! encoder shared with [GBK](https://encoding.spec.whatwg.org/#gbk) (whose
//! decoder is the gb18030 decoder and whose encoder is the gb18030 encoder
//! with "is GBK" set).

use mojiscope_indexes::{gb18030, gb18030_ranges};

use crate::decoder::{Handler, PairTable, Step, utf8_table};
use crate::encoder::{EncodeHandler, EncodeStep, Encoded};
use crate::provenance::DecodeErrorKind;

/// Four-byte sequences: how many pointers one value of the first byte spans
/// (10 × 126 × 10), and one value of the second byte (10 × 126).
pub(crate) const FIRST_BYTE_SPAN: u32 = 10 * 126 * 10;
pub(crate) const SECOND_BYTE_SPAN: u32 = 10 * 126;

/// Not in spec: steps 5-9 for two bytes as flat tables for the driver: a
/// leading byte in 0x81..=0xFE (step 8) or 0xFF, an error on its own (step
/// 9); a trailing byte in 0x40..=0x7E or 0x80..=0xFE (skipping 0x7F), any
/// other an error (steps 5.2-5.10), but a digit, which begins a four-byte
/// sequence (step 5.1) and goes to the handler; and the code point of
/// their pointer in index gb18030 (steps 5.7-5.10).
static PAIRS: PairTable = PairTable::new(
    &[(0x81, 0xFE, 0)],
    190,
    &[0xFF],
    &[(0x40, 0x7E, 0), (0x80, 0xFE, 0x7E - 0x40 + 1)],
    &[(0x30, 0x39)],
    gb18030::table(),
    &UTF8,
);

/// Not in spec: index gb18030 as UTF-8, for the driver's pair table.
static UTF8: [u32; gb18030::table().len()] = utf8_table(gb18030::table());

/// The [gb18030 decoder](https://encoding.spec.whatwg.org/#gb18030-decoder),
/// also GBK's decoder.
///
/// The state is nested: `third` is set only when `second` is, and `second`
/// only when `first` is, so `first == 0x00` means nothing is pending.
#[derive(Clone, Debug, Default)]
pub(crate) struct Gb18030Decoder {
    /// "gb18030 first".
    pub(crate) first: u8,
    /// "gb18030 second".
    pub(crate) second: u8,
    /// "gb18030 third".
    pub(crate) third: u8,
}

impl Handler for Gb18030Decoder {
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        // Not in spec: the standard tests third, then second, then first.
        // Each is set only while the one before it is, so testing them the
        // other way round picks the same step, and tests the common states
        // (nothing pending, a leading byte pending) first.
        if self.first == 0 {
            self.handle_without_pending(byte)
        } else if self.second == 0 {
            self.handle_after_first(byte)
        } else if self.third == 0 {
            self.handle_after_second(byte)
        } else {
            self.handle_after_third(byte)
        }
    }

    fn handle_end(&mut self) -> Step {
        // Step 1.
        if self.first == 0 {
            return Step::Finished;
        }
        // Step 2: the error covers every pending byte (one to three).
        *self = Self::default();
        Step::error(DecodeErrorKind::TruncatedSequence)
    }

    #[inline]
    fn is_ascii_ground(&self) -> bool {
        self.first == 0
    }

    /// Not in spec: steps 8 and 5.2-5.8 for the common case, as tables.
    #[inline]
    fn pair_table(&self) -> Option<&'static PairTable> {
        Some(&PAIRS)
    }

    /// Not in spec: the fast path. With nothing pending, steps 6-7 for a
    /// single byte, or step 8 (a leading byte) followed by steps 5.2-5.8 for
    /// a next byte that is not a digit, when they give a code point, through
    /// the same `handle_after_first` as `handle`. Four-byte sequences,
    /// errors and the rest go to `handle`.
    #[inline]
    fn decode_valid(&mut self, bytes: &[u8]) -> Option<(char, usize)> {
        let (&byte, rest) = bytes.split_first()?;
        if self.first != 0 {
            return None;
        }
        match byte {
            // Step 6.
            0x00..=0x7F => Some((char::from(byte), 1)),
            // Step 7.
            0x80 => Some(('\u{20AC}', 1)),
            // Step 8, then step 5 for the next byte.
            0x81..=0xFE => {
                let next = *rest.first()?;
                // Step 5.1 would begin a four-byte sequence.
                if next.is_ascii_digit() {
                    return None;
                }
                let mut after_first = Self {
                    first: byte,
                    ..Self::default()
                };
                match after_first.handle_after_first(next) {
                    Step::Scalar(c) => Some((c, 2)),
                    _ => None,
                }
            }
            // Step 9.
            0xFF => None,
        }
    }
}

impl Gb18030Decoder {
    /// Step 3: three bytes pending, so `byte` is the fourth of a four-byte
    /// sequence.
    #[inline]
    fn handle_after_third(&mut self, byte: u8) -> Step {
        // Step 3.1: not a digit. Second and third go back to the input with
        // this byte (restore « second, third, byte »): the error covers the
        // first byte alone.
        if !byte.is_ascii_digit() {
            *self = Self::default();
            return Step::Error {
                kind: DecodeErrorKind::UnexpectedByte,
                restore: 3,
            };
        }
        // Step 3.2: the four-byte pointer.
        let pointer = four_byte_pointer([self.first, self.second, self.third, byte]);
        // Step 3.3.
        *self = Self::default();
        // Steps 3.4-3.5: pointers in the gaps of the ranges (between the BMP
        // and U+10000, past U+10FFFF) have no code point; the error covers
        // all four bytes.
        match gb18030_ranges::code_point(pointer) {
            Some(c) => Step::Scalar(c),
            None => Step::error(DecodeErrorKind::UnassignedPointer { pointer }),
        }
    }

    /// Step 4: two bytes pending (a leading byte and a digit).
    #[inline]
    fn handle_after_second(&mut self, byte: u8) -> Step {
        // Step 4.1: a third byte in range keeps the four-byte sequence going.
        if (0x81..=0xFE).contains(&byte) {
            self.third = byte;
            return Step::Continue;
        }
        // Step 4.2: restore « second, byte »: the digit and this byte are
        // decoded again; the error covers the first byte alone.
        self.first = 0;
        self.second = 0;
        Step::Error {
            kind: DecodeErrorKind::UnexpectedByte,
            restore: 2,
        }
    }

    /// Step 5: one leading byte pending.
    #[inline]
    fn handle_after_first(&mut self, byte: u8) -> Step {
        // Step 5.1: a digit starts a four-byte sequence.
        if byte.is_ascii_digit() {
            self.second = byte;
            return Step::Continue;
        }
        // Steps 5.2-5.3.
        let leading = self.first;
        self.first = 0;
        if !matches!(byte, 0x40..=0x7E | 0x80..=0xFE) {
            // Steps 5.7-5.10 with a null pointer: a byte outside the trailing
            // range. An ASCII byte is restored and decoded again.
            return Step::Error {
                kind: DecodeErrorKind::InvalidTrail,
                restore: u8::from(byte.is_ascii()),
            };
        }
        // Steps 5.4-5.6.
        let pointer = two_byte_pointer(leading, byte);
        // Steps 5.7-5.8.
        if let Some(c) = gb18030::code_point(pointer) {
            return Step::Scalar(c);
        }
        // Steps 5.9-5.10: a pointer without a code point (index gb18030 has
        // none today, but the steps allow it). An ASCII trailing byte is
        // restored.
        Step::Error {
            kind: DecodeErrorKind::UnassignedPointer {
                pointer: pointer as u32,
            },
            restore: u8::from(byte.is_ascii()),
        }
    }

    /// Steps 6-9: nothing pending.
    #[inline]
    fn handle_without_pending(&mut self, byte: u8) -> Step {
        match byte {
            // Step 6.
            0x00..=0x7F => Step::Scalar(char::from(byte)),
            // Step 7.
            0x80 => Step::Scalar('\u{20AC}'),
            // Step 8: a leading byte.
            0x81..=0xFE => {
                self.first = byte;
                Step::Continue
            }
            // Step 9: 0xFF begins nothing.
            0xFF => Step::error(DecodeErrorKind::InvalidByte),
        }
    }
}

/// Step 3.2: the pointer of a four-byte sequence (first byte in 0x81..=0xFE,
/// second a digit, third in 0x81..=0xFE, fourth a digit).
#[inline]
pub(crate) fn four_byte_pointer([first, second, third, byte]: [u8; 4]) -> u32 {
    u32::from(first - 0x81) * FIRST_BYTE_SPAN
        + u32::from(second - 0x30) * SECOND_BYTE_SPAN
        + u32::from(third - 0x81) * 10
        + u32::from(byte - 0x30)
}

/// Step 5.5: `offset`, for a trailing byte: the trailing bytes skip 0x7F.
#[inline]
pub(crate) fn offset(byte: u8) -> u8 {
    if byte < 0x7F { 0x40 } else { 0x41 }
}

/// Step 5.6: the pointer of `leading` and a trailing `byte` in 0x40..=0x7E
/// or 0x80..=0xFE.
#[inline]
pub(crate) fn two_byte_pointer(leading: u8, byte: u8) -> usize {
    usize::from(leading - 0x81) * 190 + usize::from(byte - offset(byte))
}

/// The [gb18030 encoder](https://encoding.spec.whatwg.org/#gb18030-encoder),
/// also GBK's encoder with "is GBK" set.
#[derive(Clone, Debug, Default)]
pub(crate) struct Gb18030Encoder {
    /// "is GBK".
    is_gbk: bool,
}

impl Gb18030Encoder {
    pub(crate) fn new(is_gbk: bool) -> Self {
        Self { is_gbk }
    }
}

/// Step 5's table: Private Use code points that GB18030-2005 encoded as two
/// bytes and that keep those bytes, although the bytes now decode to other
/// code points (index gb18030 follows GB18030-2022).
#[inline]
fn gb18030_2005_bytes(c: char) -> Option<(u8, u8)> {
    Some(match c {
        '\u{E78D}' => (0xA6, 0xD9),
        '\u{E78E}' => (0xA6, 0xDA),
        '\u{E78F}' => (0xA6, 0xDB),
        '\u{E790}' => (0xA6, 0xDC),
        '\u{E791}' => (0xA6, 0xDD),
        '\u{E792}' => (0xA6, 0xDE),
        '\u{E793}' => (0xA6, 0xDF),
        '\u{E794}' => (0xA6, 0xEC),
        '\u{E795}' => (0xA6, 0xED),
        '\u{E796}' => (0xA6, 0xF3),
        '\u{E81E}' => (0xFE, 0x59),
        '\u{E826}' => (0xFE, 0x61),
        '\u{E82B}' => (0xFE, 0x66),
        '\u{E82C}' => (0xFE, 0x67),
        '\u{E832}' => (0xFE, 0x6D),
        '\u{E843}' => (0xFE, 0x7E),
        '\u{E854}' => (0xFE, 0x90),
        '\u{E864}' => (0xFE, 0xA0),
        _ => return None,
    })
}

impl EncodeHandler for Gb18030Encoder {
    #[inline]
    fn handle(&mut self, c: char) -> EncodeStep {
        // Step 2.
        if c.is_ascii() {
            return EncodeStep::Bytes(Encoded::one(c as u8));
        }
        // Step 3: 0xA3 0xA0 decodes to U+3000, so U+E5E5 has no bytes.
        if c == '\u{E5E5}' {
            return EncodeStep::Error(c);
        }
        // Step 4: GBK's single-byte euro sign.
        if self.is_gbk && c == '\u{20AC}' {
            return EncodeStep::Bytes(Encoded::one(0x80));
        }
        // Step 5.
        if let Some((leading, trailing)) = gb18030_2005_bytes(c) {
            return EncodeStep::Bytes(Encoded::two(leading, trailing));
        }
        // Steps 6-7: two bytes from the index pointer, skipping 0x7F in the
        // trailing byte.
        if let Some(pointer) = gb18030::pointer(c) {
            let (leading, trailing) = two_byte_pointer_bytes(pointer);
            return EncodeStep::Bytes(Encoded::two(leading, trailing));
        }
        // Step 8: GBK has no four-byte sequences.
        if self.is_gbk {
            return EncodeStep::Error(c);
        }
        // Step 9.
        let code_point = u32::from(c);
        let pointer = if code_point >= 0x1_0000 {
            // Not in spec: the shortcut for the last range of index gb18030
            // ranges (pointer 189000 is U+10000, and every later code point
            // follows on), which saves its binary search.
            189_000 + (code_point - 0x1_0000)
        } else {
            gb18030_ranges::pointer(c)
        };
        debug_assert_ne!(
            pointer,
            gb18030_ranges::NO_RANGE,
            "only ASCII precedes the first range"
        );
        // Steps 10-16.
        EncodeStep::Bytes(Encoded::four(four_byte_pointer_bytes(pointer)))
    }
}

/// Steps 6-7 of the encoder: the leading and trailing byte of a two-byte
/// `pointer` (below 126 × 190), skipping 0x7F in the trailing byte.
#[inline]
pub(crate) fn two_byte_pointer_bytes(pointer: u16) -> (u8, u8) {
    let leading = (pointer / 190 + 0x81) as u8;
    let trailing = (pointer % 190) as u8;
    let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
    (leading, trailing + offset)
}

/// Steps 10-16 of the encoder: the four bytes of `pointer`, its digits in
/// the mixed radix of the four bytes (126, 10, 126, 10). The pointer must be
/// below 1237576, so that byte1 is below 99: no truncation.
#[inline]
pub(crate) fn four_byte_pointer_bytes(mut pointer: u32) -> [u8; 4] {
    let byte1 = pointer / FIRST_BYTE_SPAN;
    pointer %= FIRST_BYTE_SPAN;
    let byte2 = pointer / SECOND_BYTE_SPAN;
    pointer %= SECOND_BYTE_SPAN;
    let byte3 = pointer / 10;
    let byte4 = pointer % 10;
    [
        (byte1 + 0x81) as u8,
        (byte2 + 0x30) as u8,
        (byte3 + 0x81) as u8,
        (byte4 + 0x30) as u8,
    ]
}

#[cfg(test)]
mod tests {
    use crate::provenance::DecodeErrorKind::*;
    use crate::testing::{
        Item::*, check_decode, check_encode, decode_replacing, pair_differences, scalar_differences,
    };
    use crate::{GB18030, GBK};

    /// The 2022 table of the encoder's step 5, with the code point index
    /// gb18030 gives each pair of bytes.
    const TABLE_2022: [(char, [u8; 2], char); 18] = [
        ('\u{E78D}', [0xA6, 0xD9], '\u{FE10}'),
        ('\u{E78E}', [0xA6, 0xDA], '\u{FE12}'),
        ('\u{E78F}', [0xA6, 0xDB], '\u{FE11}'),
        ('\u{E790}', [0xA6, 0xDC], '\u{FE13}'),
        ('\u{E791}', [0xA6, 0xDD], '\u{FE14}'),
        ('\u{E792}', [0xA6, 0xDE], '\u{FE15}'),
        ('\u{E793}', [0xA6, 0xDF], '\u{FE16}'),
        ('\u{E794}', [0xA6, 0xEC], '\u{FE17}'),
        ('\u{E795}', [0xA6, 0xED], '\u{FE18}'),
        ('\u{E796}', [0xA6, 0xF3], '\u{FE19}'),
        ('\u{E81E}', [0xFE, 0x59], '\u{9FB4}'),
        ('\u{E826}', [0xFE, 0x61], '\u{9FB5}'),
        ('\u{E82B}', [0xFE, 0x66], '\u{9FB6}'),
        ('\u{E82C}', [0xFE, 0x67], '\u{9FB7}'),
        ('\u{E832}', [0xFE, 0x6D], '\u{9FB8}'),
        ('\u{E843}', [0xFE, 0x7E], '\u{9FB9}'),
        ('\u{E854}', [0xFE, 0x90], '\u{9FBA}'),
        ('\u{E864}', [0xFE, 0xA0], '\u{9FBB}'),
    ];

    // Decoder, steps 6-9: no sequence pending.

    #[test]
    fn decodes_single_bytes() {
        for encoding in [GB18030, GBK] {
            check_decode(
                encoding,
                b"a\x00\x7F",
                &[S('a', 1), S('\0', 1), S('\x7F', 1)],
            );
            // Step 7: 0x80 is the euro sign.
            check_decode(encoding, b"\x80", &[S('€', 1)]);
            // Step 9: 0xFF begins nothing.
            check_decode(encoding, b"\xFF", &[E(InvalidByte, 1)]);
            check_decode(
                encoding,
                b"\xFFA\xFF\xFF",
                &[
                    E(InvalidByte, 1),
                    S('A', 1),
                    E(InvalidByte, 1),
                    E(InvalidByte, 1),
                ],
            );
        }
    }

    // Decoder, step 5: two-byte sequences.

    #[test]
    fn decodes_two_bytes() {
        for encoding in [GB18030, GBK] {
            // Pointer 0 and the last pointer, 23939.
            check_decode(encoding, b"\x81\x40", &[S('\u{4E02}', 2)]);
            check_decode(encoding, b"\xFE\xFE", &[S('\u{E4C5}', 2)]);
            // The trailing byte's offset: 0x7E is pointer 62, 0x80 is 63
            // (0x7F is skipped), 0x81 is 64.
            check_decode(
                encoding,
                b"\x81\x7E\x81\x80\x81\x81",
                &[S('\u{4E8A}', 2), S('\u{4E90}', 2), S('\u{4E96}', 2)],
            );
            // Pointer 189 (lead 0x81, trail 0xFE), then 190 (lead 0x82, trail 0x40).
            check_decode(
                encoding,
                b"\x81\xFE\x82\x40",
                &[S('\u{4FA2}', 2), S('\u{4FA4}', 2)],
            );
            // The euro sign's own two bytes, and 0xA3 0xA0 which index
            // gb18030 maps to U+3000 (as 0xA1 0xA1).
            check_decode(
                encoding,
                b"\xA2\xE3\xA3\xA0\xA1\xA1",
                &[S('€', 2), S('\u{3000}', 2), S('\u{3000}', 2)],
            );
        }
    }

    #[test]
    fn decodes_the_2022_mappings() {
        // GB18030-2022 maps these bytes to the code points, not to the
        // Private Use code points the encoder still sends there.
        for (_, bytes, decoded) in TABLE_2022 {
            check_decode(GB18030, &bytes, &[S(decoded, 2)]);
            check_decode(GBK, &bytes, &[S(decoded, 2)]);
        }
    }

    #[test]
    fn rejects_bytes_outside_the_trailing_range() {
        for encoding in [GB18030, GBK] {
            // Steps 5.6-5.10 with a null pointer: an ASCII byte is restored
            // and decoded again; the error covers the lead alone.
            check_decode(encoding, b"\x81\x7F", &[E(InvalidTrail, 1), S('\x7F', 1)]);
            check_decode(encoding, b"\x81\x3F", &[E(InvalidTrail, 1), S('?', 1)]);
            check_decode(encoding, b"\x81\x3A", &[E(InvalidTrail, 1), S(':', 1)]);
            check_decode(encoding, b"\x81\x2F", &[E(InvalidTrail, 1), S('/', 1)]);
            check_decode(encoding, b"\xFE\x00", &[E(InvalidTrail, 1), S('\0', 1)]);
            check_decode(
                encoding,
                b"\x81\x20A",
                &[E(InvalidTrail, 1), S(' ', 1), S('A', 1)],
            );
            // A non-ASCII byte outside the range (only 0xFF) is consumed too.
            check_decode(encoding, b"\x81\xFF", &[E(InvalidTrail, 2)]);
            check_decode(encoding, b"\xFE\xFFA", &[E(InvalidTrail, 2), S('A', 1)]);
            // The restored byte decodes as itself, then a new sequence.
            check_decode(
                encoding,
                b"\x81\x7F\x81\x40",
                &[E(InvalidTrail, 1), S('\x7F', 1), S('\u{4E02}', 2)],
            );
        }
    }

    // Decoder, steps 3-5.1: four-byte sequences.

    #[test]
    fn decodes_four_bytes() {
        for encoding in [GB18030, GBK] {
            // Pointer 0 is U+0080; 36 is U+00A5.
            check_decode(encoding, b"\x81\x30\x81\x30", &[S('\u{80}', 4)]);
            check_decode(encoding, b"\x81\x30\x84\x36", &[S('\u{A5}', 4)]);
            // Pointer 7457 is U+E7C7 (the GB18030-2005 change).
            check_decode(encoding, b"\x81\x35\xF4\x37", &[S('\u{E7C7}', 4)]);
            // Pointer 39394 is the last BMP range (U+FFE6); 39419 is U+FFFF.
            check_decode(encoding, b"\x84\x31\xA2\x34", &[S('\u{FFE6}', 4)]);
            check_decode(encoding, b"\x84\x31\xA4\x39", &[S('\u{FFFF}', 4)]);
            // Pointer 189000 is U+10000; 1237575 is U+10FFFF.
            check_decode(encoding, b"\x90\x30\x81\x30", &[S('\u{10000}', 4)]);
            check_decode(encoding, b"\xE3\x32\x9A\x35", &[S('\u{10FFFF}', 4)]);
            check_decode(encoding, b"\x94\x39\xFC\x36", &[S('😀', 4)]);
            // The last digit and third byte under the first lead: pointer 12599.
            check_decode(encoding, b"\x81\x39\xFE\x39", &[S('\u{34A2}', 4)]);
        }
    }

    #[test]
    fn four_byte_pointers_without_a_code_point() {
        for encoding in [GB18030, GBK] {
            // Steps 3.4-3.5: the gap after U+FFFF (39420 to 188999) and
            // pointers past U+10FFFF; all four bytes are consumed.
            check_decode(
                encoding,
                b"\x84\x31\xA5\x30",
                &[E(UnassignedPointer { pointer: 39420 }, 4)],
            );
            check_decode(
                encoding,
                b"\x8F\x39\xFE\x39",
                &[E(UnassignedPointer { pointer: 188_999 }, 4)],
            );
            check_decode(
                encoding,
                b"\xE3\x32\x9A\x36",
                &[E(UnassignedPointer { pointer: 1_237_576 }, 4)],
            );
            check_decode(
                encoding,
                b"\xFE\x39\xFE\x39A",
                &[E(UnassignedPointer { pointer: 1_587_599 }, 4), S('A', 1)],
            );
        }
    }

    #[test]
    fn invalid_third_byte_restores_two() {
        for encoding in [GB18030, GBK] {
            // Step 4.2: « second, byte » go back; the error is the lead alone.
            check_decode(
                encoding,
                b"\x81\x30\x20",
                &[E(UnexpectedByte, 1), S('0', 1), S(' ', 1)],
            );
            check_decode(
                encoding,
                b"\x81\x30\x30",
                &[E(UnexpectedByte, 1), S('0', 1), S('0', 1)],
            );
            check_decode(
                encoding,
                b"\x81\x30\x80",
                &[E(UnexpectedByte, 1), S('0', 1), S('€', 1)],
            );
            check_decode(
                encoding,
                b"\x81\x30\xFF",
                &[E(UnexpectedByte, 1), S('0', 1), E(InvalidByte, 1)],
            );
            // The restored digit and byte decode afresh, then a new sequence.
            check_decode(
                encoding,
                b"\x81\x30\x7F\x81\x40",
                &[
                    E(UnexpectedByte, 1),
                    S('0', 1),
                    S('\x7F', 1),
                    S('\u{4E02}', 2),
                ],
            );
        }
    }

    #[test]
    fn invalid_fourth_byte_restores_three() {
        for encoding in [GB18030, GBK] {
            // Step 3.1: « second, third, byte » go back; the error is the
            // first byte alone. The digit decodes as itself, the third byte
            // becomes a lead, and the byte its trail.
            check_decode(
                encoding,
                b"\x81\x30\x81\x40",
                &[E(UnexpectedByte, 1), S('0', 1), S('\u{4E02}', 2)],
            );
            check_decode(
                encoding,
                b"\x81\x30\x81\x81",
                &[E(UnexpectedByte, 1), S('0', 1), S('\u{4E96}', 2)],
            );
            check_decode(
                encoding,
                b"\x81\x30\xA2\xE3",
                &[E(UnexpectedByte, 1), S('0', 1), S('€', 2)],
            );
            check_decode(
                encoding,
                b"\x81\x30\x81\x7F",
                &[
                    E(UnexpectedByte, 1),
                    S('0', 1),
                    E(InvalidTrail, 1),
                    S('\x7F', 1),
                ],
            );
            check_decode(
                encoding,
                b"\x81\x30\x81\x3A",
                &[
                    E(UnexpectedByte, 1),
                    S('0', 1),
                    E(InvalidTrail, 1),
                    S(':', 1),
                ],
            );
            check_decode(
                encoding,
                b"\x81\x30\x81\xFF",
                &[E(UnexpectedByte, 1), S('0', 1), E(InvalidTrail, 2)],
            );
            // The restored third byte and the fourth: a new lead and digit,
            // which go on to a four-byte sequence.
            check_decode(
                encoding,
                b"\x81\x30\x81\x81\x30\x81\x30",
                &[
                    E(UnexpectedByte, 1),
                    S('0', 1),
                    S('\u{4E96}', 2),
                    S('0', 1),
                    E(TruncatedSequence, 2),
                ],
            );
            check_decode(
                encoding,
                b"\x81\x30\x90\x90\x30\x81\x30",
                &[
                    E(UnexpectedByte, 1),
                    S('0', 1),
                    S('\u{6099}', 2),
                    S('0', 1),
                    E(TruncatedSequence, 2),
                ],
            );
            // A restored lead with a digit after it starts a four-byte
            // sequence that completes.
            check_decode(
                encoding,
                b"\x81\x30\x81\xFE\x90\x30\x81\x30",
                &[
                    E(UnexpectedByte, 1),
                    S('0', 1),
                    S('\u{4FA2}', 2),
                    S('\u{10000}', 4),
                ],
            );
        }
    }

    #[test]
    fn truncated_at_the_end() {
        for encoding in [GB18030, GBK] {
            // Step 2: one error for every pending byte.
            check_decode(encoding, b"\x81", &[E(TruncatedSequence, 1)]);
            check_decode(encoding, b"\x81\x30", &[E(TruncatedSequence, 2)]);
            check_decode(encoding, b"\x81\x30\x81", &[E(TruncatedSequence, 3)]);
            check_decode(
                encoding,
                b"a\xFE\x39\xFE",
                &[S('a', 1), E(TruncatedSequence, 3)],
            );
            check_decode(
                encoding,
                b"\x81\x40\xFE",
                &[S('\u{4E02}', 2), E(TruncatedSequence, 1)],
            );
            // Step 1: nothing pending.
            check_decode(encoding, b"", &[]);
        }
    }

    // Encoder.

    #[test]
    fn encodes_ascii_and_two_bytes() {
        for encoding in [GB18030, GBK] {
            check_encode(encoding, "a\0\x7F", b"a\0\x7F", &[]);
            // Steps 6-7, including the 0x7F gap in the trailing byte.
            check_encode(
                encoding,
                "\u{4E02}\u{4E8A}\u{4E90}\u{4FA2}\u{4FA4}\u{E4C5}",
                b"\x81\x40\x81\x7E\x81\x80\x81\xFE\x82\x40\xFE\xFE",
                &[],
            );
            // U+3000 has two pointers: the first wins.
            check_encode(encoding, "\u{3000}", b"\xA1\xA1", &[]);
            // GB18030-2022's two-byte mappings round-trip.
            check_encode(encoding, "\u{FE10}\u{9FB4}", b"\xA6\xD9\xFE\x59", &[]);
        }
    }

    #[test]
    fn encodes_the_euro_sign() {
        // Step 4: GBK only; gb18030 uses the index (0xA2 0xE3).
        check_encode(GBK, "€", b"\x80", &[]);
        check_encode(GB18030, "€", b"\xA2\xE3", &[]);
    }

    #[test]
    fn rejects_u_e5e5() {
        // Step 3: 0xA3 0xA0 decodes to U+3000, so U+E5E5 cannot be encoded.
        check_encode(GB18030, "a\u{E5E5}b", b"a&#58853;b", &['\u{E5E5}']);
        check_encode(GBK, "a\u{E5E5}b", b"a&#58853;b", &['\u{E5E5}']);
        // Its neighbours in the Private Use Area are in the index.
        check_encode(GB18030, "\u{E5E4}\u{E5E6}", b"\xA3\x9F\xA4\x40", &[]);
    }

    #[test]
    fn encodes_the_2022_table() {
        // Step 5: for both encoders, before the index and the GBK check.
        for (c, bytes, _) in TABLE_2022 {
            let text = c.to_string();
            check_encode(GB18030, &text, &bytes, &[]);
            check_encode(GBK, &text, &bytes, &[]);
        }
        // Private Use code points between the table's rows go through the index.
        check_encode(GB18030, "\u{E797}", b"\xA6\xF6", &[]);
        check_encode(GBK, "\u{E797}", b"\xA6\xF6", &[]);
    }

    #[test]
    fn encodes_four_bytes() {
        // Steps 9-16.
        check_encode(
            GB18030,
            "\u{80}\u{A5}",
            b"\x81\x30\x81\x30\x81\x30\x84\x36",
            &[],
        );
        check_encode(GB18030, "\u{E7C7}", b"\x81\x35\xF4\x37", &[]);
        check_encode(
            GB18030,
            "\u{34A2}\u{FFE6}\u{FFFF}",
            b"\x81\x39\xFE\x39\x84\x31\xA2\x34\x84\x31\xA4\x39",
            &[],
        );
        check_encode(
            GB18030,
            "\u{10000}😀\u{10FFFF}",
            b"\x90\x30\x81\x30\x94\x39\xFC\x36\xE3\x32\x9A\x35",
            &[],
        );
    }

    #[test]
    fn gbk_has_no_four_bytes() {
        // Step 8.
        check_encode(
            GBK,
            "a\u{80}\u{E7C7}\u{10000}\u{10FFFF}b",
            b"a&#128;&#59335;&#65536;&#1114111;b",
            &['\u{80}', '\u{E7C7}', '\u{10000}', '\u{10FFFF}'],
        );
    }

    // Differential tests against encoding_rs.

    #[test]
    fn every_byte_pair_matches_encoding_rs() {
        for (ours, theirs) in [(GB18030, encoding_rs::GB18030), (GBK, encoding_rs::GBK)] {
            pair_differences(ours, theirs, b"").assert_none();
        }
    }

    #[test]
    fn every_four_byte_sequence_matches_encoding_rs() {
        // Every first and second byte, with every third and fourth byte in
        // range, in one buffer per (first, second).
        let mut bytes = Vec::with_capacity(126 * 10 * 4);
        for first in 0x81..=0xFE_u8 {
            for second in 0x30..=0x39_u8 {
                bytes.clear();
                for third in 0x81..=0xFE_u8 {
                    for fourth in 0x30..=0x39_u8 {
                        bytes.extend_from_slice(&[first, second, third, fourth]);
                    }
                }
                let (expected, _) = encoding_rs::GB18030.decode_without_bom_handling(&bytes);
                assert_eq!(
                    decode_replacing(GB18030, &bytes),
                    expected,
                    "first {first:02X}, second {second:02X}"
                );
            }
        }
    }

    #[test]
    fn every_scalar_value_matches_encoding_rs() {
        for (ours, theirs) in [(GB18030, encoding_rs::GB18030), (GBK, encoding_rs::GBK)] {
            scalar_differences(ours, theirs).assert_none();
        }
    }
}
