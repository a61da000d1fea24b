//! The conventions of a command-line tool that CI steps, shells and installed binaries rely on:
//! `check --json`, `test --junit`, shell completions, manual pages and the guides built in.

mod common;

use common::{code, run, stdout};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A scratch folder under `target/`, as a path relative to the crate root.
fn scratch(name: &str) -> String {
    let rel = format!("target/cli-conventions/{name}");
    let abs = abs(&rel);
    let _ = std::fs::remove_dir_all(&abs);
    std::fs::create_dir_all(&abs).expect("scratch folder");
    rel
}

fn abs(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

#[test]
fn check_json_places_every_diagnostic_as_the_drawn_report_does() {
    let dir = scratch("check-json");
    let broken = format!("{dir}/broken.rules");
    std::fs::write(
        abs(&broken),
        "game \"Broken\" {\n  players 2..2\n}\n\nflow {\n  turn nobody\n}\n",
    )
    .expect("write the broken file");
    let o = run(&["check", "--json", "rules/cheaters_game.rules", &broken]);
    assert_eq!(code(&o), 1, "an error still fails the command");
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 1, "one document, on one line: {out}");
    let doc = json(&out);
    assert_eq!(doc["schema"], "meeple-check/1");
    assert_eq!(doc["ok"], false);
    let files = doc["files"].as_array().expect("files");
    assert_eq!(files.len(), 2);
    assert_eq!(files[0]["file"], "rules/cheaters_game.rules");
    assert_eq!(files[0]["ok"], true);
    assert_eq!(files[0]["diagnostics"].as_array().map(Vec::len), Some(0));
    assert_eq!(files[1]["ok"], false);
    assert_eq!(files[1]["errors"], 2);
    let unknown = files[1]["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .find(|d| d["code"] == "unknown-name")
        .unwrap_or_else(|| panic!("an unknown-name diagnostic: {out}"));
    assert_eq!(unknown["severity"], "error");
    assert_eq!(unknown["file"], broken.as_str());
    assert_eq!(
        (unknown["line"].clone(), unknown["column"].clone()),
        (6.into(), 8.into())
    );
    assert_eq!(unknown["end_column"], 14, "`nobody` ends before column 14");
    assert!(unknown["message"]
        .as_str()
        .is_some_and(|m| m.contains("`nobody`")));
    assert!(unknown["help"].is_string(), "{unknown}");

    // A misspelt name carries its fix, placed as the diagnostic is.
    let typo = format!("{dir}/typo.rules");
    std::fs::write(
        abs(&typo),
        "game \"T\" { players 2 }\nplayer var points: int = 0\nflow { for p in players { turn p } }\naction go { me.pionts += 1 }\nscore(p) = p.points\n",
    )
    .unwrap();
    let doc = json(&stdout(&run(&["check", "--json", &typo])));
    let d = &doc["files"][0]["diagnostics"][0];
    assert_eq!(d["fixes"][0]["replacement"], "points", "{d}");
    assert_eq!(
        (
            d["fixes"][0]["line"].clone(),
            d["fixes"][0]["column"].clone()
        ),
        (4.into(), 16.into()),
        "{d}"
    );

    // Every checker fixture: each diagnostic's place is the one the drawn report names.
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(abs("tests/fixtures/err"))
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    fixtures.sort();
    let mut compared = 0;
    for path in fixtures {
        let rel = format!(
            "tests/fixtures/err/{}",
            path.file_name().unwrap().to_string_lossy()
        );
        let drawn = stdout(&run(&["check", &rel]));
        let o = run(&["check", "--json", &rel]);
        let doc = json(&stdout(&o));
        assert_eq!(doc["ok"] == true, code(&o) == 0, "{rel}");
        for d in doc["files"][0]["diagnostics"].as_array().expect("list") {
            let place = format!(
                "{}:{}:{}",
                d["file"].as_str().unwrap(),
                d["line"],
                d["column"]
            );
            if drawn.contains(&place) {
                compared += 1;
            } else {
                // A diagnostic without a drawn window (a file that cannot be read) is at 1:1.
                assert!(
                    drawn.contains(d["code"].as_str().unwrap()),
                    "{rel}: {place} ({}) is not in the drawn report:\n{drawn}",
                    d["code"]
                );
            }
        }
    }
    assert!(compared > 50, "only {compared} places compared");
}

#[test]
fn test_junit_reports_every_case_and_each_failure_with_its_reason() {
    let dir = scratch("junit");
    let game = format!("{dir}/duel.rules");
    let mut text = std::fs::read_to_string(abs("tests/fixtures/finger_duel.rules")).unwrap();
    text.push_str(
        "\nscenario \"the first round starts at once\" {\n  players 2\n  expect round == 1\n}\n\
         \nscenario \"a wrong <expectation> & more\" {\n  players 2\n  expect round == 7\n}\n",
    );
    std::fs::write(abs(&game), text).unwrap();
    let report = format!("{dir}/report.xml");
    let o = run(&["test", "--no-snapshots", "--junit", &report, &game]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    let xml = std::fs::read_to_string(abs(&report)).expect("the report is written");
    // 2 scenarios + a bot game for 2 and for 3 players; one failure. (A file that checks is
    // no test of its own, as in the summary line; one that does not is a failing `check`.)
    assert!(
        xml.contains("<testsuites name=\"meeple test\" tests=\"4\" failures=\"1\""),
        "{xml}"
    );
    assert!(
        xml.contains("name=\"scenario the first round starts at once\"/>"),
        "{xml}"
    );
    assert!(
        xml.contains("name=\"scenario a wrong &lt;expectation&gt; &amp; more\">"),
        "{xml}"
    );
    let failure = &xml[xml.find("<failure").expect("a failure")..];
    assert!(failure.contains("round"), "the reason is told: {failure}");
    assert!(
        xml.contains("name=\"a bot game for 3 players (seed 1)\"/>"),
        "{xml}"
    );
    assert_eq!(xml.matches("<testcase").count(), 4, "{xml}");
    assert!(
        stdout(&o).trim_end().ends_with("3 passed, 1 failed"),
        "{}",
        stdout(&o)
    );

    // A file that does not check is one failing case, its diagnostics the text.
    let broken = format!("{dir}/broken.rules");
    std::fs::write(
        abs(&broken),
        "game \"B\" { players 2 }\nflow { turn nobody }\n",
    )
    .unwrap();
    let o = run(&["test", "--no-snapshots", "--junit", &report, &broken]);
    assert_eq!(code(&o), 1);
    let xml = std::fs::read_to_string(abs(&report)).unwrap();
    assert!(xml.contains("name=\"check\">"), "{xml}");
    assert!(xml.contains("unknown name `nobody`"), "{xml}");

    // The report never replaces what is not a report: here, the rules under test.
    let o = run(&["test", "--no-snapshots", "--junit", &game, &game]);
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains("cannot write the JUnit report"),
        "{}",
        stdout(&o)
    );
    assert!(std::fs::read_to_string(abs(&game))
        .unwrap()
        .starts_with("# Finger Duel"));
    // A report replaces an older report.
    let o = run(&[
        "test",
        "--no-snapshots",
        "--junit",
        &report,
        "tests/fixtures/finger_duel.rules",
    ]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let xml = std::fs::read_to_string(abs(&report)).unwrap();
    assert!(xml.contains("failures=\"0\""), "{xml}");
}

#[test]
fn completions_are_written_for_every_shell_and_name_the_commands() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = run(&["completions", shell]);
        assert_eq!(code(&o), 0, "{shell}");
        let script = stdout(&o);
        for word in ["check", "play", "sim", "serve", "--bots", "--variant"] {
            assert!(script.contains(word), "{shell} completes `{word}`");
        }
    }
    let o = run(&["completions", "tcsh"]);
    assert_eq!(code(&o), 2, "an unknown shell is a usage error");
}

