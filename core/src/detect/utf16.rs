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
    by_byte_pattern(bytes, windows)
        .map(|encoding| (encoding, true))
        .or_else(|| by_text(bytes, windows).map(|encoding| (encoding, false)))
}

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
fn by_text(bytes: &[u8], windows: &[Range<usize>]) -> Option<&'static Encoding> {
    let reads = |encoding| reads_as_text(encoding, bytes, windows, TEXT_SHARE);
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
fn by_byte_pattern(bytes: &[u8], windows: &[Range<usize>]) -> Option<&'static Encoding> {
    let mut counts = [[0u32; 256]; 2];
    let mut total = 0usize;
    for window in windows {
        // Code units start at even offsets of the input.
        let start = window.start + window.start % 2;
        let mut units = bytes[start..window.end].chunks_exact(2);
        for unit in &mut units {
            for (parity, &b) in unit.iter().enumerate() {
                counts[parity][usize::from(b)] += 1;
            }
        }
        for &b in units.remainder() {
            counts[0][usize::from(b)] += 1;
        }
        total += window.end.saturating_sub(start);
    }
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
    reads_as_text(candidate, bytes, windows, PATTERN_TEXT_SHARE).then_some(candidate)
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
    share: f64,
) -> bool {
    let mut sink = TextLike::default();
    let unit_ranges = unit_windows(windows);
    let allowed_errors = windows.len() as u64 * 2;
    // Beyond this many characters that are not text, the share cannot be
    // reached: stop there.
    let units: usize = unit_ranges.iter().map(|w| w.len().div_ceil(2)).sum();
    let allowed_others = (1.0 - share) * super::to_f64(units as u64);
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
    fn other_text_is_not_utf16() {
        assert_eq!(check(b"The quick brown fox jumps over the lazy dog."), None);
        assert_eq!(check("Съешь же ещё этих мягких булок".as_bytes()), None);
        assert_eq!(check(&[0; 64]), None);
        assert_eq!(check(&utf16("short", true)), None);
    }
}
