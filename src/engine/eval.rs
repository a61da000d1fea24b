//! Evaluation of expressions and texts against a state. Pure: no randomness, no writes but to
//! the local slots a query binds.

use super::error::RuntimeError;
use super::state::State;
use crate::diag::Span;
use crate::ir::{self, BinOp, Builtin, ExprKind as K, List, Program, Value};

/// Deepest nesting of function calls before a runaway recursion is stopped.
pub const MAX_CALL_DEPTH: usize = 200;

/// The longest text a rule may build (a log line, a label, a prompt), in bytes.
pub const MAX_TEXT: usize = 100_000;

/// The stack a def's body may need, its expression nested as deep as the checker allows: when
/// less is left, the body runs on a new segment of [`STACK_SEGMENT`] bytes.
const STACK_RED_ZONE: usize = 1 << 20;

/// Calls nested this shallow run without asking how much stack is left (most calls: the question
/// costs more than a small def): their bodies together fit on any thread's stack.
const UNGUARDED_CALLS: usize = 4;

/// The size of each new stack segment.
const STACK_SEGMENT: usize = 8 << 20;
/// Slots a def's frame may need to live on the stack rather than in a pooled vector.
pub(super) const SMALL_FRAME: usize = 8;

/// Longest list a range may build.
pub const MAX_LIST: i64 = 100_000;

/// Elements a list scan reads for one unit of work: `x in xs`, `sum(xs)`, `position(xs, x)`
/// spend `len / SCAN_STRIDE` units, so that a scan of a long list in a loop runs out of budget
/// as the loop would if it were written out, while a scan of a short list costs nothing.
/// Building a list spends a unit for every element built (see [`Eval::build`]).
pub const SCAN_STRIDE: usize = 16;

/// The work of reading `len` elements of a list in one step.
#[inline(always)]
pub(super) fn scan_work(len: usize) -> u64 {
    (len / SCAN_STRIDE) as u64
}

thread_local! {
    /// Expressions this thread compiled on the spot, being no root (see [`on_the_spot`]).
    static ON_THE_SPOT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many expressions this thread has compiled on the spot because they were no root of
/// their program: none in play, where every expression is a root or inside one (the tests
/// hold the roots to that).
pub fn on_the_spot() -> u64 {
    ON_THE_SPOT.with(|n| n.get())
}

/// What an expression reads: the program, the state and the current frame's locals.
pub struct Eval<'a> {
    /// The program.
    pub program: &'a Program,
    /// The state read.
    pub state: &'a State,
    /// The compiled code of the program's roots, for this game.
    code: &'a super::compile::Code,
    pub(super) depth: usize,
    /// The work left, taken from the state's meter and handed back when this evaluation ends.
    /// Only what repeats spends from it (a node costs nothing): calls and the elements a query
    /// visits, which check it, and lists built or scanned, which spend without a check (it
    /// wraps below zero) and fail at the next.
    work: u64,
    /// The deepest `depth` reached since the innermost remembered call began.
    peak: usize,
}

impl Drop for Eval<'_> {
    fn drop(&mut self) {
        let left = if self.work > self.state.work.budget() {
            0
        } else {
            self.work
        };
        self.state.work.set_left(left);
    }
}

/// The elements of `passed` that `top` (the greatest, when `top`) or `bottom` keep: narrowed by
/// each of `keys` keys in turn to those tied on it, a later key read only for the elements still
/// tied (and not at all once one is left); `key(n, element)` reads key `n` of an element.
pub(super) fn ranked(
    passed: &List,
    keys: usize,
    top: bool,
    mut key: impl FnMut(usize, &Value) -> R<i64>,
) -> R<List> {
    let mut tied = super::spare::indices();
    let mut values = super::spare::values();
    let mut narrow = || -> R<List> {
        tied.extend(0..passed.len());
        for n in 0..keys {
            if n > 0 && tied.len() <= 1 {
                break;
            }
            values.clear();
            for &i in tied.iter() {
                values.push(Value::Int(key(n, &passed[i])?));
            }
            let best = if top {
                values.iter().max()
            } else {
                values.iter().min()
            };
            let Some(best) = best.cloned() else { break };
            let mut at = 0;
            tied.retain(|_| {
                at += 1;
                values[at - 1] == best
            });
        }
        Ok(tied.iter().map(|i| passed[*i].clone()).collect())
    };
    let result = narrow();
    super::spare::give_values(values);
    super::spare::give_indices(tied);
    result
}

