//! `--bots`: which bot plays which seat, parsed and rendered back.

use super::mcts::DEFAULT_WORLDS;
use super::{Bot, GreedyBot, MctsBot, MctsConfig, Policy, RandomBot};
use std::collections::BTreeMap;
use std::fmt;

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
    /// [`GreedyBot`].
    Greedy,
    /// [`MctsBot`], searching as configured.
    Mcts(MctsConfig),
}

/// Iterations of `mcts` when `--bots` gives none.
pub const DEFAULT_MCTS_ITERATIONS: u32 = 1000;

/// Decisions `mcts` imagines per game when `--bots` gives no depth (`None` would be: to the
/// end). Thirty keeps the strength of playing to the end in the games measured (docs/bots.md)
/// and makes long games several times cheaper.
pub const DEFAULT_MCTS_DEPTH: Option<u32> = Some(30);

/// The bots `--bots` knows, for error messages.
const KNOWN: &str =
    "random, greedy, mcts, mcts:ITERATIONS, mcts:ITERATIONS:depth=D, mcts:depth=D, mcts:worlds=W, \
     mcts:playout=random";

impl BotKind {
    /// `mcts` with `iterations` a decision, imagining games as deep as the default.
    pub fn mcts(iterations: u32) -> BotKind {
        BotKind::Mcts(MctsConfig {
            iterations,
            depth: DEFAULT_MCTS_DEPTH,
            worlds: DEFAULT_WORLDS,
            random_playouts: false,
        })
    }

    fn parse(s: &str) -> Result<BotKind, BotSpecError> {
        let s = s.trim().to_lowercase();
        let mut parts = s.split(':');
        let name = parts.next().unwrap_or_default();
        match name {
            "random" if parts.next().is_none() => Ok(BotKind::Random),
            "greedy" if parts.next().is_none() => Ok(BotKind::Greedy),
            "mcts" => {
                let mut config = MctsConfig {
                    iterations: DEFAULT_MCTS_ITERATIONS,
                    depth: DEFAULT_MCTS_DEPTH,
                    worlds: DEFAULT_WORLDS,
                    random_playouts: false,
                };
                for (i, part) in parts.enumerate() {
                    match part.split_once('=') {
                        None if i == 0 => config.iterations = whole(part, "iterations", &s)?,
                        Some(("depth", "end")) => config.depth = None,
                        Some(("depth", d)) => config.depth = Some(whole(d, "depth", &s)?),
                        Some(("worlds", w)) => config.worlds = whole(w, "worlds", &s)?,
                        Some(("playout", "random")) => config.random_playouts = true,
                        Some(("playout", "goal")) => config.random_playouts = false,
                        _ => {
                            return Err(BotSpecError(format!(
                                "`{s}`: `{part}` is neither the iterations, depth=D, \
                                 worlds=W nor playout=random|goal; the bots are: {KNOWN}"
                            )))
                        }
                    }
                }
                Ok(BotKind::Mcts(config))
            }
            _ => {
                let meant = crate::diag::suggest_name(name, ["random", "greedy", "mcts"])
                    .map(|m| format!(" (did you mean `{m}`?)"))
                    .unwrap_or_default();
                Err(BotSpecError(format!(
                    "unknown bot `{s}`{meant}; the bots are: {KNOWN}"
                )))
            }
        }
    }

    /// The kind's name, as written in `--bots`: the depth only when it is not the default.
    pub fn name(self) -> String {
        match self {
            BotKind::Random => "random".to_string(),
            BotKind::Greedy => "greedy".to_string(),
            BotKind::Mcts(c) => {
                let mut name = format!("mcts:{}", c.iterations);
                match c.depth {
                    d if d == DEFAULT_MCTS_DEPTH => {}
                    Some(d) => name.push_str(&format!(":depth={d}")),
                    None => name.push_str(":depth=end"),
                }
                if c.worlds != DEFAULT_WORLDS {
                    name.push_str(&format!(":worlds={}", c.worlds));
                }
                if c.random_playouts {
                    name.push_str(":playout=random");
                }
                name
            }
        }
    }

