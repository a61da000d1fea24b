//! The report of a batch of simulated games, computed from its records in game order so that it
//! is the same whatever the thread count or sharding. Serialized as the `meeple-sim/1` JSON
//! document (see `docs/sim.md`); rendered as text by [`super::text`].

use super::choices::Choices;
use super::clamps::{clamped, ClampSite, Clamped};
use super::coverage::{never_ran, RuleBlock};
pub use super::outcomes::{GoalCount, GoalReport};
use super::run::{Counts, GameRecord, Shard};
use super::sites::Site;
use super::stats::{mean, median, percentile, sorted, Proportion};
use crate::engine::Limits;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The schema name of the JSON document.
pub const SCHEMA: &str = "meeple-sim/1";

/// What was simulated: everything a report says besides its statistics.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// The game's title.
    pub game: String,
    /// The variants applied, by title.
    pub variants: Vec<String>,
    /// The rules file, as given on the command line.
    pub file: String,
    /// The `--variant` files, as given.
    pub variant_files: Vec<String>,
    /// Seats at the table.
    pub players: u8,
    /// Seat names, in seat order.
    pub seats: Vec<String>,
    /// The bot of each seat, by kind name.
    pub bots: Vec<String>,
    /// The seed of game 0; game `i` uses `seed + i`.
    pub seed: u64,
    /// Games in the whole batch.
    pub games: u64,
    /// The shard this report covers, if only one.
    pub shard: Option<Shard>,
    /// Every action of the program, in program order.
    pub action_names: Vec<String>,
    /// Decisions a game could take before it failed with `decision-limit` (`--max-decisions`;
    /// documents written before the option was read as having the default).
    #[serde(default = "default_max_decisions")]
    pub max_decisions: u64,
    /// Every `choose`, `ask` and `secretly` statement of the program, in source order
    /// (documents written before these were counted have none).
    #[serde(default)]
    pub decision_sites: Vec<Site>,
    /// Every non-empty block of statements other than actions' bodies, in source order, named
    /// by its first statement (documents written before blocks were counted have none).
    #[serde(default)]
    pub rule_blocks: Vec<RuleBlock>,
    /// Every assignment to a variable declared with bounds (`int in lo..hi`), in source
    /// order: the places where a number may be clamped (documents written before clamps were
    /// counted have none).
    #[serde(default)]
    pub clamp_sites: Vec<ClampSite>,
    /// What the rules' `goal` is: one value shared by every seat, or each seat's own; `None`
    /// without a goal (the bots play to win).
    #[serde(default)]
    pub goal: Option<GoalKind>,
}

/// What a declared `goal` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GoalKind {
    /// It reads no seat: every seat plays for one value, together.
    Shared,
    /// Each seat plays for its own value.
    Seat,
}

/// The engine's decision limit, which `--max-decisions` replaces.
pub fn default_max_decisions() -> u64 {
    Limits::default().decisions as u64
}

impl Meta {
    /// The `--bots` value that gives every seat its bot: `random`, or `1=random,2=...`.
    pub fn bots_spec(&self) -> String {
        match self.bots.first() {
            Some(first) if self.bots.iter().all(|b| b == first) => first.clone(),
            _ => self
                .bots
                .iter()
                .enumerate()
                .map(|(i, b)| format!("{}={b}", i + 1))
                .collect::<Vec<_>>()
                .join(","),
        }
    }

    /// The command that replays game `seed` with a full log: `meeple play FILE ... --bots ...`.
    pub fn reproduce(&self, seed: u64) -> String {
        let mut cmd = format!("meeple play {}", shell_word(&self.file));
        for v in &self.variant_files {
            cmd.push_str(&format!(" --variant {}", shell_word(v)));
        }
        cmd.push_str(&format!(
            " --players {} --seed {seed} --bots {}",
            self.players,
            self.bots_spec()
        ));
        if self.max_decisions != default_max_decisions() {
            cmd.push_str(&format!(" --max-decisions {}", self.max_decisions));
        }
        cmd
    }
}

/// A word quoted for a POSIX shell if it needs quoting.
fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// How often one seat was put out of the game, and when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatOut {
    /// The seat's name.
    pub seat: String,
    /// Finished games in which it was put out, out of the finished games, with the 95% Wilson
    /// interval.
    pub out: Proportion,
    /// Decisions taken before it went out, on average over those games (0 when never out).
    pub mean_decisions: f64,
}

/// One seat's wins.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatWins {
    /// The seat's name.
    pub seat: String,
    /// Games it won alone, out of the finished games, with the 95% Wilson interval.
    pub win: Proportion,
    /// Games whose win it shared with other seats.
    pub shared: u64,
}

