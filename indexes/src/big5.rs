//! [Index Big5](https://encoding.spec.whatwg.org/#index-big5): Big5 with the
//! Hong Kong Supplementary Character Set and other common extensions.
//!
//! Some code points are above U+FFFF (all in plane 2), so the table is `u32`.

use crate::generated::big5::BIG5;
use crate::reverse::{self, FlatReverse, NO_POINTER};

/// The first pointer "index Big5 pointer" considers, (0xA1 − 0x81) × 157:
/// lower pointers are HKSCS extensions that are decoded but never encoded.
pub const FIRST_ENCODED_POINTER: u16 = (0xA1 - 0x81) * 157;

/// The code points for which "index Big5 pointer" returns the *last* pointer.
pub const LAST_POINTER_CODE_POINTS: [char; 6] = [
    '\u{2550}', '\u{255E}', '\u{2561}', '\u{256A}', '\u{5341}', '\u{5345}',
];

const LAST_POINTER_CODE_POINTS_U32: [u32; 6] = {
    let mut code_points = [0; 6];
    let mut i = 0;
    while i < 6 {
        code_points[i] = LAST_POINTER_CODE_POINTS[i] as u32;
        i += 1;
    }
    code_points
};

static BMP_POINTERS: FlatReverse = reverse::big5_pointers(
    &BIG5,
    0,
    FIRST_ENCODED_POINTER as usize,
    &LAST_POINTER_CODE_POINTS_U32,
);
static PLANE_2_POINTERS: FlatReverse = reverse::big5_pointers(
    &BIG5,
    2,
    FIRST_ENCODED_POINTER as usize,
    &LAST_POINTER_CODE_POINTS_U32,
);

/// The [index code point](https://encoding.spec.whatwg.org/#index-code-point)
/// for `pointer` in index Big5, or `None` (also for out-of-range pointers).
#[inline]
pub fn code_point(pointer: usize) -> Option<char> {
    reverse::code_point_u32(&BIG5, pointer)
}

/// The [index Big5 pointer](https://encoding.spec.whatwg.org/#index-big5-pointer)
/// for `c`, or `None`: pointers below [`FIRST_ENCODED_POINTER`] are left out;
/// for the code points in [`LAST_POINTER_CODE_POINTS`] the last pointer,
/// otherwise the first.
///
/// # Examples
///
/// ```
/// use mojiscope_indexes::big5;
///
/// // ═ is at pointers 5247 and 18991: the last one is used.
/// assert_eq!(big5::big5_pointer('═'), Some(18991));
/// ```
#[inline]
pub fn big5_pointer(c: char) -> Option<u16> {
    let code_point = u32::from(c);
    let reverse = match code_point >> 16 {
        0 => &BMP_POINTERS,
        2 => &PLANE_2_POINTERS,
        _ => return None,
    };
    let pointer = reverse[(code_point & 0xFFFF) as usize];
    (pointer != NO_POINTER).then_some(pointer)
}

/// Index Big5 as a table: the code point for each pointer, 0 where the index
/// has none.
pub const fn table() -> &'static [u32] {
    &BIG5
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::{FIRST_ENCODED_POINTER, LAST_POINTER_CODE_POINTS, big5_pointer, code_point, table};
    use crate::testing;

    #[test]
    fn known_values() {
        assert_eq!(FIRST_ENCODED_POINTER, 5024);
        assert_eq!(code_point(0), None); // the index starts at pointer 942
        assert_eq!(code_point(942), Some('\u{43F0}'));
        assert_eq!(code_point(947), Some('\u{27267}'));
        assert_eq!(code_point(table().len()), None);
        assert_eq!(code_point(usize::MAX), None);
        // The standard's six "last pointer" code points.
        assert_eq!(big5_pointer('\u{2550}'), Some(18991)); // also at 5247
        assert_eq!(big5_pointer('\u{255E}'), Some(18975)); // also at 5248
        assert_eq!(big5_pointer('\u{2561}'), Some(18977)); // also at 5250
        assert_eq!(big5_pointer('\u{256A}'), Some(18976)); // also at 5249
        assert_eq!(big5_pointer('\u{5341}'), Some(5512)); // also at 5287
        assert_eq!(big5_pointer('\u{5345}'), Some(5599)); // also at 5289
        // Other duplicates get the first pointer at or above 5024.
        assert_eq!(big5_pointer('\u{7BB8}'), Some(9081)); // also at 2082 (HKSCS)
        assert_eq!(big5_pointer('\u{83C1}'), Some(8281)); // also at 2221 (HKSCS)
        // HKSCS-only code points are decoded but not encoded.
        assert_eq!(big5_pointer('\u{43F0}'), None);
        assert_eq!(big5_pointer('\u{27267}'), None);
        assert_eq!(big5_pointer('A'), None);
        assert_eq!(big5_pointer('\u{10000}'), None);
        assert_eq!(big5_pointer('\u{30000}'), None);
    }

    #[test]
    fn every_entry_matches_the_file() {
        let Some(dir) = testing::whatwg_dir() else {
            return;
        };
        let entries = testing::read_index(&dir, "big5");
        testing::check_code_points(&entries, table().len(), code_point);

        let first_encoded = usize::from(FIRST_ENCODED_POINTER);
        let mut expected = testing::first_pointers(&entries, |p| p >= first_encoded);
        let mut last: HashMap<u32, usize> = HashMap::new();
        for &(pointer, code_point) in &entries {
            if pointer >= first_encoded {
                last.insert(code_point, pointer);
            }
        }
        for c in LAST_POINTER_CODE_POINTS {
            let code_point = u32::from(c);
            assert_ne!(
                expected[&code_point], last[&code_point],
                "{c:?} is not a duplicate"
            );
            expected.insert(code_point, last[&code_point]);
        }
        testing::check_pointers(&expected, big5_pointer);
    }
}
