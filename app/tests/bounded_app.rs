//! Peak memory and time of the desktop app on huge and hostile inputs, the
//! same as the command line's bounded suite: a sparse 4 GiB file, a GB of
//! real text without a line feed, 100 MB of ESC bytes, 50 MB of random
//! bytes, 30 MB of 0xFF, and a GiB of real text (the labelled real files
//! of the detection development set, decoded to UTF-8 and repeated).
//!
//! The app runs headless under `egui_kittest`, as in the huge-file
//! benchmark. For each file it opens it and waits for detection, the error
//! counts and the line index; finds a word in the focused pane; repairs
//! the focused pane's decode; and saves it as GB18030 through File ▸ Save
//! as. A thread reads the process's anonymous resident memory (`RssAnon`
//! in `/proc/self/status`; the mapped file's pages are the page cache's,
//! not the app's) every 2 ms. Each file must keep it under 400 MiB, and
//! each step must end within two minutes, or decline with a message.
//!
//! Slow (several minutes, up to 5 GB of scratch files, one file at a
//! time), so ignored:
//! `cargo test -p mojiscope --test bounded_app -- --ignored --nocapture`.
//! The real files are read from `../shared/data/detect-dev` beside the
//! repository, or `MOJISCOPE_DETECT_DEV`; the scratch files go to a
//! temporary directory, or to `MOJISCOPE_HUGE_DIR`. `MOJISCOPE_BOUNDED_ONLY`
//! runs only the cases whose name holds it (`MOJISCOPE_BOUNDED_ONLY=sparse`).

#![expect(clippy::cast_precision_loss, reason = "figures become floats")]

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use eframe::egui;
use egui_kittest::Harness;
use mojiscope::app::InspectorApp;
use mojiscope::model::command::Command;
use mojiscope::model::repair::task::RepairState;
use mojiscope::model::settings::Settings;

/// The bound on peak anonymous memory.
const BOUND_KIB: u64 = 400 * 1024;
/// The longest a step may take.
const LONGEST: Duration = Duration::from_mins(2);

const GIB: u64 = 1 << 30;

/// Writes a case's file.
type Make<'a> = Box<dyn Fn(&Path) + 'a>;

/// The labelled real files, each decoded to UTF-8 with its own encoding,
/// joined with line feeds.
fn real_text() -> Vec<u8> {
    let dir = std::env::var_os("MOJISCOPE_DETECT_DEV").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/detect-dev"),
        PathBuf::from,
    );
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap_or_else(|error| {
        panic!(
            "no detect-dev data at {} ({error}): set MOJISCOPE_DETECT_DEV",
            dir.display()
        )
    });
    let mut lines = manifest.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let column = |name: &str| header.iter().position(|&h| h == name).expect(name);
    let (path, label) = (column("path"), column("encoding"));
    let mut text = Vec::new();
    for line in lines.filter(|line| !line.is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let bytes = std::fs::read(dir.join(fields[path])).expect("a readable file");
        let encoding =
            encoding_rs::Encoding::for_label(fields[label].as_bytes()).expect("a known label");
        let (decoded, _) = encoding.decode_without_bom_handling(&bytes);
        text.extend_from_slice(decoded.as_bytes());
        if !text.ends_with(b"\n") {
            text.push(b'\n');
        }
    }
    assert!(text.len() > 1 << 20);
    text
}

/// Writes `pattern` repeated to `path` until it holds `len` bytes.
fn write_repeated(path: &Path, pattern: &[u8], len: u64) {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path).expect("a file"));
    let mut written = 0u64;
    while written < len {
        let n = pattern
            .len()
            .min(usize::try_from(len - written).unwrap_or(usize::MAX));
        out.write_all(&pattern[..n]).expect("written");
        written += n as u64;
    }
    out.flush().expect("written");
}

/// Bytes from a xorshift generator.
fn random_bytes(len: usize, mut state: u64) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(len + 8);
    while bytes.len() < len {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        bytes.extend_from_slice(&state.to_le_bytes());
    }
    bytes.truncate(len);
    bytes
}

/// Reads `RssAnon` every 2 ms into the peak, until stopped.
struct Sampler {
    peak_kib: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    thread: Option<thread::JoinHandle<()>>,
}

fn rss_anon_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("RssAnon:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

impl Sampler {
    fn start() -> Sampler {
        let peak_kib = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (peak, stopped) = (Arc::clone(&peak_kib), Arc::clone(&stop));
        let thread = thread::Builder::new()
            .name("rss-sampler".to_owned())
            .spawn(move || {
                while !stopped.load(Ordering::Relaxed) {
                    if let Some(kib) = rss_anon_kib() {
                        peak.fetch_max(kib, Ordering::Relaxed);
                    }
                    thread::sleep(Duration::from_millis(2));
                }
            })
            .expect("a thread");
        Sampler {
            peak_kib,
            stop,
            thread: Some(thread),
        }
    }

    /// The peak since the last reset, and a new start from what is used now.
    fn reset(&self) -> u64 {
        let now = rss_anon_kib().unwrap_or(0);
        self.peak_kib.swap(now, Ordering::Relaxed)
    }
}

impl Drop for Sampler {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.join().ok();
        }
    }
}

