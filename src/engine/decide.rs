//! Taking a decision (and announcing it in a game for people), rendering a prompt when it is
//! read, and ending the game with its outcome.

use super::eval::Eval;
use super::exec::{err, SecretLoop, R};
use super::moves::{ask_labels, move_label, option_label, options_type, public_move_label};
use super::spare;
use super::{At, Audience, Game, LogEntry, Outcome, Pending, Turn};
use crate::ir::{self, StmtKind as S, Value};

impl Game {
    /// Takes option `index` of `player`'s pending decision.
    pub(super) fn decide(&mut self, player: u8, index: usize) -> R<()> {
        let held = self.hold();
        let result = self.decide_in(&held.0, player, index);
        self.give_back(held);
        result
    }

    /// [`Game::decide`] with the program already held.
    pub(super) fn decide_in(&mut self, program: &ir::Program, player: u8, index: usize) -> R<()> {
        // One pick of a choice of several that leaves it open is no decision yet.
        if self.pick_step(player, index) {
            return Ok(());
        }
        self.count_decision()?;
        self.take(program, player, index)
    }

    /// Starts move `index` of `turn` for `player`: its action's body, with `me` and the
    /// move's arguments in its first slots.
    pub(super) fn start_move(
        &mut self,
        program: &ir::Program,
        player: u8,
        turn: Turn,
        index: usize,
    ) {
        let (a, args) = turn.get(program, index);
        // A window counts its declines in a row as each move starts; any other move restarts
        // the count. (The window's frame is still the innermost one here.)
        let (block, i) = turn.at;
        if let ir::StmtKind::Window {
            decline,
            quiet_slot,
            ..
        } = program.block(block).stmts[i].kind
        {
            let quiet = match (a == decline, self.local_at(quiet_slot)) {
                (true, Value::Int(q)) => q + 1,
                _ => 0,
            };
            self.local_mut(quiet_slot).put(Value::Int(quiet));
        }
        let def = &program.actions[a.index()];
        let body = self.state.domains.code.flat.action(a);
        self.push_frame(body, 1 + args.len(), def.body);
        let locals = self.locals();
        locals[0].put(Value::player(player));
        for (slot, v) in locals[1..].iter_mut().zip(args) {
            slot.put(v.clone());
        }
        self.recycle(turn);
    }

    /// Counts one more decision taken, unless the game has taken as many as its limit allows.
    #[inline]
    pub(super) fn count_decision(&mut self) -> R<()> {
        if self.decisions >= self.limits.decisions {
            return Err(self.past_decision_limit());
        }
        // What the rules since the last decision added, before another is taken on it.
        self.check_live()?;
        self.decisions += 1;
        Ok(())
    }

    /// The error of a game that passed its decision limit.
    #[cold]
    fn past_decision_limit(&self) -> Box<super::RuntimeError> {
        let span = self.program.procs[self.program.flow.index()].span;
        err(
            "decision-limit",
            format!("the game passed {} decisions", self.limits.decisions),
            span,
            "make sure the flow ends, for example after a number of rounds; `--max-decisions` sets the limit",
        )
    }

    /// Takes option `index` of `player`'s pending decision: the decision counted.
    fn take(&mut self, program: &ir::Program, player: u8, index: usize) -> R<()> {
        let record = self.mode.record;
        match self.pending.take().expect("a pending decision") {
            Pending::Turn(t) => {
                if record {
                    self.announce_move(program, player, &t, index);
                }
                self.start_move(program, player, t, index);
            }
            Pending::Choose {
                options,
                slot,
                secret,
                pick,
                at,
                ..
            } => {
                if record {
                    let shown = options_type(program, at);
                    let label = match &pick {
                        Some(p) => {
                            let label = p.label(program, &self.state, &options, shown);
                            self.record_several(player, &label);
                            label
                        }
                        None => option_label(program, &self.state, &options, index, shown),
                    };
                    self.announce_choice(player, label, secret);
                }
                *self.local_mut(slot) = match &pick {
                    Some(p) => p.result(&options),
                    None => options[index].clone(),
                };
            }
            Pending::Ask { slot, at, .. } => {
                if record {
                    let text = format!(
                        "{}: {}",
                        self.seat_name(player),
                        ask_labels(program, at)[index]
                    );
                    self.announce(Audience::All, text);
                }
                self.local_mut(slot).put(Value::bool(index == 0));
            }
            secret @ Pending::Secret { .. } => self.take_secret(program, player, index, secret),
        }
        Ok(())
    }

