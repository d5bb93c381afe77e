//! The Repair view's model: one pane's decode of the whole file repaired in
//! the background, every proposed change located in the file's bytes, and
//! the user's choice of which changes to accept.
//!
//! [`repair_file`] is the job's work: decode the file with the pane's
//! encoding and byte order mark handling, run `core::repair` over the text a
//! piece of lines at a time, on every core ([`repair_text`], which also
//! reports progress and stops when cancelled), then decode once more with a
//! sink that finds the bytes each change came from and where decoding
//! errors are. The result, a [`RepairOutcome`], becomes a [`Review`]:
//! the decoded text, never modified, and the set of accepted changes, which
//! is all the state there is, so every choice can be undone until the text
//! is saved. [`Review::accepted_text`] (or, piece by piece,
//! [`Review::accepted_pieces`]) is the text with the accepted changes
//! applied: what Save writes.

use std::fmt;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use mojiscope_core::repair::{self, Chain, Change, Repair, Source};
use mojiscope_core::{
    BomHandling, ByteSpan, DecodeErrorKind, DecodeErrorMode, DecodeSink, Decoder, Encoding,
    SkipReason,
};
use thiserror::Error;

/// The most text a repair holds in memory: the decode, and the accepted
/// text when it is made, are each at most this large.
pub const MAX_TEXT_BYTES: usize = 256 * 1024 * 1024;

/// Bytes decoded, or bytes of text repaired, between two looks at the
/// cancel flag (and two progress reports).
const WORK_CHUNK: usize = 1024 * 1024;

/// Progress is reported out of this many units: the decode takes the first
/// tenth, the repair the next eight, locating the changes the last.
pub const PROGRESS_TOTAL: u64 = 1000;
const DECODED_AT: u64 = 100;
const REPAIRED_AT: u64 = 900;

/// What a repair job is at, judged from its progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Decoding the file into text.
    Decoding,
    /// Looking for mojibake in the text.
    Repairing,
    /// Finding the bytes each change came from.
    Locating,
}

impl Phase {
    /// The phase a job is in when it has done `done` of [`PROGRESS_TOTAL`].
    pub fn of(done: u64) -> Phase {
        if done < DECODED_AT {
            Phase::Decoding
        } else if done < REPAIRED_AT {
            Phase::Repairing
        } else {
            Phase::Locating
        }
    }

    /// What the job is doing, for people.
    pub fn describe(self) -> &'static str {
        match self {
            Phase::Decoding => "Decoding the file…",
            Phase::Repairing => "Looking for mojibake…",
            Phase::Locating => "Finding the bytes of each change…",
        }
    }
}

/// Which decode to repair: a pane's encoding and byte order mark handling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RepairRequest {
    /// The pane whose decode it is.
    pub pane: usize,
    /// The pane's encoding.
    pub encoding: &'static Encoding,
    /// How the pane's decode treats a byte order mark.
    pub bom_handling: BomHandling,
}

/// Why a repair could not be done.
#[non_exhaustive]
#[derive(Debug, Error)]
pub enum RepairError {
    /// The decoded text would be larger than the repair holds in memory.
    #[error(
        "cannot repair this file: its {encoding} decode is more than {} MiB of text, more than \
         a repair holds in memory (the file is {} MiB)",
        limit / (1024 * 1024),
        file_len / (1024 * 1024)
    )]
    TooLarge {
        /// The encoding decoded.
        encoding: &'static Encoding,
        /// The most text allowed, in bytes.
        limit: usize,
        /// The file's size in bytes.
        file_len: u64,
    },
}

/// One change the repair proposes, and where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Proposal {
    /// The change: its span of the decoded text, replacement, chain and
    /// confidence.
    pub change: Change,
    /// Whether the repair is sure of it (a change, accepted at first) or not
    /// (a suggestion, rejected at first).
    pub is_sure: bool,
    /// The bytes of the file the changed text was decoded from.
    pub bytes: ByteSpan,
    /// The line it starts on, from 1.
    pub line: u64,
}

/// What a repair job found.
#[derive(Clone, PartialEq)]
pub struct RepairOutcome {
    /// The decoded text.
    pub text: String,
    /// The encoding whose decoder made it (a byte order mark may have picked
    /// another than the one asked for).
    pub encoding: &'static Encoding,
    /// The changes and suggestions, in text order, not overlapping.
    pub proposals: Vec<Proposal>,
    /// Where decoding errors put U+FFFD in `text` (UTF-8 offsets, in
    /// order); a U+FFFD the file holds as a character is not among them.
    pub error_offsets: Vec<usize>,
}

impl fmt::Debug for RepairOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RepairOutcome")
            .field("text", &format_args!("{} bytes", self.text.len()))
            .field("encoding", &self.encoding)
            .field("proposals", &self.proposals.len())
            .field("error_offsets", &self.error_offsets.len())
            .finish()
    }
}

