//! Regenerates `indexes/src/generated/` from the WHATWG Encoding Standard's
//! data files.
//!
//! Usage: `cargo run -p mojiscope-indexes --bin generate-indexes [WHATWG_DIR]`
//! (default: `../shared/whatwg` next to the workspace root).

use std::path::PathBuf;
use std::process::ExitCode;

use mojiscope_indexes::generate;

#[expect(clippy::print_stderr, reason = "a command-line tool reports on stderr")]
fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let whatwg_dir = args
        .next()
        .map_or_else(generate::default_whatwg_dir, PathBuf::from);
    if args.next().is_some() {
        eprintln!("usage: generate-indexes [WHATWG_DIR]");
        return ExitCode::FAILURE;
    }
    let files = match generate::render_all(&whatwg_dir) {
        Ok(files) => files,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    let out_dir = generate::generated_dir();
    if let Err(error) = std::fs::create_dir_all(&out_dir) {
        eprintln!(
            "error: cannot create directory: {error}: {}",
            out_dir.display()
        );
        return ExitCode::FAILURE;
    }
    for (name, contents) in &files {
        let path = out_dir.join(name);
        // Leave unchanged files alone so cargo does not rebuild for nothing.
        if std::fs::read(&path).is_ok_and(|old| old == contents.as_bytes()) {
            eprintln!("unchanged {}", path.display());
            continue;
        }
        if let Err(error) = std::fs::write(&path, contents) {
            eprintln!("error: cannot write file: {error}: {}", path.display());
            return ExitCode::FAILURE;
        }
        eprintln!("wrote {} ({} bytes)", path.display(), contents.len());
    }
    // Files the generator no longer produces would still be compiled: point them out.
    if let Ok(entries) = std::fs::read_dir(&out_dir) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            if !files.iter().any(|(file, _)| name.to_str() == Some(file)) {
                eprintln!("warning: stale file, delete it: {}", entry.path().display());
            }
        }
    }
    ExitCode::SUCCESS
}
