//! Save files: a game kept as its rules files, seed, bot seats and decisions in a versioned JSON
//! format, and the replay of decisions onto a fresh game.
//!
//! A save is the referee's record (docs/saves.md): it holds every secret, since the seed replays
//! the deal. Format 2 keeps the paths of the rules relative to the save file's folder and a
//! chain of state hashes ([`chain`]): one link after the setup and one after every decision, each
//! the hash of the one before, the decision and the whole position. Restoring replays every
//! decision and compares every link, so an edited seed, move or secret choice, or decisions
//! removed or reordered, are refused with the first point that does not match.
//!
//! Invariant: a save holds no state, only what is needed to rebuild it; restoring replays every
//! decision through [`Game::apply_label`], so a save that does not fit the rules is refused with
//! the number of the first decision that does not apply, and nothing is half-loaded.

pub mod chain;
mod error;
mod paths;
mod rules;
mod transcript;

pub use error::SaveError;
pub use rules::RulesFrom;

use crate::diag::{FileId, SourceMap};
use crate::engine::GameSettings;
use crate::engine::{Game, Limits, MoveError, Record, RuntimeError};
use crate::files::{self, Output};
use crate::ir::Program;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The save format this version writes. Format 3: a `choose` of one option is no decision
/// (it is taken without asking) unless the save says `always_ask`; formats 1 and 2 recorded it,
/// so their games are replayed with every choice asked.
pub const FORMAT: u64 = 3;

/// The oldest save format this version still reads (no chain, paths relative to the working
/// folder of the game).
pub const OLDEST_FORMAT: u64 = 1;

/// The schema of the JSON Lines stream of `meeple play --json` (docs/json.md), which
/// `--load` also reads.
pub const TRANSCRIPT_SCHEMA: &str = "meeple-game/3";

/// The schema of streams written before a choice of one option was taken without asking: read
/// as a game in which every choice is asked.
pub const TRANSCRIPT_SCHEMA_ASKING: &str = "meeple-game/2";

/// The largest save or `--json` stream read, in bytes. A game of 100,000 decisions (the default
/// limit) saves in about 10 MB; a file past this is refused before it is read.
pub const MAX_SAVE: u64 = 64 * 1024 * 1024;

/// One decision as saved: the seat by its display name and the move as typed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// The seat's display name, such as `P1`.
    pub player: String,
    /// The move's label.
    pub choice: String,
    /// The link of the chain after this decision (format 2), 16 hex digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
}

/// A saved game. In memory its paths are as this process opens them (relative to the working
/// folder, or absolute); on disk, in format 2, relative to the save file's folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SaveFile {
    /// The save format, [`FORMAT`] (or 1, read from an older save).
    pub format: u64,
    /// The version of meeple that wrote it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meeple: Option<String>,
    /// The rules file the game was started from.
    pub rules: String,
    /// The `--variant` files stacked on it, in order.
    pub variants: Vec<String>,
    /// The game's title.
    pub game: String,
    /// The number of players.
    pub players: u8,
    /// The seed the game was started with.
    pub seed: u64,
    /// The seats bots play, as `--bots` takes them (`random`, `2=mcts:500`); none if people
    /// play every seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bots: Option<String>,
    /// The first link of the chain: the position after the setup (format 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// True if every `choose` waited for its player, one of a single option too: the game's
    /// rules say `always ask`, or the game was first saved in format 1 or 2.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub always_ask: bool,
    /// Every decision taken, oldest first.
    pub decisions: Vec<Decision>,
    /// The last link of the chain (format 2): the position the save ends at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<String>,
    /// A hash of each rules file's text, in the order the game read them, so that a save that
    /// no longer replays can say whether the rules changed or the save was edited (saves made
    /// before it have none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<String>,
    /// The text of each rules file, in the same order: the save alone reopens the game, moved
    /// to another machine or after the rules were edited ([`SaveFile::load_rules`]). Saves made
    /// before it have none, and need their files.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub texts: Vec<String>,
}

