//! Cheater's Game written by hand in plain Rust: the speed reference for the interpreter, and a
//! second reading of `rules/cheaters_game.rules` (the base game: no scenarios, no Win The Race).
//!
//! It offers the same decisions at the same moments, with the same number of options in the
//! same order, as the rules file does; every decision is taken by a uniformly random player.
//! Random numbers come from [`meeple::engine::Rng`], so that they cost both sides the same, and
//! are laid out as `meeple::sim::random_game` lays them out: one stream for the game's dice and
//! draws, and the next ones for each seat's random player. [`play`] takes streams the
//! interpreter does not use, so that for the same seed the two sides play independent games;
//! [`play_recorded`] from stream 0 draws exactly what the interpreter draws.
//!
//! Nothing is allocated: the state is a few fixed arrays, the five alliance pawn sets included.
//! Each decision can be reported to a recorder as a [`Choice`] (for the tests); [`play`]'s
//! recorder does nothing and compiles away.
//!
//! Used by `benches/native.rs` (as its module) and by `tests/native_reference.rs` (by path);
//! neither uses all of it.
#![allow(dead_code)]

use meeple::engine::Rng;

/// Most players the game allows.
pub const MAX_PLAYERS: usize = 5;
/// Alliance pawn sets in the box (ruling CG-2).
pub const ALLIANCES: usize = 5;
/// The game lasts this many rounds (ruling CG-6).
pub const ROUNDS: u32 = 10;

/// One alliance pawn set. Out of play it is all zero.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Alliance {
    /// The pawn set is on the table.
    pub in_play: bool,
    /// The leading seat (meaningful only in play).
    pub leader: u8,
    /// The member seats, one bit a seat (the leader is never a member).
    pub members: u8,
    /// The alliance's cheater-point track.
    pub track: i64,
}

impl Alliance {
    /// `in_alliance(p, a)`: in play, and `p` leads it or is a member.
    fn has(&self, p: usize) -> bool {
        self.in_play && (self.leader as usize == p || self.members & (1 << p) != 0)
    }
}

/// A finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NativeGame {
    /// Number of players.
    pub players: u8,
    /// Decisions taken (turns, asks and chooses), as `Game::history().len()` counts them.
    pub decisions: u32,
    /// The winning seats, one bit a seat; 0 when everyone loses.
    pub winners: u8,
    /// Each seat's score, `score(p)` (0 past the player count).
    pub scores: [i64; MAX_PLAYERS],
    /// Each seat's honest points at the end.
    pub honest: [i64; MAX_PLAYERS],
}

/// A decision taken, as the rules name the option: one variant an option of each decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Choice {
    /// A turn: the action `honest`.
    Honest,
    /// A turn: the action `cheat`.
    Cheat,
    /// After rolling a 5 or 6 in an alliance: blow the whistle.
    Whistle,
    /// After rolling a 5 or 6 in an alliance: take the points.
    Take,
    /// Which alliance to turn in (0-based pawn set), when in several.
    TurnIn(u8),
    /// Form a new alliance.
    Form,
    /// Do not form one.
    Skip,
    /// Join the alliance being formed.
    Join,
    /// Decline to join.
    Decline,
    /// Points kept of a bonus pool.
    Keep(u32),
    /// Seat offered the rest of the bonus pool (0-based).
    OfferTo(u8),
    /// Accept the offer.
    Accept,
    /// Refuse it.
    Refuse,
}

/// A game in progress; `R` hears of every decision.
struct Table<R: FnMut(u8, Choice)> {
    n: usize,
    honest: [i64; MAX_PLAYERS],
    skip_next: [bool; MAX_PLAYERS],
    alliances: [Alliance; ALLIANCES],
    decisions: u32,
    /// Dice and `random` draws.
    dice: Rng,
    /// Each seat's random player.
    bots: [Rng; MAX_PLAYERS],
    record: R,
}

/// The first random stream [`play`] uses: far from the interpreter's streams 0..=5.
pub const NATIVE_STREAMS: u64 = 1 << 32;

