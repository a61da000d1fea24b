//! The statement machine: frames over one stack of slots, stepping through the flattened
//! bodies of `compile::flat`, stopping at any decision and resuming where it stopped.
//!
//! Expressions never stop; only `turn`, `choose`, `ask` and `secretly` do. A frame is the
//! position of its next instruction and where its slots start on the stack; a loop keeps its
//! state in slots of its frame. All of it is plain data, so a paused game can be cloned, backed
//! up and restored.

use super::compile::flat::{Body, Here, Instr, NO_ARM, NO_FIELDS};
use super::compile::Code;
use super::eval::Eval;
use super::spare;
use super::statements::{clamp, Asked};
use super::Table;
use super::{Game, Outcome, Pending, RuntimeError, SecretChoice, Turn};
use crate::diag::Span;
use crate::ir::{self, BlockId, StmtKind as S, Value};
use std::sync::Arc;

/// Bounds that stop runaway rules.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Operations between two decisions: statements, loop passes, calls and the list elements
    /// loops and queries look at, build or scan, all counted against one budget.
    pub steps_per_decision: u64,
    /// Times one `while` or `repeat` loop may run.
    pub loop_iterations: u64,
    /// Decisions in one game.
    pub decisions: usize,
    /// Depth of nested effect and phase calls.
    pub call_depth: usize,
    /// List elements a game may hold at once, in all its variables and fields, a list within
    /// a list counted whole ([`Game::check_live`]).
    pub live_elements: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            steps_per_decision: 10_000_000,
            loop_iterations: 100_000,
            decisions: 100_000,
            call_depth: 200,
            live_elements: 4_000_000,
        }
    }
}

/// A running body: its next instruction, and where its slots start on the game's stack (they
/// run to the next frame's, or to the stack's end for the innermost).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    pc: u32,
    base: u32,
}

/// A `secretly` block running once per chooser: the choices, all made, and the next to run.
#[derive(Debug, Clone)]
pub(crate) struct SecretLoop {
    /// How many frames were running when it started: it belongs to the innermost of them.
    pub(super) frame: usize,
    pub(super) choices: Vec<SecretChoice>,
    pub(super) next: usize,
}

/// Which blocks of statements have run, by block id: empty (and never written) unless the game
/// notes them ([`super::Mode::coverage`]). A copy starts empty, so that the games a bot
/// imagines neither copy it nor count as the game played.
#[derive(Debug, Default)]
pub(super) struct BlocksRun(Vec<bool>);

impl BlocksRun {
    /// `blocks` blocks, none run yet (none noted at all if `blocks` is 0).
    pub(super) fn new(blocks: usize) -> BlocksRun {
        BlocksRun(vec![false; blocks])
    }

    /// Notes that `block` has begun to run: called where a block is entered with its first
    /// statement next (a call, a branch taken, a loop's pass), not at every statement.
    #[inline]
    pub(super) fn note(&mut self, block: BlockId) {
        if let Some(ran) = self.0.get_mut(block.index()) {
            *ran = true;
        }
    }

    /// Whether blocks are noted (a game started with `Mode::coverage`).
    #[inline(always)]
    pub(super) fn noting(&self) -> bool {
        !self.0.is_empty()
    }

    /// The blocks run, if noted.
    pub(super) fn get(&self) -> Option<&[bool]> {
        self.noting().then_some(self.0.as_slice())
    }

    /// Notes exactly what `source` noted, in this buffer: a game started again from a
    /// [`super::Start`] notes what that start did (its flow and setup entered), and nothing of
    /// the game before.
    pub(super) fn copy_from(&mut self, source: &BlocksRun) {
        self.0.clone_from(&source.0);
    }
}

impl Clone for BlocksRun {
    fn clone(&self) -> BlocksRun {
        BlocksRun::default()
    }
}

/// What takes the decisions of a playout where they arise ([`Game::run_picking`]): the pick
/// of an option among a seat's options, the count of decisions at which to stop, and the pick
/// it refused (out of range), left pending.
pub(crate) struct Picker<'p> {
    pub(crate) pick: &'p mut dyn FnMut(u8, usize) -> usize,
    pub(crate) stop: usize,
    pub(crate) refused: Option<(u8, usize)>,
}

/// What became of a decision a [`Picker`] was offered where it arose.
enum Picked {
    /// Taken: the machine steps on.
    Taken,
    /// Left pending: the machine stops.
    Left,
    /// Not offered: it is to be asked as usual.
    NotYet,
}

/// The program and its code, held by the machine between runs so that a run borrows them
/// without counting a reference (an atomic write) at every decision. A copy of a game starts
/// without them: it takes its own at its first run.
#[derive(Debug, Default)]
pub(crate) struct Held(Option<(Arc<ir::Program>, Arc<Code>)>);

impl Clone for Held {
    fn clone(&self) -> Held {
        Held(None)
    }
}

impl Held {
    /// Lets go of what is held unless it is `program` and `code`: a game that becomes a copy
    /// of another (or starts again) takes its own at its next run, as a copy does.
    pub(super) fn keep_for(&mut self, program: &Arc<ir::Program>, code: &Arc<Code>) {
        if self
            .0
            .as_ref()
            .is_some_and(|(p, c)| !Arc::ptr_eq(p, program) || !Arc::ptr_eq(c, code))
        {
            self.0 = None;
        }
    }
}

/// The most lines a game's log may hold.
pub const MAX_LOG: usize = 1_000_000;

pub use crate::ir::MAX_PARAMS;

/// What a failed move must put back. Lists are shared with the game until it writes them,
/// so a backup copies handles, not elements.
pub(crate) struct Backup {
    state: super::State,
    rng: super::Rng,
    fixed: Option<Box<super::fixed::Fixed>>,
    frames: Vec<Frame>,
    stack: Vec<Value>,
    secrets: Vec<SecretLoop>,
    pending: Option<Pending>,
    outcome: Option<Outcome>,
    log_len: usize,
    history_len: usize,
    trail_len: usize,
    decisions: usize,
}

