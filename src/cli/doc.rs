//! `meeple doc FILE [--variant V]... [--html] [-o OUT]`: the rulebook of a game, drawn from its
//! rules (see [`crate::rulebook`]).

use super::{eprint_text, plural, stderr_style, CliError};
use crate::diag::render_all;
use crate::files::{write_output, Output, RULEBOOK_TEXT_MARK};
use crate::printable::escape;
use crate::rulebook::{render, rulebook};
use clap::Args;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `meeple doc`.
#[derive(Debug, Args)]
pub struct DocArgs {
    /// The rules file: a game, or a variant (which names its base).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// A variant file to stack on the game (repeatable, applied in order).
    #[arg(long = "variant", value_name = "V")]
    pub variants: Vec<PathBuf>,

    /// Write a self-contained HTML page instead of plain text.
    #[arg(long)]
    pub html: bool,

    /// Write the rulebook to this file instead of standard output.
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: Option<PathBuf>,
}

/// Draws the rulebook; a file that does not check has its diagnostics printed, and exits 1.
pub(super) fn run(args: &DocArgs) -> Result<ExitCode, CliError> {
    let (book, loaded) = rulebook(&args.file, &args.variants);
    let diags = &loaded.diagnostics;
    if !diags.0.is_empty() {
        eprint_text(&render_all(diags, &loaded.sources, stderr_style()));
    }
    let Some(book) = book else {
        eprint_text(&format!(
            "{}: failed ({}, {})\n",
            args.file.display(),
            plural(diags.error_count(), "error"),
            plural(diags.warning_count(), "warning")
        ));
        return Ok(ExitCode::FAILURE);
    };
    let page = if args.html {
        render::html(&book)
    } else {
        // The mark by which `-o` knows a rulebook it may write over (a Markdown comment).
        format!("{RULEBOOK_TEXT_MARK}\n{}", escape(&render::text(&book)))
    };
    match &args.output {
        Some(path) => {
            let inputs: Vec<PathBuf> = std::iter::once(&args.file)
                .chain(&args.variants)
                .cloned()
                .chain(loaded.files())
                .collect();
            if let Err(e) = write_output(path, &page, Output::Rulebook, &inputs) {
                eprint_text(&format!("meeple: cannot write `{}`: {e}\n", path.display()));
                return Ok(ExitCode::FAILURE);
            }
        }
        None => {
            let mut out = io::stdout().lock();
            out.write_all(page.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
