//! `mojiscope-cli`: the command line alone, which the Debian package
//! installs as `/usr/bin/mojiscope`. Asked for the desktop app (no
//! subcommand), it starts `mojiscope`, the app's executable, in its place:
//! beside it in a build, `/usr/lib/mojiscope/mojiscope` where the package
//! installs it (see [`mojiscope::cli::entry`] for why there are two).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use mojiscope::cli::entry::{self, report};

fn main() -> ExitCode {
    mojiscope::crash::install();
    entry::main(open_app)
}

/// The desktop app's executable.
const APP: &str = if cfg!(windows) {
    "mojiscope.exe"
} else {
    "mojiscope"
};

/// Starts the desktop app on `file`, in place of this process where the
/// system can (Unix), else waiting for it and passing on its exit status.
fn open_app(file: Option<PathBuf>) -> ExitCode {
    let Some(app) = app_path() else {
        report(&format!(
            "the desktop app is not installed: neither {APP} beside this command nor lib/mojiscope/{APP} beside its folder is there; the subcommands work without it (mojiscope --help)"
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
/// directory), or in `lib/mojiscope` beside the folder this executable is
/// in (`/usr/bin/mojiscope`, this, and `/usr/lib/mojiscope/mojiscope`, as
/// the Debian package installs them). Never this executable itself, which
/// shares the app's name where it is installed.
fn app_path() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    let beside = dir.join(APP);
    let installed = dir
        .parent()
        .map(|prefix| prefix.join("lib").join("mojiscope").join(APP));
    [Some(beside), installed]
        .into_iter()
        .flatten()
        .find(|path| path.is_file() && !same_file(path, &exe))
}

/// Whether `a` and `b` name the same file (a hard link too).
#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

/// Whether `a` and `b` name the same file.
#[cfg(not(unix))]
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
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
