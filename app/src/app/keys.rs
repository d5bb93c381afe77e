//! The keyboard: every shortcut, read once a frame before the layout, and
//! turned into commands.

use eframe::egui::{
    Context, Event, EventFilter, InputState, Key, KeyboardShortcut, ModifierNames, Modifiers, Ui,
};

use super::InspectorApp;
use crate::model::command::{Command, CopyAs, View};
use crate::model::cursor::Motion;
use crate::model::layout::zoom_step;
use crate::ui::menu;

pub(super) const OPEN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::O);
pub(super) const OPEN_FOLDER: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::O);
pub(super) const RELOAD: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::R);
pub(super) const REPAIR: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::R);
pub(super) const CLOSE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::W);
pub(super) const GO_TO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::G);
/// Save as (Ctrl+Shift+S): the modifiers of both.
pub(super) const SAVE_AS: KeyboardShortcut = KeyboardShortcut::new(
    Modifiers {
        shift: true,
        ..Modifiers::COMMAND
    },
    Key::S,
);
pub(super) const ZOOM_IN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Equals);
/// Ctrl++ (with Shift, on layouts where + is Shift+=) zooms in too.
pub(super) const ZOOM_IN_PLUS: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND, Key::Plus);
pub(super) const ZOOM_OUT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Minus);
pub(super) const ZOOM_RESET: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND, Key::Num0);
/// View ▸ Grow the inspector (Ctrl+Shift+Up) and Shrink it (Ctrl+Shift+Down).
pub(super) const INSPECTOR_TALLER: KeyboardShortcut = KeyboardShortcut::new(
    Modifiers {
        shift: true,
        ..Modifiers::COMMAND
    },
    Key::ArrowUp,
);
pub(super) const INSPECTOR_SHORTER: KeyboardShortcut = KeyboardShortcut::new(
    Modifiers {
        shift: true,
        ..Modifiers::COMMAND
    },
    Key::ArrowDown,
);
pub(super) const SAVE_AS_UTF8: KeyboardShortcut = KeyboardShortcut::new(
    Modifiers {
        shift: true,
        ..Modifiers::COMMAND
    },
    Key::U,
);
pub(super) const FIND: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::F);
pub(super) const QUIT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Q);
pub(super) const FOCUS_HEX: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::H);
pub(super) const PREVIOUS_ERROR: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::SHIFT, Key::F8);
pub(super) const NEXT_ERROR: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F8);
pub(super) const FIND_NEXT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F3);
pub(super) const FIND_PREVIOUS: KeyboardShortcut = KeyboardShortcut::new(Modifiers::SHIFT, Key::F3);
pub(super) const UNDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
/// Ctrl+Y redoes too.
pub(super) const REDO: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
pub(super) const REINTERPRET: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::E);
pub(super) const SHORTCUTS: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F1);

/// A shortcut as the menus and the shortcuts window write it: the menus
/// take it from the binding, so the two cannot differ.
pub(super) fn shortcut_text(shortcut: KeyboardShortcut) -> String {
    shortcut
        .format(&ModifierNames::NAMES, false)
        .replace("Up", "↑")
        .replace("Down", "↓")
        .replace("Equals", "=")
        .replace("Plus", "+")
        .replace("Minus", "-")
}

/// A menu entry that says its shortcut ([`menu::item`]).
pub(super) fn menu_item(
    ui: &mut Ui,
    label: &str,
    shortcut: KeyboardShortcut,
    enabled: bool,
) -> bool {
    menu::item(ui, label, Some(&shortcut_text(shortcut)), enabled)
}

/// Consumes the key of `shortcut` with exactly its modifiers.
pub(super) fn consume(input: &mut InputState, shortcut: KeyboardShortcut) -> bool {
    input.consume_key(shortcut.modifiers, shortcut.logical_key)
}

impl InspectorApp {
    /// Alt and a digit (a recent file), Alt and a menu's letter, F10.
    fn menu_shortcuts(&mut self, input: &mut InputState) {
        // Alt and a digit: a recent file.
        for (index, key) in [
            Key::Num1,
            Key::Num2,
            Key::Num3,
            Key::Num4,
            Key::Num5,
            Key::Num6,
            Key::Num7,
            Key::Num8,
            Key::Num9,
        ]
        .into_iter()
        .enumerate()
        {
            if input.consume_key(Modifiers::ALT, key)
                && let Some(recent) = self.settings.recent.get(index)
            {
                self.commands.push(Command::Open(recent.path.clone()));
            }
        }
        // Alt and a menu's letter opens it; F10 the first.
        for (_, letter) in super::menus::MENUS {
            if let Some(key) = crate::ui::menu::key_of(letter)
                && input.consume_key(Modifiers::ALT, key)
            {
                self.menu_to_open = Some(letter);
            }
        }
        if input.consume_key(Modifiers::NONE, Key::F10) {
            self.menu_to_open = Some('f');
        }
    }

