//! What one encoding's decode of the evidence looks like: its errors, its
//! implausible characters, an identity hash of the text, and the counts of
//! character pairs that the language models score.
//!
//! Decoders whose bytes decode one at a time (the single-byte encodings and
//! x-user-defined) are read through a 256-entry table built by the engine's
//! own decoder, and their pairs come from the evidence's byte-pair counts,
//! counted once and shared by all of them ([`ByteCounts`]). The other
//! decoders run over the evidence with a [`TextSink`], which interns each
//! distinct character once per detection ([`Chars`]), so that what the
//! language models need to know of a character is worked out once.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;
use std::sync::OnceLock;

use mojiscope_indexes::language::{self, CharClass, Language, Script};

use crate::decoder::{BomHandling, DecodeErrorMode, Decoder};
use crate::encoding::{ALL, Encoding, ISO_2022_JP, X_USER_DEFINED};
use crate::provenance::{ByteSpan, DecodeErrorKind, DecodeSink, SkipReason};

/// A fast hasher for small integer keys.
#[derive(Default)]
pub(crate) struct FastHasher(u64);

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95);
        }
    }
    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95);
    }
}

type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// FNV-1a, over the decoded characters, so that equal decodes hash equal
/// whichever way they were decoded.
const HASH_START: u64 = 0xCBF2_9CE4_8422_2325;
const HASH_PRIME: u64 = 0x0100_0000_01B3;
/// What an error contributes to the hash (no scalar value is this large).
const ERROR_MARK: u32 = 0x11_0000;
/// What the gap between two runs of the evidence contributes to the hash.
const GAP_MARK: u32 = 0x11_0001;

fn hash_step(hash: u64, value: u32) -> u64 {
    (hash ^ u64::from(value)).wrapping_mul(HASH_PRIME)
}

/// How many scripts [`Script`] has.
const SCRIPTS: usize = Script::ALL.len();

const IMPLAUSIBLE: u8 = 1;
const SYMBOL: u8 = 2;
const UPPERCASE: u8 = 4;
const LOWERCASE: u8 = 8;
const ALPHABETIC: u8 = 16;
const FORMAT: u8 = 32;
/// A sign beyond ASCII no word is written with ([`is_sign_of_no_letter`],
/// of a character that is no letter).
const WORD_SIGN: u8 = 64;

/// What detection needs to know of a character, worked out once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CharInfo {
    /// The character.
    pub(crate) c: char,
    /// Its folded form ([`language::fold`]).
    pub(crate) folded: char,
    /// The script of the folded form.
    pub(crate) script: Option<Script>,
    /// The script whose own digit the character is ([`language::digit_script`]).
    digit: Option<Script>,
    /// The folded form's share of its class's cost
    /// ([`language::member_cost`]; the same for every language).
    pub(crate) share: u16,
    /// The folded form's class in a language of each script.
    classes: [u8; SCRIPTS],
    flags: u8,
}

impl CharInfo {
    /// The facts of `c` ([`Chars`] finds them so when it meets `c`).
    #[cfg(test)]
    pub(crate) fn of(c: char) -> Self {
        match code_page_position(c) {
            Some(at) => code_page_chars::CHARS[at],
            None => Self::beyond_code_pages(c),
        }
    }

    /// The facts of a character no encoding that decodes byte by byte
    /// has.
    fn beyond_code_pages(c: char) -> Self {
        match block_kind(c) {
            Some(kind) => {
                // Every character of a kind has the same facts: those of
                // the first one asked, worked out in full.
                static KINDS: [OnceLock<CharInfo>; BLOCK_KINDS] =
                    [const { OnceLock::new() }; BLOCK_KINDS];
                let same = KINDS[kind].get_or_init(|| Self::worked_out(c));
                Self {
                    c,
                    folded: c,
                    ..*same
                }
            }
            None => Self::worked_out(c),
        }
    }

    /// The facts of a character from the general lookups.
    fn worked_out(c: char) -> Self {
        let folded = language::fold(c);
        let facts = language::facts(folded);
        let mut flags = 0;
        if language::is_implausible(c) {
            flags |= IMPLAUSIBLE;
        } else if !c.is_ascii() && facts.classes[Script::Latin as usize] == CharClass::Symbol {
            // Folding changes letters only: the folded form is a symbol
            // when the character is.
            flags |= SYMBOL;
        }
        if is_ideograph_or_syllable(c) {
            // Letters without case, told at once (the general lookups are
            // slow so far from ASCII).
            flags |= ALPHABETIC;
        } else {
            if c.is_uppercase() {
                flags |= UPPERCASE;
            }
            if c.is_lowercase() {
                flags |= LOWERCASE;
            }
            if is_plain_letter(c) || c.is_alphabetic() {
                flags |= ALPHABETIC;
            }
        }
        if language::is_invisible_format(c) {
            flags |= FORMAT;
        }
        // A letter is no sign (and the test of a sign is slow for
        // characters far from ASCII).
        if flags & ALPHABETIC == 0 && is_sign_of_no_letter(c) {
            flags |= WORD_SIGN;
        }
        Self {
            c,
            folded,
            script: facts.script,
            digit: language::digit_script(c),
            share: facts.member_cost as u16,
            classes: facts.classes.map(|class| class.position() as u8),
            flags,
        }
    }

