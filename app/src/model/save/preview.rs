//! What a save will do, found before anything is written: every character
//! the output encoding cannot encode, where each is, and whether the bytes
//! read back as the same text.
//!
//! One streaming pass ([`run`]) reads the text a chunk at a time, encodes
//! it, decodes those bytes back with the same encoding (the standard's
//! "decode", as a reader of the file would) and compares the two texts as
//! it goes, so that a file of any size takes a few chunks of memory plus
//! the list of unencodable characters, stored compactly
//! ([`UnencodableList`]). Saving runs the very same pass with the bytes
//! going to the file.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use mojiscope_core::{
    BomHandling, DecodeErrorMode, Decoder, EncodeErrorMode, Encoder, EncoderResult, Encoding, UTF_8,
};

use super::source::{Chunk, TextSource};

/// The UTF-8 byte order mark.
pub const UTF_8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// How many round-trip differences are kept with their places (all are
/// counted).
pub const MAX_DIFFERENCES: usize = 100;

/// Characters compared past a difference to tell a changed character from
/// one lost or one added.
const LOOKAHEAD: usize = 4;

/// After this many differences the comparison stops: text that reads back
/// as something else throughout (a reader that takes it for another
/// encoding) is told in a moment, not in minutes.
pub const MAX_COUNTED_DIFFERENCES: u64 = 1_000_000;

/// Where a character of the text is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Place {
    /// Where it came from: for a decode, the offset of its first byte in
    /// the file.
    pub source_offset: u64,
    /// How many characters of the text precede it.
    pub char_index: u64,
    /// Its line, from 1 (lines end after each U+000A LINE FEED).
    pub line: u64,
    /// Its column, from 1, in characters.
    pub column: u64,
}

impl Place {
    /// The place of the first character.
    pub const START: Place = Place {
        source_offset: 0,
        char_index: 0,
        line: 1,
        column: 1,
    };
}

/// A character the output encoding cannot encode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unencodable {
    /// The character.
    pub character: char,
    /// What the standard's error carries, which html mode writes as
    /// `&#N;`: the character itself, except that ISO-2022-JP reports
    /// U+FFFD for U+000E, U+000F and U+001B.
    pub reported: char,
    /// Where it is.
    pub place: Place,
}

impl Unencodable {
    /// The numeric character reference html mode writes for it: `&#N;`.
    pub fn reference(&self) -> String {
        format!("&#{};", u32::from(self.reported))
    }
}

/// Every [`CHECKPOINT_EVERY`]th entry of an [`UnencodableList`]: where its
/// bytes start, and its place in full.
#[derive(Clone, Copy, Debug)]
struct Checkpoint {
    byte_offset: usize,
    place: Place,
}

/// Every unencodable character of a text, in order, in three to five bytes
/// each, however they are spread (a Japanese text saved as windows-1252,
/// or a few symbols in a long file).
///
/// Each entry is a header byte, a few varints if needed, and the character
/// as a varint (LEB128). The header holds the distance of the entry's
/// source offset from the previous entry's (3 bits: 0 to 6, or 7 for a
/// varint), its distance in characters (3 bits: 1 to 7, or 7 and a varint),
/// whether it starts a later line (then the line distance, the column and
/// the distance in characters follow as varints; on the same line the
/// column moves as the characters do), and whether it is reported as
/// U+FFFD. Every 128th entry's place is stored in full,
/// so finding one decodes at most that many.
#[derive(Clone, Debug, Default)]
pub struct UnencodableList {
    bytes: Vec<u8>,
    checkpoints: Vec<Checkpoint>,
    len: u64,
    /// The place of the last entry.
    last: Place,
}

/// Entries between two full places in an [`UnencodableList`].
const CHECKPOINT_EVERY: u64 = 128;

const SMALL_MAX: u64 = 6;
const VARINT_FOLLOWS: u8 = 7;
const CHAR_DELTA_SHIFT: u8 = 3;
const NEW_LINE: u8 = 1 << 6;
const REPORTED_FFFD: u8 = 1 << 7;

fn push_varint(bytes: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        bytes.push((value as u8) | 0x80);
        value >>= 7;
    }
    bytes.push(value as u8);
}

fn read_varint(bytes: &[u8], cursor: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    let mut shift = 0;
    loop {
        let byte = *bytes.get(*cursor)?;
        *cursor += 1;
        value |= u64::from(byte & 0x7F).checked_shl(shift)?;
        if byte < 0x80 {
            return Some(value);
        }
        shift += 7;
    }
}

impl UnencodableList {
    /// How many there are.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds one, after those already listed (so at a later place).
    pub fn push(&mut self, unencodable: Unencodable) {
        let place = unencodable.place;
        let mut header = if unencodable.reported == unencodable.character {
            0
        } else {
            debug_assert_eq!(unencodable.reported, char::REPLACEMENT_CHARACTER);
            REPORTED_FFFD
        };
        if self.len.is_multiple_of(CHECKPOINT_EVERY) {
            self.checkpoints.push(Checkpoint {
                byte_offset: self.bytes.len(),
                place,
            });
            self.bytes.push(header);
        } else {
            let last = self.last;
            debug_assert!(place.source_offset >= last.source_offset);
            debug_assert!(place.char_index > last.char_index && place.line >= last.line);
            let source_delta = place.source_offset.saturating_sub(last.source_offset);
            let char_delta = place.char_index.saturating_sub(last.char_index);
            let new_line = place.line != last.line;
            // Both fit in three bits where they are small.
            header |= if source_delta <= SMALL_MAX {
                source_delta as u8
            } else {
                VARINT_FOLLOWS
            };
            let small_chars = !new_line && (1..=SMALL_MAX + 1).contains(&char_delta);
            header |= if small_chars {
                (char_delta - 1) as u8
            } else {
                VARINT_FOLLOWS
            } << CHAR_DELTA_SHIFT;
            if new_line {
                header |= NEW_LINE;
            }
            self.bytes.push(header);
            if source_delta > SMALL_MAX {
                push_varint(&mut self.bytes, source_delta);
            }
            if !small_chars {
                push_varint(&mut self.bytes, char_delta);
            }
            if new_line {
                push_varint(&mut self.bytes, place.line.saturating_sub(last.line));
                push_varint(&mut self.bytes, place.column);
            }
        }
        push_varint(&mut self.bytes, u64::from(u32::from(unencodable.character)));
        self.last = place;
        self.len += 1;
    }

