//! Which bytes detection looks at: all of a short input, and a few windows
//! spread over a long one, so that detection takes bounded time and memory.

use std::ops::Range;

/// Inputs up to this size are examined whole.
pub(crate) const SAMPLE_BUDGET: usize = 256 * 1024;

/// How many windows a longer input is sampled in: the start, the end, and
/// evenly between.
const WINDOWS: usize = 4;

/// How far a window's edge may move to land on a character boundary.
const ALIGN_REACH: usize = 4096;

/// How many bytes of the windows the decoders and the language models
/// read at most: the evidence. Text this long settles the encoding; more
/// of it only takes longer.
pub(crate) const EVIDENCE_BUDGET: usize = 16 * 1024;

/// Less evidence, ranked first: when it settles the answer, the rest is
/// not weighed.
pub(crate) const SETTLED_BUDGET: usize = 4 * 1024;

/// Less still: what the other candidates are ranked on when the bytes are
/// valid UTF-8 with text beyond ASCII, which settles the answer, and what
/// is ranked first when a multi-byte decode reads all of the evidence
/// without error (Shift_JIS, EUC-KR, ... settle on a few lines).
pub(crate) const FIRST_BUDGET: usize = 1024;

/// The least evidence, a glance (a line or two, as a line is taken whole):
/// ranked before [`FIRST_BUDGET`] when, besides, most bytes beyond ASCII
/// of the evidence stand beside another, as in text in a double-byte
/// encoding, whose every character is two bytes of evidence.
pub(crate) const GLANCE_BUDGET: usize = 128;

/// The longest segment of the evidence: a line, or as much of a long line
/// as ends at a byte below 0x21 within this many bytes.
const MAX_SEGMENT: usize = 1024;

/// Whether a byte is evidence of an encoding: a byte beyond ASCII, or a
/// control character text does not hold (an escape starts ISO-2022-JP's
/// sequences; NUL fills UTF-16).
fn is_evidence(b: u8) -> bool {
    b >= 0x7F || (b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0C | b'\r'))
}

/// Eight bytes at a time: a word of eight copies of a byte.
const fn repeated(b: u8) -> u64 {
    u64::from_ne_bytes([b; 8])
}

/// The bytes of `word` that are zero have their high bit set (and no byte
/// before the first zero byte in memory order has it set).
const fn zero_bytes(word: u64) -> u64 {
    word.wrapping_sub(repeated(0x01)) & !word & repeated(0x80)
}

/// The position of the first line feed in `bytes` (the evidence's lines
/// are found in windows that are mostly ASCII, many bytes at a time). The
/// search is memchr's portable one, a word at a time: its SIMD search asks
/// the processor's features the first time it runs, which costs a
/// detection in a virtual machine more than the search saves it (see
/// `crate::utf8`), and lines are short.
fn find_line_feed(bytes: &[u8]) -> Option<usize> {
    memchr::arch::all::memchr::One::new(b'\n').find(bytes)
}

/// Whether `bytes` hold a byte that is evidence ([`is_evidence`]), read
/// eight bytes at a time where none is beyond ASCII, DEL or below 0x20.
fn holds_evidence(bytes: &[u8]) -> bool {
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let Ok(eight) = <[u8; 8]>::try_from(chunk) else {
            return chunk.iter().any(|&b| is_evidence(b));
        };
        let word = u64::from_le_bytes(eight);
        if word & repeated(0x80) != 0 || zero_bytes(word ^ repeated(0x7F)) != 0 {
            return true;
        }
        // With no byte beyond ASCII, a byte below 0x20 borrows in the
        // subtraction: then the bytes are asked one by one (TAB, LF, FF and
        // CR are no evidence).
        let low = word.wrapping_sub(repeated(0x20)) & !word & repeated(0x80);
        if low != 0 && chunk.iter().any(|&b| is_evidence(b)) {
            return true;
        }
    }
    chunks.remainder().iter().any(|&b| is_evidence(b))
}

