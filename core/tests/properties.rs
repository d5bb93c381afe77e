//! Properties of the engine that hold for every encoding and every input,
//! checked with proptest over bytes shaped like each encoding's sequences
//! (leads, trails, escapes, four-byte pieces, surrogates, byte order marks)
//! and over text drawn from the legacy repertoires.
//!
//! Each property runs [`CASES`] cases for each of the 40 encodings (set
//! `PROPTEST_CASES` to change it); failing seeds are kept in
//! `core/proptest-regressions/properties.txt` and replayed first.

use std::fmt::Write as _;

use mojiscope_core::{
    ALL, BIG5, BomHandling, ByteSpan, DecodeErrorKind, DecodeErrorMode, Decoder, DecoderResult,
    EUC_JP, EUC_KR, EncodeErrorMode, Encoder, EncoderResult, Encoding, GB18030, GBK, ISO_2022_JP,
    SHIFT_JIS, SkipReason, Trace, TraceKind, UTF_8, UTF_16BE, UTF_16LE, X_USER_DEFINED,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, TestCaseResult, TestRunner};

/// Cases per encoding and property.
const CASES: u32 = 256;

/// A proptest configuration with `cases` cases (or `PROPTEST_CASES`) that
/// keeps failing seeds in `core/proptest-regressions/properties.txt` (the
/// default persistence looks for a `lib.rs` beside the source, which an
/// integration test has not).
fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    Config {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/properties.txt",
        ))),
        source_file: Some(file!()),
        ..Config::with_cases(cases)
    }
}

