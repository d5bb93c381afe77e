//! Files in more than one encoding: the runs of lines that read best in
//! different encodings ([`segments`]).
//!
//! Detection ranks encodings for the input as a whole; this splits it into
//! segments, each a run of whole lines in one encoding. It works in three
//! steps, each bounded in time and memory whatever the input:
//!
//! 1. Candidates. The whole input's best encoding is the first reading. Each
//!    line with bytes beyond ASCII is scored in it; the lines that read
//!    badly (decoding errors, valid UTF-8 where the reading is legacy, or
//!    pairs of characters that cost more than text does) are gathered, and
//!    detection on them names the next reading; again on what that one
//!    still reads badly, up to four readings. When no line reads badly,
//!    the input is one segment at once: the common case costs one pass of
//!    one decoder over the lines beyond ASCII.
//! 2. Assignment. Every line beyond ASCII gets a cost in each reading
//!    (errors, then how its characters read in the reading's language, as
//!    detection weighs them), and the cheapest assignment of readings to
//!    lines is found (Viterbi), with a price for each switch so that a lone
//!    ambiguous line does not become its own segment. Lines that read the
//!    same in every reading (ASCII) are no evidence: they stay with the
//!    segment before them.
//! 3. Each boundary gets a margin: how many nats the best assignment beats
//!    the nearest alternative by (the boundary one line earlier or later,
//!    or no segment at all).
//!
//! Inputs up to 2 MiB are examined whole; longer ones in windows spread
//! from start to end, and a boundary that falls between two windows is
//! found by bisecting the gap. A part that lies entirely between two
//! windows (a run of lines shorter than the gap, at most 1/64 of the
//! input, with the same reading on both sides of it) is not seen: it is
//! read as the segment around it. Input that is not text (control bytes,
//! random bytes) or that would split into hundreds of segments is kept
//! whole, with a note saying why.

use std::fmt;
use std::ops::Range;

use mojiscope_indexes::language::{self, COST_SCALE, LANGUAGES, Language};

use super::text::chars_format_in_word;
use super::{CASE_BREAK_COST, ERROR_COST, FORMAT_IN_WORD_COST, TEMPERATURE, sample, to_f64};
use crate::decoder::{BomHandling, DecodeErrorMode, Decoder};
use crate::encoding::{Encoding, ISO_2022_JP, REPLACEMENT, UTF_8, X_USER_DEFINED};
use crate::provenance::{ByteSpan, DecodeErrorKind, DecodeSink, SkipReason};
use crate::{Detection, Note, detect};

/// Inputs up to this size are examined whole.
const SCAN_BUDGET: usize = 2 * 1024 * 1024;

/// How many windows a longer input is examined in.
const SCAN_WINDOWS: usize = 64;

/// A "line" longer than this is cut (at its last byte below 0x21 if it has
/// one), so that no line is held whole however long it is.
const MAX_LINE: usize = 64 * 1024;

/// At most this many readings (encodings) in one input.
const MAX_READINGS: usize = 4;

/// At most this many bytes of badly read lines are gathered to name the
/// next reading.
const SUSPECT_BUDGET: usize = 256 * 1024;

/// The price of switching readings between two lines, in nats: a line must
/// read this much better in another encoding (twice this, for one line
/// between two of the same) before it becomes a segment of its own. One
/// decoding error (20 nats) is enough; a slightly better reading is not.
const SWITCH_COST: f64 = 6.0;

/// What starting in any reading but the whole input's best costs, in nats.
const OTHER_READING_PRIOR: f64 = 3.0;

/// A line that is valid UTF-8 with characters beyond ASCII reads at least
/// this many nats better as UTF-8 than as anything else for each of its
/// sequences beyond ASCII, up to [`LINE_STRUCTURE_LEAD`]: detection's rule
/// for whole inputs, line by line, weighed by how long the line is (a
/// short line of legacy text may be valid UTF-8 by chance).
const STRUCTURE_PER_SEQUENCE: f64 = 1.0;

/// The most the structure of a valid UTF-8 line counts for, in nats.
const LINE_STRUCTURE_LEAD: f64 = 10.0;

/// A line whose pairs with a character beyond ASCII cost this many nats
/// more on average than the input's better-read lines reads badly.
const SUSPECT_EXCESS: f64 = 2.5;

/// A line needs this many such pairs before its average says anything.
const SUSPECT_MIN_PAIRS: u64 = 2;

/// A run whose only evidence is how its text reads must read no more than
/// this many nats per pair worse than the input's better-read lines.
const PLAUSIBLE_EXCESS: f64 = 1.0;

/// Input with more control bytes than one in this many is not text.
const CONTROL_SHARE: usize = 50;

/// More segments than this and the input is no text in a few encodings.
const MAX_SEGMENTS: usize = 256;

/// How many bytes a probe of a gap between two windows examines.
const PROBE_BYTES: usize = 16 * 1024;

/// A run with decoding errors in its neighbour's reading (and none in its
/// own), or valid UTF-8 read as UTF-8, must read this many nats better than
/// its neighbour's reading would read it: about one error's worth.
const MIN_STRONG_GAIN: f64 = 20.0;

/// A run whose only evidence is how its text reads must read this many
/// nats better than its neighbour's reading would read it...
const MIN_LANGUAGE_GAIN: f64 = 30.0;

/// ...and hold this many bytes beyond ASCII.
const MIN_LANGUAGE_BYTES: u64 = 24;

/// How many times the readings are named again from the lines each
/// was given.
const REFINE_ROUNDS: usize = 3;

/// What a decoding error costs a line, in nats: detection's cost of an
/// error, and the pairs around it that go unscored (a character the other
/// reading decodes there costs them), so that a line a reading decodes
/// without errors is never read with them for a few rare symbols.
const LINE_ERROR_COST: f64 = ERROR_COST + 10.0;

/// Costs closer than this (in nats) are equal.
const SAME_COST: f64 = 1e-6;

/// The parts of an input in different encodings, as [`segments`] finds
/// them.
#[derive(Clone, Debug)]
pub struct Segmentation {
    /// The segments, in order, covering the input exactly (one, for an
    /// input in one encoding; one empty segment for an empty input).
    pub segments: Vec<Segment>,
    /// Facts about the input as a whole.
    pub notes: Vec<SegmentNote>,
    /// How many bytes were examined (all of them unless
    /// [`SegmentNote::Sampled`]).
    pub bytes_examined: u64,
}

