//! The decoder's steps for a short run of bytes, as data: which step of the
//! standard each byte goes through, with the numbers filled in (the offsets,
//! the pointer arithmetic, the index entry, the error and why).
//!
//! The steps come from the code that decodes. Each byte is handed to the
//! real handler (its `handle`), whose result drives the items, as the
//! decoder's driver does; alongside, a *narrator* per decoder reads the same
//! state, computes the step's numbers with the same functions the handler
//! calls (`shift_jis::pointer`, `jis0208::code_point`, ...) and says what the
//! handler returns. Then the whole input is decoded once more by a clone of
//! the real [`Decoder`], and each explained item takes its outcome (scalar
//! value, error kind, span) from that decode. The tests check that the
//! narration's conclusion, the replay and the real decode agree for every
//! pair of bytes of every encoding.

mod big5;
mod euc_jp;
mod euc_kr;
mod gb18030;
mod iso_2022_jp;
mod replacement;
mod shift_jis;
mod single_byte;
mod step;
mod utf_16;
mod utf_8;
mod x_user_defined;

use std::fmt;

pub use self::step::{
    Boundary, Citation, Document, PointerFormula, RangesLookup, Step, StepKind, Value, Variable,
};
use crate::bom;
use crate::codec::DecoderCodec;
use crate::decoder::{
    BomHandling, DecodeErrorMode, Decoder, DecoderResult, Handler, Resume, Step as HandlerStep,
};
use crate::encoding::{Encoding, UTF_8};
use crate::provenance::{ByteSpan, DecodeErrorKind, DecodeSink, SkipReason, TraceKind};

/// One item of an explained decode: its bytes, what the decoder made of
/// them, and the steps that got it there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplainedItem {
    /// The bytes of the item, as offsets into the decoder's input (an item
    /// may begin before the explained bytes, when the decoder was in the
    /// middle of a sequence).
    pub span: ByteSpan,
    /// The bytes themselves.
    pub bytes: Vec<u8>,
    /// What the decoder produced from them, taken from a real decode of the
    /// same bytes; `None` when the input ends in the middle of the item and
    /// more may follow (it was explained with `last` false).
    pub outcome: Option<TraceKind>,
    /// The steps, in order, each once per byte handed to the handler; bytes
    /// restored to the input go through the steps again in the next item.
    pub steps: Vec<Step>,
    /// Not public: whether the narration, the replay and the real decode
    /// agree on this item.
    agrees: bool,
}

impl ExplainedItem {
    /// The steps as text, one line each.
    pub fn steps_text(&self) -> String {
        let mut text = String::new();
        for step in &self.steps {
            text.push_str(&step.to_string());
            text.push('\n');
        }
        text
    }
}

impl fmt::Display for ExplainedItem {
    /// A heading line (the bytes, their offsets and the outcome), then one
    /// indented line per step.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (position, byte) in self.bytes.iter().enumerate() {
            if position > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{byte:02X}")?;
        }
        write!(f, " (bytes {}) → ", self.span)?;
        match self.outcome {
            Some(TraceKind::Scalar(c)) => write!(f, "{}", step::CodePoint(c)),
            Some(TraceKind::Pair(first, second)) => write!(
                f,
                "U+{:04X} U+{:04X} ({first}{second})",
                u32::from(first),
                u32::from(second)
            ),
            Some(TraceKind::Error(kind)) => {
                write!(f, "error: {kind} (U+FFFD in replacement mode)")
            }
            Some(TraceKind::Skip(reason)) => write!(f, "nothing ({reason})"),
            None => f.write_str("unfinished: the input ends inside this sequence"),
        }?;
        for step in &self.steps {
            write!(f, "\n  {step}")?;
        }
        Ok(())
    }
}

/// A decoder's steps for some bytes, item by item.
///
/// Get one from [`Encoding::explain`] (the encoding's decoder from its
/// initial state), or from [`Decoder::explain`] and
/// [`Decoder::explain_span`] (a decoder in any state, such as a checkpoint
/// of a longer decode).
///
/// `Display` renders it as plain text: a heading naming the decoder and its
/// section of the standard, then each item and its steps.
///
/// ```
/// use mojiscope_core::{SHIFT_JIS, StepKind, TraceKind};
///
/// let explanation = SHIFT_JIS.explain(b"\x82\xA0");
/// let item = &explanation.items()[0];
/// assert_eq!(item.outcome, Some(TraceKind::Scalar('あ')));
/// let pointer = item.steps.iter().find(|step| matches!(step.kind, StepKind::Pointer(_)));
/// assert_eq!(
///     pointer.map(ToString::to_string).as_deref(),
///     Some("[3.6] pointer = (0x82 − 0x81) × 188 + 0xA0 − 0x41 = 283")
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    encoding: &'static Encoding,
    items: Vec<ExplainedItem>,
    /// Not public: whether the replay found as many items as the real decode.
    complete: bool,
}

