//! The real game played again from its trail for one seat: what the seat saw at every pause,
//! and what each hidden event (a die rolled, another seat's move read only in part) could have
//! been instead as far as the seat can tell.
//!
//! Each alternative of a hidden event is followed by a shadow: the real game played again with
//! that one thing changed, pause by pause beside the real replay, until the seat would have
//! seen a difference (the alternative is ruled out, and where it showed is noted) or until it
//! is no longer worth following ([`SHADOW_PAUSES`], [`MAX_SHADOWS`]: then it stays possible).

use super::{Event, EventKind, Imagination, Pause};
use crate::engine::replay::{Drawn, Proposal, Replay};
use crate::engine::{Game, Mode, Step};
use std::collections::{BTreeSet, HashMap};

/// Dice with more faces than this have only this many of their other faces followed.
const FACES_FOLLOWED: usize = 32;

/// Draws among more values than this are drawn afresh where not all their values were
/// followed, rather than among a list of the values left.
const FACES_KEPT: usize = 1024;

/// Pauses a shadow is followed before its alternative is left possible: a secret kept longer
/// than this is imagined afresh, which costs nothing to follow.
const SHADOW_PAUSES: usize = 1000;

/// Shadows followed at once; the alternatives of events beyond them are left possible.
const MAX_SHADOWS: usize = 256;

/// Shadows followed at once when a shuffle of plain values adds its swaps (a deck of a hundred
/// dishes of eight kinds asks about 800): swaps beyond them are left untold, their positions
/// drawn again.
const MAX_SWAP_SHADOWS: usize = 1024;

/// Shadows followed at once for the swaps of a shuffle of cards (a deck of fifty asks about
/// 1,200); past them, the deal's cards are dealt among its hidden positions without a matching.
const MAX_DEAL_SHADOWS: usize = 2048;

/// The real game with one alternative of a hidden event in its place.
pub(super) struct Shadow {
    event: usize,
    alternative: u32,
    game: Game,
    /// The pauses it has reached.
    reached: usize,
    /// True for a swap of two cards of a shuffle of cards.
    deal: bool,
}

impl Imagination {
    /// Follows one alternative outcome of `event` at `pause`: its replayed `game` becomes a
    /// shadow, or, where the rules refused it (None), the alternative is ruled out, as an
    /// outcome that fails the rules is one the seat would have seen.
    fn follow(
        &mut self,
        event: usize,
        alternative: u32,
        pause: usize,
        deal: bool,
        game: Option<Game>,
    ) {
        self.stats.replays += 1;
        match game {
            Some(game) => self.shadows.push(Shadow {
                event,
                alternative,
                game,
                reached: pause + 1,
                deal,
            }),
            None => self.events[event]
                .ruled_out
                .push((alternative, vec![(pause, u64::MAX)])),
        }
    }

    /// Replays the moves of `game`'s trail made since the last call; false if `game` keeps no
    /// trail or its replay went astray (then nothing is imagined from the past).
    pub(super) fn catch_up(&mut self, game: &Game) -> bool {
        let Some(trail) = game.trail.as_ref() else {
            return false;
        };
        let root = &*trail.root as *const Game as usize;
        let same = root == self.root
            && self.real.is_some()
            && trail.steps.len() >= self.steps.len()
            && trail.steps[..self.steps.len()] == self.steps[..];
        if !same {
            self.reset(game);
            if !self.start_real(game) {
                return false;
            }
        }
        let trail = game.trail.as_ref().expect("a trail");
        let new = trail.steps.len() > self.steps.len();
        for &step in &trail.steps[self.steps.len()..] {
            if !self.step_real(step) {
                self.real = None;
                return false;
            }
            self.steps.push(step);
        }
        if new || !same {
            self.settle();
        }
        true
    }

    fn reset(&mut self, game: &Game) {
        let trail = game.trail.as_ref().expect("a trail");
        self.root = &*trail.root as *const Game as usize;
        self.edited = trail.edited;
        self.real = None;
        self.steps.clear();
        self.pauses.clear();
        self.events.clear();
        self.shadows.clear();
        self.deals.clear();
        self.latest.clear();
        self.deal_pairs.clear();
        self.population = None;
    }

