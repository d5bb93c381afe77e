//! Every decoder, both error modes, with and without BOM sniffing, on any
//! bytes: no panic; the trace's spans are contiguous and cover the input;
//! decoding in the chunks the input asks for equals the one-shot decode;
//! fatal mode stops exactly at replacement mode's first error; and the text
//! equals encoding_rs's.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mojiscope_core::{ALL, BomHandling, ByteSpan, DecodeErrorMode, Decoder, DecoderResult, Trace};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Some((&split_seed, bytes)) = rest.split_first() else {
        return;
    };
    let encoding = ALL[usize::from(selector) % ALL.len()];
    let bom = match selector / 64 {
        0 => BomHandling::None,
        1 => BomHandling::Sniff,
        _ => BomHandling::RemoveUtf8,
    };

    // One-shot, traced.
    let mut whole = Trace::new();
    let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, bom);
    let (result, read) = decoder.decode(bytes, true, &mut whole);
    assert_eq!((result, read), (DecoderResult::InputEmpty, bytes.len()));
    let mut next = 0;
    for item in whole.items() {
        assert_eq!(item.span.start, next, "spans must be contiguous");
        assert!(item.span.end > item.span.start, "spans must not be empty");
        next = item.span.end;
    }
    assert_eq!(next, bytes.len() as u64, "spans must cover the input");

    // The same in chunks whose lengths come from the seed.
    let mut chunked = Trace::new();
    let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, bom);
    let mut position = 0;
    let mut seed = u32::from(split_seed) | 1;
    while position < bytes.len() {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        let len = (seed as usize % 7).min(bytes.len() - position);
        let chunk = &bytes[position..position + len];
        position += len;
        let _ = decoder.decode(chunk, false, &mut chunked);
    }
    let _ = decoder.decode(b"", true, &mut chunked);
    assert_eq!(chunked.text, whole.text);
    assert!(chunked.items().eq(whole.items()), "chunked items differ");

    // Fatal mode stops at the first error with its span.
    let first_error: Option<ByteSpan> = whole.errors().next().map(|(span, _)| span);
    let mut text = String::new();
    let mut decoder = Decoder::new(encoding, DecodeErrorMode::Fatal, bom);
    match decoder.decode(bytes, true, &mut text) {
        (DecoderResult::InputEmpty, _) => assert_eq!(first_error, None),
        (DecoderResult::Malformed { span, .. }, _) => assert_eq!(Some(span), first_error),
    }

    // The oracle.
    let theirs =
        encoding_rs::Encoding::for_label(encoding.name().as_bytes()).expect("known encoding");
    let expected = match bom {
        BomHandling::None => theirs.decode_without_bom_handling(bytes).0,
        BomHandling::Sniff => theirs.decode(bytes).0,
        BomHandling::RemoveUtf8 => theirs.decode_with_bom_removal(bytes).0,
    };
    if bom != BomHandling::RemoveUtf8 || encoding.name() == "UTF-8" {
        assert_eq!(whole.text, expected);
    }
});
