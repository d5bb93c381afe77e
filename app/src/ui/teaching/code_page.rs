//! Learn ▸ Code page chart: the 256 bytes of a single-byte encoding (or
//! x-user-defined) as a 16 × 16 chart, compared with a second one, the
//! cells that differ highlighted; and why the label "iso-8859-1" means
//! windows-1252.

use eframe::egui::{
    self, Align2, Button, Color32, ComboBox, FontId, Rect, RichText, Role, ScrollArea, Sense,
    Stroke, StrokeKind, Ui, WidgetInfo, vec2,
};
use mojiscope_core::{
    Citation, CodePage, Encoding, ISO_8859_2, ISO_8859_8, ISO_8859_15, KOI8_R, KOI8_U,
    WINDOWS_1250, WINDOWS_1251, WINDOWS_1252, WINDOWS_1255, X_USER_DEFINED,
};
// Core's `Document` is the document a step is stated in; in the app,
// `Document` is an opened file (`model::document`), so core's goes by
// this name wherever the app uses it.
use mojiscope_core::Document as CitedDocument;

use super::{View, citation_ui, describe_drawn, drawn};
use crate::model::wording::plural;
use crate::theme::Palette;

/// The lowest a row of the chart gets to fit the window: the byte in the
/// corner and the character under it still apart.
const MIN_CELL_HEIGHT: f32 = 30.0;

/// The comparisons the chart offers with one click.
pub const PRESETS: [(&Encoding, &Encoding); 5] = [
    (WINDOWS_1252, ISO_8859_15),
    (KOI8_R, KOI8_U),
    (ISO_8859_8, WINDOWS_1255),
    (ISO_8859_2, WINDOWS_1250),
    (WINDOWS_1251, KOI8_R),
];

/// The standard's note on "latin1", "iso-8859-1" and "ascii".
const LATIN1_NOTE: Citation = Citation {
    document: CitedDocument::EncodingStandard,
    anchor: "note-latin1-ascii",
    step: "",
};

/// What a chart shows: an encoding's code page, or isomorphic decoding
/// (each byte the code point of the same value, which is how ISO/IEC
/// 8859-1 is often read; not an encoding of the standard).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// A single-byte encoding, or x-user-defined.
    Encoding(&'static Encoding),
    /// Byte 0xNN is U+00NN.
    Isomorphic,
}

impl Page {
    /// The name the chart shows.
    pub fn name(self) -> &'static str {
        match self {
            Page::Encoding(encoding) => encoding.name(),
            Page::Isomorphic => "isomorphic decoding (ISO-8859-1 byte for byte)",
        }
    }
}

/// The 256 code points of a [`Page`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chart {
    /// What it charts.
    pub page: Page,
    code_points: [Option<char>; 256],
}

impl Chart {
    /// The chart of `page`; `None` for an encoding that is not single-byte
    /// (nor x-user-defined).
    pub fn new(page: Page) -> Option<Chart> {
        let mut code_points = [None; 256];
        match page {
            Page::Encoding(encoding) => {
                let code_page = CodePage::new(encoding)?;
                for (byte, slot) in (0..=u8::MAX).zip(&mut code_points) {
                    *slot = code_page.code_point(byte);
                }
            }
            Page::Isomorphic => {
                for (byte, slot) in (0..=u8::MAX).zip(&mut code_points) {
                    *slot = Some(char::from(byte));
                }
            }
        }
        Some(Chart { page, code_points })
    }

    /// The code point of `byte`; `None` where the encoding leaves it
    /// undefined (it decodes as an error).
    pub fn code_point(&self, byte: u8) -> Option<char> {
        self.code_points[usize::from(byte)]
    }

    /// The bytes that decode differently here and in `other`.
    pub fn differences(&self, other: &Chart) -> Vec<u8> {
        (0..=u8::MAX)
            .filter(|&byte| self.code_point(byte) != other.code_point(byte))
            .collect()
    }

    /// How many bytes are undefined.
    pub fn undefined_count(&self) -> usize {
        self.code_points.iter().filter(|c| c.is_none()).count()
    }
}

/// The encodings the chart can show: the single-byte ones and
/// x-user-defined.
pub fn charted(encoding: &'static Encoding) -> bool {
    encoding.is_single_byte() || encoding == X_USER_DEFINED
}

