//! The app's model: what the desktop app knows and does, without egui.
//!
//! The command line ([`crate::cli`]) and the desktop app ([`crate::app`],
//! with its views in [`crate::ui`]) sit on top of it; nothing here imports
//! them, so all of it can be tested without a window. The open file is a
//! [`document::Document`], what is known of it a [`session::Session`]
//! (which panes show it is [`panes`]'s policy), and all work off the
//! window's thread runs through [`jobs::Runner`]: the document's
//! ([`document_jobs`]), Save as's ([`save`]) and the Repair window's
//! ([`repair`]). ARCHITECTURE.md has the map.

pub mod analysis;
pub mod command;
pub mod copy;
pub mod cursor;
pub mod document;
pub mod document_jobs;
pub mod find;
pub mod folder;
pub mod folder_convert;
pub mod hex;
pub mod jobs;
pub mod layout;
pub mod panes;
pub mod repair;
pub mod samples;
pub mod save;
pub mod scan;
pub mod selection;
pub mod session;
pub mod settings;
pub mod verdict;
pub mod watch;
pub mod wording;
