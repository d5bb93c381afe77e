//! The app's model: what the desktop app knows and does, without egui.
//!
//! The command line ([`crate::cli`]) and the desktop app's views
//! ([`crate::app`], [`crate::ui`]) sit on top of it; nothing here imports
//! them.

pub mod analysis;
pub mod command;
pub mod document;
pub mod document_jobs;
pub mod hex;
pub mod jobs;
pub mod panes;
pub mod repair;
pub mod save;
pub mod selection;
pub mod session;
pub mod settings;
pub mod watch;
pub mod wording;
