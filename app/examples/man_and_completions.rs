//! Writes the man pages and the shell completions of `mojiscope`, generated
//! from the real clap definition ([`mojiscope::cli::command`]), for the
//! packages to install.
//!
//! ```text
//! cargo run -p mojiscope --example man_and_completions -- OUT_DIR
//! ```
//!
//! writes `OUT_DIR/man/mojiscope.1` (and one page per subcommand,
//! `mojiscope-decode.1` ...) and `OUT_DIR/completions/` (`mojiscope.bash`,
//! `_mojiscope` for zsh, `mojiscope.fish`). `packaging/build-deb.sh` runs it.
//!
//! Why an example, and not a hidden subcommand or a second binary: a
//! subcommand would take a word away from `mojiscope FILE` (a file of that
//! name could no longer be opened that way) and would put the generators in
//! every installed binary; a second `[[bin]]` would be installed by
//! `cargo install` too. An example builds from the same definition, uses
//! dev-dependencies only, is never installed, and `cargo test` and clippy
//! (`--all-targets`) keep it compiling.

use std::error::Error;
use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap_complete::Shell;

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let (Some(out_dir), None) = (args.next(), args.next()) else {
        say("usage: man_and_completions OUT_DIR");
        return ExitCode::from(2);
    };
    match generate(Path::new(&out_dir)) {
        Ok(written) => {
            for path in written {
                say(&format!("wrote {}", path.display()));
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            say(&format!("man_and_completions: {error}"));
            ExitCode::FAILURE
        }
    }
}

/// Writes every file into `out_dir` and returns their paths.
fn generate(out_dir: &Path) -> Result<Vec<PathBuf>, Box<dyn Error>> {
    let command = mojiscope::cli::command();
    let name = command.get_name().to_owned();
    let man_dir = out_dir.join("man");
    let completions_dir = out_dir.join("completions");
    fs::create_dir_all(&man_dir).map_err(|e| format!("{}: {e}", man_dir.display()))?;
    fs::create_dir_all(&completions_dir)
        .map_err(|e| format!("{}: {e}", completions_dir.display()))?;

    clap_mangen::generate_to(command.clone(), &man_dir)
        .map_err(|e| format!("{}: {e}", man_dir.display()))?;
    let mut written: Vec<PathBuf> = fs::read_dir(&man_dir)?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<Result<_, _>>()?;
    written.sort();

    for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
        let mut command = command.clone();
        let path = clap_complete::generate_to(shell, &mut command, &name, &completions_dir)
            .map_err(|e| format!("{}: {e}", completions_dir.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// One line on standard error (standard output is left to nothing).
fn say(line: &str) {
    // Nowhere is left to report a failure to write to standard error.
    writeln!(io::stderr().lock(), "{line}").ok();
}
