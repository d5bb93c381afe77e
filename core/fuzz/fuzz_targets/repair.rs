//! Repair on any text, with and without the bytes it was decoded from: no
//! panic, and changes that are well formed: in order, not overlapping, on
//! character boundaries, their two ranges the same span, lost characters
//! and assumptions where they say, nothing at all for input declined as
//! not text, and applying none of them gives back the text. Besides the
//! bytes as UTF-8 and through each single-byte decoder, the input is read
//! through the DOS code pages, and made lossy the ways real text is (bytes
//! turned into U+FFFD or "?", no-break spaces into spaces, C1 controls
//! kept). libFuzzer's `-timeout` bounds the time.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mojiscope_core::repair::{DosCodePage, Repair, Source, repair, repair_with_source};
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
        for lost in &change.lost {
            assert!(change.replacement[lost.utf8_offset..].starts_with('\u{FFFD}'));
        }
        let span = &text[change.utf8_range.clone()];
        for assumption in &change.assumptions {
            // A character assumed where none is left (a dropped soft
            // hyphen) sits at a boundary of the span.
            let rest = &span[assumption.utf8_offset..];
            if let Some(found) = assumption.found {
                assert!(rest.starts_with(found));
            }
        }
        if change.is_guess() {
            assert!(change.assumed_original(text).is_some());
        }
    }
    if repair.declined.is_some() {
        assert!(repair.changes.is_empty() && repair.suggestions.is_empty());
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
    // The bytes through a DOS code page, made lossy as the selector says.
    let page = if selector & 1 == 0 {
        DosCodePage::Cp437
    } else {
        DosCodePage::Cp850
    };
    let dos: String = bytes.iter().map(|&byte| page.decode_byte(byte)).collect();
    check(&dos, &repair(&dos));
    let lossy: String = text
        .chars()
        .map(|c| match (selector >> 1) & 3 {
            0 if c == '\u{A0}' => ' ',
            1 if ('\u{80}'..='\u{9F}').contains(&c) => '\u{FFFD}',
            2 if ('\u{80}'..='\u{9F}').contains(&c) => '?',
            _ => c,
        })
        .collect();
    check(&lossy, &repair(&lossy));
});
