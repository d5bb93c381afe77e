//! The standard's [indexes](https://encoding.spec.whatwg.org/#indexes), by
//! name: the tables that map pointers to code points.

use std::fmt;

use mojiscope_indexes::{big5, euc_kr, gb18030, gb18030_ranges, jis0208, jis0212, single_byte};

use crate::codec;
use crate::encoding::{BIG5, EUC_JP, EUC_KR, Encoding, GB18030, GBK, ISO_2022_JP, SHIFT_JIS};

/// One of the standard's indexes.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Index {
    /// Index Big5, used by Big5.
    Big5,
    /// Index EUC-KR, used by EUC-KR.
    EucKr,
    /// Index gb18030: the two-byte sequences of gb18030 and GBK.
    Gb18030,
    /// Index gb18030 ranges: gb18030's four-byte sequences, as ranges.
    Gb18030Ranges,
    /// Index jis0208, used by EUC-JP, ISO-2022-JP and `Shift_JIS`.
    Jis0208,
    /// Index jis0212, used by EUC-JP's decoder after 0x8F.
    Jis0212,
    /// The index of a single-byte encoding (ISO-8859-8 and ISO-8859-8-I
    /// share one).
    SingleByte(&'static Encoding),
}

impl Index {
    /// The indexes of the multi-byte encodings, in the standard's order.
    pub const MULTI_BYTE: [Index; 6] = [
        Index::Big5,
        Index::EucKr,
        Index::Gb18030,
        Index::Gb18030Ranges,
        Index::Jis0208,
        Index::Jis0212,
    ];

