//! Choosing several elements of a list as one decision (`choose any of`, `at most k of`,
//! `exactly k of`): typed whole in the REPL, stepped through by bots without any list of subsets,
//! recorded once, kept secret when secret, saved and loaded.

mod common;

use common::{code, meeple, program, stdout};
use meeple::engine::{Game, Viewer};
use meeple::ir::Value;

const KEEPERS: &str = "tests/fixtures/ok/keepers.rules";

fn ints(v: &Value) -> Vec<i64> {
    match v {
        Value::List(xs) => xs
            .iter()
            .map(|x| match x {
                Value::Int(n) => *n,
                other => panic!("not a number: {other:?}"),
            })
            .collect(),
        other => panic!("not a list: {other:?}"),
    }
}

fn game() -> Game {
    Game::new(program(KEEPERS), 2, 7).expect("starts")
}

#[test]
fn typed_together_it_is_one_decision_in_the_history_and_the_log() {
    let mut g = game();
    g.apply_label(0, "3 5 7").expect("any of: three of four");
    assert_eq!(ints(&common::player_var(&g, 0, "kept")), [3, 5, 7]);
    assert_eq!(g.history().len(), 1);
    assert_eq!(g.history()[0].choice, "3 5 7");
    assert_eq!(g.decisions(), 1);
    assert!(g
        .log(Viewer::Spectator)
        .contains(&"P1 chose 3 5 7".to_string()));
    // the same value twice is both equal elements, and the record names them apart
    g.apply_label(0, "5 5").expect("at most two");
    assert_eq!(g.history()[1].choice, "5 5#2");
    assert_eq!(ints(&common::player_var(&g, 0, "vault")), [5, 5]);
}

#[test]
fn a_wrong_count_or_element_is_refused_with_the_reason_and_changes_nothing() {
    let mut g = game();
    g.apply_label(0, "none").expect("any of: none");
    let before = g.canonical();
    let cases = [
        (
            "3 5 7",
            "choose at most 2 of the 4 options; `3 5 7` names 3",
        ),
        ("9", "`9` is not one of the options; they are: 3, 5, 5#2, 7"),
        ("3 3", "`3` is named twice"),
    ];
    for (typed, reason) in cases {
        let refused = g
            .clone()
            .apply_label(0, typed)
            .expect_err(typed)
            .to_string();
        assert!(refused.contains(reason), "{typed}: {refused}");
        assert!(
            g.why(0, typed).is_some_and(|w| w.contains(reason)),
            "{typed}"
        );
        assert!(g.apply_label(0, typed).is_err());
        assert_eq!(g.canonical(), before, "{typed} left the game as it was");
    }
    assert_eq!(g.why(0, "#4 #1"), None, "by position, in any order");
}

#[test]
fn the_fast_path_steps_through_it_without_subsets() {
    let mut g = Game::playout(program(KEEPERS), 2, 7).expect("starts");
    // any of 4: done, or one of the four
    assert_eq!(g.option_count(0), 5);
    g.play(0, 2).expect("picks the second element");
    assert_eq!(g.decisions(), 0, "one pick is no decision yet");
    assert_eq!(g.option_count(0), 3, "done, or an element after the second");
    g.play(0, 0).expect("done");
    assert_eq!(g.decisions(), 1);
    assert_eq!(ints(&common::player_var(&g, 0, "kept")), [5]);
    // the full game stepped the same way records it once
    let mut full = game();
    full.play(0, 2).expect("pick");
    assert!(full.history().is_empty());
    full.play(0, 0).expect("done");
    assert_eq!(full.history()[0].choice, "5");
}

#[test]
fn random_games_agree_between_the_fast_path_and_a_full_game() {
    let p = program(KEEPERS);
    for seed in 0..20 {
        let fast = meeple::sim::random_playout(p.clone(), 3, seed).expect("plays");
        let full = meeple::sim::random_game(p.clone(), 3, seed).expect("plays");
        assert_eq!(fast.outcome(), full.outcome(), "seed {seed}");
        assert_eq!(fast.decisions(), full.decisions(), "seed {seed}");
        assert_eq!(
            full.history().len(),
            full.decisions(),
            "one record a decision"
        );
        // the record replays to the same game
        let replayed = meeple::save::replay(
            p.clone(),
            &meeple::engine::GameSettings::new(3, seed),
            full.history(),
            &mut |_, _| {},
        )
        .expect("replays");
        assert_eq!(replayed.canonical(), full.canonical(), "seed {seed}");
    }
}

