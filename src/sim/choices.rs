//! Which option each `choose`, `ask` and `secretly` statement was answered with, over a batch:
//! the statements found once in the program ([`Site`]s), each worker's answers counted
//! by site and option ([`Tally`]: an option is named once per worker, not per decision), added
//! up ([`ChoiceTotals`], a sum, so the same for any number of threads or shards), and the
//! batch's report of them with the statements no game ever asked ([`Choices`]).

use super::sites::{sites, Site};
use crate::diag::Span;
use crate::engine::{DecisionKind, Game};
use crate::ir::{Program, StmtKind};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

/// The spans of every `choose`, `ask` and `secretly` statement of the program, sorted: what a
/// pending decision's span is looked up in.
pub fn decision_spans(program: &Program) -> Vec<Span> {
    let mut spans: Vec<Span> = program
        .blocks
        .iter()
        .flat_map(|b| &b.stmts)
        .filter(|s| {
            matches!(
                s.kind,
                StmtKind::Choose { .. } | StmtKind::Ask { .. } | StmtKind::Secretly { .. }
            )
        })
        .map(|s| s.span)
        .collect();
    spans.sort_unstable();
    spans.dedup();
    spans
}

/// Every `choose`, `ask` and `secretly` statement of the program, in source order.
pub fn decision_sites(program: &Program) -> Vec<Site> {
    sites(program, &decision_spans(program))
}

/// Each statement's options with the times they were taken, by site: what a batch (or each
/// worker's share of it) adds up. Sums of counts, so the same whatever the order of games.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChoiceTotals(Vec<BTreeMap<String, u64>>);

impl ChoiceTotals {
    /// No answers yet, for `sites` statements.
    pub fn new(sites: usize) -> ChoiceTotals {
        ChoiceTotals(vec![BTreeMap::new(); sites])
    }

    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &ChoiceTotals) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), BTreeMap::new());
        }
        for (mine, theirs) in self.0.iter_mut().zip(&other.0) {
            for (option, n) in theirs {
                let total = mine.entry(option.clone()).or_default();
                *total = total.saturating_add(*n);
            }
        }
    }

    /// Answers counted, over every site and option.
    pub fn answers(&self) -> u64 {
        self.0.iter().flat_map(|options| options.values()).sum()
    }

    fn count(&mut self, site: usize, option: &str, n: u64) {
        if let Some(options) = self.0.get_mut(site) {
            let total = options.entry(option.to_string()).or_default();
            *total = total.saturating_add(n);
        }
    }
}

/// An odd constant that spreads a site's number over a key's bits.
const KEY_MIX: u64 = 0x9e37_79b9_7f4a_7c15;

/// The hash of a key that is a hash already ([`Game::option_key`]): the key itself, so that a
/// decision costs no SipHash.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// One worker's answers, counted as they are given, over the games it plays.
pub struct Tally<'s> {
    spans: &'s [Span],
    /// (site, option key) → index in `counts`. An option's name follows from its value alone
    /// (instances' names are fixed before setup, and no chance reaches them), so each is
    /// rendered the first time this worker sees it taken: a decision costs a lookup.
    seen: HashMap<u64, usize, BuildHasherDefault<KeyHasher>>,
    counts: Vec<(u32, String, u64)>,
}

impl<'s> Tally<'s> {
    /// An empty tally over the sites whose sorted spans are `spans`.
    pub fn new(spans: &'s [Span]) -> Tally<'s> {
        Tally {
            spans,
            seen: HashMap::default(),
            counts: Vec::new(),
        }
    }

    /// An empty tally over the same sites: for a game played again whose answers are not to
    /// count.
    pub fn scratch(&self) -> Tally<'s> {
        Tally::new(self.spans)
    }

    /// The entry that option `index` of `seat`'s pending decision would count, if that
    /// decision is a `choose`, `ask` or `secretly` (a turn is counted by its action). Call
    /// it before the move, and [`Tally::count`] once the move stands.
    pub fn entry(&mut self, game: &Game, seat: u8, index: usize) -> Option<usize> {
        if matches!(game.decision_kind()?, DecisionKind::Turn) {
            return None;
        }
        let span = game.decision_span()?;
        let site = self.spans.binary_search(&span).ok()? as u32;
        // Option keys tell the options of one decision apart; the site's number, mixed in,
        // tells the decisions apart.
        let key = game.option_key(seat, index)? ^ u64::from(site).wrapping_mul(KEY_MIX);
        if let Some(&i) = self.seen.get(&key) {
            return Some(i);
        }
        let name = game.option_name(seat, index)?;
        self.counts.push((site, name, 0));
        let i = self.counts.len() - 1;
        self.seen.insert(key, i);
        Some(i)
    }

