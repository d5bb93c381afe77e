//! The command line: `label`, `encodings`, `decode`, `encode`, `convert`,
//! `inspect`, `explain`, `detect`, `fix` and `scan`, thin over `mojiscope-core` and
//! the app's model.
//!
//! Each subcommand has a file of its own, all of one shape: its arguments
//! (a clap `Args` struct, `XArgs`) and `run(args, stdin, stdout)`, which
//! returns what to report on success ([`Success`]) or a [`CliError`] that
//! knows its one-line message and exit status. This file only parses and
//! dispatches. Beside the subcommands: `input` (how every command reads its
//! input: files mapped, standard input streamed, nothing read whole),
//! `output` (standard output's errors, and files written whole or not at
//! all), `transcode` (the streaming pipeline of `decode`, `encode` and
//! `convert`), `sample` (a bounded sample of a stream, for `detect -`),
//! `args` (what several commands' arguments share) and `error`.
//!
//! [`run`] never writes to standard error itself: [`entry::main`], which
//! both executables run, does.

#![allow(
    rustdoc::invalid_html_tags,
    reason = "the help clap prints writes its lines' fields as \"NAME<TAB>SCORE\""
)]

mod args;
mod convert;
mod decode;
mod detect;
mod encode;
mod encodings;
pub mod entry;
mod error;
mod explain;
mod fix;
mod input;
mod inspect;
mod label;
mod output;
mod sample;
mod scan;
mod segments;
mod transcode;

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::PathBuf;

use clap::{CommandFactory as _, Parser, Subcommand};

pub use self::error::CliError;
use self::error::display_name;
pub use self::output::Success;
pub use self::transcode::CHUNK_SIZE;

/// Look inside text files byte by byte, with an exact implementation of the
/// WHATWG Encoding Standard.
#[derive(Debug, Parser)]
#[command(
    name = "mojiscope",
    version,
    about = "Look inside text files byte by byte, decoding them as the WHATWG Encoding Standard says",
    args_conflicts_with_subcommands = true,
    arg_required_else_help = true,
    after_help = "Exit status: 0 done; 1 a data error in fatal mode; 2 a usage error, an unknown label or an I/O error."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    /// A file to open in the desktop app
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the name of the encoding a label stands for ("get an encoding")
    Label(label::LabelArgs),
    /// List every encoding with its labels, grouped as in the standard
    Encodings(encodings::EncodingsArgs),
    /// Decode a file (or standard input) and write the text as UTF-8
    Decode(decode::DecodeArgs),
    /// Encode UTF-8 text from a file (or standard input) into an encoding
    Encode(encode::EncodeArgs),
    /// Convert a file from one encoding to another, writing OUT whole or not at all
    Convert(convert::ConvertArgs),
    /// Size, byte order mark, and each encoding's error count and first error offsets
    Inspect(inspect::InspectArgs),
    /// Show the decoder's steps for some bytes, as the standard states them
    Explain(explain::ExplainArgs),
    /// Rank the encodings a file may be in: one "NAME<TAB>SCORE" line each, best first
    Detect(detect::DetectArgs),
    /// Repair mojibake ("Ã©" for "é") and write the text as UTF-8
    Fix(fix::FixArgs),
    /// Every file of a tree: one "PATH<TAB>ENCODING<TAB>CONFIDENCE<TAB>ERRORS<TAB>NOTES" line each
    #[command(
        after_help = "ENCODING is what detect ranks first (a byte order mark decides), or binary for a file that is not text. \
ERRORS is that decoder's error count over the whole file. \
NOTES, separated by spaces: bom, declared NAME, mojibake, utf-16-no-bom, weak. \
Files are listed in order: the paths as given, each directory's entries sorted by name. \
Symbolic links, FIFOs, sockets and devices are skipped without being opened; they and unreadable entries are reported on standard error. \
Exit status: 0 done; 2 if an entry could not be read (the scan goes on) or a usage error."
    )]
    Scan(scan::ScanArgs),
}

