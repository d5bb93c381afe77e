//! The teaching views: how bytes become characters, and how the encodings
//! compare. Each lesson is a window opened from the Learn menu (a [`View`]);
//! the decoder's steps for the selection live in the inspector
//! ([`explain`]).
//!
//! Everything shown comes from `mojiscope-core`: the steps from
//! [`Explanation`](mojiscope_core::Explanation), the charts from
//! [`CodePage`](mojiscope_core::CodePage), the indexes from
//! [`Index`](mojiscope_core::Index), the bytes from the encoders. Nothing
//! here describes the standard a second time.

pub mod code_page;
pub mod explain;
pub mod index_browser;
pub mod lab;
pub mod where_is;

use eframe::egui::{self, Button, RichText, Ui, Window};
use mojiscope_core::{ByteSpan, Citation, Encoding, TraceItem, TraceKind};
use unicode_width::UnicodeWidthChar as _;

use self::code_page::CodePageChart;
use self::index_browser::IndexBrowser;
use self::lab::MojibakeLab;
use self::where_is::WhereIs;
use crate::model::command::{Command, Lesson};
use crate::model::hex::{HexError, parse_hex};
use crate::ui::cells::{CellKind, cell_of, describe_char};

/// A teaching view: a window of its own, listed in the Learn menu.
pub trait View {
    /// The window's title, as the Learn menu lists it.
    fn name(&self) -> &'static str;

    /// Shows the view's contents.
    fn ui(&mut self, ui: &mut Ui);
}

/// The lessons' views and which windows are open.
#[derive(Default)]
pub struct Teaching {
    /// Learn ▸ Code page chart.
    pub chart: CodePageChart,
    /// Learn ▸ Index browser.
    pub index: IndexBrowser,
    /// Learn ▸ Where is this character?
    pub where_is: WhereIs,
    /// Learn ▸ Mojibake lab.
    pub lab: MojibakeLab,
    /// Which windows are open, as [`Lesson::ALL`].
    open: [bool; 4],
}

impl Teaching {
    /// The view of `lesson`.
    pub fn view(&self, lesson: Lesson) -> &dyn View {
        match lesson {
            Lesson::CodePageChart => &self.chart,
            Lesson::IndexBrowser => &self.index,
            Lesson::WhereIs => &self.where_is,
            Lesson::MojibakeLab => &self.lab,
        }
    }

    fn view_mut(&mut self, lesson: Lesson) -> &mut dyn View {
        match lesson {
            Lesson::CodePageChart => &mut self.chart,
            Lesson::IndexBrowser => &mut self.index,
            Lesson::WhereIs => &mut self.where_is,
            Lesson::MojibakeLab => &mut self.lab,
        }
    }

    /// Opens the window of `lesson` (next frame), or keeps it open.
    pub fn open(&mut self, lesson: Lesson) {
        self.open[slot(lesson)] = true;
    }

    /// Whether the window of `lesson` is open.
    pub fn is_open(&self, lesson: Lesson) -> bool {
        self.open[slot(lesson)]
    }

    /// Shows the open windows, over the rest of the app.
    pub fn ui(&mut self, ui: &mut Ui) {
        for lesson in Lesson::ALL {
            let mut open = self.open[slot(lesson)];
            if !open {
                continue;
            }
            let (pos, size) = crate::ui::fit_in_screen(
                ui.ctx().content_rect(),
                default_pos(lesson),
                default_size(lesson),
            );
            let view = self.view_mut(lesson);
            Window::new(view.name())
                .open(&mut open)
                .default_pos(pos)
                .default_size(size)
                .vscroll(false)
                .show(ui.ctx(), |ui| view.ui(ui));
            self.open[slot(lesson)] = open;
        }
    }
}

/// The Learn menu: a button per lesson, and where the decoder's steps are.
pub fn learn_menu_ui(ui: &mut Ui, teaching: &Teaching, commands: &mut Vec<Command>) {
    for lesson in Lesson::ALL {
        let name = teaching.view(lesson).name();
        // The first letter is the access key: the four start differently.
        if crate::ui::menu::item(ui, &format!("&{name}"), None, true) {
            commands.push(Command::ShowLesson(lesson));
        }
    }
    ui.separator();
    ui.label(
        RichText::new(
            "The decoder's steps for any bytes: select them, then open\n\
             \u{201C}Steps of the … decoder\u{201D} in the inspector.",
        )
        .small()
        .weak(),
    );
}

