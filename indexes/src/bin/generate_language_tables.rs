//! Regenerates `indexes/src/language/tables.rs`, the language statistics
//! behind encoding detection, from the training text in `indexes/languages/`.
//!
//! Usage: `cargo run -p mojiscope-indexes --bin generate-language-tables`

use std::process::ExitCode;

use mojiscope_indexes::generate::languages;

#[expect(clippy::print_stderr, reason = "a command-line tool reports on stderr")]
fn main() -> ExitCode {
    if std::env::args_os().len() > 1 {
        eprintln!("usage: generate-language-tables");
        return ExitCode::FAILURE;
    }
    let contents = match languages::render(&languages::text_dir()) {
        Ok(contents) => contents,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    let path = languages::output_path();
    if std::fs::read(&path).is_ok_and(|old| old == contents.as_bytes()) {
        eprintln!("unchanged {}", path.display());
        return ExitCode::SUCCESS;
    }
    if let Err(error) = std::fs::write(&path, &contents) {
        eprintln!("error: cannot write file: {error}: {}", path.display());
        return ExitCode::FAILURE;
    }
    eprintln!("wrote {} ({} bytes)", path.display(), contents.len());
    ExitCode::SUCCESS
}
