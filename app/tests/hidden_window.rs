//! A large file analysed while the window is not shown.
//!
//! While the window is minimised or covered (or, on Wayland, given no
//! frames), eframe runs no frame: it only calls the app's `logic`, and only
//! when something asked for a repaint. The background jobs report through a
//! bounded channel and ask for a repaint after each event; if that `logic`
//! did not receive them, the channel filled with progress, the job with a
//! result waited for room, and a large log stood at "N errors so far" with
//! no thread working until the window was shown again.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use eframe::egui::{self, RawInput};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use mojiscope::app::InspectorApp;
use mojiscope::model::settings::Settings;
use mojiscope_core::UTF_8;

#[expect(dead_code, reason = "this suite uses part of the shared helpers")]
mod common;

/// Log lines made of the README's lines (real English text), with a
/// Latin-1 "é" (0xE9, an error in UTF-8) in one line of every 97, until
/// `len` bytes. Returns the bytes, the invalid bytes put in and the lines.
fn log_file(len: usize) -> (Vec<u8>, u64, u64) {
    let text: Vec<&str> = include_str!("../../README.md")
        .lines()
        .filter(|line| !line.trim().is_empty())
        .collect();
    let mut bytes = Vec::with_capacity(len + 200);
    let (mut invalid, mut lines) = (0, 0);
    let mut line = String::new();
    while bytes.len() < len {
        line.clear();
        let seconds = lines % 86_400;
        let _ = write!(
            line,
            "2026-11-25T{:02}:{:02}:{:02}Z mojiscope[{}]: ",
            seconds / 3600,
            seconds / 60 % 60,
            seconds % 60,
            1000 + lines % 7
        );
        line.push_str(text[(lines as usize * 7) % text.len()]);
        bytes.extend_from_slice(line.as_bytes());
        if lines % 97 == 0 {
            bytes.extend_from_slice(b" caf\xE9");
            invalid += 1;
        }
        bytes.push(b'\n');
        lines += 1;
    }
    (bytes, invalid, lines)
}

#[test]
fn a_large_file_is_analysed_while_the_window_is_hidden() {
    // 48 MB: thousands of progress events, far more than the channel holds.
    let (bytes, invalid, lines) = log_file(48_000_000);
    let (_dir, path) = common::scratch("server.log", &bytes);
    let app = InspectorApp::new(Settings::default(), Some(&path));
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .allow_missing_glyphs()
        .build_ui_state(|ui, app: &mut InspectorApp| app.ui(ui), app);
    // One frame shown, then the window is covered: from now on only what
    // eframe does for a hidden window, `logic` when a repaint was asked for.
    harness.step();
    let ctx = harness.ctx.clone();
    let started = Instant::now();
    let mut logic_runs = 0;
    while !harness.state().is_idle() {
        assert!(
            started.elapsed() < Duration::from_mins(2),
            "the analysis stood still while the window was hidden: {} errors so far after {} \
             runs of the logic",
            harness
                .state()
                .session
                .panes
                .first()
                .and_then(|p| p.analysis.as_ref())
                .map_or(0, |a| a.errors),
            logic_runs
        );
        if ctx.has_requested_repaint() {
            let _ = ctx.run_logic(&RawInput::default(), |ctx| {
                harness.state_mut().logic_only(ctx);
            });
            logic_runs += 1;
        } else {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    let session = &harness.state().session;
    let utf8 = session
        .panes
        .iter()
        .find(|pane| pane.encoding == UTF_8)
        .and_then(|pane| pane.analysis.as_ref())
        .expect("a UTF-8 pane, analysed");
    assert!(utf8.is_complete());
    assert_eq!(utf8.errors, invalid);
    // No progress left standing: progress that found the channel full was
    // dropped, the results were not.
    assert_eq!(session.progress, None);
    assert!(session.panes.iter().all(|pane| pane.progress.is_none()));
    let index = session.lines.as_ref().expect("the rows");
    assert!(index.is_complete());
    assert_eq!(index.row_count(), lines);
    // Shown again, the window draws the whole count at once.
    harness.run_steps(2);
    let count = format!("{invalid} errors");
    assert!(
        harness.query_all_by_label_contains(&count).next().is_some(),
        "{count} shown"
    );
}
