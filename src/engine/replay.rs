//! A game played again for one seat: what that seat reads on the way is noted, and chance is
//! drawn as the replay says (the game's own stream, a value found earlier, or a fresh one).
//!
//! [`super::Imagination`] replays a game twice over: the real one, from its trail with its own
//! chance, to note what the seat saw at every pause; and imagined ones, with what the seat
//! could not see drawn afresh, kept only where the seat would have seen the same.

use super::{show, Game, Rng};
use crate::ir::{List, Value};
use std::hash::{Hash, Hasher};

/// What one draw of chance takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Proposal {
    /// The game's own stream: the real game replayed.
    Own,
    /// The game's own stream is drawn on as for [`Proposal::Own`], but this index is taken:
    /// the real game replayed with one draw changed.
    Force(u32),
    /// A fresh draw from the replay's own stream.
    Fresh,
    /// One of these indices, each as likely (fresh if none is in range).
    Among(Vec<u32>),
    /// For a shuffle of cards: dealt as the real shuffle `output` was, but for the cards the
    /// seat cannot account for (`hidden`, sorted), which change places among themselves at
    /// random; if what is shuffled is not the real `input` (sorted), a fresh shuffle.
    Deal {
        input: List,
        output: List,
        hidden: List,
        /// Where the seat has told some cards apart: for each position of `output` holding a
        /// hidden card, the indices into `hidden` of the cards it may hold (a matching of
        /// positions to cards is drawn); empty, any hidden card anywhere.
        slots: Slots,
    },
    /// For a shuffle: exactly this output (if it holds what is shuffled), the stream moving as
    /// if drawn: a shadow's two values swapped.
    Exact(List),
    /// For a shuffle of plain values (numbers, enum values): as the real `output`, but for the
    /// values at the `hidden` positions (ascending), which change places among themselves at
    /// random; if what is shuffled is not the real `input` (sorted), a fresh shuffle.
    Positions {
        input: List,
        output: List,
        hidden: std::sync::Arc<[u32]>,
    },
}

/// For each position of a shuffle's output, the cards it may hold (indices into the hidden
/// cards).
pub(crate) type Slots = std::sync::Arc<[(u32, Vec<u32>)]>;

/// A draw of chance as it was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Drawn {
    /// A die rolled: which die, and the index of the face.
    Roll { die: u32, index: u32 },
    /// A `random` pick: among how many, and which.
    Pick { of: u32, index: u32 },
    /// A shuffle: its input (sorted) and output.
    Shuffle { input: List, output: List },
}

/// Chance as a replay draws it.
#[derive(Debug, Clone)]
pub(crate) struct Chance {
    /// What each draw of the running segment takes, by its order in the segment; past the end,
    /// [`Proposal::Own`] when replaying the real game (`fresh` is `None`), else fresh.
    pub(crate) proposals: Vec<Proposal>,
    /// The draws made in the running segment, in order.
    pub(crate) drawn: Vec<Drawn>,
    /// The replay's own stream; `None` when the real game is replayed with its own.
    pub(crate) fresh: Option<Rng>,
}

impl Chance {
    /// The proposal for the next draw.
    fn next(&self) -> Proposal {
        match self.proposals.get(self.drawn.len()) {
            Some(p) => p.clone(),
            None if self.fresh.is_none() => Proposal::Own,
            None => Proposal::Fresh,
        }
    }

    /// An index below `n` (n > 0) for a roll or a pick, drawn as proposed.
    fn index(&mut self, n: usize, own: &mut Rng) -> usize {
        match self.next() {
            Proposal::Own | Proposal::Deal { .. } | Proposal::Positions { .. }
                if self.fresh.is_none() =>
            {
                own.index(n)
            }
            Proposal::Force(i) => {
                // The stream moves as if drawn, so that later draws are the real ones.
                own.index(n);
                (i as usize).min(n - 1)
            }
            Proposal::Among(xs) => {
                let ok: Vec<u32> = xs.into_iter().filter(|&i| (i as usize) < n).collect();
                let rng = self.fresh.as_mut().unwrap_or(own);
                if ok.is_empty() {
                    rng.index(n)
                } else {
                    ok[rng.index(ok.len())] as usize
                }
            }
            _ => self.fresh.as_mut().unwrap_or(own).index(n),
        }
    }
}

