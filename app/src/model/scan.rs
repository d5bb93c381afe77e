//! Whole trees: every regular file under some paths, what encoding each is
//! in and what is wrong with it ([`scan_tree`]), one file at a time
//! ([`scan_file`], [`scan_bytes`]). `mojiscope scan` prints it; a folder
//! view can show it.
//!
//! A file is judged as `mojiscope detect` and the verdict line judge it,
//! from the same functions: detection's ranking (a byte order mark
//! decides), what the file declares, UTF-16 without a byte order mark, the
//! mojibake probe of the start of the best reading; to that the scan adds
//! the error count of the best reading's decoder over the whole file, and
//! whether the file is text at all ([`check_text`] on the start of that
//! reading).
//!
//! The walk never follows a symbolic link and never opens anything but a
//! regular file or a directory: each entry's type comes from
//! `symlink_metadata` before it is opened, so a FIFO, a socket or a device
//! is reported as skipped instead of blocking the scan or reading a
//! device. Files are scanned on `workers` scoped threads, at most
//! [`IN_FLIGHT_PER_WORKER`] each in flight: the queue between the walk and
//! the workers is bounded, and so is the memory (each worker holds one
//! file at a time, read whole below
//! [`MAP_THRESHOLD`](crate::model::document::MAP_THRESHOLD), mapped from
//! there).
//! Results come back in the walk's order whatever order the workers finish
//! in: each directory's entries sorted by name, which is the order of
//! [`Path`]'s comparison.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread;

use mojiscope_core::repair::check_text;
use mojiscope_core::{
    BomHandling, ByteSpan, Declaration, DecodeErrorMode, Decoder, Detection, Encoding,
    ErrorCounter, Note, Segment, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, bom_sniff, detect,
    segments_with_detection,
};

use crate::model::document::{FileBytes, LoadError};
use crate::model::document_jobs::{Mojibake, mojibake_in, reading_start};

/// Files each worker may have waiting or in hand: enough to keep it busy
/// while the walk reads directories, few enough that the results waiting
/// for an earlier file to finish stay few.
pub const IN_FLIGHT_PER_WORKER: usize = 4;

/// The bytes decoded at a time when counting a file's errors.
const COUNT_CHUNK: usize = 1024 * 1024;

/// What the scan learned of one regular file.
#[derive(Clone, Debug)]
pub struct FileScan {
    /// Its size in bytes.
    pub size: u64,
    /// The encoding detection ranks first (the one a byte order mark picks,
    /// if the file starts with one), as `mojiscope detect` prints it; `None`
    /// when the file is not text ([`binary`](Self::binary)).
    pub encoding: Option<&'static Encoding>,
    /// Whether the file is not text: its best reading is full of control
    /// characters or U+FFFD ([`check_text`]). When every reading is (the
    /// bytes hold too many C0 controls read as windows-1252, UTF-16LE or
    /// UTF-16BE, which every ASCII-compatible encoding reads alike),
    /// detection does not run at all.
    pub binary: bool,
    /// How sure detection is of its best reading, from 0 to 1; 1 for a
    /// file no reading makes text of.
    pub confidence: f64,
    /// Whether detection's evidence is weak.
    pub weak: bool,
    /// The errors of the best reading's decoder over the whole file (a
    /// byte order mark is sniffed, as the standard's decode does); 0 for a
    /// file no reading makes text of.
    pub errors: u64,
    /// The encoding of the file's byte order mark, if it starts with one.
    pub bom: Option<&'static Encoding>,
    /// What the file declares of its own encoding, if anything.
    pub declared: Option<Declaration>,
    /// Whether the bytes are UTF-16 without a byte order mark.
    pub utf16_without_bom: bool,
    /// The mojibake the start of the best reading holds, if any (never
    /// looked for in a file that is not text or is UTF-16 without a byte
    /// order mark).
    pub mojibake: Option<Mojibake>,
    /// The runs of lines in one encoding, covering the file in order: one
    /// segment, the whole file in [`encoding`](Self::encoding), unless the
    /// file may be mixed (`may_be_mixed`) and segmentation splits it;
    /// none for a file that is not text.
    pub segments: Vec<Segment>,
}

