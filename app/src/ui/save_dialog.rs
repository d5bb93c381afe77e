//! File ▸ Save as's window: re-encode the text of the focused pane's
//! decode and write it, seeing first every character that cannot be
//! encoded and whether the bytes read back as the same text.
//!
//! The dialog itself (the choices, the preview run in the background, the
//! target's checks, the save) is the model's
//! [`SaveAs`], which the app owns; this
//! window shows it and passes on what the user does. Browse asks the app
//! for the native dialog ([`Command::BrowseSaveTarget`]).

use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

use eframe::egui::{
    self, Button, Id, Modal, ProgressBar, RichText, ScrollArea, TextEdit, TextStyle, Ui,
};
use mojiscope_core::{ByteSpan, Encoding, Group, TraceItem, TraceKind, UTF_8};

use crate::model::command::Command;
use crate::model::save::save_as::{Outcome, PreviewState, SaveAs, SaveAsForm};
use crate::model::save::{Difference, Place, Preview, backup_path};
use crate::model::wording::plural;
use crate::theme::Palette;
use crate::ui::cells::{cell_of, describe_char};
use crate::ui::chooser::{Chooser, Entry};
use crate::ui::progress_fraction;

/// The Encoding Standard's note on the html error mode, quoted whole (its
/// "Error mode" section).
pub const HTML_MODE_WARNING: &str = "The \"html\" error mode causes a sequence to be emitted \
    that cannot be distinguished from legitimate input and can therefore lead to silent data \
    loss. Developers are strongly encouraged to use the UTF-8 encoding to prevent this from \
    happening.";

/// Rows of the unencodable list shown at once.
const LIST_HEIGHT: f32 = 180.0;

/// What the window tells the dialog each frame.
pub struct DialogEnv<'a> {
    /// The colours.
    pub palette: &'a Palette,
    /// The document's generation now (it changes when the file is reloaded).
    pub generation: Option<u64>,
    /// Whether the native file dialog may be used (never in tests).
    pub dialogs_enabled: bool,
    /// Whether Browse's dialog is open.
    pub browsing: bool,
}

/// Shows File ▸ Save as, if it is open, and tells what happened (the
/// dialog closes when something did).
pub fn save_dialog_ui(
    ui: &mut Ui,
    save: &mut SaveAs,
    env: &DialogEnv<'_>,
    commands: &mut Vec<Command>,
) -> Option<Outcome> {
    if let Some(outcome) = save.poll() {
        return Some(outcome);
    }
    let form = save.form()?;
    let mut close = false;
    let mut save_pressed = false;
    let saving = form.saving().is_some();
    // In a small window the body scrolls; the title and the buttons stay.
    let body_height = (ui.ctx().content_rect().height() - 220.0).max(120.0);
    let modal = Modal::new(Id::unique("save as")).show(ui.ctx(), |ui| {
        ui.set_width(780.0);
        ui.heading("Save as");
        crate::ui::name_dialog(ui, "Save as");
        ui.label(format!("The text of {}", form.title()));
        if env.generation.is_some_and(|g| g != form.generation()) {
            ui.colored_label(
                env.palette.malformed_fg,
                "The file has changed on disk since: this saves the text as it was when the dialog opened.",
            );
        }
        ui.add_space(4.0);
        ScrollArea::vertical()
            .id_salt("save as body")
            .max_height(body_height)
            // Not the height left below the dialog (which centres itself
            // on its last size): that would shrink it frame by frame.
            .min_scrolled_height(body_height)
            .show(ui, |ui| {
                ui.add_enabled_ui(!saving, |ui| choices_ui(form, ui));
                ui.separator();
                preview_ui(form, ui, env.palette);
                ui.separator();
                ui.add_enabled_ui(!saving, |ui| target_ui(form, ui, env, commands));
            });
        ui.add_space(6.0);
        (save_pressed, close) = buttons_ui(form, ui, env.palette);
    });
    if save_pressed {
        form.start_save();
    }
    if form.saving().is_none() && (close || modal.should_close()) {
        return Some(save.close());
    }
    None
}

