//! The inspector's Explain section: for the selected bytes, in each pane's
//! encoding, the decoder's steps as the standard states them, with the
//! numbers filled in, from the decoder state the whole-file decode had
//! there (the analysis's checkpoint before the selection).

use std::collections::HashMap;
use std::sync::Arc;

use eframe::egui::{CollapsingHeader, Label, RichText, Ui};
use mojiscope_core::{
    ByteSpan, Citation, Encoding, ExplainedItem, RangesLookup, StepKind, TraceKind,
};

use super::{citation_ui, describe_drawn, hex};
use crate::model::analysis::EncodingAnalysis;
use crate::theme::Palette;
use crate::ui::cells::describe_char;

/// The most items explained for one selection.
pub const MAX_EXPLAINED_ITEMS: usize = 64;

/// The most selected bytes explained (from the selection's start): enough
/// for [`MAX_EXPLAINED_ITEMS`] items of any decoder.
pub const MAX_EXPLAINED_BYTES: u64 = 256;

/// Bytes given to the decoder past the explained ones, so that an item
/// that starts in the selection is finished: more than the longest
/// sequence of any decoder.
const TAIL: u64 = 16;

/// The decoder's steps for a selection in one pane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectionExplanation {
    /// The encoding whose decoder is explained.
    pub encoding: &'static Encoding,
    /// The decoder's section of the standard.
    pub decoder_citation: Citation,
    /// The items overlapping the selection, at most
    /// [`MAX_EXPLAINED_ITEMS`].
    pub items: Vec<ExplainedItem>,
    /// Whether the selection has more than is explained.
    pub truncated: bool,
}

/// Explains the items of `analysis`'s decode that overlap `span` of
/// `bytes` (the analysed bytes), from the checkpoint before it: the
/// decoder goes through the bytes from the checkpoint to a little past the
/// selection (at most [`MAX_EXPLAINED_BYTES`] of it), narrating only the
/// items that reach it. `None` where the analysis has not reached the
/// selection yet.
pub fn explain_selection(
    analysis: &EncodingAnalysis,
    bytes: &[u8],
    span: ByteSpan,
) -> Option<SelectionExplanation> {
    let len = bytes.len() as u64;
    let end = span
        .end
        .min(span.start.saturating_add(MAX_EXPLAINED_BYTES))
        .min(len);
    let (checkpoint, decoder, limit) = analysis.decoder_at(span.start)?;
    let len = len.min(limit);
    let end = end.min(len);
    let input_end = len.min(end + TAIL);
    let input = bytes.get(usize::try_from(checkpoint).ok()?..usize::try_from(input_end).ok()?)?;
    let explanation = decoder.explain_span(input, input_end == len, ByteSpan::new(span.start, end));
    let mut items = explanation.items().to_vec();
    let truncated = items.len() > MAX_EXPLAINED_ITEMS || end < span.end;
    items.truncate(MAX_EXPLAINED_ITEMS);
    Some(SelectionExplanation {
        encoding: explanation.encoding(),
        decoder_citation: explanation.decoder_citation(),
        items,
        truncated,
    })
}

/// What an item came to, as the heading of its steps says it.
pub fn outcome_text(outcome: Option<TraceKind>) -> String {
    match outcome {
        Some(TraceKind::Scalar(c)) => describe_drawn(c),
        Some(TraceKind::Pair(first, second)) => format!(
            "{} + {} ({first}{second})",
            describe_char(first),
            describe_char(second)
        ),
        Some(TraceKind::Error(kind)) => format!("error: {kind} (U+FFFD in replacement mode)"),
        Some(TraceKind::Skip(reason)) => format!("nothing ({reason})"),
        None => "unfinished: the bytes end inside this sequence".to_owned(),
    }
}

/// Whether a step is where the decode goes wrong (drawn in the malformed
/// colour).
fn is_error_step(kind: &StepKind) -> bool {
    matches!(
        kind,
        StepKind::InvalidByte { .. }
            | StepKind::TrailingByte {
                in_range: false,
                ..
            }
            | StepKind::BothInRange {
                in_range: false,
                ..
            }
            | StepKind::IndexCodePoint {
                code_point: None,
                ..
            }
            | StepKind::RangesCodePoint {
                lookup: RangesLookup::Null,
                ..
            }
            | StepKind::Utf8OutOfBoundary { .. }
            | StepKind::UnpairedLeadingSurrogate { .. }
            | StepKind::LoneTrailingSurrogate { .. }
            | StepKind::EscapeOutput { output: true }
            | StepKind::NotEscapeSequence { .. }
            | StepKind::TrailingEscape
            | StepKind::Restore { .. }
            | StepKind::MaskedAtEnd { .. }
            | StepKind::EndOfQueue
            | StepKind::ReplacementErrorReturned { .. }
            | StepKind::Return(TraceKind::Error(_))
    )
}