    /// Starts the real replay at the trail's root and runs it to its first pause.
    fn start_real(&mut self, game: &Game) -> bool {
        let trail = game.trail.as_ref().expect("a trail");
        let mut g = (*trail.root).clone();
        g.mode = Mode::playout();
        g.replay = Some(Replay::new(self.seat, None));
        let before = g.clone();
        if g.run().is_err() {
            return false;
        }
        self.real = Some(g);
        self.pause_reached(&before, None, Vec::new());
        true
    }

    /// Takes one move of the trail in the real replay, following its alternatives if the seat
    /// read it only in part.
    fn step_real(&mut self, step: Step) -> bool {
        let seat = self.seat;
        let Some(g) = self.real.as_mut() else {
            return false;
        };
        let index = step.index as usize;
        let (Some(key), Some(whole)) = (
            g.public_key(step.seat, index, seat),
            g.option_key(step.seat, index),
        ) else {
            return false;
        };
        let partial = g.read_in_part(step.seat, index, seat);
        let at = self.pauses.len() - 1;
        if let Some(last) = self.pauses.last_mut() {
            last.step = Some((step.seat, key));
            last.partial = partial;
        }
        // What the move shows the seat: instances named in it are in plain sight.
        let shown = g.announced_values(step.seat, index, seat);
        chance_reset(g);
        let before = g.clone();
        if g.play(step.seat, index).is_err() {
            return false;
        }

        // Shadows behind the real replay take the move as it was read in the real game.
        let reached = self.pauses.len();
        for s in &mut self.shadows {
            if s.reached == reached {
                chance_reset(&mut s.game);
                let ok = follow(&mut s.game, step.seat, whole, key, seat);
                s.reached = if ok { reached + 1 } else { usize::MAX };
            }
        }
        // Another seat's move read only in part: each other move of the real game that reads
        // the same is followed, to learn where the seat would have told it apart. What they
        // teach is only what the seat saw (an alternative is ruled out only where it would
        // have shown): whether an imagined game chooses here is `partial`, not their number.
        let alike: Vec<usize> = if partial {
            (0..before.option_count(step.seat))
                .filter(|&i| before.public_key(step.seat, i, seat) == Some(key))
                .collect()
        } else {
            Vec::new()
        };
        if alike.len() > 1 {
            let event = self.events.len();
            self.events.push(Event {
                pause: at,
                kind: EventKind::Move {
                    whole,
                    alternatives: alike.len() - 1,
                },
                ruled_out: Vec::new(),
            });
            for &other in alike.iter().filter(|&&i| i != index) {
                if self.plain_shadows() >= MAX_SHADOWS {
                    break;
                }
                let mut game = before.clone();
                chance_reset(&mut game);
                let Some(alternative) = game.option_key(step.seat, other) else {
                    continue;
                };
                if game.play(step.seat, other).is_ok() {
                    self.shadows.push(Shadow {
                        event,
                        alternative: alternative as u32,
                        game,
                        reached: reached + 1,
                        deal: false,
                    });
                }
            }
        }
        self.pause_reached(&before, Some(step), shown);
        true
    }

    /// Notes the pause the real replay reached from `before` by `step`: what the seat sees,
    /// the draws on the way, the dice among them to follow, and the shadows the seat would now
    /// tell apart from the real game.
    fn pause_reached(&mut self, before: &Game, step: Option<Step>, shown: Vec<crate::ir::Value>) {
        self.stats.replays += 1;
        let g = self.real.as_mut().expect("a real replay");
        let drawn = std::mem::take(&mut g.replay.as_mut().expect("a replay").chance.drawn);
        let pause = self.pauses.len();
        self.account_seen(&drawn, shown);
        let real = self.real.as_ref().expect("a real replay").clone();
        self.follow_draws(before, step, &drawn, pause);
        self.follow_plain_shuffles(before, step, &drawn, pause);
        self.follow_card_shuffles(before, step, &drawn, pause);
        self.rule_out_shadows(&real, pause);
        self.pauses.push(Pause {
            game: real,
            step: None,
            partial: false,
            drawn,
            proposals: Vec::new(),
            known: None,
        });
    }

