//! Text of one Latin code page read as another: Central European, Baltic
//! or Turkish text decoded as windows-1252 ("Rodièe mají pøednostní
//! právo" for "Rodiče mají přednostní právo", "poni¿aj¹cy" for
//! "poniżający").
//!
//! Such mojibake turns letters into other letters, so a word alone rarely
//! looks wrong, and the word-by-word search leaves it (a repair that turned
//! Italian "è" into "č" wherever it could would destroy correct text). The
//! evidence is the line's: its letters, taken together, belong to no one
//! language's alphabet ("è" and "ø" beside "á"), or a symbol sits between
//! letters ("CZ£OWIEKA"), while read as the other code page every letter
//! of the line is one language's and the line reads far better in that
//! language (the language models of detection, pair by pair) than it does
//! as it stands in any language. That language must be one windows-1252
//! does not write (its own text would read right), and each word the
//! reading changes must read better in it than the word as it stands
//! reads in its own best language: a line of names from several languages
//! ("ghanès" beside "Lišková") is no mojibake.

use std::ops::Range;
use std::rc::Rc;
use std::sync::OnceLock;

use mojiscope_indexes::language::{self, COST_SCALE, LANGUAGES, Script};

use super::chain::{Chain, EncodeAs, Step};
use super::search::{self, Outcome, WordRepairs};
use super::{ChainIds, Decision, Word, letters_only, score, symbol_led};
use crate::encoding::{
    ALL, Encoding, ISO_8859_2, WINDOWS_1250, WINDOWS_1252, WINDOWS_1254, WINDOWS_1257,
};

/// The code pages whose text is read back from windows-1252, in the order
/// ties are settled: Central European, Baltic, Turkish.
const SOURCES: [&Encoding; 4] = [WINDOWS_1250, ISO_8859_2, WINDOWS_1257, WINDOWS_1254];

/// The least a reading must lower the line's cost in its best language, in
/// nats, in all...
const MIN_GAIN: f64 = 10.0;
/// ...and for each character it changes.
const MIN_GAIN_PER_CHANGE: f64 = 5.0;

/// The least the words a reading changes must gain, for each character
/// it changes, each against its own best language as it stands.
const MIN_WORDS_GAIN_PER_CHANGE: f64 = 1.0;

/// How sure a reread is: its evidence is a whole line's, and it is applied.
const CONFIDENCE: f32 = 0.7;

/// One word of the line with characters beyond ASCII: its span, the text it
/// has now (its repair's, if it was repaired), and the decision that made
/// that, if any.
struct Current {
    range: Range<usize>,
    char_range: Range<usize>,
    cost: f32,
    text: String,
    decision: Option<usize>,
}

/// Reads the line again as text of one of [`SOURCES`] read as
/// windows-1252, after its other repairs, when the line's evidence says
/// so (see the module's documentation). A word repaired already has its
/// chain extended by the step; the others are repaired by the step alone.
pub(super) fn reread_line(
    text: &str,
    line: &Range<usize>,
    plain: &[(Range<usize>, Range<usize>, f32)],
    letters: Letters,
    words: &mut Vec<Word>,
    decisions: &mut Vec<Decision>,
    chain_ids: &mut ChainIds,
) {
    let Some(current) = current_words(text, plain, letters, words, decisions) else {
        return;
    };
    let Some((step, rereads)) = best_reading(&text[line.clone()], line.start, &current) else {
        return;
    };
    for (word, reread) in current.iter().zip(rereads) {
        let Some(reread) = reread else {
            continue;
        };
        let chain = match word.decision {
            Some(index) => decisions[index].chain.then(step),
            None => Chain::new(&[step]),
        };
        let Some(chain) = chain else {
            continue;
        };
        words.push(Word {
            script: score::dominant_script(&text[word.range.clone()]),
            symbol_led: symbol_led(&text[word.range.clone()]),
            letters_only: letters_only(&text[word.range.clone()]),
            assumption: word
                .decision
                .and_then(|index| words[decisions[index].word].assumption.clone()),
            utf8_range: word.range.clone(),
            char_range: word.char_range.clone(),
            cost: word.cost,
            repairs: Rc::new(WordRepairs {
                outcomes: vec![Outcome::new(reread, Vec::new(), 0, false)],
                chains: vec![(chain, 0)],
                ids: vec![chain_ids.id(chain)],
            }),
        });
        let replacement = Decision {
            word: words.len() - 1,
            chain,
            outcome: 0,
            confidence: CONFIDENCE,
            uncapped: CONFIDENCE,
        };
        if let Some(index) = word.decision {
            let confidence = decisions[index].confidence.min(CONFIDENCE);
            decisions[index] = Decision {
                confidence,
                uncapped: confidence,
                ..replacement
            };
        } else {
            // A suggestion for the word gives way to the line's reading.
            let start = word.range.start;
            decisions.retain(|decision| words[decision.word].utf8_range.start != start);
            decisions.push(replacement);
        }
    }
}

