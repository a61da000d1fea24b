//! `show` declarations: values views show, worked out whenever a view is drawn. A view must
//! never tell a viewer what is hidden from them, so who may see a shown value is proved here
//! from what it reads, once, and a value that reads what no viewer may be told is refused.
//!
//! A read is seen by everyone when it is a public or `internal` variable or field (internal
//! bookkeeping records only what everyone saw happen), or how many a list holds (views show
//! that of every list). In a `player show`, the owner's own `secret` variables (`owner.hand`,
//! read through `owner` itself) are seen by the owner: such a value is shown to its owner
//! alone. Anything else (a `hidden` variable, another seat's secret, a secret field, a value
//! shown only `visible when` a condition holds, or a secret read inside a def, where `owner`
//! is not known) is refused with `show-reads-secret`: no condition decided at drawing time is
//! trusted to hide it.

use super::hidden::{children, text_exprs};
use super::scope::Scope;
use super::{ast, Checker};
use crate::diag::{Diagnostic, Span};
use crate::ir::{self, Builtin, Expr, ExprKind, Program, SeenBy, Type, VarDef, Visibility};
use std::collections::BTreeSet;

/// A read no viewer of the value may be told: where, and what it is.
type Refused = (Span, String);

impl Checker<'_> {
    /// Checks a `show` and adds it to the program; who may see it is decided by [`run`], once
    /// every def's body is known.
    pub(super) fn show_decl(&mut self, s: &ast::ShowDecl) {
        self.current = None;
        let mut scope = Scope::new(false);
        if s.per_player {
            scope.shadow("owner", Type::Player, s.name.span);
        }
        let (body, text, ty) = match &s.value {
            ast::ShowValue::Expr(e) => match self.expr(e, &mut scope) {
                // A map shows its entries, `red 2, blue 0`, as its variable does.
                (m, Type::Map(elem, key)) => {
                    let part = self.map_text(m, &elem, key, &mut scope);
                    let none = Expr {
                        kind: ExprKind::Const(ir::Value::None),
                        span: e.span,
                        root: ir::NOT_ROOT,
                    };
                    let ty = Type::Map(elem, key);
                    (none, Some(ir::Text { parts: vec![part] }), Some(ty))
                }
                // A record shows as its fields, or its `shown as` text, as its variable does.
                (x, ty) if ir::RecordDef::within(&ty) => {
                    let none = Expr {
                        kind: ExprKind::Const(ir::Value::None),
                        span: e.span,
                        root: ir::NOT_ROOT,
                    };
                    let part = ir::TextPart::Typed(x, ty.clone());
                    (none, Some(ir::Text { parts: vec![part] }), Some(ty))
                }
                (x, ty) => (x, None, Some(ty)),
            },
            ast::ShowValue::Text(t) => {
                let none = Expr {
                    kind: ExprKind::Const(ir::Value::None),
                    span: t.span,
                    root: ir::NOT_ROOT,
                };
                (none, Some(self.text(t, &mut scope)), None)
            }
        };
        let owner = if s.per_player {
            ("owner", Type::Player)
        } else {
            ("", Type::Error)
        };
        let shown_when = s
            .shown_when
            .as_ref()
            .map(|c| self.shown_condition(c, owner));
        self.program.shows.push(ir::ShowDef {
            name: s.name.text.clone(),
            per_player: s.per_player,
            value: ir::EndFn {
                locals: scope.max_slots(),
                body,
            },
            text,
            ty,
            seen_by: SeenBy::Everyone,
            shown_when,
        });
        let shows = &self.program.shows;
        let taken = shows[..shows.len() - 1]
            .iter()
            .any(|o| o.per_player == s.per_player && o.name == s.name.text)
            || if s.per_player {
                self.program
                    .player_vars
                    .iter()
                    .any(|v| v.name == s.name.text)
            } else {
                self.program.globals.iter().any(|v| v.name == s.name.text)
            };
        if taken {
            let whose = if s.per_player {
                "each seat"
            } else {
                "the game"
            };
            self.error(
                Diagnostic::error(
                    "duplicate-definition",
                    format!("views of {whose} already show a `{}`", s.name.text),
                    s.name.span,
                )
                .with_label("a second line of the same name")
                .with_help("give the shown value a name of its own"),
            );
        }
    }
}

