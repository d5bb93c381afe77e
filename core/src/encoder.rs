//! The streaming encoder: the standard's "process a queue" for encoders, with
//! the position of every character that cannot be encoded.

use crate::codec::EncoderCodec;
use crate::decoder::ascii_prefix_len;
use crate::encoding::Encoding;

/// How an encoder handles a character it cannot encode: the standard's
/// encoder error modes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EncodeErrorMode {
    /// Encoding stops at the first unencodable character.
    #[default]
    Fatal,
    /// Each unencodable character is written as a decimal numeric character
    /// reference, `&#N;`. Such references cannot be told apart from text that
    /// really contained them, so this mode can lose data silently.
    Html,
}

/// A character that the encoder could not encode, and where it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unmappable {
    /// The character of the input.
    pub character: char,
    /// The code point the standard's error carries, which html mode writes as
    /// `&#N;`. It is the character itself except where the ISO-2022-JP
    /// encoder reports U+FFFD for U+000E, U+000F and U+001B.
    pub reported: char,
    /// Offset of the character's first UTF-8 byte in the encoder's input.
    pub utf8_offset: u64,
    /// How many characters precede it in the encoder's input.
    pub char_index: u64,
}

/// Why a call to [`Encoder::encode`] returned.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncoderResult {
    /// All the input given was consumed.
    InputEmpty,
    /// A character that cannot be encoded was consumed. In html mode its
    /// `&#N;` has been written; in fatal mode nothing was written for it.
    /// Call again with the rest of the input to go on.
    Unmappable(Unmappable),
}

/// Up to four bytes produced by one step of an encoder's handler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Encoded {
    bytes: [u8; 4],
    len: u8,
}

impl Encoded {
    pub(crate) const fn one(byte: u8) -> Self {
        Self {
            bytes: [byte, 0, 0, 0],
            len: 1,
        }
    }

    pub(crate) const fn two(first: u8, second: u8) -> Self {
        Self {
            bytes: [first, second, 0, 0],
            len: 2,
        }
    }

    pub(crate) const fn three(first: u8, second: u8, third: u8) -> Self {
        Self {
            bytes: [first, second, third, 0],
            len: 3,
        }
    }

    pub(crate) const fn four(bytes: [u8; 4]) -> Self {
        Self { bytes, len: 4 }
    }

    /// Appends the bytes to `output`.
    #[inline]
    pub(crate) fn push_to(self, output: &mut Vec<u8>) {
        // All four are appended, then the surplus cut: a copy of fixed size
        // is a single store, where one of the exact length would be a call
        // to `memcpy`.
        let end = output.len() + usize::from(self.len);
        output.extend_from_slice(&self.bytes);
        output.truncate(end);
    }
}

/// What an encoder's handler returns for one code point or for the end of
/// the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EncodeStep {
    /// Bytes for the code point.
    Bytes(Encoded),
    /// Bytes (an escape sequence) to write, after which the same code point is
    /// handled again: the standard's "restore codePoint to ioQueue".
    BytesThenAgain(Encoded),
    /// The code point cannot be encoded; the error carries this code point.
    Error(char),
    /// End of input and nothing more to write.
    Finished,
}

/// One encoding's encoder: its state and the standard's handler.
pub(crate) trait EncodeHandler {
    /// The handler given a code point.
    fn handle(&mut self, c: char) -> EncodeStep;

    /// The handler given end-of-queue.
    fn handle_end(&mut self) -> EncodeStep {
        EncodeStep::Finished
    }

    /// Whether, in the current state, every ASCII code point encodes to the
    /// byte of the same value and leaves the state unchanged.
    fn is_ascii_ground(&self) -> bool {
        true
    }

    /// Not in spec: how many bytes at the start of `bytes` (UTF-8 input) are
    /// ASCII characters that encode to the same byte in the current state,
    /// leaving it unchanged. The default is the ASCII run while
    /// [`is_ascii_ground`](Self::is_ascii_ground) holds.
    #[inline]
    fn ascii_run_len(&mut self, bytes: &[u8]) -> usize {
        if self.is_ascii_ground() {
            ascii_prefix_len(bytes)
        } else {
            0
        }
    }

