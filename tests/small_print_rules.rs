//! Small Print (`rules/small_print.rules`): illegal placements are refused with a reason and
//! leave the game exactly as it was (ruling SP-4). Scenarios cannot say "this move is refused",
//! so these are Rust tests.
//!
//! A player who has passed, or has placed their 3 cards, is out of the round: the flow does not
//! offer them another turn, so a 4th card or a card after passing is refused because it is not
//! their decision (the round goes on without them). A second marker of a kind is refused by the
//! rule `mark` itself, quoting its requirement.

use meeple::engine::{Game, MoveError, State, Viewer};
use std::path::Path;
use std::sync::Arc;

fn game(players: u8, seed: u64) -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/small_print.rules");
    let loaded = meeple::load::load(&path, &[]);
    let program = loaded.program.expect("small_print.rules checks");
    Game::new(Arc::new(program), players, seed).expect("the game starts")
}

/// Everything a refused move must leave unchanged.
#[derive(Debug, PartialEq)]
struct Snapshot {
    state: State,
    history: usize,
    waiting: Vec<u8>,
    views: Vec<String>,
    logs: Vec<Vec<String>>,
}

fn snapshot(g: &Game) -> Snapshot {
    let viewers: Vec<Viewer> = (0..g.players())
        .map(Viewer::Player)
        .chain([Viewer::Spectator])
        .collect();
    Snapshot {
        state: g.state().clone(),
        history: g.history().len(),
        waiting: g.waiting_on(),
        views: viewers.iter().map(|v| g.view(*v)).collect(),
        logs: viewers.iter().map(|v| g.log(*v)).collect(),
    }
}

/// The only seat deciding now.
fn deciding(g: &Game) -> u8 {
    match g.waiting_on().as_slice() {
        [p] => *p,
        other => panic!("expected one seat to decide, not {other:?}"),
    }
}

/// `place B` for the first business offered to the seat deciding now: a business of this
/// round (the move is typed with a card after it, its secret argument).
fn a_place_move(g: &Game) -> String {
    let label = g
        .options(deciding(g))
        .into_iter()
        .map(|o| o.label)
        .find(|l| l.starts_with("place "))
        .expect("a place move is offered");
    label.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

fn play(g: &mut Game, moves: &[&str]) {
    for m in moves {
        let p = deciding(g);
        g.apply_label(p, m)
            .unwrap_or_else(|e| panic!("{} cannot play `{m}`: {e}", g.seat_name(p)));
    }
}

/// Places one card (`card`, unmarked) under the first business offered.
fn place_unmarked(g: &mut Game, card: &str) {
    let place = a_place_move(g);
    play(g, &[&format!("{place} {card}"), "no_marker"]);
}

/// `who` tries `input`: it must be refused, `why` must say the same, and nothing may change.
fn assert_refused(g: &mut Game, who: u8, input: &str) -> MoveError {
    let before = snapshot(g);
    let err = g
        .apply_label(who, input)
        .expect_err("the move must be refused");
    assert_eq!(snapshot(g), before, "a refused move changed the game");
    let why = g.why(who, input).expect("why explains the refusal");
    assert!(!why.is_empty());
    match &err {
        MoveError::Illegal { reason, .. } => assert_eq!(&why, reason),
        other => assert_eq!(why, other.to_string()),
    }
    err
}

#[test]
fn a_second_marker_of_the_same_kind_in_a_round_is_refused() {
    let mut g = game(2, 3);
    let a = deciding(&g);
    let place = a_place_move(&g);
    play(&mut g, &[&format!("{place} total"), "mark big"]);
    play(&mut g, &["pass"]); // the other player passes; `a` places on
    play(&mut g, &[&format!("{place} share")]);
    assert_eq!(deciding(&g), a, "`a` now chooses a marker");
    let offered: Vec<String> = g.options(a).into_iter().map(|o| o.label).collect();
    assert!(!offered.contains(&"mark big".to_string()), "{offered:?}");

    let err = assert_refused(&mut g, a, "mark big");
    match err {
        MoveError::Illegal { reason, .. } => assert!(
            reason.contains("your big marker is already on a card this round"),
            "{reason}"
        ),
        other => panic!("expected an illegal move, got {other}"),
    }
    // A marker still in front of the player is fine, even on a Share (a bluff).
    play(&mut g, &["mark total"]);
}

#[test]
fn a_marker_labelled_share_does_not_exist() {
    let mut g = game(2, 3);
    let a = deciding(&g);
    let place = a_place_move(&g);
    play(&mut g, &[&format!("{place} share")]);
    match assert_refused(&mut g, a, "mark share") {
        MoveError::Illegal { reason, .. } => {
            assert!(reason.contains("markers are labelled"), "{reason}")
        }
        other => panic!("expected an illegal move, got {other}"),
    }
}

#[test]
fn a_fourth_card_in_a_round_is_refused() {
    let mut g = game(2, 5);
    let a = deciding(&g);
    let b = 1 - a;
    // a, b, a, b, a: `a` has placed its 3 cards; `b` has placed 2 and places on alone.
    for _ in 0..2 {
        place_unmarked(&mut g, "share");
        place_unmarked(&mut g, "share");
    }
    let fourth = a_place_move(&g); // a business of this round, offered to `a` now
    place_unmarked(&mut g, "share");
    assert_eq!(deciding(&g), b, "`a` is out of the round after 3 cards");
    assert!(g.options(a).is_empty());

    match assert_refused(&mut g, a, &fourth) {
        MoveError::NotYourDecision { player, waiting } => {
            assert_eq!(player, g.seat_name(a));
            assert_eq!(waiting, vec![g.seat_name(b)]);
        }
        other => panic!("expected a refusal for `a`, got {other}"),
    }
    let on_table = |g: &Game, p: u8| {
        g.view(Viewer::Spectator)
            .lines()
            .filter(|l| l.contains(&format!("owner {} ·", g.seat_name(p))))
            .count()
    };
    assert_eq!(on_table(&g, a), 3);
    // `b`'s third card ends the round: nobody is left to ask.
    place_unmarked(&mut g, "share");
    assert!(g
        .log(Viewer::Spectator)
        .iter()
        .any(|l| l.starts_with("Round 2 ")));
}

#[test]
fn placing_after_passing_is_refused() {
    let mut g = game(2, 7);
    let a = deciding(&g);
    let b = 1 - a;
    let place = a_place_move(&g);
    play(&mut g, &["pass"]);
    assert_eq!(deciding(&g), b);
    match assert_refused(&mut g, a, &place) {
        MoveError::NotYourDecision { waiting, .. } => {
            assert_eq!(waiting, vec![g.seat_name(b)])
        }
        other => panic!("expected a refusal for `a`, got {other}"),
    }
    // `b` places, and is asked again: passing was final for `a`.
    place_unmarked(&mut g, "share");
    assert_eq!(deciding(&g), b, "`a` is not asked again after passing");
    assert_refused(&mut g, a, &place);
    assert_refused(&mut g, a, "pass");
    play(&mut g, &["pass"]);
    assert!(g
        .log(Viewer::Spectator)
        .iter()
        .any(|l| l.starts_with("Round 2 ")));
}
