//! The teaching views, driven headless through `egui_kittest` as a user
//! reaches them: the Learn menu's windows, and the inspector's steps of
//! each pane's decoder.

use std::path::{Path, PathBuf};
use std::time::Duration;

use eframe::egui;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use mojiscope::app::InspectorApp;
use mojiscope::model::command::{Command, Lesson};
use mojiscope::model::selection::{Selection, SelectionOrigin};
use mojiscope::model::settings::Settings;
use mojiscope::ui::teaching::lab::Stage;
use mojiscope_core::{ByteSpan, SHIFT_JIS, StepKind};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The whole app, with `file` open and every job done. Glyphs may be
/// missing: these tests are about behaviour.
fn app_with(file: Option<&Path>) -> Harness<'static, InspectorApp> {
    let app = InspectorApp::new(Settings::default(), file);
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
            harness.run_steps(3);
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the background jobs did not finish in time");
}

/// Opens Learn ▸ `item` from the menu bar.
fn open_lesson(harness: &mut Harness<'_, InspectorApp>, item: &str) {
    harness.get_by_label("Learn").click();
    harness.run();
    harness.get_by_label(item).click();
    harness.run();
}

fn select(harness: &mut Harness<'_, InspectorApp>, span: ByteSpan) {
    harness.state_mut().push(Command::Select(Selection {
        span,
        origin: SelectionOrigin::Hex,
    }));
    harness.run_steps(2);
}

#[test]
fn the_learn_menu_opens_each_lesson() {
    let mut harness = app_with(None);
    for (lesson, item) in [
        (Lesson::CodePageChart, "Code page chart"),
        (Lesson::IndexBrowser, "Index browser"),
        (Lesson::WhereIs, "Where is this character?"),
        (Lesson::MojibakeLab, "Mojibake lab"),
    ] {
        assert!(!harness.state().teaching.is_open(lesson));
        open_lesson(&mut harness, item);
        assert!(harness.state().teaching.is_open(lesson), "{item}");
    }
}

#[test]
fn the_inspector_explains_shift_jis_0x82_0xa0_from_the_standard() {
    // "あいう カナ", then 0x82 before a quote, in Shift_JIS.
    let mut harness = app_with(Some(&fixture("shift_jis-quote.txt")));
    // Detection reads it as Shift_JIS: the primary pane.
    assert_eq!(harness.state().session.panes[0].encoding, SHIFT_JIS);
    select(&mut harness, ByteSpan::new(0, 2));
    // Closed until asked for: nothing is computed.
    assert!(harness.state().views.inspector.explain.shown(0).is_none());
    harness
        .get_by_label("Steps of the Shift_JIS decoder")
        .click_accesskit();
    harness.run_steps(2);
    harness.get_by_label("pointer = (0x82 − 0x81) × 188 + 0xA0 − 0x41 = 283");
    harness.get_by_label("index jis0208 at pointer 283 is U+3042 (あ)");
    harness.get_by_label_contains("82 A0 (bytes 0x0..0x2) → U+3042 HIRAGANA LETTER A");
    // Each step's number is a button that copies its address.
    harness
        .get_all_by_label("3.6")
        .next()
        .expect("step 3.6")
        .click_accesskit();
    harness.step();
    let copied = harness
        .output()
        .platform_output
        .commands
        .iter()
        .any(|command| {
            matches!(command, egui::OutputCommand::CopyText(text)
            if text == "https://encoding.spec.whatwg.org/#shift_jis-decoder")
        });
    assert!(copied, "{:?}", harness.output().platform_output.commands);
    harness.run();

    // The leading byte before a quote: an error, and the quote is restored,
    // as the Security background says.
    select(&mut harness, ByteSpan::new(0xC, 0xD));
    harness.get_by_label_contains("0x22 is not in 0x40 to 0x7E or 0x80 to 0xFC");
    harness.get_by_label_contains(
        "0x22 is an ASCII byte, so it is restored to the input and cannot be masked",
    );
    harness.get_by_label("Security background");
    let shown = harness.state().views.inspector.explain.shown(0).unwrap();
    let [item] = &shown.items[..] else {
        panic!("{:?}", shown.items)
    };
    assert_eq!(item.span, ByteSpan::new(0xC, 0xD));
    assert!(
        item.steps
            .iter()
            .any(|step| matches!(step.kind, StepKind::Restore { ascii: true, .. }))
    );
}

