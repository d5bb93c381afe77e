//! Test helpers shared by every codec's tests: one case runs through every
//! entry point (one-shot, split at every position, byte at a time, both error
//! modes, with an ASCII prefix) and the text *and* spans are checked.

use crate::decoder::{BomHandling, DecodeErrorMode, Decoder, DecoderResult};
use crate::encoder::{EncodeErrorMode, Encoder, EncoderResult, write_html_reference};
use crate::encoding::Encoding;
use crate::provenance::{ByteSpan, DecodeErrorKind, SkipReason, Trace, TraceItem, TraceKind};

/// An expected decoder item, with the number of bytes it covers.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Item {
    /// A scalar value.
    S(char, u64),
    /// Two scalar values from one sequence.
    P(char, char, u64),
    /// An error.
    E(DecodeErrorKind, u64),
    /// Skipped bytes.
    K(SkipReason, u64),
}

/// Expected items turned into trace items with spans from offset `start`.
pub(crate) fn expected_trace(items: &[Item], start: u64) -> Vec<TraceItem> {
    let mut byte_offset = start;
    items
        .iter()
        .map(|item| {
            let (kind, len) = match *item {
                Item::S(c, len) => (TraceKind::Scalar(c), len),
                Item::P(a, b, len) => (TraceKind::Pair(a, b), len),
                Item::E(kind, len) => (TraceKind::Error(kind), len),
                Item::K(reason, len) => (TraceKind::Skip(reason), len),
            };
            let span = ByteSpan::new(byte_offset, byte_offset + len);
            byte_offset += len;
            TraceItem { span, kind }
        })
        .collect()
}

/// Decodes `chunks` in replacement mode, without BOM handling.
pub(crate) fn trace_chunks(encoding: &'static Encoding, chunks: &[&[u8]]) -> Trace {
    let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
    let mut trace = Trace::new();
    for (position, chunk) in chunks.iter().enumerate() {
        let last = position + 1 == chunks.len();
        let (result, read) = decoder.decode(chunk, last, &mut trace);
        assert_eq!((result, read), (DecoderResult::InputEmpty, chunk.len()));
    }
    if chunks.is_empty() {
        let _ = decoder.decode(b"", true, &mut trace);
    }
    trace
}

/// Decodes `bytes` in fatal mode in the given chunks, going on after each
/// error; returns the text and the errors.
pub(crate) fn fatal_chunks(
    encoding: &'static Encoding,
    chunks: &[&[u8]],
) -> (String, Vec<(ByteSpan, DecodeErrorKind)>) {
    let mut decoder = Decoder::new(encoding, DecodeErrorMode::Fatal, BomHandling::None);
    let mut text = String::new();
    let mut errors = Vec::new();
    for (position, chunk) in chunks.iter().enumerate() {
        let last = position + 1 == chunks.len();
        let mut rest: &[u8] = chunk;
        loop {
            let (result, read) = decoder.decode(rest, last, &mut text);
            rest = &rest[read..];
            match result {
                DecoderResult::InputEmpty => break,
                DecoderResult::Malformed { kind, span } => errors.push((span, kind)),
            }
        }
        assert!(rest.is_empty());
    }
    (text, errors)
}