    /// The `index`th (from 0), if there is one.
    pub fn get(&self, index: u64) -> Option<Unencodable> {
        if index >= self.len {
            return None;
        }
        let checkpoint = self
            .checkpoints
            .get(usize::try_from(index / CHECKPOINT_EVERY).ok()?)?;
        let mut cursor = checkpoint.byte_offset;
        let mut place = checkpoint.place;
        let mut entry = None;
        for step in 0..=index % CHECKPOINT_EVERY {
            let header = *self.bytes.get(cursor)?;
            cursor += 1;
            if step > 0 {
                let source_delta = match u64::from(header & VARINT_FOLLOWS) {
                    small @ 0..=SMALL_MAX => small,
                    _ => read_varint(&self.bytes, &mut cursor)?,
                };
                let char_delta = match u64::from(header >> CHAR_DELTA_SHIFT & VARINT_FOLLOWS) {
                    small @ 0..=SMALL_MAX => small + 1,
                    _ => read_varint(&self.bytes, &mut cursor)?,
                };
                place.source_offset += source_delta;
                place.char_index += char_delta;
                if header & NEW_LINE == 0 {
                    place.column += char_delta;
                } else {
                    place.line += read_varint(&self.bytes, &mut cursor)?;
                    place.column = read_varint(&self.bytes, &mut cursor)?;
                }
            }
            let character =
                char::from_u32(u32::try_from(read_varint(&self.bytes, &mut cursor)?).ok()?)?;
            entry = Some((character, header & REPORTED_FFFD != 0));
        }
        let (character, reported_fffd) = entry?;
        Some(Unencodable {
            character,
            reported: if reported_fffd {
                char::REPLACEMENT_CHARACTER
            } else {
                character
            },
            place,
        })
    }

    /// Gives back the memory reserved beyond what is used.
    fn shrink_to_fit(&mut self) {
        self.bytes.shrink_to_fit();
        self.checkpoints.shrink_to_fit();
    }

    /// The heap memory the list takes, in bytes.
    pub fn heap_bytes(&self) -> usize {
        self.bytes.capacity() + self.checkpoints.capacity() * size_of::<Checkpoint>()
    }
}

/// One place where the text read back differs from the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Where in the text.
    pub place: Place,
    /// The character of the text there (`None`: an extra character was
    /// read back before it, or the text had ended).
    pub expected: Option<char>,
    /// What was read back instead (`None`: nothing, the character is lost).
    pub found: Option<char>,
}

/// Whether the bytes about to be written read back as the text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundTrip {
    /// Unencodable characters written as `&#N;` (html mode), which read
    /// back as that text: each is a place where the text differs.
    pub references: u64,
    /// Other places where the text read back differs.
    pub differences: u64,
    /// The first [`MAX_DIFFERENCES`] of those.
    pub first_differences: Vec<Difference>,
    /// The encoding a reader takes the bytes for, where it is not the one
    /// written: a byte order mark at their start decides (windows-1252
    /// text beginning "ÿþ" is read as UTF-16LE).
    pub read_as: Option<&'static Encoding>,
    /// Where the comparison stopped after [`MAX_COUNTED_DIFFERENCES`], if
    /// it did: past it nothing is counted.
    pub stopped_at: Option<Place>,
}

impl RoundTrip {
    /// Whether the bytes read back as exactly the text.
    pub fn is_lossless(&self) -> bool {
        self.references == 0 && self.differences == 0
    }
}

/// What a save will write, and what it will lose.
#[derive(Clone, Debug)]
pub struct Preview {
    /// The encoding written: the output encoding of the one chosen.
    pub encoding: &'static Encoding,
    /// The encoding the source was decoded with (for a decode: the one a
    /// byte order mark picked, if one did).
    pub source_encoding: Option<&'static Encoding>,
    /// Whether the bytes start with a UTF-8 byte order mark.
    pub bom: bool,
    /// Every character `encoding` cannot encode.
    pub unencodable: UnencodableList,
    /// Whether the bytes read back as the text.
    pub round_trip: RoundTrip,
    /// How many U+FFFD of the text decoding errors produced.
    pub decoding_errors: u64,
    /// Where the first of them is.
    pub first_decoding_error: Option<Place>,
    /// Characters in the text.
    pub chars: u64,
    /// Lines in the text (the last one counts even without a line feed).
    pub lines: u64,
    /// Bytes written (in fatal mode with unencodable characters: what html
    /// mode would write).
    pub bytes: u64,
}