    /// Accounts for the cards the seat saw on the way to the pause just reached (`shown`: a
    /// move's and the log's; the view's are read here), each in its latest shuffle, and notes
    /// the stretch's shuffles of cards.
    fn account_seen(&mut self, drawn: &[Drawn], shown: Vec<crate::ir::Value>) {
        let seat = self.seat;
        let g = self.real.as_mut().expect("a real replay");
        // Cards seen are accounted for in their latest shuffle; in time order with this
        // stretch's shuffles: a move's cards before any draw, a line's as it was written, the
        // view's after every draw.
        let mut seen_cards: Vec<(usize, crate::ir::Value)> =
            shown.into_iter().map(|v| (0, v)).collect();
        g.instances_in_view(seat, &mut seen_cards);
        seen_cards.retain(|(_, v)| matches!(v, crate::ir::Value::Entity(_)));
        seen_cards.sort_by_key(|(at, _)| *at);
        let mut cards = seen_cards.into_iter().peekable();
        for (j, d) in drawn.iter().enumerate() {
            let Drawn::Shuffle { output, .. } = d else {
                continue;
            };
            while let Some((_, v)) = cards.next_if(|(at, _)| *at <= j) {
                self.account(v);
            }
            if output
                .iter()
                .all(|v| matches!(v, crate::ir::Value::Entity(_)))
            {
                let deal = self.deals.len();
                self.deals.push(BTreeSet::new());
                for v in output.iter() {
                    self.latest.insert(v.clone(), deal);
                }
            }
        }
        for (_, v) in cards {
            self.account(v);
        }
    }

    /// Follows the other faces of each die and `random` pick of the stretch.
    fn follow_draws(&mut self, before: &Game, step: Option<Step>, drawn: &[Drawn], pause: usize) {
        // Each die, and each `random` pick: its other faces (the other values it could have
        // picked) followed, so that one the seat saw (a first player drawn at random and named
        // in the log) is imagined as it showed, not drawn again until it happens to.
        for (j, d) in drawn.iter().enumerate() {
            let (faces, index) = match d {
                Drawn::Roll { die, index } => {
                    (before.program.dice[*die as usize].faces.len() as u32, index)
                }
                Drawn::Pick { of, index } => (*of, index),
                Drawn::Shuffle { .. } => continue,
            };
            let event = self.events.len();
            self.events.push(Event {
                pause,
                kind: EventKind::Die {
                    draw: j,
                    face: *index,
                    faces,
                },
                ruled_out: Vec::new(),
            });
            for face in (0..faces).filter(|f| f != index).take(FACES_FOLLOWED) {
                if self.plain_shadows() >= MAX_SHADOWS {
                    break;
                }
                let game = shadow_of(before, step, j, Proposal::Force(face));
                self.follow(event, face, pause, false, game);
            }
        }
    }

    /// Follows swaps of each shuffle of plain values of the stretch.
    fn follow_plain_shuffles(
        &mut self,
        before: &Game,
        step: Option<Step>,
        drawn: &[Drawn],
        pause: usize,
    ) {
        // Each shuffle of plain values: every position's value swapped with the next different
        // one, followed. Where the seat never tells a swap apart, both positions are unseen.
        for (j, d) in drawn.iter().enumerate() {
            let Drawn::Shuffle { output, .. } = d else {
                continue;
            };
            if output
                .iter()
                .all(|v| matches!(v, crate::ir::Value::Entity(_)))
            {
                continue;
            }
            let event = self.events.len();
            self.events.push(Event {
                pause,
                kind: EventKind::Shuffle { draw: j },
                ruled_out: Vec::new(),
            });
            for (alternative, (i, other)) in swaps(output).into_iter().enumerate() {
                if self.plain_shadows() >= MAX_SWAP_SHADOWS {
                    // Swaps not followed are not told apart: their values are drawn again.
                    break;
                }
                let mut swapped = output.to_vec();
                swapped.swap(i, other);
                let game = shadow_of(before, step, j, Proposal::Exact(swapped.into()));
                self.follow(event, alternative as u32, pause, false, game);
            }
        }
    }

