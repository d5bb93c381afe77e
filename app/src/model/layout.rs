//! How the window shares its width, as rules on columns of text (no
//! pixels, no egui): how the decode panes are arranged, how many bytes a
//! hex row shows, and the zoom steps. The views measure the columns they
//! have and ask these rules.
//!
//! The panes show whole lines. Side by side, each pane gets a share of the
//! width; with three or four panes on a laptop's screen that share is a
//! few dozen columns, and every line wraps many times. Stacked, each line
//! is shown once per pane, one reading under another, all at the full
//! width, so the readings of a line sit on top of each other, where their
//! differences show; lines every pane reads the same are shown once. The
//! automatic arrangement is side by side when each pane still gets
//! [`SIDE_BY_SIDE_COLUMNS`], stacked otherwise.

use serde::{Deserialize, Serialize};

/// The fewest columns of text each pane keeps side by side, in the
/// automatic arrangement: a line of prose or code mostly fits.
pub const SIDE_BY_SIDE_COLUMNS: u32 = 72;

/// How the decode panes are arranged (View ▸ Arrangement).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Arrangement {
    /// Side by side when each pane gets [`SIDE_BY_SIDE_COLUMNS`], else
    /// stacked.
    #[default]
    Automatic,
    /// Each line once per pane, one reading under another.
    Stacked,
    /// One column per pane.
    SideBySide,
}

/// The arrangement drawn, once [`Arrangement::Automatic`] is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shown {
    /// See [`Arrangement::Stacked`].
    Stacked,
    /// See [`Arrangement::SideBySide`].
    SideBySide,
}

impl Arrangement {
    /// Every choice, in the order the View menu lists them.
    pub const ALL: [Arrangement; 3] = [
        Arrangement::Automatic,
        Arrangement::Stacked,
        Arrangement::SideBySide,
    ];

    /// The arrangement drawn for `panes` panes in `columns` columns of
    /// text. One pane is the same either way: it is drawn side by side.
    pub fn shown(self, panes: usize, columns: u32) -> Shown {
        match self {
            _ if panes <= 1 => Shown::SideBySide,
            Arrangement::Stacked => Shown::Stacked,
            Arrangement::SideBySide => Shown::SideBySide,
            Arrangement::Automatic => {
                let each = columns / u32::try_from(panes).unwrap_or(u32::MAX);
                if each >= SIDE_BY_SIDE_COLUMNS {
                    Shown::SideBySide
                } else {
                    Shown::Stacked
                }
            }
        }
    }

    /// The View menu's words for it.
    pub fn name(self) -> &'static str {
        match self {
            Arrangement::Automatic => "Automatic",
            Arrangement::Stacked => "Stacked",
            Arrangement::SideBySide => "Side by side",
        }
    }
}

/// The hex row widths offered.
pub const HEX_WIDTHS: [usize; 3] = [8, 16, 32];

/// How many columns of text a hex row of `width` bytes takes: the offset
/// (`digits` wide), two spaces, three columns a byte and one between the
/// halves, a space, and one column a byte for the glyphs.
pub fn hex_row_columns(width: usize, digits: usize) -> usize {
    digits + 2 + width * 3 + 1 + 1 + width
}

/// The narrowest hex row, for a window too narrow (or zoomed too far) for
/// any of [`HEX_WIDTHS`] beside the panes.
pub const NARROWEST_HEX_WIDTH: usize = 4;

/// The most bytes a hex row shows in `columns` columns (of
/// [`HEX_WIDTHS`], or [`NARROWEST_HEX_WIDTH`] if none fits).
pub fn hex_width_to_fit(columns: usize, digits: usize) -> usize {
    HEX_WIDTHS
        .iter()
        .rev()
        .copied()
        .find(|&width| hex_row_columns(width, digits) <= columns)
        .unwrap_or(NARROWEST_HEX_WIDTH)
}

/// The share of the window's width the hex view may take when it shows
/// as many bytes as fit: the panes get the rest.
pub const HEX_SHARE: f32 = 0.42;

/// The zoom steps of View ▸ Zoom in and Zoom out.
pub const ZOOM_STEPS: [f32; 9] = [0.67, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0];

/// The next zoom step from `zoom`, in (`true`) or out.
pub fn zoom_step(zoom: f32, inwards: bool) -> f32 {
    let next = if inwards {
        ZOOM_STEPS.iter().copied().find(|&step| step > zoom + 0.01)
    } else {
        ZOOM_STEPS
            .iter()
            .rev()
            .copied()
            .find(|&step| step < zoom - 0.01)
    };
    next.unwrap_or(zoom)
}

/// A zoom factor as people say it: "125%".
pub fn zoom_text(zoom: f32) -> String {
    format!("{:.0}%", zoom * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn automatic_is_side_by_side_only_when_each_pane_keeps_a_line() {
        assert_eq!(Arrangement::Automatic.shown(2, 150), Shown::SideBySide);
        assert_eq!(Arrangement::Automatic.shown(2, 140), Shown::Stacked);
        assert_eq!(Arrangement::Automatic.shown(3, 216), Shown::SideBySide);
        assert_eq!(Arrangement::Automatic.shown(4, 216), Shown::Stacked);
        assert_eq!(Arrangement::Stacked.shown(2, 1000), Shown::Stacked);
        assert_eq!(Arrangement::SideBySide.shown(4, 10), Shown::SideBySide);
        // One pane has nothing to stack.
        assert_eq!(Arrangement::Stacked.shown(1, 10), Shown::SideBySide);
    }

    #[test]
    fn the_hex_view_shows_as_many_bytes_as_fit() {
        assert_eq!(hex_row_columns(16, 8), 8 + 2 + 48 + 1 + 1 + 16);
        assert_eq!(hex_width_to_fit(200, 8), 32);
        assert_eq!(hex_width_to_fit(hex_row_columns(32, 8) - 1, 8), 16);
        assert_eq!(hex_width_to_fit(hex_row_columns(16, 8), 8), 16);
        assert_eq!(hex_width_to_fit(44, 8), 8);
        assert_eq!(hex_width_to_fit(43, 8), 4);
        assert_eq!(hex_width_to_fit(0, 8), 4);
    }

    #[test]
    fn zoom_moves_step_by_step_and_stops_at_the_ends() {
        assert!((zoom_step(1.0, true) - 1.1).abs() < 1e-6);
        assert!((zoom_step(1.0, false) - 0.9).abs() < 1e-6);
        assert!((zoom_step(2.0, true) - 2.0).abs() < 1e-6);
        assert!((zoom_step(0.67, false) - 0.67).abs() < 1e-6);
        // From between two steps, to the next one each way.
        assert!((zoom_step(1.2, true) - 1.25).abs() < 1e-6);
        assert!((zoom_step(1.2, false) - 1.1).abs() < 1e-6);
        assert_eq!(zoom_text(1.25), "125%");
    }
}
