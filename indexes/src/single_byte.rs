//! [Index single-byte](https://encoding.spec.whatwg.org/#legacy-single-byte-encodings):
//! the indexes of the 28 single-byte encodings (27 indexes: ISO-8859-8 and
//! ISO-8859-8-I share one).
//!
//! Pointers are 0..=127 and stand for the bytes 0x80..=0xFF (byte − 0x80);
//! bytes below 0x80 are ASCII in every single-byte encoding and are not in
//! the indexes.

use crate::generated::single_byte::{ENCODINGS, INDEXES};
use crate::reverse::{self, SingleByteReverse};

/// One single-byte index, e.g. index windows-1252.
///
/// Get one with [`for_encoding`] (or [`all`]); the value is `'static`.
#[derive(Debug)]
pub struct SingleByteIndex {
    name: &'static str,
    table: &'static [u16; 128],
    /// The same as code points, ready to use.
    code_points: &'static [Option<char>; 128],
    /// Position in `INDEXES`, and so in the reverse page maps.
    position: u8,
}

const INDEX_COUNT: usize = INDEXES.len();
const PAGE_COUNT: usize = reverse::single_byte_page_count(&INDEXES);
static REVERSE: SingleByteReverse<INDEX_COUNT, PAGE_COUNT> = reverse::single_byte_reverse(&INDEXES);

/// Each index's table as `char`s, built at compile time: a lookup is one
/// load, where the `u16` table needs a check for none and for surrogates.
static CODE_POINTS: [[Option<char>; 128]; INDEX_COUNT] = {
    let mut all = [[None; 128]; INDEX_COUNT];
    let mut i = 0;
    while i < INDEX_COUNT {
        let mut pointer = 0;
        while pointer < 128 {
            let code_point = INDEXES[i].1[pointer];
            if code_point != 0 {
                all[i][pointer] = char::from_u32(code_point as u32);
                assert!(all[i][pointer].is_some(), "index entries are scalar values");
            }
            pointer += 1;
        }
        i += 1;
    }
    all
};

static ALL: [SingleByteIndex; INDEX_COUNT] = {
    let mut all = [const {
        SingleByteIndex {
            name: "",
            table: &[0; 128],
            code_points: &[None; 128],
            position: 0,
        }
    }; INDEX_COUNT];
    let mut i = 0;
    while i < INDEX_COUNT {
        all[i] = SingleByteIndex {
            name: INDEXES[i].0,
            table: INDEXES[i].1,
            code_points: &CODE_POINTS[i],
            position: i as u8,
        };
        i += 1;
    }
    all
};

/// The index of the single-byte encoding called `name`, which must be the
/// encoding's name exactly as the standard writes it ("windows-1252",
/// "ISO-8859-8-I", "x-mac-cyrillic"), not a label. `None` for any other name.
///
/// # Examples
///
/// ```
/// use mojiscope_indexes::single_byte;
///
/// let index = single_byte::for_encoding("ISO-8859-8-I").unwrap();
/// assert_eq!(index.name(), "iso-8859-8");
/// assert_eq!(index.code_point(0xE0 - 0x80), Some('א'));
/// assert!(single_byte::for_encoding("latin1").is_none());
/// ```
pub fn for_encoding(name: &str) -> Option<&'static SingleByteIndex> {
    let &(_, position) = ENCODINGS
        .iter()
        .find(|(encoding_name, _)| *encoding_name == name)?;
    ALL.get(usize::from(position))
}

/// The code points of the index of the single-byte encoding called `name`
/// (as [`for_encoding`] takes it), for tables laid out when a program is
/// compiled; `None` for any other name.
pub const fn code_points_for(name: &str) -> Option<&'static [Option<char>; 128]> {
    let mut at = 0;
    while at < ENCODINGS.len() {
        let (encoding_name, position) = ENCODINGS[at];
        if same_str(encoding_name, name) {
            return Some(&CODE_POINTS[position as usize]);
        }
        at += 1;
    }
    None
}

/// Whether `a` and `b` are the same string (`==`, which is no `const fn`).
const fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut at = 0;
    while at < a.len() {
        if a[at] != b[at] {
            return false;
        }
        at += 1;
    }
    true
}

/// Every single-byte index, in the order of the standard's table.
pub fn all() -> &'static [SingleByteIndex] {
    &ALL
}

