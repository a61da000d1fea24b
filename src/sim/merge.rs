//! `meeple sim merge`: shard documents (`--shard K/N --json`) combined into the report that one
//! run of the whole batch gives; shards of a comparison (`--against`) into its comparison.

use super::choices::ChoiceTotals;
use super::compare::{CompareReport, COMPARE_SCHEMA};
use super::report::{Report, SCHEMA};
use super::run::{Counts, GameRecord};
use super::validate::check_shard;
use std::collections::BTreeSet;
use std::fmt;

/// Why shard documents cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeError(pub String);

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MergeError {}

/// One shard document: of a batch, or of a comparison of two batches.
#[derive(Debug, Clone)]
pub enum ShardDoc {
    /// `meeple sim --shard K/N --json`.
    Report(Box<Report>),
    /// `meeple sim --against B --shard K/N --json`.
    Compare(Box<CompareReport>),
}

/// Parses one shard document of a batch; `name` is used in errors.
pub fn parse_shard(name: &str, text: &str) -> Result<Report, MergeError> {
    match parse_shard_doc(name, text)? {
        ShardDoc::Report(r) => Ok(*r),
        ShardDoc::Compare(_) => Err(MergeError(format!(
            "{name}: a comparison (`--against`), not the report of one batch"
        ))),
    }
}

/// The largest shard document read, in bytes: the records of [`super::MAX_GAMES`] games (some
/// 300 bytes each) with room to spare. A file past this is refused before it is read.
pub const MAX_SHARD: u64 = 512 * 1024 * 1024;

/// Parses one shard document, of a batch or of a comparison, and checks every record in it
/// ([`super::validate`]); `name` is used in errors. The text is read straight into the report,
/// never into a tree of JSON values (which took fifteen times the file).
pub fn parse_shard_doc(name: &str, text: &str) -> Result<ShardDoc, MergeError> {
    /// Only the schema is read first; everything else is skipped unread.
    #[derive(serde::Deserialize)]
    struct Head {
        schema: Option<serde_json::Value>,
    }
    let head: Head = serde_json::from_str(text)
        .map_err(|e| MergeError(format!("{name}: not a JSON document: {e}")))?;
    let read = |e: serde_json::Error| MergeError(format!("{name}: {e}"));
    let doc = match head.schema.as_ref().and_then(|s| s.as_str()) {
        Some(SCHEMA) => ShardDoc::Report(Box::new(serde_json::from_str(text).map_err(read)?)),
        Some(COMPARE_SCHEMA) => {
            ShardDoc::Compare(Box::new(serde_json::from_str(text).map_err(read)?))
        }
        Some(other) => {
            return Err(MergeError(format!(
                "{name}: schema `{other}`, expected `{SCHEMA}` or `{COMPARE_SCHEMA}`"
            )))
        }
        None => {
            return Err(MergeError(format!(
                "{name}: not a `meeple sim --json` document (no schema)"
            )))
        }
    };
    let has_records = match &doc {
        ShardDoc::Report(r) => r.records.is_some(),
        ShardDoc::Compare(c) => c.a.records.is_some() && c.b.records.is_some(),
    };
    if !has_records {
        return Err(MergeError(format!(
            "{name}: has no per-game records; run `meeple sim` with --shard K/N --json"
        )));
    }
    match &doc {
        ShardDoc::Report(r) => check_shard(name, r)?,
        ShardDoc::Compare(c) => {
            check_shard(&format!("{name} (A)"), &c.a)?;
            check_shard(&format!("{name} (B)"), &c.b)?;
        }
    }
    Ok(doc)
}

/// Merges the shards of a comparison (`(file name, comparison)`) into the comparison that one
/// run of both whole batches gives: A's shards merged, B's shards merged, then compared. The
/// shards are taken apart, not copied: a merge holds each record once.
pub fn merge_compared(shards: Vec<(String, CompareReport)>) -> Result<CompareReport, MergeError> {
    let mut a = Vec::with_capacity(shards.len());
    let mut b = Vec::with_capacity(shards.len());
    for (name, c) in shards {
        a.push((format!("{name} (A)"), c.a));
        b.push((format!("{name} (B)"), c.b));
    }
    let (a, records_a) = merge(a)?;
    let (b, records_b) = merge(b)?;
    Ok(CompareReport::new(a, &records_a, b, &records_b))
}

/// Merges shard reports (`(file name, report)`) of one batch into the report of the whole
/// batch, with the records in game order (moved out of the shards, not copied). Every shard
/// `1..=N` must be present once, and the shards must agree on what was simulated (game,
/// variants, file, players, bots, seed, games, decision limit).
pub fn merge(shards: Vec<(String, Report)>) -> Result<(Report, Vec<GameRecord>), MergeError> {
    let Some((first_name, first)) = shards.first() else {
        return Err(MergeError("no shard files given".into()));
    };
    let first_name = first_name.clone();
    let mut meta = first.meta.clone();
    let count = meta.shard.map_or(1, |s| s.count);
    meta.shard = None;
    let mut seen = BTreeSet::new();
    let mut records: Vec<GameRecord> = Vec::new();
    let mut counts = Counts {
        choices: ChoiceTotals::new(meta.decision_sites.len()),
        blocks: vec![0; meta.rule_blocks.len()],
        clamps: vec![Default::default(); meta.clamp_sites.len()],
    };
    for (name, mut report) in shards {
        let mut m = report.meta.clone();
        let shard = m.shard.take();
        if m != meta {
            return Err(MergeError(format!(
                "{name} simulates something else than {first_name} (game, variants, file, \
                 players, bots, seed, number of games or --max-decisions differ)"
            )));
        }
        let (index, n) = shard.map_or((1, 1), |s| (s.index, s.count));
        if n != count {
            return Err(MergeError(format!(
                "{name} is shard {index}/{n}, but {first_name} cuts the batch into {count}"
            )));
        }
        if !seen.insert(index) {
            return Err(MergeError(format!("shard {index}/{count} is given twice")));
        }
        records.extend(report.records.take().into_iter().flatten());
        // Each shard reports its own games' counts; the batch's are their sums.
        counts.add(&Counts {
            choices: report.choices.totals(&meta.decision_sites),
            blocks: report.blocks_run.clone(),
            clamps: super::clamps::counts_of(&meta.clamp_sites, &report.clamps),
        });
    }
    let missing: Vec<String> = (1..=count)
        .filter(|k| !seen.contains(k))
        .map(|k| format!("{k}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError(format!(
            "missing shard{}: {}",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", ")
        )));
    }
    records.sort_by_key(|r| r.index);
    let indices_ok = records.len() as u64 == meta.games
        && records.iter().enumerate().all(|(i, r)| r.index == i as u64);
    if !indices_ok {
        return Err(MergeError(format!(
            "the shards hold {} game records, not games 0 to {} once each",
            records.len(),
            meta.games.saturating_sub(1)
        )));
    }
    Ok((Report::new(meta, &records, &counts), records))
}
