//! `mojiscope detect FILE`: the ranking on standard output, one
//! `NAME<TAB>SCORE` line per candidate, best first; the notes (sampling,
//! UTF-16 without a byte order mark, weak evidence) as the summary for
//! standard error.

use std::io::{Read, Write};
use std::path::PathBuf;

use clap::Args;

use super::error::{CliError, display_name};
use super::input::read_input;
use super::output::{Success, stdout_error};

#[derive(Debug, Args)]
pub struct DetectArgs {
    /// Print the parts of the file in different encodings instead, one
    /// "START<TAB>END<TAB>NAME" line each (byte offsets, END exclusive)
    #[arg(long)]
    segments: bool,
    /// The file to examine ("-" for standard input)
    #[arg(value_name = "FILE")]
    input: PathBuf,
}

/// Runs `detect`.
pub fn run(
    args: &DetectArgs,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
) -> Result<Success, CliError> {
    if args.segments {
        return super::segments::run_detect(&args.input, stdin, stdout);
    }
    let file = display_name(&args.input);
    let bytes = read_input(&args.input, stdin)?;
    let detection = mojiscope_core::detect(&bytes);
    for candidate in &detection.candidates {
        writeln!(
            stdout,
            "{}\t{:.4}",
            candidate.encoding.name(),
            candidate.score
        )
        .map_err(stdout_error)?;
    }
    stdout.flush().map_err(stdout_error)?;
    let notes: Vec<String> = detection.notes.iter().map(ToString::to_string).collect();
    Ok(Success {
        summary: (!notes.is_empty()).then(|| format!("{file}: {}", notes.join("; "))),
        details: Vec::new(),
    })
}
