//! Sinks that write the decoded text: as UTF-8 bytes into a `Vec<u8>`, and
//! the builder behind the one-shot decodes, which gets a `String` out of
//! such bytes in blocks.
//!
//! Not in spec: this is about speed. Pushing to a `String` has to prove that
//! what it pushes is UTF-8, one call at a time: a `char` at a time (its
//! capacity check and encoding each time), or an ASCII run re-validated by
//! `str::from_utf8`, whose fixed cost dominates the short runs between the
//! letters of most scripts. Writing bytes proves nothing per call; the
//! builder writes them into a fixed block and validates each full block at
//! once with SIMD (a small fraction of the cost of decoding it) before
//! appending it to its `String`.

use crate::provenance::{ByteSpan, DecodeErrorKind, DecodeSink, SkipReason};

/// Appends the UTF-8 bytes of `c` to `bytes`.
#[expect(
    clippy::inline_always,
    reason = "the per-character path: left to itself the compiler calls it from the decode loop, 5-20% more instructions"
)]
#[inline(always)]
pub(crate) fn push_utf8(bytes: &mut Vec<u8>, c: char) {
    if c.is_ascii() {
        bytes.push(c as u8);
        return;
    }
    // All four bytes of the word are appended, then the surplus cut: a copy
    // of fixed size is a single store, where one of the exact length would
    // be a call to `memcpy`.
    let (word, len) = utf8_word(c);
    let end = bytes.len() + len;
    bytes.extend_from_slice(&word);
    bytes.truncate(end);
}

/// The UTF-8 bytes of U+FFFD.
const REPLACEMENT_UTF8: [u8; 3] = [0xEF, 0xBF, 0xBD];

/// The plain decode as UTF-8 bytes: text only, each error written as U+FFFD.
/// What it appends is always valid UTF-8, so it suits output that is bytes
/// anyway (a file, standard output) without a `String`'s checks.
impl DecodeSink for Vec<u8> {
    const TEXT_ONLY: bool = true;

    #[inline]
    fn text(&mut self, utf8: &[u8]) {
        self.extend_from_slice(utf8);
    }

    #[inline]
    fn ascii(&mut self, run: &[u8], _start: u64) {
        self.extend_from_slice(run);
    }

    #[inline]
    fn utf8_run(&mut self, run: &str, _start: u64) {
        self.extend_from_slice(run.as_bytes());
    }

    #[inline]
    fn ascii_units(&mut self, run: &[u8], _start: u64, _unit_len: u8) {
        self.extend_from_slice(run);
    }

    #[inline]
    fn scalar(&mut self, c: char, _span: ByteSpan) {
        push_utf8(self, c);
    }

    #[inline]
    fn scalar_pair(&mut self, first: char, second: char, _span: ByteSpan) {
        push_utf8(self, first);
        push_utf8(self, second);
    }

    /// A few characters at a time into a buffer on the stack, whose length
    /// stays in a register, then appended at once.
    #[inline]
    fn scalar_units(&mut self, run: &[char], _start: u64, _unit_len: u8) {
        const AT_ONCE: usize = 16;
        let mut buffer = [0u8; 4 * AT_ONCE];
        for chars in run.chunks(AT_ONCE) {
            let mut len = 0;
            for &c in chars {
                let (bytes, char_len) = utf8_word(c);
                buffer[len..len + 4].copy_from_slice(&bytes);
                len += char_len;
            }
            self.extend_from_slice(&buffer[..len]);
        }
    }

    #[inline]
    fn error(&mut self, _kind: DecodeErrorKind, _span: ByteSpan) {
        self.extend_from_slice(&REPLACEMENT_UTF8);
    }

    #[inline]
    fn skip(&mut self, _reason: SkipReason, _span: ByteSpan) {}
}

/// Bytes the builder collects before validating them and moving them into
/// its `String`: small enough to stay in the first-level caches, and for
/// the move to be copied by vector instructions (`memcpy` switches to
/// `rep movsb`, one byte at a time as an instruction count sees it, past
/// about 2 KiB).
const BLOCK: usize = 2048 - SLACK;

/// Room in the block past [`BLOCK`]: a short ASCII run is copied in whole
/// words, so it may take up to this much.
const SLACK: usize = SHORT_RUN + 8;

