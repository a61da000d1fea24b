//! Helpers shared by the integration tests: finding rules files, loading them under stable,
//! relative names, rendering diagnostics for snapshots, and playing games with random bots
//! under tight limits.
#![allow(dead_code)]

pub mod fuzz;
pub mod http;

use meeple::diag::{render_all, RenderStyle};
use meeple::engine::GameSettings;
use meeple::engine::{Game, Limits, Rng};
use meeple::ir::Program;
use meeple::load::{load_with, Loaded};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;

/// The package root: every path in a test is relative to it.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A path relative to the package root, with forward slashes, for names in snapshots.
pub fn rel(path: &Path) -> String {
    let stripped = path.strip_prefix(root()).unwrap_or(path);
    stripped.to_string_lossy().replace('\\', "/")
}

/// Loads a rules file (and extra variants) by paths relative to the package root, so that every
/// file name in the diagnostics is relative too, whatever the working directory.
pub fn load_rel(path: &str, variants: &[String]) -> Loaded {
    let root = root();
    let variants: Vec<PathBuf> = variants.iter().map(PathBuf::from).collect();
    load_with(Path::new(path), &variants, &move |p: &Path| {
        std::fs::read_to_string(root.join(p))
    })
}

/// Every `.rules` file under `dir`, recursively, in a stable order.
pub fn rules_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect(dir, &mut out);
    out
}

/// Every `.rules` file under the crate's `rules/` folder.
pub fn all_rules() -> Vec<PathBuf> {
    rules_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"))
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "rules") {
            out.push(p);
        }
    }
}

/// Every `.rules` file under a folder of the package (a path relative to it).
pub fn rules_under(dir: &str) -> Vec<PathBuf> {
    rules_files(&root().join(dir))
}

