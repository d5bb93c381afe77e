//! Encoding detection: ranks every override choice for a byte buffer, with a
//! score and the evidence behind it. The public entry point is [`detect`];
//! `core/DETECTION.md` says how it decides and how well.

mod declared;
mod sample;
mod segments;
mod text;
mod utf16;

use std::fmt;

use mojiscope_indexes::language::{self, COST_SCALE, LANGUAGES, Language, Script};

use crate::bom::bom_sniff;
use crate::encoding::{
    ALL, BIG5, EUC_JP, EUC_KR, Encoding, GB18030, GBK, IBM866, ISO_2022_JP, ISO_8859_2, ISO_8859_5,
    ISO_8859_6, ISO_8859_7, ISO_8859_8, ISO_8859_8_I, ISO_8859_15, KOI8_R, KOI8_U, MACINTOSH,
    REPLACEMENT, SHIFT_JIS, UTF_8, WINDOWS_874, WINDOWS_1250, WINDOWS_1251, WINDOWS_1252,
    WINDOWS_1253, WINDOWS_1254, WINDOWS_1255, WINDOWS_1256, WINDOWS_1257, WINDOWS_1258,
    X_MAC_CYRILLIC, X_USER_DEFINED,
};
pub use declared::{Declaration, DeclarationSource, PRESCAN_BYTES, declared, prescan};
pub use segments::{Segment, SegmentNote, Segmentation, segments, segments_with_detection};

use crate::provenance::DecodeErrorKind;
use text::{ByteCounts, ByteTable, TextStats};

/// The cost of one decoding error, in nats: errors are rare in real files.
const ERROR_COST: f64 = 20.0;

/// The cost of an ASCII letter, in units of 1/`COST_SCALE` nat, in a
/// language not written in Latin script (see [`ascii_language`]).
const ASCII_LETTER_COST: u64 = 1;

/// The cost of an uppercase letter right after a lowercase one (one of them
/// not ASCII), in nats: it tells apart encodings that swap the cases, such
/// as KOI8-R, windows-1251 and x-mac-cyrillic.
const CASE_BREAK_COST: f64 = 8.0;

/// Valid UTF-8 with non-ASCII content, and valid ISO-2022-JP that switches
/// to Japanese, are ranked at least this many nats above any other decode.
const STRUCTURE_LEAD: f64 = 10.0;

/// Scores are probabilities from log-likelihoods divided by this: a
/// character-pair model counts the same evidence more than once, and would
/// be overconfident otherwise.
const TEMPERATURE: f64 = 3.0;

/// Below this confidence the evidence is weak.
const WEAK_CONFIDENCE: f64 = 0.9;

/// The cost of an invisible formatting character between two letters of a
/// word, in nats: words do not hold them, and a reading that puts one there
/// (a left-to-right mark for the Turkish dotless i) is very likely wrong.
const FORMAT_IN_WORD_COST: f64 = 15.0;

/// The weight of a file's own declaration, in nats, when the bytes do not
/// contradict it: declarations are mostly right, so they settle what the
/// bytes leave open, but a few letters that read far better otherwise
/// outweigh them.
const DECLARED_PRIOR: f64 = 12.0;

/// How far apart the priors of two encodings (x-user-defined aside) can
/// be, in nats: see [`prior`].
const PRIOR_SPAN: f64 = 4.0;

/// A decode with errors may rank above one without only if it decodes at
/// least this many characters beyond ASCII for each error.
const ERRORS_OUTWEIGHED: u64 = 8;

/// Above this average cost (in nats) of a pair with a character beyond
/// ASCII, the best reading is itself implausible (fitting text costs 2 to
/// 5), and the confidence falls with every nat more.
const IMPLAUSIBLE_NATS_PER_CHAR: f64 = 7.0;

/// The ranking of the candidate encodings for some bytes.
#[derive(Clone, Debug)]
pub struct Detection {
    /// Every override choice, best first; first of all, the UTF-16 encoding
    /// a UTF-16 byte order mark picks, or the one the bytes are in when they
    /// are UTF-16 without one ([`Note::Utf16WithoutBom`]).
    pub candidates: Vec<Candidate>,
    /// Facts about the input as a whole.
    pub notes: Vec<Note>,
    /// The summed score of the best candidate and of the candidates that
    /// decode the input to the same text: how sure the ranking is of its
    /// answer, between 0 and 1.
    pub confidence: f64,
    /// How many nats of log-likelihood separate the best candidate from the
    /// best one that decodes the input differently (infinite if all agree).
    pub margin: f64,
    /// Whether the evidence is weak: [`confidence`](Self::confidence) below 0.9.
    pub is_weak: bool,
    /// How many bytes were examined (all of them unless [`Note::Sampled`]).
    pub bytes_examined: u64,
    /// What the file declares of its own encoding, if anything
    /// ([`declared()`]): weighed as evidence, never followed against the
    /// bytes.
    pub declaration: Option<Declaration>,
}

impl Detection {
    /// The best candidate's encoding.
    pub fn best(&self) -> &'static Encoding {
        self.candidates.first().map_or(UTF_8, |c| c.encoding)
    }

    /// The best candidate that is an override choice
    /// ([`Encoding::is_override_choice`]): what an encoding chooser should
    /// preselect. It differs from [`best`](Self::best) when the bytes are
    /// UTF-16 without a byte order mark (then the best is UTF-16BE or
    /// UTF-16LE, which a chooser never offers) or start with a UTF-16 byte
    /// order mark.
    pub fn best_override_choice(&self) -> &'static Encoding {
        self.candidates
            .iter()
            .map(|c| c.encoding)
            .find(|e| e.is_override_choice())
            .unwrap_or(UTF_8)
    }

    /// The UTF-16 encoding the bytes are in without a byte order mark, if
    /// they are (then it is also the best candidate).
    pub fn utf16_without_bom(&self) -> Option<&'static Encoding> {
        self.notes.iter().find_map(|note| match note {
            Note::Utf16WithoutBom { encoding } => Some(*encoding),
            _ => None,
        })
    }

    /// The candidate for `encoding`, if it was ranked.
    pub fn candidate(&self, encoding: &Encoding) -> Option<&Candidate> {
        self.candidates.iter().find(|c| c.encoding == encoding)
    }

    /// The candidates that decode the bytes examined to texts of their own,
    /// best first: the best of each group of candidates that read the same.
    /// The first few are the decodes worth showing side by side.
    ///
    /// ```
    /// use mojiscope_core::{detect, UTF_8};
    ///
    /// let detection = detect(b"plain ASCII");
    /// // Every encoding reads plain ASCII the same.
    /// let distinct: Vec<_> = detection.distinct_texts().map(|c| c.encoding).collect();
    /// assert_eq!(distinct, [UTF_8]);
    /// ```
    pub fn distinct_texts(&self) -> impl Iterator<Item = &Candidate> {
        self.candidates.iter().filter(|c| c.same_text_as.is_none())
    }
}

/// One ranked encoding.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The encoding.
    pub encoding: &'static Encoding,
    /// Its share of the probability over all candidates, between 0 and 1;
    /// the scores of a detection add up to 1.
    pub score: f64,
    /// Its log-likelihood in nats relative to the best candidate (0 for the
    /// best, negative for the others): finer than `score` far down the list.
    pub log_likelihood: f64,
    /// Decoding errors in the bytes examined.
    pub errors: u64,
    /// Why it ranks where it does.
    pub evidence: Vec<Evidence>,
    /// A better-ranked candidate whose decode of the bytes examined is the
    /// same text as this one's (the best such).
    pub same_text_as: Option<&'static Encoding>,
}

