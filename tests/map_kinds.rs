//! Maps by a kind (`int by card`: one entry per instance) and by a range that follows the
//! player count (`int by 1..player_count`): read, written, sized when the game starts, shown
//! key then value, refused where written wrong, and telling no secret.

mod common;

use common::program_of as program;
use meeple::engine::{Game, MoveError, Viewer};
use meeple::load::check_source;

const CARDS: &str = r#"
game "Marks" { players 2..4 }

enum colour { red, blue }
# Cards 1 and 3 are alike (both red), as are 2 and 4: only their places tell them apart.
kind card[4] shown as "{it.colour}" {
  colour: colour = if index % 2 == 1 then red else blue
}
kind pawn[player_count + 1] { }

var seen: int by card = 0
player var backs: bool by pawn = false
player secret var noted: bool by card = false
var track: int by 1..player_count = 0
var ends: int by 0..player_count + 1 = 7
hidden var deck: list of card = card
player secret var hand: list of card = []

setup {
  let shuffled = shuffle deck
  deck = shuffled
  for p in players {
    let c = pop deck
    p.hand += c
  }
}

flow {
  repeat 2 {
    for p in players {
      turn p
    }
  }
}

action mark(c: card) "mark a card" {
  seen[c] += 1
  me.noted[c] = true
  log "{me} marks {c}: {seen}"
}

action note(c: card) "note a card in secret" {
  me.noted[c] = true
}

action back(w: pawn) "back a pawn" {
  me.backs[w] = true
}

action step(k: int in 1..4) "step along the track" {
  ends[0] += 1
  track[k] += 1
  log "{me} steps {k}: {track}"
}

action lose "mark the card nobody has marked twice" {
  let c = first([c in card where seen[c] > 1])
  ends[0] += 1
  seen[c] += 1
}

score(p) = count(w in pawn where p.backs[w]) + sum(track) + seen[first(p.hand)]

scenario "a map by a kind is read and written by instance, alike instances apart" {
  players 2
  play P1 "mark red#2"
  expect seen[nth(card, 3)] == 1 and seen[nth(card, 1)] == 0
  play P2 "mark red"
  expect seen[nth(card, 1)] == 1 and seen[nth(card, 3)] == 1 and sum(seen) == 2
  expect count(seen) == 4 and max(seen) == 1 and P2.noted[nth(card, 1)]
  expect not P2.noted[nth(card, 3)] and P1.noted[nth(card, 3)]
  expect sum(seen[c] for c in card) == 2
}

scenario "a map by a kind counted from the players is sized when the game starts" {
  players 3
  expect count(P1.backs) == 4 and count(pawn) == 4
  play P1 "back pawn-4"
  expect P1.backs[last(pawn)] and not P2.backs[last(pawn)]
  set seen = [1, 2, 3, 4]
  expect seen[nth(card, 2)] == 2 and seen[last(card)] == 4
}

scenario "a map by a range that follows the player count" {
  players 3
  expect count(track) == 3 and count(ends) == 5 and ends[4] == 7
  play P1 "step 3"
  expect track[3] == 1 and sum(track) == 1
  set track = [5, 6, 7]
  expect track[1] == 5 and track[3] == 7
}

scenario "four players have four steps" {
  players 4
  play P1 "step 4"
  expect track[4] == 1 and count(track) == 4 and count(P2.backs) == 5
}
"#;

#[test]
fn maps_by_a_kind_and_by_a_range_of_the_player_count_pass_their_scenarios() {
    let program = program(CARDS);
    let reports = meeple::scenario::run_all(&program);
    assert_eq!(reports.len(), 4);
    for r in reports {
        assert!(r.failure.is_none(), "{}: {:?}", r.title, r.failure);
    }
}

#[test]
fn a_map_by_a_kind_shows_each_instance_by_name_in_its_kind_s_order() {
    let mut game = Game::new(program(CARDS), 2, 1).expect("starts");
    game.apply_label(0, "mark blue#2").expect("a legal move");
    let log = game.log(Viewer::Spectator).join("\n");
    assert!(
        log.contains("P1 marks blue#2: red 0, blue 0, red#2 0, blue#2 1"),
        "{log}"
    );
    let view = game.view(Viewer::Spectator);
    assert!(
        view.contains("seen red 0, blue 0, red#2 0, blue#2 1"),
        "{view}"
    );
    assert!(view.contains("track 1: 0, 2: 0"), "{view}");
    assert!(view.contains("ends 0: 7, 1: 7, 2: 7, 3: 7"), "{view}");
}

