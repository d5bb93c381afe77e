//! The [EUC-JP decoder](https://encoding.spec.whatwg.org/#euc-jp-decoder), narrated.

use mojiscope_indexes::{jis0208, jis0212};

use super::{Narrate, Narration, in_ranges};
use crate::codec::euc_jp::{self as codec, EucJpDecoder};
use crate::decoder::Step as HandlerStep;
use crate::explain::step::{PointerFormula, StepKind, Value, Variable};
use crate::index::Index;
use crate::provenance::DecodeErrorKind;

pub(super) const ANCHOR: &str = "euc-jp-decoder";

const LEADING: &str = "EUC-JP leading";
const JIS0212: &str = "EUC-JP jis0212";

/// Step 6.
const ASCII: &[(u8, u8)] = &[(0x00, 0x7F)];
/// Step 7.
const LEADING_BYTES: &[(u8, u8)] = &[(0x8E, 0x8F), (0xA1, 0xFE)];
/// Step 3: the byte after 0x8E.
const KATAKANA: &[(u8, u8)] = &[(0xA1, 0xDF)];
/// Steps 4 and 5.4: the bytes of a pair.
const PAIR_BYTES: &[(u8, u8)] = &[(0xA1, 0xFE)];
/// Steps 6-7 together.
const VALID: &[(u8, u8)] = &[(0x00, 0x7F), (0x8E, 0x8F), (0xA1, 0xFE)];

impl Narrate for EucJpDecoder {
    const ANCHOR: &'static str = ANCHOR;

    fn narrate(&self, byte: u8, out: &mut Narration) -> HandlerStep {
        if self.leading == 0x8E && in_ranges(byte, KATAKANA) {
            out.push(
                "3",
                StepKind::LeadingAndByte {
                    variable: LEADING,
                    leading: 0x8E,
                    byte,
                    ranges: KATAKANA,
                },
            );
            out.push(
                "3",
                StepKind::Set {
                    variables: vec![Variable::new(LEADING, Value::Byte(0))],
                },
            );
            let code_point = codec::halfwidth_katakana(byte);
            out.push(
                "3",
                StepKind::HalfwidthKatakana {
                    byte,
                    first: 0xA1,
                    code_point,
                },
            );
            return out.scalar("3", code_point);
        }
        if self.leading == 0x8F && in_ranges(byte, PAIR_BYTES) {
            out.push("4", StepKind::Jis0212 { byte });
            return HandlerStep::Continue;
        }
        if self.leading != 0 {
            return self.narrate_pair(byte, out);
        }
        if in_ranges(byte, ASCII) {
            return out.same_code_point("6", byte, ASCII);
        }
        if in_ranges(byte, LEADING_BYTES) {
            return out.remember("7", LEADING, byte, LEADING_BYTES);
        }
        out.invalid_byte("8", byte, VALID)
    }

    fn narrate_end(&self, out: &mut Narration) -> HandlerStep {
        out.end_with_leading(LEADING, self.leading)
    }

    fn variables(&self) -> Vec<Variable> {
        vec![
            Variable::new(JIS0212, Value::Flag(self.jis0212)),
            Variable::new(LEADING, Value::Byte(self.leading)),
        ]
    }
}

