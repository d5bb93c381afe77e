//! The language statistics generator: reads the training data in
//! `indexes/languages/` and renders `indexes/src/language/tables.rs`.
//!
//! Two inputs, both committed and pinned (see `indexes/languages/SOURCES.md`
//! and `tools/fetch-language-data.py`): Lingua's models of letters and of
//! letter pairs inside words (`lingua/<tag>.unigrams.json`,
//! `lingua/<tag>.bigrams.json`), learned from large corpora, where Lingua
//! has the language; and the Universal Declaration of Human Rights
//! (`<tag>.txt`), which gives the punctuation of every language and the
//! letters of those Lingua lacks. From Lingua's counts of a letter and of
//! the pairs it starts and ends, the generator also recovers how often the
//! letter starts and ends a word. Chinese, Japanese and Korean, whose
//! Lingua models hold single characters, learn their pairs from their UDHR
//! text and Lingua's held-out sentences (`lingua/<tag>.sentences.txt`);
//! simplified Chinese reads Lingua's traditional characters through one of
//! OpenCC's tables (`opencc/TSCharacters.txt`), traditional Chinese the
//! simplified sentences through the other (`opencc/STCharacters.txt`).
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

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::{GenerateError, json};
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

const LANGUAGES: [LanguageSpec; 60] = [
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
        extra_encodings: &["GBK"],
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
    spec("af", "Afrikaans", Script::Latin),
    spec("az", "Azerbaijani", Script::Latin),
    spec("eu", "Basque", Script::Latin),
    spec("ca", "Catalan", Script::Latin),
    spec("eo", "Esperanto", Script::Latin),
    spec("ga", "Irish", Script::Latin),
    spec("cy", "Welsh", Script::Latin),
    spec("kk", "Kazakh", Script::Cyrillic),
    spec("mn", "Mongolian", Script::Cyrillic),
    spec("ur", "Urdu", Script::Arabic),
    spec("mt", "Maltese", Script::Latin),
    spec("gl", "Galician", Script::Latin),
    spec("tt", "Tatar", Script::Cyrillic),
    spec("fo", "Faroese", Script::Latin),
    spec("se", "Northern Sami", Script::Latin),
    spec("kl", "Greenlandic", Script::Latin),
    spec("br", "Breton", Script::Latin),
    spec("gd", "Scottish Gaelic", Script::Latin),
    spec("lb", "Luxembourgish", Script::Latin),
    spec("ku", "Kurdish (Kurmanji)", Script::Latin),
];

/// The letters beyond ASCII each language's alphabet has, lowercase (after
/// the main exemplar characters of the Unicode CLDR): letters too rare to
/// show in a short training text still belong to the language.
fn exemplars(tag: &str) -> &'static str {
    match tag {
        "fr" => "àâæçéèêëîïôœùûüÿ",
        "de" => "äöüß",
        "es" | "gl" => "áéíñóúü",
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
        "mt" => "ċġħżàèìòù",
        "fo" => "áíóúýæøð",
        "se" => "áčđŋšŧž",
        "br" => "âêîôûùñüëï",
        "gd" => "àèìòù",
        "lb" => "äëéèê",
        "ku" => "çêîşû",
        "tt" => "абвгдеёжзийклмнопрстуфхцчшщъыьэюяәөүҗңһ",
        "eo" => "ĉĝĥĵŝŭ",
        "ca" => "àèéíïòóúüç",
        "cy" => "âêîôûŵŷ",
        "af" => "êëïôûéè",
        "az" => "çəğıöşü",
        "eu" => "ñ",
        // Written in ASCII letters since the spelling reform of 1973; the
        // Danish names and loanwords of its texts bring these.
        "kl" => "æøå",
        "ga" => "áéíóú",
        "kk" => "абвгдеёжзийклмнопрстуфхцчшщъыьэюяәғқңөұүһі",
        "mn" => "абвгдеёжзийклмнопрстуфхцчшщъыьэюяөү",
        "ur" => "ابپتٹثجچحخدڈذرڑزژسشصضطظعغفقكگلمنںوهھءيے",
        "th" => "กขคงจฉชซญดตถทนบปผพฟมยรลวสหอฮ",
        "vi" => "ăâđêôơư",
        _ => "",
    }
}

/// The combining marks a language writes that its training data may lack
/// (Lingua's models hold letters only): the Hebrew points and the Arabic
/// vowel signs. They are no exemplars: the encodings that serve the
/// language need not write them.
fn marks(tag: &str) -> &'static str {
    match tag {
        "he" => {
            "\u{5B0}\u{5B1}\u{5B2}\u{5B3}\u{5B4}\u{5B5}\u{5B6}\u{5B7}\u{5B8}\u{5B9}\u{5BB}\u{5BC}\u{5BF}\u{5C1}\u{5C2}"
        }
        "ar" | "fa" | "ur" => "\u{64B}\u{64C}\u{64D}\u{64E}\u{64F}\u{650}\u{651}\u{652}",
        _ => "",
    }
}

