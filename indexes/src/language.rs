//! Character statistics of the languages the legacy encodings serve, for
//! encoding detection: which characters a language writes and how often one
//! follows another.
//!
//! Each [`Language`] is a smoothed character-bigram model over *symbols*. A
//! decoded character is first [folded](fold): ASCII letters and every other
//! letter with a one-character lowercase go to lowercase, every ASCII
//! character that is not a letter becomes a space (the word boundary), and a
//! few characters that legacy files write differently become one
//! (Romanian ş and ș, Persian ی and Arabic ي, ...). A folded character the
//! language's training text used often enough is an explicit symbol;
//! every other one stands for its [`CharClass`], whose probability is shared
//! by its members ([`class_size`]).
//!
//! Costs are negative natural logarithms of probabilities in units of
//! 1/[`COST_SCALE`] nat, so that a text's cost is a sum. The tables are
//! generated from the text in `indexes/languages/` (see
//! `indexes/languages/SOURCES.md`) by
//! `cargo run -p mojiscope-indexes --bin generate-language-tables`.
//!
//! ```
//! use mojiscope_indexes::language::{self, LANGUAGES};
//!
//! let russian = language::for_tag("ru").unwrap();
//! assert_eq!(russian.name, "Russian");
//! // "о" then "т" is a likely pair in Russian, "ъ" then "ы" is not.
//! assert!(russian.pair_cost('о', 'т') < russian.pair_cost('ъ', 'ы'));
//! assert_eq!(LANGUAGES.len(), 60);
//! ```

use crate::generated::{big5::BIG5, euc_kr::EUC_KR, gb18030::GB18030, jis0208::JIS0208};
use crate::{big5, euc_kr, gb18030, jis0208};

#[rustfmt::skip]
mod tables;

pub use tables::LANGUAGES;

/// Costs are stored in units of 1/`COST_SCALE` nat.
pub const COST_SCALE: f64 = 8.0;

/// The writing system a language is written in, or a character belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Script {
    /// Latin letters (ASCII and beyond) and combining diacritics.
    Latin,
    /// Greek.
    Greek,
    /// Cyrillic.
    Cyrillic,
    /// Hebrew.
    Hebrew,
    /// Arabic (also Persian).
    Arabic,
    /// Thai.
    Thai,
    /// Japanese: kana and Han ideographs.
    Japanese,
    /// Chinese: Han ideographs.
    Chinese,
    /// Korean: Hangul (and Han ideographs).
    Korean,
}

impl Script {
    /// Every script, in declaration order: `script as usize` is its
    /// position.
    pub const ALL: [Script; 9] = [
        Script::Latin,
        Script::Greek,
        Script::Cyrillic,
        Script::Hebrew,
        Script::Arabic,
        Script::Thai,
        Script::Japanese,
        Script::Chinese,
        Script::Korean,
    ];
}

/// What a folded character that is not one of a language's explicit symbols
/// counts as. The classes follow the explicit symbols in a [`Language`]'s
/// tables, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CharClass {
    /// A letter of the language's own script, among the common ones (for Han
    /// and Hangul: in the first level of the national standard sets).
    OwnLetter,
    /// A rare letter of the language's own script (the other Han ideographs
    /// and Hangul syllables).
    OwnRareLetter,
    /// A letter of another script.
    OtherLetter,
    /// Punctuation and spaces that text uses (dashes, quotation marks, the
    /// no-break space, CJK punctuation, fullwidth forms).
    Punctuation,
    /// Any other symbol: box drawing, mathematical signs, currency, ...
    Symbol,
    /// What text does not contain: control characters (but TAB, LF, FF and
    /// CR), private-use characters and noncharacters.
    Implausible,
}

impl CharClass {
    /// Every class, in table order.
    pub const ALL: [CharClass; 6] = [
        CharClass::OwnLetter,
        CharClass::OwnRareLetter,
        CharClass::OtherLetter,
        CharClass::Punctuation,
        CharClass::Symbol,
        CharClass::Implausible,
    ];

    /// The class's position in [`CharClass::ALL`].
    pub const fn position(self) -> usize {
        self as usize
    }
}