    /// The index's name as the standard writes it after "index": "jis0208",
    /// "gb18030 ranges", "windows-1252" (for a single-byte encoding, the name
    /// of its index file: "iso-8859-8" for ISO-8859-8-I too).
    pub fn name(self) -> &'static str {
        match self {
            Index::Big5 => "Big5",
            Index::EucKr => "EUC-KR",
            Index::Gb18030 => "gb18030",
            Index::Gb18030Ranges => "gb18030 ranges",
            Index::Jis0208 => "jis0208",
            Index::Jis0212 => "jis0212",
            Index::SingleByte(encoding) => single_byte::for_encoding(encoding.name())
                .map_or("single-byte", |index| index.name()),
        }
    }

    /// The anchor of the index's definition in the standard (without `#`).
    pub fn anchor(self) -> &'static str {
        match self {
            Index::Big5 => "index-big5",
            Index::EucKr => "index-euc-kr",
            Index::Gb18030 => "index-gb18030",
            Index::Gb18030Ranges => "index-gb18030-ranges",
            Index::Jis0208 => "index-jis0208",
            Index::Jis0212 => "index-jis0212",
            Index::SingleByte(_) => "legacy-single-byte-encodings",
        }
    }

    /// The standard's [index code point](https://encoding.spec.whatwg.org/#index-code-point)
    /// for `pointer` (for index gb18030 ranges, the
    /// [index gb18030 ranges code point](https://encoding.spec.whatwg.org/#index-gb18030-ranges-code-point)),
    /// or `None` where the index has none.
    ///
    /// ```
    /// use mojiscope_core::{Index, WINDOWS_1252};
    /// assert_eq!(Index::Jis0208.code_point(283), Some('あ'));
    /// assert_eq!(Index::Gb18030Ranges.code_point(189_000), Some('\u{10000}'));
    /// assert_eq!(Index::SingleByte(WINDOWS_1252).code_point(0), Some('€'));
    /// assert_eq!(Index::Jis0212.code_point(0), None);
    /// ```
    pub fn code_point(self, pointer: u32) -> Option<char> {
        let position = usize::try_from(pointer).ok()?;
        match self {
            Index::Big5 => big5::code_point(position),
            Index::EucKr => euc_kr::code_point(position),
            Index::Gb18030 => gb18030::code_point(position),
            Index::Gb18030Ranges => gb18030_ranges::code_point(pointer),
            Index::Jis0208 => jis0208::code_point(position),
            Index::Jis0212 => jis0212::code_point(position),
            Index::SingleByte(encoding) => {
                single_byte::for_encoding(encoding.name())?.code_point(u8::try_from(pointer).ok()?)
            }
        }
    }

    /// How many pointers the index spans: one past its last pointer (128
    /// for a single-byte index; 1237576 for index gb18030 ranges, whose
    /// pointers run to 1237575).
    pub fn pointer_count(self) -> u32 {
        let len = match self {
            Index::Big5 => big5::table().len(),
            Index::EucKr => euc_kr::table().len(),
            Index::Gb18030 => gb18030::table().len(),
            Index::Gb18030Ranges => return GB18030_RANGES_POINTER_COUNT,
            Index::Jis0208 => jis0208::table().len(),
            Index::Jis0212 => jis0212::table().len(),
            Index::SingleByte(_) => 128,
        };
        u32::try_from(len).unwrap_or(u32::MAX)
    }

    /// Every pointer of the index whose code point is `c`, in increasing
    /// order: the first is the standard's [index pointer](https://encoding.spec.whatwg.org/#index-pointer).
    /// (Encoders may skip some: `Shift_JIS` and Big5 have their own
    /// lookups.) For index gb18030 ranges, the pointer of the
    /// [index gb18030 ranges pointer](https://encoding.spec.whatwg.org/#index-gb18030-ranges-pointer)
    /// when its code point is `c` (it is not for code points that index
    /// gb18030 has).
    ///
    /// ```
    /// use mojiscope_core::Index;
    /// // ≒ is in index jis0208 twice: at 159 and in NEC's row 13.
    /// assert_eq!(Index::Jis0208.pointers('≒'), [159, 1207]);
    /// assert_eq!(Index::Gb18030Ranges.pointers('\u{10000}'), [189_000]);
    /// assert!(Index::Gb18030Ranges.pointers('丂').is_empty());
    /// ```
    pub fn pointers(self, c: char) -> Vec<u32> {
        fn scan<T: Copy + Into<u32>>(table: &[T], c: char) -> Vec<u32> {
            (0u32..)
                .zip(table)
                .filter(|&(_, &code_point)| code_point.into() == u32::from(c))
                .map(|(pointer, _)| pointer)
                .collect()
        }
        match self {
            Index::Big5 => scan(big5::table(), c),
            Index::EucKr => scan(euc_kr::table(), c),
            Index::Gb18030 => scan(gb18030::table(), c),
            Index::Gb18030Ranges => {
                let pointer = gb18030_ranges::pointer(c);
                if gb18030_ranges::code_point(pointer) == Some(c) {
                    vec![pointer]
                } else {
                    Vec::new()
                }
            }
            Index::Jis0208 => scan(jis0208::table(), c),
            Index::Jis0212 => scan(jis0212::table(), c),
            Index::SingleByte(encoding) => single_byte::for_encoding(encoding.name())
                .map(|index| scan(index.table(), c))
                .unwrap_or_default(),
        }
    }

    /// The ranges of index gb18030 ranges, as (pointer, code point) where
    /// each starts; `None` for the other indexes.
    pub fn ranges(self) -> Option<&'static [(u32, u32)]> {
        (self == Index::Gb18030Ranges).then(gb18030_ranges::table)
    }

    /// How the encodings whose decoders look pointers up in this index lay
    /// it out in bytes; none for a single-byte index (byte − 0x80 is the
    /// pointer).
    pub fn layouts(self) -> Vec<IndexLayout> {
        let encodings: &[&'static Encoding] = match self {
            Index::Big5 => &[BIG5],
            Index::EucKr => &[EUC_KR],
            Index::Gb18030 => &[GB18030, GBK],
            Index::Gb18030Ranges => &[GB18030],
            Index::Jis0208 => &[SHIFT_JIS, EUC_JP, ISO_2022_JP],
            Index::Jis0212 => &[EUC_JP],
            Index::SingleByte(_) => &[],
        };
        encodings
            .iter()
            .map(|&encoding| IndexLayout {
                index: self,
                encoding,
            })
            .collect()
    }
}

/// One past the last pointer of index gb18030 ranges.
const GB18030_RANGES_POINTER_COUNT: u32 = 1_237_576;

