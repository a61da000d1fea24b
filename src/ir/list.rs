//! Lists as values: shared on read, copied only when written while shared, and recycled.
//!
//! Reading a list variable, binding it to a local or looping over it clones a handle, not the
//! elements. Writing (`hand += card`) changes the list in place when nothing else holds it.
//! A list whose last handle goes away returns its buffer to a per-thread pool, so steady-state
//! play builds its temporary lists without asking the allocator.

use super::Value;
use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

/// Buffers kept for reuse per thread: enough for the temporaries of any decision.
const POOL_SIZE: usize = 1024;
/// Room of a new buffer: most lists in play (a hand, the seats, a few dice, a choice of a number
/// up to a few dozen) fit without growing, so a buffer handed from one list to the next rarely
/// has to grow in the middle of play. (Which buffer a list gets is whichever was given back
/// last, not one large enough: a list longer than this grows whenever it meets a fresh one.)
const FRESH_CAPACITY: usize = 32;
/// Buffers larger than this are given back to the allocator rather than kept.
const POOL_MAX_CAPACITY: usize = 4096;

thread_local! {
    static POOL: RefCell<Vec<Arc<Vec<Value>>>> = const { RefCell::new(Vec::new()) };
}

/// A list of values (a deck, a hand, a comprehension's result).
///
/// Invariant: the inner option is `Some` except while the list is being dropped.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct List(Option<Arc<Vec<Value>>>);

impl List {
    /// An empty list, from the pool when one is free.
    pub fn new() -> List {
        let recycled = POOL.try_with(|pool| pool.borrow_mut().pop()).ok().flatten();
        List(Some(recycled.unwrap_or_else(|| {
            Arc::new(Vec::with_capacity(FRESH_CAPACITY))
        })))
    }

    /// A list holding these values.
    pub fn from_vec(values: Vec<Value>) -> List {
        List(Some(Arc::new(values)))
    }

    /// The elements, to change: copied first if another handle shares them.
    pub fn make_mut(&mut self) -> &mut Vec<Value> {
        let shared = self.arc_mut();
        // No list ever has a weak handle, so one strong count means no other handle: a plain
        // read, where asking `Arc::get_mut` first would cost a second atomic exchange. (A
        // count that another thread is dropping at this moment only makes a needless copy.)
        if Arc::strong_count(shared) != 1 {
            let mut fresh = List::new();
            fresh.vec_mut().extend_from_slice(shared);
            *self = fresh;
        }
        self.vec_mut()
    }

    /// True if another handle shares the elements (a write through either would copy them).
    pub fn is_shared(&self) -> bool {
        self.0
            .as_ref()
            .is_some_and(|arc| Arc::strong_count(arc) != 1)
    }

    /// The list as a value.
    pub fn into_value(self) -> Value {
        Value::List(self)
    }

    /// Appends one value.
    pub fn push(&mut self, v: Value) {
        self.make_mut().push(v);
    }

    fn arc_mut(&mut self) -> &mut Arc<Vec<Value>> {
        self.0.as_mut().expect("a list being dropped is never used")
    }

    /// The elements of a list known to be unshared (fresh from [`List::new`], or after
    /// [`List::make_mut`] copied a shared one).
    fn vec_mut(&mut self) -> &mut Vec<Value> {
        let arc = self.arc_mut();
        if !alone(arc) {
            return Arc::make_mut(arc);
        }
        // SAFETY: `alone` just said so, and `&mut self` keeps it so.
        unsafe { elements_mut(arc) }
    }
}

/// True if no other handle shares the elements behind `arc`: one plain read of the count,
/// where `Arc::get_mut` and `Arc::make_mut` each take a compare-and-swap (a tenth of a busy
/// list-writing game's time went to them).
fn alone(arc: &Arc<Vec<Value>>) -> bool {
    if Arc::strong_count(arc) != 1 {
        return false;
    }
    // Pairs with the release of the last other handle's drop, on whatever thread it ran, so
    // that everything done through that handle happens before the writes made through this one.
    std::sync::atomic::fence(std::sync::atomic::Ordering::Acquire);
    true
}

