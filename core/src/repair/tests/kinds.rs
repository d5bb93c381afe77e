//! Kinds of damage found by comparing the repair with another fixer on real
//! correct text garbled the ways software garbles it
//! (`tools/repair-diff-ftfy.py`): one test per kind, on text of our own.

use super::{assert_unchanged, repair, repaired};

#[test]
fn a_c1_control_between_digits_or_after_a_symbol_is_its_byte() {
    // windows-1252 text read as ISO-8859-1: 0x96 is "–", 0x80 "€", 0x93
    // and 0x94 "“" and "”". A C1 control is no symbol a text means, so
    // one alone in its line is repaired like one in a word.
    for (text, expected) in [
        (
            "Open daily (9\u{96}17), closed on Mondays",
            "Open daily (9–17), closed on Mondays",
        ),
        (
            "Tickets cost \u{80}12 at the door",
            "Tickets cost €12 at the door",
        ),
        ("The 1914\u{96}1918 war", "The 1914–1918 war"),
        ("\u{93}Yes,\u{94} she said", "“Yes,” she said"),
    ] {
        assert_eq!(repaired(text), expected, "{text:?}");
    }
    // Symbols that are meant stay.
    assert_unchanged("5×£35, ±3 °C, 1914–1918");
}

#[test]
fn a_word_with_right_letters_and_misread_ones_is_finished() {
    // Earlier software (or a person) got some letters right in a word
    // whose other letters were misread: "ž", "ř" and "č" are in no UTF-8
    // sequence ("ž" is windows-1252's 0x9E, a continuation byte; the
    // others have no byte there), "Ä‡" and "Ã¡" are whole ones.
    for (text, expected) in [
        (
            "Marija Horvat, Ulica BožiÄ‡a 12, Zagreb",
            "Marija Horvat, Ulica Božića 12, Zagreb",
        ),
        ("Antonín DvořÃ¡k, composer", "Antonín Dvořák, composer"),
        ("Ivan KovačeviÄ‡, Split", "Ivan Kovačević, Split"),
    ] {
        assert_eq!(repaired(text), expected, "{text:?}");
    }
    // A sequence cut by the end of a word is the no-break space's to undo.
    assert_eq!(repaired("Il est allÃ© Ã  Paris"), "Il est allé à Paris");
    // Correct words that hold such letters stay.
    assert_unchanged("Ærøskøbing, Âme, Ça va, Ôtez, Öl, Þórshöfn");
}

/// `text` written in UTF-8 and read as windows-1252 the sloppy way: the
/// five bytes windows-1252 leaves undefined become C1 controls.
fn sloppy_1252(text: &str) -> String {
    let (bytes, _, _) = encoding_rs::UTF_8.encode(text);
    bytes
        .iter()
        .map(|&byte| match byte {
            0x81 | 0x8D | 0x8F | 0x90 | 0x9D => char::from(byte),
            _ => encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(&[byte])
                .0
                .chars()
                .next()
                .unwrap_or('\u{FFFD}'),
        })
        .collect()
}

#[test]
fn rare_letters_are_repaired_with_the_rest_of_their_line() {
    // Letters the scorer finds rare (the open e and o of West African
    // languages, the schwa of Azerbaijani, a combining mark on a symbol)
    // make an odd reading of a word, which alone is only suggested; in a
    // line whose other words the chain repairs surely, or in a word no
    // correct text looks like, they are what the writer wrote.
    for text in [
        "Bakı şəhəri, Gəncə küçəsi 12",
        "Mɔ́ndi, Wɛ́nɛsɛdɛ, Fɛlâyɛdɛ, Sátɔdɛ",
        "“ɛ̃” and “ɔ̃” are nasal vowels",
        "Barɛɛn, Baŋglaɖɛɛshɩ, Bahamaasɩ",
    ] {
        let damaged = sloppy_1252(text);
        assert_ne!(damaged, text);
        assert_eq!(repaired(&damaged), text, "{damaged}");
    }
    // Correct text with such letters stays.
    assert_unchanged("Bakı şəhəri, Gəncə küçəsi 12");
    assert_unchanged("Mɔ́ndi, Wɛ́nɛsɛdɛ, Fɛlâyɛdɛ, Sátɔdɛ");
    assert_unchanged("„Fuß“, «café»…, ├┤a┼┐a");
}

#[test]
fn a_line_repaired_in_part_is_finished() {
    // The character a lone repair makes, written right elsewhere in the
    // line, says the line was repaired in part, not misread as a whole.
    assert_eq!(
        repaired("Rocheâ€™s letter, Smith’s reply"),
        "Roche’s letter, Smith’s reply"
    );
    // Letters windows-1252 has not ("А", "н") are no bytes it misread:
    // they were right, and the sequences between them are repaired.
    assert_eq!(
        repaired("АнтÐ¸гуÐ° и БÐ°Ñ€буÐ´а, Москва"),
        "Антигуа и Барбуда, Москва"
    );
    // A lone sequence that a correct name may hold, beside a different
    // character written right, stays a suggestion.
    assert_unchanged("Mccoy – DrÃ¥ber");
}

