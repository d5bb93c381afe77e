//! What a file declares of its own encoding, found exactly as the standards
//! say:
//!
//! - an XML declaration at the very start (`<?xml version="1.0"
//!   encoding="…"?>`), read with the HTML Standard's
//!   [get an XML encoding](https://html.spec.whatwg.org/multipage/parsing.html#get-an-xml-encoding),
//!   and, in UTF-16 without a byte order mark, recognised by the prescan's
//!   own step 2;
//! - `<meta charset>` and `<meta http-equiv="Content-Type" content="…">`, with
//!   the HTML Standard's
//!   [prescan a byte stream to determine its encoding](https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding)
//!   over the first 1024 bytes, and its
//!   [algorithm for extracting a character encoding from a meta element](https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element);
//! - `@charset "…";` at the very start of a style sheet, as CSS Syntax's
//!   [determine the fallback encoding](https://drafts.csswg.org/css-syntax/#determine-the-fallback-encoding)
//!   says.
//!
//! Each label goes through the Encoding Standard's "get an encoding"
//! ([`Encoding::for_label`]); a label it does not know declares nothing. As
//! the HTML Standard says, a declared UTF-16BE or UTF-16LE is read as UTF-8
//! (a document that can declare anything in ASCII is not UTF-16) and, in a
//! `<meta>`, x-user-defined as windows-1252.
//!
//! Which declaration counts when a file has several: a document that starts
//! with an XML declaration is an XML document, and the XML specification
//! (section 4.3.3) makes that declaration the one its processor reads; the
//! prescan of the HTML Standard falls back on it too when no `<meta>`
//! declares anything. Otherwise the prescan's `<meta>`, otherwise a CSS
//! `@charset`.

use std::fmt;

use crate::bom::bom_sniff;
use crate::encoding::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

/// How many bytes the prescan and CSS's `@charset` rule look at: the HTML
/// Standard encourages user agents to prescan only the first 1024 bytes,
/// and CSS Syntax reads `@charset` within them.
pub const PRESCAN_BYTES: usize = 1024;

/// An encoding a file declares of itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// The encoding the label names, after the standards' substitutions
    /// (UTF-16BE/LE read as UTF-8; x-user-defined in a `<meta>` as
    /// windows-1252).
    pub encoding: &'static Encoding,
    /// The label as the file writes it, without the ASCII whitespace around
    /// it that "get an encoding" ignores. For an XML declaration in UTF-16,
    /// the label read as UTF-16 (empty if the declaration has none).
    pub label: String,
    /// Where the declaration is.
    pub source: DeclarationSource,
    /// The offset of the label's first byte in the file. The label takes
    /// `label.len()` bytes from there (twice that in UTF-16).
    pub byte_offset: u64,
}

/// Where a declaration was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeclarationSource {
    /// A `<meta charset>` or `<meta http-equiv="Content-Type" content>`,
    /// found by the HTML Standard's prescan.
    HtmlMeta,
    /// The encoding declaration of an XML declaration at the start.
    XmlDeclaration,
    /// A CSS `@charset` rule at the start.
    CssCharset,
}

impl DeclarationSource {
    /// A short identifier: `html-meta`, `xml-declaration` or `css-charset`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::HtmlMeta => "html-meta",
            Self::XmlDeclaration => "xml-declaration",
            Self::CssCharset => "css-charset",
        }
    }
}

impl fmt::Display for DeclarationSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::HtmlMeta => "<meta>",
            Self::XmlDeclaration => "the XML declaration",
            Self::CssCharset => "@charset",
        })
    }
}

impl fmt::Display for Declaration {
    /// "declared ISO-8859-1 in <meta> at byte 52", with the encoding it
    /// stands for when that is not the label's own name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "declared {} in {} at byte {}",
            self.label, self.source, self.byte_offset
        )?;
        if !self.label.eq_ignore_ascii_case(self.encoding.name()) {
            write!(f, " (read as {})", self.encoding)?;
        }
        Ok(())
    }
}

