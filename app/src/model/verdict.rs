//! What the file is, at a glance: the verdict line under the toolbar and
//! the window's title, in words, from what the jobs learned (no egui).
//!
//! The verdict names the encoding the file is in, what it declares of
//! itself, how sure detection is and how many errors that reading has;
//! or, before that, the one thing the user should do about the file:
//! repair its mojibake, or save UTF-16 without a byte order mark as UTF-8.
//! A file in several encodings is said so first, with the lines of each.

use std::path::Path;

use mojiscope_core::{ByteSpan, DeclarationSource, Detection, Encoding, Note, Segmentation};

use crate::model::analysis::lines::LineIndex;
use crate::model::wording::plural;

/// What the verdict line offers to do about the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Open the Repair window on the focused pane.
    Repair,
    /// Open Save as with UTF-8 chosen.
    SaveAsUtf8,
    /// Open Save as on the focused pane's text (with the changes applied
    /// to it).
    SaveAs,
}

impl Action {
    /// The button's label.
    pub fn label(self) -> &'static str {
        match self {
            Action::Repair => "Repair…",
            Action::SaveAsUtf8 => "Save as UTF-8…",
            Action::SaveAs => "Save as…",
        }
    }
}

/// The verdict line: its words, whether they are bad news, and what it
/// offers to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// What the file is, e.g. "Shift_JIS · declared in the XML
    /// declaration · detected 100% · no errors".
    pub text: String,
    /// Whether the file needs the user's attention (errors, mojibake,
    /// UTF-16 without a byte order mark, a declaration the bytes
    /// contradict).
    pub warning: bool,
    /// The button after the text, if any.
    pub action: Option<Action>,
}

/// What the verdict is made of.
#[derive(Clone, Copy, Debug, Default)]
pub struct Facts<'a> {
    /// The encoding a byte order mark decides, if the file starts with one.
    pub bom: Option<&'static Encoding>,
    /// Detection's ranking, once known.
    pub detection: Option<&'a Detection>,
    /// The file's parts, when it is in more than one encoding.
    pub segments: Option<&'a Segmentation>,
    /// The row index, for the parts' line numbers (byte offsets until it
    /// is complete).
    pub lines: Option<&'a LineIndex>,
    /// The errors of each encoding whose count is known, over the whole
    /// file.
    pub errors: &'a [(&'static Encoding, u64)],
    /// The mojibake a repair of the best reading's start found: the
    /// damage's name ("UTF-8 read as windows-1252") and how many changes.
    pub mojibake: Option<(&'a str, usize)>,
    /// The changes applied to a pane's text (a repair's, or
    /// reinterpretations by hand).
    pub applied: Option<Applied>,
}

/// Changes applied to a pane's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The pane, from 0.
    pub pane: usize,
    /// How many.
    pub changes: usize,
    /// Whether the text with them was saved since the last of them.
    pub saved: bool,
}

impl Facts<'_> {
    fn errors_of(&self, encoding: &Encoding) -> Option<u64> {
        self.errors
            .iter()
            .find(|(e, _)| *e == encoding)
            .map(|&(_, errors)| errors)
    }
}

/// "no errors", "1 error", "12 errors".
fn errors_text(errors: u64) -> String {
    if errors == 0 {
        "no errors".to_owned()
    } else {
        plural(errors, "error", "errors")
    }
}

/// Where a declaration is, as the verdict says it.
fn declared_where(source: DeclarationSource) -> &'static str {
    match source {
        DeclarationSource::HtmlMeta => "a <meta> tag",
        DeclarationSource::XmlDeclaration => "the XML declaration",
        DeclarationSource::CssCharset => "an @charset rule",
    }
}

