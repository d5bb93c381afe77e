//! An opened file: its bytes, where it came from, and which load of it this is.
//!
//! A [`Document`] is what background jobs work on and what the views show.
//! Its bytes are shared ([`FileBytes`] is a cheap `Arc` clone), so a job can
//! keep them alive while the window moves on to a newer load of the file;
//! [`Document::generation`] tells results of the two apart.

use std::fmt;
use std::fs::File;
use std::io::{self, Read as _};
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mojiscope_core::{Encoding, bom_sniff};
use thiserror::Error;

/// Files of this size or more are memory-mapped rather than read (see
/// [`FileBytes`]).
pub const MAP_THRESHOLD: u64 = 16 * 1024 * 1024;

/// An opened file.
#[derive(Clone, Debug)]
pub struct Document {
    /// The path it was opened from, as given.
    pub path: PathBuf,
    /// Its bytes, as they were when it was opened.
    pub bytes: FileBytes,
    /// Which load this is: the caller counts up on every open or reload, and
    /// every job's result carries the generation it was computed for.
    pub generation: u64,
    /// The encoding whose byte order mark the file starts with, if any (the
    /// standard's "BOM sniff").
    pub bom: Option<&'static Encoding>,
}

impl Document {
    /// Reads the file at `path`.
    ///
    /// # Errors
    /// If the file does not exist, is a directory, may not be read, or
    /// reading it fails; the error's message names the path.
    pub fn open(path: &Path, generation: u64) -> Result<Document, LoadError> {
        let bytes = FileBytes::read(path)?;
        Ok(Self::from_bytes(path.to_owned(), bytes, generation))
    }

    /// A document over bytes that are already at hand (standard input, a
    /// test's data); `path` is only its name.
    pub fn from_bytes(path: PathBuf, bytes: FileBytes, generation: u64) -> Document {
        let bom = bom_sniff(&bytes);
        Document {
            path,
            bytes,
            generation,
            bom,
        }
    }

    /// The file's size in bytes.
    pub fn len(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// The bytes of a file, shared: cloning is an `Arc` clone.
///
/// Files of [`MAP_THRESHOLD`] or more are mapped read-only (with `memmap2`)
/// instead of read: a 1 GiB file opens at once, its pages are read as the
/// views and jobs touch them, and the operating system can drop them again,
/// so the file is never copied into the heap. Smaller files are read whole.
#[derive(Clone, Default)]
pub struct FileBytes(Arc<Storage>);

/// Where the bytes live.
enum Storage {
    /// Read into memory.
    Owned(Vec<u8>),
    /// Mapped from the file.
    Mapped(memmap2::Mmap),
}

impl Default for Storage {
    fn default() -> Self {
        Storage::Owned(Vec::new())
    }
}

impl FileBytes {
    /// Reads the file at `path` whole.
    ///
    /// # Errors
    /// As [`Document::open`].
    pub fn read(path: &Path) -> Result<FileBytes, LoadError> {
        let mut file = File::open(path).map_err(|source| LoadError::from_io(path, source))?;
        let metadata = file
            .metadata()
            .map_err(|source| LoadError::from_io(path, source))?;
        // Opening a directory succeeds on some systems; reading it then fails
        // with a less helpful message.
        if metadata.is_dir() {
            return Err(LoadError::IsDirectory {
                path: path.to_owned(),
            });
        }
        if metadata.len() >= MAP_THRESHOLD && metadata.is_file() {
            return map(&file).map_err(|source| LoadError::Read {
                path: path.to_owned(),
                source,
            });
        }
        // The size is a hint: the file may change while it is read.
        let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
        file.read_to_end(&mut bytes)
            .map_err(|source| LoadError::Read {
                path: path.to_owned(),
                source,
            })?;
        Ok(FileBytes::from(bytes))
    }
}

/// Maps `file` read-only.
#[expect(
    unsafe_code,
    reason = "memory-mapping a file is unsafe; see the safety comment, the one audited block"
)]
fn map(file: &File) -> io::Result<FileBytes> {
    // SAFETY: `Mmap::map` is unsafe because the mapped bytes may change, or
    // the pages vanish, if another process writes to or truncates the file
    // while it is mapped. The map is private and read-only: this process
    // never writes through it, so Rust's aliasing rules hold for our own
    // accesses. Bytes another process changes are read as whatever they are
    // at the time (every decoder accepts any byte), and the file watcher
    // reloads the document when the file changes. A file truncated under the
    // map makes reads past its new end fault (SIGBUS), as in every program
    // that maps files; mojiscope maps only files of MAP_THRESHOLD or more,
    // the files that cannot reasonably be copied into memory.
    let map = unsafe { memmap2::Mmap::map(file)? };
    Ok(FileBytes(Arc::new(Storage::Mapped(map))))
}

impl FileBytes {
    /// Whether the bytes are mapped from the file rather than read.
    pub fn is_mapped(&self) -> bool {
        matches!(&*self.0, Storage::Mapped(_))
    }
}

impl From<Vec<u8>> for FileBytes {
    fn from(bytes: Vec<u8>) -> Self {
        FileBytes(Arc::new(Storage::Owned(bytes)))
    }
}

