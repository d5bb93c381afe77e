//! Restoring a byte that was lost from a UTF-8 sequence, where the text
//! around it says which byte it was.
//!
//! A decoder that loses bytes (windows-1252's 0x81, 0x8D, 0x8F, 0x90 and
//! 0x9D, the C1 controls of ISO-8859-1, the invisible soft hyphen) leaves a
//! sequence one byte short. [`super::lossy`] finds the characters that fit
//! the bytes that survived. Most gaps have several: "Ð¡Ð°Ð¹Ñ" ends in
//! "Ñ" with a byte gone, which may be any of "р" to "я", and nothing here
//! tells one Russian letter from another. Some have one that the rest of
//! the word makes far more plausible than the others: in "Î”ÏÎ¬Î¼Î±" the
//! byte lost after "Ï" (CF) was 0x81 ("Δράμα") or 0x8D ("Δύάμα", with a
//! second accent, which Greek does not write), or one that makes a letter
//! of no modern Greek; in "Ø±ØØ¨Ø§" a soft hyphen vanished, and "ح" (D8
//! AD) is the one letter among the characters that fit. Such a byte is
//! restored, and the change says so: an [`Assumption`] for each (the byte
//! as the wrong decoder would have read it, assumed where it left no
//! trace, and the character it makes), so the change's chain, applied to
//! the text with the assumed characters, gives its replacement. Where no
//! candidate is clearly best the character stays U+FFFD with its
//! candidates ([`super::Lost`]): nothing is invented silently.
//!
//! Only gaps of one byte that vanished are restored: two bytes lost from
//! one character leave too little to go on, and a mark ("?", U+FFFD) is
//! written by many decoders for bytes of their own, so it does not say
//! which reading's bytes are candidates.

use std::sync::OnceLock;

use mojiscope_indexes::single_byte;

use super::Assumption;
use super::chain::{Chain, EncodeAs, Step};
use super::lossy::Lost;
use super::score::{self, Kind, Script};
use super::search::{Outcome, placeholder};

/// A restoration must beat every other candidate of its gap by this much
/// (in the units of [`score::word_cost`]).
pub(crate) const CLEAR_MARGIN: f32 = 1.0;
/// What a candidate found in no legacy character set costs on top of its
/// own cost: the characters text is written in are in some code page of
/// their script (or in a national character set, for CJK), and the
/// unassigned, technical and obsolete ones that fill the rest of a gap's
/// candidates are not.
const RARE: f32 = 1.5;
/// What an invisible candidate (a format character or a space) costs: a
/// lost byte that made nothing visible explains nothing, but for the
/// joiners of emoji.
const INVISIBLE: f32 = 1.5;
/// The most combinations of candidates weighed together in one word; past
/// that each gap is weighed alone.
const MAX_COMBINATIONS: usize = 1024;
/// The most gaps of one word weighed at all (a word that lost more bytes
/// than this is no word to guess in)...
const MAX_GAPS: usize = 8;
/// ...and the longest word weighed (each candidate is judged with it).
const MAX_WORD_BYTES: usize = 256;

/// A character of a lossy decode that lost exactly one byte, with what is
/// needed to restore it.
#[derive(Clone, Debug)]
pub(crate) struct Gap {
    /// Where its U+FFFD is in the decoded text.
    pub(crate) utf8_offset: usize,
    /// Every character that fits.
    pub(crate) candidates: Vec<char>,
    /// What each candidate costs before the word is looked at, when the
    /// reading makes some likelier than others (empty: nothing).
    pub(crate) priors: Vec<f32>,
    /// The lead byte of its sequence, and the bytes that survived after
    /// it.
    pub(crate) lead: u8,
    pub(crate) taken: Vec<u8>,
    /// Where each unit of its sequence starts in the word (the lead
    /// first), and where the sequence ends.
    pub(crate) unit_offsets: Vec<usize>,
}

impl Gap {
    /// The gap of the U+FFFD at `utf8_offset`, whose sequence starts with
    /// `lead`, kept `taken` and has its units at `unit_offsets`.
    pub(crate) fn new(
        utf8_offset: usize,
        candidates: Vec<char>,
        lead: u8,
        taken: Vec<u8>,
        unit_offsets: Vec<usize>,
    ) -> Self {
        Self {
            utf8_offset,
            candidates,
            priors: Vec::new(),
            lead,
            taken,
            unit_offsets,
        }
    }

    /// What candidate `index` costs before the word is looked at.
    fn prior(&self, index: usize) -> f32 {
        self.priors.get(index).copied().unwrap_or(0.0)
    }
}

