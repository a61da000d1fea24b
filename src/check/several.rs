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
