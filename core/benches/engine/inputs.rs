//! The benchmark inputs: for each encoding, realistic text in its script,
//! pure ASCII, and realistic text with about 1% of its bytes in errors,
//! generated from the sample paragraphs; and real text from files in the
//! encoding's languages (see `real`), as it is and with about 1% of its
//! bytes in errors.

use std::fmt::Write as _;

use mojiscope_core::Encoding;

use crate::{real, samples};

/// Bytes of text each input aims at.
pub const INPUT_SIZE: usize = 512 * 1024;

/// What an input is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// The encoding's languages in HTML-like markup with attributes,
    /// digits and punctuation, as web pages and documents mix them.
    Realistic,
    /// The same markup around English text: every byte ASCII.
    Ascii,
    /// Realistic, with about 1% of the bytes in errors.
    Invalid,
    /// About 2 MB of real text in the encoding's languages.
    Real,
    /// Real, with about 1% of the bytes in errors.
    RealInvalid,
}

impl InputKind {
    pub const ALL: [InputKind; 5] = [
        InputKind::Realistic,
        InputKind::Ascii,
        InputKind::Invalid,
        InputKind::Real,
        InputKind::RealInvalid,
    ];

    pub fn name(self) -> &'static str {
        match self {
            InputKind::Realistic => "realistic",
            InputKind::Ascii => "ASCII",
            InputKind::Invalid => "1% invalid",
            InputKind::Real => "real",
            InputKind::RealInvalid => "real, 1% invalid",
        }
    }

    /// Whether the input is text in the encoding's script (not ASCII only).
    pub fn is_native(self) -> bool {
        self != InputKind::Ascii
    }

    /// Whether about 1% of the input's bytes are errors.
    pub fn has_errors(self) -> bool {
        matches!(self, InputKind::Invalid | InputKind::RealInvalid)
    }
}

/// One benchmark input.
pub struct Input {
    /// The bytes to decode.
    pub bytes: Vec<u8>,
    /// What `encoding_rs` decodes them to: the text to encode.
    pub text: String,
}

/// `encoding_rs`'s encoding of the same name.
pub fn baseline(encoding: &Encoding) -> &'static encoding_rs::Encoding {
    encoding_rs::Encoding::for_label(encoding.name().as_bytes())
        .expect("encoding_rs knows every encoding by its name")
}

/// The languages whose text an encoding is used for.
fn languages(encoding: &Encoding) -> &'static [&'static str] {
    match encoding.name() {
        "UTF-8" | "UTF-16BE" | "UTF-16LE" => &[
            "English",
            "French",
            "Russian",
            "Greek",
            "Chinese (simplified)",
            "Japanese",
            "Korean",
            "Arabic",
            "Thai",
        ],
        "IBM866" | "ISO-8859-5" | "KOI8-R" | "windows-1251" | "x-mac-cyrillic" => &["Russian"],
        "KOI8-U" => &["Ukrainian"],
        "ISO-8859-2" | "windows-1250" => &["Polish", "Czech"],
        "ISO-8859-3" => &["Maltese"],
        "ISO-8859-4" | "ISO-8859-13" | "windows-1257" => &["Lithuanian", "Latvian", "Estonian"],
        "ISO-8859-6" | "windows-1256" => &["Arabic"],
        "ISO-8859-7" | "windows-1253" => &["Greek"],
        "ISO-8859-8" | "ISO-8859-8-I" | "windows-1255" => &["Hebrew"],
        "ISO-8859-10" => &["Icelandic"],
        "ISO-8859-14" => &["Welsh"],
        "ISO-8859-16" => &["Romanian"],
        "windows-1254" => &["Turkish"],
        "windows-1258" => &["Vietnamese"],
        "windows-874" => &["Thai"],
        "GBK" | "gb18030" => &["Chinese (simplified)"],
        "Big5" => &["Chinese (traditional)"],
        "EUC-JP" | "ISO-2022-JP" | "Shift_JIS" => &["Japanese"],
        "EUC-KR" => &["Korean"],
        // windows-1252, ISO-8859-15, macintosh.
        _ => &["French", "German", "Spanish"],
    }
}

