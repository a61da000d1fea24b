//! The `meeple` command: parses the arguments, runs the command, exits with its status.

use std::process::ExitCode;

fn main() -> ExitCode {
    match meeple::cli::run(std::env::args_os()) {
        Ok(code) => code,
        Err(usage) => usage.exit(),
    }
}
