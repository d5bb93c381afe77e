//! Mojibake repair: finding the chain of wrong decodes that damaged a text,
//! undoing it where it is sure, and saying exactly what it did.
//!
//! [`repair`] looks at each word of a text (a run between spaces and ASCII
//! punctuation, see `segment`). A word that looks like mojibake (its
//! plausibility cost is high) is tried against every chain of up to
//! three steps "encode as X, decode as Y" ([`Step`]), each in fatal mode with
//! the engine's own encoders and decoders, so a step that does not fit fails
//! instead of guessing. The chains then compete line by line: the one that
//! makes the line most plausible wins, and is applied to each word it
//! improves by a clear margin over every other reading of that word, doing
//! nothing included. Words the decision is unsure about are not changed but
//! offered as [`Repair::suggestions`]. Words too short or too plausible to
//! judge are left alone: a missed repair is better than a wrong one.
//!
//! The result is a list of [`Change`]s, each with its span in the text, the
//! replacement, the [`Chain`] that produced it and a confidence, so that a
//! user can accept or reject each one; [`Repair::apply`] and
//! [`Repair::apply_accepted`] build the repaired text.
//!
//! ```
//! use mojiscope_core::repair;
//!
//! let text = "Caf\u{e9} au lait, cafÃ© au lait, Ã©tÃ©";
//! let repair = repair::repair(text);
//! assert_eq!(repair.apply(text), "Café au lait, café au lait, été");
//! let change = &repair.changes[0];
//! assert_eq!(&text[change.utf8_range.clone()], "cafÃ©");
//! assert_eq!(change.replacement, "café");
//! assert_eq!(change.chain.to_string(), "encoded as windows-1252, decoded as UTF-8");
//! ```

mod bom;
mod chain;
mod cjk;
mod decide;
mod dos;
mod dos_tables;
mod latin;
mod lossy;
mod not_text;
mod orthography;
mod passes;
mod readings;
mod restore;
mod score;
mod search;
mod segment;
mod twice;

use rustc_hash::FxHashMap;
use std::ops::Range;
use std::rc::Rc;
use std::sync::OnceLock;

pub use self::chain::{Chain, ChainFamily, EncodeAs, MAX_MIXED_STEPS, MAX_STEPS, Step};
use self::decide::{LineContext, Scratch, decide};
pub use self::dos::DosCodePage;
pub use self::lossy::{Lost, MAX_ALTERNATIVES};
pub use self::not_text::{NotText, check_text};
use self::passes::{demote_lone_legacy, demote_lone_repairs, extend_line, reread_c1};
pub use self::readings::{MAX_READING_BYTES, Reading, readings};
use self::search::{WordRepairs, WordSource};
use crate::decoder::BomHandling;
use crate::encoding::Encoding;

/// A word costs at least this much before any chain is tried on it.
const SUSPICIOUS: f32 = 2.5;
/// A repair must lower a word's cost by at least this much to count...
const MIN_SUPPORTED_GAIN: f32 = 1.0;
/// ...and by at least this share of its cost.
const MIN_GAIN_SHARE: f32 = 0.5;
/// What a legacy decode loses for each UTF-8 sequence the word looks made of.
const LEGACY_ON_UTF8_SHAPE: f32 = 1.5;
/// What a repair gains by decoding the real bytes the text came from.
const SOURCE_BONUS: f32 = 3.0;
/// What a word costs for being in another script than its line.
const CONTEXT_MISMATCH: f32 = 1.5;
/// What a repair gains by bringing a word into its line's script.
const CONTEXT_BONUS: f32 = 3.0;
/// A single-byte legacy decode needs this many words (or the line's script).
const MIN_SINGLE_BYTE_WORDS: usize = 3;
/// The most support a line lends one word.
const MAX_SUPPORT: f32 = 2.0;
/// A word repaired on its line's evidence alone may become this much less
/// plausible (a short word of a damaged line rarely looks wrong by itself).
const SUPPORT_SLACK: f32 = 0.5;
/// A repair is applied when it beats every other reading of its word,
/// doing nothing included, by at least this much.
const MIN_MARGIN: f32 = 2.5;
/// ...and every other repair of it by at least this much.
const MIN_RIVAL_MARGIN: f32 = 1.0;
/// Words longer than this are not searched.
const MAX_WORD_BYTES: usize = 4096;
/// A word whose only damage is bytes that vanished without a mark
/// ("czÅowiek") is repaired on the evidence of this many words of its line.
const MIN_DROPPED_SUPPORT: usize = 2;
/// A repaired word costing more than this (its losses aside) is no clear
/// improvement, however odd the word was, if it also costs more than
/// [`MAX_REPAIRED_COST_PER_CHAR`] a character: it is only suggested.
const MAX_REPAIRED_COST: f32 = 3.5;
/// See [`MAX_REPAIRED_COST`]: long words of rare characters are still text.
const MAX_REPAIRED_COST_PER_CHAR: f32 = 0.8;
/// The confidence of a change demoted to a suggestion.
const UNSURE: f32 = 0.45;
/// Lines are decided in pieces of at most this many suspicious words, so
/// that one very long line costs no more than many short ones.
const MAX_WORDS_PER_DECISION: usize = 64;

/// One repaired span of the text.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The span of the input text replaced, as UTF-8 offsets.
    pub utf8_range: Range<usize>,
    /// The same span as character indices.
    pub char_range: Range<usize>,
    /// What replaces it.
    pub replacement: String,
    /// The steps that turned the span into the replacement.
    pub chain: Chain,
    /// How sure the repair is, from 0 to 1: at least 0.5 for changes, below
    /// 0.5 for suggestions.
    pub confidence: f32,
    /// The characters of the replacement that could not be recovered (each
    /// is U+FFFD in it), when bytes were lost on the way.
    pub lost: Vec<Lost>,
    /// The characters of the changed span that the repair took for others
    /// before undoing the chain (a space for the no-break space it stood
    /// for): the change rests on a guess, and says so.
    pub assumptions: Vec<Assumption>,
}

impl Change {
    /// Whether some characters could not be recovered.
    pub fn is_lossy(&self) -> bool {
        !self.lost.is_empty()
    }

    /// Whether the change rests on a guess ([`Change::assumptions`]).
    pub fn is_guess(&self) -> bool {
        !self.assumptions.is_empty()
    }

    /// How many lost bytes the change restored ([`Assumption::restored`]).
    pub fn restored_count(&self) -> usize {
        self.assumptions
            .iter()
            .filter(|assumption| assumption.restored.is_some())
            .count()
    }

    /// The changed span of `text` as the chain undid it: with each assumed
    /// character in place of the one found. The chain applied to it gives
    /// the replacement (but for lost characters). `None` if the span is not
    /// in `text`.
    pub fn assumed_original(&self, text: &str) -> Option<String> {
        let mut span = text.get(self.utf8_range.clone())?.to_owned();
        for assumption in self.assumptions.iter().rev() {
            let end = assumption.utf8_offset + assumption.found.map_or(0, char::len_utf8);
            if span.get(assumption.utf8_offset..end).is_some() {
                span.replace_range(
                    assumption.utf8_offset..end,
                    assumption.assumed.encode_utf8(&mut [0; 4]),
                );
            }
        }
        Some(span)
    }
}

