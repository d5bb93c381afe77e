//! The [`Session`]: the open document and what the background jobs learned
//! of it (not persisted; a new one starts with every load).

use std::sync::Arc;

use mojiscope_core::{Detection, Encoding, UTF_16BE, UTF_16LE};

use crate::model::analysis::{ErrorCount, LineIndex};
use crate::model::document::Document;
use crate::model::selection::Selection;
use crate::ui::decode_view::Pane;
use crate::ui::hex_view::HexView;
use crate::ui::inspector::Inspector;
use crate::ui::rows::RowPosition;

/// The fewest and the most decode panes side by side.
pub const MIN_PANES: usize = 2;
/// See [`MIN_PANES`].
pub const MAX_PANES: usize = 4;

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
