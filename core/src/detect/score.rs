//! How well a decode reads in each language: the [`Scorer`] walks a
//! decode's characters and finds the language it fits best ([`Fit`]).

use mojiscope_indexes::language::{self, COST_SCALE, LANGUAGES, Language, Script};

use super::tables::{self, NO_SYMBOL};
use super::text::{ByteCounts, CODE_PAGE_CHARS, CharInfo, Chars, TextStats, code_page_chars};
use super::{ASCII_LETTER_COST, Ranked, scaled, to_f64};
use crate::encoding::Encoding;

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
    /// See [`letter_scale`](super::letter_scale).
    pub(super) letter_scale: f64,
    /// The cost and count of the ASCII pairs, per language: of the words
    /// without bytes beyond ASCII, and of those with.
    pub(super) ascii_costs: Vec<[Option<(u64, u64)>; 2]>,
    /// The cost and count of the ASCII pairs alone, per language they are
    /// read in ([`ascii_language`]): every language not written in Latin
    /// script reads them in English, which is summed once for all of them.
    pub(super) ascii_pair_sums: Vec<[Option<(u64, u64)>; 2]>,
    /// The symbol of each character, per language without a table of the
    /// symbols of its alphabets (Chinese, Japanese, Korean: their symbols
    /// are searched), `u16::MAX` until looked up.
    pub(super) symbols: Vec<Vec<u16>>,
    /// How often each byte is the right-hand member of a byte pair with a
    /// byte beyond ASCII.
    pub(super) right_bytes: Vec<(u8, u64)>,
    /// The bytes of the byte pairs with a byte beyond ASCII, in order.
    pair_bytes: Vec<u8>,
    /// The characters of the shared ASCII pairs, in order: of the words
    /// without bytes beyond ASCII, and of those with.
    ascii_chars: [Vec<u8>; 2],
    /// The shared ASCII pairs of each side grouped by their left-hand
    /// character: the character and where its pairs lie.
    ascii_groups: [Vec<(u8, std::ops::Range<usize>)>; 2],
    /// How many shared ASCII pairs each side counts.
    ascii_counts: [u64; 2],
    /// The pairs of the decode byte by byte weighed last.
    byte_pairs: Option<BytePairs>,
}

impl<'a> Scorer<'a> {
    pub(super) fn new(counts: &'a ByteCounts, chars: &'a Chars, letter_scale: f64) -> Self {
        let mut right = [0u64; 256];
        let mut in_pairs = [false; 256];
        for &(a, b, n) in &counts.high_pairs {
            right[usize::from(b)] += u64::from(n);
            in_pairs[usize::from(a)] = true;
            in_pairs[usize::from(b)] = true;
        }
        let pair_bytes = (0..=255u8).filter(|&b| in_pairs[usize::from(b)]).collect();
        let chars_of = |pairs: &[(u8, u8, u32)]| {
            let mut seen = [false; 128];
            for &(left, right, _) in pairs {
                seen[usize::from(left & 0x7F)] = true;
                seen[usize::from(right & 0x7F)] = true;
            }
            (0..0x80u8).filter(|&c| seen[usize::from(c)]).collect()
        };
        let ascii_chars = [chars_of(&counts.ascii_pairs), chars_of(&counts.word_pairs)];
        let groups_of = |pairs: &[(u8, u8, u32)]| {
            let mut groups: Vec<(u8, std::ops::Range<usize>)> = Vec::new();
            for group in pairs.chunk_by(|a, b| a.0 == b.0) {
                let start = groups.last().map_or(0, |(_, range)| range.end);
                groups.push((group[0].0 & 0x7F, start..start + group.len()));
            }
            groups
        };
        let ascii_groups = [
            groups_of(&counts.ascii_pairs),
            groups_of(&counts.word_pairs),
        ];
        let count_of =
            |pairs: &[(u8, u8, u32)]| pairs.iter().map(|&(_, _, n)| u64::from(n)).sum::<u64>();
        let ascii_counts = [count_of(&counts.ascii_pairs), count_of(&counts.word_pairs)];
        let mut right_bytes: Vec<(u8, u64)> = (0..=255u8)
            .filter(|&b| right[usize::from(b)] > 0)
            .map(|b| (b, right[usize::from(b)]))
            .collect();
        right_bytes.sort_by_key(|&(b, n)| (std::cmp::Reverse(n), b));
        Self {
            counts,
            chars,
            letter_scale,
            ascii_costs: vec![[None; 2]; LANGUAGES.len()],
            ascii_pair_sums: vec![[None; 2]; LANGUAGES.len()],
            symbols: vec![Vec::new(); LANGUAGES.len()],
            right_bytes,
            pair_bytes,
            ascii_chars,
            ascii_groups,
            ascii_counts,
            byte_pairs: None,
        }
    }

