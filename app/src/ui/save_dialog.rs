//! File ▸ Save as: re-encode the text of the focused pane's decode and
//! write it, seeing first every character that cannot be encoded and
//! whether the bytes read back as the same text.
//!
//! The dialog owns a [`SaveWorker`]: choosing an encoding (or the byte
//! order mark) starts a preview in the background; Save runs the save
//! there too. Nothing here decodes, encodes or writes on the window's
//! thread, and Browse asks the app for the native dialog
//! ([`Command::BrowseSaveTarget`]) rather than waiting for it here.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use eframe::egui::{
    self, Button, ComboBox, Id, Modal, ProgressBar, RichText, ScrollArea, TextEdit, TextStyle, Ui,
};
use mojiscope_core::{ByteSpan, EncodeErrorMode, Encoding, Group, TraceItem, TraceKind, UTF_8};

use crate::model::command::Command;
use crate::model::jobs::Repaint;
use crate::model::save::{
    Difference, PassOptions, Place, Preview, SaveEvent, SaveRequest, SaveSettings, SaveWorker,
    Saved, TextSource, WriteOptions, backup_path,
};
use crate::model::wording::plural;
use crate::theme::Palette;
use crate::ui::cells::{cell_of, describe_char};
use crate::ui::progress_fraction;

/// The Encoding Standard's note on the html error mode, quoted whole (its
/// "Error mode" section).
pub const HTML_MODE_WARNING: &str = "The \"html\" error mode causes a sequence to be emitted \
    that cannot be distinguished from legitimate input and can therefore lead to silent data \
    loss. Developers are strongly encouraged to use the UTF-8 encoding to prevent this from \
    happening.";

/// Rows of the unencodable list shown at once.
const LIST_HEIGHT: f32 = 180.0;

/// What the dialog is opened on.
#[derive(Clone, Debug)]
pub struct OpenRequest {
    /// The text to save.
    pub source: TextSource,
    /// What the text is, for people: "pane 2: notes.txt decoded as Shift_JIS".
    pub title: String,
    /// The file shown in the window (saving over it needs a stronger
    /// confirmation), and the directory new files go to.
    pub document: PathBuf,
    /// The document's generation when the dialog opened.
    pub generation: u64,
    /// Preselect UTF-8 (File ▸ Save as UTF-8) rather than the last choice.
    pub utf8: bool,
}

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

/// What happened, for the window.
#[derive(Debug)]
pub enum Outcome {
    /// The file was written.
    Saved {
        /// What was written.
        saved: Box<Saved>,
        /// The choices to remember.
        settings: SaveSettings,
        /// Whether it replaced the file open in the window.
        replaced_open_file: bool,
    },
    /// The dialog was closed without saving.
    Closed,
}

/// The preview shown.
#[derive(Debug)]
enum PreviewState {
    /// Running: source bytes done and total.
    Running(Option<(u64, u64)>),
    /// Done.
    Ready(Arc<Preview>),
    /// Stopped by the user.
    Stopped,
    /// Failed (a bug).
    Failed(String),
}

/// The confirmations the user gave for this preview and target.
#[expect(clippy::struct_excessive_bools, reason = "four independent checkboxes")]
#[derive(Clone, Copy, Debug, Default)]
struct Confirmations {
    /// Keep the U+FFFD that decoding errors produced.
    damage: bool,
    /// Save although the text does not read back the same.
    loss: bool,
    /// Replace an existing file.
    replace: bool,
    /// Replace the file open in the window.
    replace_open: bool,
}

/// The target, as it is on disk.
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent facts about one path"
)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct TargetStatus {
    exists: bool,
    is_directory: bool,
    is_open_file: bool,
    directory_missing: bool,
}

