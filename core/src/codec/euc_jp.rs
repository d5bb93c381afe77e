//! [EUC-JP](https://encoding.spec.whatwg.org/#euc-jp): the decoder and encoder.

use mojiscope_indexes::{jis0208, jis0212};

use crate::decoder::{Handler, PairTable, Step, utf8_table};
use crate::encoder::{EncodeHandler, EncodeStep, Encoded};
use crate::provenance::DecodeErrorKind;

/// Not in spec: steps 5-8 for two bytes as flat tables for the driver: a
/// leading byte in 0xA1..=0xFE (step 7) or a byte that is an error on its
/// own (step 8); a trailing byte in 0xA1..=0xFE, any other an error (step
/// 5.4); and the code point of their pointer in index jis0208 or none
/// (steps 5.6-5.8). 0x8E and 0x8F (steps 3 and 4) go to the handler.
static PAIRS: PairTable = PairTable::new(
    &[(0xA1, 0xFE, 0)],
    94,
    &[
        0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A, 0x8B, 0x8C, 0x8D, 0x90,
        0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0x9B, 0x9C, 0x9D, 0x9E, 0x9F,
        0xA0, 0xFF,
    ],
    &[(0xA1, 0xFE, 0)],
    &[],
    jis0208::table(),
    &UTF8,
);

/// Not in spec: index jis0208 as UTF-8, for the driver's pair table.
static UTF8: [u32; jis0208::table().len()] = utf8_table(jis0208::table());

/// The [EUC-JP decoder](https://encoding.spec.whatwg.org/#euc-jp-decoder).
#[derive(Clone, Debug, Default)]
pub(crate) struct EucJpDecoder {
    /// EUC-JP jis0212: the pending pair follows 0x8F and is looked up in
    /// index jis0212. Only ever true while `leading` is not 0x00.
    pub(crate) jis0212: bool,
    /// EUC-JP leading: 0x00 when no sequence is pending.
    pub(crate) leading: u8,
}

impl Handler for EucJpDecoder {
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        // Step 3: 0x8E introduces a single halfwidth katakana.
        if self.leading == 0x8E && (0xA1..=0xDF).contains(&byte) {
            self.leading = 0;
            return Step::Scalar(halfwidth_katakana(byte));
        }
        // Step 4: 0x8F introduces a JIS X 0212 pair; this byte is its leading byte.
        if self.leading == 0x8F && (0xA1..=0xFE).contains(&byte) {
            self.jis0212 = true;
            self.leading = byte;
            return Step::Continue;
        }
        // Step 5: a leading byte is pending; this byte completes the pair.
        if self.leading != 0 {
            // Steps 5.1-5.3, and 5.5 ahead of time: the flag is only needed
            // for the lookup below.
            let leading = self.leading;
            let jis0212 = self.jis0212;
            self.leading = 0;
            self.jis0212 = false;
            return pair(leading, jis0212, byte);
        }
        match byte {
            // Step 6.
            0x00..=0x7F => Step::Scalar(char::from(byte)),
            // Step 7.
            0x8E | 0x8F | 0xA1..=0xFE => {
                self.leading = byte;
                Step::Continue
            }
            // Step 8: 0x80..=0x8D, 0x90..=0xA0 and 0xFF.
            _ => Step::error(DecodeErrorKind::InvalidByte),
        }
    }

    fn handle_end(&mut self) -> Step {
        // Step 1.
        if self.leading != 0 {
            self.leading = 0;
            // Not in spec: the standard leaves EUC-JP jis0212 as it is here;
            // nothing is decoded after end-of-queue, so clearing it changes
            // no output and keeps the flag's invariant.
            self.jis0212 = false;
            return Step::error(DecodeErrorKind::TruncatedSequence);
        }
        // Step 2.
        Step::Finished
    }

    #[inline]
    fn is_ascii_ground(&self) -> bool {
        self.leading == 0
    }

    /// Not in spec: steps 7 and 5.1-5.6 for the common case, as tables.
    #[inline]
    fn pair_table(&self) -> Option<&'static PairTable> {
        Some(&PAIRS)
    }

    /// Not in spec: the fast path. With nothing pending, step 6 for an ASCII
    /// byte, or step 7 with a leading byte in 0xA1..=0xFE followed by steps
    /// 5.1-5.6 for the next byte when they give a code point (index
    /// jis0208), through the same `pair` as `handle`. 0x8E, 0x8F, errors and
    /// the rest go to `handle`.
    #[inline]
    fn decode_valid(&mut self, bytes: &[u8]) -> Option<(char, usize)> {
        let (&byte, rest) = bytes.split_first()?;
        if self.leading != 0 {
            return None;
        }
        match byte {
            // Step 6.
            0x00..=0x7F => Some((char::from(byte), 1)),
            // Step 7; steps 3 and 4 do not apply to the next byte, as leading
            // is neither 0x8E nor 0x8F, so step 5 does.
            0xA1..=0xFE => match pair(byte, false, *rest.first()?) {
                Step::Scalar(c) => Some((c, 2)),
                _ => None,
            },
            _ => None,
        }
    }
}

