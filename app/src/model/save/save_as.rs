//! File ▸ Save as without its window ([`SaveAs`]): the text to save, the
//! choices (output encoding, error mode, byte order mark, backup), the
//! preview of what saving would do, run in the background by a
//! [`SaveWorker`], the target as it is on disk and the confirmations it
//! needs, whether Save may be pressed and why not, and the save itself.
//! The window (`ui::save_dialog`) shows it and passes on what the user
//! does; nothing here decodes, encodes or writes on the window's thread.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mojiscope_core::{EncodeErrorMode, Encoding, UTF_8};

use super::job::{SaveEvent, SaveWorker};
use super::preview::{PassOptions, Preview};
use super::source::TextSource;
use super::{SaveRequest, SaveSettings, Saved, WriteOptions};
use crate::model::jobs::Repaint;
use crate::model::wording::plural;

/// What the dialog is opened on.
#[derive(Clone, Debug)]
pub struct OpenRequest {
    /// The text to save.
    pub source: TextSource,
    /// What the text is, for people: "pane 2: notes.txt decoded as Shift_JIS".
    pub title: String,
    /// The file shown in the window (saving over it needs a stronger
    /// confirmation), and the directory new files go to.
    pub document: PathBuf,
    /// The document's generation when the dialog opened.
    pub generation: u64,
    /// Preselect UTF-8 (File ▸ Save as UTF-8) rather than the last choice.
    pub utf8: bool,
}

/// What happened, for the window.
#[derive(Debug)]
pub enum Outcome {
    /// The file was written.
    Saved {
        /// What was written.
        saved: Box<Saved>,
        /// The choices to remember.
        settings: SaveSettings,
        /// Whether it replaced the file open in the window.
        replaced_open_file: bool,
    },
    /// The dialog was closed without saving.
    Closed,
}

/// The preview shown.
#[derive(Debug)]
pub enum PreviewState {
    /// Running: source bytes done and total.
    Running(Option<(u64, u64)>),
    /// Done.
    Ready(Arc<Preview>),
    /// Stopped by the user.
    Stopped,
    /// Failed (a bug).
    Failed(String),
}

/// The confirmations the user gave for this preview and target.
#[expect(clippy::struct_excessive_bools, reason = "four independent checkboxes")]
#[derive(Clone, Copy, Debug, Default)]
pub struct Confirmations {
    /// Keep the U+FFFD that decoding errors produced.
    pub damage: bool,
    /// Save although the text does not read back the same.
    pub loss: bool,
    /// Replace an existing file.
    pub replace: bool,
    /// Replace the file open in the window.
    pub replace_open: bool,
}

/// The target, as it is on disk.
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent facts about one path"
)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TargetStatus {
    /// Something is there.
    pub exists: bool,
    /// It is a directory.
    pub is_directory: bool,
    /// It is the file open in the window.
    pub is_open_file: bool,
    /// The directory it would go in does not exist.
    pub directory_missing: bool,
}

/// An open Save as: what it saves, the choices, the preview and the
/// target. The window edits the public fields, and tells it what else the
/// user did through its methods.
#[expect(
    clippy::struct_excessive_bools,
    reason = "the dialog's choices are independent checkboxes"
)]
pub struct SaveAsForm {
    request: OpenRequest,
    /// The document's canonical path, to tell when the target is it.
    document_canonical: Option<PathBuf>,
    worker: SaveWorker,
    /// The encoding chosen (its output encoding is written).
    pub encoding: &'static Encoding,
    /// html error mode (else fatal).
    pub html: bool,
    /// Start UTF-8 with a byte order mark.
    pub bom: bool,
    /// Keep a file that is replaced as `NAME~`.
    pub backup: bool,
    /// Where to save, as typed or picked (relative: beside the document).
    pub target: String,
    /// Whether the user changed the target (else it follows the encoding).
    target_edited: bool,
    /// The confirmations given.
    pub confirm: Confirmations,
    preview: PreviewState,
    /// The encoding and byte order mark the preview is for.
    previewed: Option<(&'static Encoding, bool)>,
    /// While saving: source bytes done and total, and whether Cancel was pressed.
    saving: Option<(Option<(u64, u64)>, bool)>,
    /// Why the last save failed.
    message: Option<String>,
    /// The folder a relative target goes in, as shown under it: worked out
    /// once per folder, not every frame.
    folder_shown: Option<(PathBuf, String)>,
}

/// File ▸ Save as: closed until [`SaveAs::open`].
#[derive(Default)]
pub struct SaveAs {
    open: Option<Box<SaveAsForm>>,
}

impl SaveAs {
    /// Opens the dialog on `request`, with the choices of `settings`;
    /// `repaint` wakes the window when the background work has news.
    /// Refused (returns false) while a save runs.
    pub fn open(
        &mut self,
        request: OpenRequest,
        settings: &SaveSettings,
        repaint: Repaint,
    ) -> bool {
        if self.is_saving() {
            return false;
        }
        let encoding = if request.utf8 {
            UTF_8
        } else {
            settings.encoding()
        };
        let document_canonical = fs::canonicalize(&request.document).ok();
        let mut open = SaveAsForm {
            request,
            document_canonical,
            worker: SaveWorker::new(repaint),
            encoding,
            html: settings.html,
            bom: settings.bom,
            backup: settings.backup,
            target: String::new(),
            target_edited: false,
            confirm: Confirmations::default(),
            preview: PreviewState::Running(None),
            previewed: None,
            saving: None,
            message: None,
            folder_shown: None,
        };
        open.target = open.suggested_target();
        self.open = Some(Box::new(open));
        true
    }

