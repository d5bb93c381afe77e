//! Whole-file analysis: error counts for every candidate encoding, one
//! encoding's errors and decoder checkpoints, and the row index.
//!
//! Everything here is synchronous and pure: it runs on whatever thread calls
//! it (the jobs in [`crate::model::jobs`] call it on theirs) and stops early, returning
//! `None`, when its `cancel` flag is set. The one exception is
//! [`count_errors`], which splits its work over two named threads of its own
//! and joins them before it returns.
//!
//! The window into a huge file rests on one property of core's [`Decoder`]:
//! a clone taken after bytes `[0, k)` decodes bytes `[k, ..)` exactly as the
//! whole-file decode goes on, with the same absolute offsets. [`analyse`]
//! keeps such a clone every [`CHECKPOINT_INTERVAL`] bytes, so that
//! [`EncodingAnalysis::decode_window`] decodes at most that much before the
//! bytes it was asked for.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread;

use mojiscope_core::{
    ALL, BomHandling, ByteSpan, DecodeErrorKind, DecodeErrorMode, DecodeSink, Decoder, Detection,
    Encoding, ErrorCounter, GB18030, GBK, SkipReason, Trace, TraceKind, UTF_8, X_USER_DEFINED,
};

/// Bytes between two decoder checkpoints.
pub const CHECKPOINT_INTERVAL: u64 = 64 * 1024;

/// At most this many error offsets are kept per analysis.
pub const MAX_ERROR_OFFSETS: usize = 1_000_000;

/// Rows longer than this many bytes are cut into pieces (see [`LineIndex`]).
pub const MAX_ROW_BYTES: u64 = 512;

/// How many error offsets [`count_errors`] keeps per encoding.
pub const FIRST_ERROR_OFFSETS: usize = 100;

/// Bytes decoded between two looks at the cancel flag (and two progress
/// reports).
const WORK_CHUNK: usize = 1024 * 1024;

/// [`CHECKPOINT_INTERVAL`] as a slice length.
const INTERVAL: usize = CHECKPOINT_INTERVAL as usize;

/// Bytes fed at a time past the end of a window, to finish the item that
/// began inside it: more than the longest sequence of any decoder.
const TAIL_STEP: usize = 16;

/// The worker threads [`count_errors`] runs on.
const COUNT_THREADS: usize = 2;

/// One encoding's decode of a whole file: its errors, and decoder
/// checkpoints for decoding any part of it again.
#[derive(Clone)]
pub struct EncodingAnalysis {
    /// The encoding actually decoded (with BOM sniffing, a byte order mark
    /// may have picked another than the one asked for).
    pub encoding: &'static Encoding,
    /// The byte order mark handling of the decode.
    pub bom_handling: BomHandling,
    /// How many errors the whole file has.
    pub errors: u64,
    /// The start offset of every error, in order; at most
    /// [`MAX_ERROR_OFFSETS`] of them.
    pub error_offsets: Vec<u64>,
    /// Whether there were more errors than `error_offsets` holds.
    pub error_offsets_truncated: bool,
    /// Checkpoint `i` is the decoder after bytes `[0, i * CHECKPOINT_INTERVAL)`;
    /// never empty.
    checkpoints: Vec<Decoder>,
    /// The bytes analysed: the whole file, or the part done so far.
    byte_len: u64,
    /// Whether the whole file is analysed (else this is a snapshot of the
    /// first `byte_len` bytes, and `errors` counts only theirs).
    complete: bool,
}

impl fmt::Debug for EncodingAnalysis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EncodingAnalysis")
            .field("encoding", &self.encoding)
            .field("bom_handling", &self.bom_handling)
            .field("errors", &self.errors)
            .field("error_offsets", &self.error_offsets.len())
            .field("error_offsets_truncated", &self.error_offsets_truncated)
            .field("checkpoints", &self.checkpoints.len())
            .field("byte_len", &self.byte_len)
            .field("complete", &self.complete)
            .finish()
    }
}

/// Decodes `bytes` whole with `encoding` in replacement mode, recording every
/// error and a decoder checkpoint every [`CHECKPOINT_INTERVAL`] bytes.
/// `progress` hears how many bytes are done after each MiB.
///
/// Returns `None` if `cancel` was set (it is looked at between `MiB`s).
pub fn analyse(
    bytes: &[u8],
    encoding: &'static Encoding,
    bom_handling: BomHandling,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u64),
) -> Option<EncodingAnalysis> {
    let mut analyser = Analyser::new(encoding, bom_handling, false);
    while !analyser.step(bytes) {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        progress(analyser.done());
    }
    progress(analyser.done());
    Some(analyser.finish(bytes).0)
}

/// [`analyse`], also recording where the rows start (see [`LineIndex`]), in
/// the same pass.
pub fn analyse_with_rows(
    bytes: &[u8],
    encoding: &'static Encoding,
    bom_handling: BomHandling,
    cancel: &AtomicBool,
) -> Option<(EncodingAnalysis, LineIndex)> {
    let mut analyser = Analyser::new(encoding, bom_handling, true);
    while !analyser.step(bytes) {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
    }
    let (analysis, rows) = analyser.finish(bytes);
    Some((analysis, rows?))
}

/// An analysis in progress: [`step`](Self::step) decodes the next MiB, and
/// [`snapshot`](Self::snapshot) tells what is known so far, so that a huge
/// file shows its first screen long before it is analysed whole.
pub struct Analyser {
    decoder: Decoder,
    errors: ErrorOffsets,
    checkpoints: Vec<Decoder>,
    rows: Option<RowSink>,
    bom_handling: BomHandling,
    /// Bytes decoded so far.
    done: usize,
    finished: bool,
}

impl Analyser {
    /// Starts analysing with `encoding`; with `rows`, also builds the line
    /// index.
    pub fn new(encoding: &'static Encoding, bom_handling: BomHandling, rows: bool) -> Self {
        Self {
            decoder: Decoder::new(encoding, DecodeErrorMode::Replacement, bom_handling),
            errors: ErrorOffsets::new(MAX_ERROR_OFFSETS),
            checkpoints: Vec::new(),
            rows: rows.then(RowSink::new),
            bom_handling,
            done: 0,
            finished: false,
        }
    }

    /// Bytes decoded so far.
    pub fn done(&self) -> u64 {
        self.done as u64
    }

    /// Decodes up to a MiB more of `bytes` (the same bytes at every call).
    /// Returns whether the whole of them is done.
    pub fn step(&mut self, bytes: &[u8]) -> bool {
        if self.finished {
            return true;
        }
        let stop = bytes.len().min(self.done + WORK_CHUNK);
        loop {
            self.checkpoints.push(self.decoder.clone());
            let start = self.done;
            let end = bytes.len().min(start + INTERVAL);
            let last = end == bytes.len();
            let piece = &bytes[start..end];
            // Replacement mode consumes every byte.
            let _ = match &mut self.rows {
                Some(rows) => self.decoder.decode(
                    piece,
                    last,
                    &mut Tee {
                        first: &mut self.errors,
                        second: rows,
                    },
                ),
                None => self.decoder.decode(piece, last, &mut self.errors),
            };
            self.done = end;
            if last {
                self.finished = true;
                return true;
            }
            if self.done >= stop {
                return false;
            }
        }
    }

