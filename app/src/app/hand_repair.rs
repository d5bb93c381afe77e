//! Repair by hand: Edit ▸ Reinterpret selection… (and the panes' context
//! menu, Ctrl+E), Undo and Redo, the selection sent to the Mojibake lab
//! and its result applied back, Explain; and the working text, the pane's
//! decode with the reinterpretations (and the Repair window's accepted
//! changes) in place, which Save as writes. The model is
//! `model::repair::manual`; the window is `ui::reinterpret`'s.

use std::sync::Arc;

use eframe::egui::{self, InputState, Key, Modifiers, Ui};
use mojiscope_core::DecodeErrorMode;
use mojiscope_core::EncodeErrorMode;

use super::{InspectorApp, keys};
use crate::model::command::{Command, Lesson};
use crate::model::copy;
use crate::model::repair::manual::{
    Edit, EditOrigin, EditTarget, HandRepair, LossKind, LostMark, ManualEdits, Reinterpreted,
    Replacement, WrongReading, working_text,
};
use crate::model::save::TextSource;
use crate::model::save::save_as::OpenRequest;
use crate::model::session::Session;
use crate::model::wording::plural;
use crate::theme::Palette;
use crate::ui::menu;
use crate::ui::readings::{PaneEdits, edits_in_words};
use crate::ui::reinterpret::{Decision, ReinterpretView, Span};
use crate::ui::teaching::lab::LabStep;

/// The most bytes a selection may have to be reinterpreted.
const MAX_SPAN_BYTES: u64 = 64 * 1024;

impl InspectorApp {
    /// Applies a repair-by-hand command.
    pub(super) fn hand_repair(&mut self, command: HandRepair) {
        self.forget_stale_edits();
        match command {
            HandRepair::Reinterpret => match self.selected_span() {
                Ok(span) => {
                    self.reinterpret_return = self.views.readings.pane_id(span.target.pane);
                    self.reinterpret = Some(ReinterpretView::new(span));
                }
                Err(why) => self.session.notice = Some(why),
            },
            HandRepair::Undo => {
                self.session.notice = Some(match self.edits.undo() {
                    Some(what) => format!("undone: {what}"),
                    None => "nothing to undo".to_owned(),
                });
            }
            HandRepair::Redo => {
                self.session.notice = Some(match self.edits.redo() {
                    Some(what) => format!("done again: {what}"),
                    None => "nothing to redo".to_owned(),
                });
            }
            HandRepair::SendToLab => match self.selected_span() {
                Ok(span) => {
                    let view = ReinterpretView::new(span.clone());
                    // The lab starts on the best reading's steps, undone
                    // (unless it reads through a DOS code page, which the
                    // lab's encoders do not know: then on none).
                    let mut steps = Vec::new();
                    if let Some(best) = view.proposals().iter().find(|p| !p.misreadings.is_empty())
                    {
                        for misreading in best.misreadings.iter().rev() {
                            let WrongReading::Encoding(encoding) = misreading.decoded_as else {
                                steps.clear();
                                break;
                            };
                            steps.push(LabStep::Encode {
                                encoding,
                                mode: EncodeErrorMode::Html,
                            });
                            steps.push(LabStep::Decode {
                                encoding: misreading.encoded_as,
                                mode: DecodeErrorMode::Replacement,
                            });
                        }
                    }
                    let name = describe_span(&span);
                    self.teaching.lab.link(&span.text, steps, name);
                    self.lab_link = Some(span);
                    self.teaching.open(Lesson::MojibakeLab);
                }
                Err(why) => self.session.notice = Some(why),
            },
            HandRepair::Explain => {
                if self.session.selection.is_none() {
                    self.session.notice = Some(NO_SELECTION.to_owned());
                    return;
                }
                let pane = self.session.focused_pane;
                self.views.inspector.explain.request_open(pane);
            }
        }
    }

