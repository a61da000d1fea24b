//! `meeple test FILE...`: check each file, run its scenarios, play one seeded bot game for
//! every player count it allows (which also checks every declared invariant), and compare the
//! check report and those games with the file's golden snapshots ([`crate::golden`]).

use super::golden_files::{self, Tally};
use super::junit::Junit;
use super::{plural, stdout_style, CliError, TestArgs};
use crate::diag::{render, render_all};
use crate::files::{write_output, Output};
use crate::load::load;
use crate::printable::escape;
use crate::{scenario, sim};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// Runs the tests of each file; exit status 1 if anything failed.
pub(super) fn run(args: &TestArgs) -> Result<ExitCode, CliError> {
    let style = stdout_style();
    let mut out = io::stdout().lock();
    if let Some(path) = &args.junit {
        // Refused before any test runs, rather than after minutes of them.
        if let Err(e) = crate::files::check_target(path, Output::Junit, &args.files) {
            writeln!(out, "cannot write the JUnit report: {e}")?;
            return Ok(ExitCode::FAILURE);
        }
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut junit = Junit::default();
    let mut files = Vec::new();
    for given in &args.files {
        if let Err(e) = expand(given, &mut files) {
            let line = format!("{}: cannot read: {e}", given.display());
            writeln!(out, "{line}")?;
            let mut tally = Tally::default();
            tally.fail("read", &line, line.clone());
            junit.add(given, tally.cases);
            failed += 1;
        }
    }
    let mut review = golden_files::Review::new(args);
    for file in &files {
        let (mut tally, checks) = test_file(file, args, style, &mut out)?;
        // A file that does not check is one failure: its goldens are not compared (nor written).
        if checks && !args.no_snapshots {
            let goldens = golden_files::compare(file, args, &mut review, &mut out)?;
            tally.cases.extend(goldens.cases);
        }
        passed += tally.passed();
        failed += tally.failed();
        junit.add(file, tally.cases);
    }
    if let Some(path) = &args.junit {
        if let Err(e) = write_output(path, &junit.to_xml(), Output::Junit, &args.files) {
            writeln!(out, "cannot write the JUnit report: {e}")?;
            failed += 1;
        }
    }
    if review.pending_changes() {
        writeln!(
            out,
            "Golden files differ: `meeple test --review` shows each change and asks, `--accept` takes them all."
        )?;
    }
    writeln!(out, "{passed} passed, {failed} failed")?;
    out.flush()?;
    Ok(if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Adds `path` to `files`, or every `.rules` file under it (sorted, `snapshots/` skipped) if it
/// is a folder.
fn expand(path: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    if !path.is_dir() {
        files.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for entry in entries {
        if entry.is_dir() {
            if entry.file_name().is_some_and(|n| n != "snapshots") {
                expand(&entry, files)?;
            }
        } else if entry.extension().is_some_and(|x| x == "rules") {
            files.push(entry);
        }
    }
    Ok(())
}

/// Checks one file, runs its scenarios and plays its bot games; false if it does not check.
fn test_file(
    file: &Path,
    args: &TestArgs,
    style: crate::diag::RenderStyle,
    out: &mut dyn Write,
) -> Result<(Tally, bool), CliError> {
    let mut tally = Tally::default();
    let loaded = load(file, &args.variants);
    let plain = crate::diag::RenderStyle::plain();
    let Some(program) = loaded.program else {
        write!(
            out,
            "{}",
            render_all(&loaded.diagnostics, &loaded.sources, style)
        )?;
        let line = format!(
            "{}: does not check ({})",
            file.display(),
            plural(loaded.diagnostics.error_count(), "error")
        );
        writeln!(out, "{line}")?;
        let text = render_all(&loaded.diagnostics, &loaded.sources, plain);
        tally.fail("check", &line, text);
        return Ok((tally, false));
    };
    let program = Arc::new(program);
    writeln!(out, "{}", file.display())?;
    for report in scenario::run_all(&program) {
        let title = escape(&report.title).into_owned();
        match &report.failure {
            None => {
                writeln!(out, "  ok    {title}")?;
                tally.pass(format!("scenario {title}"));
            }
            Some(d) => {
                writeln!(out, "  FAIL  {title}")?;
                write!(out, "{}", render(d, &program.sources, style))?;
                let text = render(d, &program.sources, plain);
                tally.fail(format!("scenario {title}"), &d.message, text);
            }
        }
    }
    for players in program.min_players..=program.max_players {
        let name = format!("a bot game for {players} players (seed {})", args.seed);
        match sim::random_game(program.clone(), players, args.seed) {
            Ok(game) => {
                writeln!(
                    out,
                    "  ok    a bot game for {players} players (seed {}, {} decisions)",
                    args.seed,
                    game.history().len()
                )?;
                tally.pass(name);
            }
            Err(e) => {
                let message = escape(&e.to_string()).into_owned();
                writeln!(out, "  FAIL  {name}: {message}")?;
                let diag = match &e {
                    sim::SimError::Start(r) => Some(r.to_diagnostic()),
                    sim::SimError::Move(crate::engine::MoveError::Runtime(r)) => {
                        Some(r.to_diagnostic())
                    }
                    sim::SimError::Move(_) => None,
                };
                let mut text = message.clone();
                if let Some(d) = diag {
                    write!(out, "{}", render(&d, &program.sources, style))?;
                    text = render(&d, &program.sources, plain);
                }
                tally.fail(name, &message, text);
            }
        }
    }
    Ok((tally, true))
}