    /// What is known so far, for the bytes `[0, done)`: the analysis (its
    /// errors and checkpoints so far) and, if asked for, the rows that start
    /// in them. Costs a copy of both.
    pub fn snapshot(&self) -> (EncodingAnalysis, Option<LineIndex>) {
        let analysis = EncodingAnalysis {
            encoding: self.decoder.encoding(),
            bom_handling: self.bom_handling,
            errors: self.errors.errors,
            error_offsets: self.errors.offsets.clone(),
            error_offsets_truncated: self.errors.truncated,
            checkpoints: self.checkpoints.clone(),
            byte_len: self.done as u64,
            complete: self.finished,
        };
        let rows = self
            .rows
            .as_ref()
            .map(|rows| rows.index(self.done as u64, self.finished));
        (analysis, rows)
    }

    /// The finished analysis of `bytes` (which must all be done) and its
    /// rows, if asked for.
    pub fn finish(self, bytes: &[u8]) -> (EncodingAnalysis, Option<LineIndex>) {
        debug_assert!(self.finished, "finish before the last step");
        let byte_len = bytes.len() as u64;
        let analysis = EncodingAnalysis {
            encoding: self.decoder.encoding(),
            bom_handling: self.bom_handling,
            errors: self.errors.errors,
            error_offsets: self.errors.offsets,
            error_offsets_truncated: self.errors.truncated,
            checkpoints: self.checkpoints,
            byte_len,
            complete: true,
        };
        let rows = self.rows.map(|rows| rows.index(byte_len, true));
        (analysis, rows)
    }
}

/// Passes every item to two sinks.
struct Tee<'a, A, B> {
    first: &'a mut A,
    second: &'a mut B,
}

impl<A: DecodeSink, B: DecodeSink> DecodeSink for Tee<'_, A, B> {
    #[inline]
    fn ascii(&mut self, run: &[u8], start: u64) {
        self.first.ascii(run, start);
        self.second.ascii(run, start);
    }
    #[inline]
    fn utf8_run(&mut self, run: &str, start: u64) {
        self.first.utf8_run(run, start);
        self.second.utf8_run(run, start);
    }
    #[inline]
    fn scalar(&mut self, c: char, span: ByteSpan) {
        self.first.scalar(c, span);
        self.second.scalar(c, span);
    }
    #[inline]
    fn scalar_pair(&mut self, first: char, second: char, span: ByteSpan) {
        self.first.scalar_pair(first, second, span);
        self.second.scalar_pair(first, second, span);
    }
    #[inline]
    fn error(&mut self, kind: DecodeErrorKind, span: ByteSpan) {
        self.first.error(kind, span);
        self.second.error(kind, span);
    }
    #[inline]
    fn skip(&mut self, reason: SkipReason, span: ByteSpan) {
        self.first.skip(reason, span);
        self.second.skip(reason, span);
    }
}

impl EncodingAnalysis {
    /// The bytes analysed: the size of the file once
    /// [`complete`](Self::is_complete).
    pub fn byte_len(&self) -> u64 {
        self.byte_len
    }

    /// Whether the whole file is analysed; else this is what was known of
    /// its first [`byte_len`](Self::byte_len) bytes.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The items of the whole-file traced decode whose spans start in
    /// `range`, exactly as the whole-file decode has them (text, spans and
    /// errors). The last item may end after `range.end`; an item that starts
    /// before `range.start` is left out.
    ///
    /// `bytes` must be the bytes that were analysed (all of them, also for a
    /// snapshot). It decodes from the last checkpoint at or before
    /// `range.start`, so the cost is the size of the range plus at most
    /// [`CHECKPOINT_INTERVAL`] bytes. A snapshot decodes only what it
    /// analysed: the part of `range` past that is left out.
    pub fn decode_window(&self, bytes: &[u8], range: ByteSpan) -> Trace {
        debug_assert!(
            !self.complete || bytes.len() as u64 == self.byte_len,
            "not the analysed bytes"
        );
        // A snapshot knows nothing past what it analysed: decoding there
        // would mean decoding everything between its last checkpoint and the
        // range, on the caller's (the window's) thread.
        let len = bytes.len();
        let known = if self.complete {
            len as u64
        } else {
            self.byte_len.min(len as u64)
        };
        let start = range.start.min(known);
        let end = range.end.clamp(start, known);
        let mut sink = WindowSink {
            start,
            end,
            covered: 0,
            trace: Trace::new(),
        };
        if start == end {
            return sink.trace;
        }
        // `start < len`, so the index is below the number of checkpoints
        // (unless these are not the analysed bytes).
        let index = usize::try_from(start / CHECKPOINT_INTERVAL)
            .unwrap_or(usize::MAX)
            .min(self.checkpoints.len().saturating_sub(1));
        let Some(checkpoint) = self.checkpoints.get(index) else {
            return sink.trace;
        };
        let mut decoder = checkpoint.clone();
        let mut position = index * INTERVAL;
        // `end <= len`, which fits in usize.
        let end = usize::try_from(end).unwrap_or(len);
        loop {
            let piece_end = if position < end {
                end
            } else {
                len.min(position + TAIL_STEP)
            };
            let Some(piece) = bytes.get(position..piece_end) else {
                break;
            };
            let last = piece_end == len;
            let _ = decoder.decode(piece, last, &mut sink);
            position = piece_end;
            // Items are contiguous: once they cover `end`, every item that
            // starts before it has been seen.
            if last || sink.covered >= sink.end {
                break;
            }
        }
        sink.trace
    }

    /// The decoder checkpoint at or before `byte_offset`, and the offset it
    /// was taken at: the decoder after bytes `[0, offset)` of the
    /// whole-file decode, which goes on from there exactly as that decode
    /// did (the teaching views explain its steps from it). `None` for an
    /// offset this analysis has not reached (a snapshot's, or past the end).
    pub fn decoder_at(&self, byte_offset: u64) -> Option<(u64, &Decoder)> {
        if byte_offset >= self.byte_len {
            return None;
        }
        let index = usize::try_from(byte_offset / CHECKPOINT_INTERVAL).ok()?;
        let decoder = self.checkpoints.get(index)?;
        Some((index as u64 * CHECKPOINT_INTERVAL, decoder))
    }

    /// The span and kind of the error that starts at `byte_offset`, from a
    /// decode of just that window.
    pub fn error_at(&self, bytes: &[u8], byte_offset: u64) -> Option<(ByteSpan, DecodeErrorKind)> {
        let window = ByteSpan::new(byte_offset, (byte_offset + 1).min(bytes.len() as u64));
        let trace = self.decode_window(bytes, window);
        trace.items().find_map(|item| match item.kind {
            TraceKind::Error(kind) if item.span.start == byte_offset => Some((item.span, kind)),
            _ => None,
        })
    }

    /// The offset of the first error after byte `after`, if any (among the
    /// recorded [`error_offsets`](Self::error_offsets)).
    pub fn next_error(&self, after: u64) -> Option<u64> {
        let index = self
            .error_offsets
            .partition_point(|&offset| offset <= after);
        self.error_offsets.get(index).copied()
    }

