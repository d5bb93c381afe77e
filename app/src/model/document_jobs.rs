//! The open document's background work: whole-file error counts,
//! detection, each pane's analysis (with the row index for the primary
//! pane) and the repair of a pane's decode, each a job of the app's one
//! [`Runner`], with progress, cancellation and a repaint request when
//! something arrives.
//!
//! The window owns one [`DocumentJobs`]. It starts jobs for a [`Document`]
//! and drains [`JobEvent`]s with [`DocumentJobs::try_recv`] once per frame;
//! it never blocks. Every event carries the generation of the document it
//! was computed for, so results for a file that has since been reloaded can
//! be told apart.
//!
//! There is one job slot for the error counts, one for detection, one per
//! pane and one for the repair. Starting a job cancels the one in its slot,
//! and events of a replaced or cancelled job are dropped even if they were
//! already on their way: what comes out is always from the latest job of
//! each slot.

use std::fmt;
use std::sync::Arc;

use mojiscope_core::{ALL, BomHandling, ByteSpan, Detection, Encoding, Segmentation, detect};

use crate::model::analysis::counts::{ErrorCount, count_errors_with_progress};
use crate::model::analysis::lines::LineIndex;
use crate::model::analysis::mixed::{Parts, find_parts};
use crate::model::analysis::{Analyser, EncodingAnalysis};
use crate::model::document::{Document, FileBytes};
use crate::model::find::{Needle, find_all};
use crate::model::jobs::{Repaint, Runner, Worker};
use crate::model::repair::run::repair_file;
use crate::model::repair::{MAX_TEXT_BYTES, RepairOutcome, RepairRequest};

/// Events that may wait in the channel; a worker with a result blocks when
/// it is full (progress events are dropped instead).
const CHANNEL_CAPACITY: usize = 64;

/// Which job an event is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JobKind {
    /// The error counts of every override choice.
    Counts,
    /// The analysis of one pane's encoding.
    Analysis {
        /// The pane.
        pane: usize,
    },
    /// The row index (built with pane 0's analysis).
    Lines,
    /// Encoding detection.
    Detect,
    /// Repairing the mojibake of a pane's decode.
    Repair,
    /// Finding text or bytes.
    Find,
}

impl fmt::Display for JobKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JobKind::Counts => f.write_str("counting errors"),
            JobKind::Analysis { pane } => write!(f, "analysing pane {}", pane + 1),
            JobKind::Lines => f.write_str("indexing rows"),
            JobKind::Detect => f.write_str("detecting the encoding"),
            JobKind::Repair => f.write_str("repairing mojibake"),
            JobKind::Find => f.write_str("finding"),
        }
    }
}

/// What a job has to say.
#[derive(Debug)]
pub enum JobEvent {
    /// Work done so far, out of `total` (in units of the job's choosing;
    /// `done / total` is the fraction).
    Progress {
        /// The document's generation.
        generation: u64,
        /// Which job.
        job: JobKind,
        /// Work done.
        done: u64,
        /// All the work.
        total: u64,
    },
    /// The error counts of every override choice, in the standard's order.
    Counts {
        /// The document's generation.
        generation: u64,
        /// One per override choice.
        counts: Vec<ErrorCount>,
    },
    /// A pane's analysis.
    Analysis {
        /// The document's generation.
        generation: u64,
        /// The pane it was started for.
        pane: usize,
        /// The result.
        analysis: Arc<EncodingAnalysis>,
    },
    /// The row index, from pane 0's analysis (it follows that pane's
    /// [`JobEvent::Analysis`]).
    Lines {
        /// The document's generation.
        generation: u64,
        /// The result.
        index: Arc<LineIndex>,
    },
    /// The ranking of the candidate encodings.
    Detection {
        /// The document's generation.
        generation: u64,
        /// The result.
        detection: Arc<Detection>,
        /// The mojibake the start of the best reading holds, if any
        /// ([`probe_mojibake`]).
        mojibake: Option<Mojibake>,
    },
    /// The parts of the file in different encodings (it follows
    /// [`JobEvent::Detection`], from the same job).
    Segments {
        /// The document's generation.
        generation: u64,
        /// The result.
        segmentation: Arc<Segmentation>,
    },
    /// A pane's decode repaired.
    Repair {
        /// The document's generation.
        generation: u64,
        /// The result.
        outcome: Box<RepairOutcome>,
    },
    /// Every match of a find, in file order (at most
    /// [`MAX_MATCHES`](crate::model::find::MAX_MATCHES)).
    Found {
        /// The document's generation.
        generation: u64,
        /// What was sought.
        needle: Needle,
        /// Where it is.
        matches: Vec<ByteSpan>,
    },
    /// A job could not be done.
    Failed {
        /// The document's generation.
        generation: u64,
        /// Which job.
        job: JobKind,
        /// Why, for people.
        message: String,
    },
}

