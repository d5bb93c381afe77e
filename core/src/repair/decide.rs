//! Deciding a line: which chain, if any, repairs each suspect word.
//!
//! Every chain that improves some word of the line by enough reads the whole
//! line ([`reading`]): what it gains over the words it repairs, less its
//! prior and what it costs the line. The best reading takes the words it
//! repairs, each by the margin it wins by over every other reading of that
//! word, doing nothing included; the margin becomes the change's
//! confidence.

use super::score;
use super::search::{self, LOSS, Outcome};
use super::{
    CONTEXT_BONUS, Chain, Decision, LEGACY_ON_UTF8_SHAPE, MAX_REPAIRED_COST,
    MAX_REPAIRED_COST_PER_CHAR, MAX_SUPPORT, MIN_GAIN_SHARE, MIN_MARGIN, MIN_RIVAL_MARGIN,
    MIN_SINGLE_BYTE_WORDS, MIN_SUPPORTED_GAIN, SOURCE_BONUS, UNSURE, Word,
};

/// Where a line's decision keeps its tables between lines.
#[derive(Default)]
pub(super) struct Scratch {
    /// For each chain id, its column in the line's readings, or
    /// [`NO_COLUMN`].
    columns: Vec<u32>,
    /// The line's chains, and each one's id.
    chains: Vec<Chain>,
    ids: Vec<u32>,
    /// What each chain makes of each word, and what that gains: column
    /// `column`'s cells are `column * width..(column + 1) * width`.
    outcomes: Vec<Option<usize>>,
    gains: Vec<f32>,
    /// What each outcome of each word gains if viable (else `None`): word
    /// `word`'s are from `first_outcome[word]` on.
    outcome_gains: Vec<Option<f32>>,
    first_outcome: Vec<usize>,
    readings: Vec<Reading>,
    edges: Vec<Edges>,
    decided: Vec<bool>,
}

const NO_COLUMN: u32 = u32::MAX;

impl Scratch {
    /// Makes room for chain ids below `chains`.
    pub(super) fn make_room(&mut self, chains: usize) {
        self.columns.resize(chains, NO_COLUMN);
    }
}

/// What one chain makes of a line's suspicious words: its outcomes and
/// gains are column `column` of the tables [`decide`] keeps.
struct Reading {
    chain: Chain,
    column: usize,
    score: f32,
}

/// What a line says about its words beyond their own text.
pub(super) struct LineContext {
    /// The script most letters of the line's plausible words are in.
    pub(super) script: Option<score::Script>,
    /// The plausible words of two letters or more, none of them ASCII
    /// ("íå"): a single-byte page read as another makes such words of
    /// short words of another script ("не"), which correct text seldom
    /// writes.
    pub(super) foreign_letters: Vec<String>,
}

impl LineContext {
    /// How many of the line's [`LineContext::foreign_letters`] words
    /// `chain` turns into letters of `script` alone.
    fn read_into(&self, chain: Chain, script: Option<score::Script>) -> usize {
        self.foreign_letters
            .iter()
            .filter(|word| {
                chain.apply(word).is_some_and(|read| {
                    super::letters_only(&read) && score::dominant_script(&read) == script
                })
            })
            .count()
    }
}

/// How a suspect word meets its neighbours across spaces, which is all a
/// repair of it can change in the line's cost (see [`score::HAN_SPACE`]).
#[derive(Clone, Copy, Debug, Default)]
struct Edges {
    /// Whether the word as it stands starts with Han or kana.
    starts: bool,
    /// Whether it ends with Han or kana.
    ends: bool,
    /// With a space just before the word: whether the character before
    /// that space is Han or kana.
    before: Option<bool>,
    /// With a space just after the word: whether the character after that
    /// space is Han or kana.
    after: Option<bool>,
    /// Whether the previous suspect word is that character's word.
    joined: bool,
}

/// The [`Edges`] of each of `words` in `line` (which starts at `line_start`
/// in the text).
#[cfg(test)]
fn edges(line: &str, line_start: usize, words: &[Word]) -> Vec<Edges> {
    let mut found = Vec::with_capacity(words.len());
    edges_into(line, line_start, words, &mut found);
    found
}

