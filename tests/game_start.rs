//! A game's start prepared once (`engine::Start`, `GameSettings::prepare`) gives, for every
//! seed, the game `GameSettings::start` gives: the same position at the first decision, the
//! same chance drawn, the same game played on, whatever game the reused one held before (a
//! finished game, one that failed, one of another player count's start).

mod common;

use meeple::bots::RandomBot;
use meeple::engine::{Game, GameSettings, Limits, Mode, Viewer};
use meeple::ir::Program;
use std::sync::Arc;

/// Rules with chance in their setup (dice, a shuffled deck), with secret and public choices.
const RULES: [(&str, u8); 4] = [
    ("tests/fixtures/honesty/liars_dice.rules", 2),
    ("rules/cheaters_game.rules", 4),
    ("rules/small_print.rules", 2),
    ("rules/share_and_share_alike.rules", 4),
];

/// Everything of a game a player or the report could tell apart, at its first decision and
/// after `moves` random moves of `seed`'s bots.
fn trace(game: &mut Game, seed: u64, moves: usize) -> Vec<String> {
    let players = game.players();
    let mut bots: Vec<RandomBot> = (0..players).map(|p| RandomBot::new(seed, p)).collect();
    let mut seen = vec![format!(
        "seed {} · decides {:?} · {} options · chance {} · blocks {:?}",
        game.seed(),
        game.to_decide(),
        game.to_decide().map_or(0, |s| game.option_count(s)),
        game.chance_drawn(),
        game.blocks_run(),
    )];
    seen.push(game.view(Viewer::Spectator));
    let result = game.play_out(moves, |seat, count| bots[seat as usize].pick(count));
    seen.push(format!(
        "{result:?} · {} decisions · over {} · chance {} · {:?} · blocks {:?}",
        game.decisions(),
        game.is_over(),
        game.chance_drawn(),
        game.outcome(),
        game.blocks_run(),
    ));
    seen.push(game.view(Viewer::Spectator));
    seen.extend(game.log(Viewer::Spectator));
    seen
}

fn settings(players: u8, seed: u64, mode: Mode) -> GameSettings {
    GameSettings {
        players,
        seed,
        mode,
        ..GameSettings::default()
    }
}

fn program(path: &str) -> Arc<Program> {
    common::program(path)
}

#[test]
fn a_prepared_start_plays_every_seed_as_a_game_started_afresh() {
    for (path, players) in RULES {
        let program = program(path);
        for mode in [Mode::playout().with_coverage(), Mode::full()] {
            let start = settings(players, 0, mode)
                .prepare(program.clone())
                .expect("prepares");
            let mut reused: Option<Game> = None;
            for seed in 1..=12 {
                // Some games stop early, so that the next starts over one in the middle of play.
                let moves = if seed % 3 == 0 { 5 } else { usize::MAX };
                let mut fresh = settings(players, seed, mode)
                    .start(program.clone())
                    .expect("starts");
                let game = match reused.as_mut() {
                    Some(g) => {
                        start.restart(g, seed, mode.invariants).expect("restarts");
                        g
                    }
                    None => reused.insert(start.game(seed, mode.invariants).expect("starts")),
                };
                assert_eq!(
                    trace(game, seed, moves),
                    trace(&mut fresh, seed, moves),
                    "{path} seed {seed} {mode:?}"
                );
                assert!(game.state() == fresh.state(), "{path} seed {seed}");
            }
        }
    }
}

#[test]
fn seeds_differ_after_a_restart() {
    // The test above could pass if neither start read its seed; this one could not.
    let program = program("rules/cheaters_game.rules");
    let start = settings(4, 0, Mode::playout())
        .prepare(program)
        .expect("prepares");
    let mut game = start.game(1, false).expect("starts");
    let first = trace(&mut game, 1, usize::MAX);
    start.restart(&mut game, 2, false).expect("restarts");
    let second = trace(&mut game, 2, usize::MAX);
    assert_ne!(first, second, "seed 2 plays another game");
    start.restart(&mut game, 1, false).expect("restarts");
    assert_eq!(trace(&mut game, 1, usize::MAX), first);
}

#[test]
fn a_game_restarted_after_a_failure_or_from_another_start_plays_as_a_fresh_one() {
    let overdraw = program("tests/fixtures/run/overdraw.rules");
    let limits = Limits {
        decisions: 10_000,
        ..Limits::default()
    };
    let mode = Mode::playout().with_coverage();
    let settings = |players| GameSettings {
        limits,
        mode,
        ..GameSettings::new(players, 1)
    };
    let failing = settings(3).prepare(overdraw.clone()).expect("prepares");
    let mut game = failing.game(1, false).expect("starts");
    let mut failed = false;
    for seed in 1..=20 {
        failing.restart(&mut game, seed, false).expect("restarts");
        failed |= trace(&mut game, seed, usize::MAX)[2].starts_with("Err");
    }
    assert!(failed, "some game of the overdraw fixture fails");
    let cheaters = program("rules/cheaters_game.rules");
    for players in [3, 4] {
        let start = settings(players)
            .prepare(cheaters.clone())
            .expect("prepares");
        start.restart(&mut game, 7, true).expect("restarts");
        let mut fresh = GameSettings {
            players,
            seed: 7,
            limits,
            mode: Mode {
                invariants: true,
                ..mode
            },
            always_ask: false,
        }
        .start(cheaters.clone())
        .expect("starts");
        assert_eq!(
            trace(&mut game, 7, usize::MAX),
            trace(&mut fresh, 7, usize::MAX)
        );
    }
}

#[test]
fn a_start_fails_as_every_game_would() {
    let program = program("rules/cheaters_game.rules");
    let prepared = settings(9, 0, Mode::playout()).prepare(program.clone());
    let started = settings(9, 5, Mode::playout()).start(program);
    let (Err(a), Err(b)) = (prepared, started) else {
        panic!("nine players are refused")
    };
    assert_eq!((a.code, a.message), (b.code, b.message));
}
