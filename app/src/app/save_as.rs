//! File ▸ Save as and Save as UTF-8: the dialog opened on the focused
//! pane's text, and what the window does after a save.

use std::fmt::Write as _;
use std::sync::Arc;

use eframe::egui::Ui;

use super::dialogs::FileDialog;
use super::{InspectorApp, keys};
use crate::model::command::Command;
use crate::model::save::save_as::{OpenRequest, Outcome};
use crate::model::save::{Saved, TextSource};
use crate::theme::Palette;
use crate::ui::decode_view::mixed_name;
use crate::ui::readings::edits_in_words;
use crate::ui::save_dialog::{DialogEnv, save_dialog_ui};

impl InspectorApp {
    /// Opens the save dialog on the text of the focused pane's decode;
    /// `utf8` preselects UTF-8.
    pub(super) fn open_save_dialog(&mut self, utf8: bool) {
        // With reinterpretations by hand: the text with them.
        if self.save_working_text(self.session.focused_pane) {
            return;
        }
        let hidden_edits = self.edits.target().filter(|target| {
            target.pane == self.session.focused_pane && !self.edits.edits().is_empty()
        });
        let Some(document) = &self.session.document else {
            return;
        };
        let index = self.session.focused_pane;
        let Some(pane) = self.session.panes.get(index) else {
            return;
        };
        // A byte order mark may have picked another encoding than the pane's.
        let decoded_as = pane.analysis.as_ref().map_or(pane.encoding, |a| a.encoding);
        let name = document.path.file_name().map_or_else(
            || document.path.display().to_string(),
            |name| name.to_string_lossy().into_owned(),
        );
        // The Mixed reading saves each part decoded with its own encoding.
        let (source, reading) = match &pane.parts {
            Some(parts) => (
                TextSource::Mixed {
                    bytes: document.bytes.clone(),
                    parts: Arc::clone(parts),
                    bom_handling: pane.bom_handling,
                },
                mixed_name(parts),
            ),
            None => (
                TextSource::Decode {
                    bytes: document.bytes.clone(),
                    encoding: pane.encoding,
                    bom_handling: pane.bom_handling,
                },
                decoded_as.name().to_owned(),
            ),
        };
        let request = OpenRequest {
            source,
            title: format!("pane {}: {name} decoded as {reading}", index + 1),
            document: document.path.clone(),
            generation: document.generation,
            utf8,
        };
        if !self
            .save
            .open(request, &self.settings.save, Arc::clone(&self.repaint))
        {
            self.session.notice = Some("a save is running; wait for it to finish".to_owned());
        } else if let Some(target) = hidden_edits {
            // Saved text that leaves out what the user did must say so.
            self.session.notice = Some(format!(
                "saving pane {} as it reads now ({}), without its {}: they are of its {} \
                 reading; choose {} for the pane again to save them",
                index + 1,
                pane.encoding.name(),
                edits_in_words(self.edits.edits()),
                target.encoding.name(),
                target.encoding.name(),
            ));
        }
    }

    /// Shows the save dialog, if it is open, and follows up on a save.
    pub(super) fn save_dialog_ui(&mut self, ui: &mut Ui) {
        let env = DialogEnv {
            palette: Palette::for_theme(ui.ctx().theme()),
            generation: self.session.document.as_ref().map(|d| d.generation),
            dialogs_enabled: self.dialogs_enabled,
            browsing: self.dialogs.is_open(FileDialog::SaveTarget),
        };
        let Some(Outcome::Saved {
            saved,
            settings,
            replaced_open_file,
        }) = save_dialog_ui(ui, &mut self.save, &env, &mut self.commands)
        else {
            return;
        };
        self.settings.save = settings;
        self.session.notice = Some(saved_notice(&saved));
        // The focused pane's text was saved, with the changes applied to it.
        if let Some(shown) = super::hand_repair::shown_edits(&self.edits, &self.session)
            && shown.pane == self.session.focused_pane
        {
            self.saved_edits = Some(shown.revision);
        }
        // The watch reloads a file replaced on disk; without one, reload
        // here, so that the window shows the bytes now on disk.
        if replaced_open_file && self.watch.is_none() {
            self.commands.push(Command::Reload);
        }
    }
}

/// The File menu's Save as and Save as UTF-8.
pub(super) fn save_menu_ui(ui: &mut Ui, commands: &mut Vec<Command>, has_document: bool) {
    if keys::menu_item(ui, "&Save as…", keys::SAVE_AS, has_document) {
        commands.push(Command::SaveAs);
    }
    if keys::menu_item(ui, "Save as &UTF-8…", keys::SAVE_AS_UTF8, has_document) {
        commands.push(Command::SaveAsUtf8);
    }
}

/// "saved notes.utf-8.txt: 1234 bytes in UTF-8", and what else happened.
fn saved_notice(saved: &Saved) -> String {
    let preview = &saved.preview;
    let mut notice = format!(
        "saved {}: {} bytes in {}{}",
        saved.target.display(),
        preview.bytes,
        preview.encoding.name(),
        if preview.bom {
            " with a byte order mark"
        } else {
            ""
        }
    );
    // Writing to a String cannot fail.
    if let Some(backup) = &saved.backup {
        write!(
            notice,
            "; the file it replaced is kept as {}",
            backup.display()
        )
        .ok();
    }
    if saved.cleaned > 0 {
        write!(
            notice,
            "; removed {} temporary file(s) left by an interrupted save",
            saved.cleaned
        )
        .ok();
    }
    notice
}