/// What to encode the text into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassOptions {
    /// The encoding chosen; its output encoding is written ("get an output
    /// encoding": UTF-8 for UTF-16BE, UTF-16LE and replacement).
    pub encoding: &'static Encoding,
    /// The encoder's error mode.
    pub mode: EncodeErrorMode,
    /// Start with a UTF-8 byte order mark (only when the output encoding
    /// is UTF-8).
    pub bom: bool,
}

/// Why a pass stopped before the end.
#[derive(Debug)]
pub enum Stop {
    /// The cancel flag was set.
    Cancelled,
    /// Writing the bytes failed.
    Write(io::Error),
    /// Fatal mode met a character the encoding cannot encode.
    Unencodable(Unencodable),
}

/// Encodes `source`'s text as `options` say, writing the bytes to `output`
/// if given, and finds everything a [`Preview`] tells. `progress` hears
/// `(done, total)` in source bytes after each chunk; `cancel` is looked at
/// between chunks.
///
/// For a preview, pass [`EncodeErrorMode::Html`] and no output: the pass
/// then lists every unencodable character (fatal mode would stop at the
/// first), and its bytes are those of a fatal-mode save whenever there is
/// none.
///
/// # Errors
/// [`Stop::Cancelled`], [`Stop::Write`], or in fatal mode
/// [`Stop::Unencodable`] with the first unencodable character.
pub fn run(
    source: &TextSource,
    options: &PassOptions,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u64, u64),
    mut output: Option<&mut dyn Write>,
) -> Result<Preview, Stop> {
    let encoding = options.encoding.output_encoding();
    let bom = options.bom && encoding == UTF_8;
    let mut encoder = Encoder::new(encoding, options.mode);
    // Read back as a reader of the file would: a byte order mark decides.
    let mut reader_back = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::Sniff);
    let mut walk = Walk::default();
    let mut bytes = Vec::new();
    if bom {
        bytes.extend_from_slice(UTF_8_BOM);
    }
    let mut written = 0u64;
    let mut reader = source.reader();
    let mut chunk = Chunk::default();
    let total = source.len();
    loop {
        if cancel.load(Ordering::Relaxed) {
            return Err(Stop::Cancelled);
        }
        let last = reader.next_chunk(&mut chunk);
        let chunk_start = walk.pending.end();
        let mut rest = chunk.text.as_str();
        loop {
            let (result, read) = encoder.encode(rest, last, &mut bytes);
            rest = &rest[read..];
            match result {
                EncoderResult::InputEmpty => break,
                EncoderResult::Unmappable(unmappable) => {
                    if encoder.mode() == EncodeErrorMode::Fatal {
                        walk.pending.push(&chunk);
                        walk.pending.advance_to(unmappable.utf8_offset);
                        return Err(Stop::Unencodable(Unencodable {
                            character: unmappable.character,
                            reported: unmappable.reported,
                            place: walk.pending.place(),
                        }));
                    }
                    let mark = Reference {
                        t_offset: unmappable.utf8_offset,
                        character: unmappable.character,
                        reported: unmappable.reported,
                    };
                    walk.unencodable_marks.push_back(mark);
                    walk.comparator.references.push_back(mark);
                }
            }
        }
        if let Some(output) = output.as_mut() {
            output.write_all(&bytes).map_err(Stop::Write)?;
        }
        written += bytes.len() as u64;
        walk.decoding_errors += chunk.error_offsets.len() as u64;
        if walk.first_error_offset.is_none() && walk.first_decoding_error.is_none() {
            walk.first_error_offset = chunk
                .error_offsets
                .first()
                .map(|&offset| chunk_start + offset as u64);
        }
        walk.pending.push(&chunk);
        walk.comparator.take_decoded();
        let _ = reader_back.decode(&bytes, last, &mut walk.comparator.decoded);
        bytes.clear();
        walk.comparator.compare(&walk.pending, last);
        walk.settle();
        progress(reader.done(), total);
        if last {
            break;
        }
    }
    let end = walk.pending.place();
    walk.list.shrink_to_fit();
    Ok(Preview {
        encoding,
        source_encoding: reader.decoded_encoding(),
        bom,
        unencodable: walk.list,
        round_trip: RoundTrip {
            references: walk.comparator.references_read_back,
            differences: walk.comparator.differences,
            first_differences: walk.differences,
            read_as: Some(reader_back.encoding()).filter(|&read_as| read_as != encoding),
            stopped_at: walk.stopped_at,
        },
        decoding_errors: walk.decoding_errors,
        first_decoding_error: walk.first_decoding_error,
        chars: end.char_index,
        lines: if end.column > 1 {
            end.line
        } else {
            end.line - 1
        },
        bytes: written,
    })
}

/// An unencodable character, by its offset in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reference {
    /// UTF-8 offset in the whole text.
    t_offset: u64,
    character: char,
    reported: char,
}

