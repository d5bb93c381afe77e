//! A smoke test of the built binary. Its other purpose: an integration test
//! here makes `cargo test --workspace` build the `mojiscope` binary, which
//! the end-to-end tests in the `mojiscope-tests` crate run.

use std::process::Command;

#[test]
fn the_binary_runs_and_answers() {
    let output = Command::new(env!("CARGO_BIN_EXE_mojiscope"))
        .args(["label", "latin1"])
        .output()
        .expect("the binary runs");
    assert!(output.status.success(), "{output:?}");
    assert_eq!(output.stdout, b"windows-1252\n");
    assert!(output.stderr.is_empty(), "{output:?}");
}
