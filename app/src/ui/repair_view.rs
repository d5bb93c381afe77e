//! Repair ▸ Repair mojibake…: the repair of one pane's decode, proposed
//! change by change. A summary in words, the list of changes (virtually
//! scrolled: a file can have hundreds of thousands) each with a box to
//! accept it, its place, before → after with the changed characters marked,
//! its chain and how sure the repair is; accepting or rejecting all, or all
//! of one chain; and the selected change in context. Clicking a change
//! selects its bytes in every view.
//!
//! The model is [`crate::model::repair`]: the app keeps the
//! [`RepairTask`] (the job's lifecycle, then the [`Review`]: the decode,
//! never modified, and the accepted set); this window keeps only where its
//! list is scrolled and which change it shows in context.

use std::ops::Range;
use std::path::Path;

use eframe::egui::{
    self, Button, Checkbox, Color32, FontId, Grid, Key, Label, Modifiers, ProgressBar, RichText,
    Role, ScrollArea, Sense, TextFormat, TextStyle, Ui, UiBuilder, WidgetInfo, Window,
    text::LayoutJob,
};
use mojiscope_core::repair::{Change, Lost};
use mojiscope_core::{ByteSpan, TraceItem, TraceKind};

use crate::model::command::Command;
use crate::model::repair::diff::{changed_chars, context_window};
use crate::model::repair::manual::chain_name;
use crate::model::repair::review::Review;
use crate::model::repair::task::{RepairState, RepairTask};
use crate::model::repair::{PROGRESS_TOTAL, Phase};
use crate::model::selection::{Selection, SelectionOrigin};
use crate::model::wording::plural;
use crate::theme::Palette;
use crate::ui::cells::{CellKind, cell_of};
use crate::ui::progress_fraction;
use crate::ui::rows::{RowPosition, rows_ui};

/// The most characters of a change's before or after a list row shows.
const ROW_CHARS: usize = 48;
/// Widths of the list's columns.
const LOCATION_WIDTH: f32 = 150.0;
const TEXT_WIDTH: f32 = 340.0;
const CHAIN_WIDTH: f32 = 300.0;
const CONFIDENCE_WIDTH: f32 = 90.0;
/// The height of the context view at the bottom of the window.
const CONTEXT_HEIGHT: f32 = 170.0;

/// The Repair window's own state.
#[derive(Debug, Default)]
pub struct RepairView {
    open: bool,
    /// The window has just opened: its first button takes the keyboard
    /// focus, so that Tab walks its buttons and list from there.
    take_focus: bool,
    /// Whether the keyboard focus was in the window at the end of the last
    /// frame.
    focus_inside: bool,
    position: RowPosition,
    /// The proposal shown in context, by index.
    selected: Option<usize>,
}

/// What the window needs from the rest of the app for one frame.
pub struct RepairEnv<'a> {
    /// The open document's generation and path, if one is open.
    pub document: Option<(u64, &'a Path)>,
    /// The colours.
    pub palette: &'static Palette,
}

impl RepairView {
    /// Opens the window (next frame), or keeps it open.
    pub fn open(&mut self) {
        self.take_focus |= !self.open;
        self.open = true;
    }

    /// Whether the window is open.
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// A new repair has started: back to the top of its list, no change
    /// selected.
    pub fn restart(&mut self) {
        self.position.reset();
        self.selected = None;
    }

    /// The proposal shown in context, if any.
    pub fn selected(&self) -> Option<usize> {
        self.selected
    }

