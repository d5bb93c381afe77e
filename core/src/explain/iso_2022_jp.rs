//! The [ISO-2022-JP decoder](https://encoding.spec.whatwg.org/#iso-2022-jp-decoder),
//! narrated. The standard writes it as a switch on the decoder's state, so
//! steps are cited by state and branch ("ASCII: 0x1B", "escape, 7").

use mojiscope_indexes::jis0208;

use super::{Narrate, Narration, in_ranges};
use crate::codec::iso_2022_jp::{self as codec, DecoderState, Iso2022JpDecoder};
use crate::decoder::Step as HandlerStep;
use crate::explain::step::{PointerFormula, StepKind, Value, Variable};
use crate::index::Index;
use crate::provenance::{DecodeErrorKind, SkipReason, TraceKind};

pub(super) const ANCHOR: &str = "iso-2022-jp-decoder";

const STATE: &str = "ISO-2022-JP decoder state";
const OUTPUT_STATE: &str = "ISO-2022-JP decoder output state";
const LEADING: &str = "ISO-2022-JP leading";
const OUTPUT: &str = "ISO-2022-JP output";

/// The ASCII state's bytes: 0x00 to 0x7F, excluding 0x0E, 0x0F and 0x1B.
const ASCII: &[(u8, u8)] = &[(0x00, 0x0D), (0x10, 0x1A), (0x1C, 0x7F)];
/// The Roman state's bytes that are themselves: 0x00 to 0x7F, excluding
/// 0x0E, 0x0F, 0x1B, 0x5C and 0x7E.
const ROMAN: &[(u8, u8)] = &[
    (0x00, 0x0D),
    (0x10, 0x1A),
    (0x1C, 0x5B),
    (0x5D, 0x7D),
    (0x7F, 0x7F),
];
/// The ASCII and Roman states' valid bytes, 0x1B included.
const ASCII_VALID: &[(u8, u8)] = &[(0x00, 0x0D), (0x10, 0x7F)];
/// The katakana state.
const KATAKANA: &[(u8, u8)] = &[(0x21, 0x5F)];
const KATAKANA_VALID: &[(u8, u8)] = &[(0x1B, 0x1B), (0x21, 0x5F)];
/// The leading byte and trailing byte states.
const PAIR_BYTES: &[(u8, u8)] = &[(0x21, 0x7E)];
const LEADING_VALID: &[(u8, u8)] = &[(0x1B, 0x1B), (0x21, 0x7E)];
/// The escape start state: "$" or "(".
const ESCAPE_SECOND: &[(u8, u8)] = &[(0x24, 0x24), (0x28, 0x28)];

/// The standard's name of a state.
fn name(state: DecoderState) -> &'static str {
    match state {
        DecoderState::Ascii => "ASCII",
        DecoderState::Roman => "Roman",
        DecoderState::Katakana => "katakana",
        DecoderState::LeadingByte => "leading byte",
        DecoderState::TrailingByte => "trailing byte",
        DecoderState::EscapeStart => "escape start",
        DecoderState::Escape => "escape",
    }
}

fn set_output_false() -> Variable {
    Variable::new(OUTPUT, Value::Flag(false))
}

fn set_state(state: DecoderState) -> Variable {
    Variable::new(STATE, Value::State(name(state)))
}

impl Narrate for Iso2022JpDecoder {
    const ANCHOR: &'static str = ANCHOR;

