//! File ▸ Open folder…: the table of a tree's files ([`FolderTable`]: rows,
//! sorted and filtered, and which are selected) and the background scan
//! that fills it ([`FolderScan`], on the app's [`Runner`] with the workers
//! of [`scan_tree`]). Converting the selected files is
//! [`convert`](crate::model::folder_convert).

use std::cmp::Ordering as CmpOrdering;
use std::collections::BTreeSet;
use std::fs;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

use mojiscope_core::Encoding;

use crate::model::jobs::{Repaint, Runner, Worker};
use crate::model::scan::{FileScan, Outcome, ScanItem, scan_tree};
use crate::model::wording::reason;

/// Events wait here until the window drains them.
const CHANNEL_CAPACITY: usize = 64;

/// A batch of rows is sent once it holds this many...
const BATCH_ROWS: usize = 256;

/// ...or once this long has passed since the last one.
const BATCH_INTERVAL: Duration = Duration::from_millis(100);

/// The count of files is reported each time it grows by this many.
const COUNT_STEP: u64 = 500;

/// What became of one entry of the tree.
#[derive(Clone, Debug)]
pub enum RowKind {
    /// A regular file, scanned.
    Scanned(FileScan),
    /// Not opened (a symbolic link, a FIFO, a socket, a device): why.
    Skipped(&'static str),
    /// Not scanned: reading it failed, and why.
    Unreadable(String),
}

/// One row of the table.
#[derive(Clone, Debug)]
pub struct FolderRow {
    /// The entry's path.
    pub path: PathBuf,
    /// The path as shown: below the folder scanned, `/` between parts.
    pub name: String,
    /// What the scan found.
    pub kind: RowKind,
    /// The notes column, made once: sorting and filtering read it often.
    notes: String,
}

impl FolderRow {
    /// A row of what the scan reported for an entry under `root`.
    pub fn new(root: &Path, item: ScanItem) -> FolderRow {
        let name = item
            .path
            .strip_prefix(root)
            .ok()
            .filter(|relative| !relative.as_os_str().is_empty())
            .unwrap_or(&item.path)
            .to_string_lossy()
            .replace('\\', "/");
        let kind = match item.outcome {
            Outcome::Scanned(scan) => RowKind::Scanned(scan),
            Outcome::Skipped(special) => RowKind::Skipped(special.describe()),
            Outcome::Unreadable(error) => {
                let (what, source) = error.parts();
                RowKind::Unreadable(match source {
                    Some(source) => format!("{what}: {}", reason(source)),
                    None => what.to_owned(),
                })
            }
        };
        FolderRow::of(item.path, name, kind)
    }

    /// A row of `kind` for the entry at `path`, shown as `name`.
    pub fn of(path: PathBuf, name: String, kind: RowKind) -> FolderRow {
        let notes = match &kind {
            RowKind::Scanned(scan) => scan.notes().join(" "),
            RowKind::Skipped(why) => format!("skipped: {why}"),
            RowKind::Unreadable(why) => why.clone(),
        };
        FolderRow {
            path,
            name,
            kind,
            notes,
        }
    }

    /// The scan of a regular file read.
    pub fn scan(&self) -> Option<&FileScan> {
        match &self.kind {
            RowKind::Scanned(scan) => Some(scan),
            _ => None,
        }
    }

    /// The size column: bytes, or nothing for an entry not read.
    pub fn size(&self) -> Option<u64> {
        self.scan().map(|scan| scan.size)
    }

    /// The encoding column: a name, `binary`, or `skipped`/`unreadable`.
    pub fn encoding_text(&self) -> &'static str {
        match &self.kind {
            RowKind::Scanned(scan) => scan.encoding.map_or("binary", Encoding::name),
            RowKind::Skipped(_) => "skipped",
            RowKind::Unreadable(_) => "unreadable",
        }
    }

    /// The confidence column, from 0 to 1.
    pub fn confidence(&self) -> Option<f64> {
        self.scan().map(|scan| scan.confidence)
    }