#[test]
fn a_secret_choice_of_several_is_told_only_to_its_chooser() {
    let mut g = game();
    g.apply_label(0, "3").expect("keep");
    g.apply_label(0, "5 7").expect("hide, in secret");
    let mine = g.log(Viewer::Player(0));
    assert!(mine.contains(&"P1 chose 5 7".to_string()), "{mine:?}");
    for viewer in [Viewer::Player(1), Viewer::Spectator] {
        let log = g.log(viewer).join("\n");
        assert!(log.contains("P1 chose in secret"), "{log}");
        assert!(!log.contains("5 7"), "{log}");
        let view = g.view(viewer);
        assert!(view.contains("vault 2 hidden"), "{view}");
        assert!(!view.contains("[5, 7]"), "{view}");
    }
    // in the simultaneous choice, the first to choose is seen to have chosen, no more
    g.apply_label(1, "none").expect("P2 keeps none");
    g.apply_label(1, "none").expect("P2 hides none");
    g.apply_label(0, "3 7").expect("P1 bids");
    let log = g.log(Viewer::Player(1)).join("\n");
    assert!(log.ends_with("P1 has chosen"), "{log}");
    assert!(!g.view(Viewer::Player(1)).contains("3, 7"));
    // and a bot imagining P2's position does not find P1's picks: P1 chooses again there
    let imagined = g.determinize(1, 3);
    assert_eq!(imagined.several(0).map(|s| s.picked), Some(vec![]));
    assert_eq!(imagined.option_count(0), 3, "two of four, from the start");
}

#[test]
fn exactly_refuses_too_few_picks_and_ends_by_itself_at_the_count() {
    let mut g = game();
    g.apply_label(0, "none").expect("keep none");
    g.apply_label(0, "none").expect("hide none");
    g.apply_label(1, "none").expect("keep none");
    g.apply_label(1, "none").expect("hide none");
    let refused = g.clone().apply_label(0, "3").expect_err("one of two");
    assert!(
        refused.to_string().contains("choose exactly 2"),
        "{refused}"
    );
    // stepped: no "done" until two are picked, and the second pick ends the choice
    assert_eq!(g.option_count(0), 3, "the last element cannot come first");
    g.play(0, 0).expect("picks 3");
    assert_eq!(g.option_label(0, 0).as_deref(), Some("5"));
    g.play(0, 2).expect("picks 7");
    assert_eq!(g.waiting_on(), [1]);
}

#[test]
fn the_repl_reads_several_at_once_and_a_save_loads_back() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/cli-tests/several");
    std::fs::create_dir_all(&dir).expect("scratch");
    let save = dir.join("keepers.json");
    let save = save.to_string_lossy();
    let input = format!("3 5 7\n2\n#2 #3\nstate\nsave {save}\nquit\n");
    let o = meeple(&["play", KEEPERS, "--players", "2", "--seed", "7"], &input);
    let out = stdout(&o);
    assert!(
        out.contains("Choose any of these, typed together (such as `3 5`); `none` for none:"),
        "{out}"
    );
    assert!(out.contains("  #3. 5#2\n"), "{out}");
    assert!(out.contains("P1 chose 3 5 7"), "{out}");
    assert!(
        out.contains("`2` is not allowed: `2` is not one of the options"),
        "{out}"
    );
    // the secret pick is told to P1 alone: the device passed to P2 shows only that P1 chose
    assert!(out.contains("P1 chose in secret"), "{out}");
    assert!(!out.contains("P1 chose 5 5#2"), "{out}");
    let save_text = std::fs::read_to_string(&*save).expect("saved");
    assert!(
        save_text.contains("\"5 5#2\""),
        "the referee's record: {save_text}"
    );
    let o = meeple(&["play", "--load", &save], "state\nquit\n");
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let resumed = stdout(&o);
    assert!(
        resumed.contains("P1: hand [3, 5, 5, 7] · vault 2 hidden · kept [3, 5, 7]"),
        "{resumed}"
    );
    // replayed, P1's vault holds both fives
    let file = meeple::save::SaveFile::read(std::path::Path::new(&*save)).expect("reads");
    let g = file
        .restore(program(KEEPERS), &mut |_, _| {})
        .expect("replays");
    assert_eq!(ints(&common::player_var(&g, 0, "vault")), [5, 5]);
}

#[test]
fn undo_takes_back_the_whole_choice_without_naming_it() {
    let o = meeple(
        &["play", KEEPERS, "--players", "2", "--seed", "7"],
        "3 5 7\nundo\nstate\nquit\n",
    );
    let out = stdout(&o);
    // a game with secrets does not repeat a taken-back move on screen
    assert!(out.contains("Took back P1's move."), "{out}");
    let state = &out[out.rfind("> state").expect("state")..];
    assert!(
        state.contains("P1 (you): hand [3, 5, 5, 7] · vault [] · kept []"),
        "{state}"
    );
}

