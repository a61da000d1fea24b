//! Language features of rounds 2 and 3, each played: its rules written as a small game whose own
//! scenarios say what must happen, and its diagnostics.

mod common;

use common::assert_mistake;
use meeple::load::{check_source, Loaded};
use std::sync::Arc;

/// The codes of a source's diagnostics, in order.
fn codes(loaded: &Loaded) -> Vec<&'static str> {
    loaded.diagnostics.0.iter().map(|d| d.code).collect()
}

/// Checks `src`, which must be clean, and runs its scenarios; every one must pass.
fn scenarios_pass(src: &str) {
    let loaded = check_source("test.rules", src);
    assert!(
        loaded
            .diagnostics
            .0
            .iter()
            .all(|d| d.code != "syntax-error"),
        "{:?}",
        loaded.diagnostics
    );
    let program = Arc::new(
        loaded
            .program
            .unwrap_or_else(|| panic!("errors: {:?}", loaded.diagnostics)),
    );
    let reports = meeple::scenario::run_all(&program);
    assert!(!reports.is_empty(), "no scenarios ran");
    for r in reports {
        assert!(r.failure.is_none(), "{}: {:?}", r.title, r.failure);
    }
}

const EXITS: &str = r#"
game "Exits" { players 2 }

var trace: list of int = []
var n: int = 0

flow {
  for i in 1..5 {
    if i == 2 {
      continue
    }
    if i == 4 {
      break
    }
    trace += i
  }
  repeat 5 {
    n += 1
    if n >= 3 {
      break
    }
  }
  while true {
    n += 10
    if n > 30 {
      break
    }
    continue
  }
  for i in [7, 8] {
    for j in [1, 2, 3] {
      if j == 2 {
        break                 # the inner loop only
      }
      trace += i * 10 + j
    }
  }
  add_until(50)
  for p in players {
    turn p
  }
  trace += 99
  if n > 0 {
    return                    # the flow ends here: the game is over
  }
  trace += 100
}

effect add_until(limit: int) {
  repeat 3 {
    for x in [40, 50, 60] {
      if x >= limit {
        return                # leaves the effect from two loops deep
      }
      trace += x
    }
  }
  trace += 1000
}

action go "Go on" {
  if me == last(players) {
    return
  }
  n += 1
}

scenario "continue skips, break leaves, return leaves the effect and the flow" {
  expect trace == [1, 3, 71, 81, 40]
  expect n == 33
  play "go"
  expect n == 34
  play "go"
  expect n == 34
  expect trace == [1, 3, 71, 81, 40, 99]
  expect game over
}
"#;

#[test]
fn break_continue_and_return_leave_where_they_say() {
    scenarios_pass(EXITS);
}

#[test]
fn break_outside_a_loop_is_misplaced() {
    let loaded = check_source(
        "t.rules",
        "game \"B\" { players 2 }\nflow {\n  break\n  secretly each p in players choose x \"x\" from [1] then {\n    for q in players { continue }\n    continue\n  }\n}\n",
    );
    assert_eq!(codes(&loaded), vec!["misplaced-exit", "misplaced-exit"]);
    let d = &loaded.diagnostics.0[0];
    assert!(d.message.contains("`break`"), "{}", d.message);
}

#[test]
fn statements_after_an_exit_are_unreachable() {
    let loaded = check_source(
        "t.rules",
        "game \"U\" { players 2 }\nvar n: int = 0\nflow {\n  repeat 2 {\n    break\n    n += 1\n  }\n  if n == 0 { return }\n  n += 2\n}\n",
    );
    assert_eq!(codes(&loaded), vec!["unreachable-code"]);
    assert!(loaded.program.is_some(), "a warning only");
}

#[test]
fn early_exits_are_reserved_words() {
    let loaded = check_source(
        "t.rules",
        "game \"R\" { players 2 }\nvar return: int = 0\nflow { }\n",
    );
    assert_eq!(codes(&loaded), vec!["syntax-error"]);
}

const MATCH: &str = r#"
game "Matching" { players 2 }

enum suit { hearts, spades, clubs, diamonds }

var trace: list of int = []
var picked: suit = none

flow {
  for s in suit {
    match s {
      hearts, diamonds {
        trace += 1
      }
      spades {
        trace += 2
        continue                # an arm is not a loop: this goes on with the `for`
      }
      else {
        trace += 3
      }
    }
    trace += 0
  }
  match picked {
    none {
      trace += 9
    }
    else {
      trace += 8
    }
  }
}

scenario "each value runs its own arm; none has one of its own" {
  expect trace == [1, 0, 2, 3, 0, 1, 0, 9]
}
"#;

#[test]
fn match_runs_the_arm_of_the_value() {
    scenarios_pass(MATCH);
}

#[test]
fn match_of_none_without_an_arm_for_it_stops_the_game() {
    let src = "game \"N\" { players 2 }\nenum e { a, b }\nvar x: e = none\nflow {\n  match x {\n    a { }\n    b { }\n  }\n}\n";
    let loaded = check_source("t.rules", src);
    let program = Arc::new(loaded.program.expect("checks clean"));
    let err = meeple::engine::Game::new(program, 2, 1).expect_err("match of none fails");
    assert_eq!(err.code, "no-value");
}

#[test]
fn match_arms_are_checked_against_the_enum() {
    let check = |arms: &str| {
        let src = format!(
            "game \"M\" {{ players 2 }}\nenum e {{ a, b, c }}\nenum f {{ z }}\nvar x: e = a\nflow {{\n  match x {{\n{arms}\n  }}\n}}\n"
        );
        let loaded = check_source("t.rules", &src);
        let got: Vec<String> = loaded
            .diagnostics
            .0
            .iter()
            .filter(|d| d.code != "unused-definition")
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect();
        got
    };
    assert_eq!(
        check("    a { }\n    b { }"),
        vec!["non-exhaustive-match: this `match` of a e has no arm for `c`"]
    );
    assert_eq!(
        check("    a, b { }\n    b, c { }"),
        vec!["duplicate-arm: `b` has an arm already"]
    );
    assert_eq!(
        check("    a, b, c { }\n    else { }"),
        vec!["unreachable-arm: every e already has an arm: `else` never runs"]
    );
    assert_eq!(check("    a { }\n    else { }"), Vec::<String>::new());
    assert_eq!(
        check("    a, bb, z { }\n    else { }"),
        vec![
            "unknown-name: `bb` is not a value of e",
            "type-mismatch: `z` is not a value of e"
        ]
    );
    let loaded = check_source(
        "t.rules",
        "game \"M\" { players 2 }\nflow {\n  match 3 {\n    else { }\n  }\n}\n",
    );
    assert_eq!(codes(&loaded), vec!["type-mismatch"]);
}

const EMPTY: &str = r#"
game "Nothing" { players 2 }

var nothing: list of int = []
var some: list of int = [4, 2, 7]
var low: int = 0
var gaps: list of int = []

flow {
  low = min(nothing, 99)
  gaps = [min(nothing, -1), max(nothing, -1), first(nothing, -1), last(nothing, -1),
          min(some, 0), max(some, 0), first(some, 0), last(some, 0), min(x for x in some where x > 3, 0)]
  log "{min(nothing)} {max(nothing)} {first(nothing)} {last(nothing)}"
}

scenario "the extremes and ends of nothing are none, or the value given for it" {
  expect low == 99
  expect gaps == [-1, -1, -1, -1, 2, 7, 4, 7, 4]
}
"#;

#[test]
fn min_max_first_last_of_nothing_are_none_or_the_default() {
    scenarios_pass(EMPTY);
    let loaded = check_source("t.rules", EMPTY);
    let program = Arc::new(loaded.program.expect("checks clean"));
    let game = meeple::engine::Game::new(program, 2, 1).expect("plays");
    let log: Vec<String> = game
        .log(meeple::engine::Viewer::Spectator)
        .iter()
        .map(|l| l.to_string())
        .collect();
    assert!(
        log.iter().any(|l| l.contains("none none none none")),
        "{log:?}"
    );
}

#[test]
fn none_of_min_used_as_a_number_or_summed_stops_the_game() {
    for body in [
        "  let x = min([x in [1] where x > 1]) + 1",
        "  let xs = [first([x in [1] where x > 1]), 2]\n  let s = sum(xs)",
    ] {
        let src = format!("game \"N\" {{ players 2 }}\nflow {{\n{body}\n  log \"{{x}}\"\n}}\n")
            .replace("{x}", if body.contains("xs") { "{s}" } else { "{x}" });
        let loaded = check_source("t.rules", &src);
        let program = Arc::new(
            loaded
                .program
                .unwrap_or_else(|| panic!("{src}: {:?}", loaded.diagnostics)),
        );
        let err = meeple::engine::Game::new(program, 2, 1).expect_err("none is no number");
        assert_eq!(err.code, "no-value", "{src}");
    }
    let loaded = check_source(
        "t.rules",
        "game \"D\" { players 2 }\nflow {\n  log \"{min([1], players)} {first([1], 2, 3)}\"\n}\n",
    );
    assert_eq!(
        codes(&loaded),
        vec!["type-mismatch", "wrong-argument-count"]
    );
}

const SCORE: &str = r#"
game "Callable score" { players 2 }

player var coins: int = 0

def leader(): list of player = top(p in players by score(p))

flow {
  for p in players {
    turn p
  }
  log "{leader()} leads with {score(first(leader()))}"
}

action earn "Earn 2 coins" {
  me.coins += 2
}

action double "Double your score, once it is 10 or more" {
  require score(me) >= 10 else "your score is {score(me)}"
  me.coins = score(me) * 2 + 1
}

score(p) = p.coins * 10

scenario "score(p) is the declared score, anywhere" {
  play "earn"
  expect score(P1) == 20 and leader() == [P1]
  expect refused "double" because "your score is 0"
}
"#;

#[test]
fn score_is_callable_anywhere() {
    scenarios_pass(SCORE);
    let no_score = check_source(
        "t.rules",
        "game \"S\" { players 2 }\nflow { log \"{score(first(players))}\" }\n",
    );
    assert_eq!(codes(&no_score), vec!["unknown-name"]);
    let wrong = check_source(
        "t.rules",
        "game \"S\" { players 2 }\nflow { log \"{score()}\" }\nscore(p) = 1\n",
    );
    assert_eq!(codes(&wrong), vec!["wrong-argument-count"]);
}

const ENDING: &str = r#"
game "Endings" { players 3 }

player var points: int = 0

flow {
  for p in players {
    turn p
  }
}

action win "End the game and win it" {
  end game "{me} claims the win" winners [me]
}

action lose "End the game for everyone" {
  end game winners []
}

action plain "End the game by the rules" {
  me.points += 1
  end game
}

score(p) = p.points
winners = [p in players where p.points > 0]

