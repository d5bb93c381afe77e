//! The passes over a line's decisions that look beyond single words: a
//! chain that repaired most of a line repairs its plausible words too
//! ([`extend_line`]), C1 controls are read as the bytes they were where the
//! line says so ([`reread_c1`]), and a lone repair among text its wrong
//! decoder would have damaged too becomes a suggestion
//! ([`demote_lone_repairs`]).

use std::ops::Range;
use std::rc::Rc;

use super::chain::EncodeAs;
use super::search::{self, WordRepairs};
use super::{
    Chain, ChainIds, Decision, MIN_DROPPED_SUPPORT, MIN_SUPPORTED_GAIN, SUPPORT_SLACK, SUSPICIOUS,
    UNSURE, Word, letters_only, lossy, score, symbol_led,
};

/// Demotes to a suggestion the repair of one damaged character that is
/// alone in its line while other words of the line hold characters the
/// chain's wrong decoder would have damaged too, and did not: the line was
/// not misread as a whole, and the one sequence may be meant. It stays a
/// change when those characters include letters its repaired letter goes
/// with ("razÃ£o" among "consciência"); it is demoted when they do not, or
/// when they are only punctuation and the repaired character is an
/// uncommon one ("Mccoy – DrÃ¥ber", see [`score::is_uncommon`]).
pub(super) fn demote_lone_repairs(
    text: &str,
    plain: &[(Range<usize>, Range<usize>, f32)],
    words: &[Word],
    decisions: &mut [Decision],
) {
    // How many changes each chain made (a line uses few chains).
    let mut applied: Vec<(Chain, usize)> = Vec::new();
    for decision in decisions
        .iter()
        .filter(|decision| decision.confidence >= 0.5)
    {
        match applied
            .iter_mut()
            .find(|(chain, _)| *chain == decision.chain)
        {
            Some((_, count)) => *count += 1,
            None => applied.push((decision.chain, 1)),
        }
    }
    let lone = |decision: &Decision| {
        decision.confidence >= 0.5
            && words[decision.word].repairs.outcomes[decision.outcome].non_ascii <= 1
            && applied.contains(&(decision.chain, 1))
    };
    if !decisions.iter().any(lone) {
        return;
    }
    let decided: rustc_hash::FxHashSet<usize> = decisions
        .iter()
        .map(|decision| words[decision.word].utf8_range.start)
        .collect();
    for decision in decisions.iter_mut() {
        if !lone(decision) {
            continue;
        }
        let word = &words[decision.word];
        let outcome = &word.repairs.outcomes[decision.outcome];
        let Some(first) = decision.chain.steps().next() else {
            continue;
        };
        let mut clean = String::new();
        for (range, _, _) in plain {
            if decided.contains(&range.start) {
                continue;
            }
            // (Characters the misreading leaves as they are, "è" when
            // windows-1252 text is read as ISO-8859-1, say nothing.)
            clean.extend(text[range.clone()].chars().filter(|&c| {
                let mut buffer = [0; 4];
                let c_text = c.encode_utf8(&mut buffer);
                !c.is_ascii()
                    && first.encode_as.encode(c_text).is_some()
                    && decision.chain.apply(c_text).as_deref() != Some(c_text)
            }));
        }
        if clean.is_empty() {
            continue;
        }
        let letters = clean
            .chars()
            .any(|c| score::info(c).kind == score::Kind::Letter);
        // The characters the repair makes, written right elsewhere in the
        // line, say the line was repaired in part ("Brailleâ€™a" beside
        // "Duploye’a").
        let seen = outcome
            .text
            .chars()
            .filter(|c| !c.is_ascii())
            .all(|c| clean.contains(c));
        let fits = seen
            || if letters {
                score::Alphabet::of(&clean)
                    .and(outcome.facts.alphabet)
                    .cost()
                    == 0.0
            } else {
                !outcome.text.chars().any(score::is_uncommon)
            };
        if !fits {
            decision.confidence = decision.confidence.min(UNSURE);
        }
    }
}

