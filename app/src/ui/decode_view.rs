//! A decode pane: the file decoded under one encoding, one row per source
//! line of the primary pane (so the same bytes sit on the same row in every
//! pane), errors and the selection highlighted.

use std::sync::Arc;

use eframe::egui::{
    self, Color32, ComboBox, FontId, Galley, Pos2, ProgressBar, RichText, Role, Stroke, StrokeKind,
    TextStyle, Ui, WidgetInfo,
};
use mojiscope_core::{ByteSpan, Detection, Encoding, Group};
use unicode_width::UnicodeWidthStr as _;

use crate::model::analysis::EncodingAnalysis;
use crate::model::analysis::counts::ErrorCount;
use crate::model::analysis::lines::LineIndex;
use crate::model::command::Command;
use crate::model::selection::{Selection, SelectionOrigin};
use crate::model::session::Pane;
use crate::theme::Palette;
use crate::ui::cells::{Cell, CellKind, overlaps, split_rows};
use crate::ui::error_list::ErrorList;
use crate::ui::rows::{Marks, RowPosition, VisibleRows, rows_ui};
use crate::ui::{PanelCtx, error_count_text, progress_fraction, score_text};

/// Bands of a pane's error strip beside its scroll bar.
const MARK_BINS: usize = 512;

#[derive(Clone, Copy, PartialEq, Eq)]
struct RowsKey {
    generation: u64,
    analysis: usize,
    lines: usize,
    rows: (u64, u64),
}

/// A decode pane's view state: its layout caches, drag anchor and error
/// list. What it shows is the model's [`Pane`].
#[derive(Default)]
pub struct DecodeView {
    rows: Option<(RowsKey, Vec<Vec<Cell>>)>,
    /// The rows laid out, for frames in which nothing they show changed.
    laid_out: Option<(LaidOutKey, Arc<Vec<LaidOutRow>>)>,
    marks: Option<(MarksKey, Marks)>,
    anchor: Option<ByteSpan>,
    /// The pane's error list.
    pub errors: ErrorList,
    /// How wide the widest row laid out so far is, for the horizontal
    /// scroll bar.
    content_width: f32,
}

#[derive(Clone, Copy, PartialEq)]
struct LaidOutKey {
    rows: RowsKey,
    selection: Option<ByteSpan>,
    palette: usize,
    font_size: f32,
    pixels_per_point: f32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct MarksKey {
    analysis: usize,
    lines: usize,
}

/// What a pane needs from the rest of the app for one frame.
pub struct PaneEnv<'a> {
    /// The pane's index.
    pub index: usize,
    /// The line index built from the primary pane.
    pub lines: Option<&'a Arc<LineIndex>>,
    /// Whole-file error counts of every override choice, once known.
    pub counts: Option<&'a [ErrorCount]>,
    /// The ranking of the candidate encodings, once known.
    pub detection: Option<&'a Detection>,
    /// The encoding a UTF-16 byte order mark forces, if there is one.
    pub forced_by_bom: Option<&'static Encoding>,
    /// Whether the pane may be removed.
    pub removable: bool,
    /// Whether the pane has the keyboard focus (F8 works in it).
    pub focused: bool,
}

