//! `mojiscopew`: starts `mojiscope` (the executable beside it) without a
//! console window, passing its arguments on. It is what the Windows Start
//! menu entry and file associations run; `mojiscope.exe` stays a console
//! program, so `mojiscope decode FILE` in a terminal prints there, waits,
//! and returns its exit status as the command-line contract says.
//!
//! Why a second executable: a Windows program is either a console program
//! (Windows opens a console window for it when it is started from Explorer)
//! or a GUI program (no console; a terminal does not wait for it, and its
//! output goes nowhere unless it re-attaches to the terminal's console
//! through `AttachConsole`, which is FFI, and even then the prompt comes back
//! before the output). This launcher is a GUI program that starts the
//! console one with `CREATE_NO_WINDOW`, all through the standard library: no
//! `unsafe`, and no change to how the command line behaves. The cost: a
//! second, small executable, and the app's window belongs to `mojiscope.exe`,
//! not to the launcher that a pinned taskbar icon points at.
//!
//! Built only with the `windows-bundle` feature; elsewhere it just runs
//! `mojiscope` (which is how its behaviour can be checked on Linux).

#![cfg_attr(windows, windows_subsystem = "windows")]

use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, ExitCode};

/// The app's executable, expected beside this one.
const APP: &str = if cfg!(windows) {
    "mojiscope.exe"
} else {
    "mojiscope"
};

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let app = match std::env::current_exe() {
        Ok(launcher) => launcher.with_file_name(APP),
        Err(error) => return fail(&format!("cannot find where mojiscopew is: {error}")),
    };
    match launch(&app, &args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(&format!("cannot start {}: {error}", app.display())),
    }
}

/// Starts the app with `args` and returns without waiting for it: the
/// launcher has nothing more to do.
fn launch(app: &Path, args: &[OsString]) -> std::io::Result<()> {
    let mut command = Command::new(app);
    command.args(args);
    #[cfg(windows)]
    {
        use std::os::windows::process::CommandExt as _;
        /// The process gets a console, as console programs do, but the
        /// console has no window.
        const CREATE_NO_WINDOW: u32 = 0x0800_0000;
        command.creation_flags(CREATE_NO_WINDOW);
    }
    command.spawn().map(drop)
}

/// Says what went wrong where the user can see it: a GUI program has no
/// console, so in a message box.
fn fail(message: &str) -> ExitCode {
    rfd::MessageDialog::new()
        .set_level(rfd::MessageLevel::Error)
        .set_title("mojiscope")
        .set_description(message)
        .set_buttons(rfd::MessageButtons::Ok)
        .show();
    ExitCode::from(2)
}
