//! What one encoding's decode of the sample looks like: its errors, its
//! implausible characters, an identity hash of the text, and the counts of
//! folded character pairs that the language models score.
//!
//! Decoders whose bytes decode one at a time (the single-byte encodings and
//! x-user-defined) are read through a 256-entry table built by the engine's
//! own decoder, and their pairs come from the sample's byte-pair counts,
//! shared by all of them. The other decoders run over the sample with a
//! [`TextSink`].

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use mojiscope_indexes::language::{self, CharClass, Script};

use crate::decoder::{BomHandling, DecodeErrorMode, Decoder};
use crate::encoding::Encoding;
use crate::provenance::{ByteSpan, DecodeErrorKind, DecodeSink, SkipReason};

/// A fast hasher for the pair maps (keys are small integers).
#[derive(Default)]
pub(crate) struct PairHasher(u64);

impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95);
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95);
    }
}

/// Counts of folded character pairs.
pub(crate) type PairCounts = HashMap<u64, u32, BuildHasherDefault<PairHasher>>;

/// The key of a pair of folded characters.
pub(crate) fn pair_key(left: char, right: char) -> u64 {
    (u64::from(u32::from(left)) << 32) | u64::from(u32::from(right))
}

/// The characters of a pair key.
pub(crate) fn pair_chars(key: u64) -> (char, char) {
    let left = char::from_u32((key >> 32) as u32).unwrap_or(' ');
    let right = char::from_u32(key as u32).unwrap_or(' ');
    (left, right)
}

/// FNV-1a, over the decoded characters, so that equal decodes hash equal
/// whichever way they were decoded.
const HASH_START: u64 = 0xCBF2_9CE4_8422_2325;
const HASH_PRIME: u64 = 0x0100_0000_01B3;
/// What an error contributes to the hash (no scalar value is this large).
const ERROR_MARK: u32 = 0x11_0000;
/// What the gap between two windows contributes to the hash.
const WINDOW_MARK: u32 = 0x11_0001;

fn hash_step(hash: u64, value: u32) -> u64 {
    (hash ^ u64::from(value)).wrapping_mul(HASH_PRIME)
}

/// What one decode of the sample showed.
#[derive(Clone, Debug, Default)]
pub(crate) struct TextStats {
    /// Identity of the decoded text (with errors and window gaps).
    pub(crate) hash: u64,
    /// Decoded scalar values.
    pub(crate) chars: u64,
    /// Decoded scalar values that are not ASCII.
    pub(crate) non_ascii: u64,
    /// Errors, by kind.
    pub(crate) errors: Vec<(DecodeErrorKind, u64)>,
    /// Offset of the first error in the input.
    pub(crate) first_error: Option<u64>,
    /// Implausible characters (controls, private use, noncharacters).
    pub(crate) implausible: u64,
    /// The first implausible character.
    pub(crate) first_implausible: Option<char>,
    /// Unlikely symbols (box drawing, mathematical signs, ...).
    pub(crate) symbols: u64,
    /// Uppercase letters right after a lowercase letter, one of them not
    /// ASCII: words do not change case in the middle.
    pub(crate) case_breaks: u64,
    /// Invisible formatting characters between two letters of a word
    /// (a left-to-right mark inside "altyaz\u{200E}s\u{200E}"): words do not
    /// hold them.
    pub(crate) formats_in_words: u64,
    /// Pairs of folded characters with at least one non-ASCII member (all
    /// pairs when `ascii_pairs_included`).
    pub(crate) pairs: PairCounts,
    /// Whether `pairs` counts the pairs of ASCII characters too (for
    /// ISO-2022-JP, whose ASCII bytes need not decode to ASCII); otherwise
    /// they are counted once for the whole sample and added by the scorer.
    pub(crate) ascii_pairs_included: bool,
    /// How many of the sample's bytes were examined.
    pub(crate) bytes: u64,
}