impl DecodeView {
    /// Shows `pane`, scrolled to `position` (which every pane shares).
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        ctx: &PanelCtx<'_>,
        pane: &Pane,
        env: &PaneEnv<'_>,
        position: &mut RowPosition,
        commands: &mut Vec<Command>,
    ) {
        let frame_rect = ui.max_rect();
        if env.focused {
            ui.painter().rect_stroke(
                frame_rect,
                2.0,
                Stroke::new(1.5, ctx.palette.focus_stroke),
                StrokeKind::Inside,
            );
        }
        self.header_ui(ui, ctx, pane, env, commands);
        ui.separator();
        let Some(lines) = env.lines else {
            ui.label("Indexing lines…");
            return;
        };
        let Some(analysis) = pane.analysis.clone() else {
            if let Some(message) = &pane.failed {
                ui.colored_label(ctx.palette.malformed_fg, message);
            } else {
                ui.label("Decoding…");
            }
            return;
        };
        self.rows_ui(ui, ctx, env, lines, &analysis, position, commands);
    }

    fn header_ui(
        &mut self,
        ui: &mut Ui,
        ctx: &PanelCtx<'_>,
        pane: &Pane,
        env: &PaneEnv<'_>,
        commands: &mut Vec<Command>,
    ) {
        let index = env.index;
        ui.horizontal(|ui| {
            let label = format!("Pane {}", index + 1);
            let width = (ui.available_width() - 60.0).clamp(80.0, 200.0);
            if let Some(forced) = env.forced_by_bom {
                ui.add_enabled_ui(false, |ui| {
                    ComboBox::new(("encoding", index), label)
                        .selected_text(forced.name())
                        .width(width)
                        .show_ui(ui, |_| {});
                });
            } else {
                let mut chosen = pane.encoding;
                ComboBox::new(("encoding", index), label)
                    .selected_text(pane.encoding.name())
                    .width(width)
                    .height(600.0)
                    .show_ui(ui, |ui| {
                        encoding_choices_ui(ui, &mut chosen, env.counts, env.detection);
                    });
                if chosen != pane.encoding {
                    commands.push(Command::SetEncoding {
                        pane: index,
                        encoding: chosen,
                    });
                }
            }
        });
        ui.horizontal(|ui| {
            if let Some(analysis) = &pane.analysis {
                let mut text = error_count_text(analysis.errors);
                if !analysis.is_complete() {
                    text.push_str(" so far");
                }
                let colour = if analysis.errors == 0 {
                    ctx.palette.weak_fg
                } else {
                    ctx.palette.malformed_fg
                };
                ui.label(RichText::new(text).color(colour));
                let analysis = Arc::clone(analysis);
                self.errors.ui(ui, ctx, index, &analysis, commands);
                if env.detection.is_some()
                    && ui
                        .small_button("Why?")
                        .on_hover_text("How detection ranks this encoding, and the evidence")
                        .clicked()
                {
                    commands.push(Command::ShowWhy(pane.encoding));
                }
                if analysis.encoding != pane.encoding {
                    ui.label(format!("(decoded as {})", analysis.encoding.name()));
                }
            }
            if let Some((done, total)) = pane.progress {
                let fraction = progress_fraction(done, total);
                ui.add(
                    ProgressBar::new(fraction)
                        .desired_width(80.0)
                        .show_percentage(),
                );
            } else if pane.analysis.is_none() {
                ui.label("decoding…");
            }
            if env.removable {
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui
                        .small_button(format!("Remove pane {}", index + 1))
                        .clicked()
                    {
                        commands.push(Command::RemovePane(index));
                    }
                });
            }
        });
        if let Some(forced) = env.forced_by_bom {
            ui.label(
                RichText::new(format!(
                    "A {} byte order mark decides the encoding: the standard lets nothing override it.",
                    forced.name()
                ))
                .small()
                .color(ctx.palette.weak_fg),
            );
        }
        // A click anywhere on the header focuses the pane; it is read from
        // the input, not sensed, so that it takes nothing from the widgets
        // underneath (a sensing rectangle laid over them would).
        if ui.rect_contains_pointer(ui.min_rect())
            && ui.input(|input| input.pointer.primary_clicked())
        {
            commands.push(Command::FocusPane(index));
        }
    }

    #[expect(clippy::too_many_arguments, reason = "one pane's view of one frame")]
    fn rows_ui(
        &mut self,
        ui: &mut Ui,
        ctx: &PanelCtx<'_>,
        env: &PaneEnv<'_>,
        lines: &Arc<LineIndex>,
        analysis: &Arc<EncodingAnalysis>,
        position: &mut RowPosition,
        commands: &mut Vec<Command>,
    ) {
        let font = TextStyle::Monospace.resolve(ui.style());
        let row_step = row_step(ui);
        let index = env.index;
        let marks = self.marks(lines, analysis);
        let content_width = self.content_width;
        rows_ui(
            ui,
            ui.scope_id().with(("pane rows", index)),
            position,
            lines.row_count(),
            row_step,
            content_width,
            Some(&marks),
            ctx.palette,
            |ui, visible| {
                visible.response.widget_info(|| {
                    WidgetInfo::labeled(
                        Role::Document,
                        true,
                        format!("Decoded text, pane {}", index + 1),
                    )
                });
                let key = RowsKey {
                    generation: ctx.generation,
                    analysis: Arc::as_ptr(analysis) as usize,
                    lines: Arc::as_ptr(lines) as usize,
                    rows: (visible.rows.start, visible.rows.end),
                };
                if self.rows.as_ref().is_none_or(|(k, _)| *k != key) {
                    let spans = lines.row_spans(visible.rows.clone());
                    let window = match (spans.first(), spans.last()) {
                        (Some(first), Some(last)) => ByteSpan::new(first.start, last.end),
                        _ => ByteSpan::default(),
                    };
                    // Rows past what a snapshot analysed wait for the next.
                    let window = ByteSpan::new(
                        window.start,
                        window.end.min(analysis.byte_len()).max(window.start),
                    );
                    let trace = analysis.decode_window(ctx.bytes, window);
                    let cells = split_rows(trace.items(), &spans);
                    self.rows = Some((key, cells));
                }
                let Some((_, cells)) = &self.rows else {
                    return;
                };
                let laid_key = LaidOutKey {
                    rows: key,
                    selection: ctx.selection.map(|s| s.span),
                    palette: std::ptr::from_ref(ctx.palette) as usize,
                    font_size: font.size,
                    pixels_per_point: ui.ctx().pixels_per_point(),
                };
                let laid_out = match &self.laid_out {
                    Some((k, laid_out)) if *k == laid_key => Arc::clone(laid_out),
                    _ => {
                        let laid_out: Arc<Vec<LaidOutRow>> = Arc::new(
                            cells
                                .iter()
                                .map(|row| layout_row(ui, row, &font, ctx.palette, ctx.selection))
                                .collect(),
                        );
                        self.laid_out = Some((laid_key, Arc::clone(&laid_out)));
                        laid_out
                    }
                };
                let widest = laid_out.iter().map(|row| row.width).fold(0.0, f32::max);
                let height = row_height(ui);
                for (row, laid) in visible.rows.clone().zip(laid_out.iter()) {
                    let origin = Pos2::new(visible.origin.x, visible.row_top(row));
                    laid.paint(ui.painter(), origin, height);
                }
                let clicked = clicked_span(&mut self.anchor, visible, &laid_out, cells);
                self.content_width = self.content_width.max(widest);
                if let Some(span) = clicked {
                    commands.push(Command::FocusPane(index));
                    commands.push(Command::Select(Selection {
                        span,
                        origin: SelectionOrigin::Pane(index),
                    }));
                }
            },
        );
    }

    /// The pane's errors for its scroll bar, by row.
    fn marks(&mut self, lines: &Arc<LineIndex>, analysis: &Arc<EncodingAnalysis>) -> Marks {
        let key = MarksKey {
            analysis: Arc::as_ptr(analysis) as usize,
            lines: Arc::as_ptr(lines) as usize,
        };
        if self.marks.as_ref().is_none_or(|(k, _)| *k != key) {
            let marks = error_marks(lines, &analysis.error_offsets, MARK_BINS);
            self.marks = Some((key, marks));
        }
        self.marks
            .as_ref()
            .map(|(_, marks)| marks.clone())
            .unwrap_or_default()
    }
}

