//! A UTF-8 byte order mark read by a wrong decoder, at the start of a text.
//!
//! A program that writes UTF-8 with a byte order mark (EF BB BF) and one
//! that reads it as windows-1252 without looking for the mark leave "ï»¿"
//! at the start of the text. Alone, those three characters are too little
//! for the line-by-line decision (one uncommon character repaired alone is
//! only suggested), but nothing else puts them at the very start of a
//! text: there they are undone, into the character U+FEFF, which is what
//! the bytes say. Written back as UTF-8 it is the byte order mark the text
//! was saved with. Anywhere else the three characters are judged as any
//! other word is.

use super::chain::{Step, UTF8_MISREADS};
use super::{Chain, Change, Repair};
use crate::encoding::UTF_8;

/// UTF-8's byte order mark.
const MARK: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// How sure the repair of a misread byte order mark is.
const CONFIDENCE: f32 = 0.95;

/// A byte order mark misread at the start of a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct MisreadMark {
    /// Its length in the text, in UTF-8 (it is three characters).
    pub(super) utf8_len: usize,
    /// The step that undoes it.
    pub(super) step: Step,
}

/// The UTF-8 byte order mark as one of the wrong decoders UTF-8 is undone
/// from reads it ("ï»¿" for windows-1252, "п»ї" for windows-1251), if
/// `text` starts with it.
pub(super) fn misread_mark(text: &str) -> Option<MisreadMark> {
    UTF8_MISREADS.iter().find_map(|&encode_as| {
        let mut utf8_len = 0;
        for byte in MARK {
            let c = encode_as.decode_byte(byte)?;
            if !text.get(utf8_len..)?.starts_with(c) {
                return None;
            }
            utf8_len += c.len_utf8();
        }
        Some(MisreadMark {
            utf8_len,
            step: Step {
                encode_as,
                decode_as: UTF_8,
            },
        })
    })
}

impl MisreadMark {
    /// The repair of the whole text, from `rest`, the repair of the text
    /// after the mark: its changes moved past the mark, and the mark's own
    /// change first (one change with the first of the rest when that one
    /// starts right after the mark and undoes the same chain).
    pub(super) fn with_rest(self, mut rest: Repair) -> Repair {
        let chars = MARK.len();
        for change in rest.changes.iter_mut().chain(&mut rest.suggestions) {
            change.utf8_range =
                change.utf8_range.start + self.utf8_len..change.utf8_range.end + self.utf8_len;
            change.char_range = change.char_range.start + chars..change.char_range.end + chars;
        }
        let Some(chain) = Chain::new(&[self.step]) else {
            return rest;
        };
        let replacement = String::from('\u{FEFF}');
        if let Some(first) = rest.changes.first_mut()
            && first.utf8_range.start == self.utf8_len
            && first.chain == chain
        {
            let shift = replacement.len();
            first.replacement.insert_str(0, &replacement);
            first.utf8_range.start = 0;
            first.char_range.start = 0;
            first.confidence = first.confidence.min(CONFIDENCE);
            for lost in &mut first.lost {
                lost.utf8_offset += shift;
            }
            for assumption in &mut first.assumptions {
                assumption.utf8_offset += self.utf8_len;
            }
            return rest;
        }
        rest.changes.insert(
            0,
            Change {
                utf8_range: 0..self.utf8_len,
                char_range: 0..chars,
                replacement,
                chain,
                confidence: CONFIDENCE,
                lost: Vec::new(),
                assumptions: Vec::new(),
            },
        );
        rest
    }
}
