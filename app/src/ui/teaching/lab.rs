//! Learn ▸ Mojibake lab: type text, then encode and decode it step by step
//! ("encode as UTF-8, decode as windows-1252"), and watch the mojibake
//! appear: each step's text or bytes, where an encoder could not encode a
//! character (and what html mode wrote instead), where a decoder met an
//! error (U+FFFD), and where fatal mode stops.
//!
//! Undoing the chain is the repair engine's work: the lab hands its final
//! text to [`propose_repairs`], which asks `core::repair`.

use std::ops::Range;

use eframe::egui::{
    Button, ComboBox, FontId, Frame, Label, RichText, ScrollArea, TextEdit, TextFormat, Ui,
    text::LayoutJob,
};
use mojiscope_core::repair;
use mojiscope_core::{
    BomHandling, DecodeErrorMode, EncodeErrorMode, Encoder, EncoderResult, Encoding, TraceItem,
    TraceKind, UTF_8, WINDOWS_1252,
};

use super::{View, encoding_menu_ui, hex};
use crate::model::repair::manual::steps_name;
use crate::model::wording::plural;
use crate::theme::Palette;
use crate::ui::cells::{CellKind, cell_of};

/// The most bytes or characters a stage shows.
const MAX_SHOWN: usize = 2048;

/// One step of a chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabStep {
    /// Encode the text with `encoding`'s encoder (that of its output
    /// encoding).
    Encode {
        /// The encoding.
        encoding: &'static Encoding,
        /// What to do with a character it cannot encode.
        mode: EncodeErrorMode,
    },
    /// Decode the bytes with `encoding`'s decoder, which sees every byte
    /// (no BOM sniffing).
    Decode {
        /// The encoding.
        encoding: &'static Encoding,
        /// What to do with an error.
        mode: DecodeErrorMode,
    },
}

impl LabStep {
    /// The step's encoding.
    pub fn encoding(self) -> &'static Encoding {
        match self {
            LabStep::Encode { encoding, .. } | LabStep::Decode { encoding, .. } => encoding,
        }
    }
}

/// Text, as a step left it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextStage {
    /// The text (with U+FFFD for each error).
    pub text: String,
    /// What each part of it is: a character, an error, or bytes that made
    /// nothing (an ISO-2022-JP escape sequence).
    pub items: Vec<TraceKind>,
    /// How many errors the decoder met.
    pub errors: usize,
}

/// Bytes, as a step left them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BytesStage {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// The encoding whose encoder wrote them (the output encoding of the
    /// one asked for).
    pub encoding: &'static Encoding,
    /// Where html mode wrote `&#N;` for a character the encoder cannot
    /// encode, and that character.
    pub references: Vec<(Range<usize>, char)>,
}

/// What one step of a chain gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Text (the typed text, or a decoder's output).
    Text(TextStage),
    /// Bytes (an encoder's output).
    Bytes(BytesStage),
    /// The step stopped the chain: why.
    Stopped(String),
}

impl Stage {
    /// The typed text, as the chain's first stage.
    pub fn typed(text: &str) -> Stage {
        Stage::Text(TextStage {
            text: text.to_owned(),
            items: text.chars().map(TraceKind::Scalar).collect(),
            errors: 0,
        })
    }
}

/// Runs `steps` on `text`: the stages, the typed text first, then one per
/// step, up to the first that stops the chain.
pub fn run(text: &str, steps: &[LabStep]) -> Vec<Stage> {
    let mut stages = vec![Stage::typed(text)];
    for &step in steps {
        let Some(before) = stages.last() else {
            break;
        };
        let next = match (before, step) {
            (Stage::Text(text), LabStep::Encode { encoding, mode }) => {
                encode(&text.text, encoding, mode)
            }
            (Stage::Bytes(bytes), LabStep::Decode { encoding, mode }) => {
                decode(&bytes.bytes, encoding, mode)
            }
            (Stage::Text(_), LabStep::Decode { .. }) => {
                Stage::Stopped("decoding needs bytes: encode the text first".to_owned())
            }
            (Stage::Bytes(_), LabStep::Encode { .. }) => {
                Stage::Stopped("encoding needs text: decode the bytes first".to_owned())
            }
            (Stage::Stopped(_), _) => break,
        };
        let stopped = matches!(next, Stage::Stopped(_));
        stages.push(next);
        if stopped {
            break;
        }
    }
    stages
}

