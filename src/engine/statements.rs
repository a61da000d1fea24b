//! The statements that run straight through: bindings, assignments, decisions, chance, calls,
//! log lines and the end of the game. Branches and loops are jumps of the machine
//! (`exec.rs`, over `compile::flat`).

use super::compile::flat::Body;
use super::compile::flat::Store;
use super::exec::{err, SecretLoop, MAX_LOG, R};
use super::several::Pick;
use super::spare;
use super::State;
use super::{show, At, Audience, Game, LogEntry, Pending, RuntimeError, SecretChoice};
use crate::diag::Span;
use crate::ir::{self, AssignOp, List, Place, StmtKind as S, Value};

/// What a `secretly` statement found when it asked its choosers.
pub(super) enum Asked {
    /// Nobody chooses: the block does not run.
    Nobody,
    /// Every chooser has chosen already (each picks nothing): the block runs for each.
    Chosen,
    /// The choosers must choose: the game waits.
    Waiting,
}

/// What a `choose` offers when it is reached, as both ways of taking it read it: the machine's,
/// which leaves it pending (`Game::exec`), and the fast path's, which takes a bot's pick in
/// place (`exec.rs`).
pub(super) enum Offer {
    /// A choice of several from which nothing may be picked: the empty list, unasked.
    Nothing,
    /// A choice of one element with a single option: no choice, taken without asking.
    Only {
        /// Who would have chosen.
        seat: u8,
        /// The option.
        option: Value,
    },
    /// A question for `seat`.
    Ask {
        /// Who chooses.
        seat: u8,
        /// What from.
        options: List,
        /// For a choice of several, how many may be picked.
        pick: Option<Pick>,
    },
}

impl Game {
    /// What the `choose` `stmt` offers now. Refused: a chooser out of the game, no option to
    /// choose, a count that cannot be met. One option is no choice unless the game or the
    /// choice says `always ask`, or the options depend on what some seat may not see (`asked`:
    /// being spared the question would tell the table); a choice of several is always asked,
    /// as picking none of one option is still a choice.
    pub(super) fn offer(&mut self, program: &ir::Program, stmt: &ir::Stmt) -> R<Offer> {
        let S::Choose {
            player,
            options,
            count,
            asked,
            ..
        } = &stmt.kind
        else {
            return Ok(Offer::Nothing);
        };
        let asked = *asked || program.always_ask;
        let seat = self.seat_of(player)?;
        self.still_in(seat, stmt.span)?;
        let options = self.eval_with(|ev, l| ev.list(options, l))?;
        let pick = match count {
            Some(c) => match self.pick_for(c, seat, options.len(), stmt.span)? {
                Some(pick) => Some(pick),
                // Nothing may be picked: asked all the same (`none` the only answer) where
                // being spared the question would tell a secret.
                None if asked => Some(Pick::new(0, 0)),
                None => return Ok(Offer::Nothing),
            },
            None => None,
        };
        if pick.is_none() {
            if options.is_empty() {
                return Err(no_options(self.seat_name(seat), stmt.span));
            }
            if options.len() == 1 && !asked {
                let option = options[0].clone();
                return Ok(Offer::Only { seat, option });
            }
        }
        Ok(Offer::Ask {
            seat,
            options,
            pick,
        })
    }

