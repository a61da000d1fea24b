//! Chance fixed by hand, for scenarios: the next dice rolled, the next `random` picks and the
//! order the next `shuffle` puts first. Fixed values are used before the seeded stream, which
//! they do not advance, so a scenario that fixes chance stays as deterministic as one that does
//! not.

use super::exec::R;
use super::{show, Game, RuntimeError};
use crate::diag::Span;
use crate::ir::Value;
use std::collections::VecDeque;

/// One result of chance, fixed in advance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixedChance {
    /// The next die rolled shows this face.
    Roll(i64),
    /// The next `random` pick is this value.
    Pick(Value),
    /// The next `shuffle` puts these values first, in this order; the rest follow, shuffled.
    Order(Vec<Value>),
}

/// The results still to be used, each with the step that fixed it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Fixed {
    rolls: VecDeque<(i64, Span)>,
    picks: VecDeque<(Value, Span)>,
    orders: VecDeque<(Vec<Value>, Span)>,
    /// How many were used: chance drawn, as far as `Game::chance_drawn` is concerned.
    pub(crate) used: u64,
}

impl Fixed {
    fn unused(&self) -> Option<Span> {
        let spans = [
            self.rolls.front().map(|r| r.1),
            self.picks.front().map(|p| p.1),
            self.orders.front().map(|o| o.1),
        ];
        spans.into_iter().flatten().min()
    }
}

fn misfit(message: String, span: Span) -> Box<RuntimeError> {
    Box::new(RuntimeError::new(
        "scenario-failed",
        message,
        span,
        "fix chance to a result the rule that draws on it can give",
    ))
}

impl Game {
    /// Fixes the next result of chance of one sort (in a game for people; fixing chance in a
    /// playout is ignored). `span` is where it was fixed, for errors.
    pub fn fix_chance(&mut self, chance: FixedChance, span: Span) {
        if !self.mode.record {
            return;
        }
        let fixed = self.fixed.get_or_insert_with(Default::default);
        match chance {
            FixedChance::Roll(n) => fixed.rolls.push_back((n, span)),
            FixedChance::Pick(v) => fixed.picks.push_back((v, span)),
            FixedChance::Order(vs) => fixed.orders.push_back((vs, span)),
        }
    }

    /// Where chance was fixed that no rule has used yet, if any: the earliest such step.
    pub fn unused_chance(&self) -> Option<Span> {
        self.fixed.as_ref().and_then(|f| f.unused())
    }

    /// The line of a span, for messages.
    fn line_of(&self, span: Span) -> usize {
        if (span.file.0 as usize) < self.program.sources.len() {
            self.program.sources.line_col(span).0
        } else {
            0
        }
    }

    /// The face of die `die` rolled at `at`: a fixed one if any is left, or one from the stream.
    pub(super) fn roll_face(&mut self, die: usize, at: Span) -> R<i64> {
        if let Some((n, span)) = self.fixed.as_mut().and_then(|f| f.rolls.pop_front()) {
            let def = &self.program.dice[die];
            if !def.faces.contains(&n) {
                return Err(misfit(
                    format!(
                        "the roll fixed as {n} meets `{}` (line {}), which has no such face",
                        def.name,
                        self.line_of(at)
                    ),
                    span,
                ));
            }
            let index = def.faces.iter().position(|f| *f == n).unwrap_or(0) as u32;
            self.fixed_used();
            self.note_drawn(|| super::replay::Drawn::Roll {
                die: die as u32,
                index,
            });
            return Ok(n);
        }
        // The program is not cloned for a roll: a clone is an atomic count, at every roll.
        let n = self.program.dice[die].faces.len();
        let i = self.draw_roll(die, n);
        Ok(self.program.dice[die].faces[i])
    }

    /// The index of the item a `random` at `at` picks from `items` (not empty).
    pub(super) fn pick_index(&mut self, items: &[Value], at: Span) -> R<usize> {
        if let Some((v, span)) = self.fixed.as_mut().and_then(|f| f.picks.pop_front()) {
            let Some(i) = items.iter().position(|x| *x == v) else {
                return Err(misfit(
                    format!(
                        "the pick fixed as {} is not among the {} values the `random` of line {} picks from",
                        show(&self.program, &self.state, &v),
                        items.len(),
                        self.line_of(at)
                    ),
                    span,
                ));
            };
            self.fixed_used();
            self.note_drawn(|| super::replay::Drawn::Pick {
                of: items.len() as u32,
                index: i as u32,
            });
            return Ok(i);
        }
        Ok(self.draw_pick(items.len()))
    }

    /// Shuffles `items` for a `shuffle` at `at`: a fixed order first, if any is left.
    pub(super) fn shuffle_items(&mut self, items: &mut Vec<Value>, at: Span) -> R<()> {
        let Some((first, span)) = self.fixed.as_mut().and_then(|f| f.orders.pop_front()) else {
            self.draw_shuffle(items);
            return Ok(());
        };
        // A replay notes what was shuffled, sorted, beside what came out.
        let input = self.replay.is_some().then(|| {
            let mut input = items.clone();
            input.sort();
            input
        });
        let mut rest = std::mem::take(items);
        for v in &first {
            let Some(i) = rest.iter().position(|x| x == v) else {
                return Err(misfit(
                    format!(
                        "the order fixed for the `shuffle` of line {} puts {} first, but it is not in the list shuffled (or is given twice)",
                        self.line_of(at),
                        show(&self.program, &self.state, v),
                    ),
                    span,
                ));
            };
            rest.remove(i);
        }
        self.rng.shuffle(&mut rest);
        *items = first;
        items.extend(rest);
        self.fixed_used();
        if let Some(input) = input {
            let output = items.clone().into();
            self.note_drawn(|| super::replay::Drawn::Shuffle {
                input: input.into(),
                output,
            });
        }
        Ok(())
    }

    /// Notes a draw that chance fixed by hand made, in a replay of this game: an imagined game
    /// draws it afresh like any other.
    fn note_drawn(&mut self, drawn: impl FnOnce() -> super::replay::Drawn) {
        if let Some(r) = self.replay.as_mut() {
            r.chance.drawn.push(drawn());
        }
    }

    fn fixed_used(&mut self) {
        if let Some(f) = self.fixed.as_mut() {
            f.used += 1;
        }
    }
}