impl Backup {
    pub(crate) fn take(g: &Game) -> Backup {
        Backup {
            state: g.state.clone(),
            rng: g.rng.clone(),
            fixed: g.fixed.clone(),
            frames: g.frames.clone(),
            stack: g.stack.clone(),
            secrets: g.secrets.clone(),
            pending: g.pending.clone(),
            outcome: g.outcome.clone(),
            log_len: g.log.len(),
            history_len: g.history.len(),
            trail_len: g.trail_len(),
            decisions: g.decisions,
        }
    }

    pub(crate) fn restore(self, g: &mut Game) {
        g.state = self.state;
        g.rng = self.rng;
        g.fixed = self.fixed;
        g.frames = self.frames;
        g.stack = self.stack;
        g.secrets = self.secrets;
        g.pending = self.pending;
        g.outcome = self.outcome;
        g.log.truncate(self.log_len);
        g.history.truncate(self.history_len);
        g.truncate_trail(self.trail_len);
        g.decisions = self.decisions;
    }
}

/// What the machine's steps give: the error boxed, so that a result as small as a value comes
/// back in registers rather than through memory (a wide result read back as a whole after
/// the callee wrote it in parts stalls the load: measured, 8 to 11% of a playout's time).
pub(super) type R<T> = Result<T, Box<RuntimeError>>;

pub(super) fn err(
    code: &'static str,
    msg: impl Into<String>,
    span: Span,
    help: &str,
) -> Box<RuntimeError> {
    Box::new(RuntimeError::new(code, msg, span, help))
}

impl From<Box<RuntimeError>> for RuntimeError {
    fn from(e: Box<RuntimeError>) -> RuntimeError {
        *e
    }
}

/// The statement at an instruction's place.
#[inline(always)]
fn statement(program: &ir::Program, at: super::At) -> &ir::Stmt {
    &program.blocks[at.0.index()].stmts[at.1]
}

impl Game {
    /// Initial values, instances, then the setup and flow frames.
    ///
    /// Every slot exists (as `none`) before any initial value is evaluated, so an initial value
    /// that reads another variable never reads out of bounds. Instances come first, so that a
    /// variable may start as a list of them (`var deck: list of card = card`).
    pub(super) fn init(&mut self) -> R<()> {
        // The values before setup follow from the program and the player count alone (initial
        // values read no chance): each thread computes them once and copies them after.
        if !super::initial::recall(&self.program, &mut self.state) {
            self.initial_values()?;
            super::initial::remember(&self.program, &self.state);
        }
        self.state.clear_revealed();
        // What the game holds from the start, from which the meter's bound grows.
        super::live::measure(&self.state);
        let program = self.program.clone();
        for id in std::iter::once(program.flow).chain(program.setup) {
            let body = self.state.domains.code.flat.proc(id);
            self.push_frame(body, 0, program.procs[id.index()].body);
        }
        if self.mode.coverage {
            self.clamps = super::clamps::Clamps::new(self.state.domains.code.flat.statements());
        }
        Ok(())
    }

    /// Every variable's and field's initial value, and the names of instances.
    fn initial_values(&mut self) -> R<()> {
        let program = self.program.clone();
        let mut locals = vec![Value::None; program.init_locals.max(1)];
        self.state.touch();
        self.state.globals = vec![Value::None; program.globals.len()];
        self.state.player_vars = Table::new(self.state.players as usize, program.player_vars.len());
        self.state.entities = vec![Table::default(); program.kinds.len()];
        // Kind counts are roots too: their code is in place before the instances are counted.
        let code = std::sync::Arc::new(super::compile::Code::compile(&program));
        self.state.domains = std::sync::Arc::new(super::Domains {
            code: code.clone(),
            ..Default::default()
        });
        self.count_instances(&program, &mut locals)?;
        let seats: ir::List = (0..self.state.players).map(Value::player).collect();
        let instances: Vec<ir::List> = (0..program.kinds.len())
            .map(|k| {
                (0..self.state.entities[k].len() as u32)
                    .map(|i| Value::entity(ir::KindId(k as u32), i))
                    .collect()
            })
            .collect();
        let enum_values: Vec<ir::List> = program
            .enums
            .iter()
            .enumerate()
            .map(|(e, def)| {
                (0..def.values.len() as u16)
                    .map(|i| Value::enum_value(ir::EnumId(e as u32), i))
                    .collect()
            })
            .collect();
        let sets = super::sets::all_sets(&program, &seats, &instances, &enum_values)?;
        self.state.domains = std::sync::Arc::new(super::Domains {
            seats,
            instances,
            enum_values,
            sets,
            code,
        });
        self.initialise_in_order(&program, &mut locals)?;
        let labels = self.instance_labels(&program)?;
        self.state.labels = std::sync::Arc::new(labels);
        Ok(())
    }

    /// The number of instances of every kind, each between 0 and 10000, as tables of their
    /// fields (all `none` yet).
    fn count_instances(&mut self, program: &ir::Program, locals: &mut [Value]) -> R<()> {
        for (k, kind) in program.kinds.iter().enumerate() {
            let n = Eval::new(program, &self.state).int(&kind.count, locals)?;
            if !(0..=ir::MAX_INSTANCES).contains(&n) {
                return Err(err(
                    "bad-count",
                    format!("`{}` would have {n} instances", kind.name),
                    kind.count.span,
                    "give a kind from 0 to 10000 instances",
                ));
            }
            self.state.entities[k] = Table::new(n as usize, kind.fields.len());
        }
        Ok(())
    }

