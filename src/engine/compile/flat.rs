//! Bodies of statements flattened into one array of instructions.
//!
//! A body (a phase, an effect, an action, the flow, the setup) becomes a run of instructions:
//! statements that run straight through are one instruction each, and branches and loops
//! become jumps. A loop keeps what it needs between passes (a `for`'s list and position, a
//! `while`'s count of passes, what a `repeat` has left) in slots of its frame after the rule's
//! own locals, so that the machine (`engine::exec`) needs nothing beside a frame's slots and
//! its position in this array, and a game pauses at any decision by keeping that position.
//!
//! The instructions spend work exactly where the statements of the tree would: a unit for each
//! statement, one at the end of every block (a loop's pass, a branch, a body), blamed on
//! the statement that opened it, and a `for`'s one for each element of its list, when it
//! starts. The commonest carry what they run (an `if`'s or a `while`'s
//! condition and a `let`'s value by their roots, a `for`'s element slot), so that the machine
//! looks their statement up only where it must: to blame an error, or to note the blocks run.

use super::fields::FieldFilter;
use crate::engine::At;
use crate::ir::{BlockId, Expr, ExprKind, Place, Program, Slot, StmtKind as S, NOT_ROOT};

/// Where a statement stands in the program: its block and its index there, in a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Here {
    block: BlockId,
    index: u32,
}

impl Here {
    /// The statement's place as pending decisions name it.
    #[inline]
    pub(crate) fn at(self) -> At {
        (self.block, self.index as usize)
    }
}

/// One instruction of the statement machine.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Instr {
    /// A statement that runs straight through (a roll, a draw, a shuffle, `end game`): it
    /// spends a unit of work and runs. The commonest have instructions of their own, so that a
    /// statement costs the machine one dispatch, not two.
    Stmt(Here),
    /// `let`: `value` is the value's root, whose compiled code is run without looking the
    /// statement up ([`NOT_ROOT`] for a local or a constant, read in place).
    Let { here: Here, slot: Slot, value: u32 },
    /// An assignment to a place found when running it (a seat or an instance that an
    /// expression other than a local gives).
    Assign(Here),
    /// An assignment to a place resolved when compiling ([`Flat::store`]): a global, a local,
    /// or a variable of the seat or instance in a local.
    Store { here: Here, store: u32 },
    /// A call of an effect or phase.
    Call(Here),
    /// `choose`: the game waits for a decision, unless a playout's picker takes it in place.
    Choose(Here),
    /// `turn`: the game waits for a decision, unless a playout's picker takes it in place.
    Turn(Here),
    /// `ask`: the game waits for a decision, unless a playout's picker answers it in place.
    Ask(Here),
    /// `window`, entered: its round starts at the first seat, with no declines yet.
    WindowStart(Here),
    /// `window`: the next seat with a legal move gets a turn (the instruction after this one
    /// jumps back here), or the window closes and the machine goes on at `exit`.
    Window { here: Here, exit: u32 },
    /// `log` or `tell`.
    Log(Here),
    /// A statement that only writes to the log (an `if`, `match` or `for` around nothing but
    /// `log` and `tell` lines), its own instructions next: a game that keeps no log and notes
    /// no blocks run spends the statement's unit and goes on at `past`, evaluating nothing of
    /// it, as it renders no line.
    LogsOnly { here: Here, past: u32 },
    /// `if`: its condition false, go on at `skip` (the `else` block, or past the statement).
    /// `cond` is the condition's root ([`crate::ir::Expr::root`]): its compiled code is run
    /// without looking the statement up.
    If { here: Here, skip: u32, cond: u32 },
    /// `match`: its arms' first instructions are [`Flat::arms`] from `arms` on, one per value
    /// of the enum, then the arm of `none`, then the `else` arm ([`NO_ARM`] where missing).
    Match { here: Here, arms: u32 },
    /// The end of a block that runs once (a branch, an arm): a unit of work, blamed on the
    /// statement that opened it, then on at `next`.
    BlockEnd { here: Here, next: u32 },
    /// The end of a body: a unit of work, then the frame returns.
    EndBody,
    /// `return`: the frame returns.
    Return(Here),
    /// `break`: on at `target`, past the loop, letting go of a `for`'s list (its slot).
    Break {
        here: Here,
        target: u32,
        list: Option<Slot>,
    },
    /// `continue`: on at the loop's end of pass, `target`.
    Continue { here: Here, target: u32 },
    /// `while`: its condition false, go on at `exit`; true, the first pass is counted in `runs`.
    /// `cond` is the condition's root, as an `if`'s.
    WhileStart {
        here: Here,
        runs: Slot,
        exit: u32,
        cond: u32,
    },
    /// The end of a `while`'s pass: counted, then its condition (root `cond`) again.
    WhileEnd {
        here: Here,
        runs: Slot,
        body: u32,
        cond: u32,
    },
    /// `repeat n`: `n` passes are counted down in `left`; none, go on at `exit`.
    RepeatStart { here: Here, left: Slot, exit: u32 },
    /// The end of a `repeat`'s pass.
    RepeatEnd { here: Here, left: Slot, body: u32 },
    /// `for`: its list into slot `list`, its position (0) into `next`; then [`Instr::ForNext`].
    ForStart { here: Here, list: Slot, next: Slot },
    /// A `for`'s next pass (its first too): the next element that passes the filter, or on at
    /// `exit` when there is none.
    ForNext {
        here: Here,
        list: Slot,
        next: Slot,
        /// The element's slot.
        slot: Slot,
        /// The filter as a test of the element's fields ([`Flat::fields`]), or [`NO_FIELDS`].
        fields: u16,
        /// Whether the `for` has a filter at all (without one, its statement is not looked up).
        filtered: bool,
        exit: u32,
    },
    /// `secretly`: the choosers' choices are asked; then [`Instr::SecretNext`] runs the block
    /// for each (nobody chooses: on at `exit`).
    Secretly { here: Here, exit: u32 },
    /// A `secretly` block's next chooser, or on at `exit` when each has had their turn.
    SecretNext { here: Here, exit: u32 },
    /// On at another instruction.
    Jump(u32),
}

