//! Help ▸ About mojiscope, driven headless through `egui_kittest` as a user
//! would open it: from the menu bar.

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use mojiscope::app::InspectorApp;
use mojiscope::model::settings::Settings;

fn app() -> Harness<'static, InspectorApp> {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .allow_missing_glyphs()
        .build_ui_state(
            |ui, app: &mut InspectorApp| app.ui(ui),
            InspectorApp::new(Settings::default(), None),
        );
    harness.run();
    harness
}

fn open_about(harness: &mut Harness<'_, InspectorApp>) {
    harness.get_by_label("Help").click();
    harness.run();
    harness.get_by_label("About mojiscope").click();
    harness.run();
}

#[test]
fn help_about_shows_the_version_licence_credits_and_repository() {
    let mut harness = app();
    assert!(harness.query_by_label_contains("CC BY 4.0").is_none());
    open_about(&mut harness);
    assert!(harness.state().about.is_open());
    harness.get_by_label(&format!("Version {}", env!("CARGO_PKG_VERSION")));
    harness.get_by_label("mojiscope is free software under the MIT licence.");
    // The wrapped label, whose text runs (one a line) match too.
    let credit = harness
        .query_all_by_label_contains("WHATWG Encoding Standard")
        .filter_map(|node| node.accesskit_node().value())
        .max_by_key(String::len)
        .unwrap_or_default();
    for part in [
        "© WHATWG (Apple, Google, Mozilla, Microsoft)",
        "CC BY 4.0",
        "index tables are generated",
    ] {
        assert!(credit.contains(part), "{part:?} missing from {credit}");
    }
    harness.get_by_label_contains("Ubuntu Font Licence 1.0");
    harness.get_by_label("https://github.com/mojiscope/mojiscope");
}

#[test]
fn close_and_escape_close_the_about_window() {
    let mut harness = app();
    open_about(&mut harness);
    harness.get_by_label("Close").click();
    harness.run();
    assert!(!harness.state().about.is_open());
    assert!(harness.query_by_label_contains("CC BY 4.0").is_none());

    open_about(&mut harness);
    harness.key_press(egui::Key::Escape);
    harness.run();
    assert!(!harness.state().about.is_open());
}

#[test]
fn copy_link_puts_the_repository_on_the_clipboard() {
    let mut harness = app();
    open_about(&mut harness);
    harness.get_by_label("Copy link").click();
    harness.step();
    let copied = harness.output().platform_output.commands.iter().any(|command| {
        matches!(command, egui::OutputCommand::CopyText(text) if text == "https://github.com/mojiscope/mojiscope")
    });
    assert!(copied, "{:?}", harness.output().platform_output.commands);
    harness.run();
    harness.get_by_label("Copied");
}
