//! The repair job's work ([`repair_file`]): decode the whole file as the
//! pane does, repair the text a piece of lines at a time on every core
//! ([`repair_text`], which `mojiscope fix` runs too), then locate each
//! change in the bytes.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use mojiscope_core::repair::{self, NotText, Repair, Source, check_text};
use mojiscope_core::{
    BomHandling, ByteSpan, DecodeErrorMode, Decoder, Encoding, UTF_8, X_USER_DEFINED, bom_sniff,
};

use super::locate::{Located, locate, number_lines};
use super::{
    DECODED_AT, PROGRESS_TOTAL, Proposal, REPAIRED_AT, RepairError, RepairOutcome, RepairRequest,
    WORK_CHUNK, scaled,
};

/// Decodes `bytes` as `request` says, repairs the text and locates each
/// change in `bytes`. `progress` hears `(done, PROGRESS_TOTAL)` now and
/// then (see [`Phase::of`](super::Phase::of)).
///
/// Returns `Ok(None)` if `cancel` was set (it is looked at every MiB).
///
/// # Errors
/// [`RepairError::NotText`] at once when a sample of the decode is not
/// text ([`check_decode`]); [`RepairError::TooLarge`] when the text is more
/// than `limit` bytes: at once when the file alone says so, else as soon as
/// the decode gets there.
pub fn repair_file(
    bytes: &[u8],
    request: RepairRequest,
    limit: usize,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Option<RepairOutcome>, RepairError> {
    repair_in_pieces(bytes, request, limit, WORK_CHUNK, cancel, progress)
}

/// [`repair_file`], repairing about `piece` bytes of text at a time.
fn repair_in_pieces(
    bytes: &[u8],
    request: RepairRequest,
    limit: usize,
    piece: usize,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Option<RepairOutcome>, RepairError> {
    if let Err(reason) = check_decode(bytes, request.encoding, request.bom_handling) {
        return Err(RepairError::NotText {
            encoding: decoded_encoding(bytes, request.encoding, request.bom_handling).0,
            reason,
        });
    }
    let Some((text, encoding)) = decode(bytes, request, limit, cancel, progress)? else {
        return Ok(None);
    };
    // A single-byte decode (never with a byte order mark) makes a character
    // of each byte: the repair can read the bytes behind any span of text.
    let source = encoding
        .is_single_byte()
        .then_some(Source { bytes, encoding });
    let found = repair_text(&text, source, piece, cancel, &mut |done| {
        progress(
            scaled(DECODED_AT, REPAIRED_AT, done, text.len()),
            PROGRESS_TOTAL,
        );
    });
    let Some(found) = found else {
        return Ok(None);
    };
    let sure = found.changes.into_iter().map(|change| (change, true));
    let unsure = found.suggestions.into_iter().map(|change| (change, false));
    let mut proposals: Vec<Proposal> = sure
        .chain(unsure)
        .map(|(change, is_sure)| Proposal {
            change,
            is_sure,
            bytes: ByteSpan::default(),
            line: 0,
        })
        .collect();
    proposals.sort_by_key(|proposal| proposal.change.utf8_range.start);
    number_lines(&text, &mut proposals);
    let ranges: Vec<Range<usize>> = proposals
        .iter()
        .map(|proposal| proposal.change.utf8_range.clone())
        .collect();
    let Some(Located {
        spans,
        error_offsets,
    }) = locate(bytes, request, &text, &ranges, cancel, progress)
    else {
        return Ok(None);
    };
    for (proposal, span) in proposals.iter_mut().zip(spans) {
        proposal.bytes = span;
    }
    progress(PROGRESS_TOTAL, PROGRESS_TOTAL);
    Ok(Some(RepairOutcome {
        text,
        encoding,
        proposals,
        error_offsets,
    }))
}

/// The most threads one repair uses.
const MAX_REPAIR_THREADS: usize = 8;

/// How many threads [`repair_text`] repairs on: as many as the machine
/// runs at once, at most eight.
pub fn repair_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .min(MAX_REPAIR_THREADS)
}

/// Repairs `text` (decoded from `source`, if given) a piece of whole lines
/// of about `piece` bytes at a time, on as many threads as the machine runs
/// at once (at most eight): each line is judged on its own, so the pieces'
/// changes, shifted to where each piece starts, are what one repair of the
/// whole text finds. `progress` hears how many bytes of text are done.
/// `None` if `cancel` was set.
///
/// Text that is not text at all ([`check_text`], on a sample of the whole)
/// is declined at once, as `core::repair` declines it: no changes, and the
/// reason in [`Repair::declined`].
pub fn repair_text(
    text: &str,
    source: Option<Source<'_>>,
    piece: usize,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(usize),
) -> Option<Repair> {
    if let Err(reason) = check_text(text) {
        progress(text.len());
        return Some(Repair {
            declined: Some(reason),
            ..Repair::default()
        });
    }
    // Each piece: its text, where it starts (UTF-8 and characters), and the
    // bytes behind it.
    let mut pieces = Vec::new();
    let (mut utf8_start, mut char_start) = (0, 0);
    while utf8_start < text.len() {
        let utf8_end = piece_end(text, utf8_start, piece);
        let piece_text = &text[utf8_start..utf8_end];
        let chars = piece_text.chars().count();
        let piece_source = source.and_then(|source| {
            let bytes = source.bytes.get(char_start..char_start + chars)?;
            Some(Source { bytes, ..source })
        });
        pieces.push((piece_text, utf8_start, char_start, piece_source));
        utf8_start = utf8_end;
        char_start += chars;
    }
    let repair_piece = |index: usize| -> Repair {
        let (piece_text, utf8_start, char_start, piece_source) = pieces[index];
        let mut found = match piece_source {
            Some(source) => repair::repair_with_source(piece_text, source),
            None => repair::repair(piece_text),
        };
        for change in found.changes.iter_mut().chain(&mut found.suggestions) {
            change.utf8_range = shift(&change.utf8_range, utf8_start);
            change.char_range = shift(&change.char_range, char_start);
        }
        found
    };
    let threads = repair_threads().min(pieces.len());
    let mut found: Vec<Option<Repair>> = vec![None; pieces.len()];
    let next = AtomicUsize::new(0);
    let pieces = &pieces;
    // Scoped fan-out inside one job, not jobs of their own (which start
    // only through `model::jobs`): the threads borrow the text and its
    // pieces, and are joined before this returns, whoever called it (the
    // repair job, or `mojiscope fix` on its own thread).
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        let mut started = 0;
        for number in 0..threads {
            let sender = sender.clone();
            let (next, repair_piece) = (&next, &repair_piece);
            let worker = move || {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= pieces.len() || cancel.load(Ordering::Relaxed) {
                        return;
                    }
                    if sender.send((index, repair_piece(index))).is_err() {
                        return;
                    }
                }
            };
            let spawned = std::thread::Builder::new()
                .name(format!("repair:{number}"))
                .spawn_scoped(scope, worker);
            started += usize::from(spawned.is_ok());
        }
        drop(sender);
        if started == 0 {
            // No thread could be started: the pieces are repaired here.
            while let Some(index) = (!cancel.load(Ordering::Relaxed))
                .then(|| next.fetch_add(1, Ordering::Relaxed))
                .filter(|&index| index < pieces.len())
            {
                found[index] = Some(repair_piece(index));
                progress(pieces[index].1 + pieces[index].0.len());
            }
            return;
        }
        let mut done = 0;
        for (index, repair) in receiver {
            done += pieces[index].0.len();
            found[index] = Some(repair);
            progress(done);
        }
    });
    let mut repair = Repair::default();
    for piece in found {
        // A piece missing: cancelled.
        let piece = piece?;
        repair.changes.extend(piece.changes);
        repair.suggestions.extend(piece.suggestions);
    }
    Some(repair)
}