/// What `bytes` declare of their own encoding, if anything: an XML
/// declaration at the start, else a `<meta>` the HTML Standard's prescan
/// finds, else a CSS `@charset` rule at the start.
///
/// ```
/// use mojiscope_core::{declared, DeclarationSource, WINDOWS_1252};
///
/// let page = b"<!DOCTYPE html><html><head><meta charset=\"ISO-8859-1\">";
/// let declaration = declared(page).ok_or("a declaration")?;
/// assert_eq!(declaration.encoding, WINDOWS_1252);
/// assert_eq!(declaration.label, "ISO-8859-1");
/// assert_eq!(declaration.source, DeclarationSource::HtmlMeta);
/// assert_eq!(declaration.byte_offset, 42);
/// assert_eq!(declaration.to_string(), "declared ISO-8859-1 in <meta> at byte 42 (read as windows-1252)");
/// Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn declared(bytes: &[u8]) -> Option<Declaration> {
    // A byte order mark decides the decode before any declaration is read
    // (the Encoding Standard's decode); what the file declares after it is
    // still reported.
    let skip = bom_sniff(bytes).map_or(0, |bom| if bom == UTF_8 { 3 } else { 2 });
    let rest = &bytes[skip..];
    let input = &rest[..rest.len().min(PRESCAN_BYTES)];
    let mut declaration = utf16_xml_declaration(input)
        .or_else(|| xml_encoding(input))
        .or_else(|| prescan(rest))
        .or_else(|| css_charset(rest))?;
    declaration.byte_offset += skip as u64;
    Some(declaration)
}

/// The HTML Standard's "prescan a byte stream to determine its encoding"
/// over the first [`PRESCAN_BYTES`] bytes: the encoding a `<meta>` declares,
/// or, when the prescan finds none and runs out of bytes, what "get an XML
/// encoding" finds.
pub fn prescan(bytes: &[u8]) -> Option<Declaration> {
    // The end condition: the first 1024 bytes are all the stream there is.
    let input = &bytes[..bytes.len().min(PRESCAN_BYTES)];
    // Running out of bytes aborts the algorithm, which then returns "get an
    // XML encoding" of the bytes obtained so far.
    prescan_steps(input).or_else(|| xml_encoding(input))
}

/// The prescan's steps 1 to 4: the declaration a `<meta>` (or step 2's
/// UTF-16 XML declaration) makes, or `None` when the position goes past the
/// bytes, which aborts the algorithm. The loop has no other way out.
fn prescan_steps(input: &[u8]) -> Option<Declaration> {
    // Step 1: position points at the first byte.
    let mut scanner = Scanner { input, position: 0 };
    // Step 2: prescan for UTF-16 XML declarations.
    if let Some(declaration) = utf16_xml_declaration(input) {
        return Some(declaration);
    }
    // Step 3: loop.
    loop {
        let rest = input
            .get(scanner.position..)
            .filter(|rest| !rest.is_empty())?;
        let second = rest.get(1).copied();
        if rest.starts_with(b"<!--") {
            // Advance to the first 0x3E that is preceded by two 0x2D bytes
            // and comes after the 0x3C (the dashes may be those of "<!--").
            let after = scanner.position + 2;
            scanner.position =
                (after..input.len()).find(|&i| input[i] == b'>' && input[i - 2..i] == *b"--")?;
        } else if rest.len() >= 6
            && rest[..5].eq_ignore_ascii_case(b"<meta")
            && matches!(rest[5], 0x09 | 0x0A | 0x0C | 0x0D | 0x20 | 0x2F)
        {
            if let Some(declaration) = scanner.meta().ok()? {
                return Some(declaration);
            }
        } else if rest[0] == b'<'
            && (second.is_some_and(|b| b.is_ascii_alphabetic())
                || (second == Some(b'/') && rest.get(2).is_some_and(u8::is_ascii_alphabetic)))
        {
            scanner.other_tag().ok()?;
        } else if rest[0] == b'<' && matches!(second, Some(b'!' | b'/' | b'?')) {
            // Advance to the first 0x3E after the 0x3C.
            scanner.position += rest.iter().position(|&b| b == b'>')?;
        }
        // Any other byte: do nothing with it.
        // Step 4: next byte.
        scanner.position += 1;
    }
}

/// The position went past the end of the bytes.
struct OutOfBytes;

/// An attribute "get an attribute" found: its name and value, lowercased
/// as the algorithm does, and where the value's bytes start.
struct Attribute {
    name: Vec<u8>,
    value: Vec<u8>,
    value_start: usize,
}

