//! How implausible a piece of text is: the cost a repair must lower.
//!
//! Mojibake has strong signatures. Decoding UTF-8 as a single-byte encoding
//! turns each non-ASCII character into a lead character followed by one to
//! three characters from the encoding's upper half, so a word fills with
//! capital letters followed by symbols ("Ã©", "Ð¾"), letters of alphabets
//! that no language mixes (`æœè`), case flipping inside words (`РњРѕ`),
//! box-drawing characters ("п╦п╡") and C1 control characters. Legacy text
//! read as windows-1252 ("–¾“ú‚Ì’©") mixes punctuation into words the same
//! way. Correct text of any language has almost none of these.
//!
//! The cost of a text is a sum, in rough units of surprise: each character
//! costs what its kind of character is worth in ordinary text, each pair of
//! neighbours costs what their meeting is worth, and each word whose letters
//! share no language costs extra. A repair must lower the cost by a clear
//! margin. Han characters and Hangul are judged by how common they are in
//! the Chinese, Japanese and Korean character sets ([`super::cjk`]), under
//! whichever of the four languages makes the text most plausible.

use std::sync::OnceLock;

use super::cjk::{self, Tier};
use super::orthography::{self, ANY};

/// What kind of character, for the pair rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Space,
    Digit,
    AsciiPunct,
    Letter,
    /// A combining mark.
    Mark,
    /// Quotation marks and apostrophes, ASCII or not.
    Quote,
    /// Dashes and hyphens other than ASCII's.
    Dash,
    /// Any other symbol or punctuation outside ASCII.
    Symbol,
    /// C0 and C1 controls, private use, noncharacters, U+FFFD.
    Strange,
    /// Format characters (joiners, variation selectors, the BOM).
    Format,
}

/// The writing system of a letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Script {
    None,
    Latin,
    Greek,
    Cyrillic,
    Armenian,
    Hebrew,
    Arabic,
    Indic,
    Thai,
    Georgian,
    /// Han characters.
    Han,
    /// Hiragana and katakana (full width).
    Kana,
    /// Hangul syllables and jamo.
    Hangul,
    Other,
}

impl Script {
    fn is_cjk(self) -> bool {
        matches!(self, Self::Han | Self::Kana | Self::Hangul)
    }
}

/// What the scorer knows of one character.
#[derive(Clone, Copy, Debug, PartialEq)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent facts of one character, read in the pair rules"
)]
pub(crate) struct Info {
    pub(crate) kind: Kind,
    pub(crate) script: Script,
    pub(crate) upper: bool,
    pub(crate) lower: bool,
    /// What the character costs on its own.
    pub(crate) cost: f32,
    /// For a Latin letter outside ASCII or a Cyrillic letter, the languages
    /// that write it ([`orthography`]); every language otherwise.
    pub(crate) languages: orthography::Languages,
    /// A mathematical operator or sign (√, ∑, ±, ×, ÷, ≤, ∞ …), which
    /// meets letters and digits in formulas: "√π", "2×3", "±σ".
    pub(crate) math: bool,
    /// An emoji or a part of one (pictographs, dingbats, regional
    /// indicators, skin tones, the joiner and variation selectors of emoji
    /// sequences): they come in runs ("😍😍😍", "🇫🇷", "❤️").
    pub(crate) pictographic: bool,
    /// Box drawing and the pieces of tall brackets ("├──", "⎛", "⎜"): they
    /// join one another in tables, trees and formulas drawn in text.
    pub(crate) drawing: bool,
    /// Box drawing proper, which DOS code pages read as another glue to
    /// letters ("п╦п╡", "Bhut├ín"); the pieces of brackets meet letters in
    /// formulas ("⎝x").
    pub(crate) dos_box: bool,
}

impl Info {
    const fn new(kind: Kind, cost: f32) -> Self {
        Self {
            kind,
            script: Script::None,
            upper: false,
            lower: false,
            cost,
            languages: ANY,
            math: false,
            pictographic: false,
            drawing: false,
            dos_box: false,
        }
    }

    const fn pictograph(kind: Kind, cost: f32) -> Self {
        Self {
            pictographic: true,
            ..Self::new(kind, cost)
        }
    }

    const fn drawing(cost: f32, dos_box: bool) -> Self {
        Self {
            drawing: true,
            dos_box,
            ..Self::new(Kind::Symbol, cost)
        }
    }

    const fn math(cost: f32) -> Self {
        Self {
            math: true,
            ..Self::new(Kind::Symbol, cost)
        }
    }

    const fn letter(script: Script, cost: f32) -> Self {
        Self {
            kind: Kind::Letter,
            script,
            upper: false,
            lower: false,
            cost,
            languages: ANY,
            math: false,
            pictographic: false,
            drawing: false,
            dos_box: false,
        }
    }
}

/// A small count as a cost factor (counts here are a word's characters).
pub(crate) fn small(count: usize) -> f32 {
    f32::from(u16::try_from(count).unwrap_or(u16::MAX))
}

/// Characters below this have their [`Info`] in a table, built once: the
/// alphabets, punctuation and symbols mojibake is made of.
const TABLE_END: u32 = 0x2800;

/// What the scorer knows of `c`.
#[inline]
pub(crate) fn info(c: char) -> Info {
    static TABLE: OnceLock<Vec<Info>> = OnceLock::new();
    let code = u32::from(c);
    if code < TABLE_END {
        let table = TABLE.get_or_init(|| {
            (0..TABLE_END)
                .map(|code| {
                    char::from_u32(code).map_or(Info::new(Kind::Strange, 5.0), compute_info)
                })
                .collect()
        });
        return table[code as usize];
    }
    // The unified ideographs: what legacy decodes mostly make.
    if (0x4E00..=0x9FFF).contains(&code) {
        return Info::letter(Script::Han, 0.0);
    }
    compute_info(c)
}

