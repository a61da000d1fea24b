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
//!
//! How a session ends ([`Ended`]): `quit` is a deliberate stop. At a terminal, Ctrl-D in a game
//! still going with moves not saved asks "Quit without saving? [y/N]" first. Piped (stdin not a
//! terminal), the end of input just ends the session, and [`Ended::failure`] says whether the
//! script went wrong: a line refused, or the input ended before the game did.

mod commands;
mod failure;
mod input;
mod reload;
mod seats;
mod show;
mod wrap;

pub use input::{history_path, Asking, Input, Line, Plain, SeatHistories, Terminal};
pub use seats::Seats;
pub use show::HELP;
pub use wrap::{fit, wrap_line, Width};

/// The REPL's output: rules text escaped, the REPL's own terminal codes written raw.
type Out<'w> = crate::printable::Printable<'w>;

use crate::bots::BotSpec;
use crate::engine::GameSettings;
use crate::engine::{DecisionKind, Game, LogCursor, Record, Viewer};
use crate::ir::{Program, StmtKind, Visibility};
use crate::printable::escape;
use std::fmt;
use std::io::{self, Write};
use std::path::PathBuf;

/// The command words, offered by tab completion: the checker's list, which warns of an action
/// named like one.
pub const COMMANDS: &[&str] = crate::check::COMMAND_WORDS;

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
    /// The width lines are wrapped at.
    pub width: Width,
}

/// Why the REPL stopped before the player quit. (A rule that fails, or a game that cannot go
/// on, is shown at the table and ends the session with [`Ended::stopped`].)
#[derive(Debug)]
pub enum ReplError {
    /// Reading commands or writing output failed.
    Io(io::Error),
}

impl fmt::Display for ReplError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplError::Io(e) => write!(f, "input or output failed: {e}"),
        }
    }
}

impl std::error::Error for ReplError {}

impl From<io::Error> for ReplError {
    fn from(e: io::Error) -> ReplError {
        ReplError::Io(e)
    }
}

/// How a session ended, for the exit status of a piped one.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ended {
    /// The commands came from a person at a terminal.
    pub interactive: bool,
    /// The session stopped on purpose: `quit`, or Ctrl-D confirmed at a terminal.
    pub quit: bool,
    /// The game was over when the session ended.
    pub game_over: bool,
    /// The lines of input (1-based) that were refused: a move not made (unknown, not allowed,
    /// no such number, a rule failed), a line that is not UTF-8, a command that failed.
    pub refused: Vec<usize>,
    /// Why the game stopped on its own (a rule failed where trying again would tell a secret,
    /// or the game could not go on): a failure at a terminal too.
    pub stopped: Option<String>,
}

