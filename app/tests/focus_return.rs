//! The keyboard focus goes back where it came from when a popup, Save as,
//! the About box or the Repair window closes: to the pane that had it.

#[expect(dead_code, reason = "this suite uses part of the shared helpers")]
mod common;

use std::path::{Path, PathBuf};

use eframe::egui::{self, Id, Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use mojiscope::app::InspectorApp;
use mojiscope::model::settings::Settings;
use mojiscope_core::{SHIFT_JIS, UTF_8};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The mojibake fixture in two panes, pane 2 focused from the keyboard.
fn pane_2_focused() -> (Harness<'static, InspectorApp>, Id) {
    let path = fixture("mojibake.txt");
    let mut settings = Settings::default();
    settings.remember(&path, &[UTF_8, SHIFT_JIS]);
    let mut harness = common::app_with(&path, settings);
    press(&mut harness, Modifiers::COMMAND, Key::Num2);
    let pane = harness
        .state()
        .views
        .readings
        .pane_id(1)
        .expect("pane 2 is drawn");
    assert_eq!(focused(&harness), Some(pane));
    (harness, pane)
}

fn press(harness: &mut Harness<'_, InspectorApp>, modifiers: Modifiers, key: Key) {
    harness.key_press_modifiers(modifiers, key);
    harness.run_steps(3);
}

fn focused(harness: &Harness<'_, InspectorApp>) -> Option<Id> {
    harness.ctx.memory(egui::Memory::focused)
}

#[test]
fn save_as_gives_the_focus_back_to_the_pane() {
    let (mut harness, pane) = pane_2_focused();
    press(&mut harness, Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    assert!(harness.state().save.is_open());
    assert_ne!(focused(&harness), Some(pane), "the dialog has the focus");
    press(&mut harness, Modifiers::NONE, Key::Escape);
    assert!(!harness.state().save.is_open());
    harness.run_steps(3);
    assert_eq!(focused(&harness), Some(pane));
}

#[test]
fn the_about_box_opened_from_the_menu_gives_the_focus_back() {
    let (mut harness, pane) = pane_2_focused();
    // Alt+H opens Help with the focus on its button; Down, Down, Enter:
    // About (after Keyboard shortcuts).
    press(&mut harness, Modifiers::ALT, Key::H);
    press(&mut harness, Modifiers::NONE, Key::ArrowDown);
    press(&mut harness, Modifiers::NONE, Key::ArrowDown);
    press(&mut harness, Modifiers::NONE, Key::Enter);
    assert!(harness.state().about.is_open());
    press(&mut harness, Modifiers::NONE, Key::Escape);
    assert!(!harness.state().about.is_open());
    harness.run_steps(3);
    assert_eq!(focused(&harness), Some(pane));
}

#[test]
fn a_menu_closed_with_escape_gives_the_focus_back_to_the_pane() {
    let (mut harness, pane) = pane_2_focused();
    // Alt+V opens View with the focus on its button; Down goes into it.
    press(&mut harness, Modifiers::ALT, Key::V);
    press(&mut harness, Modifiers::NONE, Key::ArrowDown);
    assert!(egui::Popup::is_any_open(&harness.ctx), "the menu opened");
    assert_ne!(focused(&harness), Some(pane));
    press(&mut harness, Modifiers::NONE, Key::Escape);
    assert!(!egui::Popup::is_any_open(&harness.ctx));
    harness.run_steps(3);
    assert_eq!(focused(&harness), Some(pane));
}

#[test]
fn the_encoding_list_gives_the_focus_back_to_its_chooser() {
    let (mut harness, pane) = pane_2_focused();
    harness.get_by_label_contains("Pane 2 encoding").focus();
    harness.run_steps(2);
    let chooser = focused(&harness).expect("the chooser has the focus");
    assert_ne!(Some(chooser), Some(pane));
    press(&mut harness, Modifiers::NONE, Key::Space);
    assert_ne!(focused(&harness), Some(chooser), "the list's filter has it");
    press(&mut harness, Modifiers::NONE, Key::Escape);
    harness.run_steps(3);
    assert_eq!(focused(&harness), Some(chooser));
}

#[test]
fn the_repair_window_gives_the_focus_back_when_it_closes() {
    let (mut harness, pane) = pane_2_focused();
    press(&mut harness, Modifiers::COMMAND | Modifiers::SHIFT, Key::R);
    common::run_until(&mut harness, InspectorApp::is_idle);
    assert!(harness.state().repair_window.is_open());
    // Its Close button, from the keyboard.
    harness.get_by_label("Close window").focus();
    harness.run_steps(2);
    press(&mut harness, Modifiers::NONE, Key::Enter);
    assert!(!harness.state().repair_window.is_open());
    harness.run_steps(3);
    assert_eq!(focused(&harness), Some(pane));
}

#[test]
fn the_repair_window_takes_the_focus_and_is_driven_from_the_keyboard() {
    let (mut harness, pane) = pane_2_focused();
    press(&mut harness, Modifiers::COMMAND | Modifiers::SHIFT, Key::R);
    common::run_until(&mut harness, InspectorApp::is_idle);
    assert!(harness.state().repair_window.is_open());
    // Its first button has the focus; Tab walks on to Apply to the pane.
    assert!(harness.get_by_label("Repair again").is_focused());
    press(&mut harness, Modifiers::NONE, Key::Tab);
    press(&mut harness, Modifiers::NONE, Key::Tab);
    assert!(harness.get_by_label("Apply to the pane").is_focused());
    press(&mut harness, Modifiers::NONE, Key::Enter);
    let notice = harness.state().session.notice.clone().unwrap_or_default();
    assert!(notice.starts_with("applied "), "{notice}");
    // Escape closes it, and the focus goes back to the pane.
    press(&mut harness, Modifiers::NONE, Key::Escape);
    assert!(!harness.state().repair_window.is_open());
    harness.run_steps(3);
    assert_eq!(focused(&harness), Some(pane));
}