/// The verdict on a file, from what is known of it so far.
pub fn verdict(facts: &Facts<'_>) -> Verdict {
    let mut parts: Vec<String> = Vec::new();
    let mut warning = false;
    if let Some(bom) = facts.bom {
        parts.push(format!("{} · byte order mark", bom.name()));
        if let Some(errors) = facts.errors_of(bom) {
            warning |= errors > 0;
            parts.push(errors_text(errors));
        }
        return Verdict {
            text: parts.join(" · "),
            warning,
            action: None,
        };
    }
    let Some(detection) = facts.detection else {
        return Verdict {
            text: "Detecting the encoding…".to_owned(),
            warning: false,
            action: None,
        };
    };
    if let Some(utf16) = detection.utf16_without_bom() {
        return Verdict {
            text: format!("{} without a byte order mark", utf16.name()),
            warning: true,
            action: Some(Action::SaveAsUtf8),
        };
    }
    if let Some(text) = facts.segments.and_then(|s| parts_text(s, facts.lines)) {
        return Verdict {
            text,
            warning: true,
            action: None,
        };
    }
    if let Some(applied) = facts.applied {
        return applied_verdict(applied, facts.mojibake);
    }
    if let Some((damage, changes)) = facts.mojibake {
        return mojibake_verdict(damage, changes);
    }
    let best = detection.best_override_choice();
    if detection.notes.contains(&Note::Empty) {
        return Verdict {
            text: "Empty file".to_owned(),
            warning: false,
            action: None,
        };
    }
    if detection.notes.contains(&Note::AsciiOnly) {
        parts.push("ASCII only: every ASCII-compatible encoding reads it the same".to_owned());
    } else {
        parts.push(best.name().to_owned());
    }
    if let Some(declaration) = &detection.declaration {
        let place = declared_where(declaration.source);
        let agree = detection.notes.iter().any(|note| {
            matches!(
                note,
                Note::Declared {
                    bytes_agree: true,
                    ..
                }
            )
        }) || declaration.encoding == best;
        if agree {
            parts.push(format!("declared in {place}"));
        } else {
            warning = true;
            parts.push(format!(
                "{place} declares {}, which the bytes contradict",
                declaration.encoding.name()
            ));
        }
    }
    let weak = detection
        .notes
        .iter()
        .any(|note| matches!(note, Note::WeakEvidence { .. }));
    parts.push(format!(
        "detected {}{}",
        percent(detection.confidence),
        if weak { " (weak evidence)" } else { "" }
    ));
    match facts.errors_of(best) {
        Some(errors) => {
            warning |= errors > 0;
            parts.push(errors_text(errors));
        }
        None => parts.push("counting errors…".to_owned()),
    }
    Verdict {
        text: parts.join(" · "),
        warning,
        action: None,
    }
}

/// The verdict on mojibake a repair of the start found: its name, how
/// many changes, and the Repair window one click away.
fn mojibake_verdict(damage: &str, changes: usize) -> Verdict {
    Verdict {
        text: format!(
            "Looks like {damage} ({} at the start)",
            plural(changes, "change", "changes")
        ),
        warning: true,
        action: Some(Action::Repair),
    }
}

/// The verdict once changes are applied to a pane's text: the file still
/// holds what was repaired, and what the user has to do now is save the
/// repaired text, if it is not saved yet.
fn applied_verdict(applied: Applied, mojibake: Option<(&str, usize)>) -> Verdict {
    let repaired = mojibake.map_or_else(String::new, |(damage, _)| format!("{damage}, repaired: "));
    let saved = if applied.saved {
        "saved"
    } else {
        "not saved yet"
    };
    Verdict {
        text: format!(
            "{repaired}{} applied in pane {}, {saved}",
            plural(applied.changes, "change", "changes"),
            applied.pane + 1,
        ),
        warning: false,
        action: (!applied.saved).then_some(Action::SaveAs),
    }
}

/// "2 encodings: UTF-8 (lines 1–30, 43–62), windows-1252 (lines 31–42)":
/// each encoding of a file in several, in the order they first appear,
/// with its lines (its bytes, "bytes 0–1233", while the row index is not
/// complete). `None` for a file in one encoding.
pub fn parts_text(segmentation: &Segmentation, lines: Option<&LineIndex>) -> Option<String> {
    if !segmentation.is_mixed() {
        return None;
    }
    let mut encodings: Vec<(&'static Encoding, Vec<Place>)> = Vec::new();
    for segment in &segmentation.segments {
        let Some(place) = Place::of(segment.byte_span, lines) else {
            continue;
        };
        match encodings.iter_mut().find(|(e, _)| *e == segment.encoding) {
            Some((_, places)) => places.push(place),
            None => encodings.push((segment.encoding, vec![place])),
        }
    }
    if encodings.len() < 2 {
        return None;
    }
    let parts: Vec<String> = encodings
        .iter()
        .map(|(encoding, places)| format!("{} ({})", encoding.name(), Place::list(places)))
        .collect();
    Some(format!(
        "{} encodings: {}",
        encodings.len(),
        parts.join(", ")
    ))
}

/// Where a part of the file is: "lines 31–42", "line 7", or "bytes
/// 0–1233" (the last byte included) while the row index is not complete.
pub fn place_text(span: ByteSpan, lines: Option<&LineIndex>) -> String {
    Place::of(span, lines).map_or_else(|| "empty".to_owned(), |place| Place::list(&[place]))
}

/// The first and last line (counting from 1) or byte of a part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Lines(u64, u64),
    Bytes(u64, u64),
}