    /// True if bots of this kind imagine the game from what their seat saw, so that the game
    /// they play must keep its trail ([`crate::engine::Mode::with_trail`]).
    pub fn imagines(self) -> bool {
        !matches!(self, BotKind::Random)
    }

    /// A fast-path [`Policy`] of this kind for a seat; its choices follow from the seed.
    pub fn policy(self, seed: u64, seat: u8) -> Box<dyn Policy + Send> {
        match self {
            BotKind::Random => Box::new(RandomBot::new(seed, seat)),
            BotKind::Greedy => Box::new(GreedyBot::new(seed, seat)),
            BotKind::Mcts(c) => Box::new(MctsBot::with_config(seed, seat, c)),
        }
    }

    /// A bot of this kind for a seat.
    pub fn make(self, seed: u64, seat: u8) -> Box<dyn Bot> {
        match self {
            BotKind::Random => Box::new(RandomBot::new(seed, seat)),
            BotKind::Greedy => Box::new(GreedyBot::new(seed, seat)),
            BotKind::Mcts(c) => Box::new(MctsBot::with_config(seed, seat, c)),
        }
    }
}

/// A whole number from 1 for `what` in the bot `spec`.
fn whole(n: &str, what: &str, spec: &str) -> Result<u32, BotSpecError> {
    match n.parse::<u32>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(BotSpecError(format!(
            "`{spec}`: the {what} must be a whole number from 1, such as mcts:1000:depth=40"
        ))),
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
        let mut every_seat = None;
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            if part.eq_ignore_ascii_case("none") {
                continue;
            }
            // `=` also sets a bot's option (`mcts:500:depth=40`), after a colon.
            match part.split_once('=').filter(|(seat, _)| !seat.contains(':')) {
                // A second bot for every seat would silently replace the first.
                None if let Some(first) = every_seat => {
                    return Err(BotSpecError(format!(
                        "`{first}` and `{part}` are each a bot for every seat; to give seats \
                         bots of their own, number them: `1={first},2={part}`"
                    )));
                }
                None => {
                    spec.all = Some(BotKind::parse(part)?);
                    every_seat = Some(part);
                }
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
                    let kind = BotKind::parse(kind)?;
                    if spec.seats.insert(n - 1, kind).is_some() {
                        return Err(BotSpecError(format!("seat {n} is given two bots")));
                    }
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
        for text in [
            "random",
            "2=random,4=mcts:5",
            "mcts:7,1=random",
            "none",
            "greedy,1=mcts:9",
            "mcts:30:depth=8",
            "mcts:30:depth=end",
        ] {
            let spec = BotSpec::parse(text).unwrap();
            assert_eq!(spec.render(), text);
            assert_eq!(BotSpec::parse(&spec.render()).unwrap(), spec);
        }
        assert_eq!(BotSpec::parse("none").unwrap(), BotSpec::default());
    }

    #[test]
    fn a_bot_given_twice_is_refused_not_replaced() {
        // Once: `greedy,random` played random in every seat, and said so only in the report.
        let e = BotSpec::parse("greedy,random").unwrap_err().to_string();
        assert!(e.contains("`1=greedy,2=random`"), "{e}");
        let e = BotSpec::parse("mcts:5:depth=3, 2=random, greedy")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`1=mcts:5:depth=3,2=greedy`"), "{e}");
        let e = BotSpec::parse("1=random,p1=greedy")
            .unwrap_err()
            .to_string();
        assert!(e.contains("seat 1 is given two bots"), "{e}");
        assert!(BotSpec::parse("random,1=greedy,2=mcts").is_ok());
    }

    #[test]
    fn a_misspelt_bot_gets_a_suggestion() {
        let e = BotSpec::parse("1=mtcs").unwrap_err().to_string();
        assert!(e.contains("did you mean `mcts`?"), "{e}");
        let e = BotSpec::parse("genius").unwrap_err().to_string();
        assert!(!e.contains("did you mean"), "{e}");
    }
}
