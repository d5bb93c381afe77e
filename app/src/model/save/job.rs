//! Previews and saves as jobs of the app's [`Runner`]: progress,
//! cancellation, events tagged with the task they belong to, and a repaint
//! request whenever one is sent.
//!
//! One task runs at a time. A new preview replaces a running one (whose
//! events are dropped from then on); a save is refused while another save
//! runs, and is never silenced: cancelling it asks it to stop, and its
//! answer (saved, or not) still arrives, because once its file is being
//! renamed into place it finishes.

use std::fmt;
use std::sync::Arc;

use super::preview::{self, PassOptions, Preview, Stop};
use super::source::TextSource;
use super::{SaveFailure, SaveRequest, Saved, save};
use crate::model::jobs::{Repaint, Runner, Worker};

/// Events that may wait in the channel.
const CHANNEL_CAPACITY: usize = 16;

/// What a task does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskKind {
    /// Finds what a save would do.
    Preview,
    /// Writes the file.
    Save,
}

/// What a task has to say.
#[derive(Debug)]
pub enum SaveEvent {
    /// Source bytes done, out of `total`.
    Progress {
        /// Which task.
        task: TaskKind,
        /// Done so far.
        done: u64,
        /// All of it.
        total: u64,
    },
    /// The preview is ready.
    Previewed(Arc<Preview>),
    /// The preview was cancelled (it had been replaced or stopped).
    PreviewCancelled,
    /// The save is done, or did not happen.
    Saved(Box<Result<Saved, SaveFailure>>),
    /// The task failed in a way it should not (a bug): why.
    Failed {
        /// Which task.
        task: TaskKind,
        /// For people.
        message: String,
    },
}

/// Another save is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Busy;

impl fmt::Display for Busy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a save is already running")
    }
}

impl std::error::Error for Busy {}

/// Runs previews and saves in the background; the window drains its events
/// with [`SaveWorker::try_recv`] once a frame.
#[derive(Debug)]
pub struct SaveWorker {
    /// One slot: one task at a time.
    runner: Runner<(), SaveEvent>,
    /// What the task listened to does, until its answer has been received.
    task: Option<TaskKind>,
}

impl SaveWorker {
    /// No task yet; `repaint` is called after every event a task sends.
    pub fn new(repaint: Repaint) -> Self {
        Self {
            runner: Runner::new(CHANNEL_CAPACITY, repaint),
            task: None,
        }
    }

    /// Starts a preview of `source` saved as `options` say (see
    /// [`preview::run`]), replacing a running preview.
    ///
    /// # Errors
    /// [`Busy`] while a save runs.
    pub fn preview(&mut self, source: TextSource, options: PassOptions) -> Result<(), Busy> {
        if self.is_saving() {
            return Err(Busy);
        }
        let name = format!("preview:{}", options.encoding.name());
        self.start(TaskKind::Preview, name, move |worker| {
            let result = preview::run(
                &source,
                &options,
                worker.cancel_flag(),
                &mut |done, total| progress(worker, TaskKind::Preview, done, total),
                None,
            );
            match result {
                Ok(preview) => SaveEvent::Previewed(Arc::new(preview)),
                Err(Stop::Cancelled) => SaveEvent::PreviewCancelled,
                Err(stop) => SaveEvent::Failed {
                    task: TaskKind::Preview,
                    message: format!("the preview stopped: {stop:?}"),
                },
            }
        });
        Ok(())
    }

    /// Starts saving, cancelling a running preview.
    ///
    /// # Errors
    /// [`Busy`] while another save runs.
    pub fn save(&mut self, request: SaveRequest) -> Result<(), Busy> {
        if self.is_saving() {
            return Err(Busy);
        }
        let name = format!("save:{}", request.pass.encoding.name());
        self.start(TaskKind::Save, name, move |worker| {
            let result = save(&request, worker.cancel_flag(), &mut |done, total| {
                progress(worker, TaskKind::Save, done, total);
            });
            SaveEvent::Saved(Box::new(result))
        });
        Ok(())
    }

    /// Asks the current task to stop. A preview's events are dropped from
    /// now on; a save still answers (see the module's documentation).
    pub fn cancel(&mut self) {
        match self.task {
            Some(TaskKind::Preview) => {
                self.runner.cancel(());
                self.task = None;
            }
            Some(TaskKind::Save) => self.runner.ask_to_stop(()),
            None => {}
        }
    }

    /// Whether a save runs (until its answer has been received).
    pub fn is_saving(&self) -> bool {
        self.task == Some(TaskKind::Save)
    }

    /// Whether a task runs (until its answer has been received).
    pub fn is_busy(&self) -> bool {
        self.task.is_some()
    }

    /// The next event of the current task, if one is waiting. Never blocks.
    pub fn try_recv(&mut self) -> Option<SaveEvent> {
        let ((), event) = self.runner.try_recv()?;
        if !matches!(event, SaveEvent::Progress { .. }) {
            // The task's answer: nothing more comes from it.
            self.runner.forget(());
            self.task = None;
        }
        Some(event)
    }

