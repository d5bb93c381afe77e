//! Repair by hand, driven headless through `egui_kittest` as a user would:
//! a span of real mojibake selected, Edit ▸ Reinterpret selection… with the
//! readings ranked, Enter to apply, Ctrl+Z and Ctrl+Shift+Z, the Mojibake
//! lab and its "Apply back to the selection", and Save as writing the
//! reinterpreted text; and the Repair window's accepted changes applied
//! to the pane as one step.

mod common;

use std::fs;
use std::path::Path;

use common::{is_enabled, run_until, scratch};
use eframe::egui::{self, accesskit::Role};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use mojiscope::app::InspectorApp;
use mojiscope::model::command::Command;
use mojiscope::model::repair::manual::{HandRepair, Misreading};
use mojiscope::model::selection::{Selection, SelectionOrigin};
use mojiscope::model::settings::Settings;
use mojiscope::ui::reinterpret::DOS_HEADING;
use mojiscope_core::{ByteSpan, UTF_8, WINDOWS_1252};

/// The Declaration of 1789 as UTF-8 read as windows-1252 and saved as
/// UTF-8 (the built-in sample).
const SAMPLE: &[u8] = include_bytes!("../samples/double-encoded.txt");
/// A span of it, and what it reads as undone.
const SPAN: &str = "ne peuvent Ãªtre fondÃ©es que sur l'utilitÃ© commune";
const UNDONE: &str = "ne peuvent être fondées que sur l'utilité commune";

fn app_with(file: &Path) -> Harness<'static, InspectorApp> {
    let mut settings = Settings::default();
    settings.remember(file, &[UTF_8, WINDOWS_1252]);
    common::app_with(file, settings)
}

/// Selects `needle`'s bytes in the first pane.
fn select(harness: &mut Harness<'_, InspectorApp>, needle: &str) -> ByteSpan {
    let text = std::str::from_utf8(SAMPLE).expect("the sample is UTF-8");
    select_in(harness, text, needle)
}

/// Selects `needle`'s bytes in the first pane, the file being `text` in
/// UTF-8.
fn select_in(harness: &mut Harness<'_, InspectorApp>, text: &str, needle: &str) -> ByteSpan {
    let start = text.find(needle).expect("the span is in the file") as u64;
    let span = ByteSpan::new(start, start + needle.len() as u64);
    harness.state_mut().push(Command::FocusPane(0));
    harness.state_mut().push(Command::Select(Selection {
        span,
        origin: SelectionOrigin::Pane(0),
    }));
    harness.run_steps(2);
    span
}

/// The text Save as would write now, by hand: the sample with each edit.
/// Selects `needle` in pane 1 and reinterprets it with the reading the
/// Reinterpret window ranks first (Ctrl+E, then Enter), as a user does.
fn reinterpret_with_best_reading(harness: &mut Harness<'_, InspectorApp>, needle: &str) {
    select(harness, needle);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::E);
    harness.run_steps(3);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(3);
}

fn expected(replacements: &[(&str, &str)]) -> String {
    let mut text = String::from_utf8(SAMPLE.to_vec()).expect("the sample is UTF-8");
    for (from, to) in replacements {
        text = text.replacen(from, to, 1);
    }
    text
}

#[test]
fn a_mojibake_span_gets_its_readings_ranked_and_enter_applies_the_best() {
    let (_dir, path) = scratch("declaration.txt", SAMPLE);
    let mut harness = app_with(&path);
    let span = select(&mut harness, SPAN);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::E);
    harness.run_steps(3);
    let view = harness
        .state()
        .reinterpret
        .as_ref()
        .expect("Ctrl+E opens it");
    // The best reading first, named for people; the span as it is ranked
    // below; no two readings that mean the same to a user.
    let proposals = view.proposals();
    assert_eq!(proposals[0].name, "UTF-8 read as windows-1252");
    assert_eq!(proposals[0].reading.text, UNDONE);
    assert!(proposals.iter().skip(1).any(|p| p.name == "as it is"));
    assert!(proposals.iter().all(|p| !p.name.contains("code points")));
    harness.get_by_label("Reinterpret selection");
    harness.get_by_label(&format!("UTF-8 read as windows-1252: {UNDONE}"));
    harness.get_by_label("Nothing lost.");
    assert!(is_enabled(&harness, "Apply"));
    // Enter applies the chosen reading; the window closes, and the focus
    // goes back to the pane.
    harness.key_press(egui::Key::Enter);
    harness.run_steps(3);
    assert!(harness.state().reinterpret.is_none());
    let focused = harness.ctx.memory(egui::Memory::focused);
    assert!(focused.is_some());
    assert_eq!(focused, harness.state().views.readings.pane_id(0));
    let edits = harness.state().edits.edits();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0].span, span);
    assert_eq!(edits[0].original, SPAN);
    assert_eq!(edits[0].replacement.text, UNDONE);
    // The file is as it was.
    assert_eq!(fs::read(&path).unwrap(), SAMPLE);
}

