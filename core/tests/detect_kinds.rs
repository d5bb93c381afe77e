//! The kinds of failure detection once had on real files, each checked on
//! real text: the held-out sentences and messages of `tests/detect/`
//! (sources in `tests/detect/SOURCES.md`), encoded as the files were.
//! Each test takes every sample of its kind, not one example: a kind that
//! comes back fails here whichever sentence shows it.
//!
//! `cargo test -p mojiscope-core --test detect_kinds`

use std::fmt::Write as _;
use std::path::Path;

use mojiscope_core::{
    Detection, Encoding, Evidence, ISO_2022_JP, ISO_8859_2, ISO_8859_3, ISO_8859_4, ISO_8859_10,
    ISO_8859_13, ISO_8859_15, MACINTOSH, Note, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_874,
    WINDOWS_1250, WINDOWS_1251, WINDOWS_1252, WINDOWS_1254, WINDOWS_1255, WINDOWS_1256,
    WINDOWS_1257, detect,
};

/// The non-empty lines of `tests/detect/NAME`.
fn lines(name: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/detect")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    text.lines()
        .filter(|line| !line.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The messages and the sentences of `tag` (those it has), each as its
/// non-empty lines.
fn texts(tag: &str) -> Vec<Vec<String>> {
    [format!("{tag}.txt"), format!("sentences/{tag}.txt")]
        .into_iter()
        .filter(|file| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/detect")
                .join(file)
                .exists()
        })
        .map(|file| lines(&file))
        .collect()
}

/// Samples of `lines` that `encoding` writes, those with a line that
/// `keep` accepts, each of consecutive lines joined by line feeds until the
/// encoded bytes reach `size` (then cut to `size`, on a character boundary
/// for the legacy encodings, which write one byte or two per character).
fn samples(
    lines: &[String],
    encoding: &'static Encoding,
    size: usize,
    keep: impl Fn(&str) -> bool,
) -> Vec<Vec<u8>> {
    let writable: Vec<&String> = lines
        .iter()
        .filter(|line| encoding.encode_fatal(line).is_ok())
        .collect();
    let mut out = Vec::new();
    let mut start = 0;
    while start < writable.len() {
        let mut text = String::new();
        let mut kept = false;
        let mut end = start;
        while end < writable.len() && text.len() < size * 2 {
            kept |= keep(writable[end]);
            text.push_str(writable[end]);
            text.push('\n');
            end += 1;
        }
        start = end;
        if !kept {
            continue;
        }
        let Ok(mut bytes) = encoding.encode_fatal(&text) else {
            continue;
        };
        if bytes.len() < size {
            continue;
        }
        // Cut at the last line feed within the size, if there is one past
        // the middle: a file ends on a line as often as not.
        let cut = bytes[..size]
            .iter()
            .rposition(|&b| b == b'\n')
            .filter(|&at| at > size / 2)
            .map_or(size, |at| at + 1);
        bytes.truncate(cut);
        out.push(bytes);
    }
    out
}

/// Whether decoding `bytes` with `guess` gives the text `truth` gives.
fn decodes_alike(guess: &'static Encoding, truth: &'static Encoding, bytes: &[u8]) -> bool {
    guess == truth || guess.decode(bytes).text == truth.decode(bytes).text
}

/// Detects every sample and lists those whose answer `wrong` rejects.
fn failures(
    label: &str,
    inputs: &[Vec<u8>],
    truth: &'static Encoding,
    wrong: impl Fn(&[u8], &Detection) -> bool,
) -> String {
    let mut out = String::new();
    for bytes in inputs {
        let detection = detect(bytes);
        if wrong(bytes, &detection) {
            let text: String = truth.decode(bytes).text.chars().take(80).collect();
            let _ = writeln!(
                out,
                "{label} in {truth}, {} bytes, detected as {}: {text:?}",
                bytes.len(),
                detection.best()
            );
        }
    }
    out
}

/// Every sample of `tag`'s messages and sentences in `encoding` at each
/// size, with a line `keep` accepts: the answer decodes them as
/// `encoding` does. Returns the failures and how many samples there were.
fn read_right(
    tag: &str,
    encoding: &'static Encoding,
    sizes: &[usize],
    keep: impl Fn(&str) -> bool + Copy,
) -> (String, usize) {
    let mut report = String::new();
    let mut count = 0;
    for text in texts(tag) {
        let (failed, n) = lines_read_right(tag, &text, encoding, sizes, keep);
        report += &failed;
        count += n;
    }
    (report, count)
}

/// [`read_right`] of the samples of `lines`, named `label`.
fn lines_read_right(
    label: &str,
    lines: &[String],
    encoding: &'static Encoding,
    sizes: &[usize],
    keep: impl Fn(&str) -> bool + Copy,
) -> (String, usize) {
    let mut report = String::new();
    let mut count = 0;
    for &size in sizes {
        let inputs = samples(lines, encoding, size, keep);
        count += inputs.len();
        report += &failures(label, &inputs, encoding, |bytes, d| {
            !decodes_alike(d.best(), encoding, bytes)
        });
    }
    (report, count)
}

#[test]
fn central_european_text_is_not_read_as_windows_1252() {
    // Hungarian ő and ű are õ and û in windows-1252; Czech, Slovak and
    // Polish lose their letters in the same way.
    let mut report = String::new();
    let mut count = 0;
    for tag in ["hu", "cs", "sk", "pl"] {
        for encoding in [ISO_8859_2, WINDOWS_1250] {
            let (failed, n) = read_right(tag, encoding, &[1024, 4096], |line| {
                line.contains(['ő', 'ű', 'ě', 'ř', 'ů', 'ľ', 'ť', 'ą', 'ę', 'ł', 'ś', 'ź'])
            });
            report += &failed;
            count += n;
        }
    }
    // Hungarian from 256 bytes, one or two "ő" or "ű" among them: the
    // Hungarian model learned from text that held "õ" and "û" for them
    // until the generator took that mojibake out.
    for encoding in [ISO_8859_2, WINDOWS_1250] {
        let (failed, n) = read_right("hu", encoding, &[256], |line| line.contains(['ő', 'ű']));
        report += &failed;
        count += n;
    }
    assert!(count > 100, "only {count} samples");
    assert!(report.is_empty(), "{report}");
}

#[test]
fn hebrew_punctuation_is_read_in_windows_1255() {
    // The geresh and gershayim of abbreviations and numerals ("ב׳",
    // "ארה״ב") and the maqaf are windows-1255's alone, and the Hebrew
    // training text holds none: they must not read as Cyrillic letters.
    let (report, count) = read_right("he", WINDOWS_1255, &[64, 256, 1024], |line| {
        line.contains(['\u{5BE}', '\u{5F3}', '\u{5F4}'])
    });
    assert!(count > 20, "only {count} samples");
    assert!(report.is_empty(), "{report}");
}

#[test]
fn turkish_dotless_i_is_no_arabic_direction_mark() {
    // In windows-1256 the Turkish ı (0xFD) is a left-to-right mark inside
    // words: that reading must lose, and say why.
    let mut count = 0;
    let mut report = String::new();
    for file in ["tr.txt", "sentences/tr.txt"] {
        let text = lines(file);
        for size in [64, 256, 1024] {
            let inputs = samples(&text, WINDOWS_1254, size, |line| line.contains('ı'));
            count += inputs.len();
            report += &failures("tr", &inputs, WINDOWS_1254, |bytes, d| {
                let arabic = d.candidate(WINDOWS_1256).expect("ranked");
                let inside = bytes.len() >= 256
                    && WINDOWS_1254
                        .decode(bytes)
                        .text
                        .chars()
                        .collect::<Vec<_>>()
                        .windows(3)
                        .any(|w| w[1] == 'ı' && w[0].is_alphabetic() && w[2].is_alphabetic());
                d.best() == WINDOWS_1256
                    || !decodes_alike(d.best(), WINDOWS_1254, bytes)
                    || (inside
                        && !arabic
                            .evidence
                            .iter()
                            .any(|e| matches!(e, Evidence::FormatsInWords { .. })))
            });
        }
    }
    assert!(count > 50, "only {count} samples");
    assert!(report.is_empty(), "{report}");
}

#[test]
fn every_language_a_single_byte_encoding_serves_is_read_in_it() {
    // Esperanto in ISO-8859-3 lost to windows-1252 when no model knew it;
    // the Baltic languages, Icelandic, Irish, Basque, Catalan and
    // Vietnamese in their code pages (Welsh and Azerbaijani are in the
    // sentence evaluation: few of their sentences fit ISO-8859-14 or
    // windows-1254 as written today).
    let cases: [(&str, &'static Encoding, &[char]); 10] = [
        ("eo", ISO_8859_3, &['ĉ', 'ĝ', 'ĥ', 'ĵ', 'ŝ', 'ŭ']),
        ("et", WINDOWS_1257, &['õ', 'ä', 'ö', 'ü', 'š', 'ž']),
        ("lv", WINDOWS_1257, &['ā', 'ē', 'ī', 'ū', 'ķ', 'ļ', 'ņ']),
        (
            "lt",
            WINDOWS_1257,
            &['ą', 'č', 'ę', 'ė', 'į', 'š', 'ų', 'ū'],
        ),
        ("lt", ISO_8859_13, &['ą', 'č', 'ę', 'ė', 'į', 'š', 'ų', 'ū']),
        ("is", WINDOWS_1252, &['ð', 'þ', 'æ']),
        ("ga", WINDOWS_1252, &['á', 'é', 'í', 'ó', 'ú']),
        ("eu", WINDOWS_1252, &['ñ']),
        ("ca", WINDOWS_1252, &['à', 'è', 'ò', 'ç', 'ï']),
        (
            "vi.legacy",
            mojiscope_core::WINDOWS_1258,
            &['ă', 'â', 'đ', 'ê', 'ô', 'ơ', 'ư'],
        ),
    ];
    let mut report = String::new();
    for (tag, encoding, letters) in cases {
        let (failed, count) =
            read_right(tag, encoding, &[1024, 4096], |line| line.contains(letters));
        assert!(count >= 2, "{tag} in {encoding}: only {count} samples");
        report += &failed;
    }
    assert!(report.is_empty(), "{report}");
}

#[test]
fn near_ties_between_baltic_code_pages_are_read_alike() {
    // ISO-8859-4, ISO-8859-10 and ISO-8859-13 differ in a letter or two of
    // Lithuanian and Latvian: whichever is named must read the text the
    // same.
    let mut report = String::new();
    let mut count = 0;
    for tag in ["lt", "lv"] {
        for encoding in [ISO_8859_4, ISO_8859_10, ISO_8859_13] {
            let (failed, n) = read_right(tag, encoding, &[1024, 4096], |line| !line.is_ascii());
            report += &failed;
            count += n;
        }
    }
    assert!(count > 20, "only {count} samples");
    assert!(report.is_empty(), "{report}");
}

#[test]
fn a_loanword_letter_keeps_no_code_page_from_a_language() {
    // Finnish and Estonian write "š" and "ž" in loanwords alone; Mac OS
    // Roman lacks them, yet Finnish and Estonian were written in it. A
    // code page serves a language when it writes its letters as often as
    // they occur, so such text is read in the language, not as Swedish
    // beside windows-1252's "NŠytŠ".
    let mut report = String::new();
    let mut count = 0;
    for tag in ["fi", "et"] {
        let (failed, n) = read_right(tag, MACINTOSH, &[256, 1024], |line| {
            line.contains(['ä', 'ö', 'õ', 'ü'])
        });
        report += &failed;
        count += n;
    }
    assert!(count > 40, "only {count} samples");
    assert!(report.is_empty(), "{report}");
}

#[test]
fn typographic_punctuation_is_read_where_it_is_written() {
    // Curly quotes, dashes and the ellipsis are in no language's training
    // text (the UDHR's prose does without them), yet running text holds
    // them: where a code page writes them, the reading that has them must
    // not lose to one with letters there. On 64 bytes a text may hold
    // little else, so a few readings stay wrong; the share is the test.
    let marks = ['’', '‘', '“', '”', '„', '«', '»', '–', '—', '…'];
    let tags = [
        "en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "no", "fi", "af", "pl", "cs", "hu",
        "ro", "ru", "uk", "bg", "el", "tr", "lt", "lv", "et",
    ];
    let share_wrong = |encodings: &[&'static Encoding], size: usize| {
        let (mut wrong, mut count) = (0u32, 0usize);
        for tag in tags {
            for &encoding in encodings {
                let (failed, n) = read_right(tag, encoding, &[size], |line| line.contains(marks));
                wrong += u32::try_from(failed.lines().count()).unwrap_or(u32::MAX);
                count += n;
            }
        }
        assert!(count > 500, "only {count} samples");
        f64::from(wrong) / f64::from(u32::try_from(count).unwrap_or(u32::MAX))
    };
    // The Windows code pages (and ISO-8859-15, whose « » are Latin-1's):
    // 2.5% of 64-byte samples were read wrong when these marks cost what
    // any unknown sign costs, 1.4% once they were symbols, 0.7% now that
    // they follow a word boundary as the ASCII marks do.
    let windows = share_wrong(
        &[
            WINDOWS_1250,
            WINDOWS_1251,
            WINDOWS_1252,
            WINDOWS_1254,
            WINDOWS_1257,
            ISO_8859_15,
        ],
        64,
    );
    assert!(windows < 0.01, "{:.1}% wrong", windows * 100.0);
    // Mac OS Roman puts them where the others have letters: 12.7% of
    // 128-byte samples were read wrong before, 6.5% once Finnish and
    // Estonian were weighed in it too, 4.5% now.
    let mac = share_wrong(&[MACINTOSH], 128);
    assert!(mac < 0.055, "{:.1}% wrong", mac * 100.0);
}

#[test]
fn western_text_is_not_read_as_macintosh() {
    // The Mac OS Roman code page puts other letters at the bytes of
    // windows-1252 and ISO-8859-15: on ordinary Western text it must not
    // win, whatever the length.
    let mut report = String::new();
    let mut count = 0;
    for tag in [
        "en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "no", "fi", "is", "ca", "ga", "eu",
        "af", "sq",
    ] {
        for encoding in [WINDOWS_1252, ISO_8859_15] {
            for text in texts(tag) {
                for size in [1024, 4096] {
                    let inputs = samples(&text, encoding, size, |line| !line.is_ascii());
                    count += inputs.len();
                    report += &failures(tag, &inputs, encoding, |bytes, d| {
                        d.best() == MACINTOSH && !decodes_alike(MACINTOSH, encoding, bytes)
                    });
                }
            }
        }
    }
    assert!(count > 100, "only {count} samples");
    assert!(report.is_empty(), "{report}");
}

#[test]
fn a_stray_escape_in_ascii_text_is_no_iso_2022_jp() {
    // ASCII text with one ESC that starts no escape sequence of
    // ISO-2022-JP (a terminal's colour code, a stray byte).
    let text = lines("en.txt");
    let mut report = String::new();
    for (index, line) in text
        .iter()
        .filter(|l| l.is_ascii() && l.len() > 20)
        .take(60)
        .enumerate()
    {
        let at = index * 7 % line.len();
        let mut bytes = line.as_bytes().to_vec();
        let escape: &[u8] = match index % 3 {
            0 => b"",
            1 => b"[0m",
            _ => b"[1;31m",
        };
        bytes.splice(at..at, escape.iter().copied());
        let detection = detect(&bytes);
        if detection.best() == ISO_2022_JP {
            let _ = writeln!(
                report,
                "{:?} detected as ISO-2022-JP",
                String::from_utf8_lossy(&bytes)
            );
        }
    }
    assert!(report.is_empty(), "{report}");
}

#[test]
fn a_decode_with_errors_never_ranks_above_a_clean_one() {
    // Short legacy text: a lone byte beyond ASCII is no UTF-8, and a
    // single-byte encoding that has no character for a byte is not named
    // while others read every byte.
    let mut report = String::new();
    let mut count = 0;
    for tag in ["fr", "de", "es", "pt", "ru", "el", "he"] {
        let text = lines(&format!("sentences/{tag}.txt"));
        for encoding in [
            WINDOWS_1252,
            mojiscope_core::WINDOWS_1251,
            mojiscope_core::WINDOWS_1253,
            mojiscope_core::WINDOWS_1255,
        ] {
            for size in [16, 32, 64] {
                let inputs = samples(&text, encoding, size, |line| !line.is_ascii());
                count += inputs.len();
                report += &failures(tag, &inputs, encoding, |_, d| {
                    let clean = d.candidates.iter().any(|c| c.errors == 0);
                    clean && d.candidates[0].errors > 0
                });
            }
        }
    }
    assert!(count > 200, "only {count} samples");
    assert!(report.is_empty(), "{report}");
}

#[test]
fn utf16_without_a_byte_order_mark_is_named_first() {
    // Whole samples and their first 64 bytes, in scripts that fill the high
    // byte differently: Latin (NUL high bytes), Cyrillic, Greek, Thai.
    let mut report = String::new();
    let mut count = 0;
    for tag in ["en", "de", "ru", "el", "th", "ja"] {
        let file = if tag == "ja" {
            "ja.txt".to_owned()
        } else {
            format!("sentences/{tag}.txt")
        };
        let text = lines(&file);
        for encoding in [UTF_16LE, UTF_16BE] {
            // Japanese within 64 bytes is not always told from a legacy
            // reading yet (the high byte of its kana, 0x30, is an ASCII
            // digit).
            let sizes: &[usize] = if tag == "ja" { &[1024] } else { &[64, 1024] };
            for &size in sizes {
                // The standard's encoders write UTF-8 for UTF-16: the
                // code units are laid out here, without a byte order mark.
                let inputs: Vec<Vec<u8>> = samples(&text, UTF_8, size * 2, |_| true)
                    .into_iter()
                    .map(|bytes| {
                        let mut units: Vec<u8> = String::from_utf8_lossy(&bytes)
                            .encode_utf16()
                            .flat_map(|unit| {
                                if encoding == UTF_16LE {
                                    unit.to_le_bytes()
                                } else {
                                    unit.to_be_bytes()
                                }
                            })
                            .collect();
                        units.truncate(size);
                        units
                    })
                    .collect();
                count += inputs.len();
                report += &failures(tag, &inputs, encoding, |_, d| d.best() != encoding);
            }
        }
    }
    assert!(count > 100, "only {count} samples");
    assert!(report.is_empty(), "{report}");
}

#[test]
fn latin_letters_are_no_thai_digits() {
    // windows-874 reads ñ, ó and other Latin letters as Thai digits inside
    // words ("Espa\u{E51}ol"); Thai text keeps its own digits.
    let mut report = String::new();
    let mut count = 0;
    for tag in ["es", "pt", "is", "fr", "it", "ca"] {
        let text = lines(&format!("sentences/{tag}.txt"));
        for size in [64, 256] {
            let inputs = samples(&text, WINDOWS_1252, size, |line| {
                line.contains(['ñ', 'ó', 'ò', 'ð', 'ô', 'õ', 'ö', 'ø', 'ù', 'ú', 'û', 'ü'])
            });
            count += inputs.len();
            report += &failures(tag, &inputs, WINDOWS_1252, |bytes, d| {
                d.best() == WINDOWS_874 && !decodes_alike(WINDOWS_874, WINDOWS_1252, bytes)
            });
        }
    }
    let thai = lines("sentences/th.txt");
    let (failed, n) = lines_read_right("th", &thai, WINDOWS_874, &[64, 256, 1024], |line| {
        line.contains(|c| ('\u{E50}'..='\u{E59}').contains(&c))
    });
    report += &failed;
    count += n;
    assert!(count > 100, "only {count} samples");
    assert!(report.is_empty(), "{report}");
}

#[test]
fn one_utf8_sequence_inside_a_word_is_no_utf8() {
    // In Mac OS Roman an apostrophe (0xD5) before "è" or "à" (0x8F, 0x88)
    // is a valid two-byte UTF-8 sequence, an Armenian letter inside a Latin
    // word ("CՏ chi"): one such sequence is no structure to settle UTF-8.
    for text in [
        "C’è chi dice di no, ma io non ci credo.",
        "Qu’à cela ne tienne, nous partirons demain.",
        "Dov’è la stazione? Non lo so.",
        "Com’è andata la riunione di ieri sera?",
    ] {
        let (bytes, _, _) = MACINTOSH.encode(text);
        assert!(std::str::from_utf8(&bytes).is_ok(), "{text}");
        let detection = detect(&bytes);
        assert_eq!(detection.best(), MACINTOSH, "{text}");
    }
    // One letter of the code pages' own script, or a Greek or Cyrillic
    // one beside Latin letters as science and names write them, still
    // settles it.
    for text in [
        "Un café, s’il vous plaît",
        "Il perché di tutto",
        "Grüße aus Köln",
        "Use the Δt value from the table",
        "The Ωmega point is a hypothesis",
        "Layers of 5μm thickness were measured",
    ] {
        let detection = detect(text.as_bytes());
        assert_eq!(detection.best(), UTF_8, "{text}");
    }
}

#[test]
fn valid_utf8_text_is_utf8() {
    // Real text in UTF-8 is named UTF-8 at every length.
    let mut report = String::new();
    for tag in ["fr", "ru", "el", "th", "tr", "hu"] {
        let text = lines(&format!("sentences/{tag}.txt"));
        for size in [64, 1024] {
            let inputs: Vec<Vec<u8>> = samples(&text, UTF_8, size, |line| !line.is_ascii())
                .into_iter()
                .filter(|bytes| std::str::from_utf8(bytes).is_ok())
                .collect();
            report += &failures(tag, &inputs, UTF_8, |_, d| d.best() != UTF_8);
        }
    }
    assert!(report.is_empty(), "{report}");
}

#[test]
fn chinese_japanese_and_korean_text_is_read_with_confidence() {
    // Their statistics once came from the UDHR alone, and real text cost 7
    // to 10 nats a character: every file was "weak" and "implausible".
    // Now the answer must be right and sure, with no note that its text
    // reads as gibberish.
    let mut report = String::new();
    let mut count = 0;
    for (tag, encodings) in [
        ("zh-Hans", &[mojiscope_core::GBK][..]),
        ("zh-Hant", &[mojiscope_core::BIG5][..]),
        (
            "ja",
            &[mojiscope_core::SHIFT_JIS, mojiscope_core::EUC_JP][..],
        ),
        ("ko", &[mojiscope_core::EUC_KR][..]),
    ] {
        for &encoding in encodings {
            for text in texts(tag) {
                for size in [1024, 4096] {
                    let inputs = samples(&text, encoding, size, |line| !line.is_ascii());
                    count += inputs.len();
                    report += &failures(tag, &inputs, encoding, |bytes, d| {
                        let implausible = d
                            .notes
                            .iter()
                            .any(|note| matches!(note, Note::ImplausibleText { .. }));
                        !decodes_alike(d.best(), encoding, bytes) || d.is_weak || implausible
                    });
                }
            }
        }
    }
    assert!(count > 50, "only {count} samples");
    assert!(report.is_empty(), "{report}");
}

/// How many characters the best candidate's language weighed.
fn weighed_chars(detection: &Detection) -> u64 {
    detection.candidates[0]
        .evidence
        .iter()
        .find_map(|evidence| match evidence {
            Evidence::Language { chars, .. } => Some(*chars),
            _ => None,
        })
        .unwrap_or(0)
}

#[test]
fn double_byte_text_settles_on_a_glance_and_western_text_on_all_of_it() {
    // Text in a double-byte encoding that its decoder reads without error
    // settles on its first lines: the rest is not weighed, and the answer
    // is the one all of it gives. Western text, where a lone accented
    // letter beside an ASCII one may read as a Big5 or GBK character
    // without error, is weighed on all of its evidence at this size.
    let mut report = String::new();
    let mut glanced = 0;
    for (tag, encoding) in [
        ("zh-Hans", mojiscope_core::GBK),
        ("zh-Hant", mojiscope_core::BIG5),
        ("ja", mojiscope_core::SHIFT_JIS),
        ("ja", mojiscope_core::EUC_JP),
        ("ko", mojiscope_core::EUC_KR),
    ] {
        for text in texts(tag) {
            for bytes in samples(&text, encoding, 1024, |line| !line.is_ascii()) {
                let detection = detect(&bytes);
                let chars = encoding.decode(&bytes).text.chars().count() as u64;
                if !decodes_alike(detection.best(), encoding, &bytes) {
                    let _ = writeln!(report, "{tag} in {encoding}: read as {}", detection.best());
                } else if weighed_chars(&detection) * 2 < chars {
                    glanced += 1;
                }
            }
        }
    }
    assert!(report.is_empty(), "{report}");
    assert!(glanced > 20, "only {glanced} samples settled on a glance");
    for (tag, encoding) in [
        ("fr", WINDOWS_1252),
        ("de", WINDOWS_1252),
        ("es", WINDOWS_1252),
        ("pt", WINDOWS_1252),
    ] {
        for text in texts(tag) {
            for bytes in samples(&text, encoding, 1024, |line| !line.is_ascii()) {
                let detection = detect(&bytes);
                let chars = encoding.decode(&bytes).text.chars().count() as u64;
                if weighed_chars(&detection) * 2 < chars {
                    let _ = writeln!(
                        report,
                        "{tag} in {encoding}: {} of {chars} characters weighed",
                        weighed_chars(&detection)
                    );
                }
            }
        }
    }
    assert!(report.is_empty(), "{report}");
}

#[test]
fn errors_in_implausible_text_outweigh_no_clean_decode() {
    // Thai words one to a line, in windows-874: GBK reads each two bytes as
    // a Chinese character, and where a lead byte meets a line end, an
    // error. Once Chinese characters cost what real text says they do,
    // such a reading came near a clean Thai one on a few lines; its
    // characters are gibberish all the same, and its errors must count.
    let words: Vec<String> = lines("sentences/th.txt")
        .iter()
        .flat_map(|line| line.split(' ').map(str::to_owned).collect::<Vec<_>>())
        .filter(|word| word.chars().count() > 1 && !word.is_ascii())
        .collect();
    let (report, count) = lines_read_right("th", &words, WINDOWS_874, &[48, 64, 96], |_| true);
    assert!(count > 100, "only {count} samples");
    assert!(report.is_empty(), "{report}");
}

#[test]
fn structure_is_sure_however_its_text_reads() {
    // ISO-2022-JP is 7-bit: dozens of candidates read its bytes alike, and
    // its escapes must lead all of them together, not each one.
    let mut report = String::new();
    let mut count = 0;
    let sure = |d: &Detection| !d.is_weak && d.confidence > 0.95;
    for file in ["ja.txt", "sentences/ja.txt"] {
        let text = lines(file);
        for size in [1024, 4096] {
            let inputs = samples(&text, ISO_2022_JP, size, |line| !line.is_ascii());
            count += inputs.len();
            report += &failures("ja", &inputs, ISO_2022_JP, |bytes, d| {
                !decodes_alike(d.best(), ISO_2022_JP, bytes) || !sure(d)
            });
        }
    }
    // Valid UTF-8 holding a sentence of each of a dozen languages reads as
    // no one language; its structure says UTF-8 all the same.
    let tags = [
        "de", "el", "ru", "he", "th", "ja", "ko", "zh-Hans", "ar", "tr", "pl", "vi",
    ];
    let sentences: Vec<Vec<String>> = tags
        .iter()
        .map(|tag| lines(&format!("sentences/{tag}.txt")))
        .collect();
    for round in 0..20 {
        let mut text = String::new();
        for lines in &sentences {
            text.push_str(&lines[round % lines.len()]);
            text.push('\n');
        }
        count += 1;
        report += &failures("several", &[text.into_bytes()], UTF_8, |bytes, d| {
            !decodes_alike(d.best(), UTF_8, bytes) || !sure(d)
        });
    }
    assert!(count > 30, "only {count} samples");
    assert!(report.is_empty(), "{report}");
}

#[test]
fn indented_text_is_no_utf16() {
    // Markup and code indented with spaces, read two bytes at a time, have
    // a steady high byte 0x20 ("††††" in UTF-16BE): no script's text lives
    // in U+2000 to U+2FFF, so that pattern is no UTF-16.
    let mut report = String::new();
    let mut count = 0;
    for (tag, encoding) in [("ru", UTF_8), ("ru", WINDOWS_1251), ("fr", WINDOWS_1252)] {
        let indented: Vec<String> = lines(&format!("sentences/{tag}.txt"))
            .iter()
            .map(|line| format!("{}<br>\n{}{line}", " ".repeat(24), " ".repeat(24)))
            .collect();
        for size in [64, 96, 200] {
            let inputs = samples(&indented, encoding, size, |line| !line.is_ascii());
            count += inputs.len();
            report += &failures(tag, &inputs, encoding, |_, d| {
                d.utf16_without_bom().is_some()
            });
        }
    }
    assert!(count > 100, "only {count} samples");
    assert!(report.is_empty(), "{report}");
}

#[test]
fn iso_2022_jp_cut_inside_its_first_escape_is_read_as_declared() {
    // A page that declares ISO-2022-JP and is cut inside the escape that
    // starts its Japanese text (the first 64 bytes of a page) holds
    // nothing beyond ASCII in any decode. ISO-2022-JP's decode had weighed
    // its ASCII text on its own account, a few nats a character more than
    // every other decode pays, and the declaration could not make up for
    // it: such pages were read as UTF-8.
    let mut report = String::new();
    let mut count = 0;
    for line in lines("sentences/ja.txt") {
        let page = format!(
            "<!DOCTYPE html>\n<html><head><meta charset=\"ISO-2022-JP\"><title>{line}</title></head></html>\n"
        );
        let Ok(bytes) = ISO_2022_JP.encode_fatal(&page) else {
            continue;
        };
        let Some(escape) = bytes.iter().position(|&b| b == 0x1B) else {
            continue;
        };
        for cut in [escape + 1, escape + 2] {
            count += 1;
            let input = &bytes[..cut];
            let best = detect(input).best();
            if !decodes_alike(best, ISO_2022_JP, input) {
                let _ = writeln!(report, "{cut} bytes of {line:?} read as {best}");
            }
        }
    }
    assert!(count > 100, "only {count} samples");
    assert!(report.is_empty(), "{report}");
}