/// Errors are boxed so that a result is as small as a value: results are returned by every
/// node of every expression.
pub(super) type R<T> = Result<T, Box<RuntimeError>>;

pub(super) fn err(
    code: &'static str,
    msg: impl Into<String>,
    span: Span,
    help: &str,
) -> Box<RuntimeError> {
    Box::new(RuntimeError::new(code, msg, span, help))
}

pub(super) fn take_call_frame(len: usize) -> Vec<Value> {
    let mut frame = super::spare::values();
    frame.resize_with(len, || Value::None);
    frame
}

/// A list read for a query: borrowed where it lies in the state, or held.
pub(super) enum Items<'a> {
    /// A variable's or field's list, a list of every instance, seat or enum value, or a
    /// local's list read where it lies (by code that evaluates nothing while it reads).
    Lies(&'a [Value]),
    /// A list computed or read from a local.
    Held(List),
}

impl std::ops::Deref for Items<'_> {
    type Target = [Value];
    fn deref(&self) -> &[Value] {
        match self {
            Items::Lies(xs) => xs,
            Items::Held(xs) => xs,
        }
    }
}

impl<'a> Eval<'a> {
    /// An evaluator over a state.
    pub fn new(program: &'a Program, state: &'a State) -> Eval<'a> {
        state.work.fresh();
        Eval {
            program,
            state,
            code: &state.domains.code,
            depth: 0,
            work: state.work.left(),
            peak: 0,
        }
    }

    /// Fails once the work budget is spent.
    #[inline]
    pub(super) fn check_work(&self, span: Span) -> R<()> {
        if self.work > self.state.work.budget() {
            return Err(super::exec::work_spent(self.state.work.budget(), span));
        }
        Ok(())
    }

    /// Spends a unit for each of the `n` list elements a query is about to visit, and fails
    /// at `span` (the list's) once the budget is spent: the work of the whole loop charged
    /// before its first pass, so that code visiting the elements in one step spends what a
    /// loop over them does.
    #[inline]
    pub(super) fn visit(&mut self, n: usize, span: Span) -> R<()> {
        self.spend(n as u64);
        self.check_work(span)
    }

    /// Spends the work of building `n` list elements in one step (a range, a concatenation, a
    /// sorted or shortened copy): a unit each, so that a decision's budget bounds the memory
    /// its rules fill as it bounds their time.
    #[inline]
    pub(super) fn build(&mut self, n: usize) {
        self.spend(n as u64);
    }

    /// Spends `n` units of work without a check (see [`Eval::check_work`]).
    #[inline(always)]
    pub(super) fn spend(&mut self, n: u64) {
        self.work = self.work.wrapping_sub(n);
    }

    /// Evaluates an expression: by its compiled code when it is a numbered root, compiled on
    /// the spot when it is no root.
    #[inline]
    pub fn expr(&mut self, e: &ir::Expr, locals: &mut [Value]) -> R<Value> {
        if let Some(code) = self.code.root(e.root) {
            return code(self, locals);
        }
        self.once(e, locals)
    }

    /// Evaluates an expression that is no root of a compiled program (one typed at the REPL, a
    /// part of a requirement explained): compiled now and run once. In a build with the
    /// reference walker (tests only), a program whose roots are not numbered is walked instead.
    #[cold]
    fn once(&mut self, e: &ir::Expr, locals: &mut [Value]) -> R<Value> {
        #[cfg(any(test, feature = "reference"))]
        if !self.code.is_compiled() {
            return self.walk(e, locals);
        }
        ON_THE_SPOT.with(|n| n.set(n.get() + 1));
        let code = super::compile::Code::once(e);
        code(self, locals)
    }

    /// The error of a call nested deeper than [`MAX_CALL_DEPTH`].
    #[cold]
    pub(super) fn too_deep(&self, id: ir::DefId, span: Span) -> Box<RuntimeError> {
        err(
            "call-depth",
            format!(
                "`{}` called itself more than {MAX_CALL_DEPTH} deep",
                self.program.defs[id.index()].name
            ),
            span,
            "make sure the recursion reaches a case that does not call again",
        )
    }

    /// Runs a def's body in its frame, whose first `args` slots hold the arguments, or gives
    /// the value remembered for the same call on the same state.
    #[inline(never)]
    pub(super) fn enter(&mut self, id: ir::DefId, frame: &mut [Value], args: usize) -> R<Value> {
        let def = &self.program.defs[id.index()];
        // A remembered def with the same arguments, on the same state, gives the same
        // value (see `memo`); a hit spends the same work, and runs the call instead when
        // the work left or the depth would not have let it finish.
        let key = if def.remembered {
            // The results of a def that reads few variables last until one of them is written.
            let state = self.state;
            let epoch = match &def.reads {
                Some(reads) => state.written.last(reads, state.epoch),
                None => state.epoch,
            };
            super::memo::key(epoch, id, def.gives_list, &frame[..args])
        } else {
            None
        };
        if let Some(key) = &key {
            let (work_now, budget, depth_now) = (self.work, self.state.work.budget(), self.depth);
            let mut left = work_now;
            let fits = |work: u64, depth: u32| {
                left = work_now.wrapping_sub(work);
                left <= budget && depth_now + depth as usize <= MAX_CALL_DEPTH
            };
            if let Some(v) = super::memo::recall_if(key, fits) {
                self.work = left;
                return Ok(v);
            }
        }
        let (work_before, peak_before) = (self.work, self.peak);
        self.depth += 1;
        self.peak = self.depth;
        // A body nests at most `MAX_NESTING` levels, which fit in the red zone; past
        // that, a call continues on a new segment rather than off the end of the stack.
        let v = if self.depth <= UNGUARDED_CALLS {
            self.expr(&def.body, frame)
        } else {
            stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
                self.expr(&def.body, frame)
            })
        };
        self.depth -= 1;
        let below = self.peak - self.depth;
        self.peak = peak_before.max(self.peak);
        let v = v?;
        if let Some(key) = &key {
            let spent = work_before.wrapping_sub(self.work);
            super::memo::remember(key, &v, spent, below as u32);
        }
        Ok(v)
    }

    /// Evaluates a condition.
    #[inline]
    pub fn bool(&mut self, e: &ir::Expr, locals: &mut [Value]) -> R<bool> {
        if let Some(code) = self.code.condition(e.root) {
            return code(self, locals);
        }
        match self.expr(e, locals)? {
            Value::Bool(b) => Ok(b.get()),
            v => Err(self.wrong(&v, "true or false", e.span)),
        }
    }

    /// Evaluates a whole number.
    #[inline]
    pub fn int(&mut self, e: &ir::Expr, locals: &mut [Value]) -> R<i64> {
        if let Some(code) = self.code.number(e.root) {
            return code(self, locals);
        }
        match self.expr(e, locals)? {
            Value::Int(n) => Ok(n),
            v => Err(self.wrong(&v, "a number", e.span)),
        }
    }

    /// Evaluates a player.
    #[inline]
    pub fn player(&mut self, e: &ir::Expr, locals: &mut [Value]) -> R<u8> {
        // `me.x` and `p.x` read a local: no need to copy it out first.
        if let K::Local(s) = e.kind {
            if let Value::Player(p) = locals[s as usize] {
                return Ok(p.get());
            }
        }
        let v = self.expr(e, locals)?;
        self.as_player(v, e.span)
    }

    /// A value that must be a player.
    pub(super) fn as_player(&self, v: Value, span: Span) -> R<u8> {
        match v {
            Value::Player(p) => Ok(p.get()),
            Value::None => Err(err(
                "no-value",
                "this is `none`, not a player",
                span,
                "check for `none` with `if x != none` before using it",
            )),
            v => Err(self.wrong(&v, "a player", span)),
        }
    }

    /// A list, borrowed from the state when the expression names a variable, a field or every
    /// instance, seat or enum value (the common case in queries and `in`), so that reading it
    /// copies nothing.
    pub(super) fn items(&mut self, e: &ir::Expr, locals: &mut [Value]) -> R<Items<'a>> {
        if let Some(source) = self.code.source(e.root) {
            return source.items(self, locals);
        }
        let state: &'a State = self.state;
        let stored = match &e.kind {
            K::Global(g) => &state.globals[g.index()],
            K::PlayerVar(p, v) => {
                let p = self.player(p, locals)?;
                state.player_vars.get(p as usize, v.index())
            }
            K::Field(x, k, f) => {
                let i = self.entity(x, *k, locals)?;
                state.entities[k.index()].get(i, f.index())
            }
            K::EnumValues(id) => return Ok(Items::Lies(&state.domains.enum_values[id.index()])),
            K::Instances(k) => return Ok(Items::Lies(&state.domains.instances[k.index()])),
            K::Players => return Ok(Items::Lies(state.players_in())),
            K::AllPlayers => return Ok(Items::Lies(&state.domains.seats)),
            K::Local(s) => {
                return match &locals[*s as usize] {
                    Value::List(xs) => Ok(Items::Held(xs.clone())),
                    v => Err(self.wrong(v, "a list", e.span)),
                }
            }
            _ => return self.list(e, locals).map(Items::Held),
        };
        match stored {
            Value::List(xs) => Ok(Items::Lies(xs)),
            v => Err(self.wrong(v, "a list", e.span)),
        }
    }

    /// Evaluates a list.
    #[inline]
    pub fn list(&mut self, e: &ir::Expr, locals: &mut [Value]) -> R<List> {
        match self.expr(e, locals)? {
            Value::List(v) => Ok(v),
            v => Err(self.wrong(&v, "a list", e.span)),
        }
    }

    /// Evaluates an instance of kind `k`: its index.
    pub(super) fn entity(&mut self, e: &ir::Expr, k: ir::KindId, locals: &mut [Value]) -> R<usize> {
        if let K::Local(s) = e.kind {
            if let Value::Entity(x) = locals[s as usize] {
                if x.kind() == k {
                    return Ok(x.index() as usize);
                }
            }
        }
        let v = self.expr(e, locals)?;
        self.as_entity(v, k, e.span)
    }

    /// A value that must be an instance of kind `k`: its index.
    pub(super) fn as_entity(&self, v: Value, k: ir::KindId, span: Span) -> R<usize> {
        match v {
            Value::Entity(x) if x.kind() == k => Ok(x.index() as usize),
            Value::None => Err(err(
                "no-value",
                format!(
                    "this is `none`, not a `{}`",
                    self.program.kinds[k.index()].name
                ),
                span,
                "check for `none` with `if x != none` before using its fields",
            )),
            v => Err(self.wrong(&v, "an instance", span)),
        }
    }

    #[cold]
    pub(super) fn wrong(&self, v: &Value, want: &str, span: Span) -> Box<RuntimeError> {
        if *v == Value::None {
            return err(
                "no-value",
                format!("expected {want}, found `none`"),
                span,
                "`first` and `last` of an empty list, and unset players and instances, are `none`; check with `count(xs) > 0` or `x != none` first",
            );
        }
        err(
            "type-mismatch",
            format!(
                "expected {want}, found {}",
                super::show(self.program, self.state, v)
            ),
            span,
            "this is a bug in the checker; please report it with the rules file",
        )
    }

    /// The value of `x op y`, both sides evaluated (not `and`, `or`, `in`).
    pub(super) fn combine(&mut self, op: BinOp, x: Value, y: Value, span: Span) -> R<Value> {
        Ok(match (op, x, y) {
            (BinOp::Eq, x, y) => Value::bool(x == y),
            (BinOp::Ne, x, y) => Value::bool(x != y),
            (BinOp::Add, Value::List(mut xs), Value::List(ys)) => {
                check_len(xs.len() + ys.len(), span)?;
                self.build(xs.len() + ys.len());
                xs.make_mut().extend_from_slice(&ys);
                Value::List(xs)
            }
            (op, Value::Int(x), Value::Int(y)) => match op {
                BinOp::Lt => Value::bool(x < y),
                BinOp::Le => Value::bool(x <= y),
                BinOp::Gt => Value::bool(x > y),
                BinOp::Ge => Value::bool(x >= y),
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => {
                    Value::Int(arithmetic(op, x, y, span)?)
                }
                BinOp::Range => {
                    if y.checked_sub(x).is_none_or(|n| n > MAX_LIST) {
                        return Err(err(
                            "list-too-long",
                            format!("the range {x}..{y} is too long"),
                            span,
                            "keep ranges under 100000 numbers",
                        ));
                    }
                    self.build((y - x + 1).max(0) as usize);
                    Value::List((x..=y).map(Value::Int).collect())
                }
                _ => {
                    return Err(err(
                        "type-mismatch",
                        "bad operands",
                        span,
                        "this is a bug in the checker",
                    ))
                }
            },
            // The operand that does not fit is named: a number beside a `none` is not the fault.
            (_, x, y) => {
                let unfit = if matches!(x, Value::Int(_)) { y } else { x };
                return Err(self.wrong(&unfit, "operands that fit the operator", span));
            }
        })
    }

    /// Visits the elements of `source` that pass `filter`, each bound to `slot` and mapped by
    /// `map` if given.
    pub(super) fn each(
        &mut self,
        slot: ir::Slot,
        source: &ir::Expr,
        filter: Option<&ir::Expr>,
        map: Option<&ir::Expr>,
        locals: &mut [Value],
        mut visit: impl FnMut(&mut Self, &Value, &mut [Value]) -> R<()>,
    ) -> R<()> {
        let items = self.items(source, locals)?;
        self.visit(items.len(), source.span)?;
        for item in items.iter() {
            locals[slot as usize].put(item.clone());
            if let Some(f) = filter {
                if !self.bool(f, locals)? {
                    continue;
                }
            }
            match map {
                Some(m) => {
                    let v = self.expr(m, locals)?;
                    visit(self, &v, locals)?
                }
                None => visit(self, item, locals)?,
            }
        }
        Ok(())
    }

    pub(super) fn builtin(&mut self, b: Builtin, v: Value, span: Span) -> R<Value> {
        let players = self.state.players;
        // Building a list spends its elements; the seats' lists are as short as the table.
        if let Value::List(xs) = &v {
            if matches!(
                b,
                Builtin::Duplicates | Builtin::Distinct | Builtin::Reverse | Builtin::Sort
            ) {
                self.build(xs.len());
            }
        }
        Ok(match (b, v) {
            (Builtin::Duplicates, Value::List(xs)) => Value::List(duplicates(&xs)),
            (
                Builtin::Others | Builtin::SeatsFrom | Builtin::Next | Builtin::Prev,
                Value::Player(p),
            ) if !self.state.out.is_empty() => around_in_play(self.state, b, p.get()),
            (Builtin::Others, Value::Player(p)) => Value::List(
                (1..players)
                    .map(|i| Value::player((p.get() + i) % players))
                    .collect(),
            ),
            (Builtin::SeatsFrom, Value::Player(p)) => Value::List(
                (0..players)
                    .map(|i| Value::player((p.get() + i) % players))
                    .collect(),
            ),
            (Builtin::Next, Value::Player(p)) => Value::player((p.get() + 1) % players),
            (Builtin::Prev, Value::Player(p)) => Value::player((p.get() + players - 1) % players),
            (Builtin::Seat, Value::Player(p)) => Value::Int(p.get() as i64 + 1),
            (Builtin::Reverse, Value::List(mut xs)) => {
                xs.make_mut().reverse();
                Value::List(xs)
            }
            (Builtin::Sort, Value::List(mut xs)) => {
                xs.make_mut().sort();
                Value::List(xs)
            }
            (Builtin::Distinct, Value::List(xs)) => Value::List(distinct(&xs)),
            (Builtin::Abs, Value::Int(n)) => {
                Value::Int(n.checked_abs().ok_or_else(|| overflow(span))?)
            }
            (Builtin::Subsets, Value::List(xs)) => {
                if xs.len() > 12 {
                    return Err(err(
                        "list-too-long",
                        format!("{} elements have too many subsets to list", xs.len()),
                        span,
                        "take subsets of at most 12 elements, or choose one element at a time",
                    ));
                }
                let n = xs.len();
                let mut masks = super::spare::indices();
                masks.extend(0..(1usize << n));
                // Smaller subsets first, so that "commit nothing" leads the list.
                masks.sort_by_key(|m| m.count_ones());
                self.build(masks.len() * (n + 1) / 2);
                let subsets = masks
                    .iter()
                    .map(|&mask| {
                        Value::List(
                            (0..n)
                                .filter(|i| mask & (1 << i) != 0)
                                .map(|i| xs[i].clone())
                                .collect(),
                        )
                    })
                    .collect::<List>();
                super::spare::give_indices(masks);
                subsets.into_value()
            }
            (Builtin::AtSeat, Value::Int(i)) => {
                if i < 1 || i > players as i64 {
                    return Err(err(
                        "out-of-range",
                        format!("there is no seat {i} with {players} players"),
                        span,
                        "seats count from 1",
                    ));
                }
                Value::player((i - 1) as u8)
            }
            (Builtin::PlayerKey, v) => super::nodes::player_key(v, players, span)?,
            (Builtin::InstanceKey, v) => super::nodes::instance_key(v, span)?,
            (Builtin::First, Value::List(xs)) => xs.first().cloned().unwrap_or(Value::None),
            (Builtin::Last, Value::List(xs)) => xs.last().cloned().unwrap_or(Value::None),
            (_, Value::None) => {
                return Err(err(
                    "no-value",
                    "this is `none`",
                    span,
                    "check for `none` with `if x != none` first",
                ))
            }
            (_, v) => return Err(self.wrong(&v, "a fitting argument", span)),
        })
    }

    pub(super) fn builtin2(
        &mut self,
        b: Builtin,
        a: Value,
        c: Value,
        d: Value,
        span: Span,
    ) -> R<Value> {
        Ok(match (b, a, c) {
            (Builtin::Nth, Value::List(xs), Value::Int(i)) => {
                if i < 1 || i as usize > xs.len() {
                    return Err(err(
                        "out-of-range",
                        format!("nth(…, {i}) of a list of {}", xs.len()),
                        span,
                        "positions count from 1 to the length of the list; check `count(...)` first",
                    ));
                }
                xs[i as usize - 1].clone()
            }
            (Builtin::Index, Value::List(xs), Value::Int(i)) => {
                xs[position(i, xs.len(), span)?].clone()
            }
            (Builtin::Replace, Value::List(mut xs), Value::Int(i)) => {
                let at = position(i, xs.len(), span)?;
                // The list is copied once, as `take` builds its elements.
                self.build(xs.len());
                xs.make_mut()[at] = d;
                Value::List(xs)
            }
            (Builtin::Without, Value::List(xs), v) => self.without(xs, v, d, span)?,
            (Builtin::Key, Value::Int(k), Value::Int(lo)) => {
                let hi = match d {
                    Value::Int(hi) => hi,
                    _ => lo,
                };
                if k < lo || k > hi {
                    return Err(err(
                        "out-of-range",
                        format!("{k} is not a key of this map, whose keys are {lo} to {hi}"),
                        span,
                        &format!("use a key from {lo} to {hi}; check it first, as in `if k >= {lo} and k <= {hi}`"),
                    ));
                }
                // Within the range, so the difference fits.
                Value::Int(k - lo + 1)
            }
            (Builtin::Take, Value::List(xs), Value::Int(n)) => {
                let kept = xs.len().min(n.max(0) as usize);
                self.build(kept);
                Value::List(xs.iter().take(kept).cloned().collect())
            }
            (Builtin::Drop, Value::List(xs), Value::Int(n)) => {
                let skipped = xs.len().min(n.max(0) as usize);
                self.build(xs.len() - skipped);
                Value::List(xs.iter().skip(skipped).cloned().collect())
            }
            (Builtin::Position, Value::List(xs), x) => {
                self.spend(scan_work(xs.len()));
                Value::Int(xs.iter().position(|y| *y == x).map_or(0, |i| i as i64 + 1))
            }
            (Builtin::Clamp, Value::Int(x), Value::Int(lo)) => {
                let Value::Int(hi) = d else {
                    return Err(err(
                        "type-mismatch",
                        "clamp needs three numbers",
                        span,
                        "write clamp(x, lo, hi)",
                    ));
                };
                Value::Int(x.max(lo).min(hi.max(lo)))
            }
            (_, Value::None, _) => {
                return Err(err(
                    "no-value",
                    "this is `none`",
                    span,
                    "check for `none` with `if x != none` first",
                ))
            }
            (_, v, _) => return Err(self.wrong(&v, "fitting arguments", span)),
        })
    }

    /// `xs[i] -= v`: the list with one element equal to `v` taken out, or (where `one` is
    /// false) one of each element of the list `v`; `not-in-list` for one that is not there.
    fn without(&mut self, mut xs: List, v: Value, one: Value, span: Span) -> R<Value> {
        let single = [v];
        let taken: &[Value] = match (&one, &single[0]) {
            (Value::Bool(one), _) if one.get() => &single,
            (_, Value::List(ys)) => ys,
            (_, v) => return Err(self.wrong(v, "a list", span)),
        };
        for y in taken {
            // A removal scans the list, and it is copied once, as `take` builds.
            self.build(xs.len());
            let Some(i) = xs.iter().position(|x| x == y) else {
                return Err(super::statements::not_in_list(
                    self.program,
                    self.state,
                    y,
                    span,
                ));
            };
            xs.make_mut().remove(i);
        }
        Ok(Value::List(xs))
    }

    /// Renders a text with its interpolations.
    pub fn text(&mut self, t: &ir::Text, locals: &mut [Value]) -> R<String> {
        let mut out = String::new();
        self.text_into(t, locals, &mut out)?;
        Ok(out)
    }

    /// Renders a text at the end of `out`: its `if` and `each` parts render their own texts.
    pub fn text_into(&mut self, t: &ir::Text, locals: &mut [Value], out: &mut String) -> R<()> {
        for p in &t.parts {
            self.text_part(p, locals, out)?;
        }
        Ok(())
    }

    /// Renders one part of a text at the end of `out`.
    pub fn text_part(&mut self, p: &ir::TextPart, locals: &mut [Value], out: &mut String) -> R<()> {
        let too_long = |span| {
            err(
                "text-too-long",
                format!("this makes a text longer than {MAX_TEXT} bytes"),
                span,
                "show a count or a few items rather than a whole long list",
            )
        };
        match p {
            ir::TextPart::Lit(s) => out.push_str(s),
            ir::TextPart::Expr(e) => {
                let v = self.expr(e, locals)?;
                out.push_str(&super::show(self.program, self.state, &v));
                if out.len() > MAX_TEXT {
                    return Err(too_long(e.span));
                }
            }
            ir::TextPart::Typed(e, ty) => {
                let v = self.expr(e, locals)?;
                out.push_str(&super::show_typed(self.program, self.state, &v, ty));
                if out.len() > MAX_TEXT {
                    return Err(too_long(e.span));
                }
            }
            ir::TextPart::If {
                cond,
                then,
                otherwise,
            } => {
                let branch = if self.bool(cond, locals)? {
                    then
                } else {
                    otherwise
                };
                self.text_into(branch, locals, out)?;
            }
            ir::TextPart::Each {
                slot,
                source,
                filter,
                body,
                sep,
            } => {
                let mut first = true;
                self.each(
                    *slot,
                    source,
                    filter.as_ref(),
                    None,
                    locals,
                    |ev, _, locals| {
                        if !std::mem::take(&mut first) {
                            ev.text_into(sep, locals, out)?;
                        }
                        ev.text_into(body, locals, out)?;
                        if out.len() > MAX_TEXT {
                            return Err(too_long(source.span));
                        }
                        Ok(())
                    },
                )?;
            }
        }
        Ok(())
    }
}

