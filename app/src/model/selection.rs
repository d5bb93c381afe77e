//! The selection every view shares: a span of the file's bytes and the view
//! it was made in. Views read it and send [`Command::Select`] to change it.
//!
//! [`Command::Select`]: crate::model::command::Command::Select

use mojiscope_core::ByteSpan;

/// Which view a selection was made in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectionOrigin {
    /// The hex view.
    Hex,
    /// A decode pane, by index.
    Pane(usize),
    /// Next or previous error, or Go to offset.
    Navigation,
}

/// The selection every view shows: a span of the file's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The selected bytes (never empty).
    pub span: ByteSpan,
    /// Where it was made.
    pub origin: SelectionOrigin,
}