/// Where the window first opens: below the menu bar, each a little
/// further in, so that windows opened together do not hide each other.
fn default_pos(lesson: Lesson) -> egui::Pos2 {
    let step = 28.0 * f32::from(u8::try_from(slot(lesson)).unwrap_or(0));
    egui::pos2(24.0 + step, 64.0 + step)
}

/// The window's size when it first opens.
fn default_size(lesson: Lesson) -> egui::Vec2 {
    match lesson {
        Lesson::CodePageChart => egui::vec2(900.0, 690.0),
        Lesson::IndexBrowser => egui::vec2(960.0, 640.0),
        Lesson::WhereIs => egui::vec2(640.0, 660.0),
        Lesson::MojibakeLab => egui::vec2(820.0, 640.0),
    }
}

fn slot(lesson: Lesson) -> usize {
    Lesson::ALL
        .iter()
        .position(|&l| l == lesson)
        .unwrap_or_default()
}

/// Bytes as spaced hex: "82 A0".
pub fn hex(bytes: &[u8]) -> String {
    let spaced: Vec<String> = bytes.iter().map(|byte| format!("{byte:02X}")).collect();
    spaced.join(" ")
}

/// The bytes typed in a byte field, in hex as [`crate::model::hex`] reads
/// them (as `mojiscope explain` does).
///
/// # Errors
/// What is wrong with the text, for the user.
pub fn typed_bytes(text: &str) -> Result<Vec<u8>, String> {
    parse_hex(text).map_err(|error| match error {
        HexError::NotHexDigit { token, .. } => {
            format!("{token:?} is not hex (type bytes as 82 A0)")
        }
        HexError::Empty => "type bytes in hex, such as 82 A0".to_owned(),
        error @ HexError::OddDigits { .. } => format!("{error} (type bytes as 82 A0)"),
    })
}

/// A character the user typed: itself, or `U+XXXX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypedCharacter {
    /// The character.
    pub character: char,
    /// How many more characters followed it (only the first is used).
    pub more: usize,
}

/// Parses a typed character: "あ", or "U+3042" (also "u+3042", "U+1F600").
///
/// # Errors
/// What is wrong with the text, for the user.
pub fn parse_character(text: &str) -> Result<TypedCharacter, String> {
    let trimmed = text.trim();
    if let Some(digits) = trimmed
        .strip_prefix("U+")
        .or_else(|| trimmed.strip_prefix("u+"))
        && !digits.is_empty()
    {
        let value = u32::from_str_radix(digits, 16)
            .map_err(|_| format!("{trimmed} is not a code point (U+ and hex digits)"))?;
        let character = char::from_u32(value).ok_or_else(|| {
            format!("{trimmed} is not a scalar value (a surrogate, or past U+10FFFF)")
        })?;
        return Ok(TypedCharacter { character, more: 0 });
    }
    // A space is a character too: trim only when something else is there.
    let text = if trimmed.is_empty() { text } else { trimmed };
    let mut chars = text.chars();
    let character = chars
        .next()
        .ok_or_else(|| "type a character, or U+ and its code point".to_owned())?;
    Ok(TypedCharacter {
        character,
        more: chars.count(),
    })
}

/// How a chart cell draws a character: as the decode panes draw it
/// (controls as their abbreviation), a Private Use Area code point, which
/// fonts do not draw, as "PUA", and a combining mark on a dotted circle
/// (U+25CC), which it would otherwise have nothing to sit on. Returns the
/// text and whether it is a stand-in rather than the character itself.
pub fn drawn(c: char) -> (String, bool) {
    if matches!(u32::from(c), 0xE000..=0xF8FF | 0xF_0000..=0x10_FFFF) {
        return ("PUA".to_owned(), true);
    }
    let cell = cell_of(TraceItem {
        span: ByteSpan::new(0, 0),
        kind: TraceKind::Scalar(c),
    });
    match cell.kind {
        CellKind::Control => (cell.text, true),
        // Zero width and not a control: a combining mark (or a format
        // character that cell_of does not abbreviate).
        _ if c.width() == Some(0) => (format!("\u{25CC}{c}"), false),
        _ => (cell.text, false),
    }
}