/// Lists up to this long are tallied by comparing every pair, which allocates nothing; longer
/// ones by sorting their positions, which is not quadratic.
const PAIRWISE_TALLY: usize = 32;

/// The elements whose value occurs more than once, in order.
fn duplicates(xs: &[Value]) -> List {
    if xs.len() <= PAIRWISE_TALLY {
        return xs
            .iter()
            .filter(|x| xs.iter().filter(|y| y == x).count() > 1)
            .cloned()
            .collect();
    }
    let (count, _) = sorted_tally(xs);
    xs.iter()
        .zip(count)
        .filter(|(_, n)| *n > 1)
        .map(|(x, _)| x.clone())
        .collect()
}

/// Each value once, in first-seen order.
fn distinct(xs: &[Value]) -> List {
    if xs.len() <= PAIRWISE_TALLY {
        return xs
            .iter()
            .enumerate()
            .filter(|(i, x)| !xs[..*i].contains(x))
            .map(|(_, x)| x.clone())
            .collect();
    }
    let (_, first) = sorted_tally(xs);
    xs.iter()
        .zip(first)
        .filter(|(_, f)| *f)
        .map(|(x, _)| x.clone())
        .collect()
}

/// For each element: how many elements equal it, and whether it is the first of them.
fn sorted_tally(xs: &[Value]) -> (Vec<usize>, Vec<bool>) {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|a, b| xs[*a].cmp(&xs[*b]).then(a.cmp(b)));
    let mut count = vec![0; xs.len()];
    let mut first = vec![false; xs.len()];
    for group in order.chunk_by(|a, b| xs[*a] == xs[*b]) {
        first[group[0]] = true;
        for &i in group {
            count[i] = group.len();
        }
    }
    (count, first)
}

