//! The folder view's "Convert to UTF-8…" (or another encoding): the files
//! chosen, each checked before anything is written ([`FileCheck`]: its
//! decoding errors, the characters the target cannot encode, whether the
//! bytes written read back as the text), then each written as `convert`
//! writes (a temporary file beside it renamed over it: whole or not at
//! all, through [`save`]), and a report of what became of each.
//!
//! Nothing is lost by surprise: a file whose conversion would lose
//! something (decoding errors that become U+FFFD, characters written as
//! `&#N;` references) is skipped unless the user ticks it, with that
//! consequence shown beside the box; a file that changed since its check
//! is skipped; a file already in the target encoding with nothing to
//! change is left as it is.

use std::fs;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::SystemTime;

use mojiscope_core::{BomHandling, EncodeErrorMode, Encoding, bom_sniff};

use crate::model::document::FileBytes;
use crate::model::folder::FolderRow;
use crate::model::jobs::{Repaint, Runner, Worker};
use crate::model::save::{
    PassOptions, SaveFailure, SaveRequest, TextSource, WriteOptions, preview, save,
};
use crate::model::wording::{plural, reason};

/// Events wait here until the window drains them.
const CHANNEL_CAPACITY: usize = 64;

/// What a file's conversion would do, found before anything is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileCheck {
    /// The encoding its bytes are decoded with: the one chosen, unless a
    /// byte order mark picks another.
    pub decoded_as: &'static Encoding,
    /// The U+FFFD decoding errors put in the text.
    pub decoding_errors: u64,
    /// The characters the target encoding cannot encode.
    pub unencodable: u64,
    /// Whether the bytes written read back as exactly the text.
    pub round_trips: bool,
    /// Whether the file already holds exactly the bytes a conversion
    /// would write.
    pub unchanged: bool,
    /// The file as it was checked: its size and modification time.
    stamp: Stamp,
}

/// A file's size and modification time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    size: u64,
    modified: Option<SystemTime>,
}

impl Stamp {
    fn of(path: &std::path::Path) -> std::io::Result<Stamp> {
        let metadata = fs::metadata(path)?;
        Ok(Stamp {
            size: metadata.len(),
            modified: metadata.modified().ok(),
        })
    }
}

impl FileCheck {
    /// Whether converting loses anything.
    pub fn is_lossy(&self) -> bool {
        self.decoding_errors > 0 || self.unencodable > 0 || !self.round_trips
    }

    /// What converting loses, in words ("3 decoding errors become U+FFFD"),
    /// or `None` if nothing.
    pub fn consequence(&self, target: &'static Encoding) -> Option<String> {
        let mut parts = Vec::new();
        if self.decoding_errors > 0 {
            parts.push(format!(
                "{} {} U+FFFD",
                plural(self.decoding_errors, "decoding error", "decoding errors"),
                if self.decoding_errors == 1 {
                    "becomes"
                } else {
                    "become"
                },
            ));
        }
        if self.unencodable > 0 {
            parts.push(format!(
                "{} not in {} {} written as &#N;",
                plural(self.unencodable, "character", "characters"),
                target.output_encoding().name(),
                if self.unencodable == 1 { "is" } else { "are" },
            ));
        }
        if parts.is_empty() && !self.round_trips {
            parts.push("the bytes written do not read back as the text".to_owned());
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// Where a file's check stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckState {
    /// Not yet checked (or checked anew after a change of encoding).
    Pending,
    /// Checked.
    Done(FileCheck),
    /// The file could not be read.
    Failed(String),
}

/// One file to convert.
#[derive(Clone, Debug)]
pub struct ConvertFile {
    /// Its path.
    pub path: PathBuf,
    /// Its path as the table shows it.
    pub name: String,
    /// The encoding to decode it with: detection's, unless changed.
    pub source: &'static Encoding,
    /// Its check.
    pub check: CheckState,
    /// Whether the user accepts what the conversion loses.
    pub accept_loss: bool,
    /// The encodings of its parts, if the scan found it in several: read
    /// whole in one of them, the others' parts come out garbled.
    pub mixed: Vec<&'static Encoding>,
}

/// What the conversion will do with a file, as things stand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Write it.
    Write,
    /// Leave it, and why.
    Skip(String),
}

impl ConvertFile {
    /// What the conversion will do with this file.
    pub fn plan(&self, target: &'static Encoding) -> Plan {
        match &self.check {
            CheckState::Pending => Plan::Skip("not checked yet".to_owned()),
            CheckState::Failed(why) => Plan::Skip(why.clone()),
            CheckState::Done(check) if check.unchanged && self.mixed.is_empty() => {
                Plan::Skip(format!(
                    "already in {}: nothing to change",
                    target.output_encoding().name()
                ))
            }
            CheckState::Done(_) => match self.consequence(target) {
                Some(loss) if !self.accept_loss => Plan::Skip(format!("{loss} (not ticked)")),
                _ => Plan::Write,
            },
        }
    }