/// The [`Edges`] of each of `words` in `line` (which starts at `line_start`
/// in the text), written into `found` (cleared first).
fn edges_into(line: &str, line_start: usize, words: &[Word], found: &mut Vec<Edges>) {
    let bytes = line.as_bytes();
    let mut previous_end = None;
    found.clear();
    found.extend(words.iter().map(|word| {
        let start = word.utf8_range.start - line_start;
        let end = word.utf8_range.end - line_start;
        let text = &line[start..end];
        let before = (start > 0 && bytes[start - 1] == b' ')
            .then(|| score::ends_with_han_or_kana(&bytes[..start - 1]));
        let after = (bytes.get(end) == Some(&b' ')).then(|| {
            line[end + 1..]
                .chars()
                .next()
                .is_some_and(score::is_han_or_kana)
        });
        let joined = before.is_some() && previous_end == Some(start - 1);
        previous_end = Some(end);
        Edges {
            starts: text.chars().next().is_some_and(score::is_han_or_kana),
            ends: score::ends_with_han_or_kana(text.as_bytes()),
            before,
            after,
            joined,
        }
    }));
}

/// How many spaces with Han or kana on both sides the line gains and loses
/// when each word with an outcome is replaced by it.
fn han_spaces_changed(
    words: &[Word],
    outcomes: &[Option<usize>],
    edges: &[Edges],
) -> (usize, usize) {
    let ends = |index: usize| match outcomes[index] {
        Some(outcome) => {
            words[index].repairs.outcomes[outcome]
                .facts
                .ends_han_or_kana
        }
        None => edges[index].ends,
    };
    let (mut gained, mut lost) = (0, 0);
    let mut count = |before: bool, after: bool| {
        gained += usize::from(after && !before);
        lost += usize::from(before && !after);
    };
    for (index, word) in words.iter().enumerate() {
        let Some(outcome) = outcomes[index] else {
            continue;
        };
        let facts = &word.repairs.outcomes[outcome].facts;
        let edge = &edges[index];
        if let Some(left) = edge.before {
            let left_now = if edge.joined { ends(index - 1) } else { left };
            count(left && edge.starts, left_now && facts.starts_han_or_kana);
        }
        if let Some(right) = edge.after {
            // A space between two replaced words counts with the second.
            let next_joined = edges.get(index + 1).is_some_and(|next| next.joined);
            if next_joined && outcomes[index + 1].is_some() {
                continue;
            }
            count(edge.ends && right, facts.ends_han_or_kana && right);
        }
    }
    (gained, lost)
}

/// The chains worth reading a line's suspect `words` with, and what each
/// makes of each word: `outcomes[column * words.len() + word]` for the
/// chain in `column` (in `scratch.chains` and `scratch.outcomes`).
/// Only the outcomes that improve their word enough are kept, with their
/// gains in `scratch.gains`.
fn chain_table(words: &[Word], context: &LineContext, scratch: &mut Scratch) {
    // Only chains that improve some word by enough can win anything.
    let columns = &mut scratch.columns;
    let chains = &mut scratch.chains;
    let ids = &mut scratch.ids;
    chains.clear();
    ids.clear();
    for word in words {
        let repairs = &word.repairs;
        for (&(chain, outcome), &id) in repairs.chains.iter().zip(&repairs.ids) {
            let gain = word.cost - repairs.outcomes[outcome].cost + CONTEXT_BONUS;
            let column = &mut columns[id as usize];
            if gain >= MIN_SUPPORTED_GAIN && *column == NO_COLUMN {
                *column = u32::try_from(chains.len()).unwrap_or(NO_COLUMN);
                chains.push(chain);
                ids.push(id);
            }
        }
    }
    let width = words.len();
    let outcome_gains = &mut scratch.outcome_gains;
    let first_outcome = &mut scratch.first_outcome;
    outcome_gains.clear();
    first_outcome.clear();
    for word in words {
        first_outcome.push(outcome_gains.len());
        outcome_gains.extend(
            word.repairs
                .outcomes
                .iter()
                .map(|outcome| outcome_gain(word, outcome, context)),
        );
    }
    let outcomes = &mut scratch.outcomes;
    let gains = &mut scratch.gains;
    outcomes.clear();
    outcomes.resize(chains.len() * width, None);
    gains.clear();
    gains.resize(chains.len() * width, 0.0);
    for (index, word) in words.iter().enumerate() {
        let repairs = &word.repairs;
        for (&(_, outcome), &id) in repairs.chains.iter().zip(&repairs.ids) {
            let column = columns[id as usize];
            if column == NO_COLUMN {
                continue;
            }
            let cell = column as usize * width + index;
            if let Some(gain) = outcome_gains[first_outcome[index] + outcome]
                && outcomes[cell].is_none()
            {
                outcomes[cell] = Some(outcome);
                gains[cell] = gain;
            }
        }
    }
    for &id in ids.iter() {
        columns[id as usize] = NO_COLUMN;
    }
}

