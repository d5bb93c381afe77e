//! Segments on any bytes: no panic, and a segmentation that keeps its
//! promises: segments in order that cover the input exactly, each but the
//! first starting at a line start, neighbours in different encodings, one
//! segment named as detection names the whole, margins that are not
//! negative, and no more bytes examined than there are. Besides the bytes
//! as they are, the input is made into a mixture the way real files are
//! made: its first part as it is, then its second part (as text) encoded
//! through an encoding its first byte chooses, so that lines in two
//! encodings meet. libFuzzer's `-timeout` bounds the time.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mojiscope_core::{ALL, detect, segments};

fuzz_target!(|data: &[u8]| {
    check(data);
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    // The first part ends after the middle line feed, if there is one.
    let middle = rest.len() / 2;
    let cut = rest[middle..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(rest.len(), |i| middle + i + 1);
    let (first, second) = rest.split_at(cut);
    let encoding = ALL[usize::from(selector) % ALL.len()];
    let (encoded, _, _) = encoding.encode(&String::from_utf8_lossy(second));
    let mut mixed = first.to_vec();
    mixed.extend_from_slice(&encoded);
    check(&mixed);
});

fn check(data: &[u8]) {
    let segmentation = segments(data);
    let parts = &segmentation.segments;
    assert!(!parts.is_empty(), "one segment at least");
    assert!(segmentation.bytes_examined <= data.len() as u64);
    let mut end = 0;
    for (index, part) in parts.iter().enumerate() {
        let span = part.byte_span;
        assert_eq!(span.start, end, "segments follow each other");
        assert!(span.start <= span.end);
        end = span.end;
        assert!(part.margin >= 0.0, "margin {}", part.margin);
        assert!((0.5..=1.0).contains(&part.confidence()));
        if index > 0 {
            assert!(span.start < span.end, "only a lone segment is empty");
            let start = usize::try_from(span.start).expect("an offset");
            // A line start, or where a line longer than 64 KiB was cut.
            let line_start = data[..start]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            assert!(
                line_start == start || start - line_start >= 64 * 1024,
                "a segment starts at a line start"
            );
            assert_ne!(part.encoding, parts[index - 1].encoding, "neighbours differ");
        }
    }
    assert_eq!(end, data.len() as u64, "the segments cover the input");
    if parts.len() == 1 {
        assert_eq!(parts[0].encoding, detect(data).best());
    }
}
