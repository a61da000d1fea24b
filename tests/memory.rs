//! A batch of playouts holds no more memory at its end than after its first games: peak live
//! heap bytes, measured by a counting allocator, do not grow with the size of the batch.
//! (One test in its own binary, so that nothing else allocates while it measures.)

mod common;
mod counting;

use common::load_rel;
use counting::PEAK;
use meeple::sim::random_playout;
use std::sync::atomic::Ordering;
use std::sync::Arc;

#[test]
fn peak_memory_of_a_batch_does_not_grow_with_the_batch() {
    let program = Arc::new(
        load_rel("rules/cheaters_game.rules", &[])
            .program
            .expect("checks"),
    );
    let mut seed = 1;
    let mut play = |games: u64| {
        for _ in 0..games {
            let game = random_playout(program.clone(), 4, seed).expect("plays");
            assert!(game.is_over());
            seed += 1;
        }
    };
    play(1_000);
    let after_1000 = PEAK.load(Ordering::Relaxed);
    play(9_000);
    let after_10000 = PEAK.load(Ordering::Relaxed);
    eprintln!("peak live heap: {after_1000} bytes after 1,000 games, {after_10000} after 10,000");
    // A little slack for a pooled buffer meeting a longer list for the first time.
    assert!(
        after_10000 <= after_1000 + after_1000 / 20,
        "peak grew from {after_1000} to {after_10000} bytes"
    );
}
