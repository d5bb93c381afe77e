//! Segments on files built from real text: lines of the labelled files of
//! the development set `detect-dev` (`../shared/data/detect-dev` from the
//! repository's root, or the directory named by `MOJISCOPE_DETECT_DEV`),
//! decoded with the engine's own decoder and re-encoded part by part with
//! its own encoder, so that each file is real text in two or three
//! encodings with known boundaries.
//!
//! A boundary is right when it is at the start of the first line of the new
//! part that the previous part's encoding reads otherwise (lines that read
//! the same in both, such as ASCII lines, stay with the segment before), and
//! a segment is named right when its encoding decodes its bytes to the
//! intended text. Decoding each segment in its own encoding must give the
//! intended text exactly.
//!
//! Without the data the tests say so loudly and pass.

use std::path::{Path, PathBuf};

use mojiscope_core::{
    BIG5, BomHandling, EUC_JP, EUC_KR, Encoding, GBK, IBM866, ISO_8859_2, ISO_8859_7, KOI8_R,
    SHIFT_JIS, Segmentation, UTF_8, WINDOWS_874, WINDOWS_1250, WINDOWS_1251, WINDOWS_1252,
    WINDOWS_1255, WINDOWS_1256, segments,
};

fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("MOJISCOPE_DETECT_DEV").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/detect-dev"),
        PathBuf::from,
    );
    dir.join("MANIFEST.tsv").is_file().then_some(dir)
}

/// What a test says when the data is missing.
const SKIPPED: &str = "\n*** SKIPPED: no detect-dev data (../shared/data/detect-dev from the \
                       repository's root, or MOJISCOPE_DETECT_DEV) ***\n";

/// The lines of a labelled file, decoded with its true encoding (each with
/// its line feed).
fn text_lines(dir: &Path, path: &str, encoding: &'static Encoding) -> Vec<String> {
    let bytes = std::fs::read(dir.join(path)).expect("a readable file");
    let text = encoding.decode(&bytes).text.replace("\r\n", "\n");
    text.split_inclusive('\n')
        .map(|line| {
            if line.ends_with('\n') {
                line.to_owned()
            } else {
                format!("{line}\n")
            }
        })
        .collect()
}

/// One part of a mixed file: lines of a source file, encoded in `encoding`.
struct Part {
    source: &'static str,
    source_encoding: &'static Encoding,
    encoding: &'static Encoding,
    /// Which part of the source's lines: the `slice`-th run of `lines`
    /// lines from its first line beyond ASCII.
    slice: usize,
    lines: usize,
}

const fn part(
    source: &'static str,
    source_encoding: &'static Encoding,
    encoding: &'static Encoding,
    slice: usize,
) -> Part {
    Part {
        source,
        source_encoding,
        encoding,
        slice,
        lines: 40,
    }
}

/// A mixed file and what it should split into.
struct Mixture {
    bytes: Vec<u8>,
    /// The intended text.
    text: String,
    /// Each part's bytes and encoding.
    parts: Vec<(std::ops::Range<usize>, &'static Encoding)>,
}

impl Mixture {
    fn build(dir: &Path, parts: &[Part]) -> Self {
        let mut bytes = Vec::new();
        let mut text = String::new();
        let mut spans = Vec::new();
        for part in parts {
            let lines = text_lines(dir, part.source, part.source_encoding);
            let first = lines.iter().position(|l| !l.is_ascii()).unwrap_or(0);
            let start = (first + part.slice * part.lines).min(lines.len());
            let end = (start + part.lines).min(lines.len());
            let begin = bytes.len();
            for line in &lines[start..end] {
                // Lines the part's encoding cannot write are left out.
                if let Ok(encoded) = part.encoding.encode_fatal(line) {
                    bytes.extend_from_slice(&encoded);
                    text.push_str(line);
                }
            }
            spans.push((begin..bytes.len(), part.encoding));
        }
        Self {
            bytes,
            text,
            parts: spans,
        }
    }

