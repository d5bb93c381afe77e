//! Find: a text in a pane's decode, or a byte sequence, over the whole
//! file. It runs as a job (`document_jobs`), a window of the file at a
//! time, so that a huge file is searched without holding its text.

use mojiscope_core::ByteSpan;

use crate::model::analysis::EncodingAnalysis;
use crate::model::hex::parse_hex;

/// The most matches kept: more are counted as "at least".
pub const MAX_MATCHES: usize = 10_000;

/// The bytes searched at a time.
const WINDOW: u64 = 1024 * 1024;

/// What is searched for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Needle {
    /// Text, in the decode of pane `pane`.
    Text {
        /// The text.
        text: String,
        /// The pane whose decode is searched.
        pane: usize,
    },
    /// Bytes, in the file.
    Bytes(Vec<u8>),
}

impl Needle {
    /// What the user typed, in the hex view (bytes in hex: "82 A0") or in
    /// pane `pane` (text). `None` if there is nothing to search for.
    pub fn parse(typed: &str, hex: bool, pane: usize) -> Option<Self> {
        if hex {
            parse_hex(typed)
                .ok()
                .filter(|bytes| !bytes.is_empty())
                .map(Needle::Bytes)
        } else {
            (!typed.is_empty()).then(|| Needle::Text {
                text: typed.to_owned(),
                pane,
            })
        }
    }
}

/// The matches of `needle` in `bytes` (read through `analysis` for text),
/// in file order, at most [`MAX_MATCHES`]; `progress` hears the bytes done
/// after each window and returns false to stop (cancelled).
pub fn find_all(
    bytes: &[u8],
    needle: &Needle,
    analysis: Option<&EncodingAnalysis>,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Vec<ByteSpan> {
    match needle {
        Needle::Bytes(sought) => find_bytes(bytes, sought, progress),
        Needle::Text { text, .. } => match analysis {
            Some(analysis) => find_text(bytes, analysis, text, progress),
            None => Vec::new(),
        },
    }
}

fn find_bytes(bytes: &[u8], sought: &[u8], progress: &mut dyn FnMut(u64) -> bool) -> Vec<ByteSpan> {
    let mut found = Vec::new();
    let Some((&first, _)) = sought.split_first() else {
        return found;
    };
    let mut at = 0_usize;
    let mut reported = 0_usize;
    while let Some(offset) = bytes
        .get(at..)
        .and_then(|rest| rest.iter().position(|&b| b == first))
    {
        let start = at + offset;
        if bytes.get(start..start + sought.len()) == Some(sought) {
            found.push(ByteSpan::new(start as u64, (start + sought.len()) as u64));
            if found.len() >= MAX_MATCHES {
                break;
            }
        }
        at = start + 1;
        if at - reported >= WINDOW as usize {
            reported = at;
            if !progress(at as u64) {
                break;
            }
        }
    }
    found
}

fn find_text(
    bytes: &[u8],
    analysis: &EncodingAnalysis,
    sought: &str,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Vec<ByteSpan> {
    let len = bytes.len() as u64;
    // A match starting in one window may end in the next: each window is
    // decoded with room for a whole match after it (a character takes at
    // most four bytes in any encoding but ISO-2022-JP, whose escapes add
    // a few).
    let overlap = sought.chars().count() as u64 * 8 + 16;
    let mut found = Vec::new();
    let mut start = 0;
    while start < len {
        let end = (start + WINDOW).min(len);
        let trace = analysis.decode_window(bytes, ByteSpan::new(start, (end + overlap).min(len)));
        // Most windows hold no match: their characters need not be listed
        // (a listing per character made Find over 4 GiB take minutes).
        if !trace.text.contains(sought) {
            start = end;
            if !progress(start) {
                break;
            }
            continue;
        }
        // Where each item's text starts, and its bytes.
        let mut items: Vec<(usize, ByteSpan)> = Vec::new();
        let mut text_len = 0;
        let mut scratch = String::new();
        for item in trace.items() {
            scratch.clear();
            item.push_text(&mut scratch);
            if scratch.is_empty() {
                continue;
            }
            items.push((text_len, item.span));
            text_len += scratch.len();
        }
        for (text_offset, _) in trace.text.match_indices(sought) {
            let first = item_at(&items, text_offset);
            let last = item_at(&items, text_offset + sought.len() - 1);
            if let (Some(first), Some(last)) = (first, last)
                && first.start < end
            {
                found.push(ByteSpan::new(first.start, last.end));
                if found.len() >= MAX_MATCHES {
                    return found;
                }
            }
        }
        start = end;
        if !progress(start) {
            break;
        }
    }
    found
}

/// The bytes of the item whose text holds text offset `text_offset`.
fn item_at(items: &[(usize, ByteSpan)], text_offset: usize) -> Option<ByteSpan> {
    let index = items
        .partition_point(|&(start, _)| start <= text_offset)
        .checked_sub(1)?;
    items.get(index).map(|&(_, span)| span)
}

/// The match to go to from `from` (the selection's start), forward or
/// back, wrapping around the file.
pub fn next_match(matches: &[ByteSpan], from: Option<u64>, forward: bool) -> Option<usize> {
    if matches.is_empty() {
        return None;
    }
    let Some(from) = from else {
        return Some(if forward { 0 } else { matches.len() - 1 });
    };
    if forward {
        let after = matches.partition_point(|m| m.start <= from);
        Some(if after < matches.len() { after } else { 0 })
    } else {
        let before = matches.partition_point(|m| m.start < from);
        Some(before.checked_sub(1).unwrap_or(matches.len() - 1))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use mojiscope_core::{BomHandling, SHIFT_JIS};

    use super::*;
    use crate::model::analysis::analyse;

    #[test]
    fn bytes_are_found_where_they_are() {
        let bytes = b"ab\x82\xA0cd\x82\xA0\x82";
        let needle = Needle::parse("82 A0", true, 0).expect("hex");
        let found = find_all(bytes, &needle, None, &mut |_| true);
        assert_eq!(found, vec![ByteSpan::new(2, 4), ByteSpan::new(6, 8)]);
        assert_eq!(Needle::parse("zz", true, 0), None);
        assert_eq!(Needle::parse("", false, 0), None);
    }

    #[test]
    fn text_is_found_in_the_decode_across_windows() {
        // A match straddling the first window's end is found once.
        let mut text = "x".repeat(usize::try_from(WINDOW).expect("small") - 3);
        text.push_str("日本語 and 日本語\n");
        let bytes = SHIFT_JIS.encode(&text).0;
        let cancel = AtomicBool::new(false);
        let analysis =
            analyse(&bytes, SHIFT_JIS, BomHandling::Sniff, &cancel, &mut |_| {}).expect("done");
        let needle = Needle::parse("日本語", false, 0).expect("text");
        let found = find_all(&bytes, &needle, Some(&analysis), &mut |_| true);
        let first = WINDOW - 3;
        assert_eq!(
            found,
            vec![
                ByteSpan::new(first, first + 6),
                ByteSpan::new(first + 11, first + 17)
            ]
        );
    }

    #[test]
    fn next_and_previous_wrap_around() {
        let matches = [ByteSpan::new(2, 4), ByteSpan::new(6, 8)];
        assert_eq!(next_match(&matches, None, true), Some(0));
        assert_eq!(next_match(&matches, Some(2), true), Some(1));
        assert_eq!(next_match(&matches, Some(6), true), Some(0));
        assert_eq!(next_match(&matches, Some(6), false), Some(0));
        assert_eq!(next_match(&matches, Some(2), false), Some(1));
        assert_eq!(next_match(&[], Some(2), false), None);
    }
}
