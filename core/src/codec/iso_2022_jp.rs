//! [ISO-2022-JP](https://encoding.spec.whatwg.org/#iso-2022-jp): the decoder and encoder.

use mojiscope_indexes::{iso_2022_jp_katakana, jis0208};

use crate::decoder::{Handler, Step};
use crate::encoder::{EncodeHandler, EncodeStep, Encoded};
use crate::provenance::{DecodeErrorKind, SkipReason};

/// Not in spec: how many bytes at the start of `bytes` are ASCII other
/// than shift out, shift in and escape (0x0E, 0x0F, 0x1B), and for the
/// Roman states other than backslash and tilde: the bytes that the ASCII
/// and Roman states of both the decoder and the encoder map to themselves.
#[inline]
fn plain_ascii_len(bytes: &[u8], roman: bool) -> usize {
    bytes
        .iter()
        .position(|&byte| {
            !byte.is_ascii()
                || matches!(byte, 0x0E | 0x0F | 0x1B)
                || (roman && matches!(byte, b'\\' | b'~'))
        })
        .unwrap_or(bytes.len())
}

/// The states of the ISO-2022-JP decoder, named as in the standard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum DecoderState {
    #[default]
    Ascii,
    Roman,
    Katakana,
    LeadingByte,
    TrailingByte,
    EscapeStart,
    Escape,
}

/// The [ISO-2022-JP decoder](https://encoding.spec.whatwg.org/#iso-2022-jp-decoder).
#[derive(Clone, Debug, Default)]
pub(crate) struct Iso2022JpDecoder {
    /// ISO-2022-JP decoder state.
    pub(crate) state: DecoderState,
    /// ISO-2022-JP decoder output state: the state the last escape sequence
    /// chose (ASCII, Roman, katakana or leading byte), to which a broken
    /// escape sequence returns.
    pub(crate) output_state: DecoderState,
    /// ISO-2022-JP leading: the leading byte of a pair, or the second byte of
    /// an escape sequence.
    pub(crate) leading: u8,
    /// ISO-2022-JP output: true from an escape sequence until the next byte
    /// that produces output or an error, so that an escape sequence directly
    /// after another is an error.
    pub(crate) output: bool,
}

impl Handler for Iso2022JpDecoder {
    #[inline]
    fn handle(&mut self, byte: u8) -> Step {
        match self.state {
            DecoderState::Ascii => match byte {
                0x1B => self.escape_start(),
                0x00..=0x7F if byte != 0x0E && byte != 0x0F => {
                    self.output = false;
                    Step::Scalar(char::from(byte))
                }
                // 0x0E (shift out), 0x0F (shift in) and non-ASCII bytes.
                _ => self.invalid_byte(),
            },
            DecoderState::Roman => match byte {
                0x1B => self.escape_start(),
                // JIS X 0201 Roman has YEN SIGN and OVERLINE where ASCII has
                // backslash and tilde.
                0x5C => {
                    self.output = false;
                    Step::Scalar('\u{A5}')
                }
                0x7E => {
                    self.output = false;
                    Step::Scalar('\u{203E}')
                }
                0x00..=0x7F if byte != 0x0E && byte != 0x0F => {
                    self.output = false;
                    Step::Scalar(char::from(byte))
                }
                _ => self.invalid_byte(),
            },
            DecoderState::Katakana => match byte {
                0x1B => self.escape_start(),
                0x21..=0x5F => {
                    self.output = false;
                    Step::Scalar(halfwidth_katakana(byte))
                }
                // Any other byte, ASCII included, is consumed by the error.
                _ => self.invalid_byte(),
            },
            DecoderState::LeadingByte => match byte {
                0x1B => self.escape_start(),
                0x21..=0x7E => {
                    self.output = false;
                    self.leading = byte;
                    self.state = DecoderState::TrailingByte;
                    Step::Continue
                }
                _ => self.invalid_byte(),
            },
            DecoderState::TrailingByte => self.trailing_byte(byte),
            DecoderState::EscapeStart => {
                // Step 1: "$" or "(" may continue an escape sequence.
                if byte == 0x24 || byte == 0x28 {
                    self.leading = byte;
                    self.state = DecoderState::Escape;
                    return Step::Continue;
                }
                // Steps 2-3: the byte is restored, the error covers ESC.
                self.output = false;
                self.state = self.output_state;
                Step::error_restoring_byte(DecodeErrorKind::InvalidEscape)
            }
            DecoderState::Escape => self.escape(byte),
        }
    }