    /// Whether the dialog is open.
    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Whether a save is running.
    pub fn is_saving(&self) -> bool {
        self.open.as_ref().is_some_and(|open| open.saving.is_some())
    }

    /// Whether no background work runs.
    pub fn is_idle(&self) -> bool {
        self.open.as_ref().is_none_or(|open| !open.worker.is_busy())
    }

    /// The preview shown, once it is done.
    pub fn preview(&self) -> Option<&Arc<Preview>> {
        match &self.open.as_ref()?.preview {
            PreviewState::Ready(preview) => Some(preview),
            _ => None,
        }
    }

    /// Where Browse's dialog starts: the folder a relative target goes in,
    /// and the target's file name. `None` while the dialog is closed.
    pub fn browse_target(&self) -> Option<(PathBuf, String)> {
        let open = self.open.as_ref()?;
        let name = open
            .target_path()
            .and_then(|path| path.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default();
        Some((open.directory(), name))
    }

    /// Browse's dialog picked `path`: the target from now on.
    pub fn browsed(&mut self, path: &Path) {
        if let Some(open) = &mut self.open {
            open.target = path.display().to_string();
            open.target_edited = true;
        }
    }

    /// Browse's dialog could not be shown: says why in the dialog.
    pub fn browse_failed(&mut self, message: &str) {
        if let Some(open) = &mut self.open {
            open.message = Some(format!("cannot show the file dialog: {message}"));
        }
    }

    /// The open dialog, to show it and act on what the user does.
    pub fn form(&mut self) -> Option<&mut SaveAsForm> {
        self.open.as_deref_mut()
    }

    /// Once a frame: takes in what the background work sent and starts the
    /// preview the choices call for. When the save is done, the dialog
    /// closes and says so.
    pub fn poll(&mut self) -> Option<Outcome> {
        let open = self.open.as_mut()?;
        let outcome = open.drain();
        if outcome.is_some() {
            self.open = None;
            return outcome;
        }
        let key = (open.output_encoding(), open.writes_bom());
        if open.saving.is_none() && open.previewed != Some(key) {
            open.start_preview();
        }
        None
    }

    /// Closes the dialog without saving, stopping its preview.
    pub fn close(&mut self) -> Outcome {
        if let Some(mut open) = self.open.take() {
            open.worker.cancel();
        }
        Outcome::Closed
    }
}

impl SaveAsForm {
    /// The output encoding chosen.
    pub fn output_encoding(&self) -> &'static Encoding {
        self.encoding.output_encoding()
    }

    /// Whether a byte order mark is written.
    pub fn writes_bom(&self) -> bool {
        self.bom && self.output_encoding() == UTF_8
    }

    fn mode(&self) -> EncodeErrorMode {
        if self.html {
            EncodeErrorMode::Html
        } else {
            EncodeErrorMode::Fatal
        }
    }

    fn settings(&self) -> SaveSettings {
        SaveSettings {
            encoding: self.encoding.name().to_owned(),
            html: self.html,
            bom: self.bom,
            backup: self.backup,
        }
    }

    /// `notes.txt` saved as Shift_JIS: `notes.shift_jis.txt` beside it (a
    /// name alone, which is taken from the document's folder; the dialog
    /// shows the folder under it).
    fn suggested_target(&self) -> String {
        let document = &self.request.document;
        let stem = document
            .file_stem()
            .map_or_else(|| "text".to_owned(), |s| s.to_string_lossy().into_owned());
        let extension = document.extension().map_or_else(
            || ".txt".to_owned(),
            |e| format!(".{}", e.to_string_lossy()),
        );
        let name = format!(
            "{stem}.{}{extension}",
            self.output_encoding().name().to_ascii_lowercase()
        );
        name
    }

