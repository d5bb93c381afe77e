//! The [`Session`]: the open document and what the background jobs learned
//! of it (not persisted; a new one starts with every load).

use std::sync::Arc;

use mojiscope_core::{
    BomHandling, ByteSpan, Detection, Encoding, Segmentation, UTF_16BE, UTF_16LE,
};

use crate::model::analysis::EncodingAnalysis;
use crate::model::analysis::counts::ErrorCount;
use crate::model::analysis::lines::LineIndex;
use crate::model::analysis::mixed::Parts;
use crate::model::document::Document;
use crate::model::document_jobs::Mojibake;
use crate::model::find::Needle;
use crate::model::selection::Selection;
use crate::model::verdict::{Applied, Facts, Verdict, verdict};

/// One decode pane: its encoding and what its job learned (how it is drawn
/// is the views' business).
#[derive(Clone, Debug)]
pub struct Pane {
    /// The encoding chosen for the pane.
    pub encoding: &'static Encoding,
    /// How its decode treats a byte order mark.
    pub bom_handling: BomHandling,
    /// The Mixed reading's parts, when the pane decodes each part of a
    /// file in several encodings with its own (`encoding` is then the
    /// first part's).
    pub parts: Option<Parts>,
    /// The whole-file analysis, once its job is done.
    pub analysis: Option<Arc<EncodingAnalysis>>,
    /// Bytes done and total of the running analysis.
    pub progress: Option<(u64, u64)>,
    /// Why the analysis failed, if it did.
    pub failed: Option<String>,
}

impl Pane {
    /// A pane for `encoding`, its analysis not started.
    pub fn new(encoding: &'static Encoding, bom_handling: BomHandling) -> Self {
        Self {
            encoding,
            bom_handling,
            parts: None,
            analysis: None,
            progress: None,
            failed: None,
        }
    }
}

/// A find and its matches.
#[derive(Clone, Debug)]
pub struct Find {
    /// What is sought.
    pub needle: Needle,
    /// Where, once the job is done.
    pub matches: Option<Vec<ByteSpan>>,
    /// Bytes searched so far, and of how many, while it runs.
    pub progress: Option<(u64, u64)>,
    /// Whether the job's answer goes to the next match (or the previous).
    pub then_forward: Option<bool>,
    /// The match selected last.
    pub current: Option<usize>,
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
    /// The file's parts in different encodings, once found (after
    /// detection).
    pub segmentation: Option<Arc<Segmentation>>,
    /// The parts the Mixed reading decodes, when there are several.
    pub parts: Option<Parts>,
    /// The mojibake found at the start of the file, once detection is done.
    pub mojibake: Option<Mojibake>,
    /// Progress of the counting or indexing job: done, total.
    pub progress: Option<(u64, u64)>,
    /// The shared selection.
    pub selection: Option<Selection>,
    /// Where the keyboard's selection began (Shift+arrows extend from it)
    /// and the item that moves, while the keyboard makes the selection.
    pub cursor: Option<(ByteSpan, ByteSpan)>,
    /// The last find: what, and where it is once the job found it.
    pub find: Option<Find>,
    /// The pane F8 moves in.
    pub focused_pane: usize,
    /// Whether the panes were set from the error counts (or from the recent files).
    pub panes_settled: bool,
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
        let detection =
            (self.detection.is_none() || self.segmentation.is_none()) && !self.failed.detection;
        let find = self
            .find
            .as_ref()
            .is_some_and(|find| find.matches.is_none());
        panes
            + usize::from(lines)
            + usize::from(counts)
            + usize::from(detection)
            + usize::from(find)
    }

    /// The encoding a UTF-16 byte order mark forces on every pane, if the
    /// document starts with one.
    pub fn forced_by_bom(&self) -> Option<&'static Encoding> {
        self.document
            .as_ref()
            .and_then(|document| document.bom)
            .filter(|&bom| bom == UTF_16LE || bom == UTF_16BE)
    }

    /// What the verdict line says of the document, from what is known so
    /// far.
    pub fn verdict(&self) -> Verdict {
        self.verdict_with(None)
    }

    /// [`Session::verdict`], with the changes `applied` to a pane's text.
    pub fn verdict_with(&self, applied: Option<Applied>) -> Verdict {
        let mut errors: Vec<(&'static Encoding, u64)> = self
            .counts
            .iter()
            .flatten()
            .map(|count| (count.encoding, count.errors))
            .collect();
        errors.extend(self.panes.iter().filter_map(|pane| {
            let analysis = pane.analysis.as_ref()?;
            analysis
                .is_complete()
                .then_some((analysis.encoding, analysis.errors))
        }));
        let facts = Facts {
            bom: self.document.as_ref().and_then(|d| d.bom),
            detection: self.detection.as_deref(),
            segments: self.segmentation.as_deref().filter(|s| s.is_mixed()),
            lines: self.lines.as_deref(),
            errors: &errors,
            mojibake: self
                .mojibake
                .as_ref()
                .map(|m| (m.damage.as_str(), m.changes)),
            applied,
        };
        verdict(&facts)
    }

    /// How many encodings the file's parts are in (1 until they are
    /// known, or for a file in one).
    pub fn encodings_in_file(&self) -> usize {
        let Some(parts) = &self.parts else {
            return 1;
        };
        let mut encodings: Vec<&'static Encoding> = parts.iter().map(|p| p.encoding).collect();
        encodings.sort_by_key(|e| e.name());
        encodings.dedup();
        encodings.len()
    }

    /// The panes' encodings.
    pub fn pane_encodings(&self) -> Vec<&'static Encoding> {
        self.panes.iter().map(|pane| pane.encoding).collect()
    }
}
