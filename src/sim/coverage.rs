//! The rules that never ran in a batch: every block of statements (an effect's or phase's
//! body, a branch of `if` or `match`, a loop's body, what follows a `secretly`) that no game
//! entered, named by its first statement. The engine notes the blocks a game runs
//! ([`crate::engine::Mode::coverage`]); each worker adds up in how many of its games each ran.

use super::sites::{sites, Site};
use crate::ir::{BlockId, Program};
use serde::{Deserialize, Serialize};

/// A block of statements a report looks at: where its first statement is, how it reads, and
/// the block it lies in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleBlock {
    /// Its first statement.
    #[serde(flatten)]
    pub site: Site,
    /// The block it lies in (an index into the same list), if any: a block inside one that
    /// never ran is not reported again.
    pub inside: Option<usize>,
    /// The action whose body it lies in (an index into the program's actions), if any: a block
    /// of an action never taken is not reported again (documents written before this was
    /// noted have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<usize>,
}

/// Every non-empty block of the program other than actions' bodies (an action never taken is
/// reported as such), in source order (by their first statements).
pub fn rule_block_ids(program: &Program) -> Vec<BlockId> {
    let action_bodies: Vec<usize> = program.actions.iter().map(|a| a.body.index()).collect();
    let mut kept: Vec<usize> = (0..program.blocks.len())
        .filter(|&b| !program.blocks[b].stmts.is_empty() && !action_bodies.contains(&b))
        .collect();
    kept.sort_by_key(|&b| program.blocks[b].stmts[0].span);
    kept.into_iter().map(|b| BlockId(b as u32)).collect()
}

/// How a report names the blocks of [`rule_block_ids`], in the same order.
pub fn rule_blocks(program: &Program) -> Vec<RuleBlock> {
    let ids = rule_block_ids(program);
    let mut parent: Vec<Option<usize>> = vec![None; program.blocks.len()];
    for (b, block) in program.blocks.iter().enumerate() {
        for stmt in &block.stmts {
            for child in stmt.kind.blocks() {
                if let Some(p) = parent.get_mut(child.index()) {
                    *p = Some(b);
                }
            }
        }
    }
    // The action each block lies in: an action's body, and every block under it.
    let mut action: Vec<Option<usize>> = vec![None; program.blocks.len()];
    for (a, def) in program.actions.iter().enumerate() {
        let mut todo = vec![def.body];
        while let Some(b) = todo.pop() {
            if let Some(slot) = action.get_mut(b.index()) {
                *slot = Some(a);
                for stmt in &program.blocks[b.index()].stmts {
                    todo.extend(stmt.kind.blocks());
                }
            }
        }
    }
    let mut position = vec![None; program.blocks.len()];
    for (i, b) in ids.iter().enumerate() {
        position[b.index()] = Some(i);
    }
    let spans: Vec<_> = ids
        .iter()
        .map(|b| program.blocks[b.index()].stmts[0].span)
        .collect();
    sites(program, &spans)
        .into_iter()
        .zip(&ids)
        .map(|(site, b)| RuleBlock {
            site,
            inside: parent[b.index()].and_then(|p| position[p]),
            action: action[b.index()],
        })
        .collect()
}

/// The blocks that never ran, given in how many games each ran (aligned with `blocks`) and how
/// often each action was taken (by action): those inside a block that did run, or inside none,
/// and not in an action never taken (which is reported as such).
pub fn never_ran(blocks: &[RuleBlock], ran: &[u64], taken: &[u64]) -> Vec<Site> {
    blocks
        .iter()
        .enumerate()
        .filter(|(i, b)| {
            ran.get(*i).copied().unwrap_or(0) == 0
                && b.inside
                    .is_none_or(|p| ran.get(p).copied().unwrap_or(0) > 0)
                && b.action
                    .is_none_or(|a| taken.get(a).copied().unwrap_or(0) > 0)
        })
        .map(|(_, b)| b.site.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_inside_one_that_never_ran_is_not_reported_again() {
        let block = |at: &str, inside: Option<usize>| RuleBlock {
            site: Site {
                at: at.into(),
                text: String::new(),
            },
            inside,
            action: None,
        };
        let blocks = [
            block("a:1:1", None),
            block("a:2:3", Some(0)),
            block("a:5:3", Some(0)),
            block("a:6:5", Some(2)),
        ];
        // The outer block ran; the second never did; the third never did, nor the fourth in it.
        let never: Vec<String> = never_ran(&blocks, &[4, 0, 0, 0], &[])
            .into_iter()
            .map(|s| s.at)
            .collect();
        assert_eq!(never, ["a:2:3", "a:5:3"]);
        let never: Vec<String> = never_ran(&blocks, &[4, 2, 1, 0], &[])
            .into_iter()
            .map(|s| s.at)
            .collect();
        assert_eq!(never, ["a:6:5"]);
    }

    #[test]
    fn a_block_of_an_action_never_taken_is_left_to_that_action() {
        let block = |at: &str, action: Option<usize>| RuleBlock {
            site: Site {
                at: at.into(),
                text: String::new(),
            },
            inside: None,
            action,
        };
        let blocks = [
            block("a:3:5", Some(0)),
            block("a:9:5", Some(1)),
            block("a:20:3", None),
        ];
        // Action 0 was never taken, action 1 was; no block ran.
        let never: Vec<String> = never_ran(&blocks, &[0, 0, 0], &[0, 7])
            .into_iter()
            .map(|s| s.at)
            .collect();
        assert_eq!(never, ["a:9:5", "a:20:3"]);
    }
}
