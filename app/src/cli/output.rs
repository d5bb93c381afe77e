//! What the commands give back: what a successful command reports
//! ([`Success`]), standard output's errors, and an output file that appears
//! whole or not at all ([`AtomicOutput`]: the desktop app's [`AtomicFile`],
//! with the command line's messages).

use std::fs::File;
use std::io;
use std::path::Path;

use super::error::{CliError, display_name};
use crate::model::save::{AtomicFile, SaveError, WriteOptions};

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

/// The error for a failed write to standard output: a reader that closed it
/// (`| head`) is not an error worth reporting.
pub fn stdout_error(source: io::Error) -> CliError {
    if source.kind() == io::ErrorKind::BrokenPipe {
        CliError::StdoutClosed
    } else {
        CliError::Stdout { source }
    }
}

/// A temporary file that becomes the target on [`commit`](Self::commit), and
/// is removed if dropped before that (see [`AtomicFile`]: it is synced to
/// disk before the rename, and stale temporary files of earlier killed runs
/// in the same directory are removed).
#[derive(Debug)]
pub struct AtomicOutput {
    file: AtomicFile,
}

impl AtomicOutput {
    /// Checks that `target` may be written (its directory exists; it does not
    /// exist itself unless `force`), then creates the temporary file.
    ///
    /// # Errors
    /// [`CliError::OutputExists`], [`CliError::OutputDirectoryMissing`],
    /// [`CliError::OutputNotAFile`], or [`CliError::Write`] if the temporary
    /// file cannot be created.
    pub fn create(target: &Path, force: bool) -> Result<Self, CliError> {
        let options = WriteOptions {
            overwrite: force,
            backup: false,
        };
        AtomicFile::create(target, options)
            .map(|file| Self { file })
            .map_err(|error| cli_error(error, target))
    }

    /// The temporary file, to write to.
    pub fn file(&self) -> &File {
        self.file.file()
    }

    /// Syncs the temporary file to disk and renames it to the target. Without
    /// `force`, the rename fails if the target appeared in the meantime.
    ///
    /// # Errors
    /// [`CliError::OutputExists`] or [`CliError::Write`]; the temporary file
    /// is removed in either case.
    pub fn commit(self) -> Result<(), CliError> {
        let target = self.file.target().to_owned();
        self.file
            .commit()
            .map(drop)
            .map_err(|error| cli_error(error, &target))
    }
}

/// The command line's error for a failure to write `target`.
fn cli_error(error: SaveError, target: &Path) -> CliError {
    let file = display_name(target);
    match error {
        SaveError::NotAFile { .. } => CliError::OutputNotAFile { file },
        SaveError::DirectoryMissing { directory } => CliError::OutputDirectoryMissing {
            file,
            directory: display_name(&directory),
        },
        SaveError::Exists { .. } => CliError::OutputExists { file },
        SaveError::IsDirectory { .. } => CliError::Write {
            file,
            source: io::Error::new(io::ErrorKind::IsADirectory, "is a directory"),
        },
        SaveError::ReadOnly { source, .. }
        | SaveError::DiskFull { source, .. }
        | SaveError::Io { source, .. } => CliError::Write { file, source },
    }
}
