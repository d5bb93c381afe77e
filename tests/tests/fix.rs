//! `mojiscope fix`: the repaired text on standard output or in OUT, the
//! explanation on standard error, and the guarantees about OUT.

use std::fs;
use std::path::PathBuf;

use mojiscope_tests::run;

/// A directory for one test.
struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("a temporary directory"),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn write(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.path(name);
        fs::write(&path, bytes).expect("the scratch directory is writable");
        path.to_str().expect("scratch paths are UTF-8").to_owned()
    }

    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(self.dir.path())
            .expect("the scratch directory is readable")
            .map(|entry| {
                entry
                    .expect("a directory entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    }
}

#[test]
fn repairs_the_examples_of_the_issue_to_stdout() {
    let scratch = Scratch::new();
    let input = scratch.write("notes.txt", "Ã©tÃ©\n–¾“ú‚Ì’©\nРњРѕСЃРєРІР°\n".as_bytes());
    let result = run(["fix", &input], b"");
    result.assert_success();
    assert_eq!(result.stdout_text(), "été\n明日の朝\nМосква\n");
}

#[test]
fn leaves_correct_text_and_ascii_byte_for_byte() {
    let text = "Plain ASCII,\tand été, SÃO PAULO, Москва, 東京 😀\r\n";
    let result = run(["fix", "-"], text.as_bytes());
    result.assert_success();
    assert_eq!(result.stdout, text.as_bytes());
}

#[test]
fn partial_damage_keeps_the_correct_lines() {
    let text = "id;name;city\n1;José;Málaga\n2;GarcÃ\u{ad}a;LeÃ³n\n3;Zoë;Zürich\n";
    let result = run(["fix", "-"], text.as_bytes());
    result.assert_success();
    assert_eq!(
        result.stdout_text(),
        "id;name;city\n1;José;Málaga\n2;García;León\n3;Zoë;Zürich\n"
    );
}

#[test]
fn explain_names_the_chain_and_the_spans_on_stderr() {
    let scratch = Scratch::new();
    let input = scratch.write("notes.txt", "ok\nL'ÃƒÂ©tÃƒÂ© et l'hiver\n".as_bytes());
    let result = run(["fix", "--explain", &input], b"");
    assert_eq!(result.code(), Some(0), "{}", result.stderr);
    assert_eq!(result.stdout_text(), "ok\nL'été et l'hiver\n");
    let lines: Vec<&str> = result.stderr.lines().collect();
    assert_eq!(
        lines,
        [
            format!("mojiscope: {input}: 1 change, undoing UTF-8 read as windows-1252, twice (1)"),
            format!(
                "mojiscope: {input}: line 2, byte offset 5: \"ÃƒÂ©tÃƒÂ©\" -> \"été\" (UTF-8 read as windows-1252, twice; confidence 0.92)"
            ),
        ],
        "{}",
        result.stderr
    );
}

#[test]
fn explain_says_when_there_is_nothing_to_repair() {
    let result = run(["fix", "--explain", "-"], "café\n".as_bytes());
    assert_eq!(result.code(), Some(0));
    assert_eq!(result.stdout_text(), "café\n");
    assert_eq!(result.stderr, "mojiscope: <stdin>: no mojibake found\n");
}

#[test]
fn lost_characters_are_marked_and_reported() {
    // "Í" is 0xC3 0x8D; Windows's windows-1252 has no 0x8D, so it became "?".
    let text = "BogotÃ¡, Ã?ndice, pÃºblico\n";
    let result = run(["fix", "-"], text.as_bytes());
    assert_eq!(result.code(), Some(0));
    assert_eq!(result.stdout_text(), "Bogotá, \u{FFFD}ndice, público\n");
    assert_eq!(
        result.stderr,
        "mojiscope: <stdin>: repaired 1 span, 1 character could not be recovered and is U+FFFD; --explain lists them\n"
    );
    let explained = run(["fix", "--explain", "-"], text.as_bytes());
    assert!(
        explained.stderr.contains("one of: ") && explained.stderr.contains('Í'),
        "{}",
        explained.stderr
    );
}

#[test]
fn bytes_that_did_not_decode_are_reported_not_lost_in_silence() {
    let scratch = Scratch::new();
    // UTF-8 mojibake with a byte that is not UTF-8, read as UTF-8 as asked,
    // and a U+FFFD the file holds as a character, which is not an error.
    let input = scratch.write(
        "broken.txt",
        b"\xEF\xBB\xBF\xC3\x83\xC2\xA9t\xC3\x83\xC2\xA9 \xFF ok \xEF\xBF\xBD \xE3\x81\n",
    );
    let output = scratch.path("fixed.txt");
    let result = run(
        [
            "fix",
            "--encoding",
            "utf-8",
            &input,
            "-o",
            output.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(result.code(), Some(0), "{}", result.stderr);
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        "été \u{FFFD} ok \u{FFFD} \u{FFFD}\n"
    );
    assert!(
        result.stderr.contains(
            "broken.txt: 2 byte sequences did not decode as UTF-8 (the first at byte offset 13); \
             each is U+FFFD in the output, and the bytes are lost"
        ),
        "{}",
        result.stderr
    );
    // Text that decodes says nothing of it.
    let result = run(["fix", "-"], "Ã©tÃ© \u{FFFD}\n".as_bytes());
    result.assert_success();
    assert!(
        !result.stderr.contains("did not decode"),
        "{}",
        result.stderr
    );
}

#[test]
fn encoding_says_how_to_read_the_file() {
    let scratch = Scratch::new();
    // UTF-8 "Grüße" read as windows-1252 once and saved as windows-1252.
    let input = scratch.write("latin1.txt", b"Gr\xC3\x83\xC2\xBC\xC3\x83\xC5\xB8e\n");
    let result = run(["fix", "--encoding", "utf-8", &input], b"");
    result.assert_success();
    assert_eq!(result.stdout_text(), "Grüße\n");
    // The same text as windows-1252 bytes: the repair uses the file's own
    // bytes, and "Grüße" comes back from "GrÃ¼ÃŸe".
    let input = scratch.write("cp1252.txt", b"Gr\xC3\xBC\xC3\x9Fe\n");
    let result = run(["fix", "--encoding", "latin1", &input], b"");
    result.assert_success();
    assert_eq!(result.stdout_text(), "Grüße\n");
    // A byte order mark decides, and is not written.
    let input = scratch.write("bom.txt", "\u{FEFF}Ã©tÃ©\n".as_bytes());
    let result = run(["fix", &input], b"");
    result.assert_success();
    assert_eq!(result.stdout_text(), "été\n");
}

#[test]
fn a_file_that_is_not_utf8_is_read_as_detection_says() {
    let scratch = Scratch::new();
    // windows-1251 Russian, with a line of UTF-8 mojibake re-saved in it
    // would not be valid: plain legacy text, repaired of nothing.
    let text = "Съешь же ещё этих мягких французских булок, да выпей чаю.\n";
    let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(text);
    let input = scratch.write("legacy.txt", &bytes);
    let result = run(["fix", &input], b"");
    assert_eq!(result.code(), Some(0), "{}", result.stderr);
    assert_eq!(result.stdout_text(), text);
    assert!(
        result
            .stderr
            .contains("legacy.txt: not UTF-8; read as windows-1251, which detection ranks first"),
        "{}",
        result.stderr
    );
    let result = run(["fix", "--encoding", "nonsense", &input], b"");
    result.assert_failure(2, &["unknown encoding label \"nonsense\""]);
}

#[test]
fn output_is_written_whole_and_never_over_an_existing_file() {
    let scratch = Scratch::new();
    let input = scratch.write("in.txt", "cafÃ© crÃ¨me\n".as_bytes());
    let output = scratch.path("out.txt");
    let output = output.to_str().expect("scratch paths are UTF-8");
    let result = run(["fix", &input, "-o", output], b"");
    result.assert_success();
    assert!(result.stdout.is_empty());
    assert_eq!(fs::read_to_string(output).unwrap(), "café crème\n");

    // A second run refuses to overwrite, and leaves no temporary file.
    scratch.write("in.txt", "Ã¼ber\n".as_bytes());
    let result = run(["fix", &input, "-o", output], b"");
    result.assert_failure(2, &["out.txt: already exists", "--force"]);
    assert_eq!(fs::read_to_string(output).unwrap(), "café crème\n");
    assert_eq!(scratch.names(), ["in.txt", "out.txt"]);

    let result = run(["fix", "--force", &input, "-o", output], b"");
    result.assert_success();
    assert_eq!(fs::read_to_string(output).unwrap(), "über\n");
    assert_eq!(scratch.names(), ["in.txt", "out.txt"]);

    // With --force a file can be repaired in place.
    let result = run(["fix", "--force", &input, "-o", &input], b"");
    result.assert_success();
    assert_eq!(fs::read_to_string(&input).unwrap(), "über\n");
}

#[test]
fn a_missing_input_writes_nothing() {
    let scratch = Scratch::new();
    let missing = scratch.path("missing.txt");
    let missing = missing.to_str().expect("scratch paths are UTF-8");
    let output = scratch.path("out.txt");
    let output = output.to_str().expect("scratch paths are UTF-8");
    let result = run(["fix", missing, "-o", output], b"");
    result.assert_failure(2, &["missing.txt: cannot open"]);
    assert!(scratch.names().is_empty(), "{:?}", scratch.names());
}

#[test]
fn input_that_is_not_text_is_declined_at_once_and_nothing_is_written() {
    let scratch = Scratch::new();
    let mut rng = mojiscope_tests::Xorshift::new(50);
    let input = scratch.write("random.bin", &rng.bytes(2 << 20));
    let output = scratch.path("out.txt");
    let started = std::time::Instant::now();
    let result = run(["fix", &input, "-o", output.to_str().unwrap()], b"");
    let message = result.assert_failure(2, &["random.bin: not text: ", "wrote nothing"]);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "{message}"
    );
    assert_eq!(scratch.names(), ["random.bin"]);
    let zeros = run(["fix", "-"], &vec![0; 100_000]);
    zeros.assert_failure(
        2,
        &["<stdin>: not text: 100.0% of its characters are control or private-use characters"],
    );
    assert!(zeros.stdout.is_empty());
}

#[test]
fn guesses_and_lost_characters_are_counted() {
    // A space standing for a lost no-break space ("Ã " for "à") is put back
    // as a guess, and the summary says how many.
    let text = "Il est allÃ© voilÃ  le travail, Ã  nos jours.\n";
    let result = run(["fix", "-"], text.as_bytes());
    assert_eq!(result.code(), Some(0), "{}", result.stderr);
    assert_eq!(
        result.stdout_text(),
        "Il est allé voilà le travail, à nos jours.\n"
    );
    assert!(
        result
            .stderr
            .contains("on a guess (a space taken for a lost no-break space)"),
        "{}",
        result.stderr
    );
    let explained = run(["fix", "--explain", "-"], text.as_bytes());
    assert!(
        explained
            .stderr
            .contains("a guess: U+0020 taken for U+00A0"),
        "{}",
        explained.stderr
    );
    // The counts close the list.
    let last = explained.stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("mojiscope: <stdin>: repaired ")
            && last.contains("on a guess")
            && !last.contains("--explain"),
        "{}",
        explained.stderr
    );
}

#[test]
fn a_large_file_and_a_long_stream_are_repaired_as_they_stream() {
    // 18 MB of damaged lines, more than is ever held at once: through a
    // mapped file to OUT, and through standard input to standard output.
    let line = "Ã©tÃ© Ã  la plage, cafÃ© crÃ¨me et Ãªtre lÃ \n";
    let fixed = "été à la plage, café crème et être là\n";
    let count = 18_000_000 / line.len();
    let scratch = Scratch::new();
    let input = scratch.write("big.txt", line.repeat(count).as_bytes());
    let output = scratch.path("big.fixed.txt");
    let result = run(["fix", &input, "-o", output.to_str().unwrap()], b"");
    assert_eq!(result.code(), Some(0), "{}", result.stderr);
    let written = fs::read_to_string(&output).unwrap();
    assert_eq!(written.len(), fixed.len() * count);
    assert!(written.lines().all(|repaired| repaired == fixed.trim_end()));
    let streamed = run(["fix", "-"], line.repeat(count).as_bytes());
    assert_eq!(streamed.code(), Some(0), "{}", streamed.stderr);
    assert_eq!(streamed.stdout, written.as_bytes());
}

#[test]
fn a_restored_byte_is_explained_as_such() {
    // Greek UTF-8 read as windows-1252 by a reader that dropped the bytes
    // it has no character for: "ρ" (CF 81) lost its 0x81. Where the word
    // makes it clear, the byte is restored and the explanation says so;
    // elsewhere the character stays U+FFFD.
    let text = "ÎŸ Î´ÏÏŒÎ¼Î¿Ï‚ Ï€ÏÎ¿Ï‚ Ï„Î·Î½ Ï€ÏŒÎ»Î·\n";
    let explained = run(["fix", "--explain", "-"], text.as_bytes());
    assert_eq!(explained.code(), Some(0), "{}", explained.stderr);
    assert!(explained.stdout_text().starts_with("Ο δρόμος "));
    assert!(
        explained
            .stderr
            .contains("a lost byte restored: U+0081 where it left no trace, making 'ρ'"),
        "{}",
        explained.stderr
    );
    assert!(
        explained
            .stderr
            .contains("on a guess (a lost no-break space or byte assumed back)"),
        "{}",
        explained.stderr
    );
}
