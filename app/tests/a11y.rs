//! What a screen reader gets, through AccessKit: the window's and the
//! dialogs' names, each pane's and the hex view's visible rows as text, the
//! encoding choosers named with what they show, and the selection spoken
//! as it changes.

mod common;

use std::path::Path;

use eframe::egui::{self, Key, Modifiers, accesskit::Role};
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use mojiscope::model::settings::Settings;
use mojiscope_core::{SHIFT_JIS, UTF_8};

#[test]
fn the_content_and_the_names_are_exposed() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/shift_jis.txt");
    let bytes = std::fs::read(fixture).expect("the fixture");
    let (_dir, path) = common::scratch("shift_jis.txt", &bytes);
    let mut settings = Settings::default();
    settings.remember(&path, &[SHIFT_JIS, UTF_8]);
    let mut harness = common::app_with(&path, settings);
    // The window is named after the file.
    assert_eq!(
        harness.root().accesskit_node().label().as_deref(),
        Some("shift_jis.txt — mojiscope")
    );
    // The hex view's rows, and each pane's rows, as text.
    harness.get_by_label_contains("00000000: 93 FA 96 7B 8C EA");
    let pane_1 = harness.get_by_label_contains("Decoded text, pane 1: Shift_JIS");
    assert_eq!(pane_1.accesskit_node().role(), Role::Document);
    harness.get_by_label("日本語のテキスト");
    // The choosers say which encoding they show, and its errors.
    let chooser = harness.get_by_label_contains("Pane 2 encoding: UTF-8, ");
    assert_eq!(chooser.accesskit_node().role(), Role::ComboBox);
    assert!(common::is_enabled(&harness, "Add pane"));

    // A new selection is spoken: the bytes and each pane's reading.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Num1);
    harness.run_steps(2);
    harness.key_press(Key::ArrowRight);
    harness.run_steps(3);
    let spoken = harness.get_by_label_contains("Selection: bytes 0x0..0x2 (2 bytes): 93 FA");
    let node = spoken.accesskit_node();
    let label = node.description().unwrap_or_default();
    assert!(label.contains("Shift_JIS: 93 FA"), "{label}");
    assert!(label.contains("UTF-8: 93"), "{label}");
    assert_eq!(
        spoken.accesskit_node().live(),
        egui::accesskit::Live::Polite
    );

    // A dialog has a name.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::G);
    harness.run_steps(2);
    let dialog = harness.get_by_role(Role::Dialog);
    assert_eq!(
        dialog.accesskit_node().label().as_deref(),
        Some("Go to offset")
    );
}
