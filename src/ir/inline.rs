//! Small defs written into their callers: a call of a def whose body is a few nodes, binds no
//! name of its own and visits no list, with arguments that are names or constants, becomes the
//! body itself with the arguments in place of the parameters.
//!
//! Why: such defs (`worth(c) = if c.on_board then c.marker else 0`) are asked thousands of
//! times a second in play, and a call costs more than their body (a frame, the depth and work
//! checks). Why it changes nothing else: evaluation is pure, and an argument that is a name or
//! a constant reads the same value wherever and however often it is read and cannot fail, so
//! the body gives the same value or the same error. The inlined body keeps the call's span at
//! its root, so an explanation of a failing condition still quotes `worth(c)`; errors inside
//! it point into the def, as they did. Only the count of work spent differs (a call and its
//! frame are no longer counted), and that count only decides where a runaway rule stops.

use super::{DefDef, Expr, ExprKind, Program, StmtKind};

/// Nodes a def's body may have to be written into its callers.
const MAX_NODES: usize = 12;

/// Writes small defs into their callers throughout the program's def bodies, requirements,
/// statements and end functions. A def whose body calls a def is never written in, so no
/// chain of calls (a recursion) is ever unrolled; but a def whose calls have all been written
/// in may be written in its turn, so defs are rewritten until no more become small.
pub fn inline_small_defs(program: &mut Program) {
    let mut small: Vec<Option<Expr>> = program.defs.iter().map(inlinable).collect();
    if small.iter().all(Option::is_none) {
        return;
    }
    // Each round writes in at least one more def, or stops: at most one round per def.
    for _ in 0..program.defs.len() {
        for def in &mut program.defs {
            rewrite(&mut def.body, &small);
        }
        let next: Vec<Option<Expr>> = program.defs.iter().map(inlinable).collect();
        let grew = next.iter().filter(|x| x.is_some()).count()
            > small.iter().filter(|x| x.is_some()).count();
        small = next;
        if !grew {
            break;
        }
    }
    let visit = |e: &mut Expr| rewrite(e, &small);
    for action in &mut program.actions {
        for r in &mut action.requires {
            visit(&mut r.cond);
        }
    }
    for f in program.score.iter_mut().chain(program.winners.iter_mut()) {
        visit(&mut f.body);
    }
    for block in &mut program.blocks {
        for stmt in &mut block.stmts {
            match &mut stmt.kind {
                StmtKind::Let(_, e)
                | StmtKind::Assign { value: e, .. }
                | StmtKind::If { cond: e, .. }
                | StmtKind::While { cond: e, .. }
                | StmtKind::Repeat { count: e, .. } => visit(e),
                StmtKind::For { source, filter, .. } => {
                    visit(source);
                    if let Some(f) = filter {
                        visit(f);
                    }
                }
                _ => {}
            }
        }
    }
}

/// The body to write in place of a call of `def`, if it is small enough and safe to.
fn inlinable(def: &DefDef) -> Option<Expr> {
    let ok = !def.remembered
        && def.locals <= def.arity
        && nodes(&def.body) <= MAX_NODES
        && !binds_or_visits(&def.body);
    ok.then(|| def.body.clone())
}

fn nodes(e: &Expr) -> usize {
    let mut n = 1;
    e.any_child(|x| {
        n += nodes(x);
        false
    });
    n
}

/// True if the expression binds a name (a query) or calls a def: a body that does is left as
/// a call (queries need slots of their own; calls could lead back to the def itself).
fn binds_or_visits(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Query { .. } | ExprKind::Call(..)) || e.any_child(binds_or_visits)
}

/// Rewrites the calls of small defs in `e` and below.
fn rewrite(e: &mut Expr, small: &[Option<Expr>]) {
    if let ExprKind::Call(id, args) = &mut e.kind {
        for a in args.iter_mut() {
            rewrite(a, small);
        }
        let simple = args
            .iter()
            .all(|a| matches!(a.kind, ExprKind::Local(_) | ExprKind::Const(_)));
        if let (true, Some(Some(body))) = (simple, small.get(id.index())) {
            let mut inlined = body.clone();
            substitute(&mut inlined, args);
            inlined.span = e.span;
            *e = inlined;
        }
        return;
    }
    e.children_mut(|x| rewrite(x, small));
}

