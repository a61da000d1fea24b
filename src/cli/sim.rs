//! `meeple sim`: load and check the rules, play a batch of bot games on every core with a
//! progress bar on stderr, and print the report as text, JSON or CSV; `meeple sim merge`
//! combines shard files into the report of the whole batch.

use super::{eprint_text, stderr_style, usage_error, CliError, MergeArgs, SimArgs, SimCommand};
use crate::bots::BotKind;
use crate::diag::render_all;
use crate::load::load;
use crate::sim::text::{csv, render};
use crate::sim::{merge, parse_shard, run_batch, Batch, GameRecord, Meta, Report};
use clap::error::ErrorKind;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;

const FAILED: u8 = 1;

/// Runs `meeple sim` or `meeple sim merge` as the arguments say.
pub(super) fn run(args: &SimArgs) -> Result<ExitCode, CliError> {
    if let Some(SimCommand::Merge(m)) = &args.command {
        return run_merge(m);
    }
    let (Some(file), Some(players), Some(games)) = (&args.file, args.players, args.games) else {
        return Err(usage_error(
            "sim",
            ErrorKind::MissingRequiredArgument,
            "FILE, --players and --games are required".into(),
        ));
    };
    let loaded = load(file, &args.variants);
    if !loaded.diagnostics.0.is_empty() {
        eprint_text(&render_all(
            &loaded.diagnostics,
            &loaded.sources,
            stderr_style(),
        ));
    }
    let Some(program) = loaded.program else {
        return Ok(fail(&format!(
            "{}: the rules have errors; fix them and try again",
            file.display()
        )));
    };
    let program = Arc::new(program);
    let (min, max) = (program.min_players, program.max_players);
    if !(min..=max).contains(&players) {
        let message = format!(
            "{} is for {min} to {max} players, not {players}",
            program.title
        );
        return Err(usage_error("sim", ErrorKind::ValueValidation, message));
    }
    let spec = args.bots.clone().unwrap_or_default();
    if let Err(e) = spec.check_seats(players) {
        return Err(usage_error(
            "sim",
            ErrorKind::ValueValidation,
            e.to_string(),
        ));
    }
    let batch = Batch {
        players,
        games,
        seed: args.seed,
        bots: spec.kinds(players, BotKind::Random),
        shard: args.shard,
    };
    let meta = Meta {
        game: program.title.clone(),
        variants: program.variants.clone(),
        file: file.display().to_string(),
        variant_files: args
            .variants
            .iter()
            .map(|v| v.display().to_string())
            .collect(),
        players,
        seats: (0..players).map(|p| program.seat_name(p)).collect(),
        bots: batch.bots.iter().map(|b| b.name().to_string()).collect(),
        seed: args.seed,
        games,
        shard: args.shard,
        action_names: program.actions.iter().map(|a| a.name.clone()).collect(),
    };

    let bar = progress_bar(batch.len());
    let threads = args.threads.map(|t| t as usize);
    let records = match run_batch(&program, &batch, threads, &|| bar.inc(1)) {
        Ok(r) => r,
        Err(e) => return Ok(fail(&format!("cannot start the worker threads: {e}"))),
    };
    bar.finish_and_clear();

    let mut report = Report::new(meta, &records);
    if args.shard.is_some() && args.json {
        report.records = Some(records.clone());
    }
    print(&report, &records, args.json, args.csv)
}

/// `meeple sim merge`: read every shard file, merge, print.
fn run_merge(args: &MergeArgs) -> Result<ExitCode, CliError> {
    let mut shards = Vec::new();
    for path in &args.files {
        let name = path.display().to_string();
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => return Ok(fail(&format!("cannot read `{name}`: {e}"))),
        };
        match parse_shard(&name, &text) {
            Ok(r) => shards.push((name, r)),
            Err(e) => return Ok(fail(&e.to_string())),
        }
    }
    match merge(&shards) {
        Ok((report, records)) => {
            drop(shards);
            print(&report, &records, args.json, args.csv)
        }
        Err(e) => Ok(fail(&format!("cannot merge: {e}"))),
    }
}

/// Prints the report in the format asked for; exit status 1 if a rule failed in any game.
fn print(
    report: &Report,
    records: &[GameRecord],
    json: bool,
    as_csv: bool,
) -> Result<ExitCode, CliError> {
    let text = if json {
        report.to_json()
    } else if as_csv {
        csv(&report.meta, records)
    } else {
        render(report)
    };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    if report.failed > 0 {
        if json || as_csv {
            eprint_text(&format!(
                "meeple: a rule failed in {} of {} games\n",
                report.failed, report.played
            ));
        }
        return Ok(ExitCode::from(FAILED));
    }
    Ok(ExitCode::SUCCESS)
}

/// A progress bar with an ETA on stderr; hidden when stderr is not a terminal.
fn progress_bar(games: u64) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} games · {elapsed} elapsed · ETA {eta}")
    {
        bar.set_style(style);
    }
    bar
}

/// Prints `message` to stderr; exit status 1.
fn fail(message: &str) -> ExitCode {
    eprint_text(&format!("meeple: {message}\n"));
    ExitCode::from(FAILED)
}