/// Checks one decoder case through every entry point.
#[track_caller]
pub(crate) fn check_decode(encoding: &'static Encoding, bytes: &[u8], expected: &[Item]) {
    let want = expected_trace(expected, 0);
    let covered: u64 = want.iter().map(|item| item.span.len()).sum();
    assert_eq!(
        covered,
        bytes.len() as u64,
        "the expected items must cover the input"
    );

    // One-shot.
    let whole = trace_chunks(encoding, &[bytes]);
    let items: Vec<TraceItem> = whole.items().collect();
    assert_eq!(items, want, "one-shot decode of {bytes:02X?}");
    assert_eq!(whole.len(), want.len() as u64);
    for item in &want {
        for byte_offset in item.span.start..item.span.end {
            assert_eq!(
                whole.item_at_byte(byte_offset),
                Some(*item),
                "item at {byte_offset}"
            );
        }
    }
    assert_eq!(whole.item_at_byte(bytes.len() as u64), None);

    // The plain String sink gives the same text.
    let mut plain = String::new();
    let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
    let _ = decoder.decode(bytes, true, &mut plain);
    assert_eq!(plain, whole.text);
    // So do the one-shot decode and the UTF-8 bytes sink.
    let decoded = encoding.decode_with_bom_handling(bytes, BomHandling::None);
    assert_eq!(decoded.text, whole.text, "one-shot decode");
    assert_eq!(decoded.had_errors, whole.error_count() > 0);
    let mut utf8 = Vec::new();
    let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
    let _ = decoder.decode(bytes, true, &mut utf8);
    assert_eq!(utf8, whole.text.as_bytes(), "UTF-8 bytes sink");

    // Split at every position, into three pieces at every pair of positions
    // for short inputs, and byte at a time.
    for split in 0..=bytes.len() {
        let (a, b) = bytes.split_at(split);
        assert_eq!(trace_chunks(encoding, &[a, b]), whole, "split at {split}");
        if bytes.len() <= 12 {
            for second in split..=bytes.len() {
                let (b1, b2) = b.split_at(second - split);
                assert_eq!(
                    trace_chunks(encoding, &[a, b1, b2]),
                    whole,
                    "split at {split} and {second}"
                );
            }
        }
    }
    let singles: Vec<&[u8]> = bytes.chunks(1).collect();
    assert_eq!(trace_chunks(encoding, &singles), whole, "byte at a time");

    // Fatal mode stops at each error with the same span and kind, and the text
    // between errors is the same.
    let errors: Vec<_> = whole.errors().collect();
    let text_without_errors: String = items
        .iter()
        .filter(|item| !matches!(item.kind, TraceKind::Error(_)))
        .fold(String::new(), |mut text, item| {
            item.push_text(&mut text);
            text
        });
    assert_eq!(
        fatal_chunks(encoding, &[bytes]),
        (text_without_errors.clone(), errors.clone()),
        "fatal mode"
    );
    assert_eq!(
        fatal_chunks(encoding, &singles),
        (text_without_errors, errors),
        "fatal mode, byte at a time"
    );

    // An ASCII prefix shifts every span and changes nothing else.
    if encoding.is_ascii_compatible() {
        let mut padded = b"ab".to_vec();
        padded.extend_from_slice(bytes);
        let shifted = trace_chunks(encoding, &[&padded]);
        let mut want_shifted = expected_trace(&[Item::S('a', 1), Item::S('b', 1)], 0);
        want_shifted.extend(expected_trace(expected, 2));
        assert_eq!(
            shifted.items().collect::<Vec<_>>(),
            want_shifted,
            "after an ASCII prefix"
        );
    }
}

/// What [`encode_chunks`] saw: the bytes, each unencodable character with its
/// UTF-8 offset and character index, and how many bytes had been written when
/// each was reported.
pub(crate) type EncodeRecord = (Vec<u8>, Vec<(char, u64, u64)>, Vec<usize>);

/// Encodes `chunks` in the given mode, going on after each unencodable
/// character.
pub(crate) fn encode_chunks(
    encoding: &'static Encoding,
    chunks: &[&str],
    mode: EncodeErrorMode,
) -> EncodeRecord {
    let mut encoder = Encoder::new(encoding, mode);
    let mut bytes = Vec::new();
    let mut unmappables = Vec::new();
    let mut error_positions = Vec::new();
    for (position, chunk) in chunks.iter().enumerate() {
        let last = position + 1 == chunks.len();
        let mut rest: &str = chunk;
        loop {
            let (result, read) = encoder.encode(rest, last, &mut bytes);
            rest = &rest[read..];
            match result {
                EncoderResult::InputEmpty => break,
                EncoderResult::Unmappable(unmappable) => {
                    unmappables.push((
                        unmappable.character,
                        unmappable.utf8_offset,
                        unmappable.char_index,
                    ));
                    error_positions.push(bytes.len());
                }
            }
        }
    }
    (bytes, unmappables, error_positions)
}