/// "U+3042 HIRAGANA LETTER A (あ)".
pub fn describe_drawn(c: char) -> String {
    format!("{} ({})", describe_char(c), drawn(c).0)
}

/// A step number (or section) of the standard, as a small button: hovering
/// shows the address, clicking copies it. (eframe's `links` feature would
/// open a browser, but brings a URL parser and about twenty crates.)
pub fn citation_ui(ui: &mut Ui, citation: &Citation, text: &str) -> egui::Response {
    let url = citation.url();
    let response = ui
        .add(Button::new(RichText::new(text).monospace()).small())
        .on_hover_text(format!("{url}\n(click to copy the link)"));
    if response.clicked() {
        ui.ctx().copy_text(url);
    }
    response
}

/// The encodings as a chooser lists them: grouped by the standard's
/// sections, those for which `offer` holds; picking one sets `chosen` to
/// `value(encoding)`.
pub fn encoding_menu_ui<T: PartialEq>(
    ui: &mut Ui,
    chosen: &mut T,
    value: impl Fn(&'static Encoding) -> T,
    offer: impl Fn(&'static Encoding) -> bool,
) {
    for group in mojiscope_core::Group::ALL {
        let encodings: Vec<_> = group.encodings().filter(|&e| offer(e)).collect();
        if encodings.is_empty() {
            continue;
        }
        ui.label(RichText::new(group.heading()).small().weak());
        for encoding in encodings {
            ui.selectable_value(chosen, value(encoding), encoding.name());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_parsed_in_the_usual_spellings() {
        for text in [
            "82 A0",
            "82a0",
            "0x82 0xA0",
            "0x82,0xa0",
            "\\x82\\xA0",
            " 82  a0 ",
        ] {
            assert_eq!(typed_bytes(text), Ok(vec![0x82, 0xA0]), "{text:?}");
        }
        assert_eq!(typed_bytes("8"), Ok(vec![0x08]));
        assert_eq!(typed_bytes("81 30 81 30"), Ok(vec![0x81, 0x30, 0x81, 0x30]));
        assert!(typed_bytes("").is_err());
        assert!(typed_bytes("zz").unwrap_err().contains("not hex"));
        assert_eq!(hex(&[0x82, 0xA0]), "82 A0");
        assert_eq!(hex(&[]), "");
    }

    #[test]
    fn characters_are_typed_or_given_as_code_points() {
        let typed = |text| parse_character(text).map(|t| (t.character, t.more));
        assert_eq!(typed("あ"), Ok(('あ', 0)));
        assert_eq!(typed(" あ "), Ok(('あ', 0)));
        assert_eq!(typed("U+3042"), Ok(('あ', 0)));
        assert_eq!(typed("u+1f600"), Ok(('😀', 0)));
        assert_eq!(typed("été"), Ok(('é', 2)));
        assert_eq!(typed(" "), Ok((' ', 0)));
        assert_eq!(typed("U+"), Ok(('U', 1)));
        assert!(typed("").is_err());
        assert!(typed("U+D800").unwrap_err().contains("surrogate"));
        assert!(typed("U+XYZ").unwrap_err().contains("not a code point"));
    }

    #[test]
    fn cells_draw_controls_and_private_use_as_stand_ins() {
        assert_eq!(drawn('あ'), ("あ".to_owned(), false));
        assert_eq!(drawn('\n'), ("LF".to_owned(), true));
        assert_eq!(drawn('\u{85}'), ("85".to_owned(), true));
        assert_eq!(drawn('\u{E000}'), ("PUA".to_owned(), true));
        assert_eq!(describe_drawn('€'), "U+20AC EURO SIGN (€)");
        assert_eq!(drawn('\u{303}'), ("\u{25CC}\u{303}".to_owned(), false));
    }
}
