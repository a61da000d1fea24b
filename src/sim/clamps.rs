//! The numbers the rules held to their bounds in a batch: every assignment to a variable
//! declared `int in lo..hi` is a place where a number may be clamped, and a report lists those
//! that clamped, with how often and in how many games. The engine counts the clamps of a game
//! per statement ([`crate::engine::Game::clamps_at`]); each worker adds them up.

use super::sites::{sites, Site};
use crate::engine::Game;
use crate::ir::{BlockId, Place, Program, StmtKind};
use serde::{Deserialize, Serialize};

/// An assignment that may clamp: where it is, how it reads, the variable it writes and the
/// rule it lies in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClampSite {
    /// The assignment.
    #[serde(flatten)]
    pub site: Site,
    /// The variable or field it writes, as declared (`money`, `track.value`).
    pub variable: String,
    /// The action, effect or phase it lies in (`action bid`), or `setup` or `flow`.
    pub rule: String,
}

/// How often one assignment clamped, over a batch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClampCount {
    /// Times it clamped, over every game played.
    pub times: u64,
    /// Games in which it clamped at least once.
    pub games: u64,
}

impl ClampCount {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: ClampCount) {
        self.times = self.times.saturating_add(other.times);
        self.games = self.games.saturating_add(other.games);
    }
}

/// One assignment that clamped in a batch, as a report lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clamped {
    /// The assignment, its variable and its rule.
    #[serde(flatten)]
    pub site: ClampSite,
    /// How often, and in how many games.
    #[serde(flatten)]
    pub count: ClampCount,
}

/// Every assignment of the program to a bounded variable, as (block, statement index), in
/// source order.
pub fn clamp_statements(program: &Program) -> Vec<(BlockId, usize)> {
    let mut found: Vec<(BlockId, usize)> = Vec::new();
    for (b, block) in program.blocks.iter().enumerate() {
        for (i, stmt) in block.stmts.iter().enumerate() {
            if let StmtKind::Assign { place, .. } = &stmt.kind {
                if bounded(program, place).is_some() {
                    found.push((BlockId(b as u32), i));
                }
            }
        }
    }
    found.sort_by_key(|(b, i)| program.blocks[b.index()].stmts[*i].span);
    found
}

/// The name of the variable a place writes, if it is declared with bounds.
fn bounded(program: &Program, place: &Place) -> Option<String> {
    let (def, name) = match place {
        Place::Local(_) => return None,
        Place::Global(g) => {
            let def = &program.globals[g.index()];
            (def, def.name.clone())
        }
        Place::PlayerVar(_, v) => {
            let def = &program.player_vars[v.index()];
            (def, def.name.clone())
        }
        Place::Field(_, k, f) => {
            let kind = &program.kinds[k.index()];
            let def = &kind.fields[f.index()];
            (def, format!("{}.{}", kind.name, def.name))
        }
    };
    let any = def.bounds.is_some() || def.bounds_by_players.iter().any(Option::is_some);
    any.then_some(name)
}

/// How a report names the assignments of [`clamp_statements`], in the same order.
pub fn clamp_sites(program: &Program) -> Vec<ClampSite> {
    let statements = clamp_statements(program);
    let rules = rule_names(program);
    let spans: Vec<_> = statements
        .iter()
        .map(|(b, i)| program.blocks[b.index()].stmts[*i].span)
        .collect();
    sites(program, &spans)
        .into_iter()
        .zip(&statements)
        .map(|(site, (b, i))| {
            let variable = match &program.blocks[b.index()].stmts[*i].kind {
                StmtKind::Assign { place, .. } => bounded(program, place).unwrap_or_default(),
                _ => String::new(),
            };
            ClampSite {
                site,
                variable,
                rule: rules[b.index()].clone(),
            }
        })
        .collect()
}

/// The rule each block lies in, by block id: `action NAME`, the kind and name of an effect or
/// phase, `setup` or `flow`.
fn rule_names(program: &Program) -> Vec<String> {
    let mut names = vec![String::new(); program.blocks.len()];
    let bodies = program.procs.iter().map(|p| (p.body, proc_name(p))).chain(
        program
            .actions
            .iter()
            .map(|a| (a.body, format!("action {}", a.name))),
    );
    for (body, name) in bodies {
        let mut todo = vec![body];
        while let Some(b) = todo.pop() {
            let Some(slot) = names.get_mut(b.index()) else {
                continue;
            };
            if !slot.is_empty() {
                continue;
            }
            *slot = name.clone();
            for stmt in &program.blocks[b.index()].stmts {
                todo.extend(stmt.kind.blocks());
            }
        }
    }
    names
}

/// How a report names a procedure: `setup`, `flow`, or its kind and name.
fn proc_name(p: &crate::ir::ProcDef) -> String {
    match p.kind {
        crate::ir::ProcKind::Effect => format!("effect {}", p.name),
        crate::ir::ProcKind::Phase => format!("phase {}", p.name),
        _ => p.name.clone(),
    }
}

/// Adds the clamps of `game` (which noted them) to `counts`, aligned with `statements`
/// ([`clamp_statements`]).
pub fn count_clamps(game: &Game, statements: &[(BlockId, usize)], counts: &mut [ClampCount]) {
    for ((b, i), count) in statements.iter().zip(counts.iter_mut()) {
        let n = game.clamps_at(*b, *i).unwrap_or(0);
        if n > 0 {
            count.add(ClampCount {
                times: u64::from(n),
                games: 1,
            });
        }
    }
}

/// The assignments that clamped, in source order, from every site and its counts.
pub fn clamped(sites: &[ClampSite], counts: &[ClampCount]) -> Vec<Clamped> {
    sites
        .iter()
        .zip(counts)
        .filter(|(_, c)| c.times > 0)
        .map(|(site, count)| Clamped {
            site: site.clone(),
            count: *count,
        })
        .collect()
}

/// The counts of every site again from the assignments a report lists as clamped (a shard
/// document carries only those), matched by place.
pub fn counts_of(sites: &[ClampSite], clamped: &[Clamped]) -> Vec<ClampCount> {
    sites
        .iter()
        .map(|s| {
            clamped.iter().filter(|c| c.site.site.at == s.site.at).fold(
                ClampCount::default(),
                |mut n, c| {
                    n.add(c.count);
                    n
                },
            )
        })
        .collect()
}

/// One worker's clamps: the assignments that may clamp ([`clamp_statements`]) and how often
/// each did in the worker's games.
#[derive(Debug, Clone)]
pub struct ClampTally<'s> {
    statements: &'s [(BlockId, usize)],
    counts: Vec<ClampCount>,
}

impl<'s> ClampTally<'s> {
    /// No clamps yet at `statements`.
    pub fn new(statements: &'s [(BlockId, usize)]) -> ClampTally<'s> {
        ClampTally {
            statements,
            counts: vec![ClampCount::default(); statements.len()],
        }
    }

    /// Adds the clamps of a game played to its end (or its failure).
    pub fn count(&mut self, game: &Game) {
        count_clamps(game, self.statements, &mut self.counts);
    }

    /// The counts so far, aligned with the statements.
    pub fn counts(&self) -> &[ClampCount] {
        &self.counts
    }
}
