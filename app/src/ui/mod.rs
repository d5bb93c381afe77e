//! The views: one file per panel or window, each a struct with its own view
//! state (scroll, layout caches) and a `ui` method that reads the model,
//! most through a read-only [`PanelCtx`], and pushes
//! [`Command`]s. How bytes and characters
//! look is [`cells`]'s; virtual scrolling is [`rows`]'s.

pub mod about;
pub mod align;
pub mod cells;
pub mod chooser;
pub mod decode_view;
pub mod error_list;
pub mod folder_view;
pub mod hex_view;
pub mod inspector;
pub mod menu;
pub mod readings;
pub mod reinterpret;
pub mod repair_view;
pub mod rows;
pub mod save_dialog;
pub mod segment_strip;
pub mod shortcuts;
pub mod teaching;
pub mod why;

use std::sync::Arc;

use eframe::egui::{Pos2, Rect, RichText, Ui, Vec2};

use crate::model::analysis::EncodingAnalysis;
use crate::model::command::{Command, CopyAs};
use crate::model::repair::manual::HandRepair;
use crate::model::selection::Selection;
use crate::theme::Palette;
use crate::ui::cells::ByteClass;

/// What every panel may read for one frame.
pub struct PanelCtx<'a> {
    /// The document's bytes.
    pub bytes: &'a [u8],
    /// The document's generation (caches are keyed by it).
    pub generation: u64,
    /// The primary (first) pane's analysis, whose errors the hex view marks.
    pub primary: Option<&'a Arc<EncodingAnalysis>>,
    /// The shared selection.
    pub selection: Option<Selection>,
    /// The colours.
    pub palette: &'static Palette,
}

/// `done` out of `total` as a fraction for a progress bar (1 when there is
/// nothing to do).
pub fn progress_fraction(done: u64, total: u64) -> f32 {
    if total == 0 {
        return 1.0;
    }
    #[expect(
        clippy::cast_precision_loss,
        reason = "a progress bar needs no more than f64's 53 bits"
    )]
    let fraction = done as f64 / total as f64;
    fraction.clamp(0.0, 1.0) as f32
}

/// A detection score for people: "likely 97%", "likely <1%".
pub fn score_text(score: f64) -> String {
    let percent = score * 100.0;
    if percent > 0.0 && percent < 1.0 {
        "likely <1%".to_owned()
    } else {
        format!("likely {percent:.0}%")
    }
}

/// "no errors", "1 error", "12 errors".
pub fn error_count_text(errors: u64) -> String {
    match errors {
        0 => "no errors".to_owned(),
        1 => "1 error".to_owned(),
        n => format!("{n} errors"),
    }
}

/// The legend of the hex view's colours, drawn from the theme's table.
pub fn legend_ui(ui: &mut Ui, palette: &Palette) {
    ui.horizontal_wrapped(|ui| {
        ui.style_mut().override_text_style = Some(eframe::egui::TextStyle::Small);
        ui.spacing_mut().item_spacing.x = 4.0;
        for class in ByteClass::ALL {
            ui.label(RichText::new(format!("■ {}", class.name())).color(class.colour(palette)));
        }
        ui.label(
            RichText::new(" error ")
                .color(palette.malformed_fg)
                .background_color(palette.malformed_bg),
        );
        ui.label(
            RichText::new(" U+FFFD in the input ").background_color(palette.replacement_literal_bg),
        );
        ui.label(
            RichText::new("LF control")
                .color(palette.control_fg)
                .background_color(palette.control_bg),
        );
        ui.label(RichText::new(" selection ").background_color(palette.selection_bg));
    });
}

