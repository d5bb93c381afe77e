//! `mojiscope encode`: UTF-8 text from a file (or standard input) encoded
//! into an encoding and written to standard output, streaming.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use mojiscope_core::{BomHandling, DecodeErrorMode, Decoder, Encoder, UTF_8};

use super::args::{EncodeErrors, encoding_for};
use super::error::{CliError, display_name};
use super::input::with_input;
use super::output::Success;
use super::transcode::{Pipeline, Stop, finish_stdout, stdout_stop};
use crate::model::wording::plural;

#[derive(Debug, Args)]
pub struct EncodeArgs {
    /// The encoding to encode into (its output encoding: UTF-8 for UTF-16BE/LE and replacement)
    #[arg(long, value_name = "LABEL", default_value = "UTF-8")]
    encoding: OsString,
    /// What to do with characters the encoding cannot encode
    #[arg(long, value_enum, value_name = "MODE", default_value_t = EncodeErrors::Fatal)]
    errors: EncodeErrors,
    /// The UTF-8 file to encode; "-" or nothing for standard input
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
}

/// Runs `encode`.
pub fn run(
    args: &EncodeArgs,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
) -> Result<Success, CliError> {
    let encoding = encoding_for(&args.encoding)?;
    let input_path = args.input.as_deref().unwrap_or(Path::new("-"));
    let file = display_name(input_path);
    // The standard's "UTF-8 decode" (a UTF-8 BOM is removed), but failing at
    // the first error: input that is not UTF-8 is a usage error.
    let decoder = Decoder::new(UTF_8, DecodeErrorMode::Fatal, BomHandling::RemoveUtf8);
    let encoder = Encoder::new(encoding, args.errors.mode());
    let output_encoding = encoder.encoding();
    let totals = with_input(input_path, stdin, |input| {
        let result = Pipeline::transcoding(decoder, encoder).run(input, stdout);
        finish_stdout(result, stdout).map_err(|stop| match stop {
            Stop::Malformed {
                kind,
                byte_offset,
                bytes,
                ..
            } => CliError::NotUtf8 {
                file: file.clone(),
                kind,
                byte_offset,
                bytes,
            },
            stop => stdout_stop(stop, &file),
        })
    })?;
    let summary = (args.errors == EncodeErrors::Html).then(|| {
        format!(
            "{file}: wrote numeric character references (&#N;) for {} that {output_encoding} cannot encode",
            plural(totals.references, "character", "characters")
        )
    });
    Ok(Success {
        summary,
        ..Success::default()
    })
}
