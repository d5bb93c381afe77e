//! How well a decode reads in each language: the [`Scorer`] walks a
//! decode's characters and finds the language it fits best ([`Fit`]).

use mojiscope_indexes::language::{self, COST_SCALE, LANGUAGES, Language, Script};

use super::text::{ByteCounts, CharInfo, Chars};
use super::{ASCII_LETTER_COST, Ranked, scaled, to_f64};

/// How well a decode reads in its best language.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fit {
    pub(super) language: &'static Language,
    /// Cost in nats of the scored characters.
    pub(super) cost: f64,
    /// How many characters were scored.
    pub(super) chars: u64,
    /// Cost in nats of the scored pairs with a character beyond ASCII.
    pub(super) high_cost: f64,
    /// How many such pairs.
    pub(super) high_chars: u64,
}

/// A cost in units of 1/`COST_SCALE` nat, and how many pairs it is for.
type Cost = (u64, u64);

impl Fit {
    /// The fit of language `index`, from the costs of the ASCII pairs and
    /// of those beyond ASCII, and a cost `extra` on top.
    pub(super) fn new(index: usize, ascii: Cost, high: Cost, extra: u64) -> Self {
        Self {
            language: &LANGUAGES[index],
            cost: to_f64(ascii.0 + high.0 + extra) / COST_SCALE,
            chars: ascii.1 + high.1,
            high_cost: to_f64(high.0) / COST_SCALE,
            high_chars: high.1,
        }
    }

    /// The average cost in nats of a pair with a character beyond ASCII,
    /// if there is one.
    pub(super) fn high_nats_per_char(&self) -> Option<f64> {
        (self.high_chars > 0).then(|| self.high_cost / to_f64(self.high_chars))
    }
}

/// The price, in units of 1/`COST_SCALE` nat, of reading the ASCII words of
/// a text in one language and its words with characters beyond ASCII in
/// another.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "a positive whole number of units"
)]
pub(super) const MIXED_LANGUAGES_COST: u64 = (10.0 * COST_SCALE) as u64;

/// How many languages are weighed pair by pair, picked by how well the
/// decode fits them with its characters beyond ASCII taken alone (and its
/// ASCII pairs, which every decode shares): the best of them by pairs is
/// the language the decode reads best in.
pub(super) const SHORTLIST: usize = 5;

/// Scores decodes under the language models, caching what decodes share:
/// the symbol of each character (by its index in [`Chars`]) and the cost of
/// the ASCII pairs, per language.
pub(super) struct Scorer<'a> {
    pub(super) counts: &'a ByteCounts,
    pub(super) chars: &'a Chars,
    /// See [`letter_scale`].
    pub(super) letter_scale: f64,
    /// The cost and count of the ASCII pairs, per language: of the words
    /// without bytes beyond ASCII, and of those with.
    pub(super) ascii_costs: Vec<[Option<(u64, u64)>; 2]>,
    /// The cost and count of the ASCII pairs alone, per language they are
    /// read in ([`ascii_language`]): every language not written in Latin
    /// script reads them in English, which is summed once for all of them.
    pub(super) ascii_pair_sums: Vec<[Option<(u64, u64)>; 2]>,
    /// The symbol of each character, per language (`u16::MAX` until
    /// looked up).
    pub(super) symbols: Vec<Vec<u16>>,
    /// How often each byte is the right-hand member of a byte pair with a
    /// byte beyond ASCII.
    pub(super) right_bytes: Vec<(u8, u64)>,
}

impl<'a> Scorer<'a> {
    pub(super) fn new(counts: &'a ByteCounts, chars: &'a Chars, letter_scale: f64) -> Self {
        let mut right = [0u64; 256];
        for &(_, b, n) in &counts.high_pairs {
            right[usize::from(b)] += u64::from(n);
        }
        let right_bytes = (0..=255u8)
            .filter(|&b| right[usize::from(b)] > 0)
            .map(|b| (b, right[usize::from(b)]))
            .collect();
        Self {
            counts,
            chars,
            letter_scale,
            ascii_costs: vec![[None; 2]; LANGUAGES.len()],
            ascii_pair_sums: vec![[None; 2]; LANGUAGES.len()],
            symbols: vec![Vec::new(); LANGUAGES.len()],
            right_bytes,
        }
    }