/// How one encoding's bytes lay out an index: the decoder's pointer
/// arithmetic (bytes to pointer) and the encoder's (pointer to bytes), as
/// rows of cells, a row for each leading byte and a cell for each trailing
/// byte. Get them from [`Index::layouts`].
///
/// ```
/// use mojiscope_core::{Index, SHIFT_JIS, EUC_JP};
///
/// let layouts = Index::Jis0208.layouts();
/// let shift_jis = layouts.iter().find(|layout| layout.encoding() == SHIFT_JIS).unwrap();
/// assert_eq!(shift_jis.row_len(), 188);
/// assert_eq!(shift_jis.row_and_cell(283), (1, 95));
/// assert_eq!(shift_jis.bytes(283), Some(vec![0x82, 0xA0]));
/// assert_eq!(shift_jis.pointer(&[0x82, 0xA0]), Some(283));
/// let euc_jp = layouts.iter().find(|layout| layout.encoding() == EUC_JP).unwrap();
/// assert_eq!(euc_jp.row_and_cell(283), (3, 1));
/// assert_eq!(euc_jp.bytes(283), Some(vec![0xA4, 0xA2]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IndexLayout {
    index: Index,
    encoding: &'static Encoding,
}

impl IndexLayout {
    /// The index.
    pub fn index(self) -> Index {
        self.index
    }

