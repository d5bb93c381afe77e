//! The top-level layout: menus, toolbar, status bar, inspector, hex view and
//! the decode panes. Panels only push [`Command`]s.

use eframe::egui::{
    self, Button, CentralPanel, Key, MenuBar, Modal, Panel, ProgressBar, RichText, TextEdit, Ui,
};

use super::InspectorApp;
use super::repair_mojibake::repair_menu_ui;
use super::views::DocumentViews;
use crate::model::command::{Command, parse_offset};
use crate::model::panes::{MAX_PANES, MIN_PANES};
use crate::model::session::Session;
use crate::model::settings::Settings;
use crate::theme::Palette;
use crate::ui::decode_view::PaneEnv;
use crate::ui::repair_view::RepairEnv;
use crate::ui::teaching::learn_menu_ui;
use crate::ui::why::why_ui;
use crate::ui::{PanelCtx, legend_ui, progress_fraction};

impl InspectorApp {
    /// Lays out the whole window.
    pub(super) fn layout(&mut self, ui: &mut Ui) {
        let palette = Palette::for_theme(ui.ctx().theme());
        Panel::top("menu bar").show(ui, |ui| self.menu_ui(ui));
        Panel::top("toolbar").show(ui, |ui| self.toolbar_ui(ui));
        Panel::bottom("status bar").show(ui, |ui| self.status_ui(ui, palette));
        self.about.ui(ui);
        self.teaching.ui(ui);
        let document = self
            .session
            .document
            .as_ref()
            .map(|d| (d.generation, d.path.as_path()));
        let env = RepairEnv { document, palette };
        self.repair_window
            .ui(ui.ctx(), &mut self.repair, &env, &mut self.commands);
        self.save_dialog_ui(ui);
        if self.session.document.is_none() {
            CentralPanel::default().show(ui, |ui| self.welcome_ui(ui, palette));
            return;
        }
        self.document_ui(ui, palette);
        self.goto_ui(ui);
        why_ui(
            ui.ctx(),
            &mut self.views.why,
            self.session.detection.as_deref(),
            palette,
        );
    }