/// Runs `property` on `CASES` values of `strategy(encoding)` for every
/// encoding, shrinking and reporting the first failure.
fn for_every_encoding<S: Strategy>(
    strategy: impl Fn(&'static Encoding) -> S,
    property: impl Fn(&'static Encoding, S::Value) -> TestCaseResult,
) {
    for encoding in ALL {
        let mut runner = TestRunner::new(config(CASES));
        if let Err(error) = runner.run(&strategy(encoding), |value| property(encoding, value)) {
            panic!("{encoding}: {error}");
        }
    }
}

// ---------------------------------------------------------------------------
// Strategies

/// Byte order marks and partial ones.
const BOMS: [&[u8]; 6] = [
    b"\xEF\xBB\xBF",
    b"\xFE\xFF",
    b"\xFF\xFE",
    b"\xEF\xBB",
    b"\xEF",
    b"\xFF",
];

/// ISO-2022-JP escape sequences, valid and not.
const ESCAPES: [&[u8]; 11] = [
    b"\x1B$B", b"\x1B$@", b"\x1B(B", b"\x1B(J", b"\x1B(I", b"\x1B", b"\x1B$", b"\x1B(", b"\x1B$A",
    b"\x1B(C", b"\x1B.A",
];

fn byte_in(low: u8, high: u8) -> BoxedStrategy<Vec<u8>> {
    (low..=high).prop_map(|byte| vec![byte]).boxed()
}

fn one_of_sequences(sequences: &'static [&'static [u8]]) -> BoxedStrategy<Vec<u8>> {
    proptest::sample::select(sequences)
        .prop_map(<[u8]>::to_vec)
        .boxed()
}

/// A lead byte from `leads` followed by a trail byte from `trails`.
fn lead_trail(leads: (u8, u8), trails: &'static [(u8, u8)]) -> BoxedStrategy<Vec<u8>> {
    let trail = proptest::sample::select(trails).prop_flat_map(|(low, high)| low..=high);
    (leads.0..=leads.1, trail)
        .prop_map(|(lead, trail)| vec![lead, trail])
        .boxed()
}

/// Pieces typical of `encoding`'s own sequences.
fn own_pieces(encoding: &'static Encoding) -> BoxedStrategy<Vec<u8>> {
    if encoding == GB18030 || encoding == GBK {
        prop_oneof![
            lead_trail(
                (0x81, 0xFE),
                &[(0x40, 0x7E), (0x80, 0xFE), (0x30, 0x39), (0x00, 0xFF)]
            ),
            // Four-byte sequences, whole or cut.
            (
                (0x81..=0xFEu8, 0x30..=0x39u8, 0x81..=0xFEu8, 0x30..=0x39u8),
                1..=4usize
            )
                .prop_map(|((a, b, c, d), len)| [a, b, c, d][..len].to_vec()),
            one_of_sequences(&[
                b"\x81\x35\xF4\x37",
                b"\x84\x31\xA4\x39",
                b"\x84\x31\xA5\x30",
                b"\xE3\x32\x9A\x35",
                b"\xE3\x32\x9A\x36",
                b"\xA6\xD9",
                b"\xA3\xA0",
                b"\x80",
                b"\xFF"
            ]),
        ]
        .boxed()
    } else if encoding == BIG5 {
        prop_oneof![
            lead_trail((0x81, 0xFE), &[(0x40, 0x7E), (0xA1, 0xFE), (0x00, 0xFF)]),
            one_of_sequences(&[
                b"\x88\x62",
                b"\x88\x64",
                b"\x88\xA3",
                b"\x88\xA5",
                b"\x80",
                b"\xFF"
            ]),
        ]
        .boxed()
    } else if encoding == EUC_KR {
        lead_trail((0x81, 0xFE), &[(0x41, 0xFE), (0x00, 0xFF)])
    } else if encoding == SHIFT_JIS {
        prop_oneof![
            lead_trail((0x81, 0x9F), &[(0x40, 0x7E), (0x80, 0xFC), (0x00, 0xFF)]),
            lead_trail((0xE0, 0xFC), &[(0x40, 0x7E), (0x80, 0xFC), (0x00, 0xFF)]),
            byte_in(0xA1, 0xDF),
        ]
        .boxed()
    } else if encoding == EUC_JP {
        prop_oneof![
            lead_trail((0xA1, 0xFE), &[(0xA1, 0xFE), (0x00, 0xFF)]),
            lead_trail((0x8E, 0x8E), &[(0xA1, 0xDF), (0x00, 0xFF)]),
            (0xA1..=0xFEu8, 0xA1..=0xFEu8).prop_map(|(a, b)| vec![0x8F, a, b]),
            byte_in(0x8F, 0x8F),
        ]
        .boxed()
    } else if encoding == ISO_2022_JP {
        prop_oneof![
            one_of_sequences(&ESCAPES),
            lead_trail((0x21, 0x7E), &[(0x21, 0x7E), (0x00, 0xFF)]),
            one_of_sequences(&[b"\x0E", b"\x0F", b"\x5C", b"\x7E", b"\x1B\x1B"]),
        ]
        .boxed()
    } else if encoding == UTF_16BE || encoding == UTF_16LE {
        // Code units, surrogates especially, in either byte order.
        (
            prop_oneof![
                Just(0xD8u8),
                Just(0xDB),
                Just(0xDC),
                Just(0xDF),
                any::<u8>()
            ],
            any::<u8>(),
            any::<bool>(),
        )
            .prop_map(|(high, low, swap)| {
                if swap {
                    vec![low, high]
                } else {
                    vec![high, low]
                }
            })
            .boxed()
    } else if encoding == UTF_8 {
        (any::<char>(), 1..=4usize)
            .prop_map(|(c, cut)| {
                let mut buffer = [0; 4];
                let bytes = c.encode_utf8(&mut buffer).as_bytes();
                bytes[..cut.min(bytes.len())].to_vec()
            })
            .boxed()
    } else {
        byte_in(0x80, 0xFF)
    }
}

/// Bytes made of pieces, biased towards `encoding`'s own sequences but
/// with every other encoding's pieces too, a byte order mark at times.
fn bytes_for(encoding: &'static Encoding) -> BoxedStrategy<Vec<u8>> {
    let piece = prop_oneof![
        4 => own_pieces(encoding),
        2 => byte_in(0x00, 0x7F),
        1 => any::<u8>().prop_map(|byte| vec![byte]),
        1 => own_pieces(GB18030),
        1 => own_pieces(ISO_2022_JP),
        1 => own_pieces(UTF_16BE),
        1 => own_pieces(UTF_8),
        1 => own_pieces(EUC_JP),
        1 => one_of_sequences(&BOMS),
    ];
    (
        proptest::option::weighted(0.25, one_of_sequences(&BOMS)),
        proptest::collection::vec(piece, 0..32),
    )
        .prop_map(|(bom, pieces)| bom.into_iter().chain(pieces).flatten().collect())
        .boxed()
}

/// Text drawn from the legacy repertoires and their special cases.
fn text() -> BoxedStrategy<String> {
    let c = prop_oneof![
        3 => proptest::char::range('\0', '\u{7F}').boxed(),
        1 => proptest::sample::select(&[
            '\u{0E}', '\u{0F}', '\u{1B}', '\\', '~', '¥', '‾', '−', '€', '\u{80}', '\u{E5E5}', '\u{E7C7}', '\u{3000}',
            '\u{FEFF}', '\u{FFFD}', '\u{E78D}', '\u{E796}', '\u{E81E}', '\u{E864}', '\u{FE10}', '\u{FFFF}',
        ][..]).boxed(),
        1 => proptest::char::range('\u{80}', '\u{2FF}').boxed(),
        1 => proptest::char::range('\u{370}', '\u{52F}').boxed(),
        1 => proptest::char::range('\u{2000}', '\u{33FF}').boxed(),
        2 => proptest::char::range('\u{4E00}', '\u{9FFF}').boxed(),
        1 => proptest::char::range('\u{AC00}', '\u{D7A3}').boxed(),
        1 => proptest::char::range('\u{E000}', '\u{F8FF}').boxed(),
        1 => proptest::char::range('\u{F900}', '\u{FFFF}').boxed(),
        1 => proptest::char::range('\u{FF61}', '\u{FF9F}').boxed(),
        1 => any::<char>().boxed(),
    ];
    proptest::collection::vec(c, 0..24)
        .prop_map(String::from_iter)
        .boxed()
}

const BOM_HANDLINGS: [BomHandling; 3] = [
    BomHandling::None,
    BomHandling::Sniff,
    BomHandling::RemoveUtf8,
];

// ---------------------------------------------------------------------------
// Helpers

/// A fatal-mode decode that goes on after each error: the text, with
/// U+FFFD where each error was, and the errors.
fn fatal_going_on(
    decoder: &mut Decoder,
    chunks: &[&[u8]],
    text: &mut String,
    errors: &mut Vec<(ByteSpan, DecodeErrorKind)>,
) {
    for (position, chunk) in chunks.iter().enumerate() {
        let last = position + 1 == chunks.len();
        let mut rest = *chunk;
        loop {
            let (result, read) = decoder.decode(rest, last, text);
            rest = &rest[read..];
            match result {
                DecoderResult::InputEmpty => break,
                DecoderResult::Malformed { kind, span } => {
                    text.push(char::REPLACEMENT_CHARACTER);
                    errors.push((span, kind));
                }
            }
        }
        assert!(rest.is_empty(), "input left over");
    }
}

/// [`fatal_going_on`] into a sink that keeps only the text, as UTF-8.
fn fatal_going_on_as_utf8(
    decoder: &mut Decoder,
    chunks: &[&[u8]],
    utf8: &mut Vec<u8>,
    errors: &mut Vec<(ByteSpan, DecodeErrorKind)>,
) {
    for (position, chunk) in chunks.iter().enumerate() {
        let last = position + 1 == chunks.len();
        let mut rest = *chunk;
        loop {
            let (result, read) = decoder.decode(rest, last, utf8);
            rest = &rest[read..];
            match result {
                DecoderResult::InputEmpty => break,
                DecoderResult::Malformed { kind, span } => {
                    utf8.extend_from_slice("\u{FFFD}".as_bytes());
                    errors.push((span, kind));
                }
            }
        }
        assert!(rest.is_empty(), "input left over");
    }
}

/// `bytes` cut at the given points (sorted, deduplicated, in range).
fn split<'a>(bytes: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut points: Vec<usize> = cuts.iter().map(|&cut| cut % (bytes.len() + 1)).collect();
    points.sort_unstable();
    points.dedup();
    let mut chunks = Vec::new();
    let mut start = 0;
    for point in points {
        chunks.push(&bytes[start..point]);
        start = point;
    }
    chunks.push(&bytes[start..]);
    chunks
}

