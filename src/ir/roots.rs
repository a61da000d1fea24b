//! Roots: the expressions the engine evaluates from outside any expression (a def's body, a
//! requirement, a statement's condition or value, the score). Each is numbered so that the
//! engine can find the code it compiled for it (`engine::compile`) without a lookup by address.
//!
//! An expression left unnumbered (a text's interpolation, an initial value, a scenario's
//! step) is evaluated by walking its tree, as before: numbering is what opts a root into
//! compiled code, and the two give the same values (`tests/compiled.rs`).

use super::{Expr, Place, Program, StmtKind, NOT_ROOT};

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

/// Clears every root's number: the program is then evaluated by walking its trees alone.
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
            stmt_roots(&mut stmt.kind, f);
        }
    }
}

fn place_root(place: &mut Place, f: &mut dyn FnMut(&mut Expr)) {
    match place {
        Place::PlayerVar(e, _) | Place::Field(e, _, _) => f(e),
        Place::Local(_) | Place::Global(_) => {}
    }
}

fn stmt_roots(kind: &mut StmtKind, f: &mut dyn FnMut(&mut Expr)) {
    match kind {
        StmtKind::Let(_, e)
        | StmtKind::If { cond: e, .. }
        | StmtKind::While { cond: e, .. }
        | StmtKind::Repeat { count: e, .. }
        | StmtKind::Random { from: e, .. }
        | StmtKind::Shuffle { from: e, .. }
        | StmtKind::Turn { player: e, .. }
        | StmtKind::Window { players: e, .. }
        | StmtKind::Match { value: e, .. } => f(e),
        StmtKind::Assign { place, value, .. } => {
            place_root(place, f);
            f(value);
        }
        StmtKind::Pop {
            count, place, at, ..
        } => {
            if let Some(c) = count {
                f(c);
            }
            if let Some(i) = at {
                f(i);
            }
            place_root(place, f);
        }
        StmtKind::Roll { count, .. } => {
            if let Some(c) = count {
                f(c);
            }
        }
        StmtKind::For { source, filter, .. } => {
            f(source);
            if let Some(x) = filter {
                f(x);
            }
        }
        StmtKind::Choose {
            player, options, ..
        } => {
            f(player);
            f(options);
        }
        StmtKind::Secretly {
            players, options, ..
        } => {
            f(players);
            f(options);
        }
        StmtKind::Ask { player, .. }
        | StmtKind::Tell { player, .. }
        | StmtKind::Eliminate { player, .. } => f(player),
        StmtKind::Call { args, .. } => args.iter_mut().for_each(f),
        StmtKind::Finish(_, winners) => {
            if let Some(w) = winners {
                f(w);
            }
        }
        StmtKind::Log(_) | StmtKind::Return | StmtKind::Break | StmtKind::Continue => {}
    }
}
