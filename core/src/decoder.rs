//! The streaming decoder: the standard's "process a queue" for decoders, with
//! byte provenance, over input that arrives in chunks.
//!
//! Each encoding's decoder is a *handler* that follows the standard's steps for
//! one byte at a time (see [`Handler`]). The [`Driver`] here feeds it bytes,
//! keeps track of which bytes each item came from, decodes the common valid
//! cases in bulk when the handler allows it (the fast paths, in `fast`),
//! and implements the standard's "restore to the I/O queue", which may
//! reach back into bytes of an earlier chunk. Because the handler's state
//! and the few bytes of a pending sequence are all that cross a chunk
//! boundary, the output, errors and spans do not depend on where the
//! boundaries fall.

mod fast;
pub(crate) mod text_runs;

use crate::bom;
use crate::codec::DecoderCodec;
use crate::encoding::Encoding;
use crate::provenance::{ByteSpan, DecodeErrorKind, DecodeSink, SkipReason};

#[cfg(test)]
pub(crate) use fast::PairLookup;
use fast::items_in_input;
pub(crate) use fast::{PairTable, ascii_prefix_len, decode_valid_by_probe};
pub(crate) use text_runs::{utf8_entry, utf8_table};

/// How a decoder handles errors: the standard's decoder error modes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DecodeErrorMode {
    /// Each error becomes U+FFFD and decoding goes on.
    #[default]
    Replacement,
    /// Decoding stops at the first error, which is returned to the caller.
    Fatal,
}

/// What byte order mark handling a [`Decoder`] does before decoding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BomHandling {
    /// The standard's "decode": a UTF-8, UTF-16BE or UTF-16LE byte order mark
    /// is removed and picks the encoding, whatever encoding was asked for.
    #[default]
    Sniff,
    /// The standard's "UTF-8 decode": a UTF-8 byte order mark is removed; no
    /// other byte order mark is looked for and the encoding never changes.
    RemoveUtf8,
    /// No byte order mark handling: the encoding's decoder sees every byte.
    None,
}

/// Why a call to [`Decoder::decode`] returned.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecoderResult {
    /// All the input given was consumed.
    InputEmpty,
    /// Fatal mode only: an error. The bytes it covers were consumed; call again
    /// with the rest of the input to go on past it.
    Malformed {
        /// Why it is an error.
        kind: DecodeErrorKind,
        /// The bytes the error consumed.
        span: ByteSpan,
    },
}

/// What a handler returns for one byte, or for the end of the input: the
/// standard's handler results, plus the provenance the driver needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// The byte was consumed and the sequence goes on.
    Continue,
    /// The bytes since the last item decode to one scalar value.
    Scalar(char),
    /// The bytes since the last item decode to two scalar values.
    Pair(char, char),
    /// The bytes since the last item produce nothing (an escape sequence).
    Skip(SkipReason),
    /// An error. The last `restore` bytes consumed (the current byte included)
    /// go back to the input, as the standard's "restore" and "prepend" do, and
    /// will be handled again; the error covers the bytes before them.
    Error { kind: DecodeErrorKind, restore: u8 },
    /// End of input and nothing pending.
    Finished,
}

impl Step {
    /// An error that consumes every byte since the last item.
    pub(crate) const fn error(kind: DecodeErrorKind) -> Self {
        Self::Error { kind, restore: 0 }
    }

    /// An error after which the current byte is restored to the input.
    pub(crate) const fn error_restoring_byte(kind: DecodeErrorKind) -> Self {
        Self::Error { kind, restore: 1 }
    }
}

/// One encoding's decoder: its state and the standard's handler.
pub(crate) trait Handler {
    /// The handler given a byte.
    fn handle(&mut self, byte: u8) -> Step;

    /// The handler given end-of-queue. Must eventually return
    /// [`Step::Finished`] (after resetting any pending state on error).
    fn handle_end(&mut self) -> Step;

    /// Whether, in the current state, every ASCII byte decodes to itself and
    /// leaves the state unchanged, so the driver may copy ASCII runs in bulk.
    fn is_ascii_ground(&self) -> bool;

    /// Not in spec: how many bytes at the start of `bytes` (which begins
    /// with an ASCII byte, at an item boundary) are ASCII bytes that each
    /// decode to themselves, one item each, leaving the state as handing
    /// them to [`handle`](Self::handle) would. The default is the whole
    /// ASCII run while [`is_ascii_ground`](Self::is_ascii_ground) holds,
    /// nothing otherwise.
    #[inline]
    fn ascii_run_len(&mut self, bytes: &[u8]) -> usize {
        if !self.is_ascii_ground() {
            return 0;
        }
        if !bytes.get(1).is_some_and(u8::is_ascii) {
            // A lone ASCII byte (a space between the words of another
            // script): no need to look for a run.
            return 1;
        }
        ascii_prefix_len(bytes)
    }