impl Segmentation {
    /// Whether the input is in more than one encoding.
    pub fn is_mixed(&self) -> bool {
        self.segments.len() > 1
    }

    /// The boundaries between segments: each segment but the first.
    pub fn boundaries(&self) -> impl Iterator<Item = &Segment> {
        self.segments.iter().skip(1)
    }
}

/// A run of lines in one encoding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// Its bytes: it starts at a line start (or where a line longer than
    /// 64 KiB was cut) and ends where the next segment starts.
    pub byte_span: ByteSpan,
    /// The encoding its lines read best in.
    pub encoding: &'static Encoding,
    /// How sure the boundary at its start is, in nats: how much worse the
    /// nearest alternative reads (the boundary a line earlier or later, or
    /// this segment read as the one before). Infinite for the first
    /// segment; 0 when the boundary lies somewhere in bytes not examined.
    pub margin: f64,
}

impl Segment {
    /// How sure the boundary at its start is, between 0.5 and 1: the share
    /// of the probability the boundary takes against its nearest
    /// alternative (margins divided by 3, as detection's scores are).
    pub fn confidence(&self) -> f64 {
        1.0 / (1.0 + (-self.margin / TEMPERATURE).exp())
    }
}

/// A fact about a segmentation.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq)]
pub enum SegmentNote {
    /// The input is longer than 2 MiB: windows spread over it were
    /// examined, and the gaps between them probed where a boundary lies.
    Sampled {
        /// How many bytes were examined.
        bytes_examined: u64,
        /// The input's length.
        byte_len: u64,
    },
    /// A byte order mark decides the decode of the whole input.
    ByteOrderMark {
        /// Its encoding.
        encoding: &'static Encoding,
    },
    /// The input is UTF-16 without a byte order mark, or ISO-2022-JP, whose
    /// lines are not read on their own: it is kept whole.
    KeptWhole {
        /// The encoding.
        encoding: &'static Encoding,
    },
    /// The input is not text: more than one byte in 50 is a control
    /// character. It is kept whole.
    NotText {
        /// How many control bytes were seen.
        control_bytes: u64,
        /// Of how many bytes examined.
        bytes_examined: u64,
    },
    /// The readings change too often for the input to be text in a few
    /// encodings (random bytes, a binary file): it is kept whole.
    TooFragmented {
        /// How many segments it would have made.
        segments: usize,
    },
}

/// Splits `bytes` into runs of lines each in one encoding, on top of
/// [`detect()`](crate::detect()): see the module's documentation.
///
/// ```
/// use mojiscope_core::{segments, UTF_8, WINDOWS_1252};
///
/// let mut bytes = "Grüße aus Köln, schöne Tage am Rhein.\n".repeat(3).into_bytes();
/// let boundary = bytes.len() as u64;
/// bytes.extend(b"D\xE9j\xE0 vu: l'\xE9t\xE9 fran\xE7ais, c'\xE9tait tr\xE8s beau.\n");
/// let segmentation = segments(&bytes);
/// let found: Vec<_> = segmentation
///     .segments
///     .iter()
///     .map(|s| (s.byte_span.start, s.encoding))
///     .collect();
/// assert_eq!(found, [(0, UTF_8), (boundary, WINDOWS_1252)]);
/// ```
pub fn segments(bytes: &[u8]) -> Segmentation {
    segments_with_detection(bytes, &detect(bytes))
}

/// [`segments`] with the input's [`Detection`] already at hand.
pub fn segments_with_detection(bytes: &[u8], detection: &Detection) -> Segmentation {
    let byte_len = bytes.len() as u64;
    let whole =
        |encoding: &'static Encoding, notes: Vec<SegmentNote>, examined: u64| Segmentation {
            segments: vec![Segment {
                byte_span: ByteSpan::new(0, byte_len),
                encoding,
                margin: f64::INFINITY,
            }],
            notes,
            bytes_examined: examined,
        };
    let best = detection.best();
    if let Some(encoding) = crate::bom_sniff(bytes) {
        return whole(
            encoding,
            vec![SegmentNote::ByteOrderMark { encoding }],
            detection.bytes_examined,
        );
    }
    if bytes.is_empty() {
        return whole(best, Vec::new(), 0);
    }
    if detection.utf16_without_bom().is_some() || best == ISO_2022_JP || !is_line_based(best) {
        return whole(
            best,
            vec![SegmentNote::KeptWhole { encoding: best }],
            detection.bytes_examined,
        );
    }
    let ranges = scan_ranges(bytes);
    let examined: u64 = ranges.iter().map(|r| r.len() as u64).sum();
    let mut notes = Vec::new();
    if ranges.len() > 1 {
        notes.push(SegmentNote::Sampled {
            bytes_examined: examined,
            byte_len,
        });
    }
    let control_bytes: u64 = ranges
        .iter()
        .map(|r| control_bytes(&bytes[r.clone()]))
        .sum();
    if control_bytes * CONTROL_SHARE as u64 > examined {
        notes.push(SegmentNote::NotText {
            control_bytes,
            bytes_examined: examined,
        });
        return whole(best, notes, examined);
    }

    let (mut readings, typical) = find_readings(bytes, &ranges, detection);
    // When even the best reading of the whole input is implausible text,
    // how lines read is no evidence: only errors and UTF-8 split it.
    let implausible = detection
        .notes
        .iter()
        .any(|n| matches!(n, Note::ImplausibleText { .. }));
    let plausible = (!implausible).then_some(typical + PLAUSIBLE_EXCESS);
    let mut lines = EvidenceLines::default();
    let mut path = Vec::new();
    for round in 0..=REFINE_ROUNDS {
        if readings.len() < 2 {
            return whole(best, notes, examined);
        }
        lines = EvidenceLines::default();
        for range in &ranges {
            lines.score(bytes, range.clone(), &readings);
        }
        path = cheapest_path(&lines, readings.len());
        if round == REFINE_ROUNDS || !refine(bytes, &lines, &path, &mut readings) {
            break;
        }
    }
    let mut runs = runs_of(&lines, &path, &readings, plausible);
    if runs.len() > MAX_SEGMENTS {
        notes.push(SegmentNote::TooFragmented {
            segments: runs.len(),
        });
        return whole(best, notes, examined);
    }
    if ranges.len() > 1 {
        locate_in_gaps(bytes, &ranges, &readings, &lines, &mut runs);
    }
    let segments = to_segments(&runs, &readings, byte_len);
    if segments.len() < 2 {
        // One encoding after all: the one detection names for the whole.
        return whole(best, notes, examined);
    }
    Segmentation {
        segments,
        notes,
        bytes_examined: examined,
    }
}

