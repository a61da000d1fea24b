//! Results of remembered `def` calls, per thread, keyed by the state they were computed from.
//!
//! A def reads only its arguments and the state, so a call of a remembered def (`ir::memo`)
//! with the same arguments on the same state gives the same value, and is looked up here
//! instead of run again. A state is named by its [`Epoch`]: every write to a state gives it a
//! fresh one (unique across threads and games), a copy keeps it, so two states with one epoch
//! hold the same values.
//!
//! Looking up must change nothing a player could see: an entry keeps the work its call spent
//! and how deep its calls went, a hit charges the same work, and a hit that would run out of
//! budget or nest too deep runs the call instead, to fail exactly where it would have. The
//! table has a fixed size and overwrites on collision: it is a cache, never the only copy.

use crate::ir::{DefId, List, Value};
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicU64, Ordering};

/// Entries for defs that give a number, a truth value, a player, an enum value or an instance
/// (a power of two): small enough to stay in the first cache levels.
const SLOTS: usize = 512;

/// Entries for defs that give a list (a power of two). An entry keeps a copy of the list's
/// elements in a buffer of its own, never the list itself: a kept list would hold a buffer out
/// of the per-thread pool (and share a variable's list, which its next write would copy).
const LIST_SLOTS: usize = 16;

/// Elements each list entry has room for from the start, so that steady-state play rarely
/// meets a longer list than an entry has held.
const LIST_ROOM: usize = 64;

/// Arguments a remembered call may have.
const ARGS: usize = crate::ir::memo::MAX_REMEMBERED_ARGS;

/// Which values a state holds: equal epochs, equal values. Not part of the position: two states
/// that differ only in it are equal. No `Default`: epoch 0 marks an empty entry, so every
/// epoch a state holds comes from [`Epoch::fresh`].
#[derive(Debug, Clone, Copy)]
pub struct Epoch(u64);

impl PartialEq for Epoch {
    fn eq(&self, _: &Epoch) -> bool {
        true
    }
}

impl Eq for Epoch {}

/// Threads that have handed out epochs; each hands out its own range.
static THREADS: AtomicU64 = AtomicU64::new(1);

/// Epochs a thread may hand out before it takes a new range.
const RANGE: u64 = 1 << 32;

thread_local! {
    /// The next epoch this thread hands out and the end of its range.
    static NEXT: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
    static TABLE: RefCell<Option<Box<[Entry]>>> = const { RefCell::new(None) };
}

impl Epoch {
    /// An epoch never handed out before, on any thread.
    pub fn fresh() -> Epoch {
        NEXT.with(|next| {
            let (mut n, end) = next.get();
            if n == end {
                n = THREADS.fetch_add(1, Ordering::Relaxed) * RANGE;
                next.set((n + 1, n + RANGE));
            } else {
                next.set((n + 1, end));
            }
            Epoch(n)
        })
    }

    /// Whether two states hold the same values because they hold the same epoch (`==` says
    /// yes to any two epochs, so that it never tells states apart).
    pub(super) fn same(self, other: Epoch) -> bool {
        self.0 == other.0
    }
}

/// One remembered call. Arguments are kept as words (lists are never remembered).
#[derive(Clone)]
struct Entry {
    /// The state's epoch; 0 for an empty entry.
    epoch: u64,
    def: u32,
    /// How many calls deep the call went, below itself.
    depth: u32,
    /// The work the call spent.
    work: u64,
    args: [(u64, u64); ARGS],
    /// The value, or `None` when the value is the list in `items`.
    value: Value,
    /// A list value's elements.
    items: Vec<Value>,
}

const EMPTY: Entry = Entry {
    epoch: 0,
    def: 0,
    depth: 0,
    work: 0,
    args: [(0, 0); ARGS],
    value: Value::None,
    items: Vec::new(),
};

/// A call to look up: the def, its arguments as words, and where it lies in the table.
#[derive(Debug, Clone, Copy)]
pub(super) struct Key {
    epoch: u64,
    def: u32,
    args: [(u64, u64); ARGS],
    slot: usize,
}

/// The key of a call, if it may be remembered: at most [`ARGS`] arguments, none a list
/// (comparing lists would cost what remembering saves).
pub(super) fn key(epoch: Epoch, def: DefId, gives_list: bool, args: &[Value]) -> Option<Key> {
    if args.len() > ARGS {
        return None;
    }
    let mut words = [(u64::MAX, u64::MAX); ARGS];
    // FNV-1a over the def and the arguments' words: fast, and spreads small integers.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ u64::from(def.0);
    for (w, a) in words.iter_mut().zip(args) {
        *w = match a {
            Value::None => (0, 0),
            Value::Bool(b) => (1, u64::from(*b)),
            Value::Int(n) => (2, *n as u64),
            Value::Player(p) => (3, u64::from(*p)),
            Value::Enum(e, i) => (4, (u64::from(e.0) << 16) | u64::from(*i)),
            Value::Entity(k, i) => (5, (u64::from(k.0) << 32) | u64::from(*i)),
            Value::List(_) => return None,
        };
        for x in [w.0, w.1] {
            h ^= x;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h ^= epoch.0;
    h = h.wrapping_mul(0x0100_0000_01b3);
    Some(Key {
        epoch: epoch.0,
        def: def.0,
        args: words,
        slot: if gives_list {
            SLOTS + ((h ^ (h >> 31)) as usize & (LIST_SLOTS - 1))
        } else {
            (h ^ (h >> 31)) as usize & (SLOTS - 1)
        },
    })
}

/// A remembered call's value, with the work it spent and how deep its calls went.
pub(super) fn recall(key: &Key) -> Option<(Value, u64, u32)> {
    TABLE
        .try_with(|t| {
            let t = t.borrow();
            let e = &t.as_ref()?[key.slot];
            (e.epoch == key.epoch && e.def == key.def && e.args == key.args).then(|| {
                let value = if key.slot >= SLOTS {
                    let mut xs = List::new();
                    xs.make_mut().extend_from_slice(&e.items);
                    Value::List(xs)
                } else {
                    e.value.clone()
                };
                (value, e.work, e.depth)
            })
        })
        .ok()
        .flatten()
}

/// Remembers a call's value.
pub(super) fn remember(key: &Key, value: &Value, work: u64, depth: u32) {
    let _ = TABLE.try_with(|t| {
        let mut t = t.borrow_mut();
        let t = t.get_or_insert_with(|| {
            let mut entries = vec![EMPTY; SLOTS + LIST_SLOTS];
            for e in &mut entries[SLOTS..] {
                e.items.reserve(LIST_ROOM);
            }
            entries.into_boxed_slice()
        });
        let e = &mut t[key.slot];
        match (key.slot >= SLOTS, value) {
            (true, Value::List(xs)) => {
                e.items.clear();
                e.items.extend_from_slice(xs);
            }
            (false, v) if !matches!(v, Value::List(_)) => e.value = v.clone(),
            // A def declared to give a list gives one (and one that does not, does not).
            _ => return,
        }
        e.epoch = key.epoch;
        e.def = key.def;
        e.depth = depth;
        e.work = work;
        e.args = key.args;
    });
}
