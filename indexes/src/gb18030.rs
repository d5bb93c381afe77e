//! [Index gb18030](https://encoding.spec.whatwg.org/#index-gb18030): the
//! two-byte part of GB18030-2022 (with 0xA3 0xA0 → U+3000), used by gb18030 and GBK.

use crate::generated::gb18030::GB18030;
use crate::reverse::{self, FlatReverse};

static POINTERS: FlatReverse = reverse::first_pointers(&GB18030, None);

/// The [index code point](https://encoding.spec.whatwg.org/#index-code-point)
/// for `pointer` in index gb18030, or `None` (also for out-of-range pointers).
#[inline]
pub fn code_point(pointer: usize) -> Option<char> {
    reverse::code_point_u16(&GB18030, pointer)
}

/// The [index pointer](https://encoding.spec.whatwg.org/#index-pointer) for
/// `c` in index gb18030: its first pointer, or `None`.
#[inline]
pub fn pointer(c: char) -> Option<u16> {
    reverse::bmp_pointer(&POINTERS, c)
}

/// Index gb18030 as a table: the code point for each pointer, 0 where the
/// index has none.
pub const fn table() -> &'static [u16] {
    &GB18030
}

#[cfg(test)]
mod tests {
    use super::{code_point, pointer, table};
    use crate::testing;

    #[test]
    fn known_values() {
        assert_eq!(code_point(0), Some('丂'));
        // U+3000 is at 6176 (0xA1 0xA1) and 6555 (0xA3 0xA0): the first wins.
        assert_eq!(code_point(6176), Some('\u{3000}'));
        assert_eq!(code_point(6555), Some('\u{3000}'));
        assert_eq!(pointer('\u{3000}'), Some(6176));
        assert_eq!(code_point(table().len()), None);
        assert_eq!(code_point(usize::MAX), None);
        assert_eq!(pointer('A'), None);
        assert_eq!(pointer('€'), Some(6432)); // 0xA2 0xE3
    }

    #[test]
    fn every_entry_matches_the_file() {
        let Some(dir) = testing::whatwg_dir() else {
            return;
        };
        let entries = testing::read_index(&dir, "gb18030");
        testing::check_code_points(&entries, table().len(), code_point);
        testing::check_pointers(&testing::first_pointers(&entries, |_| true), pointer);
    }
}
