//! `visible last k` / `visible first k`: the part of a hidden list everyone may see, on every
//! channel: text views for seats, onlookers and the referee, the picture the web table draws,
//! the page itself, the rulebook, and the games a search bot imagines.

mod common;

use common::{meeple, play, player_var, program, stdout};
use meeple::engine::{Game, Look, Viewer};
use meeple::ir::Value;
use meeple::load::check_source;
use meeple::serve::page::{render, Sight};
use meeple::serve::Who;
use std::sync::Arc;

const MAT: &str = r#"
game "Mat" { players 2 }

enum disc { rose, skull }

player secret var mat: list of disc = [] visible last owner.flipped
player var flipped: int = 0
hidden var row: list of int = [1, 2, 3, 4, 5, 6, 7] visible first open
var open: int = 2

flow {
  for p in players {
    p.mat += [skull, rose, rose]
  }
  repeat 3 {
    for p in players {
      turn p
    }
  }
}

action flip "Turn the top disc face up" {
  require me.flipped < count(me.mat) else "every disc is face up"
  me.flipped += 1
}

action open_more "Open one more of the row" {
  open += 1
}

action cover "Put a skull on top of your mat" {
  me.mat += skull
}

action pass { }

score(p) = p.flipped
"#;

fn mat() -> Game {
    let loaded = check_source("mat.rules", MAT);
    let program = loaded
        .program
        .unwrap_or_else(|| panic!("errors: {:?}", loaded.diagnostics));
    Game::new(Arc::new(program), 2, 1).expect("starts")
}

/// The line of `seat`'s panel in `viewer`'s text view.
fn line(game: &Game, viewer: Viewer, seat: &str) -> String {
    let view = game.view(viewer);
    view.lines()
        .find(|l| l.trim_start().starts_with(seat) && l.contains(':'))
        .unwrap_or_else(|| panic!("no line for {seat} in\n{view}"))
        .trim()
        .to_string()
}

#[test]
fn the_top_k_show_to_everyone_and_the_owner_sees_all() {
    let mut game = mat();
    // Nothing flipped: the others see three face-down discs.
    assert_eq!(
        line(&game, Viewer::Player(1), "P1:"),
        "P1: mat [?, ?, ?] · flipped 0"
    );
    play(&mut game, 0, "flip");
    for viewer in [Viewer::Player(1), Viewer::Spectator] {
        assert_eq!(
            line(&game, viewer, "P1:"),
            "P1: mat [?, ?, rose] · flipped 1"
        );
    }
    assert_eq!(
        line(&game, Viewer::Player(0), "P1 (you):"),
        "P1 (you): mat [skull, rose, rose] · flipped 1"
    );
    assert!(game
        .view(Viewer::Referee)
        .contains("P1: mat [skull, rose, rose] · flipped 1"));
    // A disc put on top is shown at once: the part counts from the top.
    play(&mut game, 1, "pass");
    play(&mut game, 0, "cover");
    assert_eq!(
        line(&game, Viewer::Player(1), "P1:"),
        "P1: mat [?, ?, ?, skull] · flipped 1"
    );
}

#[test]
fn the_first_k_of_a_hidden_list_show_and_a_long_hidden_run_is_counted() {
    let mut game = mat();
    let globals = |g: &Game, v: Viewer| g.view(v).lines().nth(1).unwrap_or("").to_string();
    assert_eq!(
        globals(&game, Viewer::Player(0)),
        "  row [1, 2, 5 hidden] · open 2"
    );
    play(&mut game, 0, "open_more");
    assert_eq!(
        globals(&game, Viewer::Spectator),
        "  row [1, 2, 3, 4 hidden] · open 3"
    );
    // The referee sees it whole.
    assert!(globals(&game, Viewer::Referee).contains("row [1, 2, 3, 4, 5, 6, 7]"));
}

