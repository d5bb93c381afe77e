//! Undoing "UTF-8 read as a single-byte encoding" when bytes were lost on
//! the way.
//!
//! Real decoders for windows-1252 and its kin have no character for a few
//! bytes (windows-1252's 0x81, 0x8D, 0x8F, 0x90 and 0x9D; all of 0x80 to
//! 0x9F for decoders that drop C1 controls). Such a byte becomes "?" or
//! U+FFFD, or vanishes. The rest of each damaged character survives: a lead
//! byte says how many continuation bytes follow, so a gap shows where a byte
//! went missing, and the set of bytes that could have been lost says what it
//! may have been. When exactly one byte fits, the character is recovered;
//! otherwise it becomes U+FFFD and the candidates are kept for the user.

use super::chain::{EncodeAs, LostBytes};
use super::restore::{self, Gap, Restoration};
use super::score;
use crate::BomHandling;
use crate::encoding::UTF_8;

/// A character that could not be recovered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lost {
    /// Where its U+FFFD is in the repaired text, as a UTF-8 offset.
    pub utf8_offset: usize,
    /// The characters it may have been, most plausible first (at most
    /// [`MAX_ALTERNATIVES`]).
    pub alternatives: Vec<char>,
}

/// The most alternatives kept for one lost character.
pub const MAX_ALTERNATIVES: usize = 16;

/// The most characters one word may lose in a lossy decode (a bound on the
/// work one word takes).
const MAX_LOST_PER_WORD: usize = 256;

/// One unit of the bytes a damaged text encodes back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    Byte(u8),
    /// A byte that was replaced by U+FFFD.
    Lost,
    /// A "?", which is a lost byte where a continuation byte is due and
    /// itself anywhere else.
    Question,
}

/// What a lossy decode made of a word.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct LossyDecode {
    pub(crate) text: String,
    pub(crate) lost: Vec<Lost>,
    /// Multi-byte characters decoded whole, with nothing missing.
    pub(crate) whole: usize,
    /// Characters rebuilt from a unique candidate for a missing byte.
    pub(crate) recovered: usize,
    /// Characters of three or four bytes that kept their lead and a
    /// continuation byte but lost another ("â€" for "”"): a lead byte
    /// followed by a continuation is UTF-8's shape, which a lone lead
    /// ("Ã" in "SÃO") is not.
    pub(crate) cut: usize,
    /// Lost characters whose one missing byte the word makes clear: what a
    /// change may restore, saying it guessed (see [`restore`]).
    pub(crate) restorations: Vec<Restoration>,
}

/// A soft hyphen's byte in windows-1252 and ISO-8859-1: the character is
/// invisible, and so is often dropped with the bytes a decoder lost.
const SOFT_HYPHEN_BYTE: u8 = 0xAD;