/// Picks, word by word, the chain that makes the whole line most plausible,
/// and how sure that choice is.
pub(super) fn decide(
    line: &str,
    line_start: usize,
    words: &[Word],
    context: &LineContext,
    scratch: &mut Scratch,
) -> Vec<Decision> {
    chain_table(words, context, scratch);
    let width = words.len();
    let Scratch {
        chains,
        outcomes,
        gains,
        readings,
        edges,
        decided,
        ..
    } = scratch;
    edges_into(line, line_start, words, edges);
    readings.clear();
    readings.extend(chains.iter().enumerate().filter_map(|(column, &chain)| {
        let cells = column * width..(column + 1) * width;
        let score = reading(
            chain,
            &mut outcomes[cells.clone()],
            &mut gains[cells],
            words,
            edges,
            context,
            (line, line_start),
        )?;
        Some(Reading {
            chain,
            column,
            score,
        })
    }));
    // Best first; among equals the earlier chain, which is the more common.
    readings.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mut decisions = Vec::with_capacity(width);
    decided.clear();
    decided.resize(width, false);
    for best in readings.iter() {
        if best.score <= 0.0 {
            break;
        }
        for index in 0..width {
            let Some(outcome) = outcomes[best.column * width + index] else {
                continue;
            };
            if decided[index] {
                continue;
            }
            // The best reading that makes something else of this word.
            // (Readings that leave it alone are weighed by its gain.) One
            // that only goes further than the best ("°C" on to "蚓", a
            // legacy decode of it) agrees with it as far as it goes.
            let rival = readings
                .iter()
                .filter(|other| {
                    outcomes[other.column * width + index]
                        .is_some_and(|other_outcome| other_outcome != outcome)
                        && !other.chain.extends(&best.chain)
                })
                .map(|other| other.score)
                .next()
                .unwrap_or(f32::NEG_INFINITY);
            // Against another reading of the word, and against leaving it:
            // alone in its line, a word must pay for its chain's prior; with
            // other words repaired by the same chain, it gets some of their
            // evidence.
            let gain = gains[best.column * width + index];
            let others = best.score - gain;
            let alone = if others > 0.0 {
                gain + others.min(MAX_SUPPORT)
            } else {
                best.score
            };
            let relief = if is_mojibake_whichever(
                best.chain,
                &words[index],
                outcome,
                text_of(line, line_start, &words[index]),
            ) {
                MIN_MARGIN - MIN_RIVAL_MARGIN
            } else {
                0.0
            };
            let margin = (best.score - rival + relief).min(alone);
            decided[index] = true;
            let uncapped = confidence(margin);
            let confidence = held_back(
                uncapped,
                best.chain,
                &words[index],
                outcome,
                text_of(line, line_start, &words[index]),
            );
            decisions.push(Decision {
                word: index,
                chain: best.chain,
                outcome,
                confidence,
                uncapped,
            });
        }
    }
    decisions.sort_by_key(|decision| decision.word);
    decisions
}

