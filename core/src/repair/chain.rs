//! The steps a repair undoes, "encode as X, then decode as Y", and chains of
//! up to three of them.
//!
//! Mojibake is made by decoding bytes with the wrong decoder: UTF-8 bytes read
//! as windows-1252 turn "é" (0xC3 0xA9) into "Ã©". Undoing that is one step:
//! encode the text as windows-1252 again to get the bytes back, then decode
//! them as UTF-8. Each step here does exactly that with the engine's encoders
//! and decoders in fatal mode, so a step that does not apply (a character the
//! encoder cannot encode, bytes that do not decode) fails instead of guessing.

use std::fmt;
use std::sync::OnceLock;

use super::dos::DosCodePage;
use crate::decoder::{BomHandling, DecodeErrorMode, Decoder, DecoderResult};
use crate::encoder::{EncodeErrorMode, Encoder, EncoderResult};
use crate::encoding::{
    BIG5, EUC_JP, EUC_KR, Encoding, GBK, IBM866, ISO_8859_2, KOI8_R, KOI8_U, MACINTOSH, SHIFT_JIS,
    UTF_8, WINDOWS_1250, WINDOWS_1251, WINDOWS_1252, WINDOWS_1253, WINDOWS_1254, WINDOWS_1255,
    WINDOWS_1256, WINDOWS_1257,
};

/// How a step turns text back into the bytes it was decoded from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncodeAs {
    /// With an encoding's encoder, in fatal mode.
    Encoding(&'static Encoding),
    /// "ISO-8859-1 as bytes": each code point up to U+00FF becomes the byte of
    /// the same value (Infra's isomorphic encode). This undoes decoders that
    /// keep 0x80 to 0x9F as the C1 controls U+0080 to U+009F, which
    /// windows-1252 (what the standard's "latin1" label means) does not.
    Isomorphic,
    /// With a DOS code page's table, which is not in the Encoding Standard
    /// and not in the engine ([`DosCodePage`]).
    DosCodePage(DosCodePage),
}

impl EncodeAs {
    /// The name used in explanations: the encoding's name, or "ISO-8859-1 (bytes as code points)".
    pub fn name(self) -> &'static str {
        match self {
            Self::Encoding(encoding) => encoding.name(),
            Self::Isomorphic => "ISO-8859-1 (bytes as code points)",
            Self::DosCodePage(page) => page.name(),
        }
    }

    /// Encodes `text`, or `None` if a character has no byte here.
    pub(crate) fn encode(self, text: &str) -> Option<Vec<u8>> {
        let mut bytes = Vec::with_capacity(text.len());
        self.encode_into(text, &mut bytes).then_some(bytes)
    }

    /// Encodes `text` into `bytes`, replacing what they held; false if a
    /// character has no byte here (what `bytes` then holds means nothing).
    pub(crate) fn encode_into(self, text: &str, bytes: &mut Vec<u8>) -> bool {
        bytes.clear();
        match self {
            Self::Encoding(encoding) => {
                let mut encoder = Encoder::new(encoding, EncodeErrorMode::Fatal);
                matches!(
                    encoder.encode(text, true, bytes).0,
                    EncoderResult::InputEmpty
                )
            }
            Self::Isomorphic => text.chars().all(|c| {
                u8::try_from(u32::from(c))
                    .map(|byte| bytes.push(byte))
                    .is_ok()
            }),
            Self::DosCodePage(page) => text
                .chars()
                .all(|c| page.encode_char(c).map(|byte| bytes.push(byte)).is_some()),
        }
    }

    /// Decodes one byte the way the wrong decoder did, or `None` where its
    /// decoder reports an error (an unassigned byte).
    pub(crate) fn decode_byte(self, byte: u8) -> Option<char> {
        match self {
            Self::Encoding(encoding) => {
                let (text, _) = encoding.decode_fatal(&[byte], BomHandling::None).ok()?;
                text.chars().next()
            }
            Self::Isomorphic => Some(char::from(byte)),
            Self::DosCodePage(page) => Some(page.decode_byte(byte)),
        }
    }

    /// The bytes that real-world decoders for this encoding are likely to have
    /// lost: those the standard's decoder cannot decode, and those it decodes
    /// to the C1 control of the same value, which the vendors' own tables
    /// leave undefined (windows-1252's 0x81, 0x8D, 0x8F, 0x90, 0x9D). Lost
    /// bytes were dropped, or replaced by "?" or U+FFFD.
    pub(crate) fn lost_bytes(self) -> LostBytes {
        // Asked once per line and per suspect word: the wrong decoders' sets
        // are worked out once.
        static MISREADS: OnceLock<[LostBytes; UTF8_MISREADS.len()]> = OnceLock::new();
        let known = MISREADS.get_or_init(|| UTF8_MISREADS.map(Self::compute_lost_bytes));
        match UTF8_MISREADS
            .iter()
            .position(|&encode_as| encode_as == self)
        {
            Some(index) => known[index],
            None => self.compute_lost_bytes(),
        }
    }

    fn compute_lost_bytes(self) -> LostBytes {
        let mut lost = LostBytes::default();
        // ISO-8859-2's decoders keep its C1 controls, as the standard's
        // does: its mojibake holds them, and guessing dropped ones, with
        // ISO-8859-1's reading doing so for Latin-1 already, would search
        // most Central European words twice over.
        if self == Self::Encoding(ISO_8859_2) {
            return lost;
        }
        for byte in 0x80..=0xFF_u8 {
            let is_lost = match self.decode_byte(byte) {
                None => true,
                Some(c) => u32::from(c) == u32::from(byte) && byte < 0xA0,
            };
            if is_lost {
                lost.insert(byte);
            }
        }
        lost
    }
}