/// Why "iso-8859-1" means windows-1252, computed: what "get an encoding"
/// gives for the label, and where that encoding's 0x80 to 0x9F differ from
/// isomorphic decoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Latin1Note {
    /// `Encoding::for_label("iso-8859-1")`.
    pub encoding: &'static Encoding,
    /// Its labels.
    pub labels: &'static [&'static str],
    /// The bytes 0x80 to 0x9F that it decodes to another code point than
    /// U+0080 to U+009F, with that code point.
    pub c1_differs: Vec<(u8, char)>,
    /// The bytes 0xA0 to 0xFF it decodes to another code point than
    /// isomorphic decoding does (none).
    pub high_differs: Vec<u8>,
}

impl Latin1Note {
    /// Computes the note from the encoding "get an encoding" gives.
    pub fn new() -> Option<Latin1Note> {
        let encoding = Encoding::for_label(b"iso-8859-1")?;
        let chart = Chart::new(Page::Encoding(encoding))?;
        let isomorphic = Chart::new(Page::Isomorphic)?;
        let differs = chart.differences(&isomorphic);
        let c1_differs = differs
            .iter()
            .filter(|&&byte| (0x80..=0x9F).contains(&byte))
            .filter_map(|&byte| Some((byte, chart.code_point(byte)?)))
            .collect();
        let high_differs = differs.into_iter().filter(|&byte| byte >= 0xA0).collect();
        Some(Latin1Note {
            encoding,
            labels: encoding.labels(),
            c1_differs,
            high_differs,
        })
    }
}

/// The code page chart window.
pub struct CodePageChart {
    first: Chart,
    second: Option<Chart>,
    differences: Vec<u8>,
    note: Option<Latin1Note>,
}

impl Default for CodePageChart {
    fn default() -> Self {
        let mut chart = Self {
            first: Chart::new(Page::Encoding(WINDOWS_1252)).unwrap_or(Chart {
                page: Page::Isomorphic,
                code_points: [None; 256],
            }),
            second: None,
            differences: Vec::new(),
            note: Latin1Note::new(),
        };
        chart.show(
            Page::Encoding(WINDOWS_1252),
            Some(Page::Encoding(ISO_8859_15)),
        );
        chart
    }
}

impl CodePageChart {
    /// Charts `first`, compared with `second` if given. A page that cannot
    /// be charted leaves the chart as it was.
    pub fn show(&mut self, first: Page, second: Option<Page>) {
        if let Some(chart) = Chart::new(first) {
            self.first = chart;
        }
        self.second = second.and_then(Chart::new);
        self.differences = self
            .second
            .as_ref()
            .map(|second| self.first.differences(second))
            .unwrap_or_default();
    }

    /// The chart shown.
    pub fn first(&self) -> &Chart {
        &self.first
    }

    /// The chart compared with, if any.
    pub fn second(&self) -> Option<&Chart> {
        self.second.as_ref()
    }

    /// The bytes highlighted as differing.
    pub fn differences(&self) -> &[u8] {
        &self.differences
    }

