//! `meeple sim` end to end and its library: the report is the same for any thread count, shards
//! merge into exactly the report of one run, failing rules are reported with their seed and
//! decision, the Wilson intervals match hand-computed values, and the JSON document has its
//! schema and every documented field.

mod common;

use common::{code, run, stderr, stdout};
use meeple::bots::{BotKind, Policy, RandomBot};
use meeple::engine::{Game, MoveError};
use meeple::sim::choices::{decision_spans, Tally};
use meeple::sim::clamps::{clamp_statements, ClampTally};
use meeple::sim::coverage::rule_block_ids;
use meeple::sim::report::default_max_decisions;
use meeple::sim::stats::{wilson, Proportion, Z95};
use meeple::sim::{play_game, run_batch, Batch, Counts, GameRecord, Shard, Starter};
use std::path::Path;
use std::process::Output;
use std::sync::Arc;

const GAME: &str = "rules/cheaters_game.rules";
const OVERDRAW: &str = "tests/fixtures/run/overdraw.rules";
const ENDLESS: &str = "tests/fixtures/run/endless.rules";
const NEVER_TAKEN: &str = "tests/fixtures/run/never_taken.rules";
const CHOICES: &str = "tests/fixtures/run/choices.rules";
const CLAMPED: &str = "tests/fixtures/run/clamped_purse.rules";

/// A scratch folder under `target/`, relative to the crate root.
fn scratch(name: &str) -> String {
    let rel = format!("target/sim-tests/{name}");
    std::fs::create_dir_all(Path::new(env!("CARGO_MANIFEST_DIR")).join(&rel))
        .expect("scratch folder");
    rel
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).expect("one JSON document")
}

/// The decision at which a two-player game of random bots with `seed` stops with the run-time
/// error `code`, played as `meeple play` plays it.
fn decision_failing(program: &Arc<meeple::ir::Program>, seed: u64, code: &str) -> usize {
    let mut game = Game::new(program.clone(), 2, seed).expect("starts");
    let mut bots: Vec<RandomBot> = (0..2).map(|p| RandomBot::new(seed, p)).collect();
    let mut decision = 0;
    loop {
        let seat = game.to_decide().expect("fails before its end");
        decision += 1;
        let i = bots[seat as usize].decide(&game, seat);
        match game.play(seat, i) {
            Ok(()) => {}
            Err(MoveError::Runtime(e)) => {
                assert_eq!(e.code, code);
                return decision;
            }
            Err(e) => panic!("refused: {e}"),
        }
    }
}

fn program(path: &str) -> Arc<meeple::ir::Program> {
    common::program(path)
}

// --------------------------------------------------------------------------- determinism

#[test]
fn the_text_report_is_byte_identical_for_any_thread_count() {
    for (file, players) in [(GAME, "4"), (OVERDRAW, "3")] {
        let report = |threads: &str| {
            let o = run(&[
                "sim",
                file,
                "--players",
                players,
                "--games",
                "300",
                "--seed",
                "7",
                "--threads",
                threads,
            ]);
            assert!(code(&o) <= 1, "{}", stderr(&o));
            o.stdout
        };
        let one = report("1");
        assert!(!one.is_empty());
        assert_eq!(one, report("2"), "{file}: 1 thread vs 2");
        assert_eq!(one, report("3"), "{file}: 1 thread vs 3");
    }
}

#[test]
fn games_of_greedy_bots_and_of_a_search_that_stops_short_are_the_same_for_any_thread_count() {
    let bots = "greedy,1=mcts:30:depth=6";
    let report = |threads: &str| {
        let o = run(&[
            "sim",
            GAME,
            "-p",
            "3",
            "-g",
            "8",
            "-s",
            "2",
            "--bots",
            bots,
            "--threads",
            threads,
        ]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        stdout(&o)
    };
    let one = report("1");
    assert!(
        one.contains("bots: 1=mcts:30:depth=6,2=greedy,3=greedy"),
        "{one}"
    );
    assert_eq!(one, report("2"), "1 thread vs 2");
    let help = stdout(&run(&["sim", "--help"]));
    assert!(
        help.contains("greedy") && help.contains("depth=D"),
        "{help}"
    );
    let bad = run(&[
        "sim",
        GAME,
        "-p",
        "3",
        "-g",
        "1",
        "--bots",
        "mcts:5:depth=0",
    ]);
    assert_eq!(code(&bad), 2, "{}", stderr(&bad));
}

#[test]
fn the_records_are_in_game_order_and_the_same_for_any_thread_count() {
    let program = program(GAME);
    let batch = Batch {
        players: 3,
        games: 64,
        seed: 100,
        bots: vec![BotKind::Random; 3],
        shard: None,
        max_decisions: default_max_decisions(),
    };
    let one = run_batch(&program, &batch, Some(1), &|| {}).expect("a pool");
    let two = run_batch(&program, &batch, Some(2), &|| {}).expect("a pool");
    // Records, and the options taken summed over the workers' tallies.
    assert_eq!(one, two);
    assert!(one.counts.choices.answers() > 0, "the alliance is asked");
    let one = one.records;
    let indices: Vec<u64> = one.iter().map(|r| r.index).collect();
    assert_eq!(indices, (0..64).collect::<Vec<_>>());
    assert!(one.iter().all(|r| r.seed == 100 + r.index));
}

#[test]
fn a_batch_plays_each_game_as_one_started_on_its_own() {
    // A batch starts its games from one start prepared per worker, each game in the buffers of
    // the one before: every record and count must be those of games each started afresh.
    let liars_dice = "tests/fixtures/honesty/liars_dice.rules";
    for (file, players) in [(liars_dice, 2u8), (OVERDRAW, 3), (CLAMPED, 2), (GAME, 4)] {
        let program = program(file);
        let batch = Batch {
            players,
            games: 130,
            seed: 7,
            bots: vec![BotKind::Random; players as usize],
            shard: None,
            max_decisions: default_max_decisions(),
        };
        let one = run_batch(&program, &batch, Some(1), &|| {}).expect("a pool");
        let two = run_batch(&program, &batch, Some(2), &|| {}).expect("a pool");
        assert_eq!(one, two, "{file}");
        let sites = decision_spans(&program);
        let assignments = clamp_statements(&program);
        let mut tally = Tally::new(&sites);
        let mut clamps = ClampTally::new(&assignments);
        let mut ran = vec![0; program.blocks.len()];
        let alone: Vec<GameRecord> = (0..batch.games)
            .map(|i| {
                let mut starter = Starter::new(&program, &batch);
                play_game(
                    &program,
                    &batch,
                    i,
                    &mut starter,
                    &mut tally,
                    &mut ran,
                    &mut clamps,
                )
            })
            .collect();
        assert_eq!(one.records, alone, "{file}");
        let counts = Counts {
            choices: tally.totals(),
            blocks: rule_block_ids(&program)
                .iter()
                .map(|b| ran[b.index()])
                .collect(),
            clamps: clamps.counts().to_vec(),
        };
        assert_eq!(one.counts, counts, "{file}");
    }
}

#[test]
fn a_simulated_game_is_the_random_playout_of_its_seed() {
    let program = program(GAME);
    let batch = Batch {
        players: 4,
        games: 20,
        seed: 1,
        bots: vec![BotKind::Random; 4],
        shard: None,
        max_decisions: default_max_decisions(),
    };
    for r in run_batch(&program, &batch, Some(1), &|| {})
        .expect("a pool")
        .records
    {
        let game = meeple::sim::random_playout(program.clone(), 4, r.seed).expect("plays");
        let o = game.outcome().expect("over");
        assert_eq!(r.decisions, game.decisions() as u64, "seed {}", r.seed);
        assert_eq!(r.winners, o.winners, "seed {}", r.seed);
        assert_eq!(r.scores, o.scores, "seed {}", r.seed);
        assert_eq!(r.reason, o.reason, "seed {}", r.seed);
        let turns: u64 = r.actions.iter().sum();
        assert!(turns > 0 && turns <= r.decisions);
    }
}

// --------------------------------------------------------------------------------- shards

#[test]
fn two_shards_merged_print_exactly_the_report_of_one_run() {
    let dir = scratch("merge");
    let base = [OVERDRAW, "--players", "2", "--games", "250", "--seed", "3"];
    let single = run(&[&["sim"][..], &base].concat());
    assert_eq!(code(&single), 1, "overdraw fails in some games");
    let mut files = Vec::new();
    for k in ["1/2", "2/2"] {
        let o = run(&[&["sim"][..], &base, &["--shard", k, "--json"]].concat());
        assert_eq!(code(&o), 1, "{}", stderr(&o));
        let doc = json(&o);
        let records = doc["records"]
            .as_array()
            .expect("a shard keeps its records");
        assert_eq!(records.len(), 125);
        let path = format!("{dir}/shard-{}.json", &k[..1]);
        std::fs::write(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path), &o.stdout)
            .expect("write the shard");
        files.push(path);
    }
    // given in any order
    let merged = run(&["sim", "merge", &files[1], &files[0]]);
    assert_eq!(code(&merged), 1, "{}", stderr(&merged));
    assert_eq!(stdout(&merged), stdout(&single), "text, byte for byte");

    let single_json = run(&[&["sim"][..], &base, &["--json"]].concat());
    let merged_json = run(&["sim", "merge", "--json", &files[0], &files[1]]);
    assert_eq!(
        merged_json.stdout, single_json.stdout,
        "JSON, byte for byte"
    );
    assert!(json(&single_json).get("records").is_none());

    let single_csv = run(&[&["sim"][..], &base, &["--csv"]].concat());
    let merged_csv = run(&["sim", "merge", "--csv", &files[0], &files[1]]);
    assert_eq!(merged_csv.stdout, single_csv.stdout, "CSV, byte for byte");

    let missing = run(&["sim", "merge", &files[0]]);
    assert_eq!(code(&missing), 1);
    assert!(
        stderr(&missing).contains("missing shard: 2/2"),
        "{}",
        stderr(&missing)
    );
    let twice = run(&["sim", "merge", &files[0], &files[0]]);
    assert!(stderr(&twice).contains("given twice"), "{}", stderr(&twice));
}