    /// The errors column.
    pub fn errors(&self) -> Option<u64> {
        self.scan().map(|scan| scan.errors)
    }

    /// The notes column: `mojiscope scan`'s notes, or why the entry was not
    /// read.
    pub fn notes_text(&self) -> &str {
        &self.notes
    }

    /// Whether the row shows something wrong or worth a look: decoding
    /// errors, any note, or an entry not read.
    pub fn has_errors_or_notes(&self) -> bool {
        match &self.kind {
            RowKind::Scanned(scan) => scan.errors > 0 || !self.notes.is_empty(),
            RowKind::Skipped(_) | RowKind::Unreadable(_) => true,
        }
    }

    /// The row as a screen reader reads it: every column, named.
    pub fn spoken(&self) -> String {
        match &self.kind {
            RowKind::Scanned(scan) => {
                let notes = self.notes_text();
                format!(
                    "{}: {}, {} bytes, confidence {:.0}%, {} errors{}",
                    self.name,
                    self.encoding_text(),
                    scan.size,
                    scan.confidence * 100.0,
                    scan.errors,
                    if notes.is_empty() {
                        String::new()
                    } else {
                        format!(", notes: {notes}")
                    }
                )
            }
            RowKind::Skipped(_) | RowKind::Unreadable(_) => {
                format!("{}: {}", self.name, self.notes_text())
            }
        }
    }
}

/// A column of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Column {
    /// The path below the folder.
    Path,
    /// The size in bytes.
    Size,
    /// The encoding detection names.
    Encoding,
    /// How sure detection is.
    Confidence,
    /// The decoding errors.
    Errors,
    /// The notes.
    Notes,
}

impl Column {
    /// Every column, in the table's order.
    pub const ALL: [Column; 6] = [
        Column::Path,
        Column::Size,
        Column::Encoding,
        Column::Confidence,
        Column::Errors,
        Column::Notes,
    ];

    /// Its heading.
    pub fn title(self) -> &'static str {
        match self {
            Column::Path => "Path",
            Column::Size => "Size",
            Column::Encoding => "Encoding",
            Column::Confidence => "Confidence",
            Column::Errors => "Errors",
            Column::Notes => "Notes",
        }
    }

    /// How two rows compare in this column, ascending unless `descending`;
    /// rows without a value (entries not read) come last either way, and
    /// ties go by path.
    fn compare(self, a: &FolderRow, b: &FolderRow, descending: bool) -> CmpOrdering {
        let directed = |ordering: CmpOrdering| {
            if descending {
                ordering.reverse()
            } else {
                ordering
            }
        };
        let missing_last = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => directed(a.partial_cmp(&b).unwrap_or(CmpOrdering::Equal)),
            (Some(_), None) => CmpOrdering::Less,
            (None, Some(_)) => CmpOrdering::Greater,
            (None, None) => CmpOrdering::Equal,
        };
        #[expect(
            clippy::cast_precision_loss,
            reason = "sizes and counts compared as f64: exact below 2^53"
        )]
        let ordering = match self {
            Column::Path => CmpOrdering::Equal,
            Column::Size => missing_last(a.size().map(|n| n as f64), b.size().map(|n| n as f64)),
            Column::Encoding => directed(a.encoding_text().cmp(b.encoding_text())),
            Column::Confidence => missing_last(a.confidence(), b.confidence()),
            Column::Errors => {
                missing_last(a.errors().map(|n| n as f64), b.errors().map(|n| n as f64))
            }
            Column::Notes => directed(a.notes_text().cmp(b.notes_text())),
        };
        ordering.then_with(|| directed(a.name.cmp(&b.name)))
    }
}

/// How the table is sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SortOrder {
    /// By which column.
    pub column: Column,
    /// Largest (or last) first.
    pub descending: bool,
}

impl Default for SortOrder {
    fn default() -> Self {
        SortOrder {
            column: Column::Path,
            descending: false,
        }
    }
}

