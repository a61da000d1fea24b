//! A lint for rules that tell a player what is hidden from them: a `require` whose condition
//! or reason reads a value the mover may not see, or a `choose` whose options are filtered by
//! one. The move list (a move is offered only if its requirements hold), `why MOVE` (the first
//! requirement that fails, and its reason) and the options offered then answer questions about
//! that value, for free.
//!
//! A read is hidden from the mover when it is another seat's `secret` variable, a `hidden`
//! one, a secret global, a secret field of an instance or a `hidden` field of a record: it
//! never shows. One shown only
//! `visible when` a condition holds, or another seat's secret read through a def, may show:
//! such a read is warned of only where it comes before a requirement the mover could check
//! themself, which belongs first (`require c.owner == me` before `require c.value > 3`).

use super::Checker;
use crate::diag::{Diagnostic, Span};
use crate::ir::{
    self, Builtin, Expr, ExprKind, Program, StmtKind, TextPart, Type, VarDef, Visibility,
};
use std::collections::BTreeSet;

/// How hidden a value read is from the player concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Hidden {
    /// It may show, depending on the state (`visible when`, or read through a def).
    Maybe,
    /// It never shows to that player.
    Surely,
}

/// The most hidden read of an expression: how hidden, and what it reads.
type Read = Option<(Hidden, String)>;

pub(super) fn run(c: &mut Checker) {
    let program = &c.program;
    let mut found = Vec::new();
    for action in &program.actions {
        requirements(program, action, &mut found);
        preference(program, action, &mut found);
    }
    for block in &program.blocks {
        for stmt in &block.stmts {
            options(program, stmt, &mut found);
            internal_copy(program, stmt, &mut found);
        }
    }
    for d in found {
        c.error(d);
    }
}

/// Warnings for an action's requirements, the mover being slot 0 (`me`).
fn requirements(program: &Program, action: &ir::ActionDef, found: &mut Vec<Diagnostic>) {
    let own = |e: &Expr| matches!(e.kind, ExprKind::Local(0));
    let reads: Vec<Read> = action
        .requires
        .iter()
        .map(|r| read(program, &r.cond, &own, &mut BTreeSet::new()))
        .collect();
    for (i, r) in action.requires.iter().enumerate() {
        let reason = text_read(program, &r.reason, &own);
        if let Some((_, what)) = reason {
            found.push(warning(
                r.span,
                format!(
                    "the reason of this requirement of `{}` shows {what}, which the mover may not see",
                    action.name
                ),
                "`why` shows this reason to the player who asks",
                "leave the hidden value out of the reason",
            ));
        }
        let checks_after = reads[i + 1..].iter().any(Option::is_none);
        match &reads[i] {
            Some((Hidden::Surely, what)) => found.push(warning(
                r.span,
                format!(
                    "this requirement of `{}` reads {what}, which the mover may not see",
                    action.name
                ),
                "the moves offered, and `why`, tell the mover whether it holds",
                "decide it in the action's body instead, where a failing check tells nobody anything",
            )),
            Some((Hidden::Maybe, what)) if checks_after => found.push(warning(
                r.span,
                format!(
                    "this requirement of `{}` reads {what}, which the mover may not see, before checks the mover can make",
                    action.name
                ),
                "`why` names the first requirement that fails: this one, for a value the mover cannot see",
                "put the requirements that read only what the mover sees first",
            )),
            _ => {}
        }
    }
}

/// A warning for a `prefer` that reads what the mover never sees: the bots' model of that seat
/// would then play on knowledge the seat has not got (no secret reaches a real player: a
/// preference is read only in the games the bots imagine).
fn preference(program: &Program, action: &ir::ActionDef, found: &mut Vec<Diagnostic>) {
    let Some(prefer) = &action.prefer else { return };
    let own = |e: &Expr| matches!(e.kind, ExprKind::Local(0));
    if let Some((Hidden::Surely, what)) = read(program, prefer, &own, &mut BTreeSet::new()) {
        found.push(
            Diagnostic::warning(
                "prefer-reads-secret",
                format!(
                    "the preference of `{}` reads {what}, which the mover never sees",
                    action.name
                ),
                prefer.span,
            )
            .with_label("the bots' imagined players would act on what they cannot know")
            .with_help("prefer moves by what the mover sees: its own secrets and what is public"),
        );
    }
}