/// Steps 5.4-5.8: the pair of `leading` and `byte` (looked up in index
/// jis0212 if `jis0212`), once leading and the flag have been reset.
#[inline]
fn pair(leading: u8, jis0212: bool, byte: u8) -> Step {
    // Step 5.4: without both bytes in 0xA1..=0xFE there is no pointer
    // (this is also where 0x8E and 0x8F end up with a byte they cannot
    // take).
    if !(0xA1..=0xFE).contains(&leading) || !(0xA1..=0xFE).contains(&byte) {
        return trail_error(DecodeErrorKind::InvalidTrail, byte);
    }
    let pointer = pointer(leading, byte);
    let code_point = if jis0212 {
        jis0212::code_point(pointer)
    } else {
        jis0208::code_point(pointer)
    };
    // Step 5.6.
    if let Some(c) = code_point {
        return Step::Scalar(c);
    }
    // Steps 5.7-5.8.
    trail_error(
        DecodeErrorKind::UnassignedPointer {
            pointer: pointer as u32,
        },
        byte,
    )
}

/// Step 3: U+FF61 − 0xA1 + `byte`, for `byte` in 0xA1..=0xDF after 0x8E.
#[inline]
pub(crate) fn halfwidth_katakana(byte: u8) -> char {
    char::from_u32(0xFF61 - 0xA1 + u32::from(byte)).expect("U+FF61..=U+FF9F are scalar values")
}

/// Step 5.4: the pointer of `leading` and `byte`, both in 0xA1..=0xFE.
#[inline]
pub(crate) fn pointer(leading: u8, byte: u8) -> usize {
    usize::from(leading - 0xA1) * 94 + usize::from(byte - 0xA1)
}

/// Steps 5.7-5.8: the error after a leading byte, with an ASCII `byte`
/// restored to the input (the error then covers the bytes before it).
#[inline]
fn trail_error(kind: DecodeErrorKind, byte: u8) -> Step {
    if byte.is_ascii() {
        Step::error_restoring_byte(kind)
    } else {
        Step::error(kind)
    }
}

/// The [EUC-JP encoder](https://encoding.spec.whatwg.org/#euc-jp-encoder).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EucJpEncoder;

impl EncodeHandler for EucJpEncoder {
    #[inline]
    fn handle(&mut self, c: char) -> EncodeStep {
        let code_point = match c {
            // Step 2.
            '\0'..='\u{7F}' => return EncodeStep::Bytes(Encoded::one(c as u8)),
            // Step 3.
            '\u{A5}' => return EncodeStep::Bytes(Encoded::one(0x5C)),
            // Step 4.
            '\u{203E}' => return EncodeStep::Bytes(Encoded::one(0x7E)),
            // Step 5: halfwidth katakana are 0x8E and a byte in 0xA1..=0xDF.
            '\u{FF61}'..='\u{FF9F}' => {
                return EncodeStep::Bytes(Encoded::two(0x8E, (u32::from(c) - 0xFF61 + 0xA1) as u8));
            }
            // Step 6: MINUS SIGN encodes as FULLWIDTH HYPHEN-MINUS.
            '\u{2212}' => '\u{FF0D}',
            _ => c,
        };
        // Steps 7-8.
        let Some(pointer) = jis0208::pointer(code_point) else {
            return EncodeStep::Error(code_point);
        };
        // Steps 9-11. As the standard notes, a first pointer is below 8836 =
        // 94 × 94, so both bytes are at most 0xFE.
        let (leading, trailing) = pointer_bytes(pointer);
        EncodeStep::Bytes(Encoded::two(leading, trailing))
    }
}

/// Steps 9-11 of the encoder: the leading and trailing byte of `pointer`,
/// which must be below 94 × 94.
#[inline]
pub(crate) fn pointer_bytes(pointer: u16) -> (u8, u8) {
    ((pointer / 94) as u8 + 0xA1, (pointer % 94) as u8 + 0xA1)
}

#[cfg(test)]
mod tests {
    use crate::EUC_JP;
    use crate::provenance::DecodeErrorKind::*;
    use crate::testing::{
        Item::*, check_decode, check_encode, pair_differences, scalar_differences,
    };

