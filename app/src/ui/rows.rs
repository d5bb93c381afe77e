//! Virtual scrolling over any number of rows, with a scroll bar that marks
//! where the errors are.
//!
//! egui's `ScrollArea` keeps its offset in `f32` pixels: past about 2^24
//! pixels (a million rows) neighbouring rows share an offset, so the end of a
//! 1 GiB file could not be reached row by row. Here the position is a row
//! number (`u64`) plus the pixels of that row scrolled off, and the scroll
//! bar maps its thumb to a row with `f64` arithmetic, which is exact for any
//! row count a file can have.

use std::ops::Range;

use eframe::egui::{Id, Key, Pos2, Rect, Response, Sense, Ui, UiBuilder, vec2};

use crate::theme::Palette;

/// Width of the vertical scroll bar, with its error strip.
pub const BAR_WIDTH: f32 = 14.0;
/// Height of the horizontal scroll bar.
const HBAR_HEIGHT: f32 = 10.0;
/// The smallest thumb, so that a thumb over a billion rows can be grabbed.
const MIN_THUMB: f32 = 18.0;
/// Rows kept above a row that [`RowPosition::reveal`] brings into view.
const REVEAL_MARGIN: u64 = 3;
/// Horizontal pixels one arrow key press scrolls.
const ARROW_STEP: f32 = 40.0;

/// Where a list of rows is scrolled to: the row at the top of the view, how
/// many pixels of it are scrolled off, and the horizontal offset.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RowPosition {
    /// The first row shown (partly, if `offset` is not zero).
    pub top_row: u64,
    /// Pixels of `top_row` above the view, in `0..row_step`.
    pub offset: f32,
    /// Pixels scrolled to the right.
    pub x: f32,
    /// A row to bring into view at the next frame (see [`RowPosition::reveal`]).
    reveal: Option<u64>,
}

impl RowPosition {
    /// Brings `row` into view at the next frame, a few rows below the top,
    /// unless it is already in view.
    pub fn reveal(&mut self, row: u64) {
        self.reveal = Some(row);
    }

    /// Scrolls to the top.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// Moves by `pixels` (positive: towards the end), kept within
    /// `0..=max_top` rows; `height` is each row's height.
    fn scroll_by(&mut self, pixels: f32, height: &mut dyn FnMut(u64) -> f32, max_top: u64) {
        let mut offset = f64::from(self.offset) + f64::from(pixels);
        let mut steps = 0;
        while offset > 0.0 && self.top_row < max_top {
            let step = f64::from(height(self.top_row).max(1.0));
            if offset < step {
                break;
            }
            steps += 1;
            if steps > MAX_WALK {
                // A jump of many rows: the rest at this row's height.
                let rows = f64_to_u64((offset / step).floor());
                self.top_row = self.top_row.saturating_add(rows).min(max_top);
                offset -= u64_to_f64(rows) * step;
                break;
            }
            offset -= step;
            self.top_row += 1;
        }
        while offset < 0.0 {
            if self.top_row == 0 {
                offset = 0.0;
                break;
            }
            steps += 1;
            let step = f64::from(height(self.top_row - 1).max(1.0));
            if steps > MAX_WALK {
                let rows = f64_to_u64((-offset / step).ceil());
                self.top_row = self.top_row.saturating_sub(rows);
                offset += u64_to_f64(rows) * step;
                continue;
            }
            self.top_row -= 1;
            offset += step;
        }
        self.offset = offset as f32;
        self.clamp(max_top);
    }

    fn clamp(&mut self, max_top: u64) {
        if self.top_row >= max_top {
            self.top_row = max_top;
            self.offset = 0.0;
        }
        self.offset = self.offset.max(0.0);
    }

    /// The position as a fraction of the way from the first to the last
    /// top row (`step`: the top row's height).
    fn fraction(&self, max_top: u64, step: f32) -> f64 {
        if max_top == 0 {
            return 0.0;
        }
        (u64_to_f64(self.top_row) + f64::from(self.offset / step.max(1.0))) / u64_to_f64(max_top)
    }