/// An open dialog.
#[expect(
    clippy::struct_excessive_bools,
    reason = "the dialog's choices are independent checkboxes"
)]
struct Open {
    request: OpenRequest,
    /// The document's canonical path, to tell when the target is it.
    document_canonical: Option<PathBuf>,
    worker: SaveWorker,
    encoding: &'static Encoding,
    html: bool,
    bom: bool,
    backup: bool,
    target: String,
    /// Whether the user changed the target (else it follows the encoding).
    target_edited: bool,
    confirm: Confirmations,
    preview: PreviewState,
    /// The encoding and byte order mark the preview is for.
    previewed: Option<(&'static Encoding, bool)>,
    /// While saving: source bytes done and total, and whether Cancel was pressed.
    saving: Option<(Option<(u64, u64)>, bool)>,
    /// Why the last save failed.
    message: Option<String>,
    /// The folder a relative target goes in, as shown under it: worked out
    /// once per folder, not every frame.
    folder_shown: Option<(PathBuf, String)>,
}

/// File ▸ Save as: closed until [`SaveDialog::open`].
#[derive(Default)]
pub struct SaveDialog {
    open: Option<Box<Open>>,
}

impl SaveDialog {
    /// Opens the dialog on `request`, with the choices of `settings`;
    /// `repaint` wakes the window when the background work has news.
    /// Refused (returns false) while a save runs.
    pub fn open(
        &mut self,
        request: OpenRequest,
        settings: &SaveSettings,
        repaint: Repaint,
    ) -> bool {
        if self.is_saving() {
            return false;
        }
        let encoding = if request.utf8 {
            UTF_8
        } else {
            settings.encoding()
        };
        let document_canonical = fs::canonicalize(&request.document).ok();
        let mut open = Open {
            request,
            document_canonical,
            worker: SaveWorker::new(repaint),
            encoding,
            html: settings.html,
            bom: settings.bom,
            backup: settings.backup,
            target: String::new(),
            target_edited: false,
            confirm: Confirmations::default(),
            preview: PreviewState::Running(None),
            previewed: None,
            saving: None,
            message: None,
            folder_shown: None,
        };
        open.target = open.suggested_target();
        self.open = Some(Box::new(open));
        true
    }

    /// Whether the dialog is open.
    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Whether a save is running.
    pub fn is_saving(&self) -> bool {
        self.open.as_ref().is_some_and(|open| open.saving.is_some())
    }

    /// Whether no background work runs.
    pub fn is_idle(&self) -> bool {
        self.open.as_ref().is_none_or(|open| !open.worker.is_busy())
    }

    /// The preview shown, once it is done.
    pub fn preview(&self) -> Option<&Arc<Preview>> {
        match &self.open.as_ref()?.preview {
            PreviewState::Ready(preview) => Some(preview),
            _ => None,
        }
    }

    /// Where Browse's dialog starts: the folder a relative target goes in,
    /// and the target's file name. `None` while the dialog is closed.
    pub fn browse_target(&self) -> Option<(PathBuf, String)> {
        let open = self.open.as_ref()?;
        let name = open
            .target_path()
            .and_then(|path| path.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default();
        Some((open.directory(), name))
    }

    /// Browse's dialog picked `path`: the target from now on.
    pub fn browsed(&mut self, path: &Path) {
        if let Some(open) = &mut self.open {
            open.target = path.display().to_string();
            open.target_edited = true;
        }
    }

    /// Browse's dialog could not be shown: says why in the dialog.
    pub fn browse_failed(&mut self, message: &str) {
        if let Some(open) = &mut self.open {
            open.message = Some(format!("cannot show the file dialog: {message}"));
        }
    }

    /// Shows the dialog, if it is open, and tells what happened.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        env: &DialogEnv<'_>,
        commands: &mut Vec<Command>,
    ) -> Option<Outcome> {
        let open = self.open.as_mut()?;
        let outcome = open.frame(ui, env, commands);
        if outcome.is_some() {
            self.open = None;
        }
        outcome
    }
}

impl Open {
    /// The output encoding chosen.
    fn output_encoding(&self) -> &'static Encoding {
        self.encoding.output_encoding()
    }

    /// Whether a byte order mark is written.
    fn writes_bom(&self) -> bool {
        self.bom && self.output_encoding() == UTF_8
    }

    fn mode(&self) -> EncodeErrorMode {
        if self.html {
            EncodeErrorMode::Html
        } else {
            EncodeErrorMode::Fatal
        }
    }

    fn settings(&self) -> SaveSettings {
        SaveSettings {
            encoding: self.encoding.name().to_owned(),
            html: self.html,
            bom: self.bom,
            backup: self.backup,
        }
    }

    /// `notes.txt` saved as Shift_JIS: `notes.shift_jis.txt` beside it (a
    /// name alone, which is taken from the document's folder; the dialog
    /// shows the folder under it).
    fn suggested_target(&self) -> String {
        let document = &self.request.document;
        let stem = document
            .file_stem()
            .map_or_else(|| "text".to_owned(), |s| s.to_string_lossy().into_owned());
        let extension = document.extension().map_or_else(
            || ".txt".to_owned(),
            |e| format!(".{}", e.to_string_lossy()),
        );
        let name = format!(
            "{stem}.{}{extension}",
            self.output_encoding().name().to_ascii_lowercase()
        );
        name
    }

