//! The steps of an explanation as data, and their plain-text rendering.

use std::fmt;

use crate::encoding::Encoding;
use crate::index::Index;
use crate::provenance::{SkipReason, TraceKind};

/// A document a step is stated in.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Document {
    /// The [Encoding Standard](https://encoding.spec.whatwg.org/).
    EncodingStandard,
    /// The [Infra Standard](https://infra.spec.whatwg.org/), which defines
    /// surrogates and the scalar value from surrogates.
    Infra,
    /// [RFC 2279](https://www.rfc-editor.org/rfc/rfc2279), "UTF-8, a
    /// transformation format of ISO 10646", whose table shows which bits of
    /// each byte carry the code point.
    Rfc2279,
}

/// Where a step is stated: a section of a document and the step's number in
/// its algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Citation {
    /// The document.
    pub document: Document,
    /// The section's anchor (its fragment, without `#`), e.g.
    /// `shift_jis-decoder` or `security-background`.
    pub anchor: &'static str,
    /// The step as the standard numbers it within the section's algorithm,
    /// e.g. `3.6`; for an algorithm written as a switch on a state (the
    /// ISO-2022-JP decoder) the state and branch, e.g. `escape start, 2`.
    /// Empty when the citation is the whole section.
    pub step: &'static str,
}

impl Citation {
    /// A step of the Encoding Standard.
    pub(crate) const fn standard(anchor: &'static str, step: &'static str) -> Self {
        Self {
            document: Document::EncodingStandard,
            anchor,
            step,
        }
    }

    /// The Encoding Standard's Security background section, which says why
    /// an ASCII byte after a leading byte is restored to the input.
    pub const SECURITY_BACKGROUND: Citation = Citation::standard("security-background", "");

    /// The address of the cited section.
    pub fn url(&self) -> String {
        let base = match self.document {
            Document::EncodingStandard => "https://encoding.spec.whatwg.org/",
            Document::Infra => "https://infra.spec.whatwg.org/",
            Document::Rfc2279 => "https://www.rfc-editor.org/rfc/rfc2279",
        };
        format!("{base}#{}", self.anchor)
    }
}

impl fmt::Display for Citation {
    /// A short form: the step number for the Encoding Standard's steps
    /// (`3.6`), or the document and section otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.document {
            Document::EncodingStandard if self.step.is_empty() => write!(f, "#{}", self.anchor),
            Document::EncodingStandard => f.write_str(self.step),
            Document::Infra => write!(f, "Infra #{}", self.anchor),
            Document::Rfc2279 => f.write_str("RFC 2279 §2"),
        }
    }
}

/// One step of a decoder, as the standard states it, with the numbers
/// filled in.
///
/// `Display` renders it as one line of plain text: the step number in
/// brackets, then what it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Where the step is stated.
    pub citation: Citation,
    /// Another section that says why, if any (the Security background for
    /// an ASCII byte restored to the input).
    pub see_also: Option<Citation>,
    /// What the step does, with its values.
    pub kind: StepKind,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {}", self.citation, self.kind)
    }
}

/// A variable of a decoder's state and its value, named as the standard
/// names it ("Shift_JIS leading", "UTF-8 bytes needed").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variable {
    /// The standard's name for it.
    pub name: &'static str,
    /// Its value.
    pub value: Value,
}

impl Variable {
    pub(crate) const fn new(name: &'static str, value: Value) -> Self {
        Self { name, value }
    }
}

impl fmt::Display for Variable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {}", self.name, self.value)
    }
}

/// The value of a [`Variable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A byte, written 0x82.
    Byte(u8),
    /// A number, written in hexadecimal when `hex` (a code point's bits).
    Number {
        /// The number.
        value: u32,
        /// Whether to write it in hexadecimal.
        hex: bool,
    },
    /// A code unit or surrogate, written 0xD83D.
    CodeUnit(u16),
    /// A boolean.
    Flag(bool),
    /// A state of a decoder, by the standard's name ("leading byte").
    State(&'static str),
    /// Null.
    Null,
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Value::Byte(byte) => write!(f, "0x{byte:02X}"),
            Value::Number { value, hex: true } => write!(f, "0x{value:X}"),
            Value::Number { value, hex: false } => write!(f, "{value}"),
            Value::CodeUnit(unit) => write!(f, "0x{unit:04X}"),
            Value::Flag(flag) => write!(f, "{flag}"),
            Value::State(state) => f.write_str(state),
            Value::Null => f.write_str("null"),
        }
    }
}