#[test]
fn box_drawing_and_symbols_read_as_windows_1252_are_undone() {
    // A directory tree, a table and a formula drawn in text: their
    // three-byte sequences read as windows-1252 ("â”œâ”€â”€") are no
    // language's letters, and the lines they draw are plain text.
    for text in [
        "├── src\n│   └── main.rs\n└── Cargo.toml",
        "┌─────┬─────┐\n│ a   │ b   │\n└─────┴─────┘",
        "x → ∞, 2⋅x ≤ 5, ⎛ 1 ⎞",
        "Total: 12 € – paid",
    ] {
        let damaged = sloppy_1252(text);
        assert_ne!(damaged, text);
        assert_eq!(repaired(&damaged), text, "{damaged}");
        assert_unchanged(text);
    }
    // Box drawing glued to letters is a DOS code page read as another, and
    // UTF-8 read as cp437 is still undone.
    assert_eq!(
        repaired("Bhut├ín, Bolivia, Brasil"),
        "Bhután, Bolivia, Brasil"
    );
}

#[test]
fn a_correct_letter_beside_repaired_words_keeps_its_place() {
    // In a line repaired in part, a capital that could lead a sequence
    // ends a correct word ("AFGELEË"): with no byte lost by the line's own
    // repairs, it is a letter, not a sequence whose bytes vanished.
    assert_eq!(
        repaired("AFGELEË OSEANIË, ALBANIÃ‹, ALGERIÃ‹"),
        "AFGELEË OSEANIË, ALBANIË, ALGERIË"
    );
    // A quotation mark between two letters is a byte of a sequence: "á»"
    // is "ề" whose last byte (0x81, undefined in windows-1252) was
    // dropped, and the loss is marked.
    let text = "Joyeux NoÃ«l, quyá»n";
    assert_eq!(repaired(text), "Joyeux Noël, quy\u{FFFD}n");
    assert_eq!(repair(text).lost_count(), 1);
    assert_unchanged("«Está», dijo. „Ja“, sagte er. O‘zbekiston, don’t");
}

#[test]
fn letters_a_utf8_repair_leaves_are_not_read_again_as_another_page() {
    // "Ã¬" is "ì" undone once; reading "ì" again as windows-1250 makes
    // "ě", a letter as plausible. The symbols the line held were the
    // UTF-8 step's: they say nothing of a windows-1250 step after it.
    assert_eq!(
        repaired("domenega, lunesdÃ¬, mÃ¤tesdÃ¬, mÃ¤cordÃ¬, venardÃ¬"),
        "domenega, lunesdì, mätesdì, mäcordì, venardì"
    );
    // windows-1250 read as windows-1252 alone, with its symbols, still is.
    assert_eq!(repaired("Niewêg³owski, cz³owiek"), "Niewęgłowski, człowiek");
}

#[test]
fn utf8_read_as_iso_8859_2_is_undone() {
    // ISO-8859-2 decodes 0x80 to 0x9F as C1 controls, so most of its
    // mojibake holds some ("Ĺ\u{81}" is "Ł"); windows-1250 agrees with it
    // on most other bytes.
    for (text, expected) in [
        (
            "Ĺ\u{81}ĂłdĹş leĹźy w Ĺ\u{9b}rodku Polski, a GdaĹ\u{84}sk nad morzem.",
            "Łódź leży w środku Polski, a Gdańsk nad morzem.",
        ),
        (
            "PĹ\u{99}Ă\u{ad}liĹĄ ĹžluĹĽouÄ\u{8d}kĂ˝ kĹŻĹ\u{88} ĂşpÄ\u{9b}l Ä\u{8f}ĂĄbelskĂŠ Ăłdy.",
            "Příliš žluťoučký kůň úpěl ďábelské ódy.",
        ),
        (
            "Ă\u{81}rvĂ\u{ad}ztĹąrĹ\u{91} tĂźkĂśrfĂşrĂłgĂŠp",
            "Árvíztűrő tükörfúrógép",
        ),
        (
            "Đ\u{9c}ĐžŃ\u{81}ĐşĐ˛Đ° â\u{80}\u{94} Ń\u{81}Ń\u{82}ĐžĐťĐ¸Ń\u{86}Đ° Đ\u{a0}ĐžŃ\u{81}Ń\u{81}Đ¸Đ¸",
            "Москва — столица России",
        ),
        (
            "Vive la rĂŠpublique franĂ§aise",
            "Vive la république française",
        ),
    ] {
        assert_eq!(repaired(text), expected, "{text:?}");
    }
    // Where the two read a word differently and nothing tells them apart
    // ("Ăą" is "ù" in windows-1250 and "ñ" in ISO-8859-2), the more
    // common windows-1250 wins.
    assert_eq!(
        repaired("OĂą est la gare? Le cafĂ© est fermĂ©."),
        "Où est la gare? Le café est fermé."
    );
    assert_unchanged("Łódź, Gdańsk, Příliš žluťoučký kůň, Árvíztűrő");
}