impl Deref for FileBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match &*self.0 {
            Storage::Owned(bytes) => bytes,
            Storage::Mapped(map) => map,
        }
    }
}

impl AsRef<[u8]> for FileBytes {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl fmt::Debug for FileBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FileBytes({} bytes)", self.len())
    }
}

/// Why a file could not be opened. Each message names the path, e.g.
/// "cannot open notes.txt: no such file".
#[non_exhaustive]
#[derive(Debug, Error)]
pub enum LoadError {
    /// Nothing exists at the path.
    #[error("cannot open {}: no such file", path.display())]
    NotFound {
        /// The path, as given.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// The path names a directory.
    #[error("cannot open {}: it is a directory", path.display())]
    IsDirectory {
        /// The path, as given.
        path: PathBuf,
    },
    /// The file may not be read by this user.
    #[error("cannot open {}: permission denied", path.display())]
    PermissionDenied {
        /// The path, as given.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// Opening the file failed otherwise.
    #[error("cannot open {}: {source}", path.display())]
    Open {
        /// The path, as given.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// The file was opened, but reading it failed.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The path, as given.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
}

impl LoadError {
    /// The error for `source`, met while opening `path`.
    fn from_io(path: &Path, source: io::Error) -> LoadError {
        let path = path.to_owned();
        match source.kind() {
            io::ErrorKind::NotFound => LoadError::NotFound { path, source },
            io::ErrorKind::PermissionDenied => LoadError::PermissionDenied { path, source },
            io::ErrorKind::IsADirectory => LoadError::IsDirectory { path },
            _ => LoadError::Open { path, source },
        }
    }

    /// The path that could not be opened.
    pub fn path(&self) -> &Path {
        match self {
            LoadError::NotFound { path, .. }
            | LoadError::IsDirectory { path }
            | LoadError::PermissionDenied { path, .. }
            | LoadError::Open { path, .. }
            | LoadError::Read { path, .. } => path,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use mojiscope_core::{UTF_8, UTF_16LE};

    use super::*;

    #[test]
    fn open_reads_the_bytes_and_sniffs_the_bom() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        fs::write(&path, b"\xEF\xBB\xBFhello").unwrap();
        let document = Document::open(&path, 7).unwrap();
        assert_eq!(&*document.bytes, b"\xEF\xBB\xBFhello");
        assert_eq!(document.len(), 8);
        assert_eq!(document.generation, 7);
        assert_eq!(document.bom, Some(UTF_8));
        assert_eq!(document.path, path);

        fs::write(&path, b"\xFF\xFEh\0").unwrap();
        assert_eq!(Document::open(&path, 8).unwrap().bom, Some(UTF_16LE));
        fs::write(&path, b"").unwrap();
        let empty = Document::open(&path, 9).unwrap();
        assert!(empty.is_empty());
        assert_eq!(empty.bom, None);
    }

    #[test]
    fn large_files_are_mapped_and_read_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("large.txt");
        let mut content = Vec::with_capacity(MAP_THRESHOLD as usize + 3);
        while content.len() < MAP_THRESHOLD as usize {
            content.extend_from_slice("line ×\n".as_bytes());
        }
        content.extend_from_slice(b"end");
        fs::write(&path, &content).unwrap();
        let document = Document::open(&path, 1).unwrap();
        assert!(document.bytes.is_mapped());
        assert_eq!(&*document.bytes, &content[..]);
        assert_eq!(document.len(), content.len() as u64);

        fs::write(&path, b"small").unwrap();
        let small = Document::open(&path, 2).unwrap();
        assert!(!small.bytes.is_mapped());
        assert_eq!(&*small.bytes, b"small");
    }

    #[test]
    fn clones_share_the_bytes() {
        let bytes = FileBytes::from(vec![1, 2, 3]);
        let clone = bytes.clone();
        assert_eq!(bytes.as_ptr(), clone.as_ptr());
        assert_eq!(format!("{clone:?}"), "FileBytes(3 bytes)");
        assert!(FileBytes::default().is_empty());
    }

    #[test]
    fn errors_name_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("notes.txt");
        let error = Document::open(&missing, 0).unwrap_err();
        assert!(matches!(error, LoadError::NotFound { .. }), "{error:?}");
        assert_eq!(
            error.to_string(),
            format!("cannot open {}: no such file", missing.display())
        );
        assert_eq!(error.path(), missing);

        let error = Document::open(dir.path(), 0).unwrap_err();
        assert!(matches!(error, LoadError::IsDirectory { .. }), "{error:?}");
        assert!(error.to_string().ends_with(": it is a directory"));
    }

    #[cfg(unix)]
    #[test]
    fn an_unreadable_file_is_permission_denied() {
        use std::os::unix::fs::PermissionsExt as _;

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secret.txt");
        fs::write(&path, b"text").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).unwrap();
        if File::open(&path).is_ok() {
            // Running as root: the file is readable anyway.
            return;
        }
        let error = Document::open(&path, 0).unwrap_err();
        assert!(
            matches!(error, LoadError::PermissionDenied { .. }),
            "{error:?}"
        );
        assert!(error.to_string().ends_with("secret.txt: permission denied"));
    }
}