    /// The symbol of character `id` in language `index`.
    #[inline]
    pub(super) fn symbol(&mut self, index: usize, id: u32) -> u16 {
        if let Some(&symbol) = CODE_PAGE_SYMBOLS[index].get(id as usize) {
            return symbol;
        }
        if let Some(direct) = tables::symbol_table(index) {
            // Read at once, as [`Scorer::shortlist`] reads it: remembering
            // it would cost more (memory to lay out for each language).
            return symbol_of(&LANGUAGES[index], Some(direct), self.chars.info(id));
        }
        match self.symbols[index].get(id as usize) {
            Some(&symbol) if symbol != u16::MAX => symbol,
            _ => self.look_up_symbol(index, id),
        }
    }

    /// [`Scorer::symbol`] the first time it is asked.
    #[inline(never)]
    fn look_up_symbol(&mut self, index: usize, id: u32) -> u16 {
        let symbols = &mut self.symbols[index];
        let at = id as usize;
        if symbols.len() <= at {
            // Grown as far as the characters asked of the language (most
            // are asked about those of a few decodes only), doubling.
            let len = (at + 1).max(symbols.len() * 2).max(Self::MIN_SYMBOLS);
            symbols.resize(len.min(self.chars.len()).max(at + 1), u16::MAX);
        }
        let symbol = symbol_of(
            &LANGUAGES[index],
            tables::symbol_table(index),
            self.chars.info(id),
        );
        symbols[at] = symbol;
        symbol
    }