    /// The symbol index of the folded form in `language`.
    #[inline]
    pub(crate) const fn symbol(&self, language: &Language) -> u16 {
        // A binary search, written out to be a `const fn`.
        let folded = self.folded as u32;
        let (mut low, mut high) = (0, language.symbols.len());
        while low < high {
            let middle = low + (high - low) / 2;
            if language.symbols[middle] < folded {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        if low < language.symbols.len() && language.symbols[low] == folded {
            low as u16
        } else {
            self.class_symbol(language)
        }
    }

    /// The symbol index of the folded form's class in `language`: its
    /// symbol when it has none of its own there.
    #[inline]
    pub(crate) const fn class_symbol(&self, language: &Language) -> u16 {
        (language.symbols.len() + self.classes[language.script as usize] as usize) as u16
    }

    fn is(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}

/// How many kinds [`block_kind`] tells apart.
const BLOCK_KINDS: usize = 5;

/// Which kind of letter without case `c` is, if it is a Han ideograph of
/// the main block, a Hangul syllable or a kana letter: common or rare Han
/// ideograph, common or rare Hangul syllable, kana. Their folded form is
/// themselves, and every letter of a kind has the same [`CharInfo`] but
/// for the character (a test checks each one against the general lookups):
/// these are most of what the decodes of Chinese, Japanese and Korean
/// text give, and the general lookups are slow so far from ASCII.
fn block_kind(c: char) -> Option<usize> {
    match c {
        '\u{4E00}'..='\u{9FFF}' => Some(usize::from(language::is_common_ideograph_or_syllable(c))),
        '\u{AC00}'..='\u{D7A3}' => {
            Some(2 + usize::from(language::is_common_ideograph_or_syllable(c)))
        }
        '\u{3041}'..='\u{3096}' | '\u{30A1}'..='\u{30FA}' => Some(4),
        _ => None,
    }
}

/// Whether `c` is a CJK unified ideograph of the main block, a Hangul
/// syllable, or a hiragana or katakana letter: every one of them is a
/// letter without case.
fn is_ideograph_or_syllable(c: char) -> bool {
    matches!(
        c,
        '\u{4E00}'..='\u{9FFF}'
            | '\u{AC00}'..='\u{D7A3}'
            | '\u{3041}'..='\u{3096}'
            | '\u{30A1}'..='\u{30FA}'
    )
}

/// Whether `c` is a letter of an alphabet block that holds nothing but
/// letters in that range (Latin-1 and Latin Extended, the basic Cyrillic
/// and Greek letters, Hebrew, Arabic and Thai letters): told at once where
/// the general lookup is slow.
fn is_plain_letter(c: char) -> bool {
    matches!(
        c,
        '\u{C0}'..='\u{D6}'
            | '\u{D8}'..='\u{F6}'
            | '\u{F8}'..='\u{24F}'
            | '\u{388}'..='\u{38A}'
            | '\u{38E}'..='\u{3A1}'
            | '\u{3A3}'..='\u{3CE}'
            | '\u{400}'..='\u{481}'
            | '\u{48A}'..='\u{52F}'
            | '\u{5D0}'..='\u{5EA}'
            | '\u{620}'..='\u{64A}'
            | '\u{E01}'..='\u{E30}'
    )
}

/// The [`CharInfo`] of every ASCII character: the first of
/// [`code_page_chars::CHARS`], which holds all of them.
fn ascii_infos() -> &'static [CharInfo; 128] {
    code_page_chars::CHARS
        .first_chunk()
        .expect("the characters of the code pages start with ASCII")
}

/// The position of `c` in [`code_page_chars::CHARS`], if some encoding
/// that decodes byte by byte has it (every ASCII character does, at its
/// own code).
const fn code_page_position(c: char) -> Option<usize> {
    // A binary search, written out to be a `const fn` (the byte decodings'
    // indexes are laid out with it).
    let chars = &code_page_chars::CHARS;
    let (mut low, mut high) = (0, chars.len());
    while low < high {
        let middle = low + (high - low) / 2;
        if (chars[middle].c as u32) < c as u32 {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    if low < chars.len() && chars[low].c as u32 == c as u32 {
        Some(low)
    } else {
        None
    }
}

/// How many characters the encodings that decode byte by byte have: the
/// first indexes of [`Chars`].
pub(crate) const CODE_PAGE_CHARS: usize = code_page_chars::CHARS.len();

/// The [`CharInfo`] of every character of the encodings that decode byte
/// by byte, worked out when the table was generated: a detection weighs
/// the decodes of all of them, and working out 500 characters' facts (the
/// general Unicode lookups, the language tables) cost a process that
/// detects once a tenth of its time.
pub(super) mod code_page_chars;

/// A [`CharInfo`] as [`code_page_chars`] writes it: a script and a digit
/// script by position in [`Script::ALL`], or [`NO_SCRIPT`].
const fn listed(
    c: char,
    folded: char,
    script: u8,
    digit: u8,
    share: u16,
    classes: [u8; SCRIPTS],
    flags: u8,
) -> CharInfo {
    CharInfo {
        c,
        folded,
        script: script_at(script),
        digit: script_at(digit),
        share,
        classes,
        flags,
    }
}

/// The script at `position` in [`Script::ALL`], or none for [`NO_SCRIPT`].
const fn script_at(position: u8) -> Option<Script> {
    if position == NO_SCRIPT {
        None
    } else {
        Some(Script::ALL[position as usize])
    }
}

/// In [`code_page_chars`], no script.
const NO_SCRIPT: u8 = u8::MAX;

/// The distinct characters of a detection's decodes, each with its
/// [`CharInfo`]. The characters of the encodings that decode byte by byte
/// have their position in [`code_page_chars::CHARS`] as index (ASCII
/// characters their own code), the same in every detection; the others
/// come after them, in the order they are met.
pub(crate) struct Chars {
    infos: Vec<CharInfo>,
    index: FastMap<char, u32>,
    /// A direct-mapped cache in front of `index`: (character + 1, index).
    cache: Vec<(u32, u32)>,
}

const CACHE_BITS: u32 = 11;

/// How many distinct characters beyond ASCII [`Chars`] makes room for at
/// once: what the decodes of 1 KiB of evidence beyond ASCII usually give.
const CHAR_CAPACITY: usize = 1024;

impl Chars {
    pub(crate) fn new() -> Self {
        let mut infos = Vec::with_capacity(CODE_PAGE_CHARS + CHAR_CAPACITY);
        infos.extend_from_slice(&code_page_chars::CHARS);
        Self {
            infos,
            index: FastMap::with_capacity_and_hasher(CHAR_CAPACITY, BuildHasherDefault::default()),
            cache: vec![(0, 0); 1 << CACHE_BITS],
        }
    }

    /// The index of `c`, interned if new.
    #[inline]
    pub(crate) fn intern(&mut self, c: char) -> u32 {
        let code = u32::from(c);
        if code < 0x80 {
            return code;
        }
        let slot = (code.wrapping_mul(0x9E37_79B1) >> (32 - CACHE_BITS)) as usize;
        let (key, index) = self.cache[slot];
        if key == code + 1 {
            return index;
        }
        let index = if let Some(at) = code_page_position(c) {
            at as u32
        } else {
            let next = self.infos.len() as u32;
            let index = *self.index.entry(c).or_insert(next);
            if index == next {
                self.infos.push(CharInfo::beyond_code_pages(c));
            }
            index
        };
        self.cache[slot] = (code + 1, index);
        index
    }

    /// The character at `index`.
    #[inline]
    pub(crate) fn info(&self, index: u32) -> &CharInfo {
        &self.infos[index as usize]
    }

    /// How many characters are interned.
    pub(crate) fn len(&self) -> usize {
        self.infos.len()
    }
}

/// What one decode of the evidence showed.
#[derive(Clone, Debug, Default)]
pub(crate) struct TextStats {
    /// Identity of the decoded text (with errors and gaps); for a decode
    /// byte by byte, computed only when it is compared with another kind
    /// of decode ([`ByteCounts::sequence_hash`]).
    pub(crate) hash: u64,
    /// Decoded scalar values.
    pub(crate) chars: u64,
    /// Decoded scalar values that are not ASCII.
    pub(crate) non_ascii: u64,
    /// Errors, by kind.
    pub(crate) errors: Vec<(DecodeErrorKind, u64)>,
    /// Offset of the first error in the input.
    pub(crate) first_error: Option<u64>,
    /// Implausible characters (controls, private use, noncharacters).
    pub(crate) implausible: u64,
    /// The first implausible character.
    pub(crate) first_implausible: Option<char>,
    /// Unlikely symbols (box drawing, mathematical signs, ...).
    pub(crate) symbols: u64,
    /// Uppercase letters right after a lowercase letter, one of them not
    /// ASCII: words do not change case in the middle.
    pub(crate) case_breaks: u64,
    /// Invisible formatting characters between two letters of a word
    /// (a left-to-right mark inside "altyaz\u{200E}s\u{200E}"): words do not
    /// hold them.
    pub(crate) formats_in_words: u64,
    /// Digits of a script right beside a letter of another (the Thai digit
    /// one inside "Espa\u{E51}ol"): numbers of a script stand apart from the
    /// words of others.
    pub(crate) digits_in_words: u64,
    /// The digits of each script that has its own ([`language::digit_script`]),
    /// by the script's position in [`Script::ALL`].
    pub(crate) script_digits: [u64; SCRIPTS],
    /// All of them, kept beside the counts by script so that what a
    /// language's foreign digits come to is one subtraction: it is asked
    /// for every language every decode is weighed in.
    pub(crate) all_script_digits: u64,
    /// Signs beyond ASCII between two Latin letters of a word, where words
    /// hold none ("Ac\u{B7}mbaro", "c\u{BD}ur"): a reading that makes signs
    /// of another's letters.
    pub(crate) signs_in_words: u64,
    /// Han ideographs.
    pub(crate) han: u64,
    /// Whether a sequence cut by the end is no error even with nothing
    /// beyond ASCII decoded: the file declares an encoding that reads as
    /// this one, and its text may well have been cut in a character.
    pub(crate) cut_forgiven: bool,
    /// Whether a sequence cut by the end hides a character beyond ASCII
    /// (any multi-byte encoding but ISO-2022-JP, whose sequences beyond
    /// ASCII start with an escape).
    pub(crate) cut_hides_text: bool,
    /// Pairs of characters (indexes into [`Chars`]) with at least one
    /// non-ASCII member (all pairs when `ascii_pairs_included`), each once,
    /// in no particular order: (left, right, count). Empty for a decode byte by byte, whose pairs
    /// are the shared byte pairs.
    pub(crate) pairs: Vec<(u32, u32, u32)>,
    /// How many of the characters the pairs and the other counts (but
    /// `chars`, `non_ascii` and the errors) cover: fewer than `chars` when
    /// the decode's errors ruled it out on the way ([`CUT_ERRORS`] of them,
    /// fewer than one for [`super::ERRORS_OUTWEIGHED`] characters beyond
    /// ASCII) and it stays so (then it ranks below every clean decode
    /// whatever its text).
    pub(crate) scored_chars: u64,
    /// How many of the characters beyond ASCII they cover.
    pub(crate) scored_non_ascii: u64,
    /// Whether `pairs` counts the pairs of ASCII characters too (for
    /// ISO-2022-JP, whose ASCII bytes need not decode to ASCII); otherwise
    /// they are counted once for the whole evidence and added by the scorer.
    pub(crate) ascii_pairs_included: bool,
}

impl TextStats {
    /// The number of errors.
    pub(crate) fn error_count(&self) -> u64 {
        self.errors.iter().map(|&(_, n)| n).sum()
    }

    /// The errors that count against the decode: all but a sequence cut
    /// by the end of the input or of a sampled run, which says nothing of
    /// the encoding (any multi-byte text cut at a random byte has one).
    /// A decode with nothing beyond ASCII shows no text the cut could have
    /// split, so there every error counts.
    pub(crate) fn ranking_errors(&self) -> u64 {
        let forgive_cuts = self.non_ascii > 0 || self.cut_forgiven || self.lone_cut();
        self.errors
            .iter()
            .filter(|(kind, _)| !forgive_cuts || *kind != DecodeErrorKind::TruncatedSequence)
            .map(|&(_, n)| n)
            .sum()
    }

    /// Whether the decode shows nothing beyond ASCII but one sequence cut by
    /// the end: the first bytes of a file cut in its first character beyond
    /// ASCII. The cut is no error then, but it is no text either: it is
    /// weighed as one unknown character
    /// ([`lone_cut_cost`](super::lone_cut_cost)) against
    /// what the other decodes make of the same bytes.
    pub(crate) fn lone_cut(&self) -> bool {
        self.cut_hides_text
            && self.non_ascii == 0
            && self.errors.len() == 1
            && self.errors[0] == (DecodeErrorKind::TruncatedSequence, 1)
    }

    /// Whether the only errors are sequences cut by the end of the input or
    /// of a sampled run.
    pub(crate) fn only_cut_sequences(&self) -> bool {
        self.errors
            .iter()
            .all(|(kind, _)| *kind == DecodeErrorKind::TruncatedSequence)
    }

    fn add_error(&mut self, kind: DecodeErrorKind, count: u64) {
        let same = |k: &DecodeErrorKind| std::mem::discriminant(k) == std::mem::discriminant(&kind);
        match self.errors.iter_mut().find(|(k, _)| same(k)) {
            Some((_, n)) => *n += count,
            None => self.errors.push((kind, count)),
        }
    }

    fn note_char(&mut self, info: &CharInfo, count: u64) {
        if let Some(script) = info.digit {
            self.script_digits[script as usize] += count;
            self.all_script_digits += count;
        }
        if info.is(IMPLAUSIBLE) {
            self.implausible += count;
            self.first_implausible.get_or_insert(info.c);
        } else if info.is(SYMBOL) {
            self.symbols += count;
        }
    }
}

/// Whether `format` is an invisible formatting character between two
/// letters, where no word holds one.
fn format_in_word(left: &CharInfo, format: &CharInfo, right: &CharInfo) -> bool {
    format.is(FORMAT)
        && left.is(ALPHABETIC)
        && right.is(ALPHABETIC)
        && !language::format_may_join(left.c, format.c, right.c)
}

/// Whether `sign` between the Latin letters `left` and `right` breaks a
/// word where words hold no such sign: a character beyond ASCII that is no
/// letter, digit, space, format character or combining mark, nor a mark
/// words are joined or cut with (apostrophes, dashes, ellipses, bullets,
/// and the middle dot of Catalan's "l·l").
fn sign_in_word(left: &CharInfo, sign: &CharInfo, right: &CharInfo) -> bool {
    let c = sign.c;
    left.is(ALPHABETIC)
        && right.is(ALPHABETIC)
        && left.script == Some(Script::Latin)
        && right.script == Some(Script::Latin)
        && sign.is(WORD_SIGN)
        && !(c == '\u{B7}' && left.folded == 'l' && right.folded == 'l')
}

/// Whether `c` is a sign beyond ASCII that no word is written with (known
/// of every character as [`WORD_SIGN`]; the tests ask it).
#[cfg(test)]
fn is_word_breaking_sign(c: char) -> bool {
    !is_plain_letter(c) && !c.is_alphabetic() && is_sign_of_no_letter(c)
}

/// Whether `c`, which is no letter, is a sign beyond ASCII that no word is
/// written with: no apostrophe, dash, ellipsis, bullet, combining mark,
/// space, digit or invisible formatting character. (Whether it is a letter
/// is not asked again: a slow lookup so far from ASCII.)
fn is_sign_of_no_letter(c: char) -> bool {
    !c.is_ascii()
        && !language::is_invisible_format(c)
        && !matches!(
            c,
            // Apostrophes, dashes, the ellipsis, bullets, the fraction slash.
            '\u{2018}' | '\u{2019}' | '\u{201B}' | '\u{B4}' | '\u{2026}' | '\u{2022}'
                | '\u{2027}' | '\u{2044}' | '\u{2010}'..='\u{2015}'
                // Combining marks belong to the letter before them.
                | '\u{300}'..='\u{36F}'
                | '\u{1AB0}'..='\u{1AFF}'
                | '\u{1DC0}'..='\u{1DFF}'
                | '\u{20D0}'..='\u{20FF}'
                | '\u{FE20}'..='\u{FE2F}'
        )
        && !c.is_whitespace()
        && !c.is_numeric()
}

/// [`format_in_word`] for bare characters, where their facts are not at
/// hand (segments judge a line's characters one by one).
pub(super) fn chars_format_in_word(left: char, format: char, right: char) -> bool {
    language::is_invisible_format(format)
        && left.is_alphabetic()
        && right.is_alphabetic()
        && !language::format_may_join(left, format, right)
}

/// Whether one of two neighbours is a digit of a script and the other a
/// letter of another script.
fn digit_beside_letter(left: &CharInfo, right: &CharInfo) -> bool {
    let foreign = |digit: &CharInfo, letter: &CharInfo| {
        digit
            .digit
            .is_some_and(|script| letter.is(ALPHABETIC) && letter.script != Some(script))
    };
    foreign(left, right) || foreign(right, left)
}

/// After this many errors a decode with fewer than
/// [`super::ERRORS_OUTWEIGHED`] characters beyond ASCII for each is ruled
/// out: see [`TextStats::scored_chars`].
const CUT_ERRORS: u64 = 16;

/// The index of a word boundary: the space.
const BOUNDARY: u32 = b' ' as u32;

/// Collects [`TextStats`] from a decoder.
struct TextSink<'a> {
    stats: TextStats,
    chars: &'a mut Chars,
    /// Counts of pairs by key (left << 32 | right).
    keys: FastMap<u64, u32>,
    /// The previous character's index (the boundary at the start).
    previous: u32,
    previous_is_ascii: bool,
    /// The character before the previous one.
    before_previous: u32,
    /// The offset of the run being decoded in the input.
    base: u64,
    /// Errors so far, but sequences cut by the end of a run.
    counted_errors: u64,
    /// Whether the errors have ruled the decode out (see
    /// [`TextStats::scored_chars`]).
    cut: bool,
    /// Whether they may.
    may_cut: bool,
}

impl<'a> TextSink<'a> {
    /// `capacity`: how many distinct pairs to make room for at once (the
    /// map is never grown a step at a time for the usual evidence).
    fn new(
        ascii_pairs_included: bool,
        chars: &'a mut Chars,
        may_cut: bool,
        capacity: usize,
    ) -> Self {
        Self {
            stats: TextStats {
                hash: HASH_START,
                ascii_pairs_included,
                ..TextStats::default()
            },
            chars,
            keys: FastMap::with_capacity_and_hasher(capacity, BuildHasherDefault::default()),
            previous: BOUNDARY,
            previous_is_ascii: true,
            before_previous: BOUNDARY,
            base: 0,
            counted_errors: 0,
            cut: false,
            may_cut,
        }
    }

    fn gap(&mut self) {
        self.stats.hash = hash_step(self.stats.hash, GAP_MARK);
        self.previous = BOUNDARY;
        self.previous_is_ascii = true;
        self.before_previous = BOUNDARY;
    }

    #[inline]
    fn push(&mut self, c: char) {
        let stats = &mut self.stats;
        stats.hash = hash_step(stats.hash, u32::from(c));
        stats.chars += 1;
        let is_ascii = c.is_ascii();
        if !is_ascii {
            stats.non_ascii += 1;
        }
        if self.cut {
            return;
        }
        let index = self.chars.intern(c);
        let stats = &mut self.stats;
        let info = *self.chars.info(index);
        stats.note_char(&info, 1);
        if info.script == Some(Script::Chinese) {
            stats.han += 1;
        }
        let previous = self.chars.info(self.previous);
        // What follows asks of a character beyond ASCII on one side or the
        // other: a case break, a formatting character, a sign or a digit of
        // a script.
        if !(is_ascii && self.previous_is_ascii) {
            if previous.is(LOWERCASE) && info.is(UPPERCASE) {
                stats.case_breaks += 1;
            }
            if previous.is(FORMAT)
                && format_in_word(self.chars.info(self.before_previous), previous, &info)
            {
                stats.formats_in_words += 1;
            }
            if digit_beside_letter(previous, &info) {
                stats.digits_in_words += 1;
            }
            if sign_in_word(self.chars.info(self.before_previous), previous, &info) {
                stats.signs_in_words += 1;
            }
        }
        let both_boundaries = info.folded == ' ' && previous.folded == ' ';
        let shared = !stats.ascii_pairs_included && is_ascii && self.previous_is_ascii;
        if !both_boundaries && !shared {
            *self
                .keys
                .entry((u64::from(self.previous) << 32) | u64::from(index))
                .or_default() += 1;
        }
        self.before_previous = self.previous;
        self.previous = index;
        self.previous_is_ascii = is_ascii;
    }

    fn finish(mut self) -> TextStats {
        if !self.cut {
            self.stats.scored_chars = self.stats.chars;
            self.stats.scored_non_ascii = self.stats.non_ascii;
        }
        // In the map's order, which is the same from run to run (its
        // hasher has no random state): what is made of the pairs (sums of
        // costs, counts by character) does not depend on their order.
        self.stats.pairs = self
            .keys
            .iter()
            .map(|(&key, &n)| ((key >> 32) as u32, key as u32, n))
            .collect();
        self.stats
    }
}

impl DecodeSink for TextSink<'_> {
    fn ascii(&mut self, run: &[u8], _start: u64) {
        if self.cut {
            for &b in run {
                self.stats.hash = hash_step(self.stats.hash, u32::from(b));
            }
            self.stats.chars += run.len() as u64;
            return;
        }
        if self.stats.ascii_pairs_included || run.len() < 2 {
            for &b in run {
                self.push(char::from(b));
            }
            return;
        }
        // The pairs inside the run are the shared ASCII pairs: only the one
        // that joins it to what came before is counted here.
        let (&first, rest) = run.split_first().expect("a run of two or more");
        self.push(char::from(first));
        let infos = ascii_infos();
        for &b in rest {
            self.stats.hash = hash_step(self.stats.hash, u32::from(b));
            self.stats.note_char(&infos[usize::from(b)], 1);
        }
        self.stats.chars += rest.len() as u64;
        self.before_previous = u32::from(run[run.len() - 2]);
        self.previous = u32::from(run[run.len() - 1]);
        self.previous_is_ascii = true;
    }

    fn scalar(&mut self, c: char, _span: ByteSpan) {
        self.push(c);
    }

    fn scalar_pair(&mut self, first: char, second: char, _span: ByteSpan) {
        self.push(first);
        self.push(second);
    }

    fn error(&mut self, kind: DecodeErrorKind, span: ByteSpan) {
        self.stats.hash = hash_step(self.stats.hash, ERROR_MARK);
        if kind != DecodeErrorKind::TruncatedSequence {
            self.counted_errors += 1;
        }
        self.stats.add_error(kind, 1);
        self.stats.first_error.get_or_insert(span.start + self.base);
        if self.may_cut
            && !self.cut
            && self.counted_errors >= CUT_ERRORS
            && self.counted_errors * super::ERRORS_OUTWEIGHED > self.stats.non_ascii
        {
            // The errors rule the decode out: its pairs are counted no more.
            self.cut = true;
            self.stats.scored_chars = self.stats.chars;
            self.stats.scored_non_ascii = self.stats.non_ascii;
        }
        // An error is a word boundary that is not ASCII.
        self.previous = BOUNDARY;
        self.previous_is_ascii = false;
        self.before_previous = BOUNDARY;
    }

    fn skip(&mut self, _reason: SkipReason, _span: ByteSpan) {}
}

/// Decodes the evidence's runs with `encoding`'s decoder (no BOM handling:
/// the BOM has been looked at already) and collects what it shows.
pub(crate) fn decode_stats(
    encoding: &'static Encoding,
    bytes: &[u8],
    runs: &[Range<usize>],
    chars: &mut Chars,
) -> TextStats {
    // ISO-2022-JP leaves ASCII only at an escape. In ASCII bytes without
    // one it reads the ASCII text every other decode reads, so its ASCII
    // pairs are weighed with theirs, once, not on its account alone (which
    // had put it a few nats a character behind them all); with escapes
    // that switch to nothing (cut or broken), the same once decoded.
    // UTF-16's ASCII text is not that of the bytes.
    let ascii_bytes = || runs.iter().all(|run| bytes[run.clone()].is_ascii());
    let ascii_apart = encoding.is_ascii_compatible()
        || (encoding == ISO_2022_JP && reads_as_ascii_alone(bytes, runs));
    let stats = decode_stats_with(encoding, bytes, runs, chars, true, ascii_apart);
    if stats.scored_chars < stats.chars
        && stats.non_ascii >= super::ERRORS_OUTWEIGHED * stats.ranking_errors()
    {
        // Ruled out on the way, but its errors are outweighed in the end:
        // its text counts in full.
        return decode_stats_with(encoding, bytes, runs, chars, false, ascii_apart);
    }
    if encoding == ISO_2022_JP
        && !ascii_apart
        && stats.non_ascii == 0
        && stats.chars > 0
        && ascii_bytes()
    {
        return decode_stats_with(encoding, bytes, runs, chars, true, true);
    }
    stats
}

/// Whether ISO-2022-JP decodes `runs` as ASCII characters and errors
/// alone, with a character among them: ASCII bytes without an escape (the
/// shift bytes SO and SI are errors), and one byte that is neither.
fn reads_as_ascii_alone(bytes: &[u8], runs: &[Range<usize>]) -> bool {
    let mut character = false;
    for run in runs {
        let run = &bytes[run.clone()];
        if !run.is_ascii() || run.contains(&0x1B) {
            return false;
        }
        character = character || run.iter().any(|&b| !matches!(b, 0x0E | 0x0F));
    }
    character
}

/// `ascii_apart`: whether the pairs of ASCII characters are left to the
/// shared ASCII pairs ([`ByteCounts`]), as a decode that reads ASCII as
/// ASCII can.
fn decode_stats_with(
    encoding: &'static Encoding,
    bytes: &[u8],
    runs: &[Range<usize>],
    chars: &mut Chars,
    may_cut: bool,
    ascii_apart: bool,
) -> TextStats {
    // Most characters of a decode make a pair of their own with the one
    // before them, but the evidence's ASCII pairs, which are counted apart.
    let len: usize = runs.iter().map(ExactSizeIterator::len).sum();
    let capacity = (len / PAIR_BYTES).min(MAX_PAIR_CAPACITY);
    let mut sink = TextSink::new(!ascii_apart, chars, may_cut, capacity);
    for (position, run) in runs.iter().enumerate() {
        if position > 0 {
            sink.gap();
        }
        let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
        // In replacement mode the decoder consumes all of its input; errors
        // report their offsets from the run's start.
        sink.base = run.start as u64;
        let _ = decoder.decode(&bytes[run.clone()], true, &mut sink);
    }
    sink.finish()
}

/// Room is made at once for a decode's distinct pairs, one for every this
/// many bytes of evidence (growing the map step by step rehashes it each
/// time)...
const PAIR_BYTES: usize = 4;

/// ... for at most this many.
const MAX_PAIR_CAPACITY: usize = 4096;

/// Counts the errors of a decode, but a sequence cut by the end.
struct ErrorSink(u64);

impl DecodeSink for ErrorSink {
    fn ascii(&mut self, _run: &[u8], _start: u64) {}
    fn scalar(&mut self, _c: char, _span: ByteSpan) {}
    fn scalar_pair(&mut self, _first: char, _second: char, _span: ByteSpan) {}
    fn error(&mut self, kind: DecodeErrorKind, _span: ByteSpan) {
        if kind != DecodeErrorKind::TruncatedSequence {
            self.0 += 1;
        }
    }
    fn skip(&mut self, _reason: SkipReason, _span: ByteSpan) {}
}

/// Whether `encoding` decodes each of `runs` without error (a sequence cut
/// by a run's end aside).
pub(crate) fn decodes_clean(
    encoding: &'static Encoding,
    bytes: &[u8],
    runs: &[Range<usize>],
) -> bool {
    runs.iter().all(|run| {
        let mut sink = ErrorSink(0);
        let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
        // In pieces, so that a decode that errs early stops there.
        let run = &bytes[run.clone()];
        let mut pieces = run.chunks(CLEAN_PIECE).peekable();
        while let Some(piece) = pieces.next() {
            let _ = decoder.decode(piece, pieces.peek().is_none(), &mut sink);
            if sink.0 > 0 {
                return false;
            }
        }
        true
    })
}

/// How many bytes [`decodes_clean`] decodes before it looks for an error.
const CLEAN_PIECE: usize = 256;

/// How a byte decodes in an encoding whose bytes decode one at a time.
pub(crate) type ByteTable = [Option<char>; 256];

/// An encoding that decodes byte by byte, and its table.
pub(crate) struct ByteDecoding {
    pub(crate) encoding: &'static Encoding,
    pub(crate) table: ByteTable,
    /// The index in [`Chars`] of what each byte decodes to (a space's for
    /// an error).
    ids: [u16; 256],
}

impl ByteDecoding {
    /// The indexes in [`Chars`] of what each byte of `present` decodes to,
    /// by byte (a space's for an error, and for the bytes that do not
    /// occur).
    pub(crate) fn ids_of(&self, present: &[u8]) -> Box<[u32; 256]> {
        let mut ids = Box::new([u32::from(b' '); 256]);
        for &b in present {
            ids[usize::from(b)] = u32::from(self.ids[usize::from(b)]);
        }
        ids
    }
}

/// The byte decodings of every encoding that decodes byte by byte (the
/// single-byte encodings and x-user-defined), in the standard's order.
pub(crate) fn byte_decodings() -> &'static [ByteDecoding] {
    &BYTE_DECODINGS
}

/// The byte decoding of `encoding`, if it decodes byte by byte.
pub(crate) fn byte_decoding(encoding: &'static Encoding) -> Option<&'static ByteDecoding> {
    byte_decodings().iter().find(|d| d.encoding == encoding)
}

/// How many encodings decode byte by byte.
const BYTE_DECODINGS_LEN: usize = {
    let mut len = 0;
    let mut position = 0;
    while position < ALL.len() {
        if ALL[position].decodes_byte_by_byte() {
            len += 1;
        }
        position += 1;
    }
    len
};

/// [`byte_decodings`], laid out when the program is compiled: a process
/// that detects once would spend more time building them than detecting
/// (tens of microseconds, as much as a glance at Japanese text takes). A
/// single-byte encoding reads ASCII as itself and the other bytes through
/// its index (its decoder's steps 2 to 5); x-user-defined reads a byte
/// beyond ASCII as U+F780 + byte − 0x80. A test checks every entry
/// against the decoders.
static BYTE_DECODINGS: [ByteDecoding; BYTE_DECODINGS_LEN] = {
    let mut decodings = [const {
        ByteDecoding {
            encoding: X_USER_DEFINED,
            table: [None; 256],
            ids: [0; 256],
        }
    }; BYTE_DECODINGS_LEN];
    let mut len = 0;
    let mut position = 0;
    while position < ALL.len() {
        let encoding = ALL[position];
        if encoding.decodes_byte_by_byte() {
            let high = mojiscope_indexes::single_byte::code_points_for(encoding.name());
            let mut table = [None; 256];
            let mut byte = 0;
            while byte < 256 {
                table[byte] = if byte < 0x80 {
                    char::from_u32(byte as u32)
                } else if let Some(high) = high {
                    high[byte - 0x80]
                } else {
                    char::from_u32(0xF780 + byte as u32 - 0x80)
                };
                byte += 1;
            }
            let mut ids = [b' ' as u16; 256];
            let mut byte = 0;
            while byte < 256 {
                if let Some(c) = table[byte] {
                    ids[byte] = match code_page_position(c) {
                        Some(at) => at as u16,
                        None => panic!("a character of the code pages"),
                    };
                }
                byte += 1;
            }
            decodings[len] = ByteDecoding {
                encoding,
                table,
                ids,
            };
            len += 1;
        }
        position += 1;
    }
    decodings
};

/// The bytes some encoding that decodes byte by byte decodes to an
/// invisible formatting character (U+200E at 0xFD in windows-1255, ...).
/// Written down rather than found at every start (a test finds them
/// again from the encodings' tables).
const FORMAT_BYTES: [u8; 4] = [0x9D, 0x9E, 0xFD, 0xFE];

/// [`FORMAT_BYTES`] by byte.
static FORMAT_SET: [bool; 256] = byte_set(&FORMAT_BYTES);

/// The bytes some encoding that decodes byte by byte decodes to a sign no
/// word is written with ([`WORD_SIGN`]). Decoded byte by byte,
/// only such a sign between two ASCII letters is counted: what text beyond
/// ASCII makes of its letters is the language model's to judge, and
/// counting every triple around a byte beyond ASCII would cost Cyrillic
/// and Greek text a fifth of its detection time. Every byte beyond ASCII
/// is one in some code page: written down rather than found at every
/// start (a test finds them again from the encodings' tables).
const fn is_sign_byte(b: u8) -> bool {
    b >= 0x80
}

/// The set of `bytes`, by byte.
const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut set = [false; 256];
    let mut at = 0;
    while at < bytes.len() {
        set[bytes[at] as usize] = true;
        at += 1;
    }
    set
}

/// The bytes some encoding that decodes byte by byte decodes to a
/// character `wanted` holds for.
#[cfg(test)]
fn bytes_decoding_to(wanted: fn(char) -> bool) -> [bool; 256] {
    let mut bytes = [false; 256];
    // The character last asked about for each byte: most encodings decode
    // a byte as the one before them does (every ASCII byte as itself),
    // and a character asked once needs no asking again.
    let mut asked: [Option<char>; 256] = [None; 256];
    for decoding in byte_decodings() {
        for ((found, asked), &c) in bytes.iter_mut().zip(&mut asked).zip(&decoding.table) {
            // A byte found once needs no other encoding's character asked.
            if !*found && c != *asked {
                *found = c.is_some_and(wanted);
                *asked = c;
            }
        }
    }
    bytes
}

/// Evidence up to this many bytes has its byte pairs counted by sorting
/// them, not in [`PAIR_SCRATCH`].
const FEW_BYTES: usize = 4096;

thread_local! {
    /// Counts of byte pairs, kept zeroed between detections.
    static PAIR_SCRATCH: RefCell<Vec<u32>> = RefCell::new(vec![0; 256 * 256]);
}

/// The evidence seen as bytes: counts of bytes and of adjacent byte pairs
/// (within runs), shared by every encoding that decodes byte by byte,
/// and the folded ASCII pairs of the text outside markup, shared by every
/// ASCII-compatible encoding.
pub(crate) struct ByteCounts {
    pub(crate) bytes: [u64; 256],
    /// Adjacent pairs with at least one byte 0x80 or above, sorted:
    /// (left, right, count).
    pub(crate) high_pairs: Vec<(u8, u8, u32)>,
    /// The bytes that occur, in order.
    pub(crate) present: Vec<u8>,
    /// Folded ASCII pairs (boundary pairs left out) of the words without
    /// bytes beyond ASCII, sorted: (left, right, count), each a folded
    /// ASCII character.
    pub(crate) ascii_pairs: Vec<(u8, u8, u32)>,
    /// ASCII letters outside markup, in words without bytes beyond ASCII.
    pub(crate) ascii_letters: u64,
    /// The folded ASCII pairs of the words with bytes beyond ASCII (a word
    /// being a run of ASCII letters and bytes beyond ASCII, with the
    /// boundaries on either side): a text's words with characters beyond
    /// ASCII may be in another language than the others.
    pub(crate) word_pairs: Vec<(u8, u8, u32)>,
    /// ASCII letters of the words with bytes beyond ASCII.
    pub(crate) word_letters: u64,
    /// Bytes some single-byte encoding decodes to an invisible formatting
    /// character, and bytes one decodes to a sign no word is written with
    /// between two ASCII letters, with the bytes on either side: (left,
    /// middle, right, count).
    pub(crate) format_triples: Vec<(u8, u8, u8, u32)>,
    /// How many bytes the evidence holds.
    pub(crate) len: u64,
}

/// The elements whose content HTML does not show as text: it is skipped
/// like a tag.
const RAW_TEXT_ELEMENTS: [&[u8]; 2] = [b"script", b"style"];

/// Reads text in markup as word boundaries: tags (from `<` and a letter,
/// `/`, `!` or `?` to `>`) and the content of `<script>` and `<style>`.
struct Markup {
    in_tag: bool,
    /// The raw-text element being skipped, until its end tag.
    raw_text: Option<&'static [u8]>,
}

impl Markup {
    fn new() -> Self {
        Self {
            in_tag: false,
            raw_text: None,
        }
    }

