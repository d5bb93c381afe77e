//! The app's state: [`Settings`] (persisted between runs by eframe), the
//! [`Session`] (the open document and what the jobs learned of it; not
//! persisted) and the [`Selection`] every view shares.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use mojiscope_core::{ByteSpan, Detection, Encoding, UTF_16BE, UTF_16LE};
use serde::{Deserialize, Serialize};

use crate::analysis::{ErrorCount, LineIndex};
use crate::document::Document;
use crate::save::SaveSettings;
use crate::ui::decode_view::Pane;
use crate::ui::hex_view::HexView;
use crate::ui::inspector::Inspector;
use crate::ui::rows::RowPosition;

/// How many files File ▸ Open Recent remembers.
pub const MAX_RECENT: usize = 10;

/// The fewest and the most decode panes side by side.
pub const MIN_PANES: usize = 2;
/// See [`MIN_PANES`].
pub const MAX_PANES: usize = 4;

/// What is remembered between runs (eframe's storage, key [`Settings::KEY`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Most recent first, at most [`MAX_RECENT`].
    pub recent: Vec<RecentFile>,
    /// Bytes per hex view row: 8, 16 or 32.
    pub hex_width: usize,
    /// Dark theme (else light).
    pub dark_mode: bool,
    /// The choices of the last save.
    pub save: SaveSettings,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            recent: Vec::new(),
            hex_width: 16,
            dark_mode: true,
            save: SaveSettings::default(),
        }
    }
}

impl Settings {
    /// The key under which eframe stores the settings.
    pub const KEY: &'static str = "mojiscope.settings";

    /// The hex view widths offered.
    pub const HEX_WIDTHS: [usize; 3] = [8, 16, 32];

    /// Puts `path` first in the recent files with the panes' encodings,
    /// dropping an older entry for it and the oldest beyond [`MAX_RECENT`].
    pub fn remember(&mut self, path: &Path, panes: &[&'static Encoding]) {
        self.recent.retain(|recent| recent.path != path);
        self.recent.insert(
            0,
            RecentFile {
                path: path.to_path_buf(),
                panes: panes.iter().map(|e| e.name().to_owned()).collect(),
            },
        );
        self.recent.truncate(MAX_RECENT);
    }

    /// The panes' encodings last used for `path`, if it is a recent file and
    /// they are all still override choices.
    pub fn panes_for(&self, path: &Path) -> Option<Vec<&'static Encoding>> {
        let recent = self.recent.iter().find(|recent| recent.path == path)?;
        let panes: Option<Vec<_>> = recent
            .panes
            .iter()
            .map(|name| Encoding::for_label(name.as_bytes()).filter(|e| e.is_override_choice()))
            .collect();
        panes.filter(|panes| (1..=MAX_PANES).contains(&panes.len()))
    }

    /// The hex width, forced into [`Settings::HEX_WIDTHS`].
    pub fn hex_width(&self) -> usize {
        if Self::HEX_WIDTHS.contains(&self.hex_width) {
            self.hex_width
        } else {
            16
        }
    }
}

/// Where the settings came from at startup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Restored {
    /// Read from the settings file.
    Read,
    /// There were none (a first start): the defaults.
    Fresh,
    /// They could not be read (`why`); the defaults are used, and the file
    /// is written anew when the window closes.
    Unreadable {
        /// For the notice.
        why: String,
    },
}

impl Settings {
    /// The settings stored as `stored` (eframe's stored string for
    /// [`Settings::KEY`], if any); `file_present` says whether the settings
    /// file exists and is not empty, so that a file eframe could not parse at
    /// all (it then stores nothing) is told apart from a first start.
    pub fn restore(stored: Option<&str>, file_present: bool) -> (Settings, Restored) {
        match stored {
            Some(text) => match ron::from_str::<Settings>(text) {
                Ok(settings) => (settings, Restored::Read),
                Err(error) => (
                    Settings::default(),
                    Restored::Unreadable {
                        why: error.to_string(),
                    },
                ),
            },
            None if file_present => (
                Settings::default(),
                Restored::Unreadable {
                    why: "the settings file is not valid".to_owned(),
                },
            ),
            None => (Settings::default(), Restored::Fresh),
        }
    }
}

impl Restored {
    /// The notice for the status bar, if the settings were lost.
    pub fn notice(&self) -> Option<String> {
        match self {
            Restored::Unreadable { why } => Some(format!(
                "the saved settings could not be read ({why}); starting with the defaults"
            )),
            Restored::Read | Restored::Fresh => None,
        }
    }
}

/// A recently opened file and the encodings its panes showed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecentFile {
    /// The file.
    pub path: PathBuf,
    /// The panes' encodings, by name.
    pub panes: Vec<String>,
}

/// Which view a selection was made in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectionOrigin {
    /// The hex view.
    Hex,
    /// A decode pane, by index.
    Pane(usize),
    /// Next or previous error, or Go to offset.
    Navigation,
}

/// The selection every view shows: a span of the file's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The selected bytes (never empty).
    pub span: ByteSpan,
    /// Where it was made.
    pub origin: SelectionOrigin,
}

/// Which of the document's whole-file jobs failed or were cancelled (their
/// results will not come).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Failed {
    /// Counting the errors of every override choice.
    pub counts: bool,
    /// Building the line index (with the primary pane's analysis).
    pub lines: bool,
    /// Detecting the encoding.
    pub detection: bool,
}