    /// The view that has the keyboard focus, if it is the hex view or a
    /// pane's text: the arrow keys then move the selection in it, not the
    /// focus.
    fn keyboard_view(&self, ctx: &Context) -> Option<View> {
        let id = ctx.memory(eframe::egui::Memory::focused)?;
        let view = if self.views.hex.id() == Some(id) {
            View::Hex
        } else if self.views.readings.rows_id() == Some(id) {
            View::Pane(self.session.focused_pane)
        } else {
            (0..self.session.panes.len())
                .find(|&pane| self.views.readings.pane_id(pane) == Some(id))
                .map(View::Pane)?
        };
        ctx.memory_mut(|memory| {
            memory.set_focus_lock_filter(
                id,
                EventFilter {
                    horizontal_arrows: true,
                    vertical_arrows: true,
                    tab: false,
                    escape: false,
                },
            );
        });
        Some(view)
    }

    /// The arrows, Home and End (with Shift to extend, Ctrl for the whole
    /// file) in the view with the focus; Ctrl+C anywhere but a text field.
    fn cursor_keys(&mut self, input: &mut InputState, view: Option<View>) {
        let copy_event = input.events.iter().any(|e| matches!(e, Event::Copy));
        if copy_event || input.consume_key(Modifiers::COMMAND, Key::C) {
            input.events.retain(|e| !matches!(e, Event::Copy));
            let copy_as = match view {
                Some(View::Hex) => CopyAs::Hex,
                Some(View::Pane(pane)) => CopyAs::Text(pane),
                None => CopyAs::Text(self.session.focused_pane),
            };
            self.commands.push(Command::Copy(copy_as));
        }
        let Some(view) = view else {
            return;
        };
        let keys = [
            (Key::ArrowLeft, Modifiers::NONE, Motion::Back),
            (Key::ArrowRight, Modifiers::NONE, Motion::Forward),
            (Key::ArrowUp, Modifiers::NONE, Motion::Up),
            (Key::ArrowDown, Modifiers::NONE, Motion::Down),
            (Key::Home, Modifiers::COMMAND, Motion::FileStart),
            (Key::End, Modifiers::COMMAND, Motion::FileEnd),
            (Key::Home, Modifiers::NONE, Motion::RowStart),
            (Key::End, Modifiers::NONE, Motion::RowEnd),
        ];
        for (key, modifiers, motion) in keys {
            for extend in [true, false] {
                let modifiers = if extend {
                    modifiers | Modifiers::SHIFT
                } else {
                    modifiers
                };
                if input.consume_key(modifiers, key) {
                    self.commands.push(Command::MoveCursor {
                        view,
                        motion,
                        extend,
                    });
                }
            }
        }
    }

