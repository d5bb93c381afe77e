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
const BAR_WIDTH: f32 = 14.0;
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
    /// `0..=max_top` rows.
    fn scroll_by(&mut self, pixels: f32, row_step: f32, max_top: u64) {
        let offset = f64::from(self.offset) + f64::from(pixels);
        let rows = (offset / f64::from(row_step)).floor();
        let offset = offset - rows * f64::from(row_step);
        if rows < 0.0 {
            let back = f64_to_u64(-rows);
            if back > self.top_row {
                self.top_row = 0;
                self.offset = 0.0;
                return;
            }
            self.top_row -= back;
        } else {
            self.top_row = self.top_row.saturating_add(f64_to_u64(rows));
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
    /// top row.
    fn fraction(&self, max_top: u64, row_step: f32) -> f64 {
        if max_top == 0 {
            return 0.0;
        }
        (u64_to_f64(self.top_row) + f64::from(self.offset / row_step)) / u64_to_f64(max_top)
    }

    fn set_fraction(&mut self, fraction: f64, max_top: u64) {
        let row = (fraction.clamp(0.0, 1.0) * u64_to_f64(max_top)).round();
        self.top_row = f64_to_u64(row).min(max_top);
        self.offset = 0.0;
    }
}

/// What [`rows_ui`] hands the caller to paint: the rows in view and where.
pub struct VisibleRows {
    /// The rows in view, in order.
    pub rows: Range<u64>,
    /// The top-left corner of the first of them (above the view when it is
    /// partly scrolled off), already moved left by the horizontal offset.
    pub origin: Pos2,
    /// The distance from one row to the next.
    pub row_step: f32,
    /// The view's rectangle (without the scroll bars).
    pub viewport: Rect,
    /// Clicks and drags on the view.
    pub response: Response,
}

impl VisibleRows {
    /// The row under `pos`, if one is there.
    pub fn row_at(&self, pos: Pos2) -> Option<u64> {
        let below = (pos.y - self.origin.y) / self.row_step;
        if below < 0.0 {
            return None;
        }
        let row = self.rows.start + f64_to_u64(f64::from(below.floor()));
        (row < self.rows.end).then_some(row)
    }

    /// The top of `row` (one of [`rows`](Self::rows)).
    pub fn row_top(&self, row: u64) -> f32 {
        self.origin.y + u64_to_f32(row - self.rows.start) * self.row_step
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

    let rows_in_view = f64_to_u64(f64::from((viewport.height() / row_step).floor())).max(1);
    let max_top = row_count.saturating_sub(rows_in_view);
    let max_x = (content_width - viewport.width()).max(0.0);

    if let Some(row) = position.reveal.take() {
        let bottom = position.top_row + rows_in_view;
        if row < position.top_row || row + 1 >= bottom {
            position.top_row = row.saturating_sub(REVEAL_MARGIN);
            position.offset = 0.0;
        }
    }

    let response = ui.interact(viewport, id.with("rows"), Sense::click_and_drag());
    if ui.rect_contains_pointer(outer) {
        let (delta, keys) = ui.input(|input| {
            let keys = [Key::PageDown, Key::PageUp, Key::ArrowLeft, Key::ArrowRight]
                .map(|key| input.key_pressed(key));
            (input.smooth_scroll_delta, keys)
        });
        let page = viewport.height() - row_step;
        let mut dy = -delta.y;
        let mut dx = -delta.x;
        if keys[0] {
            dy += page;
        }
        if keys[1] {
            dy -= page;
        }
        if keys[2] {
            dx -= ARROW_STEP;
        }
        if keys[3] {
            dx += ARROW_STEP;
        }
        if dy != 0.0 {
            position.scroll_by(dy, row_step, max_top);
            ui.input_mut(|input| input.smooth_scroll_delta.y = 0.0);
        }
        if dx != 0.0 {
            position.x += dx;
            ui.input_mut(|input| input.smooth_scroll_delta.x = 0.0);
        }
    }
    position.clamp(max_top);
    position.x = position.x.clamp(0.0, max_x);

    vertical_bar_ui(ui, id, bar, position, max_top, row_step, marks, palette);
    if wide {
        let track = Rect::from_min_max(
            Pos2::new(viewport.left(), viewport.bottom()),
            Pos2::new(viewport.right(), outer.bottom()),
        );
        horizontal_bar_ui(ui, id, track, position, content_width, palette);
    }

    let visible = u64_from_f32_ceil((viewport.height() + position.offset) / row_step) + 1;
    let end = position.top_row.saturating_add(visible).min(row_count);
    let rows = position.top_row.min(end)..end;
    let origin = Pos2::new(
        viewport.left() - position.x,
        viewport.top() - position.offset,
    );
    let visible = VisibleRows {
        rows,
        origin,
        row_step,
        viewport,
        response,
    };
    let mut child = ui.new_child(UiBuilder::new().max_rect(viewport));
    child.set_clip_rect(viewport.intersect(ui.clip_rect()));
    paint(&mut child, &visible)
}

#[expect(clippy::too_many_arguments, reason = "the geometry of one view")]
fn vertical_bar_ui(
    ui: &Ui,
    id: Id,
    bar: Rect,
    position: &mut RowPosition,
    max_top: u64,
    row_step: f32,
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
    let rows_total = u64_to_f64(max_top) + f64::from(track.height() / row_step);
    let thumb_height = ((f64::from(track.height()) * f64::from(track.height() / row_step)
        / rows_total) as f32)
        .clamp(MIN_THUMB.min(track.height()), track.height());
    let travel = track.height() - thumb_height;
    let fraction = position.fraction(max_top, row_step);
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

/// The smallest whole number at least `value`, as a `u64`.
fn u64_from_f32_ceil(value: f32) -> u64 {
    f64_to_u64(f64::from(value).ceil())
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
        let mut position = RowPosition::default();
        position.scroll_by(45.0, 20.0, 1_000);
        assert_eq!((position.top_row, position.offset), (2, 5.0));
        position.scroll_by(-10.0, 20.0, 1_000);
        assert_eq!((position.top_row, position.offset), (1, 15.0));
        position.scroll_by(-1_000.0, 20.0, 1_000);
        assert_eq!((position.top_row, position.offset), (0, 0.0));
        position.scroll_by(1e9, 20.0, 1_000);
        assert_eq!((position.top_row, position.offset), (1_000, 0.0));
    }

    #[test]
    fn a_billion_rows_are_reached_row_by_row() {
        // Past 2^24 rows an f32 pixel offset could no longer tell them apart.
        let max_top = 1_000_000_000;
        let mut position = RowPosition::default();
        position.set_fraction(1.0, max_top);
        assert_eq!(position.top_row, max_top);
        position.scroll_by(-20.0, 20.0, max_top);
        assert_eq!(position.top_row, max_top - 1);
        position.scroll_by(-20.0, 20.0, max_top);
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
                row_step: 20.0,
                viewport: Rect::from_min_size(Pos2::ZERO, vec2(100.0, 190.0)),
                response,
            };
            assert_eq!(visible.row_at(Pos2::new(1.0, -6.0)), None);
            assert_eq!(visible.row_at(Pos2::new(1.0, 0.0)), Some(10));
            assert_eq!(visible.row_at(Pos2::new(1.0, 15.0)), Some(11));
            assert_eq!(visible.row_at(Pos2::new(1.0, 500.0)), None);
            assert!((visible.row_top(12) - 35.0).abs() < f32::EPSILON);
        });
        output.textures_delta.clear();
    }
}
