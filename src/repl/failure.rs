//! A rule that fails while a move is made at the table, by a person or a bot: the failure is
//! shown without the values it touched where the game has secrets, the game just before the
//! move is saved and the save named, and then either play goes on (a game without secrets: the
//! move is not made, and trying it again tells nothing) or the game stops (a game with secrets:
//! whether a move fails can depend on what is hidden, so trying it again would be a free look).

use super::{Flow, Out, Session};
use crate::diag::{render, RenderStyle};
use crate::engine::RuntimeError;
use crate::save::SaveFile;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// How many times in a row a bot's moves may fail at one decision of a game without secrets
/// before the game stops: a bot may pick the same failing move again and again.
const BOT_TRIES: usize = 3;

/// The most failure saves the REPL numbers in one folder before it gives up.
const MAX_NUMBERED: usize = 1000;

impl Session {
    /// A rule failed while `seat` moved (a bot if `bot`): show it, save the game, and say
    /// whether play goes on.
    pub(super) fn rule_failed(
        &mut self,
        e: &RuntimeError,
        seat: u8,
        bot: bool,
        out: &mut Out<'_>,
    ) -> io::Result<Flow> {
        let name = self.game.seat_name(seat);
        let whose = if bot {
            format!("{name}'s bot")
        } else {
            name.clone()
        };
        writeln!(out, "A rule failed while {whose} moved.")?;
        self.show_failure(e, out)?;
        let saved = self.save_failure(out)?;
        let reopen = saved.as_ref().map_or(String::new(), |p| {
            format!(
                " `meeple play --load {}` reopens it once the rules are fixed.",
                p.display()
            )
        });
        if self.private {
            writeln!(
                out,
                "The game stops here: whether a move fails can depend on what is hidden, so \
                 trying it again would tell it.{reopen}"
            )?;
            return Ok(self.stop(format!(
                "a rule failed while {whose} moved; the game stopped"
            )));
        }
        writeln!(out, "The move was not made; the game is as it was.")?;
        if bot {
            let at = self.game.history().len();
            self.bot_failures = match self.bot_failures {
                (n, where_) if where_ == at => (n + 1, at),
                _ => (1, at),
            };
            if self.bot_failures.0 >= BOT_TRIES {
                writeln!(
                    out,
                    "The game stops here: {whose}'s moves failed {BOT_TRIES} times in a row.{reopen}"
                )?;
                return Ok(self.stop(format!(
                    "{whose}'s moves failed {BOT_TRIES} times in a row; the game stopped"
                )));
            }
        }
        Ok(Flow::Continue)
    }

    /// The game cannot go on (nobody to decide, a bot with no move or a refused one): it is
    /// saved, the save named, and the session stops.
    pub(super) fn stuck(&mut self, why: &str, out: &mut Out<'_>) -> io::Result<Flow> {
        writeln!(out, "The game cannot go on: {why}.")?;
        self.save_failure(out)?;
        Ok(self.stop(format!("the game cannot go on: {why}")))
    }

    /// Ends the session with `why` as its failure.
    fn stop(&mut self, why: String) -> Flow {
        self.stopped = Some(why);
        Flow::Quit
    }

    /// Draws the failure: in full where nothing is hidden, else without its values (which may
    /// be anyone's secrets).
    fn show_failure(&self, e: &RuntimeError, out: &mut Out<'_>) -> io::Result<()> {
        let style = RenderStyle {
            color: self.style.color,
            ..RenderStyle::plain()
        };
        let shown = if self.private {
            e.without_values()
        } else {
            e.clone()
        };
        let sources = &self.game.program().sources;
        // Rendered with the rules' text already escaped; the colours are the REPL's own.
        out.raw(&render(&shown.to_diagnostic(), sources, style))
    }

    /// Saves the game as it stands (just before the failing move): to `--save-on-failure` if
    /// given, else to the first free `meeple-failure-table-N.json` in the working folder, which
    /// names no seed and replaces nothing. Says where, or why not.
    fn save_failure(&mut self, out: &mut Out<'_>) -> io::Result<Option<PathBuf>> {
        let decisions = self.game.history().len();
        // A bot failing again where it failed: the game is the one saved already.
        if let Some((at, path)) = &self.failure_saved {
            if *at == decisions {
                let path = path.clone();
                writeln!(
                    out,
                    "The game just before this move is saved in `{}`.",
                    path.display()
                )?;
                return Ok(Some(path));
            }
        }
        let bots = (self.spec != crate::bots::BotSpec::default()).then(|| self.spec.render());
        let file =
            match SaveFile::of_game(&self.game, &self.files.rules, &self.files.variants, bots) {
                Ok(f) => f,
                Err(e) => {
                    writeln!(out, "The game could not be saved: {e}")?;
                    return Ok(None);
                }
            };
        let written = match &self.failure_save {
            Some(path) => file.write(path).map(|()| path.clone()),
            None => numbered(&file, &self.save_folder.join("meeple-failure-table")),
        };
        match written {
            Ok(path) => {
                writeln!(
                    out,
                    "The game just before this move is saved in `{}` (the referee's record: it tells every secret).",
                    path.display()
                )?;
                self.saved = self.game.history().to_vec();
                self.failure_saved = Some((decisions, path.clone()));
                Ok(Some(path))
            }
            Err(e) => {
                writeln!(out, "The game could not be saved: {e}")?;
                Ok(None)
            }
        }
    }
}

impl Session {
    /// Saves the game as it stands to the first `STEM-N.json` free in the working folder.
    pub(super) fn save_numbered(&self, stem: &str) -> Result<PathBuf, crate::save::SaveError> {
        let bots = (self.spec != crate::bots::BotSpec::default()).then(|| self.spec.render());
        let file = SaveFile::of_game(&self.game, &self.files.rules, &self.files.variants, bots)?;
        numbered(&file, &self.save_folder.join(stem))
    }
}

/// Writes `file` to the first `STEM-N.json` that does not exist yet (`./` left out of its name).
fn numbered(file: &SaveFile, stem: &Path) -> Result<PathBuf, crate::save::SaveError> {
    let stem = stem.strip_prefix(".").unwrap_or(stem).display().to_string();
    let mut last = None;
    for n in 1..=MAX_NUMBERED {
        let path = PathBuf::from(format!("{stem}-{n}.json"));
        if path.symlink_metadata().is_ok() {
            continue;
        }
        match file.write_new(&path) {
            Ok(()) => return Ok(path),
            // taken in the meantime: try the next number
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or(crate::save::SaveError::Write {
        path: PathBuf::from(format!("{stem}-N.json")),
        error: io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{MAX_NUMBERED} failure saves are here already"),
        ),
    }))
}