/// Whether the encoding's lines decode on their own: a line feed is never
/// part of a longer sequence, and no state carries over it.
fn is_line_based(encoding: &Encoding) -> bool {
    encoding.is_ascii_compatible()
        && encoding != ISO_2022_JP
        && encoding != REPLACEMENT
        && encoding != X_USER_DEFINED
}

/// The byte ranges to examine: all of a short input, else windows spread
/// from start to end with their edges moved to line starts.
fn scan_ranges(bytes: &[u8]) -> Vec<Range<usize>> {
    let len = bytes.len();
    if len <= SCAN_BUDGET {
        let whole = 0..len;
        return vec![whole];
    }
    let window = SCAN_BUDGET / SCAN_WINDOWS;
    let step = (len - window) / (SCAN_WINDOWS - 1);
    let mut ranges: Vec<Range<usize>> = Vec::with_capacity(SCAN_WINDOWS);
    for k in 0..SCAN_WINDOWS {
        let start = k * step;
        let range = sample::align(bytes, start..start + window);
        if ranges.last().is_none_or(|last| last.end <= range.start) {
            ranges.push(range);
        }
    }
    ranges
}

/// Control bytes text does not hold: C0 controls but TAB, LF, FF, CR, and
/// ESC that starts a terminal's control sequence (`ESC [`), and DEL.
fn control_bytes(bytes: &[u8]) -> u64 {
    let mut count = 0;
    for (position, &b) in bytes.iter().enumerate() {
        let control = match b {
            b'\t' | b'\n' | b'\x0C' | b'\r' => false,
            0x1B => bytes.get(position + 1) != Some(&b'['),
            0x00..=0x1F | 0x7F => true,
            _ => false,
        };
        count += u64::from(control);
    }
    count
}

/// The lines of `bytes[range]`, each with its line feed; a line longer than
/// [`MAX_LINE`] is cut after its last byte below 0x21 (a whole character in
/// every line-based encoding), or at [`MAX_LINE`] if it has none.
fn lines(bytes: &[u8], range: Range<usize>) -> impl Iterator<Item = Range<usize>> + '_ {
    let end = range.end;
    let mut start = range.start;
    std::iter::from_fn(move || {
        if start >= end {
            return None;
        }
        let reach = &bytes[start..end.min(start + MAX_LINE)];
        let len = match reach.iter().position(|&b| b == b'\n') {
            Some(position) => position + 1,
            None if reach.len() < MAX_LINE => reach.len(),
            None => reach
                .iter()
                .rposition(|&b| b < 0x21)
                .map_or(reach.len(), |position| position + 1),
        };
        let line = start..start + len;
        start += len;
        Some(line)
    })
}

/// One way to read lines: an encoding, and the language its text is
/// scored in.
#[derive(Clone, Copy, Debug)]
struct Reading {
    encoding: &'static Encoding,
    language: &'static Language,
}

impl Reading {
    /// The reading detection's best candidate for some bytes gives.
    fn of(detection: &Detection, encoding: &'static Encoding) -> Self {
        let language = detection
            .candidate(encoding)
            .and_then(|c| {
                c.evidence.iter().find_map(|e| match e {
                    super::Evidence::Language { tag, .. } => language::for_tag(tag),
                    _ => None,
                })
            })
            .or_else(|| {
                let position = crate::encoding::ALL.iter().position(|e| *e == encoding)?;
                LANGUAGES.iter().find(|l| l.is_written_in(position))
            })
            .unwrap_or(&LANGUAGES[0]);
        Self { encoding, language }
    }
}

/// How one line reads in one reading.
#[derive(Clone, Copy, Debug, Default)]
struct LineScore {
    /// Its cost in nats.
    cost: f64,
    /// Identity of the decoded text.
    hash: u64,
    /// Decoding errors.
    errors: u64,
    /// Pairs with a character beyond ASCII, and what they cost in nats
    /// (with the costs of case breaks and formatting characters in words).
    high_pairs: u64,
    high_cost: f64,
}

/// Scores a line as it decodes: errors, and its pairs with a character
/// beyond ASCII in the reading's language, as detection weighs them (pairs
/// of ASCII characters read the same in every reading and are left out).
struct LineSink<'a> {
    language: &'a Language,
    /// In units of 1/`COST_SCALE` nat.
    pair_cost: u64,
    high_pairs: u64,
    errors: u64,
    case_breaks: u64,
    formats_in_words: u64,
    hash: u64,
    previous: char,
    previous_is_ascii: bool,
    previous_is_lowercase: bool,
    previous_raw: char,
    before_previous_raw: char,
}

/// FNV-1a over the decoded characters (as detection's text identity).
const HASH_START: u64 = 0xCBF2_9CE4_8422_2325;
const HASH_PRIME: u64 = 0x0100_0000_01B3;
const ERROR_MARK: u32 = 0x11_0000;

impl<'a> LineSink<'a> {
    fn new(language: &'a Language) -> Self {
        Self {
            language,
            pair_cost: 0,
            high_pairs: 0,
            errors: 0,
            case_breaks: 0,
            formats_in_words: 0,
            hash: HASH_START,
            previous: ' ',
            previous_is_ascii: true,
            previous_is_lowercase: false,
            previous_raw: ' ',
            before_previous_raw: ' ',
        }
    }

    fn hash(&mut self, value: u32) {
        self.hash = (self.hash ^ u64::from(value)).wrapping_mul(HASH_PRIME);
    }

