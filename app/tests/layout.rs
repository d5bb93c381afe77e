//! The decode panes' layout at real window sizes: headers that keep to
//! their cells at every width and zoom step, whole lines wrapped rather
//! than cut, the arrangement chosen for the width, one scroll for every
//! pane.

mod common;

use std::fmt::Write as _;
use std::path::Path;

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use mojiscope::app::InspectorApp;
use mojiscope::model::layout::{Arrangement, Shown};
use mojiscope::model::settings::Settings;
use mojiscope_core::{EUC_JP, Encoding, SHIFT_JIS, UTF_8, WINDOWS_1252};

/// A Shift_JIS file of long lines, mostly Japanese, some ASCII.
fn long_lines() -> Vec<u8> {
    let mut text = String::new();
    for line in 0..200 {
        writeln!(
            text,
            "{line:03} チュートリアルを完了するのに必要な時間は、覚えたコマンドを試すのにどれだけ時間を使うのかにもよりますが、およそ30分です。 Vim is a very powerful editor."
        )
        .expect("writing to a String cannot fail");
    }
    SHIFT_JIS.encode(&text).0
}

fn app(
    path: &Path,
    panes: &[&'static Encoding],
    size: egui::Vec2,
    settings: impl FnOnce(&mut Settings),
) -> Harness<'static, InspectorApp> {
    let mut chosen = Settings::default();
    chosen.remember(path, panes);
    settings(&mut chosen);
    common::app_sized(path, chosen, size)
}

const PANES: [&Encoding; 4] = [SHIFT_JIS, UTF_8, WINDOWS_1252, EUC_JP];

/// Every control of the panes' headers: its label and rectangle.
fn header_controls(harness: &Harness<'_, InspectorApp>) -> Vec<(String, egui::Rect)> {
    let first = harness.get_by_label_contains("Pane 1 encoding").rect();
    let text_top = harness
        .get_by_label_contains("Decoded text, pane 1")
        .rect()
        .top();
    harness
        .root()
        .query_all_by(|node| {
            matches!(
                node.role(),
                egui::accesskit::Role::Button | egui::accesskit::Role::ComboBox
            )
        })
        .map(|node| {
            let label = node.accesskit_node().label().unwrap_or_default();
            (label, node.rect())
        })
        .filter(|(_, rect)| rect.left() >= first.left() - 40.0 && rect.bottom() <= text_top)
        .collect()
}

#[test]
fn headers_keep_to_their_cells_at_every_width_and_zoom() {
    let (_dir, path) = common::scratch("long.txt", &long_lines());
    for (width, height) in [(1024.0, 768.0), (1280.0, 800.0), (1400.0, 900.0)] {
        for panes in 2..=4 {
            for zoom in [1.0, 1.25, 1.5] {
                let harness = app(
                    &path,
                    &PANES[..panes],
                    egui::vec2(width, height),
                    |settings| settings.zoom = zoom,
                );
                let case = format!("{width}×{height}, {panes} panes, zoom {zoom}");
                let controls = header_controls(&harness);
                // A chooser and a Remove button for every pane, at least.
                assert!(controls.len() >= 2 * panes, "{case}: {controls:?}");
                let window =
                    egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(width, height) / zoom);
                for (i, (label, rect)) in controls.iter().enumerate() {
                    assert!(
                        window.contains_rect(*rect),
                        "{case}: {label} at {rect:?} is outside the window"
                    );
                    for (other, other_rect) in &controls[i + 1..] {
                        assert!(
                            !rect.shrink(0.5).intersects(other_rect.shrink(0.5)),
                            "{case}: {label} {rect:?} overlaps {other} {other_rect:?}"
                        );
                    }
                }
                assert_eq!(
                    common::is_enabled(&harness, "Add pane"),
                    panes < 4,
                    "{case}"
                );
                // Each pane's chooser lies within its share of the width.
                let choosers: Vec<egui::Rect> = (1..=panes)
                    .map(|n| {
                        harness
                            .get_by_label_contains(&format!("Pane {n} encoding"))
                            .rect()
                    })
                    .collect();
                for pair in choosers.windows(2) {
                    assert!(pair[0].right() < pair[1].left(), "{case}: {choosers:?}");
                }
            }
        }
    }
}