#[test]
fn man_pages_are_roff_for_meeple_and_each_command() {
    let o = run(&["man"]);
    assert_eq!(code(&o), 0);
    let page = stdout(&o);
    assert!(page.contains(".TH meeple 1"), "{page}");
    assert!(
        page.contains("meeple\\-check(1)"),
        "the commands are listed"
    );
    let o = run(&["man", "sim"]);
    let page = stdout(&o);
    assert!(page.contains(".TH meeple-sim 1"), "{page}");
    assert!(page.contains("\\-\\-games"), "the options are described");
    assert_eq!(code(&run(&["man", "nope"])), 2);
}

#[test]
fn the_guides_are_built_in_and_every_hint_points_at_one() {
    let o = run(&["help", "language"]);
    assert_eq!(code(&o), 0);
    let installed = stdout(&o);
    let clone = std::fs::read_to_string(abs("docs/language.md")).unwrap();
    assert_eq!(installed, clone, "the reference is the one in docs/");
    let o = run(&["help", "sim", "merge"]);
    assert!(
        stdout(&o).contains("Usage: meeple sim merge"),
        "{}",
        stdout(&o)
    );
    let o = run(&["help", "langauge"]);
    assert_eq!(code(&o), 2);
    assert!(common::stderr(&o).contains("did you mean `language`?"));
    let o = run(&["--help"]);
    assert!(stdout(&o).contains("meeple help language"));

    // No message of the binary sends a reader to a file only a clone has.
    let mut stack = vec![abs("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            for (n, line) in std::fs::read_to_string(&path).unwrap().lines().enumerate() {
                let code_part = line.trim_start();
                // Comments are for readers of the code; `///` of the CLI is --help text.
                let shown = !code_part.starts_with("//")
                    || (path.starts_with(abs("src/cli")) && code_part.starts_with("///"));
                if shown && code_part.contains("docs/") && code_part.contains(".md") {
                    // The guides' own list, and include_str!, are how they get in.
                    assert!(
                        code_part.contains("include_str!"),
                        "{}:{}: a hint to a docs file: {line}",
                        path.display(),
                        n + 1
                    );
                }
            }
        }
    }
}

