//! Recognising UTF-16 without a byte order mark. Detection names it first
//! when the bytes are UTF-16; the standard's Browser UI section asks that
//! UTF-16BE/LE not be offered to override a decode, so a chooser takes the
//! best override choice instead.

use std::ops::Range;

use mojiscope_indexes::language::{self, CharClass, Script};

use crate::decoder::{BomHandling, DecodeErrorMode, Decoder};
use crate::encoding::{Encoding, UTF_16BE, UTF_16LE};
use crate::provenance::{ByteSpan, DecodeErrorKind, DecodeSink, SkipReason};

/// Below this many bytes the byte pattern says too little.
const MIN_BYTES: usize = 16;

/// The UTF-16 encoding the sample looks like, if it looks like one: the
/// high byte of each code unit is mostly zero (Latin text) or mostly one
/// value of a script's block (Cyrillic, Greek, ...), where the low byte
/// varies, and the sample decodes in that byte order with few errors.
///
/// The second member says whether the byte pattern shows it (strong
/// evidence), or only that the decode reads as text: then the language
/// models must still prefer it to every other decode.
pub(crate) fn looks_like(
    bytes: &[u8],
    windows: &[Range<usize>],
) -> Option<(&'static Encoding, bool)> {
    let units = UnitBytes::count(bytes, windows);
    by_byte_pattern(bytes, windows, &units)
        .map(|encoding| (encoding, true))
        .or_else(|| by_text(bytes, windows, &units).map(|encoding| (encoding, false)))
}

/// The bytes of the windows' code units (which start at even offsets of
/// the input), by their place in the unit.
struct UnitBytes {
    /// How often each byte value is a unit's first byte (`[0]`) and its
    /// second (`[1]`).
    counts: [[u32; 256]; 2],
    /// The bytes the windows end with after their last whole unit.
    odd_ends: Vec<u8>,
    /// How many whole units there are.
    units: usize,
}

impl UnitBytes {
    fn count(bytes: &[u8], windows: &[Range<usize>]) -> Self {
        let mut counts = [[0u32; 256]; 2];
        let mut odd_ends = Vec::new();
        let mut units = 0;
        for window in unit_windows(windows) {
            let mut pairs = bytes[window].chunks_exact(2);
            for unit in &mut pairs {
                counts[0][usize::from(unit[0])] += 1;
                counts[1][usize::from(unit[1])] += 1;
                units += 1;
            }
            odd_ends.extend_from_slice(pairs.remainder());
        }
        Self {
            counts,
            odd_ends,
            units,
        }
    }

    /// How many units of `encoding` (UTF-16BE or UTF-16LE) have a high
    /// byte that no text-like character has ([`TEXT_HIGH_BYTES`]): each
    /// decodes to a character that is not text-like.
    fn not_text(&self, encoding: &'static Encoding) -> u64 {
        let high = &self.counts[usize::from(encoding == UTF_16LE)];
        (0..256)
            .filter(|&b| !TEXT_HIGH_BYTES[b])
            .map(|b| u64::from(high[b]))
            .sum()
    }
}

/// The high bytes of the code units that are text-like characters
/// ([`is_text_like_fast`]), and of the surrogates (which may pair into
/// one): a unit with any other high byte is a character of the Basic
/// Multilingual Plane that is not text-like. A test finds them again from
/// every code unit.
static TEXT_HIGH_BYTES: [bool; 256] = {
    let mut set = [false; 256];
    let mut high = 0;
    while high < 256 {
        set[high] = matches!(
            high,
            0x00..=0x07 | 0x0E | 0x1E..=0x21 | 0x30..=0x31 | 0x4E..=0x9F | 0xAC..=0xDF | 0xFB..=0xFF
        );
        high += 1;
    }
    set
};

/// Below this many code units the decoded text says too little.
const MIN_UNITS: u64 = 8;

/// The share of code units that must decode to text-like characters.
const TEXT_SHARE: f64 = 0.9;