    fn set_fraction(&mut self, fraction: f64, max_top: u64) {
        let row = (fraction.clamp(0.0, 1.0) * u64_to_f64(max_top)).round();
        self.top_row = f64_to_u64(row).min(max_top);
        self.offset = 0.0;
    }
}

/// The most rows walked one by one when scrolling or measuring: past it a
/// jump goes on at the last row's height.
const MAX_WALK: u32 = 4096;

/// What [`rows_ui`] hands the caller to paint: the rows in view and where.
pub struct VisibleRows {
    /// The rows in view, in order.
    pub rows: Range<u64>,
    /// The top-left corner of the first of them (above the view when it is
    /// partly scrolled off), already moved left by the horizontal offset.
    pub origin: Pos2,
    /// The top of each row in view, then the bottom of the last.
    pub edges: Vec<f32>,
    /// The view's rectangle (without the scroll bars).
    pub viewport: Rect,
    /// Clicks and drags on the view.
    pub response: Response,
}

impl VisibleRows {
    /// The row under `pos`, if one is there.
    pub fn row_at(&self, pos: Pos2) -> Option<u64> {
        let below = self.edges.partition_point(|&edge| edge <= pos.y);
        let index = below.checked_sub(1)?;
        (index + 1 < self.edges.len()).then(|| self.rows.start + index as u64)
    }

    /// The top of `row` (one of [`rows`](Self::rows)).
    pub fn row_top(&self, row: u64) -> f32 {
        usize::try_from(row.saturating_sub(self.rows.start))
            .ok()
            .and_then(|index| self.edges.get(index))
            .copied()
            .unwrap_or(self.origin.y)
    }

    /// The height of `row` (one of [`rows`](Self::rows)).
    pub fn row_height(&self, row: u64) -> f32 {
        let index = usize::try_from(row.saturating_sub(self.rows.start)).unwrap_or(usize::MAX);
        match (
            self.edges.get(index),
            self.edges.get(index.saturating_add(1)),
        ) {
            (Some(top), Some(bottom)) => bottom - top,
            _ => 0.0,
        }
    }
}

/// The marks of a scroll bar's error strip: fractions of the way down, each
/// the start of a band that is `1 / bins` high.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Marks {
    /// Which bands hold an error, top to bottom.
    pub bins: Vec<bool>,
}

impl Marks {
    /// Marks from positions in `0..total` (byte offsets, rows), gathered
    /// into `bins` bands.
    pub fn from_positions(
        positions: impl IntoIterator<Item = u64>,
        total: u64,
        bins: usize,
    ) -> Marks {
        let mut marks = vec![false; bins];
        if total == 0 || bins == 0 {
            return Marks { bins: marks };
        }
        for position in positions {
            let bin = u128::from(position.min(total - 1)) * bins as u128 / u128::from(total);
            if let Some(mark) = usize::try_from(bin).ok().and_then(|bin| marks.get_mut(bin)) {
                *mark = true;
            }
        }
        Marks { bins: marks }
    }
}

/// Shows `row_count` rows, `row_step` apart, in all the space `ui` has, with
/// a vertical scroll bar (and its error `marks`) and, when `content_width` is
/// wider than the view, a horizontal one. `paint` lays out the rows in view.
/// Returns what `paint` returned.
#[expect(clippy::too_many_arguments, reason = "the geometry of one view")]
pub fn rows_ui<R>(
    ui: &mut Ui,
    id: Id,
    position: &mut RowPosition,
    row_count: u64,
    row_step: f32,
    content_width: f32,
    marks: Option<&Marks>,
    palette: &Palette,
    paint: impl FnOnce(&mut Ui, &VisibleRows) -> R,
) -> R {
    let view = RowsView {
        id,
        row_count,
        content_width,
        marks,
        palette,
    };
    let (mut child, visible) = view.show(ui, position, &mut |_| row_step);
    paint(&mut child, &visible)
}