/// Whether most bytes beyond ASCII of `runs` stand beside another, as the
/// two bytes of a double-byte character do: there are at least half as
/// many pairs of them side by side as there are of them.
pub(crate) fn high_bytes_paired(bytes: &[u8], runs: &[Range<usize>]) -> bool {
    let (mut high, mut pairs) = (0u32, 0u32);
    for run in runs {
        // Eight bytes at a time: the high bit of each byte beyond ASCII,
        // and of each such byte whose next byte is one too.
        let run = &bytes[run.clone()];
        let mut words = run.chunks_exact(8);
        let mut last_high = false;
        for word in &mut words {
            let bits = u64::from_le_bytes(word.try_into().expect("eight bytes")) & repeated(0x80);
            high += bits.count_ones();
            pairs += (bits & (bits >> 8)).count_ones();
            pairs += u32::from(last_high && bits & 0x80 != 0);
            last_high = bits >> 63 != 0;
        }
        for &b in words.remainder() {
            let is_high = b >= 0x80;
            high += u32::from(is_high);
            pairs += u32::from(last_high && is_high);
            last_high = is_high;
        }
    }
    high > 0 && pairs * 2 >= high
}

/// The runs of bytes detection weighs, in order and not overlapping, at
/// most `budget` bytes (and a quarter more for rare bytes) spread evenly over
/// the windows: a window
/// within its share is taken whole; from a longer one, its segments (lines,
/// see [`MAX_SEGMENT`]) that hold evidence ([`is_evidence`]), in order,
/// then, while the share allows, the others from its start. A window with
/// escapes (ISO-2022-JP, whose state runs from line to line) gives its
/// first bytes instead. Runs start and end on character boundaries: after
/// a line feed or a byte below 0x21.
pub(crate) fn evidence(
    bytes: &[u8],
    windows: &[Range<usize>],
    histograms: &Histograms,
    budget: usize,
) -> Vec<Range<usize>> {
    draw(bytes, windows, histograms, budget, true)
}

/// A glance: [`evidence`] of [`GLANCE_BUDGET`] bytes without the lines of
/// rare bytes. It stands only when its best decode reads all of the
/// evidence without error, rare bytes included, and is far ahead on the
/// glance alone: those lines would only make it longer.
pub(crate) fn glance(
    bytes: &[u8],
    windows: &[Range<usize>],
    histograms: &Histograms,
) -> Vec<Range<usize>> {
    draw(bytes, windows, histograms, GLANCE_BUDGET, false)
}

