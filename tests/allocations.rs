//! Steady-state playouts ask the allocator for nothing: a counting allocator counts the
//! allocations made while decisions are played (`Game::play` on the fast path), after a few
//! warm-up games have filled the engine's pools. Starting a game is not a decision and is not
//! counted; the decision that ends a game builds the outcome (winners, scores, the reason),
//! which is counted apart and bounded per game.
//!
//! Targets (issue: engine speed): 0 per decision for Cheater's Game, at most 2 for every other
//! seed game and variant.

mod common;

use common::{all_rules, load_rel, rel};
use meeple::bots::RandomBot;
use meeple::engine::Game;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;

/// Counts allocations (and reallocations) of the current thread, so that tests running in
/// parallel do not count each other's.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count_one() {
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

// SAFETY: every call is passed to the system allocator unchanged; counting has no effect on
// the memory returned.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Games played before counting: enough for what each thread keeps (pooled list buffers grown to
/// the sizes the game needs, remembered calls, the values before setup) to reach its size.
const WARM_UP_GAMES: u64 = 200;
const GAMES: u64 = 100;

/// What `GAMES` random playouts allocated inside `play`.
struct Count {
    /// Allocations per decision, the last decision of each game excepted.
    per_decision: f64,
    /// The most allocations of one game's last decision (building the outcome).
    at_the_end: u64,
    /// Decisions counted.
    decisions: u64,
}

fn count(program: &Arc<meeple::ir::Program>, players: u8) -> Count {
    let mut counted = 0;
    let mut decisions = 0;
    let mut at_the_end = 0;
    for seed in 1..=WARM_UP_GAMES + GAMES {
        let mut game = Game::playout(program.clone(), players, seed).expect("starts");
        let mut bots: Vec<RandomBot> = (0..players).map(|p| RandomBot::new(seed, p)).collect();
        while let Some(seat) = game.to_decide() {
            let index = bots[seat as usize].pick(game.option_count(seat));
            let before = allocations();
            game.play(seat, index).expect("plays");
            let made = allocations() - before;
            if seed <= WARM_UP_GAMES {
                continue;
            }
            if game.is_over() {
                at_the_end = at_the_end.max(made);
            } else {
                counted += made;
                decisions += 1;
            }
        }
    }
    Count {
        per_decision: counted as f64 / decisions as f64,
        at_the_end,
        decisions,
    }
}

#[test]
fn playouts_allocate_nothing_per_decision_in_steady_state() {
    let mut report = Vec::new();
    for path in all_rules() {
        let name = rel(&path);
        let program = Arc::new(load_rel(&name, &[]).program.expect("checks"));
        for players in program.min_players..=program.max_players {
            report.push((name.clone(), players, count(&program, players)));
        }
    }
    for (name, players, c) in &report {
        eprintln!(
            "{name:55} {players}p  {:8.3} allocations per decision ({} decisions), {} at the end",
            c.per_decision, c.decisions, c.at_the_end
        );
    }
    for (name, players, c) in &report {
        let limit = if name.ends_with("cheaters_game.rules") {
            0.0
        } else {
            2.0
        };
        assert!(
            c.per_decision <= limit,
            "{name} at {players} players: {:.3} allocations per decision, more than {limit}",
            c.per_decision
        );
        // The outcome's winners and scores, and an `end game` reason's text.
        assert!(
            c.at_the_end <= 8,
            "{name} at {players} players: {} allocations to end a game",
            c.at_the_end
        );
    }
}

/// Random playouts of `name` allocate nothing per decision, at every player count.
fn assert_allocates_nothing(name: &str) {
    let program = Arc::new(load_rel(name, &[]).program.expect("checks"));
    for players in program.min_players..=program.max_players {
        let c = count(&program, players);
        assert!(c.decisions > 0);
        assert!(
            c.per_decision == 0.0,
            "{name} at {players} players: {:.3} allocations per decision",
            c.per_decision
        );
    }
}

/// A parameter's range from expressions is worked out as moves are listed, in place.
#[test]
fn ranges_from_expressions_allocate_nothing() {
    assert_allocates_nothing("tests/fixtures/ok/rising_bids.rules");
}

#[test]
fn the_counter_sees_an_allocation() {
    let before = allocations();
    let v: Vec<u64> = std::hint::black_box(Vec::with_capacity(8));
    assert!(allocations() > before);
    drop(v);
}

#[test]
fn a_bot_asked_in_a_game_for_people_renders_no_labels() {
    // `meeple play --bots` asks its bots through `ask_bot`. Labelling all 10,000 options of this
    // choice (for a bot that reads none of them) cost a third of a second a decision at 100,000.
    let text = "game \"Wide\" { players 2 }\nplayer var points: int = 0\n\
                flow { repeat 2 { for p in players { turn p } } }\n\
                action show { let n = choose me \"How many?\" from 1..10000\n me.points += n }\n\
                score(p) = p.points\n";
    let program = meeple::load::check_source("wide.rules", text)
        .program
        .expect("checks");
    let mut game = Game::new(Arc::new(program), 2, 1).expect("starts");
    game.apply(0, 0).expect("show");
    assert_eq!(game.option_count(0), 10_000);
    let mut bot = RandomBot::new(1, 0);
    let before = allocations();
    let index = meeple::bots::ask_bot(&game, 0, &mut bot).expect("a choice");
    let asked = allocations() - before;
    assert!(index < 10_000);
    assert!(asked <= 4, "asking the bot allocated {asked} times");
    // The count sees labelling: one label a option at least.
    let before = allocations();
    let labelled = game.options(0).len();
    assert!(allocations() - before >= labelled as u64);
}

/// Maps by a player and maps of maps are read and written in place, as maps by an enum are.
#[test]
fn maps_by_a_player_and_maps_of_maps_allocate_nothing() {
    assert_allocates_nothing("tests/fixtures/ok/ledgers.rules");
}

/// Maps by a kind and by a range that follows the player count are read and written in place,
/// as maps by a player are.
#[test]
fn maps_by_a_kind_and_by_a_player_count_range_allocate_nothing() {
    assert_allocates_nothing("tests/fixtures/ok/kind_maps.rules");
}
