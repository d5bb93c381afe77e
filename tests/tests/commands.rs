//! `--version`, `--help`, no arguments, a file or a folder without a
//! subcommand, `label` and `encodings`.

use std::collections::HashSet;
use std::process::Stdio;

use mojiscope_tests::{Run, command, finish, run};

#[test]
fn version_is_the_package_version() {
    let run = run(["--version"], b"");
    run.assert_success();
    assert_eq!(run.stdout_text(), "mojiscope 0.1.0\n");
}

#[test]
fn help_lists_the_subcommands_with_descriptions() {
    let run = run(["--help"], b"");
    run.assert_success();
    let help = run.stdout_text();
    for command in [
        "label",
        "encodings",
        "decode",
        "encode",
        "convert",
        "inspect",
    ] {
        let line = help
            .lines()
            .find(|line| line.trim_start().starts_with(&format!("{command} ")))
            .unwrap_or_else(|| panic!("no line for {command} in:\n{help}"));
        let description = line.trim_start()[command.len()..].trim();
        assert!(
            description.len() > 10,
            "{command} has a description: {line:?}"
        );
    }
}

#[test]
fn no_arguments_print_the_help_and_exit_2() {
    let run = run::<[&str; 0], _>([], b"");
    assert_eq!(run.code(), Some(2));
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("Usage:"), "{}", run.stderr);
    assert!(run.stderr.contains("decode"), "{}", run.stderr);
}

/// Runs `mojiscope PATH` where no display is (the desktop app would open
/// PATH on one).
fn without_a_display(path: &str) -> Run {
    let child = command([path])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    finish(child, b"")
}

#[test]
fn a_file_without_a_subcommand_and_no_display_suggests_decode() {
    let run = without_a_display("notes.txt");
    run.assert_failure(
        2,
        &["no display", "desktop app", "mojiscope decode notes.txt"],
    );
    assert!(run.stdout.is_empty());
}

#[test]
fn a_folder_without_a_subcommand_and_no_display_suggests_scan() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let path = dir.path().to_str().expect("a UTF-8 path");
    let run = without_a_display(path);
    run.assert_failure(2, &["no display", &format!("mojiscope scan {path}")]);
    assert!(run.stdout.is_empty());
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["decode", "--bogus"][..],
        &["decode", "--errors", "html"],
        &["encode", "--errors", "replacement"],
        &["convert", "--from", "utf-8", "--to", "utf-8", "in.txt"],
        &["label"],
        &["label", "a", "b"],
    ] {
        let run = run(args, b"");
        assert_eq!(run.code(), Some(2), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.starts_with("error: "),
            "{args:?}: {}",
            run.stderr
        );
        assert!(run.stdout.is_empty());
    }
}

#[test]
fn label_prints_the_encoding_name() {
    for (label, name) in [
        ("utf8", "UTF-8"),
        ("latin1", "windows-1252"),
        ("ascii", "windows-1252"),
        ("iso-8859-1", "windows-1252"),
        ("sjis", "Shift_JIS"),
        ("x-sjis", "Shift_JIS"),
        ("x-gbk", "GBK"),
        ("gb2312", "GBK"),
        ("big5-hkscs", "Big5"),
        ("korean", "EUC-KR"),
        ("utf-16", "UTF-16LE"),
        ("unicodefffe", "UTF-16BE"),
        ("iso-2022-kr", "replacement"),
        ("x-user-defined", "x-user-defined"),
        ("ISO-8859-8-I", "ISO-8859-8-I"),
        ("csisolatin9", "ISO-8859-15"),
    ] {
        let run = run(["label", label], b"");
        run.assert_success();
        assert_eq!(run.stdout_text(), format!("{name}\n"), "label {label}");
    }
}

#[test]
fn label_trims_ascii_whitespace_and_ignores_ascii_case() {
    for label in [" \t\n\x0C\rSHIFT_jis \n", "Shift_JIS", "sHiFt_JiS\t"] {
        let run = run(["label", label], b"");
        run.assert_success();
        assert_eq!(run.stdout_text(), "Shift_JIS\n", "label {label:?}");
    }
}

#[test]
fn unknown_labels_exit_2() {
    // Vertical tab and no-break space are not ASCII whitespace; "ſ" and "K"
    // (Kelvin) are not ASCII case variants; "latin-1" is not a label.
    for label in [
        "latin-1",
        "",
        "\x0Butf-8",
        "\u{A0}utf-8",
        "utf-8\u{A0}",
        "ſjis",
        "\u{212A}oi8-r",
        "utf_8",
    ] {
        let run = run(["label", label], b"");
        run.assert_failure(2, &["unknown encoding label"]);
        assert!(run.stdout.is_empty(), "label {label:?}");
    }
}

#[test]
fn encodings_lists_40_encodings_under_7_headings() {
    let run = run(["encodings"], b"");
    run.assert_success();
    let text = run.stdout_text();
    assert!(
        text.starts_with(
            "The Encoding\n  UTF-8\tunicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8\n\
             Legacy single-byte encodings\n  IBM866\t866 cp866 csibm866 ibm866\n"
        ),
        "{text}"
    );
    let headings: Vec<&str> = text.lines().filter(|line| !line.starts_with(' ')).collect();
    assert_eq!(
        headings,
        [
            "The Encoding",
            "Legacy single-byte encodings",
            "Legacy multi-byte Chinese (simplified) encodings",
            "Legacy multi-byte Chinese (traditional) encodings",
            "Legacy multi-byte Japanese encodings",
            "Legacy multi-byte Korean encodings",
            "Legacy miscellaneous encodings",
        ]
    );
    let mut names = Vec::new();
    let mut labels = HashSet::new();
    for line in text.lines().filter(|line| line.starts_with(' ')) {
        let entry = line.strip_prefix("  ").expect("two spaces of indent");
        let (name, label_list) = entry.split_once('\t').expect("NAME<TAB>labels");
        assert!(
            !label_list.is_empty() && !label_list.contains("  "),
            "{line:?}"
        );
        for label in label_list.split(' ') {
            assert!(labels.insert(label), "label {label} printed twice");
            // `encoding_rs`, an independent implementation, agrees on each label.
            let oracle = encoding_rs::Encoding::for_label(label.as_bytes())
                .unwrap_or_else(|| panic!("encoding_rs knows label {label}"));
            assert_eq!(oracle.name(), name, "label {label}");
        }
        names.push(name);
    }
    assert_eq!(names.len(), 40);
    let core_names: Vec<&str> = mojiscope_core::ALL
        .iter()
        .map(|encoding| encoding.name())
        .collect();
    assert_eq!(names, core_names, "the standard's order");
    let label_count: usize = mojiscope_core::ALL
        .iter()
        .map(|encoding| encoding.labels().len())
        .sum();
    assert_eq!(labels.len(), label_count);
    assert_eq!(names.last(), Some(&"x-user-defined"));
}