    /// A mixture of whole parts: each text in its encoding.
    fn from_parts(parts: &[(String, &'static Encoding)]) -> Self {
        let mut bytes = Vec::new();
        let mut text = String::new();
        let mut spans = Vec::new();
        for (part, encoding) in parts {
            let begin = bytes.len();
            bytes.extend(encoding.encode_fatal(part).expect("encodable"));
            text.push_str(part);
            spans.push((begin..bytes.len(), *encoding));
        }
        Self {
            bytes,
            text,
            parts: spans,
        }
    }

    /// Where each boundary should be: for each part after the first, the
    /// start of its first line that the encoding before reads otherwise.
    /// Parts whose lines all read the same make no boundary.
    fn expected(&self) -> Vec<(u64, &'static Encoding)> {
        let mut expected = vec![(0, self.parts[0].1)];
        for (span, encoding) in &self.parts[1..] {
            let (_, before) = *expected.last().expect("the first part");
            if same_text(before, encoding, &self.bytes[span.clone()]) {
                continue;
            }
            let mut offset = span.start;
            for line in self.bytes[span.clone()].split_inclusive(|&b| b == b'\n') {
                if !same_text(before, encoding, line) {
                    break;
                }
                offset += line.len();
            }
            expected.push((offset as u64, *encoding));
        }
        expected
    }
}

fn decode(encoding: &'static Encoding, bytes: &[u8]) -> String {
    encoding
        .decode_with_bom_handling(bytes, BomHandling::None)
        .text
}

fn same_text(a: &'static Encoding, b: &'static Encoding, bytes: &[u8]) -> bool {
    a == b || decode(a, bytes) == decode(b, bytes)
}

/// Each segment decoded in its own encoding.
fn decoded(bytes: &[u8], segmentation: &Segmentation) -> String {
    segmentation
        .segments
        .iter()
        .map(|s| {
            let span = usize::try_from(s.byte_span.start).expect("in memory")
                ..usize::try_from(s.byte_span.end).expect("in memory");
            decode(s.encoding, &bytes[span])
        })
        .collect()
}

fn check_cover(bytes: &[u8], segmentation: &Segmentation) {
    let segments = &segmentation.segments;
    assert_eq!(segments[0].byte_span.start, 0);
    assert_eq!(
        segments.last().expect("a segment").byte_span.end,
        bytes.len() as u64
    );
    for pair in segments.windows(2) {
        assert_eq!(pair[0].byte_span.end, pair[1].byte_span.start);
        assert!(pair[0].byte_span.start < pair[0].byte_span.end);
        assert_ne!(pair[0].encoding, pair[1].encoding);
    }
    for segment in segments.iter().skip(1) {
        let start = usize::try_from(segment.byte_span.start).expect("in memory");
        assert_eq!(bytes[start - 1], b'\n', "a segment starts at a line start");
        assert!(segment.margin >= 0.0);
    }
}

/// What a segmentation found, against what it should have: boundaries at
/// the right offset, and segments whose encoding reads them as intended.
struct Outcome {
    boundaries_right: usize,
    boundaries: usize,
    text_right: bool,
    report: String,
}

fn evaluate(name: &str, mixture: &Mixture) -> Outcome {
    let segmentation = segments(&mixture.bytes);
    check_cover(&mixture.bytes, &segmentation);
    let expected = mixture.expected();
    let found: Vec<(u64, &'static Encoding)> = segmentation
        .segments
        .iter()
        .map(|s| (s.byte_span.start, s.encoding))
        .collect();
    let mut right = 0;
    for (offset, encoding) in &expected[1..] {
        if let Some(&(_, named)) = found.iter().find(|(o, _)| o == offset) {
            // Named right: the encoding found reads the part as intended.
            let end = mixture
                .parts
                .iter()
                .find(|(span, _)| span.contains(&usize::try_from(*offset).expect("in memory")))
                .map_or(mixture.bytes.len(), |(span, _)| span.end);
            let start = usize::try_from(*offset).expect("in memory");
            if same_text(named, encoding, &mixture.bytes[start..end]) {
                right += 1;
            }
        }
    }
    let text_right = decoded(&mixture.bytes, &segmentation) == mixture.text;
    let report = format!(
        "{name}: expected {:?}, found {:?} (margins {:?})",
        expected
            .iter()
            .map(|(o, e)| (o, e.name()))
            .collect::<Vec<_>>(),
        found.iter().map(|(o, e)| (o, e.name())).collect::<Vec<_>>(),
        segmentation
            .boundaries()
            .map(|s| (s.margin * 10.0).round() / 10.0)
            .collect::<Vec<_>>()
    );
    Outcome {
        boundaries_right: right,
        boundaries: expected.len() - 1,
        text_right,
        report,
    }
}

/// The mixtures: each is real text of one or two labelled files, in parts
/// of 40 lines, each part in its own encoding.
#[expect(clippy::too_many_lines, reason = "one table of mixtures")]
fn mixtures() -> Vec<(&'static str, Vec<Part>)> {
    let fr = "windows-1252/fr-emacs-TUTORIAL.fr";
    let de = "windows-1252/de-emacs-TUTORIAL.de";
    let ru = "windows-1251/ru-vim-tutor.ru.cp1251";
    let ru_koi8 = "KOI8-R/ru-vim-tutor.ru";
    let ja = "Shift_JIS/ja-vim-tutor.ja.sjis";
    let ja_euc = "EUC-JP/ja-vim-tutor.ja.euc";
    let ko = "EUC-KR/ko-vim-tutor.ko.euc";
    let zh_hans = "GBK/zh-vim-tutor.zh.euc";
    let zh_hant = "Big5/zh-vim-tutor.zh.big5";
    let pl = "ISO-8859-2/pl-emacs-TUTORIAL.pl";
    let cs = "windows-1250/cs-vim-tutor.cs.cp1250";
    let ar = "windows-1256/ar-nodechardet-windows_1256";
    let el = "ISO-8859-7/el-vim-tutor.el";
    let he = "windows-1255/he-nodechardet-windows_1255";
    let th = "windows-874/th-libthai-idiom.txt";
    let ru_dos = "IBM866/ru-freedos-stamp.ru";
    let small = |source, encoding, target, slice| Part {
        lines: 3,
        ..part(source, encoding, target, slice)
    };
    vec![
        (
            "UTF-8 with a windows-1252 part (French)",
            vec![
                part(fr, WINDOWS_1252, UTF_8, 0),
                part(fr, WINDOWS_1252, WINDOWS_1252, 1),
                part(fr, WINDOWS_1252, UTF_8, 2),
            ],
        ),
        (
            "windows-1252 then UTF-8 (German)",
            vec![
                part(de, WINDOWS_1252, WINDOWS_1252, 0),
                part(de, WINDOWS_1252, UTF_8, 1),
            ],
        ),
        (
            "windows-1251 then UTF-8 (Russian)",
            vec![
                part(ru, WINDOWS_1251, WINDOWS_1251, 0),
                part(ru, WINDOWS_1251, UTF_8, 1),
            ],
        ),
        (
            "Shift_JIS then UTF-8 (Japanese)",
            vec![
                part(ja, SHIFT_JIS, SHIFT_JIS, 0),
                part(ja, SHIFT_JIS, UTF_8, 1),
            ],
        ),
        (
            "UTF-8 then EUC-KR (Korean)",
            vec![part(ko, EUC_KR, UTF_8, 0), part(ko, EUC_KR, EUC_KR, 1)],
        ),
        (
            "GBK then UTF-8 (Simplified Chinese)",
            vec![part(zh_hans, GBK, GBK, 0), part(zh_hans, GBK, UTF_8, 1)],
        ),
        (
            "UTF-8 then Big5 (Traditional Chinese)",
            vec![part(zh_hant, BIG5, UTF_8, 0), part(zh_hant, BIG5, BIG5, 1)],
        ),
        (
            "ISO-8859-2 then UTF-8 (Polish)",
            vec![
                part(pl, ISO_8859_2, ISO_8859_2, 0),
                part(pl, ISO_8859_2, UTF_8, 1),
            ],
        ),
        (
            "windows-1256 then UTF-8 (Arabic)",
            vec![
                small(ar, WINDOWS_1256, WINDOWS_1256, 0),
                small(ar, WINDOWS_1256, UTF_8, 1),
            ],
        ),
        (
            "KOI8-R then windows-1251 (Russian)",
            vec![
                part(ru_koi8, KOI8_R, KOI8_R, 0),
                part(ru_koi8, KOI8_R, WINDOWS_1251, 1),
            ],
        ),
        (
            "ISO-8859-7 then UTF-8 (Greek)",
            vec![
                part(el, ISO_8859_7, ISO_8859_7, 0),
                part(el, ISO_8859_7, UTF_8, 1),
            ],
        ),
        (
            "UTF-8 then windows-1255 (Hebrew)",
            vec![
                Part {
                    lines: 12,
                    ..part(he, WINDOWS_1255, UTF_8, 0)
                },
                Part {
                    lines: 12,
                    ..part(he, WINDOWS_1255, WINDOWS_1255, 1)
                },
            ],
        ),
        (
            "EUC-JP then Shift_JIS (Japanese)",
            vec![
                part(ja_euc, EUC_JP, EUC_JP, 0),
                part(ja_euc, EUC_JP, SHIFT_JIS, 1),
            ],
        ),
        (
            "windows-1250 (Czech) then windows-1252 (French)",
            vec![
                part(cs, WINDOWS_1250, WINDOWS_1250, 0),
                part(fr, WINDOWS_1252, WINDOWS_1252, 0),
            ],
        ),
        (
            "windows-874 then UTF-8 (Thai)",
            vec![
                part(th, WINDOWS_874, WINDOWS_874, 0),
                part(th, WINDOWS_874, UTF_8, 1),
            ],
        ),
        (
            "IBM866 then UTF-8 then windows-1251 (Russian)",
            vec![
                part(ru_dos, IBM866, IBM866, 0),
                part(ru_dos, IBM866, UTF_8, 1),
                part(ru, WINDOWS_1251, WINDOWS_1251, 1),
            ],
        ),
    ]
}

#[test]
fn mixtures_of_real_text_split_at_the_right_lines() {
    let Some(dir) = data_dir() else {
        eprintln!("{SKIPPED}");
        return;
    };
    let mut failures = Vec::new();
    let (mut right, mut total) = (0, 0);
    for (name, parts) in mixtures() {
        let mixture = Mixture::build(&dir, &parts);
        let outcome = evaluate(name, &mixture);
        right += outcome.boundaries_right;
        total += outcome.boundaries;
        println!("{}", outcome.report);
        if outcome.boundaries_right != outcome.boundaries || !outcome.text_right {
            failures.push(outcome.report);
        }
    }
    println!("boundaries right: {right}/{total}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Checks that a mixture splits exactly where it should, into segments
/// that decode to the intended text.
fn check_exact(name: &str, mixture: &Mixture) {
    let segmentation = segments(&mixture.bytes);
    check_cover(&mixture.bytes, &segmentation);
    let found: Vec<(u64, &'static Encoding)> = segmentation
        .segments
        .iter()
        .map(|s| (s.byte_span.start, s.encoding))
        .collect();
    assert_eq!(found, mixture.expected(), "{name}");
    assert!(
        decoded(&mixture.bytes, &segmentation) == mixture.text,
        "{name}"
    );
}

#[test]
fn a_single_stray_line_is_its_own_segment() {
    let Some(dir) = data_dir() else {
        eprintln!("{SKIPPED}");
        return;
    };
    for (source, encoding, stray_encoding) in [
        (
            "windows-1252/fr-emacs-TUTORIAL.fr",
            WINDOWS_1252,
            WINDOWS_1252,
        ),
        (
            "windows-1251/ru-vim-tutor.ru.cp1251",
            WINDOWS_1251,
            WINDOWS_1251,
        ),
        ("Shift_JIS/ja-vim-tutor.ja.sjis", SHIFT_JIS, SHIFT_JIS),
        (
            "windows-1252/de-emacs-TUTORIAL.de",
            WINDOWS_1252,
            WINDOWS_1252,
        ),
    ] {
        let lines = text_lines(&dir, source, encoding);
        let first = lines.iter().position(|l| !l.is_ascii()).unwrap_or(0);
        // A line with characters beyond ASCII, well inside the text.
        let stray = (first + 30..lines.len())
            .find(|&i| !lines[i].is_ascii())
            .expect("a line beyond ASCII");
        let mixture = Mixture::from_parts(&[
            (lines[first..stray].concat(), UTF_8),
            (lines[stray].clone(), stray_encoding),
            (lines[stray + 1..stray + 30].concat(), UTF_8),
        ]);
        assert_eq!(mixture.expected().len(), 3, "{source}");
        check_exact(&format!("{source}: {:?}", lines[stray]), &mixture);
    }
}

/// Real text repeated to about `len` bytes.
fn repeated(lines: &[String], len: usize) -> String {
    let mut text = String::with_capacity(len + 4096);
    while text.len() < len {
        for line in lines {
            text.push_str(line);
            if text.len() >= len {
                break;
            }
        }
    }
    text
}

#[test]
fn boundaries_inside_and_across_detections_sampling_windows() {
    let Some(dir) = data_dir() else {
        eprintln!("{SKIPPED}");
        return;
    };
    let lines = text_lines(&dir, "windows-1251/ru-vim-tutor.ru.cp1251", WINDOWS_1251);
    // One MiB: detection samples it in four windows of 64 KiB, the first at
    // its start. A part in UTF-8 from 20 KiB to 40 KiB lies inside that
    // window; one from 60 KiB to 200 KiB crosses its end; one from 300 KiB
    // to 310 KiB lies between two windows.
    for (from, to) in [
        (20 * 1024, 40 * 1024),
        (60 * 1024, 200 * 1024),
        (300 * 1024, 310 * 1024),
    ] {
        let mixture = Mixture::from_parts(&[
            (repeated(&lines, from), WINDOWS_1251),
            (repeated(&lines, to - from), UTF_8),
            (repeated(&lines, 1024 * 1024 - to), WINDOWS_1251),
        ]);
        assert_eq!(mixture.expected().len(), 3);
        check_exact(&format!("UTF-8 from {from} to {to}"), &mixture);
    }
}

/// The one file of the set that is in two encodings: a translation in
/// IBM866 whose header line is UTF-8.
const GENUINELY_MIXED: &str = "IBM866/ru-freedos-BLOCEK2.RU";

#[test]
fn files_in_one_encoding_are_never_split() {
    let Some(dir) = data_dir() else {
        eprintln!("{SKIPPED}");
        return;
    };
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("a manifest");
    let mut split = Vec::new();
    let mut files = 0;
    for line in manifest.lines().skip(1).filter(|l| !l.is_empty()) {
        let path = line.split('\t').next().expect("a path");
        let bytes = std::fs::read(dir.join(path)).expect("a readable file");
        let segmentation = segments(&bytes);
        check_cover(&bytes, &segmentation);
        files += 1;
        if path == GENUINELY_MIXED {
            // Its header names the language in UTF-8, "Русский язык", and
            // the rest is IBM866: one boundary, at the first line beyond
            // ASCII after it.
            let segments = &segmentation.segments;
            assert_eq!(segments.len(), 2, "{path}");
            assert_eq!(segments[0].encoding, UTF_8);
            let end = usize::try_from(segments[0].byte_span.end).expect("in memory");
            assert!(decode(UTF_8, &bytes[..end]).contains("Русский язык\r\n"));
            assert_eq!(segments[1].encoding, IBM866);
            continue;
        }
        if segmentation.is_mixed() {
            split.push(format!(
                "{path}: {:?}",
                segmentation
                    .segments
                    .iter()
                    .map(|s| (s.byte_span.start, s.encoding.name(), s.margin))
                    .collect::<Vec<_>>()
            ));
        }
    }
    println!("{files} files, {} split", split.len());
    assert!(files > 200);
    assert!(split.is_empty(), "{}", split.join("\n"));
}

#[test]
fn long_inputs_are_examined_in_windows_and_the_gaps_bisected() {
    let Some(dir) = data_dir() else {
        eprintln!("{SKIPPED}");
        return;
    };
    let lines = text_lines(&dir, "windows-1251/ru-vim-tutor.ru.cp1251", WINDOWS_1251);
    // 12 MiB: examined in 64 windows of 32 KiB, 194.5 KiB apart. The UTF-8
    // part starts between the first two windows (at 150 KiB) and ends
    // inside the 33rd (which spans about 6,224 to 6,256 KiB).
    let (from, to) = (150 * 1024, 6 * 1024 * 1024 + 100 * 1024);
    let mixture = Mixture::from_parts(&[
        (repeated(&lines, from), WINDOWS_1251),
        (repeated(&lines, to - from), UTF_8),
        (repeated(&lines, 12 * 1024 * 1024 - to), WINDOWS_1251),
    ]);
    let segmentation = segments(&mixture.bytes);
    assert!(
        segmentation
            .notes
            .iter()
            .any(|n| matches!(n, mojiscope_core::SegmentNote::Sampled { .. }))
    );
    assert!(segmentation.bytes_examined < mixture.bytes.len() as u64);
    check_exact("12 MiB", &mixture);
}

/// What segments cost beside detection: over every file of detect-dev, and
/// over inputs of 1, 16 and 100 MiB in one encoding and mixed.
#[test]
#[ignore = "timings: cargo test --release -p mojiscope-core --test segments -- --ignored --nocapture"]
fn cost_beside_detection() {
    use std::time::Instant;
    let Some(dir) = data_dir() else {
        eprintln!("{SKIPPED}");
        return;
    };
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("a manifest");
    let files: Vec<Vec<u8>> = manifest
        .lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|line| {
            std::fs::read(dir.join(line.split('\t').next().expect("a path"))).expect("read")
        })
        .collect();
    let time = |f: &dyn Fn()| {
        let start = Instant::now();
        f();
        start.elapsed().as_secs_f64() * 1000.0
    };
    let detecting = time(&|| {
        for bytes in &files {
            let _ = mojiscope_core::detect(bytes);
        }
    });
    let segmenting = time(&|| {
        for bytes in &files {
            let _ = segments(bytes);
        }
    });
    println!(
        "detect-dev, {} files: detect {detecting:.0} ms, segments (detection included) {segmenting:.0} ms",
        files.len()
    );
    let lines = text_lines(&dir, "windows-1251/ru-vim-tutor.ru.cp1251", WINDOWS_1251);
    for mib in [1, 16, 100] {
        let len = mib << 20;
        let whole = WINDOWS_1251
            .encode_fatal(&repeated(&lines, len))
            .expect("encodable");
        let mixture = Mixture::from_parts(&[
            (repeated(&lines, len / 2), WINDOWS_1251),
            (repeated(&lines, len / 2), UTF_8),
        ]);
        for (name, bytes) in [
            ("windows-1251", &whole),
            ("windows-1251 + UTF-8", &mixture.bytes),
        ] {
            let detecting = time(&|| {
                let _ = mojiscope_core::detect(bytes);
            });
            let segmenting = time(&|| {
                let _ = segments(bytes);
            });
            let found = segments(bytes).segments.len();
            println!(
                "{mib} MiB {name}: detect {detecting:.1} ms, segments {segmenting:.1} ms, {found} segment(s)"
            );
        }
    }
}
