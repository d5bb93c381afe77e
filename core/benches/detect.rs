//! Detection speed: the time `detect` takes on inputs from 1 KiB to 1 GiB in
//! several scripts and encodings, side by side with uchardet on the same
//! files (the target: as fast or faster), in one run.
//!
//! ```sh
//! cargo bench -p mojiscope-core --bench detect                # every row
//! cargo bench -p mojiscope-core --bench detect -- --quick     # fewer rounds
//! cargo bench -p mojiscope-core --bench detect -- --filter "UTF-8 1 KiB"
//! cargo bench -p mojiscope-core --bench detect -- --binary target/release/mojiscope
//! cargo bench -p mojiscope-core --bench detect -- --dev ../shared/data/detect-dev
//! ```
//!
//! Each row times three things on the same file:
//! - `detect`, in process, on the bytes in memory;
//! - a command: by default this benchmark's own executable run as a process
//!   (`--detect-file FILE`), which starts, reads what detection examines
//!   ([`mojiscope_core::examined_ranges`], one range after the other) and
//!   ranks them ([`mojiscope_core::detect_examined`]), as `mojiscope detect
//!   FILE` would; with `--binary PATH`, the real `PATH detect FILE` instead;
//! - `uchardet FILE`, when uchardet is installed (`apt-get install
//!   uchardet`): it is a peer to compare with, never a dependency.
//!
//! The rows "empty file" give what starting each process costs alone.
//! Detection samples inputs longer than 256 KiB, so its time levels off
//! above that size; uchardet reads every byte.
//!
//! The rows above are one line of text repeated. With `--dev DIR` (or
//! `MOJISCOPE_DETECT_DEV`), rows on real files follow, named "dev ...":
//! the development set's files of each of several encodings (`DIR/NAME/`,
//! in name order) concatenated and repeated to 1 MiB, cut at 1 KiB, 64 KiB
//! and 1 MiB, as `tools/bench-detect-time.sh` builds them.
//! `--filter TEXT` keeps the rows whose name contains TEXT, `--rounds N`
//! sets the rounds, `--no-peer` leaves out the processes (for profiling).
//!
//! `--dump DIR` times nothing: it prints the whole detection (every
//! candidate's score and evidence, the notes) of every file under `DIR`,
//! whole and cut at 16 bytes to 16 KiB, to compare the detections of two
//! builds line by line (a change for speed must leave them all as they
//! were):
//!
//! ```sh
//! cargo bench -p mojiscope-core --bench detect -- --dump ../shared/data/detect-dev > before.txt
//! ```

#![expect(clippy::print_stdout, reason = "a benchmark prints its table")]

use std::hint::black_box;
use std::io::{Read as _, Seek as _, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use mojiscope_core::{
    EUC_KR, Encoding, SHIFT_JIS, UTF_8, WINDOWS_1251, WINDOWS_1252, detect, detect_examined,
    examined_ranges,
};

const TEXTS: [(&Encoding, &str); 5] = [
    (
        UTF_8,
        "Grüße aus Köln, naïve café; Съешь же ещё этих мягких булок; 日本語の文章です。\n",
    ),
    (
        WINDOWS_1252,
        "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë.\n",
    ),
    (
        WINDOWS_1251,
        "Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая электрификация.\n",
    ),
    (
        SHIFT_JIS,
        "いろはにほへと　ちりぬるを　わかよたれそ　つねならむ。日本語の文章です。\n",
    ),
    (
        EUC_KR,
        "다람쥐 헌 쳇바퀴에 타고파. 키스의 고유조건은 입술끼리 만나야 하고 특별한 기술은 필요치 않다.\n",
    ),
];

const SIZES: [usize; 4] = [1024, 64 * 1024, 1024 * 1024, 1024 * 1024 * 1024];

/// The encodings of the development set timed with `--dev`.
const DEV_ENCODINGS: [&str; 8] = [
    "UTF-8",
    "windows-1252",
    "windows-1251",
    "Shift_JIS",
    "EUC-JP",
    "EUC-KR",
    "GBK",
    "Big5",
];

/// The sizes the development set's files are cut at.
const DEV_SIZES: [usize; 3] = [1024, 64 * 1024, 1024 * 1024];

struct Options {
    rounds: usize,
    filter: Option<String>,
    binary: Option<PathBuf>,
    peers: bool,
    dev: Option<PathBuf>,
}

impl Options {
    fn from_args() -> Self {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let value = |name: &str| {
            args.iter()
                .position(|a| a == name)
                .and_then(|i| args.get(i + 1))
                .cloned()
        };
        let quick = args.iter().any(|a| a == "--quick");
        Self {
            rounds: value("--rounds")
                .and_then(|n| n.parse().ok())
                .unwrap_or(if quick { 3 } else { 9 }),
            filter: value("--filter"),
            binary: value("--binary").map(PathBuf::from),
            peers: !args.iter().any(|a| a == "--no-peer"),
            dev: value("--dev")
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("MOJISCOPE_DETECT_DEV").map(PathBuf::from)),
        }
    }
}

