//! File ▸ Open folder…'s window: the folder's path (typed, or picked with
//! Browse…), the scan's progress and Cancel, the filter, the table of
//! files (sorted by a click on a heading, or Enter on it), and the
//! "Convert…" dialog with its check of each file and its report.
//!
//! The keyboard: Tab goes from the path to the buttons, the filter, the
//! headings and into the table, which is one stop (the row the cursor is
//! on). There Up and Down move (Shift extends the selection, Ctrl moves
//! the cursor alone), Home and End go to the ends, Space selects or
//! deselects the row, Ctrl+A selects every row shown, Enter opens the row
//! in the inspector. Escape closes the window. Every row is named for a
//! screen reader with all its columns.

use std::fmt::Write as _;
use std::path::PathBuf;

use eframe::egui::{
    self, Align2, Button, Checkbox, Color32, EventFilter, FontId, Id, Key, Modal, Modifiers,
    ProgressBar, Rect, RichText, Role, ScrollArea, Sense, TextEdit, Ui, WidgetInfo, Window, vec2,
};
use mojiscope_core::{Encoding, UTF_8};

use crate::model::command::Command;
use crate::model::folder::{Column, FolderScan, RowKind, SelectMode, thousands};
use crate::model::folder_convert::{BatchConvert, CheckState, FileOutcome, Plan};
use crate::model::jobs::Repaint;
use crate::theme::Palette;
use crate::ui::chooser::Chooser;
use crate::ui::decode_view::encoding_entries;
use crate::ui::progress_fraction;
use crate::ui::save_dialog::output_encoding_entries;

/// Widths of the columns but the path's, in points.
const WIDTHS: [f32; 5] = [90.0, 110.0, 90.0, 70.0, 230.0];

/// The width of the conversion dialog's last column, where a consequence
/// wraps.
const CONSEQUENCE_WIDTH: f32 = 360.0;

/// The least width of the path column.
const MIN_PATH_WIDTH: f32 = 220.0;

/// The folder window and the conversion started from it.
pub struct FolderWindow {
    /// Whether the window is open.
    pub open: bool,
    /// The scan and its table.
    pub scan: FolderScan,
    /// The conversion dialog's work, while it is open.
    pub convert: Option<BatchConvert>,
    /// The path field.
    pub path_text: String,
    /// A message above the table: why the folder chooser could not be
    /// shown, or why a path cannot be scanned.
    pub notice: Option<String>,
    /// The filter field.
    pub filter_text: String,
    /// The "only with errors or notes" box.
    pub only_problems: bool,
    /// What takes the keyboard focus at the next frame.
    focus: Option<Focus>,
    /// The table's scroll offset and height at the last frame.
    view: (f32, f32),
    repaint: Repaint,
}

impl std::fmt::Debug for FolderWindow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FolderWindow")
            .field("open", &self.open)
            .field("scan", &self.scan)
            .field("convert", &self.convert)
            .finish_non_exhaustive()
    }
}

impl FolderWindow {
    /// Closed, nothing scanned; `repaint` is called when a job reports.
    pub fn new(repaint: Repaint) -> FolderWindow {
        FolderWindow {
            open: false,
            scan: FolderScan::new(std::sync::Arc::clone(&repaint)),
            convert: None,
            path_text: String::new(),
            notice: None,
            filter_text: String::new(),
            only_problems: false,
            focus: None,
            view: (0.0, 0.0),
            repaint,
        }
    }

    /// Opens the window with the path field focused.
    pub fn show(&mut self) {
        if !self.open {
            self.focus = Some(Focus::Path);
        }
        self.open = true;
    }

    /// Opens the window and scans `path`.
    pub fn scan_folder(&mut self, path: PathBuf) {
        self.open = true;
        self.notice = None;
        if !path.exists() {
            self.notice = Some(format!("{} does not exist", path.display()));
            self.focus = Some(Focus::Path);
            return;
        }
        self.path_text = path.display().to_string();
        self.convert = None;
        self.scan.start(path);
    }

