//! `mojiscope`: look inside text files byte by byte.
//!
//! With a subcommand it is a command-line tool (see [`mojiscope::cli`]).
//! Without one it opens the desktop app, on FILE if one is given: it starts
//! `mojiscope-app`, which holds the app (see [`mojiscope::cli::entry`] for
//! why there are two executables).

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

use mojiscope::cli::entry::{self, report};

fn main() -> ExitCode {
    mojiscope::crash::install();
    entry::main(open_app)
}

/// The desktop app's executable, as a build names it.
const APP: &str = if cfg!(windows) {
    "mojiscope-app.exe"
} else {
    "mojiscope-app"
};

/// The desktop app's executable as the Debian package installs it, in
/// `lib/mojiscope`: under the command line's name, which is the name a
/// screen reader and a process list give the running app.
const INSTALLED_APP: &str = "mojiscope";

/// Starts the desktop app on `file`, in place of this process where the
/// system can (Unix), else waiting for it and passing on its exit status.
fn open_app(file: Option<PathBuf>) -> ExitCode {
    let Some(app) = app_path() else {
        report(&format!(
            "the desktop app is not installed: neither {APP} beside mojiscope nor lib/mojiscope/{INSTALLED_APP} beside its folder is there; the subcommands work without it (mojiscope --help)"
        ));
        return ExitCode::from(2);
    };
    let mut command = Command::new(&app);
    command.args(file.map(OsString::from));
    let error = run(&mut command);
    report(&format!("cannot start {}: {error}", app.display()));
    ExitCode::from(2)
}

/// Where the desktop app is: beside this executable (a build's target
/// directory, the Windows bundle), or in `lib/mojiscope` beside the folder
/// this executable is in (`/usr/bin/mojiscope` and
/// `/usr/lib/mojiscope/mojiscope`, as the Debian package installs them).
fn app_path() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    let beside = dir.join(APP);
    let installed = dir
        .parent()
        .map(|prefix| prefix.join("lib").join("mojiscope").join(INSTALLED_APP));
    [Some(beside), installed]
        .into_iter()
        .flatten()
        .find(|path| path.is_file())
}

/// Runs `command` in place of this process; returns only if it could not.
#[cfg(unix)]
fn run(command: &mut Command) -> std::io::Error {
    use std::os::unix::process::CommandExt as _;
    command.exec()
}

/// Runs `command` and exits with its status once it is done.
#[cfg(not(unix))]
fn run(command: &mut Command) -> std::io::Error {
    match command.status() {
        Ok(status) => std::process::exit(status.code().unwrap_or(2)),
        Err(error) => error,
    }
}
