//! [replacement](https://encoding.spec.whatwg.org/#replacement): decodes any
//! non-empty input as one error. It has no encoder.

use crate::decoder::{Handler, Step};
use crate::provenance::{DecodeErrorKind, SkipReason};

/// The [replacement decoder](https://encoding.spec.whatwg.org/#replacement-decoder).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ReplacementDecoder {
    pub(crate) error_returned: bool,
}

impl Handler for ReplacementDecoder {
    fn handle(&mut self, _byte: u8) -> Step {
        // Step 2.
        if !self.error_returned {
            self.error_returned = true;
            return Step::error(DecodeErrorKind::ReplacementEncoding);
        }
        // Step 3: the standard returns finished and never reads the rest.
        // Not in spec: so that every byte is accounted for, the bytes it
        // never reads are reported as skipped.
        Step::Skip(SkipReason::Unread)
    }

    fn handle_end(&mut self) -> Step {
        // Step 1.
        Step::Finished
    }

    fn is_ascii_ground(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use crate::REPLACEMENT;
    use crate::provenance::{DecodeErrorKind::*, SkipReason};
    use crate::testing::{Item::*, check_decode};

    #[test]
    fn one_error_then_nothing() {
        check_decode(REPLACEMENT, b"", &[]);
        check_decode(
            REPLACEMENT,
            b"abc",
            &[
                E(ReplacementEncoding, 1),
                K(SkipReason::Unread, 1),
                K(SkipReason::Unread, 1),
            ],
        );
    }
}