    #[inline]
    fn push(&mut self, c: char) {
        self.hash(u32::from(c));
        let is_ascii = c.is_ascii();
        if self.previous_is_lowercase && c.is_uppercase() && !(is_ascii && self.previous_is_ascii) {
            self.case_breaks += 1;
        }
        self.previous_is_lowercase = c.is_lowercase();
        if chars_format_in_word(self.before_previous_raw, self.previous_raw, c) {
            self.formats_in_words += 1;
        }
        self.before_previous_raw = self.previous_raw;
        self.previous_raw = c;
        let folded = language::fold(c);
        let both_ascii = is_ascii && self.previous_is_ascii;
        let both_boundaries = folded == ' ' && self.previous == ' ';
        if !(both_ascii || both_boundaries) {
            self.pair_cost += u64::from(self.language.pair_cost(self.previous, folded));
            self.high_pairs += 1;
        }
        self.previous = folded;
        self.previous_is_ascii = is_ascii;
    }

    fn score(&self) -> LineScore {
        let high_cost = to_f64(self.pair_cost) / COST_SCALE;
        LineScore {
            cost: high_cost
                + LINE_ERROR_COST * to_f64(self.errors)
                + CASE_BREAK_COST * to_f64(self.case_breaks)
                + FORMAT_IN_WORD_COST * to_f64(self.formats_in_words),
            hash: self.hash,
            errors: self.errors,
            high_pairs: self.high_pairs,
            high_cost: high_cost
                + CASE_BREAK_COST * to_f64(self.case_breaks)
                + FORMAT_IN_WORD_COST * to_f64(self.formats_in_words),
        }
    }
}

impl DecodeSink for LineSink<'_> {
    fn ascii(&mut self, run: &[u8], _start: u64) {
        for &b in run {
            self.push(char::from(b));
        }
    }

    fn scalar(&mut self, c: char, _span: ByteSpan) {
        self.push(c);
    }

    fn scalar_pair(&mut self, first: char, second: char, _span: ByteSpan) {
        self.push(first);
        self.push(second);
    }

    fn error(&mut self, _kind: DecodeErrorKind, _span: ByteSpan) {
        self.hash(ERROR_MARK);
        self.errors += 1;
        // An error is a word boundary that is not ASCII.
        self.previous = ' ';
        self.previous_is_ascii = false;
        self.previous_is_lowercase = false;
        self.before_previous_raw = ' ';
        self.previous_raw = '\u{FFFD}';
    }

    fn skip(&mut self, _reason: SkipReason, _span: ByteSpan) {}
}

/// How `line` reads in `reading`.
fn score_line(line: &[u8], reading: &Reading) -> LineScore {
    let mut sink = LineSink::new(reading.language);
    let mut decoder = Decoder::new(
        reading.encoding,
        DecodeErrorMode::Replacement,
        BomHandling::None,
    );
    // In replacement mode the decoder takes all of its input.
    let _ = decoder.decode(line, true, &mut sink);
    sink.score()
}

/// Whether a line is valid UTF-8 with characters beyond ASCII.
fn is_utf8_beyond_ascii(line: &[u8]) -> bool {
    !line.is_ascii() && std::str::from_utf8(line).is_ok()
}

/// The readings of the input, and what a pair beyond ASCII costs in the
/// lines the first reading reads well: the whole input's best encoding; UTF-8 if
/// some lines are valid UTF-8 beyond ASCII; then what detection makes of
/// the lines the readings so far read badly (decoding errors, or pairs that
/// cost [`SUSPECT_EXCESS`] more than the input's better-read lines).
fn find_readings(
    bytes: &[u8],
    ranges: &[Range<usize>],
    detection: &Detection,
) -> (Vec<Reading>, f64) {
    let first = Reading::of(detection, detection.best());
    let mut readings = vec![first];
    // The lines beyond ASCII: valid UTF-8 ones apart (as far as the budget
    // goes), the others with how they read in the first reading.
    let mut utf8_lines = Vec::new();
    // Each line's start, length and average cost per pair (infinite with
    // decoding errors): 16 bytes a line.
    let mut scored: Vec<(usize, u32, f32)> = Vec::new();
    for range in ranges {
        for line in lines(bytes, range.clone()) {
            let text = &bytes[line.clone()];
            if text.is_ascii() {
                continue;
            }
            if is_utf8_beyond_ascii(text) {
                if first.encoding != UTF_8 && utf8_lines.len() < SUSPECT_BUDGET {
                    utf8_lines.extend_from_slice(text);
                }
                continue;
            }
            let score = score_line(text, &first);
            if score.errors > 0 || score.high_pairs >= SUSPECT_MIN_PAIRS {
                let average = if score.errors > 0 {
                    f32::INFINITY
                } else {
                    #[expect(
                        clippy::cast_possible_truncation,
                        reason = "an average cost in nats; f32 is plenty"
                    )]
                    let average = (score.high_cost / to_f64(score.high_pairs)) as f32;
                    average
                };
                // A line is at most MAX_LINE bytes long.
                let len = u32::try_from(line.len()).unwrap_or(u32::MAX);
                scored.push((line.start, len, average));
            }
        }
    }
    if !utf8_lines.is_empty() {
        readings.push(Reading::of(&detect(&utf8_lines), UTF_8));
    }
    // What a line the first reading reads well costs: the lower quartile
    // of the lines' average cost per pair.
    let mut averages: Vec<f32> = scored
        .iter()
        .map(|&(_, _, average)| average)
        .filter(|average| average.is_finite())
        .collect();
    let typical = if averages.is_empty() {
        0.0
    } else {
        let quartile = averages.len() / 4;
        let (_, value, _) = averages.select_nth_unstable_by(quartile, f32::total_cmp);
        f64::from(*value)
    };
    drop(averages);
    let mut suspects: Vec<Range<usize>> = Vec::new();
    let mut gathered = 0;
    for (start, len, average) in scored {
        if f64::from(average) > typical + SUSPECT_EXCESS {
            let line = start..start + len as usize;
            gathered += line.len() + 1;
            suspects.push(line);
            if gathered > SUSPECT_BUDGET {
                break;
            }
        }
    }
    while !suspects.is_empty() && readings.len() < MAX_READINGS {
        let mut gathered = Vec::with_capacity(SUSPECT_BUDGET);
        for line in &suspects {
            gathered.extend_from_slice(&bytes[line.clone()]);
            if gathered.last() != Some(&b'\n') {
                gathered.push(b'\n');
            }
        }
        let found = detect(&gathered);
        let encoding = found.best_override_choice();
        if !is_line_based(encoding) || readings.iter().any(|r| r.encoding == encoding) {
            break;
        }
        let reading = Reading::of(&found, encoding);
        // It must read some of the lines better than every reading so far;
        // the others are still suspect.
        let before = suspects.len();
        suspects.retain(|line| {
            let text = &bytes[line.clone()];
            let best_so_far = readings
                .iter()
                .map(|r| score_line(text, r).cost)
                .fold(f64::INFINITY, f64::min);
            score_line(text, &reading).cost + SWITCH_COST >= best_so_far
        });
        if suspects.len() == before {
            break;
        }
        readings.push(reading);
    }
    (readings, typical)
}

