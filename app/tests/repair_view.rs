//! Repair ▸ Repair mojibake…, driven headless through `egui_kittest` as a
//! user would: the shortcut, the list of changes, their boxes, a click on a
//! change, and Save repaired text as… writing the accepted text.

mod common;

use std::fs;
use std::path::Path;
use std::time::Duration;

use common::{is_enabled, run_until, scratch};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use mojiscope::app::InspectorApp;
use mojiscope::model::command::Command;
use mojiscope::model::selection::SelectionOrigin;
use mojiscope::model::settings::Settings;
use mojiscope_core::{ByteSpan, UTF_8, WINDOWS_1252};

/// Two damaged lines and a clean one between them.
const DAMAGED: &str = "Ã©tÃ© 1\nclean line\nUn Ã©tÃ© 2\n";
const CHAIN: &str = "UTF-8 read as windows-1252";

/// The app with `file` open, UTF-8 its first pane, every job done.
fn app_with(file: &Path) -> Harness<'static, InspectorApp> {
    let mut settings = Settings::default();
    settings.remember(file, &[UTF_8, WINDOWS_1252]);
    common::app_with(file, settings)
}

/// Ctrl+Shift+R, then waits for the repair.
fn repair(harness: &mut Harness<'_, InspectorApp>) {
    harness.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::R,
    );
    harness.run_steps(2);
    assert!(
        harness.state().repair_window.is_open(),
        "Ctrl+Shift+R opens it"
    );
    run_until(harness, |app| app.repair.review().is_some());
}

fn accepted_text(harness: &Harness<'_, InspectorApp>) -> String {
    harness
        .state()
        .repair
        .review()
        .expect("a finished repair")
        .accepted_text()
}

#[test]
fn a_change_is_listed_with_its_chain_and_can_be_rejected_accepted_and_selected() {
    let (_dir, path) = scratch("notes.txt", DAMAGED.as_bytes());
    let mut harness = app_with(&path);
    repair(&mut harness);
    harness.get_by_label_contains(&format!("2 changes: 2 {CHAIN}."));
    harness.get_by_label("notes.txt, as pane 1 reads it (UTF-8)");
    // Worded for people: no generation, no "(bytes as code points)".
    assert!(harness.query_by_label_contains("generation").is_none());
    assert!(harness.query_by_label_contains("code points").is_none());
    // Each change: its place, its chain, and a box ticked.
    harness.get_by_label("line 1 · byte 0x0");
    harness.get_by_label("line 3 · byte 0x1A");
    assert!(harness.query_all_by_label(CHAIN).count() >= 2);
    assert_eq!(accepted_text(&harness), "été 1\nclean line\nUn été 2\n");

    // Reject the second: the text keeps it as it was.
    harness
        .get_by_label("Accept the change on line 3 · byte 0x1A")
        .click();
    harness.run_steps(2);
    assert_eq!(accepted_text(&harness), "été 1\nclean line\nUn Ã©tÃ© 2\n");
    harness.get_by_label("1 of 2 accepted.");
    // Reject all of the chain, then accept all: back to "été".
    harness.get_by_label("Reject").click();
    harness.run_steps(2);
    assert_eq!(accepted_text(&harness), DAMAGED);
    harness.get_by_label("Accept").click();
    harness.run_steps(2);
    assert_eq!(accepted_text(&harness), "été 1\nclean line\nUn été 2\n");
    let review = harness.state().repair.review().unwrap();
    assert_eq!(review.text(), DAMAGED, "the decode is never modified");

    // Clicking a change selects its bytes everywhere and shows it in context.
    harness.get_by_label("line 3 · byte 0x1A").click();
    harness.run_steps(3);
    let selection = harness.state().session.selection.expect("a selection");
    // "Ã©tÃ©" after "Ã©tÃ© 1\nclean line\nUn ": nine bytes.
    assert_eq!(selection.span, ByteSpan::new(0x1A, 0x23));
    assert_eq!(selection.origin, SelectionOrigin::Navigation);
    harness.get_by_label_contains("Line 3, bytes 0x1A..0x23 (9 bytes), accepted");
}

#[test]
fn a_file_with_nothing_to_repair_says_so() {
    let (_dir, path) = scratch("clean.txt", "Un été à Paris\nМосква\n".as_bytes());
    let mut harness = app_with(&path);
    repair(&mut harness);
    harness.get_by_label("No mojibake found: nothing to repair.");
    assert!(harness.query_by_label_contains("line 1 · byte").is_none());
}