    fn handle_end(&mut self) -> Step {
        match self.state {
            DecoderState::Ascii
            | DecoderState::Roman
            | DecoderState::Katakana
            | DecoderState::LeadingByte => Step::Finished,
            DecoderState::TrailingByte => {
                self.state = DecoderState::LeadingByte;
                Step::error(DecodeErrorKind::TruncatedSequence)
            }
            // Step 3 of escape start (there is no byte to restore).
            DecoderState::EscapeStart => {
                self.output = false;
                self.state = self.output_state;
                Step::error(DecodeErrorKind::TruncatedSequence)
            }
            // Steps 1 and 8-9 of escape: leading is restored, so the error
            // covers ESC alone.
            DecoderState::Escape => {
                self.leading = 0;
                self.output = false;
                self.state = self.output_state;
                Step::error_restoring_byte(DecodeErrorKind::TruncatedSequence)
            }
        }
    }

    #[inline]
    fn is_ascii_ground(&self) -> bool {
        // Not in spec: in no state does every ASCII byte decode to itself.
        // Even the ASCII state treats 0x0E, 0x0F and 0x1B specially, and its
        // other bytes clear the output flag, so the driver must see each byte.
        false
    }

    /// Not in spec: a run of bytes that the ASCII state (or the Roman
    /// state, but for backslash and tilde) decodes to themselves. Each
    /// clears the output flag; nothing else changes.
    #[inline]
    fn ascii_run_len(&mut self, bytes: &[u8]) -> usize {
        let len = match self.state {
            DecoderState::Ascii => plain_ascii_len(bytes, false),
            DecoderState::Roman => plain_ascii_len(bytes, true),
            _ => return 0,
        };
        if len > 0 {
            self.output = false;
        }
        len
    }

    /// Not in spec: a run of non-ASCII bytes in the states that decode
    /// text, each of which their branch for other bytes makes an error
    /// (clearing the output flag).
    #[inline]
    fn invalid_run_len(&mut self, bytes: &[u8]) -> usize {
        if !matches!(
            self.state,
            DecoderState::Ascii
                | DecoderState::Roman
                | DecoderState::Katakana
                | DecoderState::LeadingByte
        ) {
            return 0;
        }
        let len = bytes.iter().take_while(|byte| !byte.is_ascii()).count();
        if len > 0 {
            self.output = false;
        }
        len
    }

    /// Not in spec: the fast path. In the leading byte state, a leading
    /// byte and a trailing byte in 0x21..=0x7E whose pointer has a code
    /// point (the leading byte state's 0x21..=0x7E branch, then steps 1-5
    /// of the trailing byte state's), leaving the state as those steps do.
    /// In the Roman and katakana states, a byte that `handle` itself decodes
    /// to a code point, run on a copy of the state that is kept only then.
    /// Escape sequences and errors go to the driver's `handle` calls.
    #[inline]
    fn decode_valid(&mut self, bytes: &[u8]) -> Option<(char, usize)> {
        if self.state != DecoderState::LeadingByte {
            // No state decodes a non-ASCII byte, and the ASCII state's
            // ASCII bytes that decode are `ascii_run_len`'s: the rest are
            // escape sequences and errors, not worth a probe.
            if self.state == DecoderState::Ascii || !bytes.first()?.is_ascii() {
                return None;
            }
            return crate::decoder::decode_valid_by_probe(self, bytes, 1);
        }
        let [leading @ 0x21..=0x7E, trailing @ 0x21..=0x7E, ..] = *bytes else {
            return None;
        };
        let pointer = usize::from(leading - 0x21) * 94 + usize::from(trailing - 0x21);
        let c = jis0208::code_point(pointer)?;
        self.output = false;
        self.leading = leading;
        Some((c, 2))
    }
}

impl Iso2022JpDecoder {
    /// The trailing byte state.
    #[inline]
    fn trailing_byte(&mut self, byte: u8) -> Step {
        self.state = DecoderState::LeadingByte;
        match byte {
            // The standard moves to escape start and returns an error whose
            // span would include this 0x1B.
            // Not in spec: the 0x1B begins the next escape sequence, so it
            // is restored instead and the error covers the leading byte
            // alone. The leading byte state then handles it and moves to
            // escape start, as the standard does; neither that 0x1B branch
            // nor the standard's touches the output flag, so the output is
            // the same.
            0x1B => Step::error_restoring_byte(DecodeErrorKind::UnexpectedByte),
            // Steps 1-5 of the 0x21..=0x7E branch.
            0x21..=0x7E => {
                let pointer = pointer(self.leading, byte);
                match jis0208::code_point(pointer) {
                    Some(c) => Step::Scalar(c),
                    None => Step::error(DecodeErrorKind::UnassignedPointer {
                        pointer: pointer as u32,
                    }),
                }
            }
            // Both bytes are consumed, even an ASCII one: the standard
            // restores nothing here.
            _ => Step::error(DecodeErrorKind::InvalidTrail),
        }
    }

