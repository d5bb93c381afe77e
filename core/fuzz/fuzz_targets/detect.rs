//! Detection on any bytes: no panic, and a ranking that keeps its promises:
//! every override choice ranked once, scores that are probabilities adding
//! up to 1, the best candidate first, and each `same_text_as` pointing to a
//! better-ranked candidate; and a declaration that is where it says, in the
//! first 1024 bytes, and that detection carries. The input is also tried
//! behind a `<meta charset>` whose label comes from its first byte, so that
//! declared encodings meet every kind of bytes. libFuzzer's `-timeout` bounds
//! the time.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mojiscope_core::{ALL, PRESCAN_BYTES, declared, detect};

fuzz_target!(|data: &[u8]| {
    check(data);
    let label = ALL[usize::from(data.first().copied().unwrap_or(0)) % ALL.len()].name();
    let mut page = format!("<meta charset=\"{label}\">").into_bytes();
    page.extend_from_slice(data);
    check(&page);
});

fn check(data: &[u8]) {
    if let Some(declaration) = declared(data) {
        let start = usize::try_from(declaration.byte_offset).expect("an offset");
        assert!(start <= PRESCAN_BYTES + 3, "the declaration is near the start");
        assert!(start <= data.len());
    }
    let detection = detect(data);
    assert_eq!(detection.declaration, declared(data));
    let candidates = &detection.candidates;
    assert!(!candidates.is_empty(), "something is always ranked");
    assert_eq!(detection.best(), candidates[0].encoding);

    let choices = ALL.iter().filter(|e| e.is_override_choice()).count();
    assert!(
        candidates.len() >= choices,
        "every override choice is ranked"
    );
    for (index, candidate) in candidates.iter().enumerate() {
        let first = candidates
            .iter()
            .position(|c| c.encoding == candidate.encoding);
        assert_eq!(first, Some(index), "{} ranked twice", candidate.encoding);
        assert!(
            (0.0..=1.0).contains(&candidate.score),
            "score {}",
            candidate.score
        );
        assert!(
            candidate.log_likelihood <= 1e-9,
            "the best has 0, the others less"
        );
        if let Some(same) = candidate.same_text_as {
            let better = candidates[..index].iter().any(|c| c.encoding == same);
            assert!(better, "same_text_as names a better-ranked candidate");
        }
    }
    let total: f64 = candidates.iter().map(|c| c.score).sum();
    assert!((total - 1.0).abs() < 1e-6, "scores add up to {total}");
    assert!((0.0..=1.0 + 1e-9).contains(&detection.confidence));
    assert!(detection.margin >= 0.0);
    assert!(detection.bytes_examined <= data.len() as u64);
}
