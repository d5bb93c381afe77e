//! A dropdown for long lists (the 40 encodings): it opens from the keyboard
//! (Space, Enter, Alt+Down, or by typing), at the current choice, and
//! filters as you type, by name and by any other word a choice carries
//! (an encoding's labels: "latin1" finds windows-1252). Up and Down move,
//! Enter picks, Escape closes without a change; the focus goes back to the
//! button either way. Its accessible name says what it is and what it
//! shows ("Pane 2 encoding: UTF-8, 16 errors"): the AT-SPI bridge does not
//! publish a combo box's value.

use eframe::egui::{
    self, Button, Event, Frame, Id, Key, Modifiers, Order, Response, RichText, Role, ScrollArea,
    TextEdit, Ui, WidgetInfo, vec2,
};

/// One entry of the list.
pub enum Entry<T> {
    /// A heading over the choices that follow.
    Heading(String),
    /// A choice.
    Choice {
        /// What picking it sets.
        value: T,
        /// What the list shows.
        text: String,
        /// More words the filter finds it by.
        keywords: String,
    },
}

/// The dropdown's state while it is open, kept in egui's memory.
#[derive(Clone, Default)]
struct State {
    open: bool,
    filter: String,
    /// The entry Enter picks.
    highlighted: Option<usize>,
    /// Whether the list still has to scroll to the highlighted entry.
    scroll: bool,
    /// The first frame open: the filter takes the focus.
    opening: bool,
}

/// A dropdown button and its list.
pub struct Chooser<'a, T> {
    id: Id,
    name: String,
    shown: String,
    entries: &'a [Entry<T>],
    width: f32,
    enabled: bool,
}

impl<'a, T: PartialEq + Copy> Chooser<'a, T> {
    /// A chooser whose accessible name is `name`, its button showing
    /// `shown`, over `entries`.
    pub fn new(id: Id, name: String, shown: String, entries: &'a [Entry<T>]) -> Self {
        Self {
            id,
            name,
            shown,
            entries,
            width: 200.0,
            enabled: true,
        }
    }

    /// The button's width.
    #[must_use]
    pub fn width(mut self, width: f32) -> Self {
        self.width = width;
        self
    }

    /// Whether it can be opened.
    #[must_use]
    pub fn enabled(mut self, enabled: bool) -> Self {
        self.enabled = enabled;
        self
    }

    /// Shows the button, and the list if it is open; `selected` is what it
    /// shows, and what the user picks. The response is marked changed when
    /// a pick changed it.
    pub fn ui(self, ui: &mut Ui, selected: &mut T) -> Response {
        let Self {
            id,
            name,
            shown,
            entries,
            width,
            enabled,
        } = self;
        let mut state: State = ui.data(|d| d.get_temp(id)).unwrap_or_default();
        let mut button = ui.add_enabled(
            enabled,
            Button::new(format!("{shown}  ▾"))
                .truncate()
                .min_size(vec2(width, 0.0)),
        );
        let expanded = state.open;
        button.widget_info(|| WidgetInfo::labeled(Role::ComboBox, enabled, &name));
        ui.ctx().accesskit_node_builder(button.id, |node| {
            node.set_expanded(expanded);
            node.set_value(shown.clone());
        });
        if button.hovered() && !state.open {
            button = button.on_hover_text(&name);
        }
        let current = entries.iter().position(|entry| match entry {
            Entry::Choice { value, .. } => value == selected,
            Entry::Heading(_) => false,
        });
        if enabled && !state.open {
            let typed = if button.has_focus() {
                ui.input(|input| {
                    input.events.iter().find_map(|event| match event {
                        Event::Text(text) if !text.trim().is_empty() => Some(text.clone()),
                        _ => None,
                    })
                })
            } else {
                None
            };
            let alt_down = button.has_focus()
                && ui.input_mut(|i| i.consume_key(Modifiers::ALT, Key::ArrowDown));
            if button.clicked() || alt_down || typed.is_some() {
                state = State {
                    open: true,
                    filter: typed.unwrap_or_default(),
                    highlighted: current,
                    scroll: true,
                    opening: true,
                };
            }
        } else if state.open && button.clicked() {
            state.open = false;
        }
        if state.open {
            let picked = list_ui(ui, id, &name, entries, &mut state, width, button.rect);
            if let Some(index) = picked
                && let Some(Entry::Choice { value, .. }) = entries.get(index)
            {
                if value != selected {
                    *selected = *value;
                    button.mark_changed();
                }
                state.open = false;
            }
            if !state.open {
                // Back to the button, as the list closes.
                ui.memory_mut(|m| m.request_focus(button.id));
            }
        }
        ui.data_mut(|d| d.insert_temp(id, state));
        button
    }
}

/// Whether a choice's text or keywords hold every word of `filter`
/// (ASCII case ignored).
pub fn matches(filter: &str, text: &str, keywords: &str) -> bool {
    let haystack = format!("{text} {keywords}").to_lowercase();
    filter
        .to_lowercase()
        .split_whitespace()
        .all(|word| haystack.contains(word))
}

/// What a key did to the open list.
enum ListKey {
    /// Escape or Tab: close without a pick.
    Close,
    /// Enter: pick the highlighted entry.
    Pick,
    /// Nothing, or moved the highlight.
    Other,
}

