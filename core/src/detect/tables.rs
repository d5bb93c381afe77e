//! Tables laid out from the language statistics when the program is
//! compiled: each language's cost of every pair of its symbols as one
//! table, and the symbol of each character of its alphabets. Detection
//! reads them at once where the statistics' rows would be searched, and no
//! process spends time building them (a detection of a few KiB weighs
//! pairs in dozens of languages).
//!
//! They hold what [`Language::symbol_pair_cost`] and [`Language::symbol`]
//! give, laid out; the tests check every entry against those.

use mojiscope_indexes::language::{LANGUAGES, Language};

/// Languages with at most this many symbols (and classes) have tables:
/// every language but Chinese, Japanese and Korean, whose thousands of
/// symbol pairs are mostly backed off and whose rows are short.
pub(super) const DENSE_WIDTH: usize = 128;

/// The characters below this code point have their symbol in a table in
/// the languages with tables: ASCII and the alphabets.
pub(super) const DIRECT_LIMIT: usize = 0x800;

/// In a table of symbols, a character that has no symbol of its own.
pub(super) const NO_SYMBOL: u8 = u8::MAX;

/// Whether `language` has tables.
const fn has_tables(language: &Language) -> bool {
    language.unigram.len() <= DENSE_WIDTH
}

/// How many entries the table of every pair of `language`'s symbols holds.
const fn pair_table_len(language: &Language) -> usize {
    if has_tables(language) {
        language.backoff.len() * language.unigram.len()
    } else {
        0
    }
}

/// Where each language's table of every pair starts in [`PAIR_TABLES`]
/// (one entry more ends the last).
const PAIR_TABLE_STARTS: [usize; LANGUAGES.len() + 1] = {
    let mut starts = [0; LANGUAGES.len() + 1];
    let mut index = 0;
    while index < LANGUAGES.len() {
        starts[index + 1] = starts[index] + pair_table_len(&LANGUAGES[index]);
        index += 1;
    }
    starts
};

/// How many entries all the tables of every pair hold.
const PAIR_TABLES_LEN: usize = PAIR_TABLE_STARTS[LANGUAGES.len()];

/// Each language's cost of every pair of its symbols, row by left-hand
/// symbol: the cost of backing off from the left-hand symbol plus the
/// right-hand symbol's alone, or the pair's own cost where it has one.
static PAIR_TABLES: [u16; PAIR_TABLES_LEN] = {
    let mut tables = [0u16; PAIR_TABLES_LEN];
    let mut at = 0;
    let mut index = 0;
    while index < LANGUAGES.len() {
        let language = &LANGUAGES[index];
        if has_tables(language) {
            let width = language.unigram.len();
            let mut left = 0;
            while left < language.backoff.len() {
                let backoff = language.backoff[left] as u16;
                let mut right = 0;
                while right < width {
                    tables[at + left * width + right] = backoff + language.unigram[right] as u16;
                    right += 1;
                }
                let mut pair = language.pair_rows[left] as usize;
                while pair < language.pair_rows[left + 1] as usize {
                    let right = language.pairs[pair] as usize;
                    tables[at + left * width + right] = language.pair_costs[pair] as u16;
                    pair += 1;
                }
                left += 1;
            }
            at += pair_table_len(language);
        }
        index += 1;
    }
    tables
};

/// How many languages have tables.
const WITH_TABLES: usize = {
    let mut count = 0;
    let mut index = 0;
    while index < LANGUAGES.len() {
        if has_tables(&LANGUAGES[index]) {
            count += 1;
        }
        index += 1;
    }
    count
};

/// The symbol of each folded character below [`DIRECT_LIMIT`], in each
/// language with tables one after the other ([`NO_SYMBOL`] for those that
/// have none).
static SYMBOL_TABLES: [u8; DIRECT_LIMIT * WITH_TABLES] = {
    let mut tables = [NO_SYMBOL; DIRECT_LIMIT * WITH_TABLES];
    let mut at = 0;
    let mut index = 0;
    while index < LANGUAGES.len() {
        let language = &LANGUAGES[index];
        if has_tables(language) {
            let mut position = 0;
            while position < language.symbols.len() && position < NO_SYMBOL as usize {
                let symbol = language.symbols[position] as usize;
                if symbol < DIRECT_LIMIT {
                    tables[at + symbol] = position as u8;
                }
                position += 1;
            }
            at += DIRECT_LIMIT;
        }
        index += 1;
    }
    tables
};

/// Where each language's table of symbols starts in [`SYMBOL_TABLES`], if
/// it has one.
static SYMBOL_TABLE_STARTS: [Option<usize>; LANGUAGES.len()] = {
    let mut starts = [None; LANGUAGES.len()];
    let mut at = 0;
    let mut index = 0;
    while index < LANGUAGES.len() {
        if has_tables(&LANGUAGES[index]) {
            starts[index] = Some(at);
            at += DIRECT_LIMIT;
        }
        index += 1;
    }
    starts
};

/// [`Language::symbol_pair_cost`] of every pair of language `index`'s
/// symbols, row by left-hand symbol, if it has tables.
pub(super) fn pair_table(index: usize) -> Option<&'static [u16]> {
    let (&start, &end) = (
        PAIR_TABLE_STARTS.get(index)?,
        PAIR_TABLE_STARTS.get(index + 1)?,
    );
    (start < end).then(|| PAIR_TABLES.get(start..end)).flatten()
}

/// The symbol of each folded character below [`DIRECT_LIMIT`] in language
/// `index` ([`NO_SYMBOL`] for those that have none), if it has tables. (A
/// `const fn`, for the tables of the code pages' characters.)
pub(super) const fn symbol_table(index: usize) -> Option<&'static [u8]> {
    match SYMBOL_TABLE_STARTS[index] {
        Some(start) => Some(SYMBOL_TABLES.split_at(start).1.split_at(DIRECT_LIMIT).0),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_tables_hold_every_pair_cost() {
        let mut with_tables = 0;
        for (index, language) in LANGUAGES.iter().enumerate() {
            let width = language.unigram.len();
            let Some(table) = pair_table(index) else {
                assert!(width > DENSE_WIDTH, "{}", language.tag);
                continue;
            };
            with_tables += 1;
            assert_eq!(table.len(), width * width, "{}", language.tag);
            for left in 0..width {
                for right in 0..width {
                    assert_eq!(
                        u32::from(table[left * width + right]),
                        language.symbol_pair_cost(left, right),
                        "{} {left} {right}",
                        language.tag
                    );
                }
            }
        }
        // Every language written in an alphabet has them.
        assert!(with_tables >= LANGUAGES.len() - 4, "{with_tables}");
    }

    #[test]
    fn symbol_tables_give_each_characters_symbol() {
        for (index, language) in LANGUAGES.iter().enumerate() {
            let Some(table) = symbol_table(index) else {
                assert!(pair_table(index).is_none(), "{}", language.tag);
                continue;
            };
            for (code, &symbol) in table.iter().enumerate() {
                let Some(c) = u32::try_from(code).ok().and_then(char::from_u32) else {
                    continue;
                };
                let position = language.symbols.binary_search(&u32::from(c)).ok();
                assert_eq!(
                    (symbol != NO_SYMBOL).then_some(usize::from(symbol)),
                    position,
                    "{} U+{code:04X}",
                    language.tag
                );
            }
        }
    }
}