impl Explanation {
    /// The encoding whose decoder was explained (after BOM sniffing, the
    /// one the byte order mark picked).
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// The explained items, in input order.
    pub fn items(&self) -> &[ExplainedItem] {
        &self.items
    }

    /// The section of the standard that defines the decoder, e.g.
    /// `https://encoding.spec.whatwg.org/#shift_jis-decoder`.
    pub fn decoder_citation(&self) -> Citation {
        Citation::standard(decoder_anchor(self.encoding), "")
    }

    /// Whether every item's narration, its replay through the handler and
    /// the real decode agree (the tests check that they always do).
    #[cfg(test)]
    pub(crate) fn agrees(&self) -> bool {
        self.complete && self.items.iter().all(|item| item.agrees)
    }
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let citation = self.decoder_citation();
        write!(f, "{} decoder ({})", self.encoding, citation.url())?;
        for item in &self.items {
            write!(f, "\n{item}")?;
        }
        Ok(())
    }
}

impl Encoding {
    /// The steps of this encoding's decoder for `bytes`, from its initial
    /// state, without BOM handling (the decoder sees every byte), and with
    /// the end of `bytes` as the end of the input.
    ///
    /// ```
    /// use mojiscope_core::UTF_8;
    ///
    /// let text = UTF_8.explain(b"\xE3\x81\x81").to_string();
    /// assert!(text.contains("[3] 0xE3 = 1110 0011 begins a sequence of 3 bytes (1110xxxx)"));
    /// assert!(text.contains("1110.0011 10.000001 10.000001 carries 0011 000001 000001 = U+3041 (ぁ)"));
    /// ```
    pub fn explain(&'static self, bytes: &[u8]) -> Explanation {
        Decoder::new(self, DecodeErrorMode::Replacement, BomHandling::None).explain(bytes, true)
    }
}

impl Decoder {
    /// The steps this decoder would take for `input` (with `last` as for
    /// [`decode`](Self::decode)), from the state it is in. The decoder
    /// itself is not changed.
    ///
    /// If bytes before `input` left a sequence pending, the first item
    /// begins before `input` and its first step says so. Items are
    /// explained whatever the error mode.
    pub fn explain(&self, input: &[u8], last: bool) -> Explanation {
        self.explain_span(input, last, ByteSpan::new(0, u64::MAX))
    }

    /// Like [`explain`](Self::explain), but only the items whose bytes
    /// overlap `span` (offsets into the decoder's input, as item spans are;
    /// an empty span stands for the item that contains `span.start`). For a
    /// selection in a long decode: take the checkpoint before it, and give
    /// the bytes from there to a little past the selection.
    ///
    /// ```
    /// use mojiscope_core::{BomHandling, ByteSpan, DecodeErrorMode, Decoder, TraceKind, EUC_KR};
    ///
    /// let mut decoder = Decoder::new(EUC_KR, DecodeErrorMode::Replacement, BomHandling::None);
    /// // A checkpoint after the first two bytes ("가" is 0xB0 0xA1).
    /// let bytes = b"\xB0\xA1\xB0\xA1A";
    /// let _ = decoder.decode(&bytes[..2], false, &mut String::new());
    /// let explanation = decoder.explain_span(&bytes[2..], true, ByteSpan::new(3, 3));
    /// let [item] = explanation.items() else { panic!() };
    /// assert_eq!(item.span, ByteSpan::new(2, 4));
    /// assert_eq!(item.outcome, Some(TraceKind::Scalar('가')));
    /// ```
    pub fn explain_span(&self, input: &[u8], last: bool, span: ByteSpan) -> Explanation {
        let span = if span.is_empty() {
            ByteSpan::new(span.start, span.start.saturating_add(1))
        } else {
            span
        };
        let resume = self.resume();
        let mut queue = Vec::with_capacity(resume.carry.len() + resume.unread.len() + input.len());
        queue.extend_from_slice(resume.carry);
        queue.extend_from_slice(resume.unread);
        queue.extend_from_slice(input);
        let replay = Replay {
            queue: &queue,
            start: resume.start,
            last,
            span,
        };
        let (encoding, walked) = replay.run(&resume);
        let real = self.real_items(input, last, span);
        let complete = real.len() == walked.iter().filter(|w| w.kind.is_some()).count();
        let mut real = real.into_iter();
        let items = walked
            .into_iter()
            .map(|walked| {
                let (outcome, agrees) = match walked.kind {
                    None => (None, walked.agrees),
                    Some(kind) => match real.next() {
                        Some((real_span, real_kind)) => (
                            Some(real_kind),
                            walked.agrees && real_span == walked.span && real_kind == kind,
                        ),
                        None => (Some(kind), false),
                    },
                };
                ExplainedItem {
                    span: walked.span,
                    bytes: walked.bytes,
                    outcome,
                    steps: walked.steps,
                    agrees,
                }
            })
            .collect();
        Explanation {
            encoding,
            items,
            complete,
        }
    }

