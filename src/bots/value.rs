//! What a position is worth to each seat, in [0, 1]: the bots' one measure of a game that they
//! imagined, whether it reached its end or was cut short.
//!
//! A finished game pays its winners (1 for a sole win, 1/k for a win shared by k, 0 otherwise).
//! A game cut short is scored by the rules' own `score`, as it stands, by rank: a seat is worth
//! the share of the other seats whose score it beats (a tie beats half), so the leader is worth
//! 1 and the last 0. Rank, not margin, because nothing says what a point is worth in a game;
//! and the whole order, not only the lead, so that a search early in a long game still tells a
//! move that gains from one that loses. A seat out of the game (`eliminate`) is worth 0 there,
//! and beaten by every seat still in.

use crate::engine::Game;
use std::cmp::Ordering;

/// Fills `rewards` (one a seat) with what `game` is worth to each seat, and `scores` with each
/// seat's score (the final ones if the game is over; empty if the rules failed or the score
/// could not be computed). A game whose rules failed is worth nothing to anyone.
pub(super) fn rewards(game: &Game, failed: bool, scores: &mut Vec<i64>, rewards: &mut Vec<f64>) {
    let n = game.players() as usize;
    rewards.clear();
    rewards.resize(n, 0.0);
    scores.clear();
    if failed {
        if game.program().goal.is_some() {
            rewards.fill(f64::NEG_INFINITY);
        }
        return;
    }
    if game.program().goal.is_some() {
        // The scores' buffer holds the goals a moment: nothing allocated.
        match game.goals_now(scores) {
            Ok(_) => {
                for (r, g) in rewards.iter_mut().zip(scores.iter()) {
                    *r = *g as f64;
                }
            }
            Err(_) => rewards.fill(f64::NEG_INFINITY),
        }
        scores.clear();
        match game.outcome() {
            Some(outcome) => scores.extend_from_slice(&outcome.scores),
            None => {
                if game.scores_now(scores).is_err() {
                    scores.clear();
                }
            }
        }
        return;
    }
    if let Some(outcome) = game.outcome() {
        scores.extend_from_slice(&outcome.scores);
        let share = 1.0 / outcome.winners.len().max(1) as f64;
        for &w in &outcome.winners {
            if let Some(r) = rewards.get_mut(w as usize) {
                *r = share;
            }
        }
        return;
    }
    if game.scores_now(scores).is_err() {
        scores.clear();
        return;
    }
    if n < 2 {
        return;
    }
    // A seat out of the game is worth nothing, and every seat still in beats it.
    let out = |q: usize| game.eliminated().iter().any(|(s, _)| usize::from(*s) == q);
    for (p, r) in rewards.iter_mut().enumerate() {
        if out(p) {
            continue;
        }
        let beaten: f64 = scores
            .iter()
            .enumerate()
            .filter(|&(q, _)| q != p)
            .map(|(q, &s)| match scores[p].cmp(&s) {
                _ if out(q) => 1.0,
                Ordering::Greater => 1.0,
                Ordering::Equal => 0.5,
                Ordering::Less => 0.0,
            })
            .sum();
        *r = beaten / (n - 1) as f64;
    }
}

/// `seat`'s score minus the best score of the others (0 when there are no scores or no others):
/// how far ahead, or behind, in the rules' own points.
pub(super) fn margin(scores: &[i64], seat: u8) -> i64 {
    let Some(&own) = scores.get(seat as usize) else {
        return 0;
    };
    let best_other = scores
        .iter()
        .enumerate()
        .filter(|&(q, _)| q != seat as usize)
        .map(|(_, &s)| s)
        .max();
    best_other.map_or(0, |b| own.saturating_sub(b))
}

/// How a search turns rewards into [0, 1]: a win's share is already there; a declared goal is
/// scaled by the least and the most the search has met in this decision, so that the
/// exploration term weighs the same whatever the goal's units.
#[derive(Debug, Clone, Copy)]
pub(super) struct Scale {
    /// The least reward met (a goal), or 0.
    pub(super) low: f64,
    /// The most reward met (a goal), or 1.
    pub(super) high: f64,
    /// True where the rules declare a goal: the bounds move with what is met.
    pub(super) adaptive: bool,
}

impl Default for Scale {
    /// A win's share, already on [0, 1].
    fn default() -> Scale {
        Scale {
            low: 0.0,
            high: 1.0,
            adaptive: false,
        }
    }
}

impl Scale {
    /// The scale for a decision of `game`: fixed at [0, 1] without a goal.
    pub(super) fn of(game: &Game) -> Scale {
        match game.program().goal {
            Some(_) => Scale {
                low: f64::INFINITY,
                high: f64::NEG_INFINITY,
                adaptive: true,
            },
            None => Scale::default(),
        }
    }

    /// Widens the bounds to `rewards`, and gives a failed game's (minus infinity) the least
    /// met: a failure is worth no more than the worst position imagined.
    pub(super) fn meet(&mut self, rewards: &mut [f64]) {
        if !self.adaptive {
            return;
        }
        for &r in rewards.iter().filter(|r| r.is_finite()) {
            self.low = self.low.min(r);
            self.high = self.high.max(r);
        }
        let floor = if self.low.is_finite() { self.low } else { 0.0 };
        for r in rewards.iter_mut().filter(|r| !r.is_finite()) {
            *r = floor;
        }
    }

    /// A mean reward on [0, 1] (0.5 while every reward met is the same).
    pub(super) fn unit(&self, mean: f64) -> f64 {
        if !self.adaptive {
            mean
        } else if self.high > self.low {
            (mean - self.low) / (self.high - self.low)
        } else {
            0.5
        }
    }
}
