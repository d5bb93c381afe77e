//! The generator: reads the WHATWG Encoding Standard's data files and renders
//! the Rust sources in `indexes/src/generated/`.
//!
//! Run it with `cargo run -p mojiscope-indexes --bin generate-indexes [WHATWG_DIR]`.
//! The `generated_files_are_fresh` test calls [`render_all`] and compares the
//! result with the committed files, so the tables cannot drift from the data.
//!
//! Everything is rendered in memory and deterministically: the same input
//! always gives the same bytes.

mod json;
pub mod languages;

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::io;
use std::path::{Path, PathBuf};

use json::Json;

/// The command that regenerates the files, quoted in every header.
pub const REGENERATE_COMMAND: &str = "cargo run -p mojiscope-indexes --bin generate-indexes";

/// The WHATWG directory used when none is given: `../shared/whatwg` next to
/// the workspace root.
pub fn default_whatwg_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/whatwg")
}

/// The directory the generated files are written to: `indexes/src/generated/`.
pub fn generated_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/generated")
}

/// Why the WHATWG files could not be turned into tables.
#[derive(Debug)]
#[non_exhaustive]
pub enum GenerateError {
    /// A file could not be read (or is not UTF-8).
    Read {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        source: io::Error,
    },
    /// `encodings.json` is not well-formed JSON.
    Json {
        /// The file name.
        file: String,
        /// Where in the file parsing stopped.
        byte_offset: usize,
        /// What was wrong there.
        message: &'static str,
    },
    /// A file parsed but does not have the expected shape (JSON structure,
    /// `SOURCE.md`'s commit line, the single-byte table in `encoding.bs`).
    Format {
        /// The file name.
        file: String,
        /// What was expected.
        message: String,
    },
    /// A line of an index file is not `pointer TAB code point`.
    IndexLine {
        /// The file name.
        file: String,
        /// 1-based line number.
        line_number: usize,
        /// What was wrong with the line.
        message: String,
    },
    /// The data is well-formed but breaks an assumption the tables rely on
    /// (a code point U+0000, a pointer out of range, a duplicate label, …).
    Data {
        /// The file name.
        file: String,
        /// Which assumption broke.
        message: String,
    },
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::Read { path, source } => {
                write!(f, "cannot read file: {source}: {}", path.display())
            }
            GenerateError::Json {
                file,
                byte_offset,
                message,
            } => write!(f, "malformed JSON at byte {byte_offset}: {message}: {file}"),
            GenerateError::Format { file, message } => {
                write!(f, "unexpected file contents: {message}: {file}")
            }
            GenerateError::IndexLine {
                file,
                line_number,
                message,
            } => write!(f, "malformed index line {line_number}: {message}: {file}"),
            GenerateError::Data { file, message } => {
                write!(f, "unsupported data: {message}: {file}")
            }
        }
    }
}

