//! UTF-8 read as ISO-8859-1 twice, by a reader that dropped the C1
//! controls the second time: "cafÃÂ©" for "café".
//!
//! "é" is C3 A9 in UTF-8; read as ISO-8859-1 it is "Ã©"; that text in
//! UTF-8 is C3 83 C2 A9, which read as ISO-8859-1 again is "Ã\u{83}Â©".
//! Software that drops C1 controls leaves "ÃÂ©". Every character of the
//! first reading between U+00C0 and U+00DF (the lead bytes of two-byte
//! sequences) loses its second byte that way, so the byte that said which
//! lead it was is gone: "ÃÂ©" may have been "é" (C3 A9), "ĩ" (C4 A9), "ũ"
//! (C5 A9), "Щ" (D0 A9) or any of 30 characters. The continuation byte
//! survives ("©" is A9), and the rest of the word says which lead fits:
//! "caf" makes "café" likelier than "cafЩ", and C3 (Latin-1's letters)
//! is by far the commonest lead of such text ([`OTHER_LEAD`]). The lead is
//! restored where one candidate is clearly best ([`restore`]), and the
//! change says it guessed: the dropped C1 control is its [`Assumption`].
//! Elsewhere the character stays U+FFFD with its candidates.
//!
//! Only that shape is undone: a lead whose continuation byte was dropped
//! too ("ÃÂ" alone, for "É" or "ß": two bytes lost), or a longer sequence
//! that lost a continuation byte, leaves too little to go on.

use super::Assumption;
use super::lossy::{LossyDecode, Lost, MAX_ALTERNATIVES};
use super::restore::{self, Restoration};
use super::score::{self, Kind};

/// What the second reading made of a lead byte whose C1 control it dropped:
/// "Ã" (U+00C3), the first byte of every character from U+00C0 to U+00FF
/// in UTF-8.
const LEAD_MARK: char = '\u{C3}';
/// What it made of a continuation byte of the first reading: "Â" (U+00C2),
/// then the byte itself when it is no C1 control.
const CONTINUATION_MARK: char = '\u{C2}';

/// What a lead byte other than C3 costs before the word is looked at.
/// The text read twice this way is nearly always Western European: a lead
/// whose continuation byte is 0xA0 or above and was kept makes a letter of
/// Latin-1 ("é", "ü", "ñ") far more often than one of another script, and
/// the word model tells "café" from "cafĩ" (C4 A9) no better than one
/// Latin letter from another. A lead the word clearly prefers still wins.
const OTHER_LEAD: f32 = 1.5;

/// What a candidate that is no letter of the word's script costs on top.
const FOREIGN: f32 = 2.0;

/// A lead byte lost: where its U+FFFD is in the decode, the characters it
/// may have made (each with its prior cost), and where its dropped C1
/// control was in the word.
type LostLead = (usize, Vec<(char, f32)>, usize);

/// One byte of the first reading, as the second left it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    Byte(u8),
    /// A lead byte between C2 and DF whose second-reading byte was dropped;
    /// `at` is where that byte was, as a UTF-8 offset in the word.
    Lead {
        at: usize,
    },
}

