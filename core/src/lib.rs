//! An exact implementation of the [WHATWG Encoding Standard](https://encoding.spec.whatwg.org/),
//! with byte provenance for every decoded character.
//!
//! The standard defines 40 [`Encoding`]s, each a `static` here ([`UTF_8`],
//! [`SHIFT_JIS`], ...), their labels, and a decoder and (for most) an encoder
//! for each, step by step. This crate follows those steps, and on top of them
//! records where in the input every item of the output came from: each
//! decoded scalar value, each error and each byte that produces nothing (a
//! byte order mark, an ISO-2022-JP escape sequence) carries its [`ByteSpan`],
//! and together they cover the input exactly once.
//!
//! Decoding streams: a [`Decoder`] keeps the standard's state between chunks
//! and its output does not depend on where the chunks are split. It reports
//! items to a [`DecodeSink`]: a `String` for plain text, a [`Trace`] for text
//! with provenance, or your own (an [`ErrorCounter`], say). One decoder
//! implementation serves all of them.
//!
//! ```
//! use mojiscope_core::{BomHandling, ByteSpan, DecodeErrorKind, Encoding, TraceKind};
//!
//! let encoding = Encoding::for_label(b"sjis").ok_or("unknown label")?;
//! assert_eq!(encoding.name(), "Shift_JIS");
//!
//! // The standard's "decode": BOM sniffing, replacement mode.
//! assert_eq!(encoding.decode(b"\x93\xFA\x96\x7B").text, "日本");
//!
//! // The same with provenance: 0x20 cannot follow the leading byte 0x82,
//! // so it is restored to the input and decodes as a space on its own.
//! let (trace, _) = encoding.decode_traced(b"\x82 ", BomHandling::None);
//! assert_eq!(trace.text, "\u{FFFD} ");
//! let first = trace.item_at_byte(0).ok_or("an item")?;
//! assert_eq!(first.span, ByteSpan::new(0, 1));
//! assert_eq!(first.kind, TraceKind::Error(DecodeErrorKind::InvalidTrail));
//!
//! // The legacy "encode" with html error mode, and fatal mode.
//! let (bytes, _, unmappable) = encoding.encode("日本☃");
//! assert_eq!(bytes, b"\x93\xFA\x96\x7B&#9731;");
//! assert_eq!(unmappable.len(), 1);
//! assert!(encoding.encode_fatal("☃").is_err());
//! Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The standard's concepts and this crate's API
//!
//! | The standard | Here |
//! |---|---|
//! | encoding, name, labels | [`Encoding`], [`Encoding::name`], [`Encoding::labels`], [`ALL`] |
//! | the sections that group encodings | [`Group`], [`Encoding::group`] |
//! | get an encoding | [`Encoding::for_label`] |
//! | get an output encoding | [`Encoding::output_encoding`] |
//! | decoder, its handler and state | [`Decoder`] (streaming) |
//! | encoder | [`Encoder`] (streaming) |
//! | error mode replacement / fatal (decoders) | [`DecodeErrorMode`] |
//! | error mode fatal / html (encoders) | [`EncodeErrorMode`] |
//! | decode | [`Encoding::decode`], [`BomHandling::Sniff`] |
//! | UTF-8 decode | [`utf8_decode`], [`BomHandling::RemoveUtf8`] |
//! | UTF-8 decode without BOM | [`utf8_decode_without_bom`], [`BomHandling::None`] |
//! | UTF-8 decode without BOM or fail | [`utf8_decode_without_bom_or_fail`] |
//! | BOM sniff | [`bom_sniff`] |
//! | encode (legacy, html mode) | [`Encoding::encode`] |
//! | encode or fail | [`Encoder`] in [`EncodeErrorMode::Fatal`], [`Encoding::encode_fatal`] |
//! | UTF-8 encode | [`utf8_encode`] |
//! | error (a decoder's) | [`DecoderResult::Malformed`], [`DecodeErrorKind`] |
//! | error with a code point (an encoder's) | [`EncoderResult::Unmappable`], [`Unmappable`] |
//! | index, index code point, index pointer | [`Index`], [`Index::code_point`], [`Index::pointers`] |
//! | a decoder's steps, numbers filled in | [`Encoding::explain`], [`Decoder::explain`], [`Explanation`] |
//! | (beyond the standard) which encoding bytes are in | [`detect()`], [`Detection`], [`Candidate`], [`Evidence`], [`Note`] |
//! | (beyond the standard) the parts of a file in different encodings | [`segments()`], [`Segmentation`], [`Segment`], [`SegmentNote`] |
//!
//! For teaching, [`Explanation`] gives the decoder's steps for some bytes as
//! data ([`Step`], [`StepKind`], each with its [`Citation`]), from the same
//! code that decodes; [`CodePage`] is a single-byte encoding's 256 bytes,
//! [`IndexLayout`] an index laid out in an encoding's bytes, and
//! [`character_bytes`] a character's bytes in every encoding.
//!
//! The index tables come from the `mojiscope-indexes` crate, generated from
//! the standard's own data (CC BY 4.0).
//!
//! On top of the standard, [`repair`] finds and undoes mojibake: text that
//! went through the wrong decoder once or more ("Ã©tÃ©" for "été").

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod bom;
mod code_page;
mod codec;
mod decoder;
mod detect;
mod encoder;
mod encoding;
mod error;
mod explain;
mod hooks;
mod index;
mod provenance;
pub mod repair;
#[cfg(test)]
mod testing;
mod text;
mod utf8;

pub use bom::bom_sniff;
pub use code_page::{CharacterBytes, CodePage, character_bytes};
pub use decoder::{BomHandling, DecodeErrorMode, Decoder, DecoderResult};
pub use detect::{
    Candidate, Declaration, DeclarationSource, Detection, Evidence, Note, PRESCAN_BYTES, Segment,
    SegmentNote, Segmentation, declared, detect, detect_examined, examined_ranges, prescan,
    segments, segments_with_detection,
};
pub use encoder::{EncodeErrorMode, Encoder, EncoderResult, Unmappable};
pub use encoding::*;
pub use error::{DecodeError, EncodeError};
pub use explain::{
    Boundary, Citation, Document, ExplainedItem, Explanation, PointerFormula, RangesLookup, Step,
    StepKind, Value, Variable,
};
pub use hooks::{
    Decoded, utf8_decode, utf8_decode_without_bom, utf8_decode_without_bom_or_fail, utf8_encode,
};
pub use index::{Index, IndexLayout};
pub use provenance::{
    ByteSpan, CharWidths, DecodeErrorKind, DecodeSink, ErrorCounter, SkipReason, Trace, TraceItem,
    TraceKind,
};
