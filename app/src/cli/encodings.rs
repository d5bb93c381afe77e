//! `mojiscope encodings`: every encoding with its labels, under the
//! standard's headings.

use std::io::{Read, Write};

use clap::Args;
use mojiscope_core::Group;

use super::error::CliError;
use super::output::{Success, stdout_error};

#[derive(Debug, Args)]
pub struct EncodingsArgs {}

/// Runs `encodings`.
pub fn run(
    _args: &EncodingsArgs,
    _stdin: &mut dyn Read,
    stdout: &mut dyn Write,
) -> Result<Success, CliError> {
    for group in Group::ALL {
        writeln!(stdout, "{}", group.heading()).map_err(stdout_error)?;
        for encoding in group.encodings() {
            writeln!(
                stdout,
                "  {}\t{}",
                encoding.name(),
                encoding.labels().join(" ")
            )
            .map_err(stdout_error)?;
        }
    }
    stdout.flush().map_err(stdout_error)?;
    Ok(Success::default())
}
