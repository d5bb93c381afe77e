//! Every reading of one span of text the chains give, ranked: what a user
//! picks from when repairing a span by hand ([`readings`]).
//!
//! [`repair`](super::repair) decides for itself, word by word, and changes
//! nothing it is not sure of. A user who has selected a span has already
//! decided that it is damaged, and wants the chains that could have damaged
//! it, the likeliest first: the same search and the same plausibility
//! costs, with no decision taken.

use super::chain::Chain;
use super::lossy::Lost;
use super::score;
use super::search::{self, LOSS};

/// The longest span [`readings`] searches, in bytes: a selection is a few
/// words, and every step of every chain is tried on all of it.
pub const MAX_READING_BYTES: usize = 4096;

/// What turns a further step's outcome "unfinished" costs: a reading that
/// is mojibake still ranks below the one that finishes it.
const UNFINISHED: f32 = 2.0;

/// One reading of a span: the chain undone, the text it gives, and how
/// plausible that text is.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// The steps undone, in the order they are applied (the empty chain:
    /// the span as it is).
    pub chain: Chain,
    /// The text the chain gives.
    pub text: String,
    /// The characters of `text` that could not be recovered (each is
    /// U+FFFD in it), when bytes were lost on the way.
    pub lost: Vec<Lost>,
    /// How implausible the reading is, as the repair judges words, with
    /// the chain's prior: lower is better.
    pub cost: f32,
}

/// The readings of `span` that the repair's chains give, best first, at
/// most `max`: each text once, with the likeliest chain that gives it. The
/// span as it is (the empty chain) is among them, so that a caller sees
/// whether any chain reads better than leaving it alone. Empty when the
/// span is longer than [`MAX_READING_BYTES`].
pub fn readings(span: &str, max: usize) -> Vec<Reading> {
    if span.len() > MAX_READING_BYTES || max == 0 {
        return Vec::new();
    }
    let found = search::search(span, None);
    let mut readings = vec![Reading {
        chain: Chain::EMPTY,
        text: span.to_owned(),
        lost: Vec::new(),
        cost: text_cost(span, 0),
    }];
    for (index, outcome) in found.outcomes.iter().enumerate() {
        if outcome.text == span {
            continue;
        }
        // The likeliest damage that gives this text.
        let Some(chain) = found
            .chains
            .iter()
            .filter(|(_, of)| *of == index)
            .map(|(chain, _)| *chain)
            .min_by(|a, b| a.prior_cost().total_cmp(&b.prior_cost()))
        else {
            continue;
        };
        let unfinished = if outcome.unfinished { UNFINISHED } else { 0.0 };
        readings.push(Reading {
            chain,
            text: outcome.text.clone(),
            lost: outcome.lost.clone(),
            cost: text_cost(&outcome.text, outcome.lost.len()) + chain.prior_cost() + unfinished,
        });
    }
    readings.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    readings.truncate(max);
    readings
}

/// A text's cost as the sum of its words' (a span may hold several), and
/// what each lost character costs.
fn text_cost(text: &str, lost: usize) -> f32 {
    let words: f32 = text.split_whitespace().map(score::word_cost).sum();
    words + LOSS * score::small(lost)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_of_utf8_read_as_windows_1252_reads_best_undone() {
        let span = "Le cafÃ© de la gare est fermÃ© lâ€™hiver";
        let found = readings(span, 8);
        let best = &found[0];
        assert_eq!(best.text, "Le café de la gare est fermé l’hiver");
        assert_eq!(best.chain.display_name(), "UTF-8 read as windows-1252");
        assert!(best.lost.is_empty());
        // The span as it is ranks below, and is there.
        assert!(found.iter().skip(1).any(|r| r.chain.is_empty()));
        assert!(found.windows(2).all(|w| w[0].cost <= w[1].cost));
    }

    #[test]
    fn good_text_reads_best_as_it_is() {
        let found = readings("Déjà vu, naïve café", 8);
        assert!(found[0].chain.is_empty(), "{found:?}");
    }

    #[test]
    fn cyrillic_read_as_windows_1251_is_found() {
        let found = readings("РњРѕСЃРєРІР° Рё РџРёС‚РµСЂ", 16);
        assert_eq!(found[0].text, "Москва и Питер", "{found:?}");
        assert_eq!(found[0].chain.display_name(), "UTF-8 read as windows-1251");
    }

    #[test]
    fn a_lost_byte_is_marked() {
        // "à" is C3 A0; the A0 (no-break space) was lost as U+FFFD.
        let found = readings("voilÃ\u{FFFD} le travail", 8);
        assert!(found.iter().any(|r| !r.lost.is_empty()), "{found:?}");
    }

    #[test]
    fn too_long_a_span_has_no_readings() {
        assert!(readings(&"Ã©".repeat(MAX_READING_BYTES), 4).is_empty());
        assert!(readings("Ã©tÃ©", 0).is_empty());
    }
}