    /// The escape state.
    #[inline]
    fn escape(&mut self, byte: u8) -> Step {
        // Steps 1-6.
        let leading = self.leading;
        self.leading = 0;
        let state = escape_sequence_state(leading, byte);
        // Step 7: a recognised escape sequence switches state. The standard
        // returns continue, which here is a skip covering its three bytes,
        // or an error (covering them too) when nothing was output since the
        // previous escape sequence.
        if let Some(state) = state {
            self.state = state;
            self.output_state = state;
            let output = self.output;
            self.output = true;
            return if output {
                Step::error(DecodeErrorKind::EmptySegment)
            } else {
                Step::Skip(SkipReason::EscapeSequence)
            };
        }
        // Steps 8-9: « leading, byte » are restored, so the error covers ESC
        // alone.
        self.output = false;
        self.state = self.output_state;
        Step::Error {
            kind: DecodeErrorKind::InvalidEscape,
            restore: 2,
        }
    }

    /// The 0x1B branch of the ASCII, Roman, katakana and leading byte states.
    #[inline]
    fn escape_start(&mut self) -> Step {
        self.state = DecoderState::EscapeStart;
        Step::Continue
    }

    /// The "otherwise" branch of the ASCII, Roman, katakana and leading byte
    /// states.
    #[inline]
    fn invalid_byte(&mut self) -> Step {
        self.output = false;
        Step::error(DecodeErrorKind::InvalidByte)
    }
}

/// The katakana state: 0xFF61 − 0x21 + `byte`, for `byte` in 0x21..=0x5F.
#[inline]
pub(crate) fn halfwidth_katakana(byte: u8) -> char {
    char::from_u32(0xFF61 - 0x21 + u32::from(byte)).expect("U+FF61..=U+FF9F are scalar values")
}

/// Step 2 of the trailing byte state's 0x21..=0x7E branch: the pointer of
/// `leading` and `byte`, both in 0x21..=0x7E.
#[inline]
pub(crate) fn pointer(leading: u8, byte: u8) -> usize {
    usize::from(leading - 0x21) * 94 + usize::from(byte - 0x21)
}

/// Steps 13-15 of the encoder: the leading and trailing byte of `pointer`,
/// which must be below 94 × 94.
#[inline]
pub(crate) fn pointer_bytes(pointer: u16) -> (u8, u8) {
    ((pointer / 94) as u8 + 0x21, (pointer % 94) as u8 + 0x21)
}

/// Steps 2-6 of the escape state: the state the escape sequence ESC
/// `leading` `byte` switches to, if it is one of the five the decoder knows.
#[inline]
pub(crate) fn escape_sequence_state(leading: u8, byte: u8) -> Option<DecoderState> {
    match (leading, byte) {
        (0x28, 0x42) => Some(DecoderState::Ascii),
        (0x28, 0x4A) => Some(DecoderState::Roman),
        (0x28, 0x49) => Some(DecoderState::Katakana),
        (0x24, 0x40 | 0x42) => Some(DecoderState::LeadingByte),
        _ => None,
    }
}

/// The states of the ISO-2022-JP encoder, named as in the standard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum EncoderState {
    #[default]
    Ascii,
    Roman,
    Jis0208,
}

/// ESC ( B: switch to ASCII.
const TO_ASCII: Encoded = Encoded::three(0x1B, 0x28, 0x42);
/// ESC ( J: switch to JIS X 0201 Roman.
const TO_ROMAN: Encoded = Encoded::three(0x1B, 0x28, 0x4A);
/// ESC $ B: switch to JIS X 0208.
const TO_JIS0208: Encoded = Encoded::three(0x1B, 0x24, 0x42);

/// The [ISO-2022-JP encoder](https://encoding.spec.whatwg.org/#iso-2022-jp-encoder).
#[derive(Clone, Debug, Default)]
pub(crate) struct Iso2022JpEncoder {
    /// ISO-2022-JP encoder state.
    state: EncoderState,
}

