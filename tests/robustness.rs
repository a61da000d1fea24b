//! Robustness: no rules text, however broken, makes the checker or the engine panic; and an
//! illegal move never changes a game.
//!
//! Every rules file under `rules/` and `tests/fixtures/` is cut short at many points (mid-token,
//! and around multibyte characters) and garbled by deterministic mutations. Each copy is
//! checked; it must either check with no error or report at least one; if it checks, a short
//! game by random choices is played under tight limits. A rule failing at run time is fine;
//! a panic is a bug.

mod common;

use common::fuzz::{mutate, panic_message, try_text, Checked};
use common::{play_random, rel, rules_under, tight_limits, Played};
use meeple::diag::{render_all, RenderStyle};
use meeple::engine::{Game, Rng, Viewer};
use meeple::load::check_source;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// Every rules file the tests know, as (relative name, text).
fn corpus() -> Vec<(String, String)> {
    let mut files = rules_under("rules");
    files.extend(rules_under("tests/fixtures"));
    let corpus: Vec<(String, String)> = files
        .iter()
        .map(|p| (rel(p), std::fs::read_to_string(p).expect("readable")))
        .collect();
    assert!(corpus.len() >= 40, "only {} files", corpus.len());
    assert!(
        corpus
            .iter()
            .any(|(_, t)| t.chars().any(|c| c.len_utf8() == 4)),
        "no file has a 4-byte character to cut around"
    );
    corpus
}

/// Collects failures; on drop of the report, writes each failing text to `target/` so that it
/// can be run again by hand.
#[derive(Default)]
struct Failures(Vec<(String, String, String)>);

impl Failures {
    fn check(&mut self, what: String, text: &str, play: bool) -> Option<Checked> {
        match try_text("input.rules", text, play) {
            Ok(c) => Some(c),
            Err(msg) => {
                self.0.push((what, msg, text.to_string()));
                None
            }
        }
    }

    fn assert_none(self) {
        if self.0.is_empty() {
            return;
        }
        let dir = common::root().join("target/robustness-failures");
        let _ = std::fs::create_dir_all(&dir);
        let mut lines = Vec::new();
        for (i, (what, msg, text)) in self.0.iter().enumerate().take(20) {
            let path = dir.join(format!("{i}.rules"));
            let _ = std::fs::write(&path, text);
            lines.push(format!("{what}: {msg} (text in {})", path.display()));
        }
        panic!("{} panics:\n{}", self.0.len(), lines.join("\n"));
    }
}

/// Cut points: every character boundary near the start, near the end and around every non-ASCII
/// character, and a spread of others (mid-token included).
fn cut_points(text: &str) -> Vec<usize> {
    let bounds: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    // About 300 spread cuts a file at most, so that big games do not dominate the run.
    let stride = (bounds.len() / 300).max(23);
    let mut cuts = std::collections::BTreeSet::new();
    for (k, &b) in bounds.iter().enumerate() {
        let near_ends = k < 40 || k + 40 > bounds.len();
        let spread = k % stride == 0;
        let near_wide = text[b..].chars().take(3).any(|c| !c.is_ascii())
            || text[..b].chars().rev().take(3).any(|c| !c.is_ascii());
        if near_ends || spread || near_wide {
            cuts.insert(b);
        }
    }
    cuts.into_iter().collect()
}

#[test]
fn truncated_files_never_panic() {
    let mut failures = Failures::default();
    let mut checked = 0;
    for (name, text) in corpus() {
        let cuts = cut_points(&text);
        for (i, &cut) in cuts.iter().enumerate() {
            // Play only some of the truncations that still check: the rest only check.
            let play = i % 4 == 0;
            failures.check(format!("{name} cut at byte {cut}"), &text[..cut], play);
            checked += 1;
        }
    }
    assert!(checked > 2000, "only {checked} truncations");
    failures.assert_none();
}

