//! Find (Ctrl+F): text in the focused pane's decode, or bytes in hex, over
//! the whole file in the background; Enter and F3 go to the next match,
//! Shift+F3 to the previous, wrapping around.

mod common;

use std::path::Path;

use eframe::egui::{self, Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use mojiscope::app::InspectorApp;
use mojiscope::model::settings::Settings;
use mojiscope_core::{ByteSpan, SHIFT_JIS, UTF_8};

fn press(harness: &mut Harness<'_, InspectorApp>, modifiers: Modifiers, key: Key) {
    harness.key_press_modifiers(modifiers, key);
    harness.run_steps(2);
    common::run_until(harness, InspectorApp::is_idle);
}

fn span(harness: &Harness<'_, InspectorApp>) -> Option<ByteSpan> {
    harness.state().session.selection.map(|s| s.span)
}

fn shift_jis() -> Harness<'static, InspectorApp> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/shift_jis.txt");
    let mut settings = Settings::default();
    settings.remember(&path, &[SHIFT_JIS, UTF_8]);
    common::app_with(&path, settings)
}

#[test]
fn text_is_found_in_the_focused_panes_decode() {
    let mut harness = shift_jis();
    press(&mut harness, Modifiers::COMMAND, Key::F);
    harness.get_by_label("Find in pane 1:");
    harness
        .get_by_role(egui::accesskit::Role::TextInput)
        .type_text("カ");
    harness.run_steps(1);
    press(&mut harness, Modifiers::NONE, Key::Enter);
    // "カタカナ" on the second row: カ is 83 4A, twice.
    assert_eq!(span(&harness), Some(ByteSpan::new(17, 19)));
    harness.get_by_label("1 of 2");
    press(&mut harness, Modifiers::NONE, Key::F3);
    assert_eq!(span(&harness), Some(ByteSpan::new(21, 23)));
    // Around the end, back to the first.
    press(&mut harness, Modifiers::NONE, Key::F3);
    assert_eq!(span(&harness), Some(ByteSpan::new(17, 19)));
    press(&mut harness, Modifiers::SHIFT, Key::F3);
    assert_eq!(span(&harness), Some(ByteSpan::new(21, 23)));
    // Escape closes the bar.
    harness
        .get_by_role(egui::accesskit::Role::TextInput)
        .focus();
    harness.run_steps(1);
    press(&mut harness, Modifiers::NONE, Key::Escape);
    assert!(harness.state().views.find.is_none());
}

#[test]
fn bytes_are_found_from_the_hex_view() {
    let (_dir, path) = common::scratch("bytes.bin", b"ab\x82\xA0cd\x82\xA0");
    let mut harness = common::app_with(&path, Settings::default());
    press(&mut harness, Modifiers::COMMAND, Key::H);
    press(&mut harness, Modifiers::COMMAND, Key::F);
    harness.get_by_label("Find bytes (hex):");
    harness
        .get_by_role(egui::accesskit::Role::TextInput)
        .type_text("82 a0");
    harness.run_steps(1);
    press(&mut harness, Modifiers::NONE, Key::Enter);
    assert_eq!(span(&harness), Some(ByteSpan::new(2, 4)));
    assert!(common::is_enabled(&harness, "Next ▶"));
    harness.get_by_label("Next ▶").click();
    harness.run_steps(2);
    assert_eq!(span(&harness), Some(ByteSpan::new(6, 8)));
    // Nothing there: said so, and the selection stays.
    harness
        .get_by_role(egui::accesskit::Role::TextInput)
        .focus();
    harness.run_steps(1);
    harness
        .get_by_role(egui::accesskit::Role::TextInput)
        .type_text(" FF");
    harness.run_steps(1);
    harness.get_by_label("Next ▶").click();
    harness.run_steps(2);
    common::run_until(&mut harness, InspectorApp::is_idle);
    harness.get_by_label("no match");
    assert_eq!(span(&harness), Some(ByteSpan::new(6, 8)));
}
