//! The desktop app driven headless through `egui_kittest`: the real UI, the
//! real background jobs, no window and no GPU. The file dialog (rfd) is
//! never used here: files are opened as `mojiscope FILE` opens them.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use mojiscope::app::InspectorApp;
use mojiscope::model::command::Command;
use mojiscope::model::selection::{Selection, SelectionOrigin};
use mojiscope::model::settings::Settings;
use mojiscope::ui::readings::line_height_in;
use mojiscope_core::{ByteSpan, SHIFT_JIS, UTF_8, UTF_16LE, WINDOWS_1252};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// A harness around the whole app, with `file` open and every job done.
/// Glyphs may be missing: these tests are about behaviour (see
/// `every_script_of_the_fixtures_has_glyphs` for the one about fonts).
fn app_with(file: Option<&Path>) -> Harness<'static, InspectorApp> {
    let app = InspectorApp::new(Settings::default(), file);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .allow_missing_glyphs()
        .build_ui_state(|ui, app: &mut InspectorApp| app.ui(ui), app);
    settle(&mut harness);
    harness
}

/// [`app_with`], with UTF-8 and windows-1252 remembered as `file`'s panes:
/// the tests of a UTF-8 file with errors look at its UTF-8 decode, which
/// detection rightly does not rank first.
fn utf8_first(file: &Path) -> Harness<'static, InspectorApp> {
    let mut settings = Settings::default();
    settings.remember(file, &[UTF_8, WINDOWS_1252]);
    let app = InspectorApp::new(settings, Some(file));
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .allow_missing_glyphs()
        .build_ui_state(|ui, app: &mut InspectorApp| app.ui(ui), app);
    settle(&mut harness);
    harness
}