scenario "winners given by the ending replace the rule" {
  play "win"
  expect game over
  expect winners == [P1]
}

scenario "an ending with no winners: everyone loses" {
  play "lose"
  expect winners == []
}

scenario "a plain ending is scored by the winners rule" {
  play "plain"
  expect winners == [P1]
}
"#;

#[test]
fn end_game_carries_its_winners() {
    scenarios_pass(ENDING);
    let loaded = check_source(
        "t.rules",
        "game \"E\" { players 2 }\nflow { end game \"x\" winners 3 }\n",
    );
    assert_eq!(codes(&loaded), vec!["type-mismatch"]);
}

const POP: &str = r#"
game "Towers" { players 2 }

enum size { small, large }
var tower: list of size = [large, small, large, small]
var top: size = none
var top_two: list of size = []
var fewer: list of size = []
player var stack: list of int = [1, 2, 3]

flow {
  let t = pop tower                 # the last: small, by position
  top = t
  let two = pop 2 of tower          # the last two, bottom first
  top_two = two
  fewer = [large, small, large, small]
  fewer -= small                    # one equal piece: the first small, not the top
  let p1 = first(players)
  let n = pop p1.stack
  let none_taken = pop 0 of tower
  top_two += none_taken
  log "{n}"
}

scenario "pop takes by position; -= takes one equal piece" {
  expect top == small and top_two == [small, large] and tower == [large]
  expect fewer == [large, large, small]
  expect P1.stack == [1, 2] and P2.stack == [1, 2, 3]
}
"#;

#[test]
fn pop_takes_the_top_and_minus_one_equal_piece() {
    scenarios_pass(POP);
    for (body, code) in [
        ("  let x = pop 3 of xs", "out-of-range"),
        // Not a place: read as the position 1 of a variable `pop`, which is not declared.
        ("  let x = pop [1] ", "unknown-name"),
        ("  let ys = []\n  let y = pop ys", "out-of-range"),
        ("  let x = pop -1 of xs", "out-of-range"),
    ] {
        let src = format!(
            "game \"P\" {{ players 2 }}\nvar xs: list of int = [1, 2]\nflow {{\n{body}\n}}\n"
        );
        let loaded = check_source("t.rules", &src);
        if code == "unknown-name" {
            assert!(codes(&loaded).contains(&code), "{src}");
            continue;
        }
        let program = Arc::new(loaded.program.unwrap_or_else(|| panic!("{src}")));
        let err = meeple::engine::Game::new(program, 2, 1).expect_err("refused");
        assert_eq!(err.code, code, "{src}");
    }
    let loaded = check_source(
        "t.rules",
        "game \"P\" { players 2 }\nvar n: int = 3\nflow {\n  let x = pop n\n}\n",
    );
    assert!(
        codes(&loaded).contains(&"type-mismatch"),
        "{:?}",
        codes(&loaded)
    );
}

const BOOKKEEPING: &str = r#"
game "Bookkeeping" { players 2 }

player var coins: int = 0
player internal var claims: int = 0
internal var turns_taken: int = 0
kind token[1] { internal touched: bool = false  colour: int = 0 }

flow {
  for p in players {
    turn p
    turns_taken += 1
  }
}

action claim "Claim" {
  me.claims += 7
  me.coins += 1
  let t = first(token)
  t.touched = true
  t.colour = 3
  log "{me} claims"
}

score(p) = p.coins

scenario "internal values are read by the rules" {
  play "claim"
  expect P1.claims == 7 and turns_taken == 1
}
"#;

#[test]
fn internal_bookkeeping_is_in_no_view() {
    scenarios_pass(BOOKKEEPING);
    let loaded = check_source("t.rules", BOOKKEEPING);
    let program = Arc::new(loaded.program.expect("checks clean"));
    let mut game = meeple::engine::Game::new(program, 2, 1).expect("starts");
    game.play(0, 0).expect("claim");
    use meeple::engine::Viewer;
    for viewer in [Viewer::Player(0), Viewer::Player(1), Viewer::Spectator] {
        let view = game.view(viewer);
        for word in ["claims ", "turns_taken", "touched"] {
            assert!(!view.contains(word), "{word} in {view}");
        }
        assert!(view.contains("coins 1"), "{view}");
        assert!(view.contains("colour 3"), "{view}");
    }
}

const BIDS: &str = r#"
game "Bids" { players 2 }

player var coins: int in 0..20 = 5
var high: int in 0..20 = 0

flow {
  repeat 2 {
    for p in players {
      turn p
    }
  }
}

def cap(p: player): int = min([p.coins, 4])

action bid(n: int in high + 1..me.coins) "Bid" {
  high = n
}

action spend(k: int in 1..cap(me)) "Spend" {
  me.coins -= k
}

action pass "Pass" { }

score(p) = p.coins

scenario "the ends are worked out for the player moving, from the state" {
  set P1.coins = 3
  expect refused P1 "bid 4" because "from 1 to 3"
  expect refused P1 "spend 4" because "from 1 to 3"
  play P1 "bid 3"
  expect refused P2 "bid 3" because "from 4 to 5"
  play P2 "spend 4"
  expect P2.coins == 1
  expect refused P1 "bid 4" because "no value now"
}
"#;

#[test]
fn a_parameter_range_follows_the_mover_and_the_state() {
    scenarios_pass(BIDS);
    let program = Arc::new(check_source("bids.rules", BIDS).program.expect("clean"));
    let game = meeple::engine::Game::new(program, 2, 1).expect("starts");
    let labels: Vec<String> = game.options(0).into_iter().map(|o| o.label).collect();
    assert_eq!(
        labels,
        [
            "bid 1", "bid 2", "bid 3", "bid 4", "bid 5", "spend 1", "spend 2", "spend 3",
            "spend 4", "pass"
        ]
    );
}

/// Ranges with ends the checker can and cannot bound; `coins` starts at `COINS`.
const RANGES: &str = r#"
game "Ranges" { players 2..3 }
player var coins: int = COINS
player var hand: list of int = []
var track: int in -5..5 = 0
flow { for p in players { turn p } }
action a(n: int in 1..me.coins) { }
action b(n: int in 0..count(me.hand)) { }
action c(n: int in -me.coins..-1) { }
action d(n: int in 1..player_count * 400) { }
action e(n: int in 0..min([count(me.hand), 10]) + track * 2) { }
action f(n: int in track..abs(track) % 3 + by players { 2: 4, 3: 6 }) { }
action g(n: int in me.coins) { }
action h(n: int in 1..player_count * 600) { }
action pass { }
score(p) = p.coins
"#;

#[test]
fn a_parameter_range_always_too_wide_is_refused_and_one_that_could_be_is_bounded_in_play() {
    let loaded = check_source("ranges.rules", &RANGES.replace("COINS", "3"));
    let errors: Vec<(&str, String)> = loaded
        .diagnostics
        .0
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code, d.message.clone()))
        .collect();
    assert_eq!(
        errors,
        [
            (
                "not-constant",
                "the values of a parameter are a range `lo..hi`".to_string()
            ),
            (
                "infinite-domain",
                "parameter `n` takes at least 1200 values, from 1 to 1200".to_string()
            ),
        ],
        "{errors:?}"
    );
    // Without the two refused, the others play: `a`, `b` and `c` have no end the checker
    // bounds, `d` could hold 1200 values (three players): each is checked in play.
    let src = |coins: &str| {
        RANGES
            .replace("COINS", coins)
            .replace("action g(n: int in me.coins) { }\n", "")
            .replace("action h(n: int in 1..player_count * 600) { }\n", "")
    };
    let program = |coins: &str| {
        let loaded = check_source("ranges.rules", &src(coins));
        Arc::new(
            loaded
                .program
                .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics)),
        )
    };
    let game = meeple::engine::Game::new(program("3"), 2, 1).expect("starts");
    let labels: Vec<String> = game.options(0).into_iter().map(|o| o.label).collect();
    assert!(labels.starts_with(&["a 1", "a 2", "a 3", "b 0", "c -3"].map(String::from)));
    assert!(labels.contains(&"d 800".to_string()) && !labels.contains(&"d 801".to_string()));
    assert_eq!(
        game.why(0, "a 4").as_deref(),
        Some("<n> is from 1 to 3 now (its range is `1..me.coins`)")
    );
    assert_eq!(
        game.why(0, "a 1000000").as_deref(),
        Some("<n> is from 1 to 3 now (its range is `1..me.coins`)")
    );
    // 1000 values are listed; 1001 stop the game with the range, its ends and the limit.
    let game = meeple::engine::Game::new(program("1000"), 2, 1).expect("starts");
    assert!(game.options(0).iter().any(|o| o.label == "a 1000"));
    let e = match meeple::engine::Game::new(program("1001"), 2, 1) {
        Err(e) => e,
        Ok(_) => panic!("a range of 1001 values was listed"),
    };
    assert_eq!(e.code, "range-too-wide");
    assert_eq!(
        e.message,
        "<n> of `a` (`1..me.coins`) is from 1 to 1001 now: 1001 values, more than the 1000 one \
         parameter may take"
    );
    // At three players `d` holds 1200 values, whatever the coins.
    let e = match meeple::engine::Game::new(program("3"), 3, 1) {
        Err(e) => e,
        Ok(_) => panic!("a range of 1200 values was listed"),
    };
    assert_eq!(
        (e.code, e.message.contains("from 1 to 1200")),
        ("range-too-wide", true)
    );
    // Ends far apart, or past each other, at the edges of the numbers: no panic.
    for coins in ["9223372036854775807", "-9223372036854775807"] {
        let _ = meeple::engine::Game::new(program(coins), 2, 1);
    }
}

const CHART: &str = r#"
game "Chart" { players 2 }

die d6: 1..6
enum event { crash, quiet, boom }
kind suit named coins, cups { }

table chart(event: event, pays: int, doubled: list of suit, again: bool) {
  (crash, -2, [], false),
  (quiet, 0, [coins], false),
  (quiet, 0, [coins, cups], false),
  (boom, 4, [cups], true),
}

kind card[count(chart)] shown as "{it.event}" {
  event: event = nth(chart, index).event
  pays: int = nth(chart, index).pays
}

player var coins: int = 3

flow {
  for p in players {
    turn p
  }
}

action tempt "Roll" {
  let r = roll d6
  me.coins += nth(chart, (r + 1) / 2 + 1).pays
}

score(p) = p.coins

scenario "rows are read by position, columns by name" {
  expect count(chart) == 4 and count(card) == 4
  expect [c.pays for c in card] == [-2, 0, 0, 4]
  expect nth(chart, 3).doubled == [coins, cups] and nth(chart, 4).again
  expect [nth(chart, i).event for i in 1..4] == [crash, quiet, quiet, boom]
  rolls 6
  play "tempt"
  expect P1.coins == 7
}