/// A character of a changed span taken for another: the guess a change
/// rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assumption {
    /// Where the character is in the changed span, as a UTF-8 offset from
    /// its start.
    pub utf8_offset: usize,
    /// The character found there, or `None` where a character is assumed
    /// that left no trace (a soft hyphen, invisible and so often dropped).
    pub found: Option<char>,
    /// The character it was taken for.
    pub assumed: char,
    /// When the assumed character is a byte that was lost from a UTF-8
    /// sequence and restored (see [`Change::restored_count`]), the
    /// character the restored sequence makes: the most plausible of those
    /// the reading allows there, by a clear margin, but a guess.
    pub restored: Option<char>,
}

impl std::fmt::Display for Assumption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let assumed = u32::from(self.assumed);
        match (self.restored, self.found) {
            (Some(restored), Some(found)) => write!(
                f,
                "a lost byte restored: U+{assumed:04X} taken for U+{:04X}, making {restored:?}",
                u32::from(found)
            ),
            (Some(restored), None) => write!(
                f,
                "a lost byte restored: U+{assumed:04X} where it left no trace, making {restored:?}"
            ),
            (None, Some(found)) => write!(
                f,
                "a guess: U+{:04X} taken for U+{assumed:04X}",
                u32::from(found)
            ),
            (None, None) => write!(f, "a guess: U+{assumed:04X} assumed where it left no trace"),
        }
    }
}

/// What [`repair`] found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Repair {
    /// The changes it is sure of, in text order, not overlapping.
    pub changes: Vec<Change>,
    /// Changes it found but is not sure of (another reading comes close), in
    /// text order; they overlap no change.
    pub suggestions: Vec<Change>,
    /// Why the input was not repaired at all, when it is not text
    /// ([`check_text`]): then there are no changes and no suggestions.
    pub declined: Option<NotText>,
}

impl Repair {
    /// The repair of input that is not text: nothing.
    fn not_text(reason: NotText) -> Self {
        Self {
            declined: Some(reason),
            ..Self::default()
        }
    }

    /// Whether nothing needs repair.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// `text` with every change applied (no suggestion).
    pub fn apply(&self, text: &str) -> String {
        apply_changes(text, self.changes.iter())
    }

    /// `text` with the changes and suggestions for which `accept` is true
    /// applied.
    pub fn apply_accepted(&self, text: &str, mut accept: impl FnMut(&Change) -> bool) -> String {
        let mut chosen: Vec<&Change> = self
            .changes
            .iter()
            .chain(&self.suggestions)
            .filter(|change| accept(change))
            .collect();
        chosen.sort_by_key(|change| change.utf8_range.start);
        apply_changes(text, chosen)
    }

    /// The chain families used by the changes ([`Chain::family`]: what a
    /// user is shown as one chain), each with how many changes used it,
    /// most used first.
    pub fn families(&self) -> Vec<(ChainFamily, usize)> {
        let mut counts: Vec<(ChainFamily, usize)> = Vec::new();
        for change in &self.changes {
            let family = change.chain.family();
            match counts.iter_mut().find(|(known, _)| *known == family) {
                Some((_, count)) => *count += 1,
                None => counts.push((family, 1)),
            }
        }
        counts.sort_by_key(|&(_, count)| std::cmp::Reverse(count));
        counts
    }

    /// How many characters the changes could not recover: each is U+FFFD
    /// in its replacement ([`Change::lost`]).
    pub fn lost_count(&self) -> usize {
        self.changes.iter().map(|change| change.lost.len()).sum()
    }

    /// How many changes rest on a guess ([`Change::is_guess`]).
    pub fn guess_count(&self) -> usize {
        self.changes
            .iter()
            .filter(|change| change.is_guess())
            .count()
    }

    /// The chains used by the changes, each with how many changes used it,
    /// most used first.
    pub fn chains(&self) -> Vec<(Chain, usize)> {
        let mut counts: Vec<(Chain, usize)> = Vec::new();
        for change in &self.changes {
            match counts.iter_mut().find(|(chain, _)| *chain == change.chain) {
                Some((_, count)) => *count += 1,
                None => counts.push((change.chain, 1)),
            }
        }
        counts.sort_by_key(|&(_, count)| std::cmp::Reverse(count));
        counts
    }
}

/// Applies `changes` (in text order, not overlapping) to `text`. Changes
/// whose span is not in `text` or overlaps an earlier one are skipped.
pub fn apply_changes<'a>(text: &str, changes: impl IntoIterator<Item = &'a Change>) -> String {
    let mut repaired = String::with_capacity(text.len());
    let mut done = 0;
    for change in changes {
        let range = change.utf8_range.clone();
        if range.start < done || text.get(range.clone()).is_none() {
            continue;
        }
        repaired.push_str(&text[done..range.start]);
        repaired.push_str(&change.replacement);
        done = range.end;
    }
    repaired.push_str(&text[done..]);
    repaired
}

/// The bytes a text was decoded from, and the encoding whose decoder did it
/// (with no BOM handling). Given to [`repair_with_source`], they let the
/// first step use the real bytes instead of encoding the text again, which
/// also recovers bytes the decoder could not decode.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// The bytes.
    pub bytes: &'a [u8],
    /// The encoding they were decoded with.
    pub encoding: &'static Encoding,
}

/// Finds and undoes the mojibake in `text`.
///
/// Each line is judged on its own: a caller may repair a long text a part of
/// whole lines at a time (on threads of its own, say) and join the parts'
/// changes, shifted to where each part starts, and find what one call finds
/// (but for the mark below, which such a caller finds at the start of any
/// part).
///
/// A UTF-8 byte order mark read by a wrong decoder at the very start of
/// `text` ("ï»¿" for windows-1252) is undone into the character U+FEFF, the
/// mark the text was saved with: nothing else puts those characters there.
///
/// Input that is not text (random or binary bytes decoded somehow) is
/// declined at once, with the reason in [`Repair::declined`].
pub fn repair(text: &str) -> Repair {
    if let Err(reason) = check_text(text) {
        return Repair::not_text(reason);
    }
    if let Some(mark) = bom::misread_mark(text) {
        return mark.with_rest(Repairer::new(&text[mark.utf8_len..], None).run());
    }
    Repairer::new(text, None).run()
}

