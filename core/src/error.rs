//! Error types of the one-shot functions.

use thiserror::Error;

use crate::provenance::{ByteSpan, DecodeErrorKind};

/// A fatal-mode decode met an error.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq, Hash)]
#[error("{kind} at byte offset {byte_offset}", byte_offset = span.start)]
pub struct DecodeError {
    /// Why it is an error.
    pub kind: DecodeErrorKind,
    /// The bytes the error covers.
    pub span: ByteSpan,
}

/// A fatal-mode encode met a character its encoding cannot encode.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq, Hash)]
#[error("U+{code_point:04X} cannot be encoded in {encoding} (character {char_index}, UTF-8 byte offset {utf8_offset})", code_point = u32::from(*character))]
pub struct EncodeError {
    /// The character.
    pub character: char,
    /// The encoding's name.
    pub encoding: &'static str,
    /// Offset of the character's first UTF-8 byte in the input.
    pub utf8_offset: u64,
    /// How many characters precede it.
    pub char_index: u64,
}
