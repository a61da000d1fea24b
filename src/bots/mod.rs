//! Bots: players run by the program. A bot sees only its own view and its own options.
//!
//! Two interfaces: [`Bot`] decides from a rendered [`BotView`] (the REPL, transcripts), and
//! [`Policy`] decides on the fast path from the game itself (simulations, playouts).

mod mcts;

pub use mcts::MctsBot;

use crate::engine::{Game, MoveOption, Rng, Viewer};
use std::collections::BTreeMap;
use std::fmt;

/// What a bot is shown when it must decide: nothing its seat could not see.
pub struct BotView<'a> {
    /// The bot's seat, 0-based.
    pub seat: u8,
    /// The question put to it.
    pub prompt: Option<String>,
    /// Its legal options.
    pub options: &'a [MoveOption],
    game: &'a Game,
}

impl BotView<'_> {
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
    /// Picks one of `view.options` by index.
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
        self.pick(view.options.len())
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

/// Asks `bot` for `seat`'s decision, showing it only that seat's view.
pub fn ask_bot(game: &Game, seat: u8, bot: &mut dyn Bot) -> Option<usize> {
    let options = game.options(seat);
    if options.is_empty() {
        return None;
    }
    let view = BotView {
        seat,
        prompt: game.prompt(seat),
        options: &options,
        game,
    };
    let i = bot.choose(&view);
    Some(i.min(options.len() - 1))
}

/// Which seats bots play, as given to `--bots`: `random` (every seat) or `2=random,4=random`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BotSpec {
    /// Every seat, when set.
    pub all: Option<BotKind>,
    /// Particular seats, 0-based.
    pub seats: BTreeMap<u8, BotKind>,
}

/// The kinds of bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BotKind {
    /// [`RandomBot`].
    Random,
    /// [`MctsBot`] with this many iterations a decision.
    Mcts(u32),
}

/// Iterations of `mcts` when `--bots` gives none.
pub const DEFAULT_MCTS_ITERATIONS: u32 = 1000;

impl BotKind {
    fn parse(s: &str) -> Result<BotKind, BotSpecError> {
        let s = s.trim().to_lowercase();
        let (name, budget) = match s.split_once(':') {
            Some((name, budget)) => (name, Some(budget)),
            None => (s.as_str(), None),
        };
        match (name, budget) {
            ("random", None) => Ok(BotKind::Random),
            ("mcts", None) => Ok(BotKind::Mcts(DEFAULT_MCTS_ITERATIONS)),
            ("mcts", Some(n)) => match n.parse::<u32>() {
                Ok(n) if n > 0 => Ok(BotKind::Mcts(n)),
                _ => Err(BotSpecError(format!(
                    "`mcts:{n}`: the iterations must be a whole number from 1, such as mcts:1000"
                ))),
            },
            _ => Err(BotSpecError(format!(
                "unknown bot `{s}`; the bots are: random, mcts, mcts:ITERATIONS"
            ))),
        }
    }

    /// The kind's name, as written in `--bots`.
    pub fn name(self) -> String {
        match self {
            BotKind::Random => "random".to_string(),
            BotKind::Mcts(n) => format!("mcts:{n}"),
        }
    }

    /// A fast-path [`Policy`] of this kind for a seat; its choices follow from the seed.
    pub fn policy(self, seed: u64, seat: u8) -> Box<dyn Policy + Send> {
        match self {
            BotKind::Random => Box::new(RandomBot::new(seed, seat)),
            BotKind::Mcts(n) => Box::new(MctsBot::new(seed, seat, n)),
        }
    }

    /// A bot of this kind for a seat.
    pub fn make(self, seed: u64, seat: u8) -> Box<dyn Bot> {
        match self {
            BotKind::Random => Box::new(RandomBot::new(seed, seat)),
            BotKind::Mcts(n) => Box::new(MctsBot::new(seed, seat, n)),
        }
    }
}

/// A `--bots` value that does not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotSpecError(pub String);

impl fmt::Display for BotSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BotSpecError {}

impl BotSpec {
    /// Parses `random` or `2=random,4=random` (seats count from 1); `none`: no bot at all.
    pub fn parse(s: &str) -> Result<BotSpec, BotSpecError> {
        let mut spec = BotSpec::default();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            if part.eq_ignore_ascii_case("none") {
                continue;
            }
            match part.split_once('=') {
                None => spec.all = Some(BotKind::parse(part)?),
                Some((seat, kind)) => {
                    let n: u8 =
                        seat.trim()
                            .trim_start_matches(['P', 'p'])
                            .parse()
                            .map_err(|_| {
                                BotSpecError(format!(
                                    "`{seat}` is not a seat number (seats count from 1)"
                                ))
                            })?;
                    if n == 0 {
                        return Err(BotSpecError("seats count from 1".into()));
                    }
                    spec.seats.insert(n - 1, BotKind::parse(kind)?);
                }
            }
        }
        Ok(spec)
    }

    /// The spec as `--bots` takes it back: `random`, `2=mcts:500,4=random`, `random,2=mcts:10`,
    /// or `none` when no seat has a bot.
    pub fn render(&self) -> String {
        let mut parts: Vec<String> = self.all.iter().map(|k| k.name()).collect();
        parts.extend(
            self.seats
                .iter()
                .map(|(seat, kind)| format!("{}={}", seat + 1, kind.name())),
        );
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join(",")
        }
    }

    /// The bot kind for a seat, if a bot plays it.
    pub fn for_seat(&self, seat: u8) -> Option<BotKind> {
        self.seats.get(&seat).copied().or(self.all)
    }

    /// True if bots play every one of `players` seats.
    pub fn covers_all(&self, players: u8) -> bool {
        (0..players).all(|p| self.for_seat(p).is_some())
    }

    /// The bot kind of every seat of a `players`-seat game, seats the spec leaves out played
    /// by `default`.
    pub fn kinds(&self, players: u8, default: BotKind) -> Vec<BotKind> {
        (0..players)
            .map(|p| self.for_seat(p).unwrap_or(default))
            .collect()
    }

    /// Seats named that the game does not have.
    pub fn check_seats(&self, players: u8) -> Result<(), BotSpecError> {
        match self.seats.keys().find(|s| **s >= players) {
            Some(s) => Err(BotSpecError(format!(
                "seat {} does not exist in a {players}-player game",
                s + 1
            ))),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_and_seats() {
        assert_eq!(BotSpec::parse("random").unwrap().all, Some(BotKind::Random));
        let s = BotSpec::parse("2=random,4=random").unwrap();
        assert_eq!(s.for_seat(1), Some(BotKind::Random));
        assert_eq!(s.for_seat(0), None);
        assert!(!s.covers_all(4));
        assert!(BotSpec::parse("0=random").is_err());
        assert!(BotSpec::parse("x=random").is_err());
        assert!(BotSpec::parse("genius").is_err());
        assert!(s.check_seats(3).is_err());
        assert_eq!(s.kinds(2, BotKind::Random), [BotKind::Random; 2]);
        for text in ["random", "2=random,4=mcts:5", "mcts:7,1=random", "none"] {
            let spec = BotSpec::parse(text).unwrap();
            assert_eq!(spec.render(), text);
            assert_eq!(BotSpec::parse(&spec.render()).unwrap(), spec);
        }
        assert_eq!(BotSpec::parse("none").unwrap(), BotSpec::default());
    }
}