/// The line's words with characters beyond ASCII as they stand after its
/// repairs, if they look like one Latin code page read as another
/// ([`Letters::suspicious`]; `letters` is what the words say as they stood
/// before any repair); `None` also for a line a legacy decode repaired.
fn current_words(
    text: &str,
    plain: &[(Range<usize>, Range<usize>, f32)],
    letters: Letters,
    words: &[Word],
    decisions: &[Decision],
) -> Option<Vec<Current>> {
    // A line read with a legacy decoder already was misread one way; but
    // words read one by one as one of SOURCES ("Spo¹tovani" as
    // windows-1250's "Spoątovani") are read again with the line, which
    // may tell the page better (ISO-8859-2's "Spoštovani"): they count as
    // they stand.
    let read_as_source = |decision: &Decision| {
        decision.chain.len() == 1
            && decision.chain.last().is_some_and(|step| {
                step.encode_as == EncodeAs::Encoding(WINDOWS_1252)
                    && SOURCES.contains(&step.decode_as)
            })
    };
    if decisions.iter().any(|decision| {
        decision.confidence >= 0.5
            && !read_as_source(decision)
            && decision
                .chain
                .last()
                .is_some_and(|step| !step.decodes_utf8())
    }) {
        return None;
    }
    // The line's decided words, by where they start.
    let mut by_start: Vec<(usize, usize)> = decisions
        .iter()
        .enumerate()
        .filter(|(_, decision)| decision.confidence >= 0.5 && !read_as_source(decision))
        .map(|(index, decision)| (words[decision.word].utf8_range.start, index))
        .collect();
    by_start.sort_unstable();
    let decided = |range: &Range<usize>| {
        let found = by_start.binary_search_by_key(&range.start, |&(start, _)| start);
        found
            .ok()
            .map(|position| by_start[position].1)
            .filter(|&index| words[decisions[index].word].utf8_range == *range)
    };
    let now = |range: &Range<usize>, decision: Option<usize>| -> &str {
        decision.map_or(&text[range.clone()], |index| {
            let decision = &decisions[index];
            &words[decision.word].repairs.outcomes[decision.outcome].text
        })
    };
    // Most lines are plain text in one language: they are told from what
    // is known of their words as they stand.
    let suspicious = if by_start.is_empty() {
        letters.suspicious()
    } else {
        plain
            .iter()
            .map(|(range, _, _)| Letters::of(now(range, decided(range))))
            .fold(Letters::NONE, Letters::and)
            .suspicious()
    };
    if !suspicious {
        return None;
    }
    let current = plain
        .iter()
        .map(|(range, char_range, cost)| {
            let decision = decided(range);
            Current {
                range: range.clone(),
                char_range: char_range.clone(),
                cost: *cost,
                text: now(range, decision).to_owned(),
                decision,
            }
        })
        .collect();
    Some(current)
}

/// What the letters of words say of a Latin code page read as another.
#[derive(Clone, Copy, Debug)]
pub(super) struct Letters {
    /// The languages that write every Latin letter of the words.
    alphabet: score::Alphabet,
    /// Whether the words have a Latin letter beyond ASCII.
    latin: bool,
    /// Whether a sign that one of [`SOURCES`] reads as a letter ("£" is
    /// windows-1250's "Ł", "¿" its "ż") sits between two letters of a word
    /// ("CZ£OWIEKA", "poni¿aj¹cy"); other signs between letters
    /// ("l’homme", "col·lecció") are text.
    sign: bool,
}

impl Letters {
    /// What no words say.
    pub(super) const NONE: Self = Self {
        alphabet: score::Alphabet::ANY,
        latin: false,
        sign: false,
    };

    pub(super) fn of(word: &str) -> Self {
        let mut letters = Self::NONE;
        if word.is_ascii() {
            return letters;
        }
        // One pass: each character's facts are looked up once, and a sign
        // is judged when the character after it comes.
        let mut before = false;
        let mut sign = false;
        for c in word.chars() {
            let letter = if c.is_ascii() {
                c.is_ascii_alphabetic()
            } else {
                let info = score::info(c);
                letters.alphabet.add(info);
                let letter = info.kind == score::Kind::Letter;
                letters.latin |= letter && info.script == score::Script::Latin;
                letter
            };
            letters.sign |= sign && letter;
            sign = before && !c.is_ascii() && !letter && signs_read_as_letters().contains(&c);
            before = letter;
        }
        letters
    }

    /// The words of both together.
    pub(super) fn and(self, other: Self) -> Self {
        Self {
            alphabet: self.alphabet.and(other.alphabet),
            latin: self.latin || other.latin,
            sign: self.sign || other.sign,
        }
    }

