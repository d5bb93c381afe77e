//! The [gb18030 decoder](https://encoding.spec.whatwg.org/#gb18030-decoder)
//! (also GBK's decoder), narrated.

use mojiscope_indexes::{gb18030, gb18030_ranges};

use super::{Narrate, Narration, in_ranges};
use crate::codec::gb18030::{self as codec, Gb18030Decoder};
use crate::decoder::Step as HandlerStep;
use crate::explain::step::{Citation, PointerFormula, RangesLookup, StepKind, Value, Variable};
use crate::index::Index;
use crate::provenance::DecodeErrorKind;

pub(super) const ANCHOR: &str = "gb18030-decoder";

const FIRST: &str = "gb18030 first";
const SECOND: &str = "gb18030 second";
const THIRD: &str = "gb18030 third";

/// Step 6.
const ASCII: &[(u8, u8)] = &[(0x00, 0x7F)];
/// Steps 8, 4.1: a first or third byte.
const LEADING_BYTES: &[(u8, u8)] = &[(0x81, 0xFE)];
/// Steps 5.1, 3.1: a second or fourth byte.
const DIGITS: &[(u8, u8)] = &[(0x30, 0x39)];
/// Step 5.6.
const TRAILING_BYTES: &[(u8, u8)] = &[(0x40, 0x7E), (0x80, 0xFE)];
/// Steps 6-8 together.
const VALID: &[(u8, u8)] = &[(0x00, 0x7F), (0x80, 0x80), (0x81, 0xFE)];

impl Narrate for Gb18030Decoder {
    const ANCHOR: &'static str = ANCHOR;

    fn narrate(&self, byte: u8, out: &mut Narration) -> HandlerStep {
        if self.third != 0 {
            return self.narrate_fourth_byte(byte, out);
        }
        if self.second != 0 {
            return self.narrate_third_byte(byte, out);
        }
        if self.first != 0 {
            return second_byte(self.first, byte, out);
        }
        if in_ranges(byte, ASCII) {
            return out.same_code_point("6", byte, ASCII);
        }
        if byte == 0x80 {
            out.push(
                "7",
                StepKind::FixedCodePoint {
                    byte,
                    code_point: '\u{20AC}',
                },
            );
            return out.scalar("7", '\u{20AC}');
        }
        if in_ranges(byte, LEADING_BYTES) {
            return out.remember("8", FIRST, byte, LEADING_BYTES);
        }
        out.invalid_byte("9", byte, VALID)
    }

    fn narrate_end(&self, out: &mut Narration) -> HandlerStep {
        if self.first == 0 {
            return HandlerStep::Finished;
        }
        out.push("2", StepKind::EndOfQueue);
        if self.second != 0 {
            out.push_see_also(
                "2",
                StepKind::MaskedAtEnd { byte: self.second },
                Citation::SECURITY_BACKGROUND,
            );
        }
        out.push("2", reset_all());
        out.error("2", DecodeErrorKind::TruncatedSequence, 0)
    }

    fn variables(&self) -> Vec<Variable> {
        vec![
            Variable::new(FIRST, Value::Byte(self.first)),
            Variable::new(SECOND, Value::Byte(self.second)),
            Variable::new(THIRD, Value::Byte(self.third)),
        ]
    }
}

