//! Detection speed: the time `detect` takes on inputs from 1 KiB to 100 MiB
//! in several scripts and encodings (the target: under a second for 100 MB).
//!
//! Run with `cargo bench -p mojiscope-core --bench detect` (add `-- --quick`
//! for fewer rounds). Detection samples inputs longer than 256 KiB, so its
//! time should level off above that size whatever the length.

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

const SIZES: [usize; 5] = [
    1024,
    64 * 1024,
    1024 * 1024,
    16 * 1024 * 1024,
    100 * 1024 * 1024,
];

fn main() {
    let quick = std::env::args().any(|arg| arg == "--quick");
    let rounds = if quick { 3 } else { 9 };
    println!("| input | size | median time | best | detected |");
    println!("|---|---:|---:|---:|---|");
    for (encoding, line) in TEXTS {
        let line = encoding.encode_fatal(line).expect("encodable");
        for size in SIZES {
            let bytes: Vec<u8> = line.iter().copied().cycle().take(size).collect();
            let mut times: Vec<Duration> = Vec::with_capacity(rounds);
            let mut best: &'static str = "";
            for _ in 0..rounds {
                let start = Instant::now();
                let detection = detect(black_box(&bytes));
                times.push(start.elapsed());
                best = detection.best().name();
            }
            times.sort();
            println!(
                "| {} | {} | {:.2} ms | {:.2} ms | {best} |",
                encoding.name(),
                human(size),
                times[times.len() / 2].as_secs_f64() * 1000.0,
                times[0].as_secs_f64() * 1000.0,
            );
        }
    }
}

fn human(size: usize) -> String {
    if size >= 1024 * 1024 {
        format!("{} MiB", size / (1024 * 1024))
    } else {
        format!("{} KiB", size / 1024)
    }
}