/// One language's statistics. The symbol index of an explicit symbol is its
/// position in `symbols`; class `k` has index `symbols.len() + k`.
#[derive(Debug)]
pub struct Language {
    /// BCP 47 tag, e.g. "ru", "zh-Hant".
    pub tag: &'static str,
    /// English name, e.g. "Russian".
    pub name: &'static str,
    /// The script the language is written in.
    pub script: Script,
    /// The encodings that can write the language, as bits over the positions
    /// of [`ENCODINGS`](crate::ENCODINGS).
    pub encodings: u64,
    /// What one of its letters costs on average, in units of
    /// 1/[`COST_SCALE`] nat (the entropy of its letters alone): about 3
    /// nats in an alphabet, about 6 to 7 in Chinese, Japanese and Korean.
    pub letter_cost: u8,
    /// The explicit symbols (folded characters), sorted by code point.
    pub symbols: &'static [u32],
    /// The cost of each symbol, then of each class: −ln P(symbol).
    pub unigram: &'static [u8],
    /// The cost of backing off from each symbol (then each class) as the
    /// left-hand side of a pair that has no entry in `pairs`.
    pub backoff: &'static [u8],
    /// Where the pairs with a cost of their own that start with each symbol
    /// (then each class) start in `pairs`; one entry more ends the last.
    pub pair_rows: &'static [u16],
    /// The right-hand symbol of each pair with a cost of their own, by
    /// left-hand symbol (see `pair_rows`), each row sorted.
    pub pairs: &'static [u16],
    /// The cost of each pair in `pairs`: −ln P(right | left).
    pub pair_costs: &'static [u8],
}

impl Language {
    /// The symbol index of a folded character.
    pub fn symbol(&self, folded: char) -> usize {
        match self.symbols.binary_search(&u32::from(folded)) {
            Ok(position) => position,
            Err(_) => self.symbols.len() + class_of(folded, self.script).position(),
        }
    }

    /// Whether the language can be written in the encoding at `position` in
    /// [`ENCODINGS`](crate::ENCODINGS).
    pub fn is_written_in(&self, position: usize) -> bool {
        position < 64 && self.encodings & (1 << position) != 0
    }

    /// The cost, in units of 1/[`COST_SCALE`] nat, of symbol `right` after
    /// symbol `left`, leaving out the share of a class among its members.
    #[inline]
    pub fn symbol_pair_cost(&self, left: usize, right: usize) -> u32 {
        let start = usize::from(self.pair_rows[left]);
        let end = usize::from(self.pair_rows[left + 1]);
        match self.pairs[start..end].binary_search(&(right as u16)) {
            Ok(position) => u32::from(self.pair_costs[start + position]),
            Err(_) => u32::from(self.backoff[left]) + u32::from(self.unigram[right]),
        }
    }

    /// The cost of `text` in this language, in units of 1/[`COST_SCALE`]
    /// nat: each pair of its folded characters, with a word boundary
    /// before and after.
    pub fn text_cost(&self, text: &str) -> u64 {
        let mut total = 0;
        let mut left = ' ';
        for right in text.chars().map(fold).chain(std::iter::once(' ')) {
            total += u64::from(self.pair_cost(left, right));
            left = right;
        }
        total
    }

    /// The cost of folded character `right` after folded character `left`
    /// (a class member's share of its class included), in units of
    /// 1/[`COST_SCALE`] nat.
    pub fn pair_cost(&self, left: char, right: char) -> u32 {
        let right_symbol = self.symbol(right);
        let share = if right_symbol >= self.symbols.len() {
            member_cost(right, self.script)
        } else {
            0
        };
        self.symbol_pair_cost(self.symbol(left), right_symbol)
            + share
            + script_change_cost(script_of(left), script_of(right))
    }
}

/// The language with BCP 47 tag `tag` ("ru", "zh-Hans"), if there are
/// statistics for it.
pub fn for_tag(tag: &str) -> Option<&'static Language> {
    LANGUAGES.iter().find(|language| language.tag == tag)
}

/// Folds a character for the language models: ASCII letters to lowercase,
/// other ASCII and the digits of other scripts to a space, other letters to
/// their lowercase when that is one character, and the characters legacy
/// files write in another form to one of them.
pub fn fold(c: char) -> char {
    if c.is_ascii() {
        return if c.is_ascii_alphabetic() {
            c.to_ascii_lowercase()
        } else if is_implausible(c) {
            c
        } else {
            ' '
        };
    }
    if digit_script(c).is_some() || matches!(c, '\u{FF10}'..='\u{FF19}') {
        // The digits of other scripts (Arabic-Indic, Persian, Thai,
        // fullwidth) are numbers like ASCII digits: no letters of words.
        return ' ';
    }
    let c = match c {
        // Romanian and Turkish: cedilla and comma below are one letter.
        'ş' | 'Ş' | 'Ș' => 'ș',
        'ţ' | 'Ţ' | 'Ț' => 'ț',
        // Persian yeh and keheh, which Arabic code pages write as Arabic
        // yeh and kaf.
        'ی' => 'ي',
        'ک' => 'ك',
        // Azerbaijani schwa, which no legacy code page writes: files in the
        // Turkish code page write it as ä (as the Latin alphabet of 1991
        // did).
        'ə' | 'Ə' => 'ä',
        'İ' => 'i',
        _ => c,
    };
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(folded), None) => folded,
        _ => c,
    }
}