/// UTF-16 whose high bytes are not steady (Chinese, Korean, Japanese): the
/// byte order in which the sample decodes without error to text-like
/// characters only (ASCII, common ideographs and syllables, letters of the
/// known scripts, punctuation), if exactly one does. Bytes in any other
/// encoding read as UTF-16 give rare ideographs, private-use characters and
/// unpaired surrogates.
fn by_text(bytes: &[u8], windows: &[Range<usize>], units: &UnitBytes) -> Option<&'static Encoding> {
    let reads = |encoding| reads_as_text(encoding, bytes, windows, units, TEXT_SHARE);
    match (reads(UTF_16LE), reads(UTF_16BE)) {
        (true, false) => Some(UTF_16LE),
        (false, true) => Some(UTF_16BE),
        _ => None,
    }
}

/// Counts decoded characters that text is made of, others, and errors.
#[derive(Default)]
struct TextLike {
    text: u64,
    other: u64,
    errors: u64,
}

/// Whether `c` is a character text is made of: ASCII but the controls,
/// a common Han ideograph or Hangul syllable, a letter of another of the
/// known scripts, punctuation.
fn is_text_like(c: char) -> bool {
    if c.is_ascii() {
        !language::is_implausible(c)
    } else if matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7A3}') {
        // What the match below makes of a Han ideograph or a Hangul
        // syllable (the language's own letters), told at once.
        language::is_common_ideograph_or_syllable(c)
    } else {
        match language::class_of(c, Script::Korean) {
            CharClass::OwnLetter | CharClass::Punctuation => true,
            CharClass::OtherLetter => language::script_of(c).is_some(),
            _ => false,
        }
    }
}

/// [`is_text_like`] told sooner: a letter of a known script is text when
/// it is no rare Han ideograph or Hangul syllable; a character of no known
/// script is text only as punctuation, and punctuation lies in a few
/// ranges: outside them (signs, letters of other scripts: much of what
/// bytes in another encoding read as UTF-16 give) the general lookup, slow
/// so far from ASCII, is not asked. A test checks every character against
/// [`is_text_like`].
fn is_text_like_fast(c: char) -> bool {
    if c.is_ascii() || matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7A3}') {
        return is_text_like(c);
    }
    // Blocks where no character is text-like (rare ideographs, the
    // syllabaries and letters of scripts without statistics, private use,
    // presentation forms): much of what two bytes of a double-byte
    // encoding read as UTF-16 give.
    if matches!(
        u32::from(c),
        0x3400..=0x4DFF | 0xA000..=0xABFF | 0xD7A4..=0xFB1C | 0xFE00..=0xFE6F | 0xFFA0..=0xFFFF
    ) {
        return false;
    }
    if language::is_implausible(c) {
        return false;
    }
    match language::script_of(c) {
        Some(Script::Chinese | Script::Korean) => language::is_common_ideograph_or_syllable(c),
        Some(_) => true,
        None => {
            matches!(
                u32::from(c),
                0xA0..=0xF7
                    | 0x37E..=0x387
                    | 0x55A..=0x6D4
                    | 0xE2F..=0xE5B
                    | 0x2000..=0x2122
                    | 0x3000..=0x303F
                    | 0xFF01..=0xFF65
            ) && language::class_of(c, Script::Korean) == CharClass::Punctuation
        }
    }
}

impl TextLike {
    fn note(&mut self, c: char) {
        let text = is_text_like_fast(c);
        if text {
            self.text += 1;
        } else {
            self.other += 1;
        }
    }
}

impl DecodeSink for TextLike {
    fn ascii(&mut self, run: &[u8], _start: u64) {
        for &b in run {
            self.note(char::from(b));
        }
    }
    fn scalar(&mut self, c: char, _span: ByteSpan) {
        self.note(c);
    }
    fn scalar_pair(&mut self, first: char, second: char, _span: ByteSpan) {
        self.note(first);
        self.note(second);
    }
    fn error(&mut self, _kind: DecodeErrorKind, _span: ByteSpan) {
        self.errors += 1;
    }
    fn skip(&mut self, _reason: SkipReason, _span: ByteSpan) {}
}

