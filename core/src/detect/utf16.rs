//! Recognising UTF-16 without a byte order mark. The standard's Browser UI
//! section asks that UTF-16BE/LE not be offered to override a decode, so this
//! only becomes a note.

use std::ops::Range;

use crate::decoder::{BomHandling, DecodeErrorMode, Decoder};
use crate::encoding::{Encoding, UTF_16BE, UTF_16LE};
use crate::provenance::ErrorCounter;

/// Below this many bytes the byte pattern says too little.
const MIN_BYTES: usize = 16;

/// The UTF-16 encoding the sample looks like, if it looks like one: the
/// high byte of each code unit is mostly zero (Latin text) or mostly one
/// value of a script's block (Cyrillic, Greek, ...), where the low byte
/// varies, and the sample decodes in that byte order with few errors.
pub(crate) fn looks_like(bytes: &[u8], windows: &[Range<usize>]) -> Option<&'static Encoding> {
    let mut counts = [[0u32; 256]; 2];
    let mut total = 0usize;
    for window in windows {
        // Code units start at even offsets of the input.
        let start = window.start + window.start % 2;
        for (position, &b) in bytes[start..window.end].iter().enumerate() {
            counts[position % 2][usize::from(b)] += 1;
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
            let high_is_steady = (value == 0 && share >= 0.3)
                || ((0x01..=0x33).contains(&value) && share >= 0.5)
                || (share >= 0.25 && zero_share(high) + share >= 0.6);
            high_is_steady && zero_share(low) <= 0.05
        })
        .map(|(_, encoding)| encoding)?;
    let mut errors = ErrorCounter::default();
    for window in windows {
        let start = window.start + window.start % 2;
        let mut decoder = Decoder::new(candidate, DecodeErrorMode::Replacement, BomHandling::None);
        let _ = decoder.decode(&bytes[start..window.end], true, &mut errors);
    }
    // Surrogates cut by a window's end are the only errors to forgive.
    (errors.errors <= windows.len() as u64 * 2).then_some(candidate)
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
        looks_like(bytes, &[whole])
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
    fn other_text_is_not_utf16() {
        assert_eq!(check(b"The quick brown fox jumps over the lazy dog."), None);
        assert_eq!(check("Съешь же ещё этих мягких булок".as_bytes()), None);
        assert_eq!(check(&[0; 64]), None);
        assert_eq!(check(&utf16("short", true)), None);
    }
}
