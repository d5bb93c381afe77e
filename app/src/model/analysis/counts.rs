//! Error counts of every candidate encoding over a whole file, at once
//! ([`count_errors`]): what `mojiscope inspect` prints, what the encoding
//! chooser shows beside each encoding, and how the first panes are chosen
//! when detection has nothing to say.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread;

use mojiscope_core::{
    BomHandling, DecodeErrorMode, Decoder, Encoding, ErrorCounter, GB18030, GBK, X_USER_DEFINED,
};

use super::{ErrorOffsets, WORK_CHUNK};

/// How many error offsets [`count_errors`] keeps per encoding.
pub const FIRST_ERROR_OFFSETS: usize = 100;

/// The worker threads [`count_errors`] runs on.
const COUNT_THREADS: usize = 2;

/// One encoding's errors over a whole file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorCount {
    /// The encoding.
    pub encoding: &'static Encoding,
    /// How many errors its decoder reports over every byte of the file.
    pub errors: u64,
    /// The offsets of the first [`FIRST_ERROR_OFFSETS`] of them.
    pub first_error_offsets: Vec<u64>,
}

/// Decodes all of `bytes` with each of `encodings` (no BOM handling,
/// replacement mode) and counts the errors, in the order given.
///
/// The single-byte encodings (and x-user-defined) are counted together from
/// one histogram of the bytes, since each byte decodes on its own; the other
/// decoders run on two named worker threads. Returns `None` if `cancel` was
/// set (it is looked at between `MiB`s).
pub fn count_errors(
    bytes: &[u8],
    encodings: &[&'static Encoding],
    cancel: &AtomicBool,
) -> Option<Vec<ErrorCount>> {
    count_errors_with_progress(bytes, encodings, cancel, &|_, _| {})
}

/// [`count_errors`], reporting progress as `progress(done, total)` in
/// arbitrary units from the worker threads.
pub fn count_errors_with_progress(
    bytes: &[u8],
    encodings: &[&'static Encoding],
    cancel: &AtomicBool,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Option<Vec<ErrorCount>> {
    let mut bytewise: Vec<&'static Encoding> = Vec::new();
    let mut tasks: Vec<Task> = Vec::new();
    for &encoding in encodings {
        if is_bytewise(encoding) {
            if !bytewise.contains(&encoding) {
                bytewise.push(encoding);
            }
        } else {
            let decoder = same_decoder(encoding);
            if !tasks.contains(&Task::Decode(decoder)) {
                tasks.push(Task::Decode(decoder));
            }
        }
    }
    if !bytewise.is_empty() {
        // Last: it is the quickest, and fills in while the other worker
        // finishes its decoder.
        tasks.push(Task::Bytewise(bytewise));
    }

    let total = bytes.len() as u64 * tasks.len() as u64;
    let done = AtomicU64::new(0);
    let tick = |len: usize| {
        let now = done.fetch_add(len as u64, Ordering::Relaxed) + len as u64;
        progress(now, total);
    };
    let next_task = AtomicUsize::new(0);
    let work = || -> Option<Vec<ErrorCount>> {
        let mut counted = Vec::new();
        while let Some(task) = tasks.get(next_task.fetch_add(1, Ordering::Relaxed)) {
            match task {
                Task::Decode(encoding) => {
                    counted.push(count_decoder(bytes, encoding, cancel, &tick)?);
                }
                Task::Bytewise(encodings) => {
                    counted.extend(count_bytewise(bytes, encodings, cancel, &tick)?);
                }
            }
        }
        Some(counted)
    };
    // Scoped fan-out inside one job, not jobs of their own (which start
    // only through `model::jobs`): the threads borrow the bytes and the
    // tasks, and are joined before this returns, whoever called it (the
    // counting job, or `mojiscope inspect` on its own thread).
    let results = thread::scope(|scope| {
        let workers: Vec<_> = (0..COUNT_THREADS.min(tasks.len()))
            .map(|worker| {
                thread::Builder::new()
                    .name(format!("count-errors:{worker}"))
                    .spawn_scoped(scope, work)
            })
            .collect();
        let mut results = Vec::new();
        for worker in workers {
            match worker {
                Ok(handle) => match handle.join() {
                    Ok(counted) => results.push(counted),
                    Err(panic) => std::panic::resume_unwind(panic),
                },
                // No thread: this one does the work itself.
                Err(_) => results.push(work()),
            }
        }
        results
    });

    let mut by_encoding: HashMap<&'static Encoding, ErrorCount> = HashMap::new();
    for counted in results {
        for count in counted? {
            by_encoding.insert(count.encoding, count);
        }
    }
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    encodings
        .iter()
        .map(|&encoding| {
            let count = by_encoding.get(&same_decoder(encoding))?;
            Some(ErrorCount {
                encoding,
                ..count.clone()
            })
        })
        .collect()
}

/// One unit of [`count_errors`]'s work.
#[derive(Debug, PartialEq, Eq)]
enum Task {
    /// One decoder over all the bytes.
    Decode(&'static Encoding),
    /// The byte histogram, for these encodings.
    Bytewise(Vec<&'static Encoding>),
}

/// Whether each byte decodes on its own, whatever surrounds it.
pub(crate) fn is_bytewise(encoding: &'static Encoding) -> bool {
    encoding.is_single_byte() || encoding == X_USER_DEFINED
}

/// The encoding whose decoder `encoding` uses: the standard's GBK decoder is
/// the gb18030 decoder, so their errors are the same.
pub(crate) fn same_decoder(encoding: &'static Encoding) -> &'static Encoding {
    if encoding == GBK { GB18030 } else { encoding }
}

/// Runs `encoding`'s decoder over `bytes`, counting errors.
fn count_decoder(
    bytes: &[u8],
    encoding: &'static Encoding,
    cancel: &AtomicBool,
    tick: &dyn Fn(usize),
) -> Option<ErrorCount> {
    let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
    let mut sink = ErrorOffsets::new(FIRST_ERROR_OFFSETS);
    if bytes.is_empty() {
        let _ = decoder.decode(&[], true, &mut sink);
    }
    let mut chunks = bytes.chunks(WORK_CHUNK).peekable();
    while let Some(chunk) = chunks.next() {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let last = chunks.peek().is_none();
        let _ = decoder.decode(chunk, last, &mut sink);
        tick(chunk.len());
    }
    Some(ErrorCount {
        encoding,
        errors: sink.errors,
        first_error_offsets: sink.offsets,
    })
}

/// Counts the errors of encodings whose bytes decode one at a time, from one
/// histogram of the bytes, then finds the first offsets of those with errors
/// in one more scan.
fn count_bytewise(
    bytes: &[u8],
    encodings: &[&'static Encoding],
    cancel: &AtomicBool,
    tick: &dyn Fn(usize),
) -> Option<Vec<ErrorCount>> {
    // Bit `i` of `rejects[byte]`: `encodings[i]` reports an error for `byte`.
    // There are 29 bytewise encodings, so the bits suffice; any beyond 64
    // (which would be duplicates) are left to their own decoder.
    let (encodings, others) = encodings.split_at(encodings.len().min(64));
    let rejects = reject_table(encodings);

    let histogram = byte_histogram(bytes, cancel, tick)?;
    let mut counts: Vec<ErrorCount> = encodings
        .iter()
        .enumerate()
        .map(|(bit, &encoding)| ErrorCount {
            encoding,
            errors: (0..256)
                .filter(|&byte| rejects[byte] & (1 << bit) != 0)
                .map(|byte| histogram[byte])
                .sum(),
            first_error_offsets: Vec::new(),
        })
        .collect();

    // Which encodings still want offsets.
    let mut wanted: u64 = counts
        .iter()
        .enumerate()
        .filter(|(_, count)| count.errors > 0)
        .fold(0, |bits, (bit, _)| bits | 1 << bit);
    let mut chunk_start = 0;
    for chunk in bytes.chunks(WORK_CHUNK) {
        if wanted == 0 {
            break;
        }
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        for (block_index, block) in chunk.chunks(32).enumerate() {
            // Every encoding here decodes ASCII bytes without error.
            if block.is_ascii() {
                continue;
            }
            let block_start = chunk_start + block_index * 32;
            for (index, &byte) in block.iter().enumerate() {
                let mut hits = rejects[usize::from(byte)] & wanted;
                while hits != 0 {
                    let bit = hits.trailing_zeros() as usize;
                    hits &= hits - 1;
                    let offsets = &mut counts[bit].first_error_offsets;
                    offsets.push((block_start + index) as u64);
                    if offsets.len() == FIRST_ERROR_OFFSETS {
                        wanted &= !(1 << bit);
                    }
                }
            }
            if wanted == 0 {
                break;
            }
        }
        chunk_start += chunk.len();
    }
    for &encoding in others {
        counts.push(count_decoder(bytes, encoding, cancel, &|_| {})?);
    }
    Some(counts)
}

/// Bit `i` of `table[byte]`: `encodings[i]` (at most 64 bytewise
/// encodings) reports an error for `byte`.
fn reject_table(encodings: &[&'static Encoding]) -> [u64; 256] {
    let mut rejects = [0u64; 256];
    for (bit, &encoding) in encodings.iter().enumerate().take(64) {
        for byte in 0x80..=0xFF_u8 {
            let mut decoder =
                Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
            let mut counter = ErrorCounter::default();
            let _ = decoder.decode(&[byte], true, &mut counter);
            if counter.errors > 0 {
                rejects[usize::from(byte)] |= 1 << bit;
            }
        }
    }
    rejects
}

/// [`count_errors`] over bytes that arrive a piece at a time (standard
/// input, a pipe): [`feed`](Self::feed) each piece in order, then
/// [`finish`](Self::finish) gives what `count_errors` gives for all of
/// them. Memory is the decoders' state and the offsets kept, whatever the
/// input's length.
pub struct StreamingCounts {
    encodings: Vec<&'static Encoding>,
    /// One per decoder, and one for the bytewise encodings; each piece is
    /// fed to all of them, on up to [`COUNT_THREADS`] threads.
    counters: Vec<Mutex<Counter>>,
}

/// One of [`StreamingCounts`]'s counters.
enum Counter {
    /// One decoder.
    Decode {
        encoding: &'static Encoding,
        decoder: Decoder,
        sink: ErrorOffsets,
    },
    /// The encodings whose bytes decode one at a time, from a histogram.
    Bytewise(Box<Bytewise>),
}

/// The bytewise encodings' counter: a histogram of the bytes, and the first
/// error offsets of each encoding, found as the bytes pass.
struct Bytewise {
    encodings: Vec<&'static Encoding>,
    rejects: [u64; 256],
    histogram: [u64; 256],
    offsets: Vec<Vec<u64>>,
    /// The encodings that may still want offsets (those that reject some
    /// byte and have fewer than [`FIRST_ERROR_OFFSETS`]).
    wanted: u64,
    /// Bytes counted so far.
    done: u64,
}

impl Bytewise {
    fn new(encodings: Vec<&'static Encoding>) -> Self {
        let rejects = reject_table(&encodings);
        let wanted = rejects.iter().fold(0, |bits, &rejected| bits | rejected);
        Self {
            offsets: vec![Vec::new(); encodings.len()],
            encodings,
            rejects,
            histogram: [0; 256],
            wanted,
            done: 0,
        }
    }

    fn feed(&mut self, piece: &[u8]) {
        let never = AtomicBool::new(false);
        if let Some(histogram) = byte_histogram(piece, &never, &|_| {}) {
            for (total, count) in self.histogram.iter_mut().zip(histogram) {
                *total += count;
            }
        }
        for (block_index, block) in piece.chunks(32).enumerate() {
            if self.wanted == 0 {
                break;
            }
            // Every encoding here decodes ASCII bytes without error.
            if block.is_ascii() {
                continue;
            }
            let block_start = self.done + (block_index * 32) as u64;
            for (index, &byte) in block.iter().enumerate() {
                let mut hits = self.rejects[usize::from(byte)] & self.wanted;
                while hits != 0 {
                    let bit = hits.trailing_zeros() as usize;
                    hits &= hits - 1;
                    let offsets = &mut self.offsets[bit];
                    offsets.push(block_start + index as u64);
                    if offsets.len() == FIRST_ERROR_OFFSETS {
                        self.wanted &= !(1 << bit);
                    }
                }
            }
        }
        self.done += piece.len() as u64;
    }

    fn finish(self) -> Vec<ErrorCount> {
        let Self {
            encodings,
            rejects,
            histogram,
            offsets,
            ..
        } = self;
        encodings
            .into_iter()
            .zip(offsets)
            .enumerate()
            .map(|(bit, (encoding, first_error_offsets))| ErrorCount {
                encoding,
                errors: (0..256)
                    .filter(|&byte| rejects[byte] & (1 << bit) != 0)
                    .map(|byte| histogram[byte])
                    .sum(),
                first_error_offsets,
            })
            .collect()
    }
}

impl Counter {
    fn feed(&mut self, piece: &[u8]) {
        match self {
            Counter::Decode { decoder, sink, .. } => {
                // Replacement mode consumes every byte.
                let _ = decoder.decode(piece, false, sink);
            }
            Counter::Bytewise(bytewise) => bytewise.feed(piece),
        }
    }

    fn finish(self) -> Vec<ErrorCount> {
        match self {
            Counter::Decode {
                encoding,
                mut decoder,
                mut sink,
            } => {
                // The end of the input: a sequence left open is an error.
                let _ = decoder.decode(&[], true, &mut sink);
                vec![ErrorCount {
                    encoding,
                    errors: sink.errors,
                    first_error_offsets: sink.offsets,
                }]
            }
            Counter::Bytewise(bytewise) => bytewise.finish(),
        }
    }
}

impl StreamingCounts {
    /// Counts for `encodings`, in that order, from the first byte on.
    pub fn new(encodings: &[&'static Encoding]) -> Self {
        let mut bytewise: Vec<&'static Encoding> = Vec::new();
        let mut counters: Vec<Counter> = Vec::new();
        let mut decoders: Vec<&'static Encoding> = Vec::new();
        for &encoding in encodings {
            if is_bytewise(encoding) && bytewise.len() < 64 {
                if !bytewise.contains(&encoding) {
                    bytewise.push(encoding);
                }
            } else {
                let decoder = same_decoder(encoding);
                if !decoders.contains(&decoder) {
                    decoders.push(decoder);
                    counters.push(Counter::Decode {
                        encoding: decoder,
                        decoder: Decoder::new(
                            decoder,
                            DecodeErrorMode::Replacement,
                            BomHandling::None,
                        ),
                        sink: ErrorOffsets::new(FIRST_ERROR_OFFSETS),
                    });
                }
            }
        }
        if !bytewise.is_empty() {
            counters.push(Counter::Bytewise(Box::new(Bytewise::new(bytewise))));
        }
        Self {
            encodings: encodings.to_vec(),
            counters: counters.into_iter().map(Mutex::new).collect(),
        }
    }

    /// Counts the errors of the next piece of the input.
    pub fn feed(&mut self, piece: &[u8]) {
        let next = AtomicUsize::new(0);
        let counters = &self.counters;
        let work = || {
            while let Some(counter) = counters.get(next.fetch_add(1, Ordering::Relaxed)) {
                // Each counter is taken by one thread: never contended.
                let mut counter = counter
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                counter.feed(piece);
            }
        };
        // Scoped fan-out, as in `count_errors`: joined before this returns.
        thread::scope(|scope| {
            let helpers: Vec<_> = (1..COUNT_THREADS.min(counters.len()))
                .filter_map(|worker| {
                    thread::Builder::new()
                        .name(format!("count-errors:{worker}"))
                        .spawn_scoped(scope, work)
                        .ok()
                })
                .collect();
            work();
            for helper in helpers {
                if let Err(panic) = helper.join() {
                    std::panic::resume_unwind(panic);
                }
            }
        });
    }

    /// The counts of everything fed, one per encoding asked for, in order.
    pub fn finish(self) -> Vec<ErrorCount> {
        let mut by_encoding: HashMap<&'static Encoding, ErrorCount> = HashMap::new();
        for counter in self.counters {
            let counter = counter
                .into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            for count in counter.finish() {
                by_encoding.insert(count.encoding, count);
            }
        }
        self.encodings
            .iter()
            .filter_map(|&encoding| {
                let count = by_encoding.get(&same_decoder(encoding))?;
                Some(ErrorCount {
                    encoding,
                    ..count.clone()
                })
            })
            .collect()
    }
}

/// How many times each byte value occurs in `bytes`.
fn byte_histogram(bytes: &[u8], cancel: &AtomicBool, tick: &dyn Fn(usize)) -> Option<[u64; 256]> {
    // Four tables, so that runs of one byte value do not serialise on one
    // counter.
    let mut tables = [[0u64; 256]; 4];
    for chunk in bytes.chunks(WORK_CHUNK) {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let mut quads = chunk.chunks_exact(4);
        for quad in quads.by_ref() {
            tables[0][usize::from(quad[0])] += 1;
            tables[1][usize::from(quad[1])] += 1;
            tables[2][usize::from(quad[2])] += 1;
            tables[3][usize::from(quad[3])] += 1;
        }
        for &byte in quads.remainder() {
            tables[0][usize::from(byte)] += 1;
        }
        tick(chunk.len());
    }
    let mut histogram = [0u64; 256];
    for table in &tables {
        for (total, count) in histogram.iter_mut().zip(table) {
            *total += count;
        }
    }
    Some(histogram)
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{
        ALL, BIG5, EUC_JP, EUC_KR, ISO_8859_8, SHIFT_JIS, UTF_8, UTF_16BE, WINDOWS_1252,
    };

    use super::super::testing::{Rng, TEXT, never, realistic, whole_trace};
    use super::*;

    /// The plain way: each encoding's decoder over every byte, counted.
    fn straightforward(bytes: &[u8], encoding: &'static Encoding) -> (u64, Vec<u64>) {
        let trace = whole_trace(bytes, encoding, BomHandling::None);
        let mut counter = ErrorCounter::default();
        let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
        let _ = decoder.decode(bytes, true, &mut counter);
        let offsets: Vec<u64> = trace
            .errors()
            .map(|(span, _)| span.start)
            .take(FIRST_ERROR_OFFSETS)
            .collect();
        assert_eq!(counter.errors, trace.error_count());
        assert_eq!(counter.first_error, offsets.first().copied());
        (counter.errors, offsets)
    }

    #[test]
    fn count_errors_matches_each_decoder() {
        let mut rng = Rng(2026);
        let mut files: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"plain ASCII\n".to_vec(),
            // A byte order mark is counted as bytes like any other.
            b"\xEF\xBB\xBFcaf\xC3\xA9".to_vec(),
            b"\xFF\xFEa\x00".to_vec(),
            rng.bytes(200_000),
            // Errors at the very end (truncated sequences).
            b"abc\xE3\x81".to_vec(),
        ];
        for encoding in [SHIFT_JIS, EUC_KR, BIG5, ISO_8859_8, UTF_16BE, EUC_JP] {
            files.push(realistic(encoding, 100_000, &mut rng));
        }
        for bytes in &files {
            let counts = count_errors(bytes, &ALL, &never()).unwrap();
            assert_eq!(counts.len(), ALL.len());
            for (count, &encoding) in counts.iter().zip(&ALL) {
                assert_eq!(count.encoding, encoding);
                let (errors, offsets) = straightforward(bytes, encoding);
                assert_eq!(
                    count.errors,
                    errors,
                    "{encoding} over {} bytes",
                    bytes.len()
                );
                assert_eq!(count.first_error_offsets, offsets, "{encoding}");
            }
        }
        // Random bytes have errors in most encodings, and many of them.
        let counts = count_errors(&files[4], &ALL, &never()).unwrap();
        assert!(counts.iter().filter(|count| count.errors > 1000).count() > 10);
        assert!(
            counts
                .iter()
                .any(|count| count.first_error_offsets.len() == 100)
        );
    }

    #[test]
    fn streaming_counts_are_the_counts_of_the_whole() {
        let mut rng = Rng(99);
        let mut files: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"abc\xE3\x81".to_vec(),
            b"\xFF\xFEa\x00\x00\xD8".to_vec(),
            rng.bytes(300_000),
        ];
        for encoding in [SHIFT_JIS, EUC_KR, BIG5, ISO_8859_8, UTF_16BE, EUC_JP, GBK] {
            files.push(realistic(encoding, 60_000, &mut rng));
        }
        let mut asked: Vec<&'static Encoding> = ALL.to_vec();
        asked.extend([GBK, ISO_8859_8]);
        for bytes in &files {
            let whole = count_errors(bytes, &asked, &never()).unwrap();
            // Pieces of every size, cutting sequences anywhere.
            for piece in [1, 7, 1000, 65_536, usize::MAX] {
                if piece < 1000 && bytes.len() > 10_000 {
                    continue;
                }
                let mut streaming = StreamingCounts::new(&asked);
                let mut rest = &bytes[..];
                while !rest.is_empty() {
                    let n = rest.len().min(piece);
                    streaming.feed(&rest[..n]);
                    rest = &rest[n..];
                }
                assert_eq!(
                    streaming.finish(),
                    whole,
                    "pieces of {piece}, {} bytes",
                    bytes.len()
                );
            }
        }
        assert!(StreamingCounts::new(&[]).finish().is_empty());
    }

    #[test]
    fn count_errors_keeps_the_order_and_duplicates_asked_for() {
        let bytes = b"\x81\x40 \x80\xFF";
        // windows-1252 maps every byte; ISO-8859-8 leaves 0xFF unassigned.
        let asked = [
            ISO_8859_8,
            GBK,
            UTF_8,
            GB18030,
            ISO_8859_8,
            WINDOWS_1252,
            X_USER_DEFINED,
        ];
        let counts = count_errors(bytes, &asked, &never()).unwrap();
        let got: Vec<(&str, u64)> = counts
            .iter()
            .map(|c| (c.encoding.name(), c.errors))
            .collect();
        assert_eq!(
            got,
            [
                ("ISO-8859-8", 1),
                ("GBK", 1),
                ("UTF-8", 3),
                ("gb18030", 1),
                ("ISO-8859-8", 1),
                ("windows-1252", 0),
                ("x-user-defined", 0)
            ]
        );
        assert_eq!(counts[0].first_error_offsets, [4]);
        assert_eq!(counts[1].first_error_offsets, [4]);
        assert_eq!(counts[2].first_error_offsets, [0, 3, 4]);
        assert!(count_errors(bytes, &[], &never()).unwrap().is_empty());
    }

    #[test]
    fn count_errors_reports_progress_up_to_the_total() {
        let bytes = vec![0xE9; 3 * WORK_CHUNK];
        let last = std::sync::Mutex::new((0, 0));
        let counts =
            count_errors_with_progress(&bytes, &[UTF_8, WINDOWS_1252], &never(), &|done, total| {
                let mut last = last.lock().unwrap();
                last.0 = last.0.max(done);
                last.1 = total;
            })
            .unwrap();
        assert_eq!(counts[0].errors, bytes.len() as u64);
        assert_eq!(counts[1].errors, 0);
        let (done, total) = *last.lock().unwrap();
        assert_eq!(
            (done, total),
            (2 * bytes.len() as u64, 2 * bytes.len() as u64)
        );
    }

    /// `cargo test -p mojiscope --lib -- --ignored --nocapture count_errors_speed`
    /// (the test profile is optimised; figures in BENCHMARKS.md).
    #[test]
    #[ignore = "benchmark: cargo test -p mojiscope --lib -- --ignored --nocapture count_errors_speed"]
    fn count_errors_speed() {
        let mut rng = Rng(1);
        let choices: Vec<&'static Encoding> = ALL
            .iter()
            .copied()
            .filter(|e| e.is_override_choice())
            .collect();
        let mut mixed = Vec::with_capacity(100_000_000);
        let sample = TEXT.as_bytes();
        while mixed.len() < 100_000_000 {
            mixed.extend_from_slice(sample);
            if rng.below(50) == 0 {
                mixed.push(0xFF);
            }
        }
        let mut sjis = realistic(SHIFT_JIS, 100_000_000, &mut rng);
        sjis.truncate(100_000_000);
        let ascii = vec![b'x'; 100_000_000];
        let random = rng.bytes(100_000_000);
        for (name, bytes) in [
            ("UTF-8 text, mixed scripts", &mixed),
            ("Shift_JIS text", &sjis),
            ("ASCII", &ascii),
            ("random bytes", &random),
        ] {
            let started = std::time::Instant::now();
            let counts = count_errors(bytes, &choices, &never()).unwrap();
            let elapsed = started.elapsed();
            println!(
                "count_errors, 37 encodings, {} MB of {name}: {elapsed:.2?} (UTF-8: {} errors)",
                bytes.len() / 1_000_000,
                counts[0].errors
            );
            for (index, &encoding) in choices.iter().enumerate() {
                if encoding.is_single_byte() {
                    continue;
                }
                let started = std::time::Instant::now();
                let one = count_errors(bytes, &[encoding], &never()).unwrap();
                assert_eq!(one[0].errors, counts[index].errors);
                println!("  {encoding}: {:.2?}", started.elapsed());
            }
        }
    }
}