impl std::error::Error for GenerateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GenerateError::Read { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Reads the WHATWG files in `whatwg_dir` and renders every generated file,
/// returned as `(file name, contents)` pairs sorted by file name.
///
/// # Errors
///
/// Returns a [`GenerateError`] if a file is missing or unreadable, malformed,
/// or holds data the tables cannot represent.
pub fn render_all(whatwg_dir: &Path) -> Result<Vec<(String, String)>, GenerateError> {
    let spec = read_spec_version(whatwg_dir)?;
    let groups = read_encodings(whatwg_dir)?;
    let single_byte = read_single_byte_table(whatwg_dir, &groups)?;
    let header = header(&spec);

    let mut files = vec![
        ("mod.rs".to_owned(), render_mod(&header, &spec)),
        (
            "encodings.rs".to_owned(),
            render_encodings(&header, &groups)?,
        ),
        (
            "single_byte.rs".to_owned(),
            render_single_byte(&header, whatwg_dir, &single_byte)?,
        ),
    ];
    for table in &MULTI_BYTE_TABLES {
        let index = read_index(whatwg_dir, table.index)?;
        let contents = match table.kind {
            TableKind::U16 => render_dense(&header, table, &index, false)?,
            TableKind::Big5 => render_dense(&header, table, &index, true)?,
            TableKind::Ranges => render_ranges(&header, table, &index)?,
        };
        files.push((format!("{}.rs", table.module), contents));
    }
    files.sort();
    Ok(files)
}

/// One multi-byte index and how it is rendered.
struct TableSpec {
    /// The index's name in the standard ("index jis0208"), also its file stem.
    index: &'static str,
    /// Module (and file) name.
    module: &'static str,
    /// Name of the generated static.
    static_name: &'static str,
    kind: TableKind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum TableKind {
    /// `[u16; highest pointer + 1]`, 0 where the index has no entry.
    U16,
    /// Like `U16` but `u32`: index Big5 has code points above U+FFFF (all in plane 2).
    Big5,
    /// `[(pointer, code point); entries]` for index gb18030 ranges.
    Ranges,
}

const MULTI_BYTE_TABLES: [TableSpec; 7] = [
    TableSpec {
        index: "big5",
        module: "big5",
        static_name: "BIG5",
        kind: TableKind::Big5,
    },
    TableSpec {
        index: "euc-kr",
        module: "euc_kr",
        static_name: "EUC_KR",
        kind: TableKind::U16,
    },
    TableSpec {
        index: "gb18030",
        module: "gb18030",
        static_name: "GB18030",
        kind: TableKind::U16,
    },
    TableSpec {
        index: "gb18030-ranges",
        module: "gb18030_ranges",
        static_name: "GB18030_RANGES",
        kind: TableKind::Ranges,
    },
    TableSpec {
        index: "iso-2022-jp-katakana",
        module: "iso_2022_jp_katakana",
        static_name: "ISO_2022_JP_KATAKANA",
        kind: TableKind::U16,
    },
    TableSpec {
        index: "jis0208",
        module: "jis0208",
        static_name: "JIS0208",
        kind: TableKind::U16,
    },
    TableSpec {
        index: "jis0212",
        module: "jis0212",
        static_name: "JIS0212",
        kind: TableKind::U16,
    },
];

// ---------------------------------------------------------------------------
// Reading

/// The pinned commit of the standard, from `SOURCE.md`.
struct SpecVersion {
    commit: String,
    date: String,
}

fn read_text(whatwg_dir: &Path, file: &str) -> Result<String, GenerateError> {
    let path = whatwg_dir.join(file);
    std::fs::read_to_string(&path).map_err(|source| GenerateError::Read { path, source })
}

/// Finds the commit (the first 40-hex-digit word) and the date in parentheses after it.
fn read_spec_version(whatwg_dir: &Path) -> Result<SpecVersion, GenerateError> {
    const FILE: &str = "SOURCE.md";
    let text = read_text(whatwg_dir, FILE)?;
    let format_error = |message: &str| GenerateError::Format {
        file: FILE.to_owned(),
        message: message.to_owned(),
    };
    let is_commit = |word: &[u8]| {
        word.len() == 40
            && word
                .iter()
                .all(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(byte))
    };
    // Split into ASCII-alphanumeric words and take the first that is a commit id.
    let bytes = text.as_bytes();
    let mut word_start = 0;
    let mut commit = None;
    while word_start < bytes.len() {
        let word_end = bytes[word_start..]
            .iter()
            .position(|byte| !byte.is_ascii_alphanumeric())
            .map_or(bytes.len(), |len| word_start + len);
        if is_commit(&bytes[word_start..word_end]) {
            commit = text.get(word_start..word_end).map(|word| (word, word_end));
            break;
        }
        word_start = word_end + 1;
    }
    let (commit, commit_end) =
        commit.ok_or_else(|| format_error("no 40-digit lowercase hex commit id"))?;
    let is_date = |date: &[u8]| {
        date.len() == 10
            && date.iter().enumerate().all(|(i, byte)| {
                if i == 4 || i == 7 {
                    *byte == b'-'
                } else {
                    byte.is_ascii_digit()
                }
            })
    };
    let date = text[commit_end..]
        .trim_start()
        .strip_prefix('(')
        .and_then(|rest| rest.split_once(')'))
        .map(|(date, _)| date)
        .filter(|date| is_date(date.as_bytes()))
        .ok_or_else(|| format_error("the commit id is not followed by \"(YYYY-MM-DD)\""))?;
    Ok(SpecVersion {
        commit: commit.to_owned(),
        date: date.to_owned(),
    })
}

/// One group of `encodings.json`: a section heading and its encodings.
struct Group {
    heading: String,
    encodings: Vec<EncodingData>,
}

struct EncodingData {
    name: String,
    labels: Vec<String>,
}

fn read_encodings(whatwg_dir: &Path) -> Result<Vec<Group>, GenerateError> {
    const FILE: &str = "encodings.json";
    let text = read_text(whatwg_dir, FILE)?;
    let json = json::parse(&text).map_err(|error| GenerateError::Json {
        file: FILE.to_owned(),
        byte_offset: error.byte_offset,
        message: error.message,
    })?;
    let format_error = |message: &str| GenerateError::Format {
        file: FILE.to_owned(),
        message: message.to_owned(),
    };
    let data_error = |message: String| GenerateError::Data {
        file: FILE.to_owned(),
        message,
    };

    let mut groups = Vec::new();
    for group in json
        .as_array()
        .ok_or_else(|| format_error("the top level is not an array"))?
    {
        let heading = group
            .member("heading")
            .and_then(Json::as_str)
            .ok_or_else(|| format_error("a group has no string \"heading\""))?;
        let mut encodings = Vec::new();
        for encoding in group
            .member("encodings")
            .and_then(Json::as_array)
            .ok_or_else(|| format_error("a group has no array \"encodings\""))?
        {
            let name = encoding
                .member("name")
                .and_then(Json::as_str)
                .ok_or_else(|| format_error("an encoding has no string \"name\""))?;
            let labels = encoding
                .member("labels")
                .and_then(Json::as_array)
                .ok_or_else(|| format_error("an encoding has no array \"labels\""))?
                .iter()
                .map(|label| {
                    label
                        .as_str()
                        .map(str::to_owned)
                        .ok_or_else(|| format_error("a label is not a string"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            encodings.push(EncodingData {
                name: name.to_owned(),
                labels,
            });
        }
        groups.push(Group {
            heading: heading.to_owned(),
            encodings,
        });
    }

    // Check what the generated tables and the label lookup rely on.
    let mut seen = BTreeMap::new();
    let mut count = 0_usize;
    for encoding in groups.iter().flat_map(|group| &group.encodings) {
        count += 1;
        if !is_printable_ascii(&encoding.name) {
            return Err(data_error(format!(
                "encoding name {:?} is not printable ASCII",
                encoding.name
            )));
        }
        for label in &encoding.labels {
            // "Get an encoding" lowercases its input, so labels must be lowercase.
            if !is_printable_ascii(label) || label.bytes().any(|b| b.is_ascii_uppercase()) {
                return Err(data_error(format!(
                    "label {label:?} is not lowercase printable ASCII"
                )));
            }
            if let Some(other) = seen.insert(label.as_str(), encoding.name.as_str()) {
                return Err(data_error(format!(
                    "label {label:?} belongs to both {other} and {}",
                    encoding.name
                )));
            }
        }
    }
    if count > usize::from(u8::MAX) + 1 {
        return Err(data_error(format!(
            "{count} encodings do not fit the u8 in LABELS"
        )));
    }
    Ok(groups)
}

fn is_printable_ascii(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|byte| byte.is_ascii_graphic() || byte == b' ')
}

/// A single-byte encoding and the name of its index ("iso-8859-8" for ISO-8859-8-I).
struct SingleByteEncoding {
    name: String,
    index: String,
}

/// The heading of the single-byte group in `encodings.json`.
const SINGLE_BYTE_HEADING: &str = "Legacy single-byte encodings";

/// Reads the table in the standard's "Legacy single-byte encodings" section
/// that names each encoding's index, and checks it lists the same encodings
/// as `encodings.json`.
fn read_single_byte_table(
    whatwg_dir: &Path,
    groups: &[Group],
) -> Result<Vec<SingleByteEncoding>, GenerateError> {
    const FILE: &str = "encoding.bs";
    let text = read_text(whatwg_dir, FILE)?;
    let format_error = |message: String| GenerateError::Format {
        file: FILE.to_owned(),
        message,
    };
    let section = text
        .split_once("<h2 id=legacy-single-byte-encodings>")
        .and_then(|(_, rest)| rest.split_once("<table>"))
        .and_then(|(_, rest)| rest.split_once("</table>"))
        .map(|(table, _)| table)
        .ok_or_else(|| {
            format_error("no <table> in the legacy single-byte encodings section".to_owned())
        })?;

    let mut encodings = Vec::new();
    // The index cell of a row may span following rows (ISO-8859-8 and -8-I share one).
    let mut spanned: Option<(String, usize)> = None;
    for row in section.split("<tr>").skip(1) {
        let name = between(row, "<dfn export>", "</dfn>")
            .ok_or_else(|| format_error(format!("no <dfn export> in row {:?}", row.trim())))?;
        let index = if let Some(index) = between(row, "<a href=index-", ".txt>") {
            let rows = between(row, "<td rowspan=", "><a href=index-")
                .map_or(Ok(1), str::parse::<usize>)
                .map_err(|_| format_error(format!("bad rowspan in row of {name}")))?;
            spanned = (rows > 1).then(|| (index.to_owned(), rows - 1));
            index.to_owned()
        } else {
            match spanned.take() {
                Some((index, rows_left)) => {
                    if rows_left > 1 {
                        spanned = Some((index.clone(), rows_left - 1));
                    }
                    index
                }
                None => return Err(format_error(format!("no index for {name}"))),
            }
        };
        if !index
            .bytes()
            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-')
            || !index.starts_with(|c: char| c.is_ascii_lowercase())
        {
            return Err(format_error(format!("unexpected index name {index:?}")));
        }
        encodings.push(SingleByteEncoding {
            name: name.to_owned(),
            index,
        });
    }

    let from_json: Vec<&str> = groups
        .iter()
        .filter(|group| group.heading == SINGLE_BYTE_HEADING)
        .flat_map(|group| &group.encodings)
        .map(|encoding| encoding.name.as_str())
        .collect();
    let from_table: Vec<&str> = encodings.iter().map(|e| e.name.as_str()).collect();
    if from_json != from_table {
        return Err(format_error(format!(
            "the single-byte table lists {from_table:?} but encodings.json lists {from_json:?}"
        )));
    }
    Ok(encodings)
}

/// The text between the first `start` and the next `end` after it.
fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let (_, rest) = text.split_once(start)?;
    let (inner, _) = rest.split_once(end)?;
    Some(inner)
}

/// An index file's entries and its identification comments.
#[derive(Debug)]
struct Index {
    file: String,
    identifier: Option<String>,
    date: Option<String>,
    /// (pointer, code point) in file order.
    entries: Vec<(u32, u32)>,
}

impl Index {
    fn data_error(&self, message: String) -> GenerateError {
        GenerateError::Data {
            file: self.file.clone(),
            message,
        }
    }

    /// "Index" followed by the identifier and date, for doc comments.
    fn provenance(&self) -> String {
        let mut text = format!("`{}`", self.file);
        if let Some(identifier) = &self.identifier {
            w(&mut text, format_args!(", identifier {identifier}"));
        }
        if let Some(date) = &self.date {
            w(&mut text, format_args!(", dated {date}"));
        }
        text
    }

    /// `highest pointer + 1`, or 0 for an empty index.
    fn dense_len(&self) -> usize {
        self.entries
            .iter()
            .map(|&(pointer, _)| pointer as usize + 1)
            .max()
            .unwrap_or(0)
    }
}

fn read_index(whatwg_dir: &Path, name: &str) -> Result<Index, GenerateError> {
    let file = format!("index-{name}.txt");
    let text = read_text(whatwg_dir, &file)?;
    parse_index(&file, &text)
}

/// Parses an index file as the standard says: split on LF, drop empty lines and
/// lines starting with '#', split each remaining line on TAB; the first field is
/// the pointer in decimal, the second the code point in hexadecimal.
///
/// The files pad pointers with leading spaces and write code points as
/// `0x1234`; both are accepted. Pointers must be unique, code points must be
/// scalar values other than U+0000 (the tables use 0 for "no code point").
fn parse_index(file: &str, text: &str) -> Result<Index, GenerateError> {
    let mut index = Index {
        file: file.to_owned(),
        identifier: None,
        date: None,
        entries: Vec::new(),
    };
    let mut pointers = std::collections::BTreeSet::new();
    for (line_index, line) in text.split('\n').enumerate() {
        let line_error = |message: String| GenerateError::IndexLine {
            file: file.to_owned(),
            line_number: line_index + 1,
            message,
        };
        if line.is_empty() {
            continue;
        }
        if let Some(comment) = line.strip_prefix('#') {
            let comment = comment.trim();
            if let Some(identifier) = comment.strip_prefix("Identifier:") {
                index.identifier = Some(identifier.trim().to_owned());
            } else if let Some(date) = comment.strip_prefix("Date:") {
                index.date = Some(date.trim().to_owned());
            }
            continue;
        }
        let mut fields = line.split('\t');
        let pointer_field = fields.next().unwrap_or_default();
        let code_point_field = fields
            .next()
            .ok_or_else(|| line_error("no TAB after the pointer".to_owned()))?;

        let digits = pointer_field.trim_matches(' ');
        if digits.is_empty() || !digits.bytes().all(|byte| byte.is_ascii_digit()) {
            return Err(line_error(format!(
                "pointer {pointer_field:?} is not a decimal number"
            )));
        }
        let pointer: u32 = digits
            .parse()
            .map_err(|_| line_error(format!("pointer {digits} is too large")))?;

        let hex = code_point_field.trim_matches(' ');
        let hex = hex
            .strip_prefix("0x")
            .or_else(|| hex.strip_prefix("0X"))
            .unwrap_or(hex);
        if hex.is_empty() || hex.len() > 8 || !hex.bytes().all(|byte| byte.is_ascii_hexdigit()) {
            return Err(line_error(format!(
                "code point {code_point_field:?} is not a hexadecimal number"
            )));
        }
        let code_point = u32::from_str_radix(hex, 16)
            .map_err(|_| line_error(format!("code point {hex} is too large")))?;
        if char::from_u32(code_point).is_none() {
            return Err(line_error(format!(
                "U+{code_point:04X} is not a Unicode scalar value"
            )));
        }
        if code_point == 0 {
            return Err(line_error(format!(
                "pointer {pointer} maps to U+0000, which the tables use for \"no code point\""
            )));
        }
        if !pointers.insert(pointer) {
            return Err(line_error(format!("pointer {pointer} appears twice")));
        }
        index.entries.push((pointer, code_point));
    }
    Ok(index)
}

// ---------------------------------------------------------------------------
// Rendering

/// Appends formatted text to a `String`.
fn w(out: &mut String, args: fmt::Arguments<'_>) {
    // Writing to a String cannot fail; the Result carries no information.
    out.write_fmt(args).ok();
}

fn header(spec: &SpecVersion) -> String {
    format!(
        "// @generated by `{REGENERATE_COMMAND}`\n\
         // from the WHATWG Encoding Standard at commit {} ({}),\n\
         // licensed CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/).\n\
         // Do not edit: regenerate instead (see indexes/SOURCE.md).\n\n",
        spec.commit, spec.date
    )
}

fn render_mod(header: &str, spec: &SpecVersion) -> String {
    let mut out = header.to_owned();
    out.push_str(
        "//! Tables generated from the WHATWG Encoding Standard's data files.\n\
         //!\n\
         //! The hand-written modules at the crate root wrap them in lookups.\n\n",
    );
    let mut modules: Vec<&str> = MULTI_BYTE_TABLES.iter().map(|t| t.module).collect();
    modules.extend(["encodings", "single_byte"]);
    modules.sort_unstable();
    for module in modules {
        w(&mut out, format_args!("pub mod {module};\n"));
    }
    w(
        &mut out,
        format_args!(
            "\n/// The commit of <https://github.com/whatwg/encoding> the data comes from.\n\
             pub const SPEC_COMMIT: &str = {:?};\n\
             \n\
             /// The date of [`SPEC_COMMIT`].\n\
             pub const SPEC_DATE: &str = {:?};\n",
            spec.commit, spec.date
        ),
    );
    out
}

fn render_encodings(header: &str, groups: &[Group]) -> Result<String, GenerateError> {
    let mut out = header.to_owned();
    out.push_str(
        "//! Every encoding of the standard with its labels, from `encodings.json`.\n\n\
         use crate::EncodingEntry;\n\n",
    );
    let encodings: Vec<(&Group, &EncodingData)> = groups
        .iter()
        .flat_map(|group| {
            group
                .encodings
                .iter()
                .map(move |encoding| (group, encoding))
        })
        .collect();

    w(
        &mut out,
        format_args!(
            "/// Every encoding, in the order of `encodings.json`.\n\
             pub static ENCODINGS: [EncodingEntry; {}] = [\n",
            encodings.len()
        ),
    );
    for (group, encoding) in &encodings {
        w(
            &mut out,
            format_args!(
                "    EncodingEntry {{\n        name: {:?},\n        labels: &[\n",
                encoding.name
            ),
        );
        for label in &encoding.labels {
            w(&mut out, format_args!("            {label:?},\n"));
        }
        w(
            &mut out,
            format_args!(
                "        ],\n        heading: {:?},\n    }},\n",
                group.heading
            ),
        );
    }
    out.push_str("];\n\n");

    let mut labels: Vec<(&str, usize, &str)> = encodings
        .iter()
        .enumerate()
        .flat_map(|(position, (_, encoding))| {
            encoding
                .labels
                .iter()
                .map(move |label| (label.as_str(), position, encoding.name.as_str()))
        })
        .collect();
    labels.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    w(
        &mut out,
        format_args!(
            "/// Every label with the position of its encoding in [`ENCODINGS`],\n\
             /// sorted by the label's bytes (for a binary search).\n\
             pub static LABELS: [(&str, u8); {}] = [\n",
            labels.len()
        ),
    );
    for (label, position, name) in labels {
        let position = u8::try_from(position).map_err(|_| GenerateError::Data {
            file: "encodings.json".to_owned(),
            message: "too many encodings for a u8".to_owned(),
        })?;
        w(
            &mut out,
            format_args!("    ({label:?}, {position}), // {name}\n"),
        );
    }
    out.push_str("];\n");
    Ok(out)
}

/// The Rust static name for an index name: "iso-8859-2" → `ISO_8859_2`.
fn static_name(index: &str) -> String {
    index.to_ascii_uppercase().replace('-', "_")
}

fn render_single_byte(
    header: &str,
    whatwg_dir: &Path,
    encodings: &[SingleByteEncoding],
) -> Result<String, GenerateError> {
    let mut out = header.to_owned();
    out.push_str(
        "//! The single-byte indexes (\"index single-byte\" of each single-byte encoding):\n\
         //! the code point for each pointer (byte − 0x80), 0 where the index has none.\n",
    );
    // Unique indexes in the order the standard's table first names them.
    let mut indexes: Vec<&str> = Vec::new();
    for encoding in encodings {
        if !indexes.contains(&encoding.index.as_str()) {
            indexes.push(&encoding.index);
        }
    }
    for &name in &indexes {
        let index = read_index(whatwg_dir, name)?;
        let mut table = [0_u16; 128];
        for &(pointer, code_point) in &index.entries {
            let slot = table
                .get_mut(pointer as usize)
                .ok_or_else(|| index.data_error(format!("pointer {pointer} is above 127")))?;
            *slot = u16::try_from(code_point)
                .map_err(|_| index.data_error(format!("U+{code_point:04X} is above U+FFFF")))?;
        }
        w(
            &mut out,
            format_args!(
                "\n/// index {name}, from {}.\npub static {}: [u16; 128] = [\n",
                index.provenance(),
                static_name(name)
            ),
        );
        push_hex_rows(&mut out, table.iter().map(|&c| u32::from(c)));
        out.push_str("];\n");
    }

    w(
        &mut out,
        format_args!(
            "\n/// Every single-byte index by name, in the order of the standard's table.\n\
             pub static INDEXES: [(&str, &[u16; 128]); {}] = [\n",
            indexes.len()
        ),
    );
    for name in &indexes {
        w(
            &mut out,
            format_args!("    ({name:?}, &{}),\n", static_name(name)),
        );
    }
    out.push_str("];\n");

    w(
        &mut out,
        format_args!(
            "\n/// Every single-byte encoding with the position of its index in [`INDEXES`].\n\
             pub static ENCODINGS: [(&str, u8); {}] = [\n",
            encodings.len()
        ),
    );
    for encoding in encodings {
        let position = indexes
            .iter()
            .position(|&index| index == encoding.index)
            .unwrap_or_default();
        w(
            &mut out,
            format_args!("    ({:?}, {position}),\n", encoding.name),
        );
    }
    out.push_str("];\n");
    Ok(out)
}

/// Renders a `[u16; N]` (or, for Big5, `[u32; N]`) table indexed by pointer.
fn render_dense(
    header: &str,
    table: &TableSpec,
    index: &Index,
    wide: bool,
) -> Result<String, GenerateError> {
    let len = index.dense_len();
    // The reverse tables store pointers as u16 with u16::MAX meaning "none".
    if len > usize::from(u16::MAX) {
        return Err(index.data_error(format!("{len} pointers do not fit a u16")));
    }
    let mut values = vec![0_u32; len];
    for &(pointer, code_point) in &index.entries {
        if wide {
            // The Big5 reverse lookup has one flat table for the BMP and one for plane 2.
            if code_point > 0xFFFF && !(0x2_0000..=0x2_FFFF).contains(&code_point) {
                return Err(
                    index.data_error(format!("U+{code_point:04X} is outside the BMP and plane 2"))
                );
            }
        } else if code_point > 0xFFFF {
            return Err(index.data_error(format!("U+{code_point:04X} is above U+FFFF")));
        }
        values[pointer as usize] = code_point;
    }
    let mut out = header.to_owned();
    w(
        &mut out,
        format_args!(
            "//! index {}, from {}.\n\n\
             /// index {}: the code point for each pointer, 0 where the index has none.\n\
             pub static {}: [{}; {len}] = [\n",
            table.index,
            index.provenance(),
            table.index,
            table.static_name,
            if wide { "u32" } else { "u16" },
        ),
    );
    push_hex_rows(&mut out, values.into_iter());
    out.push_str("];\n");
    Ok(out)
}

fn render_ranges(header: &str, table: &TableSpec, index: &Index) -> Result<String, GenerateError> {
    // The lookups binary-search both columns, so both must increase.
    for pair in index.entries.windows(2) {
        if pair[0].0 >= pair[1].0 || pair[0].1 >= pair[1].1 {
            return Err(index.data_error(format!(
                "ranges ({}, U+{:04X}) and ({}, U+{:04X}) are not in increasing order",
                pair[0].0, pair[0].1, pair[1].0, pair[1].1
            )));
        }
    }
    let mut out = header.to_owned();
    w(
        &mut out,
        format_args!(
            "//! index gb18030 ranges, from {}.\n\n\
             /// index gb18030 ranges: (pointer, code point) where each range starts,\n\
             /// increasing in both.\n\
             pub static {}: [(u32, u32); {}] = [\n",
            index.provenance(),
            table.static_name,
            index.entries.len()
        ),
    );
    for row in index.entries.chunks(8) {
        out.push_str("   ");
        for (pointer, code_point) in row {
            w(&mut out, format_args!(" ({pointer}, 0x{code_point:04X}),"));
        }
        out.push('\n');
    }
    out.push_str("];\n");
    Ok(out)
}

/// Writes values as `0x1234,` sixteen per line, indented by four spaces.
fn push_hex_rows(out: &mut String, values: impl Iterator<Item = u32>) {
    let mut column = 0;
    for value in values {
        out.push_str(if column == 0 { "    " } else { " " });
        w(out, format_args!("0x{value:04X},"));
        column += 1;
        if column == 16 {
            out.push('\n');
            column = 0;
        }
    }
    if column != 0 {
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::{GenerateError, parse_index};

    #[test]
    fn parses_index_lines_as_the_standard_says() {
        let text =
            "# Identifier: abc\n# Date: 2024-09-18\n\n  0\t0x20AC\t€ (EURO SIGN)\n 12\t0x1F600\n";
        let index = parse_index("index-x.txt", text).unwrap();
        assert_eq!(index.entries, [(0, 0x20AC), (12, 0x1F600)]);
        assert_eq!(index.identifier.as_deref(), Some("abc"));
        assert_eq!(index.date.as_deref(), Some("2024-09-18"));
        assert_eq!(index.dense_len(), 13);
    }

    #[test]
    fn rejects_bad_index_lines() {
        for (text, line) in [
            ("0 0x20AC\n", 1),
            ("#\nx\t0x20AC\n", 2),
            ("0\t20AG\n", 1),
            ("0\t0x0000\n", 1),
            ("0\t0xD800\n", 1),
            ("0\t0x110000\n", 1),
            ("0\t0x41\n0\t0x42\n", 2),
            ("99999999999\t0x41\n", 1),
            ("0\t0x41\r\n", 1),
        ] {
            match parse_index("index-x.txt", text) {
                Err(GenerateError::IndexLine { line_number, .. }) => {
                    assert_eq!(line_number, line, "{text:?}");
                }
                other => panic!("{text:?} gave {other:?}"),
            }
        }
    }

    #[test]
    fn missing_directory_is_an_error_not_a_panic() {
        let error = super::render_all(std::path::Path::new("/nonexistent/whatwg")).unwrap_err();
        assert!(matches!(error, GenerateError::Read { .. }));
        assert!(error.to_string().starts_with("cannot read file: "));
    }
}
