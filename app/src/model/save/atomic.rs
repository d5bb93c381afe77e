//! A file that appears whole or not at all.
//!
//! [`AtomicFile::create`] checks that the target may be written and makes a
//! temporary file beside it (same directory, so the final rename never
//! crosses file systems); the caller writes to it; [`AtomicFile::commit`]
//! syncs it to disk, optionally keeps the file it replaces as `NAME~`,
//! renames it over the target and syncs the directory, so that the new name
//! survives a power cut too. Until the rename the target is untouched; if
//! anything fails, or the [`AtomicFile`] is dropped before `commit`, the
//! temporary file is removed.
//!
//! A process killed while writing (or a power cut) cannot remove its
//! temporary file. Those files have a recognisable name
//! (`.mojiscope-XXXXXX.tmp`), and the writer holds an exclusive lock on its
//! own for as long as it lives; the next [`AtomicFile::create`] in the same
//! directory removes every such file that nobody holds a lock on (the lock
//! dies with its process), so a crash leaves at most one stray file, and
//! only until the next save there.

use std::fmt;
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use tempfile::{NamedTempFile, PersistError};
use thiserror::Error;

use crate::model::wording::reason;

/// How temporary files begin: with the suffix, what stale-file cleanup looks for.
pub const TEMP_PREFIX: &str = ".mojiscope-";
/// How temporary files end.
pub const TEMP_SUFFIX: &str = ".tmp";
/// What a backup adds to the name of the file it keeps: `notes.txt~`.
///
/// The GNU convention (`cp --backup`, `mv -b`, Emacs and many editors): the
/// whole original name is kept, so the backup sorts right after the file
/// and is plainly a copy of it, its extension (and so what opens it) is
/// unchanged, and file managers and `.gitignore` templates already know
/// `*~` as backups. A `.bak` suffix would hide the type behind `.bak`.
pub const BACKUP_SUFFIX: &str = "~";

/// What [`AtomicFile::create`] may do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// Replace the target if it exists (else that is an error).
    pub overwrite: bool,
    /// Keep the file replaced as `NAME~` ([`backup_path`]).
    pub backup: bool,
}

/// A stage of writing a file, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteStage {
    /// Creating the temporary file.
    Create,
    /// Writing to it.
    Write,
    /// Syncing it to disk.
    Sync,
    /// Keeping the file replaced as `NAME~`.
    Backup,
    /// Renaming it over the target.
    Rename,
    /// Syncing the directory (after the rename: the file is written).
    SyncDirectory,
}

impl fmt::Display for WriteStage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WriteStage::Create => "create a temporary file",
            WriteStage::Write => "write",
            WriteStage::Sync => "sync the file to disk",
            WriteStage::Backup => "make the backup",
            WriteStage::Rename => "rename the temporary file into place",
            WriteStage::SyncDirectory => "sync the directory to disk",
        })
    }
}

