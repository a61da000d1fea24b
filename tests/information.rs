//! No seat ever sees what is hidden from it. For every rules file, seeded games are played by
//! random bots and, after every decision, each seat's view and the log lines it may read are
//! checked against the instances (cards, tiles, ...) that seat cannot see anywhere: a hidden
//! instance's name must not appear in the view, nor in a public log line, unless the seat saw
//! it before (it was in a public place) or the line was written for that seat alone (a reveal).
//!
//! The check works on instances, which have names of their own; hidden numbers and enum values
//! are kept hidden by the view itself (`engine::view`), which shows them as `?` or a count.
//! The engine's announcements of moves (`P2: play 7D`) are public by design, since action
//! arguments and non-secret choices are public: a secret pick belongs in `choose secretly`.

mod common;
use meeple::bots::{ask_bot, BotKind};
use meeple::engine::{Game, Viewer};
use meeple::load;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// True if `name` stands in `text` as a word of its own (not inside a longer name).
fn mentions(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        let joins =
            |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-');
        !joins(before) && !joins(after)
    })
}

/// Plays one game and returns the first leak found, described.
fn first_leak(program: &Arc<meeple::ir::Program>, players: u8, seed: u64) -> Option<String> {
    let mut game = Game::new(program.clone(), players, seed).expect("the game starts");
    let mut bots: Vec<_> = (0..players)
        .map(|p| BotKind::Random.make(seed, p))
        .collect();
    let mut seen_before: Vec<BTreeSet<String>> = vec![BTreeSet::new(); players as usize];
    let mut read: Vec<usize> = vec![0; players as usize];
    loop {
        for v in 0..players {
            let viewer = Viewer::Player(v);
            let (seen, unseen) = game.instances_seen(viewer);
            let view = game.view(viewer);
            if let Some(name) = unseen.iter().find(|n| mentions(&view, n)) {
                return Some(format!(
                    "{}'s view shows hidden {name}:\n{view}",
                    game.seat_name(v)
                ));
            }
            let lines = game.log_lines(viewer);
            // Engine announcements of moves are public by design (action arguments and
            // non-secret choices are public); the rules' own lines are what can leak.
            for line in lines[read[v as usize]..]
                .iter()
                .filter(|l| !l.private && !l.announcement)
            {
                let leaked = unseen
                    .iter()
                    .find(|n| mentions(&line.text, n) && !seen_before[v as usize].contains(*n));
                if let Some(name) = leaked {
                    return Some(format!(
                        "{} reads hidden {name} in the log: {}",
                        game.seat_name(v),
                        line.text
                    ));
                }
            }
            read[v as usize] = lines.len();
            seen_before[v as usize] = seen.into_iter().collect();
        }
        if game.is_over() {
            return None;
        }
        let seat = game.waiting_on()[0];
        let i = ask_bot(&game, seat, bots[seat as usize].as_mut()).unwrap_or(0);
        game.apply(seat, i).expect("a bot's move applies");
    }
}

fn check_files(files: &[PathBuf], seeds: u64) {
    let mut checked = 0;
    for f in files {
        let loaded = load::load(f, &[]);
        let program = Arc::new(
            loaded
                .program
                .unwrap_or_else(|| panic!("{} has errors", f.display())),
        );
        for players in program.min_players..=program.max_players {
            for seed in 1..=seeds {
                if let Some(leak) = first_leak(&program, players, seed) {
                    panic!("{} ({players} players, seed {seed}): {leak}", f.display());
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no games were checked");
}

#[test]
fn no_rules_file_leaks_hidden_information() {
    let files = common::all_rules();
    check_files(&files, 5);
}

#[test]
fn hands_discards_spies_and_face_down_cards_stay_hidden() {
    check_files(
        &[PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/info/hidden_hands.rules"
        ))],
        40,
    );
}

#[test]
fn the_face_down_part_of_a_partly_shown_list_stays_hidden() {
    check_files(
        &[
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/info/turned_piles.rules"
            )),
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/ok/skull_mat.rules"
            )),
        ],
        40,
    );
}