    /// What converting this file loses, in words, once it is checked: its
    /// check's losses, and for a file in several encodings the parts read
    /// in the wrong one ("mixed: its UTF-8 part comes out garbled").
    pub fn consequence(&self, target: &'static Encoding) -> Option<String> {
        let CheckState::Done(check) = &self.check else {
            return None;
        };
        let mut parts: Vec<String> = check.consequence(target).into_iter().collect();
        let garbled: Vec<&str> = self
            .mixed
            .iter()
            .filter(|&&encoding| encoding != check.decoded_as)
            .map(|encoding| encoding.name())
            .collect();
        if !garbled.is_empty() {
            parts.push(format!(
                "mixed: its {} {} garbled",
                garbled.join(" and "),
                if garbled.len() == 1 {
                    "part comes out"
                } else {
                    "parts come out"
                }
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// What became of one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileOutcome {
    /// Written; where the file it replaced was kept, if it was.
    Written(Option<PathBuf>),
    /// Left as it was, and why.
    Skipped(String),
    /// Writing it failed (the file is as it was), and why.
    Failed(String),
}

/// The report at the end: what became of each file, in the list's order.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Each file's name and outcome.
    pub files: Vec<(String, FileOutcome)>,
    /// Whether the user stopped the conversion before the end.
    pub cancelled: bool,
}

impl Report {
    /// "2 written, 3 skipped, 1 failed".
    pub fn summary(&self) -> String {
        let count = |kind: fn(&FileOutcome) -> bool| {
            self.files
                .iter()
                .filter(|(_, outcome)| kind(outcome))
                .count()
        };
        format!(
            "{} written, {} skipped, {} failed{}",
            count(|o| matches!(o, FileOutcome::Written(_))),
            count(|o| matches!(o, FileOutcome::Skipped(_))),
            count(|o| matches!(o, FileOutcome::Failed(_))),
            if self.cancelled { " (stopped)" } else { "" }
        )
    }
}

/// The jobs of a conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum ConvertJob {
    Check,
    Write,
}

/// What the jobs report.
#[derive(Debug)]
enum ConvertEvent {
    /// File `index` was checked, decoded with `source`.
    Checked {
        index: usize,
        source: &'static Encoding,
        state: CheckState,
    },
    /// File `index` was written, skipped or failed.
    Converted { index: usize, outcome: FileOutcome },
    /// Every file has its outcome.
    Finished,
    /// The job failed (a bug).
    Failed(String),
}

/// A batch conversion: the files, their checks, the writing and the report.
pub struct BatchConvert {
    runner: Runner<ConvertJob, ConvertEvent>,
    /// The encoding written.
    pub target: &'static Encoding,
    /// Whether each file replaced is kept as `NAME~`.
    pub backup: bool,
    /// The files, in the table's order.
    pub files: Vec<ConvertFile>,
    /// The rows chosen that are not text files, and why they are left out.
    pub left_out: Vec<(String, String)>,
    /// The outcomes so far, while writing and after.
    outcomes: Vec<Option<FileOutcome>>,
    /// Whether the files are being written.
    pub writing: bool,
    /// The report, once the writing is over.
    pub report: Option<Report>,
    /// Why a job failed, if one did.
    pub failure: Option<String>,
}

impl std::fmt::Debug for BatchConvert {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BatchConvert")
            .field("target", &self.target.name())
            .field("files", &self.files.len())
            .field("writing", &self.writing)
            .finish_non_exhaustive()
    }
}

impl BatchConvert {
    /// A conversion of `rows` into `target` (text files only; the others
    /// are left out and listed), checking them at once.
    pub fn new<'a>(
        rows: impl IntoIterator<Item = &'a FolderRow>,
        target: &'static Encoding,
        repaint: Repaint,
    ) -> BatchConvert {
        let mut files = Vec::new();
        let mut left_out = Vec::new();
        for row in rows {
            let Some(encoding) = row.scan().and_then(|scan| scan.encoding) else {
                let why = match row.scan() {
                    Some(_) => "not text".to_owned(),
                    None => row.notes_text().to_owned(),
                };
                left_out.push((row.name.clone(), why));
                continue;
            };
            let mut mixed: Vec<&'static Encoding> = Vec::new();
            if let Some(scan) = row.scan().filter(|scan| scan.is_mixed()) {
                for segment in &scan.segments {
                    if !mixed.contains(&segment.encoding) {
                        mixed.push(segment.encoding);
                    }
                }
            }
            files.push(ConvertFile {
                path: row.path.clone(),
                name: row.name.clone(),
                source: encoding,
                check: CheckState::Pending,
                accept_loss: false,
                mixed,
            });
        }
        let mut batch = BatchConvert {
            runner: Runner::new(CHANNEL_CAPACITY, repaint),
            target,
            backup: false,
            outcomes: vec![None; files.len()],
            files,
            left_out,
            writing: false,
            report: None,
            failure: None,
        };
        batch.check_pending();
        batch
    }