/// Demotes to a suggestion the lone repair of a word by a legacy reading
/// ("Ã\u{9b}" into "脹", "Æ’udomekpo" into "ブdomekpo") in a line where
/// a UTF-8 chain repairs other words: one line was misread one way, and
/// a short word that the line's chain makes implausible on its own ("Û"
/// alone) is no sign of a second misreading.
pub(super) fn demote_lone_legacy(decisions: &mut [Decision]) {
    let utf8 = decisions.iter().any(|decision| {
        decision.confidence >= 0.5
            && decision
                .chain
                .last()
                .is_some_and(super::chain::Step::decodes_utf8)
    });
    if !utf8 {
        return;
    }
    let chains: Vec<Chain> = decisions
        .iter()
        .filter(|decision| decision.confidence >= 0.5)
        .map(|decision| decision.chain)
        .collect();
    for decision in decisions.iter_mut() {
        let legacy = decision
            .chain
            .last()
            .is_some_and(|step| !step.decodes_utf8());
        let alone = chains
            .iter()
            .filter(|&&chain| chain == decision.chain)
            .count()
            == 1;
        if decision.confidence >= 0.5 && legacy && alone {
            decision.confidence = decision.confidence.min(UNSURE);
        }
    }
}

/// One line's C1 controls come from one decoder: where a word of the line
/// needed macintosh (windows-1252 made odd text of it: "Coatl‡n"), the
/// words windows-1252 read plausibly ("conf’an") are read with macintosh
/// too ("confían").
pub(super) fn reread_c1(
    text: &str,
    words: &mut Vec<Word>,
    decisions: &mut [Decision],
    chain_ids: &mut ChainIds,
) {
    let single_c1 = |chain: Chain| {
        chain
            .last()
            .filter(|step| chain.len() == 1 && step.undoes_c1())
    };
    let Some(macintosh) = decisions.iter().find_map(|decision| {
        single_c1(decision.chain).filter(|step| step.decode_as != crate::WINDOWS_1252)
    }) else {
        return;
    };
    let Some(chain) = Chain::new(&[macintosh]) else {
        return;
    };
    for decision in decisions.iter_mut() {
        let Some(step) = single_c1(decision.chain) else {
            continue;
        };
        if step == macintosh {
            continue;
        }
        let word = &words[decision.word];
        let Some(reread) = chain.apply(&text[word.utf8_range.clone()]) else {
            continue;
        };
        let replacement = Word {
            repairs: Rc::new(WordRepairs {
                outcomes: vec![search::Outcome::new(reread, Vec::new(), 0, false)],
                chains: vec![(chain, 0)],
                ids: vec![chain_ids.id(chain)],
            }),
            utf8_range: word.utf8_range.clone(),
            char_range: word.char_range.clone(),
            cost: word.cost,
            script: word.script,
            symbol_led: word.symbol_led,
            letters_only: word.letters_only,
            assumption: word.assumption.clone(),
        };
        words.push(replacement);
        decision.word = words.len() - 1;
        decision.chain = chain;
        decision.outcome = 0;
    }
}

/// The chain most of `decisions` repaired their word with, how many, and
/// the weakest confidence among them.
fn line_chain(decisions: &[Decision]) -> Option<(Chain, usize, f32)> {
    let mut counts: Vec<(Chain, usize, f32)> = Vec::new();
    for decision in decisions
        .iter()
        .filter(|decision| decision.confidence >= 0.5)
    {
        match counts
            .iter_mut()
            .find(|(chain, _, _)| *chain == decision.chain)
        {
            Some((_, count, confidence)) => {
                *count += 1;
                *confidence = confidence.min(decision.confidence);
            }
            None => counts.push((decision.chain, 1, decision.confidence)),
        }
    }
    counts.into_iter().max_by_key(|(_, count, _)| *count)
}

/// Repairs with the line a word `chain` would have repaired but for its
/// reading being odd text ("şəhəri" beside "Şəki"): the reading is what
/// the writer wrote, in a script or with letters the scorer finds rare.
/// Only for UTF-8 undone: a legacy decode makes odd text of anything.
fn lift_odd_readings(words: &[Word], decisions: &mut [Decision], chain: Chain, confidence: f32) {
    if !chain.last().is_some_and(super::chain::Step::decodes_utf8) {
        return;
    }
    for decision in decisions.iter_mut() {
        let word = &words[decision.word];
        if decision.chain == chain
            && decision.confidence < 0.5
            && decision.uncapped >= 0.5
            && word.repairs.outcomes[decision.outcome].lost.is_empty()
        {
            decision.confidence = confidence.min(decision.uncapped);
        }
    }
}