    /// Shows the window on `task`, if it is open.
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        task: &mut RepairTask,
        env: &RepairEnv<'_>,
        commands: &mut Vec<Command>,
    ) {
        if !self.open {
            self.focus_inside = false;
            return;
        }
        let mut open = true;
        // Below the verdict line, whose button saves the repaired text.
        let (pos, size) =
            super::below_verdict_line(ctx.content_rect(), 300.0, egui::vec2(960.0, 660.0));
        let shown = Window::new("Repair mojibake")
            .id(egui::Id::unique("repair window"))
            .open(&mut open)
            .default_pos(pos)
            .default_size(size)
            .resizable(true)
            .vscroll(false)
            .show(ctx, |ui| self.contents_ui(ui, task, env, commands));
        // Escape closes the window while the keyboard focus is in it (egui
        // lets go of the focus on Escape before the frame is drawn: where
        // it was at the end of the last one tells).
        if self.focus_inside
            && ctx.input_mut(|input| input.consume_key(Modifiers::NONE, Key::Escape))
        {
            open = false;
        }
        self.focus_inside = shown.is_some_and(|shown| {
            let layer = shown.response.layer_id;
            ctx.memory(egui::Memory::focused)
                .and_then(|id| ctx.read_response(id))
                .is_some_and(|focused| focused.layer_id == layer)
        });
        self.open = open;
    }

    fn contents_ui(
        &mut self,
        ui: &mut Ui,
        task: &mut RepairTask,
        env: &RepairEnv<'_>,
        commands: &mut Vec<Command>,
    ) {
        let palette = env.palette;
        let Some(job) = task.job() else {
            ui.label(
                "Repair ▸ Repair mojibake… (Ctrl+Shift+R) repairs the decode of the focused \
                 pane: open a file first.",
            );
            return;
        };
        let stale = Some(job.generation) != env.document.map(|(generation, _)| generation);
        // A load or a close cancels every job: a repair of an earlier load
        // is not running any more.
        let running = matches!(task.state, RepairState::Running { .. }) && !stale;
        ui.horizontal(|ui| {
            let file = job.path.file_name().map_or_else(
                || job.path.display().to_string(),
                |name| name.display().to_string(),
            );
            let encoding = match task.review() {
                Some(review) if review.encoding() != job.request.encoding => format!(
                    "{} (its byte order mark's, for {})",
                    review.encoding(),
                    job.request.encoding
                ),
                Some(review) => review.encoding().to_string(),
                None => job.request.encoding.to_string(),
            };
            ui.label(
                RichText::new(format!(
                    "{file}, as pane {} reads it ({encoding})",
                    job.request.pane + 1,
                ))
                .strong(),
            );
            let first = if running {
                let cancel = ui.button("Cancel");
                if cancel.clicked() {
                    commands.push(Command::CancelRepair);
                }
                cancel
            } else {
                let again = ui
                    .add_enabled(env.document.is_some(), Button::new("Repair again"))
                    .on_hover_text("Repair the focused pane's decode of the open file");
                if again.clicked() {
                    commands.push(Command::RepairAgain);
                }
                again
            };
            if std::mem::take(&mut self.take_focus) {
                first.request_focus();
            }
            if let RepairState::Done(review) = &task.state {
                done_buttons_ui(
                    ui,
                    review,
                    env.document.is_some(),
                    stale,
                    job.request.pane,
                    commands,
                );
            }
        });
        if let Some(message) = task.save_refused() {
            ui.label(RichText::new(message).color(palette.malformed_fg));
        }
        if stale {
            let why = match env.document {
                None => "the file was closed".to_owned(),
                Some((_, path)) if path == job.path => "the file was reloaded: these changes \
                     are for the text as it was, and are not saved"
                    .to_owned(),
                Some(_) => "another file is open: these changes are for the one named here, \
                            and are not saved"
                    .to_owned(),
            };
            ui.label(RichText::new(format!("Stale: {why}.")).color(palette.malformed_fg));
        }
        match &mut task.state {
            RepairState::Idle => {}
            RepairState::Running { .. } if stale => {
                ui.label("Cancelled.");
            }
            RepairState::Running { progress, .. } => {
                ui.label(Phase::of(*progress).describe());
                ui.add(
                    ProgressBar::new(progress_fraction(*progress, PROGRESS_TOTAL))
                        .show_percentage(),
                );
            }
            RepairState::Failed { message, .. } => {
                ui.label(RichText::new(message.as_str()).color(palette.malformed_fg));
            }
            RepairState::Cancelled { .. } => {
                ui.label("Cancelled.");
            }
            RepairState::Done(review) => self.review_ui(ui, review, palette, stale, commands),
        }
    }

    fn review_ui(
        &mut self,
        ui: &mut Ui,
        review: &mut Review,
        palette: &'static Palette,
        stale: bool,
        commands: &mut Vec<Command>,
    ) {
        let Self {
            position, selected, ..
        } = self;
        for sentence in review.summary() {
            ui.label(sentence);
        }
        if review.proposals().is_empty() {
            return;
        }
        chains_ui(ui, review);
        ui.separator();
        let list_height = (ui.available_height() - CONTEXT_HEIGHT).max(80.0);
        let width = ui.available_width();
        let clicked = ui
            .allocate_ui(egui::vec2(width, list_height), |ui| {
                list_ui(ui, review, position, *selected, palette)
            })
            .inner;
        if let Some(index) = clicked {
            *selected = Some(index);
            if let Some(proposal) = review.proposals().get(index)
                && !stale
                && !proposal.bytes.is_empty()
            {
                commands.push(Command::Select(Selection {
                    span: proposal.bytes,
                    origin: SelectionOrigin::Navigation,
                }));
                commands.push(Command::Reveal(proposal.bytes.start));
            }
        }
        ui.separator();
        context_ui(ui, review, *selected, palette);
    }
}