/// The script whose own decimal digits `c` is one of: the Arabic-Indic and
/// Persian digits are Arabic, the Thai digits Thai. A letter of another
/// script right beside one is unlikely (a Latin "ñ" read as the Thai digit
/// one in "Espa\u{E51}ol").
pub fn digit_script(c: char) -> Option<Script> {
    match c {
        '\u{0660}'..='\u{0669}' | '\u{06F0}'..='\u{06F9}' => Some(Script::Arabic),
        '\u{0E50}'..='\u{0E59}' => Some(Script::Thai),
        _ => None,
    }
}

/// The other form of a character that legacy files use for it, if any
/// (Romanian ș and ş; Persian ی and Arabic ي; Azerbaijani ə and ä).
pub fn legacy_twin(c: char) -> Option<char> {
    Some(match c {
        'ș' => 'ş',
        'Ș' => 'Ş',
        'ț' => 'ţ',
        'Ț' => 'Ţ',
        'ş' => 'ș',
        'Ş' => 'Ș',
        'ţ' => 'ț',
        'Ţ' => 'Ț',
        'ی' => 'ي',
        'ک' => 'ك',
        'ə' => 'ä',
        'Ə' => 'Ä',
        _ => return None,
    })
}

/// Whether real text never contains `c`: C0 controls other than TAB, LF, FF
/// and CR, DEL, C1 controls, private-use characters and noncharacters.
pub fn is_implausible(c: char) -> bool {
    let code_point = u32::from(c);
    matches!(code_point, 0x00..=0x08 | 0x0B | 0x0E..=0x1F | 0x7F..=0x9F)
        || (0xE000..=0xF8FF).contains(&code_point)
        || code_point >= 0xF_0000
        || (0xFDD0..=0xFDEF).contains(&code_point)
        || code_point & 0xFFFE == 0xFFFE
}

/// Whether `c` is an invisible formatting character that text puts between
/// runs (direction marks and embeddings, zero-width joiners and spaces, a
/// byte order mark inside text), but never between two letters of a word,
/// except that Persian and the scripts of India join or part letters with
/// U+200C and U+200D. The soft hyphen is not one: it belongs inside words.
pub fn is_invisible_format(c: char) -> bool {
    matches!(u32::from(c),
        0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x2069 | 0x061C | 0xFEFF)
}

/// Whether an invisible formatting character `format` may stand between
/// letters `left` and `right`: only the zero-width joiner and non-joiner,
/// and only between letters of the Arabic script (Persian writes them
/// inside words).
pub fn format_may_join(left: char, format: char, right: char) -> bool {
    matches!(format, '\u{200C}' | '\u{200D}')
        && script_of(left) == Some(Script::Arabic)
        && script_of(right) == Some(Script::Arabic)
}

/// The script of a letter, or `None` for a character that is not a letter
/// of one of the scripts of [`Script`].
pub fn script_of(c: char) -> Option<Script> {
    let code_point = u32::from(c);
    Some(match code_point {
        0xC0..=0x24F if code_point != 0xD7 && code_point != 0xF7 => Script::Latin,
        0x41..=0x5A | 0x61..=0x7A | 0xAA | 0xBA | 0x300..=0x36F | 0x1E00..=0x1EFF => Script::Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
        0x400..=0x52F => Script::Cyrillic,
        0x591..=0x5F4 | 0xFB1D..=0xFB4F => Script::Hebrew,
        0x600..=0x6FF | 0x750..=0x77F | 0xFB50..=0xFDFF | 0xFE70..=0xFEFC => Script::Arabic,
        0xE00..=0xE7F => Script::Thai,
        0x3040..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F => Script::Japanese,
        0x1100..=0x11FF | 0x3130..=0x318F | 0xAC00..=0xD7A3 => Script::Korean,
        0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x2_0000..=0x3_FFFF => {
            Script::Chinese
        }
        _ => return None,
    })
}

/// The cost of letters of two scripts side by side, in units of
/// 1/[`COST_SCALE`] nat: words do not change script in the middle (but
/// Japanese and Korean mix Han ideographs with kana and Hangul).
pub const SCRIPT_CHANGE_COST: u32 = 80;