impl Gb18030Decoder {
    /// Step 3: `byte` after three bytes of a four-byte sequence.
    fn narrate_fourth_byte(&self, byte: u8, out: &mut Narration) -> HandlerStep {
        let in_range = in_ranges(byte, DIGITS);
        out.push(
            "3.1",
            StepKind::ByteInRanges {
                byte,
                ranges: DIGITS,
                in_range,
            },
        );
        if !in_range {
            out.restore("3.1.1", &[self.second, self.third, byte]);
            out.push("3.1.2", reset_all());
            return out.error("3.1.3", DecodeErrorKind::UnexpectedByte, 3);
        }
        let bytes = [self.first, self.second, self.third, byte];
        let pointer = codec::four_byte_pointer(bytes);
        out.push(
            "3.2",
            StepKind::Pointer(PointerFormula::FourByte { bytes, pointer }),
        );
        let lookup = ranges_lookup(pointer);
        out.push("3.2", StepKind::RangesCodePoint { pointer, lookup });
        out.push("3.3", reset_all());
        match lookup {
            RangesLookup::Range { code_point, .. } => out.scalar("3.5", code_point),
            RangesLookup::E7c7 => out.scalar("3.5", '\u{E7C7}'),
            RangesLookup::Null => {
                out.error("3.4", DecodeErrorKind::UnassignedPointer { pointer }, 0)
            }
        }
    }

    /// Step 4: `byte` after a first byte and a digit.
    fn narrate_third_byte(&self, byte: u8, out: &mut Narration) -> HandlerStep {
        if in_ranges(byte, LEADING_BYTES) {
            return out.remember("4.1", THIRD, byte, LEADING_BYTES);
        }
        out.push(
            "4.1",
            StepKind::ByteInRanges {
                byte,
                ranges: LEADING_BYTES,
                in_range: false,
            },
        );
        out.restore("4.2", &[self.second, byte]);
        out.push(
            "4.2",
            StepKind::Set {
                variables: vec![
                    Variable::new(FIRST, Value::Byte(0)),
                    Variable::new(SECOND, Value::Byte(0)),
                ],
            },
        );
        out.error("4.2", DecodeErrorKind::UnexpectedByte, 2)
    }
}

/// Step 5: `byte` after the first byte `first`.
fn second_byte(first: u8, byte: u8, out: &mut Narration) -> HandlerStep {
    if in_ranges(byte, DIGITS) {
        out.push(
            "5.1",
            StepKind::Remember {
                variable: SECOND,
                byte,
                ranges: DIGITS,
            },
        );
        return HandlerStep::Continue;
    }
    out.push(
        "5.2-5.3",
        StepKind::TakeLeading {
            variable: FIRST,
            leading: first,
        },
    );
    let offset = codec::offset(byte);
    out.push(
        "5.5",
        StepKind::Offset {
            name: "offset",
            value: byte,
            below: 0x7F,
            offset,
        },
    );
    let in_range = in_ranges(byte, TRAILING_BYTES);
    out.push(
        "5.6",
        StepKind::TrailingByte {
            byte,
            ranges: TRAILING_BYTES,
            in_range,
        },
    );
    if !in_range {
        return out.trail_error(byte, DecodeErrorKind::InvalidTrail, "5.9", "5.10");
    }
    let pointer = codec::two_byte_pointer(first, byte);
    out.push(
        "5.6",
        StepKind::Pointer(PointerFormula::TwoByte {
            leading: first,
            leading_offset: 0x81,
            row_len: 190,
            byte,
            offset,
            pointer: pointer as u32,
        }),
    );
    let code_point = gb18030::code_point(pointer);
    out.push(
        "5.7",
        StepKind::IndexCodePoint {
            index: Index::Gb18030,
            pointer: pointer as u32,
            code_point,
        },
    );
    if let Some(code_point) = code_point {
        return out.scalar("5.8", code_point);
    }
    out.trail_error(
        byte,
        DecodeErrorKind::UnassignedPointer {
            pointer: pointer as u32,
        },
        "5.9",
        "5.10",
    )
}

/// The [index gb18030 ranges code point](https://encoding.spec.whatwg.org/#index-gb18030-ranges-code-point)
/// for `pointer`, step by step.
fn ranges_lookup(pointer: u32) -> RangesLookup {
    // Step 1.
    if (pointer > 39419 && pointer < 189_000) || pointer > 1_237_575 {
        return RangesLookup::Null;
    }
    // Step 2.
    if pointer == 7457 {
        return RangesLookup::E7c7;
    }
    // Steps 3-4.
    gb18030_ranges::range_at(pointer)
        .and_then(|(offset, code_point_offset)| {
            let code_point = char::from_u32(code_point_offset + (pointer - offset))?;
            Some(RangesLookup::Range {
                offset,
                code_point_offset,
                code_point,
            })
        })
        .unwrap_or(RangesLookup::Null)
}

