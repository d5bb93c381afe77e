//! Learn ▸ Index browser: the standard's multi-byte indexes, laid out in
//! rows and cells as an encoding's pointer arithmetic lays them out (a row
//! per leading byte), virtually scrolled; searchable by character, by
//! pointer, or by bytes.

use eframe::egui::{
    self, Align2, ComboBox, FontId, Key, Rect, RichText, Role, ScrollArea, Sense, Stroke,
    StrokeKind, TextEdit, Ui, WidgetInfo, pos2, vec2,
};
use mojiscope_core::{ISO_2022_JP, Index, IndexLayout};

use super::{View, describe_drawn, drawn, hex, parse_character, typed_bytes};
use crate::model::command::parse_offset;
use crate::theme::Palette;

/// A cell's side.
const CELL: f32 = 30.0;

/// The width of the row labels at the left.
const LABEL_WIDTH: f32 = 120.0;

/// The strip above each line's cells that names their trailing bytes
/// (the columns' headers).
const HEADER: f32 = 14.0;

/// A line: its header strip and its cells.
const LINE: f32 = CELL + HEADER;

/// What the search box looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchBy {
    /// A character, typed or as U+XXXX: every pointer whose code point it is.
    Character,
    /// A pointer, decimal or hex with 0x.
    Pointer,
    /// Bytes in the layout's encoding, in hex.
    Bytes,
}

/// The pointers `query` finds in `layout`'s index, the first one first
/// (the standard's index pointer, for a character).
///
/// # Errors
/// Why nothing is found, for the user.
pub fn search(layout: IndexLayout, by: SearchBy, query: &str) -> Result<Vec<u32>, String> {
    let index = layout.index();
    match by {
        SearchBy::Character => {
            let c = parse_character(query)?.character;
            let pointers = index.pointers(c);
            if pointers.is_empty() {
                Err(format!("{} is not in {index}", describe_drawn(c)))
            } else {
                Ok(pointers)
            }
        }
        SearchBy::Pointer => {
            let pointer = parse_offset(query)
                .and_then(|pointer| u32::try_from(pointer).ok())
                .ok_or_else(|| {
                    format!(
                        "{:?} is not a number (decimal, or hex with 0x)",
                        query.trim()
                    )
                })?;
            if pointer < layout.pointer_limit() {
                Ok(vec![pointer])
            } else {
                Err(format!(
                    "{index} laid out in {} has pointers 0 to {}",
                    layout.encoding().name(),
                    layout.pointer_limit() - 1
                ))
            }
        }
        SearchBy::Bytes => {
            let mut bytes = typed_bytes(query)?;
            // ISO-2022-JP's two bytes come after an escape sequence to JIS X
            // 0208: allow it to be typed too.
            if layout.encoding() == ISO_2022_JP
                && (bytes.starts_with(b"\x1B$B") || bytes.starts_with(b"\x1B$@"))
            {
                bytes.drain(..3);
            }
            layout
                .pointer(&bytes)
                .map(|pointer| vec![pointer])
                .ok_or_else(|| {
                    format!(
                        "{} is not a sequence that {} gives a pointer of {index}",
                        hex(&bytes),
                        layout.encoding().name()
                    )
                })
        }
    }
}

/// Rows of cells as the window draws them: an index row (one leading
/// byte's pointers) is cut into lines of `columns` cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lines {
    /// Pointers per index row.
    pub row_len: u32,
    /// Cells per line.
    pub columns: u32,
    /// One past the last pointer.
    pub pointer_limit: u32,
}

impl Lines {
    /// The lines of `layout` with at most `columns` cells each.
    pub fn new(layout: IndexLayout, columns: u32) -> Lines {
        let row_len = layout.row_len();
        Lines {
            row_len,
            columns: columns.clamp(1, row_len),
            pointer_limit: layout.pointer_limit(),
        }
    }

    /// Lines per index row.
    pub fn per_row(self) -> u32 {
        self.row_len.div_ceil(self.columns)
    }

