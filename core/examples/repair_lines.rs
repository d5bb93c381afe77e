//! Repairs texts given one per line as JSON strings and writes, one per
//! line, a JSON object with the repaired text and what the repair did: the
//! engine as a program, for scripts that compare it with other fixers
//! (`tools/repair-vs-ftfy.py`).
//!
//! ```text
//! cargo run --release -p mojiscope-core --example repair_lines < texts.jsonl
//! cargo run --release -p mojiscope-core --example repair_lines -- --time FILE...
//! ```
//!
//! Each output object has `output` (the text with every change applied),
//! `changes`, `suggestions`, `lost` (characters that could not be
//! recovered), `guesses` (changes marked as guesses), `chains` (the
//! user-facing name of each change's chain) and `declined` (why the text was
//! declined as not text, or null). With `--time`, each FILE is read as UTF-8
//! (invalid bytes become U+FFFD), repaired once, and a line
//! `FILE<TAB>SECONDS<TAB>CHANGES` is written.

use std::error::Error;
use std::io::{BufRead as _, Write as _};
use std::time::Instant;

use mojiscope_core::repair;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.first().map(String::as_str) == Some("--time") {
        for file in &args[1..] {
            let bytes = std::fs::read(file)?;
            let text = String::from_utf8_lossy(&bytes);
            let start = Instant::now();
            let found = repair::repair(&text);
            let seconds = start.elapsed().as_secs_f64();
            writeln!(out, "{file}\t{seconds:.3}\t{}", found.changes.len())?;
        }
        return Ok(());
    }
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let text: String = serde_json::from_str(&line)?;
        let found = repair::repair(&text);
        let output = found.apply(&text);
        let lost: usize = found.changes.iter().map(|change| change.lost.len()).sum();
        let guesses = found
            .changes
            .iter()
            .filter(|change| change.is_guess())
            .count();
        let chains: Vec<String> = found
            .changes
            .iter()
            .map(|change| change.chain.display_name())
            .collect();
        let declined = found.declined.map(|reason| reason.to_string());
        let object = serde_json::json!({
            "output": output,
            "changes": found.changes.len(),
            "suggestions": found.suggestions.len(),
            "lost": lost,
            "guesses": guesses,
            "chains": chains,
            "declined": declined,
        });
        writeln!(out, "{object}")?;
    }
    Ok(())
}
