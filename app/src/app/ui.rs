//! The top-level layout: menus, toolbar, status bar, inspector, hex view and
//! the decode panes. Panels only push [`Command`]s.

use eframe::egui::{
    self, Button, CentralPanel, Key, Modal, Panel, ProgressBar, RichText, TextEdit, Ui,
};

use super::InspectorApp;
use super::views::DocumentViews;
use crate::model::command::{Command, parse_offset};
use crate::model::find::MAX_MATCHES;
use crate::model::layout::{HEX_SHARE, hex_row_columns, hex_width_to_fit};
use crate::model::panes::{MAX_PANES, MIN_PANES};
use crate::model::samples::SAMPLES;
use crate::model::session::Session;
use crate::model::verdict::{Action, window_title};
use crate::model::wording::plural;
use crate::theme::Palette;
use crate::ui::decode_view::PaneEnv;
use crate::ui::readings::{Readings, ReadingsEnv};
use crate::ui::repair_view::RepairEnv;
use crate::ui::segment_strip::strip_panel;
use crate::ui::why::why_ui;
use crate::ui::{PanelCtx, legend_ui, progress_fraction};

impl InspectorApp {
    /// Lays out the whole window.
    pub(super) fn layout(&mut self, ui: &mut Ui) {
        let palette = Palette::for_theme(ui.ctx().theme());
        Panel::top("menu bar").show(ui, |ui| self.menu_ui(ui));
        Panel::top("toolbar").show(ui, |ui| self.toolbar_ui(ui));
        self.title_ui(ui.ctx());
        if self.session.document.is_some() {
            Panel::top("verdict").show(ui, |ui| self.verdict_ui(ui, palette));
            if self.views.find.is_some() {
                Panel::top("find bar").show(ui, |ui| self.find_bar_ui(ui));
            }
        }
        Panel::bottom("status bar").show(ui, |ui| self.status_ui(ui, palette));
        self.about.ui(ui);
        self.shortcuts.ui(ui.ctx());
        self.teaching.ui(ui);
        self.hand_repair_ui(ui.ctx(), palette);
        let document = self
            .session
            .document
            .as_ref()
            .map(|d| (d.generation, d.path.as_path()));
        let env = RepairEnv { document, palette };
        self.repair_window
            .ui(ui.ctx(), &mut self.repair, &env, &mut self.commands);
        self.save_dialog_ui(ui);
        self.folder_ui(ui, palette);
        if self.session.document.is_none() {
            CentralPanel::default().show(ui, |ui| self.welcome_ui(ui, palette));
            return;
        }
        self.document_ui(ui, palette);
        self.goto_ui(ui);
        self.leave_ui(ui);
        why_ui(
            ui.ctx(),
            &mut self.views.why,
            self.session.detection.as_deref(),
            palette,
        );
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

    /// The window's title names the open file.
    fn title_ui(&mut self, ctx: &egui::Context) {
        let title = window_title(
            self.session.document.as_ref().map(|d| d.path.as_path()),
            self.session.encodings_in_file(),
        );
        // The window's node carries its title too: a screen reader names
        // the window by it.
        let name = title.clone();
        ctx.accesskit_node_builder(egui::accesskit_root_id(), |node| node.set_label(name));
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    /// The verdict line: what the file is, and what to do about it.
    fn verdict_ui(&mut self, ui: &mut Ui, palette: &Palette) {
        let verdict = self.session.verdict_with(self.applied_changes());
        ui.horizontal_wrapped(|ui| {
            let text = RichText::new(&verdict.text).strong();
            let text = if verdict.warning {
                text.color(palette.malformed_fg)
            } else {
                text
            };
            let label = ui.label(text);
            label.widget_info(|| {
                egui::WidgetInfo::labeled(egui::accesskit::Role::Label, true, &verdict.text)
            });
            if let Some(action) = verdict.action {
                ui.label("—");
                if ui.button(action.label()).clicked() {
                    match action {
                        Action::Repair => self.commands.push(Command::Repair),
                        Action::SaveAsUtf8 => self.commands.push(Command::SaveAsUtf8),
                        // The pane with the changes, whichever has the focus.
                        Action::SaveAs => self.save_applied_changes(),
                    }
                }
            }
        });
    }

    /// The find bar: what to find, in the focused pane's text or as bytes,
    /// and where it was found.
    fn find_bar_ui(&mut self, ui: &mut Ui) {
        let Some(bar) = &mut self.views.find else {
            return;
        };
        let commands = &mut self.commands;
        ui.horizontal(|ui| {
            let label = if bar.hex {
                "Find bytes (hex):".to_owned()
            } else {
                format!("Find in pane {}:", self.session.focused_pane + 1)
            };
            let label = ui.label(label);
            let edit = ui
                .add(
                    TextEdit::singleline(&mut bar.text)
                        .hint_text(if bar.hex { "82 A0" } else { "text" })
                        .desired_width(260.0),
                )
                .labelled_by(label.id);
            if std::mem::take(&mut bar.focus) {
                edit.request_focus();
            }
            if edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                let back = ui.input(|i| i.modifiers.shift);
                commands.push(Command::FindNext(!back));
                edit.request_focus();
            }
            if (edit.has_focus() || edit.lost_focus()) && ui.input(|i| i.key_pressed(Key::Escape)) {
                commands.push(Command::CloseFind);
            }
            ui.checkbox(&mut bar.hex, "Bytes in hex");
            if ui.button("◀ Previous").on_hover_text("Shift+F3").clicked() {
                commands.push(Command::FindNext(false));
            }
            if ui.button("Next ▶").on_hover_text("F3").clicked() {
                commands.push(Command::FindNext(true));
            }
            if let Some(find) = &self.session.find {
                let status = match (&find.matches, find.progress, find.current) {
                    (None, Some((done, total)), _) => {
                        format!("finding… {:.0}%", progress_fraction(done, total) * 100.0)
                    }
                    (None, None, _) => "finding…".to_owned(),
                    (Some(matches), ..) if matches.is_empty() => "no match".to_owned(),
                    (Some(matches), _, Some(current)) => {
                        let more = if matches.len() >= MAX_MATCHES {
                            "+"
                        } else {
                            ""
                        };
                        format!("{} of {}{more}", current + 1, matches.len())
                    }
                    (Some(matches), _, None) => plural(matches.len(), "match", "matches"),
                };
                ui.label(status);
            }
            if ui.button("✕").on_hover_text("Close (Escape)").clicked() {
                commands.push(Command::CloseFind);
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
            ui.add_space(ui.available_height() / 8.0);
            if let Some(error) = &self.session.load_error {
                ui.label(RichText::new(error).color(palette.malformed_fg).heading());
                ui.add_space(12.0);
            }
            ui.heading("mojiscope");
            ui.label("Open a file to see its bytes, how they decode, and what is wrong with them.");
            ui.label("File ▸ Open (Ctrl+O), drag a file onto this window, or run: mojiscope FILE");
            ui.add_space(16.0);
            if !self.settings.recent.is_empty() {
                ui.label(RichText::new("Recent files").strong());
                for recent in self.settings.recent.iter().take(9) {
                    let label = recent.path.display().to_string();
                    if ui.link(label).clicked() {
                        self.commands.push(Command::Open(recent.path.clone()));
                    }
                }
                ui.add_space(16.0);
            }
            ui.label(RichText::new("Or try a sample").strong());
            for (index, sample) in SAMPLES.iter().enumerate() {
                if ui.button(sample.title).on_hover_text(sample.name).clicked() {
                    self.commands.push(Command::OpenSample(index));
                }
            }
        });
    }

    fn document_ui(&mut self, ui: &mut Ui, palette: &'static Palette) {
        let edits = super::hand_repair::shown_edits(&self.edits, &self.session);
        let commands = &mut self.commands;
        let Session {
            document,
            panes,
            lines,
            counts,
            selection,
            focused_pane,
            detection,
            parts,
            ..
        } = &self.session;
        let DocumentViews {
            hex,
            panes: pane_views,
            readings,
            pane_position,
            inspector,
            hex_width,
            inspector_resize,
            inspector_height,
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
        inspector_panel_ui(ui, inspector_resize, inspector_height, palette, |ui| {
            inspector.ui(ui, &ctx, &analyses, lines.as_ref());
        });
        // The hex view is as wide as its rows: the bytes a row shows are
        // the setting's, or as many as fit in its share of the window.
        let column = ui.fonts_mut(|f| f.glyph_width(&crate::ui::hex_view::font(ui), '0'));
        let digits = crate::ui::hex_view::offset_digits(document.bytes.len() as u64);
        *hex_width = self.settings.hex_width().unwrap_or_else(|| {
            let share = ui.available_width() * HEX_SHARE;
            hex_width_to_fit(columns_in(share, column), digits)
        });
        let hex_columns = hex_row_columns(*hex_width, digits);
        let hex_panel = column * columns_f32(hex_columns) + crate::ui::rows::BAR_WIDTH + 24.0;
        let shown_width = *hex_width;
        Panel::left("hex view")
            .resizable(false)
            .exact_size(hex_panel)
            .show(ui, |ui| {
                legend_ui(ui, palette);
                ui.separator();
                hex.ui(ui, &ctx, shown_width, commands);
            });
        if let Some(parts) = parts {
            strip_panel(ui, parts, lines.as_deref(), panes, palette, commands);
        }
        let forced = document.bom.filter(|bom| !bom.is_override_choice());
        let pane_count = panes.len();
        let focused = *focused_pane;
        let arrangement = self.settings.arrangement;
        let align = self.settings.align_bytes;
        CentralPanel::default().show(ui, |ui| {
            let area = ui.available_rect_before_wrap();
            let shown = arrangement.shown(pane_count, Readings::columns_in(ui, area.width()));
            let headers = PaneHeaders {
                panes,
                counts: counts.as_deref(),
                detection: detection.as_deref(),
                forced,
                parts: parts.as_ref(),
                focused,
                lines: lines.as_deref(),
            };
            headers.ui(ui, &ctx, pane_views, commands);
            ui.separator();
            let Some(lines) = lines.as_ref() else {
                ui.label("Indexing lines…");
                return;
            };
            if panes.first().is_none_or(|pane| pane.analysis.is_none()) {
                ui.label("Decoding…");
                return;
            }
            let env = ReadingsEnv {
                panes,
                lines,
                focused,
                shown,
                align,
                edits,
            };
            readings.ui(ui, &ctx, &env, pane_position, commands);
        });
    }

    fn goto_ui(&mut self, ui: &mut Ui) {
        let Some(text) = &mut self.views.goto else {
            return;
        };
        let mut go = None;
        let mut close = false;
        let opening = !self.views.goto_shown;
        self.views.goto_shown = true;
        let modal = Modal::new(egui::Id::unique("go to offset")).show(ui.ctx(), |ui| {
            ui.heading("Go to offset");
            crate::ui::name_dialog(ui, "Go to offset");
            ui.label("A byte offset: decimal, or hex with 0x");
            let edit = ui.add(TextEdit::singleline(text).hint_text("0x1F"));
            edit.widget_info(|| {
                egui::WidgetInfo::text_edit(true, text.as_str(), "Byte offset", "0x1F")
            });
            if opening {
                edit.request_focus();
            }
            let parsed = parse_offset(text);
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(parsed.is_some(), Button::new("Go"))
                    .clicked()
                    || enter
                {
                    go = parsed;
                    if go.is_none() {
                        // Enter on something that is not an offset: stay.
                        edit.request_focus();
                    }
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        });
        let escape = ui.input(|i| i.key_pressed(Key::Escape));
        if let Some(offset) = go {
            self.commands.push(Command::GoTo(offset));
            self.views.close_goto();
        } else if close || escape || modal.should_close() {
            self.views.close_goto();
        }
    }
}

/// The inspector's least height.
const INSPECTOR_MIN_HEIGHT: f32 = 80.0;

/// The most of the window's height the inspector may take (on a projector,
/// its decoder steps want most of it).
const INSPECTOR_MAX_SHARE: f32 = 0.8;

/// How much taller a step of View ▸ Grow the inspector makes it.
const INSPECTOR_STEP: f32 = 1.5;

/// The inspector's panel at the bottom: as tall as it was dragged to, or a
/// step taller or shorter when `resize` asks (taken), never above
/// [`INSPECTOR_MAX_SHARE`] of the room; `height` learns its height.
fn inspector_panel_ui(
    ui: &mut Ui,
    resize: &mut Option<bool>,
    height: &mut f32,
    palette: &Palette,
    contents: impl FnOnce(&mut Ui),
) {
    let default_height = (ui.available_height() * 0.22).clamp(90.0, 220.0);
    let tallest = (ui.available_height() * INSPECTOR_MAX_SHARE).max(INSPECTOR_MIN_HEIGHT);
    let mut panel = Panel::bottom("inspector")
        .resizable(true)
        .min_size(INSPECTOR_MIN_HEIGHT)
        .max_size(tallest)
        .default_size(default_height);
    if let Some(taller) = resize.take() {
        // A step at a time; the new height is kept as if dragged to.
        let step = if taller {
            *height * INSPECTOR_STEP
        } else {
            *height / INSPECTOR_STEP
        };
        panel = panel.exact_size(step.clamp(INSPECTOR_MIN_HEIGHT, tallest));
    }
    let shown = panel.show(ui, |ui| {
        // The panel is as tall as what it holds: holding its whole
        // height, it keeps the height it was given (dragged, or a step).
        ui.set_min_height(ui.available_height());
        contents(ui);
    });
    *height = shown.response.rect.height();
    inspector_handle_ui(ui, shown.response.rect, palette);
}

/// The grip on the inspector's top edge: the edge can be dragged, and this
/// shows where.
fn inspector_handle_ui(ui: &Ui, inspector: egui::Rect, palette: &Palette) {
    // Just inside the edge, in the panel's top margin: the panel above
    // paints over anything past it.
    let centre = egui::pos2(inspector.center().x, inspector.top() + 4.0);
    let grip = egui::Rect::from_center_size(centre, egui::vec2(56.0, 6.0));
    ui.painter().rect_filled(grip, 3.0, palette.weak_fg);
    for offset in [-8.0, 0.0, 8.0] {
        ui.painter().circle_filled(
            centre + egui::vec2(offset, 0.0),
            1.2,
            ui.visuals().panel_fill,
        );
    }
}

/// How many whole columns `column` pixels wide fit in `width`.
fn columns_in(width: f32, column: f32) -> usize {
    let columns = (width / column.max(1.0)).floor().max(0.0);
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "not negative, and a few thousand at most"
    )]
    let columns = columns as usize;
    columns
}

/// A small count (columns, panes) as `f32`.
fn columns_f32(n: usize) -> f32 {
    f32::from(u16::try_from(n).unwrap_or(u16::MAX))
}

/// The panes' headers, in a row of equal cells, each keeping within its
/// cell (side by side, over its column).
struct PaneHeaders<'a> {
    panes: &'a [crate::model::session::Pane],
    counts: Option<&'a [crate::model::analysis::counts::ErrorCount]>,
    detection: Option<&'a mojiscope_core::Detection>,
    forced: Option<&'static mojiscope_core::Encoding>,
    parts: Option<&'a crate::model::analysis::mixed::Parts>,
    focused: usize,
    lines: Option<&'a crate::model::analysis::lines::LineIndex>,
}

impl PaneHeaders<'_> {
    fn ui(
        &self,
        ui: &mut Ui,
        ctx: &PanelCtx<'_>,
        views: &mut [crate::ui::decode_view::DecodeView],
        commands: &mut Vec<Command>,
    ) {
        let area = ui.available_rect_before_wrap();
        let count = self.panes.len();
        let gap = 8.0;
        let cell =
            (area.width() - gap * columns_f32(count.saturating_sub(1))) / columns_f32(count.max(1));
        let mut height: f32 = 0.0;
        for (index, (pane, view)) in self.panes.iter().zip(views.iter_mut()).enumerate() {
            let left = area.left() + columns_f32(index) * (cell + gap);
            let rect = egui::Rect::from_min_size(
                egui::pos2(left, area.top()),
                egui::vec2(cell, area.height()),
            );
            let env = PaneEnv {
                index,
                counts: self.counts,
                detection: self.detection,
                forced_by_bom: self.forced,
                parts: self.parts,
                removable: count > MIN_PANES,
                focused: index == self.focused && count > 1,
                lines: self.lines,
            };
            height = height.max(view.header_ui(ui, rect, ctx, pane, &env, commands));
        }
        ui.allocate_rect(
            egui::Rect::from_min_size(area.min, egui::vec2(area.width(), height + 4.0)),
            egui::Sense::hover(),
        );
    }
}