    /// How many characters' symbols a language remembers at least, once
    /// it remembers one: the ASCII characters and a code page's.
    const MIN_SYMBOLS: usize = 512;

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
        let counts = self.counts;
        let pairs = if words {
            &counts.word_pairs
        } else {
            &counts.ascii_pairs
        };
        let sum = if pairs.is_empty() {
            (0, 0)
        } else {
            self.sum_ascii_pairs(&PairCosts::of(index), words)
        };
        self.ascii_pair_sums[index][usize::from(words)] = Some(sum);
        sum
    }

    /// The cost and count of the shared ASCII pairs with `costs`, of the
    /// words without bytes beyond ASCII or (`words`) of those with.
    fn sum_ascii_pairs(&mut self, costs: &PairCosts, words: bool) -> (u64, u64) {
        let index = costs.index;
        let counts = self.counts;
        let pairs = if words {
            &counts.word_pairs
        } else {
            &counts.ascii_pairs
        };
        // The symbol of each ASCII character and its share of its class,
        // looked up once. (ASCII characters are Latin letters or no letters:
        // their pairs change no script.)
        let mut symbols = [0u16; 128];
        let mut shares = [0u32; 128];
        let side = usize::from(words);
        for at in 0..self.ascii_chars[side].len() {
            let c = self.ascii_chars[side][at];
            let id = u32::from(c);
            let symbol = self.symbol(index, id);
            symbols[usize::from(c)] = symbol;
            shares[usize::from(c)] = costs.share(self.chars.info(id), symbol);
        }
        let mut cost = 0u64;
        let chars = self.ascii_counts[side];
        // The pairs are sorted by their left-hand character: the row of
        // each in the table of every pair is found once. (Every language
        // weighs ASCII pairs in one with a table: see [`ascii_language`].)
        for &(left, ref group) in &self.ascii_groups[side] {
            let ls = symbols[usize::from(left)];
            for &(_, right, n) in &pairs[group.clone()] {
                let right = usize::from(right & 0x7F);
                let rs = symbols[right];
                let pair = costs.symbol_pair(ls, rs);
                cost += u64::from(pair + shares[right]) * u64::from(n);
            }
        }
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
        let stats = &candidate.stats;
        let whole = self.shortlist(stats, &rights, served, with_ascii, true);
        let beyond = self.shortlist(stats, &rights, &allowed, with_ascii, false);
        let mut high = Vec::new();
        // The best fit so far, and its cost in units: a language whose
        // pairs alone cost as much is left as soon as they do (costs only
        // add up), as it cannot read better.
        let mut best: Option<(Fit, u64)> = None;
        for index in whole {
            let ascii = if with_ascii {
                self.all_ascii_cost(index)
            } else {
                (0, 0)
            };
            let limit = best.map_or(u64::MAX, |(_, units)| units.saturating_sub(ascii.0));
            let Some(high) = self.high_cost(candidate, index, &mut high, limit) else {
                continue;
            };
            let fit = Fit::new(index, ascii, high, 0);
            let units = ascii.0 + high.0;
            if fit.chars > 0 && best.is_none_or(|(_, best)| units < best) {
                best = Some((fit, units));
            }
        }
        // Or the words without characters beyond ASCII in their best
        // language and those with in another (an English menu with its
        // Portuguese translations), at a price: only when that reads
        // better than the best fit, so a language of `beyond` whose pairs
        // cost too much for that is left as soon as they do.
        if let (Some((ascii, _)), Some((_, best_units))) = (other, best) {
            let mut high_best: Option<(usize, Cost, Cost)> = None;
            let better_than_best = best_units.saturating_sub(ascii.0 + MIXED_LANGUAGES_COST);
            for index in beyond {
                let words = self.ascii_cost(index, true);
                let bound = high_best.map_or(better_than_best, |(_, best, best_words)| {
                    better_than_best.min(best.0 + best_words.0)
                });
                let limit = bound.saturating_sub(words.0);
                let Some(high) = self.high_cost(candidate, index, &mut high, limit) else {
                    continue;
                };
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
                if ascii.0 + high.0 + MIXED_LANGUAGES_COST < best_units {
                    best = Some((mixed, 0));
                }
            }
        }
        best.map(|(fit, _)| fit)
    }

    /// The [`SHORTLIST`] languages of `languages` that fit best the
    /// characters `rights` (each with its count) of a decode whose facts
    /// are `stats` taken alone, and the ASCII pairs of the words with
    /// characters beyond ASCII (and of the others if `whole`); all of them
    /// if they are no more. Best first, ties in the order of their
    /// positions.
    pub(super) fn shortlist(
        &mut self,
        stats: &TextStats,
        rights: &[(u32, u64)],
        languages: &[usize],
        with_ascii: bool,
        whole: bool,
    ) -> Vec<usize> {
        if languages.len() <= SHORTLIST {
            return languages.to_vec();
        }
        // The best so far, as (cost, position), sorted.
        let mut kept: Vec<(u64, usize)> = Vec::with_capacity(SHORTLIST + 1);
        for &index in languages {
            let mut cost = foreign_digits_cost(stats, &LANGUAGES[index]);
            if with_ascii {
                cost += self.ascii_cost(index, true).0;
                if whole {
                    cost += self.ascii_cost(index, false).0;
                }
            }
            // Beyond the last of a full shortlist's cost, a language is out.
            let bound = if kept.len() == SHORTLIST {
                kept[SHORTLIST - 1].0
            } else {
                u64::MAX
            };
            let language = &LANGUAGES[index];
            let mut out = cost > bound;
            // With a table of the symbols of the alphabets, a character's
            // symbol is read at once: most of those asked here are asked
            // once in the language, and remembering them would cost more.
            let direct = if out || rights.is_empty() {
                None
            } else {
                tables::symbol_table(index)
            };
            let chars = self.chars;
            let code_page_costs = &CODE_PAGE_UNIGRAMS[index];
            for &(id, n) in rights {
                if out {
                    break;
                }
                let alone = if let Some(&cost) = code_page_costs.get(id as usize) {
                    u64::from(cost)
                } else {
                    let info = chars.info(id);
                    let symbol = match direct {
                        Some(_) => symbol_of(language, direct, info),
                        None => self.symbol(index, id),
                    };
                    unigram_cost(language, info, symbol)
                };
                cost += alone * n;
                out = cost > bound;
            }
            if out {
                continue;
            }
            let at = kept.partition_point(|&kept| kept < (cost, index));
            if at < SHORTLIST {
                kept.insert(at, (cost, index));
                kept.truncate(SHORTLIST);
            }
        }
        kept.into_iter().map(|(_, index)| index).collect()
    }

    /// [`Scorer::pairs_cost`], remembered in `memo` for the languages
    /// weighed already: `None` when the cost reaches `limit` (then it is
    /// at least what is remembered).
    pub(super) fn high_cost(
        &mut self,
        candidate: &Ranked,
        index: usize,
        memo: &mut Vec<(usize, Result<Cost, u64>)>,
        limit: u64,
    ) -> Option<Cost> {
        let known = memo.iter().position(|(i, _)| *i == index);
        if let Some(at) = known {
            match memo[at].1 {
                Ok(cost) => return (cost.0 < limit).then_some(cost),
                Err(least) if least >= limit => return None,
                Err(_) => {}
            }
        }
        let cost = self.pairs_cost(index, candidate, limit);
        match known {
            Some(at) => memo[at].1 = cost,
            None => memo.push((index, cost)),
        }
        cost.ok().filter(|cost| cost.0 < limit)
    }

    /// [`Scorer::pairs_cost`] of a decode byte by byte (of `encoding`, which
    /// reads byte `b` as character `ids[b]`), with `costs` of the language.
    /// What does not depend on the language ([`BytePairs`]) is worked out
    /// once per decode; every term is a cost, so the sum reaches `limit`
    /// whatever order they are added in.
    fn byte_pairs_cost(
        &mut self,
        encoding: &'static Encoding,
        ids: &[u32; 256],
        costs: &PairCosts,
        digits: u64,
        limit: u64,
    ) -> Result<Cost, u64> {
        let known = self
            .byte_pairs
            .as_ref()
            .is_some_and(|pairs| pairs.encoding == encoding);
        if !known {
            self.byte_pairs = Some(BytePairs::new(
                encoding,
                ids,
                self.counts,
                self.chars,
                &self.pair_bytes,
            ));
        }
        let Some(pairs) = self.byte_pairs.take() else {
            return Err(limit);
        };
        let result = self.weigh_byte_pairs(&pairs, ids, costs, digits, limit);
        self.byte_pairs = Some(pairs);
        result
    }

    /// [`Scorer::byte_pairs_cost`] of `pairs`.
    fn weigh_byte_pairs(
        &mut self,
        pairs: &BytePairs,
        ids: &[u32; 256],
        costs: &PairCosts,
        digits: u64,
        limit: u64,
    ) -> Result<Cost, u64> {
        let index = costs.index;
        // What each byte of the pairs reads as, looked up once: its symbol.
        let mut symbols = [0u16; 256];
        for at in 0..self.pair_bytes.len() {
            let b = usize::from(self.pair_bytes[at]);
            symbols[b] = self.symbol(index, ids[b]);
        }
        let counts = self.counts;
        let (weighed, rights) = match &pairs.weighed {
            Some(weighed) => (weighed.pairs.as_slice(), weighed.rights.as_slice()),
            None => (counts.high_pairs.as_slice(), self.right_bytes.as_slice()),
        };
        // Each right-hand member's share of its class, for each time it is one.
        let mut cost = pairs.script_changes + digits;
        for &(b, n) in rights {
            let id = ids[usize::from(b)];
            cost += u64::from(costs.share(self.chars.info(id), symbols[usize::from(b)])) * n;
        }
        if cost >= limit {
            return Err(cost);
        }
        match costs.dense {
            Some(dense) => {
                // Each byte's row in the table of every pair, found once.
                let mut rows = [0usize; 256];
                for &b in &self.pair_bytes {
                    rows[usize::from(b)] = usize::from(symbols[usize::from(b)]) * costs.width;
                }
                for &(left, right, n) in weighed {
                    let at = rows[usize::from(left)] + usize::from(symbols[usize::from(right)]);
                    let pair = match dense.get(at) {
                        Some(&pair) => u32::from(pair),
                        None => costs
                            .symbol_pair(symbols[usize::from(left)], symbols[usize::from(right)]),
                    };
                    cost += u64::from(pair) * u64::from(n);
                    if cost >= limit {
                        return Err(cost);
                    }
                }
            }
            None => {
                for &(left, right, n) in weighed {
                    let pair =
                        costs.symbol_pair(symbols[usize::from(left)], symbols[usize::from(right)]);
                    cost += u64::from(pair) * u64::from(n);
                    if cost >= limit {
                        return Err(cost);
                    }
                }
            }
        }
        Ok((cost, pairs.chars))
    }

    /// The cost and count of `candidate`'s pairs beyond ASCII in language
    /// `index` (for ISO-2022-JP, all its pairs: those of ASCII characters
    /// in the language's model for ASCII); or, as soon as the cost reaches
    /// `limit`, what it has come to.
    pub(super) fn pairs_cost(
        &mut self,
        index: usize,
        candidate: &Ranked,
        limit: u64,
    ) -> Result<Cost, u64> {
        let costs = PairCosts::of(index);
        let digits = foreign_digits_cost(&candidate.stats, costs.language);
        if let Some(ids) = &candidate.byte_ids {
            return self.byte_pairs_cost(candidate.encoding, ids, &costs, digits, limit);
        }
        let mut cost = digits;
        let mut chars = 0u64;
        let ascii_costs = PairCosts::of(ascii_language(index));
        for &(left, right, n) in &candidate.stats.pairs {
            let model = if left < 0x80 && right < 0x80 {
                &ascii_costs
            } else {
                &costs
            };
            cost += u64::from(self.pair_cost(model, left, right)) * u64::from(n);
            chars += u64::from(n);
            // What scaling below adds only makes it more.
            if cost >= limit {
                return Err(cost);
            }
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
            return Ok((scale(cost), scale(chars)));
        }
        Ok((cost, chars))
    }
}

