//! The table in a real browser: headless Chromium, driven through ChromeDriver, plays a whole
//! game of each seed game from its seats' pages (three, or Share & Share Alike's four), an
//! onlooker's page open beside them. Each page follows the game by itself (server-sent events),
//! shows what its viewer may see (its own hand, only the backs of the others') and the end;
//! screenshots are taken at a phone's width and a laptop's. The pages `meeple sim --html` and
//! `meeple doc --html` write are opened at a phone's width: nothing wider than the screen, chart
//! labels of a readable size.

mod common;
#[path = "common/webdriver.rs"]
mod webdriver;

use common::{code, program, run, stderr};
use meeple::bots::{BotSpec, RandomBot};
use meeple::engine::{Game, Look};
use meeple::serve::{Server, Table, TableConfig, Who};
use std::sync::Arc;
use webdriver::{Driver, Session};

fn start(game: Game, rules: &str) -> Server {
    let table = Table::new(TableConfig {
        game,
        rules: rules.into(),
        variants: Vec::new(),
        bots: BotSpec::default(),
        save: None,
        host: Arc::new(|note: &str| panic!("the host was told: {note}")),
        replay: false,
    })
    .expect("keys");
    Server::start(table, "127.0.0.1:0".parse().unwrap()).expect("listens")
}

