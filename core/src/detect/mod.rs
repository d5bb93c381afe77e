//! Encoding detection: ranks every override choice for a byte buffer, with a
//! score and the evidence behind it. The public entry point is [`detect`];
//! `core/DETECTION.md` says how it decides and how well.

mod declared;
mod display;
mod sample;
mod score;
mod segments;
mod tables;
mod text;
mod utf16;

use mojiscope_indexes::language::{COST_SCALE, LANGUAGES, Language, Script};

use crate::bom::bom_sniff;
use crate::encoding::{
    ALL, BIG5, EUC_JP, EUC_KR, Encoding, GB18030, GBK, IBM866, ISO_2022_JP, ISO_8859_2, ISO_8859_5,
    ISO_8859_6, ISO_8859_7, ISO_8859_8, ISO_8859_8_I, ISO_8859_15, KOI8_R, KOI8_U, MACINTOSH,
    REPLACEMENT, SHIFT_JIS, UTF_8, WINDOWS_874, WINDOWS_1250, WINDOWS_1251, WINDOWS_1252,
    WINDOWS_1253, WINDOWS_1254, WINDOWS_1255, WINDOWS_1256, WINDOWS_1257, WINDOWS_1258,
    X_MAC_CYRILLIC, X_USER_DEFINED,
};
pub use declared::{Declaration, DeclarationSource, PRESCAN_BYTES, declared, prescan};
pub use sample::examined_ranges;
pub use segments::{Segment, SegmentNote, Segmentation, segments, segments_with_detection};

use std::ops::Range;

use crate::provenance::DecodeErrorKind;
use crate::utf8;
use score::{Fit, Scorer};
use text::{ByteCounts, ByteDecoding, Chars, TextStats};

/// The cost of one decoding error, in nats: errors are rare in real files.
const ERROR_COST: f64 = 20.0;

/// The cost of an ASCII letter, in units of 1/`COST_SCALE` nat, in a
/// language not written in Latin script (see
/// [`ascii_language`](score::ascii_language)).
const ASCII_LETTER_COST: u64 = 1;

/// The cost of an uppercase letter right after a lowercase one (one of them
/// not ASCII), in nats: it tells apart encodings that swap the cases, such
/// as KOI8-R, windows-1251 and x-mac-cyrillic.
const CASE_BREAK_COST: f64 = 8.0;

/// Valid UTF-8 with non-ASCII content, and valid ISO-2022-JP that switches
/// to Japanese, are ranked at least this many nats above all the other
/// decodes together (their log-sum at [`TEMPERATURE`]): however many of
/// them read alike, structure leaves them a share of the confidence below
/// 4%.
const STRUCTURE_LEAD: f64 = 10.0;

/// What a sequence cut by the end costs a decode with nothing else beyond
/// ASCII ([`TextStats::lone_cut`](text::TextStats::lone_cut)), in nats: one
/// character the cut hides. Less than most single-byte readings of the same
/// bytes pay when they make no sense where they stand ("regras â€",
/// "confecciÃ"), more than a fitting letter ("café"). Dearer where the cut
/// most likely hides an ideograph or a letter of a script the ASCII text
/// before it does not suggest: a lone UTF-8 lead of a three- or four-byte
/// sequence (a lone 0xE9 is "é" far more often than the start of a Han
/// ideograph), and any cut in the other multi-byte encodings, whose lead
/// bytes are any high byte.
fn lone_cut_cost(encoding: &Encoding, bytes: &[u8], runs: &[Range<usize>]) -> f64 {
    const CHEAP: f64 = 10.0;
    const DEAR: f64 = 20.0;
    if encoding != UTF_8 {
        return DEAR;
    }
    let end = runs.last().map_or(bytes.len(), |run| run.end);
    let tail = &bytes[..end];
    // The cut sequence: its lead and the continuation bytes after it.
    let lead_at = tail.iter().rposition(|&b| b & 0xC0 != 0x80);
    match lead_at.map(|at| (tail[at], end - at)) {
        Some((lead, 1)) if lead >= 0xE0 => DEAR,
        _ => CHEAP,
    }
}

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

/// The cost of a digit of one script right beside a letter of another, in
/// nats: a reading that puts a Thai or Arabic-Indic digit inside a Latin
/// word ("Espa\u{E51}ol" for "Español") is very likely wrong.
const DIGIT_IN_WORD_COST: f64 = 8.0;

/// The cost of a sign beyond ASCII between two Latin letters of a word, in
/// nats ([`TextStats::signs_in_words`](text::TextStats::signs_in_words)):
/// Western text read as macintosh makes "Ac·mbaro" of "Acámbaro".
const SIGN_IN_WORD_COST: f64 = 8.0;

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
pub(crate) const ERRORS_OUTWEIGHED: u64 = 8;

/// Above this average cost (in nats) of a pair with a character beyond
/// ASCII, the best reading is itself implausible (fitting text costs 2 to
/// 5 in an alphabet), and the confidence falls with every nat more.
const IMPLAUSIBLE_NATS_PER_CHAR: f64 = 7.0;

/// In a language whose letters cost more (Chinese, Japanese and Korean,
/// with thousands of them: 6 to 7 nats on average), a reading is
/// implausible above this many nats more than its average letter: every
/// alphabet's letters cost less than 4 nats, so that their limit stays
/// [`IMPLAUSIBLE_NATS_PER_CHAR`].
const IMPLAUSIBLE_EXCESS: f64 = 3.0;

/// Above what average cost of a pair with a character beyond ASCII a
/// reading in `language` is implausible.
fn implausible_nats_per_char(language: &Language) -> f64 {
    IMPLAUSIBLE_NATS_PER_CHAR.max(f64::from(language.letter_cost) / COST_SCALE + IMPLAUSIBLE_EXCESS)
}

/// When `fit` reads as implausible text: its average cost of a pair with a
/// character beyond ASCII, and how many nats that is above its language's
/// limit.
fn implausible(fit: &Fit) -> Option<(f64, f64)> {
    let nats = fit.high_nats_per_char()?;
    let excess = nats - implausible_nats_per_char(fit.language);
    (excess > 0.0).then_some((nats, excess))
}

