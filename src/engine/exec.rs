//! The statement machine: frames of block cursors that can stop at any decision and resume.
//!
//! Expressions never stop; only `turn`, `choose`, `ask` and `secretly` do. The stack of
//! frames is plain data, so a paused game can be cloned, backed up and restored.

use super::eval::Eval;
use super::State;
use super::{show, Audience, Game, LogEntry, Outcome, Pending, RuntimeError, Turn};
use crate::diag::Span;
use crate::ir::{self, AssignOp, BlockId, Place, StmtKind as S, Value};

/// Bounds that stop runaway rules.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Statements run between two decisions.
    pub steps_per_decision: u64,
    /// Times one `while` or `repeat` loop may run.
    pub loop_iterations: u64,
    /// Decisions in one game.
    pub decisions: usize,
    /// Depth of nested effect and phase calls.
    pub call_depth: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            steps_per_decision: 1_000_000,
            loop_iterations: 100_000,
            decisions: 100_000,
            call_depth: 200,
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Frame {
    locals: Vec<Value>,
    cursors: Vec<Cursor>,
}

#[derive(Debug, Clone)]
struct Cursor {
    block: BlockId,
    pc: usize,
    looping: Loop,
}

#[derive(Debug, Clone)]
enum Loop {
    Once,
    For {
        slot: ir::Slot,
        items: Vec<Value>,
        next: usize,
        stmt: (BlockId, usize),
    },
    Repeat {
        left: i64,
    },
    While {
        stmt: (BlockId, usize),
        runs: u64,
    },
    Secret {
        player_slot: ir::Slot,
        choice_slot: ir::Slot,
        items: Vec<(u8, Value)>,
        next: usize,
    },
}

/// What a failed move must put back.
pub(crate) struct Backup {
    state: super::State,
    rng: super::Rng,
    frames: Vec<Frame>,
    pending: Option<Pending>,
    outcome: Option<Outcome>,
    log_len: usize,
    history_len: usize,
}

impl Backup {
    pub(crate) fn take(g: &Game) -> Backup {
        Backup {
            state: g.state.clone(),
            rng: g.rng.clone(),
            frames: g.frames.clone(),
            pending: g.pending.clone(),
            outcome: g.outcome.clone(),
            log_len: g.log.len(),
            history_len: g.history.len(),
        }
    }

    pub(crate) fn restore(self, g: &mut Game) {
        g.state = self.state;
        g.rng = self.rng;
        g.frames = self.frames;
        g.pending = self.pending;
        g.outcome = self.outcome;
        g.log.truncate(self.log_len);
        g.history.truncate(self.history_len);
    }
}

type R<T> = Result<T, RuntimeError>;

fn err(code: &'static str, msg: impl Into<String>, span: Span, help: &str) -> RuntimeError {
    RuntimeError::new(code, msg, span, help)
}

