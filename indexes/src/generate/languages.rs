//! The language statistics generator: reads the training text in
//! `indexes/languages/` and renders `indexes/src/language/tables.rs`.
//!
//! Run it with `cargo run -p mojiscope-indexes --bin generate-language-tables`.
//! The `language_tables_are_fresh` test renders in memory and compares with
//! the committed file. Rendering is deterministic.
//!
//! The model (see [`crate::language`]): the text is folded to symbols; each
//! folded character seen often enough is a symbol of its own, the rest count
//! for their class. Unigram probabilities are counts with a pseudo-count
//! spread over the classes; pair probabilities are counts smoothed towards
//! the unigram with a Dirichlet prior. Only the pairs whose cost differs from
//! the backed-off estimate are stored, which keeps the tables small.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::GenerateError;
use crate::language::{self, COST_SCALE, CharClass, Script};
use crate::{ENCODINGS, single_byte};

/// The command that regenerates the tables, quoted in their header.
pub const REGENERATE_COMMAND: &str =
    "cargo run -p mojiscope-indexes --bin generate-language-tables";

/// The directory of the training text: `indexes/languages/`.
pub fn text_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("languages")
}

/// The generated file: `indexes/src/language/tables.rs`.
pub fn output_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/language/tables.rs")
}

/// One language: tag (also the text file's stem), English name, script, and
/// the encodings that write it beyond what the single-byte coverage finds.
struct LanguageSpec {
    tag: &'static str,
    name: &'static str,
    script: Script,
    extra_encodings: &'static [&'static str],
}

const fn spec(tag: &'static str, name: &'static str, script: Script) -> LanguageSpec {
    LanguageSpec {
        tag,
        name,
        script,
        extra_encodings: &[],
    }
}

const LANGUAGES: [LanguageSpec; 40] = [
    spec("en", "English", Script::Latin),
    spec("fr", "French", Script::Latin),
    spec("de", "German", Script::Latin),
    spec("es", "Spanish", Script::Latin),
    spec("pt", "Portuguese", Script::Latin),
    spec("it", "Italian", Script::Latin),
    spec("nl", "Dutch", Script::Latin),
    spec("sv", "Swedish", Script::Latin),
    spec("da", "Danish", Script::Latin),
    spec("no", "Norwegian", Script::Latin),
    spec("fi", "Finnish", Script::Latin),
    spec("is", "Icelandic", Script::Latin),
    spec("et", "Estonian", Script::Latin),
    spec("pl", "Polish", Script::Latin),
    spec("cs", "Czech", Script::Latin),
    spec("sk", "Slovak", Script::Latin),
    spec("hu", "Hungarian", Script::Latin),
    spec("sl", "Slovenian", Script::Latin),
    spec("hr", "Croatian", Script::Latin),
    spec("ro", "Romanian", Script::Latin),
    spec("sq", "Albanian", Script::Latin),
    spec("tr", "Turkish", Script::Latin),
    spec("lt", "Lithuanian", Script::Latin),
    spec("lv", "Latvian", Script::Latin),
    spec("el", "Greek", Script::Greek),
    spec("ru", "Russian", Script::Cyrillic),
    spec("uk", "Ukrainian", Script::Cyrillic),
    spec("bg", "Bulgarian", Script::Cyrillic),
    spec("sr", "Serbian", Script::Cyrillic),
    spec("be", "Belarusian", Script::Cyrillic),
    spec("mk", "Macedonian", Script::Cyrillic),
    spec("he", "Hebrew", Script::Hebrew),
    spec("ar", "Arabic", Script::Arabic),
    spec("fa", "Persian", Script::Arabic),
    spec("th", "Thai", Script::Thai),
    LanguageSpec {
        // windows-1258 writes tone marks as combining characters, so the
        // precomposed letters of the text do not show it covers Vietnamese.
        extra_encodings: &["windows-1258"],
        ..spec("vi", "Vietnamese", Script::Latin)
    },
    LanguageSpec {
        extra_encodings: &["EUC-JP", "ISO-2022-JP", "Shift_JIS"],
        ..spec("ja", "Japanese", Script::Japanese)
    },
    LanguageSpec {
        extra_encodings: &["GBK", "gb18030"],
        ..spec("zh-Hans", "Chinese (simplified)", Script::Chinese)
    },
    LanguageSpec {
        extra_encodings: &["Big5"],
        ..spec("zh-Hant", "Chinese (traditional)", Script::Chinese)
    },
    LanguageSpec {
        extra_encodings: &["EUC-KR"],
        ..spec("ko", "Korean", Script::Korean)
    },
];

