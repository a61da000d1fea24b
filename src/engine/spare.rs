//! Buffers kept for reuse, per thread: the vectors of consumed turns, local slots of calls
//! and the choices of finished `secretly` blocks. A playout takes them at a decision and gives them back when done, so
//! steady-state play asks the allocator for nothing, from one game to the next.

use super::exec::{Frame, SecretLoop};
use super::SecretChoice;
use crate::ir::{ActionId, Value};
use std::cell::RefCell;

/// How many buffers of each kind a thread keeps.
const KEPT: usize = 256;

/// A stack of emptied buffers of one kind.
struct Pool<T>(RefCell<Vec<T>>);

impl<T> Pool<T> {
    const fn new() -> Pool<T> {
        Pool(RefCell::new(Vec::new()))
    }
}

thread_local! {
    static MACHINES: Pool<Machine> = const { Pool::new() };
    static VALUES: Pool<Vec<Value>> = const { Pool::new() };
    static INDICES: Pool<Vec<usize>> = const { Pool::new() };
    static SECRET_CHOICES: Pool<Vec<SecretChoice>> = const { Pool::new() };
}

fn take<T>(pool: &'static std::thread::LocalKey<Pool<T>>) -> Option<T> {
    pool.try_with(|p| p.0.borrow_mut().pop()).ok().flatten()
}

fn give<T>(pool: &'static std::thread::LocalKey<Pool<T>>, item: T) {
    let _ = pool.try_with(|p| {
        let mut p = p.0.borrow_mut();
        if p.len() < KEPT {
            p.push(item);
        }
    });
}

/// The buffers a game runs on: its frames, its stack of slots, its `secretly` blocks, and the
/// vectors a turn lists its moves in.
#[derive(Debug, Default)]
pub(super) struct Machine {
    pub(super) frames: Vec<Frame>,
    pub(super) stack: Vec<Value>,
    pub(super) secrets: Vec<SecretLoop>,
    pub(super) kept: Kept,
}

/// The vectors a game lists its turns' moves in, kept from one turn to the next (and a copy of
/// a game starts without them: they hold nothing of the position).
#[derive(Debug, Default)]
pub(super) struct Kept {
    /// A consumed turn's moves and arguments, emptied.
    pub(super) moves: Vec<(ActionId, u32)>,
    pub(super) args: Vec<Value>,
    /// The slots requirements are checked in.
    pub(super) locals: Vec<Value>,
}

impl Clone for Kept {
    fn clone(&self) -> Kept {
        Kept::default()
    }
}

/// The empty buffers of a game about to start: those of a game that has ended on this thread,
/// when there is one.
pub(super) fn machine() -> Machine {
    take(&MACHINES).unwrap_or_default()
}

/// The buffers of a game no longer played, for the next game on this thread.
pub(super) fn give_machine(mut m: Machine) {
    m.frames.clear();
    m.stack.clear();
    for s in m.secrets.drain(..) {
        give_secret_choices(s.choices);
    }
    m.kept.moves.clear();
    m.kept.args.clear();
    m.kept.locals.clear();
    give(&MACHINES, m);
}

/// Empties `values`, with no call to drop anything when it is empty already.
#[inline(always)]
pub(super) fn clear_values(values: &mut Vec<Value>) {
    if !values.is_empty() {
        values.clear();
    }
}

/// An empty vector of values.
pub(super) fn values() -> Vec<Value> {
    take(&VALUES).unwrap_or_default()
}

/// A vector of values no longer needed.
pub(super) fn give_values(mut values: Vec<Value>) {
    values.clear();
    give(&VALUES, values);
}

/// An empty vector of indices.
pub(super) fn indices() -> Vec<usize> {
    take(&INDICES).unwrap_or_default()
}

/// A vector of indices no longer needed.
pub(super) fn give_indices(mut indices: Vec<usize>) {
    indices.clear();
    give(&INDICES, indices);
}

/// An empty vector of secret choices.
pub(super) fn secret_choices() -> Vec<SecretChoice> {
    take(&SECRET_CHOICES).unwrap_or_default()
}

/// Secret choices all played out.
pub(super) fn give_secret_choices(mut choices: Vec<SecretChoice>) {
    choices.clear();
    give(&SECRET_CHOICES, choices);
}