/// Undoes "UTF-8 read as `encode_as`" in `word`, allowing for the bytes
/// `encode_as`'s decoders lose. `None` if the word is not such mojibake: a
/// character that has no byte, a byte out of place, or a gap no lost byte
/// can fill.
pub(crate) fn decode(
    word: &str,
    encode_as: EncodeAs,
    lost_bytes: LostBytes,
) -> Option<LossyDecode> {
    let units = units(word, encode_as, lost_bytes)?;
    let continuations: Vec<u8> = lost_bytes
        .iter()
        .filter(|&byte| (0x80..=0xBF).contains(&byte))
        .collect();
    // A byte that vanished may also have been a soft hyphen, where the
    // reading makes one of 0xAD.
    let mut vanished = continuations.clone();
    if encode_as.decode_byte(SOFT_HYPHEN_BYTE) == Some('\u{AD}')
        && !vanished.contains(&SOFT_HYPHEN_BYTE)
    {
        vanished.push(SOFT_HYPHEN_BYTE);
    }
    // Where each unit starts in the word (one unit per character), and
    // where the word ends.
    let unit_offsets: Vec<usize> = word
        .char_indices()
        .map(|(offset, _)| offset)
        .chain(std::iter::once(word.len()))
        .collect();
    let mut gaps: Vec<Gap> = Vec::new();
    let mut result = LossyDecode::default();
    let mut index = 0;
    while let Some(&unit) = units.get(index) {
        let lead = match unit {
            Unit::Byte(byte) if byte.is_ascii() => {
                result.text.push(char::from(byte));
                index += 1;
                continue;
            }
            Unit::Question => {
                result.text.push('?');
                index += 1;
                continue;
            }
            Unit::Byte(byte @ 0xC2..=0xF4) => byte,
            // A continuation byte with no lead, a byte UTF-8 never uses, or
            // a lost lead: not mojibake this can undo.
            Unit::Byte(_) | Unit::Lost => return None,
        };
        let needed = match lead {
            0xC2..=0xDF => 1,
            0xE0..=0xEF => 2,
            _ => 3,
        };
        // The units that may continue the sequence.
        let mut taken = Vec::with_capacity(needed);
        while taken.len() < needed {
            match units.get(index + 1 + taken.len()) {
                Some(&Unit::Byte(byte @ 0x80..=0xBF)) => taken.push(Some(byte)),
                Some(Unit::Lost | Unit::Question) if !continuations.is_empty() => {
                    taken.push(None);
                }
                _ => break,
            }
        }
        let missing = needed - taken.len();
        let complete = missing == 0 && taken.iter().all(Option::is_some);
        if missing > 0 && taken.iter().any(Option::is_some) {
            result.cut += 1;
        }
        if !complete && continuations.is_empty() {
            return None;
        }
        let vanished = vanished_for(&taken, missing, &continuations, &vanished);
        let candidates = candidates(lead, &taken, missing, &continuations, vanished);
        match candidates.as_slice() {
            [] => return None,
            [c] => {
                result.text.push(*c);
                if complete {
                    result.whole += 1;
                } else {
                    result.recovered += 1;
                }
            }
            _ => {
                // A word that needs this many guesses is no mojibake worth
                // guessing at, and guessing takes time (each candidate is
                // judged).
                if result.lost.len() >= MAX_LOST_PER_WORD {
                    return None;
                }
                // Only a byte that vanished is restored: a mark ("?",
                // U+FFFD) is written by many decoders, for bytes of their
                // own, and does not say whose.
                let marked = taken.iter().any(Option::is_none);
                if missing == 1
                    && !marked
                    && let Some(offsets) = unit_offsets.get(index..=index + 1 + taken.len())
                {
                    gaps.push(Gap::new(
                        result.text.len(),
                        candidates.clone(),
                        lead,
                        taken.iter().flatten().copied().collect(),
                        offsets.to_vec(),
                    ));
                }
                let mut alternatives = candidates;
                // Costs are not negative: their bits order as they do.
                alternatives.sort_by_cached_key(|&c| (score::info(c).cost.to_bits(), c));
                alternatives.truncate(MAX_ALTERNATIVES);
                result.lost.push(Lost {
                    utf8_offset: result.text.len(),
                    alternatives,
                });
                result.text.push(char::REPLACEMENT_CHARACTER);
            }
        }
        index += 1 + taken.len();
    }
    order_and_restore(word, &mut result, &gaps, encode_as);
    Some(result)
}

