//! Imagined games: the game as one seat might imagine it, drawn only from what that seat has
//! seen, for bots that search.
//!
//! An imagined game is the real game played again from its start ([`super::trail`]) with what
//! the seat could not see drawn afresh, the way it came about: a die rolled again from its
//! die, a `random` pick made again, another seat's secret choice asked again of a model of that
//! seat (uniform over its options), a shuffle of cards dealt again among the cards the seat
//! cannot account for. It is kept only if, pause by pause, it shows the seat what the real game
//! showed it ([`super::observe`]): the same view, the same log lines, the same prompts and
//! options. So public facts that derive from secrets (a clue, a count, a refusal) constrain it
//! with no help from the rules' author, and it is never an impossible game: it is a game the
//! rules played.
//!
//! Drawing afresh and keeping what agrees would take forever where the seat saw a lot (every
//! die of a public roll, a first player picked at random and named), so each die and
//! `random` pick of the real game is first tried in place of every other face it could have
//! shown (`real.rs`): a draw whose every other face the seat would
//! have noticed, in a part of what it sees that no other draw of its stretch touches, is known
//! to the seat, and an imagined game takes the faces the seat could not tell apart from the
//! real one. Cards dealt by a shuffle are dealt as in the real game, with the cards the seat
//! cannot account for (never seen since they were last shuffled) relabelled among themselves;
//! once a world of the seat has failed to agree, those cards are dealt as a matching of
//! positions to the cards each may hold, found by swapping every two cards and following the
//! swap beside the real game (`real.rs`), so that a card a clue named is dealt where it fits.
//!
//! A seat's worlds are drawn together, as a weighted population advanced stretch by stretch
//! (`population.rs`): each world weighs what the rules make of it divided by how likely it was
//! to be drawn, so later evidence weighs the earlier stretches as the exact posterior does. The
//! population is kept from one decision to the seat's next and played on through the moves
//! since; a world's cost is that of the moves since, not of the whole game.
//!
//! Bounded: where no world of the population agrees, each world is built on its own
//! (`world.rs`): a stretch that disagrees is drawn again a few times
//! ([`RETRIES`]), a whole game a few times ([`ATTEMPTS`]); past that, the game is imagined
//! without agreeing with everything the seat saw from that point on (counted as a fallback in
//! [`ImaginationStats`]), never from the real hidden state.

mod population;
mod real;
mod world;

use super::replay::{Drawn, Proposal};
use super::{Game, Rng, Step};
use crate::ir::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Times a stretch of an imagined game between two pauses is drawn again before the attempt is
/// given up.
pub const RETRIES: u32 = 64;

/// Tries of a stretch's chance for each choice of its move.
pub const DRAW_TRIES: u32 = 8;

/// Worlds of one decision that in a row find no agreement before the rest are not sought.
pub const GIVE_UP_AFTER: u32 = 2;

/// Attempts at a whole imagined game before it is built without agreeing everywhere.
pub const ATTEMPTS: u32 = 8;

/// Stretches run in one attempt besides three for every pause of the game (one to pass it, two
/// to draw again): where it runs out, the attempt is given up.
pub const STRETCH_BUDGET: u64 = 256;

/// How imagining went, over every game a seat imagined: what `meeple sim` reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ImaginationStats {
    /// Imagined games asked for.
    pub worlds: u64,
    /// Of those, games that could not be made to agree with everything the seat saw.
    pub fallbacks: u64,
    /// Stretches between pauses drawn again because the seat would have seen otherwise.
    pub retries: u64,
    /// Whole attempts given up.
    pub restarts: u64,
    /// Real stretches replayed to find what the seat saw (and each draw's other faces).
    pub replays: u64,
    /// Times the population of a decision no longer agreed anywhere and was drawn again from
    /// the start.
    pub regrown: u64,
    /// Imagined games that agree with everything the seat saw but were found by drawing again
    /// the stretch before where one disagreed (the population's fallback), so weighed only
    /// roughly.
    pub approximate: u64,
}

