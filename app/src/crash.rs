//! What happens when mojiscope meets a bug: a panic leaves a report on disk
//! and a readable message, rather than a vanished window or a Rust backtrace
//! on a terminal nobody looks at.
//!
//! [`install`] replaces the panic hook. The hook writes a report (version,
//! thread, message, location, backtrace) to the state directory
//! (`$XDG_STATE_HOME/mojiscope`, else `~/.local/state/mojiscope`, else the
//! temporary directory) and one line to standard error saying where it is.
//! Background jobs catch their own panics and report them in the window (see
//! [`crate::model::jobs`]); the window's own thread is caught in `main`, which shows
//! the message in a dialog where one can be shown.

use std::backtrace::Backtrace;
use std::fmt::Write as _;
use std::io::Write as _;
use std::panic::PanicHookInfo;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// The last report written, for the window's message.
static LAST_REPORT: Mutex<Option<Crash>> = Mutex::new(None);

/// A panic, as reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crash {
    /// The panic's message and where it happened.
    pub summary: String,
    /// Where the report was saved, if it could be.
    pub report: Option<PathBuf>,
}

impl Crash {
    /// The message for people: what happened and where the report is.
    pub fn message(&self) -> String {
        match &self.report {
            Some(path) => format!(
                "internal error (a bug in mojiscope): {}; a report was saved to {}",
                self.summary,
                path.display()
            ),
            None => format!(
                "internal error (a bug in mojiscope): {}; the report could not be saved",
                self.summary
            ),
        }
    }
}

/// Installs the panic hook, with reports in [`report_dir`].
pub fn install() {
    install_in(report_dir());
}

/// Installs the panic hook, with reports in `dir` (none: not saved).
pub fn install_in(dir: Option<PathBuf>) {
    std::panic::set_hook(Box::new(move |info| {
        let crash = record(info, dir.as_deref());
        // Nowhere is left to report a failure to write to standard error.
        writeln!(std::io::stderr().lock(), "mojiscope: {}", crash.message()).ok();
        if let Ok(mut last) = LAST_REPORT.lock() {
            *last = Some(crash);
        }
    }));
}

/// The last panic reported since [`install`], if any.
pub fn last() -> Option<Crash> {
    LAST_REPORT.lock().ok().and_then(|last| last.clone())
}

/// Where reports go.
pub fn report_dir() -> Option<PathBuf> {
    let state = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .filter(|path| path.is_absolute())
        .or_else(|| std::env::home_dir().map(|home| home.join(".local").join("state")));
    Some(state.unwrap_or_else(std::env::temp_dir).join("mojiscope"))
}

/// Writes the report of `info` into `dir` and says what happened.
fn record(info: &PanicHookInfo<'_>, dir: Option<&Path>) -> Crash {
    let message = info
        .payload()
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| info.payload().downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned());
    let location = info.location().map_or_else(String::new, |location| {
        format!(" at {}:{}", location.file(), location.line())
    });
    let thread = std::thread::current()
        .name()
        .unwrap_or("an unnamed thread")
        .to_owned();
    let summary = format!("{message} (in {thread}{location})");
    let report = dir.and_then(|dir| write_report(dir, &summary).ok());
    Crash { summary, report }
}

/// Writes a report file in `dir`; returns its path.
fn write_report(dir: &Path, summary: &str) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    let path = dir.join(format!("crash-{seconds}-{}.txt", std::process::id()));
    let mut text = String::new();
    let _ = writeln!(text, "mojiscope {}", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(text, "{} {}", std::env::consts::OS, std::env::consts::ARCH);
    let _ = writeln!(text, "panic: {summary}");
    let _ = writeln!(text, "\n{}", Backtrace::force_capture());
    std::fs::write(&path, text)?;
    Ok(path)
}
