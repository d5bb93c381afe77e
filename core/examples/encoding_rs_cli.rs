//! The command line's `decode` and `encode` on `encoding_rs`: the same
//! contract as `mojiscope decode --encoding LABEL FILE` and `mojiscope
//! encode --encoding LABEL FILE` (the text to standard output, the input
//! read and converted a chunk at a time, in chunks of the same size, through
//! an output buffer of the same size), so that the two commands can be timed
//! and their instructions counted side by side (see BENCHMARKS.md and
//! `tools/bench-callgrind.sh --command`). A benchmark's yardstick: it is an
//! example, never part of the shipped binary.
//!
//! ```text
//! cargo run --release -p mojiscope-core --example encoding_rs_cli -- decode --encoding LABEL FILE
//! cargo run --release -p mojiscope-core --example encoding_rs_cli -- encode --encoding LABEL FILE
//! ```
//!
//! `decode` is the standard's "decode" (a byte order mark picks the
//! encoding) in replacement mode. `encode` is the standard's "UTF-8 decode"
//! of the input (a UTF-8 byte order mark is removed), failing on input that
//! is not UTF-8, then the encoder in html mode.

use std::error::Error;
use std::fs::File;
use std::io::{BufWriter, Read, Write};

use encoding_rs::{CoderResult, DecoderResult, Encoding, UTF_8};

/// The command line's chunk size (`app/src/cli/transcode.rs`).
const CHUNK_SIZE: usize = 64 * 1024;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [command, option, label, file] = args.as_slice() else {
        return Err("usage: encoding_rs_cli decode|encode --encoding LABEL FILE".into());
    };
    if option != "--encoding" {
        return Err("usage: encoding_rs_cli decode|encode --encoding LABEL FILE".into());
    }
    let encoding = Encoding::for_label(label.as_bytes()).ok_or("unknown label")?;
    let mut input = File::open(file)?;
    let stdout = std::io::stdout();
    let mut output = BufWriter::with_capacity(CHUNK_SIZE, stdout.lock());
    match command.as_str() {
        "decode" => decode(encoding, &mut input, &mut output)?,
        "encode" => encode(encoding, &mut input, &mut output)?,
        _ => return Err("the command is decode or encode".into()),
    }
    output.flush()?;
    Ok(())
}

/// Reads until `buffer` is full or the input ends; returns how much was read.
fn fill(input: &mut dyn Read, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match input.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(filled)
}

fn decode(
    encoding: &'static Encoding,
    input: &mut dyn Read,
    output: &mut dyn Write,
) -> Result<(), Box<dyn Error>> {
    let mut decoder = encoding.new_decoder();
    let mut chunk = vec![0; CHUNK_SIZE];
    let mut text = Vec::new();
    loop {
        let len = fill(input, &mut chunk)?;
        let last = len < chunk.len();
        // Room for the longest text this chunk can make, given what the
        // decoder holds from the chunk before.
        let room = decoder.max_utf8_buffer_length(len).ok_or("too long")?;
        if text.len() < room {
            text.resize(room, 0);
        }
        let (result, read, written, _) = decoder.decode_to_utf8(&chunk[..len], &mut text, last);
        if result != CoderResult::InputEmpty || read != len {
            return Err("the output buffer was too small".into());
        }
        output.write_all(&text[..written])?;
        if last {
            return Ok(());
        }
    }
}

fn encode(
    encoding: &'static Encoding,
    input: &mut dyn Read,
    output: &mut dyn Write,
) -> Result<(), Box<dyn Error>> {
    let mut decoder = UTF_8.new_decoder_with_bom_removal();
    let mut encoder = encoding.new_encoder();
    let mut chunk = vec![0; CHUNK_SIZE];
    let mut text = String::new();
    let mut bytes = Vec::with_capacity(CHUNK_SIZE);
    loop {
        let len = fill(input, &mut chunk)?;
        let last = len < chunk.len();
        text.clear();
        // Room for the longest text this chunk can make, given what the
        // decoder holds from the chunk before.
        text.reserve(
            decoder
                .max_utf8_buffer_length_without_replacement(len)
                .ok_or("too long")?,
        );
        let (result, read) =
            decoder.decode_to_string_without_replacement(&chunk[..len], &mut text, last);
        match result {
            DecoderResult::InputEmpty if read == len => {}
            DecoderResult::Malformed(..) => return Err("the input is not UTF-8".into()),
            _ => return Err("the output buffer was too small".into()),
        }
        bytes.clear();
        let _ = encoder.encode_from_utf8_to_vec(&text, &mut bytes, last);
        output.write_all(&bytes)?;
        if last {
            return Ok(());
        }
    }
}
