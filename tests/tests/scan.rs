//! `mojiscope scan [--json] PATH...`: one
//! `PATH<TAB>ENCODING<TAB>CONFIDENCE<TAB>ERRORS<TAB>NOTES` line per regular
//! file of a tree, in order; special files skipped without being opened;
//! unreadable entries on standard error, exit status 2 at the end.
//!
//! The tree is built from real files of the detection dev set
//! (`../shared/data/detect-dev`, beside the repository) and a few made
//! here: a binary file, an empty file, a FIFO, a symbolic link and an
//! unreadable file.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use mojiscope_tests::{Run, Xorshift, command, finish, run};

/// Real files, each under the name it gets in the tree.
const REAL_FILES: [(&str, &str); 9] = [
    ("Shift_JIS/ja-vim-tutor.ja.sjis", "ja-tutor.sjis"),
    (
        "Shift_JIS/ja-gochardet-shift_jis.html",
        "declared-sjis.html",
    ),
    ("windows-1251/bg-emacs-TUTORIAL.bg", "bg-tutorial.txt"),
    ("KOI8-R/ru-vim-tutor.ru", "ru-tutor.koi8"),
    ("EUC-KR/ko-vim-tutor.ko.euc", "sub/ko-tutor.euc"),
    (
        "UTF-8/fr-gotext-candide-utf-8.txt",
        "sub/deeper/candide-utf8.txt",
    ),
    ("UTF-8/xx-gochardet-utf8_bom.html", "sub/bom-utf8.html"),
    (
        "UTF-16LE/fr-gotext-candide-utf-16le.txt",
        "candide-utf16le.txt",
    ),
    ("UTF-16BE/en-gonet-UTF-16BE-BOM.html", "bom-utf16be.html"),
];

/// The detection dev set, or `None` with a loud warning when it is not
/// beside the repository.
fn detect_dev() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/detect-dev");
    if dir.is_dir() {
        return Some(dir);
    }
    // Written to the stderr handle, so that libtest's capture does not
    // hide it when the test passes.
    writeln!(
        std::io::stderr(),
        "WARNING: the detection dev set is not at {}; skipping the scan tests that need real files",
        dir.display()
    )
    .ok(); // Nothing better to do if stderr is gone.
    None
}

/// One line of the text output.
#[derive(Debug)]
struct Line {
    path: String,
    encoding: String,
    confidence: f64,
    errors: u64,
    notes: Vec<String>,
}

fn lines(run: &Run) -> Vec<Line> {
    run.stdout_text()
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 5, "five fields: {line:?}");
            let notes = fields[4];
            let mut words = notes.split(' ').filter(|word| !word.is_empty()).peekable();
            let mut grouped = Vec::new();
            while let Some(word) = words.next() {
                if word == "declared" {
                    let name = words.next().expect("declared NAME");
                    grouped.push(format!("declared {name}"));
                } else {
                    grouped.push(word.to_owned());
                }
            }
            Line {
                path: fields[0].to_owned(),
                encoding: fields[1].to_owned(),
                confidence: fields[2].parse().expect("a confidence"),
                errors: fields[3].parse().expect("an error count"),
                notes: grouped,
            }
        })
        .collect()
}

/// How long a scan of the test trees may take: a FIFO opened by mistake
/// would block it for ever.
const TIME_LIMIT: Duration = Duration::from_mins(1);

/// Runs `scan` with these arguments, killing it if it takes longer than
/// [`TIME_LIMIT`].
fn scan(args: &[&Path]) -> Run {
    let child = command(std::iter::once(Path::new("scan")).chain(args.iter().copied()))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let id = child.id();
    let started = Instant::now();
    let finished = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watchdog = {
        let finished = finished.clone();
        std::thread::Builder::new()
            .name("scan-watchdog".to_owned())
            .spawn(move || {
                while started.elapsed() < TIME_LIMIT {
                    std::thread::sleep(Duration::from_millis(50));
                    if finished.load(std::sync::atomic::Ordering::Relaxed) {
                        return;
                    }
                }
                // Blocked: end it, so that the test fails instead of hanging.
                std::process::Command::new("kill")
                    .args(["-KILL", &id.to_string()])
                    .status()
                    .ok(); // The assertion below reports it either way.
            })
            .expect("the watchdog starts")
    };
    let run = finish(child, b"");
    finished.store(true, std::sync::atomic::Ordering::Relaxed);
    watchdog.join().expect("the watchdog ends");
    assert!(
        started.elapsed() < TIME_LIMIT,
        "scan took over {TIME_LIMIT:?}: blocked?"
    );
    run
}

