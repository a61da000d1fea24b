//! The size of what a game holds, capped: a rule that fills its variables a little more at
//! every decision stops with an error naming the variable, where it would otherwise take the
//! machine's memory over a long game.
//!
//! Measuring walks every variable and field, so it is done only when it could matter: the meter
//! keeps what the game held when last measured plus every list element written into a
//! variable or field since (`Game::write_other` notes them), an upper bound that costs two
//! reads to compare with the limit. Only when the bound passes the limit is the game measured
//! again, and the bound reset to what it holds.

use super::eval::err;
use super::{Game, RuntimeError, State};
use crate::diag::Span;
use crate::ir::{Program, Value};

/// The list elements in `v`: a list's length, and those of the lists within it.
pub(super) fn elements_in(v: &Value) -> u64 {
    match v {
        Value::List(xs) => {
            // Lists are all of one type: a list of numbers holds no list to look into.
            if !matches!(xs.first(), Some(Value::List(_))) {
                return xs.len() as u64;
            }
            xs.iter()
                .fold(xs.len() as u64, |n, x| n.saturating_add(elements_in(x)))
        }
        _ => 0,
    }
}

/// Where a game's list elements are: its total, and the variable or field holding the most,
/// with how many.
struct Census {
    total: u64,
    largest: (u64, Holder),
}

/// A variable or a field of a kind.
#[derive(Clone, Copy)]
enum Holder {
    Global(usize),
    PlayerVar(usize),
    Field(usize, usize),
}

impl Census {
    fn of(state: &State) -> Census {
        let mut census = Census {
            total: 0,
            largest: (0, Holder::Global(0)),
        };
        for (g, v) in state.globals.iter().enumerate() {
            census.add(elements_in(v), Holder::Global(g));
        }
        for column in 0..state.player_vars.columns() {
            let n = (0..state.player_vars.len())
                .map(|row| elements_in(state.player_vars.get(row, column)))
                .fold(0u64, u64::saturating_add);
            census.add(n, Holder::PlayerVar(column));
        }
        for (k, table) in state.entities.iter().enumerate() {
            for column in 0..table.columns() {
                let n = (0..table.len())
                    .map(|row| elements_in(table.get(row, column)))
                    .fold(0u64, u64::saturating_add);
                census.add(n, Holder::Field(k, column));
            }
        }
        census
    }

    fn add(&mut self, n: u64, holder: Holder) {
        self.total = self.total.saturating_add(n);
        if n > self.largest.0 {
            self.largest = (n, holder);
        }
    }
}

impl Holder {
    /// How a designer names it, and where its declaration's value is written.
    fn describe(self, program: &Program) -> (String, Span) {
        let (name, var) = match self {
            Holder::Global(g) => {
                let var = &program.globals[g];
                (format!("`{}`", var.name), var)
            }
            Holder::PlayerVar(v) => {
                let var = &program.player_vars[v];
                (format!("every player's `{}`", var.name), var)
            }
            Holder::Field(k, f) => {
                let kind = &program.kinds[k];
                let var = &kind.fields[f];
                (format!("the `{}` of every `{}`", var.name, kind.name), var)
            }
        };
        (name, var.init.span)
    }
}

/// Measures what `state` holds and sets its meter's bound to it.
pub(super) fn measure(state: &State) -> u64 {
    let total = Census::of(state).total;
    state.work.measured(total);
    total
}

impl Game {
    /// Fails if the game holds more list elements than its limit allows: measured only when
    /// the meter's bound passes the limit (see the module's notes).
    #[inline]
    pub(super) fn check_live(&self) -> Result<(), Box<RuntimeError>> {
        if self.state.work.live_bound() <= self.limits.live_elements {
            return Ok(());
        }
        self.check_live_measured()
    }

    #[cold]
    #[inline(never)]
    fn check_live_measured(&self) -> Result<(), Box<RuntimeError>> {
        let census = Census::of(&self.state);
        self.state.work.measured(census.total);
        if census.total <= self.limits.live_elements {
            return Ok(());
        }
        let (most, holder) = census.largest;
        let (name, span) = holder.describe(&self.program);
        Err(err(
            "game-too-large",
            format!(
                "the game holds {} list elements, more than its limit of {}; {name} holds {most}",
                census.total, self.limits.live_elements
            ),
            span,
            "a rule adds to a list at every turn without ever taking from it; keep lists to what the game needs",
        ))
    }
}