    /// Where the document is, as an absolute path: relative targets are
    /// taken from there. (A document opened by a relative path would
    /// otherwise suggest a relative target, which would then be taken from
    /// its own directory a second time.)
    fn directory(&self) -> PathBuf {
        let directory = self
            .request
            .document
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        std::path::absolute(&directory).unwrap_or(directory)
    }

    /// The target path typed or picked, if any.
    pub fn target_path(&self) -> Option<PathBuf> {
        let text = self.target.trim();
        if text.is_empty() {
            return None;
        }
        let path = PathBuf::from(text);
        Some(if path.is_relative() {
            self.directory().join(path)
        } else {
            path
        })
    }

    /// What is at `path` on disk now.
    pub fn target_status(&self, path: &Path) -> TargetStatus {
        let metadata = fs::symlink_metadata(path).ok();
        let directory = path
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        TargetStatus {
            exists: metadata.is_some(),
            is_directory: metadata.as_ref().is_some_and(fs::Metadata::is_dir),
            is_open_file: metadata.is_some()
                && self.document_canonical.is_some()
                && fs::canonicalize(path).ok() == self.document_canonical,
            directory_missing: !directory.is_dir(),
        }
    }

    /// Handles what the background work sent.
    fn drain(&mut self) -> Option<Outcome> {
        while let Some(event) = self.worker.try_recv() {
            match event {
                SaveEvent::Progress { done, total, .. } => {
                    if let Some((progress, _)) = &mut self.saving {
                        *progress = Some((done, total));
                    } else if let PreviewState::Running(progress) = &mut self.preview {
                        *progress = Some((done, total));
                    }
                }
                SaveEvent::Previewed(preview) => self.preview = PreviewState::Ready(preview),
                SaveEvent::PreviewCancelled => self.preview = PreviewState::Stopped,
                SaveEvent::Saved(result) => {
                    self.saving = None;
                    match *result {
                        Ok(saved) => {
                            let replaced_open_file =
                                self.document_canonical.as_ref().is_some_and(|d| {
                                    fs::canonicalize(&saved.target).ok().as_ref() == Some(d)
                                });
                            return Some(Outcome::Saved {
                                saved: Box::new(saved),
                                settings: self.settings(),
                                replaced_open_file,
                            });
                        }
                        Err(failure) if failure.is_written() => {
                            self.message = Some(format!("Saved, but: {failure}"));
                        }
                        Err(failure) => {
                            self.message = Some(format!(
                                "Not saved: {failure}. Nothing was changed on disk."
                            ));
                        }
                    }
                }
                SaveEvent::Failed { message, .. } => {
                    self.saving = None;
                    self.preview = PreviewState::Failed(message);
                }
            }
        }
        None
    }

    fn start_preview(&mut self) {
        let options = PassOptions {
            encoding: self.output_encoding(),
            // html mode lists every unencodable character; fatal mode's
            // bytes are the same when there is none.
            mode: EncodeErrorMode::Html,
            bom: self.writes_bom(),
        };
        if self
            .worker
            .preview(self.request.source.clone(), options)
            .is_ok()
        {
            self.previewed = Some((options.encoding, options.bom));
            self.preview = PreviewState::Running(None);
            self.confirm.loss = false;
        }
    }

    /// Starts saving to the target with the choices made.
    pub fn start_save(&mut self) {
        let Some(target) = self.target_path() else {
            return;
        };
        let status = self.target_status(&target);
        let request = SaveRequest {
            source: self.request.source.clone(),
            pass: PassOptions {
                encoding: self.output_encoding(),
                mode: self.mode(),
                bom: self.writes_bom(),
            },
            target,
            write: WriteOptions {
                overwrite: status.exists && (self.confirm.replace || self.confirm.replace_open),
                backup: self.backup,
            },
        };
        match self.worker.save(request) {
            Ok(()) => {
                self.saving = Some((None, false));
                self.message = None;
            }
            Err(busy) => self.message = Some(busy.to_string()),
        }
    }

