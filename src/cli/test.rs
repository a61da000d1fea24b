//! `meeple test FILE...`: check each file, run its scenarios, and play one seeded bot game for
//! every player count it allows (which also checks every declared invariant).

use super::{plural, stdout_style, CliError, TestArgs};
use crate::diag::{render, render_all};
use crate::load::load;
use crate::{scenario, sim};
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Arc;

/// Runs the tests of each file; exit status 1 if anything failed.
pub(super) fn run(args: &TestArgs) -> Result<ExitCode, CliError> {
    let style = stdout_style();
    let mut out = io::stdout().lock();
    let (mut passed, mut failed) = (0usize, 0usize);
    for file in &args.files {
        let loaded = load(file, &args.variants);
        let Some(program) = loaded.program else {
            write!(
                out,
                "{}",
                render_all(&loaded.diagnostics, &loaded.sources, style)
            )?;
            writeln!(
                out,
                "{}: does not check ({})",
                file.display(),
                plural(loaded.diagnostics.error_count(), "error")
            )?;
            failed += 1;
            continue;
        };
        let program = Arc::new(program);
        writeln!(out, "{}", file.display())?;
        for report in scenario::run_all(&program) {
            match &report.failure {
                None => {
                    passed += 1;
                    writeln!(out, "  ok    {}", report.title)?;
                }
                Some(d) => {
                    failed += 1;
                    writeln!(out, "  FAIL  {}", report.title)?;
                    write!(out, "{}", render(d, &program.sources, style))?;
                }
            }
        }
        for players in program.min_players..=program.max_players {
            match sim::random_game(program.clone(), players, args.seed) {
                Ok(game) => {
                    passed += 1;
                    writeln!(
                        out,
                        "  ok    a bot game for {players} players (seed {}, {} decisions)",
                        args.seed,
                        game.history().len()
                    )?;
                }
                Err(e) => {
                    failed += 1;
                    writeln!(
                        out,
                        "  FAIL  a bot game for {players} players (seed {}): {e}",
                        args.seed
                    )?;
                    let diag = match &e {
                        sim::SimError::Start(r) => Some(r.to_diagnostic()),
                        sim::SimError::Move(crate::engine::MoveError::Runtime(r)) => {
                            Some(r.to_diagnostic())
                        }
                        sim::SimError::Move(_) => None,
                    };
                    if let Some(d) = diag {
                        write!(out, "{}", render(&d, &program.sources, style))?;
                    }
                }
            }
        }
    }
    writeln!(out, "{passed} passed, {failed} failed")?;
    out.flush()?;
    Ok(if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
