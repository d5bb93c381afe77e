//! The [UTF-8 decoder](https://encoding.spec.whatwg.org/#utf-8-decoder),
//! narrated, with RFC 2279's table for each complete sequence.

use super::{Narrate, Narration, in_ranges};
use crate::codec::utf_8::{self as codec, Utf8Decoder};
use crate::decoder::Step as HandlerStep;
use crate::explain::step::{Boundary, Citation, Document, StepKind, Value, Variable};
use crate::provenance::DecodeErrorKind;

pub(super) const ANCHOR: &str = "utf-8-decoder";

/// Step 3's ranges.
const ASCII: &[(u8, u8)] = &[(0x00, 0x7F)];
const VALID: &[(u8, u8)] = &[(0x00, 0x7F), (0xC2, 0xDF), (0xE0, 0xEF), (0xF0, 0xF4)];

/// Section 2 of RFC 2279, whose table shows the bits of each byte.
const RFC_2279: Citation = Citation {
    document: Document::Rfc2279,
    anchor: "section-2",
    step: "",
};

impl Narrate for Utf8Decoder {
    const ANCHOR: &'static str = ANCHOR;

    fn narrate(&self, byte: u8, out: &mut Narration) -> HandlerStep {
        if self.bytes_needed == 0 {
            return leading(byte, out);
        }
        // Step 4.
        if !(self.lower_boundary..=self.upper_boundary).contains(&byte) {
            out.push(
                "4",
                StepKind::Utf8OutOfBoundary {
                    byte,
                    lower_boundary: self.lower_boundary,
                    upper_boundary: self.upper_boundary,
                },
            );
            out.restore("4.2", &[byte]);
            return out.error("4.3", DecodeErrorKind::UnexpectedByte, 1);
        }
        // Steps 5-8.
        let code_point = codec::continued_code_point(self.code_point, byte);
        let bytes_seen = self.bytes_seen + 1;
        out.push(
            "5-7",
            StepKind::Utf8Continuation {
                byte,
                lower_boundary: self.lower_boundary,
                upper_boundary: self.upper_boundary,
                code_point_before: self.code_point,
                code_point,
                bytes_seen,
                bytes_needed: self.bytes_needed,
            },
        );
        if bytes_seen != self.bytes_needed {
            return HandlerStep::Continue;
        }
        // Steps 9-11. The boundaries let only scalar values through.
        let Some(c) = char::from_u32(code_point) else {
            return out.error("11", DecodeErrorKind::InvalidByte, 0);
        };
        let mut buffer = [0; 4];
        out.push_cited(
            RFC_2279,
            StepKind::Utf8Pattern {
                bytes: c.encode_utf8(&mut buffer).as_bytes().to_vec(),
                code_point: c,
            },
        );
        out.scalar("9-11", c)
    }

    fn narrate_end(&self, out: &mut Narration) -> HandlerStep {
        if self.bytes_needed == 0 {
            return HandlerStep::Finished;
        }
        out.push("1", StepKind::EndOfQueue);
        out.push(
            "1",
            StepKind::Set {
                variables: vec![Variable::new("UTF-8 bytes needed", number(0))],
            },
        );
        out.error("1", DecodeErrorKind::TruncatedSequence, 0)
    }

    fn variables(&self) -> Vec<Variable> {
        vec![
            Variable::new(
                "UTF-8 code point",
                Value::Number {
                    value: self.code_point,
                    hex: true,
                },
            ),
            Variable::new("UTF-8 bytes seen", number(self.bytes_seen)),
            Variable::new("UTF-8 bytes needed", number(self.bytes_needed)),
            Variable::new("UTF-8 lower boundary", Value::Byte(self.lower_boundary)),
            Variable::new("UTF-8 upper boundary", Value::Byte(self.upper_boundary)),
        ]
    }
}

fn number(value: u8) -> Value {
    Value::Number {
        value: u32::from(value),
        hex: false,
    }
}

/// Step 3: `byte` with no sequence pending.
fn leading(byte: u8, out: &mut Narration) -> HandlerStep {
    if in_ranges(byte, ASCII) {
        out.push(
            "3",
            StepKind::SameCodePoint {
                byte,
                ranges: ASCII,
            },
        );
        return out.scalar("3", char::from(byte));
    }
    let (bytes_needed, mask) = match byte {
        0xC2..=0xDF => (1, 0x1F),
        0xE0..=0xEF => (2, 0xF),
        0xF0..=0xF4 => (3, 0x7),
        _ => {
            out.push("3", StepKind::InvalidByte { byte, valid: VALID });
            return out.error("3", DecodeErrorKind::InvalidByte, 0);
        }
    };
    let boundary = match byte {
        0xE0 => Some((Boundary::Lower, 0xA0)),
        0xED => Some((Boundary::Upper, 0x9F)),
        0xF0 => Some((Boundary::Lower, 0x90)),
        0xF4 => Some((Boundary::Upper, 0x8F)),
        _ => None,
    };
    if let Some((boundary, value)) = boundary {
        out.push(
            "3",
            StepKind::Utf8Boundary {
                byte,
                boundary,
                value,
            },
        );
    }
    out.push(
        "3",
        StepKind::Utf8Leading {
            byte,
            bytes_needed,
            code_point: u32::from(byte & mask),
        },
    );
    HandlerStep::Continue
}

#[cfg(test)]
mod tests {
    use crate::UTF_8;
    use crate::explain::{explained, item};