fn is_root() -> bool {
    // The numeric user id of this process, without a libc dependency.
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("Uid:"))
                .and_then(|ids| ids.split_whitespace().nth(1).map(|euid| euid == "0"))
        })
        .unwrap_or(false)
}

/// What `detect` ranks first for `path`.
fn detect_first(path: &Path) -> String {
    let run = run([Path::new("detect"), path], b"");
    assert_eq!(run.code(), Some(0), "{}", run.stderr);
    let first = run.stdout_text().lines().next().expect("a ranking");
    first.split('\t').next().expect("NAME").to_owned()
}

#[cfg(unix)]
fn make_fifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
#[expect(
    clippy::too_many_lines,
    reason = "one tree, and every kind of entry in it checked in a row"
)]
fn scans_a_tree_as_detect_names_each_file() {
    use std::os::unix::fs::PermissionsExt as _;

    let Some(data) = detect_dev() else { return };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let root = dir.path().join("tree");
    fs::create_dir_all(root.join("sub/deeper")).expect("directories");
    for (source, name) in REAL_FILES {
        fs::copy(data.join(source), root.join(name)).expect("a real file is copied");
    }
    let mut random = Xorshift::new(0x5CA7);
    fs::write(root.join("random.bin"), random.bytes(8192)).expect("a binary file");
    fs::write(root.join("empty.txt"), b"").expect("an empty file");
    let declared_html = b"<!DOCTYPE html><html><head><meta charset=\"windows-1252\">\
        <title>Caf\xE9</title></head><body><p>Une cr\xE8me br\xFBl\xE9e, s'il vous pla\xEEt.</p></body></html>\n";
    fs::write(root.join("sub/declared-1252.html"), declared_html).expect("an HTML file");
    make_fifo(&root.join("sub/a-fifo"));
    std::os::unix::fs::symlink(root.join("sub"), root.join("link-to-sub")).expect("a link");
    let secret = root.join("sub/secret.txt");
    fs::write(&secret, "not for everyone").expect("a file");
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o000)).expect("chmod 000");
    let unreadable_checked = !is_root();

    let run = scan(&[&root]);
    let lines = lines(&run);
    let paths: Vec<String> = lines.iter().map(|line| line.path.clone()).collect();

    // Every regular file once, in path order; nothing for the FIFO, the
    // link (whose target is listed under its own name) or the secret.
    let mut expected: Vec<PathBuf> = REAL_FILES
        .iter()
        .map(|(_, name)| root.join(name))
        .chain(
            ["random.bin", "empty.txt", "sub/declared-1252.html"]
                .iter()
                .map(|name| root.join(name)),
        )
        .collect();
    if !unreadable_checked {
        expected.push(secret.clone());
    }
    expected.sort();
    let expected: Vec<String> = expected
        .iter()
        .map(|path| path.to_str().expect("a UTF-8 path").to_owned())
        .collect();
    assert_eq!(paths, expected, "stderr: {}", run.stderr);

    let line = |name: &str| {
        let path = root.join(name);
        lines
            .iter()
            .find(|line| Path::new(&line.path) == path)
            .unwrap_or_else(|| panic!("{name} is listed"))
    };
    for (_, name) in REAL_FILES {
        let line = line(name);
        assert_eq!(
            line.encoding,
            detect_first(&root.join(name)),
            "{name}: scan names it as detect does"
        );
        assert!((0.0..=1.0).contains(&line.confidence), "{line:?}");
        assert!(!line.notes.contains(&"mojibake".to_owned()), "{line:?}");
    }
    assert_eq!(line("ja-tutor.sjis").encoding, "Shift_JIS");
    assert_eq!(line("bg-tutorial.txt").encoding, "windows-1251");
    assert_eq!(line("sub/deeper/candide-utf8.txt").errors, 0);

    let bom = line("sub/bom-utf8.html");
    assert_eq!(bom.encoding, "UTF-8");
    assert!(bom.notes.contains(&"bom".to_owned()), "{bom:?}");
    let bom16 = line("bom-utf16be.html");
    assert_eq!(bom16.encoding, "UTF-16BE");
    assert!(bom16.notes.contains(&"bom".to_owned()), "{bom16:?}");
    assert_eq!(bom16.errors, 0);

    let utf16 = line("candide-utf16le.txt");
    assert_eq!(utf16.encoding, "UTF-16LE");
    assert!(
        utf16.notes.contains(&"utf-16-no-bom".to_owned()),
        "{utf16:?}"
    );
    assert!(!utf16.notes.contains(&"bom".to_owned()), "{utf16:?}");

    let declared = line("declared-sjis.html");
    assert!(
        declared.notes.contains(&"declared Shift_JIS".to_owned()),
        "{declared:?}"
    );
    let declared = line("sub/declared-1252.html");
    assert_eq!(declared.encoding, "windows-1252");
    assert!(
        declared.notes.contains(&"declared windows-1252".to_owned()),
        "{declared:?}"
    );
    assert_eq!(declared.errors, 0);

    assert_eq!(line("random.bin").encoding, "binary");
    let empty = line("empty.txt");
    assert_eq!(empty.errors, 0);
    assert_ne!(empty.encoding, "binary");

    // Skipped without being opened, and said so.
    assert!(
        run.stderr.contains("a-fifo: skipped: a FIFO"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("link-to-sub: skipped: a symbolic link (not followed)"),
        "{}",
        run.stderr
    );
    if unreadable_checked {
        assert!(
            run.stderr
                .contains("secret.txt: cannot open: permission denied"),
            "{}",
            run.stderr
        );
        assert!(
            run.stderr
                .ends_with("1 entry could not be read (12 files scanned)\n"),
            "{}",
            run.stderr
        );
        assert_eq!(run.code(), Some(2), "an unreadable file: exit status 2");
    } else {
        writeln!(
            std::io::stderr(),
            "NOTE: running as root, which reads any file: the unreadable file is not checked"
        )
        .ok(); // Nothing better to do if stderr is gone.
        assert_eq!(run.code(), Some(0), "{}", run.stderr);
    }

    // The same tree as JSON: the same files, the same answers.
    let json = scan(&[Path::new("--json"), &root]);
    assert_eq!(json.code(), run.code(), "{}", json.stderr);
    let objects: serde_json::Value =
        serde_json::from_slice(&json.stdout).expect("one JSON document");
    let objects = objects.as_array().expect("an array");
    assert_eq!(objects.len(), lines.len());
    for (object, line) in objects.iter().zip(&lines) {
        assert_eq!(object["path"], line.path.as_str());
        assert_eq!(object["encoding"], line.encoding.as_str());
        assert_eq!(object["errors"], line.errors);
        assert_eq!(object["binary"], line.encoding == "binary");
        let size = fs::metadata(&line.path).map(|metadata| metadata.len());
        if let Ok(size) = size {
            assert_eq!(object["size"], size);
        }
        assert_eq!(
            object["bom"].is_string(),
            line.notes.contains(&"bom".to_owned()),
            "{object}"
        );
        assert_eq!(
            object["declared"].is_object(),
            line.notes.iter().any(|note| note.starts_with("declared ")),
            "{object}"
        );
    }
    let declared = objects
        .iter()
        .find(|object| {
            object["path"] == root.join("sub/declared-1252.html").to_str().expect("UTF-8")
        })
        .expect("the HTML file");
    assert_eq!(declared["declared"]["encoding"], "windows-1252");
    assert_eq!(declared["declared"]["source"], "html-meta");
}

