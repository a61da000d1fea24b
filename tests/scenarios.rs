//! Every scenario written in `rules/` passes, and a failing scenario explains itself.

mod common;
use meeple::diag::{render, RenderStyle};
use meeple::load;
use std::sync::Arc;

/// Runs every scenario of `file`: how many ran, and each failure rendered.
fn run_scenarios(
    file: &std::path::Path,
    program: &Arc<meeple::ir::Program>,
) -> (usize, Vec<String>) {
    let reports = meeple::scenario::run_all(program);
    let failures = reports
        .iter()
        .filter_map(|r| {
            let d = r.failure.as_ref()?;
            let shown = render(d, &program.sources, RenderStyle::plain());
            Some(format!("{}: {}\n{shown}", file.display(), r.title))
        })
        .collect();
    (reports.len(), failures)
}

#[test]
fn every_scenario_in_rules_passes() {
    let mut ran = 0;
    let mut failures = Vec::new();
    for f in &common::all_rules() {
        let loaded = load::load(f, &[]);
        let program = Arc::new(
            loaded
                .program
                .unwrap_or_else(|| panic!("{} has errors", f.display())),
        );
        let (n, failed) = run_scenarios(f, &program);
        ran += n;
        failures.extend(failed);
    }
    assert!(
        ran >= 6,
        "expected the rules to carry scenarios, found {ran}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The examples, the games newcomers wrote from the docs among them (examples/newcomers):
/// each checks without a warning and passes its own scenarios, so a change of the language
/// that breaks one is seen.
#[test]
fn every_example_checks_clean_and_passes_its_scenarios() {
    let files = common::rules_under("examples");
    assert!(files.len() >= 9, "{files:?}");
    let mut failures = Vec::new();
    for f in &files {
        let loaded = load::load(f, &[]);
        if !loaded.diagnostics.0.is_empty() {
            failures.push(format!("{}: {:?}", f.display(), loaded.diagnostics.0));
            continue;
        }
        let program = Arc::new(loaded.program.expect("no diagnostics"));
        let (ran, failed) = run_scenarios(f, &program);
        if ran == 0 {
            failures.push(format!("{}: no scenario", f.display()));
        }
        failures.extend(failed);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_failing_scenario_shows_both_sides() {
    let src = r#"
game "Counter" { players 2 }
player var points: int = 0
flow { for p in players { turn p } }
action score { me.points += 2 }
score(p) = p.points

scenario "scoring adds three" {
  players 2
  play "score"
  expect P1.points == 3
}

scenario "nobody wins an empty game" {
  expect winners == []
}
"#;
    let loaded = load::check_source("counter.rules", src);
    let program = Arc::new(loaded.program.expect("valid"));
    let reports = meeple::scenario::run_all(&program);
    assert_eq!(reports.len(), 2);
    let first = reports[0]
        .failure
        .as_ref()
        .expect("the first scenario fails");
    assert_eq!(first.code, "scenario-failed");
    assert!(first.label.contains("`P1.points` is 2"), "{}", first.label);
    assert!(
        !first.label.contains("`3` is"),
        "constants are not described: {}",
        first.label
    );
    let second = reports[1]
        .failure
        .as_ref()
        .expect("a tie at 0 is a shared win, not nobody");
    assert!(second.message.contains("P1, P2 won"), "{}", second.message);
}

#[test]
fn a_set_step_refreshes_the_moves_of_a_pending_turn() {
    let src = r#"
game "Gate" { players 2 }
player var coins: int = 0
var open: bool = true
flow { for p in players { turn p } }
action take "Take a coin" { require open else "the gate is closed"  me.coins += 1 }
action wait "Wait" { }

scenario "closing the gate by hand takes `take` off the list" {
  set open = false
  play "take"
}
"#;
    let loaded = load::check_source("gate.rules", src);
    let program = Arc::new(loaded.program.expect("valid"));
    let reports = meeple::scenario::run_all(&program);
    let failure = reports[0].failure.as_ref().expect("`take` is refused");
    assert!(
        failure.message.contains("the gate is closed"),
        "{}",
        failure.message
    );
}

#[test]
fn a_set_step_asks_a_pending_choice_again() {
    let src = r#"
game "Hands" { players 2 }
player secret var hand: list of int = []
setup { for p in players { let d = shuffle 1..6
  p.hand = take(d, 2) } }
flow { for p in players { let c = choose p "Play a number" from p.hand
  p.hand -= c } }

scenario "a hand set by hand is what P1 chooses from" {
  set P1.hand = [5, 6]
  play "6"
  expect P1.hand == [5]
}
"#;
    let program = Arc::new(
        load::check_source("hands.rules", src)
            .program
            .expect("valid"),
    );
    let reports = meeple::scenario::run_all(&program);
    assert!(reports[0].passed(), "{:?}", reports[0].failure);
}

#[test]
fn a_scenario_plays_an_option_by_hash_and_its_number_as_the_repl_does() {
    let src = r##"
game "Fruit" { players 2 }
enum fruit { apple, pear, plum }
player var ate: fruit = none
player var n: int = 0
flow {
  for p in players {
    let f = choose p "Which?" from [apple, pear, plum]
    p.ate = f
    let k = choose p "How many?" from 3..5
    p.n = k
  }
}
score(p) = p.n

scenario "by number" {
  play "#2", "#3", "pear", "4"
  expect P1.ate == pear and P1.n == 5 and P2.ate == pear and P2.n == 4
}

scenario "a number no option has" {
  play "#4"
}
"##;
    let loaded = load::check_source("fruit.rules", src);
    let program = Arc::new(loaded.program.expect("valid"));
    let reports = meeple::scenario::run_all(&program);
    assert!(reports[0].failure.is_none(), "{:?}", reports[0].failure);
    let failure = format!("{:?}", reports[1].failure);
    assert!(
        failure.contains("there is no move 4; the moves are numbered 1 to 3"),
        "{failure}"
    );
}
