//! A kill at any moment of `convert` or `fix -o` leaves the target as it
//! was or complete, never half-written: both write a temporary file beside
//! the target and rename it into place only once it is whole and synced.
//!
//! Each command runs over and over into the same target (`--force`), with
//! two inputs in turn so that the old and the new content differ, and is
//! killed (SIGKILL) after a random delay between its start and a little
//! past its usual duration: while it starts, reads, writes, syncs or
//! renames. After each kill the target must be exactly the old content or
//! exactly the new, and the temporary files of killed runs must not pile
//! up (the next run removes them).
//!
//! Slow (a few minutes), so ignored:
//! `cargo test -p mojiscope --no-run && cargo test -p mojiscope-tests
//! --test killed -- --ignored --nocapture` (the test profile is optimised).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::thread;
use std::time::{Duration, Instant};

use mojiscope_tests::{Xorshift, command};

/// Kills per command, at least.
const KILLS: usize = 200;

/// The labelled real files of one encoding from the detection development
/// set (`../shared/data/detect-dev`, or `MOJISCOPE_DETECT_DEV`), joined.
fn real_files(encoding: &str) -> Vec<u8> {
    let dir = std::env::var_os("MOJISCOPE_DETECT_DEV").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/detect-dev"),
        PathBuf::from,
    );
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(dir.join(encoding))
        .unwrap_or_else(|error| panic!("no detect-dev data in {} ({error})", dir.display()))
    {
        let path = entry.expect("a directory entry").path();
        bytes.extend(std::fs::read(path).expect("a readable file"));
        bytes.push(b'\n');
    }
    bytes
}

/// `pattern` repeated to about `len` bytes.
fn repeated(pattern: &[u8], len: usize) -> Vec<u8> {
    pattern.iter().copied().cycle().take(len).collect()
}

/// The temporary files in `dir` (what a killed run leaves).
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

/// Runs `args` to the end; its duration.
fn run_whole(args: &[&str]) -> Duration {
    let started = Instant::now();
    let output = command(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    started.elapsed()
}

/// Runs each of `runs` (arguments) to the end, to learn what it writes and
/// how long it takes; then kills them in turn at random moments until
/// [`KILLS`] kills have landed, checking the target after each. Returns
/// what each writes, and (kills, of which left the old content, of which
/// had put the new one in place, runs that ended before their kill).
fn kill_repeatedly(
    dir: &Path,
    target: &Path,
    runs: &[Vec<String>],
    seed: u64,
) -> (Vec<Vec<u8>>, [usize; 4]) {
    let mut rng = Xorshift::new(seed);
    let mut longest = Duration::ZERO;
    let mut written = Vec::new();
    for args in runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        longest = longest.max(run_whole(&args));
        written.push(std::fs::read(target).expect("written"));
    }
    assert!(
        written.windows(2).all(|pair| pair[0] != pair[1]),
        "the runs write the same"
    );
    let range_us = u64::try_from(longest.as_micros()).unwrap_or(u64::MAX) * 5 / 4;
    let (mut kills, mut old, mut new, mut finished) = (0, 0, 0, 0);
    let mut turn = 0;
    while kills < KILLS {
        let (args, expected) = (&runs[turn % runs.len()], &written[turn % runs.len()]);
        turn += 1;
        let before = std::fs::read(target).expect("the target exists");
        let mut child = command(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary runs");
        thread::sleep(Duration::from_micros(rng.next_u64() % range_us));
        child.kill().ok();
        let status = child.wait().expect("the child can be waited for");
        // Killed by the signal, or ended before it.
        let landed = status.code().is_none();
        let after = std::fs::read(target).expect("the target still exists");
        if landed {
            kills += 1;
            if after == before {
                old += 1;
            } else {
                new += 1;
            }
        } else {
            finished += 1;
            assert!(status.success(), "{args:?} failed on its own");
        }
        assert!(
            after == before || after == *expected,
            "{args:?} killed: the target is neither the old content ({} bytes) nor the new ({} bytes), but {} bytes",
            before.len(),
            expected.len(),
            after.len()
        );
        // A killed run leaves its temporary file; the next run removes it.
        assert!(temporary_files(dir) <= 1, "temporary files pile up");
    }
    (written, [kills, old, new, finished])
}

#[test]
#[ignore = "run with: cargo test -p mojiscope --no-run && cargo test -p mojiscope-tests --test killed -- --ignored --nocapture"]
fn a_kill_at_any_moment_leaves_the_old_target_or_the_whole_new_one() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let dir = scratch.path();
    let path = |name: &str| dir.join(name).to_str().expect("a UTF-8 path").to_owned();

    // convert: 8 MB of real Shift_JIS text into UTF-8 and into EUC-JP in
    // turn.
    let shift_jis = repeated(&real_files("Shift_JIS"), 8_000_000);
    std::fs::write(path("in.sjis"), &shift_jis).expect("written");
    let (text, _, _) = encoding_rs::SHIFT_JIS.decode(&shift_jis);
    let target = path("converted.txt");
    std::fs::write(&target, b"the old content\n").expect("written");
    let convert = |to: &str| -> Vec<String> {
        [
            "convert",
            "--from",
            "shift_jis",
            "--to",
            to,
            "--errors",
            "html",
            "--force",
        ]
        .into_iter()
        .map(str::to_owned)
        .chain([path("in.sjis"), "-o".to_owned(), target.clone()])
        .collect()
    };
    let runs = [convert("utf-8"), convert("euc-jp")];
    let (written, [kills, old, new, finished]) = kill_repeatedly(dir, Path::new(&target), &runs, 7);
    assert!(written[0] == text.as_bytes(), "convert to UTF-8 is exact");
    println!(
        "convert: {kills} kills: {old} left the old file, {new} the whole new one; {finished} runs ended before their kill"
    );

    // fix -o: 4 MB of real European text as UTF-8 read as windows-1252
    // and saved as UTF-8 again (mojibake wherever the text is not ASCII),
    // and 4 MB of real Japanese text in UTF-8, in turn.
    let mut real = Vec::new();
    for encoding in ["windows-1252", "ISO-8859-2", "windows-1251", "ISO-8859-7"] {
        let label = encoding_rs::Encoding::for_label(encoding.as_bytes()).expect("a label");
        real.extend_from_slice(label.decode(&real_files(encoding)).0.as_bytes());
    }
    let real = String::from_utf8(repeated(&real, 4_000_000))
        .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned());
    // Each byte of the UTF-8 text read as windows-1252.
    let (mojibake, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(real.as_bytes());
    std::fs::write(path("mojibake.txt"), mojibake.as_bytes()).expect("written");
    let mut japanese = text.into_owned();
    let mut end = 4_000_000.min(japanese.len());
    while !japanese.is_char_boundary(end) {
        end -= 1;
    }
    japanese.truncate(end);
    std::fs::write(path("japanese.txt"), &japanese).expect("written");
    let target = path("fixed.txt");
    let fix = |input: &str| -> Vec<String> {
        ["fix", "--force", "-o", &target, &path(input)]
            .into_iter()
            .map(str::to_owned)
            .collect()
    };
    let runs = [fix("mojibake.txt"), fix("japanese.txt")];
    let (_, [kills, old, new, finished]) = kill_repeatedly(dir, Path::new(&target), &runs, 11);
    println!(
        "fix -o: {kills} kills: {old} left the old file, {new} the whole new one; {finished} runs ended before their kill"
    );
}