/// Seat 1's win rate against an even share.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FirstSeat {
    /// Seat 1's name.
    pub seat: String,
    /// Its sole wins out of the finished games, with the 95% Wilson interval.
    pub win: Proportion,
    /// `1 / players`: the rate of a seat with no advantage, if every game had one winner.
    pub expected: f64,
    /// `win.rate - expected`.
    pub difference: f64,
}

/// How many games ended one way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    /// The `end game` reason, or `null` for a normal end (the flow ran out).
    pub reason: Option<String>,
    /// Games that ended so.
    pub games: u64,
}

/// Game length in decisions, over the finished games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Length {
    /// The mean.
    pub mean: f64,
    /// The median.
    pub median: f64,
    /// The 5th percentile (nearest rank).
    pub p5: f64,
    /// The 95th percentile (nearest rank).
    pub p95: f64,
    /// The shortest game.
    pub min: u64,
    /// The longest game.
    pub max: u64,
}

/// One seat's final scores over the finished games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatScores {
    /// The seat's name.
    pub seat: String,
    /// The mean score.
    pub mean: f64,
    /// The lowest.
    pub min: i64,
    /// The highest.
    pub max: i64,
}

/// The winner's lead over the best non-winner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Margin {
    /// Finished games with at least one winner and one non-winner.
    pub games: u64,
    /// The mean margin.
    pub mean: f64,
    /// The median margin.
    pub median: f64,
}

/// How often one action was taken.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActionCount {
    /// The action's name.
    pub name: String,
    /// Times taken, over every game played.
    pub taken: u64,
    /// `taken` over all turns taken.
    pub share: f64,
}

/// Legal options per decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Branching {
    /// Decisions taken, over every game played.
    pub decisions: u64,
    /// Mean legal options per decision.
    pub mean: f64,
    /// The most options any decision had.
    pub max: u64,
}

/// A game in which a rule failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureReport {
    /// The game's index in the batch.
    pub index: u64,
    /// Its seed.
    pub seed: u64,
    /// The decision that failed, counting from 1 (0: the game could not start).
    pub decision: u64,
    /// The error's code.
    pub code: String,
    /// The error's message.
    pub message: String,
    /// The failing rule, `file:line:column`.
    pub at: String,
    /// The command that replays the game with its full log.
    pub reproduce: String,
}

/// Every statistic of a batch, in the order of the JSON document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Always [`SCHEMA`].
    pub schema: String,
    /// What was simulated.
    #[serde(flatten)]
    pub meta: Meta,
    /// Games played in this report (the shard's, or all).
    pub played: u64,
    /// Games that reached their end.
    pub finished: u64,
    /// Games in which a rule failed.
    pub failed: u64,
    /// Each seat's wins.
    pub wins: Vec<SeatWins>,
    /// Finished games won by two seats or more.
    pub shared_wins: u64,
    /// Finished games nobody won.
    pub nobody_wins: u64,
    /// Seat 1 against an even share (absent with no finished game).
    pub first_seat: Option<FirstSeat>,
    /// How the finished games ended, most frequent first.
    pub endings: Vec<Ending>,
    /// Game length in decisions.
    pub length: Length,
    /// Each seat's scores.
    pub scores: Vec<SeatScores>,
    /// The winner's margin over the runner-up.
    pub margin: Margin,
    /// Every action of the program with how often it was taken, in program order.
    pub actions: Vec<ActionCount>,
    /// The actions never taken in any game played.
    pub never_taken: Vec<String>,
    /// Which option each decision statement was answered with, and the statements never asked.
    #[serde(default)]
    pub choices: Choices,
    /// In how many games each of `rule_blocks` ran, over every game played.
    #[serde(default)]
    pub blocks_run: Vec<u64>,
    /// The blocks that ran in no game, each by its first statement, leaving out those inside
    /// a block that never ran either.
    #[serde(default)]
    pub never_ran: Vec<Site>,
    /// The assignments that held a number to its variable's bounds in some game, in source
    /// order, with how often and in how many games.
    #[serde(default)]
    pub clamps: Vec<Clamped>,
    /// Legal options per decision.
    pub branching: Branching,
    /// Every game in which a rule failed, in game order.
    pub failures: Vec<FailureReport>,
    /// Games the bots imagined from their seats' views, over every game played.
    #[serde(default)]
    pub imagined: Imagined,
    /// The goals reached at the end of the finished games, where the rules declare a goal.
    #[serde(default)]
    pub goals: Option<GoalReport>,
    /// How often each seat was put out of the game (`eliminate`) in the finished games, and
    /// when; empty when no finished game put anyone out.
    #[serde(default)]
    pub eliminations: Vec<SeatOut>,
    /// The per-game records, kept in shard files for `meeple sim merge`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub records: Option<Vec<GameRecord>>,
}