impl EncodeHandler for Iso2022JpEncoder {
    #[inline]
    fn handle(&mut self, c: char) -> EncodeStep {
        let state = self.state;
        // Step 3: shift out, shift in and escape could smuggle in escape
        // sequences, so they are errors reported as U+FFFD.
        if matches!(state, EncoderState::Ascii | EncoderState::Roman)
            && matches!(c, '\u{0E}' | '\u{0F}' | '\u{1B}')
        {
            return EncodeStep::Error('\u{FFFD}');
        }
        // Step 4.
        if state == EncoderState::Ascii && c.is_ascii() {
            return EncodeStep::Bytes(Encoded::one(c as u8));
        }
        // Step 5.
        if state == EncoderState::Roman {
            match c {
                '\\' | '~' => {}
                '\0'..='\u{7F}' => return EncodeStep::Bytes(Encoded::one(c as u8)),
                '\u{A5}' => return EncodeStep::Bytes(Encoded::one(0x5C)),
                '\u{203E}' => return EncodeStep::Bytes(Encoded::one(0x7E)),
                _ => {}
            }
        }
        // Step 6. "Restore codePoint" is the driver handing the same
        // character again.
        if c.is_ascii() && state != EncoderState::Ascii {
            self.state = EncoderState::Ascii;
            return EncodeStep::BytesThenAgain(TO_ASCII);
        }
        // Step 7.
        if matches!(c, '\u{A5}' | '\u{203E}') && state != EncoderState::Roman {
            self.state = EncoderState::Roman;
            return EncodeStep::BytesThenAgain(TO_ROMAN);
        }
        let code_point = match c {
            // Step 8: MINUS SIGN encodes as FULLWIDTH HYPHEN-MINUS.
            '\u{2212}' => '\u{FF0D}',
            // Step 9: halfwidth katakana encode as their fullwidth forms.
            '\u{FF61}'..='\u{FF9F}' => {
                iso_2022_jp_katakana::code_point((u32::from(c) - 0xFF61) as usize)
                    .expect("index ISO-2022-JP katakana covers U+FF61..=U+FF9F")
            }
            _ => c,
        };
        // Step 10.
        let Some(pointer) = jis0208::pointer(code_point) else {
            // Step 11.1. Not in spec: the driver restores `c` rather than
            // `code_point`; steps 8-9 map it to the same code point again.
            if state == EncoderState::Jis0208 {
                self.state = EncoderState::Ascii;
                return EncodeStep::BytesThenAgain(TO_ASCII);
            }
            // Step 11.2.
            return EncodeStep::Error(code_point);
        };
        // Step 12 (with the same remark as step 11.1 on what is restored).
        if state != EncoderState::Jis0208 {
            self.state = EncoderState::Jis0208;
            return EncodeStep::BytesThenAgain(TO_JIS0208);
        }
        // Steps 13-15. As the standard notes, a first pointer is below
        // 8836 = 94 × 94, so both bytes are at most 0x7E.
        let (leading, trailing) = pointer_bytes(pointer);
        EncodeStep::Bytes(Encoded::two(leading, trailing))
    }

    fn handle_end(&mut self) -> EncodeStep {
        // Step 1: end in the ASCII state.
        if self.state != EncoderState::Ascii {
            self.state = EncoderState::Ascii;
            return EncodeStep::Bytes(TO_ASCII);
        }
        // Step 2.
        EncodeStep::Finished
    }

    #[inline]
    fn is_ascii_ground(&self) -> bool {
        // Not in spec: even in the ASCII state, U+000E, U+000F and U+001B
        // are errors (step 3), so ASCII runs cannot be copied blindly.
        false
    }