/// The test above would catch a view showing a face-down card of a pile: the card is among
/// those the seat cannot see, while the turned one on top of it is seen.
#[test]
fn a_face_down_card_under_a_turned_one_is_among_the_unseen() {
    let loaded = load::load(
        Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/info/turned_piles.rules"
        )),
        &[],
    );
    let program = Arc::new(loaded.program.expect("valid"));
    let mut checked = 0;
    for seed in 1..=20 {
        let mut game = Game::new(program.clone(), 2, seed).expect("starts");
        let mut bots: Vec<_> = (0..2).map(|p| BotKind::Random.make(seed, p)).collect();
        while !game.is_over() {
            let seat = game.waiting_on()[0];
            let i = ask_bot(&game, seat, bots[seat as usize].as_mut()).unwrap_or(0);
            game.apply(seat, i).expect("a bot's move applies");
            let referee = game.view(Viewer::Referee);
            let Some(pile) = referee
                .lines()
                .find(|l| l.trim_start().starts_with("P1:"))
                .and_then(|l| l.split("pile [").nth(1))
                .and_then(|rest| rest.split(']').next())
                .map(|p| p.split(", ").map(str::to_string).collect::<Vec<_>>())
            else {
                continue;
            };
            let public = game.view(Viewer::Player(1));
            let turned = public.contains("turned 1") && pile.len() >= 2;
            if !turned || !public.contains(&format!("pile [?, {}]", pile[pile.len() - 1])) {
                continue;
            }
            let (seen, unseen) = game.instances_seen(Viewer::Player(1));
            assert!(
                unseen.contains(&pile[pile.len() - 2]),
                "{referee}\n{public}"
            );
            assert!(seen.contains(&pile[pile.len() - 1]), "{referee}\n{public}");
            assert!(!mentions(&public, &pile[pile.len() - 2]), "{public}");
            checked += 1;
        }
    }
    assert!(checked > 0, "some game reached a pile with its top turned");
}

#[test]
fn a_leaky_log_line_is_caught() {
    let loaded = load::load(
        Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/info/leaky.rules"
        )),
        &[],
    );
    let program = Arc::new(loaded.program.expect("valid"));
    let leak = first_leak(&program, 2, 1).expect("the leak is found");
    assert!(leak.contains("reads hidden card-"), "{leak}");
}

#[test]
fn a_spy_sees_a_hand_only_in_their_own_log() {
    let loaded = load::load(
        Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/info/hidden_hands.rules"
        )),
        &[],
    );
    let program = Arc::new(loaded.program.expect("valid"));
    let mut game = Game::new(program, 2, 3).expect("starts");
    let spy = game.waiting_on()[0];
    game.apply_label(spy, "spy").expect("spy is legal");
    let other = 1 - spy;
    let target = game.seat_name(other);
    // At two players the target is the only other player: taken without asking.
    let line = format!("{target}'s hand: [");
    assert!(game
        .log(Viewer::Player(spy))
        .iter()
        .any(|l| l.starts_with(&line)));
    assert!(!game
        .log(Viewer::Player(other))
        .iter()
        .any(|l| l.starts_with(&line)));
    assert!(!game
        .log(Viewer::Spectator)
        .iter()
        .any(|l| l.starts_with(&line)));
    // The spy's knowledge is frozen: the view still hides the hand.
    assert!(game
        .view(Viewer::Player(spy))
        .contains(&format!("{target}: hand 2 hidden")));
}

/// A secret choice of one option is taken without asking, and stays secret: the others read
/// only that a choice was made.
#[test]
fn a_secret_choice_of_one_option_is_taken_and_stays_secret() {
    let text = "game \"Alone\" { players 2 }\n\
        enum colour { red, blue }\n\
        player secret var picked: colour = none\n\
        flow { for p in players { turn p } }\n\
        action pick {\n\
          let c = choose secretly me \"Which colour?\" from [blue]\n\
          me.picked = c\n\
        }\n\
        score(p) = 0\n";
    let program = Arc::new(
        meeple::load::check_source("alone.rules", text)
            .program
            .expect("valid"),
    );
    let mut game = Game::new(program, 2, 1).expect("starts");
    game.apply_label(0, "pick").expect("legal");
    assert_eq!(
        game.to_decide(),
        Some(1),
        "the choice of one option was not asked"
    );
    let mine = game.log(Viewer::Player(0)).join("\n");
    assert!(mine.contains("P1 chose blue (the only option)"), "{mine}");
    for viewer in [Viewer::Player(1), Viewer::Spectator] {
        let log = game.log(viewer).join("\n");
        assert!(
            log.contains("P1 chose in secret") && !log.contains("blue"),
            "{log}"
        );
    }
}

#[test]
fn a_seat_learns_from_a_look_or_a_private_line_but_not_from_public_moves() {
    // What `undo` asks before taking a move back: did anyone learn something since?
    let text = "game \"Peek\" { players 2 }\n\
        player var score: int = 0\n\
        hidden var secret_card: int = 7 visible when viewer.looked\n\
        player var looked: bool = false\n\
        flow { repeat 3 { for p in players { turn p } } }\n\
        action bump { me.score += 1 }\n\
        action peek { me.looked = true }\n\
        action whisper { tell me \"the card is odd\" }\n\
        score(p) = p.score\n";
    let loaded = meeple::load::check_source("peek.rules", text);
    let program = std::sync::Arc::new(loaded.program.unwrap_or_else(|| {
        panic!(
            "{}",
            meeple::diag::render_all(
                &loaded.diagnostics,
                &loaded.sources,
                meeple::diag::RenderStyle::plain()
            )
        )
    }));
    let start = Game::new(program, 2, 1).expect("starts");
    let after = |moves: &[&str]| {
        let mut g = start.clone();
        for (i, m) in moves.iter().enumerate() {
            g.apply_label((i % 2) as u8, m).expect("legal");
        }
        g
    };
    let public = after(&["bump", "bump"]);
    assert!(!public.seat_learned_since(&start, 0));
    assert!(!public.seat_learned_since(&start, 1));
    let looked = after(&["peek"]);
    assert!(
        looked.seat_learned_since(&start, 0),
        "P1 looked at the card"
    );
    assert!(!looked.seat_learned_since(&start, 1));
    let told = after(&["whisper"]);
    assert!(told.seat_learned_since(&start, 0), "P1 was told something");
    assert_eq!(told.chance_drawn(), start.chance_drawn());
}