    /// Converts into `target` instead: every file is checked anew.
    pub fn set_target(&mut self, target: &'static Encoding) {
        if target == self.target || self.writing {
            return;
        }
        self.target = target;
        for file in &mut self.files {
            file.check = CheckState::Pending;
            file.accept_loss = false;
        }
        self.check_pending();
    }

    /// Decodes file `index` with `source` instead: it is checked anew, and
    /// any loss accepted before must be accepted again.
    pub fn set_source(&mut self, index: usize, source: &'static Encoding) {
        if self.writing {
            return;
        }
        if let Some(file) = self.files.get_mut(index)
            && file.source != source
        {
            file.source = source;
            file.check = CheckState::Pending;
            file.accept_loss = false;
            self.check_pending();
        }
    }

    /// Whether every file is checked.
    pub fn is_checked(&self) -> bool {
        self.files
            .iter()
            .all(|file| file.check != CheckState::Pending)
    }

    /// Whether nothing is running.
    pub fn is_idle(&self) -> bool {
        !self.runner.is_current(ConvertJob::Check) && !self.runner.is_current(ConvertJob::Write)
    }

    /// How many files the conversion will write as things stand.
    pub fn to_write(&self) -> usize {
        self.files
            .iter()
            .filter(|file| file.plan(self.target) == Plan::Write)
            .count()
    }

    /// Files with an outcome so far, while writing.
    pub fn written_so_far(&self) -> usize {
        self.outcomes.iter().flatten().count()
    }

    /// Starts writing: each file the plan writes, in order; the others are
    /// reported as skipped.
    pub fn start(&mut self) {
        if self.writing || self.report.is_some() || !self.is_checked() {
            return;
        }
        self.writing = true;
        self.outcomes = vec![None; self.files.len()];
        let jobs: Vec<(usize, ConvertFile, Plan)> = self
            .files
            .iter()
            .enumerate()
            .map(|(index, file)| (index, file.clone(), file.plan(self.target)))
            .collect();
        let target = self.target;
        let backup = self.backup;
        self.runner.start(
            ConvertJob::Write,
            "folder convert".to_owned(),
            ConvertEvent::Failed,
            move |worker| write_job(&jobs, target, backup, worker),
        );
    }