#[test]
fn letters_in_the_wrong_case_or_rare_symbols_tell_two_pages_apart() {
    for (text, expected) in [
        // ISO-8859-2 ("Š" is 0xA9): windows-1250 reads "TÊalainne", a
        // capital between a capital and a lower-case letter.
        ("Baht na TĂŠalainne", "Baht na Téalainne"),
        // windows-1250 ("Ť" is 0x8D): ISO-8859-2 reads "SAUDë", a
        // lower-case letter in a word of capitals.
        (
            "ARABIA SAUDĂŤ, BAKURĂŠ AFRĂŽKAYĂŠ",
            "ARABIA SAUDÍ, BAKURÊ AFRÎKAYÊ",
        ),
        // windows-1252 ("Ž" is 0x8E): ISO-8859-2 reads the arrows "⮝" and
        // "⮠" for the pieces of a large bracket.
        ("âŽ\u{9d}x - yâŽ\u{a0}", "⎝x - y⎠"),
    ] {
        assert_eq!(repaired(text), expected, "{text:?}");
    }
    assert_unchanged("STRAßE, AKШнын, McDonald, ÉCOLE, ⬆ ⭐");
}

#[test]
fn letters_of_african_alphabets_and_azerbaijani_are_ordinary() {
    // "ɛ", "ɔ", "ŋ" and "ə" are everyday letters: their repaired words are
    // plain text, not odd text that stays a suggestion.
    for (text, expected) in [
        (
            "Ć\u{90}we nÉ\u{94} Ĺ\u{8b}gÉ\u{94}, AsÉ\u{9b}rbaÉŠjaĹ\u{8b}",
            "Ɛwe nɔ ŋgɔ, Asɛrbaɩjaŋ",
        ),
        ("AzÉ™rbaycan, qÉ™sÉ™bÉ™si", "Azərbaycan, qəsəbəsi"),
    ] {
        assert_eq!(repaired(text), expected, "{text:?}");
    }
    assert_unchanged("Ɛwe nɔ ŋgɔ, Azərbaycan, Dɔminiki, Çelik");
}

#[test]
fn utf8_read_as_macintosh_in_one_character_is_undone() {
    // macintosh reads UTF-8 lead bytes as symbols ("√" is 0xC3, "≈" 0xC5,
    // "ƒ" 0xC4, "∆" 0xC6) and E2 80 as "‚Ä": one damaged character in a
    // word is plain mojibake.
    for (text, expected) in [
        ("Meet me in Cura√ßao", "Meet me in Curaçao"),
        ("Ana Kovaƒçiƒá, Zagreb", "Ana Kovačić, Zagreb"),
        ("Hrvatska knji≈æevnost", "Hrvatska književnost"),
        ("It‚Äôs here ‚Äî at last", "It’s here — at last"),
        ("Gh…îÃÅna Ewe", "Ghɔ́na Ewe"),
    ] {
        assert_eq!(repaired(text), expected, "{text:?}");
    }
    assert_unchanged("√x ≈ 2, ‚Ärger‘, x⋅δ, a÷b, ¬p, wait…é, それは…あ");
}

#[test]
fn a_byte_dropped_before_a_space_is_not_taken_for_a_no_break_space() {
    // "”" is E2 80 9D; windows-1252 leaves 0x9D undefined and some
    // readers drop it. Before a space at the end of a line, "â€" read with
    // a no-break space would be "†"; the dropped byte reads far better.
    assert_eq!(
        repaired("She wrote â€œHelloâ€ \nand left"),
        "She wrote “Hello” \nand left"
    );
    // A lost no-break space is still one where it reads best ("Ã " is
    // "à"), and in a line that keeps its C1 controls no byte was dropped.
    assert_eq!(repaired("Il est allÃ© Ã  Paris"), "Il est allé à Paris");
    assert_eq!(repaired("âŽ\u{9d}x + yâŽ "), "⎝x + y⎠");
}

#[test]
fn a_correct_letter_that_starts_an_unused_plane_is_kept() {
    // "ñ" to "ô" are windows-1252's 0xF1 to 0xF4, lead bytes of planes no
    // text uses: cut short inside a word repaired in part, they are
    // letters written right, not sequences that lost three bytes.
    assert_eq!(repaired("BòlevÃ\u{a0}, Bùkinà"), "Bòlevà, Bùkinà");
    assert_eq!(repaired("mañana, dÃ\u{AD}a, AñoÃ±o"), "mañana, día, Añoño");
}

#[test]
fn a_dash_alone_between_words_read_as_macintosh_is_undone() {
    // "—" (E2 80 94) read as macintosh is "‚Äî": a word led by a symbol,
    // which alone is repaired only beside other repairs, as "×£" may be
    // meant. Three characters that make one punctuation mark are no such
    // pair of symbols.
    assert_eq!(repaired("MALLE PIKK ‚Äî TALLINN"), "MALLE PIKK — TALLINN");
    assert_eq!(repaired("Price ‚Ä¢ 5 euros"), "Price • 5 euros");
    assert_unchanged("5×£35, (-1/2)! = √π, ‚Ärger‘");
}

