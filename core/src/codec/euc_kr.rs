//! [EUC-KR](https://encoding.spec.whatwg.org/#euc-kr): the decoder and encoder.

use mojiscope_indexes::euc_kr;

use crate::decoder::{Handler, PairTable, Step, utf8_table};
use crate::encoder::{EncodeHandler, EncodeStep, Encoded};
use crate::provenance::DecodeErrorKind;

/// Not in spec: steps 3-6 as flat tables for the driver: a leading byte in
/// 0x81..=0xFE (step 5) or 0x80 and 0xFF, errors on their own (step 6); a
/// trailing byte in 0x41..=0xFE, any other an error (step 3.4); and the
/// code point of their pointer in index EUC-KR or none (steps 3.5-3.8).
static PAIRS: PairTable = PairTable::new(
    &[(0x81, 0xFE, 0)],
    190,
    &[0x80, 0xFF],
    &[(0x41, 0xFE, 0)],
    &[],
    euc_kr::table(),
    &UTF8,
);

/// Not in spec: index EUC-KR as UTF-8, for the driver's pair table.
static UTF8: [u32; euc_kr::table().len()] = utf8_table(euc_kr::table());

/// The [EUC-KR decoder](https://encoding.spec.whatwg.org/#euc-kr-decoder).
#[derive(Clone, Debug, Default)]
pub(crate) struct EucKrDecoder {
    /// EUC-KR leading: 0x00 when no sequence is pending.
    pub(crate) leading: u8,
}

impl Handler for EucKrDecoder {
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
            // Step 4.
            0x00..=0x7F => Step::Scalar(char::from(byte)),
            // Step 5.
            0x81..=0xFE => {
                self.leading = byte;
                Step::Continue
            }
            // Step 6: 0x80 and 0xFF cannot begin a sequence.
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

    /// Not in spec: steps 5 and 3.4-3.6 for the common case, as tables.
    #[inline]
    fn pair_table(&self) -> Option<&'static PairTable> {
        Some(&PAIRS)
    }

    /// Not in spec: the fast path. With nothing pending, step 4 for an ASCII
    /// byte, or step 5 (a leading byte) followed by steps 3.1-3.6 for the
    /// next byte when they give a code point, through the same `pair` as
    /// `handle`. Everything else goes to `handle`.
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

/// Steps 3.3-3.8: the pair of `leading` and `byte`, once leading has been
/// taken and reset.
#[inline]
fn pair(leading: u8, byte: u8) -> Step {
    // Step 3.4: only 0x41..=0xFE can trail, so any other byte leaves the
    // pointer null.
    if !(0x41..=0xFE).contains(&byte) {
        return trail_error(DecodeErrorKind::InvalidTrail, byte);
    }
    let pointer = pointer(leading, byte);
    // Steps 3.5-3.6.
    if let Some(c) = euc_kr::code_point(pointer) {
        return Step::Scalar(c);
    }
    // Steps 3.7-3.8.
    trail_error(
        DecodeErrorKind::UnassignedPointer {
            pointer: pointer as u32,
        },
        byte,
    )
}

/// Step 3.4: the pointer of `leading` and a trailing `byte` in 0x41..=0xFE.
#[inline]
pub(crate) fn pointer(leading: u8, byte: u8) -> usize {
    usize::from(leading - 0x81) * 190 + usize::from(byte - 0x41)
}

/// Steps 3.7-3.8: the error after a leading byte, with an ASCII `byte`
/// restored to the input (the error then covers the leading byte alone).
#[inline]
fn trail_error(kind: DecodeErrorKind, byte: u8) -> Step {
    if byte.is_ascii() {
        Step::error_restoring_byte(kind)
    } else {
        Step::error(kind)
    }
}

/// The [EUC-KR encoder](https://encoding.spec.whatwg.org/#euc-kr-encoder).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EucKrEncoder;

impl EncodeHandler for EucKrEncoder {
    /// Not in spec: steps 3-7 for a code point with a pointer, as `handle`
    /// takes them.
    #[inline]
    fn two_bytes(&self, c: char) -> Option<[u8; 2]> {
        let (leading, trailing) = pointer_bytes(euc_kr::pointer(c)?);
        Some([leading, trailing])
    }

    #[inline]
    fn handle(&mut self, c: char) -> EncodeStep {
        // Step 2.
        if c.is_ascii() {
            return EncodeStep::Bytes(Encoded::one(c as u8));
        }
        // Steps 3-4.
        let Some(pointer) = euc_kr::pointer(c) else {
            return EncodeStep::Error(c);
        };
        // Steps 5-7.
        let (leading, trailing) = pointer_bytes(pointer);
        EncodeStep::Bytes(Encoded::two(leading, trailing))
    }
}

/// Steps 5-7 of the encoder: the leading and trailing byte of `pointer`,
/// which must be below 126 × 190 (the index has fewer pointers, so both
/// bytes fit: leading is at most 0xFE, trailing at most 0xFE).
#[inline]
pub(crate) fn pointer_bytes(pointer: u16) -> (u8, u8) {
    ((pointer / 190) as u8 + 0x81, (pointer % 190) as u8 + 0x41)
}

