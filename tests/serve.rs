//! `meeple serve`, the table in the browser, driven over HTTP: keys act only for their seat,
//! moves made by plain forms reach every seat, a stale or foreign move changes nothing, and no
//! page or event tells a seat (or an onlooker) what it may not see.

mod common;
use common::http::{self, get, move_buttons, pick_boxes, post, version};
use common::program;
use meeple::bots::{BotSpec, RandomBot};
use meeple::engine::{Game, Imagination};
use meeple::serve::page::{render, Sight};
use meeple::serve::{Bounds, Server, Table, TableConfig, Who};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// A table serving `game` on a free port of loopback, and what it told its host.
fn serve(
    game: Game,
    bots: &str,
    save: Option<std::path::PathBuf>,
) -> (Server, Arc<Mutex<Vec<String>>>) {
    serve_bounded(
        game,
        bots,
        save,
        Bounds {
            requests: 1_000_000,
            ..Bounds::default()
        },
    )
}

fn serve_bounded(
    game: Game,
    bots: &str,
    save: Option<std::path::PathBuf>,
    bounds: Bounds,
) -> (Server, Arc<Mutex<Vec<String>>>) {
    let notes = Arc::new(Mutex::new(Vec::new()));
    let told = notes.clone();
    let table = Table::new(TableConfig {
        game,
        rules: "rules.rules".into(),
        variants: Vec::new(),
        bots: if bots.is_empty() {
            BotSpec::default()
        } else {
            BotSpec::parse(bots).expect("a bot spec")
        },
        save,
        host: Arc::new(move |note: &str| told.lock().unwrap().push(note.to_string())),
        replay: false,
    })
    .expect("keys");
    let server =
        Server::start_bounded(table, "127.0.0.1:0".parse().unwrap(), bounds).expect("listens");
    (server, notes)
}

fn path(server: &Server, who: Who) -> String {
    format!("/t/{}", server.table().token_of(who).as_str())
}

fn addr(server: &Server) -> SocketAddr {
    server.addr()
}

const CHEATERS: &str = "rules/cheaters_game.rules";

#[test]
fn unknown_links_are_refused_alike_and_real_ones_open_their_seat() {
    let game = Game::new(program(CHEATERS), 3, 11).unwrap();
    let (server, _) = serve(game, "", None);
    let a = addr(&server);
    let real = path(&server, Who::Seat(1));
    let token = server.table().token_of(Who::Seat(1)).as_str().to_string();
    let guesses = [
        "/t/00000000000000000000000000000000".to_string(),
        format!("/t/{}", &token[..31]),
        format!("/t/{token}0"),
        format!("/t/{}", token.to_uppercase()),
        "/t/".to_string(),
        "/seat/1".to_string(),
    ];
    let first = get(a, &guesses[0]);
    assert_eq!(first.status, 404);
    for g in &guesses {
        let answer = get(a, g);
        assert_eq!(answer.status, 404, "{g}");
        assert_eq!(
            answer.body, first.body,
            "every unknown link answers alike: {g}"
        );
        assert_eq!(get(a, &format!("{g}/events")).status, 404, "{g}/events");
        assert!(
            post(a, &format!("{g}/move"), &[("v", "1"), ("move", "cheat")]).status == 404,
            "{g}/move"
        );
    }
    // Where web tables have leaked: no route syncs state, undoes, or tells the random
    // generator's state, with a key or without.
    for route in ["state", "undo", "history", "log", "seed", "rng", "save"] {
        assert_eq!(get(a, &format!("{real}/{route}")).status, 404, "{route}");
        assert_eq!(
            post(a, &format!("{real}/{route}"), &[("v", "1")]).status,
            404,
            "{route}"
        );
        assert_eq!(get(a, &format!("/{route}")).status, 404, "/{route}");
    }
    let page = get(a, &real);
    assert_eq!(page.status, 200);
    assert!(page.body.contains("P2&#39;s view") || page.body.contains("P2's view"));
    // The page is nobody's to cache, frame or pass on as a referrer.
    assert_eq!(page.header("cache-control"), Some("no-store"));
    assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
    assert!(page
        .header("content-security-policy")
        .is_some_and(|c| c.contains("frame-ancestors 'none'")));
    assert!(page.header("set-cookie").is_none());
}

#[test]
fn a_move_by_plain_form_reaches_the_other_seats_and_onlookers() {
    let game = Game::new(program(CHEATERS), 3, 12).unwrap();
    let (server, _) = serve(game, "", None);
    let a = addr(&server);
    let seat = server.table().game().to_decide().expect("someone decides");
    let mine = get(a, &path(&server, Who::Seat(seat))).body;
    let moves = move_buttons(&mine);
    assert!(!moves.is_empty(), "the deciding seat has buttons:\n{mine}");
    let other = (seat + 1) % 3;
    let theirs = get(a, &path(&server, Who::Seat(other))).body;
    assert!(
        move_buttons(&theirs).is_empty(),
        "a seat not deciding has no buttons"
    );
    let (_, before) = http::events(a, &format!("{}/events", path(&server, Who::Seat(other))), 1);

    let answer = post(
        a,
        &format!("{}/move", path(&server, Who::Seat(seat))),
        &[("v", &version(&mine)), ("move", &moves[0])],
    );
    assert_eq!(answer.status, 303, "{}", answer.body);
    assert_eq!(
        answer.header("location"),
        Some(path(&server, Who::Seat(seat)).as_str())
    );
    assert_eq!(server.table().game().history().len(), 1);

    let announced = format!("{}: {}", server.table().game().seat_name(seat), moves[0]);
    for who in [Who::Seat(other), Who::Onlooker] {
        let page = get(a, &path(&server, who)).body;
        assert!(
            http::unescape(&page).contains(&announced),
            "{who:?} reads the move `{announced}`"
        );
    }
    let (status, after) =
        http::events(a, &format!("{}/events", path(&server, Who::Seat(other))), 1);
    assert_eq!(status, 200);
    assert_ne!(before, after, "the other seat's page version moved");
    assert!(
        after[0].chars().all(|c| c.is_ascii_digit()),
        "an event is a version only"
    );
}

