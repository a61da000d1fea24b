//! Fixture folders, ruff/ty style: `tests/fixtures/err/` holds one broken file per diagnostic,
//! annotated with the codes it must produce (`# expect: code`, one a line; `# with: path` adds a
//! variant to play it with); `tests/fixtures/ok/` holds valid files that must check clean and
//! play to the end with random bots for every player count.

mod common;

use common::{codes, load_rel, play, player_int, player_var, program, rel, report, rules_under};
use meeple::engine::{Game, Viewer};
use meeple::ir::Value;
use std::collections::BTreeSet;

/// The values of every `# key: value` annotation line, in order.
fn annotations(text: &str, key: &str) -> Vec<String> {
    let prefix = format!("# {key}:");
    text.lines()
        .filter_map(|l| l.trim().strip_prefix(&prefix))
        .map(|v| v.trim().to_string())
        .collect()
}

/// The error fixtures (not the valid bases they build on), as paths relative to the package.
fn err_fixtures() -> Vec<String> {
    rules_under("tests/fixtures/err")
        .iter()
        .map(|p| rel(p))
        .filter(|name| !name.contains("/bases/"))
        .collect()
}

/// Loads an error fixture with the variants its `# with:` lines name.
fn load_fixture(name: &str) -> (meeple::load::Loaded, BTreeSet<String>) {
    let text = std::fs::read_to_string(common::root().join(name)).expect("fixture readable");
    let expected: BTreeSet<String> = annotations(&text, "expect").into_iter().collect();
    let dir = name.rsplit_once('/').map_or("", |(d, _)| d);
    let with: Vec<String> = annotations(&text, "with")
        .iter()
        .map(|w| format!("{dir}/{w}"))
        .collect();
    (load_rel(name, &with), expected)
}

#[test]
fn err_fixtures_produce_exactly_the_expected_codes() {
    let fixtures = err_fixtures();
    assert!(
        fixtures.len() >= 30,
        "only {} error fixtures",
        fixtures.len()
    );
    let mut wrong = Vec::new();
    for name in fixtures {
        let (loaded, expected) = load_fixture(&name);
        assert!(!expected.is_empty(), "{name} has no `# expect: code` line");
        let got = codes(&loaded);
        if got != expected {
            // Collected, so that one run lists every fixture that is off.
            wrong.push(format!(
                "{name}: expected {expected:?}, got {got:?}\n{}",
                report(&loaded)
            ));
        }
        // A program exactly when there is no error (warnings alone still run).
        assert_eq!(
            loaded.program.is_some(),
            !loaded.diagnostics.has_errors(),
            "{name}"
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn err_fixtures_render() {
    let root = common::root();
    insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => true }, {
        insta::glob!("fixtures/err", "**/*.rules", |path| {
            let name = rel(path);
            if name.contains("/bases/") {
                return; // the valid files the variant fixtures build on
            }
            let (loaded, _) = load_fixture(&name);
            let rendered = report(&loaded);
            // Every diagnostic names its file by a path relative to the package.
            assert!(
                !rendered.contains(root.to_string_lossy().as_ref()),
                "{name}: an absolute path in the report:\n{rendered}"
            );
            assert!(
                rendered.contains("[tests/fixtures/err/"),
                "{name}: the report does not name the file:\n{rendered}"
            );
            insta::assert_snapshot!("err", rendered);
        });
    });
}

#[test]
fn every_checker_code_has_a_fixture() {
    // Every diagnostic code the checker and loader can produce, found in the source, must be
    // expected by at least one fixture, so that a new code comes with a fixture.
    let mut in_source = BTreeSet::new();
    for dir in ["src/check", "src/syntax", "src/load.rs"] {
        let path = common::root().join(dir);
        let files: Vec<std::path::PathBuf> = if path.is_dir() {
            std::fs::read_dir(&path)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect()
        } else {
            vec![path]
        };
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            // Codes appear as the first argument of Diagnostic::error / ::warning.
            for part in text.split("Diagnostic::").skip(1) {
                let Some(rest) = part
                    .strip_prefix("error(")
                    .or_else(|| part.strip_prefix("warning("))
                else {
                    continue;
                };
                let rest = rest.trim_start();
                if let Some(code) = rest.strip_prefix('"').and_then(|r| r.split('"').next()) {
                    in_source.insert(code.to_string());
                }
            }
        }
    }
    assert!(in_source.len() >= 25, "found only {in_source:?}");
    let mut expected = BTreeSet::new();
    for f in rules_under("tests/fixtures/err") {
        let text = std::fs::read_to_string(&f).unwrap();
        expected.extend(annotations(&text, "expect"));
    }
    let missing: Vec<&String> = in_source.difference(&expected).collect();
    assert!(missing.is_empty(), "codes without a fixture: {missing:?}");
}

