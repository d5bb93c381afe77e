//! The inspector: what the selected bytes are, and what each pane made of
//! them (code points, character names, errors), with the row and display
//! column where the selection starts.

use std::sync::Arc;

use eframe::egui::{self, RichText, ScrollArea, Ui};
use mojiscope_core::{ByteSpan, Encoding, TraceItem, TraceKind};
use unicode_width::UnicodeWidthStr as _;

use crate::model::analysis::EncodingAnalysis;
use crate::model::analysis::lines::LineIndex;
use crate::model::wording::plural;
use crate::ui::PanelCtx;
use crate::ui::cells::{cell_of, describe_char, hex_bytes, overlaps};
use crate::ui::teaching::explain::ExplainSection;

/// The most items the inspector lists per pane.
const MAX_ITEMS: usize = 32;

/// How far before the selection an item covering its first byte may start
/// (the longest sequence of any decoder, with room to spare).
const LOOK_BEHIND: u64 = 8;

/// What one pane made of the selection.
#[derive(Clone, Debug, PartialEq)]
pub struct PaneDetails {
    /// The pane's encoding (as decoded).
    pub encoding: &'static Encoding,
    /// One line per item overlapping the selection.
    pub items: Vec<String>,
    /// The row and display column (by `unicode-width`) where the selection starts.
    pub position: Option<(u64, usize)>,
}

/// The inspector's state: details computed once per selection.
#[derive(Default)]
pub struct Inspector {
    cache: Option<(Key, Vec<PaneDetails>)>,
    /// Each pane's Explain section.
    pub explain: ExplainSection,
}

#[derive(Clone, PartialEq, Eq)]
struct Key {
    generation: u64,
    span: ByteSpan,
    analyses: Vec<usize>,
}

/// One line describing an item: "U+00E9 LATIN SMALL LETTER E WITH ACUTE".
pub fn describe_item(item: TraceItem, bytes: &[u8]) -> String {
    let hex = hex_bytes(bytes, item.span);
    match item.kind {
        TraceKind::Scalar(c) => format!("{hex}  →  {}", describe_char(c)),
        TraceKind::Pair(a, b) => format!("{hex}  →  {} + {}", describe_char(a), describe_char(b)),
        TraceKind::Error(kind) => format!("{hex}  →  error: {kind} (U+FFFD)"),
        TraceKind::Skip(reason) => format!("{hex}  →  {reason}"),
    }
}

/// The display column at which `byte_offset` starts within its row, counting
/// each drawn cell's width with `unicode-width`.
pub fn display_column(
    analysis: &EncodingAnalysis,
    lines: &LineIndex,
    bytes: &[u8],
    byte_offset: u64,
) -> (u64, usize) {
    let row = lines.row_of(byte_offset);
    let trace = analysis.decode_window(bytes, lines.row_span(row));
    let column = trace
        .items()
        .take_while(|item| item.span.end <= byte_offset)
        .map(|item| cell_of(item).text.width())
        .sum();
    (row, column)
}

impl Inspector {
    /// Forgets the cached details.
    pub fn reset(&mut self) {
        self.cache = None;
        self.explain.reset();
    }

    /// Shows the selection's details; `panes` are each pane's analysis.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        ctx: &PanelCtx<'_>,
        panes: &[Option<Arc<EncodingAnalysis>>],
        lines: Option<&Arc<LineIndex>>,
    ) {
        let Some(selection) = ctx.selection else {
            ui.label(
                RichText::new(
                    "Select bytes in the hex view or characters in a pane to inspect them.",
                )
                .color(ctx.palette.weak_fg),
            );
            return;
        };
        let span = selection.span;
        let key = Key {
            generation: ctx.generation,
            span,
            analyses: panes
                .iter()
                .map(|a| a.as_ref().map_or(0, |a| Arc::as_ptr(a) as usize))
                .collect(),
        };
        if self.cache.as_ref().is_none_or(|(k, _)| *k != key) {
            let details = panes
                .iter()
                .flatten()
                .map(|analysis| pane_details(analysis, lines, ctx.bytes, span))
                .collect();
            self.cache = Some((key, details));
        }
        let Some((_, details)) = &self.cache else {
            return;
        };
        let analysed: Vec<(usize, &Arc<EncodingAnalysis>)> = panes
            .iter()
            .enumerate()
            .filter_map(|(pane, analysis)| Some((pane, analysis.as_ref()?)))
            .collect();
        let explain = &mut self.explain;
        let summary = format!(
            "Selection: bytes {:#X}..{:#X} ({}): {}",
            span.start,
            span.end,
            plural(span.len(), "byte", "bytes"),
            hex_bytes(ctx.bytes, span)
        );
        let label = ui.label(RichText::new(&summary).strong());
        // A screen reader hears every new selection (arrows, F8, Find):
        // the bytes, and what each pane reads them as.
        let readings: Vec<String> = details
            .iter()
            .filter_map(|pane| {
                let first = pane.items.first()?;
                Some(format!("{}: {first}", pane.encoding.name()))
            })
            .collect();
        let readings = readings.join("; ");
        ui.ctx().accesskit_node_builder(label.id, |node| {
            node.set_live(egui::accesskit::Live::Polite);
            node.set_description(readings);
        });
        // One column per pane, in the panes' order, so that each pane's
        // reading of the bytes sits under the pane.
        ScrollArea::vertical()
            .id_salt("inspector")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.columns(details.len().max(1), |columns| {
                    for ((column, pane), (index, analysis)) in
                        columns.iter_mut().zip(details).zip(&analysed)
                    {
                        let position = pane
                            .position
                            .map(|(row, column)| format!("row {}, column {}", row + 1, column + 1))
                            .unwrap_or_default();
                        column.horizontal(|ui| {
                            ui.label(RichText::new(pane.encoding.name()).strong());
                            ui.label(RichText::new(position).color(ctx.palette.weak_fg));
                        });
                        for item in &pane.items {
                            column.add(egui::Label::new(RichText::new(item).monospace()).wrap());
                        }
                        explain.ui(
                            column,
                            ctx.palette,
                            *index,
                            ctx.generation,
                            analysis,
                            ctx.bytes,
                            span,
                        );
                    }
                });
            });
    }
}

fn pane_details(
    analysis: &EncodingAnalysis,
    lines: Option<&Arc<LineIndex>>,
    bytes: &[u8],
    span: ByteSpan,
) -> PaneDetails {
    let window = ByteSpan::new(span.start.saturating_sub(LOOK_BEHIND), span.end);
    let trace = analysis.decode_window(bytes, window);
    let mut items: Vec<String> = trace
        .items()
        .filter(|item| overlaps(item.span, span))
        .take(MAX_ITEMS + 1)
        .map(|item| describe_item(item, bytes))
        .collect();
    if items.len() > MAX_ITEMS {
        items.truncate(MAX_ITEMS);
        items.push("…".to_owned());
    }
    PaneDetails {
        encoding: analysis.encoding_at(span.start),
        items,
        position: lines.map(|lines| display_column(analysis, lines, bytes, span.start)),
    }
}

#[cfg(test)]
mod tests {
    use mojiscope_core::DecodeErrorKind;

    use super::*;

    #[test]
    fn items_show_their_bytes() {
        let item = TraceItem {
            span: ByteSpan::new(0, 1),
            kind: TraceKind::Error(DecodeErrorKind::InvalidByte),
        };
        assert_eq!(
            describe_item(item, &[0x80]),
            "80  →  error: invalid byte (U+FFFD)"
        );
    }
}