/// Undoes "UTF-8 read as ISO-8859-1, twice, the C1 controls dropped the
/// second time" in `word`. `None` if the word is not such mojibake, or if
/// nothing of it was dropped (the strict chain undoes that).
pub(crate) fn decode(word: &str) -> Option<LossyDecode> {
    if !word.contains("\u{C3}\u{C2}") {
        return None;
    }
    let units = first_reading(word)?;
    let mut decoded = LossyDecode::default();
    let mut gaps: Vec<LostLead> = Vec::new();
    let mut rest = units.as_slice();
    while let Some((&unit, after)) = rest.split_first() {
        rest = after;
        match unit {
            Unit::Byte(byte) if byte.is_ascii() => decoded.text.push(char::from(byte)),
            Unit::Byte(lead) => {
                // A sequence whose bytes all survived.
                let length = match lead {
                    0xC2..=0xDF => 2,
                    0xE0..=0xEF => 3,
                    0xF0..=0xF4 => 4,
                    _ => return None,
                };
                let mut bytes = vec![lead];
                for _ in 1..length {
                    let (&Unit::Byte(next), after) = rest.split_first()? else {
                        return None;
                    };
                    bytes.push(next);
                    rest = after;
                }
                decoded.text.push_str(std::str::from_utf8(&bytes).ok()?);
                decoded.whole += 1;
            }
            Unit::Lead { at } => {
                let (&Unit::Byte(continuation), after) = rest.split_first()? else {
                    return None;
                };
                if !(0x80..=0xBF).contains(&continuation) {
                    return None;
                }
                rest = after;
                let candidates: Vec<(char, f32)> = (0xC2..=0xDF_u32)
                    .filter_map(|lead| {
                        let bits = ((lead & 0x1F) << 6) | u32::from(continuation & 0x3F);
                        let prior = if lead == 0xC3 { 0.0 } else { OTHER_LEAD };
                        Some((char::from_u32(bits)?, prior))
                    })
                    .collect();
                gaps.push((decoded.text.len(), candidates, at));
                decoded.text.push(char::REPLACEMENT_CHARACTER);
            }
        }
    }
    if gaps.is_empty() {
        return None;
    }
    // A candidate that is no letter of the word's script costs more again:
    // "m?tesd?" is no word with an Arabic digit in it.
    if let Some(script) = score::dominant_script(&decoded.text) {
        for (_, candidates, _) in &mut gaps {
            for (candidate, prior) in candidates.iter_mut() {
                let info = score::info(*candidate);
                if info.kind != Kind::Letter || info.script != script {
                    *prior += FOREIGN;
                }
            }
        }
    }
    let offsets: Vec<usize> = gaps.iter().map(|(offset, _, _)| *offset).collect();
    let candidates: Vec<Vec<(char, f32)>> = gaps
        .iter()
        .map(|(_, candidates, _)| candidates.clone())
        .collect();
    let ranked = restore::rank_candidates(&decoded.text, &offsets, &candidates);
    let chosen = restore::choose_chars(&decoded.text, &offsets, &candidates);
    for (((offset, _, at), alternatives), chosen) in gaps.iter().zip(ranked).zip(chosen) {
        decoded.lost.push(Lost {
            utf8_offset: *offset,
            alternatives: alternatives.into_iter().take(MAX_ALTERNATIVES).collect(),
        });
        let Some(restored) = chosen else {
            continue;
        };
        let mut buffer = [0; 4];
        let lead = restored.encode_utf8(&mut buffer).as_bytes()[0];
        // The first reading's character for the lead (U+00C2 to U+00DF)
        // is C3 and a byte from 0x82 to 0x9F in UTF-8: that byte, read as
        // ISO-8859-1, is the C1 control that was dropped.
        let Some(dropped) = char::from_u32(u32::from(lead) - 0x40) else {
            continue;
        };
        decoded.restorations.push(Restoration {
            utf8_offset: *offset,
            restored,
            assumption: Assumption {
                utf8_offset: *at,
                found: None,
                assumed: dropped,
                restored: Some(restored),
            },
        });
    }
    Some(decoded)
}

