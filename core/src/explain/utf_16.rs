//! The [shared UTF-16 decoder](https://encoding.spec.whatwg.org/#shared-utf-16-decoder)
//! (UTF-16BE's and UTF-16LE's), narrated.

use super::{Narrate, Narration};
use crate::codec::utf_16::{self as codec, Utf16Decoder};
use crate::decoder::Step as HandlerStep;
use crate::explain::step::{Citation, Document, StepKind, Value, Variable};
use crate::provenance::DecodeErrorKind;

pub(super) const ANCHOR: &str = "shared-utf-16-decoder";

const LEADING_BYTE: &str = "UTF-16 leading byte";
const LEADING_SURROGATE: &str = "UTF-16 leading surrogate";

/// The Infra standard's scalar value from surrogates.
const FROM_SURROGATES: Citation = Citation {
    document: Document::Infra,
    anchor: "scalar-value-from-surrogates",
    step: "",
};

impl Narrate for Utf16Decoder {
    const ANCHOR: &'static str = ANCHOR;

    fn narrate(&self, byte: u8, out: &mut Narration) -> HandlerStep {
        // Step 3.
        let Some(leading_byte) = self.leading_byte else {
            out.push("3", StepKind::Utf16LeadingByte { byte });
            return HandlerStep::Continue;
        };
        // Steps 4-5.
        let code_unit = codec::code_unit(leading_byte, byte, self.is_utf16be);
        out.push(
            "4-5",
            StepKind::CodeUnit {
                leading_byte,
                byte,
                is_utf16be: self.is_utf16be,
                code_unit,
            },
        );
        // Step 6.
        if let Some(leading) = self.leading_surrogate {
            if codec::is_trailing_surrogate(code_unit) {
                let code_point = codec::scalar_value_from_surrogates(leading, code_unit);
                out.push_cited(
                    FROM_SURROGATES,
                    StepKind::SurrogatePair {
                        leading,
                        trailing: code_unit,
                        code_point,
                    },
                );
                return out.scalar("6.3", code_point);
            }
            out.push(
                "6.1-6.3",
                StepKind::UnpairedLeadingSurrogate { leading, code_unit },
            );
            out.restore("6.4-6.7", &[leading_byte, byte]);
            return out.error("6.7", DecodeErrorKind::UnpairedSurrogate, 2);
        }
        // Step 7.
        if codec::is_leading_surrogate(code_unit) {
            out.push("7", StepKind::LeadingSurrogate { code_unit });
            return HandlerStep::Continue;
        }
        // Step 8.
        if codec::is_trailing_surrogate(code_unit) {
            out.push("8", StepKind::LoneTrailingSurrogate { code_unit });
            return out.error("8", DecodeErrorKind::UnpairedSurrogate, 0);
        }
        // Step 9.
        out.push("9", StepKind::CodeUnitIsCodePoint { code_unit });
        let Some(c) = char::from_u32(u32::from(code_unit)) else {
            return out.error("9", DecodeErrorKind::UnpairedSurrogate, 0);
        };
        out.scalar("9", c)
    }

    fn narrate_end(&self, out: &mut Narration) -> HandlerStep {
        if self.leading_byte.is_none() && self.leading_surrogate.is_none() {
            return HandlerStep::Finished;
        }
        out.push("1", StepKind::EndOfQueue);
        out.push(
            "1",
            StepKind::Set {
                variables: vec![
                    Variable::new(LEADING_BYTE, Value::Null),
                    Variable::new(LEADING_SURROGATE, Value::Null),
                ],
            },
        );
        let kind = if self.leading_byte.is_some() {
            DecodeErrorKind::TruncatedSequence
        } else {
            DecodeErrorKind::UnpairedSurrogate
        };
        out.error("1", kind, 0)
    }

    fn variables(&self) -> Vec<Variable> {
        vec![
            Variable::new(
                LEADING_BYTE,
                self.leading_byte.map_or(Value::Null, Value::Byte),
            ),
            Variable::new(
                LEADING_SURROGATE,
                self.leading_surrogate.map_or(Value::Null, Value::CodeUnit),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use crate::explain::{explained, item};
    use crate::{UTF_16BE, UTF_16LE};

    #[test]
    fn surrogate_arithmetic() {
        // 0x3D 0xD8 little-endian is 0xD83D, a leading surrogate; 0xDE00
        // trails it: 0x10000 + (0x3D << 10) + 0x200 = 0x10000 + 0xF400 +
        // 0x200 = U+1F600.
        assert_eq!(
            explained(UTF_16LE, b"\x3D\xD8\x00\xDE"),
            [item(&[
                "3D D8 00 DE (bytes 0..4) → U+1F600 (😀)",
                "  [3] UTF-16 leading byte is null: set it to 0x3D and continue",
                "  [4-5] UTF-16LE: code unit = (0xD8 << 8) + 0x3D = 0xD83D; set UTF-16 leading byte to null",
                "  [7] 0xD83D is a leading surrogate (0xD800 to 0xDBFF): set UTF-16 leading surrogate to it and continue",
                "  [3] UTF-16 leading byte is null: set it to 0x00 and continue",
                "  [4-5] UTF-16LE: code unit = (0xDE << 8) + 0x00 = 0xDE00; set UTF-16 leading byte to null",
                "  [Infra #scalar-value-from-surrogates] UTF-16 leading surrogate is 0xD83D and 0xDE00 is a trailing surrogate: scalar value = 0x10000 + ((0xD83D − 0xD800) << 10) + (0xDE00 − 0xDC00) = U+1F600 (😀)",
                "  [6.3] return code point U+1F600 (😀)",
            ])]
        );
        let [euro] = &explained(UTF_16BE, b"\x20\xAC")[..] else {
            panic!()
        };
        assert!(euro.contains("UTF-16BE: code unit = (0x20 << 8) + 0xAC = 0x20AC"));
        assert!(euro.contains("[9] 0x20AC is not a surrogate, so it is code point U+20AC (€)"));
    }

    #[test]
    fn unpaired_surrogates() {
        // A leading surrogate, then 0x0061: its two bytes are restored.
        let items = explained(UTF_16LE, b"\x3D\xD8a\x00");
        assert!(items[0].contains("[6.1-6.3] UTF-16 leading surrogate is 0xD83D but 0x0061 is not a trailing surrogate (0xDC00 to 0xDFFF)"));
        assert!(items[0].contains("[6.4-6.7] restore 0x61 0x00 to the input"));
        assert!(items[1].starts_with("61 00 (bytes 2..4) → U+0061 (a)"));
        let [lone] = &explained(UTF_16BE, b"\xDC\x00")[..] else {
            panic!()
        };
        assert!(lone.contains("[8] 0xDC00 is a trailing surrogate (0xDC00 to 0xDFFF) with no leading surrogate before it\n  [8] return error (unpaired surrogate)"));
        // The end of the input after one byte, and after a leading surrogate.
        let items = explained(UTF_16BE, b"\x00a\x00");
        assert!(items[1].ends_with("[1] return error (sequence truncated at end of input)"));
        let [end] = &explained(UTF_16BE, b"\xD8\x3D")[..] else {
            panic!()
        };
        assert!(end.ends_with("[1] return error (unpaired surrogate)"));
    }
}