/// Lists may not grow past [`MAX_LIST`]: a rule doubling a list in a loop stops with an error.
/// Where position `i` (counting from 1) of a list of `len` stands, counting from 0: `xs[i]`,
/// `xs[i] = v`, `pop xs at i`. Outside the list, `out-of-range`.
pub(super) fn position(i: i64, len: usize, span: Span) -> R<usize> {
    if i < 1 || i as usize > len {
        return Err(err(
            "out-of-range",
            format!("position {i} of a list of {len}"),
            span,
            "positions count from 1 to the length of the list; check `count(...)` first",
        ));
    }
    Ok(i as usize - 1)
}

pub(super) fn check_len(len: usize, span: Span) -> R<()> {
    if len as i64 > MAX_LIST {
        return Err(err(
            "list-too-long",
            format!("a list of {len} items is too long"),
            span,
            "keep lists under 100000 items",
        ));
    }
    Ok(())
}

/// `x op y` for the arithmetic operators, checked.
#[inline]
pub(super) fn arithmetic(op: BinOp, x: i64, y: i64, span: Span) -> R<i64> {
    match op {
        BinOp::Add => x.checked_add(y).ok_or_else(|| overflow(span)),
        BinOp::Sub => x.checked_sub(y).ok_or_else(|| overflow(span)),
        BinOp::Mul => x.checked_mul(y).ok_or_else(|| overflow(span)),
        BinOp::Div | BinOp::Mod if y == 0 => Err(err(
            "division-by-zero",
            format!("{x} {} 0", op.symbol()),
            span,
            "guard the division with `if`, such as `if n > 0 then total / n else 0`",
        )),
        BinOp::Div => x.checked_div_euclid(y).ok_or_else(|| overflow(span)),
        BinOp::Mod => x.checked_rem_euclid(y).ok_or_else(|| overflow(span)),
        _ => Err(err(
            "type-mismatch",
            "bad operands",
            span,
            "this is a bug in the checker",
        )),
    }
}