/// [`evidence`], with the lines of rare bytes if `rare_lines`.
fn draw(
    bytes: &[u8],
    windows: &[Range<usize>],
    histograms: &Histograms,
    budget: usize,
    rare_lines: bool,
) -> Vec<Range<usize>> {
    let share = budget / windows.len().max(1);
    let mut runs: Vec<Range<usize>> = Vec::new();
    let push = |runs: &mut Vec<Range<usize>>, range: Range<usize>| match runs.last_mut() {
        Some(last) if last.end == range.start => last.end = range.end,
        _ if range.is_empty() => {}
        _ => runs.push(range),
    };
    for ((window, counts), blocks) in windows
        .iter()
        .zip(&histograms.counts)
        .zip(&histograms.blocks)
    {
        let text = &bytes[window.clone()];
        if text.len() <= share {
            push(&mut runs, window.clone());
            continue;
        }
        if counts[0x1B] > 0 {
            let end = boundary_before(text, share).unwrap_or(share);
            push(&mut runs, window.start..window.start + end);
            continue;
        }
        let mut segments: Vec<(Range<usize>, bool)> = Vec::new();
        let mut evidence = 0;
        let mut position = 0;
        while position < text.len() && evidence < share {
            let end = segment_end(text, position);
            let holds = holds_evidence(&text[position..end]);
            if holds {
                evidence += end - position;
            }
            segments.push((position..end, holds));
            position = end;
        }
        // The others fill what the evidence leaves of the share.
        let mut room = share.saturating_sub(evidence);
        let mut seen = [false; 256];
        for (range, holds) in segments {
            if !holds {
                if range.len() > room {
                    continue;
                }
                room -= range.len();
            }
            for &b in &text[range.clone()] {
                seen[usize::from(b)] = true;
            }
            push(
                &mut runs,
                window.start + range.start..window.start + range.end,
            );
        }
        // A byte the rest of the window holds and the evidence does not may
        // be the one that tells two encodings apart (the one place a text
        // uses a letter or a quotation mark): its line is evidence too.
        if !rare_lines {
            continue;
        }
        // The bytes beyond ASCII the window holds and the evidence does
        // not: each occurs only after the cursor (every byte beyond ASCII
        // before it is in the evidence or was looked for), so once none is
        // left the rest of the window need not be read.
        let mut wanted = Wanted::new(counts, &seen);
        let mut extra = 0;
        let mut boundary = position;
        let mut cursor = position;
        while cursor < text.len() && extra < share / RARE_SHARE && wanted.bits != 0 {
            let Some(at) = next_wanted(text, blocks, cursor, &wanted) else {
                break;
            };
            wanted.found(text[at]);
            let Some(start) = segment_start(text, boundary, at) else {
                cursor = at + 1;
                continue;
            };
            let end = segment_end(text, at);
            for &b in &text[start..end] {
                wanted.found(b);
            }
            extra += end - start;
            push(&mut runs, window.start + start..window.start + end);
            boundary = end;
            cursor = end;
        }
    }
    runs
}

/// The lines of bytes the evidence lacks take at most this part of a
/// window's share more.
const RARE_SHARE: usize = 4;

/// The start of the segment that holds `at`: just after the last line feed
/// before it, or else the last byte below 0x21, within half of
/// [`MAX_SEGMENT`] and not before `boundary`, a character boundary known
/// already; `None` if there is no boundary in reach (the segment's start
/// would not be a character's).
fn segment_start(text: &[u8], boundary: usize, at: usize) -> Option<usize> {
    let low = boundary.max(at.saturating_sub(MAX_SEGMENT / 2));
    let reach = &text[low..at];
    reach
        .iter()
        .rposition(|&b| b == b'\n')
        .or_else(|| reach.iter().rposition(|&b| b < 0x21))
        .map(|found| low + found + 1)
        .or((low == boundary).then_some(boundary))
}

/// How often each byte value occurs in each window, and which bytes beyond
/// ASCII each block of a window holds.
pub(crate) struct Histograms {
    /// How often each byte value occurs, by window.
    pub(crate) counts: Vec<[u32; 256]>,
    /// By window, for each [`BLOCK`] bytes of it in turn, a bit for each
    /// byte beyond ASCII it holds (bit `b - 0x80`): the search for the
    /// bytes the evidence lacks skips the blocks that hold none of them.
    blocks: Vec<Vec<u128>>,
}

/// The bytes of a window whose bytes beyond ASCII [`Histograms`] notes
/// together.
const BLOCK: usize = 8192;

