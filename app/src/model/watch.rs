//! Watching the open file: when it changes on disk (written in place, or
//! replaced, as editors save by writing a new file and renaming it over the
//! old one), the window reloads it; when it goes, the window says so.
//!
//! The directory is watched rather than the file, so that a rename over the
//! file or its deletion are seen too; events for other files are ignored.
//! Bursts of events (an editor's write, then its rename) are gathered: the
//! window acts once things have been quiet for [`SETTLE`].

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use notify::{EventKind, RecursiveMode, Watcher as _};

use crate::model::jobs::Repaint;

/// How long the file must be left alone before the window reacts.
pub const SETTLE: Duration = Duration::from_millis(250);

/// How long events may keep coming before the window says the file keeps
/// changing (a log being written, say): reloading a large file at every
/// line would start its analysis over and over.
pub const BUSY: Duration = Duration::from_secs(2);

/// What happened to the watched file, once things settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// It was written to or replaced, and is there: reload it.
    Modified,
    /// It is gone.
    Removed,
    /// It has been changing for [`BUSY`] without a pause (said once per
    /// burst); a [`Change::Modified`] follows once it is quiet.
    StillChanging,
}

/// A watch on one file.
pub struct FileWatch {
    path: PathBuf,
    /// Keeps the watch alive.
    _watcher: notify::RecommendedWatcher,
    events: Receiver<()>,
    /// When the last event arrived, if one is waiting to settle.
    pending_since: Option<Instant>,
    /// When the first event of the current burst arrived, until the burst
    /// has been reported as [`Change::StillChanging`].
    burst_since: Option<Instant>,
}

impl std::fmt::Debug for FileWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileWatch")
            .field("path", &self.path)
            .field("pending_since", &self.pending_since)
            .finish_non_exhaustive()
    }
}

impl FileWatch {
    /// Watches `path`; `repaint` is called when something happens to it.
    ///
    /// # Errors
    /// If the system cannot watch its directory (too many watches, say); the
    /// window then simply does not follow changes.
    pub fn new(path: &Path, repaint: Repaint) -> notify::Result<FileWatch> {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let directory = path
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        let (sender, events) = mpsc::channel();
        let watched = path.clone();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                let Ok(event) = event else {
                    return;
                };
                let relevant = !matches!(event.kind, EventKind::Access(_))
                    && event.paths.iter().any(|changed| changed == &watched);
                // The window may be gone; then nobody listens.
                if relevant && sender.send(()).is_ok() {
                    repaint();
                }
            })?;
        watcher.watch(&directory, RecursiveMode::NonRecursive)?;
        Ok(FileWatch {
            path,
            _watcher: watcher,
            events,
            pending_since: None,
            burst_since: None,
        })
    }

    /// Whether this watches `path`.
    pub fn is(&self, path: &Path) -> bool {
        std::path::absolute(path).is_ok_and(|path| path == self.path)
    }

    /// What happened to the file, once events have settled; `None` while
    /// nothing did or while they are still coming. The caller polls this
    /// every frame and asks for a repaint after [`FileWatch::wait`].
    pub fn poll(&mut self, now: Instant) -> Option<Change> {
        while self.events.try_recv().is_ok() {
            if self.pending_since.is_none() {
                self.burst_since = Some(now);
            }
            self.pending_since = Some(now);
        }
        let since = self.pending_since?;
        if now.duration_since(since) < SETTLE {
            if self
                .burst_since
                .is_some_and(|burst| now.duration_since(burst) >= BUSY)
            {
                self.burst_since = None;
                return Some(Change::StillChanging);
            }
            return None;
        }
        self.pending_since = None;
        self.burst_since = None;
        Some(if self.path.is_file() {
            Change::Modified
        } else {
            Change::Removed
        })
    }

    /// How long until [`poll`](Self::poll) may have news, if events wait.
    pub fn wait(&self, now: Instant) -> Option<Duration> {
        self.pending_since
            .map(|since| SETTLE.saturating_sub(now.duration_since(since)))
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// Polls until a change settles (bounded).
    fn settled(watch: &mut FileWatch) -> Option<Change> {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if let Some(change) = watch.poll(Instant::now()) {
                return Some(change);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    #[test]
    fn writes_renames_and_deletions_are_seen_once_settled() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        fs::write(&path, b"one").unwrap();
        let repaints = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&repaints);
        let mut watch = FileWatch::new(
            &path,
            Arc::new(move || {
                counter.fetch_add(1, Ordering::Relaxed);
            }),
        )
        .unwrap();
        assert_eq!(watch.poll(Instant::now()), None);

        // Another file in the directory is not ours.
        fs::write(dir.path().join("other.txt"), b"x").unwrap();
        std::thread::sleep(SETTLE * 2);
        assert_eq!(watch.poll(Instant::now()), None);

        fs::write(&path, b"two").unwrap();
        assert_eq!(settled(&mut watch), Some(Change::Modified));
        assert!(repaints.load(Ordering::Relaxed) > 0);

        // Saved the way editors do: a new file renamed over the old one.
        let temporary = dir.path().join(".notes.txt.swp");
        fs::write(&temporary, b"three").unwrap();
        fs::rename(&temporary, &path).unwrap();
        assert_eq!(settled(&mut watch), Some(Change::Modified));

        fs::remove_file(&path).unwrap();
        assert_eq!(settled(&mut watch), Some(Change::Removed));
    }

    #[test]
    fn a_file_that_keeps_changing_is_said_to_once_then_reloaded_when_quiet() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("growing.log");
        fs::write(&path, b"").unwrap();
        let mut watch = FileWatch::new(&path, Arc::new(|| {})).unwrap();
        let start = Instant::now();
        let mut seen = Vec::new();
        let mut line = 0;
        // Written every 50 ms for three seconds: never quiet for SETTLE.
        while start.elapsed() < BUSY + Duration::from_secs(1) {
            line += 1;
            fs::write(&path, format!("line {line}\n")).unwrap();
            std::thread::sleep(Duration::from_millis(50));
            if let Some(change) = watch.poll(Instant::now()) {
                seen.push(change);
            }
        }
        assert_eq!(seen, [Change::StillChanging]);
        assert_eq!(settled(&mut watch), Some(Change::Modified));
    }

    #[test]
    fn a_burst_of_events_is_one_change() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.txt");
        fs::write(&path, b"").unwrap();
        let mut watch = FileWatch::new(&path, Arc::new(|| {})).unwrap();
        for line in 0..20 {
            fs::write(&path, format!("line {line}\n")).unwrap();
        }
        assert_eq!(settled(&mut watch), Some(Change::Modified));
        std::thread::sleep(SETTLE * 2);
        assert_eq!(watch.poll(Instant::now()), None);
    }
}
