//! A seat's worlds as a weighted population, carried from pause to pause (sequential
//! importance resampling, a particle filter), so that they come out in the proportions of the
//! exact posterior.
//!
//! Each world is the real trail played again with what the seat could not see drawn afresh.
//! Drawn that way, a world is not as likely as the rules make it: another seat's secret move is
//! taken among the `c` of its `n` options that read the same to the seat, where the model of that
//! seat takes each of the `n` alike, and a die among the faces the seat could not tell apart,
//! where the die shows every face alike. So each world carries a weight, the product over its
//! stretches of `c / n` for each secret move of another seat and `k / n` for each draw among `k`
//! of `n` faces: what the rules make of the world divided by how likely it was to be drawn. A
//! move the seat saw whole weighs 1 (it was possible; how likely, among options the seat cannot
//! count, is not read from a model of players who may not be random). A world the seat would
//! have seen otherwise weighs nothing.
//!
//! The population is advanced one stretch (from one pause to the next) at a time: a stretch
//! whose draws and moves are all known to the seat is played in each world in place, its weight
//! multiplied; a stretch with something hidden draws each new world from a parent picked in
//! proportion to its weight, played on once, kept if it agrees. That conditions every earlier
//! stretch on later evidence by how likely the evidence made it, where drawing again only the
//! stretch that disagreed (the fallback, `world.rs`) does not: with one skull among four discs,
//! a skull seen later makes a disc placed before it a skull twice as often as a rose, not as
//! often.
//!
//! Bounded: a stretch with something hidden is tried at most [`DRAW_TRIES`] times a world; a
//! population in which fewer than half the worlds agree is drawn again from the start once, and
//! after that the worlds of the decision come from the fallback.

use super::{Imagination, DRAW_TRIES};
use crate::engine::replay::{Drawn, Proposal};
use crate::engine::{Game, Rng};

/// The worlds of one seat standing at one pause, each with its weight (the largest 1).
#[derive(Debug, Clone)]
pub(super) struct Population {
    worlds: Vec<Game>,
    weights: Vec<f64>,
    /// How many pauses of the real game every world has passed.
    reached: usize,
}

impl Population {
    /// A population of worlds built another way (by the fallback), each weighing the same.
    pub(super) fn alike(worlds: Vec<Game>, reached: usize) -> Population {
        Population {
            weights: vec![1.0; worlds.len()],
            worlds,
            reached,
        }
    }

    /// Scales the weights so that the largest is 1: long games multiply many small factors.
    fn normalize(&mut self) {
        let top = self.weights.iter().copied().fold(0.0, f64::max);
        if top > 0.0 {
            self.weights.iter_mut().for_each(|w| *w /= top);
        }
    }
}

impl Imagination {
    /// `count` worlds standing at the real game's last pause, drawn from the population: the
    /// last decision's played on, or, where none of those agrees any more (or there were none),
    /// a population drawn from the start. `None` if neither finds a world that agrees.
    pub(super) fn drawn_by_population(&mut self, game: &Game, count: usize) -> Option<Vec<Game>> {
        let size = count.max(1);
        let kept = self
            .population
            .take()
            .filter(|p| p.reached < self.pauses.len());
        let advanced = match kept {
            Some(p) => {
                let advanced = self.advance(p, size);
                if advanced.is_none() {
                    self.stats.regrown += 1;
                }
                advanced
            }
            None => None,
        };
        let population = match advanced {
            Some(p) => p,
            None => {
                let start = self.start(game, size)?;
                self.advance(start, size)?
            }
        };
        let worlds = self.resample(&population, count);
        self.population = Some(population);
        Some(worlds)
    }

    /// `size` worlds at the trail's root, before its first stretch.
    fn start(&mut self, game: &Game, size: usize) -> Option<Population> {
        let worlds = (0..size)
            .map(|_| self.at_root(game))
            .collect::<Option<Vec<Game>>>()?;
        Some(Population::alike(worlds, 0))
    }

    /// The population played on to the last pause; `None` where at some stretch no world agrees.
    fn advance(&mut self, mut population: Population, size: usize) -> Option<Population> {
        let mut differences = Vec::new();
        while population.reached < self.pauses.len() {
            let k = population.reached;
            if self.hidden_in(k) {
                let mut next = Population::alike(Vec::with_capacity(size), k + 1);
                // Each world first draws as many children as its weight gives it (systematic:
                // worlds of equal weight one each, so that nothing is lost when nothing
                // disagrees); a child that disagrees is replaced by one of a parent picked at
                // random by weight.
                let mut first = self.systematic(&population.weights, size).into_iter();
                let mut tries = size * DRAW_TRIES as usize;
                while next.worlds.len() < size && tries > 0 {
                    tries -= 1;
                    let parent = match first.next() {
                        Some(p) => p,
                        None => self.pick(&population.weights),
                    };
                    let mut child = population.worlds[parent].clone();
                    // Chance of its own: a copy of its parent would draw the same again.
                    let seed = self.rng.below(u64::MAX);
                    child.replay.as_mut()?.chance.fresh = Some(Rng::new(seed, 7));
                    match self.extend(&mut child, k, &mut differences) {
                        Some(w) => {
                            next.worlds.push(child);
                            next.weights.push(w);
                        }
                        None => self.stats.retries += 1,
                    }
                }
                population = next;
            } else {
                let mut i = 0;
                while i < population.worlds.len() {
                    match self.extend(&mut population.worlds[i], k, &mut differences) {
                        Some(w) => {
                            population.weights[i] *= w;
                            i += 1;
                        }
                        None => {
                            population.worlds.swap_remove(i);
                            population.weights.swap_remove(i);
                        }
                    }
                }
                population.reached += 1;
            }
            // Fewer than half left: the rest would be copies of a few, and a search on copies
            // dwells on what those few hold (in Hanabi, one hand for the seat's own cards, after
            // a clue). The worlds are drawn again instead.
            if population.worlds.len() * 2 < size {
                return None;
            }
            population.normalize();
        }
        Some(population)
    }