"#;

#[test]
fn a_table_is_read_by_row_and_column() {
    scenarios_pass(CHART);
}

#[test]
fn a_row_past_the_end_of_a_table_is_out_of_range() {
    let src = CHART.replace("(r + 1) / 2 + 1", "r");
    let program = Arc::new(check_source("chart.rules", &src).program.expect("clean"));
    let reports = meeple::scenario::run_all(&program);
    let failure = format!("{:?}", reports[0].failure);
    assert!(
        failure.contains("row 6 of table `chart`, which has 4 rows"),
        "{failure}"
    );
}

#[test]
fn a_tables_column_may_be_a_map_written_as_a_list_or_one_value_for_every_key() {
    let src = r#"
game "Costs" { players 2 }
enum gem { red, blue, green }
table cards(points: int, cost: int by gem) {
  (1, [0, 2, 1]),
  (2, 3),
}
player var paid: int = 0
flow { for p in players { turn p } }
action buy(r: int in 1..2) "buy" { me.paid += nth(cards, r).cost[blue] }
score(p) = p.paid
scenario "a map column reads by key" {
  expect nth(cards, 1).cost[blue] == 2 and nth(cards, 1).cost[green] == 1
  expect nth(cards, 2).cost == [3, 3, 3]
  play "buy 1"
  expect P1.paid == 2
}
"#;
    scenarios_pass(src);
    let short = check_source("costs.rules", &src.replace("[0, 2, 1]", "[0, 2]"));
    assert!(
        common::codes(&short).contains("map-size"),
        "{:?}",
        common::codes(&short)
    );
}

#[test]
fn table_mistakes_have_their_codes() {
    let src = r#"
game "Charts" { players 2 }
enum event { crash, boom }
table chart(event: event, pays: int, event: int) {
  (crash, -2, 1),
  (boom, 4),
  (boom, true, 1),
  (boom, player_count, 1),
}
table unread(n: int) { (1) }
player var coins: int = 3
flow { for p in players { turn p } }
action tempt {
  me.coins += nth(chart, 1).pay
  me.coins += count(chart)
  let c = chart
}
score(p) = p.coins
"#;
    let loaded = check_source("charts.rules", src);
    assert_eq!(
        codes(&loaded),
        [
            "duplicate-definition",
            "wrong-row-length",
            "type-mismatch",
            "not-constant",
            "unused-definition",
            "unknown-column",
            "table-as-value",
        ],
        "{:?}",
        loaded.diagnostics
    );
}

const GIFTS: &str = r#"
game "Gifts" { players 2..3 }

player var coins: int = 2

flow {
  repeat 2 {
    for p in players {
      turn p
    }
  }
}

action give "Give a coin to another player" {
  let to = choose me "Give to whom?" from others(me)
  me.coins -= 1
  to.coins += 1
}

action keep "Keep your coins" { }

score(p) = p.coins
"#;

fn gifts(always_ask: bool) -> Arc<meeple::ir::Program> {
    let src = if always_ask {
        GIFTS.replace("{ players 2..3 }", "{ players 2..3  always ask }")
    } else {
        GIFTS.to_string()
    };
    Arc::new(check_source("gifts.rules", &src).program.expect("clean"))
}

#[test]
fn a_choice_of_one_option_is_taken_unless_the_game_always_asks() {
    // Two players: the only other player is taken, with a line in the log; no decision.
    let mut game = meeple::engine::Game::new(gifts(false), 2, 1).expect("starts");
    game.apply_label(0, "give").expect("legal");
    assert_eq!(game.to_decide(), Some(1));
    assert_eq!(game.decisions(), 1);
    assert!(game
        .log(meeple::engine::Viewer::Spectator)
        .iter()
        .any(|l| l.contains("P1 chose P2 (the only option)")));
    // Three players: two options, asked.
    let mut game = meeple::engine::Game::new(gifts(false), 3, 1).expect("starts");
    game.apply_label(0, "give").expect("legal");
    assert_eq!(game.to_decide(), Some(0));
    // `always ask`: one option is asked too.
    let mut game = meeple::engine::Game::new(gifts(true), 2, 1).expect("starts");
    game.apply_label(0, "give").expect("legal");
    assert_eq!(game.to_decide(), Some(0));
    let labels: Vec<String> = game.options(0).into_iter().map(|o| o.label).collect();
    assert_eq!(labels, ["P2"]);
    game.apply_label(0, "P2").expect("the only option");
    assert_eq!(game.decisions(), 2);
}

#[test]
fn a_choice_marked_always_ask_is_asked_with_one_option_and_only_it() {
    // Gifts with `give` marked: at two players its one option waits for P1.
    let src = GIFTS.replace("choose me", "choose always ask me");
    assert_ne!(src, GIFTS);
    let marked = check_source("gifts.rules", &src);
    assert_eq!(codes(&marked), Vec::<&str>::new());
    let mut game =
        meeple::engine::Game::new(Arc::new(marked.program.expect("clean")), 2, 1).expect("starts");
    game.apply_label(0, "give").expect("legal");
    assert_eq!(game.to_decide(), Some(0));
    game.apply_label(0, "P2").expect("the only option, asked");
    assert_eq!(game.decisions(), 2);
    assert!(!game
        .log(meeple::engine::Viewer::Spectator)
        .iter()
        .any(|l| l.contains("the only option")));
    // A second choice of one option, unmarked, in the same game is still taken without asking.
    let both = src.replace(
        "  me.coins -= 1\n",
        "  me.coins -= 1\n  let again = choose me \"Again?\" from [to]\n",
    );
    assert_ne!(both, src);
    let mut game = meeple::engine::Game::new(
        Arc::new(check_source("gifts.rules", &both).program.expect("clean")),
        2,
        1,
    )
    .expect("starts");
    game.apply_label(0, "give").expect("legal");
    game.apply_label(0, "P2").expect("asked");
    assert_eq!(game.to_decide(), Some(1));
    assert!(game
        .log(meeple::engine::Viewer::Spectator)
        .iter()
        .any(|l| l.contains("P1 chose P2 (the only option)")));
    // Marking a choice of several, or any choice of a game that always asks, is warned of.
    let needless = src.replace("{ players 2..3 }", "{ players 2..3  always ask }");
    assert_eq!(
        codes(&check_source("gifts.rules", &needless)),
        ["needless-always-ask"]
    );
    let several = GIFTS.replace(
        "  me.coins -= 1\n",
        "  let paid = choose always ask any of me \"Pay?\" from [1]\n  me.coins -= count(paid)\n",
    );
    assert_ne!(several, GIFTS);
    assert_eq!(
        codes(&check_source("gifts.rules", &several)),
        ["needless-always-ask"]
    );
}

/// A game in which every choice is asked, two decisions in: P1 gave to P2.
fn game_asking() -> meeple::engine::Game {
    let mut game = meeple::engine::Game::new(gifts(true), 2, 1).expect("starts");
    game.apply_label(0, "give").expect("legal");
    game.apply_label(0, "P2").expect("legal");
    game
}

