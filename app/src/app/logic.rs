//! Per-frame work that is not layout: job events (into the session, the
//! views following), the file dialogs' answers, the file watch, dropped
//! files, keyboard shortcuts, and applying commands.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use eframe::egui::Context;
use mojiscope_core::{BomHandling, ByteSpan, Encoding, UTF_8};

use super::InspectorApp;
use super::dialogs::{Answer, FileDialog};
use super::views::DocumentViews;
use super::views::FindBar;
use crate::model::analysis::mixed::parts_of;
use crate::model::command::{Command, CopyAs, View};
use crate::model::copy;
use crate::model::cursor::{Motion, Unit, span_between, step};
use crate::model::document::Document;
use crate::model::document_jobs::{JobEvent, JobKind};
use crate::model::find::{Needle, next_match};
use crate::model::panes::{MAX_PANES, MIN_PANES, best_unused, default_panes, detected_panes};
use crate::model::samples::SAMPLES;
use crate::model::selection::{Selection, SelectionOrigin};
use crate::model::session::Find;
use crate::model::session::Session;
use crate::model::watch::{Change, FileWatch};
use crate::model::wording::plural;

/// The most job events handled in one frame (the rest wait for the next).
const MAX_EVENTS_PER_FRAME: usize = 256;

impl InspectorApp {
    /// Drains job events, the dialog's answer, dropped files and shortcuts.
    pub(super) fn logic(&mut self, ctx: &Context) {
        self.drain(ctx);
        self.watch_logic(ctx);
        let dropped = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|file| file.path().to_path_buf())
                .find(|path| !path.as_os_str().is_empty())
        });
        if let Some(path) = dropped {
            self.commands.push(Command::open_path(path));
        }
        // Back where it came from when what opened over the panes closes.
        let open = self.about.is_open()
            || self.shortcuts.is_open()
            || self.save.is_open()
            || self.repair_window.is_open()
            || eframe::egui::Popup::is_any_open(ctx);
        let focused = ctx.memory(eframe::egui::Memory::focused);
        if let Some(id) = self.focus_return.frame(open, focused) {
            self.views.focus_next.get_or_insert(id);
        }
        // Once no modal box holds the focus to itself any more.
        if self.views.focus_next.is_some()
            && ctx.memory(eframe::egui::Memory::top_modal_layer).is_none()
        {
            if let Some(id) = self.views.focus_next.take() {
                ctx.memory_mut(|memory| memory.request_focus(id));
            }
        } else if self.views.focus_next.is_some() {
            ctx.request_repaint();
        }
        self.shortcuts(ctx);
    }

    /// Drains the jobs' events and the file dialogs' answers into the
    /// session: the part of a frame that needs no ui, which eframe also runs
    /// on its own while the window is hidden, minimised or covered (see
    /// [`InspectorApp::logic_only`]).
    pub(super) fn drain(&mut self, ctx: &Context) {
        // Closing the window would drop changes not saved: ask first (the
        // question waits while the window is hidden).
        if ctx.input(|i| i.viewport().close_requested()) && self.close_requested() {
            ctx.send_viewport_cmd(eframe::egui::ViewportCommand::CancelClose);
        }
        let mut handled = 0;
        while let Some(event) = self.jobs.try_recv() {
            self.handle_event(event);
            handled += 1;
            if handled == MAX_EVENTS_PER_FRAME {
                // The rest at the next frame, which must come: the jobs
                // asked for a repaint before this one began.
                ctx.request_repaint();
                break;
            }
        }
        while let Some((dialog, answer)) = self.dialogs.try_recv() {
            self.dialog_answered(dialog, answer);
        }
        self.folder.poll();
    }

    fn handle_event(&mut self, event: JobEvent) {
        // Events of an earlier load of the document are stale.
        if event.generation() != self.session.generation {
            return;
        }
        let session = &mut self.session;
        match event {
            JobEvent::Progress {
                job, done, total, ..
            } => {
                let progress = (done < total).then_some((done, total));
                match job {
                    JobKind::Analysis { pane } => {
                        if let Some(pane) = session.panes.get_mut(pane) {
                            pane.progress = progress;
                        }
                    }
                    JobKind::Counts | JobKind::Lines => session.progress = progress,
                    JobKind::Detect => {}
                    JobKind::Repair => self.repair.progress(done, total),
                    JobKind::Find => {
                        if let Some(find) = &mut session.find {
                            find.progress = progress;
                        }
                    }
                }
            }
            JobEvent::Counts { counts, .. } => {
                session.counts = Some(counts);
                // Its last progress may have been dropped on a full channel.
                session.progress = None;
                // Detection chooses the panes; only without it do the counts.
                if !session.panes_settled && session.failed.detection {
                    self.panes_from_counts();
                }
            }
            JobEvent::Detection {
                detection,
                mojibake,
                ..
            } => {
                session.mojibake = mojibake;
                let settled = session.panes_settled;
                let bom = session.document.as_ref().and_then(|d| d.bom);
                let encodings = detected_panes(bom, &detection);
                session.detection = Some(detection);
                if !settled {
                    self.set_panes(&encodings);
                }
            }
            JobEvent::Segments { segmentation, .. } => {
                let len = session
                    .document
                    .as_ref()
                    .map_or(0, |d| d.bytes.len() as u64);
                session.parts = parts_of(&segmentation, len);
                session.segmentation = Some(segmentation);
            }
            JobEvent::Analysis { pane, analysis, .. } => {
                if let Some(target) = session.panes.get_mut(pane) {
                    let forced = session
                        .document
                        .as_ref()
                        .and_then(|d| d.bom)
                        .filter(|_| target.bom_handling == BomHandling::Sniff);
                    if analysis.encoding == target.encoding || Some(analysis.encoding) == forced {
                        if analysis.is_complete() {
                            target.progress = None;
                        }
                        target.analysis = Some(analysis);
                        if let Some(view) = self.views.panes.get_mut(pane) {
                            view.reset();
                        }
                    }
                }
            }
            JobEvent::Lines { index, .. } => {
                // After a reload, back to where the panes were, once the rows
                // reach it.
                let views = &mut self.views;
                if let Some(byte_offset) = views.pending_pane_top
                    && (byte_offset < index.byte_len() || index.is_complete())
                {
                    views.pending_pane_top = None;
                    views.pane_position.top_row = index.row_of(byte_offset);
                }
                session.lines = Some(index);
                views.reset_panes();
            }
            JobEvent::Repair { outcome, .. } => self.repair.finished(*outcome),
            JobEvent::Found {
                needle, matches, ..
            } => {
                if let Some(find) = &mut session.find
                    && find.needle == needle
                {
                    find.matches = Some(matches);
                    find.progress = None;
                    if let Some(forward) = find.then_forward.take() {
                        self.go_to_match(forward);
                    }
                }
            }
            JobEvent::Failed { job, message, .. } => self.job_failed(job, message),
        }
    }

    fn job_failed(&mut self, job: JobKind, message: String) {
        let session = &mut self.session;
        session.notice = Some(message.clone());
        match job {
            JobKind::Analysis { pane } => {
                // The line index is built with pane 0's analysis.
                session.failed.lines |= pane == 0;
                if let Some(pane) = session.panes.get_mut(pane) {
                    pane.failed = Some(message);
                }
            }
            JobKind::Counts => session.failed.counts = true,
            JobKind::Lines => session.failed.lines = true,
            JobKind::Repair => self.repair.failed(message),
            JobKind::Find => session.find = None,
            JobKind::Detect => {
                session.failed.detection = true;
                if !session.panes_settled {
                    self.panes_from_counts();
                }
            }
        }
    }

    /// Without detection, the panes come from the error counts, once known.
    fn panes_from_counts(&mut self) {
        let session = &self.session;
        let bom = session.document.as_ref().and_then(|d| d.bom);
        if let Some(encodings) = session.counts.as_ref().map(|c| default_panes(bom, c)) {
            self.set_panes(&encodings);
        }
    }

    /// Applies one command.
    pub(super) fn apply(&mut self, command: Command) {
        if !self.may_leave(&command) {
            return;
        }
        match command {
            Command::OpenDialog | Command::BrowseSaveTarget => self.show_file_dialog(&command),
            Command::Open(path) => self.load(&path),
            Command::OpenFolderDialog => self.show_folder_dialog(),
            Command::OpenFolder(path) => self.folder.scan_folder(path),
            Command::OpenSample(index) => self.open_sample(index),
            Command::Reload => self.reload(),
            Command::Close => self.close(),
            Command::SetMixed { pane, mixed } => {
                self.session.set_mixed(&mut self.jobs, pane, mixed);
                self.views.reset_panes();
            }
            Command::SetEncoding { pane, encoding } => {
                if self.session.forced_by_bom().is_none() && encoding.is_override_choice() {
                    // Leaving the Mixed reading: the pane shows one encoding.
                    self.session.set_mixed(&mut self.jobs, pane, false);
                    let mut encodings = self.session.pane_encodings();
                    if let Some(slot) = encodings.get_mut(pane) {
                        *slot = encoding;
                        self.set_panes(&encodings);
                    }
                }
            }
            Command::AddPane => {
                let mut encodings = self.session.pane_encodings();
                if encodings.len() < MAX_PANES && self.session.forced_by_bom().is_none() {
                    let next = best_unused(&encodings, self.session.counts.as_deref());
                    encodings.push(next);
                    self.set_panes(&encodings);
                }
            }
            Command::RemovePane(pane) => {
                let mut encodings = self.session.pane_encodings();
                if encodings.len() > MIN_PANES && pane < encodings.len() {
                    encodings.remove(pane);
                    self.set_panes(&encodings);
                }
            }
            Command::FocusPane(_)
            | Command::FocusPaneByKeyboard(_)
            | Command::FocusHex
            | Command::Quit => self.apply_focus(&command),
            Command::Select(_)
            | Command::MoveCursor { .. }
            | Command::Copy(_)
            | Command::ShowFind { .. }
            | Command::FindNext(_)
            | Command::CloseFind => self.apply_selection(&command),
            Command::Reveal(byte_offset) => self.reveal(byte_offset),
            Command::NextError => self.step_error(true),
            Command::PreviousError => self.step_error(false),
            Command::ShowGoTo => {
                if self.session.document.is_some() {
                    self.views.open_goto(self.context.get());
                }
            }
            Command::GoTo(byte_offset) => self.go_to(byte_offset),
            Command::SetHexWidth(_)
            | Command::SetArrangement(_)
            | Command::SetAlignBytes(_)
            | Command::Zoom(_)
            | Command::SetDarkMode(_) => self.apply_setting(&command),
            Command::CancelJobs => self.cancel_jobs(),
            Command::ShowAbout => self.about.open(),
            Command::ShowShortcuts(show) => self.shortcuts.set_open(show),
            Command::ResizeInspector(taller) => self.views.inspector_resize = Some(taller),
            Command::ShowWhy(encoding) => self.views.why = Some(encoding),
            Command::ShowLesson(lesson) => self.teaching.open(lesson),
            Command::Repair => self.repair_focused_pane(false),
            Command::RepairAgain => self.repair_focused_pane(true),
            Command::CancelRepair => {
                self.jobs.cancel_repair();
                self.repair.cancelled();
            }
            Command::SaveRepaired => self.save_repaired_text(),
            Command::ApplyRepaired => self.apply_repaired_to_pane(),
            Command::SaveAs => self.open_save_dialog(false),
            Command::SaveAsUtf8 => self.open_save_dialog(true),
            Command::HandRepair(command) => self.hand_repair(command),
        }
    }

    /// Closes the file: the window shows the start screen again.
    fn close(&mut self) {
        self.remember_current();
        self.jobs.cancel_all();
        self.watch = None;
        self.session = Session {
            generation: self.session.generation,
            ..Session::default()
        };
        self.views = DocumentViews::default();
    }

    /// Go to offset: selects the byte there and shows it.
    fn go_to(&mut self, byte_offset: u64) {
        if self.views.goto.is_some() {
            self.views.close_goto();
        }
        let len = self.document_len();
        if byte_offset < len {
            self.session.selection = Some(Selection {
                span: ByteSpan::new(byte_offset, byte_offset + 1),
                origin: SelectionOrigin::Navigation,
            });
            self.reveal(byte_offset);
        } else {
            self.session.notice = Some(format!(
                "offset {byte_offset} is past the end of the file ({len} bytes)"
            ));
        }
    }

    /// Opens a built-in sample, written out to the user's cache directory.
    fn open_sample(&mut self, index: usize) {
        let Some(sample) = SAMPLES.get(index) else {
            return;
        };
        match sample.write_out() {
            Ok(path) => self.load(&path),
            Err(error) => {
                self.session.notice = Some(format!(
                    "cannot write the sample {}: {}",
                    sample.name,
                    crate::model::wording::reason(&error)
                ));
            }
        }
    }

    /// Applies a command about the selection: select, move, copy, find.
    fn apply_selection(&mut self, command: &Command) {
        match *command {
            Command::Select(selection) => {
                self.session.selection = Some(selection);
                self.session.cursor = None;
            }
            Command::MoveCursor {
                view,
                motion,
                extend,
            } => self.move_cursor(view, motion, extend),
            Command::Copy(copy_as) => self.copy(copy_as),
            Command::ShowFind { hex } if self.session.document.is_some() => {
                let text = self
                    .views
                    .find
                    .take()
                    .map(|bar| bar.text)
                    .unwrap_or_default();
                self.views.find = Some(FindBar {
                    text,
                    hex,
                    focus: true,
                });
            }
            Command::FindNext(forward) => self.find_next(forward),
            Command::CloseFind => self.views.find = None,
            _ => {}
        }
    }

    /// Applies a command that moves the focus, or closes the window.
    fn apply_focus(&mut self, command: &Command) {
        match *command {
            Command::FocusPane(pane) if pane < self.session.panes.len() => {
                self.session.focused_pane = pane;
            }
            Command::FocusPaneByKeyboard(pane) if pane < self.session.panes.len() => {
                self.session.focused_pane = pane;
                if let (Some(ctx), Some(id)) =
                    (self.context.get(), self.views.readings.pane_id(pane))
                {
                    ctx.memory_mut(|memory| memory.request_focus(id));
                }
            }
            Command::FocusHex => {
                if let (Some(ctx), Some(id)) = (self.context.get(), self.views.hex.id()) {
                    ctx.memory_mut(|memory| memory.request_focus(id));
                }
            }
            Command::Quit => {
                if let Some(ctx) = self.context.get() {
                    ctx.send_viewport_cmd(eframe::egui::ViewportCommand::Close);
                }
            }
            _ => {}
        }
    }

    /// Applies a command that changes a setting.
    fn apply_setting(&mut self, command: &Command) {
        match *command {
            Command::SetHexWidth(width) => self.settings.hex_width = width,
            Command::SetArrangement(arrangement) => self.settings.arrangement = arrangement,
            Command::SetAlignBytes(align) => self.settings.align_bytes = align,
            Command::Zoom(zoom) => self.settings.zoom = zoom,
            Command::SetDarkMode(dark) => {
                self.settings.dark_mode = dark;
                if let Some(ctx) = self.context.get() {
                    ctx.set_theme(if dark {
                        eframe::egui::Theme::Dark
                    } else {
                        eframe::egui::Theme::Light
                    });
                }
            }
            _ => {}
        }
    }

    /// Shows File ▸ Open's dialog, or Save as's Browse (never in tests).
    fn show_file_dialog(&mut self, command: &Command) {
        if !self.dialogs_enabled {
            return;
        }
        if *command == Command::OpenDialog {
            self.dialogs.open_file();
        } else if let Some((directory, name)) = self.save.browse_target() {
            self.dialogs.pick_save_target(directory, name);
        }
    }

    /// What a native file dialog answered.
    fn dialog_answered(&mut self, dialog: FileDialog, answer: Answer) {
        match (dialog, answer) {
            (FileDialog::Open, Ok(Some(path))) => self.commands.push(Command::Open(path)),
            (FileDialog::SaveTarget, Ok(Some(path))) => self.save.browsed(&path),
            (FileDialog::Folder, Ok(Some(path))) => self.commands.push(Command::OpenFolder(path)),
            (FileDialog::Folder, Err(message)) => self.folder.no_chooser(message),
            (_, Ok(None)) => {}
            (FileDialog::Open, Err(message)) => {
                self.session.notice = Some(format!("cannot show the file dialog: {message}"));
            }
            (FileDialog::SaveTarget, Err(message)) => self.save.browse_failed(&message),
        }
    }

    /// Follows the open file on disk: reloads it when it changed, says so
    /// when it is gone.
    fn watch_logic(&mut self, ctx: &Context) {
        let Some(watch) = &mut self.watch else {
            return;
        };
        let now = Instant::now();
        match watch.poll(now) {
            Some(Change::Modified) => {
                if let Some(applied) = self.unsaved_changes() {
                    self.session.notice = Some(format!(
                        "the file changed on disk; pane {}'s changes are not saved, so it was \
                         not reloaded: save them with File ▸ Save as…, then reload with Ctrl+R",
                        applied.pane + 1
                    ));
                    return;
                }
                self.reload();
                if self.session.load_error.is_none() {
                    self.session.notice =
                        Some("the file changed on disk and was reloaded".to_owned());
                }
            }
            Some(Change::StillChanging) => {
                self.session.notice = Some(
                    "the file keeps changing on disk: it is reloaded once it is quiet (or now \
                     with Ctrl+R)"
                        .to_owned(),
                );
                ctx.request_repaint_after(crate::model::watch::SETTLE);
            }
            Some(Change::Removed) => {
                self.session.notice = Some(
                    "the file was deleted or moved on disk; this is how it was when it was opened"
                        .to_owned(),
                );
            }
            None => {
                if let Some(wait) = watch.wait(now) {
                    ctx.request_repaint_after(wait);
                }
            }
        }
    }

    /// Watches `path` unless it is watched already; returns why it cannot
    /// be, if it cannot.
    fn watch_file(&mut self, path: &Path) -> Option<String> {
        if self.watch.as_ref().is_some_and(|watch| watch.is(path)) {
            return None;
        }
        match FileWatch::new(path, Arc::clone(&self.repaint)) {
            Ok(watch) => {
                self.watch = Some(watch);
                None
            }
            Err(error) => {
                self.watch = None;
                Some(format!("changes on disk will not be followed: {error}"))
            }
        }
    }

    /// Reads the open file again, keeping the panes, the selection and the
    /// place in every view.
    fn reload(&mut self) {
        let Some(path) = self.session.document.as_ref().map(|d| d.path.clone()) else {
            return;
        };
        let panes = self.session.pane_encodings();
        let selection = self.session.selection;
        let hex_top = self.views.hex.top_byte(self.views.hex_width.max(1));
        let pane_top = self
            .session
            .lines
            .as_ref()
            .map(|lines| lines.row_span(self.views.pane_position.top_row).start);
        self.load(&path);
        let len = self.document_len();
        if self.session.document.is_none() {
            return;
        }
        if !panes.is_empty() {
            self.set_panes(&panes);
        }
        self.session.selection = selection
            .filter(|selection| selection.span.start < len)
            .map(|selection| Selection {
                span: ByteSpan::new(selection.span.start, selection.span.end.min(len)),
                ..selection
            });
        self.views.hex.scroll_to(hex_top.min(len));
        self.views.pending_pane_top = pane_top;
    }

    /// Stops the background jobs; the views keep what was done.
    fn cancel_jobs(&mut self) {
        self.jobs.cancel_all();
        self.repair.cancelled();
        self.session.progress = None;
        self.session.failed.counts |= self.session.counts.is_none();
        self.session.failed.detection |= self.session.detection.is_none();
        self.session.failed.lines |= self
            .session
            .lines
            .as_ref()
            .is_none_or(|lines| !lines.is_complete());
        self.session.notice =
            Some("cancelled: the views show what was done (Reload to start again)".to_owned());
        for pane in &mut self.session.panes {
            pane.progress = None;
            if pane.analysis.as_ref().is_none_or(|a| !a.is_complete()) {
                pane.failed = Some("cancelled (Reload to start again)".to_owned());
            }
        }
    }

    /// Remembers the open file and its panes in the recent files.
    pub(super) fn remember_current(&mut self) {
        if let Some(document) = &self.session.document {
            let panes = self.session.pane_encodings();
            let panes: Vec<_> = panes
                .into_iter()
                .filter(|e| e.is_override_choice())
                .collect();
            self.settings.remember(&document.path, &panes);
        }
    }

    fn document_len(&self) -> u64 {
        self.session
            .document
            .as_ref()
            .map_or(0, |d| d.bytes.len() as u64)
    }

    /// Opens `path` as a new generation: a file that cannot be read leaves a
    /// message in the window and nothing else changes.
    fn load(&mut self, path: &Path) {
        self.remember_current();
        let generation = self.session.generation + 1;
        match Document::open(path, generation) {
            Ok(document) => {
                self.jobs.cancel_all();
                let watch_error = self.watch_file(&document.path);
                let remembered = self.settings.panes_for(&document.path);
                let bom = document.bom;
                self.session = Session {
                    generation,
                    document: Some(document),
                    notice: watch_error,
                    ..Session::default()
                };
                self.views = DocumentViews::default();
                if let Some(document) = &self.session.document {
                    self.jobs.start_counts(document);
                    self.jobs.start_detection(document);
                }
                match remembered {
                    Some(panes) if bom.is_none_or(Encoding::is_override_choice) => {
                        self.set_panes(&panes);
                    }
                    _ => {
                        // The primary pane is known before the counts are:
                        // the BOM's encoding, else UTF-8.
                        self.set_panes(&[bom.unwrap_or(UTF_8)]);
                        self.session.panes_settled = false;
                    }
                }
                self.remember_current();
            }
            Err(error) => {
                self.session.generation = generation;
                self.session.load_error = Some(error.to_string());
            }
        }
    }

    /// Sets the panes' encodings (see [`Session::set_panes`]); the panes'
    /// views follow.
    pub(super) fn set_panes(&mut self, encodings: &[&'static Encoding]) {
        if let Some(kept) = self.session.set_panes(&mut self.jobs, encodings) {
            self.views.panes_changed(&kept);
        }
    }

    fn reveal(&mut self, byte_offset: u64) {
        self.views.hex.reveal(byte_offset);
        if let Some(lines) = &self.session.lines {
            self.views.pane_position.reveal(lines.row_of(byte_offset));
        }
    }

    /// Moves the selection's cursor in `view`, or extends the selection.
    fn move_cursor(&mut self, view: View, motion: Motion, extend: bool) {
        let session = &self.session;
        let Some(document) = &session.document else {
            return;
        };
        let bytes: &[u8] = &document.bytes;
        if bytes.is_empty() {
            return;
        }
        let (anchor, from) = match (session.cursor, session.selection) {
            (Some(cursor), _) => cursor,
            (None, Some(selection)) => (selection.span, selection.span),
            (None, None) => (ByteSpan::new(0, 1), ByteSpan::new(0, 1)),
        };
        let analysis = match view {
            View::Pane(pane) => session.panes.get(pane).and_then(|p| p.analysis.clone()),
            View::Hex => None,
        };
        let unit = match (&analysis, &session.lines) {
            (Some(analysis), Some(lines)) => Unit::Items { analysis, lines },
            _ => Unit::Bytes {
                row_width: self.views.hex_width.max(1) as u64,
            },
        };
        // With no selection yet, the first key selects the first item.
        let to = if session.selection.is_none() {
            step(bytes, from, Motion::FileStart, &unit)
        } else {
            step(bytes, from, motion, &unit)
        };
        let anchor = if extend { anchor } else { to };
        let origin = match view {
            View::Hex => SelectionOrigin::Hex,
            View::Pane(pane) => SelectionOrigin::Pane(pane),
        };
        self.session.cursor = Some((anchor, to));
        self.session.selection = Some(Selection {
            span: span_between(anchor, to),
            origin,
        });
        self.reveal(to.start);
    }

    /// Goes to the next (or previous) match of the find bar's needle,
    /// starting the find when the needle is new.
    fn find_next(&mut self, forward: bool) {
        let Some(bar) = &self.views.find else {
            return;
        };
        let pane = self.session.focused_pane;
        let Some(needle) = Needle::parse(&bar.text, bar.hex, pane) else {
            self.session.notice = Some(if bar.hex {
                "type the bytes to find in hex, e.g. 82 A0".to_owned()
            } else {
                "type the text to find".to_owned()
            });
            return;
        };
        let Some(document) = &self.session.document else {
            return;
        };
        if self.session.find.as_ref().map(|find| &find.needle) == Some(&needle) {
            match &mut self.session.find {
                Some(find) if find.matches.is_none() => find.then_forward = Some(forward),
                _ => self.go_to_match(forward),
            }
            return;
        }
        let analysis = match &needle {
            Needle::Text { pane, .. } => self
                .session
                .panes
                .get(*pane)
                .and_then(|p| p.analysis.clone()),
            Needle::Bytes(_) => None,
        };
        self.jobs.start_find(document, needle.clone(), analysis);
        self.session.find = Some(Find {
            needle,
            matches: None,
            progress: None,
            then_forward: Some(forward),
            current: None,
        });
    }

    /// Selects the match after (or before) the selection.
    fn go_to_match(&mut self, forward: bool) {
        let from = self.session.selection.map(|s| s.span.start);
        let Some(find) = &mut self.session.find else {
            return;
        };
        let Some(matches) = &find.matches else {
            return;
        };
        let Some(index) = next_match(matches, from, forward) else {
            self.session.notice = Some("not found".to_owned());
            return;
        };
        let Some(&span) = matches.get(index) else {
            return;
        };
        find.current = Some(index);
        self.session.selection = Some(Selection {
            span,
            origin: SelectionOrigin::Navigation,
        });
        self.session.cursor = None;
        self.reveal(span.start);
    }

    /// Copies the selection to the clipboard.
    fn copy(&mut self, copy_as: CopyAs) {
        let session = &self.session;
        let (Some(document), Some(selection)) = (&session.document, session.selection) else {
            return;
        };
        let span = selection.span;
        let text = match copy_as {
            CopyAs::Hex => copy::hex_text(&document.bytes, span),
            CopyAs::Escaped => copy::escaped_text(&document.bytes, span),
            CopyAs::Text(pane) => {
                let Some(analysis) = session.panes.get(pane).and_then(|p| p.analysis.as_ref())
                else {
                    return;
                };
                // What the pane shows: with its reinterpretations by hand.
                match super::hand_repair::shown_edits(&self.edits, session) {
                    Some(shown) if shown.pane == pane => {
                        copy::shown_text(&document.bytes, analysis, span, shown.edits)
                    }
                    _ => copy::decoded_text(&document.bytes, analysis, span),
                }
            }
        };
        let what = match copy_as {
            CopyAs::Text(pane) => format!("as pane {}'s text", pane + 1),
            CopyAs::Hex => "as hex".to_owned(),
            CopyAs::Escaped => "as escaped bytes".to_owned(),
        };
        self.session.notice = Some(if span.len() > copy::MAX_COPY_BYTES {
            format!(
                "copied the first {} MiB of the selection {what}",
                copy::MAX_COPY_BYTES / 1024 / 1024
            )
        } else {
            format!("copied {} {what}", plural(span.len(), "byte", "bytes"))
        });
        if let Some(ctx) = self.context.get() {
            ctx.copy_text(text);
        }
    }

    /// Selects the next (or previous) error of the focused pane.
    fn step_error(&mut self, forward: bool) {
        let session = &self.session;
        let Some(document) = &session.document else {
            return;
        };
        let Some(analysis) = session
            .panes
            .get(session.focused_pane)
            .and_then(|pane| pane.analysis.clone())
        else {
            return;
        };
        let found = match (session.selection, forward) {
            (Some(selection), true) => analysis.next_error(selection.span.start),
            (Some(selection), false) => analysis.prev_error(selection.span.start),
            (None, true) => analysis.error_offsets.first().copied(),
            (None, false) => analysis.error_offsets.last().copied(),
        };
        let Some(byte_offset) = found else {
            self.session.notice = Some(format!(
                "no {} error in {}",
                if forward { "next" } else { "previous" },
                analysis.encoding.name()
            ));
            return;
        };
        let span = analysis
            .error_at(&document.bytes, byte_offset)
            .map_or(ByteSpan::new(byte_offset, byte_offset + 1), |(span, _)| {
                span
            });
        self.session.selection = Some(Selection {
            span,
            origin: SelectionOrigin::Navigation,
        });
        self.session.notice = None;
        self.reveal(byte_offset);
    }
}
