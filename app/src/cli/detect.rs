//! `mojiscope detect FILE`: the ranking on standard output, one
//! `NAME<TAB>SCORE` line per candidate, best first; the notes (sampling,
//! UTF-16 without a byte order mark, what the file declares and whether the
//! bytes agree, weak evidence) as the summary for standard error.
//!
//! A file is examined as detection examines any buffer: whole up to 256 KiB,
//! else a few windows of it (its pages are mapped, and only the windows are
//! read). Standard input is read to its end through a bounded sample (see
//! [`super::sample`]).

use std::io::{Read, Write};
use std::path::PathBuf;

use clap::Args;
use mojiscope_core::{Detection, Note, detect};

use super::error::{CliError, display_name};
use super::input::{Input, open_input};
use super::output::{Success, stdout_error};
use super::sample;

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
    let detection = match open_input(&args.input, stdin)? {
        Input::Bytes(bytes) => detect(&bytes),
        Input::Stream(mut reader) => {
            let sample = sample::read(&mut reader).map_err(|source| CliError::Read {
                file: file.clone(),
                source,
            })?;
            detect_sample(&sample)
        }
    };
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

/// Detection over a stream's sample: its windows joined are examined whole,
/// and the notes say they were a sample of a longer stream.
fn detect_sample(sample: &sample::Sample) -> Detection {
    let mut detection = detect(&sample.bytes);
    if sample.windows > 1 {
        let examined = sample.bytes.len() as u64;
        // Where detection says it of a file: after what it says of the
        // bytes as a whole (empty, ASCII only).
        let at = detection
            .notes
            .iter()
            .take_while(|note| matches!(note, Note::Empty | Note::AsciiOnly))
            .count();
        detection.notes.insert(
            at,
            Note::Sampled {
                windows: sample.windows,
                bytes_examined: examined,
                byte_len: sample.byte_len,
            },
        );
        detection.bytes_examined = examined;
    }
    detection
}