    /// Stops writing after the file in hand (which is written whole or not
    /// at all); the others are reported as skipped.
    pub fn cancel(&mut self) {
        self.runner.ask_to_stop(ConvertJob::Write);
    }

    /// Takes in what the jobs reported. Returns whether anything arrived.
    pub fn poll(&mut self) -> bool {
        let mut any = false;
        for _ in 0..CHANNEL_CAPACITY {
            let Some((job, event)) = self.runner.try_recv() else {
                break;
            };
            any = true;
            match event {
                ConvertEvent::Checked {
                    index,
                    source,
                    state,
                } => {
                    if let Some(file) = self.files.get_mut(index)
                        && file.source == source
                    {
                        file.check = state;
                    }
                    if self.is_checked() {
                        self.runner.forget(ConvertJob::Check);
                    }
                }
                ConvertEvent::Converted { index, outcome } => {
                    if let Some(slot) = self.outcomes.get_mut(index) {
                        *slot = Some(outcome);
                    }
                }
                ConvertEvent::Finished => {
                    self.runner.forget(job);
                    self.finish(false);
                }
                ConvertEvent::Failed(message) => {
                    self.runner.forget(job);
                    if job == ConvertJob::Write {
                        self.finish(true);
                    }
                    self.failure = Some(message);
                }
            }
        }
        any
    }

    /// The report of what the writing did; a file without an outcome was
    /// not reached.
    fn finish(&mut self, stopped: bool) {
        let mut cancelled = stopped;
        let files = self
            .files
            .iter()
            .zip(&self.outcomes)
            .map(|(file, outcome)| {
                let outcome = outcome.clone().unwrap_or_else(|| {
                    cancelled = true;
                    FileOutcome::Skipped("stopped before it".to_owned())
                });
                (file.name.clone(), outcome)
            })
            .chain(
                self.left_out
                    .iter()
                    .map(|(name, why)| (name.clone(), FileOutcome::Skipped(why.clone()))),
            )
            .collect();
        self.writing = false;
        self.report = Some(Report { files, cancelled });
    }

