//! Changes applied to a pane's text and not saved are the user's work:
//! closing the window, opening another file, closing or reloading this one
//! would drop them. Those ask first ("Save as…", "Discard changes",
//! "Cancel"), and a change of the file on disk waits to be reloaded. After
//! "Save as…", what asked goes on once the changes are saved, and not if
//! the save is cancelled.

use eframe::egui::{self, Button, Key, Modal, Ui};

use super::InspectorApp;
use crate::model::command::Command;
use crate::model::verdict::Applied;

/// Leaving with changes not saved: the question and the answer.
#[derive(Debug, Default)]
pub struct LeaveState {
    /// What would drop them, waiting for the user's answer.
    leaving: Option<Leave>,
    /// Whether the question has been shown (its first frame takes the
    /// keyboard focus).
    shown: bool,
    /// The command that waited runs next, past the question: the user
    /// chose "Discard changes", or the changes were saved meanwhile.
    let_through: bool,
    /// The user chose to close the window, changes and all.
    quitting: bool,
    /// The user's "Save as…": what waits for the save, which the Save as
    /// dialog is open for.
    after_save: Option<Leave>,
}

/// What would drop changes not saved, waiting for the user's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Leave {
    /// A command: open another file or a sample, close or reload this one.
    Command(Command),
    /// Close the window.
    Quit,
}

impl Leave {
    /// What it does, for the question.
    fn doing(&self) -> &'static str {
        match self {
            Leave::Command(Command::Close) => "Closing the file",
            Leave::Command(Command::Reload) => "Reloading the file",
            Leave::Command(_) => "Opening another file",
            Leave::Quit => "Closing the window",
        }
    }
}

impl InspectorApp {
    /// The changes applied to a pane of the open document, if any, and
    /// whether they are saved.
    pub fn applied_changes(&self) -> Option<Applied> {
        super::hand_repair::shown_edits(&self.edits, &self.session).map(|shown| Applied {
            pane: shown.pane,
            changes: shown.edits.len(),
            saved: self.saved_edits == Some(shown.revision),
        })
    }

    /// The changes applied to a pane of the open document and not saved
    /// since, if any.
    pub fn unsaved_changes(&self) -> Option<Applied> {
        self.applied_changes().filter(|applied| !applied.saved)
    }

    /// What waits for the user's answer, if anything.
    pub fn leaving(&self) -> Option<&Leave> {
        self.leave.leaving.as_ref()
    }

    /// Whether `command` may run now: it may unless it drops changes not
    /// saved, in which case it waits for the user's answer.
    pub(super) fn may_leave(&mut self, command: &Command) -> bool {
        let drops = matches!(
            command,
            Command::Open(_) | Command::OpenSample(_) | Command::Close | Command::Reload
        );
        if !drops {
            return true;
        }
        // The command the user's answer let through (taken here, so that it
        // lets through no later one).
        let let_through = std::mem::take(&mut self.leave.let_through);
        if let_through || self.unsaved_changes().is_none() {
            return true;
        }
        self.leave.leaving = Some(Leave::Command(command.clone()));
        false
    }

    /// Saves the changes applied to a pane: Save as on that pane's text.
    pub(super) fn save_applied_changes(&mut self) {
        if let Some(applied) = self.applied_changes() {
            self.commands.push(Command::FocusPane(applied.pane));
        }
        self.commands.push(Command::SaveAs);
    }

    /// After the question's "Save as…": what waited goes on once the
    /// changes are saved, and is dropped when the dialog closes without
    /// saving them (cancelled, or refused while another save ran).
    fn follow_save(&mut self, ctx: &egui::Context) {
        if self.leave.after_save.is_none() {
            return;
        }
        if self.unsaved_changes().is_none() {
            let leaving = self.leave.after_save.take();
            self.go(ctx, leaving);
        } else if !self.save.is_open()
            && let Some(leaving) = self.leave.after_save.take()
        {
            // The status line said it waited for the save: no longer.
            self.session.notice = Some(format!(
                "{} cancelled: the changes are not saved",
                leaving.doing()
            ));
        }
    }

    /// The window was asked to close: it does, unless that drops changes
    /// not saved (then it asks). Whether to cancel the close.
    pub(super) fn close_requested(&mut self) -> bool {
        if self.leave.quitting || self.unsaved_changes().is_none() {
            return false;
        }
        self.leave.leaving = Some(Leave::Quit);
        true
    }

    /// The question, while something waits for the answer.
    pub(super) fn leave_ui(&mut self, ui: &mut Ui) {
        self.follow_save(ui.ctx());
        let Some(leaving) = &self.leave.leaving else {
            return;
        };
        let Some(applied) = self.unsaved_changes() else {
            // Saved (or undone) meanwhile: nothing is lost any more.
            let leaving = self.leave.leaving.take();
            self.go(ui.ctx(), leaving);
            return;
        };
        let question = format!(
            "Pane {} has {} applied to its text and not saved. {} drops {}.",
            applied.pane + 1,
            crate::model::wording::plural(applied.changes, "change", "changes"),
            leaving.doing(),
            if applied.changes == 1 { "it" } else { "them" }
        );
        let mut answer = None;
        let modal = Modal::new(egui::Id::unique("changes not saved")).show(ui.ctx(), |ui| {
            ui.heading("Changes not saved");
            crate::ui::name_dialog(ui, "Changes not saved");
            ui.label(&question);
            ui.horizontal(|ui| {
                let save = ui.add(Button::new("Save as…"));
                if !self.leave.shown {
                    save.request_focus();
                }
                if save.clicked() {
                    answer = Some(Answer::Save);
                }
                if ui.button("Discard changes").clicked() {
                    answer = Some(Answer::Discard);
                }
                if ui.button("Cancel").clicked() {
                    answer = Some(Answer::Cancel);
                }
            });
        });
        self.leave.shown = true;
        if answer.is_none() && (modal.should_close() || ui.input(|i| i.key_pressed(Key::Escape))) {
            answer = Some(Answer::Cancel);
        }
        match answer {
            None => {}
            Some(Answer::Save) => {
                self.session.notice = self.leave.leaving.as_ref().map(|leaving| {
                    format!(
                        "{} waits for the save; closing Save as without saving \
                         cancels it",
                        leaving.doing()
                    )
                });
                self.leave.after_save = self.leave.leaving.take();
                self.save_applied_changes();
            }
            Some(Answer::Discard) => {
                let leaving = self.leave.leaving.take();
                self.go(ui.ctx(), leaving);
            }
            Some(Answer::Cancel) => self.leave.leaving = None,
        }
        if self.leave.leaving.is_none() {
            self.leave.shown = false;
        }
    }

    /// Does what waited, the changes dropped.
    fn go(&mut self, ctx: &egui::Context, leaving: Option<Leave>) {
        match leaving {
            Some(Leave::Command(command)) => {
                // Run with the frame's other commands, past the question.
                self.leave.let_through = true;
                self.commands.push(command);
            }
            Some(Leave::Quit) => {
                self.leave.quitting = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
            None => {}
        }
    }
}

/// The user's answer to the question.
#[derive(Clone, Copy)]
enum Answer {
    Save,
    Discard,
    Cancel,
}