/// Why a file could not be written. Except for [`WriteStage::SyncDirectory`]
/// (see [`SaveError::is_written`]), the target is as it was and no
/// temporary file is left.
#[non_exhaustive]
#[derive(Debug, Error)]
pub enum SaveError {
    /// The path ends in `/` or `..`.
    #[error("not a file name: {}", path.display())]
    NotAFile {
        /// The path, as given.
        path: PathBuf,
    },
    /// The directory the file would go in does not exist (or is a file).
    #[error("no such directory: {}", directory.display())]
    DirectoryMissing {
        /// The directory.
        directory: PathBuf,
    },
    /// The target is a directory.
    #[error("is a directory: {}", path.display())]
    IsDirectory {
        /// The path, as given.
        path: PathBuf,
    },
    /// The target exists and replacing it was not allowed.
    #[error("already exists: {}", path.display())]
    Exists {
        /// The path, as given.
        path: PathBuf,
    },
    /// The file system is read-only, or the directory is not writable.
    #[error("cannot {stage}: read-only or not writable here: {}", path.display())]
    ReadOnly {
        /// What failed.
        stage: WriteStage,
        /// The target.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// The disk (or the quota) is full.
    #[error("cannot {stage}: no space left on the disk: {}", path.display())]
    DiskFull {
        /// What failed.
        stage: WriteStage,
        /// The target.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// Any other failure.
    #[error("cannot {stage}: {}: {}", reason(source), path.display())]
    Io {
        /// What failed.
        stage: WriteStage,
        /// The target.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
}

impl SaveError {
    /// The error for `source` at `stage` of writing `path`, sorted by kind.
    pub fn io(stage: WriteStage, path: &Path, source: io::Error) -> SaveError {
        let path = path.to_owned();
        match source.kind() {
            io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem => {
                SaveError::ReadOnly {
                    stage,
                    path,
                    source,
                }
            }
            io::ErrorKind::StorageFull
            | io::ErrorKind::QuotaExceeded
            | io::ErrorKind::FileTooLarge => SaveError::DiskFull {
                stage,
                path,
                source,
            },
            _ => SaveError::Io {
                stage,
                path,
                source,
            },
        }
    }

    /// The system's error, if the failure came from one.
    pub fn source_error(&self) -> Option<&io::Error> {
        match self {
            SaveError::ReadOnly { source, .. }
            | SaveError::DiskFull { source, .. }
            | SaveError::Io { source, .. } => Some(source),
            _ => None,
        }
    }

    /// Whether the new file is in place despite the error (only syncing
    /// its directory failed).
    pub fn is_written(&self) -> bool {
        matches!(
            self,
            SaveError::ReadOnly {
                stage: WriteStage::SyncDirectory,
                ..
            } | SaveError::DiskFull {
                stage: WriteStage::SyncDirectory,
                ..
            } | SaveError::Io {
                stage: WriteStage::SyncDirectory,
                ..
            }
        )
    }
}

/// Where the backup of `target` goes: `target` with [`BACKUP_SUFFIX`].
pub fn backup_path(target: &Path) -> PathBuf {
    let mut name = target.as_os_str().to_owned();
    name.push(BACKUP_SUFFIX);
    PathBuf::from(name)
}

/// The step that renames the temporary file over the target (`overwrite`)
/// or to it only if nothing is there. Tests put a failing one in.
type Persist = fn(NamedTempFile, &Path, bool) -> Result<(), PersistError>;

fn persist(temp: NamedTempFile, target: &Path, overwrite: bool) -> Result<(), PersistError> {
    // The returned file is closed here, which also releases its lock.
    if overwrite {
        temp.persist(target).map(drop)
    } else {
        temp.persist_noclobber(target).map(drop)
    }
}

/// What [`AtomicFile::commit`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Committed {
    /// Where the replaced file was kept, if a backup was asked for and
    /// there was a file to keep.
    pub backup: Option<PathBuf>,
}

/// A temporary file that becomes its target on [`commit`](Self::commit),
/// and is removed if dropped before that.
#[derive(Debug)]
pub struct AtomicFile {
    temp: NamedTempFile,
    target: PathBuf,
    directory: PathBuf,
    options: WriteOptions,
    /// Whether the target existed when the file was created.
    replaces: bool,
    /// How many stale temporary files the creation removed.
    cleaned: usize,
    persist: Persist,
}

impl AtomicFile {
    /// Checks that `target` may be written (its directory exists; it is no
    /// directory; it does not exist unless `options.overwrite`), removes
    /// stale temporary files of earlier crashed saves from its directory,
    /// and creates the temporary file. A file that replaces another keeps
    /// its permissions; a new file gets the usual ones (0666 less the umask).
    ///
    /// # Errors
    /// [`SaveError::NotAFile`], [`SaveError::DirectoryMissing`],
    /// [`SaveError::IsDirectory`], [`SaveError::Exists`], or the error
    /// creating the temporary file.
    pub fn create(target: &Path, options: WriteOptions) -> Result<AtomicFile, SaveError> {
        if target.file_name().is_none() {
            return Err(SaveError::NotAFile {
                path: target.to_owned(),
            });
        }
        // An empty parent means the current directory.
        let directory = target
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_owned();
        if !directory.is_dir() {
            return Err(SaveError::DirectoryMissing { directory });
        }
        // `symlink_metadata` so that a dangling symbolic link counts too.
        let existing = fs::symlink_metadata(target).ok();
        if let Some(metadata) = &existing {
            if metadata.is_dir() {
                return Err(SaveError::IsDirectory {
                    path: target.to_owned(),
                });
            }
            if !options.overwrite {
                return Err(SaveError::Exists {
                    path: target.to_owned(),
                });
            }
        }
        let cleaned = clean_stale_temporary_files(&directory);
        let temp = temporary_file(&directory)
            .map_err(|source| SaveError::io(WriteStage::Create, target, source))?;
        if let Some(metadata) = existing.as_ref().filter(|m| m.is_file()) {
            temp.as_file()
                .set_permissions(metadata.permissions())
                .map_err(|source| SaveError::io(WriteStage::Create, target, source))?;
        }
        Ok(AtomicFile {
            temp,
            target: target.to_owned(),
            directory,
            options,
            replaces: existing.is_some(),
            cleaned,
            persist,
        })
    }

    /// The temporary file, to write to.
    pub fn file(&self) -> &File {
        self.temp.as_file()
    }

    /// The target.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// How many stale temporary files of earlier crashed saves the creation
    /// removed from the directory.
    pub fn cleaned(&self) -> usize {
        self.cleaned
    }

    /// Syncs the temporary file to disk, keeps the file it replaces as
    /// `NAME~` if asked, renames it to the target (without `overwrite`,
    /// only if the target still does not exist), and syncs the directory.
    ///
    /// # Errors
    /// [`SaveError::Exists`] if the target appeared meanwhile, else the
    /// error of the step that failed. The temporary file is removed in
    /// every case; a backup already made stays (a copy of the target,
    /// which is untouched). Only after an error at
    /// [`WriteStage::SyncDirectory`] is the new file in place.
    pub fn commit(self) -> Result<Committed, SaveError> {
        let AtomicFile {
            temp,
            target,
            directory,
            options,
            replaces,
            persist,
            ..
        } = self;
        temp.as_file()
            .sync_all()
            .map_err(|source| SaveError::io(WriteStage::Sync, &target, source))?;
        let backup = if options.backup && replaces && fs::metadata(&target).is_ok() {
            Some(
                make_backup(&target, &directory)
                    .map_err(|source| SaveError::io(WriteStage::Backup, &target, source))?,
            )
        } else {
            None
        };
        persist(temp, &target, options.overwrite).map_err(|error| {
            // The error owns the temporary file; dropping it removes it.
            match error.error.kind() {
                io::ErrorKind::AlreadyExists if !options.overwrite => SaveError::Exists {
                    path: target.clone(),
                },
                _ => SaveError::io(WriteStage::Rename, &target, error.error),
            }
        })?;
        sync_directory(&directory)
            .map_err(|source| SaveError::io(WriteStage::SyncDirectory, &target, source))?;
        Ok(Committed { backup })
    }
}

/// A new temporary file in `directory`, locked for as long as it is open.
fn temporary_file(directory: &Path) -> io::Result<NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMP_PREFIX).suffix(TEMP_SUFFIX);
    // Not the temporary file's private 0600: a new file gets the usual
    // permissions (0666 less the umask).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let temp = builder.tempfile_in(directory)?;
    // The lock tells a concurrent save's cleanup that this file is alive.
    // Where the file system has no locks, cleanup cannot lock it either and
    // leaves it alone, so going on without one is safe.
    temp.as_file().try_lock().ok();
    Ok(temp)
}