    /// Writes in the log who made move `index` of `turn`, its secret arguments to the mover
    /// alone.
    fn announce_move(&mut self, program: &ir::Program, player: u8, turn: &Turn, index: usize) {
        let (a, args) = turn.get(program, index);
        let def = &program.actions[a.index()];
        let name = self.seat_name(player);
        let label = move_label(program, &self.state, def, args);
        if def.params.iter().any(|p| p.secret) {
            // A secret argument is the mover's alone: the others read it hidden.
            let public = public_move_label(program, &self.state, def, args);
            self.announce(Audience::Only(vec![player]), format!("{name}: {label}"));
            self.announce(Audience::AllBut(vec![player]), format!("{name}: {public}"));
        } else {
            self.announce(Audience::All, format!("{name}: {label}"));
        }
    }

    /// Takes option `index` of `player`'s part of a simultaneous secret choice: the choice
    /// runs its block once every seat has chosen.
    fn take_secret(&mut self, program: &ir::Program, player: u8, index: usize, pending: Pending) {
        let record = self.mode.record;
        let Pending::Secret {
            mut choices,
            player_slot,
            choice_slot,
            then,
            at,
        } = pending
        else {
            unreachable!("a secret choice")
        };
        let c = choices
            .iter_mut()
            .find(|c| c.seat == player && c.chosen.is_none())
            .expect("a waiting player");
        c.chosen = Some(index);
        let shown = options_type(program, at);
        let several = c
            .pick
            .as_ref()
            .filter(|_| record)
            .map(|p| p.label(program, &self.state, &c.options, shown));
        if record {
            let name = self.seat_name(player);
            let label = match &several {
                Some(label) => label.clone(),
                None => option_label(program, &self.state, &c.options, index, shown),
            };
            self.announce(
                Audience::Only(vec![player]),
                format!("{name} chose {label} (secret)"),
            );
            self.announce(Audience::AllBut(vec![player]), format!("{name} has chosen"));
        }
        if let Some(label) = several {
            self.record_several(player, &label);
        }
        if choices.iter().all(|c| c.chosen.is_some()) {
            // The machine stands at the block's first pass, which runs it for each.
            self.secrets.push(SecretLoop {
                frame: self.frames.len(),
                choices,
                next: 0,
            });
        } else {
            self.pending = Some(Pending::Secret {
                choices,
                player_slot,
                choice_slot,
                then,
                at,
            });
        }
    }

    /// A line of the log written by the engine about a decision.
    pub(super) fn announce(&mut self, audience: Audience, text: String) {
        self.log.push(LogEntry {
            announcement: true,
            audience,
            text,
        });
    }

    /// "P1 chose X" to everyone, or, for a secret choice, to the chooser alone while the others
    /// read that a choice was made.
    pub(super) fn announce_choice(&mut self, player: u8, label: String, secret: bool) {
        let name = self.seat_name(player);
        let text = format!("{name} chose {label}");
        if secret {
            self.announce(Audience::Only(vec![player]), text);
            self.announce(
                Audience::AllBut(vec![player]),
                format!("{name} chose in secret"),
            );
        } else {
            self.announce(Audience::All, text);
        }
    }

    /// Renders the prompt of the statement at `at` now, with `seat` bound to a slot for a
    /// secret choice. A prompt that fails to render says so rather than fail the reader.
    pub(super) fn render_prompt(&self, at: At, seat: Option<(ir::Slot, u8)>) -> String {
        let program = &self.program;
        let prompt = match &program.block(at.0).stmts[at.1].kind {
            S::Choose { prompt, .. } | S::Ask { prompt, .. } | S::Secretly { prompt, .. } => prompt,
            _ => return String::new(),
        };
        let mut locals = self.locals_now().to_vec();
        if let Some((slot, p)) = seat {
            if let Some(l) = locals.get_mut(slot as usize) {
                l.put(Value::player(p));
            }
        }
        Eval::new(program, &self.state)
            .text(prompt, &mut locals)
            .unwrap_or_else(|e| format!("(the prompt failed: {e})"))
    }

