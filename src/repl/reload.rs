//! `reload`: read the rules files again, replay the decisions taken so far under the new rules,
//! and say plainly where the new rules part ways with them.
//!
//! The old rules are replayed beside the new ones, so the first decision at which a different
//! seat decides or different moves are offered can be named even when every decision still
//! applies. Secrets stay secret: moves are named only when nobody else at the device could learn
//! from them (no secrets in the game, or a single person at the table), and a secret choice is
//! never named.
//!
//! At a table with secrets (under the old rules or the new) nothing is replayed: whether a
//! decision still applies, and where the rules part ways, can depend on what is hidden (a
//! secret choice that the new rules forbid), so any answer would tell it. The game so far is
//! saved instead, and a new game starts under the new rules from a seed drawn from the old one
//! (so that nothing of the old deal carries over, and the same session gives the same game).

use super::{Out, Seats, Session};
use crate::diag::{render_all, RenderStyle};
use crate::engine::GameSettings;
use crate::engine::{Game, Record, Rng, Viewer};
use crate::ir::Program;
use crate::load::load;
use std::collections::BTreeSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How many moves a difference lists before saying "and N more".
const LISTED: usize = 6;

/// The random stream of a seed from which the seed of a game started again by `reload` is drawn.
const RESTART_STREAM: u64 = u64::from_le_bytes(*b"reload\0\0");

/// How the game so far replayed under reloaded rules.
struct Replay<'a> {
    /// The decisions of the game so far.
    history: &'a [Record],
    /// How many of them the new rules took.
    replayed: usize,
    /// The first decision whose options differ under the new rules, and how.
    first_difference: Option<(usize, String)>,
    /// The decision the new rules refused: its index, whether it was secret, and why.
    parted: Option<(usize, bool, String)>,
    /// Whether the position differs though the same moves were offered.
    changes_view: bool,
}

impl Session {
    /// Reloads the rules and replays the game onto them; the game is unchanged if they do not
    /// check or the game cannot start under them.
    pub(super) fn reload(&mut self, out: &mut Out<'_>) -> io::Result<()> {
        let variants: Vec<PathBuf> = self.files.variants.iter().map(PathBuf::from).collect();
        let loaded = load(Path::new(&self.files.rules), &variants);
        let Some(program) = loaded.program else {
            // Rendered with the rules' text already escaped; the colours are the REPL's own.
            out.raw(&render_all(
                &loaded.diagnostics,
                &loaded.sources,
                RenderStyle {
                    color: self.style.color,
                    ..RenderStyle::plain()
                },
            ))?;
            self.refused_now = true;
            return writeln!(
                out,
                "Not reloaded: the rules do not check. The game is as it was."
            );
        };
        let players = self.game.players();
        if !(program.min_players..=program.max_players).contains(&players) {
            self.refused_now = true;
            return writeln!(
                out,
                "Not reloaded: the new rules are for {}..{} players, and this game has {players}. The game is as it was.",
                program.min_players, program.max_players
            );
        }
        let secrets = self.private || super::has_private_info(&program);
        // A game loaded from an old save asks every choice: so does its replay (the settings
        // keep `always_ask`), and its decision limit holds.
        let settings = self.settings();
        let program = Arc::new(program);
        if secrets {
            return self.start_again(program, settings, out);
        }
        let seed = settings.seed;
        let mut new = match settings.start(program) {
            Ok(g) => g,
            Err(e) => {
                self.refused_now = true;
                return writeln!(
                    out,
                    "Not reloaded: the new rules fail at setup: {e}. The game is as it was."
                );
            }
        };
        let old_rules = GameSettings::new(players, seed);
        let Ok(mut old) = old_rules.start(self.game.program().clone()) else {
            self.refused_now = true;
            return writeln!(out, "Not reloaded: the old game cannot be rebuilt.");
        };
        let history = self.game.history().to_vec();
        let mut seats = Seats::new(&self.spec, seed, players);
        let mut first_difference = None;
        let mut parted = None;
        for (i, record) in history.iter().enumerate() {
            if first_difference.is_none() {
                first_difference = self.difference(&old, &new).map(|d| (i + 1, d));
            }
            seats.keep_in_step(&new, record);
            let secret = new.decision_is_secret();
            if let Err(e) = new.apply_label(record.player, &record.choice) {
                parted = Some((i, secret, e.to_string()));
                break;
            }
            // The old rules took this decision once; they take it again.
            let _ = old.apply_label(record.player, &record.choice);
        }
        let replayed = new.history().len();
        let changes_view = old.view(Viewer::Spectator) != new.view(Viewer::Spectator);
        self.private = super::has_private_info(new.program());
        self.game = new;
        self.seats = seats;
        self.mark_all_read();
        self.presented = false;

        let replay = Replay {
            history: &history,
            replayed,
            first_difference,
            parted,
            changes_view,
        };
        self.tell_reloaded(replay, out)
    }