/// How a step ended.
struct Step {
    elapsed: Duration,
    /// What it came to, or why it declined or failed.
    outcome: String,
    /// Whether it ended in time.
    in_time: bool,
}

/// Runs frames until `done` gives what the step came to, or the time is up.
fn run_step(
    harness: &mut Harness<'_, InspectorApp>,
    done: impl Fn(&InspectorApp) -> Option<String>,
) -> Step {
    let started = Instant::now();
    loop {
        harness.step();
        if let Some(outcome) = done(harness.state()) {
            harness.run_steps(2);
            return Step {
                elapsed: started.elapsed(),
                outcome,
                in_time: true,
            };
        }
        if started.elapsed() > LONGEST {
            return Step {
                elapsed: started.elapsed(),
                outcome: "still running after two minutes".to_owned(),
                in_time: false,
            };
        }
        thread::sleep(Duration::from_millis(10));
    }
}

fn notice(app: &InspectorApp) -> String {
    app.session.notice.clone().unwrap_or_default()
}

/// Opens `path`, finds, repairs and saves as; each step's result.
#[expect(clippy::too_many_lines, reason = "the four steps in a row")]
fn drive(path: &Path, saved: &Path) -> Vec<(&'static str, Step)> {
    let mut steps = Vec::new();
    let app = InspectorApp::new(Settings::default(), Some(path));
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .allow_missing_glyphs()
        .build_ui_state(|ui, app: &mut InspectorApp| app.ui(ui), app);

    let open = run_step(&mut harness, |app| {
        app.is_idle().then(|| {
            let failed = app.session.failed;
            let pane = app.session.panes.first().map(|p| p.encoding.name());
            format!(
                "pane 1 {}{}",
                pane.unwrap_or("none"),
                if failed.counts || failed.lines || failed.detection {
                    format!("; {failed:?}: {}", notice(app))
                } else {
                    String::new()
                }
            )
        })
    });
    let mut open = open;
    if !open.in_time {
        // Which of the whole-file jobs is still running.
        let session = &harness.state().session;
        let panes: Vec<String> = session
            .panes
            .iter()
            .map(|pane| {
                let done = pane.analysis.as_ref().is_some_and(|a| a.is_complete());
                format!(
                    "{} {}",
                    pane.encoding.name(),
                    if done {
                        "done".to_owned()
                    } else {
                        format!("running {:?}", pane.progress)
                    }
                )
            })
            .collect();
        write!(
            open.outcome,
            " (panes: {}; lines {}; counts {}; detection {}; progress {:?})",
            panes.join(", "),
            session.lines.as_ref().is_some_and(|l| l.is_complete()),
            session.counts.is_some(),
            session.detection.is_some(),
            session.progress
        )
        .ok();
    }
    let opened = open.in_time;
    steps.push(("open", open));
    if !opened {
        return steps;
    }

    harness.state_mut().push(Command::ShowFind { hex: false });
    harness.run_steps(2);
    if let Some(bar) = harness.state_mut().views.find.as_mut() {
        "the".clone_into(&mut bar.text);
    }
    harness.state_mut().push(Command::FindNext(true));
    harness.run_steps(2);
    steps.push((
        "find",
        run_step(&mut harness, |app| {
            if !app.is_idle() {
                return None;
            }
            Some(
                match app.session.find.as_ref().and_then(|f| f.matches.as_ref()) {
                    Some(matches) => format!("{} matches", matches.len()),
                    None => format!("no result: {}", notice(app)),
                },
            )
        }),
    ));
    harness.state_mut().push(Command::CloseFind);
    harness.run_steps(2);

    harness.state_mut().push(Command::Repair);
    harness.run_steps(2);
    steps.push((
        "repair",
        run_step(&mut harness, |app| match &app.repair.state {
            RepairState::Running { .. } => None,
            RepairState::Idle => Some(format!("not started: {}", notice(app))),
            RepairState::Done(review) => Some(format!("{} proposals", review.proposals().len())),
            RepairState::Failed { message, .. } => Some(format!("declined: {message}")),
            RepairState::Cancelled { .. } => Some("cancelled".to_owned()),
        }),
    ));
    if matches!(harness.state().repair.state, RepairState::Running { .. }) {
        harness.state_mut().push(Command::CancelRepair);
    }
    harness.state_mut().push(Command::SaveAs);
    harness.run_steps(2);
    if let Some(form) = harness.state_mut().save.form() {
        form.encoding = mojiscope_core::GB18030;
        form.html = true;
        form.confirm.damage = true;
        form.confirm.replace = true;
        saved.display().to_string().clone_into(&mut form.target);
    }
    let started = Instant::now();
    let mut check = run_step(&mut harness, |app| {
        (!app.save.is_open() || app.save.is_idle()).then(|| {
            if app.save.preview().is_some() {
                "checked".to_owned()
            } else {
                format!("no check: {}", notice(app))
            }
        })
    });
    if check.in_time && harness.state().save.preview().is_some() {
        if let Some(form) = harness.state_mut().save.form() {
            // The round trip of GB18030 is lossless; a decode with errors
            // is kept as it is (U+FFFD is encodable).
            form.confirm.loss = true;
            form.start_save();
        }
        check = run_step(&mut harness, |app| {
            (!app.save.is_open()).then(|| notice(app))
        });
    }
    check.elapsed = started.elapsed();
    check.in_time = check.elapsed <= LONGEST;
    steps.push(("save as", check));
    steps
}