/// As [`repair`], for a text decoded from `source`. The source is used only
/// if `text` is exactly what its encoding's decoder makes of its bytes and
/// the encoding is a single-byte one that mojibake is undone from.
pub fn repair_with_source(text: &str, source: Source<'_>) -> Repair {
    if let Err(reason) = check_text(text) {
        return Repair::not_text(reason);
    }
    let usable = source.encoding.is_single_byte()
        && source.bytes.len() == text.chars().count()
        && source
            .encoding
            .decode_with_bom_handling(source.bytes, BomHandling::None)
            .text
            == text;
    let source = usable.then_some(source);
    if let Some(mark) = bom::misread_mark(text) {
        // A single-byte source has a byte for each character.
        let source = source.and_then(|source| {
            Some(Source {
                bytes: source.bytes.get(3..)?,
                ..source
            })
        });
        return mark.with_rest(Repairer::new(&text[mark.utf8_len..], source).run());
    }
    Repairer::new(text, source).run()
}

/// A word of a line that looks like mojibake.
struct Word {
    utf8_range: Range<usize>,
    char_range: Range<usize>,
    cost: f32,
    /// The script most of the word's letters are in, as it stands.
    script: Option<score::Script>,
    /// Whether its first character outside ASCII is no letter ("×£",
    /// "√π"): a single such sequence is as likely a symbol as mojibake.
    symbol_led: bool,
    /// Whether its characters outside ASCII are all letters ("mätesdì"):
    /// a single-byte legacy decode of such words alone turns letters into
    /// other letters, which is no evidence of damage.
    letters_only: bool,
    /// What the word's repair assumes (a space taken for a lost no-break
    /// space, a soft hyphen that was dropped), if anything.
    assumption: Option<Assumption>,
    repairs: Rc<WordRepairs>,
}

impl Word {
    fn assumptions(&self) -> Vec<Assumption> {
        self.assumption.iter().cloned().collect()
    }
}

/// A decision about one word.
struct Decision {
    word: usize,
    chain: Chain,
    outcome: usize,
    confidence: f32,
    /// The confidence the margin alone gave, before a reading that is odd
    /// text itself was held back to a suggestion: a line whose other words
    /// the chain repairs surely lifts it back (`support` in [`passes`]).
    uncapped: f32,
}

/// The most words a repair keeps what it knows of (a few kilobytes each:
/// a word's repairs hold every chain that applies and what it makes).
const MAX_KNOWN_WORDS: usize = 1 << 13;

/// What is known of a word wherever it appears: a text repeats its words,
/// so each is judged once.
struct Known {
    cost: f32,
    script: Option<score::Script>,
    /// See [`Word::symbol_led`] and [`Word::letters_only`].
    symbol_led: bool,
    letters_only: bool,
    /// What its letters say of a Latin code page read as another.
    letters: latin::Letters,
    /// Its best readings, once asked for (see [`Repairer::best_reading`]):
    /// with lossy ones, and without.
    best: [Option<(f32, bool)>; 2],
    /// Its repairs, once it was suspect somewhere.
    repairs: Option<Rc<WordRepairs>>,
}

impl Known {
    fn of(word: &str) -> Self {
        Self {
            cost: score::word_cost(word),
            script: score::dominant_script(word),
            symbol_led: symbol_led(word),
            letters_only: letters_only(word),
            letters: latin::Letters::of(word),
            best: [None; 2],
            repairs: None,
        }
    }
}

/// Small numbers for the chains a repair meets, so that a line's readings
/// find their chain's column by index instead of by hashing.
#[derive(Default)]
struct ChainIds {
    ids: FxHashMap<Chain, u32>,
}

impl ChainIds {
    fn id(&mut self, chain: Chain) -> u32 {
        let next = u32::try_from(self.ids.len()).unwrap_or(u32::MAX);
        *self.ids.entry(chain).or_insert(next)
    }

    fn number(&mut self, mut repairs: WordRepairs) -> WordRepairs {
        repairs.ids = repairs
            .chains
            .iter()
            .map(|&(chain, _)| self.id(chain))
            .collect();
        repairs
    }

    fn len(&self) -> usize {
        self.ids.len()
    }
}

struct Repairer<'a> {
    text: &'a str,
    source: Option<Source<'a>>,
    known: FxHashMap<&'a str, Known>,
    chain_ids: ChainIds,
    scratch: Scratch,
    /// The words of the line being repaired, every one and the suspect
    /// ones (kept to reuse their memory).
    ranges: Vec<Range<usize>>,
    plain: Vec<(Range<usize>, Range<usize>, f32)>,
    words: Vec<Word>,
    /// The line being repaired, and whether a UTF-8 sequence is cut short
    /// inside one of its words (worked out when asked).
    line: Range<usize>,
    line_cut_inside: Option<bool>,
    /// Whether the line being repaired still holds a no-break space, and
    /// a C1 control (worked out when asked).
    line_keeps_nbsp: Option<bool>,
    line_keeps_c1: Option<bool>,
    /// What the letters of the line being repaired say, as it stands.
    line_letters: latin::Letters,
    repair: Repair,
}

impl<'a> Repairer<'a> {
    fn new(text: &'a str, source: Option<Source<'a>>) -> Self {
        Self {
            text,
            source,
            known: FxHashMap::default(),
            chain_ids: ChainIds::default(),
            scratch: Scratch::default(),
            ranges: Vec::new(),
            plain: Vec::new(),
            words: Vec::new(),
            line: 0..0,
            line_cut_inside: None,
            line_keeps_nbsp: None,
            line_keeps_c1: None,
            line_letters: latin::Letters::NONE,
            repair: Repair::default(),
        }
    }

    fn run(mut self) -> Repair {
        let text = self.text;
        if text.is_ascii() {
            return self.repair;
        }
        let mut char_index = 0;
        for (line, newline) in segment::lines(text) {
            // A text of names or codes repeats few words: what is known is
            // forgotten now and then rather than grow with the text.
            if self.known.len() >= MAX_KNOWN_WORDS {
                self.known.clear();
            }
            let line_text = &text[line.clone()];
            let line_chars = if line_text.is_ascii() {
                line_text.len()
            } else {
                self.repair_line(line.clone(), char_index)
            };
            char_index += line_chars + newline;
        }
        self.repair
    }