/// What `outcome` gains over `word` as it stands, if that is enough.
fn outcome_gain(word: &Word, outcome: &Outcome, context: &LineContext) -> Option<f32> {
    let mut gain = word.cost - outcome.cost;
    // Mojibake of UTF-8 read by a legacy decoder gives plausible
    // characters too; its UTF-8 shape says what it really is.
    gain -= LEGACY_ON_UTF8_SHAPE * score::small(outcome.utf8_shape.min(8));
    // The real bytes decoding without error is evidence the text
    // alone cannot give.
    if outcome.from_source {
        gain += SOURCE_BONUS;
    }
    // A word that the chain brings into the script of the rest of
    // its line ("àðåñòó" into "аресту" among Russian words) fits. (One
    // letter is no script: "Г‚ВЈ40" is no "Ł40" among English words.)
    if context.script.is_some()
        && outcome.script == context.script
        && word.script != outcome.script
        && outcome.non_ascii >= 2
    {
        gain += CONTEXT_BONUS;
    }
    let viable =
        gain >= MIN_SUPPORTED_GAIN && gain >= MIN_GAIN_SHARE * word.cost && !outcome.unfinished;
    viable.then_some(gain)
}

/// How `chain` reads the line's suspect `words`, or `None` if it repairs
/// none of them. On entry `outcomes[i]` is the outcome it gives word `i`,
/// if it improves the word enough, and `gains[i]` what it gains (0 for no
/// outcome); on return only the outcomes the chain may repair are left,
/// with their gains. Returns the reading's score.
#[expect(
    clippy::too_many_lines,
    reason = "the rules on which words a reading may take apply in turn, each on the last"
)]
fn reading(
    chain: Chain,
    outcomes: &mut [Option<usize>],
    gains: &mut [f32],
    words: &[Word],
    edges: &[Edges],
    context: &LineContext,
    (line, line_start): (&str, usize),
) -> Option<f32> {
    // One damaged character led by a symbol ("×£" for "ף", "√π" for "ù")
    // is as likely two symbols: it is repaired only beside other words the
    // chain repairs. (A C1 control is no symbol: text almost never means
    // one, so "1863\u{96}1963" is "1863–1963" alone in its line.)
    // Nor is a whole three-byte sequence that UTF-8 makes punctuation of
    // ("‚Äî" alone between words is macintosh's "—"): no two symbols make
    // a dash, a quote or a bullet by chance.
    let weak = |index: usize, outcome: usize| {
        let repaired = &words[index].repairs.outcomes[outcome];
        words[index].symbol_led
            && repaired.non_ascii <= 1
            && !chain.steps().any(super::chain::Step::undoes_c1)
            && !(chain.last().is_some_and(super::chain::Step::decodes_utf8)
                && text_of(line, line_start, &words[index]).chars().count() >= 3
                && is_punctuation_alone(&repaired.text))
    };
    let strong = outcomes
        .iter()
        .enumerate()
        .any(|(index, outcome)| outcome.is_some_and(|outcome| !weak(index, outcome)));
    if !strong {
        for index in 0..words.len() {
            if outcomes[index].is_some_and(|outcome| weak(index, outcome)) {
                outcomes[index] = None;
                gains[index] = 0.0;
            }
        }
    }
    drop_runs(chain, outcomes, gains, words, (line, line_start));
    // A single-byte legacy decode ("windows-1251 read as windows-1252")
    // turns any text into letters: no structure checks it. It needs several
    // words, or a line whose other words are in the script it makes.
    // (C1 controls decoded as bytes are evidence enough.)
    let single_byte = chain
        .last()
        .is_some_and(|step| step.decode_as.is_single_byte() && !step.undoes_c1());
    if single_byte {
        // Words without letters say nothing ("───" into "ДДД": the box
        // drawing of DOS is Cyrillic letters in Windows), nor do readings
        // that are odd text still ("ВОRДT" is no "‚ЋR„T").
        for (index, word) in words.iter().enumerate() {
            let odd =
                outcomes[index].is_some_and(|outcome| word.repairs.outcomes[outcome].cost > ODD);
            if word.script.is_none() || odd {
                outcomes[index] = None;
                gains[index] = 0.0;
            }
        }
        // Latin letters turned into other Latin letters everywhere
        // ("mätesdì" into "mätesdě") say nothing: some repaired word must
        // have held a symbol ("Niewêg³owski"). (Latin letters turned into
        // Cyrillic ones, word after word, do.)
        // Nor does a word whose letters are no one language's ("ЏаЁўҐв":
        // Serbian, Belarusian and Ukrainian letters) made into one
        // language's ("Привет").
        let symbols = words.iter().zip(outcomes.iter()).any(|(word, outcome)| {
            outcome.is_some_and(|outcome| {
                let text = text_of(line, line_start, word);
                let (read, read_cost) = read_by_last_step(chain, word, text);
                !super::letters_only(&read)
                    || (read_cost >= SINGLE_BYTE_ALONE
                        && score::Alphabet::of(&read).cost() > 0.0
                        && word.repairs.outcomes[outcome].facts.alphabet.cost() == 0.0)
            })
        });
        // Nor do words of one letter ("Ù À È" into "Щ А И"): those of a
        // repaired line are repaired with it (`support`).
        for (index, word) in words.iter().enumerate() {
            let outcome = outcomes[index].map(|outcome| &word.repairs.outcomes[outcome]);
            let one_letter = outcome.is_some_and(|outcome| outcome.text.chars().count() <= 1)
                && word.char_range.len() <= 1;
            let same_script = outcome.is_some_and(|outcome| outcome.script == word.script);
            if one_letter || (!symbols && same_script) {
                outcomes[index] = None;
                gains[index] = 0.0;
            }
        }
        let viable = outcomes.iter().flatten().count();
        for (index, word) in words.iter().enumerate() {
            let Some(outcome) = outcomes[index] else {
                continue;
            };
            let repaired = word.repairs.outcomes[outcome].script;
            let original = word.script;
            // Letters turned into letters of the same script ("cz³owiek"
            // into "człowiek") need two words; into another script, three,
            // or the line's script.
            // A word that is plainly damaged and that the chain makes
            // plain text of, symbols and all ("╧ЁштхЄ" into "Привет"), is
            // evidence enough on its own when the letters stay in their
            // script: no single-byte page makes it of correct text.
            let repaired_cost = word.repairs.outcomes[outcome].cost;
            let explained = repaired == original
                && symbols
                && word.cost >= SINGLE_BYTE_ALONE
                && repaired_cost <= PLAIN;
            // Short words of the line that looked plausible only because
            // their letters are Latin ("íå" for "не") count with them.
            let enough = if repaired == original {
                viable >= MIN_SINGLE_BYTE_WORDS - 1 || explained
            } else {
                viable >= MIN_SINGLE_BYTE_WORDS
                    || (repaired.is_some() && repaired == context.script)
                    || (repaired.is_some()
                        && viable + context.read_into(chain, repaired) >= MIN_SINGLE_BYTE_WORDS)
            };
            if !enough {
                outcomes[index] = None;
                gains[index] = 0.0;
            }
        }
    }
    if outcomes.iter().all(Option::is_none) {
        return None;
    }
    let score: f32 = gains.iter().sum();
    // What the repaired words are, taken together.
    let mut alphabet = score::Alphabet::ANY;
    let mut brings_cjk = false;
    for (word, outcome) in words.iter().zip(&*outcomes) {
        if let Some(outcome) = *outcome {
            let facts = &word.repairs.outcomes[outcome].facts;
            alphabet = alphabet.and(facts.alphabet);
            brings_cjk |= facts.has_cjk_range;
        }
    }
    // Letters turned into letters of another alphabet by a single-byte
    // decode must be one language's, as a word's are: "ÃÂ¡, ÃÂ³, ÃÂº"
    // is no "ГВЎ, ГВі, ГВє", whose "ў" is Belarusian and "є" Ukrainian.
    if single_byte && alphabet.cost() > 0.0 {
        return None;
    }
    // The line's own cost only changes when a repair brings in Han or kana.
    let line_cost = if brings_cjk {
        let (gained, lost) = han_spaces_changed(words, outcomes, edges);
        score::HAN_SPACE * (score::small(gained) - score::small(lost))
    } else {
        0.0
    };
    Some(score - chain.prior_cost() - line_cost - alphabet.cost())
}