#[test]
fn the_chart_of_windows_1252_and_iso_8859_15_marks_the_cells_that_differ() {
    let mut harness = app_with(None);
    open_lesson(&mut harness, "Code page chart");
    let chart = &harness.state().teaching.chart;
    // The eight ISO-8859-15 changed from ISO-8859-1, and 0x80 to 0x9F,
    // where windows-1252 has 27 characters and ISO-8859-15 C1 controls.
    let differ = chart.differences();
    assert_eq!(differ.len(), 35);
    let high: Vec<u8> = differ.iter().copied().filter(|&b| b >= 0xA0).collect();
    assert_eq!(high, [0xA4, 0xA6, 0xA8, 0xB4, 0xB8, 0xBC, 0xBD, 0xBE]);
    // Exactly those cells are marked.
    assert_eq!(harness.query_all_by_label_contains("(differs)").count(), 35);
    harness.get_by_label(
        "0xA4 in windows-1252: U+00A4 CURRENCY SIGN (¤)\n\
         0xA4 in ISO-8859-15: U+20AC EURO SIGN (€)\n(differs)",
    );
    harness.get_by_label_contains("35 of 256 bytes decode differently");

    // KOI8-R against KOI8-U: the Ukrainian letters.
    harness.get_by_label("KOI8-R / KOI8-U").click();
    harness.run();
    assert_eq!(harness.state().teaching.chart.differences().len(), 10);
    assert_eq!(harness.query_all_by_label_contains("(differs)").count(), 10);

    // Why "iso-8859-1" is windows-1252: computed, and shown against
    // isomorphic decoding, where exactly the 27 C1 cells differ.
    harness.get_by_label_contains("maps the label iso-8859-1 to windows-1252");
    harness.get_by_label_contains("decodes 27 of those 32 bytes");
    harness
        .get_by_label("Chart windows-1252 against isomorphic decoding")
        .click_accesskit();
    harness.run();
    let differ = harness.state().teaching.chart.differences();
    assert_eq!(differ.len(), 27);
    assert!(differ.iter().all(|&b| (0x80..=0x9F).contains(&b)));
}

#[test]
fn the_index_browser_finds_hiragana_a_at_jis0208_pointer_283() {
    let mut harness = app_with(None);
    open_lesson(&mut harness, "Index browser");
    harness
        .get_by_role(Role::TextInput)
        .set_text_value_accesskit("あ");
    harness.run();
    harness.get_by_label("Find").click();
    harness.run();
    let browser = &harness.state().teaching.index;
    assert_eq!(browser.selected(), Some(283));
    harness.get_by_label_contains(
        "index jis0208 pointer 283: row 1, cell 95 in Shift_JIS (188 pointers a row): \
         U+3042 HIRAGANA LETTER A (あ)",
    );
    harness.get_by_label("Shift_JIS 82 A0 · EUC-JP A4 A2 · ISO-2022-JP 24 22 (after ESC $ B)");
    harness.get_by_label("pointer 283: あ");

    // By bytes: 0xEA 0xA4 is 熙, the last kanji of JIS X 0208, far down
    // the index: its cell is drawn once the browser has scrolled to it.
    let pointer = 7807;
    let label = format!("pointer {pointer}: 熙");
    assert!(harness.query_by_label(&label).is_none());
    harness.get_by_label("bytes in Shift_JIS").click();
    harness.run();
    let input = harness.get_by_role(Role::TextInput);
    input.set_text_value_accesskit("EA A4");
    harness.run();
    harness.get_by_label("Find").click();
    harness.run();
    assert_eq!(harness.state().teaching.index.selected(), Some(pointer));
    harness.get_by_label(&label);
}

