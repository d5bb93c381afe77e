//! Repair by hand: a span of a pane's text read again as "encoded as X,
//! decoded as Y" ([`reinterpret`], or a reading `core::repair` ranks,
//! [`proposals`]), and the reinterpretations applied to the pane's text
//! ([`ManualEdits`], with undo and redo). The working text is the pane's
//! decode with the accepted automatic repairs and the reinterpretations
//! applied ([`working_text`]): what Save writes.

use std::ops::Range;

use mojiscope_core::repair::{self, Chain, DosCodePage, EncodeAs, Lost, Reading, Step};
use mojiscope_core::{
    BomHandling, ByteSpan, DecodeErrorKind, DecodeErrorMode, DecodeSink, Decoder, EncodeErrorMode,
    Encoder, EncoderResult, Encoding, SkipReason, TraceKind, WINDOWS_1252,
};

/// What the user asks of repair by hand (Edit menu, the panes' context
/// menu, shortcuts, the Mojibake lab).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandRepair {
    /// Open Reinterpret selection… on the selection in the focused pane.
    Reinterpret,
    /// Undo the last reinterpretation.
    Undo,
    /// Do the last undone reinterpretation again.
    Redo,
    /// Open the Mojibake lab on the selection.
    SendToLab,
    /// Open the decoder's steps for the selection in the focused pane.
    Explain,
}

/// One wrong decode, as the user tells it: the text was encoded as
/// `encoded_as`, then its bytes decoded as `decoded_as`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Misreading {
    /// The encoding the bytes were written in.
    pub encoded_as: &'static Encoding,
    /// What they were wrongly read as.
    pub decoded_as: WrongReading,
}

/// What bytes were wrongly read as: an encoding of the Encoding Standard,
/// or a DOS console code page, which is not one: only the repair knows
/// those, as tables of its own ([`DosCodePage`]), and no decoder, encoder
/// or label of the engine does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WrongReading {
    /// An encoding of the standard (with an encoder of its own).
    Encoding(&'static Encoding),
    /// A DOS code page the repair knows (437 or 850).
    DosCodePage(DosCodePage),
}

impl WrongReading {
    /// The DOS code pages a user may name as a wrong reading.
    pub const DOS_CODE_PAGES: [WrongReading; 2] = [
        WrongReading::DosCodePage(DosCodePage::Cp437),
        WrongReading::DosCodePage(DosCodePage::Cp850),
    ];

    /// Its name for people: "windows-1252"; a DOS code page says it is
    /// not in the standard: "cp437 (not in the Encoding Standard)".
    pub fn name(self) -> String {
        match self {
            Self::Encoding(encoding) => encoding.name().to_owned(),
            Self::DosCodePage(page) => dos_name(page),
        }
    }

    /// What a DOS code page is, for a list to choose from: "cp437, the
    /// DOS console's (United States)".
    pub fn long_name(self) -> String {
        match self {
            Self::Encoding(encoding) => encoding.name().to_owned(),
            Self::DosCodePage(DosCodePage::Cp437) => {
                "cp437: DOS console, United States (box drawing)".to_owned()
            }
            Self::DosCodePage(DosCodePage::Cp850) => {
                "cp850: DOS console, Western Europe".to_owned()
            }
        }
    }
}

impl From<&'static Encoding> for WrongReading {
    fn from(encoding: &'static Encoding) -> Self {
        Self::Encoding(encoding)
    }
}

/// "cp437 (not in the Encoding Standard)".
fn dos_name(page: DosCodePage) -> String {
    format!("{} (not in the Encoding Standard)", page.name())
}

impl Misreading {
    /// "UTF-8 read as windows-1252".
    pub fn describe(self) -> String {
        format!(
            "{} read as {}",
            self.encoded_as.name(),
            self.decoded_as.name()
        )
    }

    /// Whether `encoding` can be the wrong reading (its text encodes back
    /// to the bytes it was read from): an encoding with an encoder of its
    /// own.
    pub fn can_be_undone_from(encoding: &'static Encoding) -> bool {
        encoding.has_encoder() && encoding.output_encoding() == encoding
    }
}

/// What a lost character is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LossKind {
    /// A character the wrong reading has no byte for: it cannot have come
    /// from that reading.
    Unmappable(char),
    /// Bytes the right decoder could not decode.
    Undecodable,
    /// A byte lost before: one of these characters, the likeliest first.
    Lost(Vec<char>),
}

/// A character of a reinterpreted text that stands for something lost
/// (a U+FFFD).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LostMark {
    /// Its bytes in the text.
    pub utf8_range: Range<usize>,
    /// Why it is lost.
    pub kind: LossKind,
}

/// A span read again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reinterpreted {
    /// The text.
    pub text: String,
    /// Where it lost characters (each a U+FFFD), in order.
    pub lost: Vec<LostMark>,
}