impl Ended {
    /// Why a piped session counts as failed (exit status 1), or `None` (status 0). It failed if
    /// any line was refused, or if the input ended while the game was still going (`quit`
    /// stops on purpose). A session at a terminal never fails this way: its person saw every
    /// answer.
    pub fn failure(&self) -> Option<String> {
        if let Some(why) = &self.stopped {
            return Some(why.clone());
        }
        if self.interactive {
            return None;
        }
        let mut why = Vec::new();
        match self.refused.as_slice() {
            [] => {}
            [one] => why.push(format!("line {one} of the input was refused")),
            many => {
                let shown: Vec<String> = many.iter().take(10).map(|n| n.to_string()).collect();
                let more = if many.len() > 10 { ", …" } else { "" };
                why.push(format!(
                    "{} lines of the input were refused (lines {}{more})",
                    many.len(),
                    shown.join(", ")
                ));
            }
        }
        if !self.quit && !self.game_over {
            why.push(
                "the input ended before the game did (end a script with `quit` to stop on purpose)"
                    .to_string(),
            );
        }
        (!why.is_empty()).then(|| why.join("; "))
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
    /// Where the log was read up to, per seat; the last slot is the onlooker.
    shown: Vec<LogCursor>,
    /// True once the pending decision (or the outcome) has been shown.
    presented: bool,
    /// The last person's seat asked to decide.
    last_human: Option<u8>,
    /// True if some seat may see what others may not, so the device is passed with care.
    private: bool,
    /// The decisions as last saved or loaded (or at the start): quitting loses nothing while
    /// the game's history is still this.
    saved: Vec<Record>,
    /// Set by a command that did not do what it says (see `commands.rs`).
    refused_now: bool,
    /// Where a failure is saved (`--save-on-failure`); else a new numbered file in
    /// `save_folder`.
    failure_save: Option<PathBuf>,
    /// Where saves made without being asked for (a failure, a `reload` that starts again) go.
    save_folder: PathBuf,
    /// Why the game stopped on its own, once it has.
    stopped: Option<String>,
    /// Bot moves that failed in a row, and at which decision (its count of decisions before).
    bot_failures: (usize, usize),
    /// The last failure save: the decisions the game had, and where it went.
    failure_saved: Option<(usize, PathBuf)>,
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
            shown: vec![LogCursor::default(); game.players() as usize + 1],
            game,
            seats,
            spec,
            files,
            style,
            presented: false,
            last_human: None,
            private,
            saved: Vec::new(),
            refused_now: false,
            failure_save: None,
            save_folder: PathBuf::from("."),
            stopped: None,
            bot_failures: (0, 0),
            failure_saved: None,
        };
        // a resumed game is the one in its save file; a new one has nothing to lose yet
        s.saved = s.game.history().to_vec();
        if resumed {
            s.mark_all_read();
        }
        s
    }

    /// How the session's game was set up: its players and seed, whether every choice asks,
    /// and its decision limit. A game started again in the session (`undo`, `reload`) takes
    /// them from here.
    fn settings(&self) -> GameSettings {
        GameSettings {
            always_ask: self.game.program().always_ask,
            ..GameSettings::new(self.game.players(), self.game.seed())
        }
        .max_decisions(self.game.max_decisions() as u64)
    }

    /// Saves a game that a failing rule stops to `path` (`--save-on-failure`) rather than to a
    /// new numbered file in the working folder.
    pub fn save_failures_to(&mut self, path: Option<PathBuf>) {
        self.failure_save = path;
    }

    /// Puts the saves made without being asked for (numbered: `meeple-failure-table-N.json`,
    /// `meeple-reload-N.json`) in `folder` rather than the working folder.
    pub fn save_automatically_in(&mut self, folder: PathBuf) {
        self.save_folder = folder;
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// True if quitting now would lose something: the game is going and a person has moved
    /// since it was last saved, loaded or started (bot moves alone are played again from the
    /// seed), or a move saved was taken back.
    pub fn unsaved(&self) -> bool {
        if self.game.is_over() {
            return false;
        }
        match self.game.history().strip_prefix(self.saved.as_slice()) {
            Some(new) => new.iter().any(|r| !self.seats.is_bot(r.player)),
            None => true,
        }
    }

    /// Runs the session until `quit` or the end of input, and says how it ended.
    pub fn run(&mut self, input: &mut dyn Input, out: &mut dyn Write) -> Result<Ended, ReplError> {
        // Everything the rules wrote is shown as text, never obeyed by the terminal, in lines
        // that fit it.
        let mut wrapped = wrap::Wrap::new(out, self.style.width);
        let out = &mut Out::new(&mut wrapped);
        let mut ended = Ended {
            interactive: input.is_terminal(),
            ..Ended::default()
        };
        let mut number = 0;
        self.intro(out)?;
        loop {
            if self.run_bots(out)? == Flow::Quit {
                break;
            }
            if !self.presented && self.present(input, out)? == Flow::Quit {
                ended.quit = true;
                break;
            }
            let prompt = self.prompt();
            let several = self.seat().and_then(|s| self.game.several(s));
            let moves: Vec<String> = match (self.seat(), &several) {
                (_, Some(s)) => s.labels.iter().map(|l| escape(l).into_owned()).collect(),
                (Some(seat), None) => self
                    .game
                    .options(seat)
                    .into_iter()
                    .map(|o| escape(&o.label).into_owned())
                    .collect(),
                (None, None) => Vec::new(),
            };
            out.flush()?;
            let asking = Asking {
                seat: self.seat(),
                secret: self.game.decision_is_secret(),
                several: several.is_some(),
            };
            let line = match input.read_line(&prompt, &moves, asking)? {
                Line::Eof => {
                    if !input.is_terminal() {
                        break;
                    }
                    writeln!(out)?;
                    if self.leave_at_eof(input, out)? {
                        ended.quit = true;
                        break;
                    }
                    // the moves again, for whoever decides
                    self.presented = false;
                    continue;
                }
                Line::Interrupted => continue,
                Line::Unreadable(why) => {
                    number += 1;
                    if !input.is_terminal() {
                        writeln!(out, "{prompt}")?;
                    }
                    writeln!(out, "Skipped: {why}.")?;
                    ended.refused.push(number);
                    continue;
                }
                Line::Text(t) => t,
            };
            number += 1;
            if !input.is_terminal() {
                writeln!(out, "{prompt}{line}")?;
            }
            self.refused_now = false;
            let flow = self.execute(&line, out)?;
            if std::mem::take(&mut self.refused_now) {
                ended.refused.push(number);
            }
            if flow == Flow::Quit {
                ended.quit = self.stopped.is_none();
                break;
            }
        }
        ended.stopped = self.stopped.clone();
        ended.game_over = self.game.is_over();
        out.flush()?;
        Ok(ended)
    }

    /// Ctrl-D at a terminal: true to leave. A game still going with moves not saved asks first
    /// ("Quit without saving? [y/N]"): `y` leaves, anything else goes back to the game, and a
    /// second Ctrl-D leaves. The question tells nothing about the game.
    fn leave_at_eof(&mut self, input: &mut dyn Input, out: &mut Out<'_>) -> io::Result<bool> {
        if !self.unsaved() {
            return Ok(true);
        }
        out.flush()?;
        match input.pause("Quit without saving? [y/N] ")? {
            Line::Eof => Ok(true),
            Line::Text(t) if matches!(t.trim().to_lowercase().as_str(), "y" | "yes") => Ok(true),
            _ => {
                writeln!(
                    out,
                    "Back to the game (`save FILE` keeps it, `quit` leaves)."
                )?;
                Ok(false)
            }
        }
    }

    fn intro(&self, out: &mut Out<'_>) -> io::Result<()> {
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

    /// The prompt, its seat's name shown as text (the line editor writes it as it is).
    fn prompt(&self) -> String {
        match self.seat() {
            Some(seat) => format!("{}> ", escape(&self.game.seat_name(seat))),
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

    /// Lets bots move until a person must decide or the game is over. A bot's move whose rule
    /// fails is handled as a person's is ([`Session::rule_failed`]); `Quit` if the game stopped.
    fn run_bots(&mut self, out: &mut Out<'_>) -> Result<Flow, ReplError> {
        while !self.game.is_over() {
            let Some(&seat) = self.game.waiting_on().first() else {
                return Ok(self.stuck("nobody is asked to decide", out)?);
            };
            if !self.seats.is_bot(seat) {
                break;
            }
            let name = self.game.seat_name(seat);
            let Some(index) = self.seats.ask(&self.game, seat) else {
                return Ok(self.stuck(&format!("{name} has no moves"), out)?);
            };
            match self.game.apply(seat, index) {
                Ok(()) => self.presented = false,
                Err(crate::engine::MoveError::Runtime(e)) => {
                    if self.rule_failed(&e, seat, true, out)? == Flow::Quit {
                        return Ok(Flow::Quit);
                    }
                }
                Err(other) => {
                    let why = format!("the bot's move for {name} was refused: {other}");
                    return Ok(self.stuck(&why, out)?);
                }
            }
        }
        Ok(Flow::Continue)
    }

    /// Shows the pending decision to the seat that must take it, or the outcome.
    fn present(&mut self, input: &mut dyn Input, out: &mut Out<'_>) -> Result<Flow, ReplError> {
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
                out.raw(CLEAR_SCREEN_AND_SCROLLBACK)?;
            }
            writeln!(out, "──── pass the device to {name} ────")?;
            if input.is_terminal() {
                out.flush()?;
                let ready = format!("{}, press Enter when ready ", escape(&name));
                while input.pause(&ready)? == Line::Eof {
                    writeln!(out)?;
                    if self.leave_at_eof(input, out)? {
                        return Ok(Flow::Quit);
                    }
                }
            }
        }
        self.last_human = Some(seat);
        self.new_log(Viewer::Player(seat), out)?;
        write!(out, "{}", self.game.view(Viewer::Player(seat)))?;
        write!(out, "{}", show::moves(&self.game, seat, false))?;
        Ok(Flow::Continue)
    }

    fn shown_slot(&self, viewer: Viewer) -> usize {
        match viewer {
            Viewer::Player(p) => p as usize,
            // The REPL never shows the referee's view; it would read the onlookers' slot.
            Viewer::Spectator | Viewer::Referee => self.game.players() as usize,
        }
    }

    /// Prints the log lines `viewer` has not been shown yet, and a blank line after them.
    fn new_log(&mut self, viewer: Viewer, out: &mut Out<'_>) -> io::Result<()> {
        let slot = self.shown_slot(viewer);
        // Read on from where this seat stopped: a long game with bots reads each line once.
        let (fresh, read_to) = self.game.log_since(viewer, self.shown[slot]);
        for line in &fresh {
            writeln!(out, "{line}")?;
        }
        if !fresh.is_empty() {
            writeln!(out)?;
        }
        self.shown[slot] = read_to;
        Ok(())
    }

    fn mark_all_read(&mut self) {
        let end = self.game.log_end();
        self.shown.fill(end);
    }
}

/// Puts the cursor at the top, clears the screen, then the terminal's scrollback (`ESC [3J`),
/// so that the next seat cannot scroll back to the last one's hand. In that order, as `clear`
/// does: terminals that keep what a cleared screen showed (tmux, by its `scroll-on-clear`)
/// move it into the scrollback at `ESC [2J`, and clearing the scrollback before that left the
/// last seat's screen in it (seen in tmux 3.3a).
const CLEAR_SCREEN_AND_SCROLLBACK: &str = "\x1b[H\x1b[2J\x1b[3J";

/// True if the rules let a seat see something others may not: a secret variable or field, one
/// shown only `visible when` a condition holds, a `tell`, a secret choice.
fn has_private_info(program: &Program) -> bool {
    let private =
        |v: &crate::ir::VarDef| v.visibility == Visibility::Secret || v.visible_when.is_some();
    program.globals.iter().any(private)
        || program
            .actions
            .iter()
            .any(|a| a.params.iter().any(|p| p.secret))
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

    /// Lines typed by a script; `prompts` records what was asked.
    struct Script {
        lines: std::collections::VecDeque<Line>,
        prompts: Vec<String>,
        terminal: bool,
    }

    impl Input for Script {
        fn read_line(&mut self, prompt: &str, _: &[String], _: Asking) -> io::Result<Line> {
            self.prompts.push(prompt.to_string());
            Ok(self.lines.pop_front().unwrap_or(Line::Eof))
        }
        fn is_terminal(&self) -> bool {
            self.terminal
        }
    }

    const QUESTION: &str = "Quit without saving? [y/N] ";

    /// Plays a three-round game of two people from `lines`; the prompts asked, the output and
    /// how it ended.
    fn session(terminal: bool, lines: Vec<Line>) -> (Vec<String>, String, Ended, usize) {
        session_with(BotSpec::default(), terminal, lines)
    }

    fn session_with(
        spec: BotSpec,
        terminal: bool,
        lines: Vec<Line>,
    ) -> (Vec<String>, String, Ended, usize) {
        let src = "game \"T\" { players 2 }\nflow { repeat 3 { for p in players { turn p } } }\naction go { }\n";
        let program = crate::load::check_source("t.rules", src)
            .program
            .expect("checks");
        let game = Game::new(std::sync::Arc::new(program), 2, 1).expect("starts");
        let seats = Seats::new(&spec, 1, 2);
        let files = Files {
            rules: "t.rules".into(),
            variants: vec![],
        };
        let style = Style {
            color: false,
            clear_screen: false,
            width: Width::Unbounded,
        };
        let mut s = Session::new(game, seats, spec, files, style, false);
        let mut input = Script {
            lines: lines.into(),
            prompts: Vec::new(),
            terminal,
        };
        let mut out = Vec::new();
        let ended = s.run(&mut input, &mut out).expect("runs");
        let moves = s.game().history().len();
        (
            input.prompts,
            String::from_utf8(out).expect("UTF-8"),
            ended,
            moves,
        )
    }

    fn text(t: &str) -> Line {
        Line::Text(t.into())
    }

    #[test]
    fn ctrl_d_with_moves_not_saved_asks_first_and_no_goes_back_to_the_game() {
        let (prompts, out, ended, moves) = session(
            true,
            vec![
                text("go"),
                Line::Eof,
                text("n"),
                text("go"),
                Line::Eof,
                text("y"),
            ],
        );
        assert_eq!(prompts.iter().filter(|p| *p == QUESTION).count(), 2);
        assert!(out.contains("Back to the game"), "{out}");
        assert_eq!(moves, 2, "the game went on after `n`");
        assert!(ended.quit && ended.interactive);
        assert_eq!(ended.failure(), None);
    }

    #[test]
    fn ctrl_d_twice_or_anything_but_yes() {
        // a second Ctrl-D at the question leaves
        let (prompts, _, ended, _) = session(true, vec![text("go"), Line::Eof, Line::Eof]);
        assert_eq!(prompts.last().map(String::as_str), Some(QUESTION));
        assert!(ended.quit);
        // an empty answer is no (the default), Ctrl-C too
        let (prompts, _, _, moves) = session(
            true,
            vec![
                text("go"),
                Line::Eof,
                text(""),
                Line::Eof,
                Line::Interrupted,
                text("go"),
                Line::Eof,
                text("YES"),
            ],
        );
        assert_eq!(prompts.iter().filter(|p| *p == QUESTION).count(), 3);
        assert_eq!(moves, 2);
    }

    #[test]
    fn ctrl_d_leaves_at_once_with_nothing_to_lose() {
        // no move yet
        let (prompts, _, ended, _) = session(true, vec![Line::Eof]);
        assert!(!prompts.iter().any(|p| p == QUESTION));
        assert!(ended.quit);
        // every move saved
        let path = std::env::temp_dir().join(format!("meeple-ctrl-d-{}.json", std::process::id()));
        let save = format!("save {}", path.display());
        let (prompts, out, ended, _) = session(true, vec![text("go"), text(&save), Line::Eof]);
        let _ = std::fs::remove_file(&path);
        assert!(out.contains("Saved 1 decision"), "{out}");
        assert!(!prompts.iter().any(|p| p == QUESTION), "{prompts:?}");
        assert!(ended.quit);
        // the game is over
        let (prompts, _, ended, _) = session(true, vec![text("go"); 6]);
        assert!(!prompts.iter().any(|p| p == QUESTION));
        assert!(ended.game_over);
    }

    #[test]
    fn bot_moves_alone_are_nothing_to_lose() {
        // P1 is a bot and moves first: Ctrl-D before P2 moves asks nothing, after it asks
        let bots = BotSpec::parse("1=random").expect("a spec");
        let (prompts, _, ended, moves) = session_with(bots.clone(), true, vec![Line::Eof]);
        assert!(!prompts.iter().any(|p| p == QUESTION), "{prompts:?}");
        assert!(ended.quit);
        assert_eq!(moves, 1, "the bot moved");
        let (prompts, _, _, _) = session_with(bots, true, vec![text("go"), Line::Eof, text("y")]);
        assert_eq!(prompts.last().map(String::as_str), Some(QUESTION));
    }

    #[test]
    fn piped_input_ends_at_eof_without_asking_and_fails_mid_game() {
        let (prompts, _, ended, _) = session(false, vec![text("go"), Line::Eof]);
        assert!(!prompts.iter().any(|p| p == QUESTION));
        assert!(!ended.quit && !ended.game_over);
        let why = ended.failure().expect("a failure");
        assert!(why.contains("the input ended before the game did"), "{why}");
        // `quit` is a deliberate stop
        let (_, _, ended, _) = session(false, vec![text("go"), text("quit")]);
        assert_eq!(ended.failure(), None);
        // to the end, every line accepted
        let (_, _, ended, _) = session(false, vec![text("go"); 6]);
        assert_eq!(ended.failure(), None);
    }

    #[test]
    fn refused_lines_are_counted_and_fail_a_piped_session_even_after_quit() {
        let (_, out, ended, moves) = session(
            false,
            vec![
                text("go"),
                text("fly"),
                Line::Unreadable("line 3 of the input is not valid UTF-8".into()),
                text("#7"),
                text("undo"),
                text("why fly"),
                text("moves"),
                text("why"),
                text("moves all"),
                text("moves some"),
                text("quit"),
            ],
        );
        assert!(
            out.contains("Skipped: line 3 of the input is not valid UTF-8."),
            "{out}"
        );
        assert_eq!(moves, 0, "`undo` took the move back");
        // `why` without a move and `moves some` are usage errors; `why fly` is answered
        assert_eq!(ended.refused, [2, 3, 4, 8, 10]);
        assert_eq!(
            ended.failure().as_deref(),
            Some("5 lines of the input were refused (lines 2, 3, 4, 8, 10)")
        );
        // at a terminal, the person saw every answer: no failure
        let (_, _, ended, _) = session(true, vec![text("fly"), text("quit")]);
        assert_eq!(ended.refused, [1]);
        assert_eq!(ended.failure(), None);
    }

    #[test]
    fn the_pass_the_device_screen_clears_the_scrollback_too() {
        let screen = CLEAR_SCREEN_AND_SCROLLBACK
            .find("\x1b[2J")
            .expect("clears the screen");
        let scrollback = CLEAR_SCREEN_AND_SCROLLBACK
            .find("\x1b[3J")
            .expect("clears the scrollback");
        // The scrollback last: clearing the screen may push what it showed into it.
        assert!(screen < scrollback, "{CLEAR_SCREEN_AND_SCROLLBACK:?}");
    }
}
