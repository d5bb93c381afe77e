//! Repair ▸ Repair mojibake…: starting the repair of the focused pane's
//! decode, and saving the repaired text. The repair is the model's
//! (`model::repair`); the window is `ui::repair_view`'s.

use std::sync::Arc;

use eframe::egui::Ui;

use super::{InspectorApp, keys};
use crate::model::command::Command;
use crate::model::repair::RepairRequest;
use crate::model::repair::manual::{
    Edit, EditOrigin, EditTarget, Reinterpreted, chain_name, lost_marks,
};
use crate::model::repair::task::RepairJob;
use crate::model::save::TextSource;
use crate::model::save::save_as::OpenRequest;
use crate::model::wording::plural;

impl InspectorApp {
    /// Opens the Repair window and repairs the focused pane's decode of the
    /// whole file, unless (when not `again`) that repair is already running
    /// or done for this load of the file: reopening the window keeps what
    /// was accepted.
    pub(super) fn repair_focused_pane(&mut self, again: bool) {
        self.repair_window.open();
        let session = &self.session;
        let Some(document) = &session.document else {
            return;
        };
        let Some(pane) = session.panes.get(session.focused_pane) else {
            return;
        };
        let request = RepairRequest {
            pane: session.focused_pane,
            encoding: pane.encoding,
            bom_handling: pane.bom_handling,
        };
        if !again && self.repair.is_current(request, document.generation) {
            return;
        }
        self.jobs.start_repair(document, request);
        self.repair.start(RepairJob {
            request,
            generation: document.generation,
            path: document.path.clone(),
        });
        self.repair_window.restart();
    }
}

impl InspectorApp {
    /// Opens File ▸ Save as on the Repair window's text with the accepted
    /// changes applied, UTF-8 preselected (a repair may bring back
    /// characters the decoded encoding cannot encode). A repair of an
    /// earlier load of the file is refused: its text is not the file's now.
    pub(super) fn save_repaired_text(&mut self) {
        let Some(document) = &self.session.document else {
            return;
        };
        let Some(review) = self.repair.review() else {
            self.session.notice =
                Some("nothing repaired to save: run Repair ▸ Repair mojibake… first".to_owned());
            return;
        };
        if review.generation() != document.generation {
            self.session.notice = Some(STALE_SAVE.to_owned());
            self.repair.refuse_save(STALE_SAVE);
            return;
        }
        // With reinterpretations by hand too: the text with both.
        let pane = review.request().pane;
        if self.save_working_text(pane) {
            return;
        }
        let (Some(document), Some(review)) = (&self.session.document, self.repair.review()) else {
            return;
        };
        let name = document.path.file_name().map_or_else(
            || document.path.display().to_string(),
            |name| name.to_string_lossy().into_owned(),
        );
        let request = OpenRequest {
            source: TextSource::Repaired {
                text: Arc::from(review.accepted_text()),
                decoded_as: review.encoding(),
                errors: Arc::from(review.accepted_error_offsets()),
            },
            title: format!(
                "pane {}: {name} decoded as {}, repaired ({} of {} accepted)",
                review.request().pane + 1,
                review.encoding().name(),
                review.accepted_count(),
                plural(review.proposals().len(), "change", "changes"),
            ),
            document: document.path.clone(),
            generation: document.generation,
            utf8: true,
        };
        if !self
            .save
            .open(request, &self.settings.save, Arc::clone(&self.repaint))
        {
            self.session.notice = Some("a save is running; wait for it to finish".to_owned());
        }
    }
}

impl InspectorApp {
    /// Puts the Repair window's accepted changes in place in the repaired
    /// pane's text, as one step: the pane shows them where they are, Save
    /// as writes them, and Edit ▸ Undo takes them back together. A change
    /// over a reinterpretation by hand is left out (the user chose that
    /// reading).
    pub(super) fn apply_repaired_to_pane(&mut self) {
        self.forget_stale_edits();
        let (Some(document), Some(review)) = (&self.session.document, self.repair.review()) else {
            return;
        };
        if review.generation() != document.generation {
            self.session.notice = Some(STALE_APPLY.to_owned());
            return;
        }
        let request = review.request();
        if let Some(pane) = self.session.panes.get(request.pane)
            && (pane.encoding != request.encoding || pane.bom_handling != request.bom_handling)
        {
            self.session.notice = Some(format!(
                "cannot apply the repair: pane {} now reads the file as {}, and the repair was \
                 of its {} reading; choose {} for it again, or repair again",
                request.pane + 1,
                pane.encoding.name(),
                request.encoding.name(),
                request.encoding.name(),
            ));
            return;
        }
        let target = EditTarget {
            pane: request.pane,
            encoding: request.encoding,
            bom_handling: request.bom_handling,
            generation: review.generation(),
        };
        let text = review.text();
        let edits: Vec<Edit> = review
            .proposals()
            .iter()
            .enumerate()
            .filter(|&(index, proposal)| review.is_accepted(index) && !proposal.bytes.is_empty())
            .filter_map(|(_, proposal)| {
                let change = &proposal.change;
                let original = text.get(change.utf8_range.clone())?.to_owned();
                Some(Edit {
                    span: proposal.bytes,
                    original,
                    replacement: Reinterpreted {
                        lost: lost_marks(&change.replacement, &change.lost),
                        text: change.replacement.clone(),
                    },
                    how: format!(
                        "{} at bytes {:#X}..{:#X}",
                        chain_name(change.chain),
                        proposal.bytes.start,
                        proposal.bytes.end
                    ),
                    origin: EditOrigin::Repair,
                })
            })
            .collect();
        if edits.is_empty() {
            self.session.notice = Some(
                "nothing to apply: no change of the repair is accepted (tick the ones to apply)"
                    .to_owned(),
            );
            return;
        }
        let pane = request.pane + 1;
        let accepted = edits.len();
        let what = format!(
            "the repair's {} in pane {pane}",
            plural(accepted, "change", "changes")
        );
        self.session.notice = Some(match self.edits.apply_all(target, edits, what) {
            Ok(0) => format!(
                "nothing to apply: the accepted changes are in pane {pane}'s text already, or \
                 under reinterpretations by hand"
            ),
            Ok(applied) => {
                let left = accepted - applied;
                format!(
                    "applied {} to pane {pane}{}; File ▸ Save as… writes the text with them, \
                     Ctrl+Z undoes them",
                    plural(applied, "change", "changes"),
                    if left > 0 {
                        format!(
                            " ({} left out: in place already, or under reinterpretations by hand)",
                            plural(left, "change", "changes")
                        )
                    } else {
                        String::new()
                    }
                )
            }
            Err(other) => format!(
                "pane {}'s text ({}) has reinterpretations not saved: save them with File ▸ \
                 Save as… or undo them before applying the repair of pane {pane}",
                other.pane + 1,
                other.encoding.name()
            ),
        });
    }
}

/// Why a stale repair is not applied.
const STALE_APPLY: &str = "cannot apply the repair: the file was reloaded after the repair, so \
     the repair is of text that is no longer there; repair again, then apply";

/// Why a stale repair is not saved.
const STALE_SAVE: &str = "cannot save the repaired text: the file was reloaded after the \
     repair, so the repair is of text that is no longer there; repair again, then save";

/// The Repair menu.
pub(super) fn repair_menu_ui(ui: &mut Ui, commands: &mut Vec<Command>, has_document: bool) {
    if keys::menu_item(ui, "&Repair mojibake…", keys::REPAIR, has_document) {
        commands.push(Command::Repair);
    }
}