    /// Says why no folder chooser came, and puts the focus on the path.
    pub fn no_chooser(&mut self, message: String) {
        self.open = true;
        self.notice = Some(message);
        self.focus = Some(Focus::Path);
    }

    /// Opens the conversion dialog for the selected rows, into `target`.
    pub fn start_convert(&mut self, target: &'static Encoding) {
        let table = &self.scan.table;
        let rows = table.selected().filter_map(|index| table.rows().get(index));
        self.convert = Some(BatchConvert::new(
            rows,
            target,
            std::sync::Arc::clone(&self.repaint),
        ));
    }

    /// Takes in what the jobs reported.
    pub fn poll(&mut self) {
        self.scan.poll();
        if let Some(convert) = &mut self.convert {
            convert.poll();
        }
    }

    /// Whether no job is running.
    pub fn is_idle(&self) -> bool {
        self.scan.is_idle() && self.convert.as_ref().is_none_or(BatchConvert::is_idle)
    }

    /// Shows the window, if open, and the conversion dialog, if open.
    /// Opening a row pushes [`Command::Open`]; Browse… pushes
    /// [`Command::OpenFolderDialog`].
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        palette: &Palette,
        dialogs: bool,
        commands: &mut Vec<Command>,
    ) {
        if !self.open {
            return;
        }
        let mut open = true;
        let title = match &self.scan.root {
            Some(root) => format!("Folder: {}", root.display()),
            None => "Folder".to_owned(),
        };
        let (pos, size) = super::fit_in_screen(
            ctx.content_rect(),
            egui::pos2(60.0, 64.0),
            vec2(1000.0, 620.0),
        );
        Window::new(title)
            .id(Id::unique("folder window"))
            .open(&mut open)
            .default_pos(pos)
            .default_size(size)
            .resizable(true)
            .vscroll(false)
            .show(ctx, |ui| self.contents_ui(ui, palette, dialogs, commands));
        let converting = self.convert.is_some();
        if converting {
            self.convert_ui(ctx, palette);
        }
        let escape = !converting
            && !ctx.text_edit_focused()
            && ctx.input_mut(|input| input.consume_key(Modifiers::NONE, Key::Escape));
        if !open || escape {
            self.open = false;
            self.scan.cancel();
        }
    }

    fn contents_ui(
        &mut self,
        ui: &mut Ui,
        palette: &Palette,
        dialogs: bool,
        commands: &mut Vec<Command>,
    ) {
        ui.horizontal(|ui| {
            ui.label("Folder:");
            let field = ui.add(
                TextEdit::singleline(&mut self.path_text)
                    .hint_text("type a folder's path")
                    .desired_width(420.0),
            );
            field.widget_info(|| WidgetInfo::labeled(Role::TextInput, true, "Folder to scan"));
            if self.focus == Some(Focus::Path) {
                self.focus = None;
                field.request_focus();
            }
            let entered = field.lost_focus() && ui.input(|input| input.key_pressed(Key::Enter));
            if ui
                .add_enabled(dialogs, Button::new("Browse…"))
                .on_hover_text("Pick the folder in the system's folder chooser")
                .clicked()
            {
                commands.push(Command::OpenFolderDialog);
            }
            let path = self.path_text.trim().to_owned();
            if (ui
                .add_enabled(!path.is_empty(), Button::new("Scan"))
                .clicked()
                || entered)
                && !path.is_empty()
            {
                self.scan_folder(PathBuf::from(path));
            }
            if self.scan.running && ui.button("Cancel").clicked() {
                self.scan.cancel();
            }
        });
        if let Some(notice) = &self.notice {
            ui.colored_label(palette.malformed_fg, notice);
        }
        self.progress_ui(ui, palette);
        ui.horizontal(|ui| {
            ui.label("Filter:");
            let filter = ui.add(
                TextEdit::singleline(&mut self.filter_text)
                    .hint_text("path, encoding or note")
                    .desired_width(220.0),
            );
            filter.widget_info(|| WidgetInfo::labeled(Role::SearchInput, true, "Filter the files"));
            ui.add(Checkbox::new(
                &mut self.only_problems,
                "Only with errors or notes",
            ));
            self.scan
                .table
                .set_filter(&self.filter_text, self.only_problems);
            ui.separator();
            let selected = self.scan.table.selected().count();
            ui.label(format!("{} selected", thousands(selected as u64)));
            if ui
                .add_enabled(selected > 0, Button::new("Convert to UTF-8…"))
                .on_hover_text("Check the selected files, then write each in UTF-8")
                .clicked()
            {
                self.start_convert(UTF_8);
            }
        });
        ui.separator();
        self.table_ui(ui, palette, commands);
    }

    fn progress_ui(&self, ui: &mut Ui, palette: &Palette) {
        let scan = &self.scan;
        if scan.root.is_none() {
            ui.label("Type a folder's path and press Enter, or Browse… for it.");
            return;
        }
        let rows = scan.table.rows();
        let skipped = rows
            .iter()
            .filter(|row| matches!(row.kind, RowKind::Skipped(_)))
            .count();
        let unreadable = rows
            .iter()
            .filter(|row| matches!(row.kind, RowKind::Unreadable(_)))
            .count();
        let mut text = scan.progress_text();
        if skipped + unreadable > 0 {
            let _ = write!(
                text,
                " · {} skipped, {} unreadable",
                thousands(skipped as u64),
                thousands(unreadable as u64)
            );
        }
        if scan.running {
            let fraction = match scan.expected {
                Some((files, _)) if files > 0 => progress_fraction(scan.files_done, files),
                _ => 0.0,
            };
            ui.add(ProgressBar::new(fraction).text(format!("Scanning: {text}")));
        } else if let Some(failure) = &scan.failure {
            ui.colored_label(palette.malformed_fg, format!("The scan failed: {failure}"));
        } else if scan.cancelled {
            ui.label(format!("Cancelled: {text}"));
        } else {
            ui.label(format!("Done: {text}"));
        }
    }

    /// The headings: a click (or Enter) sorts by the column, a second the
    /// other way round.
    fn headings_ui(&mut self, ui: &mut Ui, widths: &[f32]) {
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = 0.0;
            let sort = self.scan.table.sort();
            for (column, width) in Column::ALL.into_iter().zip(widths) {
                let arrow = if sort.column == column {
                    if sort.descending { " ▼" } else { " ▲" }
                } else {
                    ""
                };
                let button = ui.add_sized(
                    vec2(*width, ui.spacing().interact_size.y),
                    Button::new(RichText::new(format!("{}{arrow}", column.title())).strong())
                        .frame(false),
                );
                let name = if sort.column == column {
                    format!(
                        "Sort by {}, now {}",
                        column.title().to_lowercase(),
                        if sort.descending {
                            "descending"
                        } else {
                            "ascending"
                        }
                    )
                } else {
                    format!("Sort by {}", column.title().to_lowercase())
                };
                button.widget_info(|| WidgetInfo::labeled(Role::ColumnHeader, true, &name));
                if button.clicked() {
                    self.scan.table.sort_by(column);
                }
            }
        });
    }

    fn table_ui(&mut self, ui: &mut Ui, palette: &Palette, commands: &mut Vec<Command>) {
        let total_width = ui
            .available_width()
            .max(MIN_PATH_WIDTH + WIDTHS.iter().sum::<f32>());
        let path_width = total_width - WIDTHS.iter().sum::<f32>() - 8.0;
        let widths: Vec<f32> = std::iter::once(path_width).chain(WIDTHS).collect();
        self.headings_ui(ui, &widths);
        let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
        let shown = self.scan.table.shown().to_vec();
        if shown.is_empty() {
            if self.scan.root.is_some() && !self.scan.running {
                ui.label("No file matches.");
            }
            return;
        }
        // The table is one stop of Tab: the row the cursor is on.
        let table_id = ui.scope_id().with("folder table");
        let focused_row = ui
            .memory(egui::Memory::focused)
            .filter(|focused| shown.iter().any(|&index| *focused == table_id.with(index)));
        // Before the rows: egui would take Space and Enter on the focused
        // row for a click.
        if let Some(focused) = focused_row {
            self.table_keys(ui, focused, commands);
        }
        let cursor = self
            .scan
            .table
            .cursor()
            .filter(|cursor| shown.contains(cursor))
            .unwrap_or(shown[0]);
        let cursor_position = shown.iter().position(|&index| index == cursor);
        let mut scroll = ScrollArea::vertical()
            .id_salt("folder rows")
            .auto_shrink([false, false]);
        let focus_cursor = self.focus == Some(Focus::Cursor);
        if focus_cursor {
            self.focus = None;
        }
        if focus_cursor && let Some(position) = cursor_position {
            // Bring the cursor's row into view before it is laid out.
            #[expect(
                clippy::cast_precision_loss,
                reason = "a row's offset in points: f32 is exact to 16 million rows"
            )]
            let top = position as f32 * row_height;
            let (offset, height) = self.view;
            if top < offset {
                scroll = scroll.vertical_scroll_offset(top);
            } else if top + row_height > offset + height {
                scroll = scroll.vertical_scroll_offset(top + row_height - height);
            }
        }
        let mut action: Option<(usize, RowAction)> = None;
        let output = scroll.show_rows(ui, row_height, shown.len(), |ui, range| {
            ui.spacing_mut().item_spacing.y = 0.0;
            for position in range {
                let index = shown[position];
                let Some(row) = self.scan.table.rows().get(index) else {
                    continue;
                };
                let selected = self.scan.table.is_selected(index);
                let sense = if index == cursor {
                    Sense::click()
                } else {
                    Sense::CLICK
                };
                let (rect, _) =
                    ui.allocate_exact_size(vec2(total_width, row_height), Sense::hover());
                let response = ui.interact(rect, table_id.with(index), sense);
                let spoken = row.spoken();
                response.widget_info(|| WidgetInfo::selected(Role::Row, true, selected, &spoken));
                if index == cursor && focus_cursor {
                    response.request_focus();
                }
                if let Some(clicked) = row_response(ui, &response, selected, palette) {
                    action = Some((index, clicked));
                }
                paint_row(ui, rect, &widths, row, palette);
            }
        });
        self.view = (output.state.clamped_offset().y, output.inner_rect.height());
        match action {
            Some((index, RowAction::Open)) => {
                self.scan.table.select(index, SelectMode::Only);
                open_row(self, index, commands);
            }
            Some((index, RowAction::Select(mode))) => {
                self.scan.table.select(index, mode);
                self.focus = Some(Focus::Cursor);
            }
            None => {}
        }
    }

    /// The keys of the table, while one of its rows has the focus.
    fn table_keys(&mut self, ui: &Ui, focused: Id, commands: &mut Vec<Command>) {
        ui.memory_mut(|memory| {
            memory.set_focus_lock_filter(
                focused,
                EventFilter {
                    horizontal_arrows: true,
                    vertical_arrows: true,
                    tab: false,
                    escape: false,
                },
            );
        });
        let page = 10;
        let table = &mut self.scan.table;
        let mut moved = false;
        let mut open = None;
        ui.input_mut(|input| {
            for (key, by) in [
                (Key::ArrowUp, -1),
                (Key::ArrowDown, 1),
                (Key::PageUp, -page),
                (Key::PageDown, page),
                (Key::Home, isize::MIN / 2),
                (Key::End, isize::MAX / 2),
            ] {
                if input.consume_key(Modifiers::SHIFT, key) {
                    table.move_cursor(by, Some(SelectMode::Range));
                    moved = true;
                }
                if input.consume_key(Modifiers::COMMAND, key) {
                    table.move_cursor(by, None);
                    moved = true;
                }
                if input.consume_key(Modifiers::NONE, key) {
                    table.move_cursor(by, Some(SelectMode::Only));
                    moved = true;
                }
            }
            if input.consume_key(Modifiers::COMMAND, Key::A) {
                table.select_all();
            }
            if (input.consume_key(Modifiers::NONE, Key::Space)
                || input.consume_key(Modifiers::COMMAND, Key::Space))
                && let Some(cursor) = table.cursor()
            {
                table.select(cursor, SelectMode::Toggle);
            }
            if input.consume_key(Modifiers::NONE, Key::Enter) {
                open = table.cursor();
            }
        });
        if moved {
            self.focus = Some(Focus::Cursor);
        }
        if let Some(index) = open {
            open_row(self, index, commands);
        }
    }

    /// The conversion dialog: the check of each file, then the writing,
    /// then the report.
    fn convert_ui(&mut self, ctx: &egui::Context, palette: &Palette) {
        let Some(convert) = &mut self.convert else {
            return;
        };
        let mut close = false;
        let modal = Modal::new(Id::unique("folder convert")).show(ctx, |ui| {
            ui.set_width(900.0);
            let title = format!("Convert to {}", convert.target.output_encoding().name());
            ui.heading(&title);
            crate::ui::name_dialog(ui, &title);
            if let Some(report) = &convert.report {
                report_ui(ui, palette, report);
                ui.add_space(6.0);
                if ui.button("Close").clicked() {
                    close = true;
                }
                return;
            }
            ui.horizontal(|ui| {
                ui.label("Write each file in");
                let entries = output_encoding_entries();
                let mut target = convert.target;
                let chooser = Chooser::new(
                    Id::unique("folder convert target"),
                    format!("Target encoding: {}", target.name()),
                    target.name().to_owned(),
                    &entries,
                )
                .width(180.0)
                .enabled(!convert.writing);
                if chooser.ui(ui, &mut target).changed() {
                    convert.set_target(target);
                }
            });
            ui.label(
                "Nothing is written until you press Convert. A file whose conversion would \
                 lose something is skipped unless you tick it; each file is written whole \
                 or not at all.",
            );
            ui.separator();
            convert_table_ui(ui, palette, convert);
            if !convert.left_out.is_empty() {
                ui.separator();
                ui.label(RichText::new("Left out").strong());
                for (name, why) in &convert.left_out {
                    ui.label(format!("{name}: {why}"));
                }
            }
            ui.separator();
            ui.add_enabled(
                !convert.writing,
                Checkbox::new(
                    &mut convert.backup,
                    "Keep a backup of each file replaced (NAME~)",
                ),
            );
            if convert_buttons_ui(ui, convert) {
                close = true;
            }
            if let Some(failure) = &convert.failure {
                ui.colored_label(palette.malformed_fg, failure);
            }
        });
        let writing = self.convert.as_ref().is_some_and(|c| c.writing);
        if (modal.should_close() && !writing) || close {
            self.convert = None;
        }
    }
}