impl TextStats {
    /// The number of errors.
    pub(crate) fn error_count(&self) -> u64 {
        self.errors.iter().map(|&(_, n)| n).sum()
    }

    /// The errors that count against the decode: all but a sequence cut
    /// by the end of the input or of a sampled window, which says nothing of
    /// the encoding (any multi-byte text cut at a random byte has one).
    /// A decode with nothing beyond ASCII shows no text the cut could have
    /// split, so there every error counts.
    pub(crate) fn ranking_errors(&self) -> u64 {
        self.errors
            .iter()
            .filter(|(kind, _)| self.non_ascii == 0 || *kind != DecodeErrorKind::TruncatedSequence)
            .map(|&(_, n)| n)
            .sum()
    }

    fn add_error(&mut self, kind: DecodeErrorKind, count: u64) {
        let same = |k: &DecodeErrorKind| std::mem::discriminant(k) == std::mem::discriminant(&kind);
        match self.errors.iter_mut().find(|(k, _)| same(k)) {
            Some((_, n)) => *n += count,
            None => self.errors.push((kind, count)),
        }
    }

    fn note_char(&mut self, c: char, count: u64) {
        if language::is_implausible(c) {
            self.implausible += count;
            self.first_implausible.get_or_insert(c);
        } else if !c.is_ascii() && language::class_of(c, Script::Latin) == CharClass::Symbol {
            self.symbols += count;
        }
    }
}

/// Whether `format` is an invisible formatting character between two
/// letters, where no word holds one.
pub(crate) fn format_in_word(left: char, format: char, right: char) -> bool {
    language::is_invisible_format(format)
        && left.is_alphabetic()
        && right.is_alphabetic()
        && !language::format_may_join(left, format, right)
}

/// Collects [`TextStats`] from a decoder.
struct TextSink {
    stats: TextStats,
    /// The previous folded character (a space at the start).
    previous: char,
    previous_is_ascii: bool,
    previous_is_lowercase: bool,
    /// The previous character and the one before it, unfolded.
    previous_raw: char,
    before_previous_raw: char,
}

impl TextSink {
    fn new(ascii_pairs_included: bool) -> Self {
        Self {
            stats: TextStats {
                hash: HASH_START,
                ascii_pairs_included,
                ..TextStats::default()
            },
            previous: ' ',
            previous_is_ascii: true,
            previous_is_lowercase: false,
            previous_raw: ' ',
            before_previous_raw: ' ',
        }
    }

    fn window_gap(&mut self) {
        self.stats.hash = hash_step(self.stats.hash, WINDOW_MARK);
        self.previous = ' ';
        self.previous_is_ascii = true;
        self.previous_is_lowercase = false;
        self.previous_raw = ' ';
        self.before_previous_raw = ' ';
    }

    #[inline]
    fn push(&mut self, c: char) {
        let stats = &mut self.stats;
        stats.hash = hash_step(stats.hash, u32::from(c));
        stats.chars += 1;
        let is_ascii = c.is_ascii();
        if !is_ascii {
            stats.non_ascii += 1;
        }
        stats.note_char(c, 1);
        if self.previous_is_lowercase && c.is_uppercase() && !(is_ascii && self.previous_is_ascii) {
            stats.case_breaks += 1;
        }
        self.previous_is_lowercase = c.is_lowercase();
        if format_in_word(self.before_previous_raw, self.previous_raw, c) {
            stats.formats_in_words += 1;
        }
        self.before_previous_raw = self.previous_raw;
        self.previous_raw = c;
        let folded = language::fold(c);
        let both_boundaries = folded == ' ' && self.previous == ' ';
        let shared = !stats.ascii_pairs_included && is_ascii && self.previous_is_ascii;
        if !both_boundaries && !shared {
            *stats
                .pairs
                .entry(pair_key(self.previous, folded))
                .or_default() += 1;
        }
        self.previous = folded;
        self.previous_is_ascii = is_ascii;
    }
}

