//! A game's start, prepared once and copied for every seed: what a batch of games (`meeple
//! sim`) pays once rather than at every game.
//!
//! Everything a game does before its setup runs follows from the program, the player count,
//! the limits and the mode, never from the seed: the seed is read only by chance, initial
//! values read no chance (dice and shuffles are statements), and building the game to that
//! point ([`Game::blank`], [`Game::init`]) draws none. So one game is built to that point, and
//! each game of the batch copies it into the buffers of the game before, takes its own seed,
//! and runs its setup and flow to the first decision. The setup runs, and draws its chance,
//! for every game: nothing after the first draw is shared.
//!
//! Invariant: a game started from a [`Start`] is the game [`GameSettings::start`](super::GameSettings::start) starts with the
//! same program, players, seed, limits and mode, move for move and byte for byte.

use super::spare;
use super::{Game, Limits, Mode, Pending, Rng, RuntimeError};
use crate::ir::Program;
use std::sync::Arc;

/// The start of a game before its seed is read: its initial values set, its flow and setup
/// about to run. Prepared once for many games ([`GameSettings::prepare`](super::GameSettings::prepare)), then copied for each seed
/// ([`Start::restart`], [`Start::game`]).
#[derive(Debug)]
pub struct Start {
    /// The game built to just before its setup, with seed 0: no chance has been drawn.
    game: Game,
}

impl Start {
    /// Prepares games of `program` for `players` seats with these limits and mode: fails as
    /// every such game would fail to start (a player count the rules do not allow, an initial
    /// value that breaks a rule), whatever its seed.
    pub(super) fn new(
        program: Arc<Program>,
        players: u8,
        limits: Limits,
        mode: Mode,
    ) -> Result<Start, RuntimeError> {
        let mut game = Game::blank(program, players, 0, limits, mode)?;
        game.init()?;
        Ok(Start { game })
    }

    /// The mode its games are started in (each game sets its own `invariants`).
    pub fn mode(&self) -> Mode {
        self.game.mode
    }

    /// The game of `seed`, its invariants checked after every decision if `invariants`: the
    /// game [`GameSettings::start`](super::GameSettings::start) would start.
    pub fn game(&self, seed: u64, invariants: bool) -> Result<Game, RuntimeError> {
        let mut game = self.game.clone();
        self.restart(&mut game, seed, invariants)?;
        Ok(game)
    }

    /// Starts the game of `seed` in `game`, whatever game it held, reusing its buffers: the
    /// position copied from this start, chance drawn from `seed`, the setup and the flow run
    /// to the first decision. On an error `game` is left as the failed start left it, to be
    /// started again or dropped.
    pub fn restart(
        &self,
        game: &mut Game,
        seed: u64,
        invariants: bool,
    ) -> Result<(), RuntimeError> {
        let start = &self.game;
        if !Arc::ptr_eq(&game.program, &start.program) {
            game.program = start.program.clone();
        }
        game.held
            .keep_for(&start.program, &start.state.domains.code);
        game.seed = seed;
        game.limits = start.limits;
        game.mode = Mode {
            invariants,
            ..start.mode
        };
        game.state.clone_from(&start.state);
        // As a game started afresh: lists it may write get their own buffers, and nothing
        // remembered for another game's values applies to its own.
        super::initial::own_writable_lists(&start.program, &mut game.state);
        game.state.touch();
        game.rng = Rng::new(seed, 0);
        game.fixed = None;
        game.frames.clone_from(&start.frames);
        game.stack.clone_from(&start.stack);
        for s in game.secrets.drain(..) {
            spare::give_secret_choices(s.choices);
        }
        match game.pending.take() {
            Some(Pending::Turn(turn)) => game.recycle(turn),
            other => drop(other),
        }
        game.outcome = None;
        game.log.clear();
        game.history.clear();
        game.decisions = 0;
        game.ran.copy_from(&start.ran);
        game.clamps.copy_from(&start.clamps);
        game.trail = None;
        game.replay = None;
        game.begin(false)
    }
}

impl Game {
    /// Runs `setup` and the flow to the first decision, and checks the invariants if the game
    /// checks them; `edited` if the position was set by hand before (a scenario's `before
    /// setup`).
    pub(super) fn begin(&mut self, edited: bool) -> Result<(), RuntimeError> {
        self.start_trail(edited);
        self.run()?;
        if self.mode.invariants {
            self.check_invariants()?;
        }
        Ok(())
    }
}