/// Undoes `misreadings` (in the order they happened) on `text`: each, the
/// last first, encodes the text as its wrong reading and decodes the bytes
/// as the encoding they were written in. Nothing stops it: a character the
/// wrong reading cannot encode and bytes that do not decode each become a
/// U+FFFD, marked. A C1 control the windows-1252 encoder has no byte for is
/// taken as the byte of the same value, as decoders that keep C1 controls
/// wrote it (ISO-8859-1 and windows-1252 mean the same to a user).
pub fn reinterpret(text: &str, misreadings: &[Misreading]) -> Reinterpreted {
    let mut now = Reinterpreted {
        text: text.to_owned(),
        lost: Vec::new(),
    };
    for misreading in misreadings.iter().rev() {
        now = undo_one(&now, *misreading);
    }
    now
}

/// One unit of the bytes a text encodes back to.
enum Unit {
    Bytes(Vec<u8>),
    /// A character with no byte, or a U+FFFD already marked lost.
    Lost(LossKind),
}

fn undo_one(before: &Reinterpreted, misreading: Misreading) -> Reinterpreted {
    let units = match misreading.decoded_as {
        WrongReading::Encoding(encoding) => encode_units(before, encoding),
        WrongReading::DosCodePage(page) => dos_units(before, page),
    };
    decode_units(units, misreading.encoded_as, before.text.len())
}

/// `before`'s text encoded back as `encoding`, a character at a time where
/// the encoder fails.
fn encode_units(before: &Reinterpreted, encoding: &'static Encoding) -> Vec<Unit> {
    let mut units: Vec<Unit> = Vec::new();
    let mut bytes = Vec::new();
    let mut encoder = Encoder::new(encoding, EncodeErrorMode::Fatal);
    let mut lost = before.lost.iter().peekable();
    let mut done = 0;
    let text = &before.text;
    while done < text.len() {
        // Up to the next marked loss, which stays lost.
        let next_lost = lost.peek().map_or(text.len(), |mark| mark.utf8_range.start);
        if done == next_lost {
            if let Some(mark) = lost.next() {
                flush(&mut units, &mut bytes);
                units.push(Unit::Lost(mark.kind.clone()));
                done = mark.utf8_range.end;
            }
            continue;
        }
        let piece = &text[done..next_lost];
        let (result, read) = encoder.encode(piece, false, &mut bytes);
        done += read;
        if let EncoderResult::Unmappable(unmappable) = result {
            let c = unmappable.character;
            let c1 = u8::try_from(u32::from(c))
                .ok()
                .filter(|byte| (0x80..0xA0).contains(byte));
            match c1 {
                Some(byte) if encoding == WINDOWS_1252 => {
                    bytes.push(byte);
                }
                _ => {
                    flush(&mut units, &mut bytes);
                    units.push(Unit::Lost(LossKind::Unmappable(c)));
                }
            }
            encoder = Encoder::new(encoding, EncodeErrorMode::Fatal);
        }
    }
    flush(&mut units, &mut bytes);
    units
}

/// `before`'s text encoded back as the DOS code page `page`, by its table
/// (every byte stands for one character: the page's 128 upper ones are
/// looked up).
fn dos_units(before: &Reinterpreted, page: DosCodePage) -> Vec<Unit> {
    let mut table: Vec<(char, u8)> = (0x80..=0xFF_u8)
        .map(|byte| (page.decode_byte(byte), byte))
        .collect();
    table.sort_unstable();
    let byte_of = |c: char| -> Option<u8> {
        if c.is_ascii() {
            return u8::try_from(u32::from(c)).ok();
        }
        table
            .binary_search_by_key(&c, |&(known, _)| known)
            .ok()
            .and_then(|found| table.get(found))
            .map(|&(_, byte)| byte)
    };
    let mut units: Vec<Unit> = Vec::new();
    let mut bytes = Vec::new();
    let mut lost = before.lost.iter().peekable();
    for (utf8_offset, c) in before.text.char_indices() {
        if let Some(mark) = lost.peek() {
            if mark.utf8_range.start == utf8_offset {
                flush(&mut units, &mut bytes);
                units.push(Unit::Lost(mark.kind.clone()));
            }
            if utf8_offset >= mark.utf8_range.start {
                if utf8_offset + c.len_utf8() >= mark.utf8_range.end {
                    lost.next();
                }
                continue;
            }
        }
        if let Some(byte) = byte_of(c) {
            bytes.push(byte);
        } else {
            flush(&mut units, &mut bytes);
            units.push(Unit::Lost(LossKind::Unmappable(c)));
        }
    }
    flush(&mut units, &mut bytes);
    units
}

/// The text of `units` decoded as `encoding`; a loss cuts the runs of
/// bytes.
fn decode_units(units: Vec<Unit>, encoding: &'static Encoding, capacity: usize) -> Reinterpreted {
    let mut after = Reinterpreted {
        text: String::with_capacity(capacity),
        lost: Vec::new(),
    };
    for unit in units {
        match unit {
            Unit::Bytes(bytes) => {
                let (trace, _) = encoding.decode_traced(&bytes, BomHandling::None);
                for item in trace.items() {
                    let start = after.text.len();
                    match item.kind {
                        TraceKind::Scalar(c) => after.text.push(c),
                        TraceKind::Pair(first, second) => {
                            after.text.push(first);
                            after.text.push(second);
                        }
                        TraceKind::Error(_) => {
                            after.text.push(char::REPLACEMENT_CHARACTER);
                            after.lost.push(LostMark {
                                utf8_range: start..after.text.len(),
                                kind: LossKind::Undecodable,
                            });
                        }
                        TraceKind::Skip(_) => {}
                    }
                }
            }
            Unit::Lost(kind) => {
                let start = after.text.len();
                after.text.push(char::REPLACEMENT_CHARACTER);
                after.lost.push(LostMark {
                    utf8_range: start..after.text.len(),
                    kind,
                });
            }
        }
    }
    after
}