/// `&#N;` for `c`, written into `buffer`.
fn reference_text(c: char, buffer: &mut [u8; 12]) -> &str {
    let mut value = u32::from(c);
    // Digits from the end: "&#" + at most seven digits + ";".
    let mut start = 11;
    buffer[11] = b';';
    loop {
        start -= 1;
        buffer[start] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    start -= 2;
    buffer[start] = b'&';
    buffer[start + 1] = b'#';
    std::str::from_utf8(&buffer[start..]).unwrap_or_default()
}

/// A stretch of the text and where it came from, by offsets in the whole
/// text.
#[derive(Clone, Copy, Debug)]
struct TextOrigin {
    t_offset: u64,
    source_offset: u64,
    is_run: bool,
}

/// The text not yet located, with the running place of its start.
#[derive(Debug)]
struct Pending {
    text: String,
    /// `text[..cursor]` is behind the place.
    cursor: usize,
    /// The offset in the whole text of `text[0]`.
    start: u64,
    origins: VecDeque<TextOrigin>,
    /// The place at `cursor` (its `source_offset` is found on demand).
    place: Place,
}

impl Default for Pending {
    fn default() -> Self {
        Self {
            text: String::new(),
            cursor: 0,
            start: 0,
            origins: VecDeque::new(),
            place: Place::START,
        }
    }
}

impl Pending {
    /// The offset in the whole text just past what has been pushed.
    fn end(&self) -> u64 {
        self.start + self.text.len() as u64
    }

    /// The offset in the whole text of the place.
    fn position(&self) -> u64 {
        self.start + self.cursor as u64
    }

    fn push(&mut self, chunk: &Chunk) {
        if self.cursor > 0 && self.cursor >= self.text.len() / 2 {
            self.text.drain(..self.cursor);
            self.start += self.cursor as u64;
            self.cursor = 0;
        }
        let at = self.end();
        self.origins
            .extend(chunk.origins.iter().map(|origin| TextOrigin {
                t_offset: at + origin.text_offset as u64,
                source_offset: origin.source_offset,
                is_run: origin.is_run,
            }));
        self.text.push_str(&chunk.text);
    }

    /// The text from `from` to `to` (offsets in the whole text, pushed and
    /// not behind the place, on character boundaries).
    fn slice(&self, from: u64, to: u64) -> &str {
        let index = |offset: u64| usize::try_from(offset - self.start).unwrap_or(usize::MAX);
        self.text.get(index(from)..index(to)).unwrap_or_default()
    }

    /// Moves the place forward to `offset` in the whole text.
    fn advance_to(&mut self, offset: u64) {
        let Some(target) = usize::try_from(offset.saturating_sub(self.start))
            .ok()
            .filter(|&target| target >= self.cursor && target <= self.text.len())
        else {
            debug_assert!(false, "advance_to outside the pending text");
            return;
        };
        let segment = &self.text.as_bytes()[self.cursor..target];
        let chars = segment.iter().filter(|&&b| is_char_start(b)).count() as u64;
        self.place.char_index += chars;
        match segment.iter().rposition(|&b| b == b'\n') {
            Some(last) => {
                #[expect(
                    clippy::naive_bytecount,
                    reason = "one count, which the compiler vectorises; not worth a dependency"
                )]
                let line_feeds = segment.iter().filter(|&&b| b == b'\n').count();
                self.place.line += line_feeds as u64;
                let after = &segment[last + 1..];
                self.place.column = 1 + after.iter().filter(|&&b| is_char_start(b)).count() as u64;
            }
            None => self.place.column += chars,
        }
        self.cursor = target;
        // Origins behind the place are needed no more (only the one it is in).
        let position = self.position();
        while self.origins.len() > 1 && self.origins[1].t_offset <= position {
            self.origins.pop_front();
        }
    }

    /// The place, with its source offset.
    fn place(&self) -> Place {
        let position = self.position();
        let source_offset = self.origins.front().map_or(0, |origin| {
            if origin.is_run {
                origin.source_offset + position.saturating_sub(origin.t_offset)
            } else {
                origin.source_offset
            }
        });
        Place {
            source_offset,
            ..self.place
        }
    }
}

/// Whether `byte` begins a character in UTF-8.
fn is_char_start(byte: u8) -> bool {
    byte & 0xC0 != 0x80
}

/// The length of the longest common prefix of `a` and `b` that ends on a
/// character boundary.
fn common_prefix(a: &str, b: &str) -> usize {
    const BLOCK: usize = 64;
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let len = x.len().min(y.len());
    let mut index = 0;
    while index + BLOCK <= len && x[index..index + BLOCK] == y[index..index + BLOCK] {
        index += BLOCK;
    }
    while index < len && x[index] == y[index] {
        index += 1;
    }
    while !a.is_char_boundary(index) {
        index -= 1;
    }
    index
}

/// What the text has next, as the bytes should read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// A character that should read back as itself.
    Char(char),
    /// An unencodable character, which html mode writes as `&#N;`.
    Reference(Reference),
}

impl Token {
    fn character(self) -> char {
        match self {
            Token::Char(c) => c,
            Token::Reference(reference) => reference.character,
        }
    }
}

/// Up to [`LOOKAHEAD`] characters, on the stack.
#[derive(Clone, Copy, Debug)]
struct Window {
    chars: [char; LOOKAHEAD],
    len: usize,
}

impl Window {
    fn new() -> Self {
        Self {
            chars: ['\0'; LOOKAHEAD],
            len: 0,
        }
    }

    /// Adds `c`; returns false once full.
    fn push(&mut self, c: char) -> bool {
        if let Some(slot) = self.chars.get_mut(self.len) {
            *slot = c;
            self.len += 1;
        }
        self.len < LOOKAHEAD
    }

    fn of_chars(chars: &[char]) -> Self {
        let mut window = Window::new();
        for &c in chars {
            if !window.push(c) {
                break;
            }
        }
        window
    }

    /// The characters the tokens should read back as.
    fn of_tokens(tokens: &[Token]) -> Self {
        let mut window = Window::new();
        for token in tokens {
            let room = match *token {
                Token::Char(c) => window.push(c),
                Token::Reference(reference) => {
                    let mut buffer = [0; 12];
                    reference_text(reference.reported, &mut buffer)
                        .chars()
                        .all(|c| window.push(c))
                }
            };
            if !room {
                break;
            }
        }
        window
    }