    /// Not in spec: how many bytes at the start of `bytes` (at an item
    /// boundary) are each, on their own, an invalid-byte error
    /// ([`DecodeErrorKind::InvalidByte`], nothing restored), leaving the
    /// state as handing them to [`handle`](Self::handle) would; so that the
    /// driver may report them itself in replacement mode. The default is
    /// none.
    #[inline]
    fn invalid_run_len(&mut self, bytes: &[u8]) -> usize {
        let _ = bytes;
        0
    }

    /// Not in spec: an optional fast path for the common valid case; the
    /// default declines everything. The driver calls it only at an item
    /// boundary (no byte consumed since the last item) with the rest of the
    /// input. It may return `Some((c, len))` only when handing `bytes[..len]`
    /// to [`handle`](Self::handle) one at a time would return
    /// [`Step::Continue`] `len - 1` times and then [`Step::Scalar`]`(c)`, and it
    /// must then leave the state exactly as those calls would. Anything else
    /// (errors, pairs, skips, sequences cut off by the end of `bytes`, state
    /// changes) it declines with `None`, state untouched, and the driver goes
    /// on with `handle`, which stays the reference. Each implementation says
    /// which of the standard's steps it takes a shortcut through.
    #[inline]
    fn decode_valid(&mut self, bytes: &[u8]) -> Option<(char, usize)> {
        let _ = bytes;
        None
    }

    /// Not in spec: for decoders in which every byte decodes on its own,
    /// whatever came before it, the table of what the bytes 0x80..=0xFF
    /// decode to (`None` for an error), so that the driver may look them up
    /// itself. It must agree with [`handle`](Self::handle), which still
    /// handles the errors; ASCII bytes must decode to themselves.
    fn byte_table(&self) -> Option<&'static [Option<char>; 128]> {
        None
    }

    /// Not in spec: with a [`byte_table`](Self::byte_table), the same as
    /// UTF-8 table entries (see `text_runs::utf8_entry`; 0 for an error),
    /// for the fast path of the sinks that keep only the text.
    fn utf8_byte_table(&self) -> Option<&'static [u32; 128]> {
        None
    }

    /// Not in spec: for two-byte decoders, the common case (a leading byte,
    /// a trailing byte, a code point from the index) as flat tables the
    /// driver looks sequences up in itself while
    /// [`is_ascii_ground`](Self::is_ascii_ground) holds. For every pair the
    /// table gives a code point for, `handle` must return
    /// [`Step::Continue`] for the first byte, then [`Step::Scalar`] with that
    /// code point, and be back in the same state. Everything else goes to
    /// [`decode_valid`](Self::decode_valid) and `handle` as before.
    fn pair_table(&self) -> Option<&'static PairTable> {
        None
    }

    /// Not in spec: for the UTF-16 decoders with nothing pending, whether
    /// code units are big-endian (`Some(true)`) or little-endian, so that
    /// the driver may decode code units that are not surrogates itself, each
    /// to the scalar value of the same number.
    fn utf16_big_endian(&self) -> Option<bool> {
        None
    }

    /// Not in spec: whether, in the ground state, any run of valid UTF-8
    /// decodes to itself (true for the UTF-8 decoder only), so the driver may
    /// validate and copy such runs in bulk.
    const DECODES_VALID_UTF8_AS_ITSELF: bool = false;
}

/// Bytes of a pending sequence kept between calls. The longest pending
/// sequence in the standard is three bytes (gb18030 and UTF-8).
const CARRY_CAPACITY: usize = 8;

/// The bookkeeping around a handler: offsets, spans, and bytes of a pending
/// sequence carried over from earlier calls.
#[derive(Clone, Debug, Default)]
pub(crate) struct Driver {
    /// Offset of the first byte of the next call's input.
    next_base: u64,
    /// Offset of the next byte to hand to the handler. Below `next_base` when
    /// bytes of an earlier call were restored and await handling again.
    cursor: u64,
    /// Offset where the pending item begins.
    item_start: u64,
    /// The bytes `item_start..next_base`, kept from earlier calls.
    carry: [u8; CARRY_CAPACITY],
    carry_len: u8,
}