/// A lost byte restored: the character it completes, and the guess.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Restoration {
    /// Where the character's U+FFFD is in the decoded text.
    pub(crate) utf8_offset: usize,
    /// The character restored.
    pub(crate) restored: char,
    /// The guess, at a UTF-8 offset from the start of the word.
    pub(crate) assumption: Assumption,
}

/// Whether lost bytes are restored in UTF-8 read as `encode_as`: the
/// readings whose lost bytes are C1 controls that software drops
/// (windows-1252's five undefined bytes, and all 32 for ISO-8859-1 taken
/// byte for code point). Others lose bytes their standard leaves
/// unassigned, which a mark stands for, and bytes vendors map to C1
/// controls, which no text of theirs tells apart.
pub(crate) fn restores_for(encode_as: EncodeAs) -> bool {
    encode_as == EncodeAs::Isomorphic || encode_as == EncodeAs::Encoding(crate::WINDOWS_1252)
}

/// The restorations of one lossy decode by `encode_as`: `text` is the
/// decode, `lost` its lost characters and `gaps` those of them that
/// lost one byte.
pub(crate) fn choose(
    text: &str,
    lost: &[Lost],
    gaps: &[Gap],
    encode_as: EncodeAs,
) -> Vec<Restoration> {
    if gaps.is_empty() || gaps.len() > MAX_GAPS || text.len() > MAX_WORD_BYTES {
        return Vec::new();
    }
    // Each lost character as the word is judged with it unknown: an
    // ordinary letter of its script.
    let mut slots: Vec<(usize, char)> = lost
        .iter()
        .map(|lost| {
            let first = lost.alternatives.first().copied().unwrap_or('?');
            (lost.utf8_offset, placeholder(first))
        })
        .collect();
    let gap_slots: Vec<usize> = gaps
        .iter()
        .filter_map(|gap| {
            slots
                .iter()
                .position(|&(offset, _)| offset == gap.utf8_offset)
        })
        .collect();
    if gap_slots.len() != gaps.len() {
        return Vec::new();
    }
    let chosen = pick(text, &mut slots, gaps, &gap_slots);
    gaps.iter()
        .zip(chosen)
        .filter_map(|(gap, restored)| {
            let restored = restored?;
            Some(Restoration {
                utf8_offset: gap.utf8_offset,
                restored,
                assumption: assumption(gap, restored, encode_as)?,
            })
        })
        .collect()
}

/// The clearly best of `candidates[i]` (each with what it costs before the
/// word is looked at) for the U+FFFD at each of `offsets` in `text` (its
/// only lost characters), weighed as [`choose`] weighs the candidates of
/// gaps: for readings whose lost bytes are not those of one sequence cut
/// short.
pub(crate) fn choose_chars(
    text: &str,
    offsets: &[usize],
    candidates: &[Vec<(char, f32)>],
) -> Vec<Option<char>> {
    if offsets.is_empty() || offsets.len() > MAX_GAPS || text.len() > MAX_WORD_BYTES {
        return vec![None; offsets.len()];
    }
    let (mut slots, gaps) = bare_gaps(offsets, candidates);
    let gap_slots: Vec<usize> = (0..gaps.len()).collect();
    pick(text, &mut slots, &gaps, &gap_slots)
}

/// The clearly best candidate of each of `gaps` (the `gap_slots`-th lost
/// characters of `slots`): weighed together when their combinations are
/// few enough, else each alone.
fn pick(
    text: &str,
    slots: &mut [(usize, char)],
    gaps: &[Gap],
    gap_slots: &[usize],
) -> Vec<Option<char>> {
    let combinations = gaps
        .iter()
        .try_fold(1_usize, |product, gap| {
            product
                .checked_mul(gap.candidates.len())
                .filter(|&product| product <= MAX_COMBINATIONS)
        })
        .is_some();
    if combinations {
        choose_together(text, slots, gaps, gap_slots)
    } else {
        gaps.iter()
            .zip(gap_slots)
            .map(|(gap, &slot)| choose_alone(text, slots, gap, slot))
            .collect()
    }
}

/// `candidates[i]` for the U+FFFD at each of `offsets` in `text`, the most
/// plausible first, each weighed with the others unknown (each candidate
/// with its prior cost, as in [`choose_chars`]).
pub(crate) fn rank_candidates(
    text: &str,
    offsets: &[usize],
    candidates: &[Vec<(char, f32)>],
) -> Vec<Vec<char>> {
    if text.len() > MAX_WORD_BYTES {
        return candidates
            .iter()
            .map(|candidates| candidates.iter().map(|&(c, _)| c).collect())
            .collect();
    }
    let (mut slots, gaps) = bare_gaps(offsets, candidates);
    gaps.iter()
        .enumerate()
        .map(|(slot, gap)| {
            ranked_costs(text, &mut slots, gap, slot)
                .into_iter()
                .map(|(_, c)| c)
                .collect()
        })
        .collect()
}

