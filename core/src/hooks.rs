//! The standard's hooks ("decode", "UTF-8 decode", "encode", ...) as
//! one-shot functions over whole buffers, and their traced and fatal variants.

use crate::decoder::{BomHandling, DecodeErrorMode, Decoder, DecoderResult};
use crate::encoder::{EncodeErrorMode, Encoder, EncoderResult, Unmappable};
use crate::encoding::{Encoding, UTF_8};
use crate::error::{DecodeError, EncodeError};
use crate::provenance::{DecodeSink, Trace};
use crate::text::TextBuilder;

/// The result of a one-shot replacement-mode decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The text, with U+FFFD for each error.
    pub text: String,
    /// The encoding actually used (a byte order mark may have picked it).
    pub encoding: &'static Encoding,
    /// Whether any error occurred.
    pub had_errors: bool,
}

/// Runs a whole buffer through a decoder in replacement mode.
fn decode_all<S: DecodeSink>(
    encoding: &'static Encoding,
    bytes: &[u8],
    bom: BomHandling,
    sink: &mut S,
) -> &'static Encoding {
    let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, bom);
    let (result, _) = decoder.decode(bytes, true, sink);
    debug_assert_eq!(
        result,
        DecoderResult::InputEmpty,
        "replacement mode consumes everything"
    );
    decoder.encoding()
}

impl Encoding {
    /// The standard's [decode](https://encoding.spec.whatwg.org/#decode): a
    /// byte order mark picks the encoding (this one is the fallback), then
    /// the input is decoded in replacement mode.
    ///
    /// ```
    /// use mojiscope_core::{WINDOWS_1252, UTF_16BE};
    /// let decoded = WINDOWS_1252.decode(b"\xFE\xFF\x00h\x00i");
    /// assert_eq!((decoded.text.as_str(), decoded.encoding), ("hi", UTF_16BE));
    /// assert_eq!(WINDOWS_1252.decode(b"caf\xE9").text, "café");
    /// ```
    pub fn decode(&'static self, bytes: &[u8]) -> Decoded {
        self.decode_with_bom_handling(bytes, BomHandling::Sniff)
    }

    /// Decodes in replacement mode with the given BOM handling
    /// ([`BomHandling::None`] runs this encoding's decoder over every byte).
    pub fn decode_with_bom_handling(&'static self, bytes: &[u8], bom: BomHandling) -> Decoded {
        // Not in spec: room for the longest text the bytes can decode to (a
        // byte never makes more than three bytes of UTF-8), so that the text
        // is never moved while it grows; `finish` gives back what is unused.
        let mut builder = TextBuilder::with_capacity(bytes.len().saturating_mul(3));
        let encoding = decode_all(self, bytes, bom, &mut builder);
        let (text, errors) = builder.finish();
        let had_errors = errors > 0;
        Decoded {
            text,
            encoding,
            had_errors,
        }
    }

    /// Decodes in fatal mode: the text, and the encoding used, or the first
    /// error.
    ///
    /// # Errors
    /// The first error in the input, with its bytes and kind.
    pub fn decode_fatal(
        &'static self,
        bytes: &[u8],
        bom: BomHandling,
    ) -> Result<(String, &'static Encoding), DecodeError> {
        let mut decoder = Decoder::new(self, DecodeErrorMode::Fatal, bom);
        let mut text = String::with_capacity(bytes.len());
        match decoder.decode(bytes, true, &mut text).0 {
            DecoderResult::InputEmpty => Ok((text, decoder.encoding())),
            DecoderResult::Malformed { kind, span } => Err(DecodeError { kind, span }),
        }
    }

    /// Decodes in replacement mode keeping the provenance of every item.
    ///
    /// ```
    /// use mojiscope_core::{BomHandling, ByteSpan, TraceKind, SHIFT_JIS};
    /// let (trace, _) = SHIFT_JIS.decode_traced(b"a\x82\xA0", BomHandling::None);
    /// assert_eq!(trace.text, "aあ");
    /// let item = trace.items().nth(1).expect("two items");
    /// assert_eq!(item.span, ByteSpan::new(1, 3));
    /// assert_eq!(item.kind, TraceKind::Scalar('あ'));
    /// assert_eq!(trace.item_at_byte(2), Some(item));
    /// ```
    pub fn decode_traced(
        &'static self,
        bytes: &[u8],
        bom: BomHandling,
    ) -> (Trace, &'static Encoding) {
        // Room for the longest text, as the plain decode has, so that the
        // text is never moved while it grows; what is unused is given back.
        let mut trace = Trace::with_text_capacity(bytes.len().saturating_mul(3));
        let encoding = decode_all(self, bytes, bom, &mut trace);
        if trace.text.capacity() - trace.text.len() > trace.text.len() / 4 {
            trace.text.shrink_to_fit();
        }
        (trace, encoding)
    }