/// Describes where a trace breaks the span rules, if it does.
fn span_violation(trace: &Trace, len: usize) -> Option<String> {
    let mut expected_start = 0;
    for (position, item) in trace.items().enumerate() {
        if item.span.start != expected_start {
            return Some(format!(
                "item {position} {item:?} starts at {}, expected {expected_start}",
                item.span.start
            ));
        }
        if item.span.is_empty() {
            return Some(format!("item {position} {item:?} is empty"));
        }
        if item.kind == TraceKind::Skip(SkipReason::Bom) && position != 0 {
            return Some(format!("item {position} is a byte order mark"));
        }
        expected_start = item.span.end;
    }
    (expected_start != len as u64).then(|| format!("items end at {expected_start}, input at {len}"))
}

// ---------------------------------------------------------------------------
// Decoder properties

#[test]
fn decoding_never_panics() {
    for_every_encoding(bytes_for, |encoding, bytes| {
        for bom in BOM_HANDLINGS {
            let _ = encoding.decode_with_bom_handling(&bytes, bom);
            let _ = encoding.decode_fatal(&bytes, bom);
            let _ = encoding.decode_traced(&bytes, bom);
            let mut decoder = Decoder::new(encoding, DecodeErrorMode::Fatal, bom);
            fatal_going_on(&mut decoder, &[&bytes], &mut String::new(), &mut Vec::new());
        }
        Ok(())
    });
}