/// A warning for an `internal` variable or field given a value that some seat never sees:
/// bookkeeping counts as public (a `show` may read it; a bot's imagined world that falls back
/// to a redeal keeps it), so a copy of a secret there would tell it.
fn internal_copy(program: &Program, stmt: &ir::Stmt, found: &mut Vec<Diagnostic>) {
    let StmtKind::Assign { place, value, .. } = &stmt.kind else {
        return;
    };
    let def = match place {
        ir::Place::Global(g) => &program.globals[g.index()],
        ir::Place::PlayerVar(_, v) => &program.player_vars[v.index()],
        ir::Place::Field(_, k, f) => &program.kinds[k.index()].fields[f.index()],
        ir::Place::Local(_) => return,
    };
    if def.visibility != Visibility::Internal {
        return;
    }
    if let Some((Hidden::Surely, what)) = read(program, value, &|_| false, &mut BTreeSet::new()) {
        found.push(
            Diagnostic::warning(
                "internal-reads-secret",
                format!(
                    "`{}` is the rules' bookkeeping, which counts as public, but it is given {what}, which some seat never sees",
                    def.name
                ),
                stmt.span,
            )
            .with_label("a `show` may show it, and the bots' imagined worlds may keep it")
            .with_help("declare it `hidden` or `secret` as what it copies is, or record only what everyone saw"),
        );
    }
}

/// A warning for a `choose` or `secretly` whose options are filtered by a value hidden from the
/// player who chooses.
fn options(program: &Program, stmt: &ir::Stmt, found: &mut Vec<Diagnostic>) {
    let (chooser, options) = match &stmt.kind {
        StmtKind::Choose {
            player, options, ..
        } => (Some(player), options),
        StmtKind::Secretly {
            player_slot,
            options,
            ..
        } => {
            let slot = *player_slot;
            let own = move |e: &Expr| matches!(e.kind, ExprKind::Local(s) if s == slot);
            return filtered(program, options, &own, found);
        }
        _ => return,
    };
    let own = |e: &Expr| match (&e.kind, chooser.map(|c| &c.kind)) {
        (ExprKind::Local(a), Some(ExprKind::Local(b))) => a == b,
        _ => false,
    };
    filtered(program, options, &own, found);
}

/// Warns if a filter (`where`) in `options` surely reads a value hidden from the chooser.
fn filtered(
    program: &Program,
    options: &Expr,
    own: &dyn Fn(&Expr) -> bool,
    found: &mut Vec<Diagnostic>,
) {
    let mut worst: Read = None;
    visit(options, &mut |e| {
        if let ExprKind::Query {
            filter: Some(f), ..
        } = &e.kind
        {
            worst = worst
                .clone()
                .max(read(program, f, own, &mut BTreeSet::new()));
        }
    });
    if let Some((Hidden::Surely, what)) = worst {
        found.push(warning(
            options.span,
            format!(
                "the options of this choice are filtered by {what}, which the chooser may not see"
            ),
            "the options offered tell the chooser what the filter read",
            "filter by what the chooser sees, or draw the choice at random",
        ));
    }
}

fn warning(span: Span, message: String, label: &str, help: &str) -> Diagnostic {
    Diagnostic::warning("hidden-in-check", message, span)
        .with_label(label)
        .with_help(help)
}

/// The most hidden value `e` reads, for the player `own` names (an expression that is that
/// player); defs are followed once each (`seen`).
fn read(
    program: &Program,
    e: &Expr,
    own: &dyn Fn(&Expr) -> bool,
    seen: &mut BTreeSet<u32>,
) -> Read {
    let this = match &e.kind {
        // How many a hidden list holds is public (views show it): only what names the list is read.
        ExprKind::Builtin(Builtin::Count, args) if args.len() == 1 => match &args[0].kind {
            ExprKind::Global(_) => return None,
            ExprKind::PlayerVar(base, _) | ExprKind::Field(base, _, _) => {
                return read(program, base, own, seen)
            }
            _ => None,
        },
        ExprKind::Global(g) => {
            let def = &program.globals[g.index()];
            // A hidden game variable that is not a list is the rules' bookkeeping, as views
            // take it (a turn number): it may be known another way.
            let bookkeeping = !matches!(def.ty, Type::List(_));
            hidden(def, false)
                .map(|h| if bookkeeping { h.min(Hidden::Maybe) } else { h })
                .map(|h| (h, format!("`{}`", def.name)))
        }
        ExprKind::PlayerVar(base, v) => {
            let def = &program.player_vars[v.index()];
            hidden(def, own(base)).map(|h| (h, format!("`{}`", def.name)))
        }
        ExprKind::Field(_, k, f) => {
            let def = &program.kinds[k.index()].fields[f.index()];
            hidden(def, false).map(|h| (h, format!("`{}`", def.name)))
        }
        ExprKind::Builtin(Builtin::Index, _) => veiled_read(program, e).map(|(veil, what)| {
            let never = veil.visibility == Visibility::Hidden && veil.visible_when.is_none();
            let h = if never { Hidden::Surely } else { Hidden::Maybe };
            (h, what)
        }),
        ExprKind::Call(d, args) if seen.insert(d.0) => {
            // Inside a def, `me` is unknown: another seat's secret there may be the mover's. A
            // parameter given the mover (`buyable(me)`; parameters take the first slots) is
            // the mover there too, and the mover's own secrets are no secret to them.
            let def = &program.defs[d.index()];
            let mover = |e: &Expr| match e.kind {
                ExprKind::Local(k) => args.get(k as usize).is_some_and(own),
                _ => false,
            };
            read(program, &def.body, &mover, seen).map(|(h, what)| {
                (
                    h.min(Hidden::Maybe),
                    format!("{what} (through `{}`)", def.name),
                )
            })
        }
        _ => None,
    };
    children(e)
        .into_iter()
        .fold(this, |worst, c| worst.max(read(program, c, own, seen)))
}