    /// Whether the byte at `position` of `run` is markup.
    fn is_markup(&mut self, run: &[u8], position: usize) -> bool {
        let b = run[position];
        if let Some(name) = self.raw_text {
            if b == b'<' && ends_raw_text(&run[position + 1..], name) {
                self.raw_text = None;
                self.in_tag = true;
            }
            return true;
        }
        if self.in_tag {
            self.in_tag = b != b'>';
            return true;
        }
        if b == b'<'
            && run.get(position + 1).is_some_and(|&next| {
                next.is_ascii_alphabetic() || matches!(next, b'/' | b'!' | b'?')
            })
        {
            self.in_tag = true;
            let name = &run[position + 1..];
            self.raw_text = RAW_TEXT_ELEMENTS
                .into_iter()
                .find(|element| starts_tag(name, element));
            return true;
        }
        false
    }
}

/// Whether `rest` (after a `<`) starts the end tag of `name`.
fn ends_raw_text(rest: &[u8], name: &[u8]) -> bool {
    rest.first() == Some(&b'/') && starts_tag(&rest[1..], name)
}

/// Whether `rest` starts with the tag name `name` (ASCII case-insensitive),
/// followed by something that ends a tag name.
fn starts_tag(rest: &[u8], name: &[u8]) -> bool {
    rest.len() > name.len()
        && rest[..name.len()].eq_ignore_ascii_case(name)
        && matches!(
            rest[name.len()],
            b'>' | b'/' | b' ' | b'\t' | b'\n' | b'\r' | 0x0C
        )
}

/// The folded forms of ASCII bytes: for each byte, the position of its
/// folded form among the distinct folded forms, and those forms.
struct AsciiFolds {
    position: [u8; 128],
    forms: Vec<u8>,
}

fn ascii_folds() -> &'static AsciiFolds {
    static FOLDS: OnceLock<AsciiFolds> = OnceLock::new();
    FOLDS.get_or_init(|| {
        let mut forms: Vec<u8> = Vec::new();
        let position = std::array::from_fn(|b| {
            let folded = language::fold(char::from(b as u8)) as u8;
            let at = forms.iter().position(|&f| f == folded).unwrap_or_else(|| {
                forms.push(folded);
                forms.len() - 1
            });
            at as u8
        });
        AsciiFolds { position, forms }
    })
}

