//! `mojiscope detect FILE`: the ranking on standard output, one
//! `NAME<TAB>SCORE` line per candidate, best first; the notes (sampling,
//! UTF-16 without a byte order mark, what the file declares and whether the
//! bytes agree, weak evidence) as the summary for standard error.
//!
//! A regular file is examined as detection examines any buffer: whole up
//! to 256 KiB, else its start and a few windows of it, and only those bytes
//! are read from it, whatever its length. Standard input is read to its end through a bounded sample (see
//! [`super::sample`]).

#![allow(
    rustdoc::invalid_html_tags,
    reason = "the help clap prints writes its lines' fields as \"NAME<TAB>SCORE\""
)]

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use mojiscope_core::{Detection, Note, detect, detect_examined, examined_ranges};

use super::error::{CliError, display_name};
use super::input::{Input, open_input};
use super::output::{Success, stdout_error};
use super::sample;

#[derive(Debug, Args)]
pub struct DetectArgs {
    /// Print the parts of the file in different encodings instead, one
    /// "START<TAB>END<TAB>NAME" line each (byte offsets, END exclusive)
    #[arg(long)]
    segments: bool,
    /// The file to examine ("-" for standard input)
    #[arg(value_name = "FILE")]
    input: PathBuf,
}

/// Runs `detect`.
pub fn run(
    args: &DetectArgs,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
) -> Result<Success, CliError> {
    if args.segments {
        return super::segments::run_detect(&args.input, stdin, stdout);
    }
    let file = display_name(&args.input);
    if let Some(opened) = regular_file(&args.input) {
        let detection = read_examined(opened).map_err(|source| CliError::Read {
            file: file.clone(),
            source,
        })?;
        return report(&file, &detection, stdout);
    }
    let detection = match open_input(&args.input, stdin)? {
        Input::Bytes(bytes) => detect(&bytes),
        Input::Stream(mut reader) => {
            let sample = sample::read(&mut reader).map_err(|source| CliError::Read {
                file: file.clone(),
                source,
            })?;
            detect_sample(&sample)
        }
    };
    report(&file, &detection, stdout)
}

/// `path` opened, with its length, if it is a regular file (not standard
/// input, a pipe or a device); anything else, and a file that cannot be
/// opened, goes the common way, which reports it.
fn regular_file(path: &Path) -> Option<(File, u64)> {
    if path.as_os_str() == "-" {
        return None;
    }
    let file = File::open(path).ok()?;
    let metadata = file.metadata().ok()?;
    metadata.is_file().then_some((file, metadata.len()))
}

/// Detection of a regular file from the bytes it examines alone
/// ([`examined_ranges`]: the whole file up to 256 KiB, else its start and
/// four windows), read where they lie: a file of any length costs the same
/// few reads.
fn read_examined((mut file, len): (File, u64)) -> io::Result<Detection> {
    let len = usize::try_from(len).map_err(|_| io::Error::from(io::ErrorKind::FileTooLarge))?;
    let ranges = examined_ranges(len);
    let mut room = Room::new(ranges.iter().map(ExactSizeIterator::len).sum());
    let bytes = room.bytes();
    let mut at = 0;
    for range in ranges {
        file.seek(SeekFrom::Start(range.start as u64))?;
        file.read_exact(&mut bytes[at..at + range.len()])?;
        at += range.len();
    }
    Ok(detect_examined(len, bytes))
}

/// Room for the bytes detection examines. A file sampled in windows has
/// 256 KiB of them: heap memory that size is mapped fresh, and each of its
/// 64 pages faulted in as the read fills it, which costs a command that
/// starts, detects and ends more than reading does. An anonymous map
/// whose pages the kernel provides at once (`MAP_POPULATE`) takes one
/// call instead.
enum Room {
    Heap(Vec<u8>),
    Map(memmap2::MmapMut),
}

impl Room {
    /// From this many bytes, a populated map (the size from which the
    /// heap, too, maps fresh memory for a block).
    const MAP_FROM: usize = 128 * 1024;

    fn new(len: usize) -> Self {
        if len >= Self::MAP_FROM
            && let Ok(map) = memmap2::MmapOptions::new().len(len).populate().map_anon()
        {
            return Self::Map(map);
        }
        Self::Heap(vec![0; len])
    }

    fn bytes(&mut self) -> &mut [u8] {
        match self {
            Self::Heap(bytes) => bytes,
            Self::Map(map) => map,
        }
    }
}

/// Prints the ranking and gives the notes as the summary.
fn report(file: &str, detection: &Detection, stdout: &mut dyn Write) -> Result<Success, CliError> {
    for candidate in &detection.candidates {
        writeln!(
            stdout,
            "{}\t{:.4}",
            candidate.encoding.name(),
            candidate.score
        )
        .map_err(stdout_error)?;
    }
    stdout.flush().map_err(stdout_error)?;
    let notes: Vec<String> = detection.notes.iter().map(ToString::to_string).collect();
    Ok(Success {
        summary: (!notes.is_empty()).then(|| format!("{file}: {}", notes.join("; "))),
        details: Vec::new(),
    })
}

/// Detection over a stream's sample: its windows joined are examined whole,
/// and the notes say they were a sample of a longer stream.
fn detect_sample(sample: &sample::Sample) -> Detection {
    let mut detection = detect(&sample.bytes);
    if sample.windows > 1 {
        let examined = sample.bytes.len() as u64;
        // Where detection says it of a file: after what it says of the
        // bytes as a whole (empty, ASCII only).
        let at = detection
            .notes
            .iter()
            .take_while(|note| matches!(note, Note::Empty | Note::AsciiOnly))
            .count();
        detection.notes.insert(
            at,
            Note::Sampled {
                windows: sample.windows,
                bytes_examined: examined,
                byte_len: sample.byte_len,
            },
        );
        detection.bytes_examined = examined;
    }
    detection
}

#[cfg(test)]
mod tests {
    use super::Room;

    #[test]
    fn room_holds_what_is_read_into_it_on_the_heap_and_in_a_map() {
        for len in [0, 100, Room::MAP_FROM - 1, Room::MAP_FROM, 256 * 1024] {
            let mut room = Room::new(len);
            assert_eq!(
                matches!(room, Room::Map(_)),
                len >= Room::MAP_FROM,
                "{len} bytes"
            );
            let bytes = room.bytes();
            assert_eq!(bytes.len(), len);
            assert!(bytes.iter().all(|&b| b == 0), "{len} bytes start zeroed");
            for (at, b) in bytes.iter_mut().enumerate() {
                *b = at as u8;
            }
            assert!(
                room.bytes()
                    .iter()
                    .enumerate()
                    .all(|(at, &b)| b == at as u8)
            );
        }
    }
}
