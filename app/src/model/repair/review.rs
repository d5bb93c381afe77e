//! A finished repair under review ([`Review`]): the decoded text, never
//! modified, what the repair proposes, and which proposals the user
//! accepts; the text with the accepted ones applied is what Save writes.

use std::path::PathBuf;

use mojiscope_core::Encoding;
use mojiscope_core::repair::{Chain, Change};

use super::manual::{chain_name, family};
use super::{Proposal, RepairOutcome, RepairRequest};
use crate::model::wording::plural;

/// How many changes and suggestions one chain made: chains that mean the
/// same to a user ([`family`]) count as one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainCount {
    /// The chain, as a user tells chains apart ([`family`]).
    pub chain: Chain,
    /// Its changes (sure).
    pub changes: usize,
    /// Its suggestions (unsure).
    pub suggestions: usize,
}

/// A finished repair under review: the decoded text, never modified, what
/// the repair proposes, and which proposals the user accepts.
#[derive(Clone, Debug)]
pub struct Review {
    request: RepairRequest,
    generation: u64,
    path: PathBuf,
    outcome: RepairOutcome,
    accepted: Vec<bool>,
    accepted_count: usize,
    chains: Vec<ChainCount>,
    /// The characters the sure changes could not recover (the window asks
    /// every frame).
    lost: usize,
}

impl Review {
    /// The review of `outcome`, the repair of `request` for load `generation`
    /// of the file at `path`: the changes accepted, the suggestions not.
    pub fn new(
        request: RepairRequest,
        generation: u64,
        path: PathBuf,
        outcome: RepairOutcome,
    ) -> Self {
        let mut chains: Vec<ChainCount> = Vec::new();
        for proposal in &outcome.proposals {
            let chain = family(proposal.change.chain);
            let index = chains
                .iter()
                .position(|count| count.chain == chain)
                .unwrap_or_else(|| {
                    chains.push(ChainCount {
                        chain,
                        changes: 0,
                        suggestions: 0,
                    });
                    chains.len() - 1
                });
            let count = &mut chains[index];
            if proposal.is_sure {
                count.changes += 1;
            } else {
                count.suggestions += 1;
            }
        }
        chains.sort_by_key(|count| std::cmp::Reverse((count.changes, count.suggestions)));
        let lost = outcome
            .proposals
            .iter()
            .filter(|proposal| proposal.is_sure)
            .map(|proposal| proposal.change.lost.len())
            .sum();
        let mut review = Self {
            request,
            generation,
            path,
            accepted: Vec::new(),
            accepted_count: 0,
            chains,
            lost,
            outcome,
        };
        review.reset();
        review
    }

    /// Which decode was repaired.
    pub fn request(&self) -> RepairRequest {
        self.request
    }

