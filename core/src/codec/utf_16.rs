//! [UTF-16BE/LE](https://encoding.spec.whatwg.org/#common-infrastructure-for-utf-16be-and-utf-16le):
//! the shared UTF-16 decoder. These encodings have no encoder.

use crate::decoder::{Handler, Step};
use crate::provenance::DecodeErrorKind;

/// The [shared UTF-16 decoder](https://encoding.spec.whatwg.org/#shared-utf-16-decoder).
#[derive(Clone, Debug)]
pub(crate) struct Utf16Decoder {
    pub(crate) leading_byte: Option<u8>,
    pub(crate) leading_surrogate: Option<u16>,
    pub(crate) is_utf16be: bool,
}

impl Utf16Decoder {
    pub(crate) fn new(is_utf16be: bool) -> Self {
        Self {
            leading_byte: None,
            leading_surrogate: None,
            is_utf16be,
        }
    }
}

impl Handler for Utf16Decoder {
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        // Step 3: the first byte of a code unit.
        let Some(leading_byte) = self.leading_byte else {
            self.leading_byte = Some(byte);
            return Step::Continue;
        };
        // Steps 4-5.
        let code_unit = code_unit(leading_byte, byte, self.is_utf16be);
        self.leading_byte = None;
        // Step 6: a leading surrogate is pending.
        if let Some(leading_surrogate) = self.leading_surrogate.take() {
            if is_trailing_surrogate(code_unit) {
                return Step::Scalar(scalar_value_from_surrogates(leading_surrogate, code_unit));
            }
            // The code unit's two bytes go back to the input; the error covers
            // the leading surrogate's two bytes.
            return Step::Error {
                kind: DecodeErrorKind::UnpairedSurrogate,
                restore: 2,
            };
        }
        // Step 7.
        if is_leading_surrogate(code_unit) {
            self.leading_surrogate = Some(code_unit);
            return Step::Continue;
        }
        // Step 8.
        if is_trailing_surrogate(code_unit) {
            return Step::error(DecodeErrorKind::UnpairedSurrogate);
        }
        // Step 9.
        Step::Scalar(char::from_u32(u32::from(code_unit)).expect("not a surrogate"))
    }

    fn handle_end(&mut self) -> Step {
        // Step 1.
        if self.leading_byte.is_some() || self.leading_surrogate.is_some() {
            let kind = if self.leading_byte.is_some() {
                DecodeErrorKind::TruncatedSequence
            } else {
                DecodeErrorKind::UnpairedSurrogate
            };
            self.leading_byte = None;
            self.leading_surrogate = None;
            return Step::error(kind);
        }
        // Step 2.
        Step::Finished
    }

    fn is_ascii_ground(&self) -> bool {
        false
    }

    /// Not in spec: with nothing pending, each code unit that is not a
    /// surrogate is steps 3-5 and 9 on its own; the driver decodes those.
    #[inline]
    fn utf16_big_endian(&self) -> Option<bool> {
        (self.leading_byte.is_none() && self.leading_surrogate.is_none()).then_some(self.is_utf16be)
    }

    /// Not in spec: the fast path. With nothing pending, steps 3-5 and 9 for
    /// a code unit that is not a surrogate, or steps 3-5 and 7 for a leading
    /// surrogate followed by steps 3-6 for a trailing one. Unpaired
    /// surrogates and code units cut off by the end of `bytes` go to `handle`.
    #[inline]
    fn decode_valid(&mut self, bytes: &[u8]) -> Option<(char, usize)> {
        if self.leading_byte.is_some() || self.leading_surrogate.is_some() {
            return None;
        }
        let code_unit = |position: usize| {
            let pair = [*bytes.get(position)?, *bytes.get(position + 1)?];
            Some(if self.is_utf16be {
                u16::from_be_bytes(pair)
            } else {
                u16::from_le_bytes(pair)
            })
        };
        let first = code_unit(0)?;
        // Step 9.
        if !(0xD800..=0xDFFF).contains(&first) {
            return Some((char::from_u32(u32::from(first))?, 2));
        }
        // Step 7, then step 6 for the next code unit.
        if !is_leading_surrogate(first) {
            return None;
        }
        let second = code_unit(2)?;
        if !is_trailing_surrogate(second) {
            return None;
        }
        let scalar = 0x10000 + ((u32::from(first) - 0xD800) << 10) + (u32::from(second) - 0xDC00);
        Some((char::from_u32(scalar)?, 4))
    }
}