    /// The symbol of character `id` in language `index`.
    #[inline]
    pub(super) fn symbol(&mut self, index: usize, id: u32) -> u16 {
        let symbols = &mut self.symbols[index];
        if symbols.is_empty() {
            *symbols = vec![u16::MAX; self.chars.len()];
        }
        let slot = &mut symbols[id as usize];
        if *slot == u16::MAX {
            *slot = self.chars.info(id).symbol(&LANGUAGES[index]);
        }
        *slot
    }

    /// The cost of the pair of characters `left`, `right` in language
    /// `index`, in units of 1/`COST_SCALE` nat.
    #[inline]
    pub(super) fn pair_cost(&mut self, costs: &PairCosts, left: u32, right: u32) -> u32 {
        let (ls, rs) = (
            self.symbol(costs.index, left),
            self.symbol(costs.index, right),
        );
        costs.cost(self.chars.info(left), ls, self.chars.info(right), rs)
    }

    /// The cost (in units of 1/`COST_SCALE` nat) and count of the shared
    /// ASCII pairs for language `index`, of the words without bytes beyond
    /// ASCII or (`words`) of those with: in the language itself if it is
    /// written in Latin script, else in English plus [`ASCII_LETTER_COST`]
    /// for each ASCII letter.
    pub(super) fn ascii_cost(&mut self, index: usize, words: bool) -> (u64, u64) {
        if let Some(cost) = self.ascii_costs[index][usize::from(words)] {
            return cost;
        }
        let (mut cost, chars) = self.ascii_pair_sum(ascii_language(index), words);
        let letters = if words {
            self.counts.word_letters
        } else {
            self.counts.ascii_letters
        };
        if LANGUAGES[index].script != Script::Latin {
            cost += scaled(ASCII_LETTER_COST * letters, self.letter_scale);
        }
        self.ascii_costs[index][usize::from(words)] = Some((cost, chars));
        (cost, chars)
    }

    /// The cost and count of the shared ASCII pairs in language `index`
    /// alone, of the words without bytes beyond ASCII or (`words`) of those
    /// with.
    fn ascii_pair_sum(&mut self, index: usize, words: bool) -> (u64, u64) {
        if let Some(sum) = self.ascii_pair_sums[index][usize::from(words)] {
            return sum;
        }
        let costs = PairCosts::of(index);
        let counts = self.counts;
        let pairs = if words {
            &counts.word_pairs
        } else {
            &counts.ascii_pairs
        };
        // The symbol of each ASCII character, looked up once.
        let mut symbols = [u16::MAX; 128];
        let mut cost = 0u64;
        let mut chars = 0u64;
        for &(left, right, n) in pairs {
            let (l, r) = (u32::from(left), u32::from(right));
            for (c, id) in [(left, l), (right, r)] {
                if symbols[usize::from(c & 0x7F)] == u16::MAX {
                    symbols[usize::from(c & 0x7F)] = self.symbol(index, id);
                }
            }
            let pair = costs.cost(
                self.chars.info(l),
                symbols[usize::from(left & 0x7F)],
                self.chars.info(r),
                symbols[usize::from(right & 0x7F)],
            );
            cost += u64::from(pair) * u64::from(n);
            chars += u64::from(n);
        }
        self.ascii_pair_sums[index][usize::from(words)] = Some((cost, chars));
        (cost, chars)
    }

    /// The language among `served` in which the shared ASCII pairs read
    /// best.
    pub(super) fn best_ascii_language(&mut self, served: &[usize]) -> usize {
        served
            .iter()
            .map(|&index| (self.all_ascii_cost(index).0, index))
            .min()
            .map_or(0, |(_, index)| index)
    }

    /// The cost and count of all the shared ASCII pairs in language `index`.
    pub(super) fn all_ascii_cost(&mut self, index: usize) -> (u64, u64) {
        let (other, words) = (self.ascii_cost(index, false), self.ascii_cost(index, true));
        (other.0 + words.0, other.1 + words.1)
    }