#[test]
fn where_is_gives_the_bytes_of_a_character_in_every_encoding() {
    let mut harness = app_with(None);
    open_lesson(&mut harness, "Where is this character?");
    // あ is what the window opens with.
    harness.get_by_label("U+3042 HIRAGANA LETTER A (あ)");
    harness.get_by_label("82 A0").click();
    harness.step();
    let copied =
        harness.output().platform_output.commands.iter().any(
            |command| matches!(command, egui::OutputCommand::CopyText(text) if text == "82 A0"),
        );
    assert!(copied, "{:?}", harness.output().platform_output.commands);
    harness.run();
    harness.get_by_label("Copied 82 A0");

    harness
        .get_by_role(Role::TextInput)
        .set_text_value_accesskit("☃");
    harness.run();
    harness.get_by_label("U+2603 SNOWMAN (☃)");
    let rows = harness.state().teaching.where_is.rows();
    let windows_1252 = rows
        .iter()
        .find(|row| row.encodings.contains(&"windows-1252"))
        .unwrap();
    assert!(!windows_1252.encodable);
    assert!(
        harness
            .query_all_by_label("cannot be encoded: html mode writes &#9731;")
            .count()
            >= 1
    );
    // Those that can encode it come first: UTF-8, the Chinese, Japanese and
    // Korean encodings.
    let encodable: Vec<&str> = rows
        .iter()
        .take_while(|row| row.encodable)
        .flat_map(|row| row.encodings.iter().copied())
        .collect();
    assert_eq!(encodable, ["UTF-8", "gb18030"]);
}

#[test]
fn the_lab_makes_mojibake_and_its_opposite_chain_undoes_it() {
    let mut harness = app_with(None);
    open_lesson(&mut harness, "Mojibake lab");
    // "été", encoded as UTF-8 and decoded as windows-1252.
    harness.get_by_label("C3 A9 74 C3 A9");
    harness.get_by_label("Ã©tÃ©");
    // The repair engine proposes the chain that undoes it.
    harness.get_by_label("encoded as windows-1252, decoded as UTF-8: été");
    // Encoded as windows-1252 and decoded as UTF-8, it is "été" again.
    harness
        .get_by_label("Add step: encode as windows-1252")
        .click();
    harness.run();
    harness.get_by_label("Add step: decode as UTF-8").click();
    harness.run();
    let stages = harness.state().teaching.lab.stages();
    assert_eq!(stages.len(), 5);
    let Some(Stage::Text(last)) = stages.last() else {
        panic!("{stages:?}")
    };
    assert_eq!(last.text, "été");
    assert_eq!(harness.query_all_by_label("été").count(), 2);

    // Encoded as windows-1252 and decoded as UTF-8 the other way round:
    // the encoder writes &#9731; for ☃, and the decoder meets errors.
    for _ in 0..3 {
        harness.get_by_label("Remove last step").click();
        harness.run();
    }
    harness.get_by_label("1. Encode as").click();
    harness.run();
    harness.get_by_label("windows-1252").click_accesskit();
    harness.run();
    harness
        .get_by_role(Role::TextInput)
        .set_text_value_accesskit("été ☃");
    harness.run();
    harness.get_by_label("Add step: decode as UTF-8").click();
    harness.run();
    harness.get_by_label("E9 74 E9 20 26 23 39 37 33 31 3B");
    harness.get_by_label_contains(
        "U+2603 SNOWMAN (☃) cannot be encoded: html mode wrote &#9731; (marked)",
    );
    harness.get_by_label_contains("2 errors (U+FFFD, marked)");
    let Some(Stage::Text(last)) = harness.state().teaching.lab.stages().last() else {
        panic!("the chain ends in text")
    };
    assert_eq!(last.text, "\u{FFFD}t\u{FFFD} &#9731;");
    // Bytes lost to errors are not mojibake the engine can undo.
    harness.get_by_label_contains("The repair engine finds nothing to undo");
}