/// Whether a step is arithmetic (drawn in monospace, so that the numbers
/// line up as written).
fn is_arithmetic(kind: &StepKind) -> bool {
    matches!(
        kind,
        StepKind::Offset { .. }
            | StepKind::Pointer(_)
            | StepKind::RangesCodePoint {
                lookup: RangesLookup::Range { .. },
                ..
            }
            | StepKind::UserDefinedArea { .. }
            | StepKind::HalfwidthKatakana { .. }
            | StepKind::XUserDefined { .. }
            | StepKind::Utf8Leading { .. }
            | StepKind::Utf8Continuation { .. }
            | StepKind::Utf8Pattern { .. }
            | StepKind::CodeUnit { .. }
            | StepKind::SurrogatePair { .. }
    )
}

/// The Explain sections' state: each pane's explanation, computed once per
/// selection and only while its section is open.
#[derive(Default)]
pub struct ExplainSection {
    cache: HashMap<usize, (Key, Option<SelectionExplanation>)>,
    /// The pane whose section Explain (the context menu) asked to open.
    open_request: Option<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    generation: u64,
    span: ByteSpan,
    analysis: usize,
}

impl ExplainSection {
    /// Forgets the explanations.
    pub fn reset(&mut self) {
        self.cache.clear();
    }

    /// Opens pane `pane`'s section at the next frame, and scrolls to it.
    pub fn request_open(&mut self, pane: usize) {
        self.open_request = Some(pane);
    }

    /// The explanation shown for pane `pane`, if its section was open.
    pub fn shown(&self, pane: usize) -> Option<&SelectionExplanation> {
        self.cache.get(&pane).and_then(|(_, shown)| shown.as_ref())
    }

    /// The collapsible section of pane `pane` for `span` of `bytes`.
    #[expect(clippy::too_many_arguments, reason = "one call site, in the inspector")]
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        palette: &Palette,
        pane: usize,
        generation: u64,
        analysis: &Arc<EncodingAnalysis>,
        bytes: &[u8],
        span: ByteSpan,
    ) {
        let title = format!(
            "Steps of the {} decoder",
            analysis.encoding_at(span.start).name()
        );
        let requested = self.open_request == Some(pane);
        if requested {
            self.open_request = None;
        }
        let shown = CollapsingHeader::new(title)
            .id_salt(("explain", pane))
            .open(requested.then_some(true))
            .show(ui, |ui| {
                let key = Key {
                    generation,
                    span,
                    analysis: Arc::as_ptr(analysis) as usize,
                };
                let cached = self.cache.get(&pane).filter(|(k, _)| *k == key);
                if cached.is_none() {
                    let explained = explain_selection(analysis, bytes, span);
                    self.cache.insert(pane, (key, explained));
                }
                match self.cache.get(&pane) {
                    Some((_, Some(explained))) => explanation_ui(ui, palette, explained, span),
                    _ => {
                        ui.label(
                            RichText::new(
                                "The analysis has not reached these bytes yet: wait for it.",
                            )
                            .color(palette.weak_fg),
                        );
                    }
                }
            });
        if requested {
            shown
                .header_response
                .scroll_to_me(Some(eframe::egui::Align::TOP));
            shown.header_response.request_focus();
        }
    }
}