impl DecodeSink for TextSink {
    fn ascii(&mut self, run: &[u8], _start: u64) {
        if self.stats.ascii_pairs_included || run.len() < 2 {
            for &b in run {
                self.push(char::from(b));
            }
            return;
        }
        // The pairs inside the run are the shared ASCII pairs: only the one
        // that joins it to what came before is counted here.
        let (&first, rest) = run.split_first().expect("a run of two or more");
        self.push(char::from(first));
        for &b in rest {
            self.stats.hash = hash_step(self.stats.hash, u32::from(b));
            self.stats.note_char(char::from(b), 1);
        }
        self.stats.chars += rest.len() as u64;
        let last = char::from(*rest.last().expect("a run of two or more"));
        self.before_previous_raw = char::from(run[run.len() - 2]);
        self.previous_raw = last;
        self.previous = language::fold(last);
        self.previous_is_ascii = true;
        self.previous_is_lowercase = last.is_ascii_lowercase();
    }

    fn scalar(&mut self, c: char, _span: ByteSpan) {
        self.push(c);
    }

    fn scalar_pair(&mut self, first: char, second: char, _span: ByteSpan) {
        self.push(first);
        self.push(second);
    }

    fn error(&mut self, kind: DecodeErrorKind, span: ByteSpan) {
        self.stats.hash = hash_step(self.stats.hash, ERROR_MARK);
        self.stats.add_error(kind, 1);
        self.stats.first_error.get_or_insert(span.start);
        // An error is a word boundary that is not ASCII.
        self.previous = ' ';
        self.previous_is_ascii = false;
        self.previous_is_lowercase = false;
        self.before_previous_raw = ' ';
        self.previous_raw = '\u{FFFD}';
    }

    fn skip(&mut self, _reason: SkipReason, _span: ByteSpan) {}
}

/// Decodes the sample's windows with `encoding`'s decoder (no BOM handling:
/// the BOM has been looked at already) and collects what it shows.
pub(crate) fn decode_stats(
    encoding: &'static Encoding,
    bytes: &[u8],
    windows: &[std::ops::Range<usize>],
) -> TextStats {
    let mut sink = TextSink::new(!encoding.is_ascii_compatible());
    for (position, window) in windows.iter().enumerate() {
        if position > 0 {
            sink.window_gap();
        }
        let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
        // In replacement mode the decoder consumes all of its input; errors
        // report their offsets from the window's start, so shift them.
        let mut shifted = Shifted {
            inner: &mut sink,
            base: window.start as u64,
        };
        let _ = decoder.decode(&bytes[window.clone()], true, &mut shifted);
        sink.stats.bytes += window.len() as u64;
    }
    sink.stats
}

/// Passes items on with their spans moved by `base`.
struct Shifted<'a> {
    inner: &'a mut TextSink,
    base: u64,
}

impl DecodeSink for Shifted<'_> {
    fn ascii(&mut self, run: &[u8], start: u64) {
        self.inner.ascii(run, start + self.base);
    }
    fn scalar(&mut self, c: char, span: ByteSpan) {
        self.inner.scalar(c, span);
    }
    fn scalar_pair(&mut self, first: char, second: char, span: ByteSpan) {
        self.inner.scalar_pair(first, second, span);
    }
    fn error(&mut self, kind: DecodeErrorKind, span: ByteSpan) {
        let span = ByteSpan::new(span.start + self.base, span.end + self.base);
        self.inner.error(kind, span);
    }
    fn skip(&mut self, reason: SkipReason, span: ByteSpan) {
        self.inner.skip(reason, span);
    }
}

/// How a byte decodes in an encoding whose bytes decode one at a time.
pub(crate) type ByteTable = [Option<char>; 256];

