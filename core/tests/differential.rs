//! Differential conformance tests: every decoder and encoder of this crate
//! against `encoding_rs`, the implementation of the Encoding Standard that
//! Firefox ships, on exhaustive and random inputs.
//!
//! Each check compares this crate's public API with `encoding_rs`'s on the
//! same input and records every difference by class (encoding and check);
//! a test fails listing a few minimal inputs of each class. Where the two
//! disagree, the standard (`encoding.bs`) decides; a class of difference in
//! which `encoding_rs` is out of date relative to the standard is an explicit
//! exception in [`documented_exception`], quoting the standard.
//!
//! Everything here uses the optimised test profile; the whole file takes
//! about twenty seconds on two cores.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use mojiscope_core::{
    ALL, BIG5, BomHandling, EUC_JP, EUC_KR, EncodeErrorMode, Encoder, EncoderResult, Encoding,
    GB18030, GBK, ISO_2022_JP, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE, utf8_decode,
};

/// One of our encodings and `encoding_rs`'s encoding of the same name.
#[derive(Clone, Copy)]
struct Pair {
    ours: &'static Encoding,
    theirs: &'static encoding_rs::Encoding,
}

impl Pair {
    fn of(ours: &'static Encoding) -> Self {
        // Every encoding's lowercased name is one of its labels (the standard
        // says so, "replacement" included), so look each up by its name.
        let label = ours.name();
        let theirs = encoding_rs::Encoding::for_label(label.as_bytes())
            .unwrap_or_else(|| panic!("encoding_rs has no encoding for {label:?}"));
        assert_eq!(
            theirs.name(),
            ours.name(),
            "encoding_rs maps {label:?} to another encoding"
        );
        Self { ours, theirs }
    }

    fn name(self) -> &'static str {
        self.ours.name()
    }
}

fn all_pairs() -> Vec<Pair> {
    ALL.iter().map(|&encoding| Pair::of(encoding)).collect()
}

/// What a check compares; part of a difference's class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Check {
    /// Replacement mode without BOM handling.
    DecodeReplacement,
    /// Fatal mode without BOM handling.
    DecodeFatal,
    /// The standard's "decode" (BOM sniffing, replacement mode).
    DecodeSniffing,
    /// BOM sniffing in fatal mode.
    DecodeSniffingFatal,
    /// The standard's "UTF-8 decode" (UTF-8 BOM removal).
    Utf8Decode,
    /// The legacy "encode" (html mode).
    EncodeHtml,
    /// Fatal mode: where the encoder stops and what it wrote before.
    EncodeFatal,
}

/// Every difference seen, by class, with a few examples each.
#[derive(Default)]
struct Differences {
    classes: BTreeMap<(&'static str, Check), Class>,
    exceptions: BTreeMap<&'static str, u64>,
}

#[derive(Default)]
struct Class {
    count: u64,
    examples: Vec<String>,
}

/// How many examples of each class a failure lists.
const EXAMPLES_PER_CLASS: usize = 8;

impl Differences {
    fn record(
        &mut self,
        pair: Pair,
        check: Check,
        input: &str,
        ours: &dyn std::fmt::Debug,
        theirs: &dyn std::fmt::Debug,
    ) {
        if let Some(reason) = documented_exception(pair.ours, check, input) {
            *self.exceptions.entry(reason).or_default() += 1;
            return;
        }
        let class = self.classes.entry((pair.name(), check)).or_default();
        class.count += 1;
        if class.examples.len() < EXAMPLES_PER_CLASS {
            let (ours, theirs) = (format!("{ours:?}"), format!("{theirs:?}"));
            class.examples.push(format!(
                "input {}\n      ours:        {}\n      encoding_rs: {}",
                shorten(input),
                shorten(&ours),
                shorten(&theirs)
            ));
        }
    }

    fn count(&self) -> u64 {
        self.classes.values().map(|class| class.count).sum()
    }

    fn is_clean(&self) -> bool {
        self.classes.is_empty()
    }

    #[track_caller]
    fn assert_none(&self) {
        if self.is_clean() {
            return;
        }
        let mut report = String::from("differences from encoding_rs:\n");
        for ((name, check), class) in &self.classes {
            let _ = writeln!(report, "  {name} {check:?}: {} inputs, e.g.", class.count);
            for example in &class.examples {
                let _ = writeln!(report, "    {example}");
            }
        }
        for (reason, count) in &self.exceptions {
            let _ = writeln!(report, "  (documented exception, {count} inputs: {reason})");
        }
        panic!("{report}");
    }
}

/// Classes of difference where `encoding_rs` does not follow the current
/// standard (the copy in `../shared/whatwg/`, which is normative here). Each
/// is as narrow as the difference and quotes the standard. `input` is the
/// rendering the checks record (hex bytes for decoders, the `{:?}` of the
/// text for encoders). None are known: `encoding_rs` 0.8.35 and later implement
/// the GB18030-2022 changes.
fn documented_exception(_encoding: &Encoding, _check: Check, _input: &str) -> Option<&'static str> {
    None
}