/// The punctuation of its script a language writes that its training data
/// may lack (Lingua's models hold letters only, and the UDHR's legal prose
/// has little punctuation): the Hebrew maqaf, geresh and gershayim, which
/// join words and mark abbreviations and numerals ("ארה״ב", "ג׳"), the
/// Arabic question mark and semicolon, and the Spanish and Galician
/// opening question and exclamation marks.
fn punctuation(tag: &str) -> &'static str {
    match tag {
        "he" => "\u{5BE}\u{5F3}\u{5F4}",
        "ar" | "fa" | "ur" => "\u{61B}\u{61F}",
        "es" | "gl" => "¿¡",
        _ => "",
    }
}

/// The typographic punctuation of running text, which the UDHR's legal
/// prose does without: quotation marks, the apostrophe, dashes, the
/// ellipsis and the no-break space. Every language's text holds some of
/// them.
const TYPOGRAPHY: &str = "’‘“”„«»–—…\u{A0}";

/// The probability a mark of [`punctuation`] the training data lacks is
/// given: about a tenth of a comma's.
const PUNCTUATION_PROBABILITY: f64 = 1e-3;

/// The probability a combining mark the training data lacks is given:
/// pointed text has one after most letters.
const MARK_PROBABILITY: f64 = 3e-3;

/// The probability an exemplar letter the training data lacks is given.
const EXEMPLAR_PROBABILITY: f64 = 1e-4;

/// The probability of each class, for its members that are no explicit
/// symbol (Implausible has a fixed cost): an unseen letter of the
/// language's script, a rare one, a letter of another script, punctuation,
/// a symbol.
const CLASS_PROBABILITY: [f64; 6] = [8e-4, 1.6e-4, 1e-4, 2e-3, 2.2e-4, 0.0];
/// The probabilities of the letter classes are for training data of about
/// this many characters (the UDHR); with more data they shrink with the
/// square root of its size.
const SMALL_TRAINING_DATA: f64 = 20_000.0;
/// The cost of an implausible character, in nats.
const IMPLAUSIBLE_COST: f64 = 20.0;
/// Strength of the Dirichlet prior that pulls pair probabilities to the unigram.
const PAIR_PRIOR: f64 = 8.0;
/// The least probability of backing off from a symbol to an unseen pair.
const MIN_BACKOFF: f64 = 0.01;
/// Pairs whose cost is within this many nats of the backed-off estimate are
/// not stored.
const PAIR_MIN_GAIN: f64 = 0.25;
/// A folded character is an explicit symbol if the training data has it at
/// least this often (as a share of all symbols) and at least twice.
const MIN_SYMBOL_SHARE: f64 = 2e-6;
/// A pair is stored only if the training data has it at least this often
/// (as a share of all pairs).
const MIN_PAIR_SHARE: f64 = 1e-6;
/// Share of a language's letters beyond ASCII (its exemplar letters, each
/// weighed by how often the training text has it) an encoding must write
/// to serve it, in percent.
const MIN_COVERAGE_PERCENT: f64 = 99.0;

/// Renders `tables.rs` from the training data in `text_dir`.
///
/// # Errors
///
/// A [`GenerateError`] if a file is missing, unreadable or malformed.
pub fn render(text_dir: &Path) -> Result<String, GenerateError> {
    let mut out = String::new();
    let _ = write!(
        out,
        "// @generated by `{REGENERATE_COMMAND}`\n\
         // from the training data in indexes/languages/ (sources and licences in\n\
         // indexes/languages/SOURCES.md). Do not edit: regenerate instead.\n\n\
         //! The statistics of each language (see `crate::language`).\n\n\
         use super::{{Language, Script}};\n\n\
         /// Every language with statistics, in the order of the generator's list.\n\
         pub static LANGUAGES: [Language; {}] = [\n",
        LANGUAGES.len()
    );
    for spec in &LANGUAGES {
        let mut counts = Counts::read(spec, text_dir)?;
        counts.add_typography();
        let model = Model::train(spec, &counts);
        model.render(spec, &counts, &mut out);
    }
    out.push_str("];\n");
    Ok(out)
}

/// Counts of folded characters and of pairs of them, from the training data.
#[derive(Default)]
struct Counts {
    symbols: HashMap<char, f64>,
    pairs: HashMap<(char, char), f64>,
}

fn read(path: PathBuf) -> Result<Option<String>, GenerateError> {
    match std::fs::read_to_string(&path) {
        Ok(text) => Ok(Some(text)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(GenerateError::Read { path, source }),
    }
}

/// Whether a folded character is a letter or the word boundary: what
/// Lingua's models count (everything else comes from the UDHR text).
fn is_letter_or_boundary(c: char) -> bool {
    c == ' ' || c.is_alphabetic()
}

/// Where a language whose Lingua model holds single characters (Chinese,
/// Japanese, Korean) takes its letters and its pairs from.
struct CharacterModel {
    tag: &'static str,
    /// The tag of the model of its characters.
    model: &'static str,
    /// The tag of the sentences its pairs are learned from, beside its
    /// UDHR text.
    sentences: &'static str,
    /// How the model's characters, and the sentences', are read: as they
    /// are, or through one of OpenCC's tables (Lingua's Chinese is
    /// traditional, its sentences simplified).
    model_forms: Forms,
    sentence_forms: Forms,
}

/// Chinese characters as they are written, or in their other forms.
#[derive(Clone, Copy, PartialEq)]
enum Forms {
    AsWritten,
    Simplified,
    Traditional,
}

impl Forms {
    /// OpenCC's table from the other forms to these, if these are not the
    /// characters as written.
    fn table(self) -> Option<&'static str> {
        match self {
            Self::AsWritten => None,
            Self::Simplified => Some("opencc/TSCharacters.txt"),
            Self::Traditional => Some("opencc/STCharacters.txt"),
        }
    }
}