/// Reads what detection examines of the file at `path`, one range after
/// the other, ranks, and prints the best encoding: what `mojiscope detect
/// FILE` does, with no more reading than detection needs.
fn detect_file(path: &Path) -> std::io::Result<()> {
    let mut file = std::fs::File::open(path)?;
    let len = usize::try_from(file.metadata()?.len()).unwrap_or(usize::MAX);
    let ranges = examined_ranges(len);
    let mut bytes = vec![0u8; ranges.iter().map(ExactSizeIterator::len).sum()];
    let mut at = 0;
    for range in ranges {
        file.seek(SeekFrom::Start(range.start as u64))?;
        file.read_exact(&mut bytes[at..at + range.len()])?;
        at += range.len();
    }
    let detection = detect_examined(len, &bytes);
    println!("{}", detection.best().name());
    Ok(())
}

/// The cuts of each file that `--dump` detects, besides the whole file.
const DUMP_CUTS: [usize; 6] = [16, 64, 256, 1024, 4096, 16384];

/// Prints the whole detection of every file under `dir` (in name order),
/// whole and cut at each of [`DUMP_CUTS`] shorter than it.
fn dump(dir: &Path) -> std::io::Result<()> {
    let mut paths = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                paths.push(path);
            }
        }
    }
    paths.sort();
    for path in paths {
        let bytes = std::fs::read(&path)?;
        let name = path.strip_prefix(dir).unwrap_or(&path).display();
        for cut in DUMP_CUTS.into_iter().filter(|&cut| cut < bytes.len()) {
            println!("{name} {cut}\n{:?}", detect(&bytes[..cut]));
        }
        println!("{name} whole\n{:?}", detect(&bytes));
    }
    Ok(())
}

/// The median time of running `command` with `args` `rounds` times, and
/// its first line of output.
fn time_command(command: &Path, args: &[&Path], rounds: usize) -> Option<(Duration, String)> {
    let mut times = Vec::with_capacity(rounds);
    let mut answer = String::new();
    for _ in 0..rounds {
        let start = Instant::now();
        let output = Command::new(command).args(args).output().ok()?;
        times.push(start.elapsed());
        if !output.status.success() {
            return None;
        }
        let stdout = String::from_utf8_lossy(&output.stdout);
        let first = stdout.lines().next().unwrap_or("");
        answer.clear();
        answer.push_str(first.split('\t').next().unwrap_or(""));
    }
    times.sort();
    Some((times[times.len() / 2], answer))
}

fn ms(time: Duration) -> String {
    format!("{:.2} ms", time.as_secs_f64() * 1000.0)
}