/// The buttons of a finished repair: save its text (which says why not when
/// the repair is `stale`), or apply its accepted changes to pane `pane`.
fn done_buttons_ui(
    ui: &mut Ui,
    review: &Review,
    has_document: bool,
    stale: bool,
    pane: usize,
    commands: &mut Vec<Command>,
) {
    let accepted = plural(review.accepted_count(), "change", "changes");
    if ui
        .add_enabled(has_document, Button::new("Save repaired text as…"))
        .on_hover_text(format!(
            "Save the text with the {accepted} accepted applied"
        ))
        .clicked()
    {
        commands.push(Command::SaveRepaired);
    }
    if ui
        .add_enabled(
            has_document && !stale && review.accepted_count() > 0,
            Button::new("Apply to the pane"),
        )
        .on_hover_text(format!(
            "Put the {accepted} accepted in place in pane {}'s text; Edit ▸ Undo takes them back",
            pane + 1
        ))
        .clicked()
    {
        commands.push(Command::ApplyRepaired);
    }
}

/// The chains, each with its counts and buttons to accept or reject all its
/// proposals; and buttons for all of them.
fn chains_ui(ui: &mut Ui, review: &mut Review) {
    let mut action = None;
    Grid::new("repair chains")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            for count in review.chains() {
                ui.label(chain_name(count.chain));
                let mut counts = Vec::new();
                if count.changes > 0 {
                    counts.push(plural(count.changes, "change", "changes"));
                }
                if count.suggestions > 0 {
                    counts.push(plural(count.suggestions, "suggestion", "suggestions"));
                }
                ui.label(counts.join(", "));
                ui.horizontal(|ui| {
                    let chain = count.chain;
                    let name = chain_name(chain);
                    if ui
                        .small_button("Accept")
                        .on_hover_text(format!("Accept every change of {name}"))
                        .clicked()
                    {
                        action = Some((Some(chain), true));
                    }
                    if ui
                        .small_button("Reject")
                        .on_hover_text(format!("Reject every change of {name}"))
                        .clicked()
                    {
                        action = Some((Some(chain), false));
                    }
                });
                ui.end_row();
            }
        });
    let mut reset = false;
    ui.horizontal(|ui| {
        if ui
            .button("Accept all")
            .on_hover_text("Accept every change and every suggestion")
            .clicked()
        {
            action = Some((None, true));
        }
        if ui
            .button("Reject all")
            .on_hover_text("Leave the text as it was decoded")
            .clicked()
        {
            action = Some((None, false));
        }
        if ui
            .button("As proposed")
            .on_hover_text("Accept the changes, not the suggestions")
            .clicked()
        {
            reset = true;
        }
    });
    match action {
        Some((Some(chain), accepted)) => review.set_chain(chain, accepted),
        Some((None, accepted)) => review.set_all(accepted),
        None => {}
    }
    if reset {
        review.reset();
    }
}

