//! The Repair window's model: one pane's decode of the whole file repaired
//! in the background, every proposed change located in the file's bytes,
//! and the user's choice of which changes to accept.
//!
//! - [`run`]: the job's work, [`run::repair_file`]: decode the file with
//!   the pane's encoding and byte order mark handling, run `core::repair`
//!   over the text a piece of lines at a time on every core
//!   ([`run::repair_text`], which also reports progress and stops when
//!   cancelled), then locate the changes.
//! - [`locate`]: decode once more with a sink that finds the bytes each
//!   change came from and where decoding errors are.
//! - [`review`]: the result, a [`RepairOutcome`], under review
//!   ([`review::Review`]): the decoded text, never modified, and the set of
//!   accepted changes, which is all the state there is, so every choice can
//!   be undone until the text is saved.
//! - [`task`]: the repair the window is about, from its start to its
//!   review ([`task::RepairTask`]).
//! - [`diff`]: which characters a change changed, and the lines around it,
//!   for showing it.

pub mod diff;
pub mod locate;
pub mod manual;
pub mod review;
pub mod run;
pub mod task;
#[cfg(test)]
mod testing;

use std::fmt;

use mojiscope_core::repair::{Change, NotText};
use mojiscope_core::{BomHandling, ByteSpan, Encoding};
use thiserror::Error;

/// The most text a repair holds in memory: the decode, and the accepted
/// text when it is made, are each at most this large.
pub const MAX_TEXT_BYTES: usize = 256 * 1024 * 1024;

/// Bytes decoded, or bytes of text repaired, between two looks at the
/// cancel flag (and two progress reports).
const WORK_CHUNK: usize = 1024 * 1024;

/// Progress is reported out of this many units: the decode takes the first
/// tenth, the repair the next eight, locating the changes the last.
pub const PROGRESS_TOTAL: u64 = 1000;
const DECODED_AT: u64 = 100;
const REPAIRED_AT: u64 = 900;

/// What a repair job is at, judged from its progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Decoding the file into text.
    Decoding,
    /// Looking for mojibake in the text.
    Repairing,
    /// Finding the bytes each change came from.
    Locating,
}

impl Phase {
    /// The phase a job is in when it has done `done` of [`PROGRESS_TOTAL`].
    pub fn of(done: u64) -> Phase {
        if done < DECODED_AT {
            Phase::Decoding
        } else if done < REPAIRED_AT {
            Phase::Repairing
        } else {
            Phase::Locating
        }
    }

    /// What the job is doing, for people.
    pub fn describe(self) -> &'static str {
        match self {
            Phase::Decoding => "Decoding the file…",
            Phase::Repairing => "Looking for mojibake…",
            Phase::Locating => "Finding the bytes of each change…",
        }
    }
}

/// Which decode to repair: a pane's encoding and byte order mark handling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RepairRequest {
    /// The pane whose decode it is.
    pub pane: usize,
    /// The pane's encoding.
    pub encoding: &'static Encoding,
    /// How the pane's decode treats a byte order mark.
    pub bom_handling: BomHandling,
}

/// Why a repair could not be done.
#[non_exhaustive]
#[derive(Debug, Error)]
pub enum RepairError {
    /// The decoded text would be larger than the repair holds in memory.
    #[error(
        "cannot repair this file: its {encoding} decode is more than {} MiB of text, more than \
         a repair holds in memory (the file is {} MiB)",
        limit / (1024 * 1024),
        file_len / (1024 * 1024)
    )]
    TooLarge {
        /// The encoding decoded.
        encoding: &'static Encoding,
        /// The most text allowed, in bytes.
        limit: usize,
        /// The file's size in bytes.
        file_len: u64,
    },
    /// The decode is not text (random or binary bytes): a repair would find
    /// mojibake everywhere, so it is declined at once.
    #[error("cannot repair this file: its {encoding} decode is {reason}")]
    NotText {
        /// The encoding decoded.
        encoding: &'static Encoding,
        /// Why it is not text.
        reason: NotText,
    },
}

/// One change the repair proposes, and where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Proposal {
    /// The change: its span of the decoded text, replacement, chain and
    /// confidence.
    pub change: Change,
    /// Whether the repair is sure of it (a change, accepted at first) or not
    /// (a suggestion, rejected at first).
    pub is_sure: bool,
    /// The bytes of the file the changed text was decoded from.
    pub bytes: ByteSpan,
    /// The line it starts on, from 1.
    pub line: u64,
}

/// What a repair job found.
#[derive(Clone, PartialEq)]
pub struct RepairOutcome {
    /// The decoded text.
    pub text: String,
    /// The encoding whose decoder made it (a byte order mark may have picked
    /// another than the one asked for).
    pub encoding: &'static Encoding,
    /// The changes and suggestions, in text order, not overlapping.
    pub proposals: Vec<Proposal>,
    /// Where decoding errors put U+FFFD in `text` (UTF-8 offsets, in
    /// order); a U+FFFD the file holds as a character is not among them.
    pub error_offsets: Vec<usize>,
}

impl fmt::Debug for RepairOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RepairOutcome")
            .field("text", &format_args!("{} bytes", self.text.len()))
            .field("encoding", &self.encoding)
            .field("proposals", &self.proposals.len())
            .field("error_offsets", &self.error_offsets.len())
            .finish()
    }
}

/// `done` out of `total` as progress units between `from` and `to`.
fn scaled(from: u64, to: u64, done: usize, total: usize) -> u64 {
    if total == 0 {
        return to;
    }
    let share = u128::from(to - from) * done as u128 / total as u128;
    from + u64::try_from(share).unwrap_or(to - from)
}
