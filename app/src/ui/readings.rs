//! The decode panes' text: every pane's reading of the file, row by row,
//! drawn together so that whole lines show.
//!
//! A row is one of the primary pane's lines (or a piece of a long one, see
//! [`LineIndex`]). Its readings are laid out together ([`align`]): the same
//! bytes at the same column in every reading, characters that read
//! differently from the first pane marked, wrapped at the view's width so
//! that no line needs a horizontal scroll. Two arrangements
//! ([`Shown`]): *stacked*, each line once per pane, one under another,
//! each tagged with its pane's number and colour (a line every pane reads
//! the same is shown once, its tag striped with every pane's colour); and
//! *side by side*, one column per pane, a row as tall as its longest
//! reading, so rows stay level. One scroll bar serves every pane; it marks
//! the focused pane's errors.
//!
//! For screen readers each pane is a document node ("Decoded text, pane 2:
//! UTF-8") holding one text node per visible row, and it takes the
//! keyboard focus: focusing it makes it the focused pane.
//!
//! A pane shows its reinterpretations by hand ([`PaneEdits`]) in place of
//! the characters they replace: marked (a background and an underline),
//! their cells all of the bytes they replaced (a click selects them all),
//! what they replaced and how in a tooltip, and in the row's description
//! for screen readers.
//!
//! [`align`]: crate::ui::align

use std::collections::HashMap;
use std::sync::Arc;

use eframe::egui::{
    self, Color32, FontId, Id, Pos2, Rect, Response, Role, Sense, Shape, Stroke, StrokeKind,
    TextStyle, Ui, UiBuilder, WidgetInfo, vec2,
};
use mojiscope_core::ByteSpan;
use unicode_width::UnicodeWidthStr as _;

use crate::model::analysis::EncodingAnalysis;
use crate::model::analysis::lines::LineIndex;
use crate::model::command::Command;
use crate::model::layout::Shown;
use crate::model::repair::manual::{Edit, EditOrigin};
use crate::model::selection::{Selection, SelectionOrigin};
use crate::model::session::Pane;
use crate::model::wording::plural;
use crate::theme::Palette;
use crate::ui::PanelCtx;
use crate::ui::align::{Line, Placed, lay_out};
use crate::ui::cells::{Cell, CellKind, edited_cells, overlaps, split_rows};
use crate::ui::rows::{Marks, RowPosition, RowsView, VisibleRows};

/// Bands of the scroll bar's error strip.
const MARK_BINS: usize = 512;
/// Rows decoded at once when a row is missing from the cache: most of a
/// screen, so that scrolling decodes a window at a time.
const BATCH: u64 = 48;
/// Rows kept laid out before the cache starts afresh.
const CACHE_ROWS: usize = 4096;
/// Columns of a stacked row's tag (the pane's number).
const TAG_COLUMNS: f32 = 2.5;
/// Pixels between two rows.
const ROW_GAP: f32 = 4.0;
/// Pixels between two panes side by side.
const COLUMN_GAP: f32 = 10.0;
/// Abbreviations (LF, NBSP) are drawn this much smaller than text.
const SMALL: f32 = 0.7;

/// The columns a cell takes: a character as many as `unicode-width` says
/// (two for East Asian wide ones, none for a combining mark), a drawn
/// abbreviation as many as its small letters need.
pub fn cell_columns(cell: &Cell) -> u32 {
    match cell.kind {
        CellKind::Text => u32::try_from(cell.text.width()).unwrap_or(1),
        CellKind::Malformed(_) | CellKind::LiteralReplacement | CellKind::Lost => 1,
        CellKind::Control if is_hex_pair(&cell.text) => 1,
        CellKind::Control | CellKind::Skip(_) => {
            let letters = cell.text.chars().count();
            // ceil(letters × 0.7), at least one.
            u32::try_from((letters * 7).div_ceil(10).max(1)).unwrap_or(1)
        }
    }
}