/// Which of `bins` bands of rows hold an error, from the errors' sorted
/// byte offsets. Each band's rows are turned into a byte range and looked up
/// in the offsets: a few hundred lookups, however many errors and rows there
/// are (mapping each of a million errors to its row took seconds).
fn error_marks(lines: &LineIndex, error_offsets: &[u64], bins: usize) -> Marks {
    let rows = lines.row_count();
    let mut marks = vec![false; bins];
    if rows == 0 || error_offsets.is_empty() {
        return Marks { bins: marks };
    }
    // Row r is in band floor(r × bins / rows), so band b starts at row
    // ceil(b × rows / bins).
    let edge = |bin: usize| {
        let row = (u128::from(rows) * bin as u128).div_ceil(bins as u128);
        u64::try_from(row).unwrap_or(u64::MAX)
    };
    for (bin, mark) in marks.iter_mut().enumerate() {
        let (first_row, end_row) = (edge(bin), edge(bin + 1));
        if first_row == end_row {
            continue;
        }
        let start = lines.row_span(first_row).start;
        let end = if end_row >= rows {
            u64::MAX
        } else {
            lines.row_span(end_row).start
        };
        let first_error = error_offsets.partition_point(|&offset| offset < start);
        *mark = error_offsets
            .get(first_error)
            .is_some_and(|&offset| offset < end);
    }
    Marks { bins: marks }
}

