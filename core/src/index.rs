//! The standard's [indexes](https://encoding.spec.whatwg.org/#indexes), by
//! name: the tables that map pointers to code points.

use std::fmt;

use mojiscope_indexes::{big5, euc_kr, gb18030, gb18030_ranges, jis0208, jis0212, single_byte};

use crate::encoding::Encoding;

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
}

impl fmt::Display for Index {
    /// "index jis0208".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "index {}", self.name())
    }
}
