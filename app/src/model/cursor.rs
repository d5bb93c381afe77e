//! Moving and extending the selection from the keyboard: byte by byte in
//! the hex view, character by character (decoded item by item) in a pane.
//!
//! The selection has two ends: the *anchor*, where Shift+arrows began,
//! and the *cursor*, the byte or item that moves. Without Shift both are
//! the same item.

use mojiscope_core::{ByteSpan, TraceKind};

use crate::model::analysis::EncodingAnalysis;
use crate::model::analysis::lines::LineIndex;

/// How far a key moves the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    /// One byte or character back (Left).
    Back,
    /// One byte or character on (Right).
    Forward,
    /// To the row above, at the same column (Up).
    Up,
    /// To the row below (Down).
    Down,
    /// To the row's first byte or character (Home).
    RowStart,
    /// To the row's last byte or character (End).
    RowEnd,
    /// To the file's first byte or character (Ctrl+Home).
    FileStart,
    /// To its last (Ctrl+End).
    FileEnd,
}

/// What the cursor steps over.
pub enum Unit<'a> {
    /// Bytes, in rows of `row_width` (the hex view).
    Bytes {
        /// Bytes per row.
        row_width: u64,
    },
    /// A pane's decoded items (characters, errors), in the rows of
    /// `lines`.
    Items {
        /// The pane's decode.
        analysis: &'a EncodingAnalysis,
        /// The rows.
        lines: &'a LineIndex,
    },
}

/// The most bytes one item takes (an ISO-2022-JP escape and a character,
/// a GB18030 four-byte sequence): how far around an offset to decode to
/// find the item there.
const ITEM_REACH: u64 = 16;

/// The cursor after `motion` from `cursor`, in a file of `bytes`.
pub fn step(bytes: &[u8], cursor: ByteSpan, motion: Motion, unit: &Unit<'_>) -> ByteSpan {
    let len = bytes.len() as u64;
    if len == 0 {
        return cursor;
    }
    match *unit {
        Unit::Bytes { row_width } => step_bytes(len, cursor, motion, row_width.max(1)),
        Unit::Items { analysis, lines } => {
            step_items(bytes, analysis, lines, cursor, motion).unwrap_or(cursor)
        }
    }
}

fn step_bytes(len: u64, cursor: ByteSpan, motion: Motion, width: u64) -> ByteSpan {
    let last = len - 1;
    let at = cursor.start.min(last);
    let row_start = at - at % width;
    let to = match motion {
        Motion::Back => cursor.start.saturating_sub(1),
        Motion::Forward => cursor.end.min(last),
        Motion::Up => at.checked_sub(width).unwrap_or(at),
        Motion::Down => at.checked_add(width).filter(|&o| o <= last).unwrap_or(at),
        Motion::RowStart => row_start,
        Motion::RowEnd => (row_start + width - 1).min(last),
        Motion::FileStart => 0,
        Motion::FileEnd => last,
    };
    ByteSpan::new(to, to + 1)
}

/// The items of `analysis` that start in `range`.
fn items_in(bytes: &[u8], analysis: &EncodingAnalysis, range: ByteSpan) -> Vec<ByteSpan> {
    analysis
        .decode_window(bytes, range)
        .items()
        .filter(|item| !matches!(item.kind, TraceKind::Skip(_)) || item.span.start == 0)
        .map(|item| item.span)
        .collect()
}

/// The items of row `row`, without its line break (unless the row is only
/// a line break).
fn row_items(
    bytes: &[u8],
    analysis: &EncodingAnalysis,
    lines: &LineIndex,
    row: u64,
) -> Vec<ByteSpan> {
    let span = lines.row_span(row);
    let trace = analysis.decode_window(bytes, span);
    let items: Vec<_> = trace
        .items()
        .filter(|item| !matches!(item.kind, TraceKind::Skip(_)))
        .collect();
    let text: Vec<ByteSpan> = items
        .iter()
        .filter(|item| !matches!(item.kind, TraceKind::Scalar('\n' | '\r')))
        .map(|item| item.span)
        .collect();
    if text.is_empty() {
        items.iter().map(|item| item.span).collect()
    } else {
        text
    }
}

fn step_items(
    bytes: &[u8],
    analysis: &EncodingAnalysis,
    lines: &LineIndex,
    cursor: ByteSpan,
    motion: Motion,
) -> Option<ByteSpan> {
    let len = bytes.len() as u64;
    match motion {
        Motion::Forward => {
            let from = cursor.end.min(len);
            items_in(
                bytes,
                analysis,
                ByteSpan::new(from, (from + ITEM_REACH).min(len)),
            )
            .into_iter()
            .next()
        }
        Motion::Back => {
            let from = cursor.start.saturating_sub(ITEM_REACH);
            items_in(bytes, analysis, ByteSpan::new(from, cursor.start))
                .into_iter()
                .rev()
                .find(|item| item.end <= cursor.start)
        }
        Motion::Up | Motion::Down => {
            let row = lines.row_of(cursor.start);
            let target = if motion == Motion::Up {
                row.checked_sub(1)?
            } else {
                row.checked_add(1).filter(|&r| r < lines.row_count())?
            };
            let here = row_items(bytes, analysis, lines, row);
            let column = here
                .iter()
                .position(|item| item.start >= cursor.start)
                .unwrap_or(here.len());
            let there = row_items(bytes, analysis, lines, target);
            there.get(column).or_else(|| there.last()).copied()
        }
        Motion::RowStart => row_items(bytes, analysis, lines, lines.row_of(cursor.start))
            .first()
            .copied(),
        Motion::RowEnd => row_items(bytes, analysis, lines, lines.row_of(cursor.start))
            .last()
            .copied(),
        Motion::FileStart => items_in(bytes, analysis, ByteSpan::new(0, ITEM_REACH.min(len)))
            .into_iter()
            .next(),
        Motion::FileEnd => {
            let from = len.saturating_sub(ITEM_REACH);
            items_in(bytes, analysis, ByteSpan::new(from, len))
                .into_iter()
                .last()
        }
    }
}