    /// The encoding whose bytes these are.
    pub fn encoding(self) -> &'static Encoding {
        self.encoding
    }

    /// How many pointers a row spans, one leading byte's worth: 188 in
    /// `Shift_JIS`, 94 in EUC-JP and ISO-2022-JP, 190 in EUC-KR, gb18030 and
    /// GBK, 157 in Big5; 10 for gb18030's four-byte sequences, a row for
    /// each first three bytes and a cell for each digit of the fourth.
    pub fn row_len(self) -> u32 {
        match self.index {
            Index::Big5 => 157,
            Index::EucKr | Index::Gb18030 => 190,
            Index::Gb18030Ranges => 10,
            Index::Jis0208 if self.encoding == SHIFT_JIS => 188,
            Index::Jis0208 | Index::Jis0212 => 94,
            // Not a layout of `Index::layouts`: one row.
            Index::SingleByte(_) => 128,
        }
    }

    /// One past the last pointer the encoding's bytes can reach: EUC-JP and
    /// ISO-2022-JP reach 94 rows of 94 (pointers below 8836) of index
    /// jis0208; the others reach every pointer of their index.
    pub fn pointer_limit(self) -> u32 {
        match self.index {
            Index::Jis0208 if self.encoding != SHIFT_JIS => 94 * 94,
            index => index.pointer_count(),
        }
    }

    /// The row and cell of `pointer`: `pointer / row_len` and
    /// `pointer % row_len`.
    pub fn row_and_cell(self, pointer: u32) -> (u32, u32) {
        let row_len = self.row_len();
        (pointer / row_len, pointer % row_len)
    }

    /// The bytes that stand for `pointer` in the encoding, by its encoder's
    /// arithmetic: two bytes, three for EUC-JP's JIS X 0212 (0x8F first),
    /// four for gb18030's four-byte sequences; for ISO-2022-JP, the two
    /// bytes after ESC $ B. `None` for a pointer out of the encoding's reach
    /// ([`pointer_limit`](Self::pointer_limit)).
    pub fn bytes(self, pointer: u32) -> Option<Vec<u8>> {
        if pointer >= self.pointer_limit() {
            return None;
        }
        if self.index == Index::Gb18030Ranges {
            return Some(codec::gb18030::four_byte_pointer_bytes(pointer).to_vec());
        }
        let pointer = u16::try_from(pointer).ok()?;
        let (leading, trailing) = match self.index {
            Index::Big5 => codec::big5::pointer_bytes(pointer),
            Index::EucKr => codec::euc_kr::pointer_bytes(pointer),
            Index::Gb18030 => codec::gb18030::two_byte_pointer_bytes(pointer),
            Index::Jis0208 if self.encoding == SHIFT_JIS => {
                codec::shift_jis::pointer_bytes(pointer)
            }
            Index::Jis0208 if self.encoding == ISO_2022_JP => {
                codec::iso_2022_jp::pointer_bytes(pointer)
            }
            Index::Jis0208 => codec::euc_jp::pointer_bytes(pointer),
            Index::Jis0212 => {
                let (leading, trailing) = codec::euc_jp::pointer_bytes(pointer);
                return Some(vec![0x8F, leading, trailing]);
            }
            Index::Gb18030Ranges | Index::SingleByte(_) => return None,
        };
        Some(vec![leading, trailing])
    }

    /// The pointer of `bytes` by the decoder's arithmetic, if they are a
    /// sequence that this layout gives a pointer (the inverse of
    /// [`bytes`](Self::bytes)).
    pub fn pointer(self, bytes: &[u8]) -> Option<u32> {
        let pointer = match (self.index, bytes) {
            (Index::Gb18030Ranges, &[first, second, third, fourth]) => {
                (first >= 0x81 && second >= 0x30 && third >= 0x81 && fourth >= 0x30)
                    .then(|| codec::gb18030::four_byte_pointer([first, second, third, fourth]))?
            }
            (Index::Jis0212, &[0x8F, leading, byte]) => (leading >= 0xA1 && byte >= 0xA1)
                .then(|| codec::euc_jp::pointer(leading, byte))?
                as u32,
            (_, &[leading, byte]) => self.two_byte_pointer(leading, byte)?,
            _ => return None,
        };
        // The arithmetic accepts bytes outside the ranges (a trailing 0x7F,
        // a leading byte past the index); the encoder's arithmetic gives
        // them back only for a pointer they really stand for.
        (self.bytes(pointer).as_deref() == Some(bytes)).then_some(pointer)
    }

    /// The decoder's two-byte pointer arithmetic, where the subtractions
    /// do not go below zero.
    fn two_byte_pointer(self, leading: u8, byte: u8) -> Option<u32> {
        let pointer =
            match self.index {
                Index::Big5 => (leading >= 0x81 && byte >= codec::big5::offset(byte))
                    .then(|| codec::big5::pointer(leading, byte))?,
                Index::EucKr => (leading >= 0x81 && byte >= 0x41)
                    .then(|| codec::euc_kr::pointer(leading, byte))?,
                Index::Gb18030 => (leading >= 0x81 && byte >= codec::gb18030::offset(byte))
                    .then(|| codec::gb18030::two_byte_pointer(leading, byte))?,
                Index::Jis0208 if self.encoding == SHIFT_JIS => (leading
                    >= codec::shift_jis::leading_offset(leading)
                    && byte >= codec::shift_jis::offset(byte))
                .then(|| codec::shift_jis::pointer(leading, byte))?,
                Index::Jis0208 if self.encoding == ISO_2022_JP => (leading >= 0x21 && byte >= 0x21)
                    .then(|| codec::iso_2022_jp::pointer(leading, byte))?,
                Index::Jis0208 => (leading >= 0xA1 && byte >= 0xA1)
                    .then(|| codec::euc_jp::pointer(leading, byte))?,
                _ => return None,
            };
        u32::try_from(pointer).ok()
    }
}

impl fmt::Display for Index {
    /// "index jis0208".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "index {}", self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decoder::BomHandling;
    use crate::encoding::{ISO_8859_8_I, WINDOWS_1252};

    #[test]
    fn names_and_anchors() {
        assert_eq!(Index::Jis0208.to_string(), "index jis0208");
        assert_eq!(Index::Gb18030Ranges.to_string(), "index gb18030 ranges");
        assert_eq!(
            Index::SingleByte(ISO_8859_8_I).to_string(),
            "index iso-8859-8"
        );
        assert_eq!(Index::EucKr.anchor(), "index-euc-kr");
        assert_eq!(Index::Jis0208.pointer_count(), 11104);
        assert_eq!(Index::Jis0212.pointer_count(), 7211);
        assert_eq!(Index::EucKr.pointer_count(), 23750);
        assert_eq!(Index::Big5.pointer_count(), 126 * 157);
        assert_eq!(Index::Gb18030.pointer_count(), 126 * 190);
        assert_eq!(Index::Gb18030Ranges.pointer_count(), 1_237_576);
        assert_eq!(Index::SingleByte(WINDOWS_1252).pointer_count(), 128);
        assert_eq!(Index::Gb18030Ranges.code_point(39_420), None);
        assert_eq!(Index::Big5.code_point(u32::MAX), None);
        assert_eq!(Index::SingleByte(WINDOWS_1252).code_point(128), None);
        assert_eq!(Index::Gb18030Ranges.ranges().map(<[_]>::len), Some(207));
        assert_eq!(Index::Big5.ranges(), None);
    }