/// One piece of evidence for or against a candidate.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq)]
pub enum Evidence {
    /// The input starts with this encoding's byte order mark, which decides
    /// the decode (the standard's "decode" removes it and uses the encoding).
    Bom {
        /// The encoding of the byte order mark.
        encoding: &'static Encoding,
    },
    /// A byte order mark decides the decode, so this encoding would not be
    /// used even if chosen.
    OverriddenByBom {
        /// The encoding the byte order mark picks.
        encoding: &'static Encoding,
    },
    /// The bytes are valid UTF-8 with non-ASCII content: strong evidence.
    ValidUtf8 {
        /// How many non-ASCII characters they decode to.
        non_ascii_chars: u64,
    },
    /// The bytes switch to Japanese with ISO-2022-JP escape sequences and
    /// decode without error: strong evidence, as the escape byte is a
    /// control character in every other encoding.
    ValidIso2022Jp {
        /// How many non-ASCII characters they decode to.
        non_ascii_chars: u64,
    },
    /// Decoding errors.
    DecodeErrors {
        /// How many.
        count: u64,
        /// How many of each kind (the data of a kind is its first error's).
        by_kind: Vec<(DecodeErrorKind, u64)>,
        /// Offset of the first error.
        first_byte_offset: u64,
    },
    /// Characters real text does not contain: C0 controls (but TAB, LF, FF
    /// and CR), C1 controls, private-use characters, noncharacters.
    ImplausibleCharacters {
        /// How many.
        count: u64,
        /// The first one.
        first: char,
    },
    /// Symbols text seldom uses (box drawing, mathematical signs, ...).
    UnlikelySymbols {
        /// How many.
        count: u64,
    },
    /// How the decoded text reads in the language that fits it best among
    /// those the encoding serves.
    Language {
        /// The language's BCP 47 tag, e.g. "ru".
        tag: &'static str,
        /// Its English name, e.g. "Russian".
        name: &'static str,
        /// The average cost of a scored character in nats (lower is more
        /// plausible; about 2 to 4 for fitting text).
        nats_per_char: f64,
        /// How many characters were scored.
        chars: u64,
    },
    /// The decode is plain ASCII, the same as every ASCII-compatible
    /// encoding's: only how common the encoding is ranks it.
    AsciiOnly,
    /// The file declares this encoding ([`declared()`]).
    Declared {
        /// The declaration.
        declaration: Declaration,
        /// Whether it was weighed: not when the bytes contradict it (the
        /// declared encoding's decode has errors, or the bytes are valid
        /// UTF-8 with non-ASCII content), nor when a byte order mark decides.
        weighed: bool,
    },
    /// Invisible formatting characters (direction marks, zero-width
    /// joiners) between two letters of a word, where text does not hold
    /// them: strong evidence against the decode.
    FormatsInWords {
        /// How many.
        count: u64,
    },
    /// The bytes are UTF-16 in this byte order without a byte order mark:
    /// their high bytes are steady and the decode reads as text.
    Utf16WithoutBom {
        /// UTF-16LE or UTF-16BE.
        encoding: &'static Encoding,
    },
}

/// A fact about the input as a whole.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq)]
pub enum Note {
    /// The input is empty.
    Empty,
    /// Every byte is ASCII, so every ASCII-compatible encoding decodes it
    /// the same.
    AsciiOnly,
    /// The input was too long to examine whole: these windows were examined.
    Sampled {
        /// How many windows.
        windows: usize,
        /// How many bytes they hold.
        bytes_examined: u64,
        /// The input's length.
        byte_len: u64,
    },
    /// The bytes are UTF-16 without a byte order mark: that encoding is
    /// ranked first. UTF-16BE/LE are never offered to override a decode
    /// (the standard's Browser UI section): an encoding chooser takes
    /// [`Detection::best_override_choice`] instead.
    Utf16WithoutBom {
        /// UTF-16LE or UTF-16BE.
        encoding: &'static Encoding,
    },
    /// The evidence is weak: the best candidate may well be wrong.
    WeakEvidence {
        /// The best candidate's confidence.
        confidence: f64,
    },
    /// What the file declares of its own encoding, and whether the bytes
    /// agree.
    Declared {
        /// The declaration.
        declaration: Declaration,
        /// Whether the best candidate decodes the bytes as the declared
        /// encoding does.
        bytes_agree: bool,
        /// Whether the declaration was weighed (see [`Evidence::Declared`]).
        weighed: bool,
        /// The best candidate.
        best: &'static Encoding,
    },
    /// The best candidate has decoding errors although another decodes the
    /// bytes without any: its other characters beyond ASCII outweigh them.
    ErrorsOutweighed {
        /// The best candidate.
        encoding: &'static Encoding,
        /// Its decoding errors.
        errors: u64,
        /// The characters beyond ASCII it decodes.
        non_ascii_chars: u64,
        /// The best candidate that decodes without error.
        clean: &'static Encoding,
    },
    /// Even the best reading is implausible text (rare characters in odd
    /// pairs): the confidence is lowered to match.
    ImplausibleText {
        /// The average cost in nats of its pairs with a character beyond
        /// ASCII.
        nats_per_char: f64,
    },
}

