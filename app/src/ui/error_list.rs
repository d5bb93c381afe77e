//! A pane's error list: offset, bytes and kind of each error, virtually
//! scrolled, in a menu that opens over the pane (so that the panes' rows
//! stay side by side); clicking one selects its bytes.

use std::collections::HashMap;

use eframe::egui::{ScrollArea, TextStyle, Ui};
use mojiscope_core::{ByteSpan, DecodeErrorKind};

use crate::model::analysis::EncodingAnalysis;
use crate::model::command::Command;
use crate::model::selection::{Selection, SelectionOrigin};
use crate::ui::PanelCtx;
use crate::ui::cells::hex_bytes;

/// How many looked-up errors are kept before the cache starts afresh.
const CACHE_LIMIT: usize = 4096;

/// The error list's state: the errors looked up so far.
#[derive(Default)]
pub struct ErrorList {
    details: HashMap<u64, Option<(ByteSpan, DecodeErrorKind)>>,
}

impl ErrorList {
    /// Shows a button that opens the list, if there are errors.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        ctx: &PanelCtx<'_>,
        pane: usize,
        analysis: &EncodingAnalysis,
        commands: &mut Vec<Command>,
    ) {
        let offsets = &analysis.error_offsets;
        if offsets.is_empty() {
            return;
        }
        ui.menu_button("List ▾", |ui| {
            ui.set_min_width(360.0);
            if analysis.error_offsets_truncated {
                ui.label(format!("The first {} errors", offsets.len()));
            }
            let row_height = ui.text_style_height(&TextStyle::Monospace);
            ScrollArea::vertical()
                .id_salt(("error rows", pane))
                .max_height(320.0)
                .show_rows(ui, row_height, offsets.len(), |ui, rows| {
                    if self.details.len() > CACHE_LIMIT {
                        self.details.clear();
                    }
                    for &byte_offset in offsets.get(rows).unwrap_or_default() {
                        let detail = *self
                            .details
                            .entry(byte_offset)
                            .or_insert_with(|| analysis.error_at(ctx.bytes, byte_offset));
                        let (span, text) = match detail {
                            Some((span, kind)) => (
                                span,
                                format!(
                                    "{byte_offset:#010X}  {:<11} {kind}",
                                    hex_bytes(ctx.bytes, span)
                                ),
                            ),
                            None => (
                                ByteSpan::new(byte_offset, byte_offset + 1),
                                format!("{byte_offset:#010X}"),
                            ),
                        };
                        let selected = ctx.selection.is_some_and(|s| s.span == span);
                        let label = ui.selectable_label(
                            selected,
                            eframe::egui::RichText::new(text).monospace(),
                        );
                        if label.clicked() {
                            commands.push(Command::FocusPane(pane));
                            commands.push(Command::Select(Selection {
                                span,
                                origin: SelectionOrigin::Navigation,
                            }));
                            commands.push(Command::Reveal(span.start));
                            ui.close();
                        }
                    }
                });
        });
    }
}