    /// Not in spec: for encoders that encode every code point they can to
    /// one byte, whatever came before it (the single-byte encoders), that
    /// byte, or `None` where [`handle`](Self::handle) has to be asked (an
    /// error); so the driver may write the byte itself. The default asks
    /// `handle` every time.
    #[inline]
    fn one_byte(&self, c: char) -> Option<u8> {
        let _ = c;
        None
    }

    /// Not in spec: for a character that is not ASCII, the two bytes it
    /// encodes to when that is all [`handle`](Self::handle) would do (no
    /// state, no error), so that the driver may write them without a step
    /// result; `None` leaves the character to `handle`. The default is
    /// `None`.
    #[inline]
    fn two_bytes(&self, c: char) -> Option<[u8; 2]> {
        let _ = c;
        None
    }

    /// Not in spec: whether every code point encodes to its UTF-8 bytes (true
    /// for the UTF-8 encoder only), so the driver may copy the input whole.
    const ENCODES_AS_UTF8: bool = false;
}

/// A streaming encoder: the standard's encoder instance for an encoding's
/// output encoding, with its state kept between calls.
///
/// ```
/// use mojiscope_core::{Encoder, EncodeErrorMode, EncoderResult, WINDOWS_1252};
///
/// let mut encoder = Encoder::new(WINDOWS_1252, EncodeErrorMode::Html);
/// let mut bytes = Vec::new();
/// let (result, read) = encoder.encode("é€ → ok", true, &mut bytes);
/// let EncoderResult::Unmappable(arrow) = result else { panic!() };
/// assert_eq!((arrow.character, arrow.utf8_offset, arrow.char_index), ('→', 6, 3));
/// let (result, _) = encoder.encode(&"é€ → ok"[read..], true, &mut bytes);
/// assert_eq!(result, EncoderResult::InputEmpty);
/// assert_eq!(bytes, b"\xE9\x80 &#8594; ok");
/// ```
#[derive(Clone, Debug)]
pub struct Encoder {
    encoding: &'static Encoding,
    codec: EncoderCodec,
    driver: EncodeDriver,
}

/// The bookkeeping around an encoder's handler.
#[derive(Clone, Debug)]
pub(crate) struct EncodeDriver {
    mode: EncodeErrorMode,
    /// UTF-8 bytes consumed so far.
    utf8_offset: u64,
    /// Characters consumed so far.
    char_index: u64,
}

impl Encoder {
    /// An encoder for `encoding`'s output encoding (the standard's "get an
    /// output encoding": UTF-8 for replacement, UTF-16BE and UTF-16LE, which
    /// have no encoder).
    pub fn new(encoding: &'static Encoding, mode: EncodeErrorMode) -> Self {
        let encoding = encoding.output_encoding();
        Self {
            encoding,
            codec: EncoderCodec::new(encoding),
            driver: EncodeDriver {
                mode,
                utf8_offset: 0,
                char_index: 0,
            },
        }
    }

    /// The encoding written (the output encoding of the one asked for).
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// The error mode.
    pub fn mode(&self) -> EncodeErrorMode {
        self.driver.mode
    }

    /// Encodes `input`, appending bytes to `output`. `last` says that no more
    /// input follows (ISO-2022-JP then returns to its ASCII state).
    ///
    /// Returns why it stopped and how many bytes of `input` were consumed: all
    /// of them, or those up to and including an unencodable character. After
    /// an unencodable character, call again with the rest (even when it is
    /// empty) and the same `last`: the end of the input is handled only by a
    /// call that returns [`EncoderResult::InputEmpty`].
    pub fn encode(
        &mut self,
        input: &str,
        last: bool,
        output: &mut Vec<u8>,
    ) -> (EncoderResult, usize) {
        self.codec.run(&mut self.driver, input, last, output)
    }
}

