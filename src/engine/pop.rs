//! `pop` and `remove`: elements taken out of a list held in a place, or out of a list inside it
//! (`pop decks[2]`, `remove p.rows[r] at i`).
//!
//! Every check (positions along the path, the count, the position taken) is made before the
//! list is touched, so that a failing statement leaves the state as it was.

use super::eval::{position, scan_work};
use super::exec::{err, work_spent, R};
use super::statements::Slot;
use super::Game;
use crate::diag::Span;
use crate::ir::{Expr, List, Place, Value, MAX_PATH};

/// The positions (from 1) of a path into a place's value, with their spans; the checker holds
/// a path to [`MAX_PATH`] steps.
type Steps = [(i64, Span); MAX_PATH];

impl Game {
    /// What a `pop` takes from the list at `place`, reached through `path`: the element at
    /// position `at`, the last `count` (in order), or the last one.
    pub(super) fn pop(
        &mut self,
        count: Option<&Expr>,
        place: &Place,
        path: &[Expr],
        at: Option<&Expr>,
        span: Span,
    ) -> R<Value> {
        let count = match count {
            Some(c) => Some(self.eval_with(|ev, l| ev.int(c, l))?),
            None => None,
        };
        let at = match at {
            Some(i) => Some((self.eval_with(|ev, l| ev.int(i, l))?, i.span)),
            None => None,
        };
        let mut steps: Steps = [(0, Span::default()); MAX_PATH];
        for (step, e) in steps.iter_mut().zip(path) {
            *step = (self.eval_with(|ev, l| ev.int(e, l))?, e.span);
        }
        let steps = &steps[..path.len()];
        let slot = self.resolve_place(place)?.0;
        // Read first, the positions checked and the work charged; changed only then.
        let (have, passed) = self.reach_len(slot, steps, span)?;
        let at = match at {
            Some((i, at_span)) => Some(position(i, have, at_span)?),
            None => None,
        };
        let wanted = count.unwrap_or(1);
        if at.is_none() && !(0..=have as i64).contains(&wanted) {
            return Err(err(
                "out-of-range",
                format!("cannot take {wanted} off a list of {have}"),
                span,
                "check with `count(xs)` before taking elements off",
            ));
        }
        // The elements after a position taken move up one, as a removal scans the list; each
        // list on the way is written back.
        let work = passed + if at.is_some() { scan_work(have) } else { 0 };
        if work > 0 && !self.state.work.spend(work) {
            return Err(work_spent(self.state.work.budget(), span));
        }
        let xs = reach_mut(self.target(slot), steps, span)?.make_mut();
        Ok(match (at, count) {
            (Some(at), _) => xs.remove(at),
            (None, None) => xs.pop().unwrap_or(Value::None),
            (None, Some(n)) => {
                let rest = xs.split_off(have - n as usize);
                Value::List(rest.into_iter().collect())
            }
        })
    }

    /// The length of the list `steps` reach inside the value at `slot`, and the work of
    /// writing back each list passed on the way; an error for a position outside its list.
    fn reach_len(&mut self, slot: Slot, steps: &[(i64, Span)], span: Span) -> R<(usize, u64)> {
        let mut value: &Value = self.target(slot);
        let mut passed = 0;
        for &(i, at_span) in steps {
            let xs = as_list(value, span)?;
            passed += scan_work(xs.len());
            value = &xs[position(i, xs.len(), at_span)?];
        }
        Ok((as_list(value, span)?.len(), passed))
    }
}

/// The list `steps` reach inside `value`, each list on the way made its own to change; the
/// positions were checked by [`Game::reach_len`].
fn reach_mut<'v>(mut value: &'v mut Value, steps: &[(i64, Span)], span: Span) -> R<&'v mut List> {
    for &(i, at_span) in steps {
        let xs = as_list_mut(value, span)?.make_mut();
        let at = position(i, xs.len(), at_span)?;
        value = &mut xs[at];
    }
    as_list_mut(value, span)
}

/// The list `pop` takes from; anything else is a bug in the checker.
fn as_list(value: &Value, span: Span) -> R<&List> {
    match value {
        Value::List(xs) => Ok(xs),
        _ => Err(not_a_list(span)),
    }
}

/// [`as_list`], to change.
fn as_list_mut(value: &mut Value, span: Span) -> R<&mut List> {
    match value {
        Value::List(xs) => Ok(xs),
        _ => Err(not_a_list(span)),
    }
}

fn not_a_list(span: Span) -> Box<super::RuntimeError> {
    err(
        "type-mismatch",
        "`pop` of a value that is not a list",
        span,
        "this is a bug in the checker",
    )
}
