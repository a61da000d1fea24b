//! The REPL's commands: moves, `help`, `moves`, `state`, `log`, `why`, `undo`, `save`, `load`,
//! `reload` (in `reload.rs`), `quit`. Each leaves the game as it was unless it succeeds; one
//! that does not do what it says (a move not made, an `undo`, `save`, `load` or `reload`
//! refused, a usage error) sets `refused_now`, which a piped session's exit status counts.

use super::{show, Flow, Out, ReplError, Seats, Session};
use crate::engine::MoveError;
use crate::save::{self, SaveFile};
use std::io::{self, Write};
use std::path::Path;

impl Session {
    /// Runs one command line.
    pub(super) fn execute(&mut self, line: &str, out: &mut Out<'_>) -> Result<Flow, ReplError> {
        let line = line.trim();
        if line.is_empty() {
            return Ok(Flow::Continue);
        }
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        match word.to_lowercase().as_str() {
            "help" | "?" => write!(out, "{}", show::HELP)?,
            "moves" => self.moves(rest, out)?,
            "state" => write!(out, "{}", self.game.view(self.viewer()))?,
            "log" => self.log(out)?,
            "why" => self.why(rest, out)?,
            "undo" => self.undo(out)?,
            "save" => self.save(rest, out)?,
            "load" => self.load(rest, out)?,
            "reload" => self.reload(out)?,
            "quit" | "exit" => return Ok(Flow::Quit),
            _ => return Ok(self.play(line, out)?),
        }
        Ok(Flow::Continue)
    }

    fn moves(&mut self, rest: &str, out: &mut Out<'_>) -> io::Result<()> {
        let all = rest.eq_ignore_ascii_case("all");
        if !all && !rest.is_empty() {
            self.refused_now = true;
            return writeln!(
                out,
                "`moves` lists the legal moves; `moves all` lists every one of a long list. Nothing else follows it."
            );
        }
        match self.seat() {
            Some(seat) => write!(out, "{}", show::moves(&self.game, seat, all)),
            None => writeln!(out, "The game is over: there are no moves."),
        }
    }

    fn log(&mut self, out: &mut Out<'_>) -> io::Result<()> {
        let viewer = self.viewer();
        let lines = self.game.log(viewer);
        if lines.is_empty() {
            writeln!(out, "(the log is empty)")?;
        }
        for line in &lines {
            writeln!(out, "{line}")?;
        }
        let slot = self.shown_slot(viewer);
        self.shown[slot] = self.game.log_end();
        Ok(())
    }

    fn play(&mut self, typed: &str, out: &mut Out<'_>) -> io::Result<Flow> {
        let Some(seat) = self.seat() else {
            self.refused_now = true;
            writeln!(
                out,
                "The game is over: `undo` takes back the last move, `quit` leaves."
            )?;
            return Ok(Flow::Continue);
        };
        let label = match self.game.resolve_typed(seat, typed) {
            Ok(l) => l,
            Err(msg) => {
                self.refused_now = true;
                writeln!(out, "{msg}")?;
                point_to_commands(typed, &None, out)?;
                return Ok(Flow::Continue);
            }
        };
        match self.game.apply_label(seat, &label) {
            Ok(()) => {
                self.presented = false;
            }
            Err(MoveError::Runtime(e)) => {
                self.refused_now = true;
                return self.rule_failed(&e, seat, false, out);
            }
            Err(e) => {
                self.refused_now = true;
                writeln!(out, "{e}")?;
                if let MoveError::Illegal { close, .. } = &e {
                    point_to_commands(typed, close, out)?;
                }
            }
        }
        Ok(Flow::Continue)
    }

    fn why(&mut self, typed: &str, out: &mut Out<'_>) -> io::Result<()> {
        if typed.is_empty() {
            // A usage error, as `save` without a file is; an answer to `why MOVE` is not.
            self.refused_now = true;
            return writeln!(out, "Usage: why MOVE");
        }
        let Some(seat) = self.seat() else {
            return writeln!(out, "The game is over: no move is allowed.");
        };
        let label = match self.game.resolve_typed(seat, typed) {
            Ok(l) => l,
            Err(msg) => return writeln!(out, "{msg}"),
        };
        match self.game.why(seat, &label) {
            None => writeln!(out, "`{label}` is allowed now."),
            Some(reason) => writeln!(out, "`{label}` is not allowed: {reason}"),
        }
    }

