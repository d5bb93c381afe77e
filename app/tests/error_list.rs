//! A pane's error list gives each error's line and column beside its
//! offset, once the row index reaches it.

#[expect(dead_code, reason = "this suite uses part of the shared helpers")]
mod common;

use egui_kittest::kittest::{NodeT as _, Queryable as _};
use mojiscope::model::settings::Settings;
use mojiscope_core::{UTF_8, WINDOWS_1252};

/// Errors on lines 2 and 3 (the second after two three-byte characters)
/// and one on line 5 after a line cut into rows.
fn errors_on_lines() -> Vec<u8> {
    let mut bytes = b"first line\nsecond caf\xE9\n\xE6\x97\xA5\xE6\x9C\xAC \xFF end\n".to_vec();
    // Line 4 is 1500 bytes: three rows, one line.
    bytes.extend_from_slice(&[b'x'; 1500]);
    bytes.extend_from_slice(b"\nfifth \xC3\n");
    bytes
}

#[test]
fn the_error_list_gives_line_and_column_once_the_rows_are_known() {
    let bytes = errors_on_lines();
    let (_dir, path) = common::scratch("lines.txt", &bytes);
    let mut settings = Settings::default();
    settings.remember(&path, &[UTF_8, WINDOWS_1252]);
    let mut harness = common::app_with(&path, settings);
    let index = harness.state().session.lines.clone().expect("the rows");

    // Before the index: the place is a placeholder.
    harness.state_mut().session.lines = None;
    harness.run_steps(2);
    harness.get_by_label("List ▾").click();
    harness.run_steps(2);
    let first = harness.get_by_label_contains("0x00000015");
    assert!(
        first
            .accesskit_node()
            .label()
            .unwrap_or_default()
            .ends_with("line …")
    );

    // The index arrives while the list is open: the places fill in.
    harness.state_mut().session.lines = Some(index);
    harness.run_steps(2);
    for (offset, place) in [
        ("0x00000015", "line 2, col 11"),
        ("0x0000001E", "line 3, col 4"),
        ("0x00000607", "line 5, col 7"),
    ] {
        let row = harness.get_by_label_contains(offset);
        let label = row.accesskit_node().label().unwrap_or_default();
        assert!(label.ends_with(place), "{label:?} ends with {place:?}");
    }
}
