//! Every encoder in both error modes on any text: no panic; the html output
//! equals encoding_rs's; fatal mode stops at the first character html mode
//! reports; and encoding in pieces (split at character boundaries the input
//! asks for) writes the same bytes and reports the same characters at the
//! same offsets as encoding at once, ISO-2022-JP's state included.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mojiscope_core::{ALL, EncodeErrorMode, Encoder, EncoderResult, Unmappable};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Some((&split_seed, rest)) = rest.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let encoding = ALL[usize::from(selector) % ALL.len()];

    let (bytes, output_encoding, unmappable) = encoding.encode(text);
    let theirs =
        encoding_rs::Encoding::for_label(encoding.name().as_bytes()).expect("known encoding");
    let (expected, expected_encoding, _) = theirs.encode(text);
    assert_eq!(output_encoding.name(), expected_encoding.name());
    assert_eq!(bytes, expected.as_ref());

    let mut encoder = Encoder::new(encoding, EncodeErrorMode::Fatal);
    let mut out = Vec::new();
    match encoder.encode(text, true, &mut out) {
        (EncoderResult::InputEmpty, read) => {
            assert!(unmappable.is_empty());
            assert_eq!(read, text.len());
        }
        (EncoderResult::Unmappable(first), _) => assert_eq!(Some(&first), unmappable.first()),
    }

    // In pieces of up to 7 bytes, cut back to a character boundary.
    let mut encoder = Encoder::new(encoding, EncodeErrorMode::Html);
    let mut pieces_out = Vec::new();
    let mut pieces_unmappable: Vec<Unmappable> = Vec::new();
    let mut position = 0;
    let mut seed = u32::from(split_seed) | 1;
    loop {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        let mut end = (position + seed as usize % 8).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let last = end == text.len();
        let mut piece = &text[position..end];
        loop {
            let (result, read) = encoder.encode(piece, last, &mut pieces_out);
            piece = &piece[read..];
            match result {
                EncoderResult::InputEmpty => break,
                EncoderResult::Unmappable(found) => pieces_unmappable.push(found),
            }
        }
        position = end;
        if last {
            break;
        }
    }
    assert_eq!(pieces_out, bytes, "pieces write what one call writes");
    assert_eq!(
        pieces_unmappable, unmappable,
        "pieces report what one call reports"
    );
});
