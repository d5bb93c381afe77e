//! File ▸ Open folder…, driven headless through `egui_kittest`: a tree of
//! real text in UTF-8, windows-1252 and Shift_JIS (from the detection dev
//! set, `../shared/data/detect-dev` beside the repository), a file in two
//! encodings, a binary file, an empty file and an unreadable one; the
//! table's rows and notes, sorting and filtering, opening a row, and the
//! batch conversion with its check, its backups and its report.

#[allow(dead_code, reason = "each suite uses part of the shared helpers")]
mod common;

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use common::run_until;
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use mojiscope::app::InspectorApp;
use mojiscope::model::command::Command;
use mojiscope::model::folder::{Column, SelectMode};
use mojiscope::model::folder_convert::{BatchConvert, CheckState, FileOutcome};
use mojiscope::model::settings::Settings;

/// The detection dev set, or `None` with a loud warning.
fn detect_dev() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/detect-dev");
    if dir.is_dir() {
        return Some(dir);
    }
    writeln!(
        std::io::stderr(),
        "WARNING: the detection dev set is not at {}; skipping the folder tests",
        dir.display()
    )
    .ok();
    None
}

/// The whole lines of `bytes` within its first `limit` bytes.
fn whole_lines(bytes: &[u8], limit: usize) -> Vec<u8> {
    let end = bytes[..limit.min(bytes.len())]
        .iter()
        .rposition(|&byte| byte == b'\n')
        .map_or(0, |newline| newline + 1);
    bytes[..end].to_vec()
}

fn is_root() -> bool {
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

/// The tree, under `archive/` in a temporary directory.
struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
    french: Vec<u8>,
    german: Vec<u8>,
    japanese: Vec<u8>,
    mixed: Vec<u8>,
}

fn tree(data: &Path) -> Tree {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let root = dir.path().join("archive");
    fs::create_dir_all(root.join("letters")).expect("directories");
    let read = |path: &str| fs::read(data.join(path)).expect("a real file");
    let french = whole_lines(&read("UTF-8/fr-gotext-candide-utf-8.txt"), 3000);
    let german = whole_lines(&read("windows-1252/de-emacs-TUTORIAL.de"), 3000);
    let japanese = whole_lines(&read("Shift_JIS/ja-vim-tutor.ja.sjis"), 3000);
    let mut mixed = french.clone();
    mixed.extend_from_slice(&german);
    fs::write(root.join("letters/candide.txt"), &french).expect("a file");
    fs::write(root.join("letters/tutorial-de.txt"), &german).expect("a file");
    fs::write(root.join("tutor-ja.txt"), &japanese).expect("a file");
    fs::write(root.join("mixed.txt"), &mixed).expect("a file");
    let noise: Vec<u8> = (0..4096_u32).map(|n| (n * 151 % 256) as u8).collect();
    fs::write(root.join("image.bin"), noise).expect("a file");
    fs::write(root.join("empty.txt"), b"").expect("a file");
    #[cfg(unix)]
    {
        let made = std::process::Command::new("mkfifo")
            .arg(root.join("pipe"))
            .status()
            .expect("mkfifo runs");
        assert!(made.success(), "mkfifo");
    }
    let locked = root.join("locked.txt");
    fs::write(&locked, "secret").expect("a file");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).expect("chmod 000");
    }
    Tree {
        _dir: dir,
        root,
        french,
        german,
        japanese,
        mixed,
    }
}

/// The app, with the folder scanned.
fn scanned(root: &Path) -> Harness<'static, InspectorApp> {
    let app = InspectorApp::new(Settings::default(), None);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .allow_missing_glyphs()
        .build_ui_state(|ui, app: &mut InspectorApp| app.ui(ui), app);
    harness.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::O,
    );
    harness.run_steps(3);
    assert!(harness.state().folder.open, "Ctrl+Shift+O opens the window");
    harness
        .state_mut()
        .push(Command::OpenFolder(root.to_path_buf()));
    run_until(&mut harness, InspectorApp::is_idle);
    harness
}

/// `mojiscope FOLDER` (the app started on a folder) opens the folder
/// window on it, as dropping the folder does; no file is open.
#[test]
fn the_app_started_on_a_folder_scans_it() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    fs::write(dir.path().join("a.txt"), "caf\u{e9}\n").expect("written");
    fs::write(dir.path().join("b.txt"), b"caf\xe9\n").expect("written");
    let harness = common::app_with(dir.path(), Settings::default());
    let app = harness.state();
    assert!(app.folder.open);
    assert!(app.session.document.is_none());
    assert_eq!(app.folder.scan.root.as_deref(), Some(dir.path()));
    let mut names: Vec<String> = app
        .folder
        .scan
        .table
        .rows()
        .iter()
        .map(|row| row.name.clone())
        .collect();
    names.sort();
    assert_eq!(names, ["a.txt", "b.txt"]);
}