/// Save (or Replace the open file) and Close, or the save's progress
/// and Cancel; and why Save is off. Returns whether Save and Close were
/// pressed.
fn buttons_ui(form: &mut SaveAsForm, ui: &mut Ui, palette: &Palette) -> (bool, bool) {
    let (mut save, mut close) = (false, false);
    let saving = form.saving().is_some();
    let blocked = form.can_save().err();
    let can_save = blocked.is_none();
    ui.horizontal(|ui| {
        let status = form.target_path().map(|path| form.target_status(&path));
        let label = if status.is_some_and(|s| s.is_open_file) {
            "Replace the open file"
        } else {
            "Save"
        };
        if ui
            .add_enabled(can_save && !saving, Button::new(label))
            .clicked()
        {
            save = true;
        }
        match form.saving() {
            Some((progress, cancelling)) => {
                let (done, total) = progress.unwrap_or((0, 1));
                ui.add(
                    ProgressBar::new(progress_fraction(done, total))
                        .desired_width(200.0)
                        .show_percentage(),
                );
                if ui
                    .add_enabled(!cancelling, Button::new("Cancel saving"))
                    .clicked()
                {
                    form.cancel_save();
                }
            }
            None => close = ui.button("Close").clicked(),
        }
    });
    if let Some(why) = blocked.filter(|_| !saving) {
        let why = why.to_string();
        ui.label(RichText::new(why).color(palette.weak_fg));
    }
    if let Some(message) = form.message() {
        ui.colored_label(palette.malformed_fg, message);
    }
    (save, close)
}

fn choices_ui(form: &mut SaveAsForm, ui: &mut Ui) {
    egui::Grid::new("save choices")
        .num_columns(2)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            ui.label("Output encoding");
            let entries = output_encoding_entries();
            let name = format!("Output encoding: {}", form.encoding.name());
            let chooser = Chooser::new(
                Id::unique("output encoding"),
                name,
                form.encoding.name().to_owned(),
                &entries,
            )
            .width(220.0);
            if chooser.ui(ui, &mut form.encoding).changed() {
                form.encoding_chosen();
            }
            ui.end_row();

            ui.label("Unencodable characters");
            ui.horizontal(|ui| {
                ui.radio_value(&mut form.html, false, "fatal")
                    .on_hover_text("Write nothing while any character cannot be encoded");
                ui.radio_value(&mut form.html, true, "html")
                    .on_hover_text("Write each as a numeric character reference, &#N;");
            });
            ui.end_row();

            ui.label("Byte order mark");
            let is_utf8 = form.output_encoding() == UTF_8;
            ui.add_enabled(
                is_utf8,
                egui::Checkbox::new(&mut form.bom, "Start with a UTF-8 byte order mark"),
            )
            .on_disabled_hover_text("Only UTF-8 is written with a byte order mark here");
            ui.end_row();

            ui.label("Line endings");
            ui.label("Kept as they are in the text");
            ui.end_row();
        });
}

