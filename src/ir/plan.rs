//! How a turn lists an action's legal moves without trying every value of its parameters.
//!
//! Two facts found once, when the program is checked:
//! - a requirement is checked as soon as the parameters it reads, and those read by every
//!   requirement before it, have their values: the leading requirements that read no parameter
//!   once a turn, those that read only the first parameter once for each of its values, and so
//!   on, rather than once for every combination;
//! - when the first requirement checked for a parameter is `p in xs`, `p` that parameter and
//!   `xs` reading only the parameters before it, `p` can only take the elements of `xs`, so a
//!   turn tries those alone, in the order of its values; and when `xs` reads no parameter at
//!   all, its elements are the same whatever the values before, so a turn finds them once.
//!   Requirements before the membership that cannot fail (`m != share`: locals and constants
//!   compared, joined by `and`, `or`, `not`) do not stop it: a value outside `xs` is refused
//!   either way, and checking them cannot raise an error that trying every value would raise.
//!
//! Both keep the moves, their order, the requirement that explains a refusal and any error a
//! requirement raises exactly as trying every combination would: requirements are still checked
//! in the order written, each only after every one before it held.

use super::{ActionDef, BinOp, Expr, ExprKind, Slot};

/// What a turn may skip when it lists an action's moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovePlan {
    /// For `d` from 0 to the number of parameters: how many leading requirements a turn checks
    /// once the first `d` parameters have their values (ascending; the last is all of them).
    pub checked: Vec<usize>,
    /// For each parameter `d` (from 0): true if requirement `checked[d]` is `p in xs`, `p`
    /// parameter `d` and `xs` reading only the parameters before it.
    pub narrows: Vec<bool>,
    /// For each parameter `d`: true if it narrows and its list reads no parameter, so that its
    /// elements are found once a turn rather than once for each combination of values before.
    pub steady: Vec<bool>,
    /// For each parameter `d` that narrows: how many requirements that cannot fail come before
    /// its membership among those checked for it (they are checked after it, for each value).
    pub guards: Vec<usize>,
}

impl MovePlan {
    /// The plan of an action, from its parameters and requirements.
    pub fn of(action: &ActionDef) -> MovePlan {
        let n = action.params.len();
        let first = 1 as Slot;
        // How many parameters a requirement needs: one past the last it reads.
        let needs = |e: &Expr| {
            (0..n)
                .rev()
                .find(|&d| reads_locals(e, first + d as Slot, first + d as Slot + 1))
                .map_or(0, |d| d + 1)
        };
        // Requirements keep their order: each waits for what it reads and for every one before.
        let mut checked = vec![0; n + 1];
        let mut stage = 0;
        for (i, r) in action.requires.iter().enumerate() {
            stage = stage.max(needs(&r.cond));
            for c in &mut checked[stage..] {
                *c = i + 1;
            }
        }
        // For each parameter, if it narrows: how many requirements that cannot fail come
        // before the membership, and how many parameters its list reads.
        let narrowing: Vec<Option<(usize, usize)>> = (0..n)
            .map(|d| {
                // A set's values are its combinations, not the elements of a list.
                if action.params[d].set.is_some() {
                    return None;
                }
                let stage = action.requires.get(checked[d]..checked[d + 1])?;
                let guards = stage.iter().take_while(|r| cannot_fail(&r.cond)).count();
                match &stage.get(guards)?.cond.kind {
                    ExprKind::Binary(BinOp::In, x, xs)
                        if matches!(x.kind, ExprKind::Local(s) if s == first + d as Slot) =>
                    {
                        Some((guards, needs(xs))).filter(|&(_, k)| k <= d)
                    }
                    _ => None,
                }
            })
            .collect();
        MovePlan {
            checked,
            narrows: narrowing.iter().map(Option::is_some).collect(),
            steady: narrowing
                .iter()
                .map(|k| matches!(k, Some((_, 0))))
                .collect(),
            guards: narrowing.iter().map(|k| k.map_or(0, |(g, _)| g)).collect(),
        }
    }

    /// The plan that skips nothing: every requirement checked for every combination of the
    /// values of `params` parameters, nothing narrowed (to compare a plan with).
    pub fn every_combination(params: usize, requires: usize) -> MovePlan {
        let mut checked = vec![0; params + 1];
        checked[params] = requires;
        MovePlan {
            checked,
            narrows: vec![false; params],
            steady: vec![false; params],
            guards: vec![0; params],
        }
    }

    /// How many leading requirements read no parameter: checked once a turn.
    pub fn shared(&self) -> usize {
        self.checked.first().copied().unwrap_or(0)
    }
}