/// "Set gb18030 first, gb18030 second, and gb18030 third to 0x00".
fn reset_all() -> StepKind {
    StepKind::Set {
        variables: vec![
            Variable::new(FIRST, Value::Byte(0)),
            Variable::new(SECOND, Value::Byte(0)),
            Variable::new(THIRD, Value::Byte(0)),
        ],
    }
}

#[cfg(test)]
mod tests {
    use crate::explain::{explained, item};
    use crate::{GB18030, GBK};

    #[test]
    fn four_bytes_through_the_ranges() {
        // 0x81 0x30 0x81 0x30 is pointer 0, in the range that starts at
        // pointer 0 with U+0080.
        assert_eq!(
            explained(GB18030, b"\x81\x30\x81\x30"),
            [item(&[
                "81 30 81 30 (bytes 0..4) → U+0080",
                "  [8] 0x81 is in 0x81 to 0xFE: set gb18030 first to 0x81 and continue",
                "  [5.1] 0x30 is in 0x30 to 0x39: set gb18030 second to 0x30 and continue",
                "  [4.1] 0x81 is in 0x81 to 0xFE: set gb18030 third to 0x81 and continue",
                "  [3.1] 0x30 is in 0x30 to 0x39",
                "  [3.2] pointer = (0x81 − 0x81) × (10 × 126 × 10) + (0x30 − 0x30) × (10 × 126) + (0x81 − 0x81) × 10 + 0x30 − 0x30 = 0",
                "  [3.2] in index gb18030 ranges, the last pointer at or below 0 is 0 (U+0080): code point = 0x80 + 0 − 0 = U+0080",
                "  [3.3] set gb18030 first = 0x00, gb18030 second = 0x00, gb18030 third = 0x00",
                "  [3.5] return code point U+0080",
            ])]
        );
        // (0x84 − 0x81) × 12600 + (0x31 − 0x30) × 1260 + (0xA4 − 0x81) × 10
        // + 9 = 37800 + 1260 + 350 + 9 = 39419: the last range starts at
        // 39394 with U+FFE6, so 0xFFE6 + 25 = U+FFFF.
        let [last_bmp] = &explained(GB18030, b"\x84\x31\xA4\x39")[..] else {
            panic!()
        };
        assert!(last_bmp.contains("= 39419\n"));
        assert!(last_bmp.contains(
            "in index gb18030 ranges, the last pointer at or below 39419 is 39394 (U+FFE6): code point = 0xFFE6 + 39419 − 39394 = U+FFFF"
        ));
        // (0x90 − 0x81) × 12600 = 189000: U+10000, the first supplementary.
        let [supplementary] = &explained(GB18030, b"\x90\x30\x81\x30")[..] else {
            panic!()
        };
        assert!(
            supplementary
                .contains("is 189000 (U+10000): code point = 0x10000 + 189000 − 189000 = U+10000")
        );
        // 5 × 1260 + (0xF4 − 0x81) × 10 + 7 = 6300 + 1150 + 7 = 7457: the
        // GB18030-2005 change.
        let [e7c7] = &explained(GB18030, b"\x81\x35\xF4\x37")[..] else {
            panic!()
        };
        assert!(e7c7.contains("= 7457\n  [3.2] pointer 7457 is code point U+E7C7"));
    }