/// Ranks every override choice for `bytes`, best first, with scores and
/// evidence.
///
/// It weighs, for each encoding the user could pick
/// ([`Encoding::is_override_choice`]):
/// - a byte order mark, which decides, as the standard's
///   [decode](https://encoding.spec.whatwg.org/#decode) does;
/// - whether the bytes are valid UTF-8 with non-ASCII content, which is
///   strong evidence for UTF-8;
/// - the number and kind of decoding errors;
/// - implausible characters in the decode (C0 and C1 controls, private-use
///   characters, noncharacters) and unlikely symbols;
/// - how plausible the decoded text is in the languages the encoding serves,
///   from character and character-pair statistics
///   ([`mojiscope_indexes::language`]);
/// - and, to break ties, how common the encoding is.
///
/// Each candidate gets a log-likelihood (in nats, relative to the best) and a
/// score: its share of the probability over all candidates, so scores add up
/// to 1 and compare across candidates. Encodings that decode the input to the
/// same text are grouped ([`Candidate::same_text_as`]): a tie between them is
/// no wrong answer. [`Detection::is_weak`] says when the evidence does not
/// settle the question.
///
/// Inputs longer than 256 KiB are sampled: four windows of 64 KiB spread from
/// start to end, their edges moved to line ends. Detection therefore takes
/// bounded time and memory whatever the input's length; [`Note::Sampled`]
/// says when it happened.
///
/// What the file declares of itself ([`declared()`]: a `<meta>`, an XML
/// declaration, a CSS `@charset`) is weighed as evidence: it settles what the
/// bytes leave open, but a declared encoding whose decode has errors, or a
/// declared legacy encoding where the bytes are valid UTF-8 with non-ASCII
/// content, is not followed; [`Note::Declared`] says what was declared and
/// whether the bytes agree. A decode with errors never ranks above one
/// without unless it decodes many more characters beyond ASCII
/// ([`Note::ErrorsOutweighed`] then says so).
///
/// UTF-16 without a byte order mark is named first when the bytes are
/// UTF-16 ([`Note::Utf16WithoutBom`]); as the standard's Browser UI section
/// asks that UTF-16BE/LE never be offered to override a decode, an encoding
/// chooser takes [`Detection::best_override_choice`].
///
/// ```
/// use mojiscope_core::{detect, SHIFT_JIS, WINDOWS_1251};
///
/// let detection = detect(b"\x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x65\x83\x4c\x83\x58\x83\x67");
/// assert_eq!(detection.best(), SHIFT_JIS);
///
/// let text = "\u{41f}\u{440}\u{438}\u{432}\u{435}\u{442}, \u{43c}\u{438}\u{440}!";
/// let (bytes, _, _) = WINDOWS_1251.encode(text);
/// let detection = detect(&bytes);
/// assert_eq!(detection.best(), WINDOWS_1251);
/// for candidate in &detection.candidates {
///     println!("{}\t{:.3}", candidate.encoding, candidate.score);
/// }
/// ```
pub fn detect(bytes: &[u8]) -> Detection {
    let declaration = declared(bytes);
    if let Some(encoding) = bom_sniff(bytes) {
        return bom_detection(bytes, encoding, declaration);
    }
    let windows: Vec<_> = sample::windows(bytes.len())
        .into_iter()
        .map(|window| sample::align(bytes, window))
        .collect();
    let bytes_examined: u64 = windows.iter().map(|w| w.len() as u64).sum();
    let mut notes = Vec::new();
    if bytes.is_empty() {
        notes.push(Note::Empty);
    } else if bytes.is_ascii()
        || (windows.len() > 1 && windows.iter().all(|w| bytes[w.clone()].is_ascii()))
    {
        notes.push(Note::AsciiOnly);
    }
    if windows.len() > 1 {
        notes.push(Note::Sampled {
            windows: windows.len(),
            bytes_examined,
            byte_len: bytes.len() as u64,
        });
    }
    let utf16 = utf16::looks_like(bytes, &windows);

    let byte_counts = ByteCounts::new(bytes, &windows);
    let mut scorer = Scorer::new(&byte_counts);
    let mut ranked: Vec<Ranked> = ALL
        .iter()
        .copied()
        .filter(|encoding| encoding.is_override_choice())
        .map(|encoding| {
            let table = decodes_byte_by_byte(encoding).then(|| text::byte_table(encoding));
            let stats = match table {
                Some(table) => byte_counts.stats(table, bytes, &windows),
                None => text::decode_stats(encoding, bytes, &windows),
            };
            let fit = scorer.best_language(encoding, &stats, table);
            Ranked::new(encoding, stats, fit)
        })
        .collect();

    // Candidates that decode to the same text read the same: give each the
    // best fit of its group.
    for index in 0..ranked.len() {
        let key = ranked[index].text_key();
        let best = ranked
            .iter()
            .filter(|other| other.text_key() == key)
            .filter_map(|other| other.fit)
            .min_by(|a, b| a.cost.total_cmp(&b.cost));
        ranked[index].fit = best;
    }
    for candidate in &mut ranked {
        let text_cost = candidate.fit.map_or(0.0, |fit| fit.cost);
        candidate.log_likelihood = prior(candidate.encoding)
            - text_cost
            - ERROR_COST * to_f64(candidate.stats.ranking_errors())
            - CASE_BREAK_COST * to_f64(candidate.stats.case_breaks)
            - FORMAT_IN_WORD_COST * to_f64(candidate.stats.formats_in_words);
    }
    let weighed = weigh_declaration(&mut ranked, declaration.as_ref());
    // Structure no other text has settles it: valid UTF-8 with non-ASCII
    // content, or ISO-2022-JP escape sequences that switch to text decoding
    // without error (the escape byte is a control character in every other
    // encoding). At most one of them holds: ISO-2022-JP is 7-bit.
    for strong in [UTF_8, ISO_2022_JP] {
        let holds = ranked
            .iter()
            .find(|c| c.encoding == strong)
            .is_some_and(|c| c.stats.ranking_errors() == 0 && c.stats.non_ascii > 0);
        if holds {
            let others = ranked
                .iter()
                .filter(|c| c.encoding != strong)
                .map(|c| c.log_likelihood)
                .fold(f64::NEG_INFINITY, f64::max);
            if let Some(candidate) = ranked.iter_mut().find(|c| c.encoding == strong) {
                candidate.log_likelihood = candidate.log_likelihood.max(others + STRUCTURE_LEAD);
            }
            break;
        }
    }
    keep_errors_below_clean_decodes(&mut ranked);
    // Stable: ties keep the standard's order.
    ranked.sort_by(|a, b| b.log_likelihood.total_cmp(&a.log_likelihood));
    if let Some((encoding, strong)) = utf16 {
        // UTF-16 is no override choice, but when the bytes are UTF-16 it is
        // named first: at once when the byte pattern shows it, else when its
        // decode reads better than every other.
        let stats = utf16::stats(encoding, bytes, &windows);
        let fit = scorer.best_language(encoding, &stats, None);
        let mut candidate = Ranked::new(encoding, stats, fit);
        let best = ranked.first().map_or(0.0, |c| c.log_likelihood);
        candidate.log_likelihood = if strong {
            best + STRUCTURE_LEAD
        } else {
            prior(encoding)
                - fit.map_or(0.0, |fit| fit.cost)
                - ERROR_COST * to_f64(candidate.stats.ranking_errors())
        };
        if candidate.log_likelihood > best {
            ranked.insert(0, candidate);
            notes.push(Note::Utf16WithoutBom { encoding });
        }
    }
    finish(&ranked, notes, bytes_examined, declaration, weighed)
}

/// Gives the candidates that decode the bytes as the declared encoding does
/// [`DECLARED_PRIOR`] more, when the bytes do not contradict the
/// declaration: its decode has no errors, and the bytes are not valid UTF-8
/// with non-ASCII content that the declared encoding reads otherwise.
/// Returns whether the declaration was weighed.
fn weigh_declaration(ranked: &mut [Ranked], declaration: Option<&Declaration>) -> bool {
    let Some(declared) = declaration.and_then(|d| ranked.iter().find(|c| c.encoding == d.encoding))
    else {
        return false;
    };
    let key = declared.text_key();
    let clean = declared.stats.ranking_errors() == 0;
    let utf8_contradicts = ranked.iter().any(|c| {
        c.encoding == UTF_8
            && c.stats.ranking_errors() == 0
            && c.stats.non_ascii > 0
            && c.text_key() != key
    });
    if !clean || utf8_contradicts {
        return false;
    }
    // The candidates that read the same as the declared encoding share its
    // weight; the declared one itself gets enough more to lead them, as
    // the file names it.
    let encoding = declared.encoding;
    for candidate in ranked.iter_mut().filter(|c| c.text_key() == key) {
        candidate.log_likelihood += DECLARED_PRIOR;
        if candidate.encoding == encoding {
            candidate.log_likelihood += PRIOR_SPAN;
        }
        candidate.declared = true;
    }
    true
}

/// A decode with errors never ranks above one without, unless the evidence
/// for it is strong: at least [`ERRORS_OUTWEIGHED`] characters beyond ASCII
/// for each error (a UTF-8 file with one broken sequence among hundreds of
/// good ones). Others are put just below the best clean decode.
fn keep_errors_below_clean_decodes(ranked: &mut [Ranked]) {
    let best_clean = ranked
        .iter()
        .filter(|c| c.stats.ranking_errors() == 0)
        .map(|c| c.log_likelihood)
        .fold(f64::NEG_INFINITY, f64::max);
    if best_clean == f64::NEG_INFINITY {
        return;
    }
    for candidate in ranked.iter_mut() {
        let errors = candidate.stats.ranking_errors();
        if errors > 0
            && candidate.stats.non_ascii < ERRORS_OUTWEIGHED * errors
            && candidate.log_likelihood >= best_clean
        {
            candidate.log_likelihood = best_clean - 1.0;
        }
    }
}

