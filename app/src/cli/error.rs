//! The command line's errors: each is one line for the user and an exit status.

use std::io;
use std::path::Path;

use mojiscope_core::repair::NotText;
use mojiscope_core::{DecodeErrorKind, Encoding};
use thiserror::Error;

use crate::model::wording::reason;

/// Exit status of a data error in fatal mode (a decoding error, an
/// unencodable character).
pub const EXIT_DATA_ERROR: u8 = 1;
/// Exit status of a usage error, an unknown label or an I/O error.
pub const EXIT_USAGE: u8 = 2;

/// Why a command failed. The `Display` of each variant is one line, naming
/// the file and, where there is one, the byte offset; the binary prefixes it
/// with `mojiscope: `.
#[derive(Debug, Error)]
pub enum CliError {
    /// The arguments did not parse, or `--help`/`--version` was asked for:
    /// clap prints these itself, in its own format.
    #[error(transparent)]
    Clap(#[from] clap::Error),

    /// A FILE without a subcommand: that opens the desktop app, which does not
    /// exist yet.
    #[error(
        "the desktop app is not part of this build yet; to see the file as text, run: mojiscope decode {file}"
    )]
    NoDesktopApp {
        /// The file, as it would be typed again.
        file: String,
    },

    /// "get an encoding" failed.
    #[error("unknown encoding label {label:?} (mojiscope encodings lists them)")]
    UnknownLabel {
        /// The label as given (lossily decoded).
        label: String,
    },

    /// `explain` was given an argument that is not bytes in hex.
    #[error(
        "invalid bytes {argument:?}: {reason} (give bytes in hex, e.g. 82 A0, 82A0 or 0x82 0xA0)"
    )]
    BadHex {
        /// The argument as given (lossily decoded).
        argument: String,
        /// What is wrong with it.
        reason: String,
    },

    /// `explain` was given more bytes than it explains.
    #[error(
        "{len} bytes given; explain shows the decoder's steps for at most {limit} bytes (decode or inspect the file for more)"
    )]
    ExplainTooLong {
        /// How many bytes the arguments hold.
        len: usize,
        /// The most `explain` takes.
        limit: usize,
    },

    /// An input could not be opened.
    #[error("{file}: cannot open: {}", reason(source))]
    Open {
        /// The file's display name.
        file: String,
        /// Why.
        source: io::Error,
    },

    /// A stream too long for a command that needs its input whole.
    #[error(
        "{file}: longer than {} MiB; this reads its input whole, so give it a file (which it maps) rather than a stream",
        limit / (1024 * 1024)
    )]
    StreamTooLong {
        /// The input's display name.
        file: String,
        /// The most it holds of a stream, in bytes.
        limit: usize,
    },

    /// An input is a directory.
    #[error("{file}: is a directory, not a file")]
    IsDirectory {
        /// The directory's display name.
        file: String,
    },

    /// Reading an input failed.
    #[error("{file}: cannot read: {}", reason(source))]
    Read {
        /// The file's display name.
        file: String,
        /// Why.
        source: io::Error,
    },

    /// Writing to standard output failed (other than because it was closed).
    #[error("cannot write to standard output: {}", reason(source))]
    Stdout {
        /// Why.
        source: io::Error,
    },

    /// Standard output was closed by the reader (`| head`): not reported.
    #[error("standard output was closed")]
    StdoutClosed,

    /// A decoder met an error in fatal mode.
    #[error(
        "{file}: {kind} at byte offset {byte_offset} (bytes: {}) in {encoding}",
        hex(bytes)
    )]
    Malformed {
        /// The input's display name.
        file: String,
        /// What kind of error.
        kind: DecodeErrorKind,
        /// Offset of the error's first byte in the input.
        byte_offset: u64,
        /// The bytes the error covers (as many as were still at hand).
        bytes: Vec<u8>,
        /// The encoding being decoded (a byte order mark may have picked it).
        encoding: &'static Encoding,
    },

    /// `encode` was given input that is not UTF-8.
    #[error(
        "{file}: input is not UTF-8: {kind} at byte offset {byte_offset} (bytes: {})",
        hex(bytes)
    )]
    NotUtf8 {
        /// The input's display name.
        file: String,
        /// What kind of error.
        kind: DecodeErrorKind,
        /// Offset of the error's first byte in the input.
        byte_offset: u64,
        /// The bytes the error covers.
        bytes: Vec<u8>,
    },

    /// An encoder met a character it cannot encode, in fatal mode.
    #[error(
        "{file}: U+{code_point:04X} at byte offset {byte_offset} (character {char_index}) cannot be encoded in {encoding}",
        code_point = u32::from(*character)
    )]
    Unencodable {
        /// The input's display name.
        file: String,
        /// The character.
        character: char,
        /// Offset in the input of the bytes the character was decoded from.
        byte_offset: u64,
        /// How many characters of the text precede it.
        char_index: u64,
        /// The encoding written.
        encoding: &'static Encoding,
    },

    /// `fix` was given input that is not text (random or binary bytes).
    #[error("{file}: {reason} (read as {encoding}); fix repairs text, and wrote nothing")]
    NotText {
        /// The input's display name.
        file: String,
        /// The encoding it was read as.
        encoding: &'static Encoding,
        /// Why it is not text.
        reason: NotText,
    },

    /// `convert` failed after it began; the output file was not written.
    #[error("{error}; {output} was not written")]
    NotWritten {
        /// The output's display name.
        output: String,
        /// What went wrong.
        error: Box<CliError>,
    },

    /// `convert` would overwrite a file.
    #[error("{file}: already exists (use --force to overwrite it)")]
    OutputExists {
        /// The output's display name.
        file: String,
    },

    /// The output's directory does not exist (or is not a directory).
    #[error("{file}: cannot write: no such directory: {directory}")]
    OutputDirectoryMissing {
        /// The output's display name.
        file: String,
        /// The directory's display name.
        directory: String,
    },

    /// The output path names no file (it ends in `/` or `..`).
    #[error("{file}: not a file name")]
    OutputNotAFile {
        /// The output's display name.
        file: String,
    },

    /// `scan` went through every path, but some entries could not be read;
    /// `details` holds what it has to say of each (and of those it
    /// skipped), one line each, for standard error before this message.
    #[error("{unreadable} could not be read ({scanned} scanned)")]
    ScanIncomplete {
        /// One line per entry skipped or unreadable, in the walk's order.
        details: Vec<String>,
        /// "1 entry", "3 entries".
        unreadable: String,
        /// "12 files".
        scanned: String,
    },

    /// Creating, writing or renaming the output failed.
    #[error("{file}: cannot write: {}", reason(source))]
    Write {
        /// The output's display name.
        file: String,
        /// Why.
        source: io::Error,
    },
}