#[test]
fn a_lone_legacy_reading_in_a_line_misread_as_utf8_is_only_suggested() {
    // "Ã\u{9b}" alone is "Û" read as ISO-8859-1; alone, "Û" costs as a
    // lone capital, and a Shift_JIS reading ("脹") read better. In a line
    // whose other words UTF-8 repairs, a second, legacy misreading of one
    // word is no more than a suggestion.
    let text = "ANGUÃ\u{8e}LA, ANTÃ\u{8e}GUA Ã\u{9b} BERBÃ\u{9b}DA";
    let found = repair(text);
    assert_eq!(found.apply(text), "ANGUÎLA, ANTÎGUA Ã\u{9b} BERBÛDA");
    assert!(
        found.changes.iter().all(|change| change
            .chain
            .last()
            .is_some_and(super::super::chain::Step::decodes_utf8)),
        "{found:?}"
    );
}

#[test]
fn letters_the_misreading_leaves_alone_do_not_hold_back_a_lone_repair() {
    // windows-1252 text read as ISO-8859-1: "è" and "à" are the same in
    // both, so they say nothing of whether the line was misread; the C1
    // control is "–".
    assert_eq!(
        repaired("Dalasì gambìà, Dobrà sàotòme (1977\u{96}2017)"),
        "Dalasì gambìà, Dobrà sàotòme (1977–2017)"
    );
    assert_unchanged("Mccoy – DrÃ¥ber");
}

#[test]
fn typographic_punctuation_inside_a_sequence_is_not_cut_at() {
    // "…" is 0x85, the last byte of Devanagari "अ" (E0 A4 85): in a word
    // repaired in part ("ा" written right), cutting at it left the
    // sequence without its last byte.
    assert_eq!(
        repaired("à¤…à¤£à¤œाà¤£ à¤œगह, भà¤¾à¤°à¤¤"),
        "अणजाण जगह, भारत"
    );
    // Where it is no byte of a sequence, it still separates ("l’" was
    // repaired by someone, "Ã©" not).
    assert_eq!(repaired("l’humanitÃ© entière"), "l’humanité entière");
}

#[test]
fn utf8_read_as_iso_8859_1_twice_with_its_c1_controls_dropped_is_undone() {
    // "é" (C3 A9) read as ISO-8859-1 is "Ã©"; that text in UTF-8 read so
    // again is "Ã\u{83}Â©", and a reader that drops C1 controls leaves
    // "ÃÂ©": the byte that told the lead is gone, and the word says which
    // it was.
    for (text, expected) in [
        (
            "La cuisine du marchÃÂ© est prÃÂªte Ã\u{A0} midi",
            "La cuisine du marché est prête à midi",
        ),
        ("StraÃÂ§enbahn fÃÂ¤hrt", "Straçenbahn fährt"),
        ("PolÃÂ\u{AD}tica de privacidad", "Política de privacidad"),
        ("Zuid-AfrikaÃÂ«, RoemeniÃÂ«", "Zuid-Afrikaë, Roemenië"),
    ] {
        let found = repair(text);
        assert_eq!(found.apply(text), expected, "{text:?}");
        // Each restored lead is a guess, said as the C1 control assumed,
        // and the chain applied to the text with it gives the repair.
        for change in &found.changes {
            if change.chain.len() == 2 {
                assert!(change.is_guess(), "{change:?}");
                let original = change.assumed_original(text).unwrap();
                assert_eq!(change.chain.apply(&original).unwrap(), change.replacement);
            }
        }
    }
    // A lead whose continuation byte was dropped too ("ÃÂ" alone, for
    // "É" or "ß") leaves too little to go on; correct text stays.
    assert_unchanged("SÃO PAULO, Ã bientôt, Â¡Hola!");
    assert!(
        repair("ÃÂcole")
            .changes
            .iter()
            .all(super::super::Change::is_lossy)
    );
}

#[test]
fn letters_written_right_beside_misread_ones_stay_letters() {
    // Text repaired in part: "ä", "ç", "è" and "é" were written right
    // (or repaired before) beside "Ã¶", "Ãµ" and "Ã©". Read as windows-1252
    // each is a lead byte of a three-byte sequence, but nothing of its
    // sequence follows: two bytes lost in a row, or a letter written
    // right, which a word that also holds whole sequences makes far
    // likelier. They stay letters, never U+FFFD.
    for (text, expected) in [
        (
            "Der Zug fährt über HälsingÃ¶r nach Malmö",
            "Der Zug fährt über Hälsingör nach Malmö",
        ),
        (
            "Todas as transaçÃµes foram concluÃ\u{AD}das",
            "Todas as transações foram concluídas",
        ),
        (
            "Le compte a bien Ã©té réactivé",
            "Le compte a bien été réactivé",
        ),
        ("Nopèmber, DÃ©sèmber", "Nopèmber, Désèmber"),
    ] {
        assert_eq!(repaired(text), expected, "{text:?}");
    }
    // Beside a line the chain repairs, a word holding such a letter is
    // repaired around it.
    assert_eq!(
        repaired("e hÃ«nÃ«, e martÃ«, e mërkurÃ«, e enjte"),
        "e hënë, e martë, e mërkurë, e enjte"
    );
    // After a Latin-1 letter misread, before an ASCII letter: "ð".
    assert_eq!(
        repaired("Fortnite mÃ³t á Íslandi, skrÃ¡ðu Ã¾ig"),
        "Fortnite mót á Íslandi, skráðu þig"
    );
    // In a line that lost a byte ("”" is E2 80 9D, and 0x9D is one
    // windows-1252 leaves undefined), a correct "é" alone stays.
    assert_eq!(
        repaired("Ele é o melhor, â€œdisseâ€ que nÃ£o"),
        "Ele é o melhor, “disse” que não"
    );
    // A letter windows-1252 lacks says nothing of a sequence beside it by
    // chance: correct Czech capitals stay.
    assert_eq!(
        repaired("BOHUSLAVA FRAÅ‡VÃ\u{81} — ČÍŽ"),
        "BOHUSLAVA FRAŇVÁ — ČÍŽ"
    );
}