/// How a click (or a key) selects rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectMode {
    /// This row alone.
    Only,
    /// This row added or taken away (Ctrl).
    Toggle,
    /// Every row from the anchor to this one (Shift).
    Range,
}

/// The table: every row found, which are shown and in what order, and
/// which are selected.
#[derive(Debug, Default)]
pub struct FolderTable {
    rows: Vec<FolderRow>,
    /// The rows shown, as indexes into `rows`, in the order shown.
    shown: Vec<usize>,
    sort: SortOrder,
    filter: String,
    only_problems: bool,
    /// Selected rows, as indexes into `rows`.
    selected: BTreeSet<usize>,
    /// The row the keyboard is on, as an index into `rows`.
    cursor: Option<usize>,
    /// Where a Shift selection starts, as an index into `rows`.
    anchor: Option<usize>,
}

impl FolderTable {
    /// Every row found, in the walk's order.
    pub fn rows(&self) -> &[FolderRow] {
        &self.rows
    }

    /// The rows shown, in the order shown, as indexes into [`rows`](Self::rows).
    pub fn shown(&self) -> &[usize] {
        &self.shown
    }

    /// Adds rows found by the scan.
    pub fn extend(&mut self, rows: impl IntoIterator<Item = FolderRow>) {
        let start = self.rows.len();
        self.rows.extend(rows);
        let added: Vec<usize> = (start..self.rows.len())
            .filter(|&index| self.passes(&self.rows[index]))
            .collect();
        if added.is_empty() {
            return;
        }
        self.shown.extend(added);
        self.sort_shown();
    }

    /// Forgets every row.
    pub fn clear(&mut self) {
        let sort = self.sort;
        *self = FolderTable {
            sort,
            ..FolderTable::default()
        };
    }

    /// How the table is sorted.
    pub fn sort(&self) -> SortOrder {
        self.sort
    }

    /// Sorts by `column`: ascending at first, the other way round if it is
    /// sorted by it already.
    pub fn sort_by(&mut self, column: Column) {
        self.sort = SortOrder {
            column,
            descending: self.sort.column == column && !self.sort.descending,
        };
        self.sort_shown();
    }

    /// The text filter.
    pub fn filter(&self) -> &str {
        &self.filter
    }

    /// Whether only rows with errors or notes are shown.
    pub fn only_problems(&self) -> bool {
        self.only_problems
    }

    /// Shows only rows whose path, encoding or notes hold `filter` (case
    /// ignored), and only those with errors or notes if `only_problems`.
    /// Selected rows hidden by the filter stay selected.
    pub fn set_filter(&mut self, filter: &str, only_problems: bool) {
        if filter == self.filter && only_problems == self.only_problems {
            return;
        }
        filter.clone_into(&mut self.filter);
        self.only_problems = only_problems;
        self.shown = (0..self.rows.len())
            .filter(|&index| self.passes(&self.rows[index]))
            .collect();
        self.sort_shown();
    }

    fn passes(&self, row: &FolderRow) -> bool {
        if self.only_problems && !row.has_errors_or_notes() {
            return false;
        }
        if self.filter.is_empty() {
            return true;
        }
        let needle = self.filter.to_lowercase();
        row.name.to_lowercase().contains(&needle)
            || row.encoding_text().to_lowercase().contains(&needle)
            || row.notes_text().to_lowercase().contains(&needle)
    }

    fn sort_shown(&mut self) {
        let SortOrder { column, descending } = self.sort;
        let rows = &self.rows;
        self.shown
            .sort_by(|&a, &b| column.compare(&rows[a], &rows[b], descending));
    }