    /// The items a clone of this decoder reports for `input` that overlap
    /// `span`, fatal mode's errors included.
    fn real_items(&self, input: &[u8], last: bool, span: ByteSpan) -> Vec<(ByteSpan, TraceKind)> {
        let mut decoder = self.clone();
        let mut recorder = Recorder {
            span,
            items: Vec::new(),
        };
        let mut rest = input;
        loop {
            let (result, read) = decoder.decode(rest, last, &mut recorder);
            rest = rest.get(read..).unwrap_or_default();
            match result {
                DecoderResult::InputEmpty => break,
                DecoderResult::Malformed { kind, span } => recorder.error(kind, span),
            }
        }
        recorder.items
    }
}

/// Whether two spans share a byte.
fn overlaps(a: ByteSpan, b: ByteSpan) -> bool {
    a.start < b.end && b.start < a.end
}

/// Records the items of a real decode that overlap a span.
struct Recorder {
    span: ByteSpan,
    items: Vec<(ByteSpan, TraceKind)>,
}

impl Recorder {
    fn push(&mut self, span: ByteSpan, kind: TraceKind) {
        if overlaps(span, self.span) {
            self.items.push((span, kind));
        }
    }
}

impl DecodeSink for Recorder {
    fn ascii(&mut self, run: &[u8], start: u64) {
        for (position, &byte) in run.iter().enumerate() {
            let byte_offset = start + position as u64;
            self.push(
                ByteSpan::new(byte_offset, byte_offset + 1),
                TraceKind::Scalar(char::from(byte)),
            );
        }
    }

    fn scalar(&mut self, c: char, span: ByteSpan) {
        self.push(span, TraceKind::Scalar(c));
    }

    fn scalar_pair(&mut self, first: char, second: char, span: ByteSpan) {
        self.push(span, TraceKind::Pair(first, second));
    }

    fn error(&mut self, kind: DecodeErrorKind, span: ByteSpan) {
        self.push(span, TraceKind::Error(kind));
    }

    fn skip(&mut self, reason: SkipReason, span: ByteSpan) {
        self.push(span, TraceKind::Skip(reason));
    }
}

/// An item as the replay found it.
struct Walked {
    span: ByteSpan,
    bytes: Vec<u8>,
    /// What the handler returned; `None` for an unfinished item.
    kind: Option<TraceKind>,
    steps: Vec<Step>,
    /// Whether the narrator said what the handler returned, at every byte.
    agrees: bool,
}

/// The replay of a decoder over its pending bytes and the input, byte by
/// byte through the handler, as the driver hands them over (without its
/// fast paths), with each byte narrated.
struct Replay<'a> {
    /// The bytes from the start of the pending item on: the decoder's carry,
    /// the bytes it holds unread, then the input.
    queue: &'a [u8],
    /// Offset of `queue[0]`.
    start: u64,
    last: bool,
    /// Only items overlapping this are kept.
    span: ByteSpan,
}

