//! Views laid out by the designer: texts with conditional and repeated parts (`{if ...}`,
//! `{each ...}`).

mod common;

use meeple::engine::{Game, Viewer};
use meeple::load::check_source;
use std::sync::Arc;

/// The program of `src`, which must check without errors.
fn program(src: &str) -> Arc<meeple::ir::Program> {
    common::program_of(src)
}

/// The codes of `src`'s errors, in order.
fn errors(src: &str) -> Vec<&'static str> {
    check_source("test.rules", src)
        .diagnostics
        .0
        .iter()
        .filter(|d| d.severity == meeple::diag::Severity::Error)
        .map(|d| d.code)
        .collect()
}

/// The codes of `src`'s diagnostics, in order.
fn codes(src: &str) -> Vec<&'static str> {
    check_source("test.rules", src)
        .diagnostics
        .0
        .iter()
        .map(|d| d.code)
        .collect()
}

const GEMS: &str = r#"
game "Gems" { players 2 }

enum gem { white, blue, green }

kind card[2] shown as "{it.tier}:{each g in gem where cost(it, g) > 0 "{g}{cost(it, g)}"}" {
  tier: int = 1
  white_cost: int = 0
  blue_cost: int = 2
  green_cost: int = 1
}

def cost(c: card, g: gem): int =
  if g == white then c.white_cost else if g == blue then c.blue_cost else c.green_cost
def held(p: player, g: gem): int = count(x in p.gems where x == g)

player var gems: list of gem = []

flow {
  log "{first(card)}"
  for p in players {
    if p == first(players) { p.gems = [white, blue, blue] }
    log "{p}: {each g in gem where held(p, g) > 0 "{held(p, g)} {g}" sep ", "}{if count(p.gems) == 0 then "nothing"}."
    log "{p} has {if count(p.gems) > 2 then "many" else if count(p.gems) > 0 then "some" else "none"} ({if count(p.gems) > 0 then 1 else 0})"
    log "{each q in players "[{each g in q.gems "{g}" sep "+"}]" sep " "}"
  }
  turn first(players)
}

action pass "Pass" { }

score(p) = count(p.gems)
"#;

#[test]
fn if_and_each_parts_write_what_holds_and_each_element_kept() {
    let game = Game::new(program(GEMS), 2, 1).expect("starts");
    let log = game.log(Viewer::Spectator);
    let want = [
        "1:blue2green1",
        "P1: 1 white, 2 blue.",
        "P1 has many (1)",
        "[white+blue+blue] []",
        "P2: nothing.",
        "P2 has none (0)",
        "[white+blue+blue] []",
    ];
    assert_eq!(log, want);
}

#[test]
fn a_text_each_over_what_is_not_a_list_and_an_if_over_a_number_are_type_mismatches() {
    let src = r#"
game "X" { players 2 }
flow { log "{each x in 3 "{x}"}{if 2 then "a"}" }
score(p) = 0
"#;
    assert_eq!(codes(src), ["type-mismatch", "type-mismatch"]);
}

#[test]
fn a_text_part_that_is_not_closed_is_a_syntax_error() {
    for body in [
        r#"{each x in players}"#,
        r#"{each x in players "{x}" sep}"#,
        r#"{if true then "a" else 1}"#,
    ] {
        let src = format!("game \"X\" {{ players 2 }}\nflow {{ log \"{body}\" }}\nscore(p) = 0\n");
        assert_eq!(codes(&src), ["syntax-error"], "{body}");
    }
}

#[test]
fn the_reason_of_a_requirement_reads_secrets_inside_each_parts_too() {
    let src = r#"
game "X" { players 2 }
player secret var stash: list of int = [1, 2]
flow { for p in players { turn p } }
action look(at: player) "Look" {
  require at != me else "not {each n in at.stash "{n}"}"
}
score(p) = 0
"#;
    assert_eq!(codes(src), ["hidden-in-check"]);
}

