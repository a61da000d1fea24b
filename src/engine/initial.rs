//! The values of a game before its setup runs, kept per thread for each program and player
//! count.
//!
//! Initial values read no chance (dice and shuffles are statements, and setup runs after), so
//! they follow from the program, the player count and the work budget alone. Rules often build
//! them with some effort (a card table as lists indexed by position, names of instances from
//! `shown as`), and a simulation starts thousands of games: each thread computes them once and
//! every later game copies them. Lists of kinds that no rule writes are shared; the others get
//! buffers of their own as the game starts.

use super::state::{State, Table};
use crate::ir::{List, Program, Value};
use std::cell::RefCell;
use std::sync::Arc;

/// Programs remembered per thread, newest first.
const KEPT: usize = 4;

/// A game's values before setup.
struct Start {
    /// The program, held so that its address is never another program's.
    program: Arc<Program>,
    players: u8,
    budget: u64,
    globals: Vec<Value>,
    player_vars: Table,
    entities: Vec<Table>,
    labels: Arc<Vec<Vec<String>>>,
    domains: Arc<super::Domains>,
}

thread_local! {
    static STARTS: RefCell<Vec<Start>> = const { RefCell::new(Vec::new()) };
}

/// Copies the values before setup into `state` if this thread has them; false if not.
pub(super) fn recall(program: &Arc<Program>, state: &mut State) -> bool {
    STARTS
        .try_with(|starts| {
            let starts = starts.borrow();
            let Some(start) = starts.iter().find(|s| {
                Arc::ptr_eq(&s.program, program)
                    && s.players == state.players
                    && s.budget == state.work.budget()
            }) else {
                return false;
            };
            state.globals.clone_from(&start.globals);
            state.player_vars.clone_from(&start.player_vars);
            state.entities.clone_from(&start.entities);
            own_writable_lists(program, state);
            state.labels = start.labels.clone();
            state.domains = start.domains.clone();
            state.touch();
            true
        })
        .unwrap_or(false)
}

/// Gives every list the game may write a buffer of its own, now, while the game starts, rather
/// than copied at its first write in the middle of play. Lists of kinds that no rule writes
/// stay shared.
pub(super) fn own_writable_lists(program: &Program, state: &mut State) {
    own_lists(&mut state.globals);
    own_lists(state.player_vars.values_mut());
    for (kind, instances) in program.kinds.iter().zip(&mut state.entities) {
        if kind.mutable {
            own_lists(instances.values_mut());
        }
    }
}

/// Gives every list among `values` a buffer of its own.
fn own_lists(values: &mut [Value]) {
    for v in values {
        if let Value::List(xs) = v {
            let mut own = List::new();
            own.make_mut().extend_from_slice(xs);
            *xs = own;
        }
    }
}

/// Keeps the values before setup of a game that has just computed them.
pub(super) fn remember(program: &Arc<Program>, state: &State) {
    let _ = STARTS.try_with(|starts| {
        let mut starts = starts.borrow_mut();
        starts.truncate(KEPT - 1);
        starts.insert(
            0,
            Start {
                program: program.clone(),
                players: state.players,
                budget: state.work.budget(),
                globals: state.globals.clone(),
                player_vars: state.player_vars.clone(),
                entities: state.entities.clone(),
                labels: state.labels.clone(),
                domains: state.domains.clone(),
            },
        );
    });
}
