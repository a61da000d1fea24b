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
