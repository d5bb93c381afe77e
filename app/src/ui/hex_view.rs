//! The hex view: offset | bytes | glyphs, byte classes coloured, the primary
//! pane's errors and the selection marked, virtually scrolled (see
//! [`rows`](super::rows)), with the primary pane's errors marked beside the
//! scroll bar.

use std::sync::Arc;

use eframe::egui::{
    Align2, FontId, Pos2, Rect, Role, Stroke, StrokeKind, TextStyle, Ui, WidgetInfo, vec2,
};
use mojiscope_core::ByteSpan;

use crate::model::command::Command;
use crate::model::selection::{Selection, SelectionOrigin};
use crate::ui::PanelCtx;
use crate::ui::cells::{ByteClass, glyph};
use crate::ui::rows::{Marks, RowPosition, VisibleRows, floor_index, rows_ui};

/// Bands of the scroll bar's error strip.
const MARK_BINS: usize = 512;

/// The hex view's own state: the drag anchor, the scroll position, and the
/// errors of the rows last shown.
#[derive(Default)]
pub struct HexView {
    anchor: Option<u64>,
    position: RowPosition,
    /// A byte offset to bring into view once the row width is known.
    reveal: Option<u64>,
    /// A byte offset whose row goes to the top, once the width is known.
    top: Option<u64>,
    errors: Option<(ErrorsKey, Vec<ByteSpan>)>,
    marks: Option<(MarksKey, Marks)>,
    /// The rows' widget, once drawn: the keyboard focus goes there.
    id: Option<eframe::egui::Id>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct ErrorsKey {
    generation: u64,
    analysis: usize,
    span: ByteSpan,
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct MarksKey {
    generation: u64,
    analysis: usize,
}

impl HexView {
    /// Scrolls so that `byte_offset` is visible, next frame.
    pub fn reveal(&mut self, byte_offset: u64) {
        self.reveal = Some(byte_offset);
    }

    /// Scrolls so that the row of `byte_offset` is at the top, next frame
    /// (keeping the place across a reload).
    pub fn scroll_to(&mut self, byte_offset: u64) {
        self.top = Some(byte_offset);
    }

    /// The id of the rows' widget, once drawn (Ctrl+H focuses it).
    pub fn id(&self) -> Option<eframe::egui::Id> {
        self.id
    }

    /// Forgets everything tied to the document shown.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// The first byte of the top row, for keeping the place across a reload.
    pub fn top_byte(&self, width: usize) -> u64 {
        self.position.top_row * width as u64
    }

    /// Shows the bytes of `ctx.document`, `width` to a row.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        ctx: &PanelCtx<'_>,
        width: usize,
        commands: &mut Vec<Command>,
    ) {
        let bytes: &[u8] = ctx.bytes;
        let len = bytes.len() as u64;
        let width_u64 = width as u64;
        let row_count = len.div_ceil(width_u64).max(1);
        let font = TextStyle::Monospace.resolve(ui.style());
        let char_width = ui.fonts_mut(|f| f.glyph_width(&font, '0'));
        let row_height = ui.text_style_height(&TextStyle::Monospace);
        let row_step = row_height + ui.spacing().item_spacing.y;
        let offset_digits = offset_digits(len);
        let layout = Layout::new(char_width, offset_digits, width);
        let total_width = layout.glyph_x + (columns(width) + 1.0) * char_width;
        if let Some(byte_offset) = self.reveal.take() {
            self.position.reveal(byte_offset / width_u64);
        }
        if let Some(byte_offset) = self.top.take() {
            self.position.top_row = byte_offset / width_u64;
            self.position.offset = 0.0;
        }
        let marks = self.marks(ctx);
        let mut position = self.position;
        rows_ui(
            ui,
            ui.scope_id().with("hex view"),
            &mut position,
            row_count,
            row_step,
            total_width,
            marks.as_ref(),
            ctx.palette,
            |ui, visible| {
                visible
                    .response
                    .widget_info(|| WidgetInfo::labeled(Role::Grid, true, "Hex view"));
                self.id = Some(visible.response.id);
                let first = visible.rows.start * width_u64;
                let end = (visible.rows.end * width_u64).min(len);
                let errors = self.errors_in(ctx, ByteSpan::new(first.min(end), end));
                let painter = ui.painter();
                let palette = ctx.palette;
                let left = visible.origin.x;
                for row in visible.rows.clone() {
                    let y = visible.row_top(row);
                    let row_start = row * width_u64;
                    painter.text(
                        Pos2::new(left, y),
                        Align2::LEFT_TOP,
                        format!("{row_start:0offset_digits$X}"),
                        font.clone(),
                        palette.weak_fg,
                    );
                    let row_end = (row_start + width_u64).min(len);
                    for byte_offset in row_start..row_end {
                        let Some(&byte) =
                            usize::try_from(byte_offset).ok().and_then(|i| bytes.get(i))
                        else {
                            break;
                        };
                        let column = (byte_offset - row_start) as usize;
                        let hex_cell = layout.hex_cell(left, y, column, row_height);
                        let glyph_cell = layout.glyph_cell(left, y, column, row_height);
                        let selected = ctx.selection.is_some_and(|s| s.span.contains(byte_offset));
                        let malformed = errors.iter().any(|e| e.contains(byte_offset));
                        for cell in [hex_cell, glyph_cell] {
                            if selected {
                                painter.rect_filled(cell, 0.0, palette.selection_bg);
                            } else if malformed {
                                painter.rect_filled(cell, 0.0, palette.malformed_bg);
                            }
                        }
                        let colour = ByteClass::of(byte).colour(palette);
                        painter.text(
                            hex_cell.left_top() + vec2(char_width * 0.5, 0.0),
                            Align2::LEFT_TOP,
                            format!("{byte:02X}"),
                            font.clone(),
                            colour,
                        );
                        painter.text(
                            glyph_cell.left_top(),
                            Align2::LEFT_TOP,
                            glyph(byte),
                            font.clone(),
                            colour,
                        );
                    }
                }
                if visible.response.has_focus() {
                    // The keyboard is here: the arrows move the selection.
                    painter.rect_stroke(
                        visible.viewport.shrink(1.0),
                        2.0,
                        Stroke::new(2.0, palette.focus_stroke),
                        StrokeKind::Inside,
                    );
                }
                row_nodes(ui, visible, bytes, width_u64, offset_digits, row_height);
                self.interact(visible, &layout, len, commands);
            },
        );
        self.position = position;
    }

    /// The primary pane's errors among the bytes of `visible`, decoded once
    /// per visible range.
    fn errors_in(&mut self, ctx: &PanelCtx<'_>, visible: ByteSpan) -> &[ByteSpan] {
        let Some(analysis) = ctx.primary else {
            self.errors = None;
            return &[];
        };
        let key = ErrorsKey {
            generation: ctx.generation,
            analysis: Arc::as_ptr(analysis) as usize,
            span: visible,
        };
        if self.errors.as_ref().is_none_or(|(k, _)| *k != key) {
            let trace = analysis.decode_window(ctx.bytes, visible);
            let spans = trace.errors().map(|(span, _)| span).collect();
            self.errors = Some((key, spans));
        }
        self.errors.as_ref().map_or(&[], |(_, spans)| spans)
    }

    /// The primary pane's errors for the scroll bar, by byte offset.
    fn marks(&mut self, ctx: &PanelCtx<'_>) -> Option<Marks> {
        let analysis = ctx.primary?;
        let key = MarksKey {
            generation: ctx.generation,
            analysis: Arc::as_ptr(analysis) as usize,
        };
        if self.marks.as_ref().is_none_or(|(k, _)| *k != key) {
            let marks = Marks::from_positions(
                analysis.error_offsets.iter().copied(),
                ctx.bytes.len() as u64,
                MARK_BINS,
            );
            self.marks = Some((key, marks));
        }
        self.marks.as_ref().map(|(_, marks)| marks.clone())
    }

    fn interact(
        &mut self,
        visible: &VisibleRows,
        layout: &Layout,
        len: u64,
        commands: &mut Vec<Command>,
    ) {
        let response = &visible.response;
        crate::ui::selection_menu(response, 0, commands);
        let Some(pos) = response.interact_pointer_pos() else {
            if !response.dragged() {
                self.anchor = None;
            }
            return;
        };
        let (Some(row), Some(column)) = (
            visible.row_at(pos),
            layout.column_at(pos.x - visible.origin.x),
        ) else {
            return;
        };
        if len == 0 {
            return;
        }
        let byte_offset = (row * layout.width as u64 + column as u64).min(len - 1);
        if response.drag_started() || response.clicked() || self.anchor.is_none() {
            self.anchor = Some(byte_offset);
        }
        let anchor = self.anchor.unwrap_or(byte_offset);
        let span = ByteSpan::new(anchor.min(byte_offset), anchor.max(byte_offset) + 1);
        if response.clicked() || response.dragged() || response.drag_started() {
            commands.push(Command::Select(Selection {
                span,
                origin: SelectionOrigin::Hex,
            }));
        }
    }
}

/// Each visible row as a text node: a screen reader reads the offset and
/// the bytes ("00000010: 0A 83 4A").
fn row_nodes(
    ui: &mut Ui,
    visible: &VisibleRows,
    bytes: &[u8],
    width: u64,
    offset_digits: usize,
    row_height: f32,
) {
    let len = bytes.len() as u64;
    let rows_ui = ui.new_child(
        eframe::egui::UiBuilder::new()
            .id_salt("hex rows")
            .max_rect(visible.viewport)
            .accessibility_parent(visible.response.id),
    );
    for row in visible.rows.clone() {
        let row_start = row * width;
        let row_end = (row_start + width).min(len);
        let text = format!(
            "{row_start:0offset_digits$X}: {}",
            crate::model::copy::hex_text(bytes, ByteSpan::new(row_start, row_end))
        );
        let rect = Rect::from_min_size(
            Pos2::new(visible.viewport.left(), visible.row_top(row)),
            vec2(visible.viewport.width(), row_height),
        )
        .intersect(visible.viewport);
        let node = rows_ui.interact(
            rect,
            rows_ui.scope_id().with(("hex row", row)),
            eframe::egui::Sense::hover(),
        );
        node.widget_info(|| WidgetInfo::labeled(Role::Label, true, &text));
    }
}

/// `width` columns as a float (8, 16 or 32: exact).
#[expect(clippy::cast_precision_loss, reason = "8, 16 or 32")]
fn columns(width: usize) -> f32 {
    width as f32
}

/// Where the columns are, in multiples of a monospace character's width.
struct Layout {
    char_width: f32,
    hex_x: f32,
    glyph_x: f32,
    width: usize,
}

impl Layout {
    fn new(char_width: f32, offset_digits: usize, width: usize) -> Self {
        let digits = columns(offset_digits);
        Layout {
            char_width,
            hex_x: (digits + 2.0) * char_width,
            glyph_x: (digits + 2.0 + columns(width) * 3.0 + 1.0) * char_width,
            width,
        }
    }

