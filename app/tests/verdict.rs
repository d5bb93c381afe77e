//! The verdict line and the window's title, on real kinds of files: what
//! the file is at a glance, and the one button that does something about
//! it.

mod common;

use std::path::{Path, PathBuf};

use egui_kittest::kittest::Queryable as _;
use mojiscope::model::repair::task::RepairState;
use mojiscope::model::settings::Settings;
use mojiscope_core::SHIFT_JIS;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The verdict line's text.
fn verdict_text(harness: &egui_kittest::Harness<'_, mojiscope::app::InspectorApp>) -> String {
    harness.state().session.verdict().text
}

#[test]
fn a_declared_shift_jis_file_says_so_in_the_title_and_the_verdict() {
    let mut bytes = b"<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<doc>\n".to_vec();
    let text = "日本語の文章です。これは普通の文で、検出のための例です。\n".repeat(30);
    bytes.extend(SHIFT_JIS.encode(&text).0);
    bytes.extend(b"</doc>\n");
    let (_dir, path) = common::scratch("notes.xml", &bytes);
    let harness = common::app_with(&path, Settings::default());
    assert_eq!(harness.state().title, "notes.xml — mojiscope");
    let text = verdict_text(&harness);
    assert!(
        text.starts_with("Shift_JIS · declared in the XML declaration · detected "),
        "{text}"
    );
    assert!(text.ends_with("% · no errors"), "{text}");
    // The line is on screen, readable by a screen reader.
    harness.get_by_label(&text);
    assert!(harness.query_by_label("Repair…").is_none());
}

#[test]
fn mojibake_is_named_and_the_repair_is_one_click_away() {
    let mut harness = common::app_with(&fixture("mojibake.txt"), Settings::default());
    let text = verdict_text(&harness);
    assert!(
        text.starts_with("Looks like UTF-8 read as windows-1252"),
        "{text}"
    );
    assert!(common::is_enabled(&harness, "Repair…"));
    harness.get_by_label("Repair…").click();
    harness.run_steps(2);
    common::run_until(&mut harness, mojiscope::app::InspectorApp::is_idle);
    assert!(
        !matches!(harness.state().repair.state, RepairState::Idle),
        "the Repair window runs"
    );
}

#[test]
fn utf16_without_a_bom_offers_to_save_as_utf8() {
    let bytes: Vec<u8> = "This file is in UTF-16, little-endian, with no byte order mark.\n"
        .repeat(40)
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let (_dir, path) = common::scratch("utf16.txt", &bytes);
    let mut harness = common::app_with(&path, Settings::default());
    assert_eq!(verdict_text(&harness), "UTF-16LE without a byte order mark");
    harness.get_by_label("Save as UTF-8…").click();
    harness.run_steps(3);
    let form = harness.state_mut().save.form().expect("Save as is open");
    assert_eq!(form.output_encoding(), mojiscope_core::UTF_8);
}

#[test]
fn with_no_file_open_the_samples_are_one_click_away() {
    let app = mojiscope::app::InspectorApp::new(Settings::default(), None);
    let mut harness = egui_kittest::Harness::builder()
        .with_size(eframe::egui::vec2(1280.0, 800.0))
        .allow_missing_glyphs()
        .build_ui_state(|ui, app: &mut mojiscope::app::InspectorApp| app.ui(ui), app);
    harness.run_steps(2);
    assert_eq!(harness.state().title, "mojiscope");
    for sample in mojiscope::model::samples::SAMPLES {
        harness.get_by_label(sample.title);
    }
    harness.get_by_label("Double-encoded mojibake (Ã©)").click();
    harness.run_steps(2);
    common::run_until(&mut harness, mojiscope::app::InspectorApp::is_idle);
    assert_eq!(harness.state().title, "double-encoded.txt — mojiscope");
    let text = verdict_text(&harness);
    assert!(
        text.starts_with("Looks like UTF-8 read as windows-1252"),
        "{text}"
    );
}