const fn character_model(tag: &'static str) -> CharacterModel {
    CharacterModel {
        tag,
        model: tag,
        sentences: tag,
        model_forms: Forms::AsWritten,
        sentence_forms: Forms::AsWritten,
    }
}

/// Chinese, Japanese and Korean. Simplified Chinese, which Lingua has no
/// model of, reads its traditional characters as simplified; traditional
/// Chinese, which has no sentences, reads the simplified ones as
/// traditional (the first form OpenCC gives: "後" for "后", "臺" for "台",
/// so its pairs are those of standard traditional text, as Big5 text more
/// often writes "台").
const CHARACTER_MODELS: [CharacterModel; 4] = [
    character_model("ja"),
    character_model("ko"),
    CharacterModel {
        model: "zh-Hant",
        model_forms: Forms::Simplified,
        ..character_model("zh-Hans")
    },
    CharacterModel {
        sentences: "zh-Hans",
        sentence_forms: Forms::Traditional,
        ..character_model("zh-Hant")
    },
];

/// How many letters the counts of a language with a model of its
/// characters stand for: a character that often in a million is a symbol
/// of its own (the rarer ones count for their class).
const CHARACTER_MODEL_LETTERS: f64 = 1e6;

/// The weight of the model of characters in such a language's letter
/// counts; the rest is its text's (the UDHR and sentences), which is what
/// its pairs are learned from.
const CHARACTER_MODEL_WEIGHT: f64 = 0.9;

impl Counts {
    /// The counts of a language: Lingua's, with the UDHR text's punctuation
    /// (and combining marks) weighed to the same number of letters; or the
    /// UDHR text's alone; or, for Chinese, Japanese and Korean, their text's
    /// with Lingua's model of their characters ([`Counts::read_characters`]).
    fn read(spec: &LanguageSpec, dir: &Path) -> Result<Self, GenerateError> {
        if let Some(model) = CHARACTER_MODELS.iter().find(|m| m.tag == spec.tag) {
            return Self::read_characters(spec, dir, model);
        }
        let text = read(dir.join(format!("{}.txt", spec.tag)))?;
        let lingua_path = |model: &str| dir.join(format!("lingua/{}.{model}.json", spec.tag));
        let mut lingua = match (
            read(lingua_path("unigrams"))?,
            read(lingua_path("bigrams"))?,
        ) {
            (Some(unigrams), Some(bigrams)) => Some(Self::from_lingua(
                &unigrams,
                &bigrams,
                &format!("lingua/{}", spec.tag),
            )?),
            _ => None,
        };
        if let Some(lingua) = lingua.as_mut() {
            lingua.undo_misread_letters(spec);
        }
        match (lingua, text) {
            (Some(mut lingua), Some(text)) => {
                let udhr = Self::from_text(&text);
                let letters = |counts: &Self| {
                    sorted_sum(
                        counts
                            .symbols
                            .iter()
                            .filter(|&(&c, _)| c.is_alphabetic())
                            .map(|(&c, &n)| (c, n)),
                    )
                };
                let scale = letters(&lingua) / letters(&udhr).max(1.0);
                // What Lingua counts: the word boundary and the letters its
                // model has. It leaves out the combining vowel signs Unicode
                // counts as alphabetic (the Thai ones above and below their
                // consonant, in most Thai words): those are the UDHR's.
                let has: HashSet<char> = lingua.symbols.keys().copied().collect();
                let counted = |c: char| is_letter_or_boundary(c) && (c == ' ' || has.contains(&c));
                for (&c, &n) in &udhr.symbols {
                    if !counted(c) {
                        *lingua.symbols.entry(c).or_default() += n * scale;
                    }
                }
                for (&(left, right), &n) in &udhr.pairs {
                    if !counted(left) || !counted(right) {
                        *lingua.pairs.entry((left, right)).or_default() += n * scale;
                    }
                }
                Ok(lingua)
            }
            (Some(lingua), None) => Ok(lingua),
            (None, Some(text)) => Ok(Self::from_text(&text)),
            (None, None) => Err(GenerateError::Read {
                path: dir.join(format!("{}.txt", spec.tag)),
                source: std::io::ErrorKind::NotFound.into(),
            }),
        }
    }