/// Counts the folded ASCII pairs of text, with markup read as word
/// boundaries (the tags of a page are no words of its language), apart for
/// the words without bytes beyond ASCII and for those with (a word being a
/// run of ASCII letters and bytes beyond ASCII).
struct AsciiWords {
    folds: &'static AsciiFolds,
    /// Counts of pairs of folded forms (by position in `folds.forms`): of
    /// the words without bytes beyond ASCII, and of those with.
    pairs: [Vec<u32>; 2],
    /// ASCII letters in each.
    letters: [u64; 2],
}

impl AsciiWords {
    fn new() -> Self {
        let folds = ascii_folds();
        let forms = folds.forms.len();
        Self {
            folds,
            pairs: [vec![0; forms * forms], vec![0; forms * forms]],
            letters: [0; 2],
        }
    }

    fn count(&mut self, run: &[u8]) {
        let folds = self.folds;
        let forms = folds.forms.len();
        let space = folds.position[usize::from(b' ')];
        // Folded ASCII as positions in `forms`, bytes beyond ASCII as 0x80.
        let mut previous = space;
        let mut markup = Markup::new();
        let mut word: Vec<u16> = Vec::new();
        let mut letters = 0u64;
        let mut high = false;
        for (position, &b) in run.iter().enumerate() {
            let shown = if markup.is_markup(run, position) {
                space
            } else if b < 0x80 {
                folds.position[usize::from(b)]
            } else {
                0x80
            };
            if shown < 0x80 && previous < 0x80 && !(shown == space && previous == space) {
                word.push(u16::from(previous) * forms as u16 + u16::from(shown));
            }
            if shown >= 0x80 {
                high = true;
            } else if folds.forms[usize::from(shown)].is_ascii_alphabetic() {
                letters += 1;
            } else {
                self.flush(&mut word, &mut letters, &mut high);
            }
            previous = shown;
        }
        self.flush(&mut word, &mut letters, &mut high);
    }