/// Whether a repair among `decisions` lost or restored bytes. Without
/// that, a correct capital ending a word ("OSEANIË" beside a repaired
/// "ALBANIÃ‹") is a letter, not a lead byte whose continuation vanished.
fn lost_bytes(words: &[Word], decisions: &[Decision]) -> bool {
    decisions.iter().any(|decision| {
        let outcome = &words[decision.word].repairs.outcomes[decision.outcome];
        decision.confidence >= 0.5 && (!outcome.lost.is_empty() || !outcome.restorations.is_empty())
    })
}

/// `chain` applied to the pieces of `word` between its characters written
/// right ([`super::stray_characters`]: "ë" in "mërkurÃ«", "ž" in
/// "BožiÄ‡a"), which stay; `None` if it has none, or the chain does not
/// apply to a piece.
fn apply_around_strays(chain: Chain, word: &str) -> Option<String> {
    let strays = super::stray_characters(word);
    if strays.is_empty() {
        return None;
    }
    let mut repaired = String::with_capacity(word.len());
    let mut start = 0;
    for offset in strays.into_iter().chain(std::iter::once(word.len())) {
        let piece = word.get(start..offset)?;
        if piece.is_ascii() {
            repaired.push_str(piece);
        } else {
            repaired.push_str(&chain.apply(piece)?);
        }
        if let Some(stray) = word[offset..].chars().next() {
            repaired.push(stray);
            start = offset + stray.len_utf8();
        }
    }
    Some(repaired)
}

/// Extends a line's repair beyond the words decided on their own:
/// [`drop_stray_legacy`], then [`support`]. The lossy repairs support
/// makes show the line lost bytes, which is what the words it left for
/// want of that evidence needed ("Èi" is "și" that lost 0x99, in a
/// Romanian line whose other words lost bytes too, and "faÈÄ" is no
/// EUC-JP "fa板"): then both are done once more.
pub(super) fn extend_line(
    text: &str,
    plain: &[(Range<usize>, Range<usize>, f32)],
    words: &mut Vec<Word>,
    decisions: &mut Vec<Decision>,
    chain_ids: &mut ChainIds,
) {
    let lost_before = lost_bytes(words, decisions);
    drop_stray_legacy(text, words, decisions);
    support(text, plain, words, decisions, chain_ids);
    if !lost_before && lost_bytes(words, decisions) {
        drop_stray_legacy(text, words, decisions);
        support(text, plain, words, decisions, chain_ids);
    }
}

/// Takes back the legacy readings of words that the chain of their line
/// reads with bytes lost, in a line that chain repaired with bytes lost:
/// one line was misread one way, and a run of lead bytes whose
/// continuation bytes vanished ("××××", UTF-8 Hebrew read as ISO-8859-1
/// with its C1 controls dropped) pairs into characters under a double-byte
/// decoder ("利利" in EUC-KR) only by chance. The words are left to
/// [`support`], which repairs them with the line's chain or leaves them.
fn drop_stray_legacy(text: &str, words: &[Word], decisions: &mut Vec<Decision>) {
    let Some((chain, count, _)) = line_chain(decisions) else {
        return;
    };
    let Some(step) = chain.last().filter(|step| {
        chain.len() == 1 && step.decodes_utf8() && !step.encode_as.lost_bytes().is_empty()
    }) else {
        return;
    };
    let line_lost = decisions.iter().any(|decision| {
        let outcome = &words[decision.word].repairs.outcomes[decision.outcome];
        decision.chain == chain
            && decision.confidence >= 0.5
            && (!outcome.lost.is_empty() || !outcome.restorations.is_empty())
    });
    if !line_lost {
        return;
    }
    let applied = |legacy: Chain, decisions: &[Decision]| {
        decisions
            .iter()
            .filter(|decision| decision.chain == legacy && decision.confidence >= 0.5)
            .count()
    };
    let stray: Vec<usize> = decisions
        .iter()
        .enumerate()
        .filter(|(_, decision)| {
            decision
                .chain
                .last()
                .is_some_and(|last| !last.decodes_utf8())
                && applied(decision.chain, decisions) < count
        })
        .filter(|(_, decision)| {
            let word = &text[words[decision.word].utf8_range.clone()];
            let encode_as = lossy_reading(step.encode_as, word);
            lossy::decode(word, encode_as, encode_as.lost_bytes())
                .is_some_and(|decoded| !decoded.lost.is_empty())
        })
        .map(|(index, _)| index)
        .collect();
    for index in stray.into_iter().rev() {
        decisions.remove(index);
    }
}

