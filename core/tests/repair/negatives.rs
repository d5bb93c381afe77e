//! Correct text from outside the project that the repair must leave
//! unchanged: the names of territories, languages, scripts, currencies,
//! months and days in every locale of the Unicode CLDR (territory names in
//! capitals too), formulas drawn by the pretty printer of `SymPy` (box drawing,
//! mathematical operators, Greek letters), names, addresses and company
//! names in 43 locales (the Faker package), and emoji in runs and with their
//! names (the emoji package). `data/negatives.txt` is written
//! by `tools/repair-negatives.py`; sources and licences in
//! `data/SOURCES.md`.

use std::path::Path;

use mojiscope_core::repair;

#[test]
fn correct_text_from_outside_is_left_alone() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/repair/data/negatives.txt");
    let text = std::fs::read_to_string(path).expect("the negatives exist");
    let lines: Vec<&str> = text.lines().filter(|line| !line.starts_with('#')).collect();
    assert!(lines.len() > 12_000, "{} lines", lines.len());
    let joined = lines.join("\n");
    let found = repair::repair(&joined);
    assert_eq!(found.declined, None);
    let changed: Vec<String> = found
        .changes
        .iter()
        .map(|change| {
            let line = joined[..change.utf8_range.start].matches('\n').count();
            format!(
                "{:?} -> {:?} ({}) in {:?}",
                &joined[change.utf8_range.clone()],
                change.replacement,
                change.chain.display_name(),
                lines[line]
            )
        })
        .collect();
    println!(
        "{} lines of correct text: {} changed, {} suggestions",
        lines.len(),
        changed.len(),
        found.suggestions.len()
    );
    assert!(
        changed.is_empty(),
        "{} changes to correct text:\n{}",
        changed.len(),
        changed.join("\n")
    );
}