#[test]
fn a_long_each_stops_the_text_rather_than_the_program() {
    let src = r#"
game "X" { players 2 }
var xs: list of int = []
flow {
  repeat 20000 { xs += 12345 }
  log "{each x in xs "{x}" sep ", "}"
}
score(p) = 0
"#;
    let err = Game::new(program(src), 2, 1).expect_err("too long");
    assert_eq!(err.code, "text-too-long");
}

const SHOWS: &str = r#"
game "Shows" { players 2 }

enum gem { red, blue }

player secret var hand: list of gem = []
player var cards: list of gem = []
hidden var pile: list of gem = [red, red, blue]

show pile_left = count(pile)
player show bonuses = [count(c in owner.cards where c == g) for g in gem]
player show reds_held = count(c in owner.hand where c == red) * 1000 + 777
player show held = "{each g in gem where count(c in owner.hand where c == g) > 0 "{count(c in owner.hand where c == g)} {g}" sep ", "}"

flow {
  for p in players {
    p.hand = if p == first(players) then [red, red, blue] else [blue]
    p.cards = [blue]
  }
  for p in players {
    turn p
  }
}

action pass "Pass" { }

score(p) = 0
"#;

#[test]
fn a_shown_value_of_public_things_is_in_every_view() {
    let game = Game::new(program(SHOWS), 2, 1).expect("starts");
    for viewer in [Viewer::Player(0), Viewer::Player(1), Viewer::Spectator] {
        let view = game.view(viewer);
        assert!(view.contains("pile_left 3"), "{view}");
        assert_eq!(view.matches("bonuses [0, 1]").count(), 2, "{view}");
    }
}

#[test]
fn a_shown_value_of_the_owners_secrets_is_shown_to_the_owner_alone() {
    let game = Game::new(program(SHOWS), 2, 1).expect("starts");
    let p1 = game.view(Viewer::Player(0));
    assert!(p1.contains("reds_held 2777"), "{p1}");
    assert!(p1.contains("held 2 red, 1 blue"), "{p1}");
    assert!(!p1.contains("reds_held 777"), "{p1}");
    let p2 = game.view(Viewer::Player(1));
    assert!(p2.contains("reds_held 777"), "{p2}");
    assert!(p2.contains("held 1 blue"), "{p2}");
    let referee = game.view(Viewer::Referee);
    assert!(referee.contains("reds_held 2777") && referee.contains("reds_held 777"));
    // P1's secret reaches neither P2, nor an onlooker, nor their pages.
    for viewer in [Viewer::Player(1), Viewer::Spectator] {
        let view = game.view(viewer);
        let page = meeple::serve::page::render(&meeple::serve::page::Sight::looking(
            &game,
            viewer,
            "token".into(),
        ));
        for text in [&view, &page] {
            assert!(!text.contains("2777"), "{text}");
            assert!(!text.contains("2 red"), "{text}");
        }
        assert!(view.contains("reds_held ?"), "{view}");
    }
    let page = meeple::serve::page::render(&meeple::serve::page::Sight::looking(
        &game,
        Viewer::Player(0),
        "token".into(),
    ));
    assert!(page.contains("2777") && page.contains("bonuses"), "{page}");
}

#[test]
fn a_shown_value_that_reads_what_its_viewers_may_not_see_is_refused() {
    let base = r#"
game "Leaks" { players 2 }
player secret var hand: list of int = []
hidden var pile: list of int = [1, 2]
hidden var code: int = 3
player var open: bool = false
player hidden var fate: int = 0 visible when owner.open
kind card[2] { secret value: int = 1 }
def next_hand(p: player): int = sum(next(p).hand)
def own_sum(p: player): int = sum(p.hand)
flow { turn first(players) }
action pass "Pass" { }
score(p) = 0
"#;
    for show in [
        "show a = first(pile)",
        "show a = code",
        "show a = sum(first(players).hand)",
        "player show a = sum(next(owner).hand)",
        "player show a = next_hand(owner)",
        "player show a = own_sum(owner)",
        "player show a = owner.fate",
        "player show a = first(card).value",
        "player show a = [sum(p.hand) for p in [owner]]",
        "player show a = \"{each x in next(owner).hand \"{x}\"}\"",
        "player show a = \"{if code > 2 then \"high\"}\"",
    ] {
        let src = format!("{base}{show}\n");
        assert_eq!(errors(&src), ["show-reads-secret"], "{show}");
    }
    for fine in [
        "show a = count(pile) + count(first(players).hand)",
        "player show a = sum(owner.hand) + count(next(owner).hand)",
        "player show a = if owner.open then 1 else 0",
    ] {
        let src = format!("{base}{fine}\n");
        assert_eq!(errors(&src), Vec::<&str>::new(), "{fine}");
    }
}