    /// The language among `served` in which `candidate`'s decode reads
    /// best, or `None` when nothing was scored. The languages are first
    /// shortlisted by the cost of the decode's characters alone, then the
    /// shortlist is weighed pair by pair.
    pub(super) fn fit(&mut self, candidate: &Ranked, served: &[usize]) -> Option<Fit> {
        let with_ascii = !candidate.stats.ascii_pairs_included;
        // The words with characters beyond ASCII may be in another language
        // than the others: one in which their ASCII letters read clearly
        // better than in the best language of the others. Whether they are
        // says nothing of the encoding (every ASCII-compatible decode has
        // the same ASCII letters).
        let other = if with_ascii && served.len() > 1 {
            served
                .iter()
                .map(|&index| (self.ascii_cost(index, false), index))
                .min()
        } else {
            None
        };
        let other_words = other.map_or(0, |(_, index)| self.ascii_cost(index, true).0);
        let allowed: Vec<usize> = if other.is_some() {
            served
                .iter()
                .copied()
                .filter(|&index| {
                    self.ascii_cost(index, true).0 + MIXED_LANGUAGES_COST < other_words
                })
                .collect()
        } else {
            Vec::new()
        };
        let rights = if served.len() > SHORTLIST || allowed.len() > SHORTLIST {
            right_chars(candidate, &self.right_bytes)
        } else {
            Vec::new()
        };
        let whole = self.shortlist(&rights, served, with_ascii, true);
        let beyond = self.shortlist(&rights, &allowed, with_ascii, false);
        let mut high = Vec::new();
        let mut best: Option<Fit> = None;
        for index in whole {
            let ascii = if with_ascii {
                self.all_ascii_cost(index)
            } else {
                (0, 0)
            };
            let fit = Fit::new(index, ascii, self.high_cost(candidate, index, &mut high), 0);
            if fit.chars > 0 && best.is_none_or(|b| fit.cost < b.cost) {
                best = Some(fit);
            }
        }
        // Or the words without characters beyond ASCII in their best
        // language and those with in another (an English menu with its
        // Portuguese translations), at a price.
        if let Some((ascii, _)) = other {
            let mut high_best: Option<(usize, Cost, Cost)> = None;
            for index in beyond {
                let high = self.high_cost(candidate, index, &mut high);
                let words = self.ascii_cost(index, true);
                if high.1 > 0
                    && high_best.is_none_or(|(_, best, best_words)| {
                        high.0 + words.0 < best.0 + best_words.0
                    })
                {
                    high_best = Some((index, high, words));
                }
            }
            if let Some((index, high, words)) = high_best {
                let ascii = (ascii.0 + words.0, ascii.1 + words.1);
                let mixed = Fit::new(index, ascii, high, MIXED_LANGUAGES_COST);
                if best.is_some_and(|b| mixed.cost < b.cost) {
                    best = Some(mixed);
                }
            }
        }
        best
    }

    /// The [`SHORTLIST`] languages of `languages` that fit best the
    /// characters `rights` (each with its count) taken alone, and the ASCII
    /// pairs of the words with characters beyond ASCII (and of the others
    /// if `whole`); all of them if they are no more.
    pub(super) fn shortlist(
        &mut self,
        rights: &[(u32, u64)],
        languages: &[usize],
        with_ascii: bool,
        whole: bool,
    ) -> Vec<usize> {
        if languages.len() <= SHORTLIST {
            return languages.to_vec();
        }
        let mut costs: Vec<(u64, usize)> = languages
            .iter()
            .map(|&index| {
                let mut cost: u64 = rights
                    .iter()
                    .map(|&(id, n)| {
                        let symbol = self.symbol(index, id);
                        unigram_cost(&LANGUAGES[index], self.chars.info(id), symbol) * n
                    })
                    .sum();
                if with_ascii {
                    cost += self.ascii_cost(index, true).0;
                    if whole {
                        cost += self.ascii_cost(index, false).0;
                    }
                }
                (cost, index)
            })
            .collect();
        costs.sort_unstable();
        costs.iter().take(SHORTLIST).map(|c| c.1).collect()
    }

    /// [`Scorer::pairs_cost`], remembered in `memo` for the languages
    /// weighed already.
    pub(super) fn high_cost(
        &mut self,
        candidate: &Ranked,
        index: usize,
        memo: &mut Vec<(usize, Cost)>,
    ) -> Cost {
        if let Some(&(_, cost)) = memo.iter().find(|(i, _)| *i == index) {
            return cost;
        }
        let cost = self.pairs_cost(index, candidate);
        memo.push((index, cost));
        cost
    }

