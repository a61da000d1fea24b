//! The values behind a condition that does not hold, for people: each part of an `and` or an
//! `or` with its value, both computed sides of a comparison, or the value itself. Used by
//! failing scenario expectations and broken invariants.

use super::eval::Eval;
use super::{show, Game, State};
use crate::ir::{self, BinOp, ExprKind, Program, Value};

impl Game {
    /// The values behind `cond` now, in a frame of `locals`: `` `P1.coins` is 2 ``, or for
    /// `a and b`, `` `a` is no (`x` is 2); `b` is yes ``.
    pub fn explain(&self, cond: &ir::Expr, locals: &mut [Value]) -> String {
        explain(&self.program, &self.state, cond, locals)
    }
}

pub(super) fn explain(
    program: &Program,
    state: &State,
    cond: &ir::Expr,
    locals: &mut [Value],
) -> String {
    match &cond.kind {
        ExprKind::Binary(op @ (BinOp::And | BinOp::Or), _, _) => {
            let mut parts = Vec::new();
            flatten(cond, *op, &mut parts);
            parts
                .into_iter()
                .map(|part| {
                    let whole = describe(program, state, part, locals);
                    match &part.kind {
                        ExprKind::Binary(..) => {
                            let sides = explain(program, state, part, locals);
                            if sides.is_empty() || sides == whole {
                                whole
                            } else {
                                format!("{whole} ({sides})")
                            }
                        }
                        _ => whole,
                    }
                })
                .collect::<Vec<_>>()
                .join("; ")
        }
        // Constants speak for themselves; describe only the sides that were computed.
        ExprKind::Binary(_, a, b) => {
            let sides: Vec<String> = [a, b]
                .into_iter()
                .filter(|e| !matches!(e.kind, ExprKind::Const(_)))
                .map(|e| describe(program, state, e, locals))
                .collect();
            sides.join(", ")
        }
        _ => describe(program, state, cond, locals),
    }
}

/// The operands of a chain of one operator: `a and b and c` gives `a`, `b`, `c`.
fn flatten<'e>(e: &'e ir::Expr, op: BinOp, out: &mut Vec<&'e ir::Expr>) {
    match &e.kind {
        ExprKind::Binary(o, a, b) if *o == op => {
            flatten(a, op, out);
            flatten(b, op, out);
        }
        _ => out.push(e),
    }
}

/// An expression as written, with its value now.
fn describe(program: &Program, state: &State, e: &ir::Expr, locals: &mut [Value]) -> String {
    let src = if (e.span.file.0 as usize) < program.sources.len() {
        program.sources.snippet(e.span).to_string()
    } else {
        "?".to_string()
    };
    match Eval::new(program, state).expr(e, locals) {
        Ok(v) => format!("`{src}` is {}", show(program, state, &v)),
        Err(err) => format!("`{src}` fails: {}", err.message),
    }
}