/// The charset a `<meta>`'s attributes declare so far (the prescan's
/// `charset`, which starts as null and may become failure).
enum Charset {
    Null,
    Failure,
    Found {
        encoding: &'static Encoding,
        /// The label's bytes in the input.
        label: std::ops::Range<usize>,
    },
}

struct Scanner<'a> {
    input: &'a [u8],
    position: usize,
}

fn is_space(byte: u8) -> bool {
    matches!(byte, 0x09 | 0x0A | 0x0C | 0x0D | 0x20)
}

impl Scanner<'_> {
    fn byte(&self) -> Result<u8, OutOfBytes> {
        self.input.get(self.position).copied().ok_or(OutOfBytes)
    }

    /// The steps for a `<meta` followed by a space or slash. `Ok(None)`:
    /// go on with "next byte".
    fn meta(&mut self) -> Result<Option<Declaration>, OutOfBytes> {
        // Step 1: advance to the space or slash after "<meta".
        self.position += 5;
        // Steps 2 to 5.
        let mut attribute_list: Vec<Vec<u8>> = Vec::new();
        let mut got_pragma = false;
        let mut need_pragma: Option<bool> = None;
        let mut charset = Charset::Null;
        // Step 6: attributes.
        while let Some(attribute) = self.get_attribute()? {
            // Step 7: an attribute whose name was seen is ignored.
            if attribute_list.contains(&attribute.name) {
                continue;
            }
            // Step 8.
            attribute_list.push(attribute.name.clone());
            // Step 9.
            match attribute.name.as_slice() {
                b"http-equiv" if attribute.value == b"content-type" => got_pragma = true,
                b"content" => {
                    if let (Some((encoding, label)), Charset::Null) =
                        (extract_from_meta_content(&attribute.value), &charset)
                    {
                        let start = attribute.value_start + label.start;
                        charset = Charset::Found {
                            encoding,
                            label: start..start + label.len(),
                        };
                        need_pragma = Some(true);
                    }
                }
                b"charset" => {
                    // "get an encoding" from the whole value.
                    charset = match Encoding::for_label(&attribute.value) {
                        Some(encoding) => {
                            let label = trimmed(&attribute.value);
                            let start = attribute.value_start + label.start;
                            Charset::Found {
                                encoding,
                                label: start..start + label.len(),
                            }
                        }
                        None => Charset::Failure,
                    };
                    need_pragma = Some(false);
                }
                _ => {}
            }
            // Step 10: return to "attributes".
        }
        // Step 11: processing.
        let Some(need_pragma) = need_pragma else {
            return Ok(None);
        };
        // Step 12.
        if need_pragma && !got_pragma {
            return Ok(None);
        }
        // Step 13.
        let Charset::Found { encoding, label } = charset else {
            return Ok(None);
        };
        // Steps 14 and 15.
        let encoding = if encoding == UTF_16BE || encoding == UTF_16LE {
            UTF_8
        } else if encoding == X_USER_DEFINED {
            WINDOWS_1252
        } else {
            encoding
        };
        // Step 16: return charset.
        Ok(Some(Declaration {
            encoding,
            label: String::from_utf8_lossy(&self.input[label.clone()]).into_owned(),
            source: DeclarationSource::HtmlMeta,
            byte_offset: label.start as u64,
        }))
    }

    /// The steps for any other tag: skip its name and its attributes.
    fn other_tag(&mut self) -> Result<(), OutOfBytes> {
        // Step 1: advance to the next space or ">".
        while !matches!(self.byte()?, 0x09 | 0x0A | 0x0C | 0x0D | 0x20 | 0x3E) {
            self.position += 1;
        }
        // Step 2: get attributes until none is found, then "next byte".
        while self.get_attribute()?.is_some() {}
        Ok(())
    }

    /// The prescan's "get an attribute": `Ok(None)` when there is none.
    fn get_attribute(&mut self) -> Result<Option<Attribute>, OutOfBytes> {
        // Step 1: skip spaces and slashes.
        while matches!(self.byte()?, 0x09 | 0x0A | 0x0C | 0x0D | 0x20 | 0x2F) {
            self.position += 1;
        }
        // Step 2.
        if self.byte()? == b'>' {
            return Ok(None);
        }
        // Step 3: the start of the name.
        let mut name = Vec::new();
        let no_value = |name: Vec<u8>, position: usize| Attribute {
            name,
            value: Vec::new(),
            value_start: position,
        };
        // Steps 4 and 5: the name.
        loop {
            match self.byte()? {
                b'=' if !name.is_empty() => {
                    self.position += 1;
                    return self.attribute_value(name).map(Some);
                }
                0x09 | 0x0A | 0x0C | 0x0D | 0x20 => break,
                b'/' | b'>' => return Ok(Some(no_value(name, self.position))),
                byte => name.push(byte.to_ascii_lowercase()),
            }
            self.position += 1;
        }
        // Step 6: spaces.
        while is_space(self.byte()?) {
            self.position += 1;
        }
        // Step 7.
        if self.byte()? != b'=' {
            return Ok(Some(no_value(name, self.position)));
        }
        // Step 8.
        self.position += 1;
        self.attribute_value(name).map(Some)
    }

    /// Steps 9 to 12 of "get an attribute": the value.
    fn attribute_value(&mut self, name: Vec<u8>) -> Result<Attribute, OutOfBytes> {
        // Step 9: value.
        while is_space(self.byte()?) {
            self.position += 1;
        }
        // Step 10.
        let first = self.byte()?;
        if first == b'"' || first == b'\'' {
            // Quote loop.
            self.position += 1;
            let value_start = self.position;
            let mut value = Vec::new();
            loop {
                let byte = self.byte()?;
                if byte == first {
                    self.position += 1;
                    return Ok(Attribute {
                        name,
                        value,
                        value_start,
                    });
                }
                value.push(byte.to_ascii_lowercase());
                self.position += 1;
            }
        }
        let value_start = self.position;
        if first == b'>' {
            return Ok(Attribute {
                name,
                value: Vec::new(),
                value_start,
            });
        }
        let mut value = vec![first.to_ascii_lowercase()];
        self.position += 1;
        // Steps 11 and 12.
        loop {
            let byte = self.byte()?;
            if matches!(byte, 0x09 | 0x0A | 0x0C | 0x0D | 0x20 | 0x3E) {
                return Ok(Attribute {
                    name,
                    value,
                    value_start,
                });
            }
            value.push(byte.to_ascii_lowercase());
            self.position += 1;
        }
    }
}

