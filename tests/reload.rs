//! `reload` in the REPL: the rules file is changed between two commands, and the session replays
//! the game under the new rules, says where they part ways, and keeps the game when the new
//! rules do not check.

use meeple::bots::BotSpec;
use meeple::engine::Game;
use meeple::engine::GameSettings;
use meeple::repl::{Asking, Files, Input, Line, Seats, Session, Style};
use std::collections::VecDeque;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const COUNTER: &str = "\
game \"Counter\" { players 2 }
player var points: int = 0
flow { repeat 3 { for p in players { turn p } } }
action score { me.points += 2 }
action rest { }
score(p) = p.points
";

/// A step of the script: a line typed, or the rules file rewritten before the next line.
enum Step {
    Type(&'static str),
    Rewrite(String),
}

/// Input that types the script's lines and rewrites the rules file where the script says so.
struct Script {
    file: PathBuf,
    steps: VecDeque<Step>,
}

impl Input for Script {
    fn read_line(&mut self, _prompt: &str, _moves: &[String], _asking: Asking) -> io::Result<Line> {
        loop {
            match self.steps.pop_front() {
                None => return Ok(Line::Eof),
                Some(Step::Rewrite(text)) => std::fs::write(&self.file, text)?,
                Some(Step::Type(line)) => return Ok(Line::Text(line.to_string())),
            }
        }
    }