impl fmt::Display for EncodeAs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of byte values 0x80 to 0xFF.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct LostBytes(u128);

impl LostBytes {
    pub(crate) fn insert(&mut self, byte: u8) {
        if byte >= 0x80 {
            self.0 |= 1 << (byte - 0x80);
        }
    }

    pub(crate) fn contains(self, byte: u8) -> bool {
        byte >= 0x80 && self.0 & (1 << (byte - 0x80)) != 0
    }

    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub(crate) fn iter(self) -> impl Iterator<Item = u8> {
        (0x80..=0xFF_u8).filter(move |&byte| self.contains(byte))
    }
}

/// One step of a repair: encode the text as `encode_as`, then decode the
/// bytes as `decode_as`. It undoes one wrong decode: bytes in `decode_as`
/// that were read as `encode_as`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// How the text is turned back into bytes (the wrong decoder's encoding).
    pub encode_as: EncodeAs,
    /// The decoder the bytes were meant for.
    pub decode_as: &'static Encoding,
}

impl Step {
    /// Applies the step to `text` in fatal mode: `None` if a character cannot
    /// be encoded or the bytes do not decode, which means the step does not
    /// apply.
    pub fn apply(self, text: &str) -> Option<String> {
        let bytes = self.encode_as.encode(text)?;
        self.decode(&bytes)
    }

    /// Decodes bytes as `decode_as` in fatal mode, with no BOM handling.
    pub(crate) fn decode(self, bytes: &[u8]) -> Option<String> {
        let mut text = String::with_capacity(bytes.len());
        self.decode_into(bytes, &mut text).then_some(text)
    }

    /// [`Step::decode`] into `text`, replacing what it held; false if the
    /// bytes do not decode (what `text` then holds means nothing). A search
    /// decodes many bytes that do not: they cost no allocation this way.
    ///
    /// A UTF-8 decode also joins surrogate pairs that were encoded one
    /// surrogate at a time (CESU-8, Java's "modified UTF-8": ED A0 BD ED
    /// B8 8D for U+1F60D), which the standard's decoder rejects: emoji
    /// stored that way and then misread are common mojibake.
    pub(crate) fn decode_into(self, bytes: &[u8], text: &mut String) -> bool {
        text.clear();
        let mut decoder = Decoder::new(self.decode_as, DecodeErrorMode::Fatal, BomHandling::None);
        let decoded = matches!(
            decoder.decode(bytes, true, text).0,
            DecoderResult::InputEmpty
        );
        if decoded || self.decode_as != UTF_8 || !bytes.contains(&0xED) {
            return decoded;
        }
        decode_cesu8_into(bytes, text)
    }