    /// The selected rows, as indexes into [`rows`](Self::rows), in the
    /// walk's order.
    pub fn selected(&self) -> impl Iterator<Item = usize> + '_ {
        self.selected.iter().copied()
    }

    /// Whether row `index` is selected.
    pub fn is_selected(&self, index: usize) -> bool {
        self.selected.contains(&index)
    }

    /// The row the keyboard is on.
    pub fn cursor(&self) -> Option<usize> {
        self.cursor
    }

    /// Selects row `index` as `mode` says, and puts the cursor on it.
    pub fn select(&mut self, index: usize, mode: SelectMode) {
        if index >= self.rows.len() {
            return;
        }
        match mode {
            SelectMode::Only => {
                self.selected.clear();
                self.selected.insert(index);
                self.anchor = Some(index);
            }
            SelectMode::Toggle => {
                if !self.selected.remove(&index) {
                    self.selected.insert(index);
                }
                self.anchor = Some(index);
            }
            SelectMode::Range => {
                let anchor = self.anchor.unwrap_or(index);
                let position = |row| self.shown.iter().position(|&shown| shown == row);
                if let (Some(from), Some(to)) = (position(anchor), position(index)) {
                    let (low, high) = if from <= to { (from, to) } else { (to, from) };
                    self.selected = self.shown[low..=high].iter().copied().collect();
                } else {
                    self.selected.insert(index);
                }
                self.anchor = Some(anchor);
            }
        }
        self.cursor = Some(index);
    }

    /// Selects every row shown.
    pub fn select_all(&mut self) {
        self.selected = self.shown.iter().copied().collect();
    }

    /// Moves the cursor `by` rows up (negative) or down the rows shown,
    /// selecting as `mode` says (`None`: moves it alone).
    pub fn move_cursor(&mut self, by: isize, mode: Option<SelectMode>) {
        let Some(last) = self.shown.len().checked_sub(1) else {
            return;
        };
        let position = self
            .cursor
            .and_then(|cursor| self.shown.iter().position(|&shown| shown == cursor));
        let next = match position {
            Some(position) => position.saturating_add_signed(by).min(last),
            None if by < 0 => last,
            None => 0,
        };
        let index = self.shown[next];
        match mode {
            Some(mode) => self.select(index, mode),
            None => self.cursor = Some(index),
        }
    }
}

/// The background jobs of the folder view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FolderJob {
    /// The scan that fills the table.
    Scan,
    /// The quick count of the files to expect.
    Count,
    /// The check of the files to convert.
    Check,
    /// The conversion.
    Convert,
}

/// What the scan and the count report.
#[derive(Debug)]
pub enum ScanEvent {
    /// Entries scanned, in the walk's order.
    Rows(Vec<ScanItem>),
    /// The scan went through the whole tree.
    Done,
    /// So many regular files were counted so far (`done`: all of them).
    Counted {
        /// Files counted.
        files: u64,
        /// Whether the count is over.
        done: bool,
    },
    /// The job failed (a bug).
    Failed(String),
}

/// A scan of a folder, filling a [`FolderTable`].
pub struct FolderScan {
    runner: Runner<FolderJob, ScanEvent>,
    /// The folder scanned.
    pub root: Option<PathBuf>,
    /// The rows found so far.
    pub table: FolderTable,
    /// Whether the scan is running.
    pub running: bool,
    /// Whether the user stopped it.
    pub cancelled: bool,
    /// Regular files found by the count, and whether it is over.
    pub expected: Option<(u64, bool)>,
    /// Regular files scanned so far (read or not).
    pub files_done: u64,
    /// Why the scan failed, if it did.
    pub failure: Option<String>,
}

impl std::fmt::Debug for FolderScan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FolderScan")
            .field("root", &self.root)
            .field("rows", &self.table.rows.len())
            .field("running", &self.running)
            .finish_non_exhaustive()
    }
}

impl FolderScan {
    /// No scan yet; `repaint` is called when rows arrive.
    pub fn new(repaint: Repaint) -> FolderScan {
        FolderScan {
            runner: Runner::new(CHANNEL_CAPACITY, repaint),
            root: None,
            table: FolderTable::default(),
            running: false,
            cancelled: false,
            expected: None,
            files_done: 0,
            failure: None,
        }
    }