#[test]
#[ignore = "slow (gigabyte files, minutes): cargo test -p mojiscope --test bounded_app -- --ignored --nocapture"]
#[expect(clippy::too_many_lines, reason = "one suite, its cases in a row")]
fn the_app_stays_bounded_on_huge_and_hostile_files() {
    let scratch = match std::env::var_os("MOJISCOPE_HUGE_DIR") {
        Some(dir) => tempfile::tempdir_in(dir),
        None => tempfile::tempdir(),
    }
    .expect("a scratch directory");
    let dir = scratch.path();
    let text = real_text();
    let no_line_feed: Vec<u8> = text
        .iter()
        .map(|&b| if b == b'\n' { b' ' } else { b })
        .collect();

    let cases: Vec<(&str, u64, Make<'_>)> = vec![
        (
            "sparse 4 GiB",
            4 * GIB,
            Box::new(|path: &Path| {
                File::create(path)
                    .and_then(|file| file.set_len(4 * GIB))
                    .expect("a sparse file");
            }),
        ),
        (
            "1 GB without a line feed",
            1_000_000_000,
            Box::new(|path: &Path| write_repeated(path, &no_line_feed, 1_000_000_000)),
        ),
        (
            "100 MB of ESC",
            100_000_000,
            Box::new(|path: &Path| write_repeated(path, b"\x1B", 100_000_000)),
        ),
        (
            "50 MB random",
            50_000_000,
            Box::new(|path: &Path| {
                std::fs::write(path, random_bytes(50_000_000, 0x9E37_79B9_7F4A_7C15))
                    .expect("written");
            }),
        ),
        (
            "30 MB of 0xFF",
            30_000_000,
            Box::new(|path: &Path| write_repeated(path, b"\xFF", 30_000_000)),
        ),
        (
            "1 GiB real text, UTF-8",
            GIB,
            Box::new(|path: &Path| write_repeated(path, &text, GIB)),
        ),
    ];

    let sampler = Sampler::start();
    let mut table = String::new();
    let mut failures = Vec::new();
    writeln!(
        table,
        "{:<26} {:>10} {:>11}  {:>9} {:>9} {:>9} {:>9}",
        "input", "size MB", "peak MiB", "open s", "find s", "repair s", "save s"
    )
    .ok();
    // `MOJISCOPE_BOUNDED_ONLY`: only the cases whose name holds it.
    let only = std::env::var("MOJISCOPE_BOUNDED_ONLY").unwrap_or_default();
    for (name, size, make) in cases.iter().filter(|(name, ..)| name.contains(&only)) {
        let input = dir.join("input");
        let saved = dir.join("saved.txt");
        make(&input);
        sampler.reset();
        let steps = drive(&input, &saved);
        let peak_kib = sampler.reset();
        std::fs::remove_file(&input).ok();
        std::fs::remove_file(&saved).ok();
        let mut line = format!(
            "{name:<26} {:>10.0} {:>11.1}",
            *size as f64 / 1e6,
            peak_kib as f64 / 1024.0
        );
        for (_, step) in &steps {
            write!(line, " {:>9.1}", step.elapsed.as_secs_f64()).ok();
        }
        writeln!(table, "{line}").ok();
        for (step_name, step) in &steps {
            writeln!(table, "    {step_name}: {}", step.outcome).ok();
            if !step.in_time {
                failures.push(format!("{name}: {step_name} did not end in time"));
            }
        }
        if steps.len() < 4 {
            failures.push(format!("{name}: stopped after {}", steps.len()));
        }
        if peak_kib >= BOUND_KIB {
            failures.push(format!(
                "{name}: peak RssAnon {:.1} MiB",
                peak_kib as f64 / 1024.0
            ));
        }
        println!("{line}");
        for (step_name, step) in &steps {
            println!("    {step_name}: {}", step.outcome);
        }
    }
    drop(sampler);
    println!("\n{table}");
    assert!(failures.is_empty(), "{failures:#?}");
}