/// Runs `meeple` with `COLUMNS` set (as a terminal of that width would have it), the script
/// piped in.
fn meeple_at_columns(args: &[&str], columns: Option<&str>, stdin: &str) -> std::process::Output {
    let env: Vec<(&str, &str)> = columns.map(|c| ("COLUMNS", c)).into_iter().collect();
    common::meeple_with_env(args, &env, stdin.as_bytes())
}

#[test]
fn the_repl_fits_80_columns_without_cutting_a_word() {
    let script = "help\nstate\nmoves\n1\nstate\nlog\nquit\n";
    for (rules, players) in [
        ("examples/hanabi.rules", "3"),
        ("rules/cheaters_game.rules", "3"),
        ("rules/incorporated.rules", "4"),
        ("rules/small_print.rules", "2"),
    ] {
        let args = ["play", rules, "-p", players, "--seed", "4"];
        let whole = stdout(&meeple_at_columns(&args, None, script));
        let o = meeple_at_columns(&args, Some("80"), script);
        assert_eq!(code(&o), 0, "{}", common::stderr(&o));
        let narrow = stdout(&o);
        let mut wrapped = 0;
        for row in narrow.lines() {
            let width = unicode_columns(row);
            assert!(
                width <= 80 || !row.trim().contains(' '),
                "{rules}: a row of {width} columns:\n{row}"
            );
        }
        for row in whole.lines() {
            wrapped += usize::from(unicode_columns(row) > 80);
        }
        assert!(
            wrapped > 0,
            "{rules}: nothing needed wrapping; the test tests nothing"
        );
        // The same words in the same order: nothing cut, lost or added but line breaks.
        let words = |t: &str| {
            t.split_whitespace()
                .filter(|w| *w != "·")
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(words(&narrow), words(&whole), "{rules}");
    }
}

/// Columns a row takes in a terminal (every character here is one column wide, or two for
/// East Asian wide ones, which the games do not use).
fn unicode_columns(row: &str) -> usize {
    row.chars().count()
}
