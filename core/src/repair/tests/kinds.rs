//! Kinds of damage found by comparing the repair with another fixer on real
//! correct text garbled the ways software garbles it
//! (`tools/repair-diff-ftfy.py`): one test per kind, on text of our own.

use super::{assert_unchanged, repaired};

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