/// Whether a control's abbreviation is its code point in two hex digits
/// (a C1 control): drawn as the two digits one over the other, in one
/// column, as the byte it stands for takes one.
fn is_hex_pair(text: &str) -> bool {
    text.len() == 2 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A row's readings, laid out.
struct RowLayout {
    /// Each present pane's cells of the row (see [`Present`]).
    cells: Vec<Vec<Cell>>,
    /// The lines, each with every present pane's cells on it.
    lines: Vec<Line>,
}

/// Which panes have an analysis to read rows from (the others are still
/// decoding, or failed).
type Present = Vec<usize>;

#[derive(Clone, PartialEq)]
struct CacheKey {
    generation: u64,
    lines: usize,
    analyses: Vec<usize>,
    wrap: u32,
    align: bool,
    /// The pane whose text shows reinterpretations, and their revision.
    edits: Option<(usize, u64)>,
}

/// The rows laid out so far, for one key.
#[derive(Default)]
struct RowCache {
    key: Option<CacheKey>,
    rows: HashMap<u64, Arc<RowLayout>>,
}

impl RowCache {
    /// Starts afresh unless the rows laid out are for `key`.
    fn keep_for(&mut self, key: &CacheKey) {
        if self.key.as_ref() != Some(key) {
            *self = RowCache {
                key: Some(key.clone()),
                rows: HashMap::new(),
            };
        }
    }

    /// The layout of `row`, decoding it (and rows around it) if needed.
    fn get(&mut self, row: u64, source: &Source<'_>) -> Arc<RowLayout> {
        if let Some(layout) = self.rows.get(&row) {
            return Arc::clone(layout);
        }
        if self.rows.len() > CACHE_ROWS {
            self.rows.clear();
        }
        let count = source.lines.row_count();
        let start = row.saturating_sub(BATCH / 3);
        let end = (start + BATCH).min(count);
        // Only the rows missing, in one window.
        let mut first = start;
        while first < row && self.rows.contains_key(&first) {
            first += 1;
        }
        let mut last = end.max(row + 1);
        while last > row + 1 && self.rows.contains_key(&(last - 1)) {
            last -= 1;
        }
        let spans = source.lines.row_spans(first..last);
        let readings: Vec<Vec<Vec<Cell>>> = source
            .analyses
            .iter()
            .enumerate()
            .map(|(reading, analysis)| {
                let mut rows = read_rows(analysis, source.bytes, &spans);
                if let Some((edited, edits)) = source.edits
                    && edited == reading
                {
                    put_edits(&mut rows, &spans, edits);
                }
                rows
            })
            .collect();
        for (index, row_number) in (first..last).enumerate() {
            let cells: Vec<Vec<Cell>> = readings
                .iter()
                .map(|rows| rows.get(index).cloned().unwrap_or_default())
                .collect();
            let slices: Vec<&[Cell]> = cells.iter().map(Vec::as_slice).collect();
            let lines = lay_out(&slices, source.wrap, source.align, cell_columns);
            self.rows
                .insert(row_number, Arc::new(RowLayout { cells, lines }));
        }
        self.rows.get(&row).map_or_else(
            || Arc::new(RowLayout::empty(source.analyses.len())),
            Arc::clone,
        )
    }
}

impl RowLayout {
    fn empty(readings: usize) -> Self {
        let cells = vec![Vec::new(); readings];
        let slices: Vec<&[Cell]> = cells.iter().map(Vec::as_slice).collect();
        let lines = lay_out(&slices, 1, true, cell_columns);
        Self { cells, lines }
    }
}

/// The cells of each row of `spans` under `analysis`.
fn read_rows(analysis: &EncodingAnalysis, bytes: &[u8], spans: &[ByteSpan]) -> Vec<Vec<Cell>> {
    let window = match (spans.first(), spans.last()) {
        (Some(first), Some(last)) => ByteSpan::new(first.start, last.end),
        _ => return Vec::new(),
    };
    // Rows past what a snapshot analysed wait for the next.
    let window = ByteSpan::new(
        window.start,
        window.end.min(analysis.byte_len()).max(window.start),
    );
    let trace = analysis.decode_window(bytes, window);
    split_rows(trace.items(), spans)
}

/// Puts each of `edits` (in byte order, not overlapping) in place of the
/// cells that start in its bytes, in the rows of `spans`: its cells go
/// where its first byte is.
fn put_edits(rows: &mut [Vec<Cell>], spans: &[ByteSpan], edits: &[Edit]) {
    // The edit whose bytes hold `byte_offset`, if one does.
    let inside = |byte_offset: u64| {
        let after = edits.partition_point(|edit| edit.span.start <= byte_offset);
        after
            .checked_sub(1)
            .and_then(|index| edits.get(index))
            .is_some_and(|edit| byte_offset < edit.span.end)
    };
    for (cells, row) in rows.iter_mut().zip(spans) {
        let first = edits.partition_point(|edit| edit.span.start < row.start);
        let starting = edits
            .get(first..)
            .unwrap_or_default()
            .iter()
            .take_while(|edit| edit.span.start < row.end);
        let touched = starting.clone().next().is_some()
            || cells.first().is_some_and(|cell| inside(cell.span.start));
        if !touched {
            continue;
        }
        let mut starting = starting.peekable();
        let old = std::mem::take(cells);
        for cell in old {
            while let Some(edit) = starting.next_if(|edit| edit.span.start <= cell.span.start) {
                cells.extend(cells_of(edit));
            }
            if !inside(cell.span.start) {
                cells.push(cell);
            }
        }
        for edit in starting {
            cells.extend(cells_of(edit));
        }
    }
}

/// An edit's cells.
fn cells_of(edit: &Edit) -> Vec<Cell> {
    let lost: Vec<usize> = edit
        .replacement
        .lost
        .iter()
        .map(|mark| mark.utf8_range.start)
        .collect();
    edited_cells(&edit.replacement.text, &lost, edit.span)
}

/// What the rows are read from, for one frame.
struct Source<'a> {
    bytes: &'a [u8],
    lines: &'a LineIndex,
    analyses: Vec<Arc<EncodingAnalysis>>,
    wrap: u32,
    align: bool,
    /// The present pane (its index among them) whose text shows
    /// reinterpretations, and the reinterpretations.
    edits: Option<(usize, &'a [Edit])>,
}

/// Where things go, for one frame.
#[derive(Clone, Copy, PartialEq)]
struct Geometry {
    shown: Shown,
    /// A column's width.
    column: f32,
    /// A line's height.
    line: f32,
    /// Where the text starts, from the view's left edge (stacked: after
    /// the tags).
    text_left: f32,
    /// Side by side: a pane's column width, with the gap after it.
    pane_width: f32,
    /// How many present panes there are.
    readings: usize,
}

impl Geometry {
    /// The geometry of a view `width` wide with `readings` present panes;
    /// and the width of a line of text.
    fn new(ui: &Ui, env: &ReadingsEnv<'_>, width: f32, readings: usize) -> (Self, f32) {
        let font = TextStyle::Monospace.resolve(ui.style());
        let column = ui.fonts_mut(|f| f.glyph_width(&font, '0')).max(1.0);
        let line = ui.text_style_height(&TextStyle::Monospace) + 2.0;
        let view_width = width - crate::ui::rows::BAR_WIDTH;
        let readings = readings.max(1);
        match env.shown {
            Shown::Stacked => {
                let text_left = TAG_COLUMNS * column + 4.0;
                let geometry = Geometry {
                    shown: Shown::Stacked,
                    column,
                    line,
                    text_left,
                    pane_width: view_width,
                    readings,
                };
                (geometry, view_width - text_left - 4.0)
            }
            Shown::SideBySide => {
                let pane_width = (view_width + COLUMN_GAP) / lines_f32(env.panes.len().max(1));
                let geometry = Geometry {
                    shown: Shown::SideBySide,
                    column,
                    line,
                    text_left: 2.0,
                    pane_width,
                    readings,
                };
                (geometry, pane_width - COLUMN_GAP - 2.0)
            }
        }
    }

    /// How many lines `layout` takes.
    fn lines(&self, layout: &RowLayout) -> usize {
        match self.shown {
            Shown::SideBySide => layout.lines.len(),
            Shown::Stacked => layout
                .lines
                .iter()
                .map(|line| {
                    if line.same || self.readings <= 1 {
                        1
                    } else {
                        self.readings
                    }
                })
                .sum(),
        }
    }

    fn height(&self, layout: &RowLayout) -> f32 {
        lines_f32(self.lines(layout)) * self.line + ROW_GAP
    }

    /// The left edge of reading `reading`'s text, from the view's left.
    fn reading_left(&self, reading: usize) -> f32 {
        match self.shown {
            Shown::Stacked => self.text_left,
            Shown::SideBySide => lines_f32(reading) * self.pane_width + self.text_left,
        }
    }
}

/// A count of lines or panes as `f32` (a few hundred at most).
fn lines_f32(n: usize) -> f32 {
    f32::from(u16::try_from(n).unwrap_or(u16::MAX))
}

/// A column number as `f32`.
fn column_f32(n: u32) -> f32 {
    f32::from(u16::try_from(n).unwrap_or(u16::MAX))
}

/// Where one reading of one line was drawn, for clicks.
#[derive(Clone, Copy)]
struct Hit {
    rect: Rect,
    row: u64,
    line: usize,
    /// Index among the present panes.
    reading: usize,
}

#[derive(Clone, PartialEq)]
struct PaintKey {
    cache: CacheKey,
    geometry: Geometry,
    selection: Option<ByteSpan>,
    palette: usize,
    focused: usize,
    font_size: u32,
    pixels_per_point: u32,
}

/// The readings' view state: the rows laid out, their shapes, the drag's
/// anchor, the scroll bar's marks.
#[derive(Default)]
pub struct Readings {
    cache: RowCache,
    painted: Option<(PaintKey, HashMap<u64, Arc<RowShapes>>)>,
    anchor: Option<ByteSpan>,
    marks: Option<((usize, usize), Marks)>,
    /// Each pane's text node, for focusing a pane from the keyboard.
    pane_ids: Vec<Id>,
    /// The rows' widget (it scrolls every pane), once drawn.
    rows_id: Option<Id>,
    /// The arrangement drawn last.
    shown: Option<Shown>,
}

/// A row's shapes, from its top-left corner, and where each reading of
/// each line is.
struct RowShapes {
    shapes: Vec<Shape>,
    hits: Vec<Hit>,
    /// Each present pane's rectangle on the row, for its text node.
    reading_rects: Vec<Rect>,
}

/// A row drawn this frame: its number, layout, shapes and top-left corner.
type DrawnRow = (u64, Arc<RowLayout>, Arc<RowShapes>, Pos2);

/// What the readings need from the rest of the app, for one frame.
pub struct ReadingsEnv<'a> {
    /// The panes.
    pub panes: &'a [Pane],
    /// The rows.
    pub lines: &'a Arc<LineIndex>,
    /// The focused pane.
    pub focused: usize,
    /// The arrangement drawn.
    pub shown: Shown,
    /// Whether the same bytes are lined up in every reading.
    pub align: bool,
    /// The reinterpretations by hand a pane shows, if any.
    pub edits: Option<PaneEdits<'a>>,
}