    /// Counts the pairs and letters of a word that has ended.
    fn flush(&mut self, word: &mut Vec<u16>, letters: &mut u64, high: &mut bool) {
        let side = usize::from(*high);
        for &index in word.iter() {
            let slot = &mut self.pairs[side][usize::from(index)];
            *slot = slot.saturating_add(1);
        }
        self.letters[side] += *letters;
        word.clear();
        *letters = 0;
        *high = false;
    }

    /// The pairs counted, as (left, right, count) of folded characters,
    /// sorted: of the words with bytes beyond ASCII if `high`.
    fn listed(&self, high: bool) -> Vec<(u8, u8, u32)> {
        let forms = self.folds.forms.len();
        let mut listed: Vec<(u8, u8, u32)> = self.pairs[usize::from(high)]
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(index, &n)| {
                (
                    self.folds.forms[index / forms],
                    self.folds.forms[index % forms],
                    n,
                )
            })
            .collect();
        listed.sort_unstable();
        listed
    }
}

impl ByteCounts {
    pub(crate) fn new(bytes: &[u8], runs: &[Range<usize>]) -> Self {
        // Few bytes (a glance) list their pairs and sort them: the table of
        // every pair would be touched in dozens of pages for them (and made
        // for them, a quarter of a MiB, in a process that detects once).
        let few = runs.iter().map(ExactSizeIterator::len).sum::<usize>() <= FEW_BYTES;
        if few {
            Self::count(bytes, runs, None)
        } else {
            PAIR_SCRATCH.with_borrow_mut(|pair_counts| {
                Self::count(bytes, runs, Some(pair_counts.as_mut_slice()))
            })
        }
    }