/// The candidates of `gap` (the `slot`-th lost character) with what the
/// word costs with each, the other lost characters as they stand in
/// `slots`; cheapest first.
fn ranked_costs(
    text: &str,
    slots: &mut [(usize, char)],
    gap: &Gap,
    slot: usize,
) -> Vec<(f32, char)> {
    let unknown = slots[slot].1;
    let mut costs: Vec<(f32, char)> = gap
        .candidates
        .iter()
        .enumerate()
        .map(|(index, &candidate)| {
            slots[slot].1 = candidate;
            (trial_cost(text, slots) + gap.prior(index), candidate)
        })
        .collect();
    slots[slot].1 = unknown;
    costs.sort_by(|a, b| a.0.total_cmp(&b.0));
    costs
}

/// The slots and gaps of [`choose_chars`]: each lost character as an
/// ordinary letter of its first candidate's script until weighed.
fn bare_gaps(offsets: &[usize], candidates: &[Vec<(char, f32)>]) -> (Vec<(usize, char)>, Vec<Gap>) {
    offsets
        .iter()
        .zip(candidates)
        .map(|(&offset, candidates)| {
            let first = candidates.first().map_or('?', |&(c, _)| c);
            let gap = Gap {
                utf8_offset: offset,
                candidates: candidates.iter().map(|&(c, _)| c).collect(),
                priors: candidates.iter().map(|&(_, prior)| prior).collect(),
                lead: 0,
                taken: Vec::new(),
                unit_offsets: Vec::new(),
            };
            ((offset, placeholder(first)), gap)
        })
        .unzip()
}

/// The clearly best candidate of `gap` (the `slot`-th lost character),
/// with the other lost characters as they stand in `slots`.
fn choose_alone(text: &str, slots: &mut [(usize, char)], gap: &Gap, slot: usize) -> Option<char> {
    let costs = ranked_costs(text, slots, gap, slot);
    match costs.as_slice() {
        [(best, c), (next, _), ..] if next - best >= CLEAR_MARGIN => Some(*c),
        [(_, c)] => Some(*c),
        _ => None,
    }
}

/// The clearly best candidate of each gap when all are weighed together:
/// the best combination's, where every combination that differs there
/// costs clearly more.
fn choose_together(
    text: &str,
    slots: &mut [(usize, char)],
    gaps: &[Gap],
    gap_slots: &[usize],
) -> Vec<Option<char>> {
    let mut combinations: Vec<(f32, Vec<char>)> = Vec::new();
    let mut choice = vec![0_usize; gaps.len()];
    loop {
        for ((gap, &slot), &index) in gaps.iter().zip(gap_slots).zip(&choice) {
            slots[slot].1 = gap.candidates[index];
        }
        let picked = gap_slots.iter().map(|&slot| slots[slot].1).collect();
        let priors: f32 = gaps
            .iter()
            .zip(&choice)
            .map(|(gap, &index)| gap.prior(index))
            .sum();
        combinations.push((trial_cost(text, slots) + priors, picked));
        // The next combination, as an odometer.
        let mut position = 0;
        loop {
            let Some(gap) = gaps.get(position) else {
                return best_per_gap(&combinations, gaps.len());
            };
            choice[position] += 1;
            if choice[position] < gap.candidates.len() {
                break;
            }
            choice[position] = 0;
            position += 1;
        }
    }
}

/// For each of `gaps` gaps, the character the best of `combinations` gives
/// it, if every combination giving it another costs clearly more.
fn best_per_gap(combinations: &[(f32, Vec<char>)], gaps: usize) -> Vec<Option<char>> {
    let Some((best_cost, best)) = combinations.iter().min_by(|a, b| a.0.total_cmp(&b.0)) else {
        return vec![None; gaps];
    };
    (0..gaps)
        .map(|gap| {
            let rival = combinations
                .iter()
                .filter(|(_, picked)| picked[gap] != best[gap])
                .map(|(cost, _)| *cost)
                .fold(f32::INFINITY, f32::min);
            (rival - best_cost >= CLEAR_MARGIN).then_some(best[gap])
        })
        .collect()
}