/// How a pointer is computed from bytes.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PointerFormula {
    /// (`leading` − `leading_offset`) × `row_len` + `byte` − `offset`: the
    /// two-byte encodings (`row_len` is 188 in `Shift_JIS`, 190 in gb18030
    /// and EUC-KR, 157 in Big5, 94 in EUC-JP and ISO-2022-JP).
    TwoByte {
        /// The leading byte.
        leading: u8,
        /// What is subtracted from it.
        leading_offset: u8,
        /// How many pointers one leading byte spans.
        row_len: u16,
        /// The trailing byte.
        byte: u8,
        /// What is subtracted from it.
        offset: u8,
        /// The result.
        pointer: u32,
    },
    /// gb18030's four bytes: (b1 − 0x81) × (10 × 126 × 10) + (b2 − 0x30) ×
    /// (10 × 126) + (b3 − 0x81) × 10 + b4 − 0x30.
    FourByte {
        /// The four bytes.
        bytes: [u8; 4],
        /// The result.
        pointer: u32,
    },
    /// The single-byte encodings: `byte` − 0x80.
    SingleByte {
        /// The byte.
        byte: u8,
        /// The result.
        pointer: u8,
    },
}

impl PointerFormula {
    /// The pointer the formula gives.
    pub fn pointer(&self) -> u32 {
        match *self {
            PointerFormula::TwoByte { pointer, .. } | PointerFormula::FourByte { pointer, .. } => {
                pointer
            }
            PointerFormula::SingleByte { pointer, .. } => u32::from(pointer),
        }
    }
}

impl fmt::Display for PointerFormula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PointerFormula::TwoByte {
                leading,
                leading_offset,
                row_len,
                byte,
                offset,
                pointer,
            } => write!(
                f,
                "pointer = (0x{leading:02X} − 0x{leading_offset:02X}) × {row_len} + 0x{byte:02X} − 0x{offset:02X} = {pointer}"
            ),
            PointerFormula::FourByte {
                bytes: [first, second, third, fourth],
                pointer,
            } => write!(
                f,
                "pointer = (0x{first:02X} − 0x81) × (10 × 126 × 10) + (0x{second:02X} − 0x30) × (10 × 126) + (0x{third:02X} − 0x81) × 10 + 0x{fourth:02X} − 0x30 = {pointer}"
            ),
            PointerFormula::SingleByte { byte, pointer } => {
                write!(f, "pointer = 0x{byte:02X} − 0x80 = {pointer}")
            }
        }
    }
}

/// How the index gb18030 ranges code point for a pointer is found.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RangesLookup {
    /// Step 1: the pointer lies between the ranges for the Basic
    /// Multilingual Plane (up to 39419) and the supplementary planes (from
    /// 189000), or past the last (1237575): null.
    Null,
    /// Step 2: pointer 7457 is U+E7C7 (the GB18030-2005 change).
    E7c7,
    /// Steps 3-4: the range the pointer falls in starts at pointer `offset`
    /// with `code_point_offset`; the code point is `code_point_offset` +
    /// pointer − `offset`.
    Range {
        /// The last pointer of the index at or below the pointer.
        offset: u32,
        /// Its code point.
        code_point_offset: u32,
        /// The result.
        code_point: char,
    },
}

/// Which boundary a UTF-8 leading byte narrows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Boundary {
    /// UTF-8 lower boundary.
    Lower,
    /// UTF-8 upper boundary.
    Upper,
}