fn encode(text: &str, encoding: &'static Encoding, mode: EncodeErrorMode) -> Stage {
    let mut encoder = Encoder::new(encoding, mode);
    let mut bytes = Vec::with_capacity(text.len());
    let mut references = Vec::new();
    let mut rest = text;
    loop {
        let before = bytes.len();
        let (result, read) = encoder.encode(rest, true, &mut bytes);
        rest = rest.get(read..).unwrap_or_default();
        match result {
            EncoderResult::InputEmpty => break,
            EncoderResult::Unmappable(unmappable) => {
                if mode == EncodeErrorMode::Fatal {
                    return Stage::Stopped(format!(
                        "fatal mode: {} (character {}) cannot be encoded in {}, so encoding \
                         stops here",
                        super::describe_drawn(unmappable.character),
                        unmappable.char_index + 1,
                        encoder.encoding().name()
                    ));
                }
                // Html mode wrote `&#N;` last, right after the bytes before it.
                let reference = format!("&#{};", u32::from(unmappable.reported)).len();
                let end = bytes.len();
                let start = end.saturating_sub(reference).max(before);
                references.push((start..end, unmappable.character));
            }
        }
    }
    Stage::Bytes(BytesStage {
        bytes,
        encoding: encoder.encoding(),
        references,
    })
}

fn decode(bytes: &[u8], encoding: &'static Encoding, mode: DecodeErrorMode) -> Stage {
    if mode == DecodeErrorMode::Fatal
        && let Err(error) = encoding.decode_fatal(bytes, BomHandling::None)
    {
        let start = usize::try_from(error.span.start).unwrap_or(usize::MAX);
        let end = usize::try_from(error.span.end).unwrap_or(usize::MAX);
        let error_bytes = bytes.get(start..end.min(bytes.len())).unwrap_or_default();
        return Stage::Stopped(format!(
            "fatal mode: {} decodes {} as an error ({error}), so decoding stops here",
            encoding.name(),
            hex(error_bytes)
        ));
    }
    let (trace, _) = encoding.decode_traced(bytes, BomHandling::None);
    let items: Vec<TraceKind> = trace.items().map(|item| item.kind).collect();
    let errors = items
        .iter()
        .filter(|kind| matches!(kind, TraceKind::Error(_)))
        .count();
    Stage::Text(TextStage {
        text: trace.text,
        items,
        errors,
    })
}

/// A fix the repair engine proposes for the lab's final text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProposedRepair {
    /// The chain it undoes, in words, the chains that mean the same to a
    /// user as one ("encoded as windows-1252, decoded as UTF-8").
    pub chain: String,
    /// The text the fix gives.
    pub text: String,
}

/// The repair engine's proposals for `text`, the lab's final text, best
/// first: what `core::repair` changes, and then, apart, what it is unsure of.
pub fn propose_repairs(text: &str) -> Vec<ProposedRepair> {
    let found = repair::repair(text);
    let describe = |changes: &[repair::Change]| {
        let mut chains: Vec<String> = Vec::new();
        for change in changes {
            let chain = steps_name(change.chain);
            if !chains.contains(&chain) {
                chains.push(chain);
            }
        }
        chains.join("; ")
    };
    let mut proposals = Vec::new();
    if !found.changes.is_empty() {
        proposals.push(ProposedRepair {
            chain: describe(&found.changes),
            text: found.apply(text),
        });
    }
    if !found.suggestions.is_empty() {
        proposals.push(ProposedRepair {
            chain: format!("unsure: {}", describe(&found.suggestions)),
            text: repair::apply_changes(text, &found.suggestions),
        });
    }
    proposals
}

