//! A save carries the rules it was played with: moved alone to another folder it reopens, and
//! when the files it names have changed it says so and goes on under the saved rules.

mod common;

use common::{code, meeple, stderr, stdout};
use std::path::{Path, PathBuf};

fn abs(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// A fresh scratch folder under `target/`, relative to the crate root, holding a copy of
/// Cheater's Game and its variant Win The Race (which names its base as `../cheaters_game.rules`).
fn table(name: &str) -> String {
    let rel = format!("target/saves-travel/{name}");
    let _ = std::fs::remove_dir_all(abs(&rel));
    std::fs::create_dir_all(abs(&format!("{rel}/rules/cheaters_game"))).unwrap();
    std::fs::copy(
        abs("rules/cheaters_game.rules"),
        abs(&format!("{rel}/rules/cheaters_game.rules")),
    )
    .unwrap();
    std::fs::copy(
        abs("rules/cheaters_game/win_the_race.rules"),
        abs(&format!("{rel}/rules/cheaters_game/win_the_race.rules")),
    )
    .unwrap();
    rel
}

/// What the last `state` of a REPL transcript printed (up to the next prompt).
fn last_state(transcript: &str) -> String {
    let rest = transcript
        .rsplit("> state\n")
        .next()
        .expect("a state command");
    rest[..rest.find("> ").unwrap_or(rest.len())].to_string()
}

/// Plays three moves of Win The Race with bots in P2 and P3, saves to `save`, and returns the
/// position P1 saw.
fn play_and_save(dir: &str, save: &str) -> String {
    let script = format!("1\n1\n1\nstate\nsave {save}\nquit\n");
    let o = meeple(
        &[
            "play",
            &format!("{dir}/rules/cheaters_game/win_the_race.rules"),
            "--players",
            "3",
            "--seed",
            "5",
            "--bots",
            "2=random,3=random",
        ],
        &script,
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("Saved "), "{}", stdout(&o));
    last_state(&stdout(&o))
}

fn resume(save: &str) -> std::process::Output {
    meeple(&["play", "--load", save], "state\nquit\n")
}

#[test]
fn a_save_moved_alone_reopens_the_game_under_the_rules_it_carries() {
    let dir = table("moved");
    let save = format!("{dir}/game.json");
    let before = play_and_save(&dir, &save);
    let text = std::fs::read_to_string(abs(&save)).unwrap();
    assert!(text.contains("\"texts\""), "the save carries its rules");

    // Sent to a playtester: the save alone, in another folder, the rules nowhere.
    let elsewhere = "target/saves-travel/elsewhere";
    let _ = std::fs::remove_dir_all(abs(elsewhere));
    std::fs::create_dir_all(abs(elsewhere)).unwrap();
    let moved = format!("{elsewhere}/game.json");
    std::fs::rename(abs(&save), abs(&moved)).unwrap();
    std::fs::remove_dir_all(abs(&dir)).unwrap();

    let o = resume(&moved);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("cannot read"), "{err}");
    assert!(err.contains("win_the_race.rules"), "names the file: {err}");
    assert!(err.contains("under the rules saved with it"), "{err}");
    assert!(stdout(&o).contains("decisions replayed"), "{}", stdout(&o));
    assert_eq!(last_state(&stdout(&o)), before, "the same position");
    assert!(
        stdout(&o).contains("Variants: Win The Race"),
        "the variant came along"
    );

    // Saved again from there, it still travels.
    let again = format!("{elsewhere}/again.json");
    let o = meeple(
        &["play", "--load", &moved],
        &format!("save {again}\nquit\n"),
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let o = resume(&again);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(last_state(&stdout(&o)), before);
}

#[test]
fn changed_rules_are_named_and_the_game_goes_on_under_the_saved_ones() {
    let dir = table("changed");
    let save = format!("{dir}/game.json");
    let before = play_and_save(&dir, &save);

    // Unchanged: the files are read, and nothing is said.
    let o = resume(&save);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(!stderr(&o).contains("saved with it"), "{}", stderr(&o));
    assert_eq!(last_state(&stdout(&o)), before);

    // The base game edited since (a comment here: any change of its text counts).
    let base = abs(&format!("{dir}/rules/cheaters_game.rules"));
    let text = std::fs::read_to_string(&base).unwrap();
    std::fs::write(
        &base,
        format!("{text}\n# edited after the game was saved\n"),
    )
    .unwrap();
    let o = resume(&save);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("cheaters_game.rules` has changed since the game was saved"),
        "{err}"
    );
    assert!(err.contains("`reload`"), "says how to switch: {err}");
    assert_eq!(last_state(&stdout(&o)), before);
}