/// The context menu of the hex view and of the panes: copy the selection
/// as the text pane `pane` reads, as hex, or as escaped bytes.
pub fn selection_menu(response: &eframe::egui::Response, pane: usize, commands: &mut Vec<Command>) {
    response.context_menu(|ui| {
        let items = [
            (format!("Copy text (pane {})", pane + 1), CopyAs::Text(pane)),
            ("Copy hex".to_owned(), CopyAs::Hex),
            (
                "Copy as escaped bytes (\\x82\\xA0)".to_owned(),
                CopyAs::Escaped,
            ),
        ];
        for (label, copy_as) in items {
            if ui.button(label).clicked() {
                commands.push(Command::Copy(copy_as));
                ui.close();
            }
        }
        ui.separator();
        let items = [
            ("Explain", HandRepair::Explain),
            ("Reinterpret…", HandRepair::Reinterpret),
            ("Send to Mojibake lab", HandRepair::SendToLab),
        ];
        for (label, command) in items {
            if ui.button(label).clicked() {
                commands.push(Command::HandRepair(command));
                ui.close();
            }
        }
    });
}

/// Names the modal box `ui` is in, for screen readers: it is otherwise a
/// nameless dialog.
pub fn name_dialog(ui: &Ui, name: &str) {
    let modal = ui
        .stack()
        .iter()
        .find(|frame| frame.kind() == Some(eframe::egui::UiKind::Modal))
        .map(|frame| frame.unique_id);
    if let Some(id) = modal {
        let name = name.to_owned();
        ui.ctx()
            .accesskit_node_builder(id, |node| node.set_label(name));
    }
}

/// Where a window that works on the open document first opens, in a
/// screen of `screen`, and how large: at `x` (or further left, to fit)
/// below the verdict line, whose button acts on what the window did, at
/// most `size` ([`fit_in_screen`]).
pub fn below_verdict_line(screen: Rect, x: f32, size: Vec2) -> (Pos2, Vec2) {
    /// Where the verdict line ends, roughly.
    const TOP: f32 = 96.0;
    fit_in_screen(screen, Pos2::new(x, TOP), size)
}

/// Where a window first opens in a screen of `screen`, and how large: at
/// `pos` (relative to the screen; further left if it would not fit), at
/// most `size`, and above the status bar. egui pushes a window larger than
/// the screen up, over the menu bar and the verdict line; the windows'
/// contents scroll instead.
pub fn fit_in_screen(screen: Rect, pos: Pos2, size: Vec2) -> (Pos2, Vec2) {
    /// The status bar's height, and the room left at the sides, roughly.
    const BOTTOM: f32 = 40.0;
    const MARGIN: f32 = 8.0;
    let width = size.x.min(screen.width() - 2.0 * MARGIN).max(320.0);
    let height = size.y.min(screen.height() - pos.y - BOTTOM).max(240.0);
    let x = pos.x.min(screen.width() - width - MARGIN).max(MARGIN);
    (
        Pos2::new(screen.left() + x, screen.top() + pos.y),
        Vec2::new(width, height),
    )
}

#[cfg(test)]
mod tests {
    use eframe::egui::{pos2, vec2};

    use super::*;

    #[test]
    fn windows_open_below_the_verdict_line_within_the_screen() {
        for (width, height) in [
            (1920.0, 1080.0),
            (1280.0, 800.0),
            (1024.0, 640.0),
            (800.0, 600.0),
        ] {
            let screen = Rect::from_min_size(pos2(0.0, 0.0), vec2(width, height));
            let (pos, size) = below_verdict_line(screen, 300.0, vec2(960.0, 660.0));
            let window = Rect::from_min_size(pos, size);
            assert!((pos.y - 96.0).abs() < f32::EPSILON, "{width}×{height}");
            assert!(screen.contains_rect(window), "{width}×{height}: {window:?}");
            assert!(window.bottom() <= height - 40.0, "{width}×{height}");
        }
        // Where the screen has room, where and as large as asked.
        assert_eq!(
            below_verdict_line(
                Rect::from_min_size(pos2(0.0, 0.0), vec2(1920.0, 1080.0)),
                300.0,
                vec2(960.0, 660.0)
            ),
            (pos2(300.0, 96.0), vec2(960.0, 660.0))
        );
    }

    #[test]
    fn error_counts_read_well() {
        assert_eq!(error_count_text(0), "no errors");
        assert_eq!(error_count_text(1), "1 error");
        assert_eq!(error_count_text(4), "4 errors");
    }
}