#[test]
fn typographic_punctuation_that_ends_a_two_byte_sequence_is_not_cut_at() {
    // Words repaired in part (some letters written right): "‘" is 0x91, the
    // second byte of "Б" (D0 91); "“" is 0x93, of "Г" (D0 93); "”" is
    // 0x94, of "Δ" (CE 94); "–" is 0x96, of "і" (D1 96). Cutting the words
    // there left the lead alone, a sequence that lost its byte, and wrote
    // U+FFFD for a letter that was all there.
    for (text, expected) in [
        (
            "\u{d0}\u{2018}\u{d0}\u{b5}л\u{d1}\u{152}г\u{d0}\u{b8}\u{d1}\u{8f} и \
             \u{d0}\u{201c}\u{d0}\u{b5}\u{d1}\u{20ac}\u{d0}\u{bc}\u{d0}\u{b0}н\u{d0}\u{b8}\u{d1}\u{8f}",
            "Бельгия и Германия",
        ),
        (
            "\u{ce}\u{178} \u{394}\u{ce}\u{ae}\u{ce}\u{bc}ο\u{cf}\u{201a} \u{cf}\u{201e}ης \
             \u{ce}\u{201d}ράμα\u{cf}\u{201a}",
            "Ο Δήμος της Δράμας",
        ),
        (
            "Грузія та \u{d0}\u{203a}а\u{d1}\u{201a}вія п\u{d1}\u{2013}\u{d0}\u{b4}п\u{d0}\u{b8}\
             \u{d1}\u{81}\u{d0}\u{b0}\u{d0}\u{bb}\u{d0}\u{b8} угоду",
            "Грузія та Латвія підписали угоду",
        ),
    ] {
        let found = repair(text);
        assert_eq!(found.apply(text), expected, "{text:?}");
        assert_eq!(found.lost_count(), 0, "{text:?}");
    }
}

/// `text`'s UTF-8 read as ISO-8859-1 taken byte for code point by a reader
/// that then dropped the C1 controls (0x80 to 0x9F).
fn latin1_dropping_c1(text: &str) -> String {
    text.bytes()
        .filter(|byte| !(0x80..=0x9F).contains(byte))
        .map(char::from)
        .collect()
}

/// Checks that `repaired` is `original` but for U+FFFD where a character
/// lost a byte to [`latin1_dropping_c1`] (or that character restored).
#[track_caller]
fn assert_marks_only_the_lost(original: &str, repaired: &str) {
    assert_eq!(
        original.chars().count(),
        repaired.chars().count(),
        "{repaired:?}"
    );
    for (right, got) in original.chars().zip(repaired.chars()) {
        let mut buffer = [0; 4];
        let lost = right
            .encode_utf8(&mut buffer)
            .bytes()
            .any(|byte| (0x80..=0x9F).contains(&byte));
        assert!(
            got == right || (lost && got == '\u{FFFD}'),
            "{right:?} became {got:?} in {repaired:?}"
        );
    }
}

#[test]
fn words_that_only_lost_bytes_are_marked_however_many() {
    // A lone lead byte inside a word ("czÅowiek": "ł" is C5 82, and 0x82
    // was dropped) is odd text on its own; beside words the chain repairs
    // ("Å¼" is "ż"), it is a character that lost a byte, even where such
    // words outnumber the repaired ones.
    for original in [
        "Żółta łódź płynęła, a człowiek śpiewał cicho nad rzeką.",
        "Każdy uczeń może mówić, ale nauczyciel słucha uważnie każdego słowa.",
        "Všichni žáci mají právo učit se, říkat svůj názor a být slyšeni.",
    ] {
        let damaged = latin1_dropping_c1(original);
        assert_marks_only_the_lost(original, &repaired(&damaged));
    }
    // Correct letters that are lead bytes in UTF-8 stay, beside repairs
    // or not.
    assert_unchanged("Déjà vu in Åland: Ärger, Èze et Ðakovo");
    assert_eq!(
        repaired("GrÃ¶ÃŸe und Ärger in Åland, trÃ¨s bien"),
        "Größe und Ärger in Åland, très bien"
    );
}

#[test]
fn a_run_of_lead_bytes_is_not_read_as_double_byte_text() {
    // Hebrew UTF-8 read as ISO-8859-1 with the C1 controls dropped: most
    // letters are D7 and a byte from 0x80 to 0x9A, so most words are runs
    // of "×" (D7), which EUC-KR and GBK pair into Han ("利", "鬃"). The
    // line's other words say it was UTF-8 that lost bytes.
    let original = "שלום לכולם, היום יום יפה מאוד ואנחנו הולכים לים עם הילדים";
    let out = repaired(&latin1_dropping_c1(original));
    assert_marks_only_the_lost(original, &out);
    // A run of one symbol alone is still no text.
    assert_unchanged("×××××ª and ××××, ××");
}

