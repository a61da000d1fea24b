//! `meeple sim`: load and check the rules, play a batch of bot games on every core with a
//! progress bar on stderr, and print the report as text, JSON or CSV; with `--against`, play a
//! second rules file on the same seeds and print the comparison; `meeple sim merge` combines
//! shard files into the report of the whole batch.

use super::{
    eprint_text, fail, load_reporting, usage_error, CliError, MergeArgs, SimArgs, SimCommand,
};
use crate::bots::BotKind;
use crate::files::{check_target, write_output, Output};
use crate::ir::Program;
use crate::printable::{escape, escape_json};
use crate::sim::html;
use crate::sim::report::GoalKind;
use crate::sim::text::{csv, render};
use crate::sim::text_compare::render_comparison;
use crate::sim::{
    merge, merge_compared, parse_shard_doc, run_batch, Batch, CompareReport, GameRecord, Meta,
    Played, Report, ShardDoc, MAX_SHARD,
};
use clap::error::ErrorKind;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

const FAILED: u8 = 1;

/// The options of `meeple sim` that compare two rule sets and draw pictures, flattened into
/// [`super::SimArgs`].
#[derive(Debug, clap::Args)]
pub struct MoreSimArgs {
    /// Compare with another rules file B (a game, or a variant, which names its base), played on
    /// the same seeds with the same --players, --games, --bots and --seed: every statistic of A
    /// (FILE with its --variant files) and B side by side, with B − A and its 95% interval.
    /// With --shard K/N --json, a shard of the comparison for `meeple sim merge`.
    #[arg(long, value_name = "B", conflicts_with = "csv")]
    pub against: Option<PathBuf>,

    /// A variant file to stack on B (repeatable, applied in order). FILE's --variant files are
    /// not applied to B.
    #[arg(long = "against-variant", value_name = "W", requires = "against")]
    pub against_variants: Vec<PathBuf>,

    /// Also write the report as one self-contained HTML page of charts (win rates with their
    /// intervals, game length, scores; A and B side by side with --against) to this file.
    #[arg(long, value_name = "PAGE.html", conflicts_with = "shard")]
    pub html: Option<PathBuf>,
}

/// A rules file loaded for a batch, and what its report says was simulated.
struct Side {
    program: Arc<Program>,
    meta: Meta,
}

/// Runs `meeple sim` or `meeple sim merge` as the arguments say.
pub(super) fn run(args: &SimArgs) -> Result<ExitCode, CliError> {
    if let Some(SimCommand::Merge(m)) = &args.command {
        return run_merge(m);
    }
    let Some(file) = &args.file else {
        return Err(usage_error(
            "sim",
            ErrorKind::MissingRequiredArgument,
            "FILE is required".into(),
        ));
    };
    let a = match load(file, &args.variants) {
        Ok(p) => p,
        Err(code) => return Ok(code),
    };
    let b = match &args.more.against {
        None => None,
        Some(against) => match load(against, &args.more.against_variants) {
            Ok(p) => Some((p, against)),
            Err(code) => return Ok(code),
        },
    };
    // Without --players, the fewest seats the game (FILE's) allows.
    let players = args.players.unwrap_or(a.min_players);
    let spec = args.bots.clone().unwrap_or_default();
    let batch = Batch {
        players,
        games: args.games,
        seed: args.seed,
        bots: spec.kinds(players, BotKind::Random),
        shard: args.shard,
        max_decisions: args.max_decisions,
    };
    let a = side(a, file, &args.variants, &batch)?;
    let b = b
        .map(|(b, against)| side(b, against, &args.more.against_variants, &batch))
        .transpose()?;
    if let Err(e) = spec.check_seats(players) {
        return Err(usage_error(
            "sim",
            ErrorKind::ValueValidation,
            e.to_string(),
        ));
    }
    // The files read: a page is never written over one of them.
    let inputs: Vec<PathBuf> = std::iter::once(file)
        .chain(&args.variants)
        .chain(&args.more.against)
        .chain(&args.more.against_variants)
        .cloned()
        .chain(a.program.sources.paths())
        .chain(b.iter().flat_map(|b| b.program.sources.paths()))
        .collect();
    // A page that cannot be written is said before the games are played, not after.
    if let Some(path) = &args.more.html {
        if let Err(e) = check_target(path, Output::SimPage, &inputs) {
            return Ok(fail(&format!("cannot write `{}`: {e}", path.display())));
        }
    }

    let sides = if b.is_some() { 2 } else { 1 };
    let bar = progress_bar(sides * batch.len());
    let threads = args.threads.map(|t| t as usize);
    // A hidden bar (stderr not a terminal) is not told of each game: counting one reads the
    // clock, a cost of its own in a batch of short games.
    let shown = !bar.is_hidden();
    let tick = || {
        if shown {
            bar.inc(1);
        }
    };
    let play = |s: &Side| run_batch(&s.program, &batch, threads, &tick);
    let Played { records, counts } = match play(&a) {
        Ok(r) => r,
        Err(e) => return Ok(fail(&format!("cannot start the worker threads: {e}"))),
    };
    let against = match &b {
        None => None,
        Some(b) => match play(b) {
            Ok(r) => Some((b.meta.clone(), r)),
            Err(e) => return Ok(fail(&format!("cannot start the worker threads: {e}"))),
        },
    };
    bar.finish_and_clear();

    let report = Report::new(a.meta, &records, &counts);
    match against {
        Some((meta_b, played_b)) => {
            let report_b = Report::new(meta_b, &played_b.records, &played_b.counts);
            let b = (report_b, played_b.records);
            report_comparison(args, (report, records), b, &inputs)
        }
        None => report_one(args, report, records, &inputs),
    }
}

