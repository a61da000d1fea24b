//! Small defs written into their callers (`ir::inline`, applied when a file is loaded) change
//! nothing but speed: every rules file plays the same games as the program the checker gives,
//! with every call still a call.

mod common;

use common::{all_rules, rel};
use meeple::engine::Viewer;
use meeple::ir::{Expr, ExprKind, Program};
use meeple::load::load_merged_with;
use meeple::sim::random_game;
use std::path::Path;
use std::sync::Arc;

const SEEDS: u64 = 4;

fn calls(e: &Expr) -> usize {
    let own = usize::from(matches!(e.kind, ExprKind::Call(..)));
    let mut below = 0;
    e.any_child(|x| {
        below += calls(x);
        false
    });
    own + below
}

/// Calls of defs in def bodies and requirements.
fn calls_in(program: &Program) -> usize {
    let defs: usize = program.defs.iter().map(|d| calls(&d.body)).sum();
    let requires: usize = program
        .actions
        .iter()
        .flat_map(|a| &a.requires)
        .map(|r| calls(&r.cond))
        .sum();
    defs + requires
}

fn read(p: &Path) -> std::io::Result<String> {
    std::fs::read_to_string(p)
}

#[test]
fn every_rules_file_plays_the_same_games_with_its_small_defs_inlined() {
    let (mut inlined_calls, mut games) = (0, 0);
    for path in all_rules() {
        let name = rel(&path);
        let (loaded, merged) = load_merged_with(&path, &[], &read);
        let inlined = loaded.program.expect("every rules file checks");
        let plain = meeple::check::check(&merged.expect("merged"))
            .0
            .expect("checks");
        inlined_calls += calls_in(&plain) - calls_in(&inlined);
        let (inlined, plain) = (Arc::new(inlined), Arc::new(plain));
        for players in inlined.min_players..=inlined.max_players {
            for seed in 1..=SEEDS {
                let at = format!("{name}, {players} players, seed {seed}");
                let a = random_game(inlined.clone(), players, seed).expect("plays");
                let b = random_game(plain.clone(), players, seed).expect("plays");
                assert_eq!(a.history().len(), b.history().len(), "{at}");
                assert_eq!(a.outcome(), b.outcome(), "{at}");
                assert_eq!(a.state(), b.state(), "{at}");
                assert_eq!(a.log(Viewer::Spectator), b.log(Viewer::Spectator), "{at}");
                games += 1;
            }
        }
    }
    assert!(inlined_calls >= 5, "only {inlined_calls} calls inlined");
    assert!(games > 50, "only {games} games compared");
}