    /// How many lines there are.
    pub fn count(self) -> u64 {
        u64::from(self.pointer_limit.div_ceil(self.row_len)) * u64::from(self.per_row())
    }

    /// The index row of line `line`, and the pointer of its first cell.
    pub fn start(self, line: u64) -> (u32, u32) {
        let per_row = u64::from(self.per_row());
        let row = u32::try_from(line / per_row).unwrap_or(u32::MAX);
        let first_cell = u32::try_from(line % per_row).unwrap_or(0) * self.columns;
        (
            row,
            row.saturating_mul(self.row_len).saturating_add(first_cell),
        )
    }

    /// The line that holds `pointer`.
    pub fn line_of(self, pointer: u32) -> u64 {
        let row = pointer / self.row_len;
        let cell = pointer % self.row_len;
        u64::from(row) * u64::from(self.per_row()) + u64::from(cell / self.columns)
    }
}

/// The index browser window.
pub struct IndexBrowser {
    index: Index,
    /// Which of the index's layouts lays the rows out.
    layout: usize,
    by: SearchBy,
    query: String,
    /// What the last search found.
    found: Vec<u32>,
    /// The pointer shown in detail and highlighted.
    selected: Option<u32>,
    /// Why the last search found nothing.
    message: Option<String>,
    /// A pointer to scroll to, next frame.
    scroll_to: Option<u32>,
}

impl Default for IndexBrowser {
    fn default() -> Self {
        Self {
            index: Index::Jis0208,
            layout: 0,
            by: SearchBy::Character,
            query: String::new(),
            found: Vec::new(),
            selected: None,
            message: None,
            scroll_to: None,
        }
    }
}

impl IndexBrowser {
    /// The layout the rows follow.
    pub fn layout(&self) -> IndexLayout {
        let layouts = self.index.layouts();
        layouts
            .get(self.layout)
            .or_else(|| layouts.first())
            .copied()
            .unwrap_or_else(|| {
                // Every multi-byte index has a layout; jis0208 has three.
                Index::Jis0208.layouts()[0]
            })
    }

    /// Shows `index`, laid out by its first layout.
    pub fn set_index(&mut self, index: Index) {
        if index != self.index {
            self.index = index;
            self.layout = 0;
            self.found.clear();
            self.selected = None;
            self.message = None;
        }
    }

    /// Searches for `query` as `by` says, and scrolls to what is found.
    pub fn find(&mut self, by: SearchBy, query: &str) {
        self.by = by;
        query.clone_into(&mut self.query);
        match search(self.layout(), by, query) {
            Ok(found) => {
                self.selected = found.first().copied();
                self.scroll_to = self.selected;
                self.found = found;
                self.message = None;
            }
            Err(message) => {
                self.found.clear();
                self.message = Some(message);
            }
        }
    }

    /// The pointer highlighted and shown in detail.
    pub fn selected(&self) -> Option<u32> {
        self.selected
    }

    /// What the last search found.
    pub fn found(&self) -> &[u32] {
        &self.found
    }