/// The byte table of `encoding` (a single-byte encoding or x-user-defined),
/// from its own decoder: `None` where the byte is an error. Built once for
/// all such encodings.
pub(crate) fn byte_table(encoding: &'static Encoding) -> &'static ByteTable {
    static TABLES: OnceLock<Vec<(&'static Encoding, ByteTable)>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        crate::encoding::ALL
            .iter()
            .filter(|e| e.is_single_byte() || **e == crate::encoding::X_USER_DEFINED)
            .map(|&e| (e, build_byte_table(e)))
            .collect()
    });
    tables
        .iter()
        .find(|(e, _)| *e == encoding)
        .map(|(_, table)| table)
        .expect("a table for every encoding that decodes byte by byte")
}

fn build_byte_table(encoding: &'static Encoding) -> ByteTable {
    let mut table = [None; 256];
    for byte in 0..=255u8 {
        let mut trace = crate::provenance::Trace::new();
        let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
        let _ = decoder.decode(&[byte], true, &mut trace);
        if let Some(item) = trace.items().next()
            && let crate::provenance::TraceKind::Scalar(c) = item.kind
        {
            table[usize::from(byte)] = Some(c);
        }
    }
    table
}

/// The sample seen as bytes: counts of bytes and of adjacent byte pairs
/// (within windows), shared by every encoding that decodes byte by byte,
/// and the folded ASCII pairs, shared by every ASCII-compatible encoding.
pub(crate) struct ByteCounts {
    pub(crate) bytes: [u64; 256],
    /// Adjacent pairs with at least one byte 0x80 or above: (left, right, count).
    pub(crate) high_pairs: Vec<(u8, u8, u32)>,
    /// Folded ASCII pairs (boundary pairs left out).
    pub(crate) ascii_pairs: PairCounts,
    /// ASCII letters.
    pub(crate) ascii_letters: u64,
    /// Bytes some single-byte encoding decodes to an invisible formatting
    /// character, with the bytes on either side: (left, middle, right, count).
    pub(crate) format_triples: Vec<(u8, u8, u8, u32)>,
}

/// The bytes some encoding that decodes byte by byte decodes to an
/// invisible formatting character (U+200E at 0xFD in windows-1255, ...).
fn format_bytes() -> &'static [bool; 256] {
    static BYTES: OnceLock<[bool; 256]> = OnceLock::new();
    BYTES.get_or_init(|| {
        let mut bytes = [false; 256];
        for encoding in crate::encoding::ALL
            .iter()
            .filter(|e| e.is_single_byte() || **e == crate::encoding::X_USER_DEFINED)
        {
            for (byte, c) in byte_table(encoding).iter().enumerate() {
                if c.is_some_and(language::is_invisible_format) {
                    bytes[byte] = true;
                }
            }
        }
        bytes
    })
}

