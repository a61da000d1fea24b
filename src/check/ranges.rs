//! How far an integer expression can reach, as far as the checker can tell: what proves that an
//! action parameter whose range is written with expressions (`n: int in 1..me.coins`) still has
//! few enough values to list as moves.
//!
//! The answer is sound, not tight: a bounded variable or field reads within its bounds (every
//! write clamps), constants and `player_count` are known, and arithmetic, `if`, `by players`,
//! `min`, `max`, `clamp`, `count`, `seat` and the bodies of defs combine them. Anything else is
//! unknown on the side it could run away on.

use super::Checker;
use crate::diag::Diagnostic;
use crate::ir::{self, BinOp, Builtin, ExprKind as E, UnOp, Value};

/// The least and greatest value an expression may take; `None` where no bound is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reach {
    /// No value is below this.
    pub lo: Option<i64>,
    /// No value is above this.
    pub hi: Option<i64>,
}

const UNKNOWN: Reach = Reach { lo: None, hi: None };

/// Calls of defs followed before giving up (a def that calls itself is unknown, not a loop).
const MAX_DEPTH: usize = 16;

impl Reach {
    fn exactly(n: i64) -> Reach {
        Reach {
            lo: Some(n),
            hi: Some(n),
        }
    }

    fn of(bounds: Option<(i64, i64)>) -> Reach {
        bounds.map_or(UNKNOWN, |(lo, hi)| Reach {
            lo: Some(lo),
            hi: Some(hi),
        })
    }

    /// Either of two reaches: what is known of both.
    fn union(self, o: Reach) -> Reach {
        Reach {
            lo: self.lo.zip(o.lo).map(|(a, b)| a.min(b)),
            hi: self.hi.zip(o.hi).map(|(a, b)| a.max(b)),
        }
    }
}

/// How far `e` can reach, in a game of `players` (fewest, most) players.
pub(crate) fn reach(program: &ir::Program, players: (i64, i64), e: &ir::Expr) -> Reach {
    Reacher { program, players }.reach(e, 0)
}

struct Reacher<'a> {
    program: &'a ir::Program,
    players: (i64, i64),
}