/// What a step does, with its values.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// The bytes of this item that were read before the explained input,
    /// and the state of the decoder they left.
    StateBefore {
        /// The bytes.
        bytes: Vec<u8>,
        /// The decoder's variables.
        variables: Vec<Variable>,
    },
    /// BOM sniffing found a byte order mark: it picks `encoding`, and its
    /// bytes are read and produce nothing.
    ByteOrderMark {
        /// The byte order mark.
        bytes: Vec<u8>,
        /// The encoding it picks.
        encoding: &'static Encoding,
    },
    /// BOM sniffing cannot decide yet: these bytes may begin a byte order
    /// mark and the input ends before it would.
    BomUndecided {
        /// The bytes.
        bytes: Vec<u8>,
    },
    /// `byte` is in `ranges` and is the code point of the same value.
    SameCodePoint {
        /// The byte.
        byte: u8,
        /// The ranges the standard names.
        ranges: &'static [(u8, u8)],
    },
    /// `byte` stands for one code point (gb18030's 0x80 for U+20AC, the
    /// Roman state's 0x5C for U+00A5).
    FixedCodePoint {
        /// The byte.
        byte: u8,
        /// The code point.
        code_point: char,
    },
    /// `byte` cannot begin anything: it is in none of `valid`, the ranges
    /// of bytes that can.
    InvalidByte {
        /// The byte.
        byte: u8,
        /// The bytes that are valid here.
        valid: &'static [(u8, u8)],
    },
    /// Whether `byte` is in `ranges`, which decides the branch taken.
    ByteInRanges {
        /// The byte.
        byte: u8,
        /// The ranges the standard names.
        ranges: &'static [(u8, u8)],
        /// Whether it is in one.
        in_range: bool,
    },
    /// The state variable `variable` holds `leading`, and `byte` is in
    /// `ranges`: the condition of a step.
    LeadingAndByte {
        /// The standard's name of the variable.
        variable: &'static str,
        /// Its value.
        leading: u8,
        /// The byte.
        byte: u8,
        /// The ranges the standard names.
        ranges: &'static [(u8, u8)],
    },
    /// `byte` is in `ranges`, so it is kept in the state variable `variable`
    /// and the decoder continues (a leading byte is remembered).
    Remember {
        /// The standard's name of the variable.
        variable: &'static str,
        /// The byte.
        byte: u8,
        /// The ranges the standard names.
        ranges: &'static [(u8, u8)],
    },
    /// The pending leading byte is taken as `leading`, and `variable`, which
    /// held it, is set back to 0x00.
    TakeLeading {
        /// The standard's name of the variable.
        variable: &'static str,
        /// The leading byte.
        leading: u8,
    },
    /// `name` (`offset`, `leadingOffset`) is chosen by comparing `value`
    /// with `below`: the ranges of bytes skip a gap.
    Offset {
        /// The standard's name for it.
        name: &'static str,
        /// The byte compared.
        value: u8,
        /// What it is compared with.
        below: u8,
        /// The result.
        offset: u8,
    },
    /// Whether `byte` is in the trailing ranges: only then is there a
    /// pointer.
    TrailingByte {
        /// The byte.
        byte: u8,
        /// The trailing ranges.
        ranges: &'static [(u8, u8)],
        /// Whether it is in one.
        in_range: bool,
    },
    /// EUC-JP: whether the leading byte and the byte are both in 0xA1 to
    /// 0xFE, so that there is a pointer.
    BothInRange {
        /// The leading byte.
        leading: u8,
        /// The byte.
        byte: u8,
        /// Whether both are.
        in_range: bool,
    },
    /// A pointer computed from bytes.
    Pointer(PointerFormula),
    /// The index code point for `pointer` in `index`: `None` when the index
    /// has none (null).
    IndexCodePoint {
        /// The index.
        index: Index,
        /// The pointer.
        pointer: u32,
        /// The code point.
        code_point: Option<char>,
    },
    /// The index gb18030 ranges code point for `pointer`.
    RangesCodePoint {
        /// The pointer.
        pointer: u32,
        /// How it was found, and the code point.
        lookup: RangesLookup,
    },
    /// `Shift_JIS`: a pointer in 8836 to 10715 (Windows' end-user-defined
    /// characters) is U+E000 − 8836 + pointer, in the Private Use Area.
    UserDefinedArea {
        /// The pointer.
        pointer: u32,
        /// The code point.
        code_point: char,
    },
    /// Halfwidth katakana: U+FF61 − `first` + `byte`, where `first` is the
    /// byte for U+FF61 (0xA1, or 0x21 in ISO-2022-JP's katakana state).
    HalfwidthKatakana {
        /// The byte.
        byte: u8,
        /// The byte that stands for U+FF61.
        first: u8,
        /// The code point.
        code_point: char,
    },
    /// x-user-defined: U+F780 + `byte` − 0x80.
    XUserDefined {
        /// The byte.
        byte: u8,
        /// The code point.
        code_point: char,
    },
    /// Big5: a pointer whose character Unicode writes as two code points.
    TwoCodePoints {
        /// The pointer.
        pointer: u32,
        /// The two code points.
        code_points: (char, char),
    },
    /// EUC-JP: after 0x8F, `byte` in 0xA1 to 0xFE becomes the leading byte
    /// of a pair looked up in index jis0212.
    Jis0212 {
        /// The byte.
        byte: u8,
    },
    /// UTF-8: `byte` begins a sequence of `bytes_needed` + 1 bytes and
    /// gives the code point its first bits.
    Utf8Leading {
        /// The byte.
        byte: u8,
        /// UTF-8 bytes needed.
        bytes_needed: u8,
        /// UTF-8 code point: the byte's low bits.
        code_point: u32,
    },
    /// UTF-8: a leading byte narrows the range of the next byte, so that no
    /// overlong form, surrogate or value past U+10FFFF gets through.
    Utf8Boundary {
        /// The leading byte.
        byte: u8,
        /// Which boundary.
        boundary: Boundary,
        /// Its new value.
        value: u8,
    },
    /// UTF-8: `byte` is within the boundaries and adds its six low bits to
    /// the code point.
    Utf8Continuation {
        /// The byte.
        byte: u8,
        /// UTF-8 lower boundary it was checked against.
        lower_boundary: u8,
        /// UTF-8 upper boundary it was checked against.
        upper_boundary: u8,
        /// UTF-8 code point before.
        code_point_before: u32,
        /// UTF-8 code point after.
        code_point: u32,
        /// UTF-8 bytes seen, after.
        bytes_seen: u8,
        /// UTF-8 bytes needed.
        bytes_needed: u8,
    },
    /// UTF-8: `byte` is outside the boundaries, so the sequence ends in an
    /// error before it.
    Utf8OutOfBoundary {
        /// The byte.
        byte: u8,
        /// UTF-8 lower boundary.
        lower_boundary: u8,
        /// UTF-8 upper boundary.
        upper_boundary: u8,
    },
    /// UTF-8: the row of RFC 2279's table for a complete sequence, and which
    /// bits of each byte carry the code point.
    Utf8Pattern {
        /// The sequence.
        bytes: Vec<u8>,
        /// The code point.
        code_point: char,
    },
    /// UTF-16: `byte` is kept as UTF-16 leading byte, the first of a code
    /// unit.
    Utf16LeadingByte {
        /// The byte.
        byte: u8,
    },
    /// UTF-16: the code unit of two bytes, in the decoder's byte order.
    CodeUnit {
        /// The first byte.
        leading_byte: u8,
        /// The second byte.
        byte: u8,
        /// Whether the decoder is UTF-16BE's (the first byte is the high one).
        is_utf16be: bool,
        /// The result.
        code_unit: u16,
    },
    /// UTF-16: a leading surrogate, kept until the next code unit.
    LeadingSurrogate {
        /// The code unit.
        code_unit: u16,
    },
    /// UTF-16: a leading and a trailing surrogate make a scalar value.
    SurrogatePair {
        /// The leading surrogate.
        leading: u16,
        /// The trailing surrogate.
        trailing: u16,
        /// The scalar value from surrogates.
        code_point: char,
    },
    /// UTF-16: the code unit after a leading surrogate is not a trailing
    /// surrogate.
    UnpairedLeadingSurrogate {
        /// The leading surrogate.
        leading: u16,
        /// The code unit after it.
        code_unit: u16,
    },
    /// UTF-16: a trailing surrogate with no leading surrogate before it.
    LoneTrailingSurrogate {
        /// The code unit.
        code_unit: u16,
    },
    /// UTF-16: a code unit that is not a surrogate is a code point.
    CodeUnitIsCodePoint {
        /// The code unit.
        code_unit: u16,
    },
    /// ISO-2022-JP: the decoder's state, on which the handler switches.
    InState {
        /// The state's name in the standard.
        state: &'static str,
    },
    /// Variables set to new values.
    Set {
        /// The variables and their new values.
        variables: Vec<Variable>,
    },
    /// ISO-2022-JP: 0x1B (ESC) may begin an escape sequence.
    EscapeStart,
    /// ISO-2022-JP: one of the five escape sequences, and the state it
    /// switches to (decoder state and output state).
    EscapeSequence {
        /// The three bytes.
        bytes: [u8; 3],
        /// The state's name in the standard.
        state: &'static str,
    },
    /// ISO-2022-JP: an escape sequence reports an error when
    /// ISO-2022-JP output was true (no text since the previous one), and
    /// nothing otherwise; ISO-2022-JP output becomes true.
    EscapeOutput {
        /// ISO-2022-JP output before.
        output: bool,
    },
    /// ISO-2022-JP: the bytes after 0x1B are not one of the five escape
    /// sequences.
    NotEscapeSequence {
        /// The bytes after 0x1B (none at the end of the input).
        bytes: Vec<u8>,
    },
    /// ISO-2022-JP: a 0x1B where a trailing byte should be ends the pair in
    /// an error and begins an escape sequence.
    TrailingEscape,
    /// Bytes restored to the input: they are decoded again after this
    /// item. `ascii` when it is one ASCII byte after a leading byte, which
    /// the standard restores so that it cannot be masked.
    Restore {
        /// The bytes.
        bytes: Vec<u8>,
        /// Whether the reason is the Security background's.
        ascii: bool,
    },
    /// gb18030: at the end of the input, the pending digit `byte` is part
    /// of the error, the one ASCII byte the standard lets a decoder mask.
    MaskedAtEnd {
        /// The ASCII byte.
        byte: u8,
    },
    /// The end of the input (end-of-queue) with bytes of a sequence pending.
    EndOfQueue,
    /// The replacement decoder: whether it has returned its one error.
    ReplacementErrorReturned {
        /// The value of "replacement error returned" before.
        error_returned: bool,
    },
    /// What the handler returns, ending the item.
    Return(TraceKind),
}

