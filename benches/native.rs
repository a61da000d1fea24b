//! The interpreter against a hand-written Rust Cheater's Game (`benches/native/cheaters_game.rs`),
//! in decisions per CPU-second of this thread, for 3, 4 and 5 players.
//!
//! Both sides play random games of `rules/cheaters_game.rules` (`tests/native_reference.rs`
//! checks that they play the same game). They are measured side by side in one run:
//! repetitions alternate native, meeple, native, meeple, …, each repetition a fixed number of
//! games (seeds 1..=games, the same every repetition) sized for about [`REPETITION`] of CPU
//! time. For each player count it prints min / median / max decisions per CPU-second of both
//! sides, and how many times faster the native game is: the ratio of the medians, and the
//! least and greatest ratio of a native repetition to the meeple repetition that followed it.
//!
//! `cargo bench --bench native` runs it; `cargo bench --bench native -- 4` keeps only the rows
//! whose name (`cheaters_game/3` …) contains `4`.

#[path = "native/cheaters_game.rs"]
mod cheaters_game;
#[path = "support/mod.rs"]
mod support;

use meeple::ir::Program;
use meeple::load::load;
use meeple::sim::random_playout;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;
use support::{calls_per, cpu_time, filters, matches, root, Progress, Spread};

/// Repetitions of each side.
const REPETITIONS: usize = 9;
/// CPU time one repetition aims at.
const REPETITION: Duration = Duration::from_millis(300);
/// CPU time spent playing before the games per repetition are sized.
const WARM_UP: Duration = Duration::from_millis(100);

/// The interpreter's side: random games with these seeds; the decisions they took.
fn meeple_playouts(
    program: &Arc<Program>,
    players: u8,
    seeds: std::ops::RangeInclusive<u64>,
) -> u64 {
    let mut decisions = 0;
    for seed in seeds {
        let game =
            random_playout(program.clone(), players, seed).expect("the game plays to its end");
        decisions += game.decisions() as u64;
    }
    decisions
}

/// The native side: the same, by the hand-written game.
fn native_playouts(players: u8, seeds: std::ops::RangeInclusive<u64>) -> u64 {
    let mut decisions = 0;
    for seed in seeds {
        decisions += black_box(cheaters_game::play(players, black_box(seed))).decisions as u64;
    }
    decisions
}

/// Decisions per CPU-second of one call of `f`.
fn rate(f: impl FnOnce() -> u64) -> f64 {
    let (decisions, cpu) = cpu_time(f);
    decisions as f64 / cpu.as_secs_f64()
}

/// How many games of `one(seed)` take about [`REPETITION`] of CPU time, after a warm-up.
fn games_per_repetition(one: impl FnMut(u64) -> u64) -> u64 {
    calls_per(REPETITION, WARM_UP, one)
}

fn main() {
    let filters = filters();
    let path = root().join("rules/cheaters_game.rules");
    let loaded = load(&path, &[]);
    let program = Arc::new(
        loaded
            .program
            .expect("rules/cheaters_game.rules does not check"),
    );
    let progress = Progress::new();
    let mut rows = Vec::new();
    for players in program.min_players..=program.max_players {
        let name = format!("cheaters_game/{players}");
        if !matches(&filters, &name) {
            continue;
        }
        progress.show(format_args!("{name}: sizing ..."));
        let native_games = games_per_repetition(|s| native_playouts(players, s..=s));
        let meeple_games = games_per_repetition(|s| meeple_playouts(&program, players, s..=s));
        let mut native = Vec::new();
        let mut meeple = Vec::new();
        for r in 0..REPETITIONS {
            progress.show(format_args!(
                "{name}: repetition {} of {REPETITIONS} ...",
                r + 1
            ));
            native.push(rate(|| native_playouts(players, 1..=native_games)));
            meeple.push(rate(|| {
                meeple_playouts(&program, players, 1..=meeple_games)
            }));
        }
        rows.push((name, native_games, meeple_games, native, meeple));
    }
    progress.done();
    if rows.is_empty() {
        println!("no rows matched");
        return;
    }
    println!("{}", support::machine());
    println!(
        "decisions per CPU-second, {REPETITIONS} repetitions a side (games per repetition in brackets)"
    );
    println!(
        "{:16}  {:>36}  {:>30}  {:>7}  {:>15}",
        "rules/players",
        "native: min / median / max",
        "meeple: min / median / max",
        "ratio",
        "pairs"
    );
    let m = |x: f64| format!("{:.2}M", x / 1e6);
    let k = |x: f64| format!("{:.0}k", x / 1e3);
    for (name, native_games, meeple_games, native, meeple) in &rows {
        let pairs: Vec<f64> = native.iter().zip(meeple).map(|(n, m)| n / m).collect();
        let pairs = Spread::of(&pairs);
        let (native, meeple) = (Spread::of(native), Spread::of(meeple));
        println!(
            "{name:16}  {:>36}  {:>30}  {:>6.1}x  {:>15}",
            format!(
                "{} / {} / {} ({native_games})",
                m(native.min),
                m(native.median),
                m(native.max)
            ),
            format!(
                "{} / {} / {} ({meeple_games})",
                k(meeple.min),
                k(meeple.median),
                k(meeple.max)
            ),
            native.median / meeple.median,
            format!("{:.1}x..{:.1}x", pairs.min, pairs.max),
        );
    }
}
