//! Bytes typed in hex, as people type them: one syntax wherever bytes are
//! read from text (the teaching views' byte fields, `mojiscope explain`).
//!
//! Bytes are `82 A0`, `82A0`, `0x82 0xA0`, `0x82A0`, `\x82\xA0` or
//! `%82%A0`, in any case, with spaces, commas, colons, semicolons or
//! hyphens between them. Each byte is two hex digits, except that one digit
//! standing alone is a byte of its own (`8` is 0x08).

use thiserror::Error;

/// Why some text is not bytes in hex.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HexError {
    /// A character that is not a hex digit.
    #[error("{character:?} is not a hex digit")]
    NotHexDigit {
        /// The token it is in, as typed.
        token: String,
        /// The character.
        character: char,
    },
    /// Digits that do not pair up into bytes.
    #[error("{digits:?} has an odd number of hex digits (each byte is two)")]
    OddDigits {
        /// The digits (without a `0x`).
        digits: String,
    },
    /// Nothing but separators.
    #[error("no bytes")]
    Empty,
}

/// The bytes `text` spells in hex.
///
/// # Errors
/// [`HexError`]: a character that is not a hex digit, digits that do not
/// pair up, or no bytes at all.
pub fn parse_hex(text: &str) -> Result<Vec<u8>, HexError> {
    let mut bytes = Vec::new();
    parse_hex_into(text, &mut bytes)?;
    if bytes.is_empty() {
        return Err(HexError::Empty);
    }
    Ok(bytes)
}

/// Appends the bytes `text` spells in hex to `bytes`; text without any
/// (only separators) appends nothing.
///
/// # Errors
/// As [`parse_hex`], but for [`HexError::Empty`].
pub fn parse_hex_into(text: &str, bytes: &mut Vec<u8>) -> Result<(), HexError> {
    let spaced = text
        .replace("\\x", " ")
        .replace("\\X", " ")
        .replace('%', " ");
    for token in spaced.split(|c: char| c.is_whitespace() || ",:;-".contains(c)) {
        let prefixed = token
            .strip_prefix("0x")
            .or_else(|| token.strip_prefix("0X"));
        let digits = prefixed.unwrap_or(token);
        if let Some(character) = digits.chars().find(|c| !c.is_ascii_hexdigit()) {
            return Err(HexError::NotHexDigit {
                token: token.to_owned(),
                character,
            });
        }
        // All ASCII hex digits from here on.
        let digits = digits.as_bytes();
        let value = |digit: u8| char::from(digit).to_digit(16).unwrap_or(0) as u8;
        if digits.len() == 1 && prefixed.is_none() {
            bytes.push(value(digits[0]));
            continue;
        }
        if digits.len() % 2 == 1 {
            return Err(HexError::OddDigits {
                digits: String::from_utf8_lossy(digits).into_owned(),
            });
        }
        bytes.extend(
            digits
                .chunks_exact(2)
                .map(|pair| (value(pair[0]) << 4) | value(pair[1])),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_reads_the_same_bytes() {
        for text in [
            "82 A0",
            "82a0",
            "0x82 0xA0",
            "0x82A0",
            "0X82 0Xa0",
            "0x82,0xa0",
            "\\x82\\xA0",
            "\\X82\\X82",
            "%82%A0",
            "82:a0",
            "82-A0",
            "82;A0",
            " 82  a0 ",
        ] {
            let expected = if text.contains("\\X") {
                vec![0x82, 0x82]
            } else {
                vec![0x82, 0xA0]
            };
            assert_eq!(parse_hex(text), Ok(expected), "{text:?}");
        }
        assert_eq!(parse_hex("8 1"), Ok(vec![0x08, 0x01]));
    }

    #[test]
    fn what_is_not_bytes_says_why() {
        assert_eq!(
            parse_hex("82 G0"),
            Err(HexError::NotHexDigit {
                token: "G0".to_owned(),
                character: 'G'
            })
        );
        assert_eq!(
            parse_hex("82A").unwrap_err().to_string(),
            "\"82A\" has an odd number of hex digits (each byte is two)"
        );
        assert!(matches!(parse_hex("0x8"), Err(HexError::OddDigits { .. })));
        assert_eq!(parse_hex(" , "), Err(HexError::Empty));
        let mut bytes = vec![1];
        assert_eq!(parse_hex_into("0x", &mut bytes), Ok(()));
        assert_eq!(bytes, [1]);
    }
}
