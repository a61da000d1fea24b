//! Save files: a game kept as its rules files, seed and decisions in a versioned JSON format, and
//! the replay of decisions onto a fresh game.
//!
//! Invariant: a save holds no state, only what is needed to rebuild it; restoring replays every
//! decision through [`Game::apply_label`], so a save that does not fit the rules is refused with
//! the number of the first decision that does not apply, and nothing is half-loaded.

use crate::engine::{Game, MoveError, Record, RuntimeError};
use crate::ir::Program;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The save format this version writes and reads.
pub const FORMAT: u64 = 1;

/// One decision as saved: the seat by its display name and the move as typed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// The seat's display name, such as `P1`.
    pub player: String,
    /// The move's label.
    pub choice: String,
}

/// A saved game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SaveFile {
    /// The save format, [`FORMAT`].
    pub format: u64,
    /// The rules file the game was started from, as given on the command line.
    pub rules: String,
    /// The `--variant` files stacked on it, in order.
    pub variants: Vec<String>,
    /// The game's title.
    pub game: String,
    /// The number of players.
    pub players: u8,
    /// The seed the game was started with.
    pub seed: u64,
    /// Every decision taken, oldest first.
    pub decisions: Vec<Decision>,
}

/// Why a save could not be read, written or restored.
#[derive(Debug)]
pub enum SaveError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
    /// The file could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
    /// The text is not JSON.
    Json(String),
    /// The JSON is not a save: a field is missing or of the wrong type.
    NotASave(String),
    /// The save is of another format version.
    Format(String),
    /// The save is of another game.
    WrongGame {
        /// The title of the game being played.
        expected: String,
        /// The title in the save.
        found: String,
    },
    /// The save is for another number of players.
    WrongPlayers {
        /// Players in the game being played.
        expected: u8,
        /// Players in the save.
        found: u8,
    },
    /// The save was made with other rules or variant files.
    WrongFiles {
        /// The files of the game being played.
        expected: String,
        /// The files named in the save.
        found: String,
    },
    /// The saved game could not start.
    Start(RuntimeError),
    /// A decision does not apply at its point in the game.
    Decision {
        /// 1-based number of the decision in the save.
        number: usize,
        /// The seat as saved.
        player: String,
        /// The move as saved.
        choice: String,
        /// Why it does not apply.
        problem: String,
    },
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveError::Read { path, error } => {
                write!(f, "cannot read `{}`: {error}", path.display())
            }
            SaveError::Write { path, error } => {
                write!(f, "cannot write `{}`: {error}", path.display())
            }
            SaveError::Json(e) => write!(f, "the save is not valid JSON: {e}"),
            SaveError::NotASave(e) => write!(f, "not a Meeple save: {e}"),
            SaveError::Format(found) => write!(
                f,
                "the save is in format {found}; this version of meeple reads format {FORMAT}"
            ),
            SaveError::WrongGame { expected, found } => {
                write!(f, "the save is a game of `{found}`, not `{expected}`")
            }
            SaveError::WrongPlayers { expected, found } => write!(
                f,
                "the save is for {found} players; this game has {expected}"
            ),
            SaveError::WrongFiles { expected, found } => write!(
                f,
                "the save was played with {found}; this game is played with {expected}"
            ),
            SaveError::Start(e) => write!(f, "the saved game cannot start: {e}"),
            SaveError::Decision {
                number,
                player,
                choice,
                problem,
            } => write!(f, "decision {number} ({player}: `{choice}`): {problem}"),
        }
    }
}

impl std::error::Error for SaveError {}

impl SaveFile {
    /// A save of `game`, started from `rules` with `variants` stacked on it.
    pub fn of_game(game: &Game, rules: &str, variants: &[String]) -> SaveFile {
        SaveFile {
            format: FORMAT,
            rules: rules.to_string(),
            variants: variants.to_vec(),
            game: game.program().title.clone(),
            players: game.players(),
            seed: game.seed(),
            decisions: decisions_of(game),
        }
    }

    /// Parses a save from its JSON text, checking the format version first.
    pub fn parse(text: &str) -> Result<SaveFile, SaveError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| SaveError::Json(e.to_string()))?;
        let Some(object) = value.as_object() else {
            return Err(SaveError::NotASave("expected a JSON object".into()));
        };
        match object.get("format") {
            None => return Err(SaveError::NotASave("it has no `format` field".into())),
            Some(f) if f.as_u64() == Some(FORMAT) => {}
            Some(f) => return Err(SaveError::Format(f.to_string())),
        }
        serde_json::from_value(value).map_err(|e| SaveError::NotASave(e.to_string()))
    }

    /// Reads and parses a save file.
    pub fn read(path: &Path) -> Result<SaveFile, SaveError> {
        let text = std::fs::read_to_string(path).map_err(|error| SaveError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        SaveFile::parse(&text)
    }

    /// The save as pretty JSON, ending in a newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// Writes the save, replacing the file only once the whole text is written.
    pub fn write(&self, path: &Path) -> Result<(), SaveError> {
        let err = |error| SaveError::Write {
            path: path.to_path_buf(),
            error,
        };
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        std::fs::write(&tmp, self.to_json()).map_err(err)?;
        std::fs::rename(&tmp, path).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            err(e)
        })
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
        let game = Game::new(program, self.players, self.seed).map_err(SaveError::Start)?;
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
        replay_onto(game, &records, before).map_err(|e| match e {
            ReplayError::Start(e) => SaveError::Start(e),
            ReplayError::Decision { number, error } => SaveError::Decision {
                number,
                player: self.decisions[number - 1].player.clone(),
                choice: self.decisions[number - 1].choice.clone(),
                problem: error.to_string(),
            },
        })
    }
}

/// The decisions of a game, seats by display name.
pub fn decisions_of(game: &Game) -> Vec<Decision> {
    game.history()
        .iter()
        .map(|r| Decision {
            player: game.seat_name(r.player),
            choice: r.choice.clone(),
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

/// Starts a game and replays `decisions` onto it with [`Game::apply_label`]; `before` is called
/// ahead of each decision.
pub fn replay(
    program: Arc<Program>,
    players: u8,
    seed: u64,
    decisions: &[Record],
    before: &mut dyn FnMut(&Game, &Record),
) -> Result<Game, ReplayError> {
    let game = Game::new(program, players, seed).map_err(ReplayError::Start)?;
    replay_onto(game, decisions, before)
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
            SaveFile::parse(r#"{"format": 2}"#),
            Err(SaveError::Format(_))
        ));
        assert!(matches!(
            SaveFile::parse(r#"{"format": 1, "rules": "x"}"#),
            Err(SaveError::NotASave(_))
        ));
        let ok = SaveFile {
            format: FORMAT,
            rules: "a.rules".into(),
            variants: vec![],
            game: "G".into(),
            players: 2,
            seed: 7,
            decisions: vec![Decision {
                player: "P1".into(),
                choice: "go".into(),
            }],
        };
        assert_eq!(SaveFile::parse(&ok.to_json()).ok(), Some(ok));
    }
}
