//! Repair on any text, with and without the bytes it was decoded from: no
//! panic, and changes that are well formed: in order, not overlapping, on
//! character boundaries, their two ranges the same span, and applying none
//! of them gives back the text. libFuzzer's `-timeout` bounds the time.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mojiscope_core::repair::{Repair, Source, repair, repair_with_source};
use mojiscope_core::{ALL, BomHandling};

fn check(text: &str, repair: &Repair) {
    let mut previous_end = 0;
    for change in repair.changes.iter().chain(&repair.suggestions) {
        let range = change.utf8_range.clone();
        assert!(range.start <= range.end && range.end <= text.len());
        assert!(text.is_char_boundary(range.start) && text.is_char_boundary(range.end));
        let chars = text[..range.start].chars().count();
        assert_eq!(
            change.char_range.start, chars,
            "char range starts where the UTF-8 range does"
        );
        assert_eq!(
            change.char_range.len(),
            text[range].chars().count(),
            "char range covers the UTF-8 range"
        );
        assert!((0.0..=1.0).contains(&change.confidence));
    }
    for change in &repair.changes {
        assert!(
            change.utf8_range.start >= previous_end,
            "changes in order, apart"
        );
        previous_end = change.utf8_range.end;
        assert!(change.confidence >= 0.5, "a change is sure");
    }
    assert_eq!(
        repair.apply_accepted(text, |_| false),
        text,
        "nothing accepted, nothing changed"
    );
    let _ = repair.apply(text);
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    if let Ok(text) = std::str::from_utf8(bytes) {
        check(text, &repair(text));
    }
    // The bytes decoded with one of the single-byte encodings, with them as
    // the source.
    let single_byte: Vec<_> = ALL.iter().copied().filter(|e| e.is_single_byte()).collect();
    let encoding = single_byte[usize::from(selector) % single_byte.len()];
    let text = encoding
        .decode_with_bom_handling(bytes, BomHandling::None)
        .text;
    let source = Source { bytes, encoding };
    check(&text, &repair_with_source(&text, source));
});