fn flush(units: &mut Vec<Unit>, bytes: &mut Vec<u8>) {
    if !bytes.is_empty() {
        units.push(Unit::Bytes(std::mem::take(bytes)));
    }
}

/// A reading of a span the repair engine proposes.
#[derive(Clone, Debug, PartialEq)]
pub struct ProposedReading {
    /// How the span was damaged, for people: "UTF-8 read as
    /// windows-1252, twice"; "as it is" for the span unchanged.
    pub name: String,
    /// The misreadings, in the order they happened (empty: as it is).
    pub misreadings: Vec<Misreading>,
    /// The span read so.
    pub reading: Reinterpreted,
}

/// The readings `core::repair` ranks best for `span`, best first, at most
/// `max`; chains that mean the same to a user (windows-1252 and
/// ISO-8859-1 taken byte for code point) are one.
pub fn proposals(span: &str, max: usize) -> Vec<ProposedReading> {
    let mut proposed: Vec<ProposedReading> = Vec::new();
    let mut families: Vec<Chain> = Vec::new();
    for Reading {
        chain, text, lost, ..
    } in repair::readings(span, max.saturating_mul(2))
    {
        let family = family(chain);
        if families.contains(&family) || proposed.iter().any(|p| p.reading.text == text) {
            continue;
        }
        families.push(family);
        proposed.push(ProposedReading {
            name: if chain.is_empty() {
                AS_IT_IS.to_owned()
            } else {
                chain_name(chain)
            },
            misreadings: misreadings_of(chain),
            reading: Reinterpreted {
                lost: lost_marks(&text, &lost),
                text,
            },
        });
        if proposed.len() == max {
            break;
        }
    }
    // The span as it is is always offered, last if nothing ranked it.
    if !proposed.is_empty() && !proposed.iter().any(|p| p.name == AS_IT_IS) {
        proposed.push(ProposedReading {
            name: AS_IT_IS.to_owned(),
            misreadings: Vec::new(),
            reading: Reinterpreted {
                text: span.to_owned(),
                lost: Vec::new(),
            },
        });
    }
    proposed
}

/// The name of the reading that changes nothing.
const AS_IT_IS: &str = "as it is";

/// The chain as a user tells chains apart: ISO-8859-1 taken byte for code
/// point written as windows-1252, except where it undoes C1 controls.
pub fn family(chain: Chain) -> Chain {
    let steps: Vec<Step> = chain.steps().map(plain_step).collect();
    Chain::new(&steps).unwrap_or(chain)
}

fn plain_step(mut step: Step) -> Step {
    if step.encode_as == EncodeAs::Isomorphic && !step.undoes_c1() {
        step.encode_as = EncodeAs::Encoding(WINDOWS_1252);
    }
    step
}

/// How `chain`'s damage happened, for people, in the order it happened:
/// "UTF-8 read as windows-1252, twice", "windows-1252 read as ISO-8859-1",
/// "UTF-8 read as cp850 (not in the Encoding Standard)".
pub fn chain_name(chain: Chain) -> String {
    name_chain(chain, dos_name)
}

/// [`chain_name`], a DOS code page named alone ("UTF-8 read as cp850"):
/// for text that says elsewhere what those pages are, and puts the name
/// in parentheses of its own (`mojiscope fix --explain`).
pub fn chain_name_terse(chain: Chain) -> String {
    name_chain(chain, |page| page.name().to_owned())
}

fn name_chain(chain: Chain, dos: fn(DosCodePage) -> String) -> String {
    let steps: Vec<Step> = family(chain).steps().collect();
    let mut parts: Vec<String> = Vec::new();
    let mut index = steps.len();
    while index > 0 {
        let step = steps[index - 1];
        let repeats = steps[..index]
            .iter()
            .rev()
            .take_while(|&&s| s == step)
            .count();
        let read_as = read_as_name(step.encode_as, dos);
        let times = match repeats {
            1 => String::new(),
            2 => ", twice".to_owned(),
            n => format!(", {n} times"),
        };
        parts.push(format!(
            "{} read as {read_as}{times}",
            step.decode_as.name()
        ));
        index -= repeats;
    }
    if parts.is_empty() {
        return AS_IT_IS.to_owned();
    }
    parts.join(", then ")
}