/// The mojibake lab window.
pub struct MojibakeLab {
    text: String,
    steps: Vec<LabStep>,
    /// The stages of the chain, run again when the text or a step changes.
    stages: Vec<Stage>,
    /// The selection the text was sent from, for people ("pane 1, bytes
    /// 0x10..0x1A"), while "Apply back to the selection" may replace it.
    linked: Option<String>,
    /// "Apply back to the selection" was clicked.
    apply_back: bool,
}

impl Default for MojibakeLab {
    fn default() -> Self {
        let mut lab = Self {
            text: String::new(),
            steps: Vec::new(),
            stages: Vec::new(),
            linked: None,
            apply_back: false,
        };
        lab.set_chain(
            "été",
            vec![
                LabStep::Encode {
                    encoding: UTF_8,
                    mode: EncodeErrorMode::Html,
                },
                LabStep::Decode {
                    encoding: WINDOWS_1252,
                    mode: DecodeErrorMode::Replacement,
                },
            ],
        );
        lab
    }
}

impl MojibakeLab {
    /// Sets the text and the steps, and runs the chain.
    pub fn set_chain(&mut self, text: &str, steps: Vec<LabStep>) {
        text.clone_into(&mut self.text);
        self.steps = steps;
        self.rerun();
    }

    /// Sets the text and steps from a selection, which "Apply back to the
    /// selection" (named `linked` for people) then replaces.
    pub fn link(&mut self, text: &str, steps: Vec<LabStep>, linked: String) {
        self.set_chain(text, steps);
        self.linked = Some(linked);
        self.apply_back = false;
    }

    /// Forgets the selection the text came from.
    pub fn unlink(&mut self) {
        self.linked = None;
        self.apply_back = false;
    }

    /// Whether the text came from a selection that can be replaced.
    pub fn is_linked(&self) -> bool {
        self.linked.is_some()
    }

    /// If "Apply back to the selection" was clicked: the final text, and
    /// where its decoding errors put U+FFFD (UTF-8 offsets).
    pub fn take_apply_back(&mut self) -> Option<(String, Vec<usize>)> {
        if !std::mem::take(&mut self.apply_back) {
            return None;
        }
        let Some(Stage::Text(last)) = self.stages.last() else {
            return None;
        };
        let mut offset = 0;
        let mut errors = Vec::new();
        for kind in &last.items {
            match kind {
                TraceKind::Scalar(c) => offset += c.len_utf8(),
                TraceKind::Pair(a, b) => offset += a.len_utf8() + b.len_utf8(),
                TraceKind::Error(_) => {
                    errors.push(offset);
                    offset += char::REPLACEMENT_CHARACTER.len_utf8();
                }
                TraceKind::Skip(_) => {}
            }
        }
        Some((last.text.clone(), errors))
    }

    /// The steps, for people: "encode as windows-1252, decode as UTF-8".
    pub fn describe(&self) -> String {
        let steps: Vec<String> = self
            .steps
            .iter()
            .map(|step| match step {
                LabStep::Encode { encoding, .. } => format!("encode as {}", encoding.name()),
                LabStep::Decode { encoding, .. } => format!("decode as {}", encoding.name()),
            })
            .collect();
        if steps.is_empty() {
            "the text typed".to_owned()
        } else {
            steps.join(", ")
        }
    }

    /// Asks for the final text to be applied back, as the button does.
    pub fn request_apply_back(&mut self) {
        self.apply_back = self.linked.is_some();
    }

    fn apply_back_ui(&mut self, ui: &mut Ui, palette: &Palette) {
        let Some(linked) = &self.linked else {
            return;
        };
        ui.add_space(6.0);
        let text = matches!(self.stages.last(), Some(Stage::Text(_)));
        ui.horizontal_wrapped(|ui| {
            let button = ui
                .add_enabled(text, Button::new("Apply back to the selection"))
                .on_hover_text(format!(
                    "Put the last step's text in place of the selection it came from ({linked})"
                ))
                .on_disabled_hover_text("The chain must end with text: add a decode step");
            if button.clicked() {
                self.apply_back = true;
            }
            ui.label(RichText::new(format!("from {linked}")).color(palette.weak_fg));
        });
    }