/// What the pairs beyond ASCII of a decode byte by byte come to whatever
/// the language they are weighed in: how many are weighed, what their
/// changes of script cost, and, when some are not weighed (those of two
/// word boundaries: a byte the decode has no character for beside
/// another, or a space), which are and how often each byte is a
/// right-hand member of them (which pays its share of its class, if it has
/// no symbol of its own in the language).
pub(super) struct BytePairs {
    /// The encoding whose decode they are.
    encoding: &'static Encoding,
    /// How many pairs are weighed, counted.
    chars: u64,
    /// What their changes of script cost.
    script_changes: u64,
    /// When some pairs are not weighed, those that are (left, right,
    /// count) and how often each byte is a right-hand member of them;
    /// otherwise all of them are, as the byte counts have them.
    weighed: Option<WeighedPairs>,
}

/// The pairs of a decode byte by byte that are weighed, when some are not.
struct WeighedPairs {
    /// The pairs.
    pairs: Vec<BytePair>,
    /// How often each byte is a right-hand member of them.
    rights: Vec<(u8, u64)>,
}

/// A pair of bytes and how often it occurs.
type BytePair = (u8, u8, u32);

impl BytePairs {
    fn new(
        encoding: &'static Encoding,
        ids: &[u32; 256],
        counts: &ByteCounts,
        chars: &Chars,
        pair_bytes: &[u8],
    ) -> Self {
        let mut scripts = [None; 256];
        for &b in pair_bytes {
            scripts[usize::from(b)] = chars.info(ids[usize::from(b)]).script;
        }
        let is_boundary = |b: u8| ids[usize::from(b)] == u32::from(b' ');
        let mut weighed = 0u64;
        let mut script_changes = 0u64;
        let mut all = true;
        for &(left, right, n) in &counts.high_pairs {
            if is_boundary(left) && is_boundary(right) {
                all = false;
                continue;
            }
            weighed += u64::from(n);
            let change = language::script_change_cost(
                scripts[usize::from(left)],
                scripts[usize::from(right)],
            );
            script_changes += u64::from(change) * u64::from(n);
        }
        let weighed_pairs = (!all).then(|| {
            let pairs: Vec<BytePair> = counts
                .high_pairs
                .iter()
                .copied()
                .filter(|&(left, right, _)| !(is_boundary(left) && is_boundary(right)))
                .collect();
            let mut rights = [0u64; 256];
            for &(_, right, n) in &pairs {
                rights[usize::from(right)] += u64::from(n);
            }
            let rights = (0..=255u8)
                .filter(|&b| rights[usize::from(b)] > 0)
                .map(|b| (b, rights[usize::from(b)]))
                .collect();
            WeighedPairs { pairs, rights }
        });
        Self {
            encoding,
            chars: weighed,
            script_changes,
            weighed: weighed_pairs,
        }
    }
}