    fn hex_cell(&self, left: f32, top: f32, column: usize, height: f32) -> Rect {
        let gap = if column >= self.width / 2 {
            self.char_width
        } else {
            0.0
        };
        let x = left + self.hex_x + columns(column) * 3.0 * self.char_width + gap;
        Rect::from_min_size(Pos2::new(x, top), vec2(3.0 * self.char_width, height))
    }

    fn glyph_cell(&self, left: f32, top: f32, column: usize, height: f32) -> Rect {
        let x = left + self.glyph_x + columns(column) * self.char_width;
        Rect::from_min_size(Pos2::new(x, top), vec2(self.char_width, height))
    }

    /// The byte column under `x` (relative to the block's left edge), in the
    /// hex or the glyph column.
    fn column_at(&self, x: f32) -> Option<usize> {
        let width = columns(self.width);
        let cells = if x >= self.glyph_x {
            let column = ((x - self.glyph_x) / self.char_width).floor();
            if column >= width {
                return None;
            }
            column
        } else if x < self.hex_x {
            return None;
        } else {
            let mut cells = (x - self.hex_x) / (3.0 * self.char_width);
            if cells >= width / 2.0 {
                // The gap between the two halves of a row.
                cells = (x - self.hex_x - self.char_width) / (3.0 * self.char_width);
            }
            cells.floor().clamp(0.0, width - 1.0)
        };
        Some(floor_index(cells))
    }
}

/// How many hex digits the offset column needs for a file of `len` bytes
/// (at least 8).
pub fn offset_digits(len: u64) -> usize {
    let bits = u64::BITS - len.leading_zeros();
    (bits.div_ceil(4) as usize).max(8)
}

/// The font of the hex view, for callers that size things to it.
pub fn font(ui: &Ui) -> FontId {
    TextStyle::Monospace.resolve(ui.style())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_take_at_least_eight_digits() {
        assert_eq!(offset_digits(0), 8);
        assert_eq!(offset_digits(0xFFFF_FFFF), 8);
        assert_eq!(offset_digits(0x1_0000_0000), 9);
    }

    #[test]
    fn columns_map_back_to_bytes() {
        let layout = Layout {
            char_width: 10.0,
            hex_x: 100.0,
            glyph_x: 600.0,
            width: 16,
        };
        assert_eq!(layout.column_at(50.0), None);
        assert_eq!(layout.column_at(105.0), Some(0));
        assert_eq!(layout.column_at(135.0), Some(1));
        // Byte 8 starts after the gap.
        assert_eq!(layout.column_at(100.0 + 8.0 * 30.0 + 10.0 + 5.0), Some(8));
        assert_eq!(layout.column_at(615.0), Some(1));
        assert_eq!(layout.column_at(600.0 + 17.0 * 10.0), None);
    }
}