/// How many characters beyond ASCII a decode settled by structure (see
/// [`STRUCTURE_LEAD`]) needs for its answer to be sure however its text
/// reads: random bytes beyond ASCII make a valid UTF-8 sequence about one
/// time in sixteen, and four without an invalid one far less than once in
/// ten thousand.
const STRUCTURE_SURE_CHARS: u64 = 4;

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
    /// Signs beyond ASCII between two Latin letters of a word ("Ac·mbaro"
    /// for "Acámbaro"): evidence against the decode.
    SignsInWords {
        /// How many.
        count: u64,
    },
    /// Digits of one script right beside letters of another (a Thai digit
    /// inside a Latin word): evidence against the decode.
    DigitsInWords {
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
    /// The best candidate's only error is a sequence cut by the end of the
    /// input, its only bytes beyond ASCII (the first bytes of a file, cut
    /// in its first such character): weighed as one hidden character, it
    /// reads better than what a clean decode makes of those bytes.
    CutAtEnd {
        /// The best candidate.
        encoding: &'static Encoding,
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
    detect_windows(bytes, bytes.len(), sample::windows(bytes.len()))
}

/// [`detect`] of an input of `byte_len` bytes from only the bytes it
/// examines: `examined` holds the ranges [`examined_ranges`]`(byte_len)`
/// gives, one after the other. A caller holding a file too long to read
/// whole reads just those (a few hundred KiB whatever the file's length)
/// and gets the same detection as [`detect`] of the whole. If `examined`
/// is not as long as those ranges, it is taken for the whole input.
///
/// ```
/// use mojiscope_core::{detect, detect_examined, examined_ranges};
///
/// let bytes: Vec<u8> = b"caf\xE9 cr\xE8me br\xFBl\xE9e\n".repeat(40_000);
/// let examined: Vec<u8> = examined_ranges(bytes.len())
///     .into_iter()
///     .flat_map(|range| bytes[range].to_vec())
///     .collect();
/// assert!(examined.len() < bytes.len() / 2);
/// let (whole, sample) = (detect(&bytes), detect_examined(bytes.len(), &examined));
/// assert_eq!(whole.best(), sample.best());
/// assert_eq!(whole.notes, sample.notes);
/// ```
pub fn detect_examined(byte_len: usize, examined: &[u8]) -> Detection {
    let ranges = examined_ranges(byte_len);
    if ranges.iter().map(ExactSizeIterator::len).sum::<usize>() != examined.len() {
        return detect(examined);
    }
    // Each window lies within one of the ranges: its place in `examined`
    // is its place in that range, after the ranges before it.
    let windows = sample::windows(byte_len)
        .into_iter()
        .filter_map(|window| {
            let mut offset = 0;
            for range in &ranges {
                if range.start <= window.start && window.end <= range.end {
                    let start = offset + (window.start - range.start);
                    return Some(start..start + window.len());
                }
                offset += range.len();
            }
            None
        })
        .collect();
    detect_windows(examined, byte_len, windows)
}

/// [`detect`] of an input of `byte_len` bytes, given the bytes that hold
/// its start and its `windows` (as places in `bytes`).
fn detect_windows(bytes: &[u8], byte_len: usize, windows: Vec<Range<usize>>) -> Detection {
    let declaration = declared(bytes);
    if let Some(encoding) = bom_sniff(bytes) {
        return bom_detection(bytes, encoding, declaration);
    }
    let windows: Vec<_> = windows
        .into_iter()
        .map(|window| sample::align(bytes, window))
        .collect();
    let bytes_examined: u64 = windows.iter().map(|w| w.len() as u64).sum();
    let mut notes = Vec::new();
    if byte_len == 0 {
        notes.push(Note::Empty);
    } else if windows.iter().all(|w| bytes[w.clone()].is_ascii()) {
        notes.push(Note::AsciiOnly);
    }
    if windows.len() > 1 {
        notes.push(Note::Sampled {
            windows: windows.len(),
            bytes_examined,
            byte_len: byte_len as u64,
        });
    }
    // The decoders and the language models read the evidence: the lines
    // that hold bytes beyond ASCII first, up to a budget.
    let histograms = sample::histograms(bytes, &windows);
    // Windows that are valid UTF-8 with a byte beyond ASCII make every
    // evidence drawn from them so (its runs start and end on character
    // boundaries): the full evidence need not be drawn to know it.
    let utf8_windows = windows.iter().all(|w| utf8::is_valid(&bytes[w.clone()]))
        && windows.iter().any(|w| !bytes[w.clone()].is_ascii());
    let all_evidence = || sample::evidence(bytes, &windows, &histograms, sample::EVIDENCE_BUDGET);
    let runs = (!utf8_windows).then(all_evidence);
    let heads = sample::heads(&windows);
    let mut ranking = if utf8_windows
        || runs
            .as_ref()
            .is_some_and(|r| is_utf8_beyond_ascii(bytes, r))
    {
        // UTF-8 ranks first whatever the others read (and the bytes are no
        // UTF-16): they are weighed on less of it.
        let fewer = utf8_evidence(bytes, &windows, &histograms);
        let runs = if is_utf8_beyond_ascii(bytes, &fewer) {
            fewer
        } else {
            runs.unwrap_or_else(all_evidence)
        };
        rank(bytes, &runs, &histograms.counts, None, declaration.as_ref())
    } else {
        let runs = runs.unwrap_or_else(all_evidence);
        let utf16 = utf16::looks_like(bytes, &heads)
            .map(|(encoding, strong)| (encoding, strong, heads.as_slice()));
        rank_in_steps(
            bytes,
            &windows,
            &histograms,
            &runs,
            utf16,
            declaration.as_ref(),
        )
    };
    if utf8_windows && let Some(best) = ranking.ranked.first_mut().filter(|c| c.encoding == UTF_8) {
        // Every window is valid UTF-8: all their characters beyond ASCII
        // (one lead byte each) show its structure, not only the evidence's.
        best.structure_chars = histograms
            .counts
            .iter()
            .flat_map(|counts| &counts[0xC2..=0xF4])
            .map(|&n| u64::from(n))
            .sum();
    }
    if let Some(encoding) = ranking.utf16 {
        notes.push(Note::Utf16WithoutBom { encoding });
    }
    finish(
        &ranking.ranked,
        notes,
        bytes_examined,
        declaration,
        ranking.weighed,
    )
}

/// Ranks the candidates on the evidence `runs` of `windows`, or on less of
/// it when that settles the answer.
///
/// Most text settles its encoding within its first lines: rank on less
/// evidence first, and on all of it unless that settled it. The less
/// stands when it holds every byte beyond ASCII the windows hold (then
/// every decode reads them all), or when its best decode is not byte by
/// byte and reads all of the evidence without error (Shift_JIS clean over
/// the sample: no byte the less left out can make a byte-by-byte decode
/// read better by the margin). The least is tried only when a decode that
/// is not byte by byte reads all of the evidence without error, as it must
/// to stand: multi-byte text settles on a few lines, a code page's seldom
/// does.
///
/// A glance (a line or two) comes first when most bytes beyond ASCII of
/// the evidence stand beside another, as the characters of a double-byte
/// encoding do: the other readings then fall far behind at once. Western
/// text that a multi-byte decode happens to read clean (a lone accented
/// letter and the ASCII letter after it make a Big5 or GBK character)
/// would only pay for a glance that cannot settle. It stands only when its
/// best decode is not byte by byte and reads all of the evidence without
/// error, so whether some multi-byte decode reads clean is asked of the
/// glance alone (the alphabets' text, paired too, fails that at once), and
/// the rest of the evidence is decoded in the best one only.
fn rank_in_steps(
    bytes: &[u8],
    windows: &[Range<usize>],
    histograms: &sample::Histograms,
    runs: &[Range<usize>],
    utf16: Option<(&'static Encoding, bool, &[Range<usize>])>,
    declaration: Option<&Declaration>,
) -> Ranking {
    let ranked = |runs: &[Range<usize>]| rank(bytes, runs, &histograms.counts, utf16, declaration);
    let evidence_len: usize = runs.iter().map(ExactSizeIterator::len).sum();
    let clean = CleanReads::new(bytes, runs);
    let glance = || {
        if !sample::high_bytes_paired(bytes, runs) {
            return None;
        }
        let fewer = sample::glance(bytes, windows, histograms);
        if !multi_byte_reads_clean(&CleanReads::new(bytes, &fewer)) {
            return None;
        }
        let ranking = ranked(&fewer);
        (ranking.is_settled() && ranking.best_reads_clean(&clean)).then_some(ranking)
    };
    [
        sample::GLANCE_BUDGET,
        sample::FIRST_BUDGET,
        sample::SETTLED_BUDGET,
    ]
    .into_iter()
    .filter(|&budget| evidence_len > budget * 2)
    .find_map(|budget| {
        if budget == sample::GLANCE_BUDGET {
            return glance();
        }
        if budget < sample::SETTLED_BUDGET && !multi_byte_reads_clean(&clean) {
            return None;
        }
        let fewer = sample::evidence(bytes, windows, histograms, budget);
        let covered = covers(bytes, &fewer, &histograms.counts);
        let ranking = ranked(&fewer);
        let stands = ranking.is_settled() && (covered || ranking.best_reads_clean(&clean));
        stands.then_some(ranking)
    })
    .unwrap_or_else(|| ranked(runs))
}

/// The ranking of the candidates on some evidence.
struct Ranking {
    /// Best first.
    ranked: Vec<Ranked>,
    /// Whether the declaration was weighed.
    weighed: bool,
    /// The UTF-16 encoding named first, if the bytes are UTF-16 without a
    /// byte order mark.
    utf16: Option<&'static Encoding>,
}

/// A ranking on part of the evidence stands when its best candidate has no
/// errors and reads this many nats better than any other text.
const SETTLED_MARGIN: f64 = 40.0;

impl Ranking {
    /// Whether more evidence would not change the answer.
    fn is_settled(&self) -> bool {
        let Some(best) = self.ranked.first() else {
            return true;
        };
        let runner_up = self
            .ranked
            .iter()
            .find(|c| c.group != best.group)
            .map_or(f64::NEG_INFINITY, |c| c.log_likelihood);
        best.stats.ranking_errors() == 0 && best.log_likelihood - runner_up >= SETTLED_MARGIN
    }

    /// Whether the best candidate decodes not byte by byte, and decodes
    /// all of the evidence without error (a sequence cut by the end aside).
    fn best_reads_clean(&self, clean: &CleanReads<'_>) -> bool {
        let Some(best) = self.ranked.first() else {
            return false;
        };
        if best.decoding.is_some() || !best.encoding.is_ascii_compatible() {
            return false;
        }
        clean.reads_clean(best.encoding)
    }
}

/// Which encodings decode each of the evidence's runs without error (a
/// sequence cut by a run's end aside), each decoded once: the rankings on
/// less of the evidence ask it of the same encodings.
struct CleanReads<'a> {
    bytes: &'a [u8],
    runs: &'a [Range<usize>],
    known: std::cell::RefCell<Vec<(&'static Encoding, bool)>>,
}

impl<'a> CleanReads<'a> {
    fn new(bytes: &'a [u8], runs: &'a [Range<usize>]) -> Self {
        Self {
            bytes,
            runs,
            known: std::cell::RefCell::new(Vec::new()),
        }
    }

    /// Whether `encoding` decodes the runs without error.
    fn reads_clean(&self, encoding: &'static Encoding) -> bool {
        // GBK's decoder is gb18030's (the standard's GBK section): one
        // decode tells both.
        let encoding = if encoding == GB18030 { GBK } else { encoding };
        let known = self
            .known
            .borrow()
            .iter()
            .find(|(e, _)| *e == encoding)
            .map(|&(_, clean)| clean);
        known.unwrap_or_else(|| {
            let clean = text::decodes_clean(encoding, self.bytes, self.runs);
            self.known.borrow_mut().push((encoding, clean));
            clean
        })
    }
}

/// How many ASCII letters of the windows each ASCII letter of the evidence
/// stands for, relative to their bytes beyond ASCII: the evidence favours
/// lines with bytes beyond ASCII, and the cost of ASCII letters in a
/// language of another script ([`ASCII_LETTER_COST`]) is a matter of their
/// proportion in the text.
fn letter_scale(counts: &ByteCounts, histograms: &[[u32; 256]]) -> f64 {
    let letters = |counts: &dyn Fn(usize) -> u64| -> (u64, u64) {
        let ascii = (usize::from(b'A')..=usize::from(b'Z'))
            .chain(usize::from(b'a')..=usize::from(b'z'))
            .map(counts)
            .sum();
        let high = (0x80..256).map(counts).sum();
        (ascii, high)
    };
    let (window_letters, window_high) =
        letters(&|b| histograms.iter().map(|h| u64::from(h[b])).sum());
    let (letters, high) = letters(&|b| counts.bytes[b]);
    if window_high == 0 || high == 0 || letters == 0 {
        return 1.0;
    }
    (to_f64(window_letters) / to_f64(window_high)) / (to_f64(letters) / to_f64(high))
}

/// What the other candidates are weighed on when UTF-8 ranks first: a
/// glance when it holds [`UTF8_GLANCE_CHARS`] characters beyond ASCII or
/// more (one alone may be no structure: see [`settles_as_structure`]),
/// else 1 KiB of the evidence.
fn utf8_evidence(
    bytes: &[u8],
    windows: &[Range<usize>],
    histograms: &sample::Histograms,
) -> Vec<Range<usize>> {
    let glance = sample::glance(bytes, windows, histograms);
    if lead_bytes(bytes, &glance) >= UTF8_GLANCE_CHARS {
        glance
    } else {
        sample::evidence(bytes, windows, histograms, sample::FIRST_BUDGET)
    }
}

/// How many characters beyond ASCII of UTF-8 a glance must hold to be
/// what the other candidates are weighed on: with two, its structure
/// settles UTF-8 whatever they are.
const UTF8_GLANCE_CHARS: usize = 2;

/// How many bytes of `runs` start a sequence of UTF-8 beyond ASCII.
fn lead_bytes(bytes: &[u8], runs: &[Range<usize>]) -> usize {
    runs.iter()
        .map(|run| bytes[run.clone()].iter().filter(|&&b| b >= 0xC0).count())
        .sum()
}

/// Whether some ASCII-compatible decode that is not byte by byte (UTF-8
/// aside) reads the runs without error (a sequence cut by a run's end
/// aside), with a byte beyond ASCII among them.
fn multi_byte_reads_clean(clean: &CleanReads<'_>) -> bool {
    clean
        .runs
        .iter()
        .any(|run| !clean.bytes[run.clone()].is_ascii())
        && ALL.iter().any(|&encoding| {
            encoding.is_override_choice()
                && encoding.is_ascii_compatible()
                && encoding != UTF_8
                && text::byte_decoding(encoding).is_none()
                && clean.reads_clean(encoding)
        })
}

/// Whether the runs hold every byte beyond ASCII the windows hold: then
/// every decode reads each of them in the runs, and they tell apart the
/// encodings the windows do.
fn covers(bytes: &[u8], runs: &[Range<usize>], histograms: &[[u32; 256]]) -> bool {
    let mut seen = [false; 256];
    for run in runs {
        for &b in &bytes[run.clone()] {
            seen[usize::from(b)] = true;
        }
    }
    (0x80..256).all(|b| seen[b] || histograms.iter().all(|counts| counts[b] == 0))
}

/// Ranks every override choice on the evidence `runs`, and the UTF-16
/// encoding `utf16` names (with whether its byte pattern shows it, and the
/// ranges its decode reads).
fn rank(
    bytes: &[u8],
    runs: &[Range<usize>],
    histograms: &[[u32; 256]],
    utf16: Option<(&'static Encoding, bool, &[Range<usize>])>,
    declaration: Option<&Declaration>,
) -> Ranking {
    let byte_counts = ByteCounts::new(bytes, runs);
    let mut chars = Chars::new();
    let mut ranked = decode_candidates(bytes, runs, &byte_counts, &mut chars);
    let utf16 = utf16.map(|(encoding, strong, heads)| {
        let stats = utf16::stats(encoding, bytes, heads, &mut chars);
        (Ranked::new(encoding, stats, None), strong)
    });
    group_same_texts(&mut ranked, &byte_counts, bytes, runs);
    let mut scorer = Scorer::new(&byte_counts, &chars, letter_scale(&byte_counts, histograms));
    let settled = |c: &Ranked| settles_as_structure(c, bytes, runs);
    let utf8_settles = ranked.iter().any(|c| c.encoding == UTF_8 && settled(c));
    score_groups(&mut ranked, &mut scorer, utf8_settles);
    for candidate in &mut ranked {
        candidate.log_likelihood = prior(candidate.encoding)
            - candidate.fit.map_or(0.0, |fit| fit.cost)
            - ERROR_COST * to_f64(candidate.stats.ranking_errors())
            - CASE_BREAK_COST * to_f64(candidate.stats.case_breaks)
            - FORMAT_IN_WORD_COST * to_f64(candidate.stats.formats_in_words)
            - DIGIT_IN_WORD_COST * to_f64(candidate.stats.digits_in_words)
            - SIGN_IN_WORD_COST * to_f64(candidate.stats.signs_in_words)
            - if candidate.stats.lone_cut() && !candidate.stats.cut_forgiven {
                lone_cut_cost(candidate.encoding, bytes, runs)
            } else {
                0.0
            };
    }
    let weighed = weigh_declaration(&mut ranked, declaration, |encoding| {
        lone_cut_cost(encoding, bytes, runs)
    });
    // Structure no other text has settles it: valid UTF-8 with non-ASCII
    // content ([`settles_as_structure`]), or ISO-2022-JP escape sequences
    // that switch to text decoding without error (the escape byte is a
    // control character in every other encoding). At most one of them
    // holds: ISO-2022-JP is 7-bit.
    for strong in [UTF_8, ISO_2022_JP] {
        let holds = if strong == UTF_8 {
            utf8_settles
        } else {
            ranked
                .iter()
                .find(|c| c.encoding == strong)
                .is_some_and(settled)
        };
        if holds {
            let others = log_sum(ranked.iter().filter(|c| c.encoding != strong));
            if let Some(candidate) = ranked.iter_mut().find(|c| c.encoding == strong) {
                candidate.log_likelihood = candidate.log_likelihood.max(others + STRUCTURE_LEAD);
                candidate.settled = true;
            }
            break;
        }
    }
    keep_errors_below_clean_decodes(&mut ranked);
    // Stable: ties keep the standard's order.
    ranked.sort_by(|a, b| b.log_likelihood.total_cmp(&a.log_likelihood));
    let mut named = None;
    if let Some((mut candidate, strong)) = utf16 {
        // UTF-16 is no override choice, but when the bytes are UTF-16 it is
        // named first: at once when the byte pattern shows it, else when its
        // decode reads better than every other.
        let served = served_languages(std::iter::once(UTF_8));
        candidate.fit = scorer.fit(&candidate, &served);
        candidate.group = usize::MAX;
        let best = ranked.first().map_or(0.0, |c| c.log_likelihood);
        candidate.settled = strong;
        candidate.log_likelihood = if strong {
            log_sum(ranked.iter()) + STRUCTURE_LEAD
        } else {
            prior(candidate.encoding)
                - candidate.fit.map_or(0.0, |fit| fit.cost)
                - ERROR_COST * to_f64(candidate.stats.ranking_errors())
        };
        if candidate.log_likelihood > best {
            named = Some(candidate.encoding);
            ranked.insert(0, candidate);
        }
    }
    Ranking {
        ranked,
        weighed,
        utf16: named,
    }
}

/// The log-likelihood of `candidates` together, at [`TEMPERATURE`]: what
/// one candidate must reach to hold as much of the confidence as all of
/// them.
fn log_sum<'a>(candidates: impl Iterator<Item = &'a Ranked> + Clone) -> f64 {
    let best = candidates
        .clone()
        .map(|c| c.log_likelihood)
        .fold(f64::NEG_INFINITY, f64::max);
    if best == f64::NEG_INFINITY {
        return best;
    }
    let weights: f64 = candidates
        .map(|c| ((c.log_likelihood - best) / TEMPERATURE).exp())
        .sum();
    best + TEMPERATURE * weights.ln()
}

/// Every override choice with what its decode of the evidence shows.
fn decode_candidates(
    bytes: &[u8],
    runs: &[Range<usize>],
    byte_counts: &ByteCounts,
    chars: &mut Chars,
) -> Vec<Ranked> {
    // ASCII reads the same in every ASCII-compatible encoding: the
    // decoders that are not byte by byte need not run over it.
    let as_bytes = byte_counts
        .is_ascii()
        .then(|| text::byte_decoding(WINDOWS_1252))
        .flatten();
    ALL.iter()
        .copied()
        .filter(|encoding| encoding.is_override_choice())
        .map(|encoding| {
            let decoding = text::byte_decoding(encoding)
                .or(as_bytes.filter(|_| encoding.is_ascii_compatible()));
            let mut byte_ids = None;
            let stats = if let Some(decoding) = decoding {
                let ids = decoding.ids_of(&byte_counts.present);
                let stats = byte_counts.stats(decoding, &ids, chars, bytes, runs);
                byte_ids = Some(ids);
                stats
            } else {
                let mut stats = text::decode_stats(encoding, bytes, runs, chars);
                // ISO-2022-JP's cut sequence is an escape, no character.
                stats.cut_hides_text = encoding != ISO_2022_JP;
                stats
            };
            let mut candidate = Ranked::new(encoding, stats, decoding);
            candidate.byte_ids = byte_ids;
            candidate
        })
        .collect()
}

/// Gives each candidate the fit of its text in its best language.
/// Candidates that decode to the same text read the same: each group is
/// scored once, in the languages any of its members serves.
fn score_groups(ranked: &mut [Ranked], scorer: &mut Scorer<'_>, utf8_decides: bool) {
    for index in 0..ranked.len() {
        if ranked[index].group != index {
            continue;
        }
        let members: Vec<usize> = (index..ranked.len())
            .filter(|&other| ranked[other].group == index)
            .collect();
        let served = served_languages(members.iter().map(|&m| ranked[m].encoding));
        // gb18030 writes every language, but a decode of it that holds Han
        // ideographs is Chinese: any two bytes beyond ASCII of other text
        // read as one in gb18030.
        let served = if ranked[index].stats.han > 0
            && members.iter().any(|&m| ranked[m].encoding == GB18030)
        {
            served
                .into_iter()
                .filter(|&language| LANGUAGES[language].script == Script::Chinese)
                .collect()
        } else {
            served
        };
        let representative = members
            .iter()
            .copied()
            .find(|&m| ranked[m].decoding.is_some())
            .unwrap_or(index);
        // When the bytes are valid UTF-8 with text beyond ASCII, UTF-8 ranks
        // first whatever the others read: they are weighed in one language
        // only, the best for the text's ASCII words.
        let served = if utf8_decides && !members.iter().any(|&m| ranked[m].encoding == UTF_8) {
            vec![scorer.best_ascii_language(&served)]
        } else {
            served
        };
        let fit = scorer.fit(&ranked[representative], &served);
        for member in members {
            ranked[member].fit = fit;
        }
    }
}

/// Whether `candidate`'s decode of `runs` has the structure no other text
/// has (it is UTF-8 or ISO-2022-JP): no error, and characters beyond
/// ASCII. But one UTF-8 character that is a letter of a script no Latin
/// word is written beside (not Latin, Greek or Cyrillic: "Δt" and "5μm"
/// are text) inside a Latin word is no structure: it is as likely a code
/// page's letter or sign before one of 0x80 to 0xBF (Mac OS Roman "C’è"
/// is valid UTF-8, "CՏ"), so the language models decide.
fn settles_as_structure(candidate: &Ranked, bytes: &[u8], runs: &[Range<usize>]) -> bool {
    let stats = &candidate.stats;
    if stats.ranking_errors() > 0 || stats.non_ascii == 0 {
        return false;
    }
    candidate.encoding != UTF_8 || stats.non_ascii > 1 || !lone_letter_breaks_a_word(bytes, runs)
}

/// Whether the one character beyond ASCII of valid UTF-8 `runs` is a
/// letter of a script other than Latin, Greek and Cyrillic right beside an
/// ASCII letter.
fn lone_letter_breaks_a_word(bytes: &[u8], runs: &[Range<usize>]) -> bool {
    for run in runs {
        let run = &bytes[run.clone()];
        let Some(start) = run.iter().position(|b| !b.is_ascii()) else {
            continue;
        };
        let Ok(text) = std::str::from_utf8(run) else {
            return false;
        };
        let Some(c) = text[start..].chars().next() else {
            return false;
        };
        let end = start + c.len_utf8();
        let beside = |b: Option<&u8>| b.is_some_and(u8::is_ascii_alphabetic);
        let beside_latin = matches!(
            mojiscope_indexes::language::script_of(c),
            Some(Script::Latin | Script::Greek | Script::Cyrillic)
        );
        return c.is_alphabetic()
            && !beside_latin
            && (beside(start.checked_sub(1).and_then(|at| run.get(at))) || beside(run.get(end)));
    }
    false
}

/// Whether the runs are valid UTF-8 (each on its own) with a byte beyond
/// ASCII.
fn is_utf8_beyond_ascii(bytes: &[u8], runs: &[Range<usize>]) -> bool {
    let mut beyond = false;
    for run in runs {
        let run = &bytes[run.clone()];
        if !utf8::is_valid(run) {
            return false;
        }
        beyond = beyond || !run.is_ascii();
    }
    beyond
}

/// Sets each candidate's group to the position of the first candidate that
/// decodes the evidence to the same text. Decodes byte by byte read the
/// same text when they decode each byte that occurs alike; another decode
/// can read the same only where it too gives one character or error a
/// byte, and then the texts' hashes are compared.
fn group_same_texts(
    ranked: &mut [Ranked],
    counts: &ByteCounts,
    bytes: &[u8],
    runs: &[Range<usize>],
) {
    #[derive(PartialEq)]
    enum Key {
        Bytes(u64),
        Decoded(u64, u64, u64),
    }
    let keys: Vec<Key> = ranked
        .iter()
        .map(|c| match c.decoding {
            Some(decoding) => Key::Bytes(counts.signature(decoding)),
            None => Key::Decoded(c.stats.hash, c.stats.chars, c.stats.error_count()),
        })
        .collect();
    let mut sequence_hashes: Vec<Option<u64>> = vec![None; ranked.len()];
    for index in 0..ranked.len() {
        let first = (0..index).find(|&other| keys[other] == keys[index]);
        ranked[index].group = first.map_or(index, |other| ranked[other].group);
        if first.is_some() {
            continue;
        }
        // A decode that is not byte by byte, with one item a byte: compare
        // it with the decodes byte by byte that count alike.
        let Key::Decoded(hash, chars, errors) = keys[index] else {
            continue;
        };
        if chars + errors != counts.len {
            continue;
        }
        let twin = (0..ranked.len()).find(|&other| {
            let Some(decoding) = ranked[other].decoding else {
                return false;
            };
            if ranked[other].stats.chars != chars || ranked[other].stats.error_count() != errors {
                return false;
            }
            let hash_of = *sequence_hashes[other]
                .get_or_insert_with(|| ByteCounts::sequence_hash(decoding, bytes, runs));
            hash_of == hash
        });
        if let Some(twin) = twin {
            // The twin comes later in the order or earlier: the group is
            // named by whichever comes first.
            let group = index.min(twin);
            ranked[index].group = group;
            let twin_key = &keys[twin];
            for other in 0..ranked.len() {
                if &keys[other] == twin_key {
                    ranked[other].group = group;
                }
            }
        }
    }
}

/// The languages some encoding of `encodings` serves, as positions in
/// [`LANGUAGES`]: UTF-8 (and UTF-16) serve every language; x-user-defined,
/// which serves none, is read as English.
fn served_languages(encodings: impl Iterator<Item = &'static Encoding>) -> Vec<usize> {
    let mut mask = 0u64;
    for encoding in encodings {
        let position = if encoding.is_override_choice() {
            ALL.iter().position(|e| *e == encoding).unwrap_or(0)
        } else {
            0
        };
        for (index, language) in LANGUAGES.iter().enumerate() {
            if language.is_written_in(position) {
                mask |= 1 << index;
            }
        }
    }
    let served: Vec<usize> = (0..LANGUAGES.len())
        .filter(|&index| mask & (1 << index) != 0)
        .collect();
    if served.is_empty() { vec![0] } else { served }
}

/// Gives the candidates that decode the bytes as the declared encoding does
/// [`DECLARED_PRIOR`] more, when the bytes do not contradict the
/// declaration: its decode has no errors (but sequences cut by the end,
/// which are then forgiven, refunding `lone_cut_cost` for a decode whose
/// only beyond ASCII is the cut), and the bytes are not valid UTF-8 with
/// non-ASCII content that the declared encoding reads otherwise.
/// Returns whether the declaration was weighed.
fn weigh_declaration(
    ranked: &mut [Ranked],
    declaration: Option<&Declaration>,
    lone_cut_cost: impl Fn(&Encoding) -> f64,
) -> bool {
    let Some(declared) = declaration.and_then(|d| ranked.iter().find(|c| c.encoding == d.encoding))
    else {
        return false;
    };
    let key = declared.text_key();
    // A sequence cut by the end does not contradict the declaration.
    let clean = declared.stats.only_cut_sequences();
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
        let counted = candidate.stats.ranking_errors();
        // A lone cut was weighed as an unknown character: the declaration
        // says what it is.
        let lone_cut = candidate
            .stats
            .lone_cut()
            .then(|| lone_cut_cost(candidate.encoding));
        candidate.stats.cut_forgiven = true;
        let forgiven = counted - candidate.stats.ranking_errors();
        candidate.log_likelihood +=
            DECLARED_PRIOR + lone_cut.unwrap_or(ERROR_COST * to_f64(forgiven));
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
/// good ones), in a decode that is not byte by byte (a single-byte
/// encoding's error is a byte it never writes, which no file in it holds).
/// UTF-8's characters are evidence by their structure, which random bytes
/// seldom have; a double-byte decoder reads nearly any two bytes beyond
/// ASCII as a character, so its characters are evidence only when they
/// read as plausible text (not GBK's reading of a list of Thai words, where
/// its lead bytes meet line ends). Others are put below every clean decode,
/// in their order.
fn keep_errors_below_clean_decodes(ranked: &mut [Ranked]) {
    let below = |c: &Ranked| {
        let errors = c.stats.ranking_errors();
        let plausible = c.encoding == UTF_8 || c.fit.as_ref().and_then(implausible).is_none();
        let outweighed =
            c.decoding.is_none() && c.stats.non_ascii >= ERRORS_OUTWEIGHED * errors && plausible;
        errors > 0 && !outweighed
    };
    let worst_clean = ranked
        .iter()
        .filter(|c| c.stats.ranking_errors() == 0)
        .map(|c| c.log_likelihood)
        .fold(f64::INFINITY, f64::min);
    let best_below = ranked
        .iter()
        .filter(|c| below(c))
        .map(|c| c.log_likelihood)
        .fold(f64::NEG_INFINITY, f64::max);
    if worst_clean == f64::INFINITY || best_below < worst_clean {
        return;
    }
    // All of them move down alike, keeping their order.
    let shift = best_below - worst_clean + 1.0;
    for candidate in ranked.iter_mut().filter(|c| below(c)) {
        candidate.log_likelihood -= shift;
    }
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
    /// How its decode reads the evidence byte by byte, if it does (also for
    /// an ASCII-compatible decoder when the evidence is ASCII).
    decoding: Option<&'static ByteDecoding>,
    /// With `decoding`, the index in [`Chars`] of what each byte of the
    /// evidence decodes to (a space for an error).
    byte_ids: Option<Box<[u32; 256]>>,
    /// The position of the first candidate that decodes the evidence to the
    /// same text (see [`group_same_texts`]).
    group: usize,
    fit: Option<Fit>,
    log_likelihood: f64,
    /// Whether the file's declaration was weighed for it.
    declared: bool,
    /// Whether structure no other text has put it first (valid UTF-8 with
    /// text beyond ASCII, ISO-2022-JP's escapes, UTF-16's byte pattern).
    settled: bool,
    /// How many characters beyond ASCII show that structure beyond the
    /// evidence's (every window is valid UTF-8).
    structure_chars: u64,
}

impl Ranked {
    fn new(
        encoding: &'static Encoding,
        stats: TextStats,
        decoding: Option<&'static ByteDecoding>,
    ) -> Self {
        Self {
            encoding,
            stats,
            decoding,
            byte_ids: None,
            group: 0,
            fit: None,
            log_likelihood: 0.0,
            declared: false,
            settled: false,
            structure_chars: 0,
        }
    }

    fn text_key(&self) -> usize {
        self.group
    }
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
        if best.stats.lone_cut()
            && !best.stats.cut_forgiven
            && let Some(clean) = ranked.iter().find(|c| c.stats.error_count() == 0)
        {
            notes.push(Note::CutAtEnd {
                encoding: best.encoding,
                clean: clean.encoding,
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
        // text is still implausible is no sure answer; but structure that
        // holds over enough characters is no accident, whatever they read
        // as (a page of sample text in a dozen scripts).
        let structure_holds =
            best.settled && best.stats.non_ascii.max(best.structure_chars) >= STRUCTURE_SURE_CHARS;
        if !structure_holds && let Some((nats, excess)) = best.fit.as_ref().and_then(implausible) {
            confidence *= (-excess / 2.0).exp();
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
    if stats.signs_in_words > 0 {
        evidence.push(Evidence::SignsInWords {
            count: stats.signs_in_words,
        });
    }
    if stats.digits_in_words > 0 {
        evidence.push(Evidence::DigitsInWords {
            count: stats.digits_in_words,
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

/// `n` times `scale`, rounded.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "a scaled cost, positive and far below 2^64"
)]
fn scaled(n: u64, scale: f64) -> u64 {
    (to_f64(n) * scale).round() as u64
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

    #[test]
    fn digits_of_a_script_inside_words_of_another_are_evidence_against() {
        // The head of an editor's Spanish and German menu files: in
        // windows-874 their ñ and ó are the Thai digits one and three,
        // inside Latin words ("Espa\u{E51}ol", "J\u{E53}n").
        for text in [
            "\" Menu Translations:\tEspañol\n\" Previous translator:\tAlejandro Ló",
            "\" Menu Translations:\tGerman / Deutsch\n\" Maintainer:\t\tJón Arnar B",
        ] {
            let bytes = encoded(WINDOWS_1252, text);
            let detection = detect(&bytes);
            assert_eq!(detection.best(), WINDOWS_1252, "{text}");
            let thai = detection.candidate(WINDOWS_874).expect("ranked");
            assert!(
                thai.evidence
                    .iter()
                    .any(|e| matches!(e, Evidence::DigitsInWords { count } if *count >= 2)),
                "{:?}",
                thai.evidence
            );
        }
        // Thai digits in Thai text, Persian digits in Persian text, are in
        // their place, even right beside a letter (sentences of the
        // evaluation text, tests/detect/sentences/).
        for (encoding, text) in [
            (
                WINDOWS_874,
                "๕/ว๑๑๒๒ เรื่อง การโอนจัดสรรงบประมาณรายจ่าย ประจำปี พ.ศ.๒๕๕๕ ค่าเงินเดือนครูและค่าจ้างประจำฯ ไตรมาสที่ ๑ด่วนที่สุด ที่ พท ๐๐๓๗.",
            ),
            (
                UTF_8,
                "JPG تویوتا اف‌جی۴۰ (Toyota FJ40) خودرویی است که در سال‌های ۱۹۶۰ تا ۱۹۸۴تولید شده‌است.",
            ),
        ] {
            let detection = detect(&encoded(encoding, text));
            assert_eq!(detection.best(), encoding, "{text}");
            assert!(
                detection.candidates[0]
                    .evidence
                    .iter()
                    .all(|e| !matches!(e, Evidence::DigitsInWords { .. })),
                "{text}"
            );
        }
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

    #[test]
    fn utf8_in_many_scripts_outweighs_its_few_errors() {
        // Text in several scripts reads as no one language, yet its valid
        // sequences are evidence: a broken byte or two leave it UTF-8.
        let mut bytes = "Grüße, 日本語, Ελληνικά, Привет, 😀\n"
            .repeat(8)
            .into_bytes();
        bytes.insert(100, 0xFF);
        bytes.insert(200, 0xC3);
        let detection = detect(&bytes);
        assert_eq!(detection.best(), UTF_8, "{detection:?}");
        assert!(
            detection
                .notes
                .iter()
                .any(|n| matches!(n, Note::ErrorsOutweighed { .. }))
        );
    }

    #[test]
    fn errors_in_text_that_reads_as_gibberish_are_not_outweighed() {
        // Rare characters of GBK's second level, and a lead byte before a
        // line feed: many characters beyond ASCII for its one error, but
        // they read as no Chinese, so a clean decode ranks above.
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = |n: u8| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            u8::try_from(state % u64::from(n)).unwrap_or(0)
        };
        let mut bytes = Vec::new();
        for line in 0..4 {
            for _ in 0..8 {
                bytes.extend([0xD8 + next(0x20), 0xA1 + next(0x5E)]);
            }
            if line == 1 {
                bytes.push(0xD8);
            }
            bytes.push(b'\n');
        }
        let detection = detect(&bytes);
        check_ranking(&detection);
        let gbk = detection.candidate(GBK).expect("GBK is ranked");
        assert_eq!(gbk.errors, 1);
        assert_eq!(detection.candidates[0].errors, 0, "{detection:?}");
        // The same characters without the error: GBK may rank first.
        let clean: Vec<u8> = bytes
            .iter()
            .enumerate()
            .filter(|&(at, &b)| !(b == 0xD8 && bytes.get(at + 1) == Some(&b'\n')))
            .map(|(_, &b)| b)
            .collect();
        assert_eq!(detect(&clean).candidate(GBK).map(|c| c.errors), Some(0));
    }

    /// The first 64 bytes of a file, cut in its first character beyond
    /// ASCII: the cut character is weighed as one hidden character, so a
    /// single-byte reading wins only where its letter fits.
    #[test]
    fn a_lone_sequence_cut_by_the_end_is_weighed_as_a_hidden_character() {
        let cut = |text: &str| {
            let bytes = text.as_bytes();
            let end = (1..bytes.len())
                .rev()
                .find(|&i| !text.is_char_boundary(i))
                .expect("a character beyond ASCII to cut");
            bytes[..end].to_vec()
        };
        for text in [
            "A Google reagiu logo a seguir, reafirmando que as suas regras \u{201c}",
            "<!DOCTYPE html>\n<html><head><title>Especialistas en la confección",
            "Alfa Romeo MiTo 1.4 TB 16V, 1368ccm, 114kW (155PS) Ako dosiahnuť",
        ] {
            let bytes = cut(text);
            let detection = detect(&bytes);
            check_ranking(&detection);
            assert_eq!(detection.best(), UTF_8, "{text}");
            let note = detection
                .notes
                .iter()
                .find(|n| matches!(n, Note::CutAtEnd { .. }))
                .expect("a note says why");
            assert!(note.to_string().starts_with("UTF-8 ranks first although"));
        }
        // A letter that fits where it stands is no cut.
        for bytes in [
            &b"Le caf\xe9"[..],
            b"Voici la maison de mon p\xe8",
            b"Ele n\xe3",
        ] {
            let detection = detect(bytes);
            assert_eq!(detection.best(), WINDOWS_1252, "{bytes:?}");
            assert!(
                detection
                    .notes
                    .iter()
                    .all(|n| !matches!(n, Note::CutAtEnd { .. }))
            );
        }
    }

    /// Western letters that macintosh reads as signs between the letters of
    /// a word ("Sch‰fer", "Jo„o", "K·roly") count against that reading.
    #[test]
    fn signs_between_letters_count_against_a_reading() {
        for bytes in [
            &b"Herr Sch\xe4fer kommt morgen"[..],
            b"Jo\xe3o Paulo mora aqui",
            b"K\xe1roly is here today",
        ] {
            let detection = detect(bytes);
            check_ranking(&detection);
            assert_eq!(
                detection.best().decode(bytes).text,
                WINDOWS_1252.decode(bytes).text,
                "{bytes:?}"
            );
            let macintosh = detection.candidate(MACINTOSH).expect("ranked");
            assert!(
                macintosh
                    .evidence
                    .iter()
                    .any(|e| matches!(e, Evidence::SignsInWords { count: 1 })),
                "{:?}",
                macintosh.evidence
            );
        }
        // Signs words are written with are no evidence against a reading:
        // apostrophes, dashes, Catalan's middle dot, combining marks.
        for text in ["l’été", "well—maybe", "col·legi", "Ba\u{323}n"] {
            let bytes = text.as_bytes();
            let detection = detect(bytes);
            let utf8 = detection.candidate(UTF_8).expect("ranked");
            assert!(
                utf8.evidence
                    .iter()
                    .all(|e| !matches!(e, Evidence::SignsInWords { .. })),
                "{text}: {:?}",
                utf8.evidence
            );
        }
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
    fn a_single_byte_encodings_errors_are_never_outweighed() {
        // Hebrew with a maqaf, gershayim and quotation marks: windows-1255
        // writes them, ISO-8859-8 has no such bytes (or reads C1 controls).
        let text = "צה״ל הודיע כי בית־הספר ייסגר. „זה לא צפוי”, אמר המנהל. \
                    מע״מ ודו״ח שנתי נשלחו לרשות־המסים בזמן.\n"
            .repeat(6);
        let detection = detect(&encoded(WINDOWS_1255, &text));
        check_ranking(&detection);
        assert_eq!(detection.best(), WINDOWS_1255);
        // Every decode with errors ranks below every decode without.
        let first_with_errors = detection
            .candidates
            .iter()
            .position(|c| c.errors > 0)
            .expect("some decodes have errors");
        assert!(
            detection.candidates[first_with_errors..]
                .iter()
                .all(|c| c.errors > 0)
        );
        let iso = detection.candidate(ISO_8859_8).expect("ranked");
        assert!(iso.errors > 0);
    }

    #[test]
    fn words_of_another_language_read_in_theirs() {
        // A menu in English with its Portuguese translations: the words
        // with letters beyond ASCII are Portuguese, and macintosh's reading
        // of them is no better for being priced in English.
        let menu = "\" Menu translations for the editor: Português\n\
        \" Quit when the translations have been loaded already.\n\
        \" These are the menus of the editor in the language of the user. Each\n\
        \" line gives the English name of an entry, then its translation, with\n\
        \" the key that selects it marked by an ampersand and the command that\n\
        \" it runs after a tab. When the editor starts, it reads the file that\n\
        \" matches the language of the environment, and replaces the names of\n\
        \" the menus with the ones it finds here. Entries that are missing keep\n\
        \" their English names, so a partial translation still works, and the\n\
        \" rest can be added later by anyone who speaks the language well.\n\
        \" Please keep the lines sorted as the menus are, and keep the keys of\n\
        \" the entries of one menu different from each other, or some of them\n\
        \" cannot be reached from the keyboard without the mouse at all.\n\
        if exists(\"did_menu_trans\")\n\
        \tfinish\n\
        endif\n\
        let did_menu_trans = 1\n\
        \" Tools menu\n\
        menutrans &Tools\t\t\t&Ferramentas\n\
        menutrans &Jump\\ to\\ this\\ tag<Tab>g^]\t&Saltar\\ para\\ a\\ etiqueta\n\
        menutrans &Spelling\t\t\t&Ortografia\n\
        menutrans &Next\\ error<Tab>:cn\t\tErro\\ &seguinte\n\
        menutrans &Previous\\ error<Tab>:cp\tErro\\ &anterior\n\
        menutrans &Older\\ list<Tab>:cold\tLista\\ mais\\ &antiga\n\
        menutrans &Set\\ compiler\t\tDefinir\\ &compilador\n\
        menutrans &Color\\ scheme\t\tEsquema\\ de\\ &cores\n\
        menutrans &Buffers\t\t\t&Memórias\n\
        menutrans &Refresh\\ menu\t\t&Actualizar\\ o\\ menu\n\
        menutrans &Delete\t\t\t&Eliminar\n\
        menutrans Se&lect\\ all<Tab>ggVG\tSeleccionar\\ &tudo\n\
        menutrans Settings\\ &window\tJanela\\ de\\ &configuração\n\
        menutrans &Global\\ settings\tOpções\\ &globais\n\
        menutrans Toggle\\ &line\\ numbering<Tab>:set\\ nu!\tNumeração\\ de\\ &linhas\n\
        menutrans &Syntax\t\t\t&Sintaxe\n\
        menutrans &Show\\ file\\ types\\ in\\ menu\tMostrar\\ &tipos\\ de\\ ficheiro\\ no\\ menu\n\
        menutrans A&utomatic\t\t\tA&utomático\n\
        menutrans &Window\t\t\t&Janela\n\
        menutrans &Help\t\t\tA&juda\n\
        menutrans &Version\t\t&Versão\n\
        menutrans Co&pying\t\t&Licença\n\
        \" The toolbar tips are translated when the toolbar is shown.\n\
        if has(\"toolbar\")\n\
        \ttmenu ToolBar.Open\t\tAbrir ficheiro\n\
        \ttmenu ToolBar.Save\t\tGuardar ficheiro\n\
        \ttmenu ToolBar.Print\t\tImprimir\n\
        \ttmenu ToolBar.Replace\tProcurar e substituir\n\
        endif\n\
        ";
        let detection = detect(&encoded(WINDOWS_1252, menu));
        check_ranking(&detection);
        assert_eq!(detection.best(), WINDOWS_1252);
        let language = detection.candidates[0]
            .evidence
            .iter()
            .find_map(|e| match e {
                Evidence::Language { tag, .. } => Some(*tag),
                _ => None,
            });
        assert_eq!(language, Some("pt"));
    }

    #[test]
    fn what_detection_examines_is_all_it_reads() {
        // A long input in several parts: the examined ranges alone, in a
        // buffer of zeros of the input's length, give the same ranking.
        let mut bytes = Vec::new();
        for (encoding, line) in [
            (
                WINDOWS_1251,
                "Съешь же ещё этих мягких французских булок, да выпей чаю.\n",
            ),
            (
                WINDOWS_1252,
                "Le cœur déçu mais l’âme plutôt naïve, Louÿs rêva.\n",
            ),
        ] {
            let line = encoded(encoding, line);
            bytes.extend(line.iter().copied().cycle().take(700 * 1024));
        }
        let mut sparse = vec![0u8; bytes.len()];
        let ranges = examined_ranges(bytes.len());
        assert!(ranges.iter().map(ExactSizeIterator::len).sum::<usize>() < 300 * 1024);
        for range in ranges {
            sparse[range.clone()].copy_from_slice(&bytes[range]);
        }
        let (whole, part) = (detect(&bytes), detect(&sparse));
        let ranking = |d: &Detection| {
            d.candidates
                .iter()
                .map(|c| (c.encoding, c.log_likelihood.to_bits()))
                .collect::<Vec<_>>()
        };
        assert_eq!(ranking(&whole), ranking(&part));
        assert_eq!(whole.notes, part.notes);
        // The same from the examined bytes alone, one after the other.
        let examined: Vec<u8> = examined_ranges(bytes.len())
            .into_iter()
            .flat_map(|range| bytes[range].to_vec())
            .collect();
        let alone = detect_examined(bytes.len(), &examined);
        assert_eq!(ranking(&whole), ranking(&alone));
        assert_eq!(whole.notes, alone.notes);
        assert_eq!(whole.bytes_examined, alone.bytes_examined);
        // Bytes that are not those ranges are taken for the whole input.
        let short = detect_examined(bytes.len(), &examined[..100]);
        assert_eq!(ranking(&short), ranking(&detect(&examined[..100])));
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
