//! The fast path plays the same game as a game for people: for every rules file, player count
//! and seed, a random playout (no log, no labels, no backups, no invariant checks) takes the
//! same decisions to the same final state and outcome as the same random bots in a full game.

mod common;

use common::{all_rules, load_rel, rel};
use meeple::engine::{Game, GameSettings, Limits, Mode, Viewer};
use meeple::sim::{random_game, random_playout};
use std::sync::Arc;

const SEEDS: u64 = 12;

#[test]
fn a_playout_is_the_same_game_as_a_full_game() {
    let mut compared = 0;
    for path in all_rules() {
        let name = rel(&path);
        let program = Arc::new(
            load_rel(&name, &[])
                .program
                .expect("every rules file checks"),
        );
        for players in program.min_players..=program.max_players {
            for seed in 1..=SEEDS {
                let full = random_game(program.clone(), players, seed).expect("plays");
                let fast = random_playout(program.clone(), players, seed).expect("plays");
                let at = format!("{name}, {players} players, seed {seed}");
                assert_eq!(fast.decisions(), full.history().len(), "{at}");
                assert_eq!(fast.outcome(), full.outcome(), "{at}");
                assert_eq!(fast.state(), full.state(), "{at}");
                assert!(fast.history().is_empty(), "a playout keeps no record: {at}");
                assert!(fast.log(Viewer::Spectator).is_empty(), "{at}");
                compared += 1;
            }
        }
    }
    assert!(compared > 100, "only {compared} games compared");
}

#[test]
fn a_copied_position_plays_on_without_touching_the_original() {
    let program = Arc::new(
        load_rel("rules/cheaters_game.rules", &[])
            .program
            .expect("checks"),
    );
    let mut game = Game::playout(program, 3, 7).expect("starts");
    for _ in 0..20 {
        let seat = game.to_decide().expect("not over yet");
        game.play(seat, 0).expect("legal");
    }
    let before = game.state().clone();
    let decisions = game.decisions();
    let mut copy = game.clone();
    while let Some(seat) = copy.to_decide() {
        let last = copy.option_count(seat) - 1;
        copy.play(seat, last).expect("legal");
    }
    assert!(copy.is_over());
    assert_eq!(game.state(), &before, "the original is unchanged");
    assert_eq!(game.decisions(), decisions);
    assert!(!game.is_over());
}

#[test]
fn an_option_out_of_range_is_refused_and_changes_nothing() {
    let program = Arc::new(
        load_rel("rules/cheaters_game.rules", &[])
            .program
            .expect("checks"),
    );
    let mut game = Game::playout(program, 4, 3).expect("starts");
    let seat = game.to_decide().expect("a decision");
    let before = game.state().clone();
    let count = game.option_count(seat);
    assert!(game.play(seat, count).is_err());
    let other = (seat + 1) % 4;
    assert!(
        game.play(other, 0).is_err(),
        "not the other seat's decision"
    );
    assert_eq!(game.state(), &before);
    assert_eq!(game.decisions(), 0);
    assert_eq!(game.to_decide(), Some(seat));
}

/// A picker that cycles through the options by a counter: deterministic, and not always the
/// first option.
fn cycling() -> impl FnMut(u8, usize) -> usize {
    let mut n = 0usize;
    move |seat, count| {
        n += 1;
        (n * 7 + usize::from(seat)) % count
    }
}

#[test]
fn playing_out_takes_the_decisions_play_would_take() {
    let mut compared = 0;
    for path in all_rules() {
        let name = rel(&path);
        let program = Arc::new(load_rel(&name, &[]).program.expect("checks"));
        let players = program.min_players;
        for seed in 1..=3 {
            let at = format!("{name}, seed {seed}");
            let mut one_by_one = Game::playout(program.clone(), players, seed).expect("starts");
            let mut pick = cycling();
            while let Some(seat) = one_by_one.to_decide() {
                let index = pick(seat, one_by_one.option_count(seat));
                one_by_one.play(seat, index).expect("legal");
            }
            // Played out in two runs: the first stops after 5 decisions, the game where it stands.
            let mut played_out = Game::playout(program.clone(), players, seed).expect("starts");
            let mut pick = cycling();
            played_out.play_out(5, &mut pick).expect("plays");
            assert_eq!(played_out.decisions(), 5, "{at}");
            assert!(!played_out.is_over(), "{at}");
            played_out.play_out(usize::MAX, &mut pick).expect("plays");
            assert!(played_out.is_over(), "{at}");
            assert_eq!(played_out.decisions(), one_by_one.decisions(), "{at}");
            assert_eq!(played_out.outcome(), one_by_one.outcome(), "{at}");
            assert_eq!(played_out.state(), one_by_one.state(), "{at}");
            compared += 1;
        }
    }
    assert!(compared >= 30, "only {compared} games compared");
}

