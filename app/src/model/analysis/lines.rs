//! Where the rows of a file start ([`LineIndex`]), for the views that show
//! it a row at a time; built by a sink of its own in the same pass as the
//! primary pane's analysis.

use mojiscope_core::{ByteSpan, DecodeErrorKind, DecodeSink, SkipReason};

/// Rows longer than this many bytes are cut into pieces (see [`LineIndex`]).
pub const MAX_ROW_BYTES: u64 = 512;

/// Rows per block of a [`LineIndex`]: the start of each block's first row
/// is stored, the others follow from the rows' lengths.
const ROWS_PER_BLOCK: usize = 1024;

/// Where the rows of a file start, for views that show it a row at a time.
///
/// A row ends after each decoded U+000A LINE FEED (so the rows of a UTF-16
/// file break after the LF's two bytes), and a row longer than
/// [`MAX_ROW_BYTES`] is cut at the last item boundary that keeps it within
/// that many bytes. Rows are never empty, except the one row of an empty
/// file, and together they cover the file. (An item longer than
/// `MAX_ROW_BYTES`, which only the replacement decoder's unread bytes could
/// make, is cut inside.)
///
/// Each row costs two bytes (its length; rows are at most `MAX_ROW_BYTES`
/// long) and a bit (whether a line feed ends it), plus 24 for every 1024
/// rows: a 1 GiB file of 60-byte lines needs about 38 MB rather than the
/// 140 MB of one `u64` per row.
///
/// Lines are what the line feeds delimit: a line cut into several rows is
/// one line. [`line_of`](Self::line_of) tells the line and column of a byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    /// The length of each row.
    lengths: Vec<u16>,
    /// The start of rows 0, `ROWS_PER_BLOCK`, 2 × `ROWS_PER_BLOCK`, ...
    block_starts: Vec<u64>,
    /// Bit `i % 64` of word `i / 64`: a line feed ends row `i`.
    line_ends: Vec<u64>,
    /// For each block: the line feeds before its first row, and where the
    /// line its first row is part of starts.
    block_lines: Vec<(u64, u64)>,
    /// The bytes the rows cover: the file, or the part indexed so far.
    byte_len: u64,
    /// Whether the rows cover the whole file (else more may follow the last).
    complete: bool,
}

impl LineIndex {
    /// How many rows there are (at least one).
    pub fn row_count(&self) -> u64 {
        self.lengths.len() as u64
    }

    /// Whether the rows cover the whole file; else this is what is known of
    /// its first [`byte_len`](Self::byte_len) bytes, and the last row may
    /// grow.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The bytes the rows cover.
    pub fn byte_len(&self) -> u64 {
        self.byte_len
    }

    /// The bytes of row `row`; an empty span at the end for a row past the
    /// last.
    pub fn row_span(&self, row: u64) -> ByteSpan {
        let Some(index) = usize::try_from(row)
            .ok()
            .filter(|&i| i < self.lengths.len())
        else {
            return ByteSpan::new(self.byte_len, self.byte_len);
        };
        let block = index / ROWS_PER_BLOCK;
        let first = block * ROWS_PER_BLOCK;
        let start = self.block_starts[block]
            + self.lengths[first..index]
                .iter()
                .map(|&len| u64::from(len))
                .sum::<u64>();
        ByteSpan::new(start, start + u64::from(self.lengths[index]))
    }

    /// The spans of rows `rows`, in order (cheaper than one
    /// [`row_span`](Self::row_span) each).
    pub fn row_spans(&self, rows: std::ops::Range<u64>) -> Vec<ByteSpan> {
        let mut spans = Vec::new();
        let Some(first) = rows.clone().next() else {
            return spans;
        };
        let mut start = self.row_span(first).start;
        for row in rows {
            let len = usize::try_from(row)
                .ok()
                .and_then(|row| self.lengths.get(row))
                .map_or(0, |&len| u64::from(len));
            spans.push(ByteSpan::new(start, start + len));
            start += len;
        }
        spans
    }