/// [`Histograms`] of each window.
pub(crate) fn histograms(bytes: &[u8], windows: &[Range<usize>]) -> Histograms {
    let mut counts = Vec::with_capacity(windows.len());
    let mut blocks = Vec::with_capacity(windows.len());
    for window in windows {
        let mut window_counts = [0u32; 256];
        let mut window_blocks = Vec::with_capacity(window.len().div_ceil(BLOCK));
        for block in bytes[window.clone()].chunks(BLOCK) {
            // Four tables, a byte in each in turn: a byte value that comes
            // again soon (a lead byte of every other character) waits less
            // on the count it added to last (20% sooner on Japanese,
            // Chinese and Western text alike).
            let mut quarters = [[0u16; 256]; 4];
            let (fours, rest) = block.as_chunks::<4>();
            for four in fours {
                for (quarter, &b) in quarters.iter_mut().zip(four) {
                    quarter[usize::from(b)] += 1;
                }
            }
            for &b in rest {
                quarters[0][usize::from(b)] += 1;
            }
            let block_counts: [u16; 256] =
                std::array::from_fn(|b| quarters.iter().map(|quarter| quarter[b]).sum());
            for (count, &n) in window_counts.iter_mut().zip(&block_counts) {
                *count += u32::from(n);
            }
            let present = block_counts[0x80..]
                .iter()
                .enumerate()
                .fold(0u128, |present, (bit, &n)| {
                    present | u128::from(n != 0) << bit
                });
            window_blocks.push(present);
        }
        counts.push(window_counts);
        blocks.push(window_blocks);
    }
    Histograms { counts, blocks }
}

/// The bytes beyond ASCII a window holds and its evidence does not.
struct Wanted {
    /// A bit for each, as in [`Histograms`]: to skip blocks.
    bits: u128,
    /// Whether each byte is one: to find them, a load a byte.
    set: [bool; 256],
}

impl Wanted {
    /// The bytes beyond ASCII that `counts` has and `seen` does not.
    fn new(counts: &[u32; 256], seen: &[bool; 256]) -> Self {
        let mut wanted = Self {
            bits: 0,
            set: [false; 256],
        };
        for b in 0x80..256 {
            if counts[b] > 0 && !seen[b] {
                wanted.bits |= 1 << (b - 0x80);
                wanted.set[b] = true;
            }
        }
        wanted
    }

    /// Byte `b` is in the evidence now.
    fn found(&mut self, b: u8) {
        if b >= 0x80 {
            self.bits &= !(1 << (b - 0x80));
            self.set[usize::from(b)] = false;
        }
    }
}

/// The first position from `from` on of a byte that `wanted` holds in
/// `text`, whose blocks hold the bytes `blocks` says.
fn next_wanted(text: &[u8], blocks: &[u128], from: usize, wanted: &Wanted) -> Option<usize> {
    // The last bytes wanted are the rarest, looked for furthest: up to
    // three are found a word at a time (memchr's portable search).
    let count = wanted.bits.count_ones();
    let mut few = [0u8; 3];
    if count <= 3 {
        let mut bits = wanted.bits;
        for slot in &mut few {
            // Bit `b - 0x80` for byte `b`.
            *slot = 0x80 | bits.trailing_zeros().min(0x7F) as u8;
            bits &= bits.wrapping_sub(1);
        }
    }
    let find = |text: &[u8]| match count {
        1 => memchr::arch::all::memchr::One::new(few[0]).find(text),
        2 => memchr::arch::all::memchr::Two::new(few[0], few[1]).find(text),
        3 => memchr::arch::all::memchr::Three::new(few[0], few[1], few[2]).find(text),
        _ => text.iter().position(|&b| wanted.set[usize::from(b)]),
    };
    let mut at = from;
    while at < text.len() {
        let block = at / BLOCK;
        let end = ((block + 1) * BLOCK).min(text.len());
        if blocks[block] & wanted.bits != 0
            && let Some(offset) = find(&text[at..end])
        {
            return Some(at + offset);
        }
        at = end;
    }
    None
}

/// The end of the segment that starts at `start`: just after the next
/// line feed, or after the last byte below 0x21 within [`MAX_SEGMENT`]
/// bytes, or [`MAX_SEGMENT`] bytes on.
fn segment_end(text: &[u8], start: usize) -> usize {
    let reach = &text[start..text.len().min(start + MAX_SEGMENT)];
    if let Some(found) = find_line_feed(reach) {
        return start + found + 1;
    }
    if start + reach.len() == text.len() {
        return text.len();
    }
    reach
        .iter()
        .rposition(|&b| b < 0x21)
        .map_or(start + reach.len(), |found| start + found + 1)
}

