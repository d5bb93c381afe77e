//! Repair ▸ Repair mojibake…: starting the repair of the focused pane's
//! decode, and saving the repaired text. The repair is the model's
//! (`model::repair`); the window is `ui::repair_view`'s.

use std::sync::Arc;

use eframe::egui::Ui;

use super::InspectorApp;
use crate::model::command::Command;
use crate::model::repair::RepairRequest;
use crate::model::repair::task::RepairJob;
use crate::model::save::TextSource;
use crate::model::save::save_as::OpenRequest;
use crate::model::wording::plural;
use crate::ui::menu;

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

/// Why a stale repair is not saved.
const STALE_SAVE: &str = "cannot save the repaired text: the file was reloaded after the \
     repair, so the repair is of text that is no longer there; repair again, then save";

/// The Repair menu.
pub(super) fn repair_menu_ui(ui: &mut Ui, commands: &mut Vec<Command>, has_document: bool) {
    if menu::item(ui, "&Repair mojibake…", Some("Ctrl+Shift+R"), has_document) {
        commands.push(Command::Repair);
    }
}
