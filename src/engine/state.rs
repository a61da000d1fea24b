//! The values of a game in progress: global variables, per-player variables and the fields of
//! every instance.

use crate::ir::{List, Value};
use std::sync::Arc;

/// Every variable's value, by index.
#[derive(Debug, PartialEq, Eq)]
pub struct State {
    /// Number of players.
    pub players: u8,
    /// Global variables, by `GlobalId`.
    pub globals: Vec<Value>,
    /// Per-player variables: `[player][PlayerVarId]`.
    pub player_vars: Vec<Vec<Value>>,
    /// Instances: `[KindId][instance][FieldId]`.
    pub entities: Vec<Vec<Vec<Value>>>,
    /// Names of instances from `shown as`, rendered at the start: `[KindId][instance]`.
    pub labels: Arc<Vec<Vec<String>>>,
    /// The lists that never change during a game, built once at its start.
    pub domains: Arc<Domains>,
    /// The work left before the rules must reach a decision (not part of the position).
    pub work: WorkMeter,
    /// Which values it holds, for remembered calls (not part of the position): every write
    /// must call [`State::touch`] or [`State::touch_variable`].
    pub epoch: super::memo::Epoch,
    /// When each variable was last written, for remembered calls (not part of the position).
    pub written: super::memo::Written,
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            players: self.players,
            globals: self.globals.clone(),
            player_vars: self.player_vars.clone(),
            entities: self.entities.clone(),
            labels: self.labels.clone(),
            domains: self.domains.clone(),
            work: self.work.clone(),
            epoch: self.epoch,
            written: self.written.clone(),
        }
    }

    /// Copies a state into this one, reusing its buffers: a search copies a position into the
    /// same scratch state a thousand times a decision, and the nested vectors of instances
    /// would otherwise be allocated and freed each time.
    fn clone_from(&mut self, source: &State) {
        self.players = source.players;
        self.globals.clone_from(&source.globals);
        self.player_vars.clone_from(&source.player_vars);
        self.entities.clone_from(&source.entities);
        self.labels.clone_from(&source.labels);
        self.domains.clone_from(&source.domains);
        self.work.clone_from(&source.work);
        self.epoch = source.epoch;
        self.written.copy_from(&source.written);
    }
}

impl State {
    /// Marks the whole state as written: no result remembered for its old values applies.
    #[inline]
    pub fn touch(&mut self) {
        self.epoch = super::memo::Epoch::after(self.epoch);
        self.written.everything(self.epoch);
    }

    /// Marks one variable (`ir::memo::Variables`) as written: results remembered for its old
    /// value no longer apply; results that did not read it still do.
    #[inline]
    pub fn touch_variable(&mut self, v: usize) {
        self.epoch = super::memo::Epoch::after(self.epoch);
        self.written.variable(v, self.epoch);
    }
}

/// The operation budget: every statement, loop pass and expression node spends from it, so that
/// no rule runs on unseen. Running the rules to the next decision *arms* it with the whole budget
/// for that run; any other evaluation (listing moves, a view, a prompt) starts from a full budget
/// of its own. It is not part of the position: two states that differ only in it are equal.
#[derive(Debug, Clone, Default)]
pub struct WorkMeter {
    left: std::cell::Cell<u64>,
    budget: u64,
    armed: std::cell::Cell<bool>,
}

impl WorkMeter {
    /// A meter of `budget` units an evaluation.
    pub fn new(budget: u64) -> WorkMeter {
        WorkMeter {
            left: std::cell::Cell::new(budget),
            budget,
            armed: std::cell::Cell::new(false),
        }
    }

    /// The whole budget.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// Starts a run of the rules: one budget for all of it, until [`WorkMeter::disarm`].
    pub fn arm(&self) {
        self.left.set(self.budget);
        self.armed.set(true);
    }

    /// Ends a run of the rules.
    pub fn disarm(&self) {
        self.armed.set(false);
    }

    /// Starts an evaluation: a full budget, unless it is part of an armed run.
    #[inline]
    pub fn fresh(&self) {
        if !self.armed.get() {
            self.left.set(self.budget);
        }
    }

    /// The work left.
    #[inline]
    pub fn left(&self) -> u64 {
        self.left.get()
    }

    /// Sets the work left (an evaluation hands back what it did not spend).
    #[inline]
    pub fn set_left(&self, left: u64) {
        self.left.set(left);
    }

    /// Spends `n` units; false if the budget is spent.
    #[inline]
    pub fn spend(&self, n: u64) -> bool {
        let left = self.left.get();
        if left < n {
            self.left.set(0);
            return false;
        }
        self.left.set(left - n);
        true
    }
}

impl PartialEq for WorkMeter {
    fn eq(&self, _: &WorkMeter) -> bool {
        true
    }
}

impl Eq for WorkMeter {}

/// Every seat, every instance of each kind and every value of each enum, as lists, so that
/// reading `players`, a kind or an enum as a list builds nothing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Domains {
    /// Every seat in order.
    pub seats: List,
    /// Every instance of each kind, by `KindId`.
    pub instances: Vec<List>,
    /// Every value of each enum, by `EnumId`.
    pub enum_values: Vec<List>,
    /// The program's roots compiled (none: every expression is walked).
    pub(crate) code: Arc<super::compile::Code>,
}