/// Whether the encoding's decoder decodes each byte on its own.
fn decodes_byte_by_byte(encoding: &Encoding) -> bool {
    encoding.is_single_byte() || encoding == X_USER_DEFINED
}

/// How common an encoding is, as a log-probability in nats: breaks ties
/// between encodings that decode the input alike.
fn prior(encoding: &Encoding) -> f64 {
    let common = [
        (UTF_8, 0.0),
        (WINDOWS_1252, -1.0),
        (WINDOWS_1250, -2.0),
        (WINDOWS_1251, -2.0),
        (WINDOWS_1253, -2.0),
        (WINDOWS_1254, -2.0),
        (WINDOWS_1255, -2.0),
        (WINDOWS_1256, -2.0),
        (WINDOWS_1257, -2.0),
        (WINDOWS_1258, -2.0),
        (WINDOWS_874, -2.0),
        (SHIFT_JIS, -2.0),
        (GBK, -2.0),
        (BIG5, -2.0),
        (EUC_KR, -2.0),
        (EUC_JP, -2.5),
        (GB18030, -2.5),
        (KOI8_R, -2.5),
        (ISO_2022_JP, -3.0),
        (ISO_8859_2, -3.0),
        (ISO_8859_5, -3.5),
        (ISO_8859_6, -3.0),
        (ISO_8859_7, -3.0),
        (ISO_8859_8_I, -3.0),
        (ISO_8859_8, -3.2),
        (ISO_8859_15, -3.0),
        (KOI8_U, -3.0),
        (IBM866, -3.5),
        (MACINTOSH, -4.0),
        (X_MAC_CYRILLIC, -4.0),
        (X_USER_DEFINED, -12.0),
    ];
    common
        .iter()
        .find(|(candidate, _)| *candidate == encoding)
        .map_or(-4.0, |&(_, nats)| nats)
}

/// A candidate while it is being ranked.
struct Ranked {
    encoding: &'static Encoding,
    stats: TextStats,
    fit: Option<Fit>,
    log_likelihood: f64,
    /// Whether the file's declaration was weighed for it.
    declared: bool,
}

impl Ranked {
    fn new(encoding: &'static Encoding, stats: TextStats, fit: Option<Fit>) -> Self {
        Self {
            encoding,
            stats,
            fit,
            log_likelihood: 0.0,
            declared: false,
        }
    }

    fn text_key(&self) -> (u64, u64, u64) {
        (self.stats.hash, self.stats.chars, self.stats.error_count())
    }
}

/// How well a decode reads in its best language.
#[derive(Clone, Copy, Debug)]
struct Fit {
    language: &'static Language,
    /// Cost in nats of the scored characters.
    cost: f64,
    /// How many characters were scored.
    chars: u64,
    /// Cost in nats of the scored pairs with a character beyond ASCII.
    high_cost: f64,
    /// How many such pairs.
    high_chars: u64,
}

impl Fit {
    /// The average cost in nats of a pair with a character beyond ASCII,
    /// if there is one.
    fn high_nats_per_char(&self) -> Option<f64> {
        (self.high_chars > 0).then(|| self.high_cost / to_f64(self.high_chars))
    }
}

/// Scores decodes under the language models, caching what every
/// ASCII-compatible decode shares: the cost of the ASCII pairs per language.
struct Scorer<'a> {
    byte_counts: &'a ByteCounts,
    ascii_costs: Vec<Option<(u64, u64)>>,
}

impl<'a> Scorer<'a> {
    fn new(byte_counts: &'a ByteCounts) -> Self {
        Self {
            byte_counts,
            ascii_costs: vec![None; LANGUAGES.len()],
        }
    }

    /// The cost (in units of 1/`COST_SCALE` nat) and count of the shared
    /// ASCII pairs for language `index`: in the language itself if it is
    /// written in Latin script, else in English plus
    /// [`ASCII_LETTER_COST`] for each ASCII letter.
    fn ascii_cost(&mut self, index: usize) -> (u64, u64) {
        if let Some(cost) = self.ascii_costs[index] {
            return cost;
        }
        let language = &LANGUAGES[index];
        let model = ascii_language(language);
        let mut cost = pairs_cost(model, model, &self.byte_counts.ascii_pairs);
        if language.script != Script::Latin {
            cost.0 += ASCII_LETTER_COST * self.byte_counts.ascii_letters;
        }
        self.ascii_costs[index] = Some(cost);
        cost
    }

    /// The language among those `encoding` serves in which the decode reads
    /// best, or `None` when nothing was scored.
    fn best_language(
        &mut self,
        encoding: &'static Encoding,
        stats: &TextStats,
        table: Option<&ByteTable>,
    ) -> Option<Fit> {
        // UTF-8 writes every language, and so does UTF-16.
        let position = if encoding.is_override_choice() {
            ALL.iter().position(|e| *e == encoding).unwrap_or(0)
        } else {
            0
        };
        let mut served: Vec<usize> = (0..LANGUAGES.len())
            .filter(|&i| LANGUAGES[i].is_written_in(position))
            .collect();
        if served.is_empty() {
            // x-user-defined writes no language: read it as English.
            served.push(0);
        }
        let mut best: Option<Fit> = None;
        for index in served {
            let language = &LANGUAGES[index];
            let (mut cost, mut chars) = match table {
                Some(table) => high_pairs_cost(language, table, self.byte_counts),
                None => pairs_cost(language, ascii_language(language), &stats.pairs),
            };
            let (high_cost, high_chars) = (cost, chars);
            if !stats.ascii_pairs_included {
                let (ascii_cost, ascii_chars) = self.ascii_cost(index);
                cost += ascii_cost;
                chars += ascii_chars;
            }
            let fit = Fit {
                language,
                cost: to_f64(cost) / COST_SCALE,
                chars,
                high_cost: to_f64(high_cost) / COST_SCALE,
                high_chars,
            };
            if chars > 0 && best.is_none_or(|b| fit.cost < b.cost) {
                best = Some(fit);
            }
        }
        best
    }
}