    /// Checks every file not yet checked, in one job (replacing a check
    /// running).
    fn check_pending(&mut self) {
        let pending: Vec<(usize, PathBuf, &'static Encoding)> = self
            .files
            .iter()
            .enumerate()
            .filter(|(_, file)| file.check == CheckState::Pending)
            .map(|(index, file)| (index, file.path.clone(), file.source))
            .collect();
        if pending.is_empty() {
            return;
        }
        let target = self.target;
        self.runner.start(
            ConvertJob::Check,
            "folder check".to_owned(),
            ConvertEvent::Failed,
            move |worker| {
                for (index, path, source) in pending {
                    if worker.is_cancelled() {
                        return;
                    }
                    let state = match check_file(&path, source, target, worker.cancel_flag()) {
                        Ok(Some(check)) => CheckState::Done(check),
                        Ok(None) => return,
                        Err(why) => CheckState::Failed(why),
                    };
                    if !worker.send(ConvertEvent::Checked {
                        index,
                        source,
                        state,
                    }) {
                        return;
                    }
                }
            },
        );
    }
}

/// The text a conversion writes: `convert`'s decode (a byte order mark
/// sniffed, and removed).
fn text_of(bytes: FileBytes, source: &'static Encoding) -> TextSource {
    TextSource::Decode {
        bytes,
        encoding: source,
        bom_handling: BomHandling::Sniff,
    }
}

/// Checks the file at `path` decoded with `source` and written in
/// `target`: the pass a save runs, writing nothing. `Ok(None)` when
/// cancelled.
///
/// # Errors
/// Why the file could not be read.
pub fn check_file(
    path: &std::path::Path,
    source: &'static Encoding,
    target: &'static Encoding,
    cancel: &AtomicBool,
) -> Result<Option<FileCheck>, String> {
    let stamp = Stamp::of(path).map_err(|error| format!("cannot read: {}", reason(&error)))?;
    let bytes = FileBytes::read(path).map_err(|error| error.to_string())?;
    let has_bom = bom_sniff(&bytes).is_some();
    let options = PassOptions {
        encoding: target,
        mode: EncodeErrorMode::Html,
        bom: false,
    };
    let Ok(preview) = preview::run(
        &text_of(bytes, source),
        &options,
        cancel,
        &mut |_, _| {},
        None,
    ) else {
        return Ok(None);
    };
    let decoded_as = preview.source_encoding.unwrap_or(source);
    let unencodable = preview.unencodable.len();
    Ok(Some(FileCheck {
        decoded_as,
        decoding_errors: preview.decoding_errors,
        unencodable,
        round_trips: preview.round_trip.is_lossless(),
        unchanged: !has_bom
            && decoded_as == target.output_encoding()
            && preview.decoding_errors == 0
            && unencodable == 0,
        stamp,
    }))
}

/// Writes each file its plan writes, in order.
fn write_job(
    jobs: &[(usize, ConvertFile, Plan)],
    target: &'static Encoding,
    backup: bool,
    worker: &Worker<ConvertJob, ConvertEvent>,
) {
    for (index, file, plan) in jobs {
        if worker.is_cancelled() {
            break;
        }
        let outcome = match plan {
            Plan::Skip(why) => FileOutcome::Skipped(why.clone()),
            Plan::Write => write_file(file, target, backup, worker.cancel_flag()),
        };
        worker.answer(ConvertEvent::Converted {
            index: *index,
            outcome,
        });
    }
    worker.answer(ConvertEvent::Finished);
}

/// Writes one file as its check found it: skipped if it changed since.
fn write_file(
    file: &ConvertFile,
    target: &'static Encoding,
    backup: bool,
    cancel: &AtomicBool,
) -> FileOutcome {
    let CheckState::Done(check) = &file.check else {
        return FileOutcome::Skipped("not checked".to_owned());
    };
    match Stamp::of(&file.path) {
        Ok(stamp) if stamp == check.stamp => {}
        Ok(_) => return FileOutcome::Skipped("changed since it was checked".to_owned()),
        Err(error) => return FileOutcome::Failed(format!("cannot read: {}", reason(&error))),
    }
    let bytes = match FileBytes::read(&file.path) {
        Ok(bytes) => bytes,
        Err(error) => return FileOutcome::Failed(error.to_string()),
    };
    // Fatal unless the user accepted characters written as references:
    // then no unencodable character can slip through unseen.
    let mode = if check.unencodable > 0 && file.accept_loss {
        EncodeErrorMode::Html
    } else {
        EncodeErrorMode::Fatal
    };
    let request = SaveRequest {
        source: text_of(bytes, file.source),
        pass: PassOptions {
            encoding: target,
            mode,
            bom: false,
        },
        target: file.path.clone(),
        write: WriteOptions {
            overwrite: true,
            backup,
        },
    };
    match save(&request, cancel, &mut |_, _| {}) {
        Ok(saved) if saved.preview.decoding_errors != check.decoding_errors => {
            // Written, but not as checked: say so rather than hide it.
            FileOutcome::Failed(format!(
                "written, but with {} where the check found {}",
                plural(
                    saved.preview.decoding_errors,
                    "decoding error",
                    "decoding errors"
                ),
                check.decoding_errors
            ))
        }
        Ok(saved) => FileOutcome::Written(saved.backup),
        Err(SaveFailure::Cancelled) => FileOutcome::Skipped("stopped before it".to_owned()),
        Err(failure) => FileOutcome::Failed(failure.to_string()),
    }
}
