//! `meeple sim A --against B`: two batches played on the same seeds, and every statistic of
//! their reports side by side with the difference `B − A` and its 95% interval. Serialized as the
//! `meeple-sim-compare/1` JSON document (see `docs/sim.md`); rendered as text by
//! [`super::text_compare::render_comparison`].
//!
//! Rates (win rates, shared and nobody wins, endings, failures) are differences of two
//! proportions with Newcombe's hybrid score interval built from the two Wilson intervals; means
//! (length, scores, margin) are differences of two means with Welch's normal approximation.
//! Both treat the batches as independent samples: the same seeds do not pair the games, since
//! different rules make different games of them. The choices made and the rules never run are
//! compared statement by statement ([`super::compare_sites`]).

use super::compare_clamps::{compare_clamps, ClampCompared};
use super::compare_sites::{
    compare_choices, compare_never_ran, Blocks, ChoicesCompared, NeverRanCompared,
};
use super::report::{margin, Report};
use super::run::GameRecord;
use super::stats::{mean, newcombe, welch, Z95};
use serde::{Deserialize, Serialize};

/// The schema name of the comparison JSON document.
pub const COMPARE_SCHEMA: &str = "meeple-sim-compare/1";

/// How rates are compared, as named in the JSON document.
pub const RATES_METHOD: &str = "newcombe-hybrid-wilson";
/// How means are compared, as named in the JSON document.
pub const MEANS_METHOD: &str = "welch-normal";

/// One statistic of A and of B, their difference `b − a` and its 95% interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    /// The statistic in batch A (a rate from 0 to 1, or a mean).
    pub a: f64,
    /// The statistic in batch B.
    pub b: f64,
    /// `b − a`.
    pub difference: f64,
    /// Lower end of the 95% interval of the difference; `null` when it is unknown (a mean over
    /// fewer than two games).
    pub low: Option<f64>,
    /// Upper end of the 95% interval of the difference; `null` when it is unknown.
    pub high: Option<f64>,
    /// True when the interval excludes 0: A and B differ beyond chance (at 95%, one statistic
    /// at a time).
    pub significant: bool,
}

impl Difference {
    fn new(a: f64, b: f64, interval: Option<(f64, f64)>) -> Difference {
        let (low, high) = match interval {
            Some((l, h)) => (Some(l), Some(h)),
            None => (None, None),
        };
        Difference {
            a,
            b,
            difference: b - a,
            low,
            high,
            significant: interval.is_some_and(|(l, h)| l > 0.0 || h < 0.0),
        }
    }

    /// `ka` of `na` in A against `kb` of `nb` in B, with Newcombe's interval.
    pub fn rates(ka: u64, na: u64, kb: u64, nb: u64) -> Difference {
        let rate = |k: u64, n: u64| if n == 0 { 0.0 } else { k as f64 / n as f64 };
        Difference::new(
            rate(ka, na),
            rate(kb, nb),
            Some(newcombe((ka, na), (kb, nb), Z95)),
        )
    }

    /// The mean of `a` against the mean of `b`, with Welch's interval.
    pub fn means(a: &[f64], b: &[f64]) -> Difference {
        Difference::new(mean(a), mean(b), welch(a, b, Z95))
    }
}

/// A difference for one seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatDifference {
    /// The seat's name (`A-name/B-name` when the two games name it differently).
    pub seat: String,
    /// The statistic of that seat.
    #[serde(flatten)]
    pub difference: Difference,
}

/// The share of finished games that ended one way, in A and in B.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EndingDifference {
    /// The `end game` reason, or `null` for a normal end.
    pub reason: Option<String>,
    /// The share of finished games that ended so.
    #[serde(flatten)]
    pub difference: Difference,
}