    /// The initial values of fields, globals and player variables, each after what it reads
    /// (the program's `init_order`), each clamped to its bounds.
    fn initialise_in_order(&mut self, program: &ir::Program, locals: &mut [Value]) -> R<()> {
        for item in &program.init_order {
            match *item {
                ir::InitItem::Fields(k) => {
                    let kind = &program.kinds[k.index()];
                    for i in 0..self.state.entities[k.index()].len() {
                        if let Some(slot) = kind.index_slot {
                            locals[slot as usize].put(Value::Int(i as i64 + 1));
                        }
                        if let (Some(slot), Some(&r)) = (kind.rows.0, kind.rows.1.get(i)) {
                            locals[slot as usize].put(Value::Int(i64::from(r)));
                        }
                        for (f, field) in kind.fields.iter().enumerate() {
                            let v = Eval::new(program, &self.state).expr(&field.init, locals)?;
                            *self.state.entities[k.index()].get_mut(i, f) =
                                clamp(v, field.bounds_for(self.state.players));
                            self.state.touch();
                        }
                    }
                }
                ir::InitItem::Global(g) => {
                    let def = &program.globals[g.index()];
                    let v = Eval::new(program, &self.state).expr(&def.init, locals)?;
                    self.state.globals[g.index()] = clamp(v, def.bounds_for(self.state.players));
                    self.state.touch();
                }
                ir::InitItem::PlayerVar(id) => {
                    let def = &program.player_vars[id.index()];
                    for p in 0..self.state.players as usize {
                        let v = Eval::new(program, &self.state).expr(&def.init, locals)?;
                        *self.state.player_vars.get_mut(p, id.index()) =
                            clamp(v, def.bounds_for(self.state.players));
                        self.state.touch();
                    }
                }
            }
        }
        Ok(())
    }

    /// The names of every kind's instances by its label (empty for a kind without one), a
    /// repeated name told apart by `#2`, `#3`...
    fn instance_labels(&self, program: &ir::Program) -> R<Vec<Vec<String>>> {
        let mut labels = Vec::new();
        for (k, kind) in program.kinds.iter().enumerate() {
            let mut names: Vec<String> = Vec::new();
            if let Some((text, n)) = &kind.label {
                for i in 0..self.state.entities[k].len() {
                    let mut l = vec![Value::None; (*n).max(1)];
                    l[0].put(Value::entity(ir::KindId(k as u32), i as u32));
                    let mut name = Eval::new(program, &self.state).text(text, &mut l)?;
                    // Names must tell instances apart, since moves are typed by name.
                    let repeats = names
                        .iter()
                        .filter(|x| x.split('#').next() == Some(name.as_str()))
                        .count();
                    if repeats > 0 {
                        name = format!("{name}#{}", repeats + 1);
                    }
                    names.push(name);
                }
            }
            labels.push(names);
        }
        Ok(labels)
    }

    /// A new frame running `body`, its slots all `none`, the first `args` of them at least.
    pub(super) fn push_frame(&mut self, body: Body, args: usize, block: BlockId) {
        let base = self.stack.len();
        let size = (body.slots as usize).max(args);
        self.stack.resize_with(base + size, || Value::None);
        self.start_frame(body.entry, base, block);
    }

    /// Starts a frame at `entry` whose slots, already on the stack, start at `base`.
    pub(super) fn start_frame(&mut self, entry: u32, base: usize, block: BlockId) {
        self.ran.note(block);
        self.frames.push(Frame {
            pc: entry,
            base: base as u32,
        });
    }

    /// The innermost frame returns: its slots and its `secretly` blocks are let go of.
    pub(super) fn pop_frame(&mut self) {
        if let Some(frame) = self.frames.pop() {
            self.stack.truncate(frame.base as usize);
            let depth = self.frames.len();
            while self.secrets.last().is_some_and(|s| s.frame > depth) {
                if let Some(s) = self.secrets.pop() {
                    spare::give_secret_choices(s.choices);
                }
            }
        }
    }

    /// Every frame returns: the game is over or failed.
    pub(super) fn clear_frames(&mut self) {
        self.frames.clear();
        self.stack.clear();
        for s in self.secrets.drain(..) {
            spare::give_secret_choices(s.choices);
        }
    }

    /// The innermost frame's slots.
    #[inline]
    pub(super) fn locals(&mut self) -> &mut [Value] {
        let base = self.frames.last().expect("a running frame").base as usize;
        &mut self.stack[base..]
    }

    /// One of the innermost frame's slots, to write.
    #[inline]
    pub(super) fn local_mut(&mut self, slot: ir::Slot) -> &mut Value {
        &mut self.locals()[slot as usize]
    }

    /// One of the innermost frame's slots, to read.
    #[inline]
    pub(super) fn local_at(&self, slot: ir::Slot) -> &Value {
        let base = self.frames.last().expect("a running frame").base as usize;
        &self.stack[base + slot as usize]
    }

    /// The innermost frame's slots, read only (empty when no frame runs).
    pub(super) fn locals_now(&self) -> &[Value] {
        match self.frames.last() {
            Some(f) => &self.stack[f.base as usize..],
            None => &[],
        }
    }

    /// Runs statements until a decision is pending or the game is over, all on one budget of
    /// work.
    pub(super) fn run(&mut self) -> R<()> {
        self.state.work.arm();
        let result = self.run_armed(None);
        self.state.work.disarm();
        result?;
        self.check_live()
    }

    /// Runs statements as [`Game::run`] does, but takes each decision that arises with
    /// `picker` where it arises, as [`Game::play_out`] would between runs, each on a budget of
    /// its own: the machine neither stops nor starts again for it. Stops where `play_out`
    /// would: at the decision limit the picker allows, at a pick out of range (left pending,
    /// noted in the picker), or at the game's end.
    pub(super) fn run_picking(&mut self, picker: &mut Picker<'_>) -> R<()> {
        self.state.work.arm();
        let result = self.run_armed(Some(picker));
        self.state.work.disarm();
        result?;
        self.check_live()
    }