/// [`SCRIPT_CHANGE_COST`] if `left` and `right` are letters of scripts that
/// do not mix within a word, else 0.
pub fn script_change_cost(left: Option<Script>, right: Option<Script>) -> u32 {
    let (Some(left), Some(right)) = (left, right) else {
        return 0;
    };
    let mixes = left == right
        || matches!(
            (left, right),
            (Script::Chinese, Script::Japanese | Script::Korean)
                | (Script::Japanese | Script::Korean, Script::Chinese)
        );
    if mixes { 0 } else { SCRIPT_CHANGE_COST }
}

/// Whether a Han ideograph is in the first (most common) level of GB 2312,
/// Big5 or JIS X 0208, or a Hangul syllable among the 2,350 of KS X 1001.
/// Those of the main blocks (U+4E00 to U+9FFF, and every Hangul syllable)
/// are read from a table of bits laid out when compiling: the
/// decodes of Chinese, Japanese and Korean text ask it of each character,
/// and the four indexes' reverse tables it is drawn from are 512 KiB.
pub fn is_common_ideograph_or_syllable(c: char) -> bool {
    match common_bit(u32::from(c)) {
        Some(bit) => COMMON[bit / 64] >> (bit % 64) & 1 == 1,
        None => common_by_pointers(c),
    }
}

/// [`is_common_ideograph_or_syllable`] from the indexes' pointers.
fn common_by_pointers(c: char) -> bool {
    if ('\u{AC00}'..='\u{D7A3}').contains(&c) {
        // KS X 1001 Hangul: leading bytes 0xB0..=0xC8, trailing 0xA1..=0xFE.
        return euc_kr::pointer(c).is_some_and(|p| euc_kr_common(p as usize));
    }
    gb18030::pointer(c).is_some_and(|p| gb2312_common(p as usize))
        || big5::big5_pointer(c).is_some_and(|p| big5_common(p as usize))
        || jis0208::pointer(c).is_some_and(|p| jis_common(p as usize))
}

/// GB 2312 level 1: leading bytes 0xB0..=0xD7, trailing 0xA1..=0xFE.
const fn gb2312_common(pointer: usize) -> bool {
    pointer / 190 >= 47 && pointer / 190 <= 86 && pointer % 190 >= 96
}

/// Big5 level 1: 0xA440..=0xC67E.
const fn big5_common(pointer: usize) -> bool {
    pointer >= 35 * 157 && pointer < 69 * 157 + 63
}

/// JIS X 0208 level 1: rows 16..=47.
const fn jis_common(pointer: usize) -> bool {
    pointer / 94 >= 15 && pointer / 94 <= 46
}

/// KS X 1001 Hangul: leading bytes 0xB0..=0xC8, trailing 0xA1..=0xFE.
const fn euc_kr_common(pointer: usize) -> bool {
    pointer / 190 >= 47 && pointer / 190 <= 71 && pointer % 190 >= 96
}

/// The main block of Han ideographs, and the Hangul syllables, in
/// [`COMMON`]'s bits: the ideographs first.
const HAN: std::ops::RangeInclusive<u32> = 0x4E00..=0x9FFF;
const HANGUL: std::ops::RangeInclusive<u32> = 0xAC00..=0xD7A3;
const HAN_LEN: usize = (*HAN.end() - *HAN.start() + 1) as usize;
const COMMON_BITS: usize = HAN_LEN + (*HANGUL.end() - *HANGUL.start() + 1) as usize;
const COMMON_WORDS: usize = COMMON_BITS.div_ceil(64);

/// The bit of code point `code_point` in [`COMMON`], if it has one.
const fn common_bit(code_point: u32) -> Option<usize> {
    if code_point >= *HAN.start() && code_point <= *HAN.end() {
        Some((code_point - *HAN.start()) as usize)
    } else if code_point >= *HANGUL.start() && code_point <= *HANGUL.end() {
        Some(HAN_LEN + (code_point - *HANGUL.start()) as usize)
    } else {
        None
    }
}

/// [`is_common_ideograph_or_syllable`] of each code point with a
/// [`common_bit`].
static COMMON: [u64; COMMON_WORDS] = common_table(&GB18030, &BIG5, &JIS0208, &EUC_KR);