impl Place {
    /// `None` for an empty span.
    fn of(span: ByteSpan, lines: Option<&LineIndex>) -> Option<Place> {
        let last = span.end.checked_sub(1).filter(|&last| last >= span.start)?;
        let line = |lines: &LineIndex, offset| lines.line_of(offset).map(|(line, _)| line);
        let in_lines = lines
            .filter(|lines| lines.is_complete())
            .and_then(|lines| Some(Place::Lines(line(lines, span.start)?, line(lines, last)?)));
        Some(in_lines.unwrap_or(Place::Bytes(span.start, last)))
    }

    fn range(self) -> String {
        let (Place::Lines(first, last) | Place::Bytes(first, last)) = self;
        if first == last {
            first.to_string()
        } else {
            format!("{first}–{last}")
        }
    }

    /// "lines 1–30, 43–62", "line 7", "bytes 0–99, 200–299".
    fn list(places: &[Place]) -> String {
        let unit = match places {
            [Place::Lines(first, last)] if first == last => "line",
            [Place::Lines(..), ..] => "lines",
            _ => "bytes",
        };
        let ranges: Vec<String> = places.iter().map(|place| place.range()).collect();
        format!("{unit} {}", ranges.join(", "))
    }
}

/// A confidence between 0 and 1 as a whole percentage, "<1%" for a little
/// above none.
fn percent(confidence: f64) -> String {
    let percent = (confidence * 100.0).clamp(0.0, 100.0);
    if percent > 0.0 && percent < 1.0 {
        "<1%".to_owned()
    } else {
        format!("{percent:.0}%")
    }
}