#[test]
fn a_count_outside_the_list_shows_nothing_or_everything() {
    let src = |k: &str| {
        format!(
            "game \"K\" {{ players 2 }}\n\
             hidden var xs: list of int = [1, 2, 3] visible last {k}\n\
             flow {{ for p in players {{ turn p }} }}\naction go {{ xs += 4 }}\n"
        )
    };
    for (k, shown) in [
        ("-2", "xs [?, ?, ?]"),
        ("0", "xs [?, ?, ?]"),
        ("9", "xs [1, 2, 3]"),
        // `nth` past the end fails: a count that cannot be worked out shows nothing.
        ("nth([1], 5)", "xs [?, ?, ?]"),
    ] {
        let program = check_source("k.rules", &src(k))
            .program
            .unwrap_or_else(|| panic!("{k} checks"));
        let game = Game::new(Arc::new(program), 2, 1).expect("starts");
        let view = game.view(Viewer::Player(0));
        assert!(view.contains(shown), "k = {k}:\n{view}");
    }
}

#[test]
fn the_picture_marks_each_element_shown_or_hidden_and_the_page_draws_backs() {
    let mut game = mat();
    play(&mut game, 0, "flip");
    let picture = game.picture(Viewer::Player(1));
    let mat = &picture.seats[0].vars[0];
    assert_eq!(mat.name, "mat");
    assert_eq!(
        mat.look,
        Look::Part(vec![None, None, Some("rose".to_string())])
    );
    // P1's own picture holds every disc.
    let own = &game.picture(Viewer::Player(0)).seats[0].vars[0];
    assert!(
        matches!(&own.look, Look::Things(xs) if xs.len() == 3),
        "{own:?}"
    );

    let page = render(&Sight::of(
        &game,
        Who::Seat(1),
        "key".into(),
        1,
        false,
        false,
    ));
    let panel = page
        .split("P1")
        .nth(1)
        .and_then(|rest| rest.split("P2").next())
        .expect("P1's panel");
    assert_eq!(
        panel.matches(r#"class="back" title="hidden""#).count(),
        2,
        "{panel}"
    );
    assert!(
        panel.contains(r#"<span class="card">rose</span>"#),
        "{panel}"
    );
    assert!(!panel.contains("skull"), "{panel}");
}

/// The names of a seat's pile, face down first.
fn pile(game: &Game, seat: u8) -> Vec<String> {
    match player_var(game, seat, "pile") {
        Value::List(xs) => xs
            .iter()
            .map(|x| meeple::engine::show(game.program(), game.state(), x))
            .collect(),
        other => panic!("{other:?}"),
    }
}

/// Turned Piles played until P1's pile holds two cards with its top one turned up.
fn turned_piles() -> Game {
    let program = program("tests/fixtures/info/turned_piles.rules");
    for seed in 1..50 {
        let mut game = Game::new(program.clone(), 2, seed).expect("starts");
        let hand = |g: &Game, s: u8| match player_var(g, s, "hand") {
            Value::List(xs) => xs
                .iter()
                .map(|x| meeple::engine::show(g.program(), g.state(), x))
                .collect::<Vec<_>>(),
            _ => Vec::new(),
        };
        let (a, b) = (hand(&game, 0), hand(&game, 1));
        play(&mut game, 0, &format!("place {}", a[0]));
        play(&mut game, 1, &format!("place {}", b[0]));
        play(&mut game, 0, &format!("place {}", a[1]));
        play(&mut game, 1, "turn_up");
        play(&mut game, 0, "turn_up");
        if game.to_decide().is_some() {
            return game;
        }
    }
    panic!("no game reached the position")
}

#[test]
fn a_face_down_card_of_a_pile_is_never_seen_and_the_turned_one_is() {
    let game = turned_piles();
    let cards = pile(&game, 0);
    let (down, up) = (&cards[0], &cards[1]);
    let view = game.view(Viewer::Player(1));
    assert!(view.contains(&format!("pile [?, {up}]")), "{view}");
    for viewer in [Viewer::Player(1), Viewer::Spectator] {
        let (seen, unseen) = game.instances_seen(viewer);
        assert!(unseen.contains(down), "{down} is hidden from {viewer:?}");
        assert!(seen.contains(up), "{up} is seen by {viewer:?}");
        assert!(!game.view(viewer).contains(down.as_str()));
        let page = render(&Sight::of(
            &game,
            match viewer {
                Viewer::Player(p) => Who::Seat(p),
                _ => Who::Onlooker,
            },
            "key".into(),
            1,
            false,
            false,
        ));
        assert!(page.contains(up.as_str()), "{page}");
        assert!(!page.contains(down.as_str()), "{page}");
    }
}

#[test]
fn an_imagined_game_keeps_the_cards_seen_and_deals_only_the_others() {
    let game = turned_piles();
    let cards = pile(&game, 0);
    let mut redealt = 0;
    for seed in 0..40 {
        let world = game.determinize(1, seed);
        let imagined = pile(&world, 0);
        assert_eq!(imagined[1], cards[1], "seed {seed}: the turned card stays");
        assert_eq!(
            world.view(Viewer::Player(1)),
            game.view(Viewer::Player(1)),
            "seed {seed}"
        );
        if imagined[0] != cards[0] {
            redealt += 1;
        }
    }
    assert!(
        redealt > 0,
        "the face-down card is dealt again in some worlds"
    );
}

#[test]
fn the_rulebook_says_which_part_shows() {
    let out = meeple(&["doc", "tests/fixtures/info/turned_piles.rules"], "");
    let text = stdout(&out);
    for line in [
        "- pile: a list of cards, starting empty (hidden: nobody sees it); but everyone sees its last items, as many as its owner's turned",
        "- deck: hidden: nobody sees it; everyone sees how many items it holds; but everyone sees its last items, as many as 1",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}

#[test]
fn the_repl_and_a_save_reopened_show_the_flipped_top_only() {
    let dir = std::env::temp_dir().join(format!("meeple-visible-part-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let save = dir.join("mat.save");
    let script = format!(
        "place rose\nplace skull\nplace rose\nplace rose\nflip P2\nsave {}\nquit\n",
        save.display()
    );
    let rules = "tests/fixtures/ok/skull_mat.rules";
    let out = stdout(&meeple(&["play", rules, "--seed", "1"], &script));
    // P1 looks: P2's bottom disc (a skull) is face down, the rose on top face up.
    let p1 = out
        .split("P1's view")
        .last()
        .expect("P1's last view")
        .to_string();
    assert!(
        p1.contains("P2: hand 2 hidden · mat [?, rose] · flipped 1"),
        "{out}"
    );
    let reopened = stdout(&meeple(
        &["play", "--load", &save.display().to_string()],
        "quit\n",
    ));
    assert!(
        reopened.contains("P2: hand 2 hidden · mat [?, rose] · flipped 1"),
        "{reopened}"
    );
    assert!(!reopened.contains("mat [skull, rose]"), "{reopened}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn what_the_rules_read_of_a_partly_shown_list_stays_as_secret_as_the_list() {
    let codes = |body: &str| -> Vec<&'static str> {
        let src = format!(
            "game \"M\" {{ players 2 }}\nenum disc {{ rose, skull }}\n\
             player secret var mat: list of disc = [rose, skull] visible last owner.up\n\
             player var up: int = 1\nvar lead: player = none\n\
             flow {{ for p in players {{ turn p }} }}\n{body}\nscore(p) = p.up\n"
        );
        check_source("m.rules", &src)
            .diagnostics
            .0
            .iter()
            .map(|d| d.code)
            .filter(|c| *c != "unused-definition")
            .collect()
    };
    // Its length is public; an element is not proved to lie in the shown part.
    let action = |cond: &str| {
        format!("action look(p: player) {{\n  require {cond} else \"no\"\n  p.up += 1\n}}")
    };
    assert_eq!(codes(&action("count(p.mat) > 1")), Vec::<&str>::new());
    assert_eq!(codes(&action("last(p.mat) == rose")), ["hidden-in-check"]);
    assert_eq!(
        codes("action go { }\nshow tops = count(lead.mat)"),
        Vec::<&str>::new()
    );
    assert_eq!(
        codes("action go { }\nplayer show top = last(owner.mat)\nshow all = last(lead.mat)"),
        ["show-reads-secret"]
    );
}
