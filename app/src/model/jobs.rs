//! The one way the app works off the window's thread: a [`Runner`] starts
//! each job on a named thread of its own, hands it a [`Worker`] to report
//! through, and gives the window its events, never blocking.
//!
//! Jobs run in slots (the open document's error counts, each pane's
//! analysis, the save, a file dialog, ...): starting a job cancels the one
//! in its slot, and from then on events of the replaced job are dropped by
//! [`Runner::try_recv`] even if they were already on their way, so what
//! comes out is always from the latest job of each slot. Events wait in a
//! bounded channel: a job with a result waits for room, progress is dropped
//! rather than waited for, and the window is asked to repaint ([`Repaint`])
//! after every event sent.
//!
//! A job that panics (a bug) or whose thread cannot start does not vanish:
//! its slot receives the event its `failed` function makes of the message,
//! which names the crash report when the panic hook saved one
//! ([`crate::crash`]).
//!
//! The users: the document's whole-file work
//! ([`DocumentJobs`](crate::model::document_jobs::DocumentJobs)), Save as's
//! previews and saves ([`SaveWorker`](crate::model::save::job::SaveWorker))
//! and the native file dialogs. Threads start nowhere else; work that fans
//! out inside one job (`std::thread::scope`, which joins before it returns)
//! says so where it does.

use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread;

/// The callback that asks the window to repaint: `ctx.request_repaint()` in
/// the app (which keeps egui out of the model), a counter in tests.
pub type Repaint = Arc<dyn Fn() + Send + Sync>;

/// A flag a job looks at between chunks of work; once set, the job stops.
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A token not yet cancelled.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the job to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`cancel`](Self::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag itself, for the functions that do the work.
    pub fn flag(&self) -> &AtomicBool {
        &self.0
    }
}

/// An event with the job it came from.
struct Envelope<S, E> {
    slot: S,
    serial: u64,
    event: E,
}

/// The latest job of a slot.
#[derive(Debug)]
struct Running {
    serial: u64,
    cancel: CancelToken,
    /// Set when its thread is done (or was never started).
    finished: Arc<AtomicBool>,
}

/// Jobs in slots `S`, each on a named thread, reporting events `E`.
pub struct Runner<S, E> {
    sender: SyncSender<Envelope<S, E>>,
    receiver: Receiver<Envelope<S, E>>,
    repaint: Repaint,
    running: HashMap<S, Running>,
    next_serial: u64,
}

impl<S: fmt::Debug, E> fmt::Debug for Runner<S, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Runner")
            .field("running", &self.running)
            .finish_non_exhaustive()
    }
}