    fn choosers_ui(&mut self, ui: &mut Ui) {
        let mut first = self.first.page;
        let mut second = self.second.as_ref().map(|chart| chart.page);
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Chart of");
            ComboBox::from_id_salt("chart encoding")
                .selected_text(first.name())
                .height(600.0)
                .show_ui(ui, |ui| {
                    super::encoding_menu_ui(ui, &mut first, Page::Encoding, charted);
                })
                .response
                .labelled_by(label.id);
            ui.add_space(12.0);
            let label = ui.label("compared with");
            ComboBox::from_id_salt("chart compared")
                .selected_text(second.map_or("nothing", Page::name))
                .height(600.0)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut second, None, "nothing");
                    ui.selectable_value(
                        &mut second,
                        Some(Page::Isomorphic),
                        Page::Isomorphic.name(),
                    );
                    super::encoding_menu_ui(
                        ui,
                        &mut second,
                        |encoding| Some(Page::Encoding(encoding)),
                        charted,
                    );
                })
                .response
                .labelled_by(label.id);
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("Compare:");
            for (a, b) in PRESETS {
                let preset = (Page::Encoding(a), Some(Page::Encoding(b)));
                let selected = (first, second) == preset;
                if ui
                    .add(Button::new(format!("{} / {}", a.name(), b.name())).selected(selected))
                    .clicked()
                {
                    (first, second) = preset;
                }
            }
        });
        if first != self.first.page || second != self.second.as_ref().map(|chart| chart.page) {
            self.show(first, second);
        }
    }

    fn summary_ui(&self, ui: &mut Ui, palette: &Palette) {
        let undefined = self.first.undefined_count();
        let compared = self.second.as_ref().map_or_else(String::new, |second| {
            let high = self.differences.iter().filter(|&&b| b >= 0xA0).count();
            let c1 = self
                .differences
                .iter()
                .filter(|&&b| (0x80..0xA0).contains(&b))
                .count();
            format!(
                "{} of 256 bytes decode differently in {} and {} ({c1} in 0x80–0x9F, {high} in \
                 0xA0–0xFF): highlighted, with {}'s character in the lower right corner. ",
                self.differences.len(),
                self.first.page.name(),
                second.page.name(),
                second.page.name(),
            )
        });
        let defined = if undefined > 0 {
            format!(
                "{} leaves {} undefined (—): they decode as errors.",
                self.first.page.name(),
                plural(undefined, "byte", "bytes")
            )
        } else {
            format!("{} defines all 256 bytes.", self.first.page.name())
        };
        let summary = format!("{compared}{defined}");
        ui.add(egui::Label::new(RichText::new(summary).color(palette.weak_fg)).wrap());
    }

    /// The chart, its 16 rows within `fit` pixels of height when they can
    /// be (the window's room below the summary: rows 0–F all in view on a
    /// 1280×800 screen).
    fn grid_ui(&self, ui: &mut Ui, palette: &Palette, fit: f32) {
        let label_width = 28.0;
        let cell_width = ((ui.available_width() - label_width) / 16.0)
            .floor()
            .clamp(34.0, 54.0);
        let cell_height = ((fit - 16.0) / 16.0).floor().clamp(MIN_CELL_HEIGHT, 42.0);
        let small = FontId::proportional(10.0);
        let (rect, _) = ui.allocate_exact_size(
            vec2(label_width + cell_width * 16.0, 16.0 + cell_height * 16.0),
            Sense::hover(),
        );
        let painter = ui.painter_at(rect);
        for column in 0..16u8 {
            let x = rect.left() + label_width + cell_width * (f32::from(column) + 0.5);
            painter.text(
                egui::pos2(x, rect.top() + 8.0),
                Align2::CENTER_CENTER,
                format!("_{column:X}"),
                FontId::monospace(11.0),
                palette.weak_fg,
            );
        }
        for row in 0..16u8 {
            let top = rect.top() + 16.0 + cell_height * f32::from(row);
            painter.text(
                egui::pos2(rect.left() + label_width / 2.0, top + cell_height / 2.0),
                Align2::CENTER_CENTER,
                format!("{row:X}_"),
                FontId::monospace(11.0),
                palette.weak_fg,
            );
            for column in 0..16u8 {
                let byte = row * 16 + column;
                let cell = Rect::from_min_size(
                    egui::pos2(
                        rect.left() + label_width + cell_width * f32::from(column),
                        top,
                    ),
                    vec2(cell_width, cell_height),
                );
                self.cell_ui(ui, palette, byte, cell, &small);
            }
        }
    }

    fn cell_ui(&self, ui: &mut Ui, palette: &Palette, byte: u8, cell: Rect, small: &FontId) {
        let code_point = self.first.code_point(byte);
        let differs = self.differences.contains(&byte);
        let painter = ui.painter();
        let fill = if differs {
            palette.difference_bg
        } else if code_point.is_none() {
            palette.malformed_bg
        } else {
            Color32::TRANSPARENT
        };
        painter.rect(
            cell.shrink(0.5),
            0.0,
            fill,
            Stroke::new(0.5, palette.scroll_track),
            StrokeKind::Inside,
        );
        painter.text(
            cell.left_top() + vec2(3.0, 2.0),
            Align2::LEFT_TOP,
            format!("{byte:02X}"),
            small.clone(),
            palette.weak_fg,
        );
        let ui_text = ui.visuals().strong_text_color();
        let (text, colour, size) = glyph(code_point, palette, ui_text);
        painter.text(
            cell.center() + vec2(0.0, 2.0),
            Align2::CENTER_CENTER,
            text,
            FontId::proportional(size),
            colour,
        );
        let second = self.second.as_ref().map(|second| second.code_point(byte));
        if differs && let Some(other) = second {
            let (text, colour, _) = glyph(other, palette, palette.weak_fg);
            painter.text(
                cell.right_bottom() + vec2(-3.0, -1.0),
                Align2::RIGHT_BOTTOM,
                text,
                small.clone(),
                colour,
            );
        }
        let mut description = format!(
            "0x{byte:02X} in {}: {}",
            self.first.page.name(),
            describe(code_point)
        );
        if let (Some(second), Some(other)) = (&self.second, second) {
            let differs = if differs { "\n(differs)" } else { "" };
            description = format!(
                "{description}\n0x{byte:02X} in {}: {}{differs}",
                second.page.name(),
                describe(other)
            );
        }
        let id = ui.scope_id().with(("chart cell", byte));
        let response = ui.interact(cell, id, Sense::hover());
        response.widget_info(|| WidgetInfo::labeled(Role::Cell, true, &description));
        response.on_hover_text(description);
    }

    fn note_ui(&mut self, ui: &mut Ui, palette: &Palette) {
        let Some(note) = &self.note else {
            return;
        };
        ui.add_space(8.0);
        ui.horizontal_wrapped(|ui| {
            ui.strong("Why the label \u{201C}iso-8859-1\u{201D} means windows-1252");
            citation_ui(ui, &LATIN1_NOTE, "the standard's note");
        });
        let c1: Vec<String> = note
            .c1_differs
            .iter()
            .map(|&(byte, c)| format!("{byte:02X} {c}"))
            .collect();
        let same: Vec<String> = (0x80..=0x9Fu8)
            .filter(|byte| !note.c1_differs.iter().any(|&(b, _)| b == *byte))
            .map(|byte| format!("{byte:02X}"))
            .collect();
        let high = if note.high_differs.is_empty() {
            "From 0xA0 to 0xFF the two agree byte for byte.".to_owned()
        } else {
            format!(
                "From 0xA0 to 0xFF they differ at {}.",
                super::hex(&note.high_differs)
            )
        };
        let text = format!(
            "\u{201C}Get an encoding\u{201D} maps the label iso-8859-1 to {}, as it does all of \
             these labels: {}. ISO/IEC 8859-1 left 0x80 to 0x9F to the C1 controls; read byte \
             for byte, 0x80 is U+0080. {} decodes {} of those 32 bytes to printable characters \
             instead: {}. The other {} ({}) stay C1 controls. {high} Browsers decoded pages \
             labelled ISO-8859-1 this way, and the standard made it the rule.",
            note.encoding.name(),
            note.labels.join(", "),
            note.encoding.name(),
            note.c1_differs.len(),
            c1.join(" · "),
            same.len(),
            same.join(" "),
        );
        ui.add(egui::Label::new(text).wrap());
        let preset = (Page::Encoding(note.encoding), Some(Page::Isomorphic));
        if ui
            .button(format!(
                "Chart {} against isomorphic decoding",
                note.encoding.name()
            ))
            .clicked()
        {
            self.show(preset.0, preset.1);
        }
        ui.label(
            RichText::new("(U+XXXX and the character's name show when you hover over a cell.)")
                .color(palette.weak_fg),
        );
    }
}