/// The language pairs of ASCII characters are scored in when the text is in
/// `language`: the language itself if it is written in Latin script, else
/// English (the Latin-script words of Russian or Japanese text, its markup
/// and names, are more often English than anything else, and the training
/// text of those languages has almost none). Each ASCII letter then costs
/// [`ASCII_LETTER_COST`] more: text in those languages has fewer of them, so
/// a text of Latin words does not read as well in them for free.
fn ascii_language(language: &'static Language) -> &'static Language {
    if language.script == Script::Latin {
        language
    } else {
        &LANGUAGES[0]
    }
}

/// The cost and count of character pairs in `language` (pairs of ASCII
/// characters in `ascii_language`).
fn pairs_cost(
    language: &Language,
    ascii_language: &Language,
    pairs: &text::PairCounts,
) -> (u64, u64) {
    let mut cost = 0u64;
    let mut chars = 0u64;
    for (&key, &n) in pairs {
        let (left, right) = text::pair_chars(key);
        let model = if left.is_ascii() && right.is_ascii() {
            ascii_language
        } else {
            language
        };
        cost += u64::from(model.pair_cost(left, right)) * u64::from(n);
        chars += u64::from(n);
    }
    (cost, chars)
}

/// The cost and count of the byte pairs with a non-ASCII byte, decoded with
/// `table`, in `language`.
fn high_pairs_cost(language: &Language, table: &ByteTable, counts: &ByteCounts) -> (u64, u64) {
    let mut symbols = [0usize; 256];
    let mut shares = [0u32; 256];
    let mut scripts = [None; 256];
    for byte in 0..256 {
        let folded = match table[byte] {
            Some(c) => language::fold(c),
            // An error is a word boundary.
            None => ' ',
        };
        scripts[byte] = language::script_of(folded);
        symbols[byte] = language.symbol(folded);
        if symbols[byte] >= language.symbols.len() {
            shares[byte] = language::member_cost(folded, language.script);
        }
    }
    let boundary = language.symbol(' ');
    let mut cost = 0u64;
    let mut chars = 0u64;
    for &(left, right, n) in &counts.high_pairs {
        let (left, right) = (usize::from(left), usize::from(right));
        if symbols[left] == boundary && symbols[right] == boundary {
            continue;
        }
        let pair = language.symbol_pair_cost(symbols[left], symbols[right])
            + shares[right]
            + language::script_change_cost(scripts[left], scripts[right]);
        cost += u64::from(pair) * u64::from(n);
        chars += u64::from(n);
    }
    (cost, chars)
}

/// Scores, groups, evidence and notes for a ranked list.
fn finish(
    ranked: &[Ranked],
    mut notes: Vec<Note>,
    bytes_examined: u64,
    declaration: Option<Declaration>,
    weighed: bool,
) -> Detection {
    let best_log_likelihood = ranked.first().map_or(0.0, |c| c.log_likelihood);
    let weights: Vec<f64> = ranked
        .iter()
        .map(|c| ((c.log_likelihood - best_log_likelihood) / TEMPERATURE).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let best_key = ranked.first().map(Ranked::text_key);
    let mut confidence = 0.0;
    let mut margin = f64::INFINITY;
    let mut candidates: Vec<Candidate> = Vec::with_capacity(ranked.len());
    for (position, (candidate, weight)) in ranked.iter().zip(&weights).enumerate() {
        let score = weight / total;
        if Some(candidate.text_key()) == best_key {
            confidence += score;
        } else if margin.is_infinite() {
            margin = best_log_likelihood - candidate.log_likelihood;
        }
        let same_text_as = ranked[..position]
            .iter()
            .find(|earlier| earlier.text_key() == candidate.text_key())
            .map(|earlier| earlier.encoding);
        candidates.push(Candidate {
            encoding: candidate.encoding,
            score,
            log_likelihood: candidate.log_likelihood - best_log_likelihood,
            errors: candidate.stats.error_count(),
            evidence: evidence(candidate, declaration.as_ref()),
            same_text_as,
        });
    }
    if let Some(best) = ranked.first() {
        if let Some(declaration) = &declaration {
            let declared_key = ranked
                .iter()
                .find(|c| c.encoding == declaration.encoding)
                .map(Ranked::text_key);
            notes.push(Note::Declared {
                declaration: declaration.clone(),
                bytes_agree: declared_key == best_key,
                weighed,
                best: best.encoding,
            });
        }
        let errors = best.stats.ranking_errors();
        if errors > 0
            && let Some(clean) = ranked.iter().find(|c| c.stats.ranking_errors() == 0)
        {
            notes.push(Note::ErrorsOutweighed {
                encoding: best.encoding,
                errors,
                non_ascii_chars: best.stats.non_ascii,
                clean: clean.encoding,
            });
        }
        // However sure the ranking is among the candidates, an answer whose
        // text is still implausible is no sure answer.
        if let Some(nats) = best.fit.and_then(|fit| fit.high_nats_per_char())
            && nats > IMPLAUSIBLE_NATS_PER_CHAR
        {
            confidence *= (-(nats - IMPLAUSIBLE_NATS_PER_CHAR) / 2.0).exp();
            notes.push(Note::ImplausibleText {
                nats_per_char: nats,
            });
        }
    }
    let is_weak = confidence < WEAK_CONFIDENCE;
    if is_weak {
        notes.push(Note::WeakEvidence { confidence });
    }
    Detection {
        candidates,
        notes,
        confidence,
        margin,
        is_weak,
        bytes_examined,
        declaration,
    }
}

fn evidence(candidate: &Ranked, declaration: Option<&Declaration>) -> Vec<Evidence> {
    let stats = &candidate.stats;
    let mut evidence = Vec::new();
    let errors = stats.error_count();
    if !candidate.encoding.is_override_choice() && candidate.encoding != REPLACEMENT {
        evidence.push(Evidence::Utf16WithoutBom {
            encoding: candidate.encoding,
        });
    }
    if let Some(declaration) = declaration.filter(|d| d.encoding == candidate.encoding) {
        evidence.push(Evidence::Declared {
            declaration: declaration.clone(),
            weighed: candidate.declared,
        });
    }
    let counted = stats.ranking_errors();
    if candidate.encoding == UTF_8 && counted == 0 && stats.non_ascii > 0 {
        evidence.push(Evidence::ValidUtf8 {
            non_ascii_chars: stats.non_ascii,
        });
    }
    if candidate.encoding == ISO_2022_JP && counted == 0 && stats.non_ascii > 0 {
        evidence.push(Evidence::ValidIso2022Jp {
            non_ascii_chars: stats.non_ascii,
        });
    }
    if errors > 0 {
        evidence.push(Evidence::DecodeErrors {
            count: errors,
            by_kind: stats.errors.clone(),
            first_byte_offset: stats.first_error.unwrap_or(0),
        });
    }
    if let Some(first) = stats.first_implausible {
        evidence.push(Evidence::ImplausibleCharacters {
            count: stats.implausible,
            first,
        });
    }
    if stats.symbols > 0 {
        evidence.push(Evidence::UnlikelySymbols {
            count: stats.symbols,
        });
    }
    if stats.formats_in_words > 0 {
        evidence.push(Evidence::FormatsInWords {
            count: stats.formats_in_words,
        });
    }
    if stats.non_ascii == 0 && errors == 0 && stats.implausible == 0 {
        evidence.push(Evidence::AsciiOnly);
    } else if let Some(fit) = candidate.fit {
        evidence.push(Evidence::Language {
            tag: fit.language.tag,
            name: fit.language.name,
            nats_per_char: fit.cost / to_f64(fit.chars.max(1)),
            chars: fit.chars,
        });
    }
    evidence
}

/// The ranking when a byte order mark decides: its encoding first with all
/// the score, then every other override choice.
fn bom_detection(
    bytes: &[u8],
    bom: &'static Encoding,
    declaration: Option<Declaration>,
) -> Detection {
    let mut evidence = vec![Evidence::Bom { encoding: bom }];
    if let Some(declaration) = declaration.as_ref().filter(|d| d.encoding == bom) {
        evidence.push(Evidence::Declared {
            declaration: declaration.clone(),
            weighed: false,
        });
    }
    let mut candidates = vec![Candidate {
        encoding: bom,
        score: 1.0,
        log_likelihood: 0.0,
        errors: 0,
        evidence,
        same_text_as: None,
    }];
    candidates.extend(
        ALL.iter()
            .copied()
            .filter(|e| e.is_override_choice() && *e != bom)
            .map(|encoding| Candidate {
                encoding,
                score: 0.0,
                log_likelihood: f64::NEG_INFINITY,
                errors: 0,
                evidence: vec![Evidence::OverriddenByBom { encoding: bom }],
                // The standard's decode gives the same text whatever is chosen.
                same_text_as: Some(bom),
            }),
    );
    let notes = declaration
        .iter()
        .map(|declaration| Note::Declared {
            declaration: declaration.clone(),
            bytes_agree: declaration.encoding == bom,
            weighed: false,
            best: bom,
        })
        .collect();
    Detection {
        candidates,
        notes,
        confidence: 1.0,
        margin: f64::INFINITY,
        is_weak: false,
        bytes_examined: bytes.len().min(3) as u64,
        declaration,
    }
}

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Bom { encoding } => write!(
                f,
                "starts with the {encoding} byte order mark, which decides the decode"
            ),
            Self::OverriddenByBom { encoding } => write!(
                f,
                "not used: the {encoding} byte order mark decides the decode"
            ),
            Self::ValidUtf8 { non_ascii_chars } => write!(
                f,
                "valid UTF-8 with {non_ascii_chars} non-ASCII character{}",
                plural(*non_ascii_chars)
            ),
            Self::ValidIso2022Jp { non_ascii_chars } => write!(
                f,
                "valid ISO-2022-JP: escape sequences switch to {non_ascii_chars} non-ASCII character{}",
                plural(*non_ascii_chars)
            ),
            Self::DecodeErrors {
                count,
                by_kind,
                first_byte_offset,
            } => {
                write!(
                    f,
                    "{count} decoding error{} (first at byte offset {first_byte_offset}:",
                    plural(*count)
                )?;
                for (position, (kind, n)) in by_kind.iter().enumerate() {
                    let separator = if position == 0 { " " } else { ", " };
                    write!(f, "{separator}{n} {}", kind.describe())?;
                }
                f.write_str(")")
            }
            Self::ImplausibleCharacters { count, first } => write!(
                f,
                "{count} character{} text does not contain (first U+{:04X})",
                plural(*count),
                u32::from(*first)
            ),
            Self::UnlikelySymbols { count } => {
                write!(f, "{count} unlikely symbol{}", plural(*count))
            }
            Self::Language {
                name,
                nats_per_char,
                chars,
                ..
            } => write!(
                f,
                "reads best as {name}: {nats_per_char:.2} nats per character over {chars} character{}",
                plural(*chars)
            ),
            Self::AsciiOnly => f.write_str(
                "decodes to plain ASCII, like every ASCII-compatible encoding: only how common it is ranks it",
            ),
            Self::Declared {
                declaration,
                weighed: true,
            } => write!(f, "the file {declaration}, and the bytes do not contradict it"),
            Self::Declared {
                declaration,
                weighed: false,
            } => write!(f, "the file {declaration}, but the bytes decide"),
            Self::FormatsInWords { count } => write!(
                f,
                "{count} invisible formatting character{} inside words, where text has none",
                plural(*count)
            ),
            Self::Utf16WithoutBom { encoding } => write!(
                f,
                "the bytes are {encoding} without a byte order mark (named, but not offered as a choice)"
            ),
        }
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("the input is empty"),
            Self::AsciiOnly => f.write_str(
                "every byte is ASCII: every ASCII-compatible encoding decodes it the same",
            ),
            Self::Sampled {
                windows,
                bytes_examined,
                byte_len,
            } => write!(
                f,
                "sampled: {windows} windows, {bytes_examined} of {byte_len} bytes examined"
            ),
            Self::Utf16WithoutBom { encoding } => write!(
                f,
                "looks like {encoding} without a byte order mark (named first; not offered as a choice)"
            ),
            Self::WeakEvidence { confidence } => write!(
                f,
                "weak evidence: the best candidate's confidence is {confidence:.2}"
            ),
            Self::Declared {
                declaration,
                bytes_agree: true,
                ..
            } => write!(f, "{declaration}; the bytes agree"),
            Self::Declared {
                declaration, best, ..
            } => write!(f, "{declaration}; the bytes are {best}"),
            Self::ErrorsOutweighed {
                encoding,
                errors,
                non_ascii_chars,
                clean,
            } => write!(
                f,
                "{encoding} ranks first despite {errors} decoding error{}: its {non_ascii_chars} \
                 other character{} beyond ASCII read far better than {clean}'s clean decode",
                plural(*errors),
                plural(*non_ascii_chars)
            ),
            Self::ImplausibleText { nats_per_char } => write!(
                f,
                "even the best reading is implausible text ({nats_per_char:.1} nats per character beyond ASCII)"
            ),
        }
    }
}