    /// The counts of a language with thousands of letters, of which its
    /// text (the UDHR, and Lingua's held-out sentences beyond those the
    /// evaluation keeps, `lingua/<tag>.sentences.txt`) shows only some:
    /// the letters are Lingua's model of its characters (a character's
    /// share of all, learned from large corpora), blended with the text's
    /// by [`CHARACTER_MODEL_WEIGHT`], and counted as
    /// [`CHARACTER_MODEL_LETTERS`] letters; the rest (word boundaries,
    /// punctuation) is the text's, weighed alike. The pairs are the text's,
    /// as many as it has: their estimates must know how little was seen
    /// ([`Model::train`] smooths them by how many continuations each
    /// symbol has). See [`CharacterModel`] for what each language reads.
    fn read_characters(
        spec: &LanguageSpec,
        dir: &Path,
        model: &CharacterModel,
    ) -> Result<Self, GenerateError> {
        let missing = |path: PathBuf| GenerateError::Read {
            path,
            source: std::io::ErrorKind::NotFound.into(),
        };
        let forms = |forms: Forms| -> Result<HashMap<char, char>, GenerateError> {
            let Some(table) = forms.table() else {
                return Ok(HashMap::new());
            };
            let tsv = read(dir.join(table))?.ok_or_else(|| missing(dir.join(table)))?;
            other_forms(&tsv, table)
        };
        let udhr = dir.join(format!("{}.txt", spec.tag));
        let mut text = read(udhr.clone())?.ok_or_else(|| missing(udhr))?;
        let sentences = format!("lingua/{}.sentences.txt", model.sentences);
        if let Some(sentences) = read(dir.join(sentences))? {
            let sentence_forms = forms(model.sentence_forms)?;
            text.extend(
                sentences
                    .chars()
                    .map(|c| sentence_forms.get(&c).copied().unwrap_or(c)),
            );
        }
        let file = format!("lingua/{}.unigrams.json", model.model);
        let json = read(dir.join(&file))?.ok_or_else(|| missing(dir.join(&file)))?;
        let model_forms = forms(model.model_forms)?;
        let mut shares: HashMap<char, f64> = HashMap::new();
        for (numerator, denominator, grams) in ngrams(&json, &file)? {
            for gram in grams {
                let mut chars = gram.chars();
                if let (Some(c), None) = (chars.next(), chars.next()) {
                    let c = model_forms.get(&c).copied().unwrap_or(c);
                    *shares.entry(language::fold(c)).or_default() += numerator / denominator;
                }
            }
        }
        let model_total = sorted_sum(shares.iter().map(|(&c, &n)| (c, n)));
        let mut counts = Self::from_text(&text);
        let text_letters = sorted_sum(
            counts
                .symbols
                .iter()
                .filter(|&(&c, _)| c.is_alphabetic())
                .map(|(&c, &n)| (c, n)),
        );
        if model_total <= 0.0 || text_letters <= 0.0 {
            return Err(GenerateError::Format {
                file,
                message: "letters in the model and in the text".to_owned(),
            });
        }
        let scale = CHARACTER_MODEL_LETTERS / text_letters;
        let mut symbols: Vec<(char, f64)> = counts.symbols.drain().collect();
        symbols.sort_by_key(|&(c, _)| c);
        for (c, n) in symbols {
            let n = if c.is_alphabetic() {
                n * scale * (1.0 - CHARACTER_MODEL_WEIGHT)
            } else {
                n * scale
            };
            counts.symbols.insert(c, n);
        }
        let mut model_shares: Vec<(char, f64)> = shares.into_iter().collect();
        model_shares.sort_by_key(|&(c, _)| c);
        for (c, share) in model_shares {
            *counts.symbols.entry(c).or_default() +=
                share / model_total * CHARACTER_MODEL_LETTERS * CHARACTER_MODEL_WEIGHT;
        }
        Ok(counts)
    }

    /// Gives the marks of [`TYPOGRAPHY`] that the training data has less
    /// often than [`PUNCTUATION_PROBABILITY`] that share, half of them
    /// after a word boundary: such marks stand between words, as the ASCII
    /// ones do (which fold to the boundary). What follows a mark is not
    /// said: its pairs back off to how common each symbol is, a letter
    /// after an opening quotation mark and a space after a closing one
    /// alike. (Saying a space follows too made every letter after a mark
    /// cost the backoff's price, and opening marks read worse.)
    fn add_typography(&mut self) {
        let total = sorted_sum(self.symbols.iter().map(|(&c, &n)| (c, n)));
        for mark in TYPOGRAPHY.chars() {
            let has = self.symbols.get(&mark).copied().unwrap_or(0.0);
            let added = PUNCTUATION_PROBABILITY * total - has;
            if added <= 0.0 {
                continue;
            }
            *self.symbols.entry(mark).or_default() += added;
            *self.pairs.entry((' ', mark)).or_default() += added / 2.0;
        }
    }

