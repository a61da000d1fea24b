//! Every declared invariant holds across many seeded all-bot games of every rules file: the
//! engine checks invariants after each decision, so a game that breaks one stops with an error.

mod common;
use meeple::load;
use std::sync::Arc;

/// Games per rules file, spread over its player counts.
const GAMES: u64 = 200;

#[test]
fn invariants_hold_in_200_bot_games_of_every_rules_file() {
    let files = common::all_rules();
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    for f in &files {
        let program = Arc::new(
            load::load(f, &[])
                .program
                .unwrap_or_else(|| panic!("{} has errors", f.display())),
        );
        let counts = (program.min_players..=program.max_players).collect::<Vec<_>>();
        for seed in 0..GAMES {
            let players = counts[seed as usize % counts.len()];
            if let Err(e) = meeple::sim::random_game(program.clone(), players, seed) {
                failures.push(format!(
                    "{} ({players} players, seed {seed}): {e}",
                    f.display()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_broken_invariant_stops_the_game_and_undoes_the_move() {
    let src = r#"
game "Leaking Bank" { players 2 }
var bank: int = 10
player var coins: int = 0
invariant coins_kept "coins are in the bank or with a player" = bank + sum(p.coins for p in players) == 10
flow { repeat 3 { for p in players { turn p } } }
action take { bank -= 1
  me.coins += 1 }
action steal { me.coins += 1 }
"#;
    let program = Arc::new(
        load::check_source("bank.rules", src)
            .program
            .expect("valid"),
    );
    let mut game = meeple::engine::Game::new(program, 2, 1).expect("starts");
    let seat = game.waiting_on()[0];
    game.apply_label(seat, "take")
        .expect("take keeps the invariant");
    let seat = game.waiting_on()[0];
    let before = game.view(meeple::engine::Viewer::Spectator);
    let err = game
        .apply_label(seat, "steal")
        .expect_err("steal breaks it");
    assert!(err.to_string().contains("invariant-broken"), "{err}");
    assert!(err.to_string().contains("coins_kept"), "{err}");
    // The values of its parts, and the decision that broke it.
    assert!(
        err.to_string()
            .contains("`bank + sum(p.coins for p in players)` is 11 (in decision 2)"),
        "{err}"
    );
    assert_eq!(
        game.view(meeple::engine::Viewer::Spectator),
        before,
        "the move was undone"
    );
    assert_eq!(game.history().len(), 1);
}
