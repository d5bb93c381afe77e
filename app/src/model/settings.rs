//! What is remembered between runs: [`Settings`], persisted by eframe,
//! restored at startup ([`Settings::restore`]) and written when the window
//! closes.

use std::path::{Path, PathBuf};

use mojiscope_core::Encoding;
use serde::{Deserialize, Serialize};

use crate::model::layout::{Arrangement, HEX_WIDTHS};
use crate::model::save::SaveSettings;

/// How many files File ▸ Open Recent remembers.
pub const MAX_RECENT: usize = 10;

/// What is remembered between runs (eframe's storage, key [`Settings::KEY`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Most recent first, at most [`MAX_RECENT`].
    pub recent: Vec<RecentFile>,
    /// Bytes per hex view row: 8, 16 or 32, or 0: as many as fit.
    pub hex_width: usize,
    /// How the decode panes are arranged.
    pub arrangement: Arrangement,
    /// Whether the panes line up the same bytes at the same column (else
    /// each reading flows on its own, none padded).
    pub align_bytes: bool,
    /// View ▸ Zoom: how much larger than usual everything is drawn.
    pub zoom: f32,
    /// Dark theme (else light).
    pub dark_mode: bool,
    /// The choices of the last save.
    pub save: SaveSettings,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            recent: Vec::new(),
            hex_width: 0,
            arrangement: Arrangement::Automatic,
            align_bytes: true,
            zoom: 1.0,
            dark_mode: true,
            save: SaveSettings::default(),
        }
    }
}

impl Settings {
    /// The key under which eframe stores the settings.
    pub const KEY: &'static str = "mojiscope.settings";

    /// The hex view widths offered.
    pub const HEX_WIDTHS: [usize; 3] = HEX_WIDTHS;

    /// Puts `path` first in the recent files with the panes' encodings,
    /// dropping an older entry for it and the oldest beyond [`MAX_RECENT`].
    pub fn remember(&mut self, path: &Path, panes: &[&'static Encoding]) {
        let path = absolute(path);
        self.recent.retain(|recent| recent.path != path);
        self.recent.insert(
            0,
            RecentFile {
                path,
                panes: panes.iter().map(|e| e.name().to_owned()).collect(),
            },
        );
        self.recent.truncate(MAX_RECENT);
    }

    /// The hex width chosen, if one is (of [`Settings::HEX_WIDTHS`]);
    /// `None`: as many bytes as fit.
    pub fn hex_width(&self) -> Option<usize> {
        Self::HEX_WIDTHS
            .contains(&self.hex_width)
            .then_some(self.hex_width)
    }

    /// The zoom factor, within the zoom steps.
    pub fn zoom(&self) -> f32 {
        let steps = crate::model::layout::ZOOM_STEPS;
        if self.zoom.is_finite() {
            self.zoom.clamp(steps[0], steps[steps.len() - 1])
        } else {
            1.0
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

/// `path` from the root, so that a recent file opens from any working
/// directory (as given if the working directory cannot be read).
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{SHIFT_JIS, UTF_8};

    use super::*;

    #[test]
    fn recent_files_are_kept_from_the_root() {
        let mut settings = Settings::default();
        settings.remember(Path::new("notes.txt"), &[SHIFT_JIS]);
        let stored = &settings.recent[0].path;
        assert!(stored.is_absolute(), "{stored:?}");
        assert!(stored.ends_with("notes.txt"));
        // Found again from the same relative path, or the absolute one.
        assert_eq!(
            settings.panes_for(Path::new("notes.txt")),
            Some(vec![SHIFT_JIS])
        );
        assert_eq!(settings.panes_for(stored), Some(vec![SHIFT_JIS]));
    }

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
}
