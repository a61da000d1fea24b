//! The fast path, as a bot or a simulator uses it: start playouts, list options as a count,
//! play by index, copy a position to explore a move and come back, and let the search bot
//! decide. Nothing here renders a string until the end.
//!
//! Run with `cargo run --release --example fast_playouts`.

use meeple::bots::{MctsBot, Policy, RandomBot};
use meeple::engine::Game;
use meeple::load;
use std::path::Path;
use std::sync::Arc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let program = load::load(Path::new("rules/cheaters_game.rules"), &[])
        .program
        .ok_or("the rules have errors: run `meeple check rules/cheaters_game.rules`")?;
    let program = Arc::new(program);

    // A thousand random playouts: count the decisions and who wins.
    let mut decisions = 0;
    let mut wins = [0u32; 3];
    for seed in 1..=1000 {
        let mut game = Game::playout(program.clone(), 3, seed)?;
        let mut bots: Vec<RandomBot> = (0..3).map(|s| RandomBot::new(seed, s)).collect();
        while let Some(seat) = game.to_decide() {
            let index = bots[seat as usize].pick(game.option_count(seat));
            game.play(seat, index)?;
        }
        decisions += game.decisions();
        for w in &game.outcome().ok_or("finished")?.winners {
            wins[*w as usize] += 1;
        }
    }
    println!("1000 random games: {decisions} decisions, wins by seat {wins:?}");

    // Explore each option of the first decision on a copy; the game itself is untouched.
    let game = Game::playout(program.clone(), 3, 7)?;
    let seat = game.to_decide().ok_or("a decision")?;
    for index in 0..game.option_count(seat) {
        let mut copy = game.clone();
        copy.play(seat, index)?;
        let what = game.option_label(seat, index).unwrap_or_default();
        println!(
            "option {index} ({what}): {} decisions so far in the copy",
            copy.decisions()
        );
    }

    // The search bot decides from what its seat may know.
    let choice = MctsBot::new(7, seat, 300).decide(&game, seat);
    println!(
        "the search bot plays {}",
        game.option_label(seat, choice).unwrap_or_default()
    );
    Ok(())
}