/// Orders the candidates of each lost character of `result` (the decode of
/// `word` by `encode_as`) and works out which of `gaps` the word makes
/// clear enough to restore.
fn order_and_restore(word: &str, result: &mut LossyDecode, gaps: &[Gap], encode_as: EncodeAs) {
    // Among equally plausible candidates, the letters of the script of the
    // rest of the word first: the word is judged with each lost character
    // as its first candidate.
    let script = score::dominant_script(&result.text);
    for lost in &mut result.lost {
        lost.alternatives.sort_by_key(|&c| {
            let info = score::info(c);
            (
                info.cost.to_bits(),
                !(info.kind == score::Kind::Letter && Some(info.script) == script),
            )
        });
    }
    // A lost byte is restored only from the bytes the word shows its
    // reading loses: text that ISO-8859-1 taken byte for code point makes
    // too may have lost any C1 control, whatever reading is tried.
    let shows_reading = encode_as == EncodeAs::Isomorphic
        || word
            .chars()
            .any(|c| u32::from(c) > 0xFF && c != char::REPLACEMENT_CHARACTER);
    if shows_reading && restore::restores_for(encode_as) {
        result.restorations = restore::choose(&result.text, &result.lost, gaps, encode_as);
    }
}

/// The most U+FFFD a word may hold for [`decode_double_byte`]: each has five
/// candidates, and every combination is decoded.
const MAX_DOUBLE_BYTE_LOSSES: usize = 3;

/// Undoes "`decode_as` text read as windows-1252" in `word`, where the
/// reader wrote U+FFFD for the bytes windows-1252 leaves undefined (0x81,
/// 0x8D, 0x8F, 0x90, 0x9D: lead and trail bytes of Shift_JIS, GBK, Big5
/// and EUC-KR alike). Each U+FFFD is tried as each of them: the characters
/// every reading agrees on are kept, the others become U+FFFD with the
/// candidates. `None` if the word holds no U+FFFD (or too many), or no
/// reading decodes.
pub(crate) fn decode_double_byte(
    word: &str,
    decode_as: &'static crate::Encoding,
) -> Option<LossyDecode> {
    let encode_as = EncodeAs::Encoding(crate::WINDOWS_1252);
    let lost_bytes: Vec<u8> = encode_as.lost_bytes().iter().collect();
    let units = units(word, encode_as, encode_as.lost_bytes())?;
    let gaps: Vec<usize> = units
        .iter()
        .enumerate()
        .filter(|(_, unit)| **unit == Unit::Lost)
        .map(|(index, _)| index)
        .collect();
    if gaps.is_empty() || gaps.len() > MAX_DOUBLE_BYTE_LOSSES {
        return None;
    }
    let mut readings: Vec<Vec<char>> = Vec::new();
    let combinations = lost_bytes.len().pow(gaps.len() as u32);
    let mut bytes = Vec::with_capacity(units.len());
    for mut choice in 0..combinations {
        bytes.clear();
        for unit in &units {
            bytes.push(match *unit {
                Unit::Byte(byte) => byte,
                Unit::Question => b'?',
                Unit::Lost => {
                    let byte = lost_bytes[choice % lost_bytes.len()];
                    choice /= lost_bytes.len();
                    byte
                }
            });
        }
        if let Ok((text, _)) = decode_as.decode_fatal(&bytes, BomHandling::None) {
            readings.push(text.chars().collect());
        }
    }
    // The readings that split the bytes into characters as the first does.
    let first = readings.first()?.clone();
    readings.retain(|reading| reading.len() == first.len());
    let mut result = LossyDecode::default();
    for (index, &c) in first.iter().enumerate() {
        let mut candidates: Vec<char> = Vec::new();
        for reading in &readings {
            if !candidates.contains(&reading[index]) {
                candidates.push(reading[index]);
            }
        }
        if candidates.len() == 1 {
            result.text.push(c);
            result.whole += usize::from(!c.is_ascii());
        } else {
            candidates.truncate(MAX_ALTERNATIVES);
            result.lost.push(Lost {
                utf8_offset: result.text.len(),
                alternatives: candidates,
            });
            result.text.push(char::REPLACEMENT_CHARACTER);
        }
    }
    Some(result)
}