    /// The load of the file that was repaired: a review of an older
    /// generation than the open document's is stale, and must not be saved.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The file that was repaired.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// The encoding whose decoder made the text (the pane's, or the one its
    /// byte order mark picked): where the text came from.
    pub fn encoding(&self) -> &'static Encoding {
        self.outcome.encoding
    }

    /// The decoded text, as it was before any repair.
    pub fn text(&self) -> &str {
        &self.outcome.text
    }

    /// The changes and suggestions, in text order.
    pub fn proposals(&self) -> &[Proposal] {
        &self.outcome.proposals
    }

    /// The chains used, each with its counts, most used first.
    pub fn chains(&self) -> &[ChainCount] {
        &self.chains
    }

    /// Whether proposal `index` is accepted.
    pub fn is_accepted(&self, index: usize) -> bool {
        self.accepted.get(index).copied().unwrap_or(false)
    }

    /// Accepts or rejects proposal `index`.
    pub fn set_accepted(&mut self, index: usize, accepted: bool) {
        if let Some(slot) = self.accepted.get_mut(index)
            && *slot != accepted
        {
            *slot = accepted;
            if accepted {
                self.accepted_count += 1;
            } else {
                self.accepted_count -= 1;
            }
        }
    }

    /// Accepts or rejects every proposal, suggestions included.
    pub fn set_all(&mut self, accepted: bool) {
        self.accepted.fill(accepted);
        self.accepted_count = if accepted { self.accepted.len() } else { 0 };
    }

    /// Accepts or rejects every proposal made by `chain` or a chain that
    /// means the same to a user ([`family`]).
    pub fn set_chain(&mut self, chain: Chain, accepted: bool) {
        let chain = family(chain);
        for index in 0..self.outcome.proposals.len() {
            if family(self.outcome.proposals[index].change.chain) == chain {
                self.set_accepted(index, accepted);
            }
        }
    }

    /// Back to what the repair proposed: the changes accepted, the
    /// suggestions not.
    pub fn reset(&mut self) {
        self.accepted = self.outcome.proposals.iter().map(|p| p.is_sure).collect();
        self.accepted_count = self.accepted.iter().filter(|&&a| a).count();
    }

    /// How many proposals are accepted.
    pub fn accepted_count(&self) -> usize {
        self.accepted_count
    }

    /// How many proposals the repair is sure of.
    pub fn sure_count(&self) -> usize {
        self.chains.iter().map(|count| count.changes).sum()
    }

    /// How many characters the sure changes could not recover (each is
    /// U+FFFD in its replacement).
    pub fn lost_count(&self) -> usize {
        self.lost
    }

    /// The accepted changes that apply, in text order: each within the
    /// text and after the one before.
    fn applied(&self) -> impl Iterator<Item = &Change> + '_ {
        let text = self.text();
        let mut done = 0;
        self.proposals()
            .iter()
            .zip(&self.accepted)
            .filter(|&(_, &accepted)| accepted)
            .map(|(proposal, _)| &proposal.change)
            .filter(move |change| {
                let range = change.utf8_range.clone();
                let applies = range.start >= done && text.get(range.clone()).is_some();
                if applies {
                    done = range.end;
                }
                applies
            })
    }

    /// The text with the accepted proposals applied, piece by piece: the
    /// text between them and their replacements, in order. Nothing is
    /// copied; an encoder can write the pieces as they come.
    pub fn accepted_pieces(&self) -> impl Iterator<Item = &str> + '_ {
        let text = self.text();
        let mut applied = self.applied();
        let mut done = 0;
        let mut pending: Option<&str> = None;
        std::iter::from_fn(move || {
            loop {
                if let Some(replacement) = pending.take() {
                    return Some(replacement);
                }
                let Some(change) = applied.next() else {
                    let rest = text.get(done..).filter(|rest| !rest.is_empty());
                    done = text.len();
                    return rest;
                };
                let range = change.utf8_range.clone();
                let before = &text[done..range.start];
                done = range.end;
                pending = Some(&change.replacement);
                if !before.is_empty() {
                    return Some(before);
                }
            }
        })
    }

    /// Where the accepted text ([`Review::accepted_text`]) holds a U+FFFD
    /// for bytes that were lost (UTF-8 offsets, in order): the decoding
    /// errors no accepted change replaced, and the characters accepted
    /// changes could not recover.
    pub fn accepted_error_offsets(&self) -> Vec<usize> {
        let mut offsets = Vec::new();
        let mut errors = self.outcome.error_offsets.iter().copied().peekable();
        // How much longer the accepted text is than the decode so far.
        let mut grown: isize = 0;
        let moved = |offset: usize, grown: isize| offset.saturating_add_signed(grown);
        for change in self.applied() {
            let range = &change.utf8_range;
            while let Some(offset) = errors.next_if(|&offset| offset < range.start) {
                offsets.push(moved(offset, grown));
            }
            // The change replaced the errors inside it.
            while errors.next_if(|&offset| offset < range.end).is_some() {}
            let start = moved(range.start, grown);
            offsets.extend(change.lost.iter().map(|lost| start + lost.utf8_offset));
            grown += change.replacement.len().cast_signed() - range.len().cast_signed();
        }
        offsets.extend(errors.map(|offset| moved(offset, grown)));
        offsets
    }

    /// The text with the accepted proposals applied: what Save writes.
    pub fn accepted_text(&self) -> String {
        let mut text = String::with_capacity(self.text().len());
        text.extend(self.accepted_pieces());
        text
    }

    /// What the repair found, in words: one sentence each about the
    /// changes, the suggestions, the characters lost and what is accepted.
    pub fn summary(&self) -> Vec<String> {
        let mut sentences = Vec::new();
        let sure = self.sure_count();
        let unsure = self.proposals().len() - sure;
        // Said whatever the repair found: Save will ask about them.
        let errors = self.outcome.error_offsets.len();
        let errors_sentence = (errors > 0).then(|| {
            format!(
                "The decode has {} U+FFFD where bytes did not decode: no repair brings those bytes back, and Save asks before keeping {}.",
                errors,
                if errors == 1 { "it" } else { "them" }
            )
        });
        if self.proposals().is_empty() {
            sentences.push("No mojibake found: nothing to repair.".to_owned());
            sentences.extend(errors_sentence);
            return sentences;
        }
        if sure == 0 {
            sentences.push("No change the repair is sure of.".to_owned());
        } else {
            let by: Vec<String> = self
                .chains
                .iter()
                .filter(|count| count.changes > 0)
                .map(|count| format!("{} {}", count.changes, chain_name(count.chain)))
                .collect();
            sentences.push(format!(
                "{}: {}.",
                plural(sure, "change", "changes"),
                by.join("; ")
            ));
        }
        if unsure > 0 {
            sentences.push(format!(
                "{} the repair is unsure of, not accepted unless you tick {}.",
                plural(unsure, "suggestion", "suggestions"),
                if unsure == 1 { "it" } else { "them" }
            ));
        }
        let lost = self.lost_count();
        if lost > 0 {
            sentences.push(format!(
                "{} could not be recovered: each is U+FFFD in its change.",
                plural(lost, "character", "characters")
            ));
        }
        sentences.extend(errors_sentence);
        sentences.push(format!(
            "{} of {} accepted.",
            self.accepted_count,
            self.proposals().len()
        ));
        sentences
    }
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{BomHandling, UTF_8};

    use super::super::testing::{request, run};
    use super::*;

    fn review_of(text: &str) -> Review {
        let outcome = run(text.as_bytes(), request(UTF_8, BomHandling::Sniff));
        Review::new(
            request(UTF_8, BomHandling::Sniff),
            4,
            PathBuf::from("notes.txt"),
            outcome,
        )
    }

    #[test]
    fn lost_bytes_in_the_accepted_text_are_found_wherever_they_moved() {
        // Two bytes that do not decode, a U+FFFD the file holds as a
        // character, and a repair that could not recover one character.
        let mut bytes = b"\xFE start\n".to_vec();
        bytes.extend("BogotÃ¡, Ã?ndice, pÃºblico\n".as_bytes());
        bytes.extend(b"after \xFF x\n");
        bytes.extend("held \u{FFFD} as is\n".as_bytes());
        let outcome = run(&bytes, request(UTF_8, BomHandling::Sniff));
        assert_eq!(outcome.error_offsets.len(), 2);
        let mut review = Review::new(
            request(UTF_8, BomHandling::Sniff),
            1,
            PathBuf::from("notes.txt"),
            outcome,
        );
        let lost_at = |review: &Review| {
            let text = review.accepted_text();
            let offsets = review.accepted_error_offsets();
            for &offset in &offsets {
                assert!(
                    text[offset..].starts_with('\u{FFFD}'),
                    "{offset} in {text:?}"
                );
            }
            (text, offsets.len())
        };
        assert!(review.summary().contains(
            &"The decode has 2 U+FFFD where bytes did not decode: no repair brings those bytes back, and Save asks before keeping them."
                .to_owned()
        ));
        let (text, lost) = lost_at(&review);
        assert_eq!(
            text,
            "\u{FFFD} start\nBogotá, \u{FFFD}ndice, público\nafter \u{FFFD} x\nheld \u{FFFD} as is\n"
        );
        assert_eq!(
            lost, 3,
            "two decoding errors and one character not recovered"
        );
        // Rejecting the lossy change leaves its "Ã?" and moves what follows.
        let lossy = review
            .proposals()
            .iter()
            .position(|proposal| proposal.change.is_lossy())
            .unwrap();
        review.set_accepted(lossy, false);
        let (text, lost) = lost_at(&review);
        assert!(text.contains("Ã?ndice"), "{text}");
        assert_eq!(lost, 2);
        review.set_all(false);
        assert_eq!(lost_at(&review).1, 2);
    }

    #[test]
    fn the_accepted_text_applies_only_what_is_accepted() {
        let text = "Ã©tÃ© 1\nclean line\nUn Ã©tÃ© 2\nРњРѕСЃРєРІР° 3\n";
        let mut review = review_of(text);
        assert_eq!(review.proposals().len(), 3);
        assert_eq!(review.accepted_count(), 3);
        assert_eq!(
            review.accepted_text(),
            "été 1\nclean line\nUn été 2\nМосква 3\n"
        );
        review.set_accepted(1, false);
        assert_eq!(
            review.accepted_text(),
            "été 1\nclean line\nUn Ã©tÃ© 2\nМосква 3\n"
        );
        assert_eq!(review.accepted_count(), 2);
        // By chain: windows-1252 → UTF-8 made two, windows-1251 → UTF-8 one.
        let chains: Vec<(String, usize)> = review
            .chains()
            .iter()
            .map(|count| (chain_name(count.chain), count.changes))
            .collect();
        assert_eq!(
            chains,
            [
                ("UTF-8 read as windows-1252".to_owned(), 2),
                ("UTF-8 read as windows-1251".to_owned(), 1)
            ]
        );
        let latin = review.chains()[0].chain;
        review.set_chain(latin, false);
        assert_eq!(
            review.accepted_text(),
            "Ã©tÃ© 1\nclean line\nUn Ã©tÃ© 2\nМосква 3\n"
        );
        review.set_all(false);
        assert_eq!(review.accepted_text(), text);
        assert_eq!(review.text(), text, "the decode is never modified");
        review.set_chain(latin, true);
        assert_eq!(
            review.accepted_text(),
            "été 1\nclean line\nUn été 2\nРњРѕСЃРєРІР° 3\n"
        );
        review.reset();
        assert_eq!(review.accepted_count(), 3);
        // The pieces are the text, in order, and never empty.
        let pieces: Vec<&str> = review.accepted_pieces().collect();
        assert!(pieces.iter().all(|piece| !piece.is_empty()), "{pieces:?}");
        assert_eq!(pieces.concat(), review.accepted_text());
        assert_eq!((review.generation(), review.encoding()), (4, UTF_8));
        assert_eq!(
            review.summary(),
            [
                "3 changes: 2 UTF-8 read as windows-1252; 1 UTF-8 read as windows-1251.",
                "3 of 3 accepted."
            ]
        );
    }

    #[test]
    fn windows_1252_and_iso_8859_1_chains_are_one_for_the_user() {
        // "É" is C3 89: windows-1252 reads the 89 as "‰", a decoder that
        // keeps C1 controls as U+0089, which only ISO-8859-1 taken byte for
        // code point undoes. To a user both are one mojibake.
        let text = "Un Ã©tÃ© chaud\nÃ\u{89}tÃ© indien Ã  Montréal\n";
        let mut review = review_of(text);
        let exact: Vec<Chain> = review.proposals().iter().map(|p| p.change.chain).collect();
        assert!(exact.len() >= 2 && exact[0] != exact[1], "{exact:?}");
        assert_eq!(review.chains().len(), 1, "{:?}", review.chains());
        assert_eq!(
            chain_name(review.chains()[0].chain),
            "UTF-8 read as windows-1252"
        );
        assert!(review.summary()[0].starts_with(&format!(
            "{} changes: {} UTF-8 read as windows-1252.",
            exact.len(),
            exact.len()
        )));
        // Rejecting the one rejects both.
        let chain = review.chains()[0].chain;
        review.set_chain(chain, false);
        assert_eq!(review.accepted_count(), 0);
    }

    #[test]
    fn characters_lost_on_the_way_are_counted_and_marked() {
        // "Á" is C3 81 in UTF-8; windows-1252 has no 0x81, so it was lost
        // (to "?" once, to U+FFFD once).
        let review = review_of("Ã?NGEL GarcÃ\u{AD}a, Ã\u{FFFD}lvaro\nok\n");
        assert_eq!(review.proposals().len(), 1);
        let change = &review.proposals()[0].change;
        assert_eq!(change.replacement, "\u{FFFD}NGEL García, \u{FFFD}lvaro");
        let offsets: Vec<usize> = change.lost.iter().map(|lost| lost.utf8_offset).collect();
        assert_eq!(offsets, [0, 17]);
        assert!(change.lost[0].alternatives.contains(&'Á'));
        assert_eq!(review.lost_count(), 2);
        assert!(
            review.summary().contains(
                &"2 characters could not be recovered: each is U+FFFD in its change.".to_owned()
            ),
            "{:?}",
            review.summary()
        );
        assert_eq!(
            review.accepted_text(),
            "\u{FFFD}NGEL García, \u{FFFD}lvaro\nok\n"
        );
    }

    #[test]
    fn nothing_to_repair_says_so() {
        let review = review_of("Un été à Paris\nМосква\n");
        assert!(review.proposals().is_empty());
        assert_eq!(review.summary(), ["No mojibake found: nothing to repair."]);
        assert_eq!(review.accepted_text(), "Un été à Paris\nМосква\n");
        assert_eq!(review_of("").accepted_text(), "");
    }
}