/// The other chains that read every word `chain` repaired in a line as
/// `chain` does, when it undoes UTF-8: windows-1252 and windows-1257 make
/// the same letters of most Latvian mojibake, and the first wins on its
/// prior, but a word it cannot read ("TIESÄŖBU", with windows-1257's
/// "Ŗ") may be read by one of them.
fn alike_chains(words: &[Word], decisions: &[Decision], chain: Chain) -> Vec<Chain> {
    if !chain.last().is_some_and(super::chain::Step::decodes_utf8) {
        return Vec::new();
    }
    let mut repaired = decisions
        .iter()
        .filter(|decision| decision.chain == chain && decision.confidence >= 0.5);
    let Some(first) = repaired.next() else {
        return Vec::new();
    };
    let mut alike: Vec<Chain> = words[first.word]
        .repairs
        .chains
        .iter()
        .filter(|&&(other, outcome)| {
            other != chain
                && outcome == first.outcome
                && other.last().is_some_and(super::chain::Step::decodes_utf8)
        })
        .map(|&(other, _)| other)
        .collect();
    for decision in repaired {
        let repairs = &words[decision.word].repairs;
        alike.retain(|&other| repairs.chains.contains(&(other, decision.outcome)));
    }
    alike
}

/// The reading a lossy repair of `word` undoes for a line repaired by
/// `encode_as`: windows-1252's lost bytes are five, but a word that shows
/// nothing of windows-1252 beyond ISO-8859-1 may have lost any C1 control
/// (as [`lossy::decode`] restores only from the bytes the word shows its
/// reading loses), and its lost characters' candidates are those of
/// ISO-8859-1 taken byte for code point.
fn lossy_reading(encode_as: EncodeAs, word: &str) -> EncodeAs {
    let beyond_latin1 = word
        .chars()
        .any(|c| u32::from(c) > 0xFF && c != char::REPLACEMENT_CHARACTER);
    if encode_as == EncodeAs::Encoding(crate::WINDOWS_1252) && !beyond_latin1 {
        EncodeAs::Isomorphic
    } else {
        encode_as
    }
}

