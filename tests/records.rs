//! Records: values with named fields, kept at run time as lists of their fields. Each test
//! guards a mistake such a representation invites: a field read or written at the wrong
//! position, an update lost (or leaked into a copy) through a shared list, a record shown as a
//! bare list, and a secret record's fields shown to another seat.

mod common;

use meeple::engine::{Game, Viewer};
use meeple::load::{check_source, Loaded};
use std::sync::Arc;

fn load(src: &str) -> Loaded {
    check_source("records.rules", src)
}

fn program(src: &str) -> Arc<meeple::ir::Program> {
    common::program_of(src)
}

/// Checks `src`, which must be clean, and runs its scenarios; every one must pass.
fn scenarios_pass(src: &str) {
    let program = program(src);
    let reports = meeple::scenario::run_all(&program);
    assert!(!reports.is_empty(), "no scenarios ran");
    for r in reports {
        assert!(r.failure.is_none(), "{}: {:?}", r.title, r.failure);
    }
}

fn codes(src: &str) -> Vec<&'static str> {
    load(src).diagnostics.0.iter().map(|d| d.code).collect()
}

/// Three fields of one type: a field read or written at a neighbour's position would pass
/// type checking and still be caught by the scenarios.
const TRIPLES: &str = r#"
game "Triples" { players 2 }

record trio {
  a: int = 1
  b: int = 2
  c: int = 3
}

record pair {
  left: trio = trio()
  right: trio = trio(c: 30)
}

var t: trio = trio(c: 7, a: 5)
var ts: list of trio = [trio(), trio(b: 20)]
var p: pair = pair()
player var mine: trio = trio(b: 0)

action bump "bump fields" {
  t.b += 10
  ts[2].c = 99
  ts[1].a -= 1
  p.right.b = 44
  me.mine.c = 8
}

flow {
  for q in players {
    turn q
  }
}

score(q) = q.mine.c

scenario "every field at its own position" {
  expect t.a == 5 and t.b == 2 and t.c == 7
  expect ts[2].a == 1 and ts[2].b == 20 and ts[2].c == 3
  expect p.left == trio() and p.right.c == 30 and p.right.a == 1
  play P1 "bump"
  expect t == trio(a: 5, b: 12, c: 7)
  expect ts == [trio(a: 0), trio(b: 20, c: 99)]
  expect p.right == trio(b: 44, c: 30) and p.left == trio()
  expect P1.mine == trio(b: 0, c: 8) and P2.mine == trio(b: 0)
  expect [x.b for x in ts] == [2, 20] and sum(x.c for x in ts) == 102
  expect count(x in ts where x.b > 10) == 1
}

scenario "records sort field by field" {
  expect sort([trio(a: 2), trio(a: 1, b: 9), trio(a: 1, b: 3)]) == [trio(a: 1, b: 3), trio(a: 1, b: 9), trio(a: 2)]
}
"#;

#[test]
fn fields_are_read_and_written_at_their_own_positions() {
    scenarios_pass(TRIPLES);
}

/// A record copied into a local, another variable or kept from before: each copy keeps its
/// value while the original changes, and the original's change is not lost.
const COPIES: &str = r#"
game "Copies" { players 2 }

record slot {
  n: int = 0
}

var xs: list of slot = [slot(), slot(n: 5)]
var ys: list of slot = []
var one: slot = slot()
var seen: list of int = []

action copy "copy and change" {
  ys = xs                               # the same list, shared until written
  xs[1].n = 7                           # written through one name only
  let kept = xs[2]
  xs[2].n += 1
  seen += kept.n                        # the copy taken before the change
  one = xs[2]
  one.n = 100                           # the variable's own copy
  let local = one
  local.n = 3                           # a local's copy leaves `one` as it is
  seen += local.n
}

flow {
  turn first(players)
}

score(p) = 0

scenario "no update is lost and none leaks into a copy" {
  play P1 "copy"
  expect xs == [slot(n: 7), slot(n: 6)]
  expect ys == [slot(), slot(n: 5)]
  expect one == slot(n: 100) and seen == [5, 3]
}
"#;

#[test]
fn a_copy_keeps_its_value_and_the_original_keeps_its_change() {
    scenarios_pass(COPIES);
}

/// A secret list of records, and a public one, with field values whose names appear nowhere
/// else in the rules' output.
const SECRET: &str = r#"
game "Secret notes" { players 2 }

enum mark { zebra, yak }

record note {
  guess: mark = none
  count: int = 0
}

record seen shown as "seen {it.guess}" {
  guess: mark = none
}

