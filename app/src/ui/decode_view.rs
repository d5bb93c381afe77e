//! A decode pane's header: its number and colour, its encoding chooser,
//! its whole-file error count with the list of its errors, Why? and
//! Remove. The header gets a rectangle of its own and keeps inside it at
//! any width and zoom: its parts wrap onto more lines rather than overlap,
//! and are clipped to it. The pane's text is drawn with every other pane's
//! by [`readings`](crate::ui::readings).

use std::sync::Arc;

use eframe::egui::{
    self, Button, Id, ProgressBar, Rect, RichText, Role, Sense, Stroke, StrokeKind, Ui, UiBuilder,
    WidgetInfo, vec2,
};
use mojiscope_core::{Detection, Encoding, Group};

use crate::model::analysis::counts::ErrorCount;
use crate::model::analysis::lines::LineIndex;
use crate::model::analysis::mixed::Parts;
use crate::model::command::Command;
use crate::model::session::Pane;
use crate::ui::chooser::{Chooser, Entry};
use crate::ui::error_list::ErrorList;
use crate::ui::readings::pane_colour;
use crate::ui::{PanelCtx, error_count_text, progress_fraction, score_text};

/// The room between a header's cell and its contents, where the focus
/// ring goes.
const FOCUS_MARGIN: f32 = 4.0;

/// A decode pane's view state: its error list.
#[derive(Default)]
pub struct DecodeView {
    /// The pane's error list.
    pub errors: ErrorList,
}

/// What a pane's header needs from the rest of the app for one frame.
pub struct PaneEnv<'a> {
    /// The pane's index.
    pub index: usize,
    /// Whole-file error counts of every override choice, once known.
    pub counts: Option<&'a [ErrorCount]>,
    /// The ranking of the candidate encodings, once known.
    pub detection: Option<&'a Detection>,
    /// The encoding a UTF-16 byte order mark forces, if there is one.
    pub forced_by_bom: Option<&'static Encoding>,
    /// The file's parts, when it is in several encodings (the chooser then
    /// offers the Mixed reading).
    pub parts: Option<&'a Parts>,
    /// Whether the pane may be removed.
    pub removable: bool,
    /// Whether the pane is the focused one (F8, Save as and Repair act on
    /// it).
    pub focused: bool,
    /// The rows, as far as they are indexed: the error list's lines.
    pub lines: Option<&'a LineIndex>,
}

impl DecodeView {
    /// Forgets what the view learned of the pane (the analysis changed).
    pub fn reset(&mut self) {
        self.errors = ErrorList::default();
    }

    /// Shows the header of `pane` in `rect` (its top; it takes the height
    /// it needs). Returns the height it took.
    pub fn header_ui(
        &mut self,
        ui: &mut Ui,
        rect: Rect,
        ctx: &PanelCtx<'_>,
        pane: &Pane,
        env: &PaneEnv<'_>,
        commands: &mut Vec<Command>,
    ) -> f32 {
        // The focus ring is drawn on the cell's edge: the contents keep
        // clear of it, so that it never covers their first letters.
        let inner = rect.shrink2(vec2(FOCUS_MARGIN, FOCUS_MARGIN));
        let mut child = ui.new_child(
            UiBuilder::new()
                .id_salt(("pane header", env.index))
                .max_rect(inner)
                .layout(egui::Layout::top_down(egui::Align::Min)),
        );
        child.set_clip_rect(inner.intersect(ui.clip_rect()));
        child.set_width(inner.width());
        self.contents_ui(&mut child, ctx, pane, env, commands);
        let used = child.min_rect();
        // A click anywhere on the header focuses the pane; it is read from
        // the input, not sensed, so that it takes nothing from the widgets
        // on it.
        let header = Rect::from_min_max(
            rect.min,
            egui::pos2(rect.right(), used.bottom() + FOCUS_MARGIN),
        );
        if ui.rect_contains_pointer(header) && ui.input(|input| input.pointer.primary_clicked()) {
            commands.push(Command::FocusPane(env.index));
        }
        if env.focused {
            ui.painter().rect_stroke(
                header,
                3.0,
                Stroke::new(1.5, ctx.palette.focus_stroke),
                StrokeKind::Inside,
            );
        }
        header.height()
    }

    fn contents_ui(
        &mut self,
        ui: &mut Ui,
        ctx: &PanelCtx<'_>,
        pane: &Pane,
        env: &PaneEnv<'_>,
        commands: &mut Vec<Command>,
    ) {
        let index = env.index;
        let palette = ctx.palette;
        let errors = pane.analysis.as_ref().map(|analysis| {
            let mut text = error_count_text(analysis.errors);
            if !analysis.is_complete() {
                text.push_str(" so far");
            }
            text
        });
        chooser_row_ui(ui, ctx, pane, env, errors.as_deref(), commands);
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 6.0;
            if let (Some(analysis), Some(text)) = (&pane.analysis, &errors) {
                let colour = if analysis.errors == 0 {
                    palette.weak_fg
                } else {
                    palette.malformed_fg
                };
                ui.label(RichText::new(text).color(colour));
                let analysis = Arc::clone(analysis);
                self.errors
                    .ui(ui, ctx, index, &analysis, env.lines, commands);
                // Detection ranks encodings; the Mixed reading is not one.
                if env.detection.is_some()
                    && pane.parts.is_none()
                    && ui
                        .small_button("Why?")
                        .on_hover_text("How detection ranks this encoding, and the evidence")
                        .clicked()
                {
                    commands.push(Command::ShowWhy(pane.encoding));
                }
                if analysis.encoding != pane.encoding {
                    ui.label(format!("(decoded as {})", analysis.encoding.name()));
                }
            }
            if let Some((done, total)) = pane.progress {
                ui.add(
                    ProgressBar::new(progress_fraction(done, total))
                        .desired_width(70.0)
                        .show_percentage(),
                );
            } else if pane.analysis.is_none() {
                match &pane.failed {
                    Some(message) => {
                        ui.colored_label(palette.malformed_fg, message);
                    }
                    None => {
                        ui.label("decoding…");
                    }
                }
            }
            if env.removable {
                let label = format!("Remove pane {}", index + 1);
                let remove = ui.add(Button::new("✕").small()).on_hover_text(&label);
                remove.widget_info(|| WidgetInfo::labeled(Role::Button, true, &label));
                if remove.clicked() {
                    commands.push(Command::RemovePane(index));
                }
            }
        });
        if let Some(forced) = env.forced_by_bom {
            ui.add(
                egui::Label::new(
                    RichText::new(format!(
                        "A {} byte order mark decides the encoding: the standard lets nothing override it.",
                        forced.name()
                    ))
                    .small()
                    .color(palette.weak_fg),
                )
                .wrap(),
            );
        }
    }
}

