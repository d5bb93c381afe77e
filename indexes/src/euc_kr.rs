//! [Index EUC-KR](https://encoding.spec.whatwg.org/#index-euc-kr): KS X 1001
//! plus the Unified Hangul Code (Windows code page 949), used by EUC-KR.

use crate::generated::euc_kr::EUC_KR;
use crate::reverse::{self, FlatReverse};

static POINTERS: FlatReverse = reverse::first_pointers(&EUC_KR, None);

/// The [index code point](https://encoding.spec.whatwg.org/#index-code-point)
/// for `pointer` in index EUC-KR, or `None` (also for out-of-range pointers).
#[inline]
pub fn code_point(pointer: usize) -> Option<char> {
    reverse::code_point_u16(&EUC_KR, pointer)
}

/// The [index pointer](https://encoding.spec.whatwg.org/#index-pointer) for
/// `c` in index EUC-KR: its first pointer, or `None`.
#[inline]
pub fn pointer(c: char) -> Option<u16> {
    reverse::bmp_pointer(&POINTERS, c)
}

/// Index EUC-KR as a table: the code point for each pointer, 0 where the
/// index has none.
pub const fn table() -> &'static [u16] {
    &EUC_KR
}

#[cfg(test)]
mod tests {
    use super::{code_point, pointer, table};
    use crate::testing;

    #[test]
    fn known_values() {
        assert_eq!(code_point(0), Some('갂'));
        assert_eq!(pointer('갂'), Some(0));
        assert_eq!(pointer('가'), Some(9026)); // the KS X 1001 block the standard mentions
        assert_eq!(code_point(table().len()), None);
        assert_eq!(code_point(usize::MAX), None);
        assert_eq!(pointer('A'), None);
    }

    #[test]
    fn every_entry_matches_the_file() {
        let Some(dir) = testing::whatwg_dir() else {
            return;
        };
        let entries = testing::read_index(&dir, "euc-kr");
        testing::check_code_points(&entries, table().len(), code_point);
        testing::check_pointers(&testing::first_pointers(&entries, |_| true), pointer);
    }
}
