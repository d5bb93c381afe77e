//! Learn ▸ Where is this character?: a character's bytes in every encoding
//! that has an encoder, or that it cannot be encoded there and what html
//! mode writes instead. Each distinct outcome is one row, naming every
//! encoding that shares it.

use eframe::egui::{Button, Grid, Label, RichText, ScrollArea, TextEdit, Ui};

/// The most characters of encoding names on one line of a row.
const NAMES_LINE: usize = 40;
use mojiscope_core::{CharacterBytes, character_bytes};

use super::{View, describe_drawn, hex, parse_character};
use crate::theme::Palette;

/// One row of the table: one outcome, and the encodings that share it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The encodings' names, in the standard's order.
    pub encodings: Vec<&'static str>,
    /// The bytes, spaced hex (what html mode writes, when it cannot encode
    /// the character).
    pub hex: String,
    /// What the row says besides the bytes.
    pub note: String,
    /// Whether the encoding can encode the character.
    pub encodable: bool,
}

/// The rows for `c`: one for each distinct outcome over every encoding
/// with an encoder (the same bytes, or the same "cannot be encoded"),
/// those that encode it first, each part in the standard's order of its
/// first encoding.
pub fn rows(c: char) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    let outcomes = character_bytes(c).into_iter().map(
        |CharacterBytes {
             encoding,
             bytes,
             encodable,
             ..
         }| {
            let note = if encodable {
                match bytes.len() {
                    1 => "1 byte".to_owned(),
                    len => format!("{len} bytes"),
                }
            } else {
                format!(
                    "cannot be encoded: html mode writes {}",
                    String::from_utf8_lossy(&bytes)
                )
            };
            Row {
                encodings: vec![encoding.name()],
                hex: hex(&bytes),
                note,
                encodable,
            }
        },
    );
    for outcome in outcomes {
        match rows
            .iter_mut()
            .find(|row| row.hex == outcome.hex && row.encodable == outcome.encodable)
        {
            Some(row) => row.encodings.extend(outcome.encodings),
            None => rows.push(outcome),
        }
    }
    // A stable sort: the standard's order within each part.
    rows.sort_by_key(|row| !row.encodable);
    rows
}

/// The names of a row's encodings, comma-separated, broken into lines of
/// at most `NAMES_LINE` characters (a name longer stays whole).
pub fn names_text(names: &[&str]) -> String {
    let mut text = String::new();
    let mut line = 0;
    for (index, name) in names.iter().enumerate() {
        if index > 0 {
            text.push(',');
            if line + 2 + name.len() > NAMES_LINE {
                text.push('\n');
                line = 0;
            } else {
                text.push(' ');
                line += 2;
            }
        }
        text.push_str(name);
        line += name.len();
    }
    text
}

/// The "Where is this character?" window.
pub struct WhereIs {
    query: String,
    /// The character the rows are for, and the rows.
    shown: Option<(char, Vec<Row>)>,
    /// The hex last copied.
    copied: Option<String>,
}

impl Default for WhereIs {
    fn default() -> Self {
        let mut view = Self {
            query: String::new(),
            shown: None,
            copied: None,
        };
        view.set_query("あ");
        view
    }
}

impl WhereIs {
    /// Looks up what `query` names (a character, or U+XXXX).
    pub fn set_query(&mut self, query: &str) {
        query.clone_into(&mut self.query);
        self.refresh();
    }

    /// The rows shown.
    pub fn rows(&self) -> &[Row] {
        self.shown.as_ref().map_or(&[], |(_, rows)| rows)
    }

    fn refresh(&mut self) {
        let Ok(typed) = parse_character(&self.query) else {
            self.shown = None;
            return;
        };
        if self.shown.as_ref().map(|(c, _)| *c) != Some(typed.character) {
            self.shown = Some((typed.character, rows(typed.character)));
            self.copied = None;
        }
    }
}

