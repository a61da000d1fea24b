//! An action's move plan (`ir::plan`: each requirement checked once the parameters it reads have
//! their values, a parameter narrowed to the list of a `p in xs`) changes nothing but speed: with
//! every plan emptied, every rules file offers the same moves, in the same order, at every
//! decision of the same games.

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
        action.plan = MovePlan::every_combination(action.params.len(), action.requires.len());
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

/// Checks `src`, whose action `name` must have the plan `(checked, narrows)`, plays 20 random
/// games of `players` with and without plans, and gives the first turn's moves.
fn planned_like_plain(
    src: &str,
    name: &str,
    players: u8,
    (checked, narrows): (&[usize], [bool; 2]),
) -> Vec<String> {
    let program = check_source("plans.rules", src).program.expect("checks");
    let action = program
        .actions
        .iter()
        .find(|a| a.name == name)
        .expect("the action");
    assert_eq!(action.plan.checked, checked, "{name}");
    assert_eq!(action.plan.narrows, narrows, "{name}");
    let plain = unplanned(&program);
    let program = Arc::new(program);
    for seed in 1..=20 {
        let at = format!("{name}, seed {seed}");
        same_moves(program.clone(), plain.clone(), players, seed, &at);
    }
    let game = Game::new(program, players, 1).expect("starts");
    labels(&game, game.to_decide().expect("a turn"))
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
        narrowed += program
            .actions
            .iter()
            .filter(|a| a.plan.narrows.first() == Some(&true))
            .count();
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
    let first = planned_like_plain(GIVE, "give", 3, ([1, 2, 3].as_slice(), [true, false]));
    // One card in hand, two others to give it to, and `pass`.
    assert_eq!(first.len(), 3, "{first:?}");
}

#[test]
fn a_parameter_narrowed_past_a_requirement_that_cannot_fail_keeps_the_same_moves() {
    // `c != none` is checked after the membership, for the cards held alone: it refuses none
    // of them, and could refuse no other card with an error.
    let src = GIVE.replace(
        "  require c in me.hand else \"not held\"",
        "  require c != none and not (c == none) else \"no card\"\n  require c in me.hand else \"not held\"",
    );
    assert_ne!(src, GIVE);
    let first = planned_like_plain(&src, "give", 3, ([1, 3, 4].as_slice(), [true, false]));
    assert_eq!(first.len(), 3, "{first:?}");
    // A guard that refuses an element of the list: still checked for each value narrowed.
    let hand_over = r#"
game "Hand over" { players 3 }
var left: int = 3
flow { while left > 0 { for p in players { turn p } left -= 1 } }
action hand_over(to: player, extra: player) {
  require to != me else "not to yourself"
  require to in players else "a player"
  left -= 0
}
action pass { }
"#;
    let first = planned_like_plain(
        hand_over,
        "hand_over",
        3,
        ([0, 2, 2].as_slice(), [true, false]),
    );
    // Two others, each with any of three extras, and `pass`.
    assert_eq!(first.len(), 7, "{first:?}");
    // The same with the guarded parameter last, where every value that passes is kept at once.
    let last = hand_over.replace(
        "hand_over(to: player, extra: player)",
        "hand_over(extra: player, to: player)",
    );
    assert_ne!(last, hand_over);
    let first = planned_like_plain(&last, "hand_over", 3, ([0, 0, 2].as_slice(), [false, true]));
    assert_eq!(first.len(), 7, "{first:?}");
}

/// The second parameter narrowed to a list that reads the first, and a requirement that reads
/// no parameter written last (so checked with both).
const SWAP: &str = r#"
game "Swap" { players 2 }
kind card[5] { }
player var hand: list of card = []
player var tokens: int = 1
var deck: list of card = []
setup {
  let cards = shuffle [c in card]
  deck = cards
  for p in players { p.hand = take(deck, 2)  deck = drop(deck, 2) }
}
flow { repeat 3 { for p in players { turn p } } }
action swap(c: card, d: card) {
  require c in me.hand else "not held"
  require d in [x in card where x != c and not (x in me.hand)] else "held, or the same card"
  require me.tokens > 0 else "no tokens"
  me.hand -= c
  me.hand += d
  me.tokens -= 1
}
action pass { me.tokens += 1 }
"#;

#[test]
fn a_later_parameter_narrowed_by_a_list_that_reads_the_earlier_keeps_the_same_moves() {
    let first = planned_like_plain(SWAP, "swap", 2, ([0, 1, 3].as_slice(), [true, true]));
    // Two cards held, each swapped for one of the three not held, and `pass`.
    assert_eq!(first.len(), 7, "{first:?}");
}

/// A requirement that fails only for some values of both parameters, before or after one that
/// reads the first: the plan raises the same error as trying every combination, or none where
/// it would raise none (requirements keep their order: one that reads only `a`, written after
/// one that reads `b`, is not checked first).
#[test]
fn a_requirement_checked_early_raises_the_error_trying_every_combination_raises() {
    let divide = "require 10 / b > 0 else \"never false\"";
    for (requires, error) in [
        (format!("require a > 0 else \"small\"\n  {divide}"), true),
        (format!("require a > 5 else \"small\"\n  {divide}"), false),
        (format!("{divide}\n  require a > 5 else \"small\""), true),
    ] {
        let src = format!(
            r#"
game "Divide" {{ players 2 }}
flow {{ for p in players {{ turn p }} }}
action pick(a: int in 0..2, b: int in 0..2) {{
  {requires}
}}
action pass {{ }}
"#
        );
        let program = check_source("divide.rules", &src).program.expect("checks");
        let plain = unplanned(&program);
        let planned = Game::new(Arc::new(program), 2, 1)
            .map(|_| ())
            .map_err(|e| e.code);
        let every = Game::new(plain, 2, 1).map(|_| ()).map_err(|e| e.code);
        assert_eq!(planned, every, "{requires}");
        assert_eq!(planned.is_err(), error, "{requires}: {planned:?}");
    }
}

/// A turn sets up only the slots that an action's requirements and parameter ranges use
/// (`ActionDef::require_locals`), not its body's; requirements that bind names of their own
/// still have their slots.
#[test]
fn a_turn_sets_up_the_slots_of_the_requirements_alone() {
    let src = r#"game "T" { players 2 }
var n: int = 0
flow { turn first(players) }
action pick(x: int in 1..4) {
  require any(a in [1, 2, 3] where any(b in [a, x] where b == x + 1)) else "no neighbour"
  let p = 1
  let q = 2
  let r = 3
  n += x + p + q + r
}
"#;
    let program = check_source("t.rules", src)
        .program
        .expect("the rules check");
    let action = &program.actions[0];
    // `me`, `x`, and the two names the requirement binds.
    assert_eq!(action.require_locals, 4);
    assert!(action.locals > action.require_locals, "{action:?}");
    let game = Game::new(Arc::new(program), 2, 1).expect("starts");
    assert_eq!(labels(&game, 0), ["pick 1", "pick 2"]);
}