/// What `text` costs with each lost character as `slots` has it, plus
/// what each of those characters costs as a restoration.
fn trial_cost(text: &str, slots: &[(usize, char)]) -> f32 {
    let mut trial = String::with_capacity(text.len());
    // Where each slot's character is in the trial text.
    let mut placed = Vec::with_capacity(slots.len());
    let mut done = 0;
    for &(offset, c) in slots {
        trial.push_str(&text[done..offset]);
        placed.push((trial.len(), c));
        trial.push(c);
        done = offset + char::REPLACEMENT_CHARACTER.len_utf8();
    }
    trial.push_str(&text[done..]);
    let mut cost = score::word_cost(&trial) + accents_cost(&trial);
    // Letter statistics weigh a word that lost one character only: around
    // more gaps the neighbours are guesses too.
    if slots.len() == 1 {
        cost += letters_cost(text, &trial);
    }
    for (at, c) in placed {
        let before = trial[..at].chars().next_back();
        let after = trial[at + c.len_utf8()..].chars().next();
        cost += restoration_cost(c, before, after);
    }
    cost
}

/// How likely `word`'s letters follow one another in the language of the
/// script of its known letters that reads it best (the letter pair
/// statistics detection uses),
/// in the units of [`score::word_cost`], weighted by [`LETTERS_WEIGHT`]:
/// the word model tells a letter from a symbol and one script from
/// another, but not "Сайт" from "Сайя", "ก" from "ฝ" or "שלום" from
/// "שלוא". Nothing for a word with no letters beyond ASCII.
fn letters_cost(known: &str, word: &str) -> f32 {
    use mojiscope_indexes::language::{self, COST_SCALE, LANGUAGES};
    // The script of the letters the word kept (`known`, with U+FFFD for
    // the lost ones): a candidate of another script is the word model's to
    // judge, not these statistics.
    let Some(script) = known
        .chars()
        .filter(|c| !c.is_ascii())
        .find_map(language::script_of)
    else {
        return 0.0;
    };
    let best = LANGUAGES
        .iter()
        .filter(|language| language.script == script)
        .map(|language| language.text_cost(word))
        .min();
    // Whole units of 1/COST_SCALE nat: exact in f64, then scaled.
    best.map_or(0.0, |units| {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_precision_loss,
            reason = "a cost of a few hundred nats at most"
        )]
        let nats = (units as f64 / COST_SCALE) as f32;
        nats * LETTERS_WEIGHT
    })
}

/// How much a nat of [`letters_cost`] counts.
const LETTERS_WEIGHT: f32 = 0.35;

/// What a Greek word costs for carrying more than one accent (tonos or
/// dialytika with tonos): the monotonic orthography writes one at most, so
/// "ιστούία" is no word where "ιστορία" is.
fn accents_cost(word: &str) -> f32 {
    let accents = word
        .chars()
        .filter(|c| {
            matches!(
                c,
                'ά' | 'έ'
                    | 'ή'
                    | 'ί'
                    | 'ό'
                    | 'ύ'
                    | 'ώ'
                    | 'ΐ'
                    | 'ΰ'
                    | 'Ά'
                    | 'Έ'
                    | 'Ή'
                    | 'Ί'
                    | 'Ό'
                    | 'Ύ'
                    | 'Ώ'
            )
        })
        .count();
    if accents > 1 { TWO_ACCENTS } else { 0.0 }
}

/// See [`accents_cost`].
const TWO_ACCENTS: f32 = 2.0;

/// What restoring `c` between `before` and `after` costs beyond what the
/// word's cost says: rarity and invisibility.
fn restoration_cost(c: char, before: Option<char>, after: Option<char>) -> f32 {
    let info = score::info(c);
    // The variation selector and joiner of an emoji sequence ("❤️").
    let joins_emoji = matches!(c, '\u{FE0F}' | '\u{200D}')
        && before.is_some_and(|before| score::info(before).pictographic);
    // An emoji that a variation selector or joiner follows.
    let is_emoji =
        info.pictographic && after.is_some_and(|after| matches!(after, '\u{FE0F}' | '\u{200D}'));
    if joins_emoji || is_emoji {
        return 0.0;
    }
    let mut cost = 0.0;
    if matches!(info.kind, Kind::Format | Kind::Space) {
        cost += INVISIBLE;
    }
    // The national character sets already weigh Han, kana and Hangul.
    let cjk = matches!(info.script, Script::Han | Script::Kana | Script::Hangul);
    if !cjk && !in_legacy_set(c) {
        cost += RARE;
    }
    cost
}

/// Whether `c` is in one of the standard's single-byte encodings.
fn in_legacy_set(c: char) -> bool {
    static SET: OnceLock<Vec<char>> = OnceLock::new();
    let set = SET.get_or_init(|| {
        let mut set: Vec<char> = single_byte::all()
            .iter()
            .flat_map(|index| index.code_points().iter().flatten().copied())
            .collect();
        set.sort_unstable();
        set.dedup();
        set
    });
    c.is_ascii() || set.binary_search(&c).is_ok()
}