#[test]
fn a_stream_of_the_older_schema_replays_asking_every_choice() {
    let dir = std::env::temp_dir().join(format!("meeple-lang3-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp folder");
    let header = |schema: &str| {
        format!(
            r#"{{"event":"game","schema":"{schema}","meeple":"0.1.0","game":"Gifts","rules":"gifts.rules","variant_files":[],"variants":[],"players":2,"seed":1,"bots":"random","log":[]}}"#
        )
    };
    let decision = |n: usize, player: &str, choice: &str| {
        format!(
            r#"{{"event":"decision","number":{n},"player":"{player}","choice":"{choice}","log":[]}}"#
        )
    };
    let old = [
        header("meeple-game/2"),
        decision(1, "P1", "give"),
        decision(2, "P1", "P2"),
    ]
    .join("\n");
    let path = dir.join("old.jsonl");
    std::fs::write(&path, old).expect("written");
    let save = meeple::save::SaveFile::read(&path).expect("a version 2 stream reads");
    assert!(save.always_ask);
    let game = save.restore(gifts(false), &mut |_, _| {}).expect("replays");
    assert_eq!((game.decisions(), game.to_decide()), (2, Some(1)));
    let new = [header("meeple-game/3"), decision(1, "P1", "give")].join("\n");
    std::fs::write(&path, new).expect("written");
    let save = meeple::save::SaveFile::read(&path).expect("a version 3 stream reads");
    assert!(!save.always_ask);
    let game = save.restore(gifts(false), &mut |_, _| {}).expect("replays");
    assert_eq!((game.decisions(), game.to_decide()), (1, Some(1)));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_old_save_with_a_choice_of_one_option_still_loads() {
    // Format 1 and 2 saves recorded the choice of one option as a decision: they replay with
    // every choice asked, and end where they ended.
    let old = r#"{"format": 1, "rules": "gifts.rules", "variants": [], "game": "Gifts",
        "players": 2, "seed": 1,
        "decisions": [{"player": "P1", "choice": "give"}, {"player": "P1", "choice": "P2"},
                      {"player": "P2", "choice": "keep"}]}"#;
    let save = meeple::save::SaveFile::parse(old).expect("an old save parses");
    assert!(save.always_ask);
    let game = save.restore(gifts(false), &mut |_, _| {}).expect("replays");
    assert_eq!(game.decisions(), 3);
    assert!(game.program().always_ask);
    // The same decisions in format 3 do not fit: the gift's target is no decision any more.
    let mut new = save.clone();
    new.format = 3;
    new.always_ask = false;
    assert!(new.restore(gifts(false), &mut |_, _| {}).is_err());
    // A format 3 save of this game has no decision for it, and replays.
    new.decisions.remove(1);
    let game = new.restore(gifts(false), &mut |_, _| {}).expect("replays");
    assert_eq!(game.decisions(), 2);
    assert_eq!(game.to_decide(), Some(0));
    // A save of a game that asks every choice says so, and replays the same.
    let saved =
        meeple::save::SaveFile::of_game(&game_asking(), "gifts.rules", &[], None).expect("saves");
    assert!(saved.always_ask && saved.format == 3);
    let again = saved
        .restore(gifts(false), &mut |_, _| {})
        .expect("replays");
    assert_eq!(again.decisions(), 2);
}

/// A game whose winners are found by a tie-break that fails (a division by zero) if it is read:
/// `lead` points go to the first seat before the only turn.
fn tie_break_game(lead: i64) -> Arc<meeple::ir::Program> {
    let src = format!(
        "game \"Tie-breaks\" {{ players 3 }}\n\
         player var points: int = 0\n\
         player var zero: int = 0\n\
         flow {{\n  let first = at_seat(1)\n  first.points = {lead}\n  turn at_seat(2)\n}}\n\
         action wait \"Wait\" {{ }}\n\
         winners = top(p in players by p.points, 10 / p.zero)\n"
    );
    let loaded = check_source("tie_breaks.rules", &src);
    Arc::new(
        loaded
            .program
            .unwrap_or_else(|| panic!("errors: {:?}", loaded.diagnostics)),
    )
}

#[test]
fn a_later_key_of_top_is_read_only_for_the_elements_still_tied() {
    // The first key decides: the second is never read, so it cannot fail.
    let game = meeple::sim::random_game(tie_break_game(5), 3, 1).expect("the first key decides");
    assert_eq!(game.outcome().expect("over").winners, vec![0]);
    // Everyone tied on the first key: the second is read, and fails.
    let err = meeple::sim::random_game(tie_break_game(0), 3, 1).expect_err("a tie reads on");
    assert!(err.to_string().contains("division-by-zero"), "{err}");
}

/// Bounded numbers are clamped on every kind of assignment: set, added, taken; a write of any
/// other value (a truth value, a player, an enum value, an instance, `none`) lands as it is.
const ASSIGNMENTS: &str = r#"
game "Assignments" { players 2 }
enum colour { red, blue }
kind token[2] { }
var low: int in 0..5 = 3
var high: int in 0..5 = 3
var set_high: int in 0..5 = 0
var set_low: int in 0..5 = 5
var flag: bool = false
var who: player = none
var hue: colour = red
var held: token = none
var gone: token = none
flow {
  low -= 10
  high += 10
  set_high = 9
  set_low = -4
  flag = true
  who = last(players)
  hue = blue
  held = last(token)
  gone = first(token)
  gone = none
  turn first(players)
}
action pass { }

scenario "each place holds what was written, numbers within their bounds" {
  expect low == 0 and high == 5 and set_high == 5 and set_low == 0
  expect flag and who == last(players) and hue == blue
  expect held == last(token) and gone == none
}
"#;

#[test]
fn assignments_clamp_numbers_and_write_other_values_as_they_are() {
    scenarios_pass(ASSIGNMENTS);
}

const GOAL_BASE: &str = r#"
game "Goals" { players 2 }

player var points: int = 0
var pot: int = 0

flow {
  for p in players {
    turn p
  }
}

action give(n: int in 1..3) "Put n into the shared pot and 3 - n into your own points" {
  pot += n
  me.points += 3 - n
}

score(p) = p.points
"#;

#[test]
fn a_goal_is_checked_and_shared_when_it_reads_no_seat() {
    let goal = |line: &str| {
        let loaded = check_source("t.rules", &format!("{GOAL_BASE}{line}\n"));
        let codes = codes(&loaded);
        (codes, loaded.program.and_then(|p| p.goal.map(|g| g.shared)))
    };
    assert_eq!(goal("goal(p) = pot"), (vec![], Some(true)));
    assert_eq!(goal("goal(p) = p.points"), (vec![], Some(false)));
    // Read through a def's argument, the seat still counts.
    assert_eq!(
        goal("def own(q: player): int = q.points\ngoal(p) = own(p) + pot"),
        (vec![], Some(false))
    );
    assert_eq!(goal(""), (vec![], None));
    assert_eq!(
        goal("goal(p) = p == first(players)").0,
        vec!["type-mismatch"]
    );
    // Each of two goals is pointed at, as with two scores.
    assert_eq!(
        goal("goal(p) = pot\ngoal(q) = q.points").0,
        vec!["duplicate-definition", "duplicate-definition"]
    );
    // A name `goal` of the designer's own is still free: `goal` opens a declaration only.
    assert_eq!(
        goal("def goal(): int = 3\ngoal(p) = goal()").0,
        Vec::<&str>::new()
    );
}

#[test]
fn the_search_bot_plays_for_the_goal_declared() {
    use meeple::bots::BotKind;
    use meeple::engine::Game;
    // What P1's search gives, with `goal` as written (or none): n = 1 keeps 2 points, n = 3
    // puts 3 in the pot.
    let first_gift = |line: &str| {
        let program = check_source("t.rules", &format!("{GOAL_BASE}{line}\n"))
            .program
            .expect("checks");
        let program = Arc::new(program);
        let mut picks = Vec::new();
        for seed in 1..=5 {
            let game = Game::new(program.clone(), 2, seed).expect("starts");
            let mut bot = BotKind::Mcts(meeple::bots::MctsConfig {
                iterations: 200,
                depth: None,
                worlds: meeple::bots::DEFAULT_WORLDS,
                random_playouts: false,
            })
            .policy(seed, 0);
            let index = bot.decide(&game, 0);
            picks.push(game.option_label(0, index).expect("an option"));
        }
        picks
    };
    let all = |label: &str| vec![label.to_string(); 5];
    // To win (no goal), a seat keeps points; for its own points, the same.
    assert_eq!(first_gift(""), all("give 1"));
    assert_eq!(first_gift("goal(p) = p.points"), all("give 1"));
    // For a pot shared by all, it gives all it can; for the other seat's points, too.
    assert_eq!(first_gift("goal(p) = pot"), all("give 3"));
    assert_eq!(
        first_gift("goal(p) = sum(q.points for q in players where q != p) - p.points"),
        all("give 3")
    );
}

/// Players out of the game (`eliminate`): the fixture's own scenarios say that a player shot out
/// before their turn is skipped, that `players`, `next` and a `player` parameter leave them out,
/// and that the winner is found among the players still in.
#[test]
fn players_out_of_the_game_are_skipped_and_cannot_win() {
    scenarios_pass(include_str!("fixtures/ok/duel_circle.rules"));
}

/// A turn of a player who is out is skipped on the fast path too (where the decision is taken as
/// it arises), and the playout plays the same game as a full one.
#[test]
fn a_playout_skips_players_out_of_the_game_as_a_full_game_does() {
    let src = include_str!("fixtures/ok/duel_circle.rules");
    let program = Arc::new(
        check_source("duel_circle.rules", src)
            .program
            .expect("clean"),
    );
    let mut eliminated = 0;
    for players in 3..=5 {
        for seed in 1..=12 {
            let full = meeple::sim::random_game(program.clone(), players, seed).expect("plays");
            let fast = meeple::sim::random_playout(program.clone(), players, seed).expect("plays");
            let at = format!("{players} players, seed {seed}");
            assert_eq!(fast.decisions(), full.history().len(), "{at}");
            assert_eq!(fast.outcome(), full.outcome(), "{at}");
            assert_eq!(fast.state(), full.state(), "{at}");
            assert_eq!(fast.eliminated(), full.eliminated(), "{at}");
            let outcome = full.outcome().expect("over");
            for (seat, _) in full.eliminated() {
                assert!(!outcome.winners.contains(seat), "{at}: {outcome:?}");
            }
            eliminated += full.eliminated().len();
        }
    }
    assert!(eliminated > 10, "only {eliminated} players were put out");
}

const LAST_OUT: &str = r#"
game "Last Out" { players 3 }

player var points: int = 0
var asked: bool = false

flow {
  for p in players {
    p.points = seat(p)
  }
  eliminate at_seat(3)
  eliminate at_seat(3) "again: nothing changes"
  log "{players} {next(at_seat(2))} {prev(at_seat(1))} {seats_from(at_seat(3))}"
  if asked {
    let ok = ask at_seat(3) "Still there?"
  }
  eliminate at_seat(1) "first"
  eliminate at_seat(2) "second"
  log "never written: the game is over"
}

scenario "the last player put out ends the game, and nobody wins" {
  players 3
  expect game over
  expect winners == []
  expect players == [] and count(all_players) == 3
  expect next(P1) == none and prev(P3) == none and others(P2) == []
}
"#;

#[test]
fn the_last_player_out_ends_the_game_and_nobody_wins() {
    scenarios_pass(LAST_OUT);
    let program = Arc::new(check_source("last.rules", LAST_OUT).program.expect("clean"));
    let game = meeple::sim::random_game(program, 3, 1).expect("plays");
    let log = game.log(meeple::engine::Viewer::Spectator).join("\n");
    assert!(log.contains("P3 is out of the game\n"), "{log}");
    assert!(log.contains("[P1, P2] P1 P2 [P1, P2]"), "{log}");
    assert!(log.contains("P1 is out of the game: first"), "{log}");
    assert!(!log.contains("again"), "{log}");
    assert!(log.contains("The game ends: everyone is out"), "{log}");
    assert!(!log.contains("never written"), "{log}");
    let eliminated: Vec<u8> = game.eliminated().iter().map(|(s, _)| *s).collect();
    assert_eq!(eliminated, [2, 0, 1]);
    let view = game.view(meeple::engine::Viewer::Spectator);
    assert!(view.contains("P1 (out): points 1"), "{view}");
}

#[test]
fn a_choice_put_to_a_player_out_of_the_game_stops_it() {
    let src = LAST_OUT.replace("var asked: bool = false", "var asked: bool = true");
    let program = Arc::new(check_source("asked.rules", &src).program.expect("clean"));
    let failure = meeple::sim::random_game(program, 3, 1)
        .err()
        .map(|e| format!("{e:?}"))
        .unwrap_or_default();
    assert!(failure.contains("eliminated-player"), "{failure}");
    assert!(failure.contains("P3 is out of the game"), "{failure}");
}

#[test]
fn eliminate_mistakes_have_their_codes() {
    let src = r#"
game "Outs" { players 3 }
var all_players: int = 0
flow {
  eliminate players
  eliminate 3
  eliminate first(players)
}
"#;
    let loaded = check_source("outs.rules", src);
    assert_eq!(
        codes(&loaded),
        ["duplicate-definition", "eliminate-list", "type-mismatch"],
        "{:?}",
        loaded.diagnostics
    );
}

const STUCK: &str = r#"
game "Stuck" { players 2 }

player var coins: int = 1
player var passes: int = 0

flow {
  repeat 2 {
    for p in players { turn p }
  }
}

action spend(n: int in 1..2) "Spend coins" {
  require me.coins >= n else "you have {me.coins} coins"
  me.coins -= n
}

action pass "Pass, when you cannot spend" only when no other {
  me.passes += 1
}

action resign "Resign, when you cannot spend" only when no other {
  require me.passes == 0 else "you passed already"
}

score(p) = p.passes
"#;

#[test]
fn an_action_only_when_no_other_waits_for_the_others_to_have_no_move() {
    let loaded = check_source("stuck.rules", STUCK);
    assert_eq!(codes(&loaded), Vec::<&str>::new());
    let mut game =
        meeple::engine::Game::new(Arc::new(loaded.program.expect("clean")), 2, 1).expect("starts");
    let labels = |g: &meeple::engine::Game, p| -> Vec<String> {
        g.options(p).into_iter().map(|o| o.label).collect()
    };
    // A move of `spend` is possible: neither last resort is offered, and `why` names the move.
    assert_eq!(labels(&game, 0), ["spend 1"]);
    assert_eq!(
        game.why(0, "pass").as_deref(),
        Some("another move is possible: spend 1 (`pass` is offered only when no other move is)")
    );
    assert!(game.apply_label(0, "pass").is_err());
    game.apply_label(0, "spend 1").expect("legal");
    game.apply_label(1, "spend 1").expect("legal");
    // No coins: both last resorts, each as its own requirements allow, in their order.
    assert_eq!(labels(&game, 0), ["pass", "resign"]);
    assert_eq!(
        game.why(0, "spend 1").as_deref(),
        Some("you have 0 coins (requires `me.coins >= n`)")
    );
    game.apply_label(0, "pass").expect("legal now");
    // `turn p only` offers what it names: a last resort beside nothing unmarked is offered
    // as is, and warned of.
    let alone = STUCK.replace(
        "for p in players { turn p }",
        "for p in players { turn p only pass }",
    );
    let loaded = check_source("stuck.rules", &alone);
    assert_eq!(
        codes(&loaded),
        [
            "unused-definition",
            "needless-no-other",
            "unused-definition"
        ]
    );
    let game =
        meeple::engine::Game::new(Arc::new(loaded.program.expect("checks")), 2, 1).expect("starts");
    assert_eq!(labels(&game, 0), ["pass"]);
    // The words are no reserved names.
    let named = STUCK.replace(
        "player var passes",
        "player var other: int = 0\nplayer var passes",
    );
    assert_eq!(
        codes(&check_source("stuck.rules", &named)),
        ["unused-definition"]
    );
}

#[test]
fn ranges_bounded_in_play_count_toward_the_move_limit_with_their_values_now() {
    let src = |coins: &str| {
        format!(
            "game \"Two\" {{ players 2 }}\nplayer var coins: int = {coins}\n\
             flow {{ for p in players {{ turn p }} }}\n\
             action pay(n: int in 1..me.coins, m: int in 1..me.coins) {{ }}\n\
             score(p) = p.coins\n"
        )
    };
    let game = |coins: &str| {
        let loaded = check_source("two.rules", &src(coins));
        meeple::engine::Game::new(Arc::new(loaded.program.expect("clean")), 2, 1)
    };
    // 9 moves, not the 1000 x 1000 the ranges could reach.
    assert_eq!(game("3").expect("starts").options(0).len(), 9);
    // 400 x 400 is past the 100,000 moves a turn may try.
    match game("400") {
        Err(e) => assert_eq!(e.code, "move-limit", "{e:?}"),
        Ok(_) => panic!("160,000 moves were listed"),
    }
}

const SETS: &str = r#"
game "Sets" { players 3 }

enum gem { red shown as "R", black shown as "K", white shown as "W" }
kind chip[4] { }

player var gems: list of gem = []
player var chips: list of chip = []
var named: list of player = []

flow {
  turn at_seat(1) only take2
  turn at_seat(2) only name
  eliminate at_seat(3)
  turn at_seat(1) only name
  turn at_seat(2) only grab
}

action take2(cs: exactly 2 of gem) "Two different gems" {
  me.gems += cs
}

action name(ps: at most 2 of player) "Name up to two players" {
  named = ps
}

action grab(cs: any of chip) "Any chips" {
  require count(cs) <= 1 else "one chip at most"
  me.chips += cs
}

score(p) = count(p.gems)

scenario "sets of players, gems and chips" {
  play "take2 W R"
  expect P1.gems == [red, white]
  play "name P3 P1"
  expect named == [P1, P3]
  play "name P2"
  play "grab chip-3"
  expect count(P2.chips) == 1
}
"#;

#[test]
fn a_set_parameter_is_one_move_a_set_typed_in_any_order() {
    scenarios_pass(SETS);
    let loaded = check_source("sets.rules", SETS);
    let program = Arc::new(loaded.program.expect("checks"));
    let mut game = meeple::engine::Game::new(program, 3, 1).expect("starts");
    let labels: Vec<String> = game.options(0).into_iter().map(|o| o.label).collect();
    assert_eq!(labels, ["take2 R K", "take2 R W", "take2 K W"]);
    assert_eq!(game.why(0, "take2 w  k"), None);
    assert!(game.why(0, "take2 K K").is_some());
    assert!(game.why(0, "take2 R").is_some());
    game.apply_label(0, "take2 [W, K]").expect("any order");
    assert_eq!(
        game.history()[0].choice,
        "take2 K W",
        "recorded in its canonical order"
    );
    // Every set of at most 2 of 3 players: none, three singles, three pairs.
    assert_eq!(game.options(1).len(), 7);
    assert_eq!(game.options(1)[0].label, "name none");
    game.apply_label(1, "name P3 P2").expect("legal");
    // P3 is out of the game: no set names them any more.
    let labels: Vec<String> = game.options(0).into_iter().map(|o| o.label).collect();
    assert_eq!(labels, ["name none", "name P1", "name P2", "name P1 P2"]);
    game.apply_label(0, "name none").expect("legal");
    // A requirement reads the set: of every set of chips, those of at most one are offered.
    assert_eq!(game.options(1).len(), 5);
    assert!(game
        .why(1, "grab chip-2 chip-1")
        .unwrap()
        .contains("one chip at most"));
}

#[test]
fn set_parameters_are_checked() {
    let cases = [
        ("x: exactly 4 of gem", "choose-count-too-large"),
        ("x: at most -1 of gem", "choose-count-negative"),
        ("x: exactly n of gem", "not-constant"),
        ("x: exactly 3 of int in 1..30", "infinite-domain"),
        ("x: exactly 2 of int in 1..me.n", "set-parameter"),
        ("x: any of list of gem", "set-parameter"),
    ];
    for (param, code) in cases {
        let src = format!(
            r#"
game "Sets" {{ players 2 }}
enum gem {{ red, black, white }}
player var n: int in 0..5 = 3
flow {{ for p in players {{ turn p }} }}
action a({param}) {{ }}
"#
        );
        let loaded = check_source("sets.rules", &src);
        assert!(
            codes(&loaded).contains(&code),
            "{param}: {:?}",
            loaded.diagnostics
        );
    }
    // Ten values, three at a time: 120 sets, few enough.
    let src = r#"
game "Sets" { players 2 }
flow { for p in players { turn p } }
action a(x: exactly 3 of int in 1..10) { }
"#;
    let loaded = check_source("sets.rules", src);
    assert!(loaded.program.is_some(), "{:?}", loaded.diagnostics);
}

const TEMPURA: &str = r#"
game "Tempura" { players 2 }

enum dish { tempura, sashimi }

kind card[6] shown as "{it.dish}" {
  dish: dish = if index <= 4 then tempura else sashimi
  hidden face: int = index
}

player var hand: list of card = []

setup {
  let p = at_seat(1)
  for c in card {
    p.hand += c
  }
  p.hand -= nth(card, 1)
}

flow {
  secretly each p in players choose c "Show which?" from [x in card where x.dish == sashimi] then { }
  turn at_seat(1)
}

action eat(c: card) "Eat a card" {
  require c in me.hand else "not in hand"
  me.hand -= c
}

score(p) = count(p.hand)
"#;

#[test]
fn identical_items_are_typed_by_their_name_and_listed_once() {
    let loaded = check_source("tempura.rules", TEMPURA);
    let program = Arc::new(loaded.program.expect("checks"));
    let mut game = meeple::engine::Game::new(program, 2, 1).expect("starts");
    // A secret choice between two sashimi whose hidden faces differ: alike to the chooser.
    assert_eq!(game.first_alike(0), [0, 0]);
    game.apply_label(0, "sashimi")
        .expect("the name of alike cards");
    game.apply_label(1, "sashimi#2")
        .expect("a label still names its card");
    // A move's argument: tempura#2, #3, #4 alike; sashimi and sashimi#2 alike.
    assert_eq!(game.first_alike(0), [0, 0, 0, 3, 3]);
    assert_eq!(game.why(0, "eat tempura"), None);
    assert!(game.why(0, "eat salmon").is_some());
    game.apply_label(0, "eat tempura").expect("legal");
    let last = game.history().last().expect("recorded");
    assert_eq!(
        last.choice, "eat tempura#2",
        "the first in the options, by its label"
    );
    assert_eq!(game.history()[0].choice, "sashimi", "the first sashimi");
}

const WINDOW: &str = r#"
game "Window" { players 3 }

player var money: int = 9
var bid: int = 0
var leader: player = none
var asked: list of player = []

flow {
  window players only raise, decline until decline
  log "sold at {bid}"
}

action raise {
  require leader != me else "you lead already"
  require me.money > bid else "too poor"
  asked += me
  bid += 1
  leader = me
}

action decline {
  asked += me
}

score(p) = p.money

scenario "a raise restarts the round of declines" {
  players 3
  play P1 "decline"
  play P2 "decline"
  play P3 "raise"           # two declines, then a raise: P1 and P2 are asked again
  play P1 "decline"
  play P2 "raise"
  play P3 "decline"
  play P1 "decline"
  expect refused P2 "raise" because "you lead already"
  play P2 "decline"          # a full round since P2's raise: closed
  expect asked == [P1, P2, P3, P1, P2, P3, P1, P2]
  expect bid == 2
  expect leader == P2
}

scenario "a full round of declines at once closes the window" {
  players 3
  play P1 "decline"
  play P2 "decline"
  play P3 "decline"
  expect asked == [P1, P2, P3]
  expect bid == 0
}
"#;

#[test]
fn a_window_closes_after_a_full_round_of_declines_and_a_raise_restarts_it() {
    scenarios_pass(WINDOW);
}

#[test]
fn a_window_closes_once_nobody_can_move() {
    // Nobody may decline: every seat is passed over, and the flow goes on.
    let src = WINDOW
        .replace(
            "action decline {",
            "action decline {\n  require false else \"never\"",
        )
        .replace("player var money: int = 9", "player var money: int = 0")
        .split("scenario")
        .next()
        .unwrap()
        .to_string()
        + "scenario \"closed\" {\n  players 3\n  expect bid == 0\n  expect asked == []\n}\n";
    scenarios_pass(&src);
}

#[test]
fn a_window_must_list_its_declining_action() {
    let src = WINDOW.replace("only raise, decline until", "only raise until");
    let loaded = check_source("test.rules", &src);
    assert!(
        codes(&loaded).contains(&"window-decline"),
        "{:?}",
        loaded.diagnostics
    );
}

#[test]
fn a_window_passes_over_a_seat_taken_out_during_it() {
    // The seats are read as the window opens: P2 keeps its place, passed over as declining.
    let src = WINDOW
        .replace(
            "action decline {",
            "action quit {\n  asked += me\n  eliminate me \"quits\"\n}\n\naction decline {",
        )
        .replace(
            "only raise, decline until",
            "only raise, quit, decline until",
        )
        .split("scenario")
        .next()
        .unwrap()
        .to_string()
        + r#"scenario "P2 quits" {
  players 3
  play P1 "raise"
  play P2 "quit"
  play P3 "decline"
  play P1 "decline"
  expect asked == [P1, P2, P3, P1]
  expect bid == 1
}
"#;
    scenarios_pass(&src);
}

