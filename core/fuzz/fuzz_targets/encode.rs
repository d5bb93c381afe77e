//! Every encoder in html mode on any text: no panic; the output equals
//! encoding_rs's; fatal mode stops at the first character html mode reports.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mojiscope_core::{ALL, EncodeErrorMode, Encoder, EncoderResult};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let encoding = ALL[usize::from(selector) % ALL.len()];

    let (bytes, output_encoding, unmappable) = encoding.encode(text);
    let theirs = encoding_rs::Encoding::for_label(encoding.name().as_bytes()).expect("known encoding");
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
});
