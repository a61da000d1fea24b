//! Which `choose` statements are asked even when they have a single option.
//!
//! A choice of one option is taken without asking, and the table reads `P1 chose 0 (the only
//! option)`. When how many options there are depends on something a seat may not see (a bid
//! up to the bidder's secret money), that line, or the missing question, would tell every seat
//! the secret. Such a choice is marked `asked`: it is put to its player like any other, and
//! the table reads `P1 chose 0`, as when there were several.
//!
//! What a seat may not see: a variable or field that is `secret` or `hidden` (with or without
//! `visible when`), a record's field so declared, an argument written `secret`, the result of a secret choice, and every value
//! computed from one of these, or assigned under a branch or a loop that one of these decides.
//! Chance (a roll, a `random` pick, a shuffle) is taken as seen by the table: a draw meant to
//! stay secret is kept in a secret or hidden variable. How many elements a variable's list holds is not
//! a secret (the views show it); which elements a filter keeps is. The answer is sound, not
//! tight: a choice marked when it need not be costs its player one question.

use super::hidden::children;
use crate::diag::Span;
use crate::ir::{
    self, BlockId, Builtin, Expr, ExprKind as E, Place, Program, QueryKind, StmtKind as S, VarDef,
    Visibility,
};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// Marks every `choose` of `program` whose options, or how many it takes, depend on a value
/// some seat may not see. Returns the `window`s whose closing action may be illegal for a
/// reason some seat may not see, as (the window, where the action reads it): a seat with no
/// legal move is passed over, and the others would read why.
pub(super) fn mark(program: &mut Program) -> Vec<(Span, Span)> {
    let (found, windows) = {
        let mut finder = Finder::new(program);
        let found = finder.run_to_fixpoint();
        (found, finder.hidden_passes())
    };
    for (block, i) in found {
        if let Some(S::Choose { asked, .. } | S::Secretly { asked, .. }) = program.blocks
            [block.index()]
        .stmts
        .get_mut(i)
        .map(|s| &mut s.kind)
        {
            *asked = true;
        }
    }
    windows
}

/// Which slots of a frame may hold a value some seat may not see.
#[derive(Clone, PartialEq, Eq, Default)]
struct Env(Vec<bool>, Cut);

/// Whether a hidden value may end a body or a loop early (`return`, `break`, `continue` under a
/// branch it decides): then what runs after, and how often, is hidden too, and the whole body
/// is read as decided by it.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct Cut(bool);

impl Env {
    fn get(&self, slot: ir::Slot) -> bool {
        self.0.get(slot as usize).copied().unwrap_or(false)
    }

    fn taint(&mut self, slot: ir::Slot, hidden: bool) {
        if !hidden {
            return;
        }
        let i = slot as usize;
        if self.0.len() <= i {
            self.0.resize(i + 1, false);
        }
        self.0[i] = true;
    }
}

struct Finder<'a> {
    program: &'a Program,
    /// For each procedure, which of its parameters some call passes a hidden value.
    params: Vec<Vec<bool>>,
    /// Calls of defs worked out already, by def and which arguments are hidden.
    defs: RefCell<BTreeMap<(u32, Vec<bool>), bool>>,
    /// Defs being worked out (a def that calls itself).
    open: RefCell<BTreeSet<u32>>,
    /// The choices found, as (block, statement).
    found: BTreeSet<(BlockId, usize)>,
}