    fn narrate(&self, byte: u8, out: &mut Narration) -> HandlerStep {
        let state = name(self.state);
        out.push(state, StepKind::InState { state });
        match self.state {
            DecoderState::Ascii => match byte {
                0x1B => escape_start(out, "ASCII: 0x1B"),
                _ if in_ranges(byte, ASCII) => {
                    let step = "ASCII: 0x00 to 0x7F";
                    out.push(
                        step,
                        StepKind::SameCodePoint {
                            byte,
                            ranges: ASCII,
                        },
                    );
                    set(out, step, vec![set_output_false()]);
                    out.scalar(step, char::from(byte))
                }
                _ => invalid_byte(out, "ASCII: otherwise", byte, ASCII_VALID),
            },
            DecoderState::Roman => match byte {
                0x1B => escape_start(out, "Roman: 0x1B"),
                0x5C => fixed(out, "Roman: 0x5C", byte, '\u{A5}'),
                0x7E => fixed(out, "Roman: 0x7E", byte, '\u{203E}'),
                _ if in_ranges(byte, ROMAN) => {
                    let step = "Roman: 0x00 to 0x7F";
                    out.push(
                        step,
                        StepKind::SameCodePoint {
                            byte,
                            ranges: ROMAN,
                        },
                    );
                    set(out, step, vec![set_output_false()]);
                    out.scalar(step, char::from(byte))
                }
                _ => invalid_byte(out, "Roman: otherwise", byte, ASCII_VALID),
            },
            DecoderState::Katakana => match byte {
                0x1B => escape_start(out, "katakana: 0x1B"),
                _ if in_ranges(byte, KATAKANA) => {
                    let step = "katakana: 0x21 to 0x5F";
                    let code_point = codec::halfwidth_katakana(byte);
                    set(out, step, vec![set_output_false()]);
                    out.push(
                        step,
                        StepKind::HalfwidthKatakana {
                            byte,
                            first: 0x21,
                            code_point,
                        },
                    );
                    out.scalar(step, code_point)
                }
                _ => invalid_byte(out, "katakana: otherwise", byte, KATAKANA_VALID),
            },
            DecoderState::LeadingByte => match byte {
                0x1B => escape_start(out, "leading byte: 0x1B"),
                _ if in_ranges(byte, PAIR_BYTES) => {
                    let step = "leading byte: 0x21 to 0x7E";
                    out.push(
                        step,
                        StepKind::ByteInRanges {
                            byte,
                            ranges: PAIR_BYTES,
                            in_range: true,
                        },
                    );
                    set(
                        out,
                        step,
                        vec![
                            set_output_false(),
                            Variable::new(LEADING, Value::Byte(byte)),
                            set_state(DecoderState::TrailingByte),
                        ],
                    );
                    HandlerStep::Continue
                }
                _ => invalid_byte(out, "leading byte: otherwise", byte, LEADING_VALID),
            },
            DecoderState::TrailingByte => self.narrate_trailing_byte(byte, out),
            DecoderState::EscapeStart => self.narrate_escape_start(byte, out),
            DecoderState::Escape => self.narrate_escape(byte, out),
        }
    }

    fn narrate_end(&self, out: &mut Narration) -> HandlerStep {
        let output_state = set_state(self.output_state);
        match self.state {
            DecoderState::Ascii
            | DecoderState::Roman
            | DecoderState::Katakana
            | DecoderState::LeadingByte => HandlerStep::Finished,
            DecoderState::TrailingByte => {
                let step = "trailing byte: end-of-queue";
                out.push(
                    step,
                    StepKind::InState {
                        state: "trailing byte",
                    },
                );
                out.push(step, StepKind::EndOfQueue);
                set(out, step, vec![set_state(DecoderState::LeadingByte)]);
                out.error(step, DecodeErrorKind::TruncatedSequence, 0)
            }
            DecoderState::EscapeStart => {
                out.push(
                    "escape start",
                    StepKind::InState {
                        state: "escape start",
                    },
                );
                out.push(
                    "escape start, 2",
                    StepKind::NotEscapeSequence { bytes: Vec::new() },
                );
                set(
                    out,
                    "escape start, 3",
                    vec![set_output_false(), output_state],
                );
                out.error("escape start, 3", DecodeErrorKind::TruncatedSequence, 0)
            }
            DecoderState::Escape => {
                out.push("escape", StepKind::InState { state: "escape" });
                out.push("escape, 1", StepKind::EndOfQueue);
                out.restore("escape, 8", &[self.leading]);
                set(out, "escape, 9", vec![set_output_false(), output_state]);
                out.error("escape, 9", DecodeErrorKind::TruncatedSequence, 1)
            }
        }
    }