/// A replay in progress: the seat it notes for, what that seat read since the last pause, and
/// its chance.
#[derive(Debug, Clone)]
pub(crate) struct Replay {
    /// The seat whose reading is noted.
    pub(crate) seat: u8,
    /// What the seat read since the last pause (log lines, choices announced), as components
    /// ([`Observed`]).
    pub(crate) read: Observed,
    /// How chance is drawn.
    pub(crate) chance: Chance,
}

impl Replay {
    /// A replay noting for `seat`, nothing read yet; chance drawn from `fresh` where nothing
    /// is proposed (`None`: only what was drawn before is drawn again).
    pub(crate) fn new(seat: u8, fresh: Option<Rng>) -> Box<Replay> {
        Box::new(Replay {
            seat,
            read: Observed::default(),
            chance: Chance {
                proposals: Vec::new(),
                drawn: Vec::new(),
                fresh,
            },
        })
    }
}

/// What a seat read in the log since the last pause, as components: each a key (the line's
/// statement, how often it wrote since the pause, the value's place in the line and in a list)
/// and a value (as the seat reads it: two instances with the same `shown as` name read the
/// same). Also the instances read, each with how many draws of chance the stretch had made
/// when it was read: what the seat can account for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Observed {
    pub(crate) parts: Vec<(u64, u64)>,
    /// How often each statement wrote a line since the last pause, by its key.
    pub(crate) lines: Vec<(u64, u64)>,
    pub(crate) instances: Vec<(usize, Value)>,
}

impl Observed {
    /// The key of the next line written by the statement keyed `site`: a line more or less
    /// written by another statement before it moves nothing.
    pub(crate) fn line(&mut self, site: u64) -> u64 {
        let n = match self.lines.iter_mut().find(|(s, _)| *s == site) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                self.lines.push((site, 0));
                0
            }
        };
        super::observe::key(site, n, 0, 0)
    }

    pub(crate) fn clear(&mut self) {
        self.parts.clear();
        self.lines.clear();
        self.instances.clear();
    }
}

/// FNV-1a over words: components and fingerprints are compared, never attacked.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x0100_0000_01b3);
    }
}

/// A hash of anything hashable.
pub(crate) fn hash_of(x: impl Hash) -> u64 {
    let mut h = Fnv::default();
    x.hash(&mut h);
    h.finish()
}

impl Game {
    /// How a value reads to a seat, as a number: equal for values that read the same (an
    /// instance by its name, which its `shown as` text may make the same as another's).
    pub(crate) fn reads_as(&self, v: &Value) -> u64 {
        match v {
            Value::Entity(x) => {
                let labelled = self
                    .state
                    .labels
                    .get(x.kind().index())
                    .is_some_and(|l| !l.is_empty());
                if labelled {
                    hash_of((5u8, show(&self.program, &self.state, v)))
                } else {
                    hash_of((5u8, x.kind().0, x.index()))
                }
            }
            Value::List(xs) => {
                let mut h = Fnv::default();
                6u8.hash(&mut h);
                for x in xs.iter() {
                    h.write_u64(self.reads_as(x));
                }
                h.finish()
            }
            other => hash_of(other),
        }
    }

    /// Notes a value the replay's seat reads in a log line at `key`: a list element by
    /// element, with its length; instances read are noted as accounted for.
    pub(crate) fn note_read(&self, out: &mut Observed, key: u64, v: &Value) {
        match v {
            Value::List(xs) => {
                out.parts
                    .push((super::observe::key(key, u64::MAX, 0, 0), xs.len() as u64));
                for (i, x) in xs.iter().enumerate() {
                    self.note_read(out, super::observe::key(key, i as u64, 0, 0), x);
                }
            }
            Value::Entity(_) => {
                out.parts.push((key, self.reads_as(v)));
                let at = self.replay.as_ref().map_or(0, |r| r.chance.drawn.len());
                out.instances.push((at, v.clone()));
            }
            other => out.parts.push((key, hash_of(other))),
        }
    }

    /// The index of the face a roll of a die with `n` faces shows, drawn as the game draws it.
    pub(super) fn draw_roll(&mut self, die: usize, n: usize) -> usize {
        self.draw_index(n, |index| Drawn::Roll {
            die: die as u32,
            index,
        })
    }

    /// The index a `random` pick among `n` takes, drawn as the game draws it.
    pub(super) fn draw_pick(&mut self, n: usize) -> usize {
        self.draw_index(n, |index| Drawn::Pick {
            of: n as u32,
            index,
        })
    }