    /// Whether Save may be pressed; if not, why.
    ///
    /// # Errors
    /// What stands in the way, for people.
    pub fn can_save(&self) -> Result<(), SaveBlocked> {
        let PreviewState::Ready(preview) = &self.preview else {
            return Err(SaveBlocked::Checking);
        };
        let unencodable = preview.unencodable.len();
        if unencodable > 0 && !self.html {
            return Err(SaveBlocked::Unencodable {
                count: unencodable,
                encoding: preview.encoding,
            });
        }
        if preview.decoding_errors > 0 && !self.confirm.damage {
            return Err(SaveBlocked::KeepDamage);
        }
        if !preview.round_trip.is_lossless() && !self.confirm.loss {
            return Err(SaveBlocked::KeepLoss);
        }
        let target = self.target_path().ok_or(SaveBlocked::NoTarget)?;
        let status = self.target_status(&target);
        if status.directory_missing {
            return Err(SaveBlocked::NoDirectory);
        }
        if status.is_directory {
            return Err(SaveBlocked::IsDirectory);
        }
        if status.is_open_file && !self.confirm.replace_open {
            return Err(SaveBlocked::ReplaceOpen);
        }
        if status.exists && !status.is_open_file && !self.confirm.replace {
            return Err(SaveBlocked::Replace);
        }
        Ok(())
    }

    /// What the dialog is about, for people: "pane 2: notes.txt decoded as
    /// Shift_JIS".
    pub fn title(&self) -> &str {
        &self.request.title
    }

    /// The document's generation when the dialog opened.
    pub fn generation(&self) -> u64 {
        self.request.generation
    }

    /// The user chose another encoding: the target follows it, unless the
    /// user changed the target.
    pub fn encoding_chosen(&mut self) {
        if !self.target_edited {
            self.target = self.suggested_target();
        }
    }

    /// The user typed in the target: it no longer follows the encoding, and
    /// a confirmation to replace was for another file.
    pub fn target_typed(&mut self) {
        self.target_edited = true;
        self.confirm.replace = false;
        self.confirm.replace_open = false;
    }

    /// The preview shown.
    pub fn preview(&self) -> &PreviewState {
        &self.preview
    }

    /// Stops the preview (Stop).
    pub fn stop_preview(&mut self) {
        self.worker.cancel();
        self.preview = PreviewState::Stopped;
    }

    /// Runs the preview again (Check again).
    pub fn check_again(&mut self) {
        self.previewed = None;
    }

    /// While saving: source bytes done and total, and whether Cancel was
    /// pressed.
    pub fn saving(&self) -> Option<(Option<(u64, u64)>, bool)> {
        self.saving
    }

    /// Asks the running save to stop (Cancel saving); it answers all the
    /// same.
    pub fn cancel_save(&mut self) {
        if let Some((progress, _)) = self.saving {
            self.worker.cancel();
            self.saving = Some((progress, true));
        }
    }

    /// Why the last save failed, or why Browse could not open.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// "in FOLDER" for a relative target: where it goes, without the ".."
    /// of a document opened by a relative path. Worked out once per folder,
    /// not every frame.
    pub fn folder_shown(&mut self) -> Option<&str> {
        let target = self.target_path()?;
        if !Path::new(self.target.trim()).is_relative() {
            return None;
        }
        let folder = target.parent()?;
        if self
            .folder_shown
            .as_ref()
            .is_none_or(|(known, _)| known != folder)
        {
            let shown = fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
            let home = std::env::var_os("HOME").map(PathBuf::from);
            let shown = with_tilde(&shown, home.as_deref());
            self.folder_shown = Some((folder.to_path_buf(), format!("in {shown}")));
        }
        self.folder_shown.as_ref().map(|(_, shown)| shown.as_str())
    }
}

/// `path` as people write it: under the home folder `home`, as `~/…`.
fn with_tilde(path: &Path, home: Option<&Path>) -> String {
    let under_home = home
        .filter(|home| home.is_absolute() && home.parent().is_some())
        .and_then(|home| path.strip_prefix(home).ok());
    match under_home {
        Some(rest) if rest.as_os_str().is_empty() => "~".to_owned(),
        Some(rest) => format!("~/{}", rest.display()),
        None => path.display().to_string(),
    }
}

/// Why Save may not be pressed yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveBlocked {
    /// The preview has not come yet.
    Checking,
    /// Fatal mode, and characters the encoding cannot encode.
    Unencodable {
        /// How many.
        count: u64,
        /// The output encoding.
        encoding: &'static Encoding,
    },
    /// The text has U+FFFD from decoding errors, and keeping them is not
    /// confirmed.
    KeepDamage,
    /// The text does not read back the same, and saving it is not
    /// confirmed.
    KeepLoss,
    /// No target.
    NoTarget,
    /// The target's directory does not exist.
    NoDirectory,
    /// The target is a directory.
    IsDirectory,
    /// The target is the open file, and replacing it is not confirmed.
    ReplaceOpen,
    /// The target exists, and replacing it is not confirmed.
    Replace,
}