/// What a step's wrong reading is called, for people: the encoding's name,
/// "ISO-8859-1" for ISO-8859-1 taken byte for code point (where it differs
/// from windows-1252, which the standard's "iso-8859-1" label means), a DOS
/// code page as `dos` names it.
fn read_as_name(encode_as: EncodeAs, dos: fn(DosCodePage) -> String) -> String {
    match encode_as {
        EncodeAs::Encoding(encoding) => encoding.name().to_owned(),
        EncodeAs::Isomorphic => "ISO-8859-1".to_owned(),
        EncodeAs::DosCodePage(page) => dos(page),
    }
}

/// The steps that undo `chain`, as applied, for people (as the Mojibake
/// lab has its user undo it, and with the chains that mean the same to a
/// user as one, as [`chain_name`] does): "encoded as windows-1252, decoded
/// as UTF-8, twice"; "encoded as ISO-8859-1, decoded as windows-1252".
pub fn steps_name(chain: Chain) -> String {
    let steps: Vec<Step> = family(chain).steps().collect();
    let mut parts: Vec<String> = Vec::new();
    let mut index = 0;
    while let Some(&step) = steps.get(index) {
        let repeats = steps[index..].iter().take_while(|&&s| s == step).count();
        let times = match repeats {
            1 => String::new(),
            2 => ", twice".to_owned(),
            n => format!(", {n} times"),
        };
        parts.push(format!(
            "encoded as {}, decoded as {}{times}",
            read_as_name(step.encode_as, dos_name),
            step.decode_as.name()
        ));
        index += repeats;
    }
    if parts.is_empty() {
        return AS_IT_IS.to_owned();
    }
    parts.join("; then ")
}

/// The misreadings a chain undoes, in the order they happened.
fn misreadings_of(chain: Chain) -> Vec<Misreading> {
    let mut misreadings: Vec<Misreading> = chain
        .steps()
        .map(|step| {
            let decoded_as = match plain_step(step).encode_as {
                EncodeAs::Encoding(encoding) => WrongReading::Encoding(encoding),
                EncodeAs::Isomorphic => WrongReading::Encoding(WINDOWS_1252),
                EncodeAs::DosCodePage(page) => WrongReading::DosCodePage(page),
            };
            Misreading {
                encoded_as: step.decode_as,
                decoded_as,
            }
        })
        .collect();
    misreadings.reverse();
    misreadings
}

/// The marks of `lost` (a repair's lost characters) in `text`, its
/// replacement.
pub fn lost_marks(text: &str, lost: &[Lost]) -> Vec<LostMark> {
    lost.iter()
        .filter(|lost| text[lost.utf8_offset..].starts_with(char::REPLACEMENT_CHARACTER))
        .map(|lost| LostMark {
            utf8_range: lost.utf8_offset..lost.utf8_offset + char::REPLACEMENT_CHARACTER.len_utf8(),
            kind: LossKind::Lost(lost.alternatives.clone()),
        })
        .collect()
}

/// Which decode the reinterpretations are of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EditTarget {
    /// The pane.
    pub pane: usize,
    /// Its encoding.
    pub encoding: &'static Encoding,
    /// How it treats a byte order mark.
    pub bom_handling: BomHandling,
    /// The document's load.
    pub generation: u64,
}

/// One reinterpretation applied to the pane's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The bytes whose text it replaces (the characters that start in them).
    pub span: ByteSpan,
    /// The text it replaces.
    pub original: String,
    /// What replaces it.
    pub replacement: Reinterpreted,
    /// How, for people ("UTF-8 read as windows-1252").
    pub how: String,
    /// Who made it: the user, or the Repair window's accepted changes.
    pub origin: EditOrigin,
}

/// Who made an [`Edit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditOrigin {
    /// A reinterpretation by hand (Edit ▸ Reinterpret selection…, the lab).
    ByHand,
    /// A change of the Repair window, applied to the pane with the others
    /// accepted there.
    Repair,
}

/// One step of the undo history: the edits added, the edits they replaced
/// (those whose bytes they overlap), and what it was, for people.
#[derive(Clone, Debug)]
struct Action {
    added: Vec<Edit>,
    removed: Vec<Edit>,
    what: String,
}

/// The reinterpretations applied to one pane's text, with undo and redo.
#[derive(Clone, Debug, Default)]
pub struct ManualEdits {
    target: Option<EditTarget>,
    /// In byte order, not overlapping.
    edits: Vec<Edit>,
    done: Vec<Action>,
    undone: Vec<Action>,
    /// Changes at every apply, undo, redo and clear: views that show the
    /// edits key their caches by it.
    revision: u64,
}

impl ManualEdits {
    /// A number that changes whenever the edits do.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Which decode the edits are of.
    pub fn target(&self) -> Option<EditTarget> {
        self.target
    }

    /// The edits, in byte order.
    pub fn edits(&self) -> &[Edit] {
        &self.edits
    }

    /// Whether an edit can be undone.
    pub fn can_undo(&self) -> bool {
        !self.done.is_empty()
    }

    /// Whether an undone edit can be done again.
    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// Forgets every edit (the file was reloaded or closed).
    pub fn clear(&mut self) {
        let revision = self.revision.wrapping_add(1);
        *self = Self::default();
        self.revision = revision;
    }