    fn menu_ui(&mut self, ui: &mut Ui) {
        let commands = &mut self.commands;
        let has_document = self.session.document.is_some();
        MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui
                    .add_enabled(
                        self.dialogs_enabled,
                        Button::new("Open…").shortcut_text("Ctrl+O"),
                    )
                    .clicked()
                {
                    commands.push(Command::OpenDialog);
                }
                ui.menu_button("Open Recent", |ui| {
                    if self.settings.recent.is_empty() {
                        ui.label("No recent files");
                    }
                    for recent in &self.settings.recent {
                        if ui.button(recent.path.display().to_string()).clicked() {
                            commands.push(Command::Open(recent.path.clone()));
                        }
                    }
                });
                if ui
                    .add_enabled(has_document, Button::new("Reload").shortcut_text("Ctrl+R"))
                    .clicked()
                {
                    commands.push(Command::Reload);
                }
                if ui
                    .add_enabled(has_document, Button::new("Close").shortcut_text("Ctrl+W"))
                    .clicked()
                {
                    commands.push(Command::Close);
                }
                ui.separator();
                super::save_as::save_menu_ui(ui, commands, has_document);
                ui.separator();
                if ui.button("Quit").clicked() {
                    ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                }
            });
            ui.menu_button("View", |ui| {
                ui.label("Bytes per hex row");
                for width in Settings::HEX_WIDTHS {
                    if ui
                        .radio(self.settings.hex_width() == width, format!("{width} bytes"))
                        .clicked()
                    {
                        commands.push(Command::SetHexWidth(width));
                    }
                }
                ui.separator();
                let mut dark = self.settings.dark_mode;
                if ui.checkbox(&mut dark, "Dark theme").changed() {
                    commands.push(Command::SetDarkMode(dark));
                }
            });
            ui.menu_button("Navigate", |ui| {
                if ui
                    .add_enabled(has_document, Button::new("Next error").shortcut_text("F8"))
                    .clicked()
                {
                    commands.push(Command::NextError);
                }
                if ui
                    .add_enabled(
                        has_document,
                        Button::new("Previous error").shortcut_text("Shift+F8"),
                    )
                    .clicked()
                {
                    commands.push(Command::PreviousError);
                }
                if ui
                    .add_enabled(
                        has_document,
                        Button::new("Go to offset…").shortcut_text("Ctrl+G"),
                    )
                    .clicked()
                {
                    commands.push(Command::ShowGoTo);
                }
            });
            ui.menu_button("Learn", |ui| learn_menu_ui(ui, &self.teaching, commands));
            ui.menu_button("Repair", |ui| repair_menu_ui(ui, commands, has_document));
            ui.menu_button("Help", |ui| {
                if ui.button("About mojiscope").clicked() {
                    commands.push(Command::ShowAbout);
                }
            });
        });
    }

    fn toolbar_ui(&mut self, ui: &mut Ui) {
        let has_document = self.session.document.is_some();
        let panes = self.session.panes.len();
        let forced = self.session.forced_by_bom().is_some();
        ui.horizontal(|ui| {
            if ui
                .add_enabled(self.dialogs_enabled, Button::new("Open file…"))
                .clicked()
            {
                self.commands.push(Command::OpenDialog);
            }
            ui.separator();
            if ui
                .add_enabled(has_document, Button::new("◀ Previous error"))
                .on_hover_text("Shift+F8, in the focused pane")
                .clicked()
            {
                self.commands.push(Command::PreviousError);
            }
            if ui
                .add_enabled(has_document, Button::new("Next error ▶"))
                .on_hover_text("F8, in the focused pane")
                .clicked()
            {
                self.commands.push(Command::NextError);
            }
            ui.separator();
            if ui
                .add_enabled(
                    has_document && !forced && panes < MAX_PANES,
                    Button::new("Add pane"),
                )
                .clicked()
            {
                self.commands.push(Command::AddPane);
            }
        });
    }

    fn status_ui(&mut self, ui: &mut Ui, palette: &Palette) {
        ui.horizontal(|ui| {
            if let Some(document) = &self.session.document {
                let bom = document
                    .bom
                    .map(|bom| format!(", {} BOM", bom.name()))
                    .unwrap_or_default();
                ui.label(format!(
                    "{}: {} bytes{bom}",
                    document.path.display(),
                    document.bytes.len()
                ));
            }
            if let Some((done, total)) = self.session.progress {
                let fraction = progress_fraction(done, total);
                ui.add(
                    ProgressBar::new(fraction)
                        .desired_width(160.0)
                        .show_percentage(),
                );
            }
            if self.session.pending_jobs() > 0 && ui.button("Cancel").clicked() {
                self.commands.push(Command::CancelJobs);
            }
            if let Some(notice) = &self.session.notice {
                ui.label(RichText::new(notice).color(palette.weak_fg));
            }
        });
    }

    fn welcome_ui(&mut self, ui: &mut Ui, palette: &Palette) {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() / 4.0);
            if let Some(error) = &self.session.load_error {
                ui.label(RichText::new(error).color(palette.malformed_fg).heading());
                ui.add_space(12.0);
            }
            ui.heading("mojiscope");
            ui.label("Open a file to see its bytes and how they decode.");
            ui.label("File ▸ Open (Ctrl+O), drag a file onto this window, or run: mojiscope FILE");
            ui.label(
                RichText::new(
                    "(The file dialog needs xdg-desktop-portal or zenity; dragging and the command line always work.)",
                )
                .small()
                .color(palette.weak_fg),
            );
        });
    }

    fn document_ui(&mut self, ui: &mut Ui, palette: &'static Palette) {
        let hex_width = self.settings.hex_width();
        let commands = &mut self.commands;
        let Session {
            document,
            panes,
            lines,
            counts,
            selection,
            focused_pane,
            detection,
            ..
        } = &self.session;
        let DocumentViews {
            hex,
            panes: pane_views,
            pane_position,
            inspector,
            ..
        } = &mut self.views;
        // One view per pane, whatever happened to the panes.
        pane_views.resize_with(panes.len(), Default::default);
        let Some(document) = document.as_ref() else {
            return;
        };
        let primary = panes.first().and_then(|pane| pane.analysis.clone());
        let ctx = PanelCtx {
            bytes: &document.bytes,
            generation: document.generation,
            primary: primary.as_ref(),
            selection: *selection,
            palette,
        };
        let analyses: Vec<_> = panes.iter().map(|p| p.analysis.clone()).collect();
        Panel::bottom("inspector")
            .resizable(true)
            .default_size(170.0)
            .show(ui, |ui| {
                inspector.ui(ui, &ctx, &analyses, lines.as_ref());
            });
        let char_width = ui.fonts_mut(|f| f.glyph_width(&crate::ui::hex_view::font(ui), '0'));
        Panel::left("hex view")
            .resizable(true)
            .default_size(
                char_width * (f32::from(u16::try_from(hex_width).unwrap_or(16)) * 4.0 + 16.0),
            )
            .show(ui, |ui| {
                legend_ui(ui, palette);
                ui.separator();
                hex.ui(ui, &ctx, hex_width, commands);
            });
        let forced = document.bom.filter(|bom| !bom.is_override_choice());
        let pane_count = panes.len();
        let focused = *focused_pane;
        let before = *pane_position;
        CentralPanel::default().show(ui, |ui| {
            ui.columns(pane_count.max(1), |columns| {
                for (index, ((column, pane), view)) in columns
                    .iter_mut()
                    .zip(panes)
                    .zip(pane_views.iter_mut())
                    .enumerate()
                {
                    let env = PaneEnv {
                        index,
                        lines: lines.as_ref(),
                        counts: counts.as_deref(),
                        detection: detection.as_deref(),
                        forced_by_bom: forced,
                        removable: pane_count > MIN_PANES,
                        focused: index == focused && pane_count > 1,
                    };
                    view.ui(column, &ctx, pane, &env, pane_position, commands);
                }
            });
        });
        // A pane scrolled after those left of it were drawn: draw them again.
        if *pane_position != before {
            ui.ctx().request_repaint();
        }
    }

    fn goto_ui(&mut self, ui: &mut Ui) {
        let Some(text) = &mut self.views.goto else {
            return;
        };
        let mut go = None;
        let mut close = false;
        let modal = Modal::new(egui::Id::unique("go to offset")).show(ui.ctx(), |ui| {
            ui.heading("Go to offset");
            ui.label("A byte offset: decimal, or hex with 0x");
            let edit = ui.add(TextEdit::singleline(text).hint_text("0x1F"));
            edit.request_focus();
            let parsed = parse_offset(text);
            ui.horizontal(|ui| {
                let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
                if (ui
                    .add_enabled(parsed.is_some(), Button::new("Go"))
                    .clicked()
                    || enter)
                    && let Some(offset) = parsed
                {
                    go = Some(offset);
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        });
        if let Some(offset) = go {
            self.commands.push(Command::GoTo(offset));
        } else if close || modal.should_close() {
            self.views.goto = None;
        }
    }
}
