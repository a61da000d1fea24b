//! `meeple sim A --against B`: the numbers each rule set held to their bounds, assignment by
//! assignment. An assignment is matched across A and B as the choices and the rules never run
//! are ([`super::compare_sites`]): by its place, the file's path folded, and its first line.

use super::clamps::{ClampCount, ClampSite};
use super::compare::Difference;
use super::compare_sites::site_key;
use super::report::Report;
use serde::{Deserialize, Serialize};

/// One assignment that clamped in A or in B.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClampCompared {
    /// The assignment, its variable and its rule, as the side that clamped lists it (A's
    /// when both did).
    #[serde(flatten)]
    pub site: ClampSite,
    /// Its counts in A; `null` when A's rules have no such assignment.
    pub a: Option<ClampCount>,
    /// Its counts in B; `null` when B's rules have no such assignment.
    pub b: Option<ClampCount>,
    /// The share of games played in which it clamped, in A and in B, with Newcombe's interval
    /// (a side without the assignment counts 0 games).
    pub games: Difference,
}

/// Every assignment that clamped in A or in B: A's in its source order, then those only B's
/// games clamped at, in B's.
pub fn compare_clamps(a: &Report, b: &Report) -> Vec<ClampCompared> {
    let mut out: Vec<ClampCompared> = Vec::new();
    let mut listed = std::collections::BTreeSet::new();
    for (mine, theirs, mine_is_a) in [(a, b, true), (b, a, false)] {
        for c in &mine.clamps {
            let key = site_key(&c.site.site);
            if !listed.insert(key.clone()) {
                continue;
            }
            let other = counts_of(theirs, &key);
            let (ca, cb) = if mine_is_a {
                (Some(c.count), other)
            } else {
                (other, Some(c.count))
            };
            let games = |c: Option<ClampCount>| c.map_or(0, |c| c.games);
            out.push(ClampCompared {
                site: c.site.clone(),
                games: Difference::rates(games(ca), a.played, games(cb), b.played),
                a: ca,
                b: cb,
            });
        }
    }
    out
}

/// What `report` counted at the assignment `key`: its counts when it clamped, none when it
/// did not, `None` when its rules have no such assignment.
fn counts_of(report: &Report, key: &(String, String)) -> Option<ClampCount> {
    if let Some(c) = report
        .clamps
        .iter()
        .find(|c| site_key(&c.site.site) == *key)
    {
        return Some(c.count);
    }
    report
        .meta
        .clamp_sites
        .iter()
        .any(|s| site_key(&s.site) == *key)
        .then(ClampCount::default)
}