/// Where an assignment writes, resolved to indices when compiling, so that running it reads
/// no expression to find its place.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Store {
    /// A local slot of the frame.
    Local(Slot),
    /// A global variable.
    Global(u32),
    /// A per-player variable (its column) of the seat in a local slot.
    Seat { slot: Slot, column: u32 },
    /// A field (its column) of the instance, of kind `kind`, in a local slot.
    Field { slot: Slot, kind: u32, column: u32 },
}

/// The instruction index of an arm that is not there.
pub(crate) const NO_ARM: u32 = u32::MAX;

/// The field filter of a `for` that has none ([`Instr::ForNext`]).
pub(crate) const NO_FIELDS: u16 = u16::MAX;

/// Where a body starts and how many slots its frame needs.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Body {
    /// Its first instruction.
    pub(crate) entry: u32,
    /// Its frame's slots: the rule's locals, then the loops'.
    pub(crate) slots: u32,
}

/// Every body of a program, flattened.
#[derive(Debug, Default)]
pub(crate) struct Flat {
    code: Vec<Instr>,
    /// The arms of every `match` (see [`Instr::Match`]).
    arms: Vec<u32>,
    /// The places of [`Instr::Store`]s.
    stores: Vec<Store>,
    /// The filters of `for`s that test only the element's fields (see [`Instr::ForNext`]).
    fields: Vec<FieldFilter>,
    procs: Vec<Body>,
    actions: Vec<Body>,
    /// The number of every block's first statement, counting the program's statements block
    /// after block, then the count of them all: [`Flat::statement`].
    first_statements: Vec<u32>,
}

