//! `meeple test` on a designer's own file: golden snapshots written beside it, compared, shown
//! as a diff when a rule changes, and accepted with `--accept` or `--review`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const DUEL: &str = "tests/fixtures/finger_duel.rules";

/// A fresh copy of the Finger Duel fixture in its own scratch folder.
fn fresh_game(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/golden-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let file = dir.join("duel.rules");
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(DUEL))
        .expect("the fixture");
    std::fs::write(&file, text).expect("copy the fixture");
    file
}

/// Runs `meeple` in `dir` with `stdin` piped in; `ci` sets or clears the `CI` variable.
fn meeple_in(dir: &Path, args: &[&str], stdin: &str, ci: bool) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_meeple"));
    cmd.args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if ci {
        cmd.env("CI", "true");
    } else {
        cmd.env_remove("CI");
    }
    common::finish(cmd.spawn().expect("meeple runs"), stdin.as_bytes())
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("an exit code")
}

fn snaps(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("snapshots"))
        .map(|it| {
            it.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Changes the fixture's rule so that the bot games come out differently.
fn change_a_rule(file: &Path) {
    let text = std::fs::read_to_string(file).expect("read");
    let changed = text.replace("from 1..3", "from 1..4");
    assert_ne!(text, changed, "the fixture has the rule this test changes");
    std::fs::write(file, changed).expect("write");
}

#[test]
fn goldens_are_written_then_matched() {
    let file = fresh_game("written");
    let dir = file.parent().expect("folder");
    let o = meeple_in(dir, &["test", "duel.rules"], "", false);
    assert_eq!(code(&o), 0, "{}", out(&o));
    assert!(
        out(&o).contains("new   golden `snapshots/duel@play_2p.snap` written"),
        "{}",
        out(&o)
    );
    assert_eq!(
        snaps(dir),
        ["duel@check.snap", "duel@play_2p.snap", "duel@play_3p.snap"]
    );
    let check = std::fs::read_to_string(dir.join("snapshots/duel@check.snap")).expect("read");
    assert!(check.starts_with("---\nsource: meeple test\n"), "{check}");
    assert!(check.ends_with("---\nno problems\n"), "{check}");

    // From another folder, the same goldens match: nothing in them depends on where it runs.
    let parent = dir.parent().expect("parent");
    let o = meeple_in(parent, &["test", "written/duel.rules"], "", true);
    assert_eq!(code(&o), 0, "{}", out(&o));
    assert!(
        out(&o).contains("ok    3 golden files in `written/snapshots` match"),
        "{}",
        out(&o)
    );
}

#[test]
fn a_changed_rule_fails_with_a_diff_until_accepted() {
    let file = fresh_game("changed");
    let dir = file.parent().expect("folder");
    assert_eq!(code(&meeple_in(dir, &["test", "."], "", false)), 0);
    change_a_rule(&file);

    let o = meeple_in(dir, &["test", "duel.rules"], "", false);
    let text = out(&o);
    assert_eq!(code(&o), 1, "{text}");
    assert!(
        text.contains("FAIL  golden `snapshots/duel@play_2p.snap` differs:"),
        "{text}"
    );
    assert!(
        text.contains("--- golden") && text.contains("+++ now"),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("-P1 showed")),
        "{text}"
    );
    assert!(text.contains("`meeple test --review`"), "{text}");
    // The new text waits beside the golden, for `cargo insta review` or a later accept.
    assert!(snaps(dir).contains(&"duel@play_2p.snap.new".to_string()));

    // Review: accept the first change, reject the second.
    let o = meeple_in(dir, &["test", "--review", "duel.rules"], "a\nr\n", false);
    let text = out(&o);
    assert_eq!(code(&o), 1, "{text}");
    assert!(
        text.contains("ok    golden `snapshots/duel@play_2p.snap` accepted"),
        "{text}"
    );
    assert!(!snaps(dir).contains(&"duel@play_2p.snap.new".to_string()));
    assert!(snaps(dir).contains(&"duel@play_3p.snap.new".to_string()));

    let o = meeple_in(dir, &["test", "--accept", "duel.rules"], "", false);
    assert_eq!(code(&o), 0, "{}", out(&o));
    assert_eq!(
        snaps(dir),
        ["duel@check.snap", "duel@play_2p.snap", "duel@play_3p.snap"]
    );
    let o = meeple_in(dir, &["test", "duel.rules"], "", true);
    assert_eq!(code(&o), 0, "{}", out(&o));
}

#[test]
fn under_ci_a_missing_golden_fails_and_is_not_written() {
    let file = fresh_game("ci");
    let dir = file.parent().expect("folder");
    let o = meeple_in(dir, &["test", "duel.rules"], "", true);
    assert_eq!(code(&o), 1, "{}", out(&o));
    assert!(
        out(&o).contains("FAIL  golden `snapshots/duel@check.snap` is missing"),
        "{}",
        out(&o)
    );
    assert!(snaps(dir).is_empty(), "{:?}", snaps(dir));
}

#[test]
fn a_player_count_no_longer_allowed_leaves_a_stale_golden_that_accept_deletes() {
    let file = fresh_game("stale");
    let dir = file.parent().expect("folder");
    assert_eq!(code(&meeple_in(dir, &["test", "duel.rules"], "", false)), 0);
    let text = std::fs::read_to_string(&file).expect("read");
    std::fs::write(&file, text.replace("players 2..3", "players 2")).expect("write");
    let o = meeple_in(dir, &["test", "duel.rules"], "", false);
    assert!(
        out(&o).contains("note  golden `snapshots/duel@play_3p.snap` is no longer made"),
        "{}",
        out(&o)
    );
    let o = meeple_in(dir, &["test", "--accept", "duel.rules"], "", false);
    assert_eq!(code(&o), 0, "{}", out(&o));
    assert_eq!(snaps(dir), ["duel@check.snap", "duel@play_2p.snap"]);
}

#[test]
fn no_snapshots_writes_nothing() {
    let file = fresh_game("none");
    let dir = file.parent().expect("folder");
    let o = meeple_in(dir, &["test", "--no-snapshots", "duel.rules"], "", true);
    assert_eq!(code(&o), 0, "{}", out(&o));
    assert!(snaps(dir).is_empty());
}