#[test]
fn garbled_files_never_panic() {
    let mut failures = Failures::default();
    let mut valid = 0;
    let mut total = 0;
    for (n, (name, text)) in corpus().into_iter().enumerate() {
        let mut rng = Rng::new(2024, n as u64);
        // Valid files get more mutations: their garbled copies reach deeper into the checker.
        // (Fewer for big files: a check costs in proportion to the text.)
        let rounds = if name.contains("/err/") {
            60
        } else {
            (400_000 / text.len().max(1)).clamp(40, 300)
        };
        for i in 0..rounds {
            // One to three mutations stacked.
            let mut t = text.clone();
            let mut whats = Vec::new();
            for _ in 0..1 + rng.index(3) {
                let (what, next) = mutate(&t, &mut rng);
                whats.push(what);
                t = next;
            }
            let what = format!("{name} #{i}: {}", whats.join("; "));
            if let Some(Checked::Valid(_)) = failures.check(what, &t, true) {
                valid += 1;
            }
            total += 1;
        }
    }
    eprintln!("{valid} of {total} garbled copies checked and were played");
    // Enough copies still check to exercise the engine, not only the parser.
    assert!(
        valid * 20 > total,
        "only {valid} of {total} garbled copies check"
    );
    failures.assert_none();
}

#[test]
fn illegal_moves_change_nothing() {
    let programs = [
        "rules/cheaters_game.rules",
        "tests/fixtures/ok/sealed_bids.rules",
        "tests/fixtures/ok/secret_colours.rules",
    ];
    for path in programs {
        let program = common::program(path);
        let players = program.max_players;
        // Try illegal moves at many points of a random game.
        let mut game = Game::new(program.clone(), players, 11).expect("starts");
        let mut rng = Rng::new(11, 77);
        let mut probes = 0;
        while !game.is_over() && probes < 200 {
            let before_views: Vec<String> = (0..players)
                .map(|p| game.view(Viewer::Player(p)))
                .chain([game.view(Viewer::Spectator)])
                .collect();
            let before_history = game.history().to_vec();
            let before_log = game.log(Viewer::Spectator);
            let waiting = game.waiting_on();
            let seat = waiting[0];
            let idle: Vec<u8> = (0..players).filter(|p| !waiting.contains(p)).collect();
            let n = game.options(seat).len();
            let mut attempts: Vec<(u8, String)> = vec![
                (seat, "no such move".into()),
                (seat, String::new()),
                (seat, "   ".into()),
                (seat, "honest honest".into()),
                (seat, "🎲".into()),
                (seat, "bet 99".into()),
                (seat, "#1".into()),
            ];
            // Another seat's move: the waiting seat's own first option, typed by someone idle.
            if let (Some(&other), Some(opt)) = (idle.first(), game.options(seat).first()) {
                attempts.push((other, opt.label.clone()));
            }
            for (p, label) in &attempts {
                // A garbage label might by chance be a real option: skip those.
                let legal = game
                    .options(*p)
                    .iter()
                    .any(|o| o.label.eq_ignore_ascii_case(label.trim()));
                if legal {
                    continue;
                }
                assert!(
                    game.apply_label(*p, label).is_err(),
                    "{path}: {label:?} accepted"
                );
                assert!(
                    game.why(*p, label).is_some(),
                    "{path}: no reason for {label:?}"
                );
            }
            assert!(game.apply(seat, n).is_err(), "index past the options");
            assert!(game.apply(seat, usize::MAX).is_err());
            assert!(
                game.apply(players, 0).is_err(),
                "a seat that does not exist"
            );
            for p in &idle {
                assert!(
                    game.apply(*p, 0).is_err(),
                    "{path}: seat {p} is not deciding"
                );
            }
            let after_views: Vec<String> = (0..players)
                .map(|p| game.view(Viewer::Player(p)))
                .chain([game.view(Viewer::Spectator)])
                .collect();
            assert_eq!(
                before_views, after_views,
                "{path}: a refused move changed a view"
            );
            assert_eq!(before_history, game.history(), "{path}");
            assert_eq!(before_log, game.log(Viewer::Spectator), "{path}");
            // Then a legal move, to move on.
            let w = game.waiting_on();
            let seat = w[rng.index(w.len())];
            let n = game.options(seat).len();
            game.apply(seat, rng.index(n)).expect("a legal move");
            probes += 1;
        }
        // Once over, every move is refused and nothing changes.
        if game.is_over() {
            let history = game.history().len();
            assert_eq!(
                game.apply_label(0, "honest"),
                Err(meeple::engine::MoveError::GameOver)
            );
            assert_eq!(game.history().len(), history);
        }
    }
}