    fn variables(&self) -> Vec<Variable> {
        vec![
            Variable::new(STATE, Value::State(name(self.state))),
            Variable::new(OUTPUT_STATE, Value::State(name(self.output_state))),
            Variable::new(LEADING, Value::Byte(self.leading)),
            Variable::new(OUTPUT, Value::Flag(self.output)),
        ]
    }
}

impl Iso2022JpDecoder {
    /// The trailing byte state.
    fn narrate_trailing_byte(&self, byte: u8, out: &mut Narration) -> HandlerStep {
        let back = vec![set_state(DecoderState::LeadingByte)];
        if byte == 0x1B {
            let step = "trailing byte: 0x1B";
            out.push(step, StepKind::TrailingEscape);
            set(out, step, back);
            out.restore(step, &[byte]);
            return out.error(step, DecodeErrorKind::UnexpectedByte, 1);
        }
        if !in_ranges(byte, PAIR_BYTES) {
            let step = "trailing byte: otherwise";
            out.push(
                step,
                StepKind::ByteInRanges {
                    byte,
                    ranges: PAIR_BYTES,
                    in_range: false,
                },
            );
            set(out, step, back);
            return out.error(step, DecodeErrorKind::InvalidTrail, 0);
        }
        set(out, "trailing byte: 0x21 to 0x7E, 1", back);
        let pointer = codec::pointer(self.leading, byte);
        out.push(
            "trailing byte: 0x21 to 0x7E, 2",
            StepKind::Pointer(PointerFormula::TwoByte {
                leading: self.leading,
                leading_offset: 0x21,
                row_len: 94,
                byte,
                offset: 0x21,
                pointer: pointer as u32,
            }),
        );
        let code_point = jis0208::code_point(pointer);
        out.push(
            "trailing byte: 0x21 to 0x7E, 3",
            StepKind::IndexCodePoint {
                index: Index::Jis0208,
                pointer: pointer as u32,
                code_point,
            },
        );
        match code_point {
            Some(code_point) => out.scalar("trailing byte: 0x21 to 0x7E, 5", code_point),
            None => out.error(
                "trailing byte: 0x21 to 0x7E, 4",
                DecodeErrorKind::UnassignedPointer {
                    pointer: pointer as u32,
                },
                0,
            ),
        }
    }

    /// The escape start state.
    fn narrate_escape_start(&self, byte: u8, out: &mut Narration) -> HandlerStep {
        if in_ranges(byte, ESCAPE_SECOND) {
            let step = "escape start, 1";
            out.push(
                step,
                StepKind::ByteInRanges {
                    byte,
                    ranges: ESCAPE_SECOND,
                    in_range: true,
                },
            );
            set(
                out,
                step,
                vec![
                    Variable::new(LEADING, Value::Byte(byte)),
                    set_state(DecoderState::Escape),
                ],
            );
            return HandlerStep::Continue;
        }
        out.push(
            "escape start, 1",
            StepKind::NotEscapeSequence { bytes: vec![byte] },
        );
        out.restore("escape start, 2", &[byte]);
        set(
            out,
            "escape start, 3",
            vec![set_output_false(), set_state(self.output_state)],
        );
        out.error("escape start, 3", DecodeErrorKind::InvalidEscape, 1)
    }

    /// The escape state.
    fn narrate_escape(&self, byte: u8, out: &mut Narration) -> HandlerStep {
        let leading = self.leading;
        set(
            out,
            "escape, 1",
            vec![Variable::new(LEADING, Value::Byte(0))],
        );
        let Some(state) = codec::escape_sequence_state(leading, byte) else {
            out.push(
                "escape, 2-6",
                StepKind::NotEscapeSequence {
                    bytes: vec![leading, byte],
                },
            );
            out.restore("escape, 8", &[leading, byte]);
            set(
                out,
                "escape, 9",
                vec![set_output_false(), set_state(self.output_state)],
            );
            return out.error("escape, 9", DecodeErrorKind::InvalidEscape, 2);
        };
        out.push(
            "escape, 2-7.1",
            StepKind::EscapeSequence {
                bytes: [0x1B, leading, byte],
                state: name(state),
            },
        );
        out.push(
            "escape, 7.2-7.3",
            StepKind::EscapeOutput {
                output: self.output,
            },
        );
        if self.output {
            return out.error("escape, 7.4", DecodeErrorKind::EmptySegment, 0);
        }
        out.push(
            "escape, 7.4",
            StepKind::Return(TraceKind::Skip(SkipReason::EscapeSequence)),
        );
        HandlerStep::Skip(SkipReason::EscapeSequence)
    }
}

