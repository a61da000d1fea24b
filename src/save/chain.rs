//! The chain of state hashes in a save (format 2): the referee's seal on the record.
//!
//! Link 0 is the hash of the game's title, player count, seed and the position after the setup;
//! link i is the hash of link i-1, decision i (seat and move) and the position after it. A
//! position is [`Game::canonical_since`] the previous link: every value, secrets included, how
//! far chance was drawn, the log lines written since the previous link, who decides and their
//! options (earlier decisions and log lines are in the earlier links, which each link hashes in
//! turn). The hash is 64-bit FNV-1a, written here so that no crate update can change it; links
//! are stored as 16 lowercase hex digits.
//!
//! Saves made before this chain (version 2) hashed the whole position, every log line and
//! decision included, at every link, which made a save of a long game take time that grew with
//! the square of its length; they are still checked their way ([`Chain::start_whole`]).
//!
//! The chain finds edits, not forgers: anyone with meeple can make a consistent save of another
//! game. The canonical text is tied to the version of meeple, so a save made by another version
//! may not match.

use super::{replay_onto, ReplayError};
use crate::engine::GameSettings;
use crate::engine::{Game, LogCursor, Record};
use crate::ir::Program;
use std::sync::Arc;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// 64-bit FNV-1a of some bytes, continuing from `hash`.
fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(FNV_PRIME);
    }
    hash
}

/// The hash of a text (a rules file), as a save keeps it: 16 lowercase hex digits.
pub fn text_hash(text: &str) -> String {
    hex(fnv1a(FNV_OFFSET, text.as_bytes()))
}

/// A link as stored: 16 lowercase hex digits.
pub fn hex(link: u64) -> String {
    format!("{link:016x}")
}

/// A chain being built or checked, one decision at a time: its last link, and where the log
/// stood at it.
#[derive(Debug, Clone, Copy)]
pub struct Chain {
    /// The last link.
    pub link: u64,
    logged: LogCursor,
    /// A chain of saves made before version 2 of the chain, which hashed the whole position,
    /// log and decisions included, at every link: still read, never written.
    whole: bool,
}

impl Chain {
    /// Link 0: the game as set up.
    pub fn start(game: &Game) -> Chain {
        Chain::start_as(game, false)
    }

    /// Link 0 as saves made before version 2 of the chain have it (each later link hashes the
    /// whole position): to check those saves, never to write one.
    pub fn start_whole(game: &Game) -> Chain {
        Chain::start_as(game, true)
    }

    fn start_as(game: &Game, whole: bool) -> Chain {
        let head = format!(
            "meeple-chain/{}\n{}\n{} players\nseed {}\n",
            if whole { 1 } else { 2 },
            game.program().title,
            game.players(),
            game.seed()
        );
        let h = fnv1a(FNV_OFFSET, head.as_bytes());
        let mut chain = Chain {
            link: 0,
            logged: LogCursor::default(),
            whole,
        };
        chain.link = fnv1a(h, chain.position(game).as_bytes());
        chain.logged = game.log_end();
        chain
    }

    /// What a link hashes of the position.
    fn position(&self, game: &Game) -> String {
        if self.whole {
            game.canonical()
        } else {
            game.canonical_since(self.logged)
        }
    }

    /// The link after the decision just taken in `game`, which follows the last link.
    pub fn next(&mut self, game: &Game) -> u64 {
        let decision = match game.history().last() {
            Some(r) => format!("{}\n{}\n", game.seat_name(r.player), r.choice),
            None => "\n\n".to_string(),
        };
        let mut h = fnv1a(FNV_OFFSET, hex(self.link).as_bytes());
        h = fnv1a(h, b"\n");
        h = fnv1a(h, decision.as_bytes());
        self.link = fnv1a(h, self.position(game).as_bytes());
        self.logged = game.log_end();
        self.link
    }
}

/// Every link of a game's record: link 0, then one a decision, found by replaying them on a
/// game started with `settings`.
pub fn links(
    program: Arc<Program>,
    settings: &GameSettings,
    decisions: &[Record],
) -> Result<Vec<u64>, ReplayError> {
    let game = settings.start(program).map_err(ReplayError::Start)?;
    let mut out = Vec::with_capacity(decisions.len() + 1);
    let mut chain = Chain::start(&game);
    out.push(chain.link);
    let mut hook = |_: &Game, _: &Record| {};
    let mut game = game;
    for (i, r) in decisions.iter().enumerate() {
        game = replay_onto(game, std::slice::from_ref(r), &mut hook).map_err(|e| match e {
            ReplayError::Decision { error, .. } => ReplayError::Decision {
                number: i + 1,
                error,
            },
            other => other,
        })?;
        out.push(chain.next(&game));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_is_the_published_function() {
        // Test vectors of FNV-1a 64.
        assert_eq!(fnv1a(FNV_OFFSET, b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(FNV_OFFSET, b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(FNV_OFFSET, b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(hex(255), "00000000000000ff");
    }
}