/// Decodes `bytes` as `request` says, repairs the text and locates each
/// change in `bytes`. `progress` hears `(done, PROGRESS_TOTAL)` now and
/// then (see [`Phase::of`]).
///
/// Returns `Ok(None)` if `cancel` was set (it is looked at every MiB).
///
/// # Errors
/// [`RepairError::TooLarge`] when the text is more than `limit` bytes; the
/// decode stops as soon as it is.
pub fn repair_file(
    bytes: &[u8],
    request: RepairRequest,
    limit: usize,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Option<RepairOutcome>, RepairError> {
    repair_in_pieces(bytes, request, limit, WORK_CHUNK, cancel, progress)
}

/// [`repair_file`], repairing about `piece` bytes of text at a time.
fn repair_in_pieces(
    bytes: &[u8],
    request: RepairRequest,
    limit: usize,
    piece: usize,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Option<RepairOutcome>, RepairError> {
    let Some((text, encoding)) = decode(bytes, request, limit, cancel, progress)? else {
        return Ok(None);
    };
    // A single-byte decode (never with a byte order mark) makes a character
    // of each byte: the repair can read the bytes behind any span of text.
    let source = encoding
        .is_single_byte()
        .then_some(Source { bytes, encoding });
    let found = repair_text(&text, source, piece, cancel, &mut |done| {
        progress(
            scaled(DECODED_AT, REPAIRED_AT, done, text.len()),
            PROGRESS_TOTAL,
        );
    });
    let Some(found) = found else {
        return Ok(None);
    };
    let sure = found.changes.into_iter().map(|change| (change, true));
    let unsure = found.suggestions.into_iter().map(|change| (change, false));
    let mut proposals: Vec<Proposal> = sure
        .chain(unsure)
        .map(|(change, is_sure)| Proposal {
            change,
            is_sure,
            bytes: ByteSpan::default(),
            line: 0,
        })
        .collect();
    proposals.sort_by_key(|proposal| proposal.change.utf8_range.start);
    number_lines(&text, &mut proposals);
    let ranges: Vec<Range<usize>> = proposals
        .iter()
        .map(|proposal| proposal.change.utf8_range.clone())
        .collect();
    let Some(Located {
        spans,
        error_offsets,
    }) = locate(bytes, request, &text, &ranges, cancel, progress)
    else {
        return Ok(None);
    };
    for (proposal, span) in proposals.iter_mut().zip(spans) {
        proposal.bytes = span;
    }
    progress(PROGRESS_TOTAL, PROGRESS_TOTAL);
    Ok(Some(RepairOutcome {
        text,
        encoding,
        proposals,
        error_offsets,
    }))
}

/// The most threads one repair uses.
const MAX_REPAIR_THREADS: usize = 8;

/// How many threads [`repair_text`] repairs on: as many as the machine
/// runs at once, at most eight.
pub fn repair_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .min(MAX_REPAIR_THREADS)
}

/// Repairs `text` (decoded from `source`, if given) a piece of whole lines
/// of about `piece` bytes at a time, on as many threads as the machine runs
/// at once (at most eight): each line is judged on its own, so the pieces'
/// changes, shifted to where each piece starts, are what one repair of the
/// whole text finds. `progress` hears how many bytes of text are done.
/// `None` if `cancel` was set.
pub fn repair_text(
    text: &str,
    source: Option<Source<'_>>,
    piece: usize,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(usize),
) -> Option<Repair> {
    // Each piece: its text, where it starts (UTF-8 and characters), and the
    // bytes behind it.
    let mut pieces = Vec::new();
    let (mut utf8_start, mut char_start) = (0, 0);
    while utf8_start < text.len() {
        let utf8_end = piece_end(text, utf8_start, piece);
        let piece_text = &text[utf8_start..utf8_end];
        let chars = piece_text.chars().count();
        let piece_source = source.and_then(|source| {
            let bytes = source.bytes.get(char_start..char_start + chars)?;
            Some(Source { bytes, ..source })
        });
        pieces.push((piece_text, utf8_start, char_start, piece_source));
        utf8_start = utf8_end;
        char_start += chars;
    }
    let repair_piece = |index: usize| -> Repair {
        let (piece_text, utf8_start, char_start, piece_source) = pieces[index];
        let mut found = match piece_source {
            Some(source) => repair::repair_with_source(piece_text, source),
            None => repair::repair(piece_text),
        };
        for change in found.changes.iter_mut().chain(&mut found.suggestions) {
            change.utf8_range = shift(&change.utf8_range, utf8_start);
            change.char_range = shift(&change.char_range, char_start);
        }
        found
    };
    let threads = repair_threads().min(pieces.len());
    let mut found: Vec<Option<Repair>> = vec![None; pieces.len()];
    let next = AtomicUsize::new(0);
    let pieces = &pieces;
    // Scoped fan-out inside one job, not jobs of their own (which start
    // only through `model::jobs`): the threads borrow the text and its
    // pieces, and are joined before this returns, whoever called it (the
    // repair job, or `mojiscope fix` on its own thread).
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        let mut started = 0;
        for number in 0..threads {
            let sender = sender.clone();
            let (next, repair_piece) = (&next, &repair_piece);
            let worker = move || {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= pieces.len() || cancel.load(Ordering::Relaxed) {
                        return;
                    }
                    if sender.send((index, repair_piece(index))).is_err() {
                        return;
                    }
                }
            };
            let spawned = std::thread::Builder::new()
                .name(format!("repair:{number}"))
                .spawn_scoped(scope, worker);
            started += usize::from(spawned.is_ok());
        }
        drop(sender);
        if started == 0 {
            // No thread could be started: the pieces are repaired here.
            while let Some(index) = (!cancel.load(Ordering::Relaxed))
                .then(|| next.fetch_add(1, Ordering::Relaxed))
                .filter(|&index| index < pieces.len())
            {
                found[index] = Some(repair_piece(index));
                progress(pieces[index].1 + pieces[index].0.len());
            }
            return;
        }
        let mut done = 0;
        for (index, repair) in receiver {
            done += pieces[index].0.len();
            found[index] = Some(repair);
            progress(done);
        }
    });
    let mut repair = Repair::default();
    for piece in found {
        // A piece missing: cancelled.
        let piece = piece?;
        repair.changes.extend(piece.changes);
        repair.suggestions.extend(piece.suggestions);
    }
    Some(repair)
}

