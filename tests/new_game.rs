//! `meeple new`: the game it writes checks, passes its own tests, plays to the end with bots and
//! is formatted; its variant checks; it never overwrites a file and refuses unsafe names.

mod common;

use common::{code, run, stderr, stdout};
use std::path::PathBuf;

/// A fresh, empty folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("meeple-new-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert_eq!(code(&o), 0, "{args:?}\n{}{}", stdout(&o), stderr(&o));
    stdout(&o)
}

#[test]
fn a_new_game_checks_tests_plays_and_is_formatted() {
    let dir = temp_dir("demo");
    let d = dir.to_str().expect("a UTF-8 path");
    let out = ok(&["new", "demo", "--dir", d]);
    assert!(
        out.contains("demo.rules") && out.contains("long_game.rules"),
        "{out}"
    );
    let game = dir.join("demo.rules");
    let variant = dir.join("demo").join("long_game.rules");
    let (g, v) = (
        game.to_str().expect("utf-8"),
        variant.to_str().expect("utf-8"),
    );
    let text = std::fs::read_to_string(&game).expect("the game was written");
    assert!(
        text.contains("game \"Demo\"") && !text.contains("{name}"),
        "{text}"
    );

    ok(&["check", g]);
    ok(&["check", v]);
    ok(&["test", g]);
    ok(&["test", v]);
    for players in ["2", "4"] {
        let out = ok(&[
            "play",
            g,
            "--players",
            players,
            "--bots",
            "random",
            "--seed",
            "3",
        ]);
        assert!(!out.is_empty());
    }
    assert_eq!(ok(&["fmt", "--check", d]), "");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn new_never_overwrites() {
    let dir = temp_dir("again");
    let d = dir.to_str().expect("a UTF-8 path");
    ok(&["new", "demo", "--dir", d]);
    let game = dir.join("demo.rules");
    std::fs::write(&game, "# mine\n").expect("write");
    let o = run(&["new", "demo", "--dir", d]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("already exists"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&game).expect("read"), "# mine\n");

    // Only the variant is in the way: nothing is written either.
    std::fs::remove_file(&game).expect("remove");
    let o = run(&["new", "demo", "--dir", d]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("long_game.rules already exists"),
        "{}",
        stderr(&o)
    );
    assert!(!game.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn new_refuses_unsafe_names() {
    let dir = temp_dir("names");
    let d = dir.to_str().expect("a UTF-8 path");
    for name in ["../escape", "a b", "x.rules", "sub/game"] {
        let o = run(&["new", name, "--dir", d]);
        assert_eq!(code(&o), 1, "{name}");
        assert!(
            stderr(&o).contains("cannot make a game named"),
            "{}",
            stderr(&o)
        );
    }
    assert_eq!(std::fs::read_dir(&dir).expect("list").count(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}