/// "0x40 to 0x7E or 0x80 to 0xFC".
struct Ranges(&'static [(u8, u8)]);

impl fmt::Display for Ranges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (position, &(first, last)) in self.0.iter().enumerate() {
            if position > 0 {
                f.write_str(if position + 1 == self.0.len() {
                    " or "
                } else {
                    ", "
                })?;
            }
            if first == last {
                write!(f, "0x{first:02X}")?;
            } else {
                write!(f, "0x{first:02X} to 0x{last:02X}")?;
            }
        }
        Ok(())
    }
}

/// Bytes as "0x30 0x81 0x41".
struct Bytes<'a>(&'a [u8]);

impl fmt::Display for Bytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (position, byte) in self.0.iter().enumerate() {
            if position > 0 {
                f.write_str(" ")?;
            }
            write!(f, "0x{byte:02X}")?;
        }
        Ok(())
    }
}

/// A code point as "U+3042 (あ)", without the character when it would not
/// show (controls, separators).
pub(crate) struct CodePoint(pub(crate) char);

impl fmt::Display for CodePoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.0;
        write!(f, "U+{:04X}", u32::from(c))?;
        if shows(c) {
            write!(f, " ({c})")?;
        }
        Ok(())
    }
}

/// Whether `c` shows as itself in a line of text.
fn shows(c: char) -> bool {
    let value = u32::from(c);
    let private_use = matches!(value, 0xE000..=0xF8FF | 0xF_0000..);
    let noncharacter = matches!(value, 0xFDD0..=0xFDEF) || value & 0xFFFE == 0xFFFE;
    !c.is_control()
        && !c.is_whitespace()
        && !private_use
        && !noncharacter
        && !matches!(c, '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{FEFF}')
}

