//! Views laid out by the designer: texts with conditional and repeated parts (`{if ...}`,
//! `{each ...}`).

use meeple::engine::{Game, Viewer};
use meeple::load::check_source;
use std::sync::Arc;

/// The program of `src`, which must check without errors.
fn program(src: &str) -> Arc<meeple::ir::Program> {
    let loaded = check_source("test.rules", src);
    Arc::new(
        loaded
            .program
            .unwrap_or_else(|| panic!("errors: {:?}", loaded.diagnostics)),
    )
}

/// The codes of `src`'s diagnostics, in order.
fn codes(src: &str) -> Vec<&'static str> {
    check_source("test.rules", src)
        .diagnostics
        .0
        .iter()
        .map(|d| d.code)
        .collect()
}

const GEMS: &str = r#"
game "Gems" { players 2 }

enum gem { white, blue, green }

kind card[2] shown as "{it.tier}:{each g in gem where cost(it, g) > 0 "{g}{cost(it, g)}"}" {
  tier: int = 1
  white_cost: int = 0
  blue_cost: int = 2
  green_cost: int = 1
}

def cost(c: card, g: gem): int =
  if g == white then c.white_cost else if g == blue then c.blue_cost else c.green_cost
def held(p: player, g: gem): int = count(x in p.gems where x == g)

player var gems: list of gem = []

flow {
  log "{first(card)}"
  for p in players {
    if p == first(players) { p.gems = [white, blue, blue] }
    log "{p}: {each g in gem where held(p, g) > 0 "{held(p, g)} {g}" sep ", "}{if count(p.gems) == 0 then "nothing"}."
    log "{p} has {if count(p.gems) > 2 then "many" else if count(p.gems) > 0 then "some" else "none"} ({if count(p.gems) > 0 then 1 else 0})"
    log "{each q in players "[{each g in q.gems "{g}" sep "+"}]" sep " "}"
  }
  turn first(players)
}

action pass "Pass" { }

score(p) = count(p.gems)
"#;

#[test]
fn if_and_each_parts_write_what_holds_and_each_element_kept() {
    let game = Game::new(program(GEMS), 2, 1).expect("starts");
    let log = game.log(Viewer::Spectator);
    let want = [
        "1:blue2green1",
        "P1: 1 white, 2 blue.",
        "P1 has many (1)",
        "[white+blue+blue] []",
        "P2: nothing.",
        "P2 has none (0)",
        "[white+blue+blue] []",
    ];
    assert_eq!(log, want);
}

#[test]
fn a_text_each_over_what_is_not_a_list_and_an_if_over_a_number_are_type_mismatches() {
    let src = r#"
game "X" { players 2 }
flow { log "{each x in 3 "{x}"}{if 2 then "a"}" }
score(p) = 0
"#;
    assert_eq!(codes(src), ["type-mismatch", "type-mismatch"]);
}

#[test]
fn a_text_part_that_is_not_closed_is_a_syntax_error() {
    for body in [
        r#"{each x in players}"#,
        r#"{each x in players "{x}" sep}"#,
        r#"{if true then "a" else 1}"#,
    ] {
        let src = format!("game \"X\" {{ players 2 }}\nflow {{ log \"{body}\" }}\nscore(p) = 0\n");
        assert_eq!(codes(&src), ["syntax-error"], "{body}");
    }
}

#[test]
fn the_reason_of_a_requirement_reads_secrets_inside_each_parts_too() {
    let src = r#"
game "X" { players 2 }
player secret var stash: list of int = [1, 2]
flow { for p in players { turn p } }
action look(at: player) "Look" {
  require at != me else "not {each n in at.stash "{n}"}"
}
score(p) = 0
"#;
    assert_eq!(codes(src), ["hidden-in-check"]);
}

#[test]
fn a_long_each_stops_the_text_rather_than_the_program() {
    let src = r#"
game "X" { players 2 }
var xs: list of int = []
flow {
  repeat 20000 { xs += 12345 }
  log "{each x in xs "{x}" sep ", "}"
}
score(p) = 0
"#;
    let err = Game::new(program(src), 2, 1).expect_err("too long");
    assert_eq!(err.code, "text-too-long");
}
