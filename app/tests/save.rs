//! File ▸ Save as, driven headless through `egui_kittest` as a user would:
//! the shortcut or the menu's command, the encoding picked from the list,
//! the path typed (the native file dialog is never used here), Save.
//! What is saved is compared with what `encoding_rs` writes for the same text.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{app_with, is_enabled, run_until, scratch};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use mojiscope::app::InspectorApp;
use mojiscope::model::command::Command;
use mojiscope::model::settings::Settings;
use mojiscope_core::{SHIFT_JIS, UTF_8};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Clicks the dialog's `label` button (Save, or Replace the open file) once
/// its background work is done and its layout has settled (a click found on
/// one frame lands on the next: if the dialog resized between the two it
/// would land on the backdrop and close it), then waits for it to close.
fn click_and_save(harness: &mut Harness<'_, InspectorApp>, label: &str) {
    run_until(harness, |app| app.save.is_idle());
    harness.get_by_label(label).click();
    harness.run_steps(4);
    run_until(harness, |app| !app.save.is_open());
}

/// Waits for the dialog's check of the text (started the frame after a
/// change).
fn checked(harness: &mut Harness<'_, InspectorApp>) {
    harness.run_steps(4);
    run_until(harness, |app| app.save.preview().is_some() && app.is_idle());
}

fn open_save_as(harness: &mut Harness<'_, InspectorApp>) {
    harness.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::S,
    );
    harness.run_steps(4);
    assert!(harness.state().save.is_open(), "Ctrl+Shift+S opens it");
    checked(harness);
}

/// Whether `node` is Save as's encoding chooser, which is named with what
/// it shows: "Output encoding: UTF-8".
fn is_chooser(node: &egui_kittest::kittest::AccessKitNode<'_>) -> bool {
    node.role() == egui::accesskit::Role::ComboBox
        && node
            .label()
            .is_some_and(|label| label.starts_with("Output encoding"))
}

fn choose_encoding(harness: &mut Harness<'_, InspectorApp>, name: &str) {
    // From the keyboard: focus the chooser, Enter opens it at the current
    // choice, typing filters, Enter picks.
    harness.get_by(is_chooser).focus();
    harness.run_steps(2);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(3);
    harness
        .get_by_role(egui::accesskit::Role::SearchInput)
        .type_text(name);
    harness.run_steps(3);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(4);
    let chosen = harness.get_by(is_chooser).accesskit_node().value();
    assert_eq!(chosen.as_deref(), Some(name));
    assert_eq!(
        harness
            .get_by(is_chooser)
            .accesskit_node()
            .label()
            .as_deref(),
        Some(format!("Output encoding: {name}").as_str())
    );
    checked(harness);
}

/// `text` encoded by `encoding_rs`, in html mode (`&#N;` for what it cannot
/// encode), as the standard's "encode" does.
fn encoding_rs_bytes(name: &str, text: &str) -> Vec<u8> {
    let encoding =
        encoding_rs::Encoding::for_label(name.as_bytes()).expect("the standard's names are labels");
    encoding.output_encoding().encode(text).0.into_owned()
}

/// The characters of `text` that windows-1252 cannot encode.
fn unencodable_in_windows_1252(text: &str) -> usize {
    text.chars()
        .filter(|&c| {
            let mut buffer = [0; 4];
            encoding_rs::WINDOWS_1252
                .encode(c.encode_utf8(&mut buffer))
                .2
        })
        .count()
}

#[test]
fn fatal_mode_lists_every_unencodable_character_and_disables_save() {
    let text = fs::read_to_string(fixture("utf8.txt")).unwrap();
    let (_dir, path) = scratch("utf8.txt", text.as_bytes());
    let mut harness = app_with(&path, Settings::default());
    open_save_as(&mut harness);
    // UTF-8 first: every character can be encoded, and it reads back.
    harness.get_by_label_contains("Every character can be encoded in UTF-8");
    harness.get_by_label_contains("Round trip: lossless");
    assert!(is_enabled(&harness, "Save"));

    choose_encoding(&mut harness, "windows-1252");
    let count = unencodable_in_windows_1252(&text);
    assert_eq!(count, 29, "Japanese, Russian, Greek and a U+FFFD");
    harness.get_by_label(&format!(
        "{count} characters cannot be encoded in windows-1252"
    ));
    let preview = harness.state().save.preview().unwrap();
    assert_eq!(preview.unencodable.len(), count as u64);
    // The first: こ, bytes 13..16, line 2, column 1.
    harness.get_by_label(&format!("{:>12}  {:>14}  ", 13, "2:1"));
    harness.get_by_label_contains("U+3053 HIRAGANA LETTER KO");
    harness.get_by_label_contains("Fatal mode writes nothing while any remain");
    assert!(!is_enabled(&harness, "Save"));
    harness.get_by_label_contains("Save is off: 29 characters cannot be encoded");
}

