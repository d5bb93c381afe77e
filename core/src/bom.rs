//! The standard's "BOM sniff".

use crate::encoding::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

/// The byte order marks the standard knows, in the order it checks them.
const BOMS: [(&[u8], &Encoding); 3] = [
    (&[0xEF, 0xBB, 0xBF], UTF_8),
    (&[0xFE, 0xFF], UTF_16BE),
    (&[0xFF, 0xFE], UTF_16LE),
];

/// The standard's [BOM sniff](https://encoding.spec.whatwg.org/#bom-sniff):
/// the encoding whose byte order mark `bytes` starts with, or `None`.
///
/// ```
/// use mojiscope_core::{bom_sniff, UTF_16LE};
/// assert_eq!(bom_sniff(b"\xFF\xFEa\0"), Some(UTF_16LE));
/// assert_eq!(bom_sniff(b"\xEF\xBB"), None);
/// ```
pub fn bom_sniff(bytes: &[u8]) -> Option<&'static Encoding> {
    // Step 1: peek three bytes. Step 2: the first row that matches wins.
    let peeked = &bytes[..bytes.len().min(3)];
    BOMS.iter()
        .find(|(bom, _)| peeked.starts_with(bom))
        .map(|&(_, encoding)| encoding)
}

/// The length of `encoding`'s byte order mark (0 when it has none).
pub(crate) fn bom_length(encoding: &Encoding) -> usize {
    BOMS.iter()
        .find(|(_, candidate)| *candidate == encoding)
        .map_or(0, |(bom, _)| bom.len())
}

/// Whether `seen` could still grow into a byte order mark: it is a proper
/// prefix of one, so a stream must wait for more bytes before deciding.
pub(crate) fn is_strict_prefix(seen: &[u8]) -> bool {
    BOMS.iter()
        .any(|(bom, _)| seen.len() < bom.len() && bom.starts_with(seen))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_each_bom_and_nothing_else() {
        assert_eq!(bom_sniff(b"\xEF\xBB\xBFx"), Some(UTF_8));
        assert_eq!(bom_sniff(b"\xFE\xFF"), Some(UTF_16BE));
        assert_eq!(bom_sniff(b"\xFF\xFE\x00"), Some(UTF_16LE));
        assert_eq!(bom_sniff(b"\xEF\xBB"), None);
        assert_eq!(bom_sniff(b""), None);
        assert_eq!(bom_sniff(b"\xFE"), None);
    }

    #[test]
    fn strict_prefixes() {
        assert!(is_strict_prefix(b""));
        assert!(is_strict_prefix(b"\xEF\xBB"));
        assert!(is_strict_prefix(b"\xFF"));
        assert!(!is_strict_prefix(b"\xFF\xFE"));
        assert!(!is_strict_prefix(b"\xEF\xBB\xBF"));
        assert!(!is_strict_prefix(b"a"));
    }
}