/// The list of proposals, one row each; returns the one clicked, if any.
fn list_ui(
    ui: &mut Ui,
    review: &mut Review,
    position: &mut RowPosition,
    selected: Option<usize>,
    palette: &'static Palette,
) -> Option<usize> {
    let row_height = ui
        .spacing()
        .interact_size
        .y
        .max(ui.text_style_height(&TextStyle::Body))
        + 4.0;
    let row_step = row_height + ui.spacing().item_spacing.y;
    let content_width = LOCATION_WIDTH + TEXT_WIDTH + CHAIN_WIDTH + CONFIDENCE_WIDTH + 40.0;
    let count = review.proposals().len() as u64;
    let id = ui.scope_id().with("repair list");
    rows_ui(
        ui,
        id,
        position,
        count,
        row_step,
        content_width,
        None,
        palette,
        |ui, visible| {
            visible.response.widget_info(|| {
                WidgetInfo::labeled(Role::List, true, "Changes proposed by the repair")
            });
            let mut clicked = None;
            for row in visible.rows.clone() {
                let Ok(index) = usize::try_from(row) else {
                    break;
                };
                let rect = egui::Rect::from_min_size(
                    egui::pos2(visible.origin.x, visible.row_top(row)),
                    egui::vec2(content_width, row_height),
                );
                if selected == Some(index) {
                    ui.painter()
                        .rect_filled(rect, 2.0, palette.selection_bg.gamma_multiply(0.6));
                }
                let background = ui.interact(rect, id.with(("row", index)), Sense::click());
                if background.clicked() {
                    clicked = Some(index);
                }
                let mut row_ui = ui.new_child(
                    UiBuilder::new()
                        .max_rect(rect)
                        .id_salt(("proposal", index))
                        .layout(egui::Layout::left_to_right(egui::Align::Center)),
                );
                if proposal_row_ui(&mut row_ui, review, index, palette) {
                    clicked = Some(index);
                }
            }
            clicked
        },
    )
}

/// One row of the list; returns whether its location was clicked.
fn proposal_row_ui(ui: &mut Ui, review: &mut Review, index: usize, palette: &Palette) -> bool {
    let Some(proposal) = review.proposals().get(index) else {
        return false;
    };
    let location = format!("line {} · byte 0x{:X}", proposal.line, proposal.bytes.start);
    let kind = if proposal.is_sure {
        "change"
    } else {
        "suggestion"
    };
    let accessible = format!("Accept the {kind} on {location}");
    let before = &review.text()[proposal.change.utf8_range.clone()];
    let job = before_after_job(ui, palette, before, &proposal.change);
    let chain = chain_name(proposal.change.chain);
    let confidence = if proposal.is_sure {
        format!("{:.0}% sure", proposal.change.confidence * 100.0)
    } else {
        format!("unsure, {:.0}%", proposal.change.confidence * 100.0)
    };
    let lost = proposal.change.lost.clone();
    let mut accepted = review.is_accepted(index);
    let response = ui.add(Checkbox::without_text(&mut accepted));
    response.widget_info(|| WidgetInfo::selected(Role::CheckBox, true, accepted, &accessible));
    if response.changed() {
        review.set_accepted(index, accepted);
    }
    let clicked = cell_ui(ui, LOCATION_WIDTH, |ui| {
        ui.add(Button::selectable(false, location).small())
            .clicked()
    });
    cell_ui(ui, TEXT_WIDTH, |ui| {
        let response = ui.add(Label::new(job).truncate().selectable(false));
        if !lost.is_empty() {
            response.on_hover_text(lost_text(&lost));
        }
    });
    cell_ui(ui, CHAIN_WIDTH, |ui| {
        ui.add(
            Label::new(RichText::new(chain).color(palette.weak_fg))
                .truncate()
                .selectable(false),
        );
    });
    ui.add(Label::new(confidence).selectable(false));
    clicked
}

/// Lays out `add` in a cell `width` wide.
fn cell_ui<R>(ui: &mut Ui, width: f32, add: impl FnOnce(&mut Ui) -> R) -> R {
    let height = ui.available_height();
    ui.allocate_ui_with_layout(
        egui::vec2(width, height),
        egui::Layout::left_to_right(egui::Align::Center),
        |ui| {
            ui.set_width(width);
            add(ui)
        },
    )
    .inner
}

/// What the characters lost in a change may have been.
fn lost_text(lost: &[Lost]) -> String {
    let mut lines =
        vec!["Marked characters could not be recovered; each may have been:".to_owned()];
    for lost in lost {
        let alternatives: Vec<String> = lost.alternatives.iter().map(char::to_string).collect();
        lines.push(format!("• one of {}", alternatives.join(" ")));
    }
    lines.join("\n")
}