/// The version of the page a browser shows.
fn shown_version(s: &Session) -> String {
    s.script("return document.body ? document.body.getAttribute('data-version') : null")
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Waits until the browser shows `who`'s page as it is now: it updates itself.
fn wait_current(server: &Server, s: &Session, who: Who) {
    s.wait_for(20, "the page to follow the game", |s| {
        shown_version(s) == server.table().version(who).to_string()
    });
}

/// Checks what `who`'s page shows of every seat's holdings: each list it may read as cards,
/// each it may not as backs with a count, each value it may not see as a `?`, exactly as the
/// engine's picture for `who` says.
fn check_holdings(server: &Server, s: &Session, who: Who) {
    let game = server.table().game();
    let picture = game.picture(who.viewer());
    // Every entry of every seat's panel in one call: its text, its backs and its cards.
    let drawn = s.script(
        "return Array.from(document.querySelectorAll('.seats > .seat')).map(s => \
         Array.from(s.querySelectorAll('.entry')).map(e => \
         [e.innerText, e.querySelectorAll('.back').length, e.querySelectorAll('.card').length]))",
    );
    let drawn = drawn.as_array().expect("the panels");
    assert_eq!(drawn.len(), picture.seats.len());
    for (panel, entries) in picture.seats.iter().zip(drawn) {
        let entries = entries.as_array().expect("a panel's entries");
        assert_eq!(entries.len(), panel.vars.len(), "{}", panel.name);
        for (entry, shown) in panel.vars.iter().zip(entries) {
            let text = shown[0].as_str().unwrap_or_default();
            let backs = shown[1].as_u64().unwrap_or(0);
            let cards = shown[2].as_u64().unwrap_or(0);
            let what = format!("{who:?} sees {}'s {}: {text}", panel.name, entry.name);
            match &entry.look {
                Look::Things(items) => {
                    assert_eq!(backs, 0, "{what}");
                    assert_eq!(cards > 0, !items.is_empty(), "{what}");
                    for item in items {
                        assert!(text.contains(item.as_str()), "{what}: {item}");
                    }
                }
                Look::Backs(n) => {
                    assert_eq!(cards, 0, "{what}");
                    assert!(backs > 0 && text.contains(&format!("{n} hidden")), "{what}");
                }
                Look::Part(items) => {
                    let shown: Vec<&String> = items.iter().flatten().collect();
                    assert_eq!(cards, shown.len() as u64, "{what}");
                    assert_eq!(backs > 0, shown.len() < items.len(), "{what}");
                    for item in shown {
                        assert!(text.contains(item.as_str()), "{what}: {item}");
                    }
                }
                Look::Unknown => assert!(backs == 1 && text.contains('?'), "{what}"),
                _ => {
                    assert_eq!(backs, 0, "{what}");
                    assert!(text.contains(entry.text.as_str()), "{what}");
                }
            }
        }
    }
}

/// Plays a whole game of `file` in Chromium: a browser for each seat and one for onlookers,
/// each opened once at its link and never reloaded by the test, a random button clicked on the
/// page of whoever must decide. Every few moves every page is checked against the engine's
/// picture for its viewer. Returns the number of decisions.
fn play_in_chromium(file: &str, players: u8, seed: u64, shots: Option<&std::path::Path>) -> usize {
    let game = Game::new(program(file), players, seed).unwrap();
    let server = start(game, file);
    let driver = Driver::start();
    let profiles = tempfile::tempdir().unwrap();
    let seats: Vec<Session> = (0..players)
        .map(|p| driver.session(&profiles.path().join(format!("p{p}")), 1280, 1000))
        .collect();
    let onlooker = driver.session(&profiles.path().join("onlooker"), 390, 844);
    for (p, s) in seats.iter().enumerate() {
        s.go(&server.link(Who::Seat(p as u8)));
    }
    onlooker.go(&server.link(Who::Onlooker));

    let mut rng = RandomBot::new(seed, 7);
    let mut steps = 0;
    while !server.table().game().is_over() {
        steps += 1;
        assert!(steps < 2000, "{file}: the game ends");
        let game = server.table().game();
        let seat = game.waiting_on()[0];
        let page = &seats[seat as usize];
        // No page is reloaded by the test: each learns of every move by itself.
        wait_current(&server, page, Who::Seat(seat));
        if steps % 10 == 1 {
            for (p, s) in seats.iter().enumerate() {
                wait_current(&server, s, Who::Seat(p as u8));
                check_holdings(&server, s, Who::Seat(p as u8));
            }
            wait_current(&server, &onlooker, Who::Onlooker);
            check_holdings(&server, &onlooker, Who::Onlooker);
        }
        if let (Some(shots), 10) = (shots, steps) {
            page.resize(1280, 1000);
            std::fs::write(shots.join("table-1280.png"), page.screenshot()).unwrap();
            page.resize(390, 844);
            std::fs::write(shots.join("table-390.png"), page.screenshot()).unwrap();
            page.resize(1280, 1000);
        }
        let before = game.decisions();
        let buttons = page.find_all("#decide button.option");
        if !buttons.is_empty() {
            page.click(&buttons[rng.pick(buttons.len())]);
        } else {
            let several = game.several(seat).expect("buttons or a choice of several");
            let boxes = page.find_all("#decide input[name=pick]");
            for b in boxes.iter().take(several.min) {
                page.click(b);
            }
            page.click(&page.find_all("#decide button.play")[0]);
        }
        let started = std::time::Instant::now();
        while server.table().game().decisions() == before {
            assert!(
                started.elapsed().as_secs() < 20,
                "{file}: the click was taken; the page shows:\n{}",
                page.page_text()
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
    for (p, s) in seats.iter().enumerate() {
        wait_current(&server, s, Who::Seat(p as u8));
        assert!(
            s.page_text().contains("Game over"),
            "{file}: P{} sees the end",
            p + 1
        );
        check_holdings(&server, s, Who::Seat(p as u8));
    }
    wait_current(&server, &onlooker, Who::Onlooker);
    assert!(onlooker.page_text().contains("Game over"));
    steps
}

#[test]
fn small_print_is_played_to_its_end_from_three_pages_and_an_onlookers() {
    let shots = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("table-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    play_in_chromium("rules/small_print.rules", 3, 4, Some(&shots));
    for shot in ["table-1280.png", "table-390.png"] {
        let png = std::fs::read(shots.join(shot)).unwrap();
        assert!(png.starts_with(b"\x89PNG"), "{shot} is a picture");
    }
}

#[test]
fn cheaters_game_is_played_to_its_end_from_three_pages_and_an_onlookers() {
    play_in_chromium("rules/cheaters_game.rules", 3, 5, None);
}

#[test]
fn endgame_is_played_to_its_end_from_three_pages_and_an_onlookers() {
    play_in_chromium("rules/endgame.rules", 3, 6, None);
}

#[test]
fn incorporated_is_played_to_its_end_from_three_pages_and_an_onlookers() {
    play_in_chromium("rules/incorporated.rules", 3, 7, None);
}

#[test]
fn share_and_share_alike_is_played_to_its_end_from_four_pages_and_an_onlookers() {
    // The game is for four players (ruling SSA-1).
    play_in_chromium("rules/share_and_share_alike.rules", 4, 8, None);
}

#[test]
fn a_mat_whose_top_discs_are_shown_is_played_from_three_pages_and_an_onlookers() {
    // Each page draws the flipped top of a mat as discs and the rest as backs.
    play_in_chromium("tests/fixtures/ok/skull_mat.rules", 3, 9, None);
}

/// What a page at the window's width shows: the document's width and the window's, and the
/// size on screen of each label of each chart drawn (its font size times the chart's scale),
/// with each shown chart's description.
const MEASURE: &str = "\
const labels = [], captions = [];\
for (const svg of document.querySelectorAll('svg')) {\
  const box = svg.getBoundingClientRect();\
  if (box.width === 0) continue;\
  const scale = box.width / svg.viewBox.baseVal.width;\
  for (const t of svg.querySelectorAll('text')) {\
    if (t.textContent.trim() === '') continue;\
    labels.push([t.textContent, parseFloat(getComputedStyle(t).fontSize) * scale]);\
  }\
  const words = document.getElementById(svg.getAttribute('aria-describedby'));\
  captions.push([svg.getAttribute('aria-label'), words ? words.textContent : '']);\
}\
return {page: document.documentElement.scrollWidth, window: window.innerWidth,\
  labels: labels, captions: captions};";

/// Opens `page` at 390 pixels and checks that nothing is wider than the window and that every
/// label of every chart shown is at least 11 pixels high; returns the measures.
fn check_on_a_phone(s: &Session, page: &std::path::Path) -> serde_json::Value {
    s.go(&format!("file://{}", page.display()));
    let m = s.script(MEASURE);
    let (width, window) = (m["page"].as_f64().unwrap(), m["window"].as_f64().unwrap());
    // A page without a viewport meta is laid out 980 pixels wide on a phone, and shrunk.
    assert!(
        window <= 400.0,
        "{}: laid out at a phone's width (a viewport meta): {m}",
        page.display()
    );
    assert!(
        width <= window,
        "{}: the page is {width} pixels wide in a window of {window}",
        page.display()
    );
    for label in m["labels"].as_array().unwrap() {
        let size = label[1].as_f64().unwrap();
        assert!(
            size >= 11.0,
            "{}: `{}` is drawn {size:.1} pixels high",
            page.display(),
            label[0]
        );
    }
    m
}

#[test]
fn sim_pages_and_rulebooks_fit_a_phone() {
    let dir = tempfile::tempdir().unwrap();
    let driver = Driver::start();
    // As a phone shows pages: without the viewport meta, a page is laid out 980 pixels wide.
    let phone = driver.phone(&dir.path().join("profile"), 390, 844);
    let runs: [&[&str]; 2] = [
        &["rules/cheaters_game.rules", "-p", "3", "-g", "40"],
        &[
            "rules/cheaters_game.rules",
            "-p",
            "4",
            "-g",
            "40",
            "--against",
            "rules/cheaters_game/win_the_race.rules",
        ],
    ];
    for (i, args) in runs.iter().enumerate() {
        let page = dir.path().join(format!("sim-{i}.html"));
        let o = run(&[&["sim"][..], args, &["--html", page.to_str().unwrap()]].concat());
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let m = check_on_a_phone(&phone, &page);
        assert!(m["labels"].as_array().unwrap().len() > 20, "labels: {m}");
        let captions = m["captions"].as_array().unwrap();
        let names: Vec<&str> = captions.iter().map(|c| c[0].as_str().unwrap()).collect();
        assert_eq!(
            names,
            ["Win rate per seat", "Game length", "Scores per seat"],
            "one drawing of each chart is shown"
        );
        // Each chart says in words what it shows, with its numbers.
        for c in captions {
            let words = c[1].as_str().unwrap();
            let digits = words.chars().filter(char::is_ascii_digit).count();
            assert!(words.len() > 40 && digits >= 6, "in words: {c}");
        }
        if i == 0 {
            let shots = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
            phone.script("window.scrollTo(0, document.querySelector('h2').offsetTop)");
            let png = phone.screenshot();
            assert!(png.starts_with(b"\x89PNG"));
            std::fs::write(shots.join("sim-390.png"), png).unwrap();
        }
    }
    // The seed games' rulebooks (not their variants', which are the same pages and more).
    let games = std::fs::read_dir(common::root().join("rules")).unwrap();
    let mut games: Vec<_> = games
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "rules"))
        .collect();
    games.sort();
    assert!(games.len() >= 5, "{games:?}");
    for game in games {
        let o = run(&["doc", game.to_str().unwrap(), "--html"]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let page = dir.path().join("book.html");
        std::fs::write(&page, &o.stdout).unwrap();
        check_on_a_phone(&phone, &page);
    }
}
