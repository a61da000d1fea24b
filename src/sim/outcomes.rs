//! What the finished games reached, beyond who won: the declared goal's distribution (one
//! number for a cooperative game), and endings told apart only by a seat's name, grouped.

use super::report::GoalKind;
use super::run::GameRecord;
use super::stats::{mean, median, percentile, sorted, variance};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The goals reached at the end of the finished games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GoalReport {
    /// True if every seat plays for one shared value: `distribution` and the figures below are
    /// of that value, one a game.
    pub shared: bool,
    /// Games whose goal is counted (the finished ones).
    pub games: u64,
    /// The mean of the shared value (of every seat's own, pooled, when not shared).
    pub mean: f64,
    /// The 95% normal interval of the mean (of one value a game): `[low, high]`.
    pub low: f64,
    /// See `low`.
    pub high: f64,
    /// The median.
    pub median: f64,
    /// The 5th percentile (nearest rank).
    pub p5: f64,
    /// The 95th percentile (nearest rank).
    pub p95: f64,
    /// The least reached.
    pub min: i64,
    /// The most reached.
    pub max: i64,
    /// Each value reached, with the games that reached it, by value (a shared goal only).
    pub distribution: Vec<GoalCount>,
    /// Each seat's mean goal, in seat order (not shared only).
    pub seats: Vec<f64>,
}

/// Games that reached one value of the goal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoalCount {
    /// The goal's value.
    pub value: i64,
    /// Games that ended with it.
    pub games: u64,
}

/// The goal report of `finished`, for a goal of `kind`; `None` without a goal or a game.
pub fn goal_report(kind: Option<GoalKind>, finished: &[&GameRecord]) -> Option<GoalReport> {
    let kind = kind?;
    let with: Vec<&GameRecord> = finished
        .iter()
        .copied()
        .filter(|r| !r.goals.is_empty())
        .collect();
    if with.is_empty() {
        return None;
    }
    let shared = kind == GoalKind::Shared;
    let values: Vec<i64> = if shared {
        with.iter().map(|r| r.goals[0]).collect()
    } else {
        with.iter().flat_map(|r| r.goals.iter().copied()).collect()
    };
    let floats = sorted(values.iter().map(|&v| v as f64).collect());
    let mut by_value: BTreeMap<i64, u64> = BTreeMap::new();
    if shared {
        for &v in &values {
            *by_value.entry(v).or_default() += 1;
        }
    }
    let seats = if shared {
        Vec::new()
    } else {
        let n = with[0].goals.len();
        (0..n)
            .map(|p| {
                let own: Vec<f64> = with
                    .iter()
                    .filter_map(|r| r.goals.get(p).map(|&v| v as f64))
                    .collect();
                mean(&own)
            })
            .collect()
    };
    let centre = mean(&floats);
    let half = variance(&floats).map_or(0.0, |v| 1.96 * (v / floats.len() as f64).sqrt());
    Some(GoalReport {
        shared,
        games: with.len() as u64,
        mean: centre,
        low: centre - half,
        high: centre + half,
        median: median(&floats),
        p5: percentile(&floats, 5.0),
        p95: percentile(&floats, 95.0),
        min: values.iter().copied().min().unwrap_or(0),
        max: values.iter().copied().max().unwrap_or(0),
        distribution: by_value
            .into_iter()
            .map(|(value, games)| GoalCount { value, games })
            .collect(),
        seats,
    })
}

/// The reason with every seat's name, as a whole word, written `{seat}`: the reasons of one
/// `end game` written for different seats read alike.
fn without_seats(reason: &str, seats: &[String]) -> String {
    let mut out = reason.to_string();
    for seat in seats.iter().filter(|s| !s.is_empty()) {
        let mut rewritten = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(at) = rest.find(seat.as_str()) {
            let before = rest[..at].chars().next_back();
            let after = rest[at + seat.len()..].chars().next();
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            rewritten.push_str(&rest[..at]);
            if word(before) || word(after) {
                rewritten.push_str(seat);
            } else {
                rewritten.push_str("{seat}");
            }
            rest = &rest[at + seat.len()..];
        }
        rewritten.push_str(rest);
        out = rewritten;
    }
    out
}

/// Games by ending reason, where reasons that differ only by the seats they name count as one
/// (written with `{seat}` in the seat's place); a reason alone in its group keeps its words.
pub fn group_endings(
    reasons: BTreeMap<Option<String>, u64>,
    seats: &[String],
) -> BTreeMap<Option<String>, u64> {
    let mut groups: BTreeMap<Option<String>, Vec<(Option<String>, u64)>> = BTreeMap::new();
    for (reason, games) in reasons {
        let key = reason.as_deref().map(|r| without_seats(r, seats));
        groups.entry(key).or_default().push((reason, games));
    }
    let mut out = BTreeMap::new();
    for (key, members) in groups {
        if let [(reason, games)] = members.as_slice() {
            out.insert(reason.clone(), *games);
        } else {
            out.insert(key, members.iter().map(|(_, g)| g).sum());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_that_differ_by_a_seat_alone_are_one() {
        let seats = ["P1".to_string(), "P2".to_string(), "Ann".to_string()];
        let mut reasons = BTreeMap::new();
        reasons.insert(Some("P1 rolls a one".to_string()), 3);
        reasons.insert(Some("P2 rolls a one".to_string()), 4);
        reasons.insert(Some("Annual fair: P1 leaves".to_string()), 1);
        reasons.insert(Some("the deck runs out".to_string()), 2);
        reasons.insert(None, 5);
        let grouped = group_endings(reasons, &seats);
        assert_eq!(
            grouped.get(&Some("{seat} rolls a one".to_string())),
            Some(&7)
        );
        // Alone in its group, a reason keeps its seat; a seat's name inside a word is a word.
        assert_eq!(
            grouped.get(&Some("Annual fair: P1 leaves".to_string())),
            Some(&1)
        );
        assert_eq!(
            grouped.get(&Some("the deck runs out".to_string())),
            Some(&2)
        );
        assert_eq!(grouped.get(&None), Some(&5));
        assert_eq!(grouped.len(), 4);
        assert_eq!(
            without_seats("Ann beats Annual P2", &seats),
            "{seat} beats Annual {seat}"
        );
    }
}
