//! The desktop app: [`InspectorApp`] owns the model (the persisted
//! [`Settings`], the [`Session`]: the open document and what the jobs
//! learned of it, the document's background [`DocumentJobs`], the Repair
//! window's and Save as's state) and, beside it, the views' state
//! ([`DocumentViews`] and the windows); it implements [`eframe::App`].
//!
//! Each frame runs [`InspectorApp::ui`]: drain job events and input
//! (`logic`), lay out the panels (`ui`), which push [`Command`]s, then
//! apply those commands once.

mod dialogs;
mod focus;
mod folder;
mod hand_repair;
mod keys;
mod leave;
mod logic;
mod menus;
mod repair_mojibake;
mod save_as;
mod ui;
pub mod views;

use std::path::Path;
use std::sync::{Arc, OnceLock};

use eframe::egui::{self, Context};

use self::dialogs::FileDialogs;
use self::focus::FocusReturn;
use self::views::DocumentViews;
use crate::model::command::Command;
use crate::model::document_jobs::DocumentJobs;
use crate::model::jobs::Repaint;
use crate::model::repair::task::RepairTask;
use crate::model::save::save_as::SaveAs;
use crate::model::session::Session;
use crate::model::settings::Settings;
use crate::model::watch::FileWatch;
use crate::ui::about::About;
use crate::ui::folder_view::FolderWindow;
use crate::ui::repair_view::RepairView;
use crate::ui::shortcuts::Shortcuts;
use crate::ui::teaching::Teaching;

/// The desktop app.
pub struct InspectorApp {
    /// What is remembered between runs.
    pub settings: Settings,
    /// The open document and everything known about it.
    pub session: Session,
    /// The panels' view state for the open document.
    pub views: DocumentViews,
    jobs: DocumentJobs,
    /// The egui context, once the first frame has run: the jobs' repaint
    /// callback reaches it through this.
    context: Arc<OnceLock<Context>>,
    /// Commands collected during the frame.
    commands: Vec<Command>,
    /// The native file dialogs, each a job while it is open.
    dialogs: FileDialogs,
    /// Whether the native file dialog may be used (never in tests).
    pub dialogs_enabled: bool,
    /// The watch on the open file.
    watch: Option<FileWatch>,
    /// Asks for a repaint from any thread.
    repaint: Repaint,
    /// Help ▸ About mojiscope.
    pub about: About,
    /// Help ▸ Keyboard shortcuts.
    pub shortcuts: Shortcuts,
    /// The Learn menu's windows.
    pub teaching: Teaching,
    /// Repair ▸ Repair mojibake…: the repair and which changes are accepted.
    pub repair: RepairTask,
    /// The Repair window.
    pub repair_window: RepairView,
    /// File ▸ Save as.
    pub save: SaveAs,
    /// File ▸ Open folder…: the folder's table and its conversions.
    pub folder: FolderWindow,
    /// The menu Alt and its letter asked to open, at the next frame.
    menu_to_open: Option<char>,
    /// The window's title, as last set.
    pub title: String,
    /// Repair by hand: the reinterpretations applied, with undo and redo.
    pub edits: crate::model::repair::manual::ManualEdits,
    /// The edits' revision when the pane's text with them was last saved.
    saved_edits: Option<u64>,
    /// Leaving with changes not saved: the question and the answer.
    leave: leave::LeaveState,
    /// Edit ▸ Reinterpret selection…, while open.
    pub reinterpret: Option<crate::ui::reinterpret::ReinterpretView>,
    /// Where the focus goes when it closes (the pane).
    reinterpret_return: Option<egui::Id>,
    /// The selection the Mojibake lab's text came from.
    lab_link: Option<crate::ui::reinterpret::Span>,
    /// Where the focus goes back to when a popup or dialog closes.
    focus_return: FocusReturn,
}

