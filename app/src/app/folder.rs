//! File ▸ Open folder… in the app: the window
//! ([`FolderWindow`](crate::ui::folder_view::FolderWindow)) shown
//! each frame, and the folder chooser (or, without one, the window's path
//! field).

use eframe::egui::Ui;

use super::InspectorApp;
use crate::theme::Palette;

impl InspectorApp {
    /// File ▸ Open folder… (Ctrl+Shift+O): the window, and the native
    /// folder chooser when one may be used; the window's path field
    /// otherwise.
    pub(super) fn show_folder_dialog(&mut self) {
        self.folder.show();
        if self.dialogs_enabled {
            self.dialogs.pick_folder();
        }
    }

    /// The folder window, if open.
    pub(super) fn folder_ui(&mut self, ui: &Ui, palette: &Palette) {
        self.folder
            .ui(ui.ctx(), palette, self.dialogs_enabled, &mut self.commands);
    }
}