    /// Spends the unit of work of a statement or of a block's end, blamed on `span`.
    #[inline(always)]
    fn spend_on(&self, span: Span) -> R<()> {
        if self.state.work.spend(1) {
            Ok(())
        } else {
            Err(work_spent(self.state.work.budget(), span))
        }
    }

    /// Spends a unit for each of the `n` elements a `for` will look at, passing or not, when it
    /// starts: its filter costs nothing of its own (as a query's: see `Eval::visit`).
    fn spend_elements(&self, n: usize, span: Span) -> R<()> {
        if self.state.work.spend(n as u64) {
            Ok(())
        } else {
            Err(work_spent(self.state.work.budget(), span))
        }
    }

    /// Spends the unit of work of the statement at `here`, looked up only to blame it when
    /// the budget is spent.
    #[inline(always)]
    fn spend_at(&self, program: &ir::Program, here: Here) -> R<()> {
        if self.state.work.spend(1) {
            Ok(())
        } else {
            Err(work_spent(
                self.state.work.budget(),
                statement(program, here.at()).span,
            ))
        }
    }

    /// Whether the condition of the `if` or `while` at `here` holds: its code found by its
    /// root `cond`, the statement looked up only when it has none (a program whose roots are not numbered).
    #[inline(always)]
    fn holds(&mut self, program: &ir::Program, here: Here, cond: u32) -> R<bool> {
        if let Some(code) = self.state.domains.code.condition(cond) {
            let base = self.frames.last().expect("a running frame").base;
            return code(
                &mut Eval::new(&self.program, &self.state),
                &mut self.stack[base as usize..],
            );
        }
        match &statement(program, here.at()).kind {
            S::If { cond, .. } | S::While { cond, .. } => self.eval_with(|ev, l| ev.bool(cond, l)),
            _ => unreachable!("a condition's instruction on an if or a while"),
        }
    }

    /// Notes the block that the `if`, `while` or `for` at `here` enters (an `if`'s `then` when
    /// `taken`, else its `else`), in a game that counts the blocks run.
    #[inline(always)]
    fn note_entered(&mut self, program: &ir::Program, here: Here, taken: bool) {
        if !self.ran.noting() {
            return;
        }
        let block = match &statement(program, here.at()).kind {
            S::If {
                then, otherwise, ..
            } => taken.then_some(*then).or(*otherwise),
            S::While { body, .. } | S::For { body, .. } => Some(*body),
            _ => None,
        };
        if let Some(b) = block {
            self.ran.note(b);
        }
    }

    /// The value of the `let` at `here`: its code found by its root `value`, the statement
    /// looked up only when it has none (a local or a constant, read in place).
    #[inline(always)]
    fn let_value(&mut self, program: &ir::Program, here: Here, value: u32) -> R<Value> {
        if let Some(code) = self.state.domains.code.root(value) {
            let base = self.frames.last().expect("a running frame").base;
            return code(
                &mut Eval::new(&self.program, &self.state),
                &mut self.stack[base as usize..],
            );
        }
        let S::Let(_, e) = &statement(program, here.at()).kind else {
            unreachable!("a let instruction on a let")
        };
        self.eval(e)
    }

    /// Goes on at instruction `pc` of the innermost frame.
    #[inline(always)]
    fn jump(&mut self, pc: u32) {
        if let Some(f) = self.frames.last_mut() {
            f.pc = pc;
        }
    }

    /// The program and its code, to borrow while the game changes: give them back with
    /// [`Game::give_back`].
    pub(super) fn hold(&mut self) -> (Arc<ir::Program>, Arc<Code>) {
        match self.held.0.take() {
            Some(held) => held,
            None => (self.program.clone(), self.state.domains.code.clone()),
        }
    }

    /// Gives back what [`Game::hold`] lent.
    pub(super) fn give_back(&mut self, held: (Arc<ir::Program>, Arc<Code>)) {
        self.held.0 = Some(held);
    }

    fn run_armed(&mut self, picker: Option<&mut Picker<'_>>) -> R<()> {
        let held = self.hold();
        let result = self.steps(&held.0, &held.1.flat, picker);
        self.give_back(held);
        result
    }

    /// Takes the pending decisions with `picker`, as [`Game::play_out`] takes them between
    /// runs; true if the machine may step on (no decision pending, a fresh budget), false if
    /// it must stop (no picker, the picker's limit, a pick out of range, the game over).
    #[inline]
    fn picked(&mut self, program: &ir::Program, picker: &mut Option<&mut Picker<'_>>) -> R<bool> {
        let Some(picker) = picker.as_deref_mut().filter(|p| p.refused.is_none()) else {
            return Ok(false);
        };
        while let Some(seat) = self.to_decide() {
            if self.decisions >= picker.stop {
                return Ok(false);
            }
            let count = self.option_count(seat);
            let index = (picker.pick)(seat, count);
            if index >= count {
                picker.refused = Some((seat, index));
                return Ok(false);
            }
            // An error in taking it belongs to the decision being taken.
            let number = self.decisions + 1;
            self.decide_in(program, seat, index)
                .map_err(|e| e.in_decision(number))?;
        }
        // The next run's budget, as `play_out` would start it.
        self.state.work.arm();
        Ok(self.outcome.is_none())
    }

    /// Answers the `ask` `stmt` at `here` with `picker` as [`Game::picked`] would take it once
    /// asked, the answer in its slot and a fresh budget; asks it, the pick refused, when the
    /// pick is out of range.
    #[inline(never)]
    fn ask_picked(
        &mut self,
        picker: &mut Picker<'_>,
        stmt: &ir::Stmt,
        here: super::At,
    ) -> R<Picked> {
        let S::Ask {
            slot,
            player,
            prompt,
            ..
        } = &stmt.kind
        else {
            return Ok(Picked::NotYet);
        };
        let seat = self.seat_of(player)?;
        self.still_in(seat, stmt.span)?;
        let index = (picker.pick)(seat, 2);
        if index >= 2 {
            let prompt = self.eager_text(prompt)?;
            let ask = Pending::Ask {
                player: seat,
                prompt,
                slot: *slot,
                at: here,
            };
            return Ok(self.refuse(picker, ask, seat, index));
        }
        self.answer(*slot, Value::bool(index == 0))
    }