impl FileScan {
    /// Whether the file is in more than one encoding.
    pub fn is_mixed(&self) -> bool {
        self.segments.len() > 1
    }

    /// The notes of `mojiscope scan`'s NOTES column, in its order: `bom`,
    /// `declared NAME`, `mojibake`, `mixed`, `utf-16-no-bom`, `weak`.
    pub fn notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = Vec::new();
        if self.bom.is_some() {
            notes.push("bom".to_owned());
        }
        if let Some(declared) = &self.declared {
            notes.push(format!("declared {}", declared.encoding.name()));
        }
        if self.mojibake.is_some() {
            notes.push("mojibake".to_owned());
        }
        if self.is_mixed() {
            notes.push("mixed".to_owned());
        }
        if self.utf16_without_bom {
            notes.push("utf-16-no-bom".to_owned());
        }
        if self.weak {
            notes.push("weak".to_owned());
        }
        notes
    }
}

/// Scans the bytes of one file.
pub fn scan_bytes(bytes: &[u8]) -> FileScan {
    if is_text_in_no_reading(bytes) {
        return FileScan {
            size: bytes.len() as u64,
            encoding: None,
            binary: true,
            confidence: 1.0,
            weak: false,
            errors: 0,
            bom: None,
            declared: None,
            utf16_without_bom: false,
            mojibake: None,
            segments: Vec::new(),
        };
    }
    let detection = detect(bytes);
    scan_with_detection(bytes, &detection)
}

/// Whether no encoding reads the start of `bytes` as text: windows-1252,
/// UTF-16LE and UTF-16BE all make them mostly control characters. An
/// ASCII-compatible encoding decodes the bytes below 0x20 as those same
/// controls, in as many characters or fewer, so if windows-1252's reading
/// is not text, neither is theirs. Much quicker than detection, which
/// files such as compressed archives would otherwise go through.
fn is_text_in_no_reading(bytes: &[u8]) -> bool {
    if bom_sniff(bytes).is_some() {
        return false;
    }
    [WINDOWS_1252, UTF_16LE, UTF_16BE]
        .into_iter()
        .all(|encoding| {
            let start = reading_start(bytes, encoding);
            check_text(&start).is_err()
        })
}

/// [`scan_bytes`] with detection's ranking of `bytes` already at hand.
pub fn scan_with_detection(bytes: &[u8], detection: &Detection) -> FileScan {
    let encoding = detection.best();
    let utf16_without_bom = detection.utf16_without_bom().is_some();
    let start = reading_start(bytes, encoding);
    let binary = check_text(&start).is_err();
    // The probe reads the override choice's decode, as the verdict line
    // does; it is the same text as `start` unless the bytes are UTF-16
    // without a byte order mark, where the verdict does not look either.
    let mojibake = if binary || utf16_without_bom {
        None
    } else {
        mojibake_in(&start)
    };
    let errors = count_errors(bytes, encoding);
    let bom = bom_sniff(bytes);
    let segments = if binary {
        Vec::new()
    } else if may_be_mixed(detection, bom, errors) {
        segments_with_detection(bytes, detection).segments
    } else {
        vec![Segment {
            byte_span: ByteSpan::new(0, bytes.len() as u64),
            encoding,
            margin: f64::INFINITY,
        }]
    };
    FileScan {
        size: bytes.len() as u64,
        encoding: (!binary).then_some(encoding),
        binary,
        confidence: detection.confidence,
        weak: detection.is_weak,
        errors,
        bom,
        declared: detection.declaration.clone(),
        utf16_without_bom,
        mojibake,
        segments,
    }
}

