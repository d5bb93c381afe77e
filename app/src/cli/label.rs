//! `mojiscope label LABEL`: the name of the encoding a label stands for
//! (the standard's "get an encoding").

use std::ffi::OsString;
use std::io::{Read, Write};

use clap::Args;

use super::args::encoding_for;
use super::error::CliError;
use super::output::{Success, stdout_error};

#[derive(Debug, Args)]
pub struct LabelArgs {
    /// A label such as "latin1" or "sjis" (whitespace around it is ignored)
    #[arg(value_name = "LABEL")]
    label: OsString,
}

/// Runs `label`.
pub fn run(
    args: &LabelArgs,
    _stdin: &mut dyn Read,
    stdout: &mut dyn Write,
) -> Result<Success, CliError> {
    let encoding = encoding_for(&args.label)?;
    writeln!(stdout, "{}", encoding.name()).map_err(stdout_error)?;
    stdout.flush().map_err(stdout_error)?;
    Ok(Success::default())
}