/// Names each reading again from the lines the path gives it, as detection
/// ranks them: the first readings were named from the whole input or from
/// the lines the others read badly, and a compromise between two encodings
/// (macintosh for a file in UTF-8 and windows-1252) gives way to the
/// encoding of its own lines. Readings given no line are dropped. Returns
/// whether anything changed.
fn refine(bytes: &[u8], lines: &EvidenceLines, path: &[u8], readings: &mut Vec<Reading>) -> bool {
    let mut changed = false;
    let mut keep = vec![false; readings.len()];
    for k in 0..readings.len() {
        let mut gathered = Vec::new();
        for line in (0..lines.len()).filter(|&line| usize::from(path[line]) == k) {
            keep[k] = true;
            let (start, end) = (lines.starts[line], lines.ends[line]);
            let (Ok(start), Ok(end)) = (usize::try_from(start), usize::try_from(end)) else {
                continue;
            };
            gathered.extend_from_slice(&bytes[start..end]);
            if gathered.len() > SUSPECT_BUDGET {
                break;
            }
        }
        if gathered.is_empty() {
            continue;
        }
        let found = detect(&gathered);
        let encoding = found.best_override_choice();
        let current = readings[k].encoding;
        let same_text = found
            .candidate(current)
            .is_some_and(|c| c.same_text_as == Some(encoding))
            || found
                .candidate(encoding)
                .is_some_and(|c| c.same_text_as == Some(current));
        if encoding != current
            && !same_text
            && is_line_based(encoding)
            && readings.iter().all(|r| r.encoding != encoding)
        {
            readings[k] = Reading::of(&found, encoding);
            changed = true;
        }
    }
    if keep.iter().any(|&kept| !kept) {
        let mut index = 0;
        readings.retain(|_| {
            index += 1;
            keep[index - 1]
        });
        changed = true;
    }
    changed
}

/// The lines that tell readings apart, with their cost in each.
#[derive(Default)]
struct EvidenceLines {
    /// Where each line starts.
    starts: Vec<u64>,
    /// Where each line ends.
    ends: Vec<u64>,
    /// Its cost in each reading, [`MAX_READINGS`] a line.
    costs: Vec<[f32; MAX_READINGS]>,
    /// Which readings decode it with errors (bit `k` for reading `k`), and
    /// whether it is valid UTF-8 beyond ASCII: the evidence that is more
    /// than how well the text reads.
    erring: Vec<u8>,
    utf8: Vec<bool>,
    /// Its bytes beyond ASCII.
    high_bytes: Vec<u32>,
    /// Its pairs with a character beyond ASCII in each reading.
    pairs: Vec<[u16; MAX_READINGS]>,
}

impl EvidenceLines {
    fn len(&self) -> usize {
        self.starts.len()
    }

    /// Scores every line of `bytes[range]` that is not ASCII in every
    /// reading, and keeps those whose costs differ.
    fn score(&mut self, bytes: &[u8], range: Range<usize>, readings: &[Reading]) {
        for line in lines(bytes, range) {
            let text = &bytes[line.clone()];
            if text.is_ascii() {
                continue;
            }
            if let Some((costs, erring, pairs)) = line_costs(text, readings) {
                self.pairs.push(pairs);
                self.starts.push(line.start as u64);
                self.ends.push(line.end as u64);
                self.costs.push(costs);
                self.erring.push(erring);
                self.utf8.push(is_utf8_beyond_ascii(text));
                let high = text.iter().filter(|&&b| b >= 0x80).count();
                self.high_bytes
                    .push(u32::try_from(high).unwrap_or(u32::MAX));
            }
        }
    }

    fn cost(&self, line: usize, reading: usize) -> f64 {
        f64::from(self.costs[line][reading])
    }
}

/// A line's cost in each reading, which readings decode it with errors and
/// its pairs beyond ASCII in each, or `None` when the costs are all the
/// same.
/// Readings that decode the line to the same text share the best of their
/// costs (their languages differ, not the text), and a line that is valid
/// UTF-8 beyond ASCII reads at least [`LINE_STRUCTURE_LEAD`] better as
/// UTF-8 than otherwise.
fn line_costs(
    line: &[u8],
    readings: &[Reading],
) -> Option<([f32; MAX_READINGS], u8, [u16; MAX_READINGS])> {
    let scores: Vec<LineScore> = readings.iter().map(|r| score_line(line, r)).collect();
    let mut pairs = [0u16; MAX_READINGS];
    for (k, score) in scores.iter().enumerate() {
        pairs[k] = u16::try_from(score.high_pairs).unwrap_or(u16::MAX);
    }
    let erring = scores
        .iter()
        .enumerate()
        .filter(|(_, score)| score.errors > 0)
        .fold(0u8, |mask, (k, _)| mask | 1 << k);
    let mut costs = [0f64; MAX_READINGS];
    for (k, score) in scores.iter().enumerate() {
        costs[k] = scores
            .iter()
            .filter(|other| other.hash == score.hash)
            .map(|other| other.cost)
            .fold(score.cost, f64::min);
    }
    if let Some(utf8) = readings.iter().position(|r| r.encoding == UTF_8)
        && is_utf8_beyond_ascii(line)
    {
        let others = (0..readings.len())
            .filter(|&k| k != utf8 && scores[k].hash != scores[utf8].hash)
            .map(|k| costs[k])
            .fold(f64::INFINITY, f64::min);
        let sequences = line.iter().filter(|&&b| b >= 0xC0).count();
        let lead = (STRUCTURE_PER_SEQUENCE * to_f64(sequences as u64)).min(LINE_STRUCTURE_LEAD);
        costs[utf8] = costs[utf8].min(others - lead);
    }
    let first = costs[0];
    if costs[..readings.len()]
        .iter()
        .all(|&c| (c - first).abs() <= SAME_COST)
    {
        return None;
    }
    #[expect(
        clippy::cast_possible_truncation,
        reason = "costs of a line are far inside f32's range; its precision is plenty"
    )]
    Some((costs.map(|c| c as f32), erring, pairs))
}

