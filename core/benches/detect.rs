//! Detection speed: the time `detect` takes on inputs from 1 KiB to 1 GiB in
//! several scripts and encodings, side by side with uchardet on the same
//! bytes (the target: as fast or faster).
//!
//! Run with `cargo bench -p mojiscope-core --bench detect` (add `-- --quick`
//! for fewer rounds). Detection samples inputs longer than 256 KiB, so its
//! time should level off above that size whatever the length. uchardet, when
//! installed (`apt-get install uchardet`), runs as a process on the same
//! bytes written to a temporary file; its column includes starting the
//! process and reading the file, and the row "uchardet, empty file" gives
//! that overhead alone. It is a peer to compare with, never a dependency.

#![expect(clippy::print_stdout, reason = "a benchmark prints its table")]

use std::hint::black_box;
use std::time::{Duration, Instant};

use mojiscope_core::{EUC_KR, Encoding, SHIFT_JIS, UTF_8, WINDOWS_1251, WINDOWS_1252, detect};

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

/// The median time of `uchardet FILE` on `bytes`, and its answer, if
/// uchardet is installed.
fn uchardet(bytes: &[u8], rounds: usize) -> Option<(Duration, String)> {
    let path = std::env::temp_dir().join(format!("mojiscope-bench-{}.txt", std::process::id()));
    std::fs::write(&path, bytes).ok()?;
    let mut times = Vec::with_capacity(rounds);
    let mut answer = String::new();
    for _ in 0..rounds {
        let start = Instant::now();
        let output = std::process::Command::new("uchardet")
            .arg(&path)
            .output()
            .ok()?;
        times.push(start.elapsed());
        String::from_utf8_lossy(&output.stdout)
            .trim()
            .clone_into(&mut answer);
    }
    let _ = std::fs::remove_file(&path);
    times.sort();
    Some((times[times.len() / 2], answer))
}

fn main() {
    let quick = std::env::args().any(|arg| arg == "--quick");
    let rounds = if quick { 3 } else { 9 };
    println!(
        "| input | size | detect, median | best | detected | uchardet, median | uchardet says |"
    );
    println!("|---|---:|---:|---:|---|---:|---|");
    if let Some((time, _)) = uchardet(b"", rounds) {
        println!(
            "| uchardet, empty file | 0 | | | | {:.2} ms | |",
            time.as_secs_f64() * 1000.0
        );
    }
    for (encoding, line) in TEXTS {
        let line = encoding.encode_fatal(line).expect("encodable");
        for size in SIZES {
            let bytes: Vec<u8> = line.iter().copied().cycle().take(size).collect();
            // A gibibyte is timed fewer times.
            let rounds = if size >= 1 << 30 {
                rounds.min(3)
            } else {
                rounds
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
            let peer = uchardet(&bytes, rounds).map_or_else(
                || "| not installed | |".to_owned(),
                |(time, answer)| format!("{:.2} ms | {answer} |", time.as_secs_f64() * 1000.0),
            );
            println!(
                "| {} | {} | {:.2} ms | {:.2} ms | {best} | {peer}",
                encoding.name(),
                human(size),
                times[times.len() / 2].as_secs_f64() * 1000.0,
                times[0].as_secs_f64() * 1000.0,
            );
        }
    }
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
