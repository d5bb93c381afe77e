//! What a change changed, for showing it: which characters of its before
//! and after differ ([`changed_chars`], a longest common subsequence), and
//! the lines around it ([`context_window`]).

use std::ops::Range;

/// The most bytes of context shown on each side of the selected change.
pub const CONTEXT_BYTES: usize = 600;
/// Past this many characters on a side, the changed characters are found
/// by trimming what both sides start and end with, not by a full diff.
const DIFF_CHARS: usize = 512;

/// The span of `text` shown around `range`: from the start of the line
/// before its line to the end of the line after, at most
/// [`CONTEXT_BYTES`] beyond `range` on each side.
pub fn context_window(text: &str, range: &Range<usize>) -> Range<usize> {
    let floor = text.floor_char_boundary(range.start.saturating_sub(CONTEXT_BYTES));
    let ceiling = text.ceil_char_boundary(range.end.saturating_add(CONTEXT_BYTES).min(text.len()));
    // Back past the line feed that starts the change's line, to the one
    // that starts the line before; on past the one that ends the change's
    // line, to the one that ends the line after.
    let start = text.as_bytes()[floor..range.start]
        .iter()
        .enumerate()
        .rev()
        .filter(|&(_, &byte)| byte == b'\n')
        .nth(1)
        .map_or(floor, |(offset, _)| floor + offset + 1);
    let end = text.as_bytes()[range.end..ceiling]
        .iter()
        .enumerate()
        .filter(|&(_, &byte)| byte == b'\n')
        .nth(1)
        .map_or(ceiling, |(offset, _)| range.end + offset);
    start..end
}

/// Which characters of `before` and of `after` a change changed: those
/// outside a longest common subsequence of the two (for long texts, those
/// between what both start and end with).
pub fn changed_chars(before: &str, after: &str) -> (Vec<bool>, Vec<bool>) {
    let a: Vec<char> = before.chars().collect();
    let b: Vec<char> = after.chars().collect();
    let mut changed_a = vec![true; a.len()];
    let mut changed_b = vec![true; b.len()];
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    for i in 0..prefix {
        changed_a[i] = false;
        changed_b[i] = false;
    }
    for i in 0..suffix {
        changed_a[a.len() - 1 - i] = false;
        changed_b[b.len() - 1 - i] = false;
    }
    let middle_a = &a[prefix..a.len() - suffix];
    let middle_b = &b[prefix..b.len() - suffix];
    if middle_a.len() > DIFF_CHARS || middle_b.len() > DIFF_CHARS {
        return (changed_a, changed_b);
    }
    // lengths[i][j]: the longest common subsequence of middle_a[i..] and
    // middle_b[j..].
    let width = middle_b.len() + 1;
    let mut lengths = vec![0_u16; (middle_a.len() + 1) * width];
    for i in (0..middle_a.len()).rev() {
        for j in (0..middle_b.len()).rev() {
            lengths[i * width + j] = if middle_a[i] == middle_b[j] {
                lengths[(i + 1) * width + j + 1] + 1
            } else {
                lengths[(i + 1) * width + j].max(lengths[i * width + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < middle_a.len() && j < middle_b.len() {
        if middle_a[i] == middle_b[j] {
            changed_a[prefix + i] = false;
            changed_b[prefix + j] = false;
            i += 1;
            j += 1;
        } else if lengths[(i + 1) * width + j] >= lengths[i * width + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    (changed_a, changed_b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_characters_are_those_outside_the_common_ones() {
        let marks = |before: &str, after: &str| {
            let (a, b) = changed_chars(before, after);
            let show = |text: &str, marks: Vec<bool>| -> String {
                text.chars()
                    .zip(marks)
                    .map(|(c, changed)| if changed { c } else { '.' })
                    .collect()
            };
            (show(before, a), show(after, b))
        };
        assert_eq!(
            marks("Ã©tÃ©", "été"),
            ("Ã©.Ã©".to_owned(), "é.é".to_owned())
        );
        assert_eq!(
            marks("cafÃ©", "café"),
            ("...Ã©".to_owned(), "...é".to_owned())
        );
        assert_eq!(
            marks("GarcÃ\u{ad}a LÃ³pez", "García López"),
            ("....Ã\u{ad}...Ã³...".to_owned(), "....í...ó...".to_owned())
        );
        assert_eq!(marks("abc", "abc"), ("...".to_owned(), "...".to_owned()));
        assert_eq!(marks("", "x"), (String::new(), "x".to_owned()));
        // Long texts: only the common ends are left unmarked.
        let long_a = format!("<{}>", "Ã©".repeat(DIFF_CHARS));
        let long_b = format!("<{}>", "é".repeat(DIFF_CHARS));
        let (a, b) = changed_chars(&long_a, &long_b);
        assert_eq!((a.first(), a.last()), (Some(&false), Some(&false)));
        assert_eq!(a.iter().filter(|&&m| m).count(), 2 * DIFF_CHARS);
        assert_eq!(b.iter().filter(|&&m| m).count(), DIFF_CHARS);
    }

    #[test]
    fn the_context_is_the_lines_around_the_change() {
        let text = "one\ntwo\nthree Ã©tÃ© three\nfour\nfive\n";
        let start = text.find("Ã©").unwrap();
        let window = context_window(text, &(start..start + 9));
        assert_eq!(&text[window], "two\nthree Ã©tÃ© three\nfour");
        // At the ends of the text.
        let window = context_window("Ã©tÃ©", &(0..9));
        assert_eq!(window, 0..9);
        let text = "Ã©tÃ©\nnext";
        assert_eq!(&text[context_window(text, &(0..9))], text);
        // A very long line is cut CONTEXT_BYTES from the change, on a
        // character boundary.
        let text = format!("{}Ã©tÃ©{}", "é".repeat(1000), "ü".repeat(1000));
        let start = 2000;
        let window = context_window(&text, &(start..start + 9));
        assert!(window.start <= start - CONTEXT_BYTES && window.start >= start - CONTEXT_BYTES - 1);
        assert!(window.end >= start + 9 + CONTEXT_BYTES);
        assert!(text.is_char_boundary(window.start) && text.is_char_boundary(window.end));
    }
}