    /// Applies `edit` to `target`'s text, replacing the edits it overlaps.
    ///
    /// # Errors
    /// The edits so far are of another decode: they must be saved or undone
    /// first (their text is not this one's).
    pub fn apply(&mut self, target: EditTarget, edit: Edit) -> Result<(), EditTarget> {
        self.take_target(target)?;
        let what = edit.how.clone();
        let action = Action {
            added: vec![edit],
            removed: Vec::new(),
            what,
        };
        let action = self.redo_action(action);
        self.done.push(action);
        self.undone.clear();
        Ok(())
    }

    /// Applies `edits` (in byte order, not overlapping) to `target`'s text
    /// as one step, which undo takes back whole and calls `what`. An edit
    /// that overlaps one made before is left out: what is there was chosen
    /// (a reinterpretation by hand over a repair's change). How many were
    /// applied.
    ///
    /// # Errors
    /// As [`ManualEdits::apply`].
    pub fn apply_all(
        &mut self,
        target: EditTarget,
        edits: Vec<Edit>,
        what: String,
    ) -> Result<usize, EditTarget> {
        self.take_target(target)?;
        let added: Vec<Edit> = edits
            .into_iter()
            .filter(|edit| !overlaps_any(&self.edits, edit.span))
            .collect();
        if added.is_empty() {
            return Ok(0);
        }
        let count = added.len();
        let action = self.redo_action(Action {
            added,
            removed: Vec::new(),
            what,
        });
        self.done.push(action);
        self.undone.clear();
        Ok(count)
    }

    /// Makes `target` the decode the edits are of, unless edits of another
    /// are kept.
    fn take_target(&mut self, target: EditTarget) -> Result<(), EditTarget> {
        match self.target {
            Some(now) if now != target && !self.edits.is_empty() => return Err(now),
            _ => {}
        }
        if self.target != Some(target) {
            self.clear();
            self.target = Some(target);
        }
        Ok(())
    }

    fn redo_action(&mut self, mut action: Action) -> Action {
        self.revision = self.revision.wrapping_add(1);
        let (removed, mut kept): (Vec<Edit>, Vec<Edit>) = std::mem::take(&mut self.edits)
            .into_iter()
            .partition(|edit| overlaps_any(&action.added, edit.span));
        kept.extend(action.added.iter().cloned());
        kept.sort_by_key(|edit| edit.span.start);
        self.edits = kept;
        action.removed = removed;
        action
    }

    /// Undoes the last step; what it was, for people.
    pub fn undo(&mut self) -> Option<String> {
        let action = self.done.pop()?;
        self.revision = self.revision.wrapping_add(1);
        let added = &action.added;
        self.edits.retain(|edit| {
            !matches!(
                added.binary_search_by_key(&edit.span.start, |added| added.span.start),
                Ok(at) if added[at] == *edit
            )
        });
        self.edits.extend(action.removed.iter().cloned());
        self.edits.sort_by_key(|edit| edit.span.start);
        let what = action.what.clone();
        self.undone.push(action);
        Some(what)
    }

    /// Does the last undone step again; what it was, for people.
    pub fn redo(&mut self) -> Option<String> {
        let action = self.undone.pop()?;
        let action = self.redo_action(action);
        let what = action.what.clone();
        self.done.push(action);
        Some(what)
    }
}

/// Whether `span` overlaps the bytes of one of `edits` (in byte order, not
/// overlapping).
fn overlaps_any(edits: &[Edit], span: ByteSpan) -> bool {
    // The first edit that ends after the span starts is the only one that
    // can overlap it without an earlier one doing so.
    let at = edits.partition_point(|edit| edit.span.end <= span.start);
    edits
        .get(at)
        .is_some_and(|edit| edit.span.start < span.end && span.start < edit.span.end)
}

/// A replacement of the text of some bytes, for [`working_text`].
#[derive(Clone, Copy, Debug)]
pub struct Replacement<'a> {
    /// The bytes (the characters that start in them are replaced).
    pub span: ByteSpan,
    /// The new text.
    pub text: &'a str,
    /// Where `text` has a U+FFFD for something lost (UTF-8 offsets).
    pub lost: &'a [usize],
}

/// The text `bytes` decode to as `encoding` (with `bom_handling`), with
/// each of `replacements` (in byte order, not overlapping) put in place of
/// the characters that start in its bytes; and where it holds a U+FFFD for
/// something lost (UTF-8 offsets, in order): decoding errors and the
/// replacements' losses.
pub fn working_text(
    bytes: &[u8],
    encoding: &'static Encoding,
    bom_handling: BomHandling,
    replacements: &[Replacement<'_>],
) -> (String, Vec<usize>) {
    let mut sink = WorkingSink {
        text: String::with_capacity(bytes.len()),
        errors: Vec::new(),
        replacements,
        next: 0,
    };
    let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, bom_handling);
    // Replacement mode consumes every byte.
    let _ = decoder.decode(bytes, true, &mut sink);
    sink.reach(u64::MAX);
    (sink.text, sink.errors)
}

struct WorkingSink<'a> {
    text: String,
    errors: Vec<usize>,
    replacements: &'a [Replacement<'a>],
    /// The next replacement not yet written.
    next: usize,
}

