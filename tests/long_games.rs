//! A long game costs each decision the same, however many came before: a front end that prints
//! the log as the game goes reads only the lines written since it last looked, and the chain of
//! hashes in a save hashes only what each decision changed. Once, a bot game that ran to the
//! decision limit (a `while true` whose `end game` could not be reached) printed ever more
//! slowly and never finished writing its save: both read the whole log at every decision.

use meeple::engine::GameSettings;
use meeple::engine::{Game, LogCursor, Viewer};
use meeple::load::check_source;
use meeple::save::chain;
use std::sync::Arc;

/// A game of `rounds` rounds in which every decision writes one line for all and one told to
/// the seat alone.
fn chatty(rounds: u32) -> Arc<meeple::ir::Program> {
    let source = format!(
        "game \"Chatty\" {{ players 2 }}\n\
         player var said: int = 0\n\
         flow {{ repeat {rounds} {{ for p in players {{ turn p }} }} }}\n\
         action speak \"Say something\" {{\n  me.said += 1\n  log \"{{me}} speaks\"\n  \
         tell me \"only you hear this ({{me.said}})\"\n}}\n\
         action hush \"Say nothing\" {{ log \"{{me}} is quiet\" }}\n\
         score(p) = p.said\n"
    );
    let loaded = check_source("chatty.rules", &source);
    Arc::new(loaded.program.expect("checks"))
}

/// Plays `decisions` decisions, seat by seat, each the option its parity picks.
fn play(game: &mut Game, decisions: usize, mut each: impl FnMut(&Game)) {
    for d in 0..decisions {
        let seat = game.waiting_on()[0];
        game.apply(seat, d % 2).expect("legal");
        each(game);
    }
}

#[test]
fn reading_the_log_on_from_a_cursor_gives_each_line_once_and_only_to_whom_it_belongs() {
    let mut game = Game::new(chatty(50), 2, 1).expect("starts");
    let viewers = [Viewer::Player(0), Viewer::Player(1), Viewer::Spectator];
    let mut cursors = [LogCursor::default(); 3];
    let mut read: [Vec<String>; 3] = Default::default();
    play(&mut game, 60, |game| {
        for (i, viewer) in viewers.iter().enumerate() {
            let (lines, next) = game.log_since(*viewer, cursors[i]);
            read[i].extend(lines);
            cursors[i] = next;
        }
    });
    for (i, viewer) in viewers.iter().enumerate() {
        assert_eq!(read[i], game.log(*viewer), "{viewer:?}");
    }
    assert!(read[0].iter().any(|l| l.contains("only you hear")));
    assert!(!read[2].iter().any(|l| l.contains("only you hear")));
    // Read to the end, nothing is new; a cursor past the end of a shorter log (the same game
    // replayed without its last moves) gives what that log has past its end: nothing.
    assert!(game.log_since(Viewer::Spectator, cursors[2]).0.is_empty());
    let mut shorter = Game::new(chatty(50), 2, 1).expect("starts");
    play(&mut shorter, 10, |_| {});
    assert!(shorter
        .log_since(Viewer::Spectator, cursors[2])
        .0
        .is_empty());
}

#[test]
fn the_text_each_link_of_a_save_hashes_does_not_grow_with_the_game() {
    let mut game = Game::new(chatty(200), 2, 1).expect("starts");
    let mut since = game.log_end();
    let mut sizes = Vec::new();
    play(&mut game, 300, |game| {
        let text = game.canonical_since(since);
        // What the decision wrote is in it (the move announced, what the action logs and
        // tells); what earlier decisions wrote is not.
        let lines = text.lines().filter(|l| l.starts_with("log ")).count();
        assert!((2..=3).contains(&lines), "{text}");
        assert!(!text.contains("\ndecided "), "{text}");
        sizes.push(text.len());
        since = game.log_end();
    });
    // The position itself barely changes (a count grows by a digit), the log behind it does:
    // the whole canonical text grows by every line, the text of a link does not.
    assert!(
        sizes[299] <= sizes[10] + 8,
        "{} then {}",
        sizes[10],
        sizes[299]
    );
    assert!(game.canonical().len() > 20 * sizes[299]);
}

#[test]
fn a_chain_of_a_long_game_checks_against_its_replay() {
    // The links found by replaying a record are those the game gave as it was played.
    let program = chatty(100);
    let mut game = Game::new(program.clone(), 2, 3).expect("starts");
    let mut played = chain::Chain::start(&game);
    let mut links = vec![played.link];
    play(&mut game, 150, |game| links.push(played.next(game)));
    let replayed =
        chain::links(program, &GameSettings::new(2, 3), game.history()).expect("replays");
    assert_eq!(replayed, links);
    // Each link differs from the one before: every decision changed what it hashes.
    assert!(links.windows(2).all(|w| w[0] != w[1]));
}