#[expect(
    clippy::match_same_arms,
    clippy::too_many_lines,
    reason = "one arm per block of the code space reads as a table"
)]
/// The scorer's view of `c`, worked out.
fn compute_info(c: char) -> Info {
    let code = u32::from(c);
    if code < 0x80 {
        return ascii_info(c);
    }
    let mut info = match code {
        0x80..=0x9F => Info::new(Kind::Strange, 4.0),
        0xA0..=0xBF | 0xD7 | 0xF7 => latin1_symbol(c),
        0xC0..=0x17F => latin1_letter(c),
        0x180..=0x24F => latin_extended_b(c),
        // Most of the IPA is for phoneticians, but the letters of the
        // African reference alphabet and Azerbaijani "ə" are everyday text
        // ("Ɛwe nɔ", "qəsəbə").
        0x250..=0x2AF if is_everyday_ipa(c) => Info::letter(Script::Latin, 0.5),
        0x250..=0x2AF => Info::letter(Script::Latin, 2.5),
        0x2B0..=0x2FF => match c {
            'ʹ' | 'ʺ' | 'ʻ' | 'ʼ' | 'ʽ' | 'ˈ' | 'ˌ' | 'ː' => Info::new(Kind::Quote, 0.5),
            _ => Info::new(Kind::Symbol, 2.0),
        },
        // The accents, dots, rings, carons, cedillas and ogoneks of the
        // Latin alphabets in decomposed form (most text is composed); the
        // others are rarer.
        0x300..=0x308 | 0x30A..=0x30C | 0x323 | 0x327 | 0x328 | 0x331 => Info::new(Kind::Mark, 1.5),
        0x309 | 0x30D..=0x36F => Info::new(Kind::Mark, 2.5),
        0x370..=0x3FF => match code {
            0x386 | 0x388..=0x38A | 0x38C | 0x38E..=0x3A1 | 0x3A3..=0x3CE => {
                Info::letter(Script::Greek, 0.0)
            }
            0x387 => Info::new(Kind::AsciiPunct, 0.5),
            _ => Info::letter(Script::Greek, 2.0),
        },
        0x400..=0x52F => match code {
            0x410..=0x44F => Info::letter(Script::Cyrillic, 0.0),
            0x400..=0x45F => Info::letter(Script::Cyrillic, 0.3),
            0x460..=0x489 => Info::letter(Script::Cyrillic, 3.0),
            0x48A..=0x4FF => Info::letter(Script::Cyrillic, 1.5),
            _ => Info::letter(Script::Cyrillic, 3.0),
        },
        0x531..=0x58A => Info::letter(Script::Armenian, 0.0),
        0x591..=0x5C7 => Info {
            script: Script::Hebrew,
            ..Info::new(Kind::Mark, 0.5)
        },
        0x5D0..=0x5F4 => Info::letter(Script::Hebrew, 0.0),
        0x600..=0x6FF => match code {
            0x60C | 0x61B | 0x61F | 0x66A..=0x66D | 0x6D4 => Info::new(Kind::AsciiPunct, 0.0),
            0x610..=0x61A | 0x64B..=0x65F | 0x670 | 0x6D6..=0x6ED => Info::new(Kind::Mark, 0.3),
            0x660..=0x669 | 0x6F0..=0x6F9 => Info::new(Kind::Digit, 0.0),
            0x621..=0x64A => Info::letter(Script::Arabic, 0.0),
            _ => Info::letter(Script::Arabic, 0.8),
        },
        0x700..=0x8FF => Info::letter(Script::Other, 2.5),
        0x900..=0xDFF => indic(code),
        0xE00..=0xE7F => match code {
            0xE31 | 0xE34..=0xE3A | 0xE47..=0xE4E => Info::new(Kind::Mark, 0.0),
            0xE50..=0xE59 => Info::new(Kind::Digit, 0.0),
            0xE01..=0xE5B => Info::letter(Script::Thai, 0.0),
            _ => Info::letter(Script::Thai, 2.0),
        },
        0xE80..=0xFFF => Info::letter(Script::Other, 1.0),
        0x1000..=0x109F => Info::letter(Script::Other, 1.0),
        0x10A0..=0x10FF => Info::letter(Script::Georgian, 0.3),
        0x1100..=0x11FF => Info::letter(Script::Hangul, 2.5),
        0x1200..=0x139F => Info::letter(Script::Other, 0.5),
        0x1780..=0x17FF => Info::letter(Script::Other, 1.0),
        0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF => Info::new(Kind::Mark, 2.0),
        0x1E00..=0x1EFF => match code {
            0x1EA0..=0x1EF9 => Info::letter(Script::Latin, 0.2),
            _ => Info::letter(Script::Latin, 1.5),
        },
        0x1F00..=0x1FFF => Info::letter(Script::Greek, 0.5),
        0x2000..=0x206F => general_punctuation(c),
        0x2070..=0x209F => Info::new(Kind::Symbol, 1.5),
        0x20A0..=0x20CF => Info::new(Kind::Symbol, if c == '€' { 0.3 } else { 1.0 }),
        // The keycap of "1️⃣".
        0x20E3 => Info::pictograph(Kind::Format, 0.3),
        0x2100..=0x214F => Info::new(
            Kind::Symbol,
            match c {
                '№' | '℃' => 0.5,
                '™' => 0.8,
                _ => 1.5,
            },
        ),
        0x2150..=0x218F => Info::new(Kind::Symbol, 1.5),
        0x2190..=0x21FF => Info::new(Kind::Symbol, 1.0),
        0x2200..=0x22FF => Info::math(1.5),
        // The pieces of tall brackets, braces and integrals.
        0x239B..=0x23B3 => Info::drawing(0.5, false),
        0x2300..=0x23FF => Info::new(Kind::Symbol, 2.0),
        0x2460..=0x24FF => Info::new(Kind::Symbol, 1.0),
        // Box drawing costs where it meets letters (`pair_cost`): DOS
        // code pages read as another make it of letters ("п╦п╡").
        0x2500..=0x257F => Info::drawing(0.5, true),
        0x2580..=0x259F => Info::new(Kind::Symbol, 3.0),
        0x2600..=0x27BF => Info::pictograph(Kind::Symbol, 0.5),
        // Arrows and shapes, of which only a few are emoji: the rest are
        // what ISO-8859-2 makes of the pieces of large brackets ("âŽ\u{9d}"
        // is "⮝" there, "⎝" in windows-1252).
        0x2B05..=0x2B07 | 0x2B1B | 0x2B1C | 0x2B50 | 0x2B55 => Info::pictograph(Kind::Symbol, 0.5),
        0x2B00..=0x2BFF => Info::new(Kind::Symbol, 2.0),
        0x25A0..=0x25FF => Info::new(Kind::Symbol, 0.5),
        0x3000..=0x303F => match code {
            0x3000 => Info::new(Kind::Space, 0.0),
            0x3001..=0x3003 | 0x3005..=0x3011 | 0x3014..=0x301F => Info::new(Kind::Quote, 0.0),
            _ => Info::new(Kind::Symbol, 1.5),
        },
        0x3041..=0x3096 | 0x309D..=0x309F | 0x30A1..=0x30FA | 0x30FD..=0x30FF => {
            Info::letter(Script::Kana, 0.0)
        }
        0x3099..=0x309C => Info::new(Kind::Mark, 1.0),
        0x30FB | 0x30FC => Info::letter(Script::Kana, 0.0),
        0x3100..=0x312F => Info::letter(Script::Other, 2.0),
        0x3130..=0x318F => Info::letter(Script::Hangul, 2.5),
        0x3190..=0x33FF => Info::new(Kind::Symbol, 2.5),
        0x3400..=0x4DBF => Info::letter(Script::Han, 3.0),
        0x4E00..=0x9FFF => Info::letter(Script::Han, 0.0),
        0xAC00..=0xD7A3 => Info::letter(Script::Hangul, 0.0),
        0xE000..=0xF8FF => Info::new(Kind::Strange, 5.0),
        0xF900..=0xFAFF => Info::letter(Script::Han, 3.0),
        0xFB00..=0xFB06 => Info::letter(Script::Latin, 1.0),
        0xFB1D..=0xFDFF | 0xFE70..=0xFEFE => Info::letter(Script::Other, 1.5),
        0xFE0F => Info::pictograph(Kind::Format, 0.3),
        0xFE00..=0xFE0E | 0xFEFF => Info::new(Kind::Format, 0.3),
        0xFE10..=0xFE6F => Info::new(Kind::Symbol, 2.5),
        0xFF01..=0xFF5E => fullwidth(c),
        0xFF61..=0xFF9F => Info::letter(Script::Kana, 2.0),
        0xFFA0..=0xFFDC => Info::letter(Script::Hangul, 3.0),
        0xFFE0..=0xFFEE => Info::new(Kind::Symbol, 1.0),
        0xFFFD => Info::new(Kind::Strange, 2.5),
        0xFFF0..=0xFFFF => Info::new(Kind::Strange, 6.0),
        0x1F1E6..=0x1F1FF => Info::pictograph(Kind::Symbol, 0.2),
        0x1F000..=0x1F2FF => Info::new(Kind::Symbol, 1.0),
        0x1F300..=0x1FAFF => Info::pictograph(Kind::Symbol, 0.2),
        0x1D400..=0x1D7FF => Info::letter(Script::Latin, 1.5),
        0x20000..=0x3FFFF => Info::letter(Script::Han, 3.0),
        0xE0000..=0xE007F => Info::new(Kind::Format, 1.0),
        0xF0000.. => Info::new(Kind::Strange, 5.0),
        _ => Info::new(Kind::Symbol, 2.5),
    };
    if info.kind == Kind::Letter && !info.script.is_cjk() {
        info.upper = c.is_uppercase();
        info.lower = c.is_lowercase();
    }
    if info.kind == Kind::Letter {
        info.languages = match info.script {
            Script::Latin => orthography::latin(c),
            Script::Cyrillic => orthography::cyrillic(c),
            _ => ANY,
        };
    }
    info
}