/// The elements behind `arc`, to change.
///
/// # Safety
/// [`alone`] must have said true of `arc`, borrowed mutably since. A list's `Arc` never leaves
/// this module and no `Weak` handle is ever made of it, so a strong count of one is this handle
/// alone, and no other thread can make a new handle without holding one: the test
/// `Arc::get_mut` makes, less its guard against weak handles made at the same moment.
unsafe fn elements_mut(arc: &mut Arc<Vec<Value>>) -> &mut Vec<Value> {
    // SAFETY: the caller's promise above.
    unsafe { &mut *Arc::as_ptr(arc).cast_mut() }
}

impl Default for List {
    fn default() -> List {
        List::new()
    }
}

impl Drop for List {
    fn drop(&mut self) {
        let Some(mut arc) = self.0.take() else {
            return;
        };
        // A shared list is only one handle fewer: no atomic exchange to find that out.
        if Arc::strong_count(&arc) != 1 {
            return;
        }
        if !alone(&arc) {
            return;
        }
        // SAFETY: `alone` just said so, and `arc` is ours.
        let values = unsafe { elements_mut(&mut arc) };
        if values.capacity() > POOL_MAX_CAPACITY {
            return;
        }
        // Elements are dropped before the pool is borrowed: they may be lists themselves.
        values.clear();
        let _ = POOL.try_with(|pool| {
            let mut pool = pool.borrow_mut();
            if pool.len() < POOL_SIZE {
                pool.push(arc);
            }
        });
    }
}

impl std::ops::Deref for List {
    type Target = [Value];
    fn deref(&self) -> &[Value] {
        self.0.as_deref().map_or(&[], Vec::as_slice)
    }
}

impl fmt::Debug for List {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl From<Vec<Value>> for List {
    fn from(values: Vec<Value>) -> List {
        List::from_vec(values)
    }
}

impl FromIterator<Value> for List {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> List {
        let mut list = List::new();
        list.vec_mut().extend(iter);
        list
    }
}

impl<'a> IntoIterator for &'a List {
    type Item = &'a Value;
    type IntoIter = std::slice::Iter<'a, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_list_is_copied_on_write_and_the_other_handle_is_unchanged() {
        let a: List = (1..=3).map(Value::Int).collect();
        let mut b = a.clone();
        b.push(Value::Int(4));
        assert_eq!(a.len(), 3);
        assert_eq!(b.len(), 4);
        assert_eq!(&b[..3], &a[..]);
    }

    #[test]
    fn an_unshared_list_is_changed_in_place() {
        let mut a: List = (1..=3).map(Value::Int).collect();
        let before = a.as_ptr();
        a.make_mut().pop();
        assert_eq!(a.as_ptr(), before);
        assert_eq!(a.len(), 2);
    }

    #[test]
    fn a_dropped_list_is_reused_empty() {
        let a: List = (1..=3).map(Value::Int).collect();
        let buffer = a.as_ptr();
        drop(a);
        let b = List::new();
        assert!(b.is_empty());
        let mut b = b;
        b.push(Value::Int(9));
        assert_eq!(b.as_ptr(), buffer, "the buffer came back from the pool");
    }

    #[test]
    fn nested_lists_drop_cleanly() {
        let inner: List = (1..=2).map(Value::Int).collect();
        let outer: List = vec![Value::List(inner.clone()), Value::List(inner)].into();
        drop(outer);
        let again: List = std::iter::once(Value::bool(true)).collect();
        assert_eq!(again.len(), 1);
    }
}
#[cfg(test)]
mod size {
    #[test]
    fn a_value_and_an_evaluation_result_are_two_words() {
        assert_eq!(std::mem::size_of::<super::Value>(), 16);
        assert_eq!(
            std::mem::size_of::<Result<super::Value, Box<crate::engine::RuntimeError>>>(),
            16
        );
    }
}