impl ByteCounts {
    pub(crate) fn new(bytes: &[u8], windows: &[std::ops::Range<usize>]) -> Self {
        let mut counts = [0u64; 256];
        let mut pair_counts = vec![0u32; 256 * 256];
        let mut text_pairs = vec![0u32; 128 * 128];
        let mut ascii_letters = 0u64;
        let formats = format_bytes();
        let mut triples: HashMap<u32, u32, BuildHasherDefault<PairHasher>> = HashMap::default();
        for window in windows {
            let window = &bytes[window.clone()];
            for triple in window.windows(3) {
                if formats[usize::from(triple[1])] {
                    let key = u32::from(triple[0]) << 16
                        | u32::from(triple[1]) << 8
                        | u32::from(triple[2]);
                    let n = triples.entry(key).or_default();
                    *n = n.saturating_add(1);
                }
            }
            for &b in window {
                counts[usize::from(b)] += 1;
            }
            for pair in window.windows(2) {
                let slot = &mut pair_counts[usize::from(pair[0]) << 8 | usize::from(pair[1])];
                *slot = slot.saturating_add(1);
            }
            // The ASCII pairs of the text, with markup read as word
            // boundaries: the tags of a page are no words of its language.
            let mut previous = b' ';
            let mut in_tag = false;
            for (position, &b) in window.iter().enumerate() {
                let shown = if in_tag {
                    in_tag = b != b'>';
                    b' '
                } else if b == b'<'
                    && window.get(position + 1).is_some_and(|&next| {
                        next.is_ascii_alphabetic() || matches!(next, b'/' | b'!' | b'?')
                    })
                {
                    in_tag = true;
                    b' '
                } else {
                    b
                };
                if shown.is_ascii() && previous.is_ascii() {
                    let slot = &mut text_pairs[usize::from(previous) << 7 | usize::from(shown)];
                    *slot = slot.saturating_add(1);
                }
                if shown.is_ascii_alphabetic() {
                    ascii_letters += 1;
                }
                previous = shown;
            }
        }
        let mut high_pairs = Vec::new();
        let mut ascii_pairs = PairCounts::default();
        for (index, &n) in pair_counts.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let (left, right) = ((index >> 8) as u8, index as u8);
            if left >= 0x80 || right >= 0x80 {
                high_pairs.push((left, right, n));
            }
        }
        // The first byte of each window follows a boundary (counted above).
        for (index, &n) in text_pairs.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let (left, right) = (
                language::fold(char::from((index >> 7) as u8)),
                language::fold(char::from((index & 0x7F) as u8)),
            );
            if !(left == ' ' && right == ' ') {
                *ascii_pairs.entry(pair_key(left, right)).or_default() += n;
            }
        }
        let format_triples = triples
            .into_iter()
            .map(|(key, n)| ((key >> 16) as u8, (key >> 8) as u8, key as u8, n))
            .collect();
        Self {
            bytes: counts,
            high_pairs,
            ascii_pairs,
            ascii_letters,
            format_triples,
        }
    }

    /// The stats of decoding the sample byte by byte with `table`. Its pairs
    /// are left empty: [`crate::detect()`] scores the byte pairs directly.
    pub(crate) fn stats(
        &self,
        table: &ByteTable,
        bytes: &[u8],
        windows: &[std::ops::Range<usize>],
    ) -> TextStats {
        let mut stats = TextStats {
            hash: HASH_START,
            ..TextStats::default()
        };
        for &(left, right, n) in &self.high_pairs {
            if let (Some(left), Some(right)) = (table[usize::from(left)], table[usize::from(right)])
                && left.is_lowercase()
                && right.is_uppercase()
            {
                stats.case_breaks += u64::from(n);
            }
        }
        for &(left, middle, right, n) in &self.format_triples {
            let decode = |b: u8| table[usize::from(b)];
            if let (Some(left), Some(middle), Some(right)) =
                (decode(left), decode(middle), decode(right))
                && format_in_word(left, middle, right)
            {
                stats.formats_in_words += u64::from(n);
            }
        }
        for (position, window) in windows.iter().enumerate() {
            if position > 0 {
                stats.hash = hash_step(stats.hash, WINDOW_MARK);
            }
            for (offset, &b) in bytes[window.clone()].iter().enumerate() {
                if let Some(c) = table[usize::from(b)] {
                    stats.hash = hash_step(stats.hash, u32::from(c));
                } else {
                    stats.hash = hash_step(stats.hash, ERROR_MARK);
                    stats
                        .first_error
                        .get_or_insert((window.start + offset) as u64);
                }
            }
            stats.bytes += window.len() as u64;
        }
        for (byte, &n) in self.bytes.iter().enumerate() {
            if n == 0 {
                continue;
            }
            match table[byte] {
                Some(c) => {
                    stats.chars += n;
                    if !c.is_ascii() {
                        stats.non_ascii += n;
                    }
                    stats.note_char(c, n);
                }
                None => stats.add_error(
                    DecodeErrorKind::UnassignedPointer {
                        pointer: byte as u32 - 0x80,
                    },
                    n,
                ),
            }
        }
        stats
    }
}
