//! Which `def`s are worth remembering while the state stands still.
//!
//! A def reads only its arguments and the state, so while one evaluation runs (the state cannot
//! change under it) the same call gives the same value. Rules recompute derived quantities
//! freely (a ranking inside a loop over cubes, a task's total for every player), and a def that
//! visits a list is worth looking up rather than running again. A def that visits no list costs
//! less than the lookup, so it is left alone.

use super::{Builtin, DefDef, Expr, ExprKind, Program};
use std::collections::BTreeSet;

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

/// True if `e` itself loops over a list or builds one from another, not counting what the defs
/// it calls do.
pub(super) fn visits_list_itself(e: &Expr) -> bool {
    visits_list(e, &[])
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
        // The least or greatest of a list written out visits no list: it compares the
        // elements as written, never more of them.
        ExprKind::Builtin(Builtin::Min | Builtin::Max, args)
            if args.len() == 1 && matches!(args[0].kind, ExprKind::List(_)) =>
        {
            inside(e)
        }
        ExprKind::Builtin(b, _) => b.facts().visits_list || inside(e),
        ExprKind::Call(id, _) => calls.get(id.index()).copied().unwrap_or(false) || inside(e),
        _ => inside(e),
    }
}

/// The most variables a remembered def may read and still be looked up by them: past that,
/// its results last only while the whole state stands still.
pub const MAX_READS: usize = 8;

/// The state's variables numbered for remembered calls: every global, every per-player variable
/// (all seats at once) and every field of a kind (all instances at once) is one variable, so
/// that a write says which remembered results it outdates.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Variables {
    globals: u32,
    /// The number of the first field of each kind.
    field_base: Vec<u32>,
    count: u32,
}

impl Variables {
    /// The numbering of a program's variables: globals, then per-player variables, then the
    /// fields of each kind in turn.
    pub fn of(program: &Program) -> Variables {
        let globals = program.globals.len() as u32;
        let mut next = globals + program.player_vars.len() as u32;
        let field_base = program
            .kinds
            .iter()
            .map(|k| {
                let base = next;
                next += k.fields.len() as u32;
                base
            })
            .collect();
        Variables {
            globals,
            field_base,
            count: next,
        }
    }

    /// How many variables there are.
    pub fn count(&self) -> usize {
        self.count as usize
    }

    /// The number of a global.
    #[inline]
    pub fn global(&self, g: usize) -> usize {
        g
    }

    /// The number of a per-player variable.
    #[inline]
    pub fn player_var(&self, v: usize) -> usize {
        (self.globals as usize) + v
    }

    /// The number of a field of a kind.
    #[inline]
    pub fn field(&self, kind: usize, field: usize) -> usize {
        self.field_base[kind] as usize + field
    }
}