    /// Repairs one line starting at character `char_start`; returns its
    /// length in characters.
    fn repair_line(&mut self, line: Range<usize>, char_start: usize) -> usize {
        let text = self.text;
        self.line = line.clone();
        self.line_cut_inside = None;
        self.line_keeps_nbsp = None;
        self.line_keeps_c1 = None;
        self.line_letters = latin::Letters::NONE;
        let line_text = &text[line.clone()];
        // Every word with a character outside ASCII, and among them those
        // that look like mojibake and have a chain that applies. A word with
        // letters outside ASCII in another script than most of its line
        // ("ìàº" among Ukrainian words) is a little suspicious already.
        let mut line_script = None;
        let mut plain = std::mem::take(&mut self.plain);
        let mut words = std::mem::take(&mut self.words);
        plain.clear();
        words.clear();
        let mut counted = line.start;
        let mut char_index = char_start;
        let mut ranges = std::mem::take(&mut self.ranges);
        ranges.clear();
        ranges.extend(segment::words(line_text, line.start));
        self.split_partly_repaired(&mut ranges);
        let mut next = 0;
        while let Some(range) = ranges.get(next).cloned() {
            next += 1;
            if let Some((word, taken)) = self.nbsp_word(
                &ranges[next - 1..],
                char_index + text[counted..range.start].chars().count(),
            ) {
                plain.push((word.utf8_range.clone(), word.char_range.clone(), word.cost));
                self.line_letters = self
                    .line_letters
                    .and(latin::Letters::of(&text[word.utf8_range.clone()]));
                char_index = word.char_range.end;
                counted = word.utf8_range.end;
                next += taken - 1;
                words.push(word);
                continue;
            }
            char_index += text[counted..range.start].chars().count();
            let word_text = &text[range.clone()];
            let word_chars = word_text.chars().count();
            let char_range = char_index..char_index + word_chars;
            char_index += word_chars;
            counted = range.end;
            // A "word" of thousands of characters is no damaged word (30 MB
            // of 0xFF read as windows-1252 is one): it is not searched.
            if word_text.is_ascii() || word_text.len() > MAX_WORD_BYTES {
                continue;
            }
            let known = self
                .known
                .entry(word_text)
                .or_insert_with(|| Known::of(word_text));
            let (mut cost, word_script) = (known.cost, known.script);
            let (word_symbol_led, word_letters_only) = (known.symbol_led, known.letters_only);
            self.line_letters = self.line_letters.and(known.letters);
            if cost < SUSPICIOUS && cost + CONTEXT_MISMATCH >= SUSPICIOUS {
                let line_script =
                    *line_script.get_or_insert_with(|| score::dominant_script(line_text));
                if line_script.is_some() && word_script != line_script && word_script.is_some() {
                    cost += CONTEXT_MISMATCH;
                }
            }
            plain.push((range.clone(), char_range.clone(), cost));
            if cost < SUSPICIOUS {
                continue;
            }
            let repairs = word_repairs(
                known,
                &mut self.chain_ids,
                self.source,
                word_text,
                &char_range,
            );
            if repairs.chains.is_empty() {
                continue;
            }
            words.push(Word {
                script: word_script,
                symbol_led: word_symbol_led,
                letters_only: word_letters_only,
                assumption: None,
                utf8_range: range,
                char_range,
                cost,
                repairs,
            });
        }
        self.ranges = ranges;
        char_index += text[counted..line.end].chars().count();
        let mut decisions = self.decide_words(&line, &words);
        self.extend_decisions(&line, &plain, &mut words, &mut decisions);
        decisions.sort_by_key(|decision| words[decision.word].utf8_range.start);
        self.record(&words, &decisions);
        self.plain = plain;
        self.words = words;
        char_index - char_start
    }

    /// The passes over a line's decisions after each word was decided on
    /// its own: the line's evidence extends, corrects and demotes them.
    fn extend_decisions(
        &mut self,
        line: &Range<usize>,
        plain: &[(Range<usize>, Range<usize>, f32)],
        words: &mut Vec<Word>,
        decisions: &mut Vec<Decision>,
    ) {
        let text = self.text;
        extend_line(text, plain, words, decisions, &mut self.chain_ids);
        reread_c1(text, words, decisions, &mut self.chain_ids);
        demote_lone_legacy(decisions);
        demote_lone_repairs(text, plain, words, decisions);
        let letters = self.line_letters;
        latin::reread_line(
            text,
            line,
            plain,
            letters,
            words,
            decisions,
            &mut self.chain_ids,
        );
    }

    /// The word a space taken for a lost no-break space makes of the first
    /// of `ranges` (which starts at character `char_start`), and of the
    /// next if the space is all that separates them, with how many of
    /// `ranges` it takes; `None` unless such a word has a chain that
    /// decodes UTF-8 with nothing lost. "voilÃ" and a space are "voilà":
    /// "à" is C3 A0 in UTF-8, and A0 is windows-1252's no-break space, which
    /// some software turned into a space.
    fn nbsp_word(&mut self, ranges: &[Range<usize>], char_start: usize) -> Option<(Word, usize)> {
        let text = self.text;
        let first = ranges.first()?;
        let word_text = &text[first.clone()];
        if text.as_bytes().get(first.end) != Some(&b' ') || word_text.len() > MAX_WORD_BYTES {
            return None;
        }
        let after = ranges
            .get(1)
            .filter(|next| next.start == first.end + 1)
            .map_or("", |next| &text[next.clone()]);
        if !ends_in_a_cut_sequence(word_text, after) {
            return None;
        }
        // A line that still holds a no-break space did not have its
        // no-break spaces turned into spaces: the byte the word lost before
        // this space was another (see `restore`).
        let keeps_nbsp = *self
            .line_keeps_nbsp
            .get_or_insert_with(|| text[self.line.clone()].contains('\u{A0}'));
        if keeps_nbsp {
            return None;
        }
        // When the space is all that is between the word and the next, the
        // no-break space glued them: that must read better than the two
        // words apart, each read at its best ("신규", but not "ChàMinh" or
        // "декларациѠправ", where a byte was lost instead).
        let next = ranges.get(1).filter(|next| next.start == first.end + 1);
        let (repairs, joined, assumption) = match next {
            None => {
                let (repairs, cost) = nbsp_repairs(word_text, "")?;
                // A byte dropped from the cut sequence, restored clearly,
                // may read better: "Helloâ€" and a space are "Hello”"
                // (0x9D dropped), not "Hello†" (0xA0 made a space). Not in
                // a line that keeps C1 controls: its decoder dropped none.
                let keeps_c1 = *self.line_keeps_c1.get_or_insert_with(|| {
                    text[self.line.clone()]
                        .chars()
                        .any(|c| ('\u{80}'..='\u{9F}').contains(&c))
                });
                if !keeps_c1
                    && self
                        .restored_reading(word_text)
                        .is_some_and(|restored| restored + restore::CLEAR_MARGIN <= cost)
                {
                    return None;
                }
                (repairs, None, nbsp_assumption(first.len()))
            }
            Some(next) => {
                let next_text = &text[next.clone()];
                if next_text.len() > MAX_WORD_BYTES {
                    return None;
                }
                let (glued, glued_cost) = nbsp_repairs(word_text, next_text)?;
                let next_cost = best_reading(next_text);
                if glued_cost > best_reading(word_text) + next_cost {
                    return None;
                }
                // A soft hyphen is invisible, and so often dropped: when
                // one lost at the end of the word explains it whole and
                // leaves the next word better apart ("ChÃƒÂ Minh" is "Chí
                // Minh", not "ChàMinh"), the space was a space, and the
                // word is repaired on that other guess.
                let mut shy = String::with_capacity(word_text.len() + 2);
                shy.push_str(word_text);
                shy.push(SOFT_HYPHEN);
                // Where bytes were dropped inside words too, the byte lost
                // before the space was one of those.
                let cut_inside = *self.line_cut_inside.get_or_insert_with(|| {
                    text[self.line.clone()].split(' ').any(cut_short_inside)
                });
                match whole_utf8_repairs(&shy) {
                    Some((dropped, cost)) if !cut_inside && cost + next_cost < glued_cost => (
                        dropped,
                        None,
                        Assumption {
                            utf8_offset: first.len(),
                            found: None,
                            assumed: SOFT_HYPHEN,
                            restored: None,
                        },
                    ),
                    _ => (glued, Some(next), nbsp_assumption(first.len())),
                }
            }
        };
        let end = match (joined, assumption.found) {
            (Some(next), _) => next.end,
            (None, Some(_)) => first.end + 1,
            (None, None) => first.end,
        };
        let cost = score::word_cost(word_text)
            + joined.map_or(0.0, |next| score::word_cost(&text[next.clone()]));
        let chars = text[first.start..end].chars().count();
        Some((
            Word {
                utf8_range: first.start..end,
                char_range: char_start..char_start + chars,
                cost,
                script: score::dominant_script(word_text),
                symbol_led: symbol_led(word_text),
                letters_only: letters_only(word_text),
                assumption: Some(assumption),
                repairs: Rc::new(self.chain_ids.number(repairs)),
            },
            1 + usize::from(joined.is_some()),
        ))
    }