/// How a cell draws a code point (see [`drawn`]), undefined as a dash.
/// Returns the text, its colour and its size.
fn glyph(code_point: Option<char>, palette: &Palette, text: Color32) -> (String, Color32, f32) {
    match code_point.map(drawn) {
        None => ("—".to_owned(), palette.malformed_fg, 16.0),
        Some((stand_in, true)) => (stand_in, palette.control_fg, 10.0),
        Some((character, false)) => (character, text, 17.0),
    }
}

/// A code point for the hover text: "U+20AC EURO SIGN (€)".
fn describe(code_point: Option<char>) -> String {
    code_point.map_or_else(
        || "undefined: decodes as an error".to_owned(),
        describe_drawn,
    )
}

impl View for CodePageChart {
    fn name(&self) -> &'static str {
        "Code page chart"
    }

    fn ui(&mut self, ui: &mut Ui) {
        let palette = Palette::for_theme(ui.ctx().theme());
        self.choosers_ui(ui);
        self.summary_ui(ui, palette);
        ui.separator();
        let fit = ui.available_height();
        ScrollArea::vertical()
            .id_salt("code page chart")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                self.grid_ui(ui, palette, fit);
                self.note_ui(ui, palette);
            });
    }
}

#[cfg(test)]
mod tests {
    use mojiscope_core::SHIFT_JIS;

