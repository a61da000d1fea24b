//! Checking a shard document before it is merged: a shard is a file anyone may have edited, so
//! every record must be one a batch could have played (seats in range, lengths within the
//! batch's `--max-decisions`, counts that add up), and the first one that is not is named.

use super::merge::MergeError;
use super::report::Report;
use super::run::{GameRecord, MAX_DECISIONS, MAX_GAMES};
use crate::engine::MAX_MOVES;

/// The most options one decision can offer: a turn's moves, or a list to choose from.
const MAX_OPTIONS: u64 = MAX_MOVES as u64;

/// Checks what `report` (from the file `name`) says it simulated and each of its records.
pub fn check_shard(name: &str, report: &Report) -> Result<(), MergeError> {
    let meta = &report.meta;
    let bad = |what: String| Err(MergeError(format!("{name}: {what}")));
    let players = usize::from(meta.players);
    if players == 0 || meta.seats.len() != players || meta.bots.len() != players {
        return bad(format!(
            "it names {} seats and {} bots for {} players",
            meta.seats.len(),
            meta.bots.len(),
            meta.players
        ));
    }
    if meta.games == 0 || meta.games > MAX_GAMES {
        return bad(format!(
            "a batch of {} games; a batch has 1 to {MAX_GAMES}",
            meta.games
        ));
    }
    if meta.max_decisions == 0 || meta.max_decisions > MAX_DECISIONS {
        return bad(format!(
            "--max-decisions {}; it is 1 to {MAX_DECISIONS}",
            meta.max_decisions
        ));
    }
    if let Some(s) = meta.shard {
        if s.count == 0 || s.index == 0 || s.index > s.count || s.count > meta.games {
            return bad(format!(
                "shard {}/{} of {} games cannot be",
                s.index, s.count, meta.games
            ));
        }
    }
    let records = report.records.as_deref().unwrap_or_default();
    if records.len() as u64 > meta.games {
        return bad(format!(
            "{} records, for a batch of {} games",
            records.len(),
            meta.games
        ));
    }
    if report.blocks_run.len() > meta.rule_blocks.len()
        || report.blocks_run.iter().any(|n| *n > records.len() as u64)
    {
        return bad("its count of the rules run (`blocks_run`) does not fit its games".into());
    }
    let known = |at: &str| meta.clamp_sites.iter().any(|s| s.site.at == at);
    if report.clamps.iter().any(|c| {
        c.count.games > records.len() as u64
            || c.count.games > c.count.times
            || !known(&c.site.site.at)
    }) {
        return bad("its clamps (`clamps`) do not fit its games and its rules".into());
    }
    for r in records {
        check_record(report, r)
            .map_err(|why| MergeError(format!("{name}: the record of game {}: {why}", r.index)))?;
    }
    // Within bounds now: each record's decisions are at most `MAX_DECISIONS`.
    let decisions: u64 = records.iter().map(|r| r.decisions).sum();
    let answers: u64 = report
        .choices
        .answered
        .iter()
        .flat_map(|s| &s.options)
        .fold(0u64, |sum, o| sum.saturating_add(o.taken));
    if answers > decisions {
        return bad(format!(
            "its choices were answered {answers} times, in {decisions} decisions"
        ));
    }
    Ok(())
}

/// Why a record could not have come from the batch `report` describes, if it could not.
fn check_record(report: &Report, r: &GameRecord) -> Result<(), String> {
    let meta = &report.meta;
    let players = meta.players;
    for (i, e) in r.eliminated.iter().enumerate() {
        if e.seat >= players || e.decisions > r.decisions {
            return Err(format!(
                "seat {} put out after {} decisions, in a game of {players} seats and {} decisions",
                u64::from(e.seat) + 1,
                e.decisions,
                r.decisions
            ));
        }
        if r.eliminated[..i].iter().any(|x| x.seat == e.seat) {
            return Err(format!("seat {} put out twice", u64::from(e.seat) + 1));
        }
    }
    if r.index >= meta.games || meta.shard.is_some_and(|s| !s.contains(r.index)) {
        return Err(format!("game {} is not one of this shard's", r.index));
    }
    if r.seed != meta.seed.wrapping_add(r.index) {
        return Err(format!(
            "its seed is {}, where game {} of seed {} has {}",
            r.seed,
            r.index,
            meta.seed,
            meta.seed.wrapping_add(r.index)
        ));
    }
    if r.decisions > meta.max_decisions {
        return Err(format!(
            "{} decisions, more than the batch's --max-decisions {}",
            r.decisions, meta.max_decisions
        ));
    }
    if let Some(w) = r.winners.iter().find(|w| **w >= players) {
        return Err(format!(
            "it names seat {} as a winner, and the game has {players}",
            u64::from(*w) + 1
        ));
    }
    let finished = r.failure.is_none();
    let scores_fit = if finished {
        r.scores.len() == usize::from(players)
    } else {
        r.scores.is_empty() && r.winners.is_empty()
    };
    if !scores_fit {
        return Err(format!(
            "{} scores and {} winners for a {} game of {players} seats",
            r.scores.len(),
            r.winners.len(),
            if finished { "finished" } else { "failed" }
        ));
    }
    if r.actions.len() != meta.action_names.len() {
        return Err(format!(
            "counts of {} actions, where the game has {}",
            r.actions.len(),
            meta.action_names.len()
        ));
    }
    let turns = r.actions.iter().fold(0u64, |s, n| s.saturating_add(*n));
    if turns > r.decisions {
        return Err(format!(
            "{turns} actions taken in {} decisions",
            r.decisions
        ));
    }
    let options_fit = r.max_options <= MAX_OPTIONS
        && r.max_options <= r.options
        && r.options <= r.decisions.saturating_mul(r.max_options);
    if !options_fit {
        return Err(format!(
            "{} options in {} decisions, at most {} at one",
            r.options, r.decisions, r.max_options
        ));
    }
    if let Some(f) = &r.failure {
        if f.decision > r.decisions.saturating_add(1) {
            return Err(format!(
                "it failed in decision {}, after {} decisions",
                f.decision, r.decisions
            ));
        }
    }
    Ok(())
}
