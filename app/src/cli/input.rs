//! How the commands read their input (a file, or standard input for `-`):
//! the one place that opens it, so that every command reports an input it
//! cannot read the same way.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use super::error::{CliError, display_name};
use crate::model::document::{FileBytes, LoadError};

/// Opens `path` (standard input for `-`) and runs `body` over it, for the
/// commands that stream.
pub fn with_input<R>(
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

/// The whole of `path` (standard input for `-`), for the commands that need
/// all of it at once.
pub fn read_input(path: &Path, stdin: &mut dyn Read) -> Result<Vec<u8>, CliError> {
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

/// The whole of `path` as the desktop app holds a file (mapped when it is
/// large), or standard input for `-`, read whole.
pub fn read_file_bytes(path: &Path, stdin: &mut dyn Read) -> Result<FileBytes, CliError> {
    let file = display_name(path);
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        stdin
            .read_to_end(&mut bytes)
            .map_err(|source| CliError::Read { file, source })?;
        return Ok(FileBytes::from(bytes));
    }
    FileBytes::read(path).map_err(|error| load_error(error, file))
}

/// The command line's error for a file the document loader could not read.
fn load_error(error: LoadError, file: String) -> CliError {
    match error {
        LoadError::IsDirectory { .. } => CliError::IsDirectory { file },
        LoadError::Read { source, .. } => CliError::Read { file, source },
        LoadError::NotFound { source, .. }
        | LoadError::PermissionDenied { source, .. }
        | LoadError::Open { source, .. } => CliError::Open { file, source },
    }
}