/// The guess that restoring `restored` in `gap` makes: the lost byte, as
/// `encode_as` reads it, where it left no trace. `None` if `restored` does
/// not fit the gap or the byte has no character in `encode_as`.
fn assumption(gap: &Gap, restored: char, encode_as: EncodeAs) -> Option<Assumption> {
    let mut buffer = [0; 4];
    let bytes = restored.encode_utf8(&mut buffer).as_bytes();
    let (&lead, rest) = bytes.split_first()?;
    if lead != gap.lead {
        return None;
    }
    // The byte vanished: it was somewhere among the others.
    if rest.len() != gap.taken.len() + 1 {
        return None;
    }
    (0..rest.len()).rev().find_map(|position| {
        let before = rest[..position]
            .iter()
            .zip(&gap.taken)
            .all(|(byte, unit)| byte == unit);
        let after = rest[position + 1..]
            .iter()
            .zip(&gap.taken[position..])
            .all(|(byte, unit)| byte == unit);
        if !(before && after) {
            return None;
        }
        Some(Assumption {
            utf8_offset: *gap.unit_offsets.get(1 + position)?,
            found: None,
            assumed: encode_as.decode_byte(rest[position])?,
            restored: Some(restored),
        })
    })
}

/// What `outcome`, reached by `chain`, makes of its word: the text with
/// the bytes `chain`'s reading restores, the characters still lost, the
/// guesses made (offsets from the word's start) and the chain.
///
/// A word that shows nothing of windows-1252 beyond ISO-8859-1 may have
/// lost any C1 control: its bytes are restored as ISO-8859-1's, and the
/// change's chain becomes that reading (the same family), which is
/// returned.
pub(crate) fn finish(outcome: &Outcome, chain: Chain) -> Finished {
    let unchanged = || Finished {
        text: outcome.text.clone(),
        lost: outcome.lost.clone(),
        assumptions: Vec::new(),
        chain,
    };
    // One step, or the same step twice when the second reading dropped
    // the bytes (see `twice`).
    let Some(step) = chain
        .last()
        .filter(|&step| chain.len() == 1 || (chain.len() == 2 && chain.steps().all(|s| s == step)))
    else {
        return unchanged();
    };
    let find = |encode_as: EncodeAs| {
        outcome
            .restorations
            .iter()
            .find(|(reading, _)| *reading == encode_as)
            .map(|(_, restorations)| &restorations[..])
    };
    let (restorations, chain) = match find(step.encode_as) {
        Some(restorations) => (restorations, chain),
        None if step.encode_as == EncodeAs::Encoding(crate::WINDOWS_1252) => {
            let isomorphic = Step {
                encode_as: EncodeAs::Isomorphic,
                ..step
            };
            let steps = [isomorphic; 2];
            match (
                find(EncodeAs::Isomorphic),
                Chain::new(&steps[..chain.len()]),
            ) {
                (Some(restorations), Some(chain)) => (restorations, chain),
                _ => return unchanged(),
            }
        }
        None => return unchanged(),
    };
    let mut text = String::with_capacity(outcome.text.len());
    let mut lost = Vec::with_capacity(outcome.lost.len());
    let mut assumptions = Vec::with_capacity(restorations.len());
    let mut done = 0;
    for entry in &outcome.lost {
        text.push_str(&outcome.text[done..entry.utf8_offset]);
        done = entry.utf8_offset + char::REPLACEMENT_CHARACTER.len_utf8();
        if let Some(restoration) = restorations
            .iter()
            .find(|restoration| restoration.utf8_offset == entry.utf8_offset)
        {
            text.push(restoration.restored);
            assumptions.push(restoration.assumption.clone());
        } else {
            lost.push(Lost {
                utf8_offset: text.len(),
                alternatives: entry.alternatives.clone(),
            });
            text.push(char::REPLACEMENT_CHARACTER);
        }
    }
    text.push_str(&outcome.text[done..]);
    assumptions.sort_by_key(|assumption| assumption.utf8_offset);
    Finished {
        text,
        lost,
        assumptions,
        chain,
    }
}

/// What a change makes of a word: see [`finish`].
pub(crate) struct Finished {
    /// The replacement.
    pub(crate) text: String,
    /// The characters still lost in it.
    pub(crate) lost: Vec<Lost>,
    /// The bytes restored, as guesses (offsets from the word's start).
    pub(crate) assumptions: Vec<Assumption>,
    /// The chain that explains it.
    pub(crate) chain: Chain,
}