#[test]
fn traced_spans_cover_the_input_once_in_order_and_the_text_matches() {
    for_every_encoding(bytes_for, |encoding, bytes| {
        for bom in BOM_HANDLINGS {
            let (trace, used) = encoding.decode_traced(&bytes, bom);
            prop_assert_eq!(span_violation(&trace, bytes.len()), None, "{:?}", bom);
            let plain = encoding.decode_with_bom_handling(&bytes, bom);
            prop_assert_eq!(&trace.text, &plain.text);
            prop_assert_eq!(used, plain.encoding);
            let mut rebuilt = String::new();
            for item in trace.items() {
                item.push_text(&mut rebuilt);
            }
            prop_assert_eq!(&rebuilt, &trace.text);
            let errors = trace.errors().count() as u64;
            prop_assert_eq!(trace.error_count(), errors);
            prop_assert_eq!(trace.len(), trace.items().count() as u64);
            for item in trace.items() {
                prop_assert_eq!(trace.item_at_byte(item.span.start), Some(item));
                prop_assert_eq!(trace.item_at_byte(item.span.end - 1), Some(item));
            }
            prop_assert_eq!(trace.item_at_byte(bytes.len() as u64), None);
            prop_assert_eq!(plain.had_errors, errors > 0);
        }
        Ok(())
    });
}