fn preview_ui(form: &mut SaveAsForm, ui: &mut Ui, palette: &Palette) {
    let preview = match form.preview() {
        PreviewState::Running(progress) => {
            let progress = *progress;
            ui.horizontal(|ui| {
                ui.label("Checking the text…");
                let (done, total) = progress.unwrap_or((0, 1));
                ui.add(
                    ProgressBar::new(progress_fraction(done, total))
                        .desired_width(200.0)
                        .show_percentage(),
                );
                if ui.button("Stop").clicked() {
                    form.stop_preview();
                }
            });
            return;
        }
        PreviewState::Stopped => {
            ui.horizontal(|ui| {
                ui.label("The check was stopped; nothing can be saved without it.");
                if ui.button("Check again").clicked() {
                    form.check_again();
                }
            });
            return;
        }
        PreviewState::Failed(message) => {
            ui.colored_label(palette.malformed_fg, message);
            return;
        }
        PreviewState::Ready(preview) => Arc::clone(preview),
    };
    let mut summary = format!("{} characters on {} lines", preview.chars, preview.lines);
    if let Some(source) = preview.source_encoding {
        summary.push_str(", decoded as ");
        summary.push_str(source.name());
    }
    // In fatal mode with unencodable characters nothing would be written.
    if preview.unencodable.is_empty() || form.html {
        // Writing to a String cannot fail.
        write!(
            summary,
            "; {} bytes in {}{}",
            preview.bytes,
            preview.encoding.name(),
            if preview.bom {
                " with a byte order mark"
            } else {
                ""
            }
        )
        .ok();
    }
    summary.push('.');
    ui.label(RichText::new(summary).color(palette.weak_fg));
    unencodable_ui(form, ui, palette, &preview);
    if preview.unencodable.is_empty() || form.html {
        round_trip_ui(ui, palette, &preview, &mut form.confirm.loss);
    }
    if preview.decoding_errors > 0 {
        let first = preview
            .first_decoding_error
            .map(|place| format!(" (the first at {})", place_text(place)))
            .unwrap_or_default();
        ui.colored_label(
            palette.malformed_fg,
            format!(
                "The text has {} U+FFFD where bytes did not decode{first}. Saving writes them as they are: the bytes they came from are lost.",
                preview.decoding_errors
            ),
        );
        ui.checkbox(
            &mut form.confirm.damage,
            "Keep the damage: save the U+FFFD on purpose",
        );
    }
}

fn unencodable_ui(form: &SaveAsForm, ui: &mut Ui, palette: &Palette, preview: &Preview) {
    let list = &preview.unencodable;
    if list.is_empty() {
        ui.label(
            RichText::new(format!(
                "✔ Every character can be encoded in {}.",
                preview.encoding.name()
            ))
            .color(palette.ok_fg),
        );
        return;
    }
    ui.label(
        RichText::new(format!(
            "{} cannot be encoded in {}",
            characters(list.len()),
            preview.encoding.name()
        ))
        .color(palette.malformed_fg)
        .strong(),
    );
    if form.html {
        ui.label("html mode writes each as a numeric character reference, &#N;. The Encoding Standard warns:");
        ui.label(RichText::new(format!("“{HTML_MODE_WARNING}”")).italics());
    } else {
        ui.label(
            "Fatal mode writes nothing while any remain. Pick an encoding that has them \
             (UTF-8 has every character), or html mode to write them as &#N;.",
        );
    }
    let row_height = ui.text_style_height(&TextStyle::Monospace) + 2.0;
    let font = TextStyle::Monospace.resolve(ui.style());
    let cell_width = 5.0 * ui.fonts_mut(|f| f.glyph_width(&font, '0'));
    let rows = usize::try_from(list.len()).unwrap_or(usize::MAX);
    ui.label(
        RichText::new(format!(
            "{:>12}  {:>14}  {}",
            "byte offset", "line:column", "character"
        ))
        .monospace()
        .color(palette.weak_fg),
    );
    ScrollArea::vertical()
        .id_salt("unencodable list")
        .max_height(LIST_HEIGHT)
        .auto_shrink([false, true])
        .show_rows(ui, row_height, rows, |ui, range| {
            for index in range {
                let Some(unencodable) = list.get(index as u64) else {
                    break;
                };
                let place = unencodable.place;
                let glyph = cell_of(TraceItem {
                    span: ByteSpan::new(0, 1),
                    kind: TraceKind::Scalar(unencodable.character),
                })
                .text;
                ui.horizontal(|ui| {
                    ui.spacing_mut().item_spacing.x = 0.0;
                    ui.label(
                        RichText::new(format!(
                            "{:>12}  {:>14}  ",
                            place.source_offset,
                            format!("{}:{}", place.line, place.column)
                        ))
                        .monospace(),
                    );
                    // A cell of its own width, so that wide (CJK) and
                    // narrow characters leave the next column in line.
                    ui.add_sized(
                        [cell_width, row_height],
                        egui::Label::new(
                            RichText::new(format!(" {glyph} "))
                                .monospace()
                                .background_color(palette.unmappable_bg),
                        ),
                    );
                    let mut rest = format!("  {}", describe_char(unencodable.character));
                    if form.html {
                        rest.push_str("  →  ");
                        rest.push_str(&unencodable.reference());
                    }
                    ui.label(RichText::new(rest).monospace());
                });
            }
        });
}

