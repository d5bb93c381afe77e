//! What the analysis tests share: a deterministic generator, realistic
//! text in any encoding, inputs that cross the checkpoints, and the
//! whole-file decode they are checked against.

use std::sync::atomic::AtomicBool;

use mojiscope_core::{
    ALL, BomHandling, DecodeErrorMode, Decoder, Encoding, GB18030, ISO_2022_JP, Trace, UTF_16BE,
    UTF_16LE,
};

use super::{EncodingAnalysis, INTERVAL, analyse};

/// A small deterministic generator (xorshift64*).
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub(crate) fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| (self.next() >> 56) as u8).collect()
    }
}

pub(crate) const TEXT: &str = "Plain text, café naïve Ærø € ¥ ‾ Ελληνικά Кириллица עברית العربية ไทย\n\
    日本語のテキスト、カタカナ・ひらがな。ｶﾀｶﾅ 漢字 鷗 髙 﨑 〜 ①\n\
    中文简体 繁體中文 𠀋 한국어 텍스트 가나다 😀\r\n";

/// Realistic text in `encoding`: the sample's encodable characters,
/// repeated with random errors sprinkled in, about `len` bytes.
pub(crate) fn realistic(encoding: &'static Encoding, len: usize, rng: &mut Rng) -> Vec<u8> {
    let encodable: String = TEXT
        .chars()
        .filter(|&c| {
            let mut s = String::new();
            s.push(c);
            encoding.encode_fatal(&s).is_ok()
        })
        .collect();
    let (line, _, _) = encoding.encode(&encodable);
    let mut bytes = Vec::with_capacity(len + line.len());
    while bytes.len() < len {
        match encoding {
            e if e == UTF_16LE => {
                bytes.extend(encodable.encode_utf16().flat_map(u16::to_le_bytes));
            }
            e if e == UTF_16BE => {
                bytes.extend(encodable.encode_utf16().flat_map(u16::to_be_bytes));
            }
            _ => bytes.extend_from_slice(&line),
        }
        // Now and then a stray byte or two.
        if rng.below(4) == 0 {
            let stray = 1 + rng.below(2);
            bytes.extend(rng.bytes(stray));
        }
    }
    bytes
}

/// Every encoding, with inputs that exercise its state across checkpoints.
pub(crate) fn inputs(rng: &mut Rng) -> Vec<(&'static Encoding, Vec<u8>)> {
    let mut inputs = Vec::new();
    let size = 3 * INTERVAL + 1234;
    for &encoding in &ALL {
        inputs.push((encoding, realistic(encoding, size, rng)));
        inputs.push((encoding, rng.bytes(size / 2)));
    }
    // ISO-2022-JP: escapes switching state often, long stretches in the
    // JIS X 0208 state across checkpoints.
    let mut iso = Vec::new();
    while iso.len() < size {
        iso.extend_from_slice(b"ascii \x1B$B");
        for _ in 0..rng.below(40_000) {
            iso.extend_from_slice(b"F|K\\");
        }
        iso.extend_from_slice(b"\x1B(J\\~\x1B(I1\x1B$@\x1B(B\n\x1B$B\x1B(B");
        if rng.below(3) == 0 {
            iso.push(0x1B);
        }
    }
    inputs.push((ISO_2022_JP, iso));
    // UTF-16: surrogate pairs (and now and then a lone surrogate) over
    // the checkpoints, in both byte orders, evenly and oddly aligned.
    for shift in 0..2 {
        let mut le = vec![b'x'; shift];
        let mut be = le.clone();
        while le.len() < size {
            let unit_pair: &[u16] = match rng.below(8) {
                0 => &[0x61],
                1 => &[0x0A],
                2 => &[0xD800],
                _ => &[0xD83D, 0xDE00],
            };
            for unit in unit_pair {
                le.extend(unit.to_le_bytes());
                be.extend(unit.to_be_bytes());
            }
        }
        inputs.push((UTF_16LE, le));
        inputs.push((UTF_16BE, be));
    }
    // gb18030: four-byte sequences over every checkpoint, at every offset.
    for shift in 0..10 {
        let mut gb = vec![b'a'; shift];
        while gb.len() < size {
            gb.extend_from_slice(b"\x81\x30\x81\x30\x84\x31\xA4\x39\xC4\xE3");
        }
        inputs.push((GB18030, gb));
    }
    inputs
}

pub(crate) fn whole_trace(bytes: &[u8], encoding: &'static Encoding, bom: BomHandling) -> Trace {
    let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, bom);
    let mut trace = Trace::new();
    let _ = decoder.decode(bytes, true, &mut trace);
    trace
}

pub(crate) fn never() -> AtomicBool {
    AtomicBool::new(false)
}

pub(crate) fn analysed(
    bytes: &[u8],
    encoding: &'static Encoding,
    bom: BomHandling,
) -> EncodingAnalysis {
    analyse(bytes, encoding, bom, &never(), &mut |_| {}).unwrap()
}
