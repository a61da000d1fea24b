//! Language features of round 2, each played: its rules written as a small game whose own
//! scenarios say what must happen, and its diagnostics.

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