    /// Where the document is, as an absolute path: relative targets are
    /// taken from there. (A document opened by a relative path would
    /// otherwise suggest a relative target, which would then be taken from
    /// its own directory a second time.)
    fn directory(&self) -> PathBuf {
        let directory = self
            .request
            .document
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        std::path::absolute(&directory).unwrap_or(directory)
    }

    /// The target path typed or picked, if any.
    fn target_path(&self) -> Option<PathBuf> {
        let text = self.target.trim();
        if text.is_empty() {
            return None;
        }
        let path = PathBuf::from(text);
        Some(if path.is_relative() {
            self.directory().join(path)
        } else {
            path
        })
    }

    fn target_status(&self, path: &Path) -> TargetStatus {
        let metadata = fs::symlink_metadata(path).ok();
        let directory = path
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        TargetStatus {
            exists: metadata.is_some(),
            is_directory: metadata.as_ref().is_some_and(fs::Metadata::is_dir),
            is_open_file: metadata.is_some()
                && self.document_canonical.is_some()
                && fs::canonicalize(path).ok() == self.document_canonical,
            directory_missing: !directory.is_dir(),
        }
    }

    /// One frame: news from the background, then the window.
    fn frame(
        &mut self,
        ui: &mut Ui,
        env: &DialogEnv<'_>,
        commands: &mut Vec<Command>,
    ) -> Option<Outcome> {
        if let Some(outcome) = self.drain() {
            return Some(outcome);
        }
        let key = (self.output_encoding(), self.writes_bom());
        if self.saving.is_none() && self.previewed != Some(key) {
            self.start_preview();
        }
        let mut close = false;
        let mut save = false;
        let saving = self.saving.is_some();
        // In a small window the body scrolls; the title and the buttons stay.
        let body_height = (ui.ctx().content_rect().height() - 220.0).max(120.0);
        let modal = Modal::new(Id::unique("save as")).show(ui.ctx(), |ui| {
            ui.set_width(780.0);
            ui.heading("Save as");
            ui.label(format!("The text of {}", self.request.title));
            if env.generation.is_some_and(|g| g != self.request.generation) {
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
                    ui.add_enabled_ui(!saving, |ui| self.choices_ui(ui));
                    ui.separator();
                    self.preview_ui(ui, env.palette);
                    ui.separator();
                    ui.add_enabled_ui(!saving, |ui| self.target_ui(ui, env, commands));
                });
            ui.add_space(6.0);
            (save, close) = self.buttons_ui(ui, env.palette);
        });
        if save {
            self.start_save();
        }
        if self.saving.is_none() && (close || modal.should_close()) {
            self.worker.cancel();
            return Some(Outcome::Closed);
        }
        None
    }

    /// Save (or Replace the open file) and Close, or the save's progress
    /// and Cancel; and why Save is off. Returns whether Save and Close were
    /// pressed.
    fn buttons_ui(&mut self, ui: &mut Ui, palette: &Palette) -> (bool, bool) {
        let (mut save, mut close) = (false, false);
        let saving = self.saving.is_some();
        let (can_save, why_not) = self.can_save();
        ui.horizontal(|ui| {
            let status = self.target_path().map(|path| self.target_status(&path));
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
            match self.saving {
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
                        self.worker.cancel();
                        self.saving = Some((progress, true));
                    }
                }
                None => close = ui.button("Close").clicked(),
            }
        });
        if let Some(why) = why_not.filter(|_| !saving) {
            ui.label(RichText::new(why).color(palette.weak_fg));
        }
        if let Some(message) = &self.message {
            ui.colored_label(palette.malformed_fg, message);
        }
        (save, close)
    }

    /// Handles what the background work sent.
    fn drain(&mut self) -> Option<Outcome> {
        while let Some(event) = self.worker.try_recv() {
            match event {
                SaveEvent::Progress { done, total, .. } => {
                    if let Some((progress, _)) = &mut self.saving {
                        *progress = Some((done, total));
                    } else if let PreviewState::Running(progress) = &mut self.preview {
                        *progress = Some((done, total));
                    }
                }
                SaveEvent::Previewed(preview) => self.preview = PreviewState::Ready(preview),
                SaveEvent::PreviewCancelled => self.preview = PreviewState::Stopped,
                SaveEvent::Saved(result) => {
                    self.saving = None;
                    match *result {
                        Ok(saved) => {
                            let replaced_open_file =
                                self.document_canonical.as_ref().is_some_and(|d| {
                                    fs::canonicalize(&saved.target).ok().as_ref() == Some(d)
                                });
                            return Some(Outcome::Saved {
                                saved: Box::new(saved),
                                settings: self.settings(),
                                replaced_open_file,
                            });
                        }
                        Err(failure) if failure.is_written() => {
                            self.message = Some(format!("Saved, but: {failure}"));
                        }
                        Err(failure) => {
                            self.message = Some(format!(
                                "Not saved: {failure}. Nothing was changed on disk."
                            ));
                        }
                    }
                }
                SaveEvent::Failed { message, .. } => {
                    self.saving = None;
                    self.preview = PreviewState::Failed(message);
                }
            }
        }
        None
    }

    fn start_preview(&mut self) {
        let options = PassOptions {
            encoding: self.output_encoding(),
            // html mode lists every unencodable character; fatal mode's
            // bytes are the same when there is none.
            mode: EncodeErrorMode::Html,
            bom: self.writes_bom(),
        };
        if self
            .worker
            .preview(self.request.source.clone(), options)
            .is_ok()
        {
            self.previewed = Some((options.encoding, options.bom));
            self.preview = PreviewState::Running(None);
            self.confirm.loss = false;
        }
    }

    fn start_save(&mut self) {
        let Some(target) = self.target_path() else {
            return;
        };
        let status = self.target_status(&target);
        let request = SaveRequest {
            source: self.request.source.clone(),
            pass: PassOptions {
                encoding: self.output_encoding(),
                mode: self.mode(),
                bom: self.writes_bom(),
            },
            target,
            write: WriteOptions {
                overwrite: status.exists && (self.confirm.replace || self.confirm.replace_open),
                backup: self.backup,
            },
        };
        match self.worker.save(request) {
            Ok(()) => {
                self.saving = Some((None, false));
                self.message = None;
            }
            Err(busy) => self.message = Some(busy.to_string()),
        }
    }

    /// Whether Save may be pressed, and if not, why.
    fn can_save(&self) -> (bool, Option<String>) {
        let PreviewState::Ready(preview) = &self.preview else {
            return (false, Some("Waiting for the check of the text…".to_owned()));
        };
        let unencodable = preview.unencodable.len();
        if unencodable > 0 && !self.html {
            return (
                false,
                Some(format!(
                    "Save is off: {} cannot be encoded in {} (fatal mode).",
                    characters(unencodable),
                    preview.encoding.name()
                )),
            );
        }
        if preview.decoding_errors > 0 && !self.confirm.damage {
            return (
                false,
                Some(
                    "Save is off until you confirm keeping the U+FFFD of the decoding errors."
                        .to_owned(),
                ),
            );
        }
        if !preview.round_trip.is_lossless() && !self.confirm.loss {
            return (
                false,
                Some(
                    "Save is off until you confirm saving text that does not read back the same."
                        .to_owned(),
                ),
            );
        }
        let Some(target) = self.target_path() else {
            return (false, Some("Type where to save it, or Browse.".to_owned()));
        };
        let status = self.target_status(&target);
        if status.directory_missing {
            return (false, Some("That directory does not exist.".to_owned()));
        }
        if status.is_directory {
            return (
                false,
                Some("That is a directory: add a file name.".to_owned()),
            );
        }
        if status.is_open_file && !self.confirm.replace_open {
            return (
                false,
                Some("Confirm replacing the file open in this window.".to_owned()),
            );
        }
        if status.exists && !status.is_open_file && !self.confirm.replace {
            return (
                false,
                Some("Confirm replacing the existing file.".to_owned()),
            );
        }
        (true, None)
    }

    fn choices_ui(&mut self, ui: &mut Ui) {
        egui::Grid::new("save choices")
            .num_columns(2)
            .spacing([12.0, 6.0])
            .show(ui, |ui| {
                let label = ui.label("Output encoding");
                let before = self.encoding;
                ComboBox::from_id_salt("output encoding")
                    .selected_text(self.encoding.name())
                    .width(220.0)
                    .height(520.0)
                    .show_ui(ui, |ui| output_encodings_ui(ui, &mut self.encoding))
                    .response
                    .labelled_by(label.id);
                if self.encoding != before && !self.target_edited {
                    self.target = self.suggested_target();
                }
                ui.end_row();

                ui.label("Unencodable characters");
                ui.horizontal(|ui| {
                    ui.radio_value(&mut self.html, false, "fatal")
                        .on_hover_text("Write nothing while any character cannot be encoded");
                    ui.radio_value(&mut self.html, true, "html")
                        .on_hover_text("Write each as a numeric character reference, &#N;");
                });
                ui.end_row();

                ui.label("Byte order mark");
                let is_utf8 = self.output_encoding() == UTF_8;
                ui.add_enabled(
                    is_utf8,
                    egui::Checkbox::new(&mut self.bom, "Start with a UTF-8 byte order mark"),
                )
                .on_disabled_hover_text("Only UTF-8 is written with a byte order mark here");
                ui.end_row();

                ui.label("Line endings");
                ui.label("Kept as they are in the text");
                ui.end_row();
            });
    }

    fn preview_ui(&mut self, ui: &mut Ui, palette: &Palette) {
        let preview = match &self.preview {
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
                        self.worker.cancel();
                        self.preview = PreviewState::Stopped;
                    }
                });
                return;
            }
            PreviewState::Stopped => {
                ui.horizontal(|ui| {
                    ui.label("The check was stopped; nothing can be saved without it.");
                    if ui.button("Check again").clicked() {
                        self.previewed = None;
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
        if preview.unencodable.is_empty() || self.html {
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
        self.unencodable_ui(ui, palette, &preview);
        if preview.unencodable.is_empty() || self.html {
            round_trip_ui(ui, palette, &preview, &mut self.confirm.loss);
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
                &mut self.confirm.damage,
                "Keep the damage: save the U+FFFD on purpose",
            );
        }
    }

    fn unencodable_ui(&mut self, ui: &mut Ui, palette: &Palette, preview: &Preview) {
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
        if self.html {
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
                        if self.html {
                            rest.push_str("  →  ");
                            rest.push_str(&unencodable.reference());
                        }
                        ui.label(RichText::new(rest).monospace());
                    });
                }
            });
    }

    fn target_ui(&mut self, ui: &mut Ui, env: &DialogEnv<'_>, commands: &mut Vec<Command>) {
        ui.horizontal(|ui| {
            let label = ui.label("Save to");
            let width = ui.available_width() - 90.0;
            let edit = ui
                .add(
                    TextEdit::singleline(&mut self.target)
                        .desired_width(width)
                        .hint_text("a path; relative paths are beside the open file"),
                )
                .labelled_by(label.id);
            if edit.changed() {
                self.target_edited = true;
                self.confirm.replace = false;
                self.confirm.replace_open = false;
            }
            if ui
                .add_enabled(env.dialogs_enabled && !env.browsing, Button::new("Browse…"))
                .clicked()
            {
                commands.push(Command::BrowseSaveTarget);
            }
        });
        let Some(target) = self.target_path() else {
            return;
        };
        if Path::new(self.target.trim()).is_relative()
            && let Some(folder) = target.parent()
        {
            if self
                .folder_shown
                .as_ref()
                .is_none_or(|(known, _)| known != folder)
            {
                // Shown without the ".." of a document opened by a relative
                // path.
                let shown = fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
                self.folder_shown = Some((folder.to_path_buf(), format!("in {}", shown.display())));
            }
            if let Some((_, shown)) = &self.folder_shown {
                ui.label(RichText::new(shown).color(env.palette.weak_fg));
            }
        }
        let status = self.target_status(&target);
        let name = target
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let backup_name = backup_path(Path::new(&name)).display().to_string();
        if status.exists && !status.is_directory {
            ui.checkbox(
                &mut self.backup,
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
                &mut self.confirm.replace_open,
                "Replace the file open in this window",
            );
        } else if status.exists && !status.is_directory {
            ui.colored_label(env.palette.malformed_fg, format!("{name} already exists."));
            ui.checkbox(&mut self.confirm.replace, "Replace the existing file");
        }
    }
}

/// The encodings that have an encoder, under the standard's headings,
/// UTF-8 first.
fn output_encodings_ui(ui: &mut Ui, chosen: &mut &'static Encoding) {
    for group in Group::ALL {
        let encodings: Vec<&'static Encoding> =
            group.encodings().filter(|e| e.has_encoder()).collect();
        if encodings.is_empty() {
            continue;
        }
        ui.label(RichText::new(group.heading()).strong());
        for encoding in encodings {
            ui.selectable_value(chosen, encoding, encoding.name());
        }
    }
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