    /// The offset of the last error before byte `before`, if any (among the
    /// recorded [`error_offsets`](Self::error_offsets)).
    pub fn prev_error(&self, before: u64) -> Option<u64> {
        let index = self
            .error_offsets
            .partition_point(|&offset| offset < before);
        index
            .checked_sub(1)
            .and_then(|index| self.error_offsets.get(index).copied())
    }
}

/// Counts errors and keeps the offsets of the first `limit` of them.
#[derive(Debug)]
struct ErrorOffsets {
    errors: u64,
    offsets: Vec<u64>,
    limit: usize,
    truncated: bool,
}

impl ErrorOffsets {
    fn new(limit: usize) -> Self {
        Self {
            errors: 0,
            offsets: Vec::new(),
            limit,
            truncated: false,
        }
    }
}

impl DecodeSink for ErrorOffsets {
    #[inline]
    fn ascii(&mut self, _run: &[u8], _start: u64) {}
    #[inline]
    fn utf8_run(&mut self, _run: &str, _start: u64) {}
    #[inline]
    fn scalar(&mut self, _c: char, _span: ByteSpan) {}
    #[inline]
    fn scalar_pair(&mut self, _first: char, _second: char, _span: ByteSpan) {}
    #[inline]
    fn error(&mut self, _kind: DecodeErrorKind, span: ByteSpan) {
        self.errors += 1;
        if self.offsets.len() < self.limit {
            self.offsets.push(span.start);
        } else {
            self.truncated = true;
        }
    }
    #[inline]
    fn skip(&mut self, _reason: SkipReason, _span: ByteSpan) {}
}

/// Keeps the items that start in `start..end` in a trace, and notes how far
/// the items seen so far reach.
struct WindowSink {
    start: u64,
    end: u64,
    /// The end of the last item seen.
    covered: u64,
    trace: Trace,
}

impl WindowSink {
    fn wants(&mut self, span: ByteSpan) -> bool {
        self.covered = self.covered.max(span.end);
        self.start <= span.start && span.start < self.end
    }
}

impl DecodeSink for WindowSink {
    fn ascii(&mut self, run: &[u8], start: u64) {
        let run_end = start + run.len() as u64;
        self.covered = run_end;
        let from = self.start.max(start);
        let to = self.end.min(run_end);
        if from < to {
            // Both lie within the run.
            let slice = &run[(from - start) as usize..(to - start) as usize];
            self.trace.ascii(slice, from);
        }
    }

    fn utf8_run(&mut self, run: &str, start: u64) {
        let run_end = start + run.len() as u64;
        self.covered = run_end;
        if self.start >= run_end || self.end <= start {
            return;
        }
        // The characters that start in the window: round both ends up to a
        // character boundary.
        let ceil = |mut index: usize| {
            while !run.is_char_boundary(index) {
                index += 1;
            }
            index
        };
        let from = ceil(self.start.saturating_sub(start) as usize);
        let to = ceil(((self.end - start) as usize).min(run.len()));
        if from < to {
            self.trace.utf8_run(&run[from..to], start + from as u64);
        }
    }

    fn scalar(&mut self, c: char, span: ByteSpan) {
        if self.wants(span) {
            self.trace.scalar(c, span);
        }
    }

    fn scalar_pair(&mut self, first: char, second: char, span: ByteSpan) {
        if self.wants(span) {
            self.trace.scalar_pair(first, second, span);
        }
    }

    fn error(&mut self, kind: DecodeErrorKind, span: ByteSpan) {
        if self.wants(span) {
            self.trace.error(kind, span);
        }
    }

    fn skip(&mut self, reason: SkipReason, span: ByteSpan) {
        if self.wants(span) {
            self.trace.skip(reason, span);
        }
    }
}

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
/// long), plus eight for every 1024 rows: a 1 GiB file of
/// 60-byte lines needs about 36 MB rather than the 140 MB of one `u64` per
/// row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    /// The length of each row.
    lengths: Vec<u16>,
    /// The start of rows 0, `ROWS_PER_BLOCK`, 2 × `ROWS_PER_BLOCK`, ...
    block_starts: Vec<u64>,
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
struct RowSink {
    /// Lengths of the rows that ended.
    lengths: Vec<u16>,
    block_starts: Vec<u64>,
    row_start: u64,
}

impl RowSink {
    fn new() -> Self {
        Self {
            lengths: Vec::new(),
            block_starts: vec![0],
            row_start: 0,
        }
    }

    /// The index of the rows so far, over `[0, byte_len)`: the open row, if
    /// it is not empty, is the last (or the only one).
    fn index(&self, byte_len: u64, complete: bool) -> LineIndex {
        let mut lengths = self.lengths.clone();
        if byte_len > self.row_start || lengths.is_empty() {
            // The open row; its block's start is already recorded. At most
            // MAX_ROW_BYTES.
            lengths.push((byte_len - self.row_start) as u16);
        }
        LineIndex {
            lengths,
            block_starts: self.block_starts.clone(),
            byte_len,
            complete,
        }
    }

    fn new_row(&mut self, start: u64) {
        // Rows are at most MAX_ROW_BYTES long.
        self.lengths.push((start - self.row_start) as u16);
        if self.lengths.len().is_multiple_of(ROWS_PER_BLOCK) {
            self.block_starts.push(start);
        }
        self.row_start = start;
    }