/// Decodes the whole of `bytes` into a string, as the pane does; `None` if
/// cancelled.
fn decode(
    bytes: &[u8],
    request: RepairRequest,
    limit: usize,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Option<(String, &'static Encoding)>, RepairError> {
    let mut decoder = Decoder::new(
        request.encoding,
        DecodeErrorMode::Replacement,
        request.bom_handling,
    );
    let mut text = String::with_capacity(bytes.len().min(limit));
    let mut done = 0;
    loop {
        if cancel.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let end = bytes.len().min(done + WORK_CHUNK);
        let last = end == bytes.len();
        // Replacement mode consumes every byte.
        let _ = decoder.decode(&bytes[done..end], last, &mut text);
        done = end;
        if text.len() > limit {
            return Err(RepairError::TooLarge {
                encoding: decoder.encoding(),
                limit,
                file_len: bytes.len() as u64,
            });
        }
        progress(scaled(0, DECODED_AT, done, bytes.len()), PROGRESS_TOTAL);
        if last {
            return Ok(Some((text, decoder.encoding())));
        }
    }
}

/// Where the piece of `text` that starts at `start` ends: after the first
/// line feed at least `piece` bytes on, or at the end. The repair judges
/// each line on its own, so repairing the pieces one by one finds what
/// repairing the whole text at once would.
fn piece_end(text: &str, start: usize, piece: usize) -> usize {
    let from = start.saturating_add(piece.max(1)).min(text.len());
    // A line feed is never part of a longer UTF-8 sequence: any byte offset
    // may be searched from.
    text.as_bytes()[from..]
        .iter()
        .position(|&byte| byte == b'\n')
        .map_or(text.len(), |offset| from + offset + 1)
}

fn shift(range: &Range<usize>, by: usize) -> Range<usize> {
    range.start + by..range.end + by
}

/// `done` out of `total` as progress units between `from` and `to`.
fn scaled(from: u64, to: u64, done: usize, total: usize) -> u64 {
    if total == 0 {
        return to;
    }
    let share = u128::from(to - from) * done as u128 / total as u128;
    from + u64::try_from(share).unwrap_or(to - from)
}

/// Sets the line each proposal starts on.
#[expect(
    clippy::naive_bytecount,
    reason = "one pass over the text in all; not worth a dependency"
)]
fn number_lines(text: &str, proposals: &mut [Proposal]) {
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

/// How many changes and suggestions one chain made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainCount {
    /// The chain.
    pub chain: Chain,
    /// Its changes (sure).
    pub changes: usize,
    /// Its suggestions (unsure).
    pub suggestions: usize,
}

/// A finished repair under review: the decoded text, never modified, what
/// the repair proposes, and which proposals the user accepts.
#[derive(Clone, Debug)]
pub struct Review {
    request: RepairRequest,
    generation: u64,
    path: PathBuf,
    outcome: RepairOutcome,
    accepted: Vec<bool>,
    accepted_count: usize,
    chains: Vec<ChainCount>,
    /// The characters the sure changes could not recover (the window asks
    /// every frame).
    lost: usize,
}

impl Review {
    /// The review of `outcome`, the repair of `request` for load `generation`
    /// of the file at `path`: the changes accepted, the suggestions not.
    pub fn new(
        request: RepairRequest,
        generation: u64,
        path: PathBuf,
        outcome: RepairOutcome,
    ) -> Self {
        let mut chains: Vec<ChainCount> = Vec::new();
        for proposal in &outcome.proposals {
            let chain = proposal.change.chain;
            let index = chains
                .iter()
                .position(|count| count.chain == chain)
                .unwrap_or_else(|| {
                    chains.push(ChainCount {
                        chain,
                        changes: 0,
                        suggestions: 0,
                    });
                    chains.len() - 1
                });
            let count = &mut chains[index];
            if proposal.is_sure {
                count.changes += 1;
            } else {
                count.suggestions += 1;
            }
        }
        chains.sort_by_key(|count| std::cmp::Reverse((count.changes, count.suggestions)));
        let lost = outcome
            .proposals
            .iter()
            .filter(|proposal| proposal.is_sure)
            .map(|proposal| proposal.change.lost.len())
            .sum();
        let mut review = Self {
            request,
            generation,
            path,
            accepted: Vec::new(),
            accepted_count: 0,
            chains,
            lost,
            outcome,
        };
        review.reset();
        review
    }

    /// Which decode was repaired.
    pub fn request(&self) -> RepairRequest {
        self.request
    }