    /// Not in spec: a run of ASCII code points that step 4 (ASCII state) or
    /// step 5 (Roman state, but for backslash and tilde) encodes as
    /// themselves, leaving the state as it is; U+000E, U+000F and U+001B
    /// end it (step 3).
    #[inline]
    fn ascii_run_len(&mut self, bytes: &[u8]) -> usize {
        match self.state {
            EncoderState::Ascii => plain_ascii_len(bytes, false),
            EncoderState::Roman => plain_ascii_len(bytes, true),
            EncoderState::Jis0208 => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::ISO_2022_JP;
    use crate::provenance::DecodeErrorKind::*;
    use crate::provenance::SkipReason::EscapeSequence;
    use crate::testing::{Item::*, check_decode, check_encode, decode_replacing, pair_differences};

    const ESC: crate::testing::Item = K(EscapeSequence, 3);

    #[test]
    fn ascii_state() {
        check_decode(
            ISO_2022_JP,
            b"a\x00\\~\x7F",
            &[S('a', 1), S('\0', 1), S('\\', 1), S('~', 1), S('\u{7F}', 1)],
        );
        check_decode(
            ISO_2022_JP,
            b"\x0E\x0Fa\x80\xFF",
            &[
                E(InvalidByte, 1),
                E(InvalidByte, 1),
                S('a', 1),
                E(InvalidByte, 1),
                E(InvalidByte, 1),
            ],
        );
        check_decode(ISO_2022_JP, b"", &[]);
    }

    #[test]
    fn roman_state() {
        check_decode(
            ISO_2022_JP,
            b"\x1B(J\\~a\x7F",
            &[ESC, S('¥', 1), S('‾', 1), S('a', 1), S('\u{7F}', 1)],
        );
        check_decode(
            ISO_2022_JP,
            b"\x1B(J\x0E\x0F\x80",
            &[ESC, E(InvalidByte, 1), E(InvalidByte, 1), E(InvalidByte, 1)],
        );
        // End-of-queue in the Roman state is simply the end.
        check_decode(ISO_2022_JP, b"\x1B(J", &[ESC]);
    }

    #[test]
    fn katakana_state() {
        check_decode(
            ISO_2022_JP,
            b"\x1B(I!1_",
            &[ESC, S('｡', 1), S('ｱ', 1), S('ﾟ', 1)],
        );
        // Outside 0x21..=0x5F every byte is an error of its own, ASCII included.
        check_decode(
            ISO_2022_JP,
            b"\x1B(I` \n\x80",
            &[
                ESC,
                E(InvalidByte, 1),
                E(InvalidByte, 1),
                E(InvalidByte, 1),
                E(InvalidByte, 1),
            ],
        );
        check_decode(ISO_2022_JP, b"\x1B(I", &[ESC]);
    }

    #[test]
    fn jis0208_states() {
        check_decode(
            ISO_2022_JP,
            b"\x1B$B$\"F|K\\",
            &[ESC, S('あ', 2), S('日', 2), S('本', 2)],
        );
        // ESC $ @ selects the same state.
        check_decode(ISO_2022_JP, b"\x1B$@!!", &[ESC, S('\u{3000}', 2)]);
        // Leading byte state: bytes outside 0x21..=0x7E are errors.
        check_decode(
            ISO_2022_JP,
            b"\x1B$B \n\x7F\x80",
            &[
                ESC,
                E(InvalidByte, 1),
                E(InvalidByte, 1),
                E(InvalidByte, 1),
                E(InvalidByte, 1),
            ],
        );
        check_decode(ISO_2022_JP, b"\x1B$B", &[ESC]);
    }

    #[test]
    fn trailing_byte_state() {
        // A trailing byte outside 0x21..=0x7E is consumed, even ASCII.
        check_decode(
            ISO_2022_JP,
            b"\x1B$B$\n$\"",
            &[ESC, E(InvalidTrail, 2), S('あ', 2)],
        );
        check_decode(ISO_2022_JP, b"\x1B$B$ ", &[ESC, E(InvalidTrail, 2)]);
        check_decode(ISO_2022_JP, b"\x1B$B$\x80", &[ESC, E(InvalidTrail, 2)]);
        // Pointers without a code point: 0x22 0x2F is 108, 0x7E 0x7E is 8835.
        check_decode(
            ISO_2022_JP,
            b"\x1B$B\"/~~",
            &[
                ESC,
                E(UnassignedPointer { pointer: 108 }, 2),
                E(UnassignedPointer { pointer: 8835 }, 2),
            ],
        );
        // End-of-queue with a leading byte pending.
        check_decode(ISO_2022_JP, b"\x1B$B$", &[ESC, E(TruncatedSequence, 1)]);
        check_decode(
            ISO_2022_JP,
            b"\x1B$B$\"$",
            &[ESC, S('あ', 2), E(TruncatedSequence, 1)],
        );
    }

    #[test]
    fn escape_inside_a_double_byte_pair() {
        // The error covers the leading byte; the ESC begins the next escape
        // sequence, which is not an empty segment (the leading byte was output).
        check_decode(
            ISO_2022_JP,
            b"\x1B$B$\x1B(Ba",
            &[ESC, E(UnexpectedByte, 1), ESC, S('a', 1)],
        );
        check_decode(
            ISO_2022_JP,
            b"\x1B$B$\x1B$B$\"",
            &[ESC, E(UnexpectedByte, 1), ESC, S('あ', 2)],
        );
        // A broken escape sequence after it returns to the leading byte state.
        check_decode(
            ISO_2022_JP,
            b"\x1B$B$\x1B\n$\"",
            &[
                ESC,
                E(UnexpectedByte, 1),
                E(InvalidEscape, 1),
                E(InvalidByte, 1),
                S('あ', 2),
            ],
        );
        check_decode(
            ISO_2022_JP,
            b"\x1B$B$\x1B",
            &[ESC, E(UnexpectedByte, 1), E(TruncatedSequence, 1)],
        );
    }

    #[test]
    fn runs_of_non_ascii_bytes_are_errors_in_every_state() {
        let errors = [E(InvalidByte, 1), E(InvalidByte, 1), E(InvalidByte, 1)];
        check_decode(ISO_2022_JP, b"\x80\xA4\xFF", &errors);
        for escape in [&b"\x1B(J"[..], b"\x1B(I", b"\x1B$B", b"\x1B$@"] {
            let mut bytes = escape.to_vec();
            bytes.extend_from_slice(b"\x80\xA4\xFF!");
            let mut expected = vec![ESC];
            expected.extend_from_slice(&errors);
            expected.push(if escape == b"\x1B(I" {
                S('\u{FF61}', 1)
            } else if escape == b"\x1B(J" {
                S('!', 1)
            } else {
                E(TruncatedSequence, 1)
            });
            check_decode(ISO_2022_JP, &bytes, &expected);
        }
    }

    #[test]
    fn escape_start_state() {
        // An unrecognised byte after ESC is restored: the error covers ESC.
        check_decode(ISO_2022_JP, b"\x1Ba", &[E(InvalidEscape, 1), S('a', 1)]);
        check_decode(
            ISO_2022_JP,
            b"\x1B\x80",
            &[E(InvalidEscape, 1), E(InvalidByte, 1)],
        );
        // The restored byte is decoded in the output state.
        check_decode(
            ISO_2022_JP,
            b"\x1B(J\x1B\\",
            &[ESC, E(InvalidEscape, 1), S('¥', 1)],
        );
        check_decode(
            ISO_2022_JP,
            b"\x1B(I\x1B1",
            &[ESC, E(InvalidEscape, 1), S('ｱ', 1)],
        );
        // ESC ESC: the second ESC begins an escape sequence of its own.
        check_decode(
            ISO_2022_JP,
            b"\x1B\x1B(Ja",
            &[E(InvalidEscape, 1), ESC, S('a', 1)],
        );
        // End-of-queue.
        check_decode(ISO_2022_JP, b"\x1B", &[E(TruncatedSequence, 1)]);
        check_decode(ISO_2022_JP, b"a\x1B", &[S('a', 1), E(TruncatedSequence, 1)]);
    }

    #[test]
    fn escape_state() {
        // « leading, byte » are restored: the error covers ESC alone.
        check_decode(
            ISO_2022_JP,
            b"\x1B(X",
            &[E(InvalidEscape, 1), S('(', 1), S('X', 1)],
        );
        check_decode(
            ISO_2022_JP,
            b"\x1B$A",
            &[E(InvalidEscape, 1), S('$', 1), S('A', 1)],
        );
        // "(" takes only B, J and I; "$" only @ and B.
        check_decode(
            ISO_2022_JP,
            b"\x1B(@",
            &[E(InvalidEscape, 1), S('(', 1), S('@', 1)],
        );
        check_decode(
            ISO_2022_JP,
            b"\x1B$J",
            &[E(InvalidEscape, 1), S('$', 1), S('J', 1)],
        );
        check_decode(
            ISO_2022_JP,
            b"\x1B$I",
            &[E(InvalidEscape, 1), S('$', 1), S('I', 1)],
        );
        check_decode(
            ISO_2022_JP,
            b"\x1B(\x80",
            &[E(InvalidEscape, 1), S('(', 1), E(InvalidByte, 1)],
        );
        // The restored bytes are decoded in the output state.
        check_decode(
            ISO_2022_JP,
            b"\x1B(I\x1B(Z",
            &[ESC, E(InvalidEscape, 1), S('ｨ', 1), S('ﾚ', 1)],
        );
        check_decode(
            ISO_2022_JP,
            b"\x1B$B\x1B$\"",
            &[ESC, E(InvalidEscape, 1), S('あ', 2)],
        );
        // The restored byte may itself be ESC.
        check_decode(
            ISO_2022_JP,
            b"\x1B(\x1B(J\\",
            &[E(InvalidEscape, 1), S('(', 1), ESC, S('¥', 1)],
        );
        // End-of-queue: leading is restored.
        check_decode(ISO_2022_JP, b"\x1B(", &[E(TruncatedSequence, 1), S('(', 1)]);
        check_decode(ISO_2022_JP, b"\x1B$", &[E(TruncatedSequence, 1), S('$', 1)]);
        // ... and in the leading byte state it is a leading byte, truncated.
        check_decode(
            ISO_2022_JP,
            b"\x1B$B\x1B$",
            &[ESC, E(TruncatedSequence, 1), E(TruncatedSequence, 1)],
        );
    }

    #[test]
    fn escape_sequences_back_to_back() {
        // The output flag: an escape sequence with no output since the previous
        // one is an error covering its three bytes, but it still takes effect.
        check_decode(
            ISO_2022_JP,
            b"\x1B(B\x1B(J\\",
            &[ESC, E(EmptySegment, 3), S('¥', 1)],
        );
        check_decode(
            ISO_2022_JP,
            b"\x1B(J\x1B(B\\",
            &[ESC, E(EmptySegment, 3), S('\\', 1)],
        );
        check_decode(
            ISO_2022_JP,
            b"\x1B(B\x1B(J\x1B$B$\"",
            &[ESC, E(EmptySegment, 3), E(EmptySegment, 3), S('あ', 2)],
        );
        check_decode(
            ISO_2022_JP,
            b"\x1B$@\x1B(I!",
            &[ESC, E(EmptySegment, 3), S('｡', 1)],
        );
        // Output in between clears it.
        check_decode(
            ISO_2022_JP,
            b"\x1B(J\\\x1B(B\\",
            &[ESC, S('¥', 1), ESC, S('\\', 1)],
        );
        check_decode(
            ISO_2022_JP,
            b"\x1B$B$\"\x1B(Ba",
            &[ESC, S('あ', 2), ESC, S('a', 1)],
        );
        // So does an error: an invalid byte, or a broken escape sequence.
        check_decode(
            ISO_2022_JP,
            b"\x1B(J\x80\x1B(B",
            &[ESC, E(InvalidByte, 1), ESC],
        );
        check_decode(
            ISO_2022_JP,
            b"\x1B(J\x1B\x1B(B",
            &[ESC, E(InvalidEscape, 1), ESC],
        );
        // The standard's example: ¥ encoded twice and concatenated.
        check_decode(
            ISO_2022_JP,
            b"\x1B(J\\\x1B(B\x1B(J\\\x1B(B",
            &[ESC, S('¥', 1), ESC, E(EmptySegment, 3), S('¥', 1), ESC],
        );
        // A trailing ESC ( B at the very end after another escape sequence.
        check_decode(ISO_2022_JP, b"\x1B$B\x1B(B", &[ESC, E(EmptySegment, 3)]);
    }

    #[test]
    fn encodes_ascii() {
        check_encode(ISO_2022_JP, "a\\~\u{7F}\0", b"a\\~\x7F\0", &[]);
        check_encode(ISO_2022_JP, "", b"", &[]);
    }

    #[test]
    fn encodes_roman() {
        // ¥ and ‾ switch to Roman; the end switches back with ESC ( B.
        check_encode(ISO_2022_JP, "¥", b"\x1B(J\\\x1B(B", &[]);
        check_encode(ISO_2022_JP, "‾¥a¥", b"\x1B(J~\\a\\\x1B(B", &[]);
        // Backslash and tilde are not in Roman: back to ASCII.
        check_encode(ISO_2022_JP, "¥\\", b"\x1B(J\\\x1B(B\\", &[]);
        check_encode(ISO_2022_JP, "¥~¥", b"\x1B(J\\\x1B(B~\x1B(J\\\x1B(B", &[]);
    }

    #[test]
    fn encodes_jis0208() {
        check_encode(ISO_2022_JP, "あ日本", b"\x1B$B$\"F|K\\\x1B(B", &[]);
        check_encode(ISO_2022_JP, "あa", b"\x1B$B$\"\x1B(Ba", &[]);
        check_encode(ISO_2022_JP, "あ¥", b"\x1B$B$\"\x1B(J\\\x1B(B", &[]);
        check_encode(ISO_2022_JP, "¥あ", b"\x1B(J\\\x1B$B$\"\x1B(B", &[]);
        // MINUS SIGN becomes FULLWIDTH HYPHEN-MINUS (pointer 60).
        check_encode(ISO_2022_JP, "\u{2212}", b"\x1B$B!]\x1B(B", &[]);
        // Plain "index pointer": the first pointer, 8272 for 纊.
        check_encode(ISO_2022_JP, "≒纊", b"\x1B$B\"by!\x1B(B", &[]);
    }

    #[test]
    fn encodes_halfwidth_katakana_as_fullwidth() {
        // ｱ becomes ア (0x25 0x22), ｡ becomes 。 and ﾟ becomes ゜ (U+309C).
        check_encode(ISO_2022_JP, "ｱ｡ﾟ", b"\x1B$B%\"!#!,\x1B(B", &[]);
    }

    #[test]
    fn unencodable() {
        check_encode(ISO_2022_JP, "a☃", b"a&#9731;", &['☃']);
        // In the jis0208 state the encoder goes back to ASCII first.
        check_encode(ISO_2022_JP, "あ☃", b"\x1B$B$\"\x1B(B&#9731;", &['☃']);
        // In the Roman state it does not: "&#9731;" is the same in Roman.
        // (Not the last character: see `roman_state_at_the_end` for why.)
        check_encode(ISO_2022_JP, "¥☃¥", b"\x1B(J\\&#9731;\\\x1B(B", &['☃']);
        check_encode(
            ISO_2022_JP,
            "\u{80}｢😀",
            b"&#128;\x1B$B!V\x1B(B&#128512;",
            &['\u{80}', '😀'],
        );
    }

    #[test]
    fn shift_and_escape_characters_are_errors() {
        // U+000E, U+000F and U+001B are reported as U+FFFD.
        check_encode(
            ISO_2022_JP,
            "\u{0E}\u{0F}\u{1B}",
            b"&#65533;&#65533;&#65533;",
            &['\u{0E}', '\u{0F}', '\u{1B}'],
        );
        check_encode(ISO_2022_JP, "a\u{1B}(Bb", b"a&#65533;(Bb", &['\u{1B}']);
        check_encode(
            ISO_2022_JP,
            "¥\u{1B}a",
            b"\x1B(J\\&#65533;a\x1B(B",
            &['\u{1B}'],
        );
        // In the jis0208 state they are ASCII, so the encoder switches first.
        check_encode(
            ISO_2022_JP,
            "あ\u{0E}",
            b"\x1B$B$\"\x1B(B&#65533;",
            &['\u{0E}'],
        );
    }

    #[test]
    fn roman_state_at_the_end() {
        // An unencodable last character in the Roman state: the reference is
        // written in the Roman state and ESC ( B follows it.
        check_encode(ISO_2022_JP, "¥☃", b"\x1B(J\\&#9731;\x1B(B", &['☃']);
        check_encode(
            ISO_2022_JP,
            "¥\u{1B}",
            b"\x1B(J\\&#65533;\x1B(B",
            &['\u{1B}'],
        );
    }

    #[test]
    fn every_byte_pair_matches_encoding_rs() {
        pair_differences(ISO_2022_JP, encoding_rs::ISO_2022_JP, b"").assert_none();
        // Three-byte sequences that begin with ESC.
        pair_differences(ISO_2022_JP, encoding_rs::ISO_2022_JP, b"\x1B").assert_none();
    }

    #[test]
    fn every_byte_pair_in_every_state_matches_encoding_rs() {
        let prefixes: [&[u8]; 9] = [
            b"\x1B(B",
            b"\x1B(J",
            b"\x1B(I",
            b"\x1B$@",
            b"\x1B$B",
            b"\x1B$B$",
            b"\x1B(Ja",
            b"\x1B$B$\"",
            b"\x1B(I\x1B",
        ];
        for prefix in prefixes {
            pair_differences(ISO_2022_JP, encoding_rs::ISO_2022_JP, prefix).assert_none();
        }
    }

    #[test]
    fn escape_and_state_combinations_match_encoding_rs() {
        // Every sequence of up to four of these pieces: escape sequences,
        // broken ones, text valid in some states and not others.
        let pieces: [&[u8]; 16] = [
            b"\x1B(B", b"\x1B(J", b"\x1B(I", b"\x1B$@", b"\x1B$B", b"\x1B", b"\x1B(", b"\x1B$",
            b"a", b"\\", b"$\"", b"$", b"\x0E", b"\x80", b"\n", b"`",
        ];
        let mut differences = Vec::new();
        let mut bytes = Vec::new();
        for count in 1..=4u32 {
            for mut number in 0..pieces.len().pow(count) {
                bytes.clear();
                for _ in 0..count {
                    bytes.extend_from_slice(pieces[number % pieces.len()]);
                    number /= pieces.len();
                }
                let ours = decode_replacing(ISO_2022_JP, &bytes);
                let (theirs, _) = encoding_rs::ISO_2022_JP.decode_without_bom_handling(&bytes);
                if ours != theirs {
                    differences.push((bytes.clone(), ours, theirs.into_owned()));
                }
            }
        }
        assert!(
            differences.is_empty(),
            "{} differences, first: {:?}",
            differences.len(),
            differences.first()
        );
    }

    #[test]
    fn every_scalar_value_in_every_state_matches_encoding_rs() {
        let mut differences = Vec::new();
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            // Alone (from the ASCII state), after ¥ (Roman) and after あ (jis0208).
            for prefix in ["", "¥", "あ"] {
                let mut text = String::from(prefix);
                text.push(c);
                let ours = ISO_2022_JP.encode(&text).0;
                let (theirs, _, _) = encoding_rs::ISO_2022_JP.encode(&text);
                if ours != *theirs {
                    let theirs = theirs.into_owned();
                    differences.push((text, ours, theirs));
                }
            }
        }
        assert!(
            differences.is_empty(),
            "{} differences, first: {:?}",
            differences.len(),
            differences.first()
        );
    }
}
