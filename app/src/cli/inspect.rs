//! `mojiscope inspect FILE [--json]`: what the desktop app's background jobs
//! learn of a file, without a window: its size, its byte order mark, what it
//! declares of its own encoding, and for every override choice how many
//! errors its decoder reports and where the first ones are.
//!
//! A file is counted over its mapped pages; standard input (or a pipe) is
//! counted a piece at a time as it comes, keeping only its first KiB for
//! the byte order mark and the declaration.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;
use mojiscope_core::{ALL, Declaration, Encoding, PRESCAN_BYTES, bom_sniff, declared};
use serde::Serialize;

use super::error::{CliError, display_name};
use super::input::{Input, fill, open_input};
use super::output::{Success, stdout_error};
use super::segments::{self, SegmentReport};
use crate::model::analysis::counts::{ErrorCount, StreamingCounts, count_errors};
use crate::model::wording::plural;

#[derive(Debug, Args)]
pub struct InspectArgs {
    /// Write the report as JSON: size, bom, declared (null or encoding,
    /// label, source and offset), and candidates with encoding, errors and
    /// `first_error_offsets` (the first 100)
    #[arg(long)]
    json: bool,
    /// The file to inspect ("-" for standard input)
    #[arg(value_name = "FILE")]
    input: PathBuf,
}

/// Offsets shown per encoding in the plain-text report (the JSON has all
/// [`FIRST_ERROR_OFFSETS`](crate::model::analysis::counts::FIRST_ERROR_OFFSETS)).
const SHOWN_OFFSETS: usize = 8;

/// The start of standard input in which `inspect` looks for segments (a
/// file's, it finds over the whole file).
const SEGMENTS_HEAD: usize = 2 * 1024 * 1024;
// The start kept holds the declaration too.
const _: () = assert!(SEGMENTS_HEAD >= PRESCAN_BYTES + 3);

/// Standard input is counted in pieces of this many bytes.
const PIECE: usize = 4 * 1024 * 1024;

/// The JSON report: field names are part of the command-line contract.
#[derive(Debug, Serialize)]
struct Report<'a> {
    size: u64,
    bom: Option<&'static str>,
    declared: Option<Declared<'a>>,
    segments: &'a [SegmentReport],
    candidates: Vec<Candidate<'a>>,
}

/// What the file declares of its own encoding.
#[derive(Debug, Serialize)]
struct Declared<'a> {
    /// The encoding the label stands for.
    encoding: &'static str,
    /// The label as written.
    label: &'a str,
    /// `html-meta`, `xml-declaration` or `css-charset`.
    source: &'static str,
    /// The offset of the label's first byte.
    offset: u64,
}

/// What `inspect` learns of its input.
struct Findings {
    size: u64,
    bom: Option<&'static Encoding>,
    declaration: Option<Declaration>,
    /// The runs of lines in one encoding, for JSON and for the plain report.
    segments: (Vec<SegmentReport>, Vec<String>),
    counts: Vec<ErrorCount>,
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
    let choices: Vec<&'static Encoding> = ALL
        .iter()
        .copied()
        .filter(|encoding| encoding.is_override_choice())
        .collect();
    let findings = match open_input(&args.input, stdin)? {
        Input::Bytes(bytes) => {
            let never = AtomicBool::new(false);
            Findings {
                size: bytes.len() as u64,
                bom: bom_sniff(&bytes),
                declaration: declared(&bytes),
                segments: segments::report(&bytes, bytes.len() as u64),
                counts: count_errors(&bytes, &choices, &never)
                    .expect("counting is only cancelled through its flag, which stays unset"),
            }
        }
        Input::Stream(mut reader) => {
            stream(&mut reader, &choices).map_err(|source| CliError::Read {
                file: file.clone(),
                source,
            })?
        }
    };
    if args.json {
        write_json(&findings, stdout)
    } else {
        write_text(&file, &findings, stdout)
    }
    .map_err(stdout_error)?;
    stdout.flush().map_err(stdout_error)?;
    Ok(Success::default())
}

/// Counts a stream a piece at a time, keeping its start for the byte order
/// mark and the declaration (which are in its first KiB) and the segments
/// (found in its first [`SEGMENTS_HEAD`] bytes).
fn stream(reader: &mut dyn Read, choices: &[&'static Encoding]) -> io::Result<Findings> {
    // The prescan and CSS's @charset look at the first 1024 bytes after a
    // byte order mark (at most three bytes); the segments, at more.
    const HEAD: usize = SEGMENTS_HEAD;
    let mut counts = StreamingCounts::new(choices);
    let mut head: Vec<u8> = Vec::with_capacity(HEAD);
    let mut piece = vec![0; PIECE];
    let mut size = 0u64;
    loop {
        let n = fill(reader, &mut piece)?;
        if head.len() < HEAD {
            let wanted = (HEAD - head.len()).min(n);
            head.extend_from_slice(&piece[..wanted]);
        }
        counts.feed(&piece[..n]);
        size += n as u64;
        if n < piece.len() {
            break;
        }
    }
    Ok(Findings {
        size,
        bom: bom_sniff(&head),
        declaration: declared(&head),
        segments: segments::report(&head, size),
        counts: counts.finish(),
    })
}

fn write_json(findings: &Findings, stdout: &mut dyn Write) -> io::Result<()> {
    let report = Report {
        size: findings.size,
        bom: findings.bom.map(Encoding::name),
        declared: findings.declaration.as_ref().map(|declaration| Declared {
            encoding: declaration.encoding.name(),
            label: &declaration.label,
            source: declaration.source.as_str(),
            offset: declaration.byte_offset,
        }),
        segments: &findings.segments.0,
        candidates: findings
            .counts
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

fn write_text(file: &str, findings: &Findings, stdout: &mut dyn Write) -> io::Result<()> {
    writeln!(stdout, "file: {file}")?;
    writeln!(stdout, "size: {}", plural(findings.size, "byte", "bytes"))?;
    match findings.bom {
        Some(bom) => writeln!(
            stdout,
            "byte order mark: {} (the standard's decode uses it whatever the label)",
            bom.name()
        )?,
        None => writeln!(stdout, "byte order mark: none")?,
    }
    match &findings.declaration {
        Some(declaration) => {
            write!(
                stdout,
                "declared encoding: {} in {} at byte {}",
                declaration.label, declaration.source, declaration.byte_offset
            )?;
            if !declaration
                .label
                .eq_ignore_ascii_case(declaration.encoding.name())
            {
                write!(stdout, " (read as {})", declaration.encoding)?;
            }
            writeln!(stdout)?;
        }
        None => writeln!(stdout, "declared encoding: none")?,
    }
    let counts = &findings.counts;
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
    writeln!(stdout, "segments (byte ranges, each in one encoding):")?;
    for line in &findings.segments.1 {
        writeln!(stdout, "{line}")?;
    }
    Ok(())
}