#[test]
fn a_move_from_the_wrong_seat_an_onlooker_or_a_stale_page_changes_nothing() {
    let game = Game::new(program(CHEATERS), 3, 13).unwrap();
    let (server, _) = serve(game, "", None);
    let a = addr(&server);
    let seat = server.table().game().to_decide().unwrap();
    let mine = get(a, &path(&server, Who::Seat(seat))).body;
    let label = move_buttons(&mine)[0].clone();
    let v = version(&mine);
    let before = server.table().game().canonical();

    let other = (seat + 1) % 3;
    let theirs = version(&get(a, &path(&server, Who::Seat(other))).body);
    let refused = post(
        a,
        &format!("{}/move", path(&server, Who::Seat(other))),
        &[("v", &theirs), ("move", &label)],
    );
    assert_eq!(refused.status, 403);
    let onlooker = version(&get(a, &path(&server, Who::Onlooker)).body);
    let refused = post(
        a,
        &format!("{}/move", path(&server, Who::Onlooker)),
        &[("v", &onlooker), ("move", &label)],
    );
    assert_eq!(refused.status, 403);
    let stale = post(
        a,
        &format!("{}/move", path(&server, Who::Seat(seat))),
        &[("v", "0"), ("move", &label)],
    );
    assert_eq!(stale.status, 409);
    let illegal = post(
        a,
        &format!("{}/move", path(&server, Who::Seat(seat))),
        &[("v", &v), ("move", "no such move")],
    );
    assert_eq!(illegal.status, 422);
    let garbled = http::request(
        a,
        "POST",
        &format!("{}/move", path(&server, Who::Seat(seat))),
        Some("v=%ZZ&&move"),
    );
    assert!((400..500).contains(&garbled.status), "{}", garbled.status);
    let huge = "x".repeat(meeple::serve::MAX_BODY + 10);
    let too_big = post(
        a,
        &format!("{}/move", path(&server, Who::Seat(seat))),
        &[("v", &v), ("move", &huge)],
    );
    assert_eq!(too_big.status, 413);
    assert_eq!(server.table().game().canonical(), before, "nothing changed");

    // The same form, once the move is made, is stale: a second click plays nothing.
    let ok = post(
        a,
        &format!("{}/move", path(&server, Who::Seat(seat))),
        &[("v", &v), ("move", &label)],
    );
    assert_eq!(ok.status, 303);
    let after = server.table().game().canonical();
    let again = post(
        a,
        &format!("{}/move", path(&server, Who::Seat(seat))),
        &[("v", &v), ("move", &label)],
    );
    assert!(
        again.status == 409 || again.status == 403,
        "{}",
        again.status
    );
    assert_eq!(server.table().game().canonical(), after);
}

/// Plays a whole game through the seats' pages, clicking a random button (or ticking random
/// boxes) of whichever seat must decide; checks each page on the way. Returns the decisions.
fn play_through_pages(server: &Server, seed: u64, seat_count: u8) -> usize {
    let a = addr(server);
    let mut rng = RandomBot::new(seed, 9);
    let mut steps = 0;
    while !server.table().game().is_over() {
        steps += 1;
        assert!(steps < 5000, "the game ends");
        let game = server.table().game();
        let Some(&seat) = game.waiting_on().first() else {
            panic!("nobody decides");
        };
        let page = get(a, &path(server, Who::Seat(seat))).body;
        let v = version(&page);
        let moves = move_buttons(&page);
        let boxes = pick_boxes(&page);
        let mut form: Vec<(&str, String)> = vec![("v", v)];
        if !moves.is_empty() {
            form.push(("move", moves[rng.pick(moves.len())].clone()));
        } else if !boxes.is_empty() || page.contains("Choose these") {
            // a choice of several: the rules' own count is typed if the boxes cannot say it
            let several = game.several(seat).expect("a choice of several");
            let k = several.min;
            for b in boxes.iter().take(k) {
                form.push(("pick", b.clone()));
            }
        } else {
            panic!(
                "{} must decide but has nothing to click:\n{page}",
                game.seat_name(seat)
            );
        }
        let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let answer = post(a, &format!("{}/move", path(server, Who::Seat(seat))), &form);
        assert_eq!(answer.status, 303, "{}", answer.body);
        for p in 0..seat_count {
            let page = get(a, &path(server, Who::Seat(p))).body;
            assert!(!page.contains("has stopped"), "no rule failed");
        }
    }
    steps
}

#[test]
fn every_seed_game_plays_to_its_end_from_three_pages() {
    for (file, seed) in [
        ("rules/cheaters_game.rules", 21),
        ("rules/small_print.rules", 22),
        ("rules/endgame.rules", 23),
        ("rules/incorporated.rules", 24),
        ("rules/share_and_share_alike.rules", 25),
    ] {
        let program = program(file);
        let players = 3.clamp(program.min_players, program.max_players);
        let game = Game::new(program, players, seed).unwrap();
        let (server, notes) = serve(game, "", None);
        let steps = play_through_pages(&server, seed, players);
        assert!(steps > 0);
        let end = get(addr(&server), &path(&server, Who::Onlooker)).body;
        assert!(
            end.contains("Game over"),
            "{file}: the onlooker sees the end"
        );
        assert!(
            notes.lock().unwrap().is_empty(),
            "{file}: {:?}",
            notes.lock().unwrap()
        );
    }
}