fn ascii_info(c: char) -> Info {
    match c {
        ' ' | '\t' | '\n' | '\r' => Info::new(Kind::Space, 0.0),
        '0'..='9' => Info::new(Kind::Digit, 0.0),
        'a'..='z' => Info {
            lower: true,
            ..Info::letter(Script::Latin, 0.0)
        },
        'A'..='Z' => Info {
            upper: true,
            ..Info::letter(Script::Latin, 0.0)
        },
        '\'' | '"' | '`' => Info::new(Kind::Quote, 0.0),
        '\x00'..='\x1F' | '\x7F' => Info::new(Kind::Strange, 4.0),
        _ => Info::new(Kind::AsciiPunct, 0.0),
    }
}

/// U+00A0 to U+00BF, and × and ÷: the symbols of windows-1252's upper half,
/// which follow the lead character in mojibake of Latin-1 letters.
fn latin1_symbol(c: char) -> Info {
    match c {
        '\u{A0}' => Info::new(Kind::Space, 0.5),
        '«' | '»' => Info::new(Kind::Quote, 0.0),
        '\u{AD}' => Info::new(Kind::Format, 1.5),
        '°' | '©' | '®' | '§' | '·' | '£' | '€' => Info::new(Kind::Symbol, 0.8),
        '±' | '×' | '÷' | '¬' => Info::math(1.0),
        // The ordinal indicators follow digits ("1ª"), not letters.
        '¡' | '¿' | '¥' | '¢' | 'µ' | '½' | 'ª' | 'º' => Info::new(Kind::Symbol, 1.0),
        _ => Info::new(Kind::Symbol, 1.5),
    }
}

/// The Latin-1 and Latin Extended-A letters. Capitals cost a little; the
/// capitals that lead mojibake but are rare in real text cost more.
fn latin1_letter(c: char) -> Info {
    let cost = match c {
        'Ã' | 'Â' | 'Ð' | 'Þ' | 'Ý' | 'Ï' | 'Ì' | 'Ù' | 'Ë' | 'Õ' | 'Û' | 'Î' | 'Ò' => {
            0.6
        }
        'ĸ' | 'ŉ' | 'ſ' | 'Ŀ' | 'ŀ' | 'Ĳ' | 'ĳ' | 'Ŧ' | 'ŧ' => 1.5,
        // Sami and many African languages write it.
        'Ŋ' | 'ŋ' => 0.5,
        _ if c.is_uppercase() => 0.3,
        _ if u32::from(c) >= 0x100 => 0.2,
        _ => 0.0,
    };
    Info::letter(Script::Latin, cost)
}

fn latin_extended_b(c: char) -> Info {
    match c {
        // The florin sign, windows-1252's 0x83: in mojibake of Shift_JIS
        // it is everywhere.
        'ƒ' => Info::new(Kind::Symbol, 1.5),
        'ș' | 'ț' | 'Ș' | 'Ț' | 'ơ' | 'ư' | 'Ơ' | 'Ư' | 'ǎ' | 'ǐ' | 'ǒ' | 'ǔ' | 'ǖ' | 'ǘ' | 'ǚ'
        | 'ǜ' | 'Ə' => Info::letter(Script::Latin, 0.4),
        // The capitals of the African reference alphabet's letters (see
        // `is_everyday_ipa`), and its hooked letters.
        'Ɓ' | 'Ɔ' | 'Ɖ' | 'Ɗ' | 'Ǝ' | 'Ɛ' | 'Ɣ' | 'Ɩ' | 'Ɨ' | 'Ƙ' | 'ƙ' | 'Ɲ' | 'Ʊ' | 'Ʋ' | 'Ƴ'
        | 'ƴ' | 'Ʒ' => Info::letter(Script::Latin, 0.5),
        _ => Info::letter(Script::Latin, 2.5),
    }
}

/// Whether `c`, of the IPA block, is a letter of the African reference
/// alphabet (Ewe, Twi, Hausa, Lingala, Bambara … write "ɛ", "ɔ", "ɖ",
/// "ɓ") or Azerbaijani's "ə".
fn is_everyday_ipa(c: char) -> bool {
    matches!(
        c,
        'ɓ' | 'ɔ'
            | 'ɖ'
            | 'ɗ'
            | 'ə'
            | 'ɛ'
            | 'ɣ'
            | 'ɨ'
            | 'ɩ'
            | 'ɲ'
            | 'ʃ'
            | 'ʊ'
            | 'ʋ'
            | 'ʒ'
            | 'ʉ'
            | 'ɑ'
    )
}

fn indic(code: u32) -> Info {
    // Each 128-code-point block: signs and vowel signs first and last are
    // marks, the middle letters. Close enough for plausibility.
    let offset = code & 0x7F;
    match offset {
        0x00..=0x03 | 0x3A..=0x4F | 0x51..=0x57 | 0x62..=0x63 => Info::new(Kind::Mark, 0.0),
        0x64..=0x65 => Info::new(Kind::AsciiPunct, 0.0),
        0x66..=0x6F => Info::new(Kind::Digit, 0.0),
        _ => Info::letter(Script::Indic, 0.0),
    }
}