    /// Whether this step undoes "UTF-8 read as something else".
    pub fn decodes_utf8(self) -> bool {
        self.decode_as == UTF_8
    }

    /// Whether this step undoes a single-byte text read as ISO-8859-1 with
    /// its C1 controls kept: the controls are decoded as the bytes they
    /// were (windows-1252's "”" for U+0094).
    pub fn undoes_c1(self) -> bool {
        self.encode_as == EncodeAs::Isomorphic
            && (self.decode_as == WINDOWS_1252 || self.decode_as == MACINTOSH)
    }
}

/// Decodes UTF-8 in which supplementary characters may be surrogate pairs
/// encoded one surrogate at a time (CESU-8); false if the bytes are neither.
/// A lone surrogate, or a surrogate pair of a real supplementary
/// character's bytes, does not decode.
fn decode_cesu8_into(bytes: &[u8], text: &mut String) -> bool {
    text.clear();
    let mut rest = bytes;
    while !rest.is_empty() {
        match rest {
            [
                0xED,
                high @ 0xA0..=0xAF,
                b2,
                0xED,
                low @ 0xB0..=0xBF,
                b5,
                tail @ ..,
            ] if (0x80..=0xBF).contains(b2) && (0x80..=0xBF).contains(b5) => {
                let high = 0xD800 | (u32::from(high & 0x0F) << 6) | u32::from(b2 & 0x3F);
                let low = 0xDC00 | (u32::from(low & 0x0F) << 6) | u32::from(b5 & 0x3F);
                let scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                let Some(c) = char::from_u32(scalar) else {
                    return false;
                };
                text.push(c);
                rest = tail;
            }
            _ => {
                // The valid UTF-8 up to the next ED byte that starts a pair.
                let next = rest
                    .iter()
                    .skip(1)
                    .position(|&byte| byte == 0xED)
                    .map_or(rest.len(), |offset| offset + 1);
                let (valid, tail) = rest.split_at(next);
                match std::str::from_utf8(valid) {
                    Ok(valid) => text.push_str(valid),
                    Err(_) => return false,
                }
                rest = tail;
            }
        }
    }
    true
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "encoded as {}, decoded as {}",
            self.encode_as, self.decode_as
        )
    }
}

/// The wrong decoders UTF-8 is undone from, most common first. The order
/// settles ties: when two steps give the same text, the first is reported.
pub(crate) const UTF8_MISREADS: [EncodeAs; 15] = [
    EncodeAs::Encoding(WINDOWS_1252),
    EncodeAs::Isomorphic,
    EncodeAs::Encoding(WINDOWS_1251),
    EncodeAs::Encoding(WINDOWS_1250),
    EncodeAs::Encoding(ISO_8859_2),
    EncodeAs::Encoding(MACINTOSH),
    EncodeAs::Encoding(KOI8_R),
    EncodeAs::Encoding(IBM866),
    EncodeAs::Encoding(WINDOWS_1253),
    EncodeAs::Encoding(WINDOWS_1254),
    EncodeAs::Encoding(WINDOWS_1257),
    EncodeAs::Encoding(KOI8_U),
    EncodeAs::Encoding(WINDOWS_1256),
    EncodeAs::DosCodePage(DosCodePage::Cp437),
    EncodeAs::DosCodePage(DosCodePage::Cp850),
];

/// The legacy encodings whose text is undone from windows-1252 (or
/// ISO-8859-1 as bytes): text in these encodings read as windows-1252 and
/// saved as UTF-8. GBK stands for gb18030 too: the standard gives both the
/// same decoder.
pub(crate) const LEGACY_SOURCES: [&Encoding; 8] = [
    SHIFT_JIS,
    EUC_JP,
    GBK,
    BIG5,
    EUC_KR,
    WINDOWS_1251,
    WINDOWS_1250,
    WINDOWS_1255,
];

