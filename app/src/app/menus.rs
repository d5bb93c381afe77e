//! The menu bar. Every entry has an access key (its underlined letter,
//! [`menu`]), most a shortcut too; Alt and a menu's letter opens it (F10
//! the first), and the arrow keys move in it.

use eframe::egui::{self, Id, MenuBar, Popup, Ui};

use super::repair_mojibake::repair_menu_ui;
use super::{InspectorApp, keys};
use crate::model::command::Command;
use crate::model::layout::{Arrangement, zoom_step, zoom_text};
use crate::model::settings::Settings;
use crate::ui::menu;
use crate::ui::teaching::learn_menu_ui;

/// The menus of the bar, with their access keys.
pub const MENUS: [(&str, char); 7] = [
    ("&File", 'f'),
    ("&Edit", 'e'),
    ("&View", 'v'),
    ("&Navigate", 'n'),
    ("&Learn", 'l'),
    ("&Repair", 'r'),
    ("&Help", 'h'),
];

impl InspectorApp {
    /// The menu bar; opens the menu Alt+letter asked for.
    pub(super) fn menu_ui(&mut self, ui: &mut Ui) {
        let open = self.menu_to_open.take();
        MenuBar::new().ui(ui, |ui| {
            for (label, key) in MENUS {
                let job = menu::label_job(ui, label);
                let response = ui.menu_button(job, |ui| match key {
                    'f' => self.file_menu_ui(ui),
                    'e' => self.edit_menu_ui(ui),
                    'v' => self.view_menu_ui(ui),
                    'n' => self.navigate_menu_ui(ui),
                    'l' => learn_menu_ui(ui, &self.teaching, &mut self.commands),
                    'r' => repair_menu_ui(ui, &mut self.commands, self.session.document.is_some()),
                    _ => self.help_menu_ui(ui),
                });
                if open == Some(key) {
                    open_menu(ui.ctx(), response.response.id);
                }
            }
        });
    }

    fn file_menu_ui(&mut self, ui: &mut Ui) {
        let commands = &mut self.commands;
        let has_document = self.session.document.is_some();
        if keys::menu_item(ui, "&Open…", keys::OPEN, self.dialogs_enabled) {
            commands.push(Command::OpenDialog);
        }
        ui.menu_button(menu::label_job(ui, "Open &Recent"), |ui| {
            if self.settings.recent.is_empty() {
                ui.label("No recent files");
            }
            for (index, recent) in self.settings.recent.iter().enumerate().take(9) {
                let label = format!("&{} {}", index + 1, recent.path.display());
                let shortcut = format!("Alt+{}", index + 1);
                if menu::item(ui, &label, Some(&shortcut), true) {
                    commands.push(Command::Open(recent.path.clone()));
                }
            }
        });
        if keys::menu_item(ui, "Open &folder…", keys::OPEN_FOLDER, true) {
            commands.push(Command::OpenFolderDialog);
        }
        if keys::menu_item(ui, "Re&load", keys::RELOAD, has_document) {
            commands.push(Command::Reload);
        }
        if keys::menu_item(ui, "&Close", keys::CLOSE, has_document) {
            commands.push(Command::Close);
        }
        ui.separator();
        super::save_as::save_menu_ui(ui, commands, has_document);
        ui.separator();
        if keys::menu_item(ui, "&Quit", keys::QUIT, true) {
            commands.push(Command::Quit);
        }
    }

