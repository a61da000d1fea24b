//! Playing a batch of games on the fast path, on every core: game `i` uses seed `S + i`, and
//! each game leaves one small [`GameRecord`]. Records come back in game order whatever the
//! number of threads, so everything computed from them is the same for any thread count.

use super::choices::{decision_spans, ChoiceTotals, Tally};
use super::clamps::{clamp_statements, ClampCount, ClampTally};
use super::coverage::rule_block_ids;
use crate::bots::{BotKind, Policy};
use crate::engine::GameSettings;
use crate::engine::{Game, MoveError, RuntimeError, Start};
use crate::ir::BlockId;
use crate::ir::Program;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

/// One shard of a batch: the games whose index `i` has `i % count == index - 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, counting from 1.
    pub index: u64,
    /// How many shards the batch is cut into.
    pub count: u64,
}

impl Shard {
    /// Parses `K/N` with `1 <= K <= N`.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("`{s}` is not K/N (for example 3/8)"))?;
        let number = |t: &str| {
            t.trim()
                .parse::<u64>()
                .map_err(|_| format!("`{t}` in `{s}` is not a whole number"))
        };
        let (index, count) = (number(k)?, number(n)?);
        if count == 0 || index == 0 || index > count {
            return Err(format!(
                "shard `{s}` must have 1 <= K <= N (shards count from 1)"
            ));
        }
        Ok(Shard { index, count })
    }

    /// True if game `i` (0-based) belongs to this shard.
    pub fn contains(self, i: u64) -> bool {
        i % self.count == self.index - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The most games one batch plays: every game's record is kept for the report (some of its
/// statistics, medians and paired differences, need them all), about 300 bytes a game, so a
/// batch stays within a few hundred megabytes. More is refused, not attempted.
pub const MAX_GAMES: u64 = 1_000_000;

/// The highest `--max-decisions`: far past any game's length, and small enough that the
/// decisions of [`MAX_GAMES`] games add up without overflow.
pub const MAX_DECISIONS: u64 = 1_000_000_000;

/// What to play: `games` games of `players` seats from seed `seed` on, each seat by its bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    /// Seats at the table.
    pub players: u8,
    /// Games in the whole batch (all shards together).
    pub games: u64,
    /// The seed of game 0; game `i` uses `seed + i` (wrapping).
    pub seed: u64,
    /// The bot of each seat, in seat order.
    pub bots: Vec<BotKind>,
    /// Play only this shard of the games, if set.
    pub shard: Option<Shard>,
    /// Decisions a game may take; the next one fails it with `decision-limit`
    /// ([`Limits::decisions`] unless `--max-decisions` says otherwise).
    pub max_decisions: u64,
}

impl Batch {
    /// How many games this batch plays (its shard's, or all).
    pub fn len(&self) -> u64 {
        match self.shard {
            None => self.games,
            Some(s) => (self.games + s.count - s.index) / s.count,
        }
    }

    /// True if the batch plays no game.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index in the whole batch of the `j`-th game this batch plays.
    pub fn game(&self, j: u64) -> u64 {
        match self.shard {
            None => j,
            Some(s) => s.index - 1 + j * s.count,
        }
    }

    /// The indices of the games this batch plays, in order.
    pub fn indices(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.len()).map(|j| self.game(j))
    }

    /// The seed of game `i`.
    pub fn seed_of(&self, i: u64) -> u64 {
        self.seed.wrapping_add(i)
    }
}

/// A rule that failed while a game ran: where in the game and where in the rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// The decision being played when it failed, counting from 1 (0: the game could not start).
    pub decision: u64,
    /// The error's kebab-case code, such as `out-of-range`.
    pub code: String,
    /// What went wrong.
    pub message: String,
    /// The rule that was running, as `file:line:column`.
    pub at: String,
}

/// What one game left behind: enough to compute every statistic of a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's index in the batch, from 0.
    pub index: u64,
    /// Its seed.
    pub seed: u64,
    /// Decisions taken (in a failed game, before the failing one).
    pub decisions: u64,
    /// Legal options summed over those decisions.
    pub options: u64,
    /// The most legal options of any one decision.
    pub max_options: u64,
    /// Winning seats, 0-based; empty when nobody won or the game failed.
    pub winners: Vec<u8>,
    /// Each seat's final score; empty when the game failed.
    pub scores: Vec<i64>,
    /// The reason of the `end game` that ended it, if one did.
    pub reason: Option<String>,
    /// How many times each action of the program was taken, in program order.
    pub actions: Vec<u64>,
    /// The rule that failed, if one did.
    pub failure: Option<Failure>,
    /// Games the bots imagined from their seats' views (docs/bots.md), and how many of them
    /// could not be made to agree with everything the seat saw.
    #[serde(default)]
    pub imagined: u64,
    /// Of the games imagined, those that agree with what the seat saw only in part.
    #[serde(default)]
    pub fallbacks: u64,
    /// Of the games imagined, those that agree with what the seat saw but were found by
    /// drawing a stretch again, so weighed only roughly (docs/bots.md).
    #[serde(default)]
    pub approximate: u64,
    /// Each seat's `goal` at the end, where the rules declare one; empty otherwise, or when
    /// the game failed.
    #[serde(default)]
    pub goals: Vec<i64>,
    /// The seats put out of the game (`eliminate`), in the order they went out.
    #[serde(default)]
    pub eliminated: Vec<Elimination>,
}