/// At most about 300 characters of `text`, for reports.
fn shorten(text: &str) -> String {
    const MAX: usize = 300;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}... ({} characters)", &text[..cut], text.chars().count()),
        None => text.to_owned(),
    }
}

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 3);
    for (position, byte) in bytes.iter().enumerate() {
        if position > 0 {
            out.push(' ');
        }
        let _ = write!(out, "{byte:02X}");
    }
    format!("[{out}]")
}

// ---------------------------------------------------------------------------
// Decoding

/// `encoding_rs`'s BOM-sniffing decoder in fatal mode (it has no one-shot
/// function for it).
fn theirs_sniffing_fatal(
    encoding: &'static encoding_rs::Encoding,
    bytes: &[u8],
) -> Option<(String, &'static str)> {
    let mut decoder = encoding.new_decoder();
    let capacity = decoder
        .max_utf8_buffer_length_without_replacement(bytes.len())
        .expect("small inputs");
    let mut text = String::with_capacity(capacity);
    let (result, read) = decoder.decode_to_string_without_replacement(bytes, &mut text, true);
    match result {
        encoding_rs::DecoderResult::InputEmpty => {
            assert_eq!(read, bytes.len());
            Some((text, decoder.encoding().name()))
        }
        encoding_rs::DecoderResult::Malformed(..) => None,
        encoding_rs::DecoderResult::OutputFull => unreachable!("the buffer has the maximum length"),
    }
}

/// Compares both decoder error modes without BOM handling on one input.
/// Returns the text of our replacement-mode decode.
fn check_decode(differences: &mut Differences, pair: Pair, input: &[u8]) -> String {
    let ours = pair.ours.decode_with_bom_handling(input, BomHandling::None);
    let (theirs, theirs_had_errors) = pair.theirs.decode_without_bom_handling(input);
    if ours.text != theirs || ours.had_errors != theirs_had_errors {
        differences.record(
            pair,
            Check::DecodeReplacement,
            &hex(input),
            &(&ours.text, ours.had_errors),
            &(&theirs, theirs_had_errors),
        );
    }
    let ours_fatal = pair.ours.decode_fatal(input, BomHandling::None);
    let theirs_fatal = pair
        .theirs
        .decode_without_bom_handling_and_without_replacement(input);
    let agree = match (&ours_fatal, &theirs_fatal) {
        (Ok((text, encoding)), Some(theirs)) => text == theirs && *encoding == pair.ours,
        (Err(_), None) => true,
        _ => false,
    };
    if !agree {
        differences.record(
            pair,
            Check::DecodeFatal,
            &hex(input),
            &ours_fatal,
            &theirs_fatal,
        );
    }
    ours.text
}

/// Compares the standard's "decode" (BOM sniffing) in both error modes, and
/// for UTF-8 also "UTF-8 decode".
fn check_sniffing_decode(differences: &mut Differences, pair: Pair, input: &[u8]) {
    let ours = pair.ours.decode(input);
    let (theirs, theirs_encoding, theirs_had_errors) = pair.theirs.decode(input);
    if ours.text != theirs
        || ours.encoding.name() != theirs_encoding.name()
        || ours.had_errors != theirs_had_errors
    {
        differences.record(
            pair,
            Check::DecodeSniffing,
            &hex(input),
            &(&ours.text, ours.encoding.name(), ours.had_errors),
            &(&theirs, theirs_encoding.name(), theirs_had_errors),
        );
    }
    let ours_fatal = pair
        .ours
        .decode_fatal(input, BomHandling::Sniff)
        .ok()
        .map(|(text, encoding)| (text, encoding.name()));
    let theirs_fatal = theirs_sniffing_fatal(pair.theirs, input);
    if ours_fatal != theirs_fatal {
        differences.record(
            pair,
            Check::DecodeSniffingFatal,
            &hex(input),
            &ours_fatal,
            &theirs_fatal,
        );
    }
    if pair.ours == UTF_8 {
        let ours = utf8_decode(input);
        let (theirs, _) = encoding_rs::UTF_8.decode_with_bom_removal(input);
        if ours != theirs {
            differences.record(pair, Check::Utf8Decode, &hex(input), &ours, &theirs);
        }
    }
}