    /// The cost and count of `candidate`'s pairs beyond ASCII in language
    /// `index` (for ISO-2022-JP, all its pairs: those of ASCII characters
    /// in the language's model for ASCII).
    pub(super) fn pairs_cost(&mut self, index: usize, candidate: &Ranked) -> (u64, u64) {
        let costs = PairCosts::of(index);
        let mut cost = 0u64;
        let mut chars = 0u64;
        if let Some(ids) = &candidate.byte_ids {
            // The symbol of each byte that occurs, looked up once.
            let mut symbols = [0u16; 256];
            for &b in &self.counts.present {
                symbols[usize::from(b)] = self.symbol(index, ids[usize::from(b)]);
            }
            let chars_of = self.chars;
            for &(left, right, n) in &self.counts.high_pairs {
                let (l, r) = (ids[usize::from(left)], ids[usize::from(right)]);
                if l == u32::from(b' ') && r == u32::from(b' ') {
                    continue;
                }
                let pair = costs.cost(
                    chars_of.info(l),
                    symbols[usize::from(left)],
                    chars_of.info(r),
                    symbols[usize::from(right)],
                );
                cost += u64::from(pair) * u64::from(n);
                chars += u64::from(n);
            }
            return (cost, chars);
        }
        let ascii_costs = PairCosts::of(ascii_language(index));
        for &(left, right, n) in &candidate.stats.pairs {
            let model = if left < 0x80 && right < 0x80 {
                &ascii_costs
            } else {
                &costs
            };
            cost += u64::from(self.pair_cost(model, left, right)) * u64::from(n);
            chars += u64::from(n);
        }
        // A decode ruled out on the way (which ranks below every clean
        // decode) is priced as if its text went on alike.
        let stats = &candidate.stats;
        if stats.scored_chars < stats.chars && stats.scored_non_ascii > 0 {
            let scale = |n: u64| {
                u64::try_from(
                    u128::from(n) * u128::from(stats.non_ascii)
                        / u128::from(stats.scored_non_ascii),
                )
                .unwrap_or(u64::MAX)
            };
            return (scale(cost), scale(chars));
        }
        (cost, chars)
    }
}

/// The characters of `candidate`'s decode that are right-hand members of
/// its pairs beyond ASCII, with their counts: for the shortlist.
pub(super) fn right_chars(candidate: &Ranked, right_bytes: &[(u8, u64)]) -> Vec<(u32, u64)> {
    let mut counts: Vec<(u32, u64)> = match &candidate.byte_ids {
        Some(ids) => right_bytes
            .iter()
            .map(|&(b, n)| (ids[usize::from(b)], n))
            .collect(),
        None => candidate
            .stats
            .pairs
            .iter()
            .map(|&(_, right, n)| (right, u64::from(n)))
            .collect(),
    };
    counts.sort_unstable();
    counts.dedup_by(|later, earlier| {
        if later.0 == earlier.0 {
            earlier.1 += later.1;
            true
        } else {
            false
        }
    });
    counts
}

/// The costs of a language's symbol pairs.
pub(super) struct PairCosts {
    pub(super) index: usize,
}

impl PairCosts {
    pub(super) fn of(index: usize) -> Self {
        Self { index }
    }

    /// The cost of `right` (symbol `rs`) after `left` (symbol `ls`), a
    /// class member's share of its class and a change of script included.
    #[inline]
    pub(super) fn cost(&self, left: &CharInfo, ls: u16, right: &CharInfo, rs: u16) -> u32 {
        let language = &LANGUAGES[self.index];
        let pair = language.symbol_pair_cost(usize::from(ls), usize::from(rs));
        let share = if usize::from(rs) >= language.symbols.len() {
            u32::from(right.share)
        } else {
            0
        };
        pair + share + language::script_change_cost(left.script, right.script)
    }
}

/// The cost of a character alone (its symbol's, and its share of a class)
/// in `language`, in units of 1/`COST_SCALE` nat.
pub(super) fn unigram_cost(language: &Language, info: &CharInfo, symbol: u16) -> u64 {
    let share = if usize::from(symbol) >= language.symbols.len() {
        u64::from(info.share)
    } else {
        0
    };
    u64::from(language.unigram[usize::from(symbol)]) + share
}

/// The language pairs of ASCII characters are scored in when the text is in
/// language `index`: the language itself if it is written in Latin script,
/// else English (the Latin-script words of Russian or Japanese text, its
/// markup and names, are more often English than anything else, and the
/// training text of those languages has almost none). Each ASCII letter then
/// costs [`ASCII_LETTER_COST`] more: text in those languages has fewer of
/// them, so a text of Latin words does not read as well in them for free.
pub(super) fn ascii_language(index: usize) -> usize {
    if LANGUAGES[index].script == Script::Latin {
        index
    } else {
        0
    }
}