/// Runs frames until the background jobs are done (bounded).
fn settle(harness: &mut Harness<'_, InspectorApp>) {
    for _ in 0..500 {
        harness.step();
        if harness.state().is_idle() {
            // A few more frames: layout that depends on the results.
            harness.run_steps(3);
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the background jobs did not finish in time");
}

/// The height of a line of a pane's text.
fn row_height(harness: &Harness<'_, InspectorApp>) -> f32 {
    line_height_in(&harness.ctx)
}

fn pane_encodings(harness: &Harness<'_, InspectorApp>) -> Vec<&'static str> {
    harness
        .state()
        .session
        .panes
        .iter()
        .map(|pane| pane.encoding.name())
        .collect()
}

#[test]
fn utf8_without_errors_shows_no_errors_in_the_primary_pane() {
    let harness = app_with(Some(&fixture("utf8.txt")));
    let panes = pane_encodings(&harness);
    assert_eq!(panes.first(), Some(&"UTF-8"), "{panes:?}");
    assert!((2..=4).contains(&panes.len()), "{panes:?}");
    let primary = harness.state().session.panes[0]
        .analysis
        .as_ref()
        .expect("analysed");
    assert_eq!(primary.errors, 0);
    assert!(harness.query_all_by_label("no errors").count() >= 1);
}

#[test]
fn utf8_with_errors_counts_them_in_the_header() {
    let harness = utf8_first(&fixture("utf8-errors.txt"));
    assert_eq!(pane_encodings(&harness)[0], "UTF-8");
    harness.get_by_label("4 errors");
    let primary = harness.state().session.panes[0]
        .analysis
        .as_ref()
        .expect("analysed");
    assert_eq!(primary.error_offsets, [6, 20, 21, 31]);
}

#[test]
fn shift_jis_gets_a_shift_jis_pane_without_errors() {
    let harness = app_with(Some(&fixture("shift_jis.txt")));
    let session = &harness.state().session;
    // Detection ranks Shift_JIS first: it is the primary pane, UTF-8 comes
    // next for comparison.
    assert_eq!(pane_encodings(&harness)[..2], ["Shift_JIS", "UTF-8"]);
    let shift_jis = session.panes[0].analysis.as_ref().expect("analysed");
    assert_eq!(shift_jis.errors, 0);
    let utf8 = session.panes[1].analysis.as_ref().expect("analysed");
    assert!(utf8.errors > 0);
    // Why? says how detection ranked it.
    let mut harness = harness;
    harness
        .get_all_by_label("Why?")
        .next()
        .expect("a Why? button per pane")
        .click();
    // A window takes a few frames to size itself and appear.
    harness.run_steps(5);
    assert_eq!(harness.state().views.why, Some(SHIFT_JIS));
    harness.get_by_label_contains("Detection ranks Shift_JIS 1st of 37");
}

#[test]
fn the_chooser_offers_no_utf16_and_groups_by_section() {
    let mut harness = app_with(Some(&fixture("shift_jis.txt")));
    harness.get_by_label_contains("Pane 1 encoding").click();
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("UTF-16").is_none());
    assert!(harness.query_by_label_contains("replacement").is_none());
    harness.get_by_label("Legacy multi-byte Japanese encodings");
    harness.get_by_label("The Encoding");
    // Pick EUC-JP for the primary pane: its analysis and line index rerun.
    // The list is longer than the window and EUC-JP is below its fold: the
    // click goes through the accessibility tree, as a screen reader's would.
    harness.get_by_label_contains("EUC-JP").click_accesskit();
    settle(&mut harness);
    assert_eq!(pane_encodings(&harness)[0], "EUC-JP");
    assert!(harness.state().session.lines.is_some());
}

#[test]
fn a_utf16_bom_disables_the_chooser_and_says_why() {
    let harness = app_with(Some(&fixture("utf16le-bom.txt")));
    let session = &harness.state().session;
    assert_eq!(session.panes.len(), 1);
    assert_eq!(session.panes[0].encoding, UTF_16LE);
    assert_eq!(
        session.panes[0].analysis.as_ref().map(|a| a.errors),
        Some(0)
    );
    assert!(
        harness
            .get_by_label_contains("Pane 1 encoding")
            .accesskit_node()
            .is_disabled()
    );
    harness.get_by_label_contains("byte order mark decides the encoding");
    assert!(
        harness
            .get_by_label("Add pane")
            .accesskit_node()
            .is_disabled()
    );
}

#[test]
fn clicking_a_character_selects_its_bytes_everywhere() {
    let mut harness = app_with(Some(&fixture("utf8.txt")));
    // Row 2 is "こんにちは 世界": its first character is bytes 13..16.
    // The row's node starts where its text does.
    let row = harness.get_by_label("こんにちは 世界").rect();
    let pos = egui::pos2(row.left() + 4.0, row.top() + row_height(&harness) / 2.0);
    harness
        .get_by_label_contains("Decoded text, pane 1")
        .hover();
    harness.hover_at(pos);
    harness.step();
    harness.event(egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    harness.step();
    harness.event(egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    harness.run_steps(2);
    let selection = harness.state().session.selection.expect("a selection");
    assert_eq!(selection.span, ByteSpan::new(13, 16));
    assert_eq!(selection.origin, SelectionOrigin::Pane(0));
    // The inspector names the character and its bytes.
    harness.get_by_label_contains("U+3053 HIRAGANA LETTER KO");
    harness.get_by_label_contains("bytes 0xD..0x10 (3 bytes): E3 81 93");
}

#[test]
fn f8_moves_to_the_next_error_and_shift_f8_back() {
    let mut harness = utf8_first(&fixture("utf8-errors.txt"));
    harness.key_press(egui::Key::F8);
    harness.run_steps(2);
    let span = |h: &Harness<'_, InspectorApp>| h.state().session.selection.map(|s| s.span);
    assert_eq!(span(&harness), Some(ByteSpan::new(6, 7)));
    harness.key_press(egui::Key::F8);
    harness.run_steps(2);
    assert_eq!(span(&harness), Some(ByteSpan::new(20, 21)));
    harness.key_press(egui::Key::F8);
    harness.key_press(egui::Key::F8);
    harness.run_steps(2);
    // The truncated sequence E3 81 before a space: both bytes, one error.
    assert_eq!(span(&harness), Some(ByteSpan::new(31, 33)));
    harness.get_by_label_contains("E3 81  →  error: incomplete sequence");
    harness.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::F8);
    harness.run_steps(2);
    assert_eq!(span(&harness), Some(ByteSpan::new(21, 22)));
    harness.get_by_label_contains("FE  →  error: invalid byte");
}

#[test]
fn f8_works_after_a_button_took_the_focus() {
    let mut harness = utf8_first(&fixture("utf8-errors.txt"));
    // A widget with the keyboard focus (a button reached with Tab, say)
    // does not make F8 typing.
    harness.get_by_label("Next error ▶").focus();
    harness.run_steps(2);
    assert!(harness.ctx.memory(|m| m.focused().is_some()));
    harness.key_press(egui::Key::F8);
    harness.run_steps(2);
    let span = harness.state().session.selection.map(|s| s.span);
    assert_eq!(span, Some(ByteSpan::new(6, 7)));
}

#[test]
fn go_to_offset_selects_that_byte() {
    let mut harness = app_with(Some(&fixture("utf8.txt")));
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::G);
    harness.run_steps(2);
    let dialog = harness.get_by_role(egui::accesskit::Role::Dialog);
    assert_eq!(
        dialog.accesskit_node().label().as_deref(),
        Some("Go to offset")
    );
    harness
        .get_by_role(egui::accesskit::Role::TextInput)
        .type_text("0x10");
    harness.run_steps(1);
    harness.get_by_label("Go").click();
    harness.run_steps(2);
    let selection = harness.state().session.selection.expect("a selection");
    assert_eq!(selection.span, ByteSpan::new(16, 17));
    assert!(harness.state().views.goto.is_none());
}

#[test]
fn a_selection_made_elsewhere_shows_in_the_inspector_for_every_pane() {
    let mut harness = utf8_first(&fixture("utf8-errors.txt"));
    harness.state_mut().push(Command::Select(Selection {
        span: ByteSpan::new(3, 5),
        origin: SelectionOrigin::Hex,
    }));
    harness.run_steps(2);
    harness.get_by_label_contains("U+00E9 LATIN SMALL LETTER E WITH ACUTE");
    // windows-1252 reads the two bytes apart: Ã and ©.
    harness.get_by_label_contains("C3  →  U+00C3 LATIN CAPITAL LETTER A WITH TILDE");
    harness.get_by_label_contains("A9  →  U+00A9 COPYRIGHT SIGN");
}

#[test]
fn a_missing_file_gives_a_message_not_a_crash() {
    let harness = app_with(Some(&fixture("does-not-exist.txt")));
    assert!(harness.state().session.document.is_none());
    harness.get_by_label_contains("does-not-exist.txt");
}

#[test]
fn panes_can_be_added_and_removed_within_two_to_four() {
    let mut harness = utf8_first(&fixture("utf8-errors.txt"));
    let before = harness.state().session.panes.len();
    while harness.state().session.panes.len() < 4 {
        harness.get_by_label("Add pane").click();
        settle(&mut harness);
    }
    assert!(
        harness
            .get_by_label("Add pane")
            .accesskit_node()
            .is_disabled()
    );
    assert!(before <= 4);
    harness.get_by_label("Remove pane 2").click();
    settle(&mut harness);
    assert_eq!(harness.state().session.panes.len(), 3);
    assert_eq!(pane_encodings(&harness)[0], "UTF-8");
    for pane in &harness.state().session.panes {
        assert!(pane.analysis.is_some());
    }
}

#[test]
fn recent_files_remember_the_panes() {
    let mut harness = app_with(Some(&fixture("utf8-errors.txt")));
    harness.state_mut().push(Command::SetEncoding {
        pane: 1,
        encoding: SHIFT_JIS,
    });
    settle(&mut harness);
    harness.state_mut().push(Command::Open(fixture("utf8.txt")));
    settle(&mut harness);
    harness
        .state_mut()
        .push(Command::Open(fixture("utf8-errors.txt")));
    settle(&mut harness);
    assert_eq!(pane_encodings(&harness)[1], "Shift_JIS");
    let recent = &harness.state().settings.recent;
    assert_eq!(recent[0].path, fixture("utf8-errors.txt"));
    assert_eq!(recent[1].path, fixture("utf8.txt"));
}

/// With the machine's fonts (as the real app uses them), every script of
/// the fixtures has glyphs: kittest fails on a missing one.
#[test]
fn every_script_of_the_fixtures_has_glyphs() {
    let app = InspectorApp::new(Settings::default(), Some(&fixture("utf8.txt")));
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_context_setup(|ctx| {
            ctx.add_font_provider(Arc::new(
                egui_system_font_provider::SystemFontProvider::new(),
            ));
        })
        .build_ui_state(|ui, app: &mut InspectorApp| app.ui(ui), app);
    settle(&mut harness);
    assert!(harness.query_all_by_label("no errors").count() >= 1);
}

#[test]
fn the_error_list_opens_over_the_pane_and_selects_an_error() {
    let mut harness = utf8_first(&fixture("utf8-errors.txt"));
    harness.get_by_label("List ▾").click();
    harness.run_steps(2);
    harness
        .get_by_label_contains("0x00000015  FE          invalid byte")
        .click();
    harness.run_steps(2);
    let selection = harness.state().session.selection.expect("a selection");
    assert_eq!(selection.span, ByteSpan::new(21, 22));
    harness.get_by_label_contains("FE  →  error: invalid byte");
    // The list closed: the pane's rows are in view again.
    assert!(harness.query_by_label_contains("0x00000006").is_none());
}

/// Runs frames until `done` holds (bounded).
fn run_until(harness: &mut Harness<'_, InspectorApp>, done: impl Fn(&InspectorApp) -> bool) {
    for _ in 0..3000 {
        harness.step();
        if done(harness.state()) {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the app never got there");
}

#[test]
fn a_50_mib_file_shows_its_first_rows_at_once_and_every_error_in_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.log");
    // 50 MiB of UTF-8 log lines, with one invalid byte in every MiB.
    let mut bytes = Vec::with_capacity(50 << 20);
    let mut line = 0u64;
    let mut errors = 0u64;
    while bytes.len() < 50 << 20 {
        let before = bytes.len() >> 20;
        bytes.extend_from_slice(format!("{line:08} Grüße, κόσμε, 世界: all well\n").as_bytes());
        if bytes.len() >> 20 != before {
            bytes.extend_from_slice(b"\xFF bad\n");
            errors += 1;
        }
        line += 1;
    }
    std::fs::write(&path, &bytes).unwrap();

    // The UTF-8 decode first (detection may rank a single-byte encoding
    // first for a file with errors).
    let mut settings = Settings::default();
    settings.remember(&path, &[UTF_8, WINDOWS_1252]);
    let app = InspectorApp::new(settings, Some(&path));
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .allow_missing_glyphs()
        .build_ui_state(|ui, app: &mut InspectorApp| app.ui(ui), app);
    let session = |app: &InspectorApp| app.session.document.as_ref().map(|d| d.bytes.is_mapped());
    assert_eq!(
        session(harness.state()),
        Some(true),
        "a large file is mapped"
    );
    // The first rows come from a snapshot of the primary pane's analysis,
    // long before the whole file is done.
    run_until(&mut harness, |app| app.session.lines.is_some());
    harness.run_steps(2);
    harness.get_by_label_contains("Decoded text, pane 1");
    settle(&mut harness);
    let session = &harness.state().session;
    let primary = session.panes[0].analysis.as_ref().unwrap();
    assert!(primary.is_complete());
    assert_eq!(primary.errors, errors);
    harness.get_by_label(&format!("{errors} errors"));
    let rows = session.lines.as_ref().unwrap().row_count();
    assert_eq!(rows, line + errors);

    // Go to the last byte: every view follows, and the inspector reads it.
    let last = bytes.len() as u64 - 1;
    harness.state_mut().push(Command::GoTo(last));
    harness.run_steps(3);
    let session = &harness.state().session;
    assert_eq!(
        session.selection.map(|s| s.span),
        Some(ByteSpan::new(last, last + 1))
    );
    assert!(
        harness.state().views.pane_position.top_row + 50 >= rows - 1,
        "scrolled to the end"
    );
    assert!(
        harness
            .query_all_by_label_contains("0A  →  U+000A <control>")
            .count()
            >= 1
    );
}

#[test]
fn a_file_changed_on_disk_is_reloaded_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    std::fs::copy(fixture("utf8-errors.txt"), &path).unwrap();
    let mut harness = utf8_first(&path);
    harness.get_by_label("4 errors");
    harness.state_mut().push(Command::Select(Selection {
        span: ByteSpan::new(3, 5),
        origin: SelectionOrigin::Hex,
    }));
    harness.run_steps(2);
    // Saved by an editor: a new file renamed over the old one.
    let mut content = std::fs::read(&path).unwrap();
    content.extend_from_slice(b"one more \x80\n");
    let temporary = dir.path().join(".notes.txt.tmp");
    std::fs::write(&temporary, &content).unwrap();
    std::fs::rename(&temporary, &path).unwrap();
    run_until(&mut harness, |app| {
        app.session
            .panes
            .first()
            .and_then(|p| p.analysis.as_ref())
            .map(|a| a.errors)
            == Some(5)
    });
    settle(&mut harness);
    harness.get_by_label("5 errors");
    harness.get_by_label_contains("reloaded");
    let session = &harness.state().session;
    assert_eq!(session.selection.map(|s| s.span), Some(ByteSpan::new(3, 5)));
    assert_eq!(pane_encodings(&harness)[0], "UTF-8");

    std::fs::remove_file(&path).unwrap();
    run_until(&mut harness, |app| {
        app.session
            .notice
            .as_deref()
            .is_some_and(|n| n.contains("deleted"))
    });
    // The view stays as it was.
    harness.get_by_label("5 errors");
}

#[test]
fn odd_files_open_or_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, b"").unwrap();
    let harness = app_with(Some(&empty));
    assert_eq!(
        harness
            .state()
            .session
            .lines
            .as_ref()
            .map(|l| l.row_count()),
        Some(1)
    );
    assert!(harness.query_all_by_label("no errors").count() >= 1);

    let one = dir.path().join("one.bin");
    std::fs::write(&one, b"\x80").unwrap();
    let harness = app_with(Some(&one));
    harness.get_by_label("1 error");

    let binary = dir.path().join("image.bin");
    let mut state = 0x1234_5678_u64;
    let bytes: Vec<u8> = (0..(1 << 20))
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state.to_le_bytes()[0]
        })
        .collect();
    std::fs::write(&binary, &bytes).unwrap();
    let harness = app_with(Some(&binary));
    let utf8 = harness
        .state()
        .session
        .panes
        .iter()
        .find(|pane| pane.encoding == UTF_8)
        .and_then(|pane| pane.analysis.as_ref())
        .expect("a UTF-8 pane, analysed");
    assert!(utf8.is_complete() && utf8.errors > 100_000);

    // A folder opens in the folder window (tests/folder.rs), no document.
    let harness = app_with(Some(dir.path()));
    assert!(harness.state().session.document.is_none());
    assert!(harness.state().folder.open);

    #[cfg(unix)]
    {
        let link = dir.path().join("dangling.txt");
        std::os::unix::fs::symlink(dir.path().join("gone.txt"), &link).unwrap();
        let harness = app_with(Some(&link));
        harness.get_by_label_contains("dangling.txt: no such file");
    }
}
