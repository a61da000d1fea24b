//! A scenario's `move`: an item leaves the list that holds it for another, so that a position is
//! set up without rebuilding every list by hand; its mistakes are pointed at, with help.

mod common;

use meeple::diag::Diagnostic;
use meeple::scenario::{run_all, ScenarioReport};
use std::sync::Arc;

const GAME: &str = "tests/fixtures/ok/card_market.rules";

/// The fixture's game without its scenarios, and `more` after it.
fn source(more: &str) -> String {
    let text = std::fs::read_to_string(common::root().join(GAME)).expect("fixture readable");
    let game = &text[..text.find("\nscenario ").expect("the fixture has scenarios")];
    format!("{game}\n{more}")
}

/// The text, and the reports of its scenarios: `more` is written after the fixture's game.
fn run(more: &str) -> (String, Vec<ScenarioReport>) {
    let text = source(more);
    let loaded = meeple::load::check_source("card_market.rules", &text);
    let Some(program) = loaded.program else {
        panic!("does not check:\n{}", common::report(&loaded));
    };
    let reports = run_all(&Arc::new(program));
    (text, reports)
}

fn failure(report: &ScenarioReport) -> &Diagnostic {
    report
        .failure
        .as_ref()
        .unwrap_or_else(|| panic!("`{}` should fail", report.title))
}

/// The text a diagnostic's main span covers.
fn at<'a>(text: &'a str, d: &Diagnostic) -> &'a str {
    &text[d.span.start as usize..d.span.end as usize]
}

/// What the labels of a diagnostic say, its main one first.
fn labels(d: &Diagnostic) -> Vec<String> {
    let mut out = vec![d.label.clone()];
    out.extend(d.labels.iter().map(|l| l.message.clone()));
    out
}

#[test]
fn the_fixtures_scenarios_pass() {
    let program = common::program(GAME);
    let reports = run_all(&program);
    assert_eq!(reports.len(), 5);
    for r in &reports {
        assert!(r.passed(), "{}: {:?}", r.title, r.failure);
    }
}