#[test]
fn streaming_with_any_chunks_equals_one_shot() {
    let strategy = |encoding| {
        (
            bytes_for(encoding),
            proptest::collection::vec(any::<usize>(), 0..6),
            any::<bool>(),
            any::<bool>(),
        )
    };
    for_every_encoding(
        strategy,
        |encoding, (bytes, cuts, byte_at_a_time, empty_last)| {
            let mut chunks = if byte_at_a_time {
                bytes.chunks(1).collect()
            } else {
                split(&bytes, &cuts)
            };
            if empty_last {
                chunks.push(&[]);
            }
            for bom in BOM_HANDLINGS {
                let (one_shot, used) = encoding.decode_traced(&bytes, bom);
                let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, bom);
                let mut streamed = Trace::new();
                for (position, chunk) in chunks.iter().enumerate() {
                    let last = position + 1 == chunks.len();
                    let (result, read) = decoder.decode(chunk, last, &mut streamed);
                    prop_assert_eq!((result, read), (DecoderResult::InputEmpty, chunk.len()));
                }
                prop_assert_eq!(&streamed, &one_shot, "{:?} in chunks {:?}", bom, chunks);
                // A sink that keeps only the text, as UTF-8 bytes, takes the
                // decoders' text-only fast paths: the same text.
                let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, bom);
                let mut utf8 = Vec::new();
                for (position, chunk) in chunks.iter().enumerate() {
                    let last = position + 1 == chunks.len();
                    let (result, read) = decoder.decode(chunk, last, &mut utf8);
                    prop_assert_eq!((result, read), (DecoderResult::InputEmpty, chunk.len()));
                }
                prop_assert_eq!(
                    utf8.as_slice(),
                    one_shot.text.as_bytes(),
                    "text only, {:?} in chunks {:?}",
                    bom,
                    chunks
                );
                prop_assert_eq!(decoder.encoding(), used);
                prop_assert_eq!(decoder.byte_offset(), bytes.len() as u64);
                prop_assert!(!decoder.has_pending());

                let (mut one_shot_text, mut one_shot_errors) = (String::new(), Vec::new());
                let mut decoder = Decoder::new(encoding, DecodeErrorMode::Fatal, bom);
                fatal_going_on(
                    &mut decoder,
                    &[&bytes],
                    &mut one_shot_text,
                    &mut one_shot_errors,
                );
                let (mut text, mut errors) = (String::new(), Vec::new());
                let mut decoder = Decoder::new(encoding, DecodeErrorMode::Fatal, bom);
                fatal_going_on(&mut decoder, &chunks, &mut text, &mut errors);
                let (mut utf8, mut utf8_errors) = (Vec::new(), Vec::new());
                let mut decoder = Decoder::new(encoding, DecodeErrorMode::Fatal, bom);
                fatal_going_on_as_utf8(&mut decoder, &chunks, &mut utf8, &mut utf8_errors);
                prop_assert_eq!(utf8.as_slice(), text.as_bytes(), "fatal, text only");
                prop_assert_eq!(&utf8_errors, &errors, "fatal, text only");
                prop_assert_eq!(
                    &text,
                    &one_shot_text,
                    "fatal, {:?} in chunks {:?}",
                    bom,
                    chunks
                );
                prop_assert_eq!(
                    &errors,
                    &one_shot_errors,
                    "fatal, {:?} in chunks {:?}",
                    bom,
                    chunks
                );
                prop_assert_eq!(decoder.byte_offset(), bytes.len() as u64);
            }
            Ok(())
        },
    );
}

#[test]
fn fatal_mode_stops_at_the_first_error_replacement_mode_reports() {
    for_every_encoding(bytes_for, |encoding, bytes| {
        for bom in BOM_HANDLINGS {
            let (trace, used) = encoding.decode_traced(&bytes, bom);
            let items: Vec<_> = trace.items().collect();
            let first_error = items
                .iter()
                .position(|item| matches!(item.kind, TraceKind::Error(_)));
            let mut text_before = String::new();
            for item in &items[..first_error.unwrap_or(items.len())] {
                item.push_text(&mut text_before);
            }

            let mut decoder = Decoder::new(encoding, DecodeErrorMode::Fatal, bom);
            let mut text = String::new();
            let (result, read) = decoder.decode(&bytes, true, &mut text);
            prop_assert_eq!(&text, &text_before);
            if let Some(error) = first_error.map(|position| items[position]) {
                let TraceKind::Error(kind) = error.kind else {
                    unreachable!()
                };
                prop_assert_eq!(
                    result,
                    DecoderResult::Malformed {
                        kind,
                        span: error.span
                    }
                );
                if bom == BomHandling::None {
                    // The error's bytes and those before it were read;
                    // any bytes restored after it were given back.
                    prop_assert_eq!(read as u64, error.span.end);
                }
                let one_shot = encoding.decode_fatal(&bytes, bom).expect_err("an error");
                prop_assert_eq!((one_shot.kind, one_shot.span), (kind, error.span));
            } else {
                prop_assert_eq!((result, read), (DecoderResult::InputEmpty, bytes.len()));
                prop_assert_eq!(
                    encoding.decode_fatal(&bytes, bom),
                    Ok((trace.text.clone(), used))
                );
            }

            // Going on after each error gives replacement mode's errors and text.
            let (mut text, mut errors) = (String::new(), Vec::new());
            let mut decoder = Decoder::new(encoding, DecodeErrorMode::Fatal, bom);
            fatal_going_on(&mut decoder, &[&bytes], &mut text, &mut errors);
            prop_assert_eq!(&text, &trace.text);
            prop_assert_eq!(errors, trace.errors().collect::<Vec<_>>());
        }
        Ok(())
    });
}

// ---------------------------------------------------------------------------
// Round trips