#[test]
fn a_plain_word_that_lost_a_byte_is_marked_once_its_line_shows_losses() {
    // Romanian UTF-8 read as ISO-8859-1 with the C1 controls dropped:
    // "ș" is C8 99, so "și" became "Èi", which looks like a word of its
    // own. Only a line that lost bytes elsewhere says otherwise, and here
    // the words that show it ("oraÈ", "AstÄzi") are found beside the
    // line's whole sequences ("Ã®n"), not by them; "faÈÄ" (EUC-JP "fa板")
    // and "Èi" wait for them.
    for original in [
        "Ei stau în câmp și în oraș, cu toții, pe malul râului.",
        "Astăzi mergem în parc și vedem câinii pe câmp.",
        "Ei stau în câmp și în oraș, față în față cu râul.",
    ] {
        let damaged = latin1_dropping_c1(original);
        assert_marks_only_the_lost(original, &repaired(&damaged));
    }
    // Beside whole sequences alone, such a word is a word.
    assert_eq!(repaired("Èze: Ã®n cÃ¢mp"), "Èze: în câmp");
}

/// `text` encoded as `encoding` and read as windows-1252.
fn legacy_read_as_1252(text: &str, encoding: &'static encoding_rs::Encoding) -> String {
    let (bytes, _, unmappable) = encoding.encode(text);
    assert!(!unmappable, "{text:?} in {}", encoding.name());
    let (read, malformed) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&bytes);
    assert!(!malformed, "{text:?} read as windows-1252");
    read.into_owned()
}

#[test]
fn a_double_byte_reading_is_judged_as_its_decoders_language() {
    // GBK's common hanzi (leads 0xB0 to 0xD7) are EUC-JP's kanji of level
    // 1 or 2 for the same bytes, often characters common in traditional
    // Chinese too: "人人" (C8 CB C8 CB) is "繁繁" in EUC-JP. Such a reading
    // tied with the right one as text of some CJK language, though as
    // Japanese it is a long run of kanji without kana.
    for text in ["人人都喜欢晴朗的天气。", "周末任何人都可以来图书馆借书。"]
    {
        let damaged = legacy_read_as_1252(text, encoding_rs::GBK);
        assert_eq!(repaired(&damaged), text, "{damaged:?}");
    }
    // Japanese and traditional Chinese keep their readings.
    for (text, encoding) in [
        ("東京の天気は今日とても良いです。", encoding_rs::EUC_JP),
        ("我們今天下午在學校圖書館學習。", encoding_rs::BIG5),
        ("오늘은 날씨가 좋습니다", encoding_rs::EUC_KR),
    ] {
        let damaged = legacy_read_as_1252(text, encoding);
        assert_eq!(repaired(&damaged), text, "{damaged:?}");
    }
}

#[test]
fn a_word_the_lines_chain_cannot_read_is_read_by_one_that_reads_the_line_alike() {
    // Latvian UTF-8 read as windows-1257: "Ā" (C4 80) and "Ē" (C4 92) read
    // as windows-1252 does ("Ä€", "Ä’"), and windows-1252 wins those words
    // on its prior; "Ī" (C4 AA) is windows-1257's "ÄŖ", which windows-1252
    // cannot read, and a capital among capitals is no odd text alone.
    for text in [
        "VISPĀRĒJĀS TIESĪBAS UN PIENĀKUMI",
        "LĪDZSVARS UN VĒRTĪBAS ĀRĒJĀ POLITIKĀ",
    ] {
        let (bytes, _, _) = encoding_rs::UTF_8.encode(text);
        let (damaged, _) = encoding_rs::WINDOWS_1257.decode_without_bom_handling(&bytes);
        assert_eq!(repaired(&damaged), text, "{damaged:?}");
    }
}

#[test]
fn short_words_of_letters_outside_ascii_count_for_a_single_byte_reading() {
    // windows-1251 read as windows-1252 turns each Cyrillic letter into a
    // Latin-1 one: "не" is "íå", two letters outside ASCII that cost
    // nothing, so a short phrase showed two suspect words where turning
    // Latin into Cyrillic asks for three.
    for text in ["3;\"Он не пришёл\";\"Bonjour\"", "Город не спит, ok"] {
        let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(text);
        let (damaged, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&bytes);
        assert_eq!(repaired(&damaged), text, "{damaged:?}");
    }
    // Correct words of such letters stay, and so does a line with one
    // suspect word only.
    assert_unchanged("Þú og ég í dag, Ísland");
    assert_unchanged("Ôtez-le, où ça? Éé àà");
}

/// `text`'s UTF-8 read as windows-1252 by a decoder that wrote "?" for
/// each byte `lost` says it could not map.
fn marked_1252(text: &str, lost: fn(u8) -> bool) -> String {
    text.bytes()
        .map(|byte| {
            if lost(byte) {
                return '?';
            }
            let buffer = [byte];
            let (read, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&buffer);
            read.chars().next().unwrap_or('\u{FFFD}')
        })
        .collect()
}