/// The selected proposal in context: its line and the lines around it,
/// before the repair and with the accepted proposals applied.
fn context_ui(ui: &mut Ui, review: &Review, selected: Option<usize>, palette: &Palette) {
    let Some((index, proposal)) = selected.and_then(|i| Some((i, review.proposals().get(i)?)))
    else {
        ui.label(
            RichText::new(
                "Click a change to see it in context, and to select its bytes in every view.",
            )
            .color(palette.weak_fg),
        );
        return;
    };
    let span = proposal.bytes;
    ui.label(
        RichText::new(format!(
            "Line {}, bytes 0x{:X}..0x{:X} ({}), {}",
            proposal.line,
            span.start,
            span.end,
            plural(
                usize::try_from(span.len()).unwrap_or(usize::MAX),
                "byte",
                "bytes"
            ),
            if review.is_accepted(index) {
                "accepted"
            } else {
                "rejected"
            }
        ))
        .strong(),
    );
    let window = context_window(review.text(), &proposal.change.utf8_range);
    ScrollArea::vertical()
        .id_salt("repair context")
        .auto_shrink([false, true])
        .show(ui, |ui| {
            Grid::new("repair context grid")
                .num_columns(2)
                .spacing(egui::vec2(12.0, 6.0))
                .show(ui, |ui| {
                    ui.label(RichText::new("Before").color(palette.weak_fg));
                    ui.add(
                        Label::new(context_job(ui, palette, review, &window, index, false)).wrap(),
                    );
                    ui.end_row();
                    ui.label(RichText::new("After").color(palette.weak_fg));
                    ui.add(
                        Label::new(context_job(ui, palette, review, &window, index, true)).wrap(),
                    );
                    ui.end_row();
                });
        });
}

/// The text of `window` as a layout: before the repair (each proposal
/// marked) or after it (the accepted ones applied and marked, with their
/// lost characters marked as errors); `selected` in the selection colour.
fn context_job(
    ui: &Ui,
    palette: &Palette,
    review: &Review,
    window: &Range<usize>,
    selected: usize,
    after: bool,
) -> LayoutJob {
    let text = review.text();
    let font = TextStyle::Monospace.resolve(ui.style());
    let plain = TextFormat::simple(font.clone(), ui.visuals().text_color());
    let mut job = LayoutJob::default();
    if window.start > 0 && text.as_bytes().get(window.start - 1) != Some(&b'\n') {
        push_text(&mut job, "…", &plain, palette, false);
    }
    let proposals = review.proposals();
    let first = proposals.partition_point(|p| p.change.utf8_range.end <= window.start);
    let mut done = window.start;
    for (index, proposal) in proposals.iter().enumerate().skip(first) {
        let range = &proposal.change.utf8_range;
        if range.start >= window.end {
            break;
        }
        let start = range.start.max(done);
        push_text(&mut job, &text[done..start], &plain, palette, false);
        let mark = if index == selected {
            palette.selection_bg
        } else if after {
            palette.repair_after_bg
        } else {
            palette.repair_before_bg
        };
        let marked = TextFormat {
            background: mark,
            ..plain.clone()
        };
        if after && review.is_accepted(index) {
            push_replacement(&mut job, &proposal.change, &marked, palette);
        } else if after {
            // Rejected: the text stays as it was, unmarked but for the
            // selected one.
            let format = if index == selected { &marked } else { &plain };
            push_text(&mut job, &text[start..range.end], format, palette, false);
        } else {
            push_text(&mut job, &text[start..range.end], &marked, palette, false);
        }
        done = range.end;
    }
    if done < window.end {
        push_text(&mut job, &text[done..window.end], &plain, palette, false);
    }
    if window.end < text.len() && text.as_bytes().get(window.end) != Some(&b'\n') {
        push_text(&mut job, "…", &plain, palette, false);
    }
    job
}