impl InspectorApp {
    /// A new app with `settings`, opening `file` if given.
    pub fn new(settings: Settings, file: Option<&Path>) -> Self {
        let context: Arc<OnceLock<Context>> = Arc::new(OnceLock::new());
        let repaint_context = Arc::clone(&context);
        let repaint: Repaint = Arc::new(move || {
            if let Some(ctx) = repaint_context.get() {
                ctx.request_repaint();
            }
        });
        let folder = FolderWindow::new(Arc::clone(&repaint));
        let mut app = Self {
            settings,
            session: Session::default(),
            views: DocumentViews::default(),
            jobs: DocumentJobs::new(Arc::clone(&repaint)),
            context,
            commands: Vec::new(),
            dialogs: FileDialogs::new(Arc::clone(&repaint)),
            dialogs_enabled: false,
            watch: None,
            repaint,
            about: About::default(),
            shortcuts: Shortcuts::default(),
            teaching: Teaching::default(),
            repair: RepairTask::default(),
            repair_window: RepairView::default(),
            save: SaveAs::default(),
            folder,
            menu_to_open: None,
            title: String::new(),
            edits: crate::model::repair::manual::ManualEdits::default(),
            saved_edits: None,
            leave: leave::LeaveState::default(),
            reinterpret: None,
            reinterpret_return: None,
            lab_link: None,
            focus_return: FocusReturn::default(),
        };
        if let Some(file) = file {
            app.open(file);
        }
        app
    }

    /// The app as eframe starts it: settings restored from storage.
    pub fn from_creation_context(cc: &eframe::CreationContext<'_>, file: Option<&Path>) -> Self {
        let stored = cc
            .storage
            .and_then(|storage| storage.get_string(Settings::KEY));
        let file_present = eframe::storage_dir("mojiscope")
            .and_then(|dir| std::fs::metadata(dir.join("app.ron")).ok())
            .is_some_and(|metadata| metadata.len() > 0);
        let (settings, restored) = Settings::restore(stored.as_deref(), file_present);
        cc.egui_ctx.set_theme(if settings.dark_mode {
            egui::Theme::Dark
        } else {
            egui::Theme::Light
        });
        let mut app = Self::new(settings, file);
        app.dialogs_enabled = true;
        if let Some(notice) = restored.notice() {
            app.session.notice = Some(notice);
        }
        // Whatever the first frame does, the jobs can already ask for a repaint.
        app.context.set(cc.egui_ctx.clone()).ok();
        app
    }

    /// Queues a command, applied at the end of the next frame.
    pub fn push(&mut self, command: Command) {
        self.commands.push(command);
    }

    /// Opens `path` now (the command applied at once): a folder in the
    /// folder window, as File ▸ Open folder… and dropping it do.
    pub fn open(&mut self, path: &Path) {
        self.apply(Command::open_path(path.to_path_buf()));
    }

    /// Whether no background job is running or has events to deliver.
    pub fn is_idle(&self) -> bool {
        self.session.pending_jobs() == 0
            && self.save.is_idle()
            && self.dialogs.is_idle()
            && self.folder.is_idle()
            && !self
                .repair
                .is_waiting(self.session.document.as_ref().map(|d| d.generation))
    }

    /// What eframe runs instead of a frame while the window is not shown
    /// (minimised, covered, or on Wayland not given frames): the jobs'
    /// events are received all the same. Without it a job with a result
    /// waits for room in the full channel until the window is shown again,
    /// and a huge file's analysis stands still.
    pub fn logic_only(&mut self, ctx: &Context) {
        self.context.get_or_init(|| ctx.clone());
        self.drain(ctx);
    }

    /// One frame: the whole app inside `ui`. Tests drive this directly.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        self.context.get_or_init(|| ui.ctx().clone());
        self.logic(ui.ctx());
        self.layout(ui);
        let commands = std::mem::take(&mut self.commands);
        for command in commands {
            self.apply(command);
        }
    }
}

impl eframe::App for InspectorApp {
    fn logic(&mut self, ctx: &Context, _frame: &mut eframe::Frame) {
        self.logic_only(ctx);
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        InspectorApp::ui(self, ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.remember_current();
        eframe::set_value(storage, Settings::KEY, &self.settings);
    }
}