/// The cheapest reading for each evidence line (Viterbi): each line's cost
/// in its reading, plus [`SWITCH_COST`] for each change of reading and
/// [`OTHER_READING_PRIOR`] for starting in any reading but the first.
/// Ties keep the reading of the line before.
fn cheapest_path(lines: &EvidenceLines, readings: usize) -> Vec<u8> {
    let n = lines.len();
    if n == 0 {
        return Vec::new();
    }
    let mut total: Vec<f64> = (0..readings)
        .map(|k| {
            let prior = if k == 0 { 0.0 } else { OTHER_READING_PRIOR };
            prior + lines.cost(0, k)
        })
        .collect();
    // For each line after the first, the reading of the line before on
    // the cheapest path to each reading.
    let mut back: Vec<[u8; MAX_READINGS]> = Vec::with_capacity(n.saturating_sub(1));
    let mut next = vec![0.0; readings];
    for line in 1..n {
        let mut from = [0u8; MAX_READINGS];
        for k in 0..readings {
            let mut best = total[k];
            let mut best_from = k;
            for (j, &t) in total.iter().enumerate() {
                if j != k && t + SWITCH_COST < best {
                    best = t + SWITCH_COST;
                    best_from = j;
                }
            }
            from[k] = u8::try_from(best_from).unwrap_or(0);
            next[k] = best + lines.cost(line, k);
        }
        back.push(from);
        std::mem::swap(&mut total, &mut next);
    }
    let mut state = (0..readings)
        .min_by(|&a, &b| total[a].total_cmp(&total[b]))
        .unwrap_or(0);
    let mut path = vec![0u8; n];
    for line in (0..n).rev() {
        path[line] = u8::try_from(state).unwrap_or(0);
        if line > 0 {
            state = usize::from(back[line - 1][state]);
        }
    }
    path
}

/// A run of evidence lines in one reading.
#[derive(Clone, Debug)]
struct Run {
    reading: usize,
    /// Its evidence lines.
    lines: Range<usize>,
    /// Where it starts in the input.
    byte_offset: u64,
    margin: f64,
}

/// The runs of the path, with each boundary moved past the lines that cost
/// the same in both readings (they stay with the segment before), and the
/// margin of each boundary.
fn runs_of(
    lines: &EvidenceLines,
    path: &[u8],
    readings: &[Reading],
    plausible: Option<f64>,
) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for (line, &state) in path.iter().enumerate() {
        let reading = usize::from(state);
        match runs.last_mut() {
            Some(run) if run.reading == reading => run.lines.end = line + 1,
            _ => runs.push(Run {
                reading,
                lines: line..line + 1,
                byte_offset: 0,
                margin: f64::INFINITY,
            }),
        }
    }
    // Lines at the start of a run that read the same in the run before go
    // with that run.
    let mut index = 1;
    while index < runs.len() {
        let before = runs[index - 1].reading;
        let here = runs[index].reading;
        while runs[index].lines.start < runs[index].lines.end {
            let line = runs[index].lines.start;
            if (lines.cost(line, before) - lines.cost(line, here)).abs() > SAME_COST {
                break;
            }
            runs[index].lines.start += 1;
            runs[index - 1].lines.end += 1;
        }
        if runs[index].lines.is_empty() {
            runs.remove(index);
            // The runs on either side may now be one.
            if index < runs.len() && runs[index].reading == runs[index - 1].reading {
                let end = runs[index].lines.end;
                runs[index - 1].lines.end = end;
                runs.remove(index);
            }
        } else {
            index += 1;
        }
    }
    merge_weak_runs(lines, &mut runs, readings, plausible);
    for index in 0..runs.len() {
        runs[index].byte_offset = if index == 0 {
            0
        } else {
            lines.starts[runs[index].lines.start]
        };
        if index > 0 {
            runs[index].margin = margin(lines, &runs[index - 1], &runs[index]);
        }
    }
    runs
}

/// Reads as a neighbour's reading each run that is too little evidence to
/// be a part in another encoding, weakest first:
/// - a run with decoding errors in the neighbour's reading and none in its
///   own, or valid UTF-8 read as UTF-8, must read [`MIN_STRONG_GAIN`] nats
///   better than the neighbour's reading would read it;
/// - a run whose only evidence is how its text reads (a short line of
///   symbols reads a little better as letters of another code page) must
///   read [`MIN_LANGUAGE_GAIN`] better and hold [`MIN_LANGUAGE_BYTES`]
///   bytes beyond ASCII (language models of different languages compare
///   well only over some text), and read about as well in its own reading
///   as the input's well-read lines do (`plausible`, in nats per pair;
///   `None` when the whole input reads implausibly, and then no run is
///   made on such evidence).
fn merge_weak_runs(
    lines: &EvidenceLines,
    runs: &mut Vec<Run>,
    readings: &[Reading],
    plausible: Option<f64>,
) {
    loop {
        let mut weakest: Option<(usize, usize, f64)> = None;
        for index in 0..runs.len() {
            let run = &runs[index];
            let neighbours = [index.checked_sub(1), Some(index + 1)];
            for neighbour in neighbours.into_iter().flatten() {
                let Some(other) = runs.get(neighbour) else {
                    continue;
                };
                let (own, as_other) = (run.reading, other.reading);
                let strong = run.lines.clone().any(|line| {
                    let other_errs = lines.erring[line] & (1 << as_other) != 0;
                    let own_errs = lines.erring[line] & (1 << own) != 0;
                    (other_errs && !own_errs)
                        || (lines.utf8[line] && readings[own].encoding == UTF_8)
                });
                let gain: f64 = run
                    .lines
                    .clone()
                    .map(|line| lines.cost(line, as_other) - lines.cost(line, own))
                    .sum();
                let high_bytes: u64 = run
                    .lines
                    .clone()
                    .map(|line| u64::from(lines.high_bytes[line]))
                    .sum();
                let (own_cost, own_pairs) = run.lines.clone().fold((0.0, 0u64), |(c, p), line| {
                    (
                        c + lines.cost(line, own),
                        p + u64::from(lines.pairs[line][own]),
                    )
                });
                let reads_well =
                    plausible.is_some_and(|bar| own_cost <= bar * to_f64(own_pairs.max(1)));
                // The first reading is the input's own: its runs need no
                // more than a little evidence.
                let weak = if strong || own == 0 {
                    gain < MIN_STRONG_GAIN
                } else {
                    gain < MIN_LANGUAGE_GAIN || high_bytes < MIN_LANGUAGE_BYTES || !reads_well
                };
                if weak && weakest.is_none_or(|(_, _, g)| gain < g) {
                    weakest = Some((index, as_other, gain));
                }
            }
        }
        let Some((index, reading, _)) = weakest else {
            return;
        };
        runs[index].reading = reading;
        // Join the runs now in one reading.
        let mut joined: Vec<Run> = Vec::with_capacity(runs.len());
        for run in runs.drain(..) {
            match joined.last_mut() {
                Some(last) if last.reading == run.reading => last.lines.end = run.lines.end,
                _ => joined.push(run),
            }
        }
        *runs = joined;
    }
}

