//! Re-encoding a text and saving it, outside the UI: the desktop app's
//! File ▸ Save as and the command line's `convert` write through the same
//! [`AtomicFile`].
//!
//! - [`atomic`]: the file written whole or not at all ([`AtomicFile`]).

pub mod atomic;

pub use self::atomic::{AtomicFile, Committed, SaveError, Step, WriteOptions, backup_path};