    /// Turns this frame's shortcuts into commands.
    pub(super) fn shortcuts(&mut self, ctx: &Context) {
        // The zoom is the settings' (View ▸ Zoom): egui's own keys are off.
        ctx.options_mut(|options| options.zoom_with_keyboard = false);
        let zoom = self.settings.zoom();
        if (ctx.zoom_factor() - zoom).abs() > f32::EPSILON {
            ctx.set_zoom_factor(zoom);
        }
        let typing = ctx.text_edit_focused();
        let view = self.keyboard_view(ctx);
        ctx.input_mut(|input| {
            // Shift+= is + on many layouts: matched with Shift ignored.
            if input.consume_shortcut(&ZOOM_IN)
                || input.consume_shortcut(&ZOOM_IN_PLUS)
                || input.consume_key(Modifiers::COMMAND | Modifiers::SHIFT, Key::Equals)
                || input.consume_key(Modifiers::COMMAND | Modifiers::SHIFT, Key::Plus)
            {
                self.commands.push(Command::Zoom(zoom_step(zoom, true)));
            }
            if input.consume_shortcut(&ZOOM_OUT) {
                self.commands.push(Command::Zoom(zoom_step(zoom, false)));
            }
            if input.consume_shortcut(&ZOOM_RESET) {
                self.commands.push(Command::Zoom(1.0));
            }
            if input.consume_shortcut(&INSPECTOR_TALLER) {
                self.commands.push(Command::ResizeInspector(true));
            }
            if input.consume_shortcut(&INSPECTOR_SHORTER) {
                self.commands.push(Command::ResizeInspector(false));
            }
            // Ctrl+Shift+O first: Ctrl+O's shortcut would also match it.
            if input.consume_shortcut(&OPEN_FOLDER) {
                self.commands.push(Command::OpenFolderDialog);
            }
            if input.consume_shortcut(&OPEN) {
                self.commands.push(Command::OpenDialog);
            }
            // Ctrl+Shift+R first: Ctrl+R's shortcut would also match it.
            if input.consume_shortcut(&REPAIR) {
                self.commands.push(Command::Repair);
            }
            if input.consume_shortcut(&RELOAD) {
                self.commands.push(Command::Reload);
            }
            if input.consume_shortcut(&CLOSE) {
                self.commands.push(Command::Close);
            }
            if input.consume_shortcut(&GO_TO) {
                self.commands.push(Command::ShowGoTo);
            }
            if input.consume_shortcut(&SAVE_AS) {
                self.commands.push(Command::SaveAs);
            }
            if input.consume_shortcut(&SAVE_AS_UTF8) {
                self.commands.push(Command::SaveAsUtf8);
            }
            if input.consume_shortcut(&QUIT) {
                self.commands.push(Command::Quit);
            }
            // F1 again closes the list.
            if input.consume_shortcut(&SHORTCUTS) {
                let show = !self.shortcuts.is_open();
                self.commands.push(Command::ShowShortcuts(show));
            }
            if input.consume_shortcut(&FOCUS_HEX) {
                self.commands.push(Command::FocusHex);
            }
            for (pane, key) in [Key::Num1, Key::Num2, Key::Num3, Key::Num4]
                .into_iter()
                .enumerate()
            {
                if input.consume_key(Modifiers::COMMAND, key) {
                    self.commands.push(Command::FocusPaneByKeyboard(pane));
                }
            }
            self.menu_shortcuts(input);
            if input.consume_shortcut(&FIND) {
                self.commands.push(Command::ShowFind {
                    hex: view == Some(View::Hex),
                });
            }
            // Shift+F3 first: F3's shortcut would also match with Shift held.
            if consume(input, FIND_PREVIOUS) {
                self.commands.push(Command::FindNext(false));
            }
            if consume(input, FIND_NEXT) {
                self.commands.push(Command::FindNext(true));
            }
            if typing {
                return;
            }
            self.hand_repair_shortcuts(input);
            self.cursor_keys(input, view);
            // Shift+F8 first: F8's shortcut would also match with Shift held.
            if input.consume_shortcut(&PREVIOUS_ERROR) {
                self.commands.push(Command::PreviousError);
            }
            if input.consume_shortcut(&NEXT_ERROR) {
                self.commands.push(Command::NextError);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::shortcuts::GROUPS;

    #[test]
    fn every_shortcut_bound_is_in_the_shortcuts_window() {
        let listed: Vec<&str> = GROUPS
            .iter()
            .flat_map(|(_, rows)| rows.iter())
            .flat_map(|(keys, _)| keys.split(", "))
            .collect();
        for shortcut in [
            OPEN,
            OPEN_FOLDER,
            RELOAD,
            REPAIR,
            CLOSE,
            GO_TO,
            SAVE_AS,
            ZOOM_IN,
            ZOOM_IN_PLUS,
            ZOOM_OUT,
            ZOOM_RESET,
            INSPECTOR_TALLER,
            INSPECTOR_SHORTER,
            SAVE_AS_UTF8,
            FIND,
            QUIT,
            FOCUS_HEX,
            PREVIOUS_ERROR,
            NEXT_ERROR,
            FIND_NEXT,
            FIND_PREVIOUS,
            UNDO,
            REDO,
            REINTERPRET,
            SHORTCUTS,
        ] {
            let written = shortcut_text(shortcut);
            assert!(
                listed.contains(&written.as_str()),
                "{written} is not listed in {listed:?}"
            );
        }
    }
}