    /// The seat `player` names: a local read in place, as an evaluator reads it (no work
    /// spent), without setting one up.
    #[inline(always)]
    pub(super) fn seat_of(&mut self, player: &ir::Expr) -> R<u8> {
        if let Some(Value::Player(p)) = self.local(player) {
            return Ok(p.get());
        }
        self.eval_with(|ev, l| ev.player(player, l))
    }

    /// Leaves `pending` to be decided, `seat`'s pick `index` refused.
    fn refuse(
        &mut self,
        picker: &mut Picker<'_>,
        pending: Pending,
        seat: u8,
        index: usize,
    ) -> Picked {
        self.pending = Some(pending);
        picker.refused = Some((seat, index));
        Picked::Left
    }

    /// Counts a decision taken in place (an error in counting it belongs to it).
    #[inline(always)]
    fn count_in_place(&mut self) -> R<()> {
        let number = self.decisions + 1;
        self.count_decision()
            .map_err(|e| Box::new(e.in_decision(number)))
    }

    /// A decision taken in place: counted, `answer` in `slot`, and a fresh budget.
    #[inline(always)]
    fn answer(&mut self, slot: ir::Slot, answer: Value) -> R<Picked> {
        self.count_in_place()?;
        self.local_mut(slot).put(answer);
        self.state.work.arm();
        Ok(Picked::Taken)
    }

    /// Takes the `turn` `stmt` at `here` with `picker` as [`Game::picked`] would take it once
    /// listed: the move's body started, a fresh budget; leaves it pending, the pick refused,
    /// when the pick is out of range.
    #[inline(never)]
    fn turn_picked(
        &mut self,
        program: &ir::Program,
        picker: &mut Picker<'_>,
        stmt: &ir::Stmt,
        here: super::At,
    ) -> R<Picked> {
        let S::Turn { player, actions } = &stmt.kind else {
            return Ok(Picked::NotYet);
        };
        let seat = self.seat_of(player)?;
        // A player out of the game has no turn: it is skipped, as by `exec`.
        if self.state.is_out(seat) {
            return Ok(Picked::Taken);
        }
        let turn = self.legal_moves(program, seat, actions, here)?;
        if turn.moves.is_empty() {
            self.recycle(turn);
            return Err(super::statements::no_legal_move(
                self.seat_name(seat),
                stmt.span,
            ));
        }
        let count = turn.moves.len();
        let index = (picker.pick)(seat, count);
        if index >= count {
            return Ok(self.refuse(picker, Pending::Turn(turn), seat, index));
        }
        if let Err(e) = self.count_in_place() {
            self.recycle(turn);
            return Err(e);
        }
        self.start_move(program, seat, turn, index);
        self.state.work.arm();
        Ok(Picked::Taken)
    }

    /// Takes the `choose` (of one element) `stmt` at `here` with `picker` as [`Game::picked`]
    /// would take it once asked: the choice in its slot, a fresh budget. One option is taken
    /// without asking, as always (no decision). Leaves a choice of several elements to be
    /// asked as usual, and leaves it pending, the pick refused, when the pick is out of range.
    #[inline(never)]
    fn choose_picked(
        &mut self,
        program: &ir::Program,
        picker: &mut Picker<'_>,
        stmt: &ir::Stmt,
        here: super::At,
    ) -> R<Picked> {
        let S::Choose {
            slot,
            prompt,
            secret,
            count: None,
            ..
        } = &stmt.kind
        else {
            return Ok(Picked::NotYet);
        };
        let (seat, options) = match self.offer(program, stmt)? {
            super::statements::Offer::Ask { seat, options, .. } => (seat, options),
            super::statements::Offer::Only { option, .. } => {
                *self.local_mut(*slot) = option;
                return Ok(Picked::Taken);
            }
            super::statements::Offer::Nothing => return Ok(Picked::NotYet),
        };
        let count = options.len();
        let index = (picker.pick)(seat, count);
        if index >= count {
            let prompt = self.eager_text(prompt)?;
            let choose = Pending::Choose {
                player: seat,
                prompt,
                options,
                slot: *slot,
                secret: *secret,
                at: here,
                pick: None,
            };
            return Ok(self.refuse(picker, choose, seat, index));
        }
        let answer = options[index].clone();
        self.answer(*slot, answer)
    }

