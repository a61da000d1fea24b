//! Constant evaluation of the few places that must be known at load: player ranges, die faces,
//! bounds and `by players` keys.

use crate::syntax::ast::{BinOp, Expr, ExprKind, UnOp};

/// A constant integer.
pub(crate) fn int(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(n) => Some(*n),
        ExprKind::Unary {
            op: UnOp::Neg,
            operand,
        } => int(operand).map(|n| -n),
        _ => None,
    }
}

/// A constant inclusive range `lo..hi`, or a single number as `n..n`.
pub(crate) fn range(e: &Expr) -> Option<(i64, i64)> {
    match &e.kind {
        ExprKind::Binary {
            op: BinOp::Range,
            lhs,
            rhs,
        } => Some((int(lhs)?, int(rhs)?)),
        _ => int(e).map(|n| (n, n)),
    }
}

/// A constant list of integers: a range or a list literal.
pub(crate) fn int_list(e: &Expr) -> Option<Vec<i64>> {
    match &e.kind {
        ExprKind::List(items) => items.iter().map(int).collect(),
        ExprKind::Binary {
            op: BinOp::Range, ..
        } => {
            let (lo, hi) = range(e)?;
            if hi.checked_sub(lo).is_none_or(|n| n > 10_000) {
                return None;
            }
            Some((lo..=hi).collect())
        }
        _ => None,
    }
}

/// A whole number known once the player count `n` is: a constant, `player_count`, a
/// `by players` table, and `+ - * /` of those (`/` rounding down; `None` on overflow or a
/// division by zero).
pub(crate) fn int_with_players(e: &Expr, n: i64) -> Option<i64> {
    int_with_players_or(e, n, &|_| None)
}

/// [`int_with_players`], with `other` giving the value of any other expression it can (the
/// checker's `count(table)`, a table's number of rows).
pub(crate) fn int_with_players_or(
    e: &Expr,
    n: i64,
    other: &dyn Fn(&Expr) -> Option<i64>,
) -> Option<i64> {
    let at = |e: &Expr| int_with_players_or(e, n, other);
    match &e.kind {
        ExprKind::Int(v) => Some(*v),
        ExprKind::Name(name) if name.text == "player_count" => Some(n),
        ExprKind::Unary {
            op: UnOp::Neg,
            operand,
        } => at(operand)?.checked_neg(),
        ExprKind::Binary { op, lhs, rhs } => {
            let (a, b) = (at(lhs)?, at(rhs)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                BinOp::Div if b != 0 => a.checked_div_euclid(b),
                _ => None,
            }
        }
        ExprKind::ByPlayers(entries) => entries.iter().find_map(|(key, value)| {
            let (lo, hi) = range(key)?;
            (lo <= n && n <= hi).then(|| at(value))?
        }),
        _ => other(e),
    }
}

/// A range `lo..hi` known once the player count `n` is (see [`int_with_players`]).
pub(crate) fn range_with_players(e: &Expr, n: i64) -> Option<(i64, i64)> {
    match &e.kind {
        ExprKind::Binary {
            op: BinOp::Range,
            lhs,
            rhs,
        } => Some((int_with_players(lhs, n)?, int_with_players(rhs, n)?)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::FileId;

    fn bounds_type(src: &str) -> Expr {
        let text = format!("game \"T\" {{ players 2..4 }}\nvar x: int in {src} = 0\n");
        let file = crate::syntax::parse(FileId(0), &text).expect("parses");
        let Some(crate::syntax::ast::Item::Decl {
            decl: crate::syntax::ast::Decl::Var(v),
            ..
        }) = file.items.get(1)
        else {
            panic!("a var");
        };
        match &v.ty {
            crate::syntax::ast::TypeExpr::Int {
                bounds: Some(b), ..
            } => (**b).clone(),
            _ => panic!("bounded"),
        }
    }

    #[test]
    fn ranges_follow_the_player_count() {
        let e = bounds_type("0..player_count * 5");
        assert_eq!(range(&e), None, "not constant");
        assert_eq!(range_with_players(&e, 3), Some((0, 15)));
        let e = bounds_type("1..by players { 2: 10, 3..4: 2 * player_count }");
        assert_eq!(range_with_players(&e, 2), Some((1, 10)));
        assert_eq!(range_with_players(&e, 4), Some((1, 8)));
        let e = bounds_type("0..by players { 2: 10 }");
        assert_eq!(range_with_players(&e, 3), None, "no entry for 3");
        let e = bounds_type("0..coins");
        assert_eq!(
            range_with_players(&e, 3),
            None,
            "a variable is not known at load"
        );
        let e = bounds_type("0..10 / (player_count - 2)");
        assert_eq!(range_with_players(&e, 2), None, "division by zero");
    }
}