/// The bytes `word` encodes back to, with U+FFFD and "?" kept as such.
fn units(word: &str, encode_as: EncodeAs, lost_bytes: LostBytes) -> Option<Vec<Unit>> {
    let mut buffer = [0; 4];
    let mut units = Vec::with_capacity(word.len());
    for c in word.chars() {
        let unit = match c {
            '?' => Unit::Question,
            char::REPLACEMENT_CHARACTER if !lost_bytes.is_empty() => Unit::Lost,
            c if c.is_ascii() => Unit::Byte(c as u8),
            c => match encode_as {
                EncodeAs::Isomorphic => Unit::Byte(u8::try_from(u32::from(c)).ok()?),
                EncodeAs::DosCodePage(page) => Unit::Byte(page.encode_char(c)?),
                EncodeAs::Encoding(encoding) => {
                    match encoding.encode_fatal(c.encode_utf8(&mut buffer)).ok()?[..] {
                        [byte] => Unit::Byte(byte),
                        _ => return None,
                    }
                }
            },
        };
        units.push(unit);
    }
    Some(units)
}

/// The bytes that may have vanished from a sequence that kept `taken` after
/// its lead and lacks `missing` more: any of `vanished` (the reading's lost
/// bytes and a soft hyphen), but for a lead alone where two or more bytes
/// should follow, which lost them to the reading only (`continuations`),
/// never to a dropped soft hyphen as well: "à" (E0, whose next byte is A0
/// to BF) in a partly repaired "dÃ©jà" is a letter of its own, not E0 AD
/// and a lost byte.
fn vanished_for<'a>(
    taken: &[Option<u8>],
    missing: usize,
    continuations: &'a [u8],
    vanished: &'a [u8],
) -> &'a [u8] {
    if taken.is_empty() && missing >= 2 {
        continuations
    } else {
        vanished
    }
}

/// One unit of a sequence whose candidates are sought.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Byte(u8),
    /// A mark ("?" or U+FFFD) for a lost byte.
    Marked,
    /// A byte that left no trace.
    Vanished,
}

