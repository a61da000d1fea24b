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
/// Room of a new buffer: most lists in play (a hand, the seats, a few dice) fit without growing,
/// so a buffer handed from one list to the next rarely has to grow in the middle of play.
const FRESH_CAPACITY: usize = 16;
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

    /// The elements of a list known to be unshared (fresh from [`List::new`]).
    fn vec_mut(&mut self) -> &mut Vec<Value> {
        Arc::make_mut(self.arc_mut())
    }
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
        let Some(values) = Arc::get_mut(&mut arc) else {
            return;
        };
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
        let again: List = std::iter::once(Value::Bool(true)).collect();
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