/// ASCII runs up to this long are copied a word at a time, longer ones with
/// `memcpy`.
const SHORT_RUN: usize = 64;

/// Text from the fast paths up to this long goes through the block.
const SHORT_TEXT: usize = 512;

/// ASCII runs at least this long skip the block.
const LONG_RUN: usize = 1024;

/// The sink of the one-shot decodes: the text, each error as U+FFFD, and
/// how many errors there were.
///
/// Items are written as UTF-8 into a fixed block, which is validated and
/// appended to the text whenever it holds [`BLOCK`] bytes: writing to the
/// block needs no capacity check and no call, only an index check.
#[derive(Debug)]
pub(crate) struct TextBuilder {
    text: String,
    /// Text not yet in `text`: `block[..len]`, whole items, so always valid
    /// UTF-8. `len` stays below [`BLOCK`] between calls.
    block: Box<[u8; BLOCK + SLACK]>,
    len: usize,
    errors: u64,
}

impl TextBuilder {
    /// A builder whose text has room for `capacity` bytes.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Self {
            text: String::with_capacity(capacity),
            block: vec![0; BLOCK + SLACK]
                .into_boxed_slice()
                .try_into()
                .expect("the length is the array's"),
            len: 0,
            errors: 0,
        }
    }

    /// The text, and how many errors it has.
    pub(crate) fn finish(mut self) -> (String, u64) {
        self.flush();
        // Room reserved and not used is given back: the allocator shrinks
        // the allocation where it is, without copying the text.
        if self.text.capacity() - self.text.len() > self.text.len() / 4 {
            self.text.shrink_to_fit();
        }
        (self.text, self.errors)
    }

    /// Appends up to four bytes: the `len` first of `bytes`.
    #[expect(
        clippy::inline_always,
        reason = "the per-character path: left to itself the compiler calls it from the decode loop, 5-20% more instructions"
    )]
    #[inline(always)]
    fn push_word(&mut self, bytes: [u8; 4], len: usize) {
        let start = self.len;
        self.block[start..start + 4].copy_from_slice(&bytes);
        self.len = start + len;
        if self.len >= BLOCK {
            self.flush();
        }
    }

    /// Appends the UTF-8 bytes of `c`.
    #[expect(
        clippy::inline_always,
        reason = "the per-character path: left to itself the compiler calls it from the decode loop, 5-20% more instructions"
    )]
    #[inline(always)]
    fn push_char(&mut self, c: char) {
        let (bytes, len) = utf8_word(c);
        self.push_word(bytes, len);
    }

    #[cold]
    #[inline(never)]
    fn flush(&mut self) {
        let block = simdutf8::basic::from_utf8(&self.block[..self.len])
            .expect("a block holds whole items, which are UTF-8");
        self.text.push_str(block);
        self.len = 0;
    }

    /// Appends an ASCII run longer than [`SHORT_RUN`]: through the block if
    /// it is short enough, or straight into the text after what is pending,
    /// validated on its own, which saves copying it twice.
    #[inline(never)]
    fn push_run(&mut self, run: &[u8]) {
        if run.len() < LONG_RUN {
            self.push_bytes(run);
            return;
        }
        self.flush();
        self.text
            .push_str(simdutf8::basic::from_utf8(run).expect("an ASCII run is UTF-8"));
    }

    /// Appends `bytes` with `memcpy`, a block at a time; they must be ASCII
    /// or fit in the block, since a block must not end inside a character.
    #[inline(never)]
    fn push_bytes(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let take = bytes.len().min(BLOCK + SLACK - self.len);
            let (now, later) = bytes.split_at(take);
            self.block[self.len..self.len + take].copy_from_slice(now);
            self.len += take;
            bytes = later;
            if self.len >= BLOCK {
                self.flush();
            }
        }
    }
}