#[cold]
pub(super) fn overflow(span: Span) -> Box<RuntimeError> {
    err(
        "overflow",
        "a number grew too large",
        span,
        "keep numbers within ±9 quintillion",
    )
}

/// The error of a `none` among numbers that are summed or compared.
pub(super) fn none_among_numbers(span: Span) -> Box<RuntimeError> {
    err(
        "no-value",
        "a `none` among the numbers",
        span,
        "give every element a value, or leave the `none`s out with `where`",
    )
}

/// `others`, `seats_from`, `next` or `prev` of seat `p` once a seat is out of the game: the
/// seats still in, in seat order from `p`, skipping those out. `next` and `prev` of the only
/// player still in are that player; with nobody in, `none`.
fn around_in_play(state: &State, b: Builtin, p: u8) -> Value {
    let players = state.players;
    let after = |i: u8| (p + i) % players;
    let before = |i: u8| (p + players - i) % players;
    let is_in = |s: &u8| !state.is_out(*s);
    match b {
        Builtin::Others => Value::List(
            (1..players)
                .map(after)
                .filter(is_in)
                .map(Value::player)
                .collect(),
        ),
        Builtin::SeatsFrom => Value::List(
            (0..players)
                .map(after)
                .filter(is_in)
                .map(Value::player)
                .collect(),
        ),
        Builtin::Next => (1..=players)
            .map(after)
            .find(is_in)
            .map_or(Value::None, Value::player),
        _ => (1..=players)
            .map(before)
            .find(is_in)
            .map_or(Value::None, Value::player),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(xs: &[i64]) -> Vec<Value> {
        xs.iter().map(|n| Value::Int(*n)).collect()
    }

    #[test]
    fn short_and_long_lists_are_tallied_alike() {
        // The same pattern, short (compared pairwise) and repeated long (sorted).
        let pattern = [3, 3, 5, 5, 5, 2, 7, 2];
        let long: Vec<i64> = (0..10)
            .flat_map(|k| pattern.map(|x| x + 100 * (k % 3)))
            .collect();
        for xs in [ints(&pattern), ints(&long)] {
            let slow_dup: Vec<Value> = xs
                .iter()
                .filter(|x| xs.iter().filter(|y| y == x).count() > 1)
                .cloned()
                .collect();
            let mut slow_distinct: Vec<Value> = Vec::new();
            for x in &xs {
                if !slow_distinct.contains(x) {
                    slow_distinct.push(x.clone());
                }
            }
            assert_eq!(&duplicates(&xs)[..], &slow_dup[..]);
            assert_eq!(&distinct(&xs)[..], &slow_distinct[..]);
        }
        assert_eq!(
            &duplicates(&ints(&pattern))[..],
            &ints(&[3, 3, 5, 5, 5, 2, 2])[..]
        );
        assert_eq!(&distinct(&ints(&pattern))[..], &ints(&[3, 5, 2, 7])[..]);
    }
}