#[test]
fn a_runaway_rule_stops_with_an_error_not_a_hang() {
    // Each of these loops forever or nests without end; the engine's limits must stop it.
    let cases = [
        ("while true { log \"again\" }", "loop-limit"),
        ("while true { }", "loop-limit"),
        ("spin()", "call-depth"),
    ];
    for (flow, code) in cases {
        let text = format!(
            "game \"Runaway\" {{ players 2 }}\neffect spin() {{ spin() }}\naction pass {{ }}\n\
             flow {{\n  for p in players {{ turn p }}\n  {flow}\n}}\n"
        );
        let loaded = check_source("runaway.rules", &text);
        let program = Arc::new(loaded.program.unwrap_or_else(|| {
            panic!(
                "{flow}: {}",
                render_all(&loaded.diagnostics, &loaded.sources, RenderStyle::plain())
            )
        }));
        match play_random(program, 2, 1, tight_limits(), 10) {
            Played::Failed(msg) => assert!(msg.contains(code), "{flow}: {msg}"),
            other => panic!("{flow}: expected {code}, got {other:?}"),
        }
    }
}

/// Checks a small game (header, one `pass` action, the given lines) and plays it with random
/// choices, all under `catch_unwind`; returns the check codes and how the game went.
fn run_small(decls: &str, flow: &str) -> (Vec<&'static str>, Option<Played>) {
    let text = format!(
        "game \"Small\" {{ players 2 }}\n{decls}\naction pass {{ }}\n\
         flow {{\n{flow}\n  for p in players {{ turn p }}\n}}\n"
    );
    catch_unwind(AssertUnwindSafe(|| {
        let loaded = check_source("small.rules", &text);
        let codes = loaded.diagnostics.0.iter().map(|d| d.code).collect();
        let played = loaded
            .program
            .map(|p| play_random(Arc::new(p), 2, 1, tight_limits(), 50));
        (codes, played)
    }))
    .unwrap_or_else(|e| panic!("panic on\n{text}\n{}", panic_message(e)))
}

fn failed_with(played: Option<Played>, code: &str) {
    match played {
        Some(Played::Failed(msg)) => assert!(msg.contains(code), "{msg}"),
        other => panic!("expected a runtime `{code}`, got {other:?}"),
    }
}

// Regressions: each of these once panicked, hung or exhausted memory.

#[test]
fn bounds_that_run_backwards_are_a_check_error() {
    // Was: a panic at game start (`i64::clamp` with min > max).
    let (codes, played) = run_small("var x: int in 5..0 = 3", "  x += 1");
    assert_eq!(codes, ["invalid-bounds"]);
    assert!(played.is_none());
}

#[test]
fn a_die_of_extreme_faces_is_not_constant() {
    // Was: an overflow panic in the checker (`hi - lo`).
    let (codes, _) = run_small(
        "die d: -9223372036854775807..9223372036854775807",
        "  let r = roll d\n  log \"{r}\"",
    );
    assert_eq!(codes, ["not-constant"]);
}

#[test]
fn extreme_arithmetic_is_a_runtime_error() {
    // Was: overflow panics in the evaluator (range length, MIN / -1, MIN % -1).
    let (codes, played) = run_small(
        "",
        "  let xs = -9223372036854775807..9223372036854775807\n  log \"{count(xs)}\"",
    );
    assert!(codes.is_empty());
    failed_with(played, "list-too-long");
    for op in ["/", "%"] {
        let (_, played) = run_small(
            "",
            &format!("  log \"{{(-9223372036854775807 - 1) {op} -1}}\""),
        );
        failed_with(played, "overflow");
    }
}