#[test]
fn bots_play_their_seats_and_the_save_follows_every_decision() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("table.json");
    let game = Game::new(program(CHEATERS), 3, 31).unwrap();
    let (server, notes) = serve(game, "2=random,3=random", Some(save.clone()));
    let a = addr(&server);
    let started = std::time::Instant::now();
    while started.elapsed() < std::time::Duration::from_secs(120) {
        let game = server.table().game();
        if game.is_over() {
            break;
        }
        match game.waiting_on().first() {
            Some(0) => {
                let page = get(a, &path(&server, Who::Seat(0))).body;
                let moves = move_buttons(&page);
                if moves.is_empty() {
                    continue; // the bots moved since
                }
                let _ = post(
                    a,
                    &format!("{}/move", path(&server, Who::Seat(0))),
                    &[("v", &version(&page)), ("move", &moves[0])],
                );
            }
            _ => std::thread::sleep(std::time::Duration::from_millis(5)),
        }
    }
    let game = server.table().game();
    assert!(game.is_over(), "the bots and P1 finish the game");
    assert!(game.history().iter().any(|r| r.player != 0), "bots moved");
    let saved = meeple::save::SaveFile::read(&save).expect("a save after every decision");
    assert_eq!(saved.decisions.len(), game.history().len());
    assert!(notes.lock().unwrap().is_empty());
    // A bot's seat has no buttons, even for its owner's link.
    let bot_page = get(a, &path(&server, Who::Seat(1))).body;
    assert!(bot_page.contains("played by a bot"));
}

/// Every page a seat or an onlooker gets, drawn from the real game and from worlds the seat
/// imagines (the same in all it may see, different in what it may not): identical, byte for
/// byte. So nothing a seat may not see reaches its page, whatever the page draws.
#[test]
fn pages_are_the_same_in_every_world_a_seat_cannot_tell_apart() {
    let mut compared = 0;
    let mut differing = 0;
    for (file, players) in [
        ("rules/cheaters_game.rules", 3),
        ("rules/small_print.rules", 2),
        ("rules/share_and_share_alike.rules", 4),
        ("rules/incorporated.rules", 3),
        ("rules/endgame.rules", 2),
        ("examples/hanabi.rules", 3),
        // The top discs of a mat shown to everyone (`visible last`), the rest face down.
        ("tests/fixtures/ok/skull_mat.rules", 3),
    ] {
        let program = program(file);
        for seed in 1..=3u64 {
            let mut game = Game::new(program.clone(), players, seed).unwrap();
            let mut bots: Vec<RandomBot> = (0..players).map(|p| RandomBot::new(seed, p)).collect();
            for step in 0..60 {
                if game.is_over() {
                    break;
                }
                if step % 12 == 5 {
                    for seat in 0..players {
                        let mut imagination = Imagination::new(seat, seed * 100 + step);
                        // An imagined world keeps no log (bots read none); the log a viewer
                        // reads is the engine's and is tested in tests/information.rs. Everything
                        // else on the page is drawn from the world itself.
                        let page = |g: &Game, who: Who| {
                            let mut sight = Sight::of(g, who, "key".into(), 3, false, false);
                            sight.log = game.log_lines(who.viewer());
                            render(&sight)
                        };
                        let mine = page(&game, Who::Seat(seat));
                        let public = page(&game, Who::Onlooker);
                        for world in imagination.worlds(&game, 4) {
                            let (w, g) = (world.state(), game.state());
                            if (&w.globals, &w.player_vars, &w.entities)
                                != (&g.globals, &g.player_vars, &g.entities)
                            {
                                differing += 1;
                            }
                            assert_eq!(
                                page(&world, Who::Seat(seat)),
                                mine,
                                "{file} seed {seed} step {step} seat {seat}"
                            );
                            assert_eq!(
                                page(&world, Who::Onlooker),
                                public,
                                "{file} seed {seed} step {step}: onlookers"
                            );
                            compared += 1;
                        }
                    }
                }
                let seat = game.waiting_on()[0];
                let i = bots[seat as usize].pick(game.option_count(seat));
                game.apply(seat, i).unwrap();
            }
        }
    }
    eprintln!("pages compared in {compared} worlds, {differing} of them unlike the real game");
    assert!(compared > 100, "enough worlds compared: {compared}");
    assert!(
        differing > compared / 4,
        "worlds that differ from the real game: {differing} of {compared}"
    );
}

#[test]
fn a_secret_choice_is_not_shown_nor_timed_to_the_other_seats() {
    // Hidden under one of three cups: P2 chooses in secret; P1's page and events are the same
    // whichever cup, and P1's version does not move while P2 is only looking.
    let cups = program("tests/fixtures/honesty/secret_choice.rules");
    let mut pages = Vec::new();
    for cup in [0usize, 2] {
        let game = Game::new(cups.clone(), 2, 5).unwrap();
        let (server, _) = serve(game, "", None);
        let a = addr(&server);
        let p2 = get(a, &path(&server, Who::Seat(1))).body;
        let moves = move_buttons(&p2);
        assert!(moves.len() >= 3, "P2 hides under a cup:\n{p2}");
        let (_, before) = http::events(a, &format!("{}/events", path(&server, Who::Seat(0))), 1);
        // P2 looks at its page again: nothing moves for P1
        let _ = get(a, &path(&server, Who::Seat(1)));
        let (_, still) = http::events(a, &format!("{}/events", path(&server, Who::Seat(0))), 1);
        assert_eq!(before, still);
        let answer = post(
            a,
            &format!("{}/move", path(&server, Who::Seat(1))),
            &[("v", &version(&p2)), ("move", &moves[cup])],
        );
        assert_eq!(answer.status, 303);
        let p1 = get(a, &path(&server, Who::Seat(0))).body;
        let token = server.table().token_of(Who::Seat(0)).as_str().to_string();
        pages.push(p1.replace(&token, "KEY"));
        let onlooker = get(a, &path(&server, Who::Onlooker)).body;
        let token = server.table().token_of(Who::Onlooker).as_str().to_string();
        pages.push(onlooker.replace(&token, "KEY"));
    }
    assert_eq!(
        pages[0], pages[2],
        "P1's page is the same whichever cup P2 chose"
    );
    assert_eq!(pages[1], pages[3], "so is the onlookers'");
}

