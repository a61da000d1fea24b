//! The components at the start of play, for every player count: found by starting a game of
//! each count (seed 1) and measuring it where it first waits for a decision.
//!
//! Only sizes are reported — how many instances of each kind, how many elements each list holds
//! — so the seed changes nothing that is printed unless the rules deal by chance.

use crate::engine::Game;
use crate::engine::GameSettings;
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
        match GameSettings::new(n, SEED).start(program.clone()) {
            Ok(g) => games.push(g),
            Err(_) => return None,
        }
    }
    let mut head = vec!["component".to_string()];
    head.extend(counts.iter().map(|n| players_words(*n)));
    let mut rows = Vec::new();
    for (k, kind) in program.kinds.iter().enumerate() {
        let cells = games.iter().map(|g| {
            g.state()
                .entities
                .get(k)
                .map_or(0, |xs| xs.len())
                .to_string()
        });
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
            .and_then(|g| g.state().player_vars.iter().next())
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

/// "1 player", "3 players".
pub fn players_words(n: u8) -> String {
    if n == 1 {
        "1 player".to_string()
    } else {
        format!("{n} players")
    }
}

/// The most instances listed one by one: a deck of cards, not a bag of a thousand tokens.
pub const MAX_LISTED: usize = 60;

/// Every instance of a kind with some of its fields (`columns`, by name) as a game of the
/// fewest players begins: a header row (the instance, then each field) and one row per
/// instance. `None` if there is no such kind, no game can be started, or there are more than
/// [`MAX_LISTED`] instances.
pub fn instances(
    program: &Arc<Program>,
    kind: &str,
    columns: &[&str],
) -> Option<(Vec<String>, Vec<Vec<String>>)> {
    let k = program.kinds.iter().position(|x| x.name == kind)?;
    let game = GameSettings::new(program.min_players, SEED)
        .start(program.clone())
        .ok()?;
    let state = game.state();
    let values = state.entities.get(k)?;
    if values.is_empty() || values.len() > MAX_LISTED {
        return None;
    }
    let fields: Vec<(usize, &str)> = program.kinds[k]
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| columns.contains(&f.name.as_str()))
        .map(|(i, f)| (i, f.name.as_str()))
        .collect();
    let mut head = vec![kind.to_string()];
    head.extend(fields.iter().map(|(_, name)| name.to_string()));
    let kind_id = crate::ir::KindId(k as u32);
    let rows = values
        .iter()
        .enumerate()
        .map(|(i, values)| {
            let it = Value::entity(kind_id, i as u32);
            let mut row = vec![crate::engine::show(program, state, &it)];
            row.extend(fields.iter().map(|(f, _)| {
                values
                    .get(*f)
                    .map_or(String::new(), |v| crate::engine::show(program, state, v))
            }));
            row
        })
        .collect();
    Some((head, rows))
}
