//! Which languages write which letters: a word whose letters no one
//! language uses together (`ïðèâåò`, `РњРѕСЃ`) is likely mojibake.
//!
//! Each non-ASCII Latin or Cyrillic letter maps to the set of languages (or
//! groups of close languages) whose alphabets have it; a word's letters must
//! share at least one. The sets are broad on purpose: a missed signal costs
//! little, a wrong one would flag correct text.

/// A set of languages, one bit each.
pub(crate) type Languages = u32;

/// Every language: the set of a letter this table does not know.
pub(crate) const ANY: Languages = u32::MAX;

// Latin-script languages and groups.
const FR: u32 = 1 << 0;
const DE: u32 = 1 << 1;
const ES: u32 = 1 << 2;
const PT: u32 = 1 << 3;
const IT: u32 = 1 << 4;
const CA: u32 = 1 << 5;
const NL: u32 = 1 << 6;
/// Swedish and Finnish.
const SV: u32 = 1 << 7;
/// Danish and Norwegian.
const DA: u32 = 1 << 8;
/// Icelandic and Faroese.
const IS: u32 = 1 << 9;
const PL: u32 = 1 << 10;
/// Czech and Slovak.
const CS: u32 = 1 << 11;
const HU: u32 = 1 << 12;
const RO: u32 = 1 << 13;
/// Croatian, Slovenian, Bosnian, Serbian in Latin.
const HR: u32 = 1 << 14;
/// Turkish and Azerbaijani.
const TR: u32 = 1 << 15;
const LT: u32 = 1 << 16;
const LV: u32 = 1 << 17;
const ET: u32 = 1 << 18;
const MT: u32 = 1 << 19;
const VI: u32 = 1 << 20;
const EO: u32 = 1 << 21;
const SQ: u32 = 1 << 22;
/// Irish and Scottish Gaelic.
const GAELIC: u32 = 1 << 23;
/// Hanyu Pinyin.
const PINYIN: u32 = 1 << 24;
const KU: u32 = 1 << 25;
const AF: u32 = 1 << 26;
/// Less common letters of other languages written in Latin letters (Sámi,
/// Sorbian, many African and American languages); Galician, Basque and
/// Guarani count as Spanish here, Occitan as Catalan.
const OTHER: u32 = 1 << 27;
const WELSH: u32 = 1 << 28;
const BRETON: u32 = 1 << 29;
/// Letters no modern orthography uses (the long s of old prints).
const HISTORIC: u32 = 1 << 30;

/// The languages that write the Latin letter `c` (lowercase or not).
#[expect(
    clippy::match_same_arms,
    reason = "one arm per letter reads as a table of alphabets"
)]
pub(crate) fn latin(c: char) -> Languages {
    let lower = c.to_lowercase().next().unwrap_or(c);
    match lower {
        'à' => FR | PT | IT | CA | VI | MT | GAELIC | NL,
        'á' => ES | PT | IT | CS | HU | IS | VI | GAELIC | PINYIN | AF | NL | OTHER,
        'â' => FR | PT | RO | TR | VI | WELSH | BRETON | AF | KU,
        'ã' => PT | VI | ES,
        'ä' => DE | SV | ET | CS | WELSH,
        'å' => SV | DA | OTHER,
        'æ' => DA | IS | FR,
        'ç' => FR | PT | CA | TR | SQ | KU,
        'è' => FR | IT | CA | VI | MT | AF | NL | GAELIC | BRETON,
        'é' => {
            FR | ES
                | PT
                | IT
                | CA
                | NL
                | SV
                | DA
                | IS
                | CS
                | HU
                | VI
                | GAELIC
                | BRETON
                | PINYIN
                | AF
                | OTHER
        }
        'ê' => FR | PT | VI | AF | KU | WELSH | BRETON,
        'ë' => FR | NL | SQ | AF | WELSH | DE,
        'ì' => IT | VI | MT | GAELIC | PINYIN,
        'í' => ES | PT | IT | CA | IS | CS | HU | VI | GAELIC | PINYIN | OTHER,
        'î' => FR | RO | TR | KU | AF | WELSH | BRETON,
        'ï' => FR | CA | NL | AF | WELSH,
        'ð' => IS,
        'ñ' => ES | BRETON,
        'ò' => IT | CA | VI | MT | GAELIC | PINYIN,
        'ó' => ES | PT | IT | CA | NL | IS | PL | CS | HU | VI | GAELIC | PINYIN | OTHER,
        'ô' => FR | PT | CS | VI | AF | WELSH | BRETON,
        'õ' => PT | ET | VI | ES,
        'ö' => DE | SV | IS | HU | TR | ET | WELSH,
        'ø' => DA | IS | OTHER,
        'ù' => FR | IT | VI | MT | GAELIC | BRETON | PINYIN,
        'ú' => ES | PT | IT | CA | IS | CS | HU | VI | GAELIC | PINYIN | OTHER,
        'û' => FR | TR | KU | AF | WELSH | BRETON,
        'ü' => DE | ES | PT | CA | FR | HU | TR | ET | PINYIN | WELSH | BRETON,
        'ý' => IS | CS | VI | OTHER,
        'þ' => IS,
        'ÿ' => FR | NL,
        'ß' => DE,
        'ā' | 'ē' | 'ī' | 'ō' => LV | PINYIN | OTHER,
        'ă' => RO | VI,
        'ą' | 'ę' => PL | LT | OTHER,
        'ć' => PL | HR | OTHER,
        'ĉ' | 'ĝ' | 'ĥ' | 'ĵ' | 'ŝ' | 'ŭ' => EO,
        'č' => CS | HR | LT | LV | OTHER,
        'ď' | 'ň' | 'ť' | 'ů' | 'ĺ' | 'ľ' | 'ŕ' => CS,
        'ř' => CS | OTHER,
        'đ' => HR | VI | OTHER,
        'ė' | 'į' => LT,
        'ě' => CS | PINYIN | OTHER,
        'ğ' | 'ı' => TR,
        'ģ' | 'ķ' | 'ļ' | 'ņ' => LV,
        'ħ' | 'ċ' | 'ġ' => MT,
        'ł' | 'ń' | 'ź' => PL | OTHER,
        'ő' | 'ű' => HU,
        'œ' => FR,
        'ś' => PL | OTHER,
        'ş' => TR | RO | KU,
        'š' => CS | HR | LT | LV | ET | SV | OTHER,
        'ţ' | 'ș' | 'ț' => RO,
        'ū' => LT | LV | PINYIN | OTHER,
        'ŵ' | 'ŷ' => WELSH,
        'ż' => PL | MT,
        'ž' => CS | HR | LT | LV | ET | SV | OTHER,
        'ơ' | 'ư' => VI,
        'ǎ' | 'ǐ' | 'ǒ' | 'ǔ' | 'ǖ' | 'ǘ' | 'ǚ' | 'ǜ' => PINYIN,
        'ə' => TR | OTHER,
        'ſ' => HISTORIC,
        '\u{1EA0}'..='\u{1EF9}' => VI,
        _ => ANY,
    }
}

