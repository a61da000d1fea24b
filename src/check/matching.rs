//! Checking and lowering of `match`: the arms of an enum's values, each value once, every value
//! taken.

use super::scope::{Scope, Symbol};
use super::Checker;
use crate::diag::Diagnostic;
use crate::ir::{self, StmtKind as S, Type};
use crate::syntax::ast::{self, MatchValue};

impl Checker<'_> {
    /// `match value { arms }` as a statement.
    pub(super) fn match_stmt(
        &mut self,
        value: &ast::Expr,
        arms: &[ast::MatchArm],
        scope: &mut Scope,
    ) -> S {
        let (v, ty) = self.expr(value, scope);
        let e = match ty {
            Type::Enum(e) => Some(e),
            Type::Error => None,
            other => {
                self.error(
                    Diagnostic::error(
                        "type-mismatch",
                        format!(
                            "`match` takes an enum value, not {}",
                            self.type_name(&other)
                        ),
                        value.span,
                    )
                    .with_label(format!("this is {}", self.type_name(&other)))
                    .with_help("match a value of an enum; for numbers and other values, use `if`"),
                );
                None
            }
        };
        let size = e.map_or(0, |e| self.program.enums[e.index()].values.len());
        let mut table: Vec<Option<ir::BlockId>> = vec![None; size];
        // Where each value was first listed, for duplicates.
        let mut first: Vec<Option<crate::diag::Span>> = vec![None; size];
        let (mut none, mut none_at, mut otherwise) = (None, None, None);
        for arm in arms {
            let body = self.block(&arm.body, scope, true);
            if arm.values.is_empty() {
                if otherwise.is_some() {
                    self.duplicate_arm("else", arm.span, None);
                }
                otherwise = Some(body);
                continue;
            }
            for mv in &arm.values {
                match mv {
                    MatchValue::None(at) => match none_at {
                        Some(f) => self.duplicate_arm("none", *at, Some(f)),
                        None => (none, none_at) = (Some(body), Some(*at)),
                    },
                    MatchValue::Name(n) => {
                        let Some(e) = e else { continue };
                        let Some(i) = self.arm_value(e, n) else {
                            continue;
                        };
                        match first[i] {
                            Some(f) => self.duplicate_arm(&n.text, n.span, Some(f)),
                            None => (table[i], first[i]) = (Some(body), Some(n.span)),
                        }
                    }
                }
            }
        }
        if let Some(e) = e {
            let taken: Vec<bool> = table.iter().map(Option::is_some).collect();
            self.every_value_once(e, &taken, arms, value.span, otherwise.is_some());
        }
        S::Match {
            value: v,
            arms: table,
            none,
            otherwise,
        }
    }

    /// Reports a `match` of enum `e` (at `at_value`) that leaves values without an arm and has
    /// no `else`, or has an `else` that never runs; `taken` says which values have an arm.
    fn every_value_once(
        &mut self,
        e: ir::EnumId,
        taken: &[bool],
        arms: &[ast::MatchArm],
        at_value: crate::diag::Span,
        has_else: bool,
    ) {
        let size = taken.len();
        let def = &self.program.enums[e.index()];
        let missing: Vec<String> = (0..size)
            .filter(|&i| !taken[i])
            .map(|i| format!("`{}`", def.values[i]))
            .collect();
        let name = def.name.clone();
        let else_span = arms.iter().find(|a| a.values.is_empty()).map(|a| a.span);
        if !has_else && !missing.is_empty() {
            self.error(
                Diagnostic::error(
                    "non-exhaustive-match",
                    format!(
                        "this `match` of a {name} has no arm for {}",
                        missing.join(", ")
                    ),
                    at_value,
                )
                .with_label(format!("{} of {size} values not taken", missing.len()))
                .with_help(format!(
                    "add an arm for {}, or an `else {{ }}` arm for the rest",
                    missing.join(", ")
                )),
            );
        } else if let (Some(at), true) = (else_span, missing.is_empty()) {
            self.error(
                Diagnostic::warning(
                    "unreachable-arm",
                    format!("every {name} already has an arm: `else` never runs"),
                    at,
                )
                .with_label("never runs")
                .with_help("remove the `else` arm (a value added to the enum later would then be reported)")
                .with_fix(at, ""),
            );
        }
    }

    /// The index of the value `n` of enum `e`, or an error saying what `n` is instead.
    fn arm_value(&mut self, e: ir::EnumId, n: &ast::Name) -> Option<usize> {
        let found = self.symbols.get(&n.text).map(|s| s.0);
        if let Some(Symbol::EnumValue(x, i)) = found {
            self.use_symbol(Symbol::EnumValue(x, i));
            self.note_symbol_use(n);
            if x == e {
                return Some(i as usize);
            }
        }
        let def = &self.program.enums[e.index()];
        let name = def.name.clone();
        let mut d = Diagnostic::error(
            if found.is_some() {
                "type-mismatch"
            } else {
                "unknown-name"
            },
            format!("`{}` is not a value of {name}", n.text),
            n.span,
        )
        .with_label(format!("not a {name}"));
        d = match super::scope::suggest(&n.text, def.values.iter().map(String::as_str)) {
            Some(x) => d.with_suggestion(&x),
            None => d.with_help(format!(
                "the values of {name} are {}",
                def.values.join(", ")
            )),
        };
        self.error(d);
        None
    }

    fn duplicate_arm(
        &mut self,
        what: &str,
        at: crate::diag::Span,
        first: Option<crate::diag::Span>,
    ) {
        let mut d = Diagnostic::error("duplicate-arm", format!("`{what}` has an arm already"), at)
            .with_label("taken again here")
            .with_help("a value belongs to one arm: remove it here or there");
        if let Some(f) = first {
            d = d.with_secondary(f, "first taken here");
        }
        self.error(d);
    }
}
