//! How the views show bytes and decoded characters, apart from colour: a
//! byte's class and glyph (the hex view), a decoded item's cell (its text
//! and kind: controls and invisible characters as their abbreviations,
//! U+FFFD told apart by where it came from; a window's items split into
//! rows of cells), and the words that name a character or some bytes. Every view that draws a character goes
//! through [`cell_of`], so characters look the same everywhere; the
//! colours are `theme.rs`'s.

use eframe::egui::Color32;
use mojiscope_core::{ByteSpan, DecodeErrorKind, SkipReason, TraceItem, TraceKind};

use crate::theme::Palette;

/// What a byte is, for colouring it in the hex view. Classification is a pure
/// function of the byte ([`ByteClass::of`]), kept apart from the colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ByteClass {
    /// 0x00.
    Nul,
    /// 0x21..=0x7E.
    AsciiPrintable,
    /// ASCII whitespace as the standard defines it: TAB, LF, FF, CR, SPACE.
    AsciiWhitespace,
    /// Any other byte below 0x80 (the C0 controls but those above, and DEL).
    AsciiControl,
    /// 0x80..=0xFF.
    NonAscii,
}

impl ByteClass {
    /// Every class, in the order the legend lists them.
    pub const ALL: [ByteClass; 5] = [
        ByteClass::Nul,
        ByteClass::AsciiPrintable,
        ByteClass::AsciiWhitespace,
        ByteClass::AsciiControl,
        ByteClass::NonAscii,
    ];

    /// The class of `byte`.
    pub fn of(byte: u8) -> ByteClass {
        match byte {
            0x00 => ByteClass::Nul,
            0x09 | 0x0A | 0x0C | 0x0D | 0x20 => ByteClass::AsciiWhitespace,
            0x21..=0x7E => ByteClass::AsciiPrintable,
            0x01..=0x7F => ByteClass::AsciiControl,
            0x80..=0xFF => ByteClass::NonAscii,
        }
    }

    /// The name the legend shows.
    pub fn name(self) -> &'static str {
        match self {
            ByteClass::Nul => "NUL",
            ByteClass::AsciiPrintable => "ASCII printable",
            ByteClass::AsciiWhitespace => "ASCII whitespace",
            ByteClass::AsciiControl => "ASCII control",
            ByteClass::NonAscii => "non-ASCII",
        }
    }

    /// The class's text colour in `palette`.
    pub fn colour(self, palette: &Palette) -> Color32 {
        match self {
            ByteClass::Nul => palette.nul_fg,
            ByteClass::AsciiPrintable => palette.ascii_printable_fg,
            ByteClass::AsciiWhitespace => palette.ascii_whitespace_fg,
            ByteClass::AsciiControl => palette.ascii_control_fg,
            ByteClass::NonAscii => palette.non_ascii_fg,
        }
    }
}

/// The glyph the glyph column shows for a byte: printable ASCII as itself,
/// everything else as a dot.
pub fn glyph(byte: u8) -> char {
    if byte.is_ascii_graphic() || byte == b' ' {
        char::from(byte)
    } else {
        '·'
    }
}

/// What one cell of a decoded row shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// A character drawn as itself.
    Text,
    /// A control character drawn as a visible picture.
    Control,
    /// The U+FFFD an error produced.
    Malformed(DecodeErrorKind),
    /// A U+FFFD that was in the input.
    LiteralReplacement,
    /// Bytes that produced nothing (a BOM, an escape sequence).
    Skip(SkipReason),
    /// The U+FFFD a reinterpretation by hand put for a character it lost.
    Lost,
}

/// One item of a decoded row, as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// What to draw.
    pub text: String,
    /// How to draw it.
    pub kind: CellKind,
    /// The bytes it came from (for a reinterpretation's text, all the
    /// bytes it replaced: its characters are not each some of them).
    pub span: ByteSpan,
    /// Whether a reinterpretation by hand put it there, in place of what
    /// the bytes decode to.
    pub edited: bool,
}

/// How a decoded item is drawn: control characters visibly (see
/// `scalar_display`), U+FFFD told apart by origin.
pub fn cell_of(item: TraceItem) -> Cell {
    let (text, kind) = match item.kind {
        TraceKind::Scalar(c) => scalar_display(c),
        TraceKind::Pair(a, b) => (format!("{a}{b}"), CellKind::Text),
        TraceKind::Error(kind) => ("\u{FFFD}".to_owned(), CellKind::Malformed(kind)),
        TraceKind::Skip(reason) => {
            let text = match reason {
                SkipReason::Bom => "BOM",
                SkipReason::EscapeSequence => "ESC",
                _ => "…",
            };
            (text.to_owned(), CellKind::Skip(reason))
        }
    };
    Cell {
        text,
        kind,
        span: item.span,
        edited: false,
    }
}

