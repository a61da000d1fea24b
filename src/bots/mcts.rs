//! A search bot: single-observer information-set Monte Carlo tree search (SO-ISMCTS).
//!
//! Each iteration imagines the game as the bot's seat might (`Game::determinize`: what the seat
//! cannot see redealt at random, chance drawn afresh), walks a tree of moves shared by all the
//! imagined games, adds one move, plays on to the end (or, with a depth, until that many
//! decisions have been imagined, the position then scored by the rules' `score`: see
//! `value.rs`), and credits the result to the moves on the way, each for the seat that made it.
//! It plays on at random, or, where the rules declare a `goal`, mostly by the goal a move ahead
//! (`play_on_greedy`): random moves in a game where a blunder is always on offer (a card
//! played blind) would make every move searched look alike.
//! Moves are recognised across imagined games by their key (`Game::option_key`), and a move is
//! compared with its siblings only over the iterations in which it was available. The budget is
//! a number of iterations, not time, so a game with search bots replays exactly from its seed.
//!
//! Honest by construction: the bot reads the game only through `determinize` for its own seat,
//! and the options of its own decision.

use super::value::{rewards, Scale};
use super::Policy;
use crate::engine::{Game, Imagination, ImaginationStats, Rng};

/// How much the search explores moves it knows little about (UCB1's constant).
const EXPLORATION: f64 = 0.7;

/// A node of the search tree: a move, by the seat that made it.
struct Node {
    /// The move's key.
    key: u64,
    /// The seat that made the move into this node.
    mover: u8,
    /// Iterations that went through this node.
    visits: u32,
    /// Iterations in which this move could have been chosen.
    available: u32,
    /// Sum of the mover's rewards over the visits.
    reward: f64,
    /// Moves tried from here, by index into the tree.
    children: Vec<usize>,
}

impl Node {
    fn new(key: u64, mover: u8) -> Node {
        Node {
            key,
            mover,
            visits: 0,
            available: 0,
            reward: 0.0,
            children: Vec::new(),
        }
    }

    fn ucb(&self, scale: &Scale) -> f64 {
        let visits = f64::from(self.visits.max(1));
        scale.unit(self.reward / visits)
            + EXPLORATION * (f64::from(self.available.max(1)).ln() / visits).sqrt()
    }
}

/// How a search bot searches: its budget, and how far ahead it imagines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MctsConfig {
    /// Imagined games per decision.
    pub iterations: u32,
    /// Decisions imagined per game before the position is scored; `None`: to the end.
    pub depth: Option<u32>,
    /// Imagined games drawn per decision from what the seat has seen; each iteration plays on
    /// from one of them, in turn, with chance of its own.
    pub worlds: u32,
    /// True: playouts pick every move at random, even where the rules declare a `goal` (which
    /// they otherwise follow a move ahead: `playout=random` in `--bots`).
    pub random_playouts: bool,
}

/// Imagined games drawn per decision unless `worlds=` says otherwise.
pub const DEFAULT_WORLDS: u32 = 16;

/// A bot that searches `iterations` imagined games for each decision with more than one option.
pub struct MctsBot {
    rng: Rng,
    config: MctsConfig,
    /// Scratch space for scoring imagined games, kept so that scoring allocates nothing.
    scores: Vec<i64>,
    rewards: Vec<f64>,
    /// How this decision's rewards are brought to [0, 1].
    scale: Scale,
    /// The last imagined game, whose buffers the next one reuses.
    scratch: Option<Game>,
    /// What the seat has seen of the game, and the games it imagines from it.
    imagination: Option<Imagination>,
    /// Scratch space for an iteration's walk down the tree (the nodes passed, the moves not
    /// yet tried), kept so that an iteration allocates nothing once the tree stops growing.
    path: Vec<usize>,
    untried: Vec<usize>,
    /// True where the rules declare a goal: playouts follow it a move ahead.
    greedy: bool,
    /// True where the rules' actions declare a `prefer`: the other seats, and every seat in
    /// playouts, take the move they prefer most (ties at random).
    preferring: bool,
    /// Scratch game for looking a move ahead in playouts.
    probe: Option<Game>,
}

impl MctsBot {
    /// A search bot for a seat that imagines every game to its end; its choices follow from the
    /// game's seed.
    pub fn new(seed: u64, seat: u8, iterations: u32) -> MctsBot {
        MctsBot::with_config(
            seed,
            seat,
            MctsConfig {
                iterations,
                depth: None,
                worlds: DEFAULT_WORLDS,
                random_playouts: false,
            },
        )
    }