/// The letters beyond ASCII each language's alphabet has, lowercase (after
/// the main exemplar characters of the Unicode CLDR): letters too rare to
/// show in a short training text still belong to the language.
fn exemplars(tag: &str) -> &'static str {
    match tag {
        "fr" => "àâæçéèêëîïôœùûüÿ",
        "de" => "äöüß",
        "es" => "áéíñóúü",
        "pt" => "áàâãçéêíóôõú",
        "it" => "àèéìíîòóùú",
        "nl" => "áäéëíïóöúü",
        "sv" => "åäöé",
        "da" => "æøåé",
        "no" => "æøåéóòô",
        "fi" => "äöåšž",
        "is" => "áðéíóúýþæö",
        "et" => "šžõäöü",
        "pl" => "ąćęłńóśźż",
        "cs" => "áčďéěíňóřšťúůýž",
        "sk" => "áäčďéíĺľňóôŕšťúýž",
        "hu" => "áéíóöőúüű",
        "sl" => "čšž",
        "hr" => "čćđšž",
        "ro" => "ăâîșț",
        "sq" => "çë",
        "tr" => "çğıöșüâîû",
        "lt" => "ąčęėįšųūž",
        "lv" => "āčēģīķļņšūž",
        "el" => "αβγδεζηθικλμνξοπρσςτυφχψωάέήίόύώϊϋΐΰ",
        "ru" => "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        "uk" => "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя’",
        "bg" => "абвгдежзийклмнопрстуфхцчшщъьюя",
        "sr" => "абвгдђежзијклљмнњопрстћуфхцчџш",
        "be" => "абвгдеёжзійклмнопрстуўфхцчшыьэюя’",
        "mk" => "абвгдѓежзѕијклљмнњопрстќуфхцчџш",
        "he" => "אבגדהוזחטיכךלמםנןסעפףצץקרשת",
        "ar" => "ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوىي",
        "fa" => "آابپتثجچحخدذرزژسشصضطظعغفقكگلمنهوي",
        _ => "",
    }
}

/// The count an exemplar letter the training text lacks is given.
const EXEMPLAR_COUNT: u32 = 2;

/// Pseudo-count of the unigram model, spread over the classes.
const CLASS_PSEUDO_COUNT: f64 = 32.0;
/// Share of the pseudo-count each class gets (Implausible has a fixed cost).
const CLASS_PRIOR: [f64; 6] = [0.25, 0.05, 0.03, 0.6, 0.07, 0.0];
/// The cost of an implausible character, in nats.
const IMPLAUSIBLE_COST: f64 = 20.0;
/// Strength of the Dirichlet prior that pulls pair probabilities to the unigram.
const PAIR_PRIOR: f64 = 8.0;
/// Pairs whose cost is within this many nats of the backed-off estimate are
/// not stored.
const PAIR_MIN_GAIN: f64 = 0.25;
/// Share of a language's non-ASCII letters an encoding must write to serve
/// it, in percent.
const MIN_COVERAGE_PERCENT: usize = 99;