impl Driver {
    /// A driver whose first input byte has offset `start`.
    pub(crate) fn starting_at(start: u64) -> Self {
        Self {
            next_base: start,
            cursor: start,
            item_start: start,
            ..Self::default()
        }
    }

    /// Offset of the first byte of the next call's input.
    pub(crate) fn next_base(&self) -> u64 {
        self.next_base
    }

    /// The bytes kept from earlier calls (offsets `item_start..next_base`),
    /// and how many of them the handler has read (the rest were restored to
    /// the input and await handling again).
    pub(crate) fn carry(&self) -> (&[u8], usize) {
        let carry = &self.carry[..usize::from(self.carry_len)];
        let read = self.cursor.saturating_sub(self.item_start) as usize;
        (carry, read.min(carry.len()))
    }

    /// Whether a sequence is pending (bytes consumed that have made no item yet).
    pub(crate) fn has_pending(&self) -> bool {
        self.carry_len > 0
    }

    /// Runs the handler over `input`, reporting items to `sink`. Returns why
    /// it stopped and how many bytes of `input` it consumed.
    #[inline]
    pub(crate) fn run<H: Handler, S: DecodeSink>(
        &mut self,
        handler: &mut H,
        input: &[u8],
        last: bool,
        mode: DecodeErrorMode,
        sink: &mut S,
    ) -> (DecoderResult, usize) {
        let base = self.next_base;
        let carry_start = base - u64::from(self.carry_len);
        let end = base + input.len() as u64;
        let mut cursor = self.cursor;
        let mut item_start = self.item_start;

        loop {
            if cursor == item_start && cursor >= base && cursor < end {
                // Not in spec: at an item boundary, decode the common valid
                // cases in a tight loop (see `fast_items`).
                let (start_index, cursor_index) =
                    items_in_input(handler, input, (cursor - base) as usize, base, mode, sink);
                item_start = base + start_index as u64;
                cursor = base + cursor_index as u64;
            }
            let step = if cursor < base {
                // Not in spec: bytes of an earlier call that were restored to
                // the input are read again from the carry.
                let byte = self.carry[(cursor - carry_start) as usize];
                cursor += 1;
                handler.handle(byte)
            } else if cursor < end {
                let byte = input[(cursor - base) as usize];
                cursor += 1;
                handler.handle(byte)
            } else if last {
                handler.handle_end()
            } else {
                break;
            };

            match step {
                Step::Continue => {
                    debug_assert!(cursor <= end, "end-of-queue must not return continue");
                }
                Step::Scalar(c) => {
                    sink.scalar(c, ByteSpan::new(item_start, cursor));
                    item_start = cursor;
                }
                Step::Pair(first, second) => {
                    sink.scalar_pair(first, second, ByteSpan::new(item_start, cursor));
                    item_start = cursor;
                }
                Step::Skip(reason) => {
                    sink.skip(reason, ByteSpan::new(item_start, cursor));
                    item_start = cursor;
                }
                Step::Error { kind, restore } => {
                    cursor -= u64::from(restore);
                    debug_assert!(cursor > item_start, "an error consumes at least one byte");
                    let span = ByteSpan::new(item_start, cursor);
                    item_start = cursor;
                    match mode {
                        DecodeErrorMode::Replacement => sink.error(kind, span),
                        DecodeErrorMode::Fatal => {
                            let read = self.save(input, carry_start, cursor, item_start, cursor);
                            return (DecoderResult::Malformed { kind, span }, read);
                        }
                    }
                }
                Step::Finished => {
                    debug_assert_eq!(item_start, end, "finished with bytes pending");
                    break;
                }
            }
        }
        let read = self.save(input, carry_start, end, item_start, cursor);
        (DecoderResult::InputEmpty, read)
    }

    /// Records where the next call resumes: the new `next_base` is `stop`, and
    /// the bytes `item_start..stop` are carried over. Returns how many bytes of
    /// `input` count as read.
    fn save(
        &mut self,
        input: &[u8],
        carry_start: u64,
        stop: u64,
        item_start: u64,
        cursor: u64,
    ) -> usize {
        let base = self.next_base;
        let stop = stop.max(base);
        let mut carry = [0; CARRY_CAPACITY];
        let len = (stop - item_start) as usize;
        assert!(
            len <= CARRY_CAPACITY,
            "pending sequence longer than any the standard defines"
        );
        for (slot, byte_offset) in carry.iter_mut().zip(item_start..stop) {
            *slot = if byte_offset < base {
                self.carry[(byte_offset - carry_start) as usize]
            } else {
                input[(byte_offset - base) as usize]
            };
        }
        self.carry = carry;
        self.carry_len = len as u8;
        self.next_base = stop;
        self.cursor = cursor;
        self.item_start = item_start;
        (stop - base) as usize
    }
}