    #[test]
    fn the_bits_of_each_length() {
        // 0xE3 = 1110 0011: three bytes, code point 0xE3 & 0xF = 0x3; then
        // (0x3 << 6) | (0x81 & 0x3F) = 0xC1 and (0xC1 << 6) | 0x01 = 0x3041.
        assert_eq!(
            explained(UTF_8, b"\xE3\x81\x81"),
            [item(&[
                "E3 81 81 (bytes 0..3) → U+3041 (ぁ)",
                "  [3] 0xE3 = 1110 0011 begins a sequence of 3 bytes (1110xxxx): UTF-8 bytes needed = 2, UTF-8 code point = 0xE3 & 0xF = 0x3",
                "  [5-7] 0x81 = 1000 0001 is in 0x80 to 0xBF: UTF-8 code point = (0x3 << 6) | (0x81 & 0x3F) = 0xC1; UTF-8 bytes seen = 1 of 2",
                "  [5-7] 0x81 = 1000 0001 is in 0x80 to 0xBF: UTF-8 code point = (0xC1 << 6) | (0x81 & 0x3F) = 0x3041; UTF-8 bytes seen = 2 of 2",
                "  [RFC 2279 §2] U+0800 to U+FFFF is 1110xxxx 10xxxxxx 10xxxxxx: 1110.0011 10.000001 10.000001 carries 0011 000001 000001 = U+3041 (ぁ)",
                "  [9-11] return code point U+3041 (ぁ)",
            ])]
        );
        // 0xC3 & 0x1F = 0x3, (0x3 << 6) | (0xA9 & 0x3F) = 0xC0 | 0x29 = 0xE9.
        let [e_acute] = &explained(UTF_8, b"\xC3\xA9")[..] else {
            panic!()
        };
        assert!(e_acute.contains(
            "UTF-8 code point = (0x3 << 6) | (0xA9 & 0x3F) = 0xE9; UTF-8 bytes seen = 1 of 1"
        ));
        assert!(e_acute.contains("U+0080 to U+07FF is 110xxxxx 10xxxxxx: 110.00011 10.101001 carries 00011 101001 = U+00E9 (é)"));
        // F0 9F 98 80: 0x0, then 0x1F, 0x7D8, 0x1F600 (U+1F600), with the
        // lower boundary 0x90 for the second byte.
        let [emoji] = &explained(UTF_8, b"\xF0\x9F\x98\x80")[..] else {
            panic!()
        };
        assert!(emoji.contains("[3] 0xF0: set UTF-8 lower boundary to 0x90"));
        assert!(emoji.contains("0x9F = 1001 1111 is in 0x90 to 0xBF"));
        assert!(
            emoji.contains("(0x7D8 << 6) | (0x80 & 0x3F) = 0x1F600; UTF-8 bytes seen = 3 of 3")
        );
        assert!(emoji.contains(
            "U+10000 to U+10FFFF is 11110xxx 10xxxxxx 10xxxxxx 10xxxxxx: 11110.000 10.011111 10.011000 10.000000 carries 000 011111 011000 000000 = U+1F600 (😀)"
        ));
    }

    #[test]
    fn boundaries_and_errors() {
        // 0xE0 0x80 would be an overlong form: the lower boundary is 0xA0, so
        // 0x80 ends the sequence and is restored; alone it begins nothing.
        assert_eq!(
            explained(UTF_8, b"\xE0\x80"),
            [
                item(&[
                    "E0 (bytes 0..1) → error: incomplete sequence (the next byte cannot continue it) (U+FFFD in replacement mode)",
                    "  [3] 0xE0: set UTF-8 lower boundary to 0xA0, so that a shorter form of a code point below U+0800 (overlong) cannot get through",
                    "  [3] 0xE0 = 1110 0000 begins a sequence of 3 bytes (1110xxxx): UTF-8 bytes needed = 2, UTF-8 code point = 0xE0 & 0xF = 0x0",
                    "  [4] 0x80 is not in 0xA0 to 0xBF (UTF-8 lower to upper boundary): the sequence ends before it; the state is reset",
                    "  [4.2] restore 0x80 to the input: decoded again after this error",
                    "  [4.3] return error (incomplete sequence (the next byte cannot continue it))",
                ]),
                item(&[
                    "80 (bytes 1..2) → error: invalid byte (U+FFFD in replacement mode)",
                    "  [3] 0x80 cannot begin anything here: only 0x00 to 0x7F, 0xC2 to 0xDF, 0xE0 to 0xEF or 0xF0 to 0xF4 can",
                    "  [3] return error (invalid byte)",
                ]),
            ]
        );
        // 0xED 0xA0 would be a surrogate: upper boundary 0x9F.
        let items = explained(UTF_8, b"\xED\xA0");
        assert!(items[0].contains("set UTF-8 upper boundary to 0x9F, so that a surrogate (U+D800 to U+DFFF) cannot get through"));
        assert!(items[0].contains("0xA0 is not in 0x80 to 0x9F"));
        // 0xF4 0x90 would be past U+10FFFF: upper boundary 0x8F.
        let items = explained(UTF_8, b"\xF4\x90");
        assert!(items[0].contains(
            "set UTF-8 upper boundary to 0x8F, so that nothing past U+10FFFF can get through"
        ));
        // A sequence cut off by the end of the input.
        let [cut] = &explained(UTF_8, b"\xF0\x90\x80")[..] else {
            panic!()
        };
        assert!(
            cut.starts_with("F0 90 80 (bytes 0..3) → error: sequence truncated at end of input")
        );
        assert!(cut.ends_with(
            "  [1] end of the input (end-of-queue) in the middle of a sequence\n  [1] set UTF-8 bytes needed = 0\n  [1] return error (sequence truncated at end of input)"
        ));
    }
}