#[test]
fn a_seat_passed_over_in_a_window_is_said_aloud() {
    // P2 may neither raise (no money) nor decline (public: its money is shown): passed over.
    let src = WINDOW
        .replace(
            "action decline {",
            "action decline {\n  require me.money > 0 else \"broke\"",
        )
        .split("scenario")
        .next()
        .unwrap()
        .to_string()
        + "setup {\n  let p2 = nth(players, 2)\n  p2.money = 0\n}\n";
    let loaded = check_source("test.rules", &src);
    let program = Arc::new(
        loaded
            .program
            .unwrap_or_else(|| panic!("errors: {:?}", loaded.diagnostics)),
    );
    let mut game = meeple::engine::Game::new(program, 3, 1).expect("starts");
    game.apply_label(0, "decline").expect("P1 declines");
    use meeple::engine::Viewer;
    let lines: Vec<String> = game
        .log_lines(Viewer::Spectator)
        .into_iter()
        .map(|l| l.text)
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l == "P2 has no move and is passed over"),
        "{lines:?}"
    );
    // P3 is asked next, as the line says.
    game.apply_label(2, "decline").expect("P3 is asked");
}

#[test]
fn a_window_whose_closing_action_reads_a_secret_is_refused() {
    // Passing P2 over would tell everyone that its secret purse is empty.
    let src = WINDOW
        .replace(
            "player var money: int = 9",
            "player var money: int = 9\nplayer secret var purse: int = 1",
        )
        .replace(
            "action decline {",
            "action decline {\n  require me.purse > 0 else \"empty purse\"",
        );
    let loaded = check_source("test.rules", &src);
    let found: Vec<_> = loaded
        .diagnostics
        .0
        .iter()
        .filter(|d| d.code == "window-hidden-pass")
        .collect();
    assert_eq!(found.len(), 1, "{:?}", loaded.diagnostics);
    assert!(found[0].is_error());
    // The same requirement on a public value is no secret: checked clean.
    let public = src.replace("me.purse > 0", "me.money > 0");
    let loaded = check_source("test.rules", &public);
    assert!(
        !codes(&loaded).contains(&"window-hidden-pass"),
        "{:?}",
        loaded.diagnostics
    );
    // A range read from the secret hides the legality as well.
    let ranged = WINDOW
        .replace(
            "player var money: int = 9",
            "player var money: int = 9\nplayer secret var purse: int = 1",
        )
        .replace(
            "action decline {",
            "action decline(n: int in 1..me.purse) {",
        );
    let loaded = check_source("test.rules", &ranged);
    assert!(
        codes(&loaded).contains(&"window-hidden-pass"),
        "{:?}",
        loaded.diagnostics
    );
}