/// The legacy encodings whose text is undone from the wrong decoder
/// `encode_as`: for windows-1252 (or ISO-8859-1 as bytes) those of
/// [`LEGACY_SOURCES`]; for windows-1254, Chinese, Korean and Japanese text
/// (a reader that guessed Turkish); for IBM866 and windows-1251, each
/// other (the Cyrillic pages of DOS and Windows read as each other).
pub(crate) fn legacy_sources(encode_as: EncodeAs) -> &'static [&'static Encoding] {
    static FROM_1254: [&Encoding; 3] = [GBK, EUC_KR, SHIFT_JIS];
    static FROM_866: [&Encoding; 1] = [WINDOWS_1251];
    static FROM_1251: [&Encoding; 1] = [IBM866];
    match encode_as {
        EncodeAs::Encoding(encoding) if encoding == WINDOWS_1252 => &LEGACY_SOURCES,
        EncodeAs::Isomorphic => &LEGACY_SOURCES,
        EncodeAs::Encoding(encoding) if encoding == WINDOWS_1254 => &FROM_1254,
        EncodeAs::Encoding(encoding) if encoding == IBM866 => &FROM_866,
        EncodeAs::Encoding(encoding) if encoding == WINDOWS_1251 => &FROM_1251,
        _ => &[],
    }
}

/// The most steps a chain has: text misread again and again ("UTF-8 read
/// as windows-1252, 6 times") is real.
pub const MAX_STEPS: usize = 6;

/// A chain mixes at most this many different steps, each repeated as often
/// as [`MAX_STEPS`] allows ("windows-1252 read as ISO-8859-1, then UTF-8
/// read as windows-1252, 5 times"), and a search goes past this many steps
/// only by repeating the last: real mojibake mixes few wrong decoders, and
/// every step more multiplies the chains.
pub const MAX_MIXED_STEPS: usize = 3;

/// The steps a repair applied, in the order it applied them: the first undoes
/// the last wrong decode.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chain {
    /// Runs of one step, in order, each with how many times it repeats
    /// (consecutive equal steps are always one run).
    runs: [Option<Step>; MAX_MIXED_STEPS],
    repeats: [u8; MAX_MIXED_STEPS],
}

impl Chain {
    /// The empty chain (nothing undone).
    pub const EMPTY: Self = Self {
        runs: [None; MAX_MIXED_STEPS],
        repeats: [0; MAX_MIXED_STEPS],
    };

    /// A chain of these steps, or `None` if there are more than
    /// [`MAX_STEPS`], or more than [`MAX_MIXED_STEPS`] runs of one step.
    pub fn new(steps: &[Step]) -> Option<Self> {
        let mut chain = Self::EMPTY;
        for &step in steps {
            chain = chain.then(step)?;
        }
        Some(chain)
    }

    /// This chain followed by `step`, or `None` if it is full.
    pub fn then(mut self, step: Step) -> Option<Self> {
        if self.len() >= MAX_STEPS {
            return None;
        }
        let used = self
            .runs
            .iter()
            .position(Option::is_none)
            .unwrap_or(MAX_MIXED_STEPS);
        if used > 0 && self.runs[used - 1] == Some(step) {
            self.repeats[used - 1] += 1;
            return Some(self);
        }
        *self.runs.get_mut(used)? = Some(step);
        self.repeats[used] = 1;
        Some(self)
    }

