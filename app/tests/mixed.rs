//! Files in more than one encoding, driven headless as a user would: the
//! verdict and the title name the encodings and their lines, the segment
//! strip beside the hex view shows the parts and jumps to them, the Mixed
//! reading (picked in a pane's encoding chooser) decodes each part with its
//! own encoding, and Save as writes it as one UTF-8 text.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{app_with, is_enabled, run_until, scratch};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use mojiscope::app::InspectorApp;
use mojiscope::model::command::Command;
use mojiscope::model::settings::Settings;
use mojiscope_core::{ByteSpan, WINDOWS_1251, WINDOWS_1252};

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(name)
}

/// The 1-based line byte `offset` starts (the line feeds before it, plus 1).
fn line_at(bytes: &[u8], offset: usize) -> usize {
    bytes[..offset].split(|&b| b == b'\n').count()
}

/// The last line of `bytes` (a final line feed ends the last line).
fn last_line(bytes: &[u8]) -> usize {
    line_at(bytes, bytes.len().saturating_sub(1))
}

/// Real text in two encodings: the French of the Declaration of 1789 (the
/// UTF-8 half of the two-encodings sample), then Pushkin's "К ***" (the
/// UTF-16 sample, in windows-1251), then the French again. Returns the
/// bytes, the text they are meant to read as, and where the Russian part
/// starts and ends.
fn french_russian_french() -> (Vec<u8>, String, usize, usize) {
    let two = fs::read(sample("two-encodings.txt")).expect("the sample");
    let french = String::from_utf8_lossy(&two[..legacy_start(&two)]).into_owned();
    assert!(!french.contains('\u{FFFD}'));
    let utf16 = fs::read(sample("utf-16le-without-bom.txt")).expect("the sample");
    let units: Vec<u16> = utf16
        .chunks_exact(2)
        .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
        .collect();
    let mut russian = String::from_utf16(&units).expect("UTF-16 text");
    if !russian.ends_with('\n') {
        russian.push('\n');
    }
    russian.push('\n');
    let mut bytes = french.as_bytes().to_vec();
    let start = bytes.len();
    bytes.extend(WINDOWS_1251.encode(&russian).0);
    let end = bytes.len();
    bytes.extend(french.as_bytes());
    (bytes, format!("{french}{russian}{french}"), start, end)
}

/// Where the windows-1252 half of the two-encodings sample starts: the
/// line of its second title ("Déclaration" with a windows-1252 é).
fn legacy_start(bytes: &[u8]) -> usize {
    let title = b"D\xE9claration";
    bytes
        .windows(title.len())
        .position(|window| window == title)
        .expect("the sample's windows-1252 title")
}

/// Whether `node` is pane `pane`'s encoding chooser (named with what it
/// shows: "Pane 2 encoding: UTF-8, no errors").
fn is_pane_chooser(node: &egui_kittest::kittest::AccessKitNode<'_>, pane: usize) -> bool {
    node.role() == egui::accesskit::Role::ComboBox
        && node
            .label()
            .is_some_and(|label| label.starts_with(&format!("Pane {pane} encoding: ")))
}

/// Picks `what` in pane `pane`'s chooser from the keyboard: focus, Enter
/// opens it, typing filters, Enter picks.
fn choose_in_pane(harness: &mut Harness<'_, InspectorApp>, pane: usize, what: &str) {
    harness.get_by(|node| is_pane_chooser(node, pane)).focus();
    harness.run_steps(2);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(3);
    harness
        .get_by_role(egui::accesskit::Role::SearchInput)
        .type_text(what);
    harness.run_steps(3);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(4);
    run_until(harness, InspectorApp::is_idle);
}

#[test]
fn the_two_encodings_sample_is_named_part_by_part() {
    let path = sample("two-encodings.txt");
    let bytes = fs::read(&path).unwrap();
    let boundary = legacy_start(&bytes);
    let mut harness = app_with(&path, Settings::default());
    let split = line_at(&bytes, boundary);
    let last = last_line(&bytes);
    let expected = format!(
        "2 encodings: UTF-8 (lines 1–{}), windows-1252 (lines {split}–{last})",
        split - 1
    );
    assert_eq!(harness.state().session.verdict().text, expected);
    harness.get_by_label(&expected);
    assert_eq!(
        harness.state().title,
        "two-encodings.txt (2 encodings) — mojiscope"
    );
    // The strip: one block per part, named for a screen reader.
    harness.get_by_label(&format!("Segment 1 of 2: UTF-8, lines 1–{}", split - 1));
    let second = format!("Segment 2 of 2: windows-1252, lines {split}–{last}");
    harness.get_by_label(&second).click();
    harness.run_steps(4);
    let selection = harness.state().session.selection.expect("a selection");
    assert_eq!(selection.span.start, boundary as u64);
    // A file in one encoding has no strip and says nothing of parts.
    let (_dir, one) = scratch("one.txt", &bytes[..boundary]);
    let harness = app_with(&one, Settings::default());
    assert!(harness.query_by_label_contains("Segment 1 of").is_none());
    assert!(
        !harness
            .state()
            .session
            .verdict()
            .text
            .contains("encodings:")
    );
    assert_eq!(harness.state().title, "one.txt — mojiscope");
}

