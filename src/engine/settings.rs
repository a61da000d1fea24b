//! One value for how a game is set up, apart from its rules: players, seed, limits, what it
//! keeps, and whether every choice asks. Every front end (play, serve, the REPL, sim,
//! scenarios, saves, the rulebook) builds one [`GameSettings`] and starts its game with
//! [`GameSettings::start`], so that a new setting is added in one place and read everywhere.
//!
//! Every game is built here: [`GameSettings::start`] (a game), [`GameSettings::prepare`] (the
//! start of a batch of games) and [`GameSettings::unstarted`] (a game before its setup, for
//! scenarios). [`Game::new`] and [`Game::playout`] are shorthands for the first.

use super::{Game, Limits, Mode, RuntimeError, Start, Unstarted};
use crate::ir::Program;
use std::sync::Arc;

/// How a game is set up, apart from its rules.
///
/// The default is a game for people (log, labels, backups, invariants checked) of 2 players
/// with seed 1 and the default limits: set the fields a front end chooses, as
/// `GameSettings { players, seed, ..GameSettings::default() }`.
#[derive(Debug, Clone, Copy)]
pub struct GameSettings {
    /// Number of players, from the game's fewest to its most (others fail with
    /// `player-count`).
    pub players: u8,
    /// Seed of the game's chance: the same rules, players and seed play the same game.
    pub seed: u64,
    /// Bounds that stop runaway rules. `limits.decisions` is the game's maximum number of
    /// decisions (`--max-decisions`).
    pub limits: Limits,
    /// What the game keeps and checks: a game for people ([`Mode::full`]) or a playout for
    /// bots ([`Mode::playout`]).
    pub mode: Mode,
    /// Every `choose` asks, even one of a single option, whatever the rules say: how a save
    /// or transcript from before such choices were taken without asking replays the same.
    pub always_ask: bool,
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings {
            players: 2,
            seed: 1,
            limits: Limits::default(),
            mode: Mode::full(),
            always_ask: false,
        }
    }
}

impl GameSettings {
    /// A game for people of `players` with `seed`, everything else the default.
    pub fn new(players: u8, seed: u64) -> GameSettings {
        GameSettings {
            players,
            seed,
            ..GameSettings::default()
        }
    }

    /// A playout for bots of `players` with `seed`: the same game as [`GameSettings::new`],
    /// without log, labels, backups or invariant checks.
    pub fn playout(players: u8, seed: u64) -> GameSettings {
        GameSettings {
            mode: Mode::playout(),
            ..GameSettings::new(players, seed)
        }
    }

    /// These settings with at most `decisions` decisions (`--max-decisions`).
    pub fn max_decisions(self, decisions: u64) -> GameSettings {
        GameSettings {
            limits: Limits {
                decisions: usize::try_from(decisions).unwrap_or(usize::MAX),
                ..self.limits
            },
            ..self
        }
    }

    /// Starts a game of `program` with these settings: sets up the state and runs the flow
    /// to the first decision.
    pub fn start(&self, program: Arc<Program>) -> Result<Game, RuntimeError> {
        let program = asking_always(program, self.always_ask);
        let mut game = Game::blank(program, self.players, self.seed, self.limits, self.mode)?;
        game.init()?;
        Unstarted(game, false).start()
    }

    /// The start of every game of `program` with these settings whatever its seed, prepared
    /// once for a batch: [`Start::restart`] then starts the game of a seed as
    /// [`GameSettings::start`] would. The seed is not read.
    pub fn prepare(&self, program: Arc<Program>) -> Result<Start, RuntimeError> {
        let program = asking_always(program, self.always_ask);
        Start::new(program, self.players, self.limits, self.mode)
    }

    /// A game of `program` whose initial values are set but whose `setup` has not run: a
    /// scenario's `before setup` changes it, then [`Unstarted::start`] plays on.
    pub fn unstarted(&self, program: Arc<Program>) -> Result<Unstarted, RuntimeError> {
        let program = asking_always(program, self.always_ask);
        let mut game = Game::blank(program, self.players, self.seed, self.limits, self.mode)?;
        game.init()?;
        Ok(Unstarted(game, false))
    }
}

/// The program, made to ask every choice if `always` and its rules do not say so already: how
/// a game saved before a choice of one option was taken without asking replays the same.
pub fn asking_always(program: Arc<Program>, always: bool) -> Arc<Program> {
    if !always || program.always_ask {
        return program;
    }
    let mut asking = (*program).clone();
    asking.always_ask = true;
    Arc::new(asking)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_a_game_for_people_within_the_default_limits() {
        let s = GameSettings::default();
        assert_eq!((s.players, s.seed, s.always_ask), (2, 1, false));
        assert_eq!(s.mode, Mode::full());
        assert_eq!(s.limits.decisions, Limits::default().decisions);
        assert_eq!(GameSettings::playout(3, 9).mode, Mode::playout());
    }

    #[test]
    fn max_decisions_sets_the_decision_limit_only() {
        let s = GameSettings::new(3, 4).max_decisions(7);
        assert_eq!(s.limits.decisions, 7);
        assert_eq!(
            s.limits.steps_per_decision,
            Limits::default().steps_per_decision
        );
        assert_eq!((s.players, s.seed), (3, 4));
    }
}