impl Flat {
    /// Flattens every procedure's and action's body.
    pub(crate) fn compile(program: &Program) -> Flat {
        let mut c = Compiler {
            program,
            flat: Flat::default(),
            next_slot: 0,
            slots: 0,
            loops: Vec::new(),
            in_logs_only: false,
        };
        for p in &program.procs {
            let body = c.body(p.body, p.locals);
            c.flat.procs.push(body);
        }
        for a in &program.actions {
            let body = c.body(a.body, a.locals);
            c.flat.actions.push(body);
        }
        let mut next = 0u32;
        for block in &program.blocks {
            c.flat.first_statements.push(next);
            next = next.saturating_add(block.stmts.len() as u32);
        }
        c.flat.first_statements.push(next);
        c.flat
    }

    /// How many statements the program has: the numbers of [`Flat::statement`] are below it.
    pub(crate) fn statements(&self) -> usize {
        self.first_statements.last().map_or(0, |n| *n as usize)
    }

    /// The number of the statement at `here`, from 0, unique in the program: an index for
    /// counts kept per statement.
    #[inline]
    pub(crate) fn statement(&self, here: Here) -> usize {
        self.statement_at(here.block, here.index as usize)
            .unwrap_or(usize::MAX)
    }

    /// The number of statement `index` of `block` ([`Flat::statement`]), if there is one.
    pub(crate) fn statement_at(&self, block: BlockId, index: usize) -> Option<usize> {
        let first = *self.first_statements.get(block.index())? as usize;
        let next = *self.first_statements.get(block.index() + 1)? as usize;
        (first + index < next).then_some(first + index)
    }

    /// The number of instructions.
    pub(crate) fn len(&self) -> usize {
        self.code.len()
    }

    /// The instruction at `pc`.
    #[inline(always)]
    pub(crate) fn get(&self, pc: u32) -> Instr {
        self.code[pc as usize]
    }

    /// The first instruction of a `match`'s arm `i` (see [`Instr::Match`]).
    #[inline]
    pub(crate) fn arm(&self, arms: u32, i: usize) -> u32 {
        self.arms[arms as usize + i]
    }

    /// The place of an [`Instr::Store`].
    #[inline(always)]
    pub(crate) fn store(&self, i: u32) -> Store {
        self.stores[i as usize]
    }

    /// The field filter of a `for` ([`Instr::ForNext`]), if it has one.
    #[inline]
    pub(crate) fn fields(&self, i: u16) -> Option<&FieldFilter> {
        self.fields.get(i as usize)
    }

    /// Every procedure's body, by `ProcId`.
    #[inline]
    pub(crate) fn procs(&self) -> &[Body] {
        &self.procs
    }

    /// A procedure's body.
    #[inline]
    pub(crate) fn proc(&self, p: crate::ir::ProcId) -> Body {
        self.procs[p.index()]
    }

    /// An action's body.
    #[inline]
    pub(crate) fn action(&self, a: crate::ir::ActionId) -> Body {
        self.actions[a.index()]
    }
}

/// A loop being compiled: where its `continue` goes (or the instructions waiting to learn it),
/// the `break`s waiting for its end, and a `for`'s list slot.
struct LoopJumps {
    continue_to: Option<u32>,
    continues: Vec<usize>,
    breaks: Vec<usize>,
    list: Option<Slot>,
}

struct Compiler<'a> {
    program: &'a Program,
    flat: Flat,
    /// The next free slot for a loop's state, and the most the body has needed.
    next_slot: usize,
    slots: usize,
    loops: Vec<LoopJumps>,
    /// Whether the statement being compiled lies inside one that only logs (whose
    /// [`Instr::LogsOnly`] covers it already).
    in_logs_only: bool,
}