/// The characters of `candidate`'s decode that are right-hand members of
/// its pairs beyond ASCII, with their counts: for the shortlist, which
/// sums a cost for each, so that a character may come more than once.
pub(super) fn right_chars(candidate: &Ranked, right_bytes: &[(u8, u64)]) -> Vec<(u32, u64)> {
    if let Some(ids) = &candidate.byte_ids {
        // A character for each byte: few repeat.
        return right_bytes
            .iter()
            .map(|&(b, n)| (ids[usize::from(b)], n))
            .collect();
    }
    let mut counts: Vec<(u32, u64)> = candidate
        .stats
        .pairs
        .iter()
        .map(|&(_, right, n)| (right, u64::from(n)))
        .collect();
    counts.sort_unstable();
    counts.dedup_by(|later, earlier| {
        if later.0 == earlier.0 {
            earlier.1 += later.1;
            true
        } else {
            false
        }
    });
    counts.sort_by_key(|&(id, n)| (std::cmp::Reverse(n), id));
    counts
}

/// The costs of a language's symbol pairs.
pub(super) struct PairCosts {
    pub(super) index: usize,
    language: &'static Language,
    /// [`Language::symbol_pair_cost`] of every pair of symbols, row by
    /// left-hand symbol, when the language has few enough symbols
    /// ([`tables::pair_table`]).
    dense: Option<&'static [u16]>,
    /// How many symbols (and classes) the language has: a row's length.
    width: usize,
}