impl fmt::Display for SaveBlocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveBlocked::Checking => f.write_str("Waiting for the check of the text…"),
            SaveBlocked::Unencodable { count, encoding } => write!(
                f,
                "Save is off: {} cannot be encoded in {} (fatal mode).",
                plural(*count, "character", "characters"),
                encoding.name()
            ),
            SaveBlocked::KeepDamage => f.write_str(
                "Save is off until you confirm keeping the U+FFFD of the decoding errors.",
            ),
            SaveBlocked::KeepLoss => f.write_str(
                "Save is off until you confirm saving text that does not read back the same.",
            ),
            SaveBlocked::NoTarget => f.write_str("Type where to save it, or Browse."),
            SaveBlocked::NoDirectory => f.write_str("That directory does not exist."),
            SaveBlocked::IsDirectory => f.write_str("That is a directory: add a file name."),
            SaveBlocked::ReplaceOpen => {
                f.write_str("Confirm replacing the file open in this window.")
            }
            SaveBlocked::Replace => f.write_str("Confirm replacing the existing file."),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::thread;
    use std::time::{Duration, Instant};

    use mojiscope_core::WINDOWS_1252;

    use super::*;

    #[test]
    fn folders_under_home_are_shown_with_a_tilde() {
        let home = Path::new("/home/ana");
        let shown = |path: &str| with_tilde(Path::new(path), Some(home));
        assert_eq!(shown("/home/ana/Documents/letters"), "~/Documents/letters");
        assert_eq!(shown("/home/ana"), "~");
        assert_eq!(shown("/home/anabel/notes"), "/home/anabel/notes");
        assert_eq!(shown("/srv/data"), "/srv/data");
        // A home of "/" or a relative one says nothing.
        assert_eq!(with_tilde(Path::new("/srv"), Some(Path::new("/"))), "/srv");
        assert_eq!(with_tilde(Path::new("/srv"), None), "/srv");
    }

    /// Polls as the window does once a frame, until `done` holds.
    fn poll_until(save: &mut SaveAs, done: impl Fn(&mut SaveAs) -> bool) -> Option<Outcome> {
        let started = Instant::now();
        loop {
            if let Some(outcome) = save.poll() {
                return Some(outcome);
            }
            if done(save) {
                return None;
            }
            assert!(
                started.elapsed() < Duration::from_mins(1),
                "never got there"
            );
            thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn save_is_off_until_each_problem_is_confirmed_then_saves_without_a_window() {
        let dir = tempfile::tempdir().unwrap();
        let document = dir.path().join("snow.txt");
        fs::write(&document, "snow ☃\n").unwrap();
        let mut save = SaveAs::default();
        let settings = SaveSettings {
            encoding: WINDOWS_1252.name().to_owned(),
            ..SaveSettings::default()
        };
        let request = OpenRequest {
            source: TextSource::Text(Arc::from("snow ☃\n")),
            title: "snow.txt".to_owned(),
            document: document.clone(),
            generation: 1,
            utf8: false,
        };
        assert!(save.open(request, &settings, Arc::new(|| {})));
        assert!(poll_until(&mut save, |save| save.preview().is_some()).is_none());
        let form = save.form().unwrap();
        assert_eq!(form.target, "snow.windows-1252.txt");
        assert_eq!(
            form.can_save(),
            Err(SaveBlocked::Unencodable {
                count: 1,
                encoding: WINDOWS_1252
            })
        );
        // html mode writes &#9731;, which reads back as itself, not ☃.
        form.html = true;
        assert_eq!(form.can_save(), Err(SaveBlocked::KeepLoss));
        form.confirm.loss = true;
        assert_eq!(form.can_save(), Ok(()));
        // A target that exists needs its own confirmation.
        form.target = "snow.txt".to_owned();
        form.target_typed();
        assert_eq!(form.can_save(), Err(SaveBlocked::ReplaceOpen));
        form.target = "out.txt".to_owned();
        form.target_typed();
        form.start_save();
        let outcome = poll_until(&mut save, |_| false);
        let Some(Outcome::Saved {
            saved,
            settings,
            replaced_open_file,
        }) = outcome
        else {
            panic!("{outcome:?}");
        };
        assert!(!replaced_open_file && settings.html);
        assert_eq!(fs::read(&saved.target).unwrap(), b"snow &#9731;\n");
        assert!(!save.is_open());
    }
}