#[test]
fn a_chain_by_hand_shows_what_it_loses_and_escape_cancels() {
    let (_dir, path) = scratch("declaration.txt", SAMPLE);
    let mut harness = app_with(&path);
    select(&mut harness, SPAN);
    harness
        .state_mut()
        .push(Command::HandRepair(HandRepair::Reinterpret));
    harness.run_steps(3);
    // Say it was UTF-8 read as windows-1251 instead.
    let view = harness.state_mut().reinterpret.as_mut().unwrap();
    view.set_by_hand(vec![mojiscope::model::repair::manual::Misreading {
        encoded_as: UTF_8,
        decoded_as: mojiscope_core::WINDOWS_1251.into(),
    }]);
    harness.run_steps(2);
    // The three "Ã" and the "ª" have no windows-1251 byte, and each "©"
    // left alone is a byte UTF-8 does not decode: each is lost and marked.
    let (reading, how) = harness.state().reinterpret.as_ref().unwrap().chosen();
    assert_eq!(how, "UTF-8 read as windows-1251");
    assert_eq!(reading.lost.len(), 6);
    assert_eq!(reading.text.matches('\u{FFFD}').count(), 6);
    harness.get_by_label_contains("6 characters lost, marked (U+FFFD)");
    harness.key_press(egui::Key::Escape);
    harness.run_steps(3);
    assert!(harness.state().reinterpret.is_none());
    assert!(harness.state().edits.edits().is_empty());
}

#[test]
fn undo_and_redo_take_a_reinterpretation_back_and_forth() {
    let (_dir, path) = scratch("declaration.txt", SAMPLE);
    let mut harness = app_with(&path);
    select(&mut harness, "DÃ©claration");
    harness
        .state_mut()
        .push(Command::HandRepair(HandRepair::Reinterpret));
    harness.run_steps(3);
    harness.get_by_label("Apply").click();
    harness.run_steps(3);
    reinterpret_with_best_reading(&mut harness, SPAN);
    let texts = |harness: &Harness<'_, InspectorApp>| -> Vec<String> {
        harness
            .state()
            .edits
            .edits()
            .iter()
            .map(|edit| edit.replacement.text.clone())
            .collect()
    };
    assert_eq!(texts(&harness), ["Déclaration", UNDONE]);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    assert_eq!(texts(&harness), ["Déclaration"]);
    harness.get_by_label_contains("undone: UTF-8 read as windows-1252 at bytes");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    assert!(texts(&harness).is_empty());
    harness.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    harness.run_steps(2);
    assert_eq!(texts(&harness), ["Déclaration"]);
    // The Edit menu offers the same.
    harness
        .state_mut()
        .push(Command::HandRepair(HandRepair::Redo));
    harness.run_steps(2);
    assert_eq!(texts(&harness), ["Déclaration", UNDONE]);
}

#[test]
fn the_lab_gets_the_selection_and_applies_its_result_back_to_it() {
    let (_dir, path) = scratch("declaration.txt", SAMPLE);
    let mut harness = app_with(&path);
    let span = select(&mut harness, "l'utilitÃ© commune");
    harness
        .state_mut()
        .push(Command::HandRepair(HandRepair::SendToLab));
    harness.run_steps(3);
    let lab = &harness.state().teaching.lab;
    assert!(lab.is_linked());
    // The lab starts from the selection and undoes the best reading.
    assert_eq!(lab.describe(), "encode as windows-1252, decode as UTF-8");
    harness.get_by_label("Apply back to the selection").click();
    harness.run_steps(3);
    let edits = harness.state().edits.edits();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0].span, span);
    assert_eq!(edits[0].replacement.text, "l'utilité commune");
    assert!(
        edits[0].how.contains("from the Mojibake lab"),
        "{}",
        edits[0].how
    );
}

#[test]
fn save_as_after_a_reinterpretation_writes_the_reinterpreted_text() {
    let (dir, path) = scratch("declaration.txt", SAMPLE);
    let mut harness = app_with(&path);
    reinterpret_with_best_reading(&mut harness, SPAN);
    harness.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::S,
    );
    harness.run_steps(4);
    assert!(harness.state().save.is_open());
    run_until(&mut harness, |app| {
        app.save.preview().is_some() && app.is_idle()
    });
    harness
        .get_by_label_contains("declaration.txt decoded as UTF-8, with 1 reinterpretation by hand");
    harness.get_by_label("Save").click();
    harness.run_steps(4);
    run_until(&mut harness, |app| !app.save.is_open());
    let written = fs::read_to_string(dir.path().join("declaration.utf-8.txt")).unwrap();
    assert_eq!(written, expected(&[(SPAN, UNDONE)]));
    assert!(
        written.contains("DÃ©claration"),
        "only the span was changed"
    );
}