/// Text up to this many bytes is checked whole by [`check_decode`]...
const CHECK_WHOLE: usize = 64 * 1024;
/// ...longer text in this many samples...
const CHECK_SAMPLES: usize = 32;
/// ...of this many bytes each, spread evenly over it.
const CHECK_SAMPLE_BYTES: usize = 2048;

/// Whether `bytes` decoded with `encoding` (and `bom_handling`) are text at
/// all, judged by `core::repair`'s [`check_text`] on a sample decoded from
/// at most 64 KiB of them, spread over the whole: random or binary bytes
/// are told at once, before anything is decoded whole.
///
/// # Errors
/// Why the decode is not text.
pub fn check_decode(
    bytes: &[u8],
    encoding: &'static Encoding,
    bom_handling: BomHandling,
) -> Result<(), NotText> {
    let (encoding, bom_len) = decoded_encoding(bytes, encoding, bom_handling);
    let body = &bytes[bom_len..];
    let mut text = String::new();
    let decode = |window: &[u8], text: &mut String| {
        let mut decoder = Decoder::new(encoding, DecodeErrorMode::Replacement, BomHandling::None);
        // Replacement mode consumes every byte.
        let _ = decoder.decode(window, true, text);
    };
    if body.len() <= CHECK_WHOLE {
        decode(body, &mut text);
    } else {
        let stride = body.len() / CHECK_SAMPLES;
        for number in 0..CHECK_SAMPLES {
            // At even offsets, which keep UTF-16 code units whole.
            let start = (number * stride) & !1;
            let end = body.len().min(start + CHECK_SAMPLE_BYTES);
            decode(&body[start..end], &mut text);
            text.push('\n');
        }
    }
    check_text(&text)
}