impl<'a> Finder<'a> {
    fn new(program: &'a Program) -> Finder<'a> {
        Finder {
            program,
            params: program.procs.iter().map(|p| vec![false; p.arity]).collect(),
            defs: RefCell::default(),
            open: RefCell::default(),
            found: BTreeSet::new(),
        }
    }

    /// Walks every body until what the procedures' parameters may hold settles, then once more
    /// to find the choices.
    fn run_to_fixpoint(&mut self) -> BTreeSet<(BlockId, usize)> {
        // Each pass only adds hidden parameters, so this ends; the bound is a safety net.
        for _ in 0..=self.params.iter().map(Vec::len).sum::<usize>() + 1 {
            let before = self.params.clone();
            self.found.clear();
            for (body, env) in self.frames() {
                self.frame(body, env);
            }
            if self.params == before {
                break;
            }
        }
        std::mem::take(&mut self.found)
    }

    /// Every `window` whose closing action's legality may depend on a value some seat may not
    /// see, with where it reads it. Only when that action is illegal can a seat in the game be
    /// passed over; when its legality is public, a seat passed over was forced, as a seat left
    /// one move is, and the table learns no more than from a move.
    fn hidden_passes(&self) -> Vec<(Span, Span)> {
        let mut out = Vec::new();
        for block in &self.program.blocks {
            for stmt in &block.stmts {
                if let S::Window { decline, .. } = &stmt.kind {
                    if let Some(at) = self.hidden_legality(*decline) {
                        out.push((stmt.span, at));
                    }
                }
            }
        }
        out
    }

    /// Where whether `action` has a legal move may come to depend on a value some seat may not
    /// see: the requirement that reads one, or the whole action for an argument's range (`me`
    /// is public; a `secret` argument is not).
    fn hidden_legality(&self, action: ir::ActionId) -> Option<Span> {
        let a = self.program.actions.get(action.index())?;
        let params = std::iter::once(false).chain(a.params.iter().map(|p| p.secret));
        let mut env = Env(params.collect(), Cut(false));
        for (lo, hi) in a.params.iter().filter_map(|p| p.range.as_deref()) {
            if self.value(lo, &mut env) | self.value(hi, &mut env) {
                return Some(a.span);
            }
        }
        a.requires
            .iter()
            .find(|r| self.value(&r.cond, &mut env))
            .map(|r| r.span)
    }

    /// Every body with what its parameters may hold: procedures, then actions (`me` is public,
    /// a `secret` argument is not).
    fn frames(&self) -> Vec<(BlockId, Env)> {
        let procs = self
            .program
            .procs
            .iter()
            .zip(&self.params)
            .map(|(p, hidden)| (p.body, Env(hidden.clone(), Cut(false))));
        let actions = self.program.actions.iter().map(|a| {
            let params = std::iter::once(false).chain(a.params.iter().map(|p| p.secret));
            (a.body, Env(params.collect(), Cut(false)))
        });
        procs.chain(actions).collect()
    }

    /// Walks one body until what its slots may hold settles.
    fn frame(&mut self, body: BlockId, mut env: Env) {
        loop {
            let before = env.clone();
            self.block(body, false, &mut env, 0);
            if env == before {
                return;
            }
        }
    }

    /// Walks a block; `pc`: a hidden value decides whether it runs, or how often.
    fn block(&mut self, id: BlockId, pc: bool, env: &mut Env, depth: usize) {
        // Blocks nest as the source does, which the parser bounds; this is a safety net.
        if depth > 4 * crate::syntax::MAX_NESTING {
            return;
        }
        let Some(block) = self.program.blocks.get(id.index()) else {
            return;
        };
        let pc = pc || env.1 .0;
        for (i, stmt) in block.stmts.iter().enumerate() {
            self.stmt(id, i, &stmt.kind, pc, env, depth);
        }
    }

    /// Whether how many options a choice has, or how many of them it takes, depends on a
    /// value some seat may not see.
    fn how_many(&mut self, options: &Expr, count: Option<&ir::ChooseCount>, env: &mut Env) -> bool {
        let k = match count {
            Some(ir::ChooseCount::AtMost(k) | ir::ChooseCount::Exactly(k)) => self.value(k, env),
            Some(ir::ChooseCount::Between(lo, hi)) => {
                let lo = self.value(lo, env);
                self.value(hi, env) || lo
            }
            _ => false,
        };
        self.count(options, env) || k
    }

    // Long because it is one match over every statement kind, an arm how secrets flow.
    fn stmt(&mut self, id: BlockId, i: usize, s: &S, pc: bool, env: &mut Env, depth: usize) {
        let inner = |this: &mut Self, b: BlockId, pc2: bool, env: &mut Env| {
            this.block(b, pc || pc2, env, depth + 1);
        };
        match s {
            S::Let(slot, x) => {
                let h = self.value(x, env);
                env.taint(*slot, h || pc);
            }
            S::Choose {
                slot,
                options,
                secret,
                count,
                ..
            } => {
                if self.how_many(options, count.as_ref(), env) {
                    self.found.insert((id, i));
                }
                // The choice is announced to all, unless it is made in secret.
                env.taint(*slot, *secret || pc);
            }
            S::Ask { slot, .. } => env.taint(*slot, pc),
            // Chance is for the table to see, unless drawn from what it may not see: a draw
            // meant to stay secret is kept in a secret or hidden variable.
            S::Roll { slot, count, .. } => {
                let h = count.as_ref().is_some_and(|c| self.value(c, env));
                env.taint(*slot, h || pc);
            }
            S::Random { slot, from } | S::Shuffle { slot, from } => {
                let h = self.value(from, env);
                env.taint(*slot, h || pc);
            }
            S::Pop {
                slot,
                count,
                place,
                path,
                at,
            } => {
                let c = count.as_ref().is_some_and(|c| self.value(c, env))
                    | at.as_ref().is_some_and(|i| self.value(i, env))
                    | path.iter().any(|i| self.value(i, env));
                let h = self.place(place, env);
                env.taint(*slot, h || c || pc);
            }
            S::Assign { place, value, .. } => {
                let h = self.value(value, env);
                if let Place::Local(slot) = place {
                    env.taint(*slot, h || pc);
                } else {
                    self.place(place, env);
                }
            }
            S::If {
                cond,
                then,
                otherwise,
            } => {
                let h = self.value(cond, env);
                inner(self, *then, h, env);
                if let Some(b) = otherwise {
                    inner(self, *b, h, env);
                }
            }
            S::For {
                slot,
                source,
                filter,
                body,
            } => {
                let h = self.value(source, env);
                env.taint(*slot, h || pc);
                let f = filter.as_ref().is_some_and(|f| self.value(f, env));
                inner(self, *body, h || f, env);
            }
            S::Repeat { count: x, body } | S::While { cond: x, body } => {
                let h = self.value(x, env);
                inner(self, *body, h, env);
            }
            S::Secretly {
                player_slot,
                players,
                choice_slot,
                options,
                count,
                then,
                ..
            } => {
                let h = self.value(players, env);
                env.taint(*player_slot, h || pc);
                // A seat that may pick nothing is spared the question unless that tells.
                if count.is_some() && self.how_many(options, count.as_ref(), env) {
                    self.found.insert((id, i));
                }
                env.taint(*choice_slot, true);
                inner(self, *then, h, env);
            }
            S::Call { proc, args } => {
                // Whether the call runs at all may be hidden, but not what it is passed.
                let hidden: Vec<bool> = args.iter().map(|a| self.value(a, env)).collect();
                if let Some(params) = self.params.get_mut(proc.index()) {
                    for (p, h) in params.iter_mut().zip(hidden) {
                        *p |= h;
                    }
                }
            }
            S::Match {
                value,
                arms,
                none,
                otherwise,
            } => {
                let h = self.value(value, env);
                for b in arms.iter().flatten().chain(none).chain(otherwise) {
                    inner(self, *b, h, env);
                }
            }
            S::Return | S::Break | S::Continue => env.1 .0 |= pc,
            // Who is out is told to all (the log says so), whatever decided it.
            S::Turn { .. }
            | S::Window { .. }
            | S::Log(_)
            | S::Tell { .. }
            | S::Finish(..)
            | S::Eliminate { .. }
            // What is revealed is shown to all; the rules cannot read the mark.
            | S::Reveal { .. } => {}
        }
    }

    /// Whether what a place holds may be hidden from some seat.
    fn place(&self, place: &Place, env: &mut Env) -> bool {
        match place {
            Place::Local(slot) => env.get(*slot),
            Place::Global(g) => self.global(*g),
            Place::PlayerVar(base, v) => {
                self.value(base, env) || hidden(&self.program.player_vars[v.index()])
            }
            Place::Field(base, k, f) => {
                self.value(base, env) || hidden(&self.program.kinds[k.index()].fields[f.index()])
            }
        }
    }

    fn global(&self, g: ir::GlobalId) -> bool {
        hidden(&self.program.globals[g.index()])
    }

    /// Whether the value of `e` may depend on something some seat may not see.
    fn value(&self, e: &Expr, env: &mut Env) -> bool {
        match &e.kind {
            E::Local(slot) => env.get(*slot),
            E::Global(g) => self.global(*g),
            E::PlayerVar(base, v) => {
                // Both are read: a slot bound inside `base` must be seen.
                let b = self.value(base, env);
                b || hidden(&self.program.player_vars[v.index()])
            }
            E::Field(base, k, f) => {
                let b = self.value(base, env);
                b || hidden(&self.program.kinds[k.index()].fields[f.index()])
            }
            E::Builtin(Builtin::Count, args) if args.len() == 1 => self.count(&args[0], env),
            // A record's field with a visibility of its own (`s.card`).
            E::Builtin(Builtin::Index, args) if self.program.veiled_reads.contains_key(&e.span) => {
                args.iter().for_each(|a| {
                    self.value(a, env);
                });
                true
            }
            E::Query {
                slot,
                source,
                filter,
                map,
                keys,
                ..
            } => {
                let s = self.value(source, env);
                env.taint(*slot, s);
                let mut h = s;
                for x in filter.iter().chain(map).map(|x| &**x).chain(keys) {
                    h |= self.value(x, env);
                }
                h
            }
            E::Call(d, args) => {
                let hidden: Vec<bool> = args.iter().map(|a| self.value(a, env)).collect();
                self.def(d.0, hidden)
            }
            _ => {
                let mut h = false;
                for c in children(e) {
                    h |= self.value(c, env);
                }
                h
            }
        }
    }

    /// Whether how many elements the list `e` holds may depend on something some seat may not
    /// see: the views show how many a variable's list holds, not which.
    fn count(&self, e: &Expr, env: &mut Env) -> bool {
        match &e.kind {
            E::Global(_) => false,
            E::PlayerVar(base, _) | E::Field(base, _, _) => self.value(base, env),
            E::Query {
                kind: QueryKind::List | QueryKind::Sorted,
                slot,
                source,
                filter,
                map,
                keys,
            } => {
                let mut h = self.count(source, env);
                let s = self.value(source, env);
                env.taint(*slot, s);
                if let Some(f) = filter {
                    h |= self.value(f, env);
                }
                // Read for the slots they bind; they change no count.
                for x in map.iter().map(|x| &**x).chain(keys) {
                    self.value(x, env);
                }
                h
            }
            _ => self.value(e, env),
        }
    }

    /// Whether a call of def `d` may give a value hidden from some seat, with `args` telling
    /// which of its arguments may be.
    fn def(&self, d: u32, args: Vec<bool>) -> bool {
        let Some(def) = self.program.defs.get(d as usize) else {
            return true;
        };
        if let Some(&h) = self.defs.borrow().get(&(d, args.clone())) {
            return h;
        }
        if !self.open.borrow_mut().insert(d) {
            // A call of a def inside itself: its body is being read by the outer call.
            return args.iter().any(|&a| a);
        }
        let mut env = Env(args.clone(), Cut(false));
        env.0.resize(def.locals.max(args.len()), false);
        let h = self.value(&def.body, &mut env);
        self.open.borrow_mut().remove(&d);
        self.defs.borrow_mut().insert((d, args), h);
        h
    }
}

/// Whether some seat may not see a variable.
fn hidden(def: &VarDef) -> bool {
    matches!(def.visibility, Visibility::Secret | Visibility::Hidden)
}
