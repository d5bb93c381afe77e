//! The panic hook: a bug leaves a report on disk and a readable message.
//! (Its own test binary: the hook is the whole process's.)

use std::thread;

use mojiscope::crash;

#[test]
fn a_panic_leaves_a_report_and_a_message() {
    let dir = tempfile::tempdir().unwrap();
    crash::install_in(Some(dir.path().to_path_buf()));
    let result = thread::Builder::new()
        .name("decode:Shift_JIS".to_owned())
        .spawn(|| panic!("pointer 12345 out of range"))
        .unwrap()
        .join();
    assert!(result.is_err());
    let crash = crash::last().expect("the hook recorded the panic");
    assert!(
        crash
            .summary
            .starts_with("pointer 12345 out of range (in decode:Shift_JIS at "),
        "{crash:?}"
    );
    let report = crash.report.clone().expect("a report was saved");
    assert!(report.starts_with(dir.path()));
    let text = std::fs::read_to_string(&report).unwrap();
    assert!(text.starts_with(&format!("mojiscope {}\n", env!("CARGO_PKG_VERSION"))));
    assert!(text.contains("panic: pointer 12345 out of range"), "{text}");
    let message = crash.message();
    assert!(message.contains("a bug in mojiscope"), "{message}");
    assert!(message.contains(&report.display().to_string()), "{message}");

    // A directory that cannot be made: the message says the report is lost.
    let blocker = dir.path().join("a file");
    std::fs::write(&blocker, b"").unwrap();
    crash::install_in(Some(blocker.join("reports")));
    let _ = thread::Builder::new()
        .name("again".to_owned())
        .spawn(|| panic!("again"))
        .unwrap()
        .join();
    let crash = crash::last().unwrap();
    assert_eq!(crash.report, None);
    assert!(crash.message().ends_with("the report could not be saved"));
}