    /// Whether the words look like one Latin code page read as another:
    /// their Latin letters beyond ASCII are no one language's, or a sign
    /// sits between two letters of a word.
    fn suspicious(self) -> bool {
        self.sign || (self.latin && !self.alphabet.has_latin_language())
    }
}

/// The signs windows-1252 reads from bytes that one of [`SOURCES`] reads
/// as a letter, worked out once from the code pages.
fn signs_read_as_letters() -> &'static [char] {
    static SIGNS: OnceLock<Vec<char>> = OnceLock::new();
    SIGNS.get_or_init(|| {
        let letter = |c: char| score::info(c).kind == score::Kind::Letter;
        (0x80..=0xFF_u8)
            .filter_map(|byte| {
                let sign = EncodeAs::Encoding(WINDOWS_1252).decode_byte(byte)?;
                let read_as_letter = SOURCES.iter().any(|&source| {
                    EncodeAs::Encoding(source)
                        .decode_byte(byte)
                        .is_some_and(letter)
                });
                (!letter(sign) && read_as_letter).then_some(sign)
            })
            .collect()
    })
}

/// The step of [`SOURCES`] that reads the line best, with what it makes of
/// each word (`None` for a word it leaves), if one reads it clearly better.
fn best_reading(
    line: &str,
    line_start: usize,
    current: &[Current],
) -> Option<(Step, Vec<Option<String>>)> {
    let (as_it_stands, _) = best_language(&assemble(line, line_start, current, &[]), None)?;
    // What each word costs as it stands in its own best language, asked
    // once for all the pages.
    let mut alone: Vec<Option<f64>> = vec![None; current.len()];
    let mut best: Option<(f64, Step, Vec<Option<String>>)> = None;
    for source in SOURCES {
        let step = Step {
            encode_as: EncodeAs::Encoding(WINDOWS_1252),
            decode_as: source,
        };
        let Some((rereads, changed)) = reread_words(step, current) else {
            continue;
        };
        if changed == 0 || !leaves_between(step, line, line_start, current) {
            continue;
        }
        let read = assemble(line, line_start, current, &rereads);
        // The words it changes must be one language's letters (those it
        // leaves may be names of another: "Pöttering" in Slovenian).
        let alphabet = rereads
            .iter()
            .flatten()
            .fold(score::Alphabet::ANY, |alphabet, reread| {
                alphabet.and(score::Alphabet::of(reread))
            });
        if !alphabet.has_latin_language() {
            continue;
        }
        let Some((cost, read_in)) = best_language(&read, Some(source)) else {
            continue;
        };
        // Each word it changes must read better in that language than it
        // does as it stands in its own best one: a line of words of
        // several languages ("ghanès" beside "Lišková") reads worse in
        // any one language, and reading it in one is no repair.
        let words: f64 = current
            .iter()
            .zip(&rereads)
            .zip(alone.iter_mut())
            .filter_map(|((word, reread), alone)| {
                let reread = reread.as_deref()?;
                let as_it_stands = match *alone {
                    Some(cost) => cost,
                    None => *alone.insert(best_language(&word.text, None)?.0),
                };
                Some(as_it_stands - cost_in(reread, read_in))
            })
            .sum();
        let gain = as_it_stands - cost;
        #[expect(clippy::cast_precision_loss, reason = "a line's count of characters")]
        let changed = changed as f64;
        let needed = MIN_GAIN.max(MIN_GAIN_PER_CHANGE * changed);
        if gain >= needed
            && words >= MIN_WORDS_GAIN_PER_CHANGE * changed
            && best.as_ref().is_none_or(|(best, _, _)| gain > *best)
        {
            best = Some((gain, step, rereads));
        }
    }
    best.map(|(_, step, rereads)| (step, rereads))
}

/// Whether a capital beyond ASCII follows a lowercase letter in `word`
/// ("fiinÈÄ"): UTF-8 lead bytes read as windows-1252 whose continuation
/// was lost are capitals ("Ã", "Ä", "Å", "È"), and a code page read as
/// another keeps each letter's case, so such a word is no legacy text.
fn capital_after_lower(word: &str) -> bool {
    let mut lower = false;
    for c in word.chars() {
        if !c.is_ascii() && c.is_uppercase() && lower {
            return true;
        }
        lower = c.is_lowercase();
    }
    false
}

/// Whether `step` leaves the line's characters between its words as they
/// are: a letter written right between misread ones (Turkmen "ý" in a
/// word whose other letters are UTF-8 read as windows-1252) that it would
/// change says the line was not misread this way.
fn leaves_between(step: Step, line: &str, line_start: usize, current: &[Current]) -> bool {
    let mut done = 0;
    let between = |range: std::ops::Range<usize>| {
        let text = &line[range];
        text.is_ascii() || step.apply(text).is_some_and(|read| read == text)
    };
    for word in current {
        let start = word.range.start - line_start;
        if !between(done..start) {
            return false;
        }
        done = word.range.end - line_start;
    }
    between(done..line.len())
}