impl Replay<'_> {
    /// Runs BOM sniffing if it is still to do, then the handler; returns the
    /// encoding decoded and the items.
    fn run(&self, resume: &Resume<'_>) -> (&'static Encoding, Vec<Walked>) {
        let mut walked = Vec::new();
        let Some(handling) = resume.sniffing else {
            self.walk_codec(
                resume.codec,
                resume.encoding,
                resume.carry_read,
                &mut walked,
            );
            return (resume.encoding, walked);
        };
        // The decoder's BOM sniffing (see `Decoder::decode`), before anything
        // reaches the handler: the carry is empty.
        let seen = &self.queue[..self.queue.len().min(3)];
        if !self.last && bom::is_strict_prefix(seen) {
            let span = ByteSpan::new(self.start, self.start + self.queue.len() as u64);
            if overlaps(span, self.span) {
                walked.push(Walked {
                    span,
                    bytes: self.queue.to_vec(),
                    kind: None,
                    steps: vec![Step {
                        citation: Citation::standard("bom-sniff", "1"),
                        see_also: None,
                        kind: StepKind::BomUndecided {
                            bytes: self.queue.to_vec(),
                        },
                    }],
                    agrees: true,
                });
            }
            return (resume.encoding, walked);
        }
        let found =
            bom::bom_sniff(seen).filter(|found| handling == BomHandling::Sniff || *found == UTF_8);
        let Some(found) = found else {
            self.walk_codec(resume.codec, resume.encoding, 0, &mut walked);
            return (resume.encoding, walked);
        };
        let bom_len = bom::bom_length(found);
        let span = ByteSpan::new(self.start, self.start + bom_len as u64);
        if overlaps(span, self.span) {
            let bytes = self.queue[..bom_len].to_vec();
            let citation = if handling == BomHandling::Sniff {
                Citation::standard("decode", "1-2")
            } else {
                Citation::standard("utf-8-decode", "1-2")
            };
            walked.push(Walked {
                span,
                bytes: bytes.clone(),
                kind: Some(TraceKind::Skip(SkipReason::Bom)),
                steps: vec![
                    Step {
                        citation,
                        see_also: Some(Citation::standard("bom-sniff", "")),
                        kind: StepKind::ByteOrderMark {
                            bytes,
                            encoding: found,
                        },
                    },
                    Step {
                        citation,
                        see_also: None,
                        kind: StepKind::Return(TraceKind::Skip(SkipReason::Bom)),
                    },
                ],
                agrees: true,
            });
        }
        let rest = Replay {
            queue: &self.queue[bom_len..],
            start: self.start + bom_len as u64,
            ..*self
        };
        rest.walk_codec(&DecoderCodec::new(found), found, 0, &mut walked);
        (found, walked)
    }

    /// Replays a copy of `codec`'s handler, which has read the first `read`
    /// bytes of the queue.
    fn walk_codec(
        &self,
        codec: &DecoderCodec,
        encoding: &'static Encoding,
        read: usize,
        walked: &mut Vec<Walked>,
    ) {
        match codec {
            DecoderCodec::Utf8(h) => self.walk(h.clone(), encoding, read, walked),
            DecoderCodec::SingleByte(h) => self.walk(h.clone(), encoding, read, walked),
            DecoderCodec::Gb18030(h) => self.walk(h.clone(), encoding, read, walked),
            DecoderCodec::Big5(h) => self.walk(h.clone(), encoding, read, walked),
            DecoderCodec::EucJp(h) => self.walk(h.clone(), encoding, read, walked),
            DecoderCodec::Iso2022Jp(h) => self.walk(h.clone(), encoding, read, walked),
            DecoderCodec::ShiftJis(h) => self.walk(h.clone(), encoding, read, walked),
            DecoderCodec::EucKr(h) => self.walk(h.clone(), encoding, read, walked),
            DecoderCodec::Replacement(h) => self.walk(*h, encoding, read, walked),
            DecoderCodec::Utf16(h) => self.walk(h.clone(), encoding, read, walked),
            DecoderCodec::XUserDefined(h) => self.walk(*h, encoding, read, walked),
        }
    }

    /// The driver's loop (see `Driver::run`), one byte at a time: each byte
    /// goes to the narrator and then to the handler; the handler's result
    /// ends items and restores bytes.
    fn walk<H: Narrate>(
        &self,
        handler: H,
        encoding: &'static Encoding,
        read: usize,
        walked: &mut Vec<Walked>,
    ) {
        let queue = self.queue;
        let (mut handler, mut item_start, mut cursor) = self.skip_to_span(handler, read);
        let mut narration = Narration {
            anchor: H::ANCHOR,
            encoding,
            steps: Vec::new(),
        };
        if cursor > item_start {
            narration.push(
                "",
                StepKind::StateBefore {
                    bytes: queue[item_start..cursor].to_vec(),
                    variables: handler.variables(),
                },
            );
        }
        let offset = |position: usize| self.start + position as u64;
        let mut agrees = true;
        loop {
            if offset(item_start) >= self.span.end {
                return;
            }
            let (real, narrated) = if let Some(&byte) = queue.get(cursor) {
                cursor += 1;
                let narrated = handler.narrate(byte, &mut narration);
                (handler.handle(byte), narrated)
            } else if self.last {
                let narrated = handler.narrate_end(&mut narration);
                (handler.handle_end(), narrated)
            } else {
                break;
            };
            agrees &= real == narrated;
            let kind = match real {
                HandlerStep::Continue => continue,
                HandlerStep::Finished => break,
                HandlerStep::Scalar(c) => TraceKind::Scalar(c),
                HandlerStep::Pair(first, second) => TraceKind::Pair(first, second),
                HandlerStep::Skip(reason) => TraceKind::Skip(reason),
                HandlerStep::Error { kind, restore } => {
                    cursor = cursor.saturating_sub(usize::from(restore)).max(item_start);
                    TraceKind::Error(kind)
                }
            };
            let span = ByteSpan::new(offset(item_start), offset(cursor));
            let steps = std::mem::take(&mut narration.steps);
            if overlaps(span, self.span) {
                walked.push(Walked {
                    span,
                    bytes: queue[item_start..cursor].to_vec(),
                    kind: Some(kind),
                    steps,
                    agrees,
                });
            }
            item_start = cursor;
            agrees = true;
        }
        // The input ended inside an item that more bytes may finish.
        let span = ByteSpan::new(offset(item_start), offset(queue.len()));
        if !span.is_empty() && overlaps(span, self.span) {
            walked.push(Walked {
                span,
                bytes: queue[item_start..].to_vec(),
                kind: None,
                steps: narration.steps,
                agrees,
            });
        }
    }
}

