//! `pop` and `remove` a level down: `pop decks[l]`, `remove me.rows[r].cards at i`, `pop 2 of
//! m[gem]`. Each test guards a mistake taking from a list inside a list invites: the wrong
//! list or position taken from, a change leaked into a copy through a shared list, a failing
//! statement that leaves half a change behind, and a path the checker lets through wrongly.

mod common;

use meeple::engine::{Game, MoveError, Viewer};
use meeple::load::{check_source, Loaded};
use std::sync::Arc;

fn load(src: &str) -> Loaded {
    check_source("nested_pop.rules", src)
}

fn program(src: &str) -> Arc<meeple::ir::Program> {
    common::program_of(src)
}

fn codes(src: &str) -> Vec<&'static str> {
    load(src).diagnostics.0.iter().map(|d| d.code).collect()
}

/// Decks in a list, rows of records holding lists, and a map by an enum of lists: every
/// element distinct, so a wrong list or position shows in the scenarios.
const DECKS: &str = r#"
game "Decks" { players 2 }

enum gem { ruby, jade }

record row {
  cards: list of int
  label: int = 0
}

var decks: list of list of int = [[1, 2, 3], [4, 5, 6], [7]]
var copy: list of list of int = []
player var rows: list of row = [row(cards: [10, 11, 12], label: 1), row(cards: [20, 21], label: 2)]
player var bag: list of int by gem = [[30, 31, 32], [40, 41]]
player var got: list of int = []

action take(l: int in 1..4) "the top card of deck l" {
  copy = decks
  let c = pop decks[l]
  me.got += c
}

action pick(l: int in 1..3, i: int in 1..4) "card i of deck l" {
  let c = pop decks[l] at i
  me.got += c
}

action cut(r: int in 1..3, i: int in 1..4) "drop card i of row r" {
  remove me.rows[r].cards at i
}

action grab(g: gem) "the last two of a bag" {
  let two = pop 2 of me.bag[g]
  me.got += two
}

action swap(l: int in 1..3, c: int in 1..9) "card c from deck l to deck 3, and back" {
  decks[l] -= c                          # one equal card, wherever it lies
  decks[3] += c
  decks[3] += [c, c]
  decks[3] -= [c, c]
}

flow {
  repeat 3 {
    for p in players { turn p }
  }
}

score(p) = sum(p.got)

scenario "the top of one deck, the others and a copy untouched" {
  play P1 "take 2"
  expect decks == [[1, 2, 3], [4, 5], [7]] and P1.got == [6]
  expect copy == [[1, 2, 3], [4, 5, 6], [7]]
}

scenario "a position inside one deck" {
  play P1 "pick 1 2"
  expect decks == [[1, 3], [4, 5, 6], [7]] and P1.got == [2]
}

scenario "a record's list in a slot of a list" {
  play P1 "cut 2 1"
  expect P1.rows[2].cards == [21] and P1.rows[2].label == 2
  expect P1.rows[1].cards == [10, 11, 12]
  expect P2.rows[2].cards == [20, 21]
}

scenario "a card moved between decks by value" {
  play P1 "swap 2 5"
  expect decks == [[1, 2, 3], [4, 6], [7, 5]]
}

scenario "the last two of a map's list" {
  play P1 "grab ruby"
  expect P1.bag[ruby] == [30] and P1.bag[jade] == [40, 41] and P1.got == [31, 32]
}
"#;

#[test]
fn a_pop_or_remove_a_level_down_changes_that_list_only() {
    let program = program(DECKS);
    let reports = meeple::scenario::run_all(&program);
    assert_eq!(reports.len(), 5);
    for r in reports {
        assert!(r.failure.is_none(), "{}: {:?}", r.title, r.failure);
    }
}