#[cfg(test)]
mod tests {
    use crate::EUC_KR;
    use crate::provenance::DecodeErrorKind::*;
    use crate::testing::{
        Item::*, check_decode, check_encode, pair_differences, scalar_differences,
    };

    #[test]
    fn decodes_ascii_and_pairs() {
        check_decode(
            EUC_KR,
            b"a\x7F\x00",
            &[S('a', 1), S('\u{7F}', 1), S('\0', 1)],
        );
        // 가 is at pointer 9026: (0xB0 - 0x81) × 190 + (0xA1 - 0x41).
        check_decode(EUC_KR, b"\xB0\xA1", &[S('가', 2)]);
        // The Unified Hangul Code extension: pointer 0 and trailing bytes
        // below 0xA1, including ASCII letters.
        check_decode(
            EUC_KR,
            b"\x81\x41\x81\x5A\x81\x61\xA1\x41",
            &[S('갂', 2), S('갴', 2), S('갵', 2), S('좥', 2)],
        );
        // The last pointer of the index, 0xFD 0xFE = 124 × 190 + 189.
        check_decode(EUC_KR, b"\xFD\xFE", &[S('詰', 2)]);
    }

    #[test]
    fn bytes_that_cannot_begin_a_sequence() {
        check_decode(
            EUC_KR,
            b"\x80\xFFa",
            &[E(InvalidByte, 1), E(InvalidByte, 1), S('a', 1)],
        );
    }

    #[test]
    fn trailing_byte_out_of_range() {
        // An ASCII byte below 0x41 is restored: the error covers the lead only.
        check_decode(EUC_KR, b"\x81\x40", &[E(InvalidTrail, 1), S('@', 1)]);
        check_decode(EUC_KR, b"\xB0\x0A", &[E(InvalidTrail, 1), S('\n', 1)]);
        // 0xFF is the only non-ASCII byte outside the range: both bytes are consumed.
        check_decode(EUC_KR, b"\xB0\xFFa", &[E(InvalidTrail, 2), S('a', 1)]);
    }

    #[test]
    fn unassigned_pointers() {
        // 0xC9 0x41: pointer 72 × 190 = 13680 is not in the index; 0x41 is
        // ASCII, so it is restored and decodes as 'A'.
        check_decode(
            EUC_KR,
            b"\xC9\x41",
            &[E(UnassignedPointer { pointer: 13680 }, 1), S('A', 1)],
        );
        // Past the index's last pointer: 0xFE 0xFE is pointer 23939.
        check_decode(
            EUC_KR,
            b"\xFE\xFE",
            &[E(UnassignedPointer { pointer: 23939 }, 2)],
        );
        // 0xC9 0xA1: a user-defined row, no code point; 0xA1 is consumed.
        let pointer = (0xC9 - 0x81) * 190 + (0xA1 - 0x41);
        check_decode(EUC_KR, b"\xC9\xA1", &[E(UnassignedPointer { pointer }, 2)]);
        // 0x81 0x5B..0x60 are between the ranges of the extension's trail bytes.
        check_decode(
            EUC_KR,
            b"\x81\x5B",
            &[E(UnassignedPointer { pointer: 26 }, 1), S('[', 1)],
        );
        // 0x80 is in the trailing range (pointer 63 has no code point).
        check_decode(
            EUC_KR,
            b"\x81\x80",
            &[E(UnassignedPointer { pointer: 63 }, 2)],
        );
        // A lead followed by a lead: both consumed, as the second is not ASCII.
        check_decode(
            EUC_KR,
            b"\xC9\xC9\xB0\xA1",
            &[
                E(
                    UnassignedPointer {
                        pointer: (0xC9 - 0x81) * 190 + (0xC9 - 0x41),
                    },
                    2,
                ),
                S('가', 2),
            ],
        );
    }

    #[test]
    fn end_of_queue() {
        check_decode(EUC_KR, b"\xB0", &[E(TruncatedSequence, 1)]);
        check_decode(EUC_KR, b"a\xFE", &[S('a', 1), E(TruncatedSequence, 1)]);
        check_decode(EUC_KR, b"", &[]);
    }

    #[test]
    fn encodes() {
        check_encode(
            EUC_KR,
            "a\u{7F}가갂詰",
            b"a\x7F\xB0\xA1\x81\x41\xFD\xFE",
            &[],
        );
        check_encode(EUC_KR, "☃가€", b"&#9731;\xB0\xA1\xA2\xE6", &['☃']);
        check_encode(EUC_KR, "\u{80}😀", b"&#128;&#128512;", &['\u{80}', '😀']);
    }

    #[test]
    fn every_byte_pair_matches_encoding_rs() {
        pair_differences(EUC_KR, encoding_rs::EUC_KR, b"").assert_none();
    }

    #[test]
    fn every_scalar_value_matches_encoding_rs() {
        scalar_differences(EUC_KR, encoding_rs::EUC_KR).assert_none();
    }
}
