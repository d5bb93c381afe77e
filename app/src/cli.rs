//! The command line: `label`, `encodings`, `decode`, `encode`, `convert`,
//! `inspect`, `explain`, `detect` and `fix`, thin over `mojiscope-core`.
//!
//! [`run`] parses the arguments and runs one command against the standard
//! input and output it is given; it returns what to report on success, or a
//! [`CliError`] that knows its one-line message and exit status. It never
//! writes to standard error itself: `main` does.

mod error;
mod explain;
mod fix;
mod inspect;
mod output;
mod transcode;

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use clap::{Args, CommandFactory as _, Parser, Subcommand, ValueEnum};
use mojiscope_core::{
    BomHandling, DecodeErrorMode, Decoder, EncodeErrorMode, Encoder, Encoding, Group, UTF_8,
};

pub use self::error::CliError;
use self::error::display_name;
use self::output::AtomicOutput;
pub use self::transcode::CHUNK_SIZE;
use self::transcode::{Pipeline, Stop, Totals};

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
    Label {
        /// A label such as "latin1" or "sjis" (whitespace around it is ignored)
        #[arg(value_name = "LABEL")]
        label: OsString,
    },
    /// List every encoding with its labels, grouped as in the standard
    Encodings,
    /// Decode a file (or standard input) and write the text as UTF-8
    Decode(DecodeArgs),
    /// Encode UTF-8 text from a file (or standard input) into an encoding
    Encode(EncodeArgs),
    /// Convert a file from one encoding to another, writing OUT whole or not at all
    Convert(ConvertArgs),
    /// Size, byte order mark, and each encoding's error count and first error offsets
    Inspect(InspectArgs),
    /// Show the decoder's steps for some bytes, as the standard states them
    Explain(ExplainArgs),
    /// Rank the encodings a file may be in: one "NAME<TAB>SCORE" line each, best first
    Detect {
        /// The file to examine ("-" for standard input)
        #[arg(value_name = "FILE")]
        input: PathBuf,
    },
    /// Repair mojibake ("Ã©" for "é") and write the text as UTF-8
    Fix(fix::FixArgs),
}

#[derive(Debug, Args)]
struct InspectArgs {
    /// Write the report as JSON: size, bom, and candidates with encoding,
    /// errors and `first_error_offsets` (the first 100)
    #[arg(long)]
    json: bool,
    /// The file to inspect ("-" for standard input)
    #[arg(value_name = "FILE")]
    input: PathBuf,
}

#[derive(Debug, Args)]
#[command(
    after_help = "The encoding's decoder runs from its initial state over exactly these bytes, \
                  their end being the end of the input (no byte order mark handling). \
                  Each decoded item is shown with its bytes and result, then one line per step, \
                  the standard's step number in brackets."
)]
struct ExplainArgs {
    /// The encoding whose decoder to explain
    #[arg(long, value_name = "LABEL")]
    encoding: OsString,
    /// The bytes, in hex: 82 A0, 82A0, 0x82 0xA0, \x82\xA0, ...
    #[arg(value_name = "HEX", required = true, num_args = 1.., allow_hyphen_values = true)]
    hex: Vec<OsString>,
}

#[derive(Debug, Args)]
struct DecodeArgs {
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

#[derive(Debug, Args)]
struct EncodeArgs {
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

#[derive(Debug, Args)]
struct ConvertArgs {
    /// The encoding to decode from (a byte order mark overrides it)
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

/// Error modes of `decode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum DecodeErrors {
    /// Each error becomes U+FFFD
    Replacement,
    /// Stop at the first error (exit status 1)
    Fatal,
}

/// Error modes of `encode` and `convert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum EncodeErrors {
    /// Stop at the first problem (exit status 1)
    Fatal,
    /// Write each unencodable character as &#N;
    Html,
}

/// The command line's definition, as clap sees it: the man page and the
/// shell completions are generated from it.
pub fn command() -> clap::Command {
    Cli::command()
}

/// What a successful command has to report.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Success {
    /// A one-line summary for standard error (how many characters html mode
    /// wrote as references, say).
    pub summary: Option<String>,
    /// More lines for standard error, each whole (what `fix --explain`
    /// explains).
    pub details: Vec<String>,
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
    let result = match cli.command {
        Some(Command::Label { label }) => label_command(&label, stdout),
        Some(Command::Encodings) => encodings_command(stdout),
        Some(Command::Decode(args)) => decode_command(&args, stdin, stdout),
        Some(Command::Encode(args)) => encode_command(&args, stdin, stdout),
        Some(Command::Convert(args)) => convert_command(&args, stdin),
        Some(Command::Inspect(args)) => {
            inspect::inspect_command(&args.input, args.json, stdin, stdout)
        }
        Some(Command::Explain(args)) => explain_command(&args, stdout),
        Some(Command::Detect { input }) => detect_command(&input, stdin, stdout),
        Some(Command::Fix(args)) => fix::fix_command(&args, stdin, stdout),
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

fn label_command(label: &OsStr, stdout: &mut dyn Write) -> Result<Success, CliError> {
    let encoding = encoding_for(label)?;
    writeln!(stdout, "{}", encoding.name()).map_err(stdout_error)?;
    stdout.flush().map_err(stdout_error)?;
    Ok(Success::default())
}

fn encodings_command(stdout: &mut dyn Write) -> Result<Success, CliError> {
    for group in Group::ALL {
        writeln!(stdout, "{}", group.heading()).map_err(stdout_error)?;
        for encoding in group.encodings() {
            writeln!(
                stdout,
                "  {}\t{}",
                encoding.name(),
                encoding.labels().join(" ")
            )
            .map_err(stdout_error)?;
        }
    }
    stdout.flush().map_err(stdout_error)?;
    Ok(Success::default())
}

fn decode_command(
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

fn encode_command(
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
    let encoder = Encoder::new(encoding, encode_mode(args.errors));
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
            count(totals.references, "character", "characters")
        )
    });
    Ok(Success {
        summary,
        ..Success::default()
    })
}