/// The reinterpretations by hand one pane shows in place of what their
/// bytes decode to.
#[derive(Clone, Copy, Debug)]
pub struct PaneEdits<'a> {
    /// The pane.
    pub pane: usize,
    /// The reinterpretations, in byte order, not overlapping.
    pub edits: &'a [Edit],
    /// A number that changes whenever they do
    /// ([`ManualEdits::revision`](crate::model::repair::manual::ManualEdits::revision)).
    pub revision: u64,
}

impl Readings {
    /// Forgets every row laid out (the panes or the rows changed).
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// The id of pane `pane`'s text node, once drawn: focusing it makes it
    /// the focused pane.
    pub fn pane_id(&self, pane: usize) -> Option<Id> {
        self.pane_ids.get(pane).copied()
    }

    /// The id of the rows' widget, once drawn: with the keyboard focus
    /// there, the arrows move in the focused pane.
    pub fn rows_id(&self) -> Option<Id> {
        self.rows_id
    }

    /// The arrangement drawn last, once the rows were drawn.
    pub fn shown(&self) -> Option<Shown> {
        self.shown
    }

    /// The columns of text `width` pixels hold in the monospace font.
    pub fn columns_in(ui: &Ui, width: f32) -> u32 {
        let font = TextStyle::Monospace.resolve(ui.style());
        let column = ui.fonts_mut(|f| f.glyph_width(&font, '0')).max(1.0);
        let columns = (width / column).floor().max(0.0);
        // At most a few thousand columns: exact in f32.
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "not negative, and far below u32::MAX"
        )]
        let columns = columns as u32;
        columns
    }

    /// Shows every pane's reading of the rows in all the space `ui` has,
    /// scrolled to `position`. Returns the response of the rows' view.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        ctx: &PanelCtx<'_>,
        env: &ReadingsEnv<'_>,
        position: &mut RowPosition,
        commands: &mut Vec<Command>,
    ) -> Response {
        self.shown = Some(env.shown);
        let present: Present = (0..env.panes.len())
            .filter(|&p| env.panes[p].analysis.is_some())
            .collect();
        let analyses: Vec<Arc<EncodingAnalysis>> = present
            .iter()
            .filter_map(|&p| env.panes[p].analysis.clone())
            .collect();
        let font = TextStyle::Monospace.resolve(ui.style());
        let area = ui.available_rect_before_wrap();
        let (geometry, text_width) = Geometry::new(ui, env, area.width(), present.len());
        let wrap = Self::columns_in(ui, text_width).max(8);
        let key = CacheKey {
            generation: ctx.generation,
            lines: Arc::as_ptr(env.lines) as usize,
            analyses: analyses.iter().map(|a| Arc::as_ptr(a) as usize).collect(),
            wrap,
            align: env.align,
            edits: env.edits.map(|edits| (edits.pane, edits.revision)),
        };
        self.cache.keep_for(&key);
        let source = Source {
            bytes: ctx.bytes,
            lines: env.lines,
            analyses,
            wrap,
            align: env.align,
            edits: env.edits.and_then(|edits| {
                let reading = present.iter().position(|&p| p == edits.pane)?;
                Some((reading, edits.edits))
            }),
        };
        let marks = self.marks(env);
        let view = RowsView {
            id: ui.scope_id().with("readings"),
            row_count: env.lines.row_count(),
            content_width: 0.0,
            marks: Some(&marks),
            palette: ctx.palette,
        };
        let cache = &mut self.cache;
        let (mut child, visible) = view.show(ui, position, &mut |row| {
            geometry.height(&cache.get(row, &source))
        });
        let paint_key = PaintKey {
            cache: key,
            geometry,
            selection: ctx.selection.map(|s| s.span),
            palette: std::ptr::from_ref(ctx.palette) as usize,
            focused: env.focused,
            font_size: font.size.to_bits(),
            pixels_per_point: ui.ctx().pixels_per_point().to_bits(),
        };
        if self.painted.as_ref().is_none_or(|(k, _)| *k != paint_key) {
            self.painted = Some((paint_key, HashMap::new()));
        }
        let (hits, rows_drawn) = self.paint_rows(
            &child, &visible, &source, &geometry, &present, env, ctx, &font,
        );
        if env.shown == Shown::SideBySide {
            for pane in 1..env.panes.len() {
                let x = visible.viewport.left() + lines_f32(pane) * geometry.pane_width
                    - COLUMN_GAP / 2.0;
                child.painter().vline(
                    x,
                    visible.viewport.y_range(),
                    Stroke::new(1.0, ctx.palette.scroll_track),
                );
            }
        }
        self.focus_ui(
            &mut child,
            ui,
            env,
            &present,
            &visible,
            &rows_drawn,
            ctx,
            commands,
        );
        // A click selects the character under it in that pane; a drag
        // extends the selection from where it began.
        if let Some((span, reading)) = self.clicked(&visible, &hits) {
            let pane = if present.len() <= 1 {
                present.first().copied().unwrap_or(0)
            } else {
                present.get(reading).copied().unwrap_or(0)
            };
            commands.push(Command::FocusPane(pane));
            if let Some(id) = self.pane_id(pane) {
                ui.memory_mut(|m| m.request_focus(id));
            }
            commands.push(Command::Select(Selection {
                span,
                origin: SelectionOrigin::Pane(pane),
            }));
        }
        let response = self.edit_tooltip(visible.response, &hits, &present, env);
        crate::ui::selection_menu(&response, env.focused, commands);
        response
    }

    /// What a reinterpreted character under the pointer replaced, and how,
    /// in a tooltip.
    fn edit_tooltip(
        &self,
        response: Response,
        hits: &[Hit],
        present: &Present,
        env: &ReadingsEnv<'_>,
    ) -> Response {
        let Some(edits) = env.edits else {
            return response;
        };
        let Some(pointer) = response.hover_pos() else {
            return response;
        };
        let Some((cell, reading)) = self.cell_under(pointer, hits) else {
            return response;
        };
        if !cell.edited || present.get(reading) != Some(&edits.pane) {
            return response;
        }
        let Some(edit) = edit_at(edits.edits, cell.span) else {
            return response;
        };
        response.on_hover_ui_at_pointer(|ui| {
            for line in edit_lines(edit) {
                ui.label(line);
            }
            ui.label("Edit ▸ Undo (Ctrl+Z) takes it back; File ▸ Save as… writes it.");
        })
    }

    /// The cell under `pointer`, and the reading (among the present panes)
    /// it is in.
    fn cell_under(&self, pointer: Pos2, hits: &[Hit]) -> Option<(&Cell, usize)> {
        let hit = hits.iter().find(|hit| hit.rect.contains(pointer))?;
        let layout = self.cache.rows.get(&hit.row)?;
        let line = layout.lines.get(hit.line)?;
        let placed = line.readings.get(hit.reading)?;
        let column_width = self
            .painted
            .as_ref()
            .map_or(8.0, |(key, _)| key.geometry.column);
        let x = (pointer.x - hit.rect.left()) / column_width;
        let cell = placed
            .iter()
            .filter(|p| p.columns > 0)
            .find(|p| x < column_f32(p.column + p.columns))
            .or_else(|| placed.iter().rev().find(|p| p.columns > 0))?;
        let cell = layout.cells.get(hit.reading)?.get(cell.cell)?;
        Some((cell, hit.reading))
    }

    /// Paints the rows in view (from the cache of shapes, or laid out
    /// anew); returns where each reading of each line is, and the rows.
    #[expect(clippy::too_many_arguments, reason = "one frame's rows")]
    fn paint_rows(
        &mut self,
        child: &Ui,
        visible: &VisibleRows,
        source: &Source<'_>,
        geometry: &Geometry,
        present: &Present,
        env: &ReadingsEnv<'_>,
        ctx: &PanelCtx<'_>,
        font: &FontId,
    ) -> (Vec<Hit>, Vec<DrawnRow>) {
        let mut hits = Vec::new();
        let mut rows_drawn: Vec<DrawnRow> = Vec::new();
        for row in visible.rows.clone() {
            let layout = self.cache.get(row, source);
            let Some((_, painted)) = &mut self.painted else {
                break;
            };
            if painted.len() > CACHE_ROWS {
                painted.clear();
            }
            let shapes = Arc::clone(painted.entry(row).or_insert_with(|| {
                Arc::new(paint_row(
                    child,
                    row,
                    &layout,
                    geometry,
                    present,
                    env.focused,
                    ctx,
                    font,
                ))
            }));
            let origin = Pos2::new(visible.viewport.left(), visible.row_top(row));
            child.painter().extend(
                shapes
                    .shapes
                    .iter()
                    .cloned()
                    .map(|shape| shape_at(shape, origin)),
            );
            hits.extend(shapes.hits.iter().map(|hit| Hit {
                rect: hit.rect.translate(origin.to_vec2()),
                ..*hit
            }));
            rows_drawn.push((row, layout, shapes, origin));
        }
        (hits, rows_drawn)
    }

    /// The panes' text nodes, and the focus: a pane whose node Tab
    /// reached becomes the focused pane; a ring shows the keyboard is here.
    #[expect(clippy::too_many_arguments, reason = "one frame's rows")]
    fn focus_ui(
        &mut self,
        child: &mut Ui,
        ui: &Ui,
        env: &ReadingsEnv<'_>,
        present: &Present,
        visible: &VisibleRows,
        rows_drawn: &[DrawnRow],
        ctx: &PanelCtx<'_>,
        commands: &mut Vec<Command>,
    ) {
        if let Some(pane) = self.text_nodes(child, env, present, visible, rows_drawn) {
            // Tab reached the pane: it is the focused pane.
            commands.push(Command::FocusPane(pane));
        }
        self.rows_id = Some(visible.response.id);
        if visible.response.has_focus()
            || self
                .pane_ids
                .iter()
                .any(|&id| ui.memory(|m| m.has_focus(id)))
        {
            // The keyboard is in the panes: the arrows move the selection.
            ui.painter().rect_stroke(
                visible.viewport.shrink(1.0),
                2.0,
                Stroke::new(2.0, ctx.palette.focus_stroke),
                StrokeKind::Inside,
            );
        }
    }

    /// The text nodes: one per pane, holding one per visible row. Returns
    /// the pane whose node gained the keyboard focus.
    fn text_nodes(
        &mut self,
        ui: &mut Ui,
        env: &ReadingsEnv<'_>,
        present: &Present,
        visible: &VisibleRows,
        rows: &[DrawnRow],
    ) -> Option<usize> {
        self.pane_ids.clear();
        let mut gained = None;
        for (index, pane) in env.panes.iter().enumerate() {
            let id = ui.scope_id().with(("pane text", index));
            self.pane_ids.push(id);
            let reading = match &pane.parts {
                Some(parts) => crate::ui::decode_view::mixed_name(parts),
                None => pane
                    .analysis
                    .as_ref()
                    .map_or(pane.encoding, |a| a.encoding)
                    .name()
                    .to_owned(),
            };
            let mut name = format!("Decoded text, pane {}: {reading}", index + 1);
            let edits = env.edits.filter(|edits| edits.pane == index);
            if let Some(edits) = edits {
                name = format!("{name}, with {}", edits_in_words(edits.edits));
            }
            let response = ui.interact(visible.viewport, id, Sense::focusable_noninteractive());
            response.widget_info(|| WidgetInfo::labeled(Role::Document, true, &name));
            if response.gained_focus() {
                gained = Some(index);
            }
            let Some(reading) = present.iter().position(|&p| p == index) else {
                continue;
            };
            let rows_ui = ui.new_child(
                UiBuilder::new()
                    .id_salt(("pane rows", index))
                    .max_rect(visible.viewport)
                    .accessibility_parent(id),
            );
            for (row, layout, shapes, origin) in rows {
                let Some(rect) = shapes.reading_rects.get(reading) else {
                    continue;
                };
                let cells = layout.cells.get(reading).map_or(&[][..], Vec::as_slice);
                let text = row_text(cells);
                let errors = cells
                    .iter()
                    .filter(|c| matches!(c.kind, CellKind::Malformed(_)))
                    .count();
                let rect = rect.translate(origin.to_vec2());
                let node = rows_ui.interact(
                    rect.intersect(visible.viewport),
                    rows_ui.scope_id().with(("row", *row)),
                    Sense::hover(),
                );
                node.widget_info(|| WidgetInfo::labeled(Role::Label, true, &text));
                let mut description = match errors {
                    0 => format!("row {}", row + 1),
                    1 => format!("row {}, 1 error", row + 1),
                    n => format!("row {}, {n} errors", row + 1),
                };
                if let Some(edits) = edits {
                    for edit in row_edits(cells, edits.edits) {
                        description.push_str("; ");
                        description.push_str(&edit_lines(edit).join(" "));
                    }
                }
                ui.ctx()
                    .accesskit_node_builder(node.id, |node| node.set_description(description));
            }
        }
        gained
    }

    /// The bytes the pointer selected in this frame, and in which reading.
    fn clicked(&mut self, visible: &VisibleRows, hits: &[Hit]) -> Option<(ByteSpan, usize)> {
        let response = &visible.response;
        let pointer = response.interact_pointer_pos()?;
        if !(response.clicked() || response.dragged()) {
            return None;
        }
        let (cell, reading) = self.cell_under(pointer, hits)?;
        let span = cell.span;
        if response.drag_started() || response.clicked() || self.anchor.is_none() {
            self.anchor = Some(span);
        }
        let span = match self.anchor {
            Some(from) if response.dragged() => {
                ByteSpan::new(from.start.min(span.start), from.end.max(span.end))
            }
            _ => span,
        };
        Some((span, reading))
    }

    /// The focused pane's errors for the scroll bar, by row.
    fn marks(&mut self, env: &ReadingsEnv<'_>) -> Marks {
        let Some(analysis) = env.panes.get(env.focused).and_then(|p| p.analysis.as_ref()) else {
            return Marks::default();
        };
        let key = (
            Arc::as_ptr(analysis) as usize,
            Arc::as_ptr(env.lines) as usize,
        );
        if self.marks.as_ref().is_none_or(|(k, _)| *k != key) {
            let marks = error_marks(env.lines, &analysis.error_offsets, MARK_BINS);
            self.marks = Some((key, marks));
        }
        self.marks
            .as_ref()
            .map(|(_, marks)| marks.clone())
            .unwrap_or_default()
    }
}