/// Byte order mark handling before the decoder proper.
#[derive(Clone, Debug)]
enum BomState {
    /// Still collecting the first bytes to look for a byte order mark.
    Sniffing {
        handling: BomHandling,
        buffer: [u8; 3],
        len: u8,
    },
    /// Decided; these bytes collected while sniffing still await decoding.
    Replay { buffer: [u8; 3], start: u8, len: u8 },
    /// Decided, nothing left over.
    Done,
}

/// Not in spec: a decoder's state as `explain` needs it to replay the
/// decoder from where it is.
pub(crate) struct Resume<'a> {
    /// The encoding being decoded.
    pub(crate) encoding: &'static Encoding,
    /// The handler and its state.
    pub(crate) codec: &'a DecoderCodec,
    /// Offset of `carry[0]` (or of `unread[0]` when `carry` is empty).
    pub(crate) start: u64,
    /// The bytes of the pending item kept from earlier calls.
    pub(crate) carry: &'a [u8],
    /// How many of `carry` the handler has read.
    pub(crate) carry_read: usize,
    /// Bytes given to the decoder that follow `carry` and that its handler
    /// has not seen: collected while sniffing for a byte order mark, or
    /// waiting to be replayed after it.
    pub(crate) unread: &'a [u8],
    /// The byte order mark handling still to do, if sniffing is undecided.
    pub(crate) sniffing: Option<BomHandling>,
}

/// A streaming decoder for one encoding: the standard's decoder instance,
/// with its state kept between calls, and optional BOM handling.
///
/// Feed it chunks with [`decode`](Self::decode); the items reported to the
/// sink, their spans and the errors do not depend on how the input is split.
///
/// ```
/// use mojiscope_core::{Decoder, DecoderResult, DecodeErrorMode, BomHandling, SHIFT_JIS};
///
/// let mut decoder = Decoder::new(SHIFT_JIS, DecodeErrorMode::Replacement, BomHandling::None);
/// let mut text = String::new();
/// let (result, read) = decoder.decode(b"\x82", false, &mut text);
/// assert_eq!((result, read), (DecoderResult::InputEmpty, 1));
/// let (result, _) = decoder.decode(b"\xA0!", true, &mut text);
/// assert_eq!(result, DecoderResult::InputEmpty);
/// assert_eq!(text, "あ!");
/// ```
#[derive(Clone, Debug)]
pub struct Decoder {
    encoding: &'static Encoding,
    mode: DecodeErrorMode,
    bom: BomState,
    codec: DecoderCodec,
    driver: Driver,
}

impl Decoder {
    /// A decoder for `encoding` with the given error mode and BOM handling.
    pub fn new(encoding: &'static Encoding, mode: DecodeErrorMode, bom: BomHandling) -> Self {
        let bom = match bom {
            BomHandling::None => BomState::Done,
            handling => BomState::Sniffing {
                handling,
                buffer: [0; 3],
                len: 0,
            },
        };
        Self {
            encoding,
            mode,
            bom,
            codec: DecoderCodec::new(encoding),
            driver: Driver::starting_at(0),
        }
    }

    /// A decoder for `encoding` whose first input byte has offset `start`,
    /// without byte order mark handling: for decoding one part of an input
    /// on its own (a run of lines in another encoding), with the items'
    /// spans at their offsets in the whole input.
    ///
    /// ```
    /// use mojiscope_core::{ByteSpan, Decoder, DecodeErrorMode, Trace, WINDOWS_1252};
    ///
    /// let mut decoder = Decoder::starting_at(WINDOWS_1252, DecodeErrorMode::Replacement, 40);
    /// let mut trace = Trace::new();
    /// let _ = decoder.decode(b"\xE9", true, &mut trace);
    /// assert_eq!(trace.items().next().map(|item| item.span), Some(ByteSpan::new(40, 41)));
    /// assert_eq!(decoder.byte_offset(), 41);
    /// ```
    pub fn starting_at(encoding: &'static Encoding, mode: DecodeErrorMode, start: u64) -> Self {
        Self {
            encoding,
            mode,
            bom: BomState::Done,
            codec: DecoderCodec::new(encoding),
            driver: Driver::starting_at(start),
        }
    }

