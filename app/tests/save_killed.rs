//! A kill at any moment of the app's Save leaves the target as it was or
//! complete, never half-written: Save as writes a temporary file beside
//! the target and renames it into place only once it is whole and synced.
//!
//! The save runs in a child process: this test's own binary started again
//! with `MOJISCOPE_SAVE_CHILD` set, which makes the test call the app's
//! save function (`model::save::save`, what File ▸ Save as runs on its
//! worker thread) on a mapped file, as the app does, and exit. The parent
//! runs it over and over into the same target, saving 8 MB of real
//! Shift_JIS text as UTF-8 and as EUC-JP in turn so that the old and the
//! new content differ, and kills it (SIGKILL) after a random delay between
//! its start and a little past its usual duration: while it starts, maps,
//! encodes, writes, syncs or renames. After each kill the target must be
//! exactly the old content or exactly the new, and the temporary files of
//! killed saves must not pile up (the next save removes them).
//!
//! Slow (a few minutes), so ignored:
//! `cargo test -p mojiscope --test save_killed -- --ignored --nocapture`.
//! The real files are read from `../shared/data/detect-dev` beside the
//! repository, or `MOJISCOPE_DETECT_DEV`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::thread;
use std::time::{Duration, Instant};

use mojiscope::model::document::FileBytes;
use mojiscope::model::save::{PassOptions, SaveRequest, TextSource, WriteOptions, save};
use mojiscope_core::{BomHandling, EUC_JP, EncodeErrorMode, Encoding, SHIFT_JIS, UTF_8};

/// Kills, at least.
const KILLS: usize = 200;
/// The test's name, which the child runs.
const TEST: &str = "a_kill_at_any_moment_of_save_leaves_the_old_target_or_the_whole_new_one";
/// Set in the child: `SOURCE\tENCODING\tTARGET`.
const CHILD: &str = "MOJISCOPE_SAVE_CHILD";

/// The labelled real Shift_JIS files of the detection development set,
/// joined.
fn real_shift_jis() -> Vec<u8> {
    let dir = std::env::var_os("MOJISCOPE_DETECT_DEV").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/detect-dev"),
        PathBuf::from,
    );
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(dir.join("Shift_JIS"))
        .unwrap_or_else(|error| panic!("no detect-dev data in {} ({error})", dir.display()))
    {
        let path = entry.expect("a directory entry").path();
        bytes.extend(std::fs::read(path).expect("a readable file"));
        bytes.push(b'\n');
    }
    bytes
}

/// The child: saves the mapped Shift_JIS file as the encoding named, into
/// the target, through the app's save.
fn child(spec: &str) {
    let mut fields = spec.split('\t');
    let (Some(source), Some(encoding), Some(target)) =
        (fields.next(), fields.next(), fields.next())
    else {
        panic!("{CHILD} is SOURCE\\tENCODING\\tTARGET");
    };
    let encoding = Encoding::for_label(encoding.as_bytes()).expect("a label");
    let bytes = FileBytes::read(Path::new(source)).expect("the source maps");
    let request = SaveRequest {
        source: TextSource::Decode {
            bytes,
            encoding: SHIFT_JIS,
            bom_handling: BomHandling::Sniff,
        },
        pass: PassOptions {
            encoding,
            mode: EncodeErrorMode::Html,
            bom: false,
        },
        target: PathBuf::from(target),
        write: WriteOptions {
            overwrite: true,
            backup: false,
        },
    };
    save(&request, &AtomicBool::new(false), &mut |_, _| {}).expect("saved");
}

/// A run of the child saving `source` as `encoding` into `target`.
fn child_command(source: &Path, encoding: &str, target: &Path) -> Command {
    let mut command = Command::new(std::env::current_exe().expect("the test binary"));
    command
        .args(["--exact", TEST, "--ignored", "--test-threads=1"])
        .env(
            CHILD,
            format!("{}\t{encoding}\t{}", source.display(), target.display()),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

/// The temporary files in `dir` (what a killed save leaves).
fn temporary_files(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .expect("a readable directory")
        .filter(|entry| {
            entry.as_ref().is_ok_and(|entry| {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                name.starts_with(".mojiscope-") && name.ends_with(".tmp")
            })
        })
        .count()
}

#[test]
#[ignore = "run with: cargo test -p mojiscope --test save_killed -- --ignored --nocapture"]
fn a_kill_at_any_moment_of_save_leaves_the_old_target_or_the_whole_new_one() {
    if let Ok(spec) = std::env::var(CHILD) {
        child(&spec);
        return;
    }
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let dir = scratch.path();
    let real = real_shift_jis();
    let shift_jis: Vec<u8> = real.iter().copied().cycle().take(8_000_000).collect();
    let source = dir.join("in.sjis");
    std::fs::write(&source, &shift_jis).expect("written");
    let target = dir.join("saved.txt");
    std::fs::write(&target, b"the old content\n").expect("written");
    let encodings = ["UTF-8", "EUC-JP"];

    // Each save once, whole: what it writes and how long it takes.
    let mut written = Vec::new();
    let mut longest = Duration::ZERO;
    for encoding in encodings {
        let started = Instant::now();
        let status = child_command(&source, encoding, &target)
            .status()
            .expect("the child runs");
        assert!(status.success(), "the save as {encoding} failed");
        longest = longest.max(started.elapsed());
        written.push(std::fs::read(&target).expect("written"));
    }
    let (text, _, _) = encoding_rs::SHIFT_JIS.decode(&shift_jis);
    assert!(written[0] == text.as_bytes(), "the save as UTF-8 is exact");
    let (euc_jp, _, _) = encoding_rs::EUC_JP.encode(&text);
    assert!(written[1] == *euc_jp, "the save as EUC-JP is exact");
    assert!(UTF_8 != EUC_JP && written[0] != written[1]);

    let range_us = u64::try_from(longest.as_micros()).unwrap_or(u64::MAX) * 5 / 4;
    let mut rng = 0x2545_F491_4F6C_DD1D_u64;
    let (mut kills, mut old, mut new, mut finished, mut turn) = (0, 0, 0, 0, 0);
    while kills < KILLS {
        let index = turn % encodings.len();
        turn += 1;
        let before = std::fs::read(&target).expect("the target exists");
        let mut child = child_command(&source, encodings[index], &target)
            .spawn()
            .expect("the child runs");
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        thread::sleep(Duration::from_micros(rng % range_us));
        child.kill().ok();
        let status = child.wait().expect("the child can be waited for");
        let after = std::fs::read(&target).expect("the target still exists");
        if status.code().is_none() {
            kills += 1;
            if after == before {
                old += 1;
            } else {
                new += 1;
            }
        } else {
            finished += 1;
            assert!(status.success(), "the save as {} failed", encodings[index]);
        }
        assert!(
            after == before || after == written[index],
            "killed: the target is neither the old content ({} bytes) nor the new ({} bytes), but {} bytes",
            before.len(),
            written[index].len(),
            after.len()
        );
        assert!(temporary_files(dir) <= 1, "temporary files pile up");
    }
    println!(
        "save: {kills} kills: {old} left the old file, {new} the whole new one; \
         {finished} saves ended before their kill; one whole save took {:.0} ms",
        longest.as_secs_f64() * 1000.0
    );
}