    /// Whether a line feed ends row `row`.
    fn ends_line(&self, row: usize) -> bool {
        self.line_ends
            .get(row / 64)
            .is_some_and(|word| word & (1 << (row % 64)) != 0)
    }

    /// The line byte `byte_offset` is in, counted from 1, and where that
    /// line starts; `None` past the bytes indexed so far (the rows of an
    /// index still being built may not reach it yet).
    pub fn line_of(&self, byte_offset: u64) -> Option<(u64, u64)> {
        if byte_offset >= self.byte_len {
            return None;
        }
        let row = usize::try_from(self.row_of(byte_offset)).ok()?;
        let block = row / ROWS_PER_BLOCK;
        let first = block * ROWS_PER_BLOCK;
        let &(lines_before, block_line_start) = self.block_lines.get(block)?;
        let ended = (first..row).filter(|&r| self.ends_line(r)).count() as u64;
        // The line starts after the last row before `row` that a line feed
        // ends, or where the block's first line started.
        let start = (first..row)
            .rev()
            .find(|&r| self.ends_line(r))
            .map_or(block_line_start, |r| self.row_span(r as u64).end);
        Some((lines_before + ended + 1, start))
    }

    /// The row that byte `byte_offset` is in (the last row for offsets at or
    /// past the end).
    pub fn row_of(&self, byte_offset: u64) -> u64 {
        let block = self
            .block_starts
            .partition_point(|&start| start <= byte_offset)
            .saturating_sub(1);
        let first = block * ROWS_PER_BLOCK;
        let mut start = self.block_starts.get(block).copied().unwrap_or(0);
        let end = self.lengths.len().min(first + ROWS_PER_BLOCK);
        for index in first..end {
            start += u64::from(self.lengths[index]);
            if byte_offset < start {
                return index as u64;
            }
        }
        self.row_count().saturating_sub(1)
    }
}

/// Collects row starts from a decode.
pub(super) struct RowSink {
    /// Lengths of the rows that ended.
    lengths: Vec<u16>,
    block_starts: Vec<u64>,
    line_ends: Vec<u64>,
    block_lines: Vec<(u64, u64)>,
    row_start: u64,
    /// Line feeds so far.
    lines: u64,
    /// Where the current line starts.
    line_start: u64,
}

impl RowSink {
    pub(super) fn new() -> Self {
        Self {
            lengths: Vec::new(),
            block_starts: vec![0],
            line_ends: Vec::new(),
            block_lines: vec![(0, 0)],
            row_start: 0,
            lines: 0,
            line_start: 0,
        }
    }

    /// The index of the rows so far, over `[0, byte_len)`: the open row, if
    /// it is not empty, is the last (or the only one).
    pub(super) fn index(&self, byte_len: u64, complete: bool) -> LineIndex {
        let mut lengths = self.lengths.clone();
        if byte_len > self.row_start || lengths.is_empty() {
            // The open row; its block's start is already recorded. At most
            // MAX_ROW_BYTES.
            lengths.push((byte_len - self.row_start) as u16);
        }
        LineIndex {
            lengths,
            block_starts: self.block_starts.clone(),
            line_ends: self.line_ends.clone(),
            block_lines: self.block_lines.clone(),
            byte_len,
            complete,
        }
    }

    /// Ends the open row at `start`, where the next begins; `line_feed`
    /// when a line feed ends it.
    fn new_row(&mut self, start: u64, line_feed: bool) {
        let row = self.lengths.len();
        // Rows are at most MAX_ROW_BYTES long.
        self.lengths.push((start - self.row_start) as u16);
        if row.is_multiple_of(64) {
            self.line_ends.push(0);
        }
        if line_feed {
            if let Some(word) = self.line_ends.last_mut() {
                *word |= 1 << (row % 64);
            }
            self.lines += 1;
            self.line_start = start;
        }
        if self.lengths.len().is_multiple_of(ROWS_PER_BLOCK) {
            self.block_starts.push(start);
            self.block_lines.push((self.lines, self.line_start));
        }
        self.row_start = start;
    }

