//! An output file that appears whole or not at all: written to a temporary
//! file beside the target and renamed into place only once complete.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use super::error::{CliError, display_name};

/// A temporary file that becomes `target` on [`commit`](Self::commit), and
/// is removed if dropped before that.
#[derive(Debug)]
pub struct AtomicOutput {
    temp: NamedTempFile,
    target: PathBuf,
    force: bool,
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
        let file = display_name(target);
        if target.file_name().is_none() {
            return Err(CliError::OutputNotAFile { file });
        }
        // An empty parent means the current directory.
        let directory = target
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        if !directory.is_dir() {
            return Err(CliError::OutputDirectoryMissing {
                file,
                directory: display_name(directory),
            });
        }
        // `symlink_metadata` so that a dangling symbolic link counts too.
        let existing = fs::symlink_metadata(target).ok();
        if existing.is_some() && !force {
            return Err(CliError::OutputExists { file });
        }
        let mut builder = tempfile::Builder::new();
        builder.prefix(".mojiscope-").suffix(".tmp");
        // Not the temporary file's private 0600: a new file gets the usual
        // permissions (0666 less the umask).
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let temp = builder
            .tempfile_in(directory)
            .map_err(|source| CliError::Write {
                file: file.clone(),
                source,
            })?;
        // A file replaced keeps its permissions.
        if let Some(metadata) = existing.filter(fs::Metadata::is_file) {
            temp.as_file()
                .set_permissions(metadata.permissions())
                .map_err(|source| CliError::Write { file, source })?;
        }
        Ok(Self {
            temp,
            target: target.to_owned(),
            force,
        })
    }

    /// The temporary file, to write to.
    pub fn file(&self) -> &File {
        self.temp.as_file()
    }

    /// Syncs the temporary file to disk and renames it to the target. Without
    /// `force`, the rename fails if the target appeared in the meantime.
    ///
    /// # Errors
    /// [`CliError::OutputExists`] or [`CliError::Write`]; the temporary file
    /// is removed in either case.
    pub fn commit(self) -> Result<(), CliError> {
        let file = display_name(&self.target);
        self.temp
            .as_file()
            .sync_all()
            .map_err(|source| CliError::Write {
                file: file.clone(),
                source,
            })?;
        let persisted = if self.force {
            self.temp.persist(&self.target)
        } else {
            self.temp.persist_noclobber(&self.target)
        };
        // On failure the error owns the temporary file; dropping it removes it.
        persisted
            .map(drop)
            .map_err(|error| match error.error.kind() {
                io::ErrorKind::AlreadyExists => CliError::OutputExists { file },
                _ => CliError::Write {
                    file,
                    source: error.error,
                },
            })
    }
}
