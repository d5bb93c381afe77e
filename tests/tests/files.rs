//! Inputs that are not readable files: one line on stderr, exit 2, no panic.

use std::fs;

use mojiscope_tests::run;

#[test]
fn a_missing_file() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.txt");
    let missing = missing.to_str().unwrap();
    for args in [
        vec!["decode", missing],
        vec!["encode", "--encoding", "latin1", missing],
        vec![
            "convert",
            "--from",
            "utf-8",
            "--to",
            "utf-8",
            missing,
            "-o",
            "never-written.txt",
        ],
    ] {
        let run = run(&args, b"");
        run.assert_failure(2, &[&format!("{missing}: cannot open: ")]);
        assert!(run.stdout.is_empty());
    }
    assert!(!std::path::Path::new("never-written.txt").exists());
}

#[test]
fn a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_str().unwrap();
    run(["decode", path], b"").assert_failure(2, &[&format!("{path}: is a directory")]);
    run(["encode", path], b"").assert_failure(2, &["is a directory"]);
}

#[cfg(unix)]
#[test]
fn an_unreadable_file() {
    use std::os::unix::fs::PermissionsExt as _;

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("secret.txt");
    fs::write(&path, b"text").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).unwrap();
    if fs::File::open(&path).is_ok() {
        // Root (or a capability) reads it anyway: nothing to test here.
        eprintln!(
            "skipping an_unreadable_file: this user can read a mode 000 file (running as root?)"
        );
        return;
    }
    let run = run(["decode", path.to_str().unwrap()], b"");
    run.assert_failure(2, &["secret.txt: cannot open: permission denied"]);
}

#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf_8() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt as _;

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(OsStr::from_bytes(b"caf\xE9.txt"));
    fs::write(&path, b"caf\xE9").unwrap();
    let decoded = run(
        [
            OsStr::new("decode"),
            OsStr::new("--encoding"),
            OsStr::new("latin1"),
            path.as_os_str(),
        ],
        b"",
    );
    decoded.assert_success();
    assert_eq!(decoded.stdout_text(), "café");

    // Converting to such a name works, and errors name it lossily.
    let output = dir.path().join(OsStr::from_bytes(b"out\xFF.txt"));
    let convert = [
        OsStr::new("convert"),
        OsStr::new("--from"),
        OsStr::new("latin1"),
        OsStr::new("--to"),
        OsStr::new("utf-8"),
        path.as_os_str(),
        OsStr::new("-o"),
        output.as_os_str(),
    ];
    run(convert, b"").assert_success();
    assert_eq!(fs::read(&output).unwrap(), "café".as_bytes());
    run(convert, b"").assert_failure(2, &["out\u{FFFD}.txt: already exists"]);

    let missing = dir.path().join(OsStr::from_bytes(b"gone\x80.txt"));
    run([OsStr::new("decode"), missing.as_os_str()], b"")
        .assert_failure(2, &["gone\u{FFFD}.txt: cannot open"]);
}

#[test]
fn a_file_name_with_a_newline_stays_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("two\nlines.txt");
    run(["decode", missing.to_str().unwrap()], b"")
        .assert_failure(2, &["two\\nlines.txt: cannot open"]);
}