    /// Follows swaps of each shuffle of cards of the stretch, once the seat's worlds have failed
    /// to agree.
    fn follow_card_shuffles(
        &mut self,
        before: &Game,
        step: Option<Step>,
        drawn: &[Drawn],
        pause: usize,
    ) {
        // Each shuffle of cards, once the seat's worlds have failed to agree: every two cards
        // that read differently swapped, followed. A swap the seat never tells apart lets each
        // card lie where the other did; one it tells apart (a clue said otherwise) does not.
        for (j, d) in drawn.iter().enumerate() {
            let Drawn::Shuffle { output, .. } = d else {
                continue;
            };
            if !self.follow_deals
                || !output
                    .iter()
                    .all(|v| matches!(v, crate::ir::Value::Entity(_)))
            {
                continue;
            }
            let reads: Vec<u64> = output.iter().map(|v| before.reads_as(v)).collect();
            let mut pairs = Vec::new();
            let mut complete = true;
            'pairs: for a in 0..output.len() {
                for b in a + 1..output.len() {
                    if reads[a] == reads[b] {
                        continue;
                    }
                    if pairs.len() >= MAX_DEAL_SHADOWS {
                        complete = false;
                        break 'pairs;
                    }
                    pairs.push((a as u32, b as u32));
                }
            }
            let event = self.events.len();
            self.events.push(Event {
                pause,
                kind: EventKind::Deal { draw: j, complete },
                ruled_out: Vec::new(),
            });
            for (alternative, &(a, b)) in pairs.iter().enumerate() {
                let mut swapped = output.to_vec();
                swapped.swap(a as usize, b as usize);
                let game = shadow_of(before, step, j, Proposal::Exact(swapped.into()));
                self.follow(event, alternative as u32, pause, true, game);
            }
            self.deal_pairs.push((event, pairs));
        }
    }

    /// Rules out, at the pause just reached, every shadow the seat would tell from `real`.
    fn rule_out_shadows(&mut self, real: &Game, pause: usize) {
        let seat = self.seat;
        let mut differences = Vec::new();
        // Every shadow at this pause: ruled out where the seat would see a difference.
        let mut kept = Vec::with_capacity(self.shadows.len());
        for s in std::mem::take(&mut self.shadows) {
            if s.reached != pause + 1 {
                continue;
            }
            s.game.seen_differences(real, seat, true, &mut differences);
            if !differences.is_empty() {
                let at = differences.iter().map(|k| (pause, *k)).collect();
                self.events[s.event].ruled_out.push((s.alternative, at));
            } else if pause - self.events[s.event].pause < SHADOW_PAUSES {
                kept.push(s);
            }
        }
        self.shadows = kept;
    }

    /// What every pause's draws and moves take in an imagined game, from what the seat has ruled
    /// out so far: a shuffle of cards is dealt again as the real one, relabelled; a die, the
    /// faces not ruled out, where each face ruled out showed in a place no other hidden event
    /// touched (else two of them together, a sum, may look the same with other values each, and
    /// the die is not known alone); another seat's move, the real one once every other was
    /// ruled out so; anything else is drawn afresh.
    fn settle(&mut self) {
        // Where every ruled-out alternative of an event showed: the places that tell it.
        let telling = self.telling();
        // How many events each place tells.
        let mut tells: HashMap<(usize, u64), u32> = HashMap::new();
        for places in &telling {
            for p in places {
                *tells.entry(*p).or_default() += 1;
            }
        }
        self.propose_deals();
        self.propose_plain_shuffles();
        self.match_deals();
        for (e, places) in self.events.iter().zip(&telling) {
            // An alternative is ruled out soundly where it showed at a place that tells no other
            // event whole: a place every alternative of two events changes (a sum of two secret
            // dice) tells neither alone, while a place another event's alternative changes on
            // the way (a card it no longer holds) still tells this one.
            let sound = |at: &Vec<(usize, u64)>| {
                at.iter().any(|p| {
                    let others = tells.get(p).copied().unwrap_or(0)
                        - u32::from(places.binary_search(p).is_ok());
                    p.1 != u64::MAX && others == 0
                })
            };
            let alone = e.ruled_out.iter().all(|(_, at)| sound(at));
            if e.ruled_out.is_empty() || !alone {
                continue;
            }
            match e.kind {
                // A draw among more values than are followed (a `random` of a wide range)
                // keeps nearly all of them possible: drawn afresh, no list of them kept.
                EventKind::Die { faces, .. } if faces as usize > FACES_KEPT => {}
                EventKind::Die { draw, face, faces } => {
                    let out: Vec<u32> = e.ruled_out.iter().map(|(f, _)| *f).collect();
                    let same: Vec<u32> = (0..faces).filter(|f| !out.contains(f)).collect();
                    debug_assert!(same.contains(&face));
                    if let Some(p) = self.pauses[e.pause].proposals.get_mut(draw) {
                        *p = Proposal::Among(same);
                    }
                }
                EventKind::Move {
                    whole,
                    alternatives,
                } => {
                    if e.ruled_out.len() >= alternatives {
                        self.pauses[e.pause].known = Some(whole);
                    }
                }
                EventKind::Shuffle { .. } | EventKind::Deal { .. } => {}
            }
        }
    }

    /// For each event, the places where every alternative ruled out showed (none for a
    /// shuffle).
    fn telling(&self) -> Vec<Vec<(usize, u64)>> {
        self.events
            .iter()
            .map(|e| {
                if matches!(e.kind, EventKind::Shuffle { .. } | EventKind::Deal { .. }) {
                    return Vec::new();
                }
                let mut alternatives = e.ruled_out.iter();
                let Some((_, first)) = alternatives.next() else {
                    return Vec::new();
                };
                let mut common: Vec<(usize, u64)> =
                    first.iter().copied().filter(|p| p.1 != u64::MAX).collect();
                common.sort_unstable();
                common.dedup();
                for (_, at) in alternatives {
                    common.retain(|p| at.contains(p));
                }
                common
            })
            .collect()
    }

    /// Every pause's shuffles of cards dealt again as the real one, its cards not accounted for
    /// relabelled; everything else drawn afresh, and no move known yet.
    fn propose_deals(&mut self) {
        let mut deals = self.deals.iter();
        for pause in &mut self.pauses {
            pause.proposals = pause
                .drawn
                .iter()
                .map(|d| match d {
                    Drawn::Shuffle { input, output }
                        if output
                            .iter()
                            .all(|v| matches!(v, crate::ir::Value::Entity(_))) =>
                    {
                        let accounted = deals.next().expect("a deal for every shuffle of cards");
                        let hidden: Vec<crate::ir::Value> = input
                            .iter()
                            .filter(|v| !accounted.contains(v))
                            .cloned()
                            .collect();
                        Proposal::Deal {
                            input: input.clone(),
                            output: output.clone(),
                            hidden: hidden.into(),
                            slots: Vec::new().into(),
                        }
                    }
                    _ => Proposal::Fresh,
                })
                .collect();
            pause.known = None;
        }
    }

    /// Every shuffle of plain values dealt as the real one, but for the positions of the swaps
    /// the seat never told apart.
    fn propose_plain_shuffles(&mut self) {
        // A swap never followed counts as not told apart: those values are drawn again, and a
        // world that shows them otherwise is drawn again.
        for e in &self.events {
            let EventKind::Shuffle { draw } = e.kind else {
                continue;
            };
            let Some(Drawn::Shuffle { input, output }) = self.pauses[e.pause].drawn.get(draw)
            else {
                continue;
            };
            let told: BTreeSet<u32> = e.ruled_out.iter().map(|(i, _)| *i).collect();
            let mut hidden = BTreeSet::new();
            for (alternative, (i, other)) in swaps(output).into_iter().enumerate() {
                if !told.contains(&(alternative as u32)) {
                    hidden.insert(i as u32);
                    hidden.insert(other as u32);
                }
            }
            let hidden: Vec<u32> = hidden.into_iter().collect();
            let proposal = Proposal::Positions {
                input: input.clone(),
                output: output.clone(),
                hidden: hidden.into(),
            };
            if let Some(p) = self.pauses[e.pause].proposals.get_mut(draw) {
                *p = proposal;
            }
        }
    }
}

