//! Edit ▸ Reinterpret selection…: the selected span of a pane, the
//! readings the repair engine ranks best for it, or a chain the user
//! states ("encoded as X, decoded as Y", one step or more), the chosen
//! reading previewed beside the span with its lost characters marked, and
//! Apply (Enter) or Cancel (Escape).

use eframe::egui::{
    self, Button, ComboBox, FontId, Grid, Key, Label, RichText, ScrollArea, TextFormat, Ui, Window,
    text::LayoutJob,
};
use mojiscope_core::{ByteSpan, UTF_8, WINDOWS_1252};

use crate::model::repair::manual::{
    EditTarget, LossKind, Misreading, ProposedReading, Reinterpreted, WrongReading, proposals,
    reinterpret,
};
use crate::model::wording::plural;
use crate::theme::Palette;
use crate::ui::teaching::encoding_menu_ui;

/// The most readings proposed.
const MAX_PROPOSALS: usize = 6;

/// The window's title, and its name for screen readers.
pub const TITLE: &str = "Reinterpret selection";

/// What the window is about: a span of a pane's text.
#[derive(Clone, Debug)]
pub struct Span {
    /// The decode it is of.
    pub target: EditTarget,
    /// Its bytes.
    pub bytes: ByteSpan,
    /// Its text, as the pane reads it.
    pub text: String,
}

/// What the user decided.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// Apply this reading, made this way ("UTF-8 read as windows-1252").
    Apply(Reinterpreted, String),
    /// Close without a change.
    Cancel,
}

/// The window's state while it is open.
pub struct ReinterpretView {
    span: Span,
    proposals: Vec<ProposedReading>,
    /// The proposal chosen, or the chain by hand (`proposals.len()`).
    choice: usize,
    /// The chain by hand, in the order the misreadings happened.
    by_hand: Vec<Misreading>,
    by_hand_result: Reinterpreted,
    /// Whether the first control has been given the focus.
    focused: bool,
    /// The chain by hand's lists of encodings, as last drawn: Enter on one
    /// (closed) applies, as it does elsewhere in the window; Space opens it.
    lists: Vec<egui::Id>,
}