/// How sure the boundary between `before` and `after` is: the least of
/// what moving it one evidence line earlier or later costs, and what
/// reading all of `after` as `before` costs.
fn margin(lines: &EvidenceLines, before: &Run, after: &Run) -> f64 {
    let (a, b) = (before.reading, after.reading);
    let first = after.lines.start;
    let later = lines.cost(first, a) - lines.cost(first, b);
    let earlier = if before.lines.is_empty() {
        f64::INFINITY
    } else {
        let last = before.lines.end - 1;
        lines.cost(last, b) - lines.cost(last, a)
    };
    let merged: f64 = after
        .lines
        .clone()
        .map(|line| lines.cost(line, a) - lines.cost(line, b))
        .sum::<f64>()
        + SWITCH_COST;
    later.min(earlier).min(merged).max(0.0)
}

/// Moves each boundary that falls between two windows to where it is in
/// the gap between them, by bisecting the gap with small probes.
fn locate_in_gaps(
    bytes: &[u8],
    ranges: &[Range<usize>],
    readings: &[Reading],
    lines: &EvidenceLines,
    runs: &mut [Run],
) {
    let window_of = |offset: u64| {
        ranges
            .iter()
            .position(|r| (r.start as u64..r.end as u64).contains(&offset))
    };
    for index in 1..runs.len() {
        let last_before = runs[index].lines.start - 1;
        let first_after = runs[index].lines.start;
        let (Some(from), Some(to)) = (
            window_of(lines.starts[last_before]),
            window_of(lines.starts[first_after]),
        ) else {
            continue;
        };
        if from == to {
            continue;
        }
        let (a, b) = (runs[index - 1].reading, runs[index].reading);
        let pair = [readings[a], readings[b]];
        // The boundary lies after the last line read as `a` and at or
        // before the first read as `b`.
        let mut low = usize::try_from(lines.ends[last_before]).unwrap_or(0);
        let mut high = usize::try_from(lines.starts[first_after]).unwrap_or(0);
        let mut located = false;
        while high - low > 2 * PROBE_BYTES {
            let middle = low + (high - low) / 2;
            let probe = sample::align(bytes, middle..middle + PROBE_BYTES);
            // Nothing told them apart: the probe's lines go with the
            // segment before, as lines without evidence do.
            if probe_reading(bytes, probe.clone(), &pair) == Some(1) {
                high = probe.start;
            } else {
                low = probe.end;
            }
            if low >= high {
                break;
            }
        }
        if low < high {
            let mut gap = EvidenceLines::default();
            gap.score(bytes, low..high, &pair);
            if let Some(first_b) =
                (0..gap.len()).find(|&line| gap.cost(line, 1) + SAME_COST < gap.cost(line, 0))
            {
                runs[index].byte_offset = gap.starts[first_b];
                located = true;
            }
        }
        if !located {
            runs[index].byte_offset = high as u64;
        }
        // Where in the gap it is rests on probes, not on every line.
        runs[index].margin = runs[index].margin.min(SWITCH_COST);
    }
}

/// Which of two readings the lines of `bytes[range]` read better in, if
/// they tell them apart.
fn probe_reading(bytes: &[u8], range: Range<usize>, pair: &[Reading; 2]) -> Option<usize> {
    let mut lines = EvidenceLines::default();
    lines.score(bytes, range, pair);
    let difference: f64 = (0..lines.len())
        .map(|line| lines.cost(line, 0) - lines.cost(line, 1))
        .sum();
    if difference.abs() <= SAME_COST {
        None
    } else {
        Some(usize::from(difference > 0.0))
    }
}

/// The segments the runs make, adjacent runs in one encoding merged.
fn to_segments(runs: &[Run], readings: &[Reading], byte_len: u64) -> Vec<Segment> {
    let mut segments: Vec<Segment> = Vec::with_capacity(runs.len());
    for run in runs {
        let encoding = readings[run.reading].encoding;
        if let Some(last) = segments.last_mut() {
            if last.encoding == encoding {
                continue;
            }
            last.byte_span.end = run.byte_offset;
        }
        segments.push(Segment {
            byte_span: ByteSpan::new(run.byte_offset, byte_len),
            encoding,
            margin: if segments.is_empty() {
                f64::INFINITY
            } else {
                run.margin
            },
        });
    }
    if segments.is_empty() {
        segments.push(Segment {
            byte_span: ByteSpan::new(0, byte_len),
            encoding: UTF_8,
            margin: f64::INFINITY,
        });
    }
    segments
}

