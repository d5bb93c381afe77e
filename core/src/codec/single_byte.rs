//! The [legacy single-byte encodings](https://encoding.spec.whatwg.org/#legacy-single-byte-encodings):
//! one decoder and one encoder shared by all 28, each with its own index.

use std::sync::OnceLock;

use mojiscope_indexes::single_byte::{self, SingleByteIndex};

use crate::decoder::{Handler, Step, utf8_entry};
use crate::encoder::{EncodeHandler, EncodeStep, Encoded};
use crate::encoding::Encoding;
use crate::provenance::DecodeErrorKind;

fn index_for(encoding: &Encoding) -> &'static SingleByteIndex {
    single_byte::for_encoding(encoding.name()).expect("every single-byte encoding has an index")
}

/// The [single-byte decoder](https://encoding.spec.whatwg.org/#single-byte-decoder).
#[derive(Clone, Debug)]
pub(crate) struct SingleByteDecoder {
    pub(crate) index: &'static SingleByteIndex,
    /// Not in spec: the index as UTF-8 table entries.
    utf8: &'static [u32; 128],
}

impl SingleByteDecoder {
    pub(crate) fn new(encoding: &Encoding) -> Self {
        let index = index_for(encoding);
        let position = single_byte::all()
            .iter()
            .position(|each| std::ptr::eq(each, index))
            .expect("every index is among all");
        Self {
            index,
            utf8: &utf8_tables()[position],
        }
    }
}

/// Not in spec: each index of [`single_byte::all`] as UTF-8 table entries
/// (0 where it has no code point), for the driver's fast path; built on
/// first use.
fn utf8_tables() -> &'static [[u32; 128]] {
    static TABLES: OnceLock<Vec<[u32; 128]>> = OnceLock::new();
    TABLES.get_or_init(|| {
        single_byte::all()
            .iter()
            .map(|index| {
                let mut table = [0; 128];
                for (entry, &code_point) in table.iter_mut().zip(index.table()) {
                    if code_point != 0 {
                        *entry = utf8_entry(u32::from(code_point));
                    }
                }
                table
            })
            .collect()
    })
}

impl Handler for SingleByteDecoder {
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        // Step 2.
        if byte.is_ascii() {
            return Step::Scalar(char::from(byte));
        }
        // Steps 3-5.
        match self.index.code_point(byte - 0x80) {
            Some(c) => Step::Scalar(c),
            None => Step::error(DecodeErrorKind::UnassignedPointer {
                pointer: u32::from(byte - 0x80),
            }),
        }
    }

    fn handle_end(&mut self) -> Step {
        // Step 1.
        Step::Finished
    }

    #[inline]
    fn is_ascii_ground(&self) -> bool {
        true
    }

    /// Not in spec: steps 2-5 for every byte at once: the index as a table.
    #[inline]
    fn byte_table(&self) -> Option<&'static [Option<char>; 128]> {
        Some(self.index.code_points())
    }

    /// Not in spec: the same table as UTF-8.
    #[inline]
    fn utf8_byte_table(&self) -> Option<&'static [u32; 128]> {
        Some(self.utf8)
    }

    /// Not in spec: the fast path. Steps 2-5 for one byte when they give a
    /// code point; an unassigned pointer goes to `handle` for its error.
    #[inline]
    fn decode_valid(&mut self, bytes: &[u8]) -> Option<(char, usize)> {
        let &byte = bytes.first()?;
        // Step 2.
        if byte.is_ascii() {
            return Some((char::from(byte), 1));
        }
        // Steps 3-5, for a pointer with a code point.
        self.index.code_point(byte - 0x80).map(|c| (c, 1))
    }
}

/// The [single-byte encoder](https://encoding.spec.whatwg.org/#single-byte-encoder).
#[derive(Clone, Debug)]
pub(crate) struct SingleByteEncoder {
    index: &'static SingleByteIndex,
    /// Not in spec: whether the index maps each of U+00A0..=U+00FF to the
    /// byte of the same value (windows-1252), so that the encoder can write
    /// the letters of Western European text without looking them up.
    latin1_upper_half: bool,
}

impl SingleByteEncoder {
    pub(crate) fn new(encoding: &Encoding) -> Self {
        let index = index_for(encoding);
        let latin1_upper_half =
            (0xA0..=0xFF_u8).all(|byte| index.code_point(byte - 0x80) == Some(char::from(byte)));
        Self {
            index,
            latin1_upper_half,
        }
    }
}

impl EncodeHandler for SingleByteEncoder {
    /// Steps 3-5 for a code point with a pointer; ASCII does not come here.
    #[inline]
    fn one_byte(&self, c: char) -> Option<u8> {
        if self.latin1_upper_half && ('\u{A0}'..='\u{FF}').contains(&c) {
            // Steps 3-5 as the index gives them: the pointer of U+00NN is
            // NN - 0x80.
            return u8::try_from(c).ok();
        }
        self.index.pointer(c).map(|pointer| pointer + 0x80)
    }

    #[inline]
    fn handle(&mut self, c: char) -> EncodeStep {
        // Step 2.
        if c.is_ascii() {
            return EncodeStep::Bytes(Encoded::one(c as u8));
        }
        // Steps 3-5.
        match self.index.pointer(c) {
            Some(pointer) => EncodeStep::Bytes(Encoded::one(pointer + 0x80)),
            None => EncodeStep::Error(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::provenance::DecodeErrorKind::*;
    use crate::testing::{Item::*, check_decode, check_encode};
    use crate::{ISO_8859_8, KOI8_U, WINDOWS_1252, WINDOWS_1253};

    #[test]
    fn decodes_through_the_index() {
        check_decode(
            WINDOWS_1252,
            b"a\x80\x81\xFF",
            &[S('a', 1), S('€', 1), S('\u{81}', 1), S('ÿ', 1)],
        );
        check_decode(KOI8_U, b"\xA4", &[S('є', 1)]);
        // windows-1253 leaves 0xAA unassigned.
        check_decode(
            WINDOWS_1253,
            b"\xAA",
            &[E(UnassignedPointer { pointer: 0x2A }, 1)],
        );
    }

    #[test]
    fn encodes_through_the_index() {
        check_encode(WINDOWS_1252, "a€ÿ", b"a\x80\xFF", &[]);
        check_encode(ISO_8859_8, "א→", b"\xE0&#8594;", &['→']);
    }
}