    /// The stages: the typed text, then one per step run.
    pub fn stages(&self) -> &[Stage] {
        &self.stages
    }

    /// The steps.
    pub fn steps(&self) -> &[LabStep] {
        &self.steps
    }

    fn rerun(&mut self) {
        self.stages = run(&self.text, &self.steps);
    }

    /// The step the Add button adds: the opposite of the last one, with the
    /// encodings that undo the chain (encode as A, decode as B is undone by
    /// encode as B, decode as A); a first decode reads UTF-8 as
    /// windows-1252, the commonest mojibake.
    fn next_step(&self) -> LabStep {
        let last = self.steps.last().copied();
        // The encode that the decode to come undoes, two pairs back.
        let undone = self.steps.iter().rev().nth(2).copied();
        match last {
            Some(LabStep::Encode { encoding, .. }) => LabStep::Decode {
                encoding: match undone {
                    Some(step) => step.encoding(),
                    None if encoding == UTF_8 => WINDOWS_1252,
                    None => UTF_8,
                },
                mode: DecodeErrorMode::Replacement,
            },
            Some(LabStep::Decode { encoding, .. }) => LabStep::Encode {
                encoding: if encoding.has_encoder() {
                    encoding
                } else {
                    UTF_8
                },
                mode: EncodeErrorMode::Html,
            },
            None => LabStep::Encode {
                encoding: UTF_8,
                mode: EncodeErrorMode::Html,
            },
        }
    }

    fn step_ui(&mut self, ui: &mut Ui, position: usize) -> bool {
        let Some(step) = self.steps.get_mut(position) else {
            return false;
        };
        let before = *step;
        let number = position + 1;
        ui.horizontal_wrapped(|ui| match step {
            LabStep::Encode { encoding, mode } => {
                let label = ui.strong(format!("{number}. Encode as"));
                ComboBox::from_id_salt(("lab encoding", position))
                    .selected_text(encoding.name())
                    .height(600.0)
                    .show_ui(ui, |ui| {
                        encoding_menu_ui(ui, encoding, |e| e, Encoding::has_encoder);
                    })
                    .response
                    .labelled_by(label.id);
                let label = ui.label("in error mode");
                ComboBox::from_id_salt(("lab mode", position))
                    .selected_text(match mode {
                        EncodeErrorMode::Html => "html: write &#N;",
                        EncodeErrorMode::Fatal => "fatal: stop",
                    })
                    .show_ui(ui, |ui| {
                        ui.selectable_value(mode, EncodeErrorMode::Html, "html: write &#N;");
                        ui.selectable_value(mode, EncodeErrorMode::Fatal, "fatal: stop");
                    })
                    .response
                    .labelled_by(label.id);
            }
            LabStep::Decode { encoding, mode } => {
                let label = ui.strong(format!("{number}. Decode as"));
                ComboBox::from_id_salt(("lab encoding", position))
                    .selected_text(encoding.name())
                    .height(600.0)
                    .show_ui(ui, |ui| encoding_menu_ui(ui, encoding, |e| e, |_| true))
                    .response
                    .labelled_by(label.id);
                let label = ui.label("in error mode");
                ComboBox::from_id_salt(("lab mode", position))
                    .selected_text(match mode {
                        DecodeErrorMode::Replacement => "replacement: U+FFFD",
                        DecodeErrorMode::Fatal => "fatal: stop",
                    })
                    .show_ui(ui, |ui| {
                        ui.selectable_value(
                            mode,
                            DecodeErrorMode::Replacement,
                            "replacement: U+FFFD",
                        );
                        ui.selectable_value(mode, DecodeErrorMode::Fatal, "fatal: stop");
                    })
                    .response
                    .labelled_by(label.id);
            }
        });
        *step != before
    }