/// Removes the temporary files in `directory` that no live writer holds a
/// lock on: what earlier saves left when they were killed. Returns how many.
///
/// Best effort: a file that cannot be read, locked or removed is left.
pub fn clean_stale_temporary_files(directory: &Path) -> usize {
    let Ok(entries) = fs::read_dir(directory) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        let ours = name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX);
        if !ours || !entry.file_type().is_ok_and(|kind| kind.is_file()) {
            continue;
        }
        let path = entry.path();
        let Ok(file) = File::open(&path) else {
            continue;
        };
        // Locked: its writer is alive. An error: no locks here, so no way
        // to tell; leave it.
        if file.try_lock().is_err() {
            continue;
        }
        drop(file);
        if fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Keeps `target` as `NAME~`: a hard link made under a temporary name and
/// renamed over any older backup, so that the target itself never moves;
/// a copy where the file system has no hard links.
fn make_backup(target: &Path, directory: &Path) -> io::Result<PathBuf> {
    let backup = backup_path(target);
    let linked = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
        .make_in(directory, |path| fs::hard_link(target, path));
    if let Ok(link) = linked {
        link.persist(&backup).map_err(|error| error.error)?;
    } else {
        let mut copy = temporary_file(directory)?;
        io::copy(&mut File::open(target)?, copy.as_file_mut())?;
        copy.as_file()
            .set_permissions(fs::metadata(target)?.permissions())?;
        copy.as_file().sync_all()?;
        copy.persist(&backup).map_err(|error| error.error)?;
    }
    Ok(backup)
}