/// The characters of `paragraph` that `encoding` can encode.
fn encodable(encoding: &'static encoding_rs::Encoding, paragraph: &str) -> String {
    let mut encoder = encoding.new_encoder();
    let mut buffer = [0; 16];
    paragraph
        .chars()
        .filter(|&c| {
            let (_, _, _, unmappable) =
                encoder.encode_from_utf8(c.encode_utf8(&mut [0; 4]), &mut buffer, true);
            !unmappable
        })
        .collect()
}

/// Text for `encoding`: its languages' paragraphs (English only for
/// `ascii_only`) in HTML-like markup with numbers, keeping only characters
/// the encoding can encode.
fn text(encoding: &'static Encoding, ascii_only: bool) -> String {
    let theirs = baseline(encoding).output_encoding();
    let languages: &[&str] = if ascii_only {
        &["English"]
    } else {
        languages(encoding)
    };
    let paragraphs: Vec<String> = languages
        .iter()
        .map(|&language| {
            let (_, paragraph) = samples::SAMPLES
                .iter()
                .find(|(name, _)| *name == language)
                .expect("a sample for every language");
            encodable(theirs, paragraph)
        })
        .collect();
    let mut text = String::with_capacity(INPUT_SIZE + 4096);
    let mut n = 0u32;
    while text.len() < INPUT_SIZE {
        for paragraph in &paragraphs {
            n += 1;
            let _ = write!(text, "<p class=\"item-{n}\" data-id=\"{}\">", n * 37 % 1000);
            text.push_str(paragraph);
            let _ = writeln!(
                text,
                " ({}.{:02}, 2026-11-{:02})</p>",
                n % 97,
                n % 100,
                n % 28 + 1
            );
        }
    }
    text
}

/// x-user-defined exists to carry binary data through text APIs: its
/// realistic input is bytes of every value, with ASCII as common as in
/// typical binary files (about half).
fn binary(len: usize) -> Vec<u8> {
    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let byte = (state >> 24) as u8;
            if state & 1 == 0 { byte & 0x7F } else { byte }
        })
        .collect()
}

/// A byte that is an error wherever it appears, if `encoding` has one: the
/// first that decodes to an error on its own and also after an ASCII byte.
fn invalid_byte(encoding: &'static Encoding) -> Option<u8> {
    let theirs = baseline(encoding);
    (0x80..=0xFF_u8).rev().find(|&byte| {
        theirs
            .decode_without_bom_handling_and_without_replacement(&[b'a', byte, b'a'])
            .is_none()
    })
}

/// The input of `kind` for `encoding`, or `None` where it cannot exist: the
/// replacement encoding decodes nothing, in encodings where every byte
/// decodes on its own to a code point no byte is invalid, and there is no
/// real text for x-user-defined (binary data) nor where the development set
/// is missing.
pub fn input(encoding: &'static Encoding, kind: InputKind) -> Option<Input> {
    if encoding.name() == "replacement" {
        return None;
    }
    let theirs = baseline(encoding);
    let mut bytes = if encoding.name() == "x-user-defined" {
        match kind {
            InputKind::Real | InputKind::RealInvalid => return None,
            InputKind::Ascii => theirs.encode(&text(encoding, true)).0.into_owned(),
            InputKind::Realistic | InputKind::Invalid => binary(INPUT_SIZE),
        }
    } else {
        let text = match kind {
            InputKind::Realistic | InputKind::Invalid => text(encoding, false),
            InputKind::Ascii => text(encoding, true),
            InputKind::Real | InputKind::RealInvalid => real::text(encoding)?,
        };
        match encoding.name() {
            "UTF-16BE" => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
            "UTF-16LE" => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
            _ => theirs.output_encoding().encode(&text).0.into_owned(),
        }
    };
    if kind.has_errors() {
        match encoding.name() {
            // A lone trailing surrogate in every 100th code unit: 1% of the
            // bytes are in errors.
            "UTF-16BE" | "UTF-16LE" => {
                let big_endian = encoding.name() == "UTF-16BE";
                for unit in bytes.chunks_exact_mut(2).step_by(100) {
                    unit.copy_from_slice(&if big_endian {
                        0xDC00_u16.to_be_bytes()
                    } else {
                        0xDC00_u16.to_le_bytes()
                    });
                }
            }
            _ => {
                let bad = invalid_byte(encoding)?;
                for byte in bytes.iter_mut().step_by(100) {
                    *byte = bad;
                }
            }
        }
    }
    let text = theirs.decode_without_bom_handling(&bytes).0.into_owned();
    Some(Input { bytes, text })
}