/// Whether a text file may be in more than one encoding, from what
/// detection and the error count already tell: only then is it split into
/// segments, which costs about another detection over the file's first
/// 2 MiB (windows spread over the rest beyond that: bounded whatever the
/// size). Not when a byte order mark decides the whole decode, when the
/// bytes are UTF-16 without one (never split by lines), when every byte is
/// ASCII (every reading is the same), nor when the file is UTF-8 without a
/// single decoding error: valid UTF-8 throughout reads as UTF-8 line by
/// line too. What is left is text in a legacy encoding with bytes beyond
/// ASCII, and UTF-8 with errors: the files a part in another encoding
/// would show up in.
fn may_be_mixed(detection: &Detection, bom: Option<&'static Encoding>, errors: u64) -> bool {
    let kept_whole = bom.is_some()
        || detection.utf16_without_bom().is_some()
        || detection
            .notes
            .iter()
            .any(|note| matches!(note, Note::Empty | Note::AsciiOnly));
    !kept_whole && (detection.best() != UTF_8 || errors > 0)
}

/// The errors of `encoding`'s decoder over all of `bytes`, a byte order
/// mark sniffed, a chunk at a time.
fn count_errors(bytes: &[u8], encoding: &'static Encoding) -> u64 {
    let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::Sniff);
    let mut counter = ErrorCounter::default();
    if bytes.is_empty() {
        let _ = decoder.decode(&[], true, &mut counter);
    }
    let mut chunks = bytes.chunks(COUNT_CHUNK).peekable();
    while let Some(chunk) = chunks.next() {
        let last = chunks.peek().is_none();
        // Replacement mode: the decoder consumes every chunk whole.
        let _ = decoder.decode(chunk, last, &mut counter);
    }
    counter.errors
}

/// Reads and scans the regular file at `path`: read whole below
/// [`MAP_THRESHOLD`](crate::model::document::MAP_THRESHOLD), mapped from
/// there.
///
/// # Errors
/// The file could not be opened or read.
pub fn scan_file(path: &Path) -> Result<FileScan, LoadError> {
    let bytes = FileBytes::read(path)?;
    Ok(scan_bytes(&bytes))
}

/// An entry the walk does not open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// A symbolic link: never followed.
    SymbolicLink,
    /// A named pipe: opening it could block until a writer comes.
    Fifo,
    /// A Unix domain socket.
    Socket,
    /// A block or character device.
    Device,
    /// Anything else that is neither a regular file nor a directory.
    Other,
}

impl Special {
    /// What it is, in words.
    pub fn describe(self) -> &'static str {
        match self {
            Special::SymbolicLink => "a symbolic link (not followed)",
            Special::Fifo => "a FIFO",
            Special::Socket => "a socket",
            Special::Device => "a device",
            Special::Other => "not a regular file",
        }
    }

    fn of(file_type: fs::FileType) -> Special {
        if file_type.is_symlink() {
            return Special::SymbolicLink;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt as _;
            if file_type.is_fifo() {
                return Special::Fifo;
            }
            if file_type.is_socket() {
                return Special::Socket;
            }
            if file_type.is_block_device() || file_type.is_char_device() {
                return Special::Device;
            }
        }
        Special::Other
    }
}

/// Why an entry could not be scanned.
#[derive(Debug)]
pub enum Unreadable {
    /// Its type could not be learned (`symlink_metadata` failed).
    Metadata(io::Error),
    /// A directory whose entries could not be listed.
    ListDirectory(io::Error),
    /// A regular file that could not be opened or read.
    Load(LoadError),
    /// Scanning the file failed: a bug, which the crash report describes.
    Crashed,
}

impl Unreadable {
    /// What failed, and the system's error.
    pub fn parts(&self) -> (&'static str, Option<&io::Error>) {
        match self {
            Unreadable::Metadata(error) => ("cannot read its metadata", Some(error)),
            Unreadable::ListDirectory(error) => ("cannot list the directory", Some(error)),
            Unreadable::Load(error) => match error {
                LoadError::Read { source, .. } => ("cannot read", Some(source)),
                LoadError::NotFound { source, .. }
                | LoadError::PermissionDenied { source, .. }
                | LoadError::Open { source, .. } => ("cannot open", Some(source)),
                LoadError::IsDirectory { .. } => ("cannot open", None),
            },
            Unreadable::Crashed => ("scanning it failed (a bug: please report it)", None),
        }
    }
}

