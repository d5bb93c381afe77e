//! Helpers for the end-to-end tests of the `mojiscope` binary, which live in
//! `tests/tests/`.
//!
//! The tests run the real binary. It is found beside the test executables:
//! `target/<profile>/mojiscope`, which `cargo test --workspace` builds (the
//! `mojiscope` package's own smoke test makes Cargo build it). Set
//! `MOJISCOPE_BIN` to test another build.

#![forbid(unsafe_code)]

use std::ffi::OsStr;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;

/// The `mojiscope` binary under test.
///
/// # Panics
/// If it does not exist, with a message saying how to build it.
pub fn binary() -> PathBuf {
    if let Some(path) = std::env::var_os("MOJISCOPE_BIN") {
        let path = PathBuf::from(path);
        assert!(
            path.is_file(),
            "MOJISCOPE_BIN={} is not a file",
            path.display()
        );
        return path;
    }
    let test_executable = std::env::current_exe().expect("the test executable has a path");
    // target/<profile>/deps/<test> -> target/<profile>/mojiscope
    let path = test_executable
        .parent()
        .and_then(|deps| deps.parent())
        .expect("test executables live in target/<profile>/deps")
        .join(format!("mojiscope{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "the mojiscope binary is not at {}: run the tests with `cargo test --workspace` \
         (or `cargo build -p mojiscope` first), or set MOJISCOPE_BIN",
        path.display()
    );
    path
}

/// A `Command` for the binary with these arguments.
pub fn command<I, S>(args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = Command::new(binary());
    command.args(args);
    command
}

/// What a run of the binary did.
#[derive(Debug)]
pub struct Run {
    /// The exit status.
    pub status: ExitStatus,
    /// Everything written to standard output.
    pub stdout: Vec<u8>,
    /// Everything written to standard error, lossily as text.
    pub stderr: String,
}

impl Run {
    /// The exit code (`None` if a signal ended the process).
    pub fn code(&self) -> Option<i32> {
        self.status.code()
    }

    /// Standard output as text.
    ///
    /// # Panics
    /// If it is not UTF-8.
    pub fn stdout_text(&self) -> &str {
        std::str::from_utf8(&self.stdout).expect("stdout is UTF-8")
    }

    /// Asserts exit status 0 and nothing on standard error.
    ///
    /// # Panics
    /// If not.
    #[track_caller]
    pub fn assert_success(&self) -> &Self {
        assert_eq!(self.code(), Some(0), "exit status; stderr: {}", self.stderr);
        assert_eq!(self.stderr, "", "nothing on stderr");
        self
    }

    /// Asserts exit status `code` and a one-line message on standard error
    /// that contains each of `parts`, and returns the message.
    ///
    /// # Panics
    /// If not.
    #[track_caller]
    pub fn assert_failure(&self, code: i32, parts: &[&str]) -> &str {
        assert_eq!(
            self.code(),
            Some(code),
            "exit status; stderr: {}",
            self.stderr
        );
        assert_no_panic(&self.stderr);
        let message = self
            .stderr
            .strip_suffix('\n')
            .expect("the message ends in a newline");
        assert!(!message.contains('\n'), "one line: {:?}", self.stderr);
        assert!(message.starts_with("mojiscope: "), "prefixed: {message:?}");
        for part in parts {
            assert!(
                message.contains(part),
                "{message:?} should contain {part:?}"
            );
        }
        message
    }
}

/// Asserts that standard error shows no Rust panic or backtrace.
///
/// # Panics
/// If it does.
#[track_caller]
pub fn assert_no_panic(stderr: &str) {
    assert!(
        !stderr.contains("panicked")
            && !stderr.contains("RUST_BACKTRACE")
            && !stderr.contains("stack backtrace"),
        "a panic: {stderr}"
    );
}

/// Runs the binary with `args`, `stdin` as its standard input.
///
/// # Panics
/// If the binary cannot be run.
pub fn run<I, S>(args: I, stdin: &[u8]) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let child = command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    finish(child, stdin)
}

/// Feeds `stdin` to a spawned child (from another thread, so that a large
/// input and output cannot deadlock) and collects what it did.
///
/// # Panics
/// If the child cannot be waited for.
pub fn finish(mut child: Child, stdin: &[u8]) -> Run {
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let output = thread::scope(|scope| {
        thread::Builder::new()
            .name("stdin-feeder".to_owned())
            .spawn_scoped(scope, move || {
                // The binary may stop reading early (at an error); that is
                // its business, not a test failure.
                pipe.write_all(stdin).ok();
            })
            .expect("a thread can be spawned");
        child
            .wait_with_output()
            .expect("the binary can be waited for")
    });
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_no_panic(&stderr);
    Run {
        status: output.status,
        stdout: output.stdout,
        stderr,
    }
}

/// A small deterministic pseudo-random generator (xorshift64*), so that
/// generated inputs are the same on every run.
#[derive(Clone, Debug)]
pub struct Xorshift(u64);

impl Xorshift {
    /// A generator from a non-zero seed.
    pub fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// `len` random bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| (self.next_u64() >> 56) as u8).collect()
    }
}

/// A sample of text from many scripts, for encoders to pick what they can
/// encode: Latin, Greek, Cyrillic, Hebrew, Arabic, Thai, CJK, kana, Hangul,
/// symbols, an emoji, and the characters that trip encoders up (the yen
/// sign, the overline, half-width katakana, the euro sign).
pub const SAMPLE_TEXT: &str = "Plain ASCII text, digits 0123456789 and ~!@#$%^&*()_+{}|:\"<>?\n\
    café naïve Ærø Ça ñ ß ÿ œ Š ž ¥ ‾ € £ © ® ° ± µ ¶ · ¼ ½ ¾\n\
    Ελληνικά αβγ Кириллица ЁЖЩ Ґґ Її עברית العربية ไทย\n\
    日本語のテキスト、カタカナ・ひらがな。ｶﾀｶﾅ 漢字 鷗 髙 﨑 〜 ～ ①\n\
    中文简体 繁體中文 香港 臺灣 𠀋 한국어 텍스트 가나다 \u{1F600}\n";

/// The characters of [`SAMPLE_TEXT`] that `round_trips` accepts (an
/// encoding can encode, and decodes back to themselves), in order.
pub fn encodable_sample(round_trips: impl Fn(char) -> bool) -> String {
    SAMPLE_TEXT.chars().filter(|&c| round_trips(c)).collect()
}