/// The UTF-8 bytes of `c` in the first bytes of a word, and how many.
#[expect(
    clippy::inline_always,
    reason = "the per-character path: left to itself the compiler calls it from the decode loop, 5-20% more instructions"
)]
#[inline(always)]
fn utf8_word(c: char) -> ([u8; 4], usize) {
    let code_point = u32::from(c);
    // Each value is masked or shifted into a byte before the cast.
    let continuation = |shift: u32| 0x80 | ((code_point >> shift) & 0x3F) as u8;
    if code_point < 0x80 {
        ([code_point as u8, 0, 0, 0], 1)
    } else if code_point < 0x800 {
        ([0xC0 | (code_point >> 6) as u8, continuation(0), 0, 0], 2)
    } else if code_point < 0x1_0000 {
        (
            [
                0xE0 | (code_point >> 12) as u8,
                continuation(6),
                continuation(0),
                0,
            ],
            3,
        )
    } else {
        (
            [
                0xF0 | (code_point >> 18) as u8,
                continuation(12),
                continuation(6),
                continuation(0),
            ],
            4,
        )
    }
}

impl DecodeSink for TextBuilder {
    const TEXT_ONLY: bool = true;

    /// The fast paths hand over a kilobyte or so at a time, which goes
    /// straight into the text after what is pending, validated on its own
    /// (copying it into the block first would only copy it twice); less
    /// where an error interrupts them, which goes into the block, to be
    /// validated with what follows.
    #[inline]
    fn text(&mut self, utf8: &[u8]) {
        if utf8.len() <= SHORT_TEXT && utf8.len() <= BLOCK + SLACK - self.len {
            self.push_bytes(utf8);
            return;
        }
        if self.len > 0 {
            self.flush();
        }
        self.text.push_str(
            simdutf8::basic::from_utf8(utf8).expect("the decoders write whole characters"),
        );
    }

