//! Throughput of the engine in CPU time: random-bot games on the fast path
//! (`meeple::sim::random_playout`) of every rules file in `rules/` (variants included), for
//! every player count the game allows.
//!
//! Each row is first warmed up and sized: a repetition is a fixed number of games (seeds
//! 1..=games, the same every repetition) taking about [`REPETITION`] of CPU time of this
//! thread. Then the rows take turns: repetition 1 of every row, then repetition 2 of every row,
//! and so on, so that a burst of load on the machine falls on one repetition of several rows
//! rather than on every repetition of one row. Each row prints decisions per CPU-second
//! (min / median / max over its [`REPETITIONS`] repetitions and their range as a percentage
//! of the median), games per CPU-second (median), decisions per game and failed games. A
//! failed game's CPU time counts; its decisions do not.
//!
//! `cargo bench --bench playouts` runs it; `cargo bench --bench playouts -- race` keeps only
//! the files whose path contains `race`.
//!
//! `--count GAMES` times nothing: each row plays seeds 1..=GAMES once, inside [`playouts`]
//! alone, and prints its decisions, for an instruction counter to count what that function
//! does (`scripts/count-instructions.sh` runs it under callgrind: counts that a shared,
//! noisy machine does not change). `--players N` keeps the rows of N players.

#[path = "support/mod.rs"]
mod support;

use meeple::ir::Program;
use meeple::load::load;
use meeple::sim::random_playout;
use std::sync::Arc;
use std::time::Duration;
use support::{calls_per, cpu_time, filters, matches, rules_files, Progress, Spread};

/// Repetitions of each row.
const REPETITIONS: usize = 5;
/// CPU time one repetition aims at.
const REPETITION: Duration = Duration::from_millis(200);
/// CPU time spent playing before the games per repetition are sized.
const WARM_UP: Duration = Duration::from_millis(100);

/// What one repetition of a row gave.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Tally {
    decisions: u64,
    failed: u64,
}

/// Plays the games with these seeds. Never inlined: `--count` counts this function's
/// instructions by its name.
#[inline(never)]
fn playouts(program: &Arc<Program>, players: u8, seeds: std::ops::RangeInclusive<u64>) -> Tally {
    let mut t = Tally {
        decisions: 0,
        failed: 0,
    };
    for seed in seeds {
        match random_playout(program.clone(), players, seed) {
            Ok(game) => t.decisions += game.decisions() as u64,
            Err(_) => t.failed += 1,
        }
    }
    t
}

struct Row {
    name: String,
    program: Arc<Program>,
    players: u8,
    games: u64,
    tallies: Vec<Tally>,
    cpu: Vec<Duration>,
}

/// The value of `--name VALUE` on the command line, if given.
fn option(name: &str) -> Option<u64> {
    let args: Vec<String> = std::env::args().collect();
    let at = args.iter().position(|a| a == name)?;
    match args.get(at + 1).map(|v| v.parse()) {
        Some(Ok(v)) => Some(v),
        _ => {
            eprintln!("{name} takes a whole number");
            std::process::exit(2);
        }
    }
}

fn main() {
    let count = option("--count");
    let only_players = option("--players");
    // The options' values are not filters.
    let filters: Vec<String> = filters()
        .into_iter()
        .filter(|f| f.parse::<u64>().is_err())
        .collect();
    let progress = Progress::new();
    let mut rows = Vec::new();
    let mut skipped = Vec::new();
    for (name, path) in rules_files() {
        if !matches(&filters, &name) {
            continue;
        }
        let loaded = load(&path, &[]);
        let Some(program) = loaded.program else {
            skipped.push(format!(
                "{name}: does not check ({} errors); skipped",
                loaded.diagnostics.error_count()
            ));
            continue;
        };
        let program = Arc::new(program);
        for players in program.min_players..=program.max_players {
            if only_players.is_some_and(|p| p != u64::from(players)) {
                continue;
            }
            if let Some(games) = count {
                let t = playouts(&program, players, 1..=games);
                println!(
                    "{name} {players} players: {games} games, {} decisions, {} failed",
                    t.decisions, t.failed
                );
                continue;
            }
            progress.show(format_args!("{name}, {players} players: sizing ..."));
            let games = calls_per(REPETITION, WARM_UP, |seed| {
                playouts(&program, players, seed..=seed)
            });
            rows.push(Row {
                name: name.clone(),
                program: program.clone(),
                players,
                games,
                tallies: Vec::new(),
                cpu: Vec::new(),
            });
        }
    }
    if count.is_some() {
        for s in &skipped {
            println!("{s}");
        }
        return;
    }
    for r in 0..REPETITIONS {
        for row in &mut rows {
            progress.show(format_args!(
                "repetition {} of {REPETITIONS}: {}, {} players ...",
                r + 1,
                row.name,
                row.players
            ));
            let (tally, cpu) = cpu_time(|| playouts(&row.program, row.players, 1..=row.games));
            row.tallies.push(tally);
            row.cpu.push(cpu);
        }
    }
    progress.done();
    for s in &skipped {
        println!("{s}");
    }
    if rows.is_empty() {
        println!("no rules files matched");
        return;
    }
    println!("{}", support::machine());
    println!(
        "random playouts, per CPU-second of this thread: {REPETITIONS} repetitions a row, \
         each the same games (seeds 1..=games) sized to about {} ms",
        REPETITION.as_millis()
    );
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0).max(5);
    println!(
        "{:width$}  {:>7}  {:>5}  {:>26}  {:>6}  {:>9}  {:>8}  {:>6}",
        "rules",
        "players",
        "games",
        "decisions/s min/med/max",
        "range",
        "games/s",
        "dec/game",
        "failed"
    );
    let k = |x: f64| format!("{:.0}k", x / 1e3);
    let mut unsteady = Vec::new();
    for row in &rows {
        let t = row.tallies[0];
        if row.tallies.iter().any(|x| *x != t) {
            unsteady.push(format!("{}, {} players", row.name, row.players));
        }
        let per_second = |count: &dyn Fn(&Tally) -> u64| {
            let rates: Vec<f64> = row
                .tallies
                .iter()
                .zip(&row.cpu)
                .map(|(t, cpu)| count(t) as f64 / cpu.as_secs_f64())
                .collect();
            Spread::of(&rates)
        };
        let decisions = per_second(&|t| t.decisions);
        let games = per_second(&|_| row.games);
        let played = row.games - t.failed;
        println!(
            "{:width$}  {:>7}  {:>5}  {:>26}  {:>5.1}%  {:>9.1}  {:>8}  {:>6}",
            row.name,
            row.players,
            row.games,
            format!(
                "{} / {} / {}",
                k(decisions.min),
                k(decisions.median),
                k(decisions.max)
            ),
            decisions.range_percent(),
            games.median,
            if played == 0 {
                "-".to_string()
            } else {
                format!("{:.1}", t.decisions as f64 / played as f64)
            },
            t.failed,
        );
    }
    for u in &unsteady {
        println!("warning: {u}: the same seeds gave different games in different repetitions");
    }
}
