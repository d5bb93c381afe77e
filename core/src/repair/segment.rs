//! Cutting text into the pieces a repair judges one at a time: lines, and
//! within a line the words between separators.
//!
//! A separator is an ASCII character that no mojibake chain can have made
//! part of a damaged character: controls, the space, and the punctuation
//! below 0x40 other than "?" and the digits. Every chain here maps ASCII to
//! itself, UTF-8 continuation bytes are 0x80 and above, and the trail bytes
//! of Shift_JIS, EUC-JP, GBK, Big5 and EUC-KR are 0x40 and above; gb18030's
//! four-byte sequences hold digits, and "?" is what some decoders leave for a
//! byte they could not decode, so neither separates.

use std::ops::Range;

/// Whether `c` separates words.
pub(crate) fn is_separator(c: char) -> bool {
    matches!(c, '\0'..=' ' | '!'..='/' | ':'..='>' | '\x7F')
}

/// The lines of `text` as UTF-8 ranges, without their line feeds.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut start = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        if let Some(offset) = text[start..].find('\n') {
            let line = start..start + offset;
            start += offset + 1;
            Some(line)
        } else {
            done = true;
            Some(start..text.len())
        }
    })
}

/// The words of `line` (which starts at `base` in its text) as UTF-8 ranges
/// of the text.
pub(crate) fn words(line: &str, base: usize) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut chars = line.char_indices().peekable();
    std::iter::from_fn(move || {
        // Skip separators.
        let start = loop {
            let &(offset, c) = chars.peek()?;
            if !is_separator(c) {
                break offset;
            }
            chars.next();
        };
        let mut end = line.len();
        while let Some(&(offset, c)) = chars.peek() {
            if is_separator(c) {
                end = offset;
                break;
            }
            chars.next();
        }
        Some(base + start..base + end)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_words() {
        let text = "Ã©tÃ©, l'Ã©tÃ©?\n\n明日\t2024年 x";
        let lines: Vec<&str> = lines(text).map(|range| &text[range]).collect();
        assert_eq!(lines, ["Ã©tÃ©, l'Ã©tÃ©?", "", "明日\t2024年 x"]);
        let all: Vec<&str> = words(text, 0).map(|range| &text[range]).collect();
        assert_eq!(all, ["Ã©tÃ©", "l", "Ã©tÃ©?", "明日", "2024年", "x"]);
        let base = text.find('明').unwrap();
        let last: Vec<&str> = words(&text[base..], base)
            .map(|range| &text[range])
            .collect();
        assert_eq!(last, ["明日", "2024年", "x"]);
    }
}