    /// The next turn of the `window` `stmt` at `here`: the next seat in its round that is in
    /// the game and has a legal move is left to decide (true), each one passed over counted
    /// with the declines; false once a full round has declined or been passed over.
    pub(super) fn window_turn(
        &mut self,
        program: &ir::Program,
        stmt: &ir::Stmt,
        here: At,
    ) -> R<bool> {
        let S::Window {
            actions,
            seats_slot,
            seat_slot,
            quiet_slot,
            ..
        } = &stmt.kind
        else {
            return Ok(false);
        };
        let seats = match self.local_at(*seats_slot) {
            Value::List(seats) => seats.clone(),
            _ => List::new(),
        };
        let n = seats.len() as i64;
        let int = |v: &Value| match v {
            Value::Int(i) => *i,
            _ => 0,
        };
        // Each seat passed over counts one more, so this ends within one round.
        loop {
            let quiet = int(self.local_at(*quiet_slot));
            if quiet >= n {
                return Ok(false);
            }
            let next = int(self.local_at(*seat_slot)).rem_euclid(n);
            self.local_mut(*seat_slot).put(Value::Int((next + 1) % n));
            let seat = match &seats[next as usize] {
                Value::Player(p) => Some(p.get()),
                _ => None,
            };
            if let Some(seat) = seat.filter(|s| !self.state.is_out(*s)) {
                let turn = self.legal_moves(program, seat, actions, here)?;
                if !turn.moves.is_empty() {
                    self.pending = Some(Pending::Turn(turn));
                    return Ok(true);
                }
                self.recycle(turn);
                // Said aloud, as a decline is: the checker made sure the reason is public
                // (`window-hidden-pass`).
                if self.mode.record {
                    let name = self.seat_name(seat);
                    self.announce(
                        Audience::All,
                        format!("{name} has no move and is passed over"),
                    );
                }
            }
            self.local_mut(*quiet_slot).put(Value::Int(quiet + 1));
        }
    }

    /// Runs a statement that does not jump (other than a binding, an assignment or a call,
    /// which the machine runs itself).
    pub(super) fn exec(&mut self, program: &ir::Program, stmt: &ir::Stmt, here: At) -> R<()> {
        match &stmt.kind {
            S::Turn { player, actions } => {
                let p = self.eval_with(|ev, l| ev.player(player, l))?;
                // A player out of the game has no turn: it is skipped.
                if self.state.is_out(p) {
                    return Ok(());
                }
                let turn = self.legal_moves(program, p, actions, here)?;
                if turn.moves.is_empty() {
                    self.recycle(turn);
                    return Err(no_legal_move(self.seat_name(p), stmt.span));
                }
                self.pending = Some(Pending::Turn(turn));
            }
            S::Choose { .. } => self.reach_choose(program, stmt, here)?,
            S::Ask {
                slot,
                player,
                prompt,
                ..
            } => {
                let p = self.eval_with(|ev, l| ev.player(player, l))?;
                self.still_in(p, stmt.span)?;
                let prompt = self.eager_text(prompt)?;
                self.pending = Some(Pending::Ask {
                    player: p,
                    prompt,
                    slot: *slot,
                    at: here,
                });
            }
            S::Roll { slot, count, die } => {
                let v = self.roll_stmt(count.as_ref(), *die, stmt.span)?;
                *self.local_mut(*slot) = v;
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
                *self.local_mut(*slot) = items[i].clone();
            }
            S::Pop {
                slot,
                count,
                place,
                path,
                at,
            } => {
                let taken = self.pop(count.as_ref(), place, path, at.as_ref(), stmt.span)?;
                *self.local_mut(*slot) = taken;
            }
            S::Shuffle { slot, from } => {
                let mut items = self.eval_with(|ev, l| ev.list(from, l))?;
                self.shuffle_items(items.make_mut(), stmt.span)?;
                *self.local_mut(*slot) = Value::List(items);
            }
            S::Log(text) => self.log_line(None, text, stmt.span)?,
            S::Tell { player, text } => self.log_line(Some(player), text, stmt.span)?,
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
            S::Eliminate { player, reason } => {
                let p = self.eval_with(|ev, l| ev.player(player, l))?;
                self.eliminate(p, reason.as_ref(), stmt.span)?;
            }
            S::Reveal { item, shown } => self.reveal(item, *shown)?,
            S::Let(..) | S::Assign { .. } | S::Call { .. } => {
                unreachable!("the machine runs bindings, assignments and calls itself")
            }
            S::If { .. }
            | S::While { .. }
            | S::Repeat { .. }
            | S::For { .. }
            | S::Secretly { .. }
            | S::Window { .. }
            | S::Match { .. }
            | S::Return
            | S::Break
            | S::Continue => unreachable!("a jumping statement is an instruction of its own"),
        }
        Ok(())
    }

