//! What the engine remembers changes nothing but speed. Remembered `def` calls: every rules file
//! plays the same games, with the same log, when no call is remembered; a search bot (which
//! copies and redeals positions) makes the same moves; and a rule that runs out of its work
//! budget fails at the same place. The values before setup, kept per thread: a game started from
//! them is the game a fresh thread computes.

mod common;

use common::{all_rules, load_rel, rel};
use meeple::bots::{BotKind, MctsConfig, Policy};
use meeple::engine::{Game, Viewer};
use meeple::ir::Program;
use meeple::load::check_source;
use meeple::sim::random_game;
use std::sync::Arc;

const SEEDS: u64 = 6;

/// The same program with no call remembered.
fn forgetful(program: &Program) -> Arc<Program> {
    let mut p = program.clone();
    for def in &mut p.defs {
        def.remembered = false;
    }
    Arc::new(p)
}

#[test]
fn every_rules_file_plays_the_same_games_without_remembering() {
    let mut remembered_defs = 0;
    let mut compared = 0;
    for path in all_rules() {
        let name = rel(&path);
        let program = load_rel(&name, &[])
            .program
            .expect("every rules file checks");
        remembered_defs += program.defs.iter().filter(|d| d.remembered).count();
        let plain = forgetful(&program);
        let program = Arc::new(program);
        for players in program.min_players..=program.max_players {
            for seed in 1..=SEEDS {
                let at = format!("{name}, {players} players, seed {seed}");
                let fast = random_game(program.clone(), players, seed).expect("plays");
                let slow = random_game(plain.clone(), players, seed).expect("plays");
                assert_eq!(fast.history().len(), slow.history().len(), "{at}");
                assert_eq!(fast.outcome(), slow.outcome(), "{at}");
                assert_eq!(fast.state(), slow.state(), "{at}");
                assert_eq!(
                    fast.log(Viewer::Spectator),
                    slow.log(Viewer::Spectator),
                    "{at}"
                );
                compared += 1;
            }
        }
    }
    assert!(
        remembered_defs > 10,
        "only {remembered_defs} defs remembered"
    );
    assert!(compared > 50, "only {compared} games compared");
}

/// Plays a game with search bots in every seat; the moves taken.
fn search_game(program: Arc<Program>, players: u8, seed: u64) -> Vec<usize> {
    let mut game = Game::playout(program, players, seed).expect("starts");
    let mut bots: Vec<Box<dyn Policy + Send>> = (0..players)
        .map(|p| {
            let config = MctsConfig {
                iterations: 30,
                depth: Some(12),
                worlds: meeple::bots::DEFAULT_WORLDS,
                random_playouts: false,
            };
            BotKind::Mcts(config).policy(seed, p)
        })
        .collect();
    let mut moves = Vec::new();
    while let Some(seat) = game.to_decide() {
        let index = bots[seat as usize].decide(&game, seat);
        moves.push(index);
        game.play(seat, index).expect("legal");
    }
    moves
}

#[test]
fn a_search_bot_moves_the_same_without_remembering() {
    for (name, players) in [("rules/endgame.rules", 2), ("rules/small_print.rules", 2)] {
        let program = load_rel(name, &[]).program.expect("checks");
        let plain = forgetful(&program);
        assert_eq!(
            search_game(Arc::new(program), players, 5),
            search_game(plain, players, 5),
            "{name}"
        );
    }
}

const COSTLY: &str = r#"
game "Costly" { players 2 }
player var hand: list of int = []
def weight(p: player): int = sum(x * x for x in p.hand)
def heavy(): int = sum(weight(p) for p in players) + sum(weight(p) for p in players)
flow {
  for p in players { p.hand = 1..300 }
  repeat 40 { let w = heavy() + heavy() + heavy() }
}
"#;

use common::start_with_budget as start;

#[test]
fn a_remembered_call_spends_the_work_it_would_have_spent() {
    let program = check_source("costly.rules", COSTLY)
        .program
        .expect("checks");
    assert!(program.defs.iter().all(|d| d.remembered));
    let plain = forgetful(&program);
    let program = Arc::new(program);
    // Budgets on both sides of what the game needs fail alike, at the same place.
    let mut failed = 0;
    for budget in [
        1_000, 20_000, 100_000, 150_000, 160_000, 200_000, 10_000_000,
    ] {
        let fast = start(&program, budget);
        assert_eq!(fast, start(&plain, budget), "budget {budget}");
        failed += usize::from(fast.is_err());
    }
    assert!(
        (1..7).contains(&failed),
        "the budgets should straddle the need"
    );
}

/// `deep(n)` nests `n` calls below itself (and visits a list, so it is remembered);
/// `nested(k, n)` calls it from `k` calls deep. The first `deep(150)` is remembered as 150
/// deep; looked up again from 60 calls deep, where running it would pass the limit of 200,
/// the hit must not be taken: the call runs and fails where it would have without it.
const DEEP: &str = r#"
game "Deep" { players 2 }
var xs: list of int = [1, 2, 3]
def deep(n: int): int = if n == 0 then count(x in xs where x > 1) else deep(n - 1)
def nested(k: int, n: int): int = if k == 0 then deep(n) else nested(k - 1, n)
flow {
  let a = deep(150)
  let b = nested(60, 150)
}
"#;

#[test]
fn a_remembered_call_too_deep_from_where_it_is_asked_again_runs_and_fails_there() {
    let program = check_source("deep.rules", DEEP).program.expect("checks");
    assert!(program.defs.iter().all(|d| d.remembered));
    let plain = forgetful(&program);
    let start = |p: Arc<Program>| {
        Game::new(p, 2, 1)
            .map(|_| ())
            .map_err(|e| (e.code.to_string(), e.span.start))
    };
    let fast = start(Arc::new(program));
    assert_eq!(fast, start(plain));
    assert_eq!(fast.map_err(|e| e.0), Err("call-depth".to_string()));
}

/// A whole game by random bots, on a thread of its own (which has kept nothing yet) or here.
fn game_on(program: &Arc<Program>, players: u8, seed: u64, fresh_thread: bool) -> Game {
    if fresh_thread {
        let program = program.clone();
        std::thread::spawn(move || random_game(program, players, seed).expect("plays"))
            .join()
            .expect("no panic")
    } else {
        random_game(program.clone(), players, seed).expect("plays")
    }
}

#[test]
fn a_game_started_from_kept_values_is_the_game_a_fresh_thread_plays() {
    for path in all_rules() {
        let name = rel(&path);
        let program = Arc::new(load_rel(&name, &[]).program.expect("checks"));
        for players in program.min_players..=program.max_players {
            // The first game here keeps the values before setup; the second starts from them.
            game_on(&program, players, 1, false);
            let kept = game_on(&program, players, 2, false);
            let fresh = game_on(&program, players, 2, true);
            let at = format!("{name}, {players} players");
            assert_eq!(kept.state(), fresh.state(), "{at}");
            assert_eq!(kept.outcome(), fresh.outcome(), "{at}");
            assert_eq!(
                kept.log(Viewer::Spectator),
                fresh.log(Viewer::Spectator),
                "{at}"
            );
            assert_eq!(
                kept.view(Viewer::Spectator),
                fresh.view(Viewer::Spectator),
                "{at}"
            );
        }
    }
}
