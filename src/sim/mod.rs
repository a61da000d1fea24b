//! Simulation: games played to the end by bots, and their transcripts; batches of games on
//! every core with their statistics (`meeple sim`).
//!
//! [`run`] plays a batch into per-game records, [`report`] computes the statistics from them
//! ([`choices`] the answers each decision statement was given, [`coverage`] the rules that
//! never ran, [`clamps`] the numbers held to their bounds),
//! [`compare`] sets two batches side by side ([`compare_sites`] statement by statement),
//! [`text`] renders reports as text and [`text_compare`] comparisons
//! and [`html`] as a page of charts (drawn by `charts`, each said in words by [`captions`]),
//! [`mod@merge`] combines shards, [`stats`] holds the arithmetic.

pub mod captions;
mod charts;
pub mod choices;
pub mod clamps;
pub mod compare;
pub mod compare_clamps;
pub mod compare_sites;
pub mod coverage;
pub mod html;
pub mod merge;
pub mod outcomes;
pub mod report;
pub mod run;
pub mod sites;
pub mod stats;
pub mod text;
pub mod text_compare;
pub mod validate;

pub use choices::ChoiceTotals;
pub use compare::{CompareReport, Comparison, Difference, COMPARE_SCHEMA};
pub use merge::{
    merge, merge_compared, parse_shard, parse_shard_doc, MergeError, ShardDoc, MAX_SHARD,
};
pub use report::{Meta, Report, SCHEMA};
pub use run::{
    play_game, run_batch, Batch, Counts, Failure, GameRecord, Played, Shard, Starter,
    MAX_DECISIONS, MAX_GAMES,
};

use crate::bots::{ask_bot, Bot, BotKind, RandomBot};
use crate::engine::GameSettings;
use crate::engine::{Game, MoveError, RuntimeError, Viewer};
use crate::ir::Program;
use std::sync::Arc;

/// Why a simulated game stopped before its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimError {
    /// The game failed to start.
    Start(RuntimeError),
    /// A move failed.
    Move(MoveError),
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Start(e) => write!(f, "the game could not start: {e}"),
            SimError::Move(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SimError {}

/// Plays an already started game to the end, each seat by its bot.
pub fn play_to_end(game: &mut Game, bots: &mut [Box<dyn Bot>]) -> Result<(), SimError> {
    while !game.is_over() {
        let seat = game.waiting_on()[0];
        let index = ask_bot(game, seat, bots[seat as usize].as_mut()).unwrap_or(0);
        game.apply(seat, index).map_err(SimError::Move)?;
    }
    Ok(())
}

/// A whole game by random bots: deterministic for (program, players, seed).
pub fn random_game(program: Arc<Program>, players: u8, seed: u64) -> Result<Game, SimError> {
    let mut game = GameSettings::new(players, seed)
        .start(program)
        .map_err(SimError::Start)?;
    let mut bots: Vec<Box<dyn Bot>> = (0..players)
        .map(|p| BotKind::Random.make(seed, p))
        .collect();
    play_to_end(&mut game, &mut bots)?;
    Ok(game)
}

/// A whole game by random bots on the fast path: the same game as [`random_game`] (the same
/// choices from the same seed), played without log, labels, backups or invariant checks.
pub fn random_playout(program: Arc<Program>, players: u8, seed: u64) -> Result<Game, SimError> {
    let mut game = GameSettings::playout(players, seed)
        .start(program)
        .map_err(SimError::Start)?;
    let mut bots: Vec<RandomBot> = (0..players).map(|p| RandomBot::new(seed, p)).collect();
    game.play_out(usize::MAX, |seat, count| bots[seat as usize].pick(count))
        .map_err(SimError::Move)?;
    Ok(game)
}

/// A readable record of a game as an onlooker saw it: the public log, then the final view.
pub fn transcript(game: &Game) -> String {
    let program = game.program();
    let variants = if program.variants.is_empty() {
        String::new()
    } else {
        format!(" with {}", program.variants.join(", "))
    };
    let mut out = format!(
        "{}{variants} · {} players · seed {}\n\n",
        program.title,
        game.players(),
        game.seed()
    );
    for line in game.log(Viewer::Spectator) {
        out.push_str(&line);
        out.push('\n');
    }
    out.push('\n');
    out.push_str(&game.view(Viewer::Spectator));
    out
}