/// Every character `lead` can start when the unknown bytes (`None` in
/// `taken`, which are any of `continuations`, and `missing` more anywhere
/// among them, which are any of `vanished`) are filled in. Capped: a gap
/// with too many possibilities is simply lost.
fn candidates(
    lead: u8,
    taken: &[Option<u8>],
    missing: usize,
    continuations: &[u8],
    vanished: &[u8],
) -> Vec<char> {
    const MAX_SEQUENCES: usize = 4096;
    // Every way to place the missing bytes among the taken ones.
    let mut layouts: Vec<Vec<Slot>> = vec![
        taken
            .iter()
            .map(|unit| unit.map_or(Slot::Marked, Slot::Byte))
            .collect(),
    ];
    for _ in 0..missing {
        let mut next = Vec::new();
        for layout in &layouts {
            for position in 0..=layout.len() {
                let mut placed = layout.clone();
                placed.insert(position, Slot::Vanished);
                if !next.contains(&placed) {
                    next.push(placed);
                }
            }
        }
        layouts = next;
    }
    let mut found = Vec::new();
    let mut tried = 0_usize;
    for layout in layouts {
        let mut combinations = 1_usize;
        for slot in &layout {
            combinations = combinations.saturating_mul(match slot {
                Slot::Byte(_) => 1,
                Slot::Marked => continuations.len(),
                Slot::Vanished => vanished.len(),
            });
        }
        tried = tried.saturating_add(combinations);
        if tried > MAX_SEQUENCES {
            return Vec::new();
        }
        for mut choice in 0..combinations {
            let mut bytes = vec![lead];
            for slot in &layout {
                let choices = match slot {
                    Slot::Byte(byte) => {
                        bytes.push(*byte);
                        continue;
                    }
                    Slot::Marked => continuations,
                    Slot::Vanished => vanished,
                };
                bytes.push(choices[choice % choices.len()]);
                choice /= choices.len();
            }
            if let Ok((text, _)) = UTF_8.decode_fatal(&bytes, BomHandling::None)
                && let Some(c) = text.chars().next()
                && !found.contains(&c)
            {
                found.push(c);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{WINDOWS_1252, WINDOWS_1253};

    fn windows_1252() -> (EncodeAs, LostBytes) {
        let encode_as = EncodeAs::Encoding(WINDOWS_1252);
        (encode_as, encode_as.lost_bytes())
    }

    #[test]
    fn whole_mojibake_decodes_whole() {
        let (encode_as, lost) = windows_1252();
        let decoded = decode("Ã©tÃ©?", encode_as, lost).unwrap();
        assert_eq!(decoded.text, "été?");
        assert_eq!((decoded.whole, decoded.recovered), (2, 0));
        assert!(decoded.lost.is_empty());
    }

    #[test]
    fn a_lost_byte_with_several_candidates_is_marked() {
        let (encode_as, lost) = windows_1252();
        // "Í" is 0xC3 0x8D; windows-1252 decoders without 0x8D write "?".
        let decoded = decode("Ã?tÃ©", encode_as, lost).unwrap();
        assert_eq!(decoded.text, "\u{FFFD}té");
        assert_eq!(decoded.lost[0].utf8_offset, 0);
        let mut alternatives = decoded.lost[0].alternatives.clone();
        alternatives.sort_unstable();
        assert_eq!(alternatives, ['Á', 'Í', 'Ï', 'Ð', 'Ý']);
    }

    #[test]
    fn a_lost_byte_with_one_candidate_is_recovered() {
        // "અ" is 0xE0 0xAA 0x85. windows-1253 has no 0xAA, and of the bytes
        // its decoders lose only 0xAA may follow 0xE0.
        let encode_as = EncodeAs::Encoding(WINDOWS_1253);
        let decoded = decode("ΰ\u{FFFD}…", encode_as, encode_as.lost_bytes()).unwrap();
        assert_eq!(decoded.text, "અ");
        assert_eq!(decoded.recovered, 1);
        // After 0xC3, 0xAA ("ê") is one of many.
        let decoded = decode("Γ\u{FFFD}", encode_as, encode_as.lost_bytes()).unwrap();
        assert_eq!(decoded.text, "\u{FFFD}");
        assert!(decoded.lost[0].alternatives.contains(&'ê'));
    }

    #[test]
    fn dropped_c1_bytes_leave_gaps() {
        let encode_as = EncodeAs::Isomorphic;
        // "Straße" is "Stra\xC3\x9Fe"; 0x9F was dropped as a C1 control.
        let decoded = decode("StraÃe", encode_as, encode_as.lost_bytes()).unwrap();
        assert_eq!(decoded.text, "Stra\u{FFFD}e");
        assert_eq!(decoded.lost[0].alternatives.len(), MAX_ALTERNATIVES);
        // Without lost bytes, a gap is no mojibake.
        assert_eq!(decode("StraÃe", encode_as, LostBytes::default()), None);
        // A stray continuation byte never is.
        assert_eq!(decode("©", encode_as, encode_as.lost_bytes()), None);
    }

    #[test]
    fn a_word_of_guesses_is_judged_quickly() {
        // Found by fuzzing: 115 "ó" (0xF3, a lead of four bytes) read through
        // windows-1250, which loses five bytes: each lead has 125
        // candidates, which were judged again at every comparison of a sort.
        let encode_as = EncodeAs::Encoding(crate::WINDOWS_1250);
        let word = "ó".repeat(115);
        let decoded = decode(&word, encode_as, encode_as.lost_bytes()).unwrap();
        assert_eq!(decoded.lost.len(), 115);
        let word = "ó".repeat(MAX_LOST_PER_WORD + 1);
        assert_eq!(decode(&word, encode_as, encode_as.lost_bytes()), None);
        let text = format!("\0\0{word}\0»© c·++++++@Gand ");
        assert!(crate::repair::repair(&text).is_empty());
    }
}