player secret var notes: list of note = []
player var public: list of seen = [seen(guess: yak)]

action jot "jot" {
  me.notes += note(guess: zebra, count: 4242)
  me.notes[1].count += 1
  me.notes += note(guess: yak, count: 777)
}

flow {
  for p in players {
    turn p
  }
}

score(p) = sum(n.count for n in p.notes)
"#;

#[test]
fn a_secret_record_shows_no_field_to_another_seat() {
    let program = program(SECRET);
    let mut game = Game::new(program, 2, 1).expect("starts");
    game.apply_label(0, "jot").expect("P1 jots");
    let own = game.view(Viewer::Player(0));
    assert!(
        own.contains("note(guess: zebra, count: 4243)")
            && own.contains("note(guess: yak, count: 777)"),
        "the owner sees every field, by name: {own}"
    );
    for viewer in [Viewer::Player(1), Viewer::Spectator] {
        let view = game.view(viewer);
        let picture = format!("{:?}", game.picture(viewer));
        let log = game.log(viewer).join("\n");
        for secret in ["zebra", "4243", "777", "note(", "count"] {
            for (what, text) in [("view", &view), ("picture", &picture), ("log", &log)] {
                assert!(
                    !text.contains(secret),
                    "{viewer:?}'s {what} shows `{secret}` of P1's secret notes: {text}"
                );
            }
        }
        assert!(view.contains("notes 2 hidden"), "{view}");
        assert!(
            view.contains("public [seen yak]"),
            "a public record reads its `shown as` text: {view}"
        );
    }
}

#[test]
fn a_record_reads_by_its_fields_in_logs() {
    let src = r#"
game "Logged" { players 2 }

enum colour { red, blue }

record clue {
  colour: colour = none
  number: int = 0
}

record tag shown as "{it.colour}!" {
  colour: colour = red
}

var c: clue = clue(number: 3, colour: blue)
var cs: list of clue = [clue(), clue(colour: red, number: 1)]
var per: clue by colour = clue(number: 2)
var t: tag = tag()

flow {
  log "c {c}; cs {cs}; per {per}; t {t}; n {c.number}"
  turn first(players)
}

action pass "pass" { }

score(p) = 0
"#;
    let game = Game::new(program(src), 2, 1).expect("starts");
    let log = game.log(Viewer::Spectator).join("\n");
    assert!(
        log.contains(
            "c clue(colour: blue, number: 3); cs [clue(colour: none, number: 0), clue(colour: red, number: 1)]; \
             per red clue(colour: none, number: 2), blue clue(colour: none, number: 2); t red!; n 3"
        ),
        "{log}"
    );
}

#[test]
fn mistakes_in_records_are_reported_with_their_codes() {
    let head = "game \"G\" { players 2 }\nrecord bid {\n  who: player\n  amount: int = 0\n}\n";
    let cases: [(&str, &str); 9] = [
        ("var b: bid = bid(amount: 1)", "record-field-missing"),
        (
            "var b: bid = bid(who: none, who: none)",
            "record-field-twice",
        ),
        ("var b: bid = bid(none, 1)", "record-needs-names"),
        (
            "var b: bid = bid(who: none, amount: 1, 2)",
            "record-needs-names",
        ),
        ("var b: bid = bid(who: none, amout: 1)", "unknown-field"),
        ("var b: bid = bid(who: 3)", "type-mismatch"),
        (
            "var b: bid = bid(who: none)\nvar n: int = b.amout",
            "unknown-field",
        ),
        ("enum bid { x }", "duplicate-definition"),
        ("var b: int = count(n: 3)", "not-a-record"),
    ];
    for (line, code) in cases {
        let src = format!("{head}{line}\nflow {{ }}\n");
        let found = codes(&src);
        assert!(
            found.contains(&code),
            "`{line}` gives {found:?}, not {code}"
        );
    }
    // Changing a field of what is no record, through a position: refused, not dropped.
    let src = format!(
        "{head}player var coins: int = 0\nvar order: list of player = []\nflow {{\n  order[1].coins = 3\n}}\n"
    );
    assert!(codes(&src).contains(&"type-mismatch"), "{:?}", codes(&src));
    // `pop` of a record's field is refused with a pointed message, not dropped.
    let src = format!(
        "{head}record hand {{\n  cards: list of int = []\n}}\nvar h: hand = hand()\nflow {{\n  let c = pop h.cards\n}}\n"
    );
    assert!(codes(&src).contains(&"type-mismatch"), "{:?}", codes(&src));
}