impl Reacher<'_> {
    fn reach(&self, e: &ir::Expr, depth: usize) -> Reach {
        if depth > MAX_DEPTH {
            return UNKNOWN;
        }
        let r = |e: &ir::Expr| self.reach(e, depth + 1);
        match &e.kind {
            E::Const(Value::Int(n)) => Reach::exactly(*n),
            E::PlayerCount => Reach {
                lo: Some(self.players.0),
                hi: Some(self.players.1),
            },
            E::Global(g) => Reach::of(self.program.globals[g.index()].bounds),
            E::PlayerVar(_, v) => Reach::of(self.program.player_vars[v.index()].bounds),
            E::Field(_, k, f) => Reach::of(self.program.kinds[k.index()].fields[f.index()].bounds),
            E::Call(d, _) => r(&self.program.defs[d.index()].body),
            E::If(_, a, b) => r(a).union(r(b)),
            E::ByPlayers(arms) => arms
                .iter()
                .map(|(_, _, v)| r(v))
                .reduce(Reach::union)
                .unwrap_or(UNKNOWN),
            E::Unary(UnOp::Neg, a) => {
                let a = r(a);
                Reach {
                    lo: a.hi.and_then(i64::checked_neg),
                    hi: a.lo.and_then(i64::checked_neg),
                }
            }
            E::Binary(op, a, b) => self.binary(*op, r(a), r(b)),
            E::Builtin(f, args) => self.builtin(*f, args, depth),
            _ => UNKNOWN,
        }
    }

    fn binary(&self, op: BinOp, a: Reach, b: Reach) -> Reach {
        let both = |x: Option<i64>, y: Option<i64>, f: fn(i64, i64) -> Option<i64>| {
            x.zip(y).and_then(|(x, y)| f(x, y))
        };
        match op {
            BinOp::Add => Reach {
                lo: both(a.lo, b.lo, i64::checked_add),
                hi: both(a.hi, b.hi, i64::checked_add),
            },
            BinOp::Sub => Reach {
                lo: both(a.lo, b.hi, i64::checked_sub),
                hi: both(a.hi, b.lo, i64::checked_sub),
            },
            BinOp::Mul => {
                let (Some(al), Some(ah), Some(bl), Some(bh)) = (a.lo, a.hi, b.lo, b.hi) else {
                    return UNKNOWN;
                };
                let corners =
                    [(al, bl), (al, bh), (ah, bl), (ah, bh)].map(|(x, y)| x.checked_mul(y));
                if corners.iter().any(Option::is_none) {
                    return UNKNOWN;
                }
                let corners = corners.map(Option::unwrap_or_default);
                Reach {
                    lo: corners.iter().min().copied(),
                    hi: corners.iter().max().copied(),
                }
            }
            // Division rounds down (Euclid's): by a positive constant it keeps the order.
            BinOp::Div => match (b.lo, b.hi) {
                (Some(k), Some(k2)) if k == k2 && k > 0 => Reach {
                    lo: a.lo.map(|x| x.div_euclid(k)),
                    hi: a.hi.map(|x| x.div_euclid(k)),
                },
                _ => UNKNOWN,
            },
            BinOp::Mod => match (b.lo, b.hi) {
                (Some(k), Some(k2)) if k == k2 && k > 0 => Reach {
                    lo: Some(0),
                    hi: Some(k - 1),
                },
                _ => UNKNOWN,
            },
            _ => UNKNOWN,
        }
    }

    fn builtin(&self, f: Builtin, args: &[ir::Expr], depth: usize) -> Reach {
        let r = |e: &ir::Expr| self.reach(e, depth + 1);
        // `min` and `max` of a list written out: of its elements (and the value for none).
        let items = || -> Option<Vec<Reach>> {
            let ir::Expr {
                kind: E::List(items),
                ..
            } = args.first()?
            else {
                return None;
            };
            (!items.is_empty()).then(|| items.iter().chain(args.get(1)).map(r).collect())
        };
        match f {
            Builtin::Count => Reach {
                lo: Some(0),
                hi: None,
            },
            Builtin::Seat | Builtin::PlayerKey => Reach {
                lo: Some(1),
                hi: Some(self.players.1),
            },
            Builtin::Abs => {
                let a = r(&args[0]);
                Reach {
                    lo: Some(0),
                    hi: a
                        .lo
                        .zip(a.hi)
                        .and_then(|(l, h)| l.checked_abs().map(|l| l.max(h.abs()))),
                }
            }
            Builtin::Clamp if args.len() == 3 => {
                let (lo, hi) = (r(&args[1]), r(&args[2]));
                Reach {
                    lo: lo.lo.zip(hi.lo).map(|(a, b)| a.min(b)),
                    hi: lo.hi.zip(hi.hi).map(|(a, b)| a.max(b)),
                }
            }
            // The least of several is no greater than any of them, and no less than all.
            Builtin::Min => items().map_or(UNKNOWN, |xs| Reach {
                lo: xs
                    .iter()
                    .map(|x| x.lo)
                    .collect::<Option<Vec<_>>>()
                    .and_then(|v| v.into_iter().min()),
                hi: xs.iter().filter_map(|x| x.hi).min(),
            }),
            Builtin::Max => items().map_or(UNKNOWN, |xs| Reach {
                lo: xs.iter().filter_map(|x| x.lo).max(),
                hi: xs
                    .iter()
                    .map(|x| x.hi)
                    .collect::<Option<Vec<_>>>()
                    .and_then(|v| v.into_iter().max()),
            }),
            _ => UNKNOWN,
        }
    }
}

impl Checker<'_> {
    /// Proves, where it can, that every action parameter whose range is written with
    /// expressions has at most `max` values, and keeps the widest range it could reach as the
    /// parameter's bounds (the engine never lists more). A range it cannot bound, or could be
    /// wider than `max`, is left to the engine, which checks its width each time moves are
    /// listed; a range always wider than `max` is refused. Runs once every body is checked, for
    /// the defs' bodies.
    pub(crate) fn bound_param_ranges(&mut self, max: i128) {
        for a in 0..self.program.actions.len() {
            for i in 0..self.program.actions[a].params.len() {
                let param = &self.program.actions[a].params[i];
                let Some(range) = &param.range else { continue };
                let (lo, hi) = (
                    reach(&self.program, self.players, &range.0),
                    reach(&self.program, self.players, &range.1),
                );
                // The fewest values the range could have: more than `max` is always an error.
                if let (Some(l), Some(h)) = (lo.hi, hi.lo) {
                    let fewest = i128::from(h) - i128::from(l) + 1;
                    if fewest > max {
                        let name = param.name.clone();
                        let span = range.0.span.to(range.1.span);
                        self.error(
                            Diagnostic::error(
                                "infinite-domain",
                                format!(
                                    "parameter `{name}` takes at least {fewest} values, from {l} \
                                     to {h}"
                                ),
                                span,
                            )
                            .with_label(format!("at most {max} values"))
                            .with_help(
                                "narrow the range, or choose the value inside the action with \
                                 `choose`",
                            ),
                        );
                        continue;
                    }
                }
                self.program.actions[a].params[i].bounds = match (lo.lo, hi.hi) {
                    (Some(l), Some(h)) if i128::from(h) - i128::from(l) < max => {
                        Some((l, h.max(l)))
                    }
                    // Bounded at run time (`ir::MAX_PARAM_VALUES`).
                    _ => None,
                };
            }
        }
    }
}