#[test]
fn equal_labels_of_a_plain_choice_are_numbered_and_a_range_has_none_to_number() {
    // Numbers in increasing order skip the count of repeats; a list that is not (a repeat, or
    // out of order) is counted as before.
    let text = "game \"Labels\" { players 2 }\nvar picked: list of int = []\n\
                flow { for p in players { turn p } }\n\
                action pick {\n  let a = choose me \"First\" from [1, 1, 2]\n  \
                let b = choose me \"Second\" from [2, 1, 2]\n  \
                let c = choose me \"Third\" from 1..4\n  picked = [a, b, c]\n}\n";
    let program = meeple::load::check_source("labels.rules", text)
        .program
        .expect("checks");
    let mut g = Game::new(std::sync::Arc::new(program), 2, 1).expect("starts");
    g.apply_label(0, "pick").expect("pick");
    let labels = |g: &Game| -> Vec<String> { g.options(0).into_iter().map(|o| o.label).collect() };
    assert_eq!(labels(&g), ["1", "1#2", "2"]);
    g.apply_label(0, "1#2").expect("the second 1");
    assert_eq!(labels(&g), ["2", "1", "2#2"]);
    g.apply_label(0, "2#2").expect("the second 2");
    assert_eq!(labels(&g), ["1", "2", "3", "4"]);
    // A range's option is found by its number without labelling the others: only its own
    // label names it.
    for typed in ["04", "+4", "5", "0", "four", "#4"] {
        assert!(g.apply_label(0, typed).is_err(), "{typed}");
    }
    assert_eq!(g.history().len(), 3, "refused moves change nothing");
    g.apply_label(0, " 4 ").expect("4");
    assert_eq!(ints(&common::global(&g, "picked")), [1, 2, 4]);
    // Each decision is recorded by the label it was taken by.
    let taken: Vec<&str> = g.history().iter().map(|r| r.choice.as_str()).collect();
    assert_eq!(taken, ["pick", "1#2", "2#2", "4"]);
}

const ONE_OR_TWO: &str = r#"
game "Chopsticks" { players 2 }

player var tray: list of int = []

flow {
  for p in players {
    let took = choose 1..2 of p "Take one card, or two" from [4, 6, 8]
    p.tray = took
  }
}

action skip { }

score(p) = sum(x for x in p.tray)
"#;

#[test]
fn a_range_of_counts_takes_from_its_first_end_to_its_second() {
    let program = common::program_of(ONE_OR_TWO);
    let mut g = Game::new(program.clone(), 2, 1).expect("starts");
    let several = g.several(0).expect("P1 chooses several");
    assert_eq!((several.min, several.max), (1, 2));
    assert_eq!(several.how_many(), "from 1 to 2");
    for (typed, why) in [("none", "from 1 to 2"), ("4 6 8", "from 1 to 2")] {
        let refused = g.clone().apply_label(0, typed).expect_err(typed);
        assert!(refused.to_string().contains(why), "{typed}: {refused}");
    }
    g.apply_label(0, "6").expect("one card");
    g.apply_label(1, "4 8").expect("two cards");
    assert_eq!(ints(&common::player_var(&g, 0, "tray")), [6]);
    assert_eq!(ints(&common::player_var(&g, 1, "tray")), [4, 8]);
    // Stepped: no `done` before the first pick; after the second, the choice ends by itself.
    let mut fast = Game::playout(program, 2, 1).expect("starts");
    assert_eq!(fast.option_count(0), 3, "an element first, never done");
    fast.play(0, 0).expect("picks 4");
    assert_eq!(fast.option_count(0), 3, "done, 6 or 8");
    fast.play(0, 1).expect("picks 6");
    assert_eq!(fast.waiting_on(), [1]);
}

#[test]
fn a_range_of_counts_is_checked_where_its_ends_are_known_and_at_run_time_where_not() {
    let codes = |from: &str, to: &str| {
        let bad = ONE_OR_TWO.replace(from, to);
        assert_ne!(bad, ONE_OR_TWO);
        common::codes(&meeple::load::check_source("c.rules", &bad))
    };
    assert!(codes("1..2 of", "2..1 of").contains("choose-count-negative"));
    assert!(codes("1..2 of", "-1..2 of").contains("choose-count-negative"));
    assert!(codes("1..2 of", "4..5 of").contains("choose-count-too-large"));
    assert!(codes("1..2 of", "2 of").contains("type-mismatch"));
    // A parameter that is a set of one or two gems.
    let set = ONE_OR_TWO.replace(
        "action skip { }",
        "action pick(xs: 1..2 of int in 1..3) { me.tray = xs }",
    );
    let program = common::program_of(&set);
    assert!(program.actions.iter().any(|a| a.name == "pick"));
    assert!(codes(
        "action skip { }",
        "action pick(xs: 2..1 of int in 1..3) { }"
    )
    .contains("choose-count-negative"));
    // Ends worked out in play: a first end above what the list holds stops the game.
    let late = common::program_of(&ONE_OR_TWO.replace("1..2 of", "count(p.tray) + 4..5 of"));
    let Err(err) = Game::new(late, 2, 1) else {
        panic!("a choice of at least 4 of 3 started");
    };
    assert!(err.to_string().contains("at least 4"), "{err}");
}