impl PairCosts {
    /// The costs of language `index`'s pairs.
    fn of(index: usize) -> Self {
        let language = &LANGUAGES[index];
        Self {
            index,
            language,
            dense: tables::pair_table(index),
            width: language.unigram.len(),
        }
    }

    /// [`Language::symbol_pair_cost`] of symbols `ls` and `rs`.
    #[inline]
    pub(super) fn symbol_pair(&self, ls: u16, rs: u16) -> u32 {
        let (ls, rs) = (usize::from(ls), usize::from(rs));
        match self.dense.and_then(|dense| dense.get(ls * self.width + rs)) {
            Some(&cost) => u32::from(cost),
            None => self.language.symbol_pair_cost(ls, rs),
        }
    }

    /// The cost of `right` (symbol `rs`) after `left` (symbol `ls`), a
    /// class member's share of its class and a change of script included.
    #[inline]
    pub(super) fn cost(&self, left: &CharInfo, ls: u16, right: &CharInfo, rs: u16) -> u32 {
        self.symbol_pair(ls, rs)
            + self.share(right, rs)
            + language::script_change_cost(left.script, right.script)
    }

    /// A class member's share of its class, for a character of symbol
    /// `symbol`: nothing for a symbol of its own.
    #[inline]
    fn share(&self, info: &CharInfo, symbol: u16) -> u32 {
        if usize::from(symbol) >= self.language.symbols.len() {
            u32::from(info.share)
        } else {
            0
        }
    }
}

/// The symbol of the character `info` in `language`, whose table of the
/// symbols of the alphabets ([`tables::symbol_table`]) is `direct`, if it
/// has one. (A `const fn`, for [`CODE_PAGE_SYMBOLS`].)
#[inline]
const fn symbol_of(language: &Language, direct: Option<&[u8]>, info: &CharInfo) -> u16 {
    let folded = info.folded as usize;
    if let Some(direct) = direct
        && folded < direct.len()
    {
        return match direct[folded] {
            NO_SYMBOL => info.class_symbol(language),
            symbol => symbol as u16,
        };
    }
    // Beyond the last symbol (an ideograph in a language of an alphabet),
    // no symbol of its own.
    match language.symbols.last() {
        Some(&last) if folded as u32 > last => info.class_symbol(language),
        _ => info.symbol(language),
    }
}

/// The cost of a character alone (its symbol's, and its share of a class)
/// in `language`, in units of 1/`COST_SCALE` nat. (A `const fn`, for
/// [`CODE_PAGE_UNIGRAMS`].)
pub(super) const fn unigram_cost(language: &Language, info: &CharInfo, symbol: u16) -> u64 {
    let share = if symbol as usize >= language.symbols.len() {
        info.share as u64
    } else {
        0
    };
    language.unigram[symbol as usize] as u64 + share
}

/// [`symbol_of`] each character of the code pages (by its index in
/// [`Chars`](super::text::Chars)) in each language, worked out when the
/// program is compiled: the pairs of a code page's reading are weighed in
/// several languages, each needing the symbol of every byte of them.
static CODE_PAGE_SYMBOLS: [[u16; CODE_PAGE_CHARS]; LANGUAGES.len()] = {
    let mut symbols = [[0; CODE_PAGE_CHARS]; LANGUAGES.len()];
    let mut index = 0;
    while index < LANGUAGES.len() {
        let direct = tables::symbol_table(index);
        let mut at = 0;
        while at < CODE_PAGE_CHARS {
            symbols[index][at] = symbol_of(&LANGUAGES[index], direct, &code_page_chars::CHARS[at]);
            at += 1;
        }
        index += 1;
    }
    symbols
};