/// The window's title: "FILE — mojiscope", "FILE (2 encodings) —
/// mojiscope" for a file in `encodings` encodings (more than one), or
/// "mojiscope" with no file.
pub fn window_title(path: Option<&Path>, encodings: usize) -> String {
    match path.and_then(Path::file_name) {
        Some(name) if encodings > 1 => format!(
            "{} ({encodings} encodings) — mojiscope",
            name.to_string_lossy()
        ),
        Some(name) => format!("{} — mojiscope", name.to_string_lossy()),
        None => "mojiscope".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{SHIFT_JIS, UTF_8, UTF_16LE, WINDOWS_1252, detect};

    use super::*;

    #[test]
    fn a_declared_file_reads_as_its_encoding_and_how_sure() {
        let mut bytes = b"<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<doc>".to_vec();
        let text = "日本語の文章です。これはテストではなく、普通の文です。".repeat(20);
        bytes.extend(SHIFT_JIS.encode(&text).0);
        bytes.extend(b"</doc>\n");
        let detection = detect(&bytes);
        let errors = [(SHIFT_JIS, 0)];
        let verdict = verdict(&Facts {
            detection: Some(&detection),
            errors: &errors,
            ..Facts::default()
        });
        assert!(
            verdict
                .text
                .starts_with("Shift_JIS · declared in the XML declaration · detected "),
            "{}",
            verdict.text
        );
        assert!(verdict.text.ends_with(" · no errors"), "{}", verdict.text);
        assert!(!verdict.warning);
        assert_eq!(verdict.action, None);
    }

    #[test]
    fn errors_are_counted_once_known() {
        let bytes = "Grüße aus Köln, schöne Grüße, Straße".repeat(30);
        let bytes = WINDOWS_1252.encode(&bytes).0;
        let detection = detect(&bytes);
        let before = verdict(&Facts {
            detection: Some(&detection),
            ..Facts::default()
        });
        assert!(before.text.ends_with("counting errors…"), "{}", before.text);
        let best = detection.best_override_choice();
        let errors = [(best, 3)];
        let after = verdict(&Facts {
            detection: Some(&detection),
            errors: &errors,
            ..Facts::default()
        });
        assert!(after.text.ends_with(" · 3 errors"), "{}", after.text);
        assert!(after.warning);
    }

    #[test]
    fn mojibake_offers_the_repair() {
        let detection = detect("CafÃ© au lait, crÃ¨me brÃ»lÃ©e".as_bytes());
        let verdict = verdict(&Facts {
            detection: Some(&detection),
            mojibake: Some(("UTF-8 read as windows-1252", 4)),
            ..Facts::default()
        });
        assert_eq!(
            verdict.text,
            "Looks like UTF-8 read as windows-1252 (4 changes at the start)"
        );
        assert_eq!(verdict.action, Some(Action::Repair));
        assert_eq!(Action::Repair.label(), "Repair…");
    }

    #[test]
    fn applied_changes_are_said_until_saved() {
        let detection = detect("CafÃ© au lait, crÃ¨me brÃ»lÃ©e".as_bytes());
        let repaired = verdict(&Facts {
            detection: Some(&detection),
            mojibake: Some(("UTF-8 read as windows-1252", 4)),
            applied: Some(Applied {
                pane: 0,
                changes: 4,
                saved: false,
            }),
            ..Facts::default()
        });
        assert_eq!(
            repaired.text,
            "UTF-8 read as windows-1252, repaired: 4 changes applied in pane 1, not saved yet"
        );
        assert!(!repaired.warning);
        assert_eq!(repaired.action, Some(Action::SaveAs));
        let by_hand = verdict(&Facts {
            detection: Some(&detection),
            applied: Some(Applied {
                pane: 1,
                changes: 1,
                saved: true,
            }),
            ..Facts::default()
        });
        assert_eq!(by_hand.text, "1 change applied in pane 2, saved");
        assert_eq!(by_hand.action, None);
    }

    #[test]
    fn utf16_without_a_bom_offers_utf8() {
        let bytes: Vec<u8> = "Hello, this is plain English text in UTF-16.\n"
            .repeat(20)
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let detection = detect(&bytes);
        let verdict = verdict(&Facts {
            detection: Some(&detection),
            ..Facts::default()
        });
        assert_eq!(verdict.text, "UTF-16LE without a byte order mark");
        assert_eq!(verdict.action, Some(Action::SaveAsUtf8));
        assert_eq!(UTF_16LE.name(), "UTF-16LE");
    }

    #[test]
    fn a_bom_decides() {
        let errors = [(UTF_8, 0)];
        let verdict = verdict(&Facts {
            bom: Some(UTF_8),
            errors: &errors,
            ..Facts::default()
        });
        assert_eq!(verdict.text, "UTF-8 · byte order mark · no errors");
    }

    #[test]
    fn ascii_and_waiting_are_said_so() {
        assert_eq!(verdict(&Facts::default()).text, "Detecting the encoding…");
        let detection = detect(b"plain ASCII text\n");
        let errors = [(detection.best_override_choice(), 0)];
        let verdict = verdict(&Facts {
            detection: Some(&detection),
            errors: &errors,
            ..Facts::default()
        });
        assert!(verdict.text.starts_with("ASCII only"), "{}", verdict.text);
    }

    #[test]
    fn a_file_in_two_encodings_is_named_part_by_part() {
        use crate::model::analysis::analyse_with_rows;
        use crate::model::analysis::testing::never;
        let first = "Grüße aus Köln, schöne Grüße, liebe Straße.\n".repeat(30);
        let second = "Les élèves étudièrent à la bibliothèque, près du château.\n".repeat(12);
        let mut bytes = first.as_bytes().to_vec();
        let boundary = bytes.len() as u64;
        bytes.extend(WINDOWS_1252.encode(&second).0);
        bytes.extend(first.as_bytes());
        let segmentation = mojiscope_core::segments(&bytes);
        let detection = detect(&bytes);
        let (_, rows) =
            analyse_with_rows(&bytes, UTF_8, mojiscope_core::BomHandling::None, &never()).unwrap();
        let facts = Facts {
            detection: Some(&detection),
            segments: Some(&segmentation),
            lines: Some(&rows),
            ..Facts::default()
        };
        let said = verdict(&facts);
        assert_eq!(
            said.text,
            "2 encodings: UTF-8 (lines 1–30, 43–72), windows-1252 (lines 31–42)"
        );
        assert!(said.warning);
        // Before the rows are indexed: byte offsets, the last byte included.
        let end = boundary + WINDOWS_1252.encode(&second).0.len() as u64;
        let len = bytes.len() as u64;
        assert_eq!(
            parts_text(&segmentation, None).unwrap(),
            format!(
                "2 encodings: UTF-8 (bytes 0–{}, {end}–{}), windows-1252 (bytes {boundary}–{})",
                boundary - 1,
                len - 1,
                end - 1
            )
        );
        // One encoding: nothing to say of parts.
        let one = mojiscope_core::segments(first.as_bytes());
        assert_eq!(parts_text(&one, None), None);
    }

    #[test]
    fn the_title_names_the_file() {
        assert_eq!(
            window_title(Some(Path::new("/some/dir/notes.sjis.txt")), 1),
            "notes.sjis.txt — mojiscope"
        );
        assert_eq!(
            window_title(Some(Path::new("/some/dir/log.txt")), 2),
            "log.txt (2 encodings) — mojiscope"
        );
        assert_eq!(window_title(None, 0), "mojiscope");
        assert_eq!(percent(0.004), "<1%");
        assert_eq!(percent(1.0), "100%");
    }
}