/// A change's replacement, its lost characters marked as errors.
fn push_replacement(job: &mut LayoutJob, change: &Change, format: &TextFormat, palette: &Palette) {
    let lost = TextFormat {
        background: palette.malformed_bg,
        color: palette.malformed_fg,
        ..format.clone()
    };
    let mut done = 0;
    for lost_char in &change.lost {
        let at = lost_char.utf8_offset;
        let Some(c) = change
            .replacement
            .get(at..)
            .and_then(|rest| rest.chars().next())
        else {
            continue;
        };
        if at < done {
            continue;
        }
        push_text(job, &change.replacement[done..at], format, palette, false);
        push_text(
            job,
            &change.replacement[at..at + c.len_utf8()],
            &lost,
            palette,
            false,
        );
        done = at + c.len_utf8();
    }
    push_text(job, &change.replacement[done..], format, palette, false);
}

/// Appends `text` to `job` in `format`, each control or invisible
/// character drawn as the decode panes draw it (its abbreviation, small),
/// and line feeds as line breaks unless `one_line`.
fn push_text(
    job: &mut LayoutJob,
    text: &str,
    format: &TextFormat,
    palette: &Palette,
    one_line: bool,
) {
    let mut run = 0;
    for (offset, c) in text.char_indices() {
        if c == '\n' && !one_line {
            continue;
        }
        let Some(drawn) = control_abbreviation(c) else {
            continue;
        };
        job.append(&text[run..offset], 0.0, format.clone());
        let small = TextFormat {
            font_id: FontId::new(format.font_id.size * 0.7, format.font_id.family.clone()),
            color: palette.control_fg,
            background: if format.background == Color32::TRANSPARENT {
                palette.control_bg
            } else {
                format.background
            },
            ..format.clone()
        };
        job.append(&drawn, 0.0, small);
        run = offset + c.len_utf8();
    }
    job.append(&text[run..], 0.0, format.clone());
}

/// The abbreviation a decode pane draws for `c`, if it draws one.
fn control_abbreviation(c: char) -> Option<String> {
    let cell = cell_of(TraceItem {
        span: ByteSpan::new(0, 0),
        kind: TraceKind::Scalar(c),
    });
    (cell.kind == CellKind::Control).then_some(cell.text)
}

/// A list row's text: the change's text before → after, each cut to
/// [`ROW_CHARS`], the changed characters marked, lost ones as errors.
fn before_after_job(ui: &Ui, palette: &Palette, before: &str, change: &Change) -> LayoutJob {
    let font = TextStyle::Monospace.resolve(ui.style());
    let plain = TextFormat::simple(font, ui.visuals().strong_text_color());
    let (before_marks, after_marks) = changed_chars(before, &change.replacement);
    let lost: Vec<usize> = change.lost.iter().map(|lost| lost.utf8_offset).collect();
    let mut job = LayoutJob::default();
    push_marked(
        &mut job,
        before,
        &before_marks,
        &[],
        &plain,
        palette.repair_before_bg,
        palette,
    );
    push_text(
        &mut job,
        " → ",
        &TextFormat {
            color: palette.weak_fg,
            ..plain.clone()
        },
        palette,
        true,
    );
    push_marked(
        &mut job,
        &change.replacement,
        &after_marks,
        &lost,
        &plain,
        palette.repair_after_bg,
        palette,
    );
    job
}

/// Appends at most [`ROW_CHARS`] characters of `text`, those `marks` says
/// changed on `mark`, those starting at a `lost` offset as errors.
fn push_marked(
    job: &mut LayoutJob,
    text: &str,
    marks: &[bool],
    lost: &[usize],
    plain: &TextFormat,
    mark: Color32,
    palette: &Palette,
) {
    let marked = TextFormat {
        background: mark,
        ..plain.clone()
    };
    let lost_format = TextFormat {
        background: palette.malformed_bg,
        color: palette.malformed_fg,
        ..plain.clone()
    };
    for (index, (offset, c)) in text.char_indices().enumerate() {
        if index == ROW_CHARS {
            push_text(job, "…", plain, palette, true);
            return;
        }
        let format = if lost.contains(&offset) {
            &lost_format
        } else if marks.get(index).copied().unwrap_or(true) {
            &marked
        } else {
            plain
        };
        push_text(
            job,
            &text[offset..offset + c.len_utf8()],
            format,
            palette,
            true,
        );
    }
}