/// The cells of the command columns: ours, then uchardet's time and answer.
fn command_cells(options: &Options, path: &Path, rounds: usize) -> String {
    if !options.peers {
        return " | | ".to_owned();
    }
    let own = match &options.binary {
        Some(binary) => time_command(binary, &[Path::new("detect"), path], rounds),
        None => std::env::current_exe()
            .ok()
            .and_then(|exe| time_command(&exe, &[Path::new("--detect-file"), path], rounds)),
    };
    let own = own.map_or_else(|| "failed".to_owned(), |(time, _)| ms(time));
    let peer = time_command(Path::new("uchardet"), &[path], rounds).map_or_else(
        || "not installed | ".to_owned(),
        |(time, answer)| format!("{} | {answer}", ms(time)),
    );
    format!("{own} | {peer}")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(position) = args.iter().position(|a| a == "--detect-file") {
        let Some(path) = args.get(position + 1) else {
            std::process::exit(2);
        };
        if detect_file(Path::new(path)).is_err() {
            std::process::exit(1);
        }
        return;
    }
    if let Some(position) = args.iter().position(|a| a == "--dump") {
        let Some(dir) = args.get(position + 1) else {
            std::process::exit(2);
        };
        if dump(Path::new(dir)).is_err() {
            std::process::exit(1);
        }
        return;
    }
    let options = Options::from_args();
    let dir = std::env::temp_dir().join(format!("mojiscope-bench-{}", std::process::id()));
    if std::fs::create_dir_all(&dir).is_err() {
        println!("cannot create {}", dir.display());
        return;
    }
    println!(
        "| input | size | detect in process, median | best | detected | {} command, median | uchardet, median | uchardet says |",
        if options.binary.is_some() {
            "mojiscope detect"
        } else {
            "the same as a"
        }
    );
    println!("|---|---:|---:|---:|---|---:|---:|---|");
    let empty = dir.join("empty.txt");
    if options.peers && std::fs::write(&empty, b"").is_ok() {
        println!(
            "| empty file | 0 | | | | {} |",
            command_cells(&options, &empty, options.rounds)
        );
    }
    for (encoding, line) in TEXTS {
        let line = encoding.encode_fatal(line).expect("encodable");
        for size in SIZES {
            let name = format!("{} {}", encoding.name(), human(size));
            if options
                .filter
                .as_ref()
                .is_some_and(|filter| !name.contains(filter.as_str()))
            {
                continue;
            }
            let bytes: Vec<u8> = line.iter().copied().cycle().take(size).collect();
            time_row(&options, &dir, encoding.name(), size, bytes);
        }
    }
    if let Some(dev) = &options.dev {
        for name in DEV_ENCODINGS {
            let Some(all) = dev_text(&dev.join(name)) else {
                println!("| dev {name} | no files | | | | | | |");
                continue;
            };
            for size in DEV_SIZES {
                let row = format!("dev {name} {}", human(size));
                if options
                    .filter
                    .as_ref()
                    .is_some_and(|filter| !row.contains(filter.as_str()))
                {
                    continue;
                }
                let bytes = all[..size.min(all.len())].to_vec();
                time_row(&options, &dir, &format!("dev {name}"), size, bytes);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Times `detect` in process on `bytes`, then the command and uchardet on
/// the same bytes written to a file in `dir`, and prints the row.
fn time_row(options: &Options, dir: &Path, name: &str, size: usize, bytes: Vec<u8>) {
    // A gibibyte is timed fewer times.
    let rounds = if size >= 1 << 30 {
        options.rounds.min(3)
    } else {
        options.rounds
    };
    let mut times: Vec<Duration> = Vec::with_capacity(rounds);
    let mut best: &'static str = "";
    for _ in 0..rounds {
        let start = Instant::now();
        let detection = detect(black_box(&bytes));
        times.push(start.elapsed());
        best = detection.best().name();
    }
    times.sort();
    let path = dir.join("input.txt");
    let commands = if !options.peers {
        " | | ".to_owned()
    } else if std::fs::write(&path, &bytes).is_ok() {
        drop(bytes);
        command_cells(options, &path, rounds)
    } else {
        "cannot write the file | | ".to_owned()
    };
    println!(
        "| {name} | {} | {} | {} | {best} | {commands} |",
        human(size),
        ms(times[times.len() / 2]),
        ms(times[0]),
    );
}

/// The files of a directory of the development set, in name order,
/// concatenated and repeated to at least 1 MiB; `None` if it has none.
fn dev_text(dir: &Path) -> Option<Vec<u8>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.is_file())
        .collect();
    paths.sort();
    let mut one = Vec::new();
    for path in paths {
        one.extend(std::fs::read(path).ok()?);
    }
    if one.is_empty() {
        return None;
    }
    let mut all = Vec::with_capacity(DEV_SIZES[DEV_SIZES.len() - 1] + one.len());
    while all.len() < DEV_SIZES[DEV_SIZES.len() - 1] {
        all.extend_from_slice(&one);
    }
    Some(all)
}

fn human(size: usize) -> String {
    if size >= 1 << 30 {
        format!("{} GiB", size >> 30)
    } else if size >= 1024 * 1024 {
        format!("{} MiB", size / (1024 * 1024))
    } else {
        format!("{} KiB", size / 1024)
    }
}
