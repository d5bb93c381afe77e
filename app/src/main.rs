//! `mojiscope`: look inside text files byte by byte.
//!
//! With a subcommand it is a command-line tool (see [`cli`]). Without one it
//! will be the desktop app, which is not part of this build yet.

mod cli;

use std::io::{self, BufWriter, Write as _};
use std::process::ExitCode;

use cli::CliError;

fn main() -> ExitCode {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut stdout = BufWriter::with_capacity(cli::CHUNK_SIZE, stdout.lock());
    let result = cli::run(std::env::args_os(), &mut stdin.lock(), &mut stdout);
    match result {
        Ok(success) => {
            if let Some(summary) = success.summary {
                report(&summary);
            }
            ExitCode::SUCCESS
        }
        Err(CliError::Clap(error)) => {
            // clap prints help and version to stdout, usage errors to stderr.
            // If even that fails there is nowhere left to say so.
            error.print().ok();
            ExitCode::from(CliError::Clap(error).exit_status())
        }
        Err(error) => {
            report(&error.to_string());
            ExitCode::from(error.exit_status())
        }
    }
}

/// Writes one line to standard error, prefixed with the program's name.
fn report(message: &str) {
    // Nowhere is left to report a failure to write to standard error.
    writeln!(io::stderr().lock(), "mojiscope: {message}").ok();
}
