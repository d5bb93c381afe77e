//! The [x-user-defined decoder](https://encoding.spec.whatwg.org/#x-user-defined-decoder),
//! narrated.

use super::{Narrate, Narration};
use crate::codec::x_user_defined::{self as codec, XUserDefinedDecoder};
use crate::decoder::Step as HandlerStep;
use crate::explain::step::{StepKind, Variable};

pub(super) const ANCHOR: &str = "x-user-defined-decoder";

const ASCII: &[(u8, u8)] = &[(0x00, 0x7F)];

impl Narrate for XUserDefinedDecoder {
    const ANCHOR: &'static str = ANCHOR;

    fn narrate(&self, byte: u8, out: &mut Narration) -> HandlerStep {
        // Step 2.
        if byte.is_ascii() {
            return out.same_code_point("2", byte, ASCII);
        }
        // Step 3.
        let code_point = codec::code_point(byte);
        out.push("3", StepKind::XUserDefined { byte, code_point });
        out.scalar("3", code_point)
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
    use crate::X_USER_DEFINED;
    use crate::explain::{explained, item};

    #[test]
    fn the_private_use_area() {
        // 0xF780 + 0xFF − 0x80 = 0xF7FF.
        assert_eq!(
            explained(X_USER_DEFINED, b"a\xFF"),
            [
                item(&[
                    "61 (bytes 0..1) → U+0061 (a)",
                    "  [2] 0x61 is in 0x00 to 0x7F, so it is code point U+0061 (a)",
                    "  [2] return code point U+0061 (a)",
                ]),
                item(&[
                    "FF (bytes 1..2) → U+F7FF",
                    "  [3] 0xFF is not an ASCII byte: code point = 0xF780 + 0xFF − 0x80 = U+F7FF",
                    "  [3] return code point U+F7FF",
                ]),
            ]
        );
    }
}
