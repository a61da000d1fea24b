//! Why a save could not be read, written or restored, and how each reason is said.

use super::{FORMAT, OLDEST_FORMAT};
use crate::engine::RuntimeError;
use std::fmt;
use std::path::PathBuf;

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
    /// The replayed game does not match the save's chain of state hashes at this decision
    /// (`None`: at the start, after the setup).
    Edited {
        /// 1-based number of the first decision whose link differs.
        number: Option<usize>,
        /// The version of meeple that wrote the save, if it says.
        by: Option<String>,
        /// What the save's hashes of the rules' text say: which files changed since the game
        /// was saved (empty: none did, so the save was edited), or `None` for a save that keeps
        /// no such hashes.
        changed: Option<Vec<String>>,
    },
    /// The chain's last link is not the position after the last decision: decisions were
    /// removed from the end (or the links edited).
    Truncated {
        /// Decisions in the save.
        decisions: usize,
    },
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
                "the save is in format {found}; this version of meeple reads formats {OLDEST_FORMAT} to {FORMAT}"
            ),
            SaveError::Edited {
                number,
                by,
                changed,
            } => {
                match number {
                    Some(n) => write!(f, "decision {n} does not match the record")?,
                    None => write!(f, "the position after the setup does not match the record")?,
                }
                match changed.as_deref() {
                    Some([]) => write!(
                        f,
                        ": the rules are as they were when the game was saved, so the save was edited{}",
                        if number.is_none() { " (its seed or players)" } else { "" }
                    )?,
                    Some(files) => {
                        let files: Vec<String> = files.iter().map(|p| format!("`{p}`")).collect();
                        write!(
                            f,
                            ": the rules have changed since the game was saved ({} {}), and the game no longer replays as it was played",
                            files.join(", "),
                            if files.len() == 1 { "differs" } else { "differ" }
                        )?
                    }
                    None => write!(
                        f,
                        ": the save was edited, or the rules have changed since it was made (it is too old to say which)"
                    )?,
                }
                let this = env!("CARGO_PKG_VERSION");
                match by {
                    Some(v) if v != this => write!(
                        f,
                        "; it was saved by meeple {v}, this is {this}, whose record may differ"
                    ),
                    _ => Ok(()),
                }
            }
            SaveError::Truncated { decisions } => write!(
                f,
                "the record does not end after decision {decisions}, where the save does: decisions were removed or the record edited"
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
