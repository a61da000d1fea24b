//! Whole-program lints: phases that can never be reached (an error), definitions nothing
//! uses and actions named like a command of the REPL (warnings).

use super::scope::Symbol;
use super::Checker;
use crate::diag::Diagnostic;
use crate::ir::{self, ProcKind};
use std::collections::BTreeSet;

/// The words `meeple play` reads as its own commands (the REPL offers them to tab completion):
/// an action named like one is warned of (`command-name`).
pub const COMMAND_WORDS: &[&str] = &[
    "help", "moves", "state", "log", "undo", "why", "save", "load", "reload", "quit",
];

pub(super) fn run(c: &mut Checker) {
    let reachable = reachable(c);
    // Names and spans only, not the declarations: a copy of every body to read three fields
    // of each would cost as much as the check.
    let procs: Vec<(ProcKind, String, crate::diag::Span)> = c
        .program
        .procs
        .iter()
        .map(|p| (p.kind, p.name.clone(), p.span))
        .collect();
    for (i, (kind, name, span)) in procs.into_iter().enumerate() {
        let p = Named { name, span };
        let sym = Symbol::Proc(ir::ProcId(i as u32));
        match kind {
            ProcKind::Phase if !reachable.contains(&sym) => c.error(
                Diagnostic::error(
                    "unreachable-phase",
                    format!("phase `{}` can never be reached", p.name),
                    p.span,
                )
                .with_label("nothing leads here from the flow")
                .with_help(format!(
                    "run it from the flow or from a phase the flow runs, with `{}()`",
                    p.name
                )),
            ),
            ProcKind::Effect if !c.used.contains(&sym) => unused(c, "effect", &p.name, p.span),
            _ => {}
        }
    }
    needless_last_resorts(c, &reachable);
    offered_actions(c, &reachable);
    unused_declarations(c);
}

/// Warns of the actions no reachable `turn` offers, and of those named like a command of
/// `meeple play`.
fn offered_actions(c: &mut Checker, reachable: &BTreeSet<Symbol>) {
    let actions = named(&c.program.actions, |a| (&a.name, a.span));
    for (i, a) in actions.iter().enumerate() {
        if !reachable.contains(&Symbol::Action(ir::ActionId(i as u32))) {
            c.error(
                Diagnostic::warning(
                    "unused-definition",
                    format!("action `{}` is never offered", a.name),
                    a.span,
                )
                .with_label("no reachable `turn` offers it")
                .with_help(format!(
                    "offer it with `turn p` or `turn p only {}`, or remove it",
                    a.name
                )),
            );
        }
    }
    for a in &actions {
        let name = a.name.to_lowercase();
        if COMMAND_WORDS.contains(&name.as_str()) || name == "exit" {
            let span = c.symbols.get(&a.name).map_or(a.span, |s| s.1);
            c.error(
                Diagnostic::warning(
                    "command-name",
                    format!("action `{}` is named like a command of `meeple play`", a.name),
                    span,
                )
                .with_label(format!("typing `{}` runs the command", a.name))
                .with_help(format!(
                    "players must choose it by its number, `#N`; rename it to let them type it (the commands are {})",
                    COMMAND_WORDS.join(", ")
                )),
            );
        }
    }
}