/// Step 4: the code unit of `leading_byte` and `byte`, in the decoder's byte
/// order.
#[inline]
pub(crate) fn code_unit(leading_byte: u8, byte: u8, is_utf16be: bool) -> u16 {
    if is_utf16be {
        u16::from_be_bytes([leading_byte, byte])
    } else {
        u16::from_le_bytes([leading_byte, byte])
    }
}

/// Step 6.3: the [scalar value from surrogates](https://infra.spec.whatwg.org/#scalar-value-from-surrogates):
/// 0x10000 + ((`leading` − 0xD800) << 10) + (`trailing` − 0xDC00).
#[inline]
pub(crate) fn scalar_value_from_surrogates(leading: u16, trailing: u16) -> char {
    let scalar = 0x10000 + ((u32::from(leading) - 0xD800) << 10) + (u32::from(trailing) - 0xDC00);
    char::from_u32(scalar).expect("two surrogates make a supplementary scalar value")
}

#[inline]
pub(crate) fn is_leading_surrogate(code_unit: u16) -> bool {
    (0xD800..=0xDBFF).contains(&code_unit)
}

#[inline]
pub(crate) fn is_trailing_surrogate(code_unit: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&code_unit)
}

#[cfg(test)]
mod tests {
    use crate::provenance::DecodeErrorKind::*;
    use crate::testing::{Item, Item::*, check_decode};
    use crate::{UTF_16BE, UTF_16LE};

    #[test]
    fn code_units_in_both_byte_orders() {
        check_decode(UTF_16LE, b"a\x00\xAC\x20", &[S('a', 2), S('€', 2)]);
        check_decode(UTF_16BE, b"\x00a\x20\xAC", &[S('a', 2), S('€', 2)]);
        check_decode(UTF_16LE, b"\x3D\xD8\x00\xDE", &[S('😀', 4)]);
    }

    #[test]
    fn unpaired_surrogates_and_truncation() {
        // A leading surrogate followed by a non-surrogate: the second code
        // unit's bytes are restored and decoded on their own.
        check_decode(
            UTF_16LE,
            b"\x3D\xD8a\x00",
            &[E(UnpairedSurrogate, 2), S('a', 2)],
        );
        check_decode(
            UTF_16LE,
            b"\x3D\xD8\x3D\xD8\x00\xDE",
            &[E(UnpairedSurrogate, 2), S('😀', 4)],
        );
        check_decode(UTF_16BE, b"\xDC\x00", &[E(UnpairedSurrogate, 2)]);
        check_decode(UTF_16BE, b"\xD8\x3D", &[E(UnpairedSurrogate, 2)]);
        check_decode(
            UTF_16BE,
            b"\x00a\x00",
            &[S('a', 2), E(TruncatedSequence, 1)],
        );
        check_decode(UTF_16BE, b"\xD8\x3D\xDE", &[E(TruncatedSequence, 3)]);
    }

    #[test]
    fn long_runs_of_ascii_code_units() {
        // Runs longer than the driver's 64-unit buffer, ending at every
        // kind of code unit.
        let tails: [(&[u16], &[Item]); 4] = [
            (&[], &[]),
            (&[0xE9], &[S('é', 2)]),
            (&[0xD83D, 0xDE00], &[S('😀', 4)]),
            (
                &[0xDC00, 0xDC00],
                &[E(UnpairedSurrogate, 2), E(UnpairedSurrogate, 2)],
            ),
        ];
        for (tail, tail_items) in tails {
            let mut units: Vec<u16> = (0..150).map(|n| u16::from(b'a') + n % 26).collect();
            units.extend_from_slice(tail);
            let le: Vec<u8> = units.iter().flat_map(|unit| unit.to_le_bytes()).collect();
            let be: Vec<u8> = units.iter().flat_map(|unit| unit.to_be_bytes()).collect();
            let mut expected: Vec<Item> = (0..150u8)
                .map(|n| S(char::from(b'a' + n % 26), 2))
                .collect();
            expected.extend_from_slice(tail_items);
            check_decode(UTF_16LE, &le, &expected);
            check_decode(UTF_16BE, &be, &expected);
        }
    }
}
