//! `visible first k` / `visible last k`: the part of a hidden list everyone may see.
//!
//! The count is worked out each time a view is drawn, so it must itself be something every
//! viewer sees: were it a secret, how many elements show would tell it. It is proved public
//! here, as a `show` of the game is (`shows::seen_by`), and has no `viewer`: every viewer sees
//! the same part. For the rest of the checker (`hidden.rs`, `asked.rs`, `shows.rs`) the list
//! stays as secret as its visibility says, all but its length: what the rules read of it is
//! never proved to lie in the part shown.

use super::scope::Scope;
use super::{ast, Checker};
use crate::diag::{Diagnostic, Span};
use crate::ir::{self, SeenBy, Type, Visibility};
use std::collections::BTreeSet;

/// Where a variable or field with a shown part lies, for [`run`].
#[derive(Clone, Copy)]
enum Holder {
    Global(usize),
    PlayerVar(usize),
    Field(usize, usize),
}

impl Checker<'_> {
    /// A `visible first k` / `visible last k` clause, checked and lowered: `subject` names the
    /// owner (`owner`) or the instance (`it`) in the count, or nothing for a game variable;
    /// `ty` and `vis` are the variable's own.
    pub(super) fn visible_part(
        &mut self,
        part: &ast::VisiblePart,
        (subject, subject_ty): (&str, Type),
        ty: &Type,
        vis: Visibility,
        name: &ast::Name,
    ) -> Option<ir::VisiblePart> {
        let mut scope = Scope::new(false);
        // A game variable has no subject; its slot stays unnamed so that slot numbers agree.
        scope.shadow(
            if subject.is_empty() { " " } else { subject },
            subject_ty,
            part.span,
        );
        let (count, got) = self.expr(&part.count, &mut scope);
        self.expect_type(
            &Type::Int,
            &got,
            part.count.span,
            "how many elements are shown",
        );
        let end = match part.end {
            ast::End::First => "first",
            ast::End::Last => "last",
        };
        if !matches!(ty, Type::List(_) | Type::Error) {
            self.error(
                Diagnostic::error(
                    "visible-part-not-list",
                    format!(
                        "`{}` is not a list: only a list has a part to show",
                        name.text
                    ),
                    part.span,
                )
                .with_label(format!("`visible {end}` needs elements"))
                .with_help(
                    "declare it `list of ...`, or write `visible when` to show the whole value \
                     to some",
                ),
            );
            return None;
        }
        if matches!(vis, Visibility::Public | Visibility::Internal) {
            let why = if vis == Visibility::Public {
                "is public: everyone sees all of it already"
            } else {
                "is internal: no view shows any of it"
            };
            self.error(
                Diagnostic::warning(
                    "visible-part-unneeded",
                    format!("`{}` {why}", name.text),
                    part.span,
                )
                .with_label("shows nothing more")
                .with_help(format!(
                    "drop `visible {end} ...`, or declare the list `secret` or `hidden` so that \
                     only this part shows"
                )),
            );
        }
        Some(ir::VisiblePart {
            end: part.end,
            count: ir::EndFn {
                locals: scope.max_slots().max(1),
                body: count,
            },
        })
    }
}

/// Refuses a count of shown elements that reads what not every viewer may see
/// (`visible-part-reads-secret`); run once every def's body is known.
pub(super) fn run(c: &mut Checker) {
    let program = &c.program;
    let mut holders = Vec::new();
    holders.extend((0..program.globals.len()).map(Holder::Global));
    holders.extend((0..program.player_vars.len()).map(Holder::PlayerVar));
    for (k, kind) in program.kinds.iter().enumerate() {
        holders.extend((0..kind.fields.len()).map(|f| Holder::Field(k, f)));
    }
    let mut found: Vec<(Span, String, String)> = Vec::new();
    for h in holders {
        let def = match h {
            Holder::Global(g) => &program.globals[g],
            Holder::PlayerVar(v) => &program.player_vars[v],
            Holder::Field(k, f) => &program.kinds[k].fields[f],
        };
        let Some(part) = &def.visible_part else {
            continue;
        };
        let read = super::shows::seen_by(program, &part.count.body, None, &mut BTreeSet::new());
        match read {
            Ok(SeenBy::Everyone) => {}
            Ok(SeenBy::Owner) => {
                found.push((part.count.body.span, def.name.clone(), "a secret".into()))
            }
            Err((span, what)) => found.push((span, def.name.clone(), what)),
        }
    }
    for (span, name, what) in found {
        c.error(
            Diagnostic::error(
                "visible-part-reads-secret",
                format!(
                    "how many elements of `{name}` are shown reads {what}, which not every \
                     viewer may see"
                ),
                span,
            )
            .with_label("how many show would tell this")
            .with_help(
                "count with public things only: a public variable or field (such as a public \
                 `player var flipped: int`), or how many a list holds",
            ),
        );
    }
}
