//! Roots: the expressions the engine evaluates from outside any expression (a def's body, a
//! requirement, a statement's condition or value, the score). Each is numbered so that the
//! engine can find the code it compiled for it (`engine::compile`) without a lookup by address.
//!
//! Every expression the engine evaluates in play is a root or inside one: besides the rules'
//! own (defs, requirements, statements, ends), the roots include kind counts and initial
//! values, texts' interpolations, views' conditions and values, the lists moves' parameters
//! are drawn from and scenario steps. An expression made later (typed at the REPL) is compiled
//! when it is evaluated.

use super::{
    BinOp, Expr, ExprKind, Part, Place, Program, ScenarioStepKind, StmtKind, Text, TextPart,
    VarDef, NOT_ROOT,
};

/// Numbers every root of the program, in a fixed order, and returns how many there are.
/// Numbers already given are given again from zero: a program numbered twice is numbered the
/// same.
pub fn number_roots(program: &mut Program) -> u32 {
    let mut next = 0u32;
    for_each_root(program, &mut |e: &mut Expr| {
        e.root = next;
        next += 1;
    });
    next
}

/// Clears every root's number: each expression is then compiled when evaluated (walked, in a
/// test build with the reference walker: see `engine::reference`).
pub fn clear_roots(program: &mut Program) {
    for_each_root(program, &mut |e: &mut Expr| e.root = NOT_ROOT);
}

/// Calls `f` on every root, in a fixed order. Expressions inside roots are not visited.
pub fn for_each_root(program: &mut Program, f: &mut dyn FnMut(&mut Expr)) {
    for def in &mut program.defs {
        f(&mut def.body);
    }
    for action in &mut program.actions {
        for r in &mut action.requires {
            f(&mut r.cond);
        }
        if let Some(p) = &mut action.prefer {
            f(p);
        }
        for p in &mut action.params {
            if let Some(range) = &mut p.range {
                f(&mut range.0);
                f(&mut range.1);
            }
        }
    }
    for end in program.ends_mut() {
        f(&mut end.body);
    }
    for inv in &mut program.invariants {
        f(&mut inv.check.body);
    }
    for block in &mut program.blocks {
        for stmt in &mut block.stmts {
            stmt.kind.parts_mut(&mut |part| {
                if let Part::Expr(e) = part {
                    f(e);
                }
            });
        }
    }
    // Numbered after the rules' own, so that these never renumber them.
    outer_roots(program, f);
}

/// Calls `f` on every root evaluated outside the rules' statements and defs: kind counts and
/// initial values, views, texts, the lists a move's parameter is drawn from, scenario steps.
fn outer_roots(program: &mut Program, f: &mut dyn FnMut(&mut Expr)) {
    for kind in &mut program.kinds {
        f(&mut kind.count);
        if let Some((label, _)) = &mut kind.label {
            text_roots(label, f);
        }
        if let Some(listed) = &mut kind.listed {
            f(&mut listed.body);
        }
        kind.fields.iter_mut().for_each(|v| var_roots(v, f));
    }
    program.globals.iter_mut().for_each(|v| var_roots(v, f));
    program.player_vars.iter_mut().for_each(|v| var_roots(v, f));
    for action in &mut program.actions {
        for r in &mut action.requires {
            text_roots(&mut r.reason, f);
            // `x in xs`: the list a parameter's values are drawn from (see `engine::moves`).
            if let ExprKind::Binary(BinOp::In, _, list) = &mut r.cond.kind {
                f(list);
            }
        }
    }
    for show in &mut program.shows {
        f(&mut show.value.body);
        if let Some(text) = &mut show.text {
            text_roots(text, f);
        }
        if let Some(when) = &mut show.shown_when {
            f(&mut when.body);
        }
    }
    for block in &mut program.blocks {
        for stmt in &mut block.stmts {
            stmt_texts(&mut stmt.kind, f);
        }
    }
    for scenario in &mut program.scenarios {
        for step in scenario.before_setup.iter_mut().chain(&mut scenario.steps) {
            step_roots(&mut step.kind, f);
        }
    }
    // Last, so that a record's label renumbers nothing else.
    for record in &mut program.records {
        if let Some((label, _)) = &mut record.label {
            text_roots(label, f);
        }
    }
}

/// A variable's initial value and the conditions of its visibility.
fn var_roots(v: &mut VarDef, f: &mut dyn FnMut(&mut Expr)) {
    f(&mut v.init);
    if let Some(when) = &mut v.visible_when {
        f(&mut when.body);
    }
    if let Some(part) = &mut v.visible_part {
        f(&mut part.count.body);
    }
    if let Some(when) = &mut v.shown_when {
        f(&mut when.body);
    }
}

/// Every expression a text renders or tests, in the order they are written.
fn text_roots(text: &mut Text, f: &mut dyn FnMut(&mut Expr)) {
    for part in &mut text.parts {
        // A part's own expressions, then the texts inside it.
        let (exprs, texts): ([Option<&mut Expr>; 2], [Option<&mut Text>; 2]) = match part {
            TextPart::Lit(_) => ([None, None], [None, None]),
            TextPart::Expr(e) | TextPart::Typed(e, _) => ([Some(e), None], [None, None]),
            TextPart::If {
                cond,
                then,
                otherwise,
            } => ([Some(cond), None], [Some(then), Some(otherwise)]),
            TextPart::Each {
                source,
                filter,
                body,
                sep,
                ..
            } => ([Some(source), filter.as_mut()], [Some(body), Some(sep)]),
        };
        exprs.into_iter().flatten().for_each(&mut *f);
        texts.into_iter().flatten().for_each(|t| text_roots(t, f));
    }
}

/// A statement's texts, and how many a choice of several takes.
fn stmt_texts(kind: &mut StmtKind, f: &mut dyn FnMut(&mut Expr)) {
    kind.parts_mut(&mut |part| match part {
        Part::Text(text) => text_roots(text, f),
        Part::Count(k) => f(k),
        Part::Expr(_) | Part::Block(_) => {}
    });
}

/// The expressions of a scenario's step.
fn step_roots(kind: &mut ScenarioStepKind, f: &mut dyn FnMut(&mut Expr)) {
    use ScenarioStepKind as K;
    match kind {
        K::Play { seat, .. } | K::ExpectRefused { seat, .. } => {
            if let Some(s) = seat {
                f(s);
            }
        }
        K::RunUntil(e) | K::Let(_, e) | K::Expect(e) | K::ExpectWinners(e) | K::Shuffles(e) => f(e),
        K::Set(place, e) => {
            place_root(place, f);
            f(e);
        }
        K::Move(step) => {
            f(&mut step.item);
            if let Some((place, _)) = &mut step.from {
                place_root(place, f);
            }
            place_root(&mut step.to.0, f);
            if let Some(at) = &mut step.at {
                f(at);
            }
        }
        K::Rolls(es) | K::Picks(es) => es.iter_mut().for_each(f),
        K::Finish | K::ExpectOver(_) => {}
    }
}

fn place_root(place: &mut Place, f: &mut dyn FnMut(&mut Expr)) {
    match place {
        Place::PlayerVar(e, _) | Place::Field(e, _, _) => f(e),
        Place::Local(_) | Place::Global(_) => {}
    }
}
