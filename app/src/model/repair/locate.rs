//! Locating each change in the file's bytes: the decode is run again with
//! a sink that follows the text offset from item to item and notes the
//! bytes of the items where each change starts and ends, and where
//! decoding errors put U+FFFD.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use mojiscope_core::{ByteSpan, DecodeErrorKind, DecodeErrorMode, DecodeSink, Decoder, SkipReason};

use super::{PROGRESS_TOTAL, Proposal, REPAIRED_AT, RepairRequest, WORK_CHUNK, scaled};

/// Sets the line each proposal starts on.
#[expect(
    clippy::naive_bytecount,
    reason = "one pass over the text in all; not worth a dependency"
)]
pub(super) fn number_lines(text: &str, proposals: &mut [Proposal]) {
    let mut line = 1;
    let mut counted = 0;
    for proposal in proposals {
        let start = proposal.change.utf8_range.start;
        if let Some(between) = text.as_bytes().get(counted..start) {
            line += between.iter().filter(|&&byte| byte == b'\n').count() as u64;
            counted = start;
        }
        proposal.line = line;
    }
}

/// What [`locate`] finds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Located {
    /// For each range, the bytes its text was decoded from.
    pub spans: Vec<ByteSpan>,
    /// Where decoding errors put U+FFFD in the text (UTF-8 offsets).
    pub error_offsets: Vec<usize>,
}

/// Decodes `bytes` again as `request` says, which gives `text`, and finds
/// for each of `ranges` (spans of `text`, in order, not overlapping) the
/// bytes its text was decoded from: from the start of the item that made
/// its first character to the end of the item that made its last; and
/// which U+FFFD of the text decoding errors made. Decoding stops past the
/// last range and the last U+FFFD. `None` if cancelled.
pub fn locate(
    bytes: &[u8],
    request: RepairRequest,
    text: &str,
    ranges: &[Range<usize>],
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u64, u64),
) -> Option<Located> {
    let mut decoder = Decoder::new(
        request.encoding,
        DecodeErrorMode::Replacement,
        request.bom_handling,
    );
    let errors_end = text
        .rfind(char::REPLACEMENT_CHARACTER)
        .map_or(0, |offset| offset + 1);
    let mut sink = LocateSink::new(ranges, errors_end);
    let mut done = 0;
    loop {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        if sink.is_done() {
            break;
        }
        let end = bytes.len().min(done + WORK_CHUNK);
        let last = end == bytes.len();
        let _ = decoder.decode(&bytes[done..end], last, &mut sink);
        done = end;
        progress(
            scaled(REPAIRED_AT, PROGRESS_TOTAL, done, bytes.len()),
            PROGRESS_TOTAL,
        );
        if last {
            break;
        }
    }
    Some(Located {
        spans: sink.spans,
        error_offsets: sink.errors,
    })
}

/// Follows a decode's text offset from item to item and notes the bytes of
/// the items where each range starts and ends.
struct LocateSink<'a> {
    ranges: &'a [Range<usize>],
    spans: Vec<ByteSpan>,
    /// The next range whose start is to be found.
    next_start: usize,
    /// The next range whose end is to be found.
    next_end: usize,
    /// The UTF-8 offset in the text of the next item's text.
    text_offset: usize,
    /// Where the U+FFFD of decoding errors are in the text.
    errors: Vec<usize>,
    /// The text has no U+FFFD from this offset on.
    errors_end: usize,
}

impl<'a> LocateSink<'a> {
    fn new(ranges: &'a [Range<usize>], errors_end: usize) -> Self {
        Self {
            ranges,
            spans: vec![ByteSpan::default(); ranges.len()],
            next_start: 0,
            next_end: 0,
            text_offset: 0,
            errors: Vec::new(),
            errors_end,
        }
    }

    fn is_done(&self) -> bool {
        self.next_end >= self.ranges.len() && self.text_offset >= self.errors_end
    }

    /// One item that made the text `len` bytes long from `span`.
    fn item(&mut self, len: usize, span: ByteSpan) {
        let text = self.text_offset..self.text_offset + len;
        self.text_offset = text.end;
        while let Some(range) = self.ranges.get(self.next_start)
            && text.contains(&range.start)
        {
            self.spans[self.next_start].start = span.start;
            self.next_start += 1;
        }
        // The item that made a range's last byte made its last character.
        while let Some(range) = self.ranges.get(self.next_end)
            && range.end > range.start
            && text.contains(&(range.end - 1))
        {
            self.spans[self.next_end].end = span.end;
            self.next_end += 1;
        }
    }

    /// A run of text that is its own bytes (ASCII, or UTF-8 decoded as
    /// itself), starting at byte `start`: each range boundary inside it
    /// falls on a character boundary, at the same distance in the bytes.
    fn run(&mut self, len: usize, start: u64) {
        let text = self.text_offset..self.text_offset + len;
        self.text_offset = text.end;
        let byte_at = |offset: usize| start + (offset - text.start) as u64;
        while let Some(range) = self.ranges.get(self.next_start)
            && text.contains(&range.start)
        {
            self.spans[self.next_start].start = byte_at(range.start);
            self.next_start += 1;
        }
        while let Some(range) = self.ranges.get(self.next_end)
            && range.end > range.start
            && text.contains(&(range.end - 1))
        {
            self.spans[self.next_end].end = byte_at(range.end);
            self.next_end += 1;
        }
    }
}

impl DecodeSink for LocateSink<'_> {
    fn ascii(&mut self, run: &[u8], start: u64) {
        self.run(run.len(), start);
    }

    fn utf8_run(&mut self, run: &str, start: u64) {
        self.run(run.len(), start);
    }

    fn scalar(&mut self, c: char, span: ByteSpan) {
        self.item(c.len_utf8(), span);
    }

    fn scalar_pair(&mut self, first: char, second: char, span: ByteSpan) {
        self.item(first.len_utf8() + second.len_utf8(), span);
    }

    fn error(&mut self, _kind: DecodeErrorKind, span: ByteSpan) {
        self.errors.push(self.text_offset);
        self.item(char::REPLACEMENT_CHARACTER.len_utf8(), span);
    }

    fn skip(&mut self, _reason: SkipReason, span: ByteSpan) {
        self.item(0, span);
    }
}
