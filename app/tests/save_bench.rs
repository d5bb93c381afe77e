//! A benchmark, not a test: the save pass (encode, read back, compare,
//! locate every unencodable character) on a large file, against the core
//! encoder alone over the same text, and the memory the unencodable list
//! takes.
//!
//! Run it with
//! `cargo test -p mojiscope --test save_bench -- --ignored --nocapture`
//! (`MOJISCOPE_SAVE_BENCH_MIB` sets the size of each text in MiB, 256 by
//! default; the saves go to a temporary directory, or to
//! `MOJISCOPE_SAVE_BENCH_DIR`).

#![expect(clippy::cast_precision_loss, reason = "figures become floats")]

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use mojiscope::model::document::FileBytes;
use mojiscope::model::save::{PassOptions, SaveRequest, TextSource, WriteOptions, preview, save};
use mojiscope_core::{
    BomHandling, EncodeErrorMode, Encoder, EncoderResult, Encoding, SHIFT_JIS, UTF_8, WINDOWS_1252,
};

#[test]
#[ignore = "benchmark: cargo test -p mojiscope --test save_bench -- --ignored --nocapture"]
#[expect(clippy::too_many_lines, reason = "one benchmark, its cases in a row")]
fn save_pass() {
    let mib: usize = std::env::var("MOJISCOPE_SAVE_BENCH_MIB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    let dir = match std::env::var_os("MOJISCOPE_SAVE_BENCH_DIR") {
        Some(dir) => tempfile::tempdir_in(dir),
        None => tempfile::tempdir(),
    }
    .expect("a temporary directory");
    let cases: [(&str, &str, &'static Encoding); 3] = [
        (
            "log lines, UTF-8 to UTF-8 (lossless)",
            "2024-05-01 12:00:00 INFO request served in 12 ms, Grüße\n",
            UTF_8,
        ),
        (
            "Japanese, UTF-8 to Shift_JIS (lossless)",
            "日本語のテキスト、カタカナとひらがな。漢字も。\n",
            SHIFT_JIS,
        ),
        (
            "mixed, UTF-8 to windows-1252 (html: 1 in 3 characters unencodable)",
            "Grüße ☃ κόσμε ok\n",
            WINDOWS_1252,
        ),
    ];
    for (name, line, encoding) in cases {
        let text = line.repeat((mib << 20) / line.len());
        let bytes = FileBytes::from(text.clone().into_bytes());
        let source = TextSource::Decode {
            bytes,
            encoding: UTF_8,
            bom_handling: BomHandling::Sniff,
        };
        let size = text.len() as f64 / f64::from(1 << 20);

        let started = Instant::now();
        let mut encoder = Encoder::new(encoding, EncodeErrorMode::Html);
        let mut out = Vec::with_capacity(1 << 20);
        let mut produced = 0u64;
        let mut start = 0;
        while start < text.len() {
            let mut end = (start + 64 * 1024).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            let last = end == text.len();
            let mut chunk = &text[start..end];
            loop {
                let (result, read) = encoder.encode(chunk, last, &mut out);
                chunk = &chunk[read..];
                if result == EncoderResult::InputEmpty {
                    break;
                }
            }
            produced += out.len() as u64;
            out.clear();
            start = end;
        }
        let encode_only = started.elapsed().as_secs_f64();

        let options = PassOptions {
            encoding,
            mode: EncodeErrorMode::Html,
            bom: false,
        };
        let started = Instant::now();
        let previewed = preview::run(
            &source,
            &options,
            &AtomicBool::new(false),
            &mut |_, _| {},
            None,
        )
        .expect("the pass runs");
        let pass = started.elapsed().as_secs_f64();
        assert_eq!(previewed.bytes, produced);

        let started = Instant::now();
        let saved = save(
            &SaveRequest {
                source,
                pass: options,
                target: dir.path().join("out.txt"),
                write: WriteOptions {
                    overwrite: true,
                    backup: false,
                },
            },
            &AtomicBool::new(false),
            &mut |_, _| {},
        )
        .expect("the save works");
        let saving = started.elapsed().as_secs_f64();
        let list = &saved.preview.unencodable;
        eprintln!(
            "{name}: {size:.0} MiB; core encoder alone {encode_only:.2} s ({:.0} MiB/s); \
             preview pass {pass:.2} s ({:.0} MiB/s); save to disk {saving:.2} s ({:.0} MiB/s); \
             {} unencodable characters in {:.1} MiB ({:.1} bytes each)",
            size / encode_only,
            size / pass,
            size / saving,
            list.len(),
            list.heap_bytes() as f64 / f64::from(1 << 20),
            if list.is_empty() {
                0.0
            } else {
                list.heap_bytes() as f64 / list.len() as f64
            },
        );
    }
}