/// The range of `label` without the ASCII whitespace around it.
fn trimmed(label: &[u8]) -> std::ops::Range<usize> {
    let start = label
        .iter()
        .position(|&b| !is_space(b))
        .unwrap_or(label.len());
    let end = label
        .iter()
        .rposition(|&b| !is_space(b))
        .map_or(start, |last| last + 1);
    start..end.max(start)
}

/// The HTML Standard's "algorithm for extracting a character encoding from
/// a meta element", over a `content` attribute's value: the encoding and
/// the range of its label in the value, if it names one.
fn extract_from_meta_content(s: &[u8]) -> Option<(&'static Encoding, std::ops::Range<usize>)> {
    // Step 1.
    let mut position = 0;
    loop {
        // Step 2: loop. Find "charset", ASCII case-insensitively.
        let found = s
            .get(position..)?
            .windows(7)
            .position(|w| w.eq_ignore_ascii_case(b"charset"))?;
        position += found + 7;
        // Step 3: skip ASCII whitespace.
        while s.get(position).copied().is_some_and(is_space) {
            position += 1;
        }
        // Step 4: no "=": look again from just before that character.
        if s.get(position) == Some(&b'=') {
            position += 1;
            break;
        }
    }
    // Step 5: skip ASCII whitespace.
    while s.get(position).copied().is_some_and(is_space) {
        position += 1;
    }
    // Step 6.
    let &next = s.get(position)?;
    let label = if next == b'"' || next == b'\'' {
        // A quote with a later one: the substring between them; an
        // unmatched quote: nothing.
        let start = position + 1;
        let length = s[start..].iter().position(|&b| b == next)?;
        start..start + length
    } else {
        // Up to the first ASCII whitespace or ";", or the end.
        let length = s[position..]
            .iter()
            .position(|&b| is_space(b) || b == b';')
            .unwrap_or(s.len() - position);
        position..position + length
    };
    let encoding = Encoding::for_label(&s[label.clone()])?;
    let inner = trimmed(&s[label.clone()]);
    Some((encoding, label.start + inner.start..label.start + inner.end))
}