#[test]
fn decoded_text_encodes_back_to_the_same_bytes() {
    // The standard guarantees this for UTF-8, the single-byte encodings and
    // x-user-defined, whose decoders map each byte sequence to a distinct
    // code point that their encoders map back. The bytes are those of the
    // input's scalar values, so that every case has some.
    let round_trips = |encoding: &Encoding| {
        encoding == UTF_8 || encoding == X_USER_DEFINED || encoding.is_single_byte()
    };
    for_every_encoding(bytes_for, |encoding, bytes| {
        if !round_trips(encoding) {
            return Ok(());
        }
        let (trace, _) = encoding.decode_traced(&bytes, BomHandling::None);
        let mut valid = Vec::new();
        for item in trace.items() {
            if let TraceKind::Scalar(_) = item.kind {
                valid.extend_from_slice(&bytes[item.span.start as usize..item.span.end as usize]);
            }
        }
        let (text, _) = encoding
            .decode_fatal(&valid, BomHandling::None)
            .expect("scalar values' bytes decode");
        prop_assert_eq!(encoding.encode_fatal(&text), Ok(valid));
        Ok(())
    });
}

#[test]
fn encode_decode_encode_is_a_fixed_point() {
    for_every_encoding(
        |_| text(),
        |encoding, text| {
            let (bytes, output, _) = encoding.encode(&text);
            let decoded = output.decode_with_bom_handling(&bytes, BomHandling::None);
            prop_assert!(
                !decoded.had_errors,
                "{} decodes with errors: {:?}",
                output,
                decoded.text
            );
            let (again, _, unmappable) = output.encode(&decoded.text);
            prop_assert_eq!(again, bytes);
            prop_assert!(unmappable.is_empty());
            Ok(())
        },
    );
}

/// Index ISO-2022-JP katakana: U+FF61 to U+FF9F, in order.
const ISO_2022_JP_KATAKANA: [char; 63] = [
    '\u{3002}', '\u{300C}', '\u{300D}', '\u{3001}', '\u{30FB}', '\u{30F2}', '\u{30A1}', '\u{30A3}',
    '\u{30A5}', '\u{30A7}', '\u{30A9}', '\u{30E3}', '\u{30E5}', '\u{30E7}', '\u{30C3}', '\u{30FC}',
    '\u{30A2}', '\u{30A4}', '\u{30A6}', '\u{30A8}', '\u{30AA}', '\u{30AB}', '\u{30AD}', '\u{30AF}',
    '\u{30B1}', '\u{30B3}', '\u{30B5}', '\u{30B7}', '\u{30B9}', '\u{30BB}', '\u{30BD}', '\u{30BF}',
    '\u{30C1}', '\u{30C4}', '\u{30C6}', '\u{30C8}', '\u{30CA}', '\u{30CB}', '\u{30CC}', '\u{30CD}',
    '\u{30CE}', '\u{30CF}', '\u{30D2}', '\u{30D5}', '\u{30D8}', '\u{30DB}', '\u{30DE}', '\u{30DF}',
    '\u{30E0}', '\u{30E1}', '\u{30E2}', '\u{30E4}', '\u{30E6}', '\u{30E8}', '\u{30E9}', '\u{30EA}',
    '\u{30EB}', '\u{30EC}', '\u{30ED}', '\u{30EF}', '\u{30F3}', '\u{309B}', '\u{309C}',
];

/// The gb18030 encoder's table of Private Use code points, and what index
/// gb18030 maps their bytes to.
const GB18030_ENCODER_TABLE: [(char, char); 18] = [
    ('\u{E78D}', '\u{FE10}'),
    ('\u{E78E}', '\u{FE12}'),
    ('\u{E78F}', '\u{FE11}'),
    ('\u{E790}', '\u{FE13}'),
    ('\u{E791}', '\u{FE14}'),
    ('\u{E792}', '\u{FE15}'),
    ('\u{E793}', '\u{FE16}'),
    ('\u{E794}', '\u{FE17}'),
    ('\u{E795}', '\u{FE18}'),
    ('\u{E796}', '\u{FE19}'),
    ('\u{E81E}', '\u{9FB4}'),
    ('\u{E826}', '\u{9FB5}'),
    ('\u{E82B}', '\u{9FB6}'),
    ('\u{E82C}', '\u{9FB7}'),
    ('\u{E832}', '\u{9FB8}'),
    ('\u{E843}', '\u{9FB9}'),
    ('\u{E854}', '\u{9FBA}'),
    ('\u{E864}', '\u{9FBB}'),
];