/// An action's share of all turns in A and in B (no interval: the turns of one game are not
/// independent trials).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActionShares {
    /// The action's name.
    pub name: String,
    /// Its share of A's turns, or `null` if A's rules have no such action.
    pub a: Option<f64>,
    /// Its share of B's turns, or `null` if B's rules have no such action.
    pub b: Option<f64>,
}

/// Legal options per decision in A and in B (no interval, as for actions).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BranchingPair {
    /// A's mean legal options per decision.
    pub a: f64,
    /// B's.
    pub b: f64,
    /// `b − a`.
    pub difference: f64,
}

/// Every difference between two reports, in the order of the JSON document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// How rates are compared: always [`RATES_METHOD`].
    pub rates_method: String,
    /// How means are compared: always [`MEANS_METHOD`].
    pub means_method: String,
    /// Each seat's sole-win rate over the finished games.
    pub wins: Vec<SeatDifference>,
    /// The rate of finished games won by two seats or more.
    pub shared_wins: Difference,
    /// The rate of finished games nobody won.
    pub nobody_wins: Difference,
    /// The share of finished games of each ending (every ending seen in A or B; A's order,
    /// then B's).
    pub endings: Vec<EndingDifference>,
    /// Mean decisions per finished game.
    pub length: Difference,
    /// Each seat's mean final score over the finished games.
    pub scores: Vec<SeatDifference>,
    /// The mean winner's margin over the runner-up.
    pub margin: Difference,
    /// The rate of games played in which a rule failed.
    pub failed: Difference,
    /// Each action's share of turns (every action of A, then B's others).
    pub actions: Vec<ActionShares>,
    /// Legal options per decision.
    pub branching: BranchingPair,
    /// Each option's share of its statement's answers, for the `choose`, `ask` and `secretly`
    /// statements answered in both; those answered in one only (documents written before
    /// these were compared have none).
    #[serde(default)]
    pub choices: ChoicesCompared,
    /// The blocks of statements never run in both, in A only, in B only (documents written
    /// before these were compared have none).
    #[serde(default)]
    pub never_ran: NeverRanCompared,
    /// The assignments that held a number to its bounds in A or in B, with the share of games
    /// in which each did (documents written before these were compared have none).
    #[serde(default)]
    pub clamps: Vec<ClampCompared>,
}

/// The `meeple-sim-compare/1` document: both reports in full, and their differences.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareReport {
    /// Always [`COMPARE_SCHEMA`].
    pub schema: String,
    /// The report of batch A (`FILE`), a `meeple-sim/1` document.
    pub a: Report,
    /// The report of batch B (`--against`), a `meeple-sim/1` document.
    pub b: Report,
    /// B against A, statistic by statistic.
    pub comparison: Comparison,
}

impl CompareReport {
    /// Compares the reports of two batches of the same size and players with their records
    /// (each sorted by game index).
    pub fn new(
        a: Report,
        records_a: &[GameRecord],
        b: Report,
        records_b: &[GameRecord],
    ) -> CompareReport {
        let comparison = Comparison::new(&a, records_a, &b, records_b);
        CompareReport {
            schema: COMPARE_SCHEMA.to_string(),
            a,
            b,
            comparison,
        }
    }

