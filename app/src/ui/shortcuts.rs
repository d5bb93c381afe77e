//! Help ▸ Keyboard shortcuts (F1): every key the app answers, grouped by
//! what it is for, in a window that stays open beside the work.

use eframe::egui::{self, Grid, Id, Label, RichText, ScrollArea, Window};

/// The keys, in groups: each row the keys as the menus write them, and
/// what they do. `app/keys.rs` checks that every shortcut it binds is here.
pub const GROUPS: &[(&str, &[(&str, &str)])] = &[
    (
        "Files",
        &[
            ("Ctrl+O", "Open a file"),
            ("Ctrl+Shift+O", "Open a folder: every file of it in a table"),
            ("Alt+1 … Alt+9", "Open a recent file (File ▸ Open Recent)"),
            ("Ctrl+R", "Reload the file"),
            ("Ctrl+W", "Close the file"),
            ("Ctrl+Shift+S", "Save the focused pane's text as…"),
            ("Ctrl+Shift+U", "Save it as UTF-8…"),
            ("Ctrl+Q", "Quit"),
        ],
    ),
    (
        "Moving around",
        &[
            ("Ctrl+H", "Focus the hex view"),
            ("Ctrl+1 … Ctrl+4", "Focus a pane"),
            ("Tab, Shift+Tab", "The next or previous control"),
            ("Arrows", "Move by a byte (hex view) or a character (pane)"),
            ("Shift+arrows", "Extend the selection"),
            ("Home, End", "The row's start or end; with Ctrl, the file's"),
            ("F8, Shift+F8", "The focused pane's next or previous error"),
            ("Ctrl+G", "Go to a byte offset"),
            (
                "Ctrl+F",
                "Find text in the focused pane, or bytes in the hex view",
            ),
            ("F3, Shift+F3", "The next or previous match"),
        ],
    ),
    (
        "The selection and repairs",
        &[
            (
                "Ctrl+C",
                "Copy the selection: a pane's text, or the hex view's bytes",
            ),
            (
                "Ctrl+E",
                "Reinterpret the selection: which reading is right",
            ),
            ("Ctrl+Shift+R", "Repair mojibake in the focused pane"),
            ("Ctrl+Z", "Undo a change applied to a pane"),
            ("Ctrl+Shift+Z, Ctrl+Y", "Redo it"),
        ],
    ),
    (
        "View",
        &[
            ("Ctrl+=, Ctrl++", "Zoom in"),
            ("Ctrl+-", "Zoom out"),
            ("Ctrl+0", "Actual size"),
            ("Ctrl+Shift+↑", "Grow the inspector"),
            ("Ctrl+Shift+↓", "Shrink the inspector"),
        ],
    ),
    (
        "Menus and windows",
        &[
            ("F10", "The menu bar"),
            ("Alt+letter", "The menu whose underlined letter it is"),
            ("Escape", "Close a menu or a dialog"),
            ("F1", "This list; F1 again closes it"),
        ],
    ),
];

/// The window: closed until [`Shortcuts::set_open`].
#[derive(Debug, Default)]
pub struct Shortcuts {
    is_open: bool,
}

impl Shortcuts {
    /// Opens (`open`) or closes the window (next frame).
    pub fn set_open(&mut self, open: bool) {
        self.is_open = open;
    }

    /// Whether the window is open.
    pub fn is_open(&self) -> bool {
        self.is_open
    }

    /// Shows the window, if it is open.
    pub fn ui(&mut self, ctx: &egui::Context) {
        if !self.is_open {
            return;
        }
        let (pos, size) = super::fit_in_screen(
            ctx.content_rect(),
            egui::pos2(120.0, 64.0),
            egui::vec2(620.0, 640.0),
        );
        let mut open = true;
        Window::new("Keyboard shortcuts")
            .id(Id::unique("keyboard shortcuts"))
            .open(&mut open)
            .default_pos(pos)
            .default_size(size)
            .vscroll(false)
            .show(ctx, |ui| {
                ScrollArea::vertical()
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        // One grid, so that the keys line up from group to group.
                        Grid::new("keyboard shortcuts grid")
                            .num_columns(2)
                            .spacing([16.0, 4.0])
                            .show(ui, |ui| {
                                for (group, rows) in GROUPS {
                                    ui.label(RichText::new(*group).strong());
                                    ui.end_row();
                                    for (keys, what) in *rows {
                                        ui.label(RichText::new(*keys).monospace());
                                        ui.add(Label::new(*what).wrap());
                                        ui.end_row();
                                    }
                                }
                            });
                    });
            });
        self.is_open = open;
    }
}