    /// A search bot for a seat, configured; its choices follow from the game's seed.
    pub fn with_config(seed: u64, seat: u8, config: MctsConfig) -> MctsBot {
        MctsBot {
            rng: Rng::new(seed, 1000 + seat as u64),
            config: MctsConfig {
                iterations: config.iterations.max(1),
                depth: config.depth,
                worlds: config.worlds.max(1),
                random_playouts: config.random_playouts,
            },
            scores: Vec::new(),
            rewards: Vec::new(),
            scale: Scale::default(),
            scratch: None,
            imagination: None,
            path: Vec::new(),
            untried: Vec::new(),
            greedy: false,
            preferring: false,
            probe: None,
        }
    }

    fn random_below(&mut self, n: usize) -> usize {
        self.rng.index(n)
    }

    /// How imagining the game has gone for this bot so far.
    pub fn imagination_stats(&self) -> ImaginationStats {
        self.imagination
            .as_ref()
            .map(Imagination::stats)
            .unwrap_or_default()
    }

    /// One iteration: imagine, select and expand, play out, credit.
    fn iterate(
        &mut self,
        game: &Game,
        (seat, world): (u8, &Game),
        tree: &mut Vec<Node>,
        keys: &mut Vec<u64>,
    ) {
        let seed = self.rng.below(u64::MAX);
        let mut g = match self.scratch.take() {
            Some(mut g) => {
                world.imagined_into(seed, &mut g);
                g
            }
            None => world.imagined(seed),
        };
        let mut path = std::mem::take(&mut self.path);
        let mut untried = std::mem::take(&mut self.untried);
        path.clear();
        path.push(0);
        let mut node = 0;
        let mut failed = false;
        loop {
            // The bot's own decision comes first, also when others choose in secret at the
            // same time: the tree's first level is its moves.
            let p = if path.len() == 1 && g.option_count(seat) > 0 {
                seat
            } else {
                match g.to_decide() {
                    Some(p) => p,
                    None => break,
                }
            };
            let count = g.option_count(p);
            // Where the rules say what a seat prefers, the other seats act on it, from what
            // they see in this imagined game: a search of their moves would play them as if
            // they knew all the bot imagines (their own cards), and then a clue, say, would
            // be worth nothing. The tree holds the bot's own moves.
            if self.preferring && p != seat {
                if !play_preferred(&mut g, p, count, &mut self.rng) {
                    failed = true;
                    break;
                }
                continue;
            }
            keys.clear();
            keys.extend((0..count).filter_map(|i| g.option_key(p, i)));
            for i in 0..tree[node].children.len() {
                let c = tree[node].children[i];
                if keys.contains(&tree[c].key) {
                    tree[c].available += 1;
                }
            }
            let Some((index, child, expanded)) = self.select(tree, node, keys, &mut untried, p)
            else {
                break;
            };
            if g.play(p, index).is_err() {
                failed = true;
                break;
            }
            path.push(child);
            node = child;
            if expanded {
                break;
            }
        }
        // Play on at random to the end, or as deep as the bot looks. Depth counts decisions as
        // people make them: a choice of several is one, however many steps it takes here.
        let imagined = g.decisions().saturating_sub(game.decisions()) as u32;
        let left = self
            .config
            .depth
            .map_or(u32::MAX, |d| d.saturating_sub(imagined));
        if !failed {
            failed = if self.preferring {
                play_on_preferred(&mut g, left, &mut self.rng)
            } else if self.greedy {
                let mut probe = self.probe.take().unwrap_or_else(|| g.clone());
                let failed =
                    play_on_greedy(&mut g, left, &mut self.rng, &mut probe, &mut self.scores);
                self.probe = Some(probe);
                failed
            } else {
                play_on(&mut g, left, |n| self.random_below(n))
            };
        }
        rewards(&g, failed, &mut self.scores, &mut self.rewards);
        self.scale.meet(&mut self.rewards);
        self.scratch = Some(g);
        for &n in &path {
            tree[n].visits += 1;
            tree[n].reward += self
                .rewards
                .get(tree[n].mover as usize)
                .copied()
                .unwrap_or(0.0);
        }
        self.path = path;
        self.untried = untried;
    }