    /// The load of the file that was repaired: a review of an older
    /// generation than the open document's is stale, and must not be saved.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The file that was repaired.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// The encoding whose decoder made the text (the pane's, or the one its
    /// byte order mark picked): where the text came from.
    pub fn encoding(&self) -> &'static Encoding {
        self.outcome.encoding
    }

    /// The decoded text, as it was before any repair.
    pub fn text(&self) -> &str {
        &self.outcome.text
    }

    /// The changes and suggestions, in text order.
    pub fn proposals(&self) -> &[Proposal] {
        &self.outcome.proposals
    }

    /// The chains used, each with its counts, most used first.
    pub fn chains(&self) -> &[ChainCount] {
        &self.chains
    }

    /// Whether proposal `index` is accepted.
    pub fn is_accepted(&self, index: usize) -> bool {
        self.accepted.get(index).copied().unwrap_or(false)
    }

    /// Accepts or rejects proposal `index`.
    pub fn set_accepted(&mut self, index: usize, accepted: bool) {
        if let Some(slot) = self.accepted.get_mut(index)
            && *slot != accepted
        {
            *slot = accepted;
            if accepted {
                self.accepted_count += 1;
            } else {
                self.accepted_count -= 1;
            }
        }
    }

    /// Accepts or rejects every proposal, suggestions included.
    pub fn set_all(&mut self, accepted: bool) {
        self.accepted.fill(accepted);
        self.accepted_count = if accepted { self.accepted.len() } else { 0 };
    }

    /// Accepts or rejects every proposal made by `chain`.
    pub fn set_chain(&mut self, chain: Chain, accepted: bool) {
        for index in 0..self.outcome.proposals.len() {
            if self.outcome.proposals[index].change.chain == chain {
                self.set_accepted(index, accepted);
            }
        }
    }

    /// Back to what the repair proposed: the changes accepted, the
    /// suggestions not.
    pub fn reset(&mut self) {
        self.accepted = self.outcome.proposals.iter().map(|p| p.is_sure).collect();
        self.accepted_count = self.accepted.iter().filter(|&&a| a).count();
    }

    /// How many proposals are accepted.
    pub fn accepted_count(&self) -> usize {
        self.accepted_count
    }

    /// How many proposals the repair is sure of.
    pub fn sure_count(&self) -> usize {
        self.chains.iter().map(|count| count.changes).sum()
    }

    /// How many characters the sure changes could not recover (each is
    /// U+FFFD in its replacement).
    pub fn lost_count(&self) -> usize {
        self.lost
    }

    /// The accepted changes that apply, in text order: each within the
    /// text and after the one before.
    fn applied(&self) -> impl Iterator<Item = &Change> + '_ {
        let text = self.text();
        let mut done = 0;
        self.proposals()
            .iter()
            .zip(&self.accepted)
            .filter(|&(_, &accepted)| accepted)
            .map(|(proposal, _)| &proposal.change)
            .filter(move |change| {
                let range = change.utf8_range.clone();
                let applies = range.start >= done && text.get(range.clone()).is_some();
                if applies {
                    done = range.end;
                }
                applies
            })
    }

    /// The text with the accepted proposals applied, piece by piece: the
    /// text between them and their replacements, in order. Nothing is
    /// copied; an encoder can write the pieces as they come.
    pub fn accepted_pieces(&self) -> impl Iterator<Item = &str> + '_ {
        let text = self.text();
        let mut applied = self.applied();
        let mut done = 0;
        let mut pending: Option<&str> = None;
        std::iter::from_fn(move || {
            loop {
                if let Some(replacement) = pending.take() {
                    return Some(replacement);
                }
                let Some(change) = applied.next() else {
                    let rest = text.get(done..).filter(|rest| !rest.is_empty());
                    done = text.len();
                    return rest;
                };
                let range = change.utf8_range.clone();
                let before = &text[done..range.start];
                done = range.end;
                pending = Some(&change.replacement);
                if !before.is_empty() {
                    return Some(before);
                }
            }
        })
    }

    /// Where the accepted text ([`Review::accepted_text`]) holds a U+FFFD
    /// for bytes that were lost (UTF-8 offsets, in order): the decoding
    /// errors no accepted change replaced, and the characters accepted
    /// changes could not recover.
    pub fn accepted_error_offsets(&self) -> Vec<usize> {
        let mut offsets = Vec::new();
        let mut errors = self.outcome.error_offsets.iter().copied().peekable();
        // How much longer the accepted text is than the decode so far.
        let mut grown: isize = 0;
        let moved = |offset: usize, grown: isize| offset.saturating_add_signed(grown);
        for change in self.applied() {
            let range = &change.utf8_range;
            while let Some(offset) = errors.next_if(|&offset| offset < range.start) {
                offsets.push(moved(offset, grown));
            }
            // The change replaced the errors inside it.
            while errors.next_if(|&offset| offset < range.end).is_some() {}
            let start = moved(range.start, grown);
            offsets.extend(change.lost.iter().map(|lost| start + lost.utf8_offset));
            grown += change.replacement.len().cast_signed() - range.len().cast_signed();
        }
        offsets.extend(errors.map(|offset| moved(offset, grown)));
        offsets
    }

    /// The text with the accepted proposals applied: what Save writes.
    pub fn accepted_text(&self) -> String {
        let mut text = String::with_capacity(self.text().len());
        text.extend(self.accepted_pieces());
        text
    }

    /// What the repair found, in words: one sentence each about the
    /// changes, the suggestions, the characters lost and what is accepted.
    pub fn summary(&self) -> Vec<String> {
        let mut sentences = Vec::new();
        let sure = self.sure_count();
        let unsure = self.proposals().len() - sure;
        // Said whatever the repair found: Save will ask about them.
        let errors = self.outcome.error_offsets.len();
        let errors_sentence = (errors > 0).then(|| {
            format!(
                "The decode has {} U+FFFD where bytes did not decode: no repair brings those bytes back, and Save asks before keeping {}.",
                errors,
                if errors == 1 { "it" } else { "them" }
            )
        });
        if self.proposals().is_empty() {
            sentences.push("No mojibake found: nothing to repair.".to_owned());
            sentences.extend(errors_sentence);
            return sentences;
        }
        if sure == 0 {
            sentences.push("No change the repair is sure of.".to_owned());
        } else {
            let by: Vec<String> = self
                .chains
                .iter()
                .filter(|count| count.changes > 0)
                .map(|count| format!("{} {}", count.changes, count.chain))
                .collect();
            sentences.push(format!(
                "{}: {}.",
                plural(sure, "change", "changes"),
                by.join("; ")
            ));
        }
        if unsure > 0 {
            sentences.push(format!(
                "{} the repair is unsure of, not accepted unless you tick {}.",
                plural(unsure, "suggestion", "suggestions"),
                if unsure == 1 { "it" } else { "them" }
            ));
        }
        let lost = self.lost_count();
        if lost > 0 {
            sentences.push(format!(
                "{} could not be recovered: each is U+FFFD in its change.",
                plural(lost, "character", "characters")
            ));
        }
        sentences.extend(errors_sentence);
        sentences.push(format!(
            "{} of {} accepted.",
            self.accepted_count,
            self.proposals().len()
        ));
        sentences
    }
}