#[test]
fn every_encoding_has_an_encoding_rs_counterpart_of_the_same_name() {
    let pairs = all_pairs();
    assert_eq!(pairs.len(), 40);
    let names: BTreeSet<&str> = pairs.iter().map(|pair| pair.theirs.name()).collect();
    assert_eq!(
        names.len(),
        40,
        "two of our encodings map to one of encoding_rs's"
    );
    for pair in pairs {
        assert_eq!(
            pair.ours.output_encoding().name(),
            pair.theirs.output_encoding().name(),
            "get an output encoding"
        );
    }
}

#[test]
fn every_single_byte_and_every_two_byte_sequence() {
    let mut differences = Differences::default();
    for pair in all_pairs() {
        check_decode(&mut differences, pair, b"");
        for byte in 0..=u8::MAX {
            check_decode(&mut differences, pair, &[byte]);
        }
        for first in 0..=u8::MAX {
            for second in 0..=u8::MAX {
                check_decode(&mut differences, pair, &[first, second]);
            }
        }
    }
    differences.assert_none();
}

/// Byte order marks, partial ones, and ones for another encoding.
const BOM_PREFIXES: [&[u8]; 9] = [
    b"\xEF\xBB\xBF",
    b"\xFE\xFF",
    b"\xFF\xFE",
    b"\xEF\xBB",
    b"\xEF",
    b"\xFE",
    b"\xFF",
    b"\xEF\xBB\xBF\xEF\xBB\xBF",
    b"\xFF\xFE\xFE\xFF",
];

#[test]
fn bom_sniffing_with_each_bom_and_partial_bom() {
    let suffixes: Vec<Vec<u8>> = [
        &b""[..],
        b"a",
        b"a\x00",
        b"\x00a",
        b"\x3D\xD8\x00\xDE",
        b"\xD8\x3D\xDE\x00",
        b"\xE3\x81\x82",
        b"\x82\xA0",
        b"\x1B$B$\"\x1B(B",
        b"\x81\x30\x81\x30",
        b"\xA4\xA1",
        b"\xEF\xBB\xBF",
    ]
    .iter()
    .map(|suffix| suffix.to_vec())
    .chain((0..=u8::MAX).map(|byte| vec![byte]))
    .collect();
    let mut differences = Differences::default();
    for pair in all_pairs() {
        for suffix in &suffixes {
            check_sniffing_decode(&mut differences, pair, suffix);
            for prefix in BOM_PREFIXES {
                let input = [prefix, suffix.as_slice()].concat();
                check_sniffing_decode(&mut differences, pair, &input);
            }
        }
    }
    differences.assert_none();
}

/// Inputs `prefix` followed by every two-byte sequence.
fn check_every_two_byte_suffix(differences: &mut Differences, pair: Pair, prefix: &[u8]) {
    let mut input = prefix.to_vec();
    input.extend_from_slice(&[0, 0]);
    let len = input.len();
    for first in 0..=u8::MAX {
        for second in 0..=u8::MAX {
            input[len - 2] = first;
            input[len - 1] = second;
            check_decode(differences, pair, &input);
        }
    }
}

/// Longer sequences through the states where the previous bytes matter.
#[test]
fn sequences_in_each_state_of_the_stateful_decoders() {
    let mut differences = Differences::default();
    // ISO-2022-JP: every escape byte followed by two bytes, in each state the
    // decoder can be in, and after text (for the output flag); and every two
    // bytes in each state.
    let iso_2022_jp = Pair::of(ISO_2022_JP);
    for prefix in [
        &b"\x1B"[..],
        b"\x1B$B\x1B",
        b"\x1B(J\x1B",
        b"\x1B(I\x1B",
        b"\x1B$@\x1B",
        b"\x1B$B",
        b"\x1B(J",
        b"\x1B(I",
        b"\x1B$B\x24\x22\x1B",
        b"\x1B$B\x24",
    ] {
        check_every_two_byte_suffix(&mut differences, iso_2022_jp, prefix);
    }
    // gb18030: a lead and a digit, then any two bytes.
    for encoding in [GB18030, GBK] {
        let pair = Pair::of(encoding);
        for prefix in [
            &b"\x81\x30"[..],
            b"\x84\x31",
            b"\x84\x32",
            b"\xE3\x32",
            b"\xFE\x39",
        ] {
            check_every_two_byte_suffix(&mut differences, pair, prefix);
        }
    }
    // UTF-16: a code unit and every two bytes (surrogate pairs and unpaired
    // surrogates).
    for (encoding, units) in [
        (
            UTF_16BE,
            [[0xD8, 0x3D], [0xDB, 0xFF], [0xDC, 0x00], [0x00, 0x41]],
        ),
        (
            UTF_16LE,
            [[0x3D, 0xD8], [0xFF, 0xDB], [0x00, 0xDC], [0x41, 0x00]],
        ),
    ] {
        let pair = Pair::of(encoding);
        for unit in units {
            check_every_two_byte_suffix(&mut differences, pair, &unit);
        }
    }
    differences.assert_none();
}

