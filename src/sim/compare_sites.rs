//! The statement-by-statement sections of a comparison: the choices made at each `choose`, `ask`
//! and `secretly` statement, and the rules never run, of A and of B.
//!
//! A variant is applied to its base game's tree, so every statement it leaves alone keeps its
//! place in the base file: the same statement of A and of B has the same first line and the
//! same `file:line:column`, once the file's path is read without its `.` and `..` parts (a
//! variant given alone reaches its base as `rules/game/../game.rules`, which is
//! `rules/game.rules` given alone). Statements are matched so, without asking the file system:
//! a merge may run where the rules files are not.

use super::choices::{Choices, SiteChoices};
use super::compare::Difference;
use super::coverage::RuleBlock;
use super::report::Report;
use super::sites::Site;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

/// One option of a statement answered in A and in B: its share of the statement's answers in
/// each, the difference and its interval (Newcombe's, as for other rates).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OptionDifference {
    /// The option, as a player types it.
    pub option: String,
    /// Its share of the statement's answers (`taken / answered`) in A and in B.
    #[serde(flatten)]
    pub difference: Difference,
}

/// Times a statement was answered in A and in B.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnsweredPair {
    /// Times in A, over every game played.
    pub a: u64,
    /// Times in B.
    pub b: u64,
}

/// A statement answered in both A and B, option by option.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteDifference {
    /// `file:line:column` of the statement, as A's report places it.
    pub at: String,
    /// Its first line.
    pub text: String,
    /// Times it was answered in each.
    pub answered: AnsweredPair,
    /// Every option taken in A or in B: A's most taken first, then those only B took (B's
    /// most taken first).
    pub options: Vec<OptionDifference>,
}

/// A statement answered in one rule set only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OneSideChoices {
    /// Its answers in the rule set that asked it, as that side's report gives them.
    #[serde(flatten)]
    pub site: SiteChoices,
    /// True when the other rule set has the statement and never asked it; false when it has
    /// no such statement.
    pub in_other: bool,
}

/// The choices made, statement by statement.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChoicesCompared {
    /// The statements answered in both, in A's source order.
    pub answered: Vec<SiteDifference>,
    /// The statements answered in A only, in A's source order.
    pub only_a: Vec<OneSideChoices>,
    /// The statements answered in B only, in B's source order.
    pub only_b: Vec<OneSideChoices>,
}

/// A block of statements never run in one rule set only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OneSideBlock {
    /// Its first statement, as that side's report gives it.
    #[serde(flatten)]
    pub site: Site,
    /// True when the other rule set has the block (and ran it); false when it has no such
    /// block.
    pub in_other: bool,
}

/// The rules never run, block by block.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NeverRanCompared {
    /// The blocks that ran in no game of A nor of B (listed by either report), in A's source
    /// order, as A places them.
    pub both: Vec<Site>,
    /// The blocks never run in A that B ran or does not have, in A's source order.
    pub only_a: Vec<OneSideBlock>,
    /// The blocks never run in B that A ran or does not have, in B's source order.
    pub only_b: Vec<OneSideBlock>,
}

impl NeverRanCompared {
    /// True when no block is listed in any group.
    pub fn is_empty(&self) -> bool {
        self.both.is_empty() && self.only_a.is_empty() && self.only_b.is_empty()
    }
}

/// What tells a statement apart across the two rule sets: its place, the file's path read
/// without `.` and `..`, and its first line.
type Key = (String, String);

fn key(site: &Site) -> Key {
    (place(&site.at), site.text.clone())
}

/// What tells a statement apart across two rule sets (its place, the file's path folded, and
/// its first line), for the other statement-by-statement comparisons.
pub(super) fn site_key(site: &Site) -> (String, String) {
    key(site)
}

/// `file:line:column` with the file's path folded (`a/b/../c` is `a/c`); a place not of that
/// form is kept as it is.
fn place(at: &str) -> String {
    // From the right: a path may hold a colon of its own.
    let mut parts = at.rsplitn(3, ':');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(column), Some(line), Some(file)) => format!("{}:{line}:{column}", fold(file)),
        _ => at.to_string(),
    }
}

/// A path without `.` parts and with each `name/..` dropped, read as written.
fn fold(file: &str) -> String {
    let mut out = PathBuf::new();
    for c in Path::new(file).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out.to_string_lossy().into_owned()
}

/// The choices of A and of B, statement by statement.
pub fn compare_choices(a: &Choices, b: &Choices) -> ChoicesCompared {
    let keys = |sites: &[SiteChoices]| -> BTreeMap<Key, usize> {
        sites
            .iter()
            .enumerate()
            .map(|(i, s)| (key(&site_of(s)), i))
            .collect()
    };
    let never = |c: &Choices| -> BTreeSet<Key> { c.never_asked.iter().map(key).collect() };
    let (answered_a, answered_b) = (keys(&a.answered), keys(&b.answered));
    let (never_a, never_b) = (never(a), never(b));
    let mut out = ChoicesCompared::default();
    for sa in &a.answered {
        let k = key(&site_of(sa));
        match answered_b.get(&k) {
            Some(&j) => out.answered.push(site_difference(sa, &b.answered[j])),
            None => out.only_a.push(OneSideChoices {
                site: sa.clone(),
                in_other: never_b.contains(&k),
            }),
        }
    }
    for sb in &b.answered {
        let k = key(&site_of(sb));
        if !answered_a.contains_key(&k) {
            out.only_b.push(OneSideChoices {
                site: sb.clone(),
                in_other: never_a.contains(&k),
            });
        }
    }
    out
}

