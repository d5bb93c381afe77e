//! The [`Shift_JIS` decoder](https://encoding.spec.whatwg.org/#shift_jis-decoder), narrated.

use mojiscope_indexes::jis0208;

use super::{Narrate, Narration, in_ranges};
use crate::codec::shift_jis::{self, ShiftJisDecoder};
use crate::decoder::Step as HandlerStep;
use crate::explain::step::{PointerFormula, StepKind, Value, Variable};
use crate::index::Index;
use crate::provenance::DecodeErrorKind;

pub(super) const ANCHOR: &str = "shift_jis-decoder";

const LEADING: &str = "Shift_JIS leading";

/// Step 4: an ASCII byte or 0x80.
const SAME: &[(u8, u8)] = &[(0x00, 0x7F), (0x80, 0x80)];
/// Step 5.
const KATAKANA: &[(u8, u8)] = &[(0xA1, 0xDF)];
/// Step 6.
const LEADING_BYTES: &[(u8, u8)] = &[(0x81, 0x9F), (0xE0, 0xFC)];
/// Step 3.6.
const TRAILING_BYTES: &[(u8, u8)] = &[(0x40, 0x7E), (0x80, 0xFC)];
/// Steps 4-6 together.
const VALID: &[(u8, u8)] = &[(0x00, 0x80), (0x81, 0x9F), (0xA1, 0xDF), (0xE0, 0xFC)];

impl Narrate for ShiftJisDecoder {
    const ANCHOR: &'static str = ANCHOR;

    fn narrate(&self, byte: u8, out: &mut Narration) -> HandlerStep {
        if self.leading != 0 {
            return pair(self.leading, byte, out);
        }
        if in_ranges(byte, SAME) {
            return out.same_code_point("4", byte, SAME);
        }
        if in_ranges(byte, KATAKANA) {
            let code_point = shift_jis::halfwidth_katakana(byte);
            out.push(
                "5",
                StepKind::HalfwidthKatakana {
                    byte,
                    first: 0xA1,
                    code_point,
                },
            );
            return out.scalar("5", code_point);
        }
        if in_ranges(byte, LEADING_BYTES) {
            return out.remember("6", LEADING, byte, LEADING_BYTES);
        }
        out.invalid_byte("7", byte, VALID)
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
    let offset = shift_jis::offset(byte);
    out.push(
        "3.4",
        StepKind::Offset {
            name: "offset",
            value: byte,
            below: 0x7F,
            offset,
        },
    );
    let leading_offset = shift_jis::leading_offset(leading);
    out.push(
        "3.5",
        StepKind::Offset {
            name: "leadingOffset",
            value: leading,
            below: 0xA0,
            offset: leading_offset,
        },
    );
    let in_range = in_ranges(byte, TRAILING_BYTES);
    out.push(
        "3.6",
        StepKind::TrailingByte {
            byte,
            ranges: TRAILING_BYTES,
            in_range,
        },
    );
    if !in_range {
        return out.trail_error(byte, DecodeErrorKind::InvalidTrail, "3.10", "3.11");
    }
    let pointer = shift_jis::pointer(leading, byte);
    out.push(
        "3.6",
        StepKind::Pointer(PointerFormula::TwoByte {
            leading,
            leading_offset,
            row_len: 188,
            byte,
            offset,
            pointer: pointer as u32,
        }),
    );
    if let Some(code_point) = shift_jis::user_defined_code_point(pointer) {
        out.push(
            "3.7",
            StepKind::UserDefinedArea {
                pointer: pointer as u32,
                code_point,
            },
        );
        return out.scalar("3.7", code_point);
    }
    let code_point = jis0208::code_point(pointer);
    out.push(
        "3.8",
        StepKind::IndexCodePoint {
            index: Index::Jis0208,
            pointer: pointer as u32,
            code_point,
        },
    );
    if let Some(code_point) = code_point {
        return out.scalar("3.9", code_point);
    }
    out.trail_error(
        byte,
        DecodeErrorKind::UnassignedPointer {
            pointer: pointer as u32,
        },
        "3.10",
        "3.11",
    )
}

#[cfg(test)]
mod tests {
    use crate::SHIFT_JIS;
    use crate::explain::{explained, item};

