//! Building one imagined game: the real trail played again from its root, what the seat could
//! not see drawn afresh, each stretch kept only if the seat would have seen at its end what it
//! saw in the real game.

use super::{Imagination, ATTEMPTS, DRAW_TRIES, RETRIES, STRETCH_BUDGET};
use crate::engine::replay::{Proposal, Replay};
use crate::engine::{Game, Mode, Rng};

/// A stretch of an imagined game that could have gone otherwise: where it starts, the game
/// before it, and its tries.
struct Stretch {
    at: usize,
    before: Game,
    tried: u32,
    allowed: u32,
    /// The candidates for its move, in the order they are tried.
    order: Vec<u32>,
}

impl Imagination {
    /// One imagined game standing at the real game's last pause, agreeing with everything the
    /// seat saw; after [`ATTEMPTS`] failed attempts, one that agrees as far as it could (a
    /// fallback, counted). `None` if even that went astray. The population's fallback: its
    /// worlds agree, but where later evidence is met by drawing an earlier stretch again, they
    /// are not weighed by how likely that evidence was.
    pub(super) fn build(&mut self, game: &Game) -> Option<Game> {
        for _ in 0..ATTEMPTS {
            if let Some(g) = self.attempt(game, false) {
                return Some(g);
            }
            self.stats.restarts += 1;
        }
        self.stats.fallbacks += 1;
        let lenient = self.attempt(game, true);
        if lenient.is_none() {
            // Counted again where the present position is redealt instead.
            self.stats.fallbacks -= 1;
        }
        lenient
    }

    /// A world at the trail's root, before its first stretch, with chance of its own.
    pub(super) fn at_root(&mut self, game: &Game) -> Option<Game> {
        let root = &game.trail.as_ref()?.root;
        let seed = self.rng.below(u64::MAX);
        // A position set by hand has hidden values no rule drew: they are redealt.
        let mut g = if self.edited {
            root.determinize(self.seat, seed)
        } else {
            (**root).clone()
        };
        g.mode = Mode::playout();
        g.fixed = None;
        g.trail = None;
        g.replay = Some(Replay::new(self.seat, Some(Rng::new(seed, 7))));
        Some(g)
    }

    /// One attempt from the trail's root; `lenient` keeps going where the seat would have
    /// seen otherwise.
    fn attempt(&mut self, game: &Game, lenient: bool) -> Option<Game> {
        let mut g = self.at_root(game)?;
        let mut differences = Vec::new();
        // The stretches passed that could have gone otherwise, each with the game before it and
        // its tries: where a stretch disagrees, the latest of them is drawn again (its move
        // choices each tried once, in a random order, its chance a few times each).
        let mut open: Vec<Stretch> = Vec::new();
        // Every stretch run counts, the first pass included.
        let mut budget = STRETCH_BUDGET + 3 * self.pauses.len() as u64;
        let mut k = 0;
        let mut tries = 0;
        while k < self.pauses.len() {
            let chooses = self.chooses_in(k);
            if self.hidden_in(k) && open.last().is_none_or(|s| s.at != k) {
                let candidates = if chooses {
                    self.candidates(&g, k - 1).len()
                } else {
                    1
                };
                let mut order: Vec<u32> = (0..candidates as u32).collect();
                self.rng.shuffle(&mut order);
                // Chance alone may take many tries (a card of nine the seat saw); a choice
                // among moves, each once, with a few draws of its chance.
                let draws = self.draws_in(k);
                let allowed = match (chooses, draws) {
                    (false, _) => RETRIES,
                    (true, false) => candidates as u32,
                    (true, true) => (candidates as u32).saturating_mul(DRAW_TRIES),
                }
                .clamp(1, RETRIES);
                open.push(Stretch {
                    at: k,
                    before: g.clone(),
                    tried: 0,
                    allowed,
                    order,
                });
                tries = 0;
            }
            let proposals = if tries < RETRIES / 2 {
                self.pauses[k].proposals.clone()
            } else {
                afresh(&self.pauses[k].proposals)
            };
            {
                let chance = &mut g.replay.as_mut().expect("a replay").chance;
                chance.drawn.clear();
                chance.proposals = proposals;
            }
            budget = budget.checked_sub(1)?;
            let ran = if k == 0 {
                g.run().is_ok()
            } else {
                let pick = open
                    .last()
                    .filter(|s| s.at == k)
                    .map(|s| s.order[s.tried as usize % s.order.len()] as usize);
                self.take_move(&mut g, k - 1, pick, lenient)
            };
            if ran {
                g.seen_differences(&self.pauses[k].game, self.seat, false, &mut differences);
                // Lenient, a world may disagree on the way, never at the present: it is searched
                // from there, with the options the seat has now.
                if differences.is_empty() || (lenient && k + 1 < self.pauses.len()) {
                    g.clear_read();
                    k += 1;
                    continue;
                }
            }
            self.stats.retries += 1;
            // Draw again the latest stretch with tries left.
            loop {
                let stretch = open.last_mut()?;
                stretch.tried += 1;
                if stretch.tried < stretch.allowed {
                    k = stretch.at;
                    tries = stretch.tried;
                    g = stretch.before.clone();
                    // Chance of its own: the game before would draw the same again.
                    let seed = self.rng.below(u64::MAX);
                    g.replay.as_mut().expect("a replay").chance.fresh = Some(Rng::new(seed, 7));
                    break;
                }
                open.pop();
            }
        }
        Some(g)
    }

    /// The options of `g` that could be the move the real game took at pause `at`, as the seat
    /// read it: its own move exactly, a move it came to know whole exactly, another's any that
    /// reads the same.
    pub(super) fn candidates(&self, g: &Game, at: usize) -> Vec<usize> {
        let Some((mover, key)) = self.pauses[at].step else {
            return Vec::new();
        };
        let n = g.option_count(mover);
        match self.pauses[at].known {
            Some(whole) => (0..n)
                .filter(|&i| g.option_key(mover, i) == Some(whole))
                .collect(),
            None => (0..n)
                .filter(|&i| g.public_key(mover, i, self.seat) == Some(key))
                .collect(),
        }
    }

    /// Takes in `g` the move the real game took at pause `at`: candidate `pick` (in a random
    /// order the caller keeps), or one at random. Leniently, any option of the mover if none
    /// reads the same.
    fn take_move(&mut self, g: &mut Game, at: usize, pick: Option<usize>, lenient: bool) -> bool {
        let Some((mover, _)) = self.pauses[at].step else {
            return false;
        };
        let n = g.option_count(mover);
        let alike = self.candidates(g, at);
        let index = match alike.len() {
            0 if lenient && n > 0 => self.rng.index(n),
            0 => return false,
            k => alike[pick.unwrap_or_else(|| self.rng.index(k)) % k],
        };
        g.play(mover, index).is_ok()
    }
}

/// The proposals of a stretch drawn afresh: each die any face (a shuffle is still dealt as
/// the real one where the cards are the same).
fn afresh(proposals: &[Proposal]) -> Vec<Proposal> {
    proposals
        .iter()
        .map(|p| match p {
            Proposal::Deal { .. } | Proposal::Positions { .. } => p.clone(),
            _ => Proposal::Fresh,
        })
        .collect()
}