/// The bytes of the first reading, undoing the second: each character as
/// its ISO-8859-1 byte, in pairs of "Ã" or "Â" and a continuation byte;
/// "Ã" followed by anything else is a lead whose C1 control was dropped.
/// `None` for any other character beyond ASCII (a C1 control kept, "Â"
/// alone: a continuation byte lost, which leaves too little to go on).
fn first_reading(word: &str) -> Option<Vec<Unit>> {
    let mut units = Vec::with_capacity(word.len());
    let mut chars = word.char_indices().peekable();
    while let Some((offset, c)) = chars.next() {
        if c.is_ascii() {
            units.push(Unit::Byte(u8::try_from(c).ok()?));
            continue;
        }
        // The second reading's byte after "Ã" or "Â", when it was no C1
        // control: 0xA0 to 0xBF.
        let continuation = chars
            .peek()
            .and_then(|&(_, next)| u8::try_from(next).ok())
            .filter(|byte| (0xA0..=0xBF).contains(byte));
        match (c, continuation) {
            (LEAD_MARK, Some(byte)) => {
                chars.next();
                // C3 and a continuation byte: U+00C0 + (byte - 0x80), as
                // the first reading's byte.
                units.push(Unit::Byte(byte + 0x40));
            }
            (LEAD_MARK, None) => units.push(Unit::Lead {
                at: offset + LEAD_MARK.len_utf8(),
            }),
            (CONTINUATION_MARK, Some(byte)) => {
                chars.next();
                units.push(Unit::Byte(byte));
            }
            _ => return None,
        }
    }
    Some(units)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lead_byte_whose_c1_control_was_dropped_is_restored_from_the_word() {
        let decoded = decode("cafÃÂ©").unwrap();
        assert_eq!(decoded.text, "caf\u{FFFD}");
        assert_eq!(decoded.lost.len(), 1);
        assert!(decoded.lost[0].alternatives.contains(&'é'));
        let [restoration] = decoded.restorations.as_slice() else {
            panic!("{:?}", decoded.restorations);
        };
        assert_eq!(restoration.restored, 'é');
        // The dropped C1 control of "Ã" (U+00C3 is C3 83), right after it.
        assert_eq!(restoration.assumption.assumed, '\u{83}');
        assert_eq!(restoration.assumption.utf8_offset, "cafÃ".len());
    }

    #[test]
    fn only_that_shape_is_undone() {
        // Nothing dropped: the strict chain's.
        assert_eq!(decode("cafÃÂ"), None);
        // "Â" alone: a continuation byte lost too.
        assert_eq!(decode("ÃÂÃÂ"), None);
        // Another character beyond ASCII, or none of the shape.
        assert_eq!(decode("naïve ÃÂ©"), None);
        assert_eq!(decode("SÃO"), None);
        assert_eq!(decode("café"), None);
    }
}

/// A character that lost a byte to the second reading: where its U+FFFD
/// is in the decode, its candidates (each with the byte dropped for it),
/// and where the dropped byte was in the word.
type LostByte = (usize, Vec<(char, u8)>, usize);

/// The bytes windows-1252 leaves undefined, which its readers drop.
const UNDEFINED_1252: [u8; 5] = [0x81, 0x8D, 0x8F, 0x90, 0x9D];

/// One byte of the first reading of text read as windows-1252 twice, as
/// the second reading left it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Byte1252 {
    Known(u8),
    /// A byte of the first reading whose second-reading byte was dropped:
    /// one of `candidates`, each with the byte that was dropped for it;
    /// `at` is where that was, as a UTF-8 offset in the word.
    Unknown {
        at: usize,
        candidates: Vec<(u8, u8)>,
    },
}