/// A public map by a kind shows every instance, in the kind's order, whatever lies where; a
/// secret one shows only its size to another seat. So two deals that differ only in which
/// card each hand holds give another seat the same view of both maps.
#[test]
fn a_map_by_a_kind_tells_no_more_than_its_visibility_allows() {
    let program = program(CARDS);
    let dealt = |seed: u64| {
        let mut game = Game::new(program.clone(), 2, seed).expect("starts");
        let held = game.view(Viewer::Referee);
        game.apply_label(0, "mark red").expect("a legal move");
        (game, held)
    };
    let (a, a_deal) = dealt(1);
    let other = (2..40)
        .map(dealt)
        .find(|(_, deal)| {
            let hand = |v: &str, seat: &str| {
                v.lines()
                    .find(|l| l.trim_start().starts_with(seat))
                    .map(str::to_string)
            };
            hand(deal, "P2") != hand(&a_deal, "P2")
        })
        .expect("some seed deals P2 another card");
    let (b, _) = other;
    let public_lines = |g: &Game| -> Vec<String> {
        g.view(Viewer::Player(1))
            .lines()
            .filter(|l| !l.contains("(you)"))
            .map(str::to_string)
            .collect()
    };
    // P2 sees P1's secret map as hidden, the public one whole, the same for both deals.
    let seen_by_p2 = public_lines(&a);
    assert!(
        seen_by_p2
            .iter()
            .any(|l| l.contains("seen red 1, blue 0, red#2 0, blue#2 0")),
        "{seen_by_p2:?}"
    );
    let p1_line = seen_by_p2
        .iter()
        .find(|l| l.trim_start().starts_with("P1"))
        .expect("P1's line");
    assert!(p1_line.contains("noted 4 hidden"), "{p1_line}");
    assert!(!p1_line.contains("noted red"), "{p1_line}");
    assert_eq!(seen_by_p2, public_lines(&b));
    // Its owner sees it whole.
    let owner = a.view(Viewer::Player(0));
    assert!(
        owner.contains("noted red yes, blue no, red#2 no, blue#2 no"),
        "{owner}"
    );
    // A spectator sees the public map, and no one's secret one.
    let spectator = a.view(Viewer::Spectator);
    assert!(!spectator.contains("noted red"), "{spectator}");
    // Nor does the picture the web table draws.
    let picture = format!("{:?}", a.picture(Viewer::Player(1)));
    assert!(picture.contains("red 1"), "{picture}");
    assert!(!picture.contains("red yes"), "{picture}");
}

#[test]
fn a_key_that_is_none_or_outside_the_count_s_range_stops_the_rule_and_changes_nothing() {
    let src = CARDS;
    let mut game = Game::new(program(src), 2, 1).expect("starts");
    let before = game.view(Viewer::Referee);
    let runtime = |e: MoveError| match e {
        MoveError::Runtime(e) => e,
        e => panic!("a rule should fail: {e}"),
    };
    // No card was seen twice: the key is `none`.
    let e = runtime(game.apply_label(0, "lose").expect_err("no such card"));
    assert_eq!(e.code, "no-value");
    assert!(e.message.contains("not a key of this map"), "{}", e.message);
    assert_eq!(&src[e.span.start as usize..e.span.end as usize], "c");
    assert_eq!(game.view(Viewer::Referee), before);
    // Two players: the track has keys 1 and 2 only.
    let e = runtime(game.apply_label(0, "step 3").expect_err("3 is past 1..2"));
    assert_eq!(e.code, "out-of-range");
    assert!(e.message.contains("3 is not a key"), "{}", e.message);
    assert!(e.help.contains("from 1 to 2"), "{}", e.help);
    assert_eq!(&src[e.span.start as usize..e.span.end as usize], "k");
    assert_eq!(
        game.view(Viewer::Referee),
        before,
        "`ends[0] += 1` is undone"
    );
    game.apply_label(0, "step 2")
        .expect("2 is a key with two players");
}

