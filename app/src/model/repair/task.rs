//! The repair the Repair window is about ([`RepairTask`]), from its start
//! to its review: which decode of which load of which file, the job's
//! progress, and then the [`Review`], or why there is none.

use std::path::PathBuf;

use super::review::Review;
use super::{PROGRESS_TOTAL, RepairOutcome, RepairRequest};

/// Where a repair job came from: which decode of which load of which file.
#[derive(Clone, Debug, PartialEq)]
pub struct RepairJob {
    /// The decode.
    pub request: RepairRequest,
    /// The document's generation when it started.
    pub generation: u64,
    /// The document's path.
    pub path: PathBuf,
}

/// What the window shows.
#[derive(Debug, Default)]
pub enum RepairState {
    /// No repair asked for yet.
    #[default]
    Idle,
    /// The job is running.
    Running {
        /// What it repairs.
        job: RepairJob,
        /// Its progress, out of [`PROGRESS_TOTAL`].
        progress: u64,
    },
    /// The repair is done: what it found and what the user accepts.
    Done(Box<Review>),
    /// The job could not be done.
    Failed {
        /// What it was to repair.
        job: RepairJob,
        /// Why, for people.
        message: String,
    },
    /// The user cancelled the job.
    Cancelled {
        /// What it was to repair.
        job: RepairJob,
    },
}

/// The repair the window is about, and what became of it.
#[derive(Debug, Default)]
pub struct RepairTask {
    /// The repair.
    pub state: RepairState,
    /// Why the last "Save repaired text as…" was refused, until the next
    /// repair.
    save_refused: Option<String>,
}

impl RepairTask {
    /// A repair of `job` has started: what was shown before is dropped.
    pub fn start(&mut self, job: RepairJob) {
        self.state = RepairState::Running { job, progress: 0 };
        self.save_refused = None;
    }

    /// "Save repaired text as…" was refused: says why in the window.
    pub fn refuse_save(&mut self, message: &str) {
        self.save_refused = Some(message.to_owned());
    }

    /// Why the last "Save repaired text as…" was refused, if it was.
    pub fn save_refused(&self) -> Option<&str> {
        self.save_refused.as_deref()
    }

    /// The running job did `done` of `total`.
    pub fn progress(&mut self, done: u64, total: u64) {
        if let RepairState::Running { progress, .. } = &mut self.state {
            *progress = done.saturating_mul(PROGRESS_TOTAL) / total.max(1);
        }
    }

    /// The running job finished with `outcome`.
    pub fn finished(&mut self, outcome: RepairOutcome) {
        self.state = match std::mem::take(&mut self.state) {
            RepairState::Running { job, .. } => RepairState::Done(Box::new(Review::new(
                job.request,
                job.generation,
                job.path,
                outcome,
            ))),
            other => other,
        };
    }

    /// The running job failed.
    pub fn failed(&mut self, message: String) {
        if let RepairState::Running { job, .. } = &self.state {
            self.state = RepairState::Failed {
                job: job.clone(),
                message,
            };
        }
    }

    /// The running job was cancelled.
    pub fn cancelled(&mut self) {
        if let RepairState::Running { job, .. } = &self.state {
            self.state = RepairState::Cancelled { job: job.clone() };
        }
    }

    /// The job the window is about, if any.
    pub fn job(&self) -> Option<RepairJob> {
        match &self.state {
            RepairState::Idle => None,
            RepairState::Running { job, .. }
            | RepairState::Failed { job, .. }
            | RepairState::Cancelled { job } => Some(job.clone()),
            RepairState::Done(review) => Some(RepairJob {
                request: review.request(),
                generation: review.generation(),
                path: review.path().to_path_buf(),
            }),
        }
    }

    /// Whether a repair for load `generation` of the open document is
    /// running (`None`: no document is open).
    pub fn is_waiting(&self, generation: Option<u64>) -> bool {
        matches!(&self.state, RepairState::Running { job, .. } if Some(job.generation) == generation)
    }

    /// Whether the repair running or done is of `request` for `generation`
    /// (asking again would find the same).
    pub fn is_current(&self, request: RepairRequest, generation: u64) -> bool {
        matches!(
            &self.state,
            RepairState::Running { .. } | RepairState::Done(_)
        ) && self
            .job()
            .is_some_and(|job| job.request == request && job.generation == generation)
    }

    /// The finished repair, stale or not.
    pub fn review(&self) -> Option<&Review> {
        match &self.state {
            RepairState::Done(review) => Some(review),
            _ => None,
        }
    }

    /// The finished repair, stale or not, to accept or reject its changes.
    pub fn review_mut(&mut self) -> Option<&mut Review> {
        match &mut self.state {
            RepairState::Done(review) => Some(review),
            _ => None,
        }
    }

    /// The finished repair if it is of load `generation` of the open
    /// document (`None` when no document is open): the one Save may write,
    /// as [`Review::accepted_text`], in place of the decode of
    /// [`Review::encoding`]. A repair of an earlier load is stale: its text
    /// is not what is open now.
    pub fn current_review(&self, generation: Option<u64>) -> Option<&Review> {
        self.review()
            .filter(|review| Some(review.generation()) == generation)
    }
}
