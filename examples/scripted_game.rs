//! Embedding Meeple: load a rules file, play a few scripted moves, let bots finish, print the
//! public transcript.
//!
//! Run with `cargo run --example scripted_game`.

use meeple::engine::{Game, Viewer};
use meeple::{bots, load, sim};
use std::path::Path;
use std::sync::Arc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let loaded = load::load(Path::new("rules/cheaters_game.rules"), &[]);
    let Some(program) = loaded.program else {
        eprint!(
            "{}",
            meeple::diag::render_all(
                &loaded.diagnostics,
                &loaded.sources,
                meeple::diag::RenderStyle::plain()
            )
        );
        return Err("the rules file has errors".into());
    };
    let mut game = Game::new(Arc::new(program), 3, 7)?;

    // The first seat to move plays honestly; a typed move is checked like any other.
    let seat = game.waiting_on()[0];
    game.apply_label(seat, "honest")?;
    let seat = game.waiting_on()[0];
    if let Some(why) = game.why(seat, "fly") {
        println!("`fly` is not a move: {why}");
    }

    let mut players: Vec<Box<dyn bots::Bot>> = (0..game.players())
        .map(|p| bots::BotKind::Random.make(7, p))
        .collect();
    sim::play_to_end(&mut game, &mut players)?;
    println!("{}", sim::transcript(&game));
    println!("{}", game.view(Viewer::Player(0)));
    Ok(())
}