    #[test]
    fn pointers_of_a_character() {
        // ∵ is at 165, 1217 (NEC row 13) and 10743 (IBM extensions).
        assert_eq!(Index::Jis0208.pointers('∵'), [165, 1217, 10743]);
        // U+3000 is at 6176 (0xA1 0xA1) and 6555 (0xA3 0xA0) of index gb18030.
        assert_eq!(Index::Gb18030.pointers('\u{3000}'), [6176, 6555]);
        assert_eq!(Index::EucKr.pointers('가'), [9026]);
        assert_eq!(Index::Big5.pointers('A'), Vec::<u32>::new());
        assert_eq!(Index::SingleByte(WINDOWS_1252).pointers('€'), [0]);
        // The ranges: U+E7C7 is pointer 7457, U+0080 is 0; U+00A4 is in
        // index gb18030 (0xA1 0xE8), so the ranges do not have it.
        assert_eq!(Index::Gb18030Ranges.pointers('\u{E7C7}'), [7457]);
        assert_eq!(Index::Gb18030Ranges.pointers('\u{80}'), [0]);
        assert!(Index::Gb18030Ranges.pointers('\u{A4}').is_empty());
        assert!(Index::Gb18030Ranges.pointers('a').is_empty());
        // Every pointer found has the character, and every code point of the
        // index is found at its pointer.
        for index in [Index::Jis0212, Index::Big5] {
            for pointer in 0..index.pointer_count() {
                if let Some(c) = index.code_point(pointer) {
                    assert!(index.pointers(c).contains(&pointer), "{index} {pointer}");
                }
            }
        }
    }

    #[test]
    fn layouts_map_every_pointer_to_bytes_and_back() {
        for index in Index::MULTI_BYTE {
            let layouts = index.layouts();
            assert!(!layouts.is_empty());
            for layout in layouts {
                assert_eq!(layout.index(), index);
                let encoding = layout.encoding();
                let prefix: &[u8] = if encoding == ISO_2022_JP {
                    b"\x1B$B"
                } else {
                    b""
                };
                let mut previous_row = None;
                for pointer in 0..layout.pointer_limit() {
                    let bytes = layout.bytes(pointer).unwrap();
                    assert_eq!(
                        layout.pointer(&bytes),
                        Some(pointer),
                        "{encoding} {bytes:02X?}"
                    );
                    // The cells of a row share their leading bytes.
                    let (row, cell) = layout.row_and_cell(pointer);
                    assert_eq!(row * layout.row_len() + cell, pointer);
                    let leading = &bytes[..bytes.len() - 1];
                    if cell > 0 {
                        assert_eq!(
                            previous_row.as_deref(),
                            Some(leading),
                            "{encoding} {pointer}"
                        );
                    }
                    previous_row = Some(leading.to_vec());
                    // The decoder decodes the bytes through the index.
                    let mut input = prefix.to_vec();
                    input.extend_from_slice(&bytes);
                    let text = encoding
                        .decode_with_bom_handling(&input, BomHandling::None)
                        .text;
                    if encoding == BIG5 && matches!(pointer, 1133 | 1135 | 1164 | 1166) {
                        continue;
                    }
                    let expected = if encoding == SHIFT_JIS && (8836..=10715).contains(&pointer) {
                        char::from_u32(0xE000 - 8836 + pointer).map(String::from)
                    } else {
                        index.code_point(pointer).map(String::from)
                    };
                    match expected {
                        Some(expected) => assert_eq!(text, expected, "{encoding} {bytes:02X?}"),
                        None => assert!(text.starts_with('\u{FFFD}'), "{encoding} {bytes:02X?}"),
                    }
                }
                assert_eq!(layout.bytes(layout.pointer_limit()), None);
            }
        }
    }

