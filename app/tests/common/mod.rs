//! What the kittest suites that open a file and wait for the app share.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use mojiscope::app::InspectorApp;
use mojiscope::model::settings::Settings;

/// A scratch directory holding `name` with `bytes`.
pub fn scratch(name: &str, bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join(name);
    fs::write(&path, bytes).expect("the temporary directory is writable");
    (dir, path)
}

/// The app with `file` open under `settings`, in a 1280×900 window, once
/// every background job is done.
pub fn app_with(file: &Path, settings: Settings) -> Harness<'static, InspectorApp> {
    app_sized(file, settings, egui::vec2(1280.0, 900.0))
}

/// The app with `file` open under `settings`, in a window `size` big,
/// once every background job is done.
pub fn app_sized(
    file: &Path,
    settings: Settings,
    size: egui::Vec2,
) -> Harness<'static, InspectorApp> {
    let app = InspectorApp::new(settings, Some(file));
    let mut harness = Harness::builder()
        .with_size(size)
        .allow_missing_glyphs()
        .build_ui_state(|ui, app: &mut InspectorApp| app.ui(ui), app);
    run_until(&mut harness, InspectorApp::is_idle);
    harness
}

/// Runs frames until `done` holds (bounded), then three more so that what
/// changed is drawn.
pub fn run_until(harness: &mut Harness<'_, InspectorApp>, done: impl Fn(&InspectorApp) -> bool) {
    for _ in 0..3000 {
        harness.step();
        if done(harness.state()) {
            harness.run_steps(3);
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("the app never got there");
}

/// Whether the button labelled `label` can be clicked.
pub fn is_enabled(harness: &Harness<'_, InspectorApp>, label: &str) -> bool {
    !harness.get_by_label(label).accesskit_node().is_disabled()
}
