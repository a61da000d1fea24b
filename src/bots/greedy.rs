//! A cheap one-ply bot: it tries each of its options in a few imagined games, plays on at random
//! until its own next decision, scores where that leaves it, and takes the option that scored
//! best on average: by what the position is worth (`value.rs`), then by its margin in points.
//!
//! Every option is tried in the same imagined games (the same redeal and the same chance), so
//! options are compared on equal terms and the bot's choices follow from the seed. Scoring is
//! `value.rs`'s: the rules' `score` by rank, or the outcome when the game ends. Honest as the
//! search bot is: it reads the game only through `Game::determinize` for its own seat.

use super::value::{margin, rewards};
use super::Policy;
use crate::engine::{Game, Imagination, ImaginationStats, Rng};

/// Imagined games in which each option is tried.
const SAMPLES: usize = 8;

/// At most this many decisions a seat are played on after the option, so that a move that
/// hands the turn to others is judged after they have answered.
const REPLIES_PER_SEAT: usize = 2;

/// A bot that takes the option that scores best one move ahead.
pub struct GreedyBot {
    rng: Rng,
    scores: Vec<i64>,
    rewards: Vec<f64>,
    seeds: Vec<u64>,
    /// What the seat has seen of the game, and the games it imagines from it.
    imagination: Option<Imagination>,
}

impl GreedyBot {
    /// A greedy bot for a seat; its choices follow from the game's seed.
    pub fn new(seed: u64, seat: u8) -> GreedyBot {
        GreedyBot {
            rng: Rng::new(seed, 2000 + seat as u64),
            scores: Vec::new(),
            rewards: Vec::new(),
            seeds: Vec::new(),
            imagination: None,
        }
    }

    /// How imagining the game has gone for this bot so far.
    pub fn imagination_stats(&self) -> ImaginationStats {
        self.imagination
            .as_ref()
            .map(Imagination::stats)
            .unwrap_or_default()
    }

    /// What option `index` is worth to `seat` in `world` played on with chance from `seed`,
    /// and the margin by which it leaves the seat ahead.
    fn try_option(&mut self, world: &Game, seat: u8, index: usize, seed: u64) -> (f64, f64) {
        let mut g = world.imagined(seed);
        // The continuation draws from a stream of the imagined game's seed alone, so that
        // every option meets the same replies where the replies are the same.
        let mut replies = Rng::new(seed, 1);
        let mut failed = g.play(seat, index).is_err();
        let mut left = REPLIES_PER_SEAT * world.players() as usize;
        while !failed && left > 0 {
            let Some(p) = g.to_decide() else { break };
            if p == seat {
                break;
            }
            failed = g.play(p, replies.index(g.option_count(p))).is_err();
            left -= 1;
        }
        rewards(&g, failed, &mut self.scores, &mut self.rewards);
        let reward = self.rewards.get(seat as usize).copied().unwrap_or(0.0);
        (reward, margin(&self.scores, seat) as f64)
    }
}

impl Policy for GreedyBot {
    fn decide(&mut self, game: &Game, seat: u8) -> usize {
        let count = game.option_count(seat);
        if count <= 1 {
            return 0;
        }
        let mut seeds = std::mem::take(&mut self.seeds);
        seeds.clear();
        seeds.extend((0..SAMPLES).map(|_| self.rng.below(u64::MAX)));
        // Options are compared by what they are worth and, between equals (often: no option
        // changes who leads yet), by the margin they leave.
        let mut best = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        let mut tied = Vec::new();
        // The same imagined games for every option, so that options meet the same chance.
        let imagination = self
            .imagination
            .get_or_insert_with(|| Imagination::new(seat, self.rng.below(u64::MAX)));
        let worlds = imagination.worlds(game, SAMPLES);
        for index in 0..count {
            let total = seeds
                .iter()
                .zip(&worlds)
                .fold((0.0, 0.0), |(r, m), (&seed, w)| {
                    let (reward, margin) = self.try_option(w, seat, index, seed);
                    (r + reward, m + margin)
                });
            if total > best {
                best = total;
                tied.clear();
            }
            if total == best {
                tied.push(index);
            }
        }
        // Options alike in both are drawn at random, not the first listed every time.
        let choice = tied[self.rng.index(tied.len())];
        self.seeds = seeds;
        choice
    }

    fn imagination(&self) -> ImaginationStats {
        self.imagination_stats()
    }
}
