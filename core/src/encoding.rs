//! The encodings, their names and labels, and the standard's algorithms on
//! them: "get an encoding" and "get an output encoding".

use std::fmt;

use mojiscope_indexes::{ENCODINGS, LABELS};

/// An encoding of the Encoding Standard. There are exactly 40; each is a
/// `static` of this crate ([`UTF_8`], [`SHIFT_JIS`], ...), and [`ALL`] lists
/// them. Compare them with `==`.
pub struct Encoding {
    /// Position in the standard's table of names and labels.
    id: u8,
    group: Group,
    family: Family,
}

/// The section of the standard an encoding is defined in; the headings of
/// the standard's table of names and labels.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Group {
    /// UTF-8.
    TheEncoding,
    /// The single-byte encodings.
    LegacySingleByte,
    /// GBK and gb18030.
    LegacyChineseSimplified,
    /// Big5.
    LegacyChineseTraditional,
    /// EUC-JP, ISO-2022-JP and Shift_JIS.
    LegacyJapanese,
    /// EUC-KR.
    LegacyKorean,
    /// replacement, UTF-16BE, UTF-16LE and x-user-defined.
    LegacyMiscellaneous,
}

impl Group {
    /// Every group, in the standard's order.
    pub const ALL: [Group; 7] = [
        Group::TheEncoding,
        Group::LegacySingleByte,
        Group::LegacyChineseSimplified,
        Group::LegacyChineseTraditional,
        Group::LegacyJapanese,
        Group::LegacyKorean,
        Group::LegacyMiscellaneous,
    ];

    /// The standard's heading for this group, e.g. "Legacy single-byte encodings".
    pub fn heading(self) -> &'static str {
        match self {
            Group::TheEncoding => "The Encoding",
            Group::LegacySingleByte => "Legacy single-byte encodings",
            Group::LegacyChineseSimplified => "Legacy multi-byte Chinese (simplified) encodings",
            Group::LegacyChineseTraditional => "Legacy multi-byte Chinese (traditional) encodings",
            Group::LegacyJapanese => "Legacy multi-byte Japanese encodings",
            Group::LegacyKorean => "Legacy multi-byte Korean encodings",
            Group::LegacyMiscellaneous => "Legacy miscellaneous encodings",
        }
    }

    /// The encodings of this group, in the standard's order.
    pub fn encodings(self) -> impl Iterator<Item = &'static Encoding> {
        ALL.iter()
            .copied()
            .filter(move |encoding| encoding.group == self)
    }
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.heading())
    }
}

/// Which decoder and encoder an encoding uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Family {
    Utf8,
    SingleByte,
    Gbk,
    Gb18030,
    Big5,
    EucJp,
    Iso2022Jp,
    ShiftJis,
    EucKr,
    Replacement,
    Utf16Be,
    Utf16Le,
    XUserDefined,
}

