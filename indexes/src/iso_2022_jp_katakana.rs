//! [Index ISO-2022-JP katakana](https://encoding.spec.whatwg.org/#index-iso-2022-jp-katakana):
//! halfwidth katakana U+FF61..=U+FF9F (pointer = code point − 0xFF61) to their
//! fullwidth forms, used by the ISO-2022-JP encoder.

use crate::generated::iso_2022_jp_katakana::ISO_2022_JP_KATAKANA;
use crate::reverse;

/// The [index code point](https://encoding.spec.whatwg.org/#index-code-point)
/// for `pointer` in index ISO-2022-JP katakana, or `None` (also for
/// out-of-range pointers).
#[inline]
pub fn code_point(pointer: usize) -> Option<char> {
    reverse::code_point_u16(&ISO_2022_JP_KATAKANA, pointer)
}

/// Index ISO-2022-JP katakana as a table: the code point for each pointer.
pub fn table() -> &'static [u16] {
    &ISO_2022_JP_KATAKANA
}

#[cfg(test)]
mod tests {
    use super::{code_point, table};
    use crate::testing;

    #[test]
    fn known_values() {
        assert_eq!(table().len(), 63);
        assert_eq!(code_point(0), Some('。'));
        // ﾞ and ﾟ map to the spacing marks, not the combining ones.
        assert_eq!(code_point(0xFF9E - 0xFF61), Some('\u{309B}'));
        assert_eq!(code_point(0xFF9F - 0xFF61), Some('\u{309C}'));
        assert_eq!(code_point(63), None);
        assert_eq!(code_point(usize::MAX), None);
    }

    #[test]
    fn every_entry_matches_the_file() {
        let Some(dir) = testing::whatwg_dir() else {
            return;
        };
        let entries = testing::read_index(&dir, "iso-2022-jp-katakana");
        testing::check_code_points(&entries, table().len(), code_point);
    }
}