/// The bytes the pointer selected in this frame, if it did; a drag extends
/// the selection from `anchor`, where it began.
fn clicked_span(
    anchor: &mut Option<ByteSpan>,
    visible: &VisibleRows,
    laid_out: &[LaidOutRow],
    cells: &[Vec<Cell>],
) -> Option<ByteSpan> {
    let response = &visible.response;
    let pointer = response.interact_pointer_pos()?;
    if !(response.clicked() || response.dragged()) {
        return None;
    }
    let row = visible.row_at(pointer)?;
    let offset = usize::try_from(row - visible.rows.start).ok()?;
    let laid = laid_out.get(offset)?;
    let span = laid
        .cell_at(pointer.x - visible.origin.x)
        .and_then(|cell| cells.get(offset)?.get(cell))?
        .span;
    if response.drag_started() || response.clicked() || anchor.is_none() {
        *anchor = Some(span);
    }
    Some(match *anchor {
        Some(from) if response.dragged() => {
            ByteSpan::new(from.start.min(span.start), from.end.max(span.end))
        }
        _ => span,
    })
}

impl DecodeView {
    /// Forgets the cached rows (the document or the analysis changed).
    pub fn reset(&mut self) {
        self.rows = None;
        self.laid_out = None;
        self.marks = None;
        self.anchor = None;
        self.errors = ErrorList::default();
        self.content_width = 0.0;
    }
}

/// The height of a pane's row.
pub fn row_height(ui: &Ui) -> f32 {
    ui.text_style_height(&TextStyle::Monospace) + 2.0
}

/// The distance from one pane row to the next.
pub fn row_step(ui: &Ui) -> f32 {
    row_height(ui) + ui.spacing().item_spacing.y
}

/// [`row_step`] outside a frame (for tests that point at a row).
pub fn row_step_in(ctx: &egui::Context) -> f32 {
    let style = ctx.global_style();
    let font = TextStyle::Monospace.resolve(&style);
    ctx.fonts_mut(|f| f.row_height(&font)) + 2.0 + style.spacing.item_spacing.y
}

/// One cell placed on its row.
struct PlacedCell {
    /// Its left edge, from the row's left edge.
    x: f32,
    /// How wide its place on the grid is.
    width: f32,
    /// Its text, laid out alone.
    galley: Arc<Galley>,
    /// Its background, if it has one.
    background: Option<Color32>,
}

/// One row laid out: each cell placed on the grid, and the row's width.
struct LaidOutRow {
    cells: Vec<PlacedCell>,
    width: f32,
}

impl LaidOutRow {
    /// The cell under `x` (from the row's left edge).
    fn cell_at(&self, x: f32) -> Option<usize> {
        if x < 0.0 || x > self.width {
            return None;
        }
        self.cells
            .partition_point(|cell| cell.x <= x)
            .checked_sub(1)
    }

    /// Paints the row with its top-left corner at `origin`, `height` high.
    fn paint(&self, painter: &egui::Painter, origin: Pos2, height: f32) {
        for cell in &self.cells {
            let left = origin.x + cell.x;
            if let Some(background) = cell.background {
                let rect = egui::Rect::from_min_size(
                    Pos2::new(left, origin.y),
                    egui::vec2(cell.width, height),
                );
                painter.rect_filled(rect, 0.0, background);
            }
            // Smaller type (abbreviations) sits in the middle of the row.
            let top = origin.y + ((height - cell.galley.size().y) / 2.0).max(0.0);
            painter.galley(
                Pos2::new(left, top),
                Arc::clone(&cell.galley),
                Color32::PLACEHOLDER,
            );
        }
    }
}