    /// One item; `is_line_feed` when it decoded to U+000A.
    fn item(&mut self, span: ByteSpan, is_line_feed: bool) {
        if span.start > self.row_start && span.end - self.row_start > MAX_ROW_BYTES {
            self.new_row(span.start);
        }
        // Not an item boundary, but no row may be longer.
        while span.end - self.row_start > MAX_ROW_BYTES {
            self.new_row(self.row_start + MAX_ROW_BYTES);
        }
        if is_line_feed {
            self.new_row(span.end);
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
                self.new_row(start + cut as u64);
            }
            match next_line_feed {
                Some(_) => self.new_row(segment_end),
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

/// One encoding's errors over a whole file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorCount {
    /// The encoding.
    pub encoding: &'static Encoding,
    /// How many errors its decoder reports over every byte of the file.
    pub errors: u64,
    /// The offsets of the first [`FIRST_ERROR_OFFSETS`] of them.
    pub first_error_offsets: Vec<u64>,
}

/// Decodes all of `bytes` with each of `encodings` (no BOM handling,
/// replacement mode) and counts the errors, in the order given.
///
/// The single-byte encodings (and x-user-defined) are counted together from
/// one histogram of the bytes, since each byte decodes on its own; the other
/// decoders run on two named worker threads. Returns `None` if `cancel` was
/// set (it is looked at between `MiB`s).
pub fn count_errors(
    bytes: &[u8],
    encodings: &[&'static Encoding],
    cancel: &AtomicBool,
) -> Option<Vec<ErrorCount>> {
    count_errors_with_progress(bytes, encodings, cancel, &|_, _| {})
}

/// [`count_errors`], reporting progress as `progress(done, total)` in
/// arbitrary units from the worker threads.
pub fn count_errors_with_progress(
    bytes: &[u8],
    encodings: &[&'static Encoding],
    cancel: &AtomicBool,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Option<Vec<ErrorCount>> {
    let mut bytewise: Vec<&'static Encoding> = Vec::new();
    let mut tasks: Vec<Task> = Vec::new();
    for &encoding in encodings {
        if is_bytewise(encoding) {
            if !bytewise.contains(&encoding) {
                bytewise.push(encoding);
            }
        } else {
            let decoder = same_decoder(encoding);
            if !tasks.contains(&Task::Decode(decoder)) {
                tasks.push(Task::Decode(decoder));
            }
        }
    }
    if !bytewise.is_empty() {
        // Last: it is the quickest, and fills in while the other worker
        // finishes its decoder.
        tasks.push(Task::Bytewise(bytewise));
    }

    let total = bytes.len() as u64 * tasks.len() as u64;
    let done = AtomicU64::new(0);
    let tick = |len: usize| {
        let now = done.fetch_add(len as u64, Ordering::Relaxed) + len as u64;
        progress(now, total);
    };
    let next_task = AtomicUsize::new(0);
    let work = || -> Option<Vec<ErrorCount>> {
        let mut counted = Vec::new();
        while let Some(task) = tasks.get(next_task.fetch_add(1, Ordering::Relaxed)) {
            match task {
                Task::Decode(encoding) => {
                    counted.push(count_decoder(bytes, encoding, cancel, &tick)?);
                }
                Task::Bytewise(encodings) => {
                    counted.extend(count_bytewise(bytes, encodings, cancel, &tick)?);
                }
            }
        }
        Some(counted)
    };
    let results = thread::scope(|scope| {
        let workers: Vec<_> = (0..COUNT_THREADS.min(tasks.len()))
            .map(|worker| {
                thread::Builder::new()
                    .name(format!("count-errors:{worker}"))
                    .spawn_scoped(scope, work)
            })
            .collect();
        let mut results = Vec::new();
        for worker in workers {
            match worker {
                Ok(handle) => match handle.join() {
                    Ok(counted) => results.push(counted),
                    Err(panic) => std::panic::resume_unwind(panic),
                },
                // No thread: this one does the work itself.
                Err(_) => results.push(work()),
            }
        }
        results
    });

    let mut by_encoding: HashMap<&'static Encoding, ErrorCount> = HashMap::new();
    for counted in results {
        for count in counted? {
            by_encoding.insert(count.encoding, count);
        }
    }
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    encodings
        .iter()
        .map(|&encoding| {
            let count = by_encoding.get(&same_decoder(encoding))?;
            Some(ErrorCount {
                encoding,
                ..count.clone()
            })
        })
        .collect()
}

/// One unit of [`count_errors`]'s work.
#[derive(Debug, PartialEq, Eq)]
enum Task {
    /// One decoder over all the bytes.
    Decode(&'static Encoding),
    /// The byte histogram, for these encodings.
    Bytewise(Vec<&'static Encoding>),
}

/// Whether each byte decodes on its own, whatever surrounds it.
fn is_bytewise(encoding: &'static Encoding) -> bool {
    encoding.is_single_byte() || encoding == X_USER_DEFINED
}

/// The encoding whose decoder `encoding` uses: the standard's GBK decoder is
/// the gb18030 decoder, so their errors are the same.
fn same_decoder(encoding: &'static Encoding) -> &'static Encoding {
    if encoding == GBK { GB18030 } else { encoding }
}

/// Runs `encoding`'s decoder over `bytes`, counting errors.
fn count_decoder(
    bytes: &[u8],
    encoding: &'static Encoding,
    cancel: &AtomicBool,
    tick: &dyn Fn(usize),
) -> Option<ErrorCount> {
    let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
    let mut sink = ErrorOffsets::new(FIRST_ERROR_OFFSETS);
    if bytes.is_empty() {
        let _ = decoder.decode(&[], true, &mut sink);
    }
    let mut chunks = bytes.chunks(WORK_CHUNK).peekable();
    while let Some(chunk) = chunks.next() {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let last = chunks.peek().is_none();
        let _ = decoder.decode(chunk, last, &mut sink);
        tick(chunk.len());
    }
    Some(ErrorCount {
        encoding,
        errors: sink.errors,
        first_error_offsets: sink.offsets,
    })
}

/// Counts the errors of encodings whose bytes decode one at a time, from one
/// histogram of the bytes, then finds the first offsets of those with errors
/// in one more scan.
fn count_bytewise(
    bytes: &[u8],
    encodings: &[&'static Encoding],
    cancel: &AtomicBool,
    tick: &dyn Fn(usize),
) -> Option<Vec<ErrorCount>> {
    // Bit `i` of `rejects[byte]`: `encodings[i]` reports an error for `byte`.
    // There are 29 bytewise encodings, so the bits suffice; any beyond 64
    // (which would be duplicates) are left to their own decoder.
    let (encodings, others) = encodings.split_at(encodings.len().min(64));
    let mut rejects = [0u64; 256];
    for (bit, &encoding) in encodings.iter().enumerate() {
        for byte in 0x80..=0xFF_u8 {
            let mut decoder =
                Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
            let mut counter = ErrorCounter::default();
            let _ = decoder.decode(&[byte], true, &mut counter);
            if counter.errors > 0 {
                rejects[usize::from(byte)] |= 1 << bit;
            }
        }
    }

    let histogram = byte_histogram(bytes, cancel, tick)?;
    let mut counts: Vec<ErrorCount> = encodings
        .iter()
        .enumerate()
        .map(|(bit, &encoding)| ErrorCount {
            encoding,
            errors: (0..256)
                .filter(|&byte| rejects[byte] & (1 << bit) != 0)
                .map(|byte| histogram[byte])
                .sum(),
            first_error_offsets: Vec::new(),
        })
        .collect();

    // Which encodings still want offsets.
    let mut wanted: u64 = counts
        .iter()
        .enumerate()
        .filter(|(_, count)| count.errors > 0)
        .fold(0, |bits, (bit, _)| bits | 1 << bit);
    let mut chunk_start = 0;
    for chunk in bytes.chunks(WORK_CHUNK) {
        if wanted == 0 {
            break;
        }
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        for (block_index, block) in chunk.chunks(32).enumerate() {
            // Every encoding here decodes ASCII bytes without error.
            if block.is_ascii() {
                continue;
            }
            let block_start = chunk_start + block_index * 32;
            for (index, &byte) in block.iter().enumerate() {
                let mut hits = rejects[usize::from(byte)] & wanted;
                while hits != 0 {
                    let bit = hits.trailing_zeros() as usize;
                    hits &= hits - 1;
                    let offsets = &mut counts[bit].first_error_offsets;
                    offsets.push((block_start + index) as u64);
                    if offsets.len() == FIRST_ERROR_OFFSETS {
                        wanted &= !(1 << bit);
                    }
                }
            }
            if wanted == 0 {
                break;
            }
        }
        chunk_start += chunk.len();
    }
    for &encoding in others {
        counts.push(count_decoder(bytes, encoding, cancel, &|_| {})?);
    }
    Some(counts)
}

/// How many times each byte value occurs in `bytes`.
fn byte_histogram(bytes: &[u8], cancel: &AtomicBool, tick: &dyn Fn(usize)) -> Option<[u64; 256]> {
    // Four tables, so that runs of one byte value do not serialise on one
    // counter.
    let mut tables = [[0u64; 256]; 4];
    for chunk in bytes.chunks(WORK_CHUNK) {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let mut quads = chunk.chunks_exact(4);
        for quad in quads.by_ref() {
            tables[0][usize::from(quad[0])] += 1;
            tables[1][usize::from(quad[1])] += 1;
            tables[2][usize::from(quad[2])] += 1;
            tables[3][usize::from(quad[3])] += 1;
        }
        for &byte in quads.remainder() {
            tables[0][usize::from(byte)] += 1;
        }
        tick(chunk.len());
    }
    let mut histogram = [0u64; 256];
    for table in &tables {
        for (total, count) in histogram.iter_mut().zip(table) {
            *total += count;
        }
    }
    Some(histogram)
}

/// The encodings to show first, from detection: the byte order mark's
/// encoding alone if there is one; otherwise the best candidate, UTF-8 (for
/// comparison, unless it is the best) and the next candidate that reads the
/// file differently. Encodings that decode the examined bytes to the same
/// text as a better one are skipped (a second pane showing the same text
/// says nothing).
pub fn detected_panes(
    bom: Option<&'static Encoding>,
    detection: &Detection,
) -> Vec<&'static Encoding> {
    if let Some(bom) = bom {
        return vec![bom];
    }
    let mut distinct = detection
        .distinct_texts()
        .map(|candidate| candidate.encoding)
        .filter(|encoding| encoding.is_override_choice());
    let best = distinct.next().unwrap_or(UTF_8);
    let mut panes = vec![best];
    if best != UTF_8 {
        panes.push(UTF_8);
    }
    panes.extend(distinct.filter(|&e| e != UTF_8).take(3 - panes.len()));
    // Two panes at least, even when every encoding reads the same text.
    if panes.len() < 2
        && let Some(next) = detection
            .candidates
            .iter()
            .map(|candidate| candidate.encoding)
            .find(|e| e.is_override_choice() && !panes.contains(e))
    {
        panes.push(next);
    }
    panes
}

/// The encodings to show first: the byte order mark's encoding alone if
/// there is one; otherwise UTF-8 and the two override choices (other than
/// UTF-8) with the fewest errors, ties going to multi-byte encodings, then
/// to the standard's order.
pub fn default_panes(
    bom: Option<&'static Encoding>,
    counts: &[ErrorCount],
) -> Vec<&'static Encoding> {
    if let Some(bom) = bom {
        return vec![bom];
    }
    let order = |encoding: &Encoding| ALL.iter().position(|&other| other == encoding);
    let mut candidates: Vec<&ErrorCount> = counts
        .iter()
        .filter(|count| count.encoding != UTF_8 && count.encoding.is_override_choice())
        .collect();
    // Among equals, a multi-byte encoding that reads the file without
    // errors says more than a single-byte one (most of which read any byte).
    candidates.sort_by_key(|count| {
        (
            count.errors,
            is_bytewise(count.encoding),
            order(count.encoding),
        )
    });
    // GBK's decoder is gb18030's: one of them is enough.
    candidates.dedup_by_key(|count| same_decoder(count.encoding));
    let mut panes = vec![UTF_8];
    panes.extend(candidates.iter().take(2).map(|count| count.encoding));
    panes
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{
        BIG5, EUC_JP, EUC_KR, ISO_2022_JP, ISO_8859_8, REPLACEMENT, SHIFT_JIS, TraceItem,
        TraceKind, UTF_16BE, UTF_16LE, WINDOWS_1252,
    };

    use super::*;

    /// A small deterministic generator (xorshift64*).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        fn bytes(&mut self, len: usize) -> Vec<u8> {
            (0..len).map(|_| (self.next() >> 56) as u8).collect()
        }
    }

    const TEXT: &str = "Plain text, café naïve Ærø € ¥ ‾ Ελληνικά Кириллица עברית العربية ไทย\n\
        日本語のテキスト、カタカナ・ひらがな。ｶﾀｶﾅ 漢字 鷗 髙 﨑 〜 ①\n\
        中文简体 繁體中文 𠀋 한국어 텍스트 가나다 😀\r\n";

    /// Realistic text in `encoding`: the sample's encodable characters,
    /// repeated with random errors sprinkled in, about `len` bytes.
    fn realistic(encoding: &'static Encoding, len: usize, rng: &mut Rng) -> Vec<u8> {
        let encodable: String = TEXT
            .chars()
            .filter(|&c| {
                let mut s = String::new();
                s.push(c);
                encoding.encode_fatal(&s).is_ok()
            })
            .collect();
        let (line, _, _) = encoding.encode(&encodable);
        let mut bytes = Vec::with_capacity(len + line.len());
        while bytes.len() < len {
            match encoding {
                e if e == UTF_16LE => {
                    bytes.extend(encodable.encode_utf16().flat_map(u16::to_le_bytes));
                }
                e if e == UTF_16BE => {
                    bytes.extend(encodable.encode_utf16().flat_map(u16::to_be_bytes));
                }
                _ => bytes.extend_from_slice(&line),
            }
            // Now and then a stray byte or two.
            if rng.below(4) == 0 {
                let stray = 1 + rng.below(2);
                bytes.extend(rng.bytes(stray));
            }
        }
        bytes
    }

    /// Every encoding, with inputs that exercise its state across checkpoints.
    fn inputs(rng: &mut Rng) -> Vec<(&'static Encoding, Vec<u8>)> {
        let mut inputs = Vec::new();
        let size = 3 * INTERVAL + 1234;
        for &encoding in &ALL {
            inputs.push((encoding, realistic(encoding, size, rng)));
            inputs.push((encoding, rng.bytes(size / 2)));
        }
        // ISO-2022-JP: escapes switching state often, long stretches in the
        // JIS X 0208 state across checkpoints.
        let mut iso = Vec::new();
        while iso.len() < size {
            iso.extend_from_slice(b"ascii \x1B$B");
            for _ in 0..rng.below(40_000) {
                iso.extend_from_slice(b"F|K\\");
            }
            iso.extend_from_slice(b"\x1B(J\\~\x1B(I1\x1B$@\x1B(B\n\x1B$B\x1B(B");
            if rng.below(3) == 0 {
                iso.push(0x1B);
            }
        }
        inputs.push((ISO_2022_JP, iso));
        // UTF-16: surrogate pairs (and now and then a lone surrogate) over
        // the checkpoints, in both byte orders, evenly and oddly aligned.
        for shift in 0..2 {
            let mut le = vec![b'x'; shift];
            let mut be = le.clone();
            while le.len() < size {
                let unit_pair: &[u16] = match rng.below(8) {
                    0 => &[0x61],
                    1 => &[0x0A],
                    2 => &[0xD800],
                    _ => &[0xD83D, 0xDE00],
                };
                for unit in unit_pair {
                    le.extend(unit.to_le_bytes());
                    be.extend(unit.to_be_bytes());
                }
            }
            inputs.push((UTF_16LE, le));
            inputs.push((UTF_16BE, be));
        }
        // gb18030: four-byte sequences over every checkpoint, at every offset.
        for shift in 0..10 {
            let mut gb = vec![b'a'; shift];
            while gb.len() < size {
                gb.extend_from_slice(b"\x81\x30\x81\x30\x84\x31\xA4\x39\xC4\xE3");
            }
            inputs.push((GB18030, gb));
        }
        inputs
    }

    fn whole_trace(bytes: &[u8], encoding: &'static Encoding, bom: BomHandling) -> Trace {
        let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, bom);
        let mut trace = Trace::new();
        let _ = decoder.decode(bytes, true, &mut trace);
        trace
    }

    fn never() -> AtomicBool {
        AtomicBool::new(false)
    }

    fn analysed(bytes: &[u8], encoding: &'static Encoding, bom: BomHandling) -> EncodingAnalysis {
        analyse(bytes, encoding, bom, &never(), &mut |_| {}).unwrap()
    }

    /// The window's items are the whole decode's items that start in range.
    fn check_window(
        bytes: &[u8],
        analysis: &EncodingAnalysis,
        whole: &[TraceItem],
        range: ByteSpan,
    ) {
        let window = analysis.decode_window(bytes, range);
        let first = whole.partition_point(|item| item.span.start < range.start);
        let after = whole.partition_point(|item| item.span.start < range.end);
        let expected = &whole[first..after.max(first)];
        let got: Vec<TraceItem> = window.items().collect();
        assert_eq!(
            got,
            expected,
            "{} window {range} of {} bytes",
            analysis.encoding,
            bytes.len()
        );
        let mut text = String::new();
        for item in expected {
            item.push_text(&mut text);
        }
        assert_eq!(window.text, text);
        let errors = expected
            .iter()
            .filter(|item| matches!(item.kind, TraceKind::Error(_)))
            .count() as u64;
        assert_eq!(window.error_count(), errors);
    }

    #[test]
    fn windows_decode_as_the_whole_file_does() {
        let mut rng = Rng(0x5EED);
        for (encoding, bytes) in inputs(&mut rng) {
            for bom in [BomHandling::None, BomHandling::Sniff] {
                let analysis = analysed(&bytes, encoding, bom);
                let whole = whole_trace(&bytes, encoding, bom);
                let whole: Vec<TraceItem> = whole.items().collect();
                let len = bytes.len() as u64;
                let mut ranges = vec![
                    ByteSpan::new(0, len),
                    ByteSpan::new(0, 1),
                    ByteSpan::new(len - 1, len),
                    ByteSpan::new(len, len),
                    ByteSpan::new(len - 3, len + 100),
                ];
                for checkpoint in 1..=3 {
                    let at = checkpoint * CHECKPOINT_INTERVAL;
                    for delta in 0..4 {
                        ranges.push(ByteSpan::new(at - delta, at + 1));
                        ranges.push(ByteSpan::new(at - 2, at + delta));
                    }
                }
                for _ in 0..20 {
                    let start = rng.below(bytes.len()) as u64;
                    let end = start + rng.below(3000) as u64;
                    ranges.push(ByteSpan::new(start, end));
                }
                for range in ranges {
                    check_window(&bytes, &analysis, &whole, range);
                }
            }
        }
    }

    #[test]
    fn a_bom_picks_the_encoding_and_is_an_item_of_the_first_window() {
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend("a😀\n".encode_utf16().flat_map(u16::to_le_bytes));
        let analysis = analysed(&bytes, WINDOWS_1252, BomHandling::Sniff);
        assert_eq!(analysis.encoding, UTF_16LE);
        assert_eq!(analysis.errors, 0);
        let window = analysis.decode_window(&bytes, ByteSpan::new(0, 3));
        let items: Vec<TraceItem> = window.items().collect();
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].kind, TraceKind::Skip(SkipReason::Bom));
        assert_eq!(items[1].span, ByteSpan::new(2, 4));
        // A window starting inside the surrogate pair sees nothing of it.
        let window = analysis.decode_window(&bytes, ByteSpan::new(5, 8));
        assert_eq!(window.text, "");
        let window = analysis.decode_window(&bytes, ByteSpan::new(4, 5));
        assert_eq!(window.text, "😀");
        assert_eq!(window.items().next().unwrap().span, ByteSpan::new(4, 8));
    }

    #[test]
    fn analysis_counts_and_locates_errors() {
        let mut rng = Rng(7);
        for (encoding, bytes) in inputs(&mut rng) {
            let analysis = analysed(&bytes, encoding, BomHandling::None);
            let whole = whole_trace(&bytes, encoding, BomHandling::None);
            let offsets: Vec<u64> = whole.errors().map(|(span, _)| span.start).collect();
            assert_eq!(analysis.errors, offsets.len() as u64, "{encoding}");
            assert_eq!(analysis.error_offsets, offsets, "{encoding}");
            assert!(!analysis.error_offsets_truncated);
            assert_eq!(analysis.encoding, encoding);
            assert_eq!(
                analysis.checkpoints.len(),
                bytes.len().div_ceil(INTERVAL).max(1)
            );
        }
    }

    #[test]
    fn the_checkpoint_before_an_offset_explains_it_as_the_whole_decode_reads_it() {
        // "あ" (0x82 0xA0) in Shift_JIS, with its leading byte the last of
        // the first checkpoint interval: the checkpoint after it holds the
        // leading byte, and the explanation picks it up from there.
        let mut bytes = vec![b'a'; INTERVAL - 1];
        bytes.extend_from_slice(b"\x82\xA0 and more");
        let analysis = analysed(&bytes, SHIFT_JIS, BomHandling::None);
        let second = CHECKPOINT_INTERVAL;
        assert_eq!(analysis.decoder_at(0).map(|(at, _)| at), Some(0));
        assert_eq!(analysis.decoder_at(second - 1).map(|(at, _)| at), Some(0));
        let (at, decoder) = analysis.decoder_at(second).unwrap();
        assert_eq!(at, second);
        let explanation =
            decoder.explain_span(&bytes[INTERVAL..], true, ByteSpan::new(second, second + 1));
        let [item] = explanation.items() else {
            panic!("one item: {explanation}")
        };
        assert_eq!(item.span, ByteSpan::new(second - 1, second + 1));
        assert_eq!(item.outcome, Some(TraceKind::Scalar('あ')));
        assert!(explanation.to_string().contains("= 283"), "{explanation}");
        // Nothing past the end, nor past what a snapshot analysed.
        assert!(analysis.decoder_at(bytes.len() as u64).is_none());
        let mut analyser = Analyser::new(SHIFT_JIS, BomHandling::None, false);
        let mut big = bytes.repeat(40);
        big.truncate(2 * WORK_CHUNK);
        assert!(!analyser.step(&big));
        let (snapshot, _) = analyser.snapshot();
        assert!(snapshot.decoder_at(WORK_CHUNK as u64 - 1).is_some());
        assert!(snapshot.decoder_at(WORK_CHUNK as u64).is_none());
    }

    #[test]
    fn next_and_prev_error_step_through_the_offsets() {
        let analysis = analysed(b"a\xFFbc\xFF\xFFd", UTF_8, BomHandling::None);
        assert_eq!(analysis.error_offsets, [1, 4, 5]);
        assert_eq!(analysis.next_error(0), Some(1));
        assert_eq!(analysis.next_error(1), Some(4));
        assert_eq!(analysis.next_error(4), Some(5));
        assert_eq!(analysis.next_error(5), None);
        assert_eq!(analysis.prev_error(7), Some(5));
        assert_eq!(analysis.prev_error(5), Some(4));
        assert_eq!(analysis.prev_error(1), None);
        let clean = analysed(b"", UTF_8, BomHandling::Sniff);
        assert_eq!((clean.next_error(0), clean.prev_error(9)), (None, None));
        assert_eq!(clean.decode_window(b"", ByteSpan::new(0, 10)).text, "");
    }

    #[test]
    fn analysis_reports_progress_and_stops_when_cancelled() {
        let bytes = vec![b'a'; 3 * WORK_CHUNK + 5];
        let mut reports = Vec::new();
        let analysis = analyse(&bytes, UTF_8, BomHandling::None, &never(), &mut |done| {
            reports.push(done);
        });
        assert!(analysis.is_some());
        let chunk = WORK_CHUNK as u64;
        assert_eq!(reports, [chunk, 2 * chunk, 3 * chunk, 3 * chunk + 5]);

        let cancel = AtomicBool::new(false);
        let mut reports = 0;
        let analysis = analyse(&bytes, UTF_8, BomHandling::None, &cancel, &mut |_| {
            reports += 1;
            cancel.store(true, Ordering::Relaxed);
        });
        assert!(analysis.is_none());
        assert_eq!(reports, 1, "stopped at the next MiB");
        let cancelled = AtomicBool::new(true);
        assert!(analyse(&bytes, UTF_8, BomHandling::None, &cancelled, &mut |_| {}).is_none());
        assert!(analyse_with_rows(&bytes, UTF_8, BomHandling::None, &cancelled).is_none());
        assert!(count_errors(&bytes, &ALL, &cancelled).is_none());
    }

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

    #[test]
    fn snapshots_are_prefixes_of_the_finished_analysis() {
        let mut rng = Rng(7);
        // Lines of 40 to 120 bytes over 3.5 MiB: thousands of rows, blocks
        // of the line index filled and a snapshot after every MiB.
        let mut bytes = Vec::new();
        while bytes.len() < 3 * WORK_CHUNK + WORK_CHUNK / 2 {
            let len = 40 + rng.below(80);
            bytes.extend(std::iter::repeat_n(b'x', len));
            bytes.extend_from_slice(b"\xC3\xA9\xFF\n");
        }
        let (whole, rows) = analyse_with_rows(&bytes, UTF_8, BomHandling::None, &never()).unwrap();
        let all_rows = rows.row_spans(0..rows.row_count());
        let mut analyser = Analyser::new(UTF_8, BomHandling::None, true);
        let mut snapshots = 0;
        while !analyser.step(&bytes) {
            let (analysis, index) = analyser.snapshot();
            let index = index.unwrap();
            snapshots += 1;
            assert!(!analysis.is_complete() && !index.is_complete());
            assert_eq!(analysis.byte_len(), analyser.done());
            assert_eq!(index.byte_len(), analyser.done());
            let known = index.row_spans(0..index.row_count());
            let (last, complete) = known.split_last().unwrap();
            assert_eq!(complete, &all_rows[..complete.len()]);
            assert_eq!(last.start, all_rows[complete.len()].start);
            assert_eq!(last.end, analyser.done());
            assert_eq!(
                analysis.error_offsets[..],
                whole.error_offsets[..analysis.error_offsets.len()]
            );
            // A window inside the snapshot decodes as the whole file does.
            let window = ByteSpan::new(last.start.saturating_sub(5000), last.start);
            assert_eq!(
                analysis.decode_window(&bytes, window),
                whole.decode_window(&bytes, window)
            );
            // Past it, a snapshot decodes nothing (that would mean decoding
            // all the bytes up to there on the window's thread).
            let done = analyser.done();
            let past = analysis.decode_window(&bytes, ByteSpan::new(done + 10, done + 100));
            assert!(past.is_empty());
        }
        assert_eq!(snapshots, 3);
        let (analysis, index) = analyser.finish(&bytes);
        assert!(analysis.is_complete());
        assert_eq!(analysis.errors, whole.errors);
        assert_eq!(index, Some(rows));
    }

    /// The plain way: each encoding's decoder over every byte, counted.
    fn straightforward(bytes: &[u8], encoding: &'static Encoding) -> (u64, Vec<u64>) {
        let trace = whole_trace(bytes, encoding, BomHandling::None);
        let mut counter = ErrorCounter::default();
        let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
        let _ = decoder.decode(bytes, true, &mut counter);
        let offsets: Vec<u64> = trace
            .errors()
            .map(|(span, _)| span.start)
            .take(FIRST_ERROR_OFFSETS)
            .collect();
        assert_eq!(counter.errors, trace.error_count());
        assert_eq!(counter.first_error, offsets.first().copied());
        (counter.errors, offsets)
    }

    #[test]
    fn count_errors_matches_each_decoder() {
        let mut rng = Rng(2026);
        let mut files: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"plain ASCII\n".to_vec(),
            // A byte order mark is counted as bytes like any other.
            b"\xEF\xBB\xBFcaf\xC3\xA9".to_vec(),
            b"\xFF\xFEa\x00".to_vec(),
            rng.bytes(200_000),
            // Errors at the very end (truncated sequences).
            b"abc\xE3\x81".to_vec(),
        ];
        for encoding in [SHIFT_JIS, EUC_KR, BIG5, ISO_8859_8, UTF_16BE, EUC_JP] {
            files.push(realistic(encoding, 100_000, &mut rng));
        }
        for bytes in &files {
            let counts = count_errors(bytes, &ALL, &never()).unwrap();
            assert_eq!(counts.len(), ALL.len());
            for (count, &encoding) in counts.iter().zip(&ALL) {
                assert_eq!(count.encoding, encoding);
                let (errors, offsets) = straightforward(bytes, encoding);
                assert_eq!(
                    count.errors,
                    errors,
                    "{encoding} over {} bytes",
                    bytes.len()
                );
                assert_eq!(count.first_error_offsets, offsets, "{encoding}");
            }
        }
        // Random bytes have errors in most encodings, and many of them.
        let counts = count_errors(&files[4], &ALL, &never()).unwrap();
        assert!(counts.iter().filter(|count| count.errors > 1000).count() > 10);
        assert!(
            counts
                .iter()
                .any(|count| count.first_error_offsets.len() == 100)
        );
    }

    #[test]
    fn count_errors_keeps_the_order_and_duplicates_asked_for() {
        let bytes = b"\x81\x40 \x80\xFF";
        // windows-1252 maps every byte; ISO-8859-8 leaves 0xFF unassigned.
        let asked = [
            ISO_8859_8,
            GBK,
            UTF_8,
            GB18030,
            ISO_8859_8,
            WINDOWS_1252,
            X_USER_DEFINED,
        ];
        let counts = count_errors(bytes, &asked, &never()).unwrap();
        let got: Vec<(&str, u64)> = counts
            .iter()
            .map(|c| (c.encoding.name(), c.errors))
            .collect();
        assert_eq!(
            got,
            [
                ("ISO-8859-8", 1),
                ("GBK", 1),
                ("UTF-8", 3),
                ("gb18030", 1),
                ("ISO-8859-8", 1),
                ("windows-1252", 0),
                ("x-user-defined", 0)
            ]
        );
        assert_eq!(counts[0].first_error_offsets, [4]);
        assert_eq!(counts[1].first_error_offsets, [4]);
        assert_eq!(counts[2].first_error_offsets, [0, 3, 4]);
        assert!(count_errors(bytes, &[], &never()).unwrap().is_empty());
    }

    #[test]
    fn count_errors_reports_progress_up_to_the_total() {
        let bytes = vec![0xE9; 3 * WORK_CHUNK];
        let last = std::sync::Mutex::new((0, 0));
        let counts =
            count_errors_with_progress(&bytes, &[UTF_8, WINDOWS_1252], &never(), &|done, total| {
                let mut last = last.lock().unwrap();
                last.0 = last.0.max(done);
                last.1 = total;
            })
            .unwrap();
        assert_eq!(counts[0].errors, bytes.len() as u64);
        assert_eq!(counts[1].errors, 0);
        let (done, total) = *last.lock().unwrap();
        assert_eq!(
            (done, total),
            (2 * bytes.len() as u64, 2 * bytes.len() as u64)
        );
    }

    fn count(encoding: &'static Encoding, errors: u64) -> ErrorCount {
        ErrorCount {
            encoding,
            errors,
            first_error_offsets: Vec::new(),
        }
    }

    #[test]
    fn default_panes_prefer_the_bom_then_the_fewest_errors() {
        let counts = [
            count(UTF_8, 0),
            count(WINDOWS_1252, 5),
            count(SHIFT_JIS, 0),
            count(UTF_16LE, 0),
            count(REPLACEMENT, 0),
            count(EUC_JP, 3),
            count(BIG5, 3),
            count(ISO_8859_8, 3),
        ];
        assert_eq!(default_panes(Some(UTF_16LE), &counts), [UTF_16LE]);
        // Ties: multi-byte before single-byte, then the standard's order
        // (Big5 comes before EUC-JP).
        assert_eq!(default_panes(None, &counts), [UTF_8, SHIFT_JIS, BIG5]);
        let tied = [count(ISO_8859_8, 0), count(GBK, 0), count(GB18030, 0)];
        assert_eq!(default_panes(None, &tied), [UTF_8, GBK, ISO_8859_8]);
        assert_eq!(default_panes(None, &[]), [UTF_8]);
        // With real counts: a Shift_JIS file.
        let mut rng = Rng(3);
        let bytes = realistic(SHIFT_JIS, 10_000, &mut rng);
        let choices: Vec<&'static Encoding> = ALL
            .iter()
            .copied()
            .filter(|e| e.is_override_choice())
            .collect();
        let counts = count_errors(&bytes, &choices, &never()).unwrap();
        let panes = default_panes(None, &counts);
        assert_eq!(panes.len(), 3);
        assert_eq!(panes[0], UTF_8);
        assert!(!panes.contains(&UTF_16BE) && !panes.contains(&REPLACEMENT));
        let shift_jis = counts.iter().find(|c| c.encoding == SHIFT_JIS).unwrap();
        for pane in &panes[1..] {
            let errors = counts.iter().find(|c| c.encoding == *pane).unwrap().errors;
            assert!(errors <= shift_jis.errors, "{pane}");
        }
    }

    #[test]
    fn detected_panes_show_the_best_utf8_and_another_reading() {
        let shift_jis =
            b"\x93\xFA\x96\x7B\x8C\xEA\x82\xCC\x83e\x83L\x83X\x83g\x82\xC5\x82\xB7\x81B";
        let panes = detected_panes(None, &mojiscope_core::detect(shift_jis));
        assert_eq!(panes.len(), 3, "{panes:?}");
        assert_eq!(panes[..2], [SHIFT_JIS, UTF_8]);
        let utf8 = "Grüße aus Köln".as_bytes();
        let panes = detected_panes(None, &mojiscope_core::detect(utf8));
        assert_eq!(panes[0], UTF_8);
        assert_eq!(panes.len(), 3);
        // Plain ASCII reads the same in every encoding: the two panes
        // there are at least: UTF-8 and the next most likely.
        let ascii = detected_panes(None, &mojiscope_core::detect(b"plain text"));
        assert_eq!(ascii.len(), 2);
        assert_eq!(ascii[0], UTF_8);
        let bom = detected_panes(Some(UTF_16LE), &mojiscope_core::detect(b"\xFF\xFEa\0"));
        assert_eq!(bom, [UTF_16LE]);
    }

    /// `cargo test -p mojiscope --lib -- --ignored --nocapture count_errors_speed`
    /// (the test profile is optimised; figures in BENCHMARKS.md).
    #[test]
    #[ignore = "benchmark: cargo test -p mojiscope --lib -- --ignored --nocapture count_errors_speed"]
    fn count_errors_speed() {
        let mut rng = Rng(1);
        let choices: Vec<&'static Encoding> = ALL
            .iter()
            .copied()
            .filter(|e| e.is_override_choice())
            .collect();
        let mut mixed = Vec::with_capacity(100_000_000);
        let sample = TEXT.as_bytes();
        while mixed.len() < 100_000_000 {
            mixed.extend_from_slice(sample);
            if rng.below(50) == 0 {
                mixed.push(0xFF);
            }
        }
        let mut sjis = realistic(SHIFT_JIS, 100_000_000, &mut rng);
        sjis.truncate(100_000_000);
        let ascii = vec![b'x'; 100_000_000];
        let random = rng.bytes(100_000_000);
        for (name, bytes) in [
            ("UTF-8 text, mixed scripts", &mixed),
            ("Shift_JIS text", &sjis),
            ("ASCII", &ascii),
            ("random bytes", &random),
        ] {
            let started = std::time::Instant::now();
            let counts = count_errors(bytes, &choices, &never()).unwrap();
            let elapsed = started.elapsed();
            println!(
                "count_errors, 37 encodings, {} MB of {name}: {elapsed:.2?} (UTF-8: {} errors)",
                bytes.len() / 1_000_000,
                counts[0].errors
            );
            for (index, &encoding) in choices.iter().enumerate() {
                if encoding.is_single_byte() {
                    continue;
                }
                let started = std::time::Instant::now();
                let one = count_errors(bytes, &[encoding], &never()).unwrap();
                assert_eq!(one[0].errors, counts[index].errors);
                println!("  {encoding}: {:.2?}", started.elapsed());
            }
        }
    }
}