    /// At `node`, where `p` decides among the options whose keys are `keys`: the option to
    /// take, its child, and whether it was just added (an option never tried is added and
    /// taken first; otherwise the best by UCB). `None` if no child is among the options.
    #[inline]
    fn select(
        &mut self,
        tree: &mut Vec<Node>,
        node: usize,
        keys: &[u64],
        untried: &mut Vec<usize>,
        p: u8,
    ) -> Option<(usize, usize, bool)> {
        let tried = |k: &u64| tree[node].children.iter().any(|&c| tree[c].key == *k);
        untried.clear();
        untried.extend((0..keys.len()).filter(|&i| !tried(&keys[i])));
        if untried.is_empty() {
            let best = tree[node]
                .children
                .iter()
                .copied()
                .filter(|&c| keys.contains(&tree[c].key))
                .max_by(|&a, &b| {
                    tree[a]
                        .ucb(&self.scale)
                        .total_cmp(&tree[b].ucb(&self.scale))
                });
            let best = best?;
            let index = keys.iter().position(|k| *k == tree[best].key).unwrap_or(0);
            Some((index, best, false))
        } else {
            let index = untried[self.random_below(untried.len())];
            tree.push(Node::new(keys[index], p));
            let child = tree.len() - 1;
            tree[child].available = 1;
            tree[node].children.push(child);
            Some((index, child, true))
        }
    }
}

impl Policy for MctsBot {
    fn decide(&mut self, game: &Game, seat: u8) -> usize {
        let count = game.option_count(seat);
        if count <= 1 {
            return 0;
        }
        let open: Vec<Option<u64>> = (0..count).map(|i| game.option_key(seat, i)).collect();
        let mut tree = vec![Node::new(0, seat)];
        let mut keys = Vec::new();
        self.scale = Scale::of(game);
        self.greedy = game.program().goal.is_some() && !self.config.random_playouts;
        self.preferring = !self.config.random_playouts
            && game.program().actions.iter().any(|a| a.prefer.is_some());
        // Games imagined from what the seat has seen, each played on by iterations in turn.
        let iterations = self.config.iterations;
        let imagination = self
            .imagination
            .get_or_insert_with(|| Imagination::new(seat, self.rng.below(u64::MAX)));
        let worlds = imagination.worlds(game, self.config.worlds.min(iterations) as usize);
        for done in 1..=iterations {
            let world = &worlds[(done - 1) as usize % worlds.len()];
            self.iterate(game, (seat, world), &mut tree, &mut keys);
            // Stop when no other move could catch the most visited one in the iterations
            // left: the choice is already the one the whole budget would make.
            if done % CHECK_EVERY == 0 {
                let (_, first, second) = most_visited(&tree, &open);
                if first > second + (iterations - done) {
                    break;
                }
            }
        }
        most_visited(&tree, &open).0
    }

    fn imagination(&self) -> ImaginationStats {
        self.imagination_stats()
    }
}

/// Plays `g` on, each option chosen by `pick` (from the number of options), until `left` more
/// decisions have been made as people count them (a choice of several is one, however many
/// steps it takes), the game ends or a move fails; true if one failed.
fn play_on(g: &mut Game, left: u32, mut pick: impl FnMut(usize) -> usize) -> bool {
    g.play_out(left as usize, |_, count| pick(count)).is_err()
}

/// Of a hundred playout moves, how many are taken at random rather than by the goal.
const RANDOM_IN_100: u64 = 10;

/// Plays `g` on as [`play_on`] does, but each seat mostly takes the move that leaves its goal
/// highest one move ahead (ties at random, a move that ends the game last among equals), and
/// a random one [`RANDOM_IN_100`] times in a hundred: playouts that make the most of what the
/// imagined game offers, so that a move that wastes the game's time (a blunder that brings
/// its end nearer) is worth less than one that keeps it. `probe` and `goals` are scratch.
fn play_on_greedy(
    g: &mut Game,
    left: u32,
    rng: &mut Rng,
    probe: &mut Game,
    goals: &mut Vec<i64>,
) -> bool {
    let stop = g.decisions().saturating_add(left as usize);
    while let Some(p) = g.to_decide() {
        if g.decisions() >= stop {
            break;
        }
        let n = g.option_count(p);
        let index = if n <= 1 {
            0
        } else if rng.below(100) < RANDOM_IN_100 {
            rng.index(n)
        } else {
            let mut best = (f64::NEG_INFINITY, false);
            let mut chosen = 0;
            let mut ties = 0u64;
            for i in 0..n {
                probe.clone_from(g);
                if probe.play(p, i).is_err() {
                    continue;
                }
                let value = match probe.goals_now(goals) {
                    Ok(_) => goals
                        .get(p as usize)
                        .map_or(f64::NEG_INFINITY, |&v| v as f64),
                    Err(_) => continue,
                };
                let key = (value, probe.outcome().is_none());
                if key > best {
                    best = key;
                    chosen = i;
                    ties = 1;
                } else if key == best {
                    ties += 1;
                    if rng.below(ties) == 0 {
                        chosen = i;
                    }
                }
            }
            chosen
        };
        if g.play(p, index).is_err() {
            return true;
        }
    }
    false
}