#[test]
fn save_as_writes_what_the_pane_shows_after_its_encoding_changed_and_says_so() {
    let (dir, path) = scratch("declaration.txt", SAMPLE);
    let mut harness = app_with(&path);
    reinterpret_with_best_reading(&mut harness, SPAN);
    // Read as windows-1252, the pane shows no reinterpretation: Save as
    // writes that reading, and says the reinterpretation is left out.
    read_pane_as(&mut harness, WINDOWS_1252);
    harness.state_mut().push(Command::SaveAs);
    harness.run_steps(4);
    run_until(&mut harness, |app| {
        app.save.preview().is_some() && app.is_idle()
    });
    let notice = harness.state().session.notice.clone().unwrap_or_default();
    assert!(
        notice.starts_with(
            "saving pane 1 as it reads now (windows-1252), without its 1 reinterpretation by hand"
        ),
        "{notice}"
    );
    harness.get_by_label_contains("declaration.txt decoded as windows-1252");
    harness.get_by_label("Save").click();
    harness.run_steps(4);
    run_until(&mut harness, |app| !app.save.is_open());
    let written = fs::read_to_string(dir.path().join("declaration.utf-8.txt")).unwrap();
    let (shown, _, _) = encoding_rs::WINDOWS_1252.decode(SAMPLE);
    assert_eq!(written, shown);
    // Read as UTF-8 again, it writes the reinterpretation.
    read_pane_as(&mut harness, UTF_8);
    harness.state_mut().push(Command::SaveAs);
    harness.run_steps(4);
    run_until(&mut harness, |app| {
        app.save.preview().is_some() && app.is_idle()
    });
    harness
        .get_by_label_contains("declaration.txt decoded as UTF-8, with 1 reinterpretation by hand");
}

#[test]
fn explain_opens_the_decoders_steps_for_the_selection() {
    let (_dir, path) = scratch("declaration.txt", SAMPLE);
    let mut harness = app_with(&path);
    select(&mut harness, "Ã©");
    assert!(harness.state().views.inspector.explain.shown(0).is_none());
    harness
        .state_mut()
        .push(Command::HandRepair(HandRepair::Explain));
    harness.run_steps(4);
    let shown = harness
        .state()
        .views
        .inspector
        .explain
        .shown(0)
        .expect("pane 1's steps are open");
    assert_eq!(shown.encoding, UTF_8);
    // "Ã" and "©" are two UTF-8 sequences of two bytes each.
    assert_eq!(shown.items.len(), 2);
}

#[test]
fn save_repaired_text_keeps_both_the_accepted_changes_and_the_reinterpretations() {
    let (dir, path) = scratch("declaration.txt", SAMPLE);
    let mut harness = app_with(&path);
    harness.state_mut().push(Command::Repair);
    run_until(&mut harness, |app| app.repair.review().is_some());
    let repaired = harness.state().repair.review().unwrap().accepted_text();
    assert!(repaired.starts_with("Déclaration des droits"), "{repaired}");
    // The title read another way by hand, over the repair's change.
    let manual = reinterpret_title_as_windows_1251(&mut harness);
    harness.get_by_label("Save repaired text as…").click();
    harness.run_steps(4);
    // The title lost characters: they are kept on purpose, as Save asks.
    assert!(manual.contains('\u{FFFD}'), "{manual}");
    let written = save_keeping_the_damage(&mut harness, dir.path());
    assert_eq!(written, repaired.replacen("Déclaration", &manual, 1));
}

/// Completes the open Save as, keeping the U+FFFD the text holds, and
/// returns what it wrote (UTF-8, beside the sample in `dir`).
fn save_keeping_the_damage(harness: &mut Harness<'_, InspectorApp>, dir: &Path) -> String {
    run_until(harness, |app| app.save.preview().is_some() && app.is_idle());
    harness
        .get_by_label("Keep the damage: save the U+FFFD on purpose")
        .click();
    harness.run_steps(4);
    harness.get_by_label("Save").click();
    harness.run_steps(4);
    run_until(harness, |app| !app.save.is_open());
    fs::read_to_string(dir.join("declaration.utf-8.txt")).expect("Save as wrote the file")
}

