//! A bounded sample of a stream, for `detect` on standard input: detection
//! looks at a few windows of a long input (see `mojiscope_core::detect`),
//! and a stream is read through once, keeping only what such windows need.
//!
//! A stream of up to [`WHOLE`] bytes is kept whole, and detection sees all
//! of it, as it would see a file. A longer one is read to its end in blocks
//! of [`WINDOW`] bytes, keeping:
//! - the first block (where a byte order mark and a declaration are);
//! - the last [`WINDOW`] bytes, rolling as the stream passes;
//! - [`MIDDLE`] blocks between, chosen as they pass: blocks whose number is
//!   a multiple of a stride are kept, and when more than twice `MIDDLE`
//!   are kept the stride doubles and every other one goes, so that the ones
//!   left are spread evenly over what has passed; at the end the ones
//!   nearest to a third and two thirds of the stream are taken.
//!
//! Each window's edges are moved to just after a line feed near them (else
//! just after a byte below 0x21, which no multi-byte sequence of the
//! standard's encodings holds), as detection does with the windows of a
//! file, and the windows are joined into one buffer of at most
//! [`WHOLE`] bytes, keeping UTF-16 code units whole. Memory stays a few
//! hundred KiB whatever the stream's length.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::ops::Range;

use super::input::fill;

/// Bytes per window (and per block read).
pub const WINDOW: usize = 64 * 1024;

/// Streams up to this long are kept whole: detection's own budget for
/// examining an input whole.
pub const WHOLE: usize = 4 * WINDOW;

/// Windows kept between the first and the last.
pub const MIDDLE: usize = 2;

/// How far a window's edge may move to land after a line feed or a space.
const ALIGN_REACH: usize = 4096;

/// What [`read`] kept of a stream.
#[derive(Debug, PartialEq, Eq)]
pub struct Sample {
    /// The windows, joined.
    pub bytes: Vec<u8>,
    /// How many windows (1 when the stream is kept whole).
    pub windows: usize,
    /// The stream's length.
    pub byte_len: u64,
}

/// A block of the stream: its number and bytes.
type Block = (u64, Vec<u8>);

/// Reads `reader` to its end and keeps a sample of it, as the module says.
///
/// # Errors
/// The reader's.
pub fn read(reader: &mut dyn Read) -> io::Result<Sample> {
    let mut first: Vec<u8> = Vec::new();
    // The last two blocks: the last window is the end of them.
    let mut recent: VecDeque<Block> = VecDeque::with_capacity(3);
    let mut middle = Middle::default();
    let mut byte_len = 0u64;
    let mut number = 0u64;
    loop {
        let mut block = vec![0; WINDOW];
        let n = fill(reader, &mut block)?;
        block.truncate(n);
        if n == 0 {
            break;
        }
        byte_len += n as u64;
        if number == 0 {
            first = block;
        } else {
            recent.push_back((number, block));
            if recent.len() > 2
                && let Some(passed) = recent.pop_front()
            {
                middle.offer(passed);
            }
        }
        number += 1;
        if n < WINDOW {
            break;
        }
    }
    if byte_len <= WHOLE as u64 {
        // At most four full blocks: none was dropped.
        let mut bytes = first;
        for (_, block) in middle.kept.iter().chain(&recent) {
            bytes.extend_from_slice(block);
        }
        return Ok(Sample {
            bytes,
            windows: 1,
            byte_len,
        });
    }

    let mut joined = Joined::default();
    joined.push(&first, 0, byte_len);
    for (number, block) in middle.choose(byte_len) {
        joined.push(block, number * WINDOW as u64, byte_len);
    }
    // The last WINDOW bytes of the stream, from the last two blocks.
    let mut end: Vec<u8> = recent
        .iter()
        .flat_map(|(_, block)| block)
        .copied()
        .collect();
    let cut = end.len().saturating_sub(WINDOW);
    end.drain(..cut);
    joined.push(&end, byte_len - end.len() as u64, byte_len);
    Ok(Sample {
        bytes: joined.bytes,
        windows: joined.windows,
        byte_len,
    })
}

/// The blocks kept between the first and the last two.
#[derive(Default)]
struct Middle {
    kept: Vec<Block>,
    /// Blocks whose number is a multiple of this are kept.
    stride: u64,
}

impl Middle {
    /// Takes a block that has passed, if its number is a multiple of the
    /// stride; thins out the kept ones when there are too many.
    fn offer(&mut self, block: Block) {
        let stride = self.stride.max(1);
        if !block.0.is_multiple_of(stride) {
            return;
        }
        self.kept.push(block);
        if self.kept.len() > 2 * MIDDLE {
            self.stride = stride * 2;
            let stride = self.stride;
            self.kept
                .retain(|(number, _)| number.is_multiple_of(stride));
        }
    }

    /// The [`MIDDLE`] kept blocks nearest to evenly spread points of a
    /// stream of `byte_len` bytes, in order.
    fn choose(&self, byte_len: u64) -> Vec<(u64, &[u8])> {
        let mut chosen: Vec<usize> = Vec::new();
        for k in 1..=MIDDLE as u64 {
            let target = byte_len / (MIDDLE as u64 + 1) * k;
            let nearest = (0..self.kept.len())
                .filter(|index| !chosen.contains(index))
                .min_by_key(|&index| (self.kept[index].0 * WINDOW as u64).abs_diff(target));
            chosen.extend(nearest);
        }
        chosen.sort_unstable();
        chosen
            .into_iter()
            .map(|index| (self.kept[index].0, &self.kept[index].1[..]))
            .collect()
    }
}

/// Windows joined into one buffer.
#[derive(Default)]
struct Joined {
    bytes: Vec<u8>,
    windows: usize,
}