    /// Scans `root` anew on every core: the count of files to expect, and
    /// the scan itself, each a job.
    pub fn start(&mut self, root: PathBuf) {
        self.table.clear();
        self.running = true;
        self.cancelled = false;
        self.expected = None;
        self.files_done = 0;
        self.failure = None;
        self.root = Some(root.clone());
        let workers = thread::available_parallelism().map_or(1, NonZeroUsize::get);
        let count_root = root.clone();
        self.runner.start(
            FolderJob::Count,
            "folder count".to_owned(),
            ScanEvent::Failed,
            move |worker| count_files(&count_root, worker),
        );
        self.runner.start(
            FolderJob::Scan,
            "folder scan".to_owned(),
            ScanEvent::Failed,
            move |worker| scan_job(&root, workers, worker),
        );
    }

    /// Stops the scan: the rows found so far stay.
    pub fn cancel(&mut self) {
        if self.running {
            self.cancelled = true;
        }
        self.running = false;
        self.runner.cancel(FolderJob::Scan);
        self.runner.cancel(FolderJob::Count);
    }

    /// Takes in what the jobs reported since the last frame, a bounded
    /// number of events at a time. Returns whether anything arrived.
    pub fn poll(&mut self) -> bool {
        let mut any = false;
        for _ in 0..CHANNEL_CAPACITY {
            let Some((job, event)) = self.runner.try_recv() else {
                break;
            };
            any = true;
            match event {
                ScanEvent::Rows(items) => {
                    let Some(root) = self.root.clone() else {
                        continue;
                    };
                    self.files_done += items
                        .iter()
                        .filter(|item| {
                            matches!(item.outcome, Outcome::Scanned(_) | Outcome::Unreadable(_))
                        })
                        .count() as u64;
                    self.table
                        .extend(items.into_iter().map(|item| FolderRow::new(&root, item)));
                }
                ScanEvent::Done => {
                    self.running = false;
                    self.runner.forget(job);
                }
                ScanEvent::Counted { files, done } => {
                    self.expected = Some((files, done));
                    if done {
                        self.runner.forget(job);
                    }
                }
                ScanEvent::Failed(message) => {
                    self.runner.forget(job);
                    if job == FolderJob::Scan {
                        self.running = false;
                        self.failure = Some(message);
                    }
                }
            }
        }
        any
    }

    /// Whether no job is running or has events to deliver.
    pub fn is_idle(&self) -> bool {
        !self.running && !self.runner.is_current(FolderJob::Count)
    }

    /// The progress line: "1,234 of ~5,000 files".
    pub fn progress_text(&self) -> String {
        let done = thousands(self.files_done);
        match self.expected {
            Some((files, true)) => format!("{done} of ~{} files", thousands(files)),
            Some((files, false)) => format!("{done} of at least ~{} files", thousands(files)),
            None => format!("{done} files"),
        }
    }
}

/// `n` with a comma between each three digits: 12,345.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (position, digit) in digits.chars().enumerate() {
        if position > 0 && (digits.len() - position).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// The scan job: rows sent in batches, in the walk's order.
fn scan_job(root: &Path, workers: usize, worker: &Worker<FolderJob, ScanEvent>) {
    let mut batch = Vec::new();
    let mut last_sent = Instant::now();
    let result = scan_tree(
        std::slice::from_ref(&root.to_path_buf()),
        workers,
        worker.cancel_flag(),
        |item| {
            batch.push(item);
            if batch.len() >= BATCH_ROWS || last_sent.elapsed() >= BATCH_INTERVAL {
                last_sent = Instant::now();
                if !worker.send(ScanEvent::Rows(std::mem::take(&mut batch))) {
                    return Err(());
                }
            }
            Ok(())
        },
    );
    if result.is_err() || worker.is_cancelled() {
        return;
    }
    if !batch.is_empty() && !worker.send(ScanEvent::Rows(batch)) {
        return;
    }
    worker.send(ScanEvent::Done);
}