#[test]
fn two_shown_values_of_one_name_or_a_variables_name_are_refused() {
    let src = r#"
game "X" { players 2 }
player var coins: int = 0
var round: int = 0
player show coins = 1
show round = 2
show twice = 1
show twice = 2
player show twice = 3
flow { }
score(p) = 0
"#;
    assert_eq!(
        errors(src),
        [
            "duplicate-definition",
            "duplicate-definition",
            "duplicate-definition"
        ]
    );
}

const SECTIONS: &str = r#"
game "Sections" { players 2 }
player var coins: int = 0
section "Table" {
  var pot: int = 0
  show half = pot / 2
  var rounds: int = 3
}
section "Seats" {
  player show rich = owner.coins > 1
  player var passes: int = 0 shown when owner.passes > 0
  player secret var chips: list of int = [7, 8]
}
section "Quiet" {
  player internal var last: int = 0
  var later: int = 0 shown when later > 0
}
flow { repeat 2 { for p in players { turn p } } }
action pass "Pass" { me.passes += 1  me.last = rounds }
action bet "Bet" { me.coins += 1  pot += 1 }
score(p) = p.coins + p.last
"#;

#[test]
fn a_section_draws_its_entries_under_its_heading_in_the_order_written() {
    let game = Game::new(program(SECTIONS), 2, 1).expect("starts");
    assert_eq!(
        game.view(Viewer::Player(0)),
        "Sections — P1's view
  P1 (you): coins 0
  P2: coins 0
  Table:
    pot 0 · half 0 · rounds 3
  Seats:
    P1 (you): rich no · chips [7, 8]
    P2: rich no · chips 2 hidden
  your turn
"
    );
    // The secret in a section is hidden as anywhere: from the other seat and from onlookers.
    let p2 = game.view(Viewer::Player(1));
    assert!(p2.contains("    P1: rich no · chips 2 hidden\n"), "{p2}");
    assert!(
        p2.contains("    P2 (you): rich no · chips [7, 8]\n"),
        "{p2}"
    );
    let onlooker = game.view(Viewer::Spectator);
    assert!(!onlooker.contains("[7, 8]"), "{onlooker}");
    assert_eq!(onlooker.matches("chips 2 hidden").count(), 2, "{onlooker}");
}

#[test]
fn a_section_with_nothing_to_draw_is_left_out_and_drawn_once_it_has() {
    let mut game = Game::new(program(SECTIONS), 2, 1).expect("starts");
    // "Quiet" holds an internal variable and one whose `shown when` is false.
    assert!(!game.view(Viewer::Player(0)).contains("Quiet"));
    game.apply_label(0, "pass").expect("P1 passes");
    let view = game.view(Viewer::Player(1));
    // Only the seat whose `passes` is drawn has it, on its line under the heading.
    assert!(
        view.contains("    P1: rich no · passes 1 · chips 2 hidden\n"),
        "{view}"
    );
    assert!(
        view.contains("    P2 (you): rich no · chips [7, 8]\n"),
        "{view}"
    );
    assert!(!view.contains("Quiet") && !view.contains("last"), "{view}");
    // The rules read what is in a section as anywhere.
    assert_eq!(
        game.state().player_vars.row(0)[1],
        meeple::ir::Value::Int(1)
    );
}