#[test]
fn saved_and_restored_a_game_keeps_its_maps_by_a_kind() {
    let program = program(CARDS);
    let mut game = Game::new(program.clone(), 3, 4).expect("starts");
    game.apply_label(0, "mark blue").expect("a legal move");
    game.apply_label(1, "back pawn-4").expect("a legal move");
    let saved = meeple::save::SaveFile::of_game(&game, "marks.rules", &[], None).expect("saves");
    let again = meeple::save::SaveFile::parse(&saved.to_json())
        .expect("parses")
        .restore(program, &mut |_, _| {})
        .expect("replays");
    assert_eq!(again.view(Viewer::Referee), game.view(Viewer::Referee));
}

#[test]
fn mistakes_with_maps_by_a_kind_or_a_range_of_the_player_count_have_their_codes() {
    for (from, to, code) in [
        ("seen[c] += 1", "seen[me] += 1", "wrong-map-key"),
        ("seen[c] += 1", "seen[first(pawn)] += 1", "wrong-map-key"),
        ("seen[c] += 1", "seen[1] += 1", "wrong-map-key"),
        ("seen[c] += 1", "seen[none] += 1", "wrong-map-key"),
        (
            "me.backs[w] = true",
            "me.backs[first(card)] = true",
            "wrong-map-key",
        ),
        (
            "var seen: int by card = 0",
            "var seen: int by card = [1, 2, 3]",
            "map-size",
        ),
        (
            "player var backs: bool by pawn = false",
            "player var backs: bool by pawn = [true, false, true]",
            "map-follows-players",
        ),
        (
            "var track: int by 1..player_count = 0",
            "var track: int by 1..player_count = [0, 0]",
            "map-follows-players",
        ),
        ("set track = [5, 6, 7]", "set track = [5, 6]", "map-size"),
        ("set seen = [1, 2, 3, 4]", "set seen = [1, 2]", "map-size"),
        ("track[k] += 1", "track[0] += 1", "map-key-out-of-range"),
        ("track[k] += 1", "track[5] += 1", "map-key-out-of-range"),
        (
            "ends[0] += 1\n  track",
            "ends[-1] += 1\n  track",
            "map-key-out-of-range",
        ),
        (
            "var track: int by 1..player_count",
            "var track: int by player_count..1",
            "invalid-bounds",
        ),
        (
            "var track: int by 1..player_count",
            "var track: int by 1..count(players)",
            "not-constant",
        ),
        (
            "kind pawn[player_count + 1] { }",
            "kind pawn[count(players)] { }",
            "not-constant",
        ),
        (
            "action mark(c: card)",
            "action mark(c: card, m: int by card)",
            "infinite-domain",
        ),
    ] {
        common::assert_mistake(CARDS, from, to, code);
    }
    // A key outside the range for some counts only is a rule's to guard: no error.
    let guarded = CARDS.replace("track[k] += 1", "track[4] += 1");
    assert!(common::codes(&check_source("test.rules", &guarded)).is_empty());
}

/// Two instances alike in every field differ once a map by their kind that the player sees
/// holds different entries for them: the options are listed apart, not as one. A secret map
/// of another seat tells nothing, and leaves them alike.
#[test]
fn instances_that_a_seen_map_tells_apart_are_not_alike() {
    let mut game = Game::new(program(CARDS), 2, 1).expect("starts");
    // The options begin `mark red`, `mark blue`, `mark red#2`, `mark blue#2`: before any
    // mark, red#2 is listed with red, as alike, and blue#2 with blue.
    assert_eq!(game.first_alike(0)[..4], [0, 1, 0, 1]);
    // P1 notes red#2 in secret: P2 cannot tell, and still sees them alike.
    game.apply_label(0, "note red#2").expect("a legal move");
    assert_eq!(game.first_alike(1)[..4], [0, 1, 0, 1]);
    game.apply_label(1, "back pawn-1").expect("a legal move");
    // P1 sees its own note: red and red#2 differ for P1; blue and blue#2 are still alike.
    assert_eq!(game.first_alike(0)[..4], [0, 1, 2, 1]);
    // A public mark tells everyone.
    game.apply_label(0, "mark blue#2").expect("a legal move");
    assert_eq!(game.first_alike(1)[..4], [0, 1, 0, 3]);
}