/// What an encodable `c` decodes back to after `encoding`'s encoder: itself,
/// except where the standard's encoder maps it to another code point's bytes.
fn after_round_trip(encoding: &Encoding, c: char) -> char {
    if encoding == EUC_JP || encoding == SHIFT_JIS {
        // EUC-JP and Shift_JIS encoders: "If codePoint is U+00A5 (¥), then
        // return byte 0x5C." "If codePoint is U+203E (‾), then return byte
        // 0x7E." "If codePoint is U+2212 (−), then set it to U+FF0D (－)."
        match c {
            '¥' => return '\\',
            '‾' => return '~',
            '−' => return '－',
            _ => {}
        }
    }
    if encoding == ISO_2022_JP {
        // ISO-2022-JP encoder: "If codePoint is U+2212 (−), then set it to
        // U+FF0D (－)." "If codePoint is in the range U+FF61 (｡) to U+FF9F (ﾟ),
        // inclusive, then set it to the index code point for codePoint −
        // 0xFF61 in index ISO-2022-JP katakana." (¥ and ‾ go through the Roman
        // state, whose decoder maps 0x5C and 0x7E back to them.)
        if c == '−' {
            return '－';
        }
        if ('\u{FF61}'..='\u{FF9F}').contains(&c) {
            return ISO_2022_JP_KATAKANA[(u32::from(c) - 0xFF61) as usize];
        }
    }
    if encoding == GB18030 || encoding == GBK {
        // gb18030 encoder: "If there is a row in the table below whose first
        // column is codePoint, then return the two bytes on the same row";
        // "This asymmetric encoder table preserves compatibility with the
        // GB18030-2005 standard": index gb18030 maps those bytes to the
        // GB18030-2022 code points.
        if let Some(&(_, decoded)) = GB18030_ENCODER_TABLE.iter().find(|(from, _)| *from == c) {
            return decoded;
        }
    }
    c
}

#[test]
fn html_output_decodes_to_the_input_with_a_reference_for_each_unencodable_character() {
    // This holds for every encoder, ISO-2022-JP's included: the standard's
    // note that "the concatenation of multiple outputs can result in an
    // error" (see `iso_2022_jp_concatenated_outputs` below) and the pit of
    // ISO-2022-JP ("if upon returning an error the ISO-2022-JP encoder is in
    // the Roman state, the caller cannot output 0x5C") concern separate
    // encoder runs and bytes a caller writes itself. Html mode writes only
    // "&#", digits and ";", which every ISO-2022-JP state with ASCII bytes
    // decodes as themselves, and one run's escapes always have text between
    // them. The differences the encoders themselves make are listed in
    // `after_round_trip`.
    for_every_encoding(
        |_| text(),
        |encoding, text| {
            let (bytes, output, unmappables) = encoding.encode(&text);
            let mut expected = String::new();
            let mut unmappables = unmappables.iter().peekable();
            for (index, c) in (0u64..).zip(text.chars()) {
                if let Some(unmappable) =
                    unmappables.next_if(|unmappable| unmappable.char_index == index)
                {
                    prop_assert_eq!(unmappable.character, c);
                    prop_assert!(
                        output.encode_fatal(c.encode_utf8(&mut [0; 4])).is_err(),
                        "{:?} is encodable",
                        c
                    );
                    let _ = write!(expected, "&#{};", u32::from(unmappable.reported));
                } else {
                    prop_assert!(
                        output.encode_fatal(c.encode_utf8(&mut [0; 4])).is_ok(),
                        "{:?} is not encodable",
                        c
                    );
                    expected.push(after_round_trip(output, c));
                }
            }
            prop_assert_eq!(unmappables.next(), None);
            let decoded = output.decode_with_bom_handling(&bytes, BomHandling::None);
            prop_assert_eq!(decoded.text, expected);
            prop_assert!(!decoded.had_errors);
            Ok(())
        },
    );
}