#[test]
fn a_question_mark_for_a_lost_continuation_byte_is_suspect() {
    // A decoder that writes "?" for the bytes it cannot map leaves "Å?"
    // for "Ł" (C5 81) and "È?" for "Ț" (C8 9A): a "?" between a lead
    // byte's character and a letter. In capitals the rest of the word
    // looks plain, so nothing was tried on it.
    let undefined_1252: fn(u8) -> bool = |byte| matches!(byte, 0x81 | 0x8D | 0x8F | 0x90 | 0x9D);
    let c1: fn(u8) -> bool = |byte| (0x80..=0x9F).contains(&byte);
    for (text, lost) in [
        ("ZAŁOGA STATKU PŁYNIE DALEJ", undefined_1252),
        ("ȚARA ȘI POPORUL", c1),
    ] {
        let damaged = marked_1252(text, lost);
        let out = repaired(&damaged);
        assert_eq!(out.chars().count(), text.chars().count(), "{out:?}");
        for (right, got) in text.chars().zip(out.chars()) {
            assert!(
                got == right || got == '\u{FFFD}',
                "{right:?} became {got:?} in {out:?}"
            );
        }
        assert!(out.contains('\u{FFFD}'), "{damaged:?} left as {out:?}");
    }
    // A "?" after a letter written right stays.
    assert_unchanged("https://example.com/café?id=3 and naïve?x");
    assert_unchanged("Qué?No sé. ¿Où?là");
}

#[test]
fn a_lost_letter_is_restored_where_the_languages_letters_make_one_clear() {
    // UTF-8 read as windows-1252 by a reader that dropped the five bytes
    // windows-1252 leaves undefined: "с" is D1 81 and lost its 0x81, "т"
    // kept its 0x82 ("‚"). Which of "р" to "я" the lost one was, only the
    // letters around it tell: "сайт" is Russian, "райт" or "яайт" are not.
    let original = "Мы открыли сайт в среду";
    let text = "\u{d0}\u{153}\u{d1}\u{2039} \u{d0}\u{be}\u{d1}\u{201a}\u{d0}\u{ba}\u{d1}\u{20ac}\
                \u{d1}\u{2039}\u{d0}\u{bb}\u{d0}\u{b8} \u{d1}\u{d0}\u{b0}\u{d0}\u{b9}\u{d1}\u{201a} \
                \u{d0}\u{b2} \u{d1}\u{d1}\u{20ac}\u{d0}\u{b5}\u{d0}\u{b4}\u{d1}\u{192}";
    let repaired = repaired(text);
    assert!(repaired.contains("сайт"), "{repaired}");
    // Every other character is the original's, or U+FFFD where it stays
    // lost: never another letter.
    assert_eq!(repaired.chars().count(), original.chars().count());
    for (got, want) in repaired.chars().zip(original.chars()) {
        assert!(got == want || got == '\u{FFFD}', "{repaired}");
    }
}

#[test]
fn utf8_read_as_windows_1252_twice_with_its_undefined_bytes_dropped_is_undone() {
    // "”" is E2 80 9D. Read as windows-1252 it is "â€" and U+009D (the
    // standard keeps the undefined byte as a C1 control); that text in
    // UTF-8 read as windows-1252 again is "Ã¢â‚¬Â" and a 0x9D that a
    // second reader dropped. Of the five bytes it may have been, "”" is
    // the one that makes a quotation mark, not an invisible character.
    let text = "Ã¢â‚¬Å“Nous partons demainÃ¢â‚¬Â, dit-elle.";
    let found = repair(text);
    assert_eq!(found.apply(text), "“Nous partons demain”, dit-elle.");
    assert_eq!(found.guess_count(), 1);
    for change in &found.changes {
        let original = change.assumed_original(text).unwrap();
        assert_eq!(change.chain.apply(&original).unwrap(), change.replacement);
    }
    // "Â¡" alone is a sequence whole ("¡"), not one that lost a byte.
    assert_unchanged("Â¡Hola! ¿Qué tal?");
}

