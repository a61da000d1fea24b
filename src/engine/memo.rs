//! Results of remembered `def` calls, per thread, keyed by the state they were computed from.
//!
//! A def reads only its arguments and the state, so a call of a remembered def (`ir::memo`)
//! with the same arguments on the same values gives the same value, and is looked up here
//! instead of run again. Values are named by epochs: every write gives a state a fresh
//! [`Epoch`] (unique across threads and games, later than any the state holds) and notes it
//! against the variable written ([`Written`]); a copy keeps both. A def that reads few
//! variables (`DefDef::reads`) is keyed by the latest epoch among them, so its results last
//! until one of them is written; any other def by the state's own epoch, until anything is.
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

/// Entries for defs that give a list (a power of two). An entry keeps a list the call built
/// (no other handle to it) as a handle, so that a hit is a count taken on it and no copy (a
/// write through either handle copies it first); it keeps a list that something else holds
/// too (a variable's, given back as it is) as a copy of its elements in a buffer of its own,
/// so that the variable's next write need not copy it.
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
        Epoch::after(Epoch(0))
    }

    /// An epoch never handed out before, on any thread, and later than `last`. The epochs a
    /// state is given therefore grow with every write, even when a state is copied from one
    /// thread to another: that lets a remembered result name the last write to what it read
    /// by the latest of their epochs ([`Written::last`]).
    pub fn after(last: Epoch) -> Epoch {
        NEXT.with(|next| {
            let (mut n, end) = next.get();
            if n == end || n <= last.0 {
                // Ranges are handed out in increasing order, so a new one lies past every
                // epoch handed out before, `last` among them.
                n = THREADS.fetch_add(1, Ordering::Relaxed) * RANGE;
                next.set((n + 1, n + RANGE));
            } else {
                next.set((n + 1, end));
            }
            debug_assert!(n > last.0);
            Epoch(n)
        })
    }

    /// Whether two states hold the same values because they hold the same epoch (`==` says
    /// yes to any two epochs, so that it never tells states apart).
    pub(super) fn same(self, other: Epoch) -> bool {
        self.0 == other.0
    }
}

/// When each variable of a state (`ir::memo::Variables`) was last written, so that a remembered
/// result lasts until something it read is written, not until anything is. Not part of the
/// position: two states that differ only in it are equal.
///
/// Every write gives the state an epoch later than any it holds (`Epoch::after`) and notes it
/// here, and a copy keeps these notes. So the latest epoch among the variables a def reads
/// names one write, after which none of them changed: any two states that hold it for those
/// variables hold the same values in them.
#[derive(Debug, Clone)]
pub struct Written {
    /// The last write to every variable at once (a game's start, a redeal, a position set by
    /// hand).
    all: Epoch,
    /// The last write to each variable (epoch 0: none since the game began).
    each: Vec<Epoch>,
}

impl PartialEq for Written {
    fn eq(&self, _: &Written) -> bool {
        true
    }
}

impl Eq for Written {}

impl Written {
    /// A state of `variables` variables, all written at `at`.
    pub fn new(variables: usize, at: Epoch) -> Written {
        Written {
            all: at,
            each: vec![Epoch(0); variables],
        }
    }

    /// Notes a write to every variable at once.
    pub fn everything(&mut self, at: Epoch) {
        self.all = at;
    }

    /// Notes a write to one variable.
    #[inline]
    pub fn variable(&mut self, v: usize, at: Epoch) {
        if let Some(e) = self.each.get_mut(v) {
            *e = at;
        } else {
            // A variable beyond those counted at the start: count it as everything.
            self.all = at;
        }
    }

    /// The last write to any of `reads`, or `whole` (the state's epoch) if one of them was
    /// not counted.
    #[inline]
    pub fn last(&self, reads: &[u32], whole: Epoch) -> Epoch {
        let mut last = self.all.0;
        for &v in reads {
            match self.each.get(v as usize) {
                Some(e) => last = last.max(e.0),
                None => return whole,
            }
        }
        Epoch(last)
    }