/// A byte's bits, "1110 0011".
struct Bits(u8);

impl fmt::Display for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04b} {:04b}", self.0 >> 4, self.0 & 0xF)
    }
}

/// The rows of RFC 2279's table within the standard's range (U+0000 to
/// U+10FFFF): the first and last code point, and the pattern.
const RFC_2279_ROWS: [(u32, u32, &str); 4] = [
    (0x0000, 0x007F, "0xxxxxxx"),
    (0x0080, 0x07FF, "110xxxxx 10xxxxxx"),
    (0x0800, 0xFFFF, "1110xxxx 10xxxxxx 10xxxxxx"),
    (0x1_0000, 0x10_FFFF, "11110xxx 10xxxxxx 10xxxxxx 10xxxxxx"),
];

/// A UTF-8 sequence's bits split as RFC 2279's table does: marker bits, a
/// dot, the bits that carry the code point ("1110.0011 10.000001").
fn write_utf8_bits(f: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
    for (position, &byte) in bytes.iter().enumerate() {
        if position > 0 {
            f.write_str(" ")?;
        }
        let marker_len = if position > 0 {
            2
        } else {
            match bytes.len() {
                1 => 1,
                len => len + 1,
            }
        };
        let bits = format!("{byte:08b}");
        let (marker, payload) = bits.split_at(marker_len);
        write!(f, "{marker}.{payload}")?;
    }
    Ok(())
}

/// The bits that carry the code point, grouped per byte ("0011 000001").
fn write_payload_bits(f: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
    for (position, &byte) in bytes.iter().enumerate() {
        if position > 0 {
            f.write_str(" ")?;
        }
        let payload_len = if position > 0 {
            6
        } else {
            match bytes.len() {
                1 => 7,
                len => 7 - len,
            }
        };
        let bits = format!("{byte:08b}");
        f.write_str(&bits[8 - payload_len..])?;
    }
    Ok(())
}