/// Undoes "UTF-8 read as windows-1252 twice, the bytes windows-1252 leaves
/// undefined dropped the second time" in `word`: "Ã¢â‚¬Â" for "”" (E2 80
/// 9D, whose 0x9D became U+009D the first time, C2 9D the second, and lost
/// its 0x9D). Each lost byte is one of five, restored where one makes the
/// word clearly best ("”" against an em quad, a joiner, a mark or a
/// hyphen). `None` if the word is not such mojibake or lost nothing.
pub(crate) fn decode_1252(word: &str) -> Option<LossyDecode> {
    if !word.contains(LEAD_MARK) || !word.contains(CONTINUATION_MARK) {
        return None;
    }
    let first = first_reading_1252(word)?;
    let mut decoded = LossyDecode::default();
    let mut gaps: Vec<LostByte> = Vec::new();
    let mut rest = first.as_slice();
    while let Some((head, _)) = rest.split_first() {
        let lead = match head {
            Byte1252::Known(byte) if byte.is_ascii() => {
                decoded.text.push(char::from(*byte));
                rest = &rest[1..];
                continue;
            }
            Byte1252::Known(byte) => *byte,
            Byte1252::Unknown { .. } => return None,
        };
        let length = match lead {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => return None,
        };
        let sequence = rest.get(..length)?;
        rest = &rest[length..];
        let unknown = sequence
            .iter()
            .position(|unit| matches!(unit, Byte1252::Unknown { .. }));
        let mut bytes: Vec<u8> = sequence
            .iter()
            .map(|unit| match unit {
                Byte1252::Known(byte) => *byte,
                Byte1252::Unknown { .. } => 0,
            })
            .collect();
        // At most one unknown byte in a character: more leaves too little.
        if sequence
            .iter()
            .filter(|unit| matches!(unit, Byte1252::Unknown { .. }))
            .count()
            > 1
        {
            return None;
        }
        match unknown.and_then(|index| Some((index, sequence.get(index)?))) {
            None => {
                decoded.text.push_str(std::str::from_utf8(&bytes).ok()?);
                decoded.whole += 1;
            }
            Some((index, Byte1252::Unknown { at, candidates })) => {
                let chars: Vec<(char, u8)> = candidates
                    .iter()
                    .filter_map(|&(byte, dropped)| {
                        bytes[index] = byte;
                        let c = std::str::from_utf8(&bytes).ok()?.chars().next()?;
                        Some((c, dropped))
                    })
                    .collect();
                if chars.is_empty() {
                    return None;
                }
                gaps.push((decoded.text.len(), chars, *at));
                decoded.text.push(char::REPLACEMENT_CHARACTER);
            }
            Some(_) => return None,
        }
    }
    if gaps.is_empty() || gaps.len() > 4 {
        return None;
    }
    let offsets: Vec<usize> = gaps.iter().map(|(offset, _, _)| *offset).collect();
    let candidates: Vec<Vec<(char, f32)>> = gaps
        .iter()
        .map(|(_, chars, _)| chars.iter().map(|&(c, _)| (c, 0.0)).collect())
        .collect();
    let ranked = restore::rank_candidates(&decoded.text, &offsets, &candidates);
    let chosen = restore::choose_chars(&decoded.text, &offsets, &candidates);
    for (((offset, chars, at), alternatives), chosen) in gaps.iter().zip(ranked).zip(chosen) {
        decoded.lost.push(Lost {
            utf8_offset: *offset,
            alternatives: alternatives.into_iter().take(MAX_ALTERNATIVES).collect(),
        });
        let Some((restored, dropped)) = chosen.and_then(|c| chars.iter().find(|(k, _)| *k == c))
        else {
            continue;
        };
        decoded.restorations.push(Restoration {
            utf8_offset: *offset,
            restored: *restored,
            assumption: Assumption {
                utf8_offset: *at,
                found: None,
                assumed: char::from(*dropped),
                restored: Some(*restored),
            },
        });
    }
    Some(decoded)
}

/// The bytes of the first reading of `word` read as windows-1252 twice,
/// undoing the second: each character as its windows-1252 byte (a C1
/// control as its own), decoded as UTF-8, where "Â" or "Ã" followed by no
/// continuation byte lost one of the five bytes windows-1252 leaves
/// undefined. `None` if a character has no byte, or the bytes are no such
/// UTF-8.
fn first_reading_1252(word: &str) -> Option<Vec<Byte1252>> {
    let second: Vec<(usize, u8)> = word
        .char_indices()
        .map(|(offset, c)| Some((offset, super::misread_byte(c)?)))
        .collect::<Option<_>>()?;
    let mut first = Vec::with_capacity(second.len());
    let mut index = 0;
    while let Some(&(offset, byte)) = second.get(index) {
        index += 1;
        if byte.is_ascii() {
            first.push(Byte1252::Known(byte));
            continue;
        }
        // The second reading is UTF-8 of the first reading's characters,
        // all of them in windows-1252: leads C2, C3, C5, C6, CB and E2.
        let length = match byte {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => return None,
        };
        let mut bytes = vec![byte];
        while bytes.len() < length {
            match second.get(index) {
                Some(&(_, next)) if (0x80..=0xBF).contains(&next) => {
                    bytes.push(next);
                    index += 1;
                }
                _ => break,
            }
        }
        if bytes.len() == length {
            let text = std::str::from_utf8(&bytes).ok()?;
            let c = text.chars().next()?;
            first.push(Byte1252::Known(super::misread_byte(c)?));
            continue;
        }
        // One byte dropped after "Â" or "Ã": the character it made was one
        // of five, a C1 control (C2 81...) or a letter (C3 81 is "Á").
        if length != 2 || bytes.len() != 1 {
            return None;
        }
        let at = offset + 'Â'.len_utf8();
        let candidates = UNDEFINED_1252
            .iter()
            .filter_map(|&dropped| {
                let c = std::str::from_utf8(&[byte, dropped]).ok()?.chars().next()?;
                Some((super::misread_byte(c)?, dropped))
            })
            .collect();
        first.push(Byte1252::Unknown { at, candidates });
    }
    Some(first)
}
