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
    static FRAMES: Pool<Vec<Frame>> = const { Pool::new() };
    static STACKS: Pool<Vec<Value>> = const { Pool::new() };
    static SECRET_LOOPS: Pool<Vec<SecretLoop>> = const { Pool::new() };
    static MOVES: Pool<Vec<(ActionId, u32)>> = const { Pool::new() };
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

/// The empty frames, stack and `secretly` blocks of a game about to start.
pub(super) fn machine() -> (Vec<Frame>, Vec<Value>, Vec<SecretLoop>) {
    (
        take(&FRAMES).unwrap_or_default(),
        take(&STACKS).unwrap_or_default(),
        take(&SECRET_LOOPS).unwrap_or_default(),
    )
}

/// The emptied frames, stack and `secretly` blocks of a game that has ended.
pub(super) fn give_machine(frames: Vec<Frame>, stack: Vec<Value>, secrets: Vec<SecretLoop>) {
    debug_assert!(frames.is_empty() && stack.is_empty() && secrets.is_empty());
    give(&FRAMES, frames);
    give(&STACKS, stack);
    give(&SECRET_LOOPS, secrets);
}

/// An empty list of moves.
pub(super) fn moves() -> Vec<(ActionId, u32)> {
    take(&MOVES).unwrap_or_default()
}

/// A consumed list of moves.
pub(super) fn give_moves(mut moves: Vec<(ActionId, u32)>) {
    moves.clear();
    give(&MOVES, moves);
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