#[test]
fn a_section_holding_only_seat_entries_draws_no_game_line() {
    let src = r#"
game "Seats only" { players 2 }
section "Purse" {
  player var coins: int = 4
}
var round: int = 1
flow { turn first(players) }
action pass "Pass" { }
score(p) = p.coins
"#;
    let view = Game::new(program(src), 2, 1)
        .expect("starts")
        .view(Viewer::Spectator);
    assert_eq!(
        view,
        "Seats only — public view
  round 1
  P1
  P2
  Purse:
    P1: coins 4
    P2: coins 4
  P1's turn
"
    );
}

#[test]
fn a_section_is_refused_when_it_cannot_be_drawn_as_written() {
    let base = r#"
game "X" { players 2 }
player var coins: int = 0
flow { }
score(p) = p.coins
"#;
    for (code, section) in [
        ("section-empty", "section \"Table\" { }"),
        ("section-heading", "section \"\" { var a: int = 0 }"),
        ("section-heading", "section \"{coins}\" { var a: int = 0 }"),
        (
            "section-duplicate",
            "section \"T\" { var a: int = 0 }\nsection \"T\" { var b: int = 0 }",
        ),
        (
            "section-nested",
            "section \"T\" { var a: int = 0\n section \"U\" { var b: int = 0 } }",
        ),
        (
            "section-not-view",
            "section \"T\" { var a: int = 0\n def two(): int = 2 }",
        ),
        (
            "section-not-view",
            "section \"T\" { kind card[2] { rank: int = 0 } }",
        ),
    ] {
        let src = format!("{base}{section}\n");
        assert_eq!(errors(&src), [code], "{section}");
    }
    // What is declared in a section is declared as anywhere: a name taken twice is refused.
    let src = format!("{base}section \"T\" {{ player var coins: int = 1 }}\n");
    assert_eq!(errors(&src), ["duplicate-definition"]);
    // Headings are per file, and every entry kind is welcome.
    let src = format!(
        "{base}section \"T\" {{ var a: int = 0\n show b = a\n player show c = owner.coins }}\n"
    );
    assert!(!codes(&src).iter().any(|c| c.starts_with("section")));
}

/// Flashed Hand (`reveal` and `conceal`) at seed 1: P2's middle card face up from the start.
const FLASHED: &str = "tests/fixtures/ok/flashed_hand.rules";

fn flashed_hand() -> Game {
    let text = std::fs::read_to_string(common::root().join(FLASHED)).expect("reads");
    Game::new(program(&text), 2, 1).expect("starts")
}

/// The names of the cards in `seat`'s hand, in order.
fn hand(game: &Game, seat: u8) -> Vec<String> {
    common::player_list(game, seat, "hand")
}

#[test]
fn a_revealed_card_shows_in_its_place_to_everyone_and_travels_with_it() {
    let mut game = flashed_hand();
    let (mine, theirs) = (hand(&game, 0), hand(&game, 1));
    let up = &theirs[1];
    for viewer in [Viewer::Player(0), Viewer::Spectator] {
        let view = game.view(viewer);
        assert!(view.contains(&format!("P2: hand [?, {up}, ?]")), "{view}");
        let (seen, unseen) = game.instances_seen(viewer);
        assert!(seen.contains(up), "{up} is seen by {viewer:?}");
        for down in [&theirs[0], &theirs[2]] {
            assert!(!view.contains(down.as_str()), "{down} leaks:\n{view}");
            assert!(unseen.contains(down), "{down} is not seen by {viewer:?}");
        }
    }
    // The picture the web table draws: a back, the card, a back.
    let look = &game.picture(Viewer::Player(0)).seats[1].vars[0].look;
    assert_eq!(
        look,
        &meeple::engine::Look::Part(vec![None, Some(up.clone()), None])
    );
    // The owner and the referee see the whole hand.
    let whole = theirs.join(", ");
    assert!(game
        .view(Viewer::Player(1))
        .contains(&format!("P2 (you): hand [{whole}]")));
    assert!(game
        .view(Viewer::Referee)
        .contains(&format!("P2: hand [{whole}]")));

    // P1 turns its first card up: the others see it first in P1's hand.
    common::play(&mut game, 0, &format!("flash {}", mine[0]));
    for viewer in [Viewer::Player(1), Viewer::Spectator] {
        let view = game.view(viewer);
        assert!(
            view.contains(&format!("P1: hand [{}, ?, ?]", mine[0])),
            "{view}"
        );
        assert!(!view.contains(mine[1].as_str()) && !view.contains(mine[2].as_str()));
    }
    // P2 gives its face-up card away: it stays face up, last in P1's hand.
    common::play(&mut game, 1, &format!("give {up}"));
    let public = game.view(Viewer::Spectator);
    assert!(
        public.contains(&format!("P1: hand [{}, ?, ?, {up}]", mine[0])),
        "{public}"
    );
    assert!(public.contains("P2: hand 2 hidden"), "{public}");
    // P1 turns it face down: it is lost among P1's face-down cards.
    common::play(&mut game, 0, &format!("hide {up}"));
    let public = game.view(Viewer::Spectator);
    assert!(
        public.contains(&format!("P1: hand [{}, ?, ?, ?]", mine[0])),
        "{public}"
    );
    assert!(!public.contains(up.as_str()), "{public}");
}