    /// The steps in the order they are applied.
    pub fn steps(&self) -> impl Iterator<Item = Step> + '_ {
        self.runs
            .iter()
            .zip(self.repeats)
            .map_while(|(step, repeats)| step.map(|step| (step, usize::from(repeats))))
            .flat_map(|(step, repeats)| std::iter::repeat_n(step, repeats))
    }

    /// How many steps.
    pub fn len(&self) -> usize {
        self.repeats
            .iter()
            .map(|&repeats| usize::from(repeats))
            .sum()
    }

    /// Whether there is no step.
    pub fn is_empty(&self) -> bool {
        self.runs[0].is_none()
    }

    /// Whether this chain is `other` followed by one step or more.
    pub(crate) fn extends(&self, other: &Self) -> bool {
        self.len() > other.len() && self.steps().zip(other.steps()).all(|(a, b)| a == b)
    }

    /// The last step, if any.
    pub fn last(&self) -> Option<Step> {
        self.runs.iter().rev().find_map(|step| *step)
    }

    /// How unlikely the damage this chain undoes is before looking at the
    /// text, in the units of the plausibility cost: UTF-8 read as
    /// windows-1252 is the most common mojibake, legacy text read as
    /// windows-1252 much rarer, and each further layer rarer still. Among
    /// readings that fit equally well, the likelier damage wins.
    pub(crate) fn prior_cost(&self) -> f32 {
        // A further layer costs a little; the same wrong decode again costs
        // nothing more than that (runs are never next to an equal run).
        let layers = self.len().saturating_sub(1);
        let mut cost = 0.5 * f32::from(u8::try_from(layers).unwrap_or(u8::MAX));
        for step in self.runs.iter().map_while(|step| *step) {
            cost += if step.undoes_c1() {
                // C1 controls are almost never meant.
                if step.decode_as == WINDOWS_1252 {
                    0.3
                } else {
                    1.0
                }
            } else if step.decodes_utf8() {
                match step.encode_as {
                    EncodeAs::Isomorphic => 0.3,
                    EncodeAs::DosCodePage(_) => 1.0,
                    EncodeAs::Encoding(encoding) => {
                        if encoding == WINDOWS_1252 {
                            0.0
                        } else if encoding == WINDOWS_1251 {
                            0.3
                        } else if encoding == WINDOWS_1250 || encoding == KOI8_R {
                            0.6
                        } else if encoding == ISO_8859_2 {
                            // It reads most bytes as windows-1250 does, and
                            // where the two make different letters of a
                            // word ("Ăą": "ù" or "ñ") the more common
                            // windows-1250 wins by a margin. Words that hold
                            // C1 controls only it explains.
                            1.7
                        } else {
                            1.0
                        }
                    }
                }
            } else {
                2.0
            };
        }
        cost
    }

    /// Applies every step in fatal mode; `None` if one does not apply.
    pub fn apply(&self, text: &str) -> Option<String> {
        let mut text = text.to_owned();
        for step in self.steps() {
            text = step.apply(&text)?;
        }
        Some(text)
    }

    /// How the damage happened, in the order it happened, e.g. "Shift_JIS
    /// read as windows-1252, then UTF-8 read as windows-1252".
    pub fn damage(&self) -> String {
        let steps: Vec<Step> = self.steps().collect();
        let mut parts: Vec<String> = Vec::new();
        for step in steps.iter().rev() {
            parts.push(format!("{} read as {}", step.decode_as, step.encode_as));
        }
        parts.join(", then ")
    }

    /// The chain as a user tells chains apart ([`ChainFamily`]).
    pub fn family(&self) -> ChainFamily {
        // Written as windows-1252, neighbouring steps may become one run.
        let mut family = Self::EMPTY;
        for mut step in self.steps() {
            if step.encode_as == EncodeAs::Isomorphic && !step.undoes_c1() {
                step.encode_as = EncodeAs::Encoding(WINDOWS_1252);
            }
            family = family.then(step).unwrap_or(family);
        }
        ChainFamily { chain: family }
    }

    /// The name a user is shown for the chain: its [`ChainFamily`]'s, e.g.
    /// "UTF-8 read as windows-1252, twice".
    pub fn display_name(&self) -> String {
        self.family().to_string()
    }
}

/// Chains that mean the same to a user, shown as one. Undoing windows-1252
/// and undoing ISO-8859-1 taken byte for code point give the same text but
/// where the damaged text has C1 controls, which nobody sees: to a user
/// both are "UTF-8 read as windows-1252" (the label "iso-8859-1" means
/// windows-1252 in the Encoding Standard too). The chains themselves stay
/// exact ([`Change::chain`](super::Change::chain)); the family is what a
/// user interface groups and names.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChainFamily {
    /// The chain with every ISO-8859-1 step written as windows-1252.
    chain: Chain,
}