#[test]
fn iso_2022_jp_concatenated_outputs() {
    // The standard's example: "Encoding U+00A5 (¥) gives 0x1B 0x28 0x4A 0x5C
    // 0x1B 0x28 0x42. Doing that twice, concatenating the results, and then
    // decoding yields U+00A5 U+FFFD U+00A5."
    let (once, _, _) = ISO_2022_JP.encode("¥");
    assert_eq!(once, b"\x1B(J\\\x1B(B");
    let twice = [once.as_slice(), once.as_slice()].concat();
    assert_eq!(ISO_2022_JP.decode(&twice).text, "¥\u{FFFD}¥");
}

#[test]
fn encoding_any_string_never_panics_in_either_mode() {
    let strategy = |_| {
        (
            text(),
            any::<String>(),
            proptest::collection::vec(any::<usize>(), 0..4),
        )
    };
    for_every_encoding(strategy, |encoding, (text, any_text, cuts)| {
        for text in [&text, &any_text] {
            let (html, _, _) = encoding.encode(text);
            // Streaming in chunks gives the same bytes.
            let mut encoder = Encoder::new(encoding, EncodeErrorMode::Html);
            let mut streamed = Vec::new();
            let mut ends: Vec<usize> = cuts
                .iter()
                .map(|cut| cut % (text.len() + 1))
                .filter(|&cut| text.is_char_boundary(cut))
                .chain([text.len()])
                .collect();
            ends.sort_unstable();
            ends.dedup();
            let mut start = 0;
            for (position, &end) in ends.iter().enumerate() {
                let last = position + 1 == ends.len();
                let mut rest = &text[start..end];
                loop {
                    let (result, read) = encoder.encode(rest, last, &mut streamed);
                    rest = &rest[read..];
                    if result == EncoderResult::InputEmpty {
                        break;
                    }
                }
                start = end;
            }
            prop_assert_eq!(&streamed, &html);
            let fatal = encoding.encode_fatal(text);
            if let Ok(bytes) = fatal {
                prop_assert_eq!(bytes, html);
            }
        }
        Ok(())
    });
}

// ---------------------------------------------------------------------------
// Labels

/// Every label of every encoding.
fn all_labels() -> Vec<&'static str> {
    ALL.iter()
        .flat_map(|encoding| encoding.labels().iter().copied())
        .collect()
}

fn same_encoding(
    ours: Option<&'static Encoding>,
    theirs: Option<&'static encoding_rs::Encoding>,
) -> bool {
    ours.map(Encoding::name) == theirs.map(encoding_rs::Encoding::name)
}

proptest! {
    #![proptest_config(config(1024))]

    #[test]
    fn for_label_agrees_with_encoding_rs_on_any_bytes(label in proptest::collection::vec(any::<u8>(), 0..24)) {
        prop_assert!(same_encoding(Encoding::for_label(&label), encoding_rs::Encoding::for_label(&label)));
    }

    #[test]
    fn for_label_agrees_with_encoding_rs_on_labels_with_whitespace_and_any_case(
        label in proptest::sample::select(all_labels()),
        before in proptest::collection::vec(proptest::sample::select(&b"\t\n\x0C\r \t\n\x0C\r \x0B\xA0"[..]), 0..4),
        after in proptest::collection::vec(proptest::sample::select(&b"\t\n\x0C\r \t\n\x0C\r \x0B\xA0"[..]), 0..4),
        upper in proptest::collection::vec(any::<bool>(), 24),
    ) {
        let cased: Vec<u8> = label
            .bytes()
            .zip(upper.iter().cycle())
            .map(|(byte, &upper)| if upper { byte.to_ascii_uppercase() } else { byte })
            .collect();
        let input = [before.as_slice(), &cased, &after].concat();
        let ours = Encoding::for_label(&input);
        prop_assert!(same_encoding(ours, encoding_rs::Encoding::for_label(&input)), "{:?}", String::from_utf8_lossy(&input));
        let only_whitespace = |bytes: &[u8]| bytes.iter().all(|b| b"\t\n\x0C\r ".contains(b));
        if only_whitespace(&before) && only_whitespace(&after) {
            prop_assert_eq!(ours.map(Encoding::labels).is_some_and(|labels| labels.contains(&label)), true);
        }
    }
}