/// Makes the directory's entries durable: after a rename, the new name.
#[cfg(unix)]
fn sync_directory(directory: &Path) -> io::Result<()> {
    File::open(directory)?.sync_all()
}

/// Windows cannot open a directory as a file; its file systems journal
/// renames.
#[cfg(not(unix))]
fn sync_directory(_directory: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use super::*;

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn write(target: &Path, options: WriteOptions, bytes: &[u8]) -> Result<Committed, SaveError> {
        let file = AtomicFile::create(target, options)?;
        file.file().write_all(bytes).unwrap();
        file.commit()
    }

    const REPLACE: WriteOptions = WriteOptions {
        overwrite: true,
        backup: false,
    };

    #[test]
    fn writes_a_new_file_and_refuses_to_replace_without_permission() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.txt");
        let committed = write(&target, WriteOptions::default(), b"first").unwrap();
        assert_eq!(committed, Committed::default());
        assert_eq!(fs::read(&target).unwrap(), b"first");

        let error = write(&target, WriteOptions::default(), b"second").unwrap_err();
        assert!(matches!(error, SaveError::Exists { .. }), "{error:?}");
        assert_eq!(fs::read(&target).unwrap(), b"first");

        write(&target, REPLACE, b"second").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"second");
        assert_eq!(listing(dir.path()), ["out.txt"]);
    }

    #[test]
    fn a_file_appearing_meanwhile_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.txt");
        let file = AtomicFile::create(&target, WriteOptions::default()).unwrap();
        file.file().write_all(b"mine").unwrap();
        fs::write(&target, b"theirs").unwrap();
        let error = file.commit().unwrap_err();
        assert!(matches!(error, SaveError::Exists { .. }), "{error:?}");
        assert_eq!(fs::read(&target).unwrap(), b"theirs");
        assert_eq!(listing(dir.path()), ["out.txt"]);
    }

    #[test]
    fn the_backup_keeps_the_replaced_file_and_replaces_an_older_backup() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("notes.txt");
        let options = WriteOptions {
            overwrite: true,
            backup: true,
        };
        // Nothing to keep: no backup.
        assert_eq!(write(&target, options, b"one").unwrap().backup, None);
        let committed = write(&target, options, b"two").unwrap();
        let backup = dir.path().join("notes.txt~");
        assert_eq!(committed.backup.as_deref(), Some(backup.as_path()));
        assert_eq!(fs::read(&backup).unwrap(), b"one");
        write(&target, options, b"three").unwrap();
        assert_eq!(fs::read(&backup).unwrap(), b"two");
        assert_eq!(fs::read(&target).unwrap(), b"three");
        assert_eq!(listing(dir.path()), ["notes.txt", "notes.txt~"]);
    }

    #[test]
    fn a_failure_between_writing_and_renaming_leaves_the_original_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("notes.txt");
        fs::write(&target, b"original").unwrap();
        let mut file = AtomicFile::create(&target, REPLACE).unwrap();
        file.file().write_all(&vec![b'x'; 100_000]).unwrap();
        assert_eq!(listing(dir.path()).len(), 2, "the temporary file is there");
        file.persist = |temp, _, _| {
            Err(PersistError {
                error: io::Error::from(io::ErrorKind::StorageFull),
                file: temp,
            })
        };
        let error = file.commit().unwrap_err();
        assert!(
            matches!(
                error,
                SaveError::DiskFull {
                    stage: WriteStage::Rename,
                    ..
                }
            ),
            "{error:?}"
        );
        assert!(!error.is_written());
        assert_eq!(fs::read(&target).unwrap(), b"original");
        assert_eq!(listing(dir.path()), ["notes.txt"]);
    }

    #[test]
    fn a_missing_directory_or_a_directory_as_target_is_refused_before_writing() {
        let dir = tempfile::tempdir().unwrap();
        let error = write(&dir.path().join("no/such/out.txt"), REPLACE, b"x").unwrap_err();
        match &error {
            SaveError::DirectoryMissing { directory } => {
                assert_eq!(directory, &dir.path().join("no/such"));
            }
            other => panic!("{other:?}"),
        }
        assert!(error.to_string().starts_with("no such directory: "));
        fs::create_dir(dir.path().join("sub")).unwrap();
        let error = write(&dir.path().join("sub"), REPLACE, b"x").unwrap_err();
        assert!(matches!(error, SaveError::IsDirectory { .. }), "{error:?}");
        let error = write(Path::new("/"), REPLACE, b"x").unwrap_err();
        assert!(matches!(error, SaveError::NotAFile { .. }), "{error:?}");
        assert_eq!(listing(dir.path()), ["sub"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_directory_is_reported_as_such() {
        use std::os::unix::fs::PermissionsExt as _;

        let dir = tempfile::tempdir().unwrap();
        let locked = dir.path().join("locked");
        fs::create_dir(&locked).unwrap();
        let target = locked.join("out.txt");
        fs::write(&target, b"original").unwrap();
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o555)).unwrap();
        // Root may write anywhere: then the directory is not read-only to
        // this process, and what is tested is that saving works there.
        let writable = File::create(locked.join("probe")).is_ok();
        let result = write(&target, REPLACE, b"new");
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
        if writable {
            result.unwrap();
            return;
        }
        let error = result.unwrap_err();
        assert!(
            matches!(
                error,
                SaveError::ReadOnly {
                    stage: WriteStage::Create,
                    ..
                }
            ),
            "{error:?}"
        );
        assert_eq!(fs::read(&target).unwrap(), b"original");
        assert_eq!(listing(&locked), ["out.txt"]);
    }

    #[test]
    fn io_errors_are_sorted_by_kind_and_read_as_a_sentence() {
        let path = Path::new("dir/out.txt");
        let full = SaveError::io(WriteStage::Write, path, io::Error::from_raw_os_error(28));
        let read_only = SaveError::io(WriteStage::Create, path, io::Error::from_raw_os_error(30));
        let denied = SaveError::io(WriteStage::Create, path, io::Error::from_raw_os_error(13));
        if cfg!(target_os = "linux") {
            assert!(matches!(full, SaveError::DiskFull { .. }), "{full:?}");
            assert!(matches!(read_only, SaveError::ReadOnly { .. }));
            assert!(matches!(denied, SaveError::ReadOnly { .. }));
            assert_eq!(
                full.to_string(),
                "cannot write: no space left on the disk: dir/out.txt"
            );
        }
        let other = SaveError::io(WriteStage::Rename, path, io::Error::other("Weird trouble"));
        assert_eq!(
            other.to_string(),
            "cannot rename the temporary file into place: weird trouble: dir/out.txt"
        );
        let synced = SaveError::io(WriteStage::SyncDirectory, path, io::Error::other("x"));
        assert!(synced.is_written() && !other.is_written());
    }

    #[test]
    fn stale_temporary_files_are_removed_and_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        // A save in progress: its writer holds the lock.
        let live = AtomicFile::create(&dir.path().join("other.txt"), REPLACE).unwrap();
        live.file().write_all(b"in progress").unwrap();
        // Left by a save that was killed: nobody holds its lock.
        fs::write(dir.path().join(".mojiscope-dead01.tmp"), b"partial").unwrap();
        // Not ours.
        fs::write(dir.path().join("notes.tmp"), b"keep").unwrap();
        let file = AtomicFile::create(&dir.path().join("out.txt"), REPLACE).unwrap();
        assert_eq!(file.cleaned(), 1);
        let names = listing(dir.path());
        assert!(!names.contains(&".mojiscope-dead01.tmp".to_owned()));
        assert_eq!(
            names.iter().filter(|n| n.starts_with(TEMP_PREFIX)).count(),
            2,
            "the live writer's file and the new one: {names:?}"
        );
        live.commit().unwrap();
        file.commit().unwrap();
        assert_eq!(listing(dir.path()), ["notes.tmp", "other.txt", "out.txt"]);
    }

    #[test]
    fn backup_names_keep_the_whole_name() {
        assert_eq!(
            backup_path(Path::new("dir/notes.txt")),
            Path::new("dir/notes.txt~")
        );
    }
}