    /// Cuts words at typographic punctuation (’ “ ” « » – — …) where their
    /// pieces read better repaired on their own than the word does: text
    /// that earlier software repaired in part ("l’humanitÃ©", where "’" is
    /// right and "Ã©" is not) holds correct characters that no chain of
    /// the rest can explain. Mojibake that holds such characters as bytes
    /// of its own ("–¾“ú‚Ì’©" is Shift_JIS) reads better whole.
    fn split_partly_repaired(&mut self, ranges: &mut Vec<Range<usize>>) {
        let text = self.text;
        let mut index = 0;
        while let Some(range) = ranges.get(index).cloned() {
            index += 1;
            let word = &text[range.clone()];
            if word.is_ascii() || word.len() > MAX_WORD_BYTES {
                continue;
            }
            let whole = self.known_cost(word);
            if whole < SUSPICIOUS {
                continue;
            }
            // Typographic punctuation is U+00AB, U+00BB or U+2013 to U+2026:
            // its UTF-8 starts with C2 or E2.
            let bytes = word.as_bytes();
            let typographic =
                (bytes.contains(&0xE2) || bytes.contains(&0xC2)) && word.contains(is_typographic);
            // Characters in no UTF-8 sequence of a word that holds some
            // ("BožiÄ‡a": "ž" was typed right, "Ä‡" is "ć" misread).
            let strays = stray_characters(word);
            if !typographic && strays.is_empty() {
                continue;
            }
            // Typographic punctuation that ends a whole sequence is a byte
            // of it ("…" is 0x85 in "à¤…", Devanagari "अ").
            let in_sequence = if typographic {
                continuations_in_sequences(word)
            } else {
                Vec::new()
            };
            let mut pieces = Vec::new();
            let mut start = range.start;
            for (offset, c) in word.char_indices() {
                let typographic_cut = is_typographic(c) && !in_sequence.contains(&offset);
                if typographic_cut || strays.binary_search(&offset).is_ok() {
                    if start < range.start + offset {
                        pieces.push(start..range.start + offset);
                    }
                    start = range.start + offset + c.len_utf8();
                }
            }
            if start < range.end {
                pieces.push(start..range.end);
            }
            // A word that a chain decodes whole as UTF-8 is mojibake whole.
            // (Not with bytes lost, where it holds stray characters: "ê"
            // followed by "t" in "prêtÃ©e" is no sequence cut short.)
            let (best, whole_utf8) = self.best_reading(word, true);
            if whole_utf8 && (strays.is_empty() || self.best_reading(word, false).1) {
                continue;
            }
            // Against a lead written right, the reading that lost two or
            // three bytes after it is no rival: the pieces are weighed
            // against the word's UTF-8 decodes that keep every byte (a
            // legacy decode of the whole, "skr獺繠" for "skrÃ¡ðu", is
            // weighed on the pieces all the same).
            let best = if strays
                .iter()
                .any(|&offset| word[offset..].chars().next().is_some_and(is_lone_lead))
            {
                let repairs = self.repairs_of(word);
                repairs
                    .chains
                    .iter()
                    .filter(|&&(chain, outcome)| {
                        chain.last().is_some_and(Step::decodes_utf8)
                            && repairs.outcomes[outcome].lost.is_empty()
                    })
                    .map(|&(chain, outcome)| repairs.outcomes[outcome].cost + chain.prior_cost())
                    .fold(whole, f32::min)
            } else {
                best
            };
            let whole_gain = whole - best;
            let mut split_gain = 0.0;
            for piece in &pieces {
                let piece_text = &text[piece.clone()];
                if !piece_text.is_ascii() {
                    split_gain +=
                        self.known_cost(piece_text) - self.best_reading(piece_text, false).0;
                }
            }
            if split_gain > whole_gain + MIN_SUPPORTED_GAIN {
                let taken = pieces.len();
                ranges.splice(index - 1..index, pieces);
                index += taken - 1;
            }
        }
    }

    /// The plausibility cost of `word`, through the cache of known words.
    fn known_cost(&mut self, word: &'a str) -> f32 {
        self.known
            .entry(word)
            .or_insert_with(|| Known::of(word))
            .cost
    }

    /// Every repair of `word`, through the cache of known words.
    fn repairs_of(&mut self, word: &'a str) -> Rc<WordRepairs> {
        let chain_ids = &mut self.chain_ids;
        let known = self.known.entry(word).or_insert_with(|| Known::of(word));
        Rc::clone(
            known
                .repairs
                .get_or_insert_with(|| Rc::new(chain_ids.number(search::search(word, None)))),
        )
    }

    /// The cost of the best reading of `word` that decodes UTF-8 with every
    /// lost byte restored (with its chain's prior), if there is one.
    fn restored_reading(&mut self, word: &'a str) -> Option<f32> {
        let repairs = self.repairs_of(word);
        repairs
            .chains
            .iter()
            .filter(|(chain, _)| chain.last().is_some_and(Step::decodes_utf8))
            .filter_map(|&(chain, outcome)| {
                let outcome = &repairs.outcomes[outcome];
                if outcome.lost.is_empty() || outcome.restorations.is_empty() {
                    return None;
                }
                let finished = restore::finish(outcome, chain);
                finished
                    .lost
                    .is_empty()
                    .then(|| score::word_cost(&finished.text) + chain.prior_cost())
            })
            .min_by(f32::total_cmp)
    }