    fn choosers_ui(&mut self, ui: &mut Ui) {
        let mut index = self.index;
        let mut layout = self.layout;
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Index");
            ComboBox::from_id_salt("browsed index")
                .selected_text(index.name())
                .show_ui(ui, |ui| {
                    for candidate in Index::MULTI_BYTE {
                        ui.selectable_value(&mut index, candidate, candidate.to_string());
                    }
                })
                .response
                .labelled_by(label.id);
            ui.add_space(12.0);
            let layouts = self.index.layouts();
            let name = layouts
                .get(layout)
                .map_or("", |layout| layout.encoding().name());
            let label = ui.label("laid out in rows as");
            ComboBox::from_id_salt("browsed layout")
                .selected_text(name)
                .show_ui(ui, |ui| {
                    for (position, candidate) in layouts.iter().enumerate() {
                        ui.selectable_value(&mut layout, position, candidate.encoding().name());
                    }
                })
                .response
                .labelled_by(label.id);
            ui.label(
                RichText::new(format!(
                    "({} pointers a row, one row per leading byte)",
                    self.layout().row_len()
                ))
                .weak(),
            );
        });
        if index != self.index {
            self.set_index(index);
        } else if layout != self.layout {
            self.layout = layout;
            self.scroll_to = self.selected;
        }
    }

    fn search_ui(&mut self, ui: &mut Ui, palette: &Palette) {
        let encoding = self.layout().encoding().name();
        let mut by = self.by;
        let mut go = false;
        ui.horizontal_wrapped(|ui| {
            ui.label("Search by");
            ui.radio_value(&mut by, SearchBy::Character, "character");
            ui.radio_value(&mut by, SearchBy::Pointer, "pointer");
            ui.radio_value(&mut by, SearchBy::Bytes, format!("bytes in {encoding}"));
            let hint = match by {
                SearchBy::Character => "あ or U+3042",
                SearchBy::Pointer => "283 or 0x11B",
                SearchBy::Bytes => "82 A0",
            };
            let edit = ui.add(
                TextEdit::singleline(&mut self.query)
                    .hint_text(hint)
                    .desired_width(140.0),
            );
            go |= edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            go |= ui.button("Find").clicked();
        });
        self.by = by;
        if go {
            let query = self.query.clone();
            self.find(by, &query);
        }
        if let Some(message) = &self.message {
            ui.label(RichText::new(message).color(palette.malformed_fg));
        } else if self.found.len() > 1 {
            let others: Vec<String> = self.found[1..].iter().map(u32::to_string).collect();
            ui.label(format!(
                "Found at {} pointers: the first, {}, is the standard's index pointer (what \
                 encoders use, unless they skip it); also at {}.",
                self.found.len(),
                self.found[0],
                others.join(", ")
            ));
        }
    }

    fn details_ui(&self, ui: &mut Ui, palette: &Palette) {
        let Some(pointer) = self.selected else {
            ui.label(
                RichText::new("Click a cell, or find a character, to see its pointer and bytes.")
                    .color(palette.weak_fg),
            );
            return;
        };
        let layout = self.layout();
        let (row, cell) = layout.row_and_cell(pointer);
        let character = self
            .index
            .code_point(pointer)
            .map_or_else(|| "no code point (null)".to_owned(), describe_drawn);
        ui.label(
            RichText::new(format!(
                "{} pointer {pointer}: row {row}, cell {cell} in {} ({} pointers a row): {character}",
                self.index,
                layout.encoding().name(),
                layout.row_len(),
            ))
            .strong(),
        );
        ui.label(RichText::new(bytes_line(self.index, pointer)).monospace());
    }

    fn rows_ui(&mut self, ui: &mut Ui, palette: &Palette) {
        let layout = self.layout();
        let scrollbar = ui.spacing().scroll.bar_width + ui.spacing().scroll.bar_outer_margin;
        let columns = ((ui.available_width() - LABEL_WIDTH - scrollbar) / CELL).floor();
        #[expect(
            clippy::cast_sign_loss,
            reason = "clamped to at least 4 cells; a window is never billions of cells wide"
        )]
        let lines = Lines::new(layout, columns.max(4.0) as u32);
        let spacing = ui.spacing().item_spacing.y;
        let mut area = ScrollArea::vertical()
            .id_salt(("index rows", self.index.name(), self.layout))
            .auto_shrink([false, false]);
        if let Some(pointer) = self.scroll_to.take() {
            // The found line in the middle of the view.
            let above = (ui.available_height() / (LINE + spacing) / 2.0).floor();
            #[expect(
                clippy::cast_precision_loss,
                reason = "at most 123758 lines: exact in f32"
            )]
            let line = (lines.line_of(pointer) as f32 - above).max(0.0);
            area = area.vertical_scroll_offset(line * (LINE + spacing));
        }
        let total = usize::try_from(lines.count()).unwrap_or(usize::MAX);
        let mut clicked = None;
        area.show_rows(ui, LINE, total, |ui, range| {
            for line in range {
                if let Some(pointer) = self.line_ui(ui, palette, layout, lines, line as u64) {
                    clicked = Some(pointer);
                }
            }
        });
        if let Some(pointer) = clicked {
            self.selected = Some(pointer);
        }
    }

    /// One line of cells; returns the pointer of a clicked cell.
    fn line_ui(
        &self,
        ui: &mut Ui,
        palette: &Palette,
        layout: IndexLayout,
        lines: Lines,
        line: u64,
    ) -> Option<u32> {
        let (row, first) = lines.start(line);
        let (whole, _) = ui.allocate_exact_size(
            vec2(LABEL_WIDTH + CELL * small_f32(lines.columns), LINE),
            Sense::hover(),
        );
        // The header strip on top, the cells under it.
        let (strip, rect) = whole.split_top_bottom_at_y(whole.top() + HEADER);
        let painter = ui.painter();
        let row_start = row.saturating_mul(lines.row_len);
        // The row's header: its leading bytes (all but the last byte of its
        // first pointer), on its first line; the first pointer on the others.
        if first == row_start {
            let leading = lead_bytes(layout, row_start);
            painter.text(
                rect.left_center() + vec2(2.0, 0.0),
                Align2::LEFT_CENTER,
                format!("{leading} · row {row}"),
                FontId::monospace(12.0),
                ui.visuals().text_color(),
            );
        } else {
            painter.text(
                rect.left_center() + vec2(LABEL_WIDTH - 8.0, 0.0),
                Align2::RIGHT_CENTER,
                first.to_string(),
                FontId::monospace(11.0),
                palette.weak_fg,
            );
        }
        painter.text(
            strip.left_center() + vec2(LABEL_WIDTH - 8.0, 0.0),
            Align2::RIGHT_CENTER,
            if first == row_start {
                "lead ↓  trail →"
            } else {
                "trail →"
            },
            FontId::proportional(10.0),
            palette.weak_fg,
        );
        let mut clicked = None;
        for column in 0..lines.columns {
            let pointer = first + column;
            if pointer >= lines.pointer_limit || pointer - row_start >= lines.row_len {
                break;
            }
            let cell = Rect::from_min_size(
                rect.left_top() + vec2(LABEL_WIDTH + CELL * small_f32(column), 0.0),
                vec2(CELL, CELL),
            );
            // The column's header: the cell's last (trailing) byte.
            if let Some(trail) = trail_byte(layout, pointer) {
                ui.painter().text(
                    pos2(cell.center().x, strip.center().y),
                    Align2::CENTER_CENTER,
                    format!("{trail:02X}"),
                    FontId::monospace(10.0),
                    palette.weak_fg,
                );
            }
            if self.cell_ui(ui, palette, pointer, cell) {
                clicked = Some(pointer);
            }
        }
        clicked
    }

    /// One cell; returns whether it was clicked.
    fn cell_ui(&self, ui: &mut Ui, palette: &Palette, pointer: u32, cell: Rect) -> bool {
        let code_point = self.index.code_point(pointer);
        let selected = self.selected == Some(pointer);
        let found = self.found.contains(&pointer);
        let fill = if selected {
            palette.selection_bg
        } else if found {
            palette.difference_bg
        } else {
            egui::Color32::TRANSPARENT
        };
        let painter = ui.painter();
        painter.rect(
            cell.shrink(0.5),
            0.0,
            fill,
            Stroke::new(0.5, palette.scroll_track),
            StrokeKind::Inside,
        );
        let (text, size, colour) = match code_point.map(drawn) {
            Some((text, false)) => (text, 18.0, ui.visuals().text_color()),
            Some((text, true)) => (text, 9.0, palette.control_fg),
            None => ("·".to_owned(), 12.0, palette.weak_fg),
        };
        painter.text(
            cell.center(),
            Align2::CENTER_CENTER,
            &text,
            FontId::proportional(size),
            colour,
        );
        let label = if code_point.is_some() {
            format!("pointer {pointer}: {text}")
        } else {
            format!("pointer {pointer}: null")
        };
        let response = ui.interact(
            cell,
            ui.scope_id().with(("index cell", pointer)),
            Sense::click(),
        );
        response.widget_info(|| WidgetInfo::labeled(Role::Button, true, &label));
        let index = self.index;
        let response = response.on_hover_ui(|ui| {
            let character = index
                .code_point(pointer)
                .map_or_else(|| "no code point (null)".to_owned(), describe_drawn);
            ui.label(format!("pointer {pointer}: {character}"));
            ui.label(RichText::new(bytes_line(index, pointer)).monospace());
        });
        response.clicked()
    }
}