impl ReinterpretView {
    /// The window on `span`, with the engine's readings of it ranked; the
    /// best one chosen, and the chain by hand set to it.
    pub fn new(span: Span) -> Self {
        let proposals = proposals(&span.text, MAX_PROPOSALS);
        // The best reading that changes something, if the engine ranks one
        // above the span as it is; else the span as it is.
        let best = match proposals.first() {
            Some(first) if first.misreadings.is_empty() => 0,
            _ => proposals
                .iter()
                .position(|p| !p.misreadings.is_empty())
                .unwrap_or(proposals.len()),
        };
        let hand_from = proposals
            .iter()
            .position(|p| !p.misreadings.is_empty())
            .unwrap_or(proposals.len());
        let by_hand = proposals
            .get(hand_from)
            .map(|p| p.misreadings.clone())
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| {
                vec![Misreading {
                    encoded_as: UTF_8,
                    decoded_as: WrongReading::Encoding(WINDOWS_1252),
                }]
            });
        let by_hand_result = reinterpret(&span.text, &by_hand);
        Self {
            choice: best,
            span,
            proposals,
            by_hand,
            by_hand_result,
            focused: false,
            lists: Vec::new(),
        }
    }

    /// The span.
    pub fn span(&self) -> &Span {
        &self.span
    }

    /// The readings proposed, best first.
    pub fn proposals(&self) -> &[ProposedReading] {
        &self.proposals
    }

    /// The reading chosen, and how it was made.
    pub fn chosen(&self) -> (&Reinterpreted, String) {
        match self.proposals.get(self.choice) {
            Some(proposal) => (&proposal.reading, proposal.name.clone()),
            None => (
                &self.by_hand_result,
                self.by_hand
                    .iter()
                    .rev()
                    .map(|m| m.describe())
                    .collect::<Vec<_>>()
                    .join(", then "),
            ),
        }
    }

    /// Chooses proposal `index` (past the last: the chain by hand).
    pub fn choose(&mut self, index: usize) {
        self.choice = index.min(self.proposals.len());
    }

    /// Sets the chain by hand and chooses it.
    pub fn set_by_hand(&mut self, misreadings: Vec<Misreading>) {
        self.by_hand = misreadings;
        self.by_hand_result = reinterpret(&self.span.text, &self.by_hand);
        self.choice = self.proposals.len();
    }

    /// Shows the window; what the user decided, if they did.
    pub fn ui(&mut self, ctx: &egui::Context, palette: &Palette) -> Option<Decision> {
        let mut open = true;
        let mut decision = None;
        let (pos, size) =
            super::below_verdict_line(ctx.content_rect(), 260.0, egui::vec2(760.0, 560.0));
        let shown = Window::new(TITLE)
            .id(egui::Id::unique("reinterpret window"))
            .open(&mut open)
            .default_pos(pos)
            .default_size(size)
            .collapsible(false)
            .vscroll(false)
            .show(ctx, |ui| {
                decision = self.contents_ui(ui, palette);
            });
        if let Some(shown) = shown {
            let id = shown.response.id;
            ctx.accesskit_node_builder(id, |node| node.set_label(TITLE));
        }
        if !open {
            return Some(Decision::Cancel);
        }
        decision
    }

    fn contents_ui(&mut self, ui: &mut Ui, palette: &Palette) -> Option<Decision> {
        let mut decision = None;
        // Enter on a closed list applies, before the list takes it for a
        // click that would open it again.
        let popup_was_open = egui::Popup::is_any_open(ui.ctx());
        let on_list = ui
            .memory(egui::Memory::focused)
            .is_some_and(|id| self.lists.contains(&id));
        let mut enter = !popup_was_open
            && on_list
            && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, Key::Enter));
        let span = &self.span;
        ui.label(format!(
            "{} of pane {} ({}), bytes {:#X}..{:#X}. Which reading is right?",
            plural(span.text.chars().count(), "character", "characters"),
            span.target.pane + 1,
            span.target.encoding.name(),
            span.bytes.start,
            span.bytes.end
        ));
        ui.add_space(4.0);
        ui.strong("Readings, best first");
        let mut first = None;
        let mut choice = self.choice;
        ScrollArea::vertical()
            .id_salt("reinterpret readings")
            .max_height(180.0)
            .show(ui, |ui| {
                for (index, proposal) in self.proposals.iter().enumerate() {
                    let label = format!("{}: {}", proposal.name, short(&proposal.reading.text));
                    let response = ui.radio_value(&mut choice, index, label);
                    first.get_or_insert(response.id);
                }
                if self.proposals.is_empty() {
                    ui.label(
                        RichText::new(
                            "The selection is too long to search: say how it was damaged.",
                        )
                        .color(palette.weak_fg),
                    );
                }
            });
        let by_hand = self.proposals.len();
        let response = ui.radio_value(&mut choice, by_hand, "By hand: it was damaged like this");
        first.get_or_insert(response.id);
        if choice != self.choice {
            self.choice = choice;
        }
        if self.by_hand_ui(ui) {
            self.by_hand_result = reinterpret(&self.span.text, &self.by_hand);
            self.choice = by_hand;
        }
        ui.add_space(6.0);
        let (chosen, how) = self.chosen();
        let chosen = chosen.clone();
        preview_ui(ui, palette, &self.span.text, &chosen, &how);
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            let apply = ui.add(Button::new("Apply")).on_hover_text(
                "Put this reading in place of the selection in the pane's text (Enter)",
            );
            if apply.clicked() {
                decision = Some(Decision::Apply(chosen.clone(), how.clone()));
            }
            if ui.button("Cancel").on_hover_text("Escape").clicked() {
                decision = Some(Decision::Cancel);
            }
        });
        ui.label(
            RichText::new(
                "The file is not changed: File ▸ Save as… writes the text with what you apply. \
                 Edit ▸ Undo (Ctrl+Z) takes it back.",
            )
            .small()
            .color(palette.weak_fg),
        );
        if !self.focused {
            self.focused = true;
            if let Some(id) = first {
                ui.memory_mut(|memory| memory.request_focus(id));
            }
        }
        // Enter applies and Escape cancels, unless a list of encodings is
        // open or was at the start of the frame (where they pick and close
        // it).
        let popup_open = popup_was_open || egui::Popup::is_any_open(ui.ctx());
        if !popup_open && decision.is_none() {
            enter |= ui.input_mut(|input| input.consume_key(egui::Modifiers::NONE, Key::Enter));
            if enter {
                decision = Some(Decision::Apply(chosen, how));
            } else if ui.input_mut(|input| input.consume_key(egui::Modifiers::NONE, Key::Escape)) {
                decision = Some(Decision::Cancel);
            }
        }
        decision
    }

    /// The chain by hand: a row per misreading, in the order they happened.
    /// Whether it changed.
    fn by_hand_ui(&mut self, ui: &mut Ui) -> bool {
        let mut changed = false;
        let lists = &mut self.lists;
        lists.clear();
        Grid::new("reinterpret by hand")
            .num_columns(5)
            .spacing([6.0, 4.0])
            .show(ui, |ui| {
                for (index, misreading) in self.by_hand.iter_mut().enumerate() {
                    ui.label(if index == 0 { "The text was" } else { "then" });
                    let encoded = ui.label("encoded as");
                    let before = *misreading;
                    let list = ComboBox::from_id_salt(("encoded as", index))
                        .selected_text(misreading.encoded_as.name())
                        .height(420.0)
                        .show_ui(ui, |ui| {
                            encoding_menu_ui(ui, &mut misreading.encoded_as, |e| e, |_| true);
                            // Picked from the keyboard too, the list closes.
                            if misreading.encoded_as != before.encoded_as {
                                ui.close();
                            }
                        })
                        .response
                        .labelled_by(encoded.id);
                    lists.push(list.id);
                    let decoded = ui.label("and decoded as");
                    let list = ComboBox::from_id_salt(("decoded as", index))
                        .selected_text(misreading.decoded_as.name())
                        .height(420.0)
                        .show_ui(ui, |ui| {
                            encoding_menu_ui(
                                ui,
                                &mut misreading.decoded_as,
                                WrongReading::Encoding,
                                Misreading::can_be_undone_from,
                            );
                            dos_code_pages_ui(ui, &mut misreading.decoded_as);
                            if misreading.decoded_as != before.decoded_as {
                                ui.close();
                            }
                        })
                        .response
                        .labelled_by(decoded.id);
                    lists.push(list.id);
                    changed |= *misreading != before;
                    ui.end_row();
                }
            });
        ui.horizontal(|ui| {
            if ui
                .add_enabled(self.by_hand.len() < 6, Button::new("Add a step"))
                .on_hover_text("The text was damaged once more after this")
                .clicked()
            {
                let last = self.by_hand.last().copied();
                self.by_hand.push(last.unwrap_or(Misreading {
                    encoded_as: UTF_8,
                    decoded_as: WrongReading::Encoding(WINDOWS_1252),
                }));
                changed = true;
            }
            if ui
                .add_enabled(self.by_hand.len() > 1, Button::new("Remove the last step"))
                .clicked()
            {
                self.by_hand.pop();
                changed = true;
            }
        });
        changed
    }
}