/// What `step` makes of each word, `None` where it changes nothing, and
/// how many characters it changes into letters beyond ASCII; `None` if it
/// does not apply to some word or makes no letters of a character it
/// changes (the line was not misread this way).
fn reread_words(step: Step, current: &[Current]) -> Option<(Vec<Option<String>>, usize)> {
    let mut rereads = Vec::with_capacity(current.len());
    let mut changed = 0;
    for word in current {
        // A word still shaped as UTF-8 read as windows-1252 ("rÃ³wni") is
        // UTF-8 mojibake that its repair left: the line is no legacy text.
        if search::utf8_shape(&word.text) > 0 || capital_after_lower(&word.text) {
            return None;
        }
        let read = step.apply(&word.text)?;
        if read == word.text {
            rereads.push(None);
            continue;
        }
        // A letter the language models fold to ASCII ("İ" is "i" to them)
        // is no evidence they can weigh: "Ý" read as "İ" alone says nothing.
        let differences = word
            .text
            .chars()
            .zip(read.chars())
            .filter(|&(before, after)| before != after && !language::fold(after).is_ascii())
            .count();
        // Each changed character must become a letter, beside a letter: a
        // sign alone ("£35", "½") stays what it is.
        let letters = read.chars().count() == word.text.chars().count()
            && changed_into_letters(&word.text, &read)
            && changed_beside_letters(&word.text, &read);
        // A misreading reads every byte of the line the same way: a word
        // it would make no letters of ("ý" alone, a sign beside digits)
        // says the line was not misread this way.
        if !letters {
            return None;
        }
        changed += differences;
        rereads.push(Some(read));
    }
    Some((rereads, changed))
}

/// Whether each character `read` changes of `word` becomes a letter (the
/// others may be anything: "Işıkara’nın").
fn changed_into_letters(word: &str, read: &str) -> bool {
    word.chars()
        .zip(read.chars())
        .all(|(before, after)| before == after || score::info(after).kind == score::Kind::Letter)
}

/// Whether each sign `read` makes a letter of in `word` has a letter beside
/// it ("CZ£OWIEKA", not "£35"); a letter read as another ("õ" alone, the
/// Hungarian "ő") needs none.
fn changed_beside_letters(word: &str, read: &str) -> bool {
    let letter = |c: char| score::info(c).kind == score::Kind::Letter;
    let before: Vec<char> = word.chars().collect();
    let after: Vec<char> = read.chars().collect();
    (0..after.len()).all(|index| {
        before[index] == after[index]
            || letter(before[index])
            || (index > 0 && letter(after[index - 1]))
            || after.get(index + 1).is_some_and(|&c| letter(c))
    })
}

/// The line with each word replaced by its current text, or by its reread
/// where `rereads` has one.
fn assemble(
    line: &str,
    line_start: usize,
    current: &[Current],
    rereads: &[Option<String>],
) -> String {
    let mut out = String::with_capacity(line.len() + 16);
    let mut done = 0;
    for (index, word) in current.iter().enumerate() {
        let start = word.range.start - line_start;
        out.push_str(&line[done..start]);
        match rereads.get(index).and_then(Option::as_deref) {
            Some(reread) => out.push_str(reread),
            None => out.push_str(&word.text),
        }
        done = word.range.end - line_start;
    }
    out.push_str(&line[done..]);
    out
}

/// The Latin language that reads `text` best, and the text's cost in it:
/// among every Latin language for `None`; for `Some(source)`, among those
/// `source` writes and windows-1252 does not (a language windows-1252
/// writes reads right as windows-1252: "Ý" is Turkmen's own letter, no
/// Turkish "İ" misread).
fn best_language(
    text: &str,
    source: Option<&Encoding>,
) -> Option<(f64, &'static language::Language)> {
    let position = |encoding: &Encoding| ALL.iter().position(|&e| e == encoding);
    let positions = match source {
        Some(source) => Some((position(source)?, position(WINDOWS_1252)?)),
        None => None,
    };
    LANGUAGES
        .iter()
        .filter(|language| language.script == Script::Latin)
        .filter(|language| {
            positions.is_none_or(|(source, misread)| {
                language.is_written_in(source) && !language.is_written_in(misread)
            })
        })
        .map(|language| (cost_in(text, language), language))
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

/// The cost of `text` in nats in `language`, a word boundary on each side.
fn cost_in(text: &str, language: &language::Language) -> f64 {
    #[expect(
        clippy::cast_precision_loss,
        reason = "a line's cost in units, far below 2^52"
    )]
    let nats = language.text_cost(text) as f64 / COST_SCALE;
    nats
}