impl WorkingSink<'_> {
    /// Writes every replacement that starts before `offset`.
    fn reach(&mut self, offset: u64) {
        while let Some(replacement) = self.replacements.get(self.next)
            && replacement.span.start < offset
        {
            let start = self.text.len();
            self.text.push_str(replacement.text);
            self.errors
                .extend(replacement.lost.iter().map(|lost| start + lost));
            self.next += 1;
        }
    }

    /// Whether the item starting at `offset` is replaced.
    fn replaced(&self, offset: u64) -> bool {
        self.replacements
            .get(self.next.wrapping_sub(1))
            .is_some_and(|replacement| {
                replacement.span.start <= offset && offset < replacement.span.end
            })
    }

    fn item(&mut self, span: ByteSpan, push: impl FnOnce(&mut String)) {
        self.reach(span.start + 1);
        if !self.replaced(span.start) {
            push(&mut self.text);
        }
    }

    /// A run of text that is its own bytes, from byte `start`.
    fn run(&mut self, run: &str, start: u64) {
        let mut done = 0;
        while done < run.len() {
            let at = start + done as u64;
            self.reach(at + 1);
            let end_of = |offset: u64| -> usize {
                let mut end = usize::try_from(offset.saturating_sub(start))
                    .unwrap_or(run.len())
                    .min(run.len());
                while !run.is_char_boundary(end) {
                    end += 1;
                }
                end
            };
            if self.replaced(at) {
                let span_end = self.replacements[self.next - 1].span.end;
                done = end_of(span_end).max(done + 1);
                while !run.is_char_boundary(done) {
                    done += 1;
                }
            } else {
                let until = self
                    .replacements
                    .get(self.next)
                    .map_or(run.len(), |next| end_of(next.span.start))
                    .max(done + 1);
                let mut until = until.min(run.len());
                while !run.is_char_boundary(until) {
                    until += 1;
                }
                self.text.push_str(&run[done..until]);
                done = until;
            }
        }
    }
}