/// Each of `players` seats' wins over the finished games, alone and shared; then the wins
/// by one seat alone, the games won by several, and those nobody won.
fn wins(
    seats: &[String],
    players: usize,
    finished: &[&GameRecord],
) -> (Vec<SeatWins>, u64, u64, u64) {
    let mut sole = vec![0u64; players];
    let mut shared = vec![0u64; players];
    let (mut shared_wins, mut nobody_wins) = (0, 0);
    for r in finished {
        match r.winners.as_slice() {
            [] => nobody_wins += 1,
            [w] => sole[*w as usize] += 1,
            many => {
                shared_wins += 1;
                for w in many {
                    shared[*w as usize] += 1;
                }
            }
        }
    }
    let wins: Vec<SeatWins> = (0..players)
        .map(|p| SeatWins {
            seat: seats[p].clone(),
            win: Proportion::new(sole[p], finished.len() as u64),
            shared: shared[p],
        })
        .collect();
    let sole_wins = sole.iter().sum();
    (wins, sole_wins, shared_wins, nobody_wins)
}

/// The reasons the finished games ended, each with its number of games, most first.
fn endings(seats: &[String], finished: &[&GameRecord]) -> Vec<Ending> {
    let mut by_reason: BTreeMap<Option<String>, u64> = BTreeMap::new();
    for r in finished {
        *by_reason.entry(r.reason.clone()).or_default() += 1;
    }
    let mut endings: Vec<Ending> = super::outcomes::group_endings(by_reason, seats)
        .into_iter()
        .map(|(reason, games)| Ending { reason, games })
        .collect();
    endings.sort_by_key(|e| std::cmp::Reverse(e.games));
    endings
}

/// How many decisions the finished games took.
fn length(finished: &[&GameRecord]) -> Length {
    let lengths = sorted(finished.iter().map(|r| r.decisions as f64).collect());
    Length {
        mean: mean(&lengths),
        median: median(&lengths),
        p5: percentile(&lengths, 5.0),
        p95: percentile(&lengths, 95.0),
        min: finished.iter().map(|r| r.decisions).min().unwrap_or(0),
        max: finished.iter().map(|r| r.decisions).max().unwrap_or(0),
    }
}

/// The scores of each of `players` seats over the finished games, in seat order.
fn seat_scores(seats: &[String], players: usize, finished: &[&GameRecord]) -> Vec<SeatScores> {
    (0..players)
        .map(|p| {
            let s: Vec<i64> = finished
                .iter()
                .filter_map(|r| r.scores.get(p).copied())
                .collect();
            SeatScores {
                seat: seats[p].clone(),
                mean: mean(&s.iter().map(|v| *v as f64).collect::<Vec<_>>()),
                min: s.iter().copied().min().unwrap_or(0),
                max: s.iter().copied().max().unwrap_or(0),
            }
        })
        .collect()
}

/// How often each action was taken over every game played, and its share of all.
fn action_counts(names: &[String], records: &[GameRecord]) -> Vec<ActionCount> {
    let mut taken = vec![0u64; names.len()];
    for r in records {
        for (t, c) in taken.iter_mut().zip(&r.actions) {
            *t = t.saturating_add(*c);
        }
    }
    let turns = taken.iter().fold(0u64, |n, t| n.saturating_add(*t));
    names
        .iter()
        .zip(&taken)
        .map(|(name, t)| ActionCount {
            name: name.clone(),
            taken: *t,
            share: if turns == 0 {
                0.0
            } else {
                *t as f64 / turns as f64
            },
        })
        .collect()
}

/// Legal options per decision over every game played.
fn branching(records: &[GameRecord]) -> Branching {
    // Saturating: a merged batch's counts come from files, checked but large.
    let decisions = records
        .iter()
        .fold(0u64, |n, r| n.saturating_add(r.decisions));
    let options = records
        .iter()
        .fold(0u64, |n, r| n.saturating_add(r.options));
    Branching {
        decisions,
        mean: if decisions == 0 {
            0.0
        } else {
            options as f64 / decisions as f64
        },
        max: records.iter().map(|r| r.max_options).max().unwrap_or(0),
    }
}

/// Every game in which a rule failed, in game order, with the command that plays it again.
fn failures(meta: &Meta, records: &[GameRecord]) -> Vec<FailureReport> {
    records
        .iter()
        .filter_map(|r| {
            let f = r.failure.as_ref()?;
            Some(FailureReport {
                index: r.index,
                seed: r.seed,
                decision: f.decision,
                code: f.code.clone(),
                message: f.message.clone(),
                at: f.at.clone(),
                reproduce: meta.reproduce(r.seed),
            })
        })
        .collect()
}