/// Pane 1 read as `encoding`, once every job is done.
fn read_pane_as(
    harness: &mut Harness<'_, InspectorApp>,
    encoding: &'static mojiscope_core::Encoding,
) {
    harness
        .state_mut()
        .push(Command::SetEncoding { pane: 0, encoding });
    run_until(harness, InspectorApp::is_idle);
}

/// The Repair window's changes applied to the pane: what the status line
/// says of it.
fn apply_repaired(harness: &mut Harness<'_, InspectorApp>) -> String {
    harness.state_mut().push(Command::ApplyRepaired);
    harness.run_steps(3);
    harness.state().session.notice.clone().unwrap_or_default()
}

/// Reinterprets the sample's title by hand as UTF-8 read as windows-1251
/// (Edit ▸ Reinterpret selection…, a chain said by hand, Apply): what it
/// made of it.
fn reinterpret_title_as_windows_1251(harness: &mut Harness<'_, InspectorApp>) -> String {
    select(harness, "DÃ©claration");
    harness
        .state_mut()
        .push(Command::HandRepair(HandRepair::Reinterpret));
    harness.run_steps(3);
    harness
        .state_mut()
        .reinterpret
        .as_mut()
        .expect("the Reinterpret window is open")
        .set_by_hand(vec![Misreading {
            encoded_as: UTF_8,
            decoded_as: mojiscope_core::WINDOWS_1251.into(),
        }]);
    harness.run_steps(2);
    let manual = harness
        .state()
        .reinterpret
        .as_ref()
        .expect("the Reinterpret window is open")
        .chosen()
        .0
        .text
        .clone();
    assert_ne!(manual, "Déclaration");
    harness.get_by_label("Apply").click();
    harness.run_steps(3);
    manual
}

