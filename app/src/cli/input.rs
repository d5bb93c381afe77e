//! How the commands read their input (a file, or standard input for `-`):
//! the one place that opens it, so that every command reports an input it
//! cannot read the same way.
//!
//! No command reads its input whole into memory: a regular file is held as
//! the desktop app holds it ([`FileBytes`]: memory-mapped when large, so its
//! pages are the page cache's and never copies), and standard input, a pipe
//! or a device is read a piece at a time as it comes ([`Input::Stream`]).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use super::error::{CliError, display_name};
use crate::model::document::{FileBytes, LoadError};

/// An opened input.
pub enum Input<'a> {
    /// A regular file's bytes, mapped when large.
    Bytes(FileBytes),
    /// Standard input, or a file that is no regular file (a named pipe, a
    /// device, `/dev/stdin`): its size is unknown until it ends, so it is
    /// read as it comes.
    Stream(Box<dyn Read + 'a>),
}

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
    let (mut input, _) = open_file(path)?;
    body(&mut input)
}

/// Opens `path` (standard input for `-`): a regular file as its bytes
/// ([`Input::Bytes`]), anything else as a stream.
pub fn open_input<'a>(path: &Path, stdin: &'a mut dyn Read) -> Result<Input<'a>, CliError> {
    if path.as_os_str() == "-" {
        return Ok(Input::Stream(Box::new(stdin)));
    }
    let (file, is_file) = open_file(path)?;
    if !is_file {
        return Ok(Input::Stream(Box::new(file)));
    }
    drop(file);
    FileBytes::read(path)
        .map(Input::Bytes)
        .map_err(|error| load_error(error, display_name(path)))
}

/// The most of a stream [`read_file_bytes`] holds: a file is mapped
/// instead, whatever its size.
pub const STREAM_LIMIT: usize = 64 * 1024 * 1024;

/// Opens `path` (standard input for `-`) as bytes, for the commands that
/// need the whole input at once (the segments of a file in several
/// encodings): a regular file mapped when large, a stream read into memory
/// up to [`STREAM_LIMIT`] and refused beyond it.
pub fn read_file_bytes(path: &Path, stdin: &mut dyn Read) -> Result<FileBytes, CliError> {
    match open_input(path, stdin)? {
        Input::Bytes(bytes) => Ok(bytes),
        Input::Stream(reader) => {
            let file = display_name(path);
            let mut bytes = Vec::new();
            reader
                .take(STREAM_LIMIT as u64 + 1)
                .read_to_end(&mut bytes)
                .map_err(|source| CliError::Read {
                    file: file.clone(),
                    source,
                })?;
            if bytes.len() > STREAM_LIMIT {
                return Err(CliError::StreamTooLong {
                    file,
                    limit: STREAM_LIMIT,
                });
            }
            Ok(FileBytes::from(bytes))
        }
    }
}

/// Opens `path`; returns it and whether it is a regular file.
fn open_file(path: &Path) -> Result<(File, bool), CliError> {
    let file = display_name(path);
    let input = File::open(path).map_err(|source| CliError::Open {
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
    Ok((input, metadata.is_file()))
}

/// Reads until `buffer` is full or the input ends; returns how much was
/// read (less than `buffer.len()` only at the end).
///
/// # Errors
/// The reader's, but [`io::ErrorKind::Interrupted`], which is retried.
pub fn fill(reader: &mut dyn Read, buffer: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(filled)
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