/// The command line's definition, as clap sees it: the man page and the
/// shell completions are generated from it.
pub fn command() -> clap::Command {
    Cli::command()
}

/// Parses `args` (the program name first) and runs the command, reading
/// standard input from `stdin` and writing to `stdout`, which it flushes.
///
/// # Errors
/// Whatever stopped the command; [`CliError::exit_status`] gives the exit
/// status and its `Display` the message. A closed standard output is not an
/// error: the command stops quietly.
pub fn run<I, T>(args: I, stdin: &mut dyn Read, stdout: &mut dyn Write) -> Result<Success, CliError>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = Cli::try_parse_from(args)?;
    let result = match &cli.command {
        Some(Command::Label(args)) => label::run(args, stdin, stdout),
        Some(Command::Encodings(args)) => encodings::run(args, stdin, stdout),
        Some(Command::Decode(args)) => decode::run(args, stdin, stdout),
        Some(Command::Encode(args)) => encode::run(args, stdin, stdout),
        Some(Command::Convert(args)) => convert::run(args, stdin, stdout),
        Some(Command::Inspect(args)) => inspect::run(args, stdin, stdout),
        Some(Command::Explain(args)) => explain::run(args, stdin, stdout),
        Some(Command::Detect(args)) => detect::run(args, stdin, stdout),
        Some(Command::Fix(args)) => fix::run(args, stdin, stdout),
        Some(Command::Scan(args)) => scan::run(args, stdin, stdout),
        None => Err(CliError::NoDesktopApp {
            // arg_required_else_help: with no FILE, clap has printed the help.
            file: cli.file.as_deref().map(display_name).unwrap_or_default(),
        }),
    };
    match result {
        Err(CliError::StdoutClosed) => Ok(Success::default()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;

    fn run_with(args: &[&str], stdin: &[u8]) -> (Result<Success, CliError>, Vec<u8>) {
        let mut stdout = Vec::new();
        let args = std::iter::once("mojiscope").chain(args.iter().copied());
        let result = run(args, &mut &stdin[..], &mut stdout);
        (result, stdout)
    }

    #[test]
    fn the_arguments_are_consistent() {
        use clap::CommandFactory as _;
        Cli::command().debug_assert();
    }

    #[test]
    fn label_prints_the_name() {
        let (result, stdout) = run_with(&["label", " SJIS\n"], b"");
        assert!(result.is_ok());
        assert_eq!(stdout, b"Shift_JIS\n");
        let (result, _) = run_with(&["label", "latin-1"], b"");
        assert_eq!(
            result.unwrap_err().to_string(),
            "unknown encoding label \"latin-1\" (mojiscope encodings lists them)"
        );
    }

    #[test]
    fn a_file_without_a_subcommand_is_for_the_desktop_app() {
        let (result, _) = run_with(&["notes.txt"], b"");
        let error = result.unwrap_err();
        assert_eq!(error.exit_status(), 2);
        assert!(
            error
                .to_string()
                .ends_with("run: mojiscope decode notes.txt"),
            "{error}"
        );
        let (result, _) = run_with(&[], b"");
        assert_eq!(
            result.unwrap_err().exit_status(),
            2,
            "no arguments: help, exit 2"
        );
    }

    #[test]
    fn encode_summarises_html_mode() {
        let (result, stdout) = run_with(
            &["encode", "--encoding", "latin1", "--errors", "html"],
            "a☃b☃".as_bytes(),
        );
        assert_eq!(stdout, b"a&#9731;b&#9731;");
        let summary = result.unwrap().summary.unwrap();
        assert_eq!(
            summary,
            "<stdin>: wrote numeric character references (&#N;) for 2 characters that windows-1252 cannot encode"
        );
    }

    #[test]
    fn a_closed_stdout_is_not_an_error() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Err(io::ErrorKind::BrokenPipe.into())
            }
        }
        let args = ["mojiscope", "decode"];
        let result = run(args, &mut &b"text"[..], &mut Closed);
        assert_eq!(result.unwrap(), Success::default());
    }
}