/// A view of rows of any heights, virtually scrolled (see [`rows_ui`] for
/// rows of one height).
pub struct RowsView<'a> {
    /// The view's id.
    pub id: Id,
    /// How many rows there are.
    pub row_count: u64,
    /// How wide the widest row is (a horizontal scroll bar shows when it is
    /// wider than the view).
    pub content_width: f32,
    /// The scroll bar's error strip.
    pub marks: Option<&'a Marks>,
    /// The colours.
    pub palette: &'a Palette,
}

impl RowsView<'_> {
    /// Lays out the view in all the space `ui` has, scrolled to `position`
    /// and moved by this frame's input; `height` tells each row's height
    /// (it is asked only about rows near the view, and the last ones).
    /// Returns a child `Ui` clipped to the view, to paint the rows in, and
    /// which rows are in view where.
    pub fn show(
        &self,
        ui: &mut Ui,
        position: &mut RowPosition,
        height: &mut dyn FnMut(u64) -> f32,
    ) -> (Ui, VisibleRows) {
        let Self {
            id,
            row_count,
            content_width,
            marks,
            palette,
        } = *self;
        let outer = ui.available_rect_before_wrap();
        let wide = content_width > outer.width() - BAR_WIDTH;
        let hbar = if wide { HBAR_HEIGHT } else { 0.0 };
        let viewport = Rect::from_min_max(
            outer.min,
            Pos2::new(outer.right() - BAR_WIDTH, outer.bottom() - hbar),
        );
        let bar = Rect::from_min_max(
            Pos2::new(viewport.right(), outer.top()),
            Pos2::new(outer.right(), viewport.bottom()),
        );
        ui.allocate_rect(outer, Sense::hover());

        let max_top = max_top(row_count, viewport.height(), height);
        let max_x = (content_width - viewport.width()).max(0.0);

        if let Some(row) = position.reveal.take() {
            let in_view = fully_in_view(position, row_count, viewport.height(), height);
            if row < position.top_row || row >= in_view.end {
                position.top_row = row.saturating_sub(REVEAL_MARGIN).min(max_top);
                position.offset = 0.0;
            }
        }

        let response = ui.interact(viewport, id.with("rows"), Sense::click_and_drag());
        if ui.rect_contains_pointer(outer) {
            let page = viewport.height() - height(position.top_row);
            scroll_input(ui, position, page, wide, &mut |pixels, position| {
                position.scroll_by(pixels, height, max_top);
            });
        }
        position.clamp(max_top);
        position.x = position.x.clamp(0.0, max_x);

        // The rows in view, from the top one down.
        let origin = Pos2::new(
            viewport.left() - position.x,
            viewport.top() - position.offset,
        );
        let mut edges = vec![origin.y];
        let mut row = position.top_row.min(row_count);
        let mut y = origin.y;
        while row < row_count && y < viewport.bottom() {
            y += height(row).max(1.0);
            edges.push(y);
            row += 1;
        }
        let rows = position.top_row.min(row)..row;
        let in_view = u64_to_f64(rows.end - rows.start);
        let top_height = height(position.top_row);
        vertical_bar_ui(
            ui,
            id,
            bar,
            position,
            max_top,
            (top_height, in_view),
            marks,
            palette,
        );
        if wide {
            let track = Rect::from_min_max(
                Pos2::new(viewport.left(), viewport.bottom()),
                Pos2::new(viewport.right(), outer.bottom()),
            );
            horizontal_bar_ui(ui, id, track, position, content_width, palette);
        }

        let visible = VisibleRows {
            rows,
            origin,
            edges,
            viewport,
            response,
        };
        let mut child = ui.new_child(UiBuilder::new().max_rect(viewport));
        child.set_clip_rect(viewport.intersect(ui.clip_rect()));
        (child, visible)
    }
}