#[test]
fn the_seed_never_reaches_a_page() {
    let seed = 918_273_645_546_372_819;
    let game = Game::new(program(CHEATERS), 3, seed).unwrap();
    let (server, _) = serve(game, "", None);
    play_through_pages(&server, 3, 3);
    for who in [Who::Seat(0), Who::Seat(1), Who::Seat(2), Who::Onlooker] {
        let page = get(addr(&server), &path(&server, who)).body;
        assert!(!page.contains(&seed.to_string()), "{who:?}");
        assert!(page.contains("Game over"));
    }
}

#[test]
fn strings_from_the_rules_are_escaped() {
    let text = r#"game "<script>alert(1)</script> & Co" { players 2 }
player var note: int in 0..3 = 0
flow { while not any(p in players where p.note == 3) { for p in players { turn p } } }
action poke "<b>poke</b>" { me.note += 1  log "<img src=x onerror=alert(2)> ESC[31mred" }
score(p) = p.note
"#;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("evil.rules");
    // A control character in a string is warned of, and kept.
    std::fs::write(&file, text.replace("ESC", "\u{1b}")).unwrap();
    let loaded = meeple::load::load(&file, &[]);
    let program = loaded.program.expect("checks");
    let game = Game::new(Arc::new(program), 2, 1).unwrap();
    let (server, _) = serve(game, "", None);
    let a = addr(&server);
    let page = get(a, &path(&server, Who::Seat(0))).body;
    let answer = post(
        a,
        &format!("{}/move", path(&server, Who::Seat(0))),
        &[("v", &version(&page)), ("move", "poke")],
    );
    assert_eq!(answer.status, 303);
    let page = get(a, &path(&server, Who::Seat(1))).body;
    assert!(!page.contains("<script>alert"), "{page}");
    assert!(!page.contains("<img"), "{page}");
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co"));
    assert!(page.contains("&lt;img src=x onerror=alert(2)&gt;"));
    // A control character from the rules is written out, as on every output of meeple.
    assert!(!page.contains('\u{1b}'), "{page}");
    assert!(page.contains("\\u{1b}[31mred"), "{page}");
}

#[test]
fn a_key_is_held_to_its_requests_and_streams() {
    let game = Game::new(program(CHEATERS), 3, 41).unwrap();
    let bounds = Bounds {
        requests: 5,
        window: std::time::Duration::from_secs(600),
        streams: 1,
    };
    let (server, _) = serve_bounded(game, "", None, bounds);
    let a = addr(&server);
    let p1 = path(&server, Who::Seat(0));
    for _ in 0..5 {
        assert_eq!(get(a, &p1).status, 200);
    }
    assert_eq!(get(a, &p1).status, 429, "the sixth request in the window");
    // another key is counted apart
    let p2 = path(&server, Who::Seat(1));
    let mut stream = std::net::TcpStream::connect(a).unwrap();
    use std::io::Write;
    write!(stream, "GET {p2}/events HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    // The first stream is open once its first event arrives.
    {
        use std::io::Read;
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(20)))
            .unwrap();
        let mut seen = Vec::new();
        let mut buf = [0u8; 1024];
        while !String::from_utf8_lossy(&seen).contains("data:") {
            let n = stream.read(&mut buf).expect("the first stream answers");
            assert!(n > 0, "the first stream stays open");
            seen.extend_from_slice(&buf[..n]);
        }
    }
    let (status, _) = http::events(a, &format!("{p2}/events"), 1);
    assert_eq!(
        status, 429,
        "a second stream of one key, past its bound of one"
    );
    drop(stream);
}

