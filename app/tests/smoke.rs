//! Smoke tests of the built binaries: `mojiscope`, the desktop app and the
//! command line, and `mojiscope-cli`, the command line alone, which starts
//! `mojiscope` for the app. Their other purpose: an integration test here
//! makes `cargo test --workspace` build both, and the end-to-end tests in
//! the `mojiscope-tests` crate run `mojiscope`.

use std::process::Command;

/// Runs `executable label latin1` and checks its answer.
fn assert_answers_label(executable: &std::path::Path) {
    let output = Command::new(executable)
        .args(["label", "latin1"])
        .output()
        .expect("the binary runs");
    assert!(output.status.success(), "{output:?}");
    assert_eq!(output.stdout, b"windows-1252\n");
    assert!(output.stderr.is_empty(), "{output:?}");
}

/// Both executables answer the subcommands.
#[test]
fn both_executables_run_and_answer() {
    assert_answers_label(env!("CARGO_BIN_EXE_mojiscope").as_ref());
    assert_answers_label(env!("CARGO_BIN_EXE_mojiscope-cli").as_ref());
}

/// Runs `executable FILE` with a display that does not exist, and checks
/// that it fails (exit status 2) saying `message`.
fn assert_opening_says(executable: &std::path::Path, message: &str) {
    let output = Command::new(executable)
        .arg("Cargo.toml")
        .env("DISPLAY", ":65531")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(message), "{stderr}");
}

/// `mojiscope-cli FILE` with a display starts `mojiscope` (beside it) on
/// FILE. The display named here does not exist, so the app says it cannot
/// start: that message is the app's, not the command line's.
#[test]
fn the_command_line_starts_the_desktop_app() {
    assert_opening_says(
        env!("CARGO_BIN_EXE_mojiscope-cli").as_ref(),
        "cannot start the desktop app",
    );
}

/// Installed alone under the app's name, as the package installs it but
/// without the app in `lib/mojiscope`, the command line does not start
/// itself: `mojiscope FILE` says the app is missing, and the subcommands
/// still work.
#[test]
fn the_command_line_without_the_desktop_app() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let lone = dir
        .path()
        .join(format!("mojiscope{}", std::env::consts::EXE_SUFFIX));
    std::fs::copy(env!("CARGO_BIN_EXE_mojiscope-cli"), &lone).expect("copied");
    assert_opening_says(&lone, "the desktop app is not installed");
    assert_answers_label(&lone);
}