/// Moves `position` by the wheel, Page Up and Page Down (`page` pixels),
/// and, when the rows are `wide`, Left and Right; `scroll` moves it down
/// by some pixels.
fn scroll_input(
    ui: &Ui,
    position: &mut RowPosition,
    page: f32,
    wide: bool,
    scroll: &mut dyn FnMut(f32, &mut RowPosition),
) {
    let (delta, keys) = ui.input(|input| {
        let keys = [Key::PageDown, Key::PageUp, Key::ArrowLeft, Key::ArrowRight]
            .map(|key| input.key_pressed(key));
        (input.smooth_scroll_delta, keys)
    });
    let mut dy = -delta.y;
    let mut dx = -delta.x;
    if keys[0] {
        dy += page;
    }
    if keys[1] {
        dy -= page;
    }
    if wide && keys[2] {
        dx -= ARROW_STEP;
    }
    if wide && keys[3] {
        dx += ARROW_STEP;
    }
    if dy != 0.0 {
        scroll(dy, position);
        ui.input_mut(|input| input.smooth_scroll_delta.y = 0.0);
    }
    if dx != 0.0 {
        position.x += dx;
        ui.input_mut(|input| input.smooth_scroll_delta.x = 0.0);
    }
}

/// The last row that may be at the top: the one from which the last rows
/// fill a view `view_height` high.
fn max_top(row_count: u64, view_height: f32, height: &mut dyn FnMut(u64) -> f32) -> u64 {
    let Some(mut top) = row_count.checked_sub(1) else {
        return 0;
    };
    let mut filled = height(top).max(1.0);
    let mut steps = 0;
    while top > 0 && steps < MAX_WALK {
        let above = height(top - 1).max(1.0);
        if filled + above > view_height {
            break;
        }
        filled += above;
        top -= 1;
        steps += 1;
    }
    top
}

/// The rows wholly in a view `view_height` high scrolled to `position`.
fn fully_in_view(
    position: &RowPosition,
    row_count: u64,
    view_height: f32,
    height: &mut dyn FnMut(u64) -> f32,
) -> Range<u64> {
    let mut row = position.top_row;
    let mut bottom = -position.offset;
    let mut steps = 0;
    while row < row_count && steps < MAX_WALK {
        bottom += height(row).max(1.0);
        if bottom > view_height {
            break;
        }
        row += 1;
        steps += 1;
    }
    position.top_row..row
}

#[expect(clippy::too_many_arguments, reason = "the geometry of one view")]
fn vertical_bar_ui(
    ui: &Ui,
    id: Id,
    bar: Rect,
    position: &mut RowPosition,
    max_top: u64,
    (top_height, rows_in_view): (f32, f64),
    marks: Option<&Marks>,
    palette: &Palette,
) {
    let painter = ui.painter_at(bar);
    painter.rect_filled(bar, 0.0, palette.scroll_track);
    let track = bar.shrink2(vec2(4.0, 2.0));
    if let Some(marks) = marks
        && !marks.bins.is_empty()
    {
        let bins = u64_to_f32(marks.bins.len() as u64);
        let band = track.height() / bins;
        for (bin, _) in (0u64..).zip(&marks.bins).filter(|&(_, &m)| m) {
            let top = track.top() + u64_to_f32(bin) * band;
            let rect = Rect::from_min_max(
                Pos2::new(bar.left(), top),
                Pos2::new(bar.right(), top + band.max(2.0)),
            );
            painter.rect_filled(rect, 0.0, palette.malformed_fg);
        }
    }
    if max_top == 0 {
        return;
    }
    let rows_total = u64_to_f64(max_top) + rows_in_view.max(1.0);
    let thumb_height = ((f64::from(track.height()) * rows_in_view.max(1.0) / rows_total) as f32)
        .clamp(MIN_THUMB.min(track.height()), track.height());
    let travel = track.height() - thumb_height;
    let fraction = position.fraction(max_top, top_height);
    let thumb_top = track.top() + travel * fraction as f32;
    let thumb = Rect::from_min_size(
        Pos2::new(track.left(), thumb_top),
        vec2(track.width(), thumb_height),
    );
    let response = ui.interact(bar, id.with("vertical bar"), Sense::click_and_drag());
    if let Some(pointer) = response.interact_pointer_pos()
        && (response.dragged() || response.clicked())
        && travel > 0.0
    {
        // Grab the thumb by its middle, wherever the pointer is.
        let fraction = (pointer.y - track.top() - thumb_height / 2.0) / travel;
        position.set_fraction(f64::from(fraction), max_top);
    }
    let colour = if response.hovered() || response.dragged() {
        palette.scroll_thumb_active
    } else {
        palette.scroll_thumb
    };
    painter.rect_filled(thumb.shrink2(vec2(1.5, 0.0)), 3.0, colour);
}