#[test]
fn a_failing_rule_stops_the_table_saves_the_game_and_tells_only_the_host() {
    // Late Failure: secret picks by both seats at once, then turns; the rules divide by zero in
    // the seventh decision.
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("late.json");
    let program = program("tests/fixtures/run/late_failure.rules");
    let game = Game::new(program, 2, 3).unwrap();
    let (server, notes) = serve(game, "", Some(save.clone()));
    let a = addr(&server);
    let mut before = String::new();
    for _ in 0..7 {
        let game = server.table().game();
        let waiting = game.waiting_on();
        let seat = waiting[0];
        if waiting.len() == 2 {
            // a secret choice: both seats are asked at once, each on its own page
            let other = get(a, &path(&server, Who::Seat(1))).body;
            assert!(
                !move_buttons(&other).is_empty(),
                "P2 chooses at the same time"
            );
        }
        before = game.canonical();
        let page = get(a, &path(&server, Who::Seat(seat))).body;
        let moves = move_buttons(&page);
        let answer = post(
            a,
            &format!("{}/move", path(&server, Who::Seat(seat))),
            &[("v", &version(&page)), ("move", &moves[0])],
        );
        assert_eq!(answer.status, 303);
    }
    assert_eq!(
        server.table().game().canonical(),
        before,
        "the failing move changed nothing"
    );
    let told = notes.lock().unwrap().join("\n");
    assert!(
        told.contains("division-by-zero") || told.contains("zero"),
        "the host reads the failure: {told}"
    );
    assert!(
        told.contains("late.json"),
        "and where the game is saved: {told}"
    );
    let saved = meeple::save::SaveFile::read(&save).expect("saved");
    assert_eq!(
        saved.decisions.len(),
        6,
        "the game just before the failing decision"
    );
    for who in [Who::Seat(0), Who::Seat(1), Who::Onlooker] {
        let page = get(a, &path(&server, who)).body;
        assert!(page.contains("The game has stopped"), "{who:?}");
        assert!(
            !page.contains("division") && !page.contains("late.json"),
            "{who:?} reads nothing more:\n{page}"
        );
        assert!(
            !page.contains("your turn"),
            "{who:?}: nobody is to move now"
        );
        assert!(move_buttons(&page).is_empty());
    }
    let p1 = get(a, &path(&server, Who::Seat(0))).body;
    let refused = post(
        a,
        &format!("{}/move", path(&server, Who::Seat(0))),
        &[("v", &version(&p1)), ("move", "pass")],
    );
    assert_eq!(refused.status, 409, "a stopped table takes no move");
}

/// `meeple serve` as a designer runs it: started with its arguments, stopped with a signal.
struct Serving {
    child: std::process::Child,
    links: Vec<(String, String)>,
}

impl Serving {
    fn start(args: &[&str]) -> Serving {
        use std::io::BufRead;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_meeple"))
            .arg("serve")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("meeple serve runs");
        let out = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut links = Vec::new();
        for line in out.lines() {
            let line = line.unwrap();
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.len() >= 2 {
                links.push((words[0].to_string(), words[1..].join(" ")));
            }
            if line.starts_with("  onlookers") || line.starts_with("  replay") {
                break;
            }
        }
        Serving { child, links }
    }

    fn link(&self, name: &str) -> (SocketAddr, String) {
        let url = &self
            .links
            .iter()
            .find(|(n, _)| n == name)
            .expect("a link")
            .1;
        let rest = url.strip_prefix("http://").expect("a link");
        let (host, path) = rest.split_once('/').unwrap();
        (host.parse().unwrap(), format!("/{path}"))
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_command_prints_a_link_per_seat_and_its_save_opens_in_the_repl_and_back() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("table.json");
    let save_arg = save.display().to_string();
    let serving = Serving::start(&[
        "rules/small_print.rules",
        "-p",
        "3",
        "--seed",
        "5",
        "--bots",
        "3=random",
        "--save",
        &save_arg,
    ]);
    let names: Vec<&str> = serving.links.iter().map(|(n, _)| n.as_str()).collect();
    assert!(
        names.contains(&"P1") && names.contains(&"P2") && names.contains(&"onlookers"),
        "{:?}",
        serving.links
    );
    let p3 = &serving.links.iter().find(|(n, _)| n == "P3").unwrap().1;
    assert!(
        p3.contains("played by random"),
        "a bot's seat has no link: {p3}"
    );
    let (a, p1) = serving.link("P1");
    assert!(
        p1.starts_with("/t/") && p1.len() == 3 + 32,
        "a 128-bit key: {p1}"
    );
    let (_, p2) = serving.link("P2");
    // Play until a move of a person's is saved.
    let mut played = 0;
    for _ in 0..50 {
        for p in [&p1, &p2] {
            let page = get(a, p).body;
            let moves = move_buttons(&page);
            if let Some(m) = moves.first() {
                if post(
                    a,
                    &format!("{p}/move"),
                    &[("v", &version(&page)), ("move", m)],
                )
                .status
                    == 303
                {
                    played += 1;
                }
            }
        }
        if played >= 3 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(played >= 3);
    drop(serving);
    // The table's save resumes in the REPL, here with bots in every seat to the end.
    let resumed = common::run(&["play", "--load", &save_arg, "--bots", "random"]);
    assert_eq!(common::code(&resumed), 0, "{}", common::stderr(&resumed));
    assert!(
        common::stdout(&resumed).contains("winner") || common::stdout(&resumed).contains("wins"),
        "{}",
        common::stdout(&resumed)
    );

    // A save made in the REPL opens at the table.
    let repl_save = dir.path().join("repl.json");
    let script = format!("1\nsave {}\nquit\n", repl_save.display());
    let out = common::meeple(
        &["play", "rules/small_print.rules", "-p", "3", "--seed", "6"],
        &script,
    );
    assert!(
        repl_save.exists(),
        "the REPL saved: {}",
        common::stdout(&out)
    );
    let serving = Serving::start(&["--load", &repl_save.display().to_string()]);
    let (a, p1) = serving.link("P1");
    let page = get(a, &p1).body;
    assert!(
        page.contains("<li class=\"move\">"),
        "the table shows the move made in the REPL:\n{page}"
    );
}

#[test]
fn the_command_refuses_what_it_cannot_serve() {
    let missing = common::run(&["serve", "no/such.rules"]);
    assert_eq!(common::code(&missing), 1);
    let players = common::run(&["serve", "rules/small_print.rules", "-p", "9"]);
    assert_eq!(common::code(&players), 2);
    assert!(
        common::stderr(&players).contains("2 to 4") || common::stderr(&players).contains("players")
    );
    let help = common::run(&["serve", "--help"]);
    assert_eq!(common::code(&help), 0);
    for flag in [
        "--port",
        "--host",
        "--save",
        "--load",
        "--bots",
        "--variant",
    ] {
        assert!(common::stdout(&help).contains(flag), "{flag}");
    }
}

#[test]
fn a_finished_game_is_stepped_through_in_any_view_and_not_before() {
    let game = Game::new(program("rules/small_print.rules"), 3, 8).unwrap();
    let (server, _) = serve(game, "", None);
    let a = addr(&server);
    let p1 = path(&server, Who::Seat(0));
    assert_eq!(
        get(a, &format!("{p1}/step?n=3&view=referee")).status,
        403,
        "not while it is played"
    );
    let total = play_through_pages(&server, 8, 3);
    let end = get(a, &p1).body;
    assert!(
        end.contains("/step?n=0&amp;view=referee"),
        "the end links to the steps"
    );
    let referee = get(a, &format!("{p1}/step?n=2&view=referee"));
    assert_eq!(referee.status, 200);
    assert!(
        referee.body.contains(&format!("decision 2 of {total}")),
        "{}",
        referee.body
    );
    assert!(referee.body.contains("referee&#39;s view") || referee.body.contains("referee's view"));
    // The referee sees every hand; P1 saw only its own, P2's as backs.
    let p2_hand = |page: &str| {
        let seats = page
            .split("<section class=\"seat")
            .nth(3)
            .expect("P2 panel")
            .to_string();
        seats.split("</dd>").next().unwrap().to_string()
    };
    assert!(
        !p2_hand(&referee.body).contains("class=\"back\""),
        "{}",
        p2_hand(&referee.body)
    );
    // Each line a seat read alone says for whom: the referee reads every version of it.
    let end_referee = get(a, &format!("{p1}/step?n={total}&view=referee")).body;
    assert!(end_referee.contains("[to P"), "{end_referee}");
    assert!(end_referee.contains("[all but P"), "{end_referee}");
    let as_p1 = get(a, &format!("{p1}/step?n=2&view=P1")).body;
    assert!(
        p2_hand(&as_p1).contains("class=\"back\""),
        "{}",
        p2_hand(&as_p1)
    );
    // Past the end is the end; a view that is not one is refused.
    let past = get(a, &format!("{p1}/step?n=100000&view=onlookers")).body;
    assert!(past.contains(&format!("decision {total} of {total}")));
    assert_eq!(get(a, &format!("{p1}/step?n=1&view=P9")).status, 404);
}

#[test]
fn a_save_is_replayed_at_its_own_link() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("done.json");
    let out = common::run(&[
        "play",
        "rules/small_print.rules",
        "-p",
        "2",
        "--seed",
        "3",
        "--bots",
        "random",
        "--json",
    ]);
    assert_eq!(common::code(&out), 0);
    std::fs::write(&save, common::stdout(&out)).unwrap();
    let serving = Serving::start(&["--replay", &save.display().to_string()]);
    let (a, step) = serving.link("replay");
    let page = get(
        a,
        &step.replace("/step?n=0&view=referee", "/step?n=1&view=referee"),
    );
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("decision 1 of "), "{}", page.body);
    // Nothing is played at a replay.
    let live = step.split("/step").next().unwrap().to_string();
    let onlooker = get(a, &live).body;
    assert!(move_buttons(&onlooker).is_empty());
}

