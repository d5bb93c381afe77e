//! Teaching on a projector at 1280×800: a tall inspector from the
//! keyboard, and the code page chart with all its rows in view.

#[expect(dead_code, reason = "this suite uses part of the shared helpers")]
mod common;

use std::path::{Path, PathBuf};

use eframe::egui::{self, Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use mojiscope::app::InspectorApp;
use mojiscope::model::settings::Settings;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn projector() -> Harness<'static, InspectorApp> {
    common::app_sized(
        &fixture("shift_jis.txt"),
        Settings::default(),
        egui::vec2(1280.0, 800.0),
    )
}

fn press(harness: &mut Harness<'_, InspectorApp>, modifiers: Modifiers, key: Key) {
    harness.key_press_modifiers(modifiers, key);
    harness.run_steps(3);
}

fn inspector_height(harness: &Harness<'_, InspectorApp>) -> f32 {
    harness.state().views.inspector_height
}

#[test]
fn the_inspector_grows_and_shrinks_from_the_keyboard_and_the_menu() {
    let mut harness = projector();
    let start = inspector_height(&harness);
    assert!(start > 0.0 && start <= 220.0, "{start}");
    let taller = Modifiers::COMMAND | Modifiers::SHIFT;
    press(&mut harness, taller, Key::ArrowUp);
    let grown = inspector_height(&harness);
    assert!((grown - start * 1.5).abs() < 2.0, "{start} → {grown}");
    // Steps up stop at four fifths of the window.
    for _ in 0..6 {
        press(&mut harness, taller, Key::ArrowUp);
    }
    let tallest = inspector_height(&harness);
    assert!(tallest > 500.0 && tallest < 0.8 * 800.0, "{tallest}");
    // The size stays after the step, as if the edge had been dragged.
    harness.run_steps(5);
    assert!((inspector_height(&harness) - tallest).abs() < 1.0);
    press(&mut harness, taller, Key::ArrowDown);
    assert!(inspector_height(&harness) < tallest);
    // The same from View.
    harness.get_by_label("View").click();
    harness.run_steps(2);
    harness
        .get_by_label_contains("Shrink the inspector")
        .click();
    harness.run_steps(3);
    assert!(inspector_height(&harness) < tallest / 1.5 + 1.0);
}

#[test]
fn the_code_page_chart_shows_rows_0_to_f_at_1280_by_800() {
    let mut harness = projector();
    harness.get_by_label("Learn").click();
    harness.run_steps(2);
    harness.get_by_label("Code page chart").click();
    harness.run_steps(4);
    let first = harness.get_by_label_contains("0x00 in").rect();
    let last = harness.get_by_label_contains("0xFF in").rect();
    assert!(first.top() > 0.0, "{first:?}");
    assert!(last.bottom() <= 800.0, "row F is cut off: {last:?}");
    assert!(last.height() >= 30.0, "{last:?}");
}