    #[test]
    fn layouts_reach_these_pointers() {
        let layout = |index: Index, encoding: &'static Encoding| {
            index
                .layouts()
                .into_iter()
                .find(|layout| layout.encoding() == encoding)
                .unwrap()
        };
        // EUC-JP and ISO-2022-JP reach 94 rows of index jis0208; Shift_JIS
        // all of it, with 188 cells a row.
        assert_eq!(layout(Index::Jis0208, EUC_JP).pointer_limit(), 8836);
        assert_eq!(
            layout(Index::Jis0208, ISO_2022_JP).bytes(1410),
            Some(vec![0x30, 0x21])
        );
        assert_eq!(layout(Index::Jis0208, SHIFT_JIS).pointer_limit(), 11104);
        // The last pointer of index jis0208, 11103: 59 × 188 + 11, so
        // 0xFC (0xC1 + 59) and 0x4B (0x40 + 11).
        assert_eq!(
            layout(Index::Jis0208, SHIFT_JIS).bytes(11103),
            Some(vec![0xFC, 0x4B])
        );
        assert_eq!(
            layout(Index::Jis0208, SHIFT_JIS).row_and_cell(11103),
            (59, 11)
        );
        // JIS X 0212 in EUC-JP: 0x8F first. 108 = 1 × 94 + 14.
        assert_eq!(
            layout(Index::Jis0212, EUC_JP).bytes(108),
            Some(vec![0x8F, 0xA2, 0xAF])
        );
        assert_eq!(
            layout(Index::Jis0212, EUC_JP).pointer(&[0x8F, 0xA2, 0xAF]),
            Some(108)
        );
        // Big5's trailing bytes skip 0x7F to 0xA0: cell 63 is 0xA1.
        assert_eq!(
            layout(Index::Big5, BIG5).bytes(5087),
            Some(vec![0xA1, 0xA1])
        );
        assert_eq!(layout(Index::Big5, BIG5).row_and_cell(5087), (32, 63));
        // gb18030's four bytes: 189000 = 15 × 12600, so 0x90 0x30 0x81 0x30.
        let ranges = layout(Index::Gb18030Ranges, GB18030);
        assert_eq!(ranges.bytes(189_000), Some(vec![0x90, 0x30, 0x81, 0x30]));
        assert_eq!(ranges.row_and_cell(189_000), (18_900, 0));
        // (0xE3 − 0x81) × 12600 + 2 × 1260 + (0x9A − 0x81) × 10 + 5 = 1237575.
        assert_eq!(ranges.pointer(&[0xE3, 0x32, 0x9A, 0x35]), Some(1_237_575));
        assert_eq!(ranges.bytes(1_237_576), None);
        // Bytes that stand for no pointer.
        let shift_jis = layout(Index::Jis0208, SHIFT_JIS);
        for bytes in [
            &[0x82, 0x7F][..],
            &[0xA5, 0x40],
            &[0x82, 0x3F],
            &[0x82],
            &[0xFD, 0x40],
        ] {
            assert_eq!(shift_jis.pointer(bytes), None, "{bytes:02X?}");
        }
        assert_eq!(layout(Index::Gb18030, GBK).pointer(&[0x81, 0x7F]), None);
        assert_eq!(ranges.pointer(&[0x81, 0x30, 0x81]), None);
        // Of all 65536 pairs, exactly the reachable pointers' bytes have one.
        for index in [Index::Jis0208, Index::EucKr, Index::Big5, Index::Gb18030] {
            for layout in index.layouts() {
                let count = (0..=u16::MAX)
                    .filter(|pair| layout.pointer(&pair.to_be_bytes()).is_some())
                    .count();
                assert_eq!(
                    count,
                    layout.pointer_limit() as usize,
                    "{}",
                    layout.encoding()
                );
            }
        }
    }
}
