//! A pane's error list: offset, bytes, kind, line and column of each
//! error, virtually scrolled, in a menu that opens over the pane (so that
//! the panes' rows stay side by side); clicking one selects its bytes.
//!
//! Lines come from the row index ([`LineIndex`]), which a huge file builds
//! in the background: an error past what it covers so far reads "line …"
//! until the index reaches it.

use std::collections::HashMap;

use eframe::egui::{ScrollArea, TextStyle, Ui};
use mojiscope_core::{ByteSpan, DecodeErrorKind};

use crate::model::analysis::EncodingAnalysis;
use crate::model::analysis::lines::LineIndex;
use crate::model::command::Command;
use crate::model::selection::{Selection, SelectionOrigin};
use crate::ui::PanelCtx;
use crate::ui::cells::hex_bytes;

/// How many looked-up errors are kept before the cache starts afresh.
const CACHE_LIMIT: usize = 4096;

/// Beyond this many bytes from its line's start, an error's column is
/// given in bytes (counting characters would decode that much each time).
const MAX_COLUMN_DECODE: u64 = 64 * 1024;

/// The error list's state: the errors looked up so far.
#[derive(Default)]
pub struct ErrorList {
    details: HashMap<u64, Option<(ByteSpan, DecodeErrorKind)>>,
    /// "line 12, col 7" of the errors whose line is known.
    places: HashMap<u64, String>,
}

/// Where byte `byte_offset` is, for people: "line 12, col 7" (the column
/// in characters of `analysis`'s decode, from 1), "line 12, byte 70001" on
/// a very long line, or `None` while `lines` does not reach it yet.
pub fn place_text(
    bytes: &[u8],
    analysis: &EncodingAnalysis,
    lines: &LineIndex,
    byte_offset: u64,
) -> Option<String> {
    let (line, start) = lines.line_of(byte_offset)?;
    let into = byte_offset - start;
    if into > MAX_COLUMN_DECODE || byte_offset > analysis.byte_len() {
        return Some(format!("line {line}, byte {}", into + 1));
    }
    let text = analysis
        .decode_window(bytes, ByteSpan::new(start, byte_offset))
        .text;
    Some(format!("line {line}, col {}", text.chars().count() + 1))
}

impl ErrorList {
    /// Shows a button that opens the list, if there are errors.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        ctx: &PanelCtx<'_>,
        pane: usize,
        analysis: &EncodingAnalysis,
        lines: Option<&LineIndex>,
        commands: &mut Vec<Command>,
    ) {
        let offsets = &analysis.error_offsets;
        if offsets.is_empty() {
            return;
        }
        ui.menu_button("List ▾", |ui| {
            ui.set_min_width(520.0);
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
                    if self.places.len() > CACHE_LIMIT {
                        self.places.clear();
                    }
                    for &byte_offset in offsets.get(rows).unwrap_or_default() {
                        let detail = *self
                            .details
                            .entry(byte_offset)
                            .or_insert_with(|| analysis.error_at(ctx.bytes, byte_offset));
                        if !self.places.contains_key(&byte_offset)
                            && let Some(place) = lines.and_then(|lines| {
                                place_text(ctx.bytes, analysis, lines, byte_offset)
                            })
                        {
                            self.places.insert(byte_offset, place);
                        }
                        let place = self
                            .places
                            .get(&byte_offset)
                            .map_or("line …", String::as_str);
                        let (span, text) = match detail {
                            Some((span, kind)) => (
                                span,
                                format!(
                                    "{byte_offset:#010X}  {:<11} {:<26} {place}",
                                    hex_bytes(ctx.bytes, span),
                                    kind.to_string()
                                ),
                            ),
                            None => (
                                ByteSpan::new(byte_offset, byte_offset + 1),
                                format!("{byte_offset:#010X}  {place}"),
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