/// The row named `name`, as an index into the table's rows.
fn row_index(harness: &Harness<'_, InspectorApp>, name: &str) -> usize {
    harness
        .state()
        .folder
        .scan
        .table
        .rows()
        .iter()
        .position(|row| row.name == name)
        .unwrap_or_else(|| panic!("no row {name}"))
}

/// The names of the rows shown, in order.
fn shown(harness: &Harness<'_, InspectorApp>) -> Vec<String> {
    let table = &harness.state().folder.scan.table;
    table
        .shown()
        .iter()
        .map(|&index| table.rows()[index].name.clone())
        .collect()
}

#[test]
#[expect(
    clippy::too_many_lines,
    reason = "one tree, and the table checked through in a row as a user goes"
)]
fn the_table_names_each_file_and_sorts_filters_and_opens_rows() {
    let Some(data) = detect_dev() else { return };
    let tree = tree(&data);
    let mut harness = scanned(&tree.root);
    let check_locked = !is_root();
    if !check_locked {
        writeln!(
            std::io::stderr(),
            "NOTE: running as root, which reads any file: the unreadable file is not checked"
        )
        .ok();
    }
    {
        let table = &harness.state().folder.scan.table;
        let row = |name: &str| {
            table
                .rows()
                .iter()
                .find(|row| row.name == name)
                .unwrap_or_else(|| panic!("no row {name}"))
        };
        assert_eq!(row("letters/candide.txt").encoding_text(), "UTF-8");
        assert_eq!(row("letters/candide.txt").errors(), Some(0));
        assert_eq!(
            row("letters/tutorial-de.txt").encoding_text(),
            "windows-1252"
        );
        assert_eq!(row("tutor-ja.txt").encoding_text(), "Shift_JIS");
        assert!(
            row("mixed.txt").notes_text().contains("mixed"),
            "{:?}",
            row("mixed.txt")
        );
        assert_eq!(row("image.bin").encoding_text(), "binary");
        assert_eq!(row("empty.txt").size(), Some(0));
        assert_ne!(row("empty.txt").encoding_text(), "binary");
        if check_locked {
            assert_eq!(row("locked.txt").encoding_text(), "unreadable");
            assert!(
                row("locked.txt").notes_text().starts_with("cannot open: "),
                "{}",
                row("locked.txt").notes_text()
            );
        }
        if cfg!(unix) {
            assert_eq!(row("pipe").encoding_text(), "skipped");
            assert_eq!(row("pipe").notes_text(), "skipped: a FIFO");
        }
        assert_eq!(table.rows().len(), if cfg!(unix) { 8 } else { 7 });
    }
    // Each row is readable as text by a screen reader.
    let spoken =
        harness.state().folder.scan.table.rows()[row_index(&harness, "tutor-ja.txt")].spoken();
    assert!(spoken.starts_with("tutor-ja.txt: Shift_JIS, "), "{spoken}");
    assert_eq!(
        harness.get_by_label(&spoken).accesskit_node().role(),
        egui::accesskit::Role::Row
    );
    let unreadable = usize::from(check_locked);
    harness.get_by_label(&format!(
        "Done: 7 of ~7 files · 1 skipped, {unreadable} unreadable"
    ));

    // Sorted by path at first; a click on Size sorts by it, a second
    // the other way round.
    assert_eq!(shown(&harness)[0], "empty.txt");
    harness.get_by_label("Sort by size").click();
    harness.run_steps(2);
    assert_eq!(
        harness.state().folder.scan.table.sort().column,
        Column::Size
    );
    assert_eq!(shown(&harness)[0], "empty.txt");
    harness.get_by_label("Sort by size, now ascending").click();
    harness.run_steps(2);
    assert_eq!(shown(&harness)[0], "mixed.txt", "the largest first");
    // Entries without a size come last either way.
    let without_size = 1 + usize::from(check_locked);
    let mut tail: Vec<String> = shown(&harness)
        .into_iter()
        .rev()
        .take(without_size)
        .collect();
    tail.sort();
    let expected: &[&str] = if check_locked {
        &["locked.txt", "pipe"]
    } else {
        &["pipe"]
    };
    assert_eq!(tail, expected, "no size: last");

    // The filter: text, then only the rows with errors or notes.
    harness.get_by_label("Filter the files").focus();
    harness.run_steps(2);
    harness
        .get_by_label("Filter the files")
        .type_text("letters/");
    harness.run_steps(3);
    let mut letters = shown(&harness);
    letters.sort();
    assert_eq!(letters, ["letters/candide.txt", "letters/tutorial-de.txt"]);
    harness.get_by_label("Filter the files").click();
    harness.run_steps(1);
    for _ in 0.."letters/".len() {
        harness.key_press(egui::Key::Backspace);
    }
    harness.get_by_label("Only with errors or notes").click();
    harness.run_steps(3);
    let problems = shown(&harness);
    assert!(problems.contains(&"mixed.txt".to_owned()), "{problems:?}");
    assert!(
        !problems.contains(&"letters/candide.txt".to_owned()),
        "{problems:?}"
    );
    harness.get_by_label("Only with errors or notes").click();
    harness.run_steps(3);
    assert_eq!(shown(&harness).len(), 8);

    // A click selects a row and gives it the keyboard; Down moves, Enter
    // opens the row in the inspector.
    let first = shown(&harness)[0].clone();
    let first_index = row_index(&harness, &first);
    let label = harness.state().folder.scan.table.rows()[first_index].spoken();
    harness.get_by_label(&label).click();
    harness.run_steps(3);
    assert_eq!(
        harness.state().folder.scan.table.cursor(),
        Some(first_index)
    );
    harness.key_press(egui::Key::ArrowDown);
    harness.run_steps(3);
    let second = shown(&harness)[1].clone();
    let second_index = row_index(&harness, &second);
    assert_eq!(
        harness.state().folder.scan.table.cursor(),
        Some(second_index)
    );
    assert!(harness.state().folder.scan.table.is_selected(second_index));
    harness.key_press(egui::Key::Enter);
    harness.run_steps(3);
    run_until(&mut harness, InspectorApp::is_idle);
    let open = harness
        .state()
        .session
        .document
        .as_ref()
        .map(|document| document.path.clone());
    assert_eq!(open, Some(tree.root.join(&second)));

    // Escape closes the window.
    harness.key_press(egui::Key::Escape);
    harness.run_steps(3);
    assert!(!harness.state().folder.open);
}