/// [`COMMON`] from the forward indexes, a pointer's code point marked when
/// the pointer is the one "index pointer" gives it: the first (for Big5,
/// the first from the first encoded pointer on, and the last for the code
/// points the standard names).
const fn common_table(
    gb: &[u16],
    big5: &[u32],
    jis: &[u16],
    euc_kr: &[u16],
) -> [u64; COMMON_WORDS] {
    let mut common = [0u64; COMMON_WORDS];
    mark_first_pointers(&mut common, gb, Level::Gb2312);
    mark_first_pointers(&mut common, jis, Level::Jis);
    mark_first_pointers(&mut common, euc_kr, Level::KsHangul);
    // Big5: from its first encoded pointer on, and the code points whose
    // last pointer counts walked backwards.
    let mut seen = [0u64; COMMON_WORDS];
    let mut pointer = big5::FIRST_ENCODED_POINTER as usize;
    while pointer < big5.len() {
        let code_point = big5[pointer];
        let last = is_last_pointer_code_point(code_point);
        let is_common = big5_common(pointer) && is_han(code_point);
        mark(&mut common, &mut seen, code_point, is_common, !last);
        pointer += 1;
    }
    pointer = big5.len();
    while pointer > big5::FIRST_ENCODED_POINTER as usize {
        pointer -= 1;
        let code_point = big5[pointer];
        if is_last_pointer_code_point(code_point) {
            let is_common = big5_common(pointer) && is_han(code_point);
            mark(&mut common, &mut seen, code_point, is_common, true);
        }
    }
    common
}

/// The common level of an index whose first pointer counts: the Chinese
/// and Japanese ones decide the Han ideographs, EUC-KR the Hangul
/// syllables.
#[derive(Clone, Copy)]
enum Level {
    Gb2312,
    Jis,
    KsHangul,
}

impl Level {
    /// Whether `pointer`, whose code point is `code_point`, is in the level.
    const fn holds(self, pointer: usize, code_point: u32) -> bool {
        match self {
            Self::Gb2312 => gb2312_common(pointer) && is_han(code_point),
            Self::Jis => jis_common(pointer) && is_han(code_point),
            Self::KsHangul => euc_kr_common(pointer) && !is_han(code_point),
        }
    }
}

/// Marks in `common` the code points of `table` whose first pointer is in
/// `level`.
const fn mark_first_pointers(common: &mut [u64; COMMON_WORDS], table: &[u16], level: Level) {
    let mut seen = [0u64; COMMON_WORDS];
    let mut pointer = 0;
    while pointer < table.len() {
        let code_point = table[pointer] as u32;
        mark(
            common,
            &mut seen,
            code_point,
            level.holds(pointer, code_point),
            true,
        );
        pointer += 1;
    }
}

/// Marks `code_point` common if `is_common`, the first time it is `seen`
/// (when `first`; otherwise leaves it to a later walk).
const fn mark(
    common: &mut [u64; COMMON_WORDS],
    seen: &mut [u64; COMMON_WORDS],
    code_point: u32,
    is_common: bool,
    first: bool,
) {
    let Some(bit) = common_bit(code_point) else {
        return;
    };
    let (word, mask) = (bit / 64, 1u64 << (bit % 64));
    if !first || seen[word] & mask != 0 {
        return;
    }
    seen[word] |= mask;
    if is_common {
        common[word] |= mask;
    }
}

/// Whether `code_point` is in the main block of Han ideographs: the
/// Chinese and Japanese indexes decide those, EUC-KR the Hangul syllables.
const fn is_han(code_point: u32) -> bool {
    code_point >= *HAN.start() && code_point <= *HAN.end()
}