#[test]
fn an_action_with_no_move_now_links_to_why_not() {
    // Small Print: a turn places a card; marking it is the next decision's.
    let game = Game::new(program("rules/small_print.rules"), 3, 12).unwrap();
    let (server, _) = serve(game, "", None);
    let a = addr(&server);
    let seat = server.table().game().to_decide().unwrap();
    let page = get(a, &path(&server, Who::Seat(seat))).body;
    let offered: Vec<String> = move_buttons(&page);
    let unavailable: Vec<String> = page
        .split("/why?move=")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().to_string())
        .collect();
    assert!(
        !unavailable.is_empty(),
        "some action has no move now:\n{page}"
    );
    for action in &unavailable {
        assert!(
            !offered
                .iter()
                .any(|m| m.split_whitespace().next() == Some(action)),
            "{action} is offered"
        );
        let why = get(
            a,
            &format!("{}/why?move={action}", path(&server, Who::Seat(seat))),
        );
        assert_eq!(why.status, 200);
        assert!(
            !why.body.contains("It is a legal move now."),
            "{action}: {}",
            why.body
        );
        let expected = server.table().game().why(seat, action).expect("refused");
        assert!(http::unescape(&why.body).contains(&expected), "{expected}");
    }
}

#[test]
fn a_number_kept_within_a_dies_faces_is_drawn_as_that_die() {
    let text = r#"game "Dice Board" { players 2 }
die d6: 1..6
die coin: [0, 1]
player var shown: int in 1..6 = 1
player var heads: int in 0..1 = 0
player var steps: int in 0..20 = 0
flow { repeat 2 { for p in players { turn p } } }
action throw "Roll" { let r = roll d6  me.shown = r  me.steps += r }
score(p) = p.steps
"#;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("dice.rules");
    std::fs::write(&file, text).unwrap();
    let program = Arc::new(meeple::load::load(&file, &[]).program.expect("checks"));
    let mut game = Game::new(program, 2, 4).unwrap();
    game.apply_label(0, "throw").unwrap();
    let picture = game.picture(meeple::engine::Viewer::Player(1));
    let looks: Vec<&meeple::engine::Look> = picture.seats[0].vars.iter().map(|v| &v.look).collect();
    let rolled = common::player_int(&game, 0, "shown");
    assert!(
        matches!(looks[0], meeple::engine::Look::Die { value, die } if *value == rolled && die == "d6"),
        "{looks:?}"
    );
    assert!(
        matches!(looks[1], meeple::engine::Look::Die { die, .. } if die == "coin"),
        "{looks:?}"
    );
    assert!(
        matches!(looks[2], meeple::engine::Look::Number { .. }),
        "a track is no die: {looks:?}"
    );
    let (server, _) = serve(game, "", None);
    let page = get(addr(&server), &path(&server, Who::Seat(1))).body;
    assert!(page.contains(&format!("<span class=\"die\" title=\"d6\" role=\"img\" aria-label=\"d6 showing {rolled}\">{rolled}</span>")), "{page}");
}

