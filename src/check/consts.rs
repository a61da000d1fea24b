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
