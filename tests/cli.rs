//! The `meeple` binary end to end: `check` and `play` exit codes, bot games as transcripts and
//! JSON, the REPL fed through stdin, save files.

mod common;

use common::{code, meeple, run, stderr, stdout};
use std::path::{Path, PathBuf};

const GAME: &str = "rules/cheaters_game.rules";
const RACE: &str = "rules/cheaters_game/win_the_race.rules";
const DUEL: &str = "tests/fixtures/finger_duel.rules";
const BROKEN_SUMS: &str = "tests/fixtures/broken_sums.rules";
const ENDLESS: &str = "tests/fixtures/run/endless.rules";

/// A scratch folder under `target/`, as a path relative to the crate root (so that it reads
/// the same in snapshots on every machine).
fn scratch(name: &str) -> String {
    let rel = format!("target/cli-tests/{name}");
    let abs = Path::new(env!("CARGO_MANIFEST_DIR")).join(&rel);
    std::fs::create_dir_all(&abs).expect("scratch folder");
    rel
}

fn abs(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The REPL script: one command a line.
fn script(lines: &[&str]) -> String {
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

/// What each `state` command printed in a REPL transcript, in order.
fn states(transcript: &str) -> Vec<String> {
    transcript
        .split("> state\n")
        .skip(1)
        .map(|rest| {
            // up to the next prompt, without the prompt's seat name
            let block = &rest[..rest.find("> ").unwrap_or(rest.len())];
            block[..block.rfind('\n').map_or(0, |i| i + 1)].to_string()
        })
        .collect()
}

/// What the last `state` command printed.
fn last_state(transcript: &str) -> String {
    states(transcript).pop().expect("a state command")
}

// ------------------------------------------------------------------------------------- check

#[test]
fn check_good_files_exits_0_with_a_summary_per_file() {
    let o = run(&["check", GAME, RACE]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("rules/cheaters_game.rules: ok (0 errors, 0 warnings)"));
    assert!(out.contains("rules/cheaters_game/win_the_race.rules: ok (0 errors, 0 warnings)"));
}

#[test]
fn check_a_broken_file_exits_1_and_renders_its_errors() {
    let dir = scratch("check-broken");
    let broken = format!("{dir}/broken.rules");
    std::fs::write(
        abs(&broken),
        "game \"Broken\" {\n  players 2..2\n}\n\nflow {\n  turn nobody\n}\n",
    )
    .expect("write the broken file");
    let o = run(&["check", GAME, &broken]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(out.contains("unknown name `nobody`"), "{out}");
    assert!(out.contains(&format!("{broken}:6:8")), "{out}");
    assert!(
        out.contains(&format!("{broken}: failed (2 errors, 0 warnings)")),
        "{out}"
    );
    assert!(out.contains("rules/cheaters_game.rules: ok"), "{out}");
    assert!(!out.contains('\u{1b}'), "no colour when not a terminal");
}

#[test]
fn check_a_missing_file_exits_1() {
    let o = run(&["check", "rules/no_such_game.rules"]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(
        out.contains("cannot read `rules/no_such_game.rules`"),
        "{out}"
    );
    // A file that could not be read has no text to draw: the message and its help, no empty
    // window of source under them.
    assert!(out.contains("help: check the path"), "{out}");
    assert!(!out.contains('╭'), "{out}");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(code(&run(&["check"])), 2);
    assert_eq!(code(&run(&["check", "--bogus", GAME])), 2);
    assert_eq!(code(&run(&["play"])), 2);
    assert_eq!(code(&run(&["frobnicate"])), 2);
    assert_eq!(
        code(&run(&["play", GAME, "--players", "9", "--bots", "random"])),
        2
    );
    assert_eq!(code(&run(&["play", GAME, "--bots", "genius"])), 2);
    assert_eq!(code(&run(&["play", GAME, "--bots", "7=random"])), 2);
}

#[test]
fn a_wrong_player_count_names_the_counts_the_game_allows() {
    let o = run(&["play", GAME, "--players", "9", "--bots", "random"]);
    assert!(
        stderr(&o).contains("is for 3 to 5 players, not 9"),
        "{}",
        stderr(&o)
    );
    // A game for one number of players says that number, not "4 to 4".
    let fixed = "rules/share_and_share_alike.rules";
    let play = run(&["play", fixed, "-p", "3", "--bots", "random"]);
    let sim = run(&["sim", fixed, "-p", "3", "-g", "1"]);
    for o in [play, sim] {
        assert_eq!(code(&o), 2, "{}", stderr(&o));
        assert!(
            stderr(&o).contains("is for 4 players, not 3"),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn help_and_version_exit_0() {
    for args in [
        &["--help"][..],
        &["--version"],
        &["check", "--help"],
        &["play", "--help"],
    ] {
        let o = run(args);
        assert_eq!(code(&o), 0, "{args:?}");
        assert!(!stdout(&o).is_empty(), "{args:?}");
    }
    assert!(stdout(&run(&["--version"])).starts_with("meeple "));
}

// ------------------------------------------------------------------------------ play with bots

/// The lines of a `meeple play --json` stream, each one JSON object.
fn json_lines(o: &std::process::Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn json_has_the_documented_keys() {
    let o = run(&["play", GAME, "--bots", "random", "--json", "--seed", "42"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let lines = json_lines(&o);
    let header = &lines[0];
    assert_eq!(header["event"], "game");
    assert_eq!(header["schema"], "meeple-game/3");
    assert_eq!(header["meeple"], env!("CARGO_PKG_VERSION"));
    assert_eq!(header["game"], "Cheater's Game");
    assert_eq!(header["rules"], GAME);
    assert_eq!(header["variant_files"], serde_json::json!([]));
    assert_eq!(header["variants"], serde_json::json!([]));
    assert_eq!(header["seed"], 42);
    assert_eq!(header["players"], 3);
    assert_eq!(header["bots"], "random");
    assert!(header["log"].is_array());
    let decisions = &lines[1..lines.len() - 1];
    assert!(!decisions.is_empty());
    for (i, d) in decisions.iter().enumerate() {
        assert_eq!(d["event"], "decision", "{d}");
        assert_eq!(d["number"], i + 1, "{d}");
        let player = d["player"].as_str().expect("a seat name");
        assert!(["P1", "P2", "P3"].contains(&player), "{d}");
        assert!(d["choice"].is_string(), "{d}");
        assert!(d["log"].is_array(), "{d}");
    }
    let outcome = &lines[lines.len() - 1];
    assert_eq!(outcome["event"], "outcome");
    assert_eq!(outcome["decisions"], decisions.len());
    assert!(outcome["winners"].is_array());
    let scores = outcome["scores"].as_object().expect("scores by seat");
    assert_eq!(
        scores.keys().collect::<Vec<_>>(),
        ["P1", "P2", "P3"],
        "one score a seat"
    );
    assert!(outcome["reason"].is_null());
}

#[test]
fn json_is_byte_identical_for_a_seed_and_differs_for_another() {
    let args = |seed| {
        run(&[
            "play",
            GAME,
            "--bots",
            "random",
            "--json",
            "--seed",
            seed,
            "--players",
            "4",
        ])
    };
    let a = args("7");
    let b = args("7");
    let c = args("8");
    assert_eq!(code(&a), 0);
    assert_eq!(a.stdout, b.stdout);
    assert_ne!(a.stdout, c.stdout);
}

#[test]
fn json_needs_every_seat_a_bot() {
    let o = run(&["play", GAME, "--json", "--seed", "1"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("--json needs a bot in every seat"));
    assert!(o.stdout.is_empty());
    assert_eq!(
        code(&run(&["play", GAME, "--json", "--bots", "2=random"])),
        2
    );
}

#[test]
fn without_a_seed_the_random_seed_is_told() {
    let o = run(&["play", GAME, "--bots", "random", "--json"]);
    assert_eq!(code(&o), 0);
    let seed = json_lines(&o)[0]["seed"].as_u64().expect("a seed");
    assert!(stderr(&o).contains(&format!("random seed {seed} (replay with --seed {seed})")));
}

#[test]
fn a_variant_plays_to_the_end_with_bots() {
    let o = run(&["play", RACE, "--bots", "random", "--seed", "1"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("Cheater's Game with Win The Race · 3 players · seed 1\n"),
        "{out}"
    );
    assert!(out.contains("game over · scores:"), "{out}");
}

#[test]
fn a_variant_file_and_the_same_variant_stacked_play_alike() {
    let direct = run(&["play", RACE, "--bots", "random", "--seed", "3", "--json"]);
    let stacked = run(&[
        "play",
        GAME,
        "--variant",
        RACE,
        "--bots",
        "random",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(code(&direct), 0);
    let (direct, stacked) = (json_lines(&direct), json_lines(&stacked));
    // the header names the files as given; the game is the same
    assert_eq!(direct[1..], stacked[1..]);
    assert_eq!(direct[0]["variants"], serde_json::json!(["Win The Race"]));
    assert_eq!(stacked[0]["variants"], serde_json::json!(["Win The Race"]));
    assert_eq!(direct[0]["rules"], RACE);
    assert_eq!(stacked[0]["variant_files"], serde_json::json!([RACE]));
}

#[test]
fn a_game_given_as_a_variant_is_named_a_game_not_a_variant_of_another() {
    let o = run(&[
        "play",
        GAME,
        "--variant",
        "rules/endgame.rules",
        "--bots",
        "random",
    ]);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(err.contains("variant-base-mismatch"), "{err}");
    assert!(
        err.contains("`rules/endgame.rules` is a game, not a variant"),
        "{err}"
    );
    assert!(err.contains("it names no `base` game"), "{err}");
    assert!(!err.contains("is a variant of another game"), "{err}");
    assert!(o.stdout.is_empty());
}

#[test]
fn check_errors_stop_play_with_exit_1() {
    let dir = scratch("play-broken");
    let broken = format!("{dir}/broken.rules");
    std::fs::write(abs(&broken), "game \"Broken\" {\n  players 2..2\n}\n")
        .expect("write the broken file");
    let o = run(&["play", &broken, "--bots", "random"]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("the rules have errors"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn a_failing_rule_is_rendered_with_its_span_and_exits_1() {
    let save = format!("{}/failed.json", scratch("broken-sums"));
    let o = run(&[
        "play",
        BROKEN_SUMS,
        "--bots",
        "random",
        "--seed",
        "1",
        "--save-on-failure",
        &save,
    ]);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(err.contains("division-by-zero"), "{err}");
    assert!(
        err.contains("tests/fixtures/broken_sums.rules:11:15"),
        "{err}"
    );
    assert!(err.contains("me.points = me.points / zero"), "{err}");
}

// ------------------------------------------------------------------------------------- REPL

#[test]
fn repl_session_through_stdin() {
    let dir = scratch("repl-session");
    let save = format!("{dir}/session.json");
    let _ = std::fs::remove_file(abs(&save));
    let save_cmd = format!("save {save}");
    let input = script(&[
        "help",
        "moves",
        "1",
        "fly",
        "why chaet",
        "undo",
        "state",
        "HONEST",
        &save_cmd,
        "quit",
    ]);
    let o = meeple(&["play", GAME, "--seed", "7"], &input);
    // `fly` is no move and `undo` is refused: a script with refused lines fails, `quit` or not
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "meeple: 2 lines of the input were refused (lines 4, 6)\n"
    );
    insta::assert_snapshot!("repl_session", stdout(&o));

    let mut saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(abs(&save)).expect("the save file"))
            .expect("the save is JSON");
    // the chain of state hashes: 16 hex digits a link, the last one again at the end
    let is_link = |v: serde_json::Value| {
        v.as_str()
            .is_some_and(|h| h.len() == 16 && h.chars().all(|c| c.is_ascii_hexdigit()))
    };
    let object = saved.as_object_mut().expect("an object");
    assert!(is_link(object.remove("start").expect("start")));
    // a hash of the rules file's text, by which a save that no longer replays tells an edited
    // save from changed rules
    let sources = object.remove("sources").expect("sources");
    assert_eq!(sources.as_array().map(Vec::len), Some(1), "{sources}");
    assert!(is_link(sources[0].clone()));
    // the text of the rules file, so that the save alone reopens the game
    let texts = object.remove("texts").expect("texts");
    assert_eq!(
        texts.as_array().and_then(|t| t[0].as_str()),
        Some(&*std::fs::read_to_string(abs(GAME)).unwrap()),
        "the save carries the rules it was played with"
    );
    let end = object.remove("end").expect("end");
    let mut last = None;
    for d in object["decisions"].as_array_mut().expect("decisions") {
        last = d.as_object_mut().expect("a decision").remove("state");
        assert!(is_link(last.clone().expect("a link")));
    }
    assert_eq!(last, Some(end));
    assert_eq!(
        saved,
        serde_json::json!({
            "format": 3,
            "meeple": env!("CARGO_PKG_VERSION"),
            // relative to the save's folder, target/cli-tests/repl-session
            "rules": "../../../rules/cheaters_game.rules",
            "variants": [],
            "game": "Cheater's Game",
            "players": 3,
            "seed": 7,
            // `undo` was refused (P1's move rolled a die), so `HONEST` was P2's move.
            "decisions": [{"player": "P1", "choice": "honest"}, {"player": "P2", "choice": "honest"}],
        })
    );
}

#[test]
fn a_word_that_is_no_move_points_to_the_commands_unless_a_move_is_close() {
    let o = meeple(
        &["play", GAME, "--seed", "7"],
        &script(&["view", "chaet", "2 3", "quit"]),
    );
    let out = stdout(&o);
    let hint = "Nor is it a command: `help` lists them (`state` shows the game).";
    assert!(
        out.contains(&format!("`view` is not allowed: there is no action `view` now; the actions are honest, cheat\n{hint}")),
        "{out}"
    );
    // `chaet` is close to `cheat`, and `2 3` is no single word: no hint for either.
    assert!(out.contains("did you mean `cheat`?\nP1>"), "{out}");
    assert_eq!(out.matches(hint).count(), 1, "{out}");
}

#[test]
fn repl_secret_choices_pass_the_device_and_bots_move() {
    let input = script(&[
        "2", "1", "log", "3", "why 4", "#4", "#2", "why 1", "undo", "quit",
    ]);
    let o = meeple(
        &[
            "play",
            DUEL,
            "--players",
            "3",
            "--bots",
            "3=random",
            "--seed",
            "5",
        ],
        &input,
    );
    // `#4` was refused (there are three moves)
    assert_eq!(code(&o), 1);
    assert_eq!(stderr(&o), "meeple: line 6 of the input was refused\n");
    insta::assert_snapshot!("repl_secret_choices", stdout(&o));
}

#[test]
fn repl_output_is_deterministic() {
    let input = script(&["1", "1", "2", "1", "state", "undo", "1", "state", "quit"]);
    let args = ["play", GAME, "--seed", "21", "--bots", "3=random"];
    let a = meeple(&args, &input);
    let b = meeple(&args, &input);
    assert_eq!(code(&a), code(&b));
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn a_decision_limit_given_to_play_outlives_an_undo() {
    // Undo rebuilds the game from its decisions; the rebuilt game keeps the session's limit.
    let save = format!("{}/limit.json", scratch("limit-undo"));
    let args = [
        "play",
        ENDLESS,
        "--players",
        "2",
        "--seed",
        "1",
        "--max-decisions",
        "3",
        "--save-on-failure",
        &save,
    ];
    let o = meeple(
        &args,
        &script(&["1", "1", "undo", "1", "1", "1", "state", "quit"]),
    );
    let out = stdout(&o);
    assert!(out.contains("Took back P2's"), "{out}");
    assert!(out.contains("the game passed 3 decisions"), "{out}");
    assert!(out.contains("in decision 4"), "{out}");
    assert!(
        out.contains("P1: steps 2") && out.contains("P2 (you): steps 1"),
        "{out}"
    );
    assert_eq!(stderr(&o), "meeple: line 6 of the input was refused\n");
}

#[test]
fn after_an_undo_at_a_hot_seat_the_next_seat_is_shown_the_move_taken_instead() {
    // P2 has read P1's `forward` when it takes it back; P1 then steps back. P2 must be shown
    // `back`: its place in the log moved back with the undo, not left past the new line.
    let o = meeple(
        &["play", ENDLESS, "--players", "2", "--seed", "1"],
        &script(&["1", "undo", "2", "quit"]),
    );
    let out = stdout(&o);
    assert!(out.contains("Took back P1's `forward`"), "{out}");
    let after = out.split("Took back").nth(1).expect("the undo");
    assert!(after.contains("\nP1: back\n"), "{out}");
    assert!(!after.contains("P1: forward\n"), "{out}");
}

#[test]
fn undo_then_the_same_move_gives_the_same_game_with_bots() {
    // Finger Duel draws on no chance: a pick (and the bot's after it) can be taken back.
    let args = [
        "play",
        DUEL,
        "--players",
        "2",
        "--seed",
        "4",
        "--bots",
        "2=random",
    ];
    let straight = meeple(&args, &script(&["1", "2", "state", "quit"]));
    let undone = meeple(&args, &script(&["1", "undo", "1", "2", "state", "quit"]));
    assert!(
        stdout(&undone).contains("Took back P1's move"),
        "{}",
        stdout(&undone)
    );
    assert_eq!(last_state(&stdout(&straight)), last_state(&stdout(&undone)));
    // The log of the move taken again is new again: shown after it as after the first.
    assert_eq!(
        stdout(&undone).matches("\nP1 showed 1\n").count(),
        2,
        "{}",
        stdout(&undone)
    );
}

#[test]
fn undo_is_refused_once_chance_was_drawn_on() {
    // Cheater's Game's moves roll a die: taking one back would be a free re-roll.
    let args = ["play", GAME, "--seed", "4", "--bots", "2=random,3=random"];
    let o = meeple(&args, &script(&["1", "state", "undo", "state", "quit"]));
    let out = stdout(&o);
    assert!(
        out.contains("Cannot undo: chance has been drawn on"),
        "{out}"
    );
    let states = states(&out);
    assert_eq!(states.len(), 2, "{out}");
    assert_eq!(states[0], states[1], "the game changed: {out}");
}

#[test]
fn a_rule_failing_in_the_repl_leaves_the_game_as_it_was() {
    let save = format!("{}/halve.json", scratch("repl-failure"));
    let o = meeple(
        &[
            "play",
            BROKEN_SUMS,
            "--seed",
            "1",
            "--save-on-failure",
            &save,
        ],
        &script(&["halve", "state", "quit"]),
    );
    assert_eq!(code(&o), 1, "the move was refused");
    let out = stdout(&o);
    assert!(out.contains("division-by-zero"), "{out}");
    assert!(
        out.contains("The move was not made; the game is as it was."),
        "{out}"
    );
    assert!(last_state(&out).contains("P1 (you): points 0"), "{out}");
}

#[test]
fn a_game_over_prints_the_outcome() {
    let o = meeple(
        &["play", DUEL, "--seed", "2"],
        &script(&["1", "2", "3", "3"]),
    );
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    assert!(
        out.contains("Game over.\nScores: P1 4, P2 5\nWinner: P2\n"),
        "{out}"
    );
}

#[test]
fn a_piped_session_exits_1_after_a_refused_line_or_an_input_ended_mid_game() {
    let duel = ["play", DUEL, "--seed", "2"];
    // every line accepted, to the end of the game: 0
    let o = meeple(&duel, &script(&["1", "2", "3", "3"]));
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
    // `quit` mid-game is a deliberate stop: 0
    let o = meeple(&duel, &script(&["1", "moves", "quit"]));
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // the input ends mid-game: 1
    let o = meeple(&duel, &script(&["1", "2"]));
    assert_eq!(code(&o), 1);
    assert_eq!(
        stderr(&o),
        "meeple: the input ended before the game did (end a script with `quit` to stop on purpose)\n"
    );
    // a refused move, then `quit`: 1
    let o = meeple(&duel, &script(&["4", "1", "quit"]));
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).contains("`4` is not allowed"), "{}", stdout(&o));
    assert_eq!(stderr(&o), "meeple: line 1 of the input was refused\n");
    // both
    let o = meeple(&duel, &script(&["#9"]));
    assert_eq!(code(&o), 1);
    assert_eq!(
        stderr(&o),
        "meeple: line 1 of the input was refused; the input ended before the game did (end a script with `quit` to stop on purpose)\n"
    );
}

#[test]
fn a_line_of_invalid_utf8_is_skipped_and_the_session_goes_on() {
    let input: &[u8] = b"1\n\xff\xfe\n2\r\n3\n\xc3(\n3\n";
    let o = common::meeple_bytes(&["play", DUEL, "--seed", "2"], input);
    let out = stdout(&o);
    assert!(
        out.contains("Skipped: line 2 of the input is not valid UTF-8 (a bad byte at column 1).\n"),
        "{out}"
    );
    assert!(
        out.contains("Skipped: line 5 of the input is not valid UTF-8 (a bad byte at column 1).\n"),
        "{out}"
    );
    // every good line after them was played, to the end
    assert!(
        out.contains("Game over.\nScores: P1 4, P2 5\nWinner: P2\n"),
        "{out}"
    );
    assert_eq!(code(&o), 1);
    assert_eq!(
        stderr(&o),
        "meeple: 2 lines of the input were refused (lines 2, 5)\n"
    );
}

// -------------------------------------------------------------------------------- save files

#[test]
fn save_and_load_round_trip() {
    let dir = scratch("round-trip");
    let save = format!("{dir}/half.json");
    let args = ["play", GAME, "--seed", "11", "--bots", "2=random"];
    let ones = |n| vec!["1"; n];

    let mut whole = ones(8);
    whole.extend(["state", "quit"]);
    let whole = meeple(&args, &script(&whole));

    let mut first = ones(4);
    let save_cmd = format!("save {save}");
    first.extend([save_cmd.as_str(), "quit"]);
    let first = meeple(&args, &script(&first));
    assert!(
        stdout(&first).contains(&format!("to `{save}`.")),
        "{}",
        stdout(&first)
    );

    // resumed from the command line, the bot seat given again
    let mut rest = ones(4);
    rest.extend(["state", "quit"]);
    let resumed = meeple(
        &["play", "--load", &save, "--bots", "2=random"],
        &script(&rest),
    );
    assert_eq!(code(&resumed), 0, "{}", stderr(&resumed));
    assert!(stdout(&resumed).starts_with(&format!("Resumed `{save}`: ")));
    assert_eq!(last_state(&stdout(&whole)), last_state(&stdout(&resumed)));

    // loaded inside a REPL started on another seed
    let load_cmd = format!("load {save}");
    let mut loaded = vec![load_cmd.as_str()];
    loaded.extend(ones(4));
    loaded.extend(["state", "quit"]);
    let loaded = meeple(
        &["play", GAME, "--seed", "99", "--bots", "2=random"],
        &script(&loaded),
    );
    assert!(stdout(&loaded).contains(&format!("Loaded `{save}`: ")));
    assert_eq!(last_state(&stdout(&whole)), last_state(&stdout(&loaded)));
}

#[test]
fn corrupt_saves_are_refused_and_leave_the_game_as_it_was() {
    let dir = scratch("corrupt");
    let good = format!("{dir}/good.json");
    let o = meeple(
        &["play", GAME, "--seed", "7"],
        &script(&["1", "1", "2", &format!("save {good}"), "quit"]),
    );
    assert_eq!(code(&o), 0);
    let text = std::fs::read_to_string(abs(&good)).expect("the good save");

    let cases = [
        (
            "bad-json",
            "{\"format\": 1, \"rules\": ".to_string(),
            "not valid JSON",
        ),
        (
            "format",
            text.replace("\"format\": 3", "\"format\": 7"),
            "the save is in format 7; this version of meeple reads formats 1 to 3",
        ),
        (
            "illegal",
            text.replace("\"cheat\"", "\"fly\""),
            "decision 3 (P3: `fly`): `fly` is not allowed",
        ),
        (
            "title",
            text.replace("\"Cheater's Game\"", "\"Chess\""),
            "the save is a game of `Chess`, not `Cheater's Game`",
        ),
        (
            "players",
            text.replace("\"players\": 3", "\"players\": 4"),
            "the save is for 4 players; this game has 3",
        ),
        (
            "seat",
            text.replace("\"P2\"", "\"P7\""),
            "decision 2 (P7: `honest`): the game has no seat `P7`",
        ),
        ("not-a-save", "[1, 2]".to_string(), "not a Meeple save"),
    ];
    for (name, body, expected) in cases {
        let path = format!("{dir}/{name}.json");
        std::fs::write(abs(&path), body).expect("write a corrupt save");
        let o = meeple(
            &["play", GAME, "--seed", "5"],
            &script(&["1", "state", &format!("load {path}"), "state", "quit"]),
        );
        let out = stdout(&o);
        assert_eq!(code(&o), 1, "{name}: the `load` line was refused");
        assert!(out.contains(expected), "{name}: {out}");
        assert!(out.contains("The game is as it was."), "{name}: {out}");
        let states = states(&out);
        assert_eq!(states.len(), 2, "{name}: {out}");
        assert_eq!(states[0], states[1], "{name}: the game changed");
    }

    let o = run(&["play", "--load", &format!("{dir}/illegal.json")]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("cannot resume: decision 3 (P3: `fly`)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn test_runs_scenarios_and_bot_games() {
    let o = run(&["test", "--no-snapshots", GAME, RACE]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains("  ok    a tie on total is broken by honest points (CG-8)"),
        "{out}"
    );
    assert!(out.contains("  ok    a bot game for 5 players"), "{out}");
    assert!(out.trim_end().ends_with("passed, 0 failed"), "{out}");
}

#[test]
fn test_fails_on_a_wrong_expectation() {
    let dir = scratch("test-failing");
    let file = format!("{dir}/counter.rules");
    std::fs::write(
        &file,
        "game \"Counter\" { players 2 }\nplayer var points: int = 0\nflow { for p in players { turn p } }\naction score { me.points += 2 }\nscore(p) = p.points\n\nscenario \"scoring adds three\" {\n  play \"score\"\n  expect P1.points == 3\n}\n",
    )
    .expect("write the fixture");
    let o = run(&["test", "--no-snapshots", &file]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("FAIL  scoring adds three"), "{out}");
    assert!(out.contains("`P1.points` is 2"), "{out}");
    assert!(out.trim_end().ends_with("1 passed, 1 failed"), "{out}");
}

#[test]
fn a_syntax_error_in_one_file_is_one_failure_and_the_other_files_are_tested() {
    let dir = scratch("test-syntax-error");
    let broken = format!("{dir}/broken.rules");
    std::fs::write(
        &broken,
        "game \"Broken\" { players 2 }\nflow { }\nscenario \"half written\" {\n  expect refused\n",
    )
    .expect("write the fixture");
    let snapshots = abs(&format!("{dir}/snapshots"));
    let _ = std::fs::remove_dir_all(&snapshots);
    // With goldens compared: the broken file has none written for it.
    let o = run(&["test", &broken, RACE]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains("broken.rules: does not check (1 error)"),
        "{out}"
    );
    assert!(out.contains("  ok    a bot game for 5 players"), "{out}");
    assert!(out.trim_end().ends_with(" 1 failed"), "{out}");
    assert!(
        !snapshots.exists(),
        "a golden was written for a file that does not check"
    );
}

#[test]
fn at_a_table_with_a_person_the_seed_is_not_shown_before_the_game_ends() {
    // The seed replays the deal: whoever reads it knows every hidden card.
    let o = meeple(
        &["play", GAME, "--bots", "2=random,3=random"],
        "moves\nquit\n",
    );
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(
        !out.contains("seed") && !err.contains("seed"),
        "{out}\n{err}"
    );
    assert!(out.contains("Cheater's Game · 3 players\n"), "{out}");
}

// ------------------------------------------------------- transcripts and saves that survive failure

const LATE: &str = "tests/fixtures/run/late_failure.rules";

/// Runs the `meeple` binary in `dir` (relative to the crate root) with `stdin` piped in.
fn meeple_in(dir: &str, args: &[&str], stdin: &str) -> std::process::Output {
    use std::process::{Command, Stdio};
    let child = Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args(args)
        .current_dir(abs(dir))
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the meeple binary runs");
    common::finish(child, stdin.as_bytes())
}

/// Loads a save or stream for people at the table (no bots), and quits at once.
fn load_and_quit(path: &str) -> std::process::Output {
    meeple(
        &["play", "--load", path, "--bots", "none"],
        &script(&["quit"]),
    )
}

/// Late Failure by random bots on seed 3: its rules fail in decision 7; the save is written to
/// `save`.
fn late_failure(save: &str, json: bool) -> std::process::Output {
    let _ = std::fs::remove_file(abs(save));
    let mut args = vec!["play", LATE, "--bots", "random", "--seed", "3"];
    args.extend(["--save-on-failure", save]);
    if json {
        args.push("--json");
    }
    run(&args)
}

#[test]
fn a_rule_failing_in_bot_play_keeps_the_transcript_and_ends_with_the_error() {
    let save = format!("{}/text.json", scratch("late-text"));
    let o = late_failure(&save, false);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("Late Failure · 2 players · seed 3\n\n"),
        "{out}"
    );
    // the decisions before the failure, as an onlooker saw them
    assert!(out.contains("P1 has chosen\nP2 has chosen\nP1: "), "{out}");
    assert_eq!(out.matches(" has chosen").count(), 4, "{out}");
    assert!(!out.contains("card"), "a hidden card is never shown: {out}");
    assert!(out.contains("\nA rule failed in decision 7 (P1: "), "{out}");
    assert!(out.contains("division-by-zero: 7 / 0"), "{out}");
    assert!(
        out.contains(
            "  at tests/fixtures/run/late_failure.rules:30:15: decided = decided / zero\n"
        ),
        "{out}"
    );
    assert!(
        out.ends_with(&format!(
            "The game just before decision 7 is saved in `{save}` (`meeple play --load {save}` reopens it).\n"
        )),
        "{out}"
    );
    let err = stderr(&o);
    assert!(err.contains("while running this, in decision 7"), "{err}");
    assert!(err.contains(&format!("saved in `{save}`")), "{err}");
    assert!(abs(&save).exists());
}

#[test]
fn a_rule_failing_before_the_first_decision_says_so() {
    let early = "play tests/fixtures/run/early_failure.rules --players 2 --bots random --seed 1";
    let o = run(&early.split(' ').collect::<Vec<_>>());
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("\nA rule failed before the first decision: division-by-zero: 10 / 0\n"),
        "{out}"
    );
    let err = stderr(&o);
    assert!(
        err.contains("while running this, before the first decision"),
        "{err}"
    );
    assert!(
        !err.contains("setup"),
        "the flow failed, not `setup`: {err}"
    );
}

#[test]
fn a_rule_failing_in_bot_play_ends_the_json_stream_with_an_error_line() {
    let save = format!("{}/json.json", scratch("late-json"));
    let o = late_failure(&save, true);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 8, "a header, six decisions and the error");
    assert_eq!(lines[0]["schema"], "meeple-game/3");
    assert_eq!(lines[0]["rules"], LATE);
    for (i, d) in lines[1..7].iter().enumerate() {
        assert_eq!(d["event"], "decision");
        assert_eq!(d["number"], i + 1);
    }
    let error = &lines[7];
    assert_eq!(error["event"], "error");
    assert_eq!(error["decision"], 7);
    assert_eq!(error["player"], "P1");
    assert!(error["choice"].is_string());
    assert_eq!(error["code"], "division-by-zero");
    assert_eq!(error["message"], "7 / 0");
    assert_eq!(
        error["rule"],
        serde_json::json!({"file": LATE, "line": 30, "column": 15, "source": "decided = decided / zero"})
    );
    assert_eq!(error["save"], save.as_str());
}

#[test]
fn a_save_of_an_earlier_meeple_still_loads_and_an_edit_of_it_is_still_found() {
    // Made by meeple at 7552f5e, whose chain hashed the whole position, log and decisions
    // included, at every link (docs/saves.md): the game of `late_failure`, saved at its failure.
    let old = "tests/fixtures/saves/late_failure_chain1.json";
    let o = load_and_quit(old);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(&format!("Resumed `{old}`: 6 decisions replayed.")),
        "{out}"
    );
    // The same game saved now has a chain of its own (another link 0), which loads too.
    let dir = scratch("chain-versions");
    let new = format!("{dir}/new.json");
    assert_eq!(code(&late_failure(&new, false)), 1);
    let start = |path: &str| {
        let text = std::fs::read_to_string(abs(path)).expect("a save");
        let save: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        save["start"].as_str().expect("a start link").to_string()
    };
    assert_ne!(start(old), start(&new));
    let o = load_and_quit(&new);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // A move of the old save edited, its links left as they were: refused, as before.
    let text = std::fs::read_to_string(abs(old)).expect("the old save");
    let edited = text
        .replacen("\"choice\": \"pass\"", "\"choice\": \"draw\"", 1)
        .replace(
            "../run/late_failure.rules",
            &abs(LATE).display().to_string(),
        );
    assert_ne!(edited, text);
    let path = format!("{dir}/edited.json");
    std::fs::write(abs(&path), edited).expect("written");
    let o = load_and_quit(&path);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(
        stderr(&o).contains("decision 3 does not match the record"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_failure_save_reopens_the_game_just_before_the_failing_decision() {
    let dir = scratch("late-reopen");
    let save = format!("{dir}/failed.json");
    assert_eq!(code(&late_failure(&save, false)), 1);

    // people at the table: the position after six decisions
    let o = meeple(
        &["play", "--load", &save, "--bots", "none"],
        &script(&["state", "quit"]),
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(&format!("Resumed `{save}`: 6 decisions replayed.")),
        "{out}"
    );
    assert!(last_state(&out).contains("decided 6"), "{out}");

    // the bots it was saved with play on, and the same rule fails in the same decision
    let again = format!("{dir}/again.json");
    let o = run(&["play", "--load", &save, "--save-on-failure", &again]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stdout(&o).contains("A rule failed in decision 7 (P1: "));
    assert_eq!(
        std::fs::read_to_string(abs(&save)).expect("the save"),
        std::fs::read_to_string(abs(&again)).expect("the second save"),
    );
}

#[test]
fn a_save_keeps_its_bots_and_paths_relative_to_itself() {
    let dir = scratch("relative");
    let save = format!("{dir}/half.json");
    let args = ["play", GAME, "--seed", "11", "--bots", "2=random"];
    let ones = |n| vec!["1"; n];
    let mut whole = ones(8);
    whole.extend(["state", "quit"]);
    let whole = meeple(&args, &script(&whole));
    let mut first = ones(4);
    let save_cmd = format!("save {save}");
    first.extend([save_cmd.as_str(), "quit"]);
    assert_eq!(code(&meeple(&args, &script(&first))), 0);

    let text = std::fs::read_to_string(abs(&save)).expect("the save");
    let saved: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(saved["rules"], "../../../rules/cheaters_game.rules");
    assert_eq!(saved["bots"], "2=random");

    // from another working folder, without --bots: the bot seat comes back from the save
    let elsewhere = scratch("relative/elsewhere");
    let mut rest = ones(4);
    rest.extend(["state", "quit"]);
    let resumed = meeple_in(
        &elsewhere,
        &["play", "--load", "../half.json"],
        &script(&rest),
    );
    assert_eq!(code(&resumed), 0, "{}", stderr(&resumed));
    assert!(
        stdout(&resumed).contains("Bots play P2."),
        "{}",
        stdout(&resumed)
    );
    assert_eq!(last_state(&stdout(&whole)), last_state(&stdout(&resumed)));
}

#[test]
fn an_edited_save_is_refused_naming_the_first_point_that_does_not_match() {
    let dir = scratch("edited");
    let good = format!("{dir}/good.json");
    assert_eq!(code(&late_failure(&good, false)), 1);
    let text = std::fs::read_to_string(abs(&good)).expect("the save");
    let save: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let o = load_and_quit(&good);
    assert_eq!(code(&o), 0, "the good save loads: {}", stderr(&o));

    let decisions = save["decisions"].as_array().expect("decisions").clone();
    // another legal answer than the one saved
    let other = |d: &serde_json::Value, answers: &[&str]| -> String {
        let c = d["choice"].as_str().expect("a choice");
        answers
            .iter()
            .find(|a| **a != c)
            .expect("another")
            .to_string()
    };
    let edit = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut s = save.clone();
        f(&mut s);
        s
    };
    let cases: Vec<(&str, serde_json::Value, String)> = vec![
        (
            "seed",
            edit(&|s| s["seed"] = serde_json::json!(4)),
            "the position after the setup does not match the record: the rules are as they were when the game was saved, so the save was edited (its seed or players)".into(),
        ),
        (
            "secret",
            edit(&|s| s["decisions"][1]["choice"] = other(&decisions[1], &["1", "2", "3"]).into()),
            "decision 2 does not match the record: the rules are as they were when the game was saved, so the save was edited".into(),
        ),
        (
            "move",
            edit(&|s| s["decisions"][2]["choice"] = other(&decisions[2], &["draw", "pass"]).into()),
            "decision 3 does not match the record".into(),
        ),
        (
            "reordered",
            edit(&|s| s["decisions"].as_array_mut().expect("list").swap(0, 1)),
            "decision 1 does not match the record".into(),
        ),
        (
            "truncated",
            edit(&|s| {
                s["decisions"].as_array_mut().expect("list").pop();
            }),
            "the record does not end after decision 5, where the save does".into(),
        ),
        (
            "unchained",
            edit(&|s| {
                s.as_object_mut().expect("object").remove("start");
            }),
            "its chain of state hashes (`start`, each decision's `state`, `end`) is incomplete".into(),
        ),
    ];
    for (name, body, expected) in cases {
        let path = format!("{dir}/{name}.json");
        std::fs::write(
            abs(&path),
            serde_json::to_string_pretty(&body).expect("JSON"),
        )
        .expect("write an edited save");
        let o = run(&["play", "--load", &path, "--bots", "none"]);
        assert_eq!(code(&o), 1, "{name}: {}", stdout(&o));
        assert!(o.stdout.is_empty(), "{name}: nothing half-loaded");
        let err = stderr(&o);
        assert!(err.starts_with("meeple: cannot resume: "), "{name}: {err}");
        assert!(err.contains(&expected), "{name}: {err}");
    }
}

#[test]
fn load_replays_a_json_stream() {
    let dir = scratch("stream");
    let stream = format!("{dir}/game.jsonl");
    let o = run(&["play", GAME, "--bots", "random", "--json", "--seed", "42"]);
    assert_eq!(code(&o), 0);
    std::fs::write(abs(&stream), &o.stdout).expect("write the stream");
    // played again from the stream by the same bots: the same stream
    let again = run(&["play", "--load", &stream, "--json"]);
    assert_eq!(code(&again), 0, "{}", stderr(&again));
    assert_eq!(stdout(&again), stdout(&o));

    // a stream cut short loads to where it stops, for people to play on
    let text = stdout(&o);
    let cut: Vec<&str> = text.lines().take(6).collect();
    let cut = format!("{}\n{{\"event\":\"deci", cut.join("\n"));
    std::fs::write(abs(&stream), cut).expect("write the cut stream");
    let o = load_and_quit(&stream);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with(&format!("Resumed `{stream}`: 5 decisions replayed.")),
        "{}",
        stdout(&o)
    );
}

#[test]
fn the_streamed_transcript_is_the_whole_transcript_of_the_game() {
    let o = run(&["play", GAME, "--bots", "random", "--seed", "5"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let game = meeple::sim::random_game(common::program(GAME), 3, 5).expect("the game ends");
    assert_eq!(stdout(&o), meeple::sim::transcript(&game));
}