/// A seat put out of the game, and when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Elimination {
    /// The seat, 0-based.
    pub seat: u8,
    /// Decisions taken before it went out.
    pub decisions: u64,
}

impl GameRecord {
    /// True if the game reached its end (no rule failed).
    pub fn finished(&self) -> bool {
        self.failure.is_none()
    }
}

/// One game in this many has its invariants checked after every decision (game `i` when
/// `i % INVARIANT_SAMPLE == 0`); every other game has them checked at its end, and played
/// again, checked throughout, when one is broken there. Checking after every decision of every
/// game made a batch 2 to 18 times slower (docs/sim.md).
pub const INVARIANT_SAMPLE: u64 = 100;

/// The games one worker plays: their start, prepared once for the batch ([`Start`]), and the
/// last game played, whose buffers the next one reuses. Game `i` started here is the game
/// [`GameSettings::start`] starts with its seed, byte for byte.
pub struct Starter {
    /// The start of every game, or why none can start (the same for every seed).
    start: Result<Start, RuntimeError>,
    /// The game played last, started again for the next seed.
    game: Option<Game>,
}

impl Starter {
    /// Prepares the games of `batch`: each on the fast path, noting the blocks it runs and its
    /// clamps, and keeping its trail when a bot imagines the game from what its seat saw.
    pub fn new(program: &Arc<Program>, batch: &Batch) -> Starter {
        let mut settings =
            GameSettings::playout(batch.players, 0).max_decisions(batch.max_decisions);
        settings.mode = settings.mode.with_coverage();
        // Bots that imagine the game from what their seat saw need the game's trail.
        if batch.bots.iter().any(|b| b.imagines()) {
            settings.mode = settings.mode.with_trail();
        }
        Starter {
            start: settings.prepare(program.clone()),
            game: None,
        }
    }

    /// The game of `seed` at its first decision, its invariants checked after every decision
    /// if `invariants`.
    fn restart(&mut self, seed: u64, invariants: bool) -> Result<&mut Game, RuntimeError> {
        let start = self.start.as_ref().map_err(Clone::clone)?;
        match &mut self.game {
            Some(game) => start.restart(game, seed, invariants)?,
            None => self.game = Some(start.game(seed, invariants)?),
        }
        Ok(self.game.as_mut().expect("a game was just started"))
    }

    /// The game of `seed` as a game of its own, checked after every decision: to play a game
    /// again beside the one in hand.
    fn fresh(&self, seed: u64) -> Result<Game, RuntimeError> {
        self.start.as_ref().map_err(Clone::clone)?.game(seed, true)
    }
}

/// Plays game `index` of `batch` to its end on the fast path and records it, starting it from
/// `starter`, counting the options its decision statements were answered with in `tally`,
/// adding 1 to `ran` (by block id) for each block of statements the game ran, and its clamps
/// to `clamps`. Its invariants are checked as [`INVARIANT_SAMPLE`] says: a broken one fails
/// the game, at the decision that broke it.
pub fn play_game(
    program: &Arc<Program>,
    batch: &Batch,
    index: u64,
    starter: &mut Starter,
    tally: &mut Tally<'_>,
    ran: &mut [u64],
    clamps: &mut ClampTally<'_>,
) -> GameRecord {
    let seed = batch.seed_of(index);
    let mut record = GameRecord {
        index,
        seed,
        decisions: 0,
        options: 0,
        max_options: 0,
        winners: Vec::new(),
        scores: Vec::new(),
        reason: None,
        actions: vec![0; program.actions.len()],
        failure: None,
        imagined: 0,
        fallbacks: 0,
        approximate: 0,
        goals: Vec::new(),
        eliminated: Vec::new(),
    };
    let sampled = index % INVARIANT_SAMPLE == 0;
    let game = match starter.restart(seed, sampled) {
        Ok(g) => g,
        Err(e) => {
            record.failure = Some(failure(program, 0, &e));
            return record;
        }
    };
    play_to_end(program, batch, game, &mut record, tally);
    if record.failure.is_none() && !sampled {
        if let Err(e) = game.check_invariants_now() {
            let again = starter.fresh(seed);
            broken_at_end(program, batch, &mut record, tally, &e, again);
        }
    }
    let Some(game) = starter.game.as_ref() else {
        return record;
    };
    clamps.count(game);
    if let Some(blocks) = game.blocks_run() {
        for (n, r) in ran.iter_mut().zip(blocks) {
            *n += u64::from(*r);
        }
    }
    record
}