fn set(out: &mut Narration, step: &'static str, variables: Vec<Variable>) {
    out.push(step, StepKind::Set { variables });
}

/// The 0x1B branch of the ASCII, Roman, katakana and leading byte states.
fn escape_start(out: &mut Narration, step: &'static str) -> HandlerStep {
    out.push(step, StepKind::EscapeStart);
    HandlerStep::Continue
}

/// The Roman state's 0x5C and 0x7E.
fn fixed(out: &mut Narration, step: &'static str, byte: u8, code_point: char) -> HandlerStep {
    set(out, step, vec![set_output_false()]);
    out.push(step, StepKind::FixedCodePoint { byte, code_point });
    out.scalar(step, code_point)
}

/// The "otherwise" branch of the ASCII, Roman, katakana and leading byte
/// states.
fn invalid_byte(
    out: &mut Narration,
    step: &'static str,
    byte: u8,
    valid: &'static [(u8, u8)],
) -> HandlerStep {
    out.push(step, StepKind::InvalidByte { byte, valid });
    set(out, step, vec![set_output_false()]);
    out.error(step, DecodeErrorKind::InvalidByte, 0)
}

#[cfg(test)]
mod tests {
    use crate::ISO_2022_JP;
    use crate::explain::{explained, item};

    #[test]
    fn escape_sequences_switch_the_state() {
        // ESC $ B, then 0x30 0x21: (0x30 − 0x21) × 94 + (0x21 − 0x21) = 1410,
        // index jis0208's 亜 (row 16, cell 1).
        let items = explained(ISO_2022_JP, b"\x1B$B\x30\x21");
        assert_eq!(
            items,
            [
                item(&[
                    "1B 24 42 (bytes 0..3) → nothing (escape sequence)",
                    "  [ASCII] ISO-2022-JP decoder state is ASCII",
                    "  [ASCII: 0x1B] 0x1B (ESC) may begin an escape sequence: set ISO-2022-JP decoder state to escape start and continue",
                    "  [escape start] ISO-2022-JP decoder state is escape start",
                    "  [escape start, 1] 0x24 is in 0x24 or 0x28",
                    "  [escape start, 1] set ISO-2022-JP leading = 0x24, ISO-2022-JP decoder state = escape",
                    "  [escape] ISO-2022-JP decoder state is escape",
                    "  [escape, 1] set ISO-2022-JP leading = 0x00",
                    "  [escape, 2-7.1] 0x1B 0x24 0x42 (ESC $ B) switches to leading byte: set ISO-2022-JP decoder state and output state to leading byte",
                    "  [escape, 7.2-7.3] ISO-2022-JP output was false: the escape sequence produces nothing; set ISO-2022-JP output to true",
                    "  [escape, 7.4] return continue: the escape sequence produces nothing",
                ]),
                item(&[
                    "30 21 (bytes 3..5) → U+4E9C (亜)",
                    "  [leading byte] ISO-2022-JP decoder state is leading byte",
                    "  [leading byte: 0x21 to 0x7E] 0x30 is in 0x21 to 0x7E",
                    "  [leading byte: 0x21 to 0x7E] set ISO-2022-JP output = false, ISO-2022-JP leading = 0x30, ISO-2022-JP decoder state = trailing byte",
                    "  [trailing byte] ISO-2022-JP decoder state is trailing byte",
                    "  [trailing byte: 0x21 to 0x7E, 1] set ISO-2022-JP decoder state = leading byte",
                    "  [trailing byte: 0x21 to 0x7E, 2] pointer = (0x30 − 0x21) × 94 + 0x21 − 0x21 = 1410",
                    "  [trailing byte: 0x21 to 0x7E, 3] index jis0208 at pointer 1410 is U+4E9C (亜)",
                    "  [trailing byte: 0x21 to 0x7E, 5] return code point U+4E9C (亜)",
                ]),
            ]
        );
        // Roman: 0x5C is ¥; katakana: U+FF61 − 0x21 + 0x31 = U+FF71.
        let items = explained(ISO_2022_JP, b"\x1B(J\x5C\x1B(I\x31");
        assert!(items[1].contains("[Roman: 0x5C] 0x5C is code point U+00A5 (¥)"));
        assert!(items[3].contains("[katakana: 0x21 to 0x5F] halfwidth katakana: code point = 0xFF61 − 0x21 + 0x31 = U+FF71 (ｱ)"));
    }

