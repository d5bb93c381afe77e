//! The [Big5 decoder](https://encoding.spec.whatwg.org/#big5-decoder), narrated.

use mojiscope_indexes::big5;

use super::{Narrate, Narration, in_ranges};
use crate::codec::big5::{self as codec, Big5Decoder};
use crate::decoder::Step as HandlerStep;
use crate::explain::step::{PointerFormula, StepKind, Value, Variable};
use crate::index::Index;
use crate::provenance::{DecodeErrorKind, TraceKind};

pub(super) const ANCHOR: &str = "big5-decoder";

const LEADING: &str = "Big5 leading";

/// Step 4.
const ASCII: &[(u8, u8)] = &[(0x00, 0x7F)];
/// Step 5.
const LEADING_BYTES: &[(u8, u8)] = &[(0x81, 0xFE)];
/// Step 3.5.
const TRAILING_BYTES: &[(u8, u8)] = &[(0x40, 0x7E), (0xA1, 0xFE)];
/// Steps 4-5 together.
const VALID: &[(u8, u8)] = &[(0x00, 0x7F), (0x81, 0xFE)];

impl Narrate for Big5Decoder {
    const ANCHOR: &'static str = ANCHOR;

    fn narrate(&self, byte: u8, out: &mut Narration) -> HandlerStep {
        if self.leading != 0 {
            return pair(self.leading, byte, out);
        }
        if in_ranges(byte, ASCII) {
            return out.same_code_point("4", byte, ASCII);
        }
        if in_ranges(byte, LEADING_BYTES) {
            return out.remember("5", LEADING, byte, LEADING_BYTES);
        }
        out.invalid_byte("6", byte, VALID)
    }

    fn narrate_end(&self, out: &mut Narration) -> HandlerStep {
        out.end_with_leading(LEADING, self.leading)
    }

    fn variables(&self) -> Vec<Variable> {
        vec![Variable::new(LEADING, Value::Byte(self.leading))]
    }
}

/// Step 3: `byte` after the leading byte `leading`.
fn pair(leading: u8, byte: u8, out: &mut Narration) -> HandlerStep {
    out.push(
        "3.1-3.2",
        StepKind::TakeLeading {
            variable: LEADING,
            leading,
        },
    );
    let offset = codec::offset(byte);
    out.push(
        "3.4",
        StepKind::Offset {
            name: "offset",
            value: byte,
            below: 0x7F,
            offset,
        },
    );
    let in_range = in_ranges(byte, TRAILING_BYTES);
    out.push(
        "3.5",
        StepKind::TrailingByte {
            byte,
            ranges: TRAILING_BYTES,
            in_range,
        },
    );
    if !in_range {
        return out.trail_error(byte, DecodeErrorKind::InvalidTrail, "3.9", "3.10");
    }
    let pointer = codec::pointer(leading, byte);
    out.push(
        "3.5",
        StepKind::Pointer(PointerFormula::TwoByte {
            leading,
            leading_offset: 0x81,
            row_len: 157,
            byte,
            offset,
            pointer: pointer as u32,
        }),
    );
    if let Some((first, second)) = codec::code_points_pair(pointer) {
        out.push(
            "3.6",
            StepKind::TwoCodePoints {
                pointer: pointer as u32,
                code_points: (first, second),
            },
        );
        out.push("3.6", StepKind::Return(TraceKind::Pair(first, second)));
        return HandlerStep::Pair(first, second);
    }
    let code_point = big5::code_point(pointer);
    out.push(
        "3.7",
        StepKind::IndexCodePoint {
            index: Index::Big5,
            pointer: pointer as u32,
            code_point,
        },
    );
    if let Some(code_point) = code_point {
        return out.scalar("3.8", code_point);
    }
    out.trail_error(
        byte,
        DecodeErrorKind::UnassignedPointer {
            pointer: pointer as u32,
        },
        "3.9",
        "3.10",
    )
}

#[cfg(test)]
mod tests {
    use crate::BIG5;
    use crate::explain::{explained, item};

    #[test]
    fn pairs_and_the_two_code_point_table() {
        // (0x88 − 0x81) × 157 + (0x62 − 0x40) = 1099 + 34 = 1133: Ê̄.
        assert_eq!(
            explained(BIG5, b"\x88\x62"),
            [item(&[
                "88 62 (bytes 0..2) → U+00CA U+0304 (Ê̄)",
                "  [5] 0x88 is in 0x81 to 0xFE: set Big5 leading to 0x88 and continue",
                "  [3.1-3.2] Big5 leading is 0x88: let leading be 0x88 and set Big5 leading to 0x00",
                "  [3.4] offset = 0x40, as 0x62 is less than 0x7F",
                "  [3.5] 0x62 is in 0x40 to 0x7E or 0xA1 to 0xFE, so the pair has a pointer",
                "  [3.5] pointer = (0x88 − 0x81) × 157 + 0x62 − 0x40 = 1133",
                "  [3.6] pointer 1133 is in the standard's table of characters Unicode writes as two code points: U+00CA U+0304 (Ê̄)",
                "  [3.6] return code points U+00CA U+0304 (Ê̄)",
            ])]
        );
        // Trailing bytes from 0xA1 on skip 0x7F to 0xA0: offset 0x62.
        // (0xA1 − 0x81) × 157 + (0xA1 − 0x62) = 5024 + 63 = 5087.
        let [a1a1] = &explained(BIG5, b"\xA1\xA1")[..] else {
            panic!()
        };
        assert!(a1a1.contains("[3.4] offset = 0x62, as 0xA1 is not less than 0x7F"));
        assert!(a1a1.contains("[3.5] pointer = (0xA1 − 0x81) × 157 + 0xA1 − 0x62 = 5087"));
        assert!(a1a1.contains("[3.7] index Big5 at pointer 5087 is U+FE5B (﹛)"));
        // (0xA4 − 0x81) × 157 = 35 × 157 = 5495: 一.
        let [one] = &explained(BIG5, b"\xA4\x40")[..] else {
            panic!()
        };
        assert!(one.contains("= 5495\n  [3.7] index Big5 at pointer 5495 is U+4E00 (一)"));
    }

    #[test]
    fn errors() {
        // Pointer 0 has no code point (index Big5 starts at 942), and 0x40
        // is ASCII: it is restored.
        let items = explained(BIG5, b"\x81\x40\x80\xA1\x7F");
        assert!(
            items[0]
                .contains("[3.7] index Big5 has no code point at pointer 0: code point is null")
        );
        assert!(items[0].contains(
            "[3.9] 0x40 is an ASCII byte, so it is restored to the input and cannot be masked"
        ));
        assert!(items[0].ends_with("[3.10] return error (pointer 0 not in the index)"));
        assert!(items[1].starts_with("40 (bytes 1..2) → U+0040 (@)"));
        assert_eq!(
            items[2],
            item(&[
                "80 (bytes 2..3) → error: invalid byte (U+FFFD in replacement mode)",
                "  [6] 0x80 cannot begin anything here: only 0x00 to 0x7F or 0x81 to 0xFE can",
                "  [6] return error (invalid byte)",
            ])
        );
        assert!(
            items[3]
                .contains("[3.5] 0x7F is not in 0x40 to 0x7E or 0xA1 to 0xFE, so pointer is null")
        );
        assert!(items[3].ends_with("[3.10] return error (trailing byte out of range)"));
    }
}