#[test]
fn long_lines_wrap_so_that_each_is_read_whole() {
    let (_dir, path) = common::scratch("long.txt", &long_lines());
    let harness = app(&path, &PANES[..3], egui::vec2(1280.0, 800.0), |_| {});
    assert_eq!(
        harness.state().views.readings.shown(),
        Some(Shown::Stacked),
        "three panes at 1280 are stacked"
    );
    let document = harness.get_by_label_contains("Decoded text, pane 1").rect();
    // The first row's text node holds the whole line, and the rows it is
    // drawn on lie within the pane: no line runs off to the right.
    let first = harness.get_by_label_contains("000 チュートリアル");
    let text = first.accesskit_node().value().unwrap_or_default();
    assert!(text.ends_with("Vim is a very powerful editor."), "{text}");
    let rect = first.rect();
    assert!(
        rect.right() <= document.right() + 0.5,
        "{rect:?} {document:?}"
    );
    // The line is longer than the pane is wide: it takes two lines, the
    // Japanese one read three ways (they differ), the English one once
    // (every pane reads it the same).
    let line = rect.height();
    let step = mojiscope::ui::readings::line_height_in(&harness.ctx);
    assert!(line >= 4.0 * step, "{line} < 4 × {step}");
}

#[test]
fn two_panes_at_full_hd_are_side_by_side_and_scroll_together() {
    let (_dir, path) = common::scratch("long.txt", &long_lines());
    let mut harness = app(&path, &PANES[..2], egui::vec2(1920.0, 1080.0), |_| {});
    assert_eq!(
        harness.state().views.readings.shown(),
        Some(Shown::SideBySide)
    );
    let left = harness.get_by_label_contains("000 チュートリアル").rect();
    // UTF-8 reads the same row with errors; its node is level with it.
    let rows: Vec<egui::Rect> = harness
        .root()
        .query_all_by(|node| {
            node.value()
                .is_some_and(|v| v.contains("Vim is a very powerful editor"))
        })
        .map(|node| node.rect())
        .filter(|rect| (rect.top() - left.top()).abs() < 0.5)
        .collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows[0].right() <= rows[1].left() || rows[1].right() <= rows[0].left());
    // One scroll moves both.
    harness.hover_at(left.center());
    harness.run_steps(1);
    harness.key_press(egui::Key::PageDown);
    harness.run_steps(2);
    let top = harness.state().views.pane_position.top_row;
    assert!(top > 3, "PageDown scrolled to row {top}");
    assert!(
        harness
            .query_by_label_contains("000 チュートリアル")
            .is_none()
    );

    // The arrangement can be chosen.
    harness
        .state_mut()
        .push(mojiscope::model::command::Command::SetArrangement(
            Arrangement::Stacked,
        ));
    harness.run_steps(3);
    assert_eq!(harness.state().views.readings.shown(), Some(Shown::Stacked));
}

#[test]
fn zoom_is_in_the_view_menu_and_on_the_keyboard() {
    let (_dir, path) = common::scratch("long.txt", &long_lines());
    let mut harness = common::app_with(&path, Settings::default());
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Equals);
    harness.run_steps(2);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Equals);
    harness.run_steps(3);
    let zoom = harness.state().settings.zoom;
    assert!((zoom - 1.25).abs() < 1e-6, "{zoom}");
    assert!((harness.ctx.zoom_factor() - 1.25).abs() < 1e-6);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Minus);
    harness.run_steps(2);
    assert!((harness.state().settings.zoom - 1.1).abs() < 1e-6);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Num0);
    harness.run_steps(2);
    assert!((harness.state().settings.zoom - 1.0).abs() < 1e-6);
    harness.get_by_label("View").click();
    harness.run_steps(2);
    harness.get_by_label_contains("Zoom in").click();
    harness.run_steps(3);
    assert!((harness.state().settings.zoom - 1.1).abs() < 1e-6);
}
