//! How common a CJK character is in each of the four written languages,
//! read off the character sets of the standard's own indexes.
//!
//! The national character sets were built by frequency: GB 2312 puts its
//! 3755 most used hanzi in level 1, Big5 its 5401 most used in level 1, JIS
//! X 0208 its 2965 most used kanji in level 1, and KS X 1001 the 2350 most
//! used Hangul syllables before the rest of the 11172. Where a character sits
//! in those sets is a language model of sorts, and needs no data beyond the
//! indexes the engine already has.

use std::sync::OnceLock;

use mojiscope_indexes::{big5, euc_kr, gb18030, jis0208};

/// How common a character is in one language's character set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Tier {
    /// In the set's first (most frequent) level.
    Common,
    /// In the set, past its first level.
    Rare,
    /// Only in the set's extensions (vendor or supplementary characters).
    Extension,
    /// Not in the set.
    Absent,
}

/// The tier of a Han character in GB 2312 (simplified Chinese, via GBK).
pub(crate) fn gb2312(c: char) -> Tier {
    let Some(pointer) = gb18030::pointer(c) else {
        return Tier::Absent;
    };
    let lead = pointer / 190 + 0x81;
    let offset = pointer % 190;
    let trail = offset + if offset < 0x3F { 0x40 } else { 0x41 };
    match (lead, trail) {
        (0xB0..=0xD7, 0xA1..=0xFE) => Tier::Common,
        (0xD8..=0xF7, 0xA1..=0xFE) => Tier::Rare,
        _ => Tier::Extension,
    }
}

/// The tier of a Han character in Big5 (traditional Chinese). Big5's first
/// level is not ordered by frequency and holds 5401 characters, some rare;
/// a character counts as common only if another national set's first level
/// (or KS X 1001's hanja) also has it.
pub(crate) fn big5(c: char) -> Tier {
    match big5_level(c) {
        Tier::Common
            if jis0208(c) != Tier::Common
                && gb2312(c) != Tier::Common
                && ks_x_1001(c) != Tier::Common =>
        {
            Tier::Rare
        }
        tier => tier,
    }
}

fn big5_level(c: char) -> Tier {
    let Some(pointer) = big5::big5_pointer(c) else {
        return Tier::Absent;
    };
    let lead = pointer / 157 + 0x81;
    let offset = pointer % 157;
    let trail = offset + if offset < 0x3F { 0x40 } else { 0x62 };
    let code = (lead << 8) | trail;
    match code {
        0xA440..=0xC67E => Tier::Common,
        0xC940..=0xF9D5 => Tier::Rare,
        _ => Tier::Extension,
    }
}

/// The tier of a Han character in JIS X 0208 (Japanese).
pub(crate) fn jis0208(c: char) -> Tier {
    let Some(pointer) = jis0208::pointer(c) else {
        return Tier::Absent;
    };
    // Rows 16 to 47 (counted from 1) are level 1, 48 to 84 level 2; the rest
    // are the NEC and IBM extensions.
    match pointer / 94 + 1 {
        16..=47 => Tier::Common,
        48..=84 => Tier::Rare,
        _ => Tier::Extension,
    }
}

/// The tier of a character in KS X 1001 (Korean): a Hangul syllable or a
/// hanja.
pub(crate) fn ks_x_1001(c: char) -> Tier {
    let Some(pointer) = euc_kr::pointer(c) else {
        return Tier::Absent;
    };
    let lead = pointer / 190 + 0x81;
    let trail = pointer % 190 + 0x41;
    match (lead, trail) {
        // The 2350 Hangul syllables and the 4888 hanja of KS X 1001.
        (0xB0..=0xC8 | 0xCA..=0xFD, 0xA1..=0xFE) => Tier::Common,
        (0xA1..=0xFE, 0xA1..=0xFE) => Tier::Rare,
        // The Unified Hangul Code's other 8822 syllables.
        _ => Tier::Extension,
    }
}

/// How common a Han character is in each national character set, in the
/// order Japanese (JIS X 0208), simplified Chinese (GB 2312), traditional
/// Chinese (Big5) and Korean (KS X 1001).
pub(crate) fn han_tiers(c: char) -> [Tier; 4] {
    // The unified ideographs, which almost all Han text is made of, from a
    // table worked out once (each tier otherwise takes a lookup or four).
    const FIRST: u32 = 0x4E00;
    const LAST: u32 = 0x9FFF;
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    let code = u32::from(c);
    if !(FIRST..=LAST).contains(&code) {
        return compute_han_tiers(c);
    }
    let table = TABLE.get_or_init(|| {
        (FIRST..=LAST)
            .map(|code| {
                let tiers = char::from_u32(code).map_or([Tier::Absent; 4], compute_han_tiers);
                tiers.iter().enumerate().fold(0, |packed, (place, &tier)| {
                    packed | (tier as u8) << (2 * place)
                })
            })
            .collect()
    });
    let packed = table[(code - FIRST) as usize];
    std::array::from_fn(|place| match packed >> (2 * place) & 3 {
        0 => Tier::Common,
        1 => Tier::Rare,
        2 => Tier::Extension,
        _ => Tier::Absent,
    })
}

fn compute_han_tiers(c: char) -> [Tier; 4] {
    [jis0208(c), gb2312(c), big5(c), ks_x_1001(c)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_han_table_says_what_the_lookups_say() {
        for c in ('\u{4DFF}'..='\u{A000}').chain(['中', '日', '語', '한', 'a']) {
            assert_eq!(han_tiers(c), compute_han_tiers(c), "{c}");
        }
    }

    #[test]
    fn levels_follow_the_character_sets() {
        assert_eq!(gb2312('的'), Tier::Common);
        assert_eq!(gb2312('亍'), Tier::Rare);
        assert_eq!(gb2312('丂'), Tier::Extension);
        assert_eq!(gb2312('𠀀'), Tier::Absent);
        assert_eq!(big5('中'), Tier::Common);
        assert_eq!(big5('乂'), Tier::Rare);
        assert_eq!(jis0208('日'), Tier::Common);
        assert_eq!(jis0208('乂'), Tier::Rare);
        assert_eq!(jis0208('们'), Tier::Absent);
        assert_eq!(ks_x_1001('한'), Tier::Common);
        assert_eq!(ks_x_1001('똠'), Tier::Extension);
        assert_eq!(ks_x_1001('中'), Tier::Common);
    }
}