fn convert_command(args: &ConvertArgs, stdin: &mut dyn Read) -> Result<Success, CliError> {
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
            count(totals.decoding_errors, "decoding error", "decoding errors"),
            count(totals.references, "character", "characters"),
        )
    });
    Ok(Success {
        summary,
        ..Success::default()
    })
}

fn explain_command(args: &ExplainArgs, stdout: &mut dyn Write) -> Result<Success, CliError> {
    let encoding = encoding_for(&args.encoding)?;
    let bytes = explain::bytes_of(&args.hex)?;
    writeln!(stdout, "{}", encoding.explain(&bytes)).map_err(stdout_error)?;
    stdout.flush().map_err(stdout_error)?;
    Ok(Success::default())
}

/// "get an encoding", or the error for an unknown label.
/// `detect`: the ranking on standard output, one `NAME<TAB>SCORE` line per
/// candidate, best first; the notes (sampling, BOM-less UTF-16, weak
/// evidence) as the summary for standard error.
fn detect_command(
    input: &Path,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
) -> Result<Success, CliError> {
    let file = display_name(input);
    let bytes = read_input(input, stdin)?;
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

fn encoding_for(label: &OsStr) -> Result<&'static Encoding, CliError> {
    Encoding::for_label(label.as_encoded_bytes()).ok_or_else(|| CliError::UnknownLabel {
        label: label.to_string_lossy().into_owned(),
    })
}

fn encode_mode(errors: EncodeErrors) -> EncodeErrorMode {
    match errors {
        EncodeErrors::Fatal => EncodeErrorMode::Fatal,
        EncodeErrors::Html => EncodeErrorMode::Html,
    }
}

/// Opens `path` (standard input for `-`) and runs `body` over it.
/// The whole of `path` (standard input for `-`), for the commands that need
/// all of it at once.
fn read_input(path: &Path, stdin: &mut dyn Read) -> Result<Vec<u8>, CliError> {
    with_input(path, stdin, |reader| {
        let mut bytes = Vec::new();
        reader
            .read_to_end(&mut bytes)
            .map_err(|source| CliError::Read {
                file: display_name(path),
                source,
            })?;
        Ok(bytes)
    })
}

fn with_input<R>(
    path: &Path,
    stdin: &mut dyn Read,
    body: impl FnOnce(&mut dyn Read) -> Result<R, CliError>,
) -> Result<R, CliError> {
    if path.as_os_str() == "-" {
        return body(stdin);
    }
    let file = display_name(path);
    let mut input = File::open(path).map_err(|source| CliError::Open {
        file: file.clone(),
        source,
    })?;
    // Opening a directory succeeds on some systems; reading it then fails
    // with a less helpful message.
    let metadata = input.metadata().map_err(|source| CliError::Open {
        file: file.clone(),
        source,
    })?;
    if metadata.is_dir() {
        return Err(CliError::IsDirectory { file });
    }
    body(&mut input)
}

/// Flushes standard output after the pipeline, whether it finished or
/// stopped at an error (what came before the error is output).
fn finish_stdout(result: Result<Totals, Stop>, stdout: &mut dyn Write) -> Result<Totals, Stop> {
    let flushed = stdout.flush();
    let totals = result?;
    flushed.map_err(Stop::Write)?;
    Ok(totals)
}

/// The error for a pipeline writing to standard output that stopped.
fn stdout_stop(stop: Stop, file: &str) -> CliError {
    match stop {
        Stop::Write(source) => stdout_error(source),
        stop => data_stop(stop, file),
    }
}

/// The error for a pipeline that stopped at its input.
fn data_stop(stop: Stop, file: &str) -> CliError {
    let file = file.to_owned();
    match stop {
        Stop::Read(source) => CliError::Read { file, source },
        Stop::Write(source) => CliError::Write { file, source },
        Stop::Malformed {
            kind,
            byte_offset,
            bytes,
            encoding,
        } => CliError::Malformed {
            file,
            kind,
            byte_offset,
            bytes,
            encoding,
        },
        Stop::Unencodable {
            character,
            byte_offset,
            char_index,
            encoding,
        } => CliError::Unencodable {
            file,
            character,
            byte_offset,
            char_index,
            encoding,
        },
    }
}

fn stdout_error(source: io::Error) -> CliError {
    if source.kind() == io::ErrorKind::BrokenPipe {
        CliError::StdoutClosed
    } else {
        CliError::Stdout { source }
    }
}

/// "1 character", "2 characters".
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
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
