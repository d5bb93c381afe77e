//! `mojiscope`: look inside text files byte by byte.
//!
//! With a subcommand it is a command-line tool (see [`mojiscope::cli`]).
//! Without one it opens the desktop app, on FILE if one is given. (The
//! Debian package puts `mojiscope-cli`, the command line alone, in front of
//! it: see [`mojiscope::cli::entry`].)

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::process::ExitCode;

use eframe::egui;
use mojiscope::app::InspectorApp;
use mojiscope::cli::entry::{self, report};

fn main() -> ExitCode {
    mojiscope::crash::install();
    entry::main(desktop)
}

/// Runs the desktop app until its window closes.
fn desktop(file: Option<PathBuf>) -> ExitCode {
    let mut options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("mojiscope")
            .with_app_id("mojiscope")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([640.0, 400.0])
            .with_drag_and_drop(true),
        ..eframe::NativeOptions::default()
    };
    match mojiscope::icon::icon_data() {
        Ok(icon) => options.viewport = options.viewport.with_icon(icon),
        // A window without its icon is still the app.
        Err(error) => report(&format!("cannot load the window icon: {error}")),
    }
    let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
        eframe::run_native(
            "mojiscope",
            options,
            Box::new(move |cc| {
                Ok(Box::new(InspectorApp::from_creation_context(
                    cc,
                    file.as_deref(),
                )))
            }),
        )
    }));
    match result {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(error)) => {
            report(&format!("cannot start the desktop app: {error}"));
            ExitCode::from(2)
        }
        Err(_) => {
            // The panic hook has written the report and said so on standard
            // error; a person who double-clicked the app sees no terminal.
            if let Some(crash) = mojiscope::crash::last() {
                rfd::MessageDialog::new()
                    .set_level(rfd::MessageLevel::Error)
                    .set_title("mojiscope stopped")
                    .set_description(crash.message())
                    .set_buttons(rfd::MessageButtons::Ok)
                    .show();
            }
            ExitCode::from(101)
        }
    }
}
