//! `mojiscope explain --encoding LABEL HEX...`: the decoder's steps for
//! bytes given in hex on the command line.

use std::ffi::OsString;
use std::io::{Read, Write};

use clap::Args;

use super::args::encoding_for;
use super::error::CliError;
use super::output::{Success, stdout_error};
use crate::model::hex::parse_hex_into;

#[derive(Debug, Args)]
#[command(
    after_help = "The encoding's decoder runs from its initial state over exactly these bytes, \
                  their end being the end of the input (no byte order mark handling). \
                  Each decoded item is shown with its bytes and result, then one line per step, \
                  the standard's step number in brackets. At most 65536 bytes."
)]
pub struct ExplainArgs {
    /// The encoding whose decoder to explain
    #[arg(long, value_name = "LABEL")]
    encoding: OsString,
    /// The bytes, in hex: 82 A0, 82A0, 0x82 0xA0, \x82\xA0, ...
    #[arg(value_name = "HEX", required = true, num_args = 1.., allow_hyphen_values = true)]
    hex: Vec<OsString>,
}

/// The most bytes `explain` takes. Its report keeps every step of every
/// item, several hundred bytes of memory per byte explained (360 MB for
/// 512 KiB of random bytes as GB18030): a teaching view of a short byte
/// range, not of a file.
pub const MAX_BYTES: usize = 64 * 1024;

/// Runs `explain`.
pub fn run(
    args: &ExplainArgs,
    _stdin: &mut dyn Read,
    stdout: &mut dyn Write,
) -> Result<Success, CliError> {
    let encoding = encoding_for(&args.encoding)?;
    let bytes = bytes_of(&args.hex)?;
    if bytes.len() > MAX_BYTES {
        return Err(CliError::ExplainTooLong {
            len: bytes.len(),
            limit: MAX_BYTES,
        });
    }
    writeln!(stdout, "{}", encoding.explain(&bytes)).map_err(stdout_error)?;
    stdout.flush().map_err(stdout_error)?;
    Ok(Success::default())
}

/// The bytes of `explain`'s arguments, each in hex as
/// [`crate::model::hex`] reads it.
///
/// # Errors
/// [`CliError::BadHex`] naming the argument that is not hex, or all of
/// them when they hold no bytes at all.
fn bytes_of(arguments: &[OsString]) -> Result<Vec<u8>, CliError> {
    let mut bytes = Vec::new();
    for argument in arguments {
        let text = argument.to_string_lossy();
        parse_hex_into(&text, &mut bytes).map_err(|error| CliError::BadHex {
            argument: text.clone().into_owned(),
            reason: error.to_string(),
        })?;
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
        bytes_of(&arguments).map_err(|error| error.to_string())
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
    fn more_bytes_than_it_explains_are_refused() {
        let args = |len: usize| ExplainArgs {
            encoding: OsString::from("gb18030"),
            hex: vec![OsString::from("81".repeat(len))],
        };
        let mut output = Vec::new();
        assert!(run(&args(MAX_BYTES), &mut &b""[..], &mut output).is_ok());
        assert!(output.len() > MAX_BYTES);
        let mut output = Vec::new();
        let error = run(&args(MAX_BYTES + 1), &mut &b""[..], &mut output).unwrap_err();
        assert_eq!(error.exit_status(), 2);
        assert!(
            error.to_string().starts_with(
                "65537 bytes given; explain shows the decoder's steps for at most 65536 bytes"
            ),
            "{error}"
        );
        assert!(output.is_empty());
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
