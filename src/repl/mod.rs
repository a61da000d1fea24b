//! The REPL: a game played at one device (hot seat), each seat shown only its own view, with
//! bots playing the seats they are given.
//!
//! Before each decision the seat to decide is shown the log lines it has not yet read, its view
//! and its numbered moves. When the device must pass between people and the game has secrets, a
//! "pass the device" line separates them (in a terminal, the screen is cleared and the next
//! player presses Enter first). Commands: see [`show::HELP`].
//!
//! Invariant: the game changes only by a legal move, `undo` or a successful `load`; a failed
//! command leaves it as it was.

mod commands;
mod input;
mod reload;
mod seats;
mod show;

pub use input::{history_path, Asking, Input, Line, Plain, SeatHistories, Terminal};
pub use seats::Seats;
pub use show::HELP;

use crate::bots::BotSpec;
use crate::engine::{DecisionKind, Game, RuntimeError, Viewer};
use crate::ir::{Program, StmtKind, Visibility};
use std::fmt;
use std::io::{self, Write};

/// The command words, offered by tab completion.
pub const COMMANDS: &[&str] = &[
    "help", "moves", "state", "log", "undo", "why", "save", "load", "reload", "quit",
];

/// The rules files a game was started from, as given on the command line (kept in saves).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Files {
    /// The rules file (a game or a variant).
    pub rules: String,
    /// The `--variant` files, in order.
    pub variants: Vec<String>,
}

/// How the REPL draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// Colour in rendered diagnostics.
    pub color: bool,
    /// Clear the screen when the device passes to another player (a terminal only).
    pub clear_screen: bool,
}

/// Why the REPL stopped before the player quit.
#[derive(Debug)]
pub enum ReplError {
    /// Reading commands or writing output failed.
    Io(io::Error),
    /// A rule failed while a bot moved; render it with the program's sources.
    Runtime(RuntimeError),
    /// The game cannot go on (a bot's move was refused, or nobody is asked to decide).
    Stuck(String),
}

impl fmt::Display for ReplError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplError::Io(e) => write!(f, "input or output failed: {e}"),
            ReplError::Runtime(e) => write!(f, "a rule failed: {e}"),
            ReplError::Stuck(s) => write!(f, "the game cannot go on: {s}"),
        }
    }
}

impl std::error::Error for ReplError {}

impl From<io::Error> for ReplError {
    fn from(e: io::Error) -> ReplError {
        ReplError::Io(e)
    }
}

/// What to do after a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// A game at the table, with who plays each seat and what each has been shown.
pub struct Session {
    game: Game,
    seats: Seats,
    spec: BotSpec,
    files: Files,
    style: Style,
    /// Log lines already shown, per seat; the last slot is the onlooker.
    shown: Vec<usize>,
    /// True once the pending decision (or the outcome) has been shown.
    presented: bool,
    /// The last person's seat asked to decide.
    last_human: Option<u8>,
    /// True if some seat may see what others may not, so the device is passed with care.
    private: bool,
}