/// The cells of a reinterpretation's `text`, put in place of the
/// characters that start in `span`: each character drawn as [`cell_of`]
/// draws it, and each U+FFFD at one of `lost` (UTF-8 offsets in `text`)
/// marked lost. Every one of them has all of `span` as its bytes.
pub fn edited_cells(text: &str, lost: &[usize], span: ByteSpan) -> Vec<Cell> {
    text.char_indices()
        .map(|(utf8_offset, c)| {
            let (text, kind) = if lost.contains(&utf8_offset) {
                (c.to_string(), CellKind::Lost)
            } else {
                scalar_display(c)
            };
            Cell {
                text,
                kind,
                span,
                edited: true,
            }
        })
        .collect()
}

/// The standard abbreviations of the C0 controls (Unicode's aliases), by
/// code point.
const C0_ABBREVIATIONS: [&str; 32] = [
    "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR",
    "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC",
    "FS", "GS", "RS", "US",
];

/// Controls are drawn as their abbreviation (LF, ESC, DEL) or, for the C1
/// controls, their code point in hex, in small type: the Control Pictures
/// block (U+2400) is missing from common fonts such as `DejaVu`.
fn scalar_display(c: char) -> (String, CellKind) {
    let code_point = u32::from(c);
    match code_point {
        0x00..=0x1F => (
            C0_ABBREVIATIONS
                .get(code_point as usize)
                .copied()
                .unwrap_or("C0")
                .to_owned(),
            CellKind::Control,
        ),
        0x7F => ("DEL".to_owned(), CellKind::Control),
        0x80..=0x9F => (format!("{code_point:02X}"), CellKind::Control),
        0xFFFD => (c.to_string(), CellKind::LiteralReplacement),
        _ => match invisible_abbreviation(c) {
            Some(abbreviation) => (abbreviation.to_owned(), CellKind::Control),
            None => (c.to_string(), CellKind::Text),
        },
    }
}

/// The abbreviation of a character that draws nothing visible, or nothing
/// that tells it from a space (Unicode's aliases): an inspector must show
/// the zero-width, direction and non-breaking characters that make text
/// misbehave.
fn invisible_abbreviation(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{00A0}' => "NBSP",
        '\u{00AD}' => "SHY",
        '\u{034F}' => "CGJ",
        '\u{061C}' => "ALM",
        '\u{180E}' => "MVS",
        '\u{200B}' => "ZWSP",
        '\u{200C}' => "ZWNJ",
        '\u{200D}' => "ZWJ",
        '\u{200E}' => "LRM",
        '\u{200F}' => "RLM",
        '\u{2028}' => "LSEP",
        '\u{2029}' => "PSEP",
        '\u{202A}' => "LRE",
        '\u{202B}' => "RLE",
        '\u{202C}' => "PDF",
        '\u{202D}' => "LRO",
        '\u{202E}' => "RLO",
        '\u{202F}' => "NNBSP",
        '\u{2060}' => "WJ",
        '\u{2061}' => "FA",
        '\u{2062}' => "IT",
        '\u{2063}' => "IS",
        '\u{2064}' => "IP",
        '\u{2066}' => "LRI",
        '\u{2067}' => "RLI",
        '\u{2068}' => "FSI",
        '\u{2069}' => "PDI",
        '\u{FEFF}' => "ZWNBSP",
        '\u{FFF9}' => "IAA",
        '\u{FFFA}' => "IAS",
        '\u{FFFB}' => "IAT",
        _ => return None,
    })
}

/// Splits the items of a window into rows by where each item starts.
pub fn split_rows(
    items: impl Iterator<Item = TraceItem>,
    row_spans: &[ByteSpan],
) -> Vec<Vec<Cell>> {
    let mut rows: Vec<Vec<Cell>> = vec![Vec::new(); row_spans.len()];
    let mut row = 0;
    for item in items {
        while row + 1 < row_spans.len() && item.span.start >= row_spans[row].end {
            row += 1;
        }
        if let Some(cells) = rows.get_mut(row) {
            cells.push(cell_of(item));
        }
    }
    rows
}

/// Whether two spans share a byte.
pub fn overlaps(a: ByteSpan, b: ByteSpan) -> bool {
    a.start < b.end && b.start < a.end
}

/// "U+00E9 LATIN SMALL LETTER E WITH ACUTE"; controls, which have no name,
/// say so.
pub fn describe_char(c: char) -> String {
    let name = unicode_names2::name(c).map_or_else(
        || {
            if c.is_control() {
                "<control>".to_owned()
            } else {
                "<unnamed>".to_owned()
            }
        },
        |name| name.to_string(),
    );
    format!("U+{:04X} {name}", u32::from(c))
}