/// The most hidden value a text reads, in its parts and the texts inside them.
fn text_read(program: &Program, t: &ir::Text, own: &dyn Fn(&Expr) -> bool) -> Read {
    let mut exprs = Vec::new();
    text_exprs(t, &mut exprs);
    exprs.into_iter().fold(None, |worst, e| {
        worst.max(read(program, e, own, &mut BTreeSet::new()))
    })
}

/// Every expression a text interpolates, its conditions and lists included.
pub(super) fn text_exprs<'a>(t: &'a ir::Text, out: &mut Vec<&'a Expr>) {
    for part in &t.parts {
        match part {
            TextPart::Lit(_) => {}
            TextPart::Expr(e) | TextPart::Typed(e, _) => out.push(e),
            TextPart::If {
                cond,
                then,
                otherwise,
            } => {
                out.push(cond);
                text_exprs(then, out);
                text_exprs(otherwise, out);
            }
            TextPart::Each {
                source,
                filter,
                body,
                sep,
                ..
            } => {
                out.push(source);
                out.extend(filter);
                text_exprs(body, out);
                text_exprs(sep, out);
            }
        }
    }
}

/// How hidden a variable is from a player (`own`: the variable is that player's own).
fn hidden(def: &VarDef, own: bool) -> Option<Hidden> {
    let never = match def.visibility {
        Visibility::Public | Visibility::Internal => false,
        Visibility::Secret => !own,
        Visibility::Hidden => true,
    };
    match (never, def.visible_when.is_some()) {
        (false, _) => None,
        (true, true) => Some(Hidden::Maybe),
        (true, false) => Some(Hidden::Surely),
    }
}

/// The visibility of the record's field `e` reads, if `e` is such a read (`s.card`), and its
/// name as messages give it.
pub(super) fn veiled_read<'a>(
    program: &'a Program,
    e: &Expr,
) -> Option<(&'a ir::FieldVeil, String)> {
    let (r, i) = *program.veiled_reads.get(&e.span)?;
    let record = program.records.get(r.index())?;
    let veil = record.veils.get(i)?.as_ref()?;
    let name = &record.fields.get(i)?.0;
    Some((veil, format!("the field `{name}` of a `{}`", record.name)))
}

/// Calls `f` on `e` and every expression inside it.
fn visit(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    for c in children(e) {
        visit(c, f);
    }
}

/// The expressions directly inside `e`.
pub(super) fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::PlayerVar(x, _) | ExprKind::Field(x, _, _) | ExprKind::Unary(_, x) => vec![x],
        ExprKind::Call(_, args) | ExprKind::Builtin(_, args) | ExprKind::List(args) => {
            args.iter().collect()
        }
        ExprKind::Binary(_, a, b) => vec![a, b],
        ExprKind::If(c, a, b) => vec![c, a, b],
        ExprKind::Query {
            source,
            filter,
            map,
            keys,
            ..
        } => std::iter::once(&**source)
            .chain(filter.as_deref())
            .chain(map.as_deref())
            .chain(keys)
            .collect(),
        ExprKind::TableCell { row, .. } => vec![row],
        ExprKind::ByPlayers(arms) => arms.iter().map(|(_, _, x)| x).collect(),
        ExprKind::Const(_)
        | ExprKind::Local(_)
        | ExprKind::Global(_)
        | ExprKind::EnumValues(_)
        | ExprKind::Instances(_)
        | ExprKind::Players
        | ExprKind::AllPlayers
        | ExprKind::PlayerCount => Vec::new(),
    }
}
