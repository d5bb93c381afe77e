//! [Index jis0208](https://encoding.spec.whatwg.org/#index-jis0208): JIS X 0208
//! with the IBM and NEC extensions, used by EUC-JP, ISO-2022-JP and `Shift_JIS`.

use crate::generated::jis0208::JIS0208;
use crate::reverse::{self, FlatReverse};

/// The pointers "index `Shift_JIS` pointer" leaves out: NEC's copies of IBM
/// extensions, so that encoding uses the IBM extensions' own rows.
pub const SHIFT_JIS_EXCLUDED_POINTERS: std::ops::RangeInclusive<u16> = 8272..=8835;

static POINTERS: FlatReverse = reverse::first_pointers(&JIS0208, None);
static SHIFT_JIS_POINTERS: FlatReverse = reverse::first_pointers(
    &JIS0208,
    Some((
        *SHIFT_JIS_EXCLUDED_POINTERS.start() as usize,
        *SHIFT_JIS_EXCLUDED_POINTERS.end() as usize,
    )),
);

/// The [index code point](https://encoding.spec.whatwg.org/#index-code-point)
/// for `pointer` in index jis0208, or `None` (also for out-of-range pointers).
#[inline]
pub fn code_point(pointer: usize) -> Option<char> {
    reverse::code_point_u16(&JIS0208, pointer)
}

/// The [index pointer](https://encoding.spec.whatwg.org/#index-pointer) for
/// `c` in index jis0208: its first pointer, or `None`. Used by the EUC-JP and
/// ISO-2022-JP encoders.
#[inline]
pub fn pointer(c: char) -> Option<u16> {
    reverse::bmp_pointer(&POINTERS, c)
}

/// The [index `Shift_JIS` pointer](https://encoding.spec.whatwg.org/#index-shift_jis-pointer)
/// for `c`: the first pointer outside [`SHIFT_JIS_EXCLUDED_POINTERS`], or `None`.
///
/// # Examples
///
/// ```
/// use mojiscope_indexes::jis0208;
///
/// // 纊 is at pointer 8272 (NEC's copy) and 10744 (IBM extension).
/// assert_eq!(jis0208::pointer('纊'), Some(8272));
/// assert_eq!(jis0208::shift_jis_pointer('纊'), Some(10744));
/// ```
#[inline]
pub fn shift_jis_pointer(c: char) -> Option<u16> {
    reverse::bmp_pointer(&SHIFT_JIS_POINTERS, c)
}

/// Index jis0208 as a table: the code point for each pointer, 0 where the
/// index has none.
pub const fn table() -> &'static [u16] {
    &JIS0208
}

#[cfg(test)]
mod tests {
    use super::{SHIFT_JIS_EXCLUDED_POINTERS, code_point, pointer, shift_jis_pointer, table};
    use crate::testing;

    #[test]
    fn known_values() {
        assert_eq!(code_point(0), Some('\u{3000}'));
        assert_eq!(code_point(table().len()), None);
        assert_eq!(code_point(usize::MAX), None);
        // ￢ is at 137, 8644 (excluded) and 10736: both lookups give the first.
        assert_eq!(pointer('￢'), Some(137));
        assert_eq!(shift_jis_pointer('￢'), Some(137));
        // 纊 is at 8272 (excluded) and 10744.
        assert_eq!(pointer('\u{7E8A}'), Some(8272));
        assert_eq!(shift_jis_pointer('\u{7E8A}'), Some(10744));
        // ∪ is at 125 and 1219: the first.
        assert_eq!(pointer('∪'), Some(125));
        assert_eq!(pointer('A'), None);
        assert_eq!(pointer('\u{FFFF}'), None);
        assert_eq!(pointer('😀'), None);
    }

    #[test]
    fn every_entry_matches_the_file() {
        let Some(dir) = testing::whatwg_dir() else {
            return;
        };
        let entries = testing::read_index(&dir, "jis0208");
        testing::check_code_points(&entries, table().len(), code_point);
        testing::check_pointers(&testing::first_pointers(&entries, |_| true), pointer);
        let excluded = usize::from(*SHIFT_JIS_EXCLUDED_POINTERS.start())
            ..=usize::from(*SHIFT_JIS_EXCLUDED_POINTERS.end());
        testing::check_pointers(
            &testing::first_pointers(&entries, |p| !excluded.contains(&p)),
            shift_jis_pointer,
        );
    }
}