const POSITIONS: &str = r#"
game "Positions" { players 2 }

enum colour { red, blue }
player var hand: list of int = [3, 1, 4]
player var told: list of colour = [red, blue, red]
var last_read: int = 0

flow {
  last_read = first(players).hand[count(first(players).hand)]
}

scenario "an index reads the element at its position, from 1" {
  expect P1.hand[1] == 3 and P1.hand[3] == 4 and P1.told[2] == blue
  expect [10, 20, 30][2] == 20 and last_read == 4
  expect -P1.hand[1] == -3 and P1.hand[1 + 1] * 2 == 2
}
"#;

#[test]
fn an_index_reads_a_position_and_one_outside_stops_the_game() {
    scenarios_pass(POSITIONS);
    let loaded = check_source(
        "test.rules",
        &POSITIONS.replace("count(first(players).hand)]", "0]"),
    );
    let program = Arc::new(loaded.program.expect("checks"));
    let reports = meeple::scenario::run_all(&program);
    let failure = format!("{:?}", reports[0].failure);
    assert!(
        failure.contains("out-of-range") && failure.contains("position 0 of a list of 3"),
        "{failure}"
    );
}

#[test]
fn an_index_of_what_is_not_a_list_or_by_what_is_not_a_number_is_refused() {
    let bad = POSITIONS.replace("P1.told[2]", "P1.told[blue]");
    assert_eq!(codes(&check_source("test.rules", &bad)), ["type-mismatch"]);
    let bad = POSITIONS.replace("last_read = first(players).hand[", "last_read = last_read[");
    assert_eq!(codes(&check_source("test.rules", &bad)), ["not-indexable"]);
}

const UPDATES: &str = r#"
game "Updates" { players 2 }

enum colour { red, blue }
kind stack[2] { tower: list of int = [1, 2, 3] }
player var hand: list of int = [3, 1, 4]
player var told: list of colour = [red, blue, red]
var board: list of int = [0, 0]

action mark(i: int in 1..3) {
  me.told[i] = blue
  me.hand[i] += 10
}

flow {
  let xs = [5, 6]
  xs[2] = 7
  board[1] = xs[2]
  board[2] -= 4
  let s = first(stack)
  s.tower[3] = 30
  turn first(players)
}

scenario "an element of a local, a variable, a player's variable and a field is set" {
  expect board == [7, -4]
  expect first(stack).tower == [1, 2, 30] and last(stack).tower == [1, 2, 3]
  play P1 "mark 1"
  expect P1.hand == [13, 1, 4] and P1.told == [blue, blue, red] and P2.hand == [3, 1, 4]
}
"#;

#[test]
fn an_element_is_set_added_to_or_taken_from_at_its_position() {
    scenarios_pass(UPDATES);
    let outside = UPDATES.replace("board[2] -= 4", "board[3] -= 4");
    let failure = first_failure(&outside);
    assert!(failure.contains("position 3 of a list of 2"), "{failure}");
}

#[test]
fn an_element_written_is_checked_against_the_list_s_elements() {
    for (from, to, code) in [
        ("me.told[i] = blue", "me.told[i] = 3", "type-mismatch"),
        ("me.told[i] = blue", "me.told[blue] = blue", "type-mismatch"),
        ("me.told[i] = blue", "me.told[i] += 1", "type-mismatch"),
        ("board[2] -= 4", "board[2] -= red", "type-mismatch"),
        ("board[1] = xs[2]", "board[1] = xs", "type-mismatch"),
        ("s.tower[3] = 30", "s[1] = 30", "not-indexable"),
        ("board[1] = xs[2]", "nobody[1] = 2", "unknown-name"),
    ] {
        let bad = UPDATES.replace(from, to);
        assert_eq!(codes(&check_source("test.rules", &bad)), [code], "{to}");
    }
}

/// The first scenario's failure in `src`, which must check.
fn first_failure(src: &str) -> String {
    let program = Arc::new(check_source("test.rules", src).program.expect("checks"));
    format!("{:?}", meeple::scenario::run_all(&program)[0].failure)
}

/// `src`'s scenarios pass; `outside` (from, to, message) makes its first scenario stop with
/// that message; each mistake (from, to, code) is refused with that code alone.
fn assert_stops_and_refuses(src: &str, outside: [&str; 3], mistakes: &[(&str, &str, &str)]) {
    scenarios_pass(src);
    let failure = first_failure(&src.replace(outside[0], outside[1]));
    assert!(failure.contains(outside[2]), "{failure}");
    for (from, to, code) in mistakes {
        let bad = src.replace(from, to);
        assert_ne!(bad, src, "{from}");
        assert_eq!(codes(&check_source("test.rules", &bad)), [*code], "{to}");
    }
}

const NESTED: &str = r#"
game "Nested" { players 2 }

enum gem { red, blue }
player var rows: list of list of int = [[1, 2], [3, 4]]
var piles: list of int by gem = [[5], [6, 7]]

action mark(i: int in 1..2) {
  me.rows[i][2] += 10
}

flow {
  let g = [[0], [0, 0]]
  g[2][2] = 8
  piles[blue][2] -= 1
  piles[red][1] = g[2][2]
  turn first(players)
}

scenario "an element of an element is set, in a local, a map and a player's variable" {
  expect piles[red] == [8] and piles[blue] == [6, 6]
  play P1 "mark 2"
  expect P1.rows == [[1, 2], [3, 14]] and P2.rows == [[1, 2], [3, 4]]
}
"#;

#[test]
fn an_element_of_an_element_is_set_and_every_level_is_checked() {
    // A position outside the inner list stops the game, naming that list.
    assert_stops_and_refuses(
        NESTED,
        [
            "piles[blue][2] -= 1",
            "piles[blue][3] -= 1",
            "position 3 of a list of 2",
        ],
        &[
            (
                "me.rows[i][2] += 10",
                "me.rows[i][2][1] += 10",
                "not-indexable",
            ),
            (
                "me.rows[i][2] += 10",
                "me.rows[i][blue] += 10",
                "type-mismatch",
            ),
            ("g[2][2] = 8", "g[2][2] = red", "type-mismatch"),
            (
                "piles[red][1] = g[2][2]",
                "piles[1][1] = g[2][2]",
                "wrong-map-key",
            ),
        ],
    );
}

const REMOVALS: &str = r#"
game "Removals" { players 2 }

enum colour { red, blue, green }
kind stack[1] { tower: list of int = [1, 2, 3] }
player var hand: list of int = [3, 1, 4]
player var told: list of colour = [red, blue, green]
var taken: list of int = []
var remove: int = 0

action play(i: int in 1..3) {
  let c = pop me.hand at i
  remove me.told at i
  taken += c
}

flow {
  let xs = [5, 6, 7]
  let middle = pop xs at 2
  taken += middle
  taken += xs
  let s = first(stack)
  remove s.tower at 1
  remove = 1
  turn first(players)
}

scenario "an element is taken out at its position, named or dropped" {
  expect taken == [6, 5, 7] and first(stack).tower == [2, 3] and remove == 1
  play P1 "play 2"
  expect P1.hand == [3, 4] and P1.told == [red, green] and last(taken) == 1
  expect P2.hand == [3, 1, 4]
}
"#;

#[test]
fn pop_at_and_remove_at_take_the_element_at_a_position() {
    assert_stops_and_refuses(
        REMOVALS,
        [
            "remove s.tower at 1",
            "remove s.tower at 4",
            "position 4 of a list of 3",
        ],
        &[
            ("pop xs at 2", "pop 2 of xs at 2", "pop-count-and-position"),
            ("pop xs at 2", "pop xs at red", "type-mismatch"),
            ("remove s.tower at 1", "remove remove at 1", "type-mismatch"),
            (
                "remove s.tower at 1",
                "remove s.tower at none",
                "type-mismatch",
            ),
            ("remove s.tower at 1", "remove s at 1", "type-mismatch"),
        ],
    );
}

