//! Files in more than one encoding: where each part is
//! ([`find_parts`], core's segmentation run on the document's bytes as
//! detection samples them), and the Mixed reading, which decodes each part
//! with its own encoding ([`PartsDecoder`]).
//!
//! The Mixed reading is a decode like any other: the parts' decoders feed
//! the same sinks, with the items' spans at their offsets in the file, so
//! that the analysis, its checkpoints and its windows
//! ([`super::EncodingAnalysis::decode_window`]) serve it as they serve one
//! encoding, and errors, selection, copy and find work on it unchanged.

use std::sync::Arc;

use mojiscope_core::{
    BomHandling, ByteSpan, DecodeErrorMode, DecodeSink, Decoder, Detection, Encoding, Segmentation,
    segments_with_detection,
};

/// One part of a file in several encodings: a run of whole lines and the
/// encoding it reads in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    /// Its bytes (the end exclusive).
    pub span: ByteSpan,
    /// Its encoding.
    pub encoding: &'static Encoding,
}

/// The parts of a file, in order, covering it; never empty.
pub type Parts = Arc<[Part]>;

/// The segmentation of `bytes` (the document's, shared, never copied):
/// core's [`segments_with_detection`], which reads at most a few MiB of
/// the file wherever detection reads, whatever its size.
pub fn find_parts(bytes: &[u8], detection: &Detection) -> Segmentation {
    segments_with_detection(bytes, detection)
}

/// The parts of `segmentation`, for a file of `len` bytes: `None` when it
/// is one segment (a Mixed reading would be that encoding's).
pub fn parts_of(segmentation: &Segmentation, len: u64) -> Option<Parts> {
    if !segmentation.is_mixed() {
        return None;
    }
    let mut parts: Vec<Part> = Vec::with_capacity(segmentation.segments.len());
    for segment in &segmentation.segments {
        let start = segment.byte_span.start.min(len);
        let end = segment.byte_span.end.clamp(start, len);
        match parts.last_mut() {
            // Adjacent parts in one encoding read as one.
            Some(last) if last.encoding == segment.encoding => last.span.end = end,
            _ if start == end => {}
            _ => parts.push(Part {
                span: ByteSpan::new(start, end),
                encoding: segment.encoding,
            }),
        }
    }
    // Cover the file from its first byte to its last, whatever was clamped.
    if let Some(first) = parts.first_mut() {
        first.span.start = 0;
    }
    if let Some(last) = parts.last_mut() {
        last.span.end = len;
    }
    (parts.len() > 1).then(|| parts.into())
}

/// The decoder of the Mixed reading: each part decoded with its own
/// encoding's decoder in replacement mode, ended at the part's end (a
/// sequence cut there is an error, as it would be at the end of a file),
/// the next starting fresh. The first part's decoder handles a byte order
/// mark as the pane asks.
#[derive(Clone, Debug)]
pub struct PartsDecoder {
    parts: Parts,
    /// The part the decoder is in.
    index: usize,
    decoder: Decoder,
}

impl PartsDecoder {
    /// A decoder at the start of the file.
    pub fn new(parts: Parts, bom_handling: BomHandling) -> Self {
        let encoding = parts.first().map_or(mojiscope_core::UTF_8, |p| p.encoding);
        Self {
            parts,
            index: 0,
            decoder: Decoder::new(encoding, DecodeErrorMode::Replacement, bom_handling),
        }
    }

    /// Goes on from `decoder`, a checkpoint of this reading's decode (the
    /// decoder of the part it was taken in).
    pub fn resume(parts: Parts, decoder: Decoder) -> Self {
        let offset = decoder.byte_offset();
        let index = parts
            .partition_point(|part| part.span.end <= offset)
            .min(parts.len().saturating_sub(1));
        Self {
            parts,
            index,
            decoder,
        }
    }

    /// The decoder of the part it is in: a checkpoint to resume from.
    pub fn current(&self) -> &Decoder {
        &self.decoder
    }

    /// Decodes `input`, the bytes from [`Decoder::byte_offset`] on;
    /// `last` says that no more input follows. Every byte is consumed.
    pub fn decode<S: DecodeSink>(&mut self, mut input: &[u8], last: bool, sink: &mut S) {
        loop {
            let offset = self.decoder.byte_offset();
            let part_end = self.parts.get(self.index).map_or(u64::MAX, |p| p.span.end);
            let room = part_end.saturating_sub(offset);
            let take = usize::try_from(room).map_or(input.len(), |room| room.min(input.len()));
            let ends_part = take as u64 == room && self.index + 1 < self.parts.len();
            let (piece, rest) = input.split_at(take);
            // Replacement mode consumes every byte.
            let _ = self
                .decoder
                .decode(piece, ends_part || (last && rest.is_empty()), sink);
            if ends_part {
                self.index += 1;
                if let Some(next) = self.parts.get(self.index) {
                    self.decoder = Decoder::starting_at(
                        next.encoding,
                        DecodeErrorMode::Replacement,
                        next.span.start,
                    );
                }
            }
            input = rest;
            if input.is_empty() && !(last && ends_part) {
                return;
            }
        }
    }
}