    /// Steps through instructions until a decision is pending (and `picker` does not take
    /// it) or the game is over.
    // Long because it is the statement machine's dispatch loop: one match over every
    // instruction, an arm each, kept in one function so that the playout's hot loop is one.
    fn steps(
        &mut self,
        program: &ir::Program,
        flat: &super::compile::flat::Flat,
        mut picker: Option<&mut Picker<'_>>,
    ) -> R<()> {
        if (self.pending.is_some() && !self.picked(program, &mut picker)?) || self.outcome.is_some()
        {
            return Ok(());
        }
        loop {
            let Some(frame) = self.frames.last_mut() else {
                return self.finish(None);
            };
            let pc = frame.pc;
            frame.pc = pc + 1;
            match flat.get(pc) {
                Instr::Let { here, slot, value } => {
                    self.spend_at(program, here)?;
                    let v = self.let_value(program, here, value)?;
                    self.local_mut(slot).put(v);
                }
                instr @ (Instr::Assign(here) | Instr::Store { here, .. }) => {
                    let stmt = statement(program, here.at());
                    self.spend_on(stmt.span)?;
                    let S::Assign {
                        place,
                        op,
                        value,
                        element,
                    } = &stmt.kind
                    else {
                        unreachable!("an assign instruction on an assignment")
                    };
                    let store = match instr {
                        Instr::Store { store, .. } => Some(flat.store(store)),
                        _ => None,
                    };
                    if self.assign(store, place, *op, value, *element, stmt.span)? {
                        self.clamps.note(flat.statement(here));
                    }
                }
                Instr::Call(here) => {
                    let stmt = statement(program, here.at());
                    self.spend_on(stmt.span)?;
                    self.call(program, flat.procs(), stmt)?;
                }
                Instr::Log(here) => {
                    self.spend_at(program, here)?;
                    // A playout keeps no log, so its lines are not even rendered.
                    if self.mode.record || self.replay.is_some() {
                        self.exec(program, statement(program, here.at()), here.at())?;
                    }
                }
                Instr::LogsOnly { here, past } => {
                    // Nor does it run a statement that only writes to the log, unless it
                    // notes the blocks run (`meeple sim` reports those never run).
                    if !self.mode.record && !self.ran.noting() && self.replay.is_none() {
                        self.spend_at(program, here)?;
                        self.jump(past);
                    }
                }
                // Short of the picker's limit: past it, the decision is asked and left pending.
                instr @ (Instr::Ask(here) | Instr::Turn(here) | Instr::Choose(here))
                    if picker.as_ref().is_some_and(|p| self.decisions < p.stop) =>
                {
                    let stmt = statement(program, here.at());
                    self.spend_on(stmt.span)?;
                    // A decision that the picker takes is taken where it arises: no pending
                    // decision is made, listed and taken apart again.
                    let picked = match (picker.as_deref_mut(), instr) {
                        (Some(p), Instr::Ask(_)) => self.ask_picked(p, stmt, here.at())?,
                        (Some(p), Instr::Turn(_)) => {
                            self.turn_picked(program, p, stmt, here.at())?
                        }
                        (Some(p), _) => self.choose_picked(program, p, stmt, here.at())?,
                        (None, _) => Picked::NotYet,
                    };
                    match picked {
                        Picked::Taken => {}
                        Picked::Left => return Ok(()),
                        Picked::NotYet => {
                            self.exec(program, stmt, here.at())?;
                            if !self.picked(program, &mut picker)? {
                                return Ok(());
                            }
                        }
                    }
                }
                Instr::Choose(here) | Instr::Ask(here) | Instr::Turn(here) | Instr::Stmt(here) => {
                    let stmt = statement(program, here.at());
                    self.spend_on(stmt.span)?;
                    self.exec(program, stmt, here.at())?;
                    if self.outcome.is_some()
                        || (self.pending.is_some() && !self.picked(program, &mut picker)?)
                    {
                        return Ok(());
                    }
                }
                Instr::WindowStart(here) => {
                    self.spend_at(program, here)?;
                    let stmt = statement(program, here.at());
                    if let S::Window {
                        players,
                        seats_slot,
                        seat_slot,
                        quiet_slot,
                        ..
                    } = &stmt.kind
                    {
                        let seats = self.eval_with(|ev, l| ev.list(players, l))?;
                        self.local_mut(*seats_slot).put(Value::List(seats));
                        self.local_mut(*seat_slot).put(Value::Int(0));
                        self.local_mut(*quiet_slot).put(Value::Int(0));
                    }
                }
                Instr::Window { here, exit } => {
                    let stmt = statement(program, here.at());
                    self.spend_on(stmt.span)?;
                    if !self.window_turn(program, stmt, here.at())? {
                        self.jump(exit);
                    } else if self.outcome.is_some()
                        || (self.pending.is_some() && !self.picked(program, &mut picker)?)
                    {
                        return Ok(());
                    }
                }
                Instr::If { here, skip, cond } => {
                    self.spend_at(program, here)?;
                    let holds = self.holds(program, here, cond)?;
                    self.note_entered(program, here, holds);
                    if !holds {
                        self.jump(skip);
                    }
                }
                Instr::Match { here, arms } => {
                    let stmt = statement(program, here.at());
                    self.spend_on(stmt.span)?;
                    let S::Match {
                        value,
                        arms: blocks,
                        none,
                        otherwise,
                    } = &stmt.kind
                    else {
                        unreachable!("a match instruction on a match")
                    };
                    // The arm's place in the table: the value's own, `none`'s after them, and
                    // the `else` arm last.
                    let (block, at) = match self.eval(value)? {
                        Value::Enum(x)
                            if blocks.get(x.index() as usize).copied().flatten().is_some() =>
                        {
                            (blocks[x.index() as usize], x.index() as usize)
                        }
                        Value::Enum(..) => (None, usize::MAX),
                        _ => (*none, blocks.len()),
                    };
                    let (block, at) = match (block, *otherwise) {
                        (Some(b), _) => (b, at),
                        (None, Some(o)) => (o, blocks.len() + 1),
                        (None, None) => {
                            return Err(err(
                                "no-value",
                                "`match` of `none`, and no arm takes `none`",
                                value.span,
                                "add an arm `none { ... }` or `else { ... }`, or make sure the value is set",
                            ))
                        }
                    };
                    let start = flat.arm(arms, at);
                    debug_assert!(start != NO_ARM, "an arm that runs has instructions");
                    self.ran.note(block);
                    self.jump(start);
                }
                Instr::BlockEnd { here, next } => {
                    self.spend_at(program, here)?;
                    self.jump(next);
                }
                Instr::EndBody => {
                    // A body's end is no statement's: the error names no place.
                    self.spend_on(Span::default())?;
                    self.pop_frame();
                }
                Instr::Return(here) => {
                    self.spend_at(program, here)?;
                    self.pop_frame();
                }
                Instr::Break { here, target, list } => {
                    self.spend_at(program, here)?;
                    if let Some(l) = list {
                        self.local_mut(l).put(Value::None);
                    }
                    self.jump(target);
                }
                Instr::Continue { here, target } => {
                    self.spend_at(program, here)?;
                    self.jump(target);
                }
                Instr::WhileStart {
                    here,
                    runs,
                    exit,
                    cond,
                } => {
                    self.spend_at(program, here)?;
                    if self.holds(program, here, cond)? {
                        self.note_entered(program, here, true);
                        self.local_mut(runs).put(Value::Int(1));
                    } else {
                        self.jump(exit);
                    }
                }
                Instr::WhileEnd {
                    here,
                    runs,
                    body,
                    cond,
                } => {
                    self.spend_at(program, here)?;
                    let limit = self.limits.loop_iterations;
                    let count = self.local_mut(runs);
                    let n = match count {
                        Value::Int(n) => *n + 1,
                        _ => 1,
                    };
                    count.put(Value::Int(n));
                    if n as u64 > limit {
                        return Err(err(
                            "loop-limit",
                            format!("this loop ran more than {limit} times"),
                            statement(program, here.at()).span,
                            "make sure the loop's condition becomes false",
                        ));
                    }
                    if self.holds(program, here, cond)? {
                        self.jump(body);
                    }
                }
                Instr::RepeatStart { here, left, exit } => {
                    let stmt = statement(program, here.at());
                    self.spend_on(stmt.span)?;
                    let S::Repeat { count, body } = &stmt.kind else {
                        unreachable!("a repeat instruction on a repeat")
                    };
                    let n = self.eval_with(|ev, l| ev.int(count, l))?;
                    if n as u64 > self.limits.loop_iterations && n > 0 {
                        return Err(err(
                            "loop-limit",
                            format!(
                                "`repeat {n}` is more than {} times",
                                self.limits.loop_iterations
                            ),
                            stmt.span,
                            "repeat fewer times",
                        ));
                    }
                    if n > 0 {
                        self.ran.note(*body);
                        self.local_mut(left).put(Value::Int(n));
                    } else {
                        self.jump(exit);
                    }
                }
                Instr::RepeatEnd { here, left, body } => {
                    self.spend_at(program, here)?;
                    let count = self.local_mut(left);
                    let n = match count {
                        Value::Int(n) => *n - 1,
                        _ => 0,
                    };
                    count.put(Value::Int(n));
                    if n > 0 {
                        self.jump(body);
                    }
                }
                Instr::ForStart { here, list, next } => {
                    let stmt = statement(program, here.at());
                    self.spend_on(stmt.span)?;
                    let S::For { source, .. } = &stmt.kind else {
                        unreachable!("a for instruction on a for")
                    };
                    let items = self.eval_with(|ev, l| ev.list(source, l))?;
                    self.spend_elements(items.len(), stmt.span)?;
                    let locals = self.locals();
                    locals[list as usize].put(Value::List(items));
                    locals[next as usize].put(Value::Int(0));
                }
                Instr::ForNext {
                    here,
                    list,
                    next,
                    slot,
                    fields,
                    filtered,
                    exit,
                } => {
                    self.spend_at(program, here)?;
                    let found = match flat.fields(fields) {
                        Some(ff) if fields != NO_FIELDS => self.seek_element(ff, slot, list, next),
                        _ => None,
                    };
                    let found = match found {
                        Some(found) => found,
                        None if !filtered => self.next_element(slot, None, list, next)?,
                        None => {
                            let S::For { filter, .. } = &statement(program, here.at()).kind else {
                                unreachable!("a for instruction on a for")
                            };
                            self.next_element(slot, filter.as_ref(), list, next)?
                        }
                    };
                    if found {
                        self.note_entered(program, here, true);
                    } else {
                        self.local_mut(list).put(Value::None);
                        self.jump(exit);
                    }
                }
                Instr::Secretly { here, exit } => {
                    let stmt = statement(program, here.at());
                    self.spend_on(stmt.span)?;
                    match self.ask_secretly(stmt, here.at())? {
                        Asked::Nobody => self.jump(exit),
                        Asked::Chosen => {}
                        Asked::Waiting => {
                            if !self.picked(program, &mut picker)? {
                                return Ok(());
                            }
                        }
                    }
                }
                Instr::SecretNext { here, exit } => {
                    let stmt = statement(program, here.at());
                    self.spend_on(stmt.span)?;
                    let S::Secretly {
                        player_slot,
                        choice_slot,
                        then,
                        ..
                    } = &stmt.kind
                    else {
                        unreachable!("a secretly instruction on a secretly")
                    };
                    let Some(secret) = self.secrets.last_mut() else {
                        unreachable!("a secretly block runs with its choices")
                    };
                    if let Some(c) = secret.choices.get(secret.next) {
                        secret.next += 1;
                        let seat = Value::player(c.seat);
                        let choice = match &c.pick {
                            Some(pick) => pick.result(&c.options),
                            None => c.options[c.chosen.unwrap_or(0)].clone(),
                        };
                        let locals = self.locals();
                        locals[*player_slot as usize].put(seat);
                        locals[*choice_slot as usize].put(choice);
                        self.ran.note(*then);
                    } else {
                        if let Some(s) = self.secrets.pop() {
                            spare::give_secret_choices(s.choices);
                        }
                        self.jump(exit);
                    }
                }
                Instr::Jump(target) => self.jump(target),
            }
        }
    }