const MAPS: &str = r#"
game "Maps" { players 2 }

enum gem { red, blue, black }
enum suit { hearts, spades }
kind crate[2] { load: int by gem = [1, 2, 3] }
player var gems: int by gem = 0
player secret var hidden_gems: int by gem = 2
var bank: int by gem = [4, 4, 2]
var seen: bool by gem = false
player var piles: list of int by suit = []
show bank_now = bank

action take(c: gem) {
  me.gems[c] += 1
  bank[c] -= 1
  seen[c] = true
  me.piles[hearts] = me.piles[hearts] + [count(me.piles[hearts]) + 1]
}

flow {
  let m = bank
  m[red] = 9
  let s = first(crate)
  s.load[blue] -= 2
  log "m is {m}, the bank {bank}, {sum(m)} in all"
  for p in players {
    p.gems[red] = 2
  }
  turn first(players)
}

scenario "an entry is read and changed by its key" {
  expect bank[red] == 4 and first(crate).load == last(crate).load == false
  expect first(crate).load[blue] == 0 and last(crate).load[blue] == 2
  play P1 "take black"
  expect P1.gems[black] == 1 and P1.gems[red] == 2 and P2.gems[black] == 0
  expect bank[black] == 1 and seen[black] and not seen[red]
  expect sum(P1.gems) == 3 and max(P1.gems) == 2 and count(P1.gems) == 3
  expect P1.piles[hearts] == [1] and P1.piles[spades] == []
}

scenario "a map is set whole by one value or one value per key" {
  set P2.gems = [0, 3, 0]
  expect P2.gems[blue] == 3 and sum(P2.gems) == 3
  set P2.gems = 5
  expect sum(P2.gems) == 15 and P2.gems == P1.gems == false
}
"#;

#[test]
fn a_map_is_read_and_changed_by_its_enum_s_values() {
    scenarios_pass(MAPS);
}

#[test]
fn a_map_shows_as_its_entries_and_hides_them_with_its_variable() {
    let program = Arc::new(check_source("test.rules", MAPS).program.expect("checks"));
    let game = meeple::engine::Game::new(program, 2, 1).expect("starts");
    let log = game.log(meeple::engine::Viewer::Spectator).join("\n");
    assert!(
        log.contains("m is red 9, blue 4, black 2, the bank red 4, blue 4, black 2, 15 in all"),
        "{log}"
    );
    let spectator = game.view(meeple::engine::Viewer::Spectator);
    assert!(
        spectator.contains("gems red 2, blue 0, black 0"),
        "{spectator}"
    );
    assert!(
        spectator.contains("seen red no, blue no, black no"),
        "{spectator}"
    );
    assert!(!spectator.contains("hidden_gems red"), "{spectator}");
    let owner = game.view(meeple::engine::Viewer::Player(0));
    assert!(
        owner.contains("hidden_gems red 2, blue 2, black 2"),
        "{owner}"
    );
}

#[test]
fn a_map_s_mistakes_have_their_codes() {
    for (from, to, code) in [
        ("me.gems[c] += 1", "me.gems[1] += 1", "wrong-map-key"),
        ("me.gems[c] += 1", "me.gems[hearts] += 1", "wrong-map-key"),
        (
            "expect bank[red] == 4",
            "expect bank[none] == 4",
            "wrong-map-key",
        ),
        (
            "expect bank[red] == 4",
            "expect bank[1] == 4",
            "wrong-map-key",
        ),
        (
            "var bank: int by gem",
            "var bank: int by seen",
            "map-key-not-enum",
        ),
        ("= [4, 4, 2]", "= [4, 4]", "map-size"),
        ("= [4, 4, 2]", "= true", "type-mismatch"),
        ("m[red] = 9", "m[red] = red", "type-mismatch"),
        ("m[red] = 9", "m = [1, 2, 3, 4]", "map-size"),
        ("m[red] = 9", "m += [1]", "type-mismatch"),
        ("m[red] = 9", "remove m at 1", "type-mismatch"),
        ("{sum(m)} in all", "{nth(m, 1)} in all", "type-mismatch"),
        (
            "action take(c: gem)",
            "action take(c: gem, m: int by gem)",
            "infinite-domain",
        ),
    ] {
        assert_mistake(MAPS, from, to, code);
    }
}

const RANGE_MAPS: &str = r#"
game "Lanes" { players 2 }

enum gem { red, blue }
var lanes: int by 1..4 = [0, 2, 0, 1]
var shifted: int by -1..1 = 5
player var gems: int in 0..3 by gem = 0
var marks: int in 0..2 by 1..3 = 9

action push(k: int in 1..5) "push a lane" {
  lanes[k] += 1
  marks[2] += 1
  me.gems[red] += 2
  log "{me} pushes {k}: lanes {lanes}, marks {marks}"
}

flow {
  for k in 1..3 {
    shifted[k - 2] = k
  }
  turn first(players)
  turn last(players)
}

scenario "a map by a range is read, written and updated by its keys" {
  expect lanes[2] == 2 and lanes[4] == 1 and sum(lanes) == 3
  expect shifted[-1] == 1 and shifted[0] == 2 and shifted[1] == 3
  expect marks[1] == 2 and marks[3] == 2
  play P1 "push 3"
  expect lanes[3] == 1 and lanes[2] == 2 and sum(lanes) == 4
  expect P1.gems[red] == 2 and P1.gems[blue] == 0
}

scenario "bounded entries are clamped one by one" {
  set P1.gems = [7, -2]
  expect P1.gems[red] == 3 and P1.gems[blue] == 0
  play P1 "push 1"
  play P2 "push 1"
  expect lanes[1] == 2 and marks[2] == 2
}
"#;

#[test]
fn a_map_by_a_range_is_read_written_and_updated_by_its_keys() {
    scenarios_pass(RANGE_MAPS);
}

#[test]
fn a_key_outside_a_map_s_range_is_a_clear_error_that_leaves_the_game_as_it_was() {
    let program = Arc::new(
        check_source("test.rules", RANGE_MAPS)
            .program
            .expect("checks"),
    );
    let mut game = meeple::engine::Game::new(program, 2, 1).expect("starts");
    let view = |g: &meeple::engine::Game| g.view(meeple::engine::Viewer::Spectator);
    let before = view(&game);
    assert!(before.contains("lanes 1: 0, 2: 2, 3: 0, 4: 1"), "{before}");
    assert!(before.contains("marks 1: 2, 2: 2, 3: 2"), "{before}");
    let e = game
        .apply_label(0, "push 5")
        .expect_err("key 5 is outside 1..4");
    let meeple::engine::MoveError::Runtime(e) = e else {
        panic!("a rule should fail: {e}");
    };
    assert_eq!(e.code, "out-of-range");
    assert!(
        e.message.contains("5 is not a key of this map"),
        "{}",
        e.message
    );
    assert!(e.help.contains("from 1 to 4"), "{}", e.help);
    let src = RANGE_MAPS;
    assert_eq!(
        &src[e.span.start as usize..e.span.end as usize],
        "k",
        "the key is pointed at"
    );
    // The failing move is undone: `me.gems[red] += 2` and `marks[2] += 1` never ran.
    assert_eq!(view(&game), before);
    game.apply_label(0, "push 4").expect("a key in range");
    let log = game.log(meeple::engine::Viewer::Spectator).join("\n");
    assert!(
        log.contains("P1 pushes 4: lanes 1: 0, 2: 2, 3: 0, 4: 2, marks 1: 2, 2: 2, 3: 2"),
        "{log}"
    );
}

#[test]
fn a_map_by_a_range_s_mistakes_have_their_codes() {
    for (from, to, code) in [
        ("lanes[k] += 1", "lanes[5] += 1", "map-key-out-of-range"),
        ("lanes[k] += 1", "lanes[0] += 1", "map-key-out-of-range"),
        (
            "shifted[k - 2] = k",
            "shifted[-2] = k",
            "map-key-out-of-range",
        ),
        ("lanes[k] += 1", "lanes[red] += 1", "wrong-map-key"),
        (
            "var lanes: int by 1..4",
            "var lanes: int by 4..1",
            "invalid-bounds",
        ),
        (
            "var lanes: int by 1..4",
            "var lanes: int by 1..40000",
            "invalid-bounds",
        ),
        (
            "var lanes: int by 1..4",
            "var lanes: int by 1..count(players)",
            "not-constant",
        ),
        (
            "var lanes: int by 1..4",
            "var lanes: int by 4",
            "map-key-not-enum",
        ),
        ("= [0, 2, 0, 1]", "= [0, 2, 0]", "map-size"),
    ] {
        assert_mistake(RANGE_MAPS, from, to, code);
    }
}

#[test]
fn a_map_s_wrong_size_label_counts_its_values_in_words() {
    for (to, label) in [("= [0]", "1 value"), ("= [0, 2]", "2 values")] {
        let bad = RANGE_MAPS.replace("= [0, 2, 0, 1]", to);
        let loaded = check_source("test.rules", &bad);
        let d = loaded
            .diagnostics
            .0
            .iter()
            .find(|d| d.code == "map-size")
            .unwrap_or_else(|| panic!("{to}: no map-size"));
        assert_eq!(d.label, label, "{to}");
    }
}

const PLAYER_MAPS: &str = r#"
game "Debts" { players 2..4 }

enum gem { red, blue }
var owes: int by player = 0
var start: int by player = by players { 2: [5, 6], 3: [1, 1, 1], 4: [1, 1, 1, 2] }
var bank: int by gem = by players { 2: [4, 5], 3..4: [6, 7] }
player secret var knows: bool by player = false
var held: int in 0..3 by gem by player = 1
var grid: int by 1..3 by 1..2 = [[1, 2, 3], [4, 5, 6]]
var rows: int by 1..2 by 1..2 = [0, 5]
var leader: player = none

action lend(q: player) "lend a coin" {
  require q != me else "you cannot lend to yourself"
  owes[q] += 1
  q.knows[me] = true
  held[me][blue] += 1
  log "{me} lends to {q}: owes {owes}, held {held}"
}

action pay "pay the leader" {
  held[me][red] = 0
  owes[leader] += 1
}

flow {
  grid[2][3] += 10
  for p in all_players {
    owes[p] = seat(p) - 1
  }
  for p in players {
    turn p
  }
}

scenario "a map by player is read, written and updated by its players" {
  players 3
  expect owes[P1] == 0 and owes[P2] == 1 and owes[P3] == 2 and count(owes) == 3
  expect start[P1] == 1 and start[P3] == 1 and count(start) == 3
  expect bank[red] == 6 and bank[blue] == 7
  play P1 "lend P2"
  expect owes[P2] == 2 and sum(owes) == 4
  expect P2.knows[P1] and not P1.knows[P2] and not P2.knows[P3] and count(P3.knows) == 3
  expect held[P1][blue] == 2 and held[P1][red] == 1 and held[P2][blue] == 1
  expect sum(held[P1]) == 3 and count(held) == 3
  set owes = [7, 8, 9]
  expect owes[P3] == 9
}