/// The height of one line of a pane's text, outside a frame (for tests
/// that point at a line).
pub fn line_height_in(ctx: &egui::Context) -> f32 {
    let style = ctx.global_style();
    let font = TextStyle::Monospace.resolve(&style);
    ctx.fonts_mut(|f| f.row_height(&font)) + 2.0
}

/// `shape`, moved from a row's corner to `origin`.
fn shape_at(mut shape: Shape, origin: Pos2) -> Shape {
    shape.translate(origin.to_vec2());
    shape
}

/// A row's text for a screen reader: the characters as decoded, a U+FFFD
/// for each error, controls by their abbreviations, the line's end left
/// out.
pub fn row_text(cells: &[Cell]) -> String {
    let mut text = String::new();
    for cell in cells {
        match cell.kind {
            CellKind::Text
            | CellKind::Malformed(_)
            | CellKind::LiteralReplacement
            | CellKind::Lost => {
                text.push_str(&cell.text);
            }
            CellKind::Control if cell.text == "LF" || cell.text == "CR" => {}
            CellKind::Control if cell.text == "HT" => text.push('\t'),
            CellKind::Control => {
                text.push(' ');
                text.push_str(&cell.text);
                text.push(' ');
            }
            CellKind::Skip(_) => {}
        }
    }
    text
}

