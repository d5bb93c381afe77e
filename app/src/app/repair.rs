//! Repair ▸ Repair mojibake…: starting the repair of the focused pane's
//! decode. The window and what it shows are `ui::repair_view`'s.

use super::InspectorApp;
use crate::repair::RepairRequest;
use crate::ui::repair_view::RepairJob;

impl InspectorApp {
    /// Opens the Repair window and repairs the focused pane's decode of the
    /// whole file, unless (when not `again`) that repair is already running
    /// or done for this load of the file: reopening the window keeps what
    /// was accepted.
    pub(super) fn repair_focused_pane(&mut self, again: bool) {
        self.repair.open();
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
    }
}
