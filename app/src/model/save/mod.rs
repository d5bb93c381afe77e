//! Re-encoding a text and saving it, outside the UI: the desktop app's
//! File ▸ Save as and the command line's `convert` write through the same
//! [`AtomicFile`].
//!
//! - [`source`]: the text to save ([`TextSource`]: a pane's whole-file
//!   decode, or text in memory), read a chunk at a time with the source
//!   position of every character.
//! - [`preview`]: one streaming pass that encodes the text, lists every
//!   character the encoding cannot encode ([`UnencodableList`]), decodes the
//!   bytes back and compares ([`RoundTrip`]); saving runs the same pass
//!   into the file ([`save`]).
//! - [`atomic`]: the file written whole or not at all ([`AtomicFile`]).
//! - [`job`]: both on a named background thread, with progress and cancel
//!   ([`SaveWorker`]).

pub mod atomic;
pub mod job;
pub mod preview;
pub mod save_as;
pub mod source;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use mojiscope_core::{EncodeErrorMode, Encoding, UTF_8};
use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use self::atomic::{AtomicFile, Committed, SaveError, WriteOptions, WriteStage, backup_path};
pub use self::job::{SaveEvent, SaveWorker, TaskKind};
pub use self::preview::{
    Difference, PassOptions, Place, Preview, RoundTrip, Stop, Unencodable, UnencodableList,
};
pub use self::source::TextSource;

/// Bytes buffered before they go to the file.
const WRITE_BUFFER: usize = 256 * 1024;

/// The choices of the last save, remembered between runs (in
/// [`crate::model::settings::Settings`]). Fields missing from an older settings file
/// take their defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SaveSettings {
    /// The output encoding, by name.
    pub encoding: String,
    /// html error mode (else fatal).
    pub html: bool,
    /// Start UTF-8 with a byte order mark.
    pub bom: bool,
    /// Keep a file that is replaced as `NAME~`.
    pub backup: bool,
}

impl Default for SaveSettings {
    fn default() -> Self {
        Self {
            encoding: UTF_8.name().to_owned(),
            html: false,
            bom: false,
            backup: false,
        }
    }
}

impl SaveSettings {
    /// The output encoding remembered: one with an encoder ("get an output
    /// encoding" of the name), UTF-8 if the name is unknown.
    pub fn encoding(&self) -> &'static Encoding {
        Encoding::for_label(self.encoding.as_bytes()).map_or(UTF_8, Encoding::output_encoding)
    }

    /// The error mode remembered.
    pub fn mode(&self) -> EncodeErrorMode {
        if self.html {
            EncodeErrorMode::Html
        } else {
            EncodeErrorMode::Fatal
        }
    }
}

/// A save to do.
#[derive(Clone, Debug)]
pub struct SaveRequest {
    /// The text.
    pub source: TextSource,
    /// The encoding, error mode and byte order mark.
    pub pass: PassOptions,
    /// Where to.
    pub target: PathBuf,
    /// Whether an existing target may be replaced, and kept as `NAME~`.
    pub write: WriteOptions,
}

/// A save done.
#[derive(Clone, Debug)]
pub struct Saved {
    /// The file written.
    pub target: PathBuf,
    /// Where the file it replaced was kept, if it was.
    pub backup: Option<PathBuf>,
    /// How many stale temporary files of earlier crashed saves were removed.
    pub cleaned: usize,
    /// What was written, as the pass that wrote it saw it.
    pub preview: Preview,
}

/// Why a save did not happen. The target is as it was, and no temporary
/// file is left (but see [`SaveError::is_written`]).
#[derive(Debug, Error)]
pub enum SaveFailure {
    /// Writing the file failed.
    #[error(transparent)]
    Write(#[from] SaveError),
    /// Fatal mode met a character the encoding cannot encode.
    #[error(
        "U+{code_point:04X} on line {line}, column {column} (byte offset {offset}) cannot be encoded in {encoding}",
        code_point = u32::from(unencodable.character),
        line = unencodable.place.line,
        column = unencodable.place.column,
        offset = unencodable.place.source_offset,
        encoding = encoding.name(),
    )]
    Unencodable {
        /// The character and its place.
        unencodable: Unencodable,
        /// The encoding written.
        encoding: &'static Encoding,
    },
    /// The save was cancelled.
    #[error("cancelled")]
    Cancelled,
}

impl SaveFailure {
    /// Whether the file is in place despite the failure.
    pub fn is_written(&self) -> bool {
        matches!(self, SaveFailure::Write(error) if error.is_written())
    }
}

