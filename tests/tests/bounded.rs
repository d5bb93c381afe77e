//! Peak memory and time of every command on huge and hostile inputs: a GiB
//! of real text in UTF-8 and in Shift_JIS (the labelled real files of the
//! detection development set, repeated), a GB of the same text without a
//! line feed, a GiB of the same text in two encodings (UTF-8 and Shift_JIS
//! in turn, a few MB each), a sparse 4 GiB file, 100 MB of ESC bytes, 50 MB
//! of random bytes, 30 MB of 0xFF, and 4 GiB through standard input. The
//! commands: `decode`, `encode`, `convert` (named source and `--from
//! auto`), `inspect --json`, `detect`, `detect --segments`, `fix` and
//! `scan`; and `explain` on the most bytes a command line holds.
//!
//! What counts is what the program allocates: its peak anonymous resident
//! memory (`RssAnon`, read from `/proc/PID/status` every 2 ms while it
//! runs). A mapped input's pages are the page cache's, which the kernel
//! drops at will; they show in `VmHWM`, printed beside it. Each run must
//! stay under 400 MiB and end within two minutes, or decline at once
//! (exit status 2 within ten seconds) with a one-line message.
//!
//! Slow (several minutes, about 3 GB of scratch files), so ignored:
//! `cargo test -p mojiscope --no-run && cargo test -p mojiscope-tests
//! --test bounded -- --ignored --nocapture` (the test profile is optimised).
//! The real files are read from `../shared/data/detect-dev` beside the
//! repository, or `MOJISCOPE_DETECT_DEV`.

#![expect(clippy::print_stdout, reason = "the suite prints its table")]
#![expect(clippy::cast_precision_loss, reason = "figures become floats")]

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::thread;
use std::time::{Duration, Instant};

use mojiscope_tests::{Xorshift, assert_no_panic, command};

/// The bound on peak anonymous memory.
const BOUND_KIB: u64 = 400 * 1024;
/// The longest a run may take.
const LONGEST: Duration = Duration::from_mins(2);
/// The longest a run that declines may take.
const DECLINE_AT_ONCE: Duration = Duration::from_secs(10);

const GIB: u64 = 1 << 30;

/// The labelled real files, each decoded to UTF-8 with its own encoding,
/// and the Shift_JIS ones as they are.
struct RealText {
    utf8: Vec<u8>,
    shift_jis: Vec<u8>,
}

fn real_text() -> RealText {
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
    let mut text = RealText {
        utf8: Vec::new(),
        shift_jis: Vec::new(),
    };
    for line in lines.filter(|line| !line.is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let bytes = std::fs::read(dir.join(fields[path])).expect("a readable file");
        let encoding =
            encoding_rs::Encoding::for_label(fields[label].as_bytes()).expect("a known label");
        let (decoded, _) = encoding.decode_without_bom_handling(&bytes);
        text.utf8.extend_from_slice(decoded.as_bytes());
        if !text.utf8.ends_with(b"\n") {
            text.utf8.push(b'\n');
        }
        if encoding == encoding_rs::SHIFT_JIS {
            text.shift_jis.extend_from_slice(&bytes);
        }
    }
    assert!(text.utf8.len() > 1 << 20 && text.shift_jis.len() > 100_000);
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

/// An input: a file, or bytes through standard input.
enum Input {
    File(PathBuf),
    /// `len` zero bytes through standard input.
    Stdin {
        len: u64,
    },
}

struct Case {
    name: &'static str,
    input: Input,
    size: u64,
    /// The label to decode it with.
    encoding: &'static str,
}

/// What a run did.
struct Measured {
    code: Option<i32>,
    elapsed: Duration,
    /// User and system time, as last read before it ended.
    cpu: Duration,
    anon_peak_kib: u64,
    hwm_kib: u64,
    stdout_len: u64,
    stderr: String,
}

/// A field of `/proc/PID/status`, in KiB.
fn status_kib(status: &str, field: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// A named thread.
fn spawn<T: Send + 'static>(
    name: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> thread::JoinHandle<T> {
    thread::Builder::new()
        .name(name.to_owned())
        .spawn(work)
        .expect("a thread can be spawned")
}

/// The unit of `/proc/PID/stat`'s times (`USER_HZ`, 100 on Linux).
const TICKS_PER_SECOND: u64 = 100;

/// The user and system time in `/proc/PID/stat` (its 14th and 15th
/// fields, counted after the command name in parentheses).
fn stat_cpu_ticks(stat: &str) -> Option<u64> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    let mut fields = after_name.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(user + system)
}

/// The load average over the last minute, as `/proc/loadavg` gives it.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".to_owned())
}