/// For each def, the variables it reads (numbered by `vars`), itself or through the defs it
/// calls, sorted: `None` when more than [`MAX_READS`] (or for a def that is not remembered,
/// which needs none).
pub fn reads(defs: &[DefDef], vars: &Variables) -> Vec<Option<Box<[u32]>>> {
    let direct: Vec<(BTreeSet<u32>, BTreeSet<usize>)> = defs
        .iter()
        .map(|d| {
            let (mut read, mut calls) = (BTreeSet::new(), BTreeSet::new());
            direct_reads(&d.body, vars, &mut read, &mut calls);
            (read, calls)
        })
        .collect();
    // A def reads what the defs it calls read: spread until nothing changes.
    let mut all: Vec<BTreeSet<u32>> = direct.iter().map(|(r, _)| r.clone()).collect();
    loop {
        let mut changed = false;
        for (i, (_, calls)) in direct.iter().enumerate() {
            for &c in calls {
                if c == i {
                    continue;
                }
                let more: Vec<u32> = all[c].difference(&all[i]).copied().collect();
                if !more.is_empty() {
                    all[i].extend(more);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    defs.iter()
        .zip(all)
        .map(|(d, r)| (d.remembered && r.len() <= MAX_READS).then(|| r.into_iter().collect()))
        .collect()
}

/// The variables `e` reads and the defs it calls, not through those defs.
fn direct_reads(e: &Expr, vars: &Variables, read: &mut BTreeSet<u32>, calls: &mut BTreeSet<usize>) {
    match &e.kind {
        ExprKind::Global(g) => {
            read.insert(vars.global(g.index()) as u32);
        }
        ExprKind::PlayerVar(_, v) => {
            read.insert(vars.player_var(v.index()) as u32);
        }
        ExprKind::Field(_, k, f) => {
            read.insert(vars.field(k.index(), f.index()) as u32);
        }
        ExprKind::Call(id, _) => {
            calls.insert(id.index());
        }
        _ => {}
    }
    e.any_child(|x| {
        direct_reads(x, vars, read, calls);
        false
    });
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
def capped(n: int): int = min([n, 10])
def most(): int = max(holding(p) for p in players)
def holding(p: player): int = max([count(p.hand), held(p)])
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
            ("capped", false),
            ("most", true),
            ("holding", true),
        ];
        assert_eq!(found.len(), expected.len());
        for ((name, got), (want_name, want)) in found.iter().zip(expected) {
            assert_eq!((name.as_str(), *got), (want_name, want));
        }
    }

    #[test]
    fn a_score_that_visits_a_list_is_scored_through_its_remembered_def() {
        let score = |body: &str| {
            let src = format!(
                "game \"Score\" {{ players 2 }}\nplayer var hand: list of int = []\n\
                 flow {{ }}\nscore(p) = {body}\n"
            );
            let program = check_source("score.rules", &src).program.expect("checks");
            let def = program.defs.iter().position(|d| d.name == "score");
            let def = def.expect("`score(p)` is a def");
            let called = match &program.score.expect("a score").body.kind {
                crate::ir::ExprKind::Call(id, args) => {
                    id.index() == def
                        && matches!(&args[..], [a] if matches!(a.kind, crate::ir::ExprKind::Local(0)))
                }
                _ => false,
            };
            (program.defs[def].remembered, called)
        };
        // Scoring at the end fills the memo, so the winners' `score(p)` finds it there.
        assert_eq!(score("sum(x for x in p.hand where x > 0)"), (true, true));
        // A score that visits no list costs less than a call: it is evaluated in place.
        assert_eq!(score("count(p.hand) + 1"), (false, false));
    }

    fn reads(src: &str) -> Vec<(String, Option<Vec<u32>>)> {
        let program = check_source("reads.rules", src).program.expect("checks");
        let vars = super::Variables::of(&program);
        assert_eq!(program.variables, vars, "the checker numbers the variables");
        program
            .defs
            .iter()
            .map(|d| (d.name.clone(), d.reads.as_ref().map(|r| r.to_vec())))
            .collect()
    }

    #[test]
    fn a_def_reads_what_it_names_and_what_the_defs_it_calls_read() {
        let found = reads(
            r#"
game "Reads" { players 2 }
var pool: int = 0
var row: list of int = []
player var hand: list of int = []
player var money: int = 0
kind card[3] {
  owner: player = none
  worth: int = 1
}
def held(p: player): int = count(x in p.hand where x > pool)
def owned(p: player): int = sum(c.worth for c in card where c.owner == p)
def both(p: player): int = held(p) + owned(p)
def plain(n: int): int = n + 1
def broad(): int = count(row) + pool + sum(p.money + count(p.hand) for p in players)
  + sum(c.worth for c in card where c.owner != none) + both(first(players))
  + count([x in row where x > 0])
flow { }
"#,
        );
        // Globals first (pool 0, row 1), then per-player variables (hand 2, money 3), then
        // fields (owner 4, worth 5).
        let expected: [(&str, Option<Vec<u32>>); 5] = [
            ("held", Some(vec![0, 2])),
            ("owned", Some(vec![4, 5])),
            ("both", Some(vec![0, 2, 4, 5])),
            ("plain", None),
            ("broad", Some(vec![0, 1, 2, 3, 4, 5])),
        ];
        assert_eq!(found.len(), expected.len());
        for ((name, got), (want_name, want)) in found.iter().zip(expected) {
            assert_eq!((name.as_str(), got), (want_name, &want));
        }
    }

    #[test]
    fn a_def_that_reads_more_than_the_most_is_outdated_by_any_write() {
        let vars: String = (0..=super::MAX_READS)
            .map(|i| format!("var v{i}: list of int = []\n"))
            .collect();
        let sum: Vec<String> = (0..=super::MAX_READS)
            .map(|i| format!("count(x in v{i} where x > 0)"))
            .collect();
        let src = format!(
            "game \"Many\" {{ players 2 }}\n{vars}def many(): int = {}\nflow {{ }}\n",
            sum.join(" + ")
        );
        let found = reads(&src);
        assert_eq!(found[0].0, "many");
        assert_eq!(
            found[0].1,
            None,
            "{} variables are more than {}",
            super::MAX_READS + 1,
            super::MAX_READS
        );
    }
}