impl JobEvent {
    /// The generation of the document the event is about.
    pub fn generation(&self) -> u64 {
        match self {
            JobEvent::Progress { generation, .. }
            | JobEvent::Counts { generation, .. }
            | JobEvent::Analysis { generation, .. }
            | JobEvent::Lines { generation, .. }
            | JobEvent::Detection { generation, .. }
            | JobEvent::Segments { generation, .. }
            | JobEvent::Repair { generation, .. }
            | JobEvent::Found { generation, .. }
            | JobEvent::Failed { generation, .. } => *generation,
        }
    }
}

/// The bytes at the start of a file the mojibake probe reads.
pub const PROBE_BYTES: usize = 64 * 1024;

/// The fewest changes the probe must find to report mojibake.
const MIN_PROBE_CHANGES: usize = 2;

/// The mojibake found at the start of a file: the commonest damage and
/// how many changes undo it there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mojibake {
    /// How the damage happened, e.g. "UTF-8 read as windows-1252".
    pub damage: String,
    /// How many changes of that kind the repair made in the bytes read.
    pub changes: usize,
}

/// Repairs the best reading of the first [`PROBE_BYTES`] of `bytes`: the
/// commonest kind of change, if there is any. It is a glance, for the
/// verdict line; the Repair window repairs the whole file.
pub fn probe_mojibake(bytes: &[u8], detection: &Detection) -> Option<Mojibake> {
    mojibake_in(&reading_start(bytes, detection.best_override_choice()))
}

/// The first [`PROBE_BYTES`] of `bytes` (fewer when the file is shorter)
/// decoded with `encoding`, a byte order mark deciding: the text the
/// mojibake probe reads.
pub fn reading_start(bytes: &[u8], encoding: &'static Encoding) -> String {
    let mut end = bytes.len().min(PROBE_BYTES);
    // Not in the middle of a UTF-8 sequence, when the file is UTF-8.
    while end < bytes.len() && end > 0 && (bytes[end] & 0xC0) == 0x80 {
        end -= 1;
    }
    let head = bytes.get(..end).unwrap_or_default();
    encoding
        .decode_with_bom_handling(head, BomHandling::Sniff)
        .text
}

/// The commonest kind of mojibake a repair of `text` (the start of a
/// reading, [`reading_start`]) undoes, if it undoes enough of it.
pub fn mojibake_in(text: &str) -> Option<Mojibake> {
    let repair = mojiscope_core::repair::repair(text);
    let (family, changes) = repair
        .families()
        .into_iter()
        .max_by_key(|&(_, count)| count)?;
    // One change in 64 KiB is too little to call a file mojibake: on the
    // 212 clean files of the detection dev set, a lone change made 3 of
    // the 4 false alarms.
    if changes < MIN_PROBE_CHANGES {
        return None;
    }
    Some(Mojibake {
        damage: family.to_string(),
        changes,
    })
}

/// Where a job runs: a new job replaces the one in its slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Slot {
    Counts,
    Detect,
    Pane(usize),
    Repair,
    Find,
}

