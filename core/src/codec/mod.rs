//! The decoders and encoders of the standard, one module per section, and
//! the enum dispatch over them. Dispatch happens once per call, not per byte:
//! each arm runs the driver monomorphised for that handler.

pub(crate) mod big5;
pub(crate) mod euc_jp;
pub(crate) mod euc_kr;
pub(crate) mod gb18030;
pub(crate) mod iso_2022_jp;
pub(crate) mod replacement;
pub(crate) mod shift_jis;
pub(crate) mod single_byte;
pub(crate) mod utf_16;
pub(crate) mod utf_8;
pub(crate) mod x_user_defined;

use crate::decoder::{DecodeErrorMode, DecoderResult, Driver};
use crate::encoder::{EncodeDriver, EncoderResult};
use crate::encoding::{Encoding, Family};
use crate::provenance::DecodeSink;

/// The decoder instance of one encoding, with the standard's state.
#[derive(Clone, Debug)]
pub(crate) enum DecoderCodec {
    Utf8(utf_8::Utf8Decoder),
    SingleByte(single_byte::SingleByteDecoder),
    Gb18030(gb18030::Gb18030Decoder),
    Big5(big5::Big5Decoder),
    EucJp(euc_jp::EucJpDecoder),
    Iso2022Jp(iso_2022_jp::Iso2022JpDecoder),
    ShiftJis(shift_jis::ShiftJisDecoder),
    EucKr(euc_kr::EucKrDecoder),
    Replacement(replacement::ReplacementDecoder),
    Utf16(utf_16::Utf16Decoder),
    XUserDefined(x_user_defined::XUserDefinedDecoder),
}

impl DecoderCodec {
    /// A fresh decoder instance for `encoding`.
    pub(crate) fn new(encoding: &'static Encoding) -> Self {
        match encoding.family() {
            Family::Utf8 => Self::Utf8(utf_8::Utf8Decoder::default()),
            Family::SingleByte => Self::SingleByte(single_byte::SingleByteDecoder::new(encoding)),
            // The GBK decoder is the gb18030 decoder.
            Family::Gbk | Family::Gb18030 => Self::Gb18030(gb18030::Gb18030Decoder::default()),
            Family::Big5 => Self::Big5(big5::Big5Decoder::default()),
            Family::EucJp => Self::EucJp(euc_jp::EucJpDecoder::default()),
            Family::Iso2022Jp => Self::Iso2022Jp(iso_2022_jp::Iso2022JpDecoder::default()),
            Family::ShiftJis => Self::ShiftJis(shift_jis::ShiftJisDecoder::default()),
            Family::EucKr => Self::EucKr(euc_kr::EucKrDecoder::default()),
            Family::Replacement => Self::Replacement(replacement::ReplacementDecoder::default()),
            Family::Utf16Be => Self::Utf16(utf_16::Utf16Decoder::new(true)),
            Family::Utf16Le => Self::Utf16(utf_16::Utf16Decoder::new(false)),
            Family::XUserDefined => Self::XUserDefined(x_user_defined::XUserDefinedDecoder),
        }
    }

    /// Runs the driver with this decoder's handler.
    pub(crate) fn run<S: DecodeSink>(
        &mut self,
        driver: &mut Driver,
        input: &[u8],
        last: bool,
        mode: DecodeErrorMode,
        sink: &mut S,
    ) -> (DecoderResult, usize) {
        match self {
            Self::Utf8(h) => driver.run(h, input, last, mode, sink),
            Self::SingleByte(h) => driver.run(h, input, last, mode, sink),
            Self::Gb18030(h) => driver.run(h, input, last, mode, sink),
            Self::Big5(h) => driver.run(h, input, last, mode, sink),
            Self::EucJp(h) => driver.run(h, input, last, mode, sink),
            Self::Iso2022Jp(h) => driver.run(h, input, last, mode, sink),
            Self::ShiftJis(h) => driver.run(h, input, last, mode, sink),
            Self::EucKr(h) => driver.run(h, input, last, mode, sink),
            Self::Replacement(h) => driver.run(h, input, last, mode, sink),
            Self::Utf16(h) => driver.run(h, input, last, mode, sink),
            Self::XUserDefined(h) => driver.run(h, input, last, mode, sink),
        }
    }
}

