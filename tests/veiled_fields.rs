//! A record's field with a visibility of its own (`hidden card: card visible when viewer !=
//! owner`): shown only to whom it admits, on every channel — text views for seats, onlookers
//! and the referee, the picture and the web page, the games a search bot imagines (worlds and
//! the fallback redeal) — and refused by the checker where a choice or a `show` would tell it.

mod common;

use common::{codes, program, program_of};
use meeple::bots::{MctsBot, Policy};
use meeple::engine::{show, Game, Imagination, Viewer};
use meeple::ir::Value;
use meeple::serve::page::{render, Sight};
use meeple::serve::Who;

const TOLD_HANDS: &str = "tests/fixtures/ok/told_hands.rules";

fn told_hands(seed: u64) -> Game {
    Game::new(program(TOLD_HANDS), 3, seed).expect("starts")
}

/// The names of the cards in `seat`'s hand, slot by slot.
fn cards(game: &Game, seat: u8) -> Vec<String> {
    let Value::List(slots) = common::player_var(game, seat, "hand") else {
        panic!("a hand is a list");
    };
    slots
        .iter()
        .map(|s| match s {
            Value::List(fields) => show(game.program(), game.state(), &fields[0]),
            other => panic!("{other:?} is not a slot"),
        })
        .collect()
}

/// The line of `seat`'s panel in `viewer`'s text view.
fn line(game: &Game, viewer: Viewer, seat: &str) -> String {
    let view = game.view(viewer);
    view.lines()
        .map(str::trim)
        .find(|l| l.starts_with(seat))
        .unwrap_or_else(|| panic!("no line for {seat} in\n{view}"))
        .to_string()
}

#[test]
fn a_hidden_field_reads_unknown_to_its_holder_and_onlookers_and_shows_once_its_condition_holds() {
    let mut game = told_hands(3);
    let [a, b] = [&cards(&game, 0)[0], &cards(&game, 0)[1]].map(|c| c.clone());
    let hidden = "P1 (you): hand [slot(card: ?, told: no), slot(card: ?, told: no)] · points 0";
    assert_eq!(line(&game, Viewer::Player(0), "P1 (you):"), hidden);
    // The others see both cards, by the record's `shown as` text.
    for seat in [1, 2] {
        assert_eq!(
            line(&game, Viewer::Player(seat), "P1:"),
            format!("P1: hand [{a}, {b}] · points 0")
        );
    }
    // An onlooker sees what every seat sees: not a card its holder cannot see.
    assert!(line(&game, Viewer::Spectator, "P1:").contains("slot(card: ?, told: no)"));
    assert!(game
        .view(Viewer::Referee)
        .contains(&format!("hand [{a}, {b}]")));
    // Told, the card shows to its holder too (`visible when ... or it.told`).
    common::play(&mut game, 0, "hint P2 1");
    common::play(&mut game, 1, "hint P1 2");
    assert_eq!(
        line(&game, Viewer::Player(0), "P1 (you):"),
        format!("P1 (you): hand [slot(card: ?, told: no), {b}] · points 0")
    );
    for viewer in [Viewer::Player(0), Viewer::Spectator] {
        let view = game.view(viewer);
        assert!(!view.contains(&a), "{viewer:?} sees {a}:\n{view}");
    }
}

#[test]
fn the_picture_and_the_page_of_a_seat_never_hold_its_hidden_cards() {
    let game = told_hands(5);
    let own = cards(&game, 0);
    let theirs = cards(&game, 1);
    let picture = format!("{:?}", game.picture(Viewer::Player(0)));
    let page = render(&Sight::of(
        &game,
        Who::Seat(0),
        "key".into(),
        1,
        false,
        false,
    ));
    for text in [&picture, &page] {
        for card in &own {
            assert!(!text.contains(card.as_str()), "{card} in\n{text}");
        }
        assert!(text.contains(theirs[0].as_str()), "{}", theirs[0]);
    }
}