    #[expect(
        clippy::inline_always,
        reason = "the per-character path: left to itself the compiler calls it from the decode loop, 5-20% more instructions"
    )]
    #[inline(always)]
    fn ascii(&mut self, run: &[u8], _start: u64) {
        if run.len() > SHORT_RUN {
            self.push_run(run);
            return;
        }
        // Whole words, the last of them overlapping the one before it when
        // the length is not a multiple of eight; `len` is below `BLOCK`, so
        // the slack has room for all of them.
        let position = self.len;
        let block = &mut self.block[position..position + SHORT_RUN + 8];
        if let Some(last) = run.last_chunk::<8>() {
            let (words, _) = run.as_chunks::<8>();
            for (slot, word) in block.as_chunks_mut::<8>().0.iter_mut().zip(words) {
                *slot = *word;
            }
            block[run.len() - 8..run.len()].copy_from_slice(last);
        } else if let (Some(first), Some(last)) = (run.first_chunk::<4>(), run.last_chunk::<4>()) {
            block[..4].copy_from_slice(first);
            block[run.len() - 4..run.len()].copy_from_slice(last);
        } else {
            for (slot, &byte) in block.iter_mut().zip(run) {
                *slot = byte;
            }
        }
        let position = position + run.len();
        self.len = position;
        if self.len >= BLOCK {
            self.flush();
        }
    }

    #[inline]
    fn ascii_units(&mut self, run: &[u8], start: u64, _unit_len: u8) {
        self.ascii(run, start);
    }

    #[inline]
    fn utf8_run(&mut self, run: &str, _start: u64) {
        if run.len() <= SHORT_RUN && run.len() <= BLOCK + SLACK - self.len {
            // Short runs between errors: into the block, whole (a block must
            // not end inside a character).
            self.push_bytes(run.as_bytes());
        } else {
            // Already a `str`: straight into the text, after what is pending.
            self.flush();
            self.text.push_str(run);
        }
    }

    #[expect(
        clippy::inline_always,
        reason = "the per-character path: left to itself the compiler calls it from the decode loop, 5-20% more instructions"
    )]
    #[inline(always)]
    fn scalar(&mut self, c: char, _span: ByteSpan) {
        self.push_char(c);
    }

    #[inline]
    fn scalar_pair(&mut self, first: char, second: char, _span: ByteSpan) {
        self.push_char(first);
        self.push_char(second);
    }

    /// The characters written with the block's length in a local: through
    /// `self` it would be stored and loaded again for every character, and
    /// that round trip, not the encoding, set the pace.
    #[inline]
    fn scalar_units(&mut self, run: &[char], _start: u64, _unit_len: u8) {
        let mut rest = run;
        while !rest.is_empty() {
            // As many as fit whatever their length: the block has room for
            // four bytes past each one written.
            let room = (BLOCK + SLACK - self.len) / 4;
            let (now, later) = rest.split_at(rest.len().min(room));
            let block = &mut *self.block;
            let mut len = self.len;
            for &c in now {
                let (bytes, char_len) = utf8_word(c);
                block[len..len + 4].copy_from_slice(&bytes);
                len += char_len;
            }
            self.len = len;
            if self.len >= BLOCK {
                self.flush();
            }
            rest = later;
        }
    }

    #[inline]
    fn error(&mut self, _kind: DecodeErrorKind, _span: ByteSpan) {
        self.errors += 1;
        self.push_word([0xEF, 0xBF, 0xBD, 0], 3);
    }

    #[inline]
    fn skip(&mut self, _reason: SkipReason, _span: ByteSpan) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bytes_sink_writes_what_the_builder_writes() {
        use crate::{BomHandling, DecodeErrorMode, Decoder, GBK, KOI8_R, UTF_16LE};
        let text = "Съешь же ещё этих мягких булок, 中文简体字测试。 \u{1F600}\n".repeat(50);
        for encoding in [KOI8_R, GBK, UTF_16LE] {
            let bytes: Vec<u8> = if encoding == UTF_16LE {
                text.encode_utf16().flat_map(u16::to_le_bytes).collect()
            } else {
                encoding.encode(&text).0
            };
            // The builder, and `String`'s sink, which takes one character at
            // a time.
            let built = encoding
                .decode_with_bom_handling(&bytes, BomHandling::None)
                .text;
            let mut expected = String::new();
            let mut decoder =
                Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
            let _ = decoder.decode(&bytes, true, &mut expected);
            assert_eq!(built, expected, "{encoding}");
            let mut written = Vec::new();
            let mut decoder =
                Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
            let _ = decoder.decode(&bytes, true, &mut written);
            assert_eq!(String::from_utf8(written).unwrap(), expected, "{encoding}");
        }
    }

    #[test]
    fn push_utf8_writes_what_std_writes() {
        for c in [
            '\0',
            '\x7F',
            '\u{80}',
            '\u{7FF}',
            '\u{800}',
            '\u{FFFF}',
            '\u{10000}',
            '\u{10FFFF}',
        ] {
            let mut bytes = Vec::new();
            push_utf8(&mut bytes, c);
            assert_eq!(bytes, c.to_string().as_bytes(), "{c:?}");
        }
        let mut bytes = Vec::new();
        bytes.error(DecodeErrorKind::InvalidByte, ByteSpan::new(0, 1));
        assert_eq!(bytes, "\u{FFFD}".as_bytes());
    }

    #[test]
    fn the_builder_writes_what_a_string_sink_writes() {
        // Every length of ASCII run and of UTF-8 run, mixed with scalars of
        // every length, pairs and errors, over several blocks.
        let mut builder = TextBuilder::with_capacity(0);
        let mut expected = String::new();
        let span = ByteSpan::new(0, 1);
        let ascii: Vec<u8> = (0..BLOCK as u32 * 2)
            .map(|n| b'a' + (n % 26) as u8)
            .collect();
        let utf8 = "aé€😀".repeat(BLOCK / 4);
        let mut state = 1_u32;
        for round in 0..3000 {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let len = (state >> 8) as usize % (SHORT_RUN + 20);
            let len = if round % 500 == 0 { BLOCK + len } else { len };
            builder.ascii(&ascii[..len], 0);
            expected.extend(ascii[..len].iter().map(|&byte| char::from(byte)));
            for c in ['\u{7F}', 'é', '€', '😀'] {
                builder.scalar(c, span);
                expected.push(c);
            }
            let mut end = len.min(utf8.len());
            while !utf8.is_char_boundary(end) {
                end -= 1;
            }
            let run = if round % 700 == 0 {
                &utf8
            } else {
                &utf8[..end]
            };
            builder.utf8_run(run, 0);
            expected.push_str(run);
            builder.scalar_pair('Ê', '\u{304}', span);
            builder.error(DecodeErrorKind::InvalidByte, span);
            builder.skip(SkipReason::Bom, span);
            expected.push_str("Ê\u{304}\u{FFFD}");
        }
        let (text, errors) = builder.finish();
        assert!(text == expected, "the texts differ");
        assert_eq!(errors, 3000);
    }
}