#[test]
fn a_comparison_merged_from_shards_is_byte_for_byte_the_comparison_of_one_run() {
    let dir = scratch("merge-against");
    let base = [
        GAME,
        "--players",
        "3",
        "--games",
        "30",
        "--seed",
        "5",
        "--against",
        RACE,
    ];
    let mut files = Vec::new();
    for k in ["1/3", "2/3", "3/3"] {
        let o = run(&[&["sim"][..], &base, &["--shard", k, "--json"]].concat());
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let doc = json(&o);
        assert_eq!(doc["schema"], "meeple-sim-compare/1");
        for side in ["a", "b"] {
            let records = doc[side]["records"].as_array().expect("records kept");
            assert_eq!(records.len(), 10, "{side}");
        }
        let path = format!("{dir}/shard-{}.json", &k[..1]);
        std::fs::write(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path), &o.stdout)
            .expect("write the shard");
        files.push(path);
    }
    let single = run(&[&["sim"][..], &base].concat());
    let merged = run(&["sim", "merge", &files[2], &files[0], &files[1]]);
    assert_eq!(code(&merged), 0, "{}", stderr(&merged));
    assert_eq!(stdout(&merged), stdout(&single), "text, byte for byte");

    let single_json = run(&[&["sim"][..], &base, &["--json"]].concat());
    let merged_json = run(&["sim", "merge", "--json", &files[0], &files[1], &files[2]]);
    assert_eq!(
        merged_json.stdout, single_json.stdout,
        "JSON, byte for byte"
    );
    assert!(json(&single_json)["a"].get("records").is_none());

    let missing = run(&["sim", "merge", &files[0], &files[1]]);
    assert_eq!(code(&missing), 1);
    assert!(
        stderr(&missing).contains("missing shard: 3/3"),
        "{}",
        stderr(&missing)
    );
    let csv = run(&["sim", "merge", "--csv", &files[0], &files[1], &files[2]]);
    assert_eq!(code(&csv), 2, "a comparison has no CSV");

    // A shard of one batch does not merge with shards of a comparison.
    let plain = run(&[
        "sim", GAME, "-p", "3", "-g", "30", "-s", "5", "--shard", "1/3", "--json",
    ]);
    let plain_path = format!("{dir}/plain-1.json");
    std::fs::write(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(&plain_path),
        &plain.stdout,
    )
    .expect("write the shard");
    let mixed = run(&["sim", "merge", &plain_path, &files[1], &files[2]]);
    assert_eq!(code(&mixed), 1);
    assert!(stderr(&mixed).contains("comparison"), "{}", stderr(&mixed));
}

#[test]
fn shards_split_the_games_by_index() {
    let s = Shard::parse("3/8").expect("parses");
    assert_eq!((s.index, s.count), (3, 8));
    assert!(s.contains(2) && s.contains(10) && !s.contains(3));
    for bad in ["0/8", "9/8", "3", "a/b", "1/0"] {
        assert!(Shard::parse(bad).is_err(), "{bad}");
    }
    let batch = Batch {
        players: 3,
        games: 20,
        seed: 1,
        bots: vec![BotKind::Random; 3],
        shard: Some(s),
        max_decisions: default_max_decisions(),
    };
    assert_eq!(batch.indices().collect::<Vec<_>>(), [2, 10, 18]);
    assert_eq!(batch.len(), 3);
    // every game in exactly one shard, whatever G and N
    for games in [0, 1, 7, 8, 9, 64] {
        for count in 1..=9 {
            let mut all: Vec<u64> = (1..=count)
                .flat_map(|index| {
                    let b = Batch {
                        games,
                        shard: Some(Shard { index, count }),
                        ..batch.clone()
                    };
                    b.indices().collect::<Vec<_>>()
                })
                .collect();
            all.sort_unstable();
            assert_eq!(
                all,
                (0..games).collect::<Vec<_>>(),
                "{games} games, {count} shards"
            );
        }
    }
}

// ------------------------------------------------------------------------------- failures

