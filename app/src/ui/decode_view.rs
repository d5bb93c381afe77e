//! A decode pane: the file decoded under one encoding, one row per source
//! line of the primary pane (so the same bytes sit on the same row in every
//! pane), errors and the selection highlighted.

use std::sync::Arc;

use eframe::egui::{
    self, Color32, ComboBox, FontId, Galley, Pos2, ProgressBar, RichText, Role, ScrollArea, Sense,
    Stroke, StrokeKind, TextFormat, TextStyle, Ui, WidgetInfo, text::LayoutJob, vec2,
};
use mojiscope_core::{
    BomHandling, ByteSpan, DecodeErrorKind, Encoding, Group, SkipReason, Trace, TraceItem,
    TraceKind,
};

use crate::analysis::{EncodingAnalysis, ErrorCount, LineIndex};
use crate::app::commands::Command;
use crate::state::{Selection, SelectionOrigin};
use crate::theme::Palette;
use crate::ui::PanelCtx;
use crate::ui::error_list::ErrorList;

/// The items of a trace, in input order.
pub fn trace_items(trace: &Trace) -> impl Iterator<Item = TraceItem> + '_ {
    trace.items()
}

/// One decode pane: its encoding, what the jobs learned, and its view state.
pub struct Pane {
    /// The encoding chosen for the pane.
    pub encoding: &'static Encoding,
    /// How its decode treats a byte order mark.
    pub bom_handling: BomHandling,
    /// The whole-file analysis, once its job is done.
    pub analysis: Option<Arc<EncodingAnalysis>>,
    /// Bytes done and total of the running analysis.
    pub progress: Option<(u64, u64)>,
    /// Why the analysis failed, if it did.
    pub failed: Option<String>,
    /// Layout caches and the error list.
    pub view: DecodeView,
}

impl Pane {
    /// A pane for `encoding`, its analysis not started.
    pub fn new(encoding: &'static Encoding, bom_handling: BomHandling) -> Self {
        Self {
            encoding,
            bom_handling,
            analysis: None,
            progress: None,
            failed: None,
            view: DecodeView::default(),
        }
    }
}

/// What one cell of a decoded row shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// A character drawn as itself.
    Text,
    /// A control character drawn as a visible picture.
    Control,
    /// The U+FFFD an error produced.
    Malformed(DecodeErrorKind),
    /// A U+FFFD that was in the input.
    LiteralReplacement,
    /// Bytes that produced nothing (a BOM, an escape sequence).
    Skip(SkipReason),
}

/// One item of a decoded row, as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// What to draw.
    pub text: String,
    /// How to draw it.
    pub kind: CellKind,
    /// The bytes it came from.
    pub span: ByteSpan,
}

/// How a decoded item is drawn: control characters visibly (see
/// [`scalar_display`]), U+FFFD told apart by origin.
pub fn cell_of(item: TraceItem) -> Cell {
    let (text, kind) = match item.kind {
        TraceKind::Scalar(c) => scalar_display(c),
        TraceKind::Pair(a, b) => (format!("{a}{b}"), CellKind::Text),
        TraceKind::Error(kind) => ("\u{FFFD}".to_owned(), CellKind::Malformed(kind)),
        TraceKind::Skip(reason) => {
            let text = match reason {
                SkipReason::Bom => "BOM",
                SkipReason::EscapeSequence => "ESC",
                _ => "…",
            };
            (text.to_owned(), CellKind::Skip(reason))
        }
    };
    Cell {
        text,
        kind,
        span: item.span,
    }
}

/// The standard abbreviations of the C0 controls (Unicode's aliases), by
/// code point.
const C0_ABBREVIATIONS: [&str; 32] = [
    "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR",
    "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC",
    "FS", "GS", "RS", "US",
];

/// Controls are drawn as their abbreviation (LF, ESC, DEL) or, for the C1
/// controls, their code point in hex, in small type: the Control Pictures
/// block (U+2400) is missing from common fonts such as DejaVu.
fn scalar_display(c: char) -> (String, CellKind) {
    let code_point = u32::from(c);
    match code_point {
        0x00..=0x1F => (
            C0_ABBREVIATIONS
                .get(code_point as usize)
                .copied()
                .unwrap_or("C0")
                .to_owned(),
            CellKind::Control,
        ),
        0x7F => ("DEL".to_owned(), CellKind::Control),
        0x80..=0x9F => (format!("{code_point:02X}"), CellKind::Control),
        0xFFFD => (c.to_string(), CellKind::LiteralReplacement),
        _ => (c.to_string(), CellKind::Text),
    }
}