    #[test]
    fn decodes_ascii() {
        check_decode(
            EUC_JP,
            b"a\x00\x5C\x7E\x7F",
            &[S('a', 1), S('\0', 1), S('\\', 1), S('~', 1), S('\u{7F}', 1)],
        );
    }

    #[test]
    fn bytes_that_cannot_begin_a_sequence() {
        check_decode(
            EUC_JP,
            b"\x80\x8D\x90\xA0\xFFa",
            &[
                E(InvalidByte, 1),
                E(InvalidByte, 1),
                E(InvalidByte, 1),
                E(InvalidByte, 1),
                E(InvalidByte, 1),
                S('a', 1),
            ],
        );
    }

    #[test]
    fn decodes_jis0208_pairs() {
        check_decode(
            EUC_JP,
            b"\xA1\xA1\xA4\xA2\xC6\xFC\xCB\xDC",
            &[S('\u{3000}', 2), S('あ', 2), S('日', 2), S('本', 2)],
        );
        // NEC row 13, and NEC's selection of IBM extensions (rows 89-92).
        check_decode(
            EUC_JP,
            b"\xAD\xA1\xF9\xA1\xFC\xFE",
            &[S('①', 2), S('纊', 2), S('＂', 2)],
        );
    }

    #[test]
    fn decodes_halfwidth_katakana_after_0x8e() {
        check_decode(
            EUC_JP,
            b"\x8E\xA1\x8E\xB1\x8E\xDF",
            &[S('｡', 2), S('ｱ', 2), S('ﾟ', 2)],
        );
        // Past 0xDF there is no katakana and no pointer (0x8E is not in
        // 0xA1..=0xFE): the non-ASCII byte is consumed with 0x8E.
        check_decode(EUC_JP, b"\x8E\xE0", &[E(InvalidTrail, 2)]);
        check_decode(EUC_JP, b"\x8E\xA0a", &[E(InvalidTrail, 2), S('a', 1)]);
        check_decode(
            EUC_JP,
            b"\x8E\x8E\xA1",
            &[E(InvalidTrail, 2), E(TruncatedSequence, 1)],
        );
        // An ASCII byte is restored.
        check_decode(EUC_JP, b"\x8EA", &[E(InvalidTrail, 1), S('A', 1)]);
    }

    #[test]
    fn decodes_jis0212_after_0x8f() {
        check_decode(
            EUC_JP,
            b"\x8F\xA2\xAF\x8F\xB0\xA1\x8F\xED\xE3",
            &[S('˘', 3), S('丂', 3), S('龥', 3)],
        );
        // The flag lasts for one pair only: the same bytes without 0x8F are jis0208.
        check_decode(EUC_JP, b"\x8F\xB0\xA1\xB0\xA1", &[S('丂', 3), S('亜', 2)]);
        check_decode(
            EUC_JP,
            b"\x8F\xA2\xB7\xA2\xB7",
            &[S('～', 3), E(UnassignedPointer { pointer: 116 }, 2)],
        );
        // Pointers of index jis0212 without a code point: an ASCII trailing
        // byte is restored, so the error covers 0x8F and the leading byte.
        check_decode(
            EUC_JP,
            b"\x8F\xA1\xA1",
            &[E(UnassignedPointer { pointer: 0 }, 3)],
        );
        check_decode(
            EUC_JP,
            b"\x8F\xED\xE4",
            &[E(UnassignedPointer { pointer: 7211 }, 3)],
        );
        check_decode(
            EUC_JP,
            b"\x8F\xFE\xFE",
            &[E(UnassignedPointer { pointer: 8835 }, 3)],
        );
        check_decode(EUC_JP, b"\x8F\xB0A", &[E(InvalidTrail, 2), S('A', 1)]);
        check_decode(EUC_JP, b"\x8F\xB0\xFF", &[E(InvalidTrail, 3)]);
        check_decode(
            EUC_JP,
            b"\x8F\xB0\xA0\xA4\xA2",
            &[E(InvalidTrail, 3), S('あ', 2)],
        );
        // The flag is cleared after an error: the next pair is jis0208.
        check_decode(
            EUC_JP,
            b"\x8F\xA1\xA1\xB0\xA1",
            &[E(UnassignedPointer { pointer: 0 }, 3), S('亜', 2)],
        );
        check_decode(
            EUC_JP,
            b"\x8F\xA1\x0A\xB0\xA1",
            &[E(InvalidTrail, 2), S('\n', 1), S('亜', 2)],
        );
        // 0x8F with a byte outside 0xA1..=0xFE: no pointer.
        check_decode(EUC_JP, b"\x8F\x8F", &[E(InvalidTrail, 2)]);
        check_decode(EUC_JP, b"\x8F\xFF", &[E(InvalidTrail, 2)]);
        check_decode(EUC_JP, b"\x8F\xA0", &[E(InvalidTrail, 2)]);
        check_decode(EUC_JP, b"\x8F!", &[E(InvalidTrail, 1), S('!', 1)]);
    }