    /// `reveal c` (`shown`) or `conceal c`.
    fn reveal(&mut self, item: &ir::Expr, shown: bool) -> R<()> {
        match self.eval(item)? {
            Value::Entity(x) => self.state.reveal(x.kind().index(), x.index(), shown),
            // The checker typed it an instance: only `none` is left.
            _ => {
                return Err(err(
                    "no-value",
                    "this is `none`, not an instance to reveal or conceal".to_string(),
                    item.span,
                    "check for `none` first: `if c != none { reveal c }`",
                ))
            }
        }
        Ok(())
    }

    /// A `choose` reached: nothing to pick, the only option taken, or a question left pending.
    fn reach_choose(&mut self, program: &ir::Program, stmt: &ir::Stmt, here: At) -> R<()> {
        let S::Choose {
            slot,
            prompt,
            secret,
            element,
            ..
        } = &stmt.kind
        else {
            unreachable!("called for a choose")
        };
        match self.offer(program, stmt)? {
            // Nothing may be picked: the choice is the empty list, unasked.
            Offer::Nothing => *self.local_mut(*slot) = List::new().into_value(),
            // No decision: nothing is recorded, undo passes over it.
            Offer::Only { seat, option } => {
                if self.mode.record {
                    let one = std::slice::from_ref(&option);
                    let shown = super::moves::shown_by_type(element);
                    let label = super::moves::option_label(program, &self.state, one, 0, shown);
                    self.announce_choice(seat, format!("{label} (the only option)"), *secret);
                } else if self.replay.is_some() {
                    self.observe_only_option(seat, *secret, &option);
                }
                *self.local_mut(*slot) = option;
            }
            Offer::Ask {
                seat,
                options,
                pick,
            } => {
                let prompt = self.eager_text(prompt)?;
                self.pending = Some(Pending::Choose {
                    player: seat,
                    prompt,
                    options,
                    slot: *slot,
                    secret: *secret,
                    at: here,
                    pick,
                });
            }
        }
        Ok(())
    }

    /// What `roll d6` or `roll n of d6` rolls: a face, or a list of `n` faces.
    fn roll_stmt(&mut self, count: Option<&ir::Expr>, die: ir::DieId, span: Span) -> R<Value> {
        Ok(match count {
            None => Value::Int(self.roll_face(die.index(), span)?),
            Some(c) => {
                let n = self.eval_with(|ev, l| ev.int(c, l))?;
                if !(0..=1000).contains(&n) {
                    return Err(err(
                        "bad-count",
                        format!("cannot roll {n} dice"),
                        span,
                        "roll from 0 to 1000 dice",
                    ));
                }
                Value::List(
                    (0..n)
                        .map(|_| self.roll_face(die.index(), span).map(Value::Int))
                        .collect::<R<_>>()?,
                )
            }
        })
    }

    /// A `log` line (`player` none) or a `tell` to one player. A playout keeps no log, so its
    /// lines are not even rendered; a replay notes what its seat reads of them.
    fn log_line(&mut self, player: Option<&ir::Expr>, text: &ir::Text, span: Span) -> R<()> {
        if !self.mode.record {
            if self.replay.is_some() {
                let p = match player {
                    Some(p) => Some(self.eval_with(|ev, l| ev.player(p, l))?),
                    None => None,
                };
                self.observe_line(text, p, span)?;
            }
            return Ok(());
        }
        if self.log.len() >= MAX_LOG {
            return Err(err(
                "log-limit",
                format!("the log passed {MAX_LOG} lines"),
                span,
                "a loop here logs on and on; log a summary instead",
            ));
        }
        let audience = match player {
            Some(p) => Audience::Only(vec![self.eval_with(|ev, l| ev.player(p, l))?]),
            None => Audience::All,
        };
        let text = self.eval_with(|ev, l| ev.text(text, l))?;
        self.log.push(LogEntry {
            announcement: false,
            audience,
            text,
        });
        Ok(())
    }