impl Imagination {
    /// Shadows other than a deal's swaps: those the caps of dice, moves and plain values count.
    fn plain_shadows(&self) -> usize {
        self.shadows.iter().filter(|s| !s.deal).count()
    }

    /// Each shuffle of cards whose swaps were followed: the positions of its hidden cards, each
    /// with the cards it may hold (those that read as its own card or as a card it was swapped
    /// with untold), for a matching in place of a deal of any card anywhere.
    fn match_deals(&mut self) {
        for (event, pairs) in &self.deal_pairs {
            let e = &self.events[*event];
            let EventKind::Deal { draw, complete } = e.kind else {
                continue;
            };
            if !complete {
                continue;
            }
            let pause = &mut self.pauses[e.pause];
            let game = &pause.game;
            let Some(Proposal::Deal {
                output,
                hidden,
                slots,
                ..
            }) = pause.proposals.get_mut(draw)
            else {
                continue;
            };
            let told: BTreeSet<u32> = e.ruled_out.iter().map(|(i, _)| *i).collect();
            let reads: Vec<u64> = output.iter().map(|v| game.reads_as(v)).collect();
            let is_hidden: Vec<bool> = output
                .iter()
                .map(|v| hidden.binary_search(v).is_ok())
                .collect();
            // What each hidden position may read as.
            let mut may: Vec<BTreeSet<u64>> = reads.iter().map(|&r| BTreeSet::from([r])).collect();
            for (alternative, &(a, b)) in pairs.iter().enumerate() {
                let (a, b) = (a as usize, b as usize);
                if is_hidden[a] && is_hidden[b] && !told.contains(&(alternative as u32)) {
                    may[a].insert(reads[b]);
                    may[b].insert(reads[a]);
                }
            }
            let hidden_reads: Vec<u64> = hidden.iter().map(|v| game.reads_as(v)).collect();
            let matched: Vec<(u32, Vec<u32>)> = (0..output.len())
                .filter(|&p| is_hidden[p])
                .map(|p| {
                    let cards = (0..hidden.len() as u32)
                        .filter(|&c| may[p].contains(&hidden_reads[c as usize]))
                        .collect();
                    (p as u32, cards)
                })
                .collect();
            *slots = matched.into();
        }
    }