// Cyrillic-script languages.
const RU: u32 = 1 << 0;
const UK: u32 = 1 << 1;
const BE: u32 = 1 << 2;
const BG: u32 = 1 << 3;
const SR: u32 = 1 << 4;
const MK: u32 = 1 << 5;
/// Kazakh, Kyrgyz, Tatar, Bashkir, Mongolian, Tajik and others.
const CYRILLIC_OTHER: u32 = 1 << 6;

/// The languages that write the Cyrillic letter `c` (lowercase or not).
pub(crate) fn cyrillic(c: char) -> Languages {
    let lower = c.to_lowercase().next().unwrap_or(c);
    match lower {
        'ё' | 'ы' | 'э' => RU | BE | CYRILLIC_OTHER,
        'ъ' => RU | BG | CYRILLIC_OTHER,
        'щ' => RU | UK | BG | CYRILLIC_OTHER,
        'и' => RU | UK | BG | SR | MK | CYRILLIC_OTHER,
        'й' => RU | UK | BE | BG | CYRILLIC_OTHER,
        'є' | 'ї' | 'ґ' => UK,
        'і' => UK | BE | CYRILLIC_OTHER,
        'ў' => BE | CYRILLIC_OTHER,
        'ђ' | 'ћ' => SR,
        'ј' | 'љ' | 'њ' | 'џ' => SR | MK,
        'ѓ' | 'ѕ' | 'ќ' => MK,
        '\u{0400}'..='\u{045F}' => ANY,
        _ => CYRILLIC_OTHER,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared(word: &str, languages: fn(char) -> Languages) -> Languages {
        word.chars()
            .filter(|c| !c.is_ascii())
            .fold(ANY, |set, c| set & languages(c))
    }

    #[test]
    fn real_words_share_a_language() {
        for word in [
            "été",
            "CRÉÉ",
            "façade",
            "naïve",
            "Ångström",
            "AÇÃO",
            "Dvořák",
            "Łódź",
            "Erdős",
            "pārbaude",
            "šalčiausia",
            "Việt",
            "ÞÓRÐUR",
            "Øresund",
            "straße",
        ] {
            assert_ne!(shared(word, latin), 0, "{word}");
        }
        for word in ["Москва", "їжак", "беларуская", "љубав", "ѕвезда", "подъезд"]
        {
            assert_ne!(shared(word, cyrillic), 0, "{word}");
        }
    }

    #[test]
    fn mojibake_mixes_alphabets() {
        for word in ["ïðèâåò", "ÖÐÎÄ", "Ìîñêâà"] {
            assert_eq!(shared(word, latin), 0, "{word}");
        }
        for word in ["РњРѕСЃРєРІР°", "РїСЂРёРІРµС‚"] {
            assert_eq!(shared(word, cyrillic), 0, "{word}");
        }
    }
}