impl<S, E> Runner<S, E>
where
    S: Copy + Eq + Hash + Send + Sync + 'static,
    E: Send + 'static,
{
    /// No jobs yet; at most `capacity` events wait to be received, and
    /// `repaint` is called after every event a job sends.
    pub fn new(capacity: usize, repaint: Repaint) -> Self {
        let (sender, receiver) = sync_channel(capacity);
        Self {
            sender,
            receiver,
            repaint,
            running: HashMap::new(),
            next_serial: 0,
        }
    }

    /// Runs `body` on a thread named `name` as the job of `slot`, cancelling
    /// the job there (nothing more arrives from it). If `body` panics, or
    /// the thread cannot start, the slot receives `failed(message)`.
    pub fn start(
        &mut self,
        slot: S,
        name: String,
        failed: impl Fn(String) -> E + Clone + Send + 'static,
        body: impl FnOnce(&Worker<S, E>) + Send + 'static,
    ) {
        let serial = self.next_serial;
        self.next_serial += 1;
        let cancel = CancelToken::new();
        let finished = Arc::new(AtomicBool::new(false));
        let replaced = self.running.insert(
            slot,
            Running {
                serial,
                cancel: cancel.clone(),
                finished: Arc::clone(&finished),
            },
        );
        if let Some(replaced) = replaced {
            replaced.cancel.cancel();
        }
        let worker = Arc::new(Worker {
            sender: self.sender.clone(),
            repaint: Arc::clone(&self.repaint),
            slot,
            serial,
            cancel,
            finished,
            last_percent: AtomicU64::new(u64::MAX),
        });
        let on_thread = Arc::clone(&worker);
        let failed_on_thread = failed.clone();
        let spawned = thread::Builder::new().name(name).spawn(move || {
            let result = panic::catch_unwind(AssertUnwindSafe(|| body(&on_thread)));
            if let Err(payload) = result {
                on_thread.answer(failed_on_thread(panic_report(&*payload)));
            }
            on_thread.finished.store(true, Ordering::Release);
        });
        if let Err(error) = spawned {
            // On the window's thread: never wait for room in the channel.
            let event = failed(format!("cannot start a thread: {error}"));
            worker.sender.try_send(worker.envelope(event)).ok();
            worker.finished.store(true, Ordering::Release);
            (worker.repaint)();
        }
    }

    /// Cancels the job of `slot`, if any: it stops at its next look at the
    /// flag, and nothing more arrives from it.
    pub fn cancel(&mut self, slot: S) {
        if let Some(running) = self.running.remove(&slot) {
            running.cancel.cancel();
        }
    }

    /// Cancels every job; nothing more arrives from any of them.
    pub fn cancel_all(&mut self) {
        for (_, running) in self.running.drain() {
            running.cancel.cancel();
        }
    }

    /// Asks the job of `slot` to stop, still listening to it: a job that
    /// must say how it ended (a save: written, or not) answers all the same.
    pub fn ask_to_stop(&self, slot: S) {
        if let Some(running) = self.running.get(&slot) {
            running.cancel.cancel();
        }
    }

    /// Stops listening to the job of `slot` without stopping it (its answer
    /// has come).
    pub fn forget(&mut self, slot: S) {
        self.running.remove(&slot);
    }

    /// The next event of a current job, and its slot, if one is waiting.
    /// Never blocks.
    pub fn try_recv(&self) -> Option<(S, E)> {
        loop {
            let envelope = self.receiver.try_recv().ok()?;
            let current = self
                .running
                .get(&envelope.slot)
                .is_some_and(|running| running.serial == envelope.serial);
            if current {
                return Some((envelope.slot, envelope.event));
            }
            // From a replaced or cancelled job: dropped.
        }
    }

    /// Whether a job is listened to in `slot` (started, and neither
    /// cancelled nor forgotten).
    pub fn is_current(&self, slot: S) -> bool {
        self.running.contains_key(&slot)
    }

    /// Whether a current job's thread is still working.
    pub fn is_busy(&self) -> bool {
        self.running
            .values()
            .any(|running| !running.finished.load(Ordering::Acquire))
    }

    /// The cancel flag and the "finished" flag of the job of `slot`, for
    /// tests that watch a job stop.
    #[cfg(test)]
    pub(crate) fn flags(&self, slot: S) -> Option<(CancelToken, Arc<AtomicBool>)> {
        self.running
            .get(&slot)
            .map(|running| (running.cancel.clone(), Arc::clone(&running.finished)))
    }

    /// The flags of every current job, for tests that watch jobs stop.
    #[cfg(test)]
    pub(crate) fn all_flags(&self) -> Vec<(CancelToken, Arc<AtomicBool>)> {
        self.running
            .values()
            .map(|running| (running.cancel.clone(), Arc::clone(&running.finished)))
            .collect()
    }

    /// The next event in the channel, current or not, for tests that check
    /// what a replaced job sent.
    #[cfg(test)]
    pub(crate) fn try_recv_any(&self) -> Option<E> {
        self.receiver.try_recv().ok().map(|envelope| envelope.event)
    }
}

impl<S, E> Drop for Runner<S, E> {
    fn drop(&mut self) {
        // The threads see the flag at their next look; one blocked on a
        // full channel wakes when the receiver goes. A save about to rename
        // its file finishes (it never leaves a partial file either way).
        for running in self.running.values() {
            running.cancel.cancel();
        }
    }
}

/// A job's side of the channel.
pub struct Worker<S, E> {
    sender: SyncSender<Envelope<S, E>>,
    repaint: Repaint,
    slot: S,
    serial: u64,
    cancel: CancelToken,
    finished: Arc<AtomicBool>,
    /// The percentage last reported, so that progress is sent at most a
    /// hundred times.
    last_percent: AtomicU64,
}