/// What decodes a pane's bytes: one encoding's decoder, or the Mixed
/// reading's.
#[derive(Clone, Debug)]
pub enum Reader {
    /// One encoding.
    Plain(Decoder),
    /// Each part in its own encoding.
    Parts(PartsDecoder),
}

impl Reader {
    /// A reader at the start of the file: the Mixed reading's when there
    /// are `parts`, else `encoding`'s.
    pub fn new(
        encoding: &'static Encoding,
        bom_handling: BomHandling,
        parts: Option<&Parts>,
    ) -> Self {
        match parts {
            Some(parts) => Reader::Parts(PartsDecoder::new(Arc::clone(parts), bom_handling)),
            None => Reader::Plain(Decoder::new(
                encoding,
                DecodeErrorMode::Replacement,
                bom_handling,
            )),
        }
    }

    /// Goes on from a checkpoint.
    pub fn resume(checkpoint: &Decoder, parts: Option<&Parts>) -> Self {
        match parts {
            Some(parts) => {
                Reader::Parts(PartsDecoder::resume(Arc::clone(parts), checkpoint.clone()))
            }
            None => Reader::Plain(checkpoint.clone()),
        }
    }

    /// The decoder to keep as a checkpoint.
    pub fn current(&self) -> &Decoder {
        match self {
            Reader::Plain(decoder) => decoder,
            Reader::Parts(parts) => parts.current(),
        }
    }

    /// Decodes `input` (every byte of it); see [`Decoder::decode`].
    pub fn decode<S: DecodeSink>(&mut self, input: &[u8], last: bool, sink: &mut S) {
        match self {
            Reader::Plain(decoder) => {
                // Replacement mode consumes every byte.
                let _ = decoder.decode(input, last, sink);
            }
            Reader::Parts(parts) => parts.decode(input, last, sink),
        }
    }
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{Trace, TraceKind, UTF_8, WINDOWS_1251, WINDOWS_1252, segments};

    use super::*;

    /// Real sentences: a UTF-8 part, a windows-1251 part, a UTF-8 part.
    fn three_parts() -> (Vec<u8>, String, [u64; 2]) {
        three_parts_of(4)
    }

    /// [`three_parts`] with each part's lines `repeat` times.
    fn three_parts_of(repeat: usize) -> (Vec<u8>, String, [u64; 2]) {
        let first = "Le château se dresse au-dessus de la rivière, entouré de forêts.\n\
                     Les élèves étudièrent la généalogie des ducs à la bibliothèque.\n"
            .repeat(repeat);
        let second = "Москва — столица России, крупнейший по численности населения город страны.\n\
                      Река Волга впадает в Каспийское море и считается крупнейшей рекой Европы.\n"
            .repeat(repeat);
        let third =
            "Über den Wolken muss die Freiheit wohl grenzenlos sein, sagt man.\n".repeat(repeat);
        let mut bytes = first.as_bytes().to_vec();
        let one = bytes.len() as u64;
        bytes.extend(WINDOWS_1251.encode(&second).0);
        let two = bytes.len() as u64;
        bytes.extend(third.as_bytes());
        (bytes, format!("{first}{second}{third}"), [one, two])
    }

    fn text_of(trace: &Trace) -> String {
        let mut text = String::new();
        trace.items().for_each(|item| item.push_text(&mut text));
        text
    }

    fn decode_all(reader: &mut Reader, bytes: &[u8], step: usize) -> Trace {
        let mut trace = Trace::new();
        let mut chunks = bytes.chunks(step.max(1)).peekable();
        if chunks.peek().is_none() {
            reader.decode(&[], true, &mut trace);
        }
        while let Some(chunk) = chunks.next() {
            reader.decode(chunk, chunks.peek().is_none(), &mut trace);
        }
        trace
    }