impl fmt::Display for SegmentNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Sampled {
                bytes_examined,
                byte_len,
            } => write!(
                f,
                "sampled: {bytes_examined} of {byte_len} bytes examined, the gaps probed where a boundary lies"
            ),
            Self::ByteOrderMark { encoding } => write!(
                f,
                "the {encoding} byte order mark decides the decode of the whole file"
            ),
            Self::KeptWhole { encoding } => write!(
                f,
                "{encoding} is not read line by line: the file is kept whole"
            ),
            Self::NotText {
                control_bytes,
                bytes_examined,
            } => write!(
                f,
                "not text: {control_bytes} of {bytes_examined} bytes examined are control bytes; kept whole"
            ),
            Self::TooFragmented { segments } => write!(
                f,
                "too fragmented to be text in a few encodings ({segments} segments); kept whole"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::{UTF_16LE, WINDOWS_1251, WINDOWS_1252};

    fn found(segmentation: &Segmentation) -> Vec<(u64, u64, &'static str)> {
        segmentation
            .segments
            .iter()
            .map(|s| (s.byte_span.start, s.byte_span.end, s.encoding.name()))
            .collect()
    }

    /// Bytes from a fixed xorshift sequence.
    fn random_bytes(len: usize, mut state: u64, high_only: bool) -> Vec<u8> {
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let byte = (state >> 24) as u8;
                if high_only { byte | 0x80 } else { byte }
            })
            .collect()
    }

    const RUSSIAN: &str = "Съешь же ещё этих мягких французских булок, да выпей чаю.\n";
    const FRENCH: &str = "Le cœur déçu mais l’âme plutôt naïve, Louÿs rêva de crapaüter.\n";

    #[test]
    fn one_encoding_is_one_segment() {
        assert_eq!(found(&segments(b"")), [(0, 0, "UTF-8")]);
        assert_eq!(found(&segments(b"plain\nASCII\n")), [(0, 12, "UTF-8")]);
        let bytes = WINDOWS_1251
            .encode_fatal(&RUSSIAN.repeat(20))
            .expect("encodable");
        let segmentation = segments(&bytes);
        assert_eq!(
            found(&segmentation),
            [(0, bytes.len() as u64, "windows-1251")]
        );
        assert!(!segmentation.is_mixed());
        assert!(segmentation.notes.is_empty());
    }

    #[test]
    fn a_byte_order_mark_keeps_the_input_whole() {
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend(RUSSIAN.repeat(3).as_bytes());
        bytes.extend(
            WINDOWS_1251
                .encode_fatal(&RUSSIAN.repeat(3))
                .expect("encodable"),
        );
        let segmentation = segments(&bytes);
        assert_eq!(found(&segmentation), [(0, bytes.len() as u64, "UTF-8")]);
        assert_eq!(
            segmentation.notes,
            [SegmentNote::ByteOrderMark { encoding: UTF_8 }]
        );
        let utf16: Vec<u8> = "Hello, UTF-16 without a byte order mark.\n"
            .repeat(4)
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let segmentation = segments(&utf16);
        assert_eq!(segmentation.segments.len(), 1);
        assert_eq!(segmentation.segments[0].encoding, UTF_16LE);
    }

    #[test]
    fn two_encodings_split_at_the_line_start() {
        let mut bytes = FRENCH.repeat(5).into_bytes();
        let boundary = bytes.len() as u64;
        bytes.extend(
            WINDOWS_1252
                .encode_fatal(&FRENCH.repeat(5))
                .expect("encodable"),
        );
        let segmentation = segments(&bytes);
        assert_eq!(
            found(&segmentation),
            [
                (0, boundary, "UTF-8"),
                (boundary, bytes.len() as u64, "windows-1252")
            ]
        );
        let boundary = &segmentation.segments[1];
        assert!(boundary.margin > 20.0, "{}", boundary.margin);
        assert!(boundary.confidence() > 0.99);
        assert!((segmentation.segments[0].confidence() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn random_bytes_and_binary_are_not_text() {
        for (name, bytes) in [
            (
                "random bytes",
                random_bytes(1 << 20, 0x9E37_79B9_7F4A_7C15, false),
            ),
            ("an ESC flood", vec![0x1B; 1 << 20]),
            ("zeros", vec![0; 1 << 20]),
            ("a binary with strings", {
                let mut bytes = vec![0u8; 1 << 16];
                bytes.extend(RUSSIAN.as_bytes());
                bytes.extend(vec![0u8; 1 << 16]);
                bytes
            }),
        ] {
            let segmentation = segments(&bytes);
            assert_eq!(segmentation.segments.len(), 1, "{name}");
            assert!(
                segmentation
                    .notes
                    .iter()
                    .any(|n| matches!(n, SegmentNote::NotText { .. })),
                "{name}: {:?}",
                segmentation.notes
            );
            assert!(segmentation.notes[0].to_string().starts_with("not text"));
        }
    }

    #[test]
    fn random_bytes_beyond_ascii_give_a_few_segments_at_most() {
        // No control bytes and no line feed: 64 KiB pieces, no text.
        let bytes = random_bytes(1 << 20, 0x2545_F491_4F6C_DD1D, true);
        let segmentation = segments(&bytes);
        assert!(
            segmentation.segments.len() <= 4,
            "{:?}",
            found(&segmentation)
        );
        assert_eq!(
            segmentation.segments.last().map(|s| s.byte_span.end),
            Some(bytes.len() as u64)
        );
    }

    #[test]
    fn lines_switching_all_the_time_are_too_fragmented() {
        let legacy = WINDOWS_1252.encode_fatal(FRENCH).expect("encodable");
        let mut bytes = Vec::new();
        for _ in 0..300 {
            bytes.extend(FRENCH.as_bytes());
            bytes.extend(&legacy);
        }
        let segmentation = segments(&bytes);
        assert_eq!(segmentation.segments.len(), 1);
        assert!(segmentation.notes.iter().any(
            |n| matches!(n, SegmentNote::TooFragmented { segments } if *segments > MAX_SEGMENTS)
        ));
    }

    #[test]
    fn long_lines_are_cut() {
        let mut bytes = vec![b'a'; MAX_LINE - 10];
        bytes.extend(b" bb");
        bytes.extend(vec![b'c'; MAX_LINE + 5]);
        bytes.extend(b"\nd");
        let cut: Vec<Range<usize>> = lines(&bytes, 0..bytes.len()).collect();
        assert_eq!(cut[0], 0..MAX_LINE - 9);
        assert_eq!(cut[1].start, MAX_LINE - 9);
        assert!(cut.iter().all(|line| line.len() <= MAX_LINE));
        assert_eq!(cut.last().map(|l| l.end), Some(bytes.len()));
        assert!(cut.windows(2).all(|w| w[0].end == w[1].start));
    }

    #[test]
    fn control_bytes_leave_out_text_controls_and_terminal_sequences() {
        assert_eq!(control_bytes(b"a\tb\r\n\x0C\x1B[0m"), 0);
        assert_eq!(control_bytes(b"\x00\x1B\x1B\x7F"), 4);
    }
}
