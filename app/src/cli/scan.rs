//! `mojiscope scan [--json] PATH...`: every regular file under the paths,
//! one `PATH<TAB>ENCODING<TAB>CONFIDENCE<TAB>ERRORS<TAB>NOTES` line each
//! (or one JSON array), from the model's scan ([`scan_tree`]): files
//! scanned in parallel on every core, reported in order as they finish.
//!
//! Symbolic links, FIFOs, sockets and devices are skipped, never opened,
//! and said so on standard error; so is every entry that cannot be read,
//! which does not stop the scan but makes its exit status 2.

use std::io::{self, Read, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::thread;

use clap::Args;
use mojiscope_core::Encoding;
use serde::Serialize;

use super::error::{CliError, display_name};
use super::output::{Success, stdout_error};
use crate::model::scan::{FileScan, Outcome, ScanItem, scan_tree};
use crate::model::wording::{plural, reason};

#[derive(Debug, Args)]
pub struct ScanArgs {
    /// Write one JSON array of objects, one for each file: its path, size,
    /// encoding, confidence, errors, BOM and declaration, whether it is
    /// binary, mojibake, UTF-16 without a BOM, or weakly detected, and its
    /// segments (runs of lines in one encoding)
    #[arg(long)]
    json: bool,
    /// Files and directories to scan; directories are walked recursively,
    /// symbolic links are not followed
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,
}

/// The JSON object of one file: field names are part of the command-line
/// contract.
#[derive(Debug, Serialize)]
struct FileReport<'a> {
    path: String,
    size: u64,
    encoding: &'static str,
    confidence: f64,
    errors: u64,
    bom: Option<&'static str>,
    declared: Option<Declared<'a>>,
    binary: bool,
    mojibake: Option<Mojibake<'a>>,
    segments: Vec<SegmentReport>,
    utf16_without_bom: bool,
    weak: bool,
}

/// One run of lines in one encoding, as `inspect --json` writes it.
#[derive(Debug, Serialize)]
struct SegmentReport {
    start: u64,
    end: u64,
    encoding: &'static str,
}

/// What a file declares, as `inspect --json` writes it.
#[derive(Debug, Serialize)]
struct Declared<'a> {
    encoding: &'static str,
    label: &'a str,
    source: &'static str,
    offset: u64,
}

#[derive(Debug, Serialize)]
struct Mojibake<'a> {
    damage: &'a str,
    changes: usize,
}

/// Runs `scan`.
pub fn run(
    args: &ScanArgs,
    _stdin: &mut dyn Read,
    stdout: &mut dyn Write,
) -> Result<Success, CliError> {
    let workers = thread::available_parallelism().map_or(1, NonZeroUsize::get);
    let never = AtomicBool::new(false);
    let mut notes: Vec<String> = Vec::new();
    let mut unreadable: u64 = 0;
    let mut files: u64 = 0;
    if args.json {
        stdout.write_all(b"[").map_err(stdout_error)?;
    }
    scan_tree(&args.paths, workers, &never, |item: ScanItem| {
        let path = display_name(&item.path);
        match item.outcome {
            Outcome::Scanned(scan) => {
                let written = if args.json {
                    // JSON escapes what it must itself.
                    let path = item.path.to_string_lossy();
                    write_json(&path, &scan, files == 0, stdout)
                } else {
                    write_line(&path, &scan, stdout)
                };
                files += 1;
                written.map_err(stdout_error)
            }
            Outcome::Skipped(special) => {
                notes.push(format!("{path}: skipped: {}", special.describe()));
                Ok(())
            }
            Outcome::Unreadable(error) => {
                unreadable += 1;
                let (what, source) = error.parts();
                notes.push(match source {
                    Some(source) => format!("{path}: {what}: {}", reason(source)),
                    None => format!("{path}: {what}"),
                });
                Ok(())
            }
        }
    })?;
    if args.json {
        let end: &[u8] = if files == 0 { b"]\n" } else { b"\n]\n" };
        stdout.write_all(end).map_err(stdout_error)?;
    }
    stdout.flush().map_err(stdout_error)?;
    if unreadable > 0 {
        return Err(CliError::ScanIncomplete {
            details: notes,
            unreadable: plural(unreadable, "entry", "entries"),
            scanned: plural(files, "file", "files"),
        });
    }
    Ok(Success {
        summary: None,
        details: notes,
    })
}

/// The ENCODING column: the best reading's name, or `binary`.
fn encoding_name(scan: &FileScan) -> &'static str {
    scan.encoding.map_or("binary", Encoding::name)
}

/// `PATH<TAB>ENCODING<TAB>CONFIDENCE<TAB>ERRORS<TAB>NOTES`.
fn write_line(path: &str, scan: &FileScan, stdout: &mut dyn Write) -> io::Result<()> {
    writeln!(
        stdout,
        "{path}\t{}\t{:.4}\t{}\t{}",
        encoding_name(scan),
        scan.confidence,
        scan.errors,
        scan.notes().join(" ")
    )
}

/// One object of the array, after a comma unless it is the first.
fn write_json(path: &str, scan: &FileScan, first: bool, stdout: &mut dyn Write) -> io::Result<()> {
    let report = FileReport {
        path: path.to_owned(),
        size: scan.size,
        encoding: encoding_name(scan),
        confidence: scan.confidence,
        errors: scan.errors,
        bom: scan.bom.map(mojiscope_core::Encoding::name),
        declared: scan.declared.as_ref().map(|declared| Declared {
            encoding: declared.encoding.name(),
            label: &declared.label,
            source: declared.source.as_str(),
            offset: declared.byte_offset,
        }),
        binary: scan.binary,
        mojibake: scan.mojibake.as_ref().map(|mojibake| Mojibake {
            damage: &mojibake.damage,
            changes: mojibake.changes,
        }),
        segments: scan
            .segments
            .iter()
            .map(|segment| SegmentReport {
                start: segment.byte_span.start,
                end: segment.byte_span.end,
                encoding: segment.encoding.name(),
            })
            .collect(),
        utf16_without_bom: scan.utf16_without_bom,
        weak: scan.weak,
    };
    stdout.write_all(if first { b"\n" } else { b",\n" })?;
    serde_json::to_writer(&mut *stdout, &report)?;
    Ok(())
}