    /// The selection as the focused pane reads it.
    fn selected_span(&self) -> Result<Span, String> {
        let session = &self.session;
        let (Some(document), Some(selection)) = (&session.document, session.selection) else {
            return Err(NO_SELECTION.to_owned());
        };
        let pane_index = session.focused_pane;
        let pane = session
            .panes
            .get(pane_index)
            .ok_or_else(|| NO_SELECTION.to_owned())?;
        let analysis = pane
            .analysis
            .as_ref()
            .ok_or_else(|| "the pane is still decoding the file: wait for it".to_owned())?;
        if selection.span.len() > MAX_SPAN_BYTES {
            return Err(format!(
                "the selection is {}: select at most {} KiB to reinterpret it",
                plural(selection.span.len(), "byte", "bytes"),
                MAX_SPAN_BYTES / 1024
            ));
        }
        let text = copy::decoded_text(&document.bytes, analysis, selection.span);
        if text.is_empty() {
            return Err("the selection has no character of its own in the focused pane".to_owned());
        }
        Ok(Span {
            target: EditTarget {
                pane: pane_index,
                encoding: pane.encoding,
                bom_handling: pane.bom_handling,
                generation: document.generation,
            },
            bytes: selection.span,
            text,
        })
    }

    /// Edits of an earlier load of the file are of text no longer there.
    pub(super) fn forget_stale_edits(&mut self) {
        let generation = self.session.document.as_ref().map(|d| d.generation);
        if self
            .edits
            .target()
            .is_some_and(|target| Some(target.generation) != generation)
        {
            self.edits.clear();
        }
        if self
            .lab_link
            .as_ref()
            .is_some_and(|span| Some(span.target.generation) != generation)
        {
            self.lab_link = None;
            self.teaching.lab.unlink();
        }
    }

    /// Puts `reading` in place of `span`'s text.
    fn apply_reading(&mut self, span: &Span, reading: Reinterpreted, how: &str) {
        if reading.text == span.text {
            self.session.notice =
                Some("nothing changed: the reading is the text as it is".to_owned());
            return;
        }
        let edit = Edit {
            span: span.bytes,
            original: span.text.clone(),
            replacement: reading,
            how: format!(
                "{} at bytes {:#X}..{:#X}",
                how, span.bytes.start, span.bytes.end
            ),
            origin: EditOrigin::ByHand,
        };
        let lost = edit.replacement.lost.len();
        match self.edits.apply(span.target, edit) {
            Ok(()) => {
                self.session.notice = Some(format!(
                    "reinterpreted {} of pane {}{}; File ▸ Save as… writes the text with it, \
                     Ctrl+Z undoes it",
                    plural(span.text.chars().count(), "character", "characters"),
                    span.target.pane + 1,
                    if lost > 0 {
                        format!(" ({} lost)", plural(lost, "character", "characters"))
                    } else {
                        String::new()
                    }
                ));
            }
            Err(other) => {
                self.session.notice = Some(format!(
                    "pane {}'s text ({}) has reinterpretations not saved: save them with \
                     File ▸ Save as… or undo them before reinterpreting another pane's text",
                    other.pane + 1,
                    other.encoding.name()
                ));
            }
        }
    }

    /// The Reinterpret window, if open, and the lab's Apply back.
    pub(super) fn hand_repair_ui(&mut self, ctx: &egui::Context, palette: &Palette) {
        self.forget_stale_edits();
        if let Some(view) = &mut self.reinterpret {
            let decision = view.ui(ctx, palette);
            if let Some(decision) = decision {
                let span = view.span().clone();
                self.reinterpret = None;
                if let Decision::Apply(reading, how) = decision {
                    self.apply_reading(&span, reading, &how);
                }
                self.views.focus_next = self.reinterpret_return.take();
            }
        }
        if let Some((text, errors)) = self.teaching.lab.take_apply_back() {
            let Some(span) = self.lab_link.clone() else {
                return;
            };
            let lost = errors
                .into_iter()
                .map(|offset| LostMark {
                    utf8_range: offset..offset + char::REPLACEMENT_CHARACTER.len_utf8(),
                    kind: LossKind::Undecodable,
                })
                .collect();
            let reading = Reinterpreted { text, lost };
            let how = format!("{} from the Mojibake lab", self.teaching.lab.describe());
            self.apply_reading(&span, reading, &how);
        }
    }

