//! `mojiscope decode`: a file (or standard input) decoded and written to
//! standard output as UTF-8, streaming.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use mojiscope_core::{BomHandling, DecodeErrorMode, Decoder};

use super::args::encoding_for;
use super::error::{CliError, display_name};
use super::input::with_input;
use super::output::Success;
use super::transcode::{Pipeline, finish_stdout, stdout_stop};

#[derive(Debug, Args)]
pub struct DecodeArgs {
    /// The encoding to decode from (a byte order mark overrides it unless --no-bom)
    #[arg(long, value_name = "LABEL", default_value = "UTF-8")]
    encoding: OsString,
    /// Do not look for a byte order mark: the encoding's decoder sees every byte
    #[arg(long)]
    no_bom: bool,
    /// What to do with bytes that do not decode
    #[arg(long, value_enum, value_name = "MODE", default_value_t = DecodeErrors::Replacement)]
    errors: DecodeErrors,
    /// The file to decode; "-" or nothing for standard input
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
}

/// Error modes of `decode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum DecodeErrors {
    /// Each error becomes U+FFFD
    Replacement,
    /// Stop at the first error (exit status 1)
    Fatal,
}

/// Runs `decode`.
pub fn run(
    args: &DecodeArgs,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
) -> Result<Success, CliError> {
    let encoding = encoding_for(&args.encoding)?;
    let input_path = args.input.as_deref().unwrap_or(Path::new("-"));
    let file = display_name(input_path);
    let mode = match args.errors {
        DecodeErrors::Replacement => DecodeErrorMode::Replacement,
        DecodeErrors::Fatal => DecodeErrorMode::Fatal,
    };
    let bom = if args.no_bom {
        BomHandling::None
    } else {
        BomHandling::Sniff
    };
    let decoder = Decoder::new(encoding, mode, bom);
    with_input(input_path, stdin, |input| {
        let result = Pipeline::decoding(decoder).run(input, stdout);
        // What was decoded before an error is flushed before it is reported.
        finish_stdout(result, stdout).map_err(|stop| stdout_stop(stop, &file))
    })?;
    Ok(Success::default())
}
