//! What both executables do with their arguments. `mojiscope` is the
//! desktop app and the command line; `mojiscope-cli` is the command line
//! alone, which starts `mojiscope` when asked for the app. They differ only
//! in how the app is opened, which each passes to [`main`].
//!
//! Why two executables: the desktop app's libraries (the windowing, the
//! renderer, the accessibility bridge) bring tens of thousands of pointers
//! that the dynamic loader relocates, page by page, whenever an executable
//! holding them starts, even for `mojiscope detect`. Without them the
//! command line starts about a third of a millisecond sooner, as fast as
//! the C detectors do (BENCHMARKS.md). The Debian package installs
//! `mojiscope-cli` as `/usr/bin/mojiscope`; a build's `mojiscope` stays the
//! one executable that does everything, so that a copy of it alone, a
//! screen reader and a process list all see the app as before.

use std::ffi::OsString;
use std::io::{self, BufWriter, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::{CHUNK_SIZE, CliError};

/// Runs the command line on this process's arguments, or `open_app` (on
/// FILE, if one is given) when they ask for the desktop app and there is a
/// display to show it on.
pub fn main(open_app: impl FnOnce(Option<PathBuf>) -> ExitCode) -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    // No arguments at all: the desktop app, if there is a display to show it
    // on; otherwise the command line's help, as before.
    if args.len() <= 1 && display_available() {
        return open_app(None);
    }
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut stdout = BufWriter::with_capacity(CHUNK_SIZE, stdout.lock());
    let result = super::run(args.iter().cloned(), &mut stdin.lock(), &mut stdout);
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
            Some(path) if display_available() => open_app(Some(PathBuf::from(path))),
            _ => {
                let instead = if args.last().is_some_and(|path| Path::new(path).is_dir()) {
                    format!("to see what its files are, run: mojiscope scan {file}")
                } else {
                    format!("to see the file as text, run: mojiscope decode {file}")
                };
                report(&format!(
                    "no display to open the desktop app on (DISPLAY and WAYLAND_DISPLAY are unset); {instead}"
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
pub fn display_available() -> bool {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return true;
    }
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|value| !value.is_empty()))
}

/// Writes one line to standard error, prefixed with the program's name.
pub fn report(message: &str) {
    // Nowhere is left to report a failure to write to standard error.
    writeln!(io::stderr().lock(), "mojiscope: {message}").ok();
}