/// The rendered diagnostics (plain, width 100) and a closing summary line.
pub fn report(loaded: &Loaded) -> String {
    let d = &loaded.diagnostics;
    let mut out = render_all(d, &loaded.sources, RenderStyle::plain());
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let summary = match (d.error_count(), d.warning_count()) {
        (0, 0) => "no problems".to_string(),
        (e, w) => format!("{}, {}", plural(e, "error"), plural(w, "warning")),
    };
    out.push_str(&summary);
    out.push('\n');
    // Trailing spaces are noise in a snapshot and differ between editors.
    out.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// The set of diagnostic codes produced.
pub fn codes(loaded: &Loaded) -> BTreeSet<String> {
    loaded
        .diagnostics
        .0
        .iter()
        .map(|d| d.code.to_string())
        .collect()
}

/// The program of a file that must check without errors.
pub fn program(path: &str) -> Arc<Program> {
    let loaded = load_rel(path, &[]);
    match loaded.program {
        Some(p) => Arc::new(p),
        None => panic!("{path} does not check:\n{}", report(&loaded)),
    }
}

/// Limits small enough that a runaway game in a test stops quickly.
pub fn tight_limits() -> Limits {
    Limits {
        steps_per_decision: 20_000,
        loop_iterations: 2_000,
        decisions: 2_000,
        call_depth: 50,
        live_elements: 100_000,
    }
}

/// How a game by random bots ended.
#[derive(Debug)]
pub enum Played {
    /// It reached its end.
    Over(Box<Game>),
    /// A rule failed at the start or during a move (a designer's error, not a crash).
    Failed(String),
    /// It was still going after `max_moves`.
    Unfinished(Box<Game>),
}

/// How a 2-player game of `program` with seed 1 starts with `budget` steps of work a decision:
/// fine, or the error's code and where it points.
pub fn start_with_budget(program: &Arc<Program>, budget: u64) -> Result<(), (String, u32)> {
    let limits = Limits {
        steps_per_decision: budget,
        ..Limits::default()
    };
    GameSettings {
        limits,
        ..GameSettings::new(2, 1)
    }
    .start(program.clone())
    .map(|_| ())
    .map_err(|e| (e.code.to_string(), e.span.start))
}

/// Plays a game by uniformly random choices, with the given limits, for at most `max_moves`.
pub fn play_random(
    program: Arc<Program>,
    players: u8,
    seed: u64,
    limits: Limits,
    max_moves: usize,
) -> Played {
    let settings = GameSettings {
        limits,
        ..GameSettings::new(players, seed)
    };
    let mut game = match settings.start(program) {
        Ok(g) => g,
        Err(e) => return Played::Failed(format!("start: {e}")),
    };
    let mut rng = Rng::new(seed, 99);
    for _ in 0..max_moves {
        if game.is_over() {
            return Played::Over(Box::new(game));
        }
        let waiting = game.waiting_on();
        assert!(!waiting.is_empty(), "a game not over waits on nobody");
        let seat = waiting[rng.index(waiting.len())];
        let n = game.option_count(seat);
        assert!(n > 0, "a waiting seat has no options");
        // Labels are rendered for people, who read lists far shorter than `1..100000`.
        if n <= 1_000 {
            assert_eq!(game.options(seat).len(), n, "every option labelled");
        }
        if let Err(e) = game.apply(seat, rng.index(n)) {
            return Played::Failed(format!("move: {e}"));
        }
    }
    if game.is_over() {
        Played::Over(Box::new(game))
    } else {
        Played::Unfinished(Box::new(game))
    }
}

/// A player's variable, by name.
pub fn player_var(game: &Game, seat: u8, name: &str) -> meeple::ir::Value {
    let i = game
        .program()
        .player_vars
        .iter()
        .position(|v| v.name == name)
        .unwrap_or_else(|| panic!("no player var `{name}`"));
    game.state().player_vars.get(seat as usize, i).clone()
}

/// A player's list variable, by name: its elements as players read them.
pub fn player_list(game: &Game, seat: u8, name: &str) -> Vec<String> {
    match player_var(game, seat, name) {
        meeple::ir::Value::List(xs) => xs
            .iter()
            .map(|x| meeple::engine::show(game.program(), game.state(), x))
            .collect(),
        other => panic!("`{name}` of seat {seat} is {other:?}, not a list"),
    }
}

/// A player's int variable, by name.
pub fn player_int(game: &Game, seat: u8, name: &str) -> i64 {
    match player_var(game, seat, name) {
        meeple::ir::Value::Int(n) => n,
        other => panic!("`{name}` of seat {seat} is {other:?}, not an int"),
    }
}

/// A global variable, by name.
pub fn global(game: &Game, name: &str) -> meeple::ir::Value {
    let i = game
        .program()
        .globals
        .iter()
        .position(|v| v.name == name)
        .unwrap_or_else(|| panic!("no var `{name}`"));
    game.state().globals[i].clone()
}

/// Applies a move that must be legal.
pub fn play(game: &mut Game, seat: u8, label: &str) {
    if let Err(e) = game.apply_label(seat, label) {
        panic!(
            "seat {seat} cannot play `{label}`: {e}\noptions: {:?}\n{}",
            game.options(seat)
                .iter()
                .map(|o| o.label.as_str())
                .collect::<Vec<_>>(),
            game.view(meeple::engine::Viewer::Spectator)
        );
    }
}

/// Every field of the `n`th instance (1-based) of a kind, as views print them:
/// `in_play yes · leader P3 · members [P4, P1] · track 9`. Unlike a view, it shows every
/// instance, listed or not.
pub fn instance(game: &Game, kind: &str, n: usize) -> String {
    let program = game.program();
    let k = program
        .kinds
        .iter()
        .position(|k| k.name == kind)
        .unwrap_or_else(|| panic!("no kind `{kind}`"));
    let values = game.state().entities[k].row(n - 1);
    program.kinds[k]
        .fields
        .iter()
        .zip(values)
        .map(|(f, v)| {
            format!(
                "{} {}",
                f.name,
                meeple::engine::show(program, game.state(), v)
            )
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// Runs the `meeple` binary from the crate root with `stdin` piped in, without colour.
pub fn meeple(args: &[&str], stdin: &str) -> Output {
    meeple_bytes(args, stdin.as_bytes())
}

/// [`meeple`] with any bytes on stdin, UTF-8 or not.
pub fn meeple_bytes(args: &[&str], stdin: &[u8]) -> Output {
    meeple_with_env(args, &[], stdin)
}

/// [`meeple_bytes`] with environment variables set as well (`COLUMNS`, as a terminal of that
/// width would have it).
pub fn meeple_with_env(args: &[&str], env: &[(&str, &str)], stdin: &[u8]) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the meeple binary runs");
    finish(child, stdin)
}

/// Writes `stdin` to a running command, closes it and waits for the command to end. A command
/// may end without reading its input (a save refused, a usage error): the pipe it closed is
/// not a failure of the test, whose assertions read what the command printed and returned.
pub fn finish(mut child: Child, stdin: &[u8]) -> Output {
    let mut input = child.stdin.take().expect("stdin is piped");
    match input.write_all(stdin) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => panic!("stdin takes the script: {e}"),
    }
    drop(input);
    child.wait_with_output().expect("meeple finishes")
}

/// Runs the `meeple` binary with nothing on stdin.
pub fn run(args: &[&str]) -> Output {
    meeple(args, "")
}

/// The exit code of a finished command.
pub fn code(o: &Output) -> i32 {
    o.status.code().expect("an exit code, not a signal")
}

/// Its standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

/// Its standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 output")
}

/// The program of rules text `src`, which must check without errors.
pub fn program_of(src: &str) -> Arc<Program> {
    let loaded = meeple::load::check_source("test.rules", src);
    match loaded.program {
        Some(p) => Arc::new(p),
        None => panic!("the rules do not check:\n{}", report(&loaded)),
    }
}

/// `source` with `from` written as `to` is refused with `code` (and nothing else but a type
/// mismatch or an unused name it brings along).
pub fn assert_mistake(source: &str, from: &str, to: &str, code: &str) {
    let bad = source.replace(from, to);
    assert_ne!(bad, source, "{from}");
    let got = codes(&meeple::load::check_source("test.rules", &bad));
    assert!(got.contains(code), "{to}: {got:?}");
    assert!(
        got.iter()
            .all(|c| c == code || c == "type-mismatch" || c.starts_with("unused")),
        "{to}: {got:?}"
    );
}