/// Takes out of `chain`'s reading the words that hold a run of one
/// character, when `chain` ends in a double-byte decode: a run of one byte
/// ("××××") is one character again and again to such a decoder ("鬃鬃"),
/// and no text says anything that way.
fn drop_runs(
    chain: Chain,
    outcomes: &mut [Option<usize>],
    gains: &mut [f32],
    words: &[Word],
    (line, line_start): (&str, usize),
) {
    let double_byte = chain
        .last()
        .is_some_and(|step| !step.decodes_utf8() && !step.decode_as.is_single_byte());
    if !double_byte {
        return;
    }
    for (index, word) in words.iter().enumerate() {
        if outcomes[index].is_some() && has_long_run(text_of(line, line_start, word)) {
            outcomes[index] = None;
            gains[index] = 0.0;
        }
    }
}

/// What `chain`'s last step reads of `word` (whose text is `text`), and
/// what that costs: the word itself, for a chain of one step; for a longer
/// chain, what its earlier steps make of it ("mÃ¤tesdÃ¬" is "mätesdì" when
/// windows-1250 is read last: the symbols were the UTF-8 step's, and its
/// letters say nothing of windows-1250).
fn read_by_last_step<'a>(
    chain: Chain,
    word: &Word,
    text: &'a str,
) -> (std::borrow::Cow<'a, str>, f32) {
    if chain.len() >= 2 {
        let earlier: Vec<super::chain::Step> = chain.steps().take(chain.len() - 1).collect();
        if let Some(read) = Chain::new(&earlier).and_then(|earlier| earlier.apply(text)) {
            let cost = score::word_cost(&read);
            return (std::borrow::Cow::Owned(read), cost);
        }
    }
    (std::borrow::Cow::Borrowed(text), word.cost)
}