/// One entry of a scan, in the walk's order.
#[derive(Debug)]
pub struct ScanItem {
    /// Its path: a path given, or one under it.
    pub path: PathBuf,
    /// What became of it.
    pub outcome: Outcome,
}

/// What became of an entry.
#[derive(Debug)]
pub enum Outcome {
    /// A regular file, scanned.
    Scanned(FileScan),
    /// Not opened.
    Skipped(Special),
    /// Not scanned: reading it failed.
    Unreadable(Unreadable),
}

/// What the walk finds before anything is opened.
enum Found {
    /// A regular file, to scan.
    File(PathBuf),
    /// An entry reported as it is.
    Done(ScanItem),
}

/// A depth-first walk of some paths, each directory's entries sorted by
/// name; only directories are read here, and only regular files come out
/// to be opened.
struct Walk {
    /// The entries still to visit, one list per directory open, the
    /// deepest last; each list reversed, so that `pop` gives the next.
    stack: Vec<Vec<PathBuf>>,
}

impl Walk {
    fn new(paths: &[PathBuf]) -> Walk {
        Walk {
            stack: vec![paths.iter().rev().cloned().collect()],
        }
    }
}

impl Iterator for Walk {
    type Item = Found;

    fn next(&mut self) -> Option<Found> {
        loop {
            let entries = self.stack.last_mut()?;
            let Some(path) = entries.pop() else {
                self.stack.pop();
                continue;
            };
            let done = |outcome| {
                Some(Found::Done(ScanItem {
                    path: path.clone(),
                    outcome,
                }))
            };
            let file_type = match fs::symlink_metadata(&path) {
                Ok(metadata) => metadata.file_type(),
                Err(error) => return done(Outcome::Unreadable(Unreadable::Metadata(error))),
            };
            if file_type.is_file() {
                return Some(Found::File(path));
            }
            if !file_type.is_dir() {
                return done(Outcome::Skipped(Special::of(file_type)));
            }
            match list_directory(&path) {
                Ok(mut children) => {
                    children.reverse();
                    self.stack.push(children);
                }
                Err(error) => return done(Outcome::Unreadable(Unreadable::ListDirectory(error))),
            }
        }
    }
}

/// The entries of the directory at `path`, sorted by name.
fn list_directory(path: &Path) -> io::Result<Vec<PathBuf>> {
    let mut names = Vec::new();
    for entry in fs::read_dir(path)? {
        names.push(entry?.file_name());
    }
    names.sort_unstable();
    Ok(names.into_iter().map(|name| path.join(name)).collect())
}