#[test]
fn a_list_doubled_in_a_loop_stops_with_an_error() {
    // Was: memory exhausted (2^40 items). Each pass builds the list again, so the elements
    // built spend the budget before the list reaches its longest.
    let (_, played) = run_small("var l: list of int = []", "  repeat 40 { l += l + [1] }");
    failed_with(played, "step-limit");
    // A list may still not grow past its longest, however large the budget.
    let text = "game \"Long\" { players 2 }\nvar l: list of int = []\naction pass { }\n\
                flow { repeat 40 { l += l + [1] }\n for p in players { turn p } }\n";
    let program = Arc::new(check_source("long.rules", text).program.expect("checks"));
    let limits = meeple::engine::Limits {
        steps_per_decision: 100_000_000,
        ..tight_limits()
    };
    failed_with(
        Some(play_random(program, 2, 1, limits, 50)),
        "list-too-long",
    );
}

#[test]
fn list_elements_built_or_read_spend_the_decision_s_budget() {
    // Was: each list operation spent one unit whatever its length, so these ran for seconds
    // and filled the machine's memory (`[1..100000 for x in 1..100000]`: 16 GB and more).
    // Under a budget of 20,000 units, each now stops at the first decision: 50 ranges of
    // 1,000 numbers, 50 sums, scans, copies and filtered visits of a list of 10,000.
    let long = "var long: list of int = 1..10000\nvar n: int = 0";
    let cases = [
        ("var l: list of int = []", "  repeat 50 { l = 1..1000 }"),
        (long, "  repeat 50 { n = sum(long) }"),
        (long, "  repeat 50 { if 0 in long { n += 1 } }"),
        (
            long,
            "  repeat 50 { n = count(take(long, 9000)) + position(long, 9999) }",
        ),
        (long, "  repeat 50 { n = count(long + [1]) }"),
        (
            "var big: list of list of int = []",
            "  repeat 50 { big += [1..1000] }",
        ),
        // A filter costs nothing of its own: the elements a query or a `for` looks at do,
        // passing or not.
        (long, "  repeat 50 { n = count(x in long where x < 0) }"),
        (long, "  repeat 50 { for x in long where x < 0 { n += 1 } }"),
    ];
    for (decls, flow) in cases {
        let (codes, played) = run_small(decls, flow);
        assert!(codes.is_empty(), "{flow}: {codes:?}");
        failed_with(played, "step-limit");
    }
    // The same rules on short lists stay well within it.
    let (codes, played) = run_small(
        "var l: list of int = 1..10\nvar n: int = 0",
        "  repeat 50 { n = sum(l) + count(l + [1]) + position(l, 3)\n if 0 in l { n += 1 } }",
    );
    assert!(codes.is_empty(), "{codes:?}");
    assert!(matches!(played, Some(Played::Over(_))), "{played:?}");
}

#[test]
fn a_game_that_holds_ever_more_stops_naming_the_variable() {
    // Was: nothing capped what a game holds; a rule adding to a list at every turn took the
    // machine's memory over a long game. The test's limit is 100,000 elements: 5,000 a turn
    // pass it at the 21st decision spread over the players, and at the 20th in one list of
    // lists (whose 20 elements count too).
    for (decls, body, decision) in [
        ("var big: list of list of int = []", "big += [1..5000]", 20),
        ("player var big: list of int = []", "me.big += 1..5000", 21),
    ] {
        let text = format!(
            "game \"Hoard\" {{ players 2 }}\n{decls}\naction grow {{ {body} }}\n\
             flow {{ repeat 100 {{ for p in players {{ turn p }} }} }}\n"
        );
        let loaded = check_source("hoard.rules", &text);
        let program = Arc::new(loaded.program.expect("the rules check"));
        let Played::Failed(msg) = play_random(program, 2, 1, tight_limits(), 500) else {
            panic!("{body}: the game should fail")
        };
        assert!(msg.contains("game-too-large"), "{msg}");
        assert!(msg.contains("`big`"), "{msg}");
        assert!(msg.contains(&format!("(in decision {decision})")), "{msg}");
    }
    // Taking as much as it adds, a game holds what it needs however long it runs.
    let text = "game \"Steady\" { players 2 }\nvar pile: list of int = []\n\
                action grow { pile = 1..5000 }\n\
                flow { repeat 100 { for p in players { turn p } } }\n";
    let program = Arc::new(check_source("steady.rules", text).program.expect("checks"));
    assert!(matches!(
        play_random(program, 2, 1, tight_limits(), 500),
        Played::Over(_)
    ));
}

