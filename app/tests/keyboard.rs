//! The keyboard alone: focus a view (Ctrl+H, Ctrl+1..4, Tab), move and
//! extend the selection in it, copy it, go to an offset.

mod common;

use std::path::{Path, PathBuf};

use eframe::egui::{self, Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use mojiscope::app::InspectorApp;
use mojiscope::model::selection::SelectionOrigin;
use mojiscope::model::settings::Settings;
use mojiscope_core::{ByteSpan, SHIFT_JIS, UTF_8};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The Shift_JIS fixture, read as Shift_JIS and as UTF-8.
fn shift_jis() -> Harness<'static, InspectorApp> {
    let path = fixture("shift_jis.txt");
    let mut settings = Settings::default();
    settings.remember(&path, &[SHIFT_JIS, UTF_8]);
    common::app_with(&path, settings)
}

fn press(harness: &mut Harness<'_, InspectorApp>, modifiers: Modifiers, key: Key) {
    harness.key_press_modifiers(modifiers, key);
    harness.run_steps(2);
}

fn span(harness: &Harness<'_, InspectorApp>) -> Option<ByteSpan> {
    harness.state().session.selection.map(|s| s.span)
}

/// Ctrl+C (the copy event a window system turns it into), and the one
/// frame whose output holds what it copied.
fn copy(harness: &mut Harness<'_, InspectorApp>) {
    harness.event(egui::Event::Copy);
    harness.step();
}

/// What the app put on the clipboard in the last frame.
fn copied(harness: &Harness<'_, InspectorApp>) -> Option<String> {
    harness
        .output()
        .platform_output
        .commands
        .iter()
        .find_map(|command| match command {
            egui::OutputCommand::CopyText(text) => Some(text.clone()),
            _ => None,
        })
}

#[test]
fn the_hex_view_moves_byte_by_byte_and_copies_hex() {
    let mut harness = shift_jis();
    press(&mut harness, Modifiers::COMMAND, Key::H);
    // The first key selects the first byte; then one byte at a time.
    press(&mut harness, Modifiers::NONE, Key::ArrowRight);
    assert_eq!(span(&harness), Some(ByteSpan::new(0, 1)));
    press(&mut harness, Modifiers::NONE, Key::ArrowRight);
    assert_eq!(span(&harness), Some(ByteSpan::new(1, 2)));
    press(&mut harness, Modifiers::SHIFT, Key::ArrowRight);
    press(&mut harness, Modifiers::SHIFT, Key::ArrowRight);
    assert_eq!(span(&harness), Some(ByteSpan::new(1, 4)));
    assert_eq!(
        harness.state().session.selection.map(|s| s.origin),
        Some(SelectionOrigin::Hex)
    );
    copy(&mut harness);
    assert_eq!(copied(&harness).as_deref(), Some("FA 96 7B"));
    // Down moves a whole row of the hex view.
    let width = harness.state().views.hex_width as u64;
    press(&mut harness, Modifiers::NONE, Key::ArrowDown);
    assert_eq!(span(&harness), Some(ByteSpan::new(3 + width, 4 + width)));
    press(&mut harness, Modifiers::NONE, Key::Home);
    assert_eq!(span(&harness), Some(ByteSpan::new(width, width + 1)));
    press(&mut harness, Modifiers::COMMAND, Key::End);
    assert_eq!(span(&harness), Some(ByteSpan::new(41, 42)));
    press(
        &mut harness,
        Modifiers::COMMAND | Modifiers::SHIFT,
        Key::Home,
    );
    assert_eq!(span(&harness), Some(ByteSpan::new(0, 42)));
}

#[test]
fn a_pane_moves_character_by_character_and_copies_text() {
    let mut harness = shift_jis();
    press(&mut harness, Modifiers::COMMAND, Key::Num1);
    assert_eq!(harness.state().session.focused_pane, 0);
    press(&mut harness, Modifiers::NONE, Key::ArrowRight);
    assert_eq!(span(&harness), Some(ByteSpan::new(0, 2)), "日");
    press(&mut harness, Modifiers::NONE, Key::ArrowRight);
    assert_eq!(span(&harness), Some(ByteSpan::new(2, 4)), "本");
    press(&mut harness, Modifiers::SHIFT, Key::End);
    // To the row's last character, before its line break.
    assert_eq!(span(&harness), Some(ByteSpan::new(2, 16)));
    copy(&mut harness);
    assert_eq!(copied(&harness).as_deref(), Some("本語のテキスト"));
    press(&mut harness, Modifiers::NONE, Key::ArrowDown);
    let below = span(&harness).expect("a selection");
    assert!(below.start >= 17, "{below:?}");

    // Ctrl+2: pane 2 is the focused pane, and the arrows step over its
    // characters (UTF-8 reads these bytes as errors, one byte each).
    press(&mut harness, Modifiers::COMMAND, Key::Num2);
    assert_eq!(harness.state().session.focused_pane, 1);
    press(&mut harness, Modifiers::COMMAND, Key::Home);
    assert_eq!(span(&harness), Some(ByteSpan::new(0, 1)));
    assert_eq!(
        harness.state().session.selection.map(|s| s.origin),
        Some(SelectionOrigin::Pane(1))
    );
}