impl Game {
    /// Initial values, instances, then the setup and flow frames.
    ///
    /// Every slot exists (as `none`) before any initial value is evaluated, so an initial value
    /// that reads another variable never reads out of bounds. Instances come first, so that a
    /// variable may start as a list of them (`var deck: list of card = card`).
    pub(super) fn init(&mut self) -> R<()> {
        let program = self.program.clone();
        let mut locals = vec![Value::None; program.init_locals.max(1)];
        self.state.globals = vec![Value::None; program.globals.len()];
        self.state.player_vars =
            vec![vec![Value::None; program.player_vars.len()]; self.state.players as usize];
        self.state.entities = vec![Vec::new(); program.kinds.len()];
        for (k, kind) in program.kinds.iter().enumerate() {
            let n = Eval::new(&program, &self.state).int(&kind.count, &mut locals)?;
            if !(0..=10_000).contains(&n) {
                return Err(err(
                    "bad-count",
                    format!("`{}` would have {n} instances", kind.name),
                    kind.count.span,
                    "give a kind from 0 to 10000 instances",
                ));
            }
            self.state.entities[k] = vec![vec![Value::None; kind.fields.len()]; n as usize];
        }
        for item in &program.init_order {
            match *item {
                ir::InitItem::Fields(k) => {
                    let kind = &program.kinds[k.index()];
                    for i in 0..self.state.entities[k.index()].len() {
                        if let Some(slot) = kind.index_slot {
                            locals[slot as usize] = Value::Int(i as i64 + 1);
                        }
                        for (f, field) in kind.fields.iter().enumerate() {
                            let v =
                                Eval::new(&program, &self.state).expr(&field.init, &mut locals)?;
                            self.state.entities[k.index()][i][f] = clamp(v, field.bounds);
                        }
                    }
                }
                ir::InitItem::Global(g) => {
                    let def = &program.globals[g.index()];
                    let v = Eval::new(&program, &self.state).expr(&def.init, &mut locals)?;
                    self.state.globals[g.index()] = clamp(v, def.bounds);
                }
                ir::InitItem::PlayerVar(id) => {
                    let def = &program.player_vars[id.index()];
                    for p in 0..self.state.players as usize {
                        let v = Eval::new(&program, &self.state).expr(&def.init, &mut locals)?;
                        self.state.player_vars[p][id.index()] = clamp(v, def.bounds);
                    }
                }
            }
        }
        let mut labels = Vec::new();
        for (k, kind) in program.kinds.iter().enumerate() {
            let mut names: Vec<String> = Vec::new();
            if let Some((text, n)) = &kind.label {
                for i in 0..self.state.entities[k].len() {
                    let mut l = vec![Value::None; (*n).max(1)];
                    l[0] = Value::Entity(ir::KindId(k as u32), i as u32);
                    let mut name = Eval::new(&program, &self.state).text(text, &mut l)?;
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
        self.state.labels = std::sync::Arc::new(labels);
        self.push_proc(program.flow, Vec::new());
        if let Some(setup) = program.setup {
            self.push_proc(setup, Vec::new());
        }
        Ok(())
    }

    fn push_proc(&mut self, id: ir::ProcId, args: Vec<Value>) {
        let p = &self.program.procs[id.index()];
        let mut locals = args;
        locals.resize(p.locals.max(locals.len()), Value::None);
        self.frames.push(Frame {
            locals,
            cursors: vec![Cursor {
                block: p.body,
                pc: 0,
                looping: Loop::Once,
            }],
        });
    }

    /// Runs statements until a decision is pending or the game is over.
    pub(super) fn run(&mut self) -> R<()> {
        let program = self.program.clone();
        let mut steps: u64 = 0;
        while self.pending.is_none() && self.outcome.is_none() {
            let Some(frame) = self.frames.last_mut() else {
                return self.finish(None);
            };
            let Some(cursor) = frame.cursors.last_mut() else {
                self.frames.pop();
                continue;
            };
            let block = program.block(cursor.block);
            if cursor.pc >= block.stmts.len() {
                self.end_of_block(&program)?;
                continue;
            }
            let here = (cursor.block, cursor.pc);
            cursor.pc += 1;
            let stmt = &block.stmts[here.1];
            steps += 1;
            if steps > self.limits.steps_per_decision {
                return Err(err(
                    "step-limit",
                    format!(
                        "more than {} steps without a decision",
                        self.limits.steps_per_decision
                    ),
                    stmt.span,
                    "a loop here may never end; make sure its condition changes",
                ));
            }
            self.exec(&program, stmt, here)?;
        }
        Ok(())
    }

    fn frame(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("a running frame")
    }

    fn eval(&mut self, e: &ir::Expr) -> R<Value> {
        let program = self.program.clone();
        let frame = self.frames.last_mut().expect("a running frame");
        Eval::new(&program, &self.state).expr(e, &mut frame.locals)
    }

    fn eval_with<T>(&mut self, f: impl FnOnce(&mut Eval, &mut Vec<Value>) -> R<T>) -> R<T> {
        let program = self.program.clone();
        let frame = self.frames.last_mut().expect("a running frame");
        f(&mut Eval::new(&program, &self.state), &mut frame.locals)
    }

    fn exec(&mut self, program: &ir::Program, stmt: &ir::Stmt, here: (BlockId, usize)) -> R<()> {
        match &stmt.kind {
            S::Let(slot, e) => {
                let v = self.eval(e)?;
                self.frame().locals[*slot as usize] = v;
            }
            S::Assign {
                place,
                op,
                value,
                element,
            } => self.assign(place, *op, value, *element, stmt.span)?,
            S::If {
                cond,
                then,
                otherwise,
            } => {
                let c = self.eval_with(|ev, l| ev.bool(cond, l))?;
                let next = if c { Some(*then) } else { *otherwise };
                if let Some(b) = next {
                    self.frame().cursors.push(Cursor {
                        block: b,
                        pc: 0,
                        looping: Loop::Once,
                    });
                }
            }
            S::For {
                slot, source, body, ..
            } => {
                let items = self.eval_with(|ev, l| ev.list(source, l))?;
                self.frame().cursors.push(Cursor {
                    block: *body,
                    pc: usize::MAX,
                    looping: Loop::For {
                        slot: *slot,
                        items,
                        next: 0,
                        stmt: here,
                    },
                });
            }
            S::Repeat { count, body } => {
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
                    self.frame().cursors.push(Cursor {
                        block: *body,
                        pc: 0,
                        looping: Loop::Repeat { left: n },
                    });
                }
            }
            S::While { cond, body } => {
                if self.eval_with(|ev, l| ev.bool(cond, l))? {
                    self.frame().cursors.push(Cursor {
                        block: *body,
                        pc: 0,
                        looping: Loop::While {
                            stmt: here,
                            runs: 1,
                        },
                    });
                }
            }
            S::Turn { player, actions } => {
                let p = self.eval_with(|ev, l| ev.player(player, l))?;
                let moves = self.legal_moves(program, p, actions)?;
                if moves.is_empty() {
                    return Err(err(
                        "no-legal-move",
                        format!("{} has no legal action", self.seat_name(p)),
                        stmt.span,
                        "every turn needs at least one action whose requirements hold; add a fallback such as `action pass { }`",
                    ));
                }
                self.pending = Some(Pending::Turn(Turn {
                    player: p,
                    moves,
                    actions: actions.clone(),
                }));
            }
            S::Choose {
                slot,
                player,
                prompt,
                options,
                secret,
            } => {
                let p = self.eval_with(|ev, l| ev.player(player, l))?;
                let prompt = self.eval_with(|ev, l| ev.text(prompt, l))?;
                let options = self.eval_with(|ev, l| ev.list(options, l))?;
                if options.is_empty() {
                    return Err(err(
                        "no-options",
                        format!("{} must choose from an empty list", self.seat_name(p)),
                        stmt.span,
                        "guard the choice with `if count(...) > 0`",
                    ));
                }
                let labels = labels(program, &self.state, &options);
                self.pending = Some(Pending::Choose {
                    player: p,
                    prompt,
                    options,
                    labels,
                    slot: *slot,
                    secret: *secret,
                });
            }
            S::Ask {
                slot,
                player,
                prompt,
                yes,
                no,
            } => {
                let p = self.eval_with(|ev, l| ev.player(player, l))?;
                let prompt = self.eval_with(|ev, l| ev.text(prompt, l))?;
                self.pending = Some(Pending::Ask {
                    player: p,
                    prompt,
                    labels: [yes.clone(), no.clone()],
                    slot: *slot,
                });
            }
            S::Roll { slot, count, die } => {
                let faces = &program.dice[die.index()].faces;
                let v = match count {
                    None => Value::Int(faces[self.rng.index(faces.len())]),
                    Some(c) => {
                        let n = self.eval_with(|ev, l| ev.int(c, l))?;
                        if !(0..=1000).contains(&n) {
                            return Err(err(
                                "bad-count",
                                format!("cannot roll {n} dice"),
                                stmt.span,
                                "roll from 0 to 1000 dice",
                            ));
                        }
                        Value::List(
                            (0..n)
                                .map(|_| Value::Int(faces[self.rng.index(faces.len())]))
                                .collect(),
                        )
                    }
                };
                self.frame().locals[*slot as usize] = v;
            }
            S::Random { slot, from } => {
                let items = self.eval_with(|ev, l| ev.list(from, l))?;
                if items.is_empty() {
                    return Err(err(
                        "no-options",
                        "`random` of an empty list",
                        stmt.span,
                        "guard it with `if count(...) > 0`",
                    ));
                }
                let i = self.rng.index(items.len());
                self.frame().locals[*slot as usize] = items[i].clone();
            }
            S::Shuffle { slot, from } => {
                let mut items = self.eval_with(|ev, l| ev.list(from, l))?;
                self.rng.shuffle(&mut items);
                self.frame().locals[*slot as usize] = Value::List(items);
            }
            S::Log(t) => {
                let text = self.eval_with(|ev, l| ev.text(t, l))?;
                self.log.push(LogEntry {
                    announcement: false,
                    audience: Audience::All,
                    text,
                });
            }
            S::Tell { player, text } => {
                let p = self.eval_with(|ev, l| ev.player(player, l))?;
                let text = self.eval_with(|ev, l| ev.text(text, l))?;
                self.log.push(LogEntry {
                    announcement: false,
                    audience: Audience::Only(vec![p]),
                    text,
                });
            }
            S::Finish(reason) => {
                let reason = match reason {
                    Some(t) => Some(self.eval_with(|ev, l| ev.text(t, l))?),
                    None => None,
                };
                self.finish(reason)?;
            }
            S::Secretly {
                player_slot,
                players,
                choice_slot,
                prompt,
                options,
                then,
            } => {
                let who = self.eval_with(|ev, l| ev.list(players, l))?;
                let mut seats = Vec::new();
                let mut prompts = Vec::new();
                let mut opts = Vec::new();
                let mut labs = Vec::new();
                for w in who {
                    let Value::Player(p) = w else { continue };
                    self.frame().locals[*player_slot as usize] = Value::Player(p);
                    let o = self.eval_with(|ev, l| ev.list(options, l))?;
                    if o.is_empty() {
                        return Err(err(
                            "no-options",
                            format!("{} must choose from an empty list", self.seat_name(p)),
                            stmt.span,
                            "make sure every player has something to choose",
                        ));
                    }
                    prompts.push(self.eval_with(|ev, l| ev.text(prompt, l))?);
                    labs.push(labels(program, &self.state, &o));
                    opts.push(o);
                    seats.push(p);
                }
                if !seats.is_empty() {
                    let n = seats.len();
                    self.pending = Some(Pending::Secret {
                        players: seats,
                        prompts,
                        options: opts,
                        labels: labs,
                        chosen: vec![None; n],
                        player_slot: *player_slot,
                        choice_slot: *choice_slot,
                        then: *then,
                    });
                }
            }
            S::Call { proc, args } => {
                let args = args.iter().map(|a| self.eval(a)).collect::<R<Vec<_>>>()?;
                if self.frames.len() >= self.limits.call_depth {
                    return Err(err(
                        "call-depth",
                        format!("calls nest more than {} deep", self.limits.call_depth),
                        stmt.span,
                        "an effect or phase may be calling itself without end",
                    ));
                }
                self.push_proc(*proc, args);
            }
        }
        Ok(())
    }

    fn end_of_block(&mut self, program: &ir::Program) -> R<()> {
        let limit = self.limits.loop_iterations;
        let frame = self.frames.last_mut().expect("a running frame");
        let cursor = frame.cursors.last_mut().expect("a cursor");
        match &mut cursor.looping {
            Loop::Once => {
                frame.cursors.pop();
            }
            Loop::Repeat { left } => {
                *left -= 1;
                if *left > 0 {
                    cursor.pc = 0;
                } else {
                    frame.cursors.pop();
                }
            }
            Loop::While { stmt, runs } => {
                let s = &program.block(stmt.0).stmts[stmt.1];
                let S::While { cond, .. } = &s.kind else {
                    unreachable!("while cursor on a while")
                };
                *runs += 1;
                if *runs > limit {
                    return Err(err(
                        "loop-limit",
                        format!("this loop ran more than {limit} times"),
                        s.span,
                        "make sure the loop's condition becomes false",
                    ));
                }
                let go = Eval::new(program, &self.state).bool(cond, &mut frame.locals)?;
                let cursor = frame.cursors.last_mut().expect("a cursor");
                if go {
                    cursor.pc = 0;
                } else {
                    frame.cursors.pop();
                }
            }
            Loop::For {
                slot,
                items,
                next,
                stmt,
            } => {
                let s = &program.block(stmt.0).stmts[stmt.1];
                let S::For { filter, .. } = &s.kind else {
                    unreachable!("for cursor on a for")
                };
                let slot = *slot as usize;
                let mut found = false;
                while *next < items.len() {
                    let item = items[*next].clone();
                    *next += 1;
                    frame.locals[slot] = item;
                    let pass = match filter {
                        Some(f) => Eval::new(program, &self.state).bool(f, &mut frame.locals)?,
                        None => true,
                    };
                    if pass {
                        found = true;
                        break;
                    }
                }
                if found {
                    cursor.pc = 0;
                } else {
                    frame.cursors.pop();
                }
            }
            Loop::Secret {
                player_slot,
                choice_slot,
                items,
                next,
            } => {
                if *next < items.len() {
                    let (p, v) = items[*next].clone();
                    *next += 1;
                    frame.locals[*player_slot as usize] = Value::Player(p);
                    frame.locals[*choice_slot as usize] = v;
                    cursor.pc = 0;
                } else {
                    frame.cursors.pop();
                }
            }
        }
        Ok(())
    }

    fn assign(
        &mut self,
        place: &Place,
        op: AssignOp,
        value: &ir::Expr,
        element: bool,
        span: Span,
    ) -> R<()> {
        let v = self.eval(value)?;
        let program = self.program.clone();
        // Resolve the place to indices first, so the new value can be computed while the
        // state is still readable as a whole.
        let (slot, bounds) = match place {
            Place::Local(s) => (Slot::Local(*s as usize), None),
            Place::Global(g) => (Slot::Global(g.index()), program.globals[g.index()].bounds),
            Place::PlayerVar(p, id) => {
                let p = self.eval_with(|ev, l| ev.player(p, l))?;
                (
                    Slot::Player(p as usize, id.index()),
                    program.player_vars[id.index()].bounds,
                )
            }
            Place::Field(x, k, f) => {
                let i = match self.eval(x)? {
                    Value::Entity(kk, i) if kk == *k => i as usize,
                    _ => {
                        return Err(err(
                            "no-value",
                            "this is `none`, not an instance",
                            x.span,
                            "check for `none` before setting its fields",
                        ))
                    }
                };
                (
                    Slot::Field(k.index(), i, f.index()),
                    program.kinds[k.index()].fields[f.index()].bounds,
                )
            }
        };
        let target: &Value = match slot {
            Slot::Local(s) => &self.frames.last().expect("frame").locals[s],
            Slot::Global(g) => &self.state.globals[g],
            Slot::Player(p, i) => &self.state.player_vars[p][i],
            Slot::Field(k, i, f) => &self.state.entities[k][i][f],
        };
        let new = match (op, target, v) {
            (AssignOp::Set, _, v) => v,
            (AssignOp::Add, Value::List(xs), v) if element => {
                let mut xs = xs.clone();
                xs.push(v);
                Value::List(xs)
            }
            (AssignOp::Sub, Value::List(xs), v) if element => Value::List(
                remove_one(xs, &v).ok_or_else(|| not_in_list(&program, &self.state, &v, span))?,
            ),
            (AssignOp::Add, Value::List(xs), Value::List(ys)) => {
                super::eval::check_len(xs.len() + ys.len(), span)?;
                Value::List(xs.iter().cloned().chain(ys).collect())
            }
            (AssignOp::Sub, Value::List(xs), Value::List(ys)) => {
                let mut rest = xs.clone();
                for y in &ys {
                    rest = remove_one(&rest, y)
                        .ok_or_else(|| not_in_list(&program, &self.state, y, span))?;
                }
                Value::List(rest)
            }
            (AssignOp::Add, Value::Int(a), Value::Int(b)) => {
                Value::Int(a.checked_add(b).ok_or_else(|| {
                    err(
                        "overflow",
                        "a number grew too large",
                        span,
                        "keep numbers smaller",
                    )
                })?)
            }
            (AssignOp::Sub, Value::Int(a), Value::Int(b)) => {
                Value::Int(a.checked_sub(b).ok_or_else(|| {
                    err(
                        "overflow",
                        "a number grew too large",
                        span,
                        "keep numbers smaller",
                    )
                })?)
            }
            _ => {
                return Err(err(
                    "type-mismatch",
                    "cannot change this value that way",
                    span,
                    "this is a bug in the checker",
                ))
            }
        };
        let new = clamp(new, bounds);
        match slot {
            Slot::Local(s) => self.frame().locals[s] = new,
            Slot::Global(g) => self.state.globals[g] = new,
            Slot::Player(p, i) => self.state.player_vars[p][i] = new,
            Slot::Field(k, i, f) => self.state.entities[k][i][f] = new,
        }
        Ok(())
    }

    /// Asks the pending decision again after the state was changed by hand, so that its
    /// options follow the new state. Deciding statements have no effects before they pause,
    /// so running one again is safe; a secret choice that some have already made is kept.
    pub(super) fn refresh_pending(&mut self) -> R<()> {
        match &self.pending {
            None => return Ok(()),
            Some(Pending::Secret { chosen, .. }) if chosen.iter().any(Option::is_some) => {
                return Ok(())
            }
            Some(_) => {}
        }
        let Some(cursor) = self.frames.last_mut().and_then(|f| f.cursors.last_mut()) else {
            return Ok(());
        };
        // The cursor stands just after the statement that paused.
        cursor.pc = cursor.pc.saturating_sub(1);
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
                return Err(err(
                    "invariant-broken",
                    format!("invariant `{}` no longer holds: {what}", inv.name),
                    inv.check.body.span,
                    "a rule changed the state in a way the invariant forbids; the last decision was undone",
                ));
            }
        }
        Ok(())
    }