/// The background jobs of one window.
#[derive(Debug)]
pub struct DocumentJobs {
    runner: Runner<Slot, JobEvent>,
}

/// A job's side of the channel.
type JobWorker = Worker<Slot, JobEvent>;

impl DocumentJobs {
    /// No jobs yet; `repaint` is called after every event a job sends.
    pub fn new(repaint: Repaint) -> Self {
        Self {
            runner: Runner::new(CHANNEL_CAPACITY, repaint),
        }
    }

    /// Counts the errors of every override choice over the whole document
    /// ([`JobEvent::Counts`]), replacing any counting job still running.
    pub fn start_counts(&mut self, document: &Document) {
        let generation = document.generation;
        let bytes = document.bytes.clone();
        self.start(
            Slot::Counts,
            generation,
            JobKind::Counts,
            "counts".to_owned(),
            move |worker| count_job(worker, generation, &bytes),
        );
    }

    /// Ranks the candidate encodings of the document
    /// ([`JobEvent::Detection`]), then finds its parts in different
    /// encodings ([`JobEvent::Segments`]), replacing any detection still
    /// running. Both sample large files where detection does, so they take
    /// a fraction of a second whatever the size.
    pub fn start_detection(&mut self, document: &Document) {
        let generation = document.generation;
        let bytes = document.bytes.clone();
        self.start(
            Slot::Detect,
            generation,
            JobKind::Detect,
            "detect".to_owned(),
            move |worker| {
                let detection = detect(&bytes);
                let mojibake = probe_mojibake(&bytes, &detection);
                let detection = Arc::new(detection);
                if !worker.send(JobEvent::Detection {
                    generation,
                    detection: Arc::clone(&detection),
                    mojibake,
                }) {
                    return;
                }
                let segmentation = find_parts(&bytes, &detection);
                worker.send(JobEvent::Segments {
                    generation,
                    segmentation: Arc::new(segmentation),
                });
            },
        );
    }

    /// Analyses the document with `encoding` for pane `pane`
    /// ([`JobEvent::Analysis`]; for pane 0 also [`JobEvent::Lines`]),
    /// replacing that pane's previous job.
    pub fn start_analysis(
        &mut self,
        document: &Document,
        pane: usize,
        encoding: &'static Encoding,
        bom_handling: BomHandling,
    ) {
        self.start_reading(document, pane, encoding, bom_handling, None);
    }

    /// [`start_analysis`](Self::start_analysis) of the Mixed reading of
    /// `parts` (each part decoded with its own encoding) when there are
    /// some.
    pub fn start_reading(
        &mut self,
        document: &Document,
        pane: usize,
        encoding: &'static Encoding,
        bom_handling: BomHandling,
        parts: Option<Parts>,
    ) {
        let generation = document.generation;
        let bytes = document.bytes.clone();
        let name = match parts {
            Some(_) => "analyse:mixed".to_owned(),
            None => format!("analyse:{}", encoding.name()),
        };
        let analyser = move || Analyser::reading(encoding, bom_handling, parts, pane == 0);
        self.start(
            Slot::Pane(pane),
            generation,
            JobKind::Analysis { pane },
            name,
            move |worker| analysis_job(worker, generation, &bytes, pane, analyser()),
        );
    }

    /// Repairs the mojibake of the decode `request` names
    /// ([`JobEvent::Repair`], or [`JobEvent::Failed`] when the text is too
    /// large), replacing any repair still running.
    pub fn start_repair(&mut self, document: &Document, request: RepairRequest) {
        let generation = document.generation;
        let bytes = document.bytes.clone();
        let name = format!("repair:{}", request.encoding.name());
        self.start(
            Slot::Repair,
            generation,
            JobKind::Repair,
            name,
            move |worker| repair_job(worker, generation, &bytes, request),
        );
    }

