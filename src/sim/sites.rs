//! Statements of the rules as a report names them: their place (`file:line:column`) and
//! first line. Shared by the choices made ([`super::choices`]) and the rules never run
//! ([`super::coverage`]).

use crate::diag::Span;
use crate::ir::Program;
use serde::{Deserialize, Serialize};

/// The longest statement text a report shows; longer ones end in `…`.
const TEXT_WIDTH: usize = 72;

/// A statement of the rules (one that asks a player, or the first of a block): where it is and
/// how it reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Site {
    /// `file:line:column` of the statement.
    pub at: String,
    /// Its first line, trimmed (cut at 72 characters).
    pub text: String,
}

/// The statements at `spans`, which must be sorted.
pub fn sites(program: &Program, spans: &[Span]) -> Vec<Site> {
    program
        .sources
        .line_cols(spans)
        .into_iter()
        .zip(spans)
        .map(|((line, column), &span)| Site {
            at: format!("{}:{line}:{column}", program.sources.file(span.file).name),
            text: first_line(program.sources.snippet(span)),
        })
        .collect()
}

/// The first line of a statement, trimmed and cut to [`TEXT_WIDTH`] characters.
fn first_line(source: &str) -> String {
    let line = source.lines().next().unwrap_or("").trim();
    if line.chars().count() <= TEXT_WIDTH {
        return line.to_string();
    }
    let cut: String = line.chars().take(TEXT_WIDTH - 1).collect();
    format!("{}…", cut.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_statement_is_cut_and_a_short_one_kept() {
        assert_eq!(
            first_line("  let x = choose p \"Pick\" from xs\n  more"),
            "let x = choose p \"Pick\" from xs"
        );
        let long = format!("choose p \"{}\" from xs", "a".repeat(100));
        let cut = first_line(&long);
        assert_eq!(cut.chars().count(), TEXT_WIDTH);
        assert!(cut.ends_with('…'));
    }
}