/// [`unigram_cost`] of each character of the code pages (by its index in
/// [`Chars`](super::text::Chars), its position in
/// [`code_page_chars::CHARS`]) in each language, worked out when the
/// program is compiled: the shortlist weighs every code page's reading of
/// the evidence in every language the code page serves, tens of thousands
/// of characters a detection, each a load here.
static CODE_PAGE_UNIGRAMS: [[u16; CODE_PAGE_CHARS]; LANGUAGES.len()] = {
    let mut costs = [[0; CODE_PAGE_CHARS]; LANGUAGES.len()];
    let mut index = 0;
    while index < LANGUAGES.len() {
        let language = &LANGUAGES[index];
        let mut at = 0;
        while at < CODE_PAGE_CHARS {
            let info = &code_page_chars::CHARS[at];
            let cost = unigram_cost(language, info, CODE_PAGE_SYMBOLS[index][at]);
            assert!(cost <= u16::MAX as u64, "a cost fits");
            costs[index][at] = cost as u16;
            at += 1;
        }
        index += 1;
    }
    costs
};

/// What the digits of scripts other than `language`'s cost in a decode
/// whose facts are `stats`, in units of 1/`COST_SCALE` nat: each as much as
/// a change of script. Digits fold to a word boundary, as ASCII digits do,
/// so nothing else prices them: a Thai digit read inside English text
/// ("H\u{E58}yre" of Norwegian "Høyre" in windows-874) cost less than the
/// letter "o".
pub(super) fn foreign_digits_cost(stats: &TextStats, language: &Language) -> u64 {
    let foreign = stats.all_script_digits - stats.script_digits[language.script as usize];
    foreign * u64::from(language::SCRIPT_CHANGE_COST)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::text;
    use crate::encoding::{KOI8_R, UTF_8, WINDOWS_1252};

    /// The cost of the pairs beyond ASCII of a decode byte by byte, pair by
    /// pair as the language model prices each.
    impl PairCosts {
        /// The costs of language `index`'s pairs read from its rows alone.
        fn without_table(index: usize) -> Self {
            Self {
                dense: None,
                ..Self::of(index)
            }
        }
    }

    #[test]
    fn code_page_unigrams_are_what_each_language_reads_alone() {
        let chars = text::Chars::new();
        for (index, language) in LANGUAGES.iter().enumerate() {
            let direct = tables::symbol_table(index);
            for (id, &cost) in CODE_PAGE_UNIGRAMS[index].iter().enumerate() {
                let info = chars.info(u32::try_from(id).expect("a thousand characters"));
                // The symbol as the general search finds it, then read
                // through the table of the alphabets.
                let searched = match language.symbols.binary_search(&u32::from(info.folded)) {
                    Ok(position) => position as u16,
                    Err(_) => info.class_symbol(language),
                };
                let symbol = symbol_of(language, direct, info);
                assert_eq!(symbol, searched, "{} {:?}", language.tag, info.c);
                assert_eq!(CODE_PAGE_SYMBOLS[index][id], symbol);
                assert_eq!(
                    u64::from(cost),
                    unigram_cost(language, info, symbol),
                    "{} {:?}",
                    language.tag,
                    info.c
                );
            }
        }
    }

    fn pair_by_pair(scorer: &mut Scorer<'_>, ids: &[u32; 256], index: usize) -> Cost {
        let costs = PairCosts::without_table(index);
        let (mut cost, mut chars) = (0u64, 0u64);
        for &(left, right, n) in &scorer.counts.high_pairs {
            let (left, right) = (ids[usize::from(left)], ids[usize::from(right)]);
            if left == u32::from(b' ') && right == u32::from(b' ') {
                continue;
            }
            cost += u64::from(scorer.pair_cost(&costs, left, right)) * u64::from(n);
            chars += u64::from(n);
        }
        (cost, chars)
    }

    #[test]
    fn digits_of_another_script_cost_a_change_of_script() {
        // Every digit folds to a word boundary; each Thai or Arabic-Indic
        // digit costs a change of script, but in a language of its script.
        let text = "H\u{E58}yre \u{E51}\u{E52} \u{668} 8";
        let mut chars = Chars::new();
        let whole = 0..text.len();
        let stats = text::decode_stats(
            UTF_8,
            text.as_bytes(),
            std::slice::from_ref(&whole),
            &mut chars,
        );
        for language in &LANGUAGES {
            let digits = match language.script {
                Script::Thai => 1,
                Script::Arabic => 3,
                _ => 4,
            };
            assert_eq!(
                foreign_digits_cost(&stats, language),
                digits * u64::from(language::SCRIPT_CHANGE_COST),
                "{}",
                language.tag
            );
        }
    }

    /// The shared ASCII pairs change no script: their characters are
    /// Latin letters or no letters.
    #[test]
    fn ascii_pairs_change_no_script() {
        let chars = Chars::new();
        let script = |c: u8| chars.info(u32::from(c)).script;
        for left in 0..0x80u8 {
            for right in 0..0x80u8 {
                assert_eq!(language::script_change_cost(script(left), script(right)), 0);
            }
        }
    }

    /// The shared ASCII pairs cost what they cost pair by pair, in every
    /// language, with its table of every pair or without (as the languages
    /// without one sum them).
    #[test]
    fn ascii_pairs_cost_what_each_pair_costs() {
        let bytes = b"The quick brown fox jumps over the lazy dog; Gr\xFC\xDFe aus K\xF6ln, na\xEFve caf\xE9.\n";
        let whole = 0..bytes.len();
        let counts = ByteCounts::new(bytes, std::slice::from_ref(&whole));
        let chars = Chars::new();
        for (index, language) in LANGUAGES.iter().enumerate() {
            for words in [false, true] {
                let pairs = if words {
                    &counts.word_pairs
                } else {
                    &counts.ascii_pairs
                };
                assert!(!pairs.is_empty());
                let mut scorer = Scorer::new(&counts, &chars, 1.0);
                let costs = PairCosts::without_table(index);
                let mut expected = (0u64, 0u64);
                for &(left, right, n) in pairs {
                    let pair = scorer.pair_cost(&costs, u32::from(left), u32::from(right));
                    expected.0 += u64::from(pair) * u64::from(n);
                    expected.1 += u64::from(n);
                }
                assert_eq!(
                    scorer.sum_ascii_pairs(&PairCosts::of(index), words),
                    expected,
                    "{}",
                    language.tag
                );
                assert_eq!(
                    scorer.sum_ascii_pairs(&PairCosts::without_table(index), words),
                    expected,
                    "{}",
                    language.tag
                );
            }
        }
    }

    /// The pairs of a decode byte by byte cost what they cost pair by
    /// pair, in every language, with the pairs of two word boundaries (a
    /// byte the decode has no character for beside a space) left out, and
    /// the sum stops at the limit.
    #[test]
    fn byte_pairs_cost_what_each_pair_costs() {
        // 0x81 and 0x8D have no character in windows-1252.
        let bytes =
            b"Gr\xFC\xDFe \x81 aus K\xF6ln \x8D\x81, na\xEFve caf\xE9; \xC0 \xE0 \x9C\x9Cur\n";
        let whole = 0..bytes.len();
        let counts = ByteCounts::new(bytes, std::slice::from_ref(&whole));
        let chars = Chars::new();
        for encoding in [WINDOWS_1252, KOI8_R] {
            let decoding = text::byte_decoding(encoding).expect("a code page");
            let ids = decoding.ids_of(&counts.present);
            let chars = &chars;
            let mut scorer = Scorer::new(&counts, chars, 1.0);
            for (index, language) in LANGUAGES.iter().enumerate() {
                let expected = pair_by_pair(&mut scorer, &ids, index);
                for costs in [PairCosts::of(index), PairCosts::without_table(index)] {
                    let cost = scorer.byte_pairs_cost(encoding, &ids, &costs, 0, u64::MAX);
                    assert_eq!(cost, Ok(expected), "{encoding} in {}", language.tag);
                    let limit = expected.0 / 2;
                    let stopped = scorer.byte_pairs_cost(encoding, &ids, &costs, 0, limit);
                    assert!(stopped.is_err_and(|cost| cost >= limit), "{encoding}");
                }
            }
        }
    }
}