    /// Finds every match of `needle` in the document, reading text through
    /// `analysis` ([`JobEvent::Found`]), replacing any find still running.
    pub fn start_find(
        &mut self,
        document: &Document,
        needle: Needle,
        analysis: Option<Arc<EncodingAnalysis>>,
    ) {
        let generation = document.generation;
        let bytes = document.bytes.clone();
        self.start(
            Slot::Find,
            generation,
            JobKind::Find,
            "find".to_owned(),
            move |worker| {
                let total = bytes.len() as u64;
                let matches = find_all(&bytes, &needle, analysis.as_deref(), &mut |done| {
                    progress(worker, generation, JobKind::Find, done, total);
                    !worker.is_cancelled()
                });
                worker.send(JobEvent::Found {
                    generation,
                    needle,
                    matches,
                });
            },
        );
    }

    /// Cancels the repair, if one is running; nothing more arrives from it.
    pub fn cancel_repair(&mut self) {
        self.runner.cancel(Slot::Repair);
    }

    /// Cancels pane `pane`'s job, if any; nothing more arrives from it.
    pub fn cancel_pane(&mut self, pane: usize) {
        self.runner.cancel(Slot::Pane(pane));
    }

    /// Cancels every job; nothing more arrives from any of them.
    pub fn cancel_all(&mut self) {
        self.runner.cancel_all();
    }

    /// The next event of a current job, if one is waiting. Never blocks.
    pub fn try_recv(&self) -> Option<JobEvent> {
        self.runner.try_recv().map(|(_, event)| event)
    }

    /// Whether a current job's thread is still working.
    pub fn is_busy(&self) -> bool {
        self.runner.is_busy()
    }

    /// Starts `body` as the job of `slot` for load `generation`; a panic in
    /// it, or a thread that cannot start, is a [`JobEvent::Failed`] of `job`.
    fn start(
        &mut self,
        slot: Slot,
        generation: u64,
        job: JobKind,
        name: String,
        body: impl FnOnce(&JobWorker) + Send + 'static,
    ) {
        let failed = move |message| JobEvent::Failed {
            generation,
            job,
            message,
        };
        self.runner.start(slot, name, failed, body);
    }
}

/// Reports progress of `job`, at most once per percent.
fn progress(worker: &JobWorker, generation: u64, job: JobKind, done: u64, total: u64) {
    worker.progress(done, total, || JobEvent::Progress {
        generation,
        job,
        done,
        total,
    });
}

fn count_job(worker: &JobWorker, generation: u64, bytes: &FileBytes) {
    let choices: Vec<&'static Encoding> = ALL
        .iter()
        .copied()
        .filter(|encoding| encoding.is_override_choice())
        .collect();
    let progress = |done, total| progress(worker, generation, JobKind::Counts, done, total);
    // count_errors fans out on scoped threads of its own, joined before it
    // returns: part of this job, not jobs of their own.
    if let Some(counts) =
        count_errors_with_progress(bytes, &choices, worker.cancel_flag(), &progress)
    {
        worker.send(JobEvent::Counts { generation, counts });
    }
}

fn repair_job(worker: &JobWorker, generation: u64, bytes: &FileBytes, request: RepairRequest) {
    let mut progress = |done, total| progress(worker, generation, JobKind::Repair, done, total);
    // The repair fans out on scoped threads of its own too (see
    // `repair_text`).
    match repair_file(
        bytes,
        request,
        MAX_TEXT_BYTES,
        worker.cancel_flag(),
        &mut progress,
    ) {
        Ok(Some(outcome)) => {
            worker.send(JobEvent::Repair {
                generation,
                outcome: Box::new(outcome),
            });
        }
        // Cancelled: nobody waits for it.
        Ok(None) => {}
        Err(error) => {
            worker.send(JobEvent::Failed {
                generation,
                job: JobKind::Repair,
                message: error.to_string(),
            });
        }
    }
}

/// The first snapshot of an analysis is sent after this many bytes, the
/// next after four times as many, and so on: a huge file shows its first
/// screen at once, and the copies the snapshots cost add up to a third of
/// the final analysis at most.
const FIRST_SNAPSHOT: u64 = 1024 * 1024;

