//! `mojiscope inspect FILE [--json]`: what the desktop app's background jobs
//! learn of a file, without a window: its size, its byte order mark, and for
//! every override choice how many errors its decoder reports and where the
//! first ones are.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;
use mojiscope_core::{ALL, Encoding};
use serde::Serialize;

use super::error::{CliError, display_name};
use super::input::read_file_bytes;
use super::output::{Success, stdout_error};
use crate::model::analysis::counts::{ErrorCount, count_errors};
use crate::model::wording::plural;

#[derive(Debug, Args)]
pub struct InspectArgs {
    /// Write the report as JSON: size, bom, and candidates with encoding,
    /// errors and `first_error_offsets` (the first 100)
    #[arg(long)]
    json: bool,
    /// The file to inspect ("-" for standard input)
    #[arg(value_name = "FILE")]
    input: PathBuf,
}

/// Offsets shown per encoding in the plain-text report (the JSON has all
/// [`FIRST_ERROR_OFFSETS`](crate::model::analysis::counts::FIRST_ERROR_OFFSETS)).
const SHOWN_OFFSETS: usize = 8;

/// The JSON report: field names are part of the command-line contract.
#[derive(Debug, Serialize)]
struct Report<'a> {
    size: u64,
    bom: Option<&'static str>,
    segments: Vec<super::segments::SegmentReport>,
    candidates: Vec<Candidate<'a>>,
}

#[derive(Debug, Serialize)]
struct Candidate<'a> {
    encoding: &'static str,
    errors: u64,
    first_error_offsets: &'a [u64],
}

/// Runs `inspect` on its file (standard input for `-`).
pub fn run(
    args: &InspectArgs,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
) -> Result<Success, CliError> {
    let file = display_name(&args.input);
    let bytes = read_file_bytes(&args.input, stdin)?;
    let bom = mojiscope_core::bom_sniff(&bytes);
    let choices: Vec<&'static Encoding> = ALL
        .iter()
        .copied()
        .filter(|encoding| encoding.is_override_choice())
        .collect();
    let never = AtomicBool::new(false);
    let counts = count_errors(&bytes, &choices, &never)
        .expect("counting is only cancelled through its flag, which stays unset");
    let size = bytes.len() as u64;
    let (segments, segment_lines) = super::segments::report(&bytes);
    if args.json {
        write_json(size, bom, segments, &counts, stdout)
    } else {
        write_text(&file, size, bom, &counts, stdout).and_then(|()| {
            writeln!(stdout, "segments (byte ranges, each in one encoding):")?;
            segment_lines
                .iter()
                .try_for_each(|line| writeln!(stdout, "{line}"))
        })
    }
    .map_err(stdout_error)?;
    stdout.flush().map_err(stdout_error)?;
    Ok(Success::default())
}

fn write_json(
    size: u64,
    bom: Option<&'static Encoding>,
    segments: Vec<super::segments::SegmentReport>,
    counts: &[ErrorCount],
    stdout: &mut dyn Write,
) -> io::Result<()> {
    let report = Report {
        size,
        bom: bom.map(Encoding::name),
        segments,
        candidates: counts
            .iter()
            .map(|count| Candidate {
                encoding: count.encoding.name(),
                errors: count.errors,
                first_error_offsets: &count.first_error_offsets,
            })
            .collect(),
    };
    serde_json::to_writer_pretty(&mut *stdout, &report)?;
    writeln!(stdout)
}

fn write_text(
    file: &str,
    size: u64,
    bom: Option<&'static Encoding>,
    counts: &[ErrorCount],
    stdout: &mut dyn Write,
) -> io::Result<()> {
    writeln!(stdout, "file: {file}")?;
    writeln!(stdout, "size: {}", plural(size, "byte", "bytes"))?;
    match bom {
        Some(bom) => writeln!(
            stdout,
            "byte order mark: {} (the standard's decode uses it whatever the label)",
            bom.name()
        )?,
        None => writeln!(stdout, "byte order mark: none")?,
    }
    writeln!(
        stdout,
        "errors per encoding (its decoder over every byte, no BOM handling):"
    )?;
    let name_width = counts
        .iter()
        .map(|count| count.encoding.name().len())
        .max()
        .unwrap_or(0);
    for count in counts {
        write!(
            stdout,
            "  {:<name_width$}  {:>10}",
            count.encoding.name(),
            count.errors
        )?;
        if !count.first_error_offsets.is_empty() {
            write!(stdout, "  first at")?;
            for offset in count.first_error_offsets.iter().take(SHOWN_OFFSETS) {
                write!(stdout, " {offset}")?;
            }
            if count.errors > SHOWN_OFFSETS as u64 {
                write!(stdout, " …")?;
            }
        }
        writeln!(stdout)?;
    }
    Ok(())
}
