//! Telling text from what is not: random or binary bytes that some decoder
//! turned into characters. A repair of such input finds "mojibake"
//! everywhere (any byte pair is a sequence of some encoding) and takes long
//! doing it; it is declined at once instead.
//!
//! The check looks at a bounded sample of the text, spread over all of it,
//! and counts two things real text almost never has in numbers: C0 control
//! characters other than the ones text uses (tab, line feed, carriage
//! return, form feed, backspace for overstrike, escape for terminal
//! colours) and private-use characters, and U+FFFD, which a decoder writes
//! for bytes it could not decode. Random bytes give about one control
//! character in ten whatever single-byte decoder read them, one private-use
//! character in ten from a UTF-16 decoder, and about one U+FFFD in two from
//! a UTF-8 decoder.

use std::fmt;

/// Why a text was declined as not text.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum NotText {
    /// Control characters text does not use (NUL, and the other C0
    /// controls but tab, line feed, form feed, carriage return, backspace
    /// and escape) and private-use characters make up this share of the
    /// characters looked at.
    Controls {
        /// Their share, from 0 to 1.
        share: f32,
    },
    /// U+FFFD, bytes the decoder could not decode, make up this share of
    /// the characters looked at.
    Undecodable {
        /// Their share, from 0 to 1.
        share: f32,
    },
}

impl fmt::Display for NotText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Controls { share } => write!(
                f,
                "not text: {:.1}% of its characters are control or private-use characters, as in binary data",
                share * 100.0
            ),
            Self::Undecodable { share } => write!(
                f,
                "not text: {:.1}% of its characters are U+FFFD, bytes that did not decode",
                share * 100.0
            ),
        }
    }
}

/// Text up to this long is looked at whole...
const WHOLE: usize = 64 * 1024;
/// ...longer text in this many samples...
const SAMPLES: usize = 32;
/// ...of this many bytes each, spread evenly over it.
const SAMPLE_BYTES: usize = 2048;
/// Declined when at least this many characters looked at are of one kind...
const MIN_COUNT: usize = 16;
/// ...and they make up this share of them (controls)...
const MAX_CONTROL_SHARE: f32 = 0.02;
/// ...or this share (U+FFFD). Mojibake that lost many bytes on the way
/// keeps up to one U+FFFD in two characters ("Ð�" for each Cyrillic
/// letter whose second byte a decoder lost): well below this.
const MAX_UNDECODABLE_SHARE: f32 = 0.75;

/// Checks, on a bounded sample, whether `text` is text at all: `Err` with
/// the reason if it is not. It reads at most 64 KiB of the text, so it
/// takes the same short time on any input.
///
/// # Errors
/// [`NotText`] when control characters or U+FFFD are far more common than
/// in any text.
///
/// ```
/// use mojiscope_core::repair::{NotText, check_text};
///
/// assert!(check_text("Caf\u{e9} au lait, cafÃ© au lait").is_ok());
/// let binary: String = (0..2000_u32).map(|n| char::from((n * 37 % 256) as u8)).collect();
/// assert!(matches!(check_text(&binary), Err(NotText::Controls { .. })));
/// ```
pub fn check_text(text: &str) -> Result<(), NotText> {
    let mut counts = Counts::default();
    if text.len() <= WHOLE {
        counts.add(text);
    } else {
        let stride = text.len() / SAMPLES;
        for number in 0..SAMPLES {
            let start = floor_char_boundary(text, number * stride);
            let end = floor_char_boundary(text, (start + SAMPLE_BYTES).min(text.len()));
            counts.add(&text[start..end]);
        }
    }
    counts.verdict()
}

#[derive(Default)]
struct Counts {
    chars: usize,
    controls: usize,
    undecodable: usize,
}

impl Counts {
    fn add(&mut self, text: &str) {
        for c in text.chars() {
            self.chars += 1;
            match c {
                '\t' | '\n' | '\r' | '\x0C' | '\x08' | '\x1B' => {}
                '\0'..='\x1F' | '\x7F' | '\u{E000}'..='\u{F8FF}' | '\u{F0000}'.. => {
                    self.controls += 1;
                }
                char::REPLACEMENT_CHARACTER => self.undecodable += 1,
                _ => {}
            }
        }
    }

    fn verdict(&self) -> Result<(), NotText> {
        let share = |count: usize| {
            let count = u32::try_from(count).unwrap_or(u32::MAX);
            let chars = u32::try_from(self.chars.max(1)).unwrap_or(u32::MAX);
            // Counts stay below 2^17 (64 KiB looked at): exact in f64.
            (f64::from(count) / f64::from(chars)) as f32
        };
        if self.controls >= MIN_COUNT && share(self.controls) >= MAX_CONTROL_SHARE {
            return Err(NotText::Controls {
                share: share(self.controls),
            });
        }
        if self.undecodable >= MIN_COUNT && share(self.undecodable) >= MAX_UNDECODABLE_SHARE {
            return Err(NotText::Undecodable {
                share: share(self.undecodable),
            });
        }
        Ok(())
    }
}

/// The largest character boundary of `text` at or before `index`.
fn floor_char_boundary(text: &str, index: usize) -> usize {
    let mut index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes from a small deterministic generator (xorshift), as random
    /// data or a compressed file would be.
    fn random_bytes(len: usize) -> Vec<u8> {
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect()
    }

    #[test]
    fn random_bytes_are_not_text_under_any_decoder() {
        let bytes = random_bytes(300_000);
        for encoding in crate::ALL.iter().filter(|&&e| e != crate::REPLACEMENT) {
            let text = encoding.decode(&bytes).text;
            assert!(check_text(&text).is_err(), "{encoding}");
        }
    }

    #[test]
    fn text_is_text() {
        for text in [
            "",
            "a\u{1}b",
            "Caf\u{e9} au lait, cafÃ© au lait",
            "\x1b[1;31merror\x1b[0m: N\x08NA\x08AM\x08ME\x08E",
            "[�고렪踰덊샇 �쒕퉬��] API 濡쒕뵫 �ㅻ쪟媛� 諛쒖깮�섏��듬땲��.",
            "ã\u{81}\u{93}ã\u{82}\u{93}ã\u{81}«ã\u{81}¡ã\u{81}¯",
            "Ð�Ð�Ð�Ð�Ð�Ð¬Ð�Ð� Ð�Ð�Ð�Ð�Ð�Ð\u{a0}Ð�Ð¦Ð�Ð¯ Ð�Ð\u{a0}Ð�Ð� Ð�Ð®Ð�Ð�Ð�Ð�",
        ] {
            assert_eq!(check_text(text), Ok(()), "{text:?}");
        }
        let long = "Ünïcödé text, and more of it.\n".repeat(100_000);
        assert_eq!(check_text(&long), Ok(()));
    }

    #[test]
    fn the_reason_is_said() {
        let nul = "\0".repeat(100);
        let reason = check_text(&nul).unwrap_err();
        assert!(matches!(reason, NotText::Controls { share } if share > 0.99));
        assert!(
            reason
                .to_string()
                .starts_with("not text: 100.0% of its characters")
        );
        let lost = "\u{FFFD}\u{FFFD}\u{FFFD}a".repeat(100);
        assert!(matches!(
            check_text(&lost),
            Err(NotText::Undecodable { .. })
        ));
    }
}