fn general_punctuation(c: char) -> Info {
    match c {
        '\u{2000}'..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' => {
            Info::new(Kind::Space, 0.5)
        }
        // The joiner of emoji sequences ("👨‍👩‍👧").
        '\u{200D}' => Info::pictograph(Kind::Format, 0.3),
        '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' => {
            Info::new(Kind::Format, 0.5)
        }
        '‐' | '‑' | '‒' | '–' | '—' | '―' => Info::new(Kind::Dash, 0.0),
        '‘' | '’' | '“' | '”' | '‛' | '‟' | '′' | '″' => {
            Info::new(Kind::Quote, 0.0)
        }
        '‚' | '„' => Info::new(Kind::Quote, 0.3),
        '‹' | '›' => Info::new(Kind::Quote, 1.5),
        // The ellipsis ends words as a full stop does.
        '…' => Info::new(Kind::Quote, 0.2),
        '•' | '‧' => Info::new(Kind::Symbol, 0.3),
        '†' | '‡' | '‰' | '‱' => Info::new(Kind::Symbol, 1.5),
        _ => Info::new(Kind::Symbol, 1.0),
    }
}

fn fullwidth(c: char) -> Info {
    match c {
        '０'..='９' => Info::new(Kind::Digit, 0.0),
        'Ａ'..='Ｚ' | 'ａ'..='ｚ' => Info::letter(Script::Latin, 0.3),
        _ => Info::new(Kind::Quote, 0.0),
    }
}

/// Costs of the CJK characters of a text under each of the four languages.
#[derive(Clone, Copy, Debug, Default)]
struct CjkCosts {
    japanese: f32,
    simplified: f32,
    traditional: f32,
    korean: f32,
}

impl CjkCosts {
    fn add(&mut self, c: char, script: Script) {
        match script {
            Script::Han => {
                let [japanese, simplified, traditional, korean] = cjk::han_tiers(c);
                self.japanese += tier_cost(japanese, [0.0, 1.5, 2.5, 3.5]);
                self.simplified += tier_cost(simplified, [0.0, 1.5, 2.5, 3.5]);
                self.traditional += tier_cost(traditional, [0.0, 1.5, 2.5, 3.5]);
                self.korean += tier_cost(korean, [1.0, 2.0, 3.5, 3.5]);
            }
            Script::Kana => {
                self.simplified += 2.0;
                self.traditional += 2.0;
                self.korean += 2.0;
            }
            Script::Hangul => {
                self.korean += tier_cost(cjk::ks_x_1001(c), [0.0, 2.5, 2.5, 3.0]);
                self.japanese += 3.0;
                self.simplified += 3.0;
                self.traditional += 3.0;
            }
            _ => {}
        }
    }

    /// Japanese writes its grammar in kana: a long run of Han characters
    /// with no kana at all reads as Chinese, not Japanese.
    fn add_han_run(&mut self, han: u32, kana: u32) {
        if kana == 0 && han > 4 {
            self.japanese += 0.3 * small((han - 4) as usize);
        }
    }

    fn best(&self) -> f32 {
        self.japanese
            .min(self.simplified)
            .min(self.traditional)
            .min(self.korean)
    }
}

/// The written language a double-byte encoding is made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CjkLanguage {
    /// EUC-JP, ISO-2022-JP, Shift_JIS.
    Japanese,
    /// GBK and gb18030, which hold traditional characters too.
    Chinese,
    /// Big5.
    Traditional,
    /// EUC-KR.
    Korean,
}

/// How much more `word`'s CJK characters cost read as `language` than as
/// the likeliest of the four languages, which [`word_cost`] counts: text
/// that a double-byte decoder makes is text of that decoder's language or
/// mojibake ("販採繁音誼紗參" out of EUC-JP is traditional Chinese by its
/// characters, but no Japanese).
pub(crate) fn cjk_language_excess(word: &str, language: CjkLanguage) -> f32 {
    let mut cjk = CjkCosts::default();
    let (mut han, mut kana) = (0u32, 0u32);
    for c in word.chars() {
        let script = info(c).script;
        if script.is_cjk() {
            cjk.add(c, script);
            match script {
                Script::Han => han += 1,
                Script::Kana => kana += 1,
                _ => {}
            }
        }
    }
    cjk.add_han_run(han, kana);
    let read = match language {
        CjkLanguage::Japanese => cjk.japanese,
        CjkLanguage::Chinese => cjk.simplified.min(cjk.traditional),
        CjkLanguage::Traditional => cjk.traditional,
        CjkLanguage::Korean => cjk.korean,
    };
    read - cjk.best()
}

fn tier_cost(tier: Tier, costs: [f32; 4]) -> f32 {
    match tier {
        Tier::Common => costs[0],
        Tier::Rare => costs[1],
        Tier::Extension => costs[2],
        Tier::Absent => costs[3],
    }
}

/// The cost of two neighbours meeting inside a word.
fn pair_cost(a: Info, b: Info) -> f32 {
    // Emoji come in runs and sequences, and beside words.
    if a.pictographic && (b.pictographic || b.kind == Kind::Letter)
        || b.pictographic && a.kind == Kind::Letter
    {
        return 0.0;
    }
    // Lines and corners drawn in text join one another; glued to letters
    // they are more often a DOS code page read as another ("п╦п╡",
    // "─îe┼ítina", "Bhut├ín").
    if a.drawing && b.drawing {
        return 0.0;
    }
    let mut cost = 0.0;
    if (a.dos_box && b.kind == Kind::Letter) || (b.dos_box && a.kind == Kind::Letter) {
        cost += DRAWING_ON_LETTER;
    }
    match (a.kind, b.kind) {
        (Kind::Letter, Kind::Letter) => {
            if a.script != b.script {
                cost += match (a.script.is_cjk(), b.script.is_cjk()) {
                    (false, false) => 3.0,
                    (true, true) => match (a.script, b.script) {
                        (Script::Kana, Script::Hangul) | (Script::Hangul, Script::Kana) => 3.0,
                        (Script::Han, Script::Hangul) | (Script::Hangul, Script::Han) => 0.5,
                        _ => 0.0,
                    },
                    // Latin letters beside Han or kana: "A型", "Tシャツ".
                    _ if (a.script == Script::Latin && a.cost == 0.0)
                        || (b.script == Script::Latin && b.cost == 0.0) =>
                    {
                        1.0
                    }
                    _ => 2.5,
                };
            } else if a.lower && b.upper {
                cost += if a.cost == 0.0 && b.cost == 0.0 {
                    0.5
                } else {
                    2.5
                };
            }
        }
        (Kind::Letter, Kind::Symbol) | (Kind::Symbol, Kind::Letter) => {
            let letter = if a.kind == Kind::Letter { a } else { b };
            // A formula: "√π", "±σ", "×n".
            cost += if a.math && (is_ascii_letter(b) || b.script == Script::Greek) {
                0.3
            } else if letter.script.is_cjk() || letter.cost > 0.0 || !is_ascii_letter(letter) {
                2.0
            } else {
                1.0
            };
        }
        (Kind::Symbol, Kind::Symbol) => cost += 1.5,
        (Kind::Symbol, Kind::Quote | Kind::Dash) | (Kind::Quote | Kind::Dash, Kind::Symbol) => {
            cost += 1.5;
        }
        (Kind::Strange, _) | (_, Kind::Strange) => cost += 1.0,
        (kind, Kind::Mark) if kind != Kind::Letter && kind != Kind::Mark => cost += 1.5,
        // A script's own mark on a letter of another script: Hebrew points
        // on Latin letters ("bezpe\u{5b4}nost" is windows-1255 made of
        // "bezpeÄnost").
        (Kind::Letter, Kind::Mark) if b.script != Script::None && a.script != b.script => {
            cost += 3.0;
        }
        _ => {}
    }
    // A capital that leads mojibake, followed by what a lead is followed by.
    if a.kind == Kind::Letter
        && a.upper
        && a.script == Script::Latin
        && a.cost > 0.0
        && matches!(
            b.kind,
            Kind::Symbol | Kind::Quote | Kind::Dash | Kind::Strange | Kind::Format
        )
    {
        cost += 1.5;
    }
    // A capital glued to a no-break space: "Ã\u{a0}" is "à" in mojibake.
    if a.kind == Kind::Letter
        && a.upper
        && a.script == Script::Latin
        && a.cost > 0.0
        && b.kind == Kind::Space
        && b.cost > 0.0
    {
        cost += 2.5;
    }
    cost
}