impl Encoding {
    /// The standard's [get an encoding](https://encoding.spec.whatwg.org/#concept-encoding-get):
    /// ASCII whitespace around `label` is removed, then it is matched ASCII
    /// case-insensitively against every label. `None` is the standard's failure.
    ///
    /// ```
    /// use mojiscope_core::{Encoding, WINDOWS_1252};
    /// assert_eq!(Encoding::for_label(b" Latin1\n"), Some(WINDOWS_1252));
    /// assert_eq!(Encoding::for_label(b"latin-1"), None);
    /// ```
    pub fn for_label(label: &[u8]) -> Option<&'static Encoding> {
        // Step 1: remove leading and trailing ASCII whitespace.
        let label = trim_ascii_whitespace_end(label);
        let label = trim_ascii_whitespace_start(label);
        // Step 2: ASCII case-insensitive match. Labels are stored lowercase
        // and sorted, so lowercase into a small buffer and search.
        let mut buffer = [0u8; MAX_LABEL_LEN];
        let lowered = buffer.get_mut(..label.len())?;
        for (slot, byte) in lowered.iter_mut().zip(label) {
            *slot = byte.to_ascii_lowercase();
        }
        let lowered: &[u8] = lowered;
        LABELS
            .binary_search_by(|(candidate, _)| candidate.as_bytes().cmp(lowered))
            .ok()
            .map(|found| ALL[usize::from(LABELS[found].1)])
    }

    /// The encoding's name, as the standard writes it (e.g. "Shift_JIS").
    pub const fn name(&self) -> &'static str {
        ENCODINGS[self.id as usize].name
    }

    /// The encoding's labels, lowercase, as listed by the standard.
    pub fn labels(&self) -> &'static [&'static str] {
        ENCODINGS[usize::from(self.id)].labels
    }

    /// The section of the standard the encoding belongs to.
    pub fn group(&self) -> Group {
        self.group
    }

    /// The standard's [get an output encoding](https://encoding.spec.whatwg.org/#get-an-output-encoding):
    /// UTF-8 for replacement, UTF-16BE and UTF-16LE; the encoding itself otherwise.
    pub fn output_encoding(&'static self) -> &'static Encoding {
        // Step 1.
        if matches!(
            self.family,
            Family::Replacement | Family::Utf16Be | Family::Utf16Le
        ) {
            return UTF_8;
        }
        // Step 2.
        self
    }

    /// Whether the encoding has an encoder (all but replacement, UTF-16BE and UTF-16LE).
    pub fn has_encoder(&self) -> bool {
        !matches!(
            self.family,
            Family::Replacement | Family::Utf16Be | Family::Utf16Le
        )
    }

    /// Whether a user may pick this encoding to override how a file is
    /// decoded. The standard's Browser UI section asks not to offer
    /// UTF-16BE/LE; replacement is no choice either, as it decodes nothing.
    pub fn is_override_choice(&self) -> bool {
        !matches!(
            self.family,
            Family::Replacement | Family::Utf16Be | Family::Utf16Le
        )
    }

    /// Whether this is one of the single-byte encodings.
    pub fn is_single_byte(&self) -> bool {
        self.family == Family::SingleByte
    }

    /// Whether the encoding decodes each byte to one character or an error
    /// whatever the bytes around it: the single-byte encodings and
    /// x-user-defined.
    pub(crate) const fn decodes_byte_by_byte(&self) -> bool {
        matches!(self.family, Family::SingleByte | Family::XUserDefined)
    }

    /// Whether ASCII bytes decode to ASCII and back in every state. False
    /// for ISO-2022-JP, UTF-16BE/LE and replacement.
    pub fn is_ascii_compatible(&self) -> bool {
        !matches!(
            self.family,
            Family::Iso2022Jp | Family::Replacement | Family::Utf16Be | Family::Utf16Le
        )
    }

    /// The anchor of the encoding's section in the standard, e.g.
    /// `https://encoding.spec.whatwg.org/#shift_jis`.
    pub fn spec_url(&self) -> String {
        let anchor = match self.family {
            Family::SingleByte => "legacy-single-byte-encodings".to_owned(),
            Family::Utf16Be | Family::Utf16Le => {
                "common-infrastructure-for-utf-16be-and-utf-16le".to_owned()
            }
            _ => self.name().to_ascii_lowercase(),
        };
        format!("https://encoding.spec.whatwg.org/#{anchor}")
    }

    pub(crate) fn family(&self) -> Family {
        self.family
    }
}

/// The longest label is "iso_8859-15:1988"-sized; 32 bytes leaves room.
const MAX_LABEL_LEN: usize = 32;

fn trim_ascii_whitespace_start(bytes: &[u8]) -> &[u8] {
    let skip = bytes
        .iter()
        .take_while(|&&b| is_ascii_whitespace(b))
        .count();
    &bytes[skip..]
}

fn trim_ascii_whitespace_end(bytes: &[u8]) -> &[u8] {
    let keep = bytes.len()
        - bytes
            .iter()
            .rev()
            .take_while(|&&b| is_ascii_whitespace(b))
            .count();
    &bytes[..keep]
}