/// The rows of the panes a screen reader gets whose text holds `needle`:
/// each row's text and its description.
fn rows_with(harness: &Harness<'_, InspectorApp>, needle: &str) -> Vec<(String, String)> {
    harness
        .query_all_by(|node| {
            node.role() == Role::Label
                && node.value().is_some_and(|text| text.contains(needle))
                && node
                    .description()
                    .is_some_and(|description| description.starts_with("row "))
        })
        .map(|node| {
            let node = node.accesskit_node();
            (
                node.value().unwrap_or_default(),
                node.description().unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn the_pane_shows_the_reinterpretation_in_place_and_undo_brings_the_original_back() {
    let (_dir, path) = scratch("declaration.txt", SAMPLE);
    let mut harness = app_with(&path);
    // Pane 1 reads the bytes as they decode.
    assert_eq!(rows_with(&harness, SPAN).len(), 1);
    assert!(rows_with(&harness, UNDONE).is_empty());
    reinterpret_with_best_reading(&mut harness, SPAN);
    // Now it reads the reinterpretation in place of the span, and only
    // there: the rest of the line is as it decodes.
    let rows = rows_with(&harness, UNDONE);
    assert_eq!(rows.len(), 1, "{rows:?}");
    let (text, description) = &rows[0];
    assert!(
        text.ends_with(&format!("distinctions sociales {UNDONE}.")),
        "{text}"
    );
    assert!(text.contains("libres et Ã©gaux"), "{text}");
    assert!(rows_with(&harness, SPAN).is_empty());
    // A screen reader hears what it replaced, and how.
    assert!(
        description.contains(&format!(
            "Reinterpreted by hand: \u{201C}{UNDONE}\u{201D}, was \u{201C}{SPAN}\u{201D}."
        )),
        "{description}"
    );
    assert!(
        description.contains("Undone: UTF-8 read as windows-1252 at bytes"),
        "{description}"
    );
    harness.get_by_label("Decoded text, pane 1: UTF-8, with 1 reinterpretation by hand");
    // Pane 2 reads the file as it is.
    harness.get_by_label("Decoded text, pane 2: windows-1252");
    // Undo brings the bytes' own reading back; Redo the reinterpretation.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(3);
    assert!(rows_with(&harness, UNDONE).is_empty());
    let rows = rows_with(&harness, SPAN);
    assert_eq!(rows.len(), 1);
    assert!(!rows[0].1.contains("Reinterpreted"), "{}", rows[0].1);
    harness.get_by_label("Decoded text, pane 1: UTF-8");
    harness.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    harness.run_steps(3);
    assert_eq!(rows_with(&harness, UNDONE).len(), 1);
    // Read as another encoding, the pane's text is not the one they were
    // made in: it shows none; read so again, it shows them again.
    for (encoding, shown) in [(mojiscope_core::WINDOWS_1251, 0), (UTF_8, 1)] {
        harness
            .state_mut()
            .push(Command::SetEncoding { pane: 0, encoding });
        run_until(&mut harness, InspectorApp::is_idle);
        assert_eq!(rows_with(&harness, UNDONE).len(), shown, "{encoding:?}");
    }
}

#[test]
fn a_reinterpreted_character_tells_what_it_replaced_and_selects_all_its_bytes() {
    let (_dir, path) = scratch("declaration.txt", SAMPLE);
    let mut harness = app_with(&path);
    harness.ctx.all_styles_mut(|style| {
        style.interaction.tooltip_delay = 0.0;
    });
    let word = select(&mut harness, "DÃ©claration");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::E);
    harness.run_steps(3);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(3);
    let title = "Déclaration des droits de l'homme et du citoyen de 1789";
    let row = harness
        .query_all_by_label(title)
        .find(|node| node.accesskit_node().role() == Role::Label)
        .expect("pane 1's first row")
        .rect();
    // Something else selected, then the pointer on the row's first
    // character, the "D" of the reinterpreted word.
    select(&mut harness, "homme");
    let line = mojiscope::ui::readings::line_height_in(&harness.ctx);
    let pos = egui::pos2(row.left() + 3.0, row.top() + line / 2.0);
    harness.hover_at(pos);
    harness.run_steps(3);
    harness.get_by_label(
        "Reinterpreted by hand: \u{201C}Déclaration\u{201D}, was \u{201C}DÃ©claration\u{201D}.",
    );
    // A click selects every byte the reinterpretation replaced: its
    // characters are not each some of them.
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        harness.step();
    }
    harness.run_steps(2);
    let selection = harness.state().session.selection.expect("a selection");
    assert_eq!(selection.span, word);
}

/// A menu as a DOS console showed it: UTF-8 read as code page 437.
const CONSOLE: &str = "Menu du jour\nLe caf├⌐ co├╗te 3 Γé¼, le th├⌐ 2 Γé¼.\n";

#[test]
fn a_dos_console_page_can_be_said_by_hand_with_the_keyboard() {
    let (_dir, path) = scratch("menu.txt", CONSOLE.as_bytes());
    let mut harness = app_with(&path);
    select_in(&mut harness, CONSOLE, "Le caf├⌐ co├╗te 3 Γé¼");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::E);
    harness.run_steps(3);
    // Say it was read as windows-1252, then change that to cp437 from the
    // keyboard: Tab to "and decoded as", open it, arrows down to cp437.
    harness
        .state_mut()
        .reinterpret
        .as_mut()
        .unwrap()
        .set_by_hand(vec![Misreading {
            encoded_as: UTF_8,
            decoded_as: WINDOWS_1252.into(),
        }]);
    harness.run_steps(2);
    #[expect(
        clippy::redundant_closure_for_method_calls,
        reason = "the method's lifetimes are not general enough for query_by"
    )]
    let focused_label = |harness: &Harness<'_, InspectorApp>| {
        harness
            .query_by(|node| node.is_focused())
            .and_then(|node| node.accesskit_node().label())
            .unwrap_or_default()
    };
    for _ in 0..40 {
        if focused_label(&harness) == "and decoded as" {
            break;
        }
        harness.key_press(egui::Key::Tab);
        harness.run_steps(1);
    }
    assert_eq!(focused_label(&harness), "and decoded as");
    harness.key_press(egui::Key::Space);
    harness.run_steps(2);
    // The DOS pages come last, said to be no encodings of the standard.
    harness.get_by_label(DOS_HEADING);
    let cp437 = "cp437: DOS console, United States (box drawing)";
    for _ in 0..80 {
        if focused_label(&harness) == cp437 {
            break;
        }
        harness.key_press(egui::Key::ArrowDown);
        harness.run_steps(1);
    }
    assert_eq!(focused_label(&harness), cp437);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(3);
    let (reading, how) = harness.state().reinterpret.as_ref().unwrap().chosen();
    assert_eq!(reading.text, "Le café coûte 3 €");
    assert!(reading.lost.is_empty());
    assert_eq!(how, "UTF-8 read as cp437 (not in the Encoding Standard)");
    harness.get_by_label("Nothing lost.");
    // Enter applies it, and the pane shows it.
    harness.key_press(egui::Key::Enter);
    harness.run_steps(3);
    assert!(harness.state().reinterpret.is_none());
    let rows = rows_with(&harness, "Le café coûte 3 €, le th├⌐ 2 Γé¼.");
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert!(
        rows[0]
            .1
            .contains("Undone: UTF-8 read as cp437 (not in the Encoding Standard)")
    );
}