#[test]
fn an_action_cannot_take_a_record() {
    let src = "game \"G\" { players 2 }\nrecord bid {\n  amount: int = 0\n}\naction offer(b: bid) \"offer\" { }\nflow { turn first(players) }\n";
    assert!(codes(src).contains(&"infinite-domain"), "{:?}", codes(src));
}

/// A choice among records: options labelled as the record is shown everywhere else (not as
/// the bare list of its fields), typed by that label, and logged so.
const CHOICES: &str = r#"
game "Clues" { players 2 }

enum colour { red, blue }

record clue {
  colour: colour = none
  number: int = 0
}

record tag shown as "{it.colour}-{it.n}" {
  colour: colour = red
  n: int = 1
}

var cs: list of clue = [clue(colour: red, number: 3), clue(colour: blue, number: 1), clue(colour: red, number: 3)]
var ts: list of tag = [tag(), tag(colour: blue, n: 2)]
var kept: list of clue = []

action pick "pick a clue" {
  let c = choose me "Which clue?" from cs
  kept += c
  let some = choose any of me "Which clues?" from cs
  let only = choose me "The last tag" from [last(ts)]
  secretly each p in players choose x "A tag" from ts then {
    log "{p} chose {x}"
  }
}

flow {
  turn first(players)
}

score(p) = count(kept)
"#;

#[test]
fn a_choice_among_records_shows_each_as_a_record() {
    let mut game = Game::new(program(CHOICES), 2, 1).expect("starts");
    game.apply_label(0, "pick").expect("P1 picks");
    let labels: Vec<String> = game.options(0).into_iter().map(|o| o.label).collect();
    assert_eq!(
        labels,
        [
            "clue(colour: red, number: 3)",
            "clue(colour: blue, number: 1)",
            "clue(colour: red, number: 3)#2"
        ]
    );
    game.apply_label(0, "clue(colour: red, number: 3)#2")
        .expect("a record's label is typed as shown");
    let several = game.several(0).expect("a choice of several");
    assert_eq!(several.labels[1], "clue(colour: blue, number: 1)");
    game.apply_label(
        0,
        "clue(colour: blue, number: 1), clue(colour: red, number: 3)",
    )
    .expect("records typed together, commas and all");
    let labels: Vec<String> = game.options(1).into_iter().map(|o| o.label).collect();
    assert_eq!(
        labels,
        ["red-1", "blue-2"],
        "a `shown as` record by its text"
    );
    game.apply_label(1, "blue-2").expect("P2 picks a tag");
    let log = game.log(Viewer::Player(0)).join("\n");
    for line in [
        "P1 chose clue(colour: red, number: 3)#2",
        "P1 chose clue(colour: red, number: 3) clue(colour: blue, number: 1)",
        "P1 chose blue-2 (the only option)",
    ] {
        assert!(log.contains(line), "`{line}` missing from:\n{log}");
    }
    assert!(
        !log.contains("[red, 3]") && !log.contains("[blue, 2]"),
        "{log}"
    );
    let theirs = game.log(Viewer::Player(1)).join("\n");
    assert!(theirs.contains("P2 chose blue-2 (secret)"), "{theirs}");
}

#[test]
fn a_scenario_sets_one_field_and_leaves_the_others() {
    let src = r#"
game "Set" { players 2 }

enum colour { red, blue }

record clue {
  colour: colour = none
  number: int = 0
}

player var clues: list of clue = [clue(), clue()]
var one: clue = clue()
var grid: list of list of int = [[1, 2], [3, 4]]

action pass "pass" { }

flow {
  turn first(players)
}

score(p) = 0

scenario "one field of a record in a list, of a record, an element a level down" {
  set P1.clues[2].number = 3
  set one.colour = blue
  set grid[2][1] = 30
  expect P1.clues == [clue(), clue(number: 3)] and P2.clues == [clue(), clue()]
  expect one == clue(colour: blue)
  expect grid == [[1, 2], [30, 4]]
}
"#;
    scenarios_pass(src);
    // A position the list does not have fails the scenario at the step, by its rule's words.
    let wrong = src.replace("set P1.clues[2].number = 3", "set P1.clues[3].number = 3");
    let reports = meeple::scenario::run_all(&program(&wrong));
    let failure = format!("{:?}", reports[0].failure);
    assert!(failure.contains("out-of-range"), "{failure}");
    // The field's type holds as in an assignment.
    let typed = src.replace("set one.colour = blue", "set one.colour = 3");
    assert!(
        codes(&typed).contains(&"type-mismatch"),
        "{:?}",
        codes(&typed)
    );
}
