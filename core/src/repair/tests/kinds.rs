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