/// A game whose invariant was found broken at its end: played again from its seed, checked
/// after every decision (`again`), into a scratch record, to find the decision that broke it.
/// `record` keeps what the game played to its end counted (its actions, choices, blocks run);
/// it fails at that decision, with that check's message, and has no winners nor scores.
fn broken_at_end(
    program: &Program,
    batch: &Batch,
    record: &mut GameRecord,
    tally: &mut Tally<'_>,
    at_end: &RuntimeError,
    again: Result<Game, RuntimeError>,
) {
    let mut replayed = GameRecord {
        actions: vec![0; record.actions.len()],
        ..record.clone()
    };
    replayed.failure = None;
    replayed.decisions = 0;
    if let Ok(mut game) = again {
        play_to_end(
            program,
            batch,
            &mut game,
            &mut replayed,
            &mut tally.scratch(),
        );
    }
    record.failure = match replayed.failure {
        Some(f) if f.code == at_end.code => Some(f),
        // Played again the same way, the game breaks the same invariant; should it not, the
        // check at the end is reported as it was found.
        _ => Some(failure(program, record.decisions, at_end)),
    };
    record.winners.clear();
    record.scores.clear();
    record.reason = None;
    record.goals.clear();
}

/// Plays `game` on to its end, or to a rule that fails, into `record`.
fn play_to_end(
    program: &Program,
    batch: &Batch,
    game: &mut Game,
    record: &mut GameRecord,
    tally: &mut Tally<'_>,
) {
    let seed = record.seed;
    let mut bots: Vec<Box<dyn Policy + Send>> = batch
        .bots
        .iter()
        .enumerate()
        .map(|(seat, kind)| kind.policy(seed, seat as u8))
        .collect();
    play_with(program, &mut bots, game, record, tally);
    for b in &bots {
        let s = b.imagination();
        record.imagined += s.worlds;
        record.fallbacks += s.fallbacks;
        record.approximate += s.approximate;
    }
}

/// Plays `game` on with `bots` (one a seat) into `record`.
fn play_with(
    program: &Program,
    bots: &mut [Box<dyn Policy + Send>],
    game: &mut Game,
    record: &mut GameRecord,
    tally: &mut Tally<'_>,
) {
    while let Some(seat) = game.to_decide() {
        let count = game.option_count(seat);
        let index = bots[seat as usize].decide(game, seat);
        // Looked up before the move, counted once it stands: a move that fails did not happen.
        let action = game.option_action_id(seat, index).map(|a| a.index());
        let choice = tally.entry(game, seat, index);
        let number = record.decisions + 1;
        match game.play(seat, index) {
            Ok(()) => {
                if let Some(a) = action {
                    record.actions[a] += 1;
                }
                if let Some(c) = choice {
                    tally.count(c);
                }
            }
            Err(MoveError::Runtime(e)) => {
                record.failure = Some(failure(program, number, &e));
                return;
            }
            Err(e) => {
                record.failure = Some(Failure {
                    decision: number,
                    code: "refused".into(),
                    message: format!("a bot's move was refused: {e}"),
                    at: game
                        .decision_span()
                        .map_or_else(String::new, |s| location(program, s)),
                });
                return;
            }
        }
        record.decisions = number;
        record.options += count as u64;
        record.max_options = record.max_options.max(count as u64);
    }
    record.eliminated = game
        .eliminated()
        .iter()
        .map(|(seat, decisions)| Elimination {
            seat: *seat,
            decisions: u64::from(*decisions),
        })
        .collect();
    if let Some(o) = game.outcome() {
        record.winners = o.winners.clone();
        record.scores = o.scores.clone();
        record.reason = o.reason.clone();
        if game.goals_now(&mut record.goals).is_err() {
            record.goals.clear();
        }
    }
}

/// `file:line:column` of a span.
fn location(program: &Program, span: crate::diag::Span) -> String {
    let (line, col) = program.sources.line_col(span);
    format!("{}:{line}:{col}", program.sources.file(span.file).name)
}

