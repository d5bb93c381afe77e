//! What several subcommands' arguments share: an encoding label, and the
//! error modes of `encode` and `convert`.

use std::ffi::OsStr;

use clap::ValueEnum;
use mojiscope_core::{EncodeErrorMode, Encoding};

use super::error::CliError;

/// Error modes of `encode` and `convert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EncodeErrors {
    /// Stop at the first problem (exit status 1)
    Fatal,
    /// Write each unencodable character as &#N;
    Html,
}

impl EncodeErrors {
    /// The encoder's error mode.
    pub fn mode(self) -> EncodeErrorMode {
        match self {
            EncodeErrors::Fatal => EncodeErrorMode::Fatal,
            EncodeErrors::Html => EncodeErrorMode::Html,
        }
    }
}

/// "get an encoding", or the error for an unknown label.
pub fn encoding_for(label: &OsStr) -> Result<&'static Encoding, CliError> {
    Encoding::for_label(label.as_encoded_bytes()).ok_or_else(|| CliError::UnknownLabel {
        label: label.to_string_lossy().into_owned(),
    })
}