/// The encoder instance of one encoding, with the standard's state.
#[derive(Clone, Debug)]
pub(crate) enum EncoderCodec {
    Utf8(utf_8::Utf8Encoder),
    SingleByte(single_byte::SingleByteEncoder),
    Gb18030(gb18030::Gb18030Encoder),
    Big5(big5::Big5Encoder),
    EucJp(euc_jp::EucJpEncoder),
    Iso2022Jp(iso_2022_jp::Iso2022JpEncoder),
    ShiftJis(shift_jis::ShiftJisEncoder),
    EucKr(euc_kr::EucKrEncoder),
    XUserDefined(x_user_defined::XUserDefinedEncoder),
}

impl EncoderCodec {
    /// A fresh encoder instance for `encoding`, which must have an encoder
    /// (the caller applies "get an output encoding" first).
    pub(crate) fn new(encoding: &'static Encoding) -> Self {
        match encoding.family() {
            Family::SingleByte => Self::SingleByte(single_byte::SingleByteEncoder::new(encoding)),
            Family::Gbk => Self::Gb18030(gb18030::Gb18030Encoder::new(true)),
            Family::Gb18030 => Self::Gb18030(gb18030::Gb18030Encoder::new(false)),
            Family::Big5 => Self::Big5(big5::Big5Encoder),
            Family::EucJp => Self::EucJp(euc_jp::EucJpEncoder),
            Family::Iso2022Jp => Self::Iso2022Jp(iso_2022_jp::Iso2022JpEncoder::default()),
            Family::ShiftJis => Self::ShiftJis(shift_jis::ShiftJisEncoder),
            Family::EucKr => Self::EucKr(euc_kr::EucKrEncoder),
            Family::XUserDefined => Self::XUserDefined(x_user_defined::XUserDefinedEncoder),
            // "Get an output encoding" maps replacement and UTF-16BE/LE to UTF-8.
            Family::Utf8 | Family::Replacement | Family::Utf16Be | Family::Utf16Le => {
                Self::Utf8(utf_8::Utf8Encoder)
            }
        }
    }