/// Whether `text` is one character of general punctuation outside ASCII
/// (dashes, quotation marks, bullets, the ellipsis: U+2010 to U+2027).
fn is_punctuation_alone(text: &str) -> bool {
    let mut chars = text.chars();
    matches!((chars.next(), chars.next()), (Some(c), None) if ('\u{2010}'..='\u{2027}').contains(&c))
}

/// Whether `word` is mojibake whichever of its readings is right, so that
/// its best reading, `chain`'s `outcome`, needs a smaller margin over the
/// others than over doing nothing. A word that decodes as UTF-8 is:
/// leaving it would be wrong whichever chain is right. (Legacy decodes make
/// characters of almost any bytes: their rivals are doubt.) So is a word
/// plainly damaged that a double-byte decode makes plain text of
/// (`ÖÐÎÄÂÒÂë` into "中文乱码"): the other decodes must make clearly less
/// likely characters (a tie stays a suggestion). A run of one symbol
/// ("×××××") is one mark drawn again, not text.
fn is_mojibake_whichever(chain: Chain, word: &Word, outcome: usize, text: &str) -> bool {
    let Some(step) = chain.last() else {
        return false;
    };
    if step.decodes_utf8() {
        return true;
    }
    !step.decode_as.is_single_byte()
        && word.cost >= SINGLE_BYTE_ALONE
        && word.repairs.outcomes[outcome].cost <= PLAIN
        && !has_long_run(text)
}

/// `confidence` held back to a suggestion when `chain`'s `outcome` of
/// `word` (whose text is `text`) is itself odd text ("ôaſa" for
/// "├┤a┼┐a"): no clear improvement, unless the word is [`unmistakable`].
fn held_back(confidence: f32, chain: Chain, word: &Word, outcome: usize, text: &str) -> f32 {
    let repaired = &word.repairs.outcomes[outcome];
    let judged = repaired.cost - LOSS * score::small(repaired.lost.len());
    let chars = score::small(repaired.text.chars().count());
    if judged > MAX_REPAIRED_COST
        && judged > MAX_REPAIRED_COST_PER_CHAR * chars
        && !unmistakable(chain, word, judged, text)
    {
        confidence.min(UNSURE)
    } else {
        confidence
    }
}

/// Whether `word` is UTF-8 read as a single-byte page beyond doubt, so
/// that its reading by `chain`, costing `judged`, is taken even when it is
/// odd text itself (a rare script, a combining mark on a symbol: "“F⃜”"
/// from "â€œFâƒœâ€\u{9d}"). Correct text almost never holds three whole
/// UTF-8 sequences in a word when encoded back ("Fuß“" holds one); the
/// repair must also halve what the word costs.
fn unmistakable(chain: Chain, word: &Word, judged: f32, text: &str) -> bool {
    chain.last().is_some_and(super::chain::Step::decodes_utf8)
        && 2.0 * judged <= word.cost
        && search::utf8_shape(text) >= UNMISTAKABLE_SEQUENCES
}

