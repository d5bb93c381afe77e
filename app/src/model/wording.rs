//! The few words every front end says the same way: a count with its noun
//! ([`plural`]), and the reason an I/O error gives, to sit inside a
//! sentence of ours ([`reason`]).

use std::fmt;
use std::io;

/// "1 change", "3 changes", "0 bytes".
pub fn plural<N>(count: N, one: &str, many: &str) -> String
where
    N: Copy + fmt::Display + PartialEq + From<u8>,
{
    let noun = if count == N::from(1) { one } else { many };
    format!("{count} {noun}")
}

/// An I/O error's message without the " (os error N)" suffix and starting
/// lowercase, to sit inside a sentence.
pub fn reason(error: &io::Error) -> String {
    let mut message = error.to_string();
    if let Some(code) = error.raw_os_error() {
        let suffix = format!(" (os error {code})");
        if message.ends_with(&suffix) {
            message.truncate(message.len() - suffix.len());
        }
    }
    let mut chars = message.chars();
    if let (Some(first), Some(second)) = (chars.next(), chars.next())
        && first.is_ascii_uppercase()
        && second.is_ascii_lowercase()
    {
        message[..1].make_ascii_lowercase();
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_the_noun_they_need() {
        assert_eq!(plural(1_usize, "change", "changes"), "1 change");
        assert_eq!(plural(0_u64, "byte", "bytes"), "0 bytes");
        assert_eq!(plural(3_u64, "character", "characters"), "3 characters");
    }

    #[test]
    fn io_reasons_read_as_part_of_a_sentence() {
        let error = io::Error::from_raw_os_error(2);
        assert_eq!(reason(&error), "no such file or directory");
        assert_eq!(reason(&io::Error::other("UTF-8 trouble")), "UTF-8 trouble");
    }
}
