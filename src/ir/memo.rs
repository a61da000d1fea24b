//! Which `def`s are worth remembering while the state stands still.
//!
//! A def reads only its arguments and the state, so while one evaluation runs (the state cannot
//! change under it) the same call gives the same value. Rules recompute derived quantities
//! freely (a ranking inside a loop over cubes, a task's total for every player), and a def that
//! visits a list is worth looking up rather than running again. A def that visits no list costs
//! less than the lookup, so it is left alone.

use super::{Builtin, DefDef, Expr, ExprKind};

/// The most arguments a remembered call may have.
pub const MAX_REMEMBERED_ARGS: usize = 3;

/// For each def, whether its calls are remembered: it takes at most
/// [`MAX_REMEMBERED_ARGS`] arguments and, itself or through the defs it calls, visits a list.
pub fn remembered(defs: &[DefDef]) -> Vec<bool> {
    let mut visits: Vec<bool> = defs.iter().map(|d| visits_list(&d.body, &[])).collect();
    // A def that calls a list-visiting def visits a list too: spread until nothing changes.
    loop {
        let next: Vec<bool> = defs
            .iter()
            .enumerate()
            .map(|(i, d)| visits[i] || visits_list(&d.body, &visits))
            .collect();
        if next == visits {
            break;
        }
        visits = next;
    }
    defs.iter()
        .zip(visits)
        .map(|(d, v)| v && d.arity <= MAX_REMEMBERED_ARGS)
        .collect()
}

/// True if `e` loops over a list, builds one from another, or calls a def known to (`calls`,
/// by def index; empty on the first pass).
fn visits_list(e: &Expr, calls: &[bool]) -> bool {
    let inside = |e: &Expr| e.any_child(|x| visits_list(x, calls));
    match &e.kind {
        ExprKind::Query { .. } => true,
        // The count of a whole list is its length: a visit only if making the list is one.
        ExprKind::Builtin(Builtin::Count, args)
            if args.len() == 1 && !matches!(args[0].kind, ExprKind::Query { .. }) =>
        {
            inside(e)
        }
        ExprKind::Builtin(b, _) => lists_builtin(*b) || inside(e),
        ExprKind::Call(id, _) => calls.get(id.index()).copied().unwrap_or(false) || inside(e),
        _ => inside(e),
    }
}

/// Builtins that walk a whole list.
fn lists_builtin(b: Builtin) -> bool {
    matches!(
        b,
        Builtin::Count
            | Builtin::Sum
            | Builtin::Min
            | Builtin::Max
            | Builtin::Sort
            | Builtin::Distinct
            | Builtin::Duplicates
            | Builtin::Subsets
            | Builtin::Reverse
            | Builtin::Position
    )
}

#[cfg(test)]
mod tests {
    use crate::load::check_source;

    fn remembered(src: &str) -> Vec<(String, bool)> {
        let program = check_source("memo.rules", src).program.expect("checks");
        program
            .defs
            .iter()
            .map(|d| (d.name.clone(), d.remembered))
            .collect()
    }

    #[test]
    fn defs_that_visit_lists_are_remembered_directly_or_through_calls() {
        let found = remembered(
            r#"
game "Memo" { players 2 }
player var hand: list of int = []
def small(n: int): int = n + 1
def held(p: player): int = count(x in p.hand where x > 0)
def size(p: player): int = count(p.hand)
def best(): int = max(held(p) for p in players)
def via(p: player): int = held(p) * 2
def many(a: int, b: int, c: int, d: int): int = count([a, b, c, d])
flow { }
"#,
        );
        let expected = [
            ("small", false),
            ("held", true),
            ("size", false),
            ("best", true),
            ("via", true),
            ("many", false),
        ];
        assert_eq!(found.len(), expected.len());
        for ((name, got), (want_name, want)) in found.iter().zip(expected) {
            assert_eq!((name.as_str(), *got), (want_name, want));
        }
    }
}