/// Every three-byte sequence for each of `encodings`: all of them for
/// UTF-16BE/LE, those that start with a non-ASCII byte for the others (an
/// ASCII byte leaves those in their ground state, which the two-byte test
/// covers; ISO-2022-JP, whose state changes on 0x1B, has its own tests).
fn check_every_three_byte_sequence(encodings: &[&'static Encoding]) {
    let mut differences = Differences::default();
    for &encoding in encodings {
        let pair = Pair::of(encoding);
        let first_bytes = if encoding == UTF_16BE || encoding == UTF_16LE {
            0x00..=u8::MAX
        } else {
            0x80..=u8::MAX
        };
        for first in first_bytes {
            check_every_two_byte_suffix(&mut differences, pair, &[first]);
        }
    }
    differences.assert_none();
}

#[test]
fn every_three_byte_sequence_of_the_chinese_and_korean_decoders() {
    check_every_three_byte_sequence(&[GBK, GB18030, BIG5, EUC_KR]);
}

#[test]
fn every_three_byte_sequence_of_the_japanese_and_unicode_decoders() {
    check_every_three_byte_sequence(&[EUC_JP, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE]);
}

/// Four-byte sequences: every escape sequence of ISO-2022-JP's length plus
/// one byte, and UTF-8's four-byte leads with every pair of continuation
/// bytes followed by every byte.
#[test]
fn four_byte_sequences_of_iso_2022_jp_and_utf_8() {
    let mut differences = Differences::default();
    let iso_2022_jp = Pair::of(ISO_2022_JP);
    for second in 0..=u8::MAX {
        check_every_two_byte_suffix(&mut differences, iso_2022_jp, &[0x1B, second]);
    }
    let utf_8 = Pair::of(UTF_8);
    for lead in 0xF0..=0xF4 {
        for second in 0x80..=0xBF {
            for third in 0x80..=0xBF {
                for fourth in 0..=u8::MAX {
                    check_decode(&mut differences, utf_8, &[lead, second, third, fourth]);
                }
            }
        }
    }
    differences.assert_none();
}

#[test]
fn gb18030_every_four_byte_sequence() {
    let mut differences = Differences::default();
    for encoding in [GB18030, GBK] {
        let pair = Pair::of(encoding);
        for first in 0x81..=0xFE {
            for second in 0x30..=0x39 {
                for third in 0x81..=0xFE {
                    for fourth in 0x30..=0x39 {
                        check_decode(&mut differences, pair, &[first, second, third, fourth]);
                    }
                }
            }
        }
        // Four-byte prefixes followed by every byte that ends them wrongly.
        for first in [0x81, 0x84, 0x85, 0x8F, 0x90, 0xE3, 0xE4, 0xFD, 0xFE] {
            for second in [0x30, 0x35, 0x39] {
                for third in [0x81, 0xA1, 0xFE] {
                    for fourth in 0..=u8::MAX {
                        check_decode(&mut differences, pair, &[first, second, third, fourth]);
                    }
                }
            }
        }
    }
    differences.assert_none();
}

// ---------------------------------------------------------------------------
// Encoding

/// Where a fatal-mode encoder stopped: the UTF-8 offset just past the
/// unencodable character, the code point its error carries, and how many
/// bytes had been written.
type Stop = (usize, char, usize);

/// Our encoder in fatal mode, going on after each error; the input is given
/// with `last` false and then ended, as `encoding_rs`'s callers do.
fn ours_fatal(encoding: &'static Encoding, text: &str) -> (Vec<u8>, Vec<Stop>) {
    let mut encoder = Encoder::new(encoding, EncodeErrorMode::Fatal);
    let mut bytes = Vec::new();
    let mut stops = Vec::new();
    let mut position = 0;
    loop {
        let (result, read) = encoder.encode(&text[position..], false, &mut bytes);
        position += read;
        match result {
            EncoderResult::InputEmpty => break,
            EncoderResult::Unmappable(unmappable) => {
                let start = usize::try_from(unmappable.utf8_offset).expect("small inputs");
                assert_eq!(
                    start + unmappable.character.len_utf8(),
                    position,
                    "unmappable offset"
                );
                assert_eq!(
                    text[start..].chars().next(),
                    Some(unmappable.character),
                    "unmappable character"
                );
                stops.push((position, unmappable.reported, bytes.len()));
            }
        }
    }
    assert_eq!(position, text.len());
    let (result, read) = encoder.encode("", true, &mut bytes);
    assert_eq!((result, read), (EncoderResult::InputEmpty, 0));
    (bytes, stops)
}

/// `encoding_rs`'s encoder in fatal mode, going on after each error.
fn theirs_fatal(encoding: &'static encoding_rs::Encoding, text: &str) -> (Vec<u8>, Vec<Stop>) {
    let mut encoder = encoding.new_encoder();
    let capacity = encoder
        .max_buffer_length_from_utf8_without_replacement(text.len())
        .expect("small inputs");
    let mut bytes = Vec::with_capacity(capacity);
    let mut stops = Vec::new();
    let mut position = 0;
    loop {
        let (result, read) = encoder.encode_from_utf8_to_vec_without_replacement(
            &text[position..],
            &mut bytes,
            true,
        );
        position += read;
        match result {
            encoding_rs::EncoderResult::InputEmpty => break,
            encoding_rs::EncoderResult::Unmappable(c) => stops.push((position, c, bytes.len())),
            encoding_rs::EncoderResult::OutputFull => {
                unreachable!("the buffer has the maximum length")
            }
        }
    }
    (bytes, stops)
}

/// Compares html mode and fatal mode on one text.
fn check_encode(differences: &mut Differences, pair: Pair, text: &str) {
    let (ours, ours_encoding, unmappables) = pair.ours.encode(text);
    let (theirs, theirs_encoding, theirs_unmappable) = pair.theirs.encode(text);
    if ours != theirs.as_ref()
        || ours_encoding.name() != theirs_encoding.name()
        || unmappables.is_empty() == theirs_unmappable
    {
        differences.record(
            pair,
            Check::EncodeHtml,
            &format!("{text:?}"),
            &(hex(&ours), ours_encoding.name(), unmappables.len()),
            &(hex(&theirs), theirs_encoding.name(), theirs_unmappable),
        );
    }
    let (ours_bytes, ours_stops) = ours_fatal(pair.ours, text);
    let (theirs_bytes, theirs_stops) = theirs_fatal(pair.theirs, text);
    // Html mode reports the characters that fatal mode stops at.
    let html_stops: Vec<(usize, char)> = unmappables
        .iter()
        .map(|u| {
            (
                usize::try_from(u.utf8_offset).expect("small inputs") + u.character.len_utf8(),
                u.reported,
            )
        })
        .collect();
    let theirs_positions: Vec<(usize, char)> =
        theirs_stops.iter().map(|&(end, c, _)| (end, c)).collect();
    if ours_bytes != theirs_bytes || ours_stops != theirs_stops || html_stops != theirs_positions {
        differences.record(
            pair,
            Check::EncodeFatal,
            &format!("{text:?}"),
            &(hex(&ours_bytes), &ours_stops, &html_stops),
            &(hex(&theirs_bytes), &theirs_stops),
        );
    }
}

fn all_scalar_values() -> impl Iterator<Item = char> {
    ('\0'..='\u{D7FF}').chain('\u{E000}'..='\u{10FFFF}')
}

/// How many scalar values one block of the exhaustive encoder test holds.
const BLOCK: usize = 4096;

#[test]
fn every_scalar_value_through_every_encoder() {
    let scalars: Vec<char> = all_scalar_values().collect();
    let blocks: Vec<String> = scalars
        .chunks(BLOCK)
        .map(|block| block.iter().collect())
        .collect();
    let mut differences = Differences::default();
    for pair in all_pairs() {
        for block in &blocks {
            let mut in_block = Differences::default();
            check_encode(&mut in_block, pair, block);
            if in_block.is_clean() {
                continue;
            }
            // Report the characters that differ on their own, or if none
            // does, the block (a difference of state).
            let before = differences.count();
            for c in block.chars() {
                check_encode(&mut differences, pair, c.encode_utf8(&mut [0; 4]));
            }
            if differences.count() == before {
                check_encode(&mut differences, pair, block);
            }
        }
    }
    differences.assert_none();
}

#[test]
fn iso_2022_jp_every_scalar_value_alone_and_in_each_state() {
    let pair = Pair::of(ISO_2022_JP);
    let mut differences = Differences::default();
    let mut text = String::new();
    for c in all_scalar_values() {
        text.clear();
        text.push(c);
        check_encode(&mut differences, pair, &text);
    }
    // After a character that leaves the encoder in the jis0208 state or in
    // the Roman state, alone and followed by a backslash (which leaves the
    // Roman state). Every BMP scalar value; supplementary ones, which take
    // one path (none is in index jis0208), sampled.
    for prefix in ["あ", "¥", "ｱ", "‾"] {
        let supplementary = ('\u{10000}'..='\u{10FFFF}').step_by(0x101);
        for c in ('\0'..='\u{D7FF}')
            .chain('\u{E000}'..='\u{FFFF}')
            .chain(supplementary)
        {
            for suffix in ["", "\\"] {
                text.clear();
                text.push_str(prefix);
                text.push(c);
                text.push_str(suffix);
                check_encode(&mut differences, pair, &text);
            }
        }
    }
    differences.assert_none();
}

// ---------------------------------------------------------------------------
// Indexes

/// The byte sequence of each pointer of an encoding's index, as its decoder
/// computes the pointer.
fn pointer_sequences(encoding: &'static Encoding) -> Vec<Vec<u8>> {
    let two_byte = |count: u32, f: &dyn Fn(u32) -> Vec<u8>| (0..count).map(f).collect::<Vec<_>>();
    if encoding == BIG5 {
        // Big5: leading 0x81..0xFE, 157 trailing bytes 0x40..0x7E, 0xA1..0xFE.
        two_byte(126 * 157, &|pointer| {
            let trailing = (pointer % 157) as u8;
            let offset = if trailing < 0x3F { 0x40 } else { 0x62 };
            vec![(pointer / 157) as u8 + 0x81, trailing + offset]
        })
    } else if encoding == EUC_KR {
        two_byte(126 * 190, &|pointer| {
            vec![(pointer / 190) as u8 + 0x81, (pointer % 190) as u8 + 0x41]
        })
    } else if encoding == GB18030 || encoding == GBK {
        two_byte(126 * 190, &|pointer| {
            let trailing = (pointer % 190) as u8;
            let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
            vec![(pointer / 190) as u8 + 0x81, trailing + offset]
        })
    } else if encoding == SHIFT_JIS {
        // Leading 0x81..0x9F and 0xE0..0xFC, 188 trailing bytes.
        two_byte(60 * 188, &|pointer| {
            let leading = (pointer / 188) as u8;
            let leading_offset = if leading < 0x1F { 0x81 } else { 0xC1 };
            let trailing = (pointer % 188) as u8;
            let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
            vec![leading + leading_offset, trailing + offset]
        })
    } else if encoding == EUC_JP {
        // Index jis0208 as two bytes, index jis0212 after 0x8F.
        let mut sequences = two_byte(94 * 94, &|pointer| {
            vec![(pointer / 94) as u8 + 0xA1, (pointer % 94) as u8 + 0xA1]
        });
        sequences.extend(two_byte(94 * 94, &|pointer| {
            vec![
                0x8F,
                (pointer / 94) as u8 + 0xA1,
                (pointer % 94) as u8 + 0xA1,
            ]
        }));
        sequences
    } else if encoding == ISO_2022_JP {
        two_byte(94 * 94, &|pointer| {
            vec![
                0x1B,
                b'$',
                b'B',
                (pointer / 94) as u8 + 0x21,
                (pointer % 94) as u8 + 0x21,
            ]
        })
    } else {
        Vec::new()
    }
}

#[test]
fn every_index_entry_both_ways() {
    let mut differences = Differences::default();
    for encoding in [BIG5, EUC_KR, GB18030, GBK, SHIFT_JIS, EUC_JP, ISO_2022_JP] {
        let pair = Pair::of(encoding);
        let mut code_points = BTreeSet::new();
        for sequence in pointer_sequences(encoding) {
            let ours = check_decode(&mut differences, pair, &sequence);
            let (theirs, _) = pair.theirs.decode_without_bom_handling(&sequence);
            for text in [Cow::Owned(ours), theirs] {
                code_points.extend(text.chars().filter(|&c| c != char::REPLACEMENT_CHARACTER));
            }
        }
        assert!(
            code_points.len() > 7000,
            "{encoding}: only {} code points decoded",
            code_points.len()
        );
        // Every code point of the indexes (and Big5's combining pairs'
        // parts) through this encoding's encoder and the others'.
        for encoder in [BIG5, EUC_KR, GB18030, GBK, SHIFT_JIS, EUC_JP, ISO_2022_JP] {
            let encoder_pair = Pair::of(encoder);
            let mut text = String::new();
            for &c in &code_points {
                text.clear();
                text.push(c);
                check_encode(&mut differences, encoder_pair, &text);
            }
        }
    }
    differences.assert_none();
}

// ---------------------------------------------------------------------------
// Random inputs

/// A xorshift64* generator: deterministic, seeded per test and encoding.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn byte_in(&mut self, low: u8, high: u8) -> u8 {
        low + self.below(usize::from(high - low) + 1) as u8
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Escape sequences of ISO-2022-JP, valid and not.
const ESCAPES: [&[u8]; 12] = [
    b"\x1B$B", b"\x1B$@", b"\x1B(B", b"\x1B(J", b"\x1B(I", b"\x1B", b"\x1B$", b"\x1B(", b"\x1B$A",
    b"\x1B(C", b"\x1B$(D", b"\x1B.A",
];

/// A random byte sequence made of pieces that exercise every decoder's
/// states: ASCII, leads and trails of each multi-byte encoding, escape
/// sequences, gb18030 four-byte pieces, UTF-8 and UTF-16 sequences (whole and
/// cut), byte order marks; possibly cut short at the end.
fn structured_bytes(rng: &mut Rng) -> Vec<u8> {
    let mut bytes = Vec::new();
    if rng.below(4) == 0 {
        bytes.extend_from_slice(rng.pick(&BOM_PREFIXES));
    }
    let pieces = rng.below(24);
    for _ in 0..pieces {
        push_piece(rng, &mut bytes);
    }
    if !bytes.is_empty() && rng.below(4) == 0 {
        let cut = rng.below(bytes.len().min(3)) + 1;
        bytes.truncate(bytes.len() - cut);
    }
    bytes
}

/// Appends one random piece of [`structured_bytes`].
fn push_piece(rng: &mut Rng, bytes: &mut Vec<u8>) {
    match rng.below(14) {
        0 => bytes.push(rng.byte_in(0x00, 0x7F)),
        1 => bytes.push(rng.pick(&[
            0x0E, 0x0F, 0x1B, 0x5C, 0x7E, 0x24, 0x28, 0x40, 0x42, 0x49, 0x4A, 0x00,
        ])),
        2 => bytes.push(rng.byte_in(0x80, 0xFF)),
        3 => bytes.push(rng.next() as u8),
        // A lead and a trail in the common ranges.
        4 => {
            bytes.push(rng.byte_in(0x81, 0xFE));
            let trailing = match rng.below(3) {
                0 => rng.byte_in(0x40, 0x7E),
                1 => rng.byte_in(0xA1, 0xFE),
                _ => rng.byte_in(0x80, 0xA0),
            };
            bytes.push(trailing);
        }
        5 => bytes.extend_from_slice(rng.pick(&ESCAPES)),
        // ISO-2022-JP jis0208 / katakana bytes.
        6 => {
            bytes.push(rng.byte_in(0x21, 0x7E));
            bytes.push(rng.byte_in(0x21, 0x7E));
        }
        _ => push_multi_byte_piece(rng, bytes),
    }
}

/// Appends one random piece of a multi-byte encoding's sequences.
fn push_multi_byte_piece(rng: &mut Rng, bytes: &mut Vec<u8>) {
    match rng.below(7) {
        // gb18030 four bytes, or a prefix of them.
        0 => {
            let four = [
                rng.byte_in(0x81, 0xFE),
                rng.byte_in(0x30, 0x39),
                rng.byte_in(0x81, 0xFE),
                rng.byte_in(0x30, 0x39),
            ];
            let len = rng.pick(&[1, 2, 3, 4, 4, 4]);
            bytes.extend_from_slice(&four[..len]);
        }
        1 => {
            // Four-byte sequences near the ranges' edges.
            bytes.extend_from_slice(rng.pick(&[
                &b"\x81\x35\xF4\x37"[..],
                b"\x84\x31\xA4\x39",
                b"\x84\x31\xA5\x30",
                b"\x90\x30\x81\x30",
                b"\xE3\x32\x9A\x35",
                b"\xE3\x32\x9A\x36",
                b"\x82\x35\x8F\x33",
                b"\xA6\xD9",
                b"\xFE\x51",
                b"\xA3\xA0",
                b"\x80",
                b"\xFF",
            ]));
        }
        // UTF-16 code units, surrogates especially, in either order.
        2 => {
            let any = rng.next() as u8;
            let high = rng.pick(&[0xD8, 0xDB, 0xDC, 0xDF, 0x00, 0x30, any]);
            let low = rng.next() as u8;
            if rng.below(2) == 0 {
                bytes.extend_from_slice(&[high, low]);
            } else {
                bytes.extend_from_slice(&[low, high]);
            }
        }
        // UTF-8 of a random scalar value, possibly cut.
        3 => {
            let c = random_char(rng);
            let mut buffer = [0; 4];
            let encoded = c.encode_utf8(&mut buffer).as_bytes();
            let len = if rng.below(3) == 0 {
                rng.below(encoded.len()) + 1
            } else {
                encoded.len()
            };
            bytes.extend_from_slice(&encoded[..len]);
        }
        // EUC-JP's 0x8E and 0x8F sequences.
        4 => {
            bytes.push(rng.pick(&[0x8E, 0x8F]));
            let second = match rng.below(3) {
                0 => rng.byte_in(0xA1, 0xFE),
                1 => rng.byte_in(0xA1, 0xDF),
                _ => rng.next() as u8,
            };
            bytes.push(second);
            if rng.below(2) == 0 {
                bytes.push(rng.byte_in(0xA1, 0xFE));
            }
        }
        // Shift_JIS leads and the Big5 pairs.
        5 => match rng.below(4) {
            0 => bytes.extend_from_slice(&[rng.byte_in(0x81, 0x9F), rng.byte_in(0x40, 0xFC)]),
            1 => bytes.extend_from_slice(&[rng.byte_in(0xE0, 0xFC), rng.byte_in(0x40, 0xFC)]),
            2 => bytes.push(rng.byte_in(0xA1, 0xDF)),
            _ => bytes.extend_from_slice(rng.pick(&[
                &b"\x88\x62"[..],
                b"\x88\x64",
                b"\x88\xA3",
                b"\x88\xA5",
                b"\xF0\x40",
            ])),
        },
        _ => bytes.extend_from_slice(rng.pick(&BOM_PREFIXES)),
    }
}

/// A random scalar value, biased towards the repertoires of the legacy
/// encodings and their special cases.
fn random_char(rng: &mut Rng) -> char {
    const SPECIAL: [char; 24] = [
        '\u{0E}',
        '\u{0F}',
        '\u{1B}',
        '\\',
        '~',
        '¥',
        '‾',
        '−',
        '€',
        '\u{E5E5}',
        '\u{E7C7}',
        '\u{3000}',
        '\u{FEFF}',
        '\u{FFFD}',
        '\u{E78D}',
        '\u{E796}',
        '\u{E81E}',
        '\u{E864}',
        '\u{FE10}',
        '\u{80}',
        '\u{FFFF}',
        '\u{10000}',
        '\u{10FFFF}',
        '\u{2550}',
    ];
    let ranges: [(u32, u32); 12] = [
        (0x00, 0x7F),
        (0x80, 0x2FF),
        (0x370, 0x52F),
        (0x2000, 0x2BFF),
        (0x3000, 0x33FF),
        (0x3400, 0x4DBF),
        (0x4E00, 0x9FFF),
        (0xAC00, 0xD7A3),
        (0xE000, 0xF8FF),
        (0xF900, 0xFFFF),
        (0x1_0000, 0x2_FFFF),
        (0, 0x10_FFFF),
    ];
    if rng.below(6) == 0 {
        return rng.pick(&SPECIAL);
    }
    let (low, high) = rng.pick(&ranges);
    loop {
        let value = low + (rng.next() % u64::from(high - low + 1)) as u32;
        if let Some(c) = char::from_u32(value) {
            return c;
        }
    }
}

/// How many random cases per encoding and direction.
const RANDOM_CASES: u64 = 6000;

#[test]
fn random_structured_bytes_in_both_error_modes_with_and_without_bom() {
    let mut differences = Differences::default();
    for (position, pair) in (0u64..).zip(all_pairs()) {
        let mut rng = Rng::new(0xB17E_5000 + position);
        for _ in 0..RANDOM_CASES {
            let bytes = structured_bytes(&mut rng);
            check_decode(&mut differences, pair, &bytes);
            check_sniffing_decode(&mut differences, pair, &bytes);
        }
    }
    differences.assert_none();
}

#[test]
fn random_strings_through_every_encoder() {
    let mut differences = Differences::default();
    for (position, pair) in (0u64..).zip(all_pairs()) {
        let mut rng = Rng::new(0x57E1_4000 + position);
        for _ in 0..RANDOM_CASES {
            let len = rng.below(24);
            let text: String = (0..len).map(|_| random_char(&mut rng)).collect();
            check_encode(&mut differences, pair, &text);
        }
    }
    differences.assert_none();
}