    /// Copies another state's notes, reusing this one's buffer.
    pub fn copy_from(&mut self, source: &Written) {
        self.all = source.all;
        self.each.clone_from(&source.each);
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
    /// The value: a list the call built, or anything else but a list; `None` when the value
    /// is the list in `items`.
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
            Value::Bool(b) => (1, u64::from(b.get())),
            Value::Int(n) => (2, *n as u64),
            Value::Player(p) => (3, u64::from(p.get())),
            Value::Enum(x) => (4, x.word()),
            Value::Entity(x) => (5, x.word()),
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

/// A remembered call's value, if `fits` says yes to the work it spent and how deep its calls
/// went. (The value goes straight to the caller: handed back with those two beside it, it was
/// stored in two halves and read back whole, which the processor cannot forward, and every hit
/// waited on it.)
#[inline]
pub(super) fn recall_if(key: &Key, fits: impl FnOnce(u64, u32) -> bool) -> Option<Value> {
    TABLE
        .try_with(|t| {
            let t = t.borrow();
            let e = &t.as_ref()?[key.slot];
            let same = e.epoch == key.epoch && e.def == key.def && e.args == key.args;
            if !(same && fits(e.work, e.depth)) {
                return None;
            }
            Some(match &e.value {
                Value::None if key.slot >= SLOTS => {
                    let mut xs = List::new();
                    xs.make_mut().extend_from_slice(&e.items);
                    Value::List(xs)
                }
                v => v.clone(),
            })
        })
        .ok()
        .flatten()
}

/// A remembered call's value, with the work it spent and how deep its calls went.
#[cfg(test)]
fn recall(key: &Key) -> Option<(Value, u64, u32)> {
    let mut spent = (0, 0);
    let v = recall_if(key, |work, depth| {
        spent = (work, depth);
        true
    })?;
    Some((v, spent.0, spent.1))
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
            // The list entries will hold as many lists' buffers out of the per-thread pool:
            // the pool is given as many more now, so that steady-state play still finds one
            // there whenever it builds a list (no allocation per decision).
            let spare: Vec<List> = (0..LIST_SLOTS).map(|_| List::new()).collect();
            drop(spare);
            entries.into_boxed_slice()
        });
        let e = &mut t[key.slot];
        match (key.slot >= SLOTS, value) {
            (true, Value::List(xs)) if !xs.is_shared() => {
                e.items.clear();
                e.value = value.clone();
            }
            (true, Value::List(xs)) => {
                e.value = Value::None;
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

#[cfg(test)]
mod tests {
    use super::{key, recall, remember, Epoch, Written};
    use crate::ir::{DefId, List, Value};

    fn list(xs: &[i64]) -> List {
        xs.iter().map(|&n| Value::Int(n)).collect()
    }

    #[test]
    fn a_remembered_list_stays_as_it_was_given_whatever_its_holders_do() {
        let epoch = Epoch::fresh();
        let args = [Value::player(1)];
        // A list the call built: kept as a handle, so a hit shares it...
        let built = key(epoch, DefId(7), true, &args).expect("a key");
        remember(&built, &Value::List(list(&[1, 2, 3])), 5, 0);
        let Some((Value::List(mut first), 5, 0)) = recall(&built) else {
            panic!("a hit, with the work the call spent")
        };
        assert!(first.is_shared(), "a hit takes a count on the kept list");
        // ...and a write through the hit's handle copies it first.
        first.push(Value::Int(4));
        let Some((Value::List(again), ..)) = recall(&built) else {
            panic!("still a hit")
        };
        assert_eq!(again, list(&[1, 2, 3]));
        // A list something else holds too (a variable's): kept as a copy of its elements, so
        // that the holder's write neither copies it nor changes what was remembered.
        let mut variable = list(&[8, 9]);
        let given = variable.clone();
        let shared = key(epoch, DefId(8), true, &args).expect("a key");
        remember(&shared, &Value::List(given), 1, 0);
        variable.push(Value::Int(10));
        let Some((Value::List(kept), ..)) = recall(&shared) else {
            panic!("a hit")
        };
        assert_eq!(kept, list(&[8, 9]));
        assert!(!kept.is_shared(), "a copy of the elements, the hit's own");
        // Another epoch finds nothing.
        let later = key(Epoch::after(epoch), DefId(7), true, &args).expect("a key");
        assert!(recall(&later).is_none());
    }

    #[test]
    fn an_epoch_after_another_is_later_even_from_a_later_threads_range() {
        let here = Epoch::fresh();
        // An epoch from a range handed out after this thread's, as a state copied from another
        // thread would hold.
        let there = std::thread::spawn(|| {
            let mut e = Epoch::fresh();
            for _ in 0..3 {
                e = Epoch::after(e);
            }
            e
        })
        .join()
        .expect("the thread runs");
        assert!(
            there.0 > here.0,
            "ranges are handed out in increasing order"
        );
        let next = Epoch::after(there);
        assert!(next.0 > there.0);
        let again = Epoch::after(next);
        assert!(again.0 > next.0);
        assert!(!again.same(next) && !next.same(there));
    }

    #[test]
    fn the_last_write_is_the_latest_to_what_is_read() {
        let start = Epoch::fresh();
        let mut w = Written::new(4, start);
        assert!(
            w.last(&[0, 3], start).same(start),
            "nothing written since the start"
        );
        let a = Epoch::after(start);
        w.variable(1, a);
        assert!(
            w.last(&[0, 3], a).same(start),
            "a write to variable 1 outdates no reader of 0 and 3"
        );
        assert!(w.last(&[0, 1], a).same(a));
        let copy = w.clone();
        let b = Epoch::after(a);
        w.variable(3, b);
        assert!(w.last(&[0, 3], b).same(b));
        assert!(
            copy.last(&[0, 3], a).same(start),
            "a copy keeps its own notes"
        );
        let c = Epoch::after(b);
        w.everything(c);
        assert!(
            w.last(&[0], c).same(c),
            "a write to everything outdates every reader"
        );
        assert!(
            w.last(&[9], c).same(c),
            "a variable not counted reads as the whole state"
        );
        let d = Epoch::after(c);
        assert!(w.last(&[9], d).same(d));
        let mut into = Written::new(0, start);
        into.copy_from(&w);
        assert!(into.last(&[3], c).same(c) && into.last(&[1], c).same(c));
    }
}