    /// The standard's legacy [encode](https://encoding.spec.whatwg.org/#encode):
    /// encodes with this encoding's output encoding in html mode, where each
    /// unencodable character becomes `&#N;`. Returns the bytes, the encoding
    /// written, and every character that could not be encoded.
    ///
    /// ```
    /// use mojiscope_core::{SHIFT_JIS, UTF_16LE, UTF_8};
    /// let (bytes, encoding, unmappable) = SHIFT_JIS.encode("あ☃");
    /// assert_eq!((bytes.as_slice(), encoding), (&b"\x82\xA0&#9731;"[..], SHIFT_JIS));
    /// assert_eq!(unmappable[0].character, '☃');
    /// assert_eq!(UTF_16LE.encode("x").1, UTF_8);
    /// ```
    pub fn encode(&'static self, text: &str) -> (Vec<u8>, &'static Encoding, Vec<Unmappable>) {
        let mut encoder = Encoder::new(self, EncodeErrorMode::Html);
        let mut bytes = Vec::with_capacity(text.len());
        let mut unmappables = Vec::new();
        let mut rest = text;
        loop {
            let (result, read) = encoder.encode(rest, true, &mut bytes);
            rest = &rest[read..];
            match result {
                EncoderResult::InputEmpty => break,
                EncoderResult::Unmappable(unmappable) => unmappables.push(unmappable),
            }
        }
        (bytes, encoder.encoding(), unmappables)
    }

    /// Encodes in fatal mode with this encoding's output encoding.
    ///
    /// # Errors
    /// The first character the encoding cannot encode, with its position.
    pub fn encode_fatal(&'static self, text: &str) -> Result<Vec<u8>, EncodeError> {
        let mut encoder = Encoder::new(self, EncodeErrorMode::Fatal);
        let mut bytes = Vec::with_capacity(text.len());
        match encoder.encode(text, true, &mut bytes).0 {
            EncoderResult::InputEmpty => Ok(bytes),
            EncoderResult::Unmappable(unmappable) => Err(EncodeError {
                character: unmappable.character,
                encoding: encoder.encoding().name(),
                utf8_offset: unmappable.utf8_offset,
                char_index: unmappable.char_index,
            }),
        }
    }
}

/// The standard's [UTF-8 decode](https://encoding.spec.whatwg.org/#utf-8-decode):
/// a UTF-8 byte order mark is removed, then UTF-8 is decoded in replacement mode.
pub fn utf8_decode(bytes: &[u8]) -> String {
    UTF_8
        .decode_with_bom_handling(bytes, BomHandling::RemoveUtf8)
        .text
}

/// The standard's [UTF-8 decode without BOM](https://encoding.spec.whatwg.org/#utf-8-decode-without-bom).
pub fn utf8_decode_without_bom(bytes: &[u8]) -> String {
    UTF_8
        .decode_with_bom_handling(bytes, BomHandling::None)
        .text
}

/// The standard's [UTF-8 decode without BOM or fail](https://encoding.spec.whatwg.org/#utf-8-decode-without-bom-or-fail).
///
/// # Errors
/// The first error, where the standard returns failure.
pub fn utf8_decode_without_bom_or_fail(bytes: &[u8]) -> Result<String, DecodeError> {
    UTF_8
        .decode_fatal(bytes, BomHandling::None)
        .map(|(text, _)| text)
}

/// The standard's [UTF-8 encode](https://encoding.spec.whatwg.org/#utf-8-encode).
pub fn utf8_encode(text: &str) -> Vec<u8> {
    text.as_bytes().to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DecodeErrorKind, UTF_16LE, WINDOWS_1252};

    #[test]
    fn decode_sniffs_and_utf8_decode_only_removes_the_utf8_bom() {
        assert_eq!(WINDOWS_1252.decode(b"\xEF\xBB\xBFh\xC3\xA9").text, "hé");
        assert_eq!(UTF_8.decode(b"\xFF\xFEh\x00").encoding, UTF_16LE);
        assert_eq!(utf8_decode(b"\xEF\xBB\xBFx"), "x");
        assert_eq!(utf8_decode(b"\xFF\xFEx"), "\u{FFFD}\u{FFFD}x");
        assert_eq!(utf8_decode_without_bom(b"\xEF\xBB\xBFx"), "\u{FEFF}x");
        // A second BOM is text.
        assert_eq!(utf8_decode(b"\xEF\xBB\xBF\xEF\xBB\xBF"), "\u{FEFF}");
        // A lone BOM prefix is not a BOM.
        assert_eq!(utf8_decode(b"\xEF\xBB"), "\u{FFFD}");
    }

    #[test]
    fn fatal_hooks() {
        let error = utf8_decode_without_bom_or_fail(b"ok\xFFno").unwrap_err();
        assert_eq!(
            (error.kind, error.span),
            (DecodeErrorKind::InvalidByte, crate::ByteSpan::new(2, 3))
        );
        assert_eq!(error.to_string(), "invalid byte at byte offset 2");
        let error = WINDOWS_1252.encode_fatal("ab☃").unwrap_err();
        assert_eq!(
            (error.character, error.utf8_offset, error.char_index),
            ('☃', 2, 2)
        );
        assert_eq!(utf8_encode("é"), b"\xC3\xA9");
    }
}