impl CliError {
    /// Lines for standard error before the error's own message (what
    /// `scan` skipped or could not read), often none.
    pub fn details(&self) -> &[String] {
        match self {
            Self::ScanIncomplete { details, .. } => details,
            _ => &[],
        }
    }

    /// The process's exit status for this error: 1 for a data error in fatal
    /// mode, 2 for the rest (clap decides its own: 0 for `--help`).
    pub fn exit_status(&self) -> u8 {
        match self {
            Self::Clap(error) => u8::try_from(error.exit_code()).unwrap_or(EXIT_USAGE),
            Self::Malformed { .. } | Self::Unencodable { .. } => EXIT_DATA_ERROR,
            Self::NotWritten { error, .. } => error.exit_status(),
            Self::StdoutClosed => 0,
            _ => EXIT_USAGE,
        }
    }
}

/// How a file is named in messages: `<stdin>` for `-`, control characters
/// escaped so that a message stays on one line.
pub fn display_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        return "<stdin>".to_owned();
    }
    let mut name = String::new();
    for c in path.to_string_lossy().chars() {
        if c.is_control() {
            name.extend(c.escape_default());
        } else {
            name.push(c);
        }
    }
    name
}

/// Bytes as `0xE3 0x81`.
fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|byte| format!("0x{byte:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_stay_on_one_line() {
        assert_eq!(display_name(Path::new("a\nb.txt")), "a\\nb.txt");
        assert_eq!(display_name(Path::new("-")), "<stdin>");
        assert_eq!(hex(&[0xE3, 0x81]), "0xE3 0x81");
    }

    #[test]
    fn data_errors_exit_1_and_the_rest_2() {
        let malformed = CliError::Malformed {
            file: "a.txt".to_owned(),
            kind: DecodeErrorKind::InvalidByte,
            byte_offset: 3,
            bytes: vec![0xFF],
            encoding: mojiscope_core::UTF_8,
        };
        assert_eq!(
            malformed.to_string(),
            "a.txt: invalid byte at byte offset 3 (bytes: 0xFF) in UTF-8"
        );
        assert_eq!(malformed.exit_status(), 1);
        let wrapped = CliError::NotWritten {
            output: "b.txt".to_owned(),
            error: Box::new(malformed),
        };
        assert_eq!(wrapped.exit_status(), 1);
        assert!(wrapped.to_string().ends_with("; b.txt was not written"));
        assert_eq!(
            CliError::IsDirectory {
                file: "d".to_owned()
            }
            .exit_status(),
            2
        );
    }
}
