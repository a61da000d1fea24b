//! Cheater's Game against its rulings (`docs/rulings.md`): the end of the game scored by
//! hand (CG-7, CG-8), and scenarios played through real moves (CG-3, CG-4, CG-5, CG-6, CG-9).
//!
//! Scenarios need particular dice. Each uses a seed found by trying seeds in order; it is written
//! down with what it gives, and the test asserts those dice first, so that a change to the
//! random stream fails loudly at the precondition rather than somewhere confusing.

mod common;

use common::{instance, load_rel, play, player_int, player_var, program};
use meeple::engine::{DecisionKind, Game, Outcome, Viewer};
use meeple::ir::Value;
use std::sync::Arc;

const GAME: &str = "rules/cheaters_game.rules";

fn cheaters_game() -> Arc<meeple::ir::Program> {
    program(GAME)
}

/// A 4-player game set up by hand, then ended where it stands. `honest` is P1..P4's honest
/// score; each alliance is (number, leader, members, track) and is put in play.
fn scored(honest: [i64; 4], alliances: &[(u8, &str, &str, i64)]) -> Outcome {
    let mut g = Game::new(cheaters_game(), 4, 1).expect("starts");
    for (i, h) in honest.iter().enumerate() {
        g.set_value(&format!("P{}.honest", i + 1), &h.to_string())
            .unwrap();
    }
    for (n, leader, members, track) in alliances {
        let a = format!("alliance-{n}");
        g.set_value(&format!("{a}.in_play"), "yes").unwrap();
        g.set_value(&format!("{a}.leader"), leader).unwrap();
        g.set_value(&format!("{a}.members"), members).unwrap();
        g.set_value(&format!("{a}.track"), &track.to_string())
            .unwrap();
    }
    g.end_now().expect("scores").clone()
}

#[test]
fn cg8_a_tie_on_total_is_broken_by_honest_points() {
    // P1: 30 honest                          = 30
    // P2: 20 honest + alliance-1 (10)        = 30
    // P3:  5 honest + alliance-1 (10)        = 15
    // P4: 12 honest                          = 12
    // P1 and P2 tie on 30; P1 has more honest points (30 > 20) and wins alone.
    let o = scored([30, 20, 5, 12], &[(1, "P2", "[P3]", 10)]);
    assert_eq!(o.scores, vec![30, 30, 15, 12]);
    assert_eq!(o.winners, vec![0]);
}

#[test]
fn cg8_cheaters_tied_at_the_top_lose_to_the_best_honest_player() {
    // P1: 10 honest + alliance-1 (20)        = 30
    // P2: 10 honest + alliance-1 (20)        = 30
    // P3: 15 honest                          = 15
    // P4: 12 honest                          = 12
    // P1 and P2 tie on total (30) and on honest points (10): still tied, so everyone with
    // cheater points (P1, P2) loses; of P3 and P4 the higher total, P3 with 15, wins.
    let o = scored([10, 10, 15, 12], &[(1, "P1", "[P2]", 20)]);
    assert_eq!(o.scores, vec![30, 30, 15, 12]);
    assert_eq!(o.winners, vec![2]);
}

#[test]
fn cg8_when_everyone_cheated_and_the_top_is_tied_everyone_loses() {
    // P1: 10 honest + alliance-1 (20)        = 30
    // P2: 10 honest + alliance-1 (20)        = 30
    // P3: 20 honest + alliance-2 (5)         = 25
    // P4:  1 honest + alliance-2 (5)         = 6
    // P1 and P2 tie on 30 and on 10 honest; every player has cheater points: nobody wins.
    let o = scored(
        [10, 10, 20, 1],
        &[(1, "P1", "[P2]", 20), (2, "P3", "[P4]", 5)],
    );
    assert_eq!(o.scores, vec![30, 30, 25, 6]);
    assert_eq!(o.winners, Vec::<u8>::new());
}

#[test]
fn cg8_honest_players_tied_after_the_cheaters_are_out_share_the_win() {
    // P1: 10 honest + alliance-1 (20)        = 30
    // P2: 10 honest + alliance-1 (20)        = 30
    // P3: 14 honest                          = 14
    // P4: 14 honest                          = 14
    // P1 and P2 tie on total and honest and lose; P3 and P4 tie on 14 and share the win.
    let o = scored([10, 10, 14, 14], &[(1, "P1", "[P2]", 20)]);
    assert_eq!(o.scores, vec![30, 30, 14, 14]);
    assert_eq!(o.winners, vec![2, 3]);
}