/// Checks one encoder case: `expected` is the html-mode output, and
/// `unmappable` the characters that cannot be encoded, in order.
#[track_caller]
pub(crate) fn check_encode(
    encoding: &'static Encoding,
    text: &str,
    expected: &[u8],
    unmappable: &[char],
) {
    let (html, html_unmappables, _) = encode_chunks(encoding, &[text], EncodeErrorMode::Html);
    assert_eq!(html, expected, "html mode: {html:02X?}");
    let chars: Vec<char> = html_unmappables.iter().map(|u| u.0).collect();
    assert_eq!(chars, unmappable, "unencodable characters");
    for &(c, utf8_offset, char_index) in &html_unmappables {
        let utf8_offset = usize::try_from(utf8_offset).unwrap();
        assert_eq!(text[utf8_offset..].chars().next(), Some(c));
        assert_eq!(text[..utf8_offset].chars().count() as u64, char_index);
    }

    // Fatal mode reports the same characters at the same places, writing
    // nothing for them: putting the references back gives the html output.
    let (fatal, fatal_unmappables, positions) =
        encode_chunks(encoding, &[text], EncodeErrorMode::Fatal);
    assert_eq!(fatal_unmappables, html_unmappables);
    let mut rebuilt = Vec::new();
    let mut previous = 0;
    for (&position, &(c, _, _)) in positions.iter().zip(&fatal_unmappables) {
        rebuilt.extend_from_slice(&fatal[previous..position]);
        let reported =
            if matches!(c, '\u{0E}' | '\u{0F}' | '\u{1B}') && encoding == crate::ISO_2022_JP {
                '\u{FFFD}'
            } else {
                c
            };
        write_html_reference(reported, &mut rebuilt);
        previous = position;
    }
    rebuilt.extend_from_slice(&fatal[previous..]);
    assert_eq!(rebuilt, expected, "fatal mode with the references put back");

    // Split at every character boundary.
    for (split, _) in text.char_indices().skip(1) {
        let (a, b) = text.split_at(split);
        assert_eq!(
            encode_chunks(encoding, &[a, b], EncodeErrorMode::Html).0,
            expected,
            "split at {split}"
        );
    }
}

/// All of `bytes` decoded by this crate in replacement mode, without BOM
/// handling.
pub(crate) fn decode_replacing(encoding: &'static Encoding, bytes: &[u8]) -> String {
    let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
    let mut text = String::new();
    let _ = decoder.decode(bytes, true, &mut text);
    text
}

/// What an encoding does otherwise than the oracle, one entry each.
pub(crate) struct Differences<T> {
    encoding: &'static Encoding,
    found: Vec<T>,
}

impl<T: std::fmt::Debug> Differences<T> {
    /// Fails with how many differences there are, and the first ones.
    #[track_caller]
    pub(crate) fn assert_none(&self) {
        assert!(
            self.found.is_empty(),
            "{}: {} differences, first: {:02X?}",
            self.encoding,
            self.found.len(),
            &self.found[..self.found.len().min(5)]
        );
    }
}

/// Each sequence of `prefix` and two bytes (every pair) that this crate
/// decodes ([`decode_replacing`]) otherwise than `oracle`: the bytes, our
/// text, the oracle's.
pub(crate) fn pair_differences(
    encoding: &'static Encoding,
    oracle: &'static encoding_rs::Encoding,
    prefix: &[u8],
) -> Differences<(Vec<u8>, String, String)> {
    let mut found = Vec::new();
    let mut bytes = prefix.to_vec();
    for first in 0..=255_u8 {
        for second in 0..=255_u8 {
            bytes.truncate(prefix.len());
            bytes.extend_from_slice(&[first, second]);
            let ours = decode_replacing(encoding, &bytes);
            let (theirs, _) = oracle.decode_without_bom_handling(&bytes);
            if ours != theirs {
                found.push((bytes.clone(), ours, theirs.into_owned()));
            }
        }
    }
    Differences { encoding, found }
}

/// Each scalar value that this crate encodes (the standard's encode, html
/// mode) otherwise than `oracle`: the character, our bytes, the oracle's.
/// Blocks of 256 code points are compared first, then one character at a
/// time where a block differs.
pub(crate) fn scalar_differences(
    encoding: &'static Encoding,
    oracle: &'static encoding_rs::Encoding,
) -> Differences<(char, Vec<u8>, Vec<u8>)> {
    let mut found = Vec::new();
    for block in 0..=0x10FF_u32 {
        let text: String = (block << 8..(block + 1) << 8)
            .filter_map(char::from_u32)
            .collect();
        let (theirs, _, _) = oracle.encode(&text);
        if encoding.encode(&text).0 == *theirs {
            continue;
        }
        for c in text.chars() {
            let one = c.to_string();
            let (theirs, _, _) = oracle.encode(&one);
            let ours = encoding.encode(&one).0;
            if ours != *theirs {
                found.push((c, ours, theirs.into_owned()));
            }
        }
    }
    Differences { encoding, found }
}