/// The reinterpretations whose text `cells` (a row of the pane that shows
/// them) hold, in order.
fn row_edits<'a>(cells: &[Cell], edits: &'a [Edit]) -> Vec<&'a Edit> {
    let mut found: Vec<&Edit> = Vec::new();
    for cell in cells.iter().filter(|cell| cell.edited) {
        if found.last().is_some_and(|edit| edit.span == cell.span) {
            continue;
        }
        if let Some(edit) = edit_at(edits, cell.span) {
            found.push(edit);
        }
    }
    found
}

/// The edit of `edits` (in byte order, not overlapping) whose bytes are
/// `span`: found by search, as a repair applied to the pane may put tens
/// of thousands there.
fn edit_at(edits: &[Edit], span: ByteSpan) -> Option<&Edit> {
    let at = edits
        .binary_search_by_key(&span.start, |edit| edit.span.start)
        .ok()?;
    edits.get(at).filter(|edit| edit.span == span)
}

/// What `edits` are, counted by who made them: "2 repairs and 1
/// reinterpretation by hand".
pub fn edits_in_words(edits: &[Edit]) -> String {
    let by_hand = edits
        .iter()
        .filter(|edit| edit.origin == EditOrigin::ByHand)
        .count();
    let repairs = edits.len() - by_hand;
    let by_hand = (by_hand > 0).then(|| {
        format!(
            "{} by hand",
            plural(by_hand, "reinterpretation", "reinterpretations")
        )
    });
    let repairs = (repairs > 0).then(|| plural(repairs, "repair", "repairs"));
    match (repairs, by_hand) {
        (Some(repairs), Some(by_hand)) => format!("{repairs} and {by_hand}"),
        (Some(one), None) | (None, Some(one)) => one,
        (None, None) => "no reinterpretation".to_owned(),
    }
}