    /// Gives the letters of [`misread_letters`] back to the letters they
    /// stand for, in the counts of letters and of pairs.
    fn undo_misread_letters(&mut self, spec: &LanguageSpec) {
        let moves = misread_letters(spec);
        if moves.is_empty() {
            return;
        }
        // Only where the mojibake shows in quantity: a foreign letter in
        // a few loanwords is no sign.
        let count = |c: char| self.symbols.get(&c).copied().unwrap_or(0.0);
        let moves: Vec<(char, char)> = moves
            .into_iter()
            .filter(|&(from, to)| count(from) >= MIN_MISREAD_SHARE * count(to))
            .collect();
        let moved = |c: char| {
            moves
                .iter()
                .find(|&&(from, _)| from == c)
                .map_or(c, |&(_, to)| to)
        };
        let mut symbols: Vec<(char, f64)> = self.symbols.drain().collect();
        symbols.sort_by_key(|&(c, _)| c);
        for (c, n) in symbols {
            *self.symbols.entry(moved(c)).or_default() += n;
        }
        let mut pairs: Vec<((char, char), f64)> = self.pairs.drain().collect();
        pairs.sort_by_key(|&(key, _)| key);
        for ((left, right), n) in pairs {
            *self.pairs.entry((moved(left), moved(right))).or_default() += n;
        }
    }

    /// The counts of a text: a boundary at each line's ends, runs of
    /// boundaries collapsed.
    fn from_text(text: &str) -> Self {
        let sequence = folded(text);
        let mut counts = Self::default();
        for &c in &sequence {
            *counts.symbols.entry(c).or_default() += 1.0;
        }
        for pair in sequence.windows(2) {
            if !(pair[0] == ' ' && pair[1] == ' ') {
                *counts.pairs.entry((pair[0], pair[1])).or_default() += 1.0;
            }
        }
        counts
    }

    /// The counts behind Lingua's relative frequencies: a letter's share of
    /// all letters, and a pair's share of its first letter's occurrences.
    /// A letter's occurrences that no pair continues end a word, and those
    /// no pair leads to start one.
    fn from_lingua(unigrams: &str, bigrams: &str, file: &str) -> Result<Self, GenerateError> {
        let unigrams = ngrams(unigrams, file)?;
        let total = unigrams
            .iter()
            .map(|&(_, denominator, _)| denominator)
            .fold(0.0, f64::max);
        let mut letters: HashMap<char, f64> = HashMap::new();
        for (numerator, denominator, grams) in &unigrams {
            for gram in grams {
                let mut chars = gram.chars();
                if let (Some(c), None) = (chars.next(), chars.next()) {
                    *letters.entry(c).or_default() += numerator / denominator * total;
                }
            }
        }
        let mut pairs: HashMap<(char, char), f64> = HashMap::new();
        for (numerator, denominator, grams) in ngrams(bigrams, file)? {
            for gram in grams {
                let mut chars = gram.chars();
                if let (Some(left), Some(right), None) = (chars.next(), chars.next(), chars.next())
                {
                    let n = numerator / denominator * letters.get(&left).copied().unwrap_or(0.0);
                    *pairs.entry((left, right)).or_default() += n;
                }
            }
        }
        // Sorted, so that sums come out the same on every run.
        let mut sorted_pairs: Vec<((char, char), f64)> = pairs.into_iter().collect();
        sorted_pairs.sort_by_key(|&(key, _)| key);
        let mut continued: HashMap<char, f64> = HashMap::new();
        let mut led_to: HashMap<char, f64> = HashMap::new();
        for &((left, right), n) in &sorted_pairs {
            *continued.entry(left).or_default() += n;
            *led_to.entry(right).or_default() += n;
        }
        let mut counts = Self::default();
        let mut words = 0.0;
        let mut add_pair = |left: char, right: char, n: f64| {
            let key = (language::fold(left), language::fold(right));
            *counts.pairs.entry(key).or_default() += n;
        };
        let mut sorted: Vec<(char, f64)> = letters.iter().map(|(&c, &n)| (c, n)).collect();
        sorted.sort_by_key(|&(c, _)| c);
        for &(c, n) in &sorted {
            let starts = (n - led_to.get(&c).copied().unwrap_or(0.0)).max(0.0);
            let ends = (n - continued.get(&c).copied().unwrap_or(0.0)).max(0.0);
            add_pair(' ', c, starts);
            add_pair(c, ' ', ends);
            words += starts;
        }
        for ((left, right), n) in sorted_pairs {
            add_pair(left, right, n);
        }
        for (c, n) in sorted {
            *counts.symbols.entry(language::fold(c)).or_default() += n;
        }
        counts.symbols.insert(' ', words);
        Ok(counts)
    }
}

/// The other form of each character of one of OpenCC's tables (`FROM TAB
/// TO...`, the first of several forms, which is the usual one).
fn other_forms(tsv: &str, file: &str) -> Result<HashMap<char, char>, GenerateError> {
    let mut forms = HashMap::new();
    for line in tsv.lines().filter(|line| !line.is_empty()) {
        let one_char = |field: Option<&str>| {
            let mut chars = field?.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Some(c),
                _ => None,
            }
        };
        let Some((from, to)) = line.split_once('\t') else {
            return Err(GenerateError::Format {
                file: file.to_owned(),
                message: format!("FROM TAB TO, not {line:?}"),
            });
        };
        if let (Some(from), Some(to)) = (one_char(Some(from)), one_char(to.split(' ').next())) {
            forms.insert(from, to);
        }
    }
    Ok(forms)
}

