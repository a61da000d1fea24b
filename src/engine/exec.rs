//! The statement machine: frames of block cursors that can stop at any decision and resume.
//!
//! Expressions never stop; only `turn`, `choose`, `ask` and `secretly` do. The stack of
//! frames is plain data, so a paused game can be cloned, backed up and restored.

use super::eval::Eval;
use super::several::Pick;
use super::spare;
use super::{show, Audience, Game, LogEntry, Outcome, Pending, RuntimeError, SecretChoice, Turn};
use super::{State, Table};
use crate::diag::Span;
use crate::ir::{self, AssignOp, BlockId, List, Place, StmtKind as S, Value};

/// Bounds that stop runaway rules.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Operations between two decisions: statements, loop passes and expression nodes, all
    /// counted against one budget.
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
            steps_per_decision: 10_000_000,
            loop_iterations: 100_000,
            decisions: 100_000,
            call_depth: 200,
        }
    }
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Frame {
    pub(super) locals: Vec<Value>,
    pub(super) cursors: Vec<Cursor>,
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
    fn note(&mut self, block: BlockId) {
        if let Some(ran) = self.0.get_mut(block.index()) {
            *ran = true;
        }
    }

    /// The blocks run, if noted.
    pub(super) fn get(&self) -> Option<&[bool]> {
        (!self.0.is_empty()).then_some(self.0.as_slice())
    }
}

impl Clone for BlocksRun {
    fn clone(&self) -> BlocksRun {
        BlocksRun::default()
    }
}

#[derive(Debug, Clone)]
pub(super) struct Cursor {
    pub(super) block: BlockId,
    pub(super) pc: usize,
    pub(super) looping: Loop,
}

#[derive(Debug, Clone)]
pub(super) enum Loop {
    Once,
    For {
        slot: ir::Slot,
        items: List,
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
        /// Every seat's choice, all made.
        choices: Vec<SecretChoice>,
        next: usize,
    },
}

impl Loop {
    /// A `for`, `repeat` or `while` of the rules, which `break` and `continue` address.
    fn is_designers_loop(&self) -> bool {
        matches!(
            self,
            Loop::For { .. } | Loop::Repeat { .. } | Loop::While { .. }
        )
    }
}

/// A cursor left early: a secret choice's vector goes back to the pool.
fn give_back(c: Cursor) {
    if let Loop::Secret { choices, .. } = c.looping {
        spare::give_secret_choices(choices);
    }
}

/// The most lines a game's log may hold.
pub const MAX_LOG: usize = 1_000_000;

/// The most parameters an action may have (the checker enforces it).
pub const MAX_PARAMS: usize = 8;

/// What a failed move must put back. Lists are shared with the game until it writes them,
/// so a backup copies handles, not elements.
pub(crate) struct Backup {
    state: super::State,
    rng: super::Rng,
    fixed: Option<Box<super::fixed::Fixed>>,
    frames: Vec<Frame>,
    pending: Option<Pending>,
    outcome: Option<Outcome>,
    log_len: usize,
    history_len: usize,
    decisions: usize,
}

impl Backup {
    pub(crate) fn take(g: &Game) -> Backup {
        Backup {
            state: g.state.clone(),
            rng: g.rng.clone(),
            fixed: g.fixed.clone(),
            frames: g.frames.clone(),
            pending: g.pending.clone(),
            outcome: g.outcome.clone(),
            log_len: g.log.len(),
            history_len: g.history.len(),
            decisions: g.decisions,
        }
    }

    pub(crate) fn restore(self, g: &mut Game) {
        g.state = self.state;
        g.rng = self.rng;
        g.fixed = self.fixed;
        g.frames = self.frames;
        g.pending = self.pending;
        g.outcome = self.outcome;
        g.log.truncate(self.log_len);
        g.history.truncate(self.history_len);
        g.decisions = self.decisions;
    }
}

pub(super) type R<T> = Result<T, RuntimeError>;

pub(super) fn err(
    code: &'static str,
    msg: impl Into<String>,
    span: Span,
    help: &str,
) -> RuntimeError {
    RuntimeError::new(code, msg, span, help)
}