impl Replay<'_> {
    /// Not narrated: runs the handler (which has read `read` bytes of the
    /// queue) over the items that end before the span, and returns it as it
    /// was at the start of the first item that reaches the span, with that
    /// item's start and the position of the next byte to hand it.
    fn skip_to_span<H: Handler + Clone>(&self, mut handler: H, read: usize) -> (H, usize, usize) {
        let mut item = (handler.clone(), 0, read);
        let mut cursor = read;
        loop {
            let step = if let Some(&byte) = self.queue.get(cursor) {
                cursor += 1;
                handler.handle(byte)
            } else if self.last {
                handler.handle_end()
            } else {
                return item;
            };
            match step {
                HandlerStep::Continue => continue,
                HandlerStep::Finished => return item,
                HandlerStep::Error { restore, .. } => {
                    cursor = cursor.saturating_sub(usize::from(restore)).max(item.1);
                }
                HandlerStep::Scalar(_) | HandlerStep::Pair(..) | HandlerStep::Skip(_) => {}
            }
            // An item ends at `cursor`.
            if self.start + cursor as u64 > self.span.start {
                return item;
            }
            item = (handler.clone(), cursor, cursor);
        }
    }
}

/// The steps said so far for the current item.
pub(crate) struct Narration {
    /// The anchor of the decoder's section, which its steps cite.
    anchor: &'static str,
    /// The encoding decoded.
    encoding: &'static Encoding,
    steps: Vec<Step>,
}

impl Narration {
    /// A step of the decoder's algorithm, numbered as the standard numbers it.
    fn push(&mut self, number: &'static str, kind: StepKind) {
        self.steps.push(Step {
            citation: Citation::standard(self.anchor, number),
            see_also: None,
            kind,
        });
    }

    /// A step of the decoder's algorithm with another section that says why.
    fn push_see_also(&mut self, number: &'static str, kind: StepKind, see_also: Citation) {
        self.steps.push(Step {
            citation: Citation::standard(self.anchor, number),
            see_also: Some(see_also),
            kind,
        });
    }

    /// A step stated in another document.
    fn push_cited(&mut self, citation: Citation, kind: StepKind) {
        self.steps.push(Step {
            citation,
            see_also: None,
            kind,
        });
    }

    /// Returns a code point (step `number`).
    fn scalar(&mut self, number: &'static str, c: char) -> HandlerStep {
        self.push(number, StepKind::Return(TraceKind::Scalar(c)));
        HandlerStep::Scalar(c)
    }

    /// Returns an error (step `number`), after which the last `restore`
    /// bytes go back to the input.
    fn error(&mut self, number: &'static str, kind: DecodeErrorKind, restore: u8) -> HandlerStep {
        self.push(number, StepKind::Return(TraceKind::Error(kind)));
        HandlerStep::Error { kind, restore }
    }

    /// "If byte is an ASCII byte, return a code point whose value is byte"
    /// (step `number`; `ranges` are the bytes the step takes).
    fn same_code_point(
        &mut self,
        number: &'static str,
        byte: u8,
        ranges: &'static [(u8, u8)],
    ) -> HandlerStep {
        self.push(number, StepKind::SameCodePoint { byte, ranges });
        self.scalar(number, char::from(byte))
    }

    /// A leading byte in `ranges` kept in `variable` until the next byte
    /// (step `number`): "set {variable} to byte and return continue".
    fn remember(
        &mut self,
        number: &'static str,
        variable: &'static str,
        byte: u8,
        ranges: &'static [(u8, u8)],
    ) -> HandlerStep {
        self.push(
            number,
            StepKind::Remember {
                variable,
                byte,
                ranges,
            },
        );
        HandlerStep::Continue
    }

    /// A byte none of the steps before took (they take `valid`): "return
    /// error" (step `number`).
    fn invalid_byte(
        &mut self,
        number: &'static str,
        byte: u8,
        valid: &'static [(u8, u8)],
    ) -> HandlerStep {
        self.push(number, StepKind::InvalidByte { byte, valid });
        self.error(number, DecodeErrorKind::InvalidByte, 0)
    }

    /// Step 1 of the two-byte decoders at the end of the input: with
    /// `leading` not 0x00, "set {variable} to 0x00 and return error";
    /// otherwise "return finished".
    fn end_with_leading(&mut self, variable: &'static str, leading: u8) -> HandlerStep {
        if leading == 0 {
            return HandlerStep::Finished;
        }
        self.push("1", StepKind::EndOfQueue);
        self.push(
            "1",
            StepKind::Set {
                variables: vec![Variable::new(variable, Value::Byte(0))],
            },
        );
        self.error("1", DecodeErrorKind::TruncatedSequence, 0)
    }

    /// Restores `bytes` to the input (step `number`).
    fn restore(&mut self, number: &'static str, bytes: &[u8]) {
        self.push(
            number,
            StepKind::Restore {
                bytes: bytes.to_vec(),
                ascii: false,
            },
        );
    }