#[test]
fn every_imagined_world_shows_the_seat_its_view_and_deals_its_hidden_cards_again() {
    let mut game = told_hands(7);
    common::play(&mut game, 0, "hint P2 1");
    common::play(&mut game, 1, "hint P3 1");
    common::play(&mut game, 2, "hint P2 2");
    assert_eq!(game.to_decide(), Some(0));
    let real = cards(&game, 0);
    let mut imagination = Imagination::new(0, 21);
    let mut dealt = std::collections::BTreeSet::new();
    for world in imagination.worlds(&game, 30) {
        assert_eq!(world.view(Viewer::Player(0)), game.view(Viewer::Player(0)));
        assert_eq!(cards(&world, 1), cards(&game, 1), "P2's cards are seen");
        dealt.insert(cards(&world, 0));
    }
    assert!(dealt.len() > 2, "P1's own cards are dealt again: {dealt:?}");
    // The fallback, the present position redealt, deals them again too.
    let mut redealt = std::collections::BTreeSet::new();
    for seed in 0..30 {
        let world = game.determinize(0, seed);
        assert_eq!(world.view(Viewer::Player(0)), game.view(Viewer::Player(0)));
        assert_eq!(cards(&world, 2), cards(&game, 2), "P3's cards are seen");
        redealt.insert(cards(&world, 0));
    }
    assert!(redealt.len() > 2, "{redealt:?}");
    assert!(redealt.iter().any(|c| *c != real), "{redealt:?}");
}

#[test]
fn the_search_bot_decides_the_same_whatever_its_hidden_cards_are() {
    let a = told_hands(1);
    let seen = |g: &Game| (cards(g, 1), cards(g, 2));
    let b = (2..40_000)
        .map(told_hands)
        .find(|b| seen(b) == seen(&a) && cards(b, 0) != cards(&a, 0))
        .expect("a twin deal");
    assert_eq!(a.view(Viewer::Player(0)), b.view(Viewer::Player(0)));
    for seed in 1..=3 {
        let on_a = MctsBot::new(seed, 0, 120).decide(&a, 0);
        let on_b = MctsBot::new(seed, 0, 120).decide(&b, 0);
        assert_eq!(on_a, on_b, "seed {seed}");
    }
}

const SLOTS: &str = r#"
game "Slots" { players 2 }

kind card[4] { number: int = index }

record slot {
  hidden card: card visible when viewer != owner
  told: bool = false
}

player var hand: list of slot = [slot(card: nth(card, 1)), slot(card: nth(card, 2))]

flow { for p in players { turn p } }

action pick "Pick a slot" {
  let i = choose me "Which?" from [j for j in [1, 2] where j == 1]
  me.hand[i].told = true
}

action pass { }

score(p) = count(s in p.hand where s.told)
"#;

#[test]
fn the_checker_refuses_what_would_tell_a_hidden_field_and_warns_where_a_check_reads_it() {
    let got = |from: &str, to: &str| {
        let bad = SLOTS.replace(from, to);
        assert_ne!(bad, SLOTS, "{from}");
        codes(&meeple::load::check_source("slots.rules", &bad))
    };
    let has = |from: &str, to: &str, code: &str| {
        let c = got(from, to);
        assert!(c.contains(code), "{to}: {c:?}");
    };
    has(
        "from [j for j in [1, 2] where j == 1]",
        "from me.hand",
        "veiled-options",
    );
    has(
        "  told: bool = false",
        "  internal told: bool = false",
        "record-field-internal",
    );
    has(
        "  told: bool = false",
        "  told: bool = false visible when viewer == owner",
        "visible-when-public",
    );
    has(
        "score(p) =",
        "player show first = owner.hand[1].card\nscore(p) =",
        "show-reads-secret",
    );
    has(
        "score(p) =",
        "player show whole = owner.hand\nscore(p) =",
        "show-reads-secret",
    );
    has(
        "action pass { }",
        // Before a check the mover can make: `why` would name it first.
        "action pass {\n require me.hand[1].card.number > 1 else \"no\"\n require not me.hand[1].told else \"told\"\n}",
        "hidden-in-check",
    );
    let clean = codes(&meeple::load::check_source("slots.rules", SLOTS));
    assert!(clean.is_empty(), "{clean:?}");
}

#[test]
fn a_choice_whose_options_a_hidden_field_filters_is_asked_even_with_one_option() {
    let asked = |filter: &str| {
        let program = program_of(&SLOTS.replace("where j == 1", filter));
        let mut game = Game::new(program, 2, 1).expect("starts");
        game.apply_label(0, "pick").expect("legal");
        game.to_decide() == Some(0)
    };
    assert!(!asked("where j == 1"), "a public filter: one option, taken");
    assert!(
        asked("where j == 1 and me.hand[j].card.number > 0"),
        "a filter that reads the hidden card: asked"
    );
}