/// Small Print's `place(b: business, card: paper secret)`: in every seeded bot game, each
/// announcement of a placement reads `Pn: place 7m (secret)` to every viewer but the mover,
/// who reads the card; the `--json` stream (the onlooker's log) never names the card.
#[test]
fn a_secret_action_argument_is_seen_only_by_its_player() {
    let program = common::program("rules/small_print.rules");
    let cards = ["share", "small", "big", "total"];
    for players in [2, 3] {
        for seed in 1..6 {
            let mut game = Game::new(program.clone(), players, seed).expect("starts");
            let mut bots: Vec<_> = (0..players)
                .map(|p| BotKind::Random.make(seed, p))
                .collect();
            let mut placements = 0;
            while let Some(&seat) = game.waiting_on().first() {
                let placing = game
                    .options(seat)
                    .iter()
                    .any(|o| o.label.starts_with("place "));
                assert_eq!(
                    game.decision_is_secret(),
                    placing,
                    "typed lines are not kept"
                );
                let index = ask_bot(&game, seat, bots[seat as usize].as_mut()).expect("a move");
                game.apply(seat, index).expect("a legal move");
            }
            let mover_lines = |viewer: Viewer| -> Vec<String> {
                game.log(viewer)
                    .into_iter()
                    .filter(|l| l.contains(": place "))
                    .collect()
            };
            for p in 0..players {
                let name = game.seat_name(p);
                for line in mover_lines(Viewer::Player(p)) {
                    let own = line.starts_with(&format!("{name}: "));
                    let named = cards.iter().any(|c| line.ends_with(&format!(" {c}")));
                    assert_eq!(own, named, "{name} reads `{line}`");
                    assert_eq!(!own, line.ends_with(" (secret)"), "{name} reads `{line}`");
                    placements += usize::from(own);
                }
            }
            for line in mover_lines(Viewer::Spectator) {
                assert!(line.ends_with(" (secret)"), "an onlooker reads `{line}`");
            }
            assert!(placements > 0, "seed {seed}: someone placed a card");
        }
    }
    let o = common::meeple(
        &[
            "play",
            "rules/small_print.rules",
            "--players",
            "2",
            "--seed",
            "3",
            "--bots",
            "random",
            "--json",
        ],
        "",
    );
    let out = common::stdout(&o);
    let mut placements = 0;
    for event in out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
    {
        for line in event["log"].as_array().into_iter().flatten() {
            let line = line.as_str().unwrap_or_default();
            if line.contains(": place ") {
                placements += 1;
                assert!(line.ends_with(" (secret)"), "the JSON log reads `{line}`");
            }
        }
    }
    assert!(placements > 0, "{out}");
}

/// A purse kept secret, and a bid up to it: P1 holds `p1` coins, P2 five.
fn purse_game(p1: i64) -> Game {
    let text = format!(
        "game \"Purse\" {{ players 2 }}\n\
        player secret var coins: int = 5\n\
        var rounds: int = 0\n\
        setup {{ for p in players {{ if seat(p) == 1 {{ p.coins = {p1} }} }} }}\n\
        flow {{\n\
          for p in players {{\n\
            let bid = choose p \"Bid how much?\" from 0..p.coins\n\
            p.coins -= bid\n\
            let again = choose p \"Round?\" from 0..rounds\n\
            rounds += 1 + again\n\
          }}\n\
        }}\n\
        score(p) = p.coins\n"
    );
    let program = Arc::new(
        meeple::load::check_source("purse.rules", &text)
            .program
            .expect("valid"),
    );
    Game::new(program, 2, 1).expect("starts")
}

/// All that seat 1 (P2) and an onlooker are shown: the view, the log, the web page, who must
/// decide, and how many decisions there were (one entry each in a save and a `--json` stream).
fn seen_by_others(game: &Game) -> String {
    use meeple::serve::page::{render, Sight};
    use meeple::serve::Who;
    let mut seen = String::new();
    for who in [Who::Seat(1), Who::Onlooker] {
        let viewer = who.viewer();
        seen += &game.view(viewer);
        seen += &game.log(viewer).join("\n");
        seen += &render(&Sight::of(game, who, "key".into(), 1, false, false));
    }
    format!(
        "{seen}\nwaiting on {:?}, decisions {}",
        game.waiting_on(),
        game.decisions()
    )
}

