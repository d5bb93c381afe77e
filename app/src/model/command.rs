//! What panels, menus and shortcuts ask for. Commands are collected during
//! a frame and applied once, at its end, by `InspectorApp::apply`.

use std::path::PathBuf;

use mojiscope_core::Encoding;

use crate::model::cursor::Motion;
use crate::model::layout::Arrangement;
use crate::model::repair::manual::HandRepair;
use crate::model::selection::Selection;

/// One thing the user asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Show the file dialog (on a worker thread).
    OpenDialog,
    /// Open a file.
    Open(PathBuf),
    /// Show File ▸ Open folder…'s window and the native folder chooser.
    OpenFolderDialog,
    /// Scan a folder in the folder window.
    OpenFolder(PathBuf),
    /// Open one of the built-in samples (`SAMPLES`'s index).
    OpenSample(usize),
    /// Read the open file again.
    Reload,
    /// Close the open file.
    Close,
    /// Decode pane `pane` with another encoding.
    SetEncoding {
        /// The pane's index.
        pane: usize,
        /// The encoding.
        encoding: &'static Encoding,
    },
    /// Show the Mixed reading in a pane (each part of a file in several
    /// encodings decoded with its own), or stop showing it.
    SetMixed {
        /// The pane's index.
        pane: usize,
        /// Whether to show it.
        mixed: bool,
    },
    /// Add a decode pane.
    AddPane,
    /// Remove a decode pane.
    RemovePane(usize),
    /// Make a pane the one F8 moves in.
    FocusPane(usize),
    /// Make a pane the focused one and give it the keyboard focus
    /// (Ctrl+1..4).
    FocusPaneByKeyboard(usize),
    /// Give the hex view the keyboard focus.
    FocusHex,
    /// Close the window.
    Quit,
    /// Select bytes in every view.
    Select(Selection),
    /// Move the selection's cursor from the keyboard, or extend the
    /// selection to it.
    MoveCursor {
        /// The view with the keyboard focus.
        view: View,
        /// How far.
        motion: Motion,
        /// Whether the selection is extended (Shift) rather than moved.
        extend: bool,
    },
    /// Copy the selection to the clipboard.
    Copy(CopyAs),
    /// Show the find bar (Ctrl+F), for text or, from the hex view, bytes.
    ShowFind {
        /// Whether bytes in hex are sought.
        hex: bool,
    },
    /// Go to the next (or previous) match of what the find bar holds,
    /// finding it first if it changed.
    FindNext(bool),
    /// Close the find bar.
    CloseFind,
    /// Scroll every view to a byte offset.
    Reveal(u64),
    /// Select the next error of the focused pane.
    NextError,
    /// Select the previous error of the focused pane.
    PreviousError,
    /// Show the Go to offset box.
    ShowGoTo,
    /// Select the byte at an offset and scroll to it.
    GoTo(u64),
    /// Bytes per hex view row (0: as many as fit).
    SetHexWidth(usize),
    /// How the decode panes are arranged.
    SetArrangement(Arrangement),
    /// Whether the panes line up the same bytes at the same column.
    SetAlignBytes(bool),
    /// Draw everything this much larger than usual.
    Zoom(f32),
    /// Make the inspector taller (`true`) or shorter, a step at a time.
    ResizeInspector(bool),
    /// Light or dark.
    SetDarkMode(bool),
    /// Stop the background jobs.
    CancelJobs,
    /// Show Help ▸ About mojiscope.
    ShowAbout,
    /// Show (true) or hide Help ▸ Keyboard shortcuts.
    ShowShortcuts(bool),
    /// Show how detection ranks an encoding, and why.
    ShowWhy(&'static Encoding),
    /// Open a window of the Learn menu.
    ShowLesson(Lesson),
    /// Open the Repair window, repairing the focused pane's decode unless
    /// its repair is already running or done.
    Repair,
    /// Repair the focused pane's decode anew.
    RepairAgain,
    /// Stop the running repair.
    CancelRepair,
    /// Open File ▸ Save as on the Repair window's accepted text.
    SaveRepaired,
    /// Put the Repair window's accepted changes in place in the pane's
    /// text, as one step that Edit ▸ Undo takes back.
    ApplyRepaired,
    /// Open File ▸ Save as on the focused pane's text.
    SaveAs,
    /// Show the native dialog that picks where Save as writes.
    BrowseSaveTarget,
    /// The same, with UTF-8 preselected.
    SaveAsUtf8,
    /// Repair by hand: reinterpret, undo, redo, the lab, explain.
    HandRepair(HandRepair),
}

impl Command {
    /// Opens `path` as what it is: a folder in the folder window (as File ▸
    /// Open folder… does), anything else as the document.
    pub fn open_path(path: PathBuf) -> Self {
        if path.is_dir() {
            Command::OpenFolder(path)
        } else {
            Command::Open(path)
        }
    }
}

/// A view the selection can be made in from the keyboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The hex view: the cursor steps over bytes.
    Hex,
    /// A pane, by index: the cursor steps over its characters.
    Pane(usize),
}

/// What the clipboard gets of the selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyAs {
    /// The text the pane decodes the selected bytes to.
    Text(usize),
    /// The bytes in hex, "82 A0".
    Hex,
    /// The bytes as escapes, "\x82\xA0".
    Escaped,
}

/// The lessons of the Learn menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lesson {
    /// The 256 bytes of a single-byte encoding, compared with another.
    CodePageChart,
    /// The multi-byte indexes, laid out by the pointer arithmetic.
    IndexBrowser,
    /// A character's bytes in every encoding.
    WhereIs,
    /// Encode and decode, step by step, and watch the mojibake appear.
    MojibakeLab,
}

impl Lesson {
    /// Every lesson, in the order the menu lists them.
    pub const ALL: [Lesson; 4] = [
        Lesson::CodePageChart,
        Lesson::IndexBrowser,
        Lesson::WhereIs,
        Lesson::MojibakeLab,
    ];
}

/// Parses what the user typed into Go to offset: decimal, or hex with `0x`.
pub fn parse_offset(text: &str) -> Option<u64> {
    let text = text.trim();
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else {
        text.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_parse_as_decimal_or_hex() {
        assert_eq!(parse_offset(" 42 "), Some(42));
        assert_eq!(parse_offset("0x1F"), Some(31));
        assert_eq!(parse_offset("0X1f"), Some(31));
        assert_eq!(parse_offset("zz"), None);
        assert_eq!(parse_offset(""), None);
    }
}