    fn chain_ui(&mut self, ui: &mut Ui, palette: &Palette) {
        let mut changed = false;
        Frame::group(ui.style()).show(ui, |ui| {
            ui.horizontal(|ui| {
                let label = ui.strong("Text:");
                changed |= ui
                    .add(TextEdit::singleline(&mut self.text).desired_width(f32::INFINITY))
                    .labelled_by(label.id)
                    .changed();
            });
            if let Some(stage) = self.stages.first() {
                stage_ui(ui, palette, stage);
            }
        });
        for position in 0..self.steps.len() {
            Frame::group(ui.style()).show(ui, |ui| {
                ui.set_width(ui.available_width());
                changed |= self.step_ui(ui, position);
                match self.stages.get(position + 1) {
                    Some(stage) => stage_ui(ui, palette, stage),
                    None => {
                        ui.label(
                            RichText::new("not run: an earlier step stopped the chain")
                                .color(palette.weak_fg),
                        );
                    }
                }
            });
        }
        ui.horizontal(|ui| {
            let next = self.next_step();
            let add = match next {
                LabStep::Encode { encoding, .. } => {
                    format!("Add step: encode as {}", encoding.name())
                }
                LabStep::Decode { encoding, .. } => {
                    format!("Add step: decode as {}", encoding.name())
                }
            };
            if ui.button(add).clicked() {
                self.steps.push(next);
                changed = true;
            }
            if ui
                .add_enabled(!self.steps.is_empty(), Button::new("Remove last step"))
                .clicked()
            {
                self.steps.pop();
                changed = true;
            }
        });
        if changed {
            self.rerun();
        }
    }

    fn repair_ui(&self, ui: &mut Ui, palette: &Palette) {
        let Some(Stage::Text(last)) = self.stages.last() else {
            return;
        };
        ui.add_space(6.0);
        ui.strong("Repair");
        match propose_repairs(&last.text) {
            proposals if proposals.is_empty() => {
                ui.label(
                    RichText::new(
                        "The repair engine finds nothing to undo (it changes nothing it is not \
                         sure of). Undo the chain by hand: add the opposite steps in the opposite \
                         order.",
                    )
                    .color(palette.weak_fg),
                );
            }
            proposals => {
                for proposal in proposals {
                    ui.label(format!("{}: {}", proposal.chain, proposal.text));
                }
            }
        }
    }
}

/// Draws a stage: text with errors and controls marked, or bytes with what
/// html mode wrote marked, or why the chain stopped.
fn stage_ui(ui: &mut Ui, palette: &Palette, stage: &Stage) {
    match stage {
        Stage::Text(text) => {
            ui.add(Label::new(text_job(ui, palette, text)).wrap());
            let characters = text.text.chars().count();
            let errors = match text.errors {
                0 => String::new(),
                1 => ", 1 error (U+FFFD, marked)".to_owned(),
                errors => format!(", {errors} errors (U+FFFD, marked)"),
            };
            let summary = format!("{}{errors}", plural(characters, "character", "characters"));
            ui.label(RichText::new(summary).small().color(palette.weak_fg));
        }
        Stage::Bytes(bytes) => {
            ui.add(Label::new(bytes_job(ui, palette, bytes)).wrap());
            let mut parts = vec![format!(
                "{} of {}",
                plural(bytes.bytes.len(), "byte", "bytes"),
                bytes.encoding.name()
            )];
            for (range, c) in &bytes.references {
                let written = bytes.bytes.get(range.clone()).unwrap_or_default();
                parts.push(format!(
                    "{} cannot be encoded: html mode wrote {} (marked)",
                    super::describe_drawn(*c),
                    String::from_utf8_lossy(written)
                ));
            }
            let summary = parts.join("; ");
            ui.add(Label::new(RichText::new(summary).small().color(palette.weak_fg)).wrap());
        }
        Stage::Stopped(why) => {
            ui.add(Label::new(RichText::new(why).color(palette.malformed_fg)).wrap());
        }
    }
}

