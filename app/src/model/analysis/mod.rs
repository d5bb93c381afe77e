//! Whole-file analysis of one encoding's decode: its errors and decoder
//! checkpoints ([`EncodingAnalysis`], built by [`Analyser`] a MiB at a
//! time so that a huge file shows its first screen early).
//!
//! - [`window`]: decoding any part of the file again from the checkpoint
//!   before it, exactly as the whole-file decode did.
//! - [`lines`]: where the rows start ([`lines::LineIndex`]),
//!   built in the same pass as the primary pane's analysis.
//! - [`counts`]: error counts of every candidate encoding at once.
//! - [`mixed`]: the parts of a file in several encodings, and the Mixed
//!   reading that decodes each with its own.
//!
//! Everything here is synchronous and pure: it runs on whatever thread calls
//! it (the document's jobs in [`crate::model::document_jobs`] call it on
//! theirs) and stops early, returning `None`, when its `cancel` flag is set.
//! The one exception is [`counts::count_errors`], which splits its work over
//! two named threads of its own and joins them before it returns.

pub mod counts;
pub mod lines;
pub mod mixed;
#[cfg(test)]
pub(crate) mod testing;
pub mod window;

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

use mojiscope_core::{
    BomHandling, ByteSpan, DecodeErrorKind, DecodeSink, Decoder, Encoding, SkipReason,
};

use self::lines::{LineIndex, RowSink};
use self::mixed::{Parts, Reader};

/// Bytes between two decoder checkpoints.
pub const CHECKPOINT_INTERVAL: u64 = 64 * 1024;

/// At most this many error offsets are kept per analysis.
pub const MAX_ERROR_OFFSETS: usize = 1_000_000;

/// Bytes decoded between two looks at the cancel flag (and two progress
/// reports).
const WORK_CHUNK: usize = 1024 * 1024;

/// [`CHECKPOINT_INTERVAL`] as a slice length.
const INTERVAL: usize = CHECKPOINT_INTERVAL as usize;

/// One encoding's decode of a whole file: its errors, and decoder
/// checkpoints for decoding any part of it again.
#[derive(Clone)]
pub struct EncodingAnalysis {
    /// The encoding actually decoded (with BOM sniffing, a byte order mark
    /// may have picked another than the one asked for).
    pub encoding: &'static Encoding,
    /// The byte order mark handling of the decode.
    pub bom_handling: BomHandling,
    /// The parts of the Mixed reading, each decoded with its own encoding
    /// (`encoding` is then the first part's); `None` for one encoding.
    pub parts: Option<Parts>,
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
            .field("parts", &self.parts.as_ref().map(|parts| parts.len()))
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
    while !analyser.advance(bytes) {
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
    while !analyser.advance(bytes) {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
    }
    let (analysis, rows) = analyser.finish(bytes);
    Some((analysis, rows?))
}

/// An analysis in progress: [`advance`](Self::advance) decodes the next MiB, and
/// [`snapshot`](Self::snapshot) tells what is known so far, so that a huge
/// file shows its first screen long before it is analysed whole.
pub struct Analyser {
    decoder: Reader,
    encoding: &'static Encoding,
    parts: Option<Parts>,
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
        Self::reading(encoding, bom_handling, None, rows)
    }

    /// Starts analysing the Mixed reading of `parts` (each part decoded
    /// with its own encoding), or with `encoding` when there are none.
    pub fn reading(
        encoding: &'static Encoding,
        bom_handling: BomHandling,
        parts: Option<Parts>,
        rows: bool,
    ) -> Self {
        let encoding = parts
            .as_ref()
            .and_then(|p| p.first())
            .map_or(encoding, |p| p.encoding);
        Self {
            decoder: Reader::new(encoding, bom_handling, parts.as_ref()),
            encoding,
            parts,
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
    pub fn advance(&mut self, bytes: &[u8]) -> bool {
        if self.finished {
            return true;
        }
        let stop = bytes.len().min(self.done + WORK_CHUNK);
        loop {
            self.checkpoints.push(self.decoder.current().clone());
            let start = self.done;
            let end = bytes.len().min(start + INTERVAL);
            let last = end == bytes.len();
            let piece = &bytes[start..end];
            match &mut self.rows {
                Some(rows) => self.decoder.decode(
                    piece,
                    last,
                    &mut Tee {
                        first: &mut self.errors,
                        second: rows,
                    },
                ),
                None => self.decoder.decode(piece, last, &mut self.errors),
            }
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
            encoding: self.decoded_encoding(),
            bom_handling: self.bom_handling,
            parts: self.parts.clone(),
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
            encoding: self.decoded_encoding(),
            bom_handling: self.bom_handling,
            parts: self.parts,
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

impl Analyser {
    /// The encoding decoded: the one asked for, or the one a byte order
    /// mark picked; for the Mixed reading, its first part's.
    fn decoded_encoding(&self) -> &'static Encoding {
        match &self.decoder {
            Reader::Plain(decoder) => decoder.encoding(),
            Reader::Parts(_) => self.encoding,
        }
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

#[cfg(test)]
mod tests {
    use mojiscope_core::{ALL, UTF_8};

    use super::counts::count_errors;
    use super::testing::{Rng, analysed, inputs, never, whole_trace};
    use super::*;

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
        while !analyser.advance(&bytes) {
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
}
