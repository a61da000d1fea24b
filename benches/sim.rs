//! `meeple sim` throughput at 1 and 2 threads: games per second of wall time for a batch of
//! random-bot games of Cheater's Game (4 players), repetitions alternating 1 and 2 threads.
//! Scaling needs wall time (CPU time adds the threads up); the machine is shared, so read the
//! spread and the pair-by-pair speed-ups, not one figure. The goal is ≥ 0.9 × cores.
//!
//! `cargo bench --bench sim`.

#[path = "support/mod.rs"]
mod support;

use meeple::bots::BotKind;
use meeple::load::load;
use meeple::sim::report::default_max_decisions;
use meeple::sim::run::{run_batch, Batch};
use std::sync::Arc;
use std::time::Instant;
use support::{root, Spread};

const REPETITIONS: usize = 5;
const GAMES: u64 = 20_000;

fn main() {
    let path = root().join("rules/cheaters_game.rules");
    let program = Arc::new(load(&path, &[]).program.expect("checks"));
    let batch = Batch {
        players: 4,
        games: GAMES,
        seed: 1,
        bots: vec![BotKind::Random; 4],
        shard: None,
        max_decisions: default_max_decisions(),
    };
    let time = |threads: usize| {
        let start = Instant::now();
        let played = run_batch(&program, &batch, Some(threads), &|| {}).expect("a thread pool");
        assert_eq!(played.records.len() as u64, GAMES);
        GAMES as f64 / start.elapsed().as_secs_f64()
    };
    time(2);
    let (mut one, mut two, mut speedups) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..REPETITIONS {
        let a = time(1);
        let b = time(2);
        one.push(a);
        two.push(b);
        speedups.push(b / a);
    }
    let (one, two, up) = (Spread::of(&one), Spread::of(&two), Spread::of(&speedups));
    println!("meeple sim, Cheater's Game, 4 players, {GAMES} random-bot games a batch, {REPETITIONS} repetitions; games per wall-second min / median / max");
    println!("threads  games/s");
    println!(
        "      1  {:.0} / {:.0} / {:.0}",
        one.min, one.median, one.max
    );
    println!(
        "      2  {:.0} / {:.0} / {:.0}",
        two.min, two.median, two.max
    );
    println!(
        "speed-up with 2 threads: {:.2}× median ({:.2}×..{:.2}× pair by pair; goal ≥ 1.8×)",
        up.median, up.min, up.max
    );
}
