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
use crate::ui::decode_view::trace_items;

/// How many looked-up errors are kept before the cache starts afresh.
const CACHE_LIMIT: usize = 4096;

/// The error list's state: the errors looked up so far.
#[derive(Default)]
pub struct ErrorList {
    details: HashMap<u64, Option<(ByteSpan, DecodeErrorKind)>>,
}

/// The span and kind of the error that starts at `byte_offset`, from a
/// decode of just that window.
pub fn error_at(
    analysis: &EncodingAnalysis,
    bytes: &[u8],
    byte_offset: u64,
) -> Option<(ByteSpan, DecodeErrorKind)> {
    let window = ByteSpan::new(byte_offset, (byte_offset + 1).min(bytes.len() as u64));
    let trace = analysis.decode_window(bytes, window);
    trace_items(&trace).find_map(|item| match item.kind {
        mojiscope_core::TraceKind::Error(kind) if item.span.start == byte_offset => {
            Some((item.span, kind))
        }
        _ => None,
    })
}

/// The bytes of `span` as hex, at most eight of them.
pub fn hex_bytes(bytes: &[u8], span: ByteSpan) -> String {
    let start = usize::try_from(span.start).unwrap_or(usize::MAX);
    let end = usize::try_from(span.end).unwrap_or(usize::MAX);
    let slice = bytes.get(start..end.min(bytes.len())).unwrap_or_default();
    let mut text: Vec<String> = slice.iter().take(8).map(|b| format!("{b:02X}")).collect();
    if slice.len() > 8 {
        text.push("…".to_owned());
    }
    text.join(" ")
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
        let title = if analysis.error_offsets_truncated {
            format!("List the first {} ▾", offsets.len())
        } else {
            "List ▾".to_owned()
        };
        ui.menu_button(title, |ui| {
            ui.set_min_width(360.0);
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
                            .or_insert_with(|| error_at(analysis, ctx.bytes, byte_offset));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_bytes_are_capped_at_eight() {
        let bytes: Vec<u8> = (0..20).collect();
        assert_eq!(hex_bytes(&bytes, ByteSpan::new(1, 3)), "01 02");
        assert_eq!(
            hex_bytes(&bytes, ByteSpan::new(0, 10)),
            "00 01 02 03 04 05 06 07 …"
        );
        assert_eq!(hex_bytes(&bytes, ByteSpan::new(30, 31)), "");
    }
}
