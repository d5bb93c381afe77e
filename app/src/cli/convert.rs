//! `mojiscope convert`: a file decoded from one encoding and encoded into
//! another, streaming, written to OUT whole or not at all.

use std::ffi::OsString;
use std::io::{BufWriter, Read, Write};
use std::path::PathBuf;

use clap::Args;
use mojiscope_core::{BomHandling, DecodeErrorMode, Decoder, EncodeErrorMode, Encoder};

use super::args::{EncodeErrors, encoding_for};
use super::error::{CliError, display_name};
use super::input::with_input;
use super::output::{AtomicOutput, Success};
use super::transcode::{CHUNK_SIZE, Pipeline, Stop, data_stop};
use crate::model::wording::plural;

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The encoding to decode from (a byte order mark overrides it); `auto`
    /// decodes each part of the file in the encoding detection finds for it
    #[arg(long, value_name = "LABEL")]
    from: OsString,
    /// The encoding to encode into (its output encoding)
    #[arg(long, value_name = "LABEL")]
    to: OsString,
    /// fatal: stop at the first problem and write nothing; html: U+FFFD for
    /// bytes that do not decode, &#N; for characters that cannot be encoded
    #[arg(long, value_enum, value_name = "MODE", default_value_t = EncodeErrors::Fatal)]
    errors: EncodeErrors,
    /// Overwrite OUT if it exists
    #[arg(long)]
    force: bool,
    /// The file to convert ("-" for standard input)
    #[arg(value_name = "IN")]
    input: PathBuf,
    /// The file to write
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: PathBuf,
}

/// Runs `convert`.
pub fn run(
    args: &ConvertArgs,
    stdin: &mut dyn Read,
    _stdout: &mut dyn Write,
) -> Result<Success, CliError> {
    if args.from.eq_ignore_ascii_case("auto") {
        let to = encoding_for(&args.to)?;
        return super::segments::convert_auto(
            &args.input,
            to,
            args.errors,
            &args.output,
            args.force,
            stdin,
        );
    }
    let from = encoding_for(&args.from)?;
    let to = encoding_for(&args.to)?;
    let file = display_name(&args.input);
    let output_name = display_name(&args.output);
    let (decode_mode, encode_mode) = match args.errors {
        EncodeErrors::Fatal => (DecodeErrorMode::Fatal, EncodeErrorMode::Fatal),
        EncodeErrors::Html => (DecodeErrorMode::Replacement, EncodeErrorMode::Html),
    };
    // The standard's "decode": a byte order mark picks the encoding, `from`
    // is the fallback.
    let decoder = Decoder::new(from, decode_mode, BomHandling::Sniff);
    let encoder = Encoder::new(to, encode_mode);
    let output_encoding = encoder.encoding();
    let totals = with_input(&args.input, stdin, |input| {
        // Checked before decoding anything, and again when renaming.
        let output = AtomicOutput::create(&args.output, args.force)?;
        let mut writer = BufWriter::with_capacity(CHUNK_SIZE, output.file());
        let not_written = |error| CliError::NotWritten {
            output: output_name.clone(),
            error: Box::new(error),
        };
        let write_error = |source| CliError::Write {
            file: output_name.clone(),
            source,
        };
        let totals = Pipeline::transcoding(decoder, encoder)
            .run(input, &mut writer)
            .map_err(|stop| match stop {
                Stop::Write(source) => write_error(source),
                stop => not_written(data_stop(stop, &file)),
            })?;
        writer.flush().map_err(write_error)?;
        drop(writer);
        output.commit()?;
        Ok(totals)
    })?;
    let summary = (args.errors == EncodeErrors::Html).then(|| {
        format!(
            "{output_name}: written in {output_encoding}, with U+FFFD for {} and numeric character \
             references (&#N;) for {} that {output_encoding} cannot encode",
            plural(totals.decoding_errors, "decoding error", "decoding errors"),
            plural(totals.references, "character", "characters"),
        )
    });
    Ok(Success {
        summary,
        ..Success::default()
    })
}