    /// Counts the answer found by [`Tally::entry`].
    pub fn count(&mut self, entry: usize) {
        if let Some(c) = self.counts.get_mut(entry) {
            c.2 += 1;
        }
    }

    /// The counts by site and option name.
    pub fn totals(&self) -> ChoiceTotals {
        let mut totals = ChoiceTotals::new(self.spans.len());
        for (site, name, n) in &self.counts {
            if *n > 0 {
                totals.count(*site as usize, name, *n);
            }
        }
        totals
    }
}

/// How often one option of a statement was taken, over the batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OptionCount {
    /// The option, as a player types it.
    pub option: String,
    /// Times taken.
    pub taken: u64,
    /// `taken` over the times the statement was answered.
    pub share: f64,
}

/// One statement's answers over the batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteChoices {
    /// `file:line:column` of the statement.
    pub at: String,
    /// Its first line.
    pub text: String,
    /// Times it was answered, over every game played.
    pub answered: u64,
    /// Its options, the most taken first (ties by option).
    pub options: Vec<OptionCount>,
}

/// Every statement's answers, and the statements never asked.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Choices {
    /// The statements answered at least once, in source order.
    pub answered: Vec<SiteChoices>,
    /// The statements no game asked (`file:line:column` and first line): never reached, or
    /// never with two options or more to choose from.
    pub never_asked: Vec<Site>,
}

impl Choices {
    /// Each site's totals, with the sites nobody answered listed apart.
    pub fn new(sites: &[Site], totals: &ChoiceTotals) -> Choices {
        let mut choices = Choices::default();
        let none = BTreeMap::new();
        for (i, site) in sites.iter().enumerate() {
            let options = totals.0.get(i).unwrap_or(&none);
            let answered: u64 = options.values().sum();
            if answered == 0 {
                choices.never_asked.push(site.clone());
                continue;
            }
            let mut options: Vec<OptionCount> = options
                .iter()
                .map(|(option, &taken)| OptionCount {
                    option: option.clone(),
                    taken,
                    share: taken as f64 / answered as f64,
                })
                .collect();
            // Stable: equal counts keep the options' order.
            options.sort_by_key(|o| std::cmp::Reverse(o.taken));
            choices.answered.push(SiteChoices {
                at: site.at.clone(),
                text: site.text.clone(),
                answered,
                options,
            });
        }
        choices
    }

    /// The totals these choices were made from (a shard's, to merge), by `sites`.
    pub fn totals(&self, sites: &[Site]) -> ChoiceTotals {
        let mut totals = ChoiceTotals::new(sites.len());
        for answered in &self.answered {
            if let Some(i) = sites.iter().position(|s| s.at == answered.at) {
                for o in &answered.options {
                    totals.count(i, &o.option, o.taken);
                }
            }
        }
        totals
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_up_by_site_and_a_site_nobody_answered_is_listed_apart() {
        let site = |at: &str| Site {
            at: at.into(),
            text: String::new(),
        };
        let sites = [site("a:1:1"), site("a:2:1"), site("a:3:1")];
        let mut one = ChoiceTotals::new(3);
        one.count(0, "yes", 2);
        one.count(0, "no", 1);
        one.count(2, "x", 1);
        let mut two = ChoiceTotals::new(3);
        two.count(0, "no", 3);
        one.add(&two);
        let c = Choices::new(&sites, &one);
        assert_eq!(c.answered.len(), 2);
        assert_eq!(c.answered[0].answered, 6);
        assert_eq!(c.answered[0].options[0].option, "no");
        assert_eq!(c.answered[0].options[0].taken, 4);
        assert!((c.answered[0].options[1].share - 2.0 / 6.0).abs() < 1e-12);
        assert_eq!(c.never_asked, vec![site("a:2:1")]);
        // A report's choices give back the totals they were made from.
        assert_eq!(c.totals(&sites), one);
    }
}