#[test]
fn identical_cards_are_one_button_with_their_count() {
    // P1 holds three tempura cards, two of them alike, and a sashimi: three buttons.
    let src = r#"
game "Tempura" { players 2 }
enum dish { tempura, sashimi }
kind card[4] shown as "{it.dish}" {
  dish: dish = if index <= 3 then tempura else sashimi
  fresh: bool = index != 3
}
player var hand: list of card = []
setup {
  let p = at_seat(1)
  for c in card {
    p.hand += c
  }
}
flow {
  let p = at_seat(1)
  let c = choose p "Keep which card?" from p.hand
  p.hand -= c
}
score(p) = count(p.hand)
"#;
    let loaded = meeple::load::check_source("t.rules", src);
    let program = Arc::new(loaded.program.expect("checks clean"));
    let game = Game::new(program, 2, 1).expect("starts");
    let page = render(&Sight::of(
        &game,
        Who::Seat(0),
        "key".into(),
        1,
        false,
        false,
    ));
    let buttons = move_buttons(&page);
    assert_eq!(buttons, ["tempura", "tempura#3", "sashimi"], "{page}");
    assert_eq!(page.matches("(×2, alike)").count(), 1, "{page}");
    assert!(!page.contains("more: type one below"), "{page}");
}

#[test]
fn an_entry_is_on_the_page_only_while_its_shown_when_holds() {
    let src = r#"
game "Passing" { players 2 }
player var coins: int = 0
player var passed: bool = false shown when owner.passed
var pot: int = 0 shown when pot > 0
show pot_left = 5 - pot shown when pot > 0
flow { repeat 2 { for p in players { turn p } } }
action bet "Bet" { me.coins += 1  pot += 1 }
action pass "Pass" { me.passed = true }
score(p) = p.coins
"#;
    let loaded = meeple::load::check_source("t.rules", src);
    let program = Arc::new(loaded.program.expect("checks clean"));
    let mut game = Game::new(program, 2, 1).expect("starts");
    let page = |game: &Game| {
        render(&Sight::of(
            game,
            Who::Seat(1),
            "key".into(),
            1,
            false,
            false,
        ))
    };
    let entry = |name: &str| format!("<dt>{name}</dt>");
    let before = page(&game);
    for name in ["passed", "pot", "pot_left"] {
        assert!(!before.contains(&entry(name)), "{name} drawn:\n{before}");
    }
    assert!(before.contains(&entry("coins")), "{before}");
    game.apply_label(0, "bet").unwrap();
    let after_bet = page(&game);
    assert!(after_bet.contains(&entry("pot")), "{after_bet}");
    assert!(after_bet.contains(&entry("pot_left")), "{after_bet}");
    assert!(!after_bet.contains(&entry("passed")), "{after_bet}");
    game.apply_label(1, "pass").unwrap();
    let after_pass = page(&game);
    assert_eq!(
        after_pass.matches(&entry("passed")).count(),
        1,
        "{after_pass}"
    );
}

#[test]
fn a_section_is_drawn_under_its_heading_and_its_secrets_stay_with_their_seat() {
    let src = r#"
game "Vaults" { players 2 }
player var coins: int = 0
section "Vault" {
  player secret var stash: int = 0
  var opened: int = 0
  player show doubled = owner.stash * 2
}
flow {
  for p in players { p.stash = 4817 + 1000 * seat(p) }
  repeat 2 { for p in players { turn p } }
}
action open "Open" { opened += 1  me.coins += 1 }
score(p) = p.coins
"#;
    let (server, a) = serve_two_seats(src);
    let p1 = get(a, &path(&server, Who::Seat(0))).body;
    // P1's own stash (5817) and what it shows doubled (11634) are on P1's page, in the section.
    assert!(p1.contains("<h2>Vault</h2>"), "{p1}");
    assert!(p1.contains("5817") && p1.contains("11634"), "{p1}");
    for who in [Who::Seat(1), Who::Onlooker] {
        let page = get(a, &path(&server, who)).body;
        assert!(page.contains("<h2>Vault</h2>"), "{page}");
        assert!(page.contains("<dt>opened</dt>"), "{page}");
        secrets_absent(&server, who, &page, &["5817", "11634"]);
    }
}

/// A two-seat game of `src` served with seed 1, and its address.
fn serve_two_seats(src: &str) -> (Server, SocketAddr) {
    let loaded = meeple::load::check_source("t.rules", src);
    let program = Arc::new(loaded.program.expect("checks clean"));
    let game = Game::new(program, 2, 1).expect("starts");
    let (server, _) = serve(game, "", None);
    let a = addr(&server);
    (server, a)
}

/// Asserts that none of `secrets` is on `who`'s `page` or in the first of its events.
fn secrets_absent(server: &Server, who: Who, page: &str, secrets: &[&str]) {
    let (_, events) = http::events(addr(server), &format!("{}/events", path(server, who)), 1);
    let events = events.join("\n");
    for secret in secrets {
        assert!(!page.contains(secret), "{secret} on a page:\n{page}");
        assert!(!events.contains(secret), "{secret} in events:\n{events}");
    }
}