scenario "a map by player sized for two" {
  expect count(owes) == 2 and start[P1] == 5 and start[P2] == 6
  expect bank[red] == 4 and bank[blue] == 5
  play P1 "lend P2"
  play P2 "lend P1"
  expect held[P2][blue] == 2
  expect grid[2][3] == 16 and grid[1][3] == 3 and sum(grid[1]) == 6
  expect rows[1][2] == 0 and rows[2][1] == 5
}

scenario "the bounds hold every number of every level" {
  set held = 9
  expect held[P1][red] == 3 and held[P2][blue] == 3
  play P1 "lend P2"
  expect held[P1][blue] == 3
}
"#;

#[test]
fn a_map_by_player_and_a_map_of_maps_are_read_and_changed_by_their_keys() {
    scenarios_pass(PLAYER_MAPS);
}

#[test]
fn a_map_by_player_shows_players_by_name_and_hides_with_its_variable() {
    let program = Arc::new(
        check_source("test.rules", PLAYER_MAPS)
            .program
            .expect("checks"),
    );
    let mut game = meeple::engine::Game::new(program.clone(), 3, 1).expect("starts");
    game.apply_label(0, "lend P2").expect("a legal move");
    let log = game.log(meeple::engine::Viewer::Spectator).join("\n");
    assert!(
        log.contains(
            "P1 lends to P2: owes P1 0, P2 2, P3 2, held P1 (red 1, blue 2), P2 (red 1, blue 1), P3 (red 1, blue 1)"
        ),
        "{log}"
    );
    let spectator = game.view(meeple::engine::Viewer::Spectator);
    assert!(spectator.contains("owes P1 0, P2 2, P3 2"), "{spectator}");
    assert!(
        spectator.contains("grid 1: (1: 1, 2: 2, 3: 3), 2: (1: 4, 2: 5, 3: 16)"),
        "{spectator}"
    );
    assert!(!spectator.contains("knows P1"), "{spectator}");
    // The secret matrix: its owner sees every entry, another seat none of them.
    let owner = game.view(meeple::engine::Viewer::Player(1));
    assert!(owner.contains("knows P1 yes, P2 no, P3 no"), "{owner}");
    let other = game.view(meeple::engine::Viewer::Player(2));
    assert!(!other.contains("knows P1 yes"), "{other}");
    // Saved and restored, the game is the same game.
    let saved = meeple::save::SaveFile::of_game(&game, "debts.rules", &[], None).expect("saves");
    let again = meeple::save::SaveFile::parse(&saved.to_json())
        .expect("parses")
        .restore(program, &mut |_, _| {})
        .expect("replays");
    assert_eq!(
        again.view(meeple::engine::Viewer::Referee),
        game.view(meeple::engine::Viewer::Referee)
    );
}

#[test]
fn a_key_that_is_no_player_is_a_clear_error_that_leaves_the_game_as_it_was() {
    let program = Arc::new(
        check_source("test.rules", PLAYER_MAPS)
            .program
            .expect("checks"),
    );
    let mut game = meeple::engine::Game::new(program, 2, 1).expect("starts");
    let before = game.view(meeple::engine::Viewer::Referee);
    let e = game.apply_label(0, "pay").expect_err("the leader is none");
    let meeple::engine::MoveError::Runtime(e) = e else {
        panic!("a rule should fail: {e}");
    };
    assert_eq!(e.code, "no-value");
    assert!(e.message.contains("not a key of this map"), "{}", e.message);
    assert!(e.help.contains("none"), "{}", e.help);
    assert_eq!(
        &PLAYER_MAPS[e.span.start as usize..e.span.end as usize],
        "leader",
        "the key is pointed at"
    );
    // `held[me][red] = 0` ran before the failing key, and is undone with the move.
    assert_eq!(game.view(meeple::engine::Viewer::Referee), before);
}

#[test]
fn a_map_by_player_s_and_a_map_of_maps_mistakes_have_their_codes() {
    for (from, to, code) in [
        (
            "var owes: int by player = 0",
            "var owes: int by player = [1, 2]",
            "map-follows-players",
        ),
        (
            "var owes: int by player",
            "var owes: int by players",
            "map-key-not-enum",
        ),
        ("owes[q] += 1", "owes[1] += 1", "wrong-map-key"),
        ("owes[q] += 1", "owes[red] += 1", "wrong-map-key"),
        (
            "held[me][blue] += 1",
            "held[blue][me] += 1",
            "map-key-order",
        ),
        ("held[me][red] = 0", "held[red][me] = 0", "map-key-order"),
        (
            "expect held[P2][blue] == 2",
            "expect held[blue][P2] == 2",
            "map-key-order",
        ),
        ("held[me][blue] += 1", "held[me][me] += 1", "wrong-map-key"),
        (
            "held[me][blue] += 1",
            "held[me][blue][1] += 1",
            "not-indexable",
        ),
        (
            "= [[1, 2, 3], [4, 5, 6]]",
            "= [[1, 2, 3], [4, 5]]",
            "map-size",
        ),
        ("= [[1, 2, 3], [4, 5, 6]]", "= [[1, 2, 3]]", "map-size"),
        ("= [0, 5]", "= [0, true]", "type-mismatch"),
        ("2: [5, 6], 3:", "2: [5, 6, 7], 3:", "map-size"),
        // A map by an enum from `by players` lists: each list one value per key.
        ("2: [4, 5], 3..4:", "2: [4, 5, 1], 3..4:", "map-size"),
        ("3..4: [6, 7] }", "3..4: [6, true] }", "type-mismatch"),
        ("set owes = [7, 8, 9]", "set owes = [7, 8]", "map-size"),
        (
            "action lend(q: player)",
            "action lend(q: player, m: int by player)",
            "infinite-domain",
        ),
    ] {
        assert_mistake(PLAYER_MAPS, from, to, code);
    }
    // Keys in the wrong order are reported once, not again for the key after.
    let bad = PLAYER_MAPS.replace("held[me][blue] += 1", "held[blue][me] += 1");
    assert_eq!(codes(&check_source("test.rules", &bad)), ["map-key-order"]);
}

/// A local whose first value has no type of its own: its type written after its name.
const TYPED_LOCAL: &str = r#"
game "Best card" { players 2 }

kind card[6] {
  value: int = index * 2 % 7
}

player var kept: list of card = []

action keep "keep the best card no one holds yet" {
  let best: card = none
  let seen: list of card = []
  let r: int = roll d6
  for c in card where not (c in me.kept) {
    seen += c
    if best == none or c.value > best.value {
      best = c
    }
  }
  if best != none and r > 0 {
    me.kept += best
  }
  log "{me} looked at {count(seen)}"
}

die d6: 1..6

flow {
  for p in players { turn p }
}

score(p) = sum(c.value for c in p.kept)

scenario "the best free card is kept, its field read" {
  play P1 "keep"
  expect count(P1.kept) == 1 and first(P1.kept).value == 6
  play P2 "keep"
  expect first(P2.kept).value == 6 and first(P2.kept) == first(P1.kept)
}
"#;

#[test]
fn a_local_s_type_may_be_written_and_none_needs_one() {
    let program = common::program_of(TYPED_LOCAL);
    for r in meeple::scenario::run_all(&program) {
        assert!(r.failure.is_none(), "{}: {:?}", r.title, r.failure);
    }
    // `none` alone gives a local no type, which could hold anything and show no field.
    assert_mistake(
        TYPED_LOCAL,
        "let best: card = none",
        "let best = none",
        "none-needs-type",
    );
    // A value of another type, a chance of another type, and bounds on a local.
    for (from, to) in [
        ("let best: card = none", "let best: card = 3"),
        (
            "let seen: list of card = []",
            "let seen: list of card = [1]",
        ),
        ("let r: int = roll d6", "let r: bool = roll d6"),
        ("let r: int = roll d6", "let r: int in 1..6 = roll d6"),
        ("let best: card = none", "let best: colour = none"),
    ] {
        let got = codes(&check_source("t.rules", &TYPED_LOCAL.replace(from, to)));
        assert!(
            got.contains(&"type-mismatch") || got.contains(&"unknown-type"),
            "{to}: {got:?}"
        );
        assert!(!got.is_empty(), "{to}");
    }
}

/// The mover's own secret, read through a def given `me`: nothing the mover does not know.
const OWN_SECRET_THROUGH_A_DEF: &str = r#"
game "Reserve" { players 2 }

kind card[4] {
  cost: int = index
}

player secret var reserved: list of card = []
var market: list of card = card

def buyable(p: player): list of card = market + p.reserved

action buy(c: card) "buy a card from the market or your reserve" {
  require c in buyable(me) else "not for sale to you"
  market -= c
}

flow {
  for p in players { turn p }
}
"#;

#[test]
fn a_def_given_the_mover_reads_the_mover_s_own_secrets_without_a_warning() {
    let got = codes(&check_source("t.rules", OWN_SECRET_THROUGH_A_DEF));
    assert!(!got.contains(&"hidden-in-check"), "{got:?}");
    // Given another seat, the same def tells the mover that seat's secret (read before a
    // requirement the mover could check, which belongs first).
    let other = OWN_SECRET_THROUGH_A_DEF
        .replace("action buy(c: card)", "action buy(c: card, q: player)")
        .replace("buyable(me)", "buyable(q)")
        .replace(
            "  market -= c",
            "  require q != me else \"yourself\"\n  market -= c",
        );
    let got = codes(&check_source("t.rules", &other));
    assert!(got.contains(&"hidden-in-check"), "{got:?}");
}

#[test]
fn visible_when_on_a_public_variable_or_field_is_warned_of() {
    let src = r#"
game "Open" { players 2 }
kind coin[2] { face: int = index visible when viewer != none }
player var x: int = 0 visible when viewer == owner
var y: int = 0
flow { for p in players { turn p } }
action go { me.x += 1  y += nth(coin, 1).face }
score(p) = p.x
"#;
    let loaded = check_source("open.rules", src);
    let warned = loaded
        .diagnostics
        .0
        .iter()
        .filter(|d| d.code == "visible-when-public")
        .count();
    assert_eq!(warned, 2, "{}", common::report(&loaded));
    let hidden = check_source(
        "open.rules",
        &src.replace("player var x", "player secret var x")
            .replace("face: int", "hidden face: int"),
    );
    assert!(
        hidden
            .diagnostics
            .0
            .iter()
            .all(|d| d.code != "visible-when-public"),
        "{}",
        common::report(&hidden)
    );
}
