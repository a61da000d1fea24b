//! The JSON document `meeple play --json` prints: the game, its seed, every decision and the
//! outcome, seats named as in the REPL. Keys keep their order; scores are in seat order.

use crate::engine::Game;
use crate::save::{decisions_of, Decision};
use serde::ser::{Serialize, SerializeMap, Serializer};

/// A finished (or stopped) game.
#[derive(serde::Serialize)]
pub(super) struct Report {
    game: String,
    variants: Vec<String>,
    seed: u64,
    players: u8,
    decisions: Vec<Decision>,
    outcome: Option<OutcomeReport>,
}

#[derive(serde::Serialize)]
struct OutcomeReport {
    winners: Vec<String>,
    scores: SeatScores,
    reason: Option<String>,
}

/// Scores by seat name, in seat order.
struct SeatScores(Vec<(String, i64)>);

impl Serialize for SeatScores {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl Report {
    /// The report of a game.
    pub(super) fn of(game: &Game) -> Report {
        let program = game.program();
        Report {
            game: program.title.clone(),
            variants: program.variants.clone(),
            seed: game.seed(),
            players: game.players(),
            decisions: decisions_of(game),
            outcome: game.outcome().map(|o| OutcomeReport {
                winners: o.winners.iter().map(|p| game.seat_name(*p)).collect(),
                scores: SeatScores(
                    o.scores
                        .iter()
                        .enumerate()
                        .map(|(p, s)| (game.seat_name(p as u8), *s))
                        .collect(),
                ),
                reason: o.reason.clone(),
            }),
        }
    }

    /// Pretty JSON ending in a newline.
    pub(super) fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}