/// What takes the keyboard focus at the next frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Focus {
    /// The path field.
    Path,
    /// The row the cursor is on, scrolled into view.
    Cursor,
}

/// What a click on a row asked for.
#[derive(Clone, Copy)]
enum RowAction {
    Open,
    Select(SelectMode),
}

/// Paints a row's background and focus, and says what a click on it asked
/// for.
fn row_response(
    ui: &Ui,
    response: &egui::Response,
    selected: bool,
    palette: &Palette,
) -> Option<RowAction> {
    let rect = response.rect;
    let visuals = ui.visuals();
    if selected {
        ui.painter().rect_filled(rect, 0.0, palette.selection_bg);
    } else if response.hovered() {
        ui.painter()
            .rect_filled(rect, 0.0, visuals.widgets.hovered.weak_bg_fill);
    }
    if response.has_focus() {
        ui.painter().rect_stroke(
            rect.shrink(1.0),
            0.0,
            visuals.selection.stroke,
            egui::StrokeKind::Inside,
        );
    }
    if response.double_clicked() {
        return Some(RowAction::Open);
    }
    if !response.clicked() {
        return None;
    }
    // The modifiers of the click itself: Ctrl may be up again by the
    // end of the frame the click arrives in.
    let modifiers = ui.input(|input| {
        input
            .events
            .iter()
            .rev()
            .find_map(|event| match event {
                egui::Event::PointerButton {
                    pressed: false,
                    modifiers,
                    ..
                } => Some(*modifiers),
                _ => None,
            })
            .unwrap_or(input.modifiers)
    });
    Some(RowAction::Select(if modifiers.shift {
        SelectMode::Range
    } else if modifiers.command {
        SelectMode::Toggle
    } else {
        SelectMode::Only
    }))
}