    /// How many positions hold the same character in both.
    fn agreement(&self, other: &Window) -> usize {
        self.chars[..self.len]
            .iter()
            .zip(&other.chars[..other.len])
            .filter(|(a, b)| a == b)
            .count()
    }
}

/// What kind of difference a comparison found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A character read back as another.
    Changed,
    /// A character read back as nothing.
    Lost,
    /// A character read back that the text does not have.
    Added,
}

/// A difference found, waiting to be located.
#[derive(Clone, Copy, Debug)]
struct Mismatch {
    t_offset: u64,
    expected: Option<char>,
    found: Option<char>,
    /// Whether the comparison stopped here (see [`MAX_COUNTED_DIFFERENCES`]).
    last: bool,
}

/// Compares the text read back with the text (where html mode wrote `&#N;`
/// for a character, with that).
#[derive(Debug, Default)]
struct Comparator {
    /// The text read back; `decoded[..d_cursor]` is compared.
    decoded: String,
    d_cursor: usize,
    /// Offset in the whole text up to which it is compared.
    compared: u64,
    /// Unencodable characters at or after `compared`.
    references: VecDeque<Reference>,
    /// Set after [`MAX_COUNTED_DIFFERENCES`]: nothing more is compared.
    stopped: bool,
    found: VecDeque<Mismatch>,
    references_read_back: u64,
    differences: u64,
}

impl Comparator {
    /// Drops the part of the text read back that is compared.
    fn take_decoded(&mut self) {
        self.decoded.drain(..self.d_cursor);
        self.d_cursor = 0;
    }

    /// Compares as far as both texts go (to the end of both once
    /// `finished`).
    fn compare(&mut self, pending: &Pending, finished: bool) {
        loop {
            let end = pending.end();
            if self.stopped {
                self.compared = end;
                self.references.clear();
                self.d_cursor = self.decoded.len();
                return;
            }
            let next_reference = self.references.front().copied();
            if let Some(reference) = next_reference.filter(|r| r.t_offset == self.compared) {
                let mut buffer = [0; 12];
                let text = reference_text(reference.reported, &mut buffer);
                let decoded = &self.decoded[self.d_cursor..];
                if decoded.starts_with(text) {
                    self.d_cursor += text.len();
                    self.compared += reference.character.len_utf8() as u64;
                    self.references.pop_front();
                    self.references_read_back += 1;
                    continue;
                }
                if (!finished && text.starts_with(decoded)) || !self.resolve(pending, finished) {
                    return;
                }
                continue;
            }
            if self.compared >= end {
                if finished && self.d_cursor < self.decoded.len() && self.resolve(pending, true) {
                    continue;
                }
                return;
            }
            let segment_end = next_reference.map_or(end, |r| r.t_offset);
            let text = pending.slice(self.compared, segment_end);
            let common = common_prefix(text, &self.decoded[self.d_cursor..]);
            self.compared += common as u64;
            self.d_cursor += common;
            if common == text.len() {
                continue;
            }
            let decoded_left = self.d_cursor < self.decoded.len();
            if (!decoded_left && !finished) || !self.resolve(pending, finished) {
                return;
            }
        }
    }

    /// The next tokens of the text from `compared` (at most
    /// `LOOKAHEAD + 1`), and how many there are.
    fn peek_text(&self, pending: &Pending) -> ([Token; LOOKAHEAD + 1], usize) {
        let mut tokens = [Token::Char('\0'); LOOKAHEAD + 1];
        let mut len = 0;
        let mut references = self.references.iter().peekable();
        let text = pending.slice(self.compared, pending.end());
        for ((index, c), slot) in text.char_indices().zip(&mut tokens) {
            let t_offset = self.compared + index as u64;
            while references.next_if(|r| r.t_offset < t_offset).is_some() {}
            *slot = match references.next_if(|r| r.t_offset == t_offset) {
                Some(&reference) => Token::Reference(reference),
                None => Token::Char(c),
            };
            len += 1;
        }
        (tokens, len)
    }

    /// Records the difference at `compared` and moves past it. Returns
    /// false if more input is needed to tell what kind it is.
    ///
    /// Of a changed, a lost and an added character, it takes the one after
    /// which the next [`LOOKAHEAD`] characters agree best (a changed one
    /// when none does better: runs of changed characters are the common
    /// case, as when every half-width katakana reads back full-width).
    fn resolve(&mut self, pending: &Pending, finished: bool) -> bool {
        let (tokens, token_count) = self.peek_text(pending);
        let tokens = &tokens[..token_count];
        let mut decoded = ['\0'; LOOKAHEAD + 1];
        let mut decoded_count = 0;
        for (slot, c) in decoded
            .iter_mut()
            .zip(self.decoded[self.d_cursor..].chars())
        {
            *slot = c;
            decoded_count += 1;
        }
        let decoded = &decoded[..decoded_count];
        if !finished && (tokens.len() <= LOOKAHEAD || decoded.len() <= LOOKAHEAD) {
            return false;
        }
        let text_after = Window::of_tokens(tokens.get(1..).unwrap_or_default());
        let text_here = Window::of_tokens(tokens);
        let decoded_here = Window::of_chars(decoded);
        let decoded_after = Window::of_chars(decoded.get(1..).unwrap_or_default());
        let (expected, found) = (tokens.first().copied(), decoded.first().copied());
        let candidates = [
            (
                Kind::Changed,
                expected
                    .and(found)
                    .map(|_| text_after.agreement(&decoded_after)),
            ),
            (
                Kind::Lost,
                expected.map(|_| text_after.agreement(&decoded_here)),
            ),
            (
                Kind::Added,
                found.map(|_| text_here.agreement(&decoded_after)),
            ),
        ];
        let mut best: Option<(Kind, usize)> = None;
        for (kind, score) in candidates {
            if let Some(score) = score
                && best.is_none_or(|(_, best)| score > best)
            {
                best = Some((kind, score));
            }
        }
        let Some((kind, _)) = best else {
            return false;
        };
        self.differences += 1;
        self.stopped = self.differences >= MAX_COUNTED_DIFFERENCES;
        self.found.push_back(Mismatch {
            t_offset: self.compared,
            expected: expected
                .filter(|_| kind != Kind::Added)
                .map(Token::character),
            found: found.filter(|_| kind != Kind::Lost),
            last: self.stopped,
        });
        if kind != Kind::Added
            && let Some(token) = expected
        {
            self.compared += token.character().len_utf8() as u64;
            if let Token::Reference(_) = token {
                self.references.pop_front();
            }
        }
        if kind != Kind::Lost
            && let Some(c) = found
        {
            self.d_cursor += c.len_utf8();
        }
        true
    }
}