fn analysis_job(
    worker: &JobWorker,
    generation: u64,
    bytes: &FileBytes,
    pane: usize,
    // Pane 0's decode also gives the rows every pane is laid out in.
    mut analyser: Analyser,
) {
    let job = JobKind::Analysis { pane };
    let total = bytes.len() as u64;
    let mut next_snapshot = FIRST_SNAPSHOT;
    while !analyser.advance(bytes) {
        if worker.is_cancelled() {
            return;
        }
        progress(worker, generation, job, analyser.done(), total);
        if analyser.done() >= next_snapshot {
            next_snapshot = next_snapshot.saturating_mul(4);
            let (analysis, rows) = analyser.snapshot();
            if !send_analysis(worker, generation, pane, analysis, rows) {
                return;
            }
        }
    }
    progress(worker, generation, job, total, total);
    let (analysis, rows) = analyser.finish(bytes);
    send_analysis(worker, generation, pane, analysis, rows);
}

/// Sends an analysis and, after it, its rows. Returns false if the job is to
/// stop.
fn send_analysis(
    worker: &JobWorker,
    generation: u64,
    pane: usize,
    analysis: EncodingAnalysis,
    rows: Option<LineIndex>,
) -> bool {
    let sent = worker.send(JobEvent::Analysis {
        generation,
        pane,
        analysis: Arc::new(analysis),
    });
    match rows {
        Some(index) if sent => worker.send(JobEvent::Lines {
            generation,
            index: Arc::new(index),
        }),
        _ => sent,
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::thread;
    use std::time::{Duration, Instant};

    use mojiscope_core::{GB18030, SHIFT_JIS, UTF_8, UTF_16LE, WINDOWS_1252};

    use super::*;
    use crate::model::analysis::counts::count_errors;
    use crate::model::jobs::CancelToken;

    fn document(bytes: Vec<u8>, generation: u64) -> Document {
        Document::from_bytes(
            PathBuf::from("test.txt"),
            FileBytes::from(bytes),
            generation,
        )
    }

    fn counting_jobs() -> (DocumentJobs, Arc<AtomicUsize>) {
        let repaints = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&repaints);
        let jobs = DocumentJobs::new(Arc::new(move || {
            counter.fetch_add(1, Ordering::Relaxed);
        }));
        (jobs, repaints)
    }

    /// Drains events until `done` says so (or a generous timeout fails).
    fn collect_until(jobs: &DocumentJobs, done: impl Fn(&[JobEvent]) -> bool) -> Vec<JobEvent> {
        let started = Instant::now();
        let mut events = Vec::new();
        while !done(&events) {
            assert!(
                started.elapsed() < Duration::from_mins(1),
                "timed out; events so far: {events:?}"
            );
            match jobs.try_recv() {
                Some(event) => events.push(event),
                None => thread::sleep(Duration::from_millis(1)),
            }
        }
        events
    }

    fn wait_idle(jobs: &DocumentJobs) {
        let started = Instant::now();
        while jobs.is_busy() {
            assert!(started.elapsed() < Duration::from_mins(1), "still busy");
            thread::sleep(Duration::from_millis(1));
        }
    }

    fn pseudo_random(len: usize) -> Vec<u8> {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 32) as u8
            })
            .collect()
    }

    #[test]
    fn counts_arrive_with_the_generation_and_a_repaint() {
        let (mut jobs, repaints) = counting_jobs();
        let bytes = b"caf\xC3\xA9 \x93\xFA\x96\x7B \xFF".to_vec();
        let expected = count_errors(
            &bytes,
            &ALL.iter()
                .copied()
                .filter(|e| e.is_override_choice())
                .collect::<Vec<_>>(),
            &AtomicBool::new(false),
        )
        .unwrap();
        jobs.start_counts(&document(bytes, 7));
        let events = collect_until(&jobs, |events| {
            events
                .iter()
                .any(|event| matches!(event, JobEvent::Counts { .. }))
        });
        assert!(events.iter().all(|event| event.generation() == 7));
        let Some(JobEvent::Counts { counts, .. }) = events.last() else {
            panic!("the counts come last: {events:?}");
        };
        assert_eq!(counts.len(), 37);
        assert_eq!(*counts, expected);
        assert!(counts.iter().any(|count| count.errors == 0));
        // The job asks for a repaint just after sending: once it is idle.
        wait_idle(&jobs);
        assert!(repaints.load(Ordering::Relaxed) >= 1);
        assert!(jobs.try_recv().is_none());
    }

    #[test]
    fn pane_0_gets_its_analysis_then_the_rows_and_other_panes_only_analyses() {
        let (mut jobs, _) = counting_jobs();
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend("one\ntwo\nthree".encode_utf16().flat_map(u16::to_le_bytes));
        let document = document(bytes, 3);
        jobs.start_analysis(&document, 0, UTF_8, BomHandling::Sniff);
        jobs.start_analysis(&document, 1, WINDOWS_1252, BomHandling::None);
        let events = collect_until(&jobs, |events| {
            let analyses = events
                .iter()
                .filter(|event| matches!(event, JobEvent::Analysis { .. }))
                .count();
            let lines = events
                .iter()
                .any(|event| matches!(event, JobEvent::Lines { .. }));
            analyses == 2 && lines
        });
        let mut pane_0_seen = false;
        for event in &events {
            assert_eq!(event.generation(), 3);
            match event {
                JobEvent::Analysis {
                    pane: 0, analysis, ..
                } => {
                    assert_eq!(analysis.encoding, UTF_16LE, "the BOM picked it");
                    assert_eq!(analysis.errors, 0);
                    pane_0_seen = true;
                }
                JobEvent::Analysis {
                    pane: 1, analysis, ..
                } => {
                    assert_eq!(analysis.encoding, WINDOWS_1252);
                }
                JobEvent::Lines { index, .. } => {
                    assert!(pane_0_seen, "rows follow pane 0's analysis");
                    assert_eq!(index.row_count(), 3);
                    assert_eq!(index.row_span(1).start, 10);
                }
                JobEvent::Progress { .. } => {}
                other => panic!("unexpected {other:?}"),
            }
        }
        wait_idle(&jobs);
        assert!(jobs.try_recv().is_none(), "pane 1 builds no row index");
    }

    #[test]
    fn starting_a_pane_again_cancels_and_replaces_its_job() {
        let (mut jobs, _) = counting_jobs();
        // Long enough that the first job cannot finish before it is
        // cancelled (it looks at the flag every MiB).
        let big = document(pseudo_random(64 << 20), 1);
        jobs.start_analysis(&big, 2, GB18030, BomHandling::None);
        let (first_cancel, first_finished) = jobs.runner.flags(Slot::Pane(2)).unwrap();
        let small = document(b"\x93\xFA\x96\x7B".to_vec(), 2);
        jobs.start_analysis(&small, 2, SHIFT_JIS, BomHandling::None);
        assert!(first_cancel.is_cancelled());
        let events = collect_until(&jobs, |events| {
            events
                .iter()
                .any(|event| matches!(event, JobEvent::Analysis { .. }))
        });
        for event in &events {
            assert_eq!(
                event.generation(),
                2,
                "nothing from the replaced job: {event:?}"
            );
        }
        let Some(JobEvent::Analysis { pane, analysis, .. }) = events.last() else {
            panic!("{events:?}");
        };
        assert_eq!(
            (*pane, analysis.encoding, analysis.errors),
            (2, SHIFT_JIS, 0)
        );
        // The first job stops well before it would have finished, and sent
        // no result, not even one that try_recv would drop.
        let started = Instant::now();
        while !first_finished.load(Ordering::Acquire) {
            assert!(started.elapsed() < Duration::from_secs(30));
            thread::sleep(Duration::from_millis(1));
        }
        while let Some(event) = jobs.runner.try_recv_any() {
            assert!(matches!(event, JobEvent::Progress { .. }), "{event:?}");
        }
    }

    #[test]
    fn cancel_all_stops_everything_and_silences_it() {
        let (mut jobs, _) = counting_jobs();
        let big = document(pseudo_random(32 << 20), 5);
        jobs.start_counts(&big);
        jobs.start_analysis(&big, 0, UTF_8, BomHandling::Sniff);
        jobs.start_analysis(&big, 1, GB18030, BomHandling::None);
        let tokens: Vec<(CancelToken, Arc<AtomicBool>)> = jobs.runner.all_flags();
        assert_eq!(tokens.len(), 3);
        jobs.cancel_all();
        assert!(!jobs.is_busy(), "no current job");
        let started = Instant::now();
        for (cancel, finished) in &tokens {
            assert!(cancel.is_cancelled());
            while !finished.load(Ordering::Acquire) {
                assert!(started.elapsed() < Duration::from_secs(30), "a job went on");
                thread::sleep(Duration::from_millis(1));
            }
        }
        assert!(jobs.try_recv().is_none());
        // A new document's jobs work as before.
        jobs.start_analysis(&document(b"abc".to_vec(), 6), 0, UTF_8, BomHandling::Sniff);
        let events = collect_until(&jobs, |events| {
            events
                .iter()
                .any(|event| matches!(event, JobEvent::Lines { .. }))
        });
        assert!(events.iter().all(|event| event.generation() == 6));
    }

    #[test]
    fn progress_is_reported_in_order_for_the_current_job() {
        let (mut jobs, _) = counting_jobs();
        let bytes = vec![b'a'; 8 << 20];
        let total = bytes.len() as u64;
        jobs.start_analysis(&document(bytes, 9), 1, WINDOWS_1252, BomHandling::None);
        let events = collect_until(&jobs, |events| {
            events.iter().any(|event| {
                matches!(event, JobEvent::Analysis { analysis, .. } if analysis.is_complete())
            })
        });
        // Snapshots came first, each covering more of the file.
        let covered: Vec<u64> = events
            .iter()
            .filter_map(|event| match event {
                JobEvent::Analysis { analysis, .. } => Some(analysis.byte_len()),
                _ => None,
            })
            .collect();
        assert_eq!(covered, [1 << 20, 4 << 20, total], "{covered:?}");
        let progress: Vec<u64> = events
            .iter()
            .filter_map(|event| match event {
                JobEvent::Progress {
                    job,
                    done,
                    total: t,
                    ..
                } => {
                    assert_eq!((*job, *t), (JobKind::Analysis { pane: 1 }, total));
                    Some(*done)
                }
                _ => None,
            })
            .collect();
        assert!(progress.is_sorted(), "{progress:?}");
        assert!(
            progress.last().is_some_and(|&done| done == total),
            "{progress:?}"
        );
    }

    #[test]
    fn a_panicking_job_fails_with_a_message() {
        let (mut jobs, repaints) = counting_jobs();
        jobs.start(
            Slot::Pane(4),
            11,
            JobKind::Analysis { pane: 4 },
            "panics".to_owned(),
            |_| {
                panic!("deliberately");
            },
        );
        let events = collect_until(&jobs, |events| !events.is_empty());
        match &events[0] {
            JobEvent::Failed {
                generation,
                job,
                message,
            } => {
                assert_eq!((*generation, *job), (11, JobKind::Analysis { pane: 4 }));
                assert_eq!(message, "internal error: deliberately");
            }
            other => panic!("{other:?}"),
        }
        wait_idle(&jobs);
        assert!(repaints.load(Ordering::Relaxed) >= 1);
        assert_eq!(
            JobKind::Analysis { pane: 4 }.to_string(),
            "analysing pane 5"
        );
    }
}
