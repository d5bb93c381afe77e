//! What the clipboard gets of a selection: the text a pane decodes it to
//! (with the reinterpretations by hand it shows), its bytes in hex, or its
//! bytes as escapes.

use std::fmt::Write as _;

use mojiscope_core::{ByteSpan, TraceKind};

use crate::model::analysis::EncodingAnalysis;
use crate::model::repair::manual::Edit;

/// The most bytes copied at once: a selection made with Ctrl+Shift+End on
/// a huge file is copied up to here, not whole.
pub const MAX_COPY_BYTES: u64 = 16 * 1024 * 1024;

/// The part of `span` that is copied.
fn capped(bytes: &[u8], span: ByteSpan) -> &[u8] {
    let len = bytes.len() as u64;
    let start = span.start.min(len);
    let end = span.end.clamp(start, len).min(start + MAX_COPY_BYTES);
    // Both within `bytes`, so they fit in usize.
    let start = usize::try_from(start).unwrap_or(usize::MAX);
    let end = usize::try_from(end).unwrap_or(usize::MAX);
    bytes.get(start..end).unwrap_or_default()
}

/// The selected bytes in hex, "82 A0".
pub fn hex_text(bytes: &[u8], span: ByteSpan) -> String {
    let selected = capped(bytes, span);
    let mut text = String::with_capacity(selected.len() * 3);
    for (index, byte) in selected.iter().enumerate() {
        if index > 0 {
            text.push(' ');
        }
        write!(text, "{byte:02X}").expect("writing to a String cannot fail");
    }
    text
}

/// The selected bytes as escapes, as Python and C write them: "\x82\xA0".
pub fn escaped_text(bytes: &[u8], span: ByteSpan) -> String {
    let selected = capped(bytes, span);
    let mut text = String::with_capacity(selected.len() * 4);
    for byte in selected {
        write!(text, "\\x{byte:02X}").expect("writing to a String cannot fail");
    }
    text
}

/// The text `analysis` decodes the selected bytes to: the items that
/// start in the selection (errors as U+FFFD).
pub fn decoded_text(bytes: &[u8], analysis: &EncodingAnalysis, span: ByteSpan) -> String {
    let end = span.end.min(span.start + MAX_COPY_BYTES);
    analysis
        .decode_window(bytes, ByteSpan::new(span.start, end))
        .text
}

/// What a pane that shows `edits` (reinterpretations by hand, in byte
/// order, not overlapping) shows of the selected bytes: the text
/// `analysis` decodes them to, each edit that starts in the selection in
/// place of the characters that start in its bytes, and nothing of an edit
/// that starts before it.
pub fn shown_text(
    bytes: &[u8],
    analysis: &EncodingAnalysis,
    span: ByteSpan,
    edits: &[Edit],
) -> String {
    let end = span.end.min(span.start + MAX_COPY_BYTES);
    let trace = analysis.decode_window(bytes, ByteSpan::new(span.start, end));
    let inside = |byte_offset: u64| {
        edits
            .iter()
            .any(|edit| edit.span.start <= byte_offset && byte_offset < edit.span.end)
    };
    let mut starting = edits
        .iter()
        .filter(|edit| span.start <= edit.span.start && edit.span.start < end)
        .peekable();
    let mut text = String::with_capacity(trace.text.len());
    for item in trace.items() {
        while let Some(edit) = starting.next_if(|edit| edit.span.start <= item.span.start) {
            text.push_str(&edit.replacement.text);
        }
        if inside(item.span.start) {
            continue;
        }
        match item.kind {
            TraceKind::Scalar(c) => text.push(c),
            TraceKind::Pair(first, second) => {
                text.push(first);
                text.push(second);
            }
            TraceKind::Error(_) => text.push(char::REPLACEMENT_CHARACTER),
            TraceKind::Skip(_) => {}
        }
    }
    for edit in starting {
        text.push_str(&edit.replacement.text);
    }
    text
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use mojiscope_core::{BomHandling, SHIFT_JIS};

    use super::*;
    use crate::model::analysis::analyse;

    #[test]
    fn bytes_copy_as_hex_and_escapes() {
        let bytes = [0x61, 0x82, 0xA0, 0x62];
        let span = ByteSpan::new(1, 3);
        assert_eq!(hex_text(&bytes, span), "82 A0");
        assert_eq!(escaped_text(&bytes, span), "\\x82\\xA0");
        assert_eq!(hex_text(&bytes, ByteSpan::new(3, 9)), "62");
    }

    #[test]
    fn text_copies_as_the_pane_decodes_it() {
        let bytes = SHIFT_JIS.encode("aあいb").0;
        let cancel = AtomicBool::new(false);
        let analysis =
            analyse(&bytes, SHIFT_JIS, BomHandling::Sniff, &cancel, &mut |_| {}).expect("done");
        assert_eq!(decoded_text(&bytes, &analysis, ByteSpan::new(1, 5)), "あい");
        assert_eq!(
            decoded_text(&bytes, &analysis, ByteSpan::new(0, 6)),
            "aあいb"
        );
    }

    #[test]
    fn text_copies_with_the_reinterpretations_the_pane_shows() {
        use crate::model::repair::manual::{EditOrigin, Reinterpreted};

        // "x cafÃ©!" in UTF-8, "Ã©" (bytes 5..9) put back as "é".
        let bytes = "x cafÃ©!".as_bytes();
        let cancel = AtomicBool::new(false);
        let analysis = analyse(
            bytes,
            mojiscope_core::UTF_8,
            BomHandling::None,
            &cancel,
            &mut |_| {},
        )
        .expect("done");
        let edits = [Edit {
            span: ByteSpan::new(5, 9),
            original: "Ã©".to_owned(),
            replacement: Reinterpreted {
                text: "é".to_owned(),
                lost: Vec::new(),
            },
            how: "UTF-8 read as windows-1252".to_owned(),
            origin: EditOrigin::ByHand,
        }];
        let all = ByteSpan::new(0, bytes.len() as u64);
        assert_eq!(shown_text(bytes, &analysis, all, &edits), "x café!");
        // Ending in it: the edit starts in the selection, and is copied.
        let to_middle = ByteSpan::new(2, 7);
        assert_eq!(shown_text(bytes, &analysis, to_middle, &edits), "café");
        // Starting in it: it starts before, and nothing of it is copied.
        let from_middle = ByteSpan::new(7, 10);
        assert_eq!(shown_text(bytes, &analysis, from_middle, &edits), "!");
        assert_eq!(shown_text(bytes, &analysis, all, &[]), "x cafÃ©!");
    }
}