    /// A call of an effect or phase: its arguments are evaluated straight into the callee's
    /// slots, pushed on the stack past the caller's; the frame starts only once they all are.
    pub(super) fn call(&mut self, program: &ir::Program, procs: &[Body], stmt: &ir::Stmt) -> R<()> {
        let S::Call { proc, args } = &stmt.kind else {
            unreachable!("a call instruction on a call")
        };
        let callee = &program.procs[proc.index()];
        let body = procs[proc.index()];
        let base = self.stack.len();
        let size = (body.slots as usize).max(args.len());
        self.stack.resize_with(base + size, || Value::None);
        for (i, a) in args.iter().enumerate() {
            match self.eval(a) {
                Ok(v) => self.stack[base + i] = v,
                Err(e) => {
                    self.stack.truncate(base);
                    return Err(e);
                }
            }
        }
        if self.frames.len() >= self.limits.call_depth {
            self.stack.truncate(base);
            return Err(err(
                "call-depth",
                format!("calls nest more than {} deep", self.limits.call_depth),
                stmt.span,
                "an effect or phase may be calling itself without end",
            ));
        }
        self.start_frame(body.entry, base, callee.body);
        Ok(())
    }

    /// Takes `p` out of the game (a second time changes nothing), logging why; the last
    /// player still in going out ends the game.
    fn eliminate(&mut self, p: u8, reason: Option<&ir::Text>, site: Span) -> R<()> {
        if self.state.is_out(p) {
            return Ok(());
        }
        if self.mode.record {
            let why = match reason {
                Some(t) => format!(": {}", self.eval_with(|ev, l| ev.text(t, l))?),
                None => String::new(),
            };
            self.log.push(LogEntry {
                announcement: false,
                audience: Audience::All,
                text: format!("{} is out of the game{why}", self.seat_name(p)),
            });
        } else if let (Some(t), true) = (reason, self.replay.is_some()) {
            self.observe_line(t, None, site)?;
        }
        let decisions = u32::try_from(self.decisions).unwrap_or(u32::MAX);
        self.state.eliminate(p, decisions);
        if self.state.players_in().is_empty() {
            self.finish_as(Some("everyone is out".to_string()), None)?;
        }
        Ok(())
    }

    /// Fails a decision put to a player out of the game: nobody is left to take it.
    pub(super) fn still_in(&self, p: u8, site: Span) -> R<()> {
        if !self.state.is_out(p) {
            return Ok(());
        }
        Err(err(
            "eliminated-player",
            format!(
                "{} is out of the game and decides nothing",
                self.seat_name(p)
            ),
            site,
            "ask only players still in: `if p in players { ... }`",
        ))
    }