impl Compiler<'_> {
    /// An assignment's place resolved to indices, when it is a local, a global, or a variable
    /// of the seat or instance in a local.
    fn store_of(&self, place: &Place) -> Option<Store> {
        Some(match place {
            Place::Local(s) => Store::Local(*s),
            Place::Global(g) => Store::Global(g.index() as u32),
            Place::PlayerVar(p, v) => match p.kind {
                ExprKind::Local(slot) => Store::Seat {
                    slot,
                    column: v.index() as u32,
                },
                _ => return None,
            },
            Place::Field(x, k, f) => match x.kind {
                ExprKind::Local(slot) => Store::Field {
                    slot,
                    kind: k.index() as u32,
                    column: f.index() as u32,
                },
                _ => return None,
            },
        })
    }

    fn here(&self) -> u32 {
        self.flat.code.len() as u32
    }

    fn emit(&mut self, i: Instr) -> usize {
        self.flat.code.push(i);
        self.flat.code.len() - 1
    }

    /// Points the jump of instruction `at` (its exit, skip, next or target) to `to`.
    fn patch(&mut self, at: usize, to: u32) {
        match &mut self.flat.code[at] {
            Instr::If { skip, .. } => *skip = to,
            Instr::BlockEnd { next, .. } => *next = to,
            Instr::Break { target, .. } | Instr::Continue { target, .. } => *target = to,
            Instr::WhileStart { exit, .. }
            | Instr::RepeatStart { exit, .. }
            | Instr::ForNext { exit, .. }
            | Instr::Secretly { exit, .. }
            | Instr::SecretNext { exit, .. }
            | Instr::Window { exit, .. } => *exit = to,
            Instr::Jump(t) | Instr::LogsOnly { past: t, .. } => *t = to,
            other => unreachable!("no jump to patch in {other:?}"),
        }
    }

    /// A fresh slot for a loop's state, after the rule's locals and the slots of the loops
    /// around it.
    fn slot(&mut self) -> Slot {
        let s = self.next_slot;
        self.next_slot += 1;
        self.slots = self.slots.max(self.next_slot);
        Slot::try_from(s).unwrap_or(Slot::MAX)
    }

    fn body(&mut self, block: BlockId, locals: usize) -> Body {
        let entry = self.here();
        self.next_slot = locals;
        self.slots = locals;
        self.loops.clear();
        self.block(block);
        self.emit(Instr::EndBody);
        Body {
            entry,
            slots: self.slots as u32,
        }
    }

    fn block(&mut self, block: BlockId) {
        let program = self.program;
        for (index, stmt) in program.block(block).stmts.iter().enumerate() {
            let here = Here {
                block,
                index: index as u32,
            };
            self.stmt(here, &stmt.kind);
        }
    }

    /// A block that runs once, then goes past the statement that opened it: the jump at its
    /// end is returned, to be pointed there.
    fn once(&mut self, here: Here, block: BlockId) -> usize {
        self.block(block);
        self.emit(Instr::BlockEnd { here, next: 0 })
    }

    fn stmt(&mut self, here: Here, kind: &S) {
        let covers = !self.in_logs_only
            && !matches!(kind, S::Log(_) | S::Tell { .. })
            && only_logs(self.program, kind);
        if !covers {
            return self.stmt_itself(here, kind);
        }
        let at = self.emit(Instr::LogsOnly { here, past: 0 });
        self.in_logs_only = true;
        self.stmt_itself(here, kind);
        self.in_logs_only = false;
        let past = self.here();
        self.patch(at, past);
    }

    fn stmt_itself(&mut self, here: Here, kind: &S) {
        match kind {
            S::If {
                cond,
                then,
                otherwise,
            } => self.if_else(here, cond.root, *then, *otherwise),
            S::Match {
                arms,
                none,
                otherwise,
                ..
            } => self.match_table(here, arms, *none, *otherwise),
            S::While { cond, body } => {
                let cond = cond.root;
                self.counted_loop(
                    *body,
                    |runs| Instr::WhileStart {
                        here,
                        runs,
                        exit: 0,
                        cond,
                    },
                    |runs, body| Instr::WhileEnd {
                        here,
                        runs,
                        body,
                        cond,
                    },
                )
            }
            S::Repeat { body, .. } => self.counted_loop(
                *body,
                |left| Instr::RepeatStart {
                    here,
                    left,
                    exit: 0,
                },
                |left, body| Instr::RepeatEnd { here, left, body },
            ),
            S::For {
                body, slot, filter, ..
            } => self.for_loop(here, *body, *slot, filter.as_ref()),
            S::Secretly { then, .. } => self.secretly(here, *then),
            S::Return => {
                self.emit(Instr::Return(here));
            }
            S::Break => self.break_out(here),
            S::Continue => self.continue_on(here),
            S::Let(slot, e) => {
                let value = match e.kind {
                    ExprKind::Local(_) | ExprKind::Const(_) => NOT_ROOT,
                    _ => e.root,
                };
                self.emit(Instr::Let {
                    here,
                    slot: *slot,
                    value,
                });
            }
            S::Assign { place, .. } => self.assign(here, place),
            S::Call { .. } => {
                self.emit(Instr::Call(here));
            }
            S::Choose { .. } => {
                self.emit(Instr::Choose(here));
            }
            S::Turn { .. } => {
                self.emit(Instr::Turn(here));
            }
            S::Ask { .. } => {
                self.emit(Instr::Ask(here));
            }
            S::Window { .. } => self.window(here),
            S::Log(_) | S::Tell { .. } => {
                self.emit(Instr::Log(here));
            }
            S::Roll { .. }
            | S::Random { .. }
            | S::Shuffle { .. }
            | S::Pop { .. }
            | S::Finish(..)
            | S::Eliminate { .. }
            | S::Reveal { .. } => {
                self.emit(Instr::Stmt(here));
            }
        }
    }

    /// An assignment: a store when its place is known now, else one found when it runs.
    fn assign(&mut self, here: Here, place: &Place) {
        match self.store_of(place) {
            Some(place) => {
                let store = self.flat.stores.len() as u32;
                self.flat.stores.push(place);
                self.emit(Instr::Store { here, store });
            }
            None => {
                self.emit(Instr::Assign(here));
            }
        }
    }

    /// A `window`: its entry, then the round that runs until every seat has declined, going
    /// past the statement when it ends.
    fn window(&mut self, here: Here) {
        self.emit(Instr::WindowStart(here));
        let at = self.emit(Instr::Window { here, exit: 0 });
        self.emit(Instr::Jump(at as u32));
        let past = self.here();
        self.patch(at, past);
    }

    /// An `if`: a test that skips the `then` block, which jumps past the `else` block, if any.
    fn if_else(&mut self, here: Here, cond: u32, then: BlockId, otherwise: Option<BlockId>) {
        let test = self.emit(Instr::If {
            here,
            skip: 0,
            cond,
        });
        let mut ends = vec![self.once(here, then)];
        let skip = self.here();
        self.patch(test, skip);
        if let Some(o) = otherwise {
            ends.push(self.once(here, o));
        }
        let past = self.here();
        for e in ends {
            self.patch(e, past);
        }
    }

    /// A `match`: a table of where each arm's block starts (then `none`'s and the `else`'s),
    /// every block jumping past the statement.
    fn match_table(
        &mut self,
        here: Here,
        arms: &[Option<BlockId>],
        none: Option<BlockId>,
        otherwise: Option<BlockId>,
    ) {
        let table = self.flat.arms.len();
        let width = arms.len() + 2;
        self.flat.arms.resize(table + width, NO_ARM);
        self.emit(Instr::Match {
            here,
            arms: table as u32,
        });
        // Arms that share a block share its instructions.
        let blocks: Vec<Option<BlockId>> = arms.iter().copied().chain([none, otherwise]).collect();
        let mut ends = Vec::new();
        let mut compiled: Vec<(BlockId, u32)> = Vec::new();
        for (i, b) in blocks.iter().enumerate() {
            let Some(b) = *b else { continue };
            let start = match compiled.iter().find(|(c, _)| *c == b) {
                Some(&(_, start)) => start,
                None => {
                    let start = self.here();
                    ends.push(self.once(here, b));
                    compiled.push((b, start));
                    start
                }
            };
            self.flat.arms[table + i] = start;
        }
        let past = self.here();
        for e in ends {
            self.patch(e, past);
        }
    }

    /// A `for`: its list and position in two slots, and a pass that takes the next element
    /// (through the filter of its fields, when one was compiled).
    fn for_loop(&mut self, here: Here, body: BlockId, slot: Slot, filter: Option<&Expr>) {
        let list = self.slot();
        let next = self.slot();
        self.emit(Instr::ForStart { here, list, next });
        // A filter of the element's fields is run over the elements in one loop.
        // (Only a filter compiled as a root: a program whose roots are not numbered, walked by the
        // reference walker of the tests, evaluates it as an expression too.)
        let compiled = filter.filter(|f| f.root != crate::ir::NOT_ROOT);
        let fields = match compiled.and_then(|f| FieldFilter::new(f, slot)) {
            Some(ff) if self.flat.fields.len() < NO_FIELDS as usize => {
                self.flat.fields.push(ff);
                (self.flat.fields.len() - 1) as u16
            }
            _ => NO_FIELDS,
        };
        let pass = self.emit(Instr::ForNext {
            here,
            list,
            next,
            slot,
            fields,
            filtered: filter.is_some(),
            exit: 0,
        });
        self.loop_body(body, Some(pass as u32), Some(list));
        self.emit(Instr::Jump(pass as u32));
        self.close_loop(pass, pass as u32);
        self.next_slot -= 2;
    }

    /// `secretly`'s block, run once per chooser by the engine's own loop.
    fn secretly(&mut self, here: Here, then: BlockId) {
        let start = self.emit(Instr::Secretly { here, exit: 0 });
        let next = self.emit(Instr::SecretNext { here, exit: 0 });
        // The block runs once per chooser: a loop of the engine's, which `break` and
        // `continue` cannot name (the checker refuses them there).
        let outer = std::mem::take(&mut self.loops);
        self.block(then);
        self.loops = outer;
        self.emit(Instr::Jump(next as u32));
        let past = self.here();
        self.patch(start, past);
        self.patch(next, past);
    }

    /// `break`: a jump past the innermost loop, patched when the loop closes.
    fn break_out(&mut self, here: Here) {
        let list = self.loops.last().and_then(|l| l.list);
        let at = self.emit(Instr::Break {
            here,
            target: 0,
            list,
        });
        if let Some(l) = self.loops.last_mut() {
            l.breaks.push(at);
        }
    }

    /// `continue`: a jump to the innermost loop's next pass, patched when the loop closes if
    /// that is not known yet.
    fn continue_on(&mut self, here: Here) {
        let to = self.loops.last().and_then(|l| l.continue_to);
        let at = self.emit(Instr::Continue {
            here,
            target: to.unwrap_or(0),
        });
        if let (None, Some(l)) = (to, self.loops.last_mut()) {
            l.continues.push(at);
        }
    }

    /// A `while` or a `repeat`: a start that may skip the loop, its body, and an end of pass
    /// that goes back to the body's first instruction, with a slot for the count between.
    fn counted_loop(
        &mut self,
        body: BlockId,
        start: impl FnOnce(Slot) -> Instr,
        end: impl FnOnce(Slot, u32) -> Instr,
    ) {
        let count = self.slot();
        let start = self.emit(start(count));
        let first = self.here();
        self.loop_body(body, None, None);
        let end = self.emit(end(count, first));
        self.close_loop(start, end as u32);
        self.next_slot -= 1;
    }

    /// A loop's body, with `break` and `continue` inside it addressing this loop.
    fn loop_body(&mut self, body: BlockId, continue_to: Option<u32>, list: Option<Slot>) {
        self.loops.push(LoopJumps {
            continue_to,
            continues: Vec::new(),
            breaks: Vec::new(),
            list,
        });
        self.block(body);
    }

    /// Ends the innermost loop: its start's exit and its `break`s go past it, its `continue`s
    /// to `end` (the end of its pass).
    fn close_loop(&mut self, start: usize, end: u32) {
        let jumps = self.loops.pop().expect("a loop being compiled");
        let past = self.here();
        self.patch(start, past);
        for b in jumps.breaks {
            self.patch(b, past);
        }
        for c in jumps.continues {
            self.patch(c, end);
        }
    }
}