/// A windows-1252 text read by a decoder that keeps the C1 controls
/// (ISO-8859-1 taken byte for code point) and saved as UTF-8.
const C1_CONTROLS: &str = "Il a dit \u{93}bonjour\u{94} \u{96} puis il est parti.\n";

#[test]
fn the_lab_names_the_chains_it_proposes_as_people_say_them() {
    let (_dir, path) = scratch("quote.txt", C1_CONTROLS.as_bytes());
    let mut harness = app_with(&path);
    select_in(&mut harness, C1_CONTROLS, "\u{93}bonjour\u{94} \u{96} puis");
    harness
        .state_mut()
        .push(Command::HandRepair(HandRepair::SendToLab));
    harness.run_steps(3);
    // The lab starts on the steps that undo it; without them, its repair
    // proposes the chain, named as the Repair window names it: no
    // "(bytes as code points)".
    for _ in 0..2 {
        harness.get_by_label("Remove last step").click();
        harness.run_steps(2);
    }
    harness.get_by_label("encoded as ISO-8859-1, decoded as windows-1252: “bonjour” – puis");
    assert!(harness.query_by_label_contains("code points").is_none());
}

/// Copies the selection (the event a window system turns Ctrl+C into);
/// what the app put on the clipboard.
fn copy(harness: &mut Harness<'_, InspectorApp>) -> Option<String> {
    harness.event(egui::Event::Copy);
    harness.step();
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
fn copying_from_the_pane_copies_what_it_shows() {
    let (_dir, path) = scratch("declaration.txt", SAMPLE);
    let mut harness = app_with(&path);
    reinterpret_with_best_reading(&mut harness, SPAN);
    // A selection around the reinterpreted span copies it as the pane
    // shows it.
    let around = format!("distinctions sociales {SPAN}.");
    select(&mut harness, &around);
    let shown = format!("distinctions sociales {UNDONE}.");
    assert_eq!(copy(&mut harness).as_deref(), Some(shown.as_str()));
    // Undone, the bytes' own text again.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(3);
    select(&mut harness, &around);
    assert_eq!(copy(&mut harness).as_deref(), Some(around.as_str()));
}

#[test]
fn the_repairs_accepted_changes_apply_to_the_pane_as_one_step_that_undo_takes_back() {
    let (dir, path) = scratch("declaration.txt", SAMPLE);
    let mut harness = app_with(&path);
    harness.state_mut().push(Command::Repair);
    run_until(&mut harness, |app| app.repair.review().is_some());
    let review = harness.state().repair.review().unwrap();
    let accepted = review.accepted_count();
    let repaired = review.accepted_text();
    assert!(accepted > 1, "{accepted}");
    assert!(repaired.contains(UNDONE), "{repaired}");
    assert_eq!(rows_with(&harness, SPAN).len(), 1);
    assert!(rows_with(&harness, UNDONE).is_empty());
    harness.get_by_label("Apply to the pane").click();
    harness.run_steps(4);
    // The pane reads the repaired text in place, says so, and a screen
    // reader hears each change as a repair, with what it replaced.
    let rows = rows_with(&harness, UNDONE);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert!(rows_with(&harness, SPAN).is_empty());
    let (text, description) = &rows[0];
    assert!(text.contains("libres et égaux"), "{text}");
    assert!(description.contains("Repaired: \u{201C}"), "{description}");
    assert!(
        description.contains("Undone: UTF-8 read as windows-1252 at bytes"),
        "{description}"
    );
    assert!(!description.contains("by hand"), "{description}");
    harness.get_by_label(&format!(
        "Decoded text, pane 1: UTF-8, with {accepted} repairs"
    ));
    let notice = harness.state().session.notice.clone().unwrap_or_default();
    assert!(
        notice.starts_with(&format!("applied {accepted} changes to pane 1;")),
        "{notice}"
    );
    // Read in another encoding, the pane is not the text the repair was
    // of: nothing is applied, and the status line says why.
    read_pane_as(&mut harness, WINDOWS_1252);
    let notice = apply_repaired(&mut harness);
    assert!(
        notice.starts_with("cannot apply the repair: pane 1 now reads the file as windows-1252"),
        "{notice}"
    );
    read_pane_as(&mut harness, UTF_8);
    // Applying again changes nothing: they are in place.
    let notice = apply_repaired(&mut harness);
    assert!(notice.starts_with("nothing to apply"), "{notice}");
    // One Ctrl+Z takes every one of them back, Ctrl+Shift+Z brings them.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(3);
    assert!(rows_with(&harness, UNDONE).is_empty());
    assert_eq!(rows_with(&harness, SPAN).len(), 1);
    harness.get_by_label("Decoded text, pane 1: UTF-8");
    harness.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    harness.run_steps(3);
    assert_eq!(rows_with(&harness, UNDONE).len(), 1);
    // A reinterpretation by hand over one of them replaces it; File ▸ Save
    // as writes the text with both.
    let manual = reinterpret_title_as_windows_1251(&mut harness);
    harness.get_by_label(&format!(
        "Decoded text, pane 1: UTF-8, with {} repairs and 1 reinterpretation by hand",
        accepted - 1
    ));
    harness.state_mut().push(Command::SaveAs);
    harness.run_steps(4);
    let written = save_keeping_the_damage(&mut harness, dir.path());
    assert_eq!(written, repaired.replacen("Déclaration", &manual, 1));
}

#[test]
fn the_verdict_line_says_what_is_applied_and_whether_it_is_saved() {
    let (dir, path) = scratch("declaration.txt", SAMPLE);
    let mut harness = app_with(&path);
    let verdict = |harness: &Harness<'_, InspectorApp>| {
        harness
            .query_all_by(|node| {
                node.role() == Role::Label
                    && node
                        .label()
                        .or_else(|| node.value())
                        .is_some_and(|label| label.contains("read as windows-1252"))
            })
            .find_map(|node| {
                let node = node.accesskit_node();
                node.label().or_else(|| node.value())
            })
            .unwrap_or_default()
    };
    run_until(&mut harness, InspectorApp::is_idle);
    harness.run_steps(2);
    assert!(
        verdict(&harness).starts_with("Looks like UTF-8 read as windows-1252"),
        "{}",
        verdict(&harness)
    );
    let accepted = repair_and_apply(&mut harness);
    // The file on disk still holds the mojibake, but the user has dealt
    // with it: what is left to do is to save, one click away.
    let line = verdict(&harness);
    assert_eq!(
        line,
        format!(
            "UTF-8 read as windows-1252, repaired: {accepted} changes applied in pane 1, \
             not saved yet"
        )
    );
    // The Repair window, still open, leaves the line and its button
    // uncovered.
    assert!(harness.state().repair_window.is_open());
    harness.get_by_label("Save as…").click();
    harness.run_steps(4);
    assert!(harness.state().save.is_open());
    click_save(&mut harness);
    let written = fs::read_to_string(dir.path().join("declaration.utf-8.txt")).unwrap();
    assert!(written.contains(UNDONE), "{written}");
    assert!(
        verdict(&harness).ends_with(", saved"),
        "{}",
        verdict(&harness)
    );
    assert!(harness.query_by_label("Save as…").is_none());
}