    /// Every legal (action, arguments) for `player` among `actions`.
    fn legal_moves(
        &self,
        program: &ir::Program,
        player: u8,
        actions: &[ir::ActionId],
    ) -> R<Vec<(ir::ActionId, Vec<Value>, String)>> {
        let mut out = Vec::new();
        for &a in actions {
            let def = &program.actions[a.index()];
            for args in self.domains(program, def) {
                if self.first_failing(program, def, player, &args)?.is_none() {
                    let label = move_label(program, &self.state, def, &args);
                    out.push((a, args, label));
                }
            }
        }
        Ok(out)
    }

    /// Every combination of parameter values of an action.
    fn domains(&self, program: &ir::Program, def: &ir::ActionDef) -> Vec<Vec<Value>> {
        let mut combos: Vec<Vec<Value>> = vec![Vec::new()];
        for param in &def.params {
            let values: Vec<Value> = match (&param.ty, &param.bounds) {
                (ir::Type::Player, _) => (0..self.state.players).map(Value::Player).collect(),
                (ir::Type::Bool, _) => vec![Value::Bool(true), Value::Bool(false)],
                (ir::Type::Enum(e), _) => (0..program.enums[e.index()].values.len() as u16)
                    .map(|i| Value::Enum(*e, i))
                    .collect(),
                (ir::Type::Entity(k), _) => (0..self.state.entities[k.index()].len() as u32)
                    .map(|i| Value::Entity(*k, i))
                    .collect(),
                (ir::Type::Int, Some((lo, hi))) => (*lo..=*hi).map(Value::Int).collect(),
                _ => Vec::new(),
            };
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    values.iter().map(move |v| {
                        let mut c = c.clone();
                        c.push(v.clone());
                        c
                    })
                })
                .collect();
        }
        combos
    }

    /// The first requirement that fails, with its rendered reason.
    fn first_failing(
        &self,
        program: &ir::Program,
        def: &ir::ActionDef,
        player: u8,
        args: &[Value],
    ) -> R<Option<(usize, String)>> {
        let mut locals = vec![Value::None; def.locals.max(1 + args.len())];
        locals[0] = Value::Player(player);
        for (i, a) in args.iter().enumerate() {
            locals[1 + i] = a.clone();
        }
        for (i, r) in def.requires.iter().enumerate() {
            let mut ev = Eval::new(program, &self.state);
            if !ev.bool(&r.cond, &mut locals)? {
                return Ok(Some((i, ev.text(&r.reason, &mut locals)?)));
            }
        }
        Ok(None)
    }

    /// Why a typed move is not legal for `player`, in the rules' own words.
    pub(super) fn why_not(&self, player: u8, input: &str) -> String {
        let program = self.program.clone();
        match &self.pending {
            Some(Pending::Turn(t)) => {
                let mut words = input.split_whitespace();
                let name = words.next().unwrap_or("");
                let Some(&a) = t
                    .actions
                    .iter()
                    .find(|a| program.actions[a.index()].name.eq_ignore_ascii_case(name))
                else {
                    let names: Vec<&str> = t
                        .actions
                        .iter()
                        .map(|a| program.actions[a.index()].name.as_str())
                        .collect();
                    return match crate::check::suggest_name(name, names.iter().copied()) {
                        Some(s) => format!("there is no action `{name}` now; did you mean `{s}`?"),
                        None => format!(
                            "there is no action `{name}` now; the actions are {}",
                            names.join(", ")
                        ),
                    };
                };
                let def = &program.actions[a.index()];
                let rest: Vec<String> = words.map(str::to_lowercase).collect();
                let combos = self.domains(&program, def);
                let Some(args) = combos.into_iter().find(|c| {
                    c.iter()
                        .map(|v| show(&program, &self.state, v).to_lowercase())
                        .collect::<Vec<_>>()
                        == rest
                }) else {
                    let params: Vec<String> =
                        def.params.iter().map(|p| format!("<{}>", p.name)).collect();
                    return format!(
                        "`{}` takes {} argument(s): {} {}",
                        def.name,
                        def.params.len(),
                        def.name,
                        params.join(" ")
                    );
                };
                match self.first_failing(&program, def, player, &args) {
                    Ok(Some((i, reason))) => {
                        let cond = program.sources.snippet(def.requires[i].cond.span);
                        format!("{reason} (requires `{cond}`)")
                    }
                    Ok(None) => "it is allowed".to_string(),
                    Err(e) => format!("a requirement failed to evaluate: {e}"),
                }
            }
            Some(_) => {
                let labels: Vec<String> =
                    self.options(player).into_iter().map(|o| o.label).collect();
                format!("the options are: {}", labels.join(", "))
            }
            None => "the game is over".to_string(),
        }
    }

    /// Takes option `index` of `player`'s pending decision.
    pub(super) fn decide(&mut self, player: u8, index: usize) -> R<()> {
        if self.history.len() > self.limits.decisions {
            let span = self.program.procs[self.program.flow.index()].span;
            return Err(err(
                "decision-limit",
                format!("the game passed {} decisions", self.limits.decisions),
                span,
                "make sure the flow ends, for example after a number of rounds",
            ));
        }
        let name = self.seat_name(player);
        match self.pending.take().expect("a pending decision") {
            Pending::Turn(t) => {
                let (a, args, label) = t.moves[index].clone();
                self.log.push(LogEntry {
                    announcement: true,
                    audience: Audience::All,
                    text: format!("{name}: {label}"),
                });
                let def = &self.program.actions[a.index()];
                let mut locals = vec![Value::None; def.locals.max(1 + args.len())];
                locals[0] = Value::Player(player);
                for (i, v) in args.into_iter().enumerate() {
                    locals[1 + i] = v;
                }
                let body = def.body;
                self.frames.push(Frame {
                    locals,
                    cursors: vec![Cursor {
                        block: body,
                        pc: 0,
                        looping: Loop::Once,
                    }],
                });
            }
            Pending::Choose {
                options,
                labels,
                slot,
                secret,
                ..
            } => {
                let text = format!("{name} chose {}", labels[index]);
                if secret {
                    self.log.push(LogEntry {
                        announcement: true,
                        audience: Audience::Only(vec![player]),
                        text,
                    });
                    self.log.push(LogEntry {
                        announcement: true,
                        audience: Audience::AllBut(vec![player]),
                        text: format!("{name} chose in secret"),
                    });
                } else {
                    self.log.push(LogEntry {
                        announcement: true,
                        audience: Audience::All,
                        text,
                    });
                }
                self.frame().locals[slot as usize] = options[index].clone();
            }
            Pending::Ask { labels, slot, .. } => {
                self.log.push(LogEntry {
                    announcement: true,
                    audience: Audience::All,
                    text: format!("{name}: {}", labels[index]),
                });
                self.frame().locals[slot as usize] = Value::Bool(index == 0);
            }
            Pending::Secret {
                players,
                prompts,
                options,
                labels,
                mut chosen,
                player_slot,
                choice_slot,
                then,
            } => {
                let i = players
                    .iter()
                    .zip(&chosen)
                    .position(|(p, c)| *p == player && c.is_none())
                    .expect("a waiting player");
                chosen[i] = Some(index);
                self.log.push(LogEntry {
                    announcement: true,
                    audience: Audience::Only(vec![player]),
                    text: format!("{name} chose {} (secret)", labels[i][index]),
                });
                self.log.push(LogEntry {
                    announcement: true,
                    audience: Audience::AllBut(vec![player]),
                    text: format!("{name} has chosen"),
                });
                if chosen.iter().all(Option::is_some) {
                    let items = players
                        .iter()
                        .zip(&chosen)
                        .zip(&options)
                        .map(|((p, c), o)| (*p, o[c.expect("chosen")].clone()))
                        .collect();
                    self.frame().cursors.push(Cursor {
                        block: then,
                        pc: usize::MAX,
                        looping: Loop::Secret {
                            player_slot,
                            choice_slot,
                            items,
                            next: 0,
                        },
                    });
                } else {
                    self.pending = Some(Pending::Secret {
                        players,
                        prompts,
                        options,
                        labels,
                        chosen,
                        player_slot,
                        choice_slot,
                        then,
                    });
                }
            }
        }
        Ok(())
    }

    /// Scores everyone, picks the winners and ends the game.
    pub(super) fn finish(&mut self, reason: Option<String>) -> R<()> {
        let program = self.program.clone();
        let n = self.state.players;
        let mut scores = Vec::new();
        for p in 0..n {
            let s = match &program.score {
                Some(f) => {
                    let mut locals = vec![Value::None; f.locals.max(1)];
                    locals[0] = Value::Player(p);
                    Eval::new(&program, &self.state).int(&f.body, &mut locals)?
                }
                None => 0,
            };
            scores.push(s);
        }
        let winners = match &program.winners {
            Some(f) => {
                let mut locals = vec![Value::None; f.locals.max(1)];
                Eval::new(&program, &self.state)
                    .expr(&f.body, &mut locals)?
                    .seats()
            }
            None => {
                let best = scores.iter().copied().max().unwrap_or(0);
                (0..n).filter(|p| scores[*p as usize] == best).collect()
            }
        };
        let names: Vec<String> = winners.iter().map(|p| self.seat_name(*p)).collect();
        if let Some(r) = &reason {
            self.log.push(LogEntry {
                announcement: false,
                audience: Audience::All,
                text: format!("The game ends: {r}"),
            });
        }
        self.log.push(LogEntry {
            announcement: false,
            audience: Audience::All,
            text: if names.is_empty() {
                "Nobody wins.".to_string()
            } else {
                format!("Winner: {}", names.join(", "))
            },
        });
        self.frames.clear();
        self.pending = None;
        self.outcome = Some(Outcome {
            winners,
            scores,
            reason,
        });
        Ok(())
    }
}