#[test]
fn ok_fixtures_check_clean_and_play_to_the_end() {
    let files = rules_under("tests/fixtures/ok");
    assert!(files.len() >= 5, "{files:?}");
    for path in files {
        let name = rel(&path);
        let loaded = load_rel(&name, &[]);
        assert!(
            loaded.diagnostics.0.is_empty(),
            "{name} should check clean:\n{}",
            report(&loaded)
        );
        let program = std::sync::Arc::new(loaded.program.expect("a program"));
        for players in program.min_players..=program.max_players {
            for seed in 1..=3 {
                let game = meeple::sim::random_game(program.clone(), players, seed)
                    .unwrap_or_else(|e| panic!("{name}, {players} players, seed {seed}: {e}"));
                let outcome = game.outcome().expect("a finished game has an outcome");
                assert_eq!(outcome.scores.len(), players as usize, "{name}");
                assert!(
                    outcome.winners.iter().all(|w| *w < players),
                    "{name}: {outcome:?}"
                );
            }
        }
    }
}

#[test]
fn excluding_variants_are_fine_alone_but_not_together() {
    let short = "tests/fixtures/ok/variants/short_race.rules";
    let long = "tests/fixtures/ok/variants/long_race.rules";
    for (file, with) in [(short, long), (long, short)] {
        let alone = load_rel(file, &[]);
        assert!(alone.program.is_some(), "{}", report(&alone));
        let both = load_rel(file, &[with.to_string()]);
        assert!(both.program.is_none());
        assert!(
            codes(&both).contains("variants-exclude"),
            "{}",
            report(&both)
        );
    }
    // Each variant changes the base as it says.
    let short = program(short);
    let long = program(long);
    assert_eq!(short.variants, vec!["Short Race".to_string()]);
    assert_eq!(long.variants, vec!["Long Race".to_string()]);
    let actions = |p: &meeple::ir::Program| -> Vec<String> {
        p.actions.iter().map(|a| a.name.clone()).collect()
    };
    assert_eq!(actions(&short), ["go", "rest"]);
    assert_eq!(actions(&long), ["go"], "`remove action rest` removed it");
}

#[test]
fn a_variant_builds_on_another_variant() {
    let shorter = "tests/fixtures/ok/variants/shorter_race.rules";
    let short = "tests/fixtures/ok/variants/short_race.rules";
    let long = "tests/fixtures/ok/variants/long_race.rules";
    let p = program(shorter);
    // The inner variant is applied first, then the outer one, which may remove what it kept.
    assert_eq!(p.variants, ["Short Race", "Shorter Race"]);
    let actions: Vec<&str> = p.actions.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        actions,
        ["go"],
        "`remove action rest` removed the base's rest"
    );
    let game = meeple::sim::random_game(p.clone(), 2, 1).expect("plays");
    let outcome = game.outcome().expect("finished");
    // The goal is the outer variant's 5, not the inner's 10: a game ends once someone passes 5.
    assert!(
        outcome.scores.iter().any(|s| (5..=10).contains(s)),
        "{outcome:?}"
    );
    assert!(outcome.scores.iter().all(|s| *s <= 10), "{outcome:?}");
    // Stacking the inner variant again applies it once: the same game as the outer alone.
    let again = load_rel(shorter, &[short.to_string()]);
    let again = again.program.expect("checks");
    assert_eq!(again.variants, ["Short Race", "Shorter Race"]);
    // The inner variant's exclusion holds for the outer one too.
    let both = load_rel(shorter, &[long.to_string()]);
    assert!(both.program.is_none());
    assert!(
        codes(&both).contains("variants-exclude"),
        "{}",
        report(&both)
    );
}

