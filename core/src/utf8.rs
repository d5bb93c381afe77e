//! Whether bytes are UTF-8: the standard library's scalar check at the
//! first bytes beyond ASCII, then simdutf8.
//!
//! simdutf8 picks its implementation by the processor's features the first
//! time it runs, and asking the processor costs about 30 µs in a virtual
//! machine (each CPUID instruction traps to the hypervisor): as long as
//! detecting the encoding of 64 KiB of Japanese text takes. Text in another
//! encoding is no UTF-8 within its first bytes beyond ASCII (a lone "é" of
//! windows-1252, two bytes of Shift_JIS), and the scalar check, which stops
//! at the first error, tells that alone: only text that may be UTF-8 pays
//! for the fast check.

use crate::decoder::ascii_prefix_len;

/// How many bytes from the first byte beyond ASCII the scalar check reads.
const HEAD: usize = 64;

/// How far [`validate`] looks for a first byte beyond ASCII: a decoder
/// validates UTF-8 in pieces of tens of KiB, and reading all of a piece's
/// ASCII once more before simdutf8 reads it would cost as much as
/// validating it (the lines detection decodes are shorter).
const REACH: usize = 256;

/// `bytes` as text if they are valid UTF-8; else how many bytes from the
/// start are (what `Utf8Error::valid_up_to` tells).
pub(crate) fn validate(bytes: &[u8]) -> Result<&str, usize> {
    let ascii = ascii_prefix_len(&bytes[..bytes.len().min(REACH)]);
    if ascii < bytes.len().min(REACH)
        && let Some(valid) = head_error(&bytes[ascii..])
    {
        return Err(ascii + valid);
    }
    simdutf8::compat::from_utf8(bytes).map_err(|error| error.valid_up_to())
}

/// Whether `bytes` are valid UTF-8 (each window of a file detection
/// samples: its ASCII is read once, however long).
pub(crate) fn is_valid(bytes: &[u8]) -> bool {
    // What follows ASCII starts a character: it is checked alone.
    let rest = &bytes[ascii_prefix_len(bytes)..];
    if rest.len() <= HEAD {
        return std::str::from_utf8(rest).is_ok();
    }
    head_error(rest).is_none() && simdutf8::basic::from_utf8(rest).is_ok()
}

/// How many of the first [`HEAD`] bytes of `bytes` are valid UTF-8, if an
/// error follows them within those bytes (not a sequence their end cuts).
fn head_error(bytes: &[u8]) -> Option<usize> {
    match std::str::from_utf8(&bytes[..bytes.len().min(HEAD)]) {
        Err(error) if error.error_len().is_some() => Some(error.valid_up_to()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_what_the_standard_library_tells_of_every_cut_and_error() {
        let mut cases: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"plain ASCII".to_vec(),
            "caf\u{E9} cr\u{E8}me".as_bytes().to_vec(),
            b"caf\xE9 cr\xE8me".to_vec(),
            // Shift_JIS: "日本語".
            b"\x93\xFA\x96\x7B\x8C\xEA".to_vec(),
        ];
        // Every error and every cut sequence at every distance from the
        // first byte beyond ASCII, on either side of the head's end, with
        // the first byte beyond ASCII within reach and beyond it.
        let text = "Ж日本€😀".repeat(20);
        for ascii in [0, 7, REACH - 50, REACH + 3, 4096] {
            for at in 0..text.len() {
                let mut bytes = vec![b'a'; ascii];
                bytes.extend_from_slice(&text.as_bytes()[..at]);
                cases.push(bytes.clone());
                for bad in [0x80, 0xC0, 0xE3, 0xFF] {
                    let mut broken = bytes.clone();
                    broken.push(bad);
                    broken.extend_from_slice(b"tail");
                    cases.push(broken);
                }
            }
        }
        for bytes in &cases {
            let std = std::str::from_utf8(bytes).map_err(|error| error.valid_up_to());
            assert_eq!(validate(bytes), std, "{bytes:02X?}");
            assert_eq!(is_valid(bytes), std.is_ok(), "{bytes:02X?}");
        }
    }
}