fn labels(program: &ir::Program, state: &State, options: &[Value]) -> Vec<String> {
    let mut labels: Vec<String> = options.iter().map(|v| show(program, state, v)).collect();
    // Equal labels would make a typed move ambiguous; number the repeats.
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for l in labels.iter_mut() {
        let n = seen.entry(l.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            *l = format!("{l}#{n}");
        }
    }
    labels
}

fn move_label(program: &ir::Program, state: &State, def: &ir::ActionDef, args: &[Value]) -> String {
    let mut s = def.name.clone();
    for a in args {
        s.push(' ');
        s.push_str(&show(program, state, a));
    }
    s
}

/// A place resolved to indices.
enum Slot {
    Local(usize),
    Global(usize),
    Player(usize, usize),
    Field(usize, usize, usize),
}

/// The list without the first occurrence of `v`, or None if it is absent.
fn remove_one(xs: &[Value], v: &Value) -> Option<Vec<Value>> {
    let i = xs.iter().position(|x| x == v)?;
    let mut out = xs.to_vec();
    out.remove(i);
    Some(out)
}

fn not_in_list(program: &ir::Program, state: &State, v: &Value, span: Span) -> RuntimeError {
    err(
        "not-in-list",
        format!(
            "{} is not in the list it is removed from",
            show(program, state, v)
        ),
        span,
        "check with `if x in xs` before removing",
    )
}

fn clamp(v: Value, bounds: Option<(i64, i64)>) -> Value {
    match (v, bounds) {
        (Value::Int(n), Some((lo, hi))) => Value::Int(n.clamp(lo, hi)),
        (v, _) => v,
    }
}
