//! The committed `src/language/tables.rs` must be exactly what the generator
//! makes from the training text in `languages/` (which is committed, so this
//! test always runs).

use mojiscope_indexes::generate::languages;

#[test]
fn language_tables_are_fresh() {
    let rendered = languages::render(&languages::text_dir())
        .unwrap_or_else(|error| panic!("the generator failed: {error}"));
    let path = languages::output_path();
    let committed = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    assert!(
        committed == rendered,
        "{} differs from the generator's output: regenerate with `{}`",
        path.display(),
        languages::REGENERATE_COMMAND
    );
}
