//! An action's move plan (`ir::plan`: requirements checked once per turn, the first parameter
//! narrowed to the list of a `p in xs`) changes nothing but speed: with every plan emptied, every
//! rules file offers the same moves, in the same order, at every decision of the same games.

mod common;

use common::{all_rules, load_rel, rel};
use meeple::bots::RandomBot;
use meeple::engine::Game;
use meeple::ir::{MovePlan, Program};
use meeple::load::check_source;
use std::sync::Arc;

const SEEDS: u64 = 4;

/// The same program with every action's moves found by trying every combination.
fn unplanned(program: &Program) -> Arc<Program> {
    let mut p = program.clone();
    for action in &mut p.actions {
        action.plan = MovePlan::default();
    }
    Arc::new(p)
}

fn labels(game: &Game, seat: u8) -> Vec<String> {
    game.options(seat).into_iter().map(|o| o.label).collect()
}

/// Plays the same random game with both programs in step; how many decisions were compared.
fn same_moves(
    planned: Arc<Program>,
    plain: Arc<Program>,
    players: u8,
    seed: u64,
    at: &str,
) -> usize {
    let mut a = Game::new(planned, players, seed).expect("starts");
    let mut b = Game::new(plain, players, seed).expect("starts");
    let mut bots: Vec<RandomBot> = (0..players).map(|p| RandomBot::new(seed, p)).collect();
    let mut decisions = 0;
    while let Some(seat) = a.to_decide() {
        assert_eq!(b.to_decide(), Some(seat), "{at}, decision {decisions}");
        assert_eq!(
            labels(&a, seat),
            labels(&b, seat),
            "{at}, decision {decisions}"
        );
        let index = bots[seat as usize].pick(a.option_count(seat));
        a.play(seat, index).expect("legal");
        b.play(seat, index).expect("legal");
        decisions += 1;
    }
    assert_eq!(a.outcome(), b.outcome(), "{at}");
    decisions
}

#[test]
fn every_rules_file_offers_the_same_moves_without_its_move_plans() {
    let mut narrowed = 0;
    let mut decisions = 0;
    for path in all_rules() {
        let name = rel(&path);
        let program = load_rel(&name, &[])
            .program
            .expect("every rules file checks");
        narrowed += program.actions.iter().filter(|a| a.plan.narrow).count();
        let plain = unplanned(&program);
        let program = Arc::new(program);
        for players in program.min_players..=program.max_players {
            for seed in 1..=SEEDS {
                let at = format!("{name}, {players} players, seed {seed}");
                decisions += same_moves(program.clone(), plain.clone(), players, seed, &at);
            }
        }
    }
    assert!(narrowed >= 3, "only {narrowed} actions narrowed");
    assert!(decisions > 5_000, "only {decisions} decisions compared");
}

/// Two parameters, the first narrowed to the hand: the second still takes every value, and the
/// requirements after the membership still refuse.
const GIVE: &str = r#"
game "Give" { players 3 }
kind card[5] { }
player var hand: list of card = []
var deck: list of card = []
var rounds: int = 4
setup {
  deck = [c in card]
  for p in players {
    p.hand = take(deck, 1)
    deck = drop(deck, 1)
  }
}
flow {
  while rounds > 0 {
    for p in players { turn p }
    rounds -= 1
  }
}
action give(c: card, to: player) {
  require rounds > 0 else "over"
  require c in me.hand else "not held"
  require to != me else "not to yourself"
  me.hand -= c
  to.hand += c
}
action pass { }
"#;

#[test]
fn a_first_parameter_narrowed_keeps_every_value_of_the_others() {
    let program = check_source("give.rules", GIVE).program.expect("checks");
    let give = program
        .actions
        .iter()
        .find(|a| a.name == "give")
        .expect("give");
    assert_eq!(
        give.plan,
        MovePlan {
            shared: 1,
            narrow: true
        }
    );
    let plain = unplanned(&program);
    let program = Arc::new(program);
    for seed in 1..=20 {
        same_moves(
            program.clone(),
            plain.clone(),
            3,
            seed,
            &format!("seed {seed}"),
        );
    }
    let game = Game::new(program, 3, 1).expect("starts");
    let seat = game.to_decide().expect("a turn");
    // One card in hand, two others to give it to, and `pass`.
    assert_eq!(labels(&game, seat).len(), 3, "{:?}", labels(&game, seat));
}