/// The letters of a language's training text that are its legacy text read
/// as windows-1252, each with the letter it stands for: Lingua's corpora
/// hold such mojibake (a sixth of the Czech "ě" is written "ì", more than
/// half of the Hungarian "ő" and "ű" are "õ" and "û"), and a model that
/// learned it finds the mojibake plausible. A letter is taken for mojibake
/// when it is no letter of the language's alphabet ([`exemplars`]) and a
/// single-byte encoding that writes the language (Windows code pages
/// first; not the Mac ones, whose text is not what the corpora misread)
/// has a letter of the alphabet at the same byte, and the training text
/// has it often ([`MIN_MISREAD_SHARE`]).
fn misread_letters(language: &LanguageSpec) -> Vec<(char, char)> {
    let native: Vec<char> = exemplars(language.tag)
        .chars()
        .map(crate::language::fold)
        .collect();
    let Some(misread) = single_byte::for_encoding(MISREAD_AS) else {
        return Vec::new();
    };
    // A language given encodings beyond what its exemplars show writes
    // letters they do not list (Vietnamese: its tones are marks on them).
    if language.script != Script::Latin || native.is_empty() || !language.extra_encodings.is_empty()
    {
        return Vec::new();
    }
    let bits = encodings_for(
        &LanguageSpec {
            extra_encodings: &[],
            ..spec(language.tag, language.name, language.script)
        },
        None,
    );
    let mut pages: Vec<&single_byte::SingleByteIndex> = ENCODINGS
        .iter()
        .enumerate()
        .filter(|&(position, entry)| {
            bits & (1 << position) != 0
                && entry.name != MISREAD_AS
                && !entry.name.starts_with("macintosh")
                && !entry.name.starts_with("x-mac")
        })
        .filter_map(|(_, entry)| single_byte::for_encoding(entry.name))
        .collect();
    pages.sort_by_key(|page| !page.name().starts_with("windows-"));
    let mut moves = Vec::new();
    for pointer in 0..128_u8 {
        let Some(from) = misread.code_point(pointer).map(crate::language::fold) else {
            continue;
        };
        if !from.is_alphabetic() || native.contains(&from) {
            continue;
        }
        let to = pages.iter().find_map(|page| {
            page.code_point(pointer)
                .map(crate::language::fold)
                .filter(|&to| to != from && native.contains(&to))
        });
        if let Some(to) = to {
            moves.push((from, to));
        }
    }
    moves
}

/// A letter of [`misread_letters`] is taken back only when the training text
/// has it at least this often for each of the letter it stands for.
const MIN_MISREAD_SHARE: f64 = 0.01;

/// The decoder that made the mojibake of [`misread_letters`].
const MISREAD_AS: &str = "windows-1252";

/// The sum of counts in the order of their characters, so that it comes
/// out the same on every run.
fn sorted_sum(counts: impl Iterator<Item = (char, f64)>) -> f64 {
    let mut counts: Vec<(char, f64)> = counts.collect();
    counts.sort_by_key(|&(c, _)| c);
    counts.iter().map(|&(_, n)| n).sum()
}

/// The n-grams of one of Lingua's models: (numerator, denominator, n-grams)
/// for each relative frequency.
fn ngrams(json: &str, file: &str) -> Result<Vec<(f64, f64, Vec<String>)>, GenerateError> {
    let format = |message: &str| GenerateError::Format {
        file: file.to_owned(),
        message: message.to_owned(),
    };
    let value = json::parse(json).map_err(|error| GenerateError::Json {
        file: file.to_owned(),
        byte_offset: error.byte_offset,
        message: error.message,
    })?;
    let Some(json::Json::Object(members)) = value.member("ngrams") else {
        return Err(format("an object of n-grams"));
    };
    let mut out = Vec::with_capacity(members.len());
    for (fraction, grams) in members {
        let (numerator, denominator) = fraction
            .split_once('/')
            .and_then(|(n, d)| Some((n.parse::<f64>().ok()?, d.parse::<f64>().ok()?)))
            .filter(|&(_, d)| d > 0.0)
            .ok_or_else(|| format("relative frequencies as NUMERATOR/DENOMINATOR"))?;
        let grams = grams
            .as_str()
            .ok_or_else(|| format("n-grams as a string"))?
            .split(' ')
            .map(str::to_owned)
            .collect();
        out.push((numerator, denominator, grams));
    }
    Ok(out)
}

