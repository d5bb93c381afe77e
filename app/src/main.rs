//! `mojiscope`: look inside text files byte by byte.
//!
//! With a subcommand it is a command-line tool (see [`mojiscope::cli`]).
//! Without one it opens the desktop app, on FILE if one is given.

use std::ffi::OsString;
use std::io::{self, BufWriter, Write as _};
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::process::ExitCode;

use eframe::egui;
use mojiscope::app::InspectorApp;
use mojiscope::cli::{self, CliError};

fn main() -> ExitCode {
    mojiscope::crash::install();
    let args: Vec<OsString> = std::env::args_os().collect();
    // No arguments at all: the desktop app, if there is a display to show it
    // on; otherwise the command line's help, as before.
    if args.len() <= 1 && display_available() {
        return desktop(None);
    }
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut stdout = BufWriter::with_capacity(cli::CHUNK_SIZE, stdout.lock());
    let result = cli::run(args.iter().cloned(), &mut stdin.lock(), &mut stdout);
    match result {
        Ok(success) => {
            for line in success.details.iter().chain(&success.summary) {
                report(line);
            }
            ExitCode::SUCCESS
        }
        Err(CliError::Clap(error)) => {
            // clap prints help and version to stdout, usage errors to stderr.
            // If even that fails there is nowhere left to say so.
            error.print().ok();
            ExitCode::from(CliError::Clap(error).exit_status())
        }
        // FILE without a subcommand: the desktop app opens it. The parser
        // accepted exactly one positional argument, so it is the last one.
        Err(CliError::NoDesktopApp { file }) => match args.last() {
            Some(path) if display_available() => desktop(Some(PathBuf::from(path))),
            _ => {
                report(&format!(
                    "no display to open the desktop app on (DISPLAY and WAYLAND_DISPLAY are unset); to see the file as text, run: mojiscope decode {file}"
                ));
                ExitCode::from(2)
            }
        },
        Err(error) => {
            for line in error.details() {
                report(line);
            }
            report(&error.to_string());
            ExitCode::from(error.exit_status())
        }
    }
}

/// Whether a window can be shown: on Linux and the BSDs that needs an X11
/// or Wayland display; elsewhere there always is one.
fn display_available() -> bool {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return true;
    }
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|value| !value.is_empty()))
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

/// Writes one line to standard error, prefixed with the program's name.
fn report(message: &str) {
    // Nowhere is left to report a failure to write to standard error.
    writeln!(io::stderr().lock(), "mojiscope: {message}").ok();
}
