//! Kinds made from a table (`kind card from dishes by copies`): one instance per copy of each
//! row, in the table's order, each reading its row; the mistakes a designer can make in it;
//! and a variant that replaces the table.

mod common;

use common::{codes, meeple, program_of, stdout};
use meeple::engine::{show, Game};
use meeple::ir::Value;

const MENU: &str = r#"
game "Menu" { players 2 }

enum dish { tempura, sashimi, pudding }

table dishes(dish: dish, copies: int, points: int) {
  (tempura, 2, 2),
  (sashimi, 0, 3),
  (pudding, 3, 1),
}

kind card from dishes by copies shown as "{it.dish}-{it.number}-{it.of_row}" {
  dish: dish = nth(dishes, row).dish
  points: int = nth(dishes, row).points
  number: int = index
  of_row: int = row
}

kind line from dishes {
  dish: dish = nth(dishes, row).dish
}

hidden var deck: list of card = card

flow { for p in players { turn p } }

action take "take a card" {
  let c = pop deck
  log "{me} takes {c.dish}"
}

score(p) = 0
"#;

/// The names of every instance of a kind, in order.
fn names(game: &Game, kind: &str) -> Vec<String> {
    let k = game
        .program()
        .kinds
        .iter()
        .position(|d| d.name == kind)
        .expect("the kind");
    let n = game.state().entities[k].len();
    (0..n)
        .map(|i| {
            let it = Value::entity(meeple::ir::KindId(k as u32), i as u32);
            show(game.program(), game.state(), &it)
        })
        .collect()
}

#[test]
fn each_row_gives_as_many_instances_as_its_copies_in_the_tables_order() {
    let game = Game::new(program_of(MENU), 2, 1).expect("starts");
    // `index` counts the instances, `row` the table's rows; a row of 0 copies gives none.
    assert_eq!(
        names(&game, "card"),
        [
            "tempura-1-1",
            "tempura-2-1",
            "pudding-3-3",
            "pudding-4-3",
            "pudding-5-3"
        ]
    );
    assert_eq!(names(&game, "line").len(), 3, "one line a row");
}

#[test]
fn the_mistakes_in_a_kind_made_from_a_table_are_pointed_at() {
    let has = |from: &str, to: &str, code: &str| {
        let bad = MENU.replace(from, to);
        assert_ne!(bad, MENU, "{from}");
        let got = codes(&meeple::load::check_source("menu.rules", &bad));
        assert!(got.contains(code), "{to}: {got:?}");
    };
    has(
        "from dishes by copies",
        "from dishs by copies",
        "unknown-name",
    );
    has(
        "from dishes by copies",
        "from dishes by copy",
        "unknown-column",
    );
    has(
        "from dishes by copies",
        "from dishes by dish",
        "type-mismatch",
    );
    has("(sashimi, 0, 3)", "(sashimi, -2, 3)", "negative-copies");
    // `row` is known only in a kind made from a table.
    has("kind line from dishes {", "kind line[3] {", "unknown-name");
    let suggested = meeple::load::check_source(
        "menu.rules",
        &MENU.replace("from dishes by copies", "from dishs by copies"),
    );
    assert!(
        common::report(&suggested).contains("dishes"),
        "{}",
        common::report(&suggested)
    );
}

#[test]
fn too_many_copies_stop_the_game_at_its_start_with_a_clear_error() {
    let program = program_of(&MENU.replace("(pudding, 3, 1)", "(pudding, 20000, 1)"));
    let Err(err) = Game::new(program, 2, 1) else {
        panic!("a kind of 20002 instances started");
    };
    assert!(err.to_string().contains("20002 instances"), "{err}");
}

#[test]
fn a_variant_that_replaces_the_table_changes_the_kind() {
    let dir = std::env::temp_dir().join(format!("meeple-kind-rows-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    std::fs::write(dir.join("menu.rules"), MENU).expect("written");
    let variant = r#"variant "Puddings" {
  base "menu.rules"
}

replace table dishes(dish: dish, copies: int, points: int) {
  (pudding, 4, 1),
}

scenario "only puddings" {
  expect count(card) == 4 and count(line) == 1
  expect all(c in card where c.dish == pudding)
}
"#;
    let path = dir.join("puddings.rules");
    std::fs::write(&path, variant).expect("written");
    let out = stdout(&meeple(&["test", &path.display().to_string()], ""));
    assert!(out.contains("ok    only puddings"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
