//! The app's colours, in a light and a dark variant: the only place colours
//! are written down (clippy disallows literal colours elsewhere). Legends are
//! drawn from these same tables, so what a legend says is what the views paint.

use eframe::egui::{Color32, Theme};

/// The semantic colours of one variant (light or dark).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// Text colour of a NUL byte (the hex view's byte classes, which
    /// `ui::cells` tells apart).
    pub nul_fg: Color32,
    /// Text colour of a printable ASCII byte.
    pub ascii_printable_fg: Color32,
    /// Text colour of an ASCII whitespace byte.
    pub ascii_whitespace_fg: Color32,
    /// Text colour of an ASCII control byte.
    pub ascii_control_fg: Color32,
    /// Text colour of a byte above 0x7F.
    pub non_ascii_fg: Color32,
    /// Background of bytes (hex view) and text (decode panes) of a decode error.
    pub malformed_bg: Color32,
    /// Text colour of the U+FFFD that an error produced.
    pub malformed_fg: Color32,
    /// Background of a U+FFFD that was in the input itself (decoded without error).
    pub replacement_literal_bg: Color32,
    /// Background of a character the chosen output encoding cannot encode,
    /// and of the `&#N;` an encoder's html mode writes for one.
    pub unmappable_bg: Color32,
    /// Text colour of a good outcome (a lossless round trip).
    pub ok_fg: Color32,
    /// Background of a good outcome.
    pub ok_bg: Color32,
    /// Text colour of control characters drawn visibly.
    pub control_fg: Color32,
    /// Background of control characters drawn visibly.
    pub control_bg: Color32,
    /// Text colour of bytes that produced nothing (BOM, escape sequences).
    pub skip_fg: Color32,
    /// Background of the selected bytes and characters.
    pub selection_bg: Color32,
    /// Text colour of offsets and other secondary text.
    pub weak_fg: Color32,
    /// Outline of the focused pane.
    pub focus_stroke: Color32,
    /// Background of the cells of a code page chart that differ from the
    /// encoding compared with.
    pub difference_bg: Color32,
    /// Background of the characters a repair replaces (the Repair view's
    /// "before").
    pub repair_before_bg: Color32,
    /// Background of the characters a repair puts in their place (its
    /// "after"), and of a reinterpretation by hand in a pane's text (which
    /// `ok_fg` underlines); a character it could not recover is marked as
    /// an error.
    pub repair_after_bg: Color32,
    /// A scroll bar's track.
    pub scroll_track: Color32,
    /// A scroll bar's thumb.
    pub scroll_thumb: Color32,
    /// A scroll bar's thumb under the pointer or being dragged.
    pub scroll_thumb_active: Color32,
    /// Each decode pane's colour, by index: its tag on the rows it reads
    /// and in its header.
    pub panes: [Color32; 4],
    /// Text on a pane's colour.
    pub pane_tag_fg: Color32,
    /// Background of the characters a pane reads differently from the
    /// first pane.
    pub differs_bg: Color32,
    /// The verdict line's background when it warns (mojibake, UTF-16
    /// without a byte order mark, errors).
    pub warning_bg: Color32,
}