    /// The cost of the most plausible reading of `word`, repaired (with its
    /// chain's prior, and nothing lost unless `lossy`) or not, through the
    /// cache of known words, and whether a chain decodes the whole word as UTF-8 (with
    /// bytes lost on the way only if `lossy`).
    fn best_reading(&mut self, word: &'a str, lossy: bool) -> (f32, bool) {
        let cost = self.known_cost(word);
        if let Some(best) = self
            .known
            .get(word)
            .and_then(|known| known.best[usize::from(lossy)])
        {
            return best;
        }
        let repairs = self.repairs_of(word);
        let whole = |&(chain, outcome): &(Chain, usize)| {
            chain.last().is_some_and(Step::decodes_utf8)
                && (lossy || repairs.outcomes[outcome].lost.is_empty())
        };
        let best = repairs
            .chains
            .iter()
            .filter(|(_, outcome)| lossy || repairs.outcomes[*outcome].lost.is_empty())
            .map(|&(chain, outcome)| repairs.outcomes[outcome].cost + chain.prior_cost())
            .fold(cost, f32::min);
        let best = (best, repairs.chains.iter().any(whole));
        if let Some(known) = self.known.get_mut(word) {
            known.best[usize::from(lossy)] = Some(best);
        }
        best
    }

    /// The decisions on a line's suspect `words`, taken in pieces of at
    /// most [`MAX_WORDS_PER_DECISION`].
    fn decide_words(&mut self, line: &Range<usize>, words: &[Word]) -> Vec<Decision> {
        if words.is_empty() {
            return Vec::new();
        }
        let text = self.text;
        let line_text = &text[line.clone()];
        // The letters outside the suspicious words say what script the
        // line is in.
        let mut plausible = String::new();
        let mut done = line.start;
        for word in words {
            plausible.push_str(&text[done..word.utf8_range.start]);
            done = word.utf8_range.end;
        }
        plausible.push_str(&text[done..line.end]);
        let foreign_letters = plausible
            .split(char::is_whitespace)
            .map(|word| word.trim_matches(|c: char| c.is_ascii_punctuation()))
            .filter(|word| {
                word.chars().nth(1).is_some()
                    && !word.chars().any(|c| c.is_ascii())
                    && letters_only(word)
            })
            .map(str::to_owned)
            .collect();
        let context = LineContext {
            script: score::dominant_script(&plausible),
            foreign_letters,
        };
        let mut decisions = Vec::new();
        self.scratch.make_room(self.chain_ids.len());
        for (number, piece) in words.chunks(MAX_WORDS_PER_DECISION).enumerate() {
            let offset = number * MAX_WORDS_PER_DECISION;
            decisions.extend(
                decide(line_text, line.start, piece, &context, &mut self.scratch)
                    .into_iter()
                    .map(|decision| Decision {
                        word: decision.word + offset,
                        ..decision
                    }),
            );
        }
        decisions
    }

    /// Turns decisions into changes, merging neighbouring words repaired by
    /// the same chain.
    fn record(&mut self, words: &[Word], decisions: &[Decision]) {
        let mut previous: Option<(usize, bool)> = None;
        for decision in decisions {
            let word = &words[decision.word];
            let outcome = &word.repairs.outcomes[decision.outcome];
            // The bytes the chain's reading restores, and the guesses.
            let restore::Finished {
                text: replacement,
                lost,
                assumptions: restored,
                chain,
            } = restore::finish(outcome, decision.chain);
            let mut assumptions = word.assumptions();
            assumptions.extend(restored);
            assumptions.sort_by_key(|assumption| assumption.utf8_offset);
            let applied = decision.confidence >= 0.5;
            let list = if applied {
                &mut self.repair.changes
            } else {
                &mut self.repair.suggestions
            };
            let mergeable = previous.is_some_and(|(index, was_applied)| {
                was_applied == applied
                    && self.text[words[index].utf8_range.end..word.utf8_range.start]
                        .chars()
                        .all(segment::is_separator)
            });
            previous = Some((decision.word, applied));
            if mergeable
                && let Some(last) = list.last_mut()
                && last.chain == chain
            {
                let between = &self.text[last.utf8_range.end..word.utf8_range.start];
                last.replacement.push_str(between);
                let base = last.replacement.len();
                last.replacement.push_str(&replacement);
                last.lost.extend(lost.into_iter().map(|lost| Lost {
                    utf8_offset: base + lost.utf8_offset,
                    ..lost
                }));
                let start = word.utf8_range.start - last.utf8_range.start;
                last.assumptions
                    .extend(assumptions.into_iter().map(|assumption| Assumption {
                        utf8_offset: start + assumption.utf8_offset,
                        ..assumption
                    }));
                last.utf8_range.end = word.utf8_range.end;
                last.char_range.end = word.char_range.end;
                last.confidence = last.confidence.min(decision.confidence);
                continue;
            }
            list.push(Change {
                utf8_range: word.utf8_range.clone(),
                char_range: word.char_range.clone(),
                replacement,
                chain,
                confidence: decision.confidence,
                lost,
                assumptions,
            });
        }
    }
}

/// U+00AD SOFT HYPHEN: invisible, and so often dropped.
const SOFT_HYPHEN: char = '\u{AD}';

/// A space at `utf8_offset` taken for the no-break space it stood for.
fn nbsp_assumption(utf8_offset: usize) -> Assumption {
    Assumption {
        utf8_offset,
        found: Some(' '),
        assumed: '\u{A0}',
        restored: None,
    }
}

/// The cost of the most plausible reading of `word`, repaired or not.
fn best_reading(word: &str) -> f32 {
    let repairs = search::search(word, None);
    repairs
        .chains
        .iter()
        .map(|&(chain, outcome)| repairs.outcomes[outcome].cost + chain.prior_cost())
        .fold(score::word_cost(word), f32::min)
}

/// The repairs of `word` followed by a no-break space and `next` that decode
/// UTF-8 with nothing lost, with the cost of the best; `None` if there are
/// none.
fn nbsp_repairs(word: &str, next: &str) -> Option<(WordRepairs, f32)> {
    let mut assumed = String::with_capacity(word.len() + 2 + next.len());
    assumed.push_str(word);
    assumed.push('\u{A0}');
    assumed.push_str(next);
    whole_utf8_repairs(&assumed)
}

/// The repairs of `assumed` that decode UTF-8 with nothing lost, with the
/// cost of the best; `None` if there are none.
fn whole_utf8_repairs(assumed: &str) -> Option<(WordRepairs, f32)> {
    let mut repairs = search::search(assumed, None);
    // Only whole UTF-8 decodes: a guess on top of a loss is too much.
    let keep: Vec<(Chain, usize)> = repairs
        .chains
        .iter()
        .copied()
        .filter(|&(chain, outcome)| {
            chain.last().is_some_and(Step::decodes_utf8)
                && repairs.outcomes[outcome].lost.is_empty()
        })
        .collect();
    let best = keep
        .iter()
        .map(|&(chain, outcome)| repairs.outcomes[outcome].cost + chain.prior_cost())
        .min_by(f32::total_cmp)?;
    repairs.chains = keep;
    Some((repairs, best))
}