    #[test]
    fn a_pair_through_index_jis0208() {
        // 0x82 < 0xA0, so leadingOffset = 0x81; 0xA0 ≥ 0x7F, so offset = 0x41
        // (the trailing bytes skip 0x7F). pointer = (0x82 − 0x81) × 188 +
        // (0xA0 − 0x41) = 188 + 95 = 283, and index jis0208 has U+3042 there.
        assert_eq!(
            explained(SHIFT_JIS, b"\x82\xA0"),
            [item(&[
                "82 A0 (bytes 0..2) → U+3042 (あ)",
                "  [6] 0x82 is in 0x81 to 0x9F or 0xE0 to 0xFC: set Shift_JIS leading to 0x82 and continue",
                "  [3.1-3.2] Shift_JIS leading is 0x82: let leading be 0x82 and set Shift_JIS leading to 0x00",
                "  [3.4] offset = 0x41, as 0xA0 is not less than 0x7F",
                "  [3.5] leadingOffset = 0x81, as 0x82 is less than 0xA0",
                "  [3.6] 0xA0 is in 0x40 to 0x7E or 0x80 to 0xFC, so the pair has a pointer",
                "  [3.6] pointer = (0x82 − 0x81) × 188 + 0xA0 − 0x41 = 283",
                "  [3.8] index jis0208 at pointer 283 is U+3042 (あ)",
                "  [3.9] return code point U+3042 (あ)",
            ])]
        );
        // Leading bytes from 0xE0 on skip the single bytes 0xA0 to 0xDF:
        // leadingOffset = 0xC1, pointer = (0xE0 − 0xC1) × 188 + (0x40 − 0x40)
        // = 31 × 188 = 5828, which is U+6F3E.
        let [e0_40] = &explained(SHIFT_JIS, b"\xE0\x40")[..] else {
            panic!()
        };
        assert!(e0_40.contains("[3.5] leadingOffset = 0xC1, as 0xE0 is not less than 0xA0"));
        assert!(e0_40.contains("[3.6] pointer = (0xE0 − 0xC1) × 188 + 0x40 − 0x40 = 5828"));
        assert!(e0_40.contains("[3.8] index jis0208 at pointer 5828 is U+6F3E (漾)"));
    }

    #[test]
    fn an_ascii_trailing_byte_is_restored() {
        // The Security background's own example: 0x82 0x22 is U+FFFD U+0022,
        // not one U+FFFD that swallows the quotation mark.
        assert_eq!(
            explained(SHIFT_JIS, b"\x82\x22"),
            [
                item(&[
                    "82 (bytes 0..1) → error: trailing byte out of range (U+FFFD in replacement mode)",
                    "  [6] 0x82 is in 0x81 to 0x9F or 0xE0 to 0xFC: set Shift_JIS leading to 0x82 and continue",
                    "  [3.1-3.2] Shift_JIS leading is 0x82: let leading be 0x82 and set Shift_JIS leading to 0x00",
                    "  [3.4] offset = 0x40, as 0x22 is less than 0x7F",
                    "  [3.5] leadingOffset = 0x81, as 0x82 is less than 0xA0",
                    "  [3.6] 0x22 is not in 0x40 to 0x7E or 0x80 to 0xFC, so pointer is null",
                    "  [3.10] 0x22 is an ASCII byte, so it is restored to the input and cannot be masked: it is decoded again on its own (Security background)",
                    "  [3.11] return error (trailing byte out of range)",
                ]),
                item(&[
                    "22 (bytes 1..2) → U+0022 (\")",
                    "  [4] 0x22 is in 0x00 to 0x7F or 0x80, so it is code point U+0022 (\")",
                    "  [4] return code point U+0022 (\")",
                ]),
            ]
        );
        let explanation = SHIFT_JIS.explain(b"\x82\x22");
        let restore = &explanation.items()[0].steps[5];
        assert_eq!(
            restore.see_also.map(|citation| citation.url()).as_deref(),
            Some("https://encoding.spec.whatwg.org/#security-background")
        );
        assert_eq!(
            restore.citation.url(),
            "https://encoding.spec.whatwg.org/#shift_jis-decoder"
        );
    }