/// Runs the binary with `args`, its output drained and counted, and
/// watches its memory until it ends.
fn measure(args: &[&str], stdin_zeros: Option<u64>) -> Measured {
    let started = Instant::now();
    let mut child = command(args)
        .stdin(if stdin_zeros.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let pid = child.id();
    let stdin = child.stdin.take();
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let feeder = spawn("stdin-feeder", move || {
        if let (Some(mut pipe), Some(len)) = (stdin, stdin_zeros) {
            let block = vec![0u8; 1 << 20];
            let mut left = len;
            while left > 0 {
                let n = block.len().min(usize::try_from(left).unwrap_or(usize::MAX));
                // The binary may stop reading early (it declined).
                if pipe.write_all(&block[..n]).is_err() {
                    break;
                }
                left -= n as u64;
            }
        }
    });
    let drain = spawn("stdout-drain", move || {
        let mut buffer = vec![0; 1 << 20];
        let mut total = 0u64;
        while let Ok(n @ 1..) = stdout.read(&mut buffer) {
            total += n as u64;
        }
        total
    });
    let errors = spawn("stderr-reader", move || {
        let mut text = Vec::new();
        stderr.read_to_end(&mut text).ok();
        String::from_utf8_lossy(&text).into_owned()
    });
    let (mut anon_peak_kib, mut hwm_kib, mut cpu_ticks) = (0, 0, 0);
    let status = loop {
        if let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
            anon_peak_kib =
                status_kib(&status, "RssAnon:").map_or(anon_peak_kib, |kib| kib.max(anon_peak_kib));
            hwm_kib = status_kib(&status, "VmHWM:").unwrap_or(hwm_kib);
        }
        if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            cpu_ticks = stat_cpu_ticks(&stat).unwrap_or(cpu_ticks);
        }
        if let Some(status) = child.try_wait().expect("the binary can be waited for") {
            break status;
        }
        thread::sleep(Duration::from_millis(2));
    };
    let elapsed = started.elapsed();
    feeder.join().expect("the feeder ends");
    let stdout_len = drain.join().expect("the drain ends");
    let stderr = errors.join().expect("stderr is read");
    assert_no_panic(&stderr);
    Measured {
        code: status.code(),
        elapsed,
        cpu: Duration::from_millis(cpu_ticks * 1000 / TICKS_PER_SECOND),
        anon_peak_kib,
        hwm_kib,
        stdout_len,
        stderr,
    }
}

fn size_text(bytes: u64) -> String {
    if bytes >= GIB {
        format!("{:.1} GiB", bytes as f64 / GIB as f64)
    } else {
        format!("{:.0} MB", bytes as f64 / 1e6)
    }
}

/// Prints a row of the table for `run`; what is wrong with it, if
/// anything.
fn report(input: &str, size: &str, name: &str, run: &Measured) -> Option<String> {
    println!(
        "| {input} | {size} | `{name}` | {} | {:.1} s | {:.1} s | {:.1} MiB | {:.1} MiB |",
        run.code
            .map_or("signal".to_owned(), |code| code.to_string()),
        run.elapsed.as_secs_f64(),
        run.cpu.as_secs_f64(),
        run.anon_peak_kib as f64 / 1024.0,
        run.hwm_kib as f64 / 1024.0,
    );
    if run.code == Some(2) {
        println!(
            "|  |  |  | declined: {} |  |  |  |  |",
            run.stderr.lines().next().unwrap_or_default()
        );
    }
    let ok = run.anon_peak_kib < BOUND_KIB
        && run.elapsed < LONGEST
        && match run.code {
            Some(0) => true,
            // A decline: at once, and one line saying why.
            Some(2) => run.elapsed < DECLINE_AT_ONCE && run.stderr.lines().count() == 1,
            _ => false,
        };
    (!ok).then(|| {
        format!(
            "{input} / {name}: exit {:?}, {:.1} s, {} KiB, {} bytes out: {}",
            run.code,
            run.elapsed.as_secs_f64(),
            run.anon_peak_kib,
            run.stdout_len,
            run.stderr
        )
    })
}