/// The selection from `anchor` to `cursor`, both included.
pub fn span_between(anchor: ByteSpan, cursor: ByteSpan) -> ByteSpan {
    ByteSpan::new(anchor.start.min(cursor.start), anchor.end.max(cursor.end))
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{BomHandling, SHIFT_JIS, UTF_8};

    use super::*;
    use crate::model::analysis::analyse_with_rows;

    fn analysed(
        bytes: &[u8],
        encoding: &'static mojiscope_core::Encoding,
    ) -> (EncodingAnalysis, LineIndex) {
        let cancel = std::sync::atomic::AtomicBool::new(false);
        analyse_with_rows(bytes, encoding, BomHandling::Sniff, &cancel).expect("not cancelled")
    }

    #[test]
    fn bytes_move_by_one_by_a_row_and_to_the_ends() {
        let unit = Unit::Bytes { row_width: 16 };
        let bytes = [0_u8; 40];
        let at = |o: u64| ByteSpan::new(o, o + 1);
        assert_eq!(step(&bytes, at(5), Motion::Forward, &unit), at(6));
        assert_eq!(step(&bytes, at(0), Motion::Back, &unit), at(0));
        assert_eq!(step(&bytes, at(5), Motion::Down, &unit), at(21));
        assert_eq!(step(&bytes, at(30), Motion::Down, &unit), at(30));
        assert_eq!(step(&bytes, at(21), Motion::Up, &unit), at(5));
        assert_eq!(step(&bytes, at(21), Motion::RowStart, &unit), at(16));
        assert_eq!(step(&bytes, at(33), Motion::RowEnd, &unit), at(39));
        assert_eq!(step(&bytes, at(21), Motion::FileEnd, &unit), at(39));
        assert_eq!(step(&bytes, at(21), Motion::FileStart, &unit), at(0));
        // From a character's bytes, Right goes to the byte after them.
        assert_eq!(
            step(&bytes, ByteSpan::new(3, 6), Motion::Forward, &unit),
            at(6)
        );
    }

    #[test]
    fn items_move_character_by_character() {
        // "aあb\nいう\n" in Shift_JIS: a, two bytes, b, LF, two, two, LF.
        let bytes = SHIFT_JIS.encode("aあb\nいう\n").0;
        let (analysis, lines) = analysed(&bytes, SHIFT_JIS);
        let unit = Unit::Items {
            analysis: &analysis,
            lines: &lines,
        };
        let a = ByteSpan::new(0, 1);
        let hiragana_a = ByteSpan::new(1, 3);
        assert_eq!(step(&bytes, a, Motion::Forward, &unit), hiragana_a);
        assert_eq!(
            step(&bytes, hiragana_a, Motion::Forward, &unit),
            ByteSpan::new(3, 4)
        );
        assert_eq!(
            step(&bytes, ByteSpan::new(3, 4), Motion::Back, &unit),
            hiragana_a
        );
        // Down from あ (column 1) to う (column 1 of the next row).
        assert_eq!(
            step(&bytes, hiragana_a, Motion::Down, &unit),
            ByteSpan::new(7, 9)
        );
        assert_eq!(
            step(&bytes, ByteSpan::new(7, 9), Motion::Up, &unit),
            hiragana_a
        );
        // End stops before the line break; Home goes back to its start.
        assert_eq!(step(&bytes, a, Motion::RowEnd, &unit), ByteSpan::new(3, 4));
        assert_eq!(
            step(&bytes, ByteSpan::new(7, 9), Motion::RowStart, &unit),
            ByteSpan::new(5, 7)
        );
        assert_eq!(
            step(&bytes, a, Motion::FileEnd, &unit),
            ByteSpan::new(9, 10)
        );
        assert_eq!(
            step(&bytes, ByteSpan::new(9, 10), Motion::FileStart, &unit),
            a
        );
    }

    #[test]
    fn an_error_is_one_step() {
        let bytes = b"a\xFF\xFEb";
        let (analysis, lines) = analysed(bytes, UTF_8);
        let unit = Unit::Items {
            analysis: &analysis,
            lines: &lines,
        };
        let next = step(bytes, ByteSpan::new(0, 1), Motion::Forward, &unit);
        assert_eq!(next, ByteSpan::new(1, 2));
        assert_eq!(
            span_between(ByteSpan::new(0, 1), ByteSpan::new(3, 4)),
            ByteSpan::new(0, 4)
        );
    }
}
