//! What the repair tests share: a request and a whole run.

use std::sync::atomic::AtomicBool;

use mojiscope_core::{BomHandling, Encoding};

use super::run::repair_file;
use super::{MAX_TEXT_BYTES, RepairOutcome, RepairRequest};

pub(super) fn request(encoding: &'static Encoding, bom_handling: BomHandling) -> RepairRequest {
    RepairRequest {
        pane: 0,
        encoding,
        bom_handling,
    }
}

pub(super) fn run(bytes: &[u8], request: RepairRequest) -> RepairOutcome {
    repair_file(
        bytes,
        request,
        MAX_TEXT_BYTES,
        &AtomicBool::new(false),
        &mut |_, _| {},
    )
    .unwrap()
    .unwrap()
}