    /// The common end of a pair whose trailing byte gave no code point:
    /// "If byte is an ASCII byte, restore byte to ioQueue" (step
    /// `restore_step`), then "return error" (step `error_step`).
    fn trail_error(
        &mut self,
        byte: u8,
        kind: DecodeErrorKind,
        restore_step: &'static str,
        error_step: &'static str,
    ) -> HandlerStep {
        if !byte.is_ascii() {
            return self.error(error_step, kind, 0);
        }
        self.push_see_also(
            restore_step,
            StepKind::Restore {
                bytes: vec![byte],
                ascii: true,
            },
            Citation::SECURITY_BACKGROUND,
        );
        self.error(error_step, kind, 1)
    }
}

/// A decoder's handler, narrated: for each byte, the steps the standard
/// takes in the handler's current state, and what the handler returns.
pub(crate) trait Narrate: Handler + Clone {
    /// The anchor of the decoder's section in the standard.
    const ANCHOR: &'static str;

    /// The steps for `byte` in the current state, and what the handler
    /// returns for it (without changing the state: the real handler runs
    /// after).
    fn narrate(&self, byte: u8, out: &mut Narration) -> HandlerStep;

    /// The steps for end-of-queue in the current state, and what the handler
    /// returns.
    fn narrate_end(&self, out: &mut Narration) -> HandlerStep;

    /// The decoder's state variables, as the standard names them.
    fn variables(&self) -> Vec<Variable>;
}

/// The anchor of `encoding`'s decoder in the standard.
fn decoder_anchor(encoding: &Encoding) -> &'static str {
    use crate::encoding::Family;
    match encoding.family() {
        Family::Utf8 => utf_8::ANCHOR,
        Family::SingleByte => single_byte::ANCHOR,
        Family::Gbk | Family::Gb18030 => gb18030::ANCHOR,
        Family::Big5 => big5::ANCHOR,
        Family::EucJp => euc_jp::ANCHOR,
        Family::Iso2022Jp => iso_2022_jp::ANCHOR,
        Family::ShiftJis => shift_jis::ANCHOR,
        Family::EucKr => euc_kr::ANCHOR,
        Family::Replacement => replacement::ANCHOR,
        Family::Utf16Be | Family::Utf16Le => utf_16::ANCHOR,
        Family::XUserDefined => x_user_defined::ANCHOR,
    }
}

/// Whether `byte` is in one of `ranges`.
fn in_ranges(byte: u8, ranges: &[(u8, u8)]) -> bool {
    ranges
        .iter()
        .any(|&(first, last)| (first..=last).contains(&byte))
}