#[test]
fn tab_reaches_a_pane_and_makes_it_the_focused_pane() {
    let mut harness = shift_jis();
    press(&mut harness, Modifiers::COMMAND, Key::Num2);
    assert_eq!(harness.state().session.focused_pane, 1);
    // Tab on from wherever the focus is until it is in pane 1's text.
    let pane_1 = harness.state().views.readings.pane_id(0);
    let mut reached = false;
    for _ in 0..60 {
        press(&mut harness, Modifiers::NONE, Key::Tab);
        if harness.ctx.memory(egui::Memory::focused) == pane_1 {
            reached = true;
            break;
        }
    }
    assert!(reached, "Tab never reached pane 1's text");
    harness.run_steps(2);
    assert_eq!(harness.state().session.focused_pane, 0);
}

#[test]
fn go_to_offset_submits_on_enter_and_escape_cancels() {
    let mut harness = shift_jis();
    press(&mut harness, Modifiers::COMMAND, Key::H);
    let hex = harness.ctx.memory(egui::Memory::focused);
    press(&mut harness, Modifiers::COMMAND, Key::G);
    harness
        .get_by_role(egui::accesskit::Role::TextInput)
        .type_text("0x10");
    harness.run_steps(1);
    press(&mut harness, Modifiers::NONE, Key::Enter);
    harness.run_steps(2);
    assert!(harness.state().views.goto.is_none(), "Enter went");
    assert_eq!(span(&harness), Some(ByteSpan::new(16, 17)));
    // The focus is back in the hex view: the arrows go on from there.
    assert_eq!(harness.ctx.memory(egui::Memory::focused), hex);
    press(&mut harness, Modifiers::NONE, Key::ArrowRight);
    assert_eq!(span(&harness), Some(ByteSpan::new(17, 18)));

    press(&mut harness, Modifiers::COMMAND, Key::G);
    assert!(harness.state().views.goto.is_some());
    harness
        .get_by_role(egui::accesskit::Role::TextInput)
        .type_text("5");
    press(&mut harness, Modifiers::NONE, Key::Escape);
    assert!(harness.state().views.goto.is_none(), "Escape cancelled");
    assert_eq!(span(&harness), Some(ByteSpan::new(17, 18)));
}

#[test]
fn a_panes_encoding_is_chosen_by_typing_a_label() {
    let (_dir, path) = common::scratch("latin.txt", "Grüße aus Köln\n".as_bytes());
    let mut settings = Settings::default();
    settings.remember(&path, &[UTF_8, SHIFT_JIS]);
    let mut harness = common::app_with(&path, settings);
    let name = "Pane 2 encoding: Shift_JIS, no errors";
    assert!(common::is_enabled(&harness, name));
    harness.get_by_label(name).focus();
    harness.run_steps(2);
    // Enter opens the list at the current choice; typing filters by the
    // encodings' labels too; Enter picks.
    press(&mut harness, Modifiers::NONE, Key::Enter);
    harness
        .get_by_role(egui::accesskit::Role::SearchInput)
        .type_text("latin1");
    harness.run_steps(2);
    press(&mut harness, Modifiers::NONE, Key::Enter);
    common::run_until(&mut harness, InspectorApp::is_idle);
    assert_eq!(
        harness.state().session.panes[1].encoding,
        mojiscope_core::WINDOWS_1252
    );
    harness.get_by_label("Pane 2 encoding: windows-1252, no errors");
}

#[test]
fn the_context_menu_copies_as_escaped_bytes_and_as_text() {
    let mut harness = shift_jis();
    harness
        .state_mut()
        .push(mojiscope::model::command::Command::Select(
            mojiscope::model::selection::Selection {
                span: ByteSpan::new(0, 4),
                origin: SelectionOrigin::Hex,
            },
        ));
    harness.run_steps(2);
    harness.get_by_label("Hex view").click_secondary();
    harness.run_steps(2);
    harness
        .get_by_label("Copy as escaped bytes (\\x82\\xA0)")
        .click_accesskit();
    harness.step();
    assert_eq!(copied(&harness).as_deref(), Some("\\x93\\xFA\\x96\\x7B"));
    harness.run_steps(2);
    harness
        .get_by_label_contains("Decoded text, pane 1")
        .click_secondary();
    harness.run_steps(2);
    harness.get_by_label("Copy text (pane 1)").click_accesskit();
    harness.step();
    assert_eq!(copied(&harness).as_deref(), Some("日本"));
}

/// F1 (and Help ▸ Keyboard shortcuts) lists the keys; the window stays
/// open beside the work, and F1 again or its close button closes it.
#[test]
fn f1_lists_the_keyboard_shortcuts() {
    let mut harness = shift_jis();
    assert!(!harness.state().shortcuts.is_open());
    press(&mut harness, Modifiers::NONE, Key::F1);
    harness.run_steps(2);
    assert!(harness.state().shortcuts.is_open());
    harness.get_by_label("Keyboard shortcuts");
    harness.get_by_label("Ctrl+Shift+S");
    harness.get_by_label("The focused pane's next or previous error");
    // The keys still reach the app with the window open.
    press(&mut harness, Modifiers::COMMAND, Key::H);
    assert!(harness.state().shortcuts.is_open());
    // F1 again closes it; so does its close button.
    press(&mut harness, Modifiers::NONE, Key::F1);
    harness.run_steps(2);
    assert!(!harness.state().shortcuts.is_open());
    press(&mut harness, Modifiers::NONE, Key::F1);
    harness.run_steps(2);
    harness.get_by_label("Close window").click();
    harness.run_steps(2);
    assert!(!harness.state().shortcuts.is_open());
}