/// The inputs, written into `dir`.
fn cases(dir: &Path) -> Vec<Case> {
    let real = real_text();
    let mut cases = Vec::new();
    let mut file_case = |name, encoding, write: &dyn Fn(&Path)| {
        let path = dir.join(name);
        write(&path);
        let size = std::fs::metadata(&path).expect("written").len();
        cases.push(Case {
            name,
            input: Input::File(path),
            size,
            encoding,
        });
    };
    file_case("real text, UTF-8", "utf-8", &|path| {
        write_repeated(path, &real.utf8, GIB);
    });
    file_case("real text, Shift_JIS", "shift_jis", &|path| {
        write_repeated(path, &real.shift_jis, GIB);
    });
    let one_line: Vec<u8> = real
        .utf8
        .iter()
        .map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b })
        .collect();
    file_case("no line feed", "utf-8", &|path| {
        write_repeated(path, &one_line, 1_000_000_000);
    });
    // Parts of 3 MiB and more, so that boundaries fall inside the sampled
    // windows and between them.
    let mut two: Vec<u8> = Vec::new();
    while two.len() < 3 << 20 {
        two.extend_from_slice(&real.utf8);
    }
    let mut sjis_part: Vec<u8> = Vec::new();
    while sjis_part.len() < 5 << 20 {
        sjis_part.extend_from_slice(&real.shift_jis);
    }
    two.extend_from_slice(&sjis_part);
    file_case("two encodings", "utf-8", &|path| {
        write_repeated(path, &two, GIB);
    });
    file_case("sparse", "utf-8", &|path| {
        File::create(path)
            .and_then(|file| file.set_len(4 * GIB))
            .expect("a sparse file");
    });
    file_case("ESC bytes", "iso-2022-jp", &|path| {
        write_repeated(path, &vec![0x1B; 1 << 16], 100_000_000);
    });
    file_case("random bytes", "utf-8", &|path| {
        let mut rng = Xorshift::new(50);
        write_repeated(path, &rng.bytes(50_000_000), 50_000_000);
    });
    file_case("0xFF bytes", "utf-8", &|path| {
        write_repeated(path, &vec![0xFF; 1 << 16], 30_000_000);
    });
    cases.push(Case {
        name: "zeros through stdin",
        input: Input::Stdin { len: 4 * GIB },
        size: 4 * GIB,
        encoding: "utf-8",
    });
    cases
}

#[test]
#[ignore = "run with: cargo test -p mojiscope --no-run && cargo test -p mojiscope-tests --test bounded -- --ignored --nocapture"]
fn every_command_keeps_its_memory_bounded_on_huge_and_hostile_inputs() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let cases = cases(dir.path());
    let out = dir.path().join("out");
    let out = out.to_str().expect("a UTF-8 path");
    println!("load average at the start: {}", load_average());
    println!("| input | size | command | exit | time | CPU time | peak RssAnon | VmHWM |");
    println!("|---|---|---|---|---|---|---|---|");
    let mut failures = Vec::new();
    for case in &cases {
        let (input, zeros) = match &case.input {
            Input::File(path) => (path.to_str().expect("a UTF-8 path"), None),
            Input::Stdin { len } => ("-", Some(*len)),
        };
        let mut runs: Vec<(&str, Vec<&str>)> = vec![
            ("decode", vec!["decode", "--encoding", case.encoding, input]),
            ("encode", vec!["encode", "--encoding", "gb18030", input]),
            (
                "convert",
                vec![
                    "convert",
                    "--from",
                    case.encoding,
                    "--to",
                    "utf-8",
                    "--errors",
                    "html",
                    "--force",
                    input,
                    "-o",
                    out,
                ],
            ),
            (
                "convert --from auto",
                vec![
                    "convert", "--from", "auto", "--to", "utf-8", "--errors", "html", "--force",
                    input, "-o", out,
                ],
            ),
            ("inspect", vec!["inspect", "--json", input]),
            ("detect", vec!["detect", input]),
            ("detect --segments", vec!["detect", "--segments", input]),
            ("fix", vec!["fix", input]),
        ];
        // `scan` takes paths, never standard input.
        if zeros.is_none() {
            runs.push(("scan", vec!["scan", "--json", input]));
        }
        for (name, args) in runs {
            let run = measure(&args, zeros);
            failures.extend(report(case.name, &size_text(case.size), name, &run));
            std::fs::remove_file(out).ok();
        }
    }

    // `explain` reads no file: its bytes are its arguments. It explains
    // up to 64 KiB, and declines more at once (here 512 KiB: 64 arguments
    // of 16 KiB of hex, about what one command line holds).
    let hex: Vec<String> = (0..64)
        .map(|n| {
            let mut rng = Xorshift::new(n + 1);
            rng.bytes(8 << 10)
                .iter()
                .fold(String::new(), |mut hex, byte| {
                    let _ = write!(hex, "{byte:02X}");
                    hex
                })
        })
        .collect();
    for (arguments, size) in [(8, "64 KiB"), (64, "512 KiB")] {
        let mut args = vec!["explain", "--encoding", "gb18030"];
        args.extend(hex[..arguments].iter().map(String::as_str));
        let run = measure(&args, None);
        failures.extend(report("random bytes as arguments", size, "explain", &run));
    }
    println!("load average at the end: {}", load_average());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