#[test]
fn the_repaired_text_is_what_save_as_writes() {
    let (dir, path) = scratch("notes.txt", DAMAGED.as_bytes());
    let mut harness = app_with(&path);
    repair(&mut harness);
    harness
        .get_by_label("Accept the change on line 1 · byte 0x0")
        .click();
    harness.run_steps(2);
    harness.get_by_label("Save repaired text as…").click();
    harness.run_steps(4);
    assert!(harness.state().save.is_open());
    run_until(&mut harness, |app| {
        app.save.preview().is_some() && app.is_idle()
    });
    harness.get_by_label_contains("notes.txt decoded as UTF-8, repaired (1 of 2 changes accepted)");
    assert_eq!(harness.state().save.preview().unwrap().encoding, UTF_8);
    harness.get_by_label("Save").click();
    harness.run_steps(4);
    run_until(&mut harness, |app| !app.save.is_open());
    let written = fs::read(dir.path().join("notes.utf-8.txt")).unwrap();
    assert_eq!(written, "Ã©tÃ© 1\nclean line\nUn été 2\n".as_bytes());
    // The file open is as it was.
    assert_eq!(fs::read(&path).unwrap(), DAMAGED.as_bytes());
}

#[test]
fn lost_bytes_in_the_repaired_text_must_be_kept_on_purpose() {
    // A byte that does not decode, and a character the repair cannot
    // recover ("Í" lost its 0x8D): both are U+FFFD in the repaired text.
    let mut bytes = b"bad \xFF byte\n".to_vec();
    bytes.extend("BogotÃ¡, Ã?ndice, pÃºblico\n".as_bytes());
    let (dir, path) = scratch("notes.txt", &bytes);
    let mut harness = app_with(&path);
    repair(&mut harness);
    // The window says so before Save does.
    harness.get_by_label_contains("The decode has 1 U+FFFD where bytes did not decode");
    harness.get_by_label("Save repaired text as…").click();
    harness.run_steps(4);
    run_until(&mut harness, |app| {
        app.save.preview().is_some() && app.is_idle()
    });
    assert_eq!(harness.state().save.preview().unwrap().decoding_errors, 2);
    harness.get_by_label_contains("The text has 2 U+FFFD where bytes did not decode");
    assert!(!is_enabled(&harness, "Save"));
    harness
        .get_by_label("Keep the damage: save the U+FFFD on purpose")
        .click();
    harness.run_steps(4);
    assert!(is_enabled(&harness, "Save"));
    harness.get_by_label("Save").click();
    harness.run_steps(4);
    run_until(&mut harness, |app| !app.save.is_open());
    let written = fs::read_to_string(dir.path().join("notes.utf-8.txt")).unwrap();
    assert_eq!(
        written,
        "bad \u{FFFD} byte\nBogotá, \u{FFFD}ndice, público\n"
    );
}

#[test]
fn a_stale_repair_is_marked_and_not_saved() {
    let (_dir, path) = scratch("notes.txt", DAMAGED.as_bytes());
    let mut harness = app_with(&path);
    repair(&mut harness);
    harness.state_mut().push(Command::Reload);
    run_until(&mut harness, |app| {
        app.session.document.as_ref().map(|d| d.generation) == Some(2) && app.is_idle()
    });
    harness.get_by_label_contains("Stale: the file was reloaded: these changes are for the text");
    harness.get_by_label("Save repaired text as…").click();
    harness.run_steps(4);
    assert!(!harness.state().save.is_open());
    assert!(
        harness
            .query_all_by_label_contains("cannot save the repaired text: the file was reloaded")
            .count()
            >= 1
    );
    // Repairing again makes it current: saving is offered again.
    harness.get_by_label("Repair again").click();
    run_until(&mut harness, |app| {
        app.repair.review().is_some_and(|r| r.generation() == 2)
    });
    assert!(harness.query_by_label_contains("Stale:").is_none());
    harness.get_by_label("Save repaired text as…").click();
    harness.run_steps(4);
    assert!(harness.state().save.is_open());
}

#[test]
fn a_cancelled_repair_says_so_and_can_be_run_again() {
    let (_dir, path) = scratch("notes.txt", DAMAGED.as_bytes());
    let mut harness = app_with(&path);
    // Cancelled in the frame it starts: whatever the job does after, nothing
    // of it arrives.
    harness.state_mut().push(Command::Repair);
    harness.state_mut().push(Command::CancelRepair);
    harness.run_steps(2);
    for _ in 0..20 {
        harness.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    harness.get_by_label("Cancelled.");
    assert!(harness.state().repair.review().is_none());
    assert!(harness.state().is_idle());
    harness.get_by_label("Repair again").click();
    run_until(&mut harness, |app| app.repair.review().is_some());
    harness.get_by_label_contains(&format!("2 changes: 2 {CHAIN}."));
}