    fn undo(&mut self, out: &mut Out<'_>) -> io::Result<()> {
        let history = self.game.history();
        let Some(last) = history.iter().rposition(|r| !self.seats.is_bot(r.player)) else {
            self.refused_now = true;
            return writeln!(
                out,
                "Nothing to undo: no move has been made at this device."
            );
        };
        let undone = history[last].clone();
        let bots_after = history.len() - last - 1;
        let keep = history[..last].to_vec();
        let settings = self.settings();
        let players = settings.players;
        let mut seats = Seats::new(&self.spec, settings.seed, players);
        let program = self.game.program().clone();
        let replayed = save::replay(program, &settings, &keep, &mut |g, r| {
            seats.keep_in_step(g, r)
        });
        // Taking a move back must not be a free look: refused once chance was drawn on (a
        // draw, a roll, a shuffle: undoing would deal again) or anyone at the device learned
        // something others do not know (a look, a card in hand, a private line).
        if let Ok(before) = &replayed {
            if before.chance_drawn() != self.game.chance_drawn() {
                self.refused_now = true;
                return writeln!(
                    out,
                    "Cannot undo: chance has been drawn on since that move (a card drawn, a die rolled or a shuffle), and taking it back would deal again. The game is as it was."
                );
            }
            let learned = (0..players)
                .filter(|s| !self.seats.is_bot(*s))
                .any(|s| self.game.seat_learned_since(before, s));
            if learned {
                self.refused_now = true;
                return writeln!(
                    out,
                    "Cannot undo: someone at this device has seen something since that move that the others have not. The game is as it was."
                );
            }
        }
        match replayed {
            Ok(game) => {
                self.game = game;
                self.seats = seats;
                // The replayed log is the old one without its last lines: what was read of it
                // stays read, and what is written next is new.
                let end = self.game.log_end();
                for read_to in &mut self.shown {
                    *read_to = (*read_to).min(end);
                }
                self.presented = false;
                let after = match bots_after {
                    0 => String::new(),
                    1 => " and the bot move after it".to_string(),
                    n => format!(" and the {n} bot moves after it"),
                };
                // a choice others may not know is not repeated on screen
                let secret = self.private
                    || self.game.decision_kind() == Some(crate::engine::DecisionKind::Secret);
                let name = self.game.seat_name(undone.player);
                if secret {
                    writeln!(out, "Took back {name}'s move{after}.")
                } else {
                    writeln!(out, "Took back {name}'s `{}`{after}.", undone.choice)
                }
            }
            Err(e) => {
                self.refused_now = true;
                writeln!(out, "Cannot undo: {e}")
            }
        }
    }

    fn save(&mut self, path: &str, out: &mut Out<'_>) -> io::Result<()> {
        if path.is_empty() {
            self.refused_now = true;
            return writeln!(out, "Usage: save FILE");
        }
        let bots = (self.spec != crate::bots::BotSpec::default()).then(|| self.spec.render());
        let file = SaveFile::of_game(&self.game, &self.files.rules, &self.files.variants, bots);
        match file.and_then(|file| file.write(Path::new(path)).map(|()| file)) {
            Ok(file) => {
                self.saved = self.game.history().to_vec();
                writeln!(
                    out,
                    "Saved {} to `{path}`.",
                    plural(file.decisions.len(), "decision")
                )
            }
            Err(e) => {
                self.refused_now = true;
                writeln!(out, "Not saved: {e}")
            }
        }
    }

    fn load(&mut self, path: &str, out: &mut Out<'_>) -> io::Result<()> {
        if path.is_empty() {
            self.refused_now = true;
            return writeln!(out, "Usage: load FILE");
        }
        let loaded = SaveFile::read(Path::new(path)).and_then(|file| {
            file.check_fits(&self.game, &self.files.rules, &self.files.variants)?;
            let mut seats = Seats::new(&self.spec, file.seed, file.players);
            let game = file.restore(self.game.program().clone(), &mut |g, r| {
                seats.keep_in_step(g, r)
            })?;
            Ok((game, seats))
        });
        match loaded {
            Ok((game, seats)) => {
                let n = game.history().len();
                self.game = game;
                self.seats = seats;
                // the game is the one in that file: nothing to lose by quitting
                self.saved = self.game.history().to_vec();
                self.mark_all_read();
                self.presented = false;
                self.last_human = None;
                writeln!(
                    out,
                    "Loaded `{path}`: {} replayed (`log` shows the game so far).",
                    plural(n, "decision")
                )
            }
            Err(e) => {
                self.refused_now = true;
                writeln!(out, "Cannot load `{path}`: {e}\nThe game is as it was.")
            }
        }
    }
}

/// `1 decision`, `3 decisions`.
pub(crate) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// After a refused move: a lone word that names no move, nor one close to it (`close`, the move
/// the refusal suggested), may be a command guessed (`view`, `show`), so say where the
/// commands are.
fn point_to_commands(typed: &str, close: &Option<String>, out: &mut Out<'_>) -> io::Result<()> {
    let word = typed.split_whitespace().count() == 1
        && !typed
            .trim()
            .starts_with(|c: char| c.is_ascii_digit() || c == '#');
    if word && close.is_none() {
        writeln!(
            out,
            "Nor is it a command: `help` lists them (`state` shows the game)."
        )?;
    }
    Ok(())
}
