//! Real text for the benchmark: files in legacy encodings from public
//! repositories (translations, tutorials, manuals, web pages), from the
//! labelled development set kept beside the repository in
//! `../shared/data/detect-dev` (its README gives each file's source and
//! licence; nothing of it is copied into the repository).
//!
//! Each encoding gets about [`REAL_SIZE`] bytes of the text of the files in
//! the languages it is used for, whatever encoding they are stored in,
//! taken from each file in turn a piece at a time, so that every file
//! counts and none swamps the rest; characters the encoding cannot encode
//! are left out. UTF-8 and UTF-16 get a piece of every file.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use mojiscope_core::Encoding;

use crate::inputs::baseline;

/// Bytes of encoded text each real input aims at.
pub const REAL_SIZE: usize = 2_000_000;

/// Bytes of text taken from one file at a time.
const PIECE: usize = 8 * 1024;

/// Where the development set is.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/detect-dev")
}

/// One file of the set: its language, the folder (encoding) it is stored
/// in, and its text.
pub struct RealFile {
    language: String,
    folder: String,
    text: String,
}

/// Every file of the set, decoded, in the manifest's order; empty when the
/// set is not there.
pub fn files() -> &'static [RealFile] {
    static FILES: OnceLock<Vec<RealFile>> = OnceLock::new();
    FILES.get_or_init(read_files)
}

fn read_files() -> Vec<RealFile> {
    let dir = data_dir();
    let Ok(manifest) = std::fs::read_to_string(dir.join("MANIFEST.tsv")) else {
        return Vec::new();
    };
    manifest
        .lines()
        .skip(1)
        .filter_map(|line| {
            let mut fields = line.split('\t');
            let (path, label, language) = (fields.next()?, fields.next()?, fields.next()?);
            let bytes = std::fs::read(dir.join(path)).ok()?;
            let encoding = encoding_rs::Encoding::for_label(label.as_bytes())?;
            // The standard's "decode": the UTF-16 files begin with a byte
            // order mark, which is not text.
            let (text, _, _) = encoding.decode(&bytes);
            Some(RealFile {
                language: language.to_owned(),
                folder: label.to_owned(),
                text: text.into_owned(),
            })
        })
        .collect()
}

/// Whether `file` is in a language `encoding` is used for.
fn is_for(encoding: &Encoding, file: &RealFile) -> bool {
    let language = file.language.as_str();
    let folder = file.folder.as_str();
    let in_any = |languages: &[&str]| languages.contains(&language);
    match encoding.name() {
        "UTF-8" | "UTF-16BE" | "UTF-16LE" => true,
        "windows-1252" | "ISO-8859-15" | "macintosh" => in_any(&[
            "af", "ca", "da", "de", "es", "fi", "fr", "is", "it", "nb", "nl", "no", "pt", "sv",
        ]),
        "ISO-8859-2" | "windows-1250" => in_any(&["cs", "hr", "hu", "pl", "sk", "sl"]),
        "ISO-8859-16" => in_any(&["ro", "hu", "pl", "sl", "hr"]),
        "ISO-8859-3" => in_any(&["eo"]),
        "ISO-8859-4" | "ISO-8859-13" | "windows-1257" => in_any(&["lv", "fi"]),
        "ISO-8859-10" => in_any(&["is", "fi", "sv", "da", "nb", "no"]),
        "ISO-8859-14" => in_any(&["ga"]),
        "IBM866" | "ISO-8859-5" | "KOI8-R" | "windows-1251" | "x-mac-cyrillic" => {
            in_any(&["ru", "bg"])
        }
        "KOI8-U" => in_any(&["uk"]),
        "ISO-8859-6" | "windows-1256" => in_any(&["ar"]),
        "ISO-8859-7" | "windows-1253" => in_any(&["el"]),
        "ISO-8859-8" | "ISO-8859-8-I" | "windows-1255" => in_any(&["he"]),
        "windows-1254" => in_any(&["tr"]),
        "windows-1258" => in_any(&["vi"]),
        "windows-874" => in_any(&["th"]),
        // Simplified Chinese; the Big5 files are traditional.
        "GBK" | "gb18030" => language == "zh" && folder != "Big5",
        "Big5" => language == "zh" && folder == "Big5",
        "EUC-JP" | "ISO-2022-JP" | "Shift_JIS" => in_any(&["ja"]),
        "EUC-KR" => in_any(&["ko"]),
        _ => false,
    }
}

/// The characters of `text` that `encoding` can encode.
fn encodable(encoding: &'static encoding_rs::Encoding, text: &str) -> String {
    if encoding == encoding_rs::UTF_8 {
        return text.to_owned();
    }
    let mut encoder = encoding.new_encoder();
    let mut buffer = [0; 16];
    text.chars()
        .filter(|&c| {
            let (_, _, _, unmappable) =
                encoder.encode_from_utf8(c.encode_utf8(&mut [0; 4]), &mut buffer, true);
            !unmappable
        })
        .collect()
}

/// About [`REAL_SIZE`] bytes' worth of real text for `encoding` (counted in
/// UTF-8 for UTF-16), or `None` when no file is in its languages.
pub fn text(encoding: &'static Encoding) -> Option<String> {
    let theirs = baseline(encoding).output_encoding();
    let texts: Vec<String> = files()
        .iter()
        .filter(|file| is_for(encoding, file))
        .map(|file| encodable(theirs, &file.text))
        .filter(|text| !text.is_empty())
        .collect();
    if texts.is_empty() {
        return None;
    }
    let mut positions = vec![0; texts.len()];
    let mut text = String::with_capacity(REAL_SIZE + PIECE);
    let mut encoded_len = 0;
    while encoded_len < REAL_SIZE {
        for (source, position) in texts.iter().zip(&mut positions) {
            if *position == source.len() {
                *position = 0;
            }
            let rest = &source[*position..];
            // A piece ends at a line's end if there is one near, else at a
            // character boundary.
            let mut end = rest.len().min(PIECE);
            while !rest.is_char_boundary(end) {
                end -= 1;
            }
            if let Some(line_end) = rest[..end].rfind('\n')
                && end < rest.len()
                && line_end > 0
            {
                end = line_end + 1;
            }
            let piece = &rest[..end];
            *position += end;
            encoded_len += theirs.encode(piece).0.len();
            text.push_str(piece);
            if encoded_len >= REAL_SIZE {
                break;
            }
        }
    }
    Some(text)
}