    /// The encoding being decoded: the one asked for, or the one a byte order
    /// mark picked once sniffing has decided.
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// The error mode.
    pub fn mode(&self) -> DecodeErrorMode {
        self.mode
    }

    /// Whether BOM sniffing is still waiting for more bytes to decide.
    pub fn is_sniffing(&self) -> bool {
        matches!(self.bom, BomState::Sniffing { .. })
    }

    /// Offset of the next byte this decoder will be given (the number of bytes
    /// given so far).
    pub fn byte_offset(&self) -> u64 {
        match &self.bom {
            BomState::Sniffing { len, .. } => u64::from(*len),
            BomState::Replay { len, start, .. } => self.driver.next_base() + u64::from(len - start),
            BomState::Done => self.driver.next_base(),
        }
    }

    /// Whether bytes have been consumed that have not made an item yet
    /// (a sequence that the next bytes may complete).
    pub fn has_pending(&self) -> bool {
        match &self.bom {
            BomState::Sniffing { len, .. } => *len > 0,
            BomState::Replay { .. } => true,
            BomState::Done => self.driver.has_pending(),
        }
    }

    /// Not in spec: where this decoder is, for `explain` to go on from there.
    pub(crate) fn resume(&self) -> Resume<'_> {
        let (carry, carry_read) = self.driver.carry();
        let (unread, sniffing): (&[u8], _) = match &self.bom {
            BomState::Sniffing {
                handling,
                buffer,
                len,
            } => (&buffer[..usize::from(*len)], Some(*handling)),
            BomState::Replay { buffer, start, len } => {
                (&buffer[usize::from(*start)..usize::from(*len)], None)
            }
            BomState::Done => (&[], None),
        };
        Resume {
            encoding: self.encoding,
            codec: &self.codec,
            start: self.driver.next_base() - carry.len() as u64,
            carry,
            carry_read,
            unread,
            sniffing,
        }
    }

    /// Decodes `input`, reporting each item to `sink`. `last` says that no
    /// more input follows, so a pending sequence is an error.
    ///
    /// Returns why it stopped and how many bytes of `input` were consumed:
    /// all of them unless fatal mode met an error, in which case call again
    /// with the rest to go on.
    pub fn decode<S: DecodeSink>(
        &mut self,
        input: &[u8],
        last: bool,
        sink: &mut S,
    ) -> (DecoderResult, usize) {
        let mut read = 0;
        if let BomState::Sniffing {
            handling,
            mut buffer,
            mut len,
        } = self.bom
        {
            // Not in spec: the standard peeks three bytes of a queue that is
            // all there; a stream decides as soon as the bytes seen so far
            // settle the question.
            while bom::is_strict_prefix(&buffer[..usize::from(len)]) && read < input.len() {
                buffer[usize::from(len)] = input[read];
                len += 1;
                read += 1;
            }
            let seen = &buffer[..usize::from(len)];
            let decided = last || !bom::is_strict_prefix(seen);
            if !decided {
                self.bom = BomState::Sniffing {
                    handling,
                    buffer,
                    len,
                };
                return (DecoderResult::InputEmpty, read);
            }
            let found = bom::bom_sniff(seen)
                .filter(|found| handling == BomHandling::Sniff || *found == crate::UTF_8);
            let bom_len = found.map_or(0, bom::bom_length);
            if let Some(found) = found {
                self.encoding = found;
                self.codec = DecoderCodec::new(found);
                sink.skip(SkipReason::Bom, ByteSpan::new(0, bom_len as u64));
            }
            self.driver = Driver::starting_at(bom_len as u64);
            self.bom = BomState::Replay {
                buffer,
                start: bom_len as u8,
                len,
            };
        }
        if let BomState::Replay { buffer, start, len } = self.bom {
            let pending = &buffer[usize::from(start)..usize::from(len)];
            let replay_last = last && read == input.len();
            let (result, consumed) =
                self.codec
                    .run(&mut self.driver, pending, replay_last, self.mode, sink);
            let start = start + consumed as u8;
            self.bom = if start == len {
                BomState::Done
            } else {
                BomState::Replay { buffer, start, len }
            };
            if result != DecoderResult::InputEmpty {
                return (result, read);
            }
            if replay_last {
                return (result, read);
            }
        }
        let (result, consumed) =
            self.codec
                .run(&mut self.driver, &input[read..], last, self.mode, sink);
        (result, read + consumed)
    }
}
