//! Decodes or encodes a whole file at once with the one-shot API and writes
//! the result to standard output: the library's speed on a file, against
//! which the command line's streaming `decode` and `encode` are measured
//! (see BENCHMARKS.md).
//!
//! ```text
//! cargo run --release -p mojiscope-core --example whole_file -- decode LABEL FILE
//! cargo run --release -p mojiscope-core --example whole_file -- encode LABEL FILE
//! ```
//!
//! `decode` is the standard's "decode" (a byte order mark picks the
//! encoding), as `mojiscope decode` does by default. `encode` removes a
//! UTF-8 byte order mark, validates the rest as UTF-8 and encodes it in html
//! mode, as `mojiscope encode --errors html` does.

use std::error::Error;
use std::io::Write as _;

use mojiscope_core::Encoding;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [command, label, file] = args.as_slice() else {
        return Err("usage: whole_file decode|encode LABEL FILE".into());
    };
    let encoding = Encoding::for_label(label.as_bytes()).ok_or("unknown label")?;
    let bytes = std::fs::read(file)?;
    let output = match command.as_str() {
        "decode" => encoding.decode(&bytes).text.into_bytes(),
        "encode" => {
            let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
            let text = simdutf8::basic::from_utf8(text).map_err(|_| "not UTF-8")?;
            encoding.encode(text).0
        }
        _ => return Err("the command is decode or encode".into()),
    };
    std::io::stdout().lock().write_all(&output)?;
    Ok(())
}
