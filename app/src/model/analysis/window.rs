//! The window into a huge file: decoding any part of it again, exactly as
//! the whole-file decode did.
//!
//! It rests on one property of core's [`Decoder`]: a clone taken after
//! bytes `[0, k)` decodes bytes `[k, ..)` exactly as the whole-file decode
//! goes on, with the same absolute offsets. The analysis keeps such a clone
//! every [`CHECKPOINT_INTERVAL`] bytes, so that
//! [`EncodingAnalysis::decode_window`] decodes at most that much before the
//! bytes it was asked for.

use mojiscope_core::{
    ByteSpan, DecodeErrorKind, DecodeErrorMode, DecodeSink, Decoder, Encoding, SkipReason, Trace,
    TraceKind,
};

use super::mixed::{Part, Reader};
use super::{CHECKPOINT_INTERVAL, EncodingAnalysis, INTERVAL};

/// Bytes fed at a time past the end of a window, to finish the item that
/// began inside it: more than the longest sequence of any decoder.
const TAIL_STEP: usize = 16;

impl EncodingAnalysis {
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
        let mut decoder = Reader::resume(checkpoint, self.parts.as_ref());
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
            decoder.decode(piece, last, &mut sink);
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
    ///
    /// The third value is where that decoder's input ends for the Mixed
    /// reading, the end of the part the offset is in (the next part has a
    /// decoder of its own); `u64::MAX` for one encoding.
    pub fn decoder_at(&self, byte_offset: u64) -> Option<(u64, Decoder, u64)> {
        if byte_offset >= self.byte_len {
            return None;
        }
        let index = usize::try_from(byte_offset / CHECKPOINT_INTERVAL).ok()?;
        let decoder = self.checkpoints.get(index)?;
        let checkpoint = index as u64 * CHECKPOINT_INTERVAL;
        match self.part_at(byte_offset) {
            // The part began after the checkpoint: its decoder starts there.
            Some(part) if part.span.start > checkpoint => Some((
                part.span.start,
                Decoder::starting_at(part.encoding, DecodeErrorMode::Replacement, part.span.start),
                part.span.end,
            )),
            Some(part) => Some((checkpoint, decoder.clone(), part.span.end)),
            None => Some((checkpoint, decoder.clone(), u64::MAX)),
        }
    }

    /// The Mixed reading's part that byte `byte_offset` is in (`None` for
    /// one encoding).
    pub fn part_at(&self, byte_offset: u64) -> Option<Part> {
        let parts = self.parts.as_ref()?;
        let index = parts
            .partition_point(|part| part.span.end <= byte_offset)
            .min(parts.len().saturating_sub(1));
        parts.get(index).copied()
    }

    /// The encoding that decodes byte `byte_offset`: the analysis's, or
    /// for the Mixed reading that of the part the byte is in.
    pub fn encoding_at(&self, byte_offset: u64) -> &'static Encoding {
        self.part_at(byte_offset)
            .map_or(self.encoding, |part| part.encoding)
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

#[cfg(test)]
mod tests {
    use mojiscope_core::{BomHandling, SHIFT_JIS, TraceItem, UTF_16LE, WINDOWS_1252};

    use super::super::testing::{Rng, analysed, inputs, whole_trace};
    use super::super::{Analyser, WORK_CHUNK};
    use super::*;

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
    fn the_checkpoint_before_an_offset_explains_it_as_the_whole_decode_reads_it() {
        // "あ" (0x82 0xA0) in Shift_JIS, with its leading byte the last of
        // the first checkpoint interval: the checkpoint after it holds the
        // leading byte, and the explanation picks it up from there.
        let mut bytes = vec![b'a'; INTERVAL - 1];
        bytes.extend_from_slice(b"\x82\xA0 and more");
        let analysis = analysed(&bytes, SHIFT_JIS, BomHandling::None);
        let second = CHECKPOINT_INTERVAL;
        assert_eq!(analysis.decoder_at(0).map(|(at, _, _)| at), Some(0));
        assert_eq!(
            analysis.decoder_at(second - 1).map(|(at, _, _)| at),
            Some(0)
        );
        let (at, decoder, limit) = analysis.decoder_at(second).unwrap();
        assert_eq!(limit, u64::MAX, "one encoding: no part ends");
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
        assert!(!analyser.advance(&big));
        let (snapshot, _) = analyser.snapshot();
        assert!(snapshot.decoder_at(WORK_CHUNK as u64 - 1).is_some());
        assert!(snapshot.decoder_at(WORK_CHUNK as u64).is_none());
    }
}
