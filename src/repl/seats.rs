//! Who plays each seat: a person at the device or a bot, and keeping bots in step when a game is
//! rebuilt from its decisions.

use crate::bots::{ask_bot, Bot, BotSpec};
use crate::engine::{Game, Record};

/// The bots at the table: one slot a seat, `None` for a person.
pub struct Seats {
    bots: Vec<Option<Box<dyn Bot>>>,
}

impl Seats {
    /// Fresh bots for the seats `spec` names, their streams drawn from `seed`.
    pub fn new(spec: &BotSpec, seed: u64, players: u8) -> Seats {
        Seats {
            bots: (0..players)
                .map(|p| spec.for_seat(p).map(|kind| kind.make(seed, p)))
                .collect(),
        }
    }

    /// True if a bot plays `seat`.
    pub fn is_bot(&self, seat: u8) -> bool {
        matches!(self.bots.get(seat as usize), Some(Some(_)))
    }

    /// True if bots play every seat.
    pub fn all_bots(&self) -> bool {
        self.bots.iter().all(Option::is_some)
    }

    /// Asks `seat`'s bot for its choice now; `None` for a person's seat or no options.
    pub fn ask(&mut self, game: &Game, seat: u8) -> Option<usize> {
        let bot = self.bots.get_mut(seat as usize)?.as_mut()?;
        ask_bot(game, seat, bot.as_mut())
    }

    /// Called ahead of each replayed decision: a bot's seat is asked again, so that its own
    /// random stream is where it would be had the game been played, and the answer is dropped.
    pub fn keep_in_step(&mut self, game: &Game, record: &Record) {
        let _ = self.ask(game, record.player);
    }

    /// Every seat's bot, when bots play them all.
    pub fn into_all(self) -> Option<Vec<Box<dyn Bot>>> {
        self.bots.into_iter().collect()
    }
}