impl ChainFamily {
    /// Whether `chain` is of this family.
    pub fn contains(&self, chain: &Chain) -> bool {
        chain.family() == *self
    }
}

impl fmt::Display for ChainFamily {
    /// How the damage happened, in the order it happened, repeats folded:
    /// "UTF-8 read as windows-1252, twice", "Shift_JIS read as
    /// windows-1252, then UTF-8 read as windows-1252".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let steps: Vec<Step> = self.chain.steps().collect();
        if steps.is_empty() {
            return f.write_str("nothing");
        }
        let mut index = steps.len();
        let mut first = true;
        while index > 0 {
            let step = steps[index - 1];
            let repeats = steps[..index]
                .iter()
                .rev()
                .take_while(|&&s| s == step)
                .count();
            if !first {
                f.write_str(", then ")?;
            }
            first = false;
            write!(f, "{} read as {}", step.decode_as, step.encode_as)?;
            match repeats {
                1 => {}
                2 => f.write_str(", twice")?,
                n => write!(f, ", {n} times")?,
            }
            index -= repeats;
        }
        Ok(())
    }
}

impl fmt::Debug for ChainFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ChainFamily({self})")
    }
}

impl fmt::Display for Chain {
    /// The steps as applied, repeats folded: "encoded as windows-1252,
    /// decoded as UTF-8, twice".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let steps: Vec<Step> = self.steps().collect();
        if steps.is_empty() {
            return f.write_str("nothing");
        }
        let mut index = 0;
        let mut first = true;
        while let Some(&step) = steps.get(index) {
            let repeats = steps[index..].iter().take_while(|&&s| s == step).count();
            if !first {
                f.write_str("; then ")?;
            }
            first = false;
            write!(f, "{step}")?;
            match repeats {
                1 => {}
                2 => f.write_str(", twice")?,
                n => write!(f, ", {n} times")?,
            }
            index += repeats;
        }
        Ok(())
    }
}

