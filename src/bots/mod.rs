//! Bots: players run by the program. A bot sees only its own view and its own options.
//!
//! Two interfaces: [`Bot`] decides from a rendered [`BotView`] (the REPL, transcripts), and
//! [`Policy`] decides on the fast path from the game itself (simulations, playouts).

mod greedy;
mod mcts;
mod spec;
mod value;

pub use greedy::GreedyBot;
pub use mcts::{MctsBot, MctsConfig, DEFAULT_WORLDS};
pub use spec::{BotKind, BotSpec, BotSpecError, DEFAULT_MCTS_ITERATIONS};

use crate::engine::{Game, ImaginationStats, MoveOption, Rng, Viewer};

/// What a bot is shown when it must decide: nothing its seat could not see. Text is rendered
/// only when a bot asks for it, since no bot here reads labels and a decision may have
/// thousands of options (`choose n from 1..100000`).
pub struct BotView<'a> {
    /// The bot's seat, 0-based.
    pub seat: u8,
    /// How many legal options it has; it answers with an index below this.
    pub count: usize,
    game: &'a Game,
}

impl BotView<'_> {
    /// The question put to it.
    pub fn prompt(&self) -> Option<String> {
        self.game.prompt(self.seat)
    }

    /// Its legal options, labelled (`count` of them).
    pub fn options(&self) -> Vec<MoveOption> {
        self.game.options(self.seat)
    }

    /// The game as the bot's seat sees it (rendered on demand: random bots never look).
    pub fn view(&self) -> String {
        self.game.view(Viewer::Player(self.seat))
    }

    /// The log lines the bot's seat may read.
    pub fn log(&self) -> Vec<String> {
        self.game.log(Viewer::Player(self.seat))
    }
}

/// A player run by the program.
pub trait Bot {
    /// Picks one of the `view.count` options by index.
    fn choose(&mut self, view: &BotView) -> usize;
}

/// Picks uniformly at random, from its own seeded stream.
pub struct RandomBot {
    rng: Rng,
}

impl RandomBot {
    /// A random bot for a seat; its choices follow from the game's seed.
    pub fn new(seed: u64, seat: u8) -> RandomBot {
        RandomBot {
            rng: Rng::new(seed, 1 + seat as u64),
        }
    }
}

impl RandomBot {
    /// Picks one of `count` options: the fast path, which needs no view.
    pub fn pick(&mut self, count: usize) -> usize {
        self.rng.index(count)
    }
}

impl Bot for RandomBot {
    fn choose(&mut self, view: &BotView) -> usize {
        self.pick(view.count)
    }
}

/// A bot for the fast path: it decides for `seat` from the game itself, without rendered text.
///
/// An implementation must use only what `seat` may know: the number of options, the kind and
/// place of the decision, its own options' actions and labels, and the game as `seat` sees it
/// (`Game::view` for that seat). A search bot must not read other seats' hidden state.
pub trait Policy {
    /// Picks one of `game.option_count(seat)` options by index; `seat` is deciding now.
    fn decide(&mut self, game: &Game, seat: u8) -> usize;

    /// How imagining the game from its seat's view has gone (nothing for a bot that does not
    /// imagine): `meeple sim` reports how often an imagined game could not agree with all the
    /// seat saw.
    fn imagination(&self) -> ImaginationStats {
        ImaginationStats::default()
    }
}

impl Policy for RandomBot {
    fn decide(&mut self, game: &Game, seat: u8) -> usize {
        self.pick(game.option_count(seat))
    }
}

impl Bot for MctsBot {
    fn choose(&mut self, view: &BotView) -> usize {
        self.decide(view.game, view.seat)
    }
}

impl Bot for GreedyBot {
    fn choose(&mut self, view: &BotView) -> usize {
        self.decide(view.game, view.seat)
    }
}

/// Asks `bot` for `seat`'s decision, showing it only that seat's view.
pub fn ask_bot(game: &Game, seat: u8, bot: &mut dyn Bot) -> Option<usize> {
    let count = game.option_count(seat);
    if count == 0 {
        return None;
    }
    let view = BotView { seat, count, game };
    let i = bot.choose(&view);
    Some(i.min(count - 1))
}