/// Saves `request.source`'s text: encodes it into a temporary file beside
/// the target with the same pass a preview runs, then renames it into
/// place ([`AtomicFile`]). `progress` hears `(done, total)` in source
/// bytes; `cancel` is looked at between chunks, and before the rename.
///
/// # Errors
/// See [`SaveFailure`].
pub fn save(
    request: &SaveRequest,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Saved, SaveFailure> {
    save_with(request, cancel, progress, |file| {
        Box::new(BufWriter::with_capacity(WRITE_BUFFER, file))
    })
}

/// [`save`], writing to the temporary file through `writer` (tests put one
/// in that fails like a full disk).
fn save_with(
    request: &SaveRequest,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u64, u64),
    writer: impl for<'f> FnOnce(&'f File) -> Box<dyn Write + 'f>,
) -> Result<Saved, SaveFailure> {
    let file = AtomicFile::create(&request.target, request.write)?;
    let cleaned = file.cleaned();
    let write_error = |source| SaveError::io(WriteStage::Write, &request.target, source);
    let mut writer = writer(file.file());
    let preview = preview::run(
        &request.source,
        &request.pass,
        cancel,
        progress,
        Some(&mut *writer),
    )
    .map_err(|stop| match stop {
        Stop::Cancelled => SaveFailure::Cancelled,
        Stop::Write(source) => write_error(source).into(),
        Stop::Unencodable(unencodable) => SaveFailure::Unencodable {
            unencodable,
            encoding: request.pass.encoding.output_encoding(),
        },
    })?;
    writer.flush().map_err(write_error)?;
    drop(writer);
    if cancel.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(SaveFailure::Cancelled);
    }
    let committed = file.commit()?;
    Ok(Saved {
        target: request.target.clone(),
        backup: committed.backup,
        cleaned,
        preview,
    })
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::sync::Arc;

    use mojiscope_core::{SHIFT_JIS, UTF_16BE, WINDOWS_1252};

    use super::*;

    fn request(text: &str, encoding: &'static Encoding, target: PathBuf) -> SaveRequest {
        SaveRequest {
            source: TextSource::Text(Arc::from(text)),
            pass: PassOptions {
                encoding,
                mode: EncodeErrorMode::Fatal,
                bom: false,
            },
            target,
            write: WriteOptions::default(),
        }
    }

    #[test]
    fn saving_writes_the_encoders_bytes_and_keeps_line_endings() {
        let dir = tempfile::tempdir().unwrap();
        let text = "日本語\r\nテキスト\nend";
        let target = dir.path().join("out.txt");
        let saved = save(
            &request(text, SHIFT_JIS, target.clone()),
            &AtomicBool::new(false),
            &mut |_, _| {},
        )
        .unwrap();
        assert_eq!(fs::read(&target).unwrap(), SHIFT_JIS.encode(text).0);
        assert!(saved.preview.round_trip.is_lossless());
        assert_eq!(saved.preview.lines, 3);
        assert_eq!(saved.backup, None);
    }

    #[test]
    fn fatal_mode_writes_nothing_at_an_unencodable_character() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.txt");
        fs::write(&target, b"original").unwrap();
        let mut request = request("fine\nnot ☃", WINDOWS_1252, target.clone());
        request.write.overwrite = true;
        let failure = save(&request, &AtomicBool::new(false), &mut |_, _| {}).unwrap_err();
        assert_eq!(
            failure.to_string(),
            "U+2603 on line 2, column 5 (byte offset 9) cannot be encoded in windows-1252"
        );
        assert!(!failure.is_written());
        assert_eq!(fs::read(&target).unwrap(), b"original");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_cancelled_save_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.txt");
        let failure = save(
            &request("text", UTF_8, target),
            &AtomicBool::new(true),
            &mut |_, _| {},
        )
        .unwrap_err();
        assert!(matches!(failure, SaveFailure::Cancelled));
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_full_disk_while_writing_is_reported_and_leaves_nothing() {
        /// Writes to the file until a megabyte is there, then fails as a
        /// full disk does.
        struct FillsUp<W>(W, usize);
        impl<W: Write> Write for FillsUp<W> {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                if self.1 + bytes.len() > 1 << 20 {
                    return Err(std::io::ErrorKind::StorageFull.into());
                }
                self.1 += bytes.len();
                self.0.write(bytes)
            }
            fn flush(&mut self) -> std::io::Result<()> {
                self.0.flush()
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.txt");
        fs::write(&target, b"original").unwrap();
        let mut request = request(&"x".repeat(3 << 20), UTF_8, target.clone());
        request.write.overwrite = true;
        let mut partial = 0;
        let failure = save_with(
            &request,
            &AtomicBool::new(false),
            &mut |_, _| {
                // The temporary file has the first megabyte by now.
                partial = partial.max(
                    fs::read_dir(dir.path())
                        .unwrap()
                        .map(|e| e.unwrap().metadata().unwrap().len())
                        .max()
                        .unwrap(),
                );
            },
            |file| Box::new(FillsUp(file, 0)),
        )
        .unwrap_err();
        assert!(
            matches!(
                failure,
                SaveFailure::Write(SaveError::DiskFull {
                    stage: WriteStage::Write,
                    ..
                })
            ),
            "{failure:?}"
        );
        assert!(partial >= 1 << 19, "something was written first: {partial}");
        assert_eq!(fs::read(&target).unwrap(), b"original");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn settings_load_from_older_files_and_unknown_names_fall_back() {
        let settings: SaveSettings = ron::from_str("(bom: true)").unwrap();
        assert_eq!(settings.encoding(), UTF_8);
        assert!(settings.bom && !settings.html && !settings.backup);
        let settings = SaveSettings {
            encoding: "UTF-16BE".to_owned(),
            ..SaveSettings::default()
        };
        assert_eq!(UTF_16BE.output_encoding(), UTF_8);
        assert_eq!(settings.encoding(), UTF_8);
        let settings = SaveSettings {
            encoding: "no such".to_owned(),
            html: true,
            ..SaveSettings::default()
        };
        assert_eq!(
            (settings.encoding(), settings.mode()),
            (UTF_8, EncodeErrorMode::Html)
        );
    }
}