/// A row's header: the leading bytes of its pointers (all but the last
/// byte of its first pointer), spaced hex.
pub fn lead_bytes(layout: IndexLayout, row_start: u32) -> String {
    layout
        .bytes(row_start)
        .map(|bytes| hex(&bytes[..bytes.len().saturating_sub(1)]))
        .unwrap_or_default()
}

/// A column's header: the trailing (last) byte of `pointer`'s bytes.
pub fn trail_byte(layout: IndexLayout, pointer: u32) -> Option<u8> {
    layout
        .bytes(pointer)
        .as_deref()
        .and_then(<[u8]>::last)
        .copied()
}

/// A count of cells as an `f32`: at most a row's worth (190).
fn small_f32(cells: u32) -> f32 {
    f32::from(u16::try_from(cells).unwrap_or(u16::MAX))
}

/// The bytes of `pointer` in every encoding that lays `index` out:
/// "Shift_JIS 82 A0 · EUC-JP A4 A2 · ISO-2022-JP 24 22 (after ESC $ B)".
pub fn bytes_line(index: Index, pointer: u32) -> String {
    let parts: Vec<String> = index
        .layouts()
        .into_iter()
        .map(|layout| {
            let encoding = layout.encoding();
            match layout.bytes(pointer) {
                Some(bytes) if encoding == ISO_2022_JP => {
                    format!("{} {} (after ESC $ B)", encoding.name(), hex(&bytes))
                }
                Some(bytes) => format!("{} {}", encoding.name(), hex(&bytes)),
                None => format!("{}: out of reach", encoding.name()),
            }
        })
        .collect();
    parts.join(" · ")
}