#[test]
fn a_single_option_from_a_secret_tells_the_other_seat_nothing() {
    // P1 holds no coin in one game and two in the other: a bid of 0 is P1's only option in the
    // first. Both games ask it, and P2 sees the same before and after.
    let (mut poor, mut rich) = (purse_game(0), purse_game(2));
    assert_eq!(seen_by_others(&poor), seen_by_others(&rich));
    let labels = |g: &Game| -> Vec<String> { g.options(0).into_iter().map(|o| o.label).collect() };
    assert_eq!(
        labels(&poor),
        ["0"],
        "the choice of one option was not asked"
    );
    assert_eq!(labels(&rich), ["0", "1", "2"]);
    for game in [&mut poor, &mut rich] {
        game.apply_label(0, "0").expect("legal");
    }
    assert_eq!(seen_by_others(&poor), seen_by_others(&rich));
    // Read as a move chosen among several; then a single option that every seat can work out
    // (how many rounds were played) is taken, and said to be the only one.
    let log = poor.log(Viewer::Player(0));
    assert!(
        log.ends_with(&["P1 chose 0".into(), "P1 chose 0 (the only option)".into()]),
        "{log:?}"
    );
    assert_eq!(poor.decisions(), 1);
    // The decision asked is in the save, which replays to the same place.
    let saved = meeple::save::SaveFile::of_game(&poor, "purse.rules", &[], None).expect("saves");
    assert_eq!(saved.decisions.len(), 1);
    let again = saved
        .restore(poor.program().clone(), &mut |_, _| {})
        .expect("replays");
    assert_eq!(seen_by_others(&again), seen_by_others(&poor));
    assert_eq!(again.to_decide(), Some(1));
}

/// A choice of several from what a secret allows: P1 may take cards above 1 from a secret hand
/// (two cards, `high` of them above 1) and swap up to its secret gold, openly and in secret.
fn empty_choice_game(high: usize, gold: i64) -> Game {
    let hand: Vec<&str> = (0..2).map(|i| if i < high { "2" } else { "1" }).collect();
    let text = format!(
        "game \"Empty choices\" {{ players 2 }}\n\
        player secret var hand: list of int = [1, 2]\n\
        player secret var gold: int = 1\n\
        player var table: list of int = [4, 5]\n\
        setup {{ for p in players {{ if seat(p) == 1 {{ p.hand = [{}]\n p.gold = {gold} }} }} }}\n\
        flow {{\n\
          for p in players {{\n\
            let extra = choose at most 1 of p \"Add a card above 1?\" from [c in p.hand where c > 1]\n\
            log \"{{p}} adds {{count(extra)}}\"\n\
            let xs = choose at most p.gold of p \"Swap which?\" from p.table\n\
          }}\n\
          secretly each p in players choose at most p.gold of ys \"Swap in secret?\" from p.table then {{\n\
            log \"{{p}} swapped\"\n\
          }}\n\
        }}\n\
        score(p) = 0\n",
        hand.join(", ")
    );
    let program = Arc::new(
        meeple::load::check_source("empty.rules", &text)
            .program
            .expect("valid"),
    );
    Game::new(program, 2, 1).expect("starts")
}

#[test]
fn an_empty_choice_of_several_from_a_secret_is_asked_all_the_same() {
    // P1 holds nothing above 1 and no gold in one game, a card and gold in the other: nothing
    // may be picked in the first, yet both ask, and P2 sees the same at every step.
    let (mut poor, mut rich) = (empty_choice_game(0, 0), empty_choice_game(1, 1));
    // P1's two open choices, P2's two, then both at once in secret: every one answered `none`.
    let mut steps = 0;
    while let Some(&seat) = poor.waiting_on().first() {
        assert_eq!(
            seen_by_others(&poor),
            seen_by_others(&rich),
            "P2 tells the games apart at step {steps}"
        );
        if seat == 0 {
            let several = poor.several(0).expect("a choice of several");
            assert_eq!(several.max, 0, "nothing may be picked, and P1 is asked");
        }
        for game in [&mut poor, &mut rich] {
            game.apply_label(seat, "none")
                .expect("none is always an answer");
        }
        steps += 1;
    }
    assert_eq!(steps, 6, "every choice was asked");
    assert_eq!(seen_by_others(&poor), seen_by_others(&rich));
    let log = poor.log(Viewer::Player(1)).join("\n");
    assert!(
        log.contains("P1 chose none") && log.contains("P1 adds 0"),
        "{log}"
    );
}