    /// Asks every chooser of a `secretly` statement: each seat's options, prompt and count.
    pub(super) fn ask_secretly(&mut self, stmt: &ir::Stmt, here: At) -> R<Asked> {
        let S::Secretly {
            player_slot,
            players,
            count,
            choice_slot,
            prompt,
            options,
            then,
            asked,
            ..
        } = &stmt.kind
        else {
            unreachable!("a secretly instruction on a secretly statement")
        };
        let who = self.eval_with(|ev, l| ev.list(players, l))?;
        let mut choices = spare::secret_choices();
        for w in who.iter() {
            let Value::Player(seat) = *w else { continue };
            // A player out of the game is not asked, and the block does not run for them.
            if self.state.is_out(seat.get()) {
                continue;
            }
            *self.local_mut(*player_slot) = Value::Player(seat);
            let p = seat.get();
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
                // A seat that may pick nothing has chosen the empty list, unasked, unless
                // that would tell a secret.
                let chosen = (pick.is_none() && !asked).then_some(0);
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
        Ok(if choices.is_empty() {
            spare::give_secret_choices(choices);
            Asked::Nobody
        } else if choices.iter().all(|c| c.chosen.is_some()) {
            self.secrets.push(SecretLoop {
                frame: self.frames.len(),
                choices,
                next: 0,
            });
            Asked::Chosen
        } else {
            self.pending = Some(Pending::Secret {
                choices,
                player_slot: *player_slot,
                choice_slot: *choice_slot,
                then: *then,
                at: here,
            });
            Asked::Waiting
        })
    }

    /// A text rendered now in a game for people, and left to be rendered when read in a
    /// playout.
    pub(super) fn eager_text(&mut self, text: &ir::Text) -> R<Option<String>> {
        if self.mode.record {
            Ok(Some(self.eval_with(|ev, l| ev.text(text, l))?))
        } else {
            Ok(None)
        }
    }

    /// A place resolved to indices, with the bounds its values are clamped to.
    pub(super) fn resolve_place(&mut self, place: &Place) -> R<(Slot, Option<(i64, i64)>)> {
        let slot = match place {
            Place::Local(s) => Slot::Local(*s as usize),
            Place::Global(g) => Slot::Global(g.index()),
            Place::PlayerVar(p, id) => {
                // As `Eval::player` reads `me` and other players in locals: for no work.
                let p = match self.local(p) {
                    Some(&Value::Player(p)) => p.get(),
                    _ => self.eval_with(|ev, l| ev.player(p, l))?,
                };
                Slot::Player(p as usize, id.index())
            }
            Place::Field(x, k, f) => {
                let i = match self.eval(x)? {
                    Value::Entity(x) if x.kind() == *k => x.index() as usize,
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
    #[inline(always)]
    pub(super) fn target(&mut self, slot: Slot) -> &mut Value {
        // Results remembered for the old value no longer apply.
        let variables = &self.program.variables;
        match slot {
            Slot::Local(_) => {}
            Slot::Global(g) => self.state.touch_variable(variables.global(g)),
            Slot::Player(_, v) => self.state.touch_variable(variables.player_var(v)),
            Slot::Field(k, _, f) => self.state.touch_variable(variables.field(k, f)),
        }
        match slot {
            Slot::Local(s) => self.local_mut(s as ir::Slot),
            Slot::Global(g) => &mut self.state.globals[g],
            Slot::Player(p, i) => self.state.player_vars.get_mut(p, i),
            Slot::Field(k, i, f) => self.state.entities[k].get_mut(i, f),
        }
    }

    /// Runs an assignment, and says whether it clamped the number written to the variable's
    /// bounds. Its place is `store` when it was resolved when compiling; else, or when the
    /// local it names does not hold a seat or an instance (`none`), the place is found by
    /// evaluating it, which also fails as it must. Either way the same reads, work and errors.
    pub(super) fn assign(
        &mut self,
        store: Option<Store>,
        place: &Place,
        op: AssignOp,
        value: &ir::Expr,
        element: bool,
        span: Span,
    ) -> R<bool> {
        let v = self.eval(value)?;
        // Resolve the place to indices first, so the new value can be computed while the
        // state is still readable as a whole.
        let (slot, bounds) = match store.and_then(|s| self.stored_place(s)) {
            Some(resolved) => resolved,
            None => self.resolve_place(place)?,
        };
        match self.write_in_parts(slot, bounds, op, &v) {
            Some(clamped) => Ok(clamped),
            None => self.write_other(slot, bounds, op, v, element, span),
        }
    }

    /// The place of an assignment resolved when compiling, as [`Game::resolve_place`] would
    /// find it; `None` when its local holds no seat or instance.
    #[inline(always)]
    fn stored_place(&self, store: Store) -> Option<(Slot, Option<(i64, i64)>)> {
        let players = self.state.players;
        let program = &self.program;
        match store {
            Store::Local(s) => Some((Slot::Local(s as usize), None)),
            Store::Global(g) => {
                let g = g as usize;
                Some((Slot::Global(g), program.globals[g].bounds_for(players)))
            }
            Store::Seat { slot, column } => match self.local_at(slot) {
                // As `resolve_place` reads a seat in a local: for no work.
                Value::Player(p) => {
                    let c = column as usize;
                    let bounds = program.player_vars[c].bounds_for(players);
                    Some((Slot::Player(p.get() as usize, c), bounds))
                }
                _ => None,
            },
            Store::Field { slot, kind, column } => match self.local_at(slot) {
                Value::Entity(x) if x.kind().index() == kind as usize => {
                    let (k, f) = (kind as usize, column as usize);
                    let bounds = program.kinds[k].fields[f].bounds_for(players);
                    // As `resolve_place` evaluates the instance: a local, for no work.
                    Some((Slot::Field(k, x.index() as usize, f), bounds))
                }
                _ => None,
            },
        }
    }

    /// Writes `v` into a resolved place by `op`, within `bounds`, when it is no list and the
    /// write is a plain one: anything set, a number added to or taken from a number, and says
    /// whether it clamped. `None`, writing nothing, otherwise (lists, an overflow), for
    /// [`Game::write_other`].
    ///
    /// The new value is written in its two words (`Value::put`), never copied whole straight
    /// after being written in parts, which the processor cannot forward (docs/performance-log.md).
    #[inline(always)]
    fn write_in_parts(
        &mut self,
        slot: Slot,
        bounds: Option<(i64, i64)>,
        op: AssignOp,
        v: &Value,
    ) -> Option<bool> {
        let (new, clamped) = match (op, v) {
            (AssignOp::Set, Value::Int(b)) => {
                let n = clamp_int(*b, bounds);
                (Value::Int(n), n != *b)
            }
            (_, Value::Int(b)) => {
                let target: &mut Value = self.target(slot);
                let Value::Int(a) = *target else {
                    return None;
                };
                let n = match op {
                    AssignOp::Add => a.checked_add(*b),
                    _ => a.checked_sub(*b),
                };
                let n = n?;
                let held = clamp_int(n, bounds);
                target.put(Value::Int(held));
                return Some(held != n);
            }
            (AssignOp::Set, Value::List(_)) => return None,
            (AssignOp::Set, v) => (v.clone(), false),
            _ => return None,
        };
        self.target(slot).put(new);
        Some(clamped)
    }

    /// The work of writing `v` to `slot` by `op`: a list added spends its elements, and a
    /// removal scans the list it removes from once for each value removed.
    fn write_work(&mut self, slot: Slot, op: AssignOp, v: &Value, element: bool) -> u64 {
        match (op, v) {
            (AssignOp::Add, Value::List(ys)) if !element => ys.len() as u64,
            (AssignOp::Sub, v) => {
                let scan = match self.target(slot) {
                    Value::List(xs) => super::eval::scan_work(xs.len()),
                    _ => 0,
                };
                match v {
                    Value::List(ys) if !element => scan.saturating_mul(ys.len() as u64),
                    _ => scan,
                }
            }
            _ => 0,
        }
    }

    /// The write of an assignment that [`Game::write_in_parts`] leaves: to or from a list, a
    /// number added to something else, and an overflow; whether it clamped.
    fn write_other(
        &mut self,
        slot: Slot,
        bounds: Option<(i64, i64)>,
        op: AssignOp,
        v: Value,
        element: bool,
        span: Span,
    ) -> R<bool> {
        // A list built or scanned spends its elements, before anything is written.
        let work = self.write_work(slot, op, &v, element);
        if work > 0 && !self.state.work.spend(work) {
            return Err(super::exec::work_spent(self.state.work.budget(), span));
        }
        // What the game holds grows only by what is written into it (`Game::check_live`).
        if let (
            AssignOp::Set | AssignOp::Add,
            Slot::Global(_) | Slot::Player(..) | Slot::Field(..),
        ) = (op, slot)
        {
            let added = super::live::elements_in(&v) + u64::from(element);
            self.state.work.note_built(added);
        }
        // Noted as written here too: a number added to something else, or overflowing, was
        // noted by `write_in_parts` already, and a second note costs only a fresh epoch.
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
                return Ok(false);
            }
            (AssignOp::Sub, Value::List(xs), v) if element => {
                let Some(i) = xs.iter().position(|x| *x == v) else {
                    return Err(not_in_list(&self.program, &self.state, &v, span));
                };
                xs.make_mut().remove(i);
                return Ok(false);
            }
            (AssignOp::Add, Value::List(xs), Value::List(ys)) => {
                super::eval::check_len(xs.len() + ys.len(), span)?;
                xs.make_mut().extend_from_slice(&ys);
                return Ok(false);
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
                return Ok(false);
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
        let clamped = match new {
            Value::Int(n) => {
                let held = clamp_int(n, bounds);
                target.put(Value::Int(held));
                held != n
            }
            // A map of bounded numbers (`int in 0..7 by gem`): each entry held in the bounds.
            Value::List(mut xs) if bounds.is_some() => {
                let clamped = clamp_entries(&mut xs, bounds);
                target.put(Value::List(xs));
                clamped
            }
            new => {
                target.put(new);
                false
            }
        };
        Ok(clamped)
    }
}

/// A place resolved to indices.
#[derive(Clone, Copy)]
pub(super) enum Slot {
    Local(usize),
    Global(usize),
    Player(usize, usize),
    Field(usize, usize, usize),
}

pub(super) fn not_in_list(
    program: &ir::Program,
    state: &State,
    v: &Value,
    span: Span,
) -> Box<RuntimeError> {
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

/// A number held within a variable's bounds, if it has them; a list (a map of bounded
/// numbers, `int in 0..7 by gem`) has each of its numbers held.
pub(super) fn clamp(v: Value, bounds: Option<(i64, i64)>) -> Value {
    match v {
        Value::Int(n) => Value::Int(clamp_int(n, bounds)),
        Value::List(mut xs) if bounds.is_some() => {
            clamp_entries(&mut xs, bounds);
            Value::List(xs)
        }
        v => v,
    }
}

/// Holds every number of `xs` within `bounds`, at every level of a map of maps, and says
/// whether one was out of them. The list is written (and copied, if shared) only when one
/// was: a write that keeps every entry in range costs a scan and builds nothing.
fn clamp_entries(xs: &mut List, bounds: Option<(i64, i64)>) -> bool {
    if !xs.iter().any(|x| out_of(x, bounds)) {
        return false;
    }
    for x in xs.make_mut().iter_mut() {
        match x {
            Value::Int(n) => *n = clamp_int(*n, bounds),
            Value::List(inner) => {
                clamp_entries(inner, bounds);
            }
            _ => {}
        }
    }
    true
}

/// Whether a number of `x`, or of the lists it holds, lies outside `bounds`.
fn out_of(x: &Value, bounds: Option<(i64, i64)>) -> bool {
    match x {
        Value::Int(n) => clamp_int(*n, bounds) != *n,
        Value::List(xs) => xs.iter().any(|x| out_of(x, bounds)),
        _ => false,
    }
}

/// [`clamp`] of a number known to be one.
#[inline(always)]
fn clamp_int(n: i64, bounds: Option<(i64, i64)>) -> i64 {
    match bounds {
        Some((lo, hi)) => n.clamp(lo, hi),
        None => n,
    }
}

/// The error of a choice from no options.
pub(super) fn no_options(name: String, span: Span) -> Box<super::RuntimeError> {
    err(
        "no-options",
        format!("{name} must choose from an empty list"),
        span,
        "guard the choice with `if count(...) > 0`",
    )
}

/// The error of a turn whose player has no legal move.
pub(super) fn no_legal_move(name: String, span: Span) -> Box<super::RuntimeError> {
    err(
        "no-legal-move",
        format!("{name} has no legal action"),
        span,
        "every turn needs at least one action whose requirements hold; add a fallback such as `action pass { }`",
    )
}