impl SingleByteIndex {
    /// Same as the module's [`for_encoding`].
    pub fn for_encoding(name: &str) -> Option<&'static SingleByteIndex> {
        for_encoding(name)
    }

    /// The index's name as the standard's file names spell it, e.g. "iso-8859-8"
    /// for index ISO-8859-8 (also used by ISO-8859-8-I).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The index as a table: the code point for each pointer, 0 where the
    /// index has none.
    pub fn table(&self) -> &'static [u16; 128] {
        self.table
    }

    /// The [index code point](https://encoding.spec.whatwg.org/#index-code-point)
    /// for `pointer` (byte − 0x80): `None` if the index has no entry for it or
    /// `pointer` is above 127.
    #[inline]
    pub fn code_point(&self, pointer: u8) -> Option<char> {
        self.code_points
            .get(usize::from(pointer))
            .copied()
            .flatten()
    }

    /// The index as code points: [`code_point`](Self::code_point) for each
    /// pointer, as a table to look bytes up in directly.
    pub fn code_points(&self) -> &'static [Option<char>; 128] {
        self.code_points
    }

    /// The [index pointer](https://encoding.spec.whatwg.org/#index-pointer)
    /// for `c`: its first pointer (the byte is pointer + 0x80), or `None`.
    #[inline]
    pub fn pointer(&self, c: char) -> Option<u8> {
        let code_point = u32::from(c);
        let high = u8::try_from(code_point >> 8).ok()?;
        let page = REVERSE.page_maps[usize::from(self.position)][usize::from(high)];
        let byte = REVERSE.pages[usize::from(page)][(code_point & 0xFF) as usize];
        // 0 marks "no pointer"; stored values are pointer + 0x80.
        byte.checked_sub(0x80)
    }
}

#[cfg(test)]
mod tests {
    use super::{SingleByteIndex, all, for_encoding};
    use crate::testing;

    #[test]
    fn every_encoding_has_its_index() {
        let names = [
            ("IBM866", "ibm866"),
            ("ISO-8859-2", "iso-8859-2"),
            ("ISO-8859-8", "iso-8859-8"),
            ("ISO-8859-8-I", "iso-8859-8"),
            ("KOI8-U", "koi8-u"),
            ("macintosh", "macintosh"),
            ("windows-874", "windows-874"),
            ("windows-1252", "windows-1252"),
            ("x-mac-cyrillic", "x-mac-cyrillic"),
        ];
        for (encoding, index) in names {
            assert_eq!(
                for_encoding(encoding).map(SingleByteIndex::name),
                Some(index)
            );
        }
        assert_eq!(super::ENCODINGS.len(), 28);
        for &(encoding, _) in &super::ENCODINGS {
            let index = for_encoding(encoding).expect("an index");
            assert_eq!(
                super::code_points_for(encoding),
                Some(index.code_points()),
                "{encoding}"
            );
        }
        assert_eq!(super::code_points_for("windows-125"), None);
        assert_eq!(super::code_points_for("WINDOWS-1252"), None);
        assert_eq!(all().len(), 27);
        for name in [
            "",
            "UTF-8",
            "windows1252",
            "WINDOWS-1252",
            "iso-8859-8",
            "gbk",
        ] {
            assert!(for_encoding(name).is_none(), "{name}");
        }
        assert!(std::ptr::eq(
            for_encoding("ISO-8859-8").unwrap(),
            SingleByteIndex::for_encoding("ISO-8859-8-I").unwrap()
        ));
    }

    #[test]
    fn known_values() {
        let windows_1252 = for_encoding("windows-1252").unwrap();
        assert_eq!(windows_1252.code_point(0), Some('€'));
        // 0x81 is a C1 control here, unlike in Windows' own code page.
        assert_eq!(windows_1252.code_point(1), Some('\u{81}'));
        assert_eq!(windows_1252.code_point(0x7F), Some('ÿ'));
        assert_eq!(windows_1252.code_point(128), None);
        assert_eq!(windows_1252.code_point(u8::MAX), None);
        assert_eq!(windows_1252.pointer('€'), Some(0));
        assert_eq!(windows_1252.pointer('ÿ'), Some(0x7F));
        assert_eq!(windows_1252.pointer('A'), None);
        assert_eq!(windows_1252.pointer('\u{81}'), Some(1));
        assert_eq!(windows_1252.pointer('\u{80}'), None);
        let iso_8859_3 = for_encoding("ISO-8859-3").unwrap();
        assert_eq!(iso_8859_3.code_point(0xA5 - 0x80), None); // unassigned
        assert_eq!(windows_1252.pointer('\u{10000}'), None);
        assert_eq!(windows_1252.table()[0], 0x20AC);
        assert_eq!(windows_1252.code_points()[0], Some('€'));
        assert_eq!(iso_8859_3.code_points()[0xA5 - 0x80], None);
    }

    #[test]
    fn every_index_matches_its_file() {
        let Some(dir) = testing::whatwg_dir() else {
            return;
        };
        for index in all() {
            let entries = testing::read_index(&dir, index.name());
            let mut expected_code_points = [None; 128];
            for &(pointer, code_point) in &entries {
                expected_code_points[pointer] = char::from_u32(code_point);
            }
            for pointer in 0..=u8::MAX {
                assert_eq!(
                    index.code_point(pointer),
                    expected_code_points
                        .get(usize::from(pointer))
                        .copied()
                        .flatten(),
                    "{} pointer {pointer}",
                    index.name()
                );
            }
            let first_pointers = testing::first_pointers(&entries, |_| true);
            for c in testing::all_chars() {
                let expected = first_pointers.get(&u32::from(c)).map(|&p| p as u8);
                assert_eq!(index.pointer(c), expected, "{} {c:?}", index.name());
            }
        }
    }
}