impl ImaginationStats {
    /// Adds another seat's or game's counts.
    pub fn add(&mut self, other: &ImaginationStats) {
        self.worlds += other.worlds;
        self.fallbacks += other.fallbacks;
        self.retries += other.retries;
        self.restarts += other.restarts;
        self.replays += other.replays;
        self.regrown += other.regrown;
        self.approximate += other.approximate;
    }
}

/// One pause of the real game, as the seat saw it.
#[derive(Debug, Clone)]
struct Pause {
    /// The real game played again to this pause, with what the seat read on the way: an
    /// imagined game must look the same to the seat here.
    game: Game,
    /// The move taken there, as the seat read it: the mover and the move's key (the seat's own
    /// move) or public key (another's). `None` at the last pause.
    step: Option<(u8, u64)>,
    /// True if the seat read that move only in part (another seat's secret): an imagined game
    /// chooses it among the moves that read the same. Decided by what the seat knows, never by
    /// how many options the mover really had.
    partial: bool,
    /// The draws of chance in the stretch that led here.
    drawn: Vec<Drawn>,
    /// What each of those draws takes in an imagined game.
    proposals: Vec<Proposal>,
    /// The move taken here, whole, once the seat has ruled out every other that read the same.
    known: Option<u64>,
}

/// Something of the real game the seat did not see whole: a die rolled, or another seat's move
/// read only in part.
#[derive(Debug, Clone)]
struct Event {
    /// The pause its stretch led to (a die), or the pause it was taken at (a move).
    pause: usize,
    kind: EventKind,
    /// The alternatives ruled out so far (a die's face; a move's key, cut to 32 bits), each with
    /// where the seat would have seen it: the places (pause, component) that differed.
    ruled_out: Vec<(u32, Vec<(usize, u64)>)>,
}

#[derive(Debug, Clone, Copy)]
enum EventKind {
    /// Draw `draw` of its stretch, a die showing face `face` of `faces`, or a `random` pick
    /// of value `face` of `faces`.
    Die { draw: usize, face: u32, faces: u32 },
    /// A move, with its whole key and how many other moves of the real game read the same.
    Move { whole: u64, alternatives: usize },
    /// Draw `draw` of its stretch, a shuffle of plain values: alternative `k` swaps the
    /// values of the `k`-th pair of [`real::swaps`].
    Shuffle { draw: usize },
    /// Draw `draw` of its stretch, a shuffle of cards: alternative `k` swaps the cards of the
    /// `k`-th pair of [`Imagination::deal_pairs`]; `complete` if every pair that reads
    /// differently is followed.
    Deal { draw: usize, complete: bool },
}

/// What one seat has seen of one game, and the games it imagines from it. A bot keeps one for
/// the whole game: each decision replays only the moves made since the last.
pub struct Imagination {
    seat: u8,
    rng: Rng,
    /// The real game played again from its root, at the last pause noted.
    real: Option<Game>,
    /// Which trail it follows: its root's address, and the moves replayed.
    root: usize,
    steps: Vec<Step>,
    /// True if the trail's root was set by hand: its hidden values are redealt.
    edited: bool,
    pauses: Vec<Pause>,
    /// The hidden events of the real game, and the shadows following their alternatives.
    events: Vec<Event>,
    shadows: Vec<real::Shadow>,
    /// Every shuffle of cards in the real game, in order, with the cards the seat has seen since
    /// (accounted for: an imagined game deals them where the real one did); and for every card,
    /// its latest shuffle.
    deals: Vec<BTreeSet<Value>>,
    latest: BTreeMap<Value, usize>,
    /// True once a world of this seat failed to agree: from then on the swaps of every shuffle
    /// of cards are followed, and its cards dealt as a matching.
    follow_deals: bool,
    /// For each shuffle of cards followed, its event and the pairs of positions swapped.
    deal_pairs: Vec<(usize, Vec<(u32, u32)>)>,
    /// The worlds of the last decision, weighed ([`population`]): the next decision plays
    /// them on.
    population: Option<population::Population>,
    stats: ImaginationStats,
}