/// The HTML Standard's "get an XML encoding": the encoding an XML
/// declaration at the very start of `input` declares (the label isn't
/// required to be the declaration's pseudo-attribute, as in browsers).
fn xml_encoding(input: &[u8]) -> Option<Declaration> {
    // Steps 1 and 2: the input starts with "<?xml".
    if !input.starts_with(b"<?xml") {
        return None;
    }
    // Step 3: the declaration ends at the next ">".
    let end = input.iter().position(|&b| b == b'>')?;
    let declaration = &input[..end];
    // Step 4: the first "encoding" in it, then step 5: past it.
    let mut position = declaration.windows(8).position(|w| w == b"encoding")? + 8;
    // Step 6: skip bytes up to 0x20.
    while declaration.get(position).is_some_and(|&b| b <= 0x20) {
        position += 1;
    }
    // Step 7.
    if declaration.get(position) != Some(&b'=') {
        return None;
    }
    // Step 8, then step 9: skip bytes up to 0x20.
    position += 1;
    while declaration.get(position).is_some_and(|&b| b <= 0x20) {
        position += 1;
    }
    // Steps 10 and 11: a quotation mark.
    let quote = *declaration
        .get(position)
        .filter(|&&b| b == b'"' || b == b'\'')?;
    // Step 12.
    position += 1;
    // Step 13: the next quotation mark of the same kind.
    let length = declaration[position..].iter().position(|&b| b == quote)?;
    // Step 14.
    let label = &declaration[position..position + length];
    // Step 15: no byte up to 0x20 in it.
    if label.iter().any(|&b| b <= 0x20) {
        return None;
    }
    // Step 16: get an encoding; step 17: UTF-16 is read as UTF-8.
    let encoding = Encoding::for_label(label)?;
    let encoding = if encoding == UTF_16BE || encoding == UTF_16LE {
        UTF_8
    } else {
        encoding
    };
    Some(Declaration {
        encoding,
        label: String::from_utf8_lossy(label).into_owned(),
        source: DeclarationSource::XmlDeclaration,
        byte_offset: position as u64,
    })
}

/// Step 2 of the prescan: an XML declaration in UTF-16 ("<?x" in either
/// byte order, the encoding name not checked), and the label its
/// `encoding` pseudo-attribute gives, read as UTF-16 with "get an XML
/// encoding"'s steps.
fn utf16_xml_declaration(input: &[u8]) -> Option<Declaration> {
    let (encoding, odd) = if input.starts_with(&[0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00]) {
        (UTF_16LE, false)
    } else if input.starts_with(&[0x00, 0x3C, 0x00, 0x3F, 0x00, 0x78]) {
        (UTF_16BE, true)
    } else {
        return None;
    };
    // The code units that are ASCII, as bytes; anything else as 0xFF.
    let units: Vec<u8> = input
        .chunks_exact(2)
        .map(|pair| {
            let (high, low) = if odd {
                (pair[0], pair[1])
            } else {
                (pair[1], pair[0])
            };
            if high == 0 && low < 0x80 { low } else { 0xFF }
        })
        .collect();
    let (label, byte_offset) = match xml_encoding(&units) {
        Some(found) => (found.label, found.byte_offset * 2),
        None => (String::new(), 0),
    };
    Some(Declaration {
        encoding,
        label,
        source: DeclarationSource::XmlDeclaration,
        byte_offset,
    })
}

