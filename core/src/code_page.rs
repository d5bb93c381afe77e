//! Teaching aids over whole encodings: the code page of a single-byte
//! encoding, and a character's bytes in every encoding.

use crate::decoder::{BomHandling, DecodeErrorMode, Decoder};
use crate::encoding::{ALL, Encoding, X_USER_DEFINED};
use crate::provenance::{ByteSpan, DecodeErrorKind, DecodeSink, SkipReason};

/// The 256 bytes of a single-byte encoding (or x-user-defined) and the code
/// point each decodes to, as the encoding's decoder decodes it alone.
///
/// ```
/// use mojiscope_core::{CodePage, ISO_8859_15, WINDOWS_1252, WINDOWS_1253, UTF_8};
///
/// let windows_1252 = CodePage::new(WINDOWS_1252).ok_or("a single-byte encoding")?;
/// assert_eq!(windows_1252.code_point(0x80), Some('€'));
/// // ISO-8859-15 has € at 0xA4, and C1 controls at 0x80 to 0x9F where
/// // windows-1252 has 27 characters.
/// let iso_8859_15 = CodePage::new(ISO_8859_15).ok_or("a single-byte encoding")?;
/// let differ: Vec<u8> = windows_1252.differences(&iso_8859_15).collect();
/// assert_eq!(differ.len(), 27 + 8);
/// assert_eq!(iso_8859_15.code_point(0xA4), Some('€'));
/// // windows-1253 leaves 0xAA undefined: the decoder's error.
/// let windows_1253 = CodePage::new(WINDOWS_1253).ok_or("a single-byte encoding")?;
/// assert_eq!(windows_1253.code_point(0xAA), None);
/// assert!(CodePage::new(UTF_8).is_none());
/// Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodePage {
    encoding: &'static Encoding,
    code_points: [Option<char>; 256],
}

impl CodePage {
    /// The code page of `encoding`: each byte decoded on its own by the
    /// encoding's decoder. `None` unless `encoding` is one of the
    /// single-byte encodings or x-user-defined (the encodings where every
    /// byte is decoded alone).
    pub fn new(encoding: &'static Encoding) -> Option<CodePage> {
        if !encoding.is_single_byte() && encoding != X_USER_DEFINED {
            return None;
        }
        let mut code_points = [None; 256];
        for (byte, slot) in (0..=u8::MAX).zip(&mut code_points) {
            let mut decoder =
                Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
            let mut item = OneItem::default();
            let _ = decoder.decode(&[byte], true, &mut item);
            *slot = item.scalar;
        }
        Some(CodePage {
            encoding,
            code_points,
        })
    }

    /// The encoding.
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// The code point `byte` decodes to; `None` when the encoding leaves the
    /// byte undefined (its index has no code point for it, so it decodes as
    /// an error).
    pub fn code_point(&self, byte: u8) -> Option<char> {
        self.code_points[usize::from(byte)]
    }

    /// The bytes the encoding leaves undefined.
    pub fn undefined(&self) -> impl Iterator<Item = u8> + '_ {
        (0..=u8::MAX).filter(|&byte| self.code_point(byte).is_none())
    }

    /// The bytes that decode differently in `self` and `other` (a byte
    /// defined in one and not the other included).
    pub fn differences<'a>(&'a self, other: &'a CodePage) -> impl Iterator<Item = u8> + 'a {
        (0..=u8::MAX).filter(|&byte| self.code_point(byte) != other.code_point(byte))
    }
}

/// The scalar value of a decode that gives one item.
#[derive(Default)]
struct OneItem {
    scalar: Option<char>,
}

impl DecodeSink for OneItem {
    fn ascii(&mut self, run: &[u8], _start: u64) {
        self.scalar = run.first().copied().map(char::from);
    }

    fn scalar(&mut self, c: char, _span: ByteSpan) {
        self.scalar = Some(c);
    }

    fn scalar_pair(&mut self, _first: char, _second: char, _span: ByteSpan) {}

    fn error(&mut self, _kind: DecodeErrorKind, _span: ByteSpan) {}

    fn skip(&mut self, _reason: SkipReason, _span: ByteSpan) {}
}

