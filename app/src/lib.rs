//! `mojiscope`: look inside text files byte by byte.
//!
//! The binary is two front ends over `mojiscope-core` and the app's
//! [`model`]: the command line ([`cli`]) and the desktop app
//! ([`app::InspectorApp`], with its views in [`ui`] and its colours in
//! [`theme`]). The model knows nothing of egui; the views only lay out what
//! is visible and leave every whole-file computation to the model's jobs.

pub mod app;
pub mod cli;
pub mod crash;
pub mod icon;
pub mod model;
pub mod theme;
pub mod ui;