fn text_job(ui: &Ui, palette: &Palette, text: &TextStage) -> LayoutJob {
    let mut job = LayoutJob::default();
    let font = FontId::proportional(20.0);
    let small = FontId::proportional(12.0);
    let normal = ui.visuals().strong_text_color();
    for kind in text.items.iter().take(MAX_SHOWN) {
        let cell = cell_of(TraceItem {
            span: mojiscope_core::ByteSpan::new(0, 0),
            kind: *kind,
        });
        let format = match cell.kind {
            CellKind::Text | CellKind::LiteralReplacement => {
                TextFormat::simple(font.clone(), normal)
            }
            CellKind::Control | CellKind::Skip(_) => TextFormat {
                background: palette.control_bg,
                ..TextFormat::simple(small.clone(), palette.control_fg)
            },
            CellKind::Malformed(_) | CellKind::Lost => TextFormat {
                background: palette.malformed_bg,
                ..TextFormat::simple(font.clone(), palette.malformed_fg)
            },
        };
        job.append(&cell.text, 0.0, format);
    }
    if text.items.len() > MAX_SHOWN {
        job.append(
            " …",
            0.0,
            TextFormat::simple(small.clone(), palette.weak_fg),
        );
    }
    if text.items.is_empty() {
        job.append("(no text)", 0.0, TextFormat::simple(small, palette.weak_fg));
    }
    job
}

fn bytes_job(ui: &Ui, palette: &Palette, bytes: &BytesStage) -> LayoutJob {
    let mut job = LayoutJob::default();
    let font = FontId::monospace(14.0);
    let normal = ui.visuals().strong_text_color();
    for (position, byte) in bytes.bytes.iter().enumerate().take(MAX_SHOWN) {
        let in_reference = bytes
            .references
            .iter()
            .any(|(range, _)| range.contains(&position));
        let format = if in_reference {
            TextFormat {
                background: palette.unmappable_bg,
                ..TextFormat::simple(font.clone(), normal)
            }
        } else {
            TextFormat::simple(font.clone(), normal)
        };
        if position > 0 {
            job.append(" ", 0.0, TextFormat::simple(font.clone(), normal));
        }
        job.append(&format!("{byte:02X}"), 0.0, format);
    }
    if bytes.bytes.len() > MAX_SHOWN {
        job.append(" …", 0.0, TextFormat::simple(font, palette.weak_fg));
    } else if bytes.bytes.is_empty() {
        job.append("(no bytes)", 0.0, TextFormat::simple(font, palette.weak_fg));
    }
    job
}