/// Scans every regular file under `paths` (each a file or a directory,
/// walked recursively) on `workers` threads, and calls `report` with each
/// entry in the walk's order: the paths in the order given, each
/// directory's entries sorted by name. Stops early, returning the error,
/// when `report` fails; stops early with `Ok` when `cancel` is set.
///
/// # Errors
/// The first error `report` returned.
pub fn scan_tree<E>(
    paths: &[PathBuf],
    workers: usize,
    cancel: &AtomicBool,
    mut report: impl FnMut(ScanItem) -> Result<(), E>,
) -> Result<(), E> {
    let workers = workers.max(1);
    let window = workers * IN_FLIGHT_PER_WORKER;
    let (job_sender, job_receiver) = mpsc::sync_channel::<(u64, PathBuf)>(window);
    let (result_sender, result_receiver) = mpsc::sync_channel::<(u64, ScanItem)>(window);
    let jobs = Mutex::new(job_receiver);
    // Set when the scan stops early: the workers drop what is left.
    let stop = AtomicBool::new(false);
    let work = |result_sender: mpsc::SyncSender<(u64, ScanItem)>| {
        loop {
            // A poisoned lock means another worker panicked, which the
            // scope passes on when it joins: stop taking work.
            let Ok(next) = jobs.lock().map(|jobs| jobs.recv()) else {
                return;
            };
            let Ok((number, path)) = next else { return };
            if stop.load(Ordering::Relaxed) || cancel.load(Ordering::Relaxed) {
                return;
            }
            let outcome = scan_path(&path);
            if result_sender
                .send((number, ScanItem { path, outcome }))
                .is_err()
            {
                return;
            }
        }
    };
    thread::scope(|scope| {
        let mut spawned = 0;
        for worker in 0..workers {
            let result_sender = result_sender.clone();
            let started = thread::Builder::new()
                .name(format!("scan:{worker}"))
                .spawn_scoped(scope, || work(result_sender));
            if started.is_ok() {
                spawned += 1;
            }
        }
        drop(result_sender);
        let mut walk = Walk::new(paths);
        let mut walked_all = false;
        let mut next_number: u64 = 0;
        let mut next_reported: u64 = 0;
        let mut waiting: BTreeMap<u64, ScanItem> = BTreeMap::new();
        let outcome = loop {
            if cancel.load(Ordering::Relaxed) {
                break Ok(());
            }
            // Walk on while there is room in the window.
            while !walked_all && next_number - next_reported < window as u64 {
                match walk.next() {
                    None => walked_all = true,
                    Some(Found::Done(item)) => {
                        waiting.insert(next_number, item);
                        next_number += 1;
                    }
                    Some(Found::File(path)) if spawned == 0 => {
                        // No thread could start: scan here.
                        let outcome = scan_path(&path);
                        waiting.insert(next_number, ScanItem { path, outcome });
                        next_number += 1;
                    }
                    Some(Found::File(path)) => {
                        // Never blocks: at most `window` files are in
                        // flight, and the queue holds that many.
                        if job_sender.send((next_number, path)).is_err() {
                            walked_all = true;
                            break;
                        }
                        next_number += 1;
                    }
                }
            }
            // Report what is next in order.
            let mut failed = None;
            while let Some(item) = waiting.remove(&next_reported) {
                next_reported += 1;
                if let Err(error) = report(item) {
                    failed = Some(error);
                    break;
                }
            }
            if let Some(error) = failed {
                break Err(error);
            }
            if walked_all && next_reported == next_number {
                break Ok(());
            }
            if next_reported == next_number {
                // Nothing in flight: walk on.
                continue;
            }
            match result_receiver.recv() {
                Ok((number, item)) => {
                    waiting.insert(number, item);
                }
                // Every worker is gone (they stop only when the queue
                // closes, or by a panic the scope passes on).
                Err(_) => break Ok(()),
            }
        };
        // The workers finish the file in hand, drop what is queued after
        // an early stop, and end when the queue closes.
        stop.store(true, Ordering::Relaxed);
        drop(job_sender);
        drop(result_receiver);
        outcome
    })
}

