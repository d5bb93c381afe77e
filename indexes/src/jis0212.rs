//! [Index jis0212](https://encoding.spec.whatwg.org/#index-jis0212): JIS X 0212,
//! used only by the EUC-JP decoder (nothing encodes to it).

use crate::generated::jis0212::JIS0212;
use crate::reverse;

/// The [index code point](https://encoding.spec.whatwg.org/#index-code-point)
/// for `pointer` in index jis0212, or `None` (also for out-of-range pointers).
#[inline]
pub fn code_point(pointer: usize) -> Option<char> {
    reverse::code_point_u16(&JIS0212, pointer)
}

/// Index jis0212 as a table: the code point for each pointer, 0 where the
/// index has none.
pub fn table() -> &'static [u16] {
    &JIS0212
}

#[cfg(test)]
mod tests {
    use super::{code_point, table};
    use crate::testing;

    #[test]
    fn known_values() {
        assert_eq!(code_point(0), None); // the index starts at pointer 108
        assert_eq!(code_point(108), Some('˘'));
        assert_eq!(code_point(table().len()), None);
        assert_eq!(code_point(usize::MAX), None);
    }

    #[test]
    fn every_entry_matches_the_file() {
        let Some(dir) = testing::whatwg_dir() else {
            return;
        };
        let entries = testing::read_index(&dir, "jis0212");
        testing::check_code_points(&entries, table().len(), code_point);
    }
}