fn target_ui(form: &mut SaveAsForm, ui: &mut Ui, env: &DialogEnv<'_>, commands: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        let label = ui.label("Save to");
        let width = ui.available_width() - 90.0;
        let edit = ui
            .add(
                TextEdit::singleline(&mut form.target)
                    .desired_width(width)
                    .hint_text("a path; relative paths are beside the open file"),
            )
            .labelled_by(label.id);
        if edit.changed() {
            form.target_typed();
        }
        if ui
            .add_enabled(env.dialogs_enabled && !env.browsing, Button::new("Browse…"))
            .clicked()
        {
            commands.push(Command::BrowseSaveTarget);
        }
    });
    let Some(target) = form.target_path() else {
        return;
    };
    if let Some(shown) = form.folder_shown() {
        ui.label(RichText::new(shown).color(env.palette.weak_fg));
    }
    let status = form.target_status(&target);
    let name = target
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let backup_name = backup_path(Path::new(&name)).display().to_string();
    if status.exists && !status.is_directory {
        ui.checkbox(
            &mut form.backup,
            format!("Keep the file it replaces as {backup_name}"),
        );
    }
    if status.is_open_file {
        ui.colored_label(
            env.palette.malformed_fg,
            format!(
                "{name} is the file open in this window. Replacing it changes the file on disk; \
                 the window then reloads it with the new bytes."
            ),
        );
        ui.checkbox(
            &mut form.confirm.replace_open,
            "Replace the file open in this window",
        );
    } else if status.exists && !status.is_directory {
        ui.colored_label(env.palette.malformed_fg, format!("{name} already exists."));
        ui.checkbox(&mut form.confirm.replace, "Replace the existing file");
    }
}

/// The encodings that have an encoder, under the standard's headings,
/// UTF-8 first.
/// The encodings Save as can write (those with an encoder), under the
/// standard's section headings, found also by their labels.
pub(crate) fn output_encoding_entries() -> Vec<Entry<&'static Encoding>> {
    let mut entries = Vec::new();
    for group in Group::ALL {
        let encodings: Vec<&'static Encoding> =
            group.encodings().filter(|e| e.has_encoder()).collect();
        if encodings.is_empty() {
            continue;
        }
        entries.push(Entry::Heading(group.heading().to_owned()));
        for encoding in encodings {
            entries.push(Entry::Choice {
                value: encoding,
                text: encoding.name().to_owned(),
                keywords: encoding.labels().join(" "),
            });
        }
    }
    entries
}

