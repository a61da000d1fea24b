//! Checking how many elements a choice of several takes (`any of`, `at most k of`,
//! `exactly k of`): the count is a whole number, never negative, and no more than a list known
//! at load holds.

use super::scope::Scope;
use super::{consts, Checker};
use crate::diag::Diagnostic;
use crate::ir::{self, Type};
use crate::syntax::ast::{self, BinOp, CountKind, ExprKind};

impl Checker<'_> {
    /// Checks and lowers the count of a choice from `options`.
    pub(crate) fn choose_count(
        &mut self,
        count: &ast::ChooseCount,
        options: &ast::Expr,
        scope: &mut Scope,
    ) -> ir::ChooseCount {
        let (k, exactly) = match &count.kind {
            CountKind::Any => return ir::ChooseCount::Any,
            CountKind::AtMost(k) => (k, false),
            CountKind::Exactly(k) => (k, true),
            CountKind::Between(range) => return self.count_between(range, options, scope),
        };
        let (x, t) = self.expr(k, scope);
        self.expect_type(&Type::Int, &t, k.span, "how many are chosen");
        if let Some(n) = consts::int(k) {
            if n < 0 {
                self.error(
                    Diagnostic::error(
                        "choose-count-negative",
                        format!("a choice cannot take {n} elements"),
                        k.span,
                    )
                    .with_label("fewer than none")
                    .with_help("write a count of 0 or more"),
                );
            } else if let Some(size) = known_size(options).filter(|s| exactly && n > *s) {
                self.error(
                    Diagnostic::error(
                        "choose-count-too-large",
                        format!("exactly {n} cannot be chosen from a list of {size}"),
                        k.span,
                    )
                    .with_label(format!("the list has only {size} elements"))
                    .with_help("choose at most as many as the list holds, or write `at most`"),
                );
            }
        }
        if exactly {
            ir::ChooseCount::Exactly(x)
        } else {
            ir::ChooseCount::AtMost(x)
        }
    }
}

impl Checker<'_> {
    /// `lo..hi of`: both ends whole numbers, the first 0 or more and no more than the second,
    /// and no more than a list known at load holds.
    fn count_between(
        &mut self,
        range: &ast::Expr,
        options: &ast::Expr,
        scope: &mut Scope,
    ) -> ir::ChooseCount {
        let Some((lo, hi)) = range_ends(range) else {
            self.error(
                Diagnostic::error(
                    "type-mismatch",
                    "how many a choice takes is a range here, `lo..hi of`",
                    range.span,
                )
                .with_label("not a range")
                .with_help("write `exactly k of`, `at most k of`, or a range such as `1..2 of`"),
            );
            let (x, _) = self.expr(range, scope);
            return ir::ChooseCount::Exactly(x);
        };
        let (l, lt) = self.expr(lo, scope);
        self.expect_type(&Type::Int, &lt, lo.span, "the fewest chosen");
        let (h, ht) = self.expr(hi, scope);
        self.expect_type(&Type::Int, &ht, hi.span, "the most chosen");
        match (consts::int(lo), consts::int(hi)) {
            (Some(n), _) if n < 0 => self.error(
                Diagnostic::error(
                    "choose-count-negative",
                    format!("a choice cannot take {n} elements"),
                    lo.span,
                )
                .with_label("fewer than none")
                .with_help("write a count of 0 or more"),
            ),
            (Some(a), Some(b)) if a > b => self.error(
                Diagnostic::error(
                    "choose-count-negative",
                    format!("a choice cannot take from {a} to {b} elements"),
                    range.span,
                )
                .with_label("the fewest is more than the most")
                .with_help(format!("write the fewest first: `{b}..{a} of`")),
            ),
            (Some(n), _) => {
                if let Some(size) = known_size(options).filter(|s| n > *s) {
                    self.error(
                        Diagnostic::error(
                            "choose-count-too-large",
                            format!("at least {n} cannot be chosen from a list of {size}"),
                            lo.span,
                        )
                        .with_label(format!("the list has only {size} elements"))
                        .with_help("choose at least as many as the list holds, or fewer"),
                    );
                }
            }
            _ => {}
        }
        ir::ChooseCount::Between(l, h)
    }
}

/// The two ends of `lo..hi`.
pub(super) fn range_ends(e: &ast::Expr) -> Option<(&ast::Expr, &ast::Expr)> {
    match &e.kind {
        ExprKind::Binary {
            op: BinOp::Range,
            lhs,
            rhs,
        } => Some((lhs, rhs)),
        _ => None,
    }
}

/// The length of a list written out in the rules (`[a, b, c]`, `1..6`), if known at load.
fn known_size(options: &ast::Expr) -> Option<i64> {
    match &options.kind {
        ExprKind::List(items) => Some(items.len() as i64),
        ExprKind::Binary {
            op: BinOp::Range, ..
        } => consts::range(options).map(|(lo, hi)| (hi - lo + 1).max(0)),
        _ => None,
    }
}
