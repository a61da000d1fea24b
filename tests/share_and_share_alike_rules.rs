//! Share & Share Alike: what scenarios cannot say. Refused moves (a fourth action, drawing with
//! five cards, offering shares one does not hold), who reads a spy's look, the choices a shifted
//! Chance roll offers, and that Loose Lips and The Whole Truth cannot be played together.

use meeple::engine::{DecisionKind, Game, MoveError, Viewer};
use meeple::load;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const BASE: &str = "rules/share_and_share_alike.rules";
const LOOSE_LIPS: &str = "rules/share_and_share_alike/loose_lips.rules";
const WHOLE_TRUTH: &str = "rules/share_and_share_alike/the_whole_truth.rules";
const ON_THE_FLOOR: &str = "rules/share_and_share_alike/on_the_floor.rules";

/// Seed 6 makes P1 take the first turn of round 1 (the scenarios rely on it too).
const P1_FIRST: u64 = 6;
const P1: u8 = 0;
const P2: u8 = 1;
const P3: u8 = 2;
const P4: u8 = 3;

fn path(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

fn start(file: &str, seed: u64) -> Game {
    let loaded = load::load(&path(file), &[]);
    let program = Arc::new(loaded.program.expect("the rules check"));
    Game::new(program, 4, seed).expect("the game starts")
}

fn labels(game: &Game, p: u8) -> Vec<String> {
    game.options(p).into_iter().map(|o| o.label).collect()
}

fn play(game: &mut Game, p: u8, moves: &[&str]) {
    for m in moves {
        game.apply_label(p, m)
            .unwrap_or_else(|e| panic!("{} cannot play `{m}`: {e}", game.seat_name(p)));
    }
}

/// Everyone marks a share of `company` in round 1.
fn mark_all(game: &mut Game, company: &str) {
    for p in [P1, P2, P3, P4] {
        play(game, p, &[company]);
    }
}

/// Deals by hand: the cards are named `card-N` (1..13 clubs 2..A, 14..26 diamonds, 27..39
/// hearts, 40..52 spades); every card not given to a player goes to the Draw Deck, in order.
fn deal(game: &mut Game, hands: [&[u32]; 4]) {
    let mut given = Vec::new();
    for (p, cards) in hands.iter().enumerate() {
        let list: Vec<String> = cards.iter().map(|n| format!("card-{n}")).collect();
        game.set_value(
            &format!("P{}.hand", p + 1),
            &format!("[{}]", list.join(", ")),
        )
        .expect("a hand");
        given.extend_from_slice(cards);
    }
    let deck: Vec<String> = (1..=52)
        .filter(|n| !given.contains(n))
        .map(|n| format!("card-{n}"))
        .collect();
    game.set_value("draw_deck", &format!("[{}]", deck.join(", ")))
        .expect("the deck");
    game.set_value("discard_pile", "[]").expect("the pile");
}

#[test]
fn drawing_is_refused_with_five_cards_and_after_another_action() {
    let mut game = start(BASE, P1_FIRST);
    mark_all(&mut game, "A");
    assert_eq!(game.waiting_on(), vec![P1]);
    // Everyone is dealt five cards: no draw.
    assert!(!labels(&game, P1).contains(&"draw".to_string()));
    let why = game.why(P1, "draw").expect("drawing is refused");
    assert!(
        why.starts_with("you hold 5 cards; you may draw only with four or fewer"),
        "{why}"
    );
    // With four cards after a discard, drawing still needs all three actions.
    let card = labels(&game, P1)
        .into_iter()
        .find(|l| l.starts_with("discard "))
        .expect("a discard");
    play(&mut game, P1, &[&card, "none"]);
    let why = game.why(P1, "draw").expect("drawing is refused");
    assert!(
        why.starts_with("drawing takes all three actions, and you have 2 left"),
        "{why}"
    );
}

#[test]
fn a_fourth_action_is_refused_the_player_gets_no_more_turns() {
    let mut game = start(BASE, P1_FIRST);
    mark_all(&mut game, "A");
    // Three discards, one action each: the third ends P1's turn.
    for _ in 0..3 {
        let card = labels(&game, P1)
            .into_iter()
            .find(|l| l.starts_with("discard "))
            .expect("a discard");
        play(&mut game, P1, &[&card, "none"]);
    }
    assert_eq!(game.waiting_on(), vec![P2]);
    let card = game
        .view(Viewer::Player(P1))
        .lines()
        .find(|l| l.starts_with("  P1 (you): hand ["))
        .and_then(|l| l.split(['[', ',', ']']).nth(1).map(str::to_string))
        .expect("P1 still holds two cards");
    match game.apply_label(P1, &format!("play {card}")) {
        Err(MoveError::NotYourDecision { .. }) => {}
        other => panic!("a fourth action must be refused, got {other:?}"),
    }
    // Until the phase ends, P1 never gets another turn: the others end theirs at once.
    while game.decision_kind() == Some(DecisionKind::Turn) {
        let who = game.waiting_on()[0];
        assert_ne!(who, P1, "P1 has no action left in this phase");
        play(&mut game, who, &["end_turn"]);
    }
    assert!(game.log(Viewer::Spectator).iter().any(|l| l == "Round 2"));
}

#[test]
fn a_spy_look_is_read_by_the_spy_alone() {
    let mut game = start(BASE, P1_FIRST);
    // P1 holds the 2 of clubs (card-1); P3 holds the 2 and 3 of hearts (card-27, card-28).
    deal(&mut game, [&[1], &[], &[27, 28], &[]]);
    mark_all(&mut game, "C");
    play(&mut game, P1, &["play 2C", "P3", "hand"]);
    let seen = "You look at P3's hand: [2H, 3H]";
    assert!(game.log(Viewer::Player(P1)).iter().any(|l| l == seen));
    for v in [
        Viewer::Player(P2),
        Viewer::Player(P3),
        Viewer::Player(P4),
        Viewer::Spectator,
    ] {
        assert!(
            game.log(v).iter().all(|l| !l.contains("2H")),
            "{v:?} must not read P3's hand"
        );
    }
    // Other seats see how many cards a hand holds, not which.
    assert!(game
        .view(Viewer::Player(P2))
        .contains("P3: hand 2 hidden · tracker 1 hidden"));
}

#[test]
fn a_king_of_diamonds_shifts_the_chance_roll_by_up_to_two() {
    for (card, label, shift) in [(25, "KD", 2), (22, "10D", 1)] {
        let mut game = start(BASE, P1_FIRST);
        deal(&mut game, [&[card], &[], &[], &[]]);
        mark_all(&mut game, "A");
        play(&mut game, P1, &[&format!("play {label}")]);
        let roll: i64 = game
            .log(Viewer::Spectator)
            .iter()
            .find_map(|l| l.strip_prefix("P1 tempts Chance and rolls "))
            .and_then(|r| r.split(' ').next())
            .and_then(|r| r.parse().ok())
            .expect("a roll");
        let chart = [
            "Market crash",
            "Scandal",
            "Insider tip",
            "Windfall",
            "Rumour",
            "Boom",
        ];
        let mut events: Vec<String> = (roll - shift..=roll + shift)
            .map(|r| chart[r.clamp(1, 6) as usize - 1].to_string())
            .collect();
        events.dedup();
        assert_eq!(labels(&game, P1), events, "{label} after a roll of {roll}");
    }
}

#[test]
fn a_low_diamond_takes_the_roll_as_it_falls() {
    let mut game = start(BASE, P1_FIRST);
    deal(&mut game, [&[17], &[], &[], &[]]); // the 5 of diamonds
    mark_all(&mut game, "A");
    play(&mut game, P1, &["play 5D"]);
    let log = game.log(Viewer::Spectator);
    let rolled = log
        .iter()
        .find_map(|l| l.strip_prefix("P1 tempts Chance and rolls "))
        .expect("a roll");
    // "5 (Scandal)" is followed by "Chance: Scandal", with no choice in between.
    let event = rolled.split(['(', ')']).nth(1).expect("the event");
    assert!(
        log.iter().any(|l| *l == format!("Chance: {event}")),
        "{log:?}"
    );
}

#[test]
fn shares_not_held_cannot_be_offered_nor_given() {
    let mut game = start(ON_THE_FLOOR, P1_FIRST);
    for (p, c) in [(P1, "A"), (P2, "B"), (P3, "C"), (P4, "D")] {
        play(&mut game, p, &[c]);
    }
    play(&mut game, P1, &["end_turn"]); // the trade window opens for P2, P3 and P4
    play(&mut game, P2, &["offer", "P3"]);
    // P2 holds one share of B and nothing else: that is all P2 may offer. The company and how
    // many are asked all the same, one option each: the options come from P2's secret tracker,
    // and being spared the questions would tell the table what P2 holds.
    assert_eq!(labels(&game, P2), ["B"]);
    play(&mut game, P2, &["B"]);
    assert_eq!(labels(&game, P2), ["1"]);
    play(&mut game, P2, &["1"]);
    assert_eq!(labels(&game, P2), ["0", "1", "2", "3"]);
    assert!(game.apply_label(P2, "E").is_err());
    let log = game.log(Viewer::Player(P4)).join("\n");
    assert!(log.contains("P2 chose B\nP2 chose 1"), "{log}");
    play(&mut game, P2, &["2", "A"]); // 1 B for 2 A: P3 holds no A, so may only refuse
    assert_eq!(labels(&game, P3), ["refuse"]);
    play(&mut game, P3, &["refuse"]);
    let log = game.log(Viewer::Player(P4)).join("\n");
    assert!(log.contains("P3 chose refuse"), "{log}");
    assert!(!log.contains("only option"), "{log}");
    assert_eq!(game.to_decide(), Some(P3)); // the window goes on: P3 may offer
                                            // P3 holds a share of C: asked for it, P4 could accept.
    play(&mut game, P3, &["offer", "P2", "C", "1", "1", "B"]);
    assert_eq!(labels(&game, P2), ["accept", "refuse"]);
    play(&mut game, P2, &["accept"]);
    // The trade swapped the two shares: P2 now holds C, P3 holds B.
    let mine = |p: u8| {
        game.view(Viewer::Player(p))
            .lines()
            .find(|l| l.starts_with(&format!("  P{} (you):", p + 1)))
            .map(str::to_string)
            .expect("a line for oneself")
    };
    assert!(mine(P2).ends_with("tracker [C]"), "{}", mine(P2));
    assert!(mine(P3).ends_with("tracker [B]"), "{}", mine(P3));
}

#[test]
fn a_shown_tracker_is_public_a_secret_one_is_not() {
    let mut game = start(WHOLE_TRUTH, P1_FIRST);
    mark_all(&mut game, "B");
    assert!(game
        .view(Viewer::Player(P2))
        .contains("P1: hand 5 hidden · tracker 1 hidden"));
    play(&mut game, P1, &["show_tracker"]);
    for v in [Viewer::Player(P2), Viewer::Player(P3), Viewer::Spectator] {
        let view = game.view(v);
        assert!(view.contains("P1: hand 5 hidden · tracker [B]"), "{view}");
        assert!(
            view.contains("P4: hand 5 hidden · tracker 1 hidden"),
            "{view}"
        );
    }
}

#[test]
fn loose_lips_and_the_whole_truth_exclude_each_other() {
    for (game, with) in [(LOOSE_LIPS, WHOLE_TRUTH), (WHOLE_TRUTH, LOOSE_LIPS)] {
        let loaded = load::load(&path(game), &[path(with)]);
        assert!(loaded.program.is_none(), "{game} with {with} must not load");
        assert!(
            loaded
                .diagnostics
                .0
                .iter()
                .any(|d| d.code == "variants-exclude"),
            "{game} with {with}"
        );
    }
    // Each of them combines with On The Floor and Carnival.
    let carnival = path("rules/share_and_share_alike/carnival.rules");
    for game in [LOOSE_LIPS, WHOLE_TRUTH] {
        let loaded = load::load(&path(game), &[path(ON_THE_FLOOR), carnival.clone()]);
        assert!(
            loaded.program.is_some(),
            "{game} with On The Floor and Carnival"
        );
    }
}