fn horizontal_bar_ui(
    ui: &Ui,
    id: Id,
    track: Rect,
    position: &mut RowPosition,
    content_width: f32,
    palette: &Palette,
) {
    let painter = ui.painter_at(track);
    painter.rect_filled(track, 0.0, palette.scroll_track);
    let visible = track.width() / content_width;
    let thumb_width = (track.width() * visible).clamp(MIN_THUMB.min(track.width()), track.width());
    let travel = track.width() - thumb_width;
    let max_x = content_width - track.width();
    let response = ui.interact(track, id.with("horizontal bar"), Sense::click_and_drag());
    if let Some(pointer) = response.interact_pointer_pos()
        && (response.dragged() || response.clicked())
        && travel > 0.0
    {
        let fraction = ((pointer.x - track.left() - thumb_width / 2.0) / travel).clamp(0.0, 1.0);
        position.x = fraction * max_x;
    }
    let fraction = if max_x > 0.0 { position.x / max_x } else { 0.0 };
    let thumb = Rect::from_min_size(
        Pos2::new(track.left() + travel * fraction, track.top() + 2.0),
        vec2(thumb_width, track.height() - 4.0),
    );
    let colour = if response.hovered() || response.dragged() {
        palette.scroll_thumb_active
    } else {
        palette.scroll_thumb
    };
    painter.rect_filled(thumb, 3.0, colour);
}

/// `value` (finite, not negative) as a `u64`, saturating.
fn f64_to_u64(value: f64) -> u64 {
    if value.is_nan() || value <= 0.0 {
        0
    } else if value >= 18_446_744_073_709_551_615.0 {
        u64::MAX
    } else {
        #[expect(
            clippy::cast_sign_loss,
            clippy::cast_possible_truncation,
            reason = "checked to lie in 0..u64::MAX just above"
        )]
        let whole = value as u64;
        whole
    }
}

/// The whole number at or below `value` (not negative) as an index,
/// saturating.
pub fn floor_index(value: f32) -> usize {
    usize::try_from(f64_to_u64(f64::from(value).floor())).unwrap_or(usize::MAX)
}

/// A row count as `f64`: exact up to 2^53 rows, more than any file has.
#[expect(
    clippy::cast_precision_loss,
    reason = "exact below 2^53, and a file has fewer rows"
)]
fn u64_to_f64(value: u64) -> f64 {
    value as f64
}