    /// One item; `is_line_feed` when it decoded to U+000A.
    fn item(&mut self, span: ByteSpan, is_line_feed: bool) {
        if span.start > self.row_start && span.end - self.row_start > MAX_ROW_BYTES {
            self.new_row(span.start, false);
        }
        // Not an item boundary, but no row may be longer.
        while span.end - self.row_start > MAX_ROW_BYTES {
            self.new_row(self.row_start + MAX_ROW_BYTES, false);
        }
        if is_line_feed {
            self.new_row(span.end, true);
        }
    }

    /// A run of one-byte-or-more items starting at `start`, `len` bytes long,
    /// whose item boundaries `is_boundary` tells (relative to `start`), with
    /// line feeds at `line_feeds` (relative, ascending).
    fn run(
        &mut self,
        start: u64,
        len: usize,
        line_feeds: impl Iterator<Item = usize>,
        is_boundary: impl Fn(usize) -> bool,
    ) {
        let run_end = start + len as u64;
        let mut line_feeds = line_feeds.peekable();
        loop {
            // The bytes up to and including the next line feed, or the rest.
            let next_line_feed = line_feeds.next();
            let segment_end = next_line_feed.map_or(run_end, |index| start + index as u64 + 1);
            while segment_end - self.row_start > MAX_ROW_BYTES {
                // The row is within MAX_ROW_BYTES of `start` (every item ends
                // within it), so the cut lies inside this run.
                let mut cut = (self.row_start + MAX_ROW_BYTES - start) as usize;
                while cut > 0 && !is_boundary(cut) {
                    cut -= 1;
                }
                self.new_row(start + cut as u64, false);
            }
            match next_line_feed {
                Some(_) => self.new_row(segment_end, true),
                None => break,
            }
        }
    }
}

impl DecodeSink for RowSink {
    fn ascii(&mut self, run: &[u8], start: u64) {
        let line_feeds = run
            .iter()
            .enumerate()
            .filter(|&(_, &byte)| byte == b'\n')
            .map(|(index, _)| index);
        self.run(start, run.len(), line_feeds, |_| true);
    }

    fn utf8_run(&mut self, run: &str, start: u64) {
        // In UTF-8 the byte 0x0A is U+000A and nothing else.
        let line_feeds = run
            .bytes()
            .enumerate()
            .filter(|&(_, byte)| byte == b'\n')
            .map(|(index, _)| index);
        self.run(start, run.len(), line_feeds, |index| {
            run.is_char_boundary(index)
        });
    }

    fn scalar(&mut self, c: char, span: ByteSpan) {
        self.item(span, c == '\n');
    }

    fn scalar_pair(&mut self, _first: char, _second: char, span: ByteSpan) {
        self.item(span, false);
    }

    fn error(&mut self, _kind: DecodeErrorKind, span: ByteSpan) {
        self.item(span, false);
    }

    fn skip(&mut self, _reason: SkipReason, span: ByteSpan) {
        self.item(span, false);
    }
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{
        BomHandling, Encoding, GB18030, ISO_2022_JP, REPLACEMENT, SHIFT_JIS, TraceItem, TraceKind,
        UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252,
    };

    use super::super::analyse_with_rows;
    use super::super::testing::{Rng, analysed, inputs, never, whole_trace};
    use super::*;