    fn is_terminal(&self) -> bool {
        false
    }
}

/// A rules file in a folder of its own (saves made without asking go beside it), holding
/// the counter game.
fn scratch_file(name: &str) -> PathBuf {
    let stem = name.trim_end_matches(".rules");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/reload-tests")
        .join(stem);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let file = dir.join(name);
    std::fs::write(&file, COUNTER).expect("write the game");
    file
}

/// Plays the script in a session of two people; the transcript and the game at the end.
fn play(file: &Path, steps: Vec<Step>) -> (String, Game) {
    play_limited(file, steps, None)
}

/// [`play`] with the game's decisions limited, as `--max-decisions` limits them.
fn play_limited(file: &Path, steps: Vec<Step>, max_decisions: Option<usize>) -> (String, Game) {
    let rules = file.to_string_lossy().into_owned();
    let program = meeple::load::load(file, &[])
        .program
        .expect("the game checks");
    let mut settings = GameSettings::new(2, 7);
    if let Some(n) = max_decisions {
        settings = settings.max_decisions(n as u64);
    }
    let game = settings.start(Arc::new(program)).expect("starts");
    let spec = BotSpec::default();
    let seats = Seats::new(&spec, 7, 2);
    let files = Files {
        rules,
        variants: Vec::new(),
    };
    let style = Style {
        color: false,
        clear_screen: false,
        width: meeple::repl::Width::Unbounded,
    };
    let mut session = Session::new(game, seats, spec, files, style, false);
    session.save_automatically_in(file.parent().expect("a folder").to_path_buf());
    let mut input = Script {
        file: file.to_path_buf(),
        steps: steps.into(),
    };
    let mut out = Vec::new();
    session.run(&mut input, &mut out).expect("the session runs");
    (
        String::from_utf8(out).expect("utf-8"),
        session.game().clone(),
    )
}

/// P1 scores and P2 rests; then scoring is worth 3, not 2, and the rules are reloaded.
fn two_moves_then_a_changed_effect_reloaded() -> Vec<Step> {
    vec![
        Step::Type("score"),
        Step::Type("rest"),
        Step::Rewrite(COUNTER.replace("me.points += 2", "me.points += 3")),
        Step::Type("reload"),
    ]
}

#[test]
fn a_changed_effect_replays_every_decision_and_the_position_changes() {
    let file = scratch_file("effect.rules");
    let (out, game) = play(&file, two_moves_then_a_changed_effect_reloaded());
    assert!(
        out.contains("All 2 decisions replayed under the new rules."),
        "{out}"
    );
    assert!(
        out.contains(
            "The same moves were offered throughout, but they lead to a different position now."
        ),
        "{out}"
    );
    assert_eq!(game.history().len(), 2);
    let p1 = game.seat_by_name("P1").expect("P1");
    assert!(
        game.view(meeple::engine::Viewer::Player(p1))
            .contains("points 3"),
        "{}",
        game.view(meeple::engine::Viewer::Player(p1))
    );
}

#[test]
fn a_removed_action_is_where_the_rules_part_ways() {
    let file = scratch_file("removed.rules");
    let (out, game) = play(
        &file,
        vec![
            Step::Type("score"),
            Step::Type("rest"),
            Step::Type("score"),
            Step::Rewrite(COUNTER.replace("action rest { }", "action nap { }")),
            Step::Type("reload"),
        ],
    );
    assert!(
        out.contains("The new rules part ways at decision 1: P1 is now allowed `nap`; no longer allowed `rest`."),
        "{out}"
    );
    assert!(
        out.contains("Decision 2 (P2: `rest`) is not allowed under the new rules"),
        "{out}"
    );
    assert!(
        out.contains("Replayed 1 of 3 decisions; the game goes on from there (2 dropped)."),
        "{out}"
    );
    assert_eq!(game.history().len(), 1, "the game goes on after decision 1");
}

#[test]
fn rules_that_do_not_check_leave_the_game_as_it_was() {
    let file = scratch_file("broken.rules");
    let (out, game) = play(
        &file,
        vec![
            Step::Type("score"),
            Step::Rewrite(COUNTER.replace("me.points += 2", "me.pionts += 2")),
            Step::Type("reload"),
        ],
    );
    assert!(
        out.contains("Not reloaded: the rules do not check. The game is as it was."),
        "{out}"
    );
    assert!(out.contains("pionts"), "the error is shown: {out}");
    assert_eq!(game.history().len(), 1);
}

#[test]
fn unchanged_rules_say_nothing_came_out_differently() {
    let file = scratch_file("same.rules");
    let (out, game) = play(&file, vec![Step::Type("score"), Step::Type("reload")]);
    assert!(
        out.contains("Nothing played so far comes out differently."),
        "{out}"
    );
    assert_eq!(game.history().len(), 1);
}

#[test]
fn with_secrets_nothing_is_replayed_the_game_is_saved_and_starts_again() {
    // Where the new rules part ways can tell what a seat holds: at a table with secrets, reload
    // answers nothing that depends on the game so far.
    let secret = COUNTER.replace(
        "player var points: int = 0",
        "player var points: int = 0\nplayer secret var hunch: int = 0",
    );
    let file = scratch_file("secret.rules");
    std::fs::write(&file, &secret).expect("write");
    let folder = file.parent().expect("a folder");
    let (out, game) = play(
        &file,
        vec![
            Step::Type("score"),
            Step::Type(""), // the pass-the-device pause
            Step::Type("rest"),
            Step::Type(""),
            Step::Rewrite(secret.replace("action rest { }", "action nap { }")),
            Step::Type("reload"),
        ],
    );
    assert!(
        out.contains("At a table with secrets the game so far is not replayed under the new rules"),
        "{out}"
    );
    assert!(!out.contains("part ways at"), "{out}");
    let save = folder.join("meeple-reload-1.json");
    assert!(
        out.contains(&format!("The game so far is saved in `{}`", save.display())),
        "{out}"
    );
    let kept = meeple::save::SaveFile::read(&save).expect("the game so far is saved");
    assert_eq!(kept.decisions.len(), 2);
    assert!(
        out.contains("A new game starts under the new rules."),
        "{out}"
    );
    assert!(game.history().is_empty(), "a new game");
}

/// A game of two people where P1 picks 1 or 2 in secret; then the rules forbid picking 1.
fn secret_pick_then_one_forbidden(pick: &'static str, name: &str) -> String {
    let rules = "\
game \"Pick\" { players 2 }
player secret var pick: int = 0
flow {
  for p in players {
    let x = choose secretly p \"Pick\" from [1, 2]
    p.pick = x
  }
  repeat 2 { for p in players { turn p } }
}
action rest { }
";
    let file = scratch_file(name);
    std::fs::write(&file, rules).expect("write");
    let (out, _) = play(
        &file,
        vec![
            Step::Type(pick),
            Step::Type(""),
            Step::Type("2"),
            Step::Type(""),
            Step::Rewrite(rules.replace("from [1, 2]", "from [2]")),
            Step::Type("reload"),
            Step::Type("state"),
        ],
    );
    let after = &out[out.find("> reload").expect("reload typed")..];
    // the folder is the only thing that may differ
    after.replace(&file.parent().unwrap().display().to_string(), "DIR")
}

#[test]
fn reload_after_a_secret_choice_tells_nothing_of_it() {
    let one = secret_pick_then_one_forbidden("1", "pick_one.rules");
    let two = secret_pick_then_one_forbidden("2", "pick_two.rules");
    let (one, two) = (
        one.replace("pick_one", "pick"),
        two.replace("pick_two", "pick"),
    );
    assert!(one.contains("A new game starts"), "{one}");
    assert_eq!(one, two, "P2 could tell P1's pick from reload");
}

#[test]
fn a_reloaded_game_keeps_its_decision_limit() {
    let file = scratch_file("limit.rules");
    let mut steps = two_moves_then_a_changed_effect_reloaded();
    steps.push(Step::Type("score"));
    let (out, game) = play_limited(&file, steps, Some(2));
    assert!(
        out.contains("All 2 decisions replayed under the new rules."),
        "{out}"
    );
    assert_eq!(game.max_decisions(), 2);
    assert!(out.contains("the game passed 2 decisions"), "{out}");
    assert_eq!(game.history().len(), 2);
}