/// Each seat's eliminations over the finished games, in seat order: empty when none put
/// anyone out.
fn eliminations(seats: &[String], finished: &[&GameRecord]) -> Vec<SeatOut> {
    if finished.iter().all(|r| r.eliminated.is_empty()) {
        return Vec::new();
    }
    let n = finished.len() as u64;
    (0..seats.len())
        .map(|p| {
            let at: Vec<u64> = finished
                .iter()
                .filter_map(|r| r.eliminated.iter().find(|e| usize::from(e.seat) == p))
                .map(|e| e.decisions)
                .collect();
            let mean_decisions = if at.is_empty() {
                0.0
            } else {
                at.iter().map(|d| *d as f64).sum::<f64>() / at.len() as f64
            };
            SeatOut {
                seat: seats[p].clone(),
                out: Proportion::new(at.len() as u64, n),
                mean_decisions,
            }
        })
        .collect()
}

impl Report {
    /// Computes the report of `records`, which must be sorted by game index, and of `counts`:
    /// the options taken at the program's decision statements (by `meta.decision_sites`) and
    /// the blocks run (by `meta.rule_blocks`).
    pub fn new(meta: Meta, records: &[GameRecord], counts: &Counts) -> Report {
        let finished: Vec<&GameRecord> = records.iter().filter(|r| r.finished()).collect();
        let n = finished.len() as u64;
        let players = meta.players as usize;

        let (wins, sole_wins, shared_wins, nobody_wins) = wins(&meta.seats, players, &finished);
        // Without a sole winner in any game (every win shared, or nobody's), seat 1 has no
        // rate of sole wins to hold against an even share: a cooperative game has no verdict.
        let first_seat = (n > 0 && players > 0 && sole_wins > 0).then(|| {
            let expected = 1.0 / players as f64;
            FirstSeat {
                seat: meta.seats[0].clone(),
                win: wins[0].win,
                expected,
                difference: wins[0].win.rate - expected,
            }
        });

        let endings = endings(&meta.seats, &finished);

        let length = length(&finished);

        let scores = seat_scores(&meta.seats, players, &finished);

        let margins = sorted(finished.iter().filter_map(|r| margin(r)).collect());
        let margin = Margin {
            games: margins.len() as u64,
            mean: mean(&margins),
            median: median(&margins),
        };

        let actions = action_counts(&meta.action_names, records);
        let never_taken = actions
            .iter()
            .filter(|a| a.taken == 0)
            .map(|a| a.name.clone())
            .collect();

        let choices = Choices::new(&meta.decision_sites, &counts.choices);
        let mut blocks_run = counts.blocks.clone();
        blocks_run.resize(meta.rule_blocks.len(), 0);
        let taken: Vec<u64> = actions.iter().map(|a| a.taken).collect();
        let never_ran = never_ran(&meta.rule_blocks, &blocks_run, &taken);
        let clamps = clamped(&meta.clamp_sites, &counts.clamps);

        let branching = branching(records);

        let failures = failures(&meta, records);

        let goal_kind = meta.goal;
        let meta_seats = meta.seats.clone();
        Report {
            schema: SCHEMA.to_string(),
            played: records.len() as u64,
            finished: n,
            failed: failures.len() as u64,
            meta,
            wins,
            shared_wins,
            nobody_wins,
            first_seat,
            endings,
            length,
            scores,
            margin,
            actions,
            never_taken,
            choices,
            blocks_run,
            never_ran,
            clamps,
            branching,
            failures,
            imagined: Imagined {
                games: records.iter().map(|r| r.imagined).sum(),
                fallbacks: records.iter().map(|r| r.fallbacks).sum(),
                approximate: records.iter().map(|r| r.approximate).sum(),
            },
            goals: super::outcomes::goal_report(goal_kind, &finished),
            eliminations: eliminations(&meta_seats, &finished),
            records: None,
        }
    }

    /// Pretty JSON ending in a newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}

/// How the bots' imagined games went (docs/bots.md): how many were drawn from what a seat saw,
/// and how many of those could not be made to agree with all of it in the budget.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Imagined {
    /// Imagined games drawn.
    pub games: u64,
    /// Of those, the ones that agree with what the seat saw only up to a point.
    pub fallbacks: u64,
    /// Of those, the ones that agree with it but were found by drawing a stretch again, so
    /// weighed only roughly.
    #[serde(default)]
    pub approximate: u64,
}

/// The best winner's score minus the best non-winner's, if the game has both.
pub(crate) fn margin(r: &GameRecord) -> Option<f64> {
    let best = |winning: bool| {
        r.scores
            .iter()
            .enumerate()
            .filter(|(p, _)| r.winners.contains(&(*p as u8)) == winning)
            .map(|(_, s)| *s)
            .max()
    };
    // In 128 bits: scores span the whole of i64, and so may their difference.
    Some((i128::from(best(true)?) - i128::from(best(false)?)) as f64)
}