impl From<Box<RuntimeError>> for RuntimeError {
    fn from(e: Box<RuntimeError>) -> RuntimeError {
        *e
    }
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
        for id in std::iter::once(self.program.flow).chain(self.program.setup) {
            let p = &self.program.procs[id.index()];
            let (body, locals) = (p.body, p.locals);
            self.push_frame(body, locals);
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
            self.state.entities[k] = Table::new(n as usize, kind.fields.len());
        }
        self.state.domains = std::sync::Arc::new(super::Domains {
            seats: (0..self.state.players).map(Value::Player).collect(),
            instances: (0..program.kinds.len())
                .map(|k| {
                    (0..self.state.entities[k].len() as u32)
                        .map(|i| Value::Entity(ir::KindId(k as u32), i))
                        .collect()
                })
                .collect(),
            enum_values: program
                .enums
                .iter()
                .enumerate()
                .map(|(e, def)| {
                    (0..def.values.len() as u16)
                        .map(|i| Value::Enum(ir::EnumId(e as u32), i))
                        .collect()
                })
                .collect(),
            code: std::sync::Arc::new(super::compile::Code::compile(&program)),
        });
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
                            *self.state.entities[k.index()].get_mut(i, f) =
                                clamp(v, field.bounds_for(self.state.players));
                            self.state.touch();
                        }
                    }
                }
                ir::InitItem::Global(g) => {
                    let def = &program.globals[g.index()];
                    let v = Eval::new(&program, &self.state).expr(&def.init, &mut locals)?;
                    self.state.globals[g.index()] = clamp(v, def.bounds_for(self.state.players));
                    self.state.touch();
                }
                ir::InitItem::PlayerVar(id) => {
                    let def = &program.player_vars[id.index()];
                    for p in 0..self.state.players as usize {
                        let v = Eval::new(&program, &self.state).expr(&def.init, &mut locals)?;
                        *self.state.player_vars.get_mut(p, id.index()) =
                            clamp(v, def.bounds_for(self.state.players));
                        self.state.touch();
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
        Ok(())
    }

    /// A new frame running `body` with `locals` slots, all `none`, from the spare frames.
    pub(super) fn push_frame(&mut self, body: BlockId, locals: usize) -> &mut Frame {
        let mut frame = spare::frame();
        frame.locals.resize(locals, Value::None);
        self.push_filled_frame(frame, body)
    }

    /// Starts `frame`, its locals already set, running `body`.
    fn push_filled_frame(&mut self, mut frame: Frame, body: BlockId) -> &mut Frame {
        self.ran.note(body);
        frame.cursors.push(Cursor {
            block: body,
            pc: 0,
            looping: Loop::Once,
        });
        self.frames.push(frame);
        self.frames.last_mut().expect("just pushed")
    }

    /// A finished frame, emptied and kept for the next call.
    pub(super) fn pop_frame(&mut self) {
        if let Some(mut frame) = self.frames.pop() {
            frame.locals.clear();
            frame.cursors.clear();
            spare::give_frame(frame);
        }
    }

    /// Runs statements until a decision is pending or the game is over, all on one budget of
    /// work.
    pub(super) fn run(&mut self) -> R<()> {
        self.state.work.arm();
        let result = self.run_armed();
        self.state.work.disarm();
        result
    }

    fn run_armed(&mut self) -> R<()> {
        let program = self.program.clone();
        while self.pending.is_none() && self.outcome.is_none() {
            let Some(frame) = self.frames.last_mut() else {
                return self.finish(None);
            };
            let Some(cursor) = frame.cursors.last_mut() else {
                self.pop_frame();
                continue;
            };
            let block = program.block(cursor.block);
            if cursor.pc >= block.stmts.len() {
                // A loop's pass counts even when its body is empty.
                if !self.state.work.spend(1) {
                    // Name the loop: the statement that opened this block.
                    let span = frame
                        .cursors
                        .iter()
                        .rev()
                        .nth(1)
                        .and_then(|c| program.block(c.block).stmts.get(c.pc.checked_sub(1)?))
                        .map_or(Span::default(), |s| s.span);
                    return Err(*work_spent(self.state.work.budget(), span));
                }
                self.end_of_block(&program)?;
                continue;
            }
            let here = (cursor.block, cursor.pc);
            cursor.pc += 1;
            let stmt = &block.stmts[here.1];
            if !self.state.work.spend(1) {
                return Err(*work_spent(self.state.work.budget(), stmt.span));
            }
            self.exec(&program, stmt, here)?;
        }
        Ok(())
    }

    pub(super) fn frame(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("a running frame")
    }

    fn eval(&mut self, e: &ir::Expr) -> R<Value> {
        // The commonest argument and instance of a place (`t.coins = []`) is a local: read
        // without setting up an evaluator, for the one unit of work an evaluator spends on it.
        if let Some(v) = self.local(e) {
            let v = v.clone();
            self.state.work.fresh();
            // Spent down to nothing, the budget fails at the next check, as after an evaluator.
            let _ = self.state.work.spend(1);
            return Ok(v);
        }
        let frame = self.frames.last_mut().expect("a running frame");
        Ok(Eval::new(&self.program, &self.state).expr(e, &mut frame.locals)?)
    }

    /// The value of the running frame's local that `e` reads, if `e` is a local.
    #[inline]
    fn local(&self, e: &ir::Expr) -> Option<&Value> {
        let ir::ExprKind::Local(s) = e.kind else {
            return None;
        };
        let frame = self.frames.last().expect("a running frame");
        frame.locals.get(s as usize)
    }

    pub(super) fn eval_with<T>(
        &mut self,
        f: impl FnOnce(&mut Eval, &mut Vec<Value>) -> super::eval::R<T>,
    ) -> R<T> {
        let frame = self.frames.last_mut().expect("a running frame");
        Ok(f(
            &mut Eval::new(&self.program, &self.state),
            &mut frame.locals,
        )?)
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
                    self.ran.note(b);
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
                    self.ran.note(*body);
                    self.frame().cursors.push(Cursor {
                        block: *body,
                        pc: 0,
                        looping: Loop::Repeat { left: n },
                    });
                }
            }
            S::While { cond, body } => {
                if self.eval_with(|ev, l| ev.bool(cond, l))? {
                    self.ran.note(*body);
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
                let turn = self.legal_moves(program, p, actions, here)?;
                if turn.moves.is_empty() {
                    self.recycle(turn);
                    return Err(err(
                        "no-legal-move",
                        format!("{} has no legal action", self.seat_name(p)),
                        stmt.span,
                        "every turn needs at least one action whose requirements hold; add a fallback such as `action pass { }`",
                    ));
                }
                self.pending = Some(Pending::Turn(turn));
            }
            S::Choose {
                slot,
                player,
                prompt,
                options,
                secret,
                count,
            } => {
                let p = self.eval_with(|ev, l| ev.player(player, l))?;
                let options = self.eval_with(|ev, l| ev.list(options, l))?;
                let pick = match count {
                    Some(c) => match self.pick_for(c, p, options.len(), stmt.span)? {
                        Some(pick) => Some(pick),
                        None => {
                            // Nothing may be picked: the choice is the empty list, unasked.
                            self.frame().locals[*slot as usize] = List::new().into_value();
                            return Ok(());
                        }
                    },
                    None => None,
                };
                let prompt = self.eager_text(prompt)?;
                if options.is_empty() && pick.is_none() {
                    return Err(err(
                        "no-options",
                        format!("{} must choose from an empty list", self.seat_name(p)),
                        stmt.span,
                        "guard the choice with `if count(...) > 0`",
                    ));
                }
                // One option is no choice: it is taken without asking, unless the game says
                // `always ask`. It is no decision: nothing is recorded, undo passes over it. (A
                // choice of several is asked: picking none of one option is still a choice.)
                if options.len() == 1 && pick.is_none() && !program.always_ask {
                    if self.mode.record {
                        let label = super::moves::option_label(program, &self.state, &options, 0);
                        self.announce_choice(p, format!("{label} (the only option)"), *secret);
                    }
                    self.frame().locals[*slot as usize] = options[0].clone();
                } else {
                    self.pending = Some(Pending::Choose {
                        player: p,
                        prompt,
                        options,
                        slot: *slot,
                        secret: *secret,
                        at: here,
                        pick,
                    });
                }
            }
            S::Ask {
                slot,
                player,
                prompt,
                ..
            } => {
                let p = self.eval_with(|ev, l| ev.player(player, l))?;
                let prompt = self.eager_text(prompt)?;
                self.pending = Some(Pending::Ask {
                    player: p,
                    prompt,
                    slot: *slot,
                    at: here,
                });
            }
            S::Roll { slot, count, die } => {
                let v = match count {
                    None => Value::Int(self.roll_face(die.index(), stmt.span)?),
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
                                .map(|_| self.roll_face(die.index(), stmt.span).map(Value::Int))
                                .collect::<R<_>>()?,
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
                let i = self.pick_index(&items, stmt.span)?;
                self.frame().locals[*slot as usize] = items[i].clone();
            }
            S::Pop { slot, count, place } => {
                let n = match count {
                    Some(c) => Some(self.eval_with(|ev, l| ev.int(c, l))?),
                    None => None,
                };
                let slot_at = self.resolve_place(place)?.0;
                let Value::List(xs) = self.target(slot_at) else {
                    return Err(err(
                        "type-mismatch",
                        "`pop` of a value that is not a list",
                        stmt.span,
                        "this is a bug in the checker",
                    ));
                };
                let have = xs.len() as i64;
                let taken = match n {
                    None if have > 0 => xs.make_mut().pop().unwrap_or(Value::None),
                    Some(n) if (0..=have).contains(&n) => {
                        let rest = xs.make_mut().split_off((have - n) as usize);
                        Value::List(rest.into_iter().collect())
                    }
                    _ => {
                        let want = n.unwrap_or(1);
                        return Err(err(
                            "out-of-range",
                            format!("cannot take {want} off a list of {have}"),
                            stmt.span,
                            "check with `count(xs)` before taking elements off",
                        ));
                    }
                };
                self.frame().locals[*slot as usize] = taken;
            }
            S::Shuffle { slot, from } => {
                let mut items = self.eval_with(|ev, l| ev.list(from, l))?;
                self.shuffle_items(items.make_mut(), stmt.span)?;
                self.frame().locals[*slot as usize] = Value::List(items);
            }
            // A playout keeps no log, so its lines are not even rendered.
            S::Log(_) | S::Tell { .. } if !self.mode.record => {}
            S::Log(_) | S::Tell { .. } if self.log.len() >= MAX_LOG => {
                return Err(err(
                    "log-limit",
                    format!("the log passed {MAX_LOG} lines"),
                    stmt.span,
                    "a loop here logs on and on; log a summary instead",
                ));
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
            S::Finish(reason, winners) => {
                let reason = match reason {
                    Some(t) => Some(self.eval_with(|ev, l| ev.text(t, l))?),
                    None => None,
                };
                let winners = match winners {
                    Some(w) => Some(self.eval(w)?.seats()),
                    None => None,
                };
                self.finish_as(reason, winners)?;
            }
            S::Secretly {
                player_slot,
                players,
                count,
                choice_slot,
                prompt,
                options,
                then,
            } => {
                let who = self.eval_with(|ev, l| ev.list(players, l))?;
                let mut choices = spare::secret_choices();
                for w in who.iter() {
                    let Value::Player(p) = *w else { continue };
                    self.frame().locals[*player_slot as usize] = Value::Player(p);
                    let found = self
                        .eval_with(|ev, l| ev.list(options, l))
                        .and_then(|o| Ok((o, self.eager_text(prompt)?)));
                    let found = found.and_then(|(o, prompt)| {
                        let pick = match count {
                            Some(c) => Some(self.pick_for(c, p, o.len(), stmt.span)?),
                            None => None,
                        };
                        Ok((o, prompt, pick))
                    });
                    let (o, prompt, pick) = match found {
                        Ok(found) => found,
                        Err(e) => {
                            spare::give_secret_choices(choices);
                            return Err(e);
                        }
                    };
                    if let Some(pick) = pick {
                        // A seat that may pick nothing has chosen the empty list, unasked.
                        let chosen = pick.is_none().then_some(0);
                        let pick = Some(pick.unwrap_or_else(|| Pick::new(0, 0)));
                        choices.push(SecretChoice {
                            seat: p,
                            prompt,
                            options: o,
                            chosen,
                            pick,
                        });
                        continue;
                    }
                    if o.is_empty() {
                        spare::give_secret_choices(choices);
                        return Err(err(
                            "no-options",
                            format!("{} must choose from an empty list", self.seat_name(p)),
                            stmt.span,
                            "make sure every player has something to choose",
                        ));
                    }
                    choices.push(SecretChoice {
                        seat: p,
                        prompt,
                        options: o,
                        chosen: None,
                        pick: None,
                    });
                }
                if choices.is_empty() {
                    spare::give_secret_choices(choices);
                } else if choices.iter().all(|c| c.chosen.is_some()) {
                    self.frame().cursors.push(Cursor {
                        block: *then,
                        pc: usize::MAX,
                        looping: Loop::Secret {
                            player_slot: *player_slot,
                            choice_slot: *choice_slot,
                            choices,
                            next: 0,
                        },
                    });
                } else {
                    self.pending = Some(Pending::Secret {
                        choices,
                        player_slot: *player_slot,
                        choice_slot: *choice_slot,
                        then: *then,
                        at: here,
                    });
                }
            }
            S::Call { proc, args } => {
                // The arguments are evaluated straight into the callee's frame, which is
                // pushed only once they all are.
                let callee = &program.procs[proc.index()];
                let mut frame = spare::frame();
                frame
                    .locals
                    .resize(callee.locals.max(args.len()), Value::None);
                let filled: R<()> = frame.locals.iter_mut().zip(args).try_for_each(|(slot, a)| {
                    *slot = self.eval(a)?;
                    Ok(())
                });
                let fits = self.frames.len() < self.limits.call_depth;
                if filled.is_err() || !fits {
                    frame.locals.clear();
                    spare::give_frame(frame);
                    filled?;
                    return Err(err(
                        "call-depth",
                        format!("calls nest more than {} deep", self.limits.call_depth),
                        stmt.span,
                        "an effect or phase may be calling itself without end",
                    ));
                }
                self.push_filled_frame(frame, callee.body);
            }
            S::Match {
                value,
                arms,
                none,
                otherwise,
            } => {
                let arm = match self.eval(value)? {
                    Value::Enum(_, i) => arms.get(i as usize).copied().flatten(),
                    _ => *none,
                };
                let Some(block) = arm.or(*otherwise) else {
                    return Err(err(
                        "no-value",
                        "`match` of `none`, and no arm takes `none`",
                        value.span,
                        "add an arm `none { ... }` or `else { ... }`, or make sure the value is set",
                    ));
                };
                self.ran.note(block);
                self.frame().cursors.push(Cursor {
                    block,
                    pc: 0,
                    looping: Loop::Once,
                });
            }
            S::Return => {
                // The frame, left with no cursor, is popped by the machine's next step.
                while let Some(c) = self.frame().cursors.pop() {
                    give_back(c);
                }
            }
            S::Break => {
                while let Some(c) = self.frame().cursors.pop() {
                    let was_loop = c.looping.is_designers_loop();
                    give_back(c);
                    if was_loop {
                        break;
                    }
                }
            }
            S::Continue => {
                let cursors = &mut self.frame().cursors;
                while let Some(c) = cursors.last() {
                    if c.looping.is_designers_loop() {
                        break;
                    }
                    if let Some(c) = cursors.pop() {
                        give_back(c);
                    }
                }
                // At its end, the loop's block starts its next pass (or ends the loop).
                if let Some(c) = cursors.last_mut() {
                    c.pc = usize::MAX;
                }
            }
        }
        Ok(())
    }

    /// A text rendered now in a game for people, and left to be rendered when read in a
    /// playout.
    fn eager_text(&mut self, text: &ir::Text) -> R<Option<String>> {
        if self.mode.record {
            Ok(Some(self.eval_with(|ev, l| ev.text(text, l))?))
        } else {
            Ok(None)
        }
    }

    /// Gives a consumed turn's vectors back for the next turn.
    pub(super) fn recycle(&mut self, turn: Turn) {
        spare::give_moves(turn.moves);
        spare::give_values(turn.args);
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
                    self.ran.note(cursor.block);
                } else {
                    frame.cursors.pop();
                }
            }
            Loop::Secret {
                player_slot,
                choice_slot,
                choices,
                next,
            } => {
                if let Some(c) = choices.get(*next) {
                    *next += 1;
                    frame.locals[*player_slot as usize] = Value::Player(c.seat);
                    frame.locals[*choice_slot as usize] = match &c.pick {
                        Some(pick) => pick.result(&c.options),
                        None => c.options[c.chosen.unwrap_or(0)].clone(),
                    };
                    cursor.pc = 0;
                    self.ran.note(cursor.block);
                } else if let Some(Cursor {
                    looping: Loop::Secret { choices, .. },
                    ..
                }) = frame.cursors.pop()
                {
                    spare::give_secret_choices(choices);
                }
            }
        }
        Ok(())
    }

    /// A place resolved to indices, with the bounds its values are clamped to.
    fn resolve_place(&mut self, place: &Place) -> R<(Slot, Option<(i64, i64)>)> {
        let slot = match place {
            Place::Local(s) => Slot::Local(*s as usize),
            Place::Global(g) => Slot::Global(g.index()),
            Place::PlayerVar(p, id) => {
                // As `Eval::player` reads `me` and other players in locals: for no work.
                let p = match self.local(p) {
                    Some(&Value::Player(p)) => p,
                    _ => self.eval_with(|ev, l| ev.player(p, l))?,
                };
                Slot::Player(p as usize, id.index())
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
                Slot::Field(k.index(), i, f.index())
            }
        };
        let program = &self.program;
        let bounds = match slot {
            Slot::Local(_) => None,
            Slot::Global(g) => program.globals[g].bounds_for(self.state.players),
            Slot::Player(_, v) => program.player_vars[v].bounds_for(self.state.players),
            Slot::Field(k, _, f) => program.kinds[k].fields[f].bounds_for(self.state.players),
        };
        Ok((slot, bounds))
    }

    /// The value a resolved place holds, to change in place.
    fn target(&mut self, slot: Slot) -> &mut Value {
        // Results remembered for the old value no longer apply.
        let variables = &self.program.variables;
        match slot {
            Slot::Local(_) => {}
            Slot::Global(g) => self.state.touch_variable(variables.global(g)),
            Slot::Player(_, v) => self.state.touch_variable(variables.player_var(v)),
            Slot::Field(k, _, f) => self.state.touch_variable(variables.field(k, f)),
        }
        match slot {
            Slot::Local(s) => &mut self.frames.last_mut().expect("frame").locals[s],
            Slot::Global(g) => &mut self.state.globals[g],
            Slot::Player(p, i) => self.state.player_vars.get_mut(p, i),
            Slot::Field(k, i, f) => self.state.entities[k].get_mut(i, f),
        }
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
        // Resolve the place to indices first, so the new value can be computed while the
        // state is still readable as a whole.
        let (slot, bounds) = self.resolve_place(place)?;
        let target: &mut Value = self.target(slot);
        let overflow = || {
            err(
                "overflow",
                "a number grew too large",
                span,
                "keep numbers smaller",
            )
        };
        // Lists change in place (copied first only if shared); every check comes before the
        // first write, so a failing assignment leaves the place as it was.
        let new = match (op, &mut *target, v) {
            (AssignOp::Set, _, v) => v,
            (AssignOp::Add, Value::List(xs), v) if element => {
                super::eval::check_len(xs.len() + 1, span)?;
                xs.push(v);
                return Ok(());
            }
            (AssignOp::Sub, Value::List(xs), v) if element => {
                let Some(i) = xs.iter().position(|x| *x == v) else {
                    return Err(not_in_list(&self.program, &self.state, &v, span));
                };
                xs.make_mut().remove(i);
                return Ok(());
            }
            (AssignOp::Add, Value::List(xs), Value::List(ys)) => {
                super::eval::check_len(xs.len() + ys.len(), span)?;
                xs.make_mut().extend_from_slice(&ys);
                return Ok(());
            }
            (AssignOp::Sub, Value::List(xs), Value::List(ys)) => {
                let mut rest = xs.clone();
                for y in ys.iter() {
                    let Some(i) = rest.iter().position(|x| x == y) else {
                        return Err(not_in_list(&self.program, &self.state, y, span));
                    };
                    rest.make_mut().remove(i);
                }
                *xs = rest;
                return Ok(());
            }
            (AssignOp::Add, Value::Int(a), Value::Int(b)) => {
                Value::Int(a.checked_add(b).ok_or_else(overflow)?)
            }
            (AssignOp::Sub, Value::Int(a), Value::Int(b)) => {
                Value::Int(a.checked_sub(b).ok_or_else(overflow)?)
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
        *target = clamp(new, bounds);
        Ok(())
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
/// A place resolved to indices.
enum Slot {
    Local(usize),
    Global(usize),
    Player(usize, usize),
    Field(usize, usize, usize),
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

/// The error when the operation budget runs out.
pub(super) fn work_spent(budget: u64, span: Span) -> Box<RuntimeError> {
    Box::new(RuntimeError::new(
        "step-limit",
        format!(
            "more than {budget} operations (statements, loop passes, expression steps) without a decision"
        ),
        span,
        "a loop or a recursion here may never end, or does far more work than a rule should; make sure it stops",
    ))
}