    /// True if stretch `k` holds something the seat did not see whole: a move of another seat
    /// read in part, or a draw of chance with more than one outcome.
    pub(super) fn hidden_in(&self, k: usize) -> bool {
        self.chooses_in(k) || self.draws_in(k)
    }

    /// True if stretch `k` starts with another seat's move the seat read only in part and has
    /// not learned whole since: a world chooses it among the moves that read the same.
    pub(super) fn chooses_in(&self, k: usize) -> bool {
        k > 0 && self.pauses[k - 1].partial && self.pauses[k - 1].known.is_none()
    }

    /// True if a draw of chance in stretch `k` may come out more than one way.
    pub(super) fn draws_in(&self, k: usize) -> bool {
        self.pauses[k].proposals.iter().any(|p| match p {
            Proposal::Among(xs) => xs.len() > 1,
            Proposal::Deal { hidden, .. } => hidden.len() > 1,
            Proposal::Positions { hidden, .. } => hidden.len() > 1,
            _ => true,
        })
    }

    /// Plays stretch `k` in `g` (the setup for the first; else the move taken at pause `k - 1`
    /// and what follows it), drawing what the seat did not see as proposed: the weight this
    /// stretch gives the world, or `None` if the seat would have seen otherwise at pause `k`.
    fn extend(&mut self, g: &mut Game, k: usize, differences: &mut Vec<u64>) -> Option<f64> {
        {
            let chance = &mut g.replay.as_mut()?.chance;
            chance.drawn.clear();
            chance.proposals = self.pauses[k].proposals.clone();
        }
        let mut weight = 1.0;
        let ran = match k
            .checked_sub(1)
            .and_then(|at| Some((at, self.pauses[at].step?)))
        {
            None => g.run().is_ok(),
            Some((at, (mover, _))) => {
                let alike = self.candidates(g, at);
                if alike.is_empty() {
                    return None;
                }
                // The seat's own moves are its own: they tell nothing of the world. Another
                // seat's move made in secret is weighed by the model of that seat (uniform):
                // `c` of its `n` options read as the seat read it. A move the seat saw whole
                // tells only that it was possible: weighed `1 / n`, a world where the mover had
                // fewer options would be likelier, which misreads players who are not random
                // (a clue in Hanabi would say the clued hand has few colours).
                if mover != self.seat && self.pauses[at].partial {
                    weight = alike.len() as f64 / g.option_count(mover) as f64;
                }
                let index = alike[self.rng.index(alike.len())];
                g.play(mover, index).is_ok()
            }
        };
        if !ran {
            return None;
        }
        g.seen_differences(&self.pauses[k].game, self.seat, false, differences);
        if !differences.is_empty() {
            return None;
        }
        g.clear_read();
        Some(weight * chance_weight(g))
    }

    /// An index into `weights`, each as likely as its weight.
    fn pick(&mut self, weights: &[f64]) -> usize {
        let total: f64 = weights.iter().sum();
        let mut x = self.unit() * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        weights.len() - 1
    }

    /// `count` worlds of `population`, each as often as its weight makes it on average,
    /// ready to be played on.
    fn resample(&mut self, population: &Population, count: usize) -> Vec<Game> {
        self.systematic(&population.weights, count)
            .into_iter()
            .map(|i| {
                let mut w = population.worlds[i].clone();
                w.future(0);
                w
            })
            .collect()
    }

    /// `count` indices into `weights` (not empty), each index as often as its share of the
    /// total weight says, give or take one (systematic resampling: one uniform number,
    /// `count` evenly spaced points), in order.
    fn systematic(&mut self, weights: &[f64], count: usize) -> Vec<usize> {
        let total: f64 = weights.iter().sum();
        let step = total / count.max(1) as f64;
        let mut at = self.unit() * step;
        let mut picks = Vec::with_capacity(count);
        let mut i = 0;
        let mut below = weights.first().copied().unwrap_or(0.0);
        while picks.len() < count {
            while at >= below && i + 1 < weights.len() {
                i += 1;
                below += weights[i];
            }
            picks.push(i);
            at += step;
        }
        picks
    }

    /// A uniform number in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.rng.below(u64::MAX) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The weight the draws of the stretch just run give its world: `k / n` for a draw made among `k`
/// of its `n` outcomes (each of which the rules make as likely as any of the `n`), 1 for a draw
/// made as the rules make it.
fn chance_weight(g: &Game) -> f64 {
    let Some(replay) = g.replay.as_ref() else {
        return 1.0;
    };
    let chance = &replay.chance;
    let mut weight = 1.0;
    for (i, drawn) in chance.drawn.iter().enumerate() {
        let Some(Proposal::Among(xs)) = chance.proposals.get(i) else {
            continue;
        };
        let n = match drawn {
            Drawn::Roll { die, .. } => g.program().dice[*die as usize].faces.len(),
            Drawn::Pick { of, .. } => *of as usize,
            Drawn::Shuffle { .. } => continue,
        };
        let k = xs.iter().filter(|&&x| (x as usize) < n).count();
        // None in range: the draw was made among all `n`, as the rules make it.
        if k > 0 && n > 0 {
            weight *= k as f64 / n as f64;
        }
    }
    weight
}
