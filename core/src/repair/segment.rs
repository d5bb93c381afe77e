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

/// The longest piece of a line judged at once: a longer line (a file
/// without line feeds) is cut after a separator, so that time and memory
/// stay bounded whatever the input.
pub(crate) const MAX_LINE_BYTES: usize = 64 * 1024;

/// The lines of `text` as UTF-8 ranges without their line feeds, each with
/// the length of the line feed after it (0 for the last line, and for a
/// piece of a line longer than [`MAX_LINE_BYTES`], which is cut after its
/// last separator within that length, or anywhere if it has none).
pub(crate) fn lines(text: &str) -> impl Iterator<Item = (Range<usize>, usize)> + '_ {
    let mut start = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let rest = &text[start..];
        let window = floor_char_boundary(rest, MAX_LINE_BYTES);
        if let Some(offset) = rest[..window].find('\n') {
            let line = start..start + offset;
            start += offset + 1;
            return Some((line, 1));
        }
        if window < rest.len() {
            // A piece of a long line.
            let cut = rest[..window]
                .rfind(is_separator)
                .map_or(window, |offset| offset + 1);
            let cut = if cut == 0 { window } else { cut };
            let piece = start..start + cut;
            start += cut;
            return Some((piece, 0));
        }
        done = true;
        Some((start..text.len(), 0))
    })
}

/// The largest character boundary of `text` at or before `index`.
fn floor_char_boundary(text: &str, index: usize) -> usize {
    let mut index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
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
        let lines: Vec<&str> = lines(text).map(|(range, _)| &text[range]).collect();
        assert_eq!(lines, ["Ã©tÃ©, l'Ã©tÃ©?", "", "明日\t2024年 x"]);
        let all: Vec<&str> = words(text, 0).map(|range| &text[range]).collect();
        assert_eq!(all, ["Ã©tÃ©", "l", "Ã©tÃ©?", "明日", "2024年", "x"]);
        let base = text.find('明').unwrap();
        let last: Vec<&str> = words(&text[base..], base)
            .map(|range| &text[range])
            .collect();
        assert_eq!(last, ["明日", "2024年", "x"]);
    }

    #[test]
    fn long_lines_are_cut_after_a_separator() {
        let text = format!(
            "{}\n{}",
            "ab ".repeat(MAX_LINE_BYTES),
            "é".repeat(MAX_LINE_BYTES)
        );
        let mut covered = 0;
        for (range, newline) in lines(&text) {
            assert_eq!(range.start, covered);
            assert!(range.len() <= MAX_LINE_BYTES);
            covered = range.end + newline;
        }
        assert_eq!(covered, text.len());
        let pieces: Vec<(Range<usize>, usize)> = lines(&text).collect();
        assert!(pieces[0].0.len().is_multiple_of(3), "cut after a space");
    }
}