    #[test]
    fn trailing_byte_out_of_range() {
        check_decode(EUC_JP, b"\xA4A", &[E(InvalidTrail, 1), S('A', 1)]);
        check_decode(EUC_JP, b"\xA4\x0A", &[E(InvalidTrail, 1), S('\n', 1)]);
        check_decode(EUC_JP, b"\xA4\xFF", &[E(InvalidTrail, 2)]);
        check_decode(EUC_JP, b"\xA4\xA0", &[E(InvalidTrail, 2)]);
        // 0x8E and 0x8F after a leading byte are consumed with it; they do not
        // begin a new sequence.
        check_decode(
            EUC_JP,
            b"\xA4\x8E\xB1",
            &[E(InvalidTrail, 2), E(TruncatedSequence, 1)],
        );
        check_decode(
            EUC_JP,
            b"\xA4\x8F\xA4\xA2",
            &[E(InvalidTrail, 2), S('あ', 2)],
        );
    }

    #[test]
    fn unassigned_jis0208_pointers() {
        check_decode(
            EUC_JP,
            b"\xA2\xAF",
            &[E(UnassignedPointer { pointer: 108 }, 2)],
        );
        check_decode(
            EUC_JP,
            b"\xA9\xA1\xF5\xA1",
            &[
                E(UnassignedPointer { pointer: 752 }, 2),
                E(UnassignedPointer { pointer: 7896 }, 2),
            ],
        );
        check_decode(
            EUC_JP,
            b"\xFE\xFE",
            &[E(UnassignedPointer { pointer: 8835 }, 2)],
        );
    }

    #[test]
    fn end_of_queue() {
        check_decode(EUC_JP, b"\xA4", &[E(TruncatedSequence, 1)]);
        check_decode(EUC_JP, b"\x8E", &[E(TruncatedSequence, 1)]);
        check_decode(EUC_JP, b"\x8F", &[E(TruncatedSequence, 1)]);
        check_decode(EUC_JP, b"\x8F\xA2", &[E(TruncatedSequence, 2)]);
        check_decode(
            EUC_JP,
            b"a\xA4\xA2\x8F\xA2",
            &[S('a', 1), S('あ', 2), E(TruncatedSequence, 2)],
        );
        check_decode(EUC_JP, b"", &[]);
    }

    #[test]
    fn encodes() {
        check_encode(EUC_JP, "a\u{7F}\\~", b"a\x7F\\~", &[]);
        check_encode(EUC_JP, "¥‾", b"\x5C\x7E", &[]);
        check_encode(EUC_JP, "｡ｱﾟ", b"\x8E\xA1\x8E\xB1\x8E\xDF", &[]);
        check_encode(
            EUC_JP,
            "\u{3000}あ日本①",
            b"\xA1\xA1\xA4\xA2\xC6\xFC\xCB\xDC\xAD\xA1",
            &[],
        );
        // MINUS SIGN becomes FULLWIDTH HYPHEN-MINUS (pointer 60).
        check_encode(EUC_JP, "\u{2212}\u{FF0D}", b"\xA1\xDD\xA1\xDD", &[]);
    }

    #[test]
    fn encodes_the_first_pointer() {
        // Plain "index pointer": ≒ is at 159 and 1207, 纊 at 8272 and 10744,
        // ⅰ at 8634 and 10716; the first pointer of each (no Shift_JIS
        // exclusion here).
        check_encode(EUC_JP, "≒纊ⅰ", b"\xA2\xE2\xF9\xA1\xFC\xF1", &[]);
    }

    #[test]
    fn unencodable() {
        // JIS X 0212 is never encoded; nor are U+0080 and the Private Use Area.
        check_encode(
            EUC_JP,
            "˘a\u{80}\u{E000}😀",
            b"&#728;a&#128;&#57344;&#128512;",
            &['˘', '\u{80}', '\u{E000}', '😀'],
        );
    }

    #[test]
    fn every_byte_pair_matches_encoding_rs() {
        pair_differences(EUC_JP, encoding_rs::EUC_JP, b"").assert_none();
    }

    #[test]
    fn every_jis0212_sequence_matches_encoding_rs() {
        // 0x8F followed by every pair of bytes.
        pair_differences(EUC_JP, encoding_rs::EUC_JP, b"\x8F").assert_none();
    }

    #[test]
    fn every_scalar_value_matches_encoding_rs() {
        scalar_differences(EUC_JP, encoding_rs::EUC_JP).assert_none();
    }
}