    use super::*;

    fn chart(encoding: &'static Encoding) -> Chart {
        Chart::new(Page::Encoding(encoding)).unwrap()
    }

    #[test]
    fn charts_are_the_code_pages_and_compare_cell_by_cell() {
        assert!(Chart::new(Page::Encoding(SHIFT_JIS)).is_none());
        let windows_1252 = chart(WINDOWS_1252);
        let iso_8859_15 = chart(ISO_8859_15);
        assert_eq!(windows_1252.code_point(0x80), Some('€'));
        assert_eq!(windows_1252.code_point(0x41), Some('A'));
        assert_eq!(iso_8859_15.code_point(0xA4), Some('€'));
        // windows-1252 and ISO-8859-15: the 8 bytes ISO-8859-15 changed
        // from ISO-8859-1, and the 27 of 0x80 to 0x9F where windows-1252
        // has characters and ISO-8859-15 the C1 controls.
        let differ = windows_1252.differences(&iso_8859_15);
        assert_eq!(differ.len(), 35);
        let high: Vec<u8> = differ.iter().copied().filter(|&b| b >= 0xA0).collect();
        assert_eq!(high, [0xA4, 0xA6, 0xA8, 0xB4, 0xB8, 0xBC, 0xBD, 0xBE]);
        // Read byte for byte, ISO-8859-1 differs from ISO-8859-15 in just
        // those 8.
        let isomorphic = Chart::new(Page::Isomorphic).unwrap();
        assert_eq!(isomorphic.differences(&iso_8859_15), high);
        assert_eq!(isomorphic.code_point(0x80), Some('\u{80}'));
        assert_eq!(chart(ISO_8859_8).undefined_count(), 36);
        assert_eq!(windows_1252.undefined_count(), 0);
        assert_eq!(chart(X_USER_DEFINED).code_point(0xFF), Some('\u{F7FF}'));
    }

    #[test]
    fn the_presets_compare_single_byte_encodings_that_differ() {
        for (a, b) in PRESETS {
            let differ = chart(a).differences(&chart(b));
            assert!(!differ.is_empty(), "{a} / {b}");
            assert!(differ.iter().all(|&byte| byte >= 0x80), "{a} / {b}");
        }
        assert_eq!(chart(KOI8_R).differences(&chart(KOI8_U)).len(), 10);
    }

    #[test]
    fn the_latin1_note_is_computed_from_get_an_encoding() {
        let note = Latin1Note::new().unwrap();
        assert_eq!(note.encoding, WINDOWS_1252);
        assert!(note.labels.contains(&"latin1") && note.labels.contains(&"us-ascii"));
        assert_eq!(note.c1_differs.len(), 27);
        assert_eq!(note.c1_differs[0], (0x80, '€'));
        let same: Vec<u8> = (0x80..=0x9F)
            .filter(|byte| !note.c1_differs.iter().any(|(b, _)| b == byte))
            .collect();
        assert_eq!(same, [0x81, 0x8D, 0x8F, 0x90, 0x9D]);
        assert!(note.high_differs.is_empty());
    }

    #[test]
    fn the_chart_shows_what_it_is_asked_for() {
        let mut view = CodePageChart::default();
        assert_eq!(view.first().page, Page::Encoding(WINDOWS_1252));
        assert_eq!(view.differences().len(), 35);
        view.show(Page::Encoding(KOI8_R), Some(Page::Encoding(KOI8_U)));
        assert_eq!(view.differences().len(), 10);
        view.show(Page::Encoding(KOI8_R), None);
        assert!(view.differences().is_empty() && view.second().is_none());
        // Not a single-byte encoding: the chart stays.
        view.show(Page::Encoding(SHIFT_JIS), None);
        assert_eq!(view.first().page, Page::Encoding(KOI8_R));
    }
}