struct Model {
    /// Explicit symbols, sorted.
    symbols: Vec<char>,
    /// The average cost of a letter among the explicit symbols.
    letter_cost: u8,
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
    #[expect(
        clippy::too_many_lines,
        reason = "one estimation, step by step: symbols, unigram, pairs"
    )]
    fn train(spec: &LanguageSpec, counts: &Counts) -> Self {
        let total = sorted_sum(counts.symbols.iter().map(|(&c, &n)| (c, n)));
        let min_count = match spec.script {
            Script::Japanese | Script::Chinese | Script::Korean => 1.0,
            _ => 2.0_f64.max(total * MIN_SYMBOL_SHARE),
        };
        let mut pseudo: Vec<(char, f64)> = Vec::new();
        let wanted = exemplars(spec.tag)
            .chars()
            .map(|c| (c, EXEMPLAR_PROBABILITY))
            .chain(marks(spec.tag).chars().map(|c| (c, MARK_PROBABILITY)))
            .chain(
                punctuation(spec.tag)
                    .chars()
                    .map(|c| (c, PUNCTUATION_PROBABILITY)),
            );
        for (c, p) in wanted {
            let c = language::fold(c);
            if counts.symbols.get(&c).copied().unwrap_or(0.0) < p * total {
                pseudo.push((c, p));
            }
        }
        let mut symbols: Vec<char> = counts
            .symbols
            .iter()
            .filter(|&(&c, &n)| n >= min_count && !language::is_implausible(c))
            .map(|(&c, _)| c)
            .chain(pseudo.iter().map(|&(c, _)| c))
            .collect();
        symbols.sort_unstable();
        symbols.dedup();
        let class_base = symbols.len();
        let index_of = |c: char| match symbols.binary_search(&c) {
            Ok(position) => position,
            Err(_) => class_base + language::class_of(c, spec.script).position(),
        };

        let mut symbol_counts = vec![0.0f64; class_base + CharClass::ALL.len()];
        let mut sorted: Vec<(char, f64)> = counts.symbols.iter().map(|(&c, &n)| (c, n)).collect();
        sorted.sort_by_key(|&(c, _)| c);
        for &(c, n) in &sorted {
            symbol_counts[index_of(c)] += n;
        }
        for &(c, p) in &pseudo {
            let slot = &mut symbol_counts[index_of(c)];
            *slot = slot.max(p * total);
        }
        let counted: f64 = symbol_counts.iter().sum();
        // Letters the training data never shows are the rarer the more data
        // there is: a large corpus of the language that lacks a letter says
        // the language does not use it.
        let letter_floor = (SMALL_TRAINING_DATA / counted).sqrt().min(1.0);
        let class_probability: Vec<f64> = CharClass::ALL
            .iter()
            .map(|class| {
                let p = CLASS_PROBABILITY[class.position()];
                match class {
                    CharClass::OwnLetter | CharClass::OwnRareLetter | CharClass::OtherLetter => {
                        p * letter_floor
                    }
                    _ => p,
                }
            })
            .collect();
        let class_mass: f64 = class_probability.iter().sum();
        let probability: Vec<f64> = symbol_counts
            .iter()
            .enumerate()
            .map(|(index, &n)| {
                let class = index
                    .checked_sub(class_base)
                    .map_or(0.0, |class| class_probability[class]);
                n / counted * (1.0 - class_mass) + class
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

        let mut pair_counts: BTreeMap<(usize, usize), f64> = BTreeMap::new();
        let mut left_counts = vec![0.0f64; symbol_counts.len()];
        let mut sorted_pairs: Vec<((char, char), f64)> =
            counts.pairs.iter().map(|(&k, &n)| (k, n)).collect();
        sorted_pairs.sort_by_key(|&(key, _)| key);
        for ((left, right), n) in sorted_pairs {
            if left == ' ' && right == ' ' {
                continue;
            }
            let (left, right) = (index_of(left), index_of(right));
            *pair_counts.entry((left, right)).or_default() += n;
            left_counts[left] += n;
        }
        let all_pairs: f64 = left_counts.iter().sum();
        let min_pair = 2.0_f64.max(all_pairs * MIN_PAIR_SHARE);
        // Chinese, Japanese and Korean learn their pairs from a text that
        // shows a few of the continuations of each of thousands of symbols:
        // a symbol's prior is as strong as it has continuations (Witten
        // and Bell's estimate), so that a common symbol's unseen
        // continuations keep the probability that its many seen ones say
        // it has. A fixed prior would price them as rarities.
        let mut continuations = vec![0.0f64; symbol_counts.len()];
        if matches!(
            spec.script,
            Script::Japanese | Script::Chinese | Script::Korean
        ) {
            for &(left, _) in pair_counts.keys() {
                continuations[left] += 1.0;
            }
        }
        let prior = |left: usize| PAIR_PRIOR.max(continuations[left]);
        // However much data there is, the continuations it never shows
        // (punctuation, which Lingua's models leave out, and rare letters)
        // keep some probability.
        let backoff_cost = |left: usize| {
            -(prior(left) / (left_counts[left] + prior(left)))
                .max(MIN_BACKOFF)
                .ln()
        };
        let mut pairs = Vec::new();
        for (&(left, right), &n) in &pair_counts {
            if n < min_pair || left == implausible || right == implausible {
                continue;
            }
            let p = (n + prior(left) * probability[right]) / (left_counts[left] + prior(left));
            let cost = -p.ln();
            let estimate = backoff_cost(left) + unigram_cost(right);
            if (cost - estimate).abs() >= PAIR_MIN_GAIN {
                pairs.push((((left as u32) << 16) | right as u32, quantize(cost)));
            }
        }
        // What a letter of the language costs on average (its letters'
        // entropy): a few nats in an alphabet, twice that among thousands
        // of ideographs.
        let (mut letter_mass, mut letter_entropy) = (0.0, 0.0);
        for (index, &c) in symbols.iter().enumerate() {
            if c.is_alphabetic() {
                letter_mass += probability[index];
                letter_entropy += probability[index] * unigram_cost(index);
            }
        }
        Self {
            letter_cost: quantize(letter_entropy / letter_mass.max(f64::MIN_POSITIVE)),
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

    fn render(&self, spec: &LanguageSpec, counts: &Counts, out: &mut String) {
        let encodings = encodings_for(spec, Some(counts));
        let _ = writeln!(out, "    // {}", spec.name);
        let _ = writeln!(out, "    Language {{");
        let _ = writeln!(out, "        tag: {:?},", spec.tag);
        let _ = writeln!(out, "        name: {:?},", spec.name);
        let _ = writeln!(out, "        script: Script::{:?},", spec.script);
        let _ = writeln!(out, "        encodings: {encodings:#018x},");
        let _ = writeln!(out, "        letter_cost: {},", self.letter_cost);
        let symbols: Vec<String> = self
            .symbols
            .iter()
            .map(|&c| format!("0x{:X}", u32::from(c)))
            .collect();
        render_list(out, "symbols", &symbols);
        let numbers = |values: &[u8]| values.iter().map(u8::to_string).collect::<Vec<_>>();
        render_list(out, "unigram", &numbers(&self.unigram));
        render_list(out, "backoff", &numbers(&self.backoff));
        // The pairs by left-hand symbol: where each row starts, then the
        // right-hand symbols and costs, each row sorted.
        let mut pairs = self.pairs.clone();
        pairs.sort_unstable();
        let mut rows = vec![0usize; self.unigram.len() + 1];
        for &(key, _) in &pairs {
            rows[(key >> 16) as usize + 1] += 1;
        }
        for left in 1..rows.len() {
            rows[left] += rows[left - 1];
        }
        let rows: Vec<String> = rows.iter().map(usize::to_string).collect();
        render_list(out, "pair_rows", &rows);
        let rights: Vec<String> = pairs
            .iter()
            .map(|&(key, _)| (key & 0xFFFF).to_string())
            .collect();
        render_list(out, "pairs", &rights);
        let costs: Vec<u8> = pairs.iter().map(|&(_, cost)| cost).collect();
        render_list(out, "pair_costs", &numbers(&costs));
        let _ = writeln!(out, "    }},");
    }
}

fn render_list(out: &mut String, field: &str, values: &[String]) {
    let _ = writeln!(out, "        {field}: &[");
    for chunk in values.chunks(24) {
        let _ = writeln!(out, "            {},", chunk.join(", "));
    }
    let _ = writeln!(out, "        ],");
}

/// The encodings that write the language: UTF-8; gb18030, which like UTF-8
/// encodes every code point, for every language but Japanese (whose kana
/// GB 2312 writes as JIS X 0208 does, so that its text in gb18030 is taken
/// for EUC-JP, and detection reads gb18030 with Han ideographs as Chinese);
/// each single-byte encoding
/// that writes at least [`MIN_COVERAGE_PERCENT`] of the language's letters beyond
/// ASCII (its exemplars; none for Chinese, Japanese and Korean, which no
/// single-byte encoding writes), and the spec's extra encodings; as bits over
/// positions in `ENCODINGS`.
fn encodings_for(spec: &LanguageSpec, counts: Option<&Counts>) -> u64 {
    let letters: Vec<char> = exemplars(spec.tag)
        .chars()
        .map(language::fold)
        .filter(|&c| language::script_of(c).is_some())
        .collect();
    // Each letter weighs what the training text has of it, so that a
    // letter of loanwords alone (Finnish "š" and "ž") keeps no encoding
    // from the language; without counts, each weighs alike.
    let weight =
        |c: char| counts.map_or(1.0, |counts| counts.symbols.get(&c).copied().unwrap_or(0.0));
    let all: f64 = letters.iter().map(|&c| weight(c)).sum();
    let cjk = matches!(
        spec.script,
        Script::Japanese | Script::Chinese | Script::Korean
    );
    let mut bits = 0u64;
    for (position, entry) in ENCODINGS.iter().enumerate() {
        let writes = if entry.name == "UTF-8"
            || (entry.name == "gb18030" && spec.tag != "ja")
            || spec.extra_encodings.contains(&entry.name)
        {
            true
        } else if let Some(index) = single_byte::for_encoding(entry.name)
            && !cjk
        {
            let writable = |c: char| {
                // The letter, or its capital (a few encodings write some
                // letters in one case only), or its legacy twin.
                let upper: Vec<char> = c.to_uppercase().collect();
                index.pointer(c).is_some()
                    || (upper.len() == 1 && index.pointer(upper[0]).is_some())
                    || language::legacy_twin(c).is_some_and(|t| index.pointer(t).is_some())
            };
            // A language with no letters beyond ASCII is written by all.
            let written: f64 = letters
                .iter()
                .filter(|&&c| writable(c))
                .map(|&c| weight(c))
                .sum();
            written * 100.0 >= MIN_COVERAGE_PERCENT * all
        } else {
            false
        };
        if writes {
            bits |= 1 << position;
        }
    }
    bits
}