/// The bytes of `span` as hex, at most eight of them.
pub fn hex_bytes(bytes: &[u8], span: ByteSpan) -> String {
    let start = usize::try_from(span.start).unwrap_or(usize::MAX);
    let end = usize::try_from(span.end).unwrap_or(usize::MAX);
    let slice = bytes.get(start..end.min(bytes.len())).unwrap_or_default();
    let mut text: Vec<String> = slice.iter().take(8).map(|b| format!("{b:02X}")).collect();
    if slice.len() > 8 {
        text.push("…".to_owned());
    }
    text.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(start: u64, end: u64, kind: TraceKind) -> TraceItem {
        TraceItem {
            span: ByteSpan::new(start, end),
            kind,
        }
    }

    #[test]
    fn every_byte_has_the_expected_class() {
        assert_eq!(ByteClass::of(0), ByteClass::Nul);
        assert_eq!(ByteClass::of(b'A'), ByteClass::AsciiPrintable);
        assert_eq!(ByteClass::of(b'~'), ByteClass::AsciiPrintable);
        for b in [b'\t', b'\n', 0x0C, b'\r', b' '] {
            assert_eq!(ByteClass::of(b), ByteClass::AsciiWhitespace);
        }
        for b in [0x01, 0x0B, 0x1B, 0x7F] {
            assert_eq!(ByteClass::of(b), ByteClass::AsciiControl);
        }
        assert_eq!(ByteClass::of(0x80), ByteClass::NonAscii);
        assert_eq!(ByteClass::of(0xFF), ByteClass::NonAscii);
    }

    #[test]
    fn the_palettes_tell_the_classes_apart() {
        for palette in [
            Palette::for_theme(eframe::egui::Theme::Light),
            Palette::for_theme(eframe::egui::Theme::Dark),
        ] {
            for (i, a) in ByteClass::ALL.iter().enumerate() {
                for b in &ByteClass::ALL[i + 1..] {
                    assert_ne!(a.colour(palette), b.colour(palette));
                }
            }
        }
    }

    #[test]
    fn glyphs_show_printable_ascii_only() {
        assert_eq!(glyph(b'A'), 'A');
        assert_eq!(glyph(b' '), ' ');
        assert_eq!(glyph(0), '·');
        assert_eq!(glyph(0xE3), '·');
    }

    #[test]
    fn controls_are_drawn_as_abbreviations_and_replacements_told_apart() {
        let cell = cell_of(item(0, 1, TraceKind::Scalar('\n')));
        assert_eq!((cell.text.as_str(), cell.kind), ("LF", CellKind::Control));
        let cell = cell_of(item(0, 1, TraceKind::Scalar('\u{1B}')));
        assert_eq!(cell.text, "ESC");
        let cell = cell_of(item(0, 1, TraceKind::Scalar('\u{7F}')));
        assert_eq!(cell.text, "DEL");
        let cell = cell_of(item(0, 2, TraceKind::Scalar('\u{85}')));
        assert_eq!((cell.text.as_str(), cell.kind), ("85", CellKind::Control));
        let cell = cell_of(item(0, 3, TraceKind::Scalar('\u{200B}')));
        assert_eq!((cell.text.as_str(), cell.kind), ("ZWSP", CellKind::Control));
        let cell = cell_of(item(0, 2, TraceKind::Scalar('\u{A0}')));
        assert_eq!(cell.text, "NBSP");
        let literal = cell_of(item(0, 3, TraceKind::Scalar('\u{FFFD}')));
        assert_eq!(literal.kind, CellKind::LiteralReplacement);
        let error = cell_of(item(0, 1, TraceKind::Error(DecodeErrorKind::InvalidByte)));
        assert_eq!(error.text, "\u{FFFD}");
        assert_eq!(
            error.kind,
            CellKind::Malformed(DecodeErrorKind::InvalidByte)
        );
    }

    #[test]
    fn items_go_to_the_row_they_start_in() {
        let items = [
            item(0, 1, TraceKind::Scalar('a')),
            item(1, 2, TraceKind::Scalar('\n')),
            // Starts in row 1, ends past it.
            item(2, 5, TraceKind::Scalar('日')),
            item(5, 6, TraceKind::Scalar('b')),
        ];
        let rows = split_rows(
            items.into_iter(),
            &[
                ByteSpan::new(0, 2),
                ByteSpan::new(2, 4),
                ByteSpan::new(4, 6),
            ],
        );
        let texts: Vec<String> = rows
            .iter()
            .map(|row| row.iter().map(|c| c.text.as_str()).collect())
            .collect();
        assert_eq!(texts, ["aLF", "日", "b"]);
    }

    #[test]
    fn characters_are_described_by_code_point_and_name() {
        assert_eq!(describe_char('é'), "U+00E9 LATIN SMALL LETTER E WITH ACUTE");
        assert_eq!(describe_char('\n'), "U+000A <control>");
        assert_eq!(describe_char('日'), "U+65E5 CJK UNIFIED IDEOGRAPH-65E5");
    }

    #[test]
    fn hex_bytes_are_capped_at_eight() {
        let bytes: Vec<u8> = (0..20).collect();
        assert_eq!(hex_bytes(&bytes, ByteSpan::new(1, 3)), "01 02");
        assert_eq!(
            hex_bytes(&bytes, ByteSpan::new(0, 10)),
            "00 01 02 03 04 05 06 07 …"
        );
        assert_eq!(hex_bytes(&bytes, ByteSpan::new(30, 31)), "");
    }
}