/// A character's bytes in one encoding: what its encoder writes for the
/// character alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CharacterBytes {
    /// The encoding.
    pub encoding: &'static Encoding,
    /// The bytes. For ISO-2022-JP they include the escape sequences around
    /// the character; where the encoding cannot encode it, they are what
    /// html mode writes, `&#N;`.
    pub bytes: Vec<u8>,
    /// Whether the encoding can encode the character.
    pub encodable: bool,
}

/// "Where is this character?": `c`'s bytes in every encoding that has an
/// encoder, in the standard's order, each from that encoder (html mode).
///
/// ```
/// use mojiscope_core::{character_bytes, SHIFT_JIS, WINDOWS_1252};
///
/// let all = character_bytes('あ');
/// let shift_jis = all.iter().find(|found| found.encoding == SHIFT_JIS).ok_or("Shift_JIS")?;
/// assert_eq!((shift_jis.bytes.as_slice(), shift_jis.encodable), (&b"\x82\xA0"[..], true));
/// let windows_1252 = all.iter().find(|found| found.encoding == WINDOWS_1252).ok_or("windows-1252")?;
/// assert_eq!((windows_1252.bytes.as_slice(), windows_1252.encodable), (&b"&#12354;"[..], false));
/// Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn character_bytes(c: char) -> Vec<CharacterBytes> {
    let mut buffer = [0; 4];
    let text = c.encode_utf8(&mut buffer);
    ALL.iter()
        .filter(|encoding| encoding.has_encoder())
        .map(|&encoding| {
            let (bytes, _, unmappable) = encoding.encode(text);
            CharacterBytes {
                encoding,
                bytes,
                encodable: unmappable.is_empty(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::{
        EUC_JP, GB18030, GBK, ISO_2022_JP, ISO_8859_8, ISO_8859_15, KOI8_R, KOI8_U, SHIFT_JIS,
        UTF_8, WINDOWS_1252, WINDOWS_1253, WINDOWS_1255,
    };

    #[test]
    fn code_pages_of_the_single_byte_encodings() {
        let mut count = 0;
        for &encoding in &ALL {
            let Some(page) = CodePage::new(encoding) else {
                assert!(!encoding.is_single_byte() && encoding != X_USER_DEFINED);
                continue;
            };
            count += 1;
            assert_eq!(page.encoding(), encoding);
            // ASCII is ASCII in every one.
            for byte in 0..0x80 {
                assert_eq!(page.code_point(byte), Some(char::from(byte)));
            }
            // Each byte decodes, in a longer text too, as the page says.
            let bytes: Vec<u8> = (0..=u8::MAX).collect();
            let text = encoding
                .decode_with_bom_handling(&bytes, BomHandling::None)
                .text;
            let expected: String = (0..=u8::MAX)
                .map(|byte| page.code_point(byte).unwrap_or(char::REPLACEMENT_CHARACTER))
                .collect();
            assert_eq!(text, expected, "{encoding}");
        }
        assert_eq!(count, 29, "28 single-byte encodings and x-user-defined");
        assert!(CodePage::new(UTF_8).is_none());
        assert!(CodePage::new(SHIFT_JIS).is_none());
    }

    #[test]
    fn pages_compared() {
        // From the standard's index files: KOI8-U puts Ukrainian letters
        // where KOI8-R has box drawing (є і ї ґ ў and their capitals).
        let koi8_r = CodePage::new(KOI8_R).unwrap();
        let koi8_u = CodePage::new(KOI8_U).unwrap();
        assert_eq!(
            koi8_r.differences(&koi8_u).collect::<Vec<_>>(),
            [0xA4, 0xA6, 0xA7, 0xAD, 0xAE, 0xB4, 0xB6, 0xB7, 0xBD, 0xBE]
        );
        assert_eq!(koi8_u.code_point(0xA4), Some('є'));
        assert_eq!(koi8_r.code_point(0xA4), Some('╓'));
        // windows-1252 against ISO-8859-15: the 27 characters of 0x80 to
        // 0x9F (its other five are C1 controls, as in ISO-8859-15) and the
        // eight ISO-8859-15 changed from ISO-8859-1.
        let windows_1252 = CodePage::new(WINDOWS_1252).unwrap();
        let iso_8859_15 = CodePage::new(ISO_8859_15).unwrap();
        let differ: Vec<u8> = windows_1252.differences(&iso_8859_15).collect();
        assert_eq!(differ.len(), 35);
        assert!(!differ.contains(&0x81) && !differ.contains(&0x9D));
        assert_eq!(
            differ
                .iter()
                .filter(|&&byte| byte >= 0xA0)
                .copied()
                .collect::<Vec<_>>(),
            [0xA4, 0xA6, 0xA8, 0xB4, 0xB8, 0xBC, 0xBD, 0xBE]
        );
        // Undefined bytes, and a byte undefined in one page only.
        let windows_1253 = CodePage::new(WINDOWS_1253).unwrap();
        assert_eq!(
            windows_1253.undefined().collect::<Vec<_>>(),
            [0xAA, 0xD2, 0xFF]
        );
        let iso_8859_8 = CodePage::new(ISO_8859_8).unwrap();
        let windows_1255 = CodePage::new(WINDOWS_1255).unwrap();
        assert_eq!(iso_8859_8.undefined().count(), 36);
        assert_eq!(iso_8859_8.differences(&windows_1255).count(), 49);
        assert_eq!(iso_8859_8.code_point(0xA1), None);
        assert_eq!(windows_1255.code_point(0xA1), Some('¡'));
        // x-user-defined: 0xF780 + byte − 0x80.
        let x_user_defined = CodePage::new(X_USER_DEFINED).unwrap();
        assert_eq!(x_user_defined.code_point(0x80), Some('\u{F780}'));
        assert_eq!(x_user_defined.undefined().count(), 0);
    }

    #[test]
    fn where_is_a_character() {
        let bytes_in = |c: char, encoding: &'static Encoding| {
            let found = character_bytes(c);
            let entry = found
                .iter()
                .find(|entry| entry.encoding == encoding)
                .unwrap();
            (entry.bytes.clone(), entry.encodable)
        };
        // 37 encodings have an encoder (all but replacement and UTF-16BE/LE).
        assert_eq!(character_bytes('a').len(), 37);
        assert!(
            character_bytes('a')
                .iter()
                .all(|entry| entry.bytes == b"a" && entry.encodable)
        );
        // あ is pointer 283 of index jis0208: 0x82 0xA0 in Shift_JIS,
        // 0xA4 0xA2 in EUC-JP and 0x24 0x22 between escape sequences in
        // ISO-2022-JP.
        assert_eq!(bytes_in('あ', SHIFT_JIS), (b"\x82\xA0".to_vec(), true));
        assert_eq!(bytes_in('あ', EUC_JP), (b"\xA4\xA2".to_vec(), true));
        assert_eq!(
            bytes_in('あ', ISO_2022_JP),
            (b"\x1B$B\x24\x22\x1B(B".to_vec(), true)
        );
        assert_eq!(bytes_in('あ', UTF_8), ("あ".as_bytes().to_vec(), true));
        assert_eq!(bytes_in('あ', WINDOWS_1252), (b"&#12354;".to_vec(), false));
        // € is one byte in windows-1252 and GBK, two in gb18030.
        assert_eq!(bytes_in('€', WINDOWS_1252), (b"\x80".to_vec(), true));
        assert_eq!(bytes_in('€', GBK), (b"\x80".to_vec(), true));
        assert_eq!(bytes_in('€', GB18030), (b"\xA2\xE3".to_vec(), true));
        // gb18030 encodes every scalar value; GBK has no four-byte sequences.
        // U+1F600 is pointer 189000 + 0xF600 = 251976 = 19 × 12600 + 9 × 1260
        // + 123 × 10 + 6: 0x94 0x39 0xFC 0x36.
        assert_eq!(
            bytes_in('😀', GB18030),
            (b"\x94\x39\xFC\x36".to_vec(), true)
        );
        assert_eq!(bytes_in('😀', GBK), (b"&#128512;".to_vec(), false));
        // Whatever an encoder writes for a character decodes back to it
        // (for these characters, which have no one-way mappings).
        for c in ['é', 'あ', '€', 'Ж', '가', '😀'] {
            for entry in character_bytes(c)
                .into_iter()
                .filter(|entry| entry.encodable)
            {
                let decoded = entry
                    .encoding
                    .decode_with_bom_handling(&entry.bytes, BomHandling::None);
                assert_eq!(decoded.text, c.to_string(), "{c} in {}", entry.encoding);
            }
        }
    }
}