#[test]
fn cg8_a_clear_highest_total_wins_even_with_cheater_points() {
    // P1:  5 honest                          = 5
    // P2: 15 honest + alliance-1 (25)        = 40
    // P3:  3 honest + alliance-1 (25)        = 28
    // P4: 39 honest                          = 39
    // P2 has the highest total alone, and wins although part of it is cheater points.
    let o = scored([5, 15, 3, 39], &[(1, "P2", "[P3]", 25)]);
    assert_eq!(o.scores, vec![5, 40, 28, 39]);
    assert_eq!(o.winners, vec![1]);
}

#[test]
fn cg7_every_participant_scores_the_full_track_of_every_surviving_alliance() {
    // alliance-1: P1 leads, P2 and P3 members, track 12 (in play)
    // alliance-2: P3 leads, P2 member, track 7 (in play)
    // alliance-3: P4 led it, P1 was in it, track 50, but it is not in play: it scores nothing.
    // P1: 1 honest + 12                      = 13
    // P2: 2 honest + 12 + 7 (two alliances)  = 21
    // P3: 3 honest + 12 + 7 (leads one)      = 22
    // P4: 4 honest                           = 4
    let mut g = Game::new(cheaters_game(), 4, 1).expect("starts");
    for (p, h) in [("P1", 1), ("P2", 2), ("P3", 3), ("P4", 4)] {
        g.set_value(&format!("{p}.honest"), &h.to_string()).unwrap();
    }
    for (a, in_play, leader, members, track) in [
        ("alliance-1", "yes", "P1", "[P2, P3]", "12"),
        ("alliance-2", "yes", "P3", "[P2]", "7"),
        ("alliance-3", "no", "P4", "[P1]", "50"),
    ] {
        g.set_value(&format!("{a}.in_play"), in_play).unwrap();
        g.set_value(&format!("{a}.leader"), leader).unwrap();
        g.set_value(&format!("{a}.members"), members).unwrap();
        g.set_value(&format!("{a}.track"), track).unwrap();
    }
    let o = g.end_now().expect("scores").clone();
    assert_eq!(o.scores, vec![13, 21, 22, 4]);
    assert_eq!(o.winners, vec![2]);
    // The end is in the log and the game is over: no more moves.
    assert!(g.is_over());
    assert!(g.log(Viewer::Spectator).contains(&"Winner: P3".to_string()));
    assert_eq!(
        g.apply_label(0, "honest"),
        Err(meeple::engine::MoveError::GameOver)
    );
}

#[test]
fn set_value_refuses_what_it_cannot_read() {
    let mut g = Game::new(cheaters_game(), 4, 1).unwrap();
    assert!(g.set_value("P9.honest", "3").is_err(), "no seat P9");
    assert!(g.set_value("P1.dishonest", "3").is_err());
    assert!(g.set_value("alliance-6.track", "3").is_err(), "5 alliances");
    assert!(g.set_value("alliance-1.colour", "3").is_err());
    assert!(g.set_value("rounds", "3").is_err());
    assert!(g.set_value("P1.honest", "lots").is_err());
    // A failed set leaves the value as it was.
    assert_eq!(player_int(&g, 0, "honest"), 0);
}

/// Starts a 4-player game with `seed`; returns it and the seat that goes first.
fn start(seed: u64) -> (Game, u8) {
    let g = Game::new(cheaters_game(), 4, seed).expect("starts");
    let first = g.waiting_on()[0];
    (g, first)
}

fn last_log(g: &Game) -> String {
    g.log(Viewer::Spectator).last().cloned().unwrap_or_default()
}

/// Seed 2: P3 goes first; P3 cheats and forms alliance-1, P4 and P1 join, P2 declines; P3 rolls
/// [3, 6] (no duplicates: no bonus pool), track 9. Then P4 plays honest and rolls a 5.
fn whistle_position() -> Game {
    let (mut g, first) = start(2);
    assert_eq!(first, 2, "precondition: with seed 2, P3 goes first");
    play(&mut g, 2, "cheat");
    play(&mut g, 2, "form");
    // Every other player is asked in seat order from the leader's left: P4, P1, P2.
    assert_eq!(g.waiting_on(), vec![3]);
    play(&mut g, 3, "join");
    play(&mut g, 0, "join");
    play(&mut g, 1, "decline");
    let log = g.log(Viewer::Spectator);
    assert!(log.contains(&"P3 leads alliance-1 with [P4, P1]".to_string()));
    // CG-3: one die per member, the leader not counted: two dice for two members.
    assert_eq!(
        last_log(&g),
        "P3 rolls [3, 6] for alliance-1: its track is now 9",
        "precondition: the dice of seed 2"
    );
    assert_eq!(g.decision_kind(), Some(DecisionKind::Turn));
    assert_eq!(g.waiting_on(), vec![3], "P4 plays next");
    play(&mut g, 3, "honest");
    assert_eq!(
        last_log(&g),
        "P4 rolls 5",
        "precondition: the roll of seed 2"
    );
    // CG-5: in an alliance with a 5 or 6, P4 may blow the whistle instead of taking the points.
    assert_eq!(g.decision_kind(), Some(DecisionKind::Ask));
    let options: Vec<String> = g.options(3).into_iter().map(|o| o.label).collect();
    assert_eq!(options, ["whistle", "take"]);
    g
}