/// How many whole UTF-8 sequences make a word unmistakable mojibake.
const UNMISTAKABLE_SEQUENCES: usize = 3;

/// The text of `word` in `line`, which starts at `line_start` in the text.
fn text_of<'a>(line: &'a str, line_start: usize, word: &Word) -> &'a str {
    line.get(word.utf8_range.start - line_start..word.utf8_range.end - line_start)
        .unwrap_or_default()
}

/// Whether `word` holds one character outside ASCII four times or more
/// in a row.
fn has_long_run(word: &str) -> bool {
    let mut run = 0;
    let mut previous = None;
    for c in word.chars() {
        run = if previous == Some(c) { run + 1 } else { 1 };
        previous = Some(c);
        if run >= 4 && !c.is_ascii() {
            return true;
        }
    }
    false
}

/// A word costing this much is plainly damaged (see [`reading`]).
const SINGLE_BYTE_ALONE: f32 = 7.0;
/// A single-byte decode that leaves a word costing more than this leaves
/// it odd.
const ODD: f32 = 2.5;
/// A repaired word costing at most this much is plain text.
const PLAIN: f32 = 0.5;

/// Confidence from the margin a decision won by: 0.5 at [`MIN_MARGIN`],
/// towards 1 above it and towards 0 below.
fn confidence(margin: f32) -> f32 {
    let excess = margin - MIN_MARGIN;
    if excess >= 0.0 {
        1.0 - 0.5 * (-excess / 4.0).exp()
    } else {
        0.5 * (excess / 2.0).exp()
    }
}

#[cfg(test)]
mod tests {
    use std::ops::Range;
    use std::rc::Rc;

    use super::super::search::{Outcome, WordRepairs};
    use super::super::{Change, apply_changes, segment};
    use super::*;

    #[test]
    fn han_spaces_are_counted_where_words_change() {
        // Every way of replacing some words of these lines changes the count of
        // spaces between Han or kana exactly as counting the whole lines does.
        let lines = [
            "中国 人民 abc 日本",
            "中  人 é,漢 カナ ",
            " 한국 中 中 x 中",
            "日本語 テスト ab 大韓 民国",
        ];
        let replacements = ["中", "ab", "カナ", "é", "한", "a中", "中a"];
        for line in lines {
            let ranges: Vec<Range<usize>> = segment::words(line, 0).collect();
            for replacement in replacements {
                for mask in 0..1_u32 << ranges.len() {
                    let words: Vec<Word> = ranges
                        .iter()
                        .map(|range| Word {
                            utf8_range: range.clone(),
                            char_range: 0..0,
                            cost: 0.0,
                            script: None,
                            symbol_led: false,
                            letters_only: false,
                            assumption: None,
                            repairs: Rc::new(WordRepairs {
                                outcomes: vec![Outcome::new(
                                    replacement.to_owned(),
                                    Vec::new(),
                                    0,
                                    false,
                                )],
                                chains: Vec::new(),
                                ids: Vec::new(),
                            }),
                        })
                        .collect();
                    let outcomes: Vec<Option<usize>> = (0..words.len())
                        .map(|index| (mask & 1 << index != 0).then_some(0))
                        .collect();
                    let fixed = apply_changes(
                        line,
                        ranges
                            .iter()
                            .zip(&outcomes)
                            .filter(|(_, outcome)| outcome.is_some())
                            .map(|(range, _)| Change {
                                utf8_range: range.clone(),
                                char_range: 0..0,
                                replacement: replacement.to_owned(),
                                chain: Chain::EMPTY,
                                confidence: 1.0,
                                lost: Vec::new(),
                                assumptions: Vec::new(),
                            })
                            .collect::<Vec<_>>()
                            .iter(),
                    );
                    let (gained, lost) =
                        han_spaces_changed(&words, &outcomes, &edges(line, 0, &words));
                    let counted = score::HAN_SPACE * (score::small(gained) - score::small(lost));
                    let expected = score::line_cost(&fixed) - score::line_cost(line);
                    assert!(
                        (counted - expected).abs() < f32::EPSILON,
                        "{line:?} -> {fixed:?}: {counted} != {expected}"
                    );
                }
            }
        }
    }
}