    /// Ctrl+Z, Ctrl+Shift+Z (and Ctrl+Y), Ctrl+E: not while typing.
    pub(super) fn hand_repair_shortcuts(&mut self, input: &mut InputState) {
        if keys::consume(input, keys::REDO) || input.consume_key(Modifiers::COMMAND, Key::Y) {
            self.commands.push(Command::HandRepair(HandRepair::Redo));
        }
        if keys::consume(input, keys::UNDO) {
            self.commands.push(Command::HandRepair(HandRepair::Undo));
        }
        if keys::consume(input, keys::REINTERPRET) {
            self.commands
                .push(Command::HandRepair(HandRepair::Reinterpret));
        }
    }

    /// The reinterpretations of pane `pane`'s text in the current load,
    /// and the Repair window's accepted changes of the same decode, as
    /// replacements in byte order; `None` when there is no
    /// reinterpretation.
    fn working_replacements(&self, pane: usize) -> Option<(EditTarget, Vec<Replacement<'_>>)> {
        let target = self.edits.target()?;
        let generation = self.session.document.as_ref()?.generation;
        // Only while the pane reads the file as the edits were made in, as
        // it shows them: Save as writes what the pane shows.
        let reading = self.session.panes.get(pane)?;
        if target.pane != pane
            || target.generation != generation
            || reading.encoding != target.encoding
            || reading.bom_handling != target.bom_handling
            || self.edits.edits().is_empty()
        {
            return None;
        }
        let mut replacements: Vec<Replacement<'_>> = Vec::new();
        for edit in self.edits.edits() {
            replacements.push(Replacement {
                span: edit.span,
                text: &edit.replacement.text,
                lost: &[],
            });
        }
        if let Some(review) = self.repair.current_review(Some(generation)) {
            let request = review.request();
            if request.pane == pane
                && request.encoding == target.encoding
                && request.bom_handling == target.bom_handling
            {
                for (index, proposal) in review.proposals().iter().enumerate() {
                    let span = proposal.bytes;
                    let overlaps = self
                        .edits
                        .edits()
                        .iter()
                        .any(|edit| edit.span.start < span.end && span.start < edit.span.end);
                    if review.is_accepted(index) && !overlaps && !span.is_empty() {
                        replacements.push(Replacement {
                            span,
                            text: &proposal.change.replacement,
                            lost: &[],
                        });
                    }
                }
            }
        }
        replacements.sort_by_key(|replacement| replacement.span.start);
        Some((target, replacements))
    }

    /// Opens Save as on the working text of pane `pane`, if it has
    /// reinterpretations, UTF-8 preselected: true if it did.
    pub(super) fn save_working_text(&mut self, pane: usize) -> bool {
        let Some(document) = &self.session.document else {
            return false;
        };
        let Some((target, replacements)) = self.working_replacements(pane) else {
            return false;
        };
        // Where each replacement lost characters, in its own text.
        let losses: Vec<Vec<usize>> = replacements
            .iter()
            .map(|replacement| self.losses_of(replacement))
            .collect();
        let replacements: Vec<Replacement<'_>> = replacements
            .iter()
            .zip(&losses)
            .map(|(replacement, lost)| Replacement {
                lost,
                ..*replacement
            })
            .collect();
        let (text, errors) = working_text(
            &document.bytes,
            target.encoding,
            target.bom_handling,
            &replacements,
        );
        let name = document.path.file_name().map_or_else(
            || document.path.display().to_string(),
            |name| name.to_string_lossy().into_owned(),
        );
        let request = OpenRequest {
            source: TextSource::Repaired {
                text: Arc::from(text),
                decoded_as: target.encoding,
                errors: Arc::from(errors),
            },
            title: format!(
                "pane {}: {name} decoded as {}, with {}",
                pane + 1,
                target.encoding.name(),
                edits_in_words(self.edits.edits()),
            ),
            document: document.path.clone(),
            generation: document.generation,
            // A reinterpretation may bring back characters the decoded
            // encoding cannot encode, as a repair may.
            utf8: true,
        };
        if !self
            .save
            .open(request, &self.settings.save, Arc::clone(&self.repaint))
        {
            self.session.notice = Some("a save is running; wait for it to finish".to_owned());
        }
        true
    }