#[expect(
    clippy::disallowed_methods,
    reason = "theme.rs is the one place colours are written down"
)]
const LIGHT: Palette = Palette {
    nul_fg: Color32::from_rgb(0x9A, 0x9A, 0x9A), // grey, like hexyl
    ascii_printable_fg: Color32::from_rgb(0x1F, 0x5F, 0xB0), // blue
    ascii_whitespace_fg: Color32::from_rgb(0x1E, 0x7A, 0x3C), // green
    ascii_control_fg: Color32::from_rgb(0x8A, 0x3F, 0xB8), // purple
    non_ascii_fg: Color32::from_rgb(0xB0, 0x62, 0x00), // orange
    malformed_bg: Color32::from_rgb(0xF8, 0xC4, 0xC4),
    malformed_fg: Color32::from_rgb(0xB0, 0x00, 0x20),
    replacement_literal_bg: Color32::from_rgb(0xD6, 0xE4, 0xFF),
    unmappable_bg: Color32::from_rgb(0xFF, 0xD8, 0xA8),
    ok_fg: Color32::from_rgb(0x1E, 0x6B, 0x34),
    ok_bg: Color32::from_rgb(0xD4, 0xF2, 0xDC),
    control_fg: Color32::from_rgb(0x8A, 0x3F, 0xB8),
    control_bg: Color32::from_rgb(0xEE, 0xE4, 0xF6),
    skip_fg: Color32::from_rgb(0x80, 0x80, 0x80),
    selection_bg: Color32::from_rgb(0xFF, 0xE0, 0x70),
    weak_fg: Color32::from_rgb(0x70, 0x70, 0x70),
    focus_stroke: Color32::from_rgb(0x1F, 0x5F, 0xB0),
    difference_bg: Color32::from_rgb(0xC8, 0xEC, 0xD0),
    repair_before_bg: Color32::from_rgb(0xFF, 0xD0, 0xD8),
    repair_after_bg: Color32::from_rgb(0xC4, 0xEE, 0xC0),
    scroll_track: Color32::from_rgb(0xEC, 0xEC, 0xEC),
    scroll_thumb: Color32::from_rgb(0xB4, 0xB4, 0xB4),
    scroll_thumb_active: Color32::from_rgb(0x88, 0x88, 0x88),
    panes: [
        Color32::from_rgb(0x1F, 0x5F, 0xB0),
        Color32::from_rgb(0xB0, 0x4A, 0x00),
        Color32::from_rgb(0x2E, 0x7D, 0x32),
        Color32::from_rgb(0x8A, 0x3F, 0xB8),
    ],
    pane_tag_fg: Color32::from_rgb(0xFF, 0xFF, 0xFF),
    differs_bg: Color32::from_rgb(0xDD, 0xEE, 0xFF),
    warning_bg: Color32::from_rgb(0xFF, 0xF0, 0xC8),
};

#[expect(
    clippy::disallowed_methods,
    reason = "theme.rs is the one place colours are written down"
)]
const DARK: Palette = Palette {
    nul_fg: Color32::from_rgb(0x80, 0x80, 0x80),
    ascii_printable_fg: Color32::from_rgb(0x7C, 0xB7, 0xFF),
    ascii_whitespace_fg: Color32::from_rgb(0x7E, 0xD3, 0x8F),
    ascii_control_fg: Color32::from_rgb(0xD0, 0x9C, 0xFF),
    non_ascii_fg: Color32::from_rgb(0xFF, 0xB8, 0x5C),
    malformed_bg: Color32::from_rgb(0x7A, 0x1C, 0x24),
    malformed_fg: Color32::from_rgb(0xFF, 0x9A, 0xA4),
    replacement_literal_bg: Color32::from_rgb(0x24, 0x3C, 0x6E),
    unmappable_bg: Color32::from_rgb(0x6E, 0x45, 0x10),
    ok_fg: Color32::from_rgb(0x8C, 0xE0, 0xA0),
    ok_bg: Color32::from_rgb(0x1C, 0x40, 0x28),
    control_fg: Color32::from_rgb(0xD0, 0x9C, 0xFF),
    control_bg: Color32::from_rgb(0x3A, 0x2A, 0x4A),
    skip_fg: Color32::from_rgb(0x9A, 0x9A, 0x9A),
    selection_bg: Color32::from_rgb(0x6B, 0x5A, 0x10),
    weak_fg: Color32::from_rgb(0xA0, 0xA0, 0xA0),
    focus_stroke: Color32::from_rgb(0x7C, 0xB7, 0xFF),
    difference_bg: Color32::from_rgb(0x1E, 0x4A, 0x2C),
    repair_before_bg: Color32::from_rgb(0x5E, 0x2A, 0x3A),
    repair_after_bg: Color32::from_rgb(0x1E, 0x50, 0x26),
    scroll_track: Color32::from_rgb(0x22, 0x22, 0x22),
    scroll_thumb: Color32::from_rgb(0x5A, 0x5A, 0x5A),
    scroll_thumb_active: Color32::from_rgb(0x80, 0x80, 0x80),
    panes: [
        Color32::from_rgb(0x3C, 0x78, 0xC8),
        Color32::from_rgb(0xC0, 0x6A, 0x1C),
        Color32::from_rgb(0x3C, 0x96, 0x4A),
        Color32::from_rgb(0x9C, 0x5C, 0xC8),
    ],
    pane_tag_fg: Color32::from_rgb(0xFF, 0xFF, 0xFF),
    differs_bg: Color32::from_rgb(0x20, 0x36, 0x52),
    warning_bg: Color32::from_rgb(0x4A, 0x3A, 0x10),
};

impl Palette {
    /// The palette for egui's current theme.
    pub fn for_theme(theme: Theme) -> &'static Palette {
        match theme {
            Theme::Light => &LIGHT,
            Theme::Dark => &DARK,
        }
    }
}