/// Each item of `encoding`'s explanation of `bytes` as text, after checking
/// that the explanation agrees with the decoder.
#[cfg(test)]
pub(crate) fn explained(encoding: &'static Encoding, bytes: &[u8]) -> Vec<String> {
    let explanation = encoding.explain(bytes);
    assert!(explanation.agrees(), "{explanation}");
    explanation
        .items()
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// The text of one explained item, from its lines (as `Display` writes it:
/// the heading, then each step indented).
#[cfg(test)]
pub(crate) fn item(lines: &[&str]) -> String {
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::{
        ALL, EUC_JP, GB18030, GBK, ISO_2022_JP, SHIFT_JIS, UTF_16BE, UTF_16LE, WINDOWS_1252,
    };

    /// Explains `bytes` and checks everything the explanation promises:
    /// the narration, the replay and the real decode agree; the items cover
    /// the bytes once, in order; each item's bytes are its span's.
    fn check(encoding: &'static Encoding, bytes: &[u8], failures: &mut Vec<String>) {
        let explanation = encoding.explain(bytes);
        let mut byte_offset = 0;
        let mut covers = true;
        for item in explanation.items() {
            covers &= item.span.start == byte_offset
                && item.bytes.as_slice()
                    == &bytes[item.span.start as usize..item.span.end as usize]
                && item.outcome.is_some()
                && !item.steps.is_empty();
            byte_offset = item.span.end;
        }
        covers &= byte_offset == bytes.len() as u64;
        if !(explanation.agrees() && covers) && failures.len() < 20 {
            failures.push(format!("{encoding} {bytes:02X?}:\n{explanation}"));
        }
    }

    fn assert_no_failures(failures: &[String]) {
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    }

    #[test]
    fn every_byte_pair_of_every_encoding_agrees_with_the_decoder() {
        let mut failures = Vec::new();
        for &encoding in &ALL {
            check(encoding, b"", &mut failures);
            for first in 0..=u8::MAX {
                check(encoding, &[first], &mut failures);
                for second in 0..=u8::MAX {
                    check(encoding, &[first, second], &mut failures);
                }
            }
        }
        assert_no_failures(&failures);
    }

    #[test]
    fn every_iso_2022_jp_state_agrees_with_the_decoder() {
        // Every pair of bytes after each escape sequence, in the trailing
        // byte state, in escape start and escape, and after two escape
        // sequences in a row (the output flag).
        let prefixes: [&[u8]; 12] = [
            b"\x1B(B",
            b"\x1B(J",
            b"\x1B(I",
            b"\x1B$@",
            b"\x1B$B",
            b"\x1B$B\x30",
            b"\x1B",
            b"\x1B(",
            b"\x1B$",
            b"\x1B$B\x1B",
            b"\x1B(Ja",
            b"\x1B(I\x1B(J",
        ];
        let mut failures = Vec::new();
        for prefix in prefixes {
            for first in 0..=u8::MAX {
                for second in 0..=u8::MAX {
                    let mut bytes = prefix.to_vec();
                    bytes.extend([first, second]);
                    check(ISO_2022_JP, &bytes, &mut failures);
                }
            }
        }
        assert_no_failures(&failures);
    }

    #[test]
    fn gb18030_four_byte_sequences_agree_with_the_decoder() {
        let mut failures = Vec::new();
        for encoding in [GB18030, GBK] {
            // Every valid-looking four-byte sequence.
            for first in 0x81..=0xFE {
                for second in 0x30..=0x39 {
                    for third in 0x81..=0xFE {
                        for fourth in 0x30..=0x39 {
                            check(encoding, &[first, second, third, fourth], &mut failures);
                        }
                    }
                }
            }
            // Every third byte, and every fourth byte after some first three.
            for first in [0x81, 0x84, 0x8F, 0x90, 0xE3, 0xFE] {
                for second in 0x30..=0x39 {
                    for third in 0..=u8::MAX {
                        check(encoding, &[first, second, third], &mut failures);
                        check(encoding, &[first, second, third, 0x41], &mut failures);
                    }
                    for fourth in 0..=u8::MAX {
                        check(encoding, &[first, second, 0x81, fourth], &mut failures);
                        check(encoding, &[first, second, 0xFE, fourth], &mut failures);
                    }
                }
            }
        }
        assert_no_failures(&failures);
    }

    #[test]
    fn utf_8_and_utf_16_sequences_agree_with_the_decoder() {
        let mut failures = Vec::new();
        // Every third byte of every three- and four-byte sequence whose
        // second byte is one of these, and every fourth after some.
        for first in 0xE0..=0xF4 {
            for second in [0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF] {
                for third in 0..=u8::MAX {
                    check(crate::UTF_8, &[first, second, third], &mut failures);
                    for fourth in [0x00, 0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xFF] {
                        check(crate::UTF_8, &[first, second, third, fourth], &mut failures);
                    }
                }
            }
        }
        // Every code unit after a leading surrogate, in both byte orders.
        for code_unit in 0..=u16::MAX {
            let [high, low] = code_unit.to_be_bytes();
            check(UTF_16BE, &[0xD8, 0x3D, high, low], &mut failures);
            check(UTF_16LE, &[0x3D, 0xD8, low, high], &mut failures);
            check(UTF_16BE, &[0xDB, 0xFF, high, low, 0x00], &mut failures);
        }
        assert_no_failures(&failures);
    }

    /// Inputs that exercise every decoder's states, for the tests that
    /// split them.
    fn samples() -> Vec<(&'static Encoding, Vec<u8>)> {
        let mut samples = Vec::new();
        for &encoding in &ALL {
            let (bytes, _, _) = encoding
                .output_encoding()
                .encode("aé€あ亜가一丂😀\u{E5E5}¥‾ｱ\n");
            let mut bytes = bytes;
            bytes.extend_from_slice(b"\x82\x22\xE3\x41\x81\x30\x81\x41\x8F\xA2\x1B(I!\x1B$B\x1B");
            samples.push((encoding, bytes));
        }
        samples.push((
            UTF_16LE,
            b"\x3D\xD8\x00\xDEa\x00\x3D\xD8a\x00\x00\xDC\x3D".to_vec(),
        ));
        samples.push((
            UTF_16BE,
            b"\xD8\x3D\xDE\x00\x00a\xD8\x3D\x00a\xDC\x00\xD8".to_vec(),
        ));
        samples
    }

    #[test]
    fn a_decoder_in_any_state_explains_the_rest() {
        // Explaining from a decoder that has decoded the first k bytes gives
        // the items of the whole explanation from the first pending byte on.
        for bom in [BomHandling::None, BomHandling::Sniff] {
            for (encoding, bytes) in samples() {
                let mut with_bom = b"\xEF\xBB\xBF".to_vec();
                with_bom.extend_from_slice(&bytes);
                let bytes = if bom == BomHandling::Sniff {
                    with_bom
                } else {
                    bytes
                };
                let whole =
                    Decoder::new(encoding, DecodeErrorMode::Replacement, bom).explain(&bytes, true);
                assert!(whole.agrees(), "{whole}");
                for k in 0..=bytes.len() {
                    let mut decoder = Decoder::new(encoding, DecodeErrorMode::Fatal, bom);
                    let mut rest = &bytes[..k];
                    loop {
                        let (result, read) = decoder.decode(rest, false, &mut String::new());
                        rest = &rest[read..];
                        if result == DecoderResult::InputEmpty {
                            break;
                        }
                    }
                    let split = decoder.explain(&bytes[k..], true);
                    assert!(split.agrees(), "{encoding} at {k}: {split}");
                    let first = split
                        .items()
                        .first()
                        .map_or(bytes.len() as u64, |item| item.span.start);
                    let expected: Vec<_> = whole
                        .items()
                        .iter()
                        .filter(|item| item.span.start >= first)
                        .map(|item| (item.span, item.outcome))
                        .collect();
                    let found: Vec<_> = split
                        .items()
                        .iter()
                        .map(|item| (item.span, item.outcome))
                        .collect();
                    assert_eq!(found, expected, "{encoding} split at {k}");
                    if let Some(item) = split.items().first()
                        && item.span.start < k as u64
                        && !decoder.is_sniffing()
                    {
                        assert!(
                            matches!(item.steps[0].kind, StepKind::StateBefore { .. }),
                            "{encoding} at {k}: {item}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn explain_span_keeps_the_items_that_overlap() {
        for (encoding, bytes) in samples() {
            let decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
            let whole = decoder.explain(&bytes, true);
            let len = bytes.len() as u64;
            for start in 0..=len {
                for end in start..=len.min(start + 5) {
                    let span = ByteSpan::new(start, end);
                    let found = decoder.explain_span(&bytes, true, span);
                    let wanted = if span.is_empty() {
                        ByteSpan::new(start, start + 1)
                    } else {
                        span
                    };
                    let expected: Vec<_> = whole
                        .items()
                        .iter()
                        .filter(|item| overlaps(item.span, wanted))
                        .cloned()
                        .collect();
                    assert_eq!(found.items(), expected.as_slice(), "{encoding} {span}");
                }
            }
        }
    }

    proptest::proptest! {
        /// Any bytes, in any encoding, from a decoder split anywhere: the
        /// explanation never panics and agrees with the decoder.
        #[test]
        fn any_bytes_from_any_state(
            position in 0..ALL.len(),
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..24),
            split in 0..24usize,
        ) {
            let encoding = ALL[position];
            let mut failures = Vec::new();
            check(encoding, &bytes, &mut failures);
            proptest::prop_assert!(failures.is_empty(), "{}", failures.join("\n"));
            let split = split.min(bytes.len());
            let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::Sniff);
            let _ = decoder.decode(&bytes[..split], false, &mut String::new());
            let explanation = decoder.explain(&bytes[split..], true);
            proptest::prop_assert!(explanation.agrees(), "{explanation}");
        }
    }

    #[test]
    fn input_that_stops_inside_a_sequence() {
        // Not the end of the input: the last item is unfinished.
        let decoder = Decoder::new(SHIFT_JIS, DecodeErrorMode::Replacement, BomHandling::None);
        let explanation = decoder.explain(b"a\x82", false);
        let [ascii, pending] = explanation.items() else {
            panic!("{explanation}")
        };
        assert_eq!(ascii.outcome, Some(TraceKind::Scalar('a')));
        assert_eq!(pending.span, ByteSpan::new(1, 2));
        assert_eq!(pending.outcome, None);
        assert!(explanation.agrees());
        assert!(
            explanation
                .to_string()
                .contains("82 (bytes 1..2) → unfinished: the input ends inside this sequence")
        );
        // BOM sniffing that cannot decide yet.
        let decoder = Decoder::new(
            WINDOWS_1252,
            DecodeErrorMode::Replacement,
            BomHandling::Sniff,
        );
        let explanation = decoder.explain(b"\xEF\xBB", false);
        let [item] = explanation.items() else {
            panic!("{explanation}")
        };
        assert_eq!(item.outcome, None);
        assert!(matches!(item.steps[0].kind, StepKind::BomUndecided { .. }));
    }

    #[test]
    fn a_byte_order_mark_picks_the_decoder() {
        let decoder = Decoder::new(EUC_JP, DecodeErrorMode::Replacement, BomHandling::Sniff);
        let explanation = decoder.explain(b"\xFF\xFEa\x00", true);
        assert_eq!(explanation.encoding(), UTF_16LE);
        let [bom, a] = explanation.items() else {
            panic!("{explanation}")
        };
        assert_eq!(bom.outcome, Some(TraceKind::Skip(SkipReason::Bom)));
        assert_eq!(
            bom.steps[0].to_string(),
            "[1-2] 0xFF 0xFE is the byte order mark of UTF-16LE: BOM sniffing picks UTF-16LE, and the bytes are read and produce nothing"
        );
        assert_eq!(
            bom.steps[0].citation.url(),
            "https://encoding.spec.whatwg.org/#decode"
        );
        assert_eq!(a.outcome, Some(TraceKind::Scalar('a')));
        assert_eq!(
            explanation.decoder_citation().url(),
            "https://encoding.spec.whatwg.org/#shared-utf-16-decoder"
        );
    }
}