#[test]
fn an_action_parameter_too_wide_to_list_is_a_check_error() {
    // Was: a hang listing 100000001 moves on every turn.
    let (codes, _) = run_small(
        "player var s: int = 0\naction bet(n: int in 0..100000000) { me.s += n }\nscore(p) = p.s",
        "",
    );
    assert_eq!(codes, ["infinite-domain"]);
    // A range of 1000 values is still fine.
    let (codes, played) = run_small(
        "player var s: int = 0\naction bet(n: int in 1..1000) { me.s += n }\nscore(p) = p.s",
        "",
    );
    assert!(codes.is_empty(), "{codes:?}");
    assert!(matches!(played, Some(Played::Over(_))));
}

#[test]
fn a_huge_player_count_range_in_by_players_warns_once() {
    // Was: a hang (one warning per count up to a billion).
    let (codes, played) = run_small(
        "var h: int = by players { 2: 1, 3..1000000000: 2 }",
        "  repeat h { log \"{h}\" }",
    );
    assert_eq!(codes, ["unused-definition"]);
    assert!(matches!(played, Some(Played::Over(_))));
}

#[test]
fn a_player_listed_twice_in_secretly_each_chooses_twice() {
    // Was: the game waited on P1 but offered no options, so it could never go on.
    let (codes, played) = run_small(
        "player var total: int = 0",
        "  secretly each p in [first(players), first(players)] choose x \"Pick\" from [1, 2] then {\n    p.total += x\n  }",
    );
    assert!(codes.is_empty(), "{codes:?}");
    let Some(Played::Over(game)) = played else {
        panic!("{played:?}")
    };
    // P1 chose twice (1 or 2 each time), P2 never.
    let sum = common::player_int(&game, 0, "total");
    assert!((2..=4).contains(&sum), "{sum}");
    assert_eq!(common::player_int(&game, 1, "total"), 0);
}

#[test]
fn a_syntax_error_beside_a_multibyte_character_names_the_token() {
    // The token is cut at 24 characters; a cut inside the 🎲 once made the message say
    // "found the end of the file" and left the span ending inside a character.
    let text = "game \"G\" { players 2 }\naaaaaaaaaaaaaaaaaaaaaaa🎲🎲\n";
    let loaded = check_source("m.rules", text);
    let d = &loaded.diagnostics.0[0];
    assert_eq!(d.code, "syntax-error");
    assert!(text.is_char_boundary(d.span.end as usize), "{:?}", d.span);
    assert!(
        d.message.contains("found `aaaaaaaaaaaaaaaaaaaaaaa🎲"),
        "{}",
        d.message
    );
    let rendered = render_all(&loaded.diagnostics, &loaded.sources, RenderStyle::plain());
    assert!(rendered.contains("m.rules:2:1"), "{rendered}");
}

#[test]
fn an_error_far_out_on_a_long_line_is_reported_without_drawing_it() {
    let padding = " ".repeat(70_000);
    let text = format!("game \"Long\" {{ players 2 }}\nvar x: int = {padding}nope\nflow {{ }}\n");
    let loaded = meeple::load::check_source("long.rules", &text);
    assert!(loaded.program.is_none());
    let rendered = meeple::diag::render_all(
        &loaded.diagnostics,
        &loaded.sources,
        meeple::diag::RenderStyle::plain(),
    );
    assert!(rendered.contains("unknown name `nope`"), "{rendered}");
    assert!(rendered.contains("long.rules:2:70014"), "{rendered}");
}