/// Renders `tables.rs` from the training text in `text_dir`.
///
/// # Errors
///
/// A [`GenerateError`] if a text file is missing or unreadable.
pub fn render(text_dir: &Path) -> Result<String, GenerateError> {
    let mut out = String::new();
    let _ = write!(
        out,
        "// @generated by `{REGENERATE_COMMAND}`\n\
         // from the training text in indexes/languages/ (sources and licences in\n\
         // indexes/languages/SOURCES.md). Do not edit: regenerate instead.\n\n\
         //! The statistics of each language (see `crate::language`).\n\n\
         use super::{{Language, Script}};\n\n\
         /// Every language with statistics, in the order of the training files' list.\n\
         pub static LANGUAGES: [Language; {}] = [\n",
        LANGUAGES.len()
    );
    for spec in &LANGUAGES {
        let path = text_dir.join(format!("{}.txt", spec.tag));
        let text = std::fs::read_to_string(&path)
            .map_err(|source| GenerateError::Read { path, source })?;
        let model = Model::train(spec, &text);
        model.render(spec, &text, &mut out);
    }
    out.push_str("];\n");
    Ok(out)
}

struct Model {
    /// Explicit symbols, sorted.
    symbols: Vec<char>,
    unigram: Vec<u8>,
    backoff: Vec<u8>,
    pairs: Vec<(u32, u8)>,
}

#[expect(clippy::cast_sign_loss, reason = "clamped to 0..=255 first")]
fn quantize(cost: f64) -> u8 {
    (cost * COST_SCALE).round().clamp(0.0, 255.0) as u8
}

/// The folded symbols of the text: a boundary at each line's ends, runs of
/// boundaries collapsed.
fn folded(text: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(text.len());
    for line in text.lines() {
        out.push(' ');
        for c in line.chars() {
            let f = language::fold(c);
            if !(f == ' ' && out.last() == Some(&' ')) {
                out.push(f);
            }
        }
        if out.last() != Some(&' ') {
            out.push(' ');
        }
    }
    out
}

impl Model {
    fn train(spec: &LanguageSpec, text: &str) -> Self {
        let sequence = folded(text);
        let mut counts: HashMap<char, u32> = HashMap::new();
        for &c in &sequence {
            *counts.entry(c).or_default() += 1;
        }
        let min_count = match spec.script {
            Script::Japanese | Script::Chinese | Script::Korean => 1,
            _ => 2,
        };
        let mut pseudo_counts: Vec<char> = Vec::new();
        for c in exemplars(spec.tag).chars().map(language::fold) {
            if counts.get(&c).copied().unwrap_or(0) < min_count {
                pseudo_counts.push(c);
            }
        }
        let mut symbols: Vec<char> = counts
            .iter()
            .filter(|&(&c, &n)| n >= min_count && !language::is_implausible(c))
            .map(|(&c, _)| c)
            .chain(pseudo_counts.iter().copied())
            .collect();
        symbols.sort_unstable();
        symbols.dedup();
        let class_base = symbols.len();
        let index_of = |c: char| match symbols.binary_search(&c) {
            Ok(position) => position,
            Err(_) => class_base + language::class_of(c, spec.script).position(),
        };

        let mut symbol_counts = vec![0u32; class_base + CharClass::ALL.len()];
        for &c in &sequence {
            symbol_counts[index_of(c)] += 1;
        }
        for &c in &pseudo_counts {
            symbol_counts[index_of(c)] = symbol_counts[index_of(c)].max(EXEMPLAR_COUNT);
        }
        let total = f64::from(symbol_counts.iter().sum::<u32>());
        let denominator = total + CLASS_PSEUDO_COUNT;
        let probability: Vec<f64> = symbol_counts
            .iter()
            .enumerate()
            .map(|(index, &n)| {
                let pseudo = index
                    .checked_sub(class_base)
                    .map_or(0.0, |class| CLASS_PSEUDO_COUNT * CLASS_PRIOR[class]);
                (f64::from(n) + pseudo) / denominator
            })
            .collect();
        let implausible = class_base + CharClass::Implausible.position();
        let unigram_cost = |index: usize| {
            if index == implausible {
                IMPLAUSIBLE_COST
            } else {
                -probability[index].ln()
            }
        };

        let mut pair_counts: BTreeMap<(usize, usize), u32> = BTreeMap::new();
        let mut left_counts = vec![0u32; symbol_counts.len()];
        for pair in sequence.windows(2) {
            if pair[0] == ' ' && pair[1] == ' ' {
                continue;
            }
            let (left, right) = (index_of(pair[0]), index_of(pair[1]));
            *pair_counts.entry((left, right)).or_default() += 1;
            left_counts[left] += 1;
        }
        let backoff_cost =
            |left: usize| -(PAIR_PRIOR / (f64::from(left_counts[left]) + PAIR_PRIOR)).ln();
        let mut pairs = Vec::new();
        for (&(left, right), &n) in &pair_counts {
            if n < min_count.max(2) || left == implausible || right == implausible {
                continue;
            }
            let p = (f64::from(n) + PAIR_PRIOR * probability[right])
                / (f64::from(left_counts[left]) + PAIR_PRIOR);
            let cost = -p.ln();
            let estimate = backoff_cost(left) + unigram_cost(right);
            if (cost - estimate).abs() >= PAIR_MIN_GAIN {
                pairs.push((((left as u32) << 16) | right as u32, quantize(cost)));
            }
        }
        Self {
            unigram: (0..symbol_counts.len())
                .map(|i| quantize(unigram_cost(i)))
                .collect(),
            backoff: (0..symbol_counts.len())
                .map(|i| quantize(backoff_cost(i)))
                .collect(),
            symbols,
            pairs,
        }
    }