#[test]
fn variants_that_name_each_other_as_base_are_a_cycle() {
    let dir = std::env::temp_dir().join(format!("meeple-cycle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let header =
        |title: &str, base: &str| format!("variant \"{title}\" {{\n  base \"{base}\"\n}}\n");
    std::fs::write(dir.join("a.rules"), header("A", "b.rules")).expect("write");
    std::fs::write(dir.join("b.rules"), header("B", "a.rules")).expect("write");
    let loaded = meeple::load::load(&dir.join("a.rules"), &[]);
    std::fs::remove_dir_all(&dir).ok();
    assert!(loaded.program.is_none());
    let d = &loaded.diagnostics.0;
    assert_eq!(d.len(), 1, "one diagnostic, not one a lap");
    assert_eq!(d[0].code, "variant-base-cycle");
    assert!(d[0].help.is_some(), "the cycle says how to end it");
}

fn sealed_bids(players: u8) -> Game {
    Game::new(program("tests/fixtures/ok/sealed_bids.rules"), players, 7).expect("starts")
}

#[test]
fn by_players_picks_the_value_for_the_player_count() {
    // coins = by players { 2: 10, 3..4: 8 }
    for (players, coins) in [(2, 10), (3, 8), (4, 8)] {
        let g = sealed_bids(players);
        for p in 0..players {
            assert_eq!(player_int(&g, p, "coins"), coins, "{players} players");
        }
    }
}

#[test]
fn secret_bids_clamp_tell_and_end_the_game() {
    let mut g = sealed_bids(2);
    // Lot 1: both bid 0. top(...) is both; each pays 0 and takes a lot. bottom(...) by coins is
    // both (10 each): 10 + 5 = 15, clamped to the bound of `coins`, 12.
    assert_eq!(g.waiting_on(), vec![0, 1]);
    play(&mut g, 1, "0");
    assert_eq!(g.waiting_on(), vec![0], "P2 has chosen; P1 still must");
    assert!(g.options(1).is_empty());
    play(&mut g, 0, "0");
    for p in 0..2 {
        assert_eq!(player_int(&g, p, "coins"), 12, "clamped to 12");
        assert_eq!(player_int(&g, p, "lots"), 1);
    }
    // Lot 2: P1 bids all 12, P2 bids 3. P1 pays 12 → 0 and is the poorest: 0 + 5 = 5.
    play(&mut g, 0, "12");
    // While P2 decides, nobody else learns P1's bid.
    let spectator_log = g.log(Viewer::Spectator).join("\n");
    assert!(spectator_log.contains("P1 has chosen"));
    assert!(!spectator_log.contains("P1 chose 12"));
    assert!(g
        .log(Viewer::Player(0))
        .contains(&"P1 chose 12 (secret)".to_string()));
    assert!(g
        .view(Viewer::Player(1))
        .contains("P1: coins 12 · bid ? · lots 1"));
    play(&mut g, 1, "3");
    assert_eq!(player_int(&g, 0, "coins"), 5);
    assert_eq!(player_int(&g, 0, "lots"), 2);
    assert_eq!(player_int(&g, 1, "coins"), 12);
    assert_eq!(player_int(&g, 1, "lots"), 1);
    // `tell` reaches its player only.
    let told = "You bid 12 for lot 2".to_string();
    assert!(g.log(Viewer::Player(0)).contains(&told));
    assert!(!g.log(Viewer::Player(1)).contains(&told));
    assert!(!g.log(Viewer::Spectator).contains(&told));
    // The secret bid shows to its owner only.
    assert!(g
        .view(Viewer::Player(0))
        .contains("P1 (you): coins 5 · bid 12 · lots 2"));
    assert!(g
        .view(Viewer::Player(1))
        .contains("P1: coins 5 · bid ? · lots 2"));
    // Lots 3 to 5: both bid 0 each time (a shared lot); then `end game` stops the endless loop.
    for _ in 3..=5 {
        assert!(!g.is_over());
        play(&mut g, 0, "0");
        play(&mut g, 1, "0");
    }
    let o = g.outcome().expect("over after lot 5");
    assert_eq!(o.reason.as_deref(), Some("all five lots are sold"));
    // Lot 3: P1 5 is the poorest → 10; lot 4: P1 10 is the poorest → 15, clamped to 12; P2 stays
    // at 12 throughout. Lot 5: both have 12, both gain 5, both are clamped back to 12.
    // P1: 5 lots, 12 coins → 512; P2: 4 lots, 12 coins → 412.
    assert_eq!(o.scores, vec![512, 412]);
    assert_eq!(o.winners, vec![0], "no `winners`: the highest score wins");
    assert!(g
        .log(Viewer::Spectator)
        .contains(&"The game ends: all five lots are sold".to_string()));
}

#[test]
fn choose_secretly_hides_the_choice_from_others() {
    let mut g = Game::new(program("tests/fixtures/ok/secret_colours.rules"), 3, 1).unwrap();
    assert_eq!(g.seat_name(0), "Ann");
    // Ann, then Bob, then Cy pick in turn, in secret.
    assert_eq!(g.waiting_on(), vec![0]);
    play(&mut g, 0, "blue");
    let public = g.log(Viewer::Spectator);
    assert!(
        public.contains(&"Ann chose in secret".to_string()),
        "{public:?}"
    );
    assert!(!public.iter().any(|l| l.contains("blue")), "{public:?}");
    assert!(g
        .log(Viewer::Player(1))
        .contains(&"Ann chose in secret".to_string()));
    assert!(g
        .log(Viewer::Player(0))
        .contains(&"Ann chose blue".to_string()));
    // `hidden`: not even its owner sees it in the view.
    assert!(g
        .view(Viewer::Player(0))
        .contains("Ann (you): points 0 · pick ?"));
    play(&mut g, 1, "blue");
    play(&mut g, 2, "red");
    // Only Cy picked alone: +2 (the log line has non-ASCII characters on purpose).
    assert!(g
        .log(Viewer::Spectator)
        .contains(&"Cy picked alone → +2 ✓".to_string()));
    assert_eq!(
        (0..3)
            .map(|p| player_int(&g, p, "points"))
            .collect::<Vec<_>>(),
        [0, 0, 2]
    );
    assert_eq!(
        player_var(&g, 2, "pick"),
        Value::enum_value(meeple::ir::EnumId(0), 0)
    );
    // Ann's turn: with 0 points she can neither bet nor give; the reason quotes the rule.
    let labels: Vec<String> = g.options(0).into_iter().map(|o| o.label).collect();
    assert_eq!(labels, ["pass"]);
    let why = g.why(0, "bet 1").expect("not allowed");
    assert!(why.contains("Ann has only 0 points"), "{why}");
    assert!(why.contains("me.points >= n"), "{why}");
}