#[test]
fn a_table_section_draws_a_row_per_position_and_its_hidden_cells_as_backs() {
    let src = r#"
game "Slots" { players 2 }
section "Hands" as table {
  player secret var hand: list of int = []
  player var told: list of bool = []
}
flow {
  for p in players {
    p.hand = [4817 + 1000 * seat(p), 4818 + 1000 * seat(p)]
    p.told = [true, false]
  }
  for p in players { turn p }
}
action pass "Pass" { }
score(p) = 0
"#;
    let (server, a) = serve_two_seats(src);
    let p1 = get(a, &path(&server, Who::Seat(0))).body;
    // P1's own hand, a row per card, beside what was told of it.
    assert!(p1.contains("<table class=\"slots\">"), "{p1}");
    assert!(
        p1.contains(
            "<th scope=\"row\">1</th><td>5817</td><td>yes</td></tr><tr><th scope=\"row\">2</th><td>5818</td><td>no</td>"
        ),
        "{p1}"
    );
    // P2's hand: two rows of backs on P1's page, and its numbers on no page but P2's.
    assert_eq!(p1.matches("title=\"hidden\">?</span>").count(), 2, "{p1}");
    for who in [Who::Seat(0), Who::Onlooker] {
        let page = get(a, &path(&server, who)).body;
        secrets_absent(&server, who, &page, &["6817", "6818"]);
    }
}

/// A table of Flashed Hand at seed 1 (P2's middle card face up), with P1's and P2's hands.
fn flashed_table() -> (Server, Vec<String>, Vec<String>) {
    let program = program("tests/fixtures/ok/flashed_hand.rules");
    let game = Game::new(program, 2, 1).expect("starts");
    let hand = |g: &Game, seat: u8| common::player_list(g, seat, "hand");
    let (mine, theirs) = (hand(&game, 0), hand(&game, 1));
    (serve(game, "", None).0, mine, theirs)
}

#[test]
fn a_revealed_card_is_drawn_face_up_in_its_place_and_the_others_stay_backs() {
    let (server, mine, theirs) = flashed_table();
    let a = addr(&server);
    // P2's middle card is face up from the start, on every page; its other two on P2's alone.
    for who in [Who::Seat(0), Who::Onlooker] {
        let page = get(a, &path(&server, who)).body;
        // Backs drawn in a list's place (`title="hidden"`) are P2's two face-down cards only.
        assert!(
            page.contains(&format!(r#"<span class="card">{}</span>"#, theirs[1])),
            "{page}"
        );
        assert_eq!(
            page.matches(r#"class="back" title="hidden""#).count(),
            2,
            "{page}"
        );
        secrets_absent(&server, who, &page, &[&theirs[0], &theirs[2]]);
    }
    // P1 flashes a card by a plain form: P2 and onlookers see it, and still not P1's others.
    let p1 = get(a, &path(&server, Who::Seat(0))).body;
    let answer = post(
        a,
        &format!("{}/move", path(&server, Who::Seat(0))),
        &[
            ("v", &version(&p1)),
            ("move", &format!("flash {}", mine[2])),
        ],
    );
    assert_eq!(answer.status, 303, "{}", answer.body);
    for who in [Who::Seat(1), Who::Onlooker] {
        let page = get(a, &path(&server, who)).body;
        assert!(page.contains(mine[2].as_str()), "{page}");
        secrets_absent(&server, who, &page, &[&mine[0], &mine[1]]);
    }
}

#[test]
fn a_revealed_card_is_named_on_a_page_only_while_it_is_face_up() {
    let (server, mine, theirs) = flashed_table();
    let a = addr(&server);
    let moved = |who: Who, label: String| {
        let page = get(a, &path(&server, who)).body;
        let form = [("v", version(&page)), ("move", label)];
        let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let answer = post(a, &format!("{}/move", path(&server, who)), &form);
        assert_eq!(answer.status, 303, "{}", answer.body);
    };
    // P1 flashes a card (its move names it, face up); P2 gives P1 its face-up card in secret:
    // it stays face up, now in P1's hand, seen on every page.
    moved(Who::Seat(0), format!("flash {}", mine[2]));
    moved(Who::Seat(1), format!("give {}", theirs[1]));
    let onlooker = get(a, &path(&server, Who::Onlooker)).body;
    for up in [&mine[2], &theirs[1]] {
        assert!(onlooker.contains(up.as_str()), "{up}: {onlooker}");
    }
    secrets_absent(&server, Who::Onlooker, &onlooker, &[&mine[0], &mine[1]]);
    // P1 turns it face down in secret: no log line, page or event names it to anyone who did
    // not hold it, and P2's own line (`P2: give ...`) names it only to P2.
    moved(Who::Seat(0), format!("hide {}", theirs[1]));
    let onlooker = get(a, &path(&server, Who::Onlooker)).body;
    assert!(onlooker.contains("P1: hide (secret)"), "{onlooker}");
    assert!(onlooker.contains(mine[2].as_str()), "{onlooker}");
    secrets_absent(
        &server,
        Who::Onlooker,
        &onlooker,
        &[&mine[0], &mine[1], &theirs[1]],
    );
    let p2 = get(a, &path(&server, Who::Seat(1))).body;
    assert!(p2.contains(&format!("P2: give {}", theirs[1])), "{p2}");
    secrets_absent(&server, Who::Seat(1), &p2, &[&mine[0], &mine[1]]);
}