impl DecodeSink for WorkingSink<'_> {
    fn ascii(&mut self, run: &[u8], start: u64) {
        // ASCII is valid UTF-8.
        if let Ok(run) = std::str::from_utf8(run) {
            self.run(run, start);
        }
    }

    fn utf8_run(&mut self, run: &str, start: u64) {
        self.run(run, start);
    }

    fn scalar(&mut self, c: char, span: ByteSpan) {
        self.item(span, |text| text.push(c));
    }

    fn scalar_pair(&mut self, first: char, second: char, span: ByteSpan) {
        self.item(span, |text| {
            text.push(first);
            text.push(second);
        });
    }

    fn error(&mut self, _kind: DecodeErrorKind, span: ByteSpan) {
        self.reach(span.start + 1);
        if !self.replaced(span.start) {
            self.errors.push(self.text.len());
            self.text.push(char::REPLACEMENT_CHARACTER);
        }
    }

    fn skip(&mut self, _reason: SkipReason, span: ByteSpan) {
        self.reach(span.start + 1);
    }
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{GBK, SHIFT_JIS, UTF_8, WINDOWS_1251};

    use super::*;

    const UTF8_AS_1252: Misreading = Misreading {
        encoded_as: UTF_8,
        decoded_as: WrongReading::Encoding(WINDOWS_1252),
    };

    #[test]
    fn a_misreading_is_undone_and_its_losses_marked() {
        let done = reinterpret("Le cafÃ© est fermÃ©", &[UTF8_AS_1252]);
        assert_eq!(done.text, "Le café est fermé");
        assert!(done.lost.is_empty());
        // "Ã" and a space is no UTF-8 sequence (its second byte, a no-break
        // space, became a space), and "Ж" has no windows-1252 byte.
        let done = reinterpret("prÃ Ж", &[UTF8_AS_1252]);
        assert_eq!(done.text, "pr\u{FFFD} \u{FFFD}");
        assert_eq!(done.lost.len(), 2);
        assert_eq!(done.lost[0].kind, LossKind::Undecodable);
        assert_eq!(done.lost[1].kind, LossKind::Unmappable('Ж'));
        // A C1 control (what ISO-8859-1 decoders keep) is its byte.
        let done = reinterpret("Ã\u{89}", &[UTF8_AS_1252]);
        assert_eq!(done.text, "É");
    }

    #[test]
    fn a_chain_is_undone_last_misreading_first() {
        // "Привет" as UTF-8 read as windows-1251, then that text's UTF-8
        // read as windows-1252.
        let once = UTF_8.encode_fatal("Привет").unwrap();
        let once = WINDOWS_1251.decode_with_bom_handling(&once, BomHandling::None);
        let twice = UTF_8.encode_fatal(&once.text).unwrap();
        let twice = WINDOWS_1252.decode_with_bom_handling(&twice, BomHandling::None);
        let chain = [
            Misreading {
                encoded_as: UTF_8,
                decoded_as: WrongReading::Encoding(WINDOWS_1251),
            },
            UTF8_AS_1252,
        ];
        assert_eq!(reinterpret(&twice.text, &chain).text, "Привет");
        // Shift_JIS read as GBK: a Japanese sentence.
        let sjis = SHIFT_JIS.encode_fatal("東京の天気").unwrap();
        let misread = GBK.decode_with_bom_handling(&sjis, BomHandling::None).text;
        let undone = reinterpret(
            &misread,
            &[Misreading {
                encoded_as: SHIFT_JIS,
                decoded_as: WrongReading::Encoding(GBK),
            }],
        );
        assert_eq!(undone.text, "東京の天気");
    }

    #[test]
    fn a_dos_code_page_is_undone_by_its_table() {
        // "Le café coûte 3 €" written as UTF-8 and shown by a DOS console
        // (code page 437): "é" is C3 A9, "├⌐"; "€" is E2 82 AC, "Γé¼".
        let cp437 = Misreading {
            encoded_as: UTF_8,
            decoded_as: WrongReading::DosCodePage(DosCodePage::Cp437),
        };
        let done = reinterpret("Le caf├⌐ co├╗te 3 Γé¼", &[cp437]);
        assert_eq!(done.text, "Le café coûte 3 €");
        assert!(done.lost.is_empty());
        // Code page 850 has no byte for "⌐" (it put letters where cp437
        // has some of its symbols) nor for "€": each is lost, and the C3
        // left alone is no UTF-8 sequence.
        let cp850 = Misreading {
            decoded_as: WrongReading::DosCodePage(DosCodePage::Cp850),
            ..cp437
        };
        let done = reinterpret("caf├⌐ €", &[cp850]);
        assert_eq!(done.text, "caf\u{FFFD}\u{FFFD} \u{FFFD}");
        assert_eq!(done.lost.last().unwrap().kind, LossKind::Unmappable('€'));
        assert_eq!(
            cp437.describe(),
            "UTF-8 read as cp437 (not in the Encoding Standard)"
        );
    }

    #[test]
    fn chains_are_named_as_people_say_them() {
        let step = |encode_as, decode_as| Step {
            encode_as,
            decode_as,
        };
        // ISO-8859-1 taken byte for code point, undoing UTF-8: the same
        // to a user as windows-1252.
        let chain = Chain::new(&[step(EncodeAs::Isomorphic, UTF_8)]).unwrap();
        assert_eq!(chain_name(chain), "UTF-8 read as windows-1252");
        assert_eq!(
            steps_name(chain),
            "encoded as windows-1252, decoded as UTF-8"
        );
        // Undoing C1 controls kept by a decoder: ISO-8859-1, said plainly.
        let chain = Chain::new(&[step(EncodeAs::Isomorphic, WINDOWS_1252)]).unwrap();
        assert_eq!(chain_name(chain), "windows-1252 read as ISO-8859-1");
        assert_eq!(
            steps_name(chain),
            "encoded as ISO-8859-1, decoded as windows-1252"
        );
        let dos = step(EncodeAs::DosCodePage(DosCodePage::Cp850), UTF_8);
        let chain = Chain::new(&[dos, dos]).unwrap();
        assert_eq!(
            steps_name(chain),
            "encoded as cp850 (not in the Encoding Standard), decoded as UTF-8, twice"
        );
        assert_eq!(chain_name_terse(chain), "UTF-8 read as cp850, twice");
        for chain in [
            chain,
            Chain::new(&[step(EncodeAs::Isomorphic, UTF_8)]).unwrap(),
        ] {
            assert!(!chain_name(chain).contains("code points"));
            assert!(!steps_name(chain).contains("code points"));
        }
    }

    #[test]
    fn proposals_rank_the_right_chain_first_and_name_it_for_people() {
        let found = proposals("lâ€™Ã©tÃ© dernier, au cafÃ© de Paris", 5);
        assert_eq!(found[0].reading.text, "l’été dernier, au café de Paris");
        assert_eq!(found[0].name, "UTF-8 read as windows-1252");
        assert_eq!(found[0].misreadings, [UTF8_AS_1252]);
        // No two proposals mean the same to the user.
        for (index, proposal) in found.iter().enumerate() {
            assert!(!proposal.name.contains("code points"), "{}", proposal.name);
            assert!(
                found[..index].iter().all(|p| p.name != proposal.name),
                "{found:?}"
            );
        }
        assert!(found.iter().any(|p| p.name == "as it is"));
    }

    #[test]
    fn edits_undo_and_redo_and_replace_what_they_overlap() {
        let target = EditTarget {
            pane: 0,
            encoding: UTF_8,
            bom_handling: BomHandling::Sniff,
            generation: 1,
        };
        let edit = |start, end, text: &str| Edit {
            span: ByteSpan::new(start, end),
            original: String::new(),
            replacement: Reinterpreted {
                text: text.to_owned(),
                lost: Vec::new(),
            },
            how: text.to_owned(),
            origin: EditOrigin::ByHand,
        };
        let mut edits = ManualEdits::default();
        edits.apply(target, edit(10, 20, "b")).unwrap();
        edits.apply(target, edit(0, 5, "a")).unwrap();
        edits.apply(target, edit(15, 30, "c")).unwrap();
        let texts = |edits: &ManualEdits| -> Vec<String> {
            edits
                .edits()
                .iter()
                .map(|e| e.replacement.text.clone())
                .collect()
        };
        assert_eq!(texts(&edits), ["a", "c"]);
        assert_eq!(edits.undo().as_deref(), Some("c"));
        assert_eq!(texts(&edits), ["a", "b"]);
        assert_eq!(edits.undo().as_deref(), Some("a"));
        assert_eq!(texts(&edits), ["b"]);
        assert_eq!(edits.redo().as_deref(), Some("a"));
        assert_eq!(texts(&edits), ["a", "b"]);
        assert!(edits.can_redo());
        edits.apply(target, edit(40, 41, "d")).unwrap();
        assert!(!edits.can_redo());
        let other = EditTarget { pane: 1, ..target };
        assert_eq!(edits.apply(other, edit(0, 1, "x")), Err(target));
    }

    #[test]
    fn a_repairs_changes_apply_as_one_step_and_leave_what_was_done_by_hand() {
        let target = EditTarget {
            pane: 0,
            encoding: UTF_8,
            bom_handling: BomHandling::Sniff,
            generation: 1,
        };
        let edit = |start, end, text: &str, origin| Edit {
            span: ByteSpan::new(start, end),
            original: String::new(),
            replacement: Reinterpreted {
                text: text.to_owned(),
                lost: Vec::new(),
            },
            how: text.to_owned(),
            origin,
        };
        let texts = |edits: &ManualEdits| -> Vec<String> {
            edits
                .edits()
                .iter()
                .map(|e| e.replacement.text.clone())
                .collect()
        };
        let mut edits = ManualEdits::default();
        edits
            .apply(target, edit(10, 20, "hand", EditOrigin::ByHand))
            .unwrap();
        let repairs = vec![
            edit(0, 4, "r1", EditOrigin::Repair),
            // Over the reinterpretation by hand: left out.
            edit(18, 22, "r2", EditOrigin::Repair),
            edit(22, 25, "r3", EditOrigin::Repair),
            edit(30, 31, "r4", EditOrigin::Repair),
        ];
        assert_eq!(
            edits.apply_all(target, repairs, "the repair".to_owned()),
            Ok(3)
        );
        assert_eq!(texts(&edits), ["r1", "hand", "r3", "r4"]);
        // One undo takes every change of the repair back, and one redo
        // brings them again.
        assert_eq!(edits.undo().as_deref(), Some("the repair"));
        assert_eq!(texts(&edits), ["hand"]);
        assert_eq!(edits.redo().as_deref(), Some("the repair"));
        assert_eq!(texts(&edits), ["r1", "hand", "r3", "r4"]);
        // A reinterpretation by hand over one of them replaces it, and its
        // undo brings it back.
        edits
            .apply(target, edit(23, 24, "hand 2", EditOrigin::ByHand))
            .unwrap();
        assert_eq!(texts(&edits), ["r1", "hand", "hand 2", "r4"]);
        edits.undo();
        assert_eq!(texts(&edits), ["r1", "hand", "r3", "r4"]);
        // Nothing left to apply is no step.
        let again = vec![edit(0, 4, "r1", EditOrigin::Repair)];
        assert_eq!(edits.apply_all(target, again, "again".to_owned()), Ok(0));
        assert_eq!(edits.undo().as_deref(), Some("the repair"));
        let other = EditTarget { pane: 1, ..target };
        edits.redo();
        assert_eq!(
            edits.apply_all(other, Vec::new(), String::new()),
            Err(target)
        );
    }

    #[test]
    fn the_working_text_replaces_the_characters_of_each_span() {
        let text = "Le cafÃ© et lâ€™Ã©tÃ©\u{FFFD}.";
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(0xFF);
        let café = text.find("cafÃ©").unwrap() as u64;
        let été = text.find("lâ€™").unwrap() as u64;
        let end = text.find('\u{FFFD}').unwrap() as u64;
        let replacements = [
            Replacement {
                span: ByteSpan::new(café, café + "cafÃ©".len() as u64),
                text: "café",
                lost: &[],
            },
            Replacement {
                span: ByteSpan::new(été, end),
                text: "l’été",
                lost: &[],
            },
        ];
        let (working, errors) = working_text(&bytes, UTF_8, BomHandling::Sniff, &replacements);
        assert_eq!(working, "Le café et l’été\u{FFFD}.\u{FFFD}");
        // The U+FFFD in the file is a character; the 0xFF an error.
        assert_eq!(errors, [working.len() - 3]);
        // In a single-byte decode, item by item, with a loss.
        // "пр мир" in UTF-8 read as windows-1251: "РїСЂ", then "мир" in
        // windows-1251 itself.
        let bytes = b"\xD0\xBF\xD1\x80 \xEC\xE8\xF0";
        let replacement = Replacement {
            span: ByteSpan::new(0, 4),
            text: "п\u{FFFD}",
            lost: &[2],
        };
        let (working, errors) =
            working_text(bytes, WINDOWS_1251, BomHandling::None, &[replacement]);
        assert_eq!(working, "п\u{FFFD} мир");
        assert_eq!(errors, [2]);
    }
}