    #[test]
    fn pointers_without_a_code_point() {
        // (0x81 − 0x81) × 188 + (0xAD − 0x41) = 108: a hole in the index.
        // 0xAD is not ASCII, so the error takes both bytes.
        let [hole] = &explained(SHIFT_JIS, b"\x81\xAD")[..] else {
            panic!()
        };
        assert!(hole.starts_with("81 AD (bytes 0..2) → error: pointer 108 not in the index"));
        assert!(
            hole.contains(
                "[3.8] index jis0208 has no code point at pointer 108: code point is null"
            )
        );
        assert!(hole.ends_with("[3.11] return error (pointer 108 not in the index)"));
        // (0xEF − 0xC1) × 188 + (0xFC − 0x41) = 46 × 188 + 187 = 8835, one
        // below the user-defined area.
        let [below] = &explained(SHIFT_JIS, b"\xEF\xFC")[..] else {
            panic!()
        };
        assert!(below.contains("[3.6] pointer = (0xEF − 0xC1) × 188 + 0xFC − 0x41 = 8835"));
        assert!(below.contains("[3.8] index jis0208 has no code point at pointer 8835"));
    }

    #[test]
    fn the_user_defined_area() {
        // (0xF0 − 0xC1) × 188 + (0x40 − 0x40) = 47 × 188 = 8836: the first
        // pointer of the area, U+E000 − 8836 + 8836 = U+E000.
        let [first] = &explained(SHIFT_JIS, b"\xF0\x40")[..] else {
            panic!()
        };
        assert!(first.contains("[3.6] pointer = (0xF0 − 0xC1) × 188 + 0x40 − 0x40 = 8836"));
        assert!(first.contains(
            "[3.7] pointer 8836 is in 8836 to 10715 (Windows' end-user-defined characters): code point = 0xE000 − 8836 + 8836 = U+E000"
        ));
        assert!(first.ends_with("[3.7] return code point U+E000"));
    }

    #[test]
    fn single_bytes_and_errors() {
        assert_eq!(
            explained(SHIFT_JIS, b"\xB1\x80\xA0\x82"),
            [
                // U+FF61 − 0xA1 + 0xB1 = U+FF71.
                item(&[
                    "B1 (bytes 0..1) → U+FF71 (ｱ)",
                    "  [5] halfwidth katakana: code point = 0xFF61 − 0xA1 + 0xB1 = U+FF71 (ｱ)",
                    "  [5] return code point U+FF71 (ｱ)",
                ]),
                item(&[
                    "80 (bytes 1..2) → U+0080",
                    "  [4] 0x80 is in 0x00 to 0x7F or 0x80, so it is code point U+0080",
                    "  [4] return code point U+0080",
                ]),
                item(&[
                    "A0 (bytes 2..3) → error: invalid byte (U+FFFD in replacement mode)",
                    "  [7] 0xA0 cannot begin anything here: only 0x00 to 0x80, 0x81 to 0x9F, 0xA1 to 0xDF or 0xE0 to 0xFC can",
                    "  [7] return error (invalid byte)",
                ]),
                item(&[
                    "82 (bytes 3..4) → error: sequence truncated at end of input (U+FFFD in replacement mode)",
                    "  [6] 0x82 is in 0x81 to 0x9F or 0xE0 to 0xFC: set Shift_JIS leading to 0x82 and continue",
                    "  [1] end of the input (end-of-queue) in the middle of a sequence",
                    "  [1] set Shift_JIS leading = 0x00",
                    "  [1] return error (sequence truncated at end of input)",
                ]),
            ]
        );
    }
}