/// True if `kind` only writes to the log: a `log` or `tell` line, or an `if`, `match` or `for`
/// whose blocks hold nothing else (empty ones included). Running it changes nothing but the
/// log: its conditions, values and lists are pure, and a `for` ends with its list. (`while`
/// and `repeat` are left out: a loop that only logs is rare, and `while` may not end.)
fn only_logs(program: &Program, kind: &S) -> bool {
    let block = |b: &BlockId| {
        program
            .block(*b)
            .stmts
            .iter()
            .all(|s| only_logs(program, &s.kind))
    };
    match kind {
        S::Log(_) | S::Tell { .. } => true,
        S::If {
            then, otherwise, ..
        } => block(then) && otherwise.iter().all(block),
        S::Match {
            arms,
            none,
            otherwise,
            ..
        } => arms.iter().chain([none, otherwise]).flatten().all(block),
        S::For { body, .. } => block(body),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::check_source;

    fn flat(src: &str) -> (Flat, std::sync::Arc<Program>) {
        let loaded = check_source("t.rules", src);
        let program = loaded.program.expect("the rules check");
        (Flat::compile(&program), std::sync::Arc::new(program))
    }

    #[test]
    fn places_known_when_compiling_are_stores_the_others_assignments() {
        let (f, _) = flat(
            r#"game "T" { players 2 }
kind cube[2] { w: int = 0  owner: player = none }
var n: int = 0
var top: cube = none
player var m: int = 0
flow {
  let c = first(cube)
  let p = first(players)
  n = 1
  c.w = 2
  p.m = 3
  c = last(cube)
  top.w = 4
  c.owner.m = 5
}
"#,
        );
        let stores: Vec<Store> = f
            .code
            .iter()
            .filter_map(|i| match *i {
                Instr::Store { store, .. } => Some(f.store(store)),
                _ => None,
            })
            .collect();
        assert!(
            matches!(
                stores[..],
                [
                    Store::Global(0),
                    Store::Field {
                        slot: 0,
                        kind: 0,
                        column: 0
                    },
                    Store::Seat { slot: 1, column: 0 },
                    Store::Local(0),
                ]
            ),
            "{stores:?}"
        );
        let general = f
            .code
            .iter()
            .filter(|i| matches!(i, Instr::Assign(_)))
            .count();
        assert_eq!(
            general, 2,
            "a place an expression gives is found when running"
        );
    }

    #[test]
    fn a_for_whose_filter_tests_only_fields_runs_it_in_one_loop_unless_walked() {
        let src = r#"game "T" { players 2 }
kind cube[3] { w: int = index  owner: player = none }
var n: int = 0
flow {
  let p = first(players)
  for c in cube where c.w > 0 and c.owner != p { n += 1 }
  for c in cube where count(players) > c.w { n += 1 }
  for q in players where q != p { n += 1 }
  for c in cube { n += 1 }
}
"#;
        let fields = |f: &Flat| -> Vec<bool> {
            f.code
                .iter()
                .filter_map(|i| match *i {
                    Instr::ForNext { fields, .. } => Some(fields != NO_FIELDS),
                    _ => None,
                })
                .collect()
        };
        let (f, program) = flat(src);
        assert_eq!(fields(&f), [true, false, false, false]);
        assert_eq!(f.fields.len(), 1);
        let mut walked = (*program).clone();
        crate::ir::roots::clear_roots(&mut walked);
        assert_eq!(fields(&Flat::compile(&walked)), [false; 4]);
    }

    #[test]
    fn every_jump_lands_inside_the_code() {
        let (f, _) = flat(
            r#"game "T" { players 2 }
var n: int = 0
flow {
  while n < 3 {
    n += 1
    if n == 2 { continue } else { n += 0 }
    for p in players where p != none {
      if n > 5 { break }
    }
    repeat 2 { n += 0 }
  }
}
action pass { }
"#,
        );
        let len = f.len() as u32;
        for i in &f.code {
            let targets: Vec<u32> = match *i {
                Instr::If { skip, .. } => vec![skip],
                Instr::BlockEnd { next, .. } => vec![next],
                Instr::Break { target, .. } | Instr::Continue { target, .. } => vec![target],
                Instr::WhileStart { exit, .. }
                | Instr::RepeatStart { exit, .. }
                | Instr::ForNext { exit, .. }
                | Instr::Secretly { exit, .. }
                | Instr::SecretNext { exit, .. } => vec![exit],
                Instr::WhileEnd { body, .. } | Instr::RepeatEnd { body, .. } => vec![body],
                Instr::Jump(t) => vec![t],
                _ => vec![],
            };
            for t in targets {
                assert!(t < len, "{i:?} jumps to {t}, past {len}");
            }
        }
        // `continue` in the while goes to its end of pass; `break` in the for lets go of its
        // list and goes past it.
        let cont = f
            .code
            .iter()
            .find_map(|i| match *i {
                Instr::Continue { target, .. } => Some(target),
                _ => None,
            })
            .expect("a continue");
        assert!(matches!(f.code[cont as usize], Instr::WhileEnd { .. }));
        let (target, list) = f
            .code
            .iter()
            .find_map(|i| match *i {
                Instr::Break { target, list, .. } => Some((target, list)),
                _ => None,
            })
            .expect("a break");
        assert!(list.is_some(), "a break out of a for lets go of its list");
        assert!(
            matches!(f.code[target as usize], Instr::RepeatStart { .. }),
            "the break goes past the for, to the repeat after it: {:?}",
            f.code[target as usize]
        );
    }

    #[test]
    fn loops_keep_their_state_past_the_rules_locals_and_siblings_share_it() {
        let (f, program) = flat(
            r#"game "T" { players 2 }
flow {
  let a = 1
  for p in players { for q in players { } }
  for p in players { }
  while false { }
}
action pass { }
"#,
        );
        let flow = f.proc(program.flow);
        let locals = program.procs[program.flow.index()].locals as u32;
        // Two nested fors take four slots; the later loops reuse them.
        assert_eq!(flow.slots, locals + 4);
    }

    #[test]
    fn a_statement_that_only_logs_is_skipped_as_a_whole_and_nothing_else_is() {
        let (f, _) = flat(
            r#"game "T" { players 2 }
enum suit { red, blue }
var n: int = 0
var s: suit = red
flow {
  if n > 0 { log "a" } else if n < 0 { tell first(players) "b" } else { }
  match s { red { log "c" } else { } }
  for p in players where n > 0 { if p == first(players) { log "{p}" } }
  if n > 1 { }
  log "e"
  if n > 2 { log "f"  n += 1 }
  for p in players { log "g"  break }
  while n > 3 { log "h" }
}
action pass { }
"#,
        );
        let skips: Vec<(usize, u32)> = (0..f.code.len())
            .filter_map(|pc| match f.code[pc] {
                Instr::LogsOnly { past, .. } => Some((pc, past)),
                _ => None,
            })
            .collect();
        // The first four statements, each once (not the `if`s nested in them); not the `log`
        // of its own, nor the statements that also assign, break or loop while.
        assert_eq!(skips.len(), 4, "{:?}", f.code);
        for (i, &(pc, past)) in skips.iter().enumerate() {
            let next = skips.get(i + 1).map_or(u32::MAX, |&(at, _)| at as u32);
            assert!(past as usize > pc + 1 && past <= next, "{pc} -> {past}");
            // Only the statement's own instructions are skipped: branches, arms, lines, the
            // loop's passes and the ends of blocks, with nothing that changes the state.
            let covered = &f.code[pc + 1..past as usize];
            assert!(
                covered.iter().all(|i| matches!(
                    i,
                    Instr::If { .. }
                        | Instr::Match { .. }
                        | Instr::Log(_)
                        | Instr::BlockEnd { .. }
                        | Instr::ForStart { .. }
                        | Instr::ForNext { .. }
                        | Instr::Jump(_)
                )),
                "{covered:?}"
            );
        }
        // The `log` of its own comes right after the last skipped statement.
        let (_, past) = skips[3];
        assert!(matches!(f.code[past as usize], Instr::Log(_)));
    }
}