/// Extends a line's repair to the words that did not look like mojibake on
/// their own ("Ã\u{a0}", "РІ", "è"), when the line's evidence is strong:
/// most of its words with characters outside ASCII were repaired by one
/// chain. Such a word is repaired by that chain if it applies in fatal mode
/// and leaves the word no less plausible.
fn support(
    text: &str,
    plain: &[(Range<usize>, Range<usize>, f32)],
    words: &mut Vec<Word>,
    decisions: &mut Vec<Decision>,
    chain_ids: &mut ChainIds,
) {
    let Some((chain, count, line_confidence)) = line_chain(decisions) else {
        return;
    };
    // Supported repairs are as sure as the line, discounted.
    let confidence = 0.5 + (line_confidence - 0.5) * 0.5;
    lift_odd_readings(words, decisions, chain, confidence);
    // A one-step UTF-8 chain may also undo lost bytes.
    let lossy_step = chain.last().filter(|step| {
        chain.len() == 1 && step.decodes_utf8() && !step.encode_as.lost_bytes().is_empty()
    });
    let decided: rustc_hash::FxHashSet<usize> = decisions
        .iter()
        .map(|decision| words[decision.word].utf8_range.start)
        .collect();
    let alike = alike_chains(words, decisions, chain);
    let mut candidates = Vec::new();
    for (range, char_range, cost) in plain {
        if decided.contains(&range.start) {
            continue;
        }
        let word = &text[range.clone()];
        let read = std::iter::once(chain)
            .chain(alike.iter().copied())
            .find_map(|used| used.apply(word).map(|repaired| (used, repaired)));
        let mut around_strays = false;
        let (used, outcome) = if let Some((used, repaired)) = read {
            (used, search::Outcome::new(repaired, Vec::new(), 0, false))
        } else if let Some(repaired) = apply_around_strays(chain, word) {
            around_strays = true;
            (chain, search::Outcome::new(repaired, Vec::new(), 0, false))
        } else if let Some(step) = lossy_step
            // A word holding letters written right beside its sequences
            // ("mërkurÃ«"), or a lead byte among ASCII letters ("é" alone,
            // "Cuáit"), would lose them: they are no bytes of a sequence
            // cut short.
            && super::stray_characters(word).is_empty()
            && !super::has_latin_lone_lead(word)
            && let encode_as = lossy_reading(step.encode_as, word)
            && let Some(decoded) = lossy::decode(word, encode_as, encode_as.lost_bytes())
            && (decoded.recovered > 0 || !decoded.lost.is_empty())
            && (decoded.whole > 0
                || search::has_loss_marks(word)
                || (count >= MIN_DROPPED_SUPPORT
                    && (*cost >= SUSPICIOUS || lost_bytes(words, decisions))))
        {
            let mut outcome = search::Outcome::new(decoded.text, decoded.lost, 0, false);
            outcome.add_restorations(encode_as, decoded.restorations);
            (chain, outcome)
        } else {
            continue;
        };
        if outcome.text != word {
            candidates.push((range, char_range, *cost, outcome, used, around_strays));
        }
    }
    // A UTF-8 decode seldom applies to correct text, and a lossy one makes
    // it costlier: the cost check below is enough. A legacy decode applies
    // to almost any text: a good part of the words it changes must have
    // been repaired on their own evidence.
    let legacy = chain.last().is_some_and(|step| !step.decodes_utf8());
    let double_byte = chain
        .last()
        .is_some_and(|step| !step.decodes_utf8() && !step.decode_as.is_single_byte());
    if legacy && count * 2 < candidates.len() {
        return;
    }
    // A lossy repair replaces characters with U+FFFD: each needs a word
    // repaired on its own evidence behind it, unless the word is odd text
    // on its own ("czÅowiek", "cilvÄki": a lone lead byte inside a word of
    // a line its chain repaired elsewhere is a byte dropped, whatever the
    // count).
    let lossy = candidates
        .iter()
        .filter(|(_, _, _, outcome, _, _)| !outcome.lost.is_empty())
        .count();
    let line_lost = lost_bytes(words, decisions);
    for (range, char_range, cost, outcome, chain, around_strays) in candidates {
        if !outcome.lost.is_empty() && lossy > count && cost < SUSPICIOUS && !line_lost {
            continue;
        }
        // The loss itself is no reason to leave the word as it is. A
        // double-byte decode makes almost any text into characters: it must
        // make the word clearly better ("l’égalité" is no "l捗ゞalit茅").
        let judged = outcome.cost - search::LOSS * score::small(outcome.lost.len());
        // Pieces read between characters written right must read clearly
        // better too: a sequence by chance ("ÍŽ" beside "Č" in "ČÍŽ")
        // makes odd text, not better.
        let allowed = if double_byte || around_strays {
            cost - MIN_SUPPORTED_GAIN
        } else {
            cost + SUPPORT_SLACK
        };
        if judged > allowed {
            continue;
        }
        words.push(Word {
            script: score::dominant_script(&text[range.clone()]),
            symbol_led: symbol_led(&text[range.clone()]),
            letters_only: letters_only(&text[range.clone()]),
            assumption: None,
            utf8_range: range.clone(),
            char_range: char_range.clone(),
            cost,
            repairs: Rc::new(WordRepairs {
                outcomes: vec![outcome],
                chains: vec![(chain, 0)],
                ids: vec![chain_ids.id(chain)],
            }),
        });
        decisions.push(Decision {
            word: words.len() - 1,
            chain,
            outcome: 0,
            confidence,
            uncapped: confidence,
        });
    }
}
