//! `explain`: the decoder's steps for bytes given in hex on the command line.

use std::ffi::OsString;

use super::error::CliError;

/// Parses the bytes of `explain`'s arguments, written in hex as people type
/// them: `82 A0`, `82A0`, `0x82 0xA0`, `0x82A0`, `\x82\xA0`, `%82%A0`, or
/// with commas, colons, semicolons or hyphens between bytes; any case. Each
/// byte is two hex digits.
///
/// # Errors
/// [`CliError::BadHex`] naming the argument: a character that is not a hex
/// digit, an odd number of digits, or no bytes at all.
pub(super) fn parse_hex(arguments: &[OsString]) -> Result<Vec<u8>, CliError> {
    let mut bytes = Vec::new();
    for argument in arguments {
        let text = argument.to_string_lossy();
        let bad = |reason: String| CliError::BadHex {
            argument: text.clone().into_owned(),
            reason,
        };
        let spaced = text
            .replace("\\x", " ")
            .replace("\\X", " ")
            .replace('%', " ");
        for token in spaced.split(|c: char| c.is_whitespace() || ",:;-".contains(c)) {
            let digits = token
                .strip_prefix("0x")
                .or_else(|| token.strip_prefix("0X"))
                .unwrap_or(token);
            if let Some(c) = digits.chars().find(|c| !c.is_ascii_hexdigit()) {
                return Err(bad(format!("{c:?} is not a hex digit")));
            }
            if digits.len() % 2 == 1 {
                return Err(bad(format!(
                    "{digits:?} has an odd number of hex digits (each byte is two)"
                )));
            }
            for pair in digits.as_bytes().chunks(2) {
                let pair = std::str::from_utf8(pair).map_err(|_| bad("not hex".to_owned()))?;
                let byte = u8::from_str_radix(pair, 16)
                    .map_err(|_| bad(format!("{pair:?} is not hex")))?;
                bytes.push(byte);
            }
        }
    }
    if bytes.is_empty() {
        return Err(CliError::BadHex {
            argument: arguments
                .iter()
                .map(|argument| argument.to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join(" "),
            reason: "no bytes".to_owned(),
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(arguments: &[&str]) -> Result<Vec<u8>, String> {
        let arguments: Vec<OsString> = arguments.iter().map(OsString::from).collect();
        parse_hex(&arguments).map_err(|error| error.to_string())
    }

    #[test]
    fn the_forms_people_type() {
        for arguments in [
            &["82", "A0"][..],
            &["82A0"],
            &["82a0"],
            &["0x82", "0xA0"],
            &["0x82A0"],
            &["0X82 0Xa0"],
            &["\\x82\\xA0"],
            &["%82%A0"],
            &["82:a0"],
            &["82,A0"],
            &["82-A0"],
            &[" 82  A0 "],
            &["0x82,", "0xA0;"],
        ] {
            assert_eq!(parse(arguments), Ok(vec![0x82, 0xA0]), "{arguments:?}");
        }
        assert_eq!(parse(&["00", "ff", "7F"]), Ok(vec![0x00, 0xFF, 0x7F]));
    }

    #[test]
    fn what_is_not_hex() {
        assert_eq!(
            parse(&["82", "G0"]),
            Err("invalid bytes \"G0\": 'G' is not a hex digit (give bytes in hex, e.g. 82 A0, 82A0 or 0x82 0xA0)".to_owned())
        );
        assert!(
            parse(&["82A"])
                .unwrap_err()
                .contains("\"82A\" has an odd number of hex digits (each byte is two)")
        );
        assert!(parse(&["0x8"]).unwrap_err().contains("odd number"));
        assert!(
            parse(&["é"])
                .unwrap_err()
                .contains("'é' is not a hex digit")
        );
        assert!(parse(&["0x"]).unwrap_err().contains(": no bytes"));
        assert!(parse(&[" ", ","]).unwrap_err().contains(": no bytes"));
    }
}