#[test]
fn a_revealed_instance_shows_its_fields_and_a_hidden_variable_holding_it() {
    let src = r#"
game "Envelopes" { players 2 }
kind envelope[2] {
  hidden note: int = 4816 + index
  opened: bool = false
}
hidden var chosen: envelope = none
flow {
  let e = first(envelope)
  chosen = e
  for p in players { turn p }
}
action open "Open the chosen envelope" {
  let e = chosen
  e.opened = true
  reveal e
}
action shut "Close it again" {
  let e = chosen
  conceal e
}
score(p) = 0
"#;
    let mut game = Game::new(program(src), 2, 1).expect("starts");
    let before = game.view(Viewer::Spectator);
    assert!(
        !before.contains("4817") && !before.contains("chosen"),
        "{before}"
    );
    game.apply_label(0, "open").expect("P1 opens");
    let after = game.view(Viewer::Spectator);
    // The revealed envelope's hidden note shows, and the hidden variable that holds it.
    assert!(after.contains("envelope-1: note 4817"), "{after}");
    assert!(after.contains("chosen envelope-1"), "{after}");
    assert!(after.contains("envelope-2: note ?"), "{after}");
    assert!(!after.contains("4818"), "{after}");
    game.apply_label(1, "shut").expect("P2 shuts");
    let shut = game.view(Viewer::Spectator);
    assert!(!shut.contains("4817") && !shut.contains("chosen"), "{shut}");
}

#[test]
fn only_one_instance_is_revealed_and_reveal_stays_free_as_a_name() {
    let base = "game \"R\" { players 2 }\nkind card[2] { rank: int = index }\n\
                player secret var hand: list of card = []\nplayer secret var coins: int = 0\n\
                flow { for p in players { turn p } }\n";
    for (body, code) in [
        ("reveal me.hand", "reveal-not-instance"),
        ("conceal me.coins", "reveal-not-instance"),
        ("reveal none", "reveal-not-instance"),
        ("reveal me", "reveal-not-instance"),
    ] {
        let src = format!("{base}action go {{ {body} }}\n");
        assert_eq!(errors(&src), [code], "{body}");
    }
    // A list of instances names the loop that reveals them one at a time.
    let src = format!("{base}action go {{ reveal me.hand }}\n");
    let help = check_source("test.rules", &src)
        .diagnostics
        .0
        .iter()
        .find(|d| d.code == "reveal-not-instance")
        .and_then(|d| d.help.clone())
        .unwrap_or_default();
    assert!(help.contains("for c in xs { reveal c }"), "{help}");
    // `reveal` and `conceal` still name a variable, a phase or an effect called as written.
    let src = "game \"R\" { players 2 }\nvar reveal: int = 0\nvar conceal: list of int = [1]\n\
               effect show_all() { reveal = 3  conceal[0] = reveal }\n\
               flow { show_all()  for p in players { turn p } }\naction go { }\n";
    assert_eq!(errors(src), Vec::<&str>::new());
    let src = "game \"R\" { players 2 }\nkind card[2] { rank: int = index }\n\
               effect reveal(c: card) { log \"{c}\" }\n\
               flow { reveal(first(card))  for p in players { turn p } }\naction go { }\n";
    assert_eq!(errors(src), Vec::<&str>::new());
}