/// Splits the items of a window into rows by where each item starts.
pub fn split_rows(
    items: impl Iterator<Item = TraceItem>,
    row_spans: &[ByteSpan],
) -> Vec<Vec<Cell>> {
    let mut rows: Vec<Vec<Cell>> = vec![Vec::new(); row_spans.len()];
    let mut row = 0;
    for item in items {
        while row + 1 < row_spans.len() && item.span.start >= row_spans[row].end {
            row += 1;
        }
        if let Some(cells) = rows.get_mut(row) {
            cells.push(cell_of(item));
        }
    }
    rows
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct RowsKey {
    generation: u64,
    analysis: usize,
    lines: usize,
    rows: (usize, usize),
}

/// A pane's view state.
#[derive(Default)]
pub struct DecodeView {
    rows: Option<(RowsKey, Vec<Vec<Cell>>)>,
    anchor: Option<ByteSpan>,
    /// The pane's error list.
    pub errors: ErrorList,
}

/// What a pane needs from the rest of the app for one frame.
pub struct PaneEnv<'a> {
    /// The pane's index.
    pub index: usize,
    /// The line index built from the primary pane.
    pub lines: Option<&'a Arc<LineIndex>>,
    /// Whole-file error counts of every override choice, once known.
    pub counts: Option<&'a [ErrorCount]>,
    /// The encoding a UTF-16 byte order mark forces, if there is one.
    pub forced_by_bom: Option<&'static Encoding>,
    /// Whether the pane may be removed.
    pub removable: bool,
    /// Whether the pane has the keyboard focus (F8 works in it).
    pub focused: bool,
    /// The vertical scroll offset all panes share.
    pub scroll_y: f32,
}

