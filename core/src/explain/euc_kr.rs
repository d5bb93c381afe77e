//! The [EUC-KR decoder](https://encoding.spec.whatwg.org/#euc-kr-decoder), narrated.

use mojiscope_indexes::euc_kr;

use super::{Narrate, Narration, in_ranges};
use crate::codec::euc_kr::{self as codec, EucKrDecoder};
use crate::decoder::Step as HandlerStep;
use crate::explain::step::{PointerFormula, StepKind, Value, Variable};
use crate::index::Index;
use crate::provenance::DecodeErrorKind;

pub(super) const ANCHOR: &str = "euc-kr-decoder";

const LEADING: &str = "EUC-KR leading";

/// Step 4.
const ASCII: &[(u8, u8)] = &[(0x00, 0x7F)];
/// Step 5.
const LEADING_BYTES: &[(u8, u8)] = &[(0x81, 0xFE)];
/// Step 3.4.
const TRAILING_BYTES: &[(u8, u8)] = &[(0x41, 0xFE)];
/// Steps 4-5 together.
const VALID: &[(u8, u8)] = &[(0x00, 0x7F), (0x81, 0xFE)];

impl Narrate for EucKrDecoder {
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
    let in_range = in_ranges(byte, TRAILING_BYTES);
    out.push(
        "3.4",
        StepKind::TrailingByte {
            byte,
            ranges: TRAILING_BYTES,
            in_range,
        },
    );
    if !in_range {
        return out.trail_error(byte, DecodeErrorKind::InvalidTrail, "3.7", "3.8");
    }
    let pointer = codec::pointer(leading, byte);
    out.push(
        "3.4",
        StepKind::Pointer(PointerFormula::TwoByte {
            leading,
            leading_offset: 0x81,
            row_len: 190,
            byte,
            offset: 0x41,
            pointer: pointer as u32,
        }),
    );
    let code_point = euc_kr::code_point(pointer);
    out.push(
        "3.5",
        StepKind::IndexCodePoint {
            index: Index::EucKr,
            pointer: pointer as u32,
            code_point,
        },
    );
    if let Some(code_point) = code_point {
        return out.scalar("3.6", code_point);
    }
    out.trail_error(
        byte,
        DecodeErrorKind::UnassignedPointer {
            pointer: pointer as u32,
        },
        "3.7",
        "3.8",
    )
}

#[cfg(test)]
mod tests {
    use crate::EUC_KR;
    use crate::explain::{explained, item};

    #[test]
    fn pairs_and_errors() {
        // (0xB0 − 0x81) × 190 + (0xA1 − 0x41) = 47 × 190 + 96 = 9026: 가,
        // the corner of the KS X 1001 Hangul block.
        assert_eq!(
            explained(EUC_KR, b"\xB0\xA1"),
            [item(&[
                "B0 A1 (bytes 0..2) → U+AC00 (가)",
                "  [5] 0xB0 is in 0x81 to 0xFE: set EUC-KR leading to 0xB0 and continue",
                "  [3.1-3.2] EUC-KR leading is 0xB0: let leading be 0xB0 and set EUC-KR leading to 0x00",
                "  [3.4] 0xA1 is in 0x41 to 0xFE, so the pair has a pointer",
                "  [3.4] pointer = (0xB0 − 0x81) × 190 + 0xA1 − 0x41 = 9026",
                "  [3.5] index EUC-KR at pointer 9026 is U+AC00 (가)",
                "  [3.6] return code point U+AC00 (가)",
            ])]
        );
        // Pointer 0 is 갂; 0x3F cannot trail and is restored; 0xFF begins
        // nothing.
        let items = explained(EUC_KR, b"\x81\x41\x81\x3F\xFF");
        assert!(items[0].contains("[3.4] pointer = (0x81 − 0x81) × 190 + 0x41 − 0x41 = 0\n  [3.5] index EUC-KR at pointer 0 is U+AC02 (갂)"));
        assert!(items[1].contains("[3.4] 0x3F is not in 0x41 to 0xFE, so pointer is null\n  [3.7] 0x3F is an ASCII byte, so it is restored"));
        assert!(items[2].starts_with("3F (bytes 3..4) → U+003F (?)"));
        assert!(items[3].contains(
            "[6] 0xFF cannot begin anything here: only 0x00 to 0x7F or 0x81 to 0xFE can"
        ));
    }
}
