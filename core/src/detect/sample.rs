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
            let start = k * step;
            start..start + window
        })
        .collect()
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