impl View for MojibakeLab {
    fn name(&self) -> &'static str {
        "Mojibake lab"
    }

    fn ui(&mut self, ui: &mut Ui) {
        let palette = Palette::for_theme(ui.ctx().theme());
        ui.label(
            RichText::new(
                "Encode text as one encoding and decode it as another, as many times as you \
                 like. Decoders see every byte (no BOM sniffing).",
            )
            .color(palette.weak_fg),
        );
        ScrollArea::vertical()
            .id_salt("lab stages")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                self.chain_ui(ui, palette);
                self.apply_back_ui(ui, palette);
                self.repair_ui(ui, palette);
            });
    }
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{DecodeErrorKind, ISO_2022_JP, SHIFT_JIS};

    use super::*;

    fn encode_as(encoding: &'static Encoding) -> LabStep {
        LabStep::Encode {
            encoding,
            mode: EncodeErrorMode::Html,
        }
    }

    fn decode_as(encoding: &'static Encoding) -> LabStep {
        LabStep::Decode {
            encoding,
            mode: DecodeErrorMode::Replacement,
        }
    }

    fn last_text(stages: &[Stage]) -> &TextStage {
        match stages.last() {
            Some(Stage::Text(text)) => text,
            other => panic!("not text: {other:?}"),
        }
    }

    #[test]
    fn utf8_read_as_windows_1252_is_mojibake_and_the_opposite_chain_undoes_it() {
        let stages = run("été", &[encode_as(UTF_8), decode_as(WINDOWS_1252)]);
        let Stage::Bytes(bytes) = &stages[1] else {
            panic!("{stages:?}")
        };
        assert_eq!(bytes.bytes, b"\xC3\xA9t\xC3\xA9");
        assert_eq!(last_text(&stages).text, "Ã©tÃ©");
        assert_eq!(last_text(&stages).errors, 0);
        let undone = run("Ã©tÃ©", &[encode_as(WINDOWS_1252), decode_as(UTF_8)]);
        assert_eq!(last_text(&undone).text, "été");
        // Twice over: the classic double mojibake.
        let twice = run(
            "été",
            &[
                encode_as(UTF_8),
                decode_as(WINDOWS_1252),
                encode_as(UTF_8),
                decode_as(WINDOWS_1252),
            ],
        );
        assert_eq!(last_text(&twice).text, "ÃƒÂ©tÃƒÂ©");
    }

    #[test]
    fn windows_1252_bytes_read_as_utf8_are_errors() {
        let stages = run("été", &[encode_as(WINDOWS_1252), decode_as(UTF_8)]);
        let text = last_text(&stages);
        assert_eq!(text.text, "\u{FFFD}t\u{FFFD}");
        assert_eq!(text.errors, 2);
        assert_eq!(
            text.items[0],
            TraceKind::Error(DecodeErrorKind::UnexpectedByte)
        );
        // Fatal mode stops at the first.
        let fatal = run(
            "été",
            &[
                encode_as(WINDOWS_1252),
                LabStep::Decode {
                    encoding: UTF_8,
                    mode: DecodeErrorMode::Fatal,
                },
            ],
        );
        let Some(Stage::Stopped(why)) = fatal.last() else {
            panic!("{fatal:?}")
        };
        assert!(why.contains("decodes E9 as an error"), "{why}");
    }

    #[test]
    fn html_mode_writes_references_and_fatal_mode_stops() {
        let stages = run("a☃b", &[encode_as(WINDOWS_1252)]);
        let Stage::Bytes(bytes) = &stages[1] else {
            panic!("{stages:?}")
        };
        assert_eq!(bytes.bytes, b"a&#9731;b");
        assert_eq!(bytes.references, [(1..8, '☃')]);
        // ISO-2022-JP returns to ASCII before the reference.
        let stages = run("あ☃", &[encode_as(ISO_2022_JP)]);
        let Stage::Bytes(bytes) = &stages[1] else {
            panic!("{stages:?}")
        };
        assert_eq!(bytes.bytes, b"\x1B$B\x24\x22\x1B(B&#9731;");
        let (range, c) = &bytes.references[0];
        assert_eq!((&bytes.bytes[range.clone()], *c), (&b"&#9731;"[..], '☃'));
        let fatal = run(
            "a☃b",
            &[
                LabStep::Encode {
                    encoding: SHIFT_JIS,
                    mode: EncodeErrorMode::Fatal,
                },
                decode_as(SHIFT_JIS),
            ],
        );
        assert_eq!(fatal.len(), 2);
        let Stage::Stopped(why) = &fatal[1] else {
            panic!("{fatal:?}")
        };
        assert!(
            why.contains("U+2603 SNOWMAN (☃) (character 2) cannot be encoded in Shift_JIS"),
            "{why}"
        );
    }

    #[test]
    fn steps_out_of_turn_stop_the_chain() {
        let stages = run("x", &[decode_as(UTF_8), encode_as(UTF_8)]);
        assert_eq!(stages.len(), 2);
        assert!(matches!(&stages[1], Stage::Stopped(why) if why.contains("needs bytes")));
    }

    #[test]
    fn the_next_step_offered_undoes_the_last_two() {
        let mut lab = MojibakeLab::default();
        assert_eq!(last_text(lab.stages()).text, "Ã©tÃ©");
        assert_eq!(lab.next_step(), encode_as(WINDOWS_1252));
        lab.steps.push(lab.next_step());
        assert_eq!(lab.next_step(), decode_as(UTF_8));
        lab.steps.push(lab.next_step());
        lab.rerun();
        assert_eq!(last_text(lab.stages()).text, "été");
        let proposals = propose_repairs("Ã©tÃ©");
        assert_eq!(proposals[0].text, "été");
        assert_eq!(
            proposals[0].chain,
            "encoded as windows-1252, decoded as UTF-8"
        );
        assert_eq!(propose_repairs("été"), []);
        lab.set_chain("x", vec![encode_as(UTF_8)]);
        assert_eq!(lab.next_step(), decode_as(WINDOWS_1252));
    }
}
