//! Throughput of the engine: random-bot games of every rules file in `rules/` (variants
//! included), for every player count the game allows. Each row warms up briefly, then plays
//! games with successive seeds for about a second.
//!
//! `cargo bench` runs it; `cargo bench -- race` keeps only files whose path contains `race`.

use meeple::load::load;
use meeple::sim::random_playout;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

const WARM_UP: Duration = Duration::from_millis(200);
const MEASURE: Duration = Duration::from_secs(1);

fn rules_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rules_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rules") {
            out.push(p);
        }
    }
}

/// What one timed run of games gave.
struct Run {
    games: u64,
    decisions: u64,
    failed: u64,
    elapsed: Duration,
}

/// Plays games with seeds from `seed` on until `budget` has passed (at least one game).
fn run(program: &Arc<meeple::ir::Program>, players: u8, seed: &mut u64, budget: Duration) -> Run {
    let start = Instant::now();
    let mut r = Run {
        games: 0,
        decisions: 0,
        failed: 0,
        elapsed: Duration::ZERO,
    };
    while r.games == 0 || start.elapsed() < budget {
        match random_playout(program.clone(), players, *seed) {
            Ok(game) => r.decisions += game.decisions() as u64,
            Err(_) => r.failed += 1,
        }
        r.games += 1;
        *seed += 1;
    }
    r.elapsed = start.elapsed();
    r
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // `cargo bench` passes `--bench`; any other word filters the files by path.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let mut files = Vec::new();
    rules_files(&root.join("rules"), &mut files);
    // By path text, so that a game comes before the variants in its folder.
    files.sort_by_key(|p| p.to_string_lossy().into_owned());
    let mut rows = Vec::new();
    for path in &files {
        let name = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let loaded = load(path, &[]);
        let Some(program) = loaded.program else {
            eprintln!(
                "{name}: does not check ({} errors); skipped",
                loaded.diagnostics.error_count()
            );
            continue;
        };
        let program = Arc::new(program);
        for players in program.min_players..=program.max_players {
            eprint!("\r{name}, {players} players ...{:20}", "");
            let _ = std::io::stderr().flush();
            let mut seed = 1;
            run(&program, players, &mut seed, WARM_UP);
            let r = run(&program, players, &mut seed, MEASURE);
            rows.push((name.clone(), players, r));
        }
    }
    eprint!("\r{:60}\r", "");
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(4).max(5);
    println!(
        "{:width$}  {:>7}  {:>7}  {:>9}  {:>12}  {:>10}  {:>6}",
        "rules", "players", "games", "games/s", "decisions/s", "dec/game", "failed"
    );
    for (name, players, r) in &rows {
        let secs = r.elapsed.as_secs_f64();
        println!(
            "{name:width$}  {players:>7}  {:>7}  {:>9.1}  {:>12.0}  {:>10.1}  {:>6}",
            r.games,
            r.games as f64 / secs,
            r.decisions as f64 / secs,
            r.decisions as f64 / r.games as f64,
            r.failed,
        );
    }
    if rows.is_empty() {
        println!("no rules files matched");
    }
}