#[test]
fn cg5_whistleblowing_pays_the_whistleblower_and_punishes_the_rest() {
    let mut g = whistle_position();
    play(&mut g, 3, "whistle");
    // P4 is in one alliance only: no choice of alliance. P4 gains the track (9); the leader P3
    // and the other member P1 lose 9 (going negative) and pass their next turn.
    // Play goes on to P1, who passes at once, then to P2, who declined and is untouched.
    let log = g.log(Viewer::Spectator);
    assert_eq!(
        log[log.len() - 2..],
        [
            "P4 blows the whistle on alliance-1: P4 +9; [P3, P1] lose 9 and pass their next turn",
            "P1 passes this turn"
        ]
    );
    assert_eq!(g.waiting_on(), vec![1]);
    let honest: Vec<i64> = (0..4).map(|p| player_int(&g, p, "honest")).collect();
    assert_eq!(honest, [-9, 0, -9, 9]);
    assert_eq!(
        player_var(&g, 2, "skip_next"),
        Value::bool(true),
        "P3 still to pass"
    );
    assert_eq!(
        player_var(&g, 0, "skip_next"),
        Value::bool(false),
        "P1 has passed"
    );
    // The pawn set is back in the pool.
    assert_eq!(
        instance(&g, "alliance", 1),
        "in_play no · leader none · members [] · track 0"
    );
    // P2 ends round 1; in round 2 P3 (first) passes and P4 is next.
    play(&mut g, 1, "honest");
    assert_eq!(g.waiting_on(), vec![3]);
    assert!(g
        .log(Viewer::Spectator)
        .contains(&"P3 passes this turn".to_string()));
    assert_eq!(player_var(&g, 2, "skip_next"), Value::bool(false));
    // With the pawn set free again, anyone may cheat: forming is offered.
    play(&mut g, 3, "cheat");
    assert_eq!(
        g.options(3)
            .into_iter()
            .map(|o| o.label)
            .collect::<Vec<_>>(),
        ["form", "skip"]
    );
}

#[test]
fn cg5_taking_the_points_instead_keeps_the_alliance() {
    let mut g = whistle_position();
    play(&mut g, 3, "take");
    let honest: Vec<i64> = (0..4).map(|p| player_int(&g, p, "honest")).collect();
    assert_eq!(honest, [0, 0, 0, 5], "P4 takes the 5");
    assert_eq!(
        instance(&g, "alliance", 1),
        "in_play yes · leader P3 · members [P4, P1] · track 9"
    );
    assert_eq!(g.waiting_on(), vec![0], "P1 is not skipped");
}

/// Seed 42: P3 goes first; P3 cheats and forms alliance-1 with P4 and P1 (P2 declines) and
/// rolls [6, 6]: both dice repeat, so the bonus pool is 12 (CG-4).
fn bonus_position() -> Game {
    let (mut g, first) = start(42);
    assert_eq!(first, 2, "precondition: with seed 42, P3 goes first");
    play(&mut g, 2, "cheat");
    play(&mut g, 2, "form");
    play(&mut g, 3, "join");
    play(&mut g, 0, "join");
    play(&mut g, 1, "decline");
    assert_eq!(
        last_log(&g),
        "P3 rolls [6, 6] for alliance-1: its track is now 12",
        "precondition: the dice of seed 42"
    );
    // The roller keeps 0 to 12 of the pool.
    assert_eq!(g.decision_kind(), Some(DecisionKind::Choose));
    let keep: Vec<String> = g.options(2).into_iter().map(|o| o.label).collect();
    assert_eq!(keep, (0..=12).map(|k| k.to_string()).collect::<Vec<_>>());
    play(&mut g, 2, "5");
    // ... and offers the other 7 to any other player, alliance member or not.
    let to: Vec<String> = g.options(2).into_iter().map(|o| o.label).collect();
    assert_eq!(to, ["P4", "P1", "P2"]);
    play(&mut g, 2, "P2");
    assert_eq!(g.waiting_on(), vec![1]);
    assert_eq!(
        g.prompt(1).as_deref(),
        Some("P3 keeps 5 of a bonus pool of 12 and offers you 7. Accept?")
    );
    g
}