#[test]
fn changes_not_saved_are_not_dropped_without_asking() {
    let (dir, path) = scratch("declaration.txt", SAMPLE);
    let other = dir.path().join("other.txt");
    fs::write(&other, "plain text\n").unwrap();
    let mut harness = app_with(&path);
    repair_and_apply(&mut harness);
    assert!(harness.state().unsaved_changes().is_some());
    // Closing the file asks, and Cancel keeps everything.
    harness.state_mut().push(Command::Close);
    harness.run_steps(3);
    assert!(harness.state().leaving().is_some());
    harness.get_by_label_contains("Closing the file drops them");
    harness.get_by_label("Cancel").click();
    harness.run_steps(3);
    assert!(harness.state().leaving().is_none());
    assert!(harness.state().session.document.is_some());
    assert_eq!(rows_with(&harness, UNDONE).len(), 1);
    // Closing the window asks too.
    harness
        .input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .events
        .push(egui::ViewportEvent::Close);
    harness.run_steps(2);
    harness.get_by_label_contains("Closing the window drops them");
    harness.key_press(egui::Key::Escape);
    harness.run_steps(3);
    assert!(harness.state().leaving().is_none());
    // Opening another file asks; Discard opens it.
    harness.state_mut().push(Command::Open(other.clone()));
    harness.run_steps(3);
    harness.get_by_label_contains("Opening another file drops them");
    harness.get_by_label("Discard changes").click();
    harness.run_steps(3);
    run_until(&mut harness, InspectorApp::is_idle);
    assert_eq!(
        harness
            .state()
            .session
            .document
            .as_ref()
            .map(|d| d.path.clone()),
        Some(other)
    );
    assert!(harness.state().unsaved_changes().is_none());
    // With nothing applied, nothing asks.
    harness.state_mut().push(Command::Close);
    harness.run_steps(3);
    assert!(harness.state().leaving().is_none());
    assert!(harness.state().session.document.is_none());
}