    #[test]
    fn four_byte_errors() {
        // 3 × 12600 + 1260 + (0xA5 − 0x81) × 10 = 39420: in the gap.
        let [gap] = &explained(GB18030, b"\x84\x31\xA5\x30")[..] else {
            panic!()
        };
        assert!(gap.contains("= 39420\n  [3.2] pointer 39420 is between 39419 and 189000, or past 1237575: index gb18030 ranges code point is null"));
        assert!(gap.ends_with("[3.4] return error (pointer 39420 not in the index)"));
        // A fourth byte that is not a digit: second, third and the byte go
        // back to the input; the error is the first byte alone.
        let items = explained(GB18030, b"\x81\x30\x81\x41");
        assert_eq!(
            items[0],
            item(&[
                "81 (bytes 0..1) → error: incomplete sequence (the next byte cannot continue it) (U+FFFD in replacement mode)",
                "  [8] 0x81 is in 0x81 to 0xFE: set gb18030 first to 0x81 and continue",
                "  [5.1] 0x30 is in 0x30 to 0x39: set gb18030 second to 0x30 and continue",
                "  [4.1] 0x81 is in 0x81 to 0xFE: set gb18030 third to 0x81 and continue",
                "  [3.1] 0x41 is not in 0x30 to 0x39",
                "  [3.1.1] restore 0x30 0x81 0x41 to the input: decoded again after this error",
                "  [3.1.2] set gb18030 first = 0x00, gb18030 second = 0x00, gb18030 third = 0x00",
                "  [3.1.3] return error (incomplete sequence (the next byte cannot continue it))",
            ])
        );
        // Then 0x30, and 0x81 0x41 is a pair: pointer (0x81 − 0x81) × 190 +
        // (0x41 − 0x40) = 1.
        assert!(items[1].starts_with("30 (bytes 1..2) → U+0030 (0)"));
        assert!(items[2].contains("[5.6] pointer = (0x81 − 0x81) × 190 + 0x41 − 0x40 = 1"));
        // A third byte out of range: « second, byte » are restored.
        let items = explained(GBK, b"\x81\x30\x41");
        assert!(
            items[0].contains(
                "[4.1] 0x41 is not in 0x81 to 0xFE\n  [4.2] restore 0x30 0x41 to the input"
            )
        );
        assert_eq!(items.len(), 3);
        // The end of the input after a digit: the digit is masked.
        let [masked] = &explained(GB18030, b"\x81\x30")[..] else {
            panic!()
        };
        assert!(masked.contains(
            "[2] 0x30 is an ASCII byte that becomes part of this error: the Security background's one exception, gb18030 masking up to one such byte at end-of-queue"
        ));
    }

    #[test]
    fn two_bytes_and_single_bytes() {
        // (0xA1 − 0x81) × 190 + (0xA1 − 0x41) = 6080 + 96 = 6176: U+3000.
        let items = explained(GBK, b"\xA1\xA1\x80\x81\x7F\xFF");
        assert!(items[0].contains("[5.5] offset = 0x41, as 0xA1 is not less than 0x7F"));
        assert!(items[0].contains("[5.6] pointer = (0xA1 − 0x81) × 190 + 0xA1 − 0x41 = 6176"));
        assert!(items[0].contains("[5.7] index gb18030 at pointer 6176 is U+3000"));
        assert_eq!(
            items[1],
            item(&[
                "80 (bytes 2..3) → U+20AC (€)",
                "  [7] 0x80 is code point U+20AC (€)",
                "  [7] return code point U+20AC (€)",
            ])
        );
        // 0x7F cannot trail (the range skips it) and is ASCII: restored.
        assert!(
            items[2]
                .contains("[5.6] 0x7F is not in 0x40 to 0x7E or 0x80 to 0xFE, so pointer is null")
        );
        assert!(items[2].contains(
            "[5.9] 0x7F is an ASCII byte, so it is restored to the input and cannot be masked"
        ));
        assert!(items[3].starts_with("7F (bytes 4..5) → U+007F"));
        assert!(items[4].contains(
            "[9] 0xFF cannot begin anything here: only 0x00 to 0x7F, 0x80 or 0x81 to 0xFE can"
        ));
    }
}