impl EncodeDriver {
    /// The driver loop for one handler; `EncoderCodec::run` dispatches here.
    #[inline]
    pub(crate) fn run<H: EncodeHandler>(
        &mut self,
        handler: &mut H,
        input: &str,
        last: bool,
        output: &mut Vec<u8>,
    ) -> (EncoderResult, usize) {
        let bytes = input.as_bytes();
        if H::ENCODES_AS_UTF8 {
            // Not in spec: the UTF-8 encoder's output is its input's bytes.
            // It reports no errors, so the character index, which only
            // errors carry, need not be counted.
            output.extend_from_slice(bytes);
            self.utf8_offset += bytes.len() as u64;
            return (EncoderResult::InputEmpty, bytes.len());
        }
        // Offsets are kept in locals in the loop and stored on the way out.
        let base_offset = self.utf8_offset;
        let mut char_index = self.char_index;
        let mut read = 0;
        while read < bytes.len() {
            // Not in spec: ASCII runs that encode to themselves are copied
            // whole.
            let run = handler.ascii_run_len(&bytes[read..]);
            if run > 0 {
                push_run(output, &bytes[read..], run);
                read += run;
                char_index += run as u64;
                continue;
            }
            // The characters up to the next such run, one at a time.
            let mut chars = input[read..].chars();
            while let Some(c) = chars.next() {
                if c.is_ascii() && handler.is_ascii_ground() {
                    if chars.as_str().as_bytes().first().is_some_and(u8::is_ascii) {
                        // A run begins: back to copying.
                        break;
                    }
                    // A lone one (a space between words of another script).
                    output.push(c as u8);
                    read += 1;
                    char_index += 1;
                    continue;
                }
                if let Some(byte) = handler.one_byte(c) {
                    output.push(byte);
                    read += c.len_utf8();
                    char_index += 1;
                    continue;
                }
                if let Some(bytes) = handler.two_bytes(c) {
                    output.extend_from_slice(&bytes);
                    read += c.len_utf8();
                    char_index += 1;
                    continue;
                }
                let utf8_offset = base_offset + read as u64;
                read += c.len_utf8();
                char_index += 1;
                loop {
                    match handler.handle(c) {
                        EncodeStep::Bytes(encoded) => {
                            encoded.push_to(output);
                            break;
                        }
                        EncodeStep::BytesThenAgain(encoded) => encoded.push_to(output),
                        EncodeStep::Error(reported) => {
                            if self.mode == EncodeErrorMode::Html {
                                write_html_reference(reported, output);
                            }
                            let unmappable = Unmappable {
                                character: c,
                                reported,
                                utf8_offset,
                                char_index: char_index - 1,
                            };
                            self.utf8_offset = base_offset + read as u64;
                            self.char_index = char_index;
                            // Not in spec: the end-of-queue step (ISO-2022-JP's
                            // return to ASCII) waits for the caller's next
                            // call, so that in fatal mode nothing is written
                            // after the error.
                            return (EncoderResult::Unmappable(unmappable), read);
                        }
                        EncodeStep::Finished => {
                            unreachable!("a handler finishes only at end-of-queue")
                        }
                    }
                }
            }
        }
        self.utf8_offset = base_offset + read as u64;
        self.char_index = char_index;
        if last {
            Self::finish(handler, output);
        }
        (EncoderResult::InputEmpty, read)
    }

    /// Runs the handler on end-of-queue until it has finished.
    fn finish<H: EncodeHandler>(handler: &mut H, output: &mut Vec<u8>) {
        loop {
            match handler.handle_end() {
                EncodeStep::Bytes(encoded) | EncodeStep::BytesThenAgain(encoded) => {
                    encoded.push_to(output);
                }
                EncodeStep::Error(_) | EncodeStep::Finished => return,
            }
        }
    }
}

/// Not in spec: appends the first `run` bytes of `bytes`. Short runs (the
/// ASCII between words of other scripts) are copied as a fixed 32 bytes
/// and cut back, a single store where `memcpy` would be a call.
#[inline]
fn push_run(output: &mut Vec<u8>, bytes: &[u8], run: usize) {
    if run <= 32
        && let Some(chunk) = bytes.first_chunk::<32>()
    {
        let end = output.len() + run;
        output.extend_from_slice(chunk);
        output.truncate(end);
    } else {
        output.extend_from_slice(&bytes[..run]);
    }
}

/// The standard's html error mode: "&#", the code point in decimal, ";".
pub(crate) fn write_html_reference(c: char, output: &mut Vec<u8>) {
    output.extend_from_slice(b"&#");
    let mut digits = [0u8; 7];
    let mut value = u32::from(c);
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    output.extend_from_slice(&digits[start..]);
    output.push(b';');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_references_are_shortest_decimal() {
        for (c, expected) in [
            ('\0', "&#0;"),
            ('\u{FFFD}', "&#65533;"),
            ('\u{10FFFF}', "&#1114111;"),
            ('→', "&#8594;"),
        ] {
            let mut out = Vec::new();
            write_html_reference(c, &mut out);
            assert_eq!(out, expected.as_bytes());
        }
    }
}