#[test]
fn the_rulebook_says_who_sees_the_field() {
    let out = common::stdout(&common::meeple(&["doc", TOLD_HANDS], ""));
    assert!(
        out.contains("- the card of each slot: hidden: nobody sees it, and also visible to a viewer when: the viewer is not its owner"),
        "{out}"
    );
    assert!(
        out.contains("card (a card; nobody sees it; also seen by a viewer when:"),
        "{out}"
    );
}

const NOTES: &str = r#"
game "Notes" { players 2 }

record note {
  secret text: int = 0
  hidden ink: int = 0 visible when viewer == owner and it.text > 5
  page: int = 1
}

player var notes: list of note = [note(text: 7, ink: 3), note(text: 1, ink: 4)]
var board: note = note(text: 9, ink: 2)

flow { for p in players { turn p } }

action write "write" { me.notes[2].text += 10 }

score(p) = 0
"#;

#[test]
fn a_secret_field_shows_to_the_seat_whose_variable_holds_it_and_in_a_game_variable_to_nobody() {
    let mut game = Game::new(program_of(NOTES), 2, 1).expect("starts");
    // Its owner reads `text`, and `ink` where its own condition holds (text above 5).
    assert_eq!(
        line(&game, Viewer::Player(0), "P1 (you):"),
        "P1 (you): notes [note(text: 7, ink: 3, page: 1), note(text: 1, ink: ?, page: 1)]"
    );
    for viewer in [Viewer::Player(1), Viewer::Spectator] {
        assert_eq!(
            line(&game, viewer, "P1:"),
            "P1: notes [note(text: ?, ink: ?, page: 1), note(text: ?, ink: ?, page: 1)]"
        );
    }
    // A game variable has no owner: its secret field shows to no seat.
    for viewer in [Viewer::Player(0), Viewer::Player(1)] {
        assert!(
            game.view(viewer)
                .contains("board note(text: ?, ink: ?, page: 1)"),
            "{}",
            game.view(viewer)
        );
    }
    assert!(game
        .view(Viewer::Referee)
        .contains("board note(text: 9, ink: 2, page: 1)"));
    // The condition is read afresh: the second note's ink shows once its text passes 5.
    common::play(&mut game, 0, "write");
    assert!(
        line(&game, Viewer::Player(0), "P1 (you):").contains("note(text: 11, ink: 4, page: 1)"),
        "{}",
        game.view(Viewer::Player(0))
    );
}

#[test]
fn another_seats_secret_records_are_dealt_again_when_a_game_is_imagined_from_the_present() {
    let src = NOTES.replace("player var notes", "player secret var notes");
    let game = Game::new(program_of(&src), 2, 1).expect("starts");
    let real = common::player_var(&game, 0, "notes");
    let mut differ = 0;
    for seed in 0..20 {
        // The redeal of the present position, which the greedy bot and the search's fallback use.
        let world = game.determinize(1, seed);
        assert_eq!(
            world.view(Viewer::Player(1)),
            game.view(Viewer::Player(1)),
            "seed {seed}"
        );
        if common::player_var(&world, 0, "notes") != real {
            differ += 1;
        }
    }
    assert!(
        differ > 0,
        "P1's secret notes were kept as they are in every world"
    );
}

/// The docs' way to reveal one plain value of a list where it lies: a record whose field shows
/// once turned up.
#[test]
fn a_plain_value_held_in_a_record_is_revealed_where_it_lies_by_turning_it_up() {
    let src = r#"
game "Mat" { players 2 }
enum disc { rose, skull }
record disc_slot {
  secret disc: disc visible when it.up
  up: bool = false
}
player var mat: list of disc_slot = [disc_slot(disc: skull), disc_slot(disc: rose)]
flow { for p in players { turn p } }
action flip(i: int in 1..2) "turn a disc of your mat face up" { me.mat[i].up = true }
score(p) = 0
"#;
    let mut game = Game::new(program_of(src), 2, 1).expect("starts");
    assert_eq!(
        line(&game, Viewer::Player(1), "P1:"),
        "P1: mat [disc_slot(disc: ?, up: no), disc_slot(disc: ?, up: no)]"
    );
    common::play(&mut game, 0, "flip 2");
    for viewer in [Viewer::Player(1), Viewer::Spectator] {
        assert_eq!(
            line(&game, viewer, "P1:"),
            "P1: mat [disc_slot(disc: ?, up: no), disc_slot(disc: rose, up: yes)]"
        );
    }
    assert!(line(&game, Viewer::Player(0), "P1 (you):").contains("disc_slot(disc: skull, up: no)"));
}
