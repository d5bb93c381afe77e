//! "Get an encoding" on any bytes: no panic, and the same answer as encoding_rs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mojiscope_core::Encoding;

fuzz_target!(|data: &[u8]| {
    let ours = Encoding::for_label(data).map(Encoding::name);
    let theirs = encoding_rs::Encoding::for_label(data).map(encoding_rs::Encoding::name);
    assert_eq!(ours, theirs);
});