#[test]
fn the_mixed_reading_decodes_each_part_and_saves_the_intended_utf8() {
    let (bytes, text, start, end) = french_russian_french();
    let (dir, path) = scratch("letters.txt", &bytes);
    let mut harness = app_with(&path, Settings::default());
    let (first, last) = (line_at(&bytes, start), line_at(&bytes, end));
    let total = last_line(&bytes);
    assert_eq!(
        harness.state().session.verdict().text,
        format!(
            "2 encodings: UTF-8 (lines 1–{}, {last}–{total}), windows-1251 (lines {first}–{})",
            first - 1,
            last - 1
        )
    );
    harness.get_by_label(&format!(
        "Segment 2 of 3: windows-1251, lines {first}–{}",
        last - 1
    ));
    // Every single encoding reads part of the file with errors or as
    // mojibake; the Mixed reading, offered apart in the chooser, reads it
    // all.
    choose_in_pane(&mut harness, 2, "Mixed");
    let state = harness.state();
    let pane = &state.session.panes[1];
    assert!(pane.parts.is_some(), "pane 2 shows the Mixed reading");
    let analysis = pane.analysis.clone().expect("analysed");
    assert_eq!(analysis.errors, 0);
    harness.get_by(|node| {
        is_pane_chooser(node, 2)
            && node
                .label()
                .is_some_and(|l| l == "Pane 2 encoding: Mixed: UTF-8 + windows-1251, no errors")
    });
    // Its text, as the views, copy and find read it.
    let whole = analysis.decode_window(&bytes, ByteSpan::new(0, bytes.len() as u64));
    let mut decoded = String::new();
    whole.items().for_each(|item| item.push_text(&mut decoded));
    assert_eq!(decoded, text);
    // On screen (pane 3, windows-1251, shows the line too).
    assert!(
        harness
            .query_all_by_label_contains("Я помню чудное мгновенье")
            .count()
            >= 1
    );
    // Find reads the focused pane's decode.
    harness.state_mut().push(Command::FocusPane(1));
    harness.run_steps(2);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::F);
    harness.run_steps(3);
    harness.get_by_label("Find in pane 2:");
    harness
        .get_by_role(egui::accesskit::Role::TextInput)
        .type_text("мимолетное");
    harness.run_steps(1);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(3);
    run_until(&mut harness, InspectorApp::is_idle);
    let found = harness
        .state()
        .session
        .selection
        .expect("the match selected");
    let at = WINDOWS_1251.encode("мимолетное").0;
    let expected = bytes.windows(at.len()).position(|w| w == &at[..]).unwrap();
    assert_eq!(
        found.span,
        ByteSpan::new(expected as u64, (expected + at.len()) as u64)
    );
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);

    // Save as UTF-8 from the Mixed pane: the one UTF-8 text, exactly.
    harness.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::U,
    );
    harness.run_steps(4);
    assert!(harness.state().save.is_open());
    run_until(&mut harness, |app| {
        app.save.preview().is_some() && app.is_idle()
    });
    harness.get_by_label_contains("Every character can be encoded in UTF-8");
    harness.get_by_label_contains("Round trip: lossless");
    harness.get_by_label_contains("decoded as Mixed: UTF-8 + windows-1251");
    run_until(&mut harness, |app| app.save.is_idle());
    assert!(is_enabled(&harness, "Save"));
    harness.get_by_label("Save").click();
    harness.run_steps(4);
    run_until(&mut harness, |app| !app.save.is_open());
    let saved = fs::read(dir.path().join("letters.utf-8.txt")).unwrap();
    assert_eq!(String::from_utf8(saved).unwrap(), text);
    // And leaving the Mixed reading gives the pane one encoding again.
    choose_in_pane(&mut harness, 2, "windows-1252");
    let pane = &harness.state().session.panes[1];
    assert!(pane.parts.is_none());
    assert_eq!(pane.encoding, WINDOWS_1252);
}
