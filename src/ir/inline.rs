//! Small defs written into their callers: a call of a def whose body is a few nodes, binds no
//! name of its own and itself visits no list, with arguments that are names or constants,
//! becomes the body itself with the arguments in place of the parameters. The body may call
//! other defs (those calls stay calls, or are written in their turn), unless a chain of calls
//! from it comes back to a def it passed (a recursion): such a def stays a call.
//!
//! Why: such defs (`worth(c) = if c.on_board then c.marker else 0`, `paid(c) = if c.shared
//! then split(c.owner) else 0`) are asked thousands of times a second in play, and a call
//! costs more than their body (a frame, the depth and work checks, and for a def that calls a
//! list-visiting def, looking its result up in the remembered calls, which is worth it only
//! for a def that visits a list itself). Why it changes nothing else: evaluation is pure,
//! and an argument that is a name or a constant reads the same value wherever and however
//! often it is read and cannot fail, so the body gives the same value or the same error. The
//! inlined body keeps the call's span at its root, so an explanation of a failing condition
//! still quotes `worth(c)`; errors inside it point into the def, as they did. Only the count of
//! work spent differs (a call and its frame are no longer counted), and that count only decides
//! where a runaway rule stops; and a call inside a written-in body runs one frame less deep,
//! which a runaway recursion (never written in) would notice only one frame later.

use super::{DefDef, Expr, ExprKind, Part, Program};

/// Nodes a def's body may have to be written into its callers, counted once the defs it calls
/// are written into it: room for a condition of three tests or two `if`s over calls, which 12
/// did not leave (docs/performance-log.md).
const MAX_NODES: usize = 20;

/// Writes small defs into their callers throughout the program's def bodies, requirements,
/// statements and end functions. A def on the way to a recursion is never written in, so no
/// recursion is ever unrolled; a def that grows small once the defs it calls are written into
/// it may be written in its turn, so defs are rewritten until no more become small.
pub fn inline_small_defs(program: &mut Program) {
    let recursive = reaches_a_recursion(&program.defs);
    let remembered: Vec<bool> = program.defs.iter().map(|d| d.remembered).collect();
    let inlinable_now = |defs: &[DefDef]| -> Vec<Option<Expr>> {
        defs.iter()
            .zip(&recursive)
            .map(|(d, &r)| if r { None } else { inlinable(d, &remembered) })
            .collect()
    };
    let mut small: Vec<Option<Expr>> = inlinable_now(&program.defs);
    if small.iter().all(Option::is_none) {
        return;
    }
    // Each round writes the defs small now into every def, until a round writes none in: a def
    // written in holds no call of a def on the way to a recursion, so each round shortens the
    // longest chain of calls left among the small defs, and there are at most as many rounds
    // as defs.
    for _ in 0..=program.defs.len() {
        let mut wrote = false;
        for def in &mut program.defs {
            wrote |= rewrite(&mut def.body, &small);
        }
        small = inlinable_now(&program.defs);
        if !wrote {
            break;
        }
    }
    let visit = |e: &mut Expr| {
        rewrite(e, &small);
    };
    for action in &mut program.actions {
        for r in &mut action.requires {
            visit(&mut r.cond);
        }
        if let Some(p) = &mut action.prefer {
            visit(p);
        }
    }
    for f in program.ends_mut() {
        visit(&mut f.body);
    }
    for block in &mut program.blocks {
        for stmt in &mut block.stmts {
            // Every expression a statement evaluates, not its texts (rendered only for people).
            stmt.kind.parts_mut(&mut |part| match part {
                Part::Expr(e) | Part::Count(e) => visit(e),
                Part::Text(_) | Part::Block(_) => {}
            });
        }
    }
}

/// The body to write in place of a call of `def`, if it is small enough and safe to (a def on
/// the way to a recursion is ruled out by the caller).
fn inlinable(def: &DefDef, remembered: &[bool]) -> Option<Expr> {
    let ok = def.locals <= def.arity
        && nodes(&def.body) <= MAX_NODES
        && !binds(&def.body)
        && !super::memo::visits_list_itself(&def.body)
        // A remembered def is looked up once where its body may look up several: written in,
        // it may look up one remembered call at most, so that no call costs more than before.
        && (!def.remembered || lookups(&def.body, remembered) <= 1);
    ok.then(|| def.body.clone())
}

/// The most calls of the defs marked in `of` that one evaluation of the expression makes (of an
/// `if`'s two branches, the one with more).
fn lookups(e: &Expr, of: &[bool]) -> usize {
    if let ExprKind::If(c, a, b) = &e.kind {
        return lookups(c, of) + lookups(a, of).max(lookups(b, of));
    }
    let own = matches!(&e.kind, ExprKind::Call(id, _) if of.get(id.index()) == Some(&true));
    let mut below = 0;
    e.any_child(|x| {
        below += lookups(x, of);
        false
    });
    usize::from(own) + below
}

