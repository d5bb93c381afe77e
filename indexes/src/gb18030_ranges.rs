//! [Index gb18030 ranges](https://encoding.spec.whatwg.org/#index-gb18030-ranges):
//! the four-byte part of gb18030 as 207 ranges, with the standard's
//! adjustments in [`code_point`] and [`pointer()`].

use crate::generated::gb18030_ranges::GB18030_RANGES;

/// The pointer the standard special-cases to and from U+E7C7.
const E7C7_POINTER: u32 = 7457;

/// Returned by [`pointer()`] for code points below U+0080, which no range covers.
pub const NO_RANGE: u32 = u32::MAX;

/// The [index gb18030 ranges code point](https://encoding.spec.whatwg.org/#index-gb18030-ranges-code-point)
/// for `pointer`, or `None`.
///
/// # Examples
///
/// ```
/// use mojiscope_indexes::gb18030_ranges;
///
/// assert_eq!(gb18030_ranges::code_point(189000), Some('\u{10000}'));
/// assert_eq!(gb18030_ranges::code_point(39420), None);
/// ```
#[inline]
pub fn code_point(pointer: u32) -> Option<char> {
    // Step 1: the gap between the BMP and the supplementary planes, and past U+10FFFF.
    if (pointer > 39419 && pointer < 189000) || pointer > 1237575 {
        return None;
    }
    // Step 2: the GB18030-2005 change.
    if pointer == E7C7_POINTER {
        return Some('\u{E7C7}');
    }
    // Step 3.
    let (offset, code_point_offset) = range_at(pointer)?;
    // Step 4.
    char::from_u32(code_point_offset + (pointer - offset))
}

/// Step 3 of the [index gb18030 ranges code point](https://encoding.spec.whatwg.org/#index-gb18030-ranges-code-point):
/// the range `pointer` falls in, as (`offset`, `codePointOffset`): the last
/// pointer of the index that is less than or equal to `pointer`, and its code
/// point. Every pointer has one (the first range starts at 0); the steps
/// before it rule out the pointers that have no code point.
///
/// # Examples
///
/// ```
/// use mojiscope_indexes::gb18030_ranges;
///
/// // 0x81 0x30 0x81 0x30 is pointer 10, in the range of pointer 0 and U+0080.
/// assert_eq!(gb18030_ranges::range_at(10), Some((0, 0x80)));
/// ```
#[inline]
pub fn range_at(pointer: u32) -> Option<(u32, u32)> {
    let range = GB18030_RANGES
        .partition_point(|&(offset, _)| offset <= pointer)
        .checked_sub(1)?;
    GB18030_RANGES.get(range).copied()
}

/// The [index gb18030 ranges pointer](https://encoding.spec.whatwg.org/#index-gb18030-ranges-pointer)
/// for `c`.
///
/// The standard only asks for code points of U+0080 and above (the gb18030
/// encoder handles ASCII first); for those below, no range applies and this
/// returns [`NO_RANGE`].
///
/// # Examples
///
/// ```
/// use mojiscope_indexes::gb18030_ranges;
///
/// assert_eq!(gb18030_ranges::pointer('\u{E7C7}'), 7457);
/// assert_eq!(gb18030_ranges::pointer('\u{10FFFF}'), 1237575);
/// ```
#[inline]
pub fn pointer(c: char) -> u32 {
    let code_point = u32::from(c);
    // Step 1: the GB18030-2005 change.
    if code_point == 0xE7C7 {
        return E7C7_POINTER;
    }
    // Step 2: the last range starting at or before the code point.
    let Some(range) = GB18030_RANGES
        .partition_point(|&(_, offset)| offset <= code_point)
        .checked_sub(1)
    else {
        return NO_RANGE;
    };
    let Some(&(pointer_offset, offset)) = GB18030_RANGES.get(range) else {
        return NO_RANGE;
    };
    // Step 3.
    pointer_offset + (code_point - offset)
}

/// Index gb18030 ranges as a table: (pointer, code point) where each range
/// starts, increasing in both.
pub fn table() -> &'static [(u32, u32)] {
    &GB18030_RANGES
}

#[cfg(test)]
mod tests {
    use super::{NO_RANGE, code_point, pointer, range_at, table};
    use crate::testing;

    #[test]
    fn known_values() {
        assert_eq!(table().len(), 207);
        assert_eq!(table()[0], (0, 0x80));
        // The U+E7C7 rule both ways; without it 7457 would be U+1E3F.
        assert_eq!(code_point(7457), Some('\u{E7C7}'));
        assert_eq!(pointer('\u{E7C7}'), 7457);
        assert_eq!(pointer('\u{1E3F}'), 7457);
        // 7457 falls in the range of pointer 820 and U+0452:
        // 0x452 + 7457 − 820 = 0x1E3F.
        assert_eq!(range_at(7457), Some((820, 0x452)));
        assert_eq!(range_at(0), Some((0, 0x80)));
        assert_eq!(range_at(39419), Some((39394, 0xFFE6)));
        assert_eq!(range_at(u32::MAX), Some((189_000, 0x1_0000)));
        // Round trips (for code points the two-byte index does not have).
        for (p, c) in [
            (0, '\u{80}'),
            (36, '\u{A5}'),
            (8062, '\u{20AD}'),
            (33468, '\u{D7FF}'),
            (35517, '\u{F014}'),
            (39419, '\u{FFFF}'),
            (189000, '\u{10000}'),
            (189000 + 0x1F600 - 0x10000, '😀'),
            (1237575, '\u{10FFFF}'),
        ] {
            assert_eq!(code_point(p), Some(c), "{p}");
            assert_eq!(pointer(c), p, "{c:?}");
        }
        // The null rules.
        for p in [39420, 100_000, 188_999, 1_237_576, u32::MAX] {
            assert_eq!(code_point(p), None, "{p}");
        }
        assert_eq!(pointer('\u{7F}'), NO_RANGE);
        assert_eq!(pointer('\0'), NO_RANGE);
    }

    #[test]
    fn every_pointer_decodes_and_round_trips() {
        for p in (0..=39419).chain(189_000..=1_237_575) {
            let c = code_point(p).unwrap_or_else(|| panic!("pointer {p} has no code point"));
            assert_eq!(pointer(c), p, "{c:?}");
        }
        for p in 39420..189_000 {
            assert_eq!(code_point(p), None, "{p}");
        }
    }

    #[test]
    fn table_matches_the_file() {
        let Some(dir) = testing::whatwg_dir() else {
            return;
        };
        let entries = testing::read_index(&dir, "gb18030-ranges");
        let from_file: Vec<(u32, u32)> = entries
            .iter()
            .map(|&(p, c)| (u32::try_from(p).unwrap(), c))
            .collect();
        assert_eq!(table(), from_file.as_slice());
    }
}