#[test]
fn html_mode_shows_the_references_and_the_standards_warning_then_saves_them() {
    let text = fs::read_to_string(fixture("utf8.txt")).unwrap();
    let (dir, path) = scratch("utf8.txt", text.as_bytes());
    let mut harness = app_with(&path, Settings::default());
    open_save_as(&mut harness);
    choose_encoding(&mut harness, "windows-1252");
    assert!(harness.query_by_label_contains("&#12371;").is_none());
    harness.get_by_label("html").click();
    harness.run_steps(4);
    harness.get_by_label_contains("U+3053 HIRAGANA LETTER KO  →  &#12371;");
    harness.get_by_label_contains("cannot be distinguished from legitimate input");
    // The references read back as text: not lossless, so Save waits for a
    // confirmation.
    harness.get_by_label_contains("Round trip: not lossless");
    harness.get_by_label("29 characters read back as their &#N; reference.");
    assert!(!is_enabled(&harness, "Save"));
    harness
        .get_by_label("Save even though it does not read back the same")
        .click();
    harness.run_steps(4);
    assert!(is_enabled(&harness, "Save"));
    click_and_save(&mut harness, "Save");
    let saved = fs::read(dir.path().join("utf8.windows-1252.txt")).unwrap();
    assert_eq!(saved, encoding_rs_bytes("windows-1252", &text));
    // The choices are remembered.
    let remembered = &harness.state().settings.save;
    assert_eq!(
        (remembered.encoding.as_str(), remembered.html),
        ("windows-1252", true)
    );
    harness.get_by_label_contains("saved ");
}

#[test]
fn the_round_trip_badge_tells_lossless_from_lossy() {
    let (_dir, path) = scratch("price.txt", "price: ¥100\nok\n".as_bytes());
    let mut harness = app_with(&path, Settings::default());
    open_save_as(&mut harness);
    harness.get_by_label_contains("Round trip: lossless");
    // Shift_JIS has a ¥ to encode, but it reads back as a backslash.
    choose_encoding(&mut harness, "Shift_JIS");
    harness.get_by_label_contains("Every character can be encoded in Shift_JIS");
    harness.get_by_label_contains("Round trip: not lossless");
    harness.get_by_label("1 place read back differently:");
    harness.get_by_label(
        "line 1, column 8 (byte offset 7): U+00A5 YEN SIGN reads back as U+005C REVERSE SOLIDUS",
    );
    assert!(!is_enabled(&harness, "Save"));
    // Back to UTF-8: lossless again.
    choose_encoding(&mut harness, "UTF-8");
    harness.get_by_label_contains("Round trip: lossless");
    assert!(harness.query_by_label_contains("not lossless").is_none());
}

#[test]
fn saving_writes_exactly_the_bytes_encoding_rs_writes_for_every_encoder() {
    // Text every encoder can encode and read back: ASCII, and the
    // characters each encoding_rs encoder has.
    let sample = "Plain text 0123 ~!@#$%^&*()_+{}|:\"<>?\ncafé ß Ελληνικά Кириллица עברית ไทย 日本語 カタカナ 中文 한국어 €\r\n";
    let mut failures = Vec::new();
    let mut checked_encodings = 0;
    for encoding in mojiscope_core::ALL.iter().filter(|e| e.has_encoder()) {
        let oracle = encoding_rs::Encoding::for_label(encoding.name().as_bytes()).unwrap();
        let text: String = sample
            .chars()
            .filter(|&c| {
                let mut buffer = [0; 4];
                let (bytes, _, unmappable) = oracle.encode(c.encode_utf8(&mut buffer));
                !unmappable && oracle.decode_without_bom_handling(&bytes).0 == c.to_string()
            })
            .collect();
        let (dir, path) = scratch("sample.txt", text.as_bytes());
        let mut harness = app_with(&path, Settings::default());
        open_save_as(&mut harness);
        choose_encoding(&mut harness, encoding.name());
        click_and_save(&mut harness, "Save");
        let target = dir.path().join(format!(
            "sample.{}.txt",
            encoding.name().to_ascii_lowercase()
        ));
        let written = fs::read(&target).unwrap_or_default();
        if written != encoding_rs_bytes(encoding.name(), &text) {
            failures.push(encoding.name());
        }
        checked_encodings += 1;
    }
    assert!(failures.is_empty(), "different bytes: {failures:?}");
    assert_eq!(checked_encodings, 37);
}

#[test]
fn decoding_errors_must_be_kept_on_purpose() {
    let bytes = fs::read(fixture("utf8-errors.txt")).unwrap();
    let (dir, path) = scratch("errors.txt", &bytes);
    // Its UTF-8 decode, with the errors, in the focused (first) pane.
    let mut settings = Settings::default();
    settings.remember(&path, &[UTF_8, mojiscope_core::WINDOWS_1252]);
    let mut harness = app_with(&path, settings);
    open_save_as(&mut harness);
    harness.get_by_label_contains("The text has 4 U+FFFD where bytes did not decode");
    harness.get_by_label_contains("(the first at line 1, column 6 (byte offset 6))");
    assert!(!is_enabled(&harness, "Save"));
    harness
        .get_by_label("Keep the damage: save the U+FFFD on purpose")
        .click();
    harness.run_steps(4);
    click_and_save(&mut harness, "Save");
    let saved = fs::read_to_string(dir.path().join("errors.utf-8.txt")).unwrap();
    assert_eq!(saved, encoding_rs::UTF_8.decode(&bytes).0);
    assert_eq!(saved.matches('\u{FFFD}').count(), 4);
}