    /// [`ByteCounts::new`], counting the byte pairs in `pair_counts` (kept
    /// zeroed), or by sorting them if there is none.
    fn count(bytes: &[u8], runs: &[Range<usize>], mut pair_counts: Option<&mut [u32]>) -> Self {
        let mut counts = [0u64; 256];
        let mut words = AsciiWords::new();
        let formats = &FORMAT_SET;
        let mut triples: FastMap<u32, u32> = FastMap::default();
        let mut touched: Vec<u16> = Vec::new();
        let mut len = 0u64;
        for run in runs {
            let run = &bytes[run.clone()];
            len += run.len() as u64;
            for triple in run.windows(3) {
                let [left, middle, right] = [triple[0], triple[1], triple[2]];
                if formats[usize::from(middle)]
                    || (is_sign_byte(middle)
                        && left.is_ascii_alphabetic()
                        && right.is_ascii_alphabetic())
                {
                    let key = u32::from(left) << 16 | u32::from(middle) << 8 | u32::from(right);
                    let n = triples.entry(key).or_default();
                    *n = n.saturating_add(1);
                }
            }
            for &b in run {
                counts[usize::from(b)] += 1;
            }
            for pair in run.windows(2) {
                if (pair[0] | pair[1]) >= 0x80 {
                    let key = u16::from(pair[0]) << 8 | u16::from(pair[1]);
                    let Some(pair_counts) = pair_counts.as_deref_mut() else {
                        touched.push(key);
                        continue;
                    };
                    let slot = &mut pair_counts[usize::from(key)];
                    if *slot == 0 {
                        touched.push(key);
                    }
                    *slot = slot.saturating_add(1);
                }
            }
            words.count(run);
        }
        touched.sort_unstable();
        let high_pairs = match pair_counts {
            None => {
                // Every pair as it came, sorted: runs of one key.
                touched
                    .chunk_by(|a, b| a == b)
                    .map(|same| {
                        let n = u32::try_from(same.len()).unwrap_or(u32::MAX);
                        ((same[0] >> 8) as u8, same[0] as u8, n)
                    })
                    .collect()
            }
            Some(pair_counts) => touched
                .iter()
                .map(|&key| {
                    let slot = &mut pair_counts[usize::from(key)];
                    let n = std::mem::take(slot);
                    ((key >> 8) as u8, key as u8, n)
                })
                .collect(),
        };
        let mut format_triples: Vec<(u8, u8, u8, u32)> = triples
            .into_iter()
            .map(|(key, n)| ((key >> 16) as u8, (key >> 8) as u8, key as u8, n))
            .collect();
        format_triples.sort_unstable();
        let present = (0..=255u8)
            .filter(|&b| counts[usize::from(b)] > 0)
            .collect();
        Self {
            bytes: counts,
            high_pairs,
            present,
            ascii_pairs: words.listed(false),
            ascii_letters: words.letters[0],
            word_pairs: words.listed(true),
            word_letters: words.letters[1],
            format_triples,
            len,
        }
    }