/// A count as a float, for costs and shares.
#[expect(
    clippy::cast_precision_loss,
    reason = "counts of bytes examined stay far below 2^52"
)]
fn to_f64(n: u64) -> f64 {
    n as f64
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::{UTF_16BE, UTF_16LE};

    fn encoded(encoding: &'static Encoding, text: &str) -> Vec<u8> {
        encoding.encode_fatal(text).expect("encodable")
    }

    fn check_ranking(detection: &Detection) {
        let total: f64 = detection.candidates.iter().map(|c| c.score).sum();
        assert!((total - 1.0).abs() < 1e-9, "scores add up to {total}");
        assert!(
            detection
                .candidates
                .windows(2)
                .all(|w| w[0].log_likelihood >= w[1].log_likelihood)
        );
        assert!(detection.candidates[0].log_likelihood.abs() < 1e-9);
        assert_eq!(detection.is_weak, detection.confidence < WEAK_CONFIDENCE);
    }

    #[test]
    fn every_override_choice_is_ranked_once() {
        let detection = detect(b"plain text");
        check_ranking(&detection);
        let mut names: Vec<_> = detection
            .candidates
            .iter()
            .map(|c| c.encoding.name())
            .collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 37);
        assert!(
            detection
                .candidates
                .iter()
                .all(|c| c.encoding.is_override_choice())
        );
    }

    #[test]
    fn a_bom_decides() {
        let detection = detect(b"\xEF\xBB\xBFcaf\xC3\xA9");
        assert_eq!(detection.best(), UTF_8);
        assert_eq!(
            detection.candidates[0].evidence,
            [Evidence::Bom { encoding: UTF_8 }]
        );
        assert!((detection.confidence - 1.0).abs() < 1e-9);
        let detection = detect(b"\xFF\xFEh\x00i\x00");
        assert_eq!(detection.best(), UTF_16LE);
        assert_eq!(detection.candidates.len(), 38);
        assert!(detection.candidates[1].score.abs() < 1e-9);
        assert_eq!(
            detection.candidates[1].evidence,
            [Evidence::OverriddenByBom { encoding: UTF_16LE }]
        );
    }

    #[test]
    fn ascii_is_utf8_and_every_ascii_compatible_encoding_agrees() {
        let detection = detect(b"Hello, world.\n");
        check_ranking(&detection);
        assert_eq!(detection.best(), UTF_8);
        assert!(detection.notes.contains(&Note::AsciiOnly));
        assert!(!detection.is_weak);
        assert_eq!(
            detection
                .candidate(WINDOWS_1252)
                .and_then(|c| c.same_text_as),
            Some(UTF_8)
        );
        assert!(
            detection.candidates[0]
                .evidence
                .contains(&Evidence::AsciiOnly)
        );
        let empty = detect(b"");
        assert_eq!(empty.best(), UTF_8);
        assert!(empty.notes.contains(&Note::Empty));
    }

    #[test]
    fn valid_utf8_with_non_ascii_content_wins() {
        for text in ["é", "naïve café", "Привет", "日本語のテキスト", "Ã©tÃ©"]
        {
            let detection = detect(text.as_bytes());
            check_ranking(&detection);
            assert_eq!(detection.best(), UTF_8, "{text}");
            assert!(matches!(
                detection.candidates[0].evidence[0],
                Evidence::ValidUtf8 { .. }
            ));
        }
    }

    #[test]
    fn close_relatives_are_told_apart() {
        let cases: [(&'static Encoding, &str); 12] = [
            (
                WINDOWS_1251,
                "Съешь же ещё этих мягких французских булок, да выпей чаю.",
            ),
            (
                KOI8_R,
                "Съешь же ещё этих мягких французских булок, да выпей чаю.",
            ),
            (
                IBM866,
                "Съешь же ещё этих мягких французских булок, да выпей чаю.",
            ),
            (
                X_MAC_CYRILLIC,
                "Съешь же ещё этих мягких французских булок, да выпей чаю.",
            ),
            (
                WINDOWS_1250,
                "Příliš žluťoučký kůň úpěl ďábelské ódy – „řekl“.",
            ),
            (ISO_8859_2, "Zażółć gęślą jaźń, chrząszcz brzmi w trzcinie."),
            (
                WINDOWS_1252,
                "Le cœur déçu mais l’âme plutôt naïve, Louÿs rêva.",
            ),
            (WINDOWS_1253, "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία της ζωής."),
            (WINDOWS_1255, "דג סקרן שט בים מאוכזב ולפתע מצא חברה"),
            (SHIFT_JIS, "いろはにほへと、ちりぬるを。日本語の文章です。"),
            (EUC_JP, "いろはにほへと、ちりぬるを。日本語の文章です。"),
            (EUC_KR, "다람쥐 헌 쳇바퀴에 타고파. 한국어 문장입니다."),
        ];
        for (encoding, text) in cases {
            let bytes = encoded(encoding, text);
            let detection = detect(&bytes);
            check_ranking(&detection);
            let best = detection.best();
            let decoded = best.decode_with_bom_handling(&bytes, crate::BomHandling::None);
            assert_eq!(decoded.text, text, "{encoding} detected as {best}");
        }
    }

    #[test]
    fn distinct_texts_leave_out_what_reads_the_same() {
        let bytes = encoded(SHIFT_JIS, "日本語のテキスト、いろはにほへと。");
        let detection = detect(&bytes);
        let distinct: Vec<_> = detection.distinct_texts().collect();
        assert_eq!(distinct[0].encoding, SHIFT_JIS);
        assert!(distinct.iter().all(|c| c.same_text_as.is_none()));
        // The GBK decoder is the gb18030 decoder: one of them only.
        let gbk_family = distinct
            .iter()
            .filter(|c| c.encoding == GBK || c.encoding == GB18030)
            .count();
        assert_eq!(gbk_family, 1);
        let texts: std::collections::HashSet<String> = distinct
            .iter()
            .map(|c| {
                c.encoding
                    .decode_with_bom_handling(&bytes, crate::BomHandling::None)
                    .text
            })
            .collect();
        assert_eq!(texts.len(), distinct.len());
    }

    #[test]
    fn iso_2022_jp_escapes_are_strong_evidence() {
        let bytes = encoded(ISO_2022_JP, "日本語のテキスト");
        let detection = detect(&bytes);
        assert_eq!(detection.best(), ISO_2022_JP);
        assert!(matches!(
            detection.candidates[0].evidence[0],
            Evidence::ValidIso2022Jp { .. }
        ));
        let utf8 = detection.candidate(UTF_8).expect("ranked");
        assert!(utf8.evidence.iter().any(|e| matches!(
            e,
            Evidence::ImplausibleCharacters {
                first: '\u{1B}',
                ..
            }
        )));
    }

    #[test]
    fn errors_are_evidence() {
        let bytes = encoded(SHIFT_JIS, "日本語のテキスト");
        let detection = detect(&bytes);
        let utf8 = detection.candidate(UTF_8).expect("ranked");
        assert!(utf8.errors > 0);
        assert!(utf8.evidence.iter().any(|e| matches!(
            e,
            Evidence::DecodeErrors { count, first_byte_offset: 0, .. } if *count == utf8.errors
        )));
    }

    // https://github.com/mojiscope/mojiscope/issues/16
    #[test]
    fn issue_16_utf16_without_bom_is_named_first() {
        let texts = [
            "Hello, world. This is UTF-16 text without a byte order mark.\n",
            "Съешь же ещё этих мягких французских булок, да выпей чаю.\n",
            "다람쥐 헌 쳇바퀴에 타고파. 한국어 문장입니다. 키스의 고유조건은 입술끼리 만나야 하고\n",
            "中华人民共和国是工人阶级领导的、以工农联盟为基础的人民民主专政的社会主义国家。\n",
            "いろはにほへと、ちりぬるを。日本語の文章です。わかよたれそ、つねならむ。\n",
        ];
        for text in texts {
            for encoding in [UTF_16LE, UTF_16BE] {
                let bytes: Vec<u8> = text
                    .repeat(4)
                    .encode_utf16()
                    .flat_map(|unit| {
                        if encoding == UTF_16LE {
                            unit.to_le_bytes()
                        } else {
                            unit.to_be_bytes()
                        }
                    })
                    .collect();
                // The whole text and every prefix of 64 bytes.
                for length in [bytes.len(), 64] {
                    let detection = detect(&bytes[..length]);
                    check_ranking(&detection);
                    assert_eq!(detection.best(), encoding, "{text} ({length} bytes)");
                    assert_eq!(detection.utf16_without_bom(), Some(encoding));
                    assert!(detection.best_override_choice().is_override_choice());
                    assert!(
                        detection
                            .notes
                            .contains(&Note::Utf16WithoutBom { encoding })
                    );
                    assert!(
                        detection.candidates[0]
                            .evidence
                            .contains(&Evidence::Utf16WithoutBom { encoding })
                    );
                }
            }
        }
        // Text in an 8-bit encoding is no UTF-16.
        let detection = detect(&encoded(
            SHIFT_JIS,
            "いろはにほへと、ちりぬるを。日本語の文章です。",
        ));
        assert_eq!(detection.utf16_without_bom(), None);
        assert_eq!(detection.best_override_choice(), detection.best());
    }

    // https://github.com/mojiscope/mojiscope/issues/16
    #[test]
    fn issue_16_format_characters_inside_words_are_strong_evidence_against() {
        // In windows-1256 the Turkish dotless i (0xFD in windows-1254) is a
        // left-to-right mark: "altyaz\u{200E}s\u{200E}".
        let text = "Türkçe altyazı dosyası, yazılım ve kullanıcı arayüzü için açıklamalı.";
        let bytes = encoded(WINDOWS_1254, text);
        let detection = detect(&bytes);
        assert_eq!(detection.best(), WINDOWS_1254);
        let arabic = detection.candidate(WINDOWS_1256).expect("ranked");
        assert!(
            arabic
                .evidence
                .iter()
                .any(|e| matches!(e, Evidence::FormatsInWords { count } if *count >= 4)),
            "{:?}",
            arabic.evidence
        );
        assert!(arabic.log_likelihood < -50.0);
        // Between Persian letters a zero-width non-joiner is in its place.
        let persian = "مي\u{200C}خواهم كه اين نامه\u{200C}ها را بخوانم و بنويسم.";
        let detection = detect(&encoded(WINDOWS_1256, persian));
        assert_eq!(detection.best(), WINDOWS_1256);
        assert!(
            detection.candidates[0]
                .evidence
                .iter()
                .all(|e| !matches!(e, Evidence::FormatsInWords { .. }))
        );
    }

    // https://github.com/mojiscope/mojiscope/issues/16
    #[test]
    fn issue_16_a_lone_esc_is_no_evidence_for_iso_2022_jp() {
        for bytes in [
            &b"Build finished.\x1b[0m All 12 tests passed, no warnings.\n"[..],
            b"line one\x1b\nline two with plain words\n",
            b"\x1b",
        ] {
            let detection = detect(bytes);
            assert_ne!(detection.best(), ISO_2022_JP, "{bytes:?}");
            let iso = detection.candidate(ISO_2022_JP).expect("ranked");
            assert!(iso.errors > 0);
            assert!(
                !iso.evidence
                    .iter()
                    .any(|e| matches!(e, Evidence::ValidIso2022Jp { .. }))
            );
        }
    }

    // https://github.com/mojiscope/mojiscope/issues/16
    #[test]
    fn issue_16_errors_never_rank_above_a_clean_decode_without_saying_why() {
        // A lone 0xA4 is no UTF-8.
        for bytes in [&b"Price: 12\xA4"[..], b"\xA4", b"ab \xA4 cd"] {
            let detection = detect(bytes);
            check_ranking(&detection);
            assert_eq!(detection.candidates[0].errors, 0, "{bytes:?}");
            assert_ne!(detection.best(), UTF_8, "{bytes:?}");
        }
        // One broken sequence among many good ones: UTF-8 still wins, and a
        // note says why.
        let mut bytes = "Съешь же ещё этих мягких французских булок, да выпей чаю. "
            .repeat(3)
            .into_bytes();
        bytes.insert(40, 0xFF);
        let detection = detect(&bytes);
        assert_eq!(detection.best(), UTF_8);
        let note = detection
            .notes
            .iter()
            .find(|n| matches!(n, Note::ErrorsOutweighed { .. }))
            .expect("a note says why");
        assert!(
            note.to_string()
                .starts_with("UTF-8 ranks first despite 1 decoding error")
        );
        // Without errors, no such note.
        let clean = detect("Съешь же ещё этих мягких булок.".as_bytes());
        assert!(
            clean
                .notes
                .iter()
                .all(|n| !matches!(n, Note::ErrorsOutweighed { .. }))
        );
    }

    // https://github.com/mojiscope/mojiscope/issues/16
    #[test]
    fn issue_16_gibberish_is_not_read_with_confidence() {
        // 23 bytes of characters text seldom holds in any reading.
        let bytes = b"\xD7\xF0\xA5\xBB\xC6\xDF\xAA\xB8\xF3\xD0\xBD\xA7\xE9\x9F\xDB\xB0\xFE\xAD\x8E\xC5\xD9\xB6\xA1";
        let detection = detect(bytes);
        check_ranking(&detection);
        assert!(detection.is_weak, "confidence {}", detection.confidence);
        assert!(
            detection.confidence < 0.5,
            "confidence {}",
            detection.confidence
        );
        // Real text keeps its confidence.
        let text = encoded(
            WINDOWS_1251,
            "Съешь же ещё этих мягких французских булок, да выпей чаю.",
        );
        assert!(!detect(&text).is_weak);
    }

    // https://github.com/mojiscope/mojiscope/issues/16
    #[test]
    fn issue_16_the_declaration_is_weighed_never_followed_against_the_bytes() {
        // Bytes that several encodings read alike: the declared one leads.
        let page = b"<html><head><meta charset=\"ISO-8859-15\"></head><body>caf\xE9</body>";
        let detection = detect(page);
        assert_eq!(detection.best(), ISO_8859_15);
        let declaration = detection.declaration.clone().expect("declared");
        assert_eq!(declaration.encoding, ISO_8859_15);
        assert!(detection.notes.contains(&Note::Declared {
            declaration: declaration.clone(),
            bytes_agree: true,
            weighed: true,
            best: ISO_8859_15,
        }));
        assert!(
            detection.candidates[0]
                .evidence
                .contains(&Evidence::Declared {
                    declaration,
                    weighed: true
                })
        );
        // Bytes that read well in several encodings: the declaration decides.
        let word = encoded(KOI8_R, "да");
        for (label, encoding) in [("koi8-r", KOI8_R), ("windows-1251", WINDOWS_1251)] {
            let mut page = format!("<meta charset={label}>").into_bytes();
            page.extend_from_slice(&word);
            assert_eq!(detect(&page).best(), encoding, "{label}");
        }
        // UTF-8 bytes declared ISO-8859-1: UTF-8 wins, and the note says so.
        let page = "<html><head><meta charset=\"ISO-8859-1\"></head><body>Grüße aus Köln</body>";
        let detection = detect(page.as_bytes());
        assert_eq!(detection.best(), UTF_8);
        let note = detection
            .notes
            .iter()
            .find(|n| matches!(n, Note::Declared { .. }))
            .expect("a note on the declaration");
        assert_eq!(
            note.to_string(),
            "declared ISO-8859-1 in <meta> at byte 27 (read as windows-1252); the bytes are UTF-8"
        );
        // A declared encoding whose decode has errors is not followed.
        let page = b"<meta charset=shift_jis>\x82\x20\x82 caf\xE9 cr\xE8me br\xFBl\xE9e";
        let detection = detect(page);
        assert_ne!(detection.best(), SHIFT_JIS);
        let shift_jis = detection.candidate(SHIFT_JIS).expect("ranked");
        assert!(
            shift_jis
                .evidence
                .iter()
                .any(|e| matches!(e, Evidence::Declared { weighed: false, .. }))
        );
        // Russian declared windows-1252 is still Russian.
        let mut page = b"<meta charset=windows-1252>".to_vec();
        page.extend(encoded(
            WINDOWS_1251,
            "Съешь же ещё этих мягких французских булок, да выпей чаю.",
        ));
        assert_eq!(detect(&page).best(), WINDOWS_1251);
    }

    #[test]
    fn long_inputs_are_sampled() {
        let line = encoded(
            KOI8_R,
            "Съешь же ещё этих мягких французских булок, да выпей чаю.\n",
        );
        let bytes: Vec<u8> = line.iter().copied().cycle().take(3 * 1024 * 1024).collect();
        let detection = detect(&bytes);
        assert_eq!(detection.best(), KOI8_R);
        assert!(detection.bytes_examined <= sample::SAMPLE_BUDGET as u64);
        assert!(detection.notes.iter().any(|n| matches!(
            n,
            Note::Sampled { windows: 4, byte_len, .. } if *byte_len == bytes.len() as u64
        )));
        // The windows end at line ends: no errors from cut sequences.
        let utf8 = detection.candidate(UTF_8).expect("ranked");
        assert!(utf8.errors > 0);
        assert_eq!(detection.candidate(KOI8_R).map(|c| c.errors), Some(0));
    }

    #[test]
    fn short_and_ambiguous_input_is_weak() {
        // Two bytes that are letters in many encodings.
        let detection = detect(b"\xC1\xC2");
        check_ranking(&detection);
        assert!(detection.is_weak);
        assert!(
            detection
                .notes
                .iter()
                .any(|n| matches!(n, Note::WeakEvidence { .. }))
        );
    }

    #[test]
    fn evidence_and_notes_read_as_sentences() {
        let detection = detect(&encoded(WINDOWS_1251, "Привет, мир!"));
        let best = &detection.candidates[0];
        let language = best
            .evidence
            .iter()
            .find(|e| matches!(e, Evidence::Language { .. }))
            .expect("a language");
        assert!(language.to_string().starts_with("reads best as "));
        let note = Note::Utf16WithoutBom { encoding: UTF_16LE };
        assert_eq!(
            note.to_string(),
            "looks like UTF-16LE without a byte order mark (named first; not offered as a choice)"
        );
    }
}