/// Decides who may see each `show`, and refuses one that reads what its viewers may not see.
pub(super) fn run(c: &mut Checker) {
    let found: Vec<Result<SeenBy, Refused>> = c
        .program
        .shows
        .iter()
        .map(|show| {
            let owner = show.per_player.then_some(0);
            let mut read = vec![&show.value.body];
            if let Some(t) = &show.text {
                text_exprs(t, &mut read);
            }
            if show.ty.as_ref().is_some_and(|t| c.program.veiled(t)) {
                // Shown whole, as a text: every field would show.
                let what = "a record with a field that is not public".to_string();
                return Err((show.value.body.span, what));
            }
            let mut seen = BTreeSet::new();
            read.into_iter().try_fold(SeenBy::Everyone, |worst, e| {
                Ok(narrower(worst, seen_by(&c.program, e, owner, &mut seen)?))
            })
        })
        .collect();
    for (i, result) in found.into_iter().enumerate() {
        match result {
            Ok(seen) => c.program.shows[i].seen_by = seen,
            Err((span, what)) => {
                let show = &c.program.shows[i];
                let help = if show.per_player {
                    "a shown value may read public things, counts of lists, and its owner's own \
                     secrets read through `owner` itself, such as `owner.hand` (then only the \
                     owner sees it); leave the rest out"
                } else {
                    "a shown value of the game may read public things and counts of lists; a \
                     `player show` may also read its owner's own secrets through `owner`"
                };
                let message = format!(
                    "`show {}` reads {what}, which not every viewer of it may see",
                    show.name
                );
                c.error(
                    Diagnostic::error("show-reads-secret", message, span)
                        .with_label("views would tell this")
                        .with_help(help),
                );
            }
        }
    }
}

/// Who may see what `e` reads, `owner` being the slot of the seat a `player show` is for;
/// defs are followed once each (`seen`), and inside them no seat is the owner.
pub(super) fn seen_by(
    program: &Program,
    e: &Expr,
    owner: Option<ir::Slot>,
    seen: &mut BTreeSet<u32>,
) -> Result<SeenBy, Refused> {
    let refuse = |def: &VarDef, what: &str| Err((e.span, format!("`{}`, {what}", def.name)));
    let this = match &e.kind {
        // How many a list holds is shown in every view, hidden or not: only what names the list
        // is read.
        ExprKind::Builtin(Builtin::Count, args) if args.len() == 1 => match &args[0].kind {
            ExprKind::Global(_) => return Ok(SeenBy::Everyone),
            ExprKind::PlayerVar(base, _) | ExprKind::Field(base, _, _) => {
                return seen_by(program, base, owner, seen)
            }
            _ => SeenBy::Everyone,
        },
        ExprKind::Global(g) => {
            let def = &program.globals[g.index()];
            match def.visibility {
                Visibility::Public | Visibility::Internal => SeenBy::Everyone,
                _ => return refuse(def, "a game variable hidden from players"),
            }
        }
        ExprKind::PlayerVar(base, v) => {
            let def = &program.player_vars[v.index()];
            let own = owner.is_some_and(|o| matches!(base.kind, ExprKind::Local(s) if s == o));
            match def.visibility {
                Visibility::Public | Visibility::Internal => SeenBy::Everyone,
                Visibility::Secret if own => SeenBy::Owner,
                Visibility::Secret if owner.is_some() => {
                    return refuse(def, "a secret of a seat not known to be the owner")
                }
                Visibility::Secret => return refuse(def, "a seat's secret"),
                Visibility::Hidden => return refuse(def, "a variable hidden from every seat"),
            }
        }
        ExprKind::Field(_, k, f) => {
            let def = &program.kinds[k.index()].fields[f.index()];
            match def.visibility {
                Visibility::Public | Visibility::Internal => SeenBy::Everyone,
                _ => return refuse(def, "a field that is not public"),
            }
        }
        ExprKind::Builtin(Builtin::Index, _) if program.veiled_reads.contains_key(&e.span) => {
            let what = super::hidden::veiled_read(program, e).map_or_else(String::new, |(_, w)| w);
            return Err((e.span, format!("{what}, a field that is not public")));
        }
        ExprKind::Call(d, _) if seen.insert(d.0) => {
            let def = &program.defs[d.index()];
            seen_by(program, &def.body, None, seen)
                .map_err(|(_, what)| (e.span, format!("{what} through `{}`", def.name)))?
        }
        _ => SeenBy::Everyone,
    };
    children(e).into_iter().try_fold(this, |worst, c| {
        Ok(narrower(worst, seen_by(program, c, owner, seen)?))
    })
}

/// The narrower audience of two reads.
fn narrower(a: SeenBy, b: SeenBy) -> SeenBy {
    if a == SeenBy::Owner || b == SeenBy::Owner {
        SeenBy::Owner
    } else {
        SeenBy::Everyone
    }
}