/// CSS Syntax's rule for `@charset`: the bytes start with `@charset "`,
/// then bytes other than `"` below 0x80, then `";`, all within the first
/// 1024 bytes; the bytes between the quotation marks are the label. A
/// UTF-16 label is read as UTF-8.
fn css_charset(bytes: &[u8]) -> Option<Declaration> {
    const START: &[u8] = b"@charset \"";
    let input = &bytes[..bytes.len().min(PRESCAN_BYTES)];
    let rest = input.strip_prefix(START)?;
    let length = rest.iter().position(|&b| b == b'"')?;
    let label = &rest[..length];
    if label.iter().any(|&b| b >= 0x80) || rest.get(length + 1) != Some(&b';') {
        return None;
    }
    let encoding = Encoding::for_label(label)?;
    let encoding = if encoding == UTF_16BE || encoding == UTF_16LE {
        UTF_8
    } else {
        encoding
    };
    Some(Declaration {
        encoding,
        label: String::from_utf8_lossy(label).into_owned(),
        source: DeclarationSource::CssCharset,
        byte_offset: START.len() as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::{ISO_8859_15, KOI8_R, WINDOWS_1251};

    /// The encoding, label and offset `declared` finds, and its source.
    fn found(bytes: &[u8]) -> Option<(&'static str, String, u64, DeclarationSource)> {
        declared(bytes).map(|d| (d.encoding.name(), d.label, d.byte_offset, d.source))
    }

    fn meta(bytes: &[u8]) -> Option<&'static str> {
        prescan(bytes).map(|d| d.encoding.name())
    }

    #[test]
    fn meta_charset_with_the_label_as_written() {
        let page = b"<html><head><meta charset=\"ISO-8859-1\">";
        let declaration = declared(page).expect("declared");
        assert_eq!(declaration.encoding.name(), "windows-1252");
        assert_eq!(declaration.label, "ISO-8859-1");
        assert_eq!(declaration.source, DeclarationSource::HtmlMeta);
        assert_eq!(declaration.byte_offset, 27);
        assert_eq!(&page[27..37], b"ISO-8859-1");
        // Unquoted, upper case, whitespace around the label, a slash.
        assert_eq!(meta(b"<META CHARSET=KOI8-R>"), Some("KOI8-R"));
        assert_eq!(
            found(b"<meta charset=\" koi8-r \">"),
            Some(("KOI8-R", "koi8-r".into(), 16, DeclarationSource::HtmlMeta))
        );
        assert_eq!(meta(b"<meta/charset=koi8-r>"), Some("KOI8-R"));
        assert_eq!(meta(b"<meta\ncharset = 'koi8-r'>"), Some("KOI8-R"));
    }

    #[test]
    fn http_equiv_content_type_needs_its_pragma() {
        let page =
            b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\">";
        assert_eq!(
            found(page),
            Some((
                "windows-1251",
                "windows-1251".into(),
                60,
                DeclarationSource::HtmlMeta
            ))
        );
        // The pragma may come after the content.
        assert_eq!(
            meta(b"<meta content='text/html;charset=koi8-r' http-equiv=content-type>"),
            Some("KOI8-R")
        );
        // No pragma, or another one: nothing.
        assert_eq!(meta(b"<meta content=\"text/html; charset=koi8-r\">"), None);
        assert_eq!(
            meta(b"<meta http-equiv=refresh content=\"text/html; charset=koi8-r\">"),
            None
        );
        // A repeated attribute is ignored: the first http-equiv counts.
        assert_eq!(
            meta(b"<meta http-equiv=content-type http-equiv=refresh content=\"charset=koi8-r\">"),
            Some("KOI8-R")
        );
    }

    #[test]
    fn the_charset_attribute_wins_and_the_first_one_counts() {
        assert_eq!(
            meta(b"<meta charset=windows-1251 charset=utf-8>"),
            Some("windows-1251")
        );
        assert_eq!(
            meta(b"<meta http-equiv=content-type content=\"charset=koi8-r\" charset=utf-8>"),
            Some("UTF-8")
        );
        // An unknown label in charset makes the element declare nothing
        // (charset is failure, not null, so content cannot set it), and
        // the prescan goes on to the next <meta>.
        assert_eq!(
            meta(b"<meta charset=bogus http-equiv=content-type content=\"charset=koi8-r\"><meta charset=iso-8859-15>"),
            Some("ISO-8859-15")
        );
        assert_eq!(
            meta(b"<meta charset=bogus><meta charset=utf-8>"),
            Some("UTF-8")
        );
        assert_eq!(meta(b"<meta charset=\"\">"), None);
    }

    #[test]
    fn utf16_and_x_user_defined_are_read_as_the_standard_says() {
        let declaration = declared(b"<meta charset=utf-16le>").expect("declared");
        assert_eq!(declaration.encoding, UTF_8);
        assert_eq!(declaration.label, "utf-16le");
        assert_eq!(
            declaration.to_string(),
            "declared utf-16le in <meta> at byte 14 (read as UTF-8)"
        );
        assert_eq!(meta(b"<meta charset=unicode>"), Some("UTF-8"));
        assert_eq!(meta(b"<meta charset=x-user-defined>"), Some("windows-1252"));
        assert_eq!(
            declared(b"<meta charset=utf-8>").map(|d| d.to_string()),
            Some("declared utf-8 in <meta> at byte 14".to_owned())
        );
    }

    #[test]
    fn comments_and_other_markup_are_skipped() {
        assert_eq!(
            meta(b"<!-- <meta charset=koi8-r> --><meta charset=utf-8>"),
            Some("UTF-8")
        );
        // "<!-->" and "<!--->" are whole comments: the dashes of "<!--" count.
        assert_eq!(meta(b"<!--><meta charset=koi8-r>"), Some("KOI8-R"));
        assert_eq!(meta(b"<!---><meta charset=koi8-r>-->"), Some("KOI8-R"));
        // An unterminated comment hides the rest.
        assert_eq!(meta(b"<!-- <meta charset=koi8-r>"), None);
        // Another tag's attribute values are skipped whole.
        assert_eq!(
            meta(b"<div title=\"<meta charset=koi8-r>\"><meta charset=utf-8>"),
            Some("UTF-8")
        );
        assert_eq!(meta(b"<metadata charset=koi8-r>"), None);
        assert_eq!(meta(b"</meta charset=koi8-r>"), None);
        // "<!", "</" and "<?" run to the next ">".
        assert_eq!(
            meta(b"<!DOCTYPE html><meta charset=koi8-r>"),
            Some("KOI8-R")
        );
        assert_eq!(
            meta(b"<? <meta charset=utf-8> <meta charset=koi8-r>"),
            Some("KOI8-R")
        );
        // Text is not markup.
        assert_eq!(
            meta(b"a < b and c <3 <meta charset=koi8-r>"),
            Some("KOI8-R")
        );
    }

    #[test]
    fn only_the_first_1024_bytes_are_prescanned() {
        let mut page = vec![b' '; 1010];
        page.extend_from_slice(b"<meta charset=koi8-r>");
        assert_eq!(meta(&page), None, "a <meta> across the end is not read");
        page.drain(..100);
        assert_eq!(meta(&page), Some("KOI8-R"));
        assert_eq!(declared(&page).map(|d| d.byte_offset), Some(924));
    }

    #[test]
    fn the_meta_content_algorithm() {
        let extract = |s: &[u8]| extract_from_meta_content(s).map(|(e, r)| (e.name(), r));
        assert_eq!(
            extract(b"text/html; charset=koi8-r"),
            Some(("KOI8-R", 19..25))
        );
        assert_eq!(extract(b"charset = \"koi8-r\""), Some(("KOI8-R", 11..17)));
        assert_eq!(extract(b"charset='koi8-r';x"), Some(("KOI8-R", 9..15)));
        assert_eq!(extract(b"charset=koi8-r;x"), Some(("KOI8-R", 8..14)));
        assert_eq!(extract(b"CHARSET=koi8-r x"), Some(("KOI8-R", 8..14)));
        // "charset" not followed by "=": look for the next one.
        assert_eq!(extract(b"charsetcharset=koi8-r"), Some(("KOI8-R", 15..21)));
        // An unmatched quote, nothing after "=", no "charset": nothing.
        assert_eq!(extract(b"charset=\"koi8-r"), None);
        assert_eq!(extract(b"charset="), None);
        assert_eq!(extract(b"charset"), None);
        assert_eq!(extract(b"text/html"), None);
        assert_eq!(extract(b"charset=bogus"), None);
    }

    #[test]
    fn xml_declarations() {
        let feed = b"<?xml version=\"1.0\" encoding=\"windows-1251\"?>\n<rss>";
        assert_eq!(
            found(feed),
            Some((
                "windows-1251",
                "windows-1251".into(),
                30,
                DeclarationSource::XmlDeclaration
            ))
        );
        assert_eq!(
            found(b"<?xml version='1.0' encoding = 'ISO-8859-15' ?>").map(|f| f.0),
            Some("ISO-8859-15")
        );
        // UTF-16 in a declaration whose bytes are ASCII is read as UTF-8.
        assert_eq!(
            found(b"<?xml version=\"1.0\" encoding=\"UTF-16\"?>").map(|f| f.0),
            Some("UTF-8")
        );
        // No encoding, a space in the label, an unknown label, not at the
        // start, no end: nothing.
        assert_eq!(found(b"<?xml version=\"1.0\"?><root/>"), None);
        assert_eq!(found(b"<?xml version=\"1.0\" encoding=\"utf 8\"?>"), None);
        assert_eq!(found(b"<?xml version=\"1.0\" encoding=\"bogus\"?>"), None);
        assert_eq!(found(b" <?xml version=\"1.0\" encoding=\"koi8-r\"?>"), None);
        assert_eq!(found(b"<?xml version=\"1.0\" encoding=\"koi8-r\""), None);
        // The declaration ends at its first ">".
        assert_eq!(
            found(b"<?xml version=\"1.0\"?><a encoding=\"koi8-r\"/>"),
            None
        );
    }

    #[test]
    fn an_xml_declaration_comes_before_a_meta() {
        let page = b"<?xml version=\"1.0\" encoding=\"koi8-r\"?><html><meta charset=\"utf-8\">";
        assert_eq!(declared(page).map(|d| d.encoding), Some(KOI8_R));
        // The prescan itself reads the <meta> first.
        assert_eq!(meta(page), Some("UTF-8"));
        // Without a <meta>, the prescan falls back on the XML declaration.
        assert_eq!(
            meta(b"<?xml version=\"1.0\" encoding=\"koi8-r\"?><p>"),
            Some("KOI8-R")
        );
    }

    #[test]
    fn utf16_xml_declarations() {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><a/>";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(
            found(&le),
            Some((
                "UTF-16LE",
                "UTF-16".into(),
                60,
                DeclarationSource::XmlDeclaration
            ))
        );
        assert_eq!(found(&be).map(|f| (f.0, f.2)), Some(("UTF-16BE", 60)));
        assert_eq!(
            &be[60..72],
            "UTF-16"
                .encode_utf16()
                .flat_map(u16::to_be_bytes)
                .collect::<Vec<_>>()
        );
        // The encoding name is not checked: "<?x" in UTF-16 is enough.
        let bare: Vec<u8> = "<?x".encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(
            found(&bare),
            Some((
                "UTF-16LE",
                String::new(),
                0,
                DeclarationSource::XmlDeclaration
            ))
        );
    }

    #[test]
    fn css_charset_rules() {
        assert_eq!(
            found(b"@charset \"iso-8859-15\";\nbody {}"),
            Some((
                "ISO-8859-15",
                "iso-8859-15".into(),
                10,
                DeclarationSource::CssCharset
            ))
        );
        assert_eq!(found(b"@charset \"utf-16\";").map(|f| f.0), Some("UTF-8"));
        // Exactly that form: one space, double quotes, a semicolon, at the start.
        assert_eq!(found(b"@charset 'koi8-r';"), None);
        assert_eq!(found(b"@charset  \"koi8-r\";"), None);
        assert_eq!(found(b"@CHARSET \"koi8-r\";"), None);
        assert_eq!(found(b"@charset \"koi8-r\""), None);
        assert_eq!(found(b" @charset \"koi8-r\";"), None);
        assert_eq!(found(b"@charset \"bogus\";"), None);
        assert_eq!(ISO_8859_15.name(), "ISO-8859-15");
    }

    #[test]
    fn a_bom_before_the_declaration_shifts_its_offset() {
        let page = b"\xEF\xBB\xBF<meta charset=windows-1251>";
        assert_eq!(
            declared(page).map(|d| (d.encoding, d.byte_offset)),
            Some((WINDOWS_1251, 17))
        );
    }

    #[test]
    fn nothing_declared_and_odd_input() {
        for bytes in [
            &b""[..],
            b"<",
            b"<m",
            b"<meta",
            b"<meta ",
            b"<meta charset",
            b"<meta charset=",
            b"<meta charset='koi8-r",
            b"<!--",
            b"<!-",
            b"plain text with no markup",
            b"\xFF\xFE\x00<\x00",
        ] {
            assert_eq!(found(bytes), None, "{bytes:?}");
        }
        // A <meta> cut at the end of the input is not read.
        assert_eq!(meta(b"<meta charset=koi8-r"), None);
    }
}