/// True if evaluating `e` cannot fail: locals and constants compared for (in)equality, joined
/// by `and`, `or` and `not` (values of any kinds compare without error).
fn cannot_fail(e: &Expr) -> bool {
    let plain = |x: &Expr| matches!(x.kind, ExprKind::Local(_) | ExprKind::Const(_));
    match &e.kind {
        ExprKind::Binary(BinOp::Eq | BinOp::Ne, a, b) => plain(a) && plain(b),
        ExprKind::Binary(BinOp::And | BinOp::Or, a, b) => cannot_fail(a) && cannot_fail(b),
        ExprKind::Unary(super::UnOp::Not, x) => cannot_fail(x),
        _ => false,
    }
}

/// True if `e` reads a local slot in `lo..hi` of its own frame (a `def`'s body runs in a frame
/// of its own, so only the arguments of a call count).
pub fn reads_locals(e: &Expr, lo: Slot, hi: Slot) -> bool {
    match &e.kind {
        ExprKind::Local(s) => (lo..hi).contains(s),
        _ => e.any_child(|x| reads_locals(x, lo, hi)),
    }
}

#[cfg(test)]
mod tests {
    use crate::load::check_source;

    fn plans(src: &str) -> Vec<super::MovePlan> {
        let program = check_source("plan.rules", src).program.expect("checks");
        program.actions.iter().map(|a| a.plan.clone()).collect()
    }

    const GAME: &str = r#"
game "Plans" { players 2 }
kind card[6] { }
player var hand: list of card = []
player var tokens: int = 0
flow { for p in players { turn p } }
action play(c: card) {
  require me.tokens >= 0 else "in debt"
  require c in me.hand else "not held"
  require c != first(me.hand) else "not the first"
}
action give(c: card, to: player) {
  require c in me.hand else "not held"
}
action odd(c: card) {
  require count(me.hand) > 0 else "empty"
  require c in [x in me.hand where x != c] else "never"
}
action rest {
  require me.tokens > 1 else "poor"
}
action swap(c: card, d: card) {
  require c in me.hand else "not held"
  require d in [x in me.hand where x != c] else "not another held card"
  require me.tokens > 0 else "poor"
}
action mixed(c: card, to: player) {
  require to != me else "yourself"
  require c in me.hand else "not held"
}
action guarded(c: card) {
  require c != none and not (c == none) else "no card"
  require c in me.hand else "not held"
}
action risky(c: card) {
  require first(me.hand, c) != c else "first"
  require c in me.hand else "not held"
}
"#;

    #[test]
    fn each_requirement_waits_for_what_it_reads_and_for_those_before_it() {
        let p = plans(GAME);
        assert_eq!(p[0].checked, [1, 3], "play: one shared, two for each card");
        assert_eq!(p[1].checked, [0, 1, 1], "give: nothing waits for `to`");
        assert_eq!(p[2].checked, [1, 2], "odd");
        assert_eq!(p[3].checked, [1], "rest: no parameter");
        assert_eq!(
            p[4].checked,
            [0, 1, 3],
            "swap: a requirement that reads no parameter, written last, waits for both"
        );
        assert_eq!(
            p[5].checked,
            [0, 0, 2],
            "mixed: `c in me.hand` waits for `to`, read by the requirement before it"
        );
        assert_eq!(p[0].shared(), 1);
    }

    #[test]
    fn a_membership_narrows_its_parameter_when_its_list_reads_only_those_before() {
        let p = plans(GAME);
        assert_eq!(p[0].narrows, [true], "play");
        assert_eq!(p[1].narrows, [true, false], "give");
        assert_eq!(
            p[2].narrows,
            [false],
            "odd: a list that reads the parameter does not narrow"
        );
        assert!(p[3].narrows.is_empty(), "rest");
        assert_eq!(
            p[4].narrows,
            [true, true],
            "swap: `d` among the other cards held"
        );
        assert_eq!(
            p[5].narrows,
            [false, false],
            "mixed: the membership is not the first requirement checked for `c`"
        );
    }

    #[test]
    fn requirements_that_cannot_fail_before_a_membership_do_not_stop_it_narrowing() {
        let p = plans(GAME);
        assert_eq!(
            (p[6].narrows.as_slice(), p[6].guards.as_slice()),
            ([true].as_slice(), [1].as_slice()),
            "guarded: `c != none` compares a local with a constant"
        );
        assert_eq!(
            p[7].narrows,
            [false],
            "risky: `first(me.hand, c)` is a call, which could fail"
        );
        assert_eq!(p[0].guards, [0], "play: the membership comes first");
    }

    #[test]
    fn a_narrowing_list_that_reads_no_parameter_is_found_once_a_turn() {
        let p = plans(GAME);
        assert_eq!(p[0].steady, [true], "play: `me.hand`");
        assert_eq!(p[1].steady, [true, false], "give");
        assert_eq!(p[2].steady, [false], "odd: it does not narrow");
        assert_eq!(
            p[4].steady,
            [true, false],
            "swap: `d`'s list reads `c`, so it is found again for each `c`"
        );
    }
}