#[cfg(unix)]
#[test]
fn a_fifo_given_by_name_is_skipped_not_opened() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let fifo = dir.path().join("pipe");
    make_fifo(&fifo);
    let run = scan(&[&fifo]);
    assert_eq!(run.code(), Some(0), "{}", run.stderr);
    assert_eq!(run.stdout_text(), "");
    assert!(
        run.stderr.contains("pipe: skipped: a FIFO"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_file_is_scanned_as_itself_and_a_missing_path_is_reported() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("café.txt");
    fs::write(&file, "Déjà vu, naïve café.\n").expect("a file");
    let missing = dir.path().join("missing");
    let run = scan(&[&file, &missing]);
    let lines = lines(&run);
    assert_eq!(lines.len(), 1, "{}", run.stdout_text());
    assert_eq!(lines[0].path, file.to_str().expect("UTF-8"));
    assert_eq!((lines[0].encoding.as_str(), lines[0].errors), ("UTF-8", 0));
    assert!(
        run.stderr.contains("missing: cannot read its metadata"),
        "{}",
        run.stderr
    );
    assert_eq!(run.code(), Some(2));
}

#[test]
fn errors_are_counted_over_the_whole_file() {
    // A long UTF-8 file with bad bytes far beyond what detection samples.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut bytes = Vec::new();
    while bytes.len() < 1024 * 1024 {
        bytes.extend_from_slice("Grüße aus Köln, naïve café.\n".as_bytes());
    }
    for _ in 0..3 {
        bytes.extend_from_slice(b"bad \xFF byte\n");
    }
    let file = dir.path().join("long.txt");
    fs::write(&file, &bytes).expect("a file");
    let run = scan(&[&file]);
    assert_eq!(run.code(), Some(0), "{}", run.stderr);
    let lines = lines(&run);
    assert_eq!(lines[0].encoding, "UTF-8");
    assert_eq!(lines[0].errors, 3);
}

#[test]
fn no_path_is_a_usage_error() {
    let run = run(["scan"], b"");
    assert_eq!(run.code(), Some(2), "{}", run.stderr);
}

#[cfg(target_os = "linux")]
#[test]
fn an_unreadable_file_does_not_stop_the_scan() {
    // Reading a process's memory at offset 0 fails (nothing is mapped
    // there), even for root: a regular file that cannot be read.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let good = dir.path().join("good.txt");
    fs::write(&good, "text\n").expect("a file");
    let run = scan(&[Path::new("/proc/self/mem"), &good]);
    let lines = lines(&run);
    assert_eq!(lines.len(), 1, "{}", run.stdout_text());
    assert_eq!(lines[0].path, good.to_str().expect("UTF-8"));
    assert!(
        run.stderr
            .starts_with("mojiscope: /proc/self/mem: cannot read: "),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .ends_with("1 entry could not be read (1 file scanned)\n"),
        "{}",
        run.stderr
    );
    assert_eq!(run.code(), Some(2));
}

/// The lines of `bytes` up to about `limit` bytes, whole.
fn whole_lines(bytes: &[u8], limit: usize) -> &[u8] {
    let end = bytes[..limit.min(bytes.len())]
        .iter()
        .rposition(|&byte| byte == b'\n')
        .map_or(0, |newline| newline + 1);
    &bytes[..end]
}

#[test]
fn a_file_in_two_encodings_is_mixed_with_the_segments_detect_finds() {
    let Some(data) = detect_dev() else { return };
    // Real French in UTF-8, then real German in windows-1252.
    let french = fs::read(data.join("UTF-8/fr-gotext-candide-utf-8.txt")).expect("a real file");
    let german = fs::read(data.join("windows-1252/de-emacs-TUTORIAL.de")).expect("a real file");
    let mut bytes = whole_lines(&french, 6000).to_vec();
    let boundary = bytes.len() as u64;
    bytes.extend_from_slice(whole_lines(&german, 6000));
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mixed = dir.path().join("mixed.txt");
    fs::write(&mixed, &bytes).expect("a file");
    let plain = dir.path().join("plain.txt");
    fs::write(&plain, whole_lines(&german, 6000)).expect("a file");

    let text = scan(&[dir.path()]);
    assert_eq!(text.code(), Some(0), "{}", text.stderr);
    let lines = lines(&text);
    assert_eq!(lines.len(), 2);
    assert!(lines[0].notes.contains(&"mixed".to_owned()), "{lines:?}");
    assert!(!lines[1].notes.contains(&"mixed".to_owned()), "{lines:?}");

    let json = scan(&[Path::new("--json"), dir.path()]);
    let objects: serde_json::Value =
        serde_json::from_slice(&json.stdout).expect("one JSON document");
    let segments: Vec<(u64, u64, String)> = objects[0]["segments"]
        .as_array()
        .expect("segments")
        .iter()
        .map(|segment| {
            (
                segment["start"].as_u64().expect("start"),
                segment["end"].as_u64().expect("end"),
                segment["encoding"].as_str().expect("encoding").to_owned(),
            )
        })
        .collect();
    assert_eq!(
        segments,
        [
            (0, boundary, "UTF-8".to_owned()),
            (boundary, bytes.len() as u64, "windows-1252".to_owned())
        ]
    );
    // As `detect --segments` prints them.
    let detect = run([Path::new("detect"), Path::new("--segments"), &mixed], b"");
    let printed: Vec<(u64, u64, String)> = detect
        .stdout_text()
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            (
                fields[0].parse().expect("START"),
                fields[1].parse().expect("END"),
                fields[2].to_owned(),
            )
        })
        .collect();
    assert_eq!(segments, printed);
    // A file in one encoding is one segment, the whole of it.
    let size = objects[1]["size"].as_u64().expect("size");
    assert_eq!(objects[1]["segments"][0]["end"], size);
    assert_eq!(objects[1]["segments"].as_array().map(Vec::len), Some(1));
}