/// Plays a whole game of Cheater's Game by random players: deterministic for (players, seed),
/// and independent of the interpreter's game for the same seed.
pub fn play(players: u8, seed: u64) -> NativeGame {
    play_recorded(players, seed, NATIVE_STREAMS, |_, _| {})
}

/// Like [`play`], telling `record` of every decision (seat, option taken), with the game's dice
/// and draws from stream `first` of the seed and seat `p`'s random player from stream
/// `first + 1 + p`. With `first == 0` these are the interpreter's streams: the native game then
/// draws the same numbers at the same moments as `meeple::sim::random_game`, as long as the
/// interpreter draws as it does today.
pub fn play_recorded(
    players: u8,
    seed: u64,
    first: u64,
    record: impl FnMut(u8, Choice),
) -> NativeGame {
    assert!(
        (3..=5).contains(&players),
        "Cheater's Game is for 3 to 5 players"
    );
    let n = players as usize;
    let mut t = Table {
        n,
        honest: [0; MAX_PLAYERS],
        skip_next: [false; MAX_PLAYERS],
        alliances: [Alliance::default(); ALLIANCES],
        decisions: 0,
        dice: Rng::new(seed, first),
        bots: std::array::from_fn(|p| Rng::new(seed, first + 1 + p as u64)),
        record,
    };
    // setup: `let f = random players`.
    let start = t.dice.index(n);
    // flow: ten rounds, each from the start player to the left.
    for _round in 1..=ROUNDS {
        for i in 0..n {
            let p = (start + i) % n;
            if t.skip_next[p] {
                t.skip_next[p] = false;
            } else {
                t.turn(p);
            }
        }
    }
    t.finish(players)
}

impl<R: FnMut(u8, Choice)> Table<R> {
    /// One decision by seat `p` among `options` options: the option's index. `choice` names
    /// the option for the recorder.
    #[inline]
    fn decide(&mut self, p: usize, options: usize, choice: impl FnOnce(usize) -> Choice) -> usize {
        self.decisions += 1;
        let i = self.bots[p].index(options);
        (self.record)(p as u8, choice(i));
        i
    }

    /// A 2-option `ask`: true for the first option, `yes`.
    #[inline]
    fn ask(&mut self, p: usize, yes: Choice, no: Choice) -> bool {
        self.decide(p, 2, |i| if i == 0 { yes } else { no }) == 0
    }

    #[inline]
    fn d6(&mut self) -> i64 {
        self.dice.index(6) as i64 + 1
    }

    /// `turn p`: the legal actions in declaration order, `honest` then `cheat`.
    fn turn(&mut self, p: usize) {
        // cheat requires a free pawn set or an alliance that `p` leads.
        let cheat_legal = self
            .alliances
            .iter()
            .any(|a| !a.in_play || a.leader as usize == p);
        let options = if cheat_legal { 2 } else { 1 };
        const ACTIONS: [Choice; 2] = [Choice::Honest, Choice::Cheat];
        match self.decide(p, options, |i| ACTIONS[i]) {
            0 => self.honest(p),
            _ => self.cheat(p),
        }
    }

    /// `action honest`: roll; on a 5 or 6 a player in an alliance may blow the whistle instead.
    fn honest(&mut self, me: usize) {
        let r = self.d6();
        let mut mine = [0u8; ALLIANCES];
        let mut count = 0;
        for (i, a) in self.alliances.iter().enumerate() {
            if a.has(me) {
                mine[count] = i as u8;
                count += 1;
            }
        }
        if r >= 5 && count > 0 && self.ask(me, Choice::Whistle, Choice::Take) {
            let a = if count == 1 {
                mine[0]
            } else {
                mine[self.decide(me, count, |i| Choice::TurnIn(mine[i]))]
            };
            self.whistleblow(me, a as usize);
        } else {
            self.honest[me] += r;
        }
    }