/// The heading of the DOS code pages in a list of wrong readings.
pub const DOS_HEADING: &str =
    "DOS console pages: known to the repair only, not encodings of the Encoding Standard";

/// The DOS code pages, under a heading that says what they are, at the end
/// of the list of wrong readings: a text may have been read through a DOS
/// console ("├⌐" for "é"), but the decoders of the standard do not know
/// them, so they are offered only here.
fn dos_code_pages_ui(ui: &mut Ui, chosen: &mut WrongReading) {
    ui.label(RichText::new(DOS_HEADING).small().weak());
    for page in WrongReading::DOS_CODE_PAGES {
        ui.selectable_value(chosen, page, page.long_name())
            .on_hover_text(
                "A table the repair knows for undoing text read in a DOS console or by an old \
                 zip tool; no decoder or label of the Encoding Standard reads it",
            );
    }
}

/// The first 80 characters of `text`, on one line.
fn short(text: &str) -> String {
    let mut shown: String = text
        .chars()
        .take(80)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().count() > 80 {
        shown.push('…');
    }
    shown
}

/// The span and the reading side by side, the reading's lost characters
/// marked, and what was lost in words.
fn preview_ui(ui: &mut Ui, palette: &Palette, original: &str, reading: &Reinterpreted, how: &str) {
    ui.columns(2, |columns| {
        {
            let ui = &mut columns[0];
            ui.strong("The selection");
            let font = FontId::proportional(18.0);
            let normal = ui.visuals().strong_text_color();
            let mut before = LayoutJob::default();
            before.append(original, 0.0, TextFormat::simple(font, normal));
            ui.add(Label::new(before).wrap());
        }
        {
            let ui = &mut columns[1];
            let title = if how == "as it is" {
                "As it is".to_owned()
            } else {
                format!("With \u{201C}{how}\u{201D} undone")
            };
            ui.strong(title);
            let font = FontId::proportional(18.0);
            let normal = ui.visuals().strong_text_color();
            let mut after = LayoutJob::default();
            let mut done = 0;
            for mark in &reading.lost {
                let range = mark.utf8_range.clone();
                if let Some(piece) = reading.text.get(done..range.start) {
                    after.append(piece, 0.0, TextFormat::simple(font.clone(), normal));
                }
                if let Some(piece) = reading.text.get(range.clone()) {
                    after.append(
                        piece,
                        0.0,
                        TextFormat {
                            background: palette.malformed_bg,
                            ..TextFormat::simple(font.clone(), palette.malformed_fg)
                        },
                    );
                }
                done = range.end;
            }
            if let Some(rest) = reading.text.get(done..) {
                after.append(rest, 0.0, TextFormat::simple(font, normal));
            }
            ui.add(Label::new(after).wrap());
        }
    });
    let lost = reading.lost.len();
    if lost == 0 {
        ui.label(RichText::new("Nothing lost.").color(palette.weak_fg));
        return;
    }
    let mut kinds: Vec<String> = Vec::new();
    for mark in &reading.lost {
        let said = match &mark.kind {
            LossKind::Unmappable(c) => format!(
                "{} has no byte in the wrong reading",
                crate::ui::teaching::describe_drawn(*c)
            ),
            LossKind::Undecodable => "bytes that do not decode".to_owned(),
            LossKind::Lost(alternatives) if !alternatives.is_empty() => {
                let some: String = alternatives.iter().take(6).collect();
                format!("a byte lost before (one of {some})")
            }
            LossKind::Lost(_) => "a byte lost before".to_owned(),
        };
        if !kinds.contains(&said) {
            kinds.push(said);
        }
    }
    ui.add(
        Label::new(
            RichText::new(format!(
                "{} lost, marked (U+FFFD): {}.",
                plural(lost, "character", "characters"),
                kinds.join("; ")
            ))
            .color(palette.malformed_fg),
        )
        .wrap(),
    );
}
