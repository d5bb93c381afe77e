//! Menu entries with access keys: each entry's label marks one letter with
//! `&` ("Re&load"); the letter is drawn underlined, and typing it while
//! the menu is open chooses the entry. With Alt+letter opening a menu of
//! the menu bar, every entry can be reached in a few keys even where it
//! has no shortcut of its own.

use eframe::egui::{
    self, Button, Checkbox, Key, RadioButton, Response, TextFormat, TextStyle, Ui, text::LayoutJob,
};

/// A menu label's parts: the text without the `&`, and its access key.
pub fn access_key(label: &str) -> (String, Option<char>) {
    let mut text = String::with_capacity(label.len());
    let mut key = None;
    let mut chars = label.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '&'
            && let Some(&next) = chars.peek()
        {
            if key.is_none() && next != '&' {
                key = Some(next.to_ascii_lowercase());
            }
            text.push(next);
            chars.next();
            continue;
        }
        text.push(c);
    }
    (text, key)
}

/// The label laid out with its access key underlined.
pub fn label_job(ui: &Ui, label: &str) -> LayoutJob {
    let (text, key) = access_key(label);
    let font = TextStyle::Button.resolve(ui.style());
    let colour = ui.visuals().text_color();
    let plain = TextFormat::simple(font, colour);
    let mut job = LayoutJob::default();
    let at = key.and_then(|key| {
        text.char_indices()
            .find(|(_, c)| c.to_ascii_lowercase() == key)
    });
    match at {
        Some((index, c)) => {
            job.append(&text[..index], 0.0, plain.clone());
            job.append(
                &text[index..index + c.len_utf8()],
                0.0,
                TextFormat {
                    underline: egui::Stroke::new(1.0, colour),
                    ..plain.clone()
                },
            );
            job.append(&text[index + c.len_utf8()..], 0.0, plain);
        }
        None => job.append(&text, 0.0, plain),
    }
    job
}

/// The key of a letter or digit.
pub fn key_of(c: char) -> Option<Key> {
    let mut name = [0; 4];
    Key::from_name(c.to_ascii_uppercase().encode_utf8(&mut name))
}

/// Whether `key` was typed alone (no Ctrl, Alt or Command) this frame; it
/// is consumed if so.
fn typed(ui: &Ui, key: char) -> bool {
    let Some(key) = key_of(key) else {
        return false;
    };
    ui.input_mut(|input| {
        let plain = !input.modifiers.command && !input.modifiers.alt && !input.modifiers.ctrl;
        plain && input.consume_key(input.modifiers, key)
    })
}

/// An entry: chosen by a click, or by its access key while its menu is
/// open (which then closes).
pub fn item(ui: &mut Ui, label: &str, shortcut: Option<&str>, enabled: bool) -> bool {
    let (_, key) = access_key(label);
    let mut button = Button::new(label_job(ui, label));
    if let Some(shortcut) = shortcut {
        button = button.shortcut_text(shortcut);
    }
    let response = ui.add_enabled(enabled, button);
    chosen(ui, &response, key, enabled)
}

/// A radio entry.
pub fn radio(ui: &mut Ui, selected: bool, label: &str) -> bool {
    let (_, key) = access_key(label);
    let response = ui.add(RadioButton::new(selected, label_job(ui, label)));
    chosen(ui, &response, key, true)
}

/// A checkbox entry; returns whether it was toggled.
pub fn checkbox(ui: &mut Ui, value: &mut bool, label: &str) -> bool {
    let (_, key) = access_key(label);
    let response = ui.add(Checkbox::new(value, label_job(ui, label)));
    if response.changed() {
        return true;
    }
    if key.is_some_and(|key| typed(ui, key)) {
        *value = !*value;
        ui.close();
        return true;
    }
    false
}

fn chosen(ui: &Ui, response: &Response, key: Option<char>, enabled: bool) -> bool {
    if response.clicked() {
        return true;
    }
    if enabled && key.is_some_and(|key| typed(ui, key)) {
        ui.close();
        return true;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_access_key_is_the_letter_after_the_ampersand() {
        assert_eq!(access_key("Re&load"), ("Reload".to_owned(), Some('l')));
        assert_eq!(access_key("&Open…"), ("Open…".to_owned(), Some('o')));
        assert_eq!(access_key("Save && quit"), ("Save & quit".to_owned(), None));
        assert_eq!(access_key("Plain"), ("Plain".to_owned(), None));
        assert_eq!(key_of('s'), Some(Key::S));
        assert_eq!(key_of('8'), Some(Key::Num8));
    }
}
