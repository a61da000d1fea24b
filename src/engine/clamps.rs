//! The numbers an assignment held to its variable's bounds (`int in lo..hi`), counted per
//! statement: `meeple sim` reports them, so that a number never changes without a word.
//!
//! Counting costs a game nothing until a clamp happens: the counts are allocated when the game
//! starts (only if it notes them, [`super::Mode::coverage`]), and a clamp adds one to a counter
//! found by the statement's number, with no text and no allocation.

/// How many times each statement clamped a number, by statement number
/// (`compile::flat::Flat::statement`): empty (and never written) unless the game notes them. A
/// copy starts empty, so that the games a bot imagines neither copy it nor count as the game
/// played.
#[derive(Debug, Default)]
pub(super) struct Clamps(Vec<u32>);

impl Clamps {
    /// `statements` counters at 0 (none at all if `statements` is 0).
    pub(super) fn new(statements: usize) -> Clamps {
        Clamps(vec![0; statements])
    }

    /// Notes that statement number `statement` clamped a number.
    #[cold]
    pub(super) fn note(&mut self, statement: usize) {
        if let Some(n) = self.0.get_mut(statement) {
            *n = n.saturating_add(1);
        }
    }

    /// How many times statement number `statement` clamped, if clamps are noted.
    pub(super) fn get(&self, statement: usize) -> Option<u32> {
        if self.0.is_empty() {
            return None;
        }
        Some(self.0.get(statement).copied().unwrap_or(0))
    }
}

impl Clamps {
    /// Counts exactly what `source` counted, in this buffer: a game started again from a
    /// [`super::Start`] starts with that start's counters, and nothing of the game before.
    pub(super) fn copy_from(&mut self, source: &Clamps) {
        self.0.clone_from(&source.0);
    }
}

impl Clone for Clamps {
    fn clone(&self) -> Clamps {
        Clamps::default()
    }
}