/// What box drawing glued to a letter costs beyond any symbol's.
const DRAWING_ON_LETTER: f32 = 2.0;

fn is_ascii_letter(info: Info) -> bool {
    info.script == Script::Latin && info.cost == 0.0
}

/// Whether `c` is a currency sign of those outside ASCII that prices are
/// written with ("£40", "€5", "¥300", "₹50").
fn is_currency_sign(c: char) -> bool {
    matches!(c, '¢' | '£' | '¤' | '¥' | '\u{20A0}'..='\u{20C0}')
}

/// The cost of a word: a run of text without spaces, as [`super::segment`]
/// cuts it. The quotes and dashes at its edges are not inside it.
#[expect(
    clippy::too_many_lines,
    reason = "one pass over the word keeps every rule's state side by side"
)]
pub(crate) fn word_cost(word: &str) -> f32 {
    let (word, marks) = without_trademark_signs(word);
    let mut total = TRADEMARK_SIGN * small(marks);
    let mut cjk = CjkCosts::default();
    let mut latin = ANY;
    let mut cyrillic = ANY;
    let mut run = 0u32;
    let (mut han, mut kana) = (0u32, 0u32);
    // The last character, and whether a quote or dash sits between it and a
    // letter before it.
    let mut previous: Option<Info> = None;
    let mut before_previous: Option<Info> = None;
    let mut previous_char = '\0';
    let mut before_previous_char = '\0';
    // Punctuation and symbols since the last letter, if one came before.
    let mut odd_run = 0u32;
    let mut odd_non_ascii = false;
    let mut seen_letter = false;
    // Lower-case Latin letters outside ASCII but "ß", which has no capital
    // in most text (see `caps_with_lower`).
    let mut other_lower = 0usize;
    for c in word.chars() {
        let info = info(c);
        total += info.cost;
        // Two or more symbols between letters, one not ASCII: "Ã¢â‚¬â„¢",
        // "á»‘", "á»?" (a "?" for a byte a decoder lost).
        let odd = matches!(
            info.kind,
            Kind::Quote | Kind::Dash | Kind::Symbol | Kind::Strange | Kind::Format
        );
        if (odd && !c.is_ascii()) || c == '?' {
            if seen_letter {
                odd_run += 1;
                odd_non_ascii |= !c.is_ascii();
            }
        } else {
            if info.kind == Kind::Letter && odd_run >= 2 && odd_non_ascii {
                total += 1.5 * small((odd_run - 1) as usize);
            }
            odd_run = 0;
            odd_non_ascii = false;
            seen_letter = info.kind == Kind::Letter || info.kind == Kind::Digit;
        }
        if info.kind == Kind::Letter {
            match info.script {
                Script::Latin if !c.is_ascii() => {
                    latin &= info.languages;
                    other_lower += usize::from(info.lower && c != 'ß');
                    run += 1;
                    if run >= 3 {
                        total += 1.5;
                    }
                }
                Script::Cyrillic => cyrillic &= info.languages,
                script if script.is_cjk() => {
                    cjk.add(c, script);
                    match script {
                        Script::Han => han += 1,
                        Script::Kana => kana += 1,
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        if !(info.kind == Kind::Letter && info.script == Script::Latin && !c.is_ascii()) {
            run = 0;
        }
        if previous.is_none() && info.kind == Kind::Mark {
            // A combining mark with nothing to combine with.
            total += 2.5;
        }
        if let Some(previous) = previous {
            // A currency sign before a number is ordinary: "£40", "€5".
            if info.kind == Kind::Digit && is_currency_sign(previous_char) {
                total -= previous.cost;
            }
            // A symbol repeated ("★★★", "••") is one mark drawn again.
            if !(c == previous_char && info.kind == Kind::Symbol) {
                total += pair_cost(previous, info);
            }
            // A letter of one kind between two of another: "Garc铆a", "辿t辿".
            if let Some(before) = before_previous
                && before.kind == Kind::Letter
                && previous.kind == Kind::Letter
                && info.kind == Kind::Letter
                && before.script.is_cjk() == info.script.is_cjk()
                && before.script.is_cjk() != previous.script.is_cjk()
            {
                total += 2.0;
            }
            // Each of these follows a capital or a symbol outside ASCII.
            if !previous_char.is_ascii()
                && (previous.upper || matches!(previous.kind, Kind::Symbol | Kind::Quote))
            {
                total += after_non_ascii(
                    (before_previous, before_previous_char),
                    (previous, previous_char),
                    (info, c),
                );
            }
            // A "?" inside a word next to a letter that is not ASCII: a
            // byte that a decoder could not decode.
            if let Some(before) = before_previous
                && previous.kind == Kind::AsciiPunct
                && previous_char == '?'
                && before.kind == Kind::Letter
                && info.kind == Kind::Letter
                && !(is_ascii_letter(before) && is_ascii_letter(info))
            {
                total += 2.5;
            }
            // A quote or dash between two letters, one of them not ASCII:
            // "don’t" is fine, "Ã¢â‚¬â„¢" is not.
            if let Some(before) = before_previous
                && matches!(previous.kind, Kind::Quote | Kind::Dash)
                && before.kind == Kind::Letter
                && info.kind == Kind::Letter
                && !(is_ascii_letter(before) && is_ascii_letter(info))
            {
                total += 1.0;
            }
            // Quotation marks open and close words; between two letters
            // ("quyá»n", "NoÃ«l") they are bytes of a sequence. (Apostrophes
            // are letters' neighbours: "don’t", "O‘zbek".)
            if let Some(before) = before_previous
                && is_quotation_mark(previous_char)
                && before.kind == Kind::Letter
                && info.kind == Kind::Letter
            {
                total += QUOTATION_MARK_INSIDE;
            }
        }
        // A small ya, yu or yo ends a syllable begun by a kana of the i
        // column ("きゅ", "ニュ"): after anything else it is no Japanese
        // ("いゅ" is EUC-JP made of Big5's "中文").
        if is_small_ya_yu_yo(c) && !is_i_column_kana(previous_char) {
            total += SMALL_KANA_ALONE;
        }
        before_previous = previous;
        previous = Some(info);
        before_previous_char = previous_char;
        previous_char = c;
    }
    if latin == 0 {
        total += 2.5;
    }
    if cyrillic == 0 {
        total += 2.5;
    }
    // A word ending in a letter outside ASCII and a symbol outside ASCII
    // ("vá»", which lost its last byte).
    if let (Some(last), Some(before)) = (previous, before_previous)
        && matches!(last.kind, Kind::Quote | Kind::Symbol | Kind::Strange)
        && !previous_char.is_ascii()
        && before.kind == Kind::Letter
        && before.lower
        && !is_ascii_letter(before)
    {
        total += 0.8;
    }
    total += THREE_BYTE_SHAPE * small(three_byte_shapes(word) + cut_punctuation_shapes(word));
    if other_lower > 0 {
        total += caps_with_lower(word, other_lower);
    }
    cjk.add_han_run(han, kana);
    // A capital that leads mojibake, alone: no language has "Ã" or "Â" as
    // a word, and "Ã" before a space is "à" whose no-break space was lost.
    let mut chars = word.chars();
    if let (Some(only), None) = (chars.next(), chars.next()) {
        let info = info(only);
        if info.kind == Kind::Letter
            && info.upper
            && info.script == Script::Latin
            && info.cost >= 0.6
        {
            total += LONE_LEAD;
        }
    }
    total + QUESTION_IN_SEQUENCE * small(questions_in_sequences(word)) + cjk.best()
}

/// What a "?" costs where a UTF-8 sequence read as windows-1252 has a lost
/// continuation byte: after a lead byte's character, before a letter
/// ("CZÅ?OWIEKA", "Å?" for "Ł", C5 81).
const QUESTION_IN_SEQUENCE: f32 = 3.0;

/// How many times `word` holds "?" between a character that windows-1252
/// and ISO-8859-1 make of a UTF-8 lead byte ("Â" to "ô", 0xC2 to 0xF4) and
/// a letter.
fn questions_in_sequences(word: &str) -> usize {
    if !word.contains('?') {
        return 0;
    }
    let mut count = 0;
    let (mut before, mut last) = (None, None);
    for c in word.chars() {
        if let (Some(lead), Some('?')) = (before, last)
            && ('\u{C2}'..='\u{F4}').contains(&lead)
            && c.is_alphabetic()
        {
            count += 1;
        }
        (before, last) = (last, Some(c));
    }
    count
}

/// How many times `word` holds a letter from "à" to "ï" followed by two
/// characters that were bytes 0x80 to 0xBF in windows-1252, not both
/// letters: a three-byte UTF-8 sequence read as windows-1252 ("â”€" for
/// "─", "â€“" for "–"), which no language writes. ("ä»¶" and "é»…" are
/// rarer than the many Han and kana read so.) A byte order mark read so
/// ("ï»¿") is not counted: it is undone at the start of a text, and is an
/// invisible character elsewhere.
fn three_byte_shapes(word: &str) -> usize {
    let continuation = |c: char| {
        super::misread_byte(c).is_some_and(|byte| (0x80..=0xBF).contains(&byte)) && !c.is_ascii()
    };
    let mut found = 0;
    let mut chars = word.chars();
    while let Some(c) = chars.next() {
        if !('\u{E0}'..='\u{EF}').contains(&c) {
            continue;
        }
        let mut ahead = chars.clone();
        if let (Some(first), Some(second)) = (ahead.next(), ahead.next())
            && continuation(first)
            && continuation(second)
            && (info(first).kind != Kind::Letter || info(second).kind != Kind::Letter)
            && (c, first, second) != ('ï', '»', '¿')
        {
            found += 1;
            chars = ahead;
        }
    }
    found
}

/// How many times `word` holds "â" (E2, the lead of UTF-8's punctuation,
/// currency signs, arrows and symbols) followed by one sign that was a
/// byte 0x80 to 0xBF in windows-1252 and then no other such character: a
/// three-byte sequence whose middle byte a reader dropped ("â€" for "”",
/// "50â¬" for "50€", "âº" for "☺"). No language writes "â" before a
/// sign. (Other leads are left: "là»" closes a French quotation.)
fn cut_punctuation_shapes(word: &str) -> usize {
    let continuation = |c: char| {
        super::misread_byte(c).is_some_and(|byte| (0x80..=0xBF).contains(&byte)) && !c.is_ascii()
    };
    let sign = |c: char| info(c).kind != Kind::Letter || matches!(c, 'ª' | 'º');
    let chars: Vec<char> = word.chars().collect();
    chars
        .windows(2)
        .enumerate()
        .filter(|&(index, pair)| {
            pair[0] == 'â'
                && continuation(pair[1])
                && sign(pair[1])
                && !chars.get(index + 2).is_some_and(|&next| continuation(next))
        })
        .count()
}

/// Whether `c` is a quotation mark outside ASCII that no word holds
/// between two of its letters.
fn is_quotation_mark(c: char) -> bool {
    matches!(c, '«' | '»' | '“' | '”' | '„' | '‹' | '›')
}

/// What a quotation mark between two letters costs.
const QUOTATION_MARK_INSIDE: f32 = 2.5;

/// What a three-byte UTF-8 sequence read as windows-1252 adds to a word's
/// cost ([`three_byte_shapes`]).
const THREE_BYTE_SHAPE: f32 = 3.0;

/// What a small ya, yu or yo costs where no syllable takes it.
const SMALL_KANA_ALONE: f32 = 2.5;

/// Whether `c` is a small ya, yu or yo, in hiragana or katakana.
fn is_small_ya_yu_yo(c: char) -> bool {
    matches!(c, 'ゃ' | 'ゅ' | 'ょ' | 'ャ' | 'ュ' | 'ョ' | 'ｬ' | 'ｭ' | 'ｮ')
}

/// Whether `c` is a kana of the i column (ki, shi, chi, ni, hi, mi, ri and
/// their voiced forms), which a small ya, yu or yo may follow.
fn is_i_column_kana(c: char) -> bool {
    matches!(
        c,
        'き' | 'ぎ' | 'し' | 'じ' | 'ち' | 'ぢ' | 'に' | 'ひ' | 'び' | 'ぴ' | 'み' | 'り'
            | 'キ' | 'ギ' | 'シ' | 'ジ' | 'チ' | 'ヂ' | 'ニ' | 'ヒ' | 'ビ' | 'ピ' | 'ミ' | 'リ'
            | 'ｷ' | 'ｼ' | 'ﾁ' | 'ﾆ' | 'ﾋ' | 'ﾐ' | 'ﾘ' | 'ﾞ' | 'ﾟ'
            // Loanwords: "テュ", "デュ", "フュ", "ヴュ".
            | 'テ' | 'デ' | 'フ' | 'ヴ'
    )
}

/// What `c` costs after `previous` and `before` (of which `previous` is
/// outside ASCII) when they make a letter of the wrong case or a lead byte
/// misread by macintosh.
fn after_non_ascii(
    (before, before_char): (Option<Info>, char),
    (previous, previous_char): (Info, char),
    (info, c): (Info, char),
) -> f32 {
    let mut total = 0.0;
    // A capital outside ASCII between a capital and a lower-case letter:
    // "TÊalainne" is "Téalainne" read through the wrong page, as "knÊz"
    // would be.
    if previous.upper
        && info.lower
        && previous.kind == Kind::Letter
        && info.kind == Kind::Letter
        && info.script == previous.script
        && before.is_some_and(|before| before.kind == Kind::Letter && before.upper)
    {
        total += CAPITAL_BEFORE_LOWER;
    }
    // A symbol that macintosh reads a UTF-8 lead byte as, between a letter
    // and a letter outside ASCII ("Cura√ßao", "knje≈æniske", "Pavkoviƒá").
    if !c.is_ascii()
        && info.kind == Kind::Letter
        && let Some(before) = before
        && before.kind == Kind::Letter
        && (matches!(previous_char, '¬' | '√' | 'ƒ' | '≈' | '∆' | '÷' | '◊' | '⁄')
            // 0xC9, before what becomes "ɔ", "ɛ", "ə": between Latin
            // letters only ("それは…あ" is Japanese).
            || (previous_char == '…'
                && before.script == Script::Latin
                && info.script == Script::Latin))
    {
        total += SYMBOL_BEFORE_LETTER;
    }
    // "‚Ä" and a character outside ASCII: the general punctuation read as
    // macintosh ("‚Äô" for "’", "‚Äî" for "—"). (A German single quote
    // before "Ä" is followed by a letter of ASCII: "‚Ärger‘".)
    if before_char == '‚' && previous_char == 'Ä' && !c.is_ascii() {
        total += MACINTOSH_PUNCTUATION;
    }
    total
}

/// What the `lower` lower-case Latin letters outside ASCII of `word` cost
/// in a word of Latin capitals (`SAUDë` is "SAUDÍ" read through the wrong
/// page): nothing if it has fewer than two, or lower-case letters of ASCII.
/// (Cyrillic words of capitals take endings: `АКШнын`.)
fn caps_with_lower(word: &str, lower: usize) -> f32 {
    let mut capitals = 0;
    for c in word.chars() {
        let info = info(c);
        if info.kind == Kind::Letter && info.script == Script::Latin {
            if info.lower && c.is_ascii() {
                return 0.0;
            }
            capitals += usize::from(info.upper);
        }
    }
    if capitals >= 2 {
        CAPS_WITH_LOWER * small(lower)
    } else {
        0.0
    }
}

/// What a symbol macintosh reads a UTF-8 lead byte as costs between a
/// letter and a letter outside ASCII.
const SYMBOL_BEFORE_LETTER: f32 = 1.5;

/// What "‚Ä" costs before a character outside ASCII.
const MACINTOSH_PUNCTUATION: f32 = 3.0;

/// What a capital outside ASCII costs between a capital and a lower-case
/// letter, as much as case flipping inside a word.
const CAPITAL_BEFORE_LOWER: f32 = 2.5;

/// What each lower-case letter outside ASCII costs in a word of capitals.
const CAPS_WITH_LOWER: f32 = 1.5;

/// What a lone capital that leads mojibake costs as a word.
const LONE_LEAD: f32 = 2.0;

/// Whether `c` is outside ASCII and no common letter: a symbol, or a
/// letter that few languages write ("å", "ř", "ĝ"), as opposed to "é",
/// "ü", "ñ" or "à", which many do.
pub(crate) fn is_uncommon(c: char) -> bool {
    if c.is_ascii() {
        return false;
    }
    let info = info(c);
    info.kind != Kind::Letter || (info.languages != ANY && info.languages.count_ones() <= 4)
}

/// What a trademark sign ending a name costs ("Core™", "Intel®").
const TRADEMARK_SIGN: f32 = 0.3;

/// `word` without the trademark signs that end it, and how many there were.
/// A sign after a name is ordinary ("AHÅ™", "Intel®"); after a lower-case
/// letter and a capital outside ASCII it is mojibake ("siÄ™" for "się",
/// 0x99 being "™" in windows-1252), and it stays.
fn without_trademark_signs(word: &str) -> (&str, usize) {
    let name = word.trim_end_matches(['™', '®', '℠']);
    let marks = word[name.len()..].chars().count();
    if marks == 0 {
        return (word, 0);
    }
    let mut last = name.chars().rev();
    let Some(before) = last.next() else {
        return (word, 0);
    };
    let before_info = info(before);
    let flipped =
        before_info.upper && !before.is_ascii() && last.next().is_some_and(|c| info(c).lower);
    if flipped || !matches!(before_info.kind, Kind::Letter | Kind::Digit) {
        return (word, 0);
    }
    (name, marks)
}

/// The script most letters of `text` are in, if it has letters.
pub(crate) fn dominant_script(text: &str) -> Option<Script> {
    let mut counts: Vec<(Script, usize)> = Vec::new();
    for c in text.chars() {
        let info = info(c);
        if info.kind != Kind::Letter {
            continue;
        }
        // Chinese and Japanese share Han; kana goes with it.
        let script = if info.script == Script::Kana {
            Script::Han
        } else {
            info.script
        };
        match counts.iter_mut().find(|(known, _)| *known == script) {
            Some((_, count)) => *count += 1,
            None => counts.push((script, 1)),
        }
    }
    counts
        .into_iter()
        .max_by_key(|&(_, count)| count)
        .map(|(script, _)| script)
}

/// What a line costs for each space with Han or kana on both sides:
/// Chinese and Japanese do not put spaces between words, so such a space is
/// a sign that Korean was decoded as one of them.
pub(crate) const HAN_SPACE: f32 = 1.5;

/// Extra cost of a whole line as a repair would leave it: [`HAN_SPACE`] for
/// each space with Han or kana on both sides. The repair counts only the
/// spaces its words touch; this is the whole-line definition they are
/// tested against.
#[cfg(test)]
pub(crate) fn line_cost(line: &str) -> f32 {
    let bytes = line.as_bytes();
    let mut total = 0.0;
    for (index, &byte) in bytes.iter().enumerate() {
        if byte == b' ' && ends_with_han_or_kana(&bytes[..index]) {
            let next = &line[index + 1..];
            if next.chars().next().is_some_and(is_han_or_kana) {
                total += HAN_SPACE;
            }
        }
    }
    total
}

pub(crate) fn is_han_or_kana(c: char) -> bool {
    // Han and kana are all from U+3000 up: the table is not needed below.
    u32::from(c) >= 0x3000 && matches!(info(c).script, Script::Han | Script::Kana)
}

/// Whether the UTF-8 `bytes` end with a Han character or kana.
pub(crate) fn ends_with_han_or_kana(bytes: &[u8]) -> bool {
    // From U+3000 up a character takes three bytes or more in UTF-8, with a
    // lead byte from 0xE3 up: text in other scripts is turned down by its
    // last byte or the lead byte before it.
    let Some(lead) = bytes
        .iter()
        .rev()
        .take(4)
        .position(|&byte| !(0x80..0xC0).contains(&byte))
    else {
        return false;
    };
    let start = bytes.len() - 1 - lead;
    if lead < 2 || bytes[start] < 0xE3 {
        return false;
    }
    std::str::from_utf8(&bytes[start..])
        .ok()
        .and_then(|tail| tail.chars().next())
        .is_some_and(is_han_or_kana)
}

/// The languages that write a text's letters: those its Latin letters
/// outside ASCII share, and those its Cyrillic letters share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Alphabet {
    latin: orthography::Languages,
    cyrillic: orthography::Languages,
}

impl Alphabet {
    /// The alphabet of no letters: every language writes it.
    pub(crate) const ANY: Self = Self {
        latin: ANY,
        cyrillic: ANY,
    };

    pub(crate) fn of(text: &str) -> Self {
        let mut alphabet = Self::ANY;
        for c in text.chars().filter(|c| !c.is_ascii()) {
            alphabet.add(info(c));
        }
        alphabet
    }

    /// Adds a character beyond ASCII, given its [`Info`].
    pub(crate) fn add(&mut self, info: Info) {
        if info.kind == Kind::Letter {
            match info.script {
                Script::Latin => self.latin &= info.languages,
                Script::Cyrillic => self.cyrillic &= info.languages,
                _ => {}
            }
        }
    }

    /// The letters of both texts together.
    pub(crate) fn and(self, other: Self) -> Self {
        Self {
            latin: self.latin & other.latin,
            cyrillic: self.cyrillic & other.cyrillic,
        }
    }

    /// Whether some language writes every Latin letter of the text.
    pub(crate) fn has_latin_language(self) -> bool {
        self.latin != 0
    }

    /// Extra cost of the words one chain repaired in a line, taken together:
    /// they should be letters of one language, as a word's are (a Lithuanian
    /// line does not hold an Esperanto "ĝ").
    pub(crate) fn cost(self) -> f32 {
        let mut total = 0.0;
        if self.latin == 0 {
            total += 2.5;
        }
        if self.cyrillic == 0 {
            total += 2.5;
        }
        total
    }
}

/// What a word brings to the cost of its line ([`HAN_SPACE`], [`Alphabet`])
/// wherever it is put.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WordFacts {
    pub(crate) alphabet: Alphabet,
    /// Whether it starts with Han or kana.
    pub(crate) starts_han_or_kana: bool,
    /// Whether it ends with Han or kana.
    pub(crate) ends_han_or_kana: bool,
    /// Whether it holds a character from U+3000 up (Han, kana, Hangul and
    /// more): a line's [`HAN_SPACE`]s are counted again only when a repair
    /// brings such a word.
    pub(crate) has_cjk_range: bool,
}

impl WordFacts {
    pub(crate) fn of(word: &str) -> Self {
        Self {
            alphabet: Alphabet::of(word),
            starts_han_or_kana: word.chars().next().is_some_and(is_han_or_kana),
            ends_han_or_kana: ends_with_han_or_kana(word.as_bytes()),
            has_cjk_range: word.bytes().any(|byte| byte >= 0xE3),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn assert_plausible(word: &str) {
        let cost = word_cost(word);
        assert!(cost < 2.0, "{word}: {cost}");
    }

    #[track_caller]
    fn assert_implausible(word: &str) {
        let cost = word_cost(word);
        assert!(cost >= 4.0, "{word}: {cost}");
    }

    #[test]
    fn correct_words_cost_little() {
        for word in [
            "été",
            "ÉTÉ",
            "CRÉÉ",
            "SÃO",
            "IRMÃ",
            "Москва",
            "МОСКВА",
            "Ελληνικά",
            "日本語",
            "明日の朝",
            "대한민국",
            "中华人民共和国",
            "中華民國",
            "naïve",
            "façade",
            "Øresund",
            "Việt",
            "ÞÓRÐUR",
            "don’t",
            "12°C",
            "Apple™",
            "😀",
            "שלום",
            "العربية",
            "ภาษาไทย",
            "हिन्दी",
            "Tシャツ",
            "きょう",
            "ニュース",
            "コンピューター",
            "デュエット",
            "iPhone",
        ] {
            assert_plausible(word);
        }
    }

    #[test]
    fn mojibake_costs_much() {
        for word in [
            "Ã©tÃ©",
            "cafÃ©",
            "РњРѕСЃРєРІР°",
            "æ—¥æœ¬èªž",
            "–¾“ú‚Ì’©",
            "ïðèâåò",
            "п©я─п╦п╡п╣я┌",
            "Î•Î»Î»Î·Î½Î¹ÎºÎ¬",
            "ƒeƒXƒg",
            "Ã\u{81}",
            "Za¿ó³æ",
        ] {
            assert_implausible(word);
        }
    }

    #[test]
    fn the_shortcuts_know_what_is_worked_out() {
        for c in ('\0'..=char::MAX).step_by(7).chain('\u{4E00}'..='\u{9FFF}') {
            assert_eq!(info(c), compute_info(c), "{c:?}");
        }
    }

    #[test]
    fn korean_read_as_chinese_is_spaced_like_korean() {
        assert!(line_cost("대한민국 만세") < f32::EPSILON);
        assert!(line_cost("中国 人民") > 0.0);
    }

    #[test]
    fn line_cost_counts_each_space_between_han_or_kana() {
        for (line, spaces) in [
            ("中国 人民", 1.0),
            ("中 人 民", 2.0),
            ("カナ ひらがな 漢字", 2.0),
            ("中  人", 0.0),
            ("中 a 人", 0.0),
            ("é 中", 0.0),
            ("中 é", 0.0),
            ("中\u{3000}人", 0.0),
            ("대한 만세", 0.0),
            ("中 𠀀", 1.0),
            (" 中 ", 0.0),
            ("", 0.0),
        ] {
            assert!(
                (line_cost(line) - 1.5 * spaces).abs() < f32::EPSILON,
                "{line}: {}",
                line_cost(line)
            );
        }
    }
}
