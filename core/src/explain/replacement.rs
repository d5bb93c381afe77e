//! The [replacement decoder](https://encoding.spec.whatwg.org/#replacement-decoder),
//! narrated.

use super::{Narrate, Narration};
use crate::codec::replacement::ReplacementDecoder;
use crate::decoder::Step as HandlerStep;
use crate::explain::step::{StepKind, Value, Variable};
use crate::provenance::{DecodeErrorKind, SkipReason, TraceKind};

pub(super) const ANCHOR: &str = "replacement-decoder";

impl Narrate for ReplacementDecoder {
    const ANCHOR: &'static str = ANCHOR;

    fn narrate(&self, _byte: u8, out: &mut Narration) -> HandlerStep {
        out.push(
            if self.error_returned { "3" } else { "2" },
            StepKind::ReplacementErrorReturned {
                error_returned: self.error_returned,
            },
        );
        if !self.error_returned {
            return out.error("2", DecodeErrorKind::ReplacementEncoding, 0);
        }
        out.push("3", StepKind::Return(TraceKind::Skip(SkipReason::Unread)));
        HandlerStep::Skip(SkipReason::Unread)
    }

    fn narrate_end(&self, _out: &mut Narration) -> HandlerStep {
        HandlerStep::Finished
    }

    fn variables(&self) -> Vec<Variable> {
        vec![Variable::new(
            "replacement error returned",
            Value::Flag(self.error_returned),
        )]
    }
}

#[cfg(test)]
mod tests {
    use crate::REPLACEMENT;
    use crate::explain::{explained, item};

    #[test]
    fn one_error_then_nothing_is_read() {
        assert_eq!(
            explained(REPLACEMENT, b"ab"),
            [
                item(&[
                    "61 (bytes 0..1) → error: the replacement encoding decodes any input as an error (U+FFFD in replacement mode)",
                    "  [2] replacement error returned is false: set it to true; the whole input becomes this one error",
                    "  [2] return error (the replacement encoding decodes any input as an error)",
                ]),
                item(&[
                    "62 (bytes 1..2) → nothing (not read (the replacement decoder stops at its error))",
                    "  [3] replacement error returned is true: the decoder returns finished, and this byte is never read",
                    "  [3] return finished: nothing more is read",
                ]),
            ]
        );
        assert!(explained(REPLACEMENT, b"").is_empty());
    }
}
