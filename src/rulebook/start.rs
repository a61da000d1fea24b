//! The components at the start of play, for every player count: found by starting a game of
//! each count (seed 1) and measuring it where it first waits for a decision, after the setup.
//!
//! Only sizes are reported — how many instances of each kind, how many elements each list holds
//! — so the seed changes nothing that is printed unless the rules deal by chance.

use crate::engine::Game;
use crate::ir::{Program, Value};
use std::sync::Arc;

/// The seed of the games started to measure the components.
pub const SEED: u64 = 1;

/// A table of sizes: one row per kind and list, one column per player count. `None` when no
/// game could be started (or there is nothing to measure).
pub fn sizes(program: &Arc<Program>) -> Option<(Vec<String>, Vec<Vec<String>>)> {
    let counts: Vec<u8> = (program.min_players..=program.max_players).collect();
    let mut games = Vec::new();
    for &n in &counts {
        match Game::new(program.clone(), n, SEED) {
            Ok(g) => games.push(g),
            Err(_) => return None,
        }
    }
    let mut head = vec!["component".to_string()];
    head.extend(counts.iter().map(|n| {
        if *n == 1 {
            "1 player".to_string()
        } else {
            format!("{n} players")
        }
    }));
    let mut rows = Vec::new();
    for (k, kind) in program.kinds.iter().enumerate() {
        let cells = games
            .iter()
            .map(|g| g.state().entities.get(k).map_or(0, Vec::len).to_string());
        rows.push(row(format!("{} (instances)", kind.name), cells));
    }
    for (i, var) in program.globals.iter().enumerate() {
        if !is_list(games.first().and_then(|g| g.state().globals.get(i))) {
            continue;
        }
        let cells = games
            .iter()
            .map(|g| list_len(g.state().globals.get(i)).to_string());
        rows.push(row(var.name.clone(), cells));
    }
    for (i, var) in program.player_vars.iter().enumerate() {
        let first = games
            .first()
            .and_then(|g| g.state().player_vars.first())
            .and_then(|vars| vars.get(i));
        if !is_list(first) {
            continue;
        }
        let cells = games.iter().map(|g| per_player(g, i));
        rows.push(row(format!("{} (each player)", var.name), cells));
    }
    if rows.is_empty() {
        return None;
    }
    Some((head, rows))
}

fn row(name: String, cells: impl Iterator<Item = String>) -> Vec<String> {
    std::iter::once(name).chain(cells).collect()
}

fn is_list(v: Option<&Value>) -> bool {
    matches!(v, Some(Value::List(_)))
}

fn list_len(v: Option<&Value>) -> usize {
    match v {
        Some(Value::List(xs)) => xs.iter().count(),
        _ => 0,
    }
}

/// "5" when every player holds as many, else each seat's count: "5, 5, 4".
fn per_player(game: &Game, var: usize) -> String {
    let lens: Vec<usize> = game
        .state()
        .player_vars
        .iter()
        .map(|vars| list_len(vars.get(var)))
        .collect();
    match lens.first() {
        Some(first) if lens.iter().all(|n| n == first) => first.to_string(),
        _ => lens
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    }
}