impl fmt::Display for StepKind {
    #[expect(
        clippy::too_many_lines,
        reason = "one arm per kind of step, each a sentence"
    )]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepKind::StateBefore { bytes, variables } => {
                write!(
                    f,
                    "{} read before these bytes left the decoder with ",
                    Bytes(bytes)
                )?;
                write_variables(f, variables)
            }
            StepKind::ByteOrderMark { bytes, encoding } => write!(
                f,
                "{} is the byte order mark of {encoding}: BOM sniffing picks {encoding}, and the bytes are read and produce nothing",
                Bytes(bytes)
            ),
            StepKind::BomUndecided { bytes } => write!(
                f,
                "{} may begin a byte order mark: BOM sniffing needs the bytes that follow to decide",
                Bytes(bytes)
            ),
            StepKind::SameCodePoint { byte, ranges } => write!(
                f,
                "0x{byte:02X} is in {}, so it is code point {}",
                Ranges(ranges),
                CodePoint(char::from(*byte))
            ),
            StepKind::FixedCodePoint { byte, code_point } => {
                write!(f, "0x{byte:02X} is code point {}", CodePoint(*code_point))
            }
            StepKind::InvalidByte { byte, valid } => write!(
                f,
                "0x{byte:02X} cannot begin anything here: only {} can",
                Ranges(valid)
            ),
            StepKind::ByteInRanges {
                byte,
                ranges,
                in_range,
            } => {
                let is = if *in_range { "is" } else { "is not" };
                write!(f, "0x{byte:02X} {is} in {}", Ranges(ranges))
            }
            StepKind::LeadingAndByte {
                variable,
                leading,
                byte,
                ranges,
            } => write!(
                f,
                "{variable} is 0x{leading:02X} and 0x{byte:02X} is in {}",
                Ranges(ranges)
            ),
            StepKind::Remember {
                variable,
                byte,
                ranges,
            } => write!(
                f,
                "0x{byte:02X} is in {}: set {variable} to 0x{byte:02X} and continue",
                Ranges(ranges)
            ),
            StepKind::TakeLeading { variable, leading } => write!(
                f,
                "{variable} is 0x{leading:02X}: let leading be 0x{leading:02X} and set {variable} to 0x00"
            ),
            StepKind::Offset {
                name,
                value,
                below,
                offset,
            } => {
                let comparison = if value < below { "is" } else { "is not" };
                write!(
                    f,
                    "{name} = 0x{offset:02X}, as 0x{value:02X} {comparison} less than 0x{below:02X}"
                )
            }
            StepKind::TrailingByte {
                byte,
                ranges,
                in_range: true,
            } => write!(
                f,
                "0x{byte:02X} is in {}, so the pair has a pointer",
                Ranges(ranges)
            ),
            StepKind::TrailingByte {
                byte,
                ranges,
                in_range: false,
            } => write!(
                f,
                "0x{byte:02X} is not in {}, so pointer is null",
                Ranges(ranges)
            ),
            StepKind::BothInRange {
                leading,
                byte,
                in_range: true,
            } => write!(
                f,
                "0x{leading:02X} and 0x{byte:02X} are both in 0xA1 to 0xFE, so the pair has a pointer"
            ),
            StepKind::BothInRange {
                leading,
                byte,
                in_range: false,
            } => write!(
                f,
                "0x{leading:02X} and 0x{byte:02X} are not both in 0xA1 to 0xFE, so code point is null"
            ),
            StepKind::Pointer(formula) => write!(f, "{formula}"),
            StepKind::IndexCodePoint {
                index,
                pointer,
                code_point: Some(c),
            } => write!(f, "{index} at pointer {pointer} is {}", CodePoint(*c)),
            StepKind::IndexCodePoint {
                index,
                pointer,
                code_point: None,
            } => write!(
                f,
                "{index} has no code point at pointer {pointer}: code point is null"
            ),
            StepKind::RangesCodePoint { pointer, lookup } => match lookup {
                RangesLookup::Null => write!(
                    f,
                    "pointer {pointer} is between 39419 and 189000, or past 1237575: index gb18030 ranges code point is null"
                ),
                RangesLookup::E7c7 => write!(
                    f,
                    "pointer 7457 is code point U+E7C7, as the standard's GB18030-2005 change says"
                ),
                RangesLookup::Range {
                    offset,
                    code_point_offset,
                    code_point,
                } => write!(
                    f,
                    "in index gb18030 ranges, the last pointer at or below {pointer} is {offset} (U+{code_point_offset:04X}): code point = 0x{code_point_offset:X} + {pointer} − {offset} = {}",
                    CodePoint(*code_point)
                ),
            },
            StepKind::UserDefinedArea {
                pointer,
                code_point,
            } => write!(
                f,
                "pointer {pointer} is in 8836 to 10715 (Windows' end-user-defined characters): code point = 0xE000 − 8836 + {pointer} = {}",
                CodePoint(*code_point)
            ),
            StepKind::HalfwidthKatakana {
                byte,
                first,
                code_point,
            } => write!(
                f,
                "halfwidth katakana: code point = 0xFF61 − 0x{first:02X} + 0x{byte:02X} = {}",
                CodePoint(*code_point)
            ),
            StepKind::XUserDefined { byte, code_point } => write!(
                f,
                "0x{byte:02X} is not an ASCII byte: code point = 0xF780 + 0x{byte:02X} − 0x80 = {}",
                CodePoint(*code_point)
            ),
            StepKind::TwoCodePoints {
                pointer,
                code_points: (first, second),
            } => write!(
                f,
                "pointer {pointer} is in the standard's table of characters Unicode writes as two code points: U+{:04X} U+{:04X} ({first}{second})",
                u32::from(*first),
                u32::from(*second)
            ),
            StepKind::Jis0212 { byte } => write!(
                f,
                "EUC-JP leading is 0x8F and 0x{byte:02X} is in 0xA1 to 0xFE: set EUC-JP jis0212 to true and EUC-JP leading to 0x{byte:02X} (the pair is looked up in index jis0212) and continue"
            ),
            StepKind::Utf8Leading {
                byte,
                bytes_needed,
                code_point,
            } => {
                let (mask, pattern) = match bytes_needed {
                    1 => ("0x1F", "110xxxxx"),
                    2 => ("0xF", "1110xxxx"),
                    _ => ("0x7", "11110xxx"),
                };
                write!(
                    f,
                    "0x{byte:02X} = {} begins a sequence of {} bytes ({pattern}): UTF-8 bytes needed = {bytes_needed}, UTF-8 code point = 0x{byte:02X} & {mask} = 0x{code_point:X}",
                    Bits(*byte),
                    bytes_needed + 1
                )
            }
            StepKind::Utf8Boundary {
                byte,
                boundary,
                value,
            } => {
                let (name, why) = match (byte, boundary) {
                    (0xE0, _) => (
                        "lower",
                        "a shorter form of a code point below U+0800 (overlong) cannot get through",
                    ),
                    (0xED, _) => (
                        "upper",
                        "a surrogate (U+D800 to U+DFFF) cannot get through",
                    ),
                    (0xF0, _) => (
                        "lower",
                        "a longer form of a code point below U+10000 (overlong) cannot get through",
                    ),
                    (_, Boundary::Upper) => (
                        "upper",
                        "nothing past U+10FFFF can get through",
                    ),
                    (_, Boundary::Lower) => ("lower", "the next byte is narrowed"),
                };
                write!(
                    f,
                    "0x{byte:02X}: set UTF-8 {name} boundary to 0x{value:02X}, so that {why}"
                )
            }
            StepKind::Utf8Continuation {
                byte,
                lower_boundary,
                upper_boundary,
                code_point_before,
                code_point,
                bytes_seen,
                bytes_needed,
            } => write!(
                f,
                "0x{byte:02X} = {} is in 0x{lower_boundary:02X} to 0x{upper_boundary:02X}: UTF-8 code point = (0x{code_point_before:X} << 6) | (0x{byte:02X} & 0x3F) = 0x{code_point:X}; UTF-8 bytes seen = {bytes_seen} of {bytes_needed}",
                Bits(*byte)
            ),
            StepKind::Utf8OutOfBoundary {
                byte,
                lower_boundary,
                upper_boundary,
            } => write!(
                f,
                "0x{byte:02X} is not in 0x{lower_boundary:02X} to 0x{upper_boundary:02X} (UTF-8 lower to upper boundary): the sequence ends before it; the state is reset"
            ),
            StepKind::Utf8Pattern { bytes, code_point } => {
                let value = u32::from(*code_point);
                let (first, last, pattern) = RFC_2279_ROWS
                    .iter()
                    .copied()
                    .find(|&(first, last, _)| (first..=last).contains(&value))
                    .unwrap_or(RFC_2279_ROWS[3]);
                write!(
                    f,
                    "U+{first:04X} to U+{last:04X} is {pattern}: "
                )?;
                write_utf8_bits(f, bytes)?;
                f.write_str(" carries ")?;
                write_payload_bits(f, bytes)?;
                write!(f, " = {}", CodePoint(*code_point))
            }
            StepKind::Utf16LeadingByte { byte } => write!(
                f,
                "UTF-16 leading byte is null: set it to 0x{byte:02X} and continue"
            ),
            StepKind::CodeUnit {
                leading_byte,
                byte,
                is_utf16be: true,
                code_unit,
            } => write!(
                f,
                "UTF-16BE: code unit = (0x{leading_byte:02X} << 8) + 0x{byte:02X} = 0x{code_unit:04X}; set UTF-16 leading byte to null"
            ),
            StepKind::CodeUnit {
                leading_byte,
                byte,
                is_utf16be: false,
                code_unit,
            } => write!(
                f,
                "UTF-16LE: code unit = (0x{byte:02X} << 8) + 0x{leading_byte:02X} = 0x{code_unit:04X}; set UTF-16 leading byte to null"
            ),
            StepKind::LeadingSurrogate { code_unit } => write!(
                f,
                "0x{code_unit:04X} is a leading surrogate (0xD800 to 0xDBFF): set UTF-16 leading surrogate to it and continue"
            ),
            StepKind::SurrogatePair {
                leading,
                trailing,
                code_point,
            } => write!(
                f,
                "UTF-16 leading surrogate is 0x{leading:04X} and 0x{trailing:04X} is a trailing surrogate: scalar value = 0x10000 + ((0x{leading:04X} − 0xD800) << 10) + (0x{trailing:04X} − 0xDC00) = {}",
                CodePoint(*code_point)
            ),
            StepKind::UnpairedLeadingSurrogate { leading, code_unit } => write!(
                f,
                "UTF-16 leading surrogate is 0x{leading:04X} but 0x{code_unit:04X} is not a trailing surrogate (0xDC00 to 0xDFFF): set UTF-16 leading surrogate to null"
            ),
            StepKind::LoneTrailingSurrogate { code_unit } => write!(
                f,
                "0x{code_unit:04X} is a trailing surrogate (0xDC00 to 0xDFFF) with no leading surrogate before it"
            ),
            StepKind::CodeUnitIsCodePoint { code_unit } => write!(
                f,
                "0x{code_unit:04X} is not a surrogate, so it is code point {}",
                CodePoint(char::from_u32(u32::from(*code_unit)).unwrap_or(char::REPLACEMENT_CHARACTER))
            ),
            StepKind::InState { state } => write!(f, "ISO-2022-JP decoder state is {state}"),
            StepKind::Set { variables } => {
                f.write_str("set ")?;
                write_variables(f, variables)
            }
            StepKind::EscapeStart => f.write_str(
                "0x1B (ESC) may begin an escape sequence: set ISO-2022-JP decoder state to escape start and continue",
            ),
            StepKind::EscapeSequence {
                bytes: [escape, leading, byte],
                state,
            } => write!(
                f,
                "0x{escape:02X} 0x{leading:02X} 0x{byte:02X} (ESC {} {}) switches to {state}: set ISO-2022-JP decoder state and output state to {state}",
                char::from(*leading),
                char::from(*byte)
            ),
            StepKind::EscapeOutput { output: false } => f.write_str(
                "ISO-2022-JP output was false: the escape sequence produces nothing; set ISO-2022-JP output to true",
            ),
            StepKind::EscapeOutput { output: true } => f.write_str(
                "ISO-2022-JP output was true: no text since the previous escape sequence, which is an error; ISO-2022-JP output stays true",
            ),
            StepKind::NotEscapeSequence { bytes } if bytes.is_empty() => {
                f.write_str("the input ends after 0x1B: not an escape sequence")
            }
            StepKind::NotEscapeSequence { bytes } => write!(
                f,
                "0x1B {} is none of ESC ( B, ESC ( J, ESC ( I, ESC $ @ and ESC $ B: not an escape sequence",
                Bytes(bytes)
            ),
            StepKind::TrailingEscape => f.write_str(
                "0x1B where a trailing byte should be: the pair ends in an error, and the 0x1B begins an escape sequence (the decoder restores it and reads it again in the leading byte state, where the standard moves to escape start at once; the output is the same)",
            ),
            StepKind::Restore { bytes, ascii: true } => write!(
                f,
                "{} is an ASCII byte, so it is restored to the input and cannot be masked: it is decoded again on its own (Security background)",
                Bytes(bytes)
            ),
            StepKind::Restore {
                bytes,
                ascii: false,
            } => write!(
                f,
                "restore {} to the input: decoded again after this error",
                Bytes(bytes)
            ),
            StepKind::MaskedAtEnd { byte } => write!(
                f,
                "0x{byte:02X} is an ASCII byte that becomes part of this error: the Security background's one exception, gb18030 masking up to one such byte at end-of-queue"
            ),
            StepKind::EndOfQueue => {
                f.write_str("end of the input (end-of-queue) in the middle of a sequence")
            }
            StepKind::ReplacementErrorReturned {
                error_returned: false,
            } => f.write_str(
                "replacement error returned is false: set it to true; the whole input becomes this one error",
            ),
            StepKind::ReplacementErrorReturned {
                error_returned: true,
            } => f.write_str(
                "replacement error returned is true: the decoder returns finished, and this byte is never read",
            ),
            StepKind::Return(outcome) => write_return(f, outcome),
        }
    }
}

fn write_variables(f: &mut fmt::Formatter<'_>, variables: &[Variable]) -> fmt::Result {
    for (position, variable) in variables.iter().enumerate() {
        if position > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{variable}")?;
    }
    Ok(())
}

fn write_return(f: &mut fmt::Formatter<'_>, outcome: &TraceKind) -> fmt::Result {
    match outcome {
        TraceKind::Scalar(c) => write!(f, "return code point {}", CodePoint(*c)),
        TraceKind::Pair(first, second) => write!(
            f,
            "return code points U+{:04X} U+{:04X} ({first}{second})",
            u32::from(*first),
            u32::from(*second)
        ),
        TraceKind::Error(kind) => write!(f, "return error ({kind})"),
        TraceKind::Skip(SkipReason::EscapeSequence) => {
            f.write_str("return continue: the escape sequence produces nothing")
        }
        TraceKind::Skip(SkipReason::Bom) => f.write_str("the byte order mark produces nothing"),
        TraceKind::Skip(_) => f.write_str("return finished: nothing more is read"),
    }
}