    /// Binds the next element of a `for`'s list (in slot `list`, from the position in slot
    /// `next`) that passes its filter to `slot`; false when none is left.
    /// [`Self::next_element`] of a `for` whose filter tests only the element's fields, in one
    /// loop: no evaluator set up and no closure called for each element. It leaves the slots
    /// as the general path does, but only where it can tell it would not fail: `None` (nothing
    /// changed) where an element cannot be read here; the general path then looks, and fails
    /// as it fails. (The elements' work was spent when the loop started.)
    #[inline(never)]
    fn seek_element(
        &mut self,
        ff: &super::compile::fields::FieldFilter,
        slot: ir::Slot,
        list: ir::Slot,
        next: ir::Slot,
    ) -> Option<bool> {
        let base = self.frames.last()?.base as usize;
        let locals = &self.stack[base..];
        let (Value::Int(i), Value::List(xs)) = (&locals[next as usize], &locals[list as usize])
        else {
            return None;
        };
        let start = usize::try_from(*i).ok()?;
        if start >= xs.len() {
            return Some(false);
        }
        let found = ff.seek(&self.state, locals, xs, (start, false), true)?;
        // The last element looked at stays in the slot, as when each is bound in turn.
        let last = found.unwrap_or(xs.len() - 1);
        let item = xs[last].clone();
        let locals = self.locals();
        locals[next as usize].put(Value::Int(last as i64 + 1));
        locals[slot as usize].put(item);
        Some(found.is_some())
    }