impl View for WhereIs {
    fn name(&self) -> &'static str {
        "Where is this character?"
    }

    fn ui(&mut self, ui: &mut Ui) {
        let palette = Palette::for_theme(ui.ctx().theme());
        ui.horizontal(|ui| {
            let label = ui.label("Character:");
            let edit = ui
                .add(
                    TextEdit::singleline(&mut self.query)
                        .hint_text("あ, or U+3042")
                        .desired_width(160.0),
                )
                .labelled_by(label.id);
            if edit.changed() {
                self.refresh();
            }
        });
        let parsed = parse_character(&self.query);
        match (&parsed, &self.shown) {
            (Err(message), _) => {
                ui.label(RichText::new(message).color(palette.malformed_fg));
                return;
            }
            (Ok(typed), Some((c, _))) => {
                let mut heading = describe_drawn(*c);
                if typed.more > 0 {
                    heading = format!(
                        "{heading} (the first of the {} characters typed)",
                        typed.more + 1
                    );
                }
                ui.label(RichText::new(heading).strong());
            }
            (Ok(_), None) => return,
        }
        ui.label(
            RichText::new(
                "What each encoder writes for it alone (click the bytes to copy them). UTF-16BE \
                 and UTF-16LE have no encoder in the standard, nor has replacement.",
            )
            .color(palette.weak_fg),
        );
        if let Some(copied) = &self.copied {
            ui.label(RichText::new(format!("Copied {copied}")).color(palette.weak_fg));
        }
        ui.separator();
        let Some((_, rows)) = &self.shown else {
            return;
        };
        let mut copy = None;
        ScrollArea::vertical()
            .id_salt("where is rows")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                Grid::new("where is grid")
                    .striped(true)
                    .num_columns(3)
                    .show(ui, |ui| {
                        for row in rows {
                            ui.add(Label::new(names_text(&row.encodings)).extend());
                            let bytes = RichText::new(&row.hex).monospace();
                            if ui
                                .add(Button::new(bytes).frame(false))
                                .on_hover_text("Copy these bytes")
                                .clicked()
                            {
                                copy = Some(row.hex.clone());
                            }
                            let note = RichText::new(&row.note);
                            ui.label(if row.encodable {
                                note.color(palette.weak_fg)
                            } else {
                                note.color(palette.malformed_fg)
                            });
                            ui.end_row();
                        }
                    });
            });
        if let Some(hex) = copy {
            ui.ctx().copy_text(hex.clone());
            self.copied = Some(hex);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row<'a>(rows: &'a [Row], encoding: &str) -> &'a Row {
        rows.iter()
            .find(|row| row.encodings.contains(&encoding))
            .unwrap()
    }

    #[test]
    fn each_outcome_is_one_row_naming_the_encodings_that_share_it() {
        let hiragana = rows('あ');
        // Every encoding with an encoder, once.
        let mut named: Vec<&str> = hiragana
            .iter()
            .flat_map(|row| row.encodings.iter().copied())
            .collect();
        assert_eq!(named.len(), 37);
        named.sort_unstable();
        named.dedup();
        assert_eq!(named.len(), 37);
        // No two rows say the same.
        for (i, a) in hiragana.iter().enumerate() {
            for b in &hiragana[i + 1..] {
                assert!(
                    (&a.hex, a.encodable) != (&b.hex, b.encodable),
                    "{a:?} {b:?}"
                );
            }
        }
        // The single-byte encodings cannot encode it, all alike: one row.
        let cannot = row(&hiragana, "windows-1252");
        assert!(cannot.encodings.contains(&"ISO-8859-2"));
        assert!(cannot.encodings.contains(&"KOI8-R"));
        assert_eq!(
            hiragana.iter().filter(|row| !row.encodable).count(),
            1,
            "{hiragana:?}"
        );
        // gb18030 and GBK write the same bytes: one row for both.
        assert_eq!(row(&hiragana, "GBK"), row(&hiragana, "gb18030"));
        assert!(hiragana.len() < 12, "{}", hiragana.len());
    }

    #[test]
    fn names_break_into_short_lines() {
        assert_eq!(names_text(&["UTF-8"]), "UTF-8");
        assert_eq!(names_text(&["GBK", "gb18030"]), "GBK, gb18030");
        let cannot = row(&rows('あ'), "windows-1252").encodings.clone();
        let text = names_text(&cannot);
        assert!(text.lines().count() > 3, "{text}");
        assert!(
            text.lines().all(|line| line.len() <= NAMES_LINE + 1),
            "{text}"
        );
        assert_eq!(text.replace('\n', " "), cannot.join(", "));
    }

    #[test]
    fn rows_give_the_bytes_or_what_html_mode_writes() {
        let hiragana = rows('あ');
        let shift_jis = row(&hiragana, "Shift_JIS");
        assert_eq!(
            (shift_jis.hex.as_str(), shift_jis.encodable),
            ("82 A0", true)
        );
        assert_eq!(shift_jis.note, "2 bytes");
        assert_eq!(row(&hiragana, "UTF-8").hex, "E3 81 82");
        let snowman = rows('☃');
        let windows_1252 = row(&snowman, "windows-1252");
        assert!(!windows_1252.encodable);
        assert_eq!(
            windows_1252.note,
            "cannot be encoded: html mode writes &#9731;"
        );
        assert_eq!(windows_1252.hex, "26 23 39 37 33 31 3B");
        assert_eq!(row(&snowman, "gb18030").hex, "81 37 A3 30");
    }

    #[test]
    fn the_view_follows_what_is_typed() {
        let mut view = WhereIs::default();
        assert_eq!(row(view.rows(), "EUC-JP").hex, "A4 A2");
        view.set_query("U+20AC");
        assert_eq!(row(view.rows(), "windows-1252").hex, "80");
        view.set_query("");
        assert!(view.rows().is_empty());
    }
}