#[test]
fn playing_out_refuses_an_option_out_of_range_and_changes_nothing() {
    let program = Arc::new(
        load_rel("rules/cheaters_game.rules", &[])
            .program
            .expect("checks"),
    );
    let mut game = Game::playout(program, 4, 3).expect("starts");
    game.play_out(3, cycling()).expect("plays");
    let before = game.state().clone();
    let seat = game.to_decide().expect("a decision");
    assert!(game.play_out(usize::MAX, |_, count| count).is_err());
    assert_eq!(game.state(), &before);
    assert_eq!(game.decisions(), 3);
    assert_eq!(game.to_decide(), Some(seat));
}

/// A search recognises a move by its key: within one decision no two options may share one
/// (the search would merge two moves), and a copy of the position gives every option the key
/// it had. Checked at every decision of random playouts of every rules file.
#[test]
fn option_keys_tell_the_options_of_a_decision_apart() {
    let mut decisions = 0;
    for path in all_rules() {
        let name = rel(&path);
        let program = Arc::new(load_rel(&name, &[]).program.expect("checks"));
        let players = program.min_players;
        for seed in 1..=3 {
            let mut game = Game::playout(program.clone(), players, seed).expect("starts");
            let mut pick = meeple::bots::RandomBot::new(seed, 0);
            while let Some(seat) = game.to_decide() {
                let count = game.option_count(seat);
                let mut keys: Vec<u64> = (0..count)
                    .map(|i| game.option_key(seat, i).expect("an option has a key"))
                    .collect();
                let copy = game.clone();
                for (i, k) in keys.iter().enumerate() {
                    assert_eq!(copy.option_key(seat, i), Some(*k), "{name}, seed {seed}");
                }
                assert_eq!(game.option_key(seat, count), None, "{name}: past the last");
                keys.sort_unstable();
                keys.dedup();
                assert_eq!(
                    keys.len(),
                    count,
                    "{name}, seed {seed}: two options share a key"
                );
                game.play(seat, pick.pick(count)).expect("legal");
                decisions += 1;
            }
        }
    }
    assert!(decisions > 1000, "only {decisions} decisions checked");
}

/// A game and how it ended: `Debug` of its error, if any.
type Ended = (Game, Result<(), String>);

/// Plays `path` two ways with the same picks, the same limits and the same seed: one decision
/// at a time with `play`, and all at once with `play_out`, which takes most decisions where
/// they arise in the rules. `refuse_at` makes the picker answer out of range at that pick.
/// Returns both games and how each ended (`Debug` of the error, if any).
fn both_ways(path: &str, limits: Limits, refuse_at: Option<usize>) -> (Ended, Ended) {
    let program = Arc::new(load_rel(path, &[]).program.expect("checks"));
    let picker = || {
        let mut cycle = cycling();
        let mut picks = 0;
        move |seat: u8, count: usize| {
            picks += 1;
            if Some(picks) == refuse_at {
                count
            } else {
                cycle(seat, count)
            }
        }
    };
    let start = || {
        GameSettings {
            limits,
            ..GameSettings::playout(program.min_players, 5)
        }
        .start(program.clone())
        .expect("starts")
    };
    let mut one_by_one = start();
    let mut pick = picker();
    let mut ended = Ok(());
    while let Some(seat) = one_by_one.to_decide() {
        let index = pick(seat, one_by_one.option_count(seat));
        if let Err(e) = one_by_one.play(seat, index) {
            ended = Err(format!("{e:?}"));
            break;
        }
    }
    let mut played_out = start();
    let out = played_out
        .play_out(usize::MAX, picker())
        .map_err(|e| format!("{e:?}"));
    ((one_by_one, ended), (played_out, out))
}