#[test]
fn latin_text_of_another_code_page_read_as_windows_1252_is_read_again() {
    // Text in windows-1250, windows-1257 or windows-1254 read as
    // windows-1252: letters become other letters ("ř" is "ø", "ě" is "ì"),
    // so each word may look right, but the line's letters are no one
    // language's, and read again they are one language's, reading far
    // better. A symbol between letters ("³" for "ł") says so too.
    for (text, expected) in [
        (
            "Pøed domem stojí èervený vùz a dìti si hrají na ulici.",
            "Před domem stojí červený vůz a děti si hrají na ulici.",
        ),
        (
            "¯ó³ta ³ódŸ p³ynê³a powoli po jeziorze, a ludzie œpiewali.",
            "Żółta łódź płynęła powoli po jeziorze, a ludzie śpiewali.",
        ),
        (
            "Lietuvos sostinë yra Vilnius, o didþiausia upë yra Nemunas.",
            "Lietuvos sostinė yra Vilnius, o didžiausia upė yra Nemunas.",
        ),
        (
            "Türkiye'nin baþkenti Ankara'dýr ve Ýstanbul en büyük þehridir.",
            "Türkiye'nin başkenti Ankara'dır ve İstanbul en büyük şehridir.",
        ),
        (
            "Hrvatska je lijepa zemlja, a Dubrovnik je èarobni grad uz more, kažu svi.",
            "Hrvatska je lijepa zemlja, a Dubrovnik je čarobni grad uz more, kažu svi.",
        ),
        // ISO-8859-2, not windows-1250: "¹" is "š" there and "ą" in
        // windows-1250, and the line reads as Slovenian; the name of
        // another language ("Müller") and the apostrophes of Turkish stay
        // as written.
        (
            "Spo¹tovani gospod Müller, veseli nas, da ste se udele¾ili sreèanja v Ljubljani.",
            "Spoštovani gospod Müller, veseli nas, da ste se udeležili srečanja v Ljubljani.",
        ),
        (
            "Takýmýmýz Ýstanbul’da þampiyonluðu kutladý ve herkes çok mutluydu.",
            "Takımımız İstanbul’da şampiyonluğu kutladı ve herkes çok mutluydu.",
        ),
    ] {
        assert_eq!(repaired(text), expected, "{text:?}");
    }
    // The same text saved as UTF-8 and read as windows-1252 once more: the
    // line's UTF-8 repair leaves "è" and "ì", which are read again.
    let text = "KaÅ¾dÃ½ mÃ¡ prÃ¡vo na Å¾ivot a svobodu, nikdo nesmÃ\u{ad} bÃ½t zatÃ¨en.";
    let found = repair(text);
    assert_eq!(
        found.apply(text),
        "Každý má právo na život a svobodu, nikdo nesmí být zatčen."
    );
    let chain = found
        .changes
        .iter()
        .find(|change| change.replacement == "zatčen")
        .map(|change| change.chain.damage());
    assert_eq!(
        chain.as_deref(),
        Some("windows-1250 read as windows-1252, then UTF-8 read as windows-1252")
    );
    // UTF-8 read as windows-1252 that its repair left ("rÃ³wni", a byte
    // lost elsewhere in the line) is no legacy text to read again.
    let text = "Wszyscy uczniowie sÄ rÃ³wni wobec prawa szkoÅy i majÄ te same obowiÄzki.";
    assert!(!repaired(text).contains('Ć'), "{}", repaired(text));
    // Nor is a line whose words hold a capital after a lowercase letter:
    // Romanian "ș" and "ă" (C8 99, C4 83) that lost their second byte are
    // "È" and "Ä", which windows-1250 would make "Č" and "Ä".
    let text = "Orice fiinÈÄ are dreptul la viaÈÄ Èi la libertate.";
    assert!(!repaired(text).contains('Č'), "{}", repaired(text));
    // A misreading reads every byte alike: Turkmen "ý" written right
    // between misread letters ("DÃ¼nýÃ¤") keeps windows-1257 from reading
    // the other "ý" as Polish "ż".
    assert_eq!(
        repaired("Demirgazyk Ýewropa, Diýego-GarsiÃ½a, AziÃ½a we DÃ¼nýÃ¤"),
        "Demirgazyk Ýewropa, Diýego-Garsiýa, Aziýa we Dünýä"
    );
    // Correct text whose letters are several languages', or signs alone.
    assert_unchanged("Søren Kierkegaard visited Dvořák's home in Zürich.");
    assert_unchanged("It cost 5×£35, about ½ of the budget.");
    assert_unchanged("Café, crème brûlée and smørrebrød at Åsa's place.");
    assert_unchanged("Città è bella, però la città di Ørsted è più fredda.");
    assert_unchanged("domenega, lunesdì, mätesdì, mäcordì, venardì");
    assert_unchanged("adaty hytaý dili, adygeý dili, Günorta Kanada");
    // Words of several languages in one line, each right in its own.
    assert_unchanged("La crème du cedi ghanès — Danuše Lišková, Mongolská 82, Praha");
    assert_unchanged("Elipbiýi we diller — AYŞE NEZENGÜL — SEVSEVILFORT");
    // Turkmen's own "Ý": read as Turkish "İ" it changes no letter the
    // language models tell from "I".
    assert_unchanged("ÝEWROPA, AZIÝA WE DÜNÝÄ");
}

#[test]
fn a_punctuation_sequence_that_lost_its_middle_byte_is_suspect() {
    // "”" is E2 80 9D and "€" E2 82 AC: a reader that dropped 0x9D or the
    // C1 control 0x82 left "â€" and "â¬", "â" before one sign, which no
    // language writes. The first is repaired; the second keeps its lost
    // character as U+FFFD (many signs fit), no longer "â¬".
    assert_eq!(repaired("Rezultat: â€"), "Rezultat: ”");
    let repaired_price = repaired("Le prix est de 50â¬ seulement.");
    assert_eq!(repaired_price, "Le prix est de 50\u{FFFD} seulement.");
    // Other leads before a sign are text: "à»" closes a French quotation.
    assert_unchanged("Il a dit «voilà», puis «là-bas».");
}