/// Lays out one row on a grid of the monospace font's columns: each cell
/// starts at a whole column, a character takes as many columns as
/// `unicode-width` says (two for East Asian wide ones), a combining mark
/// (zero columns) sits on the character before it, and a drawn abbreviation
/// takes as many columns as it needs. Characters from other fonts (CJK comes
/// from a proportional font) therefore stay on the grid, and the same
/// characters line up in every pane.
///
/// Each cell is laid out on its own: egui caches a galley by its text and
/// format, so the few hundred distinct characters of a screen are shaped
/// once and a jump to another part of a file costs lookups, not shaping.
fn layout_row(
    ui: &Ui,
    cells: &[Cell],
    font: &FontId,
    palette: &Palette,
    selection: Option<Selection>,
) -> LaidOutRow {
    let text_colour = ui.visuals().strong_text_color();
    let small = FontId::proportional(font.size * 0.7);
    let small_mono = FontId::monospace(font.size * 0.7);
    ui.fonts_mut(|fonts| {
        let column = fonts.glyph_width(font, '0');
        let mut placed = Vec::with_capacity(cells.len());
        // Where the previous cell ended, and where the next column starts.
        let mut pen = 0.0_f32;
        let mut grid = 0.0_f32;
        for cell in cells {
            let selected = selection.is_some_and(|s| overlaps(s.span, cell.span));
            let (colour, background, font_id) = match cell.kind {
                CellKind::Text => (text_colour, None, font),
                CellKind::Control => (palette.control_fg, Some(palette.control_bg), &small),
                CellKind::Malformed(_) => (palette.malformed_fg, Some(palette.malformed_bg), font),
                CellKind::LiteralReplacement => {
                    (text_colour, Some(palette.replacement_literal_bg), font)
                }
                CellKind::Skip(_) => (palette.skip_fg, None, &small_mono),
            };
            let background = if selected {
                Some(palette.selection_bg)
            } else {
                background
            };
            let galley = fonts.layout_no_wrap(cell.text.clone(), font_id.clone(), colour);
            let advance = galley.size().x;
            let columns = match cell.kind {
                CellKind::Text => cell.text.width(),
                _ => 1,
            };
            if columns == 0 {
                // A combining mark: on the character before, where the font
                // would put it.
                let x = (pen - advance).max(0.0);
                placed.push(PlacedCell {
                    x,
                    width: advance,
                    galley,
                    background,
                });
                continue;
            }
            let x = grid.max(pen);
            pen = x + advance;
            // The grid moves on by the cell's columns, or further if its
            // glyphs are wider (an abbreviation, a wide fallback glyph).
            let end = (grid + column_width(columns, column)).max(pen);
            grid = (end / column).ceil() * column;
            placed.push(PlacedCell {
                x,
                width: grid - x,
                galley,
                background,
            });
        }
        LaidOutRow {
            cells: placed,
            width: pen.max(grid),
        }
    })
}

/// The width of `columns` columns of `column` pixels.
fn column_width(columns: usize, column: f32) -> f32 {
    // A cell has a handful of columns at most.
    f32::from(u16::try_from(columns).unwrap_or(u16::MAX)) * column
}

/// The chooser's list: the override choices grouped under the standard's
/// section headings, each with its whole-file error count once known.
fn encoding_choices_ui(
    ui: &mut Ui,
    chosen: &mut &'static Encoding,
    counts: Option<&[ErrorCount]>,
    detection: Option<&Detection>,
) {
    for group in Group::ALL {
        let choices: Vec<&'static Encoding> = group
            .encodings()
            .filter(|e| e.is_override_choice())
            .collect();
        if choices.is_empty() {
            continue;
        }
        ui.label(RichText::new(group.heading()).strong());
        for encoding in choices {
            let errors = counts
                .and_then(|counts| counts.iter().find(|c| c.encoding == encoding))
                .map(|c| error_count_text(c.errors));
            let score = detection
                .and_then(|detection| detection.candidate(encoding))
                .map(|candidate| score_text(candidate.score));
            let details: Vec<String> = errors.into_iter().chain(score).collect();
            let text = if details.is_empty() {
                encoding.name().to_owned()
            } else {
                format!("{}  ({})", encoding.name(), details.join(", "))
            };
            ui.selectable_value(chosen, encoding, text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_marks_agree_with_mapping_each_error_to_its_row() {
        let mut bytes = Vec::new();
        let mut state = 7u64;
        for _ in 0..5000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = usize::try_from(state % 90).unwrap();
            bytes.extend(std::iter::repeat_n(b'a', len));
            if state.is_multiple_of(5) {
                bytes.push(0xFF);
            }
            bytes.push(b'\n');
        }
        let never = std::sync::atomic::AtomicBool::new(false);
        let (analysis, lines) = crate::model::analysis::analyse_with_rows(
            &bytes,
            mojiscope_core::UTF_8,
            mojiscope_core::BomHandling::None,
            &never,
        )
        .unwrap();
        assert!(analysis.errors > 500);
        for bins in [1, 7, 512, 20_000] {
            let expected = Marks::from_positions(
                analysis.error_offsets.iter().map(|&o| lines.row_of(o)),
                lines.row_count(),
                bins,
            );
            assert_eq!(
                error_marks(&lines, &analysis.error_offsets, bins),
                expected,
                "{bins}"
            );
        }
    }
}
