//! `shown when`: whether views draw a variable, a field or a `show` at all.
//!
//! It is layout, not visibility: the rules, bots, saves and JSON read the value as ever. But a
//! line drawn or left out is seen by every viewer, so the condition must itself read only what
//! every viewer sees; it is proved public here with the same analysis as a `show` of the game
//! (`shows::seen_by`, no seat the owner), and refused otherwise (`shown-reads-secret`). It has
//! no `viewer`: every viewer draws the same entries.

use super::scope::Scope;
use super::{ast, Checker};
use crate::diag::{Diagnostic, Span};
use crate::ir::{self, SeenBy, Type};
use std::collections::BTreeSet;

impl Checker<'_> {
    /// A `shown when` condition, checked and lowered: `subject` names the owner (`owner`) or
    /// the instance (`it`) in slot 0, or nothing for a game variable or a game's `show`.
    pub(super) fn shown_condition(
        &mut self,
        cond: &ast::Expr,
        (subject, subject_ty): (&str, Type),
    ) -> ir::EndFn {
        let mut scope = Scope::new(false);
        // Without a subject slot 0 stays unnamed, so that the engine fills it the same way.
        scope.shadow(
            if subject.is_empty() { " " } else { subject },
            subject_ty,
            cond.span,
        );
        let (body, ty) = self.expr(cond, &mut scope);
        self.expect_type(&Type::Bool, &ty, cond.span, "the `shown when` condition");
        ir::EndFn {
            locals: scope.max_slots().max(1),
            body,
        }
    }
}

/// Refuses a `shown when` condition that reads what not every viewer may see
/// (`shown-reads-secret`); run once every def's body is known.
pub(super) fn run(c: &mut Checker) {
    let program = &c.program;
    let vars = program
        .globals
        .iter()
        .chain(&program.player_vars)
        .chain(program.kinds.iter().flat_map(|k| &k.fields))
        .filter_map(|v| Some((v.name.as_str(), v.shown_when.as_deref()?)));
    let shows = program
        .shows
        .iter()
        .filter_map(|s| Some((s.name.as_str(), s.shown_when.as_ref()?)));
    let mut found: Vec<(Span, String, String)> = Vec::new();
    for (name, cond) in vars.chain(shows) {
        match super::shows::seen_by(program, &cond.body, None, &mut BTreeSet::new()) {
            Ok(SeenBy::Everyone) => {}
            Ok(SeenBy::Owner) => found.push((cond.body.span, name.into(), "a secret".into())),
            Err((span, what)) => found.push((span, name.into(), what)),
        }
    }
    for (span, name, what) in found {
        c.error(
            Diagnostic::error(
                "shown-reads-secret",
                format!("whether views draw `{name}` reads {what}, which not every viewer may see"),
                span,
            )
            .with_label("a line drawn or left out would tell this")
            .with_help(
                "decide with public things only: public variables and fields, `internal` \
                 bookkeeping, and how many a list holds",
            ),
        );
    }
}