    /// Whether every byte of the evidence is ASCII.
    pub(crate) fn is_ascii(&self) -> bool {
        self.present.last().is_none_or(|&b| b < 0x80)
    }

    /// An identity of the text `decoding` reads the evidence as, among
    /// decodes byte by byte: two of them read the same text exactly when
    /// they decode every byte that occurs alike.
    pub(crate) fn signature(&self, decoding: &ByteDecoding) -> u64 {
        let mut hash = HASH_START;
        for &b in &self.present {
            let value = decoding.table[usize::from(b)].map_or(ERROR_MARK, u32::from);
            hash = hash_step(hash_step(hash, u32::from(b)), value);
        }
        hash
    }

    /// The hash of the text `decoding` reads the evidence as, the same as
    /// [`decode_stats`] would give it.
    pub(crate) fn sequence_hash(
        decoding: &ByteDecoding,
        bytes: &[u8],
        runs: &[Range<usize>],
    ) -> u64 {
        let mut hash = HASH_START;
        for (position, run) in runs.iter().enumerate() {
            if position > 0 {
                hash = hash_step(hash, GAP_MARK);
            }
            for &b in &bytes[run.clone()] {
                let value = decoding.table[usize::from(b)].map_or(ERROR_MARK, u32::from);
                hash = hash_step(hash, value);
            }
        }
        hash
    }

