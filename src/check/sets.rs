//! Action parameters that are a set of distinct values (`cs: exactly 3 of gem`): the element
//! type has a fixed, finite set of values, the count is a constant, and the combinations are
//! few enough to list as moves.

use super::{consts, Checker};
use crate::diag::Diagnostic;
use crate::ir::Type;
use crate::ir::MAX_PARAM_VALUES;
use crate::syntax::ast::{self, CountKind};

/// What a set parameter's declaration gives the action: the list type its body reads, the
/// bounds of an integer element, and the fewest and most elements a set holds.
pub(super) struct SetParam {
    /// `list of T`.
    pub ty: Type,
    /// The range of `int in lo..hi` elements.
    pub bounds: Option<(i64, i64)>,
    /// The fewest and the most elements.
    pub sizes: (u32, u32),
}

impl Checker<'_> {
    /// Checks `name: exactly k of T` (or `at most k of`, `any of`) on an action's parameter.
    pub(super) fn set_param(&mut self, p: &ast::Param, count: &ast::ChooseCount) -> SetParam {
        let (elem, bounds) = match &p.ty {
            ast::TypeExpr::Int {
                bounds: Some(b), ..
            } if consts::range(b).is_none() => {
                self.error(
                    Diagnostic::error(
                        "set-parameter",
                        format!("the elements of `{}` must have fixed values", p.name.text),
                        b.span,
                    )
                    .with_label("a range that follows the game")
                    .with_help("write a constant range, as in `exactly 2 of int in 1..6`"),
                );
                (Type::Error, None)
            }
            _ => self.resolve_type(&p.ty),
        };
        let values: Option<i128> = match &elem {
            Type::Bool => Some(2),
            Type::Enum(e) => Some(self.program.enums[e.index()].values.len() as i128),
            Type::Int => bounds.map(|(lo, hi)| (i128::from(hi) - i128::from(lo) + 1).max(0)),
            Type::Player => Some(i128::from(self.players.1)),
            // A kind's count may follow the player count: the engine checks it when a game
            // starts.
            Type::Entity(_) | Type::Error => None,
            _ => {
                self.error(
                    Diagnostic::error(
                        "set-parameter",
                        format!(
                            "the elements of `{}` have no finite set of values",
                            p.name.text
                        ),
                        p.ty.span(),
                    )
                    .with_label("players could not list every set of these")
                    .with_help("use player, bool, an enum, a kind, or `int in lo..hi`"),
                );
                None
            }
        };
        let sizes = self.set_sizes(count, values);
        if let Some(n) = values {
            if sizes.0 as i128 > n {
                self.error(
                    Diagnostic::error(
                        "choose-count-too-large",
                        format!(
                            "`{}` cannot hold {} distinct values of {n}",
                            p.name.text, sizes.0
                        ),
                        count.span,
                    )
                    .with_label(format!("there are only {n} values"))
                    .with_help("ask for at most as many as there are, or write `at most`"),
                );
            } else {
                let sets = combinations(n, sizes.0 as i128, (sizes.1 as i128).min(n));
                if sets > i128::from(MAX_PARAM_VALUES) {
                    self.error(
                        Diagnostic::error(
                            "infinite-domain",
                            format!(
                                "parameter `{}` has {sets} sets of values, more than players could list",
                                p.name.text
                            ),
                            count.span.to(p.ty.span()),
                        )
                        .with_label(format!("at most {MAX_PARAM_VALUES} sets"))
                        .with_help(
                            "take fewer elements, or choose inside the action with `choose exactly k of`",
                        ),
                    );
                }
            }
        }
        let clamp = |x: i64| x.clamp(0, i64::from(u32::MAX)) as u32;
        SetParam {
            ty: Type::List(Box::new(elem)),
            bounds,
            sizes: (clamp(sizes.0), clamp(sizes.1)),
        }
    }

    /// The fewest and most elements a set parameter of `lo..hi of` holds: constants, the
    /// fewest 0 or more and no more than the most.
    fn set_between(&mut self, range: &ast::Expr) -> (i64, i64) {
        let ends = super::several::range_ends(range)
            .and_then(|(lo, hi)| Some((consts::int(lo)?, consts::int(hi)?)));
        match ends {
            Some((lo, hi)) if 0 <= lo && lo <= hi => (lo, hi),
            Some((lo, hi)) => {
                self.error(
                    Diagnostic::error(
                        "choose-count-negative",
                        format!("a set cannot hold from {lo} to {hi} elements"),
                        range.span,
                    )
                    .with_label("fewer than none, or the fewest more than the most")
                    .with_help("write two counts of 0 or more, the fewest first: `1..2 of`"),
                );
                (0, 0)
            }
            None => {
                self.error(
                    Diagnostic::error(
                        "not-constant",
                        "how many elements a set parameter holds must be a range of constants",
                        range.span,
                    )
                    .with_label("not a range of constant numbers")
                    .with_help("write two numbers, as in `1..2 of gem`"),
                );
                (0, 0)
            }
        }
    }

    /// The fewest and most elements a set parameter of `count` holds (`any of`: up to
    /// `values`, the values there are, if known).
    fn set_sizes(&mut self, count: &ast::ChooseCount, values: Option<i128>) -> (i64, i64) {
        match &count.kind {
            CountKind::Any => (0, values.unwrap_or(i128::from(u32::MAX)) as i64),
            CountKind::Between(range) => self.set_between(range),
            CountKind::AtMost(k) | CountKind::Exactly(k) => {
                let exactly = matches!(count.kind, CountKind::Exactly(_));
                match consts::int(k) {
                    Some(n) if n < 0 => {
                        self.error(
                            Diagnostic::error(
                                "choose-count-negative",
                                format!("a set cannot hold {n} elements"),
                                k.span,
                            )
                            .with_label("fewer than none")
                            .with_help("write a count of 0 or more"),
                        );
                        (0, 0)
                    }
                    Some(n) => (if exactly { n } else { 0 }, n),
                    None => {
                        self.error(
                            Diagnostic::error(
                                "not-constant",
                                "how many elements a set parameter holds must be a constant",
                                k.span,
                            )
                            .with_label("not a constant number")
                            .with_help(
                                "write a number, as in `exactly 3 of gem`, or choose inside the \
                             action with `choose exactly k of`",
                            ),
                        );
                        (0, 0)
                    }
                }
            }
        }
    }
}

/// How many subsets of `n` values hold from `lo` to `hi` elements, capped past any cap that
/// matters.
pub(crate) fn combinations(n: i128, lo: i128, hi: i128) -> i128 {
    const CAP: i128 = 1 << 62;
    let mut total: i128 = 0;
    // C(n, k) built up k by k: exact, since each step's product divides by k.
    let mut c: i128 = 1;
    for k in 0..=hi.max(-1) {
        if k > 0 {
            c = (c * (n - k + 1) / k).min(CAP);
        }
        if k >= lo {
            total = (total + c).min(CAP);
        }
    }
    total
}
