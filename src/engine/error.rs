//! Errors that stop a rule while it runs, and refusals of moves.

use crate::diag::{Diagnostic, Span};
use std::fmt;

/// A rule that failed while running: it names the rule by its span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeError {
    /// A kebab-case code, such as `step-limit`.
    pub code: &'static str,
    /// What went wrong.
    pub message: String,
    /// The rule that was running.
    pub span: Span,
    /// How to fix the rules.
    pub help: String,
    /// The number of the decision whose rules were running (1 for the first), or `None` while
    /// the game was being set up.
    pub decision: Option<usize>,
}

impl RuntimeError {
    /// A new error at a span.
    pub fn new(
        code: &'static str,
        message: impl Into<String>,
        span: Span,
        help: impl Into<String>,
    ) -> RuntimeError {
        RuntimeError {
            code,
            message: message.into(),
            span,
            help: help.into(),
            decision: None,
        }
    }

    /// The same error, saying which decision's rules were running.
    pub fn in_decision(mut self, number: usize) -> RuntimeError {
        self.decision.get_or_insert(number);
        self
    }

    /// The same error without the values it names, for a table where they may be a seat's
    /// secret: its message says only what its code means (the rule, its place and the help
    /// stay, as they are the rules' text).
    pub fn without_values(&self) -> RuntimeError {
        RuntimeError {
            message: format!(
                "{} (its values are not shown: this game has secrets)",
                meaning(self.code)
            ),
            ..self.clone()
        }
    }

    /// The error as a diagnostic, for rendering with the source.
    pub fn to_diagnostic(&self) -> Diagnostic {
        let label = match self.decision {
            Some(n) => format!("while running this, in decision {n}"),
            None => "while running this, before the first decision".to_string(),
        };
        Diagnostic::error(self.code, self.message.clone(), self.span)
            .with_label(label)
            .with_help(self.help.clone())
    }
}

/// What an error code means, in words that name no value.
fn meaning(code: &str) -> &'static str {
    match code {
        "division-by-zero" => "a division by zero",
        "overflow" => "a number grew too large",
        "no-value" => "a `none` where a value was needed",
        "type-mismatch" => "a value of the wrong type",
        "out-of-range" => "a position or count out of range",
        "not-in-list" => "a value is not in the list it is removed from",
        "no-options" => "a choice with nothing to choose from",
        "no-legal-move" => "a turn with no legal action",
        "bad-count" => "a count that cannot be",
        "list-too-long" => "a list grew too long",
        "text-too-long" => "a text grew too long",
        "loop-limit" => "a loop ran too many times",
        "step-limit" => "too much work without a decision",
        "game-too-large" => "the game holds too many list elements",
        "call-depth" => "calls nested too deep",
        "decision-limit" => "the game passed its limit of decisions",
        "log-limit" => "the log passed its limit of lines",
        "move-limit" => "a turn would try too many moves",
        "invariant-broken" => "an invariant no longer holds",
        "uncovered-player-count" => "no value for this player count",
        _ => "a rule failed",
    }
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)?;
        match self.decision {
            Some(n) => write!(f, " (in decision {n})"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for RuntimeError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_without_values_names_none() {
        let e = RuntimeError::new(
            "division-by-zero",
            "158 / 0",
            Span::default(),
            "guard the division",
        );
        let hidden = e.without_values();
        assert!(!hidden.message.contains("158"), "{}", hidden.message);
        assert!(hidden.message.starts_with("a division by zero"));
        assert_eq!(
            (hidden.code, hidden.help.as_str()),
            (e.code, "guard the division")
        );
    }
}

/// Why a move was not applied. The game is unchanged in every case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// The game is over.
    GameOver,
    /// This player has nothing to decide now.
    NotYourDecision {
        /// Who tried.
        player: String,
        /// Who must decide.
        waiting: Vec<String>,
    },
    /// The move is not among the legal options.
    Illegal {
        /// What was asked for.
        input: String,
        /// Why not, as precisely as the rules say.
        reason: String,
        /// A move whose name is close to what was typed, which the reason suggests.
        close: Option<String>,
    },
    /// A rule failed while the move was applied; the move was undone.
    Runtime(RuntimeError),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::GameOver => write!(f, "the game is over"),
            MoveError::NotYourDecision { player, waiting } => {
                write!(
                    f,
                    "{player} has nothing to decide now; waiting for {}",
                    waiting.join(", ")
                )
            }
            MoveError::Illegal { input, reason, .. } => {
                write!(f, "`{input}` is not allowed: {reason}")
            }
            MoveError::Runtime(e) => write!(f, "a rule failed: {e}"),
        }
    }
}

impl std::error::Error for MoveError {}