/// The pane's tag and its encoding chooser.
fn chooser_row_ui(
    ui: &mut Ui,
    ctx: &PanelCtx<'_>,
    pane: &Pane,
    env: &PaneEnv<'_>,
    errors: Option<&str>,
    commands: &mut Vec<Command>,
) {
    let index = env.index;
    let palette = ctx.palette;
    ui.horizontal(|ui| {
        // The pane's tag: its number on its colour, as on its rows.
        let (tag, _) = ui.allocate_exact_size(vec2(22.0, 20.0), Sense::hover());
        ui.painter()
            .rect_filled(tag, 3.0, pane_colour(palette, index));
        ui.painter().text(
            tag.center(),
            egui::Align2::CENTER_CENTER,
            format!("{}", index + 1),
            egui::TextStyle::Button.resolve(ui.style()),
            palette.pane_tag_fg,
        );
        let shown = match &pane.parts {
            Some(parts) => mixed_name(parts),
            None => pane
                .analysis
                .as_ref()
                .map_or(pane.encoding, |a| a.encoding)
                .name()
                .to_owned(),
        };
        let name = format!(
            "Pane {} encoding: {shown}{}",
            index + 1,
            errors.map(|e| format!(", {e}")).unwrap_or_default()
        );
        let width = (ui.available_width() - 4.0).max(60.0);
        let mut entries = Vec::new();
        if let Some(parts) = env.parts {
            entries.push(Entry::Heading("Each part in its own encoding".to_owned()));
            entries.push(Entry::Choice {
                value: Reading::Mixed,
                text: mixed_name(parts),
                keywords: "mixed segments parts several encodings".to_owned(),
            });
        }
        entries.extend(
            encoding_entries(env.counts, env.detection)
                .into_iter()
                .map(|entry| match entry {
                    Entry::Heading(heading) => Entry::Heading(heading),
                    Entry::Choice {
                        value,
                        text,
                        keywords,
                    } => Entry::Choice {
                        value: Reading::Encoding(value),
                        text,
                        keywords,
                    },
                }),
        );
        let current = if pane.parts.is_some() {
            Reading::Mixed
        } else {
            Reading::Encoding(pane.encoding)
        };
        let mut chosen = current;
        let id = Id::unique(("encoding chooser", index));
        let chooser = Chooser::new(id, name, shown, &entries)
            .width(width)
            .enabled(env.forced_by_bom.is_none());
        let response = chooser.ui(ui, &mut chosen);
        if response.changed() && chosen != current {
            commands.push(match chosen {
                Reading::Mixed => Command::SetMixed {
                    pane: index,
                    mixed: true,
                },
                Reading::Encoding(encoding) => Command::SetEncoding {
                    pane: index,
                    encoding,
                },
            });
        }
        if response.clicked() || response.gained_focus() {
            commands.push(Command::FocusPane(index));
        }
    });
}

/// What a pane's chooser sets: one encoding, or the Mixed reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reading {
    Encoding(&'static Encoding),
    Mixed,
}

/// The Mixed reading's name: "Mixed: UTF-8 + windows-1252".
pub fn mixed_name(parts: &Parts) -> String {
    let mut names: Vec<&str> = Vec::new();
    for part in parts.iter() {
        if !names.contains(&part.encoding.name()) {
            names.push(part.encoding.name());
        }
    }
    format!("Mixed: {}", names.join(" + "))
}

/// The chooser's entries: the override choices under the standard's
/// section headings, each with its whole-file error count and detection
/// score once known, found also by its labels.
pub fn encoding_entries(
    counts: Option<&[ErrorCount]>,
    detection: Option<&Detection>,
) -> Vec<Entry<&'static Encoding>> {
    let mut entries = Vec::new();
    for group in Group::ALL {
        let choices: Vec<&'static Encoding> = group
            .encodings()
            .filter(|e| e.is_override_choice())
            .collect();
        if choices.is_empty() {
            continue;
        }
        entries.push(Entry::Heading(group.heading().to_owned()));
        for encoding in choices {
            let errors = counts
                .and_then(|counts| counts.iter().find(|c| c.encoding == encoding))
                .map(|c| error_count_text(c.errors));
            let score = detection
                .and_then(|detection| detection.candidate(encoding))
                .map(|candidate| score_text(candidate.score));
            let details: Vec<String> = errors.into_iter().chain(score).collect();
            let text = if details.is_empty() {
                encoding.name().to_owned()
            } else {
                format!("{}  ({})", encoding.name(), details.join(", "))
            };
            entries.push(Entry::Choice {
                value: encoding,
                text,
                keywords: encoding.labels().join(" "),
            });
        }
    }
    entries
}