    /// Rows checked against the whole decode: contiguous, cover the file,
    /// non-empty, at most `MAX_ROW_BYTES` unless one item is longer, ending
    /// at item boundaries, breaking exactly after line feeds and where the
    /// next item would not fit.
    fn check_rows(bytes: &[u8], encoding: &'static Encoding, bom: BomHandling) -> LineIndex {
        let (analysis, index) = analyse_with_rows(bytes, encoding, bom, &never()).unwrap();
        assert_eq!(analysis.errors, analysed(bytes, encoding, bom).errors);
        assert!(index.is_complete());
        let items: Vec<TraceItem> = whole_trace(bytes, encoding, bom).items().collect();
        let len = bytes.len() as u64;
        // The expected rows, from the rule, item by item.
        let mut expected = vec![0u64];
        for item in &items {
            let row_start = *expected.last().unwrap();
            if item.span.start > row_start && item.span.end - row_start > MAX_ROW_BYTES {
                expected.push(item.span.start);
            }
            while item.span.end - expected.last().unwrap() > MAX_ROW_BYTES {
                let cut = expected.last().unwrap() + MAX_ROW_BYTES;
                expected.push(cut);
            }
            if item.kind == TraceKind::Scalar('\n') && item.span.end < len {
                expected.push(item.span.end);
            }
        }
        let rows: Vec<ByteSpan> = (0..index.row_count())
            .map(|row| index.row_span(row))
            .collect();
        let starts: Vec<u64> = rows.iter().map(|span| span.start).collect();
        assert_eq!(starts, expected, "{encoding}");
        assert_eq!(rows.first().unwrap().start, 0);
        assert_eq!(rows.last().unwrap().end, len);
        let boundaries: std::collections::HashSet<u64> =
            items.iter().map(|item| item.span.start).collect();
        for (row, pair) in rows.windows(2).enumerate() {
            assert_eq!(pair[0].end, pair[1].start);
            assert!(!pair[0].is_empty());
            assert!(pair[0].len() <= MAX_ROW_BYTES, "{encoding} row {row}");
            assert!(boundaries.contains(&pair[1].start), "{encoding} row {row}");
        }
        for (row, span) in (0u64..).zip(&rows) {
            assert_eq!(index.row_of(span.start), row);
            if !span.is_empty() {
                assert_eq!(index.row_of(span.end - 1), row);
            }
        }
        assert_eq!(index.row_spans(0..index.row_count()), rows);
        // Lines: 1 + the line feeds that end before the byte, starting after
        // the last of them.
        let line_feed_ends: Vec<u64> = items
            .iter()
            .filter(|item| item.kind == TraceKind::Scalar('\n'))
            .map(|item| item.span.end)
            .collect();
        let step = (bytes.len() / 4000).max(1);
        for byte in (0..len).step_by(step) {
            let before = line_feed_ends.partition_point(|&end| end <= byte);
            let start = before.checked_sub(1).map_or(0, |i| line_feed_ends[i]);
            assert_eq!(
                index.line_of(byte),
                Some((before as u64 + 1, start)),
                "{encoding} byte {byte}"
            );
        }
        assert_eq!(index.line_of(len), None);
        if let Some(middle) = rows.len().checked_div(2) {
            let middle = middle as u64;
            assert_eq!(
                index.row_spans(middle..index.row_count()),
                rows[middle as usize..]
            );
        }
        index
    }