impl SaveFile {
    /// A save of `game`, started from `rules` with `variants` stacked on it, bots in the seats
    /// `bots` names. The chain of state hashes is built by replaying the game's decisions.
    pub fn of_game(
        game: &Game,
        rules: &str,
        variants: &[String],
        bots: Option<String>,
    ) -> Result<SaveFile, SaveError> {
        let mut save = SaveFile {
            format: FORMAT,
            meeple: Some(env!("CARGO_PKG_VERSION").to_string()),
            rules: rules.to_string(),
            variants: variants.to_vec(),
            game: game.program().title.clone(),
            players: game.players(),
            seed: game.seed(),
            bots,
            start: None,
            always_ask: game.program().always_ask,
            decisions: decisions_of(game),
            end: None,
            sources: source_hashes(&game.program().sources),
            texts: source_texts(&game.program().sources),
        };
        let links = chain::links(
            game.program().clone(),
            &GameSettings::new(game.players(), game.seed()),
            game.history(),
        )
        .map_err(|e| match e {
            ReplayError::Start(e) => SaveError::Start(e),
            ReplayError::Decision { number, error } => save.decision_error(number, &error),
        })?;
        let hex: Vec<String> = links.iter().map(|h| chain::hex(*h)).collect();
        save.start = hex.first().cloned();
        save.end = hex.last().cloned();
        for (d, h) in save.decisions.iter_mut().zip(hex.iter().skip(1)) {
            d.state = Some(h.clone());
        }
        Ok(save)
    }

    fn decision_error(&self, number: usize, error: &MoveError) -> SaveError {
        let d = self.decisions.get(number - 1);
        SaveError::Decision {
            number,
            player: d.map(|d| d.player.clone()).unwrap_or_default(),
            choice: d.map(|d| d.choice.clone()).unwrap_or_default(),
            problem: error.to_string(),
        }
    }

    /// Parses a save from its JSON text, checking the format version first. Paths are left as
    /// written (see [`SaveFile::read`]). The text is read straight into the save, never into a
    /// tree of JSON values (which took fifteen times the file).
    pub fn parse(text: &str) -> Result<SaveFile, SaveError> {
        /// The fields looked at before the whole save is read; the others are skipped unread.
        #[derive(Deserialize)]
        struct Head {
            format: Option<serde_json::Value>,
            schema: Option<serde::de::IgnoredAny>,
            event: Option<serde::de::IgnoredAny>,
        }
        let json = |e: serde_json::Error| SaveError::Json(e.to_string());
        if !text.trim_start().starts_with('{') {
            // Tell text that is not JSON at all from JSON that is not an object.
            serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(json)?;
            return Err(SaveError::NotASave("expected a JSON object".into()));
        }
        let head: Head = serde_json::from_str(text).map_err(|e| {
            if e.is_data() {
                SaveError::NotASave(e.to_string())
            } else {
                json(e)
            }
        })?;
        if head.schema.is_some() || head.event.is_some() {
            return Err(SaveError::NotASave(
                "it is a line of a `meeple play --json` stream; `--load` reads the whole stream from its file".into(),
            ));
        }
        let format = match &head.format {
            None => return Err(SaveError::NotASave("it has no `format` field".into())),
            Some(f) => match f.as_u64() {
                Some(n) if (OLDEST_FORMAT..=FORMAT).contains(&n) => n,
                _ => return Err(SaveError::Format(f.to_string())),
            },
        };
        let mut save: SaveFile =
            serde_json::from_str(text).map_err(|e| SaveError::NotASave(e.to_string()))?;
        save.always_ask |= format < 3;
        if format >= 2 {
            let whole = save.start.is_some()
                && save.end.is_some()
                && save.decisions.iter().all(|d| d.state.is_some());
            if !whole {
                return Err(SaveError::NotASave(
                    "its chain of state hashes (`start`, each decision's `state`, `end`) is incomplete: the save was edited".into(),
                ));
            }
        }
        Ok(save)
    }