/// Prints the report of one batch, and writes its page if asked: the report is printed even
/// when the page could not be written (the games are played), and the status says so.
fn report_one(
    args: &SimArgs,
    mut report: Report,
    records: Vec<GameRecord>,
    inputs: &[PathBuf],
) -> Result<ExitCode, CliError> {
    let mut page = Ok(());
    if let Some(path) = &args.more.html {
        let side = html::Side {
            label: "",
            report: &report,
            records: &records,
        };
        page = write_page(path, &[side], &render(&report), inputs);
    }
    if args.shard.is_some() && args.json {
        report.records = Some(records.clone());
    }
    let printed = print(&report, &records, args.json, args.csv)?;
    Ok(page.err().unwrap_or(printed))
}

/// Prints the comparison of batches `a` and `b` (each report with its records), and writes its
/// page if asked, as [`report_one`] does.
fn report_comparison(
    args: &SimArgs,
    (report, records): (Report, Vec<GameRecord>),
    (report_b, records_b): (Report, Vec<GameRecord>),
    inputs: &[PathBuf],
) -> Result<ExitCode, CliError> {
    let mut page = Ok(());
    let mut compared = CompareReport::new(report, &records, report_b, &records_b);
    if let Some(path) = &args.more.html {
        let sides = [
            html::Side {
                label: "A",
                report: &compared.a,
                records: &records,
            },
            html::Side {
                label: "B",
                report: &compared.b,
                records: &records_b,
            },
        ];
        page = write_page(path, &sides, &render_comparison(&compared), inputs);
    }
    if args.shard.is_some() && args.json {
        compared.a.records = Some(records);
        compared.b.records = Some(records_b);
    }
    // The report is printed even when the page could not be written: the games are played.
    let printed = print_comparison(&compared, args.json)?;
    Ok(page.err().unwrap_or(printed))
}

/// Loads and checks a rules file with its variants, reporting what is wrong (then the exit code).
fn load(file: &Path, variants: &[PathBuf]) -> Result<Arc<Program>, ExitCode> {
    match load_reporting(file, variants) {
        Some(program) => Ok(Arc::new(program)),
        None => Err(fail(&format!(
            "{}: the rules have errors; fix them and try again",
            file.display()
        ))),
    }
}

