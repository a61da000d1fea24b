//! Snapshots of every game in `rules/`: its check report, and a seeded game by random bots for
//! every player count it allows, kept in `snapshots/` beside each file (the golden files
//! `meeple test` reads). A change to the checker, the engine or a rules file shows up there as a
//! reviewable diff.

mod common;

use common::{load_rel, rel, report};
use meeple::sim::{random_game, transcript};
use std::sync::Arc;

/// The seed of every snapshot game.
const SEED: u64 = 1;

#[test]
fn rules_files_check_and_play() {
    // The goldens `meeple test` keeps beside each file (`rules/**/snapshots/`), asserted with
    // the helper a designer's own crate would use.
    let mut files = 0;
    for path in common::all_rules() {
        files += 1;
        let name = rel(&path);
        let loaded = load_rel(&name, &[]);
        let rendered = report(&loaded);
        let root = common::root();
        assert!(
            !rendered.contains(root.to_string_lossy().as_ref()),
            "{name}: an absolute path in the report:\n{rendered}"
        );
        if let Some(program) = loaded.program {
            let program = Arc::new(program);
            for players in program.min_players..=program.max_players {
                let game = random_game(program.clone(), players, SEED)
                    .unwrap_or_else(|e| panic!("{name}, {players} players: {e}"));
                assert!(game.is_over(), "{name}, {players} players");
            }
        }
        meeple::assert_rules_snapshots!(&name);
    }
    assert!(files >= 2, "found {files} rules files");
}

#[test]
fn random_games_are_deterministic() {
    for path in common::all_rules() {
        let name = rel(&path);
        let Some(program) = load_rel(&name, &[]).program else {
            continue; // reported by the snapshot test
        };
        let program = Arc::new(program);
        for players in program.min_players..=program.max_players {
            let mut transcripts = Vec::new();
            for seed in [1, 2] {
                let a = random_game(program.clone(), players, seed).expect("plays");
                let b = random_game(program.clone(), players, seed).expect("plays");
                assert_eq!(a.history(), b.history(), "{name}, {players}p, seed {seed}");
                assert_eq!(transcript(&a), transcript(&b), "{name}, {players}p");
                assert_eq!(a.outcome(), b.outcome(), "{name}, {players}p");
                transcripts.push(transcript(&a));
            }
            // And the seed matters: two seeds giving the same game would mean it is ignored.
            assert_ne!(transcripts[0], transcripts[1], "{name}, {players}p");
        }
    }
}

#[test]
fn a_game_replays_from_its_seed_and_decisions() {
    // Replaying the recorded decisions on a fresh game with the same seed reaches the same end.
    for path in common::all_rules() {
        let name = rel(&path);
        let Some(program) = load_rel(&name, &[]).program else {
            continue;
        };
        let program = Arc::new(program);
        let players = program.min_players;
        let played = random_game(program.clone(), players, 5).expect("plays");
        let mut replay = meeple::engine::Game::new(program, players, 5).expect("starts");
        for r in played.history() {
            replay
                .apply_label(r.player, &r.choice)
                .unwrap_or_else(|e| panic!("{name}: replaying {r:?}: {e}"));
        }
        assert_eq!(replay.outcome(), played.outcome(), "{name}");
        assert_eq!(transcript(&replay), transcript(&played), "{name}");
    }
}

/// Variants that are played together: each combination's check report and a seeded bot game.
#[test]
fn combined_variants_check_and_play() {
    let combos: &[(&str, &[&str])] = &[(
        "rules/share_and_share_alike/carnival.rules",
        &["rules/share_and_share_alike/on_the_floor.rules"],
    )];
    insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => true }, {
        for (file, variants) in combos {
            let extra: Vec<String> = variants.iter().map(|v| v.to_string()).collect();
            let loaded = load_rel(file, &extra);
            let rendered = report(&loaded);
            let name = format!("{}+{}", file.trim_start_matches("rules/"), variants.join("+").replace("rules/", ""));
            let name = name.replace(['/', '.'], "_");
            insta::assert_snapshot!(format!("check_combined@{name}"), rendered);
            let program = Arc::new(loaded.program.unwrap_or_else(|| panic!("{name} does not check")));
            assert_eq!(program.variants.len(), 1 + variants.len(), "every variant is applied");
            for players in program.min_players..=program.max_players {
                let game = random_game(program.clone(), players, SEED).expect("plays to the end");
                insta::assert_snapshot!(format!("play_combined_{players}p@{name}"), transcript(&game));
            }
        }
    });
}