#[test]
fn a_game_saved_and_reopened_shows_the_revealed_card_only() {
    let game = flashed_hand();
    let (mine, theirs) = (hand(&game, 0), hand(&game, 1));
    let dir = std::env::temp_dir().join(format!("meeple-reveal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let save = dir.join("flashed.save");
    let script = format!("flash {}\nsave {}\nquit\n", mine[1], save.display());
    let out = common::stdout(&common::meeple(&["play", FLASHED, "--seed", "1"], &script));
    assert!(
        out.contains(&format!("P1: hand [?, {}, ?]", mine[1])),
        "{out}"
    );
    // Reopened, P2 decides: it sees P1's flashed card, and P1 sees P2's, each in its place.
    let reopened = common::stdout(&common::meeple(
        &["play", "--load", &save.display().to_string()],
        "quit\n",
    ));
    assert!(
        reopened.contains(&format!("P1: hand [?, {}, ?]", mine[1])),
        "{reopened}"
    );
    for down in [&mine[0], &mine[2]] {
        assert!(!reopened.contains(down.as_str()), "{down}: {reopened}");
    }
    assert!(reopened.contains(&format!("P2 (you): hand [{}]", theirs.join(", "))));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Coins named alike (`coin#2`, `coin#3`, `coin#4`) whose worth no one sees, but P1's first,
/// revealed; the last coin is worth `last`.
fn coins(last: i64) -> Game {
    let src = format!(
        r#"
game "Coins" {{ players 2 }}
kind coin[4] shown as "coin" {{
  hidden worth: int = if index == 4 then {last} else 5
}}
player var purse: list of coin = []
flow {{
  let p = at_seat(1)
  p.purse = drop(coin, 1)
  reveal first(p.purse)
  let c = choose p "Spend which coin?" from p.purse
  p.purse -= c
}}
score(p) = 0
"#
    );
    Game::new(program(&src), 2, 1).expect("starts")
}

#[test]
fn a_name_typed_for_coins_face_down_beside_a_revealed_one_tells_nothing_of_them() {
    // The face-down coins are worth what the revealed one is, or one of them is not: P1 cannot
    // tell, so `why`, the move typed and the list of options answer alike in both.
    let (same, other) = (coins(5), coins(7));
    assert_eq!(same.view(Viewer::Player(0)), other.view(Viewer::Player(0)));
    for game in [&same, &other] {
        let why = game.why(0, "coin").expect("refused");
        assert_eq!(
            why,
            "it names 3 options that differ; type one of coin#2, coin#3, coin#4"
        );
        // The revealed coin is its own option; the two face down are alike.
        assert_eq!(game.first_alike(0), [0, 1, 1]);
        let mut g = game.clone();
        assert!(g.apply_label(0, "coin").is_err());
    }
}

#[test]
fn why_after_a_reveal_answers_alike_for_every_card_a_seat_does_not_hold() {
    let game = flashed_hand();
    let (mine, theirs) = (hand(&game, 0), hand(&game, 1));
    // P2's middle card is face up, its others face down, the deck's face down: whichever P1
    // names, the answer is the same but for the name, and names no other card.
    let all: Vec<String> = (1..=7)
        .map(|n| common::instance(&game, "card", n))
        .collect();
    let rank = |c: &str| c.rsplit(' ').next().unwrap_or("").to_string();
    let names: Vec<String> = all.iter().map(|c| rank(c)).collect();
    let not_mine: Vec<&String> = names.iter().filter(|n| !mine.contains(n)).collect();
    assert_eq!(not_mine.len(), 4, "{names:?}");
    assert!(not_mine.contains(&&theirs[1]));
    for action in ["flash", "hide", "give"] {
        let answers: Vec<String> = not_mine
            .iter()
            .map(|card| {
                let why = game
                    .why(0, &format!("{action} {card}"))
                    .expect("not in P1's hand");
                for other in names.iter().filter(|n| n != card) {
                    assert!(!why.contains(other.as_str()), "{other}: {why}");
                }
                why.replace(card.as_str(), "X")
            })
            .collect();
        assert!(answers.iter().all(|a| *a == answers[0]), "{answers:?}");
    }
}

#[test]
fn undo_past_a_reveal_turns_the_card_down_again_and_playing_it_again_up() {
    let game = flashed_hand();
    let theirs = hand(&game, 1);
    // P1 passes; P2 flashes its first card; P1 sees it, takes P2's move back (it is P2's again),
    // P2 passes instead; P1 takes that back too, and P2 flashes again.
    let script = format!(
        "pass\nflash {t0}\nundo\npass\nundo\nflash {t0}\nquit\n",
        t0 = theirs[0]
    );
    let out = common::stdout(&common::meeple(&["play", FLASHED, "--seed", "1"], &script));
    let seen: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("  P2: hand"))
        .collect();
    let up = format!("  P2: hand [{}, {}, ?]", theirs[0], theirs[1]);
    let down = format!("  P2: hand [?, {}, ?]", theirs[1]);
    // P1's view, before and after each undo: P2's first card up, down, up again.
    assert_eq!(seen, [&down, &up, &down, &up], "{out}");
}

#[test]
fn a_bot_games_transcript_and_its_json_stream_reloaded_show_the_revealed_cards_only() {
    // The `--json` stream holds no view (docs/json.md): its moves, replayed by `--load`, give
    // the position, whose view shows the cards face up at the end, and no other.
    let program = program(&std::fs::read_to_string(common::root().join(FLASHED)).expect("reads"));
    let dir = std::env::temp_dir().join(format!("meeple-reveal-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let mut checked = 0;
    for seed in 1..40u64 {
        let seed_text = seed.to_string();
        let args = ["play", FLASHED, "--bots", "random", "--seed", &seed_text];
        let stream = common::stdout(&common::meeple(&[&args[..], &["--json"]].concat(), ""));
        let lines: Vec<serde_json::Value> = stream
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect();
        let mut game = Game::new(program.clone(), 2, seed).expect("starts");
        for line in lines.iter().filter(|l| l["event"] == "decision") {
            let seat = u8::from(line["player"] != "P1");
            common::play(&mut game, seat, line["choice"].as_str().expect("a choice"));
        }
        assert!(game.is_over(), "{stream}");
        let (up, down) = game.instances_seen(Viewer::Spectator);
        if up.is_empty() || down.is_empty() {
            continue;
        }
        let file = dir.join(format!("game-{seed}.jsonl"));
        std::fs::write(&file, &stream).expect("writes");
        let reloaded = common::stdout(&common::meeple(
            &[
                "play",
                "--load",
                &file.display().to_string(),
                "--bots",
                "none",
            ],
            "state\nquit\n",
        ));
        let transcript = common::stdout(&common::meeple(&args, ""));
        // The view's lines that hold cards (the scores are sums of ranks, and may be one).
        let cards = |out: &str| -> String {
            let view = out.rsplit("public view").next().unwrap_or_default();
            let lines = view
                .lines()
                .filter(|l| l.contains("hand") || l.contains("deck"));
            lines.collect::<Vec<_>>().join("\n")
        };
        for text in [cards(&reloaded), cards(&transcript)] {
            assert!(text.contains("P1: hand"), "{text}");
            for card in &up {
                assert!(text.contains(card.as_str()), "{card} face up: {text}");
            }
            for card in &down {
                assert!(!text.contains(card.as_str()), "{card} face down: {text}");
            }
        }
        checked += 1;
    }
    assert!(
        checked >= 3,
        "only {checked} games ended with a card face up"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