/// The keys that move in the list (taken before the filter sees them).
fn list_keys(ui: &Ui, state: &mut State, shown: &[usize]) -> ListKey {
    let (down, up, page_down, page_up, enter, escape, tab) = ui.input_mut(|i| {
        (
            i.consume_key(Modifiers::NONE, Key::ArrowDown),
            i.consume_key(Modifiers::NONE, Key::ArrowUp),
            i.consume_key(Modifiers::NONE, Key::PageDown),
            i.consume_key(Modifiers::NONE, Key::PageUp),
            i.consume_key(Modifiers::NONE, Key::Enter),
            i.consume_key(Modifiers::NONE, Key::Escape),
            i.key_pressed(Key::Tab),
        )
    });
    let position = state
        .highlighted
        .and_then(|h| shown.iter().position(|&i| i == h));
    let last = shown.len().saturating_sub(1);
    let moved = match (position, down, up, page_down, page_up) {
        (_, false, false, false, false) => None,
        (None, ..) => Some(0),
        (Some(p), true, ..) => Some((p + 1).min(last)),
        (Some(p), _, true, ..) => Some(p.saturating_sub(1)),
        (Some(p), _, _, true, _) => Some((p + 10).min(last)),
        (Some(p), ..) => Some(p.saturating_sub(10)),
    };
    if let Some(to) = moved {
        state.highlighted = shown.get(to).copied();
        state.scroll = true;
    }
    if position.is_none() && !shown.is_empty() && !state.filter.is_empty() {
        // The filter hid the highlighted choice: the first one left.
        state.highlighted = shown.first().copied();
    }
    if escape || tab {
        ListKey::Close
    } else if enter {
        ListKey::Pick
    } else {
        ListKey::Other
    }
}

/// The open list; returns the entry picked, if one was. Closes `state`
/// when the list should close without a pick.
fn list_ui<T>(
    ui: &Ui,
    id: Id,
    name: &str,
    entries: &[Entry<T>],
    state: &mut State,
    width: f32,
    anchor: egui::Rect,
) -> Option<usize> {
    let shown: Vec<usize> = entries
        .iter()
        .enumerate()
        .filter_map(|(index, entry)| match entry {
            Entry::Choice { text, keywords, .. } if matches(&state.filter, text, keywords) => {
                Some(index)
            }
            _ => None,
        })
        .collect();
    // The key that opened the list (Enter, Space) is not also a pick.
    let key = if state.opening {
        ListKey::Other
    } else {
        list_keys(ui, state, &shown)
    };
    match key {
        ListKey::Close => {
            state.open = false;
            return None;
        }
        ListKey::Pick => return state.highlighted.filter(|h| shown.contains(h)),
        ListKey::Other => {}
    }
    let mut picked = None;
    let screen = ui.ctx().content_rect();
    let max_height = (screen.bottom() - anchor.bottom() - 60.0).clamp(160.0, 420.0);
    let area = egui::Area::new(id.with("list"))
        .order(Order::Tooltip)
        .fixed_pos(anchor.left_bottom())
        .constrain(true)
        .show(ui.ctx(), |ui| {
            Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_width(width.max(260.0));
                let filter = ui.add(
                    TextEdit::singleline(&mut state.filter)
                        .hint_text("Type to filter")
                        .desired_width(f32::INFINITY),
                );
                filter.widget_info(|| {
                    WidgetInfo::labeled(Role::SearchInput, true, format!("Filter: {name}"))
                });
                if state.opening {
                    filter.request_focus();
                    // Whatever was typed to open the list is in the filter:
                    // the cursor goes after it.
                    state.opening = false;
                }
                if shown.is_empty() {
                    ui.label(RichText::new("Nothing matches").weak());
                }
                ScrollArea::vertical()
                    .id_salt(id.with("scroll"))
                    .max_height(max_height)
                    .show(ui, |ui| {
                        let mut heading = None;
                        for (index, entry) in entries.iter().enumerate() {
                            match entry {
                                Entry::Heading(text) => heading = Some(text.as_str()),
                                Entry::Choice { text, .. } if shown.contains(&index) => {
                                    if let Some(text) = heading.take() {
                                        ui.label(RichText::new(text).strong());
                                    }
                                    let highlighted = state.highlighted == Some(index);
                                    let item =
                                        ui.add(Button::selectable(highlighted, text.as_str()));
                                    if highlighted && state.scroll {
                                        item.scroll_to_me(Some(egui::Align::Center));
                                    }
                                    if item.clicked() {
                                        picked = Some(index);
                                    }
                                }
                                Entry::Choice { .. } => {}
                            }
                        }
                    });
                state.scroll = false;
            });
        });
    let clicked_outside = ui.input(|i| i.pointer.any_pressed())
        && ui
            .input(|i| i.pointer.interact_pos())
            .is_some_and(|pos| !area.response.rect.contains(pos) && !anchor.contains(pos));
    if clicked_outside && picked.is_none() {
        state.open = false;
    }
    picked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_finds_names_and_labels_by_every_word() {
        assert!(matches("", "UTF-8", ""));
        assert!(matches("utf", "UTF-8  (no errors)", "unicode-1-1-utf-8"));
        assert!(matches("latin1", "windows-1252", "ascii latin1 iso-8859-1"));
        assert!(matches("shift jis", "Shift_JIS", "sjis ms_kanji"));
        assert!(!matches("koi", "windows-1252", "latin1"));
    }
}