    #[test]
    fn escape_errors() {
        // Two escape sequences in a row: the second is an error.
        let items = explained(ISO_2022_JP, b"\x1B(B\x1B(B");
        assert!(items[1].contains("[escape, 7.2-7.3] ISO-2022-JP output was true: no text since the previous escape sequence, which is an error"));
        assert!(items[1].ends_with(
            "[escape, 7.4] return error (escape sequence with no text since the previous one)"
        ));
        // ESC ( C is none of the five: « 0x28, 0x43 » go back to the input.
        let items = explained(ISO_2022_JP, b"\x1B(C");
        assert_eq!(items.len(), 3);
        assert!(items[0].starts_with("1B (bytes 0..1) → error: invalid escape sequence"));
        assert!(items[0].contains("[escape, 2-6] 0x1B 0x28 0x43 is none of ESC ( B, ESC ( J, ESC ( I, ESC $ @ and ESC $ B: not an escape sequence\n  [escape, 8] restore 0x28 0x43 to the input"));
        // ESC then a byte that is neither $ nor (.
        let items = explained(ISO_2022_JP, b"\x1BA");
        assert!(items[0].contains("[escape start, 1] 0x1B 0x41 is none of"));
        assert!(items[0].contains("[escape start, 2] restore 0x41 to the input"));
        // A 0x1B where a trailing byte should be.
        let items = explained(ISO_2022_JP, b"\x1B$B\x30\x1B(B");
        assert!(items[1].starts_with("30 (bytes 3..4) → error: incomplete sequence"));
        assert!(items[1].contains("[trailing byte: 0x1B] 0x1B where a trailing byte should be"));
        assert!(items[2].starts_with("1B 28 42 (bytes 4..7) → nothing (escape sequence)"));
        // Shift out is an error in the ASCII state; the input ending in the
        // escape state restores the byte after ESC.
        let items = explained(ISO_2022_JP, b"\x0E\x1B(");
        assert!(items[0].contains("[ASCII: otherwise] 0x0E cannot begin anything here: only 0x00 to 0x0D or 0x10 to 0x7F can"));
        assert_eq!(
            items[1],
            item(&[
                "1B (bytes 1..2) → error: sequence truncated at end of input (U+FFFD in replacement mode)",
                "  [ASCII] ISO-2022-JP decoder state is ASCII",
                "  [ASCII: 0x1B] 0x1B (ESC) may begin an escape sequence: set ISO-2022-JP decoder state to escape start and continue",
                "  [escape start] ISO-2022-JP decoder state is escape start",
                "  [escape start, 1] 0x28 is in 0x24 or 0x28",
                "  [escape start, 1] set ISO-2022-JP leading = 0x28, ISO-2022-JP decoder state = escape",
                "  [escape] ISO-2022-JP decoder state is escape",
                "  [escape, 1] end of the input (end-of-queue) in the middle of a sequence",
                "  [escape, 8] restore 0x28 to the input: decoded again after this error",
                "  [escape, 9] set ISO-2022-JP output = false, ISO-2022-JP decoder state = ASCII",
                "  [escape, 9] return error (sequence truncated at end of input)",
            ])
        );
        assert!(items[2].starts_with("28 (bytes 2..3) → U+0028 (()"));
    }
}
