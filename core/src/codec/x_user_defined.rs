//! [x-user-defined](https://encoding.spec.whatwg.org/#x-user-defined): bytes
//! 0x80 to 0xFF map to the Private Use code points U+F780 to U+F7FF.

use crate::decoder::{Handler, Step, utf8_entry};
use crate::encoder::{EncodeHandler, EncodeStep, Encoded};

/// The [x-user-defined decoder](https://encoding.spec.whatwg.org/#x-user-defined-decoder).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct XUserDefinedDecoder;

impl Handler for XUserDefinedDecoder {
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        // Step 2.
        if byte.is_ascii() {
            return Step::Scalar(char::from(byte));
        }
        // Step 3.
        Step::Scalar(code_point(byte))
    }

    fn handle_end(&mut self) -> Step {
        // Step 1.
        Step::Finished
    }

    fn is_ascii_ground(&self) -> bool {
        true
    }

    /// Not in spec: step 3 for every byte at once, as a table.
    #[inline]
    fn byte_table(&self) -> Option<&'static [Option<char>; 128]> {
        Some(&CODE_POINTS)
    }

    /// Not in spec: the same table as UTF-8.
    #[inline]
    fn utf8_byte_table(&self) -> Option<&'static [u32; 128]> {
        Some(&UTF8)
    }

    /// Not in spec: the fast path, steps 2-3 for one byte (every byte is
    /// valid).
    #[inline]
    fn decode_valid(&mut self, bytes: &[u8]) -> Option<(char, usize)> {
        match self.handle(*bytes.first()?) {
            Step::Scalar(c) => Some((c, 1)),
            _ => None,
        }
    }
}

/// Not in spec: step 3 for each byte 0x80..=0xFF, as a table.
static CODE_POINTS: [Option<char>; 128] = {
    let mut table = [None; 128];
    let mut pointer = 0;
    while pointer < 128 {
        table[pointer] = char::from_u32(0xF780 + pointer as u32);
        pointer += 1;
    }
    table
};

/// Not in spec: the same as UTF-8 table entries.
static UTF8: [u32; 128] = {
    let mut table = [0; 128];
    let mut pointer = 0;
    while pointer < 128 {
        table[pointer] = utf8_entry(0xF780 + pointer as u32);
        pointer += 1;
    }
    table
};

/// Step 3: 0xF780 + `byte` − 0x80, for a `byte` that is not ASCII.
#[inline]
pub(crate) fn code_point(byte: u8) -> char {
    char::from_u32(0xF780 + u32::from(byte) - 0x80).expect("U+F780..U+F7FF are scalar values")
}

/// The [x-user-defined encoder](https://encoding.spec.whatwg.org/#x-user-defined-encoder).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct XUserDefinedEncoder;

impl EncodeHandler for XUserDefinedEncoder {
    fn handle(&mut self, c: char) -> EncodeStep {
        // Step 2.
        if c.is_ascii() {
            return EncodeStep::Bytes(Encoded::one(c as u8));
        }
        // Step 3.
        if ('\u{F780}'..='\u{F7FF}').contains(&c) {
            return EncodeStep::Bytes(Encoded::one((u32::from(c) - 0xF780 + 0x80) as u8));
        }
        // Step 4.
        EncodeStep::Error(c)
    }
}

#[cfg(test)]
mod tests {
    use crate::X_USER_DEFINED;
    use crate::testing::{Item::*, check_decode, check_encode};

    #[test]
    fn both_directions() {
        check_decode(
            X_USER_DEFINED,
            b"a\x80\xFF",
            &[S('a', 1), S('\u{F780}', 1), S('\u{F7FF}', 1)],
        );
        check_encode(
            X_USER_DEFINED,
            "a\u{F780}\u{F7FF}é",
            b"a\x80\xFF&#233;",
            &['é'],
        );
    }
}