#[test]
fn a_base_that_is_not_a_regular_file_is_refused_not_read() {
    let dir = std::env::temp_dir().join(format!("meeple-nonregular-{}", std::process::id()));
    let folder = dir.join("folder.rules");
    std::fs::create_dir_all(&folder).unwrap();
    let mut bases = vec![(folder.to_string_lossy().into_owned(), "it is a folder")];
    if cfg!(unix) {
        bases.push(("/dev/zero".into(), "not a `.rules` file"));
        #[cfg(unix)]
        {
            let zero = dir.join("zero.rules");
            let _ = std::fs::remove_file(&zero);
            std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
            bases.push((zero.to_string_lossy().into_owned(), "not a regular file"));
        }
    }
    for (base, why) in bases {
        let variant = dir.join("v.rules");
        std::fs::write(&variant, format!("variant \"V\" {{ base \"{base}\" }}\n")).unwrap();
        let loaded = meeple::load::load(&variant, &[]);
        assert!(loaded.program.is_none(), "{base}");
        let messages: Vec<&str> = loaded
            .diagnostics
            .0
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        assert!(
            messages.iter().any(|m| m.contains(why)),
            "{base}: {messages:?}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn one_budget_sees_loop_passes_calls_and_list_elements() {
    // Each once ran on unseen for seconds or hours: an empty inner loop (no statement to count),
    // an exponential recursion (no statement at all), a comprehension inside a comprehension,
    // and the same recursion in a `require`, evaluated while listing moves.
    let fib = "def fib(n: int): int = if n < 2 then n else fib(n - 1) + fib(n - 2)";
    let cases = [
        ("", "repeat 100000 { repeat 100000 { } }"),
        (fib, "me.points += fib(35)"),
        (
            "def inner(x: int): int = count(y in 1..100000 where y > x)",
            "me.points += sum([inner(x) for x in 1..100000])",
        ),
        (fib, "require fib(35) > 0 else \"never\""),
    ];
    for (decls, body) in cases {
        let text = format!(
            "game \"Busy\" {{ players 2 }}\nplayer var points: int = 0\n{decls}\n\
             flow {{ for p in players {{ turn p }} }}\naction go {{ {body} }}\nscore(p) = p.points\n"
        );
        let loaded = check_source("busy.rules", &text);
        let program = Arc::new(loaded.program.unwrap_or_else(|| {
            panic!(
                "{body}: {}",
                render_all(&loaded.diagnostics, &loaded.sources, RenderStyle::plain())
            )
        }));
        let err = meeple::sim::random_game(program, 2, 1).expect_err(body);
        let text = err.to_string();
        assert!(text.contains("step-limit"), "{body}: {text}");
        // The error says which decision's rules were running (the move, or listing moves).
        assert!(
            text.contains("(in decision 1)") || body.starts_with("require"),
            "{body}: {text}"
        );
    }
}

#[test]
fn a_product_of_wide_parameters_is_refused_not_listed() {
    // Once: three parameters of 1,000 values each, a billion moves, out of memory at 34 s.
    let text = "game \"Wide\" { players 2 }\n\
        action pick(a: int in 1..1000, b: int in 1..1000, c: int in 1..1000) { }\n\
        flow { for p in players { turn p } }\n";
    let loaded = check_source("wide.rules", text);
    let program = Arc::new(loaded.program.unwrap_or_else(|| {
        panic!(
            "{}",
            render_all(&loaded.diagnostics, &loaded.sources, RenderStyle::plain())
        )
    }));
    let err = meeple::sim::random_game(program, 2, 1).expect_err("too many moves");
    let text = err.to_string();
    assert!(text.contains("move-limit"), "{text}");
    assert!(text.contains("1000000000 combinations"), "{text}");
}

#[test]
fn texts_and_the_log_have_caps() {
    // A log line naming a list of 100,000 numbers, and a loop that logs without end (each line
    // cheap enough for the operation budget): both stop with an error naming the limit.
    let cases = [
        ("log \"{1..100000}\"", "text-too-long"),
        (
            "repeat 100000 { repeat 100 { log \"again\" } }",
            "log-limit",
        ),
    ];
    for (body, code) in cases {
        let text = format!(
            "game \"Talkative\" {{ players 2 }}\nflow {{ for p in players {{ turn p }} }}\n\
             action go {{ {body} }}\n"
        );
        let loaded = check_source("talk.rules", &text);
        let program = Arc::new(loaded.program.unwrap_or_else(|| {
            panic!(
                "{body}: {}",
                render_all(&loaded.diagnostics, &loaded.sources, RenderStyle::plain())
            )
        }));
        let err = meeple::sim::random_game(program, 2, 1).expect_err(body);
        assert!(err.to_string().contains(code), "{body}: {err}");
    }
}