/// The first bytes of each window, at most [`EVIDENCE_BUDGET`] in all:
/// what is read of text that may be UTF-16, whose line feeds are no
/// boundaries of the bytes.
pub(crate) fn heads(windows: &[Range<usize>]) -> Vec<Range<usize>> {
    let share = EVIDENCE_BUDGET / windows.len().max(1);
    windows
        .iter()
        .map(|w| w.start..w.end.min(w.start + share))
        .collect()
}

/// The byte ranges to examine, in order and not overlapping.
pub(crate) fn windows(byte_len: usize) -> Vec<Range<usize>> {
    if byte_len <= SAMPLE_BUDGET {
        let whole = 0..byte_len;
        return vec![whole];
    }
    let window = SAMPLE_BUDGET / WINDOWS;
    let step = (byte_len - window) / (WINDOWS - 1);
    (0..WINDOWS)
        .map(|k| {
            // The last window ends where the input does.
            let start = if k + 1 == WINDOWS {
                byte_len - window
            } else {
                k * step
            };
            start..start + window
        })
        .collect()
}

/// The byte ranges of an input of `byte_len` bytes that [`crate::detect()`]
/// may read, in order and not overlapping: the first bytes, where a byte
/// order mark and a declaration are looked for, and the windows it
/// samples (their edges only move inwards). A caller holding a file too
/// large to read whole can read just these into a buffer of the file's
/// length (zeros elsewhere) and get the same detection as from the whole.
///
/// ```
/// use mojiscope_core::examined_ranges;
///
/// assert_eq!(examined_ranges(100), [0..100]);
/// let ranges = examined_ranges(1 << 30);
/// let read: usize = ranges.iter().map(|r| r.len()).sum();
/// assert!(read <= 300 * 1024);
/// ```
pub fn examined_ranges(byte_len: usize) -> Vec<Range<usize>> {
    // A byte order mark (three bytes at most), then the prescan's bytes.
    let head = 0..byte_len.min(super::PRESCAN_BYTES + 3);
    let mut ranges: Vec<Range<usize>> = Vec::new();
    for range in std::iter::once(head).chain(windows(byte_len)) {
        match ranges.last_mut() {
            Some(last) if range.start <= last.end => last.end = last.end.max(range.end),
            _ if range.is_empty() => {}
            _ => ranges.push(range),
        }
    }
    ranges
}

/// Moves a window's edges to character boundaries as far as the bytes tell:
/// just after a line feed if there is one near, else just after a byte below
/// 0x21, which is a whole character in every ASCII-compatible encoding of the
/// standard (no trailing byte is that low) and in ISO-2022-JP. An edge at the
/// start or end of the input stays.
pub(crate) fn align(bytes: &[u8], window: Range<usize>) -> Range<usize> {
    let start = if window.start == 0 {
        0
    } else {
        boundary_after(bytes, window.start).unwrap_or(window.start)
    };
    let end = if window.end >= bytes.len() {
        bytes.len()
    } else {
        boundary_before(bytes, window.end).unwrap_or(window.end)
    };
    if start < end { start..end } else { window }
}

/// The offset just after the first boundary byte at or after `from`.
fn boundary_after(bytes: &[u8], from: usize) -> Option<usize> {
    let reach = &bytes[from..bytes.len().min(from + ALIGN_REACH)];
    let found = reach
        .iter()
        .position(|&b| b == b'\n')
        .or_else(|| reach.iter().position(|&b| b < 0x21))?;
    Some(from + found + 1)
}