    /// Tells how the game so far came out under the new rules.
    fn tell_reloaded(&self, replay: Replay<'_>, out: &mut Out<'_>) -> io::Result<()> {
        let Replay {
            history,
            replayed,
            first_difference,
            parted,
            changes_view,
        } = replay;
        writeln!(out, "Reloaded `{}`.", self.files.rules)?;
        if let Some((number, what)) = &first_difference {
            writeln!(out, "The new rules part ways at decision {number}: {what}.")?;
        }
        match parted {
            Some((i, secret, why)) => {
                let record = &history[i];
                let name = self.game.seat_name(record.player);
                // The refusal names the move: say it only where the move may be named.
                let (choice, why) = if secret || !self.may_name_moves(record.player) {
                    ("a choice not shown here".to_string(), String::new())
                } else {
                    (format!("`{}`", record.choice), format!(": {why}"))
                };
                writeln!(
                    out,
                    "Decision {} ({name}: {choice}) is not allowed under the new rules{why}.",
                    i + 1
                )?;
                writeln!(
                    out,
                    "Replayed {replayed} of {} decisions; the game goes on from there ({} dropped).",
                    history.len(),
                    history.len() - replayed
                )?;
            }
            None => {
                writeln!(
                    out,
                    "All {} decisions replayed under the new rules.",
                    history.len()
                )?;
                if first_difference.is_none() && changes_view {
                    writeln!(
                        out,
                        "The same moves were offered throughout, but they lead to a different position now."
                    )?;
                } else if first_difference.is_none() {
                    writeln!(out, "Nothing played so far comes out differently.")?;
                }
            }
        }
        Ok(())
    }

    /// At a table with secrets: saves the game so far, then starts a new game under `program`.
    fn start_again(
        &mut self,
        program: Arc<Program>,
        settings: GameSettings,
        out: &mut Out<'_>,
    ) -> io::Result<()> {
        let settings = GameSettings {
            seed: Rng::new(settings.seed, RESTART_STREAM).below(u64::MAX),
            ..settings
        };
        let new = match settings.start(program) {
            Ok(g) => g,
            Err(e) => {
                self.refused_now = true;
                return writeln!(
                    out,
                    "Not reloaded: the new rules fail at setup: {}. The game is as it was.",
                    e.without_values()
                );
            }
        };
        writeln!(out, "Reloaded `{}`.", self.files.rules)?;
        writeln!(
            out,
            "At a table with secrets the game so far is not replayed under the new rules: \
             where they part ways would tell what is hidden."
        )?;
        if !self.game.history().is_empty() {
            match self.save_numbered("meeple-reload") {
                Ok(path) => writeln!(
                    out,
                    "The game so far is saved in `{}` (the referee's record: it tells every secret).",
                    path.display()
                )?,
                Err(e) => writeln!(out, "The game so far could not be saved: {e}")?,
            }
        }
        writeln!(out, "A new game starts under the new rules.")?;
        self.private = super::has_private_info(new.program());
        self.seats = Seats::new(&self.spec, settings.seed, settings.players);
        self.game = new;
        self.saved = self.game.history().to_vec();
        // The new game's setup log is new to everyone.
        self.shown.fill(Default::default());
        self.last_human = None;
        self.presented = false;
        Ok(())
    }

    /// How the decision pending in `new` differs from the one pending in `old`, if it does.
    fn difference(&self, old: &Game, new: &Game) -> Option<String> {
        let (was, now) = (old.waiting_on(), new.waiting_on());
        if was != now {
            let names = |seats: &[u8]| {
                if seats.is_empty() {
                    "nobody (the game is over)".to_string()
                } else {
                    let v: Vec<String> = seats.iter().map(|s| new.seat_name(*s)).collect();
                    v.join(", ")
                }
            };
            return Some(format!(
                "{} decides now, where {} did",
                names(&now),
                names(&was)
            ));
        }
        for seat in now {
            let before: BTreeSet<String> = old.options(seat).into_iter().map(|o| o.label).collect();
            let after: BTreeSet<String> = new.options(seat).into_iter().map(|o| o.label).collect();
            if before == after {
                continue;
            }
            let who = new.seat_name(seat);
            if !self.may_name_moves(seat) || new.decision_is_secret() {
                return Some(format!("{who} is offered different moves"));
            }
            let gone: Vec<&String> = before.difference(&after).collect();
            let added: Vec<&String> = after.difference(&before).collect();
            let mut parts = Vec::new();
            if !added.is_empty() {
                parts.push(format!("now allowed {}", listed(&added)));
            }
            if !gone.is_empty() {
                parts.push(format!("no longer allowed {}", listed(&gone)));
            }
            return Some(format!("{who} is {}", parts.join("; ")));
        }
        None
    }

    /// True if naming `seat`'s moves tells nobody at the device anything they may not know: the
    /// game has no secrets, or `seat` is the only person at the table.
    fn may_name_moves(&self, seat: u8) -> bool {
        let people = (0..self.game.players())
            .filter(|s| !self.seats.is_bot(*s))
            .count();
        !self.private || (people == 1 && !self.seats.is_bot(seat))
    }
}

/// `` `a`, `b` and 3 more ``.
fn listed(moves: &[&String]) -> String {
    let shown: Vec<String> = moves
        .iter()
        .take(LISTED)
        .map(|m| format!("`{m}`"))
        .collect();
    let mut s = shown.join(", ");
    if moves.len() > LISTED {
        s.push_str(&format!(" and {} more", moves.len() - LISTED));
    }
    s
}
