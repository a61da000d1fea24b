//! How a game came to be where it is: where it started and every move since, kept so that the
//! game can be played again from its start ([`super::Imagination`] does, with what a seat could
//! not see drawn afresh).
//!
//! Invariant: replaying the trail's moves from its root, with the root's own chance, gives the
//! game back exactly (`tests/imagined_worlds.rs`). A position changed by hand (a scenario's
//! `set` after the game started, a test's `set_value`) cannot be replayed: it becomes the new
//! root, marked as set by hand.

use super::Game;

/// One move of the trail: the seat, and the index of the option it took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The seat that moved, 0-based.
    pub seat: u8,
    /// The option it took, by index among its options then.
    pub index: u32,
}

/// Where a game started and every move since.
#[derive(Debug, Clone)]
pub(crate) struct Trail {
    /// The game before its `setup` ran (or as it was last set by hand), with its chance.
    pub(crate) root: Box<Game>,
    /// Every move taken since, in order: a step of a choice of several is one.
    pub(crate) steps: Vec<Step>,
    /// True if the root's position was set by hand rather than by the rules alone: its hidden
    /// values did not come from chance the rules drew, and an imagined game redeals them.
    pub(crate) edited: bool,
}

impl Game {
    /// A copy of this game to start a trail from: no trail of its own, and nothing kept for
    /// people (a replay renders what it needs).
    pub(super) fn trail_root(&self) -> Box<Game> {
        let mut root = self.clone();
        root.trail = None;
        root.replay = None;
        Box::new(root)
    }

    /// Starts the trail here, if the game keeps one: at its start, or where a position was set
    /// by hand (`edited`).
    pub(super) fn start_trail(&mut self, edited: bool) {
        if !self.mode.trail {
            return;
        }
        self.trail = Some(Box::new(Trail {
            root: self.trail_root(),
            steps: Vec::new(),
            edited,
        }));
    }

    /// Notes a move in the trail.
    #[inline]
    pub(super) fn note_step(&mut self, seat: u8, index: usize) {
        if let Some(t) = self.trail.as_mut() {
            t.steps.push(Step {
                seat,
                index: index as u32,
            });
        }
    }

    /// The position was changed by hand: the trail starts again from here.
    pub(super) fn set_by_hand(&mut self) {
        if self.trail.is_some() {
            self.start_trail(true);
        }
    }

    /// The moves of the trail, if the game keeps one (`Mode::trail`).
    pub fn trail_steps(&self) -> Option<&[Step]> {
        self.trail.as_ref().map(|t| t.steps.as_slice())
    }

    /// How many moves the trail holds (0 without a trail).
    pub(super) fn trail_len(&self) -> usize {
        self.trail.as_ref().map_or(0, |t| t.steps.len())
    }

    /// Forgets the trail's moves past the first `len` (a move undone).
    pub(super) fn truncate_trail(&mut self, len: usize) {
        if let Some(t) = self.trail.as_mut() {
            t.steps.truncate(len);
        }
    }
}
