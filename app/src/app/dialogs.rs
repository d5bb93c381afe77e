//! The native file dialogs: File ▸ Open's, and Save as's Browse. Each
//! blocks its thread until the user answers, so each runs as a job of the
//! app's [`Runner`], and its answer arrives as an event, drained once a
//! frame like the others.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::model::jobs::{Repaint, Runner};

/// Answers wait here until the window drains them.
const CHANNEL_CAPACITY: usize = 2;

/// Which dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileDialog {
    /// File ▸ Open: a file to open.
    Open,
    /// Save as's Browse: where to save.
    SaveTarget,
    /// File ▸ Open folder…: a folder to scan.
    Folder,
}

/// What a dialog answered: the file picked (`None` when the user
/// cancelled), or why it could not be shown.
pub type Answer = Result<Option<PathBuf>, String>;

/// The native file dialogs, at most one of each kind open.
#[derive(Debug)]
pub struct FileDialogs {
    runner: Runner<FileDialog, Answer>,
}

impl FileDialogs {
    /// No dialog open; `repaint` is called when one answers.
    pub fn new(repaint: Repaint) -> Self {
        Self {
            runner: Runner::new(CHANNEL_CAPACITY, repaint),
        }
    }

    /// Shows File ▸ Open's dialog, unless it is open already.
    pub fn open_file(&mut self) {
        self.show(FileDialog::Open, "file dialog", rfd::FileDialog::new());
    }

    /// Shows File ▸ Open folder…'s folder chooser, unless it is open
    /// already.
    pub fn pick_folder(&mut self) {
        self.show(FileDialog::Folder, "folder dialog", rfd::FileDialog::new());
    }

    /// Shows the dialog that picks where to save, in `directory` with
    /// `name` filled in, unless it is open already.
    pub fn pick_save_target(&mut self, directory: PathBuf, name: String) {
        let dialog = rfd::FileDialog::new()
            .set_directory(directory)
            .set_file_name(name);
        self.show(FileDialog::SaveTarget, "save dialog", dialog);
    }

    /// Whether `dialog` is open.
    pub fn is_open(&self, dialog: FileDialog) -> bool {
        self.runner.is_current(dialog)
    }

    /// Whether no dialog is open.
    pub fn is_idle(&self) -> bool {
        !self.is_open(FileDialog::Open)
            && !self.is_open(FileDialog::SaveTarget)
            && !self.is_open(FileDialog::Folder)
    }

    /// The answer of a dialog that closed, if one did. Never blocks.
    pub fn try_recv(&mut self) -> Option<(FileDialog, Answer)> {
        let (dialog, answer) = self.runner.try_recv()?;
        self.runner.forget(dialog);
        Some((dialog, answer))
    }

    fn show(&mut self, which: FileDialog, thread: &str, dialog: rfd::FileDialog) {
        if self.is_open(which) {
            return;
        }
        self.runner
            .start(which, thread.to_owned(), Err, move |worker| {
                let started = Instant::now();
                let picked = match which {
                    FileDialog::Open => dialog.pick_file(),
                    FileDialog::SaveTarget => dialog.save_file(),
                    FileDialog::Folder => dialog.pick_folder(),
                };
                worker.answer(answer_of(which, picked, started.elapsed()));
            });
    }
}

/// Faster than anyone can cancel a dialog: an answer of nothing this soon
/// means no dialog was shown.
const NO_DIALOG: Duration = Duration::from_millis(300);

/// What the dialog answered, `elapsed` after it was asked for. With neither
/// a file chooser portal nor zenity, the dialog answers nothing at once,
/// as if cancelled: that is said, rather than nothing happening.
fn answer_of(which: FileDialog, picked: Option<PathBuf>, elapsed: Duration) -> Answer {
    match picked {
        None if elapsed < NO_DIALOG && which == FileDialog::Folder => Err(
            "no folder chooser is available (it needs xdg-desktop-portal or zenity): type the \
             folder's path above"
                .to_owned(),
        ),
        None if elapsed < NO_DIALOG => Err(
            "no file chooser is available (it needs xdg-desktop-portal or zenity); drag a file \
             onto the window or run: mojiscope FILE"
                .to_owned(),
        ),
        picked => Ok(picked),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_instant_nothing_means_no_dialog() {
        assert!(answer_of(FileDialog::Open, None, Duration::from_millis(5)).is_err());
        assert_eq!(
            answer_of(FileDialog::Open, None, Duration::from_secs(3)),
            Ok(None)
        );
        let picked = Some(PathBuf::from("a.txt"));
        assert_eq!(
            answer_of(FileDialog::Folder, picked.clone(), Duration::ZERO),
            Ok(picked)
        );
    }
}