    fn render(&self, spec: &LanguageSpec, text: &str, out: &mut String) {
        let encodings = encodings_for(spec, text);
        let _ = writeln!(out, "    // {}", spec.name);
        let _ = writeln!(out, "    Language {{");
        let _ = writeln!(out, "        tag: {:?},", spec.tag);
        let _ = writeln!(out, "        name: {:?},", spec.name);
        let _ = writeln!(out, "        script: Script::{:?},", spec.script);
        let _ = writeln!(out, "        encodings: {encodings:#018x},");
        let symbols: Vec<String> = self
            .symbols
            .iter()
            .map(|&c| format!("0x{:X}", u32::from(c)))
            .collect();
        render_list(out, "symbols", &symbols);
        let numbers = |values: &[u8]| values.iter().map(u8::to_string).collect::<Vec<_>>();
        render_list(out, "unigram", &numbers(&self.unigram));
        render_list(out, "backoff", &numbers(&self.backoff));
        let keys: Vec<String> = self
            .pairs
            .iter()
            .map(|&(key, _)| format!("0x{key:X}"))
            .collect();
        render_list(out, "pairs", &keys);
        let costs: Vec<u8> = self.pairs.iter().map(|&(_, cost)| cost).collect();
        render_list(out, "pair_costs", &numbers(&costs));
        let _ = writeln!(out, "    }},");
    }
}

fn render_list(out: &mut String, field: &str, values: &[String]) {
    let _ = writeln!(out, "        {field}: &[");
    for chunk in values.chunks(16) {
        let _ = writeln!(out, "            {},", chunk.join(", "));
    }
    let _ = writeln!(out, "        ],");
}

/// The encodings that write the language: UTF-8, each single-byte encoding
/// that writes at least [`MIN_COVERAGE_PERCENT`] of the text's non-ASCII letters,
/// and the spec's extra encodings; as bits over positions in `ENCODINGS`.
fn encodings_for(spec: &LanguageSpec, text: &str) -> u64 {
    let letters: Vec<char> = text
        .chars()
        .filter(|&c| !c.is_ascii() && language::script_of(c).is_some())
        .collect();
    let mut bits = 0u64;
    for (position, entry) in ENCODINGS.iter().enumerate() {
        let writes = if entry.name == "UTF-8" || spec.extra_encodings.contains(&entry.name) {
            true
        } else if let Some(index) = single_byte::for_encoding(entry.name) {
            let written = letters
                .iter()
                .filter(|&&c| {
                    index.pointer(c).is_some()
                        || language::legacy_twin(c).is_some_and(|t| index.pointer(t).is_some())
                })
                .count();
            written * 100 >= MIN_COVERAGE_PERCENT * letters.len()
        } else {
            false
        };
        if writes {
            bits |= 1 << position;
        }
    }
    bits
}