#[test]
fn a_failing_rule_is_reported_with_its_seed_decision_and_replay_command() {
    let o = run(&["sim", OVERDRAW, "-p", "2", "-g", "60", "--json"]);
    assert_eq!(code(&o), 1, "a failure exits 1");
    let doc = json(&o);
    let failures = doc["failures"].as_array().expect("failures");
    assert!(!failures.is_empty() && failures.len() < 60, "{failures:?}");
    assert_eq!(doc["failed"], failures.len());
    let program = program(OVERDRAW);
    for f in failures {
        assert_eq!(f["code"], "out-of-range", "{f}");
        assert_eq!(f["at"], format!("{OVERDRAW}:18:16"), "{f}");
        let seed = f["seed"].as_u64().expect("a seed");
        assert_eq!(
            f["reproduce"],
            format!("meeple play {OVERDRAW} --players 2 --seed {seed} --bots random")
        );
        // The decision number is the one a full game (as `meeple play` plays it) fails at.
        let failed_at = decision_failing(&program, seed, "out-of-range");
        assert_eq!(f["decision"], failed_at, "seed {seed}");
    }

    let text = run(&["sim", OVERDRAW, "-p", "2", "-g", "60"]);
    let out = stdout(&text);
    let first = &failures[0];
    assert!(
        out.contains(&format!(
            "seed {} (decision {})",
            first["seed"], first["decision"]
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("out-of-range at {OVERDRAW}:18:16")),
        "{out}"
    );
    assert!(out.contains("nth(…, 4) of a list of 3"), "{out}");
    assert!(
        out.contains(first["reproduce"].as_str().expect("a command")),
        "{out}"
    );

    // The replay command fails the same way (its save kept under target/, not the crate root).
    let seed = first["seed"].to_string();
    let save = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/sim-tests");
    std::fs::create_dir_all(&save).expect("a scratch folder");
    let save = save.join("replay-failure.json");
    let replay = run(&[
        "play",
        OVERDRAW,
        "--players",
        "2",
        "--seed",
        &seed,
        "--bots",
        "random",
        "--save-on-failure",
        save.to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(code(&replay), 1);
    assert!(
        stderr(&replay).contains("out-of-range"),
        "{}",
        stderr(&replay)
    );
    assert!(stderr(&replay).contains(&format!("{OVERDRAW}:18:16")));
}

#[test]
fn a_game_that_never_ends_stops_at_max_decisions_and_its_replay_stops_there_too() {
    // Without the option each game would run to the engine's 100,000 decisions.
    let base = [
        "sim",
        ENDLESS,
        "-p",
        "2",
        "-g",
        "3",
        "--max-decisions",
        "40",
    ];
    let o = run(&[&base[..], &["--json"]].concat());
    assert_eq!(code(&o), 1, "a game stopped by the limit is a failure");
    let doc = json(&o);
    assert_eq!(doc["max_decisions"], 40);
    assert_eq!(doc["failed"], 3);
    let failures = doc["failures"].as_array().expect("failures");
    assert_eq!(failures.len(), 3);
    for f in failures {
        assert_eq!(f["code"], "decision-limit", "{f}");
        assert_eq!(f["decision"], 41, "{f}");
        assert!(
            f["reproduce"]
                .as_str()
                .expect("a command")
                .ends_with(" --bots random --max-decisions 40"),
            "{f}"
        );
    }
    // A move that failed did not happen: 40 decisions a game, and 40 actions taken.
    let taken: u64 = doc["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .map(|a| a["taken"].as_u64().expect("a count"))
        .sum();
    assert_eq!(taken, 3 * 40);

    let text = stdout(&run(&base));
    assert!(text.contains("at most 40 decisions a game"), "{text}");
    let compared = stdout(&run(&[&base[..], &["--against", ENDLESS]].concat()));
    assert!(
        compared.contains("at most 40 decisions a game"),
        "{compared}"
    );
    let default = stdout(&run(&["sim", GAME, "-p", "3", "-g", "5"]));
    assert!(!default.contains("decisions a game"), "{default}");

    // The replay command stops at the same decision.
    let save = Path::new(env!("CARGO_MANIFEST_DIR")).join(scratch("limit"));
    let replay = run(&[
        "play",
        ENDLESS,
        "--players",
        "2",
        "--seed",
        "1",
        "--bots",
        "random",
        "--max-decisions",
        "40",
        "--json",
        "--save-on-failure",
        save.join("failure.json").to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(code(&replay), 1);
    let lines: Vec<serde_json::Value> = stdout(&replay)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let last = lines.last().expect("lines");
    assert_eq!(last["event"], "error", "{last}");
    assert_eq!(last["code"], "decision-limit", "{last}");
    assert_eq!(last["decision"], 41, "{last}");
    assert!(
        last["help"]
            .as_str()
            .is_some_and(|h| h.contains("`--max-decisions` sets the limit")),
        "{last}"
    );

    // Search bots stop at it too, their imagined games included.
    let searched = run(&[
        "sim",
        ENDLESS,
        "-p",
        "2",
        "-g",
        "2",
        "--bots",
        "mcts:5",
        "--max-decisions",
        "12",
        "--json",
    ]);
    let doc = json(&searched);
    for f in doc["failures"].as_array().expect("failures") {
        assert_eq!(
            (&f["code"], &f["decision"]),
            (&"decision-limit".into(), &13.into())
        );
    }
    assert_eq!(doc["failed"], 2);
}

#[test]
fn shards_with_different_decision_limits_do_not_merge_and_old_shards_have_the_default() {
    let dir = scratch("merge-limit");
    let shard = |k: &str, limit: &str| {
        let options = ["--shard", k, "--max-decisions", limit, "--json"];
        let o = run(&[&["sim", OVERDRAW, "-p", "2", "-g", "20"][..], &options].concat());
        let path = format!("{dir}/shard-{}-{limit}.json", &k[..1]);
        std::fs::write(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path), &o.stdout)
            .expect("write the shard");
        path
    };
    let (one, two) = (shard("1/2", "500"), shard("2/2", "600"));
    let mixed = run(&["sim", "merge", &one, &two]);
    assert_eq!(code(&mixed), 1);
    assert!(
        stderr(&mixed).contains("--max-decisions"),
        "{}",
        stderr(&mixed)
    );

    // A shard written before the option existed has no `max_decisions`: the default.
    let old = shard("1/2", "100000");
    let mut doc: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(&old)).expect("read"),
    )
    .expect("JSON");
    doc.as_object_mut()
        .expect("an object")
        .remove("max_decisions");
    std::fs::write(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(&old),
        serde_json::to_string(&doc).expect("JSON"),
    )
    .expect("write");
    let new = shard("2/2", "100000");
    let merged = run(&["sim", "merge", "--json", &old, &new]);
    assert_eq!(
        code(&merged),
        1,
        "overdraw fails in some games: {}",
        stderr(&merged)
    );
    assert_eq!(json(&merged)["max_decisions"], 100_000);
}

#[test]
fn actions_never_taken_endings_and_csv_rows() {
    let o = run(&["sim", OVERDRAW, "-p", "2", "-g", "100"]);
    let out = stdout(&o);
    assert!(out.contains("never taken in 100 games: hoard"), "{out}");
    assert!(out.contains("normal end"), "{out}");
    // Ended by P1's six or P2's, one ending: the reasons differ only by the seat.
    assert!(out.contains("end game \"{seat} rolls a six\""), "{out}");

    let csv = stdout(&run(&["sim", OVERDRAW, "-p", "2", "-g", "100", "--csv"]));
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(
        rows[0],
        "index,seed,decisions,winners,score_P1,score_P2,reason,failure"
    );
    assert_eq!(rows.len(), 101, "a header and one row a game");
    assert!(rows[1].starts_with("0,1,"), "{}", rows[1]);
    assert!(rows
        .iter()
        .any(|r| r.contains("decision ") && r.contains("out-of-range")));
    assert!(rows.iter().any(|r| r.contains(",P1 rolls a six,")));
}

#[test]
fn blocks_of_an_action_never_taken_are_left_to_that_action() {
    let o = run(&["sim", NEVER_TAKEN, "-p", "2", "-g", "50", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let doc = json(&o);
    assert_eq!(doc["never_taken"], serde_json::json!(["hoard"]));
    let never: Vec<&str> = doc["never_ran"]
        .as_array()
        .expect("never ran")
        .iter()
        .map(|s| s["at"].as_str().expect("at"))
        .collect();
    // The `if` of `spend` (taken, its branch never entered) is listed; `hoard`'s two
    // branches are not.
    assert_eq!(never.len(), 1, "{never:?}");
    assert!(never[0].ends_with("never_taken.rules:27:5"), "{never:?}");
    // The blocks are still counted, each named with its action.
    let blocks = doc["rule_blocks"].as_array().expect("rule blocks");
    let in_hoard = blocks
        .iter()
        .filter(|b| b["action"] == serde_json::json!(2))
        .count();
    assert_eq!(in_hoard, 2, "{blocks:?}");
}

#[test]
fn each_decision_statement_counts_its_options_and_what_never_ran_is_listed() {
    let o = run(&["sim", CHOICES, "-p", "2", "-g", "200", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let doc = json(&o);
    let sites = doc["decision_sites"].as_array().expect("decision sites");
    assert_eq!(sites.len(), 3, "two chooses and an ask: {sites:?}");
    let answered = doc["choices"]["answered"].as_array().expect("answered");
    assert_eq!(answered.len(), 2, "{answered:?}");
    // Every decision of this game is a choose or an ask: they add up to the decisions taken.
    let total: u64 = answered
        .iter()
        .map(|s| s["answered"].as_u64().expect("n"))
        .sum();
    assert_eq!(
        total,
        doc["branching"]["decisions"].as_u64().expect("decisions")
    );
    let options = |site: &serde_json::Value| -> Vec<(String, u64)> {
        let mut v: Vec<(String, u64)> = site["options"]
            .as_array()
            .expect("options")
            .iter()
            .map(|o| {
                let name = o["option"].as_str().expect("option").to_string();
                (name, o["taken"].as_u64().expect("taken"))
            })
            .collect();
        v.sort();
        v
    };
    let colours = options(&answered[0]);
    assert_eq!(
        answered[0]["answered"], 1200,
        "200 games of 2 seats, 3 rounds"
    );
    assert_eq!(
        colours.iter().map(|(o, _)| o.as_str()).collect::<Vec<_>>(),
        ["blue", "green", "red"]
    );
    assert_eq!(colours.iter().map(|(_, n)| n).sum::<u64>(), 1200);
    assert!(answered[0]["text"]
        .as_str()
        .expect("text")
        .starts_with("let c = choose p \"Pick a colour\""));
    let banks = options(&answered[1]);
    assert_eq!(
        banks.iter().map(|(o, _)| o.as_str()).collect::<Vec<_>>(),
        ["bank", "pass"]
    );
    // Most taken first.
    let first = answered[1]["options"][0]["taken"].as_u64().expect("taken");
    assert!(banks.iter().all(|(_, n)| *n <= first), "{banks:?}");
    // One statement never asked, and the block it begins never ran; the block inside that one
    // is not listed again.
    let only_at = |list: &serde_json::Value, place: &str| {
        let items = list.as_array().expect("a list");
        assert_eq!(items.len(), 1, "{items:?}");
        assert!(items[0]["at"].as_str().expect("at").ends_with(place));
    };
    only_at(&doc["choices"]["never_asked"], "choices.rules:25:9");
    only_at(&doc["never_ran"], "choices.rules:25:9");
    let blocks = doc["rule_blocks"].as_array().expect("rule blocks");
    let ran = doc["blocks_run"].as_array().expect("blocks run");
    assert_eq!(blocks.len(), ran.len());
    let block = |text: &str| {
        blocks
            .iter()
            .position(|b| b["text"].as_str().expect("text").starts_with(text))
            .unwrap_or_else(|| panic!("a block beginning `{text}`: {blocks:?}"))
    };
    let (outer, inner) = (block("let gift"), block("p.points -= gift"));
    assert_eq!(blocks[inner]["inside"], outer);
    assert_eq!(
        (&ran[outer], &ran[inner]),
        (&serde_json::json!(0), &serde_json::json!(0))
    );
    // The body of `for p in players` ran in every game, and `p.points += 2` in most.
    assert_eq!(ran[block("let c = choose")], 200);
    let red = ran[block("p.points += 2")].as_u64().expect("games");
    assert!(red > 100 && red < 200, "{red}");

    let text = stdout(&run(&["sim", CHOICES, "-p", "2", "-g", "200"]));
    assert!(text.contains("Rules never run in 200 games"), "{text}");
    assert!(text.contains("Choices made"), "{text}");
    assert!(text.contains("never asked in 200 games"), "{text}");
    assert!(text.contains("let gift = choose p"), "{text}");
    assert!(
        !text.contains("Actions taken"),
        "a game without actions: {text}"
    );

    // Each shard counts its own games; merged, they add up to the counts of one run.
    let dir = scratch("merge-choices");
    let mut files = Vec::new();
    for k in ["1/2", "2/2"] {
        let o = run(&[
            "sim", CHOICES, "-p", "2", "-g", "200", "--shard", k, "--json",
        ]);
        // Half the games: 100 of 2 seats, 3 rounds.
        assert_eq!(json(&o)["choices"]["answered"][0]["answered"], 600);
        let path = format!("{dir}/shard-{}.json", &k[..1]);
        std::fs::write(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path), &o.stdout)
            .expect("write the shard");
        files.push(path);
    }
    let merged = run(&["sim", "merge", "--json", &files[0], &files[1]]);
    assert_eq!(code(&merged), 0, "{}", stderr(&merged));
    let merged = json(&merged);
    assert_eq!(merged["choices"], doc["choices"]);
    assert_eq!(merged["blocks_run"], doc["blocks_run"]);
    assert_eq!(merged["never_ran"], doc["never_ran"]);
}

#[test]
fn numbers_clamped_and_invariants_broken_are_reported_never_zero_failed() {
    let o = run(&["sim", CLAMPED, "-p", "2", "-g", "300", "--json"]);
    assert_eq!(
        code(&o),
        1,
        "a broken invariant fails its game: {}",
        stderr(&o)
    );
    let doc = json(&o);
    let failures = doc["failures"].as_array().expect("failures");
    assert!(
        failures.len() > 10 && failures.len() < 300,
        "{}",
        failures.len()
    );
    assert_eq!(doc["failed"], failures.len());
    // Most of these games are checked at their end only (one in a hundred throughout): each
    // failure still names the decision at which a game checked throughout breaks.
    let program = program(CLAMPED);
    let mut checked_at_end_only = 0;
    for f in failures {
        assert_eq!(f["code"], "invariant-broken", "{f}");
        assert_eq!(f["at"], format!("{CLAMPED}:16:3"), "{f}");
        let message = f["message"].as_str().expect("a message");
        assert!(
            message.contains("invariant `coins_kept` no longer holds"),
            "{f}"
        );
        assert!(
            message.contains("`bank + sum(p.coins for p in players)` is "),
            "{f}"
        );
        let seed = f["seed"].as_u64().expect("a seed");
        if f["index"].as_u64().expect("an index") % 100 != 0 {
            checked_at_end_only += 1;
        }
        let failed_at = decision_failing(&program, seed, "invariant-broken");
        assert_eq!(f["decision"], failed_at, "seed {seed}");
    }
    assert!(checked_at_end_only > 0);

    // Every assignment to a bounded variable is a place that may clamp; two did.
    let sites = doc["clamp_sites"].as_array().expect("clamp sites");
    assert_eq!(sites.len(), 6, "{sites:?}");
    let clamps = doc["clamps"].as_array().expect("clamps");
    let found: Vec<(&str, &str, &str)> = clamps
        .iter()
        .map(|c| {
            (
                c["at"].as_str().expect("at"),
                c["variable"].as_str().expect("variable"),
                c["rule"].as_str().expect("rule"),
            )
        })
        .collect();
    let earn = format!("{CLAMPED}:29:3");
    let restock = format!("{CLAMPED}:33:3");
    assert_eq!(
        found,
        [
            (earn.as_str(), "coins", "action earn"),
            (restock.as_str(), "stock", "action restock")
        ]
    );
    for c in clamps {
        let (times, games) = (
            c["times"].as_u64().expect("n"),
            c["games"].as_u64().expect("n"),
        );
        assert!(games > 0 && games <= times && games <= 300, "{c}");
    }
    // The coins clamped in every failed game (that is what broke the invariant).
    assert!(clamps[0]["games"].as_u64().expect("n") >= failures.len() as u64);

    let text = stdout(&run(&["sim", CLAMPED, "-p", "2", "-g", "300"]));
    assert!(!text.contains(" 0 failed"), "{text}");
    assert!(
        text.contains("Numbers clamped to their bounds in 300 games"),
        "{text}"
    );
    assert!(text.contains(&format!("{earn}  me.coins += 4")), "{text}");
    assert!(text.contains("coins in action earn: "), "{text}");
    assert!(text.contains("stock in action restock: "), "{text}");
    assert!(
        text.contains(&format!("invariant-broken at {CLAMPED}:16:3")),
        "{text}"
    );

    // Shards count their own clamps; merged, they are the clamps of one run.
    let dir = scratch("merge-clamps");
    let mut files = Vec::new();
    for k in ["1/2", "2/2"] {
        let o = run(&[
            "sim", CLAMPED, "-p", "2", "-g", "300", "--shard", k, "--json",
        ]);
        let path = format!("{dir}/shard-{}.json", &k[..1]);
        std::fs::write(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path), &o.stdout)
            .expect("write the shard");
        files.push(path);
    }
    let merged = run(&["sim", "merge", "--json", &files[0], &files[1]]);
    assert_eq!(code(&merged), 1, "{}", stderr(&merged));
    let merged = json(&merged);
    assert_eq!(merged["clamps"], doc["clamps"]);
    assert_eq!(merged["failures"], doc["failures"]);
}

#[test]
fn statements_are_placed_as_diagnostics_place_them() {
    // Sites count lines in one pass per file; they must agree with `SourceMap::line_col`.
    let program = program("rules/endgame.rules");
    let spans = meeple::sim::choices::decision_spans(&program);
    let sites = meeple::sim::choices::decision_sites(&program);
    assert!(spans.len() > 10, "EndGame asks often");
    for (span, site) in spans.iter().zip(&sites) {
        let (line, column) = program.sources.line_col(*span);
        let file = &program.sources.file(span.file).name;
        assert_eq!(site.at, format!("{file}:{line}:{column}"));
    }
    let ids = meeple::sim::coverage::rule_block_ids(&program);
    let blocks = meeple::sim::coverage::rule_blocks(&program);
    assert_eq!(ids.len(), blocks.len());
    for (id, block) in ids.iter().zip(&blocks) {
        let span = program.block(*id).stmts[0].span;
        let (line, column) = program.sources.line_col(span);
        assert!(
            block.site.at.ends_with(&format!(":{line}:{column}")),
            "{}",
            block.site.at
        );
    }
}

// ---------------------------------------------------------------------------- statistics

#[test]
fn wilson_intervals_match_hand_computed_values() {
    let close = |a: f64, b: f64| (a - b).abs() < 5e-5;
    // 50 of 100: (0.5 ± 1.96·√(0.0025 + 0.000096)) / 1.03841 = [0.4038, 0.5962].
    let (lo, hi) = wilson(50, 100, Z95);
    assert!(close(lo, 0.4038) && close(hi, 0.5962), "{lo} {hi}");
    // 0 of 10: [0, (z²/10) / (1 + z²/10)] = [0, 0.2775].
    let (lo, hi) = wilson(0, 10, Z95);
    assert!(close(lo, 0.0) && close(hi, 0.2775), "{lo} {hi}");
    // 1 of 4: centre (0.25 + 0.4802) / 1.9604 = 0.3725, half 1.96·√(0.046875 + 0.060024) / 1.9604.
    let p = Proportion::new(1, 4);
    assert_eq!(p.rate, 0.25);
    assert!(close(p.low, 0.04559) && close(p.high, 0.69936), "{p:?}");
}

/// A two-seat batch of `games` random-bot games whose program has these actions.
fn two_seat_meta(games: u64, actions: &[&str]) -> meeple::sim::Meta {
    meeple::sim::Meta {
        game: "T".into(),
        variants: vec![],
        file: "t.rules".into(),
        variant_files: vec![],
        players: 2,
        seats: vec!["P1".into(), "P2".into()],
        bots: vec!["random".into(); 2],
        seed: 1,
        games,
        shard: None,
        action_names: actions.iter().map(|a| a.to_string()).collect(),
        max_decisions: default_max_decisions(),
        decision_sites: vec![],
        rule_blocks: vec![],
        clamp_sites: vec![],
        goal: None,
    }
}

#[test]
fn the_report_counts_sole_shared_and_nobody_wins_apart() {
    let meta = two_seat_meta(4, &["a", "b"]);
    let record = |index: u64, winners: Vec<u8>, scores: Vec<i64>, decisions: u64| GameRecord {
        index,
        seed: 1 + index,
        decisions,
        options: 2 * decisions,
        max_options: 2,
        winners,
        scores,
        reason: None,
        actions: vec![decisions, 0],
        failure: None,
        imagined: 0,
        fallbacks: 0,
        approximate: 0,
        goals: vec![],
        eliminated: vec![],
    };
    let records = [
        record(0, vec![0], vec![5, 2], 10),
        record(1, vec![0], vec![4, 4], 20),
        record(2, vec![0, 1], vec![3, 3], 30),
        record(3, vec![], vec![0, 0], 40),
    ];
    let r = meeple::sim::Report::new(meta, &records, &Counts::default());
    assert_eq!((r.wins[0].win.count, r.wins[0].win.of), (2, 4));
    assert_eq!((r.wins[1].win.count, r.wins[1].shared), (0, 1));
    assert_eq!((r.shared_wins, r.nobody_wins), (1, 1));
    assert_eq!(r.wins[0].win.low, wilson(2, 4, Z95).0);
    let first = r.first_seat.as_ref().expect("games finished");
    assert_eq!((first.expected, first.difference), (0.5, 0.0));
    assert_eq!((r.length.mean, r.length.median), (25.0, 25.0));
    assert_eq!((r.length.p5, r.length.p95), (10.0, 40.0));
    assert_eq!((r.margin.games, r.margin.mean), (2, 1.5));
    assert_eq!(r.never_taken, ["b"]);
    assert_eq!(r.branching.mean, 2.0);
    assert_eq!(
        (r.scores[0].mean, r.scores[0].min, r.scores[0].max),
        (3.0, 0, 5)
    );
}

#[test]
fn a_cooperative_report_has_the_shared_goal_and_no_first_seat_verdict() {
    let mut meta = two_seat_meta(4, &["a"]);
    meta.goal = Some(meeple::sim::report::GoalKind::Shared);
    let record = |index: u64, winners: Vec<u8>, goal: i64, reason: &str| GameRecord {
        index,
        seed: 1 + index,
        decisions: 10,
        options: 20,
        max_options: 2,
        winners,
        scores: vec![goal, goal],
        reason: Some(reason.to_string()),
        actions: vec![10],
        failure: None,
        imagined: 0,
        fallbacks: 0,
        approximate: 0,
        goals: vec![goal, goal],
        eliminated: vec![],
    };
    let records = [
        record(0, vec![0, 1], 25, "all lit"),
        record(1, vec![], 7, "P1 burns the last fuse"),
        record(2, vec![], 12, "P2 burns the last fuse"),
        record(3, vec![], 12, "P2 burns the last fuse"),
    ];
    let r = meeple::sim::Report::new(meta, &records, &Counts::default());
    assert_eq!(r.first_seat, None, "no sole win: no first-seat verdict");
    let goal = r.goals.as_ref().expect("a goal report");
    assert!(goal.shared);
    assert_eq!((goal.games, goal.min, goal.max), (4, 7, 25));
    assert_eq!(goal.mean, 14.0);
    let distribution: Vec<(i64, u64)> = goal
        .distribution
        .iter()
        .map(|c| (c.value, c.games))
        .collect();
    assert_eq!(distribution, [(7, 1), (12, 2), (25, 1)]);
    let endings: Vec<(Option<&str>, u64)> = r
        .endings
        .iter()
        .map(|e| (e.reason.as_deref(), e.games))
        .collect();
    assert_eq!(
        endings,
        [
            (Some("{seat} burns the last fuse"), 3),
            (Some("all lit"), 1)
        ]
    );
    let text = meeple::sim::text::render(&r);
    assert!(!text.contains("First-seat"), "{text}");
    assert!(text.contains("Shared goal"), "{text}");
}

// -------------------------------------------------------------------------------- the CLI

#[test]
fn the_json_document_has_its_schema_and_every_documented_field() {
    let o = run(&["sim", GAME, "-p", "3", "-g", "50"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = run(&["sim", GAME, "-p", "3", "-g", "50", "--json"]);
    let doc = json(&o);
    assert_eq!(doc["schema"], "meeple-sim/1");
    assert_eq!(doc["games"], 50);
    assert_eq!(doc["played"], 50);
    assert_eq!(doc["seats"], serde_json::json!(["P1", "P2", "P3"]));
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/sim.md"))
        .expect("docs/sim.md");
    let mut keys: Vec<String> = Vec::new();
    collect_keys(&doc, &mut keys);
    // A shard with failures has every optional part: records, failures, shard.
    let shard = run(&[
        "sim", OVERDRAW, "-p", "2", "-g", "40", "--shard", "1/2", "--json",
    ]);
    let shard = json(&shard);
    assert_eq!(shard["shard"], serde_json::json!({"index": 1, "count": 2}));
    assert!(!shard["failures"].as_array().expect("failures").is_empty());
    collect_keys(&shard, &mut keys);
    for key in keys {
        assert!(
            docs.contains(&format!("`{key}`")),
            "docs/sim.md does not document `{key}`"
        );
    }
}

/// Every object key in a JSON value, recursively.
fn collect_keys(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                out.push(k.clone());
                collect_keys(v, out);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|i| collect_keys(i, out)),
        _ => {}
    }
}

#[test]
fn usage_errors_exit_2_and_every_flag_has_help() {
    for args in [
        &["sim", "--players", "4"][..],
        &["sim", GAME, "-p", "4", "-g", "0"],
        &["sim", GAME, "-p", "9", "-g", "10"],
        &["sim", GAME, "-p", "4", "-g", "10", "--json", "--csv"],
        &["sim", GAME, "-p", "4", "-g", "10", "--shard", "0/4"],
        &["sim", GAME, "-p", "4", "-g", "10", "--bots", "7=random"],
        &["sim", GAME, "-p", "4", "-g", "10", "--threads", "0"],
        &["sim", "merge"],
    ] {
        assert_eq!(code(&run(args)), 2, "{args:?}");
    }
    let help = stdout(&run(&["sim", "-h"]));
    for flag in [
        "--variant",
        "--players",
        "--games",
        "--bots",
        "--seed",
        "--threads",
        "--json",
        "--csv",
        "--shard",
        "--against",
        "--against-variant",
        "--html",
        "merge",
    ] {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(flag) || l.contains(&format!(", {flag}")))
            .unwrap_or_else(|| panic!("{flag} is not in --help:\n{help}"));
        assert!(
            line.trim().len() > flag.len() + 8,
            "{flag} has no help text: {line}"
        );
    }
    let merge_help = stdout(&run(&["sim", "merge", "--help"]));
    assert!(merge_help.contains("--json") && merge_help.contains("SHARD.json"));
}

#[test]
fn without_players_the_batch_has_the_fewest_seats_the_game_allows() {
    let fewest = program(GAME).min_players.to_string();
    let o = run(&["sim", GAME, "--games", "10"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(&format!("{fewest} players, 10 games")),
        "{out}"
    );
    let given = run(&["sim", GAME, "--games", "10", "--players", &fewest]);
    assert_eq!(
        out,
        stdout(&given),
        "the same batch as with --players {fewest}"
    );
}

#[test]
fn without_games_the_batch_has_a_thousand() {
    let o = run(&["sim", GAME, "--players", "3", "--csv"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let default = stdout(&o);
    // One row a game, after the header.
    assert_eq!(default.lines().count(), 1 + 1000, "{}", stderr(&o));
    let given = run(&["sim", GAME, "--players", "3", "--csv", "--games", "1000"]);
    assert_eq!(
        default,
        stdout(&given),
        "the same batch as with --games 1000"
    );
}

#[test]
fn a_variant_is_simulated_and_named_in_the_replay_command() {
    let o = run(&[
        "sim",
        GAME,
        "--variant",
        "rules/cheaters_game/win_the_race.rules",
        "-p",
        "3",
        "-g",
        "40",
        "--json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let doc = json(&o);
    assert_eq!(
        doc["variant_files"][0],
        "rules/cheaters_game/win_the_race.rules"
    );
    assert!(!doc["variants"].as_array().expect("variants").is_empty());
}

// ----------------------------------------------------------------------------- --against

const RACE: &str = "rules/cheaters_game/win_the_race.rules";

/// Every difference of a `meeple-sim-compare/1` document, with its label.
fn differences(doc: &serde_json::Value) -> Vec<(String, serde_json::Value)> {
    let c = &doc["comparison"];
    let mut out = Vec::new();
    for list in ["wins", "endings", "scores"] {
        for (i, d) in c[list].as_array().expect(list).iter().enumerate() {
            out.push((format!("{list}[{i}]"), d.clone()));
        }
    }
    for key in ["shared_wins", "nobody_wins", "length", "margin", "failed"] {
        out.push((key.to_string(), c[key].clone()));
    }
    out
}

#[test]
fn a_file_compared_with_itself_differs_by_exactly_zero_and_nothing_is_marked() {
    let args = ["sim", GAME, "-p", "3", "-g", "150", "--against", GAME];
    let o = run(&[&args[..], &["--json"]].concat());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let doc = json(&o);
    assert_eq!(doc["schema"], "meeple-sim-compare/1");
    assert_eq!(doc["a"]["schema"], "meeple-sim/1");
    assert_eq!(doc["a"], doc["b"], "the same games on the same seeds");
    let all = differences(&doc);
    assert!(all.len() >= 10, "{all:?}");
    for (name, d) in all {
        assert_eq!(d["difference"], 0.0, "{name}: {d}");
        assert_eq!(d["a"], d["b"], "{name}: {d}");
        assert_eq!(d["significant"], false, "{name}: {d}");
        let (low, high) = (d["low"].as_f64(), d["high"].as_f64());
        assert!(
            low.unwrap_or(-1.0) < 0.0 && high.unwrap_or(1.0) > 0.0,
            "{name}: {d}"
        );
    }
    for x in doc["comparison"]["actions"].as_array().expect("actions") {
        assert_eq!(x["a"], x["b"], "{x}");
    }

    let text = stdout(&run(&args));
    assert!(text.contains("B − A"), "{text}");
    let marked: Vec<&str> = text.lines().filter(|l| l.ends_with(" *")).collect();
    assert!(marked.is_empty(), "{marked:?}");
    assert!(text.contains("+0.0 pts"), "{text}");
}

#[test]
fn win_the_race_games_are_significantly_longer_than_cheaters_games() {
    let args = ["sim", GAME, "-p", "3", "-g", "400", "--against", RACE];
    let doc = json(&run(&[&args[..], &["--json"]].concat()));
    let length = &doc["comparison"]["length"];
    assert_eq!(length["significant"], true, "{length}");
    let (a, b) = (
        length["a"].as_f64().expect("a"),
        length["b"].as_f64().expect("b"),
    );
    assert!((50.0..70.0).contains(&a), "Cheater's Game: {a} decisions");
    assert!((85.0..120.0).contains(&b), "Win The Race: {b} decisions");
    assert!(length["low"].as_f64().expect("low") > 0.0, "{length}");
    assert_eq!(doc["b"]["variant_files"], serde_json::json!([]));
    assert_eq!(doc["b"]["file"], RACE);
    assert_eq!(doc["a"]["length"]["mean"], length["a"]);

    let text = stdout(&run(&args));
    assert!(
        text.contains("B: Cheater's Game with Win The Race"),
        "{text}"
    );
    let mean = text
        .lines()
        .skip_while(|l| !l.starts_with("Length in decisions"))
        .nth(1)
        .expect("a mean row");
    assert!(
        mean.trim_start().starts_with("mean") && mean.ends_with(" *"),
        "{mean}"
    );

    // The same variant stacked with --against-variant compares the same games.
    let stacked = json(&run(&[
        "sim",
        GAME,
        "-p",
        "3",
        "-g",
        "400",
        "--against",
        GAME,
        "--against-variant",
        RACE,
        "--json",
    ]));
    assert_eq!(stacked["comparison"]["length"], *length);
    assert_eq!(stacked["b"]["variant_files"], serde_json::json!([RACE]));
}

/// A statement's place without its file (`line:column`), and its first line: the file's path
/// differs when B reaches the same file through a variant's folder.
fn statement(site: &serde_json::Value) -> (String, String) {
    let at = site["at"].as_str().expect("at");
    let place: Vec<&str> = at.rsplitn(3, ':').take(2).collect();
    let text = site["text"].as_str().expect("text");
    (format!("{}:{}", place[1], place[0]), text.to_string())
}

/// Each option of a report's statement with its share.
fn shares(site: &serde_json::Value) -> Vec<(String, f64)> {
    site["options"]
        .as_array()
        .expect("options")
        .iter()
        .map(|o| {
            let option = o["option"].as_str().expect("option").to_string();
            (option, o["share"].as_f64().expect("share"))
        })
        .collect()
}

#[test]
fn the_choices_compared_are_each_sides_own_shares_statement_by_statement() {
    let args = ["sim", GAME, "-p", "3", "-g", "300", "--against", RACE];
    let o = run(&[&args[..], &["--json"]].concat());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let doc = json(&o);
    let answered = |side: &str| {
        doc[side]["choices"]["answered"]
            .as_array()
            .expect("answered")
            .clone()
    };
    let (in_a, in_b) = (answered("a"), answered("b"));
    // Win The Race reaches Cheater's Game through its own folder: the same statements, placed
    // in `rules/cheaters_game/../cheaters_game.rules`.
    assert!(in_b[0]["at"]
        .as_str()
        .expect("at")
        .starts_with("rules/cheaters_game/../"));
    let both: Vec<&serde_json::Value> = in_a
        .iter()
        .filter(|s| in_b.iter().any(|t| statement(t) == statement(s)))
        .collect();
    assert!(both.len() >= 5, "{both:?}");
    let compared = doc["comparison"]["choices"]["answered"]
        .as_array()
        .expect("compared");
    assert_eq!(compared.len(), both.len());
    let mut options_seen = 0;
    for (c, sa) in compared.iter().zip(&both) {
        assert_eq!(c["at"], sa["at"], "A's place, in A's order");
        assert_eq!(c["text"], sa["text"]);
        let sb = in_b
            .iter()
            .find(|t| statement(t) == statement(sa))
            .expect("B's");
        assert_eq!(c["answered"]["a"], sa["answered"]);
        assert_eq!(c["answered"]["b"], sb["answered"]);
        let (shares_a, shares_b) = (shares(sa), shares(sb));
        let share = |list: &[(String, f64)], option: &str| {
            list.iter()
                .find(|(o, _)| o == option)
                .map_or(0.0, |(_, s)| *s)
        };
        // A's options in A's order, then those only B took.
        let mut expected: Vec<String> = shares_a.iter().map(|(o, _)| o.clone()).collect();
        for (o, _) in &shares_b {
            if !expected.contains(o) {
                expected.push(o.clone());
            }
        }
        let options = c["options"].as_array().expect("options");
        let names: Vec<&str> = options
            .iter()
            .map(|o| o["option"].as_str().expect("option"))
            .collect();
        assert_eq!(names, expected, "{}", c["at"]);
        for o in options {
            let name = o["option"].as_str().expect("option");
            let (a, b) = (o["a"].as_f64().expect("a"), o["b"].as_f64().expect("b"));
            assert_eq!(a, share(&shares_a, name), "{} {name}: A", c["at"]);
            assert_eq!(b, share(&shares_b, name), "{} {name}: B", c["at"]);
            // JSON reads floats to within a unit in the last place.
            let difference = o["difference"].as_f64().expect("difference");
            assert!((difference - (b - a)).abs() < 1e-12, "{o}");
            let (low, high) = (
                o["low"].as_f64().expect("low"),
                o["high"].as_f64().expect("high"),
            );
            assert!(low <= b - a && b - a <= high, "{o}");
            options_seen += 1;
        }
    }
    assert!(options_seen > 20, "{options_seen}");
    // Both sides ask every statement; neither has a block never run.
    for list in ["only_a", "only_b"] {
        assert_eq!(doc["comparison"]["choices"][list], serde_json::json!([]));
    }
    assert_eq!(
        doc["comparison"]["never_ran"],
        serde_json::json!({"both": [], "only_a": [], "only_b": []})
    );

    let text = stdout(&run(&args));
    assert!(
        text.contains("\nChoices made (each option's share of its statement's answers"),
        "{text}"
    );
    let form = text
        .lines()
        .skip_while(|l| !l.starts_with("  rules/cheaters_game.rules:95:5  let form = ask me"))
        .take(4)
        .collect::<Vec<_>>();
    assert_eq!(form.len(), 4, "{text}");
    assert!(
        form[1].trim_start().starts_with("answered (times)"),
        "{form:?}"
    );
    let mut options: Vec<&str> = form[2..]
        .iter()
        .map(|l| {
            assert!(l.contains(" pts  ["), "{l}");
            l.split_whitespace().next().expect("an option")
        })
        .collect();
    options.sort_unstable();
    assert_eq!(options, ["form", "skip"]);
    // The bonus pool offers thirteen amounts; eight are printed, as in a report.
    let keep: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("  rules/cheaters_game.rules:136:3  let keep = choose"))
        .skip(2)
        .take_while(|l| l.contains(" pts  ["))
        .collect();
    assert_eq!(keep.len(), 8, "{text}");
    assert!(
        text.contains(&format!(
            "{}\n      ... 5 more options (every one is in --json)\n",
            keep[7]
        )),
        "{text}"
    );
    assert!(!text.contains("Rules never run"), "{text}");
}

const GIFTS: &str = "tests/fixtures/run/gifts.rules";
const GENEROUS: &str = "tests/fixtures/run/gifts/generous.rules";

#[test]
fn what_one_side_asks_or_runs_alone_is_listed_apart() {
    let args = ["sim", GIFTS, "-p", "2", "-g", "100", "--against", GENEROUS];
    let o = run(&[&args[..], &["--json"]].concat());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let doc = json(&o);
    let c = &doc["comparison"];
    let listed = |list: &serde_json::Value| -> Vec<(String, bool)> {
        list.as_array()
            .expect("a list")
            .iter()
            .map(|s| {
                let (place, text) = statement(s);
                (
                    format!("{place} {text}"),
                    s["in_other"].as_bool().unwrap_or(true),
                )
            })
            .collect()
    };
    let answered: Vec<(String, String)> = c["choices"]["answered"]
        .as_array()
        .expect("answered")
        .iter()
        .map(statement)
        .collect();
    assert_eq!(answered.len(), 1, "{answered:?}");
    assert!(answered[0].1.starts_with("let c = choose p"));
    // The bonus is asked only in A (B replaced its effect); the gift only in B (A has it, and
    // never asks it).
    let only_a = listed(&c["choices"]["only_a"]);
    assert_eq!(only_a.len(), 1);
    assert!(
        only_a[0].0.starts_with("36:5 let keep") && !only_a[0].1,
        "{only_a:?}"
    );
    let only_b = listed(&c["choices"]["only_b"]);
    assert_eq!(only_b.len(), 1);
    assert!(
        only_b[0].0.starts_with("23:9 let gift") && only_b[0].1,
        "{only_b:?}"
    );
    assert_eq!(c["choices"]["only_b"][0]["answered"], 600);

    // The reset of a negative score ran in neither; the gift's block in B only; each cap of
    // 1000 is its own side's.
    let n = &c["never_ran"];
    assert_eq!(
        listed(&n["both"]),
        [("27:9 p.points = 0".to_string(), true)]
    );
    assert_eq!(
        listed(&n["only_a"]),
        [
            (
                "23:9 let gift = choose p \"Give how many?\" from 1..3".to_string(),
                true
            ),
            ("41:7 p.points = 1000".to_string(), false)
        ]
    );
    assert_eq!(
        listed(&n["only_b"]),
        [("14:7 p.points = 1000".to_string(), false)]
    );
    assert!(n["only_b"][0]["at"]
        .as_str()
        .expect("at")
        .contains("gifts/generous.rules"));

    // Every key of the comparison is documented.
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/sim.md"))
        .expect("docs/sim.md");
    let mut keys = Vec::new();
    collect_keys(c, &mut keys);
    for key in keys {
        assert!(
            docs.contains(&format!("`{key}`")),
            "docs/sim.md does not document `{key}`"
        );
    }

    let text = stdout(&run(&args));
    for line in [
        "  asked only in A (B never asked them, or has no such statement):",
        "    tests/fixtures/run/gifts.rules:36:5  let keep = ask p \"Keep a bonus point?\" (keep, give)  (not in B)",
        "  asked only in B (A never asked them, or has no such statement):",
        "Rules never run (in 100 games of each; each block by its first statement)",
        "  in both A and B:",
        "    tests/fixtures/run/gifts.rules:27:9  p.points = 0",
        "  only in A (B ran them, or has no such block):",
        "    tests/fixtures/run/gifts.rules:41:7  p.points = 1000  (not in B)",
        "  only in B (A ran them, or has no such block):",
    ] {
        assert!(text.lines().any(|l| l == line), "no line `{line}` in:\n{text}");
    }

    // Merged from shards, the statements come out as in one run.
    let dir = scratch("merge-against-gifts");
    let mut files = Vec::new();
    for k in ["1/2", "2/2"] {
        let o = run(&[&args[..], &["--shard", k, "--json"]].concat());
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let path = format!("{dir}/shard-{}.json", &k[..1]);
        std::fs::write(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path), &o.stdout)
            .expect("write the shard");
        files.push(path);
    }
    let merged = run(&["sim", "merge", "--json", &files[0], &files[1]]);
    assert_eq!(code(&merged), 0, "{}", stderr(&merged));
    assert_eq!(merged.stdout, o.stdout, "JSON, byte for byte");
}

/// `n` two-seat games in which P1 wins the first `p1_wins` and P2 the others.
fn two_seat_records(n: u64, p1_wins: u64) -> Vec<GameRecord> {
    (0..n)
        .map(|i| {
            let winner = u8::from(i >= p1_wins);
            GameRecord {
                index: i,
                seed: 1 + i,
                decisions: 10 + i,
                options: 20,
                max_options: 2,
                winners: vec![winner],
                scores: if winner == 0 { vec![2, 1] } else { vec![1, 2] },
                reason: None,
                actions: vec![10 + i],
                failure: None,
                imagined: 0,
                fallbacks: 0,
                approximate: 0,
                goals: vec![],
                eliminated: vec![],
            }
        })
        .collect()
}

#[test]
fn the_difference_of_two_win_rates_has_newcombes_interval_by_hand() {
    let meta = two_seat_meta(10, &["go"]);
    let (ra, rb) = (two_seat_records(10, 2), two_seat_records(10, 5));
    let a = meeple::sim::Report::new(meta.clone(), &ra, &Counts::default());
    let b = meeple::sim::Report::new(meta, &rb, &Counts::default());
    let c = meeple::sim::CompareReport::new(a, &ra, b, &rb).comparison;
    let close = |x: f64, y: f64| (x - y).abs() < 5e-5;
    // P1: 2 of 10 in A, 5 of 10 in B. z² = 3.8415, 1 + z²/10 = 1.38415.
    // Wilson A: (0.2 + 0.19207 ± 1.96·√(0.016 + 0.0096037)) / 1.38415 = [0.05668, 0.50984].
    // Wilson B: (0.5 + 0.19207 ± 1.96·√(0.025 + 0.0096037)) / 1.38415 = [0.23659, 0.76341].
    // d = 0.3; low = 0.3 − √((0.5 − 0.23659)² + (0.50984 − 0.2)²) = 0.3 − 0.40667 = −0.10667;
    // high = 0.3 + √((0.76341 − 0.5)² + (0.2 − 0.05668)²) = 0.3 + 0.29987 = 0.59987.
    let p1 = &c.wins[0].difference;
    assert!(close(p1.difference, 0.3), "{p1:?}");
    let (low, high) = (p1.low.expect("low"), p1.high.expect("high"));
    assert!(close(low, -0.10667) && close(high, 0.59987), "{p1:?}");
    assert!(!p1.significant);
    // P2 is the mirror: 8 of 10 against 5 of 10.
    let p2 = &c.wins[1].difference;
    assert!(close(p2.difference, -0.3), "{p2:?}");
    assert!(close(p2.low.expect("low"), -0.59987) && close(p2.high.expect("high"), 0.10667));
    // Lengths are 10..19 in both: the same sample, a difference of exactly 0.
    assert_eq!(c.length.difference, 0.0);
    assert!(!c.length.significant);
    // Scores: P1 scores 2 in its wins and 1 otherwise: means 1.2 and 1.5, variances
    // 0.1778 and 0.2778; 0.3 ± 1.96·√(0.01778 + 0.02778) = [−0.1183, 0.7183].
    let s = &c.scores[0].difference;
    assert!(close(s.low.expect("low"), -0.11833) && close(s.high.expect("high"), 0.71833));
}

#[test]
fn the_comparison_document_documents_every_field_and_refuses_what_it_cannot_compare() {
    let o = run(&[
        "sim",
        OVERDRAW,
        "-p",
        "2",
        "-g",
        "40",
        "--against",
        OVERDRAW,
        "--json",
    ]);
    assert_eq!(code(&o), 1, "overdraw fails in some games: exit 1");
    let doc = json(&o);
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/sim.md"))
        .expect("docs/sim.md");
    let mut keys = Vec::new();
    collect_keys(&doc, &mut keys);
    for key in keys {
        assert!(
            docs.contains(&format!("`{key}`")),
            "docs/sim.md does not document `{key}`"
        );
    }
    assert!(docs.contains("meeple-sim-compare/1"));

    for args in [
        &[
            "sim",
            GAME,
            "-p",
            "3",
            "-g",
            "10",
            "--against-variant",
            RACE,
        ][..],
        &[
            "sim",
            GAME,
            "-p",
            "3",
            "-g",
            "10",
            "--against",
            RACE,
            "--csv",
        ],
        // Cheater's Game is for 3 to 5 players; EndGame is for 2 to 4.
        &[
            "sim",
            GAME,
            "-p",
            "5",
            "-g",
            "10",
            "--against",
            "rules/endgame.rules",
        ],
    ] {
        assert_eq!(code(&run(args)), 2, "{args:?}");
    }
    let help = stdout(&run(&["sim", "--help"]));
    assert!(help.contains("--against <B>") && help.contains("--against-variant <W>"));
}

// --------------------------------------------------------------------------------- --html

/// What a small HTML reader finds in a page: every element name opened, in order, and the
/// trimmed text of every SVG `<text>` element. Panics if the tags do not nest.
struct Page {
    elements: Vec<String>,
    svg_texts: Vec<String>,
    aria_labels: Vec<String>,
}

fn read_page(html: &str) -> Page {
    const VOID: [&str; 4] = ["meta", "br", "hr", "img"];
    let mut page = Page {
        elements: Vec::new(),
        svg_texts: Vec::new(),
        aria_labels: Vec::new(),
    };
    let mut stack: Vec<String> = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        let text = &rest[..open];
        if stack.last().is_some_and(|t| t == "text") && !text.trim().is_empty() {
            page.svg_texts.push(text.trim().to_string());
        }
        let close = rest[open..].find('>').expect("every tag closes") + open;
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        if tag.starts_with('!') {
            continue; // <!DOCTYPE html>
        }
        if let Some(name) = tag.strip_prefix('/') {
            let top = stack.pop().unwrap_or_default();
            assert_eq!(top, name.trim(), "</{name}> closes <{top}>");
            continue;
        }
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if let Some(at) = tag.find("aria-label=\"") {
            let label = &tag[at + 12..];
            page.aria_labels
                .push(label[..label.find('"').expect("quoted")].to_string());
        }
        page.elements.push(name.clone());
        if !tag.ends_with('/') && !VOID.contains(&name.as_str()) {
            stack.push(name);
        }
        if stack.last().is_some_and(|t| t == "style" || t == "pre") {
            // Raw text up to the closing tag.
            let end = format!("</{}>", stack.last().expect("open"));
            let at = rest.find(&end).expect("closed");
            rest = &rest[at..];
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    page
}

/// Checks what keeps a sim page readable on a phone (tests/browser.rs measures it in a
/// browser): the viewport meta, each chart drawn wide and narrow with the style sheet choosing,
/// each with its numbers in words, and the table of parameters scrolling by itself.
fn fits_a_phone(html: &str) {
    assert!(
        html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
    );
    assert!(html.contains("@media (max-width:760px){svg.wide{display:none}"));
    assert!(html.contains("<div class=\"scroll\">\n<table class=\"parameters\">"));
    assert!(html.contains(".scroll{overflow-x:auto"));
    for id in ["wins", "length", "scores"] {
        let figure = &html[html.find(&format!("<figure id=\"{id}\">")).expect(id)..];
        let figure = &figure[..figure.find("</figure>").expect("closed")];
        for class in ["wide", "narrow"] {
            assert!(
                figure.contains(&format!("class=\"{class}\" role=\"img\" aria-label=\"")),
                "{id}: {class}"
            );
        }
        assert_eq!(
            figure
                .matches(&format!("aria-describedby=\"{id}-words\""))
                .count(),
            2
        );
        let caption = &figure[figure
            .find(&format!("<figcaption id=\"{id}-words\">"))
            .expect("a caption")..];
        assert!(
            caption.chars().filter(char::is_ascii_digit).count() >= 6,
            "{id}: its numbers in words: {caption}"
        );
    }
}

fn write_page(args: &[&str], name: &str) -> (Output, String) {
    let dir = scratch("html");
    let path = format!("{dir}/{name}");
    // A page left by an older build may lack the mark that lets a newer one replace it.
    let _ = std::fs::remove_file(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path));
    let o = run(&[args, &["--html", &path]].concat());
    let html = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path))
        .expect("the page is written");
    (o, html)
}

#[test]
fn a_page_that_cannot_be_written_is_refused_before_any_game_is_played() {
    // A million games take minutes: only a refusal before the first one returns at once.
    for path in ["target/sim-tests/no-such-folder/page.html", "target"] {
        let o = run(&[
            "sim",
            GAME,
            "--players",
            "3",
            "--games",
            "1000000",
            "--html",
            path,
        ]);
        assert_eq!(code(&o), 1, "{path}");
        assert!(
            stderr(&o).contains(&format!("cannot write `{path}`")),
            "{}",
            stderr(&o)
        );
        assert!(o.stdout.is_empty(), "{path}: no report");
    }
    assert!(!Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/sim-tests/no-such-folder")
        .exists());
}

#[test]
fn the_html_page_is_self_contained_and_draws_wins_length_and_scores() {
    let args = ["sim", GAME, "-p", "3", "-g", "120"];
    let (o, html) = write_page(&args, "one.html");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        o.stdout,
        run(&args).stdout,
        "stdout is the text report still"
    );

    assert!(html.starts_with("<!DOCTYPE html>"));
    let lower = html.to_lowercase();
    for banned in [
        "http", "<script", "<link", "<img", "src=", "@import", "url(",
    ] {
        assert!(!lower.contains(banned), "the page holds `{banned}`");
    }
    let page = read_page(&html);
    let count = |e: &str| page.elements.iter().filter(|x| *x == e).count();
    assert_eq!(count("html"), 1);
    assert_eq!(count("title"), 1);
    assert_eq!(count("figure"), 3, "three charts");
    assert_eq!(count("svg"), 6, "each drawn wide and narrow");
    assert!(count("rect") > 10 && count("text") > 20);
    let charts = ["Win rate per seat", "Game length", "Scores per seat"];
    let twice: Vec<&str> = charts.iter().flat_map(|c| [*c, *c]).collect();
    assert_eq!(page.aria_labels, twice);
    fits_a_phone(&html);
    assert!(html.contains("<title>Cheater&#39;s Game: 120 games · meeple sim</title>"));
    for h in [
        "Win rate per seat",
        "Game length",
        "Scores per seat",
        "The report",
    ] {
        assert!(html.contains(&format!("<h2>{h}</h2>")), "{h}");
    }
    let texts = &page.svg_texts;
    for label in [
        "seat",
        "sole wins (% of finished games)",
        "share of finished games",
        "final score",
        "P1",
        "P2",
        "P3",
    ] {
        assert!(
            texts.iter().any(|t| t == label),
            "no `{label}` in {texts:?}"
        );
    }
    assert!(texts.iter().any(|t| t.starts_with("decisions per game")));
    assert!(texts.iter().any(|t| t.starts_with("mean ")));
    // The parameters and the text report are on the page too.
    assert!(html.contains("<th>seeds</th><td>1 to 120</td>"), "{html}");
    assert!(html.contains("Wins (sole winner, of 120 finished; 95% Wilson interval)"));
    // The captions say the charts' numbers: the same as the report's.
    let report = json(&run(&[&args[..], &["--json"]].concat()));
    let p1 = 100.0 * report["wins"][0]["win"]["rate"].as_f64().unwrap();
    assert!(
        html.contains(&format!(
            "Sole wins per seat: of 120 finished games, P1 {p1:.1}% (95% interval "
        )),
        "{html}"
    );
    let longest = &report["length"]["max"];
    assert!(html.contains("the 120 finished games took "));
    assert!(html.contains(&format!(" to {longest} decisions, median ")));
    assert!(html.contains("Final scores of the finished games: P1 median "));
}

#[test]
fn the_html_page_of_a_comparison_draws_a_and_b_with_a_legend() {
    let args = ["sim", GAME, "-p", "3", "-g", "120", "--against", RACE];
    let (o, html) = write_page(&args, "two.html");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(!html.to_lowercase().contains("http"));
    let page = read_page(&html);
    assert_eq!(page.elements.iter().filter(|e| *e == "svg").count(), 6);
    fits_a_phone(&html);
    assert!(html.contains("A: Cheater&#39;s Game</span>"), "{html}");
    assert!(html.contains("B: Cheater&#39;s Game with Win The Race</span>"));
    let texts = &page.svg_texts;
    for mean in ["A mean ", "B mean "] {
        assert!(
            texts.iter().any(|t| t.starts_with(mean)),
            "{mean}: {texts:?}"
        );
    }
    assert!(html.contains("<th>A</th><th>B</th>"));
    assert!(html.contains("Sole wins per seat. A (Cheater&#39;s Game): of 120 finished games, P1 "));
    assert!(html.contains(". B (Cheater&#39;s Game with Win The Race): the 120 finished games"));
    assert!(
        html.contains("B − A"),
        "the comparison's text is on the page"
    );

    let shard = run(&[
        &args[..2],
        &["-p", "3", "-g", "10", "--shard", "1/2", "--html", "x.html"],
    ]
    .concat());
    assert_eq!(code(&shard), 2, "--html draws a whole batch, not a shard");
}

/// Players put out of the game are counted by seat, with when they went out, in the text and
/// the JSON; every key of it is documented.
#[test]
fn players_put_out_of_the_game_are_counted_by_seat_and_when() {
    let file = "tests/fixtures/ok/duel_circle.rules";
    let o = run(&["sim", file, "-p", "3", "-g", "40", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let doc = json(&o);
    let seats = doc["eliminations"].as_array().expect("eliminations");
    assert_eq!(seats.len(), 3, "{doc}");
    let mut out = 0;
    for s in seats {
        let count = s["out"]["count"].as_u64().expect("a count");
        assert!(count <= doc["finished"].as_u64().expect("finished"));
        let mean = s["mean_decisions"].as_f64().expect("a mean");
        assert_eq!(count == 0, mean == 0.0, "{s}");
        out += count;
    }
    assert!(out > 5, "only {out} players put out in 40 games: {doc}");
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/sim.md"))
        .expect("docs/sim.md");
    let mut keys = Vec::new();
    collect_keys(&doc, &mut keys);
    for key in keys {
        assert!(
            docs.contains(&format!("`{key}`")),
            "docs/sim.md does not document `{key}`"
        );
    }
    let text = stdout(&run(&["sim", file, "-p", "3", "-g", "40"]));
    assert!(text.contains("Out of the game"), "{text}");
    // A game that puts nobody out says nothing of it.
    let text = stdout(&run(&["sim", GAME, "-p", "3", "-g", "10"]));
    assert!(!text.contains("Out of the game"), "{text}");
}

#[test]
fn a_comparison_lists_the_numbers_each_side_clamped() {
    // B widens the purse: its `earn` never clamps, while A's does in most games; the market
    // caps itself in both.
    let dir = scratch("compare-clamps");
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join(CLAMPED);
    let wide = format!("{dir}/wide_purse.rules");
    std::fs::write(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(&wide),
        format!(
            "variant \"Wide purse\" {{\n  base \"{}\"\n}}\n\nreplace player var coins: int in 0..100 = 4\n",
            base.display()
        ),
    )
    .expect("writes the variant");
    let compare = |json: bool| {
        let mut args = vec![
            "sim",
            CLAMPED,
            "--against",
            CLAMPED,
            "--against-variant",
            &wide,
            "-p",
            "2",
            "-g",
            "200",
        ];
        if json {
            args.push("--json");
        }
        run(&args)
    };
    let doc = json(&compare(true));
    let clamps = doc["comparison"]["clamps"]
        .as_array()
        .expect("clamps compared");
    let at = |text: &str| {
        clamps
            .iter()
            .find(|c| c["text"] == text)
            .unwrap_or_else(|| panic!("{text} not in {clamps:?}"))
    };
    let earn = at("me.coins += 4");
    assert!(
        earn["a"]["games"].as_u64().expect("A's games") > 20,
        "{earn}"
    );
    assert_eq!(earn["b"]["games"], 0, "{earn}");
    assert_eq!(earn["b"]["times"], 0, "{earn}");
    assert_eq!(earn["games"]["significant"], true, "{earn}");
    let restock = at("stock += 2");
    assert!(
        restock["a"]["times"].as_u64().expect("A's") > 0,
        "{restock}"
    );
    assert!(
        restock["b"]["times"].as_u64().expect("B's") > 0,
        "{restock}"
    );

    let o = compare(false);
    let text = String::from_utf8_lossy(&o.stdout);
    let section = text
        .split("Numbers clamped to their bounds")
        .nth(1)
        .unwrap_or_else(|| panic!("no clamps section:\n{text}"));
    assert!(section.contains("me.coins += 4"), "{section}");
    assert!(section.contains("stock += 2"), "{section}");
}

#[test]
fn alike_instances_are_counted_as_one_option_in_the_choices_made() {
    let o = run(&[
        "sim",
        "tests/fixtures/run/alike_choices.rules",
        "-p",
        "2",
        "-g",
        "100",
        "--json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let doc = json(&o);
    let site = &doc["choices"]["answered"][0];
    assert_eq!(site["answered"], 200);
    let mut names: Vec<&str> = site["options"]
        .as_array()
        .expect("options")
        .iter()
        .map(|o| o["option"].as_str().expect("option"))
        .collect();
    names.sort_unstable();
    // Three tempura and two dumplings, however numbered to be typed apart: two dishes.
    assert_eq!(names, ["dumpling", "tempura"]);
}