/// A reinterpretation in words, for its tooltip and for screen readers:
/// what it put, what was there, how, and what it lost.
pub fn edit_lines(edit: &Edit) -> Vec<String> {
    let made = match edit.origin {
        EditOrigin::ByHand => "Reinterpreted by hand",
        EditOrigin::Repair => "Repaired",
    };
    let mut lines = vec![
        format!(
            "{made}: \u{201C}{}\u{201D}, was \u{201C}{}\u{201D}.",
            short(&edit.replacement.text),
            short(&edit.original)
        ),
        format!("Undone: {}.", edit.how),
    ];
    let lost = edit.replacement.lost.len();
    if lost > 0 {
        lines.push(format!(
            "{} lost (U+FFFD).",
            plural(lost, "character", "characters")
        ));
    }
    lines
}

/// The first 60 characters of `text`, controls as spaces.
fn short(text: &str) -> String {
    let mut shown: String = text
        .chars()
        .take(60)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().count() > 60 {
        shown.push('…');
    }
    shown
}

/// Draws one row from its top-left corner.
#[expect(clippy::too_many_arguments, reason = "one row of one frame")]
fn paint_row(
    ui: &Ui,
    row: u64,
    layout: &RowLayout,
    geometry: &Geometry,
    present: &Present,
    focused: usize,
    ctx: &PanelCtx<'_>,
    font: &FontId,
) -> RowShapes {
    let palette = ctx.palette;
    let mut shapes = Vec::new();
    let mut hits = Vec::new();
    let mut reading_rects = vec![Rect::NOTHING; present.len()];
    let text_colour = ui.visuals().strong_text_color();
    let mut y = ROW_GAP / 2.0;
    ui.fonts_mut(|fonts| {
        for (line_index, line) in layout.lines.iter().enumerate() {
            let sub_rows: Vec<usize> = match geometry.shown {
                Shown::Stacked if !line.same && present.len() > 1 => (0..present.len()).collect(),
                // Shown once (stacked), or each in its column.
                _ => vec![usize::MAX],
            };
            for reading_row in sub_rows {
                let readings: Vec<usize> = if reading_row == usize::MAX {
                    match geometry.shown {
                        Shown::Stacked => vec![0],
                        Shown::SideBySide => (0..present.len()).collect(),
                    }
                } else {
                    vec![reading_row]
                };
                if geometry.shown == Shown::Stacked {
                    let tag = Rect::from_min_size(
                        Pos2::new(2.0, y + 1.0),
                        vec2(geometry.text_left - 6.0, geometry.line - 2.0),
                    );
                    paint_tag(
                        &mut shapes,
                        fonts,
                        tag,
                        reading_row,
                        present,
                        focused,
                        palette,
                        font,
                    );
                }
                for reading in readings {
                    let left = geometry.reading_left(reading);
                    let placed = line.readings.get(reading).map_or(&[][..], Vec::as_slice);
                    let cells = layout.cells.get(reading).map_or(&[][..], Vec::as_slice);
                    paint_cells(
                        &mut shapes,
                        fonts,
                        placed,
                        cells,
                        Pos2::new(left, y),
                        geometry,
                        ctx,
                        text_colour,
                        font,
                    );
                    let width = match geometry.shown {
                        Shown::Stacked => geometry.pane_width - left,
                        Shown::SideBySide => geometry.pane_width - COLUMN_GAP,
                    };
                    let rect = Rect::from_min_size(Pos2::new(left, y), vec2(width, geometry.line));
                    let targets: Vec<usize> =
                        if reading_row == usize::MAX && geometry.shown == Shown::Stacked {
                            // The line shown once stands for every reading.
                            (0..present.len()).collect()
                        } else {
                            vec![reading]
                        };
                    for target in targets {
                        if let Some(r) = reading_rects.get_mut(target) {
                            *r = r.union(rect);
                        }
                    }
                    hits.push(Hit {
                        rect,
                        row,
                        line: line_index,
                        reading: if reading_row == usize::MAX && geometry.shown == Shown::Stacked {
                            present.iter().position(|&p| p == focused).unwrap_or(0)
                        } else {
                            reading
                        },
                    });
                }
                y += geometry.line;
            }
        }
    });
    // A faint rule under the row, so that the lines of a stacked row read
    // as one.
    if geometry.shown == Shown::Stacked {
        let bottom = y + ROW_GAP / 2.0 - 0.5;
        shapes.push(Shape::hline(
            0.0..=geometry.pane_width,
            bottom,
            Stroke::new(1.0, palette.scroll_track),
        ));
    }
    RowShapes {
        shapes,
        hits,
        reading_rects,
    }
}