    #[test]
    fn rows_break_after_line_feeds_in_utf_8_and_utf_16() {
        let index = check_rows(b"one\ntwo\n\nfour", UTF_8, BomHandling::Sniff);
        let rows: Vec<ByteSpan> = (0..index.row_count())
            .map(|row| index.row_span(row))
            .collect();
        assert_eq!(
            rows,
            [
                ByteSpan::new(0, 4),
                ByteSpan::new(4, 8),
                ByteSpan::new(8, 9),
                ByteSpan::new(9, 13)
            ]
        );
        // A trailing line feed starts no empty row.
        assert_eq!(
            check_rows(b"one\n", UTF_8, BomHandling::None).row_count(),
            1
        );
        // Non-ASCII UTF-8 goes through the valid-run path.
        let index = check_rows("é\n日本\n".as_bytes(), UTF_8, BomHandling::None);
        assert_eq!(index.row_span(1), ByteSpan::new(3, 10));

        // UTF-16LE: the row ends after the LF's 00 byte, not after 0A; a
        // 0x0A byte that is part of another character breaks nothing.
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend("a\n\u{0A0A}b\nc".encode_utf16().flat_map(u16::to_le_bytes));
        let index = check_rows(&bytes, UTF_8, BomHandling::Sniff);
        assert_eq!(index.row_count(), 3);
        assert_eq!(index.row_span(0), ByteSpan::new(0, 6));
        assert_eq!(index.row_span(1), ByteSpan::new(6, 12));
        assert_eq!(index.row_span(2), ByteSpan::new(12, 14));
        let index = check_rows(&bytes[2..], UTF_16LE, BomHandling::None);
        assert_eq!(index.row_span(0), ByteSpan::new(0, 4));
        // Read as UTF-16BE, the same bytes have no line feed at all.
        assert_eq!(
            check_rows(&bytes[2..], UTF_16BE, BomHandling::None).row_count(),
            1
        );
    }

    #[test]
    fn long_rows_are_cut_at_item_boundaries() {
        // 3-byte characters: 512 is not a multiple of 3, so cuts fall at 510.
        let long = "日".repeat(1000);
        let index = check_rows(long.as_bytes(), UTF_8, BomHandling::None);
        assert_eq!(index.row_span(0), ByteSpan::new(0, 510));
        assert_eq!(index.row_span(1), ByteSpan::new(510, 1020));
        // ASCII: exactly 512.
        let index = check_rows(&[b'x'; 1500], WINDOWS_1252, BomHandling::None);
        assert_eq!(index.row_count(), 3);
        assert_eq!(index.row_span(2), ByteSpan::new(1024, 1500));
        // Two-byte Shift_JIS characters after one ASCII byte: cut at 511.
        let mut sjis = vec![b'a'];
        for _ in 0..600 {
            sjis.extend_from_slice(b"\x93\xFA");
        }
        let index = check_rows(&sjis, SHIFT_JIS, BomHandling::None);
        assert_eq!(index.row_span(0), ByteSpan::new(0, 511));
        // The replacement decoder's bytes are one item each.
        check_rows(&[b'x'; 2000], REPLACEMENT, BomHandling::None);
    }

    #[test]
    fn a_line_cut_into_many_rows_is_one_line() {
        // 2000 rows of one line (past a block of 1024 rows), then two more.
        let mut bytes = vec![b'x'; 2000 * 512];
        bytes.extend_from_slice(b"\nab\ncd");
        let index = check_rows(&bytes, UTF_8, BomHandling::None);
        assert_eq!(index.line_of(1_500 * 512), Some((1, 0)));
        let first_end = 2000 * 512 + 1;
        assert_eq!(index.line_of(first_end + 1), Some((2, first_end)));
        assert_eq!(index.line_of(first_end + 3), Some((3, first_end + 3)));
    }

    #[test]
    fn rows_of_random_and_realistic_files() {
        let mut rng = Rng(99);
        for (encoding, bytes) in inputs(&mut rng).into_iter().step_by(3) {
            check_rows(&bytes, encoding, BomHandling::Sniff);
        }
        for encoding in [UTF_8, UTF_16LE, GB18030, ISO_2022_JP] {
            for _ in 0..20 {
                let len = rng.below(3000);
                let mut bytes = rng.bytes(len);
                // More line feeds and long lines.
                for byte in &mut bytes {
                    if *byte < 0x08 {
                        *byte = b'\n';
                    }
                }
                check_rows(&bytes, encoding, BomHandling::None);
            }
        }
        let empty = check_rows(b"", UTF_8, BomHandling::Sniff);
        assert_eq!(empty.row_count(), 1);
        assert_eq!(empty.row_span(0), ByteSpan::new(0, 0));
        assert_eq!(empty.row_span(5), ByteSpan::new(0, 0));
        assert_eq!(empty.row_of(100), 0);
    }
}