impl View for IndexBrowser {
    fn name(&self) -> &'static str {
        "Index browser"
    }

    fn ui(&mut self, ui: &mut Ui) {
        let palette = Palette::for_theme(ui.ctx().theme());
        self.choosers_ui(ui);
        self.search_ui(ui, palette);
        self.details_ui(ui, palette);
        ui.separator();
        self.rows_ui(ui, palette);
    }
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{BIG5, EUC_JP, GB18030, SHIFT_JIS};

    use super::*;

    fn layout(index: Index, encoding: &'static mojiscope_core::Encoding) -> IndexLayout {
        index
            .layouts()
            .into_iter()
            .find(|layout| layout.encoding() == encoding)
            .unwrap()
    }

    #[test]
    fn characters_pointers_and_bytes_find_the_same_cell() {
        let shift_jis = layout(Index::Jis0208, SHIFT_JIS);
        assert_eq!(search(shift_jis, SearchBy::Character, "あ"), Ok(vec![283]));
        assert_eq!(
            search(shift_jis, SearchBy::Character, "U+3042"),
            Ok(vec![283])
        );
        assert_eq!(search(shift_jis, SearchBy::Pointer, "283"), Ok(vec![283]));
        assert_eq!(search(shift_jis, SearchBy::Pointer, "0x11B"), Ok(vec![283]));
        assert_eq!(search(shift_jis, SearchBy::Bytes, "82 A0"), Ok(vec![283]));
        let euc_jp = layout(Index::Jis0208, EUC_JP);
        assert_eq!(search(euc_jp, SearchBy::Bytes, "A4A2"), Ok(vec![283]));
        let iso = layout(Index::Jis0208, ISO_2022_JP);
        assert_eq!(
            search(iso, SearchBy::Bytes, "1B 24 42 24 22"),
            Ok(vec![283])
        );
        // ∵ is in index jis0208 three times; the first is the index pointer.
        assert_eq!(
            search(shift_jis, SearchBy::Character, "∵"),
            Ok(vec![165, 1217, 10743])
        );
        // Misses say why.
        assert!(
            search(shift_jis, SearchBy::Character, "A")
                .unwrap_err()
                .contains("is not in index jis0208")
        );
        assert!(
            search(euc_jp, SearchBy::Pointer, "9000")
                .unwrap_err()
                .contains("pointers 0 to 8835")
        );
        assert!(
            search(shift_jis, SearchBy::Bytes, "82 20")
                .unwrap_err()
                .contains("82 20 is not a sequence")
        );
        let ranges = layout(Index::Gb18030Ranges, GB18030);
        assert_eq!(search(ranges, SearchBy::Bytes, "81 30 81 30"), Ok(vec![0]));
        assert_eq!(
            search(ranges, SearchBy::Character, "U+10000"),
            Ok(vec![189_000])
        );
    }

    #[test]
    fn lines_cut_rows_and_find_pointers() {
        // Shift_JIS: 188 pointers a row, in lines of 20: 10 lines a row.
        let lines = Lines::new(layout(Index::Jis0208, SHIFT_JIS), 20);
        assert_eq!(lines.per_row(), 10);
        assert_eq!(lines.count(), 60 * 10);
        assert_eq!(lines.line_of(283), 10 + 4);
        assert_eq!(lines.start(14), (1, 188 + 80));
        assert_eq!(lines.start(10), (1, 188));
        // Big5: 157 a row; more columns than that give one line a row.
        let lines = Lines::new(layout(Index::Big5, BIG5), 400);
        assert_eq!(lines.columns, 157);
        assert_eq!(lines.count(), 126);
        // gb18030 ranges: ten a row, 123758 rows.
        let lines = Lines::new(layout(Index::Gb18030Ranges, GB18030), 30);
        assert_eq!(lines.count(), 123_758);
        assert_eq!(lines.line_of(189_000), 18_900);
    }

    #[test]
    fn rows_and_columns_are_headed_by_their_lead_and_trail_bytes() {
        // あ is pointer 283: Shift_JIS 82 A0, EUC-JP A4 A2.
        let shift_jis = layout(Index::Jis0208, SHIFT_JIS);
        let row_start = 283 / shift_jis.row_len() * shift_jis.row_len();
        assert_eq!(lead_bytes(shift_jis, row_start), "82");
        assert_eq!(trail_byte(shift_jis, 283), Some(0xA0));
        // Shift_JIS's trailing bytes skip 0x7F: the row's 64th cell is 0x80.
        assert_eq!(trail_byte(shift_jis, row_start), Some(0x40));
        assert_eq!(trail_byte(shift_jis, row_start + 63), Some(0x80));
        let euc_jp = layout(Index::Jis0208, EUC_JP);
        let euc_row_start = 283 / euc_jp.row_len() * euc_jp.row_len();
        assert_eq!(lead_bytes(euc_jp, euc_row_start), "A4");
        assert_eq!(trail_byte(euc_jp, 283), Some(0xA2));
    }

    #[test]
    fn the_browser_selects_what_it_finds() {
        let mut browser = IndexBrowser::default();
        browser.find(SearchBy::Character, "あ");
        assert_eq!(browser.selected(), Some(283));
        assert_eq!(browser.found(), [283]);
        assert_eq!(
            bytes_line(Index::Jis0208, 283),
            "Shift_JIS 82 A0 · EUC-JP A4 A2 · ISO-2022-JP 24 22 (after ESC $ B)"
        );
        browser.set_index(Index::Big5);
        assert_eq!(browser.selected(), None);
        assert_eq!(browser.layout().encoding(), BIG5);
        browser.find(SearchBy::Pointer, "nonsense");
        assert_eq!(browser.selected(), None);
    }
}