    /// Runs the driver with this encoder's handler.
    pub(crate) fn run(
        &mut self,
        driver: &mut EncodeDriver,
        input: &str,
        last: bool,
        output: &mut Vec<u8>,
    ) -> (EncoderResult, usize) {
        match self {
            Self::Utf8(h) => driver.run(h, input, last, output),
            Self::SingleByte(h) => driver.run(h, input, last, output),
            Self::Gb18030(h) => driver.run(h, input, last, output),
            Self::Big5(h) => driver.run(h, input, last, output),
            Self::EucJp(h) => driver.run(h, input, last, output),
            Self::Iso2022Jp(h) => driver.run(h, input, last, output),
            Self::ShiftJis(h) => driver.run(h, input, last, output),
            Self::EucKr(h) => driver.run(h, input, last, output),
            Self::XUserDefined(h) => driver.run(h, input, last, output),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decoder::text_runs::HANDLER_ENTRY;
    use crate::decoder::{Handler, PairLookup, Step, utf8_entry};
    use crate::encoding::ALL;
    use crate::provenance::DecodeErrorKind;

    /// Every byte and pair of bytes a handler's pair table decides, `handle`
    /// decides the same way, with the same bytes, back in the same state;
    /// and the table decodes many pairs itself.
    fn check_pair_table<H: Handler + Clone + std::fmt::Debug>(name: &str, fresh: &H) {
        let table = fresh.pair_table().expect("a pair table");
        let mut decoded = 0;
        for leading in 0..=u8::MAX {
            let trailing_bytes = (0..=u8::MAX).map(Some).chain([None]);
            for trailing in trailing_bytes {
                let context = format!("{name} {leading:#04X} {trailing:02X?}");
                // The text-only fast path's entries say the same.
                if let Some(trailing) = trailing {
                    let entry = table.utf8_entry(leading, trailing);
                    match table.lookup(leading, Some(trailing)) {
                        PairLookup::Scalar(c) => {
                            assert_eq!(entry, utf8_entry(u32::from(c)), "{context}");
                        }
                        _ => assert!(entry <= HANDLER_ENTRY, "{context}"),
                    }
                }
                let mut handler = fresh.clone();
                match table.lookup(leading, trailing) {
                    PairLookup::Handler => continue,
                    PairLookup::Error { kind, len: 1 } if kind == DecodeErrorKind::InvalidByte => {
                        assert_eq!(handler.handle(leading), Step::error(kind), "{context}");
                    }
                    lookup => {
                        assert_eq!(handler.handle(leading), Step::Continue, "{context}");
                        let trailing = trailing.expect("a pair needs two bytes");
                        let expected = match lookup {
                            PairLookup::Scalar(c) => {
                                decoded += 1;
                                Step::Scalar(c)
                            }
                            PairLookup::Error { kind, len } => Step::Error {
                                kind,
                                restore: 2 - len,
                            },
                            PairLookup::Handler => unreachable!(),
                        };
                        assert_eq!(handler.handle(trailing), expected, "{context}");
                    }
                }
                assert_eq!(format!("{handler:?}"), format!("{fresh:?}"), "{context}");
            }
        }
        assert!(decoded > 7000, "{name}: only {decoded} pairs");
    }

    #[test]
    fn pair_tables_agree_with_the_handlers() {
        for &encoding in &ALL {
            match DecoderCodec::new(encoding) {
                DecoderCodec::Gb18030(h) => check_pair_table(encoding.name(), &h),
                DecoderCodec::Big5(h) => check_pair_table(encoding.name(), &h),
                DecoderCodec::EucJp(h) => check_pair_table(encoding.name(), &h),
                DecoderCodec::ShiftJis(h) => check_pair_table(encoding.name(), &h),
                DecoderCodec::EucKr(h) => check_pair_table(encoding.name(), &h),
                DecoderCodec::Utf8(h) => assert!(h.pair_table().is_none()),
                DecoderCodec::Iso2022Jp(h) => assert!(h.pair_table().is_none()),
                DecoderCodec::Utf16(h) => assert!(h.pair_table().is_none()),
                _ => {}
            }
        }
    }

    #[test]
    fn byte_tables_agree_with_the_handlers() {
        let mut checked = 0;
        for &encoding in &ALL {
            let DecoderCodec::SingleByte(fresh) = DecoderCodec::new(encoding) else {
                continue;
            };
            let table = fresh.byte_table().expect("a byte table");
            let utf8 = fresh.utf8_byte_table().expect("a UTF-8 byte table");
            for (&c, &entry) in table.iter().zip(utf8) {
                let expected = c.map_or(0, |c| utf8_entry(u32::from(c)));
                assert_eq!(entry, expected, "{encoding}");
            }
            for byte in 0..=u8::MAX {
                let mut handler = fresh.clone();
                let step = handler.handle(byte);
                if byte.is_ascii() {
                    assert_eq!(step, Step::Scalar(char::from(byte)));
                    continue;
                }
                match table[usize::from(byte - 0x80)] {
                    Some(c) => assert_eq!(step, Step::Scalar(c), "{encoding} {byte:#X}"),
                    None => assert!(matches!(step, Step::Error { .. }), "{encoding} {byte:#X}"),
                }
            }
            checked += 1;
        }
        assert_eq!(checked, 28);
    }
}