    /// Reads a save file, or the JSON Lines stream of `meeple play --json`: a regular file of
    /// at most [`MAX_SAVE`] bytes. The paths of a format 2 or 3 save are resolved against its
    /// folder; those of format 1 and of a stream are relative to the working folder, as when
    /// the game was played.
    pub fn read(path: &Path) -> Result<SaveFile, SaveError> {
        let text = files::read_text(path, MAX_SAVE).map_err(|error| SaveError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        if transcript::is_transcript(&text) {
            return transcript::parse(&text);
        }
        let mut save = SaveFile::parse(&text)?;
        if save.format >= 2 {
            let folder = path.parent().unwrap_or(Path::new(""));
            save.rules = paths::resolve(folder, &save.rules);
            save.variants = save
                .variants
                .iter()
                .map(|v| paths::resolve(folder, v))
                .collect();
        }
        Ok(save)
    }

    /// The save as pretty JSON, ending in a newline, its paths as they are in memory.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// Writes the save, its paths made relative to the save's folder (format 2), replacing the
    /// file only once the whole text is written, and only if it is a save already (never the
    /// game's own rules files, a link, or a file of another kind: [`files::check_target`]).
    pub fn write(&self, path: &Path) -> Result<(), SaveError> {
        let text = self.text_at(path)?;
        files::write_output(path, &text, Output::Save, &self.inputs()).map_err(|error| {
            SaveError::Write {
                path: path.to_path_buf(),
                error,
            }
        })
    }

    /// Writes the save to `path`, which must not exist yet: a save made without being asked
    /// for (after a failure) never replaces anything.
    pub fn write_new(&self, path: &Path) -> Result<(), SaveError> {
        let text = self.text_at(path)?;
        files::write_new(path, &text).map_err(|error| SaveError::Write {
            path: path.to_path_buf(),
            error,
        })
    }

    /// The rules and variant files the save names, which it may never be written over.
    fn inputs(&self) -> Vec<PathBuf> {
        std::iter::once(&self.rules)
            .chain(&self.variants)
            .map(PathBuf::from)
            .collect()
    }

    /// The save's text as written at `path`: its paths relative to the save's folder.
    fn text_at(&self, path: &Path) -> Result<String, SaveError> {
        let err = |error| SaveError::Write {
            path: path.to_path_buf(),
            error,
        };
        let folder = path.parent().unwrap_or(Path::new(""));
        let mut on_disk = self.clone();
        if on_disk.format >= 2 {
            on_disk.rules = paths::relative(folder, &self.rules).map_err(err)?;
            on_disk.variants = self
                .variants
                .iter()
                .map(|v| paths::relative(folder, v))
                .collect::<Result<_, _>>()
                .map_err(err)?;
        }
        Ok(on_disk.to_json())
    }

    /// Refuses a save whose title, player count or files differ from the game being played.
    pub fn check_fits(
        &self,
        game: &Game,
        rules: &str,
        variants: &[String],
    ) -> Result<(), SaveError> {
        let title = &game.program().title;
        if &self.game != title {
            return Err(SaveError::WrongGame {
                expected: title.clone(),
                found: self.game.clone(),
            });
        }
        if self.players != game.players() {
            return Err(SaveError::WrongPlayers {
                expected: game.players(),
                found: self.players,
            });
        }
        let same = same_path(&self.rules, rules)
            && self.variants.len() == variants.len()
            && self
                .variants
                .iter()
                .zip(variants)
                .all(|(a, b)| same_path(a, b));
        if !same {
            return Err(SaveError::WrongFiles {
                expected: describe_files(rules, variants),
                found: describe_files(&self.rules, &self.variants),
            });
        }
        Ok(())
    }

    /// How the saved game was set up: its players and seed, and whether every choice asks.
    /// The rest is the default: a save keeps no limits.
    pub fn settings(&self) -> GameSettings {
        GameSettings {
            always_ask: self.always_ask,
            ..GameSettings::new(self.players, self.seed)
        }
    }

    /// Starts the saved game on `program` and replays its decisions; `before` is called ahead of
    /// each decision (to keep bots in step). The program's title must match the save's.
    pub fn restore(
        &self,
        program: Arc<Program>,
        before: &mut dyn FnMut(&Game, &Record),
    ) -> Result<Game, SaveError> {
        if program.title != self.game {
            return Err(SaveError::WrongGame {
                expected: program.title.clone(),
                found: self.game.clone(),
            });
        }
        // Asked before the replay: if it parts from the record, this says why.
        let changed = self.changed_sources(&program);
        let game = self.settings().start(program).map_err(SaveError::Start)?;
        let mut records = Vec::with_capacity(self.decisions.len());
        for (i, d) in self.decisions.iter().enumerate() {
            let Some(player) = game.seat_by_name(&d.player) else {
                return Err(SaveError::Decision {
                    number: i + 1,
                    player: d.player.clone(),
                    choice: d.choice.clone(),
                    problem: format!("the game has no seat `{}`", d.player),
                });
            };
            records.push(Record {
                player,
                choice: d.choice.clone(),
            });
        }
        let Some(start) = &self.start else {
            return replay_onto(game, &records, before).map_err(|e| match e {
                ReplayError::Start(e) => SaveError::Start(e),
                ReplayError::Decision { number, error } => self.decision_error(number, &error),
            });
        };
        let edited = |number| SaveError::Edited {
            number,
            by: self.meeple.clone(),
            changed: changed.clone(),
        };
        let mut chain = chain::Chain::start(&game);
        if &chain::hex(chain.link) != start {
            // A save of an earlier meeple, whose links hashed the whole position.
            chain = chain::Chain::start_whole(&game);
        }
        if &chain::hex(chain.link) != start {
            return Err(edited(None));
        }
        let mut game = game;
        for (i, r) in records.iter().enumerate() {
            before(&game, r);
            game.apply_label(r.player, &r.choice)
                .map_err(|error| self.decision_error(i + 1, &error))?;
            chain.next(&game);
            if self.decisions[i].state.as_deref() != Some(chain::hex(chain.link).as_str()) {
                return Err(edited(Some(i + 1)));
            }
        }
        if self.end.as_deref() != Some(chain::hex(chain.link).as_str()) {
            return Err(SaveError::Truncated {
                decisions: records.len(),
            });
        }
        Ok(game)
    }
}

impl SaveFile {
    /// Which of `program`'s rules files differ from those the save was made with, by the
    /// save's hashes of their text; `None` if it has none (or the game reads other files).
    fn changed_sources(&self, program: &Program) -> Option<Vec<String>> {
        let now = source_hashes(&program.sources);
        if self.sources.is_empty() {
            return None;
        }
        if self.sources.len() != now.len() {
            return Some(vec![program.sources.file(FileId(0)).name.clone()]);
        }
        Some(
            self.sources
                .iter()
                .zip(&now)
                .enumerate()
                .filter(|(_, (was, is))| was != is)
                .map(|(i, _)| program.sources.file(FileId(i as u32)).name.clone())
                .collect(),
        )
    }
}

/// The text of each rules file, in the order they were read.
fn source_texts(sources: &SourceMap) -> Vec<String> {
    (0..sources.len())
        .map(|i| sources.file(FileId(i as u32)).text.to_string())
        .collect()
}

/// A hash of the text of each rules file, in the order they were read.
fn source_hashes(sources: &SourceMap) -> Vec<String> {
    (0..sources.len())
        .map(|i| chain::text_hash(&sources.file(FileId(i as u32)).text))
        .collect()
}

/// The decisions of a game, seats by display name.
pub fn decisions_of(game: &Game) -> Vec<Decision> {
    game.history()
        .iter()
        .map(|r| Decision {
            player: game.seat_name(r.player),
            choice: r.choice.clone(),
            state: None,
        })
        .collect()
}

/// Why a replay stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayError {
    /// The game could not start.
    Start(RuntimeError),
    /// A decision was refused.
    Decision {
        /// 1-based number of the decision.
        number: usize,
        /// Why it was refused.
        error: MoveError,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Start(e) => write!(f, "the game cannot start: {e}"),
            ReplayError::Decision { number, error } => write!(f, "decision {number}: {error}"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// Starts a game with `settings` and replays `decisions` onto it with [`Game::apply_label`];
/// `before` is called ahead of each decision.
///
/// The record is replayed within the default decision limit and `settings`' limit holds from
/// its end on: a record the game took is not refused for its length.
pub fn replay(
    program: Arc<Program>,
    settings: &GameSettings,
    decisions: &[Record],
    before: &mut dyn FnMut(&Game, &Record),
) -> Result<Game, ReplayError> {
    let replaying = GameSettings {
        limits: Limits::default(),
        ..*settings
    };
    let game = replaying.start(program).map_err(ReplayError::Start)?;
    let mut game = replay_onto(game, decisions, before)?;
    game.set_max_decisions(settings.limits.decisions);
    Ok(game)
}

fn replay_onto(
    mut game: Game,
    decisions: &[Record],
    before: &mut dyn FnMut(&Game, &Record),
) -> Result<Game, ReplayError> {
    for (i, r) in decisions.iter().enumerate() {
        before(&game, r);
        game.apply_label(r.player, &r.choice)
            .map_err(|error| ReplayError::Decision {
                number: i + 1,
                error,
            })?;
    }
    Ok(game)
}

fn same_path(a: &str, b: &str) -> bool {
    match (Path::new(a).canonicalize(), Path::new(b).canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

fn describe_files(rules: &str, variants: &[String]) -> String {
    if variants.is_empty() {
        format!("`{rules}`")
    } else {
        let v: Vec<String> = variants.iter().map(|v| format!("`{v}`")).collect();
        format!("`{rules}` and variants {}", v.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_reports_each_kind_of_corruption() {
        assert!(matches!(SaveFile::parse("{"), Err(SaveError::Json(_))));
        assert!(matches!(SaveFile::parse("[]"), Err(SaveError::NotASave(_))));
        assert!(matches!(SaveFile::parse("{}"), Err(SaveError::NotASave(_))));
        assert!(matches!(
            SaveFile::parse(r#"{"format": 4}"#),
            Err(SaveError::Format(_))
        ));
        assert!(matches!(
            SaveFile::parse(r#"{"format": 1, "rules": "x"}"#),
            Err(SaveError::NotASave(_))
        ));
        let mut ok = SaveFile {
            format: FORMAT,
            meeple: None,
            rules: "a.rules".into(),
            variants: vec![],
            game: "G".into(),
            players: 2,
            seed: 7,
            bots: Some("2=random".into()),
            start: Some("0123456789abcdef".into()),
            always_ask: false,
            decisions: vec![Decision {
                player: "P1".into(),
                choice: "go".into(),
                state: Some("fedcba9876543210".into()),
            }],
            end: Some("fedcba9876543210".into()),
            sources: vec!["00112233aabbccdd".into()],
            texts: vec!["game \"G\" { players 2..2 }\n".into()],
        };
        assert_eq!(SaveFile::parse(&ok.to_json()).ok(), Some(ok.clone()));
        ok.decisions[0].state = None;
        assert!(matches!(
            SaveFile::parse(&ok.to_json()),
            Err(SaveError::NotASave(_))
        ));
        ok.format = 1;
        assert!(
            SaveFile::parse(&ok.to_json()).is_ok(),
            "format 1 has no chain"
        );
    }
}