    /// The stats of decoding the evidence byte by byte with `decoding`. Its
    /// pairs are left empty: the scorer scores the byte pairs directly, and
    /// its hash is left for [`ByteCounts::sequence_hash`].
    pub(crate) fn stats(
        &self,
        decoding: &ByteDecoding,
        ids: &[u32; 256],
        chars: &Chars,
        bytes: &[u8],
        runs: &[Range<usize>],
    ) -> TextStats {
        let mut stats = TextStats::default();
        let infos: [&CharInfo; 256] = std::array::from_fn(|b| chars.info(ids[b]));
        let table = &decoding.table;
        // Which bytes decode to a lowercase letter, an uppercase one, and
        // whether any decodes to a digit of a script.
        let mut lower = [false; 256];
        let mut upper = [false; 256];
        let mut digits = false;
        for &b in &self.present {
            let b = usize::from(b);
            if table[b].is_some() {
                lower[b] = infos[b].is(LOWERCASE);
                upper[b] = infos[b].is(UPPERCASE);
                digits = digits || infos[b].digit.is_some();
            }
        }
        for &(left, right, n) in &self.high_pairs {
            let (left, right) = (usize::from(left), usize::from(right));
            if lower[left] && upper[right] {
                stats.case_breaks += u64::from(n);
            }
            if digits
                && table[left].is_some()
                && table[right].is_some()
                && digit_beside_letter(infos[left], infos[right])
            {
                stats.digits_in_words += u64::from(n);
            }
        }
        for &(left, middle, right, n) in &self.format_triples {
            let [l, m, r] = [left, middle, right].map(usize::from);
            if table[l].is_some()
                && table[m].is_some()
                && table[r].is_some()
                && format_in_word(infos[l], infos[m], infos[r])
            {
                stats.formats_in_words += u64::from(n);
            }
            if table[l].is_some()
                && table[m].is_some()
                && table[r].is_some()
                && sign_in_word(infos[l], infos[m], infos[r])
            {
                stats.signs_in_words += u64::from(n);
            }
        }
        for &b in &self.present {
            let n = self.bytes[usize::from(b)];
            match table[usize::from(b)] {
                Some(c) => {
                    stats.chars += n;
                    if !c.is_ascii() {
                        stats.non_ascii += n;
                    }
                    stats.note_char(infos[usize::from(b)], n);
                }
                None => stats.add_error(
                    DecodeErrorKind::UnassignedPointer {
                        pointer: u32::from(b) - 0x80,
                    },
                    n,
                ),
            }
        }
        if !stats.errors.is_empty() {
            stats.first_error = runs.iter().find_map(|run| {
                bytes[run.clone()]
                    .iter()
                    .position(|&b| table[usize::from(b)].is_none())
                    .map(|offset| (run.start + offset) as u64)
            });
        }
        stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes written down as decoding to an invisible formatting
    /// character or a word-breaking sign in some code page are those the
    /// code pages' tables give.
    #[test]
    fn format_and_sign_bytes_are_the_tables() {
        let listed = |set: [bool; 256]| -> Vec<u8> {
            (0..=255u8).filter(|&b| set[usize::from(b)]).collect()
        };
        let formats = listed(bytes_decoding_to(language::is_invisible_format));
        assert_eq!(
            FORMAT_BYTES.to_vec(),
            formats,
            "FORMAT_BYTES: {formats:#04X?}"
        );
        let signs = listed(bytes_decoding_to(is_word_breaking_sign));
        let written: Vec<u8> = (0..=255u8).filter(|&b| is_sign_byte(b)).collect();
        assert_eq!(written, signs, "sign bytes: {signs:#04X?}");
    }

    #[test]
    fn markup_and_scripts_are_boundaries() {
        let page = b"<p>word</p><script>var x = 'hidden';</script>seen<style>p{}</style>end";
        let whole = 0..page.len();
        let counts = ByteCounts::new(page, std::slice::from_ref(&whole));
        let letters: Vec<(char, char)> = counts
            .ascii_pairs
            .iter()
            .chain(&counts.word_pairs)
            .map(|&(l, r, _)| (char::from(l), char::from(r)))
            .collect();
        assert!(letters.contains(&('w', 'o')));
        assert!(letters.contains(&('s', 'e')));
        assert!(letters.contains(&('e', 'n')));
        assert!(!letters.contains(&('h', 'i')), "script content is skipped");
        assert!(!letters.contains(&('v', 'a')));
        assert_eq!(counts.ascii_letters, "wordseenend".len() as u64);
    }

    #[test]
    fn ideographs_and_syllables_are_letters_without_case() {
        for c in ('\u{4E00}'..='\u{9FFF}').chain('\u{AC00}'..='\u{D7A3}') {
            assert!(is_ideograph_or_syllable(c));
            assert!(
                c.is_alphabetic() && !c.is_uppercase() && !c.is_lowercase(),
                "{c}"
            );
        }
        for c in ('\u{3041}'..='\u{3096}').chain('\u{30A1}'..='\u{30FA}') {
            assert!(is_ideograph_or_syllable(c));
            assert!(
                c.is_alphabetic() && !c.is_uppercase() && !c.is_lowercase(),
                "{c}"
            );
        }
        assert!(!is_ideograph_or_syllable('\u{3099}'));
        assert!(!is_ideograph_or_syllable('\u{30FC}'));
        assert!(!is_ideograph_or_syllable('A'));
    }

    /// The facts of every letter of a kind [`block_kind`] tells apart
    /// are those the general lookups give it.
    #[test]
    fn letters_of_a_kind_have_the_same_facts() {
        let blocks = ('\u{4E00}'..='\u{9FFF}')
            .chain('\u{AC00}'..='\u{D7A3}')
            .chain('\u{3041}'..='\u{3096}')
            .chain('\u{30A1}'..='\u{30FA}');
        let mut kinds = [0; BLOCK_KINDS];
        for c in blocks {
            let kind = block_kind(c).expect("a letter of the blocks");
            kinds[kind] += 1;
            assert_eq!(
                CharInfo::of(c),
                CharInfo::worked_out(c),
                "U+{:04X}",
                u32::from(c)
            );
        }
        assert!(kinds.iter().all(|&n| n > 80), "{kinds:?}");
        for c in [
            '\u{3099}', '\u{30FB}', '\u{30FC}', '\u{3400}', '\u{D7A4}', 'A', 'é',
        ] {
            assert_eq!(block_kind(c), None);
        }
    }

    /// The signs no word is written with are told at once from what is
    /// known of a character, for every character.
    #[test]
    fn word_breaking_signs_are_known_of_every_character() {
        let mut signs = 0;
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            let sign = is_word_breaking_sign(c);
            assert_eq!(
                CharInfo::of(c).is(WORD_SIGN),
                sign,
                "U+{:04X}",
                u32::from(c)
            );
            signs += u32::from(sign);
        }
        assert!(signs > 1000, "{signs}");
        assert!(is_word_breaking_sign('\u{B7}') && !is_word_breaking_sign('\u{2019}'));
    }

    #[test]
    fn plain_letters_are_letters() {
        let mut letters = 0;
        for c in '\u{80}'..='\u{FFF}' {
            if is_plain_letter(c) {
                assert!(c.is_alphabetic(), "U+{:04X}", u32::from(c));
                letters += 1;
            }
        }
        assert!(letters > 600);
        assert!(!is_plain_letter('\u{D7}'));
        assert!(!is_plain_letter('\u{387}'));
        assert!(!is_plain_letter('\u{482}'));
    }

    /// What `code_page_chars.rs` holds: [`CharInfo::worked_out`] of every
    /// character an encoding that decodes byte by byte has, by code point.
    fn code_page_chars_source() -> String {
        use std::fmt::Write as _;
        let mut chars: Vec<char> = byte_decodings()
            .iter()
            .flat_map(|decoding| decoding.table.iter().flatten().copied())
            .collect();
        chars.sort_unstable();
        chars.dedup();
        let position = |script: Option<Script>| {
            script.map_or(NO_SCRIPT, |script| {
                let at = Script::ALL.iter().position(|&s| s == script);
                u8::try_from(at.expect("a script of the list")).expect("few scripts")
            })
        };
        let mut source = String::from(
            "// @generated from `CharInfo::worked_out` of every character the encodings\n\
             // that decode byte by byte have. Do not edit: regenerate instead, with\n\
             // MOJISCOPE_WRITE_TABLES=1 cargo test -p mojiscope-core --lib code_page_chars\n\
             \n\
             use super::{CharInfo, listed};\n\
             \n",
        );
        // One character a line, as written.
        source.push_str("#[rustfmt::skip]\n");
        let _ = writeln!(
            source,
            "pub(in crate::detect) static CHARS: [CharInfo; {}] = [",
            chars.len()
        );
        for c in chars {
            // No character of a kind: those have their facts from the first
            // of the kind asked.
            assert_eq!(block_kind(c), None, "{c}");
            let info = CharInfo::worked_out(c);
            let _ = writeln!(
                source,
                "    listed('\\u{{{:04X}}}', '\\u{{{:04X}}}', {}, {}, {}, {:?}, {}),",
                u32::from(info.c),
                u32::from(info.folded),
                position(info.script),
                position(info.digit),
                info.share,
                info.classes,
                info.flags,
            );
        }
        source.push_str("];\n");
        source
    }

    #[test]
    fn code_page_chars_are_worked_out_from_the_byte_decodings() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src")
            .join("detect")
            .join("text")
            .join("code_page_chars.rs");
        let source = code_page_chars_source();
        if std::env::var_os("MOJISCOPE_WRITE_TABLES").is_some() {
            std::fs::write(&path, &source).expect("the table is written");
        }
        let written = std::fs::read_to_string(&path).expect("the table is there");
        assert!(
            written == source,
            "{} is not what the byte decodings and CharInfo::worked_out give: \
             regenerate it with MOJISCOPE_WRITE_TABLES=1 cargo test -p mojiscope-core \
             --lib code_page_chars",
            path.display()
        );
        for info in &code_page_chars::CHARS {
            assert_eq!(CharInfo::of(info.c), CharInfo::worked_out(info.c));
        }
    }

    #[test]
    fn byte_tables_match_the_decoders() {
        let encodings: Vec<&Encoding> = byte_decodings().iter().map(|d| d.encoding).collect();
        let expected: Vec<&Encoding> = ALL
            .iter()
            .copied()
            .filter(|e| e.is_single_byte() || *e == X_USER_DEFINED)
            .collect();
        assert_eq!(encodings, expected);
        for decoding in byte_decodings() {
            for byte in 0..=255u8 {
                let decoded = decoding
                    .encoding
                    .decode_with_bom_handling(&[byte], BomHandling::None);
                let expected = (!decoded.had_errors)
                    .then(|| decoded.text.chars().next())
                    .flatten();
                assert_eq!(decoding.table[usize::from(byte)], expected);
                // Its index in every detection's characters is its own.
                if let Some(c) = expected {
                    let id = decoding.ids_of(&[byte])[usize::from(byte)];
                    assert_eq!(Chars::new().info(id).c, c);
                }
            }
        }
    }
}