/// Warns of the defs, variables, dice, enums, tables and kinds nothing uses.
fn unused_declarations(c: &mut Checker) {
    for (i, d) in named(&c.program.defs, |d| (&d.name, d.span))
        .iter()
        .enumerate()
    {
        if !c.used.contains(&Symbol::Def(ir::DefId(i as u32))) {
            unused(c, "def", &d.name, d.span);
        }
    }
    for (i, g) in named(&c.program.globals, |g| (&g.name, g.span))
        .iter()
        .enumerate()
    {
        if !c.used.contains(&Symbol::Global(ir::GlobalId(i as u32))) {
            unused(c, "var", &g.name, g.span);
        }
    }
    for (i, v) in named(&c.program.player_vars, |v| (&v.name, v.span))
        .iter()
        .enumerate()
    {
        if !c
            .used
            .contains(&Symbol::PlayerVar(ir::PlayerVarId(i as u32)))
        {
            unused(c, "player var", &v.name, v.span);
        }
    }
    let dice: Vec<String> = c.program.dice.iter().map(|d| d.name.clone()).collect();
    for (i, name) in dice.iter().enumerate() {
        if !c.used.contains(&Symbol::Die(ir::DieId(i as u32))) {
            let span = c.symbols.get(name).map(|s| s.1).unwrap_or_default();
            unused(c, "die", name, span);
        }
    }
    // One pass over what is used, not one for each enum.
    let used_enums: BTreeSet<ir::EnumId> = c
        .used
        .iter()
        .filter_map(|s| match s {
            Symbol::Enum(x) | Symbol::EnumValue(x, _) => Some(*x),
            _ => None,
        })
        .collect();
    let enums: Vec<String> = c.program.enums.iter().map(|e| e.name.clone()).collect();
    for (i, name) in enums.iter().enumerate() {
        if !used_enums.contains(&ir::EnumId(i as u32)) {
            let span = c.symbols.get(name).map(|s| s.1).unwrap_or_default();
            unused(c, "enum", name, span);
        }
    }
    let tables: Vec<String> = c.program.tables.iter().map(|t| t.name.clone()).collect();
    for (i, name) in tables.iter().enumerate() {
        if !c.used.contains(&Symbol::Table(ir::TableId(i as u32))) {
            let span = c.symbols.get(name).map(|s| s.1).unwrap_or_default();
            unused(c, "table", name, span);
        }
    }
    let kinds: Vec<String> = c.program.kinds.iter().map(|k| k.name.clone()).collect();
    for (i, name) in kinds.iter().enumerate() {
        if !c.used.contains(&Symbol::Kind(ir::KindId(i as u32))) {
            let span = c.symbols.get(name).map(|s| s.1).unwrap_or_default();
            unused(c, "kind", name, span);
        }
    }
}

/// A declaration's name and where it is written.
struct Named {
    name: String,
    span: crate::diag::Span,
}

/// The names and spans of `items`, copied so that the checker may be told of them.
fn named<T>(items: &[T], f: impl Fn(&T) -> (&String, crate::diag::Span)) -> Vec<Named> {
    items
        .iter()
        .map(|t| {
            let (name, span) = f(t);
            Named {
                name: name.clone(),
                span,
            }
        })
        .collect()
}

fn unused(c: &mut Checker, what: &str, name: &str, span: crate::diag::Span) {
    c.warn_lazily("unused-definition", span, || {
        Diagnostic::warning(
            "unused-definition",
            format!("{what} `{name}` is never used"),
            span,
        )
        .with_label("declared but never used")
        .with_help("use it or remove it")
    });
}

/// Everything the flow and setup lead to, through phases, effects, turns and actions.
fn reachable(c: &Checker) -> BTreeSet<Symbol> {
    let mut seen = BTreeSet::new();
    let mut todo: Vec<Symbol> = c
        .program
        .procs
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p.kind, ProcKind::Flow | ProcKind::Setup))
        .map(|(i, _)| Symbol::Proc(ir::ProcId(i as u32)))
        .collect();
    while let Some(s) = todo.pop() {
        if seen.insert(s) {
            if let Some(next) = c.calls.get(&s) {
                todo.extend(next.iter().copied());
            }
        }
    }
    seen
}

/// Warns of an `only when no other` on an action that no turn offers beside an action without
/// it: there is never another move to wait for.
fn needless_last_resorts(c: &mut Checker, reachable: &BTreeSet<Symbol>) {
    let marked = |a: &ir::ActionId, c: &Checker| c.program.actions[a.index()].last_resort;
    if !c.program.actions.iter().any(|a| a.last_resort.is_some()) {
        return;
    }
    let mut beside_another = vec![false; c.program.actions.len()];
    for block in &c.program.blocks {
        for s in &block.stmts {
            let ir::StmtKind::Turn { actions, .. } = &s.kind else {
                continue;
            };
            if actions.iter().any(|a| marked(a, c).is_none()) {
                for a in actions {
                    beside_another[a.index()] = true;
                }
            }
        }
    }
    for (i, a) in c.program.actions.clone().iter().enumerate() {
        let Some(span) = a.last_resort else { continue };
        if beside_another[i] || !reachable.contains(&Symbol::Action(ir::ActionId(i as u32))) {
            continue;
        }
        c.error(
            Diagnostic::warning(
                "needless-no-other",
                format!("`{}` is never offered beside another action", a.name),
                span,
            )
            .with_label("every turn that offers it offers nothing else to wait for")
            .with_help(
                "remove `only when no other`, or offer it with the actions it stands in for",
            ),
        );
    }
}
