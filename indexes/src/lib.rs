//! The [WHATWG Encoding Standard](https://encoding.spec.whatwg.org/)'s data as
//! Rust tables: every encoding with its labels, and every index with lookups
//! in both directions that follow the standard's definitions exactly.
//!
//! This crate holds data and lookups only; the decoders and encoders live in
//! `mojiscope-core`.
//!
//! | Standard | Here |
//! |---|---|
//! | encodings and labels (`encodings.json`) | [`ENCODINGS`], [`LABELS`] |
//! | [index code point](https://encoding.spec.whatwg.org/#index-code-point) | `code_point` in each index module |
//! | [index pointer](https://encoding.spec.whatwg.org/#index-pointer) | [`SingleByteIndex::pointer`](single_byte::SingleByteIndex::pointer), [`jis0208::pointer`], [`euc_kr::pointer`], [`gb18030::pointer`] |
//! | [index single-byte](https://encoding.spec.whatwg.org/#legacy-single-byte-encodings) | [`single_byte::for_encoding`] |
//! | [index `Shift_JIS` pointer](https://encoding.spec.whatwg.org/#index-shift_jis-pointer) | [`jis0208::shift_jis_pointer`] |
//! | [index Big5 pointer](https://encoding.spec.whatwg.org/#index-big5-pointer) | [`big5::big5_pointer`] |
//! | [index gb18030 ranges code point](https://encoding.spec.whatwg.org/#index-gb18030-ranges-code-point) | [`gb18030_ranges::code_point`] |
//! | [index gb18030 ranges pointer](https://encoding.spec.whatwg.org/#index-gb18030-ranges-pointer) | [`gb18030_ranges::pointer`] |
//!
//! Lookups never panic: pointers past an index's end give `None`. Code point
//! to pointer lookups are a table load or two (reverse tables are built at
//! compile time from the forward tables), except the gb18030 ranges, which
//! binary-search 207 ranges.
//!
//! ```
//! use mojiscope_indexes::{ENCODINGS, LABELS, jis0208};
//!
//! let found = LABELS.binary_search_by(|(label, _)| label.as_bytes().cmp(b"sjis"));
//! let (_, position) = LABELS[found.unwrap()];
//! assert_eq!(ENCODINGS[usize::from(position)].name, "Shift_JIS");
//! assert_eq!(jis0208::code_point(0), Some('\u{3000}'));
//! assert_eq!(jis0208::shift_jis_pointer('\u{3000}'), Some(0));
//! ```
//!
//! # Source and licence of the data
//!
//! The tables in `src/generated/` are generated from the WHATWG Encoding
//! Standard (`encodings.json` and `index-*.txt`) at commit [`SPEC_COMMIT`] of
//! [`SPEC_DATE`]; see `indexes/SOURCE.md`. That data is © WHATWG (Apple,
//! Google, Mozilla, Microsoft), licensed under
//! [CC BY 4.0](https://creativecommons.org/licenses/by/4.0/).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[rustfmt::skip]
mod generated;
mod reverse;
#[cfg(test)]
mod testing;

#[doc(hidden)]
pub mod generate;

pub mod big5;
pub mod euc_kr;
pub mod gb18030;
pub mod gb18030_ranges;
pub mod iso_2022_jp_katakana;
pub mod jis0208;
pub mod jis0212;
pub mod language;
pub mod single_byte;

pub use generated::encodings::{ENCODINGS, LABELS};
pub use generated::{SPEC_COMMIT, SPEC_DATE};

/// An encoding of the standard: its name, its labels and the heading of the
/// standard's section that defines it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EncodingEntry {
    /// The encoding's name, e.g. `"windows-1252"`, `"Shift_JIS"`.
    pub name: &'static str,
    /// Its labels, lowercase ASCII, in the standard's order.
    pub labels: &'static [&'static str],
    /// The section heading, e.g. "Legacy single-byte encodings".
    pub heading: &'static str,
}

#[cfg(test)]
mod tests {
    use super::{ENCODINGS, LABELS, SPEC_COMMIT, SPEC_DATE};

    #[test]
    fn encodings_and_labels() {
        assert_eq!(ENCODINGS.len(), 40);
        assert_eq!(ENCODINGS[0].name, "UTF-8");
        assert_eq!(ENCODINGS[0].heading, "The Encoding");
        assert_eq!(ENCODINGS[39].name, "x-user-defined");
        let label_count: usize = ENCODINGS.iter().map(|e| e.labels.len()).sum();
        assert_eq!(LABELS.len(), label_count);
        assert!(
            LABELS
                .windows(2)
                .all(|w| w[0].0.as_bytes() < w[1].0.as_bytes())
        );
        for (label, position) in LABELS {
            assert!(ENCODINGS[usize::from(position)].labels.contains(&label));
        }
        let find = |label: &str| {
            LABELS
                .binary_search_by(|(l, _)| l.as_bytes().cmp(label.as_bytes()))
                .ok()
                .map(|i| ENCODINGS[usize::from(LABELS[i].1)].name)
        };
        assert_eq!(find("latin1"), Some("windows-1252"));
        assert_eq!(find("iso-8859-1"), Some("windows-1252"));
        assert_eq!(find("csiso2022kr"), Some("replacement"));
        assert_eq!(find("utf8"), Some("UTF-8"));
        assert_eq!(find("Latin1"), None);
    }

    #[test]
    fn spec_version() {
        assert_eq!(SPEC_COMMIT.len(), 40);
        assert!(SPEC_COMMIT.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(SPEC_DATE.len(), 10);
    }
}