/// Opens row `index` in the inspector, if it is a file that was read.
fn open_row(window: &mut FolderWindow, index: usize, commands: &mut Vec<Command>) {
    if let Some(row) = window.scan.table.rows().get(index)
        && row.scan().is_some()
    {
        commands.push(Command::Open(row.path.clone()));
    }
}

/// Paints the columns of `row` in `rect`.
fn paint_row(
    ui: &Ui,
    rect: Rect,
    widths: &[f32],
    row: &crate::model::folder::FolderRow,
    palette: &Palette,
) {
    let font = FontId::proportional(ui.text_style_height(&egui::TextStyle::Body) - 1.0);
    let text_color = ui.visuals().text_color();
    let warn = palette.malformed_fg;
    let size = row.size().map(thousands).unwrap_or_default();
    let confidence = row
        .confidence()
        .map(|confidence| format!("{:.0}%", confidence * 100.0))
        .unwrap_or_default();
    let errors = row
        .errors()
        .map(|errors| errors.to_string())
        .unwrap_or_default();
    let problem = !matches!(row.kind, RowKind::Scanned(_));
    let cells: [(String, Align2, Color32); 6] = [
        (row.name.clone(), Align2::LEFT_CENTER, text_color),
        (size, Align2::RIGHT_CENTER, text_color),
        (
            row.encoding_text().to_owned(),
            Align2::LEFT_CENTER,
            if problem { warn } else { text_color },
        ),
        (confidence, Align2::RIGHT_CENTER, text_color),
        (
            errors,
            Align2::RIGHT_CENTER,
            if row.errors().unwrap_or(0) > 0 {
                warn
            } else {
                text_color
            },
        ),
        (
            row.notes_text().to_owned(),
            Align2::LEFT_CENTER,
            if problem { warn } else { text_color },
        ),
    ];
    let mut x = rect.left();
    for ((text, align, color), width) in cells.into_iter().zip(widths) {
        let cell = Rect::from_min_size(egui::pos2(x, rect.top()), vec2(*width, rect.height()))
            .shrink2(vec2(6.0, 0.0));
        let anchor = match align {
            Align2::RIGHT_CENTER => cell.right_center(),
            _ => cell.left_center(),
        };
        ui.painter()
            .with_clip_rect(cell.intersect(ui.clip_rect()))
            .text(anchor, align, text, font.clone(), color);
        x += width;
    }
}

