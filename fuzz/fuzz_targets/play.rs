//! Random play of any rules text that checks: the first 8 bytes are the seed, the next one the
//! player count (within the game's range), each byte after a rules text's `\0` picks a move.
//! Under tight limits; a rule failing at run time is fine, a panic is not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use meeple::engine::{Limits, Viewer};
use meeple::settings::GameSettings;
use meeple::load::check_source;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    if data.len() < 9 {
        return;
    }
    let seed = u64::from_le_bytes(data[..8].try_into().unwrap_or([0; 8]));
    let count = data[8];
    let rest = &data[9..];
    let (text, choices) = match rest.iter().position(|b| *b == 0) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let text = String::from_utf8_lossy(text);
    let Some(program) = check_source("input.rules", &text).program else {
        return;
    };
    let program = Arc::new(program);
    let span = u16::from(program.max_players - program.min_players) + 1;
    let players = program.min_players + (u16::from(count) % span) as u8;
    let settings = GameSettings {
        limits: Limits {
            steps_per_decision: 20_000,
            loop_iterations: 2_000,
            decisions: 2_000,
            call_depth: 50,
            live_elements: 100_000,
        },
        ..GameSettings::new(players, seed)
    };
    let Ok(mut game) = settings.start(program) else {
        return;
    };
    let mut choices = choices.iter().cycle().take(500);
    while !game.is_over() {
        let waiting = game.waiting_on();
        assert!(!waiting.is_empty(), "a game not over waits on nobody");
        let Some(&pick) = choices.next() else { break };
        let seat = waiting[usize::from(pick) % waiting.len()];
        let n = game.options(seat).len();
        assert!(n > 0, "a waiting seat has no options");
        let _ = game.view(Viewer::Player(seat));
        if game.apply(seat, usize::from(pick) % n).is_err() {
            return;
        }
    }
    let _ = game.view(Viewer::Spectator);
});