/// Whether "index Big5 pointer" gives `code_point` its last pointer.
const fn is_last_pointer_code_point(code_point: u32) -> bool {
    let mut i = 0;
    while i < big5::LAST_POINTER_CODE_POINTS.len() {
        if big5::LAST_POINTER_CODE_POINTS[i] as u32 == code_point {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether `c` is one of the typographic marks any language's text uses:
/// quotation marks, dashes, the ellipsis, the no-break space, the bullet.
fn is_typographic(c: char) -> bool {
    matches!(
        c,
        '\u{A0}'
            | '«'
            | '»'
            | '‘'
            | '’'
            | '‚'
            | '“'
            | '”'
            | '„'
            | '–'
            | '—'
            | '…'
            | '•'
            | '‹'
            | '›'
    )
}

/// Whether `c` is punctuation, a space or a sign that running text uses.
fn is_text_punctuation(c: char) -> bool {
    matches!(u32::from(c),
        0xA0 | 0xA1 | 0xA7 | 0xAB | 0xB0 | 0xB4 | 0xB7 | 0xBB | 0xBF
        | 0x2000..=0x206F // General Punctuation
        | 0x3000..=0x303F // CJK Symbols and Punctuation
        | 0xFF01..=0xFF65 // Fullwidth forms and halfwidth CJK punctuation
        | 0x55A..=0x55F | 0x589 | 0x5BE | 0x5C0 | 0x5C3 | 0x5F3 | 0x5F4
        | 0x60C | 0x61B | 0x61F | 0x66A..=0x66D | 0x6D4
        | 0x37E | 0x387 | 0xE2F | 0xE46 | 0xE4F | 0xE5A | 0xE5B
        // Signs running text uses: currency, ©, ®, ™, ×, ÷, ±.
        | 0xA2 | 0xA3 | 0xA5 | 0xA9 | 0xAE | 0xB1 | 0xD7 | 0xF7 | 0x20AC | 0x2122)
}

/// The class of a folded character for a language written in `script`.
pub fn class_of(c: char, script: Script) -> CharClass {
    if is_implausible(c) {
        return CharClass::Implausible;
    }
    match script_of(c) {
        Some(letter_script) => letter_class(letter_script, script, || {
            !is_common_ideograph_or_syllable(c)
        }),
        None => class_of_non_letter(c),
    }
}

/// [`class_of`] for every script at once, in the order of [`Script::ALL`].
pub fn classes_of(c: char) -> [CharClass; 9] {
    if is_implausible(c) {
        return [CharClass::Implausible; 9];
    }
    match script_of(c) {
        Some(letter_script) => {
            let rare = matches!(letter_script, Script::Chinese | Script::Korean)
                && !is_common_ideograph_or_syllable(c);
            Script::ALL.map(|script| letter_class(letter_script, script, || rare))
        }
        None => [class_of_non_letter(c); 9],
    }
}

/// The class of a letter of `letter_script` for a language written in
/// `script`; `rare` says whether a Han ideograph or Hangul syllable is
/// outside the common sets.
fn letter_class(letter_script: Script, script: Script, rare: impl Fn() -> bool) -> CharClass {
    let own = letter_script == script
        || (script == Script::Japanese && letter_script == Script::Chinese)
        || (script == Script::Korean && letter_script == Script::Chinese);
    if !own {
        CharClass::OtherLetter
    } else if matches!(letter_script, Script::Chinese | Script::Korean) && rare() {
        CharClass::OwnRareLetter
    } else {
        CharClass::OwnLetter
    }
}

/// The class of a character that is no letter of the scripts of [`Script`].
fn class_of_non_letter(c: char) -> CharClass {
    if is_text_punctuation(c) {
        CharClass::Punctuation
    } else if c.is_alphabetic() {
        CharClass::OtherLetter
    } else {
        CharClass::Symbol
    }
}

/// How many characters share their class's probability: a class member's
/// cost is its class's cost plus the logarithm of this.
pub fn class_size(c: char, script: Script) -> u32 {
    size_in_class(c, class_of(c, script), script_of(c), || {
        is_common_ideograph_or_syllable(c)
    })
}

/// [`class_size`] given the class, the script and whether a Han ideograph
/// or Hangul syllable is common (the class size of a letter does not depend
/// on the language's script).
fn size_in_class(
    c: char,
    class: CharClass,
    letter_script: Option<Script>,
    common: impl Fn() -> bool,
) -> u32 {
    match class {
        CharClass::Implausible => 1,
        CharClass::Punctuation if is_typographic(c) => 16,
        CharClass::Punctuation => 200,
        CharClass::Symbol => 3000,
        CharClass::OwnLetter | CharClass::OwnRareLetter | CharClass::OtherLetter => {
            match letter_script {
                Some(Script::Latin) => 400,
                Some(Script::Greek | Script::Hebrew | Script::Thai) => 100,
                Some(Script::Cyrillic | Script::Arabic | Script::Japanese) => 250,
                Some(Script::Korean) if common() => 2350,
                Some(Script::Korean) => 9000,
                Some(Script::Chinese) if common() => 6000,
                Some(Script::Chinese) | None => 30000,
            }
        }
    }
}

/// A class member's share of its class's cost, in units of 1/[`COST_SCALE`]
/// nat: the scaled natural logarithm of [`class_size`].
pub fn member_cost(c: char, script: Script) -> u32 {
    scaled_ln(class_size(c, script))
}

#[expect(clippy::cast_sign_loss, reason = "class sizes are at least 1")]
fn scaled_ln(size: u32) -> u32 {
    (f64::from(size).ln() * COST_SCALE).round() as u32
}

/// What the language models need to know of a folded character, worked
/// out at once: [`script_of`], [`classes_of`] and [`member_cost`] (which is
/// the same in a language of any script).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    /// The character's script, if it is a letter of one.
    pub script: Option<Script>,
    /// Its class in a language of each script, in the order of
    /// [`Script::ALL`].
    pub classes: [CharClass; 9],
    /// Its share of its class's cost.
    pub member_cost: u32,
}

/// The [`Facts`] of a folded character.
pub fn facts(c: char) -> Facts {
    let script = script_of(c);
    let common = std::cell::OnceCell::new();
    let is_common = || *common.get_or_init(|| is_common_ideograph_or_syllable(c));
    let classes = if is_implausible(c) {
        [CharClass::Implausible; 9]
    } else {
        match script {
            Some(letter_script) => {
                let rare =
                    || matches!(letter_script, Script::Chinese | Script::Korean) && !is_common();
                Script::ALL.map(|language| letter_class(letter_script, language, rare))
            }
            None => [class_of_non_letter(c); 9],
        }
    };
    Facts {
        script,
        classes,
        member_cost: scaled_ln(size_in_class(c, classes[0], script, is_common)),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn common_ideographs_and_syllables_are_read_from_the_indexes_alike() {
        for code_point in (0x4E00..=0x9FFF).chain(0xAC00..=0xD7A3) {
            let c = char::from_u32(code_point).expect("a scalar value");
            assert_eq!(
                super::is_common_ideograph_or_syllable(c),
                super::common_by_pointers(c),
                "U+{code_point:04X}"
            );
        }
    }

    use super::*;

    #[test]
    fn folding() {
        assert_eq!(fold('A'), 'a');
        assert_eq!(fold('7'), ' ');
        assert_eq!(fold('<'), ' ');
        assert_eq!(fold('\u{1B}'), '\u{1B}');
        assert_eq!(fold('Ж'), 'ж');
        assert_eq!(fold('Ş'), 'ș');
        assert_eq!(fold('ی'), 'ي');
        assert_eq!(fold('İ'), 'i');
        assert_eq!(fold('Ə'), 'ä');
        assert_eq!(fold('๒'), ' ');
        assert_eq!(fold('٣'), ' ');
        assert_eq!(fold('７'), ' ');
        assert_eq!(digit_script('๑'), Some(Script::Thai));
        assert_eq!(digit_script('۴'), Some(Script::Arabic));
        assert_eq!(digit_script('4'), None);
        assert_eq!(fold('ß'), 'ß');
        assert_eq!(fold('日'), '日');
    }

    #[test]
    fn classes_of_every_script_at_once() {
        for c in [
            'a', 'ж', '«', '╬', '的', '齉', '한', '똠', 'の', '\u{85}', 'ß', 'ǅ', '€', '’',
        ] {
            let all = classes_of(c);
            let facts = facts(c);
            assert_eq!(facts.classes, all);
            assert_eq!(facts.script, script_of(c));
            assert_eq!(facts.member_cost, member_cost(c, Script::Latin));
            assert_eq!(facts.member_cost, member_cost(c, Script::Korean));
            for (position, script) in Script::ALL.into_iter().enumerate() {
                assert_eq!(script as usize, position);
                assert_eq!(all[position], class_of(c, script), "{c} in {script:?}");
            }
        }
    }

    #[test]
    fn classes() {
        assert_eq!(class_of('\u{85}', Script::Latin), CharClass::Implausible);
        assert_eq!(class_of('\u{E000}', Script::Latin), CharClass::Implausible);
        assert_eq!(class_of('ж', Script::Latin), CharClass::OtherLetter);
        assert_eq!(class_of('ж', Script::Cyrillic), CharClass::OwnLetter);
        assert_eq!(class_of('«', Script::Cyrillic), CharClass::Punctuation);
        assert_eq!(class_of('╬', Script::Cyrillic), CharClass::Symbol);
        assert_eq!(class_of('的', Script::Chinese), CharClass::OwnLetter);
        assert_eq!(class_of('齉', Script::Chinese), CharClass::OwnRareLetter);
        assert_eq!(class_of('한', Script::Korean), CharClass::OwnLetter);
        assert_eq!(class_of('똠', Script::Korean), CharClass::OwnRareLetter);
        assert_eq!(class_of('の', Script::Japanese), CharClass::OwnLetter);
    }

    #[test]
    fn legacy_text_read_as_windows_1252_is_no_letter_of_the_language() {
        // The training text of these languages held their code pages read
        // as windows-1252 ("ì" for Czech "ě", "õ" for Hungarian "ő"); the
        // generator gives such letters back. Within words, the mojibake
        // must cost far more than the letter it stands for.
        let within = |language: &Language, c: char| {
            "aeinorst"
                .chars()
                .map(|left| f64::from(language.pair_cost(left, c)) / COST_SCALE)
                .sum::<f64>()
                / 8.0
        };
        for (tag, letter, mojibake) in [
            ("cs", 'ě', 'ì'),
            ("cs", 'ř', 'ø'),
            ("hu", 'ő', 'õ'),
            ("hu", 'ű', 'û'),
            ("pl", 'ę', 'ê'),
            ("lt", 'ė', 'ë'),
            ("ro", 'ț', 'þ'),
            ("hr", 'č', 'è'),
            ("et", 'š', 'ð'),
        ] {
            let language = for_tag(tag).unwrap();
            assert!(
                within(language, mojibake) >= within(language, letter) + 5.0,
                "{tag}: {mojibake} for {letter}"
            );
        }
        // A letter of the language stays one: Vietnamese "ã" is "a" with a
        // tone, not windows-1258's "ă" misread.
        let vietnamese = for_tag("vi").unwrap();
        assert!(vietnamese.symbols.contains(&u32::from('ã')));
        assert!(within(vietnamese, 'ã') < within(vietnamese, 'ă') + 2.0);
    }

    #[test]
    fn a_scripts_own_punctuation_is_no_stranger() {
        // The Hebrew geresh and gershayim and the Arabic question mark are
        // in no training text (Lingua's models hold letters only, and the
        // UDHR's prose does without them), yet every other text of the
        // language holds them: they are symbols of their own, and a Hebrew
        // abbreviation costs a few nats more than a letter, not a
        // stranger's price.
        for (tag, marks) in [("he", "\u{5BE}\u{5F3}\u{5F4}"), ("ar", "\u{61B}\u{61F}")] {
            let language = for_tag(tag).unwrap();
            for mark in marks.chars() {
                assert!(
                    language.symbols.contains(&u32::from(mark)),
                    "{tag} U+{:04X}",
                    u32::from(mark)
                );
            }
        }
        let hebrew = for_tag("he").unwrap();
        let nats =
            |text: &str| f64::from(u32::try_from(hebrew.text_cost(text)).unwrap()) / COST_SCALE;
        assert!(nats("\u{5D2}\u{5F3}") < nats("\u{5D2}") + 12.0);
    }

    #[test]
    fn every_letter_its_text_writes_often_is_a_symbol() {
        // Lingua's models leave out the combining vowel signs Unicode
        // counts as letters (the Thai ones above and below their
        // consonant, in most Thai words): a letter the UDHR text writes at
        // least once in a thousand is a symbol all the same, whichever
        // source has it.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("languages");
        for language in &LANGUAGES {
            let text = std::fs::read_to_string(dir.join(format!("{}.txt", language.tag)))
                .unwrap_or_else(|error| panic!("{}: {error}", language.tag));
            let mut counts = std::collections::BTreeMap::<char, usize>::new();
            for c in text.chars().map(fold).filter(|c| c.is_alphabetic()) {
                *counts.entry(c).or_default() += 1;
            }
            let letters: usize = counts.values().sum();
            for (c, n) in counts {
                if n * 1000 >= letters {
                    assert!(
                        language.symbols.contains(&u32::from(c)),
                        "{}: {c} (U+{:04X}), {n} of {letters} letters",
                        language.tag,
                        u32::from(c)
                    );
                }
            }
        }
    }

    #[test]
    fn a_texts_cost_is_its_pairs_between_word_boundaries() {
        let czech = for_tag("cs").unwrap();
        let pairs = [(' ', 'd'), ('d', 'ě'), ('ě', 't'), ('t', 'i'), ('i', ' ')];
        let sum: u64 = pairs
            .iter()
            .map(|&(left, right)| u64::from(czech.pair_cost(left, right)))
            .sum();
        assert_eq!(czech.text_cost("Děti"), sum);
        assert_eq!(czech.text_cost(""), u64::from(czech.pair_cost(' ', ' ')));
    }

    #[test]
    fn tables_are_consistent() {
        for language in &LANGUAGES {
            let symbols = language.symbols.len() + CharClass::ALL.len();
            assert_eq!(language.unigram.len(), symbols, "{}", language.tag);
            assert_eq!(language.backoff.len(), symbols, "{}", language.tag);
            assert_eq!(language.pairs.len(), language.pair_costs.len());
            assert!(language.symbols.windows(2).all(|w| w[0] < w[1]));
            assert_eq!(language.pair_rows.len(), symbols + 1);
            assert_eq!(language.pair_rows[0], 0);
            assert_eq!(
                usize::from(language.pair_rows[symbols]),
                language.pairs.len()
            );
            for row in language.pair_rows.windows(2) {
                let pairs = &language.pairs[usize::from(row[0])..usize::from(row[1])];
                assert!(pairs.windows(2).all(|w| w[0] < w[1]));
                assert!(pairs.iter().all(|&right| usize::from(right) < symbols));
            }
            assert!(language.is_written_in(0), "UTF-8 writes {}", language.tag);
        }
    }
}