    /// `action cheat`: optionally form an alliance, then roll for every alliance `me` leads.
    fn cheat(&mut self, me: usize) {
        let n = self.n;
        if let Some(free) = self.alliances.iter().position(|a| !a.in_play) {
            if self.ask(me, Choice::Form, Choice::Skip) {
                let mut joined = 0u8;
                for i in 1..n {
                    let q = (me + i) % n;
                    if self.ask(q, Choice::Join, Choice::Decline) {
                        joined |= 1 << q;
                    }
                }
                if joined != 0 {
                    self.alliances[free] = Alliance {
                        in_play: true,
                        leader: me as u8,
                        members: joined,
                        track: 0,
                    };
                }
            }
        }
        for i in 0..ALLIANCES {
            let a = self.alliances[i];
            if !(a.in_play && a.leader as usize == me) {
                continue;
            }
            // One die per member; a die whose value appears more than once goes to the pool.
            let mut seen = [0u8; 7];
            let mut sum = 0;
            for _ in 0..a.members.count_ones() {
                let d = self.d6();
                seen[d as usize] += 1;
                sum += d;
            }
            self.alliances[i].track += sum;
            let pool: i64 = (1..=6)
                .filter(|&v| seen[v] > 1)
                .map(|v| v as i64 * seen[v] as i64)
                .sum();
            if pool > 0 {
                self.offer_bonus(me, pool);
            }
        }
    }

    /// `effect offer_bonus`: keep 0..=pool, offer the rest to another player, who may accept.
    fn offer_bonus(&mut self, roller: usize, pool: i64) {
        let n = self.n;
        let keep = self.decide(roller, pool as usize + 1, |i| Choice::Keep(i as u32)) as i64;
        // others(roller): the seats to the roller's left, in order.
        let other = |i: usize| (roller + 1 + i) % n;
        let to = other(self.decide(roller, n - 1, |i| Choice::OfferTo(other(i) as u8)));
        if self.ask(to, Choice::Accept, Choice::Refuse) {
            self.honest[roller] += keep;
            self.honest[to] += pool - keep;
        }
    }

    /// `effect whistleblow`: `p` takes the track; the other participants lose it and pass.
    fn whistleblow(&mut self, p: usize, a: usize) {
        let al = self.alliances[a];
        let value = al.track;
        self.honest[p] += value;
        let others = (al.members | 1 << al.leader) & !(1 << p);
        for q in 0..self.n {
            if others & (1 << q) != 0 {
                self.honest[q] -= value;
                self.skip_next[q] = true;
            }
        }
        self.alliances[a] = Alliance::default();
    }

    /// Scores (`score(p) = p.honest + cheater_points(p)`) and the `winners` rule (ruling CG-8).
    fn finish(&self, players: u8) -> NativeGame {
        let n = self.n;
        let mut cheater = [0i64; MAX_PLAYERS];
        let mut scores = [0i64; MAX_PLAYERS];
        for p in 0..n {
            cheater[p] = self
                .alliances
                .iter()
                .filter(|a| a.has(p))
                .map(|a| a.track)
                .sum();
            scores[p] = self.honest[p] + cheater[p];
        }
        // leaders(): top by total, then honest points.
        let best = (0..n)
            .map(|p| (scores[p], self.honest[p]))
            .max()
            .expect("players");
        let leaders = seats_where(n, |p| (scores[p], self.honest[p]) == best);
        let winners = if leaders.count_ones() == 1 {
            leaders
        } else {
            // Everyone with cheater points loses; of the others the highest total wins.
            match (0..n).filter(|&p| cheater[p] == 0).map(|p| scores[p]).max() {
                Some(top) => seats_where(n, |p| cheater[p] == 0 && scores[p] == top),
                None => 0,
            }
        };
        NativeGame {
            players,
            decisions: self.decisions,
            winners,
            scores,
            honest: self.honest,
        }
    }
}

fn seats_where(n: usize, f: impl Fn(usize) -> bool) -> u8 {
    (0..n).filter(|&p| f(p)).fold(0, |m, p| m | 1 << p)
}