/// A playout takes an `ask`, a `choose` and a `turn` where they arise, without pausing: it
/// still fails where a game played decision by decision fails, with the same error in the
/// same decision, at the same limit of decisions, on the same budget of work between two
/// decisions.
#[test]
fn playing_out_fails_where_playing_one_by_one_fails() {
    let tight = |f: fn(&mut Limits)| {
        let mut limits = Limits::default();
        f(&mut limits);
        limits
    };
    let cases = [
        Limits::default(),
        tight(|l| l.decisions = 6),
        tight(|l| l.decisions = 13),
        // Each stretch of rules between two decisions spends under this, two of them more.
        tight(|l| l.steps_per_decision = 120),
        tight(|l| l.decisions = 1),
    ];
    let mut failed = 0;
    for path in [
        "tests/fixtures/run/asks_and_turns.rules",
        "tests/fixtures/run/late_failure.rules",
    ] {
        for limits in &cases {
            let ((one, one_ended), (out, out_ended)) = both_ways(path, *limits, None);
            let at = format!("{path}, {limits:?}");
            assert_eq!(out_ended, one_ended, "{at}");
            assert_eq!(out.decisions(), one.decisions(), "{at}");
            assert_eq!(out.state(), one.state(), "{at}");
            failed += usize::from(out_ended.is_err());
        }
    }
    assert_eq!(failed, 10, "every case fails, each in its own way");
}

/// A pick out of range at a decision taken where it arises leaves that decision pending and
/// the game as it stood, as it does between decisions.
#[test]
fn playing_out_refuses_a_pick_out_of_range_wherever_the_decision_arises() {
    for refuse_at in 1..=12 {
        let path = "tests/fixtures/run/asks_and_turns.rules";
        let ((one, one_ended), (out, out_ended)) =
            both_ways(path, Limits::default(), Some(refuse_at));
        let at = format!("refused at pick {refuse_at}");
        assert!(
            out_ended.as_ref().is_err_and(|e| e.starts_with("Illegal")),
            "{at}: {out_ended:?}"
        );
        assert_eq!(out_ended, one_ended, "{at}");
        assert_eq!(out.decisions(), refuse_at - 1, "{at}");
        assert_eq!(out.state(), one.state(), "{at}");
        let seat = one.to_decide().expect("still to decide");
        assert_eq!(out.to_decide(), Some(seat), "{at}");
        assert_eq!(out.option_count(seat), one.option_count(seat), "{at}");
        assert_eq!(out.option_key(seat, 0), one.option_key(seat, 0), "{at}");
    }
}

/// A statement that only writes to the log (here an `if` around a `log` line) is not run in a
/// playout, which renders no line: its condition is not even evaluated, so a condition that
/// fails (a division by zero) fails only a game that keeps its log, or one that notes the
/// blocks run (`meeple sim`'s coverage), which must run it to note its block.
#[test]
fn a_statement_that_only_logs_is_not_run_in_a_playout() {
    let src = r#"game "Quiet" { players 2 }
var zero: int = 0
var moves: int = 0
action go "Go" {
  moves += 1
  if moves / zero > 0 {
    log "never rendered in a playout"
  }
}
flow {
  repeat 3 {
    for p in players { turn p }
  }
}
"#;
    let program = Arc::new(
        meeple::load::check_source("quiet.rules", src)
            .program
            .expect("checks"),
    );
    let play = |mode: Mode| {
        let mut game = GameSettings {
            mode,
            ..GameSettings::new(2, 1)
        }
        .start(program.clone())
        .map_err(|e| e.to_string())?;
        game.play_out(usize::MAX, |_, _| 0)
            .map_err(|e| e.to_string())?;
        Ok::<Game, String>(game)
    };
    let fast = play(Mode::playout()).expect("a playout runs no log-only statement");
    assert_eq!(fast.decisions(), 6);
    let failure = |mode: Mode| match play(mode) {
        Ok(_) => panic!("the condition is evaluated and fails in {mode:?}"),
        Err(e) => e,
    };
    for mode in [Mode::full(), Mode::playout().with_coverage()] {
        assert!(
            failure(mode).contains("zero"),
            "{mode:?}: {}",
            failure(mode)
        );
    }
}