/// The program of `file` (with its `variants`) for `batch`, with its report's [`Meta`]; a usage
/// error when the game is not for that many players.
fn side(
    program: Arc<Program>,
    file: &Path,
    variants: &[PathBuf],
    batch: &Batch,
) -> Result<Side, CliError> {
    let players = batch.players;
    let (min, max) = (program.min_players, program.max_players);
    if !(min..=max).contains(&players) {
        let message = format!(
            "{} ({}) is for {} players, not {players}",
            program.title,
            file.display(),
            program.player_counts()
        );
        return Err(usage_error("sim", ErrorKind::ValueValidation, message));
    }
    let meta = Meta {
        game: program.title.clone(),
        variants: program.variants.clone(),
        file: file.display().to_string(),
        variant_files: variants.iter().map(|v| v.display().to_string()).collect(),
        players,
        seats: (0..players).map(|p| program.seat_name(p)).collect(),
        bots: batch.bots.iter().map(|b| b.name().to_string()).collect(),
        seed: batch.seed,
        games: batch.games,
        shard: batch.shard,
        action_names: program.actions.iter().map(|a| a.name.clone()).collect(),
        max_decisions: batch.max_decisions,
        decision_sites: crate::sim::choices::decision_sites(&program),
        rule_blocks: crate::sim::coverage::rule_blocks(&program),
        clamp_sites: crate::sim::clamps::clamp_sites(&program),
        goal: program.goal.as_ref().map(|g| {
            if g.shared {
                GoalKind::Shared
            } else {
                GoalKind::Seat
            }
        }),
    };
    Ok(Side { program, meta })
}

/// Writes the HTML page of `sides` to `path` (never over one of `inputs`, nor over a file that
/// is not such a page); the exit status if that fails.
fn write_page(
    path: &Path,
    sides: &[html::Side],
    text: &str,
    inputs: &[PathBuf],
) -> Result<(), ExitCode> {
    let page =
        html::page(sides, text).map_err(|e| fail(&format!("cannot draw the charts: {e}")))?;
    write_output(path, &page, Output::SimPage, inputs)
        .map_err(|e| fail(&format!("cannot write `{}`: {e}", path.display())))
}

/// Prints a comparison as text or JSON; exit status 1 if a rule failed in any game of either.
fn print_comparison(compared: &CompareReport, json: bool) -> Result<ExitCode, CliError> {
    let text = if json {
        escape_json(&compared.to_json()).into_owned()
    } else {
        super::fitted(&escape(&render_comparison(compared)))
    };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    let failed = compared.a.failed + compared.b.failed;
    if failed > 0 {
        if json {
            eprint_text(&format!(
                "meeple: a rule failed in {} of {} games of A and {} of {} games of B\n",
                compared.a.failed, compared.a.played, compared.b.failed, compared.b.played
            ));
        }
        return Ok(ExitCode::from(FAILED));
    }
    Ok(ExitCode::SUCCESS)
}

/// `meeple sim merge`: read every shard file, merge, print. The shards are all of one batch,
/// or all of one comparison (`--against`).
fn run_merge(args: &MergeArgs) -> Result<ExitCode, CliError> {
    let mut shards = Vec::new();
    let mut compared = Vec::new();
    for path in &args.files {
        let name = path.display().to_string();
        let text = match crate::files::read_text(path, MAX_SHARD) {
            Ok(t) => t,
            Err(e) => return Ok(fail(&format!("cannot read `{name}`: {e}"))),
        };
        match parse_shard_doc(&name, &text) {
            Ok(ShardDoc::Report(r)) => shards.push((name, *r)),
            Ok(ShardDoc::Compare(c)) => compared.push((name, *c)),
            Err(e) => return Ok(fail(&e.to_string())),
        }
    }
    if !compared.is_empty() {
        if !shards.is_empty() {
            return Ok(fail(
                "cannot merge: some files are shards of a comparison (--against) and some are not",
            ));
        }
        if args.csv {
            return Err(usage_error(
                "sim",
                ErrorKind::ArgumentConflict,
                "a comparison (--against) has no CSV form; merge it as text or --json".into(),
            ));
        }
        return match merge_compared(compared) {
            Ok(c) => print_comparison(&c, args.json),
            Err(e) => Ok(fail(&format!("cannot merge: {e}"))),
        };
    }
    match merge(shards) {
        Ok((report, records)) => print(&report, &records, args.json, args.csv),
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
    // What the rules wrote (titles, reasons, first lines of statements) is shown as text.
    let text = if json {
        escape_json(&report.to_json()).into_owned()
    } else if as_csv {
        escape(&csv(&report.meta, records)).into_owned()
    } else {
        super::fitted(&escape(&render(report)))
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