impl fmt::Debug for Chain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Chain({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf8_from(encoding: &'static Encoding) -> Step {
        Step {
            encode_as: EncodeAs::Encoding(encoding),
            decode_as: UTF_8,
        }
    }

    #[test]
    fn a_step_undoes_one_wrong_decode() {
        assert_eq!(utf8_from(WINDOWS_1252).apply("Ã©tÃ©").unwrap(), "été");
        assert_eq!(
            utf8_from(WINDOWS_1251).apply("РњРѕСЃРєРІР°").unwrap(),
            "Москва"
        );
        let shift_jis = Step {
            encode_as: EncodeAs::Encoding(WINDOWS_1252),
            decode_as: SHIFT_JIS,
        };
        assert_eq!(shift_jis.apply("–¾“ú‚Ì’©").unwrap(), "明日の朝");
        // Fatal mode: "é" alone is not UTF-8, and "→" has no windows-1252 byte.
        assert_eq!(utf8_from(WINDOWS_1252).apply("été"), None);
        assert_eq!(utf8_from(WINDOWS_1252).apply("Ã©→"), None);
    }

    #[test]
    fn isomorphic_keeps_c1_controls() {
        let step = Step {
            encode_as: EncodeAs::Isomorphic,
            decode_as: UTF_8,
        };
        // "Á" is 0xC3 0x81: windows-1252 has no 0x81, ISO-8859-1 keeps U+0081.
        assert_eq!(step.apply("Ã\u{81}").unwrap(), "Á");
        assert_eq!(step.apply("€"), None);
    }

    #[test]
    fn lost_bytes_are_the_vendors_gaps() {
        let lost: Vec<u8> = EncodeAs::Encoding(WINDOWS_1252)
            .lost_bytes()
            .iter()
            .collect();
        assert_eq!(lost, [0x81, 0x8D, 0x8F, 0x90, 0x9D]);
        let lost: Vec<u8> = EncodeAs::Encoding(WINDOWS_1257)
            .lost_bytes()
            .iter()
            .collect();
        assert!(lost.contains(&0xA1) && lost.contains(&0xA5), "{lost:x?}");
        assert_eq!(EncodeAs::Isomorphic.lost_bytes().iter().count(), 32);
        assert!(EncodeAs::Encoding(KOI8_R).lost_bytes().is_empty());
        // ISO-8859-2's decoders keep the C1 controls.
        assert!(EncodeAs::Encoding(ISO_8859_2).lost_bytes().is_empty());
    }

    #[test]
    fn chains_explain_themselves() {
        let step = utf8_from(WINDOWS_1252);
        let chain = Chain::new(&[step, step]).unwrap();
        assert_eq!(
            chain.to_string(),
            "encoded as windows-1252, decoded as UTF-8, twice"
        );
        assert_eq!(chain.apply("ÃƒÂ©").unwrap(), "é");
        let legacy = Step {
            encode_as: EncodeAs::Encoding(WINDOWS_1252),
            decode_as: SHIFT_JIS,
        };
        let chain = Chain::new(&[step, legacy]).unwrap();
        assert_eq!(
            chain.to_string(),
            "encoded as windows-1252, decoded as UTF-8; then encoded as windows-1252, decoded as Shift_JIS"
        );
        assert_eq!(
            chain.damage(),
            "Shift_JIS read as windows-1252, then UTF-8 read as windows-1252"
        );
        assert!(Chain::new(&[step; MAX_STEPS + 1]).is_none());
        assert_eq!(Chain::EMPTY.to_string(), "nothing");
    }

    #[test]
    fn chains_repeat_steps_and_mix_a_few() {
        let windows = utf8_from(WINDOWS_1252);
        let cyrillic = utf8_from(WINDOWS_1251);
        let greek = utf8_from(WINDOWS_1253);
        let chain = Chain::new(&[windows; MAX_STEPS]).unwrap();
        assert_eq!(chain.len(), MAX_STEPS);
        assert_eq!(chain.steps().count(), MAX_STEPS);
        assert_eq!(
            chain.to_string(),
            "encoded as windows-1252, decoded as UTF-8, 6 times"
        );
        let mixed = Chain::new(&[windows, windows, cyrillic, greek, greek]).unwrap();
        assert_eq!(mixed.len(), 5);
        assert_eq!(mixed.last(), Some(greek));
        assert!(mixed.extends(&Chain::new(&[windows, windows, cyrillic]).unwrap()));
        assert!(!mixed.extends(&Chain::new(&[windows, cyrillic]).unwrap()));
        assert!(Chain::new(&[windows, cyrillic, greek, windows]).is_none());
        // A chain through ISO-8859-1 and windows-1252 in turn is one run to
        // a user.
        let bytes = Step {
            encode_as: EncodeAs::Isomorphic,
            decode_as: UTF_8,
        };
        let turns = Chain::new(&[windows, bytes, windows]).unwrap();
        assert_eq!(turns.family(), Chain::new(&[windows; 3]).unwrap().family());
        assert_eq!(turns.display_name(), "UTF-8 read as windows-1252, 3 times");
    }

    #[test]
    fn issue_17_windows_1252_and_iso_8859_1_are_one_family() {
        let windows = utf8_from(WINDOWS_1252);
        let bytes = Step {
            encode_as: EncodeAs::Isomorphic,
            decode_as: UTF_8,
        };
        let one = Chain::new(&[windows]).unwrap();
        let other = Chain::new(&[bytes]).unwrap();
        assert_ne!(one, other);
        assert_eq!(one.family(), other.family());
        assert!(one.family().contains(&other));
        assert_eq!(other.display_name(), "UTF-8 read as windows-1252");
        let twice = Chain::new(&[windows, bytes]).unwrap();
        assert_eq!(twice.display_name(), "UTF-8 read as windows-1252, twice");
        let legacy = Step {
            encode_as: EncodeAs::Encoding(WINDOWS_1252),
            decode_as: SHIFT_JIS,
        };
        let mixed = Chain::new(&[windows, legacy]).unwrap();
        assert_eq!(
            mixed.display_name(),
            "Shift_JIS read as windows-1252, then UTF-8 read as windows-1252"
        );
        assert_ne!(mixed.family(), one.family());
    }
}