/// For each def, whether a chain of calls from it reaches a def that calls itself, directly or
/// through others: writing such a def in could go on forever, or change how deep a recursion
/// goes before it fails.
fn reaches_a_recursion(defs: &[DefDef]) -> Vec<bool> {
    let calls: Vec<Vec<usize>> = defs
        .iter()
        .map(|d| {
            let mut out = Vec::new();
            called(&d.body, &mut out);
            out
        })
        .collect();
    // The defs reachable from each (itself excluded unless a chain comes back to it).
    let reach = |from: usize| -> Vec<bool> {
        let mut seen = vec![false; defs.len()];
        let mut stack: Vec<usize> = calls[from].clone();
        while let Some(d) = stack.pop() {
            if d < defs.len() && !seen[d] {
                seen[d] = true;
                stack.extend(&calls[d]);
            }
        }
        seen
    };
    let reached: Vec<Vec<bool>> = (0..defs.len()).map(reach).collect();
    // A def on a cycle reaches itself, so it is among the defs it reaches on one.
    (0..defs.len())
        .map(|d| (0..defs.len()).any(|e| reached[d][e] && reached[e][e]))
        .collect()
}

/// The defs `e` calls, by index.
fn called(e: &Expr, out: &mut Vec<usize>) {
    if let ExprKind::Call(id, _) = &e.kind {
        out.push(id.index());
    }
    e.any_child(|x| {
        called(x, out);
        false
    });
}

fn nodes(e: &Expr) -> usize {
    let mut n = 1;
    e.any_child(|x| {
        n += nodes(x);
        false
    });
    n
}

/// True if the expression binds a name (a query): a body that does is left as a call (a
/// query needs a slot of its own in the frame).
fn binds(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Query { .. }) || e.any_child(binds)
}

/// Rewrites the calls of small defs in `e` and below; true if it wrote any in.
fn rewrite(e: &mut Expr, small: &[Option<Expr>]) -> bool {
    if let ExprKind::Call(id, args) = &mut e.kind {
        let mut wrote = false;
        for a in args.iter_mut() {
            wrote |= rewrite(a, small);
        }
        let simple = args
            .iter()
            .all(|a| matches!(a.kind, ExprKind::Local(_) | ExprKind::Const(_)));
        if let (true, Some(Some(body))) = (simple, small.get(id.index())) {
            let mut inlined = body.clone();
            substitute(&mut inlined, args);
            inlined.span = e.span;
            *e = inlined;
            wrote = true;
        }
        return wrote;
    }
    let mut wrote = false;
    e.children_mut(|x| wrote |= rewrite(x, small));
    wrote
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
    fn small_defs_are_written_into_every_expression_a_statement_evaluates() {
        let src = r#"
game "Everywhere" { players 2 }
player var coins: int = 0
def opener(): player = first(players)
def rich(p: player): bool = p.coins > 2
flow {
  turn opener()
  tell opener() "you open"
  let p = choose opener() "Who?" from [q in players where rich(q)]
  eliminate opener()
}
action pass { }
"#;
        let program = check_source("everywhere.rules", src)
            .program
            .expect("checks");
        let mut calls = 0;
        for stmt in program.blocks.iter().flat_map(|b| &b.stmts) {
            stmt.kind.parts(&mut |part| {
                if let crate::ir::Part::Expr(e) = part {
                    calls += usize::from(matches!(e.kind, ExprKind::Call(..)));
                }
            });
        }
        // `turn`, `tell`, `choose` and `eliminate` name the player by a def written in.
        assert_eq!(calls, 0);
    }

    const CALLERS: &str = r#"
game "Callers" { players 2 }
kind crate[3] { on_board: bool = index != 2 }
player var hand: list of crate = []
def held(p: player): int = count(c in p.hand where c.on_board)
def room(p: player): int = 3 - held(p)
def twice(p: player): int = held(p) + held(p)
def either(p: player, b: bool): int = if b then held(p) else count(p.hand) - held(p)
def fall(n: int): int = if n <= 0 then 0 else fall(n - 1)
def via(n: int): int = fall(n) + 1
flow { for p in players { turn p } }
action buy {
  require room(me) > 0 else "hands full"
  require twice(me) >= 0 else "never"
  require either(me, true) >= 0 else "never"
  require via(3) > 0 else "never"
}
score(p) = 0
"#;

    #[test]
    fn a_def_that_calls_defs_is_written_in_unless_it_could_cost_more_or_recurse() {
        let program = check_source("callers.rules", CALLERS)
            .program
            .expect("checks");
        let remembered = |name: &str| program.defs.iter().any(|d| d.name == name && d.remembered);
        // Each calls `held`, which visits a list: all are remembered.
        for name in ["room", "twice", "either"] {
            assert!(remembered(name), "{name} is remembered");
        }
        // `room` looks one remembered call up, as a call of it would: written in, its call of
        // `held` left where the requirement is.
        assert_eq!(calls_of(&program, "room"), 0);
        assert_eq!(
            calls_of(&program, "held"),
            3,
            "room's, and one on each branch of either's"
        );
        // `twice` could look up two where a call of it looks up one: it stays a call.
        assert_eq!(calls_of(&program, "twice"), 1);
        // `either` looks up one on either branch: written in.
        assert_eq!(calls_of(&program, "either"), 0);
        // `via` calls a recursion: writing it in would change how deep `fall` goes.
        assert_eq!(calls_of(&program, "via"), 1);
        assert_eq!(calls_of(&program, "fall"), 0, "only inside `via`");
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