/// Whether `c` is typographic punctuation that software repairing text in
/// part restores first.
fn is_typographic(c: char) -> bool {
    matches!(c, '‘' | '’' | '“' | '”' | '«' | '»' | '–' | '—' | '…')
}

/// Whether `c`, read as windows-1252, is a lead byte that
/// [`stray_characters`] takes for a letter written right when nothing of
/// its sequence follows: three-byte leads but "â" (E2), and "ð" (F0).
fn is_lone_lead(c: char) -> bool {
    matches!(misread_byte(c), Some(0xE0 | 0xE1 | 0xE3..=0xEF | 0xF0))
}

/// Whether `word` holds a lead byte of [`is_lone_lead`] with an ASCII
/// letter or the word's edge on either side ("é" alone, "Cuáit"): a
/// letter written right, which a lossy reading would make U+FFFD.
fn has_latin_lone_lead(word: &str) -> bool {
    let chars: Vec<char> = word.chars().collect();
    let latin = |c: Option<&char>| c.is_none_or(char::is_ascii_alphabetic);
    chars.iter().enumerate().any(|(index, &c)| {
        is_lone_lead(c)
            && latin(index.checked_sub(1).and_then(|before| chars.get(before)))
            && latin(chars.get(index + 1))
    })
}

/// The UTF-8 offsets in `word` of the characters outside ASCII that are in
/// no UTF-8 sequence of the bytes the word looks like (each character taken
/// back to its windows-1252 byte, or ISO-8859-1 for C1 controls) and are no
/// lead byte, when the word holds at least as many whole sequences as
/// such characters that windows-1252 has; empty otherwise. Those characters
/// were right when the rest was misread, or were typed into the mojibake
/// later. (Characters windows-1252 has not, "А" in "АнтÐ¸гуÐ°", cannot be
/// bytes it misread.)
fn stray_characters(word: &str) -> Vec<usize> {
    // A UTF-8 lead byte read as windows-1252 is one of "Â" to "ô".
    if !word.chars().any(|c| ('\u{C2}'..='\u{F4}').contains(&c)) {
        return Vec::new();
    }
    let mut strays = Vec::new();
    let mut misread_strays = 0;
    let mut sequences = 0;
    // The continuation bytes a sequence still needs, and the offsets of
    // those it has (strays if it is broken off).
    let mut needed = 0;
    let mut taken = [0; 3];
    let mut taken_count = 0;
    // Continuation bytes at the start of the word end a sequence cut short
    // by the word's start: its lead byte is in the word before, with a
    // space between taken for a no-break space.
    let mut leading = Some(0);
    let mut four_byte_lead = None;
    // A three-byte lead other than "â" (E2), or "ð" (F0), that follows an
    // ASCII letter and comes before an ASCII letter, the lead of a
    // two-byte sequence or the end of the word: two bytes or three lost in
    // a row, or (far likelier in a word that holds whole sequences) a
    // letter written right ("ä" in "HälsingÃ¶r", "ç" in "transaçÃµes",
    // "é" in "Ã©té"). "â" alone is "“" or "—" whose C1 controls were both
    // dropped; in CJK mojibake and legacy text misread, such leads follow
    // other bytes beyond ASCII (which make two-byte sequences by chance).
    let mut lone_lead: Option<(usize, bool)> = None;
    // Whether the previous character is an ASCII letter, or ends a whole
    // two-byte sequence led by C3 ("Ã"): a Latin-1 letter misread ("ð"
    // after "Ã¡" in "skrÃ¡ðu"), which comes before an ASCII letter.
    let mut after_letter = false;
    let mut after_latin1 = false;
    let mut sequence_lead = None;
    for (offset, c) in word.char_indices() {
        let before = std::mem::replace(&mut after_letter, c.is_ascii_alphabetic());
        let before_latin1 = std::mem::replace(&mut after_latin1, false);
        let byte = misread_byte(c);
        let continuation = byte.is_some_and(|byte| (0x80..=0xBF).contains(&byte));
        if needed > 0 {
            if continuation {
                taken[taken_count] = offset;
                taken_count += 1;
                needed -= 1;
                if needed == 0 {
                    sequences += 1;
                    after_latin1 = taken_count == 1 && sequence_lead == Some(0xC3);
                    taken_count = 0;
                }
                continue;
            }
            strays.extend_from_slice(&taken[..taken_count]);
            // A four-byte lead from "ñ" to "ô" starts planes no text uses
            // (unassigned, or private): cut short, it is a letter written
            // right ("Españ" before "Ã³l"), not a sequence that lost bytes.
            if let Some(lead) = four_byte_lead.take() {
                strays.push(lead);
                misread_strays += 1;
            }
            if let Some((lead, latin1)) = lone_lead.take()
                && taken_count == 0
                && (c.is_ascii_alphabetic() || (!latin1 && matches!(byte, Some(0xC2..=0xDF))))
            {
                strays.push(lead);
                misread_strays += 1;
            }
            needed = 0;
            taken_count = 0;
        }
        four_byte_lead = None;
        lone_lead = None;
        if let Some(count) = leading
            && continuation
            && count < 3
        {
            leading = Some(count + 1);
            continue;
        }
        leading = None;
        sequence_lead = byte;
        match byte {
            _ if c.is_ascii() => {}
            // A lead byte in no sequence is one whose next bytes were
            // lost: the lossy repairs' to judge, so it is no stray
            // ("братÑтва").
            Some(0xC2..=0xDF) => needed = 1,
            Some(0xE0..=0xEF) => {
                needed = 2;
                lone_lead =
                    (is_lone_lead(c) && (before || before_latin1)).then_some((offset, !before));
            }
            Some(0xF0..=0xF4) => {
                needed = 3;
                four_byte_lead = (byte != Some(0xF0)).then_some(offset);
                lone_lead =
                    (is_lone_lead(c) && (before || before_latin1)).then_some((offset, !before));
            }
            Some(_) => {
                strays.push(offset);
                misread_strays += 1;
            }
            None => strays.push(offset),
        }
    }
    // A lone lead at the end of the word is a letter written right too
    // ("té" after "Ã©").
    if needed > 0
        && taken_count == 0
        && let Some((lead, false)) = lone_lead
    {
        strays.push(lead);
        misread_strays += 1;
    }
    // A sequence cut short by the end of the word is no stray either: a
    // byte of it was lost, or was a no-break space ("voilÃ" and a space).
    // Mojibake of a legacy encoding makes a UTF-8 sequence now and then
    // among many characters that are in none ("¼ıÀÚ¸¸" is EUC-KR).
    if sequences == 0 || misread_strays > sequences {
        strays.clear();
    }
    strays.sort_unstable();
    strays
}