#[test]
fn a_position_outside_its_list_stops_the_rule_and_changes_nothing() {
    let mut game = Game::new(program(DECKS), 2, 1).expect("starts");
    let runtime = |e: MoveError| match e {
        MoveError::Runtime(e) => e,
        e => panic!("a rule should fail: {e}"),
    };
    let at = |e: &meeple::engine::RuntimeError| &DECKS[e.span.start as usize..e.span.end as usize];
    let before = game.view(Viewer::Referee);
    // No fourth deck: the step `[l]` reached past the list of decks.
    let e = runtime(game.apply_label(0, "take 4").expect_err("no deck 4"));
    assert_eq!((e.code, at(&e)), ("out-of-range", "l"));
    assert!(
        e.message.contains("position 4 of a list of 3"),
        "{}",
        e.message
    );
    assert_eq!(game.view(Viewer::Referee), before);
    // Deck 3 holds one card: position 2 is past it.
    let e = runtime(game.apply_label(0, "pick 3 2").expect_err("no card 2"));
    assert_eq!((e.code, at(&e)), ("out-of-range", "i"));
    assert_eq!(game.view(Viewer::Referee), before);
    // No third row; then a second row of two cards has no fourth.
    let e = runtime(game.apply_label(0, "cut 3 1").expect_err("no row 3"));
    assert_eq!((e.code, at(&e)), ("out-of-range", "r"));
    let e = runtime(game.apply_label(0, "cut 2 4").expect_err("no card 4"));
    assert_eq!((e.code, at(&e)), ("out-of-range", "i"));
    assert_eq!(game.view(Viewer::Referee), before);
    // Deck 1 holds no 9: nothing is removed, or added to deck 3.
    let e = runtime(game.apply_label(0, "swap 1 9").expect_err("no 9"));
    assert_eq!((e.code, at(&e)), ("not-in-list", "decks[l] -= c"));
    assert!(e.message.contains("9 is not in the list"), "{}", e.message);
    assert_eq!(game.view(Viewer::Referee), before);
    // Emptied, deck 3 gives nothing more, and says so where the pop stands.
    game.apply_label(0, "take 3").expect("the one card");
    let before = game.view(Viewer::Referee);
    let e = runtime(game.apply_label(1, "take 3").expect_err("empty"));
    assert_eq!((e.code, at(&e)), ("out-of-range", "let c = pop decks[l]"));
    assert!(
        e.message.contains("cannot take 1 off a list of 0"),
        "{}",
        e.message
    );
    assert_eq!(game.view(Viewer::Referee), before);
}

#[test]
fn mistakes_in_a_path_are_reported_with_their_codes() {
    for (from, to, code) in [
        // What the path reaches must be a list.
        (
            "let c = pop decks[l]",
            "let c = pop decks[l][1]",
            "type-mismatch",
        ),
        (
            "remove me.rows[r].cards at i",
            "remove me.rows[r].label at i",
            "type-mismatch",
        ),
        // A field of what is not a record.
        (
            "remove me.rows[r].cards at i",
            "remove me.got.cards at i",
            "unknown-field",
        ),
        (
            "let c = pop decks[l] at i",
            "let c = pop decks[l].cards at i",
            "type-mismatch",
        ),
        // A key of the wrong type, and a count with a position.
        (
            "let two = pop 2 of me.bag[g]",
            "let two = pop 2 of me.bag[1]",
            "wrong-map-key",
        ),
        (
            "let c = pop decks[l] at i",
            "let c = pop 2 of decks[l] at i",
            "pop-count-and-position",
        ),
        (
            "let c = pop decks[l] at i",
            "let c = pop decks[me] at i",
            "type-mismatch",
        ),
        // What is added to or taken from a list inside a list is of its element type.
        ("decks[l] -= c", "decks[l] -= me", "type-mismatch"),
        ("decks[3] += c", "decks[3] += [me]", "type-mismatch"),
    ] {
        assert!(DECKS.contains(from), "{from}");
        let src = DECKS.replacen(from, to, 1);
        let got = codes(&src);
        assert!(got.contains(&code), "{to}: {got:?}");
    }
    // A field of a list of numbers is no field at all: not "name it first".
    let src = DECKS.replacen("pop decks[l] at i", "pop decks[l].cards at i", 1);
    let loaded = load(&src);
    let d = &loaded.diagnostics.0[0];
    assert_eq!(d.message, "a list of int has no field `cards`");
    assert!(!d.help.as_deref().unwrap_or("").contains("name it first"));
}
