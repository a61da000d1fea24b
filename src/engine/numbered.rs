//! Moves typed by their place in the list: what the REPL, the web table and a scenario's
//! `play` all read the same way.

use super::{Game, MoveOption};

/// True if some option's label is a whole number, so that a typed number is read as a label.
pub fn numeric(options: &[MoveOption]) -> bool {
    options
        .iter()
        .any(|o| o.label.trim().parse::<i64>().is_ok())
}

/// Moves compare without case and with runs of spaces folded, as the engine compares them.
fn fold(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

impl Game {
    /// Reads a typed move against `seat`'s options: a label (any case) first, then `#N` for
    /// the N-th option, and `N` for the N-th option only when no move is a number (where some
    /// are, a bare number is a value: one not on offer goes to the engine, which explains).
    /// Anything else is returned as typed, for [`Game::apply_label`] to explain.
    pub fn resolve_typed(&self, seat: u8, typed: &str) -> Result<String, String> {
        // A choice of several is read whole by the engine (`3 5 7`, `#2 #4`, `none`).
        if self.several(seat).is_some() {
            return Ok(typed.trim().to_string());
        }
        let options = self.options(seat);
        let folded = fold(typed);
        if let Some(o) = options.iter().find(|o| fold(&o.label) == folded) {
            return Ok(o.label.clone());
        }
        let typed = typed.trim();
        let (hash, number) = match typed.strip_prefix('#') {
            Some(n) => (true, n.trim()),
            None => (false, typed),
        };
        match number.parse::<usize>() {
            // a number that is not a label, where labels are numbers: the engine explains
            Ok(_) if !hash && numeric(&options) => Ok(typed.to_string()),
            Ok(n) if (1..=options.len()).contains(&n) => Ok(options[n - 1].label.clone()),
            Ok(n) => Err(format!(
                "there is no move {n}; the moves are numbered 1 to {}",
                options.len()
            )),
            Err(_) if hash => Err(format!("`{typed}` is not a move number")),
            Err(_) => Ok(typed.to_string()),
        }
    }
}