/// The Infra standard's ASCII whitespace: TAB, LF, FF, CR and SPACE (not VT,
/// which `u8::is_ascii_whitespace` leaves out too, but spelled out here).
const fn is_ascii_whitespace(byte: u8) -> bool {
    matches!(byte, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

impl PartialEq for Encoding {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for Encoding {}

impl std::hash::Hash for Encoding {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}

impl fmt::Debug for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Encoding({})", self.name())
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The UTF-8 encoding (The Encoding).
pub static UTF_8: &Encoding = &Encoding {
    id: 0,
    group: Group::TheEncoding,
    family: Family::Utf8,
};

/// The IBM866 encoding (Legacy single-byte encodings).
pub static IBM866: &Encoding = &Encoding {
    id: 1,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The ISO-8859-2 encoding (Legacy single-byte encodings).
pub static ISO_8859_2: &Encoding = &Encoding {
    id: 2,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The ISO-8859-3 encoding (Legacy single-byte encodings).
pub static ISO_8859_3: &Encoding = &Encoding {
    id: 3,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The ISO-8859-4 encoding (Legacy single-byte encodings).
pub static ISO_8859_4: &Encoding = &Encoding {
    id: 4,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The ISO-8859-5 encoding (Legacy single-byte encodings).
pub static ISO_8859_5: &Encoding = &Encoding {
    id: 5,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The ISO-8859-6 encoding (Legacy single-byte encodings).
pub static ISO_8859_6: &Encoding = &Encoding {
    id: 6,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The ISO-8859-7 encoding (Legacy single-byte encodings).
pub static ISO_8859_7: &Encoding = &Encoding {
    id: 7,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The ISO-8859-8 encoding (Legacy single-byte encodings).
pub static ISO_8859_8: &Encoding = &Encoding {
    id: 8,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The ISO-8859-8-I encoding (Legacy single-byte encodings).
pub static ISO_8859_8_I: &Encoding = &Encoding {
    id: 9,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The ISO-8859-10 encoding (Legacy single-byte encodings).
pub static ISO_8859_10: &Encoding = &Encoding {
    id: 10,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The ISO-8859-13 encoding (Legacy single-byte encodings).
pub static ISO_8859_13: &Encoding = &Encoding {
    id: 11,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The ISO-8859-14 encoding (Legacy single-byte encodings).
pub static ISO_8859_14: &Encoding = &Encoding {
    id: 12,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The ISO-8859-15 encoding (Legacy single-byte encodings).
pub static ISO_8859_15: &Encoding = &Encoding {
    id: 13,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The ISO-8859-16 encoding (Legacy single-byte encodings).
pub static ISO_8859_16: &Encoding = &Encoding {
    id: 14,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The KOI8-R encoding (Legacy single-byte encodings).
pub static KOI8_R: &Encoding = &Encoding {
    id: 15,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The KOI8-U encoding (Legacy single-byte encodings).
pub static KOI8_U: &Encoding = &Encoding {
    id: 16,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The macintosh encoding (Legacy single-byte encodings).
pub static MACINTOSH: &Encoding = &Encoding {
    id: 17,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The windows-874 encoding (Legacy single-byte encodings).
pub static WINDOWS_874: &Encoding = &Encoding {
    id: 18,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The windows-1250 encoding (Legacy single-byte encodings).
pub static WINDOWS_1250: &Encoding = &Encoding {
    id: 19,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The windows-1251 encoding (Legacy single-byte encodings).
pub static WINDOWS_1251: &Encoding = &Encoding {
    id: 20,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The windows-1252 encoding (Legacy single-byte encodings).
pub static WINDOWS_1252: &Encoding = &Encoding {
    id: 21,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The windows-1253 encoding (Legacy single-byte encodings).
pub static WINDOWS_1253: &Encoding = &Encoding {
    id: 22,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The windows-1254 encoding (Legacy single-byte encodings).
pub static WINDOWS_1254: &Encoding = &Encoding {
    id: 23,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The windows-1255 encoding (Legacy single-byte encodings).
pub static WINDOWS_1255: &Encoding = &Encoding {
    id: 24,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The windows-1256 encoding (Legacy single-byte encodings).
pub static WINDOWS_1256: &Encoding = &Encoding {
    id: 25,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The windows-1257 encoding (Legacy single-byte encodings).
pub static WINDOWS_1257: &Encoding = &Encoding {
    id: 26,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The windows-1258 encoding (Legacy single-byte encodings).
pub static WINDOWS_1258: &Encoding = &Encoding {
    id: 27,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The x-mac-cyrillic encoding (Legacy single-byte encodings).
pub static X_MAC_CYRILLIC: &Encoding = &Encoding {
    id: 28,
    group: Group::LegacySingleByte,
    family: Family::SingleByte,
};

/// The GBK encoding (Legacy multi-byte Chinese (simplified) encodings).
pub static GBK: &Encoding = &Encoding {
    id: 29,
    group: Group::LegacyChineseSimplified,
    family: Family::Gbk,
};

/// The gb18030 encoding (Legacy multi-byte Chinese (simplified) encodings).
pub static GB18030: &Encoding = &Encoding {
    id: 30,
    group: Group::LegacyChineseSimplified,
    family: Family::Gb18030,
};

/// The Big5 encoding (Legacy multi-byte Chinese (traditional) encodings).
pub static BIG5: &Encoding = &Encoding {
    id: 31,
    group: Group::LegacyChineseTraditional,
    family: Family::Big5,
};

/// The EUC-JP encoding (Legacy multi-byte Japanese encodings).
pub static EUC_JP: &Encoding = &Encoding {
    id: 32,
    group: Group::LegacyJapanese,
    family: Family::EucJp,
};

/// The ISO-2022-JP encoding (Legacy multi-byte Japanese encodings).
pub static ISO_2022_JP: &Encoding = &Encoding {
    id: 33,
    group: Group::LegacyJapanese,
    family: Family::Iso2022Jp,
};

/// The Shift_JIS encoding (Legacy multi-byte Japanese encodings).
pub static SHIFT_JIS: &Encoding = &Encoding {
    id: 34,
    group: Group::LegacyJapanese,
    family: Family::ShiftJis,
};

/// The EUC-KR encoding (Legacy multi-byte Korean encodings).
pub static EUC_KR: &Encoding = &Encoding {
    id: 35,
    group: Group::LegacyKorean,
    family: Family::EucKr,
};

/// The replacement encoding (Legacy miscellaneous encodings).
pub static REPLACEMENT: &Encoding = &Encoding {
    id: 36,
    group: Group::LegacyMiscellaneous,
    family: Family::Replacement,
};

/// The UTF-16BE encoding (Legacy miscellaneous encodings).
pub static UTF_16BE: &Encoding = &Encoding {
    id: 37,
    group: Group::LegacyMiscellaneous,
    family: Family::Utf16Be,
};

/// The UTF-16LE encoding (Legacy miscellaneous encodings).
pub static UTF_16LE: &Encoding = &Encoding {
    id: 38,
    group: Group::LegacyMiscellaneous,
    family: Family::Utf16Le,
};

/// The x-user-defined encoding (Legacy miscellaneous encodings).
pub static X_USER_DEFINED: &Encoding = &Encoding {
    id: 39,
    group: Group::LegacyMiscellaneous,
    family: Family::XUserDefined,
};

/// Every encoding, in the order of the standard's table of names and labels.
pub static ALL: [&Encoding; 40] = [
    UTF_8,
    IBM866,
    ISO_8859_2,
    ISO_8859_3,
    ISO_8859_4,
    ISO_8859_5,
    ISO_8859_6,
    ISO_8859_7,
    ISO_8859_8,
    ISO_8859_8_I,
    ISO_8859_10,
    ISO_8859_13,
    ISO_8859_14,
    ISO_8859_15,
    ISO_8859_16,
    KOI8_R,
    KOI8_U,
    MACINTOSH,
    WINDOWS_874,
    WINDOWS_1250,
    WINDOWS_1251,
    WINDOWS_1252,
    WINDOWS_1253,
    WINDOWS_1254,
    WINDOWS_1255,
    WINDOWS_1256,
    WINDOWS_1257,
    WINDOWS_1258,
    X_MAC_CYRILLIC,
    GBK,
    GB18030,
    BIG5,
    EUC_JP,
    ISO_2022_JP,
    SHIFT_JIS,
    EUC_KR,
    REPLACEMENT,
    UTF_16BE,
    UTF_16LE,
    X_USER_DEFINED,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statics_match_the_generated_table_in_order() {
        assert_eq!(ALL.len(), ENCODINGS.len());
        for (position, encoding) in ALL.iter().enumerate() {
            assert_eq!(usize::from(encoding.id), position);
            assert_eq!(
                encoding.group.heading(),
                ENCODINGS[position].heading,
                "{}",
                encoding.name()
            );
        }
    }

    #[test]
    fn every_label_and_every_lowercased_name_finds_its_encoding() {
        for encoding in ALL {
            for label in encoding.labels() {
                assert_eq!(
                    Encoding::for_label(label.as_bytes()),
                    Some(encoding),
                    "{label}"
                );
                let shouted = label.to_ascii_uppercase();
                assert_eq!(
                    Encoding::for_label(shouted.as_bytes()),
                    Some(encoding),
                    "{shouted}"
                );
            }
            let lowered = encoding.name().to_ascii_lowercase();
            assert_eq!(Encoding::for_label(lowered.as_bytes()), Some(encoding));
        }
    }

    #[test]
    fn label_whitespace_is_ascii_whitespace_only() {
        assert_eq!(
            Encoding::for_label(b"\t\n\x0C\r utf8 \r\x0C\n\t"),
            Some(UTF_8)
        );
        // VT (0x0B) and NBSP are not ASCII whitespace.
        assert_eq!(Encoding::for_label(b"\x0Butf8"), None);
        assert_eq!(Encoding::for_label("\u{A0}utf8".as_bytes()), None);
        assert_eq!(Encoding::for_label(b"utf 8"), None);
        assert_eq!(Encoding::for_label(b""), None);
        assert_eq!(Encoding::for_label(b"   "), None);
        // Non-ASCII case folding must not apply: U+212A KELVIN SIGN is not 'k'.
        assert_eq!(Encoding::for_label("\u{212A}oi8-r".as_bytes()), None);
        assert_eq!(Encoding::for_label(&[b'a'; 100]), None);
    }

    #[test]
    fn labels_of_note() {
        assert_eq!(Encoding::for_label(b"iso-8859-1"), Some(WINDOWS_1252));
        assert_eq!(Encoding::for_label(b"ascii"), Some(WINDOWS_1252));
        assert_eq!(Encoding::for_label(b"gb2312"), Some(GBK));
        assert_eq!(Encoding::for_label(b"utf-16"), Some(UTF_16LE));
        assert_eq!(Encoding::for_label(b"iso-2022-kr"), Some(REPLACEMENT));
        assert_eq!(Encoding::for_label(b"x-user-defined"), Some(X_USER_DEFINED));
        // The current standard lists the name as a label too.
        assert_eq!(Encoding::for_label(b"replacement"), Some(REPLACEMENT));
    }

    #[test]
    fn output_encodings_and_encoders() {
        assert_eq!(REPLACEMENT.output_encoding(), UTF_8);
        assert_eq!(UTF_16BE.output_encoding(), UTF_8);
        assert_eq!(UTF_16LE.output_encoding(), UTF_8);
        assert_eq!(GBK.output_encoding(), GBK);
        let without: Vec<_> = ALL
            .iter()
            .filter(|e| !e.has_encoder())
            .map(|e| e.name())
            .collect();
        assert_eq!(without, ["replacement", "UTF-16BE", "UTF-16LE"]);
        let groups: Vec<usize> = Group::ALL.iter().map(|g| g.encodings().count()).collect();
        assert_eq!(groups, [1, 28, 2, 1, 3, 1, 4]);
    }
}