    #[test]
    fn the_parts_are_the_segments_and_decode_to_the_intended_text() {
        let (bytes, text, boundaries) = three_parts();
        let segmentation = segments(&bytes);
        let parts = parts_of(&segmentation, bytes.len() as u64).unwrap();
        let found: Vec<(u64, &str)> = parts
            .iter()
            .map(|p| (p.span.start, p.encoding.name()))
            .collect();
        assert_eq!(
            found,
            [
                (0, "UTF-8"),
                (boundaries[0], "windows-1251"),
                (boundaries[1], "UTF-8")
            ]
        );
        // Any chunking gives the same text, spans at file offsets.
        for step in [1, 2, 3, 7, 64, bytes.len()] {
            let mut reader = Reader::new(UTF_8, BomHandling::Sniff, Some(&parts));
            let trace = decode_all(&mut reader, &bytes, step);
            assert_eq!(text_of(&trace), text, "step {step}");
            assert_eq!(trace.errors().count(), 0);
            let last = trace.items().last().unwrap();
            assert_eq!(last.span.end, bytes.len() as u64);
        }
    }

    #[test]
    fn a_sequence_cut_at_a_part_end_is_an_error_there() {
        // "é" in UTF-8 with its second byte in the next part.
        let bytes = b"ab\xC3\xA9cd";
        let parts: Parts = vec![
            Part {
                span: ByteSpan::new(0, 3),
                encoding: UTF_8,
            },
            Part {
                span: ByteSpan::new(3, 6),
                encoding: WINDOWS_1252,
            },
        ]
        .into();
        let mut reader = Reader::new(UTF_8, BomHandling::None, Some(&parts));
        let trace = decode_all(&mut reader, bytes, 1);
        assert_eq!(text_of(&trace), "ab\u{FFFD}©cd");
        let errors: Vec<ByteSpan> = trace.errors().map(|(span, _)| span).collect();
        assert_eq!(errors, [ByteSpan::new(2, 3)]);
        assert!(
            trace.items().any(|item| item.span == ByteSpan::new(3, 4)
                && matches!(item.kind, TraceKind::Scalar(_)))
        );
        // Resuming from the second part's decoder goes on as the whole did.
        let mut whole = Reader::new(UTF_8, BomHandling::None, Some(&parts));
        let mut sink = Trace::new();
        whole.decode(&bytes[..3], false, &mut sink);
        let mut resumed = Reader::resume(whole.current(), Some(&parts));
        let mut rest = Trace::new();
        resumed.decode(&bytes[3..], true, &mut rest);
        assert_eq!(text_of(&rest), "©cd");
    }

    #[test]
    fn the_analysis_of_the_mixed_reading_decodes_any_window_as_the_whole() {
        // Parts longer than a checkpoint interval, so that checkpoints fall
        // in each and a part starts between two of them.
        let (bytes, _, _) = three_parts_of(800);
        assert!(bytes.len() > 3 * super::super::INTERVAL);
        let segmentation = segments(&bytes);
        let parts = parts_of(&segmentation, bytes.len() as u64).unwrap();
        assert_eq!(parts.len(), 3, "{parts:?}");
        let mut analyser =
            super::super::Analyser::reading(UTF_8, BomHandling::None, Some(parts.clone()), true);
        while !analyser.advance(&bytes) {}
        let (analysis, rows) = analyser.finish(&bytes);
        assert_eq!(analysis.errors, 0);
        assert!(rows.is_some());
        let mut whole = Reader::new(UTF_8, BomHandling::None, Some(&parts));
        let trace = decode_all(&mut whole, &bytes, 4096);
        let items: Vec<_> = trace.items().collect();
        let len = bytes.len() as u64;
        for start in (0..len).step_by(7919) {
            let window = ByteSpan::new(start, (start + 3000).min(len));
            let expected: Vec<_> = items
                .iter()
                .filter(|item| item.span.start >= window.start && item.span.start < window.end)
                .copied()
                .collect();
            let got: Vec<_> = analysis.decode_window(&bytes, window).items().collect();
            assert_eq!(got, expected, "window at {start}");
            // The decoder there is its part's.
            let part = analysis.part_at(start).unwrap();
            assert!(part.span.start <= start && start < part.span.end);
            let (from, decoder, limit) = analysis.decoder_at(start).unwrap();
            assert_eq!(decoder.encoding(), part.encoding);
            assert_eq!(analysis.encoding_at(start), part.encoding);
            assert!(from <= start && from >= part.span.start);
            assert_eq!(limit, part.span.end);
        }
    }

    #[test]
    fn one_encoding_has_no_parts() {
        let text = "Le château se dresse au-dessus de la rivière.\n".repeat(20);
        let segmentation = segments(text.as_bytes());
        assert!(parts_of(&segmentation, text.len() as u64).is_none());
        let empty = segments(b"");
        assert!(parts_of(&empty, 0).is_none());
    }
}