    /// Pretty JSON ending in a newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}

/// The finished games' values of `f`.
fn finished<F: Fn(&GameRecord) -> Option<f64>>(records: &[GameRecord], f: F) -> Vec<f64> {
    records
        .iter()
        .filter(|r| r.finished())
        .filter_map(f)
        .collect()
}

impl Comparison {
    /// B against A. Seats are paired by position; `a.meta.players` should equal B's.
    pub fn new(a: &Report, ra: &[GameRecord], b: &Report, rb: &[GameRecord]) -> Comparison {
        let seats = a.meta.players.min(b.meta.players) as usize;
        let seat_name = |p: usize| {
            let (sa, sb) = (&a.meta.seats[p], &b.meta.seats[p]);
            if sa == sb {
                sa.clone()
            } else {
                format!("{sa}/{sb}")
            }
        };
        let (na, nb) = (a.finished, b.finished);
        let wins = (0..seats)
            .map(|p| SeatDifference {
                seat: seat_name(p),
                difference: Difference::rates(a.wins[p].win.count, na, b.wins[p].win.count, nb),
            })
            .collect();

        let mut reasons: Vec<Option<String>> = a.endings.iter().map(|e| e.reason.clone()).collect();
        for e in &b.endings {
            if !reasons.contains(&e.reason) {
                reasons.push(e.reason.clone());
            }
        }
        let count = |r: &Report, reason: &Option<String>| {
            r.endings
                .iter()
                .find(|e| &e.reason == reason)
                .map_or(0, |e| e.games)
        };
        let endings = reasons
            .into_iter()
            .map(|reason| EndingDifference {
                difference: Difference::rates(count(a, &reason), na, count(b, &reason), nb),
                reason,
            })
            .collect();

        let length = Difference::means(
            &finished(ra, |r| Some(r.decisions as f64)),
            &finished(rb, |r| Some(r.decisions as f64)),
        );
        let scores = (0..seats)
            .map(|p| SeatDifference {
                seat: seat_name(p),
                difference: Difference::means(
                    &finished(ra, |r| r.scores.get(p).map(|s| *s as f64)),
                    &finished(rb, |r| r.scores.get(p).map(|s| *s as f64)),
                ),
            })
            .collect();
        let margin = Difference::means(&finished(ra, margin), &finished(rb, margin));

        let mut actions: Vec<ActionShares> = a
            .actions
            .iter()
            .map(|x| ActionShares {
                name: x.name.clone(),
                a: Some(x.share),
                b: b.actions.iter().find(|y| y.name == x.name).map(|y| y.share),
            })
            .collect();
        for y in &b.actions {
            if !a.actions.iter().any(|x| x.name == y.name) {
                actions.push(ActionShares {
                    name: y.name.clone(),
                    a: None,
                    b: Some(y.share),
                });
            }
        }

        Comparison {
            rates_method: RATES_METHOD.to_string(),
            means_method: MEANS_METHOD.to_string(),
            wins,
            shared_wins: Difference::rates(a.shared_wins, na, b.shared_wins, nb),
            nobody_wins: Difference::rates(a.nobody_wins, na, b.nobody_wins, nb),
            endings,
            length,
            scores,
            margin,
            failed: Difference::rates(a.failed, a.played, b.failed, b.played),
            actions,
            branching: BranchingPair {
                a: a.branching.mean,
                b: b.branching.mean,
                difference: b.branching.mean - a.branching.mean,
            },
            choices: compare_choices(&a.choices, &b.choices),
            never_ran: compare_never_ran(Blocks::of(a), Blocks::of(b)),
            clamps: compare_clamps(a, b),
        }
    }

    /// Every difference with its label, in report order (for tests and summaries).
    pub fn all(&self) -> Vec<(String, &Difference)> {
        let mut out: Vec<(String, &Difference)> = Vec::new();
        for w in &self.wins {
            out.push((format!("wins {}", w.seat), &w.difference));
        }
        out.push(("shared wins".into(), &self.shared_wins));
        out.push(("nobody wins".into(), &self.nobody_wins));
        for e in &self.endings {
            let name = e.reason.as_deref().unwrap_or("normal end");
            out.push((format!("ending {name}"), &e.difference));
        }
        out.push(("length".into(), &self.length));
        for s in &self.scores {
            out.push((format!("score {}", s.seat), &s.difference));
        }
        out.push(("margin".into(), &self.margin));
        out.push(("failed".into(), &self.failed));
        for c in &self.clamps {
            out.push((format!("clamped {}", c.site.site.at), &c.games));
        }
        for s in &self.choices.answered {
            for o in &s.options {
                out.push((format!("choice {} {}", s.at, o.option), &o.difference));
            }
        }
        out
    }
}
