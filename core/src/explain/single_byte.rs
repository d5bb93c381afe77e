//! The [single-byte decoder](https://encoding.spec.whatwg.org/#single-byte-decoder),
//! narrated.

use super::{Narrate, Narration};
use crate::codec::single_byte::SingleByteDecoder;
use crate::decoder::Step as HandlerStep;
use crate::explain::step::{PointerFormula, StepKind, Variable};
use crate::index::Index;
use crate::provenance::DecodeErrorKind;

pub(super) const ANCHOR: &str = "single-byte-decoder";

const ASCII: &[(u8, u8)] = &[(0x00, 0x7F)];

impl Narrate for SingleByteDecoder {
    const ANCHOR: &'static str = ANCHOR;

    fn narrate(&self, byte: u8, out: &mut Narration) -> HandlerStep {
        // Step 2.
        if byte.is_ascii() {
            return out.same_code_point("2", byte, ASCII);
        }
        // Step 3.
        let pointer = byte - 0x80;
        out.push(
            "3",
            StepKind::Pointer(PointerFormula::SingleByte { byte, pointer }),
        );
        let code_point = self.index.code_point(pointer);
        out.push(
            "3",
            StepKind::IndexCodePoint {
                index: Index::SingleByte(out.encoding),
                pointer: u32::from(pointer),
                code_point,
            },
        );
        match code_point {
            // Step 5.
            Some(c) => out.scalar("5", c),
            // Step 4.
            None => out.error(
                "4",
                DecodeErrorKind::UnassignedPointer {
                    pointer: u32::from(pointer),
                },
                0,
            ),
        }
    }

    fn narrate_end(&self, _out: &mut Narration) -> HandlerStep {
        HandlerStep::Finished
    }

    fn variables(&self) -> Vec<Variable> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use crate::explain::{explained, item};
    use crate::{ISO_8859_8_I, WINDOWS_1253};

    #[test]
    fn index_lookups() {
        // 0x80 − 0x80 = pointer 0, € in index windows-1253; 0xAA − 0x80 = 42,
        // which index windows-1253 leaves out.
        assert_eq!(
            explained(WINDOWS_1253, b"A\x80\xAA"),
            [
                item(&[
                    "41 (bytes 0..1) → U+0041 (A)",
                    "  [2] 0x41 is in 0x00 to 0x7F, so it is code point U+0041 (A)",
                    "  [2] return code point U+0041 (A)",
                ]),
                item(&[
                    "80 (bytes 1..2) → U+20AC (€)",
                    "  [3] pointer = 0x80 − 0x80 = 0",
                    "  [3] index windows-1253 at pointer 0 is U+20AC (€)",
                    "  [5] return code point U+20AC (€)",
                ]),
                item(&[
                    "AA (bytes 2..3) → error: pointer 42 not in the index (U+FFFD in replacement mode)",
                    "  [3] pointer = 0xAA − 0x80 = 42",
                    "  [3] index windows-1253 has no code point at pointer 42: code point is null",
                    "  [4] return error (pointer 42 not in the index)",
                ]),
            ]
        );
        // ISO-8859-8-I uses index ISO-8859-8: 0xE0 − 0x80 = 96 is א.
        let [alef] = &explained(ISO_8859_8_I, b"\xE0")[..] else {
            panic!()
        };
        assert!(alef.contains("[3] index iso-8859-8 at pointer 96 is U+05D0 (א)"));
    }
}