/// The option `p` prefers most of its `count` by the rules' `prefer` (ties at random);
/// `Err` if a preference fails to evaluate.
fn preferred(g: &Game, p: u8, count: usize, rng: &mut Rng) -> Result<usize, ()> {
    if count <= 1 {
        return Ok(0);
    }
    let mut best = i64::MIN;
    let mut chosen = 0;
    let mut ties = 0u64;
    for i in 0..count {
        let value = g.preference(p, i).map_err(|_| ())?;
        if value > best {
            (best, chosen, ties) = (value, i, 1);
        } else if value == best {
            ties += 1;
            if rng.below(ties) == 0 {
                chosen = i;
            }
        }
    }
    Ok(chosen)
}

/// Plays the move `p` prefers most of its `count`; false if it or its preference failed.
fn play_preferred(g: &mut Game, p: u8, count: usize, rng: &mut Rng) -> bool {
    match preferred(g, p, count, rng) {
        Ok(index) => g.play(p, index).is_ok(),
        Err(()) => false,
    }
}

/// Plays `g` on as [`play_on`] does, each seat taking the move it prefers most by the rules'
/// `prefer` (ties at random); true if a move or a preference failed.
fn play_on_preferred(g: &mut Game, left: u32, rng: &mut Rng) -> bool {
    let stop = g.decisions().saturating_add(left as usize);
    while let Some(p) = g.to_decide() {
        if g.decisions() >= stop {
            break;
        }
        let count = g.option_count(p);
        if !play_preferred(g, p, count, rng) {
            return true;
        }
    }
    false
}

/// Iterations between two checks whether the search may stop early.
const CHECK_EVERY: u32 = 16;

/// Of the moves open now (their keys, `None` for a move without one): the index of the most
/// visited (ties: the first listed), its visits, and the visits of the runner-up.
fn most_visited(tree: &[Node], open: &[Option<u64>]) -> (usize, u32, u32) {
    let mut best = (0, 0, 0);
    for (i, key) in open.iter().enumerate() {
        let Some(key) = key else { continue };
        let visits = tree[0]
            .children
            .iter()
            .find(|&&c| tree[c].key == *key)
            .map_or(0, |&c| tree[c].visits);
        if visits > best.1 {
            best = (i, visits, best.1);
        } else if visits > best.2 {
            best.2 = visits;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::play_on;
    use crate::engine::Game;
    use std::sync::Arc;

    const TWO_AT_A_TIME: &str = r#"
game "Pairs" { players 2 }
player var kept: list of int = []
flow {
  repeat 10 {
    for p in players {
      let two = choose exactly 2 of p "Keep which two?" from [1, 2, 3, 4]
      p.kept += two
    }
  }
}
"#;

    fn pairs() -> Game {
        let program = crate::load::check_source("pairs.rules", TWO_AT_A_TIME)
            .program
            .expect("checks");
        Game::playout(Arc::new(program), 2, 1).expect("starts")
    }

    #[test]
    fn the_depth_counts_a_choice_of_several_once_however_many_steps_it_takes() {
        let mut g = pairs();
        let before = g.decisions();
        let mut steps = 0;
        let failed = play_on(&mut g, 3, |n| {
            steps += 1;
            n - 1
        });
        assert!(!failed);
        assert_eq!(
            g.decisions(),
            before + 3,
            "three decisions as people make them"
        );
        assert!(
            steps >= 6,
            "each choice of two took at least two steps, not {steps} in all"
        );
        assert!(g.to_decide().is_some(), "and the game goes on");
    }

    #[test]
    fn playing_on_stops_at_the_end_of_the_game() {
        let mut g = pairs();
        assert!(!play_on(&mut g, u32::MAX, |_| 0));
        assert_eq!(g.decisions(), 20);
        assert!(g.outcome().is_some());
    }
}