#[test]
fn a_move_takes_the_item_out_of_where_it_was() {
    let (_, reports) = run(r#"
scenario "a card from another hand" {
  players 3
  move moon_4 to P2.hand
  move moon_4 to P3.kept
  expect moon_4 in P3.kept and moon_4 not in P2.hand
  expect sum(count(p.hand) for p in players) + count(deck) + count(market) == 7
  expect all(c in card where places(c) == 1)
}
scenario "last, without `at`, also within its own list" {
  players 2
  move sun_1 to market at 1
  move sun_1 to market
  expect last(market) == sun_1 and count(market) == 3
}
"#);
    for r in &reports {
        assert!(r.passed(), "{}: {:?}", r.title, r.failure);
    }
}

#[test]
fn an_item_in_no_list_is_an_error_at_the_item() {
    let (text, reports) = run(r#"
scenario "nowhere" {
  move 7 to P1.purse
}
"#);
    let d = failure(&reports[0]);
    assert_eq!(d.code, "scenario-failed");
    assert_eq!(d.message, "`7` is in no list of the game");
    assert_eq!(at(&text, d), "7");
    assert!(
        d.help.as_deref().unwrap().contains("`set` the list"),
        "{d:?}"
    );
}

#[test]
fn an_item_in_several_lists_must_say_which_it_leaves() {
    let (text, reports) = run(r#"
scenario "a 1 is in the bank and in both purses" {
  players 2
  move 1 to P1.purse
}
"#);
    let d = failure(&reports[0]);
    assert_eq!(d.code, "scenario-failed");
    assert_eq!(
        d.message,
        "`1` is in several lists: `bank`, `P1.purse`, `P2.purse`"
    );
    assert_eq!(at(&text, d), "1");
    assert_eq!(
        d.help.as_deref(),
        Some("say which with `from`: `move 1 from bank to ...`")
    );
}

#[test]
fn a_list_named_by_from_must_hold_the_item() {
    let (text, reports) = run(r#"
scenario "from the wrong hand" {
  players 2
  move moon_4 to P2.hand
  move moon_4 from P1.hand to market
}
"#);
    let d = failure(&reports[0]);
    assert_eq!(d.message, "`moon_4` is not in `P1.hand`");
    assert_eq!(at(&text, d), "P1.hand");
    assert_eq!(d.label, "it is in `P2.hand`");
    assert!(d.help.as_deref().unwrap().contains("leave out `from`"));
}

#[test]
fn a_position_past_the_end_or_before_the_first_is_an_error_at_it() {
    let (text, reports) = run(r#"
scenario "past the end" {
  players 2
  move sun_1 to P1.kept
  move sun_1 to market at 4
}
scenario "before the first" {
  players 2
  move sun_1 to market at 0
}
scenario "within its own list, it counts once" {
  players 2
  move sun_1 to market
  move sun_1 to market at 4
}
"#);
    let past = failure(&reports[0]);
    assert_eq!(past.message, "`market` has no position 4");
    assert_eq!(at(&text, past), "4");
    assert_eq!(
        past.label,
        "positions 1 to 3, once the item has left where it is"
    );
    assert!(past
        .help
        .as_deref()
        .unwrap()
        .contains("`at 1` puts the item first"));
    let before = failure(&reports[1]);
    assert_eq!(before.message, "`market` has no position 0");
    let own = failure(&reports[2]);
    assert_eq!(own.message, "`market` has no position 4");
    assert!(own.label.starts_with("positions 1 to 3"), "{}", own.label);
}

#[test]
fn the_invariants_are_checked_after_moves_before_play_goes_on() {
    let (_, reports) = run(r#"
invariant small_hands "a hand holds at most 3 cards" = all(p in players where count(p.hand) <= 3)

scenario "moved" {
  players 2
  move sun_1 to P2.kept
  move sun_2 to P2.kept
  move sun_1 to P1.hand
  move sun_2 to P1.hand
  play "keep sun_1"
}
scenario "set and moved" {
  players 2
  set P1.purse = [1]
  move sun_1 to P2.kept
  move sun_2 to P2.kept
  move sun_1 to P1.hand
  move sun_2 to P1.hand
  play "keep sun_1"
}
"#);
    let moved = failure(&reports[0]);
    assert_eq!(moved.code, "invariant-broken");
    assert_eq!(moved.labels[0].message, "after this `move`");
    assert!(moved.help.as_deref().unwrap().contains("set or move"));
    let both = failure(&reports[1]);
    assert_eq!(both.labels[0].message, "after these `set` and `move` steps");
}

#[test]
fn a_move_is_checked_against_the_lists_types() {
    let text = source(
        r#"
var round: int = 0
def later(): int = round

scenario "mistakes" {
  players 2
  move 1 to P1.hand
  move sun_1 to round
  move sun_1 from bank to P1.hand
  let mine = P1.hand
  move sun_1 to mine
  move sun_1 to deck at sun_2
  expect later() == 0
}
"#,
    );
    let loaded = meeple::load::check_source("card_market.rules", &text);
    assert!(loaded.program.is_none());
    let errors: Vec<(&str, String, String)> = loaded
        .diagnostics
        .0
        .iter()
        .filter(|d| d.code != "unused-definition")
        .map(|d| (d.code, at(&text, d).to_string(), d.message.clone()))
        .collect();
    let expected = [
        ("1", "`P1.hand` is a list of `card`, but the item is an int"),
        ("round", "`round` is not a list: an item joins a list"),
        ("sun_1", "`bank` is a list of int, but the item is a `card`"),
        (
            "mine",
            "`mine` is named by this scenario, not part of the game",
        ),
        (
            "sun_2",
            "a position in a list should be an int, but this is a `card`",
        ),
    ];
    assert_eq!(errors.len(), expected.len(), "{errors:#?}");
    for ((code, span, message), (want_span, want_message)) in errors.iter().zip(expected) {
        assert_eq!(*code, "type-mismatch");
        assert_eq!(span, want_span);
        assert_eq!(message, want_message);
    }
    let wrong_type = &loaded.diagnostics.0[0];
    assert!(
        labels(wrong_type).contains(&"holds a list of `card`".to_string()),
        "{wrong_type:?}"
    );
}