fn failure(program: &Program, decision: u64, e: &RuntimeError) -> Failure {
    Failure {
        decision,
        code: e.code.to_string(),
        message: e.message.clone(),
        at: location(program, e.span),
    }
}

/// One worker's copy of the program and its counts, which it adds to the batch's sums when it
/// is dropped (when the worker has played its share).
struct Worker<'s> {
    program: Arc<Program>,
    /// Where its games start from.
    starter: Starter,
    tally: Tally<'s>,
    /// Games in which each block of statements ran, by block id.
    ran: Vec<u64>,
    /// The blocks a report looks at, in its order ([`rule_block_ids`]).
    blocks: &'s [BlockId],
    /// The clamps of its games, by assignment ([`clamp_statements`]).
    clamps: ClampTally<'s>,
    sums: &'s Mutex<Counts>,
}

impl Drop for Worker<'_> {
    fn drop(&mut self) {
        let mine = Counts {
            choices: self.tally.totals(),
            blocks: self
                .blocks
                .iter()
                .map(|b| self.ran.get(b.index()).copied().unwrap_or(0))
                .collect(),
            clamps: self.clamps.counts().to_vec(),
        };
        let mut sums = self.sums.lock().unwrap_or_else(PoisonError::into_inner);
        sums.add(&mine);
    }
}

/// What a batch's games added up to besides their records: sums, the same whichever worker
/// played which game.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Counts {
    /// The options taken at each `choose`, `ask` and `secretly`, by site
    /// ([`super::choices::decision_sites`]).
    pub choices: ChoiceTotals,
    /// In how many games each block of statements ran, by [`rule_block_ids`] order.
    pub blocks: Vec<u64>,
    /// How often each assignment to a bounded variable clamped, by [`clamp_statements`] order.
    pub clamps: Vec<ClampCount>,
}

impl Counts {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &Counts) {
        self.choices.add(&other.choices);
        if self.blocks.len() < other.blocks.len() {
            self.blocks.resize(other.blocks.len(), 0);
        }
        for (mine, theirs) in self.blocks.iter_mut().zip(&other.blocks) {
            *mine = mine.saturating_add(*theirs);
        }
        if self.clamps.len() < other.clamps.len() {
            self.clamps
                .resize(other.clamps.len(), ClampCount::default());
        }
        for (mine, theirs) in self.clamps.iter_mut().zip(&other.clamps) {
            mine.add(*theirs);
        }
    }
}

/// What a batch left: one record a game, in game order, and its counts.
#[derive(Debug, Clone, PartialEq)]
pub struct Played {
    /// One record a game, sorted by game index.
    pub records: Vec<GameRecord>,
    /// The options taken and the blocks run, summed over the games.
    pub counts: Counts,
}

/// Plays every game of `batch` on `threads` threads (all cores if `None`), calling `progress`
/// after each game.
pub fn run_batch(
    program: &Arc<Program>,
    batch: &Batch,
    threads: Option<usize>,
    progress: &(dyn Fn() + Sync),
) -> Result<Played, rayon::ThreadPoolBuildError> {
    let sites = decision_spans(program);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()?;
    let blocks = rule_block_ids(program);
    let assignments = clamp_statements(program);
    let sums = Mutex::new(Counts {
        choices: ChoiceTotals::new(sites.len()),
        blocks: vec![0; blocks.len()],
        clamps: vec![ClampCount::default(); assignments.len()],
    });
    let mut records: Vec<GameRecord> = pool.install(|| {
        (0..batch.len())
            .into_par_iter()
            // Each worker plays from its own copy of the program: the engine takes handles to
            // the program as it runs, and one reference count written from every core made two
            // threads barely faster than one (measured: 1.42× against 1.77×). It counts its
            // games' answers in one tally, added to the sums when it is done: sums, the same
            // whichever worker played which game.
            .map_init(
                || {
                    let own = Arc::new(Program::clone(program));
                    Worker {
                        starter: Starter::new(&own, batch),
                        program: own,
                        tally: Tally::new(&sites),
                        ran: vec![0; program.blocks.len()],
                        blocks: &blocks,
                        clamps: ClampTally::new(&assignments),
                        sums: &sums,
                    }
                },
                |w, j| {
                    let r = play_game(
                        &w.program,
                        batch,
                        batch.game(j),
                        &mut w.starter,
                        &mut w.tally,
                        &mut w.ran,
                        &mut w.clamps,
                    );
                    progress();
                    r
                },
            )
            .collect()
    });
    let counts = sums.into_inner().unwrap_or_else(PoisonError::into_inner);
    records.sort_by_key(|r| r.index);
    Ok(Played { records, counts })
}
