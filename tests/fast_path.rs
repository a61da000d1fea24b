//! The fast path plays the same game as a game for people: for every rules file, player count
//! and seed, a random playout (no log, no labels, no backups, no invariant checks) takes the
//! same decisions to the same final state and outcome as the same random bots in a full game.

mod common;

use common::{all_rules, load_rel, rel};
use meeple::engine::{Game, Viewer};
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