#[test]
fn replacing_the_open_file_needs_a_stronger_confirmation_keeps_a_backup_and_reloads() {
    let original = fs::read(fixture("shift_jis.txt")).unwrap();
    let (dir, path) = scratch("notes.txt", &original);
    let mut harness = app_with(&path, Settings::default());
    // The Shift_JIS pane's text, saved over the file as UTF-8.
    let pane = harness
        .state()
        .session
        .panes
        .iter()
        .position(|pane| pane.encoding == SHIFT_JIS)
        .expect("a Shift_JIS pane");
    harness.state_mut().push(Command::FocusPane(pane));
    harness.state_mut().push(Command::SaveAsUtf8);
    checked(&mut harness);
    harness.get_by_label(&format!(
        "The text of pane {}: notes.txt decoded as Shift_JIS",
        pane + 1
    ));
    harness
        .get_by_label("Save to")
        .set_text_value_accesskit(path.to_str().unwrap());
    harness.run_steps(4);
    harness.get_by_label_contains("is the file open in this window");
    assert!(!is_enabled(&harness, "Replace the open file"));
    harness
        .get_by_label("Replace the file open in this window")
        .click();
    harness
        .get_by_label("Keep the file it replaces as notes.txt~")
        .click();
    harness.run_steps(4);
    assert!(is_enabled(&harness, "Replace the open file"));
    click_and_save(&mut harness, "Replace the open file");
    let text = encoding_rs::SHIFT_JIS.decode(&original).0.into_owned();
    assert_eq!(fs::read_to_string(&path).unwrap(), text);
    assert_eq!(fs::read(dir.path().join("notes.txt~")).unwrap(), original);
    // The window reloads the file, keeping its panes: now its UTF-8 pane
    // has no errors.
    run_until(&mut harness, |app| {
        app.is_idle()
            && app
                .session
                .panes
                .iter()
                .find(|p| p.encoding == UTF_8)
                .and_then(|p| p.analysis.as_ref())
                .map(|a| a.errors)
                == Some(0)
    });
    let mut names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["notes.txt", "notes.txt~"], "no temporary file left");
}

#[test]
fn an_existing_file_needs_confirming_and_save_as_utf8_preselects_utf8() {
    let (dir, path) = scratch("a.txt", "é".as_bytes());
    fs::write(dir.path().join("taken.txt"), b"keep").unwrap();
    let mut settings = Settings::default();
    settings.save.encoding = "windows-1252".to_owned();
    let mut harness = app_with(&path, settings);
    open_save_as(&mut harness);
    assert_eq!(
        harness.state().save.preview().unwrap().encoding.name(),
        "windows-1252"
    );
    harness
        .get_by_label("Save to")
        .set_text_value_accesskit("taken.txt");
    harness.run_steps(4);
    harness.get_by_label("taken.txt already exists.");
    assert!(!is_enabled(&harness, "Save"));
    harness.get_by_label("Close").click();
    harness.run_steps(4);
    assert!(!harness.state().save.is_open());
    assert_eq!(fs::read(dir.path().join("taken.txt")).unwrap(), b"keep");

    harness.state_mut().push(Command::SaveAsUtf8);
    checked(&mut harness);
    assert_eq!(harness.state().save.preview().unwrap().encoding, UTF_8);
}

#[test]
fn a_file_opened_by_a_relative_path_saves_beside_itself() {
    // Not in the system's temporary directory: ".." from a directory near
    // the root would hide a path taken from the document's directory twice.
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let path = dir.path().join("notes.txt");
    fs::write(&path, "plain text\n").unwrap();
    // The same file named relative to the working directory, as a shell
    // passes `mojiscope notes.txt`.
    let cwd = std::env::current_dir().unwrap();
    let common = cwd
        .components()
        .zip(path.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut relative = PathBuf::new();
    for _ in cwd.components().skip(common) {
        relative.push("..");
    }
    relative.extend(path.components().skip(common));
    assert!(relative.is_relative());
    let mut harness = app_with(&relative, Settings::default());
    open_save_as(&mut harness);
    choose_encoding(&mut harness, "windows-1252");
    // The target is a name; the folder it is taken from is shown under it.
    let folder = fs::canonicalize(dir.path()).unwrap();
    harness.get_by_label(&format!("in {}", folder.display()));
    click_and_save(&mut harness, "Save");
    let saved = fs::read(dir.path().join("notes.windows-1252.txt")).unwrap();
    assert_eq!(saved, b"plain text\n");
}