/// The open document and what the background jobs learned of it.
#[derive(Default)]
pub struct Session {
    /// The open file.
    pub document: Option<Document>,
    /// The generation of the last document opened (stale job events carry an older one).
    pub generation: u64,
    /// Why the last file could not be opened.
    pub load_error: Option<String>,
    /// A message for the status bar (a failed job, a dialog that could not open).
    pub notice: Option<String>,
    /// The decode panes, the primary one first.
    pub panes: Vec<Pane>,
    /// Row starts, from the primary pane's decode.
    pub lines: Option<Arc<LineIndex>>,
    /// Whole-file error counts of every override choice.
    pub counts: Option<Vec<ErrorCount>>,
    /// Which whole-file jobs failed or were cancelled.
    pub failed: Failed,
    /// The ranking of the candidate encodings.
    pub detection: Option<Arc<Detection>>,
    /// The encoding whose "why?" window is open.
    pub why: Option<&'static Encoding>,
    /// Progress of the counting or indexing job: done, total.
    pub progress: Option<(u64, u64)>,
    /// The shared selection.
    pub selection: Option<Selection>,
    /// The pane F8 moves in.
    pub focused_pane: usize,
    /// Where the panes are scrolled to (they scroll together).
    pub pane_position: RowPosition,
    /// The hex view's state.
    pub hex: HexView,
    /// The inspector's state.
    pub inspector: Inspector,
    /// The Go to offset box's text, while it is open.
    pub goto: Option<String>,
    /// Whether the panes were set from the error counts (or from the recent files).
    pub panes_settled: bool,
    /// After a reload: the byte offset whose row the panes scroll to once
    /// the new rows reach it.
    pub pending_pane_top: Option<u64>,
}

impl Session {
    /// How many results the session still waits for.
    pub fn pending_jobs(&self) -> usize {
        if self.document.is_none() {
            return 0;
        }
        let panes = self
            .panes
            .iter()
            .filter(|pane| {
                pane.failed.is_none()
                    && pane
                        .analysis
                        .as_ref()
                        .is_none_or(|analysis| !analysis.is_complete())
            })
            .count();
        let lines =
            self.lines.as_ref().is_none_or(|lines| !lines.is_complete()) && !self.failed.lines;
        let counts = self.counts.is_none() && !self.failed.counts;
        let detection = self.detection.is_none() && !self.failed.detection;
        panes + usize::from(lines) + usize::from(counts) + usize::from(detection)
    }

    /// The encoding a UTF-16 byte order mark forces on every pane, if the
    /// document starts with one.
    pub fn forced_by_bom(&self) -> Option<&'static Encoding> {
        self.document
            .as_ref()
            .and_then(|document| document.bom)
            .filter(|&bom| bom == UTF_16LE || bom == UTF_16BE)
    }

    /// The panes' encodings.
    pub fn pane_encodings(&self) -> Vec<&'static Encoding> {
        self.panes.iter().map(|pane| pane.encoding).collect()
    }
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{SHIFT_JIS, UTF_8, UTF_16LE};

    use super::*;

    #[test]
    fn recent_files_are_most_recent_first_without_duplicates() {
        let mut settings = Settings::default();
        for i in 0..12 {
            settings.remember(Path::new(&format!("/f{i}")), &[UTF_8]);
        }
        settings.remember(Path::new("/f5"), &[UTF_8, SHIFT_JIS]);
        assert_eq!(settings.recent.len(), MAX_RECENT);
        assert_eq!(settings.recent[0].path, Path::new("/f5"));
        assert_eq!(
            settings
                .recent
                .iter()
                .filter(|r| r.path == Path::new("/f5"))
                .count(),
            1
        );
        assert_eq!(
            settings.panes_for(Path::new("/f5")),
            Some(vec![UTF_8, SHIFT_JIS])
        );
    }

    #[test]
    fn settings_survive_a_round_trip_and_a_corrupt_file_gives_defaults() {
        let mut settings = Settings {
            hex_width: 32,
            dark_mode: false,
            ..Settings::default()
        };
        settings.remember(Path::new("/notes.txt"), &[UTF_8, SHIFT_JIS]);
        let text = ron::to_string(&settings).unwrap();
        assert_eq!(
            Settings::restore(Some(&text), true),
            (settings, Restored::Read)
        );
        let (restored, how) = Settings::restore(Some("(hex_width: \"wide\""), true);
        assert_eq!(restored, Settings::default());
        assert!(
            how.notice().unwrap().contains("could not be read"),
            "{how:?}"
        );
        let (restored, how) = Settings::restore(None, true);
        assert_eq!(restored, Settings::default());
        assert!(how.notice().is_some());
        assert_eq!(
            Settings::restore(None, false),
            (Settings::default(), Restored::Fresh)
        );
        // Fields added later or missing take their defaults.
        let (old, how) = Settings::restore(Some("(hex_width: 8)"), true);
        assert_eq!(
            (old.hex_width, old.dark_mode, how),
            (8, true, Restored::Read)
        );
    }

    #[test]
    fn remembered_panes_must_be_override_choices() {
        let mut settings = Settings::default();
        settings.remember(Path::new("/a"), &[UTF_16LE]);
        assert_eq!(settings.panes_for(Path::new("/a")), None);
    }
}