    /// A card seen: accounted for in its latest shuffle.
    fn account(&mut self, v: crate::ir::Value) {
        if let Some(&deal) = self.latest.get(&v) {
            self.deals[deal].insert(v);
        }
    }
}

/// The swaps that tell which positions of a shuffle of plain values the seat saw: each
/// position with the nearest position after it and the nearest before it (going round) of every
/// other value, each pair once. A position whose swaps are all told apart was seen; one with a
/// swap never told apart was not, nor its partner (a value seen only in part, a clue's
/// "high", still leaves a swap within the clue untold).
pub(super) fn swaps(output: &[crate::ir::Value]) -> Vec<(usize, usize)> {
    let n = output.len();
    let mut pairs = BTreeSet::new();
    for i in 0..n {
        let mut after: Vec<&crate::ir::Value> = Vec::new();
        let mut before: Vec<&crate::ir::Value> = Vec::new();
        for k in 1..n {
            let j = (i + k) % n;
            if output[j] != output[i] && !after.contains(&&output[j]) {
                after.push(&output[j]);
                pairs.insert((i.min(j), i.max(j)));
            }
            let j = (i + n - k) % n;
            if output[j] != output[i] && !before.contains(&&output[j]) {
                before.push(&output[j]);
                pairs.insert((i.min(j), i.max(j)));
            }
        }
    }
    pairs.into_iter().collect()
}

/// The stretch from `before` by `step` (the run to the first pause without one) played again
/// with draw `j` taking `proposal` and the draws before it as they were; `None` if the rules
/// fail that way (an alternative the seat would have seen).
fn shadow_of(before: &Game, step: Option<Step>, j: usize, proposal: Proposal) -> Option<Game> {
    let mut game = before.clone();
    if let Some(r) = game.replay.as_mut() {
        r.chance.proposals = vec![Proposal::Own; j];
        r.chance.proposals.push(proposal);
    }
    let ran = match step {
        None => game.run().is_ok(),
        Some(s) => game.play(s.seat, s.index as usize).is_ok(),
    };
    ran.then_some(game)
}

/// A replay ready for its next stretch: the game's own stream, nothing drawn or read yet.
fn chance_reset(g: &mut Game) {
    if let Some(r) = g.replay.as_mut() {
        r.chance.drawn.clear();
        r.chance.proposals.clear();
        r.read.clear();
    }
}

/// Takes in a shadow the move the real game took: the same move if it has it, else one that
/// reads the same to the seat; false if it has neither (it cannot be followed further).
fn follow(g: &mut Game, mover: u8, whole: u64, key: u64, seat: u8) -> bool {
    let n = g.option_count(mover);
    let index = (0..n)
        .find(|&i| g.option_key(mover, i) == Some(whole))
        .or_else(|| (0..n).find(|&i| g.public_key(mover, i, seat) == Some(key)));
    match index {
        Some(i) => g.play(mover, i).is_ok(),
        None => false,
    }
}