/// The byte pattern of UTF-16 in an alphabet: see [`looks_like`].
fn by_byte_pattern(
    bytes: &[u8],
    windows: &[Range<usize>],
    units: &UnitBytes,
) -> Option<&'static Encoding> {
    // Every byte by its parity in the input (an odd last byte is a unit's
    // first).
    let mut counts = units.counts;
    for &b in &units.odd_ends {
        counts[0][usize::from(b)] += 1;
    }
    let total = units.units * 2 + units.odd_ends.len();
    if total < MIN_BYTES {
        return None;
    }
    let half = super::to_f64((total / 2) as u64);
    let top = |parity: usize| {
        let (value, &n) = counts[parity]
            .iter()
            .enumerate()
            .max_by_key(|&(_, n)| *n)
            .expect("256 entries");
        (value, f64::from(n) / half)
    };
    let zero_share = |parity: usize| f64::from(counts[parity][0]) / half;
    let candidate = [(0, UTF_16BE), (1, UTF_16LE)]
        .into_iter()
        .find(|&(high, _)| {
            let low = 1 - high;
            let (value, share) = top(high);
            let script = is_script_block(value);
            let high_is_steady = (value == 0 && share >= 0.3)
                || (value != 0 && script && share >= 0.5)
                || (script && share >= 0.25 && zero_share(high) + share >= 0.6);
            high_is_steady && zero_share(low) <= 0.05
        })
        .map(|(_, encoding)| encoding)?;
    // The decode must read as text too (a line of "****" has steady high
    // bytes, and reads as U+2A2A signs).
    reads_as_text(candidate, bytes, windows, units, PATTERN_TEXT_SHARE).then_some(candidate)
}

/// Whether code units whose high byte is `high` are the letters of a
/// script's running text: U+0000 to U+1FFF (Latin, Greek, Cyrillic,
/// Hebrew, Arabic, Thai, ..., Vietnamese's precomposed letters) and U+3000
/// to U+33FF (kana, CJK punctuation, Hangul jamo). Not U+2000 to U+2FFF,
/// punctuation and signs, where no text stays: a high byte of 0x20 there
/// is a run of ASCII spaces (indented markup or code, read two bytes at a
/// time as "††††").
fn is_script_block(high: usize) -> bool {
    matches!(high, 0x00..=0x1F | 0x30..=0x33)
}

/// The share of code units that must decode to text-like characters when
/// the byte pattern shows UTF-16.
const PATTERN_TEXT_SHARE: f64 = 0.8;

/// Whether the sample decodes as `encoding` to text-like characters, at
/// least `share` of them, with no errors but surrogates cut by a window's
/// end.
fn reads_as_text(
    encoding: &'static Encoding,
    bytes: &[u8],
    windows: &[Range<usize>],
    units: &UnitBytes,
    share: f64,
) -> bool {
    let mut sink = TextLike::default();
    let unit_ranges = unit_windows(windows);
    let allowed_errors = windows.len() as u64 * 2;
    // Beyond this many characters that are not text, the share cannot be
    // reached: stop there. The high bytes alone may tell that no decode
    // can stay below it (most bytes of other encodings, read two by two,
    // are no text), as the decode would learn after hundreds of units.
    let unit_count: usize = unit_ranges.iter().map(|w| w.len().div_ceil(2)).sum();
    let allowed_others = (1.0 - share) * super::to_f64(unit_count as u64);
    if super::to_f64(units.not_text(encoding)) > allowed_others {
        return false;
    }
    for window in unit_ranges {
        let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
        for chunk in bytes[window].chunks(128) {
            let _ = decoder.decode(chunk, false, &mut sink);
            if sink.errors > allowed_errors
                || super::to_f64(sink.other + sink.errors) > allowed_others
            {
                return false;
            }
        }
        let _ = decoder.decode(&[], true, &mut sink);
    }
    let total = sink.text + sink.other + sink.errors;
    total >= MIN_UNITS
        && sink.errors <= windows.len() as u64 * 2
        && super::to_f64(sink.text) >= share * super::to_f64(total)
}

/// The windows with their starts moved to an even offset, where code
/// units start.
fn unit_windows(windows: &[Range<usize>]) -> Vec<Range<usize>> {
    windows
        .iter()
        .map(|w| (w.start + w.start % 2).min(w.end)..w.end)
        .collect()
}