impl Pane {
    /// Shows the pane. Returns the scroll offset it ended at.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        ctx: &PanelCtx<'_>,
        env: &PaneEnv<'_>,
        commands: &mut Vec<Command>,
    ) -> f32 {
        let frame_rect = ui.max_rect();
        if env.focused {
            ui.painter().rect_stroke(
                frame_rect,
                2.0,
                Stroke::new(1.5, ctx.palette.focus_stroke),
                StrokeKind::Inside,
            );
        }
        self.header_ui(ui, ctx, env, commands);
        if let Some(analysis) = &self.analysis {
            let analysis = Arc::clone(analysis);
            self.view.errors.ui(ui, ctx, env.index, &analysis, commands);
        }
        ui.separator();
        let Some(lines) = env.lines else {
            ui.label("Indexing lines…");
            return env.scroll_y;
        };
        let Some(analysis) = self.analysis.clone() else {
            if let Some(message) = &self.failed {
                ui.colored_label(ctx.palette.malformed_fg, message);
            } else {
                ui.label("Decoding…");
            }
            return env.scroll_y;
        };
        self.rows_ui(ui, ctx, env, lines, &analysis, commands)
    }

    fn header_ui(
        &mut self,
        ui: &mut Ui,
        ctx: &PanelCtx<'_>,
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
                let mut chosen = self.encoding;
                ComboBox::new(("encoding", index), label)
                    .selected_text(self.encoding.name())
                    .width(width)
                    .height(600.0)
                    .show_ui(ui, |ui| encoding_choices_ui(ui, &mut chosen, env.counts));
                if chosen != self.encoding {
                    commands.push(Command::SetEncoding {
                        pane: index,
                        encoding: chosen,
                    });
                }
            }
        });
        ui.horizontal(|ui| {
            if let Some(analysis) = &self.analysis {
                let text = error_count_text(analysis.errors);
                let colour = if analysis.errors == 0 {
                    ctx.palette.weak_fg
                } else {
                    ctx.palette.malformed_fg
                };
                ui.label(RichText::new(text).color(colour));
                if analysis.encoding != self.encoding {
                    ui.label(format!("(decoded as {})", analysis.encoding.name()));
                }
            } else if let Some((done, total)) = self.progress {
                let fraction = if total == 0 {
                    1.0
                } else {
                    done as f32 / total as f32
                };
                ui.add(
                    ProgressBar::new(fraction)
                        .desired_width(120.0)
                        .show_percentage(),
                );
            } else {
                ui.label("counting errors…");
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
        let response = ui.interact(
            ui.min_rect(),
            ui.scope_id().with(("pane header", index)),
            Sense::click(),
        );
        if response.clicked() {
            commands.push(Command::FocusPane(index));
        }
    }

    fn rows_ui(
        &mut self,
        ui: &mut Ui,
        ctx: &PanelCtx<'_>,
        env: &PaneEnv<'_>,
        lines: &Arc<LineIndex>,
        analysis: &Arc<EncodingAnalysis>,
        commands: &mut Vec<Command>,
    ) -> f32 {
        let font = TextStyle::Monospace.resolve(ui.style());
        let row_height = row_height(ui);
        let row_step = row_step(ui);
        let row_count = lines.row_count();
        let index = env.index;
        let output = ScrollArea::both()
            .id_salt(("pane rows", index))
            .auto_shrink([false, false])
            .vertical_scroll_offset(env.scroll_y)
            .show_rows(ui, row_height, row_count, |ui, rows| {
                let key = RowsKey {
                    generation: ctx.generation,
                    analysis: Arc::as_ptr(analysis) as usize,
                    lines: Arc::as_ptr(lines) as usize,
                    rows: (rows.start, rows.end),
                };
                if self.view.rows.as_ref().is_none_or(|(k, _)| *k != key) {
                    let spans: Vec<ByteSpan> =
                        rows.clone().map(|row| lines.row_span(row)).collect();
                    let window = match (spans.first(), spans.last()) {
                        (Some(first), Some(last)) => ByteSpan::new(first.start, last.end),
                        _ => ByteSpan::default(),
                    };
                    let trace = analysis.decode_window(ctx.bytes, window);
                    let cells = split_rows(trace_items(&trace), &spans);
                    self.view.rows = Some((key, cells));
                }
                let Some((_, cells)) = &self.view.rows else {
                    return;
                };
                let galleys: Vec<(Arc<Galley>, Vec<usize>)> = cells
                    .iter()
                    .map(|row| layout_row(ui, row, &font, ctx.palette, ctx.selection))
                    .collect();
                let width = galleys
                    .iter()
                    .map(|(g, _)| g.size().x)
                    .fold(ui.available_width(), f32::max);
                let block = vec2(width, rows.len() as f32 * row_step);
                let (rect, response) = ui.allocate_exact_size(block, Sense::click_and_drag());
                response.widget_info(|| {
                    WidgetInfo::labeled(
                        Role::Document,
                        true,
                        format!("Decoded text, pane {}", index + 1),
                    )
                });
                for (i, (galley, _)) in galleys.iter().enumerate() {
                    let pos = Pos2::new(rect.left(), rect.top() + i as f32 * row_step);
                    ui.painter()
                        .galley(pos, Arc::clone(galley), ctx.palette.weak_fg);
                }
                if let Some(pointer) = response.interact_pointer_pos()
                    && (response.clicked() || response.dragged())
                {
                    let row = ((pointer.y - rect.top()) / row_step).floor();
                    if row >= 0.0
                        && let Some((galley, starts)) = galleys.get(row as usize)
                        && let Some(row_cells) = cells.get(row as usize)
                    {
                        let x = pointer.x - rect.left();
                        if let Some(cell) =
                            cell_at(galley, starts, x).and_then(|c| row_cells.get(c))
                        {
                            let span = self.view.extend_drag(&response, cell.span);
                            commands.push(Command::FocusPane(index));
                            commands.push(Command::Select(Selection {
                                span,
                                origin: SelectionOrigin::Pane(index),
                            }));
                        }
                    }
                }
            });
        output.state.clamped_offset().y
    }
}

impl DecodeView {
    /// Forgets the cached rows (the document or the analysis changed).
    pub fn reset(&mut self) {
        self.rows = None;
        self.anchor = None;
        self.errors = ErrorList::default();
    }

    fn extend_drag(&mut self, response: &egui::Response, span: ByteSpan) -> ByteSpan {
        if response.drag_started() || response.clicked() {
            self.anchor = Some(span);
        }
        match self.anchor {
            Some(anchor) if response.dragged() => {
                ByteSpan::new(anchor.start.min(span.start), anchor.end.max(span.end))
            }
            _ => span,
        }
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

/// Lays out one row; returns the galley and the character index at which
/// each cell starts.
fn layout_row(
    ui: &Ui,
    cells: &[Cell],
    font: &FontId,
    palette: &Palette,
    selection: Option<Selection>,
) -> (Arc<Galley>, Vec<usize>) {
    let mut job = LayoutJob::default();
    let mut starts = Vec::with_capacity(cells.len());
    let mut chars = 0;
    let text_colour = ui.visuals().text_color();
    for cell in cells {
        starts.push(chars);
        chars += cell.text.chars().count();
        let selected = selection.is_some_and(|s| overlaps(s.span, cell.span));
        let (colour, background) = match cell.kind {
            CellKind::Text => (text_colour, Color32::TRANSPARENT),
            CellKind::Control => (palette.control_fg, Color32::TRANSPARENT),
            CellKind::Malformed(_) => (palette.malformed_fg, palette.malformed_bg),
            CellKind::LiteralReplacement => (text_colour, palette.replacement_literal_bg),
            CellKind::Skip(_) => (palette.skip_fg, Color32::TRANSPARENT),
        };
        let mut format = TextFormat::simple(font.clone(), colour);
        format.background = if selected {
            palette.selection_bg
        } else {
            background
        };
        match cell.kind {
            CellKind::Skip(_) => {
                format.font_id = FontId::monospace(font.size * 0.7);
                format.italics = true;
            }
            CellKind::Control => {
                format.font_id = FontId::proportional(font.size * 0.7);
                format.background = if selected {
                    palette.selection_bg
                } else {
                    palette.control_bg
                };
            }
            _ => {}
        }
        job.append(&cell.text, 0.0, format);
    }
    let galley = ui.fonts_mut(|f| f.layout_job(job));
    (galley, starts)
}

/// The cell under `x` in a laid-out row.
fn cell_at(galley: &Galley, starts: &[usize], x: f32) -> Option<usize> {
    use egui::text::CCursor;
    let mut found = None;
    for (i, &start) in starts.iter().enumerate() {
        let left = galley.pos_from_cursor(CCursor::new(start)).left();
        if left <= x {
            found = Some(i);
        } else {
            break;
        }
    }
    let last_right = galley.rect.right();
    found.filter(|_| x <= last_right + 1.0)
}

/// Whether two spans share a byte.
pub fn overlaps(a: ByteSpan, b: ByteSpan) -> bool {
    a.start < b.end && b.start < a.end
}

/// "no errors", "1 error", "12 errors".
pub fn error_count_text(errors: u64) -> String {
    match errors {
        0 => "no errors".to_owned(),
        1 => "1 error".to_owned(),
        n => format!("{n} errors"),
    }
}

/// The chooser's list: the override choices grouped under the standard's
/// section headings, each with its whole-file error count once known.
fn encoding_choices_ui(ui: &mut Ui, chosen: &mut &'static Encoding, counts: Option<&[ErrorCount]>) {
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
                .map(|c| format!("  ({})", error_count_text(c.errors)))
                .unwrap_or_default();
            ui.selectable_value(chosen, encoding, format!("{}{errors}", encoding.name()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(start: u64, end: u64, kind: TraceKind) -> TraceItem {
        TraceItem {
            span: ByteSpan::new(start, end),
            kind,
        }
    }

    #[test]
    fn controls_are_drawn_as_abbreviations_and_replacements_told_apart() {
        let cell = cell_of(item(0, 1, TraceKind::Scalar('\n')));
        assert_eq!((cell.text.as_str(), cell.kind), ("LF", CellKind::Control));
        let cell = cell_of(item(0, 1, TraceKind::Scalar('\u{1B}')));
        assert_eq!(cell.text, "ESC");
        let cell = cell_of(item(0, 1, TraceKind::Scalar('\u{7F}')));
        assert_eq!(cell.text, "DEL");
        let cell = cell_of(item(0, 2, TraceKind::Scalar('\u{85}')));
        assert_eq!((cell.text.as_str(), cell.kind), ("<85>", CellKind::Control));
        let literal = cell_of(item(0, 3, TraceKind::Scalar('\u{FFFD}')));
        assert_eq!(literal.kind, CellKind::LiteralReplacement);
        let error = cell_of(item(0, 1, TraceKind::Error(DecodeErrorKind::InvalidByte)));
        assert_eq!(error.text, "\u{FFFD}");
        assert_eq!(
            error.kind,
            CellKind::Malformed(DecodeErrorKind::InvalidByte)
        );
    }

    #[test]
    fn items_go_to_the_row_they_start_in() {
        let items = [
            item(0, 1, TraceKind::Scalar('a')),
            item(1, 2, TraceKind::Scalar('\n')),
            // Starts in row 1, ends past it.
            item(2, 5, TraceKind::Scalar('日')),
            item(5, 6, TraceKind::Scalar('b')),
        ];
        let rows = split_rows(
            items.into_iter(),
            &[
                ByteSpan::new(0, 2),
                ByteSpan::new(2, 4),
                ByteSpan::new(4, 6),
            ],
        );
        let texts: Vec<String> = rows
            .iter()
            .map(|row| row.iter().map(|c| c.text.as_str()).collect())
            .collect();
        assert_eq!(texts, ["aLF", "日", "b"]);
    }

    #[test]
    fn error_counts_read_well() {
        assert_eq!(error_count_text(0), "no errors");
        assert_eq!(error_count_text(1), "1 error");
        assert_eq!(error_count_text(4), "4 errors");
    }
}