/// Scans the regular file at `path`, as the walk found it. A panic (a
/// bug) becomes this file's failure: the scan must not wait for ever for
/// a result that never comes.
fn scan_path(path: &Path) -> Outcome {
    match panic::catch_unwind(AssertUnwindSafe(|| scan_file(path))) {
        Ok(Ok(scan)) => Outcome::Scanned(scan),
        Ok(Err(error)) => Outcome::Unreadable(Unreadable::Load(error)),
        Err(_) => Outcome::Unreadable(Unreadable::Crashed),
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;
    use std::sync::atomic::AtomicBool;

    use mojiscope_core::{SHIFT_JIS, UTF_8};

    use super::*;

    #[test]
    fn a_byte_order_mark_decides_and_errors_are_counted_past_it() {
        let scan = scan_bytes(b"\xFF\xFEa\x00b\x00\x00\xDC");
        assert_eq!(scan.encoding, Some(UTF_16LE));
        assert_eq!(scan.bom, Some(UTF_16LE));
        assert_eq!(scan.errors, 1, "a lone trail surrogate");
        assert!(!scan.binary);
    }

    #[test]
    fn utf16_without_a_bom_is_named() {
        let bytes: Vec<u8> = "Plain English text, in UTF-16 big-endian, long enough to tell."
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        let scan = scan_bytes(&bytes);
        assert_eq!(scan.encoding, Some(UTF_16BE));
        assert!(scan.utf16_without_bom);
        assert_eq!(scan.bom, None);
        assert!(!scan.binary);
        assert_eq!(scan.errors, 0);
    }

    #[test]
    fn binary_is_not_text_and_empty_is() {
        let bytes: Vec<u8> = (0..4096_u32).map(|n| (n * 151 % 256) as u8).collect();
        assert!(scan_bytes(&bytes).binary);
        let empty = scan_bytes(b"");
        assert!(!empty.binary);
        assert_eq!((empty.size, empty.errors), (0, 0));
    }

    #[test]
    fn errors_are_the_best_readings_over_the_whole_file() {
        let (text, _, _) = encoding_rs::SHIFT_JIS.encode("日本語の文章です。いろはにほへと。");
        let mut bytes = text.into_owned();
        bytes.extend_from_slice(b"\x82");
        let scan = scan_bytes(&bytes);
        assert_eq!(scan.encoding, Some(SHIFT_JIS));
        assert_eq!(scan.errors, 1, "the truncated sequence at the end");
        let scan = scan_bytes("café".as_bytes());
        assert_eq!((scan.encoding, scan.errors), (Some(UTF_8), 0));
    }

    #[test]
    fn the_walk_is_sorted_and_skips_what_it_must_not_open() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let root = dir.path();
        fs::create_dir(root.join("b")).expect("a directory");
        fs::write(root.join("b").join("z.txt"), "z").expect("a file");
        fs::write(root.join("b.txt"), "b").expect("a file");
        fs::write(root.join("a.txt"), "a").expect("a file");
        #[cfg(unix)]
        std::os::unix::fs::symlink(root.join("b"), root.join("c-link")).expect("a link");
        let mut seen = Vec::new();
        let never = AtomicBool::new(false);
        let result: Result<(), ()> = scan_tree(&[root.to_owned()], 3, &never, |item| {
            let name = item
                .path
                .strip_prefix(root)
                .expect("under the root")
                .to_string_lossy()
                .replace('\\', "/");
            let what = match item.outcome {
                Outcome::Scanned(scan) => scan.encoding.map_or("binary", Encoding::name).to_owned(),
                Outcome::Skipped(special) => format!("{special:?}"),
                Outcome::Unreadable(_) => "unreadable".to_owned(),
            };
            seen.push(format!("{name} {what}"));
            Ok(())
        });
        assert_eq!(result, Ok(()));
        let mut expected = vec!["a.txt UTF-8", "b/z.txt UTF-8", "b.txt UTF-8"];
        if cfg!(unix) {
            expected.push("c-link SymbolicLink");
        }
        assert_eq!(seen, expected);
    }

    #[test]
    fn a_window_of_files_with_the_slowest_first_ends() {
        // Every file in flight at once, all finished before the first: the
        // scan must walk on (and find nothing more) rather than wait.
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut big = String::new();
        for n in 0..200_000 {
            let _ = writeln!(big, "line {n}");
        }
        fs::write(dir.path().join("0-big.txt"), big).expect("a file");
        let workers = 2;
        for n in 1..workers * IN_FLIGHT_PER_WORKER {
            fs::write(dir.path().join(format!("{n}.txt")), "small").expect("a file");
        }
        let never = AtomicBool::new(false);
        let mut reported = 0;
        let result: Result<(), ()> = scan_tree(&[dir.path().to_owned()], workers, &never, |_| {
            reported += 1;
            Ok(())
        });
        assert_eq!(result, Ok(()));
        assert_eq!(reported, workers * IN_FLIGHT_PER_WORKER);
    }

    #[test]
    fn a_failing_report_stops_the_scan() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        for n in 0..50 {
            fs::write(dir.path().join(format!("{n:02}.txt")), "text").expect("a file");
        }
        let never = AtomicBool::new(false);
        let mut reported = 0;
        let result = scan_tree(&[dir.path().to_owned()], 2, &never, |_| {
            reported += 1;
            if reported == 5 { Err("stop") } else { Ok(()) }
        });
        assert_eq!(result, Err("stop"));
        assert_eq!(reported, 5);
    }
}