    fn next_element(
        &mut self,
        slot: ir::Slot,
        filter: Option<&ir::Expr>,
        list: ir::Slot,
        next: ir::Slot,
    ) -> R<bool> {
        loop {
            let locals = self.locals();
            let i = match locals[next as usize] {
                Value::Int(i) => i as usize,
                _ => return Ok(false),
            };
            let item = match &locals[list as usize] {
                Value::List(xs) if i < xs.len() => xs[i].clone(),
                _ => return Ok(false),
            };
            locals[next as usize].put(Value::Int(i as i64 + 1));
            locals[slot as usize].put(item);
            let pass = match filter {
                Some(f) => self.eval_with(|ev, l| ev.bool(f, l))?,
                None => true,
            };
            if pass {
                return Ok(true);
            }
        }
    }

    /// Evaluates an expression in the innermost frame.
    pub(super) fn eval(&mut self, e: &ir::Expr) -> R<Value> {
        // The commonest argument and instance of a place (`t.coins = []`) is a local, and the
        // commonest value a constant: read without setting up an evaluator (for no work, as an
        // evaluator reads either).
        let read = match &e.kind {
            ir::ExprKind::Local(s) => self.locals_now().get(*s as usize),
            ir::ExprKind::Const(v) => Some(v),
            _ => None,
        };
        if let Some(v) = read {
            return Ok(v.clone());
        }
        let base = self.frames.last().expect("a running frame").base as usize;
        Eval::new(&self.program, &self.state).expr(e, &mut self.stack[base..])
    }

    /// The value of the innermost frame's local that `e` reads, if `e` is a local.
    #[inline]
    pub(super) fn local(&self, e: &ir::Expr) -> Option<&Value> {
        let ir::ExprKind::Local(s) = e.kind else {
            return None;
        };
        self.locals_now().get(s as usize)
    }

    /// Runs `f` with an evaluator and the innermost frame's slots.
    pub(super) fn eval_with<T>(
        &mut self,
        f: impl FnOnce(&mut Eval, &mut [Value]) -> super::eval::R<T>,
    ) -> R<T> {
        let base = self.frames.last().expect("a running frame").base as usize;
        f(
            &mut Eval::new(&self.program, &self.state),
            &mut self.stack[base..],
        )
    }

    /// Keeps a consumed turn's vectors for the next turn.
    pub(super) fn recycle(&mut self, turn: Turn) {
        let Turn {
            mut moves,
            mut args,
            ..
        } = turn;
        moves.clear();
        spare::clear_values(&mut args);
        // The kept vectors were taken for this turn, leaving empty ones without a buffer:
        // nothing to drop when these take their place (dropping even an empty vector of
        // values is a call, at every turn).
        if self.kept.moves.capacity() == 0 {
            std::mem::forget(std::mem::replace(&mut self.kept.moves, moves));
        } else {
            self.kept.moves = moves;
        }
        if self.kept.args.capacity() == 0 {
            std::mem::forget(std::mem::replace(&mut self.kept.args, args));
        } else {
            self.kept.args = args;
        }
    }

    /// Asks the pending decision again after the state was changed by hand, so that its
    /// options follow the new state. Deciding statements have no effects before they pause,
    /// so running one again is safe; a secret choice that some have already made is kept.
    pub(super) fn refresh_pending(&mut self) -> R<()> {
        match &self.pending {
            None => return Ok(()),
            Some(Pending::Secret { choices, .. }) if choices.iter().any(|c| c.chosen.is_some()) => {
                return Ok(())
            }
            Some(_) => {}
        }
        let Some(frame) = self.frames.last_mut() else {
            return Ok(());
        };
        // The frame stands just after the instruction that paused.
        frame.pc = frame.pc.saturating_sub(1);
        self.pending = None;
        self.run()
    }

    /// Checks every declared invariant; the first that fails is an error at its declaration.
    pub(super) fn check_invariants(&self) -> R<()> {
        let program = &self.program;
        for inv in &program.invariants {
            let mut locals = vec![Value::None; inv.check.locals.max(1)];
            if !Eval::new(program, &self.state).bool(&inv.check.body, &mut locals)? {
                let what = inv.description.clone().unwrap_or_else(|| inv.name.clone());
                // The values of its parts, when it has parts (`all(...)` is simply no).
                let values = match inv.check.body.kind {
                    ir::ExprKind::Binary(..) => format!(
                        "; {}",
                        super::explain::explain(program, &self.state, &inv.check.body, &mut locals)
                    ),
                    _ => String::new(),
                };
                return Err(err(
                    "invariant-broken",
                    format!("invariant `{}` no longer holds: {what}{values}", inv.name),
                    inv.check.body.span,
                    "a rule changed the state in a way the invariant forbids; the last decision was undone",
                ));
            }
        }
        Ok(())
    }
}

/// The error when the operation budget runs out.
pub(super) fn work_spent(budget: u64, span: Span) -> Box<RuntimeError> {
    Box::new(RuntimeError::new(
        "step-limit",
        format!(
            "more than {budget} operations (statements, loop passes, calls, list elements visited, built or read) without a decision"
        ),
        span,
        "a loop or a recursion here may never end, or builds or reads far more than a rule should; make sure it stops",
    ))
}