/// Clicks Save in the open Save as dialog once its preview is ready, and
/// waits for the dialog to close.
fn click_save(harness: &mut Harness<'_, InspectorApp>) {
    run_until(harness, |app| app.save.preview().is_some() && app.is_idle());
    harness.get_by_label("Save").click();
    harness.run_steps(4);
    run_until(harness, |app| !app.save.is_open());
    harness.run_steps(3);
}

/// The question's "Save as…", by keyboard (it has the focus): Save as
/// opens on the pane with the changes, whichever pane has the focus.
fn save_from_the_question(harness: &mut Harness<'_, InspectorApp>, leave: Command) {
    harness.state_mut().push(Command::FocusPane(1));
    harness.run_steps(2);
    assert_eq!(harness.state().session.focused_pane, 1);
    harness.state_mut().push(leave);
    harness.run_steps(3);
    assert!(harness.state().leaving().is_some());
    harness.key_press(egui::Key::Enter);
    harness.run_steps(4);
    assert!(harness.state().leaving().is_none());
    assert!(harness.state().save.is_open());
    assert_eq!(harness.state().session.focused_pane, 0);
    assert_eq!(
        harness.state().session.notice.as_deref(),
        Some("Closing the file waits for the save; closing Save as without saving cancels it")
    );
    run_until(harness, |app| app.save.preview().is_some() && app.is_idle());
}

#[test]
fn after_save_as_what_asked_goes_on() {
    let (dir, path) = scratch("declaration.txt", SAMPLE);
    let mut harness = app_with(&path);
    repair_and_apply(&mut harness);
    save_from_the_question(&mut harness, Command::Close);
    click_save(&mut harness);
    // Saved, with the changes (pane 1's text, not the focused pane 2's),
    // and then closed, as asked.
    let written = fs::read_to_string(dir.path().join("declaration.utf-8.txt")).unwrap();
    assert!(written.contains(UNDONE), "{written}");
    assert!(harness.state().session.document.is_none());
    // What went on was let through once: new changes ask again.
    harness.state_mut().push(Command::Open(path.clone()));
    harness.run_steps(3);
    run_until(&mut harness, InspectorApp::is_idle);
    repair_and_apply(&mut harness);
    harness.state_mut().push(Command::Close);
    harness.run_steps(3);
    assert!(harness.state().leaving().is_some());
    assert!(harness.state().session.document.is_some());
}

#[test]
fn a_save_as_cancelled_leaves_the_file_open() {
    let (_dir, path) = scratch("declaration.txt", SAMPLE);
    let mut harness = app_with(&path);
    repair_and_apply(&mut harness);
    save_from_the_question(&mut harness, Command::Close);
    harness.get_by_label("Close").click();
    harness.run_steps(4);
    assert!(!harness.state().save.is_open());
    assert!(harness.state().session.document.is_some());
    assert!(harness.state().unsaved_changes().is_some());
    assert_eq!(
        harness.state().session.notice.as_deref(),
        Some("Closing the file cancelled: the changes are not saved")
    );
    // Nothing waits any more: a later save closes nothing.
    harness.state_mut().push(Command::SaveAs);
    harness.run_steps(4);
    click_save(&mut harness);
    assert!(harness.state().unsaved_changes().is_none());
    assert!(harness.state().session.document.is_some());
}

#[test]
fn a_change_on_disk_is_not_reloaded_over_changes_not_saved() {
    let (dir, path) = scratch("declaration.txt", SAMPLE);
    let mut harness = app_with(&path);
    repair_and_apply(&mut harness);
    // An editor saves the file anew.
    let mut content = SAMPLE.to_vec();
    content.extend_from_slice(b"\nOne more line.\n");
    let temporary = dir.path().join(".declaration.txt.tmp");
    fs::write(&temporary, &content).unwrap();
    fs::rename(&temporary, &path).unwrap();
    run_until(&mut harness, |app| {
        app.session
            .notice
            .as_deref()
            .is_some_and(|notice| notice.contains("not reloaded"))
    });
    let notice = harness.state().session.notice.clone().unwrap_or_default();
    assert!(
        notice.contains("pane 1's changes are not saved"),
        "{notice}"
    );
    assert_eq!(rows_with(&harness, UNDONE).len(), 1);
    assert!(harness.state().unsaved_changes().is_some());
}

/// Repairs the pane with the Repair window and applies its accepted
/// changes to the pane ("Apply to the pane"): how many there were.
fn repair_and_apply(harness: &mut Harness<'_, InspectorApp>) -> usize {
    harness.state_mut().push(Command::Repair);
    run_until(harness, |app| app.repair.review().is_some());
    let accepted = harness
        .state()
        .repair
        .review()
        .expect("the repair is done")
        .accepted_count();
    harness.get_by_label("Apply to the pane").click();
    harness.run_steps(4);
    accepted
}