#[test]
fn cg4_an_accepted_offer_pays_both() {
    let mut g = bonus_position();
    play(&mut g, 1, "accept");
    let honest: Vec<i64> = (0..4).map(|p| player_int(&g, p, "honest")).collect();
    // P3 keeps 5, P2 gets 12 - 5 = 7; the track still moved by the full sum, 12.
    assert_eq!(honest, [0, 7, 5, 0]);
    assert_eq!(
        instance(&g, "alliance", 1),
        "in_play yes · leader P3 · members [P4, P1] · track 12"
    );
    assert_eq!(last_log(&g), "P2 accepts: P3 +5, P2 +7");
}

#[test]
fn cg4_a_refused_offer_is_lost_to_both() {
    let mut g = bonus_position();
    play(&mut g, 1, "refuse");
    let honest: Vec<i64> = (0..4).map(|p| player_int(&g, p, "honest")).collect();
    assert_eq!(honest, [0, 0, 0, 0], "nobody gains");
    assert_eq!(
        instance(&g, "alliance", 1),
        "in_play yes · leader P3 · members [P4, P1] · track 12"
    );
    assert_eq!(last_log(&g), "P2 refuses: the bonus pool of 12 is lost");
    assert_eq!(g.waiting_on(), vec![3], "P4's turn follows");
}

#[test]
fn cg4_the_pool_counts_every_die_whose_value_repeats() {
    // The `duplicates` builtin on rolls set by hand, through a tiny fixture.
    let cases: [(&str, i64); 6] = [
        ("[3, 3, 5, 5, 5, 2]", 21), // 3+3 + 5+5+5; the lone 2 does not count (the ruling's example)
        ("[1, 2, 3, 4, 5, 6]", 0),  // no value repeats
        ("[6, 6, 6, 6]", 24),       // 4 × 6
        ("[2, 2, 3, 3]", 10),       // 2+2 + 3+3
        ("[4]", 0),                 // one die never repeats
        ("[]", 0),                  // no dice
    ];
    let program = program("tests/fixtures/ok/bonus_pool.rules");
    for (dice, pool) in cases {
        let mut g = Game::new(program.clone(), 2, 1).unwrap();
        g.set_value("dice", dice).unwrap();
        play(&mut g, 0, "tally");
        let o = g.outcome().expect("one turn, then over");
        assert_eq!(o.scores, vec![pool, pool], "{dice}");
    }
}

#[test]
fn cg3_nobody_joining_forms_no_alliance() {
    let (mut g, first) = start(2);
    assert_eq!(first, 2);
    play(&mut g, 2, "cheat");
    play(&mut g, 2, "form");
    for p in [3, 0, 1] {
        play(&mut g, p, "decline");
    }
    assert!(g
        .log(Viewer::Spectator)
        .contains(&"Nobody joins: no alliance forms".to_string()));
    assert_eq!(
        instance(&g, "alliance", 1),
        "in_play no · leader none · members [] · track 0"
    );
    assert_eq!(g.waiting_on(), vec![3]);
}

#[test]
fn cg6_and_cg9_how_long_a_game_lasts() {
    let total = |g: &Game, p: u8| g.outcome().unwrap().scores[p as usize];
    let base = cheaters_game();
    let race = program("rules/cheaters_game/win_the_race.rules");
    for players in 3..=5 {
        for seed in 1..=3 {
            // CG-6: exactly 10 rounds.
            let g = meeple::sim::random_game(base.clone(), players, seed).unwrap();
            assert_eq!(common::global(&g, "round"), Value::Int(10));
            let rounds = g
                .log(Viewer::Spectator)
                .iter()
                .filter(|l| l.starts_with("Round "))
                .count();
            assert_eq!(rounds, 10);
            // CG-9: the race ends once some total passes 100, at the end of that round only.
            let g = meeple::sim::random_game(race.clone(), players, seed).unwrap();
            assert!(
                (0..players).any(|p| total(&g, p) > 100),
                "{players}p seed {seed}"
            );
            let log = g.log(Viewer::Spectator);
            let last_round = log.iter().rposition(|l| l.starts_with("Round ")).unwrap();
            // Every seat acted (or passed) in the last round: it was played to its end.
            let acted = log[last_round..]
                .iter()
                .filter(|l| {
                    (0..players).any(|p| {
                        let n = format!("P{}", p + 1);
                        l.starts_with(&format!("{n}: honest"))
                            || l.starts_with(&format!("{n}: cheat"))
                            || l.starts_with(&format!("{n} passes"))
                    })
                })
                .count();
            assert_eq!(acted, players as usize, "{players}p seed {seed}");
        }
    }
    // The variant really is the base with one part replaced.
    assert!(load_rel("rules/cheaters_game/win_the_race.rules", &[])
        .diagnostics
        .0
        .is_empty());
}