fn explanation_ui(
    ui: &mut Ui,
    palette: &Palette,
    explained: &SelectionExplanation,
    span: ByteSpan,
) {
    ui.horizontal_wrapped(|ui| {
        ui.label(format!(
            "The {} decoder, as the Encoding Standard states it:",
            explained.encoding.name()
        ));
        let citation = explained.decoder_citation;
        citation_ui(ui, &citation, &citation.to_string());
    });
    if explained.truncated {
        ui.label(
            RichText::new(format!(
                "The selection is {} bytes: these are the steps for its first {} items \
                 (at most {MAX_EXPLAINED_BYTES} bytes). Select fewer bytes to see the rest.",
                span.len(),
                explained.items.len(),
            ))
            .color(palette.weak_fg),
        );
    }
    for item in &explained.items {
        ui.add_space(4.0);
        let is_error = matches!(item.outcome, Some(TraceKind::Error(_)));
        let heading = format!(
            "{} (bytes {:#X}..{:#X}) → {}",
            hex(&item.bytes),
            item.span.start,
            item.span.end,
            outcome_text(item.outcome)
        );
        let heading = RichText::new(heading).strong();
        ui.add(Label::new(if is_error {
            heading.color(palette.malformed_fg)
        } else {
            heading
        }));
        for step in &item.steps {
            ui.horizontal_wrapped(|ui| {
                citation_ui(ui, &step.citation, &step.citation.to_string());
                let mut text = RichText::new(step.kind.to_string());
                if is_arithmetic(&step.kind) {
                    text = text.monospace();
                }
                if is_error_step(&step.kind) {
                    text = text.color(palette.malformed_fg);
                }
                ui.add(Label::new(text).wrap());
            });
            if let Some(why) = step.see_also {
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new("Why: see the standard's").color(palette.weak_fg));
                    citation_ui(ui, &why, "Security background");
                    ui.label(
                        RichText::new(
                            "(a byte that cannot be masked keeps an error from swallowing \
                             the ASCII, such as a quote, that follows it)",
                        )
                        .color(palette.weak_fg),
                    );
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use mojiscope_core::{BomHandling, DecodeErrorKind, GB18030, SHIFT_JIS, UTF_8};

    use super::*;
    use crate::model::analysis::{CHECKPOINT_INTERVAL, analyse};

    fn analysed(bytes: &[u8], encoding: &'static Encoding) -> EncodingAnalysis {
        analyse(
            bytes,
            encoding,
            BomHandling::None,
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .unwrap()
    }

    fn step_texts(item: &ExplainedItem) -> Vec<String> {
        item.steps
            .iter()
            .map(|step| step.kind.to_string())
            .collect()
    }

    #[test]
    fn a_selection_is_explained_from_the_checkpoint_before_it() {
        // Far into the file, past two checkpoints: "あ" after a quote error.
        let mut bytes = b"x".repeat(2 * CHECKPOINT_INTERVAL as usize + 5);
        let start = bytes.len() as u64;
        bytes.extend_from_slice(b"\x82\xA0\x82\"z");
        let analysis = analysed(&bytes, SHIFT_JIS);
        let explained =
            explain_selection(&analysis, &bytes, ByteSpan::new(start, start + 4)).unwrap();
        assert_eq!(explained.encoding, SHIFT_JIS);
        assert!(!explained.truncated);
        assert_eq!(
            explained.decoder_citation.url(),
            "https://encoding.spec.whatwg.org/#shift_jis-decoder"
        );
        let spans: Vec<ByteSpan> = explained.items.iter().map(|item| item.span).collect();
        assert_eq!(
            spans,
            [
                ByteSpan::new(start, start + 2),
                ByteSpan::new(start + 2, start + 3),
                ByteSpan::new(start + 3, start + 4),
            ]
        );
        let [hiragana, error, quote] = &explained.items[..] else {
            unreachable!()
        };
        assert_eq!(hiragana.outcome, Some(TraceKind::Scalar('あ')));
        assert!(
            step_texts(hiragana)
                .contains(&"pointer = (0x82 − 0x81) × 188 + 0xA0 − 0x41 = 283".to_owned())
        );
        assert_eq!(
            error.outcome,
            Some(TraceKind::Error(DecodeErrorKind::InvalidTrail))
        );
        let restore = error
            .steps
            .iter()
            .find(|step| matches!(step.kind, StepKind::Restore { ascii: true, .. }))
            .expect("the quote is restored");
        assert_eq!(restore.see_also, Some(Citation::SECURITY_BACKGROUND));
        assert!(is_error_step(&restore.kind));
        assert_eq!(quote.outcome, Some(TraceKind::Scalar('"')));
    }

    #[test]
    fn a_selection_inside_a_sequence_explains_the_whole_sequence() {
        // The last byte of a gb18030 four-byte sequence, selected alone.
        let bytes = b"ab\x81\x30\x81\x30cd";
        let analysis = analysed(bytes, GB18030);
        let explained = explain_selection(&analysis, bytes, ByteSpan::new(5, 6)).unwrap();
        let [item] = &explained.items[..] else {
            panic!("{:?}", explained.items)
        };
        assert_eq!(item.span, ByteSpan::new(2, 6));
        assert_eq!(item.outcome, Some(TraceKind::Scalar('\u{80}')));
        assert!(item.steps.iter().any(|step| is_arithmetic(&step.kind)));
    }

    #[test]
    fn a_huge_selection_is_explained_in_part_and_says_so() {
        let bytes = "é".repeat(10_000).into_bytes();
        let analysis = analysed(&bytes, UTF_8);
        let span = ByteSpan::new(0, bytes.len() as u64);
        let explained = explain_selection(&analysis, &bytes, span).unwrap();
        assert!(explained.truncated);
        assert_eq!(explained.items.len(), MAX_EXPLAINED_ITEMS);
        assert_eq!(
            explained.items.last().map(|item| item.span),
            Some(ByteSpan::new(126, 128))
        );
        // A selection at the end is explained with the end of the input.
        let truncated = b"ok\xE3\x81";
        let analysis = analysed(truncated, UTF_8);
        let explained = explain_selection(&analysis, truncated, ByteSpan::new(3, 4)).unwrap();
        assert_eq!(
            explained.items[0].outcome,
            Some(TraceKind::Error(DecodeErrorKind::TruncatedSequence))
        );
        assert!(explain_selection(&analysis, truncated, ByteSpan::new(4, 5)).is_none());
    }

    #[test]
    fn outcomes_read_as_the_heading_says_them() {
        assert_eq!(
            outcome_text(Some(TraceKind::Scalar('あ'))),
            "U+3042 HIRAGANA LETTER A (あ)"
        );
        assert_eq!(
            outcome_text(Some(TraceKind::Scalar('\n'))),
            "U+000A <control> (LF)"
        );
        assert_eq!(
            outcome_text(None),
            "unfinished: the bytes end inside this sequence"
        );
    }
}