impl Joined {
    /// Appends `window`, which starts at `offset` in a stream of `byte_len`
    /// bytes, its edges aligned.
    fn push(&mut self, window: &[u8], offset: u64, byte_len: u64) {
        let at_end = offset + window.len() as u64 >= byte_len;
        let range = align(window, offset == 0, at_end);
        let start = offset + range.start as u64;
        // Keep UTF-16 code units whole: each window goes at an offset of
        // the same parity as in the stream (a byte of the last one's end,
        // half a code unit, goes if need be).
        if (self.bytes.len() as u64 % 2) != start % 2 {
            self.bytes.pop();
        }
        self.bytes.extend_from_slice(&window[range]);
        self.windows += 1;
    }
}

/// The part of `window` between the boundaries nearest its edges: just
/// after a line feed if there is one within reach, else just after a byte
/// below 0x21. An edge at the start or end of the stream stays.
fn align(window: &[u8], at_start: bool, at_end: bool) -> Range<usize> {
    let start = if at_start {
        0
    } else {
        let reach = &window[..window.len().min(ALIGN_REACH)];
        reach
            .iter()
            .position(|&b| b == b'\n')
            .or_else(|| reach.iter().position(|&b| b < 0x21))
            .map_or(0, |found| found + 1)
    };
    let end = if at_end {
        window.len()
    } else {
        let from = window.len().saturating_sub(ALIGN_REACH);
        let reach = &window[from..];
        reach
            .iter()
            .rposition(|&b| b == b'\n')
            .or_else(|| reach.iter().rposition(|&b| b < 0x21))
            .map_or(window.len(), |found| from + found + 1)
    };
    if start < end {
        start..end
    } else {
        0..window.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out at most `step` bytes per call.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buffer.len()).min(self.bytes.len());
            buffer[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// Numbered lines: "000123 line\n", each 12 bytes.
    fn lines(count: usize) -> Vec<u8> {
        (0..count)
            .flat_map(|n| format!("{n:06} line\n").into_bytes())
            .collect()
    }

    #[test]
    fn short_streams_are_kept_whole() {
        for len in [0, 1, WINDOW - 1, WINDOW, WINDOW + 1, 3 * WINDOW + 7, WHOLE] {
            let bytes: Vec<u8> = (0..len).map(|n| (n % 251) as u8).collect();
            let sample = read(&mut Trickle {
                bytes: &bytes,
                step: 1000,
            })
            .unwrap();
            assert_eq!(sample.windows, 1, "{len}");
            assert_eq!(sample.byte_len, len as u64);
            assert_eq!(sample.bytes, bytes, "{len}");
        }
    }

    #[test]
    fn long_streams_keep_four_aligned_windows_from_start_to_end() {
        for count in [WHOLE / 12 + 1, 100_000, 1_000_000] {
            let bytes = lines(count);
            let sample = read(&mut &bytes[..]).unwrap();
            assert_eq!(sample.windows, 2 + MIDDLE, "{count} lines");
            assert_eq!(sample.byte_len, bytes.len() as u64);
            assert!(sample.bytes.len() <= WHOLE);
            assert!(
                sample.bytes.len() > WHOLE - 4 * 2 * 12,
                "{}",
                sample.bytes.len()
            );
            // Whole lines only, starting with the first and ending with the
            // last.
            let text = std::str::from_utf8(&sample.bytes).unwrap();
            assert!(text.starts_with("000000 line\n"));
            assert!(text.ends_with(&format!("{:06} line\n", count - 1)));
            let numbers: Vec<usize> = text
                .lines()
                .map(|line| {
                    assert_eq!(line.len(), 11, "{line:?}");
                    line[..6].parse().unwrap()
                })
                .collect();
            assert!(numbers.is_sorted());
            // The middle windows are near a third and two thirds of the way.
            if count >= 100_000 {
                let breaks: Vec<usize> = numbers
                    .windows(2)
                    .filter(|pair| pair[1] != pair[0] + 1)
                    .map(|pair| pair[1])
                    .collect();
                assert_eq!(breaks.len(), 3, "{breaks:?}");
                for (found, k) in breaks[..2].iter().zip([1, 2]) {
                    let target = count * k / 3;
                    assert!(found.abs_diff(target) < count / 5, "{found} for {target}");
                }
            }
        }
    }

    #[test]
    fn utf16_code_units_stay_whole_across_windows() {
        use std::fmt::Write as _;

        // UTF-16LE lines: a line feed is 0A 00, so a window that starts just
        // after 0A starts half a code unit in.
        let mut text = String::new();
        for n in 0..60_000 {
            let _ = writeln!(text, "ligne {n} été");
        }
        let bytes: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let sample = read(&mut &bytes[..]).unwrap();
        assert_eq!(sample.windows, 4);
        assert_eq!(sample.bytes.len() % 2, 0);
        let units: Vec<u16> = sample
            .bytes
            .chunks_exact(2)
            .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
            .collect();
        let decoded = String::from_utf16(&units).unwrap();
        assert!(decoded.starts_with("ligne 0 été\n"));
        assert!(decoded.ends_with("ligne 59999 été\n"));
        assert!(decoded.lines().all(|line| line.starts_with("ligne ")));
    }

    #[test]
    fn the_middle_blocks_stay_few_and_spread() {
        let mut middle = Middle::default();
        for number in 1..10_000 {
            middle.offer((number, vec![number as u8]));
            assert!(middle.kept.len() <= 2 * MIDDLE);
        }
        let numbers: Vec<u64> = middle.kept.iter().map(|(n, _)| *n).collect();
        assert!(numbers.len() >= MIDDLE, "{numbers:?}");
        assert!(numbers.windows(2).all(|w| w[1] - w[0] == middle.stride));
    }
}