/// Counts the regular files under `root` as the walk will find them (no
/// symbolic link followed), from the directories' entries alone: no file
/// is opened.
fn count_files(root: &Path, worker: &Worker<FolderJob, ScanEvent>) {
    let mut files: u64 = 0;
    let mut reported: u64 = 0;
    let mut directories = Vec::new();
    match fs::symlink_metadata(root) {
        Ok(metadata) if metadata.is_dir() => directories.push(root.to_path_buf()),
        Ok(metadata) if metadata.is_file() => files = 1,
        _ => {}
    }
    while let Some(directory) = directories.pop() {
        if worker.is_cancelled() {
            return;
        }
        let Ok(entries) = fs::read_dir(&directory) else {
            continue;
        };
        for entry in entries.flatten() {
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => directories.push(entry.path()),
                Ok(kind) if kind.is_file() => files += 1,
                _ => {}
            }
        }
        if files >= reported + COUNT_STEP {
            reported = files;
            worker.send(ScanEvent::Counted { files, done: false });
        }
    }
    worker.send(ScanEvent::Counted { files, done: true });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, kind: RowKind) -> FolderRow {
        FolderRow::of(PathBuf::from(name), name.to_owned(), kind)
    }

    fn table() -> FolderTable {
        let text = "Le café est servi au salon, près de la fenêtre où il fait bon.\n";
        let clean = crate::model::scan::scan_bytes(text.repeat(4).as_bytes());
        assert!(clean.notes().is_empty() && clean.errors == 0, "{clean:?}");
        let scan = |size: u64, errors: u64| {
            let mut scan = clean.clone();
            scan.size = size;
            scan.errors = errors;
            RowKind::Scanned(scan)
        };
        let mut table = FolderTable::default();
        table.extend([
            row("b.txt", scan(47, 2)),
            row("a.txt", scan(39, 0)),
            row("c-pipe", RowKind::Skipped("a FIFO")),
            row("d.txt", scan(5, 0)),
        ]);
        table
    }

    fn names(table: &FolderTable) -> Vec<&str> {
        table
            .shown()
            .iter()
            .map(|&index| table.rows()[index].name.as_str())
            .collect()
    }

    #[test]
    fn sorting_by_a_column_twice_reverses_it() {
        let mut table = table();
        assert_eq!(names(&table), ["a.txt", "b.txt", "c-pipe", "d.txt"]);
        table.sort_by(Column::Path);
        assert_eq!(names(&table), ["d.txt", "c-pipe", "b.txt", "a.txt"]);
        table.sort_by(Column::Errors);
        assert_eq!(names(&table), ["a.txt", "d.txt", "b.txt", "c-pipe"]);
        table.sort_by(Column::Size);
        assert_eq!(names(&table), ["d.txt", "a.txt", "b.txt", "c-pipe"]);
        table.sort_by(Column::Size);
        assert_eq!(
            names(&table),
            ["b.txt", "a.txt", "d.txt", "c-pipe"],
            "no size: last either way"
        );
    }

    #[test]
    fn filters_keep_the_selection_and_ranges_follow_the_order_shown() {
        let mut table = table();
        table.select(0, SelectMode::Only);
        table.set_filter("", true);
        assert_eq!(names(&table), ["b.txt", "c-pipe"]);
        assert!(table.is_selected(0), "hidden, still selected");
        table.set_filter("TXT", false);
        assert_eq!(names(&table), ["a.txt", "b.txt", "d.txt"]);
        table.select(1, SelectMode::Only);
        table.select(3, SelectMode::Range);
        assert_eq!(table.selected().collect::<Vec<_>>(), [0, 1, 3]);
        table.move_cursor(-1, Some(SelectMode::Toggle));
        assert_eq!(table.selected().collect::<Vec<_>>(), [1, 3]);
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1234), "1,234");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