/// A stacked line's tag: its pane's number on the pane's colour, or, for a
/// line every pane reads the same, a stripe of each pane's colour.
#[expect(clippy::too_many_arguments, reason = "one tag")]
fn paint_tag(
    shapes: &mut Vec<Shape>,
    fonts: &mut egui::epaint::text::FontsView<'_>,
    rect: Rect,
    reading: usize,
    present: &Present,
    focused: usize,
    palette: &Palette,
    font: &FontId,
) {
    if reading == usize::MAX {
        let stripe = rect.height() / lines_f32(present.len().max(1));
        for (index, &pane) in present.iter().enumerate() {
            let top = rect.top() + lines_f32(index) * stripe;
            let band = Rect::from_min_max(
                Pos2::new(rect.right() - 5.0, top),
                Pos2::new(rect.right() - 1.0, top + stripe),
            );
            shapes.push(Shape::rect_filled(band, 0.0, pane_colour(palette, pane)));
        }
        return;
    }
    let Some(&pane) = present.get(reading) else {
        return;
    };
    shapes.push(Shape::rect_filled(rect, 3.0, pane_colour(palette, pane)));
    if pane == focused {
        shapes.push(Shape::rect_stroke(
            rect.expand(1.0),
            3.0,
            Stroke::new(1.5, palette.focus_stroke),
            StrokeKind::Outside,
        ));
    }
    let galley = fonts.layout_no_wrap(
        format!("{}", pane + 1),
        FontId::monospace(font.size * 0.85),
        palette.pane_tag_fg,
    );
    let at = rect.center() - galley.size() / 2.0;
    shapes.push(Shape::galley(at, galley, palette.pane_tag_fg));
}

/// Pane `pane`'s colour.
pub fn pane_colour(palette: &Palette, pane: usize) -> Color32 {
    palette.panes[pane % palette.panes.len()]
}

/// Draws one reading of one line: backgrounds, then text, runs of narrow
/// characters as one piece of text.
#[expect(clippy::too_many_arguments, reason = "one reading of one line")]
fn paint_cells(
    shapes: &mut Vec<Shape>,
    fonts: &mut egui::epaint::text::FontsView<'_>,
    placed: &[Placed],
    cells: &[Cell],
    origin: Pos2,
    geometry: &Geometry,
    ctx: &PanelCtx<'_>,
    text_colour: Color32,
    font: &FontId,
) {
    let palette = ctx.palette;
    let column = geometry.column;
    let x_of = |col: u32| origin.x + column_f32(col) * column;
    let small = FontId::monospace(font.size * SMALL);
    paint_backgrounds(shapes, placed, cells, origin, geometry, ctx);
    // Then the text: a run of narrow characters the monospace font has
    // (Latin, Greek, Cyrillic) as one galley, each other cell alone.
    let mut run = String::new();
    let mut run_start: Option<u32> = None;
    let mut next_column = 0;
    let flush = |shapes: &mut Vec<Shape>,
                 fonts: &mut egui::epaint::text::FontsView<'_>,
                 run: &mut String,
                 run_start: &mut Option<u32>| {
        if let Some(start) = run_start.take() {
            let galley = fonts.layout_no_wrap(std::mem::take(run), font.clone(), text_colour);
            shapes.push(Shape::galley(
                Pos2::new(x_of(start), origin.y + 1.0),
                galley,
                text_colour,
            ));
        }
    };
    let mut previous_end = 0;
    for p in placed {
        let Some(cell) = cells.get(p.cell) else {
            continue;
        };
        let narrow = cell.kind == CellKind::Text
            && p.columns == 1
            && cell.text.chars().all(|c| u32::from(c) < 0x0530);
        if narrow && run_start.is_some() && p.column == next_column {
            run.push_str(&cell.text);
            next_column += 1;
            previous_end = p.column + 1;
            continue;
        }
        flush(shapes, fonts, &mut run, &mut run_start);
        if narrow {
            run_start = Some(p.column);
            run.push_str(&cell.text);
            next_column = p.column + 1;
            previous_end = p.column + 1;
            continue;
        }
        let (colour, font_id) = match cell.kind {
            CellKind::Text | CellKind::LiteralReplacement => (text_colour, font),
            CellKind::Malformed(_) | CellKind::Lost => (palette.malformed_fg, font),
            CellKind::Control => (palette.control_fg, &small),
            CellKind::Skip(_) => (palette.skip_fg, &small),
        };
        if cell.kind == CellKind::Control && is_hex_pair(&cell.text) {
            // The two digits one over the other.
            let tiny = FontId::monospace(font.size * 0.5);
            let height = geometry.line / 2.0;
            for (index, digit) in cell.text.chars().enumerate() {
                let galley = fonts.layout_no_wrap(digit.to_string(), tiny.clone(), colour);
                let x = x_of(p.column) + ((column - galley.size().x) / 2.0).max(0.0);
                let y = origin.y + lines_f32(index) * height + (height - galley.size().y) / 2.0;
                shapes.push(Shape::galley(Pos2::new(x, y), galley, colour));
            }
            previous_end = previous_end.max(p.column + p.columns);
            continue;
        }
        let galley = fonts.layout_no_wrap(cell.text.clone(), font_id.clone(), colour);
        let (x, y) = if p.columns == 0 {
            // A combining mark, on the character before it.
            (x_of(previous_end), origin.y + 1.0)
        } else if font_id.size < font.size {
            // Small type in the middle of its columns.
            let width = column_f32(p.columns) * column;
            (
                x_of(p.column) + ((width - galley.size().x) / 2.0).max(0.0),
                origin.y + ((geometry.line - galley.size().y) / 2.0).max(0.0),
            )
        } else {
            (x_of(p.column), origin.y + 1.0)
        };
        shapes.push(Shape::galley(Pos2::new(x, y), galley, colour));
        previous_end = previous_end.max(p.column + p.columns);
    }
    flush(shapes, fonts, &mut run, &mut run_start);
}