    /// Where `replacement`'s text lost characters: a reinterpretation's
    /// marks, or an accepted change's lost characters.
    fn losses_of(&self, replacement: &Replacement<'_>) -> Vec<usize> {
        if let Some(edit) = self
            .edits
            .edits()
            .iter()
            .find(|edit| edit.span == replacement.span)
        {
            return edit
                .replacement
                .lost
                .iter()
                .map(|mark| mark.utf8_range.start)
                .collect();
        }
        self.repair
            .review()
            .and_then(|review| {
                review
                    .proposals()
                    .iter()
                    .find(|proposal| proposal.bytes == replacement.span)
            })
            .map(|proposal| {
                proposal
                    .change
                    .lost
                    .iter()
                    .map(|lost| lost.utf8_offset)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The Edit menu.
    pub(super) fn edit_menu_ui(&mut self, ui: &mut Ui) {
        let commands = &mut self.commands;
        let selected = self.session.selection.is_some();
        let undo = if self.edits.can_undo() {
            "&Undo reinterpretation"
        } else {
            "&Undo"
        };
        if keys::menu_item(ui, undo, keys::UNDO, self.edits.can_undo()) {
            commands.push(Command::HandRepair(HandRepair::Undo));
        }
        if keys::menu_item(ui, "Re&do", keys::REDO, self.edits.can_redo()) {
            commands.push(Command::HandRepair(HandRepair::Redo));
        }
        ui.separator();
        if keys::menu_item(ui, "&Reinterpret selection…", keys::REINTERPRET, selected) {
            commands.push(Command::HandRepair(HandRepair::Reinterpret));
        }
        if menu::item(ui, "Send selection to the Mojibake &lab", None, selected) {
            commands.push(Command::HandRepair(HandRepair::SendToLab));
        }
        if menu::item(ui, "E&xplain selection", None, selected) {
            commands.push(Command::HandRepair(HandRepair::Explain));
        }
    }
}

/// The reinterpretations a pane shows in its text: those of the current
/// load, while the pane still reads the file as they were made in.
pub(super) fn shown_edits<'a>(edits: &'a ManualEdits, session: &Session) -> Option<PaneEdits<'a>> {
    let target = edits.target()?;
    let document = session.document.as_ref()?;
    let pane = session.panes.get(target.pane)?;
    let same = target.generation == document.generation
        && pane.encoding == target.encoding
        && pane.bom_handling == target.bom_handling;
    (same && !edits.edits().is_empty()).then(|| PaneEdits {
        pane: target.pane,
        edits: edits.edits(),
        revision: edits.revision(),
    })
}

/// Why nothing can be done without a selection.
const NO_SELECTION: &str = "select some text in a pane first (drag over it, or Shift+arrows)";

/// "pane 1 (windows-1252), bytes 0x10..0x1A".
fn describe_span(span: &Span) -> String {
    format!(
        "pane {} ({}), bytes {:#X}..{:#X}",
        span.target.pane + 1,
        span.target.encoding.name(),
        span.bytes.start,
        span.bytes.end
    )
}