fn site_of(s: &SiteChoices) -> Site {
    Site {
        at: s.at.clone(),
        text: s.text.clone(),
    }
}

/// One statement's options in A and in B: A's order, then the options only B took.
fn site_difference(sa: &SiteChoices, sb: &SiteChoices) -> SiteDifference {
    fn taken(s: &SiteChoices) -> BTreeMap<&str, u64> {
        s.options
            .iter()
            .map(|o| (o.option.as_str(), o.taken))
            .collect()
    }
    let (taken_a, taken_b) = (taken(sa), taken(sb));
    let names = sa.options.iter().map(|o| o.option.as_str()).chain(
        sb.options
            .iter()
            .map(|o| o.option.as_str())
            .filter(|name| !taken_a.contains_key(name)),
    );
    let options = names
        .map(|name| {
            let count = |t: &BTreeMap<&str, u64>| t.get(name).copied().unwrap_or(0);
            OptionDifference {
                option: name.to_string(),
                difference: Difference::rates(
                    count(&taken_a),
                    sa.answered,
                    count(&taken_b),
                    sb.answered,
                ),
            }
        })
        .collect();
    SiteDifference {
        at: sa.at.clone(),
        text: sa.text.clone(),
        answered: AnsweredPair {
            a: sa.answered,
            b: sb.answered,
        },
        options,
    }
}

/// One rule set's blocks as its report gives them: every block, in how many games each ran,
/// and those listed as never run.
#[derive(Debug, Clone, Copy)]
pub struct Blocks<'r> {
    /// Every block of the rules (`rule_blocks`).
    pub blocks: &'r [RuleBlock],
    /// In how many games each ran (`blocks_run`, aligned with `blocks`).
    pub run: &'r [u64],
    /// The blocks the report lists as never run.
    pub never_ran: &'r [Site],
}