/// The cells' backgrounds: the selection, errors, controls, and what reads
/// differently from the first pane.
fn paint_backgrounds(
    shapes: &mut Vec<Shape>,
    placed: &[Placed],
    cells: &[Cell],
    origin: Pos2,
    geometry: &Geometry,
    ctx: &PanelCtx<'_>,
) {
    let palette = ctx.palette;
    let column = geometry.column;
    let x_of = |col: u32| origin.x + column_f32(col) * column;
    for p in placed {
        let Some(cell) = cells.get(p.cell) else {
            continue;
        };
        let selected = ctx.selection.is_some_and(|s| overlaps(s.span, cell.span));
        let background = if selected {
            Some(palette.selection_bg)
        } else {
            match cell.kind {
                CellKind::Malformed(_) | CellKind::Lost => Some(palette.malformed_bg),
                _ if cell.edited => Some(palette.repair_after_bg),
                CellKind::LiteralReplacement => Some(palette.replacement_literal_bg),
                CellKind::Control => Some(palette.control_bg),
                _ if p.differs => Some(palette.differs_bg),
                _ => None,
            }
        };
        if let Some(background) = background
            && p.columns > 0
        {
            let rect = Rect::from_min_size(
                Pos2::new(x_of(p.column), origin.y),
                vec2(column_f32(p.columns) * column, geometry.line),
            );
            shapes.push(Shape::rect_filled(rect, 0.0, background));
        }
        if cell.edited && p.columns > 0 {
            // Underlined too, selected or not, so that the mark does not
            // rest on colour alone.
            let bottom = origin.y + geometry.line - 1.0;
            shapes.push(Shape::hline(
                x_of(p.column)..=x_of(p.column + p.columns),
                bottom,
                Stroke::new(1.5, palette.ok_fg),
            ));
        }
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

#[cfg(test)]
mod tests {
    use mojiscope_core::{DecodeErrorKind, TraceItem, TraceKind};

    use super::*;
    use crate::ui::cells::cell_of;

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

    #[test]
    fn edits_take_the_place_of_the_cells_that_start_in_their_bytes() {
        use crate::model::repair::manual::{LossKind, LostMark, Reinterpreted};

        // Two rows, "cafÃ©\n" (bytes 0..8) and "Ã  x" (8..13), in UTF-8:
        // "cafÃ©" put back as "café", and "Ã " (a lost no-break space)
        // as one lost character.
        let bytes = "cafÃ©\nÃ  x".as_bytes();
        let analysis = crate::model::analysis::analyse(
            bytes,
            mojiscope_core::UTF_8,
            mojiscope_core::BomHandling::None,
            &std::sync::atomic::AtomicBool::new(false),
            &mut |_| {},
        )
        .unwrap();
        let spans = [ByteSpan::new(0, 8), ByteSpan::new(8, 13)];
        let edit = |start, end, text: &str, lost: Vec<LostMark>| Edit {
            span: ByteSpan::new(start, end),
            original: String::new(),
            replacement: Reinterpreted {
                text: text.to_owned(),
                lost,
            },
            how: "UTF-8 read as windows-1252".to_owned(),
            origin: EditOrigin::ByHand,
        };
        let lost = LostMark {
            utf8_range: 0..3,
            kind: LossKind::Undecodable,
        };
        let edits = [
            edit(3, 7, "é", Vec::new()),
            edit(8, 11, "\u{FFFD}", vec![lost]),
        ];
        let mut rows = read_rows(&analysis, bytes, &spans);
        put_edits(&mut rows, &spans, &edits);
        let text: Vec<String> = rows.iter().map(|row| row_text(row)).collect();
        assert_eq!(text, ["café", "\u{FFFD} x"]);
        // The edited cells are all of the bytes they replaced; the others
        // are still their own.
        let é = &rows[0][3];
        assert!(é.edited);
        assert_eq!(é.span, ByteSpan::new(3, 7));
        assert!(!rows[0][2].edited);
        assert_eq!(rows[0][2].span, ByteSpan::new(2, 3));
        assert_eq!(rows[1][0].kind, CellKind::Lost);
        assert_eq!(rows[1][0].span, ByteSpan::new(8, 11));
        assert_eq!(rows[1][1].span, ByteSpan::new(11, 12));
        // An edit over a row's end shows where it starts; the next row
        // keeps only what is past it.
        let across = [edit(3, 10, "é\n", Vec::new())];
        let mut rows = read_rows(&analysis, bytes, &spans);
        put_edits(&mut rows, &spans, &across);
        let text: Vec<String> = rows.iter().map(|row| row_text(row)).collect();
        assert_eq!(text, ["café", "  x"]);
        assert_eq!(row_edits(&rows[0], &across).len(), 1);
        assert!(row_edits(&rows[1], &across).is_empty());
    }

    #[test]
    fn cells_take_their_columns() {
        let cell = |kind| {
            cell_of(TraceItem {
                span: ByteSpan::new(0, 1),
                kind,
            })
        };
        assert_eq!(cell_columns(&cell(TraceKind::Scalar('a'))), 1);
        assert_eq!(cell_columns(&cell(TraceKind::Scalar('日'))), 2);
        assert_eq!(cell_columns(&cell(TraceKind::Scalar('\u{301}'))), 0);
        // "LF" in small type: two letters at 0.7 fit in two columns.
        assert_eq!(cell_columns(&cell(TraceKind::Scalar('\n'))), 2);
        assert_eq!(cell_columns(&cell(TraceKind::Scalar('\u{A0}'))), 3);
        // A C1 control, as the byte it stands for: one column.
        assert_eq!(cell_columns(&cell(TraceKind::Scalar('\u{81}'))), 1);
        assert_eq!(
            cell_columns(&cell(TraceKind::Error(DecodeErrorKind::InvalidByte))),
            1
        );
    }

    #[test]
    fn a_row_reads_as_its_text() {
        let cells: Vec<Cell> = [
            TraceKind::Scalar('a'),
            TraceKind::Scalar('\t'),
            TraceKind::Error(DecodeErrorKind::InvalidByte),
            TraceKind::Scalar('\u{A0}'),
            TraceKind::Scalar('é'),
            TraceKind::Scalar('\n'),
        ]
        .into_iter()
        .map(|kind| {
            cell_of(TraceItem {
                span: ByteSpan::new(0, 1),
                kind,
            })
        })
        .collect();
        assert_eq!(row_text(&cells), "a\t\u{FFFD} NBSP é");
    }
}