#[test]
#[expect(
    clippy::too_many_lines,
    reason = "one tree, converted twice in a row as a user would"
)]
fn converting_writes_exact_utf8_keeps_backups_and_skips_the_lossy_unless_ticked() {
    let Some(data) = detect_dev() else { return };
    let tree = tree(&data);
    let mut harness = scanned(&tree.root);
    for name in [
        "letters/tutorial-de.txt",
        "tutor-ja.txt",
        "mixed.txt",
        "image.bin",
        "letters/candide.txt",
    ] {
        let index = row_index(&harness, name);
        harness
            .state_mut()
            .folder
            .scan
            .table
            .select(index, SelectMode::Toggle);
    }
    harness.run_steps(2);
    harness.get_by_label("Convert to UTF-8…").click();
    harness.run_steps(3);
    run_until(&mut harness, |app| {
        app.folder
            .convert
            .as_ref()
            .is_some_and(BatchConvert::is_checked)
    });
    {
        let convert = harness.state().folder.convert.as_ref().expect("the dialog");
        let names: Vec<&str> = convert.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "letters/candide.txt",
                "letters/tutorial-de.txt",
                "mixed.txt",
                "tutor-ja.txt"
            ]
        );
        assert_eq!(
            convert.left_out,
            [("image.bin".to_owned(), "not text".to_owned())]
        );
        let mixed = &convert.files[2];
        let consequence = mixed
            .consequence(convert.target)
            .expect("the mixed file loses");
        assert!(consequence.contains("mixed: its "), "{consequence}");
        for file in [&convert.files[1], &convert.files[3]] {
            let CheckState::Done(check) = &file.check else {
                panic!("checked")
            };
            assert!(!check.is_lossy() && check.round_trips, "{file:?}");
        }
        assert_eq!(
            convert.to_write(),
            2,
            "German and Japanese; the UTF-8 one is unchanged"
        );
    }
    // The lossy file's box says what it costs.
    let tick = harness
        .get_all_by_role(egui::accesskit::Role::CheckBox)
        .find(|node| {
            node.accesskit_node()
                .label()
                .is_some_and(|label| label.starts_with("Convert anyway: "))
        })
        .map(|node| node.accesskit_node().label().unwrap_or_default())
        .expect("a box for the mixed file");
    assert!(tick.contains("mixed") || tick.contains("garbled"), "{tick}");
    harness
        .get_by_label("Keep a backup of each file replaced (NAME~)")
        .click();
    harness.run_steps(2);
    harness.get_by_label("Convert 2 files").click();
    harness.run_steps(3);
    run_until(&mut harness, |app| {
        app.folder
            .convert
            .as_ref()
            .is_some_and(|c| c.report.is_some())
    });
    let report = harness
        .state()
        .folder
        .convert
        .as_ref()
        .and_then(|c| c.report.clone())
        .expect("a report");
    assert_eq!(report.summary(), "2 written, 3 skipped, 0 failed");
    let outcome = |name: &str| {
        report
            .files
            .iter()
            .find(|(file, _)| file == name)
            .map_or_else(
                || panic!("{name} in the report"),
                |(_, outcome)| outcome.clone(),
            )
    };
    assert!(
        matches!(outcome("mixed.txt"), FileOutcome::Skipped(why) if why.contains("not ticked"))
    );
    assert!(
        matches!(outcome("letters/candide.txt"), FileOutcome::Skipped(why) if why.contains("nothing to change"))
    );
    assert!(matches!(outcome("image.bin"), FileOutcome::Skipped(_)));
    harness.get_by_label(&report.summary());

    // Exactly what the Encoding Standard's decoders give, in UTF-8.
    let german = tree.root.join("letters/tutorial-de.txt");
    let japanese = tree.root.join("tutor-ja.txt");
    let expect_german = encoding_rs::WINDOWS_1252
        .decode(&tree.german)
        .0
        .into_owned();
    let expect_japanese = encoding_rs::SHIFT_JIS.decode(&tree.japanese).0.into_owned();
    assert_eq!(
        fs::read(&german).expect("written"),
        expect_german.as_bytes()
    );
    assert_eq!(
        fs::read(&japanese).expect("written"),
        expect_japanese.as_bytes()
    );
    let backup = |path: &Path| {
        let mut name = path.as_os_str().to_owned();
        name.push("~");
        fs::read(PathBuf::from(name)).expect("a backup")
    };
    assert_eq!(backup(&german), tree.german);
    assert_eq!(backup(&japanese), tree.japanese);
    assert_eq!(
        fs::read(tree.root.join("mixed.txt")).expect("kept"),
        tree.mixed
    );
    assert_eq!(
        fs::read(tree.root.join("letters/candide.txt")).expect("kept"),
        tree.french
    );

    // Ticked, the mixed file is written, as its box said.
    harness.get_by_label("Close").click();
    harness.run_steps(3);
    assert!(harness.state().folder.convert.is_none());
    let mixed = row_index(&harness, "mixed.txt");
    harness
        .state_mut()
        .folder
        .scan
        .table
        .select(mixed, SelectMode::Only);
    harness.run_steps(2);
    harness.get_by_label("Convert to UTF-8…").click();
    harness.run_steps(3);
    run_until(&mut harness, |app| {
        app.folder
            .convert
            .as_ref()
            .is_some_and(BatchConvert::is_checked)
    });
    harness
        .get_all_by_role(egui::accesskit::Role::CheckBox)
        .find(|node| {
            node.accesskit_node()
                .label()
                .is_some_and(|label| label.starts_with("Convert anyway: "))
        })
        .expect("the box")
        .click();
    harness.run_steps(3);
    harness.get_by_label("Convert 1 file").click();
    harness.run_steps(3);
    run_until(&mut harness, |app| {
        app.folder
            .convert
            .as_ref()
            .is_some_and(|c| c.report.is_some())
    });
    let report = harness
        .state()
        .folder
        .convert
        .as_ref()
        .and_then(|c| c.report.clone())
        .expect("a report");
    assert_eq!(report.summary(), "1 written, 0 skipped, 0 failed");
    let convert = harness.state().folder.convert.as_ref().expect("the dialog");
    let source = convert.files[0].source;
    let expected = encoding_rs::Encoding::for_label(source.name().as_bytes())
        .expect("the same encoding")
        .decode_without_bom_handling(&tree.mixed)
        .0
        .into_owned();
    assert_eq!(
        fs::read(tree.root.join("mixed.txt")).expect("written"),
        expected.as_bytes()
    );
}