/// The state of a pass: the text not yet located, the comparison, and what
/// was found.
#[derive(Debug, Default)]
struct Walk {
    pending: Pending,
    comparator: Comparator,
    /// Unencodable characters found by the encoder, not yet located.
    unencodable_marks: VecDeque<Reference>,
    list: UnencodableList,
    decoding_errors: u64,
    /// The first decoding error's offset in the text, until it is located.
    first_error_offset: Option<u64>,
    first_decoding_error: Option<Place>,
    differences: Vec<Difference>,
    stopped_at: Option<Place>,
}

impl Walk {
    /// Locates everything found up to where the comparison got (nothing
    /// can be found before that any more), in text order.
    fn settle(&mut self) {
        let limit = self.comparator.compared;
        loop {
            let unencodable = self
                .unencodable_marks
                .front()
                .map(|mark| mark.t_offset)
                .filter(|&offset| offset <= limit);
            let error = self.first_error_offset.filter(|&offset| offset <= limit);
            let difference = self
                .comparator
                .found
                .front()
                .map(|found| found.t_offset)
                .filter(|&offset| offset <= limit);
            let Some(offset) = [unencodable, error, difference].into_iter().flatten().min() else {
                break;
            };
            self.pending.advance_to(offset);
            let place = self.pending.place();
            if unencodable == Some(offset) {
                if let Some(mark) = self.unencodable_marks.pop_front() {
                    self.list.push(Unencodable {
                        character: mark.character,
                        reported: mark.reported,
                        place,
                    });
                }
            } else if error == Some(offset) {
                self.first_error_offset = None;
                self.first_decoding_error = Some(place);
            } else if let Some(found) = self.comparator.found.pop_front() {
                if found.last {
                    self.stopped_at = Some(place);
                }
                if self.differences.len() < MAX_DIFFERENCES {
                    self.differences.push(Difference {
                        place,
                        expected: found.expected,
                        found: found.found,
                    });
                }
            }
        }
        self.pending.advance_to(limit);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use mojiscope_core::{ISO_2022_JP, SHIFT_JIS, UTF_16LE, WINDOWS_1251, WINDOWS_1252};

    use super::*;
    use crate::model::document::FileBytes;

    fn preview(source: &TextSource, encoding: &'static Encoding, bom: bool) -> Preview {
        let options = PassOptions {
            encoding,
            mode: EncodeErrorMode::Html,
            bom,
        };
        run(
            source,
            &options,
            &AtomicBool::new(false),
            &mut |_, _| {},
            None,
        )
        .unwrap()
    }

    fn text(text: &str) -> TextSource {
        TextSource::Text(Arc::from(text))
    }

    fn all(list: &UnencodableList) -> Vec<Unencodable> {
        (0..list.len()).map(|i| list.get(i).unwrap()).collect()
    }

    #[test]
    fn every_unencodable_character_is_listed_with_its_place() {
        // UTF-8: "é" is bytes 1..3, "→" 4..7, "☃" 8..11.
        let source = TextSource::Decode {
            bytes: FileBytes::from("aé\n→x☃\n".as_bytes().to_vec()),
            encoding: UTF_8,
            bom_handling: BomHandling::Sniff,
        };
        let preview = preview(&source, WINDOWS_1252, false);
        let listed = all(&preview.unencodable);
        let places: Vec<(char, u64, u64, u64, u64)> = listed
            .iter()
            .map(|u| {
                (
                    u.character,
                    u.place.source_offset,
                    u.place.char_index,
                    u.place.line,
                    u.place.column,
                )
            })
            .collect();
        assert_eq!(places, [('→', 4, 3, 2, 1), ('☃', 8, 5, 2, 3)]);
        assert_eq!(listed[1].reference(), "&#9731;");
        assert_eq!(preview.encoding, WINDOWS_1252);
        assert_eq!(preview.chars, 7);
        assert_eq!(preview.lines, 2);
        // The references read back as text: not lossless, but no other
        // difference.
        assert_eq!(preview.round_trip.references, 2);
        assert_eq!(preview.round_trip.differences, 0);
        assert!(!preview.round_trip.is_lossless());
        assert_eq!(preview.bytes, b"a\xE9\n&#8594;x&#9731;\n".len() as u64);
    }

    #[test]
    fn unencodable_characters_are_stored_compactly_and_read_back_exactly() {
        // Dense (Japanese, half-width katakana) and sparse (a symbol in a
        // long line, a Cyrillic word), over many lines and chunks.
        let mut line = "日本語のテキスト".repeat(100);
        line.push_str(" ok ");
        line.push_str(&"ｶﾀｶﾅ".repeat(300));
        line.push_str(&"plain ascii text ".repeat(20));
        line.push_str("☃ and a word: слово, ");
        line.push_str(&"more plain text ".repeat(40));
        line.push_str("€\n");
        let body = line.repeat(40);
        let source = TextSource::Text(Arc::from(body.as_str()));
        let preview = preview(&source, WINDOWS_1252, false);
        let list = &preview.unencodable;
        let expected: Vec<(char, u64, u64)> = body
            .char_indices()
            .enumerate()
            .filter(|&(_, (_, c))| !c.is_ascii() && c != '€')
            .map(|(char_index, (offset, c))| (c, offset as u64, char_index as u64))
            .collect();
        assert_eq!(list.len(), expected.len() as u64);
        for (index, &(c, offset, char_index)) in expected.iter().enumerate() {
            let got = list.get(index as u64).unwrap();
            assert_eq!(
                (got.character, got.place.source_offset, got.place.char_index),
                (c, offset, char_index),
                "entry {index}"
            );
        }
        let line_chars = line.chars().count() as u64;
        let last = list.get(list.len() - 1).unwrap();
        assert_eq!(last.place.line, 40);
        assert_eq!(last.character, 'о');
        assert_eq!(last.place.column, line_chars - 1 - 640 - 2 - 1);
        assert!(list.get(list.len()).is_none());
        // A few bytes each, not a struct of forty.
        let heap = list.heap_bytes();
        assert!(
            heap < expected.len() * 5,
            "{heap} bytes for {}",
            expected.len()
        );
    }

    #[test]
    fn utf8_is_lossless_and_a_missing_bom_loses_a_leading_zwnbsp() {
        let preview = preview(&text("snow ☃ and 日本\r\nline two"), UTF_8, false);
        assert!(preview.unencodable.is_empty());
        assert!(preview.round_trip.is_lossless(), "{:?}", preview.round_trip);
        // U+FEFF first reads back as a byte order mark, and is gone...
        let lost = preview_of("\u{FEFF}text", UTF_8, false);
        assert_eq!(lost.round_trip.differences, 1);
        assert_eq!(
            lost.round_trip.first_differences,
            [Difference {
                place: Place::START,
                expected: Some('\u{FEFF}'),
                found: None,
            }]
        );
        // ... unless a byte order mark is written before it.
        let kept = preview_of("\u{FEFF}text", UTF_8, true);
        assert!(kept.bom && kept.round_trip.is_lossless());
        assert_eq!(kept.bytes, 3 + 3 + 4);
    }

    fn preview_of(body: &str, encoding: &'static Encoding, bom: bool) -> Preview {
        preview(&text(body), encoding, bom)
    }

    #[test]
    fn characters_that_read_back_as_others_are_differences_in_place() {
        // Shift_JIS encodes ¥ as 0x5C and ‾ as 0x7E, which decode as \ and ~.
        let preview = preview_of("a¥b\nc‾d", SHIFT_JIS, false);
        assert!(preview.unencodable.is_empty());
        let round_trip = &preview.round_trip;
        assert_eq!((round_trip.references, round_trip.differences), (0, 2));
        let changes: Vec<(Option<char>, Option<char>, u64, u64)> = round_trip
            .first_differences
            .iter()
            .map(|d| (d.expected, d.found, d.place.line, d.place.column))
            .collect();
        assert_eq!(
            changes,
            [(Some('¥'), Some('\\'), 1, 2), (Some('‾'), Some('~'), 2, 2)]
        );
        assert_eq!((round_trip.read_as, round_trip.stopped_at), (None, None));
        // ISO-2022-JP writes half-width katakana as full-width ones.
        let preview = preview_of("ｶﾅ", ISO_2022_JP, false);
        let found: Vec<Option<char>> = preview
            .round_trip
            .first_differences
            .iter()
            .map(|d| d.found)
            .collect();
        assert_eq!(found, [Some('カ'), Some('ナ')]);
    }

    #[test]
    fn text_that_a_reader_takes_for_a_byte_order_mark_is_read_as_another_encoding() {
        // windows-1252 "ÿþab" is FF FE 61 62: a reader sees a UTF-16LE BOM
        // and one character, U+6261.
        let preview = preview_of("ÿþab", WINDOWS_1252, false);
        let round_trip = &preview.round_trip;
        assert_eq!(round_trip.read_as, Some(UTF_16LE));
        let differences: Vec<(Option<char>, Option<char>)> = round_trip
            .first_differences
            .iter()
            .map(|d| (d.expected, d.found))
            .collect();
        assert_eq!(
            differences,
            [
                (Some('ÿ'), Some('\u{6261}')),
                (Some('þ'), None),
                (Some('a'), None),
                (Some('b'), None)
            ]
        );
    }

    #[test]
    fn a_lost_or_added_character_is_told_from_changed_ones_around_it() {
        // A U+FEFF that starts a UTF-8 text is lost; past it everything
        // lines up again. Shift_JIS then changes the ¥ right after it.
        let preview = preview_of("\u{FEFF}¥ ok ¥", UTF_8, false);
        assert_eq!(preview.round_trip.differences, 1);
        let preview = preview_of("a¥¥b¥", SHIFT_JIS, false);
        let columns: Vec<u64> = preview
            .round_trip
            .first_differences
            .iter()
            .map(|d| d.place.column)
            .collect();
        assert_eq!(columns, [2, 3, 5]);
    }

    #[test]
    fn decoding_errors_are_counted_and_the_first_located() {
        let source = TextSource::Decode {
            bytes: FileBytes::from(b"ok\nbad \xFF and \xFE\n".to_vec()),
            encoding: UTF_8,
            bom_handling: BomHandling::Sniff,
        };
        let preview = preview(&source, UTF_8, false);
        assert_eq!(preview.decoding_errors, 2);
        let first = preview.first_decoding_error.unwrap();
        assert_eq!((first.source_offset, first.line, first.column), (7, 2, 5));
        // U+FFFD is encodable in UTF-8 and reads back as itself.
        assert!(preview.round_trip.is_lossless());
    }

    #[test]
    fn the_iso_2022_jp_escape_controls_are_reported_as_u_fffd() {
        let preview = preview_of("a\u{1B}b", ISO_2022_JP, false);
        let listed = all(&preview.unencodable);
        assert_eq!(listed.len(), 1);
        assert_eq!(
            (listed[0].character, listed[0].reported),
            ('\u{1B}', '\u{FFFD}')
        );
        assert_eq!(listed[0].reference(), "&#65533;");
        assert_eq!(preview.round_trip.references, 1);
        assert_eq!(preview.round_trip.differences, 0);
    }

    #[test]
    fn utf16_and_replacement_write_utf8() {
        let preview = preview_of("é", UTF_16LE, true);
        assert_eq!(preview.encoding, UTF_8);
        assert!(preview.bom);
        assert_eq!(preview.bytes, 5);
    }

    #[test]
    fn the_bytes_written_are_the_core_encoders_and_chunks_do_not_matter() {
        // Long enough for many chunks, with unencodable characters and
        // Cyrillic on both sides of the chunk boundaries.
        let body = "Привет, мир! ☃ ok\n".repeat(20_000);
        let source = text(&body);
        for (encoding, mode) in [
            (WINDOWS_1251, EncodeErrorMode::Html),
            (UTF_8, EncodeErrorMode::Fatal),
        ] {
            let options = PassOptions {
                encoding,
                mode,
                bom: false,
            };
            let mut bytes = Vec::new();
            let preview = run(
                &source,
                &options,
                &AtomicBool::new(false),
                &mut |_, _| {},
                Some(&mut bytes),
            )
            .unwrap();
            let (expected, _, unmappable) = encoding.encode(&body);
            assert_eq!(bytes, expected, "{}", encoding.name());
            assert_eq!(preview.unencodable.len(), unmappable.len() as u64);
            assert_eq!(preview.round_trip.references, unmappable.len() as u64);
            assert_eq!(preview.round_trip.differences, 0);
            assert_eq!(preview.lines, 20_000);
        }
    }

    #[test]
    fn fatal_mode_stops_at_the_first_unencodable_character() {
        let options = PassOptions {
            encoding: WINDOWS_1252,
            mode: EncodeErrorMode::Fatal,
            bom: false,
        };
        let mut bytes = Vec::new();
        let stop = run(
            &text("ab\ncd☃e☃"),
            &options,
            &AtomicBool::new(false),
            &mut |_, _| {},
            Some(&mut bytes),
        )
        .unwrap_err();
        let Stop::Unencodable(first) = stop else {
            panic!("{stop:?}");
        };
        assert_eq!(first.character, '☃');
        assert_eq!((first.place.line, first.place.column), (2, 3));
    }

    #[test]
    fn a_cancelled_pass_stops() {
        let stop = run(
            &text("abc"),
            &PassOptions {
                encoding: UTF_8,
                mode: EncodeErrorMode::Html,
                bom: false,
            },
            &AtomicBool::new(true),
            &mut |_, _| {},
            None,
        )
        .unwrap_err();
        assert!(matches!(stop, Stop::Cancelled));
    }

    #[test]
    fn the_pending_text_and_its_origins_stay_small_on_a_long_text() {
        // A Shift_JIS decode has an origin for every non-ASCII character.
        let bytes = b"\x82\xA0\x82\xA2 ".repeat(200_000);
        let source = TextSource::Decode {
            bytes: FileBytes::from(bytes),
            encoding: SHIFT_JIS,
            bom_handling: BomHandling::None,
        };
        let mut reader = source.reader();
        let mut chunk = Chunk::default();
        let mut pending = Pending::default();
        let mut most = 0;
        loop {
            let last = reader.next_chunk(&mut chunk);
            pending.push(&chunk);
            pending.advance_to(pending.end());
            most = most.max(pending.origins.len() + pending.text.len());
            if last {
                break;
            }
        }
        assert_eq!(pending.place().char_index, 600_000);
        assert!(most < 300_000, "{most}: it should hold about a chunk");
    }

    #[test]
    fn common_prefixes_end_on_character_boundaries() {
        assert_eq!(common_prefix("abcé", "abcè"), 3);
        assert_eq!(common_prefix("abc", "abcdef"), 3);
        assert_eq!(common_prefix(&"x".repeat(200), &"x".repeat(150)), 150);
        let mut buffer = [0; 12];
        assert_eq!(reference_text('\u{10FFFF}', &mut buffer), "&#1114111;");
    }
}