    fn view_menu_ui(&mut self, ui: &mut Ui) {
        let commands = &mut self.commands;
        let settings = &self.settings;
        let zoom = settings.zoom();
        if keys::menu_item(ui, "Zoom &in", keys::ZOOM_IN, true) {
            commands.push(Command::Zoom(zoom_step(zoom, true)));
        }
        if keys::menu_item(ui, "Zoom &out", keys::ZOOM_OUT, true) {
            commands.push(Command::Zoom(zoom_step(zoom, false)));
        }
        let actual = format!("&Actual size (now {})", zoom_text(zoom));
        if keys::menu_item(ui, &actual, keys::ZOOM_RESET, true) {
            commands.push(Command::Zoom(1.0));
        }
        ui.separator();
        let has_document = self.session.document.is_some();
        if keys::menu_item(
            ui,
            "&Grow the inspector",
            keys::INSPECTOR_TALLER,
            has_document,
        ) {
            commands.push(Command::ResizeInspector(true));
        }
        if keys::menu_item(
            ui,
            "Shrin&k the inspector",
            keys::INSPECTOR_SHORTER,
            has_document,
        ) {
            commands.push(Command::ResizeInspector(false));
        }
        ui.separator();
        ui.label("Panes");
        for (arrangement, label) in
            Arrangement::ALL
                .into_iter()
                .zip(["Auto&matic", "S&tacked", "Side &by side"])
        {
            if menu::radio(ui, settings.arrangement == arrangement, label) {
                commands.push(Command::SetArrangement(arrangement));
            }
        }
        let mut align = settings.align_bytes;
        if menu::checkbox(ui, &mut align, "&Line up the same bytes in every pane") {
            commands.push(Command::SetAlignBytes(align));
        }
        ui.separator();
        ui.label("Bytes per hex row");
        if menu::radio(ui, settings.hex_width().is_none(), "As many as &fit") {
            commands.push(Command::SetHexWidth(0));
        }
        for (width, label) in
            Settings::HEX_WIDTHS
                .into_iter()
                .zip(["&8 bytes", "1&6 bytes", "&32 bytes"])
        {
            if menu::radio(ui, settings.hex_width() == Some(width), label) {
                commands.push(Command::SetHexWidth(width));
            }
        }
        ui.separator();
        let mut dark = settings.dark_mode;
        if menu::checkbox(ui, &mut dark, "&Dark theme") {
            commands.push(Command::SetDarkMode(dark));
        }
    }

    fn navigate_menu_ui(&mut self, ui: &mut Ui) {
        let commands = &mut self.commands;
        let has_document = self.session.document.is_some();
        if keys::menu_item(ui, "&Next error", keys::NEXT_ERROR, has_document) {
            commands.push(Command::NextError);
        }
        if keys::menu_item(ui, "&Previous error", keys::PREVIOUS_ERROR, has_document) {
            commands.push(Command::PreviousError);
        }
        if keys::menu_item(ui, "&Go to offset…", keys::GO_TO, has_document) {
            commands.push(Command::ShowGoTo);
        }
        if keys::menu_item(ui, "&Find…", keys::FIND, has_document) {
            commands.push(Command::ShowFind { hex: false });
        }
        if keys::menu_item(ui, "Find ne&xt", keys::FIND_NEXT, has_document) {
            commands.push(Command::FindNext(true));
        }
        if keys::menu_item(ui, "Find pre&vious", keys::FIND_PREVIOUS, has_document) {
            commands.push(Command::FindNext(false));
        }
        ui.separator();
        for pane in 0..self.session.panes.len() {
            let label = format!("Focus pane &{}", pane + 1);
            let shortcut = format!("Ctrl+{}", pane + 1);
            if menu::item(ui, &label, Some(&shortcut), true) {
                commands.push(Command::FocusPaneByKeyboard(pane));
            }
        }
        if keys::menu_item(ui, "Focus the &hex view", keys::FOCUS_HEX, has_document) {
            commands.push(Command::FocusHex);
        }
    }

    fn help_menu_ui(&mut self, ui: &mut Ui) {
        if keys::menu_item(ui, "&Keyboard shortcuts", keys::SHORTCUTS, true) {
            self.commands.push(Command::ShowShortcuts(true));
        }
        if menu::item(ui, "&About mojiscope", None, true) {
            self.commands.push(Command::ShowAbout);
        }
    }
}

/// Opens the menu whose button is `button`, with the keyboard focus on
/// the button: Down then goes into the menu.
fn open_menu(ctx: &egui::Context, button: Id) {
    Popup::open_id(ctx, button.with("popup"));
    ctx.memory_mut(|memory| memory.request_focus(button));
    ctx.request_repaint();
}