impl Imagination {
    /// Imagination for `seat`, its choices drawn from `seed` (a bot's own stream).
    pub fn new(seat: u8, seed: u64) -> Imagination {
        Imagination {
            seat,
            rng: Rng::new(seed, 3000 + u64::from(seat)),
            real: None,
            root: 0,
            steps: Vec::new(),
            edited: false,
            pauses: Vec::new(),
            events: Vec::new(),
            shadows: Vec::new(),
            deals: Vec::new(),
            latest: BTreeMap::new(),
            follow_deals: false,
            deal_pairs: Vec::new(),
            population: None,
            stats: ImaginationStats::default(),
        }
    }

    /// The seat it imagines for.
    pub fn seat(&self) -> u8 {
        self.seat
    }

    /// How imagining has gone so far.
    pub fn stats(&self) -> ImaginationStats {
        self.stats
    }

    /// `count` games as the seat might imagine `game` (the real game, at a pause), each
    /// standing where `game` stands and ready to be played on ([`Game::imagined_into`] copies
    /// one with chance of its own). Without a trail (a game not started with
    /// [`super::Mode::trail`]) they redeal what the seat cannot see in the present position
    /// alone ([`Game::determinize`]), which knows nothing of the past.
    pub fn worlds(&mut self, game: &Game, count: usize) -> Vec<Game> {
        let mut traced = self.catch_up(game);
        if traced {
            if let Some(worlds) = self.drawn_by_population(game, count) {
                self.stats.worlds += count as u64;
                return worlds;
            }
        }
        // No world of the population agrees: each is built on its own, drawing again the
        // stretch before where one disagrees. Two worlds in a row that found no agreement
        // within the budget: the others of this decision would spend it in vain too, and go
        // straight to the fallback (the present position redealt).
        let mut misses = 0;
        let mut worlds = Vec::with_capacity(count);
        let mut agreeing = Vec::new();
        for _ in 0..count {
            self.stats.worlds += 1;
            let fallbacks = self.stats.fallbacks;
            let world = if traced && misses < GIVE_UP_AFTER {
                self.build(game)
            } else {
                None
            };
            // A world built leniently is a miss too (`build` counted it a fallback).
            let agreed = world.is_some() && self.stats.fallbacks == fallbacks;
            misses = if agreed { 0 } else { misses + 1 };
            if agreed {
                self.stats.approximate += 1;
                agreeing.extend(world.clone());
            }
            worlds.push(match world {
                Some(mut w) => {
                    w.future(0);
                    w
                }
                None => {
                    self.stats.fallbacks += 1;
                    let seed = self.rng.below(u64::MAX);
                    game.determinize(self.seat, seed)
                }
            });
            // The first world that fails to agree: from now on the seat's shuffles of cards
            // are followed swap by swap (the real game replayed again at once), so that their
            // cards are dealt where what the seat saw allows them. Only then, as it costs a
            // shadow game per swap.
            if traced && !agreed && !self.follow_deals {
                self.follow_deals = true;
                self.real = None;
                self.population = None;
                traced = self.catch_up(game);
                misses = 0;
            }
        }
        // The worlds that agree are played on at the next decision, as a population would be.
        if traced && !agreeing.is_empty() {
            self.population = Some(population::Population::alike(agreeing, self.pauses.len()));
        }
        worlds
    }
}

impl Game {
    /// This imagined game, ready to be played on: nothing noted, chance from `seed`.
    fn future(&mut self, seed: u64) {
        self.replay = None;
        self.fixed = None;
        self.trail = None;
        self.rng = Rng::new(seed, u64::MAX);
        self.mode = super::Mode::playout();
    }

    /// Copies this imagined game into `copy` (a game kept from an earlier call, whose buffers
    /// it reuses), with chance from here on drawn from `seed`: one iteration of a search.
    pub fn imagined_into(&self, seed: u64, copy: &mut Game) {
        copy.clone_from(self);
        copy.future(seed);
    }

    /// This imagined game with chance from here on drawn from `seed`.
    pub fn imagined(&self, seed: u64) -> Game {
        let mut copy = self.clone();
        copy.future(seed);
        copy
    }
}