/// The offset just after the last boundary byte before `to`.
fn boundary_before(bytes: &[u8], to: usize) -> Option<usize> {
    let from = to.saturating_sub(ALIGN_REACH);
    let reach = &bytes[from..to];
    let found = reach
        .iter()
        .rposition(|&b| b == b'\n')
        .or_else(|| reach.iter().rposition(|&b| b < 0x21))?;
    Some(from + found + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_inputs_are_examined_whole() {
        assert_eq!(windows(0).len(), 1);
        assert!(windows(0)[0].is_empty());
        assert_eq!(windows(SAMPLE_BUDGET)[0].end, SAMPLE_BUDGET);
        assert_eq!(windows(SAMPLE_BUDGET).len(), 1);
    }

    #[test]
    fn long_inputs_are_sampled_from_start_to_end() {
        let len = 100 * 1024 * 1024;
        let windows = windows(len);
        assert_eq!(windows.len(), WINDOWS);
        assert_eq!(windows[0].start, 0);
        assert_eq!(windows[WINDOWS - 1].end, len);
        let total: usize = windows.iter().map(ExactSizeIterator::len).sum();
        assert_eq!(total, SAMPLE_BUDGET);
        assert!(windows.windows(2).all(|w| w[0].end <= w[1].start));
    }

    /// Line feeds and evidence are found eight bytes at a time as one byte
    /// at a time finds them, wherever they lie.
    #[test]
    fn bytes_read_eight_at_a_time_as_one_by_one() {
        let mut bytes: Vec<u8> = b"plain ascii words\ton a line\r of text".repeat(3);
        for b in 0..=255u8 {
            for at in [0, 5, 7, 8, 9, 30, bytes.len() - 1] {
                let mut probe = bytes.clone();
                probe[at] = b;
                for start in 0..9 {
                    let slice = &probe[start..];
                    assert_eq!(
                        find_line_feed(slice),
                        slice.iter().position(|&c| c == b'\n'),
                        "{b:#04X} at {at}"
                    );
                    assert_eq!(
                        holds_evidence(slice),
                        slice.iter().any(|&c| is_evidence(c)),
                        "{b:#04X} at {at}"
                    );
                }
            }
        }
        bytes.clear();
        assert_eq!(find_line_feed(&bytes), None);
        assert!(!holds_evidence(&bytes));
    }

    #[test]
    fn evidence_takes_the_lines_beyond_ascii_and_every_byte() {
        // 100 KiB of ASCII lines, a line beyond ASCII every 50 lines, and
        // one byte that occurs once, at the end.
        let mut bytes = Vec::new();
        for n in 0..2000 {
            if n % 50 == 25 {
                bytes.extend_from_slice(b"caf\xE9 cr\xE8me br\xFBl\xE9e\n");
            } else {
                bytes.extend_from_slice(b"plain ascii words on a line of text here\n");
            }
        }
        bytes.extend_from_slice(b"the end \xA4 sign\n");
        let windows = windows(bytes.len());
        let counts = histograms(&bytes, &windows);
        let runs = evidence(&bytes, &windows, &counts, EVIDENCE_BUDGET);
        let taken: Vec<u8> = runs
            .iter()
            .flat_map(|r| bytes[r.clone()].to_vec())
            .collect();
        let total: usize = runs.iter().map(ExactSizeIterator::len).sum();
        assert!(total <= EVIDENCE_BUDGET + EVIDENCE_BUDGET / RARE_SHARE);
        // Every line beyond ASCII, and the rare byte.
        assert_eq!(taken.windows(4).filter(|w| w == b"br\xFBl").count(), 40);
        assert!(taken.contains(&0xA4));
        // Runs are in order, apart, and end after line feeds.
        assert!(runs.windows(2).all(|w| w[0].end < w[1].start));
        assert!(runs.iter().all(|r| bytes[r.end - 1] == b'\n'));
        // The escapes of ISO-2022-JP keep the window's first bytes whole.
        let mut escaped = bytes.clone();
        escaped.extend_from_slice(b"\x1b$B$3$s\x1b(B\n");
        let windows = super::windows(escaped.len());
        let counts = histograms(&escaped, &windows);
        let runs = evidence(&escaped, &windows, &counts, EVIDENCE_BUDGET);
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].start, 0);
    }

    #[test]
    fn the_bytes_wanted_are_found_where_they_first_are() {
        // 40 KiB of pseudo-random text, bytes beyond ASCII growing rarer.
        let mut state = 0x2545_F491_u32;
        let text: Vec<u8> = (0..40 * 1024)
            .map(|_| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let r = (state >> 16) as u8;
                if r < 0x80 { r } else { 0x80 | (r & (r >> 3)) }
            })
            .collect();
        let whole = 0..text.len();
        let found = histograms(&text, &[whole]);
        let counts = &found.counts[0];
        for wanted_count in 1..=6 {
            for first in (0x80..0x100).step_by(7) {
                let mut seen = [true; 256];
                let mut bytes = Vec::new();
                for b in (first..0x100).chain(0x80..first).filter(|&b| counts[b] > 0) {
                    if bytes.len() < wanted_count {
                        seen[b] = false;
                        bytes.push(b as u8);
                    }
                }
                let wanted = Wanted::new(counts, &seen);
                for from in [0, 1, 8191, 8192, 20_000, 40 * 1024 - 1] {
                    let plain = text[from..]
                        .iter()
                        .position(|b| bytes.contains(b))
                        .map(|at| from + at);
                    assert_eq!(next_wanted(&text, &found.blocks[0], from, &wanted), plain);
                }
            }
        }
    }

    #[test]
    fn high_bytes_are_paired_as_byte_by_byte_counting_says() {
        // Every pattern of bytes beyond ASCII and not over 13 bytes (eight
        // at a time and the rest), in one run and cut in two.
        let naive = |bytes: &[u8], runs: &[Range<usize>]| {
            let (mut high, mut pairs) = (0, 0);
            for run in runs {
                let run = &bytes[run.clone()];
                high += run.iter().filter(|&&b| b >= 0x80).count();
                pairs += run
                    .windows(2)
                    .filter(|w| w[0] >= 0x80 && w[1] >= 0x80)
                    .count();
            }
            high > 0 && pairs * 2 >= high
        };
        for pattern in 0u32..1 << 13 {
            let bytes: Vec<u8> = (0..13)
                .map(|i| if pattern >> i & 1 == 1 { 0xA4 } else { b'a' })
                .collect();
            // Two runs, start..cut and cut..end (the first may be empty).
            for (start, cut, end) in [(0, 0, 13), (0, 5, 13), (0, 9, 13), (2, 2, 11)] {
                let runs = [start..cut, cut..end];
                assert_eq!(
                    high_bytes_paired(&bytes, &runs),
                    naive(&bytes, &runs),
                    "{bytes:?} in {runs:?}"
                );
            }
        }
    }

    #[test]
    fn examined_ranges_cover_the_start_and_the_windows() {
        assert_eq!(examined_ranges(0), Vec::<Range<usize>>::new());
        let len = 50 * 1024 * 1024;
        let ranges = examined_ranges(len);
        assert_eq!(ranges[0].start, 0);
        assert_eq!(ranges.last().map(|r| r.end), Some(len));
        for window in windows(len) {
            assert!(
                ranges
                    .iter()
                    .any(|r| r.start <= window.start && window.end <= r.end)
            );
        }
    }

    #[test]
    fn windows_start_and_end_after_line_feeds() {
        let bytes = b"\x82\xA0\x82\xA2\nabc\x82\xA4\n\x82\xA6\x82";
        assert_eq!(align(bytes, 1..13), 5..11);
        assert_eq!(align(bytes, 1..14), 5..14);
        // Nothing to align on: the window stays.
        assert_eq!(align(b"\x82\xA0\x82\xA2", 1..3), 1..3);
        assert_eq!(align(b"ab\x82 \x82", 1..5), 4..5);
    }
}