    /// Replaces the current task with one running `body` on a thread named
    /// `name`; `body`'s answer is the task's last event.
    fn start(
        &mut self,
        task: TaskKind,
        name: String,
        body: impl FnOnce(&Worker<(), SaveEvent>) -> SaveEvent + Send + 'static,
    ) {
        self.task = Some(task);
        let failed = move |message| SaveEvent::Failed { task, message };
        self.runner.start((), name, failed, move |worker| {
            let answer = body(worker);
            worker.answer(answer);
        });
    }
}

/// Reports a task's progress in source bytes, at most once per percent.
fn progress(worker: &Worker<(), SaveEvent>, task: TaskKind, done: u64, total: u64) {
    worker.progress(done, total, || SaveEvent::Progress { task, done, total });
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::thread;
    use std::time::{Duration, Instant};

    use mojiscope_core::{EncodeErrorMode, UTF_8, WINDOWS_1252};

    use super::*;
    use crate::model::save::WriteOptions;

    fn worker() -> (SaveWorker, Arc<AtomicUsize>) {
        let repaints = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&repaints);
        let worker = SaveWorker::new(Arc::new(move || {
            counter.fetch_add(1, Ordering::Relaxed);
        }));
        (worker, repaints)
    }

    /// Events until the current task's last one.
    fn events_until_done(worker: &mut SaveWorker) -> Vec<SaveEvent> {
        let started = Instant::now();
        let mut events = Vec::new();
        while worker.is_busy() {
            assert!(started.elapsed() < Duration::from_mins(1), "{events:?}");
            match worker.try_recv() {
                Some(event) => events.push(event),
                None => thread::sleep(Duration::from_millis(1)),
            }
        }
        events
    }

    fn options(encoding: &'static mojiscope_core::Encoding) -> PassOptions {
        PassOptions {
            encoding,
            mode: EncodeErrorMode::Html,
            bom: false,
        }
    }

    fn big_text() -> TextSource {
        TextSource::Text(Arc::from("snow ☃ and text\n".repeat(1 << 20).as_str()))
    }

    #[test]
    fn a_preview_arrives_after_its_progress_with_a_repaint() {
        let (mut worker, repaints) = worker();
        worker.preview(big_text(), options(WINDOWS_1252)).unwrap();
        let events = events_until_done(&mut worker);
        let Some(SaveEvent::Previewed(preview)) = events.last() else {
            panic!("{events:?}");
        };
        assert_eq!(preview.unencodable.len(), 1 << 20);
        let progress: Vec<u64> = events
            .iter()
            .filter_map(|event| match event {
                SaveEvent::Progress { done, .. } => Some(*done),
                _ => None,
            })
            .collect();
        assert!(progress.is_sorted() && !progress.is_empty(), "{progress:?}");
        assert!(repaints.load(Ordering::Relaxed) >= 2);
    }

    #[test]
    fn a_new_preview_replaces_the_running_one() {
        let (mut worker, _) = worker();
        worker.preview(big_text(), options(WINDOWS_1252)).unwrap();
        worker
            .preview(TextSource::Text(Arc::from("é")), options(UTF_8))
            .unwrap();
        let events = events_until_done(&mut worker);
        let Some(SaveEvent::Previewed(preview)) = events.last() else {
            panic!("{events:?}");
        };
        assert_eq!((preview.encoding, preview.chars), (UTF_8, 1));
        assert!(
            events
                .iter()
                .all(|e| !matches!(e, SaveEvent::Progress { done, .. } if *done > 2)),
            "nothing of the first: {events:?}"
        );
    }

    #[test]
    fn a_second_save_is_refused_while_one_runs_and_cancel_still_answers() {
        let (mut worker, _) = worker();
        let dir = tempfile::tempdir().unwrap();
        let request = SaveRequest {
            source: big_text(),
            pass: options(UTF_8),
            target: dir.path().join("out.txt"),
            write: WriteOptions::default(),
        };
        worker.save(request.clone()).unwrap();
        assert!(worker.is_saving());
        assert_eq!(worker.save(request.clone()), Err(Busy));
        assert_eq!(worker.preview(big_text(), options(UTF_8)), Err(Busy));
        worker.cancel();
        let events = events_until_done(&mut worker);
        let Some(SaveEvent::Saved(result)) = events.last() else {
            panic!("{events:?}");
        };
        // Cancelled in time, or finished before it looked: either way the
        // answer says which, and a cancelled save left nothing.
        match &**result {
            Err(SaveFailure::Cancelled) => {
                assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
            }
            Ok(saved) => assert!(saved.target.is_file()),
            Err(other) => panic!("{other:?}"),
        }
        // Another save may start now.
        worker
            .save(SaveRequest {
                target: dir.path().join("again.txt"),
                ..request
            })
            .unwrap();
        let events = events_until_done(&mut worker);
        assert!(matches!(events.last(), Some(SaveEvent::Saved(result)) if result.is_ok()));
    }
}
