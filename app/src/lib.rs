//! `mojiscope`: look inside text files byte by byte.
//!
//! The binary is two front ends over `mojiscope-core`: the command line
//! ([`cli`]) and the desktop app ([`app::InspectorApp`]). The app's model
//! ([`model`]) knows nothing of egui; its views ([`app`], [`ui`], [`theme`])
//! only lay out what is visible and leave every whole-file computation to
//! the jobs.

pub mod app;
pub mod cli;
pub mod crash;
pub mod icon;
pub mod model;
pub mod theme;
pub mod ui;
