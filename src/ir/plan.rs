//! How a turn lists an action's legal moves without trying every value of its parameters.
//!
//! Two facts found once, when the program is checked:
//! - the leading requirements that read no parameter hold or fail for every combination
//!   alike, so a turn checks them once;
//! - an action whose next requirement is `p in xs`, `p` its first parameter and `xs` reading
//!   no parameter, can only give `p` the elements of `xs`, so a turn tries those alone for `p`,
//!   in the order of its values (with every value of the other parameters, as before).
//!
//! Both keep the moves, their order, the requirement that explains a refusal and any error a
//! requirement raises exactly as trying every combination would.

use super::{ActionDef, BinOp, Expr, ExprKind, Slot};

/// What a turn may skip when it lists an action's moves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MovePlan {
    /// How many leading requirements read no parameter.
    pub shared: usize,
    /// True if requirement `shared` is `p in xs`, the action's first parameter in a list that
    /// reads no parameter.
    pub narrow: bool,
}

impl MovePlan {
    /// The plan of an action, from its parameters and requirements.
    pub fn of(action: &ActionDef) -> MovePlan {
        let params = 1..1 + action.params.len() as Slot;
        let reads_params = |e: &Expr| reads_locals(e, params.start, params.end);
        let shared = action
            .requires
            .iter()
            .take_while(|r| !reads_params(&r.cond))
            .count();
        let narrow = !action.params.is_empty()
            && action
                .requires
                .get(shared)
                .is_some_and(|r| match &r.cond.kind {
                    ExprKind::Binary(BinOp::In, x, xs) => {
                        matches!(x.kind, ExprKind::Local(1)) && !reads_params(xs)
                    }
                    _ => false,
                });
        MovePlan { shared, narrow }
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
        program.actions.iter().map(|a| a.plan).collect()
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
"#;

    #[test]
    fn shared_requirements_and_a_membership_narrowing_are_found() {
        let p = plans(GAME);
        assert_eq!((p[0].shared, p[0].narrow), (1, true), "play");
        assert_eq!(
            (p[1].shared, p[1].narrow),
            (0, true),
            "the first of two parameters narrows"
        );
        assert_eq!(
            (p[2].shared, p[2].narrow),
            (1, false),
            "a list that reads the parameter does not narrow"
        );
        assert_eq!((p[3].shared, p[3].narrow), (1, false), "no parameter");
    }
}