impl<S: Copy, E> Worker<S, E> {
    /// Whether the job was cancelled (or asked to stop).
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// The cancel flag, for the functions that do the work.
    pub fn cancel_flag(&self) -> &AtomicBool {
        self.cancel.flag()
    }

    /// Sends a result, waiting if the channel is full. Returns false if the
    /// job was cancelled or the window has gone: stop working.
    pub fn send(&self, event: E) -> bool {
        if self.cancel.is_cancelled() {
            return false;
        }
        let sent = self.sender.send(self.envelope(event)).is_ok();
        (self.repaint)();
        sent
    }

    /// Sends the job's last word, waiting for room, even when it was asked
    /// to stop (the window may be gone: then nobody listens).
    pub fn answer(&self, event: E) {
        self.sender.send(self.envelope(event)).ok();
        (self.repaint)();
    }

    /// Reports progress, `done` out of `total`, as the event `progress`
    /// makes: only when the percentage changes, and never waiting for room
    /// (progress is not worth waiting for).
    pub fn progress(&self, done: u64, total: u64, progress: impl FnOnce() -> E) {
        let percent = done.saturating_mul(100).checked_div(total).unwrap_or(100);
        if self.last_percent.swap(percent, Ordering::Relaxed) == percent {
            return;
        }
        if self.sender.try_send(self.envelope(progress())).is_ok() {
            (self.repaint)();
        }
    }

    fn envelope(&self, event: E) -> Envelope<S, E> {
        Envelope {
            slot: self.slot,
            serial: self.serial,
            event,
        }
    }
}

/// What a job's panic says: the crash report's message when the panic hook
/// saved one for it, else the panic's own text.
fn panic_report(payload: &(dyn Any + Send)) -> String {
    let text = panic_message(payload);
    crate::crash::last()
        .filter(|crash| crash.summary.starts_with(text))
        .map_or_else(
            || format!("internal error: {text}"),
            |crash| crash.message(),
        )
}

/// The text of a panic's payload.
fn panic_message(payload: &(dyn Any + Send)) -> &str {
    if let Some(message) = payload.downcast_ref::<&str>() {
        message
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message
    } else {
        "a panic"
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    fn runner() -> Runner<u8, String> {
        Runner::new(4, Arc::new(|| {}))
    }

    /// The next current event (a generous timeout fails).
    fn next(runner: &Runner<u8, String>) -> (u8, String) {
        let started = Instant::now();
        loop {
            if let Some(event) = runner.try_recv() {
                return event;
            }
            assert!(started.elapsed() < Duration::from_mins(1), "no event");
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// Waits for the flag, then says so.
    fn until_stopped(worker: &Worker<u8, String>) {
        while !worker.is_cancelled() {
            thread::sleep(Duration::from_millis(1));
        }
        worker.answer("stopped".to_owned());
    }

    #[test]
    fn a_panic_in_any_job_is_its_slots_failure() {
        let mut runner = runner();
        runner.start(
            3,
            "panics".to_owned(),
            |message| format!("failed: {message}"),
            |_| panic!("on purpose"),
        );
        assert_eq!(
            next(&runner),
            (3, "failed: internal error: on purpose".to_owned())
        );
    }

    #[test]
    fn a_job_asked_to_stop_still_answers_and_a_cancelled_one_is_silenced() {
        let mut runner = runner();
        runner.start(1, "asked".to_owned(), |message| message, until_stopped);
        runner.start(2, "cancelled".to_owned(), |message| message, until_stopped);
        let (_, cancelled_finished) = runner.flags(2).expect("slot 2 runs");
        runner.ask_to_stop(1);
        runner.cancel(2);
        assert!(runner.is_current(1) && !runner.is_current(2));
        assert_eq!(next(&runner), (1, "stopped".to_owned()));
        let started = Instant::now();
        while !cancelled_finished.load(Ordering::Acquire) {
            assert!(started.elapsed() < Duration::from_mins(1), "slot 2 went on");
            thread::sleep(Duration::from_millis(1));
        }
        // Slot 2's answer was sent, and dropped.
        assert!(runner.try_recv().is_none());
        runner.forget(1);
        assert!(!runner.is_current(1));
    }
}