/// The round-trip badge and, if it is not lossless, where the text differs.
fn round_trip_ui(ui: &mut Ui, palette: &Palette, preview: &Preview, confirm: &mut bool) {
    let round_trip = &preview.round_trip;
    if round_trip.is_lossless() {
        ui.label(
            RichText::new(" ✔ Round trip: lossless ")
                .color(palette.ok_fg)
                .background_color(palette.ok_bg)
                .strong(),
        )
        .on_hover_text("The bytes decode back to exactly this text");
        return;
    }
    ui.label(
        RichText::new(" ✘ Round trip: not lossless ")
            .color(palette.malformed_fg)
            .background_color(palette.malformed_bg)
            .strong(),
    );
    if let Some(read_as) = round_trip.read_as {
        ui.colored_label(
            palette.malformed_fg,
            format!(
                "A reader takes the first bytes for a byte order mark and reads the file as {}.",
                read_as.name()
            ),
        );
    }
    if round_trip.references > 0 {
        ui.label(format!(
            "{} read back as their &#N; reference.",
            characters(round_trip.references)
        ));
    }
    if round_trip.differences > 0 {
        let stopped = round_trip
            .stopped_at
            .map(|place| {
                format!(
                    " (counted up to {}, then the comparison stopped)",
                    place_text(place)
                )
            })
            .unwrap_or_default();
        ui.label(format!(
            "{} read back differently{stopped}:",
            plural(round_trip.differences, "place", "places")
        ));
        ScrollArea::vertical()
            .id_salt("differences")
            .max_height(110.0)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                for difference in &round_trip.first_differences {
                    ui.label(RichText::new(difference_text(difference)).monospace());
                }
                if round_trip.differences > round_trip.first_differences.len() as u64 {
                    ui.label(
                        RichText::new(format!(
                            "… and {} more",
                            round_trip.differences - round_trip.first_differences.len() as u64
                        ))
                        .color(palette.weak_fg),
                    );
                }
            });
    }
    ui.checkbox(confirm, "Save even though it does not read back the same");
}

/// "line 3, column 7 (byte offset 42)".
fn place_text(place: Place) -> String {
    format!(
        "line {}, column {} (byte offset {})",
        place.line, place.column, place.source_offset
    )
}

/// One difference, for people.
pub fn difference_text(difference: &Difference) -> String {
    let at = place_text(difference.place);
    match (difference.expected, difference.found) {
        (Some(expected), Some(found)) => format!(
            "{at}: {} reads back as {}",
            describe_char(expected),
            describe_char(found)
        ),
        (Some(expected), None) => format!("{at}: {} is lost", describe_char(expected)),
        (None, Some(found)) => format!("{at}: an extra {} reads back", describe_char(found)),
        (None, None) => format!("{at}: differs"),
    }
}

/// "1 character", "3 characters".
fn characters(n: u64) -> String {
    plural(n, "character", "characters")
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn differences_read_as_sentences() {
        let place = Place {
            source_offset: 4,
            char_index: 3,
            line: 2,
            column: 1,
        };
        let changed = Difference {
            place,
            expected: Some('¥'),
            found: Some('\\'),
        };
        assert_eq!(
            difference_text(&changed),
            "line 2, column 1 (byte offset 4): U+00A5 YEN SIGN reads back as U+005C REVERSE SOLIDUS"
        );
        let lost = Difference {
            found: None,
            ..changed
        };
        assert!(difference_text(&lost).ends_with("U+00A5 YEN SIGN is lost"));
        assert_eq!(characters(1), "1 character");
    }

    #[test]
    fn the_warning_is_the_standards_own_words() {
        use std::io::Write as _;

        // Where the indexes' tests find the standard: MOJISCOPE_WHATWG_DIR,
        // else ../shared/whatwg beside the repository.
        let dir = std::env::var_os("MOJISCOPE_WHATWG_DIR").map_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/whatwg"),
            PathBuf::from,
        );
        let Ok(source) = fs::read_to_string(dir.join("encoding.bs")) else {
            assert!(
                std::env::var_os("MOJISCOPE_REQUIRE_WHATWG").is_none(),
                "MOJISCOPE_REQUIRE_WHATWG is set but the standard is missing: {}",
                dir.display()
            );
            writeln!(
                std::io::stderr(),
                "WARNING: the Encoding Standard's source is not at {}; the html mode \
                 warning's quote is not checked",
                dir.display()
            )
            .ok(); // Nothing better to do if stderr is gone.
            return;
        };
        // The source marks the words up; compare without markup and line breaks.
        let plain: String = source
            .replace("<a for=/>", "")
            .replace("</a>", "")
            .replace("<code>", "")
            .replace("</code>", "")
            .replace("<a>", "")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            plain.contains(HTML_MODE_WARNING),
            "not in the standard: {HTML_MODE_WARNING}"
        );
    }
}