/// The buttons of the conversion dialog (Convert, Cancel; Stop while
/// writing); returns whether Cancel was pressed.
fn convert_buttons_ui(ui: &mut Ui, convert: &mut BatchConvert) -> bool {
    let mut close = false;
    ui.horizontal(|ui| {
        let count = convert.to_write();
        if convert.writing {
            ui.add(
                ProgressBar::new(progress_fraction(
                    convert.written_so_far() as u64,
                    convert.files.len() as u64,
                ))
                .text(format!(
                    "Writing: {} of {} files",
                    convert.written_so_far(),
                    convert.files.len()
                ))
                .desired_width(300.0),
            );
            if ui.button("Stop").clicked() {
                convert.cancel();
            }
            return;
        }
        let label = format!(
            "Convert {}",
            crate::model::wording::plural(count, "file", "files")
        );
        if ui
            .add_enabled(count > 0 && convert.is_checked(), Button::new(label))
            .clicked()
        {
            convert.start();
        }
        if ui.button("Cancel").clicked() {
            close = true;
        }
        if !convert.is_checked() {
            ui.spinner();
            ui.label("Checking…");
        }
    });
    close
}

/// The files of a conversion: each one's source encoding (a chooser), its
/// check, and what will be done with it.
fn convert_table_ui(ui: &mut Ui, palette: &Palette, convert: &mut BatchConvert) {
    let target = convert.target;
    let writing = convert.writing;
    let entries = encoding_entries(None, None);
    let mut new_source = None;
    ScrollArea::vertical()
        .max_height(360.0)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            egui::Grid::new("folder convert files")
                .striped(true)
                .num_columns(4)
                .show(ui, |ui| {
                    for heading in ["File", "Read as", "Check", "What happens"] {
                        ui.label(RichText::new(heading).strong());
                    }
                    ui.end_row();
                    for (index, file) in convert.files.iter_mut().enumerate() {
                        ui.label(&file.name);
                        let mut source = file.source;
                        let chooser = Chooser::new(
                            Id::unique("folder convert source").with(index),
                            format!("{} read as: {}", file.name, source.name()),
                            source.name().to_owned(),
                            &entries,
                        )
                        .width(150.0)
                        .enabled(!writing);
                        if chooser.ui(ui, &mut source).changed() {
                            new_source = Some((index, source));
                        }
                        match &file.check {
                            CheckState::Pending => {
                                ui.label("checking…");
                            }
                            CheckState::Failed(why) => {
                                ui.colored_label(palette.malformed_fg, why);
                            }
                            CheckState::Done(check) => {
                                let round_trip = if check.round_trips {
                                    "round-trips"
                                } else {
                                    "does not round-trip"
                                };
                                let text = format!(
                                    "{} decoding errors, {} unencodable, {round_trip}",
                                    check.decoding_errors, check.unencodable
                                );
                                if check.is_lossy() {
                                    ui.colored_label(palette.malformed_fg, text);
                                } else {
                                    ui.label(text);
                                }
                            }
                        }
                        let plan = file.plan(target);
                        let consequence = file.consequence(target);
                        match consequence {
                            Some(loss) => {
                                let label = format!("Convert anyway: {loss}");
                                ui.horizontal_top(|ui| {
                                    ui.set_max_width(CONSEQUENCE_WIDTH);
                                    let tick = ui.add_enabled(
                                        !writing,
                                        Checkbox::without_text(&mut file.accept_loss),
                                    );
                                    let ticked = file.accept_loss;
                                    tick.widget_info(|| {
                                        WidgetInfo::selected(
                                            Role::CheckBox,
                                            !writing,
                                            ticked,
                                            &label,
                                        )
                                    });
                                    let text = ui
                                        .add(egui::Label::new(&label).wrap().sense(Sense::click()));
                                    if text.clicked() && !writing {
                                        file.accept_loss = !file.accept_loss;
                                    }
                                });
                            }
                            None => match plan {
                                Plan::Write => {
                                    ui.label("will be written");
                                }
                                Plan::Skip(why) => {
                                    ui.label(format!("will be skipped: {why}"));
                                }
                            },
                        }
                        ui.end_row();
                    }
                });
        });
    if let Some((index, source)) = new_source {
        convert.set_source(index, source);
    }
}

/// The report at the end of a conversion.
fn report_ui(ui: &mut Ui, palette: &Palette, report: &crate::model::folder_convert::Report) {
    ui.label(RichText::new(report.summary()).strong());
    ScrollArea::vertical()
        .max_height(400.0)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            for (name, outcome) in &report.files {
                match outcome {
                    FileOutcome::Written(backup) => {
                        let backup = backup
                            .as_ref()
                            .and_then(|path| path.file_name())
                            .map(|name| {
                                format!(" (the original kept as {})", name.to_string_lossy())
                            })
                            .unwrap_or_default();
                        ui.label(format!("{name}: written{backup}"));
                    }
                    FileOutcome::Skipped(why) => {
                        ui.label(format!("{name}: skipped: {why}"));
                    }
                    FileOutcome::Failed(why) => {
                        ui.colored_label(palette.malformed_fg, format!("{name}: failed: {why}"));
                    }
                }
            }
        });
}