    /// Every seat's score by the rules' `score` as the game stands, without ending it (all 0
    /// when the rules declare none). `out` is cleared and filled, so a caller that keeps it
    /// allocates nothing: search bots score the positions where they stop imagining with it.
    pub fn scores_now(&self, out: &mut Vec<i64>) -> Result<(), super::RuntimeError> {
        self.per_seat(self.program.score.as_ref(), out)
    }

    /// Every seat's goal by the rules' `goal` as the game stands (over or not); false, with
    /// `out` empty, when the rules declare none. What the bots maximise.
    pub fn goals_now(&self, out: &mut Vec<i64>) -> Result<bool, super::RuntimeError> {
        match &self.program.goal {
            Some(goal) => self.per_seat(Some(&goal.end), out).map(|()| true),
            None => {
                out.clear();
                Ok(false)
            }
        }
    }

    /// How much the rules' `prefer` favours option `index` of `seat`'s decision: 0 where its
    /// action has none, and for every option of a decision that is not a turn's move. What
    /// the bots' imagined players go by; allocates nothing once the spare slots are warm.
    pub fn preference(&self, seat: u8, index: usize) -> Result<i64, super::RuntimeError> {
        let Some(Pending::Turn(t)) = &self.pending else {
            return Ok(0);
        };
        if t.player != seat || index >= t.moves.len() {
            return Ok(0);
        }
        let (a, args) = t.get(&self.program, index);
        let def = &self.program.actions[a.index()];
        let Some(prefer) = &def.prefer else {
            return Ok(0);
        };
        let mut locals = spare::values();
        locals.clear();
        locals.resize_with(def.require_locals.max(1 + args.len()), || Value::None);
        locals[0].put(Value::player(seat));
        for (slot, v) in locals[1..].iter_mut().zip(args) {
            slot.put(v.clone());
        }
        let value = Eval::new(&self.program, &self.state).int(prefer, &mut locals);
        spare::give_values(locals);
        value.map_err(|e| *e)
    }

    /// `f` of every seat in turn (all 0 without one), into `out`.
    fn per_seat(
        &self,
        f: Option<&crate::ir::EndFn>,
        out: &mut Vec<i64>,
    ) -> Result<(), super::RuntimeError> {
        out.clear();
        let mut locals = spare::values();
        for p in 0..self.state.players {
            let s = match f {
                Some(f) => {
                    locals.clear();
                    locals.resize_with(f.locals.max(1), || Value::None);
                    locals[0].put(Value::player(p));
                    Eval::new(&self.program, &self.state).int(&f.body, &mut locals)
                }
                None => Ok(0),
            };
            match s {
                Ok(s) => out.push(s),
                Err(e) => {
                    spare::give_values(locals);
                    return Err(*e);
                }
            }
        }
        spare::give_values(locals);
        Ok(())
    }

    /// Scores everyone, picks the winners by the rules and ends the game.
    pub(super) fn finish(&mut self, reason: Option<String>) -> R<()> {
        self.finish_as(reason, None)
    }

    /// Scores everyone and ends the game, with `given` winners (`end game ... winners xs`) or
    /// the rules' own.
    pub(super) fn finish_as(&mut self, reason: Option<String>, given: Option<Vec<u8>>) -> R<()> {
        let n = self.state.players;
        let mut scores = Vec::with_capacity(n as usize);
        self.scores_now(&mut scores)?;
        let mut locals = spare::values();
        let winners = match (given, &self.program.winners) {
            (Some(given), _) => given,
            (None, Some(f)) => {
                locals.clear();
                locals.resize_with(f.locals.max(1), || Value::None);
                Eval::new(&self.program, &self.state)
                    .expr(&f.body, &mut locals)?
                    .seats()
            }
            // The highest score among the players still in the game wins.
            (None, None) => {
                let is_in = |p: &u8| !self.state.is_out(*p);
                let best = (0..n).filter(is_in).map(|p| scores[p as usize]).max();
                (0..n)
                    .filter(|p| is_in(p) && Some(scores[*p as usize]) == best)
                    .collect()
            }
        };
        spare::give_values(locals);
        if self.mode.record {
            self.log_outcome(&winners, reason.as_deref());
        }
        self.clear_frames();
        self.pending = None;
        self.outcome = Some(Outcome {
            winners,
            scores,
            reason,
        });
        Ok(())
    }

    fn log_outcome(&mut self, winners: &[u8], reason: Option<&str>) {
        let names: Vec<String> = winners.iter().map(|p| self.seat_name(*p)).collect();
        if let Some(r) = reason {
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
    }
}