/// The UTF-8 offsets in `word` of the characters that are continuation
/// bytes of whole UTF-8 sequences in the bytes the word looks like (each
/// character taken back to its windows-1252 byte, or ISO-8859-1 for C1
/// controls): of three or four bytes, or of two led by the lead bytes of
/// Latin-1 and Latin Extended-A letters, Greek, Cyrillic, Hebrew and
/// Arabic ("Ð»" is "л", "Ã«" is "ë", "Î”" is "Δ"). Other two-byte leads
/// are left out: legacy mojibake makes such sequences now and then, "Í’"
/// in Shift_JIS read as windows-1252.
fn continuations_in_sequences(word: &str) -> Vec<usize> {
    let mut found = Vec::new();
    let mut taken = Vec::with_capacity(3);
    let mut needed = 0;
    for (offset, c) in word.char_indices() {
        let byte = misread_byte(c);
        if needed > 0 && byte.is_some_and(|byte| (0x80..=0xBF).contains(&byte)) {
            taken.push(offset);
            needed -= 1;
            if needed == 0 {
                found.append(&mut taken);
            }
            continue;
        }
        taken.clear();
        needed = match byte {
            Some(0xC3..=0xC5 | 0xCE | 0xCF | 0xD0 | 0xD1 | 0xD7..=0xD9) => 1,
            Some(0xE0..=0xEF) => 2,
            Some(0xF0..=0xF4) => 3,
            _ => 0,
        };
    }
    found
}

/// The byte `c` was in windows-1252 (or ISO-8859-1, for C1 controls), if
/// it was one.
fn misread_byte(c: char) -> Option<u8> {
    static HIGH: OnceLock<[Option<char>; 32]> = OnceLock::new();
    if let Ok(byte) = u8::try_from(u32::from(c)) {
        return Some(byte);
    }
    // Only windows-1252's 0x80 to 0x9F are above U+00FF, and all of them
    // are in these ranges.
    if !matches!(u32::from(c), 0x152..=0x192 | 0x2C6 | 0x2DC | 0x2013..=0x2122) {
        return None;
    }
    let high = HIGH.get_or_init(|| {
        std::array::from_fn(|offset| {
            EncodeAs::Encoding(crate::WINDOWS_1252).decode_byte(0x80 + offset as u8)
        })
    });
    high.iter()
        .position(|&known| known == Some(c))
        .map(|offset| 0x80 + offset as u8)
}

/// Whether `word`, read back into windows-1252 bytes, ends in a UTF-8
/// sequence cut short by one byte or more, which a no-break space (and
/// then the first characters of `next`, the word after the space) would
/// complete: the space may have been a no-break space.
fn ends_in_a_cut_sequence(word: &str, next: &str) -> bool {
    let mut continuations = 0;
    for c in word.chars().rev().take(4) {
        let Some(byte) = misread_byte(c) else {
            return false;
        };
        let needed = match byte {
            0x80..=0xBF => {
                continuations += 1;
                continue;
            }
            0xC2..=0xDF => 1,
            0xE0..=0xEF => 2,
            0xF0..=0xF4 => 3,
            _ => return false,
        };
        if continuations >= needed {
            return false;
        }
        // The no-break space is one continuation byte; the next word must
        // begin with the others. A lone lead of a longer sequence ("é" in
        // "Café", E9) is taken for one only in a word that shows a whole
        // misread sequence too: else it is a letter of its own, and the
        // no-break space would glue it to the next word's first letter
        // into a character of another script ("Café Škoda" is no
        // "Caf頊koda").
        let rest = needed - continuations - 1;
        if continuations == 0 && rest > 0 && !holds_a_whole_sequence(word) {
            return false;
        }
        return next
            .chars()
            .take(rest)
            .filter(|&c| misread_byte(c).is_some_and(|byte| (0x80..=0xBF).contains(&byte)))
            .count()
            == rest;
    }
    false
}

/// Whether `word`, read back into windows-1252 bytes, holds a whole UTF-8
/// sequence beyond ASCII.
fn holds_a_whole_sequence(word: &str) -> bool {
    let bytes: Vec<Option<u8>> = word
        .chars()
        .map(|c| if c.is_ascii() { None } else { misread_byte(c) })
        .collect();
    bytes.iter().enumerate().any(|(at, &byte)| {
        let needed = match byte {
            Some(0xC2..=0xDF) => 1,
            Some(0xE0..=0xEF) => 2,
            Some(0xF0..=0xF4) => 3,
            _ => return false,
        };
        bytes.get(at + 1..=at + needed).is_some_and(|rest| {
            rest.iter()
                .all(|byte| byte.is_some_and(|byte| (0x80..=0xBF).contains(&byte)))
        })
    })
}

/// Whether `word`, read back into windows-1252 bytes, holds a UTF-8
/// sequence cut short before its end: a byte was dropped inside it.
fn cut_short_inside(word: &str) -> bool {
    let mut due = 0;
    for c in word.chars() {
        let byte = misread_byte(c);
        if due > 0 {
            if byte.is_some_and(|byte| (0x80..=0xBF).contains(&byte)) {
                due -= 1;
                continue;
            }
            return true;
        }
        due = match byte {
            Some(0xC2..=0xDF) => 1,
            Some(0xE0..=0xEF) => 2,
            Some(0xF0..=0xF4) => 3,
            _ => 0,
        };
    }
    false
}

/// Whether the characters of `word` outside ASCII are all letters.
fn letters_only(word: &str) -> bool {
    word.chars()
        .filter(|c| !c.is_ascii())
        .all(|c| score::info(c).kind == score::Kind::Letter)
}

/// Whether the first character of `word` outside ASCII is no letter, and
/// no letter comes before it: "×£" in "2×£49", "√π" in "4√π", but not
/// "├д" in "Erkl├дrung".
fn symbol_led(word: &str) -> bool {
    let mut before = None;
    for c in word.chars() {
        if !c.is_ascii() {
            let letter = |c: char| score::info(c).kind == score::Kind::Letter;
            return !letter(c) && !before.is_some_and(letter);
        }
        before = Some(c);
    }
    false
}

/// The repairs of `word`, which is `known`, at `char_range` of a text
/// decoded from `source`.
fn word_repairs(
    known: &mut Known,
    chain_ids: &mut ChainIds,
    source: Option<Source<'_>>,
    word: &str,
    char_range: &Range<usize>,
) -> Rc<WordRepairs> {
    let source = source.and_then(|source| {
        let bytes = source.bytes.get(char_range.clone())?;
        Some(WordSource {
            encode_as: EncodeAs::Encoding(source.encoding),
            bytes,
        })
    });
    // With source bytes the result depends on more than the word's text.
    if source.is_some() && word.contains(char::REPLACEMENT_CHARACTER) {
        return Rc::new(chain_ids.number(search::search(word, source)));
    }
    Rc::clone(
        known
            .repairs
            .get_or_insert_with(|| Rc::new(chain_ids.number(search::search(word, source)))),
    )
}

#[cfg(test)]
mod tests;