/// A small count (the rows in view, the bands of an error strip) as `f32`.
#[expect(
    clippy::cast_precision_loss,
    reason = "only the rows of one view or a strip's bands, a few hundred at most"
)]
fn u64_to_f32(value: u64) -> f32 {
    value as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrolling_moves_by_whole_rows_and_pixels() {
        let step = &mut |_| 20.0;
        let mut position = RowPosition::default();
        position.scroll_by(45.0, step, 1_000);
        assert_eq!((position.top_row, position.offset), (2, 5.0));
        position.scroll_by(-10.0, step, 1_000);
        assert_eq!((position.top_row, position.offset), (1, 15.0));
        position.scroll_by(-1_000.0, step, 1_000);
        assert_eq!((position.top_row, position.offset), (0, 0.0));
        position.scroll_by(1e9, step, 1_000);
        assert_eq!((position.top_row, position.offset), (1_000, 0.0));
    }

    #[test]
    fn rows_of_different_heights_scroll_row_by_row() {
        // Even rows 10 high, odd rows 30.
        let height = &mut |row: u64| if row.is_multiple_of(2) { 10.0 } else { 30.0 };
        let mut position = RowPosition::default();
        position.scroll_by(15.0, height, 100);
        assert_eq!((position.top_row, position.offset), (1, 5.0));
        position.scroll_by(30.0, height, 100);
        assert_eq!((position.top_row, position.offset), (2, 5.0));
        position.scroll_by(-20.0, height, 100);
        assert_eq!((position.top_row, position.offset), (1, 15.0));
        // Rows 98 and 99 (10 + 30) fill a view 45 high; row 97 (30 more)
        // fits once the view is 70 high.
        assert_eq!(max_top(100, 45.0, height), 98);
        assert_eq!(max_top(100, 70.0, height), 97);
        assert_eq!(max_top(0, 50.0, height), 0);
        let in_view = fully_in_view(&RowPosition::default(), 100, 45.0, height);
        assert_eq!(in_view, 0..2);
    }

    #[test]
    fn a_billion_rows_are_reached_row_by_row() {
        // Past 2^24 rows an f32 pixel offset could no longer tell them apart.
        let max_top = 1_000_000_000;
        let step = &mut |_| 20.0;
        let mut position = RowPosition::default();
        position.set_fraction(1.0, max_top);
        assert_eq!(position.top_row, max_top);
        position.scroll_by(-20.0, step, max_top);
        assert_eq!(position.top_row, max_top - 1);
        position.scroll_by(-20.0, step, max_top);
        assert_eq!(position.top_row, max_top - 2);
        position.set_fraction(0.5, max_top);
        assert_eq!(position.top_row, 500_000_000);
        assert!((position.fraction(max_top, 20.0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn marks_gather_positions_into_bands() {
        let marks = Marks::from_positions([0, 5, 99], 100, 10);
        assert_eq!(
            marks.bins,
            [
                true, false, false, false, false, false, false, false, false, true
            ]
        );
        let none = Marks::from_positions([], 100, 4);
        assert_eq!(none.bins, [false; 4]);
        // Fewer positions than bands: each lands in one band.
        let tiny = Marks::from_positions([1, 7], 2, 4);
        assert_eq!(tiny.bins, [false, false, true, false]);
    }

    #[test]
    fn rows_under_the_pointer() {
        let ctx = eframe::egui::Context::default();
        let mut output = ctx.run_ui(eframe::egui::RawInput::default(), |ui| {
            let response = ui.allocate_response(vec2(10.0, 10.0), Sense::hover());
            let visible = VisibleRows {
                rows: 10..20,
                origin: Pos2::new(0.0, -5.0),
                edges: (0..=10u8).map(|i| f32::from(i) * 20.0 - 5.0).collect(),
                viewport: Rect::from_min_size(Pos2::ZERO, vec2(100.0, 190.0)),
                response,
            };
            assert_eq!(visible.row_at(Pos2::new(1.0, -6.0)), None);
            assert_eq!(visible.row_at(Pos2::new(1.0, 0.0)), Some(10));
            assert_eq!(visible.row_at(Pos2::new(1.0, 15.0)), Some(11));
            assert_eq!(visible.row_at(Pos2::new(1.0, 500.0)), None);
            assert!((visible.row_top(12) - 35.0).abs() < f32::EPSILON);
            assert!((visible.row_height(12) - 20.0).abs() < f32::EPSILON);
        });
        output.textures_delta.clear();
    }
}