impl EucJpDecoder {
    /// Step 5: `byte` after a leading byte.
    fn narrate_pair(&self, byte: u8, out: &mut Narration) -> HandlerStep {
        let leading = self.leading;
        out.push(
            "5.1-5.2",
            StepKind::TakeLeading {
                variable: LEADING,
                leading,
            },
        );
        let in_range = in_ranges(leading, PAIR_BYTES) && in_ranges(byte, PAIR_BYTES);
        out.push(
            "5.4",
            StepKind::BothInRange {
                leading,
                byte,
                in_range,
            },
        );
        let reset_flag = |out: &mut Narration| {
            if self.jis0212 {
                out.push(
                    "5.5",
                    StepKind::Set {
                        variables: vec![Variable::new(JIS0212, Value::Flag(false))],
                    },
                );
            }
        };
        if !in_range {
            reset_flag(out);
            return out.trail_error(byte, DecodeErrorKind::InvalidTrail, "5.7", "5.8");
        }
        let pointer = codec::pointer(leading, byte);
        out.push(
            "5.4",
            StepKind::Pointer(PointerFormula::TwoByte {
                leading,
                leading_offset: 0xA1,
                row_len: 94,
                byte,
                offset: 0xA1,
                pointer: pointer as u32,
            }),
        );
        let (index, code_point) = if self.jis0212 {
            (Index::Jis0212, jis0212::code_point(pointer))
        } else {
            (Index::Jis0208, jis0208::code_point(pointer))
        };
        out.push(
            "5.4",
            StepKind::IndexCodePoint {
                index,
                pointer: pointer as u32,
                code_point,
            },
        );
        reset_flag(out);
        if let Some(code_point) = code_point {
            return out.scalar("5.6", code_point);
        }
        out.trail_error(
            byte,
            DecodeErrorKind::UnassignedPointer {
                pointer: pointer as u32,
            },
            "5.7",
            "5.8",
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::EUC_JP;
    use crate::explain::{explained, item};

    #[test]
    fn the_jis0212_path() {
        // 0x8F, then 0xA2 sets EUC-JP jis0212; (0xA2 − 0xA1) × 94 + (0xAF −
        // 0xA1) = 94 + 14 = 108, index jis0212's first entry, U+02D8.
        assert_eq!(
            explained(EUC_JP, b"\x8F\xA2\xAF"),
            [item(&[
                "8F A2 AF (bytes 0..3) → U+02D8 (˘)",
                "  [7] 0x8F is in 0x8E to 0x8F or 0xA1 to 0xFE: set EUC-JP leading to 0x8F and continue",
                "  [4] EUC-JP leading is 0x8F and 0xA2 is in 0xA1 to 0xFE: set EUC-JP jis0212 to true and EUC-JP leading to 0xA2 (the pair is looked up in index jis0212) and continue",
                "  [5.1-5.2] EUC-JP leading is 0xA2: let leading be 0xA2 and set EUC-JP leading to 0x00",
                "  [5.4] 0xA2 and 0xAF are both in 0xA1 to 0xFE, so the pair has a pointer",
                "  [5.4] pointer = (0xA2 − 0xA1) × 94 + 0xAF − 0xA1 = 108",
                "  [5.4] index jis0212 at pointer 108 is U+02D8 (˘)",
                "  [5.5] set EUC-JP jis0212 = false",
                "  [5.6] return code point U+02D8 (˘)",
            ])]
        );
        // Without 0x8F the same arithmetic goes to index jis0208:
        // (0xA4 − 0xA1) × 94 + (0xA2 − 0xA1) = 283, as for Shift_JIS 0x82 0xA0.
        let [a] = &explained(EUC_JP, b"\xA4\xA2")[..] else {
            panic!()
        };
        assert!(a.contains("[5.4] pointer = (0xA4 − 0xA1) × 94 + 0xA2 − 0xA1 = 283\n  [5.4] index jis0208 at pointer 283 is U+3042 (あ)"));
        // A JIS X 0212 pair cut by an ASCII byte: the flag is reset and the
        // byte restored.
        let items = explained(EUC_JP, b"\x8F\xA2\x41");
        assert!(items[0].contains("[5.4] 0xA2 and 0x41 are not both in 0xA1 to 0xFE, so code point is null\n  [5.5] set EUC-JP jis0212 = false\n  [5.7] 0x41 is an ASCII byte, so it is restored"));
        assert!(items[1].starts_with("41 (bytes 2..3) → U+0041 (A)"));
    }

    #[test]
    fn halfwidth_katakana_and_errors() {
        // 0x8E 0xB1: U+FF61 − 0xA1 + 0xB1 = U+FF71.
        assert_eq!(
            explained(EUC_JP, b"\x8E\xB1"),
            [item(&[
                "8E B1 (bytes 0..2) → U+FF71 (ｱ)",
                "  [7] 0x8E is in 0x8E to 0x8F or 0xA1 to 0xFE: set EUC-JP leading to 0x8E and continue",
                "  [3] EUC-JP leading is 0x8E and 0xB1 is in 0xA1 to 0xDF",
                "  [3] set EUC-JP leading = 0x00",
                "  [3] halfwidth katakana: code point = 0xFF61 − 0xA1 + 0xB1 = U+FF71 (ｱ)",
                "  [3] return code point U+FF71 (ｱ)",
            ])]
        );
        // 0x8E then 0xE0 (past the katakana): step 5, and 0x8E is not in
        // 0xA1 to 0xFE; 0xE0 is not ASCII, so both bytes make the error.
        let [error] = &explained(EUC_JP, b"\x8E\xE0")[..] else {
            panic!()
        };
        assert!(error.starts_with("8E E0 (bytes 0..2) → error: trailing byte out of range"));
        assert!(error.contains("[5.4] 0x8E and 0xE0 are not both in 0xA1 to 0xFE, so code point is null\n  [5.8] return error"));
    }
}
