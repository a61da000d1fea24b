//! `meeple check FILE...`: every diagnostic of each file, then a summary line per file.

use super::{plural, stdout_style, CheckArgs, CliError};
use crate::diag::render_all;
use crate::load::load;
use std::io::{self, Write};
use std::process::ExitCode;

/// Checks each file; exit status 1 if any has errors.
pub(super) fn run(args: &CheckArgs) -> Result<ExitCode, CliError> {
    let style = stdout_style();
    let mut out = io::stdout().lock();
    let mut failed = false;
    let mut report = args.json.then(super::check_json::Report::new);
    for (i, file) in args.files.iter().enumerate() {
        let loaded = load(file, &[]);
        let ok = loaded.diagnostics.error_count() == 0 && loaded.program.is_some();
        failed |= !ok;
        if let Some(report) = report.as_mut() {
            report.add(file, &loaded, ok);
            continue;
        }
        write!(
            out,
            "{}",
            render_all(&loaded.diagnostics, &loaded.sources, style)
        )?;
        let errors = loaded.diagnostics.error_count();
        let warnings = loaded.diagnostics.warning_count();
        writeln!(
            out,
            "{}: {} ({}, {})",
            file.display(),
            if ok { "ok" } else { "failed" },
            plural(errors, "error"),
            plural(warnings, "warning")
        )?;
        if i + 1 == args.files.len() {
            // The process ends here: a file of megabytes is hundreds of megabytes of program,
            // which the system takes back at once and freeing would take back piece by piece.
            std::mem::forget(loaded);
        }
    }
    if let Some(report) = report {
        writeln!(out, "{}", report.to_json())?;
    }
    out.flush()?;
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
