//! How detection's evidence and notes read, for people.

use std::fmt;

use super::{Evidence, Note, plural};

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Bom { encoding } => write!(
                f,
                "starts with the {encoding} byte order mark, which decides the decode"
            ),
            Self::OverriddenByBom { encoding } => write!(
                f,
                "not used: the {encoding} byte order mark decides the decode"
            ),
            Self::ValidUtf8 { non_ascii_chars } => write!(
                f,
                "valid UTF-8 with {non_ascii_chars} non-ASCII character{}",
                plural(*non_ascii_chars)
            ),
            Self::ValidIso2022Jp { non_ascii_chars } => write!(
                f,
                "valid ISO-2022-JP: escape sequences switch to {non_ascii_chars} non-ASCII character{}",
                plural(*non_ascii_chars)
            ),
            Self::DecodeErrors {
                count,
                by_kind,
                first_byte_offset,
            } => {
                write!(
                    f,
                    "{count} decoding error{} (first at byte offset {first_byte_offset}:",
                    plural(*count)
                )?;
                for (position, (kind, n)) in by_kind.iter().enumerate() {
                    let separator = if position == 0 { " " } else { ", " };
                    write!(f, "{separator}{n} {}", kind.describe())?;
                }
                f.write_str(")")
            }
            Self::ImplausibleCharacters { count, first } => write!(
                f,
                "{count} character{} text does not contain (first U+{:04X})",
                plural(*count),
                u32::from(*first)
            ),
            Self::UnlikelySymbols { count } => {
                write!(f, "{count} unlikely symbol{}", plural(*count))
            }
            Self::Language {
                name,
                nats_per_char,
                chars,
                ..
            } => write!(
                f,
                "reads best as {name}: {nats_per_char:.2} nats per character over {chars} character{}",
                plural(*chars)
            ),
            Self::AsciiOnly => f.write_str(
                "decodes to plain ASCII, like every ASCII-compatible encoding: only how common it is ranks it",
            ),
            Self::Declared {
                declaration,
                weighed: true,
            } => write!(f, "the file {declaration}, and the bytes do not contradict it"),
            Self::Declared {
                declaration,
                weighed: false,
            } => write!(f, "the file {declaration}, but the bytes decide"),
            Self::FormatsInWords { count } => write!(
                f,
                "{count} invisible formatting character{} inside words, where text has none",
                plural(*count)
            ),
            Self::SignsInWords { count } => write!(
                f,
                "{count} sign{} between the letters of a word, where words hold none",
                plural(*count)
            ),
            Self::DigitsInWords { count } => write!(
                f,
                "{count} digit{} of one script beside letters of another, where numbers stand apart",
                plural(*count)
            ),
            Self::Utf16WithoutBom { encoding } => write!(
                f,
                "the bytes are {encoding} without a byte order mark (named, but not offered as a choice)"
            ),
        }
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("the input is empty"),
            Self::AsciiOnly => f.write_str(
                "every byte is ASCII: every ASCII-compatible encoding decodes it the same",
            ),
            Self::Sampled {
                windows,
                bytes_examined,
                byte_len,
            } => write!(
                f,
                "sampled: {windows} windows, {bytes_examined} of {byte_len} bytes examined"
            ),
            Self::Utf16WithoutBom { encoding } => write!(
                f,
                "looks like {encoding} without a byte order mark (named first; not offered as a choice)"
            ),
            Self::WeakEvidence { confidence } => write!(
                f,
                "weak evidence: the best candidate's confidence is {confidence:.2}"
            ),
            Self::Declared {
                declaration,
                bytes_agree: true,
                ..
            } => write!(f, "{declaration}; the bytes agree"),
            Self::Declared {
                declaration, best, ..
            } => write!(f, "{declaration}; the bytes are {best}"),
            Self::ErrorsOutweighed {
                encoding,
                errors,
                non_ascii_chars,
                clean,
            } => write!(
                f,
                "{encoding} ranks first despite {errors} decoding error{}: its {non_ascii_chars} \
                 other character{} beyond ASCII read far better than {clean}'s clean decode",
                plural(*errors),
                plural(*non_ascii_chars)
            ),
            Self::CutAtEnd { encoding, clean } => write!(
                f,
                "{encoding} ranks first although the input ends inside one of its sequences, its \
                 only bytes beyond ASCII: a character cut short reads better than {clean}'s \
                 clean decode of them"
            ),
            Self::ImplausibleText { nats_per_char } => write!(
                f,
                "even the best reading is implausible text ({nats_per_char:.1} nats per character beyond ASCII)"
            ),
        }
    }
}