/// The encoding a decode of `bytes` with `encoding` and `bom_handling`
/// uses (a byte order mark may pick another), and how many bytes its byte
/// order mark takes.
pub fn decoded_encoding(
    bytes: &[u8],
    encoding: &'static Encoding,
    bom_handling: BomHandling,
) -> (&'static Encoding, usize) {
    match bom_handling {
        BomHandling::Sniff => bom_sniff(bytes).map_or((encoding, 0), |bom| {
            // UTF-8's byte order mark is three bytes, UTF-16's two.
            (bom, if bom == UTF_8 { 3 } else { 2 })
        }),
        BomHandling::RemoveUtf8 if encoding == UTF_8 && bytes.starts_with(b"\xEF\xBB\xBF") => {
            (encoding, 3)
        }
        _ => (encoding, 0),
    }
}

/// Decodes the whole of `bytes` into a string, as the pane does; `None` if
/// cancelled.
fn decode(
    bytes: &[u8],
    request: RepairRequest,
    limit: usize,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Option<(String, &'static Encoding)>, RepairError> {
    let (encoding, bom_len) = decoded_encoding(bytes, request.encoding, request.bom_handling);
    // Each byte of UTF-8, of a single-byte encoding and of x-user-defined
    // is at least a byte of text (an error is three): the file's size says
    // at once when the text will be too large.
    let one_or_more = encoding == UTF_8 || encoding.is_single_byte() || encoding == X_USER_DEFINED;
    if one_or_more && bytes.len() - bom_len > limit {
        return Err(RepairError::TooLarge {
            encoding,
            limit,
            file_len: bytes.len() as u64,
        });
    }
    let mut decoder = Decoder::new(
        request.encoding,
        DecodeErrorMode::Replacement,
        request.bom_handling,
    );
    let mut text = String::with_capacity(bytes.len().min(limit));
    let mut done = 0;
    loop {
        if cancel.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let end = bytes.len().min(done + WORK_CHUNK);
        let last = end == bytes.len();
        // Replacement mode consumes every byte.
        let _ = decoder.decode(&bytes[done..end], last, &mut text);
        done = end;
        if text.len() > limit {
            return Err(RepairError::TooLarge {
                encoding: decoder.encoding(),
                limit,
                file_len: bytes.len() as u64,
            });
        }
        progress(scaled(0, DECODED_AT, done, bytes.len()), PROGRESS_TOTAL);
        if last {
            return Ok(Some((text, decoder.encoding())));
        }
    }
}

/// Where the piece of `text` that starts at `start` ends: after the first
/// line feed at least `piece` bytes on, or at the end. The repair judges
/// each line on its own, so repairing the pieces one by one finds what
/// repairing the whole text at once would.
fn piece_end(text: &str, start: usize, piece: usize) -> usize {
    let from = start.saturating_add(piece.max(1)).min(text.len());
    // A line feed is never part of a longer UTF-8 sequence: any byte offset
    // may be searched from.
    text.as_bytes()[from..]
        .iter()
        .position(|&byte| byte == b'\n')
        .map_or(text.len(), |offset| from + offset + 1)
}

fn shift(range: &Range<usize>, by: usize) -> Range<usize> {
    range.start + by..range.end + by
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{BomHandling, GB18030, UTF_8, UTF_16LE, WINDOWS_1252};

    use mojiscope_core::repair::Change;

    use super::super::testing::{request, run};
    use super::super::{MAX_TEXT_BYTES, Phase};
    use super::*;

    /// Each proposal as (its text, its bytes, its line).
    fn located<'a>(outcome: &'a RepairOutcome, bytes: &'a [u8]) -> Vec<(&'a str, &'a [u8], u64)> {
        outcome
            .proposals
            .iter()
            .map(|proposal| {
                let span = proposal.bytes;
                (
                    &outcome.text[proposal.change.utf8_range.clone()],
                    &bytes[span.start as usize..span.end as usize],
                    proposal.line,
                )
            })
            .collect()
    }

    #[test]
    fn utf8_changes_map_to_their_bytes_past_errors() {
        // An invalid byte makes three bytes of text (U+FFFD) of one byte.
        let mut bytes = vec![0xFF];
        bytes.extend_from_slice("x Ã©tÃ© ok\nline two: cafÃ©\n".as_bytes());
        let outcome = run(&bytes, request(UTF_8, BomHandling::Sniff));
        assert!(outcome.text.starts_with("\u{FFFD}x Ã©tÃ©"));
        assert_eq!(
            located(&outcome, &bytes),
            [
                ("Ã©tÃ©", "Ã©tÃ©".as_bytes(), 1),
                ("cafÃ©", "cafÃ©".as_bytes(), 2)
            ]
        );
        let first = &outcome.proposals[0];
        // "Ã©tÃ©" is nine bytes of UTF-8.
        assert_eq!(first.bytes, ByteSpan::new(3, 12));
        assert_eq!(first.change.replacement, "été");
        assert!(first.is_sure);
    }

    #[test]
    fn single_byte_changes_map_a_character_to_a_byte() {
        // UTF-8 bytes, shown in a windows-1252 pane: "cafÃ©" is five bytes.
        let bytes = b"Un caf\xC3\xA9 au lait\nL'\xC3\xA9t\xC3\xA9";
        let outcome = run(bytes, request(WINDOWS_1252, BomHandling::None));
        assert_eq!(outcome.encoding, WINDOWS_1252);
        assert_eq!(
            located(&outcome, bytes),
            [
                ("cafÃ©", &b"caf\xC3\xA9"[..], 1),
                ("Ã©tÃ©", &b"\xC3\xA9t\xC3\xA9"[..], 2)
            ]
        );
        assert_eq!(outcome.proposals[0].bytes, ByteSpan::new(3, 8));
        assert_eq!(outcome.proposals[1].change.replacement, "été");
    }

    #[test]
    fn multi_byte_changes_with_a_bom_map_past_it() {
        // UTF-16LE with its byte order mark: two bytes a character, the BOM
        // first.
        let text = "ok Ã©tÃ©\nРњРѕСЃРєРІР° ok";
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        let outcome = run(&bytes, request(UTF_16LE, BomHandling::Sniff));
        assert_eq!(outcome.text, text);
        let spans: Vec<(ByteSpan, &str, u64)> = outcome
            .proposals
            .iter()
            .map(|p| (p.bytes, p.change.replacement.as_str(), p.line))
            .collect();
        assert_eq!(
            spans,
            [
                (ByteSpan::new(2 + 2 * 3, 2 + 2 * 8), "été", 1),
                (ByteSpan::new(2 + 2 * 9, 2 + 2 * 21), "Москва", 2)
            ]
        );
        // A UTF-8 byte order mark, asked for by a UTF-8 pane.
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend_from_slice(text.as_bytes());
        let outcome = run(&bytes, request(UTF_8, BomHandling::Sniff));
        assert_eq!(
            located(&outcome, &bytes)
                .iter()
                .map(|&(text, bytes, _)| (text, bytes))
                .collect::<Vec<_>>(),
            [
                ("Ã©tÃ©", "Ã©tÃ©".as_bytes()),
                ("РњРѕСЃРєРІР°", "РњРѕСЃРєРІР°".as_bytes())
            ]
        );
        assert_eq!(outcome.proposals[0].bytes.start, 3 + 3);
    }

    #[test]
    fn a_legacy_decode_maps_each_character_to_its_sequence() {
        // gb18030 text with a word damaged in UTF-8 before it was encoded:
        // its characters take two bytes each, or four.
        let text = "中文 Ã©tÃ© ok\n";
        let bytes = GB18030.encode_fatal(text).unwrap();
        let outcome = run(&bytes, request(GB18030, BomHandling::None));
        assert_eq!(outcome.text, text);
        let start = GB18030.encode_fatal("中文 ").unwrap().len() as u64;
        let len = GB18030.encode_fatal("Ã©tÃ©").unwrap().len() as u64;
        assert!(len > 5, "{len}");
        assert_eq!(outcome.proposals.len(), 1);
        assert_eq!(
            outcome.proposals[0].bytes,
            ByteSpan::new(start, start + len)
        );
        assert_eq!(outcome.proposals[0].change.replacement, "été");
    }

    #[test]
    fn pieces_on_threads_find_what_one_repair_finds() {
        let lines = [
            "DÃ©claration universelle des droits de lâ€™homme",
            "Déclaration universelle",
            "РњРѕСЃРєРІР° Ð¸ ÐŸÐµÑ‚ÐµÑ€Ð±ÑƒÑ€Ð³",
            "",
            "–¾“ú‚Ì’© BogotÃ¡, Ã?ndice",
            "plain ASCII line",
        ];
        let mut text = String::new();
        for n in 0..120 {
            text.push_str(lines[n % lines.len()]);
            text.push('\n');
        }
        text.push_str("ÃƒÂ©tÃƒÂ© at the end, with no line feed");
        let whole = repair::repair(&text);
        assert!(whole.changes.len() > 60 && !whole.suggestions.is_empty());
        let never = AtomicBool::new(false);
        for piece in [1, 100, 1000, usize::MAX] {
            let mut reports = Vec::new();
            let found = repair_text(&text, None, piece, &never, &mut |done| reports.push(done));
            assert_eq!(found.as_ref(), Some(&whole), "pieces of {piece}");
            assert_eq!(reports.last(), Some(&text.len()));
            assert!(reports.is_sorted());
        }
        // With the bytes behind the text (the same text's UTF-8 read as
        // windows-1252 once more), each piece gets its own.
        let bytes = text.as_bytes();
        let misread = WINDOWS_1252
            .decode_with_bom_handling(bytes, BomHandling::None)
            .text;
        let source = Source {
            bytes,
            encoding: WINDOWS_1252,
        };
        let whole = repair::repair_with_source(&misread, source);
        assert!(whole.changes.len() > 60);
        let found = repair_text(&misread, Some(source), 100, &never, &mut |_| {});
        assert_eq!(found, Some(whole));
        // Cancelled: nothing.
        let cancelled = AtomicBool::new(true);
        assert_eq!(repair_text(&text, None, 100, &cancelled, &mut |_| {}), None);
    }

    #[test]
    fn repairing_in_pieces_finds_what_one_repair_finds() {
        let mut text = String::new();
        for line in 0..200 {
            match line % 4 {
                0 => text.push_str("Un Ã©tÃ© Ã  Paris, cafÃ© crÃ¨me\n"),
                1 => text.push_str("Москва и РњРѕСЃРєРІР°\n"),
                2 => text.push_str("plain text, nothing to see\n"),
                _ => text.push_str("naïve café\n"),
            }
        }
        let whole = repair::repair(&text);
        let outcome = repair_in_pieces(
            text.as_bytes(),
            request(UTF_8, BomHandling::Sniff),
            MAX_TEXT_BYTES,
            100,
            &AtomicBool::new(false),
            &mut |_, _| {},
        )
        .unwrap()
        .unwrap();
        let sure: Vec<&Change> = outcome
            .proposals
            .iter()
            .filter(|p| p.is_sure)
            .map(|p| &p.change)
            .collect();
        assert_eq!(sure, whole.changes.iter().collect::<Vec<_>>());
        assert!(!sure.is_empty());
        // On UTF-8 without errors, the text is the bytes.
        for proposal in &outcome.proposals {
            let range = &proposal.change.utf8_range;
            assert_eq!(
                proposal.bytes,
                ByteSpan::new(range.start as u64, range.end as u64)
            );
        }
        assert_eq!(outcome.proposals.last().map(|p| p.line), Some(198));
    }

    #[test]
    fn bytes_that_are_not_text_are_declined_before_they_are_decoded() {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let random: Vec<u8> = (0..(8 << 20))
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 32) as u8
            })
            .collect();
        // The decode reports progress after each chunk: none came.
        let mut reported = Vec::new();
        let error = repair_file(
            &random,
            request(WINDOWS_1252, BomHandling::None),
            MAX_TEXT_BYTES,
            &AtomicBool::new(false),
            &mut |done, total| reported.push((done, total)),
        )
        .unwrap_err();
        assert_eq!(reported, []);
        assert!(
            error
                .to_string()
                .starts_with("cannot repair this file: its windows-1252 decode is not text: "),
            "{error}"
        );
        // A UTF-16 byte order mark picks the decode the sample is read with.
        let mut utf16 = vec![0xFF, 0xFE];
        let text = "Une ligne de texte, où l'été passe.\n".repeat(4000);
        utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(
            check_decode(&utf16, WINDOWS_1252, BomHandling::Sniff),
            Ok(())
        );
        assert!(check_decode(&utf16, WINDOWS_1252, BomHandling::None).is_err());
        assert_eq!(
            decoded_encoding(&utf16, WINDOWS_1252, BomHandling::Sniff),
            (UTF_16LE, 2)
        );
        // repair_text declines a text that is not text as core does.
        let binary: String = (0..5000_u32)
            .map(|n| char::from((n * 37 % 32) as u8))
            .collect();
        let never = AtomicBool::new(false);
        let declined = repair_text(&binary, None, 100, &never, &mut |_| {}).unwrap();
        assert!(declined.declined.is_some() && declined.changes.is_empty());
    }

    #[test]
    fn too_much_text_is_refused_with_a_message() {
        let bytes = vec![b'a'; 5000];
        let error = repair_file(
            &bytes,
            request(UTF_8, BomHandling::Sniff),
            4096,
            &AtomicBool::new(false),
            &mut |_, _| {},
        )
        .unwrap_err();
        assert!(matches!(error, RepairError::TooLarge { .. }), "{error:?}");
        let message = repair_file(
            &vec![b'a'; 3 << 20],
            request(UTF_8, BomHandling::Sniff),
            2 << 20,
            &AtomicBool::new(false),
            &mut |_, _| {},
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            message,
            "cannot repair this file: its UTF-8 decode is more than 2 MiB of text, more than a \
             repair holds in memory (the file is 3 MiB)"
        );
    }

    #[test]
    fn a_cancelled_repair_returns_nothing_and_progress_ends_at_the_total() {
        let bytes = "cafÃ©\n".repeat(1000);
        let outcome = repair_file(
            bytes.as_bytes(),
            request(UTF_8, BomHandling::Sniff),
            MAX_TEXT_BYTES,
            &AtomicBool::new(true),
            &mut |_, _| {},
        )
        .unwrap();
        assert!(outcome.is_none());
        let mut reports = Vec::new();
        let outcome = repair_file(
            bytes.as_bytes(),
            request(UTF_8, BomHandling::Sniff),
            MAX_TEXT_BYTES,
            &AtomicBool::new(false),
            &mut |done, total| reports.push((done, total)),
        )
        .unwrap()
        .unwrap();
        assert_eq!(outcome.proposals.len(), 1000);
        assert!(reports.is_sorted(), "{reports:?}");
        assert_eq!(reports.last(), Some(&(PROGRESS_TOTAL, PROGRESS_TOTAL)));
        assert_eq!(Phase::of(0), Phase::Decoding);
        assert_eq!(Phase::of(500), Phase::Repairing);
        assert_eq!(Phase::of(950), Phase::Locating);
    }

    /// `cargo test -p mojiscope --lib -- --ignored --nocapture repair_file_speed`
    /// (the test profile is optimised; figures in BENCHMARKS.md): the Repair
    /// window's whole job (decode, repair in pieces, locating every change
    /// in the bytes) on 10 MB of damaged text.
    #[test]
    #[ignore = "benchmark: cargo test -p mojiscope --lib -- --ignored --nocapture repair_file_speed"]
    fn repair_file_speed() {
        const SENTENCES: &str = include_str!("../../../../core/tests/repair/data/sentences.tsv");
        let sentences: Vec<&str> = SENTENCES
            .lines()
            .filter(|line| !line.starts_with('#'))
            .filter_map(|line| line.split_once('\t').map(|(_, text)| text))
            .collect();
        // Each line UTF-8 read as windows-1252: as UTF-8 bytes, and as the
        // windows-1252 bytes of a file saved after the misreading.
        let mut text = String::new();
        let mut line = 0;
        while text.len() < 10_000_000 {
            let sentence = sentences[line * 7 % sentences.len()];
            text.push_str(
                &WINDOWS_1252
                    .decode_with_bom_handling(sentence.as_bytes(), BomHandling::None)
                    .text,
            );
            text.push('\n');
            line += 1;
        }
        let as_1252 = WINDOWS_1252.encode_fatal(&text).unwrap();
        for (name, bytes, encoding) in [
            ("UTF-8", text.as_bytes(), UTF_8),
            ("windows-1252", &as_1252[..], WINDOWS_1252),
        ] {
            let started = std::time::Instant::now();
            let outcome = run(bytes, request(encoding, BomHandling::Sniff));
            println!(
                "repair_file, {} kB of {name}, every line damaged: {:.2?}, {} proposals",
                bytes.len() / 1000,
                started.elapsed(),
                outcome.proposals.len()
            );
        }
    }
}