impl<'r> Blocks<'r> {
    /// The blocks of a report.
    pub fn of(report: &'r Report) -> Blocks<'r> {
        Blocks {
            blocks: &report.meta.rule_blocks,
            run: &report.blocks_run,
            never_ran: &report.never_ran,
        }
    }

    /// Each block's position and the games it ran in, by key.
    fn runs(&self) -> BTreeMap<Key, (usize, u64)> {
        self.blocks
            .iter()
            .enumerate()
            .map(|(i, b)| (key(&b.site), (i, self.run.get(i).copied().unwrap_or(0))))
            .collect()
    }
}

/// The rules never run in A and in B, block by block. A block either report lists goes to
/// `both` when it ran in no game of the other either, though that report may not list it (it
/// lies in a block that never ran there, or in an action never taken): "only in A" says B ran it.
pub fn compare_never_ran(a: Blocks<'_>, b: Blocks<'_>) -> NeverRanCompared {
    let (runs_a, runs_b) = (a.runs(), b.runs());
    let mut both: BTreeMap<usize, Site> = BTreeMap::new();
    let mut out = NeverRanCompared::default();
    for site in a.never_ran {
        let k = key(site);
        match runs_b.get(&k) {
            Some((_, 0)) => {
                let i = runs_a.get(&k).map_or(usize::MAX, |(i, _)| *i);
                both.entry(i).or_insert_with(|| site.clone());
            }
            found => out.only_a.push(OneSideBlock {
                site: site.clone(),
                in_other: found.is_some(),
            }),
        }
    }
    for site in b.never_ran {
        match runs_a.get(&key(site)) {
            Some((i, 0)) => {
                let as_a = a
                    .blocks
                    .get(*i)
                    .map_or_else(|| site.clone(), |b| b.site.clone());
                both.entry(*i).or_insert(as_a);
            }
            found => out.only_b.push(OneSideBlock {
                site: site.clone(),
                in_other: found.is_some(),
            }),
        }
    }
    out.both = both.into_values().collect();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::choices::OptionCount;

    fn site(at: &str, text: &str) -> Site {
        Site {
            at: at.into(),
            text: text.into(),
        }
    }

    fn answered(at: &str, text: &str, options: &[(&str, u64)]) -> SiteChoices {
        let n: u64 = options.iter().map(|(_, k)| k).sum();
        SiteChoices {
            at: at.into(),
            text: text.into(),
            answered: n,
            options: options
                .iter()
                .map(|(o, k)| OptionCount {
                    option: (*o).into(),
                    taken: *k,
                    share: *k as f64 / n as f64,
                })
                .collect(),
        }
    }

    #[test]
    fn statements_match_by_place_and_text_and_one_only_in_b_is_listed_as_bs() {
        let a = Choices {
            answered: vec![
                answered(
                    "g.rules:3:5",
                    "let x = ask p (yes, no)",
                    &[("yes", 6), ("no", 4)],
                ),
                answered("g.rules:9:5", "let y = choose p from xs", &[("a", 5)]),
            ],
            never_asked: vec![site("g.rules:20:5", "let w = ask p (up, down)")],
        };
        // B reaches the same file through its variant's folder, and lists its statements in
        // another order: matching goes by place, not by position.
        let b = Choices {
            answered: vec![
                answered("v.rules:4:3", "let z = choose p from ys", &[("c", 2)]),
                answered(
                    "v/../g.rules:20:5",
                    "let w = ask p (up, down)",
                    &[("up", 1)],
                ),
                answered(
                    "v/../g.rules:3:5",
                    "let x = ask p (yes, no)",
                    &[("no", 3), ("maybe", 1)],
                ),
            ],
            never_asked: vec![site("v/../g.rules:9:5", "let y = choose p from xs")],
        };
        let c = compare_choices(&a, &b);
        assert_eq!(c.answered.len(), 1);
        let x = &c.answered[0];
        assert_eq!(
            (x.at.as_str(), x.answered),
            ("g.rules:3:5", AnsweredPair { a: 10, b: 4 })
        );
        let options: Vec<(&str, f64, f64)> = x
            .options
            .iter()
            .map(|o| (o.option.as_str(), o.difference.a, o.difference.b))
            .collect();
        assert_eq!(
            options,
            [("yes", 0.6, 0.0), ("no", 0.4, 0.75), ("maybe", 0.0, 0.25)]
        );
        assert_eq!(x.options[1].difference, Difference::rates(4, 10, 3, 4));
        // Only A answered `y` (B has it, never asked); only B answered `z` (A has no such
        // statement) and `w` (A never asked it).
        let only = |list: &[OneSideChoices]| -> Vec<(String, bool)> {
            list.iter()
                .map(|s| (s.site.at.clone(), s.in_other))
                .collect()
        };
        assert_eq!(only(&c.only_a), [("g.rules:9:5".to_string(), true)]);
        assert_eq!(
            only(&c.only_b),
            [
                ("v.rules:4:3".to_string(), false),
                ("v/../g.rules:20:5".to_string(), true)
            ]
        );
    }

    #[test]
    fn a_block_never_run_in_both_goes_to_both_even_when_one_report_lists_its_parent_only() {
        let block = |at: &str, inside: Option<usize>| RuleBlock {
            site: site(at, "s"),
            inside,
            action: None,
        };
        let blocks_a = [
            block("g.rules:2:3", None),
            block("g.rules:4:5", Some(0)),
            block("g.rules:8:3", None),
            block("g.rules:12:3", None),
        ];
        let blocks_b = [
            block("v/../g.rules:2:3", None),
            block("v/../g.rules:4:5", Some(0)),
            block("v/../g.rules:8:3", None),
            block("v.rules:3:3", None),
        ];
        // A never ran 4:5, 8:3 and 12:3; B never ran 2:3 (so not 4:5 inside it, which its
        // report leaves out), 8:3 and its own 3:3.
        let a = Blocks {
            blocks: &blocks_a,
            run: &[5, 0, 0, 0],
            never_ran: &[
                site("g.rules:4:5", "s"),
                site("g.rules:8:3", "s"),
                site("g.rules:12:3", "s"),
            ],
        };
        let b = Blocks {
            blocks: &blocks_b,
            run: &[0, 0, 0, 0],
            never_ran: &[
                site("v/../g.rules:2:3", "s"),
                site("v/../g.rules:8:3", "s"),
                site("v.rules:3:3", "s"),
            ],
        };
        let c = compare_never_ran(a, b);
        let ats = |sites: Vec<&Site>| -> Vec<String> {
            sites.into_iter().map(|s| s.at.clone()).collect()
        };
        assert_eq!(ats(c.both.iter().collect()), ["g.rules:4:5", "g.rules:8:3"]);
        let only = |list: &[OneSideBlock]| -> Vec<(String, bool)> {
            list.iter()
                .map(|s| (s.site.at.clone(), s.in_other))
                .collect()
        };
        // 12:3 is not in B's rules; A ran 2:3.
        assert_eq!(only(&c.only_a), [("g.rules:12:3".to_string(), false)]);
        assert_eq!(
            only(&c.only_b),
            [
                ("v/../g.rules:2:3".to_string(), true),
                ("v.rules:3:3".to_string(), false)
            ]
        );
        assert!(!c.is_empty());
    }

    #[test]
    fn a_place_is_read_without_dot_and_dot_dot() {
        assert_eq!(
            place("rules/g/../g.rules:73:5"),
            place("rules/g.rules:73:5")
        );
        assert_eq!(place("./g.rules:1:1"), place("g.rules:1:1"));
        assert_ne!(place("../g.rules:1:1"), place("g.rules:1:1"));
        assert_ne!(place("g.rules:1:1"), place("g.rules:1:2"));
        assert_eq!(place("<repl>"), "<repl>");
    }
}