/// What decoding the sample as `encoding` (UTF-16BE or UTF-16LE) shows.
pub(crate) fn stats(
    encoding: &'static Encoding,
    bytes: &[u8],
    windows: &[Range<usize>],
    chars: &mut super::text::Chars,
) -> super::text::TextStats {
    super::text::decode_stats(encoding, bytes, &unit_windows(windows), chars)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(text: &str, little_endian: bool) -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|unit| {
                if little_endian {
                    unit.to_le_bytes()
                } else {
                    unit.to_be_bytes()
                }
            })
            .collect()
    }

    fn check(bytes: &[u8]) -> Option<&'static Encoding> {
        let whole = 0..bytes.len();
        looks_like(bytes, &[whole]).map(|(encoding, _)| encoding)
    }

    #[test]
    fn recognises_both_byte_orders_in_several_scripts() {
        for text in [
            "The quick brown fox jumps over the lazy dog.",
            "Съешь же ещё этих мягких французских булок.",
            "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.",
            "いろはにほへと ちりぬるを わかよたれそ つねならむ",
        ] {
            assert_eq!(check(&utf16(text, true)), Some(UTF_16LE), "{text}");
            assert_eq!(check(&utf16(text, false)), Some(UTF_16BE), "{text}");
        }
    }

    #[test]
    fn ideographs_and_syllables_read_as_text_when_common() {
        for c in ('\u{4E00}'..='\u{9FFF}').chain('\u{AC00}'..='\u{D7A3}') {
            let class = language::class_of(c, Script::Korean);
            let general = matches!(class, CharClass::OwnLetter | CharClass::Punctuation);
            let mut fast = TextLike::default();
            fast.note(c);
            assert_eq!(fast.text == 1, general, "{c}");
            assert_ne!(class, CharClass::OtherLetter, "{c}");
        }
    }

    #[test]
    fn text_like_is_told_sooner_alike() {
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            assert_eq!(
                is_text_like_fast(c),
                is_text_like(c),
                "U+{:04X}",
                u32::from(c)
            );
        }
    }

    #[test]
    fn text_high_bytes_are_those_of_text_like_units_and_surrogates() {
        let mut high = [false; 256];
        for unit in 0..=0xFFFF_u32 {
            let text_like = char::from_u32(unit).is_none_or(is_text_like_fast);
            high[(unit >> 8) as usize] |= text_like;
        }
        assert_eq!(high, TEXT_HIGH_BYTES);
    }

    #[test]
    fn units_that_cannot_be_text_end_the_reading_at_once() {
        let page = "<p class=\"note\">日本語のテキストと漢字、ひらがな。</p>\n\
                    <li><a href=\"/wiki/検索\">検索する</a></li>\n";
        let texts = [
            (crate::SHIFT_JIS, page.repeat(20)),
            (
                crate::GBK,
                "<p>简体中文的文本，汉字和标点。</p>\n".repeat(20),
            ),
            (
                crate::EUC_KR,
                "<p>한국어 텍스트와 문장 부호.</p>\n".repeat(20),
            ),
            (
                crate::WINDOWS_1252,
                "<p>Déjà vu, naïve café.</p>\n".repeat(20),
            ),
        ];
        for (legacy, text) in texts {
            let (bytes, _, _) = legacy.encode(&text);
            let whole = 0..bytes.len();
            let windows = [whole];
            let units = UnitBytes::count(&bytes, &windows);
            let mut rejected = false;
            for encoding in [UTF_16BE, UTF_16LE] {
                let mut sink = TextLike::default();
                let mut decoder =
                    Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
                let _ = decoder.decode(&bytes, true, &mut sink);
                // Never more than the decode counts: the reading ends only
                // where it would have ended.
                let not_text = units.not_text(encoding);
                assert!(
                    not_text <= sink.other,
                    "{} as {}",
                    legacy.name(),
                    encoding.name()
                );
                rejected |= not_text * 10 > units.units as u64;
                assert!(!reads_as_text(
                    encoding, &bytes, &windows, &units, TEXT_SHARE
                ));
            }
            assert!(rejected, "{}", legacy.name());
        }
        // Text that is UTF-16 has no such units.
        let text = utf16(&"いろはにほへと 色は匂へど".repeat(40), true);
        let whole = 0..text.len();
        let units = UnitBytes::count(&text, &[whole]);
        assert_eq!(units.not_text(UTF_16LE), 0);
        assert_eq!(check(&text), Some(UTF_16LE));
    }

    #[test]
    fn other_text_is_not_utf16() {
        assert_eq!(check(b"The quick brown fox jumps over the lazy dog."), None);
        assert_eq!(check("Съешь же ещё этих мягких булок".as_bytes()), None);
        assert_eq!(check(&[0; 64]), None);
        assert_eq!(check(&utf16("short", true)), None);
    }
}