impl Session {
    /// A session for `game`, with `seats` in step with its history. A `resumed` game starts with
    /// every seat's log marked as read.
    pub fn new(
        game: Game,
        seats: Seats,
        spec: BotSpec,
        files: Files,
        style: Style,
        resumed: bool,
    ) -> Session {
        let private = has_private_info(game.program());
        let mut s = Session {
            shown: vec![0; game.players() as usize + 1],
            game,
            seats,
            spec,
            files,
            style,
            presented: false,
            last_human: None,
            private,
        };
        if resumed {
            s.mark_all_read();
        }
        s
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Runs the session until `quit` or the end of input.
    pub fn run(&mut self, input: &mut dyn Input, out: &mut dyn Write) -> Result<(), ReplError> {
        self.intro(out)?;
        loop {
            self.run_bots()?;
            if !self.presented && self.present(input, out)? == Flow::Quit {
                break;
            }
            let prompt = self.prompt();
            let moves: Vec<String> = match self.seat() {
                Some(seat) => self
                    .game
                    .options(seat)
                    .into_iter()
                    .map(|o| o.label)
                    .collect(),
                None => Vec::new(),
            };
            out.flush()?;
            let asking = Asking {
                seat: self.seat(),
                secret: self.game.decision_is_secret(),
            };
            let line = match input.read_line(&prompt, &moves, asking)? {
                Line::Eof => {
                    if input.is_terminal() {
                        writeln!(out)?;
                    }
                    break;
                }
                Line::Interrupted => continue,
                Line::Text(t) => t,
            };
            if !input.is_terminal() {
                writeln!(out, "{prompt}{line}")?;
            }
            if self.execute(&line, out)? == Flow::Quit {
                break;
            }
        }
        out.flush()?;
        Ok(())
    }

    fn intro(&self, out: &mut dyn Write) -> io::Result<()> {
        let p = self.game.program();
        // The seed is told when the game is over: with it, anyone could replay the deal.
        writeln!(out, "{} · {} players", p.title, self.game.players())?;
        if !p.variants.is_empty() {
            writeln!(out, "Variants: {}", p.variants.join(", "))?;
        }
        let bots: Vec<String> = (0..self.game.players())
            .filter(|s| self.seats.is_bot(*s))
            .map(|s| self.game.seat_name(s))
            .collect();
        if !bots.is_empty() {
            writeln!(out, "Bots play {}.", bots.join(", "))?;
        }
        writeln!(
            out,
            "Type `help` for the commands; choose a move by its number or type it."
        )
    }

    /// The seat a person must decide for now, if any.
    fn seat(&self) -> Option<u8> {
        if self.game.is_over() {
            return None;
        }
        self.game.waiting_on().first().copied()
    }

    fn prompt(&self) -> String {
        match self.seat() {
            Some(seat) => format!("{}> ", self.game.seat_name(seat)),
            None => "> ".to_string(),
        }
    }

    /// The viewer whose eyes the REPL uses now: the seat to decide, or once the game is over the
    /// last person who decided.
    fn viewer(&self) -> Viewer {
        match self.seat().or(self.last_human) {
            Some(seat) => Viewer::Player(seat),
            None => Viewer::Spectator,
        }
    }

    /// Lets bots move until a person must decide or the game is over.
    fn run_bots(&mut self) -> Result<(), ReplError> {
        while !self.game.is_over() {
            let Some(&seat) = self.game.waiting_on().first() else {
                return Err(ReplError::Stuck("nobody is asked to decide".into()));
            };
            if !self.seats.is_bot(seat) {
                break;
            }
            let name = self.game.seat_name(seat);
            let index = self
                .seats
                .ask(&self.game, seat)
                .ok_or_else(|| ReplError::Stuck(format!("{name} has no moves")))?;
            self.game.apply(seat, index).map_err(|e| match e {
                crate::engine::MoveError::Runtime(r) => ReplError::Runtime(r),
                other => {
                    ReplError::Stuck(format!("the bot's move for {name} was refused: {other}"))
                }
            })?;
            self.presented = false;
        }
        Ok(())
    }

    /// Shows the pending decision to the seat that must take it, or the outcome.
    fn present(&mut self, input: &mut dyn Input, out: &mut dyn Write) -> Result<Flow, ReplError> {
        self.presented = true;
        writeln!(out)?;
        let Some(seat) = self.seat() else {
            self.new_log(self.viewer(), out)?;
            write!(out, "{}", show::outcome(&self.game))?;
            let seed = self.game.seed();
            writeln!(out, "Seed {seed} (replay with --seed {seed})")?;
            return Ok(Flow::Continue);
        };
        let secret = self.game.decision_kind() == Some(DecisionKind::Secret);
        let passing = self.last_human.is_some_and(|l| l != seat);
        if passing && (secret || self.private) {
            let name = self.game.seat_name(seat);
            if self.style.clear_screen {
                write!(out, "{CLEAR_SCREEN_AND_SCROLLBACK}")?;
            }
            writeln!(out, "──── pass the device to {name} ────")?;
            if input.is_terminal() {
                out.flush()?;
                if input.pause(&format!("{name}, press Enter when ready "))? == Line::Eof {
                    return Ok(Flow::Quit);
                }
            }
        }
        self.last_human = Some(seat);
        self.new_log(Viewer::Player(seat), out)?;
        write!(out, "{}", self.game.view(Viewer::Player(seat)))?;
        write!(out, "{}", show::moves(&self.game, seat))?;
        Ok(Flow::Continue)
    }

    fn shown_slot(&self, viewer: Viewer) -> usize {
        match viewer {
            Viewer::Player(p) => p as usize,
            Viewer::Spectator => self.game.players() as usize,
        }
    }

    /// Prints the log lines `viewer` has not been shown yet, and a blank line after them.
    fn new_log(&mut self, viewer: Viewer, out: &mut dyn Write) -> io::Result<()> {
        let lines = self.game.log(viewer);
        let slot = self.shown_slot(viewer);
        let fresh = lines.get(self.shown[slot]..).unwrap_or_default();
        for line in fresh {
            writeln!(out, "{line}")?;
        }
        if !fresh.is_empty() {
            writeln!(out)?;
        }
        self.shown[slot] = lines.len();
        Ok(())
    }

    fn mark_all_read(&mut self) {
        for p in 0..self.game.players() {
            self.shown[p as usize] = self.game.log(Viewer::Player(p)).len();
        }
        let slot = self.shown_slot(Viewer::Spectator);
        self.shown[slot] = self.game.log(Viewer::Spectator).len();
    }
}

/// Clears the screen and the terminal's scrollback (`ESC [3J`), so that the next seat cannot
/// scroll back to the last one's hand, then puts the cursor at the top.
const CLEAR_SCREEN_AND_SCROLLBACK: &str = "\x1b[3J\x1b[2J\x1b[H";

/// True if the rules let a seat see something others may not: a secret variable or field, one
/// shown only `visible when` a condition holds, a `tell`, a secret choice.
fn has_private_info(program: &Program) -> bool {
    let private =
        |v: &crate::ir::VarDef| v.visibility == Visibility::Secret || v.visible_when.is_some();
    program.globals.iter().any(private)
        || program.player_vars.iter().any(private)
        || program.kinds.iter().flat_map(|k| &k.fields).any(private)
        || program.blocks.iter().flat_map(|b| &b.stmts).any(|s| {
            matches!(
                s.kind,
                StmtKind::Tell { .. }
                    | StmtKind::Secretly { .. }
                    | StmtKind::Choose { secret: true, .. }
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn private(src: &str) -> bool {
        let program = crate::load::check_source("p.rules", src)
            .program
            .expect("checks");
        has_private_info(&program)
    }

    #[test]
    fn a_field_shown_only_to_some_is_private_information() {
        let head =
            "game \"P\" { players 2 }\nflow { for p in players { turn p } }\naction go { }\n";
        assert!(!private(head), "nothing hidden");
        let only_visible_when = format!(
            "{head}kind slot[2] {{\n  owner: player = none\n  card: int = 0 visible when viewer == it.owner\n}}\n"
        );
        assert!(private(&only_visible_when));
        assert!(private(&format!("{head}player secret var hand: int = 0\n")));
    }

    #[test]
    fn the_pass_the_device_screen_clears_the_scrollback_too() {
        assert!(CLEAR_SCREEN_AND_SCROLLBACK.contains("\x1b[3J"));
        assert!(CLEAR_SCREEN_AND_SCROLLBACK.contains("\x1b[2J"));
    }
}
