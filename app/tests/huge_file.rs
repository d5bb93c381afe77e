//! A benchmark, not a test: the desktop app on a 1 GiB file. It prints the
//! time to the first frame that shows decoded rows, frame times while jumping
//! to random offsets (during and after the background analysis), and memory:
//! the peak of the process's anonymous memory (its heap: the file itself is
//! mapped, so its pages are the page cache's, not copies) and of its whole
//! resident set.
//!
//! Run it with
//! `cargo test -p mojiscope --test huge_file -- --ignored --nocapture`
//! (`MOJISCOPE_HUGE_MIB` sets the size in MiB, 1024 by default; the file is
//! written to a temporary directory, or to `MOJISCOPE_HUGE_DIR`). Frames
//! are laid out headless by `egui_kittest`, so a frame time here is egui's
//! layout plus our decoding and painting lists, without the GPU's share.
//! Figures are recorded in BENCHMARKS.md.

#![expect(clippy::print_stderr, reason = "a benchmark prints its figures")]
#![expect(clippy::cast_precision_loss, reason = "figures become floats")]
#![expect(
    clippy::struct_field_names,
    reason = "every figure is in KiB, and says so"
)]

use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::Path;
use std::time::{Duration, Instant};

use eframe::egui;
use egui_kittest::Harness;
use mojiscope::app::InspectorApp;
use mojiscope::model::command::Command;
use mojiscope::model::settings::Settings;

/// Frames timed while jumping.
const JUMPS: usize = 200;

#[test]
#[ignore = "benchmark: cargo test -p mojiscope --test huge_file -- --ignored --nocapture"]
fn huge_file() {
    let mib: u64 = std::env::var("MOJISCOPE_HUGE_MIB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1024);
    let dir = match std::env::var_os("MOJISCOPE_HUGE_DIR") {
        Some(dir) => tempfile::tempdir_in(dir),
        None => tempfile::tempdir(),
    }
    .expect("a temporary directory");
    let path = dir.path().join("huge.log");
    let started = Instant::now();
    write_file(&path, mib << 20);
    eprintln!(
        "wrote {mib} MiB in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let len = std::fs::metadata(&path).expect("the file").len();

    let mut memory = Memory::default();
    memory.sample();
    let baseline = memory.anon_kib;

    // Time to first frame, and to the first frame with decoded rows.
    let started = Instant::now();
    let app = InspectorApp::new(Settings::default(), Some(&path));
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .allow_missing_glyphs()
        .build_ui_state(|ui, app: &mut InspectorApp| app.ui(ui), app);
    harness.step();
    let first_frame = started.elapsed();
    while !has_rows(harness.state()) {
        harness.step();
        memory.sample();
        std::thread::sleep(Duration::from_millis(1));
    }
    harness.step();
    let first_rows = started.elapsed();
    eprintln!(
        "first frame {:.0} ms; first frame with decoded rows {:.0} ms",
        ms(first_frame),
        ms(first_rows)
    );

    // Jumping while the background jobs still run.
    let mut rng = 0x9E37_79B9_7F4A_7C15_u64;
    let during = jump(&mut harness, &mut rng, len, &mut memory);
    report("frames while jumping, jobs running", &during);

    // Let the analysis finish, then jump again.
    let analysis_started = Instant::now();
    while !harness.state().is_idle() {
        harness.step();
        memory.sample();
        std::thread::sleep(Duration::from_millis(20));
    }
    eprintln!(
        "background analysis done {:.1} s later",
        analysis_started.elapsed().as_secs_f64()
    );
    let after = jump(&mut harness, &mut rng, len, &mut memory);
    report("frames while jumping, jobs done", &after);
    memory.sample();
    eprintln!(
        "memory: anonymous peak {:.1} MiB (baseline {:.1} MiB), resident peak {:.1} MiB, \
         file {:.0} MiB",
        memory.anon_peak_kib as f64 / 1024.0,
        baseline as f64 / 1024.0,
        memory.hwm_kib as f64 / 1024.0,
        len as f64 / 1_048_576.0
    );
}

fn has_rows(app: &InspectorApp) -> bool {
    app.session.lines.is_some()
        && app
            .session
            .panes
            .first()
            .is_some_and(|pane| pane.analysis.is_some())
}

/// Jumps to random offsets, one frame each; returns the frame times.
fn jump(
    harness: &mut Harness<'_, InspectorApp>,
    rng: &mut u64,
    len: u64,
    memory: &mut Memory,
) -> Vec<Duration> {
    let mut times = Vec::with_capacity(JUMPS);
    for _ in 0..JUMPS {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        harness.state_mut().push(Command::GoTo(*rng % len));
        // The command is applied at the end of one frame; the next lays out
        // the new place, and is the one timed.
        harness.step();
        let started = Instant::now();
        harness.step();
        times.push(started.elapsed());
        memory.sample();
    }
    times
}

fn report(what: &str, times: &[Duration]) {
    let mut sorted = times.to_vec();
    sorted.sort();
    let at = |percent: usize| sorted[(sorted.len() - 1) * percent / 100];
    eprintln!(
        "{what} ({} jumps, the frame that lays out the new place): median {:.1} ms, \
         95th percentile {:.1} ms, max {:.1} ms",
        sorted.len(),
        ms(at(50)),
        ms(at(95)),
        ms(at(100))
    );
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// Memory figures from /proc/self/status, in KiB.
#[derive(Default)]
struct Memory {
    /// Anonymous resident memory now.
    anon_kib: u64,
    /// The most `anon_kib` was seen at.
    anon_peak_kib: u64,
    /// The peak resident set, file pages included.
    hwm_kib: u64,
}

impl Memory {
    fn sample(&mut self) {
        let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
            return;
        };
        let field = |name: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
                .unwrap_or(0)
        };
        self.anon_kib = field("RssAnon:");
        self.anon_peak_kib = self.anon_peak_kib.max(self.anon_kib);
        self.hwm_kib = field("VmHWM:");
    }
}

/// Writes `size` bytes of log lines in several scripts, with an invalid
/// byte now and then and no line longer than a screen.
fn write_file(path: &Path, size: u64) {
    let file = File::create(path).expect("the file is created");
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let words = [
        "request",
        "Grüße",
        "κόσμε",
        "Москва",
        "日本語",
        "テキスト",
        "中文",
        "한국어",
        "ok",
        "42",
        "<p>",
        "</p>",
        "שלום",
        "مرحبا",
        "ไทย",
    ];
    let mut written = 0u64;
    let mut line = 0u64;
    while written < size {
        let mut text = format!("{line:010} ");
        for i in 0..(5 + line % 11) {
            text.push_str(words[((line * 7 + i * 3) % words.len() as u64) as usize]);
            text.push(' ');
        }
        let mut bytes = text.into_bytes();
        if line.is_multiple_of(997) {
            bytes.push(0xFF);
        }
        bytes.push(b'\n');
        out.write_all(&bytes).expect("the file is written");
        written += bytes.len() as u64;
        line += 1;
    }
    out.flush().expect("the file is written");
}
