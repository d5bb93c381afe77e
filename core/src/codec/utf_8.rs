//! [UTF-8](https://encoding.spec.whatwg.org/#utf-8): the decoder and encoder.

use crate::decoder::{Handler, Step};
use crate::encoder::{EncodeHandler, EncodeStep, Encoded};
use crate::provenance::DecodeErrorKind;

/// The [UTF-8 decoder](https://encoding.spec.whatwg.org/#utf-8-decoder).
#[derive(Clone, Debug)]
pub(crate) struct Utf8Decoder {
    pub(crate) code_point: u32,
    pub(crate) bytes_seen: u8,
    pub(crate) bytes_needed: u8,
    pub(crate) lower_boundary: u8,
    pub(crate) upper_boundary: u8,
}

impl Default for Utf8Decoder {
    fn default() -> Self {
        Self {
            code_point: 0,
            bytes_seen: 0,
            bytes_needed: 0,
            lower_boundary: 0x80,
            upper_boundary: 0xBF,
        }
    }
}

impl Handler for Utf8Decoder {
    const DECODES_VALID_UTF8_AS_ITSELF: bool = true;

    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        // Step 3: no sequence pending.
        if self.bytes_needed == 0 {
            match byte {
                0x00..=0x7F => return Step::Scalar(char::from(byte)),
                0xC2..=0xDF => {
                    self.bytes_needed = 1;
                    self.code_point = u32::from(byte & 0x1F);
                }
                0xE0..=0xEF => {
                    if byte == 0xE0 {
                        self.lower_boundary = 0xA0;
                    }
                    if byte == 0xED {
                        self.upper_boundary = 0x9F;
                    }
                    self.bytes_needed = 2;
                    self.code_point = u32::from(byte & 0xF);
                }
                0xF0..=0xF4 => {
                    if byte == 0xF0 {
                        self.lower_boundary = 0x90;
                    }
                    if byte == 0xF4 {
                        self.upper_boundary = 0x8F;
                    }
                    self.bytes_needed = 3;
                    self.code_point = u32::from(byte & 0x7);
                }
                _ => return Step::error(DecodeErrorKind::InvalidByte),
            }
            return Step::Continue;
        }
        // Step 4: a byte outside the boundaries ends the sequence in an error
        // and is restored to the input.
        if !(self.lower_boundary..=self.upper_boundary).contains(&byte) {
            *self = Self::default();
            return Step::error_restoring_byte(DecodeErrorKind::UnexpectedByte);
        }
        // Steps 5-7.
        self.lower_boundary = 0x80;
        self.upper_boundary = 0xBF;
        self.code_point = continued_code_point(self.code_point, byte);
        self.bytes_seen += 1;
        // Step 8.
        if self.bytes_seen != self.bytes_needed {
            return Step::Continue;
        }
        // Steps 9-11.
        let code_point = self.code_point;
        *self = Self::default();
        let c = char::from_u32(code_point)
            .expect("the boundaries exclude surrogates and values past U+10FFFF");
        Step::Scalar(c)
    }

    fn handle_end(&mut self) -> Step {
        // Step 1.
        if self.bytes_needed != 0 {
            *self = Self::default();
            return Step::error(DecodeErrorKind::TruncatedSequence);
        }
        // Step 2.
        Step::Finished
    }

    #[inline]
    fn is_ascii_ground(&self) -> bool {
        self.bytes_needed == 0
    }
}

/// Step 6: `code_point`'s bits shifted left by six places, and the six least
/// significant bits of `byte` in the places vacated.
#[inline]
pub(crate) fn continued_code_point(code_point: u32, byte: u8) -> u32 {
    (code_point << 6) | u32::from(byte & 0x3F)
}

/// The [UTF-8 encoder](https://encoding.spec.whatwg.org/#utf-8-encoder).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Utf8Encoder;

impl EncodeHandler for Utf8Encoder {
    const ENCODES_AS_UTF8: bool = true;

    fn handle(&mut self, c: char) -> EncodeStep {
        // Steps 2-6; the standard notes its result is Unicode's UTF-8, which
        // is how Rust stores a char.
        let mut buffer = [0; 4];
        let bytes = c.encode_utf8(&mut buffer).as_bytes();
        EncodeStep::Bytes(match *bytes {
            [a] => Encoded::one(a),
            [a, b] => Encoded::two(a, b),
            [a, b, c] => Encoded::three(a, b, c),
            _ => Encoded::four(buffer),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::UTF_8;
    use crate::provenance::DecodeErrorKind::*;
    use crate::testing::{Item::*, check_decode, check_encode};

    #[test]
    fn decodes_every_length() {
        check_decode(
            UTF_8,
            b"a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80",
            &[S('a', 1), S('é', 2), S('€', 3), S('😀', 4)],
        );
    }

    #[test]
    fn restores_the_byte_after_a_broken_sequence() {
        check_decode(UTF_8, b"\xE3\x81A", &[E(UnexpectedByte, 2), S('A', 1)]);
        check_decode(
            UTF_8,
            b"\xF0\x9F\xC3\xA9",
            &[E(UnexpectedByte, 2), S('é', 2)],
        );
    }

    #[test]
    fn best_practice_boundaries() {
        // Overlong, surrogate and out-of-range second bytes are errors of the
        // lead alone; the second byte is then an invalid byte of its own.
        check_decode(
            UTF_8,
            b"\xE0\x80",
            &[E(UnexpectedByte, 1), E(InvalidByte, 1)],
        );
        check_decode(
            UTF_8,
            b"\xED\xA0\x80",
            &[E(UnexpectedByte, 1), E(InvalidByte, 1), E(InvalidByte, 1)],
        );
        check_decode(
            UTF_8,
            b"\xF4\x90",
            &[E(UnexpectedByte, 1), E(InvalidByte, 1)],
        );
        check_decode(UTF_8, b"\xC0\xC1\xF5\xFF\x80", &[E(InvalidByte, 1); 5]);
        check_decode(UTF_8, b"\xF0\x90\x80", &[E(TruncatedSequence, 3)]);
    }

    #[test]
    fn encodes_everything() {
        check_encode(
            UTF_8,
            "a\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}",
            "a\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}".as_bytes(),
            &[],
        );
    }
}