/// "1 change", "3 changes".
pub fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{GB18030, UTF_8, UTF_16LE, WINDOWS_1252};

    use super::*;

    fn request(encoding: &'static Encoding, bom_handling: BomHandling) -> RepairRequest {
        RepairRequest {
            pane: 0,
            encoding,
            bom_handling,
        }
    }

    fn run(bytes: &[u8], request: RepairRequest) -> RepairOutcome {
        repair_file(
            bytes,
            request,
            MAX_TEXT_BYTES,
            &AtomicBool::new(false),
            &mut |_, _| {},
        )
        .unwrap()
        .unwrap()
    }

    /// Each proposal as (its text, its bytes, its line).
    fn located<'a>(outcome: &'a RepairOutcome, bytes: &'a [u8]) -> Vec<(&'a str, &'a [u8], u64)> {
        outcome
            .proposals
            .iter()
            .map(|proposal| {
                let span = proposal.bytes;
                (
                    &outcome.text[proposal.change.utf8_range.clone()],
                    &bytes[span.start as usize..span.end as usize],
                    proposal.line,
                )
            })
            .collect()
    }

    #[test]
    fn utf8_changes_map_to_their_bytes_past_errors() {
        // An invalid byte makes three bytes of text (U+FFFD) of one byte.
        let mut bytes = vec![0xFF];
        bytes.extend_from_slice("x Ã©tÃ© ok\nline two: cafÃ©\n".as_bytes());
        let outcome = run(&bytes, request(UTF_8, BomHandling::Sniff));
        assert!(outcome.text.starts_with("\u{FFFD}x Ã©tÃ©"));
        assert_eq!(
            located(&outcome, &bytes),
            [
                ("Ã©tÃ©", "Ã©tÃ©".as_bytes(), 1),
                ("cafÃ©", "cafÃ©".as_bytes(), 2)
            ]
        );
        let first = &outcome.proposals[0];
        // "Ã©tÃ©" is nine bytes of UTF-8.
        assert_eq!(first.bytes, ByteSpan::new(3, 12));
        assert_eq!(first.change.replacement, "été");
        assert!(first.is_sure);
    }

    #[test]
    fn single_byte_changes_map_a_character_to_a_byte() {
        // UTF-8 bytes, shown in a windows-1252 pane: "cafÃ©" is five bytes.
        let bytes = b"Un caf\xC3\xA9 au lait\nL'\xC3\xA9t\xC3\xA9";
        let outcome = run(bytes, request(WINDOWS_1252, BomHandling::None));
        assert_eq!(outcome.encoding, WINDOWS_1252);
        assert_eq!(
            located(&outcome, bytes),
            [
                ("cafÃ©", &b"caf\xC3\xA9"[..], 1),
                ("Ã©tÃ©", &b"\xC3\xA9t\xC3\xA9"[..], 2)
            ]
        );
        assert_eq!(outcome.proposals[0].bytes, ByteSpan::new(3, 8));
        assert_eq!(outcome.proposals[1].change.replacement, "été");
    }

    #[test]
    fn multi_byte_changes_with_a_bom_map_past_it() {
        // UTF-16LE with its byte order mark: two bytes a character, the BOM
        // first.
        let text = "ok Ã©tÃ©\nРњРѕСЃРєРІР° ok";
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        let outcome = run(&bytes, request(UTF_16LE, BomHandling::Sniff));
        assert_eq!(outcome.text, text);
        let spans: Vec<(ByteSpan, &str, u64)> = outcome
            .proposals
            .iter()
            .map(|p| (p.bytes, p.change.replacement.as_str(), p.line))
            .collect();
        assert_eq!(
            spans,
            [
                (ByteSpan::new(2 + 2 * 3, 2 + 2 * 8), "été", 1),
                (ByteSpan::new(2 + 2 * 9, 2 + 2 * 21), "Москва", 2)
            ]
        );
        // A UTF-8 byte order mark, asked for by a UTF-8 pane.
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend_from_slice(text.as_bytes());
        let outcome = run(&bytes, request(UTF_8, BomHandling::Sniff));
        assert_eq!(
            located(&outcome, &bytes)
                .iter()
                .map(|&(text, bytes, _)| (text, bytes))
                .collect::<Vec<_>>(),
            [
                ("Ã©tÃ©", "Ã©tÃ©".as_bytes()),
                ("РњРѕСЃРєРІР°", "РњРѕСЃРєРІР°".as_bytes())
            ]
        );
        assert_eq!(outcome.proposals[0].bytes.start, 3 + 3);
    }

    #[test]
    fn a_legacy_decode_maps_each_character_to_its_sequence() {
        // gb18030 text with a word damaged in UTF-8 before it was encoded:
        // its characters take two bytes each, or four.
        let text = "中文 Ã©tÃ© ok\n";
        let bytes = GB18030.encode_fatal(text).unwrap();
        let outcome = run(&bytes, request(GB18030, BomHandling::None));
        assert_eq!(outcome.text, text);
        let start = GB18030.encode_fatal("中文 ").unwrap().len() as u64;
        let len = GB18030.encode_fatal("Ã©tÃ©").unwrap().len() as u64;
        assert!(len > 5, "{len}");
        assert_eq!(outcome.proposals.len(), 1);
        assert_eq!(
            outcome.proposals[0].bytes,
            ByteSpan::new(start, start + len)
        );
        assert_eq!(outcome.proposals[0].change.replacement, "été");
    }

    #[test]
    fn pieces_on_threads_find_what_one_repair_finds() {
        let lines = [
            "DÃ©claration universelle des droits de lâ€™homme",
            "Déclaration universelle",
            "РњРѕСЃРєРІР° Ð¸ ÐŸÐµÑ‚ÐµÑ€Ð±ÑƒÑ€Ð³",
            "",
            "–¾“ú‚Ì’© BogotÃ¡, Ã?ndice",
            "plain ASCII line",
        ];
        let mut text = String::new();
        for n in 0..120 {
            text.push_str(lines[n % lines.len()]);
            text.push('\n');
        }
        text.push_str("ÃƒÂ©tÃƒÂ© at the end, with no line feed");
        let whole = repair::repair(&text);
        assert!(whole.changes.len() > 60 && !whole.suggestions.is_empty());
        let never = AtomicBool::new(false);
        for piece in [1, 100, 1000, usize::MAX] {
            let mut reports = Vec::new();
            let found = repair_text(&text, None, piece, &never, &mut |done| reports.push(done));
            assert_eq!(found.as_ref(), Some(&whole), "pieces of {piece}");
            assert_eq!(reports.last(), Some(&text.len()));
            assert!(reports.is_sorted());
        }
        // With the bytes behind the text (the same text's UTF-8 read as
        // windows-1252 once more), each piece gets its own.
        let bytes = text.as_bytes();
        let misread = WINDOWS_1252
            .decode_with_bom_handling(bytes, BomHandling::None)
            .text;
        let source = Source {
            bytes,
            encoding: WINDOWS_1252,
        };
        let whole = repair::repair_with_source(&misread, source);
        assert!(whole.changes.len() > 60);
        let found = repair_text(&misread, Some(source), 100, &never, &mut |_| {});
        assert_eq!(found, Some(whole));
        // Cancelled: nothing.
        let cancelled = AtomicBool::new(true);
        assert_eq!(repair_text(&text, None, 100, &cancelled, &mut |_| {}), None);
    }

    #[test]
    fn repairing_in_pieces_finds_what_one_repair_finds() {
        let mut text = String::new();
        for line in 0..200 {
            match line % 4 {
                0 => text.push_str("Un Ã©tÃ© Ã  Paris, cafÃ© crÃ¨me\n"),
                1 => text.push_str("Москва и РњРѕСЃРєРІР°\n"),
                2 => text.push_str("plain text, nothing to see\n"),
                _ => text.push_str("naïve café\n"),
            }
        }
        let whole = repair::repair(&text);
        let outcome = repair_in_pieces(
            text.as_bytes(),
            request(UTF_8, BomHandling::Sniff),
            MAX_TEXT_BYTES,
            100,
            &AtomicBool::new(false),
            &mut |_, _| {},
        )
        .unwrap()
        .unwrap();
        let sure: Vec<&Change> = outcome
            .proposals
            .iter()
            .filter(|p| p.is_sure)
            .map(|p| &p.change)
            .collect();
        assert_eq!(sure, whole.changes.iter().collect::<Vec<_>>());
        assert!(!sure.is_empty());
        // On UTF-8 without errors, the text is the bytes.
        for proposal in &outcome.proposals {
            let range = &proposal.change.utf8_range;
            assert_eq!(
                proposal.bytes,
                ByteSpan::new(range.start as u64, range.end as u64)
            );
        }
        assert_eq!(outcome.proposals.last().map(|p| p.line), Some(198));
    }

    #[test]
    fn too_much_text_is_refused_with_a_message() {
        let bytes = vec![b'a'; 5000];
        let error = repair_file(
            &bytes,
            request(UTF_8, BomHandling::Sniff),
            4096,
            &AtomicBool::new(false),
            &mut |_, _| {},
        )
        .unwrap_err();
        assert!(matches!(error, RepairError::TooLarge { .. }), "{error:?}");
        let message = repair_file(
            &vec![b'a'; 3 << 20],
            request(UTF_8, BomHandling::Sniff),
            2 << 20,
            &AtomicBool::new(false),
            &mut |_, _| {},
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            message,
            "cannot repair this file: its UTF-8 decode is more than 2 MiB of text, more than a \
             repair holds in memory (the file is 3 MiB)"
        );
    }

    #[test]
    fn a_cancelled_repair_returns_nothing_and_progress_ends_at_the_total() {
        let bytes = "cafÃ©\n".repeat(1000);
        let outcome = repair_file(
            bytes.as_bytes(),
            request(UTF_8, BomHandling::Sniff),
            MAX_TEXT_BYTES,
            &AtomicBool::new(true),
            &mut |_, _| {},
        )
        .unwrap();
        assert!(outcome.is_none());
        let mut reports = Vec::new();
        let outcome = repair_file(
            bytes.as_bytes(),
            request(UTF_8, BomHandling::Sniff),
            MAX_TEXT_BYTES,
            &AtomicBool::new(false),
            &mut |done, total| reports.push((done, total)),
        )
        .unwrap()
        .unwrap();
        assert_eq!(outcome.proposals.len(), 1000);
        assert!(reports.is_sorted(), "{reports:?}");
        assert_eq!(reports.last(), Some(&(PROGRESS_TOTAL, PROGRESS_TOTAL)));
        assert_eq!(Phase::of(0), Phase::Decoding);
        assert_eq!(Phase::of(500), Phase::Repairing);
        assert_eq!(Phase::of(950), Phase::Locating);
    }

    fn review_of(text: &str) -> Review {
        let outcome = run(text.as_bytes(), request(UTF_8, BomHandling::Sniff));
        Review::new(
            request(UTF_8, BomHandling::Sniff),
            4,
            PathBuf::from("notes.txt"),
            outcome,
        )
    }

    #[test]
    fn lost_bytes_in_the_accepted_text_are_found_wherever_they_moved() {
        // Two bytes that do not decode, a U+FFFD the file holds as a
        // character, and a repair that could not recover one character.
        let mut bytes = b"\xFE start\n".to_vec();
        bytes.extend("BogotÃ¡, Ã?ndice, pÃºblico\n".as_bytes());
        bytes.extend(b"after \xFF x\n");
        bytes.extend("held \u{FFFD} as is\n".as_bytes());
        let outcome = run(&bytes, request(UTF_8, BomHandling::Sniff));
        assert_eq!(outcome.error_offsets.len(), 2);
        let mut review = Review::new(
            request(UTF_8, BomHandling::Sniff),
            1,
            PathBuf::from("notes.txt"),
            outcome,
        );
        let lost_at = |review: &Review| {
            let text = review.accepted_text();
            let offsets = review.accepted_error_offsets();
            for &offset in &offsets {
                assert!(
                    text[offset..].starts_with('\u{FFFD}'),
                    "{offset} in {text:?}"
                );
            }
            (text, offsets.len())
        };
        assert!(review.summary().contains(
            &"The decode has 2 U+FFFD where bytes did not decode: no repair brings those bytes back, and Save asks before keeping them."
                .to_owned()
        ));
        let (text, lost) = lost_at(&review);
        assert_eq!(
            text,
            "\u{FFFD} start\nBogotá, \u{FFFD}ndice, público\nafter \u{FFFD} x\nheld \u{FFFD} as is\n"
        );
        assert_eq!(
            lost, 3,
            "two decoding errors and one character not recovered"
        );
        // Rejecting the lossy change leaves its "Ã?" and moves what follows.
        let lossy = review
            .proposals()
            .iter()
            .position(|proposal| proposal.change.is_lossy())
            .unwrap();
        review.set_accepted(lossy, false);
        let (text, lost) = lost_at(&review);
        assert!(text.contains("Ã?ndice"), "{text}");
        assert_eq!(lost, 2);
        review.set_all(false);
        assert_eq!(lost_at(&review).1, 2);
    }

    #[test]
    fn the_accepted_text_applies_only_what_is_accepted() {
        let text = "Ã©tÃ© 1\nclean line\nUn Ã©tÃ© 2\nРњРѕСЃРєРІР° 3\n";
        let mut review = review_of(text);
        assert_eq!(review.proposals().len(), 3);
        assert_eq!(review.accepted_count(), 3);
        assert_eq!(
            review.accepted_text(),
            "été 1\nclean line\nUn été 2\nМосква 3\n"
        );
        review.set_accepted(1, false);
        assert_eq!(
            review.accepted_text(),
            "été 1\nclean line\nUn Ã©tÃ© 2\nМосква 3\n"
        );
        assert_eq!(review.accepted_count(), 2);
        // By chain: windows-1252 → UTF-8 made two, windows-1251 → UTF-8 one.
        let chains: Vec<(String, usize)> = review
            .chains()
            .iter()
            .map(|count| (count.chain.to_string(), count.changes))
            .collect();
        assert_eq!(
            chains,
            [
                ("encoded as windows-1252, decoded as UTF-8".to_owned(), 2),
                ("encoded as windows-1251, decoded as UTF-8".to_owned(), 1)
            ]
        );
        let latin = review.chains()[0].chain;
        review.set_chain(latin, false);
        assert_eq!(
            review.accepted_text(),
            "Ã©tÃ© 1\nclean line\nUn Ã©tÃ© 2\nМосква 3\n"
        );
        review.set_all(false);
        assert_eq!(review.accepted_text(), text);
        assert_eq!(review.text(), text, "the decode is never modified");
        review.set_chain(latin, true);
        assert_eq!(
            review.accepted_text(),
            "été 1\nclean line\nUn été 2\nРњРѕСЃРєРІР° 3\n"
        );
        review.reset();
        assert_eq!(review.accepted_count(), 3);
        // The pieces are the text, in order, and never empty.
        let pieces: Vec<&str> = review.accepted_pieces().collect();
        assert!(pieces.iter().all(|piece| !piece.is_empty()), "{pieces:?}");
        assert_eq!(pieces.concat(), review.accepted_text());
        assert_eq!((review.generation(), review.encoding()), (4, UTF_8));
        assert_eq!(
            review.summary(),
            [
                "3 changes: 2 encoded as windows-1252, decoded as UTF-8; 1 encoded as \
                 windows-1251, decoded as UTF-8.",
                "3 of 3 accepted."
            ]
        );
    }

    #[test]
    fn characters_lost_on_the_way_are_counted_and_marked() {
        // "Á" is C3 81 in UTF-8; windows-1252 has no 0x81, so it was lost
        // (to "?" once, to U+FFFD once).
        let review = review_of("Ã?NGEL GarcÃ\u{AD}a, Ã\u{FFFD}lvaro\nok\n");
        assert_eq!(review.proposals().len(), 1);
        let change = &review.proposals()[0].change;
        assert_eq!(change.replacement, "\u{FFFD}NGEL García, \u{FFFD}lvaro");
        let offsets: Vec<usize> = change.lost.iter().map(|lost| lost.utf8_offset).collect();
        assert_eq!(offsets, [0, 17]);
        assert!(change.lost[0].alternatives.contains(&'Á'));
        assert_eq!(review.lost_count(), 2);
        assert!(
            review.summary().contains(
                &"2 characters could not be recovered: each is U+FFFD in its change.".to_owned()
            ),
            "{:?}",
            review.summary()
        );
        assert_eq!(
            review.accepted_text(),
            "\u{FFFD}NGEL García, \u{FFFD}lvaro\nok\n"
        );
    }

    #[test]
    fn nothing_to_repair_says_so() {
        let review = review_of("Un été à Paris\nМосква\n");
        assert!(review.proposals().is_empty());
        assert_eq!(review.summary(), ["No mojibake found: nothing to repair."]);
        assert_eq!(review.accepted_text(), "Un été à Paris\nМосква\n");
        assert_eq!(review_of("").accepted_text(), "");
    }

    /// `cargo test -p mojiscope --lib -- --ignored --nocapture repair_file_speed`
    /// (the test profile is optimised; figures in BENCHMARKS.md): the Repair
    /// window's whole job (decode, repair in pieces, locating every change
    /// in the bytes) on 10 MB of damaged text.
    #[test]
    #[ignore = "benchmark: cargo test -p mojiscope --lib -- --ignored --nocapture repair_file_speed"]
    fn repair_file_speed() {
        const SENTENCES: &str = include_str!("../../../core/tests/repair/data/sentences.tsv");
        let sentences: Vec<&str> = SENTENCES
            .lines()
            .filter(|line| !line.starts_with('#'))
            .filter_map(|line| line.split_once('\t').map(|(_, text)| text))
            .collect();
        // Each line UTF-8 read as windows-1252: as UTF-8 bytes, and as the
        // windows-1252 bytes of a file saved after the misreading.
        let mut text = String::new();
        let mut line = 0;
        while text.len() < 10_000_000 {
            let sentence = sentences[line * 7 % sentences.len()];
            text.push_str(
                &WINDOWS_1252
                    .decode_with_bom_handling(sentence.as_bytes(), BomHandling::None)
                    .text,
            );
            text.push('\n');
            line += 1;
        }
        let as_1252 = WINDOWS_1252.encode_fatal(&text).unwrap();
        for (name, bytes, encoding) in [
            ("UTF-8", text.as_bytes(), UTF_8),
            ("windows-1252", &as_1252[..], WINDOWS_1252),
        ] {
            let started = std::time::Instant::now();
            let outcome = run(bytes, request(encoding, BomHandling::Sniff));
            println!(
                "repair_file, {} kB of {name}, every line damaged: {:.2?}, {} proposals",
                bytes.len() / 1000,
                started.elapsed(),
                outcome.proposals.len()
            );
        }
    }
}