    /// An index below `n` from the game's stream, or in a replay as proposed, noted as `drawn`
    /// says.
    fn draw_index(&mut self, n: usize, drawn: impl FnOnce(u32) -> Drawn) -> usize {
        match self.replay.as_mut() {
            None => self.rng.index(n),
            Some(r) => {
                let i = r.chance.index(n, &mut self.rng);
                r.chance.drawn.push(drawn(i as u32));
                i
            }
        }
    }

    /// Shuffles `items` as the game draws it.
    pub(super) fn draw_shuffle(&mut self, items: &mut Vec<Value>) {
        let Some(r) = self.replay.as_mut() else {
            self.rng.shuffle(items);
            return;
        };
        let mut input: Vec<Value> = items.clone();
        input.sort();
        let c = &mut r.chance;
        match c.next() {
            Proposal::Exact(exact) => {
                self.rng.shuffle(items);
                let mut sorted: Vec<Value> = exact.to_vec();
                sorted.sort();
                if sorted == input {
                    *items = exact.to_vec();
                }
            }
            Proposal::Positions {
                input: real_in,
                output,
                hidden,
            } if c.fresh.is_some() => {
                let rng = c.fresh.as_mut().expect("a fresh stream");
                if real_in[..] == input[..] {
                    let mut values: Vec<Value> =
                        hidden.iter().map(|&i| output[i as usize].clone()).collect();
                    rng.shuffle(&mut values);
                    *items = output.to_vec();
                    for (&i, v) in hidden.iter().zip(values) {
                        items[i as usize] = v;
                    }
                } else {
                    rng.shuffle(items);
                }
            }
            Proposal::Deal {
                input: real_in,
                output,
                hidden,
                slots,
            } if c.fresh.is_some() => {
                let rng = c.fresh.as_mut().expect("a fresh stream");
                let matched = if real_in[..] == input[..] {
                    match_slots(&slots, hidden.len(), rng)
                } else {
                    None
                };
                if let Some(assigned) = matched {
                    *items = output.to_vec();
                    for ((at, _), card) in slots.iter().zip(assigned) {
                        items[*at as usize] = hidden[card as usize].clone();
                    }
                } else if real_in[..] == input[..] {
                    // The cards the seat cannot account for change places among themselves.
                    let mut dealt: Vec<Value> = hidden.to_vec();
                    rng.shuffle(&mut dealt);
                    let mut dealt = dealt.into_iter();
                    *items = output
                        .iter()
                        .map(|v| match hidden.binary_search(v) {
                            Ok(_) => dealt.next().unwrap_or_else(|| v.clone()),
                            Err(_) => v.clone(),
                        })
                        .collect();
                } else {
                    rng.shuffle(items);
                }
            }
            Proposal::Own | Proposal::Deal { .. } | Proposal::Positions { .. }
                if c.fresh.is_none() =>
            {
                self.rng.shuffle(items)
            }
            Proposal::Force(_) => self.rng.shuffle(items),
            _ => match c.fresh.as_mut() {
                Some(rng) => rng.shuffle(items),
                None => self.rng.shuffle(items),
            },
        }
        r.chance.drawn.push(Drawn::Shuffle {
            input: input.into(),
            output: items.clone().into(),
        });
    }
}

/// Tries at a matching of positions to the cards each may hold before the cards are dealt
/// among the positions without it.
const MATCHING_TRIES: u32 = 16;

/// A card for every slot, among those it may hold, each card once: the most constrained slots
/// first, each taking one of its cards left at random; `None` if no slots are given or every
/// try ran out of cards for some slot.
fn match_slots(slots: &[(u32, Vec<u32>)], cards: usize, rng: &mut Rng) -> Option<Vec<u32>> {
    if slots.is_empty() || slots.len() != cards {
        return None;
    }
    let mut order: Vec<usize> = (0..slots.len()).collect();
    order.sort_by_key(|&s| slots[s].1.len());
    let mut used = vec![false; cards];
    let mut assigned = vec![0u32; slots.len()];
    let mut open: Vec<u32> = Vec::new();
    'tries: for _ in 0..MATCHING_TRIES {
        used.fill(false);
        for &s in &order {
            open.clear();
            open.extend(slots[s].1.iter().copied().filter(|&c| !used[c as usize]));
            if open.is_empty() {
                continue 'tries;
            }
            let card = open[rng.index(open.len())];
            used[card as usize] = true;
            assigned[s] = card;
        }
        return Some(assigned);
    }
    None
}