/// Replaces each parameter `Local(i)` of an inlined body with argument `i`.
fn substitute(e: &mut Expr, args: &[Expr]) {
    if let ExprKind::Local(s) = e.kind {
        if let Some(a) = args.get(s as usize) {
            let span = e.span;
            *e = a.clone();
            e.span = span;
        }
        return;
    }
    e.children_mut(|x| substitute(x, args));
}

#[cfg(test)]
mod tests {
    use crate::ir::{ExprKind, Program};
    use crate::load::check_source;

    const GAME: &str = r#"
game "Inline" { players 2 }
kind crate[3] { on_board: bool = index != 2  marker: int = index * 2 }
player var coins: int = 0
player var hand: list of crate = []
def worth(c: crate): int = if c.on_board then c.marker else 0
def held(p: player): int = count(c in p.hand where c.on_board)
def fall(n: int): int = if n <= 0 then 0 else fall(n - 1)
def doubled(c: crate): int = worth(c) * 2
def capped(c: crate): int = min([doubled(c), 3])
flow { for p in players { turn p } }
action buy(c: crate) {
  require worth(c) > 0 else "worthless"
  require held(me) < 3 else "hands full"
  require fall(worth(c)) == 0 else "never"
  require worth(first(me.hand, c)) >= 0 else "never"
  require capped(c) > 0 else "never"
  me.coins += worth(c)
}
score(p) = p.coins
"#;

    fn calls_of(program: &Program, name: &str) -> usize {
        let id = program
            .defs
            .iter()
            .position(|d| d.name == name)
            .expect("def");
        fn count(e: &crate::ir::Expr, id: usize) -> usize {
            let own = usize::from(matches!(&e.kind, ExprKind::Call(d, _) if d.index() == id));
            let mut below = 0;
            e.any_child(|x| {
                below += count(x, id);
                false
            });
            own + below
        }
        program.actions[0]
            .requires
            .iter()
            .map(|r| count(&r.cond, id))
            .sum()
    }

    #[test]
    fn small_defs_of_names_are_written_in_and_the_rest_stay_calls() {
        let program = check_source("inline.rules", GAME).program.expect("checks");
        // `worth(c)` is written in wherever its argument is a name (alone, and as the argument
        // of `fall`, which stays a call); `worth(first(...))` stays a call: its argument could
        // fail, and a body need not read it.
        assert_eq!(
            calls_of(&program, "worth"),
            1,
            "only the call with a computed argument"
        );
        assert_eq!(
            calls_of(&program, "held"),
            1,
            "a def that visits a list is remembered"
        );
        assert_eq!(
            calls_of(&program, "fall"),
            1,
            "a def that calls a def stays a call"
        );
        // The root of the inlined body answers for the call: its text is the call's.
        let first = &program.actions[0].requires[0].cond;
        let ExprKind::Binary(_, lhs, _) = &first.kind else {
            panic!("a comparison");
        };
        assert!(
            matches!(lhs.kind, ExprKind::If(..)),
            "written in: {:?}",
            lhs.kind
        );
        assert_eq!(program.sources.snippet(lhs.span), "worth(c)");
    }

    #[test]
    fn a_def_whose_calls_are_all_written_in_is_written_in_its_turn() {
        let program = check_source("inline.rules", GAME).program.expect("checks");
        // `capped` calls `doubled`, which calls `worth`: once `worth` is written into
        // `doubled`, and `doubled` into `capped`, `capped` is small and has no call left.
        // (`min` of a list written out visits no list, so `capped` is not remembered.)
        assert_eq!(calls_of(&program, "capped"), 0);
        assert_eq!(calls_of(&program, "doubled"), 0);
        let capped = &program.actions[0].requires[4].cond;
        assert_eq!(program.sources.snippet(capped.span), "capped(c) > 0");
        let ExprKind::Binary(_, lhs, _) = &capped.kind else {
            panic!("a comparison");
        };
        assert!(
            matches!(lhs.kind, ExprKind::Builtin(..)),
            "written in: {:?}",
            lhs.kind
        );
    }
}
